"""Mutable lookup tables: `tf.lookup.experimental.DenseHashTable`, `MutableHashTable`.

Both run on the host (their contents change between calls). DenseHashTable is TF's open
addressing table bucket for bucket: the same hash (the key itself for integers, TF's
legacy Hash64 for strings, Hash64Combine over vector keys), quadratic probing, growth at
load factor 0.8 and deleted-key markers, so `export()` returns TF's bucket arrays.
"""
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import string_hash_ops
from tfe_compat.ops.lookup_ops import LookupInterface
from tfe_compat.ops.lookup_ops import host
from tfe_compat.ops.lookup_ops import host_tensor

_MASK = (1 << 64) - 1
_MAX_LOAD_FACTOR = np.float32(0.8)


def _np_dtype(dtype):
  return object if dtype is dtypes.string else dtype.as_numpy_dtype


def _shape_text(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


def _rows(tensor, key_shape, op_name):
  """A key tensor as (rows of keys of `key_shape`, leading shape)."""
  keys = host(tensor, "A mutable lookup table")
  count = 1 if keys.ndim == 0 else keys.shape[0]
  key_size = int(np.prod(key_shape, dtype=np.int64))
  if keys.size != count * key_size:
    expected = [count] + list(key_shape)
    raise errors.invalid_argument("Expected key shape %s got %s [Op:%s]"
                                  % (_shape_text(expected), _shape_text(keys.shape), op_name))
  return keys.reshape(count, key_size), keys.shape[:1] if keys.ndim else ()


@export("contrib.lookup.MutableHashTable")
class MutableHashTable(LookupInterface):
  """A mutable table: `insert`, `remove`, `lookup`, `export` (values: scalars or vectors)."""

  def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
               checkpoint=True):
    super().__init__(key_dtype, value_dtype)
    self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
    self._value_shape = tuple(self._default_value.shape.as_list())
    self._name, self._checkpoint = name, checkpoint
    self._table = {}

  def size(self, name=None):
    return Tensor(jnp.asarray(len(self._table), jnp.int64))

  def insert(self, keys, values, name=None):
    """Sets the value of each key (None: an eager op's result)."""
    keys = host(convert_to_tensor(keys, self._key_dtype), "MutableHashTable.insert")
    values = host(convert_to_tensor(values, self._value_dtype), "MutableHashTable.insert")
    expected = keys.shape + self._value_shape
    if values.shape != expected:
      raise errors.invalid_argument("Expected shape %s for value, got %s "
                                    "[Op:LookupTableInsertV2]"
                                    % (_shape_text(expected), _shape_text(values.shape)))
    flat_values = values.reshape((keys.size,) + self._value_shape)
    for key, value in zip(keys.ravel().tolist(), flat_values):
      self._table[key] = value
    return None

  def remove(self, keys, name=None):
    """Removes `keys` (absent keys are ignored)."""
    self._check_keys(keys)
    for key in host(keys, "MutableHashTable.remove").ravel().tolist():
      self._table.pop(key, None)
    return None

  def lookup(self, keys, name=None):
    """The values of `keys` (shape keys.shape + the value shape), the default where absent."""
    keys = host(convert_to_tensor(keys, self._key_dtype), "MutableHashTable.lookup")
    default = host(self._default_value, "MutableHashTable.lookup")
    rows = [self._table.get(k, default) for k in keys.ravel().tolist()]
    out = np.empty((len(rows),) + self._value_shape, _np_dtype(self._value_dtype))
    for i, row in enumerate(rows):
      out[i] = row
    return host_tensor(out.reshape(keys.shape + self._value_shape), self._value_dtype)

  def export(self, name=None):
    """(keys, values) of every entry, in insertion order (TF's order is its hash map's)."""
    keys = np.array(list(self._table), _np_dtype(self._key_dtype)).reshape(-1)
    values = np.empty((len(keys),) + self._value_shape, _np_dtype(self._value_dtype))
    for i, value in enumerate(self._table.values()):
      values[i] = value
    return host_tensor(keys, self._key_dtype), host_tensor(values, self._value_dtype)


