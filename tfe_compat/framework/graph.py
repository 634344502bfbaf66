"""`tf.Graph`, `tf.Operation` and symbolic graph tensors; switching between eager and graph mode.

A TF 1.x program is in graph mode unless it enables eager execution (`tfe-run` starts
scripts in graph mode; `import tfe_compat` alone is eager, as TF 2), and inside
`Graph.as_default()`. In graph mode the one op path records instead of computing (see
graph_build.py): each Operation holds the Python call that computes it, and its outputs
are `GraphTensor`s with TF's names and static shapes. `GraphTensor._value` is the value of
the tensor in the run (or abstract evaluation) in progress, so the recorded call runs the
same op code as eager execution; `Session.run` (client/session.py) replays the calls.
"""
import contextlib
import logging
import re
import sys

import jax
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import modes  # noqa: F401  (tf.enable_eager_execution and kin)
from tfe_compat.framework.graph_keys import GraphKeys  # noqa: F401  (tf.GraphKeys)
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework import tensor as tensor_lib
from tfe_compat.framework.tensor import Tensor

_ctx = context.ctx


def building():
  """The graph that ops record into now (top-level graph mode), else None."""
  return _ctx.graph if _ctx.graph_env is None else None


# ---- Operations and graph tensors ----
class Operation:
  """`tf.Operation`: a node of the graph (see graph_build.py for what `kind` and `fn` are)."""

  stateful = False  # looks at the run's state (never folded into constants)
  host = False  # runs Python on concrete values (a run that includes it runs eagerly)
  custom_replay = None  # replay(op, env, scope, counter) for operations that are not calls
  node_attrs = None  # {name: AttrValue}: TF's attributes, where the NodeDef is TF's own
  args, kwargs = (), {}

  def __init__(self, graph, op_type, name, inputs=(), kind="call", fn=None):
    self.graph, self.type, self.name = graph, op_type, name
    self.inputs = list(inputs)
    self.kind, self.fn = kind, fn
    self.outputs = []
    self.control_inputs = graph._current_control_inputs()
    self.reads, self.writes = [], []  # Variables the call reads / writes
    self.keys = []  # base RNG keys of the random draws the call makes
    self.device = graph._device_name()
    self.attrs = {}
    if op_type in graph._gradient_overrides:
      self.attrs["_gradient_op_type"] = graph._gradient_overrides[op_type].encode()
    self._index = len(graph._ops)
    self.defined_at = _user_line()
    graph._add_op(self)

  def _add_output(self, shape, dtype, const=None):
    tensor = GraphTensor(self, len(self.outputs), shape, dtype, const)
    self.outputs.append(tensor)
    return tensor

  @property
  def node_def(self):
    from tfe_compat.framework import node_defs  # pylint: disable=import-outside-toplevel
    return node_defs.node_def(self)

  def values(self):
    return tuple(self.outputs)

  def get_attr(self, name):
    if name in self.attrs:
      return self.attrs[name]
    raise ValueError("No attr named '%s' in NodeDef: %s" % (name, self.name))

  def run(self, feed_dict=None, session=None):
    _default_session(session).run(self, feed_dict)

  def __repr__(self):
    return "<tf.Operation '%s' type=%s>" % (self.name, self.type)

  __str__ = __repr__


def _user_line():
  """"file:line" of the innermost caller outside tfe_compat and JAX (where an op is built)."""
  frame = sys._getframe(2)  # pylint: disable=protected-access
  while frame is not None:
    name = frame.f_code.co_filename
    if "tfe_compat" not in name and "/jax/" not in name and not name.startswith("<frozen"):
      return "%s:%d" % (name, frame.f_lineno)
    frame = frame.f_back
  return "<unknown>"


export("Operation")(Operation)


