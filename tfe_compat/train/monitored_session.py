"""`tf.train.MonitoredSession`, `MonitoredTrainingSession`, `SingularMonitoredSession` and
`Scaffold` (graph mode), as TF 1.15 runs them.

A monitored session finalizes the graph's `Scaffold` (init, ready and local-init ops, the
summary op, a Saver), creates a Session (restoring the latest checkpoint of
`checkpoint_dir` if there is one, else running the init op), calls the hooks around every
`run` and stops when a hook asks or the input ends (`OutOfRangeError` ends a `with` block
quietly, as in TF).
"""
import logging

from tfe_compat import graph_variables
from tfe_compat.client import session as session_lib
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework.api import export
from tfe_compat.ops import control_flow_ops
from tfe_compat.summary import summary_v2
from tfe_compat.train import checkpoint_io
from tfe_compat.train import queue_inputs
from tfe_compat.train import saver as saver_lib
from tfe_compat.train import session_hooks

_log = logging.getLogger("tensorflow")
USE_DEFAULT = object()


@export("train.Scaffold")
class Scaffold:
  """The ops a monitored session needs (made by `finalize()` when not given)."""

  def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
               ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None,
               copy_from_scaffold=None):
    if copy_from_scaffold is not None:
      init_op = init_op or copy_from_scaffold.init_op
      init_feed_dict = init_feed_dict or copy_from_scaffold.init_feed_dict
      init_fn = init_fn or copy_from_scaffold._init_fn  # pylint: disable=protected-access
      ready_op = ready_op or copy_from_scaffold.ready_op
      local_init_op = local_init_op or copy_from_scaffold.local_init_op
      summary_op = summary_op or copy_from_scaffold.summary_op
      saver = saver or copy_from_scaffold.saver
    self._init_op, self._init_feed_dict, self._init_fn = init_op, init_feed_dict, init_fn
    self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op
    self._local_init_op, self._summary_op, self._saver = local_init_op, summary_op, saver

  init_op = property(lambda self: self._init_op)
  init_feed_dict = property(lambda self: self._init_feed_dict)
  init_fn = property(lambda self: self._init_fn)
  ready_op = property(lambda self: self._ready_op)
  ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
  local_init_op = property(lambda self: self._local_init_op)
  summary_op = property(lambda self: self._summary_op)
  saver = property(lambda self: self._saver)

  def finalize(self):
    """Creates the missing ops and finalizes the default graph."""
    graph = graph_lib.get_default_graph()
    if self._init_op is None:
      self._init_op = _one_of(graph_lib.GraphKeys.INIT_OP,
                              graph_variables.global_variables_initializer)
    if self._ready_op is None:
      self._ready_op = _one_of(graph_lib.GraphKeys.READY_OP,
                               graph_variables.report_uninitialized_variables)
    if self._local_init_op is None:
      self._local_init_op = _one_of(graph_lib.GraphKeys.LOCAL_INIT_OP, lambda: (
          control_flow_ops.group(graph_variables.local_variables_initializer(),
                                 *graph.get_collection("table_initializer"))))
    if self._summary_op is None:
      self._summary_op = _one_of(graph_lib.GraphKeys.SUMMARY_OP, summary_v2.merge_all)
    if self._saver is None:
      self._saver = _one_of(graph_lib.GraphKeys.SAVERS, lambda: saver_lib.Saver(
          allow_empty=True, max_to_keep=5))
    graph.finalize()
    return self

  @staticmethod
  def get_or_default(arg_name, collection_key, default_constructor):
    return _one_of(collection_key, default_constructor)

  @staticmethod
  def default_local_init_op():
    return control_flow_ops.group(graph_variables.local_variables_initializer())


def _one_of(key, make):
  """The single item of collection `key`, else `make()` added to it."""
  items = graph_lib.get_collection(key)
  if len(items) > 1:
    raise RuntimeError("More than one item in the collection \"%s\". Please indicate which "
                       "one to use by passing it to the constructor." % key)
  if items:
    return items[0]
  item = make()
  if item is not None:
    graph_lib.add_to_collection(key, item)
  return item


class _SessionCreator:
  """Creates the Session: restores `checkpoint_dir`'s latest checkpoint or initializes."""

  def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
               checkpoint_filename_with_path=None):
    self._scaffold = scaffold or Scaffold()
    self._config, self._dir = config, checkpoint_dir
    self._path = checkpoint_filename_with_path

  def create_session(self):
    scaffold = self._scaffold.finalize()
    sess = session_lib.Session(graph=graph_lib.get_default_graph(), config=self._config)
    state = checkpoint_io.get_checkpoint_state(self._dir) if self._dir else None
    path = self._path or (checkpoint_io.latest_checkpoint(self._dir) if self._dir else None)
    if path:
      scaffold.saver.restore(sess, path)
      if state is not None:  # older checkpoints are deleted as new ones are written
        scaffold.saver.recover_last_checkpoints(list(state.all_model_checkpoint_paths))
    else:
      if scaffold.init_op is not None:
        sess.run(scaffold.init_op, feed_dict=scaffold.init_feed_dict)
      if scaffold.init_fn is not None:
        scaffold.init_fn(scaffold, sess)
    if scaffold.local_init_op is not None:
      sess.run(scaffold.local_init_op)
    if scaffold.ready_op is not None:
      not_ready = sess.run(scaffold.ready_op)
      if not_ready is not None and len(not_ready):
        raise RuntimeError("Init operations did not make model ready. Init op: %s, init fn: "
                           "%s, error: Variables not initialized: %s"
                           % (scaffold.init_op, scaffold.init_fn,
                              ", ".join(n.decode() for n in not_ready)))
    return sess


