"""CSV files as datasets: `tf.data.experimental.CsvDataset` and `make_csv_dataset`.

Files are parsed as TF's CSVDataset kernel parses them (RFC 4180 quoting, records ending at
"\\n", "\\r" or "\\r\\n", quoted fields spanning lines); fields convert as in `tf.decode_csv`.
"""
import collections
import csv
import glob
import gzip
import os
import re

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.data import dataset_ops
from tfe_compat.data import readers
from tfe_compat.data import structure
from tfe_compat.data import tfrecord
from tfe_compat.data import map_ops
from tfe_compat.ops import csv_ops

_OP = "CSVDataset"
_QUOTE_INSIDE = "Quote inside a string has to be escaped by another quote"
_UNCLOSED = "Reached end of file without closing quoted field in record"
_UNQUOTED = "Unquoted fields cannot have quotes inside"


# ---- parsing a file's bytes into records ----
def _fast_records(data, delim, select):
  """Records of a file without quoted fields: lists of (field, None)."""
  lines = re.split(rb"\r\n|\r|\n", data)
  if lines[-1] == b"":
    lines.pop()
  for line in lines:
    fields = line.split(delim)
    if select is not None:
      fields = [fields[i] for i in select if i < len(fields)]
    yield [(f, None) for f in fields]


def _quoted(data, pos, delim, n):
  """(field or None, next pos, end of record, error) for the quoted field at `pos`."""
  start, i, error = pos + 1, pos + 1, None
  while True:
    j = data.find(b'"', i)
    if j < 0:
      return None, n, False, _UNCLOSED
    field = None if error else data[start:j].replace(b'""', b'"')
    if j + 1 >= n:
      return field, n, True, error
    nxt = data[j + 1:j + 2]
    if nxt == delim:
      return field, j + 2, False, error
    if nxt in (b"\n", b"\r"):
      end = j + 3 if nxt == b"\r" and data[j + 2:j + 3] == b"\n" else j + 2
      return field, end, True, error
    if nxt != b'"':
      error = error or _QUOTE_INSIDE
    i = j + 2


def _slow_records(data, delim, quote, select, header):
  """Records as lists of (field or None when not selected / unusable, parse error)."""
  stop = re.compile(b"[" + re.escape(delim) + b"\r\n]")
  n, pos, first = len(data), 0, True
  while pos < n:
    items, parsed, selected, end = [], 0, 0, False
    while not end:
      include = not (first and header) and (select is None or (
          selected < len(select) and select[selected] == parsed))
      if pos >= n:
        field, error, end = b"", None, True
      elif quote and data[pos] == 34:
        field, pos, end, error = _quoted(data, pos, delim, n)
      else:
        match = stop.search(data, pos)
        cut = n if match is None else match.start()
        field = data[pos:cut]
        error = _UNQUOTED if quote and b'"' in field else None
        if match is None or data[cut:cut + 1] != delim:
          end = True
          skip = 2 if data[cut:cut + 2] == b"\r\n" else 1
        else:
          skip = 1
        pos = cut + skip
      items.append((field if include else None, error))
      parsed += 1
      selected += include
    if first and header:
      if any(e for _, e in items):
        raise errors.invalid_argument("Can't read header of file")
    else:
      yield items
    first = False
  if first and header:
    raise errors.invalid_argument("Can't read header of file")


def _records(data, delim, quote, select, header):
  if quote and b'"' in data:
    return _slow_records(data, delim, quote, select, header)
  if header:
    if not data:
      raise errors.invalid_argument("Can't read header of file")
    match = re.search(rb"\r\n|\r|\n", data)
    data = b"" if match is None else data[match.end():]
  return _fast_records(data, delim, select)


def _convert(items, columns, convert):
  """The values of one record, or TF's first error for it (as an InvalidArgumentError)."""
  error, values = None, []
  for field, parse_error in items:
    error = error or parse_error
    if field is None:
      continue
    if len(values) >= len(columns):
      error = error or "Expect %d fields but have more in record" % len(columns)
      continue
    try:
      values.append(convert(len(values), field))
    except errors.InvalidArgumentError as e:
      values.append(None)
      error = error or e.message
  if error is None and len(values) != len(columns):
    error = "Expect %d fields but have %d in record" % (len(columns), len(values))
  if error is not None:
    raise errors.invalid_argument(error)
  return values


