"""The host side of TF's queues and conditional accumulators: ports of TF's kernels
(core/kernels/queue_base.cc, fifo_queue.cc, random_shuffle_queue_op.cc, padding_fifo_queue.cc,
priority_queue.cc, conditional_accumulator_base.cc).

Every request is an *attempt* served in arrival order under one lock, as in TF: a blocked
request waits for the attempts ahead of it; `close()` without `cancel_pending_enqueues` is
itself an enqueue attempt (it waits behind blocked enqueues); a `dequeue_many` that got part
of its batch when the queue closed puts those elements back. Elements are tuples of NumPy
arrays; errors are `(error class, TF's message)` pairs the Python layer raises.
"""
import collections
import itertools
import threading

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape

COMPLETE, PROGRESS, NO_PROGRESS = 0, 1, 2
UNBOUNDED = 2**31 - 1
_uids = itertools.count()  # queue names under eager execution: TF's `str(ops.uid())`


def new_uid():
  return str(next(_uids))


def shape_text(shape):
  """TF's TensorShape::DebugString: "[2,3]", "[?,2]", "<unknown>"."""
  shape = tensor_shape.as_shape(shape)
  if shape.dims is None:
    return "<unknown>"
  return "[%s]" % ",".join("?" if d is None else str(d) for d in shape.as_list())


def type_list_text(dtype_list):
  return ", ".join(ops.tf_type_name(d) for d in dtype_list)


class Attempt:
  """One request: `run(attempt)` returns COMPLETE, PROGRESS or NO_PROGRESS (lock held)."""

  __slots__ = ("requested", "run", "cancelled", "done", "error", "result", "batch")

  def __init__(self, requested, run):
    self.requested, self.run = requested, run
    self.cancelled = self.done = False
    self.error = self.result = None
    self.batch = []  # elements a dequeue_many holds so far


class Resource:
  """Attempts served in order under one condition variable (TF's FlushUnlocked). It stands
  for the resource handle (`queue_ref`, `accumulator_ref`) TF returns."""

  dtype = dtypes.resource
  shape = tensor_shape.TensorShape([])
  kind = None

  def __init__(self, name):
    self.cond = threading.Condition()
    self.name = name

  def __repr__(self):
    return "<ResourceHandle(name=%r, type=%r)>" % (self.name, self.kind)

  def attempt_lists(self):
    raise NotImplementedError

  def submit(self, attempts, attempt):
    """Queues `attempt` on `attempts` and blocks until it completes; its (result, error)."""
    with self.cond:
      attempts.append(attempt)
      self.flush()
      try:
        while not attempt.done:
          self.cond.wait()
      except BaseException:  # e.g. KeyboardInterrupt: TF's cancellation of the attempt
        attempt.cancelled = True
        self.flush()
        raise
    return attempt.result, attempt.error

  def flush(self):
    """Runs attempts while any makes progress, then wakes the waiting threads."""
    changed = True
    while changed:
      changed = False
      for attempts in self.attempt_lists():
        changed = self._try(attempts) or changed
    self.cond.notify_all()

  @staticmethod
  def _try(attempts):
    progress = False
    while attempts:
      attempt = attempts[0]
      if attempt.cancelled:
        attempts.popleft()
        continue
      outcome = attempt.run(attempt)
      if outcome == NO_PROGRESS:
        break
      progress = True
      if outcome == PROGRESS:
        break
      attempt.done = True
      attempts.popleft()
    return progress


