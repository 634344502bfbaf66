"""TF 1.x conditionals in imported graphs: `Switch` and `Merge` as selects (graph_import.py).

TensorFlow 1.x writes `tf.cond` as a `Switch` that sends its input down one branch (the other
branch's tensors are "dead" and its nodes do not run) and a `Merge` that forwards the one
live input. A compiled run computes both branches instead and keeps, for every tensor behind
a Switch, a boolean "live" tensor: a Switch's outputs are live where the predicate says,
other nodes are live where all their inputs are, a Merge selects its live input. Assignments
and optimizer updates in a branch write only when they are live, so the untaken branch
changes no variable.
"""
from tfe_compat import state_ops
from tfe_compat.variables import ResourceVariable
from tfe_compat.framework import graph_build
from tfe_compat.framework.tensor import Tensor


def _tf():
  import tfe_compat  # pylint: disable=import-outside-toplevel
  return tfe_compat


def both(live_a, live_b, name):
  """Live where both are (None: always live)."""
  if live_a is None or live_b is None or live_a is live_b:
    return live_b if live_a is None else live_a
  return _tf().logical_and(live_a, live_b, name=name)


def switch(data, pred, live, name):
  """The Switch node's operation, its outputs (false branch, true branch) and their
  liveness. A variable (a reference or resource handle) passes through as itself."""
  tf = _tf()
  if isinstance(data, ResourceVariable):
    op, outputs = tf.no_op(name=name), (data, data)
  else:
    outputs = graph_build.record_call(_switch, (data,), op_type="Switch", name=name)
    op = outputs[0].op
  pred = tf.reshape(pred, [], name=name[:-1] + "_pred")
  lives = (both(live, tf.logical_not(pred, name=name[:-1] + "_false"), name[:-1] + "_f_live"),
           both(live, pred, name[:-1] + "_t_live"))
  return op, outputs, lives


def _switch(data):
  return _tf().identity(data), _tf().identity(data)


def merge(inputs, lives, name):
  """The Merge node's operation, outputs (value, value_index) and liveness."""
  flags = [_tf().constant(True) if live is None else live for live in lives]
  outputs = graph_build.record_call(select_live, (list(inputs), flags), op_type="Merge", name=name)
  live = None
  if all(x is not None for x in lives):
    live = _tf().reduce_any(_tf().stack(lives), name=name[:-1] + "_live")
  return outputs[0].op, outputs, (live, live)


def select_live(inputs, flags):
  """The first live input, and its index."""
  tf = _tf()
  value, index = inputs[-1], tf.constant(len(inputs) - 1)
  for i in reversed(range(len(inputs) - 1)):
    value = tf.where(flags[i], inputs[i], value)
    index = tf.where(flags[i], tf.constant(i), index)
  return value, index


def guarded(kernel):
  """`kernel` (one that assigns its Variable inputs), assigning only where `live` holds."""
  def run(live, *inputs, **attrs):
    variables = [x for x in inputs if isinstance(x, ResourceVariable)]
    before = [state_ops.read(v)._value for v in variables]
    result = kernel(*inputs, **attrs)
    flag = live._value
    for var, old in zip(variables, before):
      new = state_ops.read(var)._value
      state_ops.write(var, _tf().where(Tensor(flag), Tensor(new), Tensor(old))._value)
    return result
  return run

