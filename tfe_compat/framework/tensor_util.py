"""`TensorProto`s: `tf.make_tensor_proto`, `tf.make_ndarray`, and the proto of a tensor's
value as TF's kernels write it (`Tensor::AsProtoTensorContent`, used by serialize_tensor and
summaries). The message classes are tensorboardX's compiled copy of TF's tensor.proto, whose
uint32_val and uint64_val fields (missing there) travel as unknown fields through
tfe_compat.proto.tensor_values_pb2."""
import numbers
import sys

import numpy as np
from tensorboardX.proto import tensor_pb2, tensor_shape_pb2

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops as framework_ops
from tfe_compat.framework.api import export
from tfe_compat.proto import tensor_values_pb2

TensorProto = tensor_pb2.TensorProto

# make_tensor_proto writes these as raw bytes when the shape is given by the values.
_CONTENT_TYPES = frozenset([dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32,
                            dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.int64,
                            dtypes.uint32, dtypes.uint64])
# The repeated field that holds each dtype's values when they are not raw bytes.
_VALUE_FIELDS = {
    "float16": "half_val", "bfloat16": "half_val", "float32": "float_val",
    "float64": "double_val", "int32": "int_val", "uint8": "int_val", "uint16": "int_val",
    "int16": "int_val", "int8": "int_val", "int64": "int64_val", "uint32": "uint32_val",
    "uint64": "uint64_val", "complex64": "scomplex_val", "complex128": "dcomplex_val",
    "bool": "bool_val", "string": "string_val"}


def shape_proto(shape):
  return tensor_shape_pb2.TensorShapeProto(
      dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=int(d)) for d in shape])


def _bytes(value):
  if isinstance(value, bytes):
    return value
  if isinstance(value, str):
    return value.encode("utf-8")
  if isinstance(value, (bytearray, memoryview, np.bytes_)):
    return bytes(value)
  raise TypeError("Expected binary or unicode string, got %r" % (value,))


def _little_endian_bytes(array):
  array = np.ascontiguousarray(array)
  return (array.byteswap() if sys.byteorder == "big" else array).tobytes()


def _varint(value):
  out = bytearray()
  while value >= 0x80:
    out.append(value & 0x7f | 0x80)
    value >>= 7
  out.append(value)
  return bytes(out)


def _decode_string_list(content, count):
  """TF's `port::DecodeStringList`: `count` varint lengths, then the strings' bytes."""
  lengths, pos = [], 0
  for _ in range(count):
    value = shift = 0
    while True:
      byte = content[pos]
      pos += 1
      value |= (byte & 0x7f) << shift
      shift += 7
      if byte < 0x80:
        break
    lengths.append(value)
  out = []
  for length in lengths:
    out.append(content[pos:pos + length])
    pos += length
  if pos != len(content):
    raise ValueError("string tensor_content of %d strings has %d bytes, not %d"
                     % (count, len(content), pos))
  return out


def content_proto(array, dtype=None, strings_as_content=False):
  """The TensorProto of a NumPy array as TF's kernels write it: raw little-endian bytes in
  `tensor_content`; strings in `string_val` (`AsProtoField`), or with `strings_as_content`
  as TF's string list encoding in `tensor_content` (`AsProtoTensorContent`)."""
  array = np.asarray(array)
  dtype = dtype or (dtypes.string if array.dtype.kind in "OSU" else dtypes.from_numpy(array.dtype))
  proto = TensorProto(dtype=dtype.as_datatype_enum, tensor_shape=shape_proto(array.shape))
  if dtype is dtypes.string:
    strings = [_bytes(s) for s in array.ravel().tolist()]
    if strings_as_content:
      proto.tensor_content = b"".join([_varint(len(s)) for s in strings] + strings)
    else:
      proto.string_val.extend(strings)
  else:
    proto.tensor_content = _little_endian_bytes(array)
  return proto


def _append_values(proto, dtype, values):
  """Appends a flat array to the dtype's repeated value field, as TF's make_tensor_proto."""
  if dtype in (dtypes.uint32, dtypes.uint64):
    extra = tensor_values_pb2.TensorValues()
    getattr(extra, _VALUE_FIELDS[dtype.name]).extend(values.tolist())
    proto.MergeFromString(extra.SerializeToString())
    return
  field = getattr(proto, _VALUE_FIELDS[dtype.name])
  if dtype in (dtypes.float16, dtypes.bfloat16):
    field.extend(values.view(np.uint16).tolist())
  elif dtype.is_complex:
    field.extend(np.stack([values.real, values.imag], axis=-1).ravel().tolist())
  elif dtype is dtypes.string:
    field.extend(_bytes(v) for v in values.tolist())
  else:
    field.extend(values.tolist())


def _dense_dimensions(values):
  if not isinstance(values, (list, tuple)):
    return []
  if not values:
    return [0]
  return [len(values)] + _dense_dimensions(values[0])


def _flat_leaves(values):
  if isinstance(values, (list, tuple)):
    for item in values:
      yield from _flat_leaves(item)
  else:
    yield values


def _check_compatible(values, dtype):
  """TF's `_AssertCompatible`: each Python leaf must be of a kind `dtype` holds."""
  if dtype is dtypes.string:
    kinds = (str, bytes)
  elif dtype is dtypes.bool:
    kinds = (bool, np.bool_)
  elif dtype.is_complex:
    kinds = numbers.Number
  elif dtype.is_floating:
    kinds = numbers.Real
  else:
    kinds = numbers.Integral
  for leaf in _flat_leaves(values):
    if not isinstance(leaf, kinds):
      raise TypeError("Expected %s, but got %s of type '%s'."
                      % (dtype.name, leaf, type(leaf).__name__))


