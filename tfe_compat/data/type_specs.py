"""`tf.TypeSpec` and the specs of composite values: `tf.SparseTensorSpec`, `tf.RaggedTensorSpec`,
`tf.TensorArraySpec`, `tf.IndexedSlicesSpec`; TF 1.15's `tf.data.experimental.*Structure`
names for them."""
from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.ragged.ragged_tensor import RaggedTensor


@export("TypeSpec", "data.experimental.Structure")
class TypeSpec:
  """The type of a value tf.data and tf.function carry; equal when `_serialize()` is."""

  __slots__ = ()
  value_type = None

  def _serialize(self):
    raise NotImplementedError

  def is_compatible_with(self, spec_or_value):
    spec = spec_or_value if isinstance(spec_or_value, TypeSpec) else _spec_of_value(
        spec_or_value)
    if type(spec) is not type(self):
      return False
    return all(_compatible(a, b) for a, b in zip(self._serialize(), spec._serialize()))

  def most_specific_compatible_type(self, other):
    if type(other) is not type(self) or not self.is_compatible_with(other):
      raise ValueError("No TypeSpec is compatible with both %s and %s" % (self, other))
    return type(self)(*[_relaxed(a, b) for a, b in zip(self._serialize(), other._serialize())])

  def __eq__(self, other):
    return type(other) is type(self) and _key(self._serialize()) == _key(other._serialize())

  def __ne__(self, other):
    return not self == other

  def __hash__(self):
    return hash((type(self).__name__, _key(self._serialize())))

  def __repr__(self):
    return "%s%r" % (type(self).__name__, self._serialize())


def _key(parts):
  return tuple(tuple(p.as_list()) if isinstance(p, tensor_shape.TensorShape) and p.dims is not None
               else (None if isinstance(p, tensor_shape.TensorShape) else p) for p in parts)


def _compatible(a, b):
  if isinstance(a, tensor_shape.TensorShape):
    return a.is_compatible_with(b)
  if isinstance(a, TypeSpec):
    return a.is_compatible_with(b)
  return a == b


def _relaxed(a, b):
  if isinstance(a, tensor_shape.TensorShape):
    return most_specific_compatible_shape(a, b)
  if isinstance(a, TypeSpec):
    return a.most_specific_compatible_type(b)
  return a


def most_specific_compatible_shape(a, b):
  """The shape that keeps the dimensions `a` and `b` agree on (TF's TensorShape method)."""
  a, b = tensor_shape.TensorShape(a), tensor_shape.TensorShape(b)
  if a.dims is None or b.dims is None or len(a) != len(b):
    return tensor_shape.TensorShape(None)
  return tensor_shape.TensorShape([x if x == y else None for x, y in zip(a.as_list(),
                                                                          b.as_list())])


def _spec_of_value(value):
  if isinstance(value, RaggedTensor):
    return RaggedTensorSpec.from_value(value)
  from tfe_compat.data import structure
  return structure.spec_of(structure.to_numpy(value))


@export("SparseTensorSpec")
class SparseTensorSpec(TypeSpec):
  """`tf.SparseTensorSpec(shape=None, dtype=tf.float32)`: the type of a SparseTensor."""

  __slots__ = ("_shape", "_dtype")

  def __init__(self, shape=None, dtype=dtypes.float32):
    self._shape = tensor_shape.TensorShape(shape)
    self._dtype = dtypes.as_dtype(dtype)

  shape = property(lambda self: self._shape)
  dtype = property(lambda self: self._dtype)

  @property
  def value_type(self):
    from tfe_compat.ops.string_ops import SparseTensor
    return SparseTensor

  def _serialize(self):
    return (self._shape, self._dtype)

  @classmethod
  def from_value(cls, value):
    return cls(value.shape, value.dtype)


@export("RaggedTensorSpec")
class RaggedTensorSpec(TypeSpec):
  """`tf.RaggedTensorSpec`: the type of a RaggedTensor."""

  __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype")

  def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
               row_splits_dtype=dtypes.int64):
    self._shape = tensor_shape.TensorShape(shape)
    self._dtype = dtypes.as_dtype(dtype)
    self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    rank = self._shape.ndims
    if ragged_rank is None:
      if rank is None:
        raise ValueError("Must specify ragged_rank or a shape with a known rank.")
      ragged_rank = rank - 1
    if not isinstance(ragged_rank, int):
      raise TypeError("ragged_rank must be an int")
    if rank is not None and (ragged_rank >= rank or ragged_rank < 0):
      raise ValueError("ragged_rank must be less than rank.")
    self._ragged_rank = ragged_rank

  shape = property(lambda self: self._shape)
  dtype = property(lambda self: self._dtype)
  ragged_rank = property(lambda self: self._ragged_rank)
  row_splits_dtype = property(lambda self: self._row_splits_dtype)
  value_type = property(lambda self: RaggedTensor)

  @classmethod
  def from_value(cls, value):
    return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

  def _serialize(self):
    return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)


@export("TensorArraySpec")
class TensorArraySpec(TypeSpec):
  """`tf.TensorArraySpec(element_shape=None, dtype=tf.float32, dynamic_size=False,
  infer_shape=True)`: the type of a TensorArray."""

  __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

  def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
               infer_shape=True):
    self._element_shape = tensor_shape.TensorShape(element_shape)
    self._dtype = dtypes.as_dtype(dtype)
    self._dynamic_size, self._infer_shape = dynamic_size, infer_shape

  @property
  def value_type(self):
    from tfe_compat.ops.tensor_array_ops import TensorArray
    return TensorArray

  def _serialize(self):
    return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)


@export("IndexedSlicesSpec")
class IndexedSlicesSpec(TypeSpec):
  """`tf.IndexedSlicesSpec(shape=None, dtype=tf.float32, indices_dtype=tf.int64,
  dense_shape_dtype=None, indices_shape=None)`: the type of an IndexedSlices."""

  __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype",
               "_indices_shape")

  def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
               dense_shape_dtype=None, indices_shape=None):
    self._shape = tensor_shape.as_shape(shape)
    self._values_dtype = dtypes.as_dtype(dtype)
    self._indices_dtype = dtypes.as_dtype(indices_dtype)
    self._dense_shape_dtype = (None if dense_shape_dtype is None
                               else dtypes.as_dtype(dense_shape_dtype))
    self._indices_shape = tensor_shape.as_shape(indices_shape).with_rank(1)

  @property
  def value_type(self):
    from tfe_compat.ops.string_ops import IndexedSlices
    return IndexedSlices

  def _serialize(self):
    return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
            self._indices_shape)


# TF 1.15's `tf.data.experimental` constructors, which take the dtype first.
@export("data.experimental.TensorStructure")
def tensor_structure(dtype, shape):
  from tfe_compat.data.structure import TensorSpec
  return TensorSpec(shape, dtype)


@export("data.experimental.SparseTensorStructure")
def sparse_tensor_structure(dtype, shape):
  return SparseTensorSpec(shape, dtype)


@export("data.experimental.RaggedTensorStructure")
def ragged_tensor_structure(dtype, shape, ragged_rank):
  return RaggedTensorSpec(shape, dtype, ragged_rank)


@export("data.experimental.TensorArrayStructure")
def tensor_array_structure(dtype, element_shape, dynamic_size, infer_shape):
  return TensorArraySpec(element_shape, dtype, dynamic_size, infer_shape)
