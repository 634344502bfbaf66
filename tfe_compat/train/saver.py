"""Name-based checkpoints: `tf.train.Saver`, `tfe.Saver`, `tfe.restore_variables_on_create`.

Values are stored by variable name (`v.op.name`, or the keys of a dict `var_list`) in the
same on-disk format as `tf.train.Checkpoint` (checkpoint_io.py).
"""
import contextlib
import os
import time

import numpy as np

from tfe_compat import graph_variables
from tfe_compat import state_ops
from tfe_compat import variables
from tfe_compat.client import session as session_lib
from tfe_compat.framework import context
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.train import checkpoint as checkpoint_lib
from tfe_compat.train import checkpoint_io
from tfe_compat.train import meta_graph

_ctx = context.ctx


def _named_variables(var_list):
  """{checkpoint name: Variable} for a list or dict `var_list`."""
  if isinstance(var_list, dict):
    items = list(var_list.items())
  else:
    items = [(getattr(v, "_shared_name", None), v) for v in var_list]
  named = {}
  for name, variable in items:
    if not isinstance(variable, variables.ResourceVariable):
      raise TypeError("Variable to save is not a Variable: %s" % (variable,))
    if named.setdefault(name, variable) is not variable:
      raise ValueError("Two different ResourceVariable objects with the same shared_name '%s' "
                       "were passed to the Saver. This likely means that they were created "
                       "in different Graphs or isolation contexts, and may not be "
                       "checkpointed together." % name)
  return named


def _step_number(sess, global_step):
  if isinstance(global_step, (int, np.integer)):
    return int(global_step)
  if _in_graph(global_step):
    return int(_session(sess).run(global_step))
  return int(ops.convert_to_tensor(global_step).numpy())


def _in_graph(value):
  return getattr(value, "_graph", None) is not None or isinstance(value, graph_lib.GraphTensor)


def _session(sess):
  if sess is None:
    raise TypeError("'sess' must be a Session; %s" % (sess,))
  return sess


def graph_session():
  """The default session in graph mode (None when executing eagerly): where name-based
  restores of graph variables are assigned, as TF's contrib.eager functions do."""
  return session_lib.get_default_session() if context.ctx.graph is not None else None


def assign_now(variable, value, session=None):
  """Assigns `value` now: to the variable itself, or to a graph variable in `session`."""
  if variable._graph is None:
    variable.assign(value)
  else:
    _session(session or session_lib.get_default_session())._load(variable, value)  # pylint: disable=protected-access


def _value(sess, variable):
  """The variable's value: its Session's (graph mode) or its own."""
  if variable._graph is None:
    return np.asarray(state_ops.read(variable)._value)  # pylint: disable=protected-access
  values = _session(sess)._values  # pylint: disable=protected-access
  if variable._id not in values:
    raise errors.FailedPreconditionError(
        None, None, "Attempting to use uninitialized value %s" % variable._shared_name)
  return np.asarray(values[variable._id])


