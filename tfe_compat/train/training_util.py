"""The global step: `tf.train.get_or_create_global_step` and friends.

TF keeps the global step in the default graph's GLOBAL_STEP collection: so does graph mode;
eager code has one graph, so one process-wide slot holds it. It is an int64 scalar Variable
named `global_step:0` (prefixed by the variable scope it is created in, as get_variable does).
"""
import threading

from tfe_compat import variables
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph
from tfe_compat.framework.api import export
from tfe_compat.ops import init_ops

_lock = threading.Lock()
_global_step = []  # the eager program's Variable, once created


@graph.on_reset_default_graph
def _forget_global_step():
  del _global_step[:]


def _slot(graph_=None):
  """Where the global step is kept: the graph's GLOBAL_STEP collection in graph mode."""
  if graph_ is None and context.ctx.graph is None:
    return _global_step
  return (graph_ or graph.get_default_graph()).get_collection_ref("global_step")


@export("train.get_global_step")
def get_global_step(graph=None):  # pylint: disable=redefined-outer-name
  """The global step Variable, or None if none was created."""
  slot = _slot(graph)
  return slot[0] if slot else None


@export("train.create_global_step")
def create_global_step(graph=None):  # pylint: disable=redefined-outer-name
  """Creates the global step (int64, starts at 0, not trainable); it must not exist yet."""
  with _lock:
    slot = _slot(graph)
    if slot:
      raise ValueError('"global_step" already exists.')
    slot.append(_new_global_step())
    return slot[0]


@export("train.get_or_create_global_step")
def get_or_create_global_step(graph=None):  # pylint: disable=redefined-outer-name
  """The global step, created on the first call (the same Variable on every later call)."""
  with _lock:
    slot = _slot(graph)
    if not slot:
      slot.append(_new_global_step())
    return slot[0]


def _new_global_step():
  return variables.get_variable(
      "global_step", shape=[], dtype=dtypes.int64, initializer=init_ops.Zeros(),
      trainable=False, aggregation=variables.VariableAggregation.ONLY_FIRST_REPLICA)


def reset_global_step():
  """Forgets the global step (what a fresh default graph gives; used by tests)."""
  with _lock:
    del _slot()[:]


@export("train.global_step")
def global_step(sess, global_step_tensor):
  """The global step's value as a Python int (read in `sess` in graph mode)."""
  if getattr(global_step_tensor, "_graph", None) is not None or isinstance(
      global_step_tensor, graph.GraphTensor):
    return int(sess.run(global_step_tensor))
  return int(global_step_tensor.numpy())


@export("train.assert_global_step")
def assert_global_step(global_step_tensor):
  """Raises TypeError unless `global_step_tensor` is an integer scalar."""
  dtype = global_step_tensor.dtype
  if not (dtype.is_integer and global_step_tensor.shape.ndims in (0, None)):
    raise TypeError("Existing \"global_step\" does not have integer type: %s" % dtype
                    if not dtype.is_integer else
                    "Existing \"global_step\" is not scalar: %s" % global_step_tensor.shape)
