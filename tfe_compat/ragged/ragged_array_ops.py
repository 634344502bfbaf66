"""Ragged array ops (TF 1.15 ragged_array_ops / ragged_concat_ops / ragged_functional_ops):
concat, stack, expand_dims, gather, boolean_mask, stack_dynamic_partitions, map_flat_values.
`tf.concat`, `tf.stack`, `tf.expand_dims` and `tf.gather` dispatch here for ragged inputs."""
# TF's signatures: `name=` is accepted and ignored; some parameters shadow builtins.
# pylint: disable=unused-argument,redefined-builtin
import numpy as np

from tfe_compat.framework import dispatch, dtypes
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.ops import array_ops, check_ops, slicing
from tfe_compat.ragged.ragged_tensor import (RaggedTensor, convert_to_tensor_or_ragged_tensor,
                                             gather_rows, host, int_tensor, is_ragged,
                                             positive_axis)

_SPLITS_MESSAGE = "Inputs must have identical ragged splits"


def splits_dtype(values):
  """The row_splits dtype shared by the ragged `values` (int64 if none is ragged)."""
  found = {v.row_splits.dtype for v in values if isinstance(v, RaggedTensor)}
  if len(found) > 1:
    raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                     "RaggedTensor.with_row_splits_dtype() to convert them to compatible "
                     "dtypes.")
  return found.pop() if found else dtypes.int64


def assert_splits_match(nested_splits_lists):
  """TF's check that every list of nested row splits (NumPy arrays) is the same."""
  first = nested_splits_lists[0]
  for splits_list in nested_splits_lists[1:]:
    if len(splits_list) != len(first):
      raise ValueError(_SPLITS_MESSAGE)
    for s1, s2 in zip(first, splits_list):
      if not np.array_equal(s1, s2):
        check_ops.assert_equal(s1, s2.astype(s1.dtype), message=_SPLITS_MESSAGE)


def nested_splits_np(rt):
  splits = []
  while isinstance(rt, RaggedTensor):
    splits.append(rt.splits_np())
    rt = rt.values
  return splits


# ---- expand_dims ----
def expand_dims(input, axis, name=None):
  """`input` with a new dimension of size 1 at `axis`."""
  input = convert_to_tensor_or_ragged_tensor(input)
  if not isinstance(input, RaggedTensor):
    return array_ops.expand_dims(input, axis)
  axis = positive_axis(axis, input.shape.ndims + 1)
  dtype = input.row_splits.dtype
  if axis == 0:
    return RaggedTensor._from_splits(input, [0, input.nrows_np()], dtype)
  if axis == 1:
    return RaggedTensor._from_splits(input, np.arange(input.nrows_np() + 1), dtype)
  return input.with_values(expand_dims(input.values, axis - 1))


def _expand_dims(input, axis=None, name=None, dim=None):
  if not is_ragged(input):
    return dispatch.NOT_SUPPORTED
  return expand_dims(input, axis if dim is None else dim)


# ---- concat / stack ----
@export("ragged.stack")
def stack(values, axis=0, name=None):
  """Stacks Tensors and RaggedTensors of one rank along a new `axis` (a RaggedTensor)."""
  if not isinstance(values, (list, tuple)):
    values = [values]
  return _stack_concat(values, axis, stack_values=True)


def concat(values, axis, name=None):
  """Concatenates Tensors and RaggedTensors of one rank along `axis`."""
  if not isinstance(values, (list, tuple)):
    values = [values]
  return _stack_concat(values, axis, stack_values=False)


