"""`tf.RaggedTensor` (TF 1.15): `values` (a Tensor or RaggedTensor) partitioned into rows by
`row_splits` (a 1-D int64 or int32 Tensor).

Row partitions are small index vectors: they are read on the host (once per RaggedTensor)
and every structural op computes its index arrays with NumPy. Values move through the
ordinary ops (gather, concat, reshape), so GradientTapes see them. A RaggedTensor needs
concrete row partitions: it is not supported inside `tf.function`.
"""
import jax
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, register_tensor_conversion_function
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops, check_ops, manip_ops, slicing
from tfe_compat.ops.string_ops import SparseTensor
from tfe_compat.ragged.ragged_tensor_value import RaggedTensorValue

_SPLITS_DTYPES = (dtypes.int32, dtypes.int64)


def host(tensor):
  """The NumPy value of a concrete Tensor (NotImplementedError for traced values)."""
  if isinstance(tensor._value, jax.core.Tracer):
    raise NotImplementedError("RaggedTensor row partitions must be concrete values: "
                              "RaggedTensors are not supported inside tf.function.")
  return np.asarray(tensor._value)


def int_tensor(array, dtype):
  """A Tensor of `array` cast to the int dtype `dtype` (a DType)."""
  return convert_to_tensor(np.asarray(array, dtype=dtype.as_numpy_dtype))


def is_ragged(value):
  return isinstance(value, (RaggedTensor, RaggedTensorValue))


def nrows_of(values):
  """The number of rows of a Tensor or RaggedTensor."""
  return values.nrows_np() if isinstance(values, RaggedTensor) else values._value.shape[0]


def _partition(value, name):
  """A row-partitioning Tensor: int32 stays int32, anything else prefers int64."""
  if isinstance(value, np.ndarray) and value.dtype == np.int32:
    tensor = convert_to_tensor(value)
  else:
    tensor = convert_to_tensor(value, preferred_dtype=dtypes.int64)
  if tensor.dtype not in _SPLITS_DTYPES:
    raise ValueError("%s must have dtype int32 or int64" % name)
  tensor.shape.assert_has_rank(1)
  return tensor


def convert_to_tensor_or_ragged_tensor(value, dtype=None, name=None):
  """A RaggedTensor as it is (RaggedTensorValue converted), else `tf.convert_to_tensor`."""
  if isinstance(value, RaggedTensor):
    if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
      raise ValueError("Tensor conversion requested dtype %s for RaggedTensor with dtype %s: "
                       "%r." % (dtypes.as_dtype(dtype).name, value.dtype.name, value))
    return value
  if isinstance(value, RaggedTensorValue):
    flat = convert_to_tensor(value.flat_values, dtype)
    return RaggedTensor.from_nested_row_splits(flat, value.nested_row_splits, validate=False)
  return convert_to_tensor(value, dtype)


def _values_and_partition(values, partition, name):
  """TF's `_convert_values_and_row_partition`."""
  values = convert_to_tensor_or_ragged_tensor(values)
  partition = _partition(partition, name)
  if isinstance(values, RaggedTensor) and partition.dtype is not values.row_splits.dtype:
    raise ValueError("dtype mismatch: %s (%s) vs values.row_splits (%s)"
                     % (name, partition.dtype.name, values.row_splits.dtype.name))
  values.shape.with_rank_at_least(1)
  return values, partition


def _check_validate(validate):
  if not isinstance(validate, bool):
    raise TypeError("validate must have type bool")


def _check_equal(x, y, message):
  """TF's assert_equal of two scalars (NumPy), raised only when they differ."""
  if x != y:
    check_ops.assert_equal(np.asarray(x), np.asarray(y, dtype=np.asarray(x).dtype),
                           message=message)


def _check_non_negative(x, message):
  if np.any(x < 0):
    check_ops.assert_non_negative(x, message=message)


def _check_splits(splits, nvals, message):
  """TF's checks of row_splits: starts at 0, never decreases, ends at the number of values."""
  _check_equal(splits[0], 0, message)
  _check_non_negative(np.diff(splits), message)
  _check_equal(splits[-1], nvals, message)


