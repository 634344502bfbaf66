"""`tf.data.Dataset` (the TF 1.15 API, eager): sources and the transformation methods.

A dataset is a recipe: `_make_iter()` starts one pass and yields elements as NumPy nests
(see structure.py), or a `structure.Failure` in place of an element whose computation raised
(iterators raise it there and go on, as TF's do). Datasets whose elements are rows of in-memory arrays (slices, and
shuffle/repeat/take/skip over them) also offer `_index_plan()`: the arrays plus a stream of
row indices, so `batch` gathers a whole batch with one fancy-index per component.
"""
import glob
import itertools
import logging
import os

import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.data import options as options_lib
from tfe_compat.data import structure

AUTOTUNE = -1
export("data.experimental.AUTOTUNE", "contrib.data.AUTOTUNE")(AUTOTUNE)


def _int(value):
  """An int64 argument as a Python int; a Python float or string is TF's TypeError."""
  if isinstance(value, (float, str, bytes)):
    raise TypeError("Cannot convert %r to EagerTensor of dtype int64" % (value,))
  return int(np.asarray(value._value if isinstance(value, Tensor) else value))


INFINITE, UNKNOWN = -1, -2  # tf.data.experimental.INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
export("data.experimental.INFINITE_CARDINALITY")(INFINITE)
export("data.experimental.UNKNOWN_CARDINALITY")(UNKNOWN)


graph_hook = [None]  # graph_datasets.defer: a dataset made while a graph is built


def _in_graphs(make):
  """`make` (a dataset constructor), deferred to a run while a graph is built."""
  def make_dataset(*args, **kwargs):
    if graph_hook[0] is not None and graph_lib.building() is not None:
      return graph_hook[0](make, args, kwargs)
    return make(*args, **kwargs)
  make_dataset.__name__, make_dataset.__doc__ = make.__name__, make.__doc__
  return make_dataset


class _DatasetType(type):
  """Datasets created while a graph is built are deferred (see graph_datasets.py)."""

  def __call__(cls, *args, **kwargs):
    if graph_hook[0] is not None and graph_lib.building() is not None:
      return graph_hook[0](super().__call__, args, kwargs)
    return super().__call__(*args, **kwargs)


