"""Readers and writers of `tf.data.experimental`: `TFRecordWriter`, `SqlDataset` (sqlite),
`parse_example_dataset`, `make_batched_features_dataset` (and contrib's
`read_batch_features`)."""
import os
import sqlite3

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.data import dataset_ops
from tfe_compat.data import example_parsing
from tfe_compat.data import readers
from tfe_compat.data import structure
from tfe_compat.data import tfrecord

Dataset = dataset_ops.Dataset
Failure = structure.Failure


@export("data.experimental.TFRecordWriter", "contrib.data.TFRecordWriter")
class TFRecordWriter:
  """Writes a dataset of string scalars to a TFRecord file (the bytes TF writes)."""

  def __init__(self, filename, compression_type=None):
    self._filename = os.fsdecode(structure.to_numpy(filename, dtypes.string).item())
    self._compression = tfrecord.compression_name(
        "" if compression_type is None else compression_type)

  def write(self, dataset):
    if not isinstance(dataset, Dataset):
      raise TypeError("Invalid `dataset.` Expected a `tf.data.Dataset` object but got %s."
                      % type(dataset))
    spec = dataset.element_spec
    if not (isinstance(spec, structure.TensorSpec) and spec.dtype is dtypes.string
            and spec.shape.is_compatible_with([])):
      raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` "
                      "elements, but got a dataset which produces elements with shapes %s "
                      "and types %s." % (dataset.output_shapes, dataset.output_types))
    options = tfrecord.TFRecordOptions(self._compression or None)
    with tfrecord.TFRecordWriter(self._filename, options) as writer:
      for element in dataset._make_iter():
        writer.write(np.asarray(structure.checked(element)).item())


# ---- SqlDataset ----
_SQL_TYPES = (dtypes.string, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
              dtypes.uint8, dtypes.uint16, dtypes.bool, dtypes.float64)


class _SqliteValues:
  """Column values read as sqlite3's C API reads them for a requested type (text of numbers,
  numbers of text, 0 / "" for NULL)."""

  def __init__(self):
    self._casts = sqlite3.connect(":memory:", check_same_thread=False)

  def _cast(self, value, kind):
    return self._casts.execute("SELECT CAST(? AS %s)" % kind, (value,)).fetchone()[0]

  def convert(self, value, dtype):
    if dtype is dtypes.string:
      if value is None:
        return b""
      if isinstance(value, str):
        return value.encode()
      return value if isinstance(value, bytes) else self._cast(value, "TEXT").encode()
    if dtype is dtypes.float64:
      if value is None:
        return 0.0
      return float(value) if isinstance(value, (int, float)) else float(self._cast(value, "REAL"))
    number = 0 if value is None else value if isinstance(value, int) else int(
        self._cast(value, "INTEGER"))
    if dtype is dtypes.bool:
      return number != 0
    return np.array(number, np.int64).astype(dtype.as_numpy_dtype)


@export("data.experimental.SqlDataset", "contrib.data.SqlDataset")
class SqlDataset(Dataset):
  """The rows of an SQL query on a sqlite database, one element per row (its columns as
  `output_types`)."""

  def __init__(self, driver_name, data_source_name, query, output_types):
    self._driver = os.fsdecode(structure.to_numpy(driver_name, dtypes.string).item())
    self._source = os.fsdecode(structure.to_numpy(data_source_name, dtypes.string).item())
    self._query = structure.to_numpy(query, dtypes.string).item().decode()
    self._types = structure.map_structure(dtypes.as_dtype,
                                          structure.normalize_types(output_types))
    if any(t not in _SQL_TYPES for t in structure.flatten(self._types)):
      raise errors.invalid_argument(
          "Each element of `output_types_` must be one of: DT_STRING, DT_INT8, DT_INT16, "
          "DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_BOOL, DT_DOUBLE ")
    if self._driver != "sqlite":
      raise errors.invalid_argument(
          "The database type, %s, is not supported by SqlDataset. The set of supported "
          "databases is: {'sqlite'}." % self._driver)
    self._spec = structure.map_structure(lambda t: structure.TensorSpec([], t), self._types)

  def _make_iter(self):
    types = structure.flatten(self._types)
    connection = sqlite3.connect(self._source, check_same_thread=False)
    try:
      try:
        cursor = connection.execute(self._query)
      except sqlite3.Error as error:
        yield Failure(errors.UnknownError(None, None, "Prepare() failed: [%d] %s: %s" % (
            getattr(error, "sqlite_errorcode", 1), error, self._query)))
        return
      columns = len(cursor.description or ())
      if columns != len(types):
        yield Failure(errors.invalid_argument(
            "The number of columns in query (%d) must match the number of elements in "
            "output_types (%d)." % (columns, len(types))))
        return
      values = _SqliteValues()
      for row in cursor:
        leaves = [values.convert(v, t) for v, t in zip(row, types)]
        yield structure.pack_as(self._types, [_scalar(v, t) for v, t in zip(leaves, types)])
    finally:
      connection.close()


def _scalar(value, dtype):
  if dtype is dtypes.string:
    return readers._scalar(value)
  return np.array(value, dtype.as_numpy_dtype)


# ---- tf.train.Example datasets ----
def _feature_spec(config, batch):
  shape = tensor_shape.TensorShape([batch])
  if isinstance(config, example_parsing.VarLenFeature):
    return structure.SparseTensorSpec([batch, None], config.dtype)
  if isinstance(config, example_parsing.SparseFeature):
    size = config.size if isinstance(config.size, (list, tuple)) else [config.size]
    return structure.SparseTensorSpec(shape.concatenate(size), config.dtype)
  if isinstance(config, example_parsing.FixedLenSequenceFeature):
    shape = shape.concatenate([None])
  return structure.TensorSpec(shape.concatenate(config.shape), config.dtype)


def _is_sparse(config):
  return isinstance(config, (example_parsing.VarLenFeature, example_parsing.SparseFeature))


class _PerElement(Dataset):
  """A dataset of `self._apply(element)` for each element of `self._input` (Failures pass
  through)."""

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    for element in self._input._make_iter():
      yield element if type(element) is Failure else self._apply(element)


class _ParseExamples(_PerElement):
  """Vectors of serialized Examples parsed into dicts of batched features (SparseTensors
  first, then dense features, each sorted by key, as TF orders them)."""

  def __init__(self, dataset, features):
    spec = dataset.element_spec
    if not (isinstance(spec, structure.TensorSpec) and spec.dtype is dtypes.string
            and spec.shape.is_compatible_with([None])):
      raise TypeError("Input dataset should be a dataset of vectors of strings. Instead it is "
                      "`%s`." % (spec,))
    self._input, self._features = dataset, dict(features)
    keys = sorted(k for k, c in features.items() if _is_sparse(c)) + sorted(
        k for k, c in features.items() if not _is_sparse(c))
    batch = tensor_shape.dimension_value(spec.shape[0]) if spec.shape.ndims else None
    self._spec = {k: _feature_spec(features[k], batch) for k in keys}

  def _apply(self, element):
    try:
      parsed = example_parsing.parse_example(Tensor(np.asarray(element)), self._features)
    except errors.OpError as error:
      return Failure(error)
    return {key: structure.to_numpy(parsed[key]) for key in self._spec}


@export("data.experimental.parse_example_dataset", "contrib.data.parse_example_dataset")
def parse_example_dataset(features, num_parallel_calls=1):
  """Parses a dataset of vectors of serialized `tf.train.Example`s into dicts of features
  (`tf.io.parse_example`'s results)."""
  if features is None:
    raise ValueError("Argument `features` is required, but not specified.")
  return lambda dataset: _ParseExamples(dataset, features)


class _SplitLabel(_PerElement):
  """(features without `key`, the `key` feature) from dicts of features."""

  def __init__(self, dataset, key):
    self._input, self._key = dataset, key

  def _compute_spec(self):
    spec = dict(self._input.element_spec)
    return spec, spec.pop(self._key)

  def _apply(self, element):
    features = dict(element)
    return features, features.pop(self._key)


@export("data.experimental.make_batched_features_dataset",
        "contrib.data.make_batched_features_dataset")
def make_batched_features_dataset(file_pattern, batch_size, features, reader=None,
                                  label_key=None, reader_args=None, num_epochs=None,
                                  shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False,
                                  drop_final_batch=False):
  """Batches of parsed `tf.train.Example`s read from the files matching `file_pattern`:
  dicts of features, or (features, label) with `label_key` (TF's pipeline: list_files,
  interleaved readers, shuffle/repeat, batch, parse, prefetch)."""
  reader = readers.TFRecordDataset if reader is None else reader
  reader_args = [] if reader_args is None else reader_args
  cycle = 1 if reader_num_threads is None else reader_num_threads
  dataset = Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
  dataset = dataset.interleave(lambda filename: reader(filename, *reader_args), cycle)
  if dataset.output_types == (dtypes.string, dtypes.string):
    dataset = dataset.map(lambda _, value: value)
  if shuffle:
    dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
  if num_epochs != 1:
    dataset = dataset.repeat(num_epochs)
  dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
  dataset = dataset.apply(parse_example_dataset(features, parser_num_threads or 2))
  if label_key:
    if label_key not in features:
      raise ValueError("The `label_key` provided (%s) must be one of the `features` keys: %s."
                       % (label_key, features.keys()))
    dataset = _SplitLabel(dataset, label_key)
  return dataset.prefetch(dataset_ops.AUTOTUNE if prefetch_buffer_size is None
                          else prefetch_buffer_size)


@export("contrib.data.read_batch_features")
def read_batch_features(file_pattern, batch_size, features, reader=None, reader_args=None,
                        randomize_input=True, num_epochs=None, capacity=10000):
  """The first batch of `make_batched_features_dataset` (contrib's one-shot iterator's
  `get_next()`, evaluated eagerly)."""
  dataset = make_batched_features_dataset(file_pattern, batch_size, features, reader=reader,
                                          reader_args=reader_args, shuffle=randomize_input,
                                          num_epochs=num_epochs, shuffle_buffer_size=capacity)
  return iter(dataset).get_next()


@export("contrib.data.LMDBDataset")
class LMDBDataset(Dataset):
  def __init__(self, filenames):
    raise NotImplementedError("tf.contrib.data.LMDBDataset is not supported by tfe_compat "
                              "(it needs TensorFlow's LMDB reader).")
