"""TensorFlow's checkpoint storage format, the "tensor bundle" (V2 checkpoints).

A checkpoint with prefix P is the files

  P.index                         a table {key: proto}, sorted by key (bytewise)
  P.data-00000-of-00001 ...       the tensors' bytes, in `num_shards` files named
                                  P.data-<shard_id:05d>-of-<num_shards:05d>

P.index is a LevelDB-style table ("SSTable", TF's tensorflow/core/lib/io/table*.cc):

  data block | ... | data block | metaindex block | index block | footer
  block    the entries, then the restart offsets (uint32 LE each) and their count (uint32
           LE), then a 5-byte trailer: the compression type (0: none; bundles are never
           compressed) and the masked CRC32C of the block and that type byte (uint32 LE)
  entry    varint32 shared, varint32 unshared, varint32 value length, the unshared key bytes,
           the value: the key is the previous key's first `shared` bytes plus the unshared
           bytes; every 16th entry (a restart point) shares nothing
  index    one entry per data block: a key >= the block's last key and < the next block's
           first key, whose value is the block's handle (varint64 offset, varint64 size);
           its restart interval is 1. The metaindex block is empty.
  footer   48 bytes: the metaindex and index block handles, zeros up to byte 40, then the
           magic number 0xdb4775248b80fb57 (uint64 LE)

Writers start a new data block once one holds 256 KiB. Key "" holds a BundleHeaderProto
(num_shards, endianness, format version 1), every other key a BundleEntryProto: the tensor's
dtype and shape, and where its bytes are: bytes [offset, offset + size) of data file
shard_id, whose masked CRC32C is `crc32c`.

Tensor bytes: numeric tensors are raw little-endian values in C order (bool: one byte each).
A string tensor is the varint64 length of each element, then 4 bytes (uint32 LE): the masked
CRC32C of the lengths written as uint32 LE (uint64 for lengths >= 2**32), then the bytes of
all elements. Its entry's checksum covers those uint32 lengths, the 4 checksum bytes and the
element bytes (not the varints).

Partitioned variables: the full tensor's entry has dtype, shape and `slices`
(TensorSliceProtos: per dimension a start and a length, no length meaning all of it) and no
bytes; each slice has its own entry under the key EncodeTensorNameSlice(name, slice), in
TF's OrderedCode: NumIncreasing(0), String(name), NumIncreasing(rank), then per dimension
SignedNumIncreasing(start) and SignedNumIncreasing(length, -1 for all). NumIncreasing(n) is
the byte length of n then n big-endian; String(s) is s with 0x00 -> 00 ff and 0xff -> ff 00,
then 00 01; SignedNumIncreasing is in `_signed_num_increasing`.

Masked CRC32C: mask(c) = ((c >> 15 | c << 17) + 0xa282ead8) mod 2**32.
"""
import os
import struct
import uuid

import google_crc32c
import ml_dtypes
import numpy as np
from google.protobuf import message

from tfe_compat.framework import errors
from tfe_compat.data.tfrecord import masked_crc32c
from tfe_compat.proto import tensor_bundle_pb2

_MAGIC = 0xdb4775248b80fb57
_FOOTER_SIZE = 48
_BLOCK_TRAILER_SIZE = 5
_BLOCK_SIZE = 262144
_RESTART_INTERVAL = 16
_HEADER_KEY = b""
_FORMAT_VERSION = 1  # TF's kTensorBundleVersion
_STRING = 7

# TF DataType enum values -> NumPy dtypes (strings as object arrays of bytes).
_NUMPY_DTYPES = {
    1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
    7: object, 8: np.complex64, 9: np.int64, 10: np.bool_, 14: ml_dtypes.bfloat16,
    17: np.uint16, 18: np.complex128, 19: np.float16, 22: np.uint32, 23: np.uint64}
_TF_DTYPES = {np.dtype(v): k for k, v in _NUMPY_DTYPES.items() if k != _STRING}


def _unmask(masked):
  rot = (masked - 0xa282ead8) & 0xffffffff
  return ((rot >> 17) | (rot << 15)) & 0xffffffff


