"""String hashing (`tf.strings.to_hash_bucket*`, `tf.fingerprint`) and `tf.strings.unicode_*`.

Bucket ids are bit-exact with TF: FarmHash Fingerprint64 (farmhashna::Hash64, as TF's
`Fingerprint64` calls it), TF's legacy murmur-style `Hash64` (seed 0xDECAFCAFFE) and
SipHash-2-4, each written here in Python. Like the other string ops these run on the host
over the NumPy object array of bytes behind a string Tensor; they are not trace-safe.
"""
import codecs
import struct
import sys

import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors as errors_lib
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor

_MASK = (1 << 64) - 1


def _rot(value, shift):
  return ((value >> shift) | (value << (64 - shift))) & _MASK if shift else value


def _fetch64(data, i):
  return struct.unpack_from("<Q", data, i)[0]


def _fetch32(data, i):
  return struct.unpack_from("<I", data, i)[0]


# ---- FarmHash Fingerprint64 (farmhashna::Hash64) ----
_K0 = 0xc3a5c85c97cb3127
_K1 = 0xb492b66fbe98f273
_K2 = 0x9ae16a3b2f90404f


def _shift_mix(value):
  return value ^ (value >> 47)


def _hash_len16(u, v, mul=0x9ddfea08eb382d69):
  a = ((u ^ v) * mul) & _MASK
  a ^= a >> 47
  b = ((v ^ a) * mul) & _MASK
  b ^= b >> 47
  return (b * mul) & _MASK


def _hash_len0to16(s, n):
  if n >= 8:
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) + _K2) & _MASK
    b = _fetch64(s, n - 8)
    c = (_rot(b, 37) * mul + a) & _MASK
    d = ((_rot(a, 25) + b) * mul) & _MASK
    return _hash_len16(c, d, mul)
  if n >= 4:
    mul = _K2 + n * 2
    return _hash_len16(n + (_fetch32(s, 0) << 3), _fetch32(s, n - 4), mul)
  if n > 0:
    y = s[0] + (s[n >> 1] << 8)
    z = n + (s[n - 1] << 2)
    return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
  return _K2


def _hash_len17to32(s, n):
  mul = _K2 + n * 2
  a = (_fetch64(s, 0) * _K1) & _MASK
  b = _fetch64(s, 8)
  c = (_fetch64(s, n - 8) * mul) & _MASK
  d = (_fetch64(s, n - 16) * _K2) & _MASK
  return _hash_len16((_rot((a + b) & _MASK, 43) + _rot(c, 30) + d) & _MASK,
                     (a + _rot((b + _K2) & _MASK, 18) + c) & _MASK, mul)


