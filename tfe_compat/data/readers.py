"""File-reading datasets: `tf.data.TextLineDataset`, `FixedLengthRecordDataset`,
`TFRecordDataset`. Records are string scalars (NumPy object arrays of bytes)."""
import os

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.data import dataset_ops
from tfe_compat.data import structure
from tfe_compat.data import tfrecord
from tfe_compat.data import map_ops
from tfe_compat.data import transformations

_STRING_SPEC = structure.TensorSpec([], dtypes.string)


def _filenames(filenames):
  """A function listing the file names (str) given as a string, list, Tensor or Dataset."""
  if isinstance(filenames, dataset_ops.Dataset):
    spec = filenames.element_spec
    if not isinstance(spec, structure.TensorSpec) or spec.dtype is not dtypes.string:
      raise TypeError("`filenames` must be a `tf.data.Dataset` of `tf.string` elements.")
    return lambda: (os.fsdecode(np.asarray(structure.checked(e)).item())
                    for e in filenames._make_iter())
  names = structure.to_numpy(filenames)
  if names.dtype != object:
    raise TypeError("`filenames` must be a `tf.Tensor` of `tf.string`.")
  if names.ndim > 1:
    raise TypeError("`filenames` must be a scalar or vector.")
  listed = [os.fsdecode(n) for n in names.ravel()]
  return lambda: iter(listed)


def _scalar(record):
  out = np.empty((), dtype=object)
  out[()] = record
  return out


class _FileDataset(dataset_ops.Dataset):
  def __init__(self, filenames):
    self._filenames = _filenames(filenames)

  def _compute_spec(self):
    return _STRING_SPEC

  def _make_iter(self):
    for name in self._filenames():
      for record in self._records(name):
        yield _scalar(record)


@export("data.TextLineDataset")
class TextLineDataset(_FileDataset):
  """The lines of text files, without the line ending ("\\n" or "\\r\\n")."""

  def __init__(self, filenames, compression_type=None, buffer_size=None):
    super().__init__(filenames)
    self._compression = tfrecord.compression_name(compression_type)

  def _records(self, name):
    f = tfrecord.open_records(name, self._compression)
    pending = b""
    try:
      while True:
        block = f.read(1 << 16)
        if not block:
          break
        lines = (pending + block).split(b"\n")
        pending = lines.pop()
        for line in lines:
          yield line[:-1] if line.endswith(b"\r") else line
      if pending:
        yield pending[:-1] if pending.endswith(b"\r") else pending
    finally:
      f.close()


@export("data.FixedLengthRecordDataset")
class FixedLengthRecordDataset(_FileDataset):
  """Records of `record_bytes` bytes between `header_bytes` and `footer_bytes` of each file."""

  def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
               buffer_size=None, compression_type=None):
    super().__init__(filenames)
    self._record = dataset_ops._int(record_bytes)
    self._header = dataset_ops._int(header_bytes or 0)
    self._footer = dataset_ops._int(footer_bytes or 0)
    if self._record <= 0:
      raise errors.invalid_argument("record_bytes must be greater than zero.")
    self._compression = tfrecord.compression_name(compression_type)

  def _records(self, name):
    f = tfrecord.open_records(name, self._compression)
    try:
      if self._compression:
        data = b"".join(iter(lambda: f.read(1 << 20), b""))
        end = len(data) - self._footer
        for pos in range(self._header, end - self._record + 1, self._record):
          yield data[pos:pos + self._record]
        return
      body = os.path.getsize(name) - self._footer - self._header
      if body % self._record:
        raise errors.invalid_argument(
            "Excluding the header (%d bytes) and footer (%d bytes), input file \"%s\" has "
            "body length %d bytes, which is not an exact multiple of the record length (%d "
            "bytes)." % (self._header, self._footer, name, body, self._record))
      f.seek(self._header)
      for _ in range(max(body, 0) // self._record):
        yield f.read(self._record)
    finally:
      f.close()


@export("data.TFRecordDataset")
class TFRecordDataset(dataset_ops.Dataset):
  """The records of TFRecord files; `num_parallel_reads` files are read interleaved."""

  def __init__(self, filenames, compression_type=None, buffer_size=None,
               num_parallel_reads=None):
    self._filenames = _filenames(filenames)
    self._compression = tfrecord.compression_name(compression_type)
    self._parallel = None if num_parallel_reads is None else dataset_ops._int(
        num_parallel_reads)

  def _compute_spec(self):
    return _STRING_SPEC

  def _file(self, name):
    return _Records(name, self._compression)

  def _make_iter(self):
    if self._parallel is None or self._parallel == 1:
      return (e for name in self._filenames() for e in self._file(name)._make_iter())
    names = transformations.ListDataset(
        [_scalar(n.encode()) for n in self._filenames()], _STRING_SPEC)
    files = map_ops.Interleave(
        names, lambda name: self._file(name.numpy()), self._parallel, 1, None)
    return files._make_iter()


class _Records(dataset_ops.Dataset):
  def __init__(self, name, compression):
    self._name, self._compression = name, compression
    self._spec = _STRING_SPEC

  def _make_iter(self):
    return (_scalar(r) for r in tfrecord.read_records(self._name, self._compression))
