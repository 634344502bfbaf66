"""Graph building: how a call becomes an Operation, and how a recorded call runs again.

At the top level of graph mode (`graph.building()`), a call records instead of computing
when it is an exported TF function given graph tensors or graph variables (`export`
wraps functions with `call_hook`), a Tensor operator on a graph tensor, a Variable update,
or the `@op` path itself (ops called by code that runs while building, such as a layer's
`call`). Functions that create variables or change the graph (layers, `tf.train`,
`tf.group`, ...) run while building instead, so the calls inside them are recorded.

Recording a call evaluates it abstractly under `jax.eval_shape`: the graph tensors it
touches (arguments or captured ones) stand in as arrays of their static shapes, unknown
dimensions set to a stand-in size (twice, with two sizes, when there are unknown
dimensions: an output dimension that differs is unknown). That gives the outputs' shapes
and dtypes, the tensors the call depends on, the variables it reads and writes and its
random draws. Outputs computed from shapes and constants alone keep their values (TF's
constant folding): `tf.shape(x)[1]` is a known 784 while building.

`replay` runs a recorded call again with the tensors' values of a run (client/session.py):
the same op code as eager execution, traced by `jax.jit`.
"""
import contextlib
import inspect
import io

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import api
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import ops
from tfe_compat.framework.graph import GraphTensor, Operation
from tfe_compat.framework.tensor import Tensor

_ctx = context.ctx
_SIZES = (2520, 5040)  # stand-in sizes of unknown dimensions (divisible by 1..10)


def _is_variable(x):
  return hasattr(x, "_as_tensor") and hasattr(x, "trainable") and hasattr(x, "_id")


def _is_leaf(x):
  return isinstance(x, Tensor) or _is_variable(x) or isinstance(x, Operation)


def graph_leaves(args, kwargs):
  """The graph tensors and graph variables among a call's arguments."""
  leaves = jax.tree_util.tree_leaves((args, kwargs), is_leaf=_is_leaf)
  return [x for x in leaves if isinstance(x, GraphTensor) or isinstance(
      getattr(x, "_value", None), graph_lib._Symbolic) or getattr(x, "_graph", None)]


@contextlib.contextmanager
def run_state(env, scope, keys):
  """Graph tensors have their values in `env`, variables in `scope`; ops compute."""
  saved = (_ctx.graph_env, _ctx.variable_scope, _ctx.traced_rng, _ctx.tapes,
           _ctx.recording_paused)
  _ctx.graph_env, _ctx.variable_scope, _ctx.traced_rng = env, scope, keys
  _ctx.tapes, _ctx.recording_paused = [], 0
  try:
    yield
  finally:
    (_ctx.graph_env, _ctx.variable_scope, _ctx.traced_rng, _ctx.tapes,
     _ctx.recording_paused) = saved


# ---- Abstract evaluation ----

class _EvalEnv:
  """Values of graph tensors during abstract evaluation: stand-ins of their static shapes."""

  abstract = True  # variable writes that compiled control flow refuses are ignored here

  def __init__(self, size, concrete=False):
    self.size, self._concrete = size, concrete
    self.inputs, self._values = [], {}
    self.unknown = False  # a touched tensor has unknown dimensions
    self.unknown_rank = False
    self.feedable = False  # a touched tensor's stand-in is a default that a run may replace

  def set(self, tensor, value):
    self._values[tensor._id] = value

  def value(self, tensor):
    value = self._values.get(tensor._id)
    if value is not None:
      return value
    self.inputs.append(tensor)  # a dependency, even when its value is known
    known = tensor._const
    if known is None:  # a placeholder's default as its stand-in: may be fed, never folded
      known = getattr(tensor.op, "default", None)
      self.feedable |= known is not None
    if known is not None:
      self._values[tensor._id] = known
      return known
    sentinel = tensor._sentinel
    if sentinel is not None and self.size in sentinel:
      value = sentinel[self.size]
      self.unknown = True
    else:
      dims = tensor._shape.dims
      if dims is None:
        self.unknown_rank = True
        dims = ()
      shape = tuple(self.size if d.value is None else d.value for d in dims)
      self.unknown |= any(d.value is None for d in dims)
      value = _stand_in(shape, tensor._dtype, self._concrete)
    self._values[tensor._id] = value
    return value


def _stand_in(shape, dtype, concrete=False):
  if dtype is dtypes.string:
    return np.full(shape, b"", dtype=object)
  if concrete:
    return np.zeros(shape, dtype.as_numpy_dtype)
  return jnp.zeros(shape, dtype.as_numpy_dtype)


