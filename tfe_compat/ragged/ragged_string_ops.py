"""`tf.strings` ops with ragged results (TF 1.15 ragged_string_ops): split, bytes_split, the
unicode decode/encode/split family, ngrams, and unsorted_segment_join.

Like the other string ops these run on the host over the NumPy object arrays of bytes behind
string Tensors. Decoding follows ICU as TF does: each maximal invalid byte sequence is one
error (Python's codecs find the same ones), replaced, skipped or raised per `errors`.
"""
# TF's signatures: `name=` is accepted and ignored; some parameters shadow builtins.
# pylint: disable=unused-argument,redefined-builtin
import codecs
import re

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors as errors_lib
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, tf_type_name
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops.string_ops import _shape_text, _sparse_from_rows, _string_tensor, _strings
from tfe_compat.ragged.ragged_array_ops import expand_dims
from tfe_compat.ragged.ragged_tensor import (RaggedTensor, convert_to_tensor_or_ragged_tensor,
                                             host)

_ENCODINGS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}


def _strings_of(input, op_name):
  """A string Tensor or RaggedTensor (TF's error for other dtypes)."""
  value = convert_to_tensor_or_ragged_tensor(input)
  if value.dtype is not dtypes.string:
    raise errors_lib.invalid_argument(
        "cannot compute %s as input #0(zero-based) was expected to be a string tensor but is a "
        "%s tensor [Op:%s]" % (op_name, tf_type_name(value.dtype), op_name))
  return value


def _rows_to_ragged(rows, lead_shape, make_values):
  """A RaggedTensor whose innermost rows are `rows` (one per element of `lead_shape`); outer
  dimensions of `lead_shape` are uniform."""
  lengths = [len(r) for r in rows]
  result = RaggedTensor._from_splits(make_values([v for r in rows for v in r]),
                                     np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]),
                                     dtypes.int64)
  for dim in range(len(lead_shape) - 1, 0, -1):
    count = int(np.prod(lead_shape[:dim]))
    result = RaggedTensor._from_splits(result, np.arange(count + 1) * lead_shape[dim],
                                       dtypes.int64)
  return result


def _string_values(items):
  array = np.empty(len(items), dtype=object)
  array[:] = items
  return _string_tensor(array)


def _per_string(fn, input, op_name):
  """`fn(bytes) -> list of bytes` over every string: a RaggedTensor with one more ragged
  dimension (for a scalar input, the 1-D Tensor of the list)."""
  value = _strings_of(input, op_name)
  if isinstance(value, RaggedTensor):
    return value.with_flat_values(_per_string(fn, value.flat_values, op_name))
  data = host(value)
  if data.ndim == 0:
    return _string_values(fn(data.item()))
  return _rows_to_ragged([fn(item) for item in data.reshape(-1)], data.shape, _string_values)


# ---- Splitting ----
@export("string_split")
def string_split(source, sep=None, skip_empty=True, delimiter=None,
                 result_type="SparseTensor", name=None):
  """TF 1.x split of a string vector: every character of `delimiter` (default ' ')
  separates tokens."""
  if result_type not in ("SparseTensor", "RaggedTensor"):
    raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
  delimiter = sep if sep is not None else (" " if delimiter is None else delimiter)
  delimiter = delimiter.encode() if isinstance(delimiter, str) else delimiter
  data = _strings(source)
  if data.ndim != 1:
    raise errors_lib.invalid_argument("input must be a vector, got shape: %s [Op:StringSplit]"
                                      % _shape_text(data.shape))
  rows = []
  for item in data:
    if not delimiter:
      tokens = [item[i:i + 1] for i in range(len(item))]
    else:
      tokens = re.split(b"[" + re.escape(delimiter) + b"]", item)
    rows.append([t for t in tokens if t] if skip_empty else tokens)
  if result_type == "RaggedTensor":
    return _rows_to_ragged(rows, data.shape, _string_values)
  return _sparse_from_rows(rows, data.shape)


