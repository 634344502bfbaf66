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
import jax
from jax._src import core as _jax_core
from jax._src import dtypes as _jax_dtypes
from jax._src.interpreters import pxla as _pxla

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


def _shard(values, shardings, layouts, copy_semantics):
  return _pxla.shard_args(shardings, layouts, copy_semantics, [_array(x) for x in values])


def _register_with_jax():
  """Lets JAX's transformations take Tensors and Variables as arguments: JAX's own tables
  of argument types (abstract value, canonical value, transfer) map them to their arrays."""
  from tfe_compat.variables import ResourceVariable  # pylint: disable=import-outside-toplevel
  for cls in (Tensor, ResourceVariable):
    _jax_core.pytype_aval_mappings[cls] = lambda x: _jax_core.typeof(_array(x))
    _jax_dtypes.register_canonicalize_value_handler(cls, _array)
    _pxla.shard_arg_handlers[cls] = _shard


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