class _EvalScope:
  """Variable reads and writes during abstract evaluation (noted, never applied); variables
  created (out of the trace, see `lifted`) are passed to the scope the call is recorded in."""

  def __init__(self, outer, concrete=False):
    self.reads, self.writes, self._values = [], [], {}
    self._outer, self._concrete = outer, concrete

  def variable_created(self, var):
    created = getattr(self._outer, "variable_created", None)
    if created is not None:
      created(var)

  def read(self, var):
    if var._id not in self._values:
      if all(var is not v for v in self.reads):
        self.reads.append(var)
      shape = tuple((0 if self._concrete else _SIZES[0]) if d is None else d
                    for d in var._value.shape)
      self._values[var._id] = _stand_in(shape, var.dtype, self._concrete)
    return Tensor(self._values[var._id])

  def write(self, var, value):
    if all(var is not v for v in self.writes):
      self.writes.append(var)
    self._values[var._id] = value

  @staticmethod
  def initialized(var):
    return False


class _EvalKeys:
  """Random draws during abstract evaluation: their op seeds are noted (and, by the `@op`
  path, the TF op names that ran)."""

  building = False

  def __init__(self, concrete=False):
    self.seeds, self.op_names, self._concrete = [], set(), concrete

  def next(self, op_seed=None):
    self.seeds.append(op_seed)
    return np.zeros((2,), np.uint32) if self._concrete else jnp.zeros((2,), jnp.uint32)


def _flatten_outputs(out, scope):
  flat, tree = jax.tree_util.tree_flatten(out, is_leaf=_is_leaf)
  values = []
  for leaf in flat:
    if _is_variable(leaf):
      values.append(scope.read(leaf)._value)
    elif isinstance(leaf, Tensor):
      values.append(leaf._value)
    else:
      values.append(leaf)
  return values, tree


_VALUE_DEPENDENT = (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
                    jax.errors.TracerBoolConversionError,
                    jax.errors.TracerIntegerConversionError, context.NotTraceable)


def _evaluate(fn, args, kwargs, size, concrete=False):
  """(env, scope, keys, output specs, tree) of one abstract evaluation of the call; with
  `concrete`, of an eager run on zero-filled stand-ins (calls whose shapes depend on values)."""
  env, scope, keys = _EvalEnv(size, concrete), _EvalScope(_ctx.variable_scope, concrete), \
      _EvalKeys(concrete)
  env.eval_scope = scope
  result = {}

  def run():
    with run_state(env, scope, keys), contextlib.redirect_stdout(io.StringIO()):
      out = fn(*args, **kwargs)
      values, tree = _flatten_outputs(out, scope)
    specs = []
    for value, leaf in zip(values, jax.tree_util.tree_leaves(out, is_leaf=_is_leaf)):
      if not (_is_leaf(leaf)):
        specs.append(("static", leaf))
      elif isinstance(value, jax.core.Tracer):
        specs.append(("tensor", tuple(value.shape), value.dtype, None))
      else:
        array = value if isinstance(value, np.ndarray) and value.dtype == object \
            else np.asarray(value)
        specs.append(("tensor", array.shape, array.dtype, array))
    result.update(specs=specs, tree=tree)
    return []

  if concrete:
    with jax.ensure_compile_time_eval():
      run()
  else:
    jax.eval_shape(run)
  return env, scope, keys, result["specs"], result["tree"]


