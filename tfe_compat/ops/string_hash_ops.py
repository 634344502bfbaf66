"""String hashing (`tf.strings.to_hash_bucket*`, `tf.fingerprint`) and `tf.strings.unicode_*`.

Bucket ids are bit-exact with TF: FarmHash Fingerprint64 (the `cityhash` package's C++
FarmHash), SipHash-2-4 (the `siphashc` package's C SipHash), and TF's legacy murmur-style
`Hash64` (seed 0xDECAFCAFFE), which no package has: it runs here over NumPy uint64 arrays,
all strings at once. Like the other string ops these run on the host over the NumPy object
array of bytes behind a string Tensor; they are not trace-safe.
"""
import codecs
import functools
import struct
import sys

import farmhash
import jax.numpy as jnp
import numpy as np
import siphashc

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors as errors_lib
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor

_MASK = (1 << 64) - 1
fingerprint64 = farmhash.Fingerprint64


def fingerprint64_many(strings):
  """FarmHash Fingerprint64 of each bytes object in `strings` (uint64 array)."""
  return np.fromiter(map(fingerprint64, strings), np.uint64, len(strings))


def fingerprint128_many(strings):
  """FarmHash Fingerprint128 of each bytes object in `strings`: uint64 array [n, 2] of TF's
  (low64, high64) halves (the `farmhash` package packs low64 into the upper 64 bits)."""
  out = np.empty((len(strings), 2), np.uint64)
  for i, value in enumerate(map(farmhash.Fingerprint128, strings)):
    out[i] = value >> 64, value & _MASK
  return out


# ---- TF's legacy Hash64 (tensorflow/core/lib/hash/hash.cc) ----
_LEGACY_SEED = 0xDECAFCAFFE
_LEGACY_MUL = 0xc6a4a7935bd1e995
_VECTOR_MIN_ROWS = 64  # fewer strings still to mix: finish them one by one in Python


def _legacy_mix(k):
  """One word of TF's Hash64: (k * m) ^ ((k * m) >> 47), times m (Python ints)."""
  k = (k * _LEGACY_MUL) & _MASK
  return ((k ^ (k >> 47)) * _LEGACY_MUL) & _MASK


def _legacy_finish(h, s, first_word):
  """TF's Hash64 of the bytes `s` from state `h`, the words before `first_word` mixed in."""
  n = len(s)
  full = n - n % 8
  for (k,) in struct.iter_unpack("<Q", s[8 * first_word:full]):
    h = ((h ^ _legacy_mix(k)) * _LEGACY_MUL) & _MASK
  if n % 8:
    h = ((h ^ int.from_bytes(s[full:], "little")) * _LEGACY_MUL) & _MASK
  h ^= h >> 47
  h = (h * _LEGACY_MUL) & _MASK
  return h ^ (h >> 47)


