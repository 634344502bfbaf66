"""The tf.data transformations that do more than restructure: shuffle, batching, map and
friends (a thread pool keeps `map(num_parallel_calls=...)` in order), interleave, prefetch
(a background thread), cache (memory or file) and window."""
import collections
import concurrent.futures
import itertools
import os
import pickle
import queue
import threading
import time
import weakref

import jax
import numpy as np

from tfe_compat.eager import function
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.data import dataset_ops
from tfe_compat.data import structure

Dataset = dataset_ops.Dataset
_CHUNK = 4096


def _workers(num_parallel_calls):
  if num_parallel_calls is None:
    return 1
  n = dataset_ops._int(num_parallel_calls)
  return (os.cpu_count() or 1) if n == dataset_ops.AUTOTUNE else max(n, 1)


# ---- shuffle ----
def _draws(rng):
  while True:
    yield from rng.random(1024).tolist()


def buffer_shuffle(items, buffer_size, rng):
  """TF's shuffle: fill a buffer of `buffer_size` elements, emit a random one, refill."""
  buf, draws = [], _draws(rng)
  for item in items:
    if len(buf) < buffer_size:
      buf.append(item)
      continue
    j = int(next(draws) * len(buf))
    out, buf[j] = buf[j], item
    yield out
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
    return structure.TensorSpec(tensor_shape.TensorShape([dim]).concatenate(shape), s.dtype)
  return structure.pack_as(spec, [one(i, s) for i, s in enumerate(structure.flatten(spec))])


class Batch(Dataset):
  def __init__(self, dataset, batch_size, drop_remainder):
    if batch_size <= 0:
      raise errors.invalid_argument("Batch size must be greater than zero.")
    self._input, self._batch_size, self._drop = dataset, batch_size, drop_remainder

  def _compute_spec(self):
    return _batch_spec(self._input.element_spec, self._batch_size, self._drop)

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
    it = self._input._make_iter()
    while True:
      elements = list(itertools.islice(it, self._batch_size))
      if not elements or (self._drop and len(elements) < self._batch_size):
        return
      yield stack(elements, elements[0])


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
    shapes = self._shapes if self._shapes is not None else structure.map_structure(
        lambda s: tensor_shape.TensorShape([None] * s.shape.ndims), spec)
    return _batch_spec(spec, self._batch_size, self._drop, shapes)

  def _make_iter(self):
    it = self._input._make_iter()
    while True:
      elements = list(itertools.islice(it, self._batch_size))
      if not elements or (self._drop and len(elements) < self._batch_size):
        return
      yield self._pad(elements)

  def _pad(self, elements):
    struct = elements[0]
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
    return structure.map_structure(lambda s: structure.TensorSpec(s.shape[1:], s.dtype),
                                   self._input.element_spec)

  def _make_iter(self):
    for element in self._input._make_iter():
      leaves = [np.asarray(leaf) for leaf in structure.flatten(element)]
      if any(leaf.ndim == 0 for leaf in leaves):
        raise ValueError("Unbatching a tensor is only supported for rank >= 1")
      n = leaves[0].shape[0]
      if any(leaf.shape[0] != n for leaf in leaves):
        raise errors.invalid_argument("Input element must have the same batch size in each "
                                      "component. Component 0 had size %d but component %d "
                                      "had size %d." % (n, 1, leaves[1].shape[0]))
      for i in range(n):
        yield structure.pack_as(element, [leaf[i, ...] for leaf in leaves])


# ---- functions ----
_MAX_SIGNATURES = 8