class _Symbolic(jax.core.Tracer):
  """`GraphTensor._value` while the graph is built: the static shape (None for unknown
  dimensions) and dtype; anything else raises, as a graph tensor has no value yet. It is a
  JAX Tracer to code that asks (its value is not known: host-side checks are skipped)."""

  __slots__ = ("tensor", "shape", "dtype", "ndim")

  def __init__(self, tensor):
    self.tensor = tensor
    self.dtype = np.dtype(tensor._dtype.as_numpy_dtype) if tensor._dtype is not dtypes.string \
        else np.dtype(object)
    dims = tensor._shape.dims
    self.shape = None if dims is None else tuple(d.value for d in dims)
    self.ndim = None if dims is None else len(dims)

  aval = None  # not an array JAX knows (isinstance(x, jax.Array) is False)

  def __getattr__(self, name):
    raise TypeError("Tensor %s is a symbolic graph tensor: it has no value until "
                    "Session.run computes it." % self.tensor.name)


class GraphTensor(Tensor):
  """A tensor of a graph: `op`, `value_index`, a static shape and dtype, no value."""

  __slots__ = ("_op", "_index", "_shape", "_dtype", "_const", "_sentinel")

  def __init__(self, op, index, shape, dtype, const=None):  # pylint: disable=super-init-not-called
    self._op, self._index = op, index
    self._shape = tensor_shape.as_shape(shape)
    self._dtype = dtypes.as_dtype(dtype)
    self._const = const  # the value, when known while building (constants, folded ops)
    self._sentinel = None  # {stand-in size: value} of values computed from shapes alone
    self._id = next(tensor_lib._uids)  # pylint: disable=protected-access

  @property
  def _value(self):
    env = _ctx.graph_env
    if env is None:
      return _Symbolic(self)
    return env.value(self)

  @_value.setter
  def _value(self, value):  # control flow swaps traced values in while tracing a branch
    env = _ctx.graph_env
    if env is None:
      raise AttributeError("A graph tensor has no value to set while the graph is built.")
    env.set(self, value)

  @property
  def op(self):
    return self._op

  @property
  def graph(self):
    return self._op.graph

  @property
  def name(self):
    return "%s:%d" % (self._op.name, self._index)

  @property
  def value_index(self):
    return self._index

  @property
  def device(self):
    return self._op.device

  @property
  def dtype(self):
    return self._dtype

  @property
  def shape(self):
    if _ctx.graph_env is None:
      return self._shape
    return tensor_shape.TensorShape(self._value.shape)

  def get_shape(self):
    return self.shape

  @property
  def ndim(self):
    return self.shape.ndims

  def set_shape(self, shape):
    if not self._shape.is_compatible_with(shape):
      raise ValueError("Tensor's shape %s is not compatible with supplied shape %s"
                       % (self._shape, tensor_shape.as_shape(shape)))
    self._shape = self._shape.merge_with(shape)

  def consumers(self):
    return [op for op in self.graph._ops if self in op.inputs]

  def eval(self, feed_dict=None, session=None):
    return _default_session(session).run(self, feed_dict)

  def numpy(self):
    if _ctx.graph_env is not None:  # evaluated while recorded, or replayed in a run
      return Tensor.numpy(self)
    raise NotImplementedError(
        "numpy() is only available when eager execution is enabled: %s is a graph tensor. "
        "Call tf.enable_eager_execution() at program startup (or run the script with "
        "`tfe-run --eager`), or evaluate it with Session.run." % self.name)

  def __array__(self, dtype=None, copy=None):
    if _ctx.graph_env is not None:
      return Tensor.__array__(self, dtype)
    raise NotImplementedError("Cannot convert a symbolic Tensor (%s) to a numpy array."
                              % self.name)

  def __bool__(self):
    if _ctx.graph_env is not None:
      return Tensor.__bool__(self)
    raise TypeError("Using a `tf.Tensor` as a Python `bool` is not allowed in Graph "
                    "execution. Use Eager execution or decorate this function with "
                    "@tf.function.")

  def __iter__(self):
    if _ctx.graph_env is not None or self._shape.ndims is not None and \
        self._shape[0].value is not None:
      return Tensor.__iter__(self) if _ctx.graph_env is not None else \
          (self[i] for i in range(self._shape[0].value))
    raise TypeError("Tensor objects are only iterable when eager execution is enabled. To "
                    "iterate over this tensor use tf.map_fn.")

  def __len__(self):
    if _ctx.graph_env is not None:
      return Tensor.__len__(self)
    raise TypeError("len is not well defined for symbolic Tensors. (%s) Please call "
                    "`x.shape` rather than `len(x)` for shape information." % self.name)

  def __int__(self):
    if _ctx.graph_env is not None:
      return Tensor.__int__(self)
    raise TypeError("int() argument must be a string, a bytes-like object or a real number, "
                    "not 'Tensor'")

  __index__ = __int__

  def __format__(self, format_spec):
    return format(str(self), format_spec)

  def __repr__(self):
    return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self._shape, self._dtype.name)

  def __str__(self):
    return "Tensor(\"%s\", shape=%s, dtype=%s)" % (self.name, self._shape, self._dtype.name)

  def __reduce__(self):
    raise TypeError("can't pickle a graph tensor (%s)" % self.name)