def _varint(value):
  out = bytearray()
  while value >= 0x80:
    out.append((value & 0x7f) | 0x80)
    value >>= 7
  out.append(value)
  return bytes(out)


def _read_varint(buf, pos, what):
  """(the varint at buf[pos:], the position after it); DataLossError naming `what` if bad."""
  value = shift = 0
  while pos < len(buf) and shift < 64:
    byte = buf[pos]
    pos += 1
    value |= (byte & 0x7f) << shift
    if byte < 0x80:
      return value, pos
    shift += 7
  raise errors.DataLossError(None, None, "bad varint in " + what)


def _index_path(prefix):
  return prefix + ".index"


def _data_path(prefix, shard_id, num_shards):
  return "%s.data-%05d-of-%05d" % (prefix, shard_id, num_shards)


def _tensor_name(key):
  return key.decode("utf-8", "surrogateescape")


def _key(name):
  return name.encode("utf-8", "surrogateescape")


# ---- The SSTable. ----

def _block(table, offset, size, path):
  """The contents of the block at `offset`, checked against its trailer."""
  end = offset + size + _BLOCK_TRAILER_SIZE
  if end > len(table) - _FOOTER_SIZE:
    raise errors.DataLossError(None, None, "%s: truncated block read" % path)
  contents = table[offset:offset + size + 1]
  stored_crc = struct.unpack_from("<I", table, offset + size + 1)[0]
  if masked_crc32c(contents) != stored_crc:
    raise errors.DataLossError(None, None, "%s: block checksum mismatch" % path)
  if contents[-1] != 0:
    raise errors.DataLossError(None, None, "%s: bad block type %d (compressed blocks are "
                               "not supported)" % (path, contents[-1]))
  return contents[:-1]


def _block_entries(block, path):
  """The (key, value) pairs of a block, in order."""
  if len(block) < 4:
    raise errors.DataLossError(None, None, "%s: bad block contents" % path)
  num_restarts = struct.unpack_from("<I", block, len(block) - 4)[0]
  if num_restarts > (len(block) - 4) // 4:
    raise errors.DataLossError(None, None, "%s: bad block contents" % path)
  end = len(block) - 4 * (1 + num_restarts)
  entries, key, pos = [], b"", 0
  while pos < end:
    shared, pos = _read_varint(block, pos, path)
    unshared, pos = _read_varint(block, pos, path)
    value_size, pos = _read_varint(block, pos, path)
    if shared > len(key) or pos + unshared + value_size > end:
      raise errors.DataLossError(None, None, "%s: bad entry in block" % path)
    key = key[:shared] + block[pos:pos + unshared]
    pos += unshared
    entries.append((key, block[pos:pos + value_size]))
    pos += value_size
  return entries


def _read_table(path):
  """All (key, value) pairs of the table file at `path`."""
  try:
    with open(path, "rb") as f:
      table = f.read()
  except FileNotFoundError:
    raise errors.NotFoundError(None, None, "%s; No such file or directory" % path) from None
  if len(table) < _FOOTER_SIZE:
    raise errors.DataLossError(None, None, "%s: file is too short to be an sstable" % path)
  footer = table[-_FOOTER_SIZE:]
  if struct.unpack_from("<Q", footer, 40)[0] != _MAGIC:
    raise errors.DataLossError(None, None, "%s: not an sstable (bad magic number)" % path)
  pos = 0
  for _ in range(2):  # skips the metaindex handle
    _, pos = _read_varint(footer, pos, path + " footer")
  index_offset, pos = _read_varint(footer, pos, path + " footer")
  index_size, _ = _read_varint(footer, pos, path + " footer")
  entries = []
  for _, handle in _block_entries(_block(table, index_offset, index_size, path), path):
    offset, handle_pos = _read_varint(handle, 0, path + " index")
    size, _ = _read_varint(handle, handle_pos, path + " index")
    entries.extend(_block_entries(_block(table, offset, size, path), path))
  return entries