class QueueCore(Resource):
  """TF's QueueBase with FIFO storage; subclasses change the order elements leave in."""

  kind = "FIFOQueue"
  min_after_dequeue = 0

  def __init__(self, capacity, component_dtypes, shapes, name):
    super().__init__(name)
    self.capacity = UNBOUNDED if capacity < 0 else capacity
    self.dtypes, self.shapes = component_dtypes, shapes  # shapes: [] if unspecified
    self.closed = False
    self.enqueues, self.dequeues = collections.deque(), collections.deque()
    self.items = collections.deque()

  def attempt_lists(self):
    return self.enqueues, self.dequeues

  def __len__(self):
    return len(self.items)

  # ---- storage (lock held) ----
  def push(self, element):
    self.items.append(element)

  def pop(self):
    return self.items.popleft()

  def restore(self, batch):
    """Puts back the elements a dequeue_many took before the queue closed."""
    self.items.extendleft(reversed(batch))

  def stack(self, batch, n):
    return [np.stack([element[i] for element in batch]) if batch else
            np.zeros((n,) + tuple(self.shapes[i]), self._np_dtype(i))
            for i in range(len(self.dtypes))]

  def _np_dtype(self, i):
    return self.dtypes[i].as_numpy_dtype or object  # strings: object arrays of bytes

  # ---- requests ----
  def enqueue(self, elements):
    """Enqueues a list of elements (one `enqueue`, or the rows of an `enqueue_many`); like
    every request, returns (result, error)."""
    if not elements:
      return None, None
    def run(attempt):
      if self.closed:
        attempt.error = (errors.CancelledError, "%s '%s' is closed." % (self.kind, self.name))
        return COMPLETE
      outcome = NO_PROGRESS
      while len(self) < self.capacity:
        outcome = PROGRESS
        self.push(elements[len(elements) - attempt.requested])
        attempt.requested -= 1
        if attempt.requested == 0:
          return COMPLETE
      return outcome
    return self.submit(self.enqueues, Attempt(len(elements), run))

  def dequeue(self):
    def run(attempt):
      size = len(self)
      if self.closed and size == 0:
        attempt.error = self._insufficient(1, 0)
        return COMPLETE
      if not self.closed:
        size -= self.min_after_dequeue
      if size > 0:
        attempt.result = self.pop()
        return COMPLETE
      return NO_PROGRESS
    return self.submit(self.dequeues, Attempt(1, run))

  def _insufficient(self, requested, size):
    return (errors.OutOfRangeError, "%s '%s' is closed and has insufficient elements "
            "(requested %d, current size %d)" % (self.kind, self.name, requested, size))

  def check_dequeue_many(self):
    if not self.shapes:
      return (errors.InvalidArgumentError, "%s's DequeueMany and DequeueUpTo require the "
              "components to have specified shapes." % self.kind)
    return None

  def dequeue_many(self, n, allow_small_batch):
    """(list of stacked component arrays, error) of `dequeue_many` / `dequeue_up_to`."""
    error = self.check_dequeue_many()
    if error:
      return None, error
    if n == 0:
      return self.stack([], 0), None
    return self.submit(self.dequeues, Attempt(
        n, lambda attempt: self._dequeue_many_step(attempt, allow_small_batch)))

  def _dequeue_many_step(self, attempt, allow_small_batch):
    """One try of a waiting `dequeue_many` (PROGRESS, NO_PROGRESS or COMPLETE)."""
    size = len(self)
    if self.closed and size < attempt.requested:
      if attempt.batch:
        self.restore(attempt.batch)
      if allow_small_batch and len(self):
        size = attempt.requested = len(self)
        attempt.batch = []
      else:
        if allow_small_batch and self.enqueues:
          return PROGRESS
        attempt.error = self._insufficient(attempt.requested, size)
        return COMPLETE
    return self._take(attempt, size if self.closed else size - self.min_after_dequeue)

  def _take(self, attempt, available):
    outcome = NO_PROGRESS
    while available > 0:
      outcome = PROGRESS
      attempt.batch.append(self.pop())
      attempt.requested -= 1
      available -= 1
      if attempt.requested == 0:
        attempt.result = self.stack(attempt.batch, len(attempt.batch))
        return COMPLETE
    return outcome

  def close(self, cancel_pending_enqueues):
    with self.cond:
      if cancel_pending_enqueues:  # TF's CloseAndCancel
        self.closed = True
        for attempt in self.enqueues:
          if not attempt.cancelled:
            attempt.cancelled = attempt.done = True
            attempt.error = (errors.CancelledError, "Enqueue operation was cancelled")
        self.flush()
        return None, None
    def run(attempt):
      if self.closed:
        attempt.error = (errors.CancelledError, "Queue '%s' is already closed." % self.name)
      self.closed = True
      return COMPLETE
    return self.submit(self.enqueues, Attempt(0, run))


class RandomShuffleQueueCore(QueueCore):
  """Elements leave in random order, `min_after_dequeue` kept back until the queue closes."""

  kind = "RandomShuffleQueue"

  def __init__(self, capacity, min_after_dequeue, seeds, component_dtypes, shapes, name):
    super().__init__(capacity, component_dtypes, shapes, name)
    self.min_after_dequeue = min_after_dequeue
    self.items = []
    self._rng = np.random.default_rng(None if seeds == (0, 0) else list(seeds))

  def pop(self):
    index = int(self._rng.integers(len(self.items)))
    self.items[index], self.items[-1] = self.items[-1], self.items[index]
    return self.items.pop()

  def restore(self, batch):
    self.items.extend(reversed(batch))


