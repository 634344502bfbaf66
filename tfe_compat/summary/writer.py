"""Event files: summary records queued by the summary ops, encoded and written off the hot path.

A summary call appends `(encoder, tag, value, step, wall_time, params)` to the file's queue,
where value and step may still be device arrays: nothing is copied to the host then. A daemon
thread per file drains the queue when it holds more than `max_queue` records or every
`flush_millis`, converts the arrays, encodes them (encoding.py) and appends the events with
tensorboardX's `EventsWriter` (TFRecord framing, TensorBoard's file names). `flush()` drains
synchronously; files still open at interpreter exit are flushed and closed by `atexit`.

Also the per-thread summary `state` (default writer, recording condition, default step) and
the `SummaryWriter`s of tf.contrib.summary and tf.summary.
"""
import abc
import atexit
import collections
import contextlib
import itertools
import logging
import os
import threading
import time
import weakref

import numpy as np
from tensorboardX.event_file_writer import EventsWriter
from tensorboardX.proto import event_pb2, summary_pb2
from tensorboardX import record_writer
from tensorboardX.record_writer import directory_check

from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import gfile

_log = logging.getLogger("tfe_compat.summary")
_tf_log = logging.getLogger("tensorflow")
_uids = itertools.count()
_open_files = weakref.WeakSet()  # every _EventFile not yet closed, for the atexit flush


class _GFileWriterFactory:
  """tensorboardX's writer factory for logdirs with a scheme (gs://, s3://, memory://):
  event files go through tf.gfile, i.e. fsspec, as every other tf.gfile path does."""

  @staticmethod
  def open(path):
    return gfile.GFile(path, "wb")

  @staticmethod
  def directory_check(path):
    gfile.recursive_create_dir(path)


def _check_logdir(logdir):
  scheme = gfile.scheme(logdir)
  if scheme is not None:
    record_writer.register_writer_factory(scheme, _GFileWriterFactory)
  directory_check(logdir)


class _EventFile:
  """One open event file, its queue of pending records and its flush thread."""

  def __init__(self, logdir, max_queue, flush_secs, filename_suffix):
    _check_logdir(logdir)
    self.events = EventsWriter(os.path.join(logdir, "events"), filename_suffix)
    self.path = self.events._file_name  # pylint: disable=protected-access
    self.pending = collections.deque()
    self.max_queue = max_queue
    self.wake = threading.Event()
    self.lock = threading.Lock()
    self.closed = False
    _open_files.add(self)
    thread = threading.Thread(target=self._run, args=(flush_secs,), daemon=True,
                              name="summary-writer-%s" % os.path.basename(self.path))
    thread.start()

  def _run(self, flush_secs):
    while not self.closed:
      self.wake.wait(flush_secs)
      self.wake.clear()
      try:
        self.flush()
      except Exception as e:  # pylint: disable=broad-except
        _log.warning("Could not write the event file %s: %s", self.path, e)

  def flush(self):
    """Encodes and writes every pending record, then flushes the file."""
    with self.lock:
      if not self.closed:
        self._drain()

  def _drain(self):
    pending = self.pending
    while pending:
      _write_record(self.events, pending.popleft())
    self.events.flush()

  def close(self):
    with self.lock:
      if not self.closed:
        self._drain()
        self.closed = True
        self.events.close()
    self.wake.set()


def _write_record(events, record):
  encode, tag, value, step, wall_time, params = record
  try:
    if encode is None:  # an already serialized Event (import_event)
      event = event_pb2.Event.FromString(value)
    else:
      event = event_pb2.Event(wall_time=wall_time, step=int(np.asarray(step)),
                              summary=summary_pb2.Summary(value=encode(tag, value, params)))
    events.write_event(event)
  except Exception as e:  # pylint: disable=broad-except
    # TF's kernels raise at the call; records are encoded later, so a bad one is dropped.
    _log.warning("Summary %r was not written: %s", tag, e)


def _close_file(box):
  box[0].close()


class EventFileWriter:
  """A handle on one event file in `logdir`; the file is flushed and closed when it dies.

  `add` queues a record; `reopen` starts a new file after `close` (TF 1.x writers do that
  on `init()`).
  """

  def __init__(self, logdir, max_queue=10, flush_millis=120000, filename_suffix=".v2"):
    self.logdir = logdir
    self._config = (logdir, int(max_queue), max(int(flush_millis), 1) / 1000.0)
    self._suffix = filename_suffix
    self._core = self._new_file()
    self._box = [self._core]
    weakref.finalize(self, _close_file, self._box)

  def _new_file(self):
    # The pid and a process-wide uid keep two writers' file names apart, as in TF 2.
    return _EventFile(*self._config, ".%d.%d%s" % (os.getpid(), next(_uids), self._suffix))

  @property
  def closed(self):
    return self._core.closed

  @property
  def path(self):
    """The event file's path."""
    return self._core.path

  def add(self, encode, tag, value, step, params=None):
    """Queues one summary (value and step may be device arrays, read when flushed)."""
    core = self._core
    if core.closed:
      raise errors.NotFoundError(
          None, None, "Resource localhost/logdir:%s/N10tensorflow22SummaryWriterInterfaceE does "
          "not exist. [Op:WriteSummary]" % self.logdir)
    pending = core.pending
    pending.append((encode, tag, value, step, time.time(), params))
    if len(pending) > core.max_queue:
      core.wake.set()

  def add_serialized_event(self, data):
    self.add(None, None, bytes(data), 0)

  def flush(self):
    self._core.flush()

  def close(self):
    self._core.close()

  def reopen(self):
    """A new file in the same logdir, if this one was closed."""
    if self._core.closed:
      self._core = self._box[0] = self._new_file()


