"""TF1 name scopes and variable scopes, as they behave when executing eagerly.

`context.ctx.name_stack` holds the full name-scope strings entered so far ("a/", "a/b/"),
innermost last; eager name scopes are never uniquified. Variable scopes live in a
per-thread store (the current `VariableScope` and TF's counts of opened scope names).
In eager mode every scope's `reuse` is `tf.AUTO_REUSE` and `get_variable` always creates
a new variable, as in TF. `variable_creator_scope` creators see every `tf.Variable` built.
"""
import contextlib
import enum
import functools
import inspect
import logging
import threading

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework.api import export

_ctx = context.ctx


def current_name_scope():
  """The innermost name scope, "" at the root or "a/b/" (with the trailing slash)."""
  return _ctx.name_stack[-1] if _ctx.name_stack else ""


@export("name_scope")
class name_scope:  # pylint: disable=invalid-name
  """`tf.name_scope(name, default_name=None, values=None)`: yields the scope string "a/".

  A name ending in "/" is absolute; None or "" return to the root scope.
  """

  def __init__(self, name, default_name=None, values=None):
    self._name = default_name if name is None else name

  @property
  def name(self):
    return self._name

  def __enter__(self):
    name = self._name
    if not name:
      scope = ""
    elif name[-1] == "/":
      scope = name
    else:
      scope = current_name_scope() + name
      graph = graph_lib.building()
      if graph is not None:  # graph mode: scope names are made unique, as op names
        scope = graph.unique_name(scope)
      scope += "/"
    _ctx.name_stack.append(scope)
    return scope

  def __exit__(self, exc_type, exc_value, traceback):
    _ctx.name_stack.pop()


graph_lib.name_scope_hook[0] = name_scope


class _ReuseMode(enum.Enum):
  AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE
export("AUTO_REUSE")(AUTO_REUSE)


@export("VariableScope")
class VariableScope:
  """A variable scope: a name prefix and defaults (initializer, dtype, ...) for get_variable."""

  def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
               partitioner=None, custom_getter=None, name_scope="", dtype=dtypes.float32,
               use_resource=None, constraint=None):
    self._name = name
    self._initializer = initializer
    self._regularizer = regularizer
    self._caching_device = caching_device
    self._partitioner = partitioner
    self._custom_getter = custom_getter
    self._name_scope = name_scope
    self._dtype = dtype
    self._constraint = constraint
    self._reuse = reuse
    self._use_resource = True  # TF forces it (and reuse) when executing eagerly

  name = property(lambda self: self._name)
  original_name_scope = property(lambda self: self._name_scope)
  reuse = property(lambda self: AUTO_REUSE if _ctx.graph is None else self._reuse)
  initializer = property(lambda self: self._initializer)
  regularizer = property(lambda self: self._regularizer)
  caching_device = property(lambda self: self._caching_device)
  partitioner = property(lambda self: self._partitioner)
  custom_getter = property(lambda self: self._custom_getter)
  dtype = property(lambda self: self._dtype)
  use_resource = property(lambda self: self._use_resource)
  constraint = property(lambda self: self._constraint)

  def reuse_variables(self):
    self._reuse = True

  def set_initializer(self, initializer):
    self._initializer = initializer

  def set_regularizer(self, regularizer):
    self._regularizer = regularizer

  def set_caching_device(self, caching_device):
    self._caching_device = caching_device

  def set_partitioner(self, partitioner):
    self._partitioner = partitioner

  def set_custom_getter(self, custom_getter):
    self._custom_getter = custom_getter

  def set_dtype(self, dtype):
    self._dtype = dtype

  def set_use_resource(self, use_resource):
    self._use_resource = True

  def global_variables(self):
    return []

  def trainable_variables(self):
    return []

  def local_variables(self):
    return []


class _ScopeStore(threading.local):
  def __init__(self):
    super().__init__()
    self.current = VariableScope(False)
    self.counts = {}  # full scope name -> times opened (TF's variable_scopes_count)

  def close_subscopes(self, scope_name):
    for key in list(self.counts):
      if key.startswith(scope_name + "/"):
        self.counts[key] = 0


_eager_store = _ScopeStore()


@graph_lib.on_reset_default_graph
def _reset_eager_store():
  """TF keeps the scope counts in the default graph: a new default graph starts them anew."""
  _eager_store.__init__()


