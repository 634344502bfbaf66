"""`tf.keras.utils` enqueuers (`SequenceEnqueuer`, `OrderedEnqueuer`, `GeneratorEnqueuer`),
`HDF5Matrix`, and `tf.keras.experimental.terminate_keras_multiprocessing_pools`.

Workers are threads. `use_multiprocessing=True` also runs threads (with a warning): the data
is the same, and forking a process that runs JAX is unsafe.
"""
import logging
import queue
import random
import threading
import time
from concurrent import futures

import numpy as np

from tfe_compat.framework.api import export

_log = logging.getLogger("tensorflow")


@export("keras.utils.SequenceEnqueuer")
class SequenceEnqueuer:
  """Base class: `start(workers, max_queue_size)`, `get()` (an endless generator), `stop()`."""

  def __init__(self, sequence, use_multiprocessing=False):
    self.sequence = sequence
    self.use_multiprocessing = use_multiprocessing
    if use_multiprocessing:
      _log.warning("tfe_compat runs Keras data workers as threads (use_multiprocessing=True "
                   "would fork a process running JAX).")
    self.workers = 0
    self.queue = None
    self.run_thread = None
    self.stop_signal = None

  def is_running(self):
    return self.stop_signal is not None and not self.stop_signal.is_set()

  def start(self, workers=1, max_queue_size=10):
    """Starts `workers` threads filling a queue of at most `max_queue_size` batches."""
    self.workers = workers
    self.queue = queue.Queue(max_queue_size)
    self.stop_signal = threading.Event()
    self.run_thread = threading.Thread(target=self._run, daemon=True)
    self.run_thread.start()

  def stop(self, timeout=None):
    """Stops the threads and waits for them (at most `timeout` seconds)."""
    self.stop_signal.set()
    with self.queue.mutex:
      self.queue.queue.clear()
      self.queue.unfinished_tasks = 0
      self.queue.not_full.notify()
    self.run_thread.join(timeout)

  def __del__(self):
    if self.is_running():
      self.stop()

  def _put(self, item):
    """Queues `item` unless stopped; False once stopped."""
    while not self.stop_signal.is_set():
      try:
        self.queue.put(item, block=True, timeout=0.1)
        return True
      except queue.Full:
        continue
    return False

  def _run(self):
    raise NotImplementedError

  def get(self):
    raise NotImplementedError


@export("keras.utils.OrderedEnqueuer")
class OrderedEnqueuer(SequenceEnqueuer):
  """Serves a `Sequence`'s batches in order (shuffled each epoch with `shuffle`), forever;
  calls `on_epoch_end` between epochs."""

  def __init__(self, sequence, use_multiprocessing=False, shuffle=False):
    super().__init__(sequence, use_multiprocessing)
    self.shuffle = shuffle

  def _run(self):
    order = list(range(len(self.sequence)))
    with futures.ThreadPoolExecutor(max(self.workers, 1)) as executor:
      while not self.stop_signal.is_set():
        if self.shuffle:
          random.shuffle(order)
        for i in order:
          if not self._put(executor.submit(self.sequence.__getitem__, i)):
            return
        while self.queue.unfinished_tasks and not self.stop_signal.is_set():
          time.sleep(0.01)  # the epoch's batches are consumed before on_epoch_end
        if self.stop_signal.is_set():
          return
        self.sequence.on_epoch_end()

  def get(self):
    """Yields the batches, in order."""
    while self.is_running():
      try:
        future = self.queue.get(block=True, timeout=5)
      except queue.Empty:
        continue
      try:
        inputs = future.result()
      except Exception:
        self.stop()
        raise
      if self.is_running():
        self.queue.task_done()
      if inputs is not None:
        yield inputs


@export("keras.utils.GeneratorEnqueuer")
class GeneratorEnqueuer(SequenceEnqueuer):
  """Serves the items of a (thread-safe) generator; ends when the generator does."""

  def __init__(self, sequence, use_multiprocessing=False, random_seed=None):
    super().__init__(sequence, use_multiprocessing)
    self.random_seed = random_seed
    self._lock = threading.Lock()

  def _next(self):
    with self._lock:
      return next(self.sequence)

  def _run(self):
    if self.random_seed is not None:
      np.random.seed(self.random_seed)
    with futures.ThreadPoolExecutor(max(self.workers, 1)) as executor:
      while not self.stop_signal.is_set():
        future = executor.submit(self._next)
        if not self._put(future):
          return
        try:
          future.result()
        except StopIteration:
          return
        except Exception:  # pylint: disable=broad-except
          continue  # get() raises it

  def get(self):
    """Yields the generator's items until it is exhausted."""
    while self.is_running() or not self.queue.empty():
      try:
        future = self.queue.get(block=True, timeout=0.1)
      except queue.Empty:
        if self.run_thread.is_alive():
          continue
        return
      try:
        inputs = future.result()
      except StopIteration:
        return
      except Exception:
        self.stop()
        raise
      if inputs is not None:
        yield inputs


@export("keras.experimental.terminate_keras_multiprocessing_pools")
def terminate_keras_multiprocessing_pools(grace_period=0.1, use_sigkill=False):  # pylint: disable=unused-argument
  """Destroys Keras' multiprocessing pools: tfe_compat starts none, so there is nothing to
  terminate and no issue to report (an empty list)."""
  return []


@export("keras.utils.HDF5Matrix")
class HDF5Matrix:
  """A dataset of an HDF5 file (read with h5py) used like a NumPy array, rows
  [start, end), each passed through `normalizer`."""

  refs = {}

  def __init__(self, datapath, dataset, start=0, end=None, normalizer=None):
    try:
      import h5py  # pylint: disable=import-outside-toplevel
    except ImportError:
      raise ImportError("The use of HDF5Matrix requires HDF5 and h5py installed.") from None
    if datapath not in HDF5Matrix.refs:
      HDF5Matrix.refs[datapath] = h5py.File(datapath, "r")
    self.data = HDF5Matrix.refs[datapath][dataset]
    self.start = start
    self.end = self.data.shape[0] if end is None else end
    self.normalizer = normalizer
    if normalizer is not None:
      first = normalizer(self.data[0:1])
      self._base_shape, self._base_dtype = first.shape[1:], first.dtype
    else:
      self._base_shape, self._base_dtype = self.data.shape[1:], self.data.dtype

  def __len__(self):
    return self.end - self.start

  def __getitem__(self, key):
    if isinstance(key, slice):
      start, stop = key.start or 0, key.stop if key.stop is not None else len(self)
      if stop + self.start > self.end:
        raise IndexError
      idx = slice(start + self.start, stop + self.start)
    elif isinstance(key, (int, np.integer)):
      if key + self.start >= self.end:
        raise IndexError
      idx = key + self.start
    elif isinstance(key, np.ndarray):
      if np.max(key) + self.start >= self.end:
        raise IndexError
      idx = (self.start + key).tolist()
    else:
      if max(key) + self.start >= self.end:
        raise IndexError
      idx = [x + self.start for x in key]
    return self.normalizer(self.data[idx]) if self.normalizer is not None else self.data[idx]

  @property
  def shape(self):
    return (self.end - self.start,) + tuple(self._base_shape)

  @property
  def dtype(self):
    return self._base_dtype

  @property
  def ndim(self):
    return self.data.ndim

  @property
  def size(self):
    return int(np.prod(self.shape))
