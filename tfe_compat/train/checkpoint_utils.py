"""Reading variables out of name-based checkpoints, executing eagerly:
`tf.train.checkpoints_iterator`, `init_from_checkpoint`, `warm_start` and `VocabInfo`.

TF 1.x replaces variable initializers; executing eagerly TF assigns the checkpoint's values
at once, and so does this module (through `tf.train.load_checkpoint`). Names in an
assignment map are looked up among the variables of the enclosing `EagerVariableStore`
(where TF's eager variable store keeps them; outside one there are none).
"""
import collections
import logging
import time

from tfe_compat import graph_variables
from tfe_compat import variables
from tfe_compat.losses import GraphKeys
from tfe_compat.framework import context
from tfe_compat.framework import errors
from tfe_compat.framework import graph
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.train import checkpoint_io

_log = logging.getLogger("tensorflow")


def _wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1,
                             timeout=None):
  """The newest checkpoint of `checkpoint_dir` other than `last_checkpoint`, or None after
  `timeout` seconds."""
  _log.info("Waiting for new checkpoint at %s", checkpoint_dir)
  stop_time = time.time() + timeout if timeout is not None else None
  while True:
    checkpoint_path = checkpoint_io.latest_checkpoint(checkpoint_dir)
    if checkpoint_path is None or checkpoint_path == last_checkpoint:
      if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
        return None
      time.sleep(seconds_to_sleep)
    else:
      _log.info("Found new checkpoint at %s", checkpoint_path)
      return checkpoint_path


@export("train.checkpoints_iterator")
def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
  """Yields each new checkpoint of `checkpoint_dir` as it appears. After `timeout` seconds
  without one it stops, unless `timeout_fn()` returns False (then it waits again)."""
  checkpoint_path = None
  while True:
    new_checkpoint_path = _wait_for_new_checkpoint(checkpoint_dir, checkpoint_path,
                                                   timeout=timeout)
    if new_checkpoint_path is None:
      if not timeout_fn:
        _log.info("Timed-out waiting for a checkpoint.")
        return
      if timeout_fn():
        return
      continue
    start = time.time()
    checkpoint_path = new_checkpoint_path
    yield checkpoint_path
    time_to_next_eval = start + min_interval_secs - time.time()
    if time_to_next_eval > 0:
      time.sleep(time_to_next_eval)


def _is_variable(x):
  return isinstance(x, variables.ResourceVariable)


def _store_variables():
  """{name: Variable} of `tf.get_variable`: the graph's being built, or the current
  EagerVariableStore's (empty outside one)."""
  if graph.building() is not None:
    return graph.building()._variable_store  # pylint: disable=protected-access
  stores = context.ctx.variable_stores
  return stores[-1] if stores else {}


def _assign(var, reader, tensor_name):
  """Assigns `var` the checkpoint's value `tensor_name` (RestoreV2's dtype check)."""
  if isinstance(var, (list, tuple)):
    raise NotImplementedError("tfe_compat has no partitioned variables: cannot initialize the "
                              "list of variables %s from %s." % (var, tensor_name))
  saved = reader.get_variable_to_dtype_map()[tensor_name]
  if saved is not var.dtype.base_dtype:
    raise errors.invalid_argument(
        "tensor_name = %s; expected dtype %s does not equal original dtype %s [Op:RestoreV2]"
        % (tensor_name, ops.tf_type_name(var.dtype.base_dtype), ops.tf_type_name(saved)))
  if var._graph is not None:  # pylint: disable=protected-access
    graph_variables.initialize_from(var, reader.get_tensor(tensor_name))
  else:
    var.assign(reader.get_tensor(tensor_name))


