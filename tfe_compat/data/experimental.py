"""`tf.data.experimental` / `tf.contrib.data` transformations (functions of a dataset), stats,
structures, and the names that have no meaning without TF's graph runtime."""
import numpy as np

from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.data import dataset_ops
from tfe_compat.data import grouping
from tfe_compat.data import iterator_ops
from tfe_compat.data import scan_ops
from tfe_compat.data import structure
from tfe_compat.data import transformations


@export("data.experimental.shuffle_and_repeat", "contrib.data.shuffle_and_repeat")
def shuffle_and_repeat(buffer_size, count=None, seed=None):
  return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


@export("data.experimental.map_and_batch", "contrib.data.map_and_batch")
def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
  calls = num_parallel_calls if num_parallel_calls is not None else num_parallel_batches
  return lambda dataset: dataset.map(map_func, calls).batch(batch_size, drop_remainder)


export("data.experimental.map_and_batch_with_legacy_function")(map_and_batch)


@export("data.experimental.parallel_interleave", "contrib.data.parallel_interleave")
def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
  """Interleave in TF's deterministic order (`sloppy` is accepted; order is kept)."""
  return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


@export("data.experimental.unbatch", "contrib.data.unbatch")
def unbatch():
  return lambda dataset: dataset.unbatch()


@export("data.experimental.enumerate_dataset", "contrib.data.enumerate_dataset")
def enumerate_dataset(start=0):
  return lambda dataset: dataset.enumerate(start)


@export("data.experimental.ignore_errors", "contrib.data.ignore_errors")
def ignore_errors(log_warning=False):
  return lambda dataset: dataset.ignore_errors(log_warning)


@export("data.experimental.prefetch_to_device", "contrib.data.prefetch_to_device")
def prefetch_to_device(device, buffer_size=None):
  """Prefetches on the host; elements move to the current device as they are produced."""
  return lambda dataset: dataset.prefetch(1 if buffer_size is None else buffer_size)


@export("data.experimental.padded_batch_and_drop_remainder",
        "contrib.data.padded_batch_and_drop_remainder")
def padded_batch_and_drop_remainder(batch_size, padded_shapes, padding_values=None):
  return lambda dataset: dataset.padded_batch(batch_size, padded_shapes, padding_values, True)


@export("contrib.data.batch_and_drop_remainder")
def batch_and_drop_remainder(batch_size):
  return lambda dataset: dataset.batch(batch_size, drop_remainder=True)


@export("contrib.data.sloppy_interleave")
def sloppy_interleave(map_func, cycle_length, block_length=1):
  return parallel_interleave(map_func, cycle_length, block_length, sloppy=True)


class _CopyToDevice(dataset_ops.Dataset):
  """The input's elements; they reach the device as every element does when it leaves the
  pipeline (eager tf.data keeps elements on the host until then)."""

  def __init__(self, dataset, target_device):
    self._input, self._device = dataset, target_device

  def _compute_spec(self):
    return self._input.element_spec

  def _make_iter(self):
    return self._input._make_iter()


@export("data.experimental.copy_to_device", "contrib.data.copy_to_device")
def copy_to_device(target_device, source_device="/cpu:0"):
  return lambda dataset: _CopyToDevice(dataset, target_device)


class _Slide(dataset_ops.Dataset):
  """Batches of `size` elements `stride` apart, starting every `shift` elements; the
  incomplete windows at the end are dropped (contrib's sliding_window_batch)."""

  def __init__(self, dataset, size, shift, stride):
    self._windows = transformations.Window(dataset, size, shift, stride, True)
    self._input = dataset

  def _compute_spec(self):
    return structure.map_structure(
        lambda s: structure.TensorSpec(tensor_shape.TensorShape([None]).concatenate(s.shape),
                                       s.dtype), self._input.element_spec)

  def _make_iter(self):
    for window in self._windows._make_iter():
      if type(window) is structure.Failure:
        yield window
        continue
      columns = [leaf._elements for leaf in structure.flatten(window)]
      rows = [structure.pack_as(window, row) for row in zip(*columns)]
      yield transformations.stack(rows, rows[0])


@export("contrib.data.sliding_window_batch")
def sliding_window_batch(window_size, stride=None, window_shift=None, window_stride=1):
  """Sliding windows of `window_size` elements as batches (contrib, deprecated)."""
  if stride is not None and window_shift is not None:
    raise ValueError("Cannot specify both `stride` and `window_shift`")
  shift = window_shift if window_shift is not None else 1 if stride is None else stride
  return lambda dataset: _Slide(dataset, dataset_ops._int(window_size),
                                dataset_ops._int(shift), dataset_ops._int(window_stride))


