"""`tf.feature_column` (TF 1.15): the column constructors, `input_layer`, `linear_model`,
`make_parse_example_spec`.

`input_layer` and `linear_model` make their variables with `get_variable` under TF's
variable scopes ("input_layer/x_embedding/embedding_weights:0",
"linear_model/x/weights:0"), new ones on each call, as TF does when executing eagerly.
"""
import collections.abc
import math

import numpy as np

from tfe_compat import variable_scope as vs
from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops
from tfe_compat.ops import init_ops
from tfe_compat.ops import nn_ops
from tfe_compat.ops import reduction_ops
from tfe_compat.ops import sampled_ops
from tfe_compat.ops import sparse_ops
from tfe_compat.ops.matmul_cast_ops import matmul
from tfe_compat.feature_column import categorical as cat
from tfe_compat.feature_column import columns as fc


def _assert_key_is_string(key):
  if not isinstance(key, str):
    raise ValueError("key must be a string. Got: type {}. Given key: {}.".format(type(key), key))


# ---- Constructors ----
@export("feature_column.numeric_column")
def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32,
                   normalizer_fn=None):
  """Dense numeric input of `shape` per example."""
  shape = fc.check_shape(shape, key)
  dtype = dtypes.as_dtype(dtype)
  if not (dtype.is_integer or dtype.is_floating):
    raise ValueError("dtype must be convertible to float. dtype: {}, key: {}".format(dtype, key))
  default_value = _check_default_value(shape, default_value, dtype, key)
  if normalizer_fn is not None and not callable(normalizer_fn):
    raise TypeError("normalizer_fn must be a callable. Given: {}".format(normalizer_fn))
  _assert_key_is_string(key)
  return fc.NumericColumn(key, shape=shape, default_value=default_value, dtype=dtype,
                          normalizer_fn=normalizer_fn)


def _check_default_value(shape, default_value, dtype, key):
  """`default_value` as nested tuples of `shape` (TF's check_default_value)."""
  if default_value is None:
    return None
  if isinstance(default_value, int) or (isinstance(default_value, float) and dtype.is_floating):
    return _fill(shape, default_value)
  if callable(getattr(default_value, "tolist", None)):
    default_value = default_value.tolist()
  if isinstance(default_value, (list, tuple)):
    array = np.asarray(default_value, dtype=object)
    if array.shape != tuple(shape):
      raise ValueError("The shape of default_value must be equal to given shape. default_value: "
                       "{}, shape: {}, key: {}".format(default_value, shape, key))
    flat = array.reshape(-1).tolist()
    if all(isinstance(v, int) for v in flat) or (
        any(isinstance(v, float) for v in flat) and dtype.is_floating):
      return _as_tuple(default_value)
  raise TypeError("default_value must be compatible with dtype. default_value: {}, dtype: {}, "
                  "key: {}".format(default_value, dtype, key))


def _fill(shape, value):
  return tuple(_fill(shape[1:], value) for _ in range(shape[0])) if shape else value


def _as_tuple(value):
  return tuple(_as_tuple(v) for v in value) if isinstance(value, (list, tuple)) else value


@export("feature_column.bucketized_column")
def bucketized_column(source_column, boundaries):
  """`source_column`'s values as buckets: (-inf, b0), [b0, b1), ..., [bn, inf)."""
  if not isinstance(source_column, fc.NumericColumn):
    raise ValueError("source_column must be a column generated with numeric_column(). "
                     "Given: {}".format(source_column))
  if len(source_column.shape) > 1:
    raise ValueError("source_column must be one-dimensional column. Given: {}"
                     .format(source_column))
  if not boundaries:
    raise ValueError("boundaries must not be empty.")
  if not isinstance(boundaries, (list, tuple)) or any(
      boundaries[i] >= boundaries[i + 1] for i in range(len(boundaries) - 1)):
    raise ValueError("boundaries must be a sorted list.")
  return fc.BucketizedColumn(source_column, tuple(boundaries))


@export("feature_column.categorical_column_with_hash_bucket")
def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
  """Ids: Fingerprint64 of each value (integers as strings) modulo `hash_bucket_size`."""
  if hash_bucket_size is None:
    raise ValueError("hash_bucket_size must be set. key: {}".format(key))
  if hash_bucket_size < 1:
    raise ValueError("hash_bucket_size must be at least 1. hash_bucket_size: {}, key: {}"
                     .format(hash_bucket_size, key))
  _assert_key_is_string(key)
  dtype = dtypes.as_dtype(dtype)
  cat.assert_string_or_int(dtype, prefix="column_name: {}".format(key))
  return cat.HashedCategoricalColumn(key, hash_bucket_size, dtype)


