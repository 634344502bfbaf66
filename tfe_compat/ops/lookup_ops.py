"""`tf.lookup` and `tf.contrib.lookup` (TF 1.15): static tables, hashing.

Tables are initialized when they are created, as TF's are when executing eagerly, so
`tf.tables_initializer()` is TF's eager no-op (None). A static table keeps its keys sorted:
numeric keys with numeric values are found by `searchsorted` in one @op (trace-safe, so
such lookups also compile inside tf.function); string keys or values run on the host over
the NumPy object arrays behind string Tensors, as the other string ops do.
Out-of-vocabulary buckets use TF's Fingerprint64 (string_hash_ops), bit-exact.
The mutable tables live in lookup_mutable_ops, the vocabulary tables in lookup_contrib_ops.
"""
import collections

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.framework.trackable import Trackable
from tfe_compat.ops import gfile
from tfe_compat.ops import string_hash_ops
from tfe_compat.ops.string_ops import SparseTensor

_KEY_DTYPES = (dtypes.string, dtypes.int32, dtypes.int64)
_VALUE_DTYPES = (dtypes.string, dtypes.bool, dtypes.int32, dtypes.int64, dtypes.float32,
                 dtypes.float64)


# ---- Host helpers ----
def host(tensor, what):
  """The concrete value of `tensor` as NumPy (object arrays for strings)."""
  value = tensor._value
  if isinstance(value, jax.core.Tracer):
    raise NotImplementedError("%s runs on the host over concrete values; tfe_compat cannot "
                              "run it inside tf.function." % what)
  return np.asarray(value)


def as_bytes(values):
  """Each string as is, each integer as its decimal bytes (TF's `as_string`), flattened."""
  if values.dtype == object:
    return [bytes(v) for v in values.ravel().tolist()]
  return [b"%d" % v for v in values.ravel().tolist()]


def hash_buckets(values, num_buckets, hasher_spec=None):
  """int64 bucket ids of NumPy `values` (strings or integers) by `hasher_spec` (FastHashSpec)."""
  strings = as_bytes(values)
  hasher, key = hasher_spec if hasher_spec is not None else FastHashSpec
  if hasher == "fasthash":
    hashes = string_hash_ops.fingerprint64_many(strings)
  elif hasher == "legacy":
    hashes = string_hash_ops.legacy_hash64_many(strings)
  elif hasher == "stronghash":
    hashes = string_hash_ops.siphash24_many(key, strings)
  else:
    raise ValueError("Found unknown hasher %s in `hasher_spec`" % hasher)
  return (hashes % np.uint64(num_buckets)).astype(np.int64).reshape(values.shape)


def host_tensor(array, dtype):
  """A Tensor of NumPy `array` (object arrays stay on the host, as string Tensors do)."""
  if dtype is dtypes.string:
    return Tensor(np.asarray(array, dtype=object))
  return Tensor(device_lib.put(np.asarray(array, dtype=dtype.as_numpy_dtype)))


def _text(value):
  return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


@op(name="LookupTableFindV2", differentiable=False)
def _find(keys, table_keys, table_values, default):
  """Values of `keys` in the sorted `table_keys` (default where absent)."""
  position = jnp.clip(jnp.searchsorted(table_keys, keys), 0, table_keys.shape[0] - 1)
  return jnp.where(table_keys[position] == keys, table_values[position], default)


# ---- Table interface ----
@export("contrib.lookup.LookupInterface")
class LookupInterface(Trackable):
  """A lookup table: `key_dtype`, `value_dtype`, `size()`, `lookup(keys)`."""

  def __init__(self, key_dtype, value_dtype):
    self._key_dtype = dtypes.as_dtype(key_dtype)
    self._value_dtype = dtypes.as_dtype(value_dtype)

  key_dtype = property(lambda self: self._key_dtype)
  value_dtype = property(lambda self: self._value_dtype)
  name = property(lambda self: None)  # eager tables have no op name

  def size(self, name=None):
    raise NotImplementedError

  def lookup(self, keys, name=None):
    raise NotImplementedError

  def __getitem__(self, keys):
    return self.lookup(keys)

  def _check_keys(self, keys):
    if keys.dtype.base_dtype != self._key_dtype:
      raise TypeError("Signature mismatch. Keys must be dtype %s, got %s."
                      % (self._key_dtype, keys.dtype))


def _like(keys, values):
  """`values` in the structure of `keys` (a SparseTensor keeps its indices and shape)."""
  if isinstance(keys, SparseTensor):
    return SparseTensor(keys.indices, values, keys.dense_shape)
  return values


