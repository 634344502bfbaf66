"""`tf.train.SessionRunHook` and TF 1.15's basic hooks (graph mode, with MonitoredSession).

A hook sees every `MonitoredSession.run`: `before_run` may add fetches and feeds
(`SessionRunArgs`), `after_run` gets their values and may request a stop. The hooks here
follow TF 1.15's basic_session_run_hooks: when they fetch, save, log and stop.
"""
import collections
import logging
import os
import time

import numpy as np
from tensorboardX.proto import event_pb2, summary_pb2

from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework.api import export
from tfe_compat.train import basic_loops
from tfe_compat.train import training_util

_log = logging.getLogger("tensorflow")


@export("train.SessionRunHook")
class SessionRunHook:
  """The hook interface: every method is optional (they do nothing here)."""

  def begin(self):
    pass

  def after_create_session(self, session, coord):
    pass

  def before_run(self, run_context):
    return None

  def after_run(self, run_context, run_values):
    pass

  def end(self, session):
    pass


@export("train.SessionRunArgs")
class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
  """What a hook adds to a run: fetches (any structure), feeds, options."""

  def __new__(cls, fetches, feed_dict=None, options=None):
    return super().__new__(cls, fetches, feed_dict, options)


@export("train.SessionRunValues")
class SessionRunValues(collections.namedtuple("SessionRunValues",
                                              ["results", "options", "run_metadata"])):
  """The values of a hook's fetches after the run."""


@export("train.SessionRunContext")
class SessionRunContext:
  """The run a hook is called for: `original_args`, `session`, `request_stop()`."""

  def __init__(self, original_args, session):
    self._original_args, self._session = original_args, session
    self._stop_requested = False

  original_args = property(lambda self: self._original_args)
  session = property(lambda self: self._session)
  stop_requested = property(lambda self: self._stop_requested)

  def request_stop(self):
    self._stop_requested = True


@export("train.SecondOrStepTimer")
class SecondOrStepTimer:
  """Triggers every `every_secs` seconds or every `every_steps` steps (exactly one of them)."""

  def __init__(self, every_secs=None, every_steps=None):
    if (every_secs is None) == (every_steps is None):
      raise ValueError("exactly one of every_secs and every_steps should be provided.")
    self._every_secs, self._every_steps = every_secs, every_steps
    self.reset()

  def reset(self):
    self._last_time = self._last_step = None

  def should_trigger_for_step(self, step):
    if self._last_step is None:
      return True
    if self._last_step == step:
      return False
    if self._every_secs is not None:
      return time.time() >= self._last_time + self._every_secs
    return step >= self._last_step + self._every_steps

  def update_last_triggered_step(self, step):
    now = time.time()
    elapsed = None if self._last_time is None else (
        now - self._last_time, step - self._last_step)
    self._last_time, self._last_step = now, step
    return elapsed if elapsed is not None else (None, None)

  def last_triggered_step(self):
    return self._last_step


def _global_step_tensor():
  step = training_util.get_global_step()
  if step is None:
    raise RuntimeError("Global step should be created to use this hook.")
  return step


@export("train.StopAtStepHook")
class StopAtStepHook(SessionRunHook):
  """Requests a stop once the global step reaches `last_step` (or `num_steps` more)."""

  def __init__(self, num_steps=None, last_step=None):
    if num_steps is None and last_step is None:
      raise ValueError("One of num_steps or last_step must be specified.")
    if num_steps is not None and last_step is not None:
      raise ValueError("Only one of num_steps or last_step can be specified.")
    self._num_steps, self._last_step = num_steps, last_step

  def begin(self):
    self._global_step = training_util.get_global_step()
    if self._global_step is None:
      raise RuntimeError("Global step should be created to use StopAtStepHook.")

  def after_create_session(self, session, coord):
    if self._last_step is None:
      self._last_step = session.run(self._global_step) + self._num_steps

  def before_run(self, run_context):
    return SessionRunArgs(self._global_step)

  def after_run(self, run_context, run_values):
    if run_values.results + 1 >= self._last_step:
      if run_context.session.run(self._global_step) >= self._last_step:
        run_context.request_stop()


@export("train.CheckpointSaverListener")
class CheckpointSaverListener:
  """Called around each save of a CheckpointSaverHook; `after_save` may request a stop."""

  def begin(self):
    pass

  def before_save(self, session, global_step_value):
    pass

  def after_save(self, session, global_step_value):
    return False

  def end(self, session, global_step_value):
    pass


def _writer(output_dir):
  from tfe_compat.summary import summary_v2  # pylint: disable=import-outside-toplevel
  return summary_v2.FileWriterCache.get(output_dir)


