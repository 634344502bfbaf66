"""TensorFlow DType objects and the conversions between TF, NumPy and Python types."""
import builtins

import ml_dtypes
import numpy as np

from tfe_compat.framework.api import export


class DType:
  """A TensorFlow element type (`tf.float32`, `tf.int64`, `tf.string`, ...)."""

  __slots__ = ("_name", "_np", "_enum")

  def __init__(self, name, np_dtype, enum):
    self._name = name
    self._np = np_dtype
    self._enum = enum

  name = property(lambda self: self._name)
  as_numpy_dtype = property(lambda self: self._np.type if self._np is not None else None)
  as_datatype_enum = property(lambda self: self._enum)
  base_dtype = property(lambda self: self)
  is_quantized = property(lambda self: False)
  is_numpy_compatible = property(lambda self: self._np is not None)

  @property
  def real_dtype(self):
    return {"complex64": float32, "complex128": float64}.get(self._name, self)

  @property
  def is_floating(self):
    return self._np is not None and self._np.kind == "f" or self._name == "bfloat16"

  @property
  def is_integer(self):
    return self._np is not None and self._np.kind in "iu"

  @property
  def is_unsigned(self):
    return self._np is not None and self._np.kind == "u"

  @property
  def is_complex(self):
    return self._np is not None and self._np.kind == "c"

  @property
  def is_bool(self):
    return self._name == "bool"

  @property
  def size(self):
    return 0 if self._np is None else self._np.itemsize

  def _limits(self):
    if self.is_floating:
      return ml_dtypes.finfo(self._np)
    if self.is_integer:
      return np.iinfo(self._np)
    raise TypeError("Cannot find minimum value of %s with type %s." % (self, self))

  @property
  def min(self):
    return self._limits().min

  @property
  def max(self):
    return self._limits().max

  @property
  def limits(self):
    return (self.min, self.max)

  def is_compatible_with(self, other):
    return self == as_dtype(other)

  def __eq__(self, other):
    if other is None:
      return False
    if isinstance(other, DType):
      return self is other
    try:
      return self is as_dtype(other)
    except TypeError:
      return False

  def __ne__(self, other):
    return not self == other

  def __hash__(self):
    return self._enum

  def __repr__(self):
    return "tf." + self._name

  def __str__(self):
    return "<dtype: %r>" % self._name

  def __reduce__(self):
    return as_dtype, (self._name,)


_SPECS = [  # name, numpy dtype, TF DataType enum
    ("float32", np.float32, 1), ("float64", np.float64, 2), ("int32", np.int32, 3),
    ("uint8", np.uint8, 4), ("int16", np.int16, 5), ("int8", np.int8, 6),
    ("string", None, 7), ("complex64", np.complex64, 8), ("int64", np.int64, 9),
    ("bool", np.bool_, 10), ("bfloat16", ml_dtypes.bfloat16, 14), ("uint16", np.uint16, 17),
    ("complex128", np.complex128, 18), ("float16", np.float16, 19), ("uint32", np.uint32, 22),
    ("uint64", np.uint64, 23),
]
_BY_NAME = {n: DType(n, None if d is None else np.dtype(d), e) for n, d, e in _SPECS}

# Handles, not values: TF's names, enums and sizes; tfe_compat makes no tensors of them.
_BY_NAME["resource"] = DType("resource", None, 20)
_BY_NAME["variant"] = DType("variant", None, 21)
resource, variant = _BY_NAME["resource"], _BY_NAME["variant"]
float32, float64, float16, bfloat16 = (_BY_NAME[n] for n in ("float32", "float64", "float16", "bfloat16"))
int8, int16, int32, int64 = (_BY_NAME[n] for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (_BY_NAME[n] for n in ("uint8", "uint16", "uint32", "uint64"))
complex64, complex128, string = _BY_NAME["complex64"], _BY_NAME["complex128"], _BY_NAME["string"]
bool = _BY_NAME["bool"]  # pylint: disable=redefined-builtin
half, double = float16, float64

_ALIASES = {"half": float16, "float": float32, "double": float64, "complex": complex64}
_BY_NUMPY = {d._np: d for d in _BY_NAME.values() if d._np is not None}
_BY_ENUM = {d._enum: d for d in _BY_NAME.values()}
_BY_PYTHON = {builtins.float: float32, builtins.bool: bool, builtins.object: string}


class _QuantizedDType(DType):
  """A quantized type (`tf.qint8`, ...): values stored as the integer type of its width."""

  __slots__ = ()
  is_quantized = property(lambda self: True)
  is_numpy_compatible = property(lambda self: False)
  is_integer = property(lambda self: False)
  is_unsigned = property(lambda self: False)
  as_numpy_dtype = property(lambda self: np.dtype([(self._name, self._np)]))


_QUANTIZED = {n: _QuantizedDType(n, np.dtype(d), e) for n, d, e in [
    ("qint8", np.int8, 11), ("quint8", np.uint8, 12), ("qint32", np.int32, 13),
    ("qint16", np.int16, 15), ("quint16", np.uint16, 16)]}
qint8, quint8, qint32, qint16, quint16 = _QUANTIZED.values()
_BY_NAME.update(_QUANTIZED)  # not in _BY_NUMPY: an int8 array stays tf.int8
_BY_ENUM.update({d._enum: d for d in _QUANTIZED.values()})


def as_dtype(type_value):
  """Converts a DType, name, NumPy dtype, Python type or enum to a `DType`."""
  if isinstance(type_value, DType):
    return type_value
  if isinstance(type_value, str):
    found = _BY_NAME.get(type_value) or _ALIASES.get(type_value)
    if found is not None:
      return found
  elif isinstance(type_value, builtins.int) and not isinstance(type_value, builtins.bool):
    if type_value in _BY_ENUM:
      return _BY_ENUM[type_value]
  elif type_value in _BY_PYTHON:
    return _BY_PYTHON[type_value]
  elif not (isinstance(type_value, type) and type_value.__module__ == "builtins"):
    try:
      np_dtype = np.dtype(type_value)
    except TypeError:
      np_dtype = None
    if np_dtype is not None:
      if np_dtype.kind in "OSU":
        return string
      if np_dtype in _BY_NUMPY:
        return _BY_NUMPY[np_dtype]
  raise TypeError("Cannot convert the argument `type_value`: %r to a TensorFlow DType."
                  % (type_value,))


def from_numpy(np_dtype):
  """The DType of a NumPy/JAX array dtype (object and bytes arrays are strings)."""
  found = _BY_NUMPY.get(np_dtype)
  return found if found is not None else as_dtype(np_dtype)


def is_differentiable(dtype):
  """Whether the tape records ops on this dtype (floating and complex, as in TF)."""
  return dtype.is_floating or dtype.is_complex




for _dtype in _BY_NAME.values():
  export(_dtype.name, "dtypes." + _dtype.name)(_dtype)
export("half", "dtypes.half")(half)
export("double", "dtypes.double")(double)
export("DType", "dtypes.DType")(DType)
QUANTIZED_DTYPES = frozenset([qint8, quint8, qint16, quint16, qint32])
export("QUANTIZED_DTYPES", "dtypes.QUANTIZED_DTYPES")(QUANTIZED_DTYPES)
export("as_dtype", "dtypes.as_dtype")(as_dtype)
