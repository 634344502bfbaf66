"""`export`: places a function, class or constant under its TF names (`tf.add`, `tf.math.add`).

Modules call `export("add", "math.add")(obj)` (also usable as a decorator); the package's
`__init__` calls `populate()` once every module is imported, building `tf.math`, `tf.nn`, ...
"""
import sys
import types

_registry = []  # (dotted TF name, object), in export order


def export(*names):
  def register(obj):
    for name in names:
      _registry.append((name, obj))
    return obj
  return register


def replace(obj, new_obj):
  """Exports `new_obj` under every name `obj` was exported as (before `populate`)."""
  _registry[:] = [(name, new_obj if o is obj else o) for name, o in _registry]


def namespace(root, dotted):
  """The module object for `tf.<dotted>` under `root`, created (and put in sys.modules) once."""
  module = root
  for part in dotted.split("."):
    child = getattr(module, part, None)
    if not isinstance(child, types.ModuleType):
      child = types.ModuleType("%s.%s" % (module.__name__, part))
      child.__path__ = []  # a package, so `import tensorflow.contrib.eager` works
      setattr(module, part, child)
      sys.modules.setdefault(child.__name__, child)
    module = child
  return module


def populate(root):
  """Sets every exported name on `root` (the `tfe_compat` module) and its namespaces."""
  for name, obj in _registry:
    path, _, leaf = name.rpartition(".")
    setattr(namespace(root, path) if path else root, leaf, obj)


def exported(prefix):
  """{leaf name: object} of the names exported under `prefix` (e.g. "keras.layers.")."""
  return {name[len(prefix):]: obj for name, obj in _registry
          if name.startswith(prefix) and "." not in name[len(prefix):]}

