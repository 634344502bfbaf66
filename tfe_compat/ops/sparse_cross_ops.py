"""`tf.sparse.cross` and `tf.sparse.cross_hashed`: TF's SparseCross kernel, on the host.

Each row's crosses are the Cartesian product of its features in input order, sparse inputs
first and dense inputs after them (the last input varies fastest), as TF's kernel makes
them. Hashed crosses fold FingerprintCat64 over each feature's hash (Fingerprint64 of a
string, an integer itself) starting from `hash_key`, bit-exact with TF.
"""
import itertools

import numpy as np

from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import string_hash_ops
from tfe_compat.ops.lookup_ops import host
from tfe_compat.ops.string_ops import SparseTensor

DEFAULT_HASH_KEY = 0xDECAFCAFFE
_MUL = np.uint64(0xc6a4a7935bd1e995)
_INT64_MAX = np.uint64(2 ** 63 - 1)


def _shift_mix(value):
  return value ^ (value >> np.uint64(47))


def fingerprint_cat64(fp1, fp2):
  """TF's FingerprintCat64 of uint64 arrays (elementwise)."""
  result = fp1 ^ _MUL
  result = result ^ (_shift_mix(fp2 * _MUL) * _MUL)
  result = result * _MUL
  result = _shift_mix(result) * _MUL
  return _shift_mix(result)


def _shape_text(shape):
  return "[%s]" % ",".join(str(int(d)) for d in shape)


def _fail(message):
  return errors.invalid_argument(message + " [Op:SparseCross]")


def _columns(inputs, what):
  """Per input, per batch row: the row's features (NumPy), sparse inputs first."""
  if not isinstance(inputs, (tuple, list)):
    raise TypeError("Inputs must be a list")
  if not all(isinstance(i, (SparseTensor, Tensor)) for i in inputs):
    raise TypeError("All inputs must be SparseTensors")
  sparse = [i for i in inputs if isinstance(i, SparseTensor)]
  dense = [i for i in inputs if not isinstance(i, SparseTensor)]
  shapes = [host(s.dense_shape, what).reshape(-1) for s in sparse]
  for position, shape in enumerate(shapes):
    if len(shape) != 2:
      raise _fail("shape should imply a 2D tensor, but got %s at position %d"
                  % (_shape_text([len(shape)]), position))
  dense_values = [_values(host(d, what)) for d in dense]
  for position, value in enumerate(dense_values):
    if value.ndim != 2:
      raise _fail("Dense inputs should be a matrix but received shape %s at position %d"
                  % (_shape_text(value.shape), position))
  batch = int(shapes[0][0]) if shapes else dense_values[0].shape[0] if dense_values else 0
  for position, shape in enumerate(shapes):
    if shape[0] != batch:
      raise _fail("Expected batch size %d got %d at position %d" % (batch, shape[0], position))
  for position, value in enumerate(dense_values):
    if value.shape[0] != batch:
      raise _fail("Expected batch size %d got %d at dense tensor %d"
                  % (batch, value.shape[0], position))
  columns = [_sparse_rows(s, batch, what) for s in sparse]
  columns += [list(value) for value in dense_values]
  return columns, batch


def _values(array):
  """String values as they are, any other values cast to int64 (as TF's wrapper does)."""
  return array if array.dtype == object else array.astype(np.int64)


def _sparse_rows(sp, batch, what):
  """The features of each batch row: runs of equal row index, walked as TF's kernel does."""
  rows = host(sp.indices, what).reshape(-1, 2)[:, 0] if sp.indices.shape[0] else np.zeros([0])
  values = _values(host(sp.values, what))
  out, start = [], 0
  for b in range(batch):
    end = start
    while end < len(rows) and rows[end] == b:
      end += 1
    out.append(values[start:end])
    start = end
  return out


def _cross(inputs, row_fn, out_dtype):
  columns, batch = _columns(inputs, "tf.sparse.cross")
  indices, values, width = [], [], 0
  for b in range(batch):
    features = [column[b] for column in columns]
    crosses = row_fn(features) if all(len(f) for f in features) else []
    indices += [(b, j) for j in range(len(crosses))]
    values.extend(crosses)
    width = max(width, len(crosses))
  indices = np.asarray(indices, np.int64).reshape(-1, 2)
  if out_dtype is dtypes.string:
    values = Tensor(np.asarray(values, dtype=object).reshape(-1))
  else:
    values = Tensor(device_lib.put(np.asarray(values, np.int64).reshape(-1)))
  return SparseTensor(indices, values, np.asarray([batch, width], np.int64))


def _feature_hashes(feature):
  if feature.dtype == object:
    return string_hash_ops.fingerprint64_many([bytes(f) for f in feature.tolist()])
  return feature.astype(np.int64).view(np.uint64)


def _feature_text(feature):
  if feature.dtype == object:
    return [bytes(f) for f in feature.tolist()]
  return [b"%d" % f for f in feature.tolist()]


@export("sparse.cross")
def cross(inputs, name=None, separator=None):
  """String crosses of the inputs' features, joined by `separator` ("_X_")."""
  separator = (separator or "_X_")
  separator = separator.encode() if isinstance(separator, str) else bytes(separator)

  def row(features):
    return [separator.join(parts)
            for parts in itertools.product(*[_feature_text(f) for f in features])]
  return _cross(inputs, row, dtypes.string)


@export("sparse.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
  """Hashed crosses (int64): FingerprintCat64 folded from `hash_key`, modulo `num_buckets`
  (or 2**63 - 1 when it is 0)."""
  key = np.uint64((hash_key or DEFAULT_HASH_KEY) & (2 ** 64 - 1))
  modulus = np.uint64(num_buckets) if num_buckets > 0 else _INT64_MAX

  def row(features):
    grids = np.meshgrid(*[_feature_hashes(f) for f in features], indexing="ij")
    hashed = np.full(grids[0].size, key, np.uint64)
    for grid in grids:
      hashed = fingerprint_cat64(hashed, grid.reshape(-1))
    return (hashed % modulus).astype(np.int64).tolist()
  return _cross(inputs, row, dtypes.int64)