@export("make_tensor_proto")
def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
  """A TensorProto of `values` (a Python scalar or list, NumPy value or Tensor), as TF."""
  if allow_broadcast and verify_shape:
    raise ValueError("allow_broadcast and verify_shape are not both allowed.")
  if isinstance(values, TensorProto):
    return values
  dtype = dtypes.as_dtype(dtype) if dtype else None
  np_type = dtype.as_numpy_dtype if dtype is not None and dtype.is_numpy_compatible else None
  if hasattr(values, "__array__") and not isinstance(values, (np.ndarray, np.generic)):
    values = np.asarray(values)
  if isinstance(values, (np.ndarray, np.generic)):
    nparray = values.astype(np_type) if np_type is not None else np.asarray(values)
  else:
    if values is None:
      raise ValueError("None values not supported.")
    if shape is not None and int(np.prod(shape, dtype=np.int64)) == 0:
      nparray = np.empty(shape, dtype=np_type or np.float32)
    else:
      if dtype is not None:
        _check_compatible(values, dtype)
      strings = any(isinstance(v, (str, bytes)) for v in _flat_leaves(values))
      nparray = np.array(values, dtype=object if strings or dtype is dtypes.string
                         else np_type)
      if list(nparray.shape) != _dense_dimensions(values):
        raise ValueError("Expected values %s to be a dense tensor with shape %s, but got "
                         "shape %s." % (values, _dense_dimensions(values), list(nparray.shape)))
    if nparray.dtype == np.float64 and dtype is None:
      nparray = nparray.astype(np.float32)
    elif nparray.dtype == np.int64 and dtype is None:
      narrow = nparray.astype(np.int32)
      if np.array_equal(narrow, nparray):
        nparray = narrow
  value_dtype = dtypes.as_dtype(nparray.dtype)
  if dtype is not None and dtype != value_dtype:
    raise TypeError("`dtype` %s is not compatible with %s of dtype %s."
                    % (dtype, values, nparray.dtype))
  if shape is None:
    shape, same_size, shape_size = nparray.shape, True, nparray.size
  else:
    shape = [int(d) for d in shape]
    shape_size = int(np.prod(shape, dtype=np.int64))
    same_size = shape_size == nparray.size
    if allow_broadcast:
      if nparray.shape not in ((1,), ()) and nparray.size != shape_size:
        raise TypeError("Expected Tensor's shape: %s, but got %s." % (tuple(shape),
                                                                      nparray.shape))
    else:
      if verify_shape and nparray.shape != tuple(shape):
        raise TypeError("Expected Tensor's shape: %s, but got %s." % (tuple(shape),
                                                                      nparray.shape))
      if nparray.size > shape_size:
        raise ValueError("Too many elements provided. Takes at most %d, but got %d."
                         % (shape_size, nparray.size))
  proto = TensorProto(dtype=value_dtype.as_datatype_enum, tensor_shape=shape_proto(shape))
  if same_size and value_dtype in _CONTENT_TYPES and shape_size > 1:
    if nparray.nbytes >= 1 << 31:
      raise ValueError("Cannot create a tensor proto whose content is larger than 2GB.")
    proto.tensor_content = _little_endian_bytes(nparray)
    return proto
  _append_values(proto, value_dtype, nparray.ravel())
  return proto


@export("make_ndarray")
def make_ndarray(tensor):
  """The NumPy array of a TensorProto (fewer values than elements: the last one repeats)."""
  shape = [d.size for d in tensor.tensor_shape.dim]
  count = int(np.prod(shape, dtype=np.int64))
  dtype = dtypes.as_dtype(tensor.dtype)
  if dtype.name not in _VALUE_FIELDS:
    raise TypeError("Unsupported tensor type: %s" % tensor.dtype)
  if dtype is dtypes.string:
    values = (_decode_string_list(tensor.tensor_content, count) if tensor.tensor_content
              else list(tensor.string_val))
    if count > len(values):
      values += [values[-1] if values else b""] * (count - len(values))
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out.reshape(shape)
  np_dtype = np.dtype(dtype.as_numpy_dtype)
  if tensor.tensor_content:
    values = np.frombuffer(tensor.tensor_content, np_dtype).reshape(shape)
    return values.byteswap() if sys.byteorder == "big" else values.copy()
  holder = tensor
  if dtype in (dtypes.uint32, dtypes.uint64):
    holder = tensor_values_pb2.TensorValues.FromString(tensor.SerializeToString())
  field = list(getattr(holder, _VALUE_FIELDS[dtype.name]))
  if dtype in (dtypes.float16, dtypes.bfloat16):
    values = np.array(field, np.uint16).view(np_dtype)
  elif dtype.is_complex:
    values = np.array(field, np_dtype.type(0).real.dtype).reshape(-1, 2)
    values = (values[:, 0] + 1j * values[:, 1]).astype(np_dtype)
  else:
    values = np.array(field, np_dtype)
  if values.size == 0:
    return np.zeros(shape, np_dtype)
  if values.size != count:
    values = np.pad(values, (0, count - values.size), "edge")
  return values.reshape(shape)


# TF's internal names (tensorflow.python.framework.tensor_util), which old code imports.
MakeNdarray = make_ndarray
constant_value = framework_ops.get_static_value
