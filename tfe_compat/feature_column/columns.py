"""Feature column base classes, the transformation cache and the dense columns (TF 1.15).

Columns are namedtuples, as TF's are. A column turns raw features into tensors through a
`FeatureTransformationCache` and keeps no state: variables (embedding tables) come from a
state manager, the Keras layer's (DenseFeatures) or get_variable's (input_layer).
Dense numeric work runs in ops (trace-safe); sparse ids are bookkept on the host, as the
tf.sparse ops are, so categorical columns need concrete inputs.
"""
import collections
import re

import jax.numpy as jnp
import numpy as np

from tfe_compat.data.example_parsing import FixedLenFeature
from tfe_compat.data.example_parsing import VarLenFeature
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import manip_ops
from tfe_compat.ops import sampled_ops
from tfe_compat.ops import sparse_ops
from tfe_compat.ops import string_ops
from tfe_compat.ops.lookup_ops import host
from tfe_compat.ops.matmul_cast_ops import cast
from tfe_compat.ops.string_ops import SparseTensor
from tfe_compat.ops.string_ops import SparseTensorValue

IdWeightPair = collections.namedtuple("IdWeightPair", ("id_tensor", "weight_tensor"))
TensorSequenceLengthPair = collections.namedtuple("TensorSequenceLengthPair",
                                                  ("dense_tensor", "sequence_length"))


class FeatureColumn:
  """Base of all feature columns: `name`, `parse_example_spec`, `transform_feature`."""

  v1_api = True  # False: TF 1.15 has this column in its v2 API only (not a _FeatureColumn)

  def __lt__(self, other):
    return str(self) < str(other)

  def __gt__(self, other):
    return str(self) > str(other)

  def create_state(self, state_manager):
    """Creates the column's variables (most columns have none)."""

  @property
  def _var_scope_name(self):
    return self.name

  @property
  def _parse_example_spec(self):
    return self.parse_example_spec


class DenseColumn(FeatureColumn):
  """A column that produces a dense tensor of `variable_shape` per example."""

  @property
  def _variable_shape(self):
    return self.variable_shape


class CategoricalColumn(FeatureColumn):
  """A column that produces sparse ids in [0, num_buckets) (and optional weights)."""

  IdWeightPair = IdWeightPair

  @property
  def _num_buckets(self):
    return self.num_buckets

  def get_sparse_tensors(self, transformation_cache, state_manager):
    return IdWeightPair(transformation_cache.get(self, state_manager), None)


class SequenceDenseColumn(FeatureColumn):
  """A column that produces a [batch, time, ...] tensor and each example's length."""

  TensorSequenceLengthPair = TensorSequenceLengthPair


# ---- Raw features ----
def to_tensor_or_sparse(value):
  if isinstance(value, SparseTensorValue):
    return SparseTensor.from_value(value)
  return value if isinstance(value, SparseTensor) else convert_to_tensor(value)


def _rank(tensor):
  if isinstance(tensor, SparseTensor):
    return int(tensor.dense_shape.shape[0])
  return tensor.shape.ndims


def batch_size(tensor):
  """The batch size of a dense or sparse tensor (a Python int)."""
  if isinstance(tensor, SparseTensor):
    return int(host(tensor.dense_shape, "A sparse feature")[0])
  return tensor.shape.as_list()[0]


class FeatureTransformationCache:
  """Caches the transformed tensor of each column (and raw feature) for one input batch."""

  def __init__(self, features):
    self._features = dict(features)
    self._feature_tensors = {}

  def get(self, key, state_manager=None):
    if key in self._feature_tensors:
      return self._feature_tensors[key]
    if key in self._features:
      tensor = self._raw_feature_as_tensor(key)
    elif isinstance(key, str):
      raise ValueError("Feature {} is not in features dictionary.".format(key))
    elif not isinstance(key, FeatureColumn):
      raise TypeError('"key" must be either a "str" or "FeatureColumn". Provided: {}'
                      .format(key))
    else:
      tensor = key.transform_feature(self, state_manager)
      if tensor is None:
        raise ValueError("Column {} is not supported.".format(key.name))
    self._feature_tensors[key] = tensor
    return tensor

  def _raw_feature_as_tensor(self, key):
    tensor = to_tensor_or_sparse(self._features[key])
    rank = _rank(tensor)
    if rank == 0:
      raise ValueError("Feature (key: {}) cannot have rank 0. Given: {}".format(key, tensor))
    if rank != 1:
      return tensor
    if isinstance(tensor, SparseTensor):
      return sparse_ops.reshape(tensor, [batch_size(tensor), 1])
    return array_ops.expand_dims(tensor, -1)