@export("data.Dataset")
class Dataset(metaclass=_DatasetType):
  """A sequence of elements; iterate it with `for`, `iter()` or `make_one_shot_iterator()`."""

  _spec = None

  def _make_iter(self):
    raise NotImplementedError

  def _index_plan(self):
    """(leaves, structure, chunks) with `chunks()` iterating index arrays, or None."""
    return None

  def _cardinality(self):
    """The number of elements: INFINITE (-1), UNKNOWN (-2) or a count, by TF's rules."""
    return UNKNOWN

  def _compute_spec(self):
    """The element spec, from the first element (subclasses override when it is cheaper)."""
    for element in self._make_iter():
      if type(element) is not structure.Failure:
        return structure.map_structure(structure.spec_of, element)
    raise ValueError("Cannot compute the element_spec of an empty dataset in tfe_compat.")

  # ---- types ----
  @property
  def element_spec(self):
    if self._spec is None:
      self._spec = self._compute_spec()
    return self._spec

  @property
  def output_shapes(self):
    return structure.map_structure(lambda s: s.shape, self.element_spec)

  @property
  def output_types(self):
    return structure.map_structure(
        lambda s: s if isinstance(s, structure.DatasetSpec) else s.dtype, self.element_spec)

  @property
  def output_classes(self):
    return structure.map_structure(
        lambda s: type(s) if isinstance(s, structure.DatasetSpec) else s.value_type,
        self.element_spec)

  def __repr__(self):
    return "<%s shapes: %s, types: %s>" % (type(self).__name__.lstrip("_"), self.output_shapes,
                                           self.output_types)

  # ---- iteration ----
  def __iter__(self):
    from tfe_compat.data import iterator_ops
    return iterator_ops.Iterator(self)

  def make_one_shot_iterator(self):
    return self.__iter__()

  def make_initializable_iterator(self, shared_name=None):
    raise RuntimeError("dataset.make_initializable_iterator is not supported when eager "
                       "execution is enabled. Use `for element in dataset` instead.")

  # ---- sources ----
  @staticmethod
  @_in_graphs
  def from_tensor_slices(tensors):
    element = structure.element_to_numpy(tensors)
    return _Tensors(element).unbatch() if structure.has_sparse(element) else _TensorSlices(element)

  @staticmethod
  @_in_graphs
  def from_tensors(tensors):
    return _Tensors(tensors)

  @staticmethod
  @_in_graphs
  def from_sparse_tensor_slices(sparse_tensor):
    return _Tensors(sparse_tensor).unbatch()

  @staticmethod
  @_in_graphs
  def range(*args):
    return _Range(*args)

  @staticmethod
  @_in_graphs
  def zip(datasets):
    return _Zip(datasets)

  @staticmethod
  @_in_graphs
  def from_generator(generator, output_types, output_shapes=None, args=None):
    return _Generator(generator, output_types, output_shapes, args)

  @staticmethod
  @_in_graphs
  def list_files(file_pattern, shuffle=None, seed=None):
    """The files matching `file_pattern` (a glob or a list of them), sorted, then shuffled
    unless `shuffle=False`."""
    patterns = structure.to_numpy(file_pattern, dtypes.string).ravel()
    names = sorted({os.fsdecode(p) for pattern in patterns
                    for p in glob.glob(os.fsdecode(pattern))})
    if not names:
      raise errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), "
                                        "dtype=bool)' to be true. Summarized data: b'No files "
                                        "matched pattern: %s'" % ", ".join(
                                            os.fsdecode(p) for p in patterns))
    dataset = _TensorSlices(np.array([n.encode() for n in names], dtype=object))
    if shuffle is None or shuffle:
      dataset = dataset.shuffle(len(names), seed=seed)
    return dataset

  # ---- transformations ----
  def concatenate(self, dataset):
    return _Concatenate(self, dataset)

  def enumerate(self, start=0):
    return Dataset.zip((Dataset.range(start, np.iinfo(np.int64).max), self))

  def ignore_errors(self, log_warning=False):
    """Drops the elements whose computation raised an error (TF 2's method, and
    `tf.data.experimental.ignore_errors()`)."""
    return _IgnoreErrors(self, log_warning)

  def repeat(self, count=None):
    return _Repeat(self, count)

  def take(self, count):
    return _Take(self, _int(count))

  def skip(self, count):
    return _Skip(self, _int(count))

  def shard(self, num_shards, index):
    num_shards, index = _int(num_shards), _int(index)
    if not 0 <= index < num_shards:
      raise errors.invalid_argument("Index must be between 0 and %d (currently index = %d)."
                                    % (num_shards - 1, index))
    return self.enumerate().filter(lambda i, _: i % num_shards == index).map(lambda _, x: x)

  def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None):
    return _t.Shuffle(self, _int(buffer_size), seed,
                      True if reshuffle_each_iteration is None else reshuffle_each_iteration)

  def batch(self, batch_size, drop_remainder=False):
    return _t.Batch(self, _int(batch_size), bool(drop_remainder))

  def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                   drop_remainder=False):
    return _t.PaddedBatch(self, _int(batch_size), padded_shapes, padding_values,
                          bool(drop_remainder))

  def unbatch(self):
    return _t.Unbatch(self)

  def map(self, map_func, num_parallel_calls=None, deterministic=None):
    return _m.Map(self, map_func, num_parallel_calls)

  def map_with_legacy_function(self, map_func, num_parallel_calls=None):
    return self.map(map_func, num_parallel_calls)

  def filter(self, predicate):
    return _m.Filter(self, predicate)

  filter_with_legacy_function = filter

  def flat_map(self, map_func):
    return _m.FlatMap(self, map_func)

  def interleave(self, map_func, cycle_length=AUTOTUNE, block_length=1,
                 num_parallel_calls=None, deterministic=None):
    return _m.Interleave(self, map_func, cycle_length, block_length, num_parallel_calls)

  def prefetch(self, buffer_size):
    return _t.Prefetch(self, _int(buffer_size))

  def cache(self, filename=""):
    return _t.Cache(self, os.fsdecode(structure.to_numpy(filename).item()))

  def window(self, size, shift=None, stride=1, drop_remainder=False):
    size = _int(size)
    return _t.Window(self, size, size if shift is None else _int(shift), _int(stride),
                     bool(drop_remainder))

  def apply(self, transformation_func):
    dataset = transformation_func(self)
    if not isinstance(dataset, Dataset):
      raise TypeError("`transformation_func` must return a Dataset. Got %s." % (dataset,))
    return dataset

  def reduce(self, initial_state, reduce_func):
    """Folds `reduce_func(state, element)` over the dataset; returns Tensors."""
    state = structure.element_to_numpy(initial_state)
    for element in self._make_iter():
      state = structure.call_on_host(reduce_func, (state, structure.checked(element)))
    return structure.element_to_tensors(state)

  def with_options(self, options):
    """This dataset with `options` (kept and merged as TF does; pipelines run the same)."""
    return _WithOptions(self, options)

  def options(self):
    """The options set on this dataset and the datasets it reads, merged."""
    merged = options_lib.Options()
    for dataset in _inputs(self):
      merged = merged.merge(dataset.options())
    return merged.merge(self._options) if isinstance(self, _WithOptions) else merged


