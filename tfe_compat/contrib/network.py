"""`tfe.Network` and `tfe.Sequential` (tf.contrib.eager, TF 1.5-1.15): layers tracked
explicitly with `track_layer`, variables named under the network's scope; name-based
checkpoints with `save_network_checkpoint` / `restore_network_checkpoint`."""
import collections
import inspect
import os
import weakref

from tfe_compat import variable_scope
from tfe_compat.framework import context
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras.engine.base_layer import Layer, to_snake_case
from tfe_compat.keras.engine.network import Network as _KerasNetwork
from tfe_compat.train import checkpoint_io
from tfe_compat.train import saver as saver_lib
from tfe_compat.train import training_util

_ctx = context.ctx


_top_level_scopes = set()  # variable prefixes of the top-level networks of the default graph
graph_lib.on_reset_default_graph(_top_level_scopes.clear)


def _unique_name(key, uids, avoid):
  """TF's zero-based unique layer name: `base`, `base_1`, ... skipping names in `avoid`;
  `key` is the base name, or (namespace, base name)."""
  base = key[1] if isinstance(key, tuple) else key
  while True:
    number = uids[key]
    uids[key] += 1
    name = "%s_%d" % (base, number) if number else base
    if name not in avoid:
      return name


def _parent(layer):
  ref = getattr(layer, "_first_parent", None)
  return ref() if ref else None


def _scope_of(parent_ref):
  """The variable prefix ("net/") of a layer owned by the network `parent_ref()`."""
  def scope():
    parent = parent_ref()
    if parent is None:
      raise ValueError("The parent of a Layer added to a Network was garbage collected before "
                       "the Layer was built. If this limitation bothers you please file a "
                       "feature request.")
    return parent.scope_name + "/"
  return scope


