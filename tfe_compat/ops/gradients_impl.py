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
  ancestors, stack = set(), [y.op for y in ys if y._id not in stop_ids]
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


def _replay_derivative(op, env, scope, counter):
  info = op.derivative
  xs, stopped = info["xs"], info["stopped"]
  values = [scope.read(x)._value if _is_variable(x) else env.value(x) for x in xs]

  def f(x_values):
    local_env = _OverlayEnv(env, {x._id: v for x, v in zip(xs, x_values)
                                  if isinstance(x, GraphTensor)})
    local_scope = graph_build.OverlayScope(scope, {x._id: v for x, v in zip(xs, x_values)
                                        if _is_variable(x)})
    for between in info["between"]:
      graph_build.replay(between, local_env, local_scope, counter)
      for tensor in between.outputs:
        if tensor._id in stopped:
          local_env.set(tensor, jax.lax.stop_gradient(local_env.value(tensor)))
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


# ---- Gradients registered with tf.RegisterGradient, chosen by gradient_override_map ----
class _GradientOp:
  """The `op` a registered gradient function receives: the Operation's name, type and
  attributes, with its inputs (variables read included) and outputs as this run's tensors."""

  def __init__(self, op, inputs, outputs):
    self._op = op
    self.inputs = [Tensor(v) for v in inputs]
    self.outputs = [Tensor(v) for v in outputs]

  def __getattr__(self, name):
    return getattr(self._op, name)


def _override_gradients(graph):
  """Ids of the outputs of ops without a gradient (NotDifferentiable); raises TF's
  LookupError for an op mapped to a name nothing is registered under. The other mapped ops
  replay through their registered gradient from now on."""
  stopped = set()
  for op in graph._ops:
    name = op.attrs.get("_gradient_op_type")
    if name is None or op.kind != "call":
      continue
    if name.decode() not in ops.GRADIENTS:
      raise LookupError(
          "No gradient defined for operation'%s' (op type: %s). In general every operation "
          "must have an associated `@tf.RegisterGradient` for correct autodiff, which this op "
          "is lacking. If you want to pretend this operation is a constant in your program, "
          "you may insert `tf.stop_gradient`." % (op.name, op.type))
    if ops.GRADIENTS[name.decode()][0] is None:
      stopped.update(t._id for t in op.outputs)
    else:
      op.custom_replay = _replay_overridden
  return stopped


def _zero_cotangent(value):
  if jnp.issubdtype(value.dtype, jnp.inexact):
    return jnp.zeros_like(value)
  return jnp.zeros(value.shape, jax.dtypes.float0)


def _replay_overridden(op, env, scope, counter):
  """Replays `op` as a custom VJP whose backward pass is its registered gradient function."""
  grad_fn = ops.GRADIENTS[op.attrs["_gradient_op_type"].decode()][0]
  tensors, variables = list(op.inputs), list(op.reads)

  def run(*values):
    local_env = _OverlayEnv(env, {t._id: v for t, v in zip(tensors, values)})
    local_scope = graph_build.OverlayScope(scope, {v._id: x for v, x in
                                        zip(variables, values[len(tensors):])})
    graph_build.replay_call(op, local_env, local_scope, counter)
    return tuple(local_env.value(t) for t in op.outputs)

  def forward(*values):
    outputs = run(*values)
    return outputs, (values, outputs)

  def backward(residuals, cotangents):
    values, outputs = residuals
    cotangents = [jnp.zeros(y.shape, y.dtype) if c.dtype == jax.dtypes.float0 else c
                  for c, y in zip(cotangents, outputs)]
    with graph_build.run_state(env, scope, None):
      grads = grad_fn(_GradientOp(op, values, outputs), *[Tensor(c) for c in cotangents])
      grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
      if len(grads) != len(values):
        raise ValueError("Num gradients %d generated for op name: \"%s\" op: \"%s\" do "
                         "not match num inputs %d" % (len(grads), op.name, op.type,
                                                      len(values)))
      return tuple(_zero_cotangent(v) if g is None or not jnp.issubdtype(v.dtype, jnp.inexact)
                   else jnp.broadcast_to(ops.convert_to_tensor(g)._value, v.shape)
                   .astype(v.dtype) for g, v in zip(grads, values))

  apply = jax.custom_vjp(run)
  apply.defvjp(forward, backward)
  outputs = apply(*[env.value(t) for t in tensors] + [scope.read(v)._value for v in variables])
  for tensor, value in zip(op.outputs, outputs):
    env.set(tensor, value)


def _derivative(ys, xs, grad_ys, stop_gradients, name, hessian=False, zeros=False):
  graph = graph_lib.building()
  ys = [ops.convert_to_tensor(y) for y in ys]
  xs = [x if _is_variable(x) else ops.convert_to_tensor(x) for x in xs]
  grad_ys = [None if g is None else ops.convert_to_tensor(g) for g in grad_ys]
  stop_ids = {ops.convert_to_tensor(s)._id for s in stop_gradients}
  stop_ids |= _override_gradients(graph)
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
                       hessian=hessian, stopped=stop_ids)
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