def _stack_concat(rt_inputs, axis, stack_values):
  """TF's `_ragged_stack_concat_helper`."""
  if not rt_inputs:
    raise ValueError("rt_inputs may not be empty.")
  rt_inputs = [convert_to_tensor_or_ragged_tensor(rt) for rt in rt_inputs]
  dtype = splits_dtype(rt_inputs)
  if len(rt_inputs) == 1:
    return expand_dims(rt_inputs[0], axis) if stack_values else rt_inputs[0]
  ndims = rt_inputs[0].shape.ndims
  for rt in rt_inputs[1:]:
    rt.shape.assert_has_rank(ndims)
  out_ndims = ndims + 1 if stack_values else ndims
  axis = positive_axis(axis, out_ndims)
  if stack_values and ndims == 1 and axis == 0:
    lengths = [rt._value.shape[0] for rt in rt_inputs]
    return RaggedTensor._from_splits(array_ops.concat(rt_inputs, 0),
                                     np.concatenate([[0], np.cumsum(lengths)]), dtype)
  if not any(isinstance(rt, RaggedTensor) for rt in rt_inputs) and axis in (out_ndims - 1,
                                                                            ndims - 1):
    join = array_ops.stack if stack_values else array_ops.concat
    return join(rt_inputs, axis)
  ragged_rank = max(max(rt.ragged_rank if isinstance(rt, RaggedTensor) else 1
                        for rt in rt_inputs), 1)
  rt_inputs = [increase_ragged_rank(rt, ragged_rank, dtype) for rt in rt_inputs]
  return _stack_concat_ragged(rt_inputs, axis, stack_values)


def _stack_concat_ragged(rt_inputs, axis, stack_values):
  if axis == 0:
    return _concat_axis_0(rt_inputs, stack_values)
  if axis == 1:
    return _concat_axis_1(rt_inputs, stack_values)
  assert_splits_match([[rt.splits_np()] for rt in rt_inputs])
  values = [rt.values for rt in rt_inputs]
  if isinstance(values[0], RaggedTensor):
    inner = _stack_concat_ragged(values, axis - 1, stack_values)
  elif stack_values:
    inner = array_ops.stack(values, axis - 1)
  else:
    inner = array_ops.concat(values, axis - 1)
  return rt_inputs[0].with_values(inner)


def increase_ragged_rank(rt, ragged_rank, dtype):
  """`rt` with its outer uniform dimensions made ragged, up to `ragged_rank`."""
  if ragged_rank <= 0:
    return rt
  if not isinstance(rt, RaggedTensor):
    rt = RaggedTensor.from_tensor(rt, row_splits_dtype=dtype)
  if rt.ragged_rank < ragged_rank:
    rt = rt.with_values(increase_ragged_rank(rt.values, ragged_rank - 1, dtype))
  return rt


def _concat_axis_0(rt_inputs, stack_values):
  flat = array_ops.concat([rt.flat_values for rt in rt_inputs], 0)
  nested = [nested_splits_np(rt) for rt in rt_inputs]
  splits = []
  for level in range(len(nested[0])):
    parts = [s[level] for s in nested]
    offsets = np.cumsum([0] + [p[-1] for p in parts[:-1]])
    splits.append(np.concatenate([parts[0][:1]] + [p[1:] + o for p, o in zip(parts, offsets)]))
  if stack_values:
    splits.insert(0, np.concatenate([[0], np.cumsum([rt.nrows_np() for rt in rt_inputs])]))
  dtype = rt_inputs[0].row_splits.dtype
  for level_splits in reversed(splits):
    flat = RaggedTensor._from_splits(flat, level_splits, dtype)
  return flat


def _concat_axis_1(rt_inputs, stack_values):
  nrows = rt_inputs[0].nrows_np()
  for rt in rt_inputs[1:]:
    if rt.nrows_np() != nrows:
      check_ops.assert_equal(rt.nrows(), rt_inputs[0].nrows(),
                             message="Input tensors have incompatible shapes.")
  joined = _concat_axis_0(rt_inputs, stack_values=False)
  count = len(rt_inputs)
  permuted = gather_rows(joined, np.arange(nrows * count).reshape(count, -1).T.reshape(-1))
  dtype = joined.row_splits.dtype
  if stack_values:
    return RaggedTensor._from_splits(permuted, np.arange(0, nrows * count + 1, count), dtype)
  return RaggedTensor._from_splits(permuted.values, permuted.splits_np()[::count], dtype)


