"""`tf.io.parse_single_sequence_example` / `tf.io.parse_sequence_example`: SequenceExamples
into context features (parsed as Examples' features are) and per-step feature lists
(FixedLenSequenceFeature: dense [steps, ...]; VarLenFeature: SparseTensor [steps, width])."""
import numpy as np

from tfe_compat.data import example_parsing
from tfe_compat.data.example_parsing import (FixedLenFeature, FixedLenSequenceFeature,
                                             SequenceExample, SparseFeature, VarLenFeature)
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.ops.string_ops import SparseTensor

_OP = "[Op:ParseSequenceExampleV2]"


def _check_configs(context_features, sequence_features):
  if context_features is None and sequence_features is None:
    raise ValueError("Both context_features and sequence_features are None, but at least one "
                     "should have values.")
  for key, config in (context_features or {}).items():
    if not isinstance(config, (FixedLenFeature, VarLenFeature, SparseFeature)):
      raise ValueError("Unsupported %s %s for key '%s'" % (type(config).__name__, config, key))
  for key, config in (sequence_features or {}).items():
    if not isinstance(config, (FixedLenSequenceFeature, VarLenFeature)):
      raise ValueError("Unsupported %s %s for key '%s'" % (type(config).__name__, config, key))
    if isinstance(config, FixedLenSequenceFeature) and config.default_value is not None:
      raise ValueError("Value feature_list.dense_defaults[%s] must be None" % key)
  return context_features or {}, sequence_features or {}


def _parse(serialized, name):
  example = SequenceExample()
  try:
    example.ParseFromString(serialized)
  except Exception:  # pylint: disable=broad-except
    raise errors.invalid_argument("Invalid protocol message input, example id: %s %s"
                                  % (name, _OP)) from None
  return example


def _context_examples(examples):
  """Each SequenceExample's context as a serialized Example."""
  return [example_parsing.Example(features=e.context).SerializeToString() for e in examples]


def _renamed_op(error):
  return errors.invalid_argument(str(error).replace("[Op:ParseExampleV2]", _OP))


def _steps(example, key, config, name):
  """A list of NumPy arrays, the values of each step of feature list `key`."""
  dtype = example_parsing._check_dtype(key, config.dtype)
  lists = example.feature_lists.feature_list
  if key not in lists:
    if isinstance(config, FixedLenSequenceFeature) and not config.allow_missing:
      raise errors.invalid_argument(
          "Name: %s, Feature list '%s' is required but could not be found.  Did you mean to "
          "include it in feature_list_dense_missing_assumed_empty or "
          "feature_list_dense_defaults? %s" % (name, key, _OP))
    return []
  want = example_parsing._KINDS[dtype.name]
  steps = []
  for index, feature in enumerate(lists[key].feature):
    kind = feature.WhichOneof("kind")
    if kind not in (None, want):
      raise errors.invalid_argument(
          "Name: %s, Feature list: %s, Index: %d.  Data types don't match. Expected type: %s "
          "%s" % (name, key, index, example_parsing._KIND_NAMES[want], _OP))
    values = list(getattr(feature, want).value)
    array = np.empty(len(values), object) if dtype is dtypes.string else None
    if array is not None:
      array[:] = values
    steps.append(array if array is not None else np.asarray(values, dtype.as_numpy_dtype))
  if isinstance(config, FixedLenSequenceFeature):
    shape = tensor_shape.TensorShape(config.shape).as_list()
    for index, values in enumerate(steps):
      if values.size != int(np.prod(shape)):
        raise errors.invalid_argument(
            "Name: %s, Key: %s, Index: %d.  Number of values != expected.  values size: %d "
            "but output shape: [%s] %s" % (name, key, index, values.size,
                                           ",".join(map(str, shape)), _OP))
  return steps


def _numpy_dtype(config):
  return dtypes.as_dtype(config.dtype).as_numpy_dtype or object