@export("train.Saver")
class Saver:
  """Saves and restores a list or dict of variables by name: in graph mode their values in
  `sess`, when executing eagerly their own (`sess` is ignored)."""

  def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
               keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
               saver_def=None, builder=None, defer_build=False, allow_empty=False,
               write_version=2, pad_step_number=False, save_relative_paths=False,
               filename=None):
    if var_list is None:
      if context.ctx.graph is None:
        raise RuntimeError("When eager execution is enabled, `var_list` must specify a list "
                           "or dict of variables to save")
      var_list = graph_variables.global_variables() + graph_lib.get_collection(
          "saveable_objects")  # graph mode: the variables there are now, as TF
    self._var_list = var_list
    if not var_list and not allow_empty:
      raise ValueError("No variables to save")
    self._max_to_keep = max_to_keep
    self._keep_every = keep_checkpoint_every_n_hours * 3600.0
    self._next_keep_time = time.time() + self._keep_every
    self._pad_step_number = pad_step_number
    self._last_checkpoints = []  # (prefix, time), oldest first

  @property
  def _variables(self):
    """{checkpoint name: Variable}; like TF in eager mode, checked when used."""
    return _named_variables(self._var_list)

  @property
  def last_checkpoints(self):
    """The prefixes of the checkpoints not deleted yet, oldest first."""
    return [path for path, _ in self._last_checkpoints]

  def save(self, sess, save_path, global_step=None, latest_filename=None,
           meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
           strip_default_attrs=False, save_debug_info=False):
    """Writes the variables to `save_path` (`-<global_step>` appended); returns the path."""
    save_path = os.fspath(save_path)
    if global_step is not None:
      step = _step_number(sess, global_step)
      path = ("%s-%08d" if self._pad_step_number else "%s-%d") % (save_path, step)
    else:
      path = save_path
    values = {name: _value(sess, v) for name, v in self._variables.items()}
    checkpoint_io.write(path, values)
    if write_meta_graph and context.ctx.graph is not None:
      meta_graph.export_meta_graph("%s.%s" % (path, meta_graph_suffix),
                                   saver_def=meta_graph.saver_def_of(self))
    if write_state:
      self._record(path, os.path.dirname(save_path), latest_filename)
    return path

  def _record(self, path, save_dir, latest_filename):
    now = time.time()
    self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != path]
    self._last_checkpoints.append((path, now))
    if self._max_to_keep:
      while len(self._last_checkpoints) > self._max_to_keep:
        old, created = self._last_checkpoints.pop(0)
        if created > self._next_keep_time:
          self._next_keep_time += self._keep_every
        else:
          checkpoint_io.remove(old)
      paths = self.last_checkpoints
    else:
      paths = [path]
    checkpoint_io.update_checkpoint_state(save_dir, path, paths, latest_filename)

  def restore(self, sess, save_path):
    """Assigns every variable its value saved under its name in `save_path`."""
    if save_path is None:
      raise ValueError("Can't load save_path when it is None.")
    save_path = os.fspath(save_path)
    if not checkpoint_io.exists(save_path):
      raise ValueError("The passed save_path is not a valid checkpoint: " + save_path)
    entries, load = checkpoint_io.read(save_path)
    for name in self._variables:
      if name not in entries:
        raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % name)
    pairs = list(self._variables.items())
    checkpoint_lib._check(entries, pairs)  # pylint: disable=protected-access
    values = load()
    for name, variable in pairs:
      if variable._graph is None:
        variable.assign(values[name])
      else:
        _session(sess)._load(variable, values[name])  # pylint: disable=protected-access

  def export_meta_graph(self, filename=None, collection_list=None, as_text=False,
                        export_scope=None, clear_devices=False, clear_extraneous_savers=False,
                        strip_default_attrs=False, save_debug_info=False):
    """The default graph's MetaGraphDef with this Saver's SaverDef (written to `filename`)."""
    return meta_graph.export_meta_graph(
        filename, saver_def=self.as_saver_def(), collection_list=collection_list,
        as_text=as_text, export_scope=export_scope, clear_devices=clear_devices,
        clear_extraneous_savers=clear_extraneous_savers,
        strip_default_attrs=strip_default_attrs, save_debug_info=save_debug_info)

  def as_saver_def(self):
    return meta_graph.saver_def_of(self)

  to_proto = as_saver_def

  def recover_last_checkpoints(self, checkpoint_paths):
    """Takes over `checkpoint_paths` (e.g. from `get_checkpoint_state`) for deletion."""
    now = time.time()
    self._last_checkpoints = [(p, now) for p in checkpoint_paths if checkpoint_io.exists(p)]

  def set_last_checkpoints(self, last_checkpoints):
    self._last_checkpoints = [(p, time.time()) for p in last_checkpoints]


@export("contrib.eager.Saver")
class EagerSaver:
  """`tfe.Saver(var_list)`: `tf.train.Saver` without sessions."""

  def __init__(self, var_list):
    self._saver = Saver(var_list=var_list)

  def save(self, file_prefix, global_step=None):
    """Saves the variables; returns the checkpoint prefix (with `-<global_step>`)."""
    return self._saver.save(None, file_prefix, write_meta_graph=False, global_step=global_step)

  def restore(self, file_prefix):
    self._saver.restore(None, file_prefix)


class _RestoreOnCreate:
  """A variable scope giving each new variable its value from a name-based checkpoint;
  reads and writes go on as without it (to the enclosing scope, if any)."""

  def __init__(self, values, map_func, previous):
    self._values, self._map_func, self._previous = values, map_func, previous
    self._session = graph_session()  # graph mode: restored values go into it

  def _outside(self, fn, *args):
    saved = _ctx.variable_scope
    _ctx.variable_scope = self._previous
    try:
      return fn(*args)
    finally:
      _ctx.variable_scope = saved

  def read(self, var):
    return self._outside(state_ops.read, var)

  def write(self, var, value):
    self._outside(state_ops.write, var, value)

  def variable_created(self, var):
    created = getattr(self._previous, "variable_created", None)
    if created is not None:  # first: a graph variable gets its operations
      self._outside(created, var)
    name = self._map_func(var._shared_name)  # pylint: disable=protected-access
    if name not in self._values:
      raise errors.NotFoundError(None, None, "%s not found in checkpoint" % name)
    value = self._values[name]
    if value is not None:
      assign_now(var, value, self._session)
      self._values[name] = None  # only the first variable of that name is restored


@export("contrib.eager.restore_variables_on_create")
@contextlib.contextmanager
def restore_variables_on_create(save_path, map_func=None):
  """Variables created inside take their values from the name-based checkpoint
  `save_path` (looked up by `map_func(name)`); with `save_path` None, does nothing."""
  if not save_path:
    yield
    return
  if map_func is None:
    map_func = lambda name: name
  elif not callable(map_func):
    raise ValueError("map_func must be callable.")
  _, load = checkpoint_io.read(save_path)
  previous = _ctx.variable_scope
  _ctx.variable_scope = _RestoreOnCreate(dict(load()), map_func, previous)
  try:
    yield
  finally:
    _ctx.variable_scope = previous
