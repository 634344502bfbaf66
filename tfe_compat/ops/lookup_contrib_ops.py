"""`tf.contrib.lookup`'s vocabulary tables: `index_table_from_file` / `_from_tensor`, their
inverses `index_to_string_table_from_*`, and the deprecated `index_to_string` and
`string_to_index` (all StaticHashTables of lookup_ops, with out-of-vocabulary buckets)."""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.ops.lookup_ops import FastHashSpec
from tfe_compat.ops.lookup_ops import IdTableWithHashBuckets
from tfe_compat.ops.lookup_ops import KeyValueTensorInitializer
from tfe_compat.ops.lookup_ops import StaticHashTable
from tfe_compat.ops.lookup_ops import TextFileIdTableInitializer
from tfe_compat.ops.lookup_ops import TextFileIndex
from tfe_compat.ops.lookup_ops import TextFileStringTableInitializer
from tfe_compat.ops.lookup_ops import host
from tfe_compat.ops.lookup_ops import host_tensor


def _check_vocabulary_file(vocabulary_file):
  if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
    raise ValueError("vocabulary_file must be specified and must not be empty.")


def _check_num_oov_buckets(num_oov_buckets):
  if num_oov_buckets < 0:
    raise ValueError("num_oov_buckets must be greater or equal than 0, got %d."
                     % num_oov_buckets)


def _id_key_dtype(key_dtype):
  """The DType of an id table's keys: integer or string, else TypeError."""
  key_dtype = dtypes.as_dtype(key_dtype)
  if not key_dtype.is_integer and key_dtype != dtypes.string:
    raise TypeError("Only integer and string keys are supported.")
  return key_dtype


def _id_table(init, default_value, num_oov_buckets, hasher_spec, key_dtype):
  """The StaticHashTable of `init`, behind `num_oov_buckets` hash buckets if any."""
  table = StaticHashTable(init, default_value)
  if num_oov_buckets:
    table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets,
                                   hasher_spec=hasher_spec, key_dtype=key_dtype)
  return table


@export("contrib.lookup.index_table_from_file")
def index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None,
                          default_value=-1, hasher_spec=FastHashSpec, key_dtype=dtypes.string,
                          name=None, key_column_index=TextFileIndex.WHOLE_LINE,
                          value_column_index=TextFileIndex.LINE_NUMBER, delimiter="\t"):
  """A table from the lines of `vocabulary_file` to their line numbers (int64)."""
  _check_vocabulary_file(vocabulary_file)
  _check_num_oov_buckets(num_oov_buckets)
  if vocab_size is not None and vocab_size < 1:
    raise ValueError("vocab_size must be greater than 0, got %d. vocabulary_file: %s"
                     % (vocab_size, vocabulary_file))
  key_dtype = _id_key_dtype(key_dtype)
  init = TextFileIdTableInitializer(
      vocabulary_file, vocab_size=vocab_size, name="table_init",
      key_dtype=dtypes.int64 if key_dtype.is_integer else key_dtype,
      key_column_index=key_column_index, value_column_index=value_column_index,
      delimiter=delimiter)
  return _id_table(init, default_value, num_oov_buckets, hasher_spec, key_dtype)


@export("contrib.lookup.index_table_from_tensor")
def index_table_from_tensor(vocabulary_list, num_oov_buckets=0, default_value=-1,
                            hasher_spec=FastHashSpec, dtype=dtypes.string, name=None):
  """A table from the entries of `vocabulary_list` to their positions (int64)."""
  if vocabulary_list is None:
    raise ValueError("vocabulary_list must be specified.")
  _check_num_oov_buckets(num_oov_buckets)
  dtype = _id_key_dtype(dtype)
  keys = convert_to_tensor(vocabulary_list)
  if keys.dtype.is_integer != dtype.is_integer:
    raise ValueError("Expected %s, got %s."
                     % ("integer" if dtype.is_integer else "non-integer", keys.dtype))
  if not dtype.is_integer and keys.dtype.base_dtype != dtype:
    raise ValueError("Expected %s, got %s." % (dtype, keys.dtype))
  raw = host(keys, "index_table_from_tensor")
  if keys.dtype.is_integer:
    raw = raw.astype(np.int64)
  init = KeyValueTensorInitializer(
      host_tensor(raw, dtypes.int64 if keys.dtype.is_integer else keys.dtype),
      host_tensor(np.arange(raw.size), dtypes.int64), name="table_init")
  return _id_table(init, default_value, num_oov_buckets, hasher_spec, dtype)


@export("contrib.lookup.index_to_string_table_from_file")
def index_to_string_table_from_file(vocabulary_file, vocab_size=None, default_value="UNK",
                                    name=None, key_column_index=TextFileIndex.LINE_NUMBER,
                                    value_column_index=TextFileIndex.WHOLE_LINE, delimiter="\t"):
  """A table from int64 line numbers to the lines of `vocabulary_file`."""
  _check_vocabulary_file(vocabulary_file)
  if vocab_size is not None and vocab_size < 1:
    raise ValueError("vocab_size must be greater than 0, got %d." % vocab_size)
  init = TextFileStringTableInitializer(
      vocabulary_file, vocab_size=vocab_size, name="table_init",
      key_column_index=key_column_index, value_column_index=value_column_index,
      delimiter=delimiter)
  return StaticHashTable(init, default_value)


@export("contrib.lookup.index_to_string_table_from_tensor")
def index_to_string_table_from_tensor(vocabulary_list, default_value="UNK", name=None):
  """A table from int64 positions to the strings of `vocabulary_list`."""
  if vocabulary_list is None:
    raise ValueError("vocabulary_list must be specified.")
  vocabulary = host(convert_to_tensor(vocabulary_list, dtypes.string), "index_to_string")
  init = KeyValueTensorInitializer(host_tensor(np.arange(vocabulary.size), dtypes.int64),
                                   host_tensor(vocabulary, dtypes.string), name="table_init")
  return StaticHashTable(init, default_value)


@export("contrib.lookup.index_to_string")
def index_to_string(tensor, mapping, default_value="UNK", name=None):
  """The strings of `mapping` at the int64 indices `tensor` (deprecated TF 1.x helper)."""
  table = index_to_string_table_from_tensor(mapping, default_value=default_value)
  return table.lookup(tensor)


@export("contrib.lookup.string_to_index")
def string_to_index(tensor, mapping, default_value=-1, name=None):
  """The positions in `mapping` of the strings `tensor` (deprecated TF 1.x helper)."""
  table = index_table_from_tensor(mapping, default_value=default_value)
  return table.lookup(tensor)