def to_sparse_input_and_drop_ignore_values(input_tensor, ignore_value=None):
  """A dense tensor as a SparseTensor of its entries other than `ignore_value` ('' for
  strings, -1 for integers, 0 otherwise); SparseTensors as they are."""
  input_tensor = to_tensor_or_sparse(input_tensor)
  if isinstance(input_tensor, SparseTensor):
    return input_tensor
  values = host(input_tensor, "A categorical feature column (its sparse ids)")
  if ignore_value is None:
    ignore_value = b"" if values.dtype == object else -1 if input_tensor.dtype.is_integer else 0
  elif values.dtype == object and isinstance(ignore_value, str):
    ignore_value = ignore_value.encode()
  keep = values != np.asarray(ignore_value, values.dtype)
  indices = np.argwhere(keep).astype(np.int64)
  kept = values[keep]
  kept = Tensor(kept) if values.dtype == object else Tensor(jnp.asarray(kept))
  return SparseTensor(indices, kept, np.asarray(values.shape, np.int64))


def sequence_length_from_sparse_tensor(sp_tensor, num_elements=1):
  """int64 [batch]: 1 + the largest time index of each row, over `num_elements`, ceiled."""
  indices = host(sp_tensor.indices, "A sequence feature column").reshape(-1, _rank(sp_tensor))
  batch = batch_size(sp_tensor)
  lengths = np.zeros(batch, np.int64)
  if len(indices):
    np.maximum.at(lengths, indices[:, 0], indices[:, 1] + 1)
  return Tensor(device_lib.put(np.ceil(lengths / num_elements).astype(np.int64)))


def check_shape(shape, key):
  """`shape` as a tuple of positive ints (TF's `_check_shape`)."""
  shape = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
  for dimension in shape:
    if not isinstance(dimension, int):
      raise TypeError("shape dimensions must be integer. shape: {}, key: {}".format(shape, key))
    if dimension < 1:
      raise ValueError("shape dimensions must be greater than 0. shape: {}, key: {}"
                       .format(shape, key))
  return shape


def sanitize_column_name_for_variable_scope(name):
  return re.sub(r"[^A-Za-z0-9_.\-]", "_", name)


# ---- Dense columns ----
class NumericColumn(DenseColumn, collections.namedtuple(
    "NumericColumn", ("key", "shape", "default_value", "dtype", "normalizer_fn"))):
  """Dense numeric input of `shape` per example, cast to float32."""

  @property
  def name(self):
    return self.key

  @property
  def parse_example_spec(self):
    return {self.key: FixedLenFeature(self.shape, self.dtype, self.default_value)}

  def transform_feature(self, transformation_cache, state_manager):
    input_tensor = transformation_cache.get(self.key, state_manager)
    if isinstance(input_tensor, SparseTensor):
      raise ValueError("The corresponding Tensor of numerical column must be a Tensor. "
                       "SparseTensor is not supported. key: {}".format(self.key))
    if self.normalizer_fn is not None:
      input_tensor = self.normalizer_fn(input_tensor)
    return cast(input_tensor, dtypes.float32)

  @property
  def variable_shape(self):
    return tensor_shape.TensorShape(self.shape)

  def get_dense_tensor(self, transformation_cache, state_manager):
    return transformation_cache.get(self, state_manager)


@op(name="Bucketize", differentiable=False)
def _bucketize(values, boundaries):
  """The number of `boundaries` <= each value (int32), as TF's Bucketize."""
  return jnp.searchsorted(boundaries, values, side="right").astype(jnp.int32)


