"""String ops (`tf.strings`, `tf.io.read_file`, `tf.decode_raw`, ...) and a minimal SparseTensor.

A string Tensor holds a NumPy object array of bytes. String ops run eagerly on concrete
values with NumPy and Python; they are not differentiable and not trace-safe.
"""
import base64
import binascii
import builtins
import collections
import os
import re

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op, register_tensor_conversion_function
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.array_ops import dims_text


def _strings(value, param="input"):
  """The object ndarray of bytes behind a string Tensor (TypeError for other dtypes)."""
  tensor = convert_to_tensor(value)
  if tensor.dtype is not dtypes.string:
    raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed "
                    "values: string" % (param, tensor.dtype.name))
  return np.asarray(tensor._value, dtype=object)


def _string_tensor(array):
  return Tensor(np.asarray(array, dtype=object))


def _map(fn, array):
  return _string_tensor(np.frompyfunc(fn, 1, 1)(array))


def _numeric(array, dtype):
  return Tensor(device_lib.put(np.asarray(array, dtype=dtype)))


def _shape_text(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


# ---- Files and raw bytes ----
@export("read_file", "io.read_file")
def read_file(filename, name=None):
  """The whole contents of `filename` as a scalar string Tensor."""
  path = os.fsdecode(_strings(filename, "filename").item())
  try:
    with open(path, "rb") as f:
      return _string_tensor(f.read())
  except FileNotFoundError:
    raise errors.NotFoundError(None, None, "%s; No such file or directory [Op:ReadFile]"
                               % path) from None
  except IsADirectoryError:
    raise errors.FailedPreconditionError(None, None, "%s; Is a directory [Op:ReadFile]"
                                         % path) from None


@export("write_file", "io.write_file")
def write_file(filename, contents, name=None):
  """Writes `contents` to `filename`, creating missing parent directories."""
  path = os.fsdecode(_strings(filename, "filename").item())
  data = _strings(contents, "contents").item()
  parent = os.path.dirname(path)
  if parent:
    os.makedirs(parent, exist_ok=True)
  with open(path, "wb") as f:
    f.write(data)


_RAW_TYPES = ("float16", "float32", "float64", "int32", "uint16", "uint8", "int16", "int8",
              "int64", "complex64", "complex128", "bool", "bfloat16")
_C_NAMES = {"float32": "float", "float64": "double", "float16": "Eigen::half"}


@export("decode_raw", "io.decode_raw")
def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # pylint: disable=redefined-builtin
  """Reinterprets each string's bytes as a vector of `out_type` (shape input.shape + [n])."""
  data = _strings(input_bytes if input_bytes is not None else bytes, "bytes")
  dtype = dtypes.as_dtype(out_type)
  if dtype.name not in _RAW_TYPES:
    raise errors.invalid_argument("Value for attr 'out_type' of %s is not in the list of "
                                  "allowed values [Op:DecodeRaw]" % dtype.name)
  np_dtype = np.dtype(dtype.as_numpy_dtype)
  flat = data.ravel()
  width = len(flat[0]) if flat.size else 0
  for i, item in enumerate(flat):
    if len(item) != width:
      raise errors.invalid_argument("DecodeRaw requires input strings to all be the same size, "
                                    "but element %d has size %d != %d [Op:DecodeRaw]"
                                    % (i, width, len(item)))
  if width % np_dtype.itemsize:
    raise errors.invalid_argument("Input to DecodeRaw has length %d that is not a multiple of "
                                  "%d, the size of %s [Op:DecodeRaw]" % (
                                      width, np_dtype.itemsize,
                                      _C_NAMES.get(dtype.name, dtype.name)))
  order = "<" if little_endian else ">"
  raw = np.uint8 if dtype is dtypes.bool else np_dtype.newbyteorder(order)
  values = np.frombuffer(b"".join(flat), dtype=raw).reshape(
      data.shape + (width // np_dtype.itemsize,))
  return _numeric(values != 0 if dtype is dtypes.bool else values, np_dtype)


# ---- SparseTensor (minimal) ----
SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])
export("SparseTensorValue")(SparseTensorValue)


@export("SparseTensor", "sparse.SparseTensor")
class SparseTensor:
  """`tf.SparseTensor`: int64 `indices` [N, rank], `values` [N], int64 `dense_shape` [rank]."""

  def __init__(self, indices, values, dense_shape):
    self._indices = convert_to_tensor(indices, dtypes.int64)
    self._values = convert_to_tensor(values)
    self._dense_shape = convert_to_tensor(dense_shape, dtypes.int64)
    rows, columns = self._indices.shape.with_rank(2).dims
    rows.assert_is_compatible_with(self._values.shape.with_rank(1).dims[0])
    columns.assert_is_compatible_with(self._dense_shape.shape.with_rank(1).dims[0])

  @classmethod
  def from_value(cls, sparse_tensor_value):
    if isinstance(sparse_tensor_value, SparseTensor):
      return sparse_tensor_value
    return cls(*sparse_tensor_value)

  indices = property(lambda self: self._indices)
  values = property(lambda self: self._values)
  dense_shape = property(lambda self: self._dense_shape)
  dtype = property(lambda self: self._values.dtype)

  @property
  def shape(self):
    known = ops.get_static_value(self._dense_shape)  # None for a graph's unknown shape
    if known is None:
      return tensor_shape.TensorShape([None] * self._dense_shape.shape[0].value if
                                      self._dense_shape.shape.ndims == 1 and
                                      self._dense_shape.shape[0].value is not None else None)
    return tensor_shape.TensorShape([int(d) for d in np.asarray(known)])

  def _fetch_components(self):
    """What `Session.run` fetches (and feeds) for it."""
    return self._indices, self._values, self._dense_shape

  @staticmethod
  def _fetch_value(indices, values, dense_shape):
    return SparseTensorValue(indices, values, dense_shape)

  def get_shape(self):
    return self.shape

  def __repr__(self):
    return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (
        self._indices, self._values, self._dense_shape)

  __str__ = __repr__


def _sparse_from_parts(_, parts):
  sparse = object.__new__(SparseTensor)
  sparse._indices, sparse._values, sparse._dense_shape = parts
  return sparse


# A SparseTensor is a nest of its three tensors (so graphs record the ops on its parts).
jax.tree_util.register_pytree_node(SparseTensor, lambda s: (s._fetch_components(), None),
                                   _sparse_from_parts)


def _check_sparse_indices(indices, shape):
  previous = None
  for i, index in enumerate(indices):
    text = "indices[%d] = [%s]" % (i, ",".join(str(int(v)) for v in index))
    if np.any(index < 0) or np.any(index >= shape):
      raise errors.invalid_argument("%s is out of bounds: need 0 <= index < %s [Op:SparseToDense]"
                                    % (text, _shape_text(shape)))
    if previous is not None:
      key, prev = tuple(index), tuple(previous)
      if key < prev:
        raise errors.invalid_argument(
            "%s is out of order. Many sparse ops require sorted indices.\n    Use "
            "`tf.sparse.reorder` to create a correctly ordered copy.\n\n [Op:SparseToDense]"
            % text)
      if key == prev:
        raise errors.invalid_argument("%s is repeated [Op:SparseToDense]" % text)
    previous = index


@op(name="SparseToDense")
def _scatter(indices, values, default, *, shape):
  dense = jnp.full(shape, default, dtype=values.dtype)
  return dense.at[tuple(indices[:, d] for d in range(len(shape)))].set(values)


@export("sparse.to_dense", "sparse_tensor_to_dense")
def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
  """Scatters a SparseTensor's values into a dense Tensor filled with `default_value`."""
  if not isinstance(sp_input, SparseTensor):
    raise TypeError("Input must be a SparseTensor.")
  shape = tuple(int(d) for d in np.asarray(sp_input.dense_shape._value))
  indices = sp_input.indices
  concrete = not isinstance(indices._value, jax.core.Tracer)
  if validate_indices and concrete:
    _check_sparse_indices(np.asarray(indices._value).reshape(-1, len(shape)), np.array(shape))
  values = sp_input.values
  if values.dtype is dtypes.string:
    dense = np.full(shape, b"" if default_value is None else _strings(default_value).item(),
                    dtype=object)
    index = np.asarray(indices._value).reshape(-1, len(shape))
    dense[tuple(index.T)] = np.asarray(values._value, dtype=object)
    return _string_tensor(dense)
  default = convert_to_tensor(0 if default_value is None else default_value, values.dtype)
  return _scatter(indices, values, default, shape=shape)


def _sparse_from_rows(rows, lead_shape):
  """A SparseTensor from token lists, one per element of an array of shape lead_shape."""
  indices, values = [], []
  for position, tokens in zip(np.ndindex(*lead_shape), rows):
    for j, token in enumerate(tokens):
      indices.append(position + (j,))
      values.append(token)
  width = max((len(r) for r in rows), default=0)
  rank = len(lead_shape) + 1
  return SparseTensor(np.array(indices, np.int64).reshape(-1, rank),
                      _string_tensor(np.array(values + [b""], dtype=object)[:-1]),
                      np.array(lead_shape + (width,), np.int64))


# ---- Conversions ----
_INT_RE = re.compile(rb"^[+-]?[0-9]+$")
_FLOAT_RE = re.compile(rb"^[+-]?(0[xX][0-9a-fA-F.]+([pP][+-]?[0-9]+)?|[0-9.]+([eE][+-]?[0-9]+)?"
                       rb"|inf|infinity|nan)$", re.IGNORECASE)
_TO_NUMBER = ("float32", "float64", "int32", "int64", "uint32", "uint64")


def _parse_number(text, dtype):
  stripped = text.strip()
  if dtype.is_integer:
    ok = _INT_RE.match(stripped) and dtype.min <= int(stripped) <= dtype.max
    if ok:
      return int(stripped)
  elif _FLOAT_RE.match(stripped) and stripped not in (b".", b"+.", b"-."):
    try:
      if b"x" in stripped.lower():
        return float.fromhex(stripped.decode())
      return float(stripped)
    except ValueError:
      pass
  raise errors.invalid_argument("StringToNumberOp could not correctly convert string: %s "
                                "[Op:StringToNumber]" % text.decode(errors="replace"))


@export("string_to_number", "strings.to_number")
def string_to_number(string_tensor=None, out_type=dtypes.float32, name=None, input=None):  # pylint: disable=redefined-builtin
  """Parses each string as a number of `out_type` (float32 by default)."""
  data = _strings(string_tensor if string_tensor is not None else input, "string_tensor")
  dtype = dtypes.as_dtype(out_type)
  if dtype.name not in _TO_NUMBER:
    raise errors.invalid_argument(
        "Value for attr 'out_type' of %s is not in the list of allowed values: float, double, "
        "int32, int64, uint32, uint64 [Op:StringToNumber]" % dtype.name)
  with np.errstate(over="ignore"):
    values = [_parse_number(s, dtype) for s in data.ravel()]
    return _numeric(np.array(values, dtype=object).astype(dtype.as_numpy_dtype)
                    .reshape(data.shape), dtype.as_numpy_dtype)


@export("as_string", "strings.as_string", "dtypes.as_string")
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",  # pylint: disable=redefined-builtin
              name=None):
  """Formats each element as a string (printf rules: %d, %f, %e or %g)."""
  tensor = convert_to_tensor(input)
  if tensor.dtype is dtypes.string:
    return tensor
  if scientific and shortest:
    raise errors.invalid_argument("Cannot select both scientific and shortest notation "
                                  "[Op:AsString]")
  if fill and fill[0] not in " +-0#":
    raise errors.invalid_argument('Fill argument not supported: "%s" [Op:AsString]' % fill)
  spec = "%" + (fill[:1] if fill else "") + ("%d" % width if width > -1 else "")
  dtype = tensor.dtype
  floating = dtype.is_floating or dtype.is_complex
  if precision > -1:
    if not floating:
      raise errors.invalid_argument("precision not supported for datatype %s [Op:AsString]"
                                    % dtype.name)
    spec += ".%d" % precision
  values = np.asarray(tensor._value)
  if dtype.is_bool:
    text = lambda v: (spec + "s") % ("true" if v else "false")
  elif floating:
    spec += "g" if shortest else "e" if scientific else "f"
    text = lambda v: spec % v
    if dtype.is_complex:
      text = lambda v: "(%s,%s)" % (spec % v.real, spec % v.imag)
  else:
    text = lambda v: (spec + "d") % v
  return _map(lambda v: text(v).encode(), values)