# ---- sources ----
class _TensorSlices(Dataset):
  def __init__(self, tensors):
    element = structure.element_to_numpy(tensors)
    self._structure = element
    self._leaves = structure.flatten(element)
    if not self._leaves:
      raise ValueError("Unbatching a dataset is only supported for rank >= 1")
    for leaf in self._leaves:
      if np.ndim(leaf) == 0:
        raise ValueError("Unbatching a tensor is only supported for rank >= 1")
    sizes = {leaf.shape[0] for leaf in self._leaves}
    if len(sizes) > 1:
      raise ValueError("Dimensions %d and %d are not compatible"
                       % (self._leaves[0].shape[0], (sizes - {self._leaves[0].shape[0]}).pop()))
    self._size = sizes.pop()

  def _compute_spec(self):
    return structure.map_structure(
        lambda leaf: structure.TensorSpec(leaf.shape[1:], dtypes.from_numpy(leaf.dtype)),
        self._structure)

  def _index_plan(self):
    return self._leaves, self._structure, lambda: iter([np.arange(self._size)])

  def _cardinality(self):
    return self._size

  def _make_iter(self):
    return rows_of_plan(self._index_plan())


def rows_of_plan(plan):
  """The elements an index plan describes, one row at a time."""
  leaves, struct, chunks = plan
  for chunk in chunks():
    for i in chunk.tolist():
      yield structure.pack_as(struct, [leaf[i, ...] for leaf in leaves])


class _Tensors(Dataset):
  def __init__(self, tensors):
    self._element = structure.element_to_numpy(tensors)

  def _cardinality(self):
    return 1

  def _make_iter(self):
    return iter([self._element])


class _Range(Dataset):
  def __init__(self, *args):
    if not 1 <= len(args) <= 3:
      raise ValueError("Invalid arguments to RangeDataset: %s" % (args,))
    args = [_int(a) for a in args]
    if len(args) == 3 and not args[2]:
      raise errors.invalid_argument("step must be a non-zero integer. [Op:RangeDataset]")
    self._range = range(*args)

  def _compute_spec(self):
    return structure.TensorSpec([], dtypes.int64)

  def _cardinality(self):
    return len(self._range)

  def _make_iter(self):
    return (np.int64(i) for i in self._range)



class _Zip(Dataset):
  def __init__(self, datasets):
    for d in structure.flatten(datasets):
      if not isinstance(d, Dataset):
        raise TypeError("The argument to `Dataset.zip()` must be a (nested) structure of "
                        "`Dataset` objects.")
    self._datasets = datasets

  def _compute_spec(self):
    return structure.map_structure(lambda d: d.element_spec, self._datasets)

  def _cardinality(self):
    counts = [d._cardinality() for d in structure.flatten(self._datasets)]
    if UNKNOWN in counts:
      return UNKNOWN
    finite = [n for n in counts if n != INFINITE]
    return min(finite) if finite else INFINITE

  def _make_iter(self):
    iters = [d._make_iter() for d in structure.flatten(self._datasets)]
    for elements in zip(*iters):
      failures = [e for e in elements if type(e) is structure.Failure]
      yield failures[0] if failures else structure.pack_as(self._datasets, elements)


