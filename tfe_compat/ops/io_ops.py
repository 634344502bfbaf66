"""`tf.io` serialization ops: serialize_tensor / parse_tensor, SparseTensors as string
triples, decode_compressed, decode_json_example, matching_files, write_graph; the TF 1.x
readers (tf.TFRecordReader, ...), which raise under eager execution as in TF.

Serialized tensors are TF's `TensorProto` bytes (framework/tensor_util). Like the other
string ops these run on the host over concrete values; they are not trace-safe.
"""
import base64
import os
import re
import zlib

import numpy as np
from google.protobuf import json_format
from google.protobuf import message as message_lib
from google.protobuf import text_format

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_util
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import gfile
from tfe_compat.ops import sparse_ops
from tfe_compat.proto import example_pb2


def _strings(value, op_name):
  """The NumPy object array of bytes behind a string Tensor (or Python/NumPy strings)."""
  tensor = ops.convert_to_tensor(value, dtypes.string)
  if tensor.dtype is not dtypes.string:
    raise errors.invalid_argument("cannot compute %s as input #0(zero-based) was expected to "
                                  "be a string tensor but is a %s tensor [Op:%s]"
                                  % (op_name, tensor.dtype.name, op_name))
  return np.asarray(tensor._value, dtype=object)


def _string_tensor(array):
  out = np.empty(np.shape(array), dtype=object)
  out[...] = array
  return Tensor(out)