class DatasetFunction(function.Function):
  """A `map`/`filter` function run as TF runs it: traced once per element signature, then
  compiled (its parallel calls run outside the GIL). It runs eagerly, silently, on string
  elements, on signatures beyond the first few (elements of many shapes), and when it
  cannot compile (Python control flow on values, NumPy calls)."""

  _warn = False

  def __init__(self, fn):
    super().__init__(fn)
    self._lock = threading.Lock()  # parallel calls trace a signature once

  def _trace(self, key, args, kwargs):
    with self._lock:
      if key not in self._concrete:
        if any(getattr(leaf, "dtype", None) is dtypes.string
               for leaf in jax.tree_util.tree_leaves(args)):
          self._concrete[key] = _Eager(self._fn)
        elif len(self._concrete) < _MAX_SIGNATURES:
          return super()._trace(key, args, kwargs)
    concrete = self._concrete.get(key)
    return self._fn(*args, **kwargs) if concrete is None else concrete(args, kwargs)

  def call_on_arrays(self, element):
    """The compiled call on the element's NumPy arrays themselves (no Tensors made first),
    once the element's signature has compiled; else None."""
    leaves = element if type(element) is tuple else (element,)
    if not all(type(leaf) is np.ndarray for leaf in leaves):
      return None
    concrete = self._fast.get(tuple((leaf.shape, leaf.dtype) for leaf in leaves))
    if concrete is None or not concrete.compiled:
      return None
    return concrete.run(leaves, None, None)

  def compiles(self, element):
    """Whether a call on this element runs compiled, as far as known yet: string elements,
    signatures that did not compile and those beyond the first few run eagerly."""
    leaves = structure.flatten(element)
    if any(getattr(leaf, "dtype", None) == object for leaf in leaves):
      return False
    concrete = self._fast.get(tuple((np.shape(leaf), getattr(leaf, "dtype", None))
                                    for leaf in leaves))
    if concrete is not None:
      return concrete.compiled
    return len(self._concrete) < _MAX_SIGNATURES


_functions = weakref.WeakKeyDictionary()


def dataset_function(fn):
  """The DatasetFunction of `fn`, shared by the datasets that map the same function (a
  pipeline built again each epoch compiles once)."""
  try:
    compiled = _functions.get(fn)
    if compiled is None:
      compiled = _functions[fn] = DatasetFunction(fn)
    return compiled
  except TypeError:  # not weakly referenceable
    return DatasetFunction(fn)


class _Eager:
  """The eager "compiled function" of a signature that cannot be compiled."""

  compiled = False

  def __init__(self, fn):
    self._fn = fn

  def __call__(self, args, kwargs):
    return self._fn(*args, **kwargs)

  def run(self, leaves, args, kwargs):
    return self._fn(*args, **kwargs)


class Map(Dataset):
  def __init__(self, dataset, map_func, num_parallel_calls):
    self._input, self._fn = dataset, dataset_function(map_func)
    self._workers = _workers(num_parallel_calls)

  def _make_iter(self):
    if self._workers == 1:
      return (structure.call_on_host(self._fn, e) for e in self._input._make_iter())
    return ordered_parallel(self._input._make_iter(), self._fn, self._workers)


def ordered_parallel(elements, fn, workers):
  """`fn` over `elements`, results in input order, with up to `workers` calls at once.
  Compiled calls run in this thread: they return as soon as they are dispatched and XLA runs
  them beside it. Eager calls run here too while they are short (the fastest of the first
  three under a millisecond; in a pool their many brief GIL releases only contend, about 3x
  slower than one thread); long ones, such as image decoding (the codecs release the GIL),
  go to a pool of `workers` threads."""
  pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="tf.data.map")
  pending = collections.deque()
  eager_durations = []  # of the first eager calls run here
  try:
    for element in elements:
      compiled = fn.compiles(element)
      if not compiled and len(eager_durations) == 3 and min(eager_durations) > 1e-3:
        pending.append(pool.submit(structure.call_on_host, fn, element))
      else:
        start = time.perf_counter()
        if pending:  # behind the pool's calls, to keep the order
          pending.append(_call_here(fn, element))
        else:
          result = structure.call_on_host(fn, element)
        if not compiled and len(eager_durations) < 3:
          eager_durations.append(time.perf_counter() - start)
        if not pending:
          yield result
          continue
      if len(pending) >= 2 * workers:
        yield pending.popleft().result()
    while pending:
      yield pending.popleft().result()
  finally:
    for future in pending:
      future.cancel()
    pool.shutdown(wait=False)


