"""The tf.data transformations that do more than restructure: shuffle, batching, prefetch
(a background thread), cache (memory or file) and window. Those that call user functions
are in map_ops.py."""
import collections
import itertools
import os
import pickle
import queue
import threading

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.data import dataset_ops
from tfe_compat.data import map_ops
from tfe_compat.data import sparse_elements
from tfe_compat.data import structure

Dataset = dataset_ops.Dataset
Failure = structure.Failure
_CHUNK = 4096


# ---- shuffle ----
def _draws(rng):
  while True:
    yield from rng.random(1024).tolist()


def buffer_shuffle(items, buffer_size, rng):
  """TF's shuffle: fill a buffer of `buffer_size` elements, emit a random one, refill."""
  buf, draws = [], _draws(rng)
  for item in items:
    if type(item) is Failure:  # not buffered: raised when met, as in TF
      yield item
      continue
    buf.append(item)
    if len(buf) == buffer_size:
      j = int(next(draws) * buffer_size)
      buf[j], buf[-1] = buf[-1], buf[j]
      yield buf.pop()
  while buf:
    j = int(next(draws) * len(buf))
    buf[j], buf[-1] = buf[-1], buf[j]
    yield buf.pop()


class Shuffle(Dataset):
  def __init__(self, dataset, buffer_size, seed, reshuffle_each_iteration):
    if buffer_size <= 0 and buffer_size != dataset_ops.AUTOTUNE:
      raise errors.invalid_argument("buffer_size must be greater than zero.")
    self._input, self._buffer_size = dataset, buffer_size
    self._seeds = dataset_ops.shuffle_seeds(seed)
    self._reshuffle = bool(reshuffle_each_iteration)
    self._passes = itertools.count()
    self._draws_random = self._reshuffle  # each pass a new order (iterator restore)

  def _compute_spec(self):
    return self._input.element_spec

  def _rng(self):
    return np.random.default_rng([*self._seeds, next(self._passes) if self._reshuffle else 0])

  def _index_plan(self):
    plan = self._input._index_plan()
    if plan is None:
      return None
    leaves, struct, chunks = plan
    return leaves, struct, lambda: self._shuffled_chunks(chunks())

  def _shuffled_chunks(self, chunks):
    rng = self._rng()
    head = list(itertools.islice(chunks, 2))
    if len(head) == 1 and len(head[0]) <= self._buffer_size:  # the buffer holds it all
      yield head[0][rng.permutation(len(head[0]))]
      return
    flat = (i for chunk in itertools.chain(head, chunks) for i in chunk.tolist())
    shuffled = buffer_shuffle(flat, self._buffer_size, rng)
    while True:
      chunk = np.fromiter(itertools.islice(shuffled, _CHUNK), dtype=np.int64)
      if not len(chunk):
        return
      yield chunk

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    plan = self._index_plan()
    if plan is not None:
      return dataset_ops.rows_of_plan(plan)
    return buffer_shuffle(self._input._make_iter(), self._buffer_size, self._rng())


# ---- batching ----
def _batch_error(first, other):
  if first.size != other.size:
    return errors.invalid_argument(
        "Cannot add tensor to the batch: number of elements does not match. Shapes are: "
        "[tensor]: [%s], [batch]: [%s]" % (",".join(map(str, other.shape)),
                                          ",".join(map(str, first.shape))))
  return errors.invalid_argument(
      "Cannot batch tensors with different shapes in component 0. First element had shape "
      "[%s] and element 1 had shape [%s]." % (",".join(map(str, first.shape)),
                                             ",".join(map(str, other.shape))))


def stack(elements, struct):
  """One batch (a NumPy nest) from a list of elements of the same structure."""
  columns = zip(*[structure.flatten(e) for e in elements])
  out = []
  for column in columns:
    if type(column[0]) is structure.SparseValue:
      out.append(sparse_elements.batch_sparse(column))
      continue
    first = np.asarray(column[0])
    if structure._is_dataset(column[0]):
      raise NotImplementedError("tfe_compat cannot batch dataset-valued elements.")
    for other in column[1:]:
      if np.shape(other) != first.shape:
        raise _batch_error(first, np.asarray(other))
    out.append(np.stack(column))
  return structure.pack_as(struct, out)