def _shape_text(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


def _host_value(tensor):
  tensor = ops.convert_to_tensor(tensor)
  return tensor, np.asarray(tensor._value, dtype=object if tensor.dtype is dtypes.string
                            else None)


# ---- tensors ----
def serialize(value, dtype, strings_as_content=False):
  """TF's TensorProto bytes of a NumPy value (see tensor_util.content_proto)."""
  return tensor_util.content_proto(value, dtype, strings_as_content).SerializeToString()


def parse(serialized, out_type, op_name="ParseTensor"):
  """The NumPy value of serialized TensorProto bytes, checked to be of `out_type`."""
  proto = tensor_util.TensorProto()
  try:
    proto.ParseFromString(serialized)
    value = tensor_util.make_ndarray(proto)
  except (message_lib.DecodeError, TypeError, ValueError):
    raise errors.invalid_argument("Could not parse `serialized` as TensorProto, base64: %s "
                                  "[Op:%s]" % (_base64(serialized), op_name)) from None
  parsed = dtypes.as_dtype(proto.dtype)
  if parsed is not out_type:
    raise errors.invalid_argument("Type mismatch between parsed tensor (%s) and dtype (%s) "
                                  "[Op:%s]" % (_type_name(parsed), _type_name(out_type),
                                               op_name))
  return value


def _base64(data):
  return base64.b64encode(data).decode("ascii")


def _type_name(dtype):
  """TF's DataTypeString: "float", "double", "int32", ..."""
  return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


@export("io.serialize_tensor", "serialize_tensor")
def serialize_tensor(tensor, name=None):
  """The scalar string of `tensor`'s TensorProto, byte-identical to TF's."""
  tensor, value = _host_value(tensor)
  return _string_tensor(serialize(value, tensor.dtype))


@export("io.parse_tensor", "parse_tensor")
def parse_tensor(serialized, out_type, name=None):
  """The tensor of a serialized TensorProto (a scalar string); its dtype must be out_type."""
  data = _strings(serialized, "ParseTensor")
  if data.ndim:
    raise errors.invalid_argument("Expected `serialized` to be a scalar, got shape: %s "
                                  "[Op:ParseTensor]" % _shape_text(data.shape))
  out_type = dtypes.as_dtype(out_type)
  value = parse(bytes(data.item()), out_type)
  return _string_tensor(value) if out_type is dtypes.string else ops.convert_to_tensor(
      value, out_type)


# ---- SparseTensors ----
def _check_out_type(out_type):
  out_type = dtypes.as_dtype(out_type)
  if out_type is not dtypes.string:
    if out_type.name == "variant":
      raise NotImplementedError("serialize_sparse(out_type=tf.variant) is not supported by "
                                "tfe_compat (no variant tensors): use out_type=tf.string.")
    raise errors.invalid_argument("Value for attr 'out_type' of %s is not in the list of "
                                  "allowed values: string, variant" % out_type.name)


def _triple(indices, values, shape, dtype):
  return [serialize(np.asarray(indices, np.int64), dtypes.int64),
          serialize(values, dtype, strings_as_content=True),
          serialize(np.asarray(shape, np.int64), dtypes.int64)]


@export("io.serialize_sparse", "serialize_sparse")
def serialize_sparse(sp_input, name=None, out_type=dtypes.string):
  """A string vector [3]: the serialized indices, values and dense shape of `sp_input`."""
  _check_out_type(out_type)
  sp_input, indices, shape = sparse_ops._parts(sp_input, "serialize_sparse")
  _, values = _host_value(sp_input.values)
  return _string_tensor(_triple(indices, values, shape, sp_input.dtype))


@export("io.serialize_many_sparse", "serialize_many_sparse")
def serialize_many_sparse(sp_input, name=None, out_type=dtypes.string):
  """A string matrix [N, 3]: serialize_sparse of each entry along the first dimension."""
  _check_out_type(out_type)
  sp_input, indices, shape = sparse_ops._parts(sp_input, "serialize_many_sparse")
  if len(shape) < 2:
    raise errors.invalid_argument("Rank of input SparseTensor should be > 1, but saw rank: %d "
                                  "[Op:SerializeManySparse]" % len(shape))
  for i in range(1, len(indices)):
    if tuple(indices[i]) < tuple(indices[i - 1]):
      raise errors.invalid_argument(
          "indices[%d] = %s is out of order. Many sparse ops require sorted indices. "
          "[Op:SerializeManySparse]" % (i, _shape_text(indices[i])))
  _, values = _host_value(sp_input.values)
  rows = [_triple(indices[indices[:, 0] == b, 1:], values[indices[:, 0] == b], shape[1:],
                  sp_input.dtype) for b in range(int(shape[0]))]
  return _string_tensor(np.array(rows, dtype=object).reshape(-1, 3))


@export("io.deserialize_many_sparse", "deserialize_many_sparse")
def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
  """One SparseTensor from serialized triples [..., 3]: leading dimensions become the first
  indices, the dense shape is the largest of each dimension."""
  op_name = "DeserializeManySparse"
  data = _strings(serialized_sparse, op_name)
  dtype = dtypes.as_dtype(dtype)
  if data.ndim < 1 or data.shape[-1] != 3:
    raise errors.invalid_argument("Serialized sparse should have 3 as the last dimension %s "
                                  "[Op:%s]" % (_shape_text(data.shape), op_name))
  if data.size == 0:
    raise errors.invalid_argument("Serialized sparse should have at least 1 serialized "
                                  "tensor, but has a zero dimension %s [Op:%s]"
                                  % (_shape_text(data.shape), op_name))
  batch_shape = data.shape[:-1]
  triples = data.reshape(-1, 3)
  all_indices, all_values, shapes = [], [], []
  for i, (indices, values, shape) in enumerate(triples.tolist()):
    indices, shape = parse(indices, dtypes.int64, op_name), parse(shape, dtypes.int64, op_name)
    values_proto = tensor_util.TensorProto.FromString(values)
    if dtypes.as_dtype(values_proto.dtype) is not dtype:
      raise errors.invalid_argument(
          "Requested SparseTensor of type %s but SparseTensor[%d].values.dtype() == %s "
          "[Op:%s]" % (dtype.name, i, _type_name(dtypes.as_dtype(values_proto.dtype)),
                       op_name))
    if shapes and len(shape) != len(shapes[0]):
      raise errors.invalid_argument(
          "Inconsistent shape across SparseTensors: rank prior to SparseTensor[%d] was: %d "
          "but rank of SparseTensor[%d] is: %d [Op:%s]" % (i, len(shapes[0]), i, len(shape),
                                                           op_name))
    prefix = np.broadcast_to(np.unravel_index(i, batch_shape) if batch_shape else
                             np.zeros(0, np.int64), (len(indices), len(batch_shape)))
    all_indices.append(np.concatenate([prefix, indices], axis=1))
    all_values.append(tensor_util.make_ndarray(values_proto))
    shapes.append(shape)
  dense_shape = list(batch_shape) + np.max(shapes, axis=0).tolist()
  values = np.concatenate(all_values)
  values = _string_tensor(values) if dtype is dtypes.string else ops.convert_to_tensor(
      values, dtype)
  return sparse_ops._sparse(np.concatenate(all_indices).astype(np.int64), values, dense_shape)


# ---- compressed strings, JSON Examples ----
def _inflate(data, wbits):
  try:
    return zlib.decompress(data, wbits)
  except zlib.error as e:  # "Error -3 while decompressing data: incorrect header check"
    found = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(e))
    reason = "with error %s: %s" % found.groups() if found else str(e)
    raise errors.DataLossError(None, None, "inflate() failed %s [Op:DecodeCompressed]"
                               % reason) from None