# ---- Recording ----
def record_call(fn, args=(), kwargs=None, op_type=None, name=None, stateful=False,
                separate_writes=False):
  """Records `fn(*args, **kwargs)` as an Operation of the graph being built; returns the
  call's result with graph tensors in place of its tensors (the Operation for None).
  `stateful` calls (they look at the run's state) are never folded into constants. With
  `separate_writes`, the variables the call assigns are assigned by operations of their own
  (the Operation's `updates`, as TF's layers' update ops), which runs of its result skip."""
  kwargs = kwargs or {}
  graph = graph_lib.building()
  second, host = None, False
  try:
    env, scope, keys, specs, tree = _evaluate(fn, args, kwargs, _SIZES[0])
  except _VALUE_DEPENDENT as error:  # output shapes depend on values: a host operation
    try:
      env, scope, keys, specs, tree = _evaluate(fn, args, kwargs, 0, concrete=True)
    except Exception:  # pylint: disable=broad-except
      raise NotImplementedError(
          "%s needs the values of its inputs to build its outputs, which a graph does not "
          "have while it is built (tfe_compat evaluates it on empty stand-ins, which it "
          "rejected): %s" % (getattr(fn, "__name__", fn), error)) from None
    host = env.unknown_rank = True
  if env.unknown and not host:
    second = _evaluate(fn, args, kwargs, _SIZES[1])[3]
  op_type = op_type or _op_type(fn, keys.op_names)
  op = Operation(graph, op_type, graph._op_name(name, op_type), env.inputs)
  op.fn, op.args, op.kwargs = fn, args, kwargs
  op.reads, op.writes = scope.reads, scope.writes
  op.keys = [context.seeded_key(seed) for seed in keys.seeds]
  pure = not (op.reads or op.writes or op.keys or stateful or host)
  op.stateful, op.host = not pure, host
  flat = []
  for i, spec in enumerate(specs):
    if spec[0] == "static":
      flat.append(spec[1])
      continue
    _, shape, dtype, value = spec
    other = second[i] if second is not None else None
    if env.unknown_rank:
      shape = None
    elif other is not None:
      shape = [a if a == b else None for a, b in zip(shape, other[1])]
    const, sentinel = None, None
    if value is not None and pure and not (env.unknown_rank or env.feedable):
      if other is None or (other[3] is not None and np.array_equal(value, other[3])):
        const = value
      elif other[3] is not None:
        sentinel = {_SIZES[0]: value, _SIZES[1]: other[3]}
    tensor = op._add_output(shape, dtypes.from_numpy(dtype), const)
    tensor._sentinel = sentinel
    flat.append(tensor)
  if separate_writes and op.writes and not host:
    _separate_writes(op)
  if tree == _NONE:
    return op
  return jax.tree_util.tree_unflatten(tree, flat)


_NONE = jax.tree_util.tree_structure(None)


class OverlayScope:
  """A run's variables with some values replaced; writes stay in this overlay."""

  def __init__(self, scope, overrides):
    self._scope, self.values = scope, dict(overrides)

  def read(self, var):
    value = self.values.get(var._id)
    if value is None:
      return self._scope.read(var)
    return Tensor(value)

  def write(self, var, value):
    self.values[var._id] = value

  def initialized(self, var):
    return var._id in self.values or self._scope.initialized(var)


def _separate_writes(op):
  """Makes `op` output the values it would assign, and an assigning op for each."""
  fn, variables, op.writes = op.fn, op.writes, []

  def writes_as_outputs(*args, **kwargs):
    saved = _ctx.variable_scope
    scope = _ctx.variable_scope = OverlayScope(saved, {})
    try:
      result = fn(*args, **kwargs)
    finally:
      _ctx.variable_scope = saved
    return result, [Tensor(scope.values[v._id]) for v in variables]

  op.fn = writes_as_outputs
  with graph_lib.building().control_dependencies(None):
    op.updates = [record_call(_assign, (var, op._add_output(var.shape, var.dtype.base_dtype)),
                              op_type="AssignVariableOp") for var in variables]


def _assign(var, value):
  var.assign(value)


def record_host_call(fn, args, out_dtypes, single, name=None, op_type="PyFunc", shapes=None,
                     seeds=(), kwargs=None):
  """Records a call that must run on the host with concrete values (a Python function, a
  NumPy draw): never evaluated while building, its outputs have the given dtypes and
  `shapes` (unknown if None); a run that includes it runs eagerly. `seeds`: the op seeds
  of the random draws it makes."""
  graph = graph_lib.building()
  kwargs = kwargs or {}
  inputs = [x for x in graph_leaves(args, kwargs) if isinstance(x, GraphTensor)]
  op = Operation(graph, op_type, graph._op_name(name, op_type), inputs)
  op.fn, op.args, op.kwargs, op.stateful, op.host = fn, args, kwargs, True, True
  op.keys = [context.seeded_key(seed) for seed in seeds]
  shapes = shapes or [None] * len(out_dtypes)
  outputs = [op._add_output(shape, dtype) for shape, dtype in zip(shapes, out_dtypes)]
  if single:
    return outputs[0] if outputs else op
  return outputs


def _op_type(fn, op_names):
  """The TF op type of a call: the one op it ran, else its function's name in CamelCase."""
  if len(op_names) == 1:
    return next(iter(op_names))
  name = getattr(fn, "__name__", "Call").strip("_")
  return name if name[:1].isupper() else "".join(w.capitalize() for w in name.split("_"))