def legacy_hash64_many(strings):
  """TF's `Hash64(data, n, 0xDECAFCAFFE)` of each bytes object in `strings` (uint64 array).

  The words of every string are mixed in lockstep, longest strings first: word w of all
  strings longer than 8 * w bytes is one NumPy step. When few strings remain the rest run
  in Python, so one long string costs what a Python loop over its words does.
  """
  lengths = np.fromiter(map(len, strings), np.int64, len(strings))
  order = np.argsort(-lengths, kind="stable")
  lengths = lengths[order]
  padded = [strings[i] + b"\0" * (-len(strings[i]) % 8) for i in order.tolist()]
  words = np.frombuffer(b"".join(padded) + bytes(8), "<u8").astype(np.uint64)
  offsets = np.concatenate([[0], np.cumsum((lengths + 7) // 8)[:-1]]).astype(np.int64)
  full_words = lengths // 8
  mul = np.uint64(_LEGACY_MUL)
  h = np.uint64(_LEGACY_SEED) ^ (lengths.astype(np.uint64) * mul)
  word = 0
  active = int(np.count_nonzero(full_words > 0))
  while active >= _VECTOR_MIN_ROWS:
    k = words[offsets[:active] + word] * mul
    k = (k ^ (k >> np.uint64(47))) * mul
    h[:active] = (h[:active] ^ k) * mul
    word += 1
    active = int(np.count_nonzero(full_words > word))
  out = np.empty(len(strings), np.uint64)
  done = full_words <= word  # past every full word: only the tail word and the finish remain
  tail = words[offsets + full_words]  # zero-padded: the last `n % 8` bytes, little-endian
  hd = np.where(lengths[done] % 8 > 0, (h[done] ^ tail[done]) * mul, h[done])
  hd = (hd ^ (hd >> np.uint64(47))) * mul
  out[order[done]] = hd ^ (hd >> np.uint64(47))
  for i in np.flatnonzero(~done).tolist():
    out[order[i]] = _legacy_finish(int(h[i]), strings[order[i]], word)
  return out


# ---- SipHash-2-4 ----
def siphash24_many(key, strings):
  """SipHash-2-4 of each bytes object under `key` (two 64-bit ints), as TF's StrongKeyedHash."""
  key = struct.pack("<QQ", key[0] & _MASK, key[1] & _MASK)
  return np.fromiter((siphashc.siphash(key, s) for s in strings), np.uint64, len(strings))


# ---- Ops ----
def _strings(value):
  return np.asarray(convert_to_tensor(value, dtypes.string)._value, dtype=object)


def _check_buckets(num_buckets, op_name):
  num_buckets = int(num_buckets)
  if num_buckets < 1:
    raise errors_lib.invalid_argument("Value for attr 'num_buckets' of %d must be at least "
                                  "minimum 1 [Op:%s]" % (num_buckets, op_name))
  return num_buckets


def _buckets(hash_many, value, num_buckets, op_name):
  strings = _strings(value)
  num_buckets = _check_buckets(num_buckets, op_name)
  hashes = hash_many([bytes(s) for s in strings.ravel().tolist()])
  ids = (hashes % np.uint64(num_buckets)).astype(np.int64)
  return Tensor(jnp.asarray(ids.reshape(strings.shape)))


@export("strings.to_hash_bucket_fast", "string_to_hash_bucket_fast")
def string_to_hash_bucket_fast(input, num_buckets, name=None):  # pylint: disable=redefined-builtin
  """FarmHash Fingerprint64 of each string, modulo `num_buckets` (int64)."""
  return _buckets(fingerprint64_many, input, num_buckets, "StringToHashBucketFast")


@export("strings.to_hash_bucket", "string_to_hash_bucket")
def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # pylint: disable=redefined-builtin
  """TF's legacy Hash64 of each string, modulo `num_buckets` (int64)."""
  value = string_tensor if string_tensor is not None else input
  return _buckets(legacy_hash64_many, value, num_buckets, "StringToHashBucket")


@export("strings.to_hash_bucket_strong", "string_to_hash_bucket_strong")
def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # pylint: disable=redefined-builtin
  """SipHash-2-4 of each string under the 2-element `key`, modulo `num_buckets` (int64)."""
  key = tuple(int(k) for k in key)
  if len(key) != 2:
    raise errors_lib.invalid_argument("Key must have 2 elements [Op:StringToHashBucketStrong]")
  return _buckets(functools.partial(siphash24_many, key), input, num_buckets,
                  "StringToHashBucketStrong")


@export("fingerprint")
def fingerprint(data, method="farmhash64", name=None):
  """uint8 [data.shape[0], 8]: the little-endian FarmHash Fingerprint64 of each row."""
  tensor = convert_to_tensor(data)
  method = convert_to_tensor(method, dtypes.string)
  if method.shape.ndims != 0:
    raise errors_lib.invalid_argument(
        "`method` should be a scalar string: [%s] [Op:Fingerprint]"
        % ",".join(str(d) for d in method.shape.as_list()))
  method = bytes(np.asarray(method._value, dtype=object).item())
  if method != b"farmhash64":
    raise errors_lib.invalid_argument("Unsupported fingerprint method: %s [Op:Fingerprint]"
                                      % method.decode("utf-8", "replace"))
  values = np.asarray(tensor._value, dtype=object if tensor.dtype is dtypes.string else None)
  if values.ndim == 0:
    raise errors_lib.invalid_argument("`data` should have at least one dimension: [] "
                                      "[Op:Fingerprint]")
  rows = values.reshape(values.shape[0], -1) if values.shape[0] else values.reshape(0, 0)
  if tensor.dtype is dtypes.string:
    if rows.shape[1] == 1:
      hashes = [fingerprint64(bytes(row[0])) for row in rows]
    else:
      hashes = [fingerprint64(b"".join(struct.pack("<Q", fingerprint64(bytes(s))) for s in row))
                for row in rows]
  else:
    raw = np.ascontiguousarray(rows)
    if sys.byteorder == "big":  # TF fingerprints the little-endian bytes
      raw = raw.byteswap()
    hashes = [fingerprint64(row.tobytes()) for row in raw]
  out = np.frombuffer(struct.pack("<%dQ" % len(hashes), *hashes), dtype=np.uint8)
  return Tensor(jnp.asarray(out.reshape(len(hashes), 8)))


# ---- Unicode ----
_OUTPUT_ENCODINGS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}


def _attr_choice(attr, value, allowed):
  if value not in allowed:
    raise errors_lib.invalid_argument(
        "Value for attr '%s' of \"%s\" is not in the list of allowed values: %s "
        "[Op:UnicodeTranscode]" % (attr, value, ", ".join('"%s"' % a for a in allowed)))


@export("strings.unicode_transcode")
def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # pylint: disable=redefined-builtin
                      replacement_char=65533, replace_control_characters=False, name=None):
  """Re-encodes each string from `input_encoding` into `output_encoding`."""
  strings = _strings(input)
  _attr_choice("output_encoding", output_encoding, tuple(_OUTPUT_ENCODINGS))
  _attr_choice("errors", errors, ("strict", "replace", "ignore"))
  try:
    codec = codecs.lookup(input_encoding).name
  except LookupError:
    raise errors_lib.invalid_argument("Could not create converter for input encoding: %s "
                                      "[Op:UnicodeTranscode]" % input_encoding) from None
  valid = 0 <= replacement_char < 0x110000 and not 0xD800 <= replacement_char < 0xE000
  replacement = chr(replacement_char) if valid else "\ufffd"
  out_codec = _OUTPUT_ENCODINGS[output_encoding]
  handler = {"strict": "strict", "ignore": "ignore"}.get(errors) or _replace_handler(replacement)

  def transcode(item):
    try:
      text = bytes(item).decode(codec, handler)
    except UnicodeDecodeError:
      raise errors_lib.invalid_argument("Invalid formatting on input string "
                                        "[Op:UnicodeTranscode]") from None
    if replace_control_characters:
      text = "".join(replacement if ord(c) < 0x20 else c for c in text)
    return text.encode(out_codec)

  out = np.frompyfunc(transcode, 1, 1)(strings) if strings.size else strings
  return Tensor(np.asarray(out, dtype=object))


def _replace_handler(replacement):
  """The name of a codecs error handler replacing each invalid sequence by `replacement`."""
  name = "tfe_compat_replace_%x" % ord(replacement)
  try:
    codecs.lookup_error(name)
  except LookupError:
    codecs.register_error(name, lambda exc: (replacement, exc.end))
  return name


@export("strings.unicode_script")
def unicode_script(input, name=None):  # pylint: disable=redefined-builtin
  """Not supported: TF answers with ICU's UScriptCode, which needs ICU's script tables."""
  raise NotImplementedError("tf.strings.unicode_script is not supported by tfe_compat: it "
                            "needs ICU's Unicode script data, which this package does not ship.")
