"""Eager-mode switches and the graph-mode API, which behaves as TF's does under eager execution."""
import contextlib
import logging
import os
import re

import jax

from tfe_compat.framework import tensor
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export


SYNC, ASYNC = 0, 1
DEVICE_PLACEMENT_EXPLICIT, DEVICE_PLACEMENT_WARN, DEVICE_PLACEMENT_SILENT = 0, 1, 2
DEVICE_PLACEMENT_SILENT_FOR_INT32 = 3
for _name in ("SYNC", "ASYNC", "DEVICE_PLACEMENT_EXPLICIT", "DEVICE_PLACEMENT_WARN",
              "DEVICE_PLACEMENT_SILENT", "DEVICE_PLACEMENT_SILENT_FOR_INT32"):
  export("contrib.eager." + _name)(globals()[_name])


@export("enable_eager_execution", "contrib.eager.enable_eager_execution")
def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
  """Accepted for compatibility: execution is always eager."""


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


@export("disable_eager_execution", "disable_v2_behavior")
def disable_eager_execution():
  raise RuntimeError("Graph mode is not supported: tfe_compat runs TensorFlow's eager "
                     "execution only (drop Session.run and placeholders).")


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


@export("placeholder", "sparse_placeholder", "sparse.placeholder")
def placeholder(dtype=None, shape=None, name=None):
  raise RuntimeError("tf.placeholder() is not compatible with eager execution.")


@export("Session", "InteractiveSession")
class Session:
  """A Session can be built under eager execution, but has no graph to run (as in TF)."""

  def __init__(self, target="", graph=None, config=None):
    self.graph = graph if graph is not None else Graph()

  def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    raise RuntimeError("The Session graph is empty. Add operations to the graph before "
                       "calling run().")

  def close(self):
    pass

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()

  def as_default(self):
    return contextlib.nullcontext(self)


@export("Graph")
class Graph:
  """A graph object exists in eager mode, but building ops into it is graph mode."""

  version = 0

  def as_default(self):
    return contextlib.nullcontext(self)

  def finalize(self):
    pass

  def __init__(self):
    self._collections = {}

  def get_operations(self):
    return []

  def get_collection_ref(self, name):
    return self._collections.setdefault(name, [])

  def get_collection(self, name, scope=None):
    """A copy of the collection's items (with a `name` attribute matching `scope`)."""
    items = self._collections.get(name, [])
    if scope is None:
      return list(items)
    return [x for x in items if re.match(scope, getattr(x, "name", "") or "")]

  def add_to_collection(self, name, value):
    self.get_collection_ref(name).append(value)

  def add_to_collections(self, names, value):
    for name in [names] if isinstance(names, str) else set(names):
      self.add_to_collection(name, value)


_default_graph = Graph()


@export("get_collection")
def get_collection(key, scope=None):
  """The default graph's collection `key`: TF 1.x collections still exist in eager mode."""
  return _default_graph.get_collection(key, scope)


@export("get_collection_ref")
def get_collection_ref(key):
  return _default_graph.get_collection_ref(key)


@export("add_to_collection")
def add_to_collection(name, value):
  _default_graph.add_to_collection(name, value)


@export("add_to_collections")
def add_to_collections(names, value):
  _default_graph.add_to_collections(names, value)


@export("get_default_graph")
def get_default_graph():
  return _default_graph


_reset_hooks = []  # state that TF keeps in the default graph (the global step) resets here


def on_reset_default_graph(hook):
  """Registers `hook()` to run on `tf.reset_default_graph()`."""
  _reset_hooks.append(hook)
  return hook


@export("reset_default_graph")
def reset_default_graph():
  """Forgets graph-held state, as TF does: the global step is created anew afterwards."""
  _default_graph._collections.clear()  # pylint: disable=protected-access
  for hook in _reset_hooks:
    hook()


@export("no_op")
def no_op(name=None):
  """Eager ops run at once: returns None, as TF's no_op does in eager mode."""
  return None


@export("control_dependencies")
@contextlib.contextmanager
def control_dependencies(control_inputs):
  """Eager ops run in program order, so control dependencies are already satisfied."""
  yield


@export("init_scope", "colocate_with", "container")
@contextlib.contextmanager
def _no_effect_scope(*args, **kwargs):
  """Scopes that change nothing under eager execution (`init_scope` lifts out of graphs that
  do not exist here; placement and containers are JAX's)."""
  yield


@export("executing_eagerly_outside_functions")
def executing_eagerly_outside_functions():
  return True


@export("get_logger")
def get_logger():
  """`tf.get_logger()`: the "tensorflow" logger of Python's logging."""
  return logging.getLogger("tensorflow")


@export("gradients", "hessians")
def gradients(ys, xs, grad_ys=None, name="gradients", **kwargs):
  raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                     "Use tf.GradientTape instead.")


@export("AggregationMethod")
class AggregationMethod:
  """How `tf.gradients` sums gradients (graph mode); TF 1.15's constants."""
  ADD_N = 0
  DEFAULT = ADD_N
  EXPERIMENTAL_TREE = 1
  EXPERIMENTAL_ACCUMULATE_N = 2


@export("ConfigProto")
class ConfigProto:
  """Session configuration: accepted and ignored (JAX manages devices and threads)."""

  def __init__(self, gpu_options=None, **kwargs):
    self.gpu_options = gpu_options or GPUOptions()
    self.__dict__.update(kwargs)


@export("GPUOptions")
class GPUOptions:
  def __init__(self, **kwargs):
    self.allow_growth = False
    self.__dict__.update(kwargs)