def _concat_dispatch(values, axis, name="concat"):
  if not isinstance(values, (list, tuple)) or not any(is_ragged(v) for v in values):
    return dispatch.NOT_SUPPORTED
  return concat(values, axis)


def _stack_dispatch(values, axis=0, name="stack"):
  if not isinstance(values, (list, tuple)) or not any(is_ragged(v) for v in values):
    return dispatch.NOT_SUPPORTED
  return stack(values, axis)


# ---- gather ----
def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
  """Rows `indices` of ragged `params` (axis 0); ragged `indices` give ragged results."""
  if not (is_ragged(params) or is_ragged(indices)):
    return dispatch.NOT_SUPPORTED
  if axis not in (None, 0) or batch_dims != 0:
    raise ValueError("axis != 0 is not supported for ragged gather yet.")
  params = convert_to_tensor_or_ragged_tensor(params)
  indices = convert_to_tensor_or_ragged_tensor(indices)
  if isinstance(indices, RaggedTensor):
    return indices.with_values(gather(params, indices.values))
  if indices.dtype not in (dtypes.int32, dtypes.int64):
    raise TypeError("indices must be int32 or int64")
  if not isinstance(params, RaggedTensor):
    return slicing.gather(params, indices)
  index = host(indices)
  slicing.gather(int_tensor(np.arange(params.nrows_np()), dtypes.int64), indices)  # checks
  result = gather_rows(params, index.reshape(-1))
  for dim in range(index.ndim - 1, 0, -1):
    rows = int(np.prod(index.shape[:dim]))
    result = RaggedTensor._from_splits(result, np.arange(rows + 1) * index.shape[dim],
                                       params.row_splits.dtype)
  return result if index.ndim else result[0]


# ---- boolean_mask ----
@export("ragged.boolean_mask")
def boolean_mask(data, mask, name=None):
  """The entries of `data` where `mask` is True; masked dimensions become ragged."""
  data = convert_to_tensor_or_ragged_tensor(data)
  mask = convert_to_tensor_or_ragged_tensor(mask, dtypes.bool)
  dtype = splits_dtype([data, mask])
  if mask.shape.ndims == 0:
    raise ValueError("mask cannot be scalar.")
  if isinstance(mask, RaggedTensor):
    if not isinstance(data, RaggedTensor):
      data = RaggedTensor.from_tensor(data, ragged_rank=mask.ragged_rank, row_splits_dtype=dtype)
    assert_splits_match([nested_splits_np(mask), nested_splits_np(data)[:mask.ragged_rank]])
    splits = []
    while isinstance(mask, RaggedTensor):
      if mask.shape.ndims > 2:
        splits.append(mask.splits_np())
      else:
        rows = np.repeat(np.arange(mask.nrows_np()), np.diff(mask.splits_np()))
        kept = np.bincount(rows, host(mask.values), minlength=mask.nrows_np())
        splits.append(np.concatenate([[0], np.cumsum(kept.astype(np.int64))]))
      mask, data = mask.values, data.values
    result = boolean_mask(data, mask)
    for level_splits in reversed(splits):
      result = RaggedTensor._from_splits(result, level_splits, dtype)
    return result
  if isinstance(data, RaggedTensor) and mask.shape.ndims == 1:
    keep = host(mask)
    if keep.shape[0] != data.nrows_np():
      raise ValueError("Shapes %s and %s are incompatible" % (data.shape[:1], mask.shape))
    return gather_rows(data, np.flatnonzero(keep))
  if isinstance(data, RaggedTensor):
    mask = RaggedTensor.from_tensor(mask, ragged_rank=min(data.ragged_rank,
                                                          mask.shape.ndims - 1),
                                    row_splits_dtype=dtype)
    return boolean_mask(data, mask)
  values = slicing.boolean_mask(data, mask)
  mask_np = host(mask)
  if mask_np.ndim < 2:
    return values
  values = RaggedTensor._from_splits(
      values, np.concatenate([[0], np.cumsum(mask_np.sum(axis=-1).reshape(-1))]), dtype)
  for dim in range(mask_np.ndim - 3, -1, -1):
    rows = int(np.prod(mask_np.shape[:dim + 1]))
    values = RaggedTensor._from_splits(values, np.arange(rows + 1) * mask_np.shape[dim + 1],
                                       dtype)
  return values