# ---- Graphs ----


@export("Graph")
class Graph:
  """`tf.Graph`: operations, names, collections; `as_default()` makes ops build into it."""

  def __init__(self):
    self._ops = []
    self._names = {}  # lower-cased name -> times used
    self._by_name = {}
    self._collections = {}
    self._finalized = False
    self._control_stack = []  # lists of control-input Operations (None entries clear)
    self._variable_store = {}  # tf.get_variable's variables by full name
    self._last_variables = 0
    self._gradient_overrides = {}  # op type -> registered gradient name
    self.seed = None
    self.version = 0
    from tfe_compat.framework import graph_build  # pylint: disable=import-outside-toplevel
    self.building = graph_build.Builder(self)

  # ---- Building ----
  @contextlib.contextmanager
  def as_default(self):
    """Ops build into this graph inside the block (even when eager execution is enabled)."""
    _ctx.graph_stack.append(self)
    saved_env, _ctx.graph_env = _ctx.graph_env, None
    context.refresh_mode(_ctx)
    try:
      yield self
    finally:
      _ctx.graph_stack.remove(self)
      _ctx.graph_env = saved_env
      context.refresh_mode(_ctx)

  def _add_op(self, op):
    if self._finalized:
      raise RuntimeError("Graph is finalized and cannot be modified.")
    self._ops.append(op)
    self._by_name[op.name] = op
    self.version += 1

  def unique_name(self, name, mark_as_used=True):
    """`name`, or `name_1`, `name_2`, ... the first not used in this graph."""
    key = name.lower()
    count = self._names.get(key, 0)
    if mark_as_used:
      self._names[key] = count + 1
    if count == 0:
      return name
    base_key = key
    while "%s_%d" % (base_key, count) in self._names:
      count += 1
    new = "%s_%d" % (name, count)
    if mark_as_used:
      self._names[new.lower()] = 1
    return new

  def _op_name(self, name, default):
    """TF's name of a new operation: `name` (or `default`) in the current name scope, made
    unique; a name ending in "/" (a scope's own name) is taken as it is."""
    if name and name.endswith("/"):
      return name[:-1]
    return self.unique_name(_current_name_scope() + (name or default))

  def finalize(self):
    self._finalized = True

  @property
  def finalized(self):
    return self._finalized

  def _unsafe_unfinalize(self):
    self._finalized = False

  @contextlib.contextmanager
  def control_dependencies(self, control_inputs):
    """Operations built inside run after `control_inputs` (None clears the outer ones)."""
    if control_inputs is None:
      self._control_stack.append(None)
    else:
      ops = []
      for item in control_inputs:
        if callable(item) and not isinstance(item, (Operation, Tensor)):
          item = item()
        ops.append(_as_operation(item, self))
      self._control_stack.append(ops)
    try:
      yield
    finally:
      self._control_stack.pop()

  def _current_control_inputs(self):
    out = []
    for entry in reversed(self._control_stack):
      if entry is None:
        break
      out.extend(op for op in entry if op not in out)
    return out

  def device(self, device_name_or_function):
    return _in_graph(self, device_lib.device(device_name_or_function))

  @staticmethod
  def _device_name():
    """TF's device of an op built now: the enclosing tf.device specs merged, inner first."""
    merged = device_lib.DeviceSpec()
    for spec, _ in _ctx.device_stack:
      if spec is None:
        merged = device_lib.DeviceSpec()
      elif isinstance(spec, (str, device_lib.DeviceSpec)):
        merged.merge_from(spec if isinstance(spec, device_lib.DeviceSpec)
                          else device_lib.DeviceSpec.from_string(spec))
    return merged.to_string()

  @contextlib.contextmanager
  def gradient_override_map(self, op_type_map):
    """Ops of the mapped types built inside are differentiated by the gradient function
    registered (`tf.RegisterGradient`) under the mapped name."""
    if not isinstance(op_type_map, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in op_type_map.items()):
      raise TypeError("op_type_map must be a dictionary mapping strings to strings")
    saved = self._gradient_overrides
    self._gradient_overrides = dict(saved, **op_type_map)
    try:
      yield
    finally:
      self._gradient_overrides = saved

  def name_scope(self, name):
    return _in_graph(self, name_scope_hook[0](name))

  def get_name_scope(self):
    return _current_name_scope().rstrip("/")

  @contextlib.contextmanager
  def colocate_with(self, op, ignore_existing=False):
    yield

  @contextlib.contextmanager
  def container(self, container_name):
    yield

  # ---- Looking up ----
  def get_operations(self):
    return list(self._ops)

  def get_operation_by_name(self, name):
    if not isinstance(name, str):
      raise TypeError("Operation names are strings (or similar), not %s." % type(name).__name__)
    return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

  def get_tensor_by_name(self, name):
    if not isinstance(name, str):
      raise TypeError("Tensor names are strings (or similar), not %s." % type(name).__name__)
    return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

  def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
    """The Tensor or Operation `obj` names (or is), TF's errors otherwise."""
    if isinstance(obj, str):
      if ":" in obj:
        if not allow_tensor:
          raise ValueError("Name '%s' appears to refer to a Tensor, not a Operation." % obj)
        op_name, index = obj.rsplit(":", 1)
        op = self._by_name.get(op_name)
        if op is None:
          raise KeyError("The name '%s' refers to a Tensor which does not exist. The "
                         "operation, '%s', does not exist in the graph." % (obj, op_name))
        if int(index) >= len(op.outputs):
          raise KeyError("The name '%s' refers to a Tensor which does not exist. The "
                         "operation, '%s', exists but only has %d outputs."
                         % (obj, op_name, len(op.outputs)))
        return op.outputs[int(index)]
      op = self._by_name.get(obj)
      if op is None or not allow_operation:
        if op is not None and allow_tensor:
          raise ValueError("The name '%s' refers to an Operation, not a Tensor. Tensor names "
                           "must be of the form \"<op_name>:<output_index>\"." % obj)
        raise KeyError("The name '%s' refers to an Operation not in the graph." % obj)
      return op
    if isinstance(obj, GraphTensor) and allow_tensor:
      if obj.graph is not self:
        raise ValueError("Tensor %s is not an element of this graph." % obj)
      return obj
    if isinstance(obj, Operation) and allow_operation:
      if obj.graph is not self:
        raise ValueError("Operation %s is not an element of this graph." % obj)
      return obj
    graph_element = getattr(obj, "_graph_element", None)
    if graph_element is not None:
      return self.as_graph_element(graph_element, allow_tensor, allow_operation)
    raise TypeError("Can not convert a %s into a %s." % (
        type(obj).__name__, "Tensor or Operation" if allow_tensor and allow_operation
        else "Tensor" if allow_tensor else "Operation"))

  def is_fetchable(self, tensor_or_op):
    return True

  def is_feedable(self, tensor):
    return True

  # ---- Collections ----
  def get_collection_ref(self, name):
    return self._collections.setdefault(name, [])

  def get_collection(self, name, scope=None):
    """A copy of the collection's items (with a `name` attribute matching `scope`)."""
    items = self._collections.get(name, [])
    if scope is None:
      return list(items)
    return [x for x in items if re.match(scope, getattr(x, "name", "") or "")]

  def get_all_collection_keys(self):
    return [k for k, v in self._collections.items() if v]

  def clear_collection(self, name):
    self._collections.pop(name, None)

  def add_to_collection(self, name, value):
    self.get_collection_ref(name).append(value)

  def add_to_collections(self, names, value):
    for name in [names] if isinstance(names, str) else set(names):
      self.add_to_collection(name, value)

  # ---- GraphDef ----
  def as_graph_def(self, from_version=None, add_shapes=False):
    from tensorboardX.proto import graph_pb2  # pylint: disable=import-outside-toplevel
    from tfe_compat.framework import node_defs  # pylint: disable=import-outside-toplevel
    graph_def = graph_pb2.GraphDef()
    graph_def.node.extend(node_defs.node_def(op, add_shapes) for op in self._ops)
    graph_def.versions.producer = 27
    return graph_def

  @property
  def graph_def_versions(self):
    return self.as_graph_def().versions