@export("contrib.lookup.InitializableLookupTableBase")
class InitializableLookupTableBase(LookupInterface):
  """A table filled once by its initializer (at creation, when executing eagerly)."""

  def __init__(self, default_value, initializer):
    super().__init__(initializer.key_dtype, initializer.value_dtype)
    if self._key_dtype not in _KEY_DTYPES or self._value_dtype not in _VALUE_DTYPES:
      raise errors.NotFoundError(None, None, "No registered HashTableV2 kernel for key_dtype=%s, "
                                 "value_dtype=%s" % (self._key_dtype.name,
                                                     self._value_dtype.name))
    self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
    if self._default_value.shape.ndims != 0:
      raise ValueError("Shapes %s and () are not compatible" % self._default_value.shape)
    self._initializer = initializer
    self._keys = np.zeros([0], self._np(self._key_dtype))  # sorted
    self._values = np.zeros([0], self._np(self._value_dtype))
    self._device_table = None
    self._init_op = initializer.initialize(self)

  @staticmethod
  def _np(dtype):
    return object if dtype is dtypes.string else dtype.as_numpy_dtype

  default_value = property(lambda self: self._default_value)
  initializer = property(lambda self: self._init_op)

  def _import(self, keys, values, op_name):
    """Inserts NumPy `keys` -> `values`; a key repeated with another value fails, as in TF."""
    keys = np.asarray(keys, self._np(self._key_dtype)).reshape(-1)
    values = np.asarray(values, self._np(self._value_dtype)).reshape(-1)
    if not keys.size:
      raise errors.invalid_argument("keys and values cannot be empty tensors. [Op:%s]" % op_name)
    table = dict(zip(self._keys.tolist(), self._values.tolist()))
    for key, value in zip(keys.tolist(), values.tolist()):
      old = table.setdefault(key, value)
      if old != value:
        raise errors.FailedPreconditionError(
            None, None, "HashTable has different value for same key. Key %s has %s and trying "
            "to add value %s [Op:%s]" % (_text(key), _text(old), _text(value), op_name))
    order = sorted(table)
    self._keys = np.array(order, self._np(self._key_dtype)).reshape(-1)
    self._values = np.array([table[k] for k in order], self._np(self._value_dtype)).reshape(-1)
    self._index = {k: i for i, k in enumerate(order)} if self._key_dtype is dtypes.string else None
    self._device_table = None

  def size(self, name=None):
    """The number of entries (int64 scalar)."""
    return Tensor(jnp.asarray(len(self._keys), jnp.int64))

  def export(self, name=None):
    """(keys, values) of every entry (sorted by key; TF's order is its hash map's)."""
    return (host_tensor(self._keys, self._key_dtype),
            host_tensor(self._values, self._value_dtype))

  def lookup(self, keys, name=None):
    """The values of `keys` (a Tensor or SparseTensor), `default_value` where absent."""
    self._check_keys(keys)
    key_tensor = keys.values if isinstance(keys, SparseTensor) else keys
    return _like(keys, self._find(key_tensor))

  def _positions(self, keys):
    """Host: the index of each key in the sorted keys, -1 where absent."""
    if self._index is not None:
      found = self._index.get
      flat = [found(k, -1) for k in keys.ravel().tolist()]
      return np.asarray(flat, np.int64).reshape(keys.shape)
    if not len(self._keys):
      return np.full(keys.shape, -1, np.int64)
    position = np.clip(np.searchsorted(self._keys, keys), 0, len(self._keys) - 1)
    return np.where(self._keys[position] == keys, position, -1)

  def _find(self, key_tensor):
    numeric = self._key_dtype is not dtypes.string and self._value_dtype is not dtypes.string
    if numeric and len(self._keys):
      if self._device_table is None:
        self._device_table = (Tensor(jnp.asarray(self._keys)), Tensor(jnp.asarray(self._values)))
      return _find(key_tensor, *self._device_table, self._default_value)
    positions = self._positions(host(key_tensor, "A lookup of string keys or values"))
    values = self._values[np.maximum(positions, 0)] if len(self._values) else positions
    default = host(self._default_value, "A table lookup")
    out = np.where(positions >= 0, values, default)
    return host_tensor(out.astype(self._np(self._value_dtype)), self._value_dtype)


@export("lookup.StaticHashTable", "contrib.lookup.HashTable")
class StaticHashTable(InitializableLookupTableBase):
  """An immutable table from `initializer`'s keys to its values."""

  def __init__(self, initializer, default_value, name=None):
    self._name = name or "hash_table"
    super().__init__(default_value, initializer)

  @property
  def init(self):
    """TF 1.x's name of `initializer`."""
    return self.initializer