def _b64_decode(item):
  body = item.rstrip(b"=")
  if len(item) - len(body) > 2 or not re.fullmatch(rb"[A-Za-z0-9_-]*", body):
    raise errors.invalid_argument("Invalid character found in base64. [Op:DecodeBase64]")
  if len(body) % 4 == 1:
    raise errors.invalid_argument("Base64 string length cannot be 1 modulo 4. "
                                  "[Op:DecodeBase64]")
  try:
    return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))
  except binascii.Error:
    raise errors.invalid_argument("Invalid character found in base64. "
                                  "[Op:DecodeBase64]") from None


@export("encode_base64", "io.encode_base64", "strings.encode_base64")
def encode_base64(input, pad=False, name=None):  # pylint: disable=redefined-builtin
  """Web-safe base64 (- and _), padded with '=' only when `pad`."""
  encode = base64.urlsafe_b64encode
  return _map(lambda s: encode(s) if pad else encode(s).rstrip(b"="), _strings(input))


@export("decode_base64", "io.decode_base64", "strings.decode_base64")
def decode_base64(input, name=None):  # pylint: disable=redefined-builtin
  return _map(_b64_decode, _strings(input))


# ---- Elementwise string functions ----
@export("strings.join", "string_join")
def string_join(inputs, separator="", name=None):
  """Joins same-shaped (or scalar) string tensors elementwise with `separator`."""
  arrays = [_strings(x, "inputs") for x in inputs]
  shapes = [a.shape for a in arrays if a.ndim]
  for shape in shapes[1:]:
    if shape != shapes[0]:
      raise errors.invalid_argument("Input shapes do not match: %s vs. %s [Op:StringJoin]"
                                    % (_shape_text(shapes[0]), _shape_text(shape)))
  sep = separator.encode() if isinstance(separator, str) else separator
  arrays = np.broadcast_arrays(*arrays) if arrays else []
  joined = np.frompyfunc(lambda *parts: sep.join(parts), len(arrays), 1)(*arrays)
  return _string_tensor(joined)