def _hash_combine(a, b):
  """TF's Hash64Combine."""
  return (a ^ ((b + 0x9e3779b97f4a7800 + (a << 10) + (a >> 4)) & _MASK)) & _MASK


@export("lookup.experimental.DenseHashTable", "contrib.lookup.MutableDenseHashTable")
class DenseHashTable(LookupInterface):
  """TF's MutableDenseHashTable: open addressing over bucket arrays, keyed by scalars or
  vectors (the shape of `empty_key`), values scalars or vectors."""

  def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
               initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True):
    super().__init__(key_dtype, value_dtype)
    self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
    self._value_shape = tuple(self._default_value.shape.as_list())
    empty = host(convert_to_tensor(empty_key, self._key_dtype), "DenseHashTable")
    deleted = host(convert_to_tensor(deleted_key, self._key_dtype), "DenseHashTable")
    if empty.ndim > 1:
      raise errors.invalid_argument("Empty key must be a scalar or a vector, got shape %s "
                                    "[Op:MutableDenseHashTableV2]" % _shape_text(empty.shape))
    if deleted.shape != empty.shape:
      raise errors.invalid_argument("Empty and deleted keys must have same shape, got shapes: "
                                    "%s and %s [Op:MutableDenseHashTableV2]"
                                    % (_shape_text(empty.shape), _shape_text(deleted.shape)))
    self._key_shape = empty.shape
    self._key_size = max(empty.size, 1)
    self._empty = tuple(empty.reshape(-1).tolist())
    self._deleted = tuple(deleted.reshape(-1).tolist())
    if self._empty == self._deleted:
      raise errors.invalid_argument("Empty and deleted keys cannot be equal "
                                    "[Op:MutableDenseHashTableV2]")
    self._value_size = int(np.prod(self._value_shape, dtype=np.int64))
    self._name, self._checkpoint = name, checkpoint
    self._allocate(131072 if initial_num_buckets is None else int(initial_num_buckets))

  def _allocate(self, num_buckets):
    if num_buckets < 4 or num_buckets & (num_buckets - 1):
      raise errors.invalid_argument("Number of buckets must be at least 4 and a power of 2, "
                                    "got: %d [Op:MutableDenseHashTableV2]" % num_buckets)
    self._keys = [self._empty] * num_buckets
    self._values = np.zeros((num_buckets, self._value_size), _np_dtype(self._value_dtype))
    if self._value_dtype is dtypes.string:
      self._values[...] = b""
    self._entries = 0

  def _hashes(self, rows):
    """TF's HashKey of each row of keys."""
    if self._key_dtype is dtypes.string:
      flat = string_hash_ops.legacy_hash64_many([bytes(k) for k in rows.ravel().tolist()])
    else:
      flat = rows.ravel().astype(np.int64).view(np.uint64)
    flat = flat.reshape(rows.shape).tolist()
    if self._key_size == 1:
      return [row[0] for row in flat]
    out = []
    for row in flat:
      result = 0
      for value in row:
        result = _hash_combine(result, value)
      out.append(result)
    return out

  def _check_special(self, row, op_name):
    if row == self._empty:
      raise errors.invalid_argument("Using the empty_key as a table key is not allowed "
                                    "[Op:%s]" % op_name)
    if row == self._deleted:
      raise errors.invalid_argument("Using the deleted_key as a table key is not allowed "
                                    "[Op:%s]" % op_name)

  def _probe(self, row, key_hash, stop_at_deleted):
    """The bucket holding `row`, else (when inserting) the first free bucket, else -1."""
    mask = len(self._keys) - 1
    index, probes = key_hash & mask, 0
    while True:
      current = self._keys[index]
      if current == row:
        return index
      if current == self._empty or (stop_at_deleted and current == self._deleted):
        return index if stop_at_deleted else -1
      probes += 1
      index = (index + probes) & mask  # quadratic probing
      if probes >= len(self._keys):
        raise errors.InternalError(None, None, "Internal error in MutableDenseHashTable")

  def _do_insert(self, rows, values, op_name, skip_special=False):
    for row, key_hash, value in zip(map(tuple, rows.tolist()), self._hashes(rows), values):
      if skip_special and row in (self._empty, self._deleted):
        continue
      self._check_special(row, op_name)
      index = self._probe(row, key_hash, stop_at_deleted=True)
      if self._keys[index] != row:
        self._entries += 1
        self._keys[index] = row
      self._values[index] = value

  def insert_or_assign(self, keys, values, name=None):
    """Sets the value of each key, growing the buckets past load factor 0.8, as TF does."""
    keys = convert_to_tensor(keys, dtype=self._key_dtype)
    values = host(convert_to_tensor(values, dtype=self._value_dtype), "DenseHashTable.insert")
    rows, lead = _rows(keys, self._key_shape, "LookupTableInsertV2")
    expected = tuple(lead) + self._value_shape
    if values.shape != expected:
      raise errors.invalid_argument("Expected shape %s for value, got %s "
                                    "[Op:LookupTableInsertV2]"
                                    % (_shape_text(expected), _shape_text(values.shape)))
    pending = np.float32(self._entries + len(rows))
    num_buckets = len(self._keys)
    if pending > np.float32(num_buckets) * _MAX_LOAD_FACTOR:
      while pending > np.float32(num_buckets) * _MAX_LOAD_FACTOR:
        num_buckets <<= 1
      old_keys, old_values = np.array(self._keys, dtype=object), self._values
      self._allocate(num_buckets)
      self._do_insert(old_keys, old_values, "LookupTableInsertV2", skip_special=True)
    self._do_insert(rows, values.reshape(len(rows), self._value_size), "LookupTableInsertV2")
    return None

  insert = insert_or_assign

  def erase(self, keys, name=None):
    """Marks each present key deleted (absent keys are ignored)."""
    if keys.dtype != self._key_dtype:
      raise TypeError("Signature mismatch. Keys must be dtype %s, got %s."
                      % (self._key_dtype, keys.dtype))
    rows, _ = _rows(keys, self._key_shape, "LookupTableRemoveV2")
    for row, key_hash in zip(map(tuple, rows.tolist()), self._hashes(rows)):
      self._check_special(row, "LookupTableRemoveV2")
      index = self._probe(row, key_hash, stop_at_deleted=False)
      if index >= 0:
        self._keys[index] = self._deleted
        self._entries -= 1
    return None

  remove = erase

  def lookup(self, keys, name=None):
    """The values of `keys`, `default_value` where absent."""
    keys = convert_to_tensor(keys, dtype=self._key_dtype)
    rows, lead = _rows(keys, self._key_shape, "LookupTableFindV2")
    default = host(self._default_value, "DenseHashTable.lookup").reshape(-1)
    out = np.empty((len(rows), self._value_size), _np_dtype(self._value_dtype))
    for i, (row, key_hash) in enumerate(zip(map(tuple, rows.tolist()), self._hashes(rows))):
      self._check_special(row, "LookupTableFindV2")
      index = self._probe(row, key_hash, stop_at_deleted=False)
      out[i] = self._values[index] if index >= 0 else default
    return host_tensor(out.reshape(tuple(lead) + self._value_shape), self._value_dtype)

  def size(self, name=None):
    return Tensor(jnp.asarray(self._entries, jnp.int64))

  def export(self, name=None):
    """TF's bucket arrays: keys [num_buckets, key size], values [num_buckets, value size]."""
    keys = np.array(self._keys, _np_dtype(self._key_dtype)).reshape(len(self._keys), -1)
    return host_tensor(keys, self._key_dtype), host_tensor(self._values.copy(), self._value_dtype)