@export("feature_column.categorical_column_with_vocabulary_file")
def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            num_oov_buckets=0, default_value=None,
                                            dtype=dtypes.string):
  """Ids: line numbers in `vocabulary_file`."""
  if not vocabulary_file:
    raise ValueError("Missing vocabulary_file in {}.".format(key))
  if vocabulary_size is None:
    from tfe_compat.ops import gfile  # pylint: disable=import-outside-toplevel
    if not gfile.file_exists(vocabulary_file):
      raise ValueError("vocabulary_file in {} does not exist.".format(key))
    with gfile.GFile(vocabulary_file, "rb") as f:
      vocabulary_size = sum(1 for _ in f)
  if vocabulary_size < 1:
    raise ValueError("Invalid vocabulary_size in {}.".format(key))
  if num_oov_buckets:
    if default_value is not None:
      raise ValueError("Can't specify both num_oov_buckets and default_value in {}."
                       .format(key))
    if num_oov_buckets < 0:
      raise ValueError("Invalid num_oov_buckets {} in {}.".format(num_oov_buckets, key))
  dtype = dtypes.as_dtype(dtype)
  cat.assert_string_or_int(dtype, prefix="column_name: {}".format(key))
  _assert_key_is_string(key)
  return cat.VocabularyFileCategoricalColumn(
      key=key, vocabulary_file=vocabulary_file, vocabulary_size=vocabulary_size,
      num_oov_buckets=0 if num_oov_buckets is None else num_oov_buckets,
      default_value=-1 if default_value is None else default_value, dtype=dtype)


@export("feature_column.categorical_column_with_vocabulary_list")
def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0):
  """Ids: positions in `vocabulary_list`."""
  if vocabulary_list is None or len(vocabulary_list) < 1:
    raise ValueError("vocabulary_list {} must be non-empty, column_name: {}"
                     .format(vocabulary_list, key))
  if len(set(vocabulary_list)) != len(vocabulary_list):
    raise ValueError("Duplicate keys in vocabulary_list {}, column_name: {}"
                     .format(vocabulary_list, key))
  vocabulary_dtype = _vocabulary_dtype(vocabulary_list)
  if num_oov_buckets:
    if default_value != -1:
      raise ValueError("Can't specify both num_oov_buckets and default_value in {}."
                       .format(key))
    if num_oov_buckets < 0:
      raise ValueError("Invalid num_oov_buckets {} in {}.".format(num_oov_buckets, key))
  cat.assert_string_or_int(vocabulary_dtype,
                           prefix="column_name: {} vocabulary".format(key))
  if dtype is None:
    dtype = vocabulary_dtype
  else:
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer != vocabulary_dtype.is_integer:
      raise ValueError("dtype {} and vocabulary dtype {} do not match, column_name: {}"
                       .format(dtype, vocabulary_dtype, key))
  cat.assert_string_or_int(dtype, prefix="column_name: {}".format(key))
  _assert_key_is_string(key)
  return cat.VocabularyListCategoricalColumn(
      key=key, vocabulary_list=tuple(vocabulary_list), dtype=dtype,
      default_value=default_value, num_oov_buckets=num_oov_buckets)


def _vocabulary_dtype(vocabulary_list):
  """TF's `dtypes.as_dtype(np.array(vocabulary_list).dtype)` (NumPy's strings are tf.string)."""
  kind = np.array(vocabulary_list).dtype
  if kind.kind in "SUO":
    return dtypes.string
  return dtypes.as_dtype(kind)


@export("feature_column.categorical_column_with_identity")
def categorical_column_with_identity(key, num_buckets, default_value=None):
  """Ids: the integer values themselves, in [0, num_buckets)."""
  if num_buckets < 1:
    raise ValueError("num_buckets {} < 1, column_name {}".format(num_buckets, key))
  if default_value is not None and (default_value < 0 or default_value >= num_buckets):
    raise ValueError("default_value {} not in range [0, {}), column_name {}"
                     .format(default_value, num_buckets, key))
  _assert_key_is_string(key)
  return cat.IdentityCategoricalColumn(key=key, number_buckets=num_buckets,
                                       default_value=default_value)


