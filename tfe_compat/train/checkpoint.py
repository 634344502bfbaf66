"""`tf.train.Checkpoint`: object-based checkpoints over orbax, with deferred restoration.

The object graph is walked breadth first from the root, by attribute. Each value gets the
path of the first way it is reached ("model/dense1/kernel"); lists, tuples and dicts are
indexed children ("layers/0", "table/key"). Children, in order:
- Keras layers and metrics, tfe metrics: the variables they created (`add_weight`), named
  by their creation name ("kernel"); Sequential/functional models: their layers as
  "layer-<i>"; then attributes holding variables or trackable objects, then containers;
- optimizers: "iter" and hyperparameter variables (Keras), non-slot variables by name
  ("beta1_power"), and slots as "<optimizer>/slots/<path of the variable>/<slot name>";
- `tf.train.Checkpoint` and `tfe.Checkpointable` objects: their attributes (and
  "save_counter").
Storage and the `checkpoint` state file are in checkpoint_io.py.

Deferred restoration: values whose variables do not exist yet stay pending on the nearest
existing owner (a layer, metric, optimizer or Checkpointable). While an owner has pending
values, its variable-creating methods (`add_weight`, `add_variable`, the optimizer's slot
and non-slot creation) are wrapped on the instance, and attribute assignment on a
Checkpointable is watched; each new variable takes its value as soon as it is created.
"""
import collections
import logging
import os
import weakref

import jax
import numpy as np

from tfe_compat import state_ops
from tfe_compat.client import session as session_lib
from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework import trackable
from tfe_compat.framework.trackable import Trackable
from tfe_compat.train import checkpoint_io
from tfe_compat.train import tf_bundle
from tfe_compat.train import tf_object_graph
from tfe_compat.train import keras_optimizers
from tfe_compat.train import optimizer_base

_log = logging.getLogger("tensorflow")


# ---- Trackable base classes and data structures ----
@export("contrib.checkpoint.NoDependency")
class NoDependency:
  """Wraps a value assigned to a Checkpointable attribute so it is not tracked."""

  def __init__(self, value):
    self.value = value


@export("contrib.eager.Checkpointable", "contrib.checkpoint.Checkpointable")
class AutoTrackable(Trackable):
  """A Python object whose attributes (variables, trackables, containers) are checkpointed."""

  def __setattr__(self, name, value):
    untracked = self.__dict__.get("_checkpoint_untracked")
    if isinstance(value, NoDependency):
      value = value.value
      if untracked is None:
        untracked = set()
        object.__setattr__(self, "_checkpoint_untracked", untracked)
      untracked.add(name)
    elif untracked:
      untracked.discard(name)
    object.__setattr__(self, name, value)
    if self in _pending:
      _restore_created(self)


@export("contrib.checkpoint.List")
class List(list):
  """`tf.contrib.checkpoint.List`: a list whose layers and variables Models track and
  checkpoints save (elements keyed "0", "1", ...)."""

  @property
  def layers(self):
    return [v for v in self if _is_layer(v)]

  def _collect(self, attr, trainable):
    seen, out = set(), []
    for item in self:
      if _is_layer(item):
        found = getattr(item, attr)
      elif hasattr(item, "assign") and hasattr(item, "trainable"):
        found = [item] if bool(item.trainable) == trainable else []
      else:
        found = []
      for v in found:
        if id(v) not in seen:
          seen.add(id(v))
          out.append(v)
    return out

  @property
  def trainable_weights(self):
    return self._collect("trainable_weights", True)

  @property
  def non_trainable_weights(self):
    return self._collect("non_trainable_weights", False)

  @property
  def weights(self):
    return self.trainable_weights + self.non_trainable_weights

  variables = weights
  trainable_variables = trainable_weights
  non_trainable_variables = non_trainable_weights


@export("contrib.checkpoint.Mapping")
class Mapping(dict):
  """A dict whose trackable values are checkpointed by key."""


@export("train.experimental.PythonState")
class PythonState(Trackable):
  """A trackable whose state is a string: subclasses define `serialize()` (the string to
  save) and `deserialize(string_value)` (restore from it), as in TF 1.15."""

  def serialize(self):
    raise NotImplementedError("PythonState subclasses implement serialize()")

  def deserialize(self, string_value):
    raise NotImplementedError("PythonState subclasses implement deserialize()")

  def _checkpoint_values(self):
    text = self.serialize()
    data = text.encode("utf8") if isinstance(text, str) else bytes(text)
    return {".ATTRIBUTES/py_state": np.frombuffer(data, np.uint8)}

  def _checkpoint_restore_value(self, name, array):
    self.deserialize(np.asarray(array, np.uint8).tobytes().decode("utf8"))


