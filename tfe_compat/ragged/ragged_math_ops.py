"""Ragged math (TF 1.15 ragged_math_ops / segment_id_ops): `tf.ragged.range`, the row-split
and segment-id conversions, and the reductions and segment ops that dispatch on ragged input."""
# TF's signatures: `name=` is accepted and ignored; some parameters shadow builtins.
# pylint: disable=unused-argument,redefined-builtin
import builtins

import numpy as np

from tfe_compat.framework import dispatch, dtypes
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops, check_ops, math_ops, reduction_ops
from tfe_compat.ops.matmul_cast_ops import cast
from tfe_compat.ragged.ragged_tensor import (RaggedTensor, convert_to_tensor_or_ragged_tensor,
                                             host, int_tensor, is_ragged, positive_axis)

_RANGE_TYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


# ---- Row partitions <-> segment ids ----
@export("ragged.row_splits_to_segment_ids")
def row_splits_to_segment_ids(splits, name=None, out_type=None):
  """The row index of each value, from row splits (int32/int64, like `splits`)."""
  splits = convert_to_tensor(splits, preferred_dtype=dtypes.int64)
  if splits.dtype not in (dtypes.int32, dtypes.int64):
    raise ValueError("splits must have dtype int32 or int64")
  splits.shape.assert_has_rank(1)
  if splits.shape.dims[0].value == 0:
    raise ValueError("Invalid row_splits: []")
  out_type = splits.dtype if out_type is None else dtypes.as_dtype(out_type)
  splits_np = host(splits)
  return int_tensor(np.repeat(np.arange(splits_np.size - 1), np.diff(splits_np)), out_type)


@export("ragged.segment_ids_to_row_splits")
def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
  """Row splits of sorted segment ids (`num_segments` rows, default max id + 1)."""
  if out_type is None:
    if isinstance(segment_ids, Tensor):
      out_type = segment_ids.dtype
    elif isinstance(num_segments, Tensor):
      out_type = num_segments.dtype
    else:
      out_type = dtypes.int64
  out_type = dtypes.as_dtype(out_type)
  ids = convert_to_tensor(segment_ids, preferred_dtype=dtypes.int32)
  ids.shape.assert_has_rank(1)
  ids_np = host(ids).astype(np.int64)
  if num_segments is None:
    count = int(ids_np.max()) + 1 if ids_np.size else 0
  else:
    num_segments = convert_to_tensor(num_segments)
    num_segments.shape.assert_has_rank(0)
    count = int(host(num_segments))
  lengths = np.bincount(ids_np, minlength=count)[:count] if ids_np.size else np.zeros(count)
  return int_tensor(np.concatenate([[0], np.cumsum(lengths)]), out_type)