# ---- Summary state and writers ----
class _SummaryState(threading.local):
  def __init__(self):
    super().__init__()
    self.writer = None        # the default SummaryWriter
    self.is_recording = None  # None (the API's default), a bool, a bool Tensor or a callable
    self.step = None          # tf.summary.experimental.set_step
    self.every_n = None       # in a graph's run: write only steps divisible by it
    self.flush_each = False   # in a graph's run: flush after each write (a function's writer)


state = _SummaryState()


@export("contrib.summary.SummaryWriter", "summary.SummaryWriter")
class SummaryWriter(abc.ABC):
  """Interface of a summary writer: `set_as_default`, `as_default`, `init`, `flush`, `close`."""

  @abc.abstractmethod
  def set_as_default(self):
    """Makes this writer the default of the current thread."""

  @abc.abstractmethod
  def as_default(self):
    """A context manager making this writer the default; it flushes on a normal exit."""

  def init(self):
    raise NotImplementedError()

  def flush(self):
    raise NotImplementedError()

  def close(self):
    raise NotImplementedError()


class ResourceSummaryWriter(SummaryWriter):
  """A writer of one event file; `v2` writers (tf.summary.create_file_writer) refuse reuse
  after close, TF 1.x writers raise NotFoundError until `init()` opens a new file."""

  def __init__(self, file, v2):
    self._file = file
    self._v2 = v2

  def _check_open(self):
    if self._v2 and self._file.closed:
      raise RuntimeError("SummaryWriter %r is already closed" % self)

  def set_as_default(self):
    self._check_open()
    state.writer = self

  @contextlib.contextmanager
  def as_default(self):
    self._check_open()
    old = state.writer
    try:
      state.writer = self
      yield self
      self.flush()
    finally:
      state.writer = old

  def init(self):
    if self._v2:
      self._check_open()
    else:
      self._file.reopen()

  def flush(self):
    if self._file.closed:
      if self._v2:
        return
      raise errors.NotFoundError(
          None, None, "Resource localhost/logdir:%s/N10tensorflow22SummaryWriterInterfaceE "
          "does not exist. [Op:FlushSummaryWriter]" % self._file.logdir)
    self._file.flush()

  def close(self):
    if self._v2 and self._file.closed:
      return
    self.flush()
    self._file.close()


class _NoopSummaryWriter(SummaryWriter):
  """A writer that writes nothing (create_file_writer(None), create_noop_writer())."""

  def set_as_default(self):
    pass

  @contextlib.contextmanager
  def as_default(self):
    yield

  def init(self):
    pass

  def flush(self):
    pass

  def close(self):
    pass


def _writer_args(max_queue, flush_millis, filename_suffix):
  if isinstance(filename_suffix, Tensor):
    filename_suffix = filename_suffix.numpy()
  if isinstance(filename_suffix, bytes):
    filename_suffix = filename_suffix.decode()
  return (10 if max_queue is None else int(max_queue),
          120000 if flush_millis is None else int(flush_millis),
          ".v2" if filename_suffix is None else str(filename_suffix))


_shared_files = weakref.WeakValueDictionary()  # shared name -> EventFileWriter (TF 1.x)


@export("contrib.summary.create_file_writer")
def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None):
  """A TF 1.x summary writer for `logdir` (a no-op writer if None).

  Writers created with the same `name` (default "logdir:" + logdir) share one event file
  while it is open, as TF's shared writer resources do.
  """
  if logdir is None:
    return _NoopSummaryWriter()
  logdir = str(logdir)
  name = "logdir:" + logdir if name is None else name
  file = _shared_files.get(name)
  if file is None or file.closed:
    file = _shared_files[name] = EventFileWriter(
        logdir, *_writer_args(max_queue, flush_millis, filename_suffix))
  return ResourceSummaryWriter(file, v2=False)


@export("contrib.summary.create_summary_file_writer")
def create_summary_file_writer(*args, **kwargs):
  """Deprecated name of `create_file_writer`."""
  _tf_log.warning("Deprecation Warning: create_summary_file_writer was renamed to "
               "create_file_writer")
  return create_file_writer(*args, **kwargs)


@export("summary.create_file_writer")
def create_file_writer_v2(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                          name=None):
  """A TF 2.x summary writer: a new event file in `logdir`."""
  if logdir is None:
    raise ValueError("logdir cannot be None")
  return ResourceSummaryWriter(
      EventFileWriter(str(logdir), *_writer_args(max_queue, flush_millis, filename_suffix)),
      v2=True)


@export("summary.create_noop_writer")
def create_noop_writer():
  return _NoopSummaryWriter()


@export("contrib.summary.create_db_writer")
def create_db_writer(db_uri, experiment_name=None, run_name=None, user_name=None, name=None):
  raise NotImplementedError("tf.contrib.summary.create_db_writer (SQLite summaries) is not "
                            "supported by tfe_compat; use create_file_writer.")



@atexit.register
def _close_all():
  """Flushes and closes every open event file (TF's writers flush when the process ends)."""
  for f in list(_open_files):
    try:
      f.close()
    except Exception as e:  # pylint: disable=broad-except
      _log.warning("Could not close the event file %s: %s", f.path, e)
