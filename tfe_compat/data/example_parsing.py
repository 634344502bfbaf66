"""`tf.train.Example` protos and `tf.parse_single_example` / `tf.io.parse_example`.

The message classes are compiled from TF's example.proto / feature.proto schema
(tfe_compat/proto), so their serializations are byte-compatible with TensorFlow's.
"""
import collections

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.string_ops import SparseTensor
from tfe_compat.proto import example_pb2, feature_pb2

BytesList, FloatList, Int64List = (feature_pb2.BytesList, feature_pb2.FloatList,
                                   feature_pb2.Int64List)
Feature, Features, FeatureList = feature_pb2.Feature, feature_pb2.Features, feature_pb2.FeatureList
FeatureLists, Example = feature_pb2.FeatureLists, example_pb2.Example
SequenceExample = example_pb2.SequenceExample
for _cls in (BytesList, FloatList, Int64List, Feature, Features, FeatureList, FeatureLists,
             Example, SequenceExample):
  export("train." + _cls.__name__)(_cls)


# ---- feature configurations ----
@export("FixedLenFeature", "io.FixedLenFeature")
class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
  """A dense feature of fixed `shape`; `default_value` fills it when it is missing."""

  def __new__(cls, shape, dtype, default_value=None):
    return super().__new__(cls, shape, dtype, default_value)


@export("VarLenFeature", "io.VarLenFeature")
class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
  """A variable-length feature, parsed into a SparseTensor."""