def _utf8_length(item):
  return sum(1 for b in item if b & 0xC0 != 0x80)


@export("strings.length")
def string_length(input, name=None, unit="BYTE"):  # pylint: disable=redefined-builtin
  """Length of each string in bytes (unit='BYTE') or UTF-8 characters ('UTF8_CHAR'); int32."""
  if unit not in ("BYTE", "UTF8_CHAR"):
    raise ValueError("unit must be one of ['BYTE', 'UTF8_CHAR']")
  data = _strings(input)
  count = len if unit == "BYTE" else _utf8_length
  return _numeric(np.vectorize(count, otypes=[np.int32])(data) if data.size else
                  np.zeros(data.shape, np.int32), np.int32)


@export("substr", "strings.substr")
def substr(input, pos, len, name=None, unit="BYTE"):  # pylint: disable=redefined-builtin
  """Substrings starting at `pos` (negative counts from the end), at most `len` long."""
  data = _strings(input)
  size = builtins.len
  pos, length = np.asarray(convert_to_tensor(pos)), np.asarray(convert_to_tensor(len))
  if pos.shape != length.shape:
    raise errors.invalid_argument("pos and len should have the same shape, got: %s vs. %s "
                                  "[Op:Substr]" % (dims_text(pos.shape), dims_text(length.shape)))
  try:
    data, pos, length = np.broadcast_arrays(data, pos, length)
  except ValueError:
    raise errors.invalid_argument("Incompatible shapes: %s vs. %s [Op:Substr]" % (
        dims_text(data.shape), dims_text(pos.shape))) from None
  out = np.empty(data.shape, dtype=object)
  for i, index in enumerate(np.ndindex(*data.shape)):
    item = data[index]
    text = item.decode("utf-8") if unit == "UTF8_CHAR" else item
    start = int(pos[index])
    start = start + size(text) if start < 0 else start
    if start < 0 or start > size(text):
      raise errors.invalid_argument("pos %d out of range for string %r at index %d [Op:Substr]"
                                    % (int(pos[index]), item, i))
    piece = text[start:start + int(length[index])]
    out[index] = piece.encode("utf-8") if unit == "UTF8_CHAR" else piece
  return _string_tensor(out)