class _Generator(Dataset):
  def __init__(self, generator, output_types, output_shapes, args):
    if not callable(generator):
      raise TypeError("`generator` must be callable.")
    self._generator = generator
    self._types = structure.map_structure(dtypes.as_dtype,
                                          structure.normalize_types(output_types))
    if output_shapes is None:
      output_shapes = structure.map_structure(lambda _: tensor_shape.TensorShape(None),
                                              self._types)
    else:
      output_shapes = structure.map_structure(
          tensor_shape.TensorShape, structure.normalize_types(output_shapes))
    self._shapes = output_shapes
    self._args = tuple(structure.to_numpy(a) for a in (args or ()))

  def _compute_spec(self):
    return structure.map_structure(lambda s, t: structure.TensorSpec(s, t), self._shapes,
                                   self._types)

  def _make_iter(self):
    """The generator's elements; an element that does not convert fails alone, an error of
    the generator itself ends the iteration (after failing there), as in TF."""
    args = [a.item() if a.dtype == object and a.ndim == 0 else a[()] for a in self._args]
    try:
      for value in self._generator(*args):
        try:
          converted = self._convert(value)
        except errors.InvalidArgumentError as exc:
          converted = structure.Failure(exc)
        yield converted
    except Exception as exc:  # pylint: disable=broad-except
      yield structure.Failure(_generator_error(exc))

  def _convert(self, value):
    if isinstance(value, list) and structure.is_structure(self._types):
      value = tuple(value)
    try:
      converted = structure.pack_as(self._types, [
          structure.to_numpy(leaf, dtype) for leaf, dtype in
          zip(structure.flatten_up_to(self._types, value), structure.flatten(self._types))])
    except (TypeError, ValueError) as e:
      raise errors.invalid_argument(
          "TypeError: `generator` yielded an element that did not match the expected "
          "structure. The expected structure was %s, but the yielded element was %s."
          % (self.element_spec, value)) from e
    for leaf, shape in zip(structure.flatten(converted), structure.flatten(self._shapes)):
      if not shape.is_compatible_with(leaf.shape):
        raise errors.invalid_argument(
            "TypeError: `generator` yielded an element of shape %s where an element of shape "
            "%s was expected." % (tuple(leaf.shape), _shape_text(shape)))
    return converted


def _generator_error(exc):
  """The error TF's iterator raises for an exception of the generator (a py_func's error)."""
  kind = errors.InvalidArgumentError if isinstance(exc, (ValueError, TypeError)) \
      else errors.UnknownError
  error = kind(None, None, "%s: %s" % (type(exc).__name__, exc))
  error.__cause__ = exc
  return error


def _shape_text(shape):
  return "<unknown>" if shape.dims is None else str(tuple(d.value for d in shape.dims))


# ---- structural transformations ----
class _Concatenate(Dataset):
  def __init__(self, first, second):
    a = structure.flatten(first.element_spec)
    b = structure.flatten(second.element_spec)
    if len(a) != len(b) or any(x.dtype is not y.dtype for x, y in zip(a, b)):
      raise TypeError("Incompatible dataset elements:\n  %s vs.   %s"
                      % (first.element_spec, second.element_spec))
    self._first, self._second = first, second

  def _compute_spec(self):
    def merge(x, y):
      if x.shape.ndims != y.shape.ndims:
        return structure.TensorSpec(None, x.dtype)
      dims = [a if a == b else None for a, b in zip(x.shape.as_list(), y.shape.as_list())] \
          if x.shape.dims is not None else None
      return structure.TensorSpec(dims, x.dtype)
    return structure.map_structure(merge, self._first.element_spec, self._second.element_spec)

  def _cardinality(self):
    counts = self._first._cardinality(), self._second._cardinality()
    if INFINITE in counts:
      return INFINITE
    return UNKNOWN if UNKNOWN in counts else sum(counts)

  def _make_iter(self):
    return itertools.chain(self._first._make_iter(), self._second._make_iter())


def _inputs(dataset):
  """The datasets `dataset` reads (its Dataset-valued attributes)."""
  found = []
  for value in vars(dataset).values():
    for item in structure.flatten(value) if isinstance(value, (tuple, dict)) else [value]:
      if isinstance(item, Dataset):
        found.append(item)
  return found


class _WithOptions(Dataset):
  def __init__(self, dataset, options):
    self._input, self._options = dataset, options

  def _compute_spec(self):
    return self._input.element_spec

  def _index_plan(self):
    return self._input._index_plan()

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    return self._input._make_iter()