HashTable = StaticHashTable


# ---- Initializers ----
@export("contrib.lookup.TableInitializerBase")
class TableInitializerBase(Trackable):
  """Fills a table with its keys and values."""

  def __init__(self, key_dtype, value_dtype):
    self._key_dtype = dtypes.as_dtype(key_dtype)
    self._value_dtype = dtypes.as_dtype(value_dtype)

  key_dtype = property(lambda self: self._key_dtype)
  value_dtype = property(lambda self: self._value_dtype)

  def initialize(self, table):
    raise NotImplementedError


@export("lookup.KeyValueTensorInitializer", "contrib.lookup.KeyValueTensorInitializer")
class KeyValueTensorInitializer(TableInitializerBase):
  """Keys and values given as tensors (or Python / NumPy values) of equal length."""

  def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
    self._keys = convert_to_tensor(keys, dtype=key_dtype)
    self._values = convert_to_tensor(values, dtype=value_dtype)
    self._name = name if name is not None else "key_value_init"
    super().__init__(self._keys.dtype, self._values.dtype)

  def initialize(self, table):
    keys = host(self._keys, "Table initialization")
    values = host(self._values, "Table initialization")
    if values.shape != keys.shape:
      raise errors.invalid_argument("Expected shape %s for value, got %s "
                                    "[Op:LookupTableImportV2]"
                                    % (_shape(keys.shape), _shape(values.shape)))
    table._import(keys, values, "LookupTableImportV2")  # pylint: disable=protected-access


def _shape(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


@export("lookup.TextFileIndex", "contrib.lookup.TextFileIndex")
class TextFileIndex:
  """Special column indices of a text file: the whole line, or the line number."""
  WHOLE_LINE = -2
  LINE_NUMBER = -1


def _check_index(which, index, dtype):
  """TF 1.15's checks of a text file column index against its dtype."""
  if index < -2:
    raise ValueError("Invalid %s index %s." % (which, index))
  noun = "Keys" if which == "key" else "Values"
  if index == TextFileIndex.LINE_NUMBER and dtype != dtypes.int64:
    raise ValueError("Signature mismatch. %s must be dtype %s, got %s."
                     % (noun, dtypes.int64, dtype))
  if index == TextFileIndex.WHOLE_LINE and which == "key" and not (
      dtype.is_integer or dtype == dtypes.string):
    raise ValueError("Signature mismatch. Keys must be integer or string, got %s." % dtype)
  if index == TextFileIndex.WHOLE_LINE and which == "value" and dtype != dtypes.string:
    raise ValueError("Signature mismatch. Values must be dtype %s, got %s."
                     % (dtypes.string, dtype))


@export("lookup.TextFileInitializer", "contrib.lookup.TextFileInitializer")
class TextFileInitializer(TableInitializerBase):
  """Keys and values from the lines of a text file: a column split by `delimiter`, the
  whole line (TextFileIndex.WHOLE_LINE) or the line number (TextFileIndex.LINE_NUMBER)."""

  def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
               vocab_size=None, delimiter="\t", name=None):
    if not isinstance(filename, Tensor) and not filename:
      raise ValueError("Filename required for %s." % name)
    key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
    _check_index("key", key_index, key_dtype)
    _check_index("value", value_index, value_dtype)
    if vocab_size is not None and vocab_size <= 0:
      raise ValueError("Invalid vocab_size %s." % vocab_size)
    self._filename = filename
    self._key_index, self._value_index = key_index, value_index
    self._vocab_size, self._delimiter, self._name = vocab_size, delimiter, name
    super().__init__(key_dtype, value_dtype)

  def initialize(self, table):
    filename = self._filename
    if isinstance(filename, Tensor):
      filename = host(filename, "Table initialization").item()
    filename = filename.decode() if isinstance(filename, bytes) else str(filename)
    keys, values = read_text_file(filename, self._key_index, self.key_dtype, self._value_index,
                                  self.value_dtype, self._vocab_size, self._delimiter)
    table._import(keys, values, "InitializeTableFromTextFileV2")  # pylint: disable=protected-access


