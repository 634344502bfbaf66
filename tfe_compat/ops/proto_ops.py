"""`tf.io.decode_proto` / `tf.io.encode_proto` through protobuf's Python message classes.

Message types are looked up in protobuf's default descriptor pool ("local://": every
compiled *_pb2 module imported in the process, TF's own protos under the names
tfe_compat/tensorboardX give them) or in a FileDescriptorSet (a file name, or "bytes://"
followed by its serialization). Host-side, not trace-safe.
"""
import collections

import numpy as np
from google.protobuf import descriptor
from google.protobuf import descriptor_pb2
from google.protobuf import descriptor_pool
from google.protobuf import message as message_lib
from google.protobuf import message_factory
from google.protobuf import text_format

from tfe_compat import proto
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import io_ops

_F = descriptor.FieldDescriptor
# The TF dtypes each protobuf field type converts to and from (TF's CheckOutputType).
_ALLOWED = {
    _F.TYPE_DOUBLE: ("float64",), _F.TYPE_FLOAT: ("float32", "float64"),
    _F.TYPE_INT64: ("int64",), _F.TYPE_SINT64: ("int64",), _F.TYPE_SFIXED64: ("int64",),
    _F.TYPE_UINT64: ("uint64",), _F.TYPE_FIXED64: ("uint64",),
    _F.TYPE_INT32: ("int32", "int64"), _F.TYPE_SINT32: ("int32", "int64"),
    _F.TYPE_SFIXED32: ("int32", "int64"), _F.TYPE_UINT32: ("uint32", "uint64"),
    _F.TYPE_FIXED32: ("uint32", "uint64"), _F.TYPE_ENUM: ("int32",), _F.TYPE_BOOL: ("bool",),
    _F.TYPE_STRING: ("string",), _F.TYPE_BYTES: ("string",), _F.TYPE_MESSAGE: ("string",),
    _F.TYPE_GROUP: ("string",)}
_TYPE_NAMES = {getattr(_F, n): n[len("TYPE_"):].lower() for n in dir(_F) if n.startswith("TYPE_")}

_message_class_of = (getattr(message_factory, "GetMessageClass", None)  # protobuf >= 4.21
                     or message_factory.MessageFactory().GetPrototype)
DecodeProtoResult = collections.namedtuple("DecodeProtoV2", ["sizes", "values"])


def _message_class(message_type, descriptor_source, op_name):
  if descriptor_source == "local://":
    pool = descriptor_pool.Default()
  else:
    files = descriptor_pb2.FileDescriptorSet()
    try:
      if descriptor_source.startswith("bytes://"):
        files.ParseFromString(descriptor_source[len("bytes://"):].encode("latin-1"))
      else:
        with open(descriptor_source, "rb") as f:
          files.ParseFromString(f.read())
    except (OSError, message_lib.DecodeError):
      raise errors.invalid_argument(
          "Source does not represent serialized file descriptor set proto. [Op:%s]"
          % op_name) from None
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
      pool.Add(file)
  for candidate in proto.message_names(message_type):
    try:
      return _message_class_of(pool.FindMessageTypeByName(candidate))
    except KeyError:
      continue
  raise errors.invalid_argument("No descriptor found for message type %s [Op:%s]"
                                % (message_type, op_name))


def _fields(cls, message_type, field_names, op_name):
  fields = []
  for name in field_names:
    field = cls.DESCRIPTOR.fields_by_name.get(name)
    if field is None:
      raise errors.invalid_argument("Unknown field: %s in message type %s [Op:%s]"
                                    % (name, message_type, op_name))
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
      raise NotImplementedError("decode_proto/encode_proto of map field %s is not supported "
                                "by tfe_compat." % name)
    fields.append(field)
  return fields


def _is_repeated(field):
  repeated = getattr(field, "is_repeated", None)  # protobuf >= 6 (which drops `label`)
  return field.label == _F.LABEL_REPEATED if repeated is None else repeated


def _has_presence(field):
  presence = getattr(field, "has_presence", None)  # protobuf >= 4.21
  if presence is None:
    presence = (field.message_type is not None or field.containing_oneof is not None
                or field.file.syntax == "proto2")
  return presence


def _field_values(msg, field):
  """The values of `field` in `msg` as TF sees them on the wire (messages serialized)."""
  if _is_repeated(field):
    values = list(getattr(msg, field.name))
  elif _has_presence(field):
    values = [getattr(msg, field.name)] if msg.HasField(field.name) else []
  else:
    value = getattr(msg, field.name)
    values = [value] if value != field.default_value else []
  if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
    return [v.SerializeToString() for v in values]
  if field.type == _F.TYPE_STRING:
    return [v.encode("utf-8") for v in values]
  return values


def _default(field):
  if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
    return b""
  if _is_repeated(field):
    return {_F.TYPE_STRING: b"", _F.TYPE_BYTES: b"", _F.TYPE_BOOL: False}.get(field.type, 0)
  default = field.default_value
  return default.encode("utf-8") if isinstance(default, str) else default