@export("strings.split")
def strings_split_v1(input=None, sep=None, maxsplit=-1, result_type="SparseTensor",
                     source=None, name=None):
  """Splits on runs of whitespace (sep=None) or on the string `sep`, like bytes.split."""
  if result_type not in ("SparseTensor", "RaggedTensor"):
    raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
  value = _strings_of(input if input is not None else source, "StringSplitV2")
  sep = sep.encode() if isinstance(sep, str) else sep

  def split(item):
    return item.split(sep or None, maxsplit)

  if isinstance(value, RaggedTensor):
    ragged = _per_string(split, value, "StringSplitV2")
    return ragged if result_type == "RaggedTensor" else ragged.to_sparse()
  data = host(value)
  data = data.reshape(1) if data.ndim == 0 else data
  rows = [split(item) for item in data.reshape(-1)]
  if result_type == "RaggedTensor":
    return _rows_to_ragged(rows, data.shape, _string_values)
  return _sparse_from_rows(rows, data.shape)


@export("strings.bytes_split")
def bytes_split(input, name=None):
  """The bytes of each string: a 1-D Tensor for a scalar, else a RaggedTensor."""
  return _per_string(lambda s: [s[i:i + 1] for i in range(len(s))], input, "StringSplitV2")


# ---- Unicode ----
def _check_attr(attr, value, allowed, op_name):
  if value not in allowed:
    raise errors_lib.invalid_argument(
        "Value for attr '%s' of \"%s\" is not in the list of allowed values: %s [Op:%s]"
        % (attr, value, ", ".join('"%s"' % a for a in allowed), op_name))


def _check_replacement(replacement_char, op_name):
  if not 0 <= replacement_char <= 0x10FFFF:
    raise errors_lib.invalid_argument("replacement_char out of unicode codepoint range [Op:%s]"
                                      % op_name)


def _decoder(input_encoding, errors, replacement_char, replace_control_characters, op_name):
  """fn(bytes) -> (code points, byte offsets) following TF's UnicodeDecode kernel."""
  _check_attr("errors", errors, ("strict", "replace", "ignore"), op_name)
  _check_replacement(replacement_char, op_name)
  try:
    codec = codecs.lookup(input_encoding).name
  except LookupError:
    raise errors_lib.invalid_argument("Could not create converter for input encoding: %s "
                                      "[Op:%s]" % (input_encoding, op_name)) from None

  def decode(data):
    chars, offsets, pos = [], [], 0
    while pos < len(data):
      try:
        text, end = data[pos:].decode(codec), len(data)
      except UnicodeDecodeError as e:
        text, end = data[pos:pos + e.start].decode(codec), pos + e.end
        bad = pos + e.start
      else:
        bad = None
      for ch in text:
        chars.append(ord(ch))
        offsets.append(pos)
        pos += len(ch.encode(codec))
      if bad is not None:
        if errors == "strict":
          raise errors_lib.invalid_argument("Invalid formatting on input string [Op:%s]"
                                            % op_name)
        if errors == "replace":
          chars.append(replacement_char)
          offsets.append(bad)
      pos = end
    if replace_control_characters:
      chars = [replacement_char if c <= 0x1F else c for c in chars]
    return chars, offsets
  return decode


def _int_values(dtype):
  return lambda items: convert_to_tensor(np.array(items, dtype.as_numpy_dtype))


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
            op_name):
  """(code points, offsets), each a RaggedTensor (1-D Tensors for a scalar input)."""
  decode = _decoder(input_encoding, errors, replacement_char, replace_control_characters,
                    op_name)
  value = _strings_of(input, op_name)
  if isinstance(value, RaggedTensor):
    return tuple(value.with_flat_values(part) for part in _decode(
        value.flat_values, input_encoding, errors, replacement_char,
        replace_control_characters, op_name))
  data = host(value)
  makers = (_int_values(dtypes.int32), _int_values(dtypes.int64))
  if data.ndim == 0:
    return tuple(make(part) for make, part in zip(makers, decode(data.item())))
  rows = [decode(item) for item in data.reshape(-1)]
  return tuple(_rows_to_ragged([r[i] for r in rows], data.shape, makers[i]) for i in (0, 1))