def _batch_spec(spec, batch_size, drop_remainder, shapes=None):
  dim = batch_size if drop_remainder else None
  flat_shapes = structure.flatten(shapes) if shapes is not None else None

  def one(i, s):
    shape = s.shape if flat_shapes is None else flat_shapes[i]
    if isinstance(s, structure.SparseTensorSpec):
      return structure.SparseTensorSpec(tensor_shape.TensorShape([dim]).concatenate(shape),
                                        s.dtype)
    return structure.TensorSpec(tensor_shape.TensorShape([dim]).concatenate(shape), s.dtype)
  return structure.pack_as(spec, [one(i, s) for i, s in enumerate(structure.flatten(spec))])


def _batches_count(n, size, drop_remainder):
  if n in (dataset_ops.INFINITE, dataset_ops.UNKNOWN):
    return n
  return n // size + (0 if n % size == 0 or drop_remainder else 1)


class Batch(Dataset):
  def __init__(self, dataset, batch_size, drop_remainder):
    if batch_size <= 0:
      raise errors.invalid_argument("Batch size must be greater than zero.")
    self._input, self._batch_size, self._drop = dataset, batch_size, drop_remainder

  def _compute_spec(self):
    return _batch_spec(self._input.element_spec, self._batch_size, self._drop)

  def _cardinality(self):
    return _batches_count(self._input._cardinality(), self._batch_size, self._drop)

  def _make_iter(self):
    plan = self._input._index_plan()
    if plan is not None:
      return self._gather(plan)
    return self._generic()

  def _gather(self, plan):
    leaves, struct, chunks = plan
    pending, count, size = [], 0, self._batch_size
    for chunk in chunks():
      pos = 0
      while pos < len(chunk):
        piece = chunk[pos:pos + size - count]
        pending.append(piece)
        count += len(piece)
        pos += len(piece)
        if count == size:
          index = pending[0] if len(pending) == 1 else np.concatenate(pending)
          yield structure.pack_as(struct, [leaf[index] for leaf in leaves])
          pending, count = [], 0
    if count and not self._drop:
      index = np.concatenate(pending)
      yield structure.pack_as(struct, [leaf[index] for leaf in leaves])

  def _generic(self):
    fused = isinstance(self._input, map_ops.Map)  # TF fuses map and batch
    for elements in _batches(self._input._make_iter(), self._batch_size, fused):
      if type(elements) is Failure:
        yield elements
      elif elements and not (self._drop and len(elements) < self._batch_size):
        yield stack(elements, elements[0])


def _batches(it, size, whole=False):
  """Lists of up to `size` elements, or a Failure in place of a batch with a failed
  element: met while filling (TF's batch), or after filling it (`whole`: map and batch
  fused, as TF runs them)."""
  while True:
    elements, failure = [], None
    for element in it:
      if type(element) is Failure:
        failure = failure or element
        if not whole:
          break
      else:
        elements.append(element)
      if len(elements) + (failure is not None) == size:
        break
    if failure is not None:
      yield failure
    elif not elements:
      return
    else:
      yield elements


def _pads(padded, shape):
  """Whether a padded shape can hold elements of `shape` (TF's check when it builds)."""
  if padded.dims is None or shape.dims is None:
    return True
  return len(padded) == len(shape) and all(
      p is None or d is None or p >= d for p, d in zip(padded.as_list(), shape.as_list()))