class _BlockBuilder:
  """Builds one block: prefix-compressed keys, a restart point every `restart_interval`."""

  def __init__(self, restart_interval):
    self.restart_interval = restart_interval
    self.buffer, self.restarts, self.count, self.last_key = bytearray(), [0], 0, b""

  def add(self, key, value):
    shared = 0
    if self.count < self.restart_interval:
      limit = min(len(key), len(self.last_key))
      while shared < limit and key[shared] == self.last_key[shared]:
        shared += 1
    else:
      self.restarts.append(len(self.buffer))
      self.count = 0
    self.buffer += _varint(shared) + _varint(len(key) - shared) + _varint(len(value))
    self.buffer += key[shared:] + value
    self.last_key, self.count = key, self.count + 1

  def size_estimate(self):
    return len(self.buffer) + 4 * len(self.restarts) + 4

  def finish(self):
    return bytes(self.buffer) + struct.pack("<%dI" % (len(self.restarts) + 1),
                                            *self.restarts, len(self.restarts))


def _shortest_separator(start, limit):
  """A short key >= start and < limit (LevelDB's bytewise FindShortestSeparator)."""
  diff = 0
  while diff < min(len(start), len(limit)) and start[diff] == limit[diff]:
    diff += 1
  if diff < min(len(start), len(limit)) and start[diff] < 0xff \
      and start[diff] + 1 < limit[diff]:
    return start[:diff] + bytes([start[diff] + 1])
  return start


def _short_successor(key):
  """A short key >= `key` (LevelDB's bytewise FindShortSuccessor)."""
  for i, byte in enumerate(key):
    if byte != 0xff:
      return key[:i] + bytes([byte + 1])
  return key


def _build_table(items):
  """The bytes of a table of the sorted (key, value) pairs `items`, as TF's TableBuilder."""
  out = bytearray()

  def write_block(builder):
    contents = builder.finish() + b"\x00"  # uncompressed
    handle = _varint(len(out)) + _varint(len(contents) - 1)
    out.extend(contents + struct.pack("<I", masked_crc32c(contents)))
    return handle

  data_block = _BlockBuilder(_RESTART_INTERVAL)
  index_block = _BlockBuilder(1)
  pending_handle, last_key = None, b""
  for key, value in items:
    if data_block.buffer and len(key) + len(value) >= 2 * _BLOCK_SIZE:
      pending_handle, data_block = write_block(data_block), _BlockBuilder(_RESTART_INTERVAL)
    if pending_handle is not None:
      index_block.add(_shortest_separator(last_key, key), pending_handle)
      pending_handle = None
    last_key = key
    data_block.add(key, value)
    if data_block.size_estimate() >= _BLOCK_SIZE:
      pending_handle, data_block = write_block(data_block), _BlockBuilder(_RESTART_INTERVAL)
  if data_block.buffer:
    pending_handle = write_block(data_block)
  metaindex_handle = write_block(_BlockBuilder(_RESTART_INTERVAL))
  if pending_handle is not None:
    index_block.add(_short_successor(last_key), pending_handle)
  footer = (metaindex_handle + write_block(index_block)).ljust(_FOOTER_SIZE - 8, b"\x00")
  return bytes(out + footer + struct.pack("<Q", _MAGIC))


# ---- Slice names (OrderedCode). ----