# ---- The object graph ----
_OWNED_LISTS = ("_own_weights", "_metric_variables", "_vars")
_SKIPPED = frozenset(_OWNED_LISTS + ("_inbound_nodes", "_outbound_nodes", "_initial_values"))


def _is_layer(value):
  """A Keras layer (or Model): a trackable with weights that it calls with."""
  return isinstance(value, Trackable) and hasattr(value, "trainable_weights") and hasattr(
      value, "call")


def _is_variable(value):
  return isinstance(value, variables.ResourceVariable)


def _is_owner(value):
  return isinstance(value, Trackable)


def _is_container(value):
  return isinstance(value, (list, tuple, dict))


def _escape(name):
  return str(name).replace("%", "%25").replace("/", "%2F")


def _created_names(owned):
  """(name, variable) for variables named at creation ("kernel"; repeats get "_1", ...)."""
  counts, out = {}, []
  for variable in owned:
    base = variable._handle_name.rsplit("/", 1)[-1]  # pylint: disable=protected-access
    count = counts.get(base, 0)
    counts[base] = count + 1
    out.append((base if count == 0 else "%s_%d" % (base, count), variable))
  return out


def _attribute_children(obj):
  direct, containers = [], []
  untracked = obj.__dict__.get("_checkpoint_untracked") or ()
  for name, value in vars(obj).items():
    if name in _SKIPPED or name in untracked or name.startswith("_checkpoint"):
      continue
    if _is_variable(value) or _is_owner(value):
      direct.append((name, value))
    elif _is_container(value):
      containers.append((name, value))
  return direct + containers


def _optimizer_children(optimizer):
  out = []
  if isinstance(optimizer, keras_optimizers.OptimizerV2):
    if optimizer._iterations is not None:  # pylint: disable=protected-access
      out.append(("iter", optimizer._iterations))  # pylint: disable=protected-access
    out += [(name, value) for name, value in optimizer._hyper.items()  # pylint: disable=protected-access
            if _is_variable(value)]
  out += [(_escape(n), v) for n, v in optimizer._non_slot_dict.items()]  # pylint: disable=protected-access
  return out


def _children(obj):
  """(name, child) pairs of an object or container, in walk order."""
  if isinstance(obj, dict):
    return [(_escape(k), v) for k, v in obj.items() if isinstance(k, str)]
  if isinstance(obj, (list, tuple)):
    return [(str(i), v) for i, v in enumerate(obj)]
  if isinstance(obj, optimizer_base.SlotState):
    return _optimizer_children(obj)
  out = []
  for attribute in _OWNED_LISTS:
    owned = obj.__dict__.get(attribute)
    if isinstance(owned, list):
      out += _created_names(v for v in owned if _is_variable(v))
  out += obj._checkpoint_dependencies()  # pylint: disable=protected-access
  out += _attribute_children(obj)
  names, unique = set(), []
  for name, child in out:
    while name in names:
      name += "_"
    names.add(name)
    unique.append((name, child))
  return unique


def _join(path, name):
  return path + "/" + name if path else name


def _walk(root, root_path, known):
  """({path: variable}, [(path, object)]) reachable from `root`; `known` maps variable
  `_id`s to their paths (updated here) and names the variables that slots belong to."""
  seen = {id(root)}
  queue = collections.deque([(root_path, root)])
  found, objects = {}, []
  while queue:
    path, obj = queue.popleft()
    objects.append((path, obj))
    for name, child in _children(obj):
      if id(child) in seen:
        continue
      if _is_variable(child):
        seen.add(id(child))
        child_path = _join(path, name)
        found[child_path] = child
        known.setdefault(child._id, child_path)  # pylint: disable=protected-access
      elif _is_owner(child) or _is_container(child):
        seen.add(id(child))
        queue.append((_join(path, name), child))
  for path, obj in objects:
    if isinstance(obj, optimizer_base.SlotState):
      for slot_name, table in obj._slots.items():  # pylint: disable=protected-access
        for var_id, slot in table.items():
          primary = known.get(var_id)
          if primary is not None and id(slot) not in seen:
            seen.add(id(slot))
            found["%s/slots/%s/%s" % (path, primary, _escape(slot_name))] = slot
  return found, objects