@export("FixedLenSequenceFeature", "io.FixedLenSequenceFeature")
class FixedLenSequenceFeature(collections.namedtuple(
    "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
  """A dense feature of a variable number of `shape`-shaped values (stacked)."""

  def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
    return super().__new__(cls, shape, dtype, allow_missing, default_value)


@export("io.SparseFeature", "SparseFeature")
class SparseFeature(collections.namedtuple(
    "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
  """A SparseTensor of `size` built from an index feature (or one per dimension) and a value
  feature of the same length."""

  def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
    return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


def _index_keys(config):
  return list(config.index_key) if isinstance(config.index_key, (list, tuple)) else [
      config.index_key]


def _plain_features(features):
  """`features` with each SparseFeature replaced by VarLenFeatures of its keys."""
  plain = {k: c for k, c in features.items() if not isinstance(c, SparseFeature)}
  for config in features.values():
    if isinstance(config, SparseFeature):
      for key in _index_keys(config):
        plain.setdefault(key, VarLenFeature(dtypes.int64))
      plain.setdefault(config.value_key, VarLenFeature(config.dtype))
  return plain


def _sparse_feature(config, parsed, batched):
  """The SparseTensor of a SparseFeature from parsed examples (dicts of NumPy arrays)."""
  dtype = _check_dtype(config.value_key, config.dtype)
  indices, values = [], []
  for row, example in enumerate(parsed):
    ids = [example[key] for key in _index_keys(config)]
    vals = example[config.value_key]
    for part in ids:
      if len(part) != len(vals):
        raise ValueError("Dimensions %d and %d are not compatible" % (len(part), len(vals)))
    coords = np.stack(ids, axis=1) if ids else np.zeros((len(vals), 0), np.int64)
    if not config.already_sorted:
      order = np.lexsort(coords.T[::-1]) if len(coords) else np.zeros(0, np.int64)
      coords, vals = coords[order], vals[order]
    if batched:
      coords = np.concatenate([np.full((len(vals), 1), row, np.int64), coords], axis=1)
    indices.append(coords.astype(np.int64))
    values.append(vals)
  size = list(config.size) if isinstance(config.size, (list, tuple)) else [config.size]
  shape = ([len(parsed)] if batched else []) + [int(d) for d in size]
  values = np.concatenate(values).astype(dtype.as_numpy_dtype or object)
  return SparseTensor(_tensor(np.concatenate(indices).reshape(-1, len(shape))),
                      _tensor(values), _tensor(np.array(shape, np.int64)))


_KINDS = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_KIND_NAMES = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}


def _where(key, index, name):
  """How TF's errors locate a feature: "Key: k." for one Example, more in a batch."""
  if name is None:
    return "Key: %s." % key
  return "Name: %s, Key: %s, Index: %d." % (name, key, index)


def _values(features, key, dtype, index, name):
  """The values of feature `key` of a Features map (of one Example) as NumPy, or None."""
  if key not in features:
    return None
  feature = features[key]
  kind = feature.WhichOneof("kind")
  if kind is None:
    return None
  want = _KINDS[dtype.name]
  if kind != want:
    raise errors.invalid_argument(
        "%s  Data types don't match. Data type: %s but expected type: %s [Op:ParseExampleV2]"
        % (_where(key, index, name), _KIND_NAMES[kind], _KIND_NAMES[want]))
  values = getattr(feature, kind).value
  if dtype is dtypes.string:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out
  return np.asarray(values, dtype=dtype.as_numpy_dtype)


def _check_dtype(key, dtype):
  dtype = dtypes.as_dtype(dtype)
  if dtype.name not in _KINDS:
    raise ValueError("Unsupported dtype %s for feature %s: use tf.float32, tf.int64 or "
                     "tf.string." % (dtype.name, key))
  return dtype


def _parse_one(serialized, features, index, name):
  example = Example()
  try:
    example.ParseFromString(serialized)
  except Exception:  # pylint: disable=broad-except
    raise errors.invalid_argument("Could not parse example input, value: '%s'"
                                  % (serialized,)) from None
  return parse_features(example.features.feature, features, index, name)


def parse_features(feature_map, features, index, name):
  """NumPy values of `features` (configurations by key) from a Features map."""
  out = {}
  for key, config in features.items():
    dtype = _check_dtype(key, config.dtype)
    values = _values(feature_map, key, dtype, index, name)
    if isinstance(config, VarLenFeature):
      out[key] = values if values is not None else np.zeros(0, dtype.as_numpy_dtype or object)
      continue
    shape = tensor_shape.TensorShape(config.shape).as_list()
    if isinstance(config, FixedLenSequenceFeature):
      size = int(np.prod(shape))
      if values is None:
        if not config.allow_missing:
          raise errors.invalid_argument("Feature list '%s' is required but could not be "
                                        "found. [Op:ParseExampleV2]" % key)
        values = np.zeros(0, dtype.as_numpy_dtype or object)
      if size == 0 or len(values) % size:
        raise errors.invalid_argument(
            "%s  Number of values is not a multiple of the elements per stride (%d). "
            "[Op:ParseExampleV2]" % (_where(key, index, name), size))
      out[key] = values.reshape([-1] + shape)
      continue
    if values is None:
      if config.default_value is None:
        raise errors.invalid_argument(
            "%sFeature: %s (data type: %s) is required but could not be found. "
            "[Op:ParseExampleV2]" % ("" if name is None else "Name: %s, " % name, key,
                                     dtype.name))
      default = ops._to_numpy(_plain(config.default_value), dtype)
      values = np.broadcast_to(default, shape).copy()
    elif values.size != int(np.prod(shape)):
      kind = _KIND_NAMES[_KINDS[dtype.name]]
      if name is None:
        raise errors.invalid_argument(
            "Key: %s.  Can't parse serialized Example: Some %s_list slice was not parsed. "
            "[Op:ParseExampleV2]" % (key, kind))
      raise errors.invalid_argument(
          "%s  Number of %s values != expected.  Values size: %d but output shape: [%s] "
          "[Op:ParseExampleV2]" % (_where(key, index, name), kind, values.size,
                                   ",".join(map(str, shape))))
    out[key] = values.reshape(shape)
  return out


def _plain(value):
  return value.numpy() if isinstance(value, Tensor) else value


def _strings(serialized):
  value = _plain(serialized)
  array = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
  return array


def _sparse(rows, dtype):
  """A SparseTensor from per-example value vectors (row index prepended to each index)."""
  indices = [(i, j) for i, row in enumerate(rows) for j in range(len(row))]
  values = np.concatenate(rows) if rows else np.zeros(0)
  values = values.astype(dtype.as_numpy_dtype or object)
  width = max((len(r) for r in rows), default=0)
  return np.asarray(indices, np.int64).reshape(-1, 2), values, np.array([len(rows), width],
                                                                        np.int64)


def _tensor(array):
  return Tensor(array) if array.dtype == object else ops.convert_to_tensor(array)


@export("io.parse_example", "parse_example")
def parse_example(serialized, features, name=None, example_names=None):
  """Parses a vector of serialized Examples into a dict of batched Tensors/SparseTensors."""
  batch = _strings(serialized)
  if batch.ndim != 1:
    raise ValueError("Shape must be rank 1 but is rank %d for 'ParseExample'" % batch.ndim)
  names = (["<unknown>"] * len(batch) if example_names is None
           else [n.decode() if isinstance(n, bytes) else str(n)
                 for n in _strings(example_names).tolist()])
  plain = _plain_features(features)
  parsed = [_parse_one(s, plain, i, names[i]) for i, s in enumerate(batch.tolist())]
  out = {}
  for key, config in features.items():
    if isinstance(config, SparseFeature):
      out[key] = _sparse_feature(config, parsed, batched=True)
      continue
    dtype = _check_dtype(key, config.dtype)
    rows = [p[key] for p in parsed]
    if isinstance(config, VarLenFeature):
      out[key] = SparseTensor(*[_tensor(a) for a in _sparse(rows, dtype)])
    elif isinstance(config, FixedLenSequenceFeature):
      longest = max((len(r) for r in rows), default=0)
      fill = 0 if config.default_value is None else _plain(config.default_value)
      fill = b"" if dtype is dtypes.string and not fill else fill
      shape = [len(rows), longest] + tensor_shape.TensorShape(config.shape).as_list()
      dense = np.full(shape, fill, dtype=dtype.as_numpy_dtype or object)
      for i, r in enumerate(rows):
        dense[i, :len(r)] = r
      out[key] = _tensor(dense)
    else:
      shape = [len(rows)] + tensor_shape.TensorShape(config.shape).as_list()
      stacked = np.stack(rows) if rows else np.zeros(shape, dtype.as_numpy_dtype or object)
      out[key] = _tensor(stacked)
  return out


@export("io.parse_single_example", "parse_single_example")
def parse_single_example(serialized, features, name=None, example_names=None):
  """Parses one serialized Example into a dict of Tensors (SparseTensors for VarLen)."""
  value = _strings(serialized)
  if value.ndim != 0:
    raise ValueError("Shape must be rank 0 but is rank %d for 'ParseSingleExample'"
                     % value.ndim)
  parsed = _parse_one(value.item(), _plain_features(features), 0, None)
  out = {}
  for key, config in features.items():
    if isinstance(config, SparseFeature):
      out[key] = _sparse_feature(config, [parsed], batched=False)
      continue
    array = parsed[key]
    if isinstance(config, VarLenFeature):
      out[key] = SparseTensor(_tensor(np.arange(len(array), dtype=np.int64).reshape(-1, 1)),
                              _tensor(array), _tensor(np.array([len(array)], np.int64)))
    else:
      out[key] = _tensor(array)
  return out