name_scope_hook = [None]  # variable_scope.name_scope (a layer above this one)


def _current_name_scope():
  return _ctx.name_stack[-1] if _ctx.name_stack else ""


@contextlib.contextmanager
def _in_graph(graph, scope):
  with graph.as_default(), scope as name:
    yield name


def _as_operation(item, graph):
  if isinstance(item, Operation):
    return item
  if isinstance(item, GraphTensor):
    return item.op
  op = getattr(item, "op", None)  # a Variable: its initializer's read
  if isinstance(op, Operation):
    return op
  raise TypeError("Can not convert a %s into a Operation." % type(item).__name__)


context.default_graph[0] = Graph()


@export("get_default_graph")
def get_default_graph():
  return _ctx.graph_stack[-1] if _ctx.graph_stack else context.default_graph[0]


_reset_hooks = []  # state that TF keeps in the default graph (the global step) resets here


def on_reset_default_graph(hook):
  """Registers `hook()` to run on `tf.reset_default_graph()`."""
  _reset_hooks.append(hook)
  return hook


@export("reset_default_graph")
def reset_default_graph():
  """A new, empty default graph; graph-held state (the global step) is created anew."""
  if _ctx.graph_stack:
    raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you "
                         "need a cleared graph, exit the nesting and create a new graph.")
  context.default_graph[0] = Graph()
  context.refresh_mode(_ctx)
  for hook in _reset_hooks:
    hook()