# ---- datasets ----
@export("data.experimental.CsvDataset", "contrib.data.CsvDataset")
class CsvDataset(dataset_ops.Dataset):
  """The records of CSV files, one tuple of scalars per record (one per selected column)."""

  def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
               header=False, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None):
    self._filenames = readers._filenames(filenames)
    self._compression = tfrecord.compression_name(compression_type)
    defaults = [Tensor(np.zeros([0], dtypes.as_dtype(d).as_numpy_dtype if d != dtypes.string
                                else object))
                if isinstance(d, dtypes.DType) else d for d in record_defaults]
    tensors = csv_ops.column_defaults(defaults, "output_types", _OP)
    self._columns = csv_ops.check_defaults(tensors, _OP)
    if buffer_size is not None and dataset_ops._int(buffer_size) <= 0:
      raise errors.invalid_argument("buffer_size should be positive [Op:%s]" % _OP)
    self._delim = csv_ops.delimiter(_value(field_delim), _OP)
    select = [] if select_cols is None else [int(c) for c in np.asarray(
        structure.to_numpy(select_cols)).reshape(-1)]
    if select and len(select) != len(self._columns):
      raise errors.invalid_argument("select_cols should match output size [Op:%s]" % _OP)
    if any(a >= b for a, b in zip(select, select[1:])):
      raise errors.invalid_argument("select_cols should be strictly increasing indices "
                                    "[Op:%s]" % _OP)
    if select and select[0] < 0:
      raise errors.invalid_argument("select_cols should be non-negative indices [Op:%s]" % _OP)
    self._select = select or None
    self._header, self._quote = bool(_value(header)), bool(_value(use_quote_delim))
    na_value = _value(na_value)
    self._na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    self._skip_errors = False

  def _compute_spec(self):
    return tuple(structure.TensorSpec([], dtype) for dtype, _ in self._columns)

  def _make_iter(self):
    for name in self._filenames():
      f = tfrecord.open_records(name, self._compression)
      try:
        data = f.read()
      except (OSError, EOFError) as e:
        raise errors.DataLossError(None, None, str(e)) from None
      finally:
        f.close()
      yield from self._file_elements(data)

  def _file_elements(self, data):
    convert = csv_ops.converter(self._columns, self._na, "record")
    np_types = [object if d is dtypes.string else d.as_numpy_dtype for d, _ in self._columns]
    for items in _records(data, self._delim, self._quote, self._select, self._header):
      try:
        values = _convert(items, self._columns, convert)
      except errors.InvalidArgumentError:
        if self._skip_errors:
          continue
        raise
      with np.errstate(over="ignore"):
        yield tuple(readers._scalar(v) if t is object else np.asarray(v, t)
                    for v, t in zip(values, np_types))


def _value(x):
  if isinstance(x, Tensor):
    x = np.asarray(x._value, dtype=object if x.dtype is dtypes.string else None)
    return x.item() if x.ndim == 0 else x
  return x


class _CsvFiles(dataset_ops.Dataset):
  """The records of each file name given by `names`, `cycle` files interleaved."""

  def __init__(self, names, make_dataset, cycle, spec):
    self._names, self._make, self._cycle, self._spec = names, make_dataset, cycle, spec

  def _make_iter(self):
    if self._cycle == 1:
      return (e for name in self._names._make_iter() for e in self._make(name)._make_iter())
    return map_ops.Interleave(self._names, self._make, self._cycle, 1,
                                      None)._make_iter()


class _Features(dataset_ops.Dataset):
  """Batches of column tuples as OrderedDicts of features (and the label column)."""

  def __init__(self, dataset, names, label_name):
    self._input, self._names, self._label = dataset, names, label_name

  def _structure(self, columns):
    features = collections.OrderedDict(zip(self._names, columns))
    if self._label is None:
      return features
    label = features.pop(self._label)
    return features, label

  def _compute_spec(self):
    return self._structure(self._input.element_spec)

  def _make_iter(self):
    return (self._structure(columns) for columns in self._input._make_iter())