def _scopes():
  """The variable scope store: the graph's in graph mode (as TF keeps it), else the thread's."""
  graph = _ctx.graph
  if graph is None:
    return _eager_store
  store = graph.__dict__.get("_variable_scope_store")
  if store is None:
    store = graph._variable_scope_store = _ScopeStore()  # pylint: disable=protected-access
  return store


def get_variable_scope_store():
  """The variable scope store (TF's internal accessor): `.counts` of opened scopes."""
  return _scopes()


@export("get_variable_scope")
def get_variable_scope():
  return _scopes().current


def _unique_scope_name(prefix):
  current = _scopes().current.name
  name = current + "/" + prefix if current else prefix
  if not _scopes().counts.get(name):
    return prefix
  idx = 1
  while _scopes().counts.get("%s_%d" % (name, idx)):
    idx += 1
  return "%s_%d" % (prefix, idx)


def _wrap_custom_getter(custom_getter, old_getter):
  if old_getter is None:
    return custom_getter

  def wrapped_custom_getter(getter, *args, **kwargs):
    return custom_getter(lambda *a, **k: old_getter(getter, *a, **k), *args, **kwargs)

  return wrapped_custom_getter


@export("variable_scope")
class variable_scope:  # pylint: disable=invalid-name
  """`tf.variable_scope`: a name prefix for get_variable plus defaults; also a name scope."""

  def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
               regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
               reuse=None, dtype=None, use_resource=None, constraint=None,
               auxiliary_name_scope=True):
    if default_name is None and name_or_scope is None:
      raise TypeError("If default_name is None then name_or_scope is required")
    if reuse is False:
      reuse = None
    if not (reuse is True or reuse is None or reuse is AUTO_REUSE):
      raise ValueError("The reuse parameter must be True or False or None.")
    if not isinstance(auxiliary_name_scope, bool):
      raise TypeError("The auxiliary_name_scope must be `True` or `False`, while get {}"
                      .format(auxiliary_name_scope))
    self._name_or_scope = name_or_scope
    self._default_name = default_name
    self._reuse = reuse
    self._overrides = dict(initializer=initializer, regularizer=regularizer,
                           caching_device=caching_device, partitioner=partitioner,
                           dtype=dtype, use_resource=use_resource)
    self._custom_getter = custom_getter
    self._constraint = constraint
    self._auxiliary_name_scope = auxiliary_name_scope
    self._name_scope = None
    self._entered = None

  def __enter__(self):
    scope = self._name_or_scope
    if scope is not None and not isinstance(scope, (VariableScope, str)):
      raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
    if scope is None and self._reuse:
      raise ValueError("reuse=True cannot be used without a name_or_scope")
    if not self._auxiliary_name_scope:
      self._name_scope = name_scope(current_name_scope())
    elif scope is None:
      self._name_scope = name_scope(self._default_name)
    else:
      relative = scope if isinstance(scope, str) else scope.name.split("/")[-1]
      self._name_scope = name_scope(relative) if relative else None
    entered_name_scope = None
    if self._name_scope is not None:
      entered_name_scope = self._name_scope.__enter__()
    try:
      return self._enter_variable_scope(scope, entered_name_scope)
    except BaseException:
      if self._name_scope is not None:
        self._name_scope.__exit__(None, None, None)
      raise

  def _enter_variable_scope(self, scope, entered_name_scope):
    old = _scopes().current
    if isinstance(scope, VariableScope):
      new_name = scope.name
      base, old_getter = scope, scope.custom_getter
      original_name_scope = scope.original_name_scope
    else:
      if scope is None:
        scope = _unique_scope_name(self._default_name)
      new_name = old.name + "/" + scope if old.name else scope
      base, old_getter = old, old.custom_getter
      original_name_scope = scope if entered_name_scope is None else entered_name_scope
    reuse = self._reuse or (base._reuse if isinstance(scope, VariableScope) else old._reuse)
    new = VariableScope(
        reuse or None, name=new_name, initializer=base.initializer, regularizer=base.regularizer,
        caching_device=base.caching_device, partitioner=base.partitioner,
        custom_getter=old_getter, name_scope=original_name_scope, dtype=base.dtype,
        constraint=self._constraint)
    for key, value in self._overrides.items():
      if value is not None:
        getattr(new, "set_" + key)(value)
    if self._custom_getter is not None:
      new.set_custom_getter(_wrap_custom_getter(self._custom_getter, old_getter))
    saved_counts = dict(_scopes().counts) if isinstance(self._name_or_scope, VariableScope) else None
    _scopes().counts[new_name] = _scopes().counts.get(new_name, 0) + 1
    if saved_counts is not None:
      saved_counts[new_name] = _scopes().counts[new_name]
    self._entered = (old, new, new_name, saved_counts)
    _scopes().current = new
    return new

  def __exit__(self, exc_type, exc_value, traceback):
    old, new, new_name, saved_counts = self._entered
    try:
      if _scopes().current is not new:
        raise RuntimeError("Improper nesting of variable_scope.")
      if saved_counts is not None:
        _scopes().counts = saved_counts
      else:
        _scopes().close_subscopes(new_name)
      _scopes().current = old
    finally:
      if self._name_scope is not None:
        self._name_scope.__exit__(exc_type, exc_value, traceback)