class BucketizedColumn(DenseColumn, CategoricalColumn, collections.namedtuple(
    "BucketizedColumn", ("source_column", "boundaries"))):
  """A numeric column's values as bucket indices: one-hot when dense, ids when sparse."""

  @property
  def name(self):
    return "{}_bucketized".format(self.source_column.name)

  @property
  def parse_example_spec(self):
    return self.source_column.parse_example_spec

  def transform_feature(self, transformation_cache, state_manager):
    source = cast(transformation_cache.get(self.source_column, state_manager), dtypes.float32)
    return _bucketize(source, Tensor(jnp.asarray(self.boundaries, jnp.float32)))

  @property
  def variable_shape(self):
    return tensor_shape.TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

  def get_dense_tensor(self, transformation_cache, state_manager):
    buckets = transformation_cache.get(self, state_manager)
    return manip_ops.one_hot(cast(buckets, dtypes.int64), depth=len(self.boundaries) + 1,
                             on_value=1.0, off_value=0.0)

  @property
  def num_buckets(self):
    return (len(self.boundaries) + 1) * self.source_column.shape[0]

  def get_sparse_tensors(self, transformation_cache, state_manager):
    buckets = transformation_cache.get(self, state_manager)
    batch = batch_size(buckets)
    dimension = self.source_column.shape[0]
    offsets = np.tile(np.arange(dimension, dtype=np.int32) * (len(self.boundaries) + 1), batch)
    ids = array_ops.reshape(buckets, [-1]) + Tensor(jnp.asarray(offsets))
    indices = np.stack([np.repeat(np.arange(batch), dimension),
                        np.tile(np.arange(dimension), batch)], axis=1).astype(np.int64)
    return IdWeightPair(SparseTensor(indices, ids, np.asarray([batch, dimension], np.int64)),
                        None)


class EmbeddingColumn(DenseColumn, SequenceDenseColumn, collections.namedtuple(
    "EmbeddingColumn", ("categorical_column", "dimension", "combiner", "initializer",
                        "ckpt_to_load_from", "tensor_name_in_ckpt", "max_norm", "trainable"))):
  """Sparse ids combined (mean/sqrtn/sum) from a trainable [num_buckets, dimension] table."""

  @property
  def name(self):
    return "{}_embedding".format(self.categorical_column.name)

  @property
  def parse_example_spec(self):
    return self.categorical_column.parse_example_spec

  def transform_feature(self, transformation_cache, state_manager):
    return transformation_cache.get(self.categorical_column, state_manager)

  @property
  def variable_shape(self):
    return tensor_shape.TensorShape([self.dimension])

  def create_state(self, state_manager):
    state_manager.create_variable(
        self, name="embedding_weights", shape=(self.categorical_column.num_buckets,
                                               self.dimension),
        dtype=dtypes.float32, trainable=self.trainable, initializer=self.initializer)

  def _lookup(self, sparse_tensors, state_manager):
    weights = state_manager.get_variable(self, name="embedding_weights")
    return sampled_ops.safe_embedding_lookup_sparse(
        weights, sparse_tensors.id_tensor, sparse_tensors.weight_tensor, combiner=self.combiner,
        max_norm=self.max_norm)

  def get_dense_tensor(self, transformation_cache, state_manager):
    if isinstance(self.categorical_column, SequenceCategoricalColumn):
      raise ValueError(_sequence_misuse("embedding_column", self.name, self.categorical_column))
    sparse_tensors = self.categorical_column.get_sparse_tensors(transformation_cache,
                                                                state_manager)
    return self._lookup(sparse_tensors, state_manager)

  def get_sequence_dense_tensor(self, transformation_cache, state_manager):
    if not isinstance(self.categorical_column, SequenceCategoricalColumn):
      raise ValueError(_not_sequence("embedding_column", self.name, self.categorical_column))
    sparse_tensors = self.categorical_column.get_sparse_tensors(transformation_cache,
                                                                state_manager)
    return TensorSequenceLengthPair(self._lookup(sparse_tensors, state_manager),
                                    sequence_length_from_sparse_tensor(sparse_tensors.id_tensor))


def _sequence_misuse(kind, name, categorical):
  return ("In {}: {}. categorical_column must not be of type SequenceCategoricalColumn. "
          "Suggested fix A: If you wish to use DenseFeatures, use a non-sequence "
          "categorical_column_with_*. Suggested fix B: If you wish to create sequence input, "
          "use SequenceFeatures instead of DenseFeatures. Given (type {}): {}"
          .format(kind, name, type(categorical), categorical))


def _not_sequence(kind, name, categorical):
  return ("In {}: {}. categorical_column must be of type SequenceCategoricalColumn to use "
          "SequenceFeatures. Suggested fix: Use one of sequence_categorical_column_with_*. "
          "Given (type {}): {}".format(kind, name, type(categorical), categorical))


