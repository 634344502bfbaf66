"""Grouping transformations: `tf.data.experimental.group_by_window`,
`bucket_by_sequence_length`, `group_by_reducer` and `Reducer` (TF's orders: a window is
reduced when it fills, the rest at the end by ascending key; reducer results in the order the
keys first appeared)."""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.data import dataset_ops
from tfe_compat.data import structure
from tfe_compat.data import transformations
from tfe_compat.data import type_specs
from tfe_compat.data import user_functions

Failure = structure.Failure


def _window_size_error(size):
  return errors.invalid_argument("Window size must be greater than zero, but got %d." % size)


class _GroupByWindow(dataset_ops.Dataset):
  """Windows of elements by key. `key_of(element)`, `size_of(key)` and
  `reduce_of(key, window)` return an int, an int and a Dataset, or a Failure."""

  def __init__(self, dataset, key_of, reduce_of, size_of, spec=None):
    self._input, self._key_of, self._reduce_of, self._size_of = dataset, key_of, reduce_of, size_of
    self._spec = spec

  def _compute_spec(self):
    """The spec of what `reduce_of` makes of an empty window (the window's spec, not its
    elements'), else of the first element."""
    empty = transformations.ListDataset([], self._input.element_spec)
    reduced = self._reduce_of(0, empty)
    if type(reduced) is not Failure:
      try:
        return reduced.element_spec
      except ValueError:
        pass
    return super()._compute_spec()

  def _make_iter(self):
    groups, sizes = {}, {}
    for element in self._input._make_iter():
      if type(element) is Failure:
        yield element
        continue
      key = self._key_of(element)
      if type(key) is Failure:
        yield key
        continue
      if key not in sizes:
        size = self._size_of(key)
        if type(size) is not Failure and size <= 0:
          size = Failure(_window_size_error(size))
        if type(size) is Failure:
          yield size
          continue
        sizes[key] = size
      group = groups.setdefault(key, [])
      group.append(element)
      if len(group) == sizes[key]:
        del groups[key]
        yield from self._flush(key, group)
    for key in sorted(groups):
      yield from self._flush(key, groups[key])

  def _flush(self, key, group):
    reduced = self._reduce_of(key, transformations.ListDataset(group, self._input.element_spec))
    if type(reduced) is Failure:
      yield reduced
    else:
      yield from reduced._make_iter()


def _int(value):
  return value if type(value) is Failure else int(np.asarray(value))


def _reduce_with(reduce_func):
  """`reduce_of` for a user's `reduce_func(key, window_dataset)`."""
  def reduce_of(key, window):
    reduced = user_functions.call(reduce_func, (np.int64(key), window))
    if type(reduced) is not Failure and not isinstance(reduced, dataset_ops.Dataset):
      raise TypeError("Invalid `reduce_func`. `reduce_func` must return a single "
                      "`tf.data.Dataset` object but its return type is %s."
                      % (structure.map_structure(structure.spec_of, reduced),))
    return reduced
  return reduce_of


@export("data.experimental.group_by_window", "contrib.data.group_by_window")
def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
  """Groups elements by `key_func(element)` (an int64 scalar) into windows of
  `window_size` (or `window_size_func(key)`) elements; `reduce_func(key, window)` makes each
  window a dataset whose elements are the output."""
  if (window_size is None) == (window_size_func is None):
    raise ValueError("Either the `window_size` argument or the `window_size_func` argument "
                     "must be specified.")
  if window_size is not None:
    size = dataset_ops._int(window_size)
    size_of = lambda key: size
  else:
    size_fn = user_functions.int64_scalar(window_size_func, "window_size_func")
    size_of = lambda key: _int(user_functions.call(size_fn, np.int64(key)))
  key_fn = user_functions.int64_scalar(key_func, "key_func")

  def apply(dataset):
    return _GroupByWindow(dataset, lambda element: _int(user_functions.call(key_fn, element)),
                          _reduce_with(reduce_func), size_of)
  return apply


@export("data.experimental.bucket_by_sequence_length",
        "contrib.data.bucket_by_sequence_length")