@export("contrib.eager.Network")
class Network(_KerasNetwork):
  """A composition of layers; sublayers are registered with `track_layer`. An anonymous
  Network is named when first tracked (unique in its parent) or called (unique in the graph);
  its sublayers' names are unique within it, and variables are named by that nesting."""

  def __init__(self, name=None):
    if isinstance(name, variable_scope.VariableScope):
      raise ValueError("VariableScopes are not valid Network names.")
    if name is not None and "/" in name:
      raise ValueError("Forward slashes ('/') are not allowed in Network names.")
    super().__init__(name=name or "network")
    self._name = name
    self._base_name = name or to_snake_case(type(self).__name__)
    self._first_parent = None  # a weak reference, or False for a top-level network
    self._owned_layers = {}
    self._sub_layer_name_uids = collections.Counter()
    self._tracked_layers = []
    self._scope_name = None
    stack = _ctx.name_stack
    self._init_prefix = stack[-1] if stack else ""
    # TF holds the scope store's counts as they are now (the live dict, which a re-entered
    # scope replaces on exit): a scope ever opened in it clashes with this network's name
    self._counts_on_init = variable_scope.get_variable_scope_store().counts
    self._init_variable_scope = variable_scope.get_variable_scope()
    self._init_scope = self._init_variable_scope.name
    self._deferred_restorations = []  # (map_func, {checkpoint name: array}), oldest first

  @property
  def name(self):
    if self._name is None:
      raise ValueError(
          "The network does not yet have a final name, but a name was requested for it. "
          "Networks get a name when they are added to another Network via track_layer, or "
          "when they are first called/built.")
    return self._name

  @property
  def scope_name(self):
    """The prefix of this network's variable names."""
    self._set_scope()
    return self._scope_name

  def _finalize_name(self, parent_network):
    if self._name is None:
      if parent_network:
        self._name = _unique_name(self._base_name, parent_network._sub_layer_name_uids,
                                  parent_network._owned_layers)
      else:
        strip = self._init_scope + "/" if self._init_scope else ""
        avoid = {name[len(strip):] for name in self._counts_on_init if name.startswith(strip)}
        self._name = _unique_name((self._init_scope, self._base_name),
                                  backend.get_default_graph_uid_map(), avoid)
    if self._first_parent is None or (self._first_parent and _parent(self) is None):
      self._first_parent = weakref.ref(parent_network) if parent_network else False

  def _set_scope(self):
    """Names this network's variable scope as TF 1.x does: it opens a scope named after the
    network inside its parent's (or the scope it was created in), and refuses a name that a
    scope already had (TF's counts when the network was made, or a uniquified scope now)."""
    if self._scope_name is not None:
      return
    parent = _parent(self)
    if parent is None:
      self._finalize_name(False)
      parent_scope = self._init_variable_scope
    else:
      parent._set_scope()
      parent_scope = parent._variable_scope
    taken = ValueError("A Network named '%s' already exists (or a variable_scope was created "
                       "with this name). Names must be unique." % (self._name,))
    with variable_scope.variable_scope(parent_scope) as parent_vs:
      if parent_vs.name + "/" + self._name in self._counts_on_init:
        raise taken
      with variable_scope.variable_scope(None, default_name=self._name) as scope:
        self._variable_scope = scope
        prefix, _, suffix = scope.name.rpartition("/")
    if suffix != self._name:
      raise taken
    if parent is not None and prefix != parent.scope_name:
      raise ValueError("Network variable names must match a nesting of sub-Network names. "
                       "Expected prefix '%s' from parent network, but got '%s' when attempting "
                       "to create a variable_scope for Network '%s'. Likely an explicit "
                       "variable_scope was inserted into the nesting."
                       % (parent.scope_name, prefix, self._name))
    if parent is None:
      if scope.name in _top_level_scopes:
        raise taken
      _top_level_scopes.add(scope.name)
      self._name = scope.name
    self._scope_name = scope.name

  @property
  def weights(self):
    return [w for layer in self._tracked_layers for w in layer.weights]


  @property
  def trainable_weights(self):
    return [w for layer in self._tracked_layers for w in layer.trainable_weights]

  @property
  def non_trainable_weights(self):
    return [w for layer in self._tracked_layers for w in layer.non_trainable_weights]

  variables = weights
  trainable_variables = trainable_weights
  non_trainable_variables = non_trainable_weights

  @property
  def trainable(self):
    return True

  @trainable.setter
  def trainable(self, value):
    if not value:
      raise AttributeError("cannot mark Network as not trainable")

  def _checkpoint_dependencies(self):
    raise NotImplementedError(
        "tfe.Network does not support object-based checkpointing.\n\nPlease inherit from "
        "`tf.keras.Model`, and see its documentation for details.")

  def __call__(self, inputs, *args, **kwargs):
    self._set_scope()
    stack = _ctx.name_stack
    stack.append(self._scope_name[:len(self._scope_name) - len(self._name)])
    previous = _ctx.variable_scope
    if self._deferred_restorations:  # they include those of the networks holding this one
      outer = previous._previous if isinstance(previous, _DeferredRestore) else previous  # pylint: disable=protected-access
      _ctx.variable_scope = _DeferredRestore(self._deferred_restorations, outer)
    try:
      return super().__call__(inputs, *args, **kwargs)
    finally:
      _ctx.variable_scope = previous
      stack.pop()

  def track_layer(self, layer):
    """Registers `layer` so its variables belong to this network; returns it."""
    if not isinstance(layer, Layer):
      raise TypeError("Network.track_layer() passed type %s, not a tf.layers.Layer"
                      % (type(layer),))
    if isinstance(layer, Network):
      layer._finalize_name(self)  # pylint: disable=protected-access
    elif not layer.built and _parent(layer) is None:
      if layer._name != layer._base_name:  # pylint: disable=protected-access
        layer._name = _unique_name(layer._base_name, self._sub_layer_name_uids,  # pylint: disable=protected-access
                                   self._owned_layers)
      layer._first_parent = weakref.ref(self)  # pylint: disable=protected-access
      layer._parent_scope = _scope_of(layer._first_parent)  # pylint: disable=protected-access
    if not layer.built and _parent(layer) is self:
      owner = self._owned_layers.setdefault(layer.name, layer)
      if owner is not layer:
        raise ValueError("Attempt to add two Layers with the name '%s' to the same Network."
                         % (layer.name,))
    if all(existing is not layer for existing in self._tracked_layers):
      self._tracked_layers.append(layer)
    return layer

  @property
  def layers(self):
    return list(self._tracked_layers)

  def add_variable(self, *args, **kwargs):
    raise RuntimeError("add_variable not supported in Network class yet. Please file an "
                       "issue at https://github.com/tensorflow/tensorflow/issues/new if this "
                       "is important to you")

  add_weight = add_variable


