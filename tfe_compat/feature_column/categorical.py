"""The categorical feature columns (TF 1.15): hashed, vocabulary, identity, weighted, crossed.

Ids are computed on the host, bit-exact with TF: hash buckets and out-of-vocabulary
buckets by Fingerprint64, crosses by SparseCrossHashed (ops/sparse_cross_ops).
"""
import collections

import jax.numpy as jnp
import numpy as np

from tfe_compat.data.example_parsing import VarLenFeature
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import lookup_contrib_ops
from tfe_compat.ops import lookup_ops
from tfe_compat.ops import sparse_cross_ops
from tfe_compat.ops.lookup_ops import host
from tfe_compat.ops.matmul_cast_ops import cast
from tfe_compat.ops.string_ops import SparseTensor
from tfe_compat.feature_column.columns import CategoricalColumn
from tfe_compat.feature_column.columns import FeatureColumn
from tfe_compat.feature_column.columns import IdWeightPair
from tfe_compat.feature_column.columns import to_sparse_input_and_drop_ignore_values
from tfe_compat.feature_column.columns import to_tensor_or_sparse


def assert_string_or_int(dtype, prefix):
  if dtype != dtypes.string and not dtype.is_integer:
    raise ValueError("{} dtype must be string or integer. dtype: {}.".format(prefix, dtype))


def _check_input_dtype(column, input_tensor):
  if column.dtype.is_integer != input_tensor.dtype.is_integer:
    raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: {}, column "
                     "dtype: {}, tensor dtype: {}".format(column.key, column.dtype,
                                                         input_tensor.dtype))
  assert_string_or_int(input_tensor.dtype, prefix="column_name: {} input_tensor"
                       .format(column.key))


def _with_values(sp, values):
  return SparseTensor(sp.indices, values, sp.dense_shape)


def _table(column, state_manager, make):
  """The lookup table of a vocabulary column, made once per state manager."""
  if state_manager is None:
    return make()
  return state_manager.resource(column, "{}_lookup".format(column.key), make)


def _vocabulary_ids(column, input_tensor, state_manager, make_table):
  """The ids of a vocabulary column: `input_tensor` (integers as int64) looked up in the
  column's table, `make_table(key_dtype)`."""
  _check_input_dtype(column, input_tensor)
  key_dtype = column.dtype
  if input_tensor.dtype.is_integer:
    key_dtype = dtypes.int64
    input_tensor = _with_values(input_tensor, cast(input_tensor.values, dtypes.int64))
  table = _table(column, state_manager, lambda: make_table(key_dtype))
  return table.lookup(input_tensor)


class _KeyedColumn(CategoricalColumn):
  """A categorical column of the raw feature `key`, read as sparse ids."""

  @property
  def name(self):
    return self.key

  @property
  def parse_example_spec(self):
    return {self.key: VarLenFeature(self.dtype)}

  def transform_feature(self, transformation_cache, state_manager):
    input_tensor = to_sparse_input_and_drop_ignore_values(
        transformation_cache.get(self.key, state_manager))
    return self._transform_input_tensor(input_tensor, state_manager)


class HashedCategoricalColumn(_KeyedColumn, collections.namedtuple(
    "HashedCategoricalColumn", ("key", "hash_bucket_size", "dtype"))):
  """Ids: Fingerprint64 of each string (integers as decimal strings) mod hash_bucket_size."""

  def _transform_input_tensor(self, input_tensor, state_manager):
    assert_string_or_int(input_tensor.dtype,
                         prefix="column_name: {} input_tensor".format(self.key))
    if self.dtype.is_integer != input_tensor.dtype.is_integer:
      raise ValueError("Column dtype and SparseTensors dtype must be compatible. key: {}, "
                       "column dtype: {}, tensor dtype: {}".format(self.key, self.dtype,
                                                                   input_tensor.dtype))
    values = host(input_tensor.values, "categorical_column_with_hash_bucket")
    ids = lookup_ops.hash_buckets(values, self.hash_bucket_size)
    return _with_values(input_tensor, Tensor(jnp.asarray(ids)))

  @property
  def num_buckets(self):
    return self.hash_bucket_size


class VocabularyFileCategoricalColumn(_KeyedColumn, collections.namedtuple(
    "VocabularyFileCategoricalColumn", ("key", "vocabulary_file", "vocabulary_size",
                                        "num_oov_buckets", "dtype", "default_value"))):
  """Ids: line numbers in a vocabulary file (out-of-vocabulary: hash buckets or default)."""

  def _transform_input_tensor(self, input_tensor, state_manager):
    return _vocabulary_ids(self, input_tensor, state_manager,
                           lambda key_dtype: lookup_contrib_ops.index_table_from_file(
                               vocabulary_file=self.vocabulary_file,
                               num_oov_buckets=self.num_oov_buckets,
                               vocab_size=self.vocabulary_size,
                               default_value=self.default_value, key_dtype=key_dtype))

  @property
  def num_buckets(self):
    return self.vocabulary_size + self.num_oov_buckets


class VocabularyListCategoricalColumn(_KeyedColumn, collections.namedtuple(
    "VocabularyListCategoricalColumn", ("key", "vocabulary_list", "dtype", "default_value",
                                        "num_oov_buckets"))):
  """Ids: positions in `vocabulary_list` (out-of-vocabulary: hash buckets or default)."""

  def _transform_input_tensor(self, input_tensor, state_manager):
    return _vocabulary_ids(self, input_tensor, state_manager,
                           lambda key_dtype: lookup_contrib_ops.index_table_from_tensor(
                               vocabulary_list=tuple(self.vocabulary_list),
                               default_value=self.default_value,
                               num_oov_buckets=self.num_oov_buckets, dtype=key_dtype))

  @property
  def num_buckets(self):
    return len(self.vocabulary_list) + self.num_oov_buckets