def _dense(config, examples_steps):
  """[batch, longest, ...shape] of the steps, padded with zeros (b"" for strings)."""
  shape = tensor_shape.TensorShape(config.shape).as_list()
  longest = max((len(s) for s in examples_steps), default=0)
  dtype = _numpy_dtype(config)
  out = np.full([len(examples_steps), longest] + shape, b"" if dtype is object else 0, dtype)
  for row, steps in enumerate(examples_steps):
    if steps:
      out[row, :len(steps)] = np.stack(steps).reshape([len(steps)] + shape)
  return out


def _sparse(config, examples_steps):
  """(indices [n, 2 or 3], values, dense shape) of steps of variable length."""
  indices, values = [], []
  for row, steps in enumerate(examples_steps):
    for step, step_values in enumerate(steps):
      indices.extend((row, step, j) for j in range(len(step_values)))
      values.extend(step_values.tolist())
  longest = max((len(s) for s in examples_steps), default=0)
  width = max((len(v) for s in examples_steps for v in s), default=0)
  array = np.empty(len(values), object) if _numpy_dtype(config) is object else None
  if array is not None:
    array[:] = values
  else:
    array = np.asarray(values, _numpy_dtype(config))
  return (np.asarray(indices, np.int64).reshape(-1, 3), array,
          np.array([len(examples_steps), longest, width], np.int64))


def _feature_lists(examples, sequence_features, names, batched):
  """(feature lists by key, lengths by key) of parsed SequenceExamples."""
  lists, lengths = {}, {}
  for key, config in sequence_features.items():
    steps = [_steps(e, key, config, n) for e, n in zip(examples, names)]
    if isinstance(config, FixedLenSequenceFeature):
      dense = _dense(config, steps)
      lists[key] = example_parsing._tensor(dense if batched else dense[0])
      counts = np.array([len(s) for s in steps], np.int64)
      lengths[key] = example_parsing._tensor(counts if batched else counts[0])
    else:
      indices, values, shape = _sparse(config, steps)
      if not batched:
        indices, shape = indices[:, 1:], shape[1:]
      lists[key] = SparseTensor(example_parsing._tensor(indices),
                                example_parsing._tensor(values),
                                example_parsing._tensor(shape))
  return lists, lengths


def _parse_all(serialized, names, context_features, sequence_features, batched,
               example_names=None):
  """(context, feature lists, lengths) of a list of serialized SequenceExamples."""
  examples = [_parse(s, n) for s, n in zip(serialized, names)]
  context = {}
  if context_features:
    contexts = _context_examples(examples)
    try:
      context = (example_parsing.parse_example(contexts, context_features,
                                               example_names=example_names) if batched
                 else example_parsing.parse_single_example(contexts[0], context_features))
    except errors.InvalidArgumentError as e:
      raise _renamed_op(e) from None
  lists, lengths = _feature_lists(examples, sequence_features, names, batched)
  return context, lists, lengths


@export("io.parse_single_sequence_example", "parse_single_sequence_example")
def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
  """(context dict, feature list dict) of one serialized SequenceExample."""
  context_features, sequence_features = _check_configs(context_features, sequence_features)
  value = example_parsing._strings(serialized)
  if value.ndim != 0:
    raise ValueError("Input serialized must be a scalar")
  label = "<unknown>" if example_name is None else str(example_parsing._plain(example_name))
  return _parse_all([value.item()], [label], context_features, sequence_features,
                    batched=False)[:2]


@export("io.parse_sequence_example")
def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
  """(context dict, feature list dict, lengths dict) of a vector of SequenceExamples: feature
  lists padded to the longest example, lengths for the dense ones."""
  context_features, sequence_features = _check_configs(context_features, sequence_features)
  batch = example_parsing._strings(serialized)
  if batch.ndim == 0:  # as TF 2 does: one SequenceExample, no batch dimension
    return _parse_all([batch.item()], ["<unknown>"], context_features, sequence_features,
                      batched=False)
  if batch.ndim != 1:
    raise ValueError("Input serialized must be a vector")
  names = (["<unknown>"] * len(batch) if example_names is None
           else [n.decode() if isinstance(n, bytes) else str(n)
                 for n in example_parsing._strings(example_names).tolist()])
  return _parse_all(batch.tolist(), names, context_features, sequence_features, batched=True,
                    example_names=example_names)