@export("strings.unicode_decode")
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, name=None):
  """The int32 code points of each string (one more, ragged, dimension)."""
  return _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
                 "UnicodeDecode")[0]


@export("strings.unicode_decode_with_offsets")
def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                                replace_control_characters=False, name=None):
  """(code points, int64 byte offset where each character starts)."""
  return _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
                 "UnicodeDecodeWithOffsets")


@export("strings.unicode_encode")
def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):
  """Encodes the code points of the innermost dimension into one string each."""
  _check_attr("output_encoding", output_encoding, tuple(_ENCODINGS), "UnicodeEncode")
  _check_attr("errors", errors, ("ignore", "replace", "strict"), "UnicodeEncode")
  _check_replacement(replacement_char, "UnicodeEncode")
  value = convert_to_tensor_or_ragged_tensor(input)
  if value.dtype is not dtypes.int32:
    raise errors_lib.invalid_argument(
        "cannot compute UnicodeEncode as input #0(zero-based) was expected to be a int32 "
        "tensor but is a %s tensor [Op:UnicodeEncode]" % tf_type_name(value.dtype))
  if value.shape.ndims == 0:
    raise ValueError("input_tensor's rank must be at least 1.")
  codec = _ENCODINGS[output_encoding]
  valid_replacement = not 0xD800 <= replacement_char < 0xE000
  replacement = chr(replacement_char if valid_replacement else 0xFFFD)

  def encode(codepoints):
    text = []
    for c in codepoints:
      if 0 <= c <= 0x10FFFF and not 0xD800 <= c < 0xE000:
        text.append(chr(c))
      elif errors == "strict":
        raise errors_lib.invalid_argument("Code point is out of range for Unicode, or is a "
                                          "surrogate. [Op:UnicodeEncode]")
      elif errors == "replace":
        text.append(replacement)
    return "".join(text).encode(codec)

  if isinstance(value, RaggedTensor):
    if value.flat_values.shape.ndims > 1:
      return value.with_flat_values(unicode_encode(value.flat_values, output_encoding, errors,
                                                   replacement_char))
    if value.ragged_rank > 1:
      return value.with_values(unicode_encode(value.values, output_encoding, errors,
                                              replacement_char))
    splits, points = value.splits_np(), host(value.values).tolist()
    return _string_values([encode(points[splits[i]:splits[i + 1]])
                           for i in range(splits.size - 1)])
  data = host(value)
  strings = _string_values([encode(row) for row in data.reshape(-1, data.shape[-1]).tolist()])
  return array_ops.reshape(strings, data.shape[:-1])


@export("strings.unicode_split")
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):
  """Each string split into its characters (re-encoded in `input_encoding`)."""
  codepoints = _decode(input, input_encoding, errors, replacement_char, False,
                       "UnicodeDecode")[0]
  return unicode_encode(expand_dims(codepoints, -1), input_encoding, errors, replacement_char)


@export("strings.unicode_split_with_offsets")
def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                               name=None):
  """(characters, int64 byte offset where each starts)."""
  codepoints, offsets = _decode(input, input_encoding, errors, replacement_char, False,
                                "UnicodeDecodeWithOffsets")
  chars = unicode_encode(expand_dims(codepoints, -1), input_encoding, errors, replacement_char)
  return chars, offsets


# ---- ngrams ----
def _ngrams_of(tokens, width, separator, left_pad, right_pad, pad_width):
  """TF's StringNGrams kernel for one row: the `width`-grams with padding."""
  pad = min(width - 1 if pad_width < 0 else pad_width, width - 1)
  count = max(0, len(tokens) + 2 * pad - width + 1)
  out = []
  for index in range(count):
    left = max(0, pad - index)
    right = max(0, pad - (count - (index + 1)))
    start = 0 if left else index - pad
    items = [left_pad] * left + tokens[start:start + width - left - right] + [right_pad] * right
    out.append(separator.join(items))
  return out


