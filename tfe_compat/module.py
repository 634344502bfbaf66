"""`tf.Module`: a named container of variables, submodules and the functions using them.

`variables`, `trainable_variables` and `submodules` walk the module's attributes in name
order (into lists, tuples and dicts), then its submodules breadth first, each value once.
Keras layers found there count as submodules (in TF they are Modules). Checkpoints save a
Module's variables by attribute path; values restored before a variable exists are assigned
when the attribute holding it is set.
"""
import collections.abc
import functools
import re

from tfe_compat import nest
from tfe_compat import variable_scope as vs
from tfe_compat import variables
from tfe_compat.framework import trackable
from tfe_compat.framework.api import export

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_VALID_IDENTIFIER = re.compile(r"^[a-zA-Z_]([a-zA-Z0-9_])*$")


def camel_to_snake(value):
  return _CAMEL_TO_SNAKE.sub(r"_\1", value).lower()


@export("Module")
class Module(trackable.Trackable):
  """Base class of modules: `tf.Module(name=None)` (the name defaults to the class name in
  snake_case and opens a name scope inside the current one)."""

  def __init__(self, name=None):
    if name is None:
      name = camel_to_snake(type(self).__name__)
    elif not _VALID_IDENTIFIER.match(name):
      raise ValueError("%r is not a valid module name. Module names must be valid Python "
                       "identifiers (e.g. a valid class name)." % name)
    self._name = name
    with vs.name_scope(name) as scope_name:
      self._scope_name = scope_name

  def __setattr__(self, name, value):
    object.__setattr__(self, name, value)
    trackable.attribute_set(self)

  @property
  def name(self):
    """The name given to (or derived for) this module; not its full scope name."""
    return self._name

  @property
  def name_scope(self):
    """A `tf.name_scope` for this module (its `.name` is the full scope, "outer/inner/")."""
    return vs.name_scope(self._scope_name)

  @property
  def variables(self):
    """The variables of this module (by attribute name), then of its submodules."""
    return tuple(self._flatten(predicate=_is_variable))

  @property
  def trainable_variables(self):
    """The trainable variables, in the order of `variables`."""
    return tuple(self._flatten(predicate=_is_trainable_variable))

  @property
  def submodules(self):
    """Every module reachable through attributes (breadth first)."""
    return tuple(self._flatten(predicate=_is_module))

  def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None,
               with_path=False):
    """The attribute values (leaves of nested structures) matching `predicate`: this
    module's by sorted attribute name, then (if `recursive`) its submodules'. With
    `with_path`, (path tuple, value) pairs, and shared values appear once per path."""
    return _flatten_module(self, recursive, predicate or (lambda _: True),
                           attribute_traversal_key, with_path, (), None, [])

  @classmethod
  def with_name_scope(cls, method):
    """Decorates a method to run inside the module's name scope."""
    @functools.wraps(method)
    def method_with_name_scope(self, *args, **kwargs):
      with self.name_scope:
        return method(self, *args, **kwargs)
    return method_with_name_scope


def _is_variable(obj):
  return isinstance(obj, variables.ResourceVariable)


def _is_trainable_variable(obj):
  return _is_variable(obj) and getattr(obj, "trainable", False)


def _is_keras_layer(obj):
  return (isinstance(obj, trackable.Trackable) and not isinstance(obj, Module) and
          hasattr(obj, "trainable_weights") and hasattr(obj, "call"))


def _is_module(obj):
  return isinstance(obj, Module) or _is_keras_layer(obj)


def _flatten_module(module, recursive, predicate, traversal_key, with_path, module_path,
                    seen, recursion_stack):
  """TF's traversal: leaves of each attribute in name order, then submodules."""
  module_id = id(module)
  if seen is None:
    seen = {module_id}
  if module_id in recursion_stack:
    recursive = False
  if _is_keras_layer(module):  # its layers, then its variables in creation order
    properties = [("layers", list(getattr(module, "layers", ()))),
                  ("weights", list(module.weights))]
  else:
    properties = [(key, value) for key, value in sorted(vars(module).items(),
                                                        key=lambda kv: _key(kv, traversal_key))]
  submodules = []
  for key, prop in properties:
    try:
      leaves = list(_leaves_with_paths(prop, ()))
    except Exception as cause:  # pylint: disable=broad-except
      raise ValueError("Error processing property {!r} of {!r}".format(key, prop)) from cause
    for leaf_path, leaf in leaves:
      leaf_path = (key,) + leaf_path
      if not with_path:
        if id(leaf) in seen:
          continue
        seen.add(id(leaf))
      if predicate(leaf):
        yield (module_path + leaf_path, leaf) if with_path else leaf
      if recursive and _is_module(leaf):
        submodules.append((module_path + leaf_path, leaf))
  recursion_stack.append(module_id)
  for submodule_path, submodule in submodules:
    yield from _flatten_module(submodule, recursive, predicate, traversal_key, with_path,
                               submodule_path, seen, recursion_stack)
  recursion_stack.pop()


def _key(item, traversal_key):
  return item[0] if traversal_key is None else traversal_key(item[0])


def _leaves_with_paths(value, path):
  """(path, leaf) of a nested structure in nest's order (dict keys sorted)."""
  if not nest.is_nested(value):
    yield path, value
  elif isinstance(value, collections.abc.Mapping):
    for key in sorted(value):
      yield from _leaves_with_paths(value[key], path + (key,))
  elif hasattr(type(value), "__attrs_attrs__"):
    for attribute in type(value).__attrs_attrs__:
      yield from _leaves_with_paths(getattr(value, attribute.name), path + (attribute.name,))
  else:
    for index, item in enumerate(value):
      yield from _leaves_with_paths(item, path + (index,))