def _session(session):
  """The Session graph variables are read from and restored into (graph mode)."""
  session = session or session_lib.get_default_session()
  if session is None:
    raise ValueError("Graph mode needs a session: pass `session=` or use the default one.")
  return session


def _gather(root, session=None):
  """({path: np.ndarray}, {path: variable name}) of every variable reachable from `root`
  (and the values objects save besides); graph variables' values are `session`'s."""
  found, objects = _walk(root, "", {})
  values = {}
  names = {path: variable.name.rsplit(":", 1)[0] for path, variable in found.items()}
  for path, variable in found.items():
    if variable._graph is not None:
      values[path] = np.asarray(_session(session).run(variable))
      continue
    value = state_ops.read(variable)._value  # pylint: disable=protected-access
    if isinstance(value, jax.core.Tracer):
      raise RuntimeError("Cannot save a checkpoint while tracing a function (variable %s)."
                         % variable.name)
    values[path] = np.asarray(value)
  for path, obj in objects:
    if _is_owner(obj):
      values.update((_join(path, name), v) for name, v in obj._checkpoint_values().items())  # pylint: disable=protected-access
  return values, names


# ---- Restoration ----
_pending = weakref.WeakKeyDictionary()  # owner -> [(_Restoration, owner path)]


class _Restoration:
  """The values of one `restore()` call that have not been assigned yet."""

  def __init__(self, save_path, entries, root, stored=None):
    self.save_path = save_path
    self.entries = entries            # key -> (DType, shape), everything in the checkpoint
    self.values = {}                  # key -> np.ndarray, until assigned
    self.unused = set(entries)        # keys not assigned yet
    self._aliases = collections.defaultdict(list)  # keys of one stored value (TF's graph)
    for key, stored_key in (stored or {}).items():
      self._aliases[stored_key].append(key)
    self._stored = stored or {}
    self.known = {}                   # variable _id -> path
    self.root = weakref.ref(root)
    self.graph_assignments = []       # (graph variable, value), for run_restore_ops

  def consume(self, key):
    """`key` was assigned, and so were the other paths to the same stored value."""
    stored = self._stored.get(key)
    for alias in self._aliases[stored] if stored is not None else (key,):
      self.unused.discard(alias)
      if alias != key:
        self.values.pop(alias, None)

  def unused_under(self, path):
    start = path + "/" if path else ""
    return any(key.startswith(start) for key in self.unused)


def _check(entries, pairs):
  """Raises unless every (key, variable) pair has the checkpoint's dtype and shape."""
  for key, variable in pairs:
    dtype, shape = entries[key]
    if dtype is not variable.dtype:
      raise errors.invalid_argument(
          "tensor_name = %s; expected dtype %s does not equal original dtype %s "
          "[Op:RestoreV2]" % (key, ops.tf_type_name(variable.dtype), ops.tf_type_name(dtype)))
    if not variable.shape.is_compatible_with(shape):
      if variable._graph is not None:  # TF 1.x graphs: the restoring Assign op refuses it
        raise errors.invalid_argument(
            "Assign requires shapes of both tensors to match. lhs shape= [%s] rhs shape= [%s]"
            % (",".join(str(d) for d in variable.shape.as_list()),
               ",".join(str(d) for d in shape)))
      raise ValueError("Received incompatible tensor with shape %s when attempting to restore "
                       "variable with shape %s and name %s (checkpoint key %r)."
                       % (tensor_shape.TensorShape(shape), variable.shape, variable.name, key))


def _match(restoration, obj, path, extra=()):
  """Assigns pending values to the variables under `obj` (at `path`), and leaves what is
  still missing pending on the owners found there."""
  found, objects = _walk(obj, path, restoration.known)
  found.update(extra)
  pairs = [(key, var) for key, var in found.items() if key in restoration.unused]
  _check(restoration.entries, pairs)
  for key, variable in pairs:
    if variable._graph is not None:  # assigned in a session by run_restore_ops
      restoration.graph_assignments.append((variable, restoration.values.pop(key)))
    else:  # the loaded arrays are private: let JAX use their memory instead of copying it
      variable.assign(jax.device_put(restoration.values.pop(key), may_alias=True))
    restoration.consume(key)
  for object_path, owner in objects:
    for name in owner._checkpoint_values() if _is_owner(owner) else ():  # pylint: disable=protected-access
      key = _join(object_path, name)
      if key in restoration.unused:
        owner._checkpoint_restore_value(name, restoration.values.pop(key))  # pylint: disable=protected-access
        restoration.consume(key)
  prefixes = set()
  for key in restoration.unused:
    parts = key.split("/")
    prefixes.update("/".join(parts[:i]) for i in range(len(parts)))
  for object_path, owner in objects:
    if _is_owner(owner) and object_path in prefixes:
      _defer(owner, object_path, restoration)


