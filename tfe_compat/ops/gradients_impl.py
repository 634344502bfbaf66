"""`tf.gradients` and `tf.hessians` in graph mode: one operation differentiated by JAX.

A gradients operation names its targets `ys`, its sources `xs` (tensors or variables) and
the operations on a path between them. When a run replays it, it replays those operations
again as a function of the sources' values and differentiates that function with
`jax.vjp` (`jax.hessian` for Hessians), inside the run's one compiled computation: the
gradient ops TensorFlow would add one by one are JAX's. Random ops draw the same values as
in the forward replay (same keys), so dropout masks agree.
"""
import jax
import jax.numpy as jnp

from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.graph import GraphTensor, Operation
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import reduction_ops


def _as_list(value):
  if value is None:
    return []
  return list(value) if isinstance(value, (list, tuple)) else [value]


def _is_variable(x):
  return getattr(x, "_graph", None) is not None and hasattr(x, "trainable")


def _paths(ys, xs, stop_ids):
  """The operations on a path from `xs` to `ys` (in creation order), and which xs reach."""
  ancestors, stack = set(), [y.op for y in ys]
  while stack:
    op = stack.pop()
    if op in ancestors:
      continue
    ancestors.add(op)
    stack.extend(t.op for t in op.inputs if t._id not in stop_ids)
  sources = {x._id for x in xs if isinstance(x, GraphTensor)}
  tensor_ids = set(sources)
  var_ids = {x._id for x in xs if _is_variable(x)}
  reached, between = set(), []
  for op in sorted(ancestors, key=lambda o: o._index):
    if any(t._id in sources for t in op.outputs):
      continue
    hit = [t._id for t in op.inputs if t._id in tensor_ids and
           (t._id in sources or t._id not in stop_ids)] + \
        [v._id for v in op.reads if v._id in var_ids]
    if hit:
      reached.update(hit)
      between.append(op)
      tensor_ids.update(t._id for t in op.outputs if t._id not in stop_ids)
  reached.update(y._id for y in ys if y._id in tensor_ids)
  return between, reached


class _OverlayEnv(graph_build.RunEnv):
  def __init__(self, env, overrides):
    super().__init__(env.values)
    self.values.update(overrides)


class _OverlayScope:
  """The run's variables, with the differentiated ones replaced; writes stay local."""

  def __init__(self, scope, overrides):
    self._scope, self._values = scope, dict(overrides)

  def read(self, var):
    value = self._values.get(var._id)
    if value is None:
      return self._scope.read(var)
    return Tensor(value)

  def write(self, var, value):
    self._values[var._id] = value

  def initialized(self, var):
    return var._id in self._values or self._scope.initialized(var)


def _replay_derivative(op, env, scope, counter):
  info = op.derivative
  xs = info["xs"]
  values = [scope.read(x)._value if _is_variable(x) else env.value(x) for x in xs]

  def f(x_values):
    local_env = _OverlayEnv(env, {x._id: v for x, v in zip(xs, x_values)
                                  if isinstance(x, GraphTensor)})
    local_scope = _OverlayScope(scope, {x._id: v for x, v in zip(xs, x_values)
                                        if _is_variable(x)})
    for between in info["between"]:
      graph_build.replay(between, local_env, local_scope, counter)
    return [local_env.value(y) for y in info["ys"]]

  if info["hessian"]:
    grads = [jax.hessian(lambda v: f([v])[0])(values[0])]
  else:
    outputs, vjp = jax.vjp(f, values)
    cotangents = [jnp.ones_like(y) if g is None else env.value(g)
                  for y, g in zip(outputs, info["grad_ys"])]
    grads = vjp(cotangents)[0]
  for tensor, i in zip(op.outputs, info["positions"]):
    env.set(tensor, grads[i])


def _derivative(ys, xs, grad_ys, stop_gradients, name, hessian=False, zeros=False):
  graph = graph_lib.building()
  ys = [ops.convert_to_tensor(y) for y in ys]
  xs = [x if _is_variable(x) else ops.convert_to_tensor(x) for x in xs]
  grad_ys = [None if g is None else ops.convert_to_tensor(g) for g in grad_ys]
  stop_ids = {ops.convert_to_tensor(s)._id for s in stop_gradients}
  between, reached = _paths(ys, xs, stop_ids)
  inputs = ys + [g for g in grad_ys if g is not None] + [x for x in xs
                                                         if isinstance(x, GraphTensor)]
  op = Operation(graph, "SymbolicGradient", graph._op_name(name, "gradients"), inputs,
                 kind="call")
  op.custom_replay = _replay_derivative
  op.reads = [x for x in xs if _is_variable(x)] + [v for b in between for v in b.reads]
  op.stateful = True
  positions, out = [], []
  for i, x in enumerate(xs):
    connected = x._id in reached and (x.dtype.is_floating or x.dtype.is_complex)
    if not connected and not zeros:
      out.append(None)
      continue
    positions.append(i)
    shape = x.shape if not hessian else x.shape.concatenate(x.shape)
    out.append(op._add_output(shape, x.dtype))
  op.derivative = dict(ys=ys, xs=xs, grad_ys=grad_ys, between=between, positions=positions,
                       hessian=hessian)
  return out


@export("gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
  """`tf.gradients`: d(sum of ys)/dx for each x (None where unconnected), in graph mode."""
  if graph_lib.building() is None:
    raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                       "Use tf.GradientTape instead.")
  ys, xs = _as_list(ys), _as_list(xs)
  grad_ys = _as_list(grad_ys) or [None] * len(ys)
  if len(grad_ys) != len(ys):
    raise ValueError("Passed %d grad_ys for %d ys" % (len(grad_ys), len(ys)))
  zeros = getattr(unconnected_gradients, "value", unconnected_gradients) == "zero"
  return _derivative(ys, xs, grad_ys, _as_list(stop_gradients), name, zeros=zeros)


@export("hessians")
def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
  """`tf.hessians`: the Hessian of sum(ys) with respect to each x, in graph mode."""
  if graph_lib.building() is None:
    raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                       "Use tf.GradientTape instead.")
  ys = [ops.convert_to_tensor(y) for y in _as_list(ys)]
  total = ys[0] if len(ys) == 1 else sum(ys[1:], ys[0])
  total = reduction_ops.reduce_sum(total)
  return [_derivative([total], [x], [None], [], name, hessian=True)[0]
          for x in _as_list(xs)]


@export("AggregationMethod")
class AggregationMethod:
  """How `tf.gradients` sums gradients (graph mode); TF 1.15's constants."""
  ADD_N = 0
  DEFAULT = ADD_N
  EXPERIMENTAL_TREE = 1
  EXPERIMENTAL_ACCUMULATE_N = 2
