"""`tf.vectorized_map`: `fn` applied to every slice of `elems`, vectorized with `jax.vmap`.

tf ops are trace-safe, so `fn` runs once on batched tracers. Under a GradientTape the whole
map is recorded as one op (its gradient is the vmap's, variables included). A function that
draws random numbers, assigns variables or uses an op that cannot be vectorized (value-
dependent shapes, host callbacks) runs in a Python loop over the slices instead, whose
results are stacked, as TF falls back to a while_loop.
"""
import logging

import jax

from tfe_compat import nest
from tfe_compat.eager.custom_gradient import _leaves, _run
from tfe_compat.eager.tape import differentiable
from tfe_compat.framework import context
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops

_ctx = context.ctx


class _NotVectorizable(Exception):
  pass


class _Reads:
  """Variable scope while `fn` is vectorized: notes the variables read, refuses writes."""

  def __init__(self, outer):
    self.outer = outer
    self.seen = {}

  def read(self, var):
    self.seen.setdefault(var._id, var)
    return self.outer.read(var) if self.outer is not None else Tensor(var._value)

  def write(self, var, value):
    raise _NotVectorizable("it assigns the variable %s" % var.name)

  def variable_created(self, var):
    raise _NotVectorizable("it creates the variable %s" % var.name)


class _VectorizedOp:
  """The recorded op of one `vectorized_map` call: `jax.vmap` of the element function over
  the element arrays, the values of the variables it reads broadcast."""

  op_name = "Pfor"

  def __init__(self, element_fn, n_elems):
    def impl(*arrays, variables):
      axes = (0,) * n_elems + (None,) * len(variables)
      return jax.vmap(lambda *a: _leaves(_run(element_fn, a, n_elems, variables, ())),
                      in_axes=axes)(*arrays)
    self.impl = impl


def _vectorized(element_fn, flat_elems):
  """The flat outputs of the vmapped call, recorded on active tapes as one op."""
  reads = _Reads(_ctx.variable_scope)
  outer_scope, outer_tapes = _ctx.variable_scope, _ctx.tapes
  draws = context.rng_draws
  _ctx.variable_scope, _ctx.tapes = reads, []
  try:
    arrays = jax.vmap(lambda *a: _leaves(element_fn(*[Tensor(x) for x in a])))(
        *[t._value for t in flat_elems])
  except _NotVectorizable:
    raise
  except Exception as e:  # pylint: disable=broad-except
    raise _NotVectorizable(str(e).split("\n")[0]) from e
  finally:
    _ctx.variable_scope, _ctx.tapes = outer_scope, outer_tapes
  if context.rng_draws != draws:
    raise _NotVectorizable("it draws random numbers (each slice draws its own)")
  outputs = [Tensor(a) for a in arrays]
  if _ctx.tapes:
    variables = tuple(v for v in reads.seen.values() if v.trainable)
    inputs = list(flat_elems) + [v._as_tensor(None) for v in variables]
    if any(differentiable(t) for t in inputs):
      ops.record(_VectorizedOp(element_fn, len(flat_elems)), {"variables": variables},
                 inputs, outputs)
  return outputs


def _looped(element_fn, flat_elems, size):
  """The flat outputs of `element_fn` on each slice, stacked."""
  results = [element_fn(*[t[i] for t in flat_elems]) for i in range(size)]
  return [array_ops.stack(list(column)) for column in zip(*results)]


@export("vectorized_map")
def vectorized_map(fn, elems):
  """`fn` applied to each slice of `elems` (a tensor or nest of tensors, unstacked on their
  first dimension), the results stacked: `tf.stack([fn(e) for e in elems])`, vectorized."""
  flat_elems = [ops.convert_to_tensor(e) for e in nest.flatten(elems)]
  sizes = {t._value.shape[0] if t._value.ndim else None for t in flat_elems}
  if len(sizes) != 1 or None in sizes:
    raise ValueError("vectorized_map: every tensor in elems needs the same first dimension "
                     "(got shapes %s)." % [tuple(t.shape.as_list()) for t in flat_elems])
  structure = []

  def element_fn(*element):
    out = fn(nest.pack_sequence_as(elems, list(element)))
    structure[:] = [out]
    return [ops.convert_to_tensor(o) for o in nest.flatten(out)]

  try:
    flat_out = _vectorized(element_fn, flat_elems)
  except _NotVectorizable as e:
    logging.getLogger("tensorflow").warning(
        "tf.vectorized_map: running %s in a loop: it cannot be vectorized (%s)."
        % (getattr(fn, "__name__", "fn"), e))
    flat_out = _looped(element_fn, flat_elems, sizes.pop())
  return nest.pack_sequence_as(structure[0], flat_out)