@export("train.init_from_checkpoint", "contrib.framework.init_from_checkpoint")
def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
  """Assigns variables their values in a checkpoint, by `assignment_map`
  {name in the checkpoint: Variable, variable name, or scope}:
  `'old/var': var`, `'old/var': 'new/var'`, `'old_scope/': 'new_scope/'`, `'/': 'scope/'`.
  """
  reader = checkpoint_io.CheckpointReader(ckpt_dir_or_file)
  variable_map = reader.get_variable_to_shape_map()
  store_vars = _store_variables()
  for tensor_name_in_ckpt, current_var_or_name in sorted(assignment_map.items(),
                                                         key=lambda item: item[0]):
    if _is_variable(current_var_or_name) or (
        isinstance(current_var_or_name, list) and all(map(_is_variable, current_var_or_name))):
      var = current_var_or_name
    else:
      var = store_vars.get(current_var_or_name)
    if var is not None:
      if tensor_name_in_ckpt not in variable_map:
        raise ValueError("Tensor %s is not found in %s checkpoint %s"
                         % (tensor_name_in_ckpt, ckpt_dir_or_file, variable_map))
      if _is_variable(var) and not var.shape.is_compatible_with(
          variable_map[tensor_name_in_ckpt]):
        raise ValueError("Shape of variable %s (%s) doesn't match with shape of tensor %s (%s) "
                         "from checkpoint reader." % (var.name, var.shape, tensor_name_in_ckpt,
                                                      variable_map[tensor_name_in_ckpt]))
      _assign(var, reader, tensor_name_in_ckpt)
      continue
    scopes = ""
    if "/" in current_var_or_name:
      scopes = current_var_or_name[:current_var_or_name.rindex("/")]
    if not tensor_name_in_ckpt.endswith("/"):
      raise ValueError("Assignment map with scope only name {} should map to scope only {}. "
                       "Should be 'scope/': 'other_scope/'.".format(scopes, tensor_name_in_ckpt))
    scope_variables = sorted(name for name in store_vars
                             if not scopes or name.startswith(scopes + "/"))
    if not scope_variables:
      _log.warning("init_from_checkpoint: no variable of scope %r in the current "
                   "EagerVariableStore to initialize from %r.", current_var_or_name,
                   tensor_name_in_ckpt)
    for var_name in scope_variables:
      full_tensor_name = var_name[len(scopes):]
      if current_var_or_name != "/":
        full_tensor_name = full_tensor_name[1:]
      if tensor_name_in_ckpt != "/":
        full_tensor_name = tensor_name_in_ckpt + full_tensor_name
      if full_tensor_name.endswith("/"):
        full_tensor_name = full_tensor_name[:-1]
      if full_tensor_name not in variable_map:
        raise ValueError("Tensor %s (%s in %s) is not found in %s checkpoint"
                         % (full_tensor_name, var_name[len(scopes) + 1:], tensor_name_in_ckpt,
                            ckpt_dir_or_file))
      _assign(store_vars[var_name], reader, full_tensor_name)


@export("train.VocabInfo")
class VocabInfo(collections.namedtuple("VocabInfo", [
    "new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab", "old_vocab_size",
    "backup_initializer", "axis"])):
  """How a variable's rows (axis 0) or columns (axis 1) follow a changed vocabulary."""

  def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
              backup_initializer=None, axis=0):
    if axis not in (0, 1):
      raise ValueError("The only supported values for the axis argument are 0 and 1.  "
                       "Provided axis: {}".format(axis))
    return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab,
                           old_vocab_size, backup_initializer, axis)


def _grouped_variables(vars_to_warm_start):
  """{variable name: [Variable]} of a regex (trainable collection), list of regexes (global
  collection) or list of Variables."""
  if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
    found = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
  elif isinstance(vars_to_warm_start, list):
    if all(isinstance(v, str) for v in vars_to_warm_start):
      found = []
      for scope in vars_to_warm_start:
        found += graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope)
    elif all(_is_variable(v) for v in vars_to_warm_start):
      found = vars_to_warm_start
    else:
      raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or all "
                       "`str`.  Given types are {}".format([type(v) for v in vars_to_warm_start]))
  else:
    raise ValueError("`vars_to_warm_start must be a `list` or `str`.  Given type is {}"
                     .format(type(vars_to_warm_start)))
  grouped = {}
  for v in found:
    grouped.setdefault(v._shared_name, []).append(v)  # pylint: disable=protected-access
  return grouped


@export("train.warm_start")
def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
  """Assigns the chosen variables their values in the checkpoint (by name, or the name
  `var_name_to_prev_var_name` gives). Vocabulary remapping (`VocabInfo`) is not supported."""
  _log.info("Warm-starting from: %s", ckpt_to_initialize_from)
  grouped = _grouped_variables(vars_to_warm_start)
  var_name_to_vocab_info = var_name_to_vocab_info or {}
  var_name_to_prev_var_name = var_name_to_prev_var_name or {}
  vocab_used = set(var_name_to_vocab_info) & set(grouped)
  if vocab_used:
    raise NotImplementedError(
        "tfe_compat's warm_start cannot remap variables to a new vocabulary (VocabInfo for "
        "%s); warm-start them without var_name_to_vocab_info and remap the rows with NumPy."
        % sorted(vocab_used))
  vocabless = {}
  if vars_to_warm_start:
    for var_name, found in grouped.items():
      vocabless[var_name_to_prev_var_name.get(var_name) or var_name] = (
          found[0] if len(found) == 1 else found)
  init_from_checkpoint(ckpt_to_initialize_from, vocabless)
  _log.info("Warm-started %d variables.", len(vocabless))
  prev_not_used = set(var_name_to_prev_var_name) - set(grouped)
  if prev_not_used:
    raise ValueError("You provided the following variables in var_name_to_prev_var_name that "
                     "were not used: {0}.  Perhaps you misspelled them?  Here is the list of "
                     "viable variable names: {1}".format(prev_not_used, grouped.keys()))
  vocab_not_used = set(var_name_to_vocab_info) - set(grouped)
  if vocab_not_used:
    raise ValueError("You provided the following variables in var_name_to_vocab_info that "
                     "were not used: {0}.  Perhaps you misspelled them?  Here is the list of "
                     "viable variable names: {1}".format(vocab_not_used, grouped.keys()))