def _defer(owner, path, restoration):
  entries = _pending.get(owner)
  if entries is None:
    entries = _pending[owner] = []
    for name in owner._checkpoint_creators:  # pylint: disable=protected-access
      if hasattr(type(owner), name):
        object.__setattr__(owner, name, _creator(owner, name))
  if all(r is not restoration for r, _ in entries):
    entries.append((restoration, path))


def _creator(owner, name):
  """`owner.<name>` that restores what it creates (installed on the instance)."""
  method = getattr(type(owner), name)
  owner_ref = weakref.ref(owner)

  def create(*args, **kwargs):
    obj = owner_ref()
    result = method(obj, *args, **kwargs)
    extra = ()
    if name == "_make_non_slot":  # the optimizer files it under `name` only afterwards
      extra = [(_escape(args[0] if args else kwargs["name"]), result)]
    _restore_created(obj, extra)
    return result

  create.checkpoint_creator = True
  return create


def _restore_created(owner, extra=()):
  entries = _pending.get(owner)
  if not entries:
    return
  for restoration, path in list(entries):
    # As in TF, the pending values outlive the Checkpoint object that started the restore:
    # `tf.train.Checkpoint(model=fresh).restore(path)` restores `fresh` when it builds.
    _match(restoration, owner, path, [(_join(path, n), v) for n, v in extra])
    if not restoration.unused_under(path):
      entries.remove((restoration, path))
  if not entries:
    del _pending[owner]
    for name, value in list(vars(owner).items()):
      if getattr(value, "checkpoint_creator", False):
        object.__delattr__(owner, name)


@trackable.on_attribute_set
def _restore_attribute(owner):
  """A tf.Module's new attribute: values waiting for it are restored."""
  if _pending and owner in _pending:
    _restore_created(owner)


def _create_optimizer_state(objects, entries):
  """Creates the Keras optimizers' `iterations` and hyperparameter variables the checkpoint
  has values for (they are otherwise created on the first apply). True if any was."""
  created = False
  for path, obj in objects:
    if isinstance(obj, keras_optimizers.OptimizerV2):
      if obj._iterations is None and _join(path, "iter") in entries:  # pylint: disable=protected-access
        _ = obj.iterations
        created = True
      if not obj._hypers_created and any(_join(path, n) in entries for n in obj._hyper):  # pylint: disable=protected-access
        obj._create_hypers()  # pylint: disable=protected-access
        created = True
  return created


def restore(root, save_path):
  """Restores the checkpoint `save_path` into the graph of `root`; returns the status."""
  save_path = os.fspath(save_path)
  entries, load = checkpoint_io.read(save_path)
  found, objects = _walk(root, "", {})
  stored, name_based = None, False
  if tf_object_graph.GRAPH_KEY in entries:
    entries, load, stored = tf_object_graph.by_path(entries, load)
  elif tf_bundle.is_bundle(save_path):  # TF's name-based checkpoint: matched by name, as TF
    _log.warning(_NAME_BASED_WARNING)
    entries, load = _by_variable_name(found, entries, load)
    name_based = True
  restoration = _Restoration(save_path, entries, root, stored)
  if _create_optimizer_state(objects, entries):
    found, objects = _walk(root, "", {})
  _check(entries, [(k, v) for k, v in found.items() if k in entries])
  restoration.values = load()
  _match(restoration, root, "")
  return (NameBasedSaverStatus if name_based else CheckpointLoadStatus)(restoration)


_NAME_BASED_WARNING = (
    "Restoring a name-based tf.train.Saver checkpoint using the object-based restore API. "
    "This mode uses global names to match variables, and so is somewhat fragile. Prefer "
    "re-encoding training checkpoints in the object-based format: run save() on the "
    "object-based saver (the same one this message is coming from) and use that checkpoint "
    "in the future.")