def _num_increasing(value):
  digits = value.to_bytes((value.bit_length() + 7) // 8, "big")
  return bytes([len(digits)]) + digits


def _ordered_string(text):
  escaped = {0x00: b"\x00\xff", 0xff: b"\xff\x00"}
  return b"".join(escaped.get(byte, bytes([byte])) for byte in text) + b"\x00\x01"


def _signed_num_increasing(value):
  """OrderedCode's WriteSignedNumIncreasing: 1 to 10 bytes whose leading bits give the
  length, sorting like the numbers."""
  magnitude = ~value if value < 0 else value
  if magnitude < 64:
    return bytes([(0x80 ^ value) & 0xff])
  length = (magnitude.bit_length() + 7) // 7  # bits needed, with a sign bit, 7 per byte
  encoded = bytearray((value & (2 ** 80 - 1)).to_bytes(10, "big")[10 - length:])
  header = ((1 << length) - 1) << (16 - length)  # `length` one bits
  encoded[0] ^= header >> 8
  encoded[1] ^= header & 0xff
  return bytes(encoded)


def _slice_key(name, slice_proto):
  """EncodeTensorNameSlice: the key of the slice `slice_proto` of tensor `name`."""
  key = _num_increasing(0) + _ordered_string(name) + _num_increasing(len(slice_proto.extent))
  for extent in slice_proto.extent:
    length = extent.length if extent.HasField("length") else -1
    key += _signed_num_increasing(extent.start) + _signed_num_increasing(length)
  return key


# ---- Reading. ----

def _read_index(prefix):
  """(num_shards, {key bytes: BundleEntryProto}) of the checkpoint `prefix`."""
  path = _index_path(prefix)
  items = _read_table(path)
  if not items or items[0][0] != _HEADER_KEY:
    raise errors.DataLossError(None, None, "%s: failed to seek to header entry" % path)
  try:
    header = tensor_bundle_pb2.BundleHeaderProto.FromString(items[0][1])
    entries = {key: tensor_bundle_pb2.BundleEntryProto.FromString(value)
               for key, value in items[1:]}
  except message.DecodeError as e:
    raise errors.DataLossError(None, None, "%s: unable to parse an entry: %s" % (path, e))
  if header.endianness != header.LITTLE:
    raise errors.UnimplementedError(None, None, "%s: big-endian checkpoints are not "
                                    "supported" % path)
  if header.version.min_consumer > _FORMAT_VERSION:
    raise errors.FailedPreconditionError(None, None, "%s: the checkpoint needs a newer "
                                         "TensorFlow (min_consumer %d)"
                                         % (path, header.version.min_consumer))
  return header.num_shards, entries


def _shape(entry, key):
  if entry.shape.unknown_rank or any(dim.size < 0 for dim in entry.shape.dim):
    raise errors.DataLossError(None, None, "Invalid tensor shape: " + _tensor_name(key))
  return tuple(dim.size for dim in entry.shape.dim)


def _numpy_dtype(entry):
  dtype = _NUMPY_DTYPES.get(entry.dtype)
  return None if dtype is None else np.dtype(dtype)


def _slice_keys(entries):
  """The keys of the slices of partitioned tensors."""
  return {_slice_key(key, slice_proto)
          for key, entry in entries.items() for slice_proto in entry.slices}


class _DataFiles:
  """The data files of a checkpoint, opened on first use."""

  def __init__(self, prefix, num_shards):
    self.prefix, self.num_shards, self.files = prefix, num_shards, {}

  def read(self, entry, key, out=None):
    """The `size` bytes at `offset` of shard `shard_id` (read into the uint8 array `out`,
    when given, and returned as it)."""
    if not 0 <= entry.shard_id < self.num_shards:
      raise errors.DataLossError(None, None, "Invalid shard id %d of key %s"
                                 % (entry.shard_id, _tensor_name(key)))
    if entry.shard_id not in self.files:
      path = _data_path(self.prefix, entry.shard_id, self.num_shards)
      try:
        self.files[entry.shard_id] = open(path, "rb")  # pylint: disable=consider-using-with
      except FileNotFoundError:
        raise errors.NotFoundError(None, None, "%s; No such file or directory" % path) from None
    f = self.files[entry.shard_id]
    f.seek(entry.offset)
    if out is None:
      data = f.read(entry.size)
      size = len(data)
    else:
      data, size = out, f.readinto(out)
    if size != entry.size:
      raise errors.DataLossError(None, None, "%s is truncated: key %s needs bytes [%d, %d)"
                                 % (f.name, _tensor_name(key), entry.offset,
                                    entry.offset + entry.size))
    return data

  def close(self):
    for f in self.files.values():
      f.close()


def _check_crc(entry, crc):
  if entry.crc32c != crc:
    raise errors.DataLossError(None, None, "Checksum does not match: stored %08d vs. "
                               "calculated on the restored bytes %d"
                               % (_unmask(entry.crc32c), _unmask(crc)))


def _decode_strings(data, count, key):
  """The `count` elements of a string tensor's bytes, and their masked checksum."""
  lengths, pos = [], 0
  crc_input = bytearray()
  for _ in range(count):
    length, pos = _read_varint(data, pos, "the string lengths of " + _tensor_name(key))
    lengths.append(length)
    crc_input += struct.pack("<I" if length <= 0xffffffff else "<Q", length)
  if pos + 4 > len(data) or sum(lengths) != len(data) - pos - 4:
    raise errors.DataLossError(None, None, "Invalid size in bundle entry: key "
                               + _tensor_name(key))
  length_crc = data[pos:pos + 4]
  if masked_crc32c(crc_input) != struct.unpack("<I", length_crc)[0]:
    raise errors.DataLossError(None, None, "The length checksum does not match: key "
                               + _tensor_name(key))
  pos += 4
  crc = masked_crc32c(data[pos:], google_crc32c.value(bytes(crc_input) + length_crc))
  values = np.empty(count, dtype=object)
  for i, length in enumerate(lengths):
    values[i] = data[pos:pos + length]
    pos += length
  return values, crc


def _read_value(files, entry, key):
  """The array of a tensor stored whole."""
  shape, dtype = _shape(entry, key), _numpy_dtype(entry)
  if dtype is None:
    raise errors.UnimplementedError(None, None, "Cannot read %s: unsupported dtype %d"
                                    % (_tensor_name(key), entry.dtype))
  count = int(np.prod(shape, dtype=np.int64))
  if entry.dtype != _STRING and entry.size != count * dtype.itemsize:
    raise errors.DataLossError(None, None, "Invalid size in bundle entry: key %s; stored "
                               "size %d; expected size %d"
                               % (_tensor_name(key), entry.size, count * dtype.itemsize))
  if entry.dtype == _STRING:
    values, crc = _decode_strings(files.read(entry, key), count, key)
  else:  # read in place: no second copy of a large tensor
    values = np.empty(count, dtype.newbyteorder("<"))
    crc = masked_crc32c(files.read(entry, key, values.view(np.uint8)))
  _check_crc(entry, crc)
  return values.astype(dtype, copy=False).reshape(shape)


def _read_partitioned(files, entries, entry, key):
  """The full array of a partitioned tensor, joined from its slices."""
  full = np.empty(_shape(entry, key), dtype=_numpy_dtype(entry))
  filled = np.zeros(full.shape, dtype=bool)
  for slice_proto in entry.slices:
    slice_key = _slice_key(key, slice_proto)
    if slice_key not in entries:
      raise errors.DataLossError(None, None, "Slice %s of %s not found in checkpoint"
                                 % (slice_proto, _tensor_name(key)))
    index = tuple(slice(e.start, e.start + e.length) if e.HasField("length") else slice(None)
                  for e in slice_proto.extent)
    if len(index) != full.ndim or filled[index].shape != _shape(entries[slice_key], slice_key):
      raise errors.DataLossError(None, None, "Slice %s does not fit %s of shape %s"
                                 % (slice_proto, _tensor_name(key), full.shape))
    full[index] = _read_value(files, entries[slice_key], slice_key)
    filled[index] = True
  if not filled.all():
    raise errors.DataLossError(None, None, "The slices of %s do not cover it"
                               % _tensor_name(key))
  return full


def is_bundle(prefix):
  """Whether `prefix`.index exists and is a TF bundle index (a table with TF's magic)."""
  try:
    with open(_index_path(prefix), "rb") as f:
      f.seek(0, os.SEEK_END)
      if f.tell() < _FOOTER_SIZE:
        return False
      f.seek(-8, os.SEEK_END)
      return struct.unpack("<Q", f.read(8))[0] == _MAGIC
  except OSError:
    return False


def read_entries(prefix):
  """{tensor name: (NumPy dtype, shape)} of every tensor of the checkpoint `prefix`
  (partitioned tensors with their full shape; dtype None for dtypes NumPy lacks, such as
  variant)."""
  _, entries = _read_index(prefix)
  slice_keys = _slice_keys(entries)
  return {_tensor_name(key): (_numpy_dtype(entry), _shape(entry, key))
          for key, entry in entries.items() if key not in slice_keys}


def read(prefix, keys=None):
  """{name: NumPy array} of the tensors `keys` (all when None) of the checkpoint `prefix`.

  Partitioned tensors come joined; string tensors as object arrays of bytes."""
  num_shards, entries = _read_index(prefix)
  if keys is None:
    slice_keys = _slice_keys(entries)
    keys = [_tensor_name(key) for key in entries if key not in slice_keys]
  files = _DataFiles(prefix, num_shards)
  try:
    arrays = {}
    for name in keys:
      key = _key(name)
      entry = entries.get(key)
      if entry is None:
        raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % name)
      if entry.slices:
        arrays[name] = _read_partitioned(files, entries, entry, key)
      else:
        arrays[name] = _read_value(files, entry, key)
    return arrays
  finally:
    files.close()