class IndicatorColumn(DenseColumn, SequenceDenseColumn, collections.namedtuple(
    "IndicatorColumn", ("categorical_column",))):
  """Multi-hot float32 [.., num_buckets]: the count (or weight sum) of each id."""

  @property
  def name(self):
    return "{}_indicator".format(self.categorical_column.name)

  @property
  def parse_example_spec(self):
    return self.categorical_column.parse_example_spec

  def transform_feature(self, transformation_cache, state_manager):
    ids, weights = self.categorical_column.get_sparse_tensors(transformation_cache,
                                                              state_manager)
    size = self.categorical_column.num_buckets
    shape = host(ids.dense_shape, "indicator_column").astype(np.int64)
    indices = host(ids.indices, "indicator_column").reshape(-1, len(shape))
    id_values = host(ids.values, "indicator_column").astype(np.int64)
    counts = (np.ones(len(id_values), np.float32) if weights is None
              else host(weights.values, "indicator_column").astype(np.float32))
    out = np.zeros(tuple(shape[:-1]) + (size,), np.float32)
    valid = (id_values >= 0) & (id_values < size)
    np.add.at(out, tuple(indices[valid, :-1].T) + (id_values[valid],), counts[valid])
    return Tensor(jnp.asarray(out))

  @property
  def variable_shape(self):
    return tensor_shape.TensorShape([1, self.categorical_column.num_buckets])

  def get_dense_tensor(self, transformation_cache, state_manager):
    if isinstance(self.categorical_column, SequenceCategoricalColumn):
      raise ValueError(_sequence_misuse("indicator_column", self.name, self.categorical_column))
    return transformation_cache.get(self, state_manager)

  def get_sequence_dense_tensor(self, transformation_cache, state_manager):
    if not isinstance(self.categorical_column, SequenceCategoricalColumn):
      raise ValueError(_not_sequence("indicator_column", self.name, self.categorical_column))
    dense = transformation_cache.get(self, state_manager)
    ids = self.categorical_column.get_sparse_tensors(transformation_cache, state_manager)
    return TensorSequenceLengthPair(dense, sequence_length_from_sparse_tensor(ids.id_tensor))


class SequenceNumericColumn(SequenceDenseColumn, collections.namedtuple(
    "SequenceNumericColumn", ("key", "shape", "default_value", "dtype", "normalizer_fn"))):
  """A sparse sequence of numeric values of `shape` per step, padded with `default_value`."""

  v1_api = False

  @property
  def name(self):
    return self.key

  @property
  def parse_example_spec(self):
    return {self.key: VarLenFeature(self.dtype)}

  def transform_feature(self, transformation_cache, state_manager):
    input_tensor = transformation_cache.get(self.key, state_manager)
    if self.normalizer_fn is not None:
      input_tensor = self.normalizer_fn(input_tensor)
    return input_tensor

  @property
  def variable_shape(self):
    return tensor_shape.TensorShape(self.shape)

  def get_sequence_dense_tensor(self, transformation_cache, state_manager):
    sp_tensor = transformation_cache.get(self, state_manager)
    if not isinstance(sp_tensor, SparseTensor):
      raise TypeError("Input must be a SparseTensor.")
    dense = string_ops.sparse_tensor_to_dense(sp_tensor, default_value=self.default_value)
    batch = batch_size(sp_tensor)
    dense = array_ops.reshape(dense, [batch, -1] + list(self.shape))
    num_elements = self.variable_shape.num_elements() if _rank(sp_tensor) == 2 else 1
    return TensorSequenceLengthPair(dense, sequence_length_from_sparse_tensor(
        sp_tensor, num_elements=num_elements))


class SequenceCategoricalColumn(CategoricalColumn, collections.namedtuple(
    "SequenceCategoricalColumn", ("categorical_column",))):
  """A categorical column over sequences: ids shaped [batch, time, n]."""

  @property
  def name(self):
    return self.categorical_column.name

  @property
  def parse_example_spec(self):
    return self.categorical_column.parse_example_spec

  def transform_feature(self, transformation_cache, state_manager):
    return self.categorical_column.transform_feature(transformation_cache, state_manager)

  @property
  def num_buckets(self):
    return self.categorical_column.num_buckets

  def get_sparse_tensors(self, transformation_cache, state_manager):
    ids, weights = self.categorical_column.get_sparse_tensors(transformation_cache,
                                                              state_manager)
    shape = host(ids.dense_shape, "A sequence categorical column").astype(np.int64)
    target = [int(shape[0]), int(shape[1]), int(np.prod(shape[2:]))]
    ids = sparse_ops.reshape(ids, target)
    if weights is not None:
      weights = sparse_ops.reshape(weights, target)
    return IdWeightPair(ids, weights)