def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
  """Batches elements of similar length: bucket `i` holds lengths in
  [bucket_boundaries[i-1], bucket_boundaries[i]) and batches `bucket_batch_sizes[i]` of them,
  padded (to the longest, or to the boundary - 1 with `pad_to_bucket_boundary`)."""
  if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
    raise ValueError("len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1")
  boundaries = [int(b) for b in bucket_boundaries]
  batch_sizes = [int(b) for b in bucket_batch_sizes]
  lows = np.array([np.iinfo(np.int32).min] + boundaries, np.int64)
  highs = np.array(boundaries + [np.iinfo(np.int32).max], np.int64)

  def bucket_of(element):
    length = user_functions.call(element_length_func, element)
    if type(length) is Failure:
      return length
    length = int(np.asarray(length))
    matches = np.flatnonzero((lows <= length) & (length < highs))
    return int(matches[0]) if len(matches) else np.iinfo(np.int64).max

  def size_of(bucket):
    if not 0 <= bucket < len(batch_sizes):
      return Failure(errors.invalid_argument("indices = %d is not in [0, %d)"
                                             % (bucket, len(batch_sizes))))
    return batch_sizes[bucket]

  def apply(dataset):
    input_spec = dataset.element_spec
    given = None if padded_shapes is None else structure.map_structure(
        tensor_shape.TensorShape, structure.normalize_types(padded_shapes))
    varying = set()  # (component, dimension): seen to vary, so unknown whatever the spec says

    def window_shapes(elements, fill):
      """The padded shapes of a window: the given ones, else the input's with the unknown
      dimensions (and those the elements show to vary) padded to the longest or `fill`."""
      if given is not None:
        shapes = given
      else:
        specs = structure.flatten(input_spec)
        for element in elements:
          for j, (leaf, leaf_spec) in enumerate(zip(structure.flatten(element), specs)):
            for d, (n, known) in enumerate(zip(np.shape(leaf), leaf_spec.shape.as_list())):
              if n != known:
                varying.add((j, d))
        shapes = structure.pack_as(input_spec, [tensor_shape.TensorShape(
            [None if (j, d) in varying else n for d, n in enumerate(leaf_spec.shape.as_list())])
            for j, leaf_spec in enumerate(specs)])
      return structure.map_structure(
          lambda s: tensor_shape.TensorShape(None) if s.dims is None else [
              fill if d is None else d for d in s.as_list()], shapes)

    def reduce_of(bucket, window):
      size = batch_sizes[bucket]
      if no_padding:
        return window.batch(size, drop_remainder)
      fill = None
      if pad_to_bucket_boundary:
        if bucket >= len(batch_sizes) - 1:
          return Failure(errors.invalid_argument(
              "assertion failed: [When pad_to_bucket_boundary=True, elements must have length "
              "< max(bucket_boundaries).] [Condition x < y did not hold element-wise:] "
              "[x (args_0:0) = ] [%d] [y (Const_1:0) = ] [%d]" % (bucket, len(batch_sizes) - 1)))
        fill = boundaries[bucket] - 1
      return window.padded_batch(size, window_shapes(window._elements, fill), padding_values,
                                 drop_remainder)

    shapes = structure.map_structure(lambda s: s.shape, input_spec) if (
        given is None or no_padding) else given
    spec = structure.map_structure(
        lambda s, shape: structure.TensorSpec(
            tensor_shape.TensorShape([None]).concatenate(shape), s.dtype), input_spec, shapes)
    return _GroupByWindow(dataset, bucket_of, reduce_of, size_of, spec)
  return apply


@export("data.experimental.Reducer", "contrib.data.Reducer")
class Reducer:
  """The reduction of `group_by_reducer`: `init_func(key)` -> state,
  `reduce_func(state, element)` -> state, `finalize_func(state)` -> result."""

  def __init__(self, init_func, reduce_func, finalize_func):
    self._init_func, self._reduce_func = init_func, reduce_func
    self._finalize_func = finalize_func

  init_func = property(lambda self: self._init_func)
  reduce_func = property(lambda self: self._reduce_func)
  finalize_func = property(lambda self: self._finalize_func)


def _dtypes_of(element):
  return [dtypes.from_numpy(np.asarray(leaf).dtype) for leaf in structure.flatten(element)]


class _GroupByReducer(dataset_ops.Dataset):
  def __init__(self, dataset, key_func, reducer):
    self._input, self._key_func, self._reducer = dataset, key_func, reducer

  def _compute_spec(self):
    """The specs of the results, shapes relaxed where results differ (TF relaxes the state's)."""
    specs = [structure.map_structure(structure.spec_of, e) for e in self._make_iter()
             if type(e) is not Failure]
    if not specs:
      return super()._compute_spec()
    return structure.map_structure(
        lambda *s: structure.TensorSpec(_common_shape(x.shape for x in s), s[0].dtype), *specs)

  def _key(self, element):
    key = user_functions.call(self._key_func, element)
    if type(key) is Failure:
      return key
    key = np.asarray(key)
    if key.dtype != np.int64 or key.ndim:
      raise ValueError("Invalid `key_func`. Expected `key_func` to return a scalar tf.int64 "
                       "tensor, but instead `key_func` has output types=%s and shapes=%s."
                       % (user_functions.types_text(key), tensor_shape.TensorShape(key.shape)))
    return int(key)

  def _make_iter(self):
    states = {}  # by key, in the order keys first appeared
    for element in self._input._make_iter():
      if type(element) is Failure:
        yield element
        continue
      key = self._key(element)
      if type(key) is Failure:
        yield key
        continue
      if key not in states:
        state = user_functions.call(self._reducer.init_func, np.int64(key))
        if type(state) is Failure:
          yield state
          continue
        states[key] = state
      state = user_functions.call(self._reducer.reduce_func, (states[key], element))
      if type(state) is Failure:
        yield state
        continue
      if isinstance(state, list):
        state = tuple(state)
      if _dtypes_of(state) != _dtypes_of(states[key]):
        raise TypeError("Invalid `reducer`. The element types for the new state %s do not "
                        "match the element types of the old state %s."
                        % (user_functions.types_text(state),
                           user_functions.types_text(states[key])))
      states[key] = state
    for state in states.values():
      yield user_functions.call(self._reducer.finalize_func, state)


def _common_shape(shapes):
  shapes = list(shapes)
  out = shapes[0]
  for shape in shapes[1:]:
    out = type_specs.most_specific_compatible_shape(out, shape)
  return out


@export("data.experimental.group_by_reducer", "contrib.data.group_by_reducer")
def group_by_reducer(key_func, reducer):
  """Groups elements by `key_func(element)` (an int64 scalar) and reduces each group with
  `reducer`; one result per key."""
  return lambda dataset: _GroupByReducer(dataset, key_func, reducer)
