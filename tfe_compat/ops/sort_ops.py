"""TF 1.15 sorting and searching: sort, argsort, searchsorted, and the fixed-width histogram
bucketing of TF's histogram_ops."""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.ops import value_checks
from tfe_compat.ops.array_ops import canonical_axis, invalid, np_name, scalar_int


def _direction(direction):
  if direction not in ("ASCENDING", "DESCENDING"):
    raise ValueError("%s should be one of ASCENDING, DESCENDING" % direction)
  return direction == "DESCENDING"


@op(name="Sort")
def _sort(x, *, axis, descending):
  if descending:  # TF's order of ties (top_k's), which the gradient follows
    order = jnp.argsort(x, axis=axis, stable=True, descending=True)
    return jnp.take_along_axis(x, order, axis=axis)
  return jnp.sort(x, axis=axis)


@op(name="ArgSort")
def _argsort(x, *, axis, descending):
  return jnp.argsort(x, axis=axis, stable=True, descending=descending).astype(jnp.int32)


@export("sort")
def sort(values, axis=-1, direction="ASCENDING", name=None):
  """`tf.sort`: sorted values along `axis`."""
  descending = _direction(direction)
  values = convert_to_tensor(values)
  return _sort(values, axis=canonical_axis(scalar_int(axis), values._value.ndim),
               descending=descending)


@export("argsort")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
  """`tf.argsort`: int32 indices of a stable sort along `axis` (TF's sort is stable)."""
  descending = _direction(direction)
  values = convert_to_tensor(values)
  return _argsort(values, axis=canonical_axis(scalar_int(axis), values._value.ndim),
                  descending=descending)


@op(name="LowerBound")
def _searchsorted(sorted_sequence, values, *, side, out_type):
  seq = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
  vals = values.reshape(-1, values.shape[-1])
  out = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(seq, vals)
  return out.reshape(values.shape).astype(out_type)


@export("searchsorted")
def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
  """`tf.searchsorted`: insertion points of `values` in the innermost rows of the sequence."""
  if side not in ("left", "right"):
    raise ValueError("side must be either 'right' or 'left'.  Saw: %s." % side)
  sorted_sequence, values = ops.convert_matching(sorted_sequence, values,
                                                 op_name="LowerBound" if side == "left"
                                                 else "UpperBound")
  if sorted_sequence._value.shape[:-1] != values._value.shape[:-1]:
    raise invalid("Leading dim_size of both tensors must match.",
                  "LowerBound" if side == "left" else "UpperBound")
  return _searchsorted(sorted_sequence, values, side=side, out_type=np_name(out_type))


@op(name="HistogramFixedWidthBins", differentiable=False)
def _histogram_bins(values, value_range, *, nbins, dtype):
  scaled = (values - value_range[0]) / (value_range[1] - value_range[0])
  return jnp.clip(jnp.floor(nbins * scaled), 0, nbins - 1).astype(dtype)


def _histogram_inputs(values, value_range, nbins):
  values = convert_to_tensor(values)
  value_range = ops.convert_to_tensor(value_range, values.dtype)
  nbins = scalar_int(nbins)
  if nbins <= 0:
    raise invalid("nbins should be a positive number, but got '%d'" % nbins,
                  "HistogramFixedWidth")
  if not values.dtype.is_floating:  # TF bins integers in double precision
    values, value_range = (ops.convert_to_tensor(np.asarray(t._value, np.float64))
                           for t in (values, value_range))
  return values, value_range, nbins


@export("histogram_fixed_width_bins")
def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
  """`tf.histogram_fixed_width_bins`: the bin of each value, out-of-range values clipped."""
  values, value_range, nbins = _histogram_inputs(values, value_range, nbins)
  return _histogram_bins(values, value_range, nbins=nbins, dtype=np_name(dtype))


@op(name="HistogramFixedWidth", differentiable=False)
def _histogram(values, value_range, *, nbins, dtype):
  bins = _histogram_bins.impl(values.reshape(-1), value_range, nbins=nbins, dtype="int32")
  return jnp.zeros(nbins, dtype).at[bins].add(1)


@export("histogram_fixed_width")
def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
  """`tf.histogram_fixed_width`: counts of `values` in `nbins` equal bins over
  `value_range` (values outside count in the first or last bin)."""
  values, value_range, nbins = _histogram_inputs(values, value_range, nbins)
  value_checks.check(value_range, lambda r: r[0] < r[1], lambda r: invalid(
      "value_range should satisfy value_range[0] < value_range[1], but got '[%g, %g]'"
      % (r[0], r[1]), "HistogramFixedWidth"))
  return _histogram(values, value_range, nbins=nbins, dtype=np_name(dtype))