@export("train.CheckpointSaverHook")
class CheckpointSaverHook(SessionRunHook):
  """Saves a checkpoint when the session is created, every `save_secs`/`save_steps`, and at
  the end (writes graph.pbtxt and the graph to the event file in `checkpoint_dir`)."""

  def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
               checkpoint_basename="model.ckpt", scaffold=None, listeners=None):
    if saver is not None and scaffold is not None:
      raise ValueError("You cannot provide both saver and scaffold.")
    self._dir, self._saver, self._scaffold = checkpoint_dir, saver, scaffold
    self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
    self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
    self._listeners = list(listeners or [])

  def begin(self):
    self._summary_writer = _writer(self._dir)
    self._global_step = _global_step_tensor()
    for listener in self._listeners:
      listener.begin()

  def after_create_session(self, session, coord):
    from tfe_compat.ops import io_ops  # pylint: disable=import-outside-toplevel
    step = session.run(self._global_step)
    graph = graph_lib.get_default_graph()
    io_ops.write_graph(graph, self._dir, "graph.pbtxt")
    self._summary_writer.add_graph(graph)
    self._save(session, step)
    self._timer.update_last_triggered_step(step)

  def before_run(self, run_context):
    return SessionRunArgs(self._global_step)

  def after_run(self, run_context, run_values):
    if self._timer.should_trigger_for_step(run_values.results + 1):
      step = run_context.session.run(self._global_step)
      if self._timer.should_trigger_for_step(step):
        self._timer.update_last_triggered_step(step)
        if self._save(run_context.session, step):
          run_context.request_stop()

  def end(self, session):
    step = session.run(self._global_step)
    if step != self._timer.last_triggered_step():
      self._save(session, step)
    for listener in self._listeners:
      listener.end(session, step)

  def _save(self, session, step):
    _log.info("Saving checkpoints for %d into %s.", step, self._save_path)
    for listener in self._listeners:
      listener.before_save(session, step)
    self._get_saver().save(session, self._save_path, global_step=step)
    self._summary_writer.add_session_log(event_pb2.SessionLog(
        status=event_pb2.SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
    return any([listener.after_save(session, step) for listener in self._listeners])

  def _get_saver(self):
    if self._saver is not None:
      return self._saver
    if self._scaffold is not None:
      return self._scaffold.saver
    savers = graph_lib.get_collection(graph_lib.GraphKeys.SAVERS)
    if len(savers) != 1:
      raise RuntimeError("No items in collection savers. Please add a saver to the collection "
                         "or provide a saver or scaffold." if not savers else
                         "More than one item in collection savers. Please indicate which one "
                         "to use by passing it to the constructor.")
    return savers[0]


@export("train.SummarySaverHook")
class SummarySaverHook(SessionRunHook):
  """Writes the summary op's result every `save_steps` steps or `save_secs` seconds."""

  def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None,
               scaffold=None, summary_op=None):
    if (scaffold is None) == (summary_op is None):
      raise ValueError("Exactly one of scaffold or summary_op must be provided.")
    self._summary_op, self._scaffold = summary_op, scaffold
    self._writer, self._output_dir = summary_writer, output_dir
    self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

  def begin(self):
    if self._writer is None and self._output_dir:
      self._writer = _writer(self._output_dir)
    self._global_step = _global_step_tensor()
    self._next_step = None

  def before_run(self, run_context):
    self._request = self._next_step is None or self._timer.should_trigger_for_step(
        self._next_step)
    requests = {"global_step": self._global_step}
    summary_op = self._scaffold.summary_op if self._scaffold else self._summary_op
    if self._request and summary_op is not None:
      requests["summary"] = summary_op
    return SessionRunArgs(requests)

  def after_run(self, run_context, run_values):
    if self._writer is None:
      return
    step = run_values.results["global_step"]
    if self._next_step is None:
      self._writer.add_session_log(event_pb2.SessionLog(status=event_pb2.SessionLog.START),
                                   step)
    if self._request:
      self._timer.update_last_triggered_step(step)
      summaries = run_values.results.get("summary")
      for summary in summaries if isinstance(summaries, list) else [summaries]:
        if summary is not None:
          self._writer.add_summary(summary, step)
    self._next_step = step + 1

  def end(self, session=None):
    if self._writer is not None:
      self._writer.flush()


@export("train.StepCounterHook")
class StepCounterHook(SessionRunHook):
  """Logs (and writes as `global_step/sec`) the steps per second."""

  def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
               summary_writer=None):
    self._timer = SecondOrStepTimer(every_secs=every_n_secs,
                                    every_steps=None if every_n_secs else every_n_steps)
    self._writer, self._output_dir = summary_writer, output_dir

  def begin(self):
    if self._writer is None and self._output_dir:
      self._writer = _writer(self._output_dir)
    self._global_step = _global_step_tensor()
    self._tag = self._global_step.op.name + "/sec"

  def before_run(self, run_context):
    return SessionRunArgs(self._global_step)

  def after_run(self, run_context, run_values):
    step = run_values.results
    if self._timer.should_trigger_for_step(step):
      seconds, steps = self._timer.update_last_triggered_step(step)
      if seconds:
        rate = steps / seconds
        _log.info("%s: %g", self._tag, rate)
        if self._writer is not None:
          self._writer.add_summary(summary_pb2.Summary(value=[summary_pb2.Summary.Value(
              tag=self._tag, simple_value=rate)]), step)