class PaddedBatch(Dataset):
  def __init__(self, dataset, batch_size, padded_shapes, padding_values, drop_remainder):
    if batch_size <= 0:
      raise errors.invalid_argument("Batch size must be greater than zero.")
    self._input, self._batch_size, self._drop = dataset, batch_size, drop_remainder
    self._shapes = None if padded_shapes is None else structure.map_structure(
        tensor_shape.TensorShape, structure.normalize_types(padded_shapes))
    self._values = padding_values

  def _compute_spec(self):
    spec = self._input.element_spec
    for leaf in structure.flatten(spec):
      if not isinstance(leaf, structure.TensorSpec):
        raise TypeError("`padded_batch` is only supported for datasets that produce tensor "
                        "elements but type spec of elements in the input dataset is not a "
                        "subclass of TensorSpec: `%s`." % (leaf,))
    if self._shapes is None:
      shapes = structure.map_structure(
          lambda s: tensor_shape.TensorShape([None] * s.shape.ndims), spec)
    else:
      shapes = self._shapes
      for padded, leaf in zip(structure.flatten(shapes), structure.flatten(spec)):
        if not _pads(padded, leaf.shape):
          raise ValueError("The padded shape %s is not compatible with the shape %s of the "
                           "corresponding input component." % (padded, leaf.shape))
    return _batch_spec(spec, self._batch_size, self._drop, shapes)

  def _cardinality(self):
    return _batches_count(self._input._cardinality(), self._batch_size, self._drop)

  def _make_iter(self):
    for elements in _batches(self._input._make_iter(), self._batch_size):
      if type(elements) is Failure:
        yield elements
      elif not (self._drop and len(elements) < self._batch_size):
        yield self._pad(elements)

  def _pad(self, elements):
    struct = elements[0]
    self.element_spec  # pylint: disable=pointless-statement  (checks the input's types)
    columns = list(zip(*[structure.flatten(e) for e in elements]))
    shapes = (structure.flatten(self._shapes) if self._shapes is not None
              else [tensor_shape.TensorShape([None] * np.ndim(c[0])) for c in columns])
    values = (structure.flatten(self._values) if self._values is not None
              else [None] * len(columns))
    out = []
    for column, shape, value in zip(columns, shapes, values):
      arrays = [np.asarray(c) for c in column]
      if len(shape) != arrays[0].ndim or any(a.ndim != arrays[0].ndim for a in arrays):
        raise errors.invalid_argument("All elements in a batch must have the same rank as the "
                                      "padded shape for component0: expected rank %d but got "
                                      "element with rank %d" % (len(shape), arrays[0].ndim))
      target = [d if d is not None else max(a.shape[i] for a in arrays)
                for i, d in enumerate(shape.as_list())]
      dtype = arrays[0].dtype
      fill = (b"" if dtype == object else 0) if value is None else structure.to_numpy(
          value, dtypes.from_numpy(dtype))
      batch = np.full([len(arrays)] + target, fill, dtype=dtype)
      for i, a in enumerate(arrays):
        if any(s > t for s, t in zip(a.shape, target)):
          raise errors.invalid_argument("Attempted to pad to a smaller size than the input "
                                        "element.")
        batch[(i,) + tuple(slice(0, s) for s in a.shape)] = a
      out.append(batch)
    return structure.pack_as(struct, out)


class Unbatch(Dataset):
  def __init__(self, dataset):
    self._input = dataset

  def _compute_spec(self):
    return structure.map_structure(lambda s: type(s)(s.shape[1:], s.dtype),
                                   self._input.element_spec)

  def _cardinality(self):
    """The input's count times the static batch dimension, as TF counts it."""
    n = self._input._cardinality()
    if n == dataset_ops.UNKNOWN:
      return n
    dims = {tensor_shape.dimension_value(s.shape[0]) if s.shape.ndims else None
            for s in structure.flatten(self._input.element_spec)}
    dim = dims.pop() if len(dims) == 1 else None
    if dim is None:
      return dataset_ops.UNKNOWN
    return n if n == dataset_ops.INFINITE and dim else n * dim

  def _make_iter(self):
    for element in self._input._make_iter():
      if type(element) is Failure:
        yield element
        continue
      leaves = [leaf if type(leaf) is structure.SparseValue else np.asarray(leaf)
                for leaf in structure.flatten(element)]
      if any(leaf.ndim == 0 for leaf in leaves):
        raise ValueError("Unbatching a tensor is only supported for rank >= 1")
      n = leaves[0].shape[0]
      if any(leaf.shape[0] != n for leaf in leaves):
        raise errors.invalid_argument("Input element must have the same batch size in each "
                                      "component. Component 0 had size %d but component %d "
                                      "had size %d." % (n, 1, leaves[1].shape[0]))
      for i in range(n):
        yield structure.pack_as(element, [leaf[i, ...] for leaf in leaves])


_END = object()