# ---- tf.ragged.range ----
@export("ragged.range")
def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):
  """Row `i` is `tf.range(starts[i], limits[i], deltas[i])` (scalars broadcast)."""
  if limits is None:
    starts, limits = 0, starts
  args = [convert_to_tensor(a, dtype) for a in (starts, limits, deltas)]
  if dtype is None:
    dtype = max((a.dtype for a in args), key=_RANGE_TYPES.index)
  dtype = dtypes.as_dtype(dtype)
  arrays = [host(a).astype(dtype.as_numpy_dtype) for a in args]
  if any(a.ndim > 1 for a in arrays):
    raise array_ops.invalid("starts must be a scalar or vector", "RaggedRange")
  sizes = {a.size for a in arrays if a.ndim == 1}
  if len(sizes) > 1:
    raise array_ops.invalid("starts, limits, and deltas must have the same shape",
                            "RaggedRange")
  nrows = sizes.pop() if sizes else 1
  s, l, d = (np.broadcast_to(a, (nrows,)) for a in arrays)
  if np.any(d == 0):
    raise array_ops.invalid("Requires delta != 0", "RaggedRange")
  empty = ((d > 0) & (l < s)) | ((d < 0) & (l > s))
  if dtype.is_integer:
    span, step = np.abs(l.astype(np.int64) - s), np.abs(d.astype(np.int64))
    counts = np.where(empty, 0, (span + step - 1) // step)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    values = (np.repeat(s, counts) + offsets * np.repeat(d, counts)).astype(s.dtype)
  else:
    counts = np.where(empty, 0, np.ceil(np.abs((l - s) / d))).astype(np.int64)
    values = np.concatenate([np.add.accumulate(np.append(s[i], np.full(counts[i] - 1, d[i])))
                             [:counts[i]] for i in builtins.range(nrows)] + [s[:0]])
  return RaggedTensor._from_splits(convert_to_tensor(values.astype(s.dtype)),
                                   np.concatenate([[0], np.cumsum(counts)]),
                                   dtypes.as_dtype(row_splits_dtype))


def _positions_in_rows(splits):
  """The position of each value within its row."""
  lengths = np.diff(splits)
  return np.arange(splits[-1]) - np.repeat(splits[:-1], lengths)


# ---- Segment ops over ragged data ----
def _segment_aggregate(segment_op, data, segment_ids, num_segments):
  """`segment_op` over the rows of `data`; ragged rows are aggregated position by position."""
  if not is_ragged(data) and not is_ragged(segment_ids):
    return segment_op(data, segment_ids, num_segments)
  data = convert_to_tensor_or_ragged_tensor(data)
  segment_ids = convert_to_tensor_or_ragged_tensor(segment_ids)
  if segment_ids.dtype not in (dtypes.int32, dtypes.int64):
    raise ValueError("segment_ids must have dtype int32 or int64.")
  if isinstance(segment_ids, RaggedTensor):
    if not isinstance(data, RaggedTensor):
      raise ValueError("segment_ids.shape must be a prefix of data.shape, but segment_ids is "
                       "ragged and data is not.")
    if not np.array_equal(segment_ids.splits_np(), data.splits_np()):
      check_ops.assert_equal(segment_ids.row_splits, data.row_splits,
                             message="segment_ids.shape must be a prefix of data.shape")
    return _segment_aggregate(segment_op, data.values, segment_ids.values, num_segments)
  ids = host(segment_ids).astype(np.int64)
  count = int(host(convert_to_tensor(num_segments)))
  lengths = np.diff(data.splits_np())
  out_lengths = np.zeros(count, np.int64)
  np.maximum.at(out_lengths, ids, lengths)
  out_splits = np.concatenate([[0], np.cumsum(out_lengths)])
  targets = np.repeat(out_splits[ids], lengths) + _positions_in_rows(data.splits_np())
  values = _segment_aggregate(segment_op, data.values, int_tensor(targets, dtypes.int64),
                              int(out_splits[-1]))
  return RaggedTensor._from_splits(values, out_splits, data.row_splits.dtype)


def _segment_fn(segment_op):
  def segment(data, segment_ids, num_segments, name=None):
    if not (is_ragged(data) or is_ragged(segment_ids)):
      return dispatch.NOT_SUPPORTED
    return _segment_aggregate(segment_op, data, segment_ids, num_segments)
  return segment


def _ones_like(data):
  return data.with_flat_values(array_ops.ones_like(data.flat_values))


def _segment_mean(data, segment_ids, num_segments, name=None, sqrt=False):
  if not (is_ragged(data) or is_ragged(segment_ids)):
    return dispatch.NOT_SUPPORTED
  data = convert_to_tensor_or_ragged_tensor(data)
  total = _segment_aggregate(reduction_ops.unsorted_segment_sum, data, segment_ids, num_segments)
  ones = _ones_like(data) if isinstance(data, RaggedTensor) else array_ops.ones_like(data)
  count = _segment_aggregate(reduction_ops.unsorted_segment_sum, ones, segment_ids, num_segments)
  if sqrt:
    count = math_ops.sqrt(count.flat_values if isinstance(count, RaggedTensor) else count)
  elif isinstance(count, RaggedTensor):
    count = count.flat_values
  if isinstance(total, RaggedTensor):
    return total.with_flat_values(math_ops.truediv(total.flat_values, count))
  return math_ops.truediv(total, count)


# ---- Reductions ----
def _reduce(reduce_op, segment_op, rt, axis, keepdims):
  """TF's `ragged_reduce_aggregate`: reduces `rt` over `axis` with `segment_op`."""
  if not isinstance(rt, RaggedTensor):
    return reduce_op(rt, axis)
  if keepdims:
    raise ValueError("keepdims=True is not supported for RaggedTensors.")
  if isinstance(axis, Tensor):
    axis = host(axis).tolist()
  if isinstance(axis, np.ndarray):
    axis = axis.tolist()
  if axis is None:
    return reduce_op(rt.flat_values, None)
  if isinstance(axis, (tuple, list)):
    if not axis:
      return rt
    if len(axis) == 1:
      axis = axis[0]
    else:
      axis = sorted(positive_axis(a, rt.shape.ndims) for a in axis)
      inner = _reduce(reduce_op, segment_op, rt, axis[-1], keepdims)
      return _reduce(reduce_op, segment_op, inner, axis[:-1], keepdims)
  axis = positive_axis(axis, rt.shape.ndims)
  splits = rt.splits_np()
  if axis == 0:
    ids = int_tensor(_positions_in_rows(splits), dtypes.int64)
    return _segment_aggregate(segment_op, rt.values, ids, int(np.max(np.diff(splits),
                                                                     initial=0)))
  if axis == 1:
    ids = int_tensor(np.repeat(np.arange(splits.size - 1), np.diff(splits)), dtypes.int64)
    return _segment_aggregate(segment_op, rt.values, ids, splits.size - 1)
  return rt.with_values(_reduce(reduce_op, segment_op, rt.values, axis - 1, keepdims))


def _reduction(reduce_op, segment_op):
  def reduce(input_tensor, axis=None, keepdims=None, name=None):
    if not is_ragged(input_tensor):
      return dispatch.NOT_SUPPORTED
    rt = convert_to_tensor_or_ragged_tensor(input_tensor)
    return _reduce(reduce_op, segment_op, rt, axis, keepdims)
  return reduce


def _reduce_mean(input_tensor, axis=None, keepdims=None, name=None):
  if not is_ragged(input_tensor):
    return dispatch.NOT_SUPPORTED
  rt = convert_to_tensor_or_ragged_tensor(input_tensor)
  total = reduce_sum(rt, axis, keepdims)
  count = reduce_sum(_ones_like(rt), axis, keepdims)
  if isinstance(total, RaggedTensor):
    return total.with_flat_values(math_ops.truediv(total.flat_values, count.flat_values))
  return math_ops.truediv(total, count)


def _logical_reduction(reduce_fn):
  def reduce(input_tensor, axis=None, keepdims=None, name=None):
    if not is_ragged(input_tensor):
      return dispatch.NOT_SUPPORTED
    rt = convert_to_tensor_or_ragged_tensor(input_tensor)
    as_int = rt.with_flat_values(cast(rt.flat_values, dtypes.int32))
    result = reduce_fn(as_int, axis, keepdims)
    if isinstance(result, RaggedTensor):
      return result.with_flat_values(cast(result.flat_values, dtypes.bool))
    return cast(result, dtypes.bool)
  return reduce


reduce_sum = _reduction(reduction_ops.reduce_sum, reduction_ops.unsorted_segment_sum)
reduce_prod = _reduction(reduction_ops.reduce_prod, reduction_ops.unsorted_segment_prod)
reduce_min = _reduction(reduction_ops.reduce_min, reduction_ops.unsorted_segment_min)
reduce_max = _reduction(reduction_ops.reduce_max, reduction_ops.unsorted_segment_max)
reduce_any = _logical_reduction(reduce_sum)
reduce_all = _logical_reduction(reduce_prod)

for _op, _handler in [
    (reduction_ops.reduce_sum, reduce_sum), (reduction_ops.reduce_prod, reduce_prod),
    (reduction_ops.reduce_min, reduce_min), (reduction_ops.reduce_max, reduce_max),
    (reduction_ops.reduce_mean, _reduce_mean), (reduction_ops.reduce_any, reduce_any),
    (reduction_ops.reduce_all, reduce_all),
    (reduction_ops.unsorted_segment_sum, _segment_fn(reduction_ops.unsorted_segment_sum)),
    (reduction_ops.unsorted_segment_prod, _segment_fn(reduction_ops.unsorted_segment_prod)),
    (reduction_ops.unsorted_segment_min, _segment_fn(reduction_ops.unsorted_segment_min)),
    (reduction_ops.unsorted_segment_max, _segment_fn(reduction_ops.unsorted_segment_max)),
    (reduction_ops.unsorted_segment_mean, _segment_mean),
    (reduction_ops.unsorted_segment_sqrt_n,
     lambda data, segment_ids, num_segments, name=None: _segment_mean(
         data, segment_ids, num_segments, sqrt=True))]:
  dispatch.register(_op, _handler)
