"""`tf.custom_gradient`: the user's function becomes one recorded op with a `jax.custom_vjp`.

The op's pure implementation re-runs the user's function on the input arrays (tf ops are
trace-safe), with reads of the variables it used redirected to their recorded values; its
backward pass runs the user's `grad_fn`. So it replays, compiles and nests like any op.
"""
import functools
import inspect

import jax
import numpy as np

from tfe_compat.eager.tape import GradientTape, differentiable
from tfe_compat.framework import context
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor

_ctx = context.ctx


class _ReadsFrom:
  """A variable scope that returns given arrays for given variables (others read as usual)."""

  def __init__(self, variables, arrays, outer):
    self._values = {v._id: a for v, a in zip(variables, arrays)}
    self._outer = outer

  def read(self, var):
    if var._id in self._values:
      return Tensor(self._values[var._id])
    return self._outer.read(var) if self._outer is not None else Tensor(var._value)

  def write(self, var, value):
    raise RuntimeError("A @tf.custom_gradient function cannot assign variables while its "
                       "gradient is computed.")


def _run(f, arrays, n_args, variables, kwargs):
  outer = _ctx.variable_scope
  _ctx.variable_scope = _ReadsFrom(variables, arrays[n_args:], outer)
  try:
    return f(*[Tensor(a) for a in arrays[:n_args]], **dict(kwargs))
  finally:
    _ctx.variable_scope = outer


def _leaves(structure):
  return tuple(ops.convert_to_tensor(t)._value for t in jax.tree_util.tree_leaves(structure))


def _input_gradients(grad_fn, dys, variables, arrays, n_args):
  if variables:
    input_grads, variable_grads = grad_fn(*dys, variables=list(variables))
    variable_grads = list(variable_grads)
    if len(variable_grads) != len(variables):
      raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
  else:
    input_grads, variable_grads = grad_fn(*dys), []
  flat = jax.tree_util.tree_leaves(input_grads, is_leaf=lambda g: g is None)
  if len(flat) != n_args:
    raise ValueError("custom_gradient function expected to return %d gradients, but returned "
                     "%d instead." % (n_args, len(flat)))
  out = []
  for grad, array in zip(flat + variable_grads, arrays):
    if not np.issubdtype(array.dtype, np.inexact):
      out.append(np.zeros(array.shape, jax.dtypes.float0))
    elif grad is None:
      out.append(jax.numpy.zeros_like(array))
    else:
      out.append(ops.convert_to_tensor(grad)._value.astype(array.dtype))
  return tuple(out)


class _CustomGradientOp:
  """The recorded op of one decorated function; `impl` is its pure, custom-VJP function."""

  def __init__(self, f):
    self.op_name = getattr(f, "__name__", "CustomGradient")

    @functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1, 2))
    def forward(n_args, variables, kwargs, *arrays):
      return _leaves(_run(f, arrays, n_args, variables, kwargs)[0])

    def forward_with_residuals(n_args, variables, kwargs, *arrays):
      return forward(n_args, variables, kwargs, *arrays), arrays

    def backward(n_args, variables, kwargs, arrays, cotangents):
      _, grad_fn = _run(f, arrays, n_args, variables, kwargs)
      return _input_gradients(grad_fn, [Tensor(c) for c in cotangents], variables, arrays,
                              n_args)

    forward.defvjp(forward_with_residuals, backward)
    self.impl = lambda *arrays, n_args, variables, kwargs: forward(n_args, variables, kwargs,
                                                                   *arrays)


def _variables_read(discover, args):
  """The variables the `discover` tape saw read, besides those passed in `args`, by id."""
  return tuple(v for v in sorted(discover.watched_variables(), key=lambda v: v._id)
               if all(v is not a for a in args))


def _record_call(recorded_op, args, kwargs, variables, result):
  """Records one call of a decorated function as `recorded_op` (inputs: `args` then
  `variables`); returns `result` with its tensors replaced by the recorded outputs."""
  flat, treedef = jax.tree_util.tree_flatten(result)
  outputs = [Tensor(ops.convert_to_tensor(t)._value) for t in flat]
  inputs = [ops.convert_to_tensor(a) for a in args] + [v._as_tensor(None) for v in variables]
  if any(differentiable(t) for t in inputs):
    ops.record(recorded_op, {"n_args": len(args), "variables": variables,
                             "kwargs": tuple(kwargs.items())}, inputs, outputs)
  return jax.tree_util.tree_unflatten(treedef, outputs)


@export("custom_gradient", "contrib.eager.custom_gradient")
def custom_gradient(f):
  """Decorates `f(*x) -> (y, grad_fn)` so gradients of y use `grad_fn(dy)` (TF semantics)."""
  recorded_op = _CustomGradientOp(f)

  def in_graph(*args, **kwargs):
    """The call as a graph runs it: through the custom VJP, so `tf.gradients` uses it."""
    flat, treedef = jax.tree_util.tree_flatten(f(*args, **kwargs)[0])
    del flat  # the structure only (the compiled run drops these ops)
    arrays = recorded_op.impl(*[ops.convert_to_tensor(a)._value for a in args],
                              n_args=len(args), variables=(), kwargs=tuple(kwargs.items()))
    return jax.tree_util.tree_unflatten(treedef, [Tensor(a) for a in arrays])

  @functools.wraps(f)
  def decorated(*args, **kwargs):
    if graph_lib.building() is not None:
      return graph_build.record_call(in_graph, args, kwargs, op_type="IdentityN")
    if not _ctx.tapes:
      return f(*args, **kwargs)[0]
    with GradientTape() as discover:
      result, grad_fn = f(*args, **kwargs)
    variables = _variables_read(discover, args)
    spec = inspect.getfullargspec(grad_fn)
    if variables and "variables" not in spec.args + spec.kwonlyargs and not spec.varkw:
      raise TypeError("If using @custom_gradient with a function that uses variables, then "
                      "grad_fn must accept a keyword argument 'variables'.")
    return _record_call(recorded_op, args, kwargs, variables, result)

  return decorated