# ---- make_csv_dataset: column names and types from the files, as TF's Python code does ----
def _file_names(file_pattern):
  if isinstance(file_pattern, list):
    if not file_pattern:
      raise ValueError("File pattern is empty.")
    names = [n for entry in file_pattern for n in glob.glob(os.fsdecode(entry))]
  else:
    names = glob.glob(os.fsdecode(_value(file_pattern)))
  if not names:
    raise ValueError("No files match %s." % file_pattern)
  return sorted(names)


def _csv_kwargs(field_delim, use_quote_delim):
  return {"delimiter": field_delim,
          "quoting": csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE}


def _infer_column_names(filenames, kwargs, open_text):
  with open_text(filenames[0]) as f:
    try:
      names = next(csv.reader(f, **kwargs))
    except StopIteration:
      raise ValueError("Received StopIteration when reading the header line of %s.  Empty "
                       "file?" % filenames[0]) from None
  for name in filenames[1:]:
    with open_text(name) as f:
      try:
        if next(csv.reader(f, **kwargs)) != names:
          raise ValueError("Files have different column names in the header row.")
      except StopIteration:
        raise ValueError("Received StopIteration when reading the header line of %s.  Empty "
                         "file?" % filenames[0]) from None
  return names


def _valid(parse, text):
  try:
    with np.errstate(over="ignore"):
      return parse(text)
  except (ValueError, OverflowError):
    return False


_TYPE_TESTS = [
    (dtypes.int32, lambda s: _valid(lambda t: np.int32(t) == np.int64(t), s)),
    (dtypes.int64, lambda s: _valid(lambda t: np.int64(t) is not None, s)),
    (dtypes.float32, lambda s: _valid(lambda t: np.float32(t) < np.inf, s)),
    (dtypes.float64, lambda s: _valid(lambda t: np.float64(t) < np.inf, s)),
    (dtypes.string, lambda s: True),
]


def _infer_type(text, na_value, previous):
  """The least permissive of int32, int64, float32, float64, string that fits `text` and
  all values seen before (TF's rule)."""
  if text in ("", na_value):
    return previous
  allowed = [t for t, _ in _TYPE_TESTS]
  for i, (dtype, test) in enumerate(_TYPE_TESTS):
    if test(text) and (previous is None or previous in allowed[:i + 1]):
      return dtype
  return None


def _infer_column_defaults(filenames, num_cols, kwargs, na_value, header, num_rows,
                           select_columns, open_text):
  select_columns = range(num_cols) if select_columns is None else select_columns
  types = [None] * len(select_columns)
  row = 0
  for name in filenames:
    with open_text(name) as f:
      reader = csv.reader(f, **kwargs)
      if header:
        next(reader)
      for fields in reader:
        if len(fields) != num_cols:
          raise ValueError("Problem inferring types: CSV row has different number of fields "
                           "than expected.")
        if num_rows is not None and row >= num_rows:
          break
        row += 1
        for j, col in enumerate(select_columns):
          types[j] = _infer_type(fields[col], na_value, types[j])
    if num_rows is not None and row >= num_rows:
      break
  types = [t or dtypes.string for t in types]
  return [Tensor(np.array([b""], dtype=object)) if t is dtypes.string
          else Tensor(np.zeros([1], t.as_numpy_dtype)) for t in types]


def _sorted_col_indices(select_columns, column_names):
  names_to_indices = {n: i for i, n in enumerate(column_names)}
  results = []
  for v in select_columns:
    if isinstance(v, int):
      if v < 0 or v >= len(column_names):
        raise ValueError("Column index %d specified in select_columns out of valid range." % v)
      results.append(v)
    elif v not in names_to_indices:
      raise ValueError("Value '%s' specified in select_columns not a valid column index or "
                       "name." % v)
    else:
      results.append(names_to_indices[v])
  results = sorted(set(results))
  if len(results) != len(select_columns):
    raise ValueError("select_columns contains duplicate columns")
  return results


