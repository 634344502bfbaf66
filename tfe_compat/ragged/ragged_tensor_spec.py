"""`tf.RaggedTensorSpec`: the type of a RaggedTensor (shape, dtype, ragged rank, splits dtype)."""
from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.ragged.ragged_tensor import RaggedTensor, convert_to_tensor_or_ragged_tensor


@export("RaggedTensorSpec")
class RaggedTensorSpec:
  """Describes RaggedTensors of one shape (None for ragged or unknown dimensions) and dtype."""

  def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
               row_splits_dtype=dtypes.int64):
    self._shape = tensor_shape.as_shape(shape) if shape is not None else \
        tensor_shape.unknown_shape()
    self._dtype = dtypes.as_dtype(dtype)
    self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    rank = self._shape.ndims
    if ragged_rank is None:
      if rank is None:
        raise ValueError("Must specify ragged_rank or a shape with a known rank.")
      ragged_rank = rank - 1
    if not isinstance(ragged_rank, int):
      raise TypeError("ragged_rank must be an int")
    if rank is not None and ragged_rank >= rank:
      raise ValueError("ragged_rank must be less than rank.")
    self._ragged_rank = ragged_rank

  shape = property(lambda self: self._shape)
  dtype = property(lambda self: self._dtype)
  ragged_rank = property(lambda self: self._ragged_rank)
  row_splits_dtype = property(lambda self: self._row_splits_dtype)
  value_type = property(lambda self: RaggedTensor)

  @classmethod
  def from_value(cls, value):
    value = convert_to_tensor_or_ragged_tensor(value)
    return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

  def _key(self):
    return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

  def is_compatible_with(self, spec_or_value):
    """Whether `spec_or_value` (a spec or a RaggedTensor) fits this spec."""
    other = spec_or_value
    if not isinstance(other, RaggedTensorSpec):
      if not isinstance(other, RaggedTensor):
        return False
      other = RaggedTensorSpec.from_value(other)
    return (self._shape.is_compatible_with(other.shape) and self._dtype == other.dtype
            and self._ragged_rank == other.ragged_rank
            and self._row_splits_dtype == other.row_splits_dtype)

  def __eq__(self, other):
    return type(other) is RaggedTensorSpec and self._key() == other._key()

  def __ne__(self, other):
    return not self == other

  def __hash__(self):
    return hash(self._key())

  def __repr__(self):
    return "RaggedTensorSpec(%r, %r, %r, %r)" % self._key()