# ---- stack_dynamic_partitions ----
@export("ragged.stack_dynamic_partitions")
def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
  """Row `i` of the result holds the items of `data` whose partition is `i` (in order)."""
  data = convert_to_tensor_or_ragged_tensor(data)
  partitions = convert_to_tensor_or_ragged_tensor(partitions)
  if isinstance(partitions, RaggedTensor):
    if not isinstance(data, RaggedTensor):
      data = RaggedTensor.from_tensor(data, ragged_rank=partitions.ragged_rank)
    assert_splits_match([nested_splits_np(partitions),
                         nested_splits_np(data)[:partitions.ragged_rank]])
    for _ in range(partitions.ragged_rank):
      data = data.values
    partitions = partitions.flat_values
  if partitions.dtype not in (dtypes.int32, dtypes.int64):
    raise TypeError("partitions must have dtype int32 or int64")
  parts = host(partitions).reshape(-1)
  count = int(host(convert_to_tensor(num_partitions)))
  check_ops.assert_non_negative(partitions, message="partitions must be non-negative.")
  if parts.size and parts.max() >= count:
    check_ops.assert_less(np.max(parts), np.asarray(count, parts.dtype),
                          message="partitions must be less than num_partitions")
  order = np.argsort(parts, kind="stable")
  permuted = gather_rows(data, order)
  lengths = np.bincount(parts, minlength=count)[:count]
  return RaggedTensor._from_splits(permuted, np.concatenate([[0], np.cumsum(lengths)]),
                                   dtypes.int64)


# ---- map_flat_values ----
def _replace_ragged(value, splits_lists):
  """`value` with every RaggedTensor replaced by its flat_values (splits collected)."""
  if is_ragged(value):
    value = convert_to_tensor_or_ragged_tensor(value)
    splits_lists.append(value)
    return value.flat_values
  if isinstance(value, (list, tuple)):
    return type(value)(_replace_ragged(v, splits_lists) for v in value)
  if isinstance(value, dict):
    return {k: _replace_ragged(v, splits_lists) for k, v in value.items()}
  return value


@export("ragged.map_flat_values")
def map_flat_values(op, *args, **kwargs):
  """`op` applied to the flat_values of the RaggedTensors in args (whose splits must match),
  rebuilt with their row partitions."""
  ragged = []
  inner_args = _replace_ragged(args, ragged)
  inner_kwargs = _replace_ragged(kwargs, ragged)
  if not ragged:
    return op(*args, **kwargs)
  splits_dtype(ragged)
  assert_splits_match([nested_splits_np(rt) for rt in ragged])
  result = op(*inner_args, **inner_kwargs)
  expected = ragged[0].flat_values.shape.dims[0].value
  result = convert_to_tensor(result)
  if result.shape.ndims == 0 or result.shape.dims[0].value != expected:
    raise ValueError("tf.ragged.map_flat_values requires that the output of `op` have the same "
                     "outer-dimension size as flat_values of any ragged inputs. (output shape: "
                     "%s; expected outer dimension size: %s)" % (result.shape, expected))
  return ragged[0].with_flat_values(result)


for _op, _handler in [(array_ops.concat, _concat_dispatch), (array_ops.stack, _stack_dispatch),
                      (array_ops.expand_dims, _expand_dims), (slicing.gather, gather)]:
  dispatch.register(_op, _handler)
