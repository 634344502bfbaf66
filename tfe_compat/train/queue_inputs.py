"""TF 1.x queue-based input pipelines, sessions' helpers and `tf.train.Coordinator`, as they
behave under eager execution: the queue-based input APIs raise TF's errors (pointing to
tf.data); the Coordinator, plain Python threading, match_filenames_once (a string Variable),
add_queue_runner (a graph collection) and limit_epochs work. The queues themselves are
tf.queue (ops/data_flow_ops.py)."""
import contextlib
import sys
import threading
import time

from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops
from tfe_compat.ops import io_ops

_QUEUES = ("Input pipelines based on Queues are not supported when eager execution is enabled. "
           "Please use tf.data to ingest data into your model instead.")


def _raises(error, message, *names):
  def refuse(*args, **kwargs):
    raise error(message)
  for name in names:
    export(name)(refuse)


_raises(ValueError, _QUEUES, "train.batch", "train.batch_join", "train.shuffle_batch",
        "train.shuffle_batch_join", "train.maybe_batch", "train.maybe_batch_join",
        "train.maybe_shuffle_batch", "train.maybe_shuffle_batch_join")
_raises(RuntimeError, _QUEUES, "train.string_input_producer", "train.slice_input_producer",
        "train.range_input_producer", "train.input_producer")
_raises(RuntimeError, "Queues are not compatible with eager execution.",
        "train.start_queue_runners", "train.queue_runner.start_queue_runners")
_raises(RuntimeError, "QueueRunners are not supported when eager execution is enabled. "
        "Instead, please use tf.data to get data into your model.", "train.QueueRunner",
        "train.queue_runner.QueueRunner")
_raises(RuntimeError, "Supervisors are incompatible with eager execution.", "train.Supervisor")


@export("train.Coordinator")
class Coordinator:
  """`tf.train.Coordinator`: threads stop together when one requests it or raises."""

  def __init__(self, clean_stop_exception_types=None):
    self._clean_stop_exception_types = tuple(clean_stop_exception_types or (
        errors.OutOfRangeError,))
    self._lock = threading.Lock()
    self._stop_event = threading.Event()
    self._exc_info_to_raise = None
    self._joined = False
    self._registered_threads = set()

  def request_stop(self, ex=None):
    """Asks the threads to stop; an exception given (or being handled) is raised in join()."""
    with self._lock:
      if ex is not None and self._exc_info_to_raise is None:
        if isinstance(ex, tuple):
          ex = ex[1]
        if not isinstance(ex, self._clean_stop_exception_types):
          self._exc_info_to_raise = (type(ex), ex, ex.__traceback__)
      self._stop_event.set()

  def clear_stop(self):
    with self._lock:
      self._joined = False
      self._exc_info_to_raise = None
      self._stop_event.clear()

  def should_stop(self):
    return self._stop_event.is_set()

  @contextlib.contextmanager
  def stop_on_exception(self):
    try:
      yield
    except:  # pylint: disable=bare-except
      self.request_stop(ex=sys.exc_info()[1])

  def wait_for_stop(self, timeout=None):
    return self._stop_event.wait(timeout)

  def register_thread(self, thread):
    with self._lock:
      self._registered_threads.add(thread)

  def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
    """Waits for the threads (and registered ones) once a stop was requested; re-raises the
    exception a thread reported."""
    threads = set(threads or ()) | self._registered_threads
    while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
      pass
    deadline = time.time() + stop_grace_period_secs
    for thread in threads:
      thread.join(max(0., deadline - time.time()))
    with self._lock:
      self._joined = True
      self._registered_threads = set()
      if self._exc_info_to_raise:
        _, value, traceback = self._exc_info_to_raise
        raise value.with_traceback(traceback)
    stragglers = [t.name for t in threads if t.is_alive()]
    if stragglers and not ignore_live_threads:
      raise RuntimeError("Coordinator stopped with threads still running: %s"
                         % " ".join(stragglers))

  @property
  def joined(self):
    return self._joined

  def raise_requested_exception(self):
    with self._lock:
      if self._exc_info_to_raise:
        _, value, traceback = self._exc_info_to_raise
        raise value.with_traceback(traceback)


@export("train.match_filenames_once", "io.match_filenames_once")
def match_filenames_once(pattern, name=None):
  """A local, untrained string Variable holding the files that match `pattern`, sorted."""
  return variables.Variable(lambda: io_ops.matching_files(pattern), trainable=False,
                            collections=["local_variables"], validate_shape=False,
                            name=name or "matching_filenames")


@export("train.queue_runner.add_queue_runner", "train.add_queue_runner")
def add_queue_runner(qr, collection="queue_runners"):
  """Adds `qr` to a collection of the default graph (which exists under eager execution)."""
  graph.add_to_collection(collection, qr)


@export("train.limit_epochs")
def limit_epochs(tensor, num_epochs=None, name=None):
  """`tensor` itself (num_epochs None) or its identity after counting one epoch on a new local
  `epochs` variable, as TF does eagerly (each call counts once on a fresh counter)."""
  if num_epochs is None:
    return tensor
  if num_epochs <= 0:
    raise ValueError("num_epochs must be > 0 not %d." % num_epochs)
  epochs = variables.Variable(0, dtype=dtypes.int64, name="epochs", trainable=False,
                              collections=["local_variables"])
  epochs.count_up_to(num_epochs)
  return array_ops.identity(tensor)
