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
from tfe_compat.graph_kernels import tf_namespace


def both(live_a, live_b, name=None):
  """Live where both are (None: always live)."""
  if live_a is None or live_b is None or live_a is live_b:
    return live_b if live_a is None else live_a
  return tf_namespace().logical_and(live_a, live_b, name=name)


def _suffixed(name, suffix):
  return None if name is None else name + suffix


def switch_lives(pred, live, name=None):
  """The liveness of a Switch's (false branch, true branch) outputs; `name` names the ops
  made while a graph is built."""
  tf = tf_namespace()
  pred = tf.reshape(pred, [], name=_suffixed(name, "_pred"))
  return (both(live, tf.logical_not(pred, name=_suffixed(name, "_false")),
               _suffixed(name, "_f_live")),
          both(live, pred, _suffixed(name, "_t_live")))


def merged_live(lives, name=None):
  """A Merge's liveness: live where one of its inputs is (None: always live)."""
  if any(live is None for live in lives):
    return None
  tf = tf_namespace()
  return tf.reduce_any(tf.stack(lives), name=_suffixed(name, "_live"))


def switch(data, pred, live, name):
  """The Switch node's operation, its outputs (false branch, true branch) and their
  liveness. A variable (a reference or resource handle) passes through as itself."""
  if isinstance(data, ResourceVariable):
    op, outputs = tf_namespace().no_op(name=name), (data, data)
  else:
    outputs = graph_build.record_call(_switch, (data,), op_type="Switch", name=name)
    op = outputs[0].op
  return op, outputs, switch_lives(pred, live, name[:-1])


def _switch(data):
  return tf_namespace().identity(data), tf_namespace().identity(data)


def merge(inputs, lives, name):
  """The Merge node's operation, outputs (value, value_index) and liveness."""
  outputs = graph_build.record_call(select_live, (list(inputs), list(lives)), op_type="Merge",
                                    name=name)
  live = merged_live(lives, name[:-1])
  return outputs[0].op, outputs, (live, live)


def select_live(inputs, lives):
  """The first live input (None: always live), and its index."""
  tf = tf_namespace()
  value, index = inputs[-1], tf.constant(len(inputs) - 1)
  for i in reversed(range(len(inputs) - 1)):
    if lives[i] is None:
      value, index = inputs[i], tf.constant(i)
    else:
      value = tf.where(lives[i], inputs[i], value)
      index = tf.where(lives[i], tf.constant(i), index)
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
      state_ops.write(var, tf_namespace().where(Tensor(flag), Tensor(new), Tensor(old))._value)
    return result
  return run
