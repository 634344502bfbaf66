"""Eager and graph mode switches: `tf.enable_eager_execution`, `tf.enable_v2_behavior`, ...

A TF 1.x program is in graph mode unless it enables eager execution at startup (`tfe-run`
starts scripts in graph mode; `import tfe_compat` alone is eager, as TF 2 is), and inside
`Graph.as_default()` (see graph.py).
"""
import contextlib
import os

import jax

from tfe_compat.framework import context
from tfe_compat.framework import tensor
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export

_ctx = context.ctx


SYNC, ASYNC = 0, 1
DEVICE_PLACEMENT_EXPLICIT, DEVICE_PLACEMENT_WARN, DEVICE_PLACEMENT_SILENT = 0, 1, 2
DEVICE_PLACEMENT_SILENT_FOR_INT32 = 3
for _name in ("SYNC", "ASYNC", "DEVICE_PLACEMENT_EXPLICIT", "DEVICE_PLACEMENT_WARN",
              "DEVICE_PLACEMENT_SILENT", "DEVICE_PLACEMENT_SILENT_FOR_INT32"):
  export("contrib.eager." + _name)(globals()[_name])


@export("enable_resource_variables", "disable_resource_variables")
def _accepted_switch():
  """A TF 1.x behaviour switch that tfe_compat accepts (eager variables are resource
  variables either way, as in TF)."""


_tf2 = False
_control_flow_v2 = os.getenv("TF_ENABLE_CONTROL_FLOW_V2", "0") != "0"


@export("enable_v2_behavior")
def enable_v2_behavior():
  """TF 2 behaviour, where it differs under eager execution: elementwise `==` on Tensors
  (which become unhashable), TensorShape entries as ints or None, control flow v2."""
  global _tf2  # pylint: disable=global-statement
  _tf2 = True
  enable_eager_execution()
  tensor.enable_tensor_equality()
  tensor_shape.enable_v2_tensorshape()
  enable_control_flow_v2()


def tf2_enabled():
  """Whether `enable_v2_behavior()` ran (`tensorflow.python.tf2.enabled()`)."""
  return _tf2


@export("enable_control_flow_v2")
def enable_control_flow_v2():
  """Remembered: cond, while_loop and TensorArray are functional (v2-like) here already."""
  global _control_flow_v2  # pylint: disable=global-statement
  _control_flow_v2 = True


@export("disable_control_flow_v2")
def disable_control_flow_v2():
  """Remembered: eager control flow runs the same Python either way."""
  global _control_flow_v2  # pylint: disable=global-statement
  _control_flow_v2 = False


@export("control_flow_v2_enabled")
def control_flow_v2_enabled():
  return _control_flow_v2


@export("experimental.output_all_intermediates")
def output_all_intermediates(state):
  """Accepted: a graph-building option of v2 control flow; compiled control flow here is
  differentiated by JAX, which keeps what the gradient needs."""
  del state


@export("contrib.eager.execution_mode")
@contextlib.contextmanager
def execution_mode(mode):
  """`tfe.execution_mode(tfe.ASYNC)`: JAX dispatch is already asynchronous."""
  del mode
  yield


@export("contrib.eager.async_wait", "contrib.eager.async_clear_error")
def async_wait():
  """`tfe.async_wait()`: blocks until every dispatched computation has finished."""
  jax.effects_barrier()


@export("enable_eager_execution", "contrib.eager.enable_eager_execution")
def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
  """Turns on eager execution; TF's ValueError once graph ops exist."""
  graph = context.default_graph[0]
  if not context.eager_default[0] and graph is not None and graph._ops:
    raise ValueError("tf.enable_eager_execution must be called at program startup.")
  _set_eager(True)


@export("disable_eager_execution")
def disable_eager_execution():
  """TF 1.x graph mode for the rest of the program (ops build into the default graph)."""
  _set_eager(False)


def _set_eager(enabled):
  context.eager_default[0] = enabled
  context.refresh_mode(_ctx)


@export("executing_eagerly_outside_functions")
def executing_eagerly_outside_functions():
  return context.eager_default[0] and not _ctx.graph_stack


@contextlib.contextmanager
def eager_mode():
  """Eager execution inside the block, whatever the mode outside (`context.eager_mode()`)."""
  with _mode(None):
    yield


@contextlib.contextmanager
def _mode(graph):
  saved = _ctx.graph_stack, _ctx.graph_env
  _ctx.graph_stack, _ctx.graph_env = ([] if graph is None else [graph]), None
  saved_eager = context.eager_default[0]
  if graph is None:
    context.eager_default[0] = True
  context.refresh_mode(_ctx)
  try:
    yield
  finally:
    (_ctx.graph_stack, _ctx.graph_env), context.eager_default[0] = saved, saved_eager
    context.refresh_mode(_ctx)




@export("disable_v2_behavior")
def disable_v2_behavior():
  """TF 1.x behaviour: graph mode, and TF 1.x's `==`, shapes and control flow."""
  global _tf2  # pylint: disable=global-statement
  _tf2 = False
  tensor.disable_tensor_equality()
  disable_control_flow_v2()
  disable_eager_execution()