@export("contrib.eager.Sequential")
class Sequential(Network):
  """Calls its layers (or plain functions) in order; `training` goes to layers taking it."""

  def __init__(self, layers_funcs=None, name=None):
    super().__init__(name=name)
    self._layers_funcs = []
    for item in layers_funcs or []:
      self.add(item)

  def add(self, layer_func):
    if isinstance(layer_func, Layer):
      self.track_layer(layer_func)
      function = layer_func.call
    elif callable(layer_func):
      function = layer_func
    else:
      raise TypeError("Sequential.add() takes only tf.layers.Layer objects or callables; "
                      "not '%s' of type '%s'." % (layer_func, type(layer_func)))
    try:
      takes_training = "training" in inspect.signature(function).parameters
    except ValueError:  # a builtin without a signature
      takes_training = False
    self._layers_funcs.append((takes_training, layer_func))

  def call(self, inputs, training=None):
    for takes_training, layer_func in self._layers_funcs:
      if takes_training:
        inputs = layer_func(inputs, training=training)
      else:
        inputs = layer_func(inputs)
    return inputs


class _Restoration:
  """Checkpoint values waiting for the variables `map_func` names after them."""

  def __init__(self, map_func, values, conflict, network):
    self.map_func, self.values, self.conflict = map_func, values, conflict
    self.network_name, self.scope_name = network.name, network.scope_name
    self.restored = {}  # checkpoint name -> the variable that took its value


class _DeferredRestore(saver_lib._RestoreOnCreate):  # pylint: disable=protected-access
  """Gives each new variable its value from the latest restoration that names it."""

  def __init__(self, restorations, previous):
    super().__init__(None, None, previous)
    self._restorations = restorations

  def variable_created(self, var):
    created = getattr(self._previous, "variable_created", None)
    if created is not None:  # first: a graph variable gets its operations
      self._outside(created, var)
    for restoration in reversed(self._restorations):
      name = restoration.map_func(var._shared_name)  # pylint: disable=protected-access
      if name in restoration.values:
        if restoration.values[name] is not None:
          saver_lib.assign_now(var, restoration.values[name], self._session)
          restoration.values[name] = None  # restored once
        first = restoration.restored.setdefault(name, var)
        if first is not var:
          raise restoration.conflict(name, first, var, restoration.network_name,
                                     restoration.scope_name)
        break


def _prefix_stripper(scope_name):
  prefix = scope_name + "/"
  return lambda name: name[len(prefix):] if name.startswith(prefix) else name


def _default_conflict(name, first, second, network_name, scope_name):
  return ValueError(
      "The default checkpoint variable name mapping strategy for Network '%s' resulted in a "
      "naming conflict. We attempted to strip off the variable prefix for the Network ('%s'), "
      "but this resulted in two variables named '%s' (originally '%s' and '%s'). This should "
      "only happen when using variable sharing (i.e. the Network contains Networks or Layers "
      "which were first added to another Network, and therefore have that Network's variable "
      "prefix). One solution is to pass `map_func=lambda n: n` to save and restore to use "
      "fully qualified variable names in the checkpoint, although this will require that the "
      "variable prefix of the Network being restored into is also '%s'. You may "
      "alternatively write an arbitrary mapping." % (
          network_name, scope_name, name, first._shared_name, second._shared_name,  # pylint: disable=protected-access
          scope_name))


