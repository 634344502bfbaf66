"""`tf.ragged.constant`, `tf.ragged.constant_value` and `tf.ragged.placeholder` (TF 1.15
ragged_factory_ops): nested Python lists to ragged values."""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.ops import array_ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import constant as tensor_constant
from tfe_compat.ragged.ragged_tensor import RaggedTensor, is_ragged
from tfe_compat.ragged.ragged_tensor_value import RaggedTensorValue


@export("ragged.constant")
def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
  """A RaggedTensor (or a Tensor, for uniform lists) of the nested Python list `pylist`."""
  row_splits_dtype = dtypes.as_dtype(row_splits_dtype)

  def ragged_factory(values, row_splits):
    return RaggedTensor._from_splits(values, row_splits, row_splits_dtype)

  def inner_factory(values, dtype, shape):
    return tensor_constant(values, dtype=dtype, shape=shape)

  return _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank,
                         inner_shape)


@export("ragged.constant_value")
def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None,
                   row_splits_dtype="int64"):
  """A RaggedTensorValue (or a NumPy array, for uniform lists) of `pylist`."""
  if dtype is not None and isinstance(dtype, dtypes.DType):
    dtype = dtype.as_numpy_dtype
  row_splits_dtype = dtypes.as_dtype(row_splits_dtype).as_numpy_dtype

  def ragged_factory(values, row_splits):
    return RaggedTensorValue(values, np.asarray(row_splits, dtype=row_splits_dtype))

  def inner_factory(values, dtype, shape):
    if not shape:
      return np.array(values, dtype=dtype)
    return np.reshape(np.array(values, dtype=dtype), shape)

  return _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank,
                         inner_shape)


def _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank, inner_shape):
  """TF's `_constant_value`: splits per ragged dimension, then the inner values."""
  if is_ragged(pylist):
    raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
  if not isinstance(pylist, (list, tuple)) and np.ndim(pylist) == 0:
    if ragged_rank is not None and ragged_rank != 0:
      raise ValueError("Invalid pylist=%r: incompatible with ragged_rank=%d"
                       % (pylist, ragged_rank))
    if inner_shape is not None and inner_shape:
      raise ValueError("Invalid pylist=%r: incompatible with dim(inner_shape)=%d"
                       % (pylist, len(inner_shape)))
    return inner_factory(pylist, dtype, ())
  if ragged_rank is not None and ragged_rank < 0:
    raise ValueError("Invalid ragged_rank=%r: must be nonnegative" % ragged_rank)
  scalar_depth, max_depth = _find_scalar_and_max_depth(pylist)
  if scalar_depth is not None and max_depth > scalar_depth:
    raise ValueError("Invalid pylist=%r: empty list nesting is greater than scalar value "
                     "nesting" % pylist)
  if inner_shape is not None and ragged_rank is not None:
    expected_depth = ragged_rank + len(inner_shape) + 1
    if ((scalar_depth is not None and expected_depth != scalar_depth)
        or (scalar_depth is None and expected_depth < max_depth)):
      raise ValueError("Invalid pylist=%r: incompatible with ragged_rank=%d and "
                       "dim(inner_shape)=%d" % (pylist, ragged_rank, len(inner_shape)))
  if (ragged_rank == 0 or (ragged_rank is None and (
      max_depth < 2 or (inner_shape is not None and max_depth - len(inner_shape) < 2)))):
    return inner_factory(pylist, dtype, inner_shape)
  if inner_shape is None:
    inner_shape = () if ragged_rank is None else _default_inner_shape(pylist, ragged_rank)
  inner_shape = tuple(inner_shape)
  if ragged_rank is None:
    if scalar_depth is None:
      ragged_rank = max(1, max_depth - 1)
    else:
      ragged_rank = max(1, scalar_depth - 1 - len(inner_shape))
  nested_splits, values = [], pylist
  for _ in range(ragged_rank):
    splits, flat = [0], []
    for row in values:
      splits.append(splits[-1] + len(row))
      flat.extend(row)
    nested_splits.append(splits)
    values = flat
  result = inner_factory(values, dtype, (len(values),) + inner_shape)
  for splits in reversed(nested_splits):
    result = ragged_factory(result, splits)
  return result


def _is_nested(item):
  return isinstance(item, (list, tuple)) or np.ndim(item) != 0


def _find_scalar_and_max_depth(pylist):
  """(nesting depth of the scalars or None, greatest nesting depth with empty lists)."""
  if _is_nested(pylist):
    scalar_depth, max_depth = None, 1
    for child in pylist:
      depth, child_max = _find_scalar_and_max_depth(child)
      if depth is not None:
        if scalar_depth is not None and scalar_depth != depth + 1:
          raise ValueError("all scalar values must have the same nesting depth")
        scalar_depth = depth + 1
      max_depth = max(max_depth, child_max + 1)
    return scalar_depth, max_depth
  return 0, 0


def _default_inner_shape(pylist, ragged_rank):
  """The shape of the values below `ragged_rank` ragged dimensions (checked uniform)."""
  def inner_shape_of(item):
    if not _is_nested(item):
      return ()
    if len(item):  # pylint: disable=g-explicit-length-test
      return (len(item),) + inner_shape_of(item[0])
    return (0,)

  def check(item, shape):
    if _is_nested(item) != bool(shape):
      raise ValueError("inner values have inconsistent shape")
    if _is_nested(item):
      if shape[0] != len(item):
        raise ValueError("inner values have inconsistent shape")
      for child in item:
        check(child, shape[1:])

  flat = pylist
  for dim in range(ragged_rank):
    if not all(_is_nested(v) for v in flat):
      raise ValueError("pylist has scalar values depth %d, but ragged_rank=%d requires scalar "
                       "value depth greater than %d" % (dim + 1, ragged_rank, ragged_rank))
    flat = sum((list(v) for v in flat), [])
  shape = inner_shape_of(flat)
  check(flat, shape)
  return shape[1:]


@export("ragged.placeholder")
def placeholder(dtype, ragged_rank, value_shape=None, name=None):
  """Graph-only in TF: raises the eager-mode error of `tf.placeholder`."""
  return array_ops.placeholder(dtype)