def call_hook(fn, args, kwargs):
  """What an exported function does in graph mode (see the module docstring)."""
  if graph_lib.building() is None or not graph_leaves(args, kwargs):
    return fn(*args, **kwargs)
  return record_call(fn, args, kwargs, name=_name_argument(fn, args, kwargs))


def _name_argument(fn, args, kwargs):
  """The `name` a call passes, by keyword or by position (`tf.identity(x, "y")`)."""
  if "name" in kwargs or not args:
    return kwargs.get("name")
  try:
    return inspect.signature(fn).bind_partial(*args).arguments.get("name")
  except (TypeError, ValueError):
    return None


def recorded(fn, default_name=None):
  """Makes a method (Tensor operator, Variable update) record itself in graph mode."""
  def method(*args, **kwargs):
    if api.graph_mode[0] and graph_lib.building() is not None:
      return record_call(fn, args, kwargs, name=kwargs.get("name") or default_name)
    return fn(*args, **kwargs)
  method.__name__, method.__doc__, method.__wrapped__ = fn.__name__, fn.__doc__, fn
  return method


def record_op(apply, inputs, kwargs):
  """The `@op` path in graph mode: the op applied to graph tensors, recorded (see ops.py)."""
  inputs = [_graph_tensor(t) for t in inputs]
  return record_call(apply, inputs, kwargs, op_type=apply.op_name)


def _graph_tensor(tensor):
  value = tensor._value
  if isinstance(value, graph_lib._Symbolic):
    return value.tensor
  if isinstance(tensor, GraphTensor):
    return tensor
  return constant(tensor)  # an eager tensor made before graph mode began


def constant(tensor, name=None):
  """A Const Operation holding an eager tensor's value (a graph tensor is returned as is)."""
  if isinstance(tensor, GraphTensor):
    return tensor
  graph = graph_lib.building()
  op = Operation(graph, "Const", graph._op_name(name, "Const"), kind="const")
  value = tensor._value
  return op._add_output(tuple(value.shape), tensor.dtype, value)


def placeholder(dtype, shape=None, name=None):
  graph = graph_lib.building()
  op = Operation(graph, "Placeholder", graph._op_name(name, "Placeholder"), kind="placeholder")
  return op._add_output(shape, dtype)


class Builder:
  """A graph's hooks while it is built: `ctx.traced_rng` (a random op's key is a node of
  its own) and `ctx.variable_scope` (a variable read is a node; a new variable gets its
  initializer)."""

  building = True
  op_names = None

  def __init__(self, graph):
    self.graph = graph

  def next(self, op_seed=None):
    op = Operation(self.graph, "RandomSeed", self.graph._op_name(None, "seed"), kind="key")
    op.keys = [context.seeded_key(op_seed)]
    return graph_lib._Symbolic(op._add_output((2,), dtypes.uint32))

  def read(self, var):
    return _as_tf_node(record_call(variable_hooks["read"], (var,), op_type="ReadVariableOp"))

  def write(self, var, value):
    if not isinstance(value, graph_lib._Symbolic):
      value = constant(Tensor(value))._value
    return _as_tf_node(record_call(variable_hooks["write"], (var, value.tensor),
                                   op_type="AssignVariableOp"))

  def variable_created(self, var):
    variable_hooks["created"](self.graph, var)


def _as_tf_node(result):
  """A variable read or write, whose NodeDef is TF's (its inputs: the variable, the value)."""
  (result if isinstance(result, Operation) else result.op).node_attrs = {}
  return result


# Set by the variables' modules (above this layer): read(var) -> Tensor, write(var, tensor),
# created(graph, var) (a new graph variable's initializer and collections).
variable_hooks = {}


@contextlib.contextmanager
def lifted():
  """Graph building at the top level from inside an abstract evaluation (TF's init_scope):
  a variable that a recorded call creates (a layer built on first call) is created in the
  graph, with an initializer of its own; the evaluation then goes on."""
  saved = (_ctx.graph_env, _ctx.variable_scope, _ctx.traced_rng, _ctx.tapes,
           _ctx.recording_paused)
  env, current = _ctx.graph_env, _ctx.variable_scope
  _ctx.graph_env = None
  context.refresh_mode(_ctx)
  # The evaluation's scope passes new variables outwards (through a restore-on-create scope
  # set inside the call); scopes that do not see variables (a traced loop body's) are skipped.
  _ctx.variable_scope = current if hasattr(current, "variable_created") else \
      env.eval_scope._outer
  try:
    # initializers depend on nothing, and compute values, not parts of the outer trace
    with _ctx.graph.control_dependencies(None), jax.ensure_compile_time_eval():
      yield
  finally:
    (_ctx.graph_env, _ctx.variable_scope, _ctx.traced_rng, _ctx.tapes,
     _ctx.recording_paused) = saved


