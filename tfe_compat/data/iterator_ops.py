"""Iterators over datasets: `iter(dataset)`, `make_one_shot_iterator()`, `tfe.Iterator`."""
import itertools

import numpy as np

from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.trackable import Trackable
from tfe_compat.data import dataset_ops
from tfe_compat.data import graph_datasets
from tfe_compat.data import optional_ops
from tfe_compat.data import structure

_EAGER = "is not supported when eager execution is enabled."


@export("data.Iterator", "contrib.eager.Iterator")
class Iterator(Trackable):
  """Yields a dataset's elements as (nests of) Tensors; `next()`/`__next__` raise
  StopIteration at the end, `get_next()` raises `tf.errors.OutOfRangeError`.
  A checkpoint saves its position (the number of elements read); restoring reads the
  pipeline again up to that position."""

  def __init__(self, dataset):
    self._dataset = dataset
    self._elements = dataset._make_iter()
    self._position = 0

  def __iter__(self):
    return self

  def __next__(self):
    element = next(self._elements)
    self._position += 1
    return structure.element_to_tensors(structure.checked(element))

  def _checkpoint_values(self):
    return {".ATTRIBUTES/ITERATOR_STATE": np.array(self._position, np.int64)}

  def _checkpoint_restore_value(self, name, array):
    randomized = _randomized(self._dataset)
    if randomized is not None:
      raise NotImplementedError(
          "Restoring an iterator over a dataset with %s: tfe_compat restores an iterator by "
          "reading its pipeline again, which would draw other random numbers."
          % type(randomized).__name__)
    position = int(array)
    self._elements = self._dataset._make_iter()
    for _ in itertools.islice(self._elements, position):
      pass
    self._position = position

  next = __next__

  def get_next(self, name=None):
    try:
      return self.__next__()
    except StopIteration:
      raise errors.OutOfRangeError(None, None, "End of sequence") from None

  def get_next_as_optional(self):
    return optional_ops.next_as_optional(self)

  element_spec = property(lambda self: self._dataset.element_spec)
  output_shapes = property(lambda self: self._dataset.output_shapes)
  output_types = property(lambda self: self._dataset.output_types)
  output_classes = property(lambda self: self._dataset.output_classes)

  @property
  def initializer(self):
    raise RuntimeError("Iterator.initializer " + _EAGER)

  def make_initializer(self, dataset, name=None):
    raise RuntimeError("Iterator.make_initializer " + _EAGER)

  def string_handle(self, name=None):
    raise RuntimeError("Iterator.string_handle " + _EAGER)

  @staticmethod
  def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
    if not graph_datasets.building():
      raise RuntimeError("Iterator.from_structure " + _EAGER)
    return graph_datasets.GraphIterator.from_structure(output_types, output_shapes)

  @staticmethod
  def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
    if not graph_datasets.building():
      raise RuntimeError("Iterator.from_string_handle " + _EAGER)
    return graph_datasets.GraphIterator.from_string_handle(string_handle, output_types,
                                                           output_shapes)


def _randomized(dataset):
  """The first dataset of the pipeline (`dataset` and what it reads) that draws random
  numbers, or None."""
  if getattr(dataset, "_draws_random", False):
    return dataset
  for source in dataset_ops._inputs(dataset):
    found = _randomized(source)
    if found is not None:
      return found
  return None


@export("data.make_one_shot_iterator")
def make_one_shot_iterator(dataset):
  if isinstance(dataset, graph_datasets.GraphDataset):
    return dataset.make_one_shot_iterator()
  return Iterator(dataset)


@export("data.make_initializable_iterator")
def make_initializable_iterator(dataset, shared_name=None):
  if isinstance(dataset, graph_datasets.GraphDataset):
    return dataset.make_initializable_iterator(shared_name)
  raise RuntimeError("`make_initializable_iterator()` is not supported in eager mode. Use "
                     "Python-style iteration instead.")


@export("data.get_output_shapes")
def get_output_shapes(dataset_or_iterator):
  return dataset_or_iterator.output_shapes


@export("data.get_output_types")
def get_output_types(dataset_or_iterator):
  return dataset_or_iterator.output_types


@export("data.get_output_classes")
def get_output_classes(dataset_or_iterator):
  return dataset_or_iterator.output_classes