@export("feature_column.indicator_column")
def indicator_column(categorical_column):
  """A categorical column as multi-hot (count) vectors."""
  if not isinstance(categorical_column, fc.CategoricalColumn):
    raise ValueError("Unsupported input type. Input must be a CategoricalColumn. Given: {}"
                     .format(categorical_column))
  return fc.IndicatorColumn(categorical_column)


@export("feature_column.weighted_categorical_column")
def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
  """`categorical_column`'s ids weighted by the feature `weight_feature_key`."""
  dtype = None if dtype is None else dtypes.as_dtype(dtype)
  if dtype is None or not (dtype.is_integer or dtype.is_floating):
    raise ValueError("dtype {} is not convertible to float.".format(dtype))
  return cat.WeightedCategoricalColumn(categorical_column=categorical_column,
                                       weight_feature_key=weight_feature_key, dtype=dtype)


@export("feature_column.crossed_column")
def crossed_column(keys, hash_bucket_size, hash_key=None):
  """Hashed crosses of raw string features and categorical columns."""
  if not hash_bucket_size or hash_bucket_size < 1:
    raise ValueError("hash_bucket_size must be > 1. hash_bucket_size: {}"
                     .format(hash_bucket_size))
  if not keys or len(keys) < 2:
    raise ValueError("keys must be a list with length > 1. Given: {}".format(keys))
  for key in keys:
    if not isinstance(key, (str, fc.CategoricalColumn)):
      raise ValueError("Unsupported key type. All keys must be either string, or categorical "
                       "column except HashedCategoricalColumn. Given: {}".format(key))
    if isinstance(key, cat.HashedCategoricalColumn):
      raise ValueError("categorical_column_with_hash_bucket is not supported for crossing. "
                       "Hashing before crossing will increase probability of collision. "
                       "Instead, use the feature name as a string. Given: {}".format(key))
  return cat.CrossedColumn(keys=tuple(keys), hash_bucket_size=hash_bucket_size,
                           hash_key=hash_key)


@export("feature_column.embedding_column")
def embedding_column(categorical_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True):
  """Dense embeddings of a categorical column's ids (table [num_buckets, dimension])."""
  if dimension is None or dimension < 1:
    raise ValueError("Invalid dimension {}.".format(dimension))
  if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
    raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none "
                     "of them.")
  if initializer is not None and not callable(initializer):
    raise ValueError("initializer must be callable if specified. Embedding of column_name: {}"
                     .format(categorical_column.name))
  if ckpt_to_load_from is not None:
    raise NotImplementedError("embedding_column(ckpt_to_load_from=...) is not supported by "
                              "tfe_compat: it cannot read TensorFlow checkpoints. Initialize "
                              "the embedding from NumPy values with an initializer instead.")
  if initializer is None:
    initializer = init_ops.TruncatedNormal(mean=0.0, stddev=1 / math.sqrt(dimension))
  return fc.EmbeddingColumn(categorical_column=categorical_column, dimension=dimension,
                            combiner=combiner, initializer=initializer,
                            ckpt_to_load_from=ckpt_to_load_from,
                            tensor_name_in_ckpt=tensor_name_in_ckpt, max_norm=max_norm,
                            trainable=trainable)


@export("feature_column.shared_embedding_columns")
def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True):
  """TF raises RuntimeError when executing eagerly, as tfe_compat always does."""
  raise RuntimeError("shared_embedding_columns are not supported when eager execution is "
                     "enabled.")


# ---- Sequence columns ----
@export("feature_column.sequence_numeric_column")
def sequence_numeric_column(key, shape=(1,), default_value=0., dtype=dtypes.float32,
                            normalizer_fn=None):
  """Sparse sequences of numeric values of `shape` per step (for SequenceFeatures)."""
  shape = fc.check_shape(shape, key)
  dtype = dtypes.as_dtype(dtype)
  if not (dtype.is_integer or dtype.is_floating):
    raise ValueError("dtype must be convertible to float. dtype: {}, key: {}".format(dtype, key))
  if normalizer_fn is not None and not callable(normalizer_fn):
    raise TypeError("normalizer_fn must be a callable. Given: {}".format(normalizer_fn))
  return fc.SequenceNumericColumn(key, shape=shape, default_value=default_value, dtype=dtype,
                                  normalizer_fn=normalizer_fn)