# ---- Writing. ----

def _tensor_bytes(name, value):
  """(TF dtype, shape, the bytes to store, their masked CRC32C) of one array."""
  array = np.asarray(value)
  if array.dtype.kind in "OSU":
    if not all(isinstance(e, (bytes, str)) for e in array.flat):
      raise errors.InvalidArgumentError(None, None, "Cannot save %s: an object array must "
                                        "hold only bytes or str" % name)
    elements = [e.encode("utf-8") if isinstance(e, str) else e for e in array.flat]
    crc_input = b"".join(struct.pack("<I" if len(e) <= 0xffffffff else "<Q", len(e))
                         for e in elements)
    length_crc = struct.pack("<I", masked_crc32c(crc_input))
    data = b"".join(_varint(len(e)) for e in elements) + length_crc + b"".join(elements)
    crc = masked_crc32c(b"".join(elements), google_crc32c.value(crc_input + length_crc))
    return _STRING, array.shape, data, crc
  tf_dtype = _TF_DTYPES.get(array.dtype.newbyteorder("="))
  if tf_dtype is None:
    raise errors.InvalidArgumentError(None, None, "Cannot save %s: unsupported dtype %s"
                                      % (name, array.dtype))
  data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
  return tf_dtype, array.shape, data, masked_crc32c(data)