def _by_variable_name(found, entries, load):
  """`(entries, load)` of a name-based checkpoint keyed by the paths of the variables in
  `found` ({path: variable}) whose names it has."""
  names = {path: var.name.rpartition(":")[0] or var.name for path, var in found.items()}
  return checkpoint_io.rekeyed(entries, load, {path: name for path, name in names.items()
                                               if name in entries})


class CheckpointLoadStatus:
  """What `restore()` returns: checks on how the checkpoint matched the objects."""

  def __init__(self, restoration):
    self._restoration = restoration
    self._root = restoration.root()  # checks see the objects even of a temporary Checkpoint

  def assert_consumed(self):
    """Fails unless every checkpointed value was assigned and every variable matched."""
    unused = sorted(self._restoration.unused)
    if unused:
      raise AssertionError("Unresolved object in checkpoint %s: %d value(s) not restored: %s"
                           % (self._restoration.save_path, len(unused), ", ".join(unused[:10])))
    return self.assert_existing_objects_matched()

  def assert_existing_objects_matched(self):
    """Fails if a variable reachable from the root has no value in the checkpoint."""
    found, _ = _walk(self._root, "", {})
    unmatched = [v for k, v in found.items() if k not in self._restoration.entries]
    if unmatched:
      raise AssertionError(
          "Found %d Python objects that were not bound to checkpointed values, likely due to "
          "changes in the Python program. Showing %d of %d unmatched objects: %s"
          % (len(unmatched), min(len(unmatched), 10), len(unmatched), unmatched[:10]))
    return self

  def assert_nontrivial_match(self):
    """Fails if nothing (not even a pending value) matched the checkpoint."""
    r = self._restoration
    if len(r.unused) == len(r.entries) and not any(  # values waiting on the root: no match
        any(rr is r and path for rr, path in entries) for entries in list(_pending.values())):
      raise AssertionError("Nothing except the root object matched a checkpointed value. "
                           "Typically this means that the checkpoint does not match the "
                           "Python program. The following objects have no matching "
                           "checkpointed value: %s" % sorted(r.entries)[:10])
    return self

  def expect_partial(self):
    return self

  def run_restore_ops(self, session=None):
    """Graph mode: assigns the restored values in `session` (the default session); nothing
    to run when executing eagerly."""
    assignments = self._restoration.graph_assignments
    if assignments:
      session = _session(session)
      for variable, value in assignments:
        session._load(variable, value)  # pylint: disable=protected-access
      del assignments[:]

  def initialize_or_restore(self, session=None):
    """Graph mode: initializes the root's variables, then restores; nothing to run when
    executing eagerly (values are assigned as variables exist)."""
    _initialize(self._root, session)
    self.run_restore_ops(session)


class NameBasedSaverStatus(CheckpointLoadStatus):
  """What restoring TF's name-based checkpoint returns: variables were matched by name, so
  every check is one: each variable (but the save counter) found its name (TF's rule)."""

  def assert_consumed(self):
    found, _ = _walk(self._root, "", {})
    missing = [v for k, v in found.items() if k not in self._restoration.entries
               and k != "save_counter"]
    if missing:
      raise AssertionError("Some objects had attributes which were not restored:%s" % "".join(
          "\n    %s: ['VARIABLE_VALUE']" % (v,) for v in missing))
    return self

  assert_existing_objects_matched = assert_nontrivial_match = assert_consumed


class InitializationOnlyStatus:
  """What `restore(None)` returns: nothing is restored."""

  def _fail(self):
    raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

  def assert_consumed(self):
    self._fail()

  def assert_existing_objects_matched(self):
    self._fail()

  def assert_nontrivial_match(self):
    self._fail()

  def run_restore_ops(self, session=None):
    raise AssertionError("No checkpoint specified, so no restore ops are available "
                         "(save_path=None to Saver.restore).")

  def expect_partial(self):
    return self

  def __init__(self, root=None):
    self._root = root

  def initialize_or_restore(self, session=None):
    """Graph mode: initializes the root's variables (eager variables are initialized when
    created)."""
    _initialize(self._root, session)


def _initialize(root, session):
  if root is None:
    return
  found, _ = _walk(root, "", {})
  graph_variables = [v for v in found.values() if v._graph is not None]
  if graph_variables:
    session = _session(session)
    session.run([v.initializer for v in graph_variables])