def read_text_file(filename, key_index, key_dtype, value_index, value_dtype, vocab_size=None,
                 delimiter="\t"):
  """(keys, values) lists read as TF's InitializeTableFromTextFile reads them."""
  op_name = " [Op:InitializeTableFromTextFileV2]"
  with gfile.GFile(filename, "rb") as f:
    data = f.read()
  lines = data.split(b"\n")
  if lines and lines[-1] == b"":
    lines.pop()
  if vocab_size is not None:
    lines = lines[:vocab_size]
  columns = (delimiter.encode() if isinstance(delimiter, str) else delimiter) or None
  keys, values = [], []
  for number, line in enumerate(lines):
    if line.endswith(b"\r"):
      line = line[:-1]
    if not line:
      raise errors.invalid_argument("Invalid content in %s: empty line found at position %d."
                                    % (filename, sum(len(l) + 1 for l in lines[:number]) + 1)
                                    + op_name)
    fields = line.split(columns)
    needed = max(key_index, value_index) + 1
    if len(fields) < needed:
      raise errors.invalid_argument(
          "Invalid number of columns in %s line %d (%s) : expected at least %d got %d"
          % (filename, number, _text(line), needed, len(fields)) + op_name)
    keys.append(_field(fields, line, number, key_index, key_dtype, op_name))
    values.append(_field(fields, line, number, value_index, value_dtype, op_name))
  if vocab_size is not None and len(lines) < vocab_size:
    raise errors.invalid_argument("Invalid vocab_size in %s: expected %d but got %d"
                                  % (filename, vocab_size, len(lines)) + op_name)
  return keys, values


def _field(fields, line, number, index, dtype, op_name):
  if index == TextFileIndex.LINE_NUMBER:
    return number
  text = line if index == TextFileIndex.WHOLE_LINE else fields[index]
  if dtype is dtypes.string:
    return text
  try:
    return float(text) if dtype.is_floating else int(text)
  except ValueError:
    raise errors.invalid_argument("Field %s in line %d is not a valid %s.%s"
                                  % (_text(text), number, dtype.name, op_name)) from None


@export("contrib.lookup.TextFileStringTableInitializer")
class TextFileStringTableInitializer(TextFileInitializer):
  """int64 line numbers -> the lines (or a column) of a text file."""

  def __init__(self, filename, key_column_index=TextFileIndex.LINE_NUMBER,
               value_column_index=TextFileIndex.WHOLE_LINE, vocab_size=None, delimiter="\t",
               name="text_file_string_table_init"):
    super().__init__(filename, dtypes.int64, key_column_index, dtypes.string,
                     value_column_index, vocab_size=vocab_size, delimiter=delimiter, name=name)


@export("contrib.lookup.TextFileIdTableInitializer")
class TextFileIdTableInitializer(TextFileInitializer):
  """The lines (or a column) of a text file -> their int64 line numbers."""

  def __init__(self, filename, key_column_index=TextFileIndex.WHOLE_LINE,
               value_column_index=TextFileIndex.LINE_NUMBER, vocab_size=None, delimiter="\t",
               name="text_file_id_table_init", key_dtype=dtypes.string):
    super().__init__(filename, key_dtype, key_column_index, dtypes.int64, value_column_index,
                     vocab_size=vocab_size, delimiter=delimiter, name=name)


@export("tables_initializer", "initializers.tables_initializer", "initialize_all_tables")
def tables_initializer(name="init_all_tables"):
  """Tables are initialized on creation in eager mode: None, as TF's no_op gives."""
  return None


# ---- Tables with out-of-vocabulary buckets ----
@export("contrib.lookup.HasherSpec")
class HasherSpec(collections.namedtuple("HasherSpec", ["hasher", "key"])):
  """How out-of-vocabulary keys are hashed: "fasthash", "legacy" or "stronghash" (keyed)."""
  __slots__ = ()


FastHashSpec = HasherSpec("fasthash", None)
export("contrib.lookup.FastHashSpec")(FastHashSpec)


@export("contrib.lookup.StrongHashSpec")
class StrongHashSpec(HasherSpec):
  """SipHash-2-4 under a key of two integers."""
  __slots__ = ()

  def __new__(cls, key):
    if len(key) != 2:
      raise ValueError("key must have size 2, got %s." % len(key))
    if not all(isinstance(k, (int, np.integer)) for k in key):
      raise TypeError("Invalid key %s. Must be unsigned integer values." % (key,))
    return super(cls, StrongHashSpec).__new__(cls, "stronghash", key)