def _write_atomically(path, data):
  temporary = "%s.tempstate%s" % (path, uuid.uuid4().hex)
  with open(temporary, "wb") as f:
    f.write(data)
  os.replace(temporary, path)


def write(prefix, arrays):
  """Writes {name: array} as the TF checkpoint `prefix` (one data file, then the index)."""
  data, entries = bytearray(), []
  for name in sorted(arrays, key=_key):
    if not name:
      raise errors.InvalidArgumentError(None, None, "A tensor name cannot be empty")
    tf_dtype, shape, tensor_bytes, crc = _tensor_bytes(name, arrays[name])
    entry = tensor_bundle_pb2.BundleEntryProto(
        dtype=tf_dtype, shard_id=0, offset=len(data), size=len(tensor_bytes), crc32c=crc)
    entry.shape.SetInParent()  # set even for a scalar, as TF's writer does
    for size in shape:
      entry.shape.dim.add(size=size)
    entries.append((_key(name), entry.SerializeToString()))
    data += tensor_bytes
  header = tensor_bundle_pb2.BundleHeaderProto(
      num_shards=1, endianness=tensor_bundle_pb2.BundleHeaderProto.LITTLE)
  header.version.producer = _FORMAT_VERSION
  directory = os.path.dirname(prefix)
  if directory:
    os.makedirs(directory, exist_ok=True)
  _write_atomically(_data_path(prefix, 0, 1), bytes(data))
  _write_atomically(_index_path(prefix),
                    _build_table([(_HEADER_KEY, header.SerializeToString())] + entries))