def _compile(pattern, op_name):
  pattern = pattern.encode() if isinstance(pattern, str) else pattern
  try:
    return re.compile(pattern)
  except re.error as e:
    raise errors.invalid_argument("Invalid pattern: %s, error: %s [Op:%s]"
                                  % (pattern.decode(errors="replace"), e, op_name)) from None


def _rewriter(rewrite):
  """RE2 rewrite strings (\\0-\\9 groups, \\\\ backslash) as a Python replacement function."""
  rewrite = rewrite.encode() if isinstance(rewrite, str) else rewrite
  parts = re.split(rb"(\\[0-9\\])", rewrite)

  def expand(match):
    out = []
    for part in parts:
      if len(part) == 2 and part[:1] == b"\\":
        out.append(b"\\" if part == b"\\\\" else (match.group(int(part[1:])) or b""))
      else:
        out.append(part)
    return b"".join(out)
  return expand


@export("regex_replace", "strings.regex_replace")
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # pylint: disable=redefined-builtin
  """Replaces matches of the RE2-style `pattern` with `rewrite` (\\1 names a group)."""
  regex = _compile(_strings(pattern, "pattern").item(), "StaticRegexReplace")
  expand = _rewriter(_strings(rewrite, "rewrite").item())
  count = 0 if replace_global else 1
  return _map(lambda s: regex.sub(expand, s, count=count), _strings(input))