def _sequence(make):
  def constructor(*args, **kwargs):
    return fc.SequenceCategoricalColumn(make(*args, **kwargs))
  constructor.__name__ = "sequence_" + make.__name__
  constructor.__doc__ = "`%s` over sequences (for SequenceFeatures)." % make.__name__
  return export("feature_column." + constructor.__name__)(constructor)


sequence_categorical_column_with_identity = _sequence(categorical_column_with_identity)
sequence_categorical_column_with_hash_bucket = _sequence(categorical_column_with_hash_bucket)
sequence_categorical_column_with_vocabulary_file = _sequence(
    categorical_column_with_vocabulary_file)
sequence_categorical_column_with_vocabulary_list = _sequence(
    categorical_column_with_vocabulary_list)


# ---- Parsing spec ----
@export("feature_column.make_parse_example_spec")
def make_parse_example_spec(feature_columns):
  """{feature key: FixedLenFeature or VarLenFeature} for `tf.io.parse_example`."""
  result = {}
  for column in feature_columns:
    if not isinstance(column, fc.FeatureColumn) or not column.v1_api:
      raise ValueError("All feature_columns must be _FeatureColumn instances. Given: {}"
                       .format(column))
    for key, value in column.parse_example_spec.items():
      if key in result and value != result[key]:
        raise ValueError("feature_columns contain different parse_spec for key {}. Given {} "
                         "and {}".format(key, value, result[key]))
    result.update(column.parse_example_spec)
  return result


# ---- input_layer / linear_model ----
def normalize_feature_columns(feature_columns, sort=False):
  """`feature_columns` as a list (checked, names unique; sorted by name for Keras layers)."""
  if isinstance(feature_columns, fc.FeatureColumn):
    feature_columns = [feature_columns]
  if isinstance(feature_columns, collections.abc.Iterator):
    feature_columns = list(feature_columns)
  if isinstance(feature_columns, dict):
    raise ValueError("Expected feature_columns to be iterable, found dict.")
  for column in feature_columns:
    if not isinstance(column, fc.FeatureColumn) or not (sort or column.v1_api):
      raise ValueError("Items of feature_columns must be a {}FeatureColumn. Given (type {}): {}."
                       .format("" if sort else "_", type(column), column))
  if not feature_columns:
    raise ValueError("feature_columns must not be empty.")
  names = {}
  for column in feature_columns:
    if column.name in names:
      raise ValueError("Duplicate feature column name found for columns: {} and {}. This "
                       "usually means that these columns refer to same base feature. Either "
                       "one must be discarded or a duplicated but renamed item must be "
                       "inserted in features dict.".format(column, names[column.name]))
    names[column.name] = column
  return sorted(feature_columns, key=lambda c: c.name) if sort else list(feature_columns)


def verify_static_batch_size_equality(tensors, columns):
  expected, first = None, None
  for tensor, column in zip(tensors, columns):
    batch = tensor.shape[0]
    if batch is None:
      continue
    if expected is None:
      expected, first = batch, column
    elif batch != expected:
      raise ValueError("Batch size (first dimension) of each feature must be same. Batch size "
                       "of columns ({}, {}): ({}, {})".format(first.name, column.name,
                                                             expected, batch))


class _ScopeState:
  """input_layer's state manager: variables from get_variable in the current variable scope."""

  def __init__(self, trainable):
    self._trainable = trainable
    self._variables, self._resources = {}, {}
    self.created = []

  def create_variable(self, column, name, shape, dtype=None, trainable=True, initializer=None):
    variable = variables.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                      trainable=trainable and self._trainable)
    self._variables[(column, name)] = variable
    self.created.append(variable)
    return variable

  def get_variable(self, column, name):
    if (column, name) not in self._variables:
      column.create_state(self)
    return self._variables[(column, name)]

  def resource(self, column, name, make):
    if (column, name) not in self._resources:
      self._resources[(column, name)] = make()
    return self._resources[(column, name)]


def dense_output(column, tensor):
  """A column's dense tensor reshaped to [batch, num_elements]."""
  return array_ops.reshape(tensor, [fc.batch_size(tensor), column.variable_shape.num_elements()])