@export("io.decode_compressed", "decode_compressed")
def decode_compressed(bytes, compression_type="", name=None):  # pylint: disable=redefined-builtin
  """Decompresses each string: compression_type "" (none), "ZLIB" or "GZIP"."""
  data = _strings(bytes, "DecodeCompressed")
  if compression_type in ("", "NONE"):
    return _string_tensor(data)
  wbits = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}.get(compression_type)
  if wbits is None:
    if compression_type == "ZSTD":
      raise NotImplementedError("decode_compressed(compression_type='ZSTD') is not supported "
                                "by tfe_compat.")
    raise errors.invalid_argument("Only ZLIB, ZSTD, GZIP or NONE are supported compressions "
                                  "[Op:DecodeCompressed]")
  out = [_inflate(s, wbits) for s in data.ravel().tolist()]
  return _string_tensor(np.array(out + [None], dtype=object)[:-1].reshape(data.shape))


@export("io.decode_json_example", "decode_json_example")
def decode_json_example(json_examples, name=None):
  """Each JSON text of a `tf.train.Example` (protobuf's JSON mapping) as binary Example."""
  data = _strings(json_examples, "DecodeJSONExample")

  def convert(text):
    try:
      example = json_format.Parse(text, example_pb2.Example())
    except json_format.ParseError as e:
      reason = str(e).split("\n")[0].replace("tfe_compat.Example", "tensorflow.Example")
      raise errors.invalid_argument("Error while parsing JSON: %s [Op:DecodeJSONExample]"
                                    % reason) from None
    return example.SerializeToString()
  out = [convert(s) for s in data.ravel().tolist()]
  return _string_tensor(np.array(out + [None], dtype=object)[:-1].reshape(data.shape))


# ---- files ----
@export("io.matching_files", "matching_files")
def matching_files(pattern, name=None):
  """The sorted paths matching a glob pattern (a scalar or a vector of patterns)."""
  patterns = _strings(pattern, "MatchingFiles")
  if patterns.ndim > 1:
    raise errors.invalid_argument("Input patterns tensor must be scalar or vector, but had "
                                  "shape: %s [Op:MatchingFiles]" % _shape_text(patterns.shape))
  found = sorted({os.fsencode(path) for p in patterns.ravel().tolist()
                  for path in gfile.get_matching_files(p.decode("utf-8"))})
  return _string_tensor(np.array(found + [None], dtype=object)[:-1])


@export("io.write_graph", "train.write_graph")
def write_graph(graph_or_graph_def, logdir, name, as_text=True):
  """Writes a GraphDef (or a graph's `as_graph_def()`) to logdir/name, as text or binary."""
  graph_def = graph_or_graph_def
  if hasattr(graph_def, "as_graph_def"):
    graph_def = graph_def.as_graph_def()
  if not hasattr(graph_def, "SerializeToString"):
    raise TypeError("write_graph needs a GraphDef, but was: %s" % type(graph_def))
  if not gfile.file_exists(logdir):
    gfile.recursive_create_dir(logdir)
  path = os.path.join(logdir, name)
  content = (text_format.MessageToString(graph_def).encode("utf-8") if as_text
             else graph_def.SerializeToString(deterministic=True))
  with gfile.GFile(path, "wb") as f:
    f.write(content)
  return path


# ---- TF 1.x readers: TF raises when one is built under eager execution ----
_READERS = ("Readers are not supported when eager execution is enabled. Instead, please use "
            "tf.data to get data into your model.")


@export("ReaderBase")
class ReaderBase:
  """Queue-fed file readers: under eager execution TF points to tf.data instead."""

  def __init__(self, reader_ref, supports_serialize=False):
    raise RuntimeError(_READERS)


@export("WholeFileReader")
class WholeFileReader(ReaderBase):
  def __init__(self, name=None):
    super().__init__(None, supports_serialize=True)


@export("TextLineReader")
class TextLineReader(ReaderBase):
  def __init__(self, skip_header_lines=None, name=None):
    super().__init__(None)


@export("FixedLengthRecordReader")
class FixedLengthRecordReader(ReaderBase):
  def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None,
               name=None, encoding=None):
    super().__init__(None)


@export("TFRecordReader")
class TFRecordReader(ReaderBase):
  def __init__(self, name=None, options=None):
    super().__init__(None)


@export("LMDBReader")
class LMDBReader(ReaderBase):
  def __init__(self, name=None, options=None):  # pylint: disable=super-init-not-called
    raise RuntimeError("lmdb_reader op does not support eager execution. Arg 'reader_handle' "
                       "is a ref.")


@export("IdentityReader")
class IdentityReader(ReaderBase):
  def __init__(self, name=None):
    super().__init__(None, supports_serialize=True)