# ---- tf.train.Checkpoint ----
@export("train.Checkpoint", "contrib.eager.Checkpoint", "Checkpoint")
class Checkpoint(AutoTrackable):
  """Groups trackable objects; `save`/`write` them and `restore`/`read` them (by path)."""

  def __init__(self, **kwargs):
    object.__setattr__(self, "_checkpoint_save_counter", None)
    for key, value in sorted(kwargs.items()):
      if not (_is_variable(value) or _is_owner(value)):
        raise ValueError(
            "`Checkpoint` was expecting a trackable object (an object derived from "
            "`TrackableBase`), got %s. If you believe this object should be trackable (i.e. "
            "it is part of the TensorFlow Python API and manages state), please open an "
            "issue." % (value,))
      setattr(self, key, value)

  def _checkpoint_dependencies(self):
    counter = self._checkpoint_save_counter
    return [] if counter is None else [("save_counter", counter)]

  @property
  def save_counter(self):
    """The number of `save()` calls (an int64 Variable, created on first use)."""
    if self._checkpoint_save_counter is None:
      counter = variables.ResourceVariable(ops.convert_to_tensor(0, dtype=dtypes.int64),
                                           name="save_counter", trainable=False)
      object.__setattr__(self, "_checkpoint_save_counter", counter)
      if self in _pending:
        _restore_created(self)
    return self._checkpoint_save_counter

  def write(self, file_prefix, session=None):
    """Writes a checkpoint at exactly `file_prefix`; returns it."""
    return _write(self, file_prefix, session)

  def save(self, file_prefix, session=None):
    """Writes `<file_prefix>-<save_counter>` and records it in the `checkpoint` file."""
    file_prefix = os.fspath(file_prefix)
    counter = self.save_counter
    if counter._graph is not None:  # graph mode: the counter counts in `session`
      session = _session(session)
      count = (int(session._values[counter._id]) if counter._id in session._values  # pylint: disable=protected-access
               else 0) + 1
      session._load(counter, count)  # pylint: disable=protected-access
    else:
      counter.assign_add(ops.convert_to_tensor(1, dtype=dtypes.int64))
      count = int(counter.numpy())
    path = self.write("%s-%d" % (file_prefix, count), session)
    checkpoint_io.update_checkpoint_state(os.path.dirname(file_prefix), path, [path])
    return path

  def restore(self, save_path):
    """Restores `save_path` (None: nothing); values of missing variables wait for them."""
    if save_path is None:
      return InitializationOnlyStatus(self)
    _ = self.save_counter
    return restore(self, save_path)

  read = restore


def _write(root, file_prefix, session=None, format=None):  # pylint: disable=redefined-builtin
  """Writes every value reachable from `root` at `file_prefix`, in our format or TF's."""
  values, names = _gather(root, session)
  format = format or checkpoint_io.checkpoint_format()
  if format == "tf":
    values = tf_object_graph.to_tf(values, names)
  return checkpoint_io.write(file_prefix, values, names, format)


def write(root, file_prefix, format=None):  # pylint: disable=redefined-builtin
  """Writes every variable reachable from `root` as a checkpoint at `file_prefix` and
  records it in the directory's `checkpoint` state file (Keras's `save_weights`)."""
  _write(root, file_prefix, format=format)
  checkpoint_io.update_checkpoint_state(os.path.dirname(file_prefix), file_prefix,
                                        [file_prefix])


_ObjectGraph = collections.namedtuple("TrackableObjectGraph", ["nodes"])
_ObjectNode = collections.namedtuple("TrackableObject", ["path", "attributes"])
_Attribute = collections.namedtuple("SerializedTensor", ["name", "full_name", "checkpoint_key"])


@export("contrib.checkpoint.object_metadata")
def object_metadata(save_path):
  """The objects of a checkpoint: `.nodes`, each with `.attributes` (`name`, `full_name`: the
  variable's name, `checkpoint_key`), as TF's TrackableObjectGraph proto has them (plain
  Python objects here, one node per object that saved values)."""
  entries, _ = checkpoint_io.read_index(save_path)
  names = checkpoint_io.read_names(save_path)
  nodes = collections.OrderedDict([("", [])])
  for key in entries:
    path, _, name = key.partition("/.ATTRIBUTES/")
    if not name:
      path, _, name = key.rpartition("/")
    nodes.setdefault(path, []).append(_Attribute(name, names.get(key, ""), key))
  return _ObjectGraph([_ObjectNode(path, attributes) for path, attributes in nodes.items()])