def _restore_conflict(name, first, second, network_name, scope_name):
  return ValueError(
      "The map_func passed to restore_network_checkpoint for the Network '%s' resulted in "
      "two variables named '%s' (originally '%s' and '%s'). Since this is also an error when "
      "saving, this Network was probably not saved with this map_func. Note that map_func "
      "always maps from full variable names to checkpoint names; there is no need to specify "
      "an inverse mapping.\n\nTry stripping less from the variable names, or renaming parts "
      "of the Network. For reference, variables created by sub-Layers of this Network are "
      "prefixed with '%s', but if they are re-used after being added to another Network they "
      "will have that Network's full variable prefix instead." % (
          network_name, name, first._shared_name, second._shared_name, scope_name))  # pylint: disable=protected-access


def _save_conflict(name, first, second, network_name, scope_name):
  return ValueError(
      "The map_func passed to save_network_checkpoint for the Network '%s' resulted in two "
      "variables named '%s' ('%s' and '%s'). Try stripping less from the variable names, or "
      "renaming parts of the Network. For reference, variables created by sub-Layers of this "
      "Network are prefixed with '%s', but if they are re-used after being added to another "
      "Network, they will have that Network's full variable prefix instead." % (
          network_name, name, first._shared_name, second._shared_name, scope_name))  # pylint: disable=protected-access


def _variables_by_checkpoint_name(network, map_func, conflict):
  named = {}
  for variable in network.variables:
    name = map_func(variable._shared_name)  # pylint: disable=protected-access
    first = named.setdefault(name, variable)
    if first is not variable:
      raise conflict(name, first, variable, network.name, network.scope_name)
  return named


def _checkpoint_path(network, save_path):
  if os.path.isdir(save_path):
    return os.path.join(save_path, network.name.replace("/", "_"))
  return save_path


@export("contrib.eager.save_network_checkpoint")
def save_network_checkpoint(network, save_path, global_step=None, map_func=None):
  """Saves the Network's variables under their names less the network's prefix
  (or `map_func(name)`); returns the checkpoint prefix."""
  if not network.built:
    raise ValueError("Attempt to save the Network before it was first called. This means "
                     "variables have not yet been created, so there is nothing to save.")
  if global_step is None:
    global_step = training_util.get_global_step()
  save_path = _checkpoint_path(network, save_path)
  named = _variables_by_checkpoint_name(
      network, map_func or _prefix_stripper(network.scope_name),
      _save_conflict if map_func else _default_conflict)
  return saver_lib.Saver(named).save(saver_lib.graph_session(), save_path,
                                     write_meta_graph=False, global_step=global_step)


@export("contrib.eager.restore_network_checkpoint")
def restore_network_checkpoint(network, save_path, map_func=None):
  """Assigns the Network's existing variables their checkpointed values; variables it
  creates later take theirs on creation (the latest restoration naming them wins)."""
  network._set_scope()  # pylint: disable=protected-access
  save_path = _checkpoint_path(network, save_path)
  conflict = _restore_conflict if map_func else _default_conflict
  map_func = map_func or _prefix_stripper(network.scope_name)
  named = _variables_by_checkpoint_name(network, map_func, conflict)
  if named:
    saver_lib.Saver(named).restore(saver_lib.graph_session(), save_path)
  entries, load = checkpoint_io.read(save_path)
  rest = set(entries) - set(named)
  if rest:
    values = load()
    _add_deferred_restoration(network, _Restoration(
        map_func, {name: values[name] for name in rest}, conflict, network))


def _add_deferred_restoration(network, restoration):
  """Adds `restoration` to `network` and its sub-networks: it applies to the variables they
  create later, after the restorations requested before it."""
  network._deferred_restorations.append(restoration)  # pylint: disable=protected-access
  for layer in network.layers:
    if isinstance(layer, Network):
      _add_deferred_restoration(layer, restoration)
    elif (not layer.built and getattr(layer, "_first_parent", None) is not None
          and _parent(layer) is None):
      raise ValueError("The parent of a Layer added to Network %s was garbage collected "
                       "before the Layer was built. If this limitation bothers you please "
                       "file a feature request." % (network.name,))
