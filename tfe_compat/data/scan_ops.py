"""Stateful transformations of `tf.data.experimental`: `scan`, `take_while`, `unique`,
`Counter`, and `get_single_element`."""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.data import dataset_ops
from tfe_compat.data import map_ops
from tfe_compat.data import structure
from tfe_compat.data import user_functions

Dataset = dataset_ops.Dataset
Failure = structure.Failure


def _dtypes_of(element):
  return [dtypes.from_numpy(np.asarray(leaf).dtype) for leaf in structure.flatten(element)]


class _Scan(Dataset):
  """`scan_func(state, element)` -> (new state, output element), from `initial_state`."""

  def __init__(self, dataset, initial_state, scan_func):
    self._input, self._fn = dataset, map_ops.dataset_function(scan_func)
    self._initial = structure.element_to_numpy(initial_state)

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    state = self._initial
    for element in self._input._make_iter():
      if type(element) is Failure:
        yield element
        continue
      result = user_functions.call(self._fn, (state, element))
      if type(result) is Failure:
        yield result
        continue
      if type(result) is not tuple or len(result) != 2:
        raise TypeError("Invalid `scan_func`. `scan_func` should return a pair consisting of "
                        "new state and the output value but its return type is %s."
                        % (structure.map_structure(structure.spec_of, result),))
      new_state, output = result
      if isinstance(new_state, list):
        new_state = tuple(new_state)
      if (_dtypes_of(new_state) != _dtypes_of(state)
          or structure.is_structure(new_state) != structure.is_structure(state)):
        raise TypeError("Invalid `scan_func`. The element types for the new state must match "
                        "the initial state. Expected %s, got %s."
                        % (user_functions.types_text(state), user_functions.types_text(new_state)))
      state = new_state
      yield output


@export("data.experimental.scan", "contrib.data.scan")
def scan(initial_state, scan_func):
  """A running state over the elements: `scan_func(state, element)` returns the next state
  and the output element."""
  return lambda dataset: _Scan(dataset, initial_state, scan_func)


class _TakeWhile(Dataset):
  def __init__(self, dataset, predicate):
    self._input = dataset
    self._fn = user_functions.bool_scalar(predicate)

  def _compute_spec(self):
    return self._input.element_spec

  def _make_iter(self):
    for element in self._input._make_iter():
      if type(element) is Failure:
        yield element
        continue
      keep = user_functions.call(self._fn, element)
      if type(keep) is Failure:
        yield keep
      elif not bool(np.asarray(keep)):
        return
      else:
        yield element


@export("data.experimental.take_while")
def take_while(predicate):
  """The elements up to (not including) the first for which `predicate` is False."""
  return lambda dataset: _TakeWhile(dataset, predicate)


class _Unique(Dataset):
  def __init__(self, dataset):
    spec = dataset.element_spec
    if not isinstance(spec, structure.TensorSpec):
      raise errors.invalid_argument("UniqueDataset only supports inputs with a single "
                                    "component.")
    if spec.dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
      raise TypeError("`tf.data.Dataset.unique` does not support type %s -- only `tf.int32`, "
                      "`tf.int64`, and `tf.string` are supported." % spec.dtype)
    self._input, self._spec = dataset, spec

  def _make_iter(self):
    seen = set()
    for element in self._input._make_iter():
      if type(element) is not Failure:
        array = np.asarray(element)
        key = (array.shape, tuple(array.ravel().tolist()))
        if key in seen:
          continue
        seen.add(key)
      yield element


@export("data.experimental.unique", "contrib.data.unique")
def unique():
  """The elements (int32, int64 or string) without repeats, in first-seen order."""
  return _Unique


class _Counter(Dataset):
  def __init__(self, start, step, dtype):
    dtype = dtypes.as_dtype(dtype)
    self._start = structure.to_numpy(ops.convert_to_tensor(start, dtype))
    self._step = structure.to_numpy(ops.convert_to_tensor(step, dtype))
    self._spec = structure.TensorSpec([], dtype)

  def _cardinality(self):
    return dataset_ops.INFINITE

  def _make_iter(self):
    value = self._start
    while True:
      yield value
      value = (value + self._step).astype(value.dtype)


@export("data.experimental.Counter", "contrib.data.Counter")
def Counter(start=0, step=1, dtype=dtypes.int64):  # pylint: disable=invalid-name
  """The infinite dataset start, start + step, ... of `dtype` (TF's repeated additions)."""
  return _Counter(start, step, dtype)


@export("data.experimental.get_single_element", "contrib.data.get_single_element")
def get_single_element(dataset):
  """The only element of `dataset`, as Tensors."""
  if not isinstance(dataset, Dataset):
    raise TypeError("Invalid `dataset`. Expected a `tf.data.Dataset` object but got %s."
                    % type(dataset))
  elements = dataset._make_iter()
  first = next(elements, None)
  if first is None:
    raise errors.invalid_argument("Dataset was empty.")
  first = structure.checked(first)
  if next(elements, None) is not None:
    raise errors.invalid_argument("Dataset had more than one element.")
  return structure.element_to_tensors(first)