def _register(op_type, fn, where):
  if not isinstance(op_type, str):
    raise TypeError("op_type must be a string")
  if op_type in ops.GRADIENTS:
    raise KeyError("Registering two gradient with name '%s'! (Previous registration was in "
                   "%s)" % (op_type, ops.GRADIENTS[op_type][1]))
  if op_type in ops.OP_NAMES:
    raise KeyError("Registering two gradient with name '%s'! (Previous registration was in "
                   "tfe_compat: the gradient of its JAX implementation)" % op_type)
  ops.GRADIENTS[op_type] = (fn, where)


def _location(fn):
  code = getattr(fn, "__code__", None)
  if code is None:
    return getattr(fn, "__name__", repr(fn))
  return "%s %s:%d" % (fn.__name__, code.co_filename, code.co_firstlineno)


@export("RegisterGradient")
class RegisterGradient:
  """`@tf.RegisterGradient("Name")`: `fn(op, *grads)` becomes the gradient of graph ops that
  `Graph.gradient_override_map` maps to "Name". Names of tfe_compat's own ops are taken (as
  TF's are): their gradients come from their JAX implementations."""

  def __init__(self, op_type):
    if not isinstance(op_type, str):
      raise TypeError("op_type must be a string")
    self._op_type = op_type

  def __call__(self, f):
    _register(self._op_type, f, _location(f))
    return f


@export("NotDifferentiable", "NoGradient", "no_gradient")
def not_differentiable(op_type):
  """Ops mapped to `op_type` (gradient_override_map) have no gradient: None, as in TF."""
  _register(op_type, None, "NotDifferentiable(%r)" % op_type)


# ---- tf.recompute_grad, tf.grad_pass_through ----
class _RecomputedOp:
  """The recorded op of one `recompute_grad` function: its pure implementation under
  `jax.checkpoint`, so a gradient recomputes the forward values instead of keeping them."""

  def __init__(self, f):
    self.op_name = getattr(f, "__name__", "RecomputeGrad")

    def forward(n_args, variables, kwargs, *arrays):
      return _leaves(_run(f, arrays, n_args, variables, kwargs))

    self.impl = lambda *arrays, n_args, variables, kwargs: jax.checkpoint(
        functools.partial(forward, n_args, variables, kwargs))(*arrays)


@export("recompute_grad")
def recompute_grad(f):
  """Decorates `f(*args)` so that its gradients (the same as without it) recompute `f`'s
  forward pass rather than keep its intermediate values."""
  recorded_op = _RecomputedOp(f)

  @functools.wraps(f)
  def decorated(*args, **kwargs):
    if not _ctx.tapes:
      return f(*args, **kwargs)
    outer_tapes, _ctx.tapes = _ctx.tapes, []  # the tapes see one op, not f's inner ones
    try:
      with GradientTape() as discover:
        result = f(*args, **kwargs)
    finally:
      _ctx.tapes = outer_tapes
    variables = _variables_read(discover, args)
    return _record_call(recorded_op, args, kwargs, variables, result)

  return decorated


class _PassThroughOp:
  """`grad_pass_through`'s recorded op: inputs (x..., y...) -> y..., gradient dy -> x."""

  op_name = "GradPassThrough"

  @staticmethod
  def impl(*arrays):
    n = len(arrays) // 2
    return tuple(y + (x - jax.lax.stop_gradient(x)).astype(y.dtype)
                 for x, y in zip(arrays[:n], arrays[n:]))


@export("grad_pass_through")
def grad_pass_through(f):
  """`f` whose gradient is the identity: the gradient with respect to each output flows to
  the matching input unchanged (variables `f` uses get none)."""
  @functools.wraps(f)
  def decorated(*args, **kwargs):
    if not _ctx.tapes:
      return f(*args, **kwargs)
    outer_tapes, _ctx.tapes = _ctx.tapes, []
    try:
      result = f(*args, **kwargs)
    finally:
      _ctx.tapes = outer_tapes
    flat, treedef = jax.tree_util.tree_flatten(result)
    outputs = [Tensor(ops.convert_to_tensor(t)._value) for t in flat]
    inputs = [ops.convert_to_tensor(a) for a in args]
    if len(outputs) != len(inputs):
      raise ValueError("custom_gradient function expected to return %d gradients, but "
                       "returned %d instead." % (len(inputs), len(outputs)))
    if any(differentiable(t) for t in inputs):
      ops.record(_PassThroughOp, {}, inputs + outputs, outputs)
    return jax.tree_util.tree_unflatten(treedef, outputs)

  return decorated
