"""TFRecord files: `tf.python_io.TFRecordWriter`, `tf_record_iterator`, TFRecordOptions.

Each record is framed as: uint64 length, uint32 masked CRC32C of the length bytes, the data,
uint32 masked CRC32C of the data (little endian). GZIP and ZLIB compress the whole stream.
"""
import gzip
import os
import struct
import zlib

import google_crc32c
import numpy as np

from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor

_MASK_DELTA = 0xA282EAD8


def masked_crc32c(data, crc=0):
  """TF's crc32c::Mask of the CRC32C of `data` (bytes, or any NumPy array's bytes),
  extending `crc` (TFRecords and checkpoints checksum their data so)."""
  if not isinstance(data, bytes):  # google_crc32c reads a read-only array without a copy
    data = np.ascontiguousarray(data).reshape(-1).view(np.uint8).view()
    data.flags.writeable = False
  crc = google_crc32c.extend(crc, data)
  return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def frame(record):
  """The bytes of one framed record."""
  header = struct.pack("<Q", len(record))
  return b"".join([header, struct.pack("<I", masked_crc32c(header)), record,
                   struct.pack("<I", masked_crc32c(record))])


@export("python_io.TFRecordCompressionType", "io.TFRecordCompressionType")
class TFRecordCompressionType:
  NONE = 0
  ZLIB = 1
  GZIP = 2


_NAMES = {None: "", "": "", 0: "", 1: "ZLIB", 2: "GZIP", "ZLIB": "ZLIB", "GZIP": "GZIP"}


@export("python_io.TFRecordOptions", "io.TFRecordOptions")
class TFRecordOptions:
  """Options for TFRecord files: `compression_type` ("", "ZLIB", "GZIP" or the enum) and
  `compression_level`; the zlib buffer and strategy settings are accepted and ignored."""

  compression_type_map = {0: "", 1: "ZLIB", 2: "GZIP"}

  def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
               output_buffer_size=None, window_bits=None, compression_level=None,
               compression_method=None, mem_level=None, compression_strategy=None):
    if compression_type not in _NAMES:
      raise ValueError('Unsupported compression type: %s' % (compression_type,))
    self.compression_type = compression_type
    self.compression_level = compression_level
    self.window_bits = window_bits

  @classmethod
  def get_compression_type_string(cls, options):
    if not options:
      return ""
    if isinstance(options, TFRecordOptions):
      return _NAMES[options.compression_type]
    return compression_name(options)


def compression_name(compression_type):
  """"" / "ZLIB" / "GZIP" for a compression type given as a string, enum or Tensor."""
  if isinstance(compression_type, Tensor):
    compression_type = compression_type.numpy()
  if isinstance(compression_type, bytes):
    compression_type = compression_type.decode()
  if isinstance(compression_type, TFRecordOptions):
    return TFRecordOptions.get_compression_type_string(compression_type)
  if compression_type not in _NAMES:
    raise errors.invalid_argument("Unsupported compression type: %s" % (compression_type,))
  return _NAMES[compression_type]


def _path(path):
  if isinstance(path, Tensor):
    path = path.numpy()
  return os.fsdecode(path)


class _ZlibReader:
  """A file-like `read(n)` over a zlib-compressed file."""

  def __init__(self, f):
    self._f, self._z, self._buffer = f, zlib.decompressobj(), b""

  def read(self, n):
    while len(self._buffer) < n and not self._z.eof:
      chunk = self._f.read(1 << 16)
      if not chunk:
        break
      self._buffer += self._z.decompress(chunk)
    out, self._buffer = self._buffer[:n], self._buffer[n:]
    return out

  def close(self):
    self._f.close()


def open_records(path, compression_type=""):
  """A binary file-like object over the (decompressed) bytes of a TFRecord file."""
  name = compression_name(compression_type)
  path = _path(path)
  try:
    f = open(path, "rb")
  except FileNotFoundError:
    raise errors.NotFoundError(None, None, "%s; No such file or directory" % path) from None
  if name == "GZIP":
    return gzip.GzipFile(fileobj=f, mode="rb")
  if name == "ZLIB":
    return _ZlibReader(f)
  return f


def _truncated(offset):
  return errors.DataLossError(None, None, "truncated record at %d' failed with Read less "
                              "bytes than requested" % offset)


def read_records(path, compression_type="", buffer_size=None):
  """Yields the records of a TFRecord file as bytes; DataLossError on a bad checksum or a
  record whose data is cut short (TF 2.21's "truncated record")."""
  f = open_records(path, compression_type)
  offset = 0
  try:
    while True:
      header = f.read(12)
      if not header:
        return
      if len(header) < 12:
        return  # TF 2.21 ends quietly in a cut header, and refuses a cut body
      length, length_crc = struct.unpack("<QI", header)
      if masked_crc32c(header[:8]) != length_crc:
        raise errors.DataLossError(None, None, "corrupted record at %d%s" % (
            offset, " (Is this even a TFRecord file?)" if offset == 0 else ""))
      body = f.read(length + 4)
      if len(body) < length + 4:
        raise _truncated(offset)
      record = body[:length]
      if masked_crc32c(record) != struct.unpack("<I", body[length:])[0]:
        raise errors.DataLossError(None, None, "corrupted record at %d" % offset)
      offset += 16 + length
      yield record
  finally:
    f.close()


@export("python_io.tf_record_iterator", "io.tf_record_iterator")
def tf_record_iterator(path, options=None):
  """Yields the records of the TFRecord file at `path` (bytes)."""
  return read_records(path, TFRecordOptions.get_compression_type_string(options))


@export("python_io.TFRecordWriter", "io.TFRecordWriter")
class TFRecordWriter:
  """Writes records (bytes, str or a serialized proto) to a TFRecord file."""

  def __init__(self, path, options=None):
    name = TFRecordOptions.get_compression_type_string(options)
    level = getattr(options, "compression_level", None)
    level = 6 if level is None or level < 0 else level
    path = _path(path)
    try:
      raw = open(path, "wb")
    except FileNotFoundError:
      raise errors.NotFoundError(None, None, "%s; No such file or directory" % path) from None
    self._file = raw
    self._z = None  # TF's zlib stream: gzip's header as zlib writes it (the bytes TF writes)
    if name:
      self._z = zlib.compressobj(level, zlib.DEFLATED, 31 if name == "GZIP" else 15)

  def write(self, record):
    if isinstance(record, Tensor):
      record = record.numpy()
    if isinstance(record, str):
      record = record.encode()
    if isinstance(record, np.ndarray):
      record = record.item()
    data = frame(bytes(record))
    self._file.write(self._z.compress(data) if self._z is not None else data)

  def flush(self):
    if self._z is not None:
      self._file.write(self._z.flush(zlib.Z_SYNC_FLUSH))
    self._file.flush()

  def close(self):
    if self._file is None:
      return
    if self._z is not None:
      self._file.write(self._z.flush())
    self._file.close()
    self._file = None

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()