@export("io.decode_proto")
def decode_proto(bytes, message_type, field_names, output_types,  # pylint: disable=redefined-builtin
                 descriptor_source="local://", message_format="binary", sanitize=False,
                 name=None):
  """(sizes int32 [..., fields], values): each field's values, padded with its default."""
  op_name = "DecodeProtoV2"
  data = io_ops._strings(bytes, op_name)
  if len(field_names) != len(output_types):
    raise errors.invalid_argument("field_names and output_types attributes must have the same "
                                  "length [Op:%s]" % op_name)
  if message_format not in ("binary", "text"):
    raise errors.invalid_argument("message_format must be 'binary' or 'text' [Op:%s]"
                                  % op_name)
  cls = _message_class(message_type, descriptor_source, op_name)
  fields = _fields(cls, message_type, field_names, op_name)
  output_types = [dtypes.as_dtype(t) for t in output_types]
  for field, dtype in zip(fields, output_types):
    if dtype.name not in _ALLOWED[field.type]:
      raise errors.invalid_argument(
          "Unexpected output type for %s.%s: %s to DT_%s [Op:%s]"
          % (message_type, field.name, _TYPE_NAMES[field.type], dtype.name.upper(), op_name))
  parsed = []
  for item in data.ravel().tolist():
    msg = cls()
    try:
      if message_format == "text":
        text_format.Parse(item.decode("utf-8"), msg)
      else:
        msg.ParseFromString(item)
    except (message_lib.DecodeError, text_format.ParseError, UnicodeDecodeError):
      raise errors.DataLossError(None, None, "CountFields: Failed to consume entire buffer "
                                 "[Op:%s]" % op_name) from None
    parsed.append([_field_values(msg, field) for field in fields])
  sizes = np.array([[len(v) for v in row] for row in parsed], np.int32).reshape(
      data.shape + (len(fields),))
  values = []
  for j, (field, dtype) in enumerate(zip(fields, output_types)):
    width = max([1] + [len(row[j]) for row in parsed])
    out = np.full((len(parsed), width), _default(field),
                  dtype=object if dtype is dtypes.string else dtype.as_numpy_dtype)
    for i, row in enumerate(parsed):
      out[i, :len(row[j])] = row[j]
    out = out.reshape(data.shape + (width,))
    values.append(Tensor(out) if dtype is dtypes.string else ops.convert_to_tensor(out, dtype))
  return DecodeProtoResult(ops.convert_to_tensor(sizes, dtypes.int32), values)


def _host(value):
  tensor = ops.convert_to_tensor(value)
  return tensor.dtype, np.asarray(tensor._value, dtype=object if tensor.dtype is dtypes.string
                                  else None)


@export("io.encode_proto")
def encode_proto(sizes, values, field_names, message_type, descriptor_source="local://",
                 name=None):
  """Serialized messages [...]: field j holds the first sizes[..., j] of values[j][..., :]."""
  op_name = "EncodeProto"
  cls = _message_class(message_type, descriptor_source, op_name)
  fields = _fields(cls, message_type, field_names, op_name)
  _, counts = _host(ops.convert_to_tensor(sizes, dtypes.int32))
  batch_shape = counts.shape[:-1]
  columns = []
  for field, value in zip(fields, values):
    dtype, array = _host(value)
    if dtype.name not in _ALLOWED[field.type]:
      raise errors.invalid_argument(
          "Incompatible type for field %s.  Saw dtype: %s but field type is: %s [Op:%s]"
          % (field.name, io_ops._type_name(dtype), _TYPE_NAMES[field.type], op_name))
    columns.append(array.reshape(-1, array.shape[-1]))
  counts = counts.reshape(-1, len(fields))
  out = []
  for i, row in enumerate(counts.tolist()):
    msg = cls()
    for j, (field, count) in enumerate(zip(fields, row)):
      if count > columns[j].shape[1]:
        raise errors.invalid_argument(
            "Size to write must not be larger than value tensor; but saw: %d > %d at message "
            "%d field %d [Op:%s]" % (count, columns[j].shape[1], i, j, op_name))
      _set_field(msg, field, columns[j][i, :count].tolist())
    out.append(msg.SerializeToString())
  result = np.empty(len(out), dtype=object)
  result[:] = out
  return Tensor(result.reshape(batch_shape))


def _set_field(msg, field, items):
  if not items:
    return
  if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
    message_class = _message_class_of(field.message_type)
    items = [message_class.FromString(v) for v in items]
  elif field.type == _F.TYPE_STRING:
    items = [v.decode("utf-8") for v in items]
  if _is_repeated(field):
    getattr(msg, field.name).extend(items)
  elif field.message_type is not None:
    getattr(msg, field.name).CopyFrom(items[-1])
  else:
    setattr(msg, field.name, items[-1])