export("train.ChiefSessionCreator")(_SessionCreator)


@export("train.MonitoredSession")
class MonitoredSession:
  """A Session that runs hooks around every `run` and stops when they (or the data) say."""

  def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
    self._hooks = list(hooks or [])
    for hook in self._hooks:
      hook.begin()
    creator = session_creator or _SessionCreator()
    self._scaffold = getattr(creator, "_scaffold", None)
    self._sess = creator.create_session()
    self._coord = queue_inputs.Coordinator()
    self._should_stop = False
    self._closed = False
    self._default = self._sess.as_default()
    self._default.__enter__()
    for hook in self._hooks:
      hook.after_create_session(self._sess, self._coord)

  graph = property(lambda self: self._sess.graph)
  scaffold = property(lambda self: self._scaffold)

  def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    """Runs `fetches` with the hooks' fetches and feeds; returns the caller's values."""
    context = session_hooks.SessionRunContext(
        session_hooks.SessionRunArgs(fetches, feed_dict, options), self._sess)
    feeds = dict(feed_dict or {})
    hook_fetches = {}
    for hook in self._hooks:
      request = hook.before_run(context)
      if request is None:
        continue
      hook_fetches[hook] = request.fetches
      for key, value in (request.feed_dict or {}).items():
        if key in feeds:
          raise RuntimeError("Same tensor is fed by a SessionRunHook and user.")
        feeds[key] = value
    named = {i: f for i, f in enumerate(hook_fetches.values()) if f is not None}
    results = self._sess.run({"caller": fetches, "hooks": named}, feed_dict=feeds,
                             options=options, run_metadata=run_metadata)
    for i, hook in enumerate(hook_fetches):
      hook.after_run(context, session_hooks.SessionRunValues(
          results["hooks"].get(i), options, run_metadata))
    for hook in self._hooks:
      if hook not in hook_fetches:
        hook.after_run(context, session_hooks.SessionRunValues(None, options, run_metadata))
    self._should_stop = self._should_stop or context.stop_requested
    return results["caller"]

  def run_step_fn(self, step_fn):
    """`step_fn(step_context)`: `step_context.run_with_hooks(...)`, `.session`,
    `.request_stop()`."""
    return step_fn(_StepContext(self))

  def should_stop(self):
    return self._should_stop or self._closed

  def close(self):
    if self._closed:
      return
    try:
      for hook in self._hooks:
        hook.end(self._sess)
    finally:
      self._closed = True
      self._default.__exit__(None, None, None)
      self._sess.close()

  def __enter__(self):
    return self

  def __exit__(self, exc_type, exc_value, traceback):
    if exc_type in (errors.OutOfRangeError, StopIteration):
      exc_type = None
    if exc_type is None:
      self.close()
    else:
      self._closed = True
      self._default.__exit__(None, None, None)
      self._sess.close()
    return exc_type is None


class _StepContext:
  def __init__(self, monitored):
    self._monitored = monitored

  session = property(lambda self: self._monitored._sess)  # pylint: disable=protected-access

  def run_with_hooks(self, *args, **kwargs):
    return self._monitored.run(*args, **kwargs)

  def request_stop(self):
    self._monitored._should_stop = True  # pylint: disable=protected-access


@export("train.SingularMonitoredSession")
class SingularMonitoredSession(MonitoredSession):
  """A MonitoredSession for one process, with `raw_session()`."""

  def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
               stop_grace_period_secs=120, checkpoint_filename_with_path=None):
    super().__init__(_SessionCreator(scaffold, master, config, checkpoint_dir,
                                     checkpoint_filename_with_path), hooks)

  def raw_session(self):
    return self._sess


@export("train.MonitoredTrainingSession")
def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None,  # pylint: disable=invalid-name
                             scaffold=None, hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=USE_DEFAULT, save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100,
                             max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None):
  """A MonitoredSession with TF 1.15's default hooks: a step counter, summaries every 100
  steps and checkpoints every 600 seconds in `checkpoint_dir` (resumed from it)."""
  if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
    save_summaries_steps, save_summaries_secs = 100, None
  else:
    save_summaries_steps = None if save_summaries_steps is USE_DEFAULT else save_summaries_steps
    save_summaries_secs = None if save_summaries_secs is USE_DEFAULT else save_summaries_secs
  if save_checkpoint_secs is USE_DEFAULT and save_checkpoint_steps is USE_DEFAULT:
    save_checkpoint_secs, save_checkpoint_steps = 600, None
  else:
    save_checkpoint_secs = None if save_checkpoint_secs is USE_DEFAULT else save_checkpoint_secs
    save_checkpoint_steps = (None if save_checkpoint_steps is USE_DEFAULT
                             else save_checkpoint_steps)
  scaffold = scaffold or Scaffold()
  all_hooks = list(hooks or [])
  if is_chief:
    all_hooks += list(chief_only_hooks or [])
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir and log_step_count_steps and log_step_count_steps > 0:
      all_hooks.append(session_hooks.StepCounterHook(output_dir=summary_dir,
                                                     every_n_steps=log_step_count_steps))
    if summary_dir and (save_summaries_steps or save_summaries_secs):
      all_hooks.append(session_hooks.SummarySaverHook(
          scaffold=scaffold, save_steps=save_summaries_steps,
          save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir and (save_checkpoint_secs or save_checkpoint_steps):
      all_hooks.append(session_hooks.CheckpointSaverHook(
          checkpoint_dir, save_steps=save_checkpoint_steps, save_secs=save_checkpoint_secs,
          scaffold=scaffold))
  return MonitoredSession(_SessionCreator(scaffold, master, config, checkpoint_dir), all_hooks)
