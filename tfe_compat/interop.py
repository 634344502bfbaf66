"""Moving to idiomatic JAX: tfe_compat values as `jax.Array`s, models as pure functions.

    from tfe_compat import interop
    f = interop.functionalize(model, images)        # one eager call finds the variables
    params = f.params()                             # {"dense/kernel:0": jax.Array, ...}
    logits, new_params = jax.jit(f)(params, images)  # a pure JAX function of the params
    grads = jax.grad(lambda p: loss(f(p, images)[0]))(params)
    f.assign(params)                                 # write values back into the Variables

Tensors and Variables also go straight into JAX: `jax.jit(f)(params, tensor)`,
`jax.grad(loss)(tensor)`, `jax.vmap`, `jnp.sin(tensor)` take them as the arrays they hold
(a Variable as its current value); the results are `jax.Array`s.
"""
import warnings

import jax

from tfe_compat import state_ops
from tfe_compat.eager import function
from tfe_compat.framework import context
from tfe_compat.framework.tensor import Tensor


def to_jax(structure):
  """The nest `structure` with each Tensor or Variable replaced by its `jax.Array`."""
  return jax.tree_util.tree_map(
      lambda x: state_ops.read(x)._value if function._is_variable(x) else
      x._value if isinstance(x, Tensor) else x, structure, is_leaf=function._is_leaf)


def from_jax(structure):
  """The nest `structure` with each `jax.Array` (or tracer) wrapped as a Tensor."""
  return jax.tree_util.tree_map(
      lambda x: Tensor(x) if isinstance(x, (jax.Array, jax.core.Tracer)) else x, structure)


def _array(x):
  return state_ops.read(x)._value if function._is_variable(x) else x._value  # pylint: disable=protected-access


def _register_with_jax():
  """Lets JAX's transformations take Tensors and Variables as arguments: JAX's own tables
  of argument types (abstract value, canonical value, transfer) map them to their arrays.
  These tables are JAX internals: where a JAX release lacks them, `to_jax` is the way."""
  from tfe_compat.variables import ResourceVariable  # pylint: disable=import-outside-toplevel
  try:
    from jax._src import core, dtypes  # pylint: disable=import-outside-toplevel
    from jax._src.interpreters import pxla  # pylint: disable=import-outside-toplevel
    handlers = (core.pytype_aval_mappings, dtypes.register_canonicalize_value_handler,
                pxla.shard_arg_handlers, core.typeof, pxla.shard_args)
  except (ImportError, AttributeError) as e:
    warnings.warn("tfe_compat: this JAX release does not take Tensors as jax.jit arguments "
                  "(%s); convert them with tfe_compat.interop.to_jax" % e)
    return
  avals, canonical, shard_handlers, typeof, shard_args = handlers

  def shard(values, shardings, layouts, copy_semantics):
    return shard_args(shardings, layouts, copy_semantics, [_array(x) for x in values])

  for cls in (Tensor, ResourceVariable):
    avals[cls] = lambda x: typeof(_array(x))
    canonical(cls, _array)
    shard_handlers[cls] = shard


_register_with_jax()


class PureFunction:
  """`fn` as `(params, *args, rng=None, **kwargs) -> (outputs, new params)`: a pure JAX
  function of a dict of variable values (jit, grad and vmap apply). Random ops inside draw
  from `rng` (a JAX PRNG key) when given."""

  def __init__(self, fn, variables):
    self._fn = fn
    self.variables = variables  # {unique variable name: Variable}

  def params(self):
    """The variables' current values, by name."""
    return {name: state_ops.read(var)._value for name, var in self.variables.items()}

  def assign(self, params):
    """Writes `params` (a dict as returned by `params()`) into the variables."""
    for name, value in params.items():
      state_ops.write(self.variables[name], value)

  def __call__(self, params, *args, rng=None, **kwargs):
    variables = list(self.variables.values())
    tracing = function._Tracing(variables, [params[name] for name in self.variables])
    args, kwargs = from_jax((args, kwargs))
    ctx = context.ctx
    outer_keys = ctx.traced_rng
    if rng is not None:
      ctx.traced_rng = context.TracedKeys(rng)
    try:
      with function._scope(tracing):
        outputs = self._fn(*args, **kwargs)
    except function._Retry as e:
      raise ValueError("The function used a variable its functionalize() call did not (%s); "
                       "functionalize it with arguments that take the same path." % e) from None
    finally:
      ctx.traced_rng = outer_keys
    new_params = {name: tracing.values[var._id] for name, var in self.variables.items()}
    return to_jax(outputs), new_params


def functionalize(fn, *args, **kwargs):
  """A PureFunction of `fn` (a model, layer or any function of Variables), whose variables
  are found by calling `fn(*args, **kwargs)` once eagerly (which also builds a model)."""
  with function._scope(function._Discovery(context.ctx.variable_scope)) as discovery:
    fn(*args, **kwargs)
  variables = {}
  for var in discovery.seen.values():
    name, k = var.name, 1
    while name in variables:
      name, k = "%s_%d" % (var.name, k), k + 1
    variables[name] = var
  return PureFunction(fn, variables)