class IdentityCategoricalColumn(_KeyedColumn, collections.namedtuple(
    "IdentityCategoricalColumn", ("key", "number_buckets", "default_value"))):
  """Ids: the integer values themselves, in [0, num_buckets) (else `default_value`)."""

  @property
  def parse_example_spec(self):
    return {self.key: VarLenFeature(dtypes.int64)}

  def _transform_input_tensor(self, input_tensor, state_manager):
    if not input_tensor.dtype.is_integer:
      raise ValueError("Invalid input, not integer. key: {} dtype: {}"
                       .format(self.key, input_tensor.dtype))
    ids = host(input_tensor.values, "categorical_column_with_identity").astype(np.int64)
    out_of_range = (ids < 0) | (ids >= self.num_buckets)
    if self.default_value is not None:
      ids = np.where(out_of_range, self.default_value, ids)
    elif out_of_range.any():  # TF 1.15 asserts 0 <= id < num_buckets
      raise errors.invalid_argument("assertion failed: [%s] [%d]" % (
          " ".join(str(i) for i in ids[:3].tolist()) + (" ..." if len(ids) > 3 else ""),
          self.num_buckets))
    return _with_values(input_tensor, Tensor(jnp.asarray(ids)))

  @property
  def num_buckets(self):
    return self.number_buckets


class WeightedCategoricalColumn(CategoricalColumn, collections.namedtuple(
    "WeightedCategoricalColumn", ("categorical_column", "weight_feature_key", "dtype"))):
  """A categorical column's ids with per-id weights from the feature `weight_feature_key`."""

  @property
  def name(self):
    return "{}_weighted_by_{}".format(self.categorical_column.name, self.weight_feature_key)

  @property
  def parse_example_spec(self):
    config = self.categorical_column.parse_example_spec
    if self.weight_feature_key in config:
      raise ValueError("Parse config {} already exists for {}.".format(
          config[self.weight_feature_key], self.weight_feature_key))
    config[self.weight_feature_key] = VarLenFeature(self.dtype)
    return config

  @property
  def num_buckets(self):
    return self.categorical_column.num_buckets

  def transform_feature(self, transformation_cache, state_manager):
    weight_tensor = transformation_cache.get(self.weight_feature_key, state_manager)
    if weight_tensor is None:
      raise ValueError("Missing weights {}.".format(self.weight_feature_key))
    weight_tensor = to_tensor_or_sparse(weight_tensor)
    if self.dtype != weight_tensor.dtype.base_dtype:
      raise ValueError("Bad dtype, expected {}, but got {}.".format(self.dtype,
                                                                    weight_tensor.dtype))
    if not isinstance(weight_tensor, SparseTensor):
      weight_tensor = to_sparse_input_and_drop_ignore_values(weight_tensor, ignore_value=0.0)
    if not weight_tensor.dtype.is_floating:
      weight_tensor = _with_values(weight_tensor, cast(weight_tensor.values, dtypes.float32))
    ids = to_sparse_input_and_drop_ignore_values(
        transformation_cache.get(self.categorical_column, state_manager))
    return ids, weight_tensor

  def get_sparse_tensors(self, transformation_cache, state_manager):
    return IdWeightPair(*transformation_cache.get(self, state_manager))


def collect_leaf_level_keys(cross):
  """The keys of a crossed column, nested crosses flattened."""
  keys = []
  for key in cross.keys:
    keys.extend(collect_leaf_level_keys(key) if isinstance(key, CrossedColumn) else [key])
  return keys


class CrossedColumn(CategoricalColumn, collections.namedtuple(
    "CrossedColumn", ("keys", "hash_bucket_size", "hash_key"))):
  """Ids: TF's hashed cross (FingerprintCat64) of raw features and categorical ids."""

  @property
  def name(self):
    names = [key.name if isinstance(key, FeatureColumn) else key for key in self.keys]
    return "_X_".join(sorted(names))

  @property
  def parse_example_spec(self):
    config = {}
    for key in self.keys:
      if isinstance(key, FeatureColumn):
        config.update(key.parse_example_spec)
      else:
        config[key] = VarLenFeature(dtypes.string)
    return config

  def transform_feature(self, transformation_cache, state_manager):
    feature_tensors = []
    for key in collect_leaf_level_keys(self):
      if isinstance(key, str):
        feature_tensors.append(transformation_cache.get(key, state_manager))
      elif isinstance(key, CategoricalColumn):
        ids_and_weights = key.get_sparse_tensors(transformation_cache, state_manager)
        if ids_and_weights.weight_tensor is not None:
          raise ValueError("crossed_column does not support weight_tensor, but the given "
                           "column populates weight_tensor. Given column: {}".format(key.name))
        feature_tensors.append(ids_and_weights.id_tensor)
      else:
        raise ValueError("Unsupported column type. Given: {}".format(key))
    return sparse_cross_ops.cross_hashed(feature_tensors, num_buckets=self.hash_bucket_size,
                                         hash_key=self.hash_key)

  @property
  def num_buckets(self):
    return self.hash_bucket_size
