"""The tf.data transformations that call user functions: map (compiled per element
signature as TF traces it; `num_parallel_calls` keeps the order), filter, flat_map and
interleave."""
import collections
import concurrent.futures
import os
import threading
import time
import weakref

import jax
import numpy as np

from tfe_compat.eager import function
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.ops.string_ops import SparseTensor
from tfe_compat.data import dataset_ops
from tfe_compat.data import structure

Dataset = dataset_ops.Dataset
Failure = structure.Failure


def _workers(num_parallel_calls):
  if num_parallel_calls is None:
    return 1
  n = dataset_ops._int(num_parallel_calls)
  if n == dataset_ops.AUTOTUNE:
    return os.cpu_count() or 1
  if n <= 0:
    raise errors.invalid_argument("num_parallel_calls must be greater than zero. "
                                  "[Op:ParallelMapDatasetV2]")
  return n


_MAX_SIGNATURES = 8


class DatasetFunction(function.Function):
  """A `map`/`filter` function run as TF runs it: traced once per element signature, then
  compiled (its parallel calls run outside the GIL). It runs eagerly, silently, on string
  elements, for SparseTensor results, on signatures beyond the first few (elements of many shapes), and when it
  cannot compile (Python control flow on values, NumPy calls)."""

  _warn = False

  def __init__(self, fn):
    super().__init__(fn)
    self._lock = threading.Lock()  # parallel calls trace a signature once

  def __call__(self, *args, **kwargs):
    context.ctx.dataset_function += 1
    try:
      with context.function_body():  # even where it runs eagerly, as TF traces it always
        return super().__call__(*args, **kwargs)
    finally:
      context.ctx.dataset_function -= 1

  def _trace(self, key, args, kwargs):
    with self._lock:
      if key not in self._concrete:
        if any(getattr(leaf, "dtype", None) is dtypes.string
               for leaf in jax.tree_util.tree_leaves(args)):
          self._concrete[key] = _Eager(self._fn)
        elif len(self._concrete) < _MAX_SIGNATURES:
          result = super()._trace(key, args, kwargs)
          if any(isinstance(leaf, SparseTensor) for leaf in jax.tree_util.tree_leaves(result)):
            self._concrete[key] = _Eager(self._fn)  # SparseTensor results: eagerly
          return result
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

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    if self._workers == 1:
      return (_mapped(self._fn, e) for e in self._input._make_iter())
    return ordered_parallel(self._input._make_iter(), self._fn, self._workers)


def _mapped(fn, element):
  """`fn` on the element, or the Failure of its error; failed elements stay failed."""
  if type(element) is Failure:
    return element
  return structure.call_or_failure(fn, element)


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
      compiled = type(element) is Failure or fn.compiles(element)
      if not compiled and len(eager_durations) == 3 and min(eager_durations) > 1e-3:
        pending.append(pool.submit(_mapped, fn, element))
        if len(pending) >= 2 * workers:
          yield pending.popleft().result()
        continue
      start = time.perf_counter()
      result = _mapped(fn, element)
      if not compiled and len(eager_durations) < 3:
        eager_durations.append(time.perf_counter() - start)
      if not pending:
        yield result
        continue
      done = concurrent.futures.Future()  # behind the pool's calls, to keep the order
      done.set_result(result)
      pending.append(done)
    while pending:
      yield pending.popleft().result()
  finally:
    for future in pending:
      future.cancel()
    pool.shutdown(wait=False)


class Filter(Dataset):
  def __init__(self, dataset, predicate):
    self._input, self._fn = dataset, dataset_function(predicate)

  def _compute_spec(self):
    return self._input.element_spec

  def _make_iter(self):
    for element in self._input._make_iter():
      keep = structure.element_to_host(_mapped(self._fn, element))
      if type(keep) is Failure:
        yield keep
        continue
      if not isinstance(keep, np.ndarray) or keep.dtype != np.bool_ or keep.ndim:
        raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                         "tensor, but its return type was %s." % (structure.spec_of(keep),))
      if keep:
        yield element


def _dataset_of(fn, element, what="map_func"):
  """The Dataset `fn` makes of the element, or a Failure."""
  dataset = _mapped(fn, element)
  if not isinstance(dataset, (Dataset, Failure)):
    got = structure.spec_of(dataset) if hasattr(dataset, "dtype") else type(dataset)
    raise TypeError("The `%s` argument must return a `Dataset` object. Got %s." % (what, got))
  return dataset


def _inner_spec(dataset, fn):
  for element in dataset._make_iter():
    inner = _dataset_of(fn, element)
    if type(inner) is not Failure:
      return inner.element_spec
  raise ValueError("Cannot compute the element_spec of an empty dataset in tfe_compat.")


class FlatMap(Dataset):
  def __init__(self, dataset, map_func):
    self._input, self._fn = dataset, map_func

  def _compute_spec(self):
    return _inner_spec(self._input, self._fn)

  def _make_iter(self):
    for element in self._input._make_iter():
      inner = _dataset_of(self._fn, element)
      if type(inner) is Failure:
        yield inner
      else:
        yield from inner._make_iter()


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
          if type(element) is Failure:  # not counted in the block, as in TF
            continue
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
          inner = _dataset_of(self._fn, element)
          if type(inner) is Failure:
            yield inner
          else:
            slots[index] = inner._make_iter()
            num_open += 1
      else:
        index, in_block = (index + 1) % self._cycle, 0


_END = object()