def _call_here(fn, element):
  """The finished future of `fn` on `element` called in this thread (an error is raised
  in order, by `result()`)."""
  future = concurrent.futures.Future()
  try:
    future.set_result(structure.call_on_host(fn, element))
  except Exception as exc:  # pylint: disable=broad-except
    future.set_exception(exc)
  return future


class Filter(Dataset):
  def __init__(self, dataset, predicate):
    self._input, self._fn = dataset, dataset_function(predicate)

  def _compute_spec(self):
    return self._input.element_spec

  def _make_iter(self):
    for element in self._input._make_iter():
      keep = structure.element_to_host(structure.call_on_host(self._fn, element))
      if not isinstance(keep, np.ndarray) or keep.dtype != np.bool_ or keep.ndim:
        raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                         "tensor, but its return type was %s." % (structure.spec_of(keep),))
      if keep:
        yield element


def _dataset_of(fn, element, what="map_func"):
  dataset = structure.call_on_host(fn, element)
  if not isinstance(dataset, Dataset):
    raise TypeError("The `%s` argument must return a `Dataset` object. Got %s."
                    % (what, type(dataset)))
  return dataset


def _inner_spec(dataset, fn):
  for element in dataset._make_iter():
    return _dataset_of(fn, element).element_spec
  raise ValueError("Cannot compute the element_spec of an empty dataset in tfe_compat.")


class FlatMap(Dataset):
  def __init__(self, dataset, map_func):
    self._input, self._fn = dataset, map_func

  def _compute_spec(self):
    return _inner_spec(self._input, self._fn)

  def _make_iter(self):
    for element in self._input._make_iter():
      yield from _dataset_of(self._fn, element)._make_iter()


class Interleave(Dataset):
  """TF's interleave order: `cycle_length` open iterators, `block_length` elements each in
  turn; an exhausted slot is refilled from the input when the cycle next reaches it."""

  def __init__(self, dataset, map_func, cycle_length, block_length, num_parallel_calls):
    self._input, self._fn = dataset, map_func
    cycle_length = dataset_ops._int(cycle_length)
    self._cycle = (os.cpu_count() or 1) if cycle_length == dataset_ops.AUTOTUNE else cycle_length
    self._block = dataset_ops._int(block_length)
    if self._cycle <= 0 or self._block <= 0:
      raise errors.invalid_argument("cycle_length and block_length must be greater than zero.")

  def _compute_spec(self):
    return _inner_spec(self._input, self._fn)

  def _make_iter(self):
    inputs = self._input._make_iter()
    slots = [None] * self._cycle
    index, in_block, end_of_input, num_open = 0, 0, False, 0
    while not end_of_input or num_open:
      if slots[index] is not None:
        element = next(slots[index], _END)
        if element is not _END:
          yield element
          in_block += 1
          if in_block == self._block:
            index, in_block = (index + 1) % self._cycle, 0
          continue
        slots[index] = None
        num_open -= 1
        index, in_block = (index + 1) % self._cycle, 0
      elif not end_of_input:
        element = next(inputs, _END)
        if element is _END:
          end_of_input = True
        else:
          slots[index] = _dataset_of(self._fn, element)._make_iter()
          num_open += 1
      else:
        index, in_block = (index + 1) % self._cycle, 0


_END = object()


# ---- prefetch, cache ----
class Prefetch(Dataset):
  def __init__(self, dataset, buffer_size):
    self._input = dataset
    self._size = 4 if buffer_size == dataset_ops.AUTOTUNE else buffer_size

  def _compute_spec(self):
    return self._input.element_spec

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
      columns = zip(*[structure.flatten(e) for e in window])
      yield structure.pack_as(window[0], [ListDataset(list(c), spec)
                                          for c, spec in zip(columns, specs)])
      popped = min(self._shift, len(buf))
      for _ in range(popped):
        buf.popleft()
      skip = self._shift - popped
      if exhausted and not buf:
        return