# ---- prefetch, cache ----
class Prefetch(Dataset):
  def __init__(self, dataset, buffer_size):
    if buffer_size < -1:
      raise errors.invalid_argument("buffer_size must be >= 0 or set buffer_size to be -1 for "
                                    "auto-tuning [Op:PrefetchDataset]")
    self._input = dataset
    self._size = 4 if buffer_size == dataset_ops.AUTOTUNE else buffer_size

  def _compute_spec(self):
    return self._input.element_spec

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    if self._size <= 0:
      return self._input._make_iter()
    return background(self._input._make_iter, self._size)


def background(make_iter, size):
  """Runs `make_iter()` in a daemon thread that keeps up to `size` elements ready."""
  ready, stop = queue.Queue(size), threading.Event()

  def put(item):
    while not stop.is_set():
      try:
        ready.put(item, timeout=0.1)
        return True
      except queue.Full:
        pass
    return False

  def work():
    try:
      for element in make_iter():
        if not put((element, None)):
          return
      put((_END, None))
    except BaseException as e:  # pylint: disable=broad-except
      put((_END, e))

  threading.Thread(target=work, daemon=True, name="tf.data.prefetch").start()
  try:
    while True:
      element, exc = ready.get()
      if element is _END:
        if exc is not None:
          raise exc
        return
      yield element
  finally:
    stop.set()


class Cache(Dataset):
  """The first complete pass is kept (in memory, or in `filename` + ".tfecache"); later
  passes replay it. An incomplete pass keeps nothing."""

  def __init__(self, dataset, filename):
    self._input, self._filename, self._elements = dataset, filename, None

  def _compute_spec(self):
    return self._input.element_spec

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    if self._elements is not None:
      return iter(self._elements)
    if self._filename:
      path = self._filename + ".tfecache"
      if os.path.exists(path):
        return _read_cache(path)
      return self._fill_file(path)
    return self._fill_memory()

  def _fill_memory(self):
    elements = []
    for element in self._input._make_iter():
      elements.append(element)
      yield element
    self._elements = elements

  def _fill_file(self, path):
    temp = "%s.tmp-%d-%d" % (path, os.getpid(), threading.get_ident())
    try:
      with open(temp, "wb") as f:
        for element in self._input._make_iter():
          if type(element) is not Failure:  # a failed element is not kept
            pickle.dump(structure.element_to_host(element), f, protocol=pickle.HIGHEST_PROTOCOL)
          yield element
      os.replace(temp, path)
    finally:
      if os.path.exists(temp):
        os.remove(temp)


def _read_cache(path):
  with open(path, "rb") as f:
    while True:
      try:
        yield pickle.load(f)
      except EOFError:
        return


# ---- window ----
class ListDataset(Dataset):
  """A dataset of the given NumPy elements (the components of one window)."""

  def __init__(self, elements, spec):
    self._elements, self._spec = elements, spec

  def _make_iter(self):
    return iter(self._elements)


class Window(Dataset):
  def __init__(self, dataset, size, shift, stride, drop_remainder):
    if size <= 0 or shift <= 0 or stride <= 0:
      raise errors.invalid_argument("Window size, shift and stride must be greater than zero.")
    self._input, self._size, self._shift = dataset, size, shift
    self._stride, self._drop = stride, drop_remainder

  def _compute_spec(self):
    return structure.map_structure(structure.DatasetSpec, self._input.element_spec)

  def _make_iter(self):
    it = self._input._make_iter()
    span = (self._size - 1) * self._stride + 1
    buf, skip, exhausted = collections.deque(), 0, False
    specs = structure.flatten(self._input.element_spec)
    while True:
      while not exhausted and (skip or len(buf) < span):
        element = next(it, _END)
        if element is _END:
          exhausted = True
        elif skip:
          skip -= 1
        else:
          buf.append(element)
      if not buf:
        return
      window = list(buf)[::self._stride][:self._size]
      if len(window) < self._size and self._drop:
        return
      failures = [e for e in window if type(e) is Failure]
      if failures:
        yield failures[0]  # a window with a failed element fails, as in TF
      else:
        columns = zip(*[structure.flatten(e) for e in window])
        yield structure.pack_as(window[0], [ListDataset(list(c), spec)
                                            for c, spec in zip(columns, specs)])
      popped = min(self._shift, len(buf))
      for _ in range(popped):
        buf.popleft()
      skip = self._shift - popped
      if exhausted and not buf:
        return
