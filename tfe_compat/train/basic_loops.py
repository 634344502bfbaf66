"""TF 1.x training-loop helpers: `tf.train.LooperThread`, `basic_train_loop` and
`NanLossDuringTrainingError`. They are plain Python over a `tf.train.Coordinator` or a
supervisor object, as in TF."""
import threading
import time

from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.train.queue_inputs import Coordinator


@export("train.LooperThread")
class LooperThread(threading.Thread):
  """A daemon thread calling `run_loop()` (by default `target(*args, **kwargs)`) until its
  coordinator stops: back to back, or every `timer_interval_secs` seconds. An exception
  is reported to the coordinator and ends the thread."""

  def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
    if not isinstance(coord, Coordinator):
      raise ValueError("'coord' argument must be a Coordinator: %s" % coord)
    super().__init__()
    self.daemon = True
    self._coord = coord
    self._timer_interval_secs = timer_interval_secs
    self._target = target
    if self._target:
      self._args = args or ()
      self._kwargs = kwargs or {}
    elif args or kwargs:
      raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
    self._coord.register_thread(self)

  @staticmethod
  def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
    """Starts (and returns) a LooperThread calling `target` periodically."""
    looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
    looper.start()
    return looper

  def run(self):
    with self._coord.stop_on_exception():
      self.start_loop()
      if self._timer_interval_secs is None:
        while not self._coord.should_stop():
          self.run_loop()
      else:
        next_timer_time = time.time()
        while not self._coord.wait_for_stop(next_timer_time - time.time()):
          next_timer_time += self._timer_interval_secs
          self.run_loop()
      self.stop_loop()

  def start_loop(self):
    """Called when the thread starts."""

  def stop_loop(self):
    """Called when the thread stops."""

  def run_loop(self):
    """Called at `timer_interval_secs` boundaries."""
    if self._target:
      self._target(*self._args, **self._kwargs)


@export("train.basic_train_loop")
def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
  """Calls `train_step_fn(session, *args, **kwargs)` in `supervisor.managed_session(master)`
  until the supervisor should stop; an AbortedError starts a new session."""
  args = [] if args is None else args
  kwargs = {} if kwargs is None else kwargs
  should_retry = True
  while should_retry:
    try:
      should_retry = False
      with supervisor.managed_session(master) as sess:
        while not supervisor.should_stop():
          train_step_fn(sess, *args, **kwargs)
    except errors.AbortedError:
      should_retry = True


@export("train.NanLossDuringTrainingError")
class NanLossDuringTrainingError(RuntimeError):
  """The loss became NaN (what TF's NanTensorHook raises)."""

  def __str__(self):
    return "NaN loss during training."