class PaddingFIFOQueueCore(QueueCore):
  """A FIFO queue whose dequeue_many pads the unknown dimensions to the batch's largest."""

  kind = "PaddingFIFOQueue"

  def check_dequeue_many(self):
    return None

  def stack(self, batch, n):
    out = []
    for i, shape in enumerate(self.shapes):
      dims = shape.as_list()
      for j, dim in enumerate(dims):
        if dim is None:
          dims[j] = max([element[i].shape[j] for element in batch], default=0)
      array = np.zeros([n] + dims, self._np_dtype(i))
      if array.dtype == object:
        array[...] = b""
      for index, element in enumerate(batch):
        array[(index,) + tuple(slice(0, d) for d in element[i].shape)] = element[i]
      out.append(array)
    return out


class PriorityQueueCore(QueueCore):
  """Elements leave lowest priority (component 0) first. The heap is libstdc++'s
  `std::priority_queue`, as TF's kernel uses, so equal priorities leave in TF's order."""

  kind = "PriorityQueue"

  def __init__(self, capacity, component_dtypes, shapes, name):
    super().__init__(capacity, component_dtypes, shapes, name)
    self.items = []

  def push(self, element):
    heap = self.items
    heap.append(element)
    _sift_up(heap, len(heap) - 1, 0, element)

  def pop(self):
    heap = self.items
    top, last = heap[0], heap.pop()
    if heap:
      _adjust_heap(heap, 0, last)
    return top

  def check_dequeue_many(self):
    if not self.shapes:
      return (errors.InvalidArgumentError, "PriorityQueue's DequeueMany requires the "
              "components to have specified shapes.")
    return None

  def _dequeue_many_step(self, attempt, allow_small_batch):
    size = len(self)
    if self.closed and (size == 0 or (not allow_small_batch and size < attempt.requested)):
      attempt.error = self._insufficient(attempt.requested, size)
      return COMPLETE
    if size < attempt.requested and (size == 0 or not (self.closed and allow_small_batch)):
      return NO_PROGRESS
    return self._take(attempt, size)


def _later(a, b):
  """TF's ComparePriorityTensorPair: `a` leaves after `b`."""
  return a[0] > b[0]


def _sift_up(heap, hole, top, value):
  """libstdc++'s std::__push_heap."""
  parent = (hole - 1) // 2
  while hole > top and _later(heap[parent], value):
    heap[hole] = heap[parent]
    hole, parent = parent, (parent - 1) // 2
  heap[hole] = value


def _adjust_heap(heap, hole, value):
  """libstdc++'s std::__adjust_heap: moves the hole at `hole` down, then places `value`."""
  top, length, child = hole, len(heap), hole
  while child < (length - 1) // 2:
    child = 2 * (child + 1)
    if _later(heap[child], heap[child - 1]):
      child -= 1
    heap[hole] = heap[child]
    hole = child
  if length % 2 == 0 and child == (length - 2) // 2:
    child = 2 * (child + 1)
    heap[hole] = heap[child - 1]
    hole = child - 1
  _sift_up(heap, hole, top, value)


class AccumulatorCore(Resource):
  """TF's ConditionalAccumulator: sums fresh gradients; take_grad waits for enough."""

  kind = "ConditionalAccumulator"

  def __init__(self, dtype, shape, reduction_type):
    super().__init__("_%s_ResourceConditionalAccumulator" % new_uid())
    self.dtype, self.shape, self.reduction_type = dtype, shape, reduction_type
    self.takes = collections.deque()
    self.counter = self.global_step = 0
    self.sum = None

  def attempt_lists(self):
    return (self.takes,)

  def apply(self, local_step, grad):
    """Adds `grad` (NumPy) unless stale; the error of a shape mismatch, or None."""
    with self.cond:
      if local_step < self.global_step:
        return None
      for expected in ([self.sum.shape] if self.counter else []) + [self.shape]:
        if not tensor_shape.as_shape(expected).is_compatible_with(grad.shape):
          return (errors.InvalidArgumentError, "Shape mismatch: expected %s, got %s"
                  % (shape_text(expected), shape_text(grad.shape)))
      self.sum = grad.copy() if self.counter == 0 else self.sum + grad
      self.counter += 1
      self.flush()
    return None

  def set_global_step(self, step):
    with self.cond:
      self.global_step = step
      self.flush()

  def take(self, num_required):
    def run(attempt):
      if self.counter < attempt.requested:
        return NO_PROGRESS
      self.global_step += 1
      total = self.sum
      if self.reduction_type == "MEAN":
        total = total / np.asarray(self.counter, total.dtype)
      attempt.result, self.counter = total, 0
      return COMPLETE
    return self.submit(self.takes, Attempt(num_required, run))