def _shape_dims(tensor):
  return tuple(tensor._value.shape)


@export("RaggedTensor")
class RaggedTensor:
  """A tensor with ragged dimensions: `values` partitioned into rows by `row_splits`."""

  def __init__(self, values, row_splits, internal=False):
    if not internal:
      raise ValueError("RaggedTensor constructor is private; please use one of the factory "
                       "methods instead (e.g., RaggedTensor.from_row_lengths())")
    self._values = values
    self._row_splits = row_splits
    self._splits_np = None

  @classmethod
  def _from_splits(cls, values, splits_np, dtype):
    """A RaggedTensor of `values` and a NumPy row_splits array (already checked)."""
    splits_np = np.asarray(splits_np, dtype=dtype.as_numpy_dtype)
    result = cls(values, int_tensor(splits_np, dtype), internal=True)
    result._splits_np = splits_np
    return result

  # ---- Factory methods ----
  @classmethod
  def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
    """Rows from each value's row index (`value_rowids`, sorted), with `nrows` rows."""
    _check_validate(validate)
    values, rowids = _values_and_partition(values, value_rowids, "value_rowids")
    ids = host(rowids)
    if nrows is None:
      count = int(ids[-1]) + 1 if ids.size else 0
    else:
      count = int(host(convert_to_tensor(nrows, rowids.dtype)))
      if count < 0:
        raise ValueError("Expected nrows >= 0; got %d" % count)
      if ids.size and count < ids[-1] + 1:
        raise ValueError("Expected nrows >= value_rowids[-1] + 1; got nrows=%d, "
                         "value_rowids[-1]=%d" % (count, ids[-1]))
    values.shape[:1].assert_is_compatible_with(rowids.shape)
    if validate:
      msg = "Arguments to from_value_rowids do not form a valid RaggedTensor"
      _check_non_negative(np.diff(ids), msg)
      _check_non_negative(ids[:1], msg)
    lengths = np.bincount(ids, minlength=count)[:count] if ids.size else np.zeros(count, int)
    splits = np.concatenate([[0], np.cumsum(lengths)])
    return cls._from_splits(values, splits, rowids.dtype)

  @classmethod
  def from_row_splits(cls, values, row_splits, name=None, validate=True):
    """Row `i` is `values[row_splits[i]:row_splits[i + 1]]`."""
    _check_validate(validate)
    values, splits = _values_and_partition(values, row_splits, "row_splits")
    splits_np = host(splits)
    if not splits_np.size:
      raise ValueError("row_splits tensor may not be empty.")
    if validate:
      _check_splits(splits_np, nrows_of(values),
                    "Arguments to from_row_splits do not form a valid RaggedTensor")
    result = cls(values, splits, internal=True)
    result._splits_np = splits_np
    return result

  @classmethod
  def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
    """Rows of `row_lengths[i]` values each."""
    _check_validate(validate)
    values, lengths = _values_and_partition(values, row_lengths, "row_lengths")
    lengths_np = host(lengths)
    splits = np.concatenate([np.zeros(1, lengths_np.dtype), np.cumsum(lengths_np)])
    if validate:
      msg = "Arguments to from_row_lengths do not form a valid RaggedTensor"
      _check_non_negative(lengths_np, msg)
      _check_equal(splits[-1], nrows_of(values), msg)
    return cls._from_splits(values, splits, lengths.dtype)

  @classmethod
  def from_row_starts(cls, values, row_starts, name=None, validate=True):
    """Row `i` starts at `row_starts[i]` (the last row ends with the values)."""
    _check_validate(validate)
    values, starts = _values_and_partition(values, row_starts, "row_starts")
    starts_np, nvals = host(starts), nrows_of(values)
    if validate:
      msg = "Arguments to from_row_starts do not form a valid RaggedTensor"
      if starts_np.size:
        _check_equal(starts_np[0], 0, msg)
      _check_non_negative(np.diff(starts_np), msg)
      _check_non_negative(nvals - starts_np[-1:], msg)
    return cls._from_splits(values, np.append(starts_np, nvals), starts.dtype)

  @classmethod
  def from_row_limits(cls, values, row_limits, name=None, validate=True):
    """Row `i` ends at `row_limits[i]` (the first row starts at 0)."""
    _check_validate(validate)
    values, limits = _values_and_partition(values, row_limits, "row_limits")
    limits_np = host(limits)
    if validate:
      msg = "Arguments to from_row_limits do not form a valid RaggedTensor"
      _check_non_negative(limits_np[:1], msg)
      _check_non_negative(np.diff(limits_np), msg)
      _check_equal(limits_np[-1] if limits_np.size else 0, nrows_of(values), msg)
    return cls._from_splits(values, np.append(0, limits_np), limits.dtype)

  @classmethod
  def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                               name=None, validate=True):
    """`from_value_rowids` applied for each ragged dimension, innermost first."""
    if isinstance(nested_value_rowids, Tensor):
      raise TypeError("nested_value_rowids must be a list of Tensors")
    if nested_nrows is None:
      nested_nrows = [None] * len(nested_value_rowids)
    elif isinstance(nested_nrows, Tensor) or len(nested_nrows) != len(nested_value_rowids):
      raise ValueError("nested_nrows must be a list of Tensors with the same length as "
                       "nested_value_rowids")
    result = flat_values
    for rowids, nrows in reversed(list(zip(nested_value_rowids, nested_nrows))):
      result = cls.from_value_rowids(result, rowids, nrows, validate=validate)
    return result

  @classmethod
  def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
    """`from_row_splits` applied for each ragged dimension, innermost first."""
    if isinstance(nested_row_splits, Tensor):
      raise TypeError("nested_row_splits must be a list of Tensors")
    result = flat_values
    for splits in reversed(nested_row_splits):
      result = cls.from_row_splits(result, splits, validate=validate)
    return result

  @classmethod
  def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
    """`from_row_lengths` applied for each ragged dimension, innermost first."""
    if isinstance(nested_row_lengths, Tensor):
      raise TypeError("nested_row_lengths must be a list of Tensors")
    result = flat_values
    for lengths in reversed(nested_row_lengths):
      result = cls.from_row_lengths(result, lengths, validate=validate)
    return result

  @classmethod
  def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                  row_splits_dtype=dtypes.int64):
    """A RaggedTensor of a dense `tensor`, its rows cut to `lengths` or before `padding`."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if lengths is not None and padding is not None:
      raise ValueError("Specify lengths or padding, but not both")
    if not isinstance(ragged_rank, int):
      raise TypeError("ragged_rank expected int, got %r" % ragged_rank)
    if ragged_rank <= 0:
      raise ValueError("ragged_rank must be greater than 0; got %s" % ragged_rank)
    tensor = convert_to_tensor(tensor)
    tensor.shape.with_rank_at_least(ragged_rank + 1)
    dims = _shape_dims(tensor)
    if ragged_rank > 1:
      if isinstance(lengths, (list, tuple)) and lengths and isinstance(
          lengths[0], (list, tuple, np.ndarray, Tensor)):
        return _from_tensor_nested_lengths(cls, tensor, lengths, row_splits_dtype)
      flat = array_ops.reshape(tensor, (-1,) + dims[ragged_rank:])
      result = cls.from_tensor(flat, lengths, padding, row_splits_dtype=row_splits_dtype)
      for dim in range(ragged_rank - 1, 0, -1):
        rows = int(np.prod(dims[:dim]))
        result = cls._from_splits(result, np.arange(rows + 1) * dims[dim], row_splits_dtype)
      return result
    nrows, ncols = dims[0], dims[1]
    if padding is not None:
      padding = convert_to_tensor(padding, tensor.dtype)
      padding.shape.assert_is_compatible_with(tensor.shape[2:])
      equal = np.equal(host(tensor), host(padding))
      is_default = equal.reshape(nrows, ncols, int(np.prod(dims[2:]))).all(axis=2)
      lengths = np.max(np.where(is_default, 0, np.arange(1, ncols + 1)), axis=1,
                       initial=0)
    if lengths is None:
      return cls._from_splits(array_ops.reshape(tensor, (nrows * ncols,) + dims[2:]),
                              np.arange(nrows + 1) * ncols, row_splits_dtype)
    lengths = np.clip(host(convert_to_tensor(lengths)).astype(np.int64), 0, ncols)
    if lengths.ndim != 1:
      raise ValueError("Shape %s must have rank 1" % (tensor_shape.TensorShape(lengths.shape),))
    keep = np.flatnonzero(np.arange(ncols) < lengths[:, None])
    values = gather_rows(array_ops.reshape(tensor, (nrows * ncols,) + dims[2:]), keep)
    return cls._from_splits(values, np.concatenate([[0], np.cumsum(lengths)]),
                            row_splits_dtype)

  @classmethod
  def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
    """A 2-D right-ragged SparseTensor (each row's entries from column 0) as rows."""
    if not isinstance(st_input, SparseTensor):
      raise TypeError("Expected SparseTensor, got %s" % type(st_input).__name__)
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    indices = host(st_input.indices)
    if host(st_input.dense_shape).size != 2 and indices.shape[1] != 2:
      raise ValueError("rank(st_input) must be 2")
    rows, cols = indices[:, 0], indices[:, -1]
    new_row = np.concatenate([[True], rows[1:] != rows[:-1]]) if rows.size else rows
    expected = np.where(new_row, 0, np.concatenate([[0], cols[:-1] + 1]))
    if not np.array_equal(cols, expected):
      check_ops.Assert(False, ["SparseTensor is not right-ragged", "SparseTensor.indices =",
                               st_input.indices])
    nrows = int(host(st_input.dense_shape)[0])
    splits = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=nrows)[:nrows])])
    return cls._from_splits(st_input.values, splits, row_splits_dtype)

  # ---- Properties ----
  @property
  def dtype(self):
    return self._values.dtype

  @property
  def shape(self):
    """[nrows, None (each ragged dimension), inner dimensions of flat_values]."""
    inner = self.flat_values.shape[1:].as_list()
    return tensor_shape.TensorShape([self.nrows_np()] + [None] * self.ragged_rank + inner)

  @property
  def ragged_rank(self):
    values = self._values
    return values.ragged_rank + 1 if isinstance(values, RaggedTensor) else 1

  @property
  def values(self):
    return self._values

  @property
  def row_splits(self):
    return self._row_splits

  @property
  def flat_values(self):
    values = self._values
    while isinstance(values, RaggedTensor):
      values = values.values
    return values

  @property
  def nested_row_splits(self):
    splits, rt = [self._row_splits], self._values
    while isinstance(rt, RaggedTensor):
      splits.append(rt.row_splits)
      rt = rt.values
    return tuple(splits)

  # ---- Row partitions ----
  def splits_np(self):
    """row_splits as a NumPy array (read from the device once)."""
    if self._splits_np is None:
      self._splits_np = host(self._row_splits)
    return self._splits_np

  def nrows_np(self):
    return self.splits_np().size - 1

  def _int(self, array, out_type=None):
    return int_tensor(array, self._row_splits.dtype if out_type is None
                      else dtypes.as_dtype(out_type))

  def value_rowids(self, name=None):
    """The row index of each value."""
    splits = self.splits_np()
    return self._int(np.repeat(np.arange(splits.size - 1), np.diff(splits)))

  def nrows(self, out_type=None, name=None):
    return self._int(self.nrows_np(), out_type)

  def row_starts(self, name=None):
    return self._int(self.splits_np()[:-1])

  def row_limits(self, name=None):
    return self._int(self.splits_np()[1:])

  def row_lengths(self, axis=1, name=None):
    """The length of each row (axis 1), or of each row of a deeper ragged dimension."""
    axis = positive_axis(axis, self.shape.ndims)
    if axis == 0:
      return self.nrows()
    if axis == 1:
      return self._int(np.diff(self.splits_np()))
    if isinstance(self._values, RaggedTensor):
      return self.with_values(self._values.row_lengths(axis - 1))
    dims = _shape_dims(self._values)
    return self.with_values(self._int(np.full(dims[:axis - 1], dims[axis - 1])))

  def nested_row_lengths(self, name=None):
    lengths, rt = [], self
    while isinstance(rt, RaggedTensor):
      lengths.append(rt.row_lengths())
      rt = rt.values
    return tuple(lengths)

  def nested_value_rowids(self, name=None):
    rowids, rt = [], self
    while isinstance(rt, RaggedTensor):
      rowids.append(rt.value_rowids())
      rt = rt.values
    return tuple(rowids)

  def bounding_shape(self, axis=None, name=None, out_type=None):
    """The smallest dense shape holding this tensor: [nrows, longest rows..., inner dims]."""
    dims, rt = [self.nrows_np()], self
    while isinstance(rt, RaggedTensor):
      dims.append(int(np.max(np.diff(rt.splits_np()), initial=0)))
      rt = rt.values
    shape = np.array(dims + list(_shape_dims(rt)[1:]))
    return self._int(shape if axis is None else shape[axis], out_type)

  # ---- Transformations ----
  def with_values(self, new_values):
    """This tensor's row partition over `new_values` (with as many rows as `values`)."""
    new_values = convert_to_tensor_or_ragged_tensor(new_values)
    new_values.shape.with_rank_at_least(1)
    self._values.shape[:1].assert_is_compatible_with(new_values.shape[:1])
    if (isinstance(new_values, RaggedTensor)
        and new_values.row_splits.dtype is not self._row_splits.dtype):
      raise ValueError("self and new_values have mismatched row_splits dtypes; use "
                       "RaggedTensor.with_row_splits_dtype() to convert them to compatible "
                       "dtypes.")
    result = RaggedTensor(new_values, self._row_splits, internal=True)
    result._splits_np = self._splits_np
    return result

  def with_flat_values(self, new_values):
    """This tensor's nested row partitions over `new_values`."""
    if isinstance(self._values, RaggedTensor):
      return self.with_values(self._values.with_flat_values(new_values))
    return self.with_values(new_values)

  def with_row_splits_dtype(self, dtype):
    """A copy whose row partitions have `dtype` (int32 or int64)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _SPLITS_DTYPES:
      raise ValueError("dtype must be int32 or int64")
    if self._row_splits.dtype is dtype:
      return self
    values = self._values
    if isinstance(values, RaggedTensor):
      values = values.with_row_splits_dtype(dtype)
    return RaggedTensor._from_splits(values, self.splits_np(), dtype)

  # ---- Conversions ----
  def to_tensor(self, default_value=None, name=None):
    """A dense Tensor of `bounding_shape()`, padded with `default_value` (default zeros)."""
    if default_value is not None:
      default_value = convert_to_tensor(default_value, self.dtype)
    values = self._values
    if isinstance(values, RaggedTensor):
      values = values.to_tensor(default_value)
    inner = _shape_dims(values)[1:]
    if default_value is None:
      default_value = _zeros(inner, self.dtype)
    elif default_value.shape.ndims > len(inner):
      raise ValueError("Shape %s must have rank at most %d" % (default_value.shape, len(inner)))
    else:
      default_value = _broadcast(default_value, inner)
    splits = self.splits_np()
    nrows, nvals = splits.size - 1, _shape_dims(values)[0]
    ncols = int(np.max(np.diff(splits), initial=0))
    index = splits[:-1, None] + np.arange(ncols)
    index = np.where(index < splits[1:, None], index, nvals)
    with_default = array_ops.concat([values, array_ops.expand_dims(default_value, 0)], 0)
    return array_ops.reshape(gather_rows(with_default, index.reshape(-1)),
                             (nrows, ncols) + inner)

  def to_sparse(self, name=None):
    """A SparseTensor of every value (inner dimensions included) in a bounding shape."""
    prefix, rt = np.zeros((self.nrows_np(), 1), np.int64), self
    prefix[:, 0] = np.arange(self.nrows_np())
    while isinstance(rt, RaggedTensor):
      splits = rt.splits_np()
      lengths = np.diff(splits)
      positions = np.arange(splits[-1]) - np.repeat(splits[:-1], lengths)
      prefix = np.concatenate([np.repeat(prefix, lengths, axis=0), positions[:, None]], 1)
      rt = rt.values
    inner = _shape_dims(rt)[1:]
    if inner:
      cells = np.indices(inner).reshape(len(inner), -1).T
      prefix = np.concatenate([np.repeat(prefix, len(cells), axis=0),
                               np.tile(cells, (prefix.shape[0], 1))], 1)
    return SparseTensor(prefix, array_ops.reshape(rt, [-1]),
                        self.bounding_shape(out_type=dtypes.int64))

  def to_list(self):
    """The values as nested Python lists."""
    values = self._values
    items = values.to_list() if isinstance(values, RaggedTensor) else host(values).tolist()
    splits = self.splits_np()
    return [items[splits[i]:splits[i + 1]] for i in range(splits.size - 1)]

  def _is_eager(self):
    return not any(isinstance(t._value, jax.core.Tracer)
                   for t in self.nested_row_splits + (self.flat_values,))

  def __str__(self):
    if self._is_eager():
      return "<tf.RaggedTensor %s>" % self.to_list()
    return "tf.RaggedTensor(values=%s, row_splits=%s)" % (self._values, self._row_splits)

  __repr__ = __str__


def _from_tensor_nested_lengths(cls, tensor, lengths, row_splits_dtype):
  """`from_tensor` with one lengths vector per ragged dimension (outermost first)."""
  mask = cls.from_nested_row_lengths(
      np.ones(int(np.sum(host(convert_to_tensor(lengths[-1])))), bool),
      [np.asarray(host(convert_to_tensor(l)), row_splits_dtype.as_numpy_dtype)
       for l in lengths], validate=False).to_tensor(False)
  values = slicing.boolean_mask(tensor, mask)
  return cls.from_nested_row_lengths(
      values, [np.asarray(host(convert_to_tensor(l)), row_splits_dtype.as_numpy_dtype)
               for l in lengths], validate=False)


def _zeros(dims, dtype):
  if dtype is dtypes.string:
    return convert_to_tensor(np.full(dims, b"", dtype=object))
  return array_ops.zeros(dims, dtype)


def _broadcast(tensor, dims):
  if tensor.dtype is dtypes.string:
    return convert_to_tensor(np.broadcast_to(host(tensor), dims).copy())
  return manip_ops.broadcast_to(tensor, dims)


def positive_axis(axis, ndims):
  """TF's `get_positive_axis`."""
  if not isinstance(axis, int):
    raise TypeError("axis must be an int; got %s" % type(axis).__name__)
  if ndims is not None and not -ndims <= axis < ndims:
    raise ValueError("axis=%s out of bounds: expected %s<=axis<%s" % (axis, -ndims, ndims))
  return axis + ndims if axis < 0 else axis


def gather_rows(values, indices):
  """Rows `indices` (a NumPy int vector) of a Tensor or RaggedTensor."""
  indices = np.asarray(indices, np.int64)
  if not isinstance(values, RaggedTensor):
    return slicing.gather(values, convert_to_tensor(indices))
  splits = values.splits_np()
  starts, lengths = splits[indices], np.diff(splits)[indices]
  new_splits = np.concatenate([[0], np.cumsum(lengths)])
  inner = np.arange(new_splits[-1]) - np.repeat(new_splits[:-1] - starts, lengths) \
      if lengths.size else np.zeros(0, np.int64)
  return RaggedTensor._from_splits(gather_rows(values.values, inner), new_splits,
                                   values.row_splits.dtype)


class _ConversionError(TypeError):
  """convert_to_tensor's TypeError for a RaggedTensor; its message (which prints the values)
  is only formatted when shown, not when an op catches it to dispatch."""

  def __str__(self):
    return ("Failed to convert object of type %s to Tensor. Contents: %s. Consider casting "
            "elements to a supported type." % (type(self.args[0]), self.args[0]))


def _no_conversion(value, dtype=None, name=None, as_ref=False):
  raise _ConversionError(value)


register_tensor_conversion_function(RaggedTensor, _no_conversion)