@export("train.LoggingTensorHook")
class LoggingTensorHook(SessionRunHook):
  """Logs the values of `tensors` every N steps or seconds (and/or at the end)."""

  def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
               formatter=None):
    if not at_end and (every_n_iter is None) == (every_n_secs is None):
      raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs "
                       "must be provided.")
    if every_n_iter is not None and every_n_iter <= 0:
      raise ValueError("invalid every_n_iter=%s." % every_n_iter)
    if not isinstance(tensors, dict):
      tensors = {item if isinstance(item, str) else item.name: item for item in tensors}
    self._tensors, self._formatter, self._at_end = tensors, formatter, at_end
    self._timer = None if every_n_iter is None and every_n_secs is None else \
        SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter)
    self._order = list(tensors)

  def begin(self):
    self._iteration = 0

  def before_run(self, run_context):
    self._should = self._timer is not None and self._timer.should_trigger_for_step(
        self._iteration)
    return SessionRunArgs(self._tensors) if self._should else None

  def _log_values(self, values):
    if self._formatter:
      _log.info(self._formatter(values))
    else:
      _log.info(", ".join("%s = %s" % (tag, values[tag]) for tag in self._order))

  def after_run(self, run_context, run_values):
    if self._should:
      self._timer.update_last_triggered_step(self._iteration)
      self._log_values(run_values.results)
    self._iteration += 1

  def end(self, session):
    if self._at_end:
      self._log_values(session.run(self._tensors))


@export("train.NanTensorHook")
class NanTensorHook(SessionRunHook):
  """Raises NanLossDuringTrainingError (or stops) when `loss_tensor` is NaN."""

  def __init__(self, loss_tensor, fail_on_nan_loss=True):
    self._loss, self._fail = loss_tensor, fail_on_nan_loss

  def before_run(self, run_context):
    return SessionRunArgs(self._loss)

  def after_run(self, run_context, run_values):
    if np.isnan(run_values.results):
      if self._fail:
        _log.error("Model diverged with loss = NaN.")
        raise basic_loops.NanLossDuringTrainingError()
      _log.warning("Model diverged with loss = NaN.")
      run_context.request_stop()


@export("train.FinalOpsHook")
class FinalOpsHook(SessionRunHook):
  """Runs `final_ops` when the session ends; their values are `final_ops_values`."""

  def __init__(self, final_ops, final_ops_feed_dict=None):
    self._final_ops, self._feed = final_ops, final_ops_feed_dict
    self._values = None

  final_ops_values = property(lambda self: self._values)

  def end(self, session):
    if self._final_ops is not None:
      try:
        self._values = session.run(self._final_ops, feed_dict=self._feed)
      except (errors.OutOfRangeError, StopIteration) as e:
        _log.warning("An OutOfRangeError or StopIteration exception is raised by the code in "
                     "FinalOpsHook. This typically means the Ops running by the FinalOpsHook "
                     "have a dependency back to some input source, which should not happen.")
        raise e


@export("train.FeedFnHook")
class FeedFnHook(SessionRunHook):
  """Feeds `feed_fn()` into every run."""

  def __init__(self, feed_fn):
    self._feed_fn = feed_fn

  def before_run(self, run_context):
    return SessionRunArgs(fetches=None, feed_dict=self._feed_fn())


@export("train.GlobalStepWaiterHook")
class GlobalStepWaiterHook(SessionRunHook):
  """Waits (before the first run) until the global step reaches `wait_until_step`."""

  def __init__(self, wait_until_step):
    self._wait_until_step = wait_until_step

  def begin(self):
    self._waited = self._wait_until_step <= 0
    self._global_step = _global_step_tensor()

  def before_run(self, run_context):
    while not self._waited:
      if run_context.session.run(self._global_step) >= self._wait_until_step:
        self._waited = True
      else:
        time.sleep(0.5)