# ---- tf.variable_creator_scope ----
class _Creators(threading.local):
  def __init__(self):
    super().__init__()
    self.stack = []  # creator functions, outermost first


_creators = _Creators()


class VariableMetaclass(type):
  """Builds `tf.Variable(...)` through the creators of the enclosing
  `variable_creator_scope`s (innermost first), each given the next creator and TF's keyword
  arguments; subclasses of the variable class are built directly, as in TF."""

  def __call__(cls, *args, **kwargs):
    if getattr(_ctx.graph_env, "abstract", False):  # created by a call being recorded
      with graph_build.lifted():
        return cls(*args, **kwargs)
    if not _creators.stack or isinstance(cls.__mro__[1], VariableMetaclass):
      return super().__call__(*args, **kwargs)
    parameters = inspect.signature(cls.__init__).parameters
    bound = inspect.signature(cls.__init__).bind(None, *args, **kwargs)
    bound.apply_defaults()
    arguments = dict(list(bound.arguments.items())[1:])
    if arguments.get("aggregation", 0) is None:
      arguments["aggregation"] = parameters["aggregation"].default

    def default_creator(**creator_kwargs):
      return super(VariableMetaclass, cls).__call__(
          **{k: v for k, v in creator_kwargs.items() if k in parameters})

    creator = default_creator
    for outer in _creators.stack:
      creator = functools.partial(outer, creator)
    return creator(**arguments)


@export("variable_creator_scope")
@contextlib.contextmanager
def variable_creator_scope(variable_creator):
  """Variables built inside (`tf.Variable`, `get_variable`, Keras weights) are made by
  `variable_creator(next_creator, **kwargs)`, which may change the keyword arguments, call
  `next_creator(**kwargs)` or return a variable of its own."""
  stack = _creators.stack
  depth = len(stack)
  stack.append(variable_creator)
  try:
    yield
  finally:
    del stack[depth:]


# ---- TF 1.x aliases ----
@export("op_scope")
@contextlib.contextmanager
def op_scope(values, name, default_name=None):
  """DEPRECATED: `tf.name_scope(name, default_name, values)`, with the arguments reordered."""
  logging.getLogger("tensorflow").warning(
      "tf.op_scope(values, name, default_name) is deprecated, use tf.name_scope(name, "
      "default_name, values)")
  with name_scope(name, default_name=default_name, values=values) as scope:
    yield scope


@export("variable_op_scope")
@contextlib.contextmanager
def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
  """DEPRECATED: `tf.variable_scope(name_or_scope, default_name, values, ...)`."""
  logging.getLogger("tensorflow").warning(
      "tf.variable_op_scope(values, name, default_name) is deprecated, use "
      "tf.variable_scope(name, default_name, values)")
  with variable_scope(name_or_scope, default_name=default_name, values=values,
                      initializer=initializer, regularizer=regularizer,
                      caching_device=caching_device, partitioner=partitioner,
                      custom_getter=custom_getter, reuse=reuse, dtype=dtype,
                      use_resource=use_resource, constraint=constraint) as scope:
    yield scope


@export("no_regularizer")
def no_regularizer(_):
  """A regularizer that adds nothing (None), to turn off a scope's regularizer."""
  return None