class _IgnoreErrors(Dataset):
  """The elements that did not fail (a failure is an error raised for one element)."""

  def __init__(self, dataset, log_warning):
    self._input, self._log = dataset, log_warning

  def _compute_spec(self):
    return self._input.element_spec

  def _make_iter(self):
    for element in self._input._make_iter():
      if type(element) is not structure.Failure:
        yield element
      elif self._log:
        logging.getLogger("tensorflow").warning("Ignoring error: %s", element.error)


class _Repeat(Dataset):
  def __init__(self, dataset, count):
    self._input = dataset
    self._count = -1 if count is None else _int(count)

  def _compute_spec(self):
    return self._input.element_spec

  def _epochs(self):
    return itertools.count() if self._count < 0 else range(self._count)

  def _index_plan(self):
    plan = self._input._index_plan()
    if plan is None:
      return None
    leaves, struct, chunks = plan
    return leaves, struct, lambda: itertools.chain.from_iterable(
        chunks() for _ in self._epochs())

  def _cardinality(self):
    n = self._input._cardinality()
    if self._count < 0:
      return 0 if n == 0 else INFINITE
    if self._count == 0:
      return 0
    return n if n in (INFINITE, UNKNOWN) else n * self._count

  def _make_iter(self):
    plan = self._index_plan()
    if plan is not None:
      return rows_of_plan(plan)
    return self._generic()

  def _generic(self):
    for _ in self._epochs():
      empty = True
      for element in self._input._make_iter():
        empty = False
        yield element
      if empty:
        return


class _Slice(Dataset):
  """take/skip: `_chunks` slices index chunks (fast path), `_rows` slices an element iterator."""

  def __init__(self, dataset, count):
    self._input, self._count = dataset, count

  def _compute_spec(self):
    return self._input.element_spec

  def _index_plan(self):
    plan = self._input._index_plan()
    if plan is None:
      return None
    leaves, struct, chunks = plan
    return leaves, struct, lambda: self._chunks(chunks(), self._count)

  def _make_iter(self):
    plan = self._index_plan()
    if plan is not None:
      return rows_of_plan(plan)
    return self._rows(self._input._make_iter(), self._count)


class _Take(_Slice):

  def _cardinality(self):
    n = self._input._cardinality()
    if n == UNKNOWN:
      return UNKNOWN
    if n == INFINITE:
      return INFINITE if self._count < 0 else self._count
    return n if self._count < 0 else min(n, self._count)

  @staticmethod
  def _rows(rows, count):
    if count < 0:
      yield from rows
      return
    for row in rows if count else ():
      yield row
      if type(row) is not structure.Failure:  # failed elements are not counted, as in TF
        count -= 1
        if not count:
          return

  @staticmethod
  def _chunks(chunks, count):
    if count < 0:
      yield from chunks
      return
    for chunk in chunks:
      if count <= 0:
        return
      yield chunk[:count]
      count -= len(chunk)


class _Skip(_Slice):

  def _cardinality(self):
    n = self._input._cardinality()
    if n in (INFINITE, UNKNOWN):
      return n
    return 0 if self._count < 0 else max(0, n - self._count)

  @staticmethod
  def _rows(rows, count):
    if count < 0:
      return
    for row in rows:
      if count and type(row) is not structure.Failure:
        count -= 1
      else:
        yield row  # failures met while skipping are raised too, as in TF

  @staticmethod
  def _chunks(chunks, count):
    for chunk in chunks:
      if count < 0:
        return
      if count < len(chunk):
        yield chunk[count:]
      count = max(count - len(chunk), 0)


def shuffle_seeds(seed):
  """The (seed, seed2) pair of a shuffle by TF's rules; random when no seed is set."""
  seed, seed2 = context.get_seed(seed)
  if seed is None:
    seed, seed2 = [int(s) for s in np.random.SeedSequence().generate_state(2)]
  return seed, seed2


from tfe_compat.data import map_ops as _m  # noqa: E402  (they subclass Dataset)
from tfe_compat.data import transformations as _t  # noqa: E402


@export("data.experimental.cardinality")
def cardinality(dataset):
  """The dataset's number of elements as an int64 Tensor: INFINITE_CARDINALITY (-1),
  UNKNOWN_CARDINALITY (-2) when it depends on the data (filter, generators, files)."""
  return ops.convert_to_tensor(np.int64(dataset._cardinality()))