@contextlib.contextmanager
def resolving(env):
  """Eager execution in which graph tensors have their values in `env` (a run's host work
  that builds Python objects from them, such as datasets)."""
  saved = (_ctx.eager_override, _ctx.graph_env, _ctx.graph, _ctx.traced_rng,
           _ctx.variable_scope)
  _ctx.eager_override, _ctx.graph_env = True, None
  context.refresh_mode(_ctx)
  _ctx.graph_env = env
  try:
    yield
  finally:
    (_ctx.eager_override, _ctx.graph_env, _ctx.graph, _ctx.traced_rng,
     _ctx.variable_scope) = saved


# ---- Replay ----
class RunKeys:
  """`ctx.traced_rng` while a recorded call runs: its draws, fresh for each run `counter`."""

  building = False
  op_names = None

  def __init__(self, keys, counter, op_index=0):
    self._keys, self._counter, self._next = keys, counter, 0
    self._base = keys[-1] if keys else np.array([0, op_index], np.uint32)

  def next(self, op_seed=None):
    i, self._next = self._next, self._next + 1
    if i < len(self._keys):
      return jax.random.fold_in(self._keys[i], self._counter)
    # a draw the abstract evaluation did not see (a branch taken only at run time)
    return jax.random.fold_in(jax.random.fold_in(self._base, i), self._counter)


def replay(op, env, scope, counter):
  """Runs a recorded Operation in a run: its outputs' values go into `env`."""
  if op.custom_replay is not None:
    with run_state(env, scope, RunKeys(op.keys, counter, op._index)):
      op.custom_replay(op, env, scope, counter)
    return
  if op.kind == "key":
    env.set(op.outputs[0], jax.random.fold_in(op.keys[0], counter))
    return
  if op.kind in ("const", "placeholder", "variable", "noop"):
    return
  replay_call(op, env, scope, counter)


def replay_call(op, env, scope, counter):
  """Runs the call an Operation recorded: its outputs' values go into `env`."""
  with run_state(env, scope, RunKeys(op.keys, counter, op._index)):
    out = op.fn(*op.args, **op.kwargs)
    values, _ = _flatten_outputs(out, scope)
  it = iter(op.outputs)
  for value, leaf in zip(values, jax.tree_util.tree_leaves(out, is_leaf=_is_leaf)):
    if _is_leaf(leaf):
      env.set(next(it), value)


class RunEnv:
  """Values of graph tensors in one run (fed, computed, or constant)."""

  def __init__(self, values=None):
    self.values = dict(values or {})

  def set(self, tensor, value):
    self.values[tensor._id] = value

  def value(self, tensor):
    value = self.values.get(tensor._id)
    if value is not None:
      return value
    if tensor._const is not None:
      return tensor._const
    raise errors.InternalError(None, None, "%s was not computed in this run (a tfe_compat "
                               "graph bug)." % tensor.name)


_OPERATORS = ["__%s__" % n for n in (
    "add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "div", "rdiv",
    "floordiv", "rfloordiv", "mod", "rmod", "pow", "rpow", "matmul", "rmatmul", "and", "rand",
    "or", "ror", "xor", "rxor", "lt", "le", "gt", "ge", "neg", "abs", "invert", "getitem")]


_OPERATOR_NAMES = {"add": "add", "radd": "add", "sub": "sub", "rsub": "sub", "mul": "mul",
                   "rmul": "mul", "truediv": "truediv", "rtruediv": "truediv", "div": "div",
                   "rdiv": "div", "floordiv": "floordiv", "rfloordiv": "floordiv",
                   "mod": "mod", "rmod": "mod", "pow": "pow", "rpow": "pow", "and": "and",
                   "rand": "and", "or": "or", "ror": "or", "xor": "xor", "rxor": "xor",
                   "getitem": "strided_slice"}  # TF's names of the operators' ops


def install_operators():
  """Tensor operators (installed by the op modules) on graph tensors record one operation,
  named as TF names them (`add`, `mul`, `strided_slice`)."""
  for name in _OPERATORS:
    method = getattr(Tensor, name, None)
    if method is not None:
      setattr(GraphTensor, name, recorded(method, _OPERATOR_NAMES.get(name.strip("_"))))


api.graph_call[0] = call_hook
ops.graph_record[0] = record_op
ops.graph_constant[0] = constant