@export("get_collection")
def get_collection(key, scope=None):
  return get_default_graph().get_collection(key, scope)


@export("get_collection_ref")
def get_collection_ref(key):
  return get_default_graph().get_collection_ref(key)


@export("add_to_collection")
def add_to_collection(name, value):
  get_default_graph().add_to_collection(name, value)


@export("add_to_collections")
def add_to_collections(names, value):
  get_default_graph().add_to_collections(names, value)


@export("control_dependencies")
def control_dependencies(control_inputs):
  """Graph mode: ops built inside depend on `control_inputs`; eager ops run in order."""
  graph = building()
  if graph is None:
    return contextlib.nullcontext()
  return graph.control_dependencies(control_inputs)


@export("init_scope")
@contextlib.contextmanager
def init_scope():
  """TF's init_scope: no control dependencies inside (a graph's ops there run on their own;
  tfe_compat's compiled functions are not graphs, so there is nothing to lift out of)."""
  graph = building()
  if graph is None:
    yield
  else:
    with graph.control_dependencies(None):
      yield


@export("colocate_with", "container")
@contextlib.contextmanager
def _no_effect_scope(*args, **kwargs):
  """Scopes that change nothing here (placement and containers are JAX's)."""
  yield


default_session_hook = [None]  # client.session.get_default_session (a layer above)


def _default_session(session):
  if session is None:
    session = default_session_hook[0]()
  if session is None:
    raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                     "registered. Use `with sess.as_default()` or pass an explicit session "
                     "to `eval(session=sess)`")
  return session


@export("get_logger")
def get_logger():
  """`tf.get_logger()`: the "tensorflow" logger of Python's logging."""
  return logging.getLogger("tensorflow")