class _AssertShape(dataset_ops.Dataset):
  def __init__(self, dataset, expected_shapes):
    self._input = dataset
    expected = structure.map_structure(tensor_shape.TensorShape,
                                       structure.normalize_types(expected_shapes))
    self._expected = structure.flatten(expected)
    self._spec = structure.pack_as(dataset.element_spec, [
        type(s)(s.shape.merge_with(shape), s.dtype)
        for s, shape in zip(structure.flatten(dataset.element_spec), self._expected)])

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    for element in self._input._make_iter():
      if type(element) is not structure.Failure:
        for leaf, shape in zip(structure.flatten(element), self._expected):
          if not shape.is_compatible_with(leaf.shape):
            element = structure.Failure(errors.invalid_argument(
                "Shape of tensor [%s] is not compatible with expected shape [%s]."
                % (",".join(map(str, leaf.shape)),
                   ",".join("?" if d is None else str(d) for d in shape.as_list()))))
            break
      yield element


@export("contrib.data.assert_element_shape")
def assert_element_shape(expected_shapes):
  """Checks each element's shapes against `expected_shapes` and narrows the static shapes."""
  return lambda dataset: _AssertShape(dataset, expected_shapes)


@export("contrib.data.reduce_dataset")
def reduce_dataset(dataset, reducer):
  """All the elements reduced by a `tf.data.experimental.Reducer` (one group)."""
  if not isinstance(dataset, dataset_ops.Dataset):
    raise TypeError("`dataset` must be a `tf.data.Dataset` object.")
  return scan_ops.get_single_element(
      dataset.apply(grouping.group_by_reducer(lambda *x: np.int64(0), reducer)))


@export("data.experimental.get_structure")
def get_structure(dataset_or_iterator):
  """The element spec of a dataset or iterator."""
  if not isinstance(dataset_or_iterator, (dataset_ops.Dataset, iterator_ops.Iterator)):
    raise TypeError("Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a "
                    "`tf.data.Dataset` or tf.data.Iterator object, but got %s."
                    % type(dataset_or_iterator))
  return dataset_or_iterator.element_spec


# ---- statistics: recorded only for a StatsAggregator, which tfe_compat does not fill ----
@export("data.experimental.StatsAggregator", "contrib.data.StatsAggregator")
class StatsAggregator:
  """Collects the statistics of `latency_stats` / `bytes_produced_stats`; tfe_compat records
  none, so `get_summary()` raises."""

  def get_summary(self):
    raise NotImplementedError("tf.data statistics (StatsAggregator.get_summary) are not "
                              "recorded by tfe_compat.")


@export("data.experimental.latency_stats", "contrib.data.latency_stats")
def latency_stats(tag):
  """The dataset unchanged (the latency it would record goes to no aggregator here)."""
  return lambda dataset: dataset


@export("data.experimental.bytes_produced_stats")
def bytes_produced_stats(tag):
  """The dataset unchanged (the sizes it would record go to no aggregator here)."""
  return lambda dataset: dataset


@export("contrib.data.set_stats_aggregator")
def set_stats_aggregator(stats_aggregator, prefix="", counter_prefix=""):
  return lambda dataset: dataset


# ---- names of TF's graph runtime ----
@export("data.experimental.CheckpointInputPipelineHook",
        "contrib.data.CheckpointInputPipelineHook")
class CheckpointInputPipelineHook:
  """A `tf.estimator` hook saving iterator state: Estimator is not supported."""

  def __init__(self, estimator):
    raise NotImplementedError("CheckpointInputPipelineHook is an Estimator hook; tfe_compat "
                              "does not support tf.estimator.")


@export("data.experimental.make_saveable_from_iterator",
        "contrib.data.make_saveable_from_iterator")
def make_saveable_from_iterator(iterator):
  """A graph-mode SaveableObject: eagerly, TF fails on the name of the iterator's resource
  (save an iterator's position with `tf.train.Checkpoint(iterator=...)` instead)."""
  raise AttributeError("Tensor.name is meaningless when eager execution is enabled.")


@export("data.experimental.to_variant")
def to_variant(dataset):
  raise NotImplementedError("tf.data.experimental.to_variant: tfe_compat datasets have no "
                            "variant tensor; pass the Dataset object itself.")


@export("data.experimental.from_variant")
def from_variant(variant, structure):  # pylint: disable=redefined-outer-name
  raise NotImplementedError("tf.data.experimental.from_variant: tfe_compat datasets have no "
                            "variant tensor; pass the Dataset object itself.")
