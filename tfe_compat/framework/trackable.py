"""The trackable protocol: what a checkpoint knows of the objects it descends into.

A `Trackable`'s variables and trackable attributes (and those in its lists and dicts) are
saved under their attribute names. A class adds to that with two hooks:
`_checkpoint_creators` names the methods that create variables (a restore waiting for values
wraps them, so variables created later are restored on creation), and
`_checkpoint_dependencies()` returns further (name, child) pairs, walked first.
State that is not a variable is saved through `_checkpoint_values()` ({name: np.ndarray}) and
handed back to `_checkpoint_restore_value(name, array)` (`tf.train.experimental.PythonState`).
A class whose variables appear as plain attributes (`tf.Module`) calls `attribute_set(self)`
after setting one, so that a restore waiting for values assigns them.
"""
from tfe_compat.framework.api import export


@export("contrib.checkpoint.CheckpointableBase")
class Trackable:
  """Base of the objects a checkpoint descends into."""

  _checkpoint_creators = ()

  def _checkpoint_dependencies(self):
    return []

  def _checkpoint_values(self):
    return {}

  def _checkpoint_restore_value(self, name, array):
    raise NotImplementedError("%s saves no value %r" % (type(self).__name__, name))


_attribute_hooks = []  # called with an object after one of its attributes was set


def on_attribute_set(hook):
  """Registers `hook(obj)` (checkpoint restoration); returns it."""
  _attribute_hooks.append(hook)
  return hook


def attribute_set(obj):
  for hook in _attribute_hooks:
    hook(obj)