class _BucketedTable(LookupInterface):
  """Ids from a table, out-of-vocabulary keys hashed into `num_oov_buckets` after them."""

  def __init__(self, table, num_oov_buckets, hasher_spec, key_dtype, name):
    super().__init__(key_dtype, dtypes.int64)
    self._table, self._num_oov_buckets, self._hasher_spec = table, num_oov_buckets, hasher_spec
    self._table_name = name.rstrip("/").split("/")[-1] if name else None

  name = property(lambda self: self._table_name)
  initializer = property(lambda self: None if self._table is None else self._table.initializer)
  init = initializer

  def size(self, name=None):
    """The table's size plus the number of out-of-vocabulary buckets (int64)."""
    size = 0 if self._table is None else int(self._table.size())
    return Tensor(jnp.asarray(size + self._num_oov_buckets, jnp.int64))

  def lookup(self, keys, name=None):
    """The id of each key: its table value, or a hash bucket after the table's ids."""
    self._check_keys(keys)
    values = keys.values if isinstance(keys, SparseTensor) else keys
    if self._num_oov_buckets == 0:
      return _like(keys, self._table.lookup(_as_key(values, self._table)))
    raw = host(values, "A lookup with out-of-vocabulary buckets (strings are hashed)")
    ids = hash_buckets(raw, self._num_oov_buckets, self._hasher_spec)
    if self._table is not None:
      found = host(self._table.lookup(_as_key(values, self._table)), "A table lookup")
      default = host(self._table.default_value, "A table lookup")
      ids = np.where(found != default, found, ids + int(self._table.size()))
    return _like(keys, Tensor(jnp.asarray(ids, jnp.int64)))


def _as_key(values, table):
  """Integer keys cast to an int64 table's key dtype, as TF casts them."""
  if table.key_dtype is dtypes.int64 and values.dtype is not dtypes.int64:
    from tfe_compat.ops.matmul_cast_ops import cast  # pylint: disable=import-outside-toplevel
    return cast(values, dtypes.int64)
  return values


def _check_bucket_table(table, key_dtype):
  if table.key_dtype not in (dtypes.int64, dtypes.string):
    raise TypeError("Invalid key dtype, expected one of %s, but got %s."
                    % ((dtypes.int64, dtypes.string), key_dtype))
  if table.key_dtype.is_integer != key_dtype.is_integer:
    raise TypeError("Invalid key dtype, expected %s but got %s."
                    % ("integer" if key_dtype.is_integer else "non-integer", table.key_dtype))


@export("contrib.lookup.IdTableWithHashBuckets")
class IdTableWithHashBuckets(_BucketedTable):
  """`table`'s ids, out-of-vocabulary keys hashed by `hasher_spec` into extra buckets."""

  def __init__(self, table, num_oov_buckets, hasher_spec=FastHashSpec, name=None,
               key_dtype=None):
    if table:
      key_dtype = table.key_dtype if key_dtype is None else dtypes.as_dtype(key_dtype)
      _check_bucket_table(table, key_dtype)
      if table.value_dtype != dtypes.int64:
        raise TypeError("Invalid value dtype, expected %s but got %s."
                        % (dtypes.int64, table.value_dtype))
      name = name or table.name
    else:
      if num_oov_buckets <= 0:
        raise ValueError("oov_buckets must be > 0 if no table is supplied.")
      key_dtype = dtypes.string if key_dtype is None else dtypes.as_dtype(key_dtype)
      table = None
      name = name or "hash_bucket"
    if not key_dtype.is_integer and key_dtype != dtypes.string:
      raise TypeError("Invalid key_dtype, expected integer or string, got %s." % key_dtype)
    if not isinstance(hasher_spec, HasherSpec):
      raise TypeError("hasher_spec must be of type HasherSpec, got %s" % (hasher_spec,))
    super().__init__(table, num_oov_buckets, hasher_spec, key_dtype, name)


@export("lookup.StaticVocabularyTable")
class StaticVocabularyTable(_BucketedTable):
  """`initializer`'s ids (int64), out-of-vocabulary keys in `num_oov_buckets` Fingerprint64
  buckets after them."""

  def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None):
    if num_oov_buckets <= 0:
      raise ValueError("oov_buckets must be > 0.")
    table = None
    if initializer:
      key_dtype = (initializer.key_dtype if lookup_key_dtype is None
                   else dtypes.as_dtype(lookup_key_dtype))
      _check_bucket_table(initializer, key_dtype)
      if initializer.value_dtype != dtypes.int64:
        raise TypeError("Invalid value dtype, expected %s but got %s."
                        % (dtypes.int64, initializer.value_dtype))
      table = StaticHashTable(initializer, default_value=-1)
      name = name or table.name
    else:
      key_dtype = dtypes.string
      name = name or "hash_bucket"
    if not key_dtype.is_integer and key_dtype != dtypes.string:
      raise TypeError("Invalid key_dtype, expected integer or string, got %s." % key_dtype)
    super().__init__(table, num_oov_buckets, FastHashSpec, key_dtype, name)