@export("feature_column.input_layer")
def input_layer(features, feature_columns, weight_collections=None, trainable=True,
                cols_to_vars=None, cols_to_output_tensors=None):
  """The dense columns' tensors for `features`, concatenated: [batch, sum of sizes].

  `cols_to_vars` receives each column's variables (TF's eager mode leaves these lists
  empty: it reads them from graph collections, which eager execution does not fill).
  """
  feature_columns = normalize_feature_columns(feature_columns)
  for column in feature_columns:
    if not isinstance(column, fc.DenseColumn):
      raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a "
                       "categorical column with an embedding_column or indicator_column. "
                       "Given: {}".format(column))
  cache = fc.FeatureTransformationCache(features)
  outputs, ordered = [], sorted(feature_columns, key=lambda c: c.name)
  with vs.variable_scope(None, default_name="input_layer"):
    for column in ordered:
      with vs.variable_scope(None, default_name=column.name):
        state = _ScopeState(trainable)
        output = dense_output(column, column.get_dense_tensor(cache, state))
        outputs.append(output)
        if cols_to_vars is not None:
          cols_to_vars[column] = state.created
        if cols_to_output_tensors is not None:
          cols_to_output_tensors[column] = output
  verify_static_batch_size_equality(outputs, ordered)
  return array_ops.concat(outputs, 1)


@export("feature_column.linear_model")
def linear_model(features, feature_columns, units=1, sparse_combiner="sum",
                 weight_collections=None, trainable=True, cols_to_vars=None):
  """A linear model of the columns: sum of per-column weighted sums (weights
  "linear_model/<column>/weights", zeros) plus "linear_model/bias_weights": [batch, units].

  `cols_to_vars` receives each column's weights and the bias (TF's eager mode leaves the
  columns' lists empty, see input_layer).
  """
  with vs.variable_scope(None, "linear_model") as scope:
    model_name = scope.name.rsplit("/", 1)[-1]
  feature_columns = normalize_feature_columns(feature_columns)
  ordered = sorted(feature_columns, key=lambda c: c.name)
  scope_names = []
  for column in ordered:
    with vs.variable_scope(None, default_name=column.name) as scope:
      scope_names.append(scope.name.rsplit("/", 1)[-1])
  for column in feature_columns:
    if not isinstance(column, (fc.DenseColumn, fc.CategoricalColumn)):
      raise ValueError("Items of feature_columns must be either a _DenseColumn or "
                       "_CategoricalColumn. Given: {}".format(column))
  cache = fc.FeatureTransformationCache(features)
  sums, weights = [], {}
  with vs.variable_scope(model_name):
    for column, scope_name in zip(ordered, scope_names):
      with vs.variable_scope(scope_name):
        sums.append(_weighted_sum(column, cache, units, sparse_combiner, trainable, weights))
    verify_static_batch_size_equality(sums, ordered)
    bias = variables.get_variable("bias_weights", shape=[units],
                                  initializer=init_ops.Zeros(), trainable=trainable)
  if cols_to_vars is not None:
    cols_to_vars.update({column: [weights[column]] for column in ordered})
    cols_to_vars["bias"] = [bias]
  return nn_ops.bias_add(reduction_ops.add_n(sums), bias)


def _weighted_sum(column, cache, units, sparse_combiner, trainable, weights):
  state = _ScopeState(trainable)
  if isinstance(column, fc.CategoricalColumn):
    weight = variables.get_variable("weights", shape=(column.num_buckets, units),
                                    initializer=init_ops.Zeros(), trainable=trainable)
    ids, id_weights = column.get_sparse_tensors(cache, state)
    ids = _rows(ids)
    id_weights = None if id_weights is None else _rows(id_weights)
    weights[column] = weight
    return sampled_ops.safe_embedding_lookup_sparse(weight, ids, sparse_weights=id_weights,
                                                    combiner=sparse_combiner)
  tensor = dense_output(column, column.get_dense_tensor(cache, state))
  weight = variables.get_variable("weights", shape=[column.variable_shape.num_elements(), units],
                                  initializer=init_ops.Zeros(), trainable=trainable)
  weights[column] = weight
  return matmul(tensor, weight)


def _rows(sp):
  """A SparseTensor reshaped to [batch, -1]."""
  return sparse_ops.reshape(sp, [fc.batch_size(sp), -1])