@export("strings.regex_full_match")
def regex_full_match(input, pattern, name=None):  # pylint: disable=redefined-builtin
  regex = _compile(_strings(pattern, "pattern").item(), "StaticRegexFullMatch")
  data = _strings(input)
  return _numeric(np.frompyfunc(lambda s: regex.fullmatch(s) is not None, 1, 1)(data)
                  .astype(bool), bool)


def _case(method, encoding):
  if encoding not in ("", "utf-8", "utf8"):
    raise errors.invalid_argument("Invalid encoding: %s" % encoding)
  if encoding:
    return lambda s: getattr(s.decode("utf-8"), method)().encode("utf-8")
  return lambda s: getattr(s, method)()


@export("strings.lower")
def string_lower(input, encoding="", name=None):  # pylint: disable=redefined-builtin
  """ASCII lower-casing (Unicode-aware with encoding='utf-8')."""
  return _map(_case("lower", encoding), _strings(input))


@export("strings.upper")
def string_upper(input, encoding="", name=None):  # pylint: disable=redefined-builtin
  """ASCII upper-casing (Unicode-aware with encoding='utf-8')."""
  return _map(_case("upper", encoding), _strings(input))


@export("strings.strip", "string_strip")
def string_strip(input, name=None):  # pylint: disable=redefined-builtin
  """Strips leading and trailing ASCII whitespace."""
  return _map(lambda s: s.strip(), _strings(input))


