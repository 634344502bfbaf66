"""`RaggedTensor.__getitem__` with TF's rules (ragged_getitem.py): ints, slices, `...` and
`tf.newaxis`; an int may not index an inner ragged dimension."""
import numpy as np

from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ragged.ragged_tensor import RaggedTensor, gather_rows, host


def ragged_tensor_getitem(self, key):
  """`rt[key]`: a RaggedTensor, or a Tensor once the ragged dimensions are indexed away."""
  key = list(key) if isinstance(key, (list, tuple)) else [key]
  return _ragged_getitem(self, key)


def _ragged_getitem(rt, key_list):
  """Indexes `rt` by `key_list`, whose first key applies to the rows."""
  if not key_list:
    return rt
  row_key, inner_keys = key_list[0], key_list[1:]
  if row_key is Ellipsis:
    return _ragged_getitem(rt, _expand_ellipsis(key_list, rt.shape.ndims))
  if row_key is None:
    inner = _ragged_getitem(rt, inner_keys)
    if isinstance(inner, Tensor):
      return array_ops.expand_dims(inner, 0)
    return RaggedTensor._from_splits(inner, [0, inner.nrows_np()], inner.row_splits.dtype)
  if isinstance(row_key, slice):
    return _inner_dimensions(_slice_rows(rt, row_key), inner_keys)
  starts = rt.row_starts()
  try:
    if int(row_key) >= starts._value.shape[0]:
      raise IndexError("Row key {} out of bounds".format(row_key))
  except (TypeError, ValueError):
    pass
  start, limit = int(starts[row_key]), int(rt.row_limits()[row_key])
  row = _rows(rt.values, slice(start, limit))
  return row.__getitem__(inner_keys) if inner_keys else row


def _rows(values, key):
  """`values[key]` for a row slice of a Tensor or RaggedTensor."""
  if isinstance(values, RaggedTensor):
    return _slice_rows(values, key)
  return values[key]


def _slice_rows(rt, key):
  """The rows `rt[key]` (a Python slice)."""
  if key.start is None and key.stop is None and key.step is None:
    return rt
  rows = np.arange(rt.nrows_np())[slice(*(_int_or_none(k) for k in (
      key.start, key.stop, key.step)))]
  return gather_rows(rt, rows)


def _int_or_none(value):
  if value is None:
    return None
  if isinstance(value, Tensor):
    return int(host(value))
  return int(value)


def _inner_dimensions(rt, key_list):
  """Indexes the dimensions after the rows: `rt[:, key_list...]`."""
  if not key_list:
    return rt
  if isinstance(rt, Tensor):
    return rt.__getitem__([slice(None)] + key_list)
  column_key = key_list[0]
  if column_key is Ellipsis:
    return _inner_dimensions(rt, _expand_ellipsis(key_list, rt.values.shape.ndims))
  if column_key is None:
    inner = _inner_dimensions(rt, key_list[1:])
    count = inner.nrows_np() if isinstance(inner, RaggedTensor) else inner._value.shape[0]
    return RaggedTensor._from_splits(inner, np.arange(count + 1), rt.row_splits.dtype)
  if isinstance(column_key, slice):
    if column_key.start is None and column_key.stop is None and column_key.step is None:
      return rt.with_values(_inner_dimensions(rt.values, key_list[1:]))
    selected = _slice_each_row(rt, column_key)
    return selected.with_values(_inner_dimensions(selected.values, key_list[1:]))
  raise ValueError("Cannot index into an inner ragged dimension.")


def _slice_each_row(rt, key):
  """`row[key]` for every row, as a RaggedTensor (Python slice semantics per row)."""
  start, stop, step = (_int_or_none(k) for k in (key.start, key.stop, key.step))
  step = 1 if step is None else step
  if step == 0:
    raise ValueError("slice step cannot be zero")
  splits = rt.splits_np()
  lengths = np.diff(splits)
  first = _bound(start, lengths, step, default=0 if step > 0 else lengths - 1)
  end = _bound(stop, lengths, step, default=lengths if step > 0 else np.full_like(lengths, -1))
  counts = np.maximum(0, -((first - end) // step) if step > 0 else -((end - first) // -step))
  new_splits = np.concatenate([[0], np.cumsum(counts)])
  offsets = np.arange(new_splits[-1]) - np.repeat(new_splits[:-1], counts)
  index = np.repeat(splits[:-1] + first, counts) + offsets * step
  return RaggedTensor._from_splits(gather_rows(rt.values, index), new_splits,
                                   rt.row_splits.dtype)


def _bound(value, lengths, step, default):
  """One end of a slice for rows of `lengths`, clipped as Python's slice.indices does."""
  if value is None:
    return np.broadcast_to(default, lengths.shape).astype(np.int64)
  bound = value + lengths if value < 0 else np.full_like(lengths, value)
  low, high = (0, lengths) if step > 0 else (-1, lengths - 1)
  return np.clip(bound, low, high)


def _expand_ellipsis(key_list, num_remaining_dims):
  """`key_list` (starting with `...`) with the ellipsis replaced by full slices."""
  num_indices = sum(1 for idx in key_list if idx is not None)
  if num_indices > num_remaining_dims + 1:
    raise IndexError("Too many indices for RaggedTensor")
  if num_indices == num_remaining_dims + 1:
    return key_list[1:]
  return [slice(None)] * (num_remaining_dims - num_indices + 1) + key_list[1:]


RaggedTensor.__getitem__ = ragged_tensor_getitem
