"""`tf.train.CheckpointManager` (numbered checkpoints in a directory, old ones deleted) and
TF's checkpoint-file helpers (`remove_checkpoint`, `get_checkpoint_mtimes`, ...)."""
import collections
import glob
import os
import re
import time

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.train import checkpoint_io

_V2 = 2  # SaverDef.V2, the default checkpoint format version


@export("train.CheckpointManager", "contrib.checkpoint.CheckpointManager")
class CheckpointManager:
  """Saves `checkpoint` as `<directory>/<checkpoint_name>-<n>`, keeping `max_to_keep`.

  Checkpoints listed in the directory's `checkpoint` file are picked up (and managed) when
  the manager is created; with `keep_checkpoint_every_n_hours`, one checkpoint per that
  many hours is preserved instead of deleted.
  """

  def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
               checkpoint_name="ckpt"):
    self._checkpoint = checkpoint
    if max_to_keep is not None and max_to_keep <= 0:
      raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got %d."
                       % (max_to_keep,))
    if max_to_keep is None and keep_checkpoint_every_n_hours is not None:
      raise ValueError("keep_checkpoint_every_n_hours must be None if max_to_keep is None.")
    self._max_to_keep = max_to_keep
    self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
    self._directory = os.fspath(directory)
    self._checkpoint_prefix = os.path.join(self._directory, checkpoint_name)
    state = checkpoint_io.get_checkpoint_state(self._directory)
    now = time.time()
    self._maybe_delete = collections.OrderedDict()
    if state is None:
      self._latest_checkpoint = None
      self._last_preserved_timestamp = now
    else:
      self._latest_checkpoint = state.model_checkpoint_path
      timestamps = state.all_model_checkpoint_timestamps or \
          [now] * len(state.all_model_checkpoint_paths)
      self._last_preserved_timestamp = state.last_preserved_timestamp
      if now < self._last_preserved_timestamp:
        self._last_preserved_timestamp = now  # the clock went back
      for path, timestamp in zip(state.all_model_checkpoint_paths, timestamps):
        timestamp = min(timestamp, now)
        if timestamp > self._last_preserved_timestamp:
          self._maybe_delete[path] = timestamp

  directory = property(lambda self: self._directory)
  latest_checkpoint = property(lambda self: self._latest_checkpoint,
                               doc="The prefix of the newest checkpoint, or None.")
  checkpoints = property(lambda self: list(self._maybe_delete),
                         doc="The managed checkpoints, oldest first.")

  def _record_state(self):
    paths = list(self._maybe_delete)
    checkpoint_io.update_checkpoint_state(
        self._directory, self._latest_checkpoint, paths,
        all_model_checkpoint_timestamps=list(self._maybe_delete.values()),
        last_preserved_timestamp=self._last_preserved_timestamp)

  def _sweep(self):
    if not self._max_to_keep:
      return
    while len(self._maybe_delete) > self._max_to_keep:
      path, timestamp = self._maybe_delete.popitem(last=False)
      hours = self._keep_checkpoint_every_n_hours
      if hours and timestamp - hours * 3600. >= self._last_preserved_timestamp:
        self._last_preserved_timestamp = timestamp
        continue
      checkpoint_io.remove(path)

  def save(self, checkpoint_number=None):
    """Saves a checkpoint numbered `checkpoint_number` (default: the save counter, which is
    incremented either way); deletes the ones beyond `max_to_keep`. Returns its prefix."""
    counter = self._checkpoint.save_counter
    counter.assign_add(ops.convert_to_tensor(1, dtype=dtypes.int64))
    if checkpoint_number is None:
      checkpoint_number = counter
    if not isinstance(checkpoint_number, int):
      checkpoint_number = int(ops.convert_to_tensor(checkpoint_number).numpy())
    path = self._checkpoint.write("%s-%d" % (self._checkpoint_prefix, checkpoint_number))
    self._maybe_delete.pop(path, None)
    self._maybe_delete[path] = time.time()
    self._latest_checkpoint = path
    self._record_state()
    self._sweep()
    self._record_state()
    return path


@export("train.generate_checkpoint_state_proto")
def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None):
  """A CheckpointState listing `model_checkpoint_path` last; with a relative `save_dir`,
  relative paths are rewritten relative to it."""
  paths = list(all_model_checkpoint_paths or [])
  if not paths or paths[-1] != model_checkpoint_path:
    paths.append(model_checkpoint_path)
  if all_model_checkpoint_timestamps and len(all_model_checkpoint_timestamps) != len(paths):
    raise ValueError("Checkpoint timestamps, if provided, must match checkpoint paths (got "
                     "paths %s and timestamps %s)" % (paths, all_model_checkpoint_timestamps))
  if not os.path.isabs(save_dir):
    relative = lambda p: p if os.path.isabs(p) else os.path.relpath(p, save_dir)
    model_checkpoint_path = relative(model_checkpoint_path)
    paths = [relative(p) for p in paths]
  return checkpoint_io.CheckpointState(model_checkpoint_path, paths,
                                       all_model_checkpoint_timestamps or (),
                                       last_preserved_timestamp or 0.0)


@export("train.get_checkpoint_mtimes")
def get_checkpoint_mtimes(checkpoint_prefixes):
  """The modification times (seconds, TF's whole-second resolution) of the checkpoints that
  exist among `checkpoint_prefixes` (their `.index` file, else the prefix itself)."""
  mtimes = []
  for prefix in checkpoint_prefixes:
    for pattern in (prefix + ".index", prefix):
      found = glob.glob(pattern)
      if found:
        mtimes.append(float(int(os.stat(found[0]).st_mtime)))
        break
  return mtimes


@export("train.remove_checkpoint")
def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=_V2, meta_graph_suffix="meta"):
  """Deletes the checkpoint `checkpoint_prefix` (its files and its MetaGraph file, if any)."""
  meta_graph = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_prefix) + "." + meta_graph_suffix
  for path in glob.glob(meta_graph):
    os.remove(path)
  if checkpoint_format_version == _V2:
    checkpoint_io.remove(checkpoint_prefix)
  else:
    for path in glob.glob(checkpoint_prefix):
      os.remove(path)