def _text_opener(compression_type):
  if compression_type is None:
    return lambda name: open(name, "r", newline="")
  value = _value(compression_type)
  value = value.decode() if isinstance(value, bytes) else value
  if value == "GZIP":
    return lambda name: gzip.open(name, "rt", newline="")
  if value == "ZLIB":
    raise ValueError("compression_type (%s) is not supported for probing columns"
                     % compression_type)
  if value != "":
    raise ValueError("compression_type (%s) is not supported" % compression_type)
  return lambda name: open(name, "r", newline="")


@export("data.experimental.make_csv_dataset")
def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False):
  """Batches of CSV rows as (OrderedDict of feature columns, label column) or the dict."""
  num_parallel_reads = 1 if num_parallel_reads is None else num_parallel_reads
  if prefetch_buffer_size is None:
    prefetch_buffer_size = dataset_ops.AUTOTUNE
  filenames = _file_names(file_pattern)
  names = dataset_ops.Dataset.from_tensor_slices(
      np.array([os.fsencode(n) for n in filenames], dtype=object))
  if shuffle:
    names = names.shuffle(len(filenames), shuffle_seed)
  open_text = None
  if column_names is None or column_defaults is None:
    open_text = _text_opener(compression_type)
  kwargs = _csv_kwargs(field_delim, use_quote_delim)
  if column_names is None:
    if not header:
      raise ValueError("Cannot infer column names without a header line.")
    column_names = _infer_column_names(filenames, kwargs, open_text)
  if len(column_names) != len(set(column_names)):
    raise ValueError("Cannot have duplicate column names.")
  if select_columns is not None:
    select_columns = _sorted_col_indices(select_columns, column_names)
  if column_defaults is not None:
    column_defaults = list(column_defaults)
  else:
    column_defaults = _infer_column_defaults(filenames, len(column_names), kwargs, na_value,
                                             header, num_rows_for_inference, select_columns,
                                             open_text)
  if select_columns is not None and len(column_defaults) != len(select_columns):
    raise ValueError("If specified, column_defaults and select_columns must have same length.")
  if select_columns is not None and len(column_names) > len(select_columns):
    column_names = [column_names[i] for i in select_columns]
  if label_name is not None and label_name not in column_names:
    raise ValueError("`label_name` provided must be one of the columns.")

  def file_dataset(name):
    dataset = CsvDataset(name, column_defaults, compression_type=compression_type,
                         header=header, field_delim=field_delim,
                         use_quote_delim=use_quote_delim, na_value=na_value,
                         select_cols=select_columns)
    dataset._skip_errors = bool(ignore_errors)
    return dataset

  spec = file_dataset(filenames[0]).element_spec
  cycle = dataset_ops._int(num_parallel_reads)
  if cycle == dataset_ops.AUTOTUNE:
    cycle = os.cpu_count() or 1
  dataset = _CsvFiles(names, file_dataset, cycle, spec)
  if shuffle:
    dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
  if num_epochs != 1:
    dataset = dataset.repeat(num_epochs)
  dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
  dataset = _Features(dataset, column_names, label_name)
  return dataset.prefetch(prefetch_buffer_size)


@export("contrib.data.make_csv_dataset")
def contrib_make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                             label_name=None, select_columns=None, field_delim=",",
                             use_quote_delim=True, na_value="", header=True, num_epochs=None,
                             shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                             prefetch_buffer_size=dataset_ops.AUTOTUNE, num_parallel_reads=1,
                             sloppy=False, num_rows_for_inference=100):
  """`tf.contrib.data.make_csv_dataset` (deprecated): `make_csv_dataset` with contrib's
  defaults."""
  return make_csv_dataset(file_pattern, batch_size, column_names, column_defaults, label_name,
                          select_columns, field_delim, use_quote_delim, na_value, header,
                          num_epochs, shuffle, shuffle_buffer_size, shuffle_seed,
                          prefetch_buffer_size, num_parallel_reads, sloppy,
                          num_rows_for_inference)