@export("strings.ngrams")
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
  """The n-grams of the innermost dimension (ragged; a dense input gives a dense result)."""
  if pad_values is None:
    left_pad = right_pad = ""
  elif isinstance(pad_values, (list, tuple)):
    if not (isinstance(pad_values[0], (str, bytes)) and isinstance(pad_values[1], (str, bytes))):
      raise TypeError("pad_values must be a string, tuple of strings, or None.")
    left_pad, right_pad = pad_values[0], pad_values[1]
  else:
    if not isinstance(pad_values, (str, bytes)):
      raise TypeError("pad_values must be a string, tuple of strings, or None.")
    left_pad = right_pad = pad_values
  if padding_width is not None and padding_width < 1:
    raise ValueError("padding_width must be greater than 0.")
  if padding_width is not None and pad_values is None:
    raise ValueError("pad_values must be provided if padding_width is set.")
  value = convert_to_tensor_or_ragged_tensor(data, dtypes.string)
  widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
  if not isinstance(value, RaggedTensor):
    if value.shape.ndims == 0:
      raise ValueError("Data must have rank>0")
    if value.shape.ndims == 1:
      return ngrams(RaggedTensor.from_row_splits(value, [0, value.shape.dims[0].value]), ngram_width,
                    separator, pad_values, padding_width, preserve_short_sequences)[0]
    dense = tuple(value._value.shape[:-1])
    result = ngrams(RaggedTensor.from_tensor(value, ragged_rank=value.shape.ndims - 1),
                    ngram_width, separator, pad_values, padding_width, preserve_short_sequences)
    return array_ops.reshape(result.flat_values, dense + (-1,))
  if value.ragged_rank > 1:
    return value.with_values(ngrams(value.values, ngram_width, separator, pad_values,
                                    padding_width, preserve_short_sequences))
  for width in widths:
    if width < 1:
      raise ValueError("All ngram_widths must be greater than 0. Got %s" % ngram_width)
  pad_width = 0 if pad_values is None else (-1 if padding_width is None else padding_width)
  as_bytes = [s.encode() if isinstance(s, str) else s for s in (separator, left_pad, right_pad)]
  tokens, splits = host(value.values).tolist(), value.splits_np()
  rows = []
  for i in range(splits.size - 1):
    row = tokens[splits[i]:splits[i + 1]]
    grams = [g for w in widths for g in _ngrams_of(row, w, *as_bytes, pad_width)]
    if preserve_short_sequences and row and not grams:
      grams = _ngrams_of(row, len(row) + 2 * max(pad_width, 0), *as_bytes, pad_width)
    rows.append(grams)
  return _rows_to_ragged(rows, (len(rows),), _string_values)


# ---- unsorted_segment_join ----
@export("strings.unsorted_segment_join")
def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
  """Joins the strings of each segment (in order) with `separator`: [num_segments, ...]."""
  data = _strings(inputs, "inputs")
  ids = host(convert_to_tensor(segment_ids))
  count = int(host(convert_to_tensor(num_segments)))
  if ids.ndim == 0:
    raise errors_lib.invalid_argument("Segment_id cannot have rank 0 [Op:UnsortedSegmentJoin]")
  for i, dim in enumerate(ids.shape):
    if i >= data.ndim or data.shape[i] != dim:
      raise errors_lib.invalid_argument(
          "Segment dimension is %d while input dimension is %d in rank %d "
          "[Op:UnsortedSegmentJoin]" % (dim, data.ndim, i))
  flat_ids = ids.reshape(-1)
  if flat_ids.size and (flat_ids.min() < 0 or flat_ids.max() >= count):
    raise errors_lib.invalid_argument("segment_ids are not allowed to exceed num_segments or "
                                      "to have negative values. [Op:UnsortedSegmentJoin]")
  separator = separator.encode() if isinstance(separator, str) else separator
  inner = data.shape[ids.ndim:]
  items = data.reshape((flat_ids.size, -1))
  parts = [[[] for _ in range(items.shape[1])] for _ in range(count)]
  for row, segment in zip(items, flat_ids):
    for j, item in enumerate(row):
      parts[segment][j].append(item)
  out = np.empty((count, items.shape[1]), dtype=object)
  for s in range(count):
    for j in range(items.shape[1]):
      out[s, j] = separator.join(parts[s][j])
  return Tensor(out.reshape((count,) + inner))