def _hash_len33to64(s, n):
  mul = _K2 + n * 2
  a = (_fetch64(s, 0) * _K2) & _MASK
  b = _fetch64(s, 8)
  c = (_fetch64(s, n - 8) * mul) & _MASK
  d = (_fetch64(s, n - 16) * _K2) & _MASK
  y = (_rot((a + b) & _MASK, 43) + _rot(c, 30) + d) & _MASK
  z = _hash_len16(y, (a + _rot((b + _K2) & _MASK, 18) + c) & _MASK, mul)
  e = (_fetch64(s, 16) * mul) & _MASK
  f = _fetch64(s, 24)
  g = ((y + _fetch64(s, n - 32)) * mul) & _MASK
  h = ((z + _fetch64(s, n - 24)) * mul) & _MASK
  return _hash_len16((_rot((e + f) & _MASK, 43) + _rot(g, 30) + h) & _MASK,
                     (e + _rot((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak_hash_len32(s, i, a, b):
  w, x, y, z = struct.unpack_from("<4Q", s, i)
  a = (a + w) & _MASK
  b = _rot((b + a + z) & _MASK, 21)
  c = a
  a = (a + x + y) & _MASK
  b = (b + _rot(a, 44)) & _MASK
  return (a + z) & _MASK, (b + c) & _MASK


def fingerprint64(s):
  """FarmHash's Fingerprint64 of the bytes `s` (an int in [0, 2**64))."""
  n = len(s)
  if n <= 16:
    return _hash_len0to16(s, n)
  if n <= 32:
    return _hash_len17to32(s, n)
  if n <= 64:
    return _hash_len33to64(s, n)
  seed = 81
  x = seed
  y = (seed * _K1 + 113) & _MASK
  z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
  v0 = v1 = w0 = w1 = 0
  x = (x * _K2 + _fetch64(s, 0)) & _MASK
  end = ((n - 1) // 64) * 64
  last64 = end + ((n - 1) & 63) - 63
  i = 0
  while True:
    x = (_rot((x + y + v0 + _fetch64(s, i + 8)) & _MASK, 37) * _K1) & _MASK
    y = (_rot((y + v1 + _fetch64(s, i + 48)) & _MASK, 42) * _K1) & _MASK
    x ^= w1
    y = (y + v0 + _fetch64(s, i + 40)) & _MASK
    z = (_rot((z + w0) & _MASK, 33) * _K1) & _MASK
    v0, v1 = _weak_hash_len32(s, i, (v1 * _K1) & _MASK, (x + w0) & _MASK)
    w0, w1 = _weak_hash_len32(s, i + 32, (z + w1) & _MASK, (y + _fetch64(s, i + 16)) & _MASK)
    z, x = x, z
    i += 64
    if i == end:
      break
  mul = _K1 + ((z & 0xff) << 1)
  i = last64
  w0 = (w0 + ((n - 1) & 63)) & _MASK
  v0 = (v0 + w0) & _MASK
  w0 = (w0 + v0) & _MASK
  x = (_rot((x + y + v0 + _fetch64(s, i + 8)) & _MASK, 37) * mul) & _MASK
  y = (_rot((y + v1 + _fetch64(s, i + 48)) & _MASK, 42) * mul) & _MASK
  x ^= (w1 * 9) & _MASK
  y = (y + v0 * 9 + _fetch64(s, i + 40)) & _MASK
  z = (_rot((z + w0) & _MASK, 33) * mul) & _MASK
  v0, v1 = _weak_hash_len32(s, i, (v1 * mul) & _MASK, (x + w0) & _MASK)
  w0, w1 = _weak_hash_len32(s, i + 32, (z + w1) & _MASK, (y + _fetch64(s, i + 16)) & _MASK)
  z, x = x, z
  return _hash_len16((_hash_len16(v0, w0, mul) + _shift_mix(y) * _K0 + z) & _MASK,
                     (_hash_len16(v1, w1, mul) + x) & _MASK, mul)


# ---- TF's legacy Hash64 (tensorflow/core/lib/hash/hash.cc) ----
def legacy_hash64(s, seed=0xDECAFCAFFE):
  """TF's `Hash64(data, n, seed)` (MurmurHash64A-like) of the bytes `s`."""
  m = 0xc6a4a7935bd1e995
  n = len(s)
  h = seed ^ ((n * m) & _MASK)
  full = n - n % 8
  for (k,) in struct.iter_unpack("<Q", s[:full]):
    k = (k * m) & _MASK
    k ^= k >> 47
    k = (k * m) & _MASK
    h = ((h ^ k) * m) & _MASK
  if n % 8:
    h = ((h ^ int.from_bytes(s[full:], "little")) * m) & _MASK
  h ^= h >> 47
  h = (h * m) & _MASK
  return h ^ (h >> 47)


# ---- SipHash-2-4 ----
def _sip_rounds(v0, v1, v2, v3, count):
  for _ in range(count):
    v0 = (v0 + v1) & _MASK
    v1 = _rot(v1, 51) ^ v0
    v0 = _rot(v0, 32)
    v2 = (v2 + v3) & _MASK
    v3 = _rot(v3, 48) ^ v2
    v0 = (v0 + v3) & _MASK
    v3 = _rot(v3, 43) ^ v0
    v2 = (v2 + v1) & _MASK
    v1 = _rot(v1, 47) ^ v2
    v2 = _rot(v2, 32)
  return v0, v1, v2, v3


def siphash24(key, s):
  """SipHash-2-4 of the bytes `s` under `key` (two 64-bit ints), as TF's StrongKeyedHash."""
  k0, k1 = key[0] & _MASK, key[1] & _MASK
  v0, v1 = k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d
  v2, v3 = k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573
  n = len(s)
  full = n - n % 8
  last = ((n & 0xff) << 56) | int.from_bytes(s[full:], "little")
  for (m,) in list(struct.iter_unpack("<Q", s[:full])) + [(last,)]:
    v3 ^= m
    v0, v1, v2, v3 = _sip_rounds(v0, v1, v2, v3, 2)
    v0 ^= m
  v2 ^= 0xff
  v0, v1, v2, v3 = _sip_rounds(v0, v1, v2, v3, 4)
  return v0 ^ v1 ^ v2 ^ v3


# ---- Ops ----
def _strings(value):
  return np.asarray(convert_to_tensor(value, dtypes.string)._value, dtype=object)


def _check_buckets(num_buckets, op_name):
  num_buckets = int(num_buckets)
  if num_buckets < 1:
    raise errors_lib.invalid_argument("Value for attr 'num_buckets' of %d must be at least "
                                  "minimum 1 [Op:%s]" % (num_buckets, op_name))
  return num_buckets


def _buckets(hash_fn, value, num_buckets, op_name):
  strings = _strings(value)
  num_buckets = _check_buckets(num_buckets, op_name)
  ids = [hash_fn(bytes(s)) % num_buckets for s in strings.ravel()]
  return Tensor(jnp.asarray(np.array(ids, dtype=np.int64).reshape(strings.shape)))


@export("strings.to_hash_bucket_fast", "string_to_hash_bucket_fast")
def string_to_hash_bucket_fast(input, num_buckets, name=None):  # pylint: disable=redefined-builtin
  """FarmHash Fingerprint64 of each string, modulo `num_buckets` (int64)."""
  return _buckets(fingerprint64, input, num_buckets, "StringToHashBucketFast")


@export("strings.to_hash_bucket", "string_to_hash_bucket")
def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # pylint: disable=redefined-builtin
  """TF's legacy Hash64 of each string, modulo `num_buckets` (int64)."""
  value = string_tensor if string_tensor is not None else input
  return _buckets(legacy_hash64, value, num_buckets, "StringToHashBucket")


@export("strings.to_hash_bucket_strong", "string_to_hash_bucket_strong")
def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # pylint: disable=redefined-builtin
  """SipHash-2-4 of each string under the 2-element `key`, modulo `num_buckets` (int64)."""
  key = tuple(int(k) for k in key)
  if len(key) != 2:
    raise errors_lib.invalid_argument("Key must have 2 elements [Op:StringToHashBucketStrong]")
  return _buckets(lambda s: siphash24(key, s), input, num_buckets, "StringToHashBucketStrong")


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