@export("reduce_join", "strings.reduce_join")
def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                reduction_indices=None, keepdims=None):
  """Joins strings across `axis` (all axes by default) in row-major order."""
  data = _strings(inputs, "inputs")
  axis = axis if axis is not None else reduction_indices
  keep = bool(keepdims if keepdims is not None else keep_dims)
  rank = data.ndim
  axes = list(range(rank)) if axis is None else np.atleast_1d(
      np.asarray(convert_to_tensor(axis))).tolist()
  for a in axes:
    if not -rank <= a < rank:
      raise errors.OutOfRangeError(None, None, "Invalid reduction dimension %d for input with "
                                   "%d dimension(s) [Op:ReduceJoin]" % (a, rank))
  axes = sorted({a % rank for a in axes})
  kept = [a for a in range(rank) if a not in axes]
  moved = np.transpose(data, kept + axes)
  rows = moved.reshape([data.shape[a] for a in kept] + [-1])
  sep = separator.encode() if isinstance(separator, str) else separator
  out = np.empty(rows.shape[:-1], dtype=object)
  for index in np.ndindex(*out.shape):
    out[index] = sep.join(rows[index])
  if keep:
    out = out.reshape([1 if a in axes else data.shape[a] for a in range(rank)])
  return _string_tensor(out)


@export("IndexedSlices")
class IndexedSlices:
  """`tf.IndexedSlices`: the rows `indices` of a dense Tensor of `dense_shape` hold `values`
  (tfe_compat's gradients are dense; this is for code that builds or checks them)."""

  def __init__(self, values, indices, dense_shape=None):
    self._values = convert_to_tensor(values)
    self._indices = convert_to_tensor(indices)
    self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

  values = property(lambda self: self._values)
  indices = property(lambda self: self._indices)
  dense_shape = property(lambda self: self._dense_shape)
  dtype = property(lambda self: self._values.dtype)
  shape = property(lambda self: self._values.shape if self._dense_shape is None else
                   tensor_shape.TensorShape(np.asarray(self._dense_shape._value).tolist()))

  def __repr__(self):
    return "IndexedSlices(indices=%s, values=%s%s)" % (
        self._indices, self._values,
        "" if self._dense_shape is None else ", dense_shape=%s" % self._dense_shape)


@op(name="UnsortedSegmentSum")
def _rows_sum(values, indices, *, rows):
  return jnp.zeros((rows,) + values.shape[1:], values.dtype).at[indices].add(values)


def _indexed_slices_to_tensor(value, dtype=None, name=None, as_ref=False):
  """An IndexedSlices as the dense Tensor it describes (repeated rows summed, as TF)."""
  if value.dense_shape is None:
    raise ValueError("Tensor conversion requested for IndexedSlices without dense_shape: %s"
                     % (value,))
  rows = int(np.asarray(value.dense_shape._value)[0])
  return _rows_sum(value.values, value.indices, rows=rows)


register_tensor_conversion_function(IndexedSlices, _indexed_slices_to_tensor)


def _incompatible(value, dtype):
  return dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype)


@export("convert_to_tensor_or_sparse_tensor")
def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
  """A SparseTensor for a SparseTensor(Value), else `tf.convert_to_tensor(value, dtype)`."""
  if isinstance(value, SparseTensorValue):
    value = SparseTensor.from_value(value)
  if isinstance(value, SparseTensor):
    if _incompatible(value, dtype):
      raise RuntimeError("Sparse dtype: requested = %s, actual = %s"
                         % (dtypes.as_dtype(dtype).name, value.dtype.name))
    return value
  return convert_to_tensor(value, dtype)


@export("convert_to_tensor_or_indexed_slices")
def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
  """An IndexedSlices as it is, else `tf.convert_to_tensor(value, dtype)`."""
  if isinstance(value, IndexedSlices):
    if _incompatible(value, dtype):
      raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                       % (dtypes.as_dtype(dtype).name, value.dtype.name, str(value)))
    return value
  return convert_to_tensor(value, dtype)
