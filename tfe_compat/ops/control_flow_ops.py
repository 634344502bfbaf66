"""`tf.cond`, `tf.case`, `tf.switch_case`, `tf.group`, `tf.tuple`, and the tracing helpers of
the loops in functional_ops.py (`tf.while_loop`, `tf.map_fn`, `tf.scan`, `tf.foldl/foldr`).

Eagerly (concrete values) they are TF's eager semantics: plain Python, only the chosen
branch runs, loops run in Python, and the ops inside record on tapes as usual.
Traced (a predicate or loop value is a JAX tracer, e.g. inside `tf.function`):
- `cond` runs both branches (their ops record on tapes normally) and selects each output
  with one `Select` op, as TF's gradient of `tf.where` does. A branch may not assign
  variables (NotImplementedError). `tf.print` / `tf.Assert` inside a branch only fire when
  the branch is taken (see `branch_active`).

Loop bodies are traced into jaxprs by `TracedFunction`; the Tensors they capture from outside
(and the variables they read) become explicit inputs of the loop op, so tapes and JAX
differentiate through them.
"""
import contextlib
import functools
import threading

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat import state_ops
from tfe_compat.framework import context
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops

_ctx = context.ctx


# ---- Tracing helpers shared by the control-flow and functional ops ----
class _State(threading.local):
  def __init__(self):
    super().__init__()
    self.branches = []  # traced predicates of the enclosing traced cond branches
    self.silent = 0     # >0 while a loop body is traced for gradient replay: no prints


_state = _State()


def is_traced(x):
  """Whether `x` (a Tensor, Variable or value) holds a JAX tracer."""
  value = getattr(x, "_value", x)
  return isinstance(value, jax.core.Tracer)


def any_traced(structure):
  return any(is_traced(x) for x in jax.tree_util.tree_leaves(structure))


def branch_active():
  """None outside traced branches; else the traced bool scalar "this branch is taken"."""
  if not _state.branches:
    return None
  return functools.reduce(jnp.logical_and, _state.branches)


def silent():
  """True while side effects (tf.print, tf.Assert) must not be staged."""
  return _state.silent > 0


def when_active(effect):
  """Stages `effect()` (a jax.debug.callback) so it runs only where the branch is taken."""
  if silent():
    return
  active = branch_active()
  if active is None:
    effect()
  else:
    lax.cond(active, effect, lambda: None)


@contextlib.contextmanager
def _branch(pred):
  _state.branches.append(pred)
  try:
    yield
  finally:
    _state.branches.pop()


_WRITE_ERROR = ("%s with variable assignments inside %s is not supported inside tf.function; "
                "run it eagerly or move the assignment out of the %s.")


def _read_outside(var, outer, tapes=None):
  """A read of `var` through the scope `outer` (tapes are told, as for any read)."""
  saved = _ctx.variable_scope, _ctx.tapes
  _ctx.variable_scope = outer
  if tapes is not None:
    _ctx.tapes = tapes
  try:
    return state_ops.read(var)
  finally:
    _ctx.variable_scope, _ctx.tapes = saved


class _NoWrites:
  """Variable scope of a traced cond branch: reads pass through, writes are refused."""

  def __init__(self, outer, what):
    self._outer, self._what = outer, what

  def read(self, var):
    return _read_outside(var, self._outer)

  def write(self, var, value):
    if not getattr(_ctx.graph_env, "abstract", False):
      raise NotImplementedError(_WRITE_ERROR % self._what)
    self._outer.write(var, value)  # a graph's abstract evaluation notes the write


class _Capture:
  """A pseudo-tape: notes the Tensors created before `first_id` that ops consume."""

  def __init__(self, first_id):
    self.first_id = first_id
    self.tensors = {}

  def record_operation(self, op_fn, kwargs, inputs, outputs):
    for t in inputs:
      if t._id < self.first_id and getattr(t._value, "dtype", None) != object:
        self.tensors.setdefault(t._id, t)  # strings cannot enter a JAX computation


class _BodyScope:
  """Variable scope of a traced loop body.

  On the first trace a read goes outside (real tapes see it) and is remembered; while the
  body is traced into its jaxpr, reads return the traced value passed in for the variable.
  """

  def __init__(self, outer, tapes, what):
    self.outer, self.tapes, self.what = outer, tapes, what
    self.reads = {}      # var _id -> (var, Tensor read outside)
    self.values = None   # var _id -> traced array, while tracing the jaxpr

  def read(self, var):
    if self.values is not None and var._id in self.values:
      return Tensor(self.values[var._id])
    hit = self.reads.get(var._id)
    if hit is None:
      hit = self.reads[var._id] = (var, _read_outside(var, self.outer, self.tapes))
    return hit[1]

  def write(self, var, value):
    if not getattr(_ctx.graph_env, "abstract", False):
      raise NotImplementedError(_WRITE_ERROR % self.what)
    self.outer.write(var, value)  # a graph's abstract evaluation notes the write


@contextlib.contextmanager
def _tracing(tapes, scope, paused=0):
  saved = _ctx.tapes, _ctx.variable_scope, _ctx.recording_paused
  _ctx.tapes, _ctx.variable_scope, _ctx.recording_paused = tapes, scope, paused
  try:
    yield
  finally:
    _ctx.tapes, _ctx.variable_scope, _ctx.recording_paused = saved


@contextlib.contextmanager
def _swapped(tensors, values):
  """Temporarily gives captured Tensors traced values (restored afterwards)."""
  old = [t._value for t in tensors]
  for t, v in zip(tensors, values):
    t._value = v
  try:
    yield
  finally:
    for t, v in zip(tensors, old):
      t._value = v


def _aval(x):
  return jax.ShapeDtypeStruct(x.shape, x.dtype)


class TracedFunction:
  """`fn` (a list of Tensors -> a list of Tensors) as a pure function of arrays.

  `captured` lists the outside Tensors fn's ops consume and the variables' values it reads:
  pass their values as `caps` to `call(args, caps, key)`. `out_avals` are the output shapes.
  `random` tells whether fn's random ops draw from `key` (a raw PRNG key; a loop passes a
  fresh one per iteration). Variable writes inside raise NotImplementedError naming `what`.
  """

  _NO_KEY = np.zeros(2, np.uint32)

  def __init__(self, fn, in_avals, what):
    self._fn, self._in_avals, self._what = fn, list(in_avals), what
    self.random = False
    first_id = Tensor(None)._id
    capture = _Capture(first_id)
    scope = _BodyScope(_ctx.variable_scope, list(_ctx.tapes), what)
    with _tracing([capture], scope):
      self.out_avals = jax.eval_shape(self._run, self._in_avals, _aval(self._NO_KEY))
    self._tensors = list(capture.tensors.values())
    self._reads = list(scope.reads.values())
    self.captured = self._tensors + [t for _, t in self._reads]
    self._scope = scope
    self._jaxprs = {}

  def _run(self, args, key):
    outer, keys = _ctx.traced_rng, context.TracedKeys(key)
    _ctx.traced_rng = keys
    try:
      out = [ops.convert_to_tensor(t)._value for t in self._fn([Tensor(a) for a in args])]
    finally:
      _ctx.traced_rng = outer
    self.random = self.random or keys.used
    return out

  def _pure(self, args, caps, key):
    n = len(self._tensors)
    self._scope.values = {var._id: v for (var, _), v in zip(self._reads, caps[n:])}
    try:
      with _swapped(self._tensors, caps[:n]), _tracing([], self._scope):
        return self._run(args, key)
    finally:
      self._scope.values = None

  def _jaxpr(self):
    quiet = _ctx.recording_paused > 0  # a tape replays it: no prints or checks again
    hit = self._jaxprs.get(quiet)
    if hit is None:
      _state.silent += quiet
      try:
        hit = self._jaxprs[quiet] = jax.make_jaxpr(self._pure)(
            self._in_avals, [_aval(t._value) for t in self.captured], _aval(self._NO_KEY))
      finally:
        _state.silent -= quiet
    return hit

  def call(self, args, caps, key=None):
    closed = self._jaxpr()
    return jax.core.eval_jaxpr(closed.jaxpr, closed.consts, *args, *caps,
                               self._NO_KEY if key is None else key)


def flatten(structure):
  """Leaves (Tensors, Variables, Python values) and treedef of a nested structure."""
  return jax.tree_util.tree_flatten(structure, is_leaf=lambda x: hasattr(x, "_as_tensor"))


def structure_error(first, second):
  return ValueError("The two structures don't have the same nested structure.\n\n"
                    "First structure: %s\n\nSecond structure: %s" % (first, second))


def _unpack_singleton(x):
  return x[0] if isinstance(x, (list, tuple)) and len(x) == 1 else x


# ---- tf.cond ----
@ops.op(name="Select")
def _select(pred, a, b):
  return jnp.where(pred, a, b)


def _traced_branch(fn, pred, what):
  with _branch(pred), _tracing(_ctx.tapes, _NoWrites(_ctx.variable_scope, what),
                               _ctx.recording_paused):
    return fn()


def select_outputs(pred, first, second, what="tf.cond"):
  """One `Select` per output leaf: `first` where the traced `pred` holds, else `second`."""
  leaves_a, tree_a = flatten(first)
  leaves_b, tree_b = flatten(second)
  if tree_a != tree_b:
    raise ValueError("true_fn and false_fn arguments to %s must have the same number, type, "
                     "and overall structure of return values.\n\n%s" %
                     (what, structure_error(first, second)))
  out = []
  for a, b in zip(leaves_a, leaves_b):
    a, b = ops.convert_to_tensor(a), ops.convert_to_tensor(b)
    if a.dtype is not b.dtype:
      raise TypeError("Outputs of true_fn and false_fn must have the same type(s). Received "
                      "%s from true_fn and %s from false_fn." % (a.dtype.name, b.dtype.name))
    if a._value.shape != b._value.shape:
      raise ValueError("Outputs of true_fn and false_fn must have the same shape inside a "
                       "compiled function: %s vs. %s (shapes that depend on the branch need "
                       "eager execution)." % (a.shape, b.shape))
    p = Tensor(pred) if not isinstance(pred, Tensor) else pred
    out.append(_select(p, a, b))
  return jax.tree_util.tree_unflatten(tree_a, out)


def _as_pred(pred):
  if hasattr(pred, "_as_tensor"):
    pred = pred._as_tensor(None)
  return pred


@export("cond")
def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
  """`tf.cond`: `true_fn()` if `pred` else `false_fn()` (both traced, see module doc)."""
  true_fn = fn1 if true_fn is None else true_fn
  false_fn = fn2 if false_fn is None else false_fn
  if true_fn is None:
    raise TypeError("cond(): 'true_fn' argument required")
  if false_fn is None:
    raise TypeError("cond(): 'false_fn' argument required")
  if not callable(true_fn):
    raise TypeError("'true_fn' must be callable.")
  if not callable(false_fn):
    raise TypeError("'false_fn' must be callable.")
  pred = _as_pred(pred)
  if not is_traced(pred):
    result = true_fn() if pred else false_fn()
    return result if strict else _unpack_singleton(result)
  value = pred._value if isinstance(pred, Tensor) else pred
  if value.ndim:
    raise ValueError("Shape must be rank 0 but is rank %d for 'cond' (pred)." % value.ndim)
  value = value.astype(bool)
  first = _traced_branch(true_fn, value, ("tf.cond", "a branch", "branch"))
  second = _traced_branch(false_fn, jnp.logical_not(value), ("tf.cond", "a branch", "branch"))
  if not strict:
    first, second = _unpack_singleton(first), _unpack_singleton(second)
  return select_outputs(Tensor(value), first, second)


# ---- tf.case / tf.switch_case ----
def _case_pairs(pred_fn_pairs, exclusive):
  if not isinstance(pred_fn_pairs, (list, tuple, dict)):
    raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. Received: %s"
                    % type(pred_fn_pairs))
  if isinstance(pred_fn_pairs, dict):
    if not exclusive and type(pred_fn_pairs) is dict:  # pylint: disable=unidiomatic-typecheck
      raise ValueError("Unordered dictionaries are not supported for the 'pred_fn_pairs' "
                       "argument when `exclusive=False` and eager mode is enabled.")
    pred_fn_pairs = list(pred_fn_pairs.items())
  for pair in pred_fn_pairs:
    if not isinstance(pair, tuple) or len(pair) != 2:
      raise TypeError("Each entry in 'pred_fn_pairs' must be a 2-tuple. Received %s." % (pair,))
    pred, fn = pair
    pred = _as_pred(pred)
    if not isinstance(pred, Tensor):
      raise TypeError("pred must be a Tensor, got: %s" % (pred,))
    if pred.dtype.name != "bool":
      raise TypeError("pred must be Tensor of type bool, got %s" % pred.dtype.name)
    if not callable(fn):
      raise TypeError("fn for pred %s must be callable." % (pred,))
  predicates, actions = zip(*pred_fn_pairs)
  return [_as_pred(p) for p in predicates], list(actions)


@ops.op(name="LessEqual", differentiable=False)
def _at_most_true(stacked, *, n):
  return jnp.sum(stacked.astype(jnp.int32)) <= n


def _assert_at_most(predicates, n, msg):
  from tfe_compat.ops import check_ops  # pylint: disable=import-outside-toplevel
  stacked = ops.stack(*predicates, axis=0)
  check_ops.Assert(_at_most_true(stacked, n=n), [
      "%s: more than %d conditions (%s) evaluated as True:"
      % (msg, n, ", ".join("?" for _ in predicates)), stacked], summarize=len(predicates))


@export("case")
def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
  """`tf.case`: the action of the first true predicate (nested `tf.cond`s, as TF builds)."""
  predicates, actions = _case_pairs(pred_fn_pairs, exclusive)
  if default is None:
    all_preds, last_pred, last_action = list(predicates), predicates[-1], actions[-1]

    def default():  # pylint: disable=function-redefined
      from tfe_compat.ops import check_ops  # pylint: disable=import-outside-toplevel
      check_ops.Assert(last_pred, ["Input error: None of conditions evaluated as True:",
                                   ops.stack(*all_preds, axis=0)])
      return last_action()
    predicates, actions = predicates[:-1], actions[:-1]
  fn = default
  for predicate, action in reversed(list(zip(predicates, actions))):
    fn = functools.partial(cond, predicate, action, fn, strict)
  if exclusive and predicates:  # TF checks the predicates left after picking the default
    _assert_at_most(predicates, 1, "Input error: exclusive=True")
  return fn()


@export("switch_case")
def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
  """`tf.switch_case`: `branch_fns[branch_index]()`, out of range -> `default` (or the last)."""
  branch_index = _as_pred(branch_index)
  if not isinstance(branch_index, Tensor):
    raise TypeError("'branch_index' must be a Tensor, got %s" % type(branch_index))
  if not branch_index.dtype.is_integer:
    raise TypeError("'branch_index' must be an integer Tensor, got %r" % branch_index.dtype)
  if not branch_fns:
    raise ValueError("Must provide at least one item in 'branch_fns'")
  if not isinstance(branch_fns, (list, tuple, dict)):
    raise TypeError("'branch_fns' must be a list, tuple, or dict")
  pairs = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
  if all(callable(fn) for fn in pairs):
    pairs = list(enumerate(pairs))
  for pair in pairs:
    if not isinstance(pair, tuple) or len(pair) != 2:
      raise TypeError("Each entry in 'branch_fns' must be a 2-tuple. Received %s." % (pair,))
    if not isinstance(pair[0], int):
      raise TypeError("key must be a Python `int`, got %s" % type(pair[0]))
    if not callable(pair[1]):
      raise TypeError("fn for key %d must be callable." % pair[0])
  keys = [k for k, _ in pairs]
  if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
    raise ValueError("branch indices (keys) must form contiguous range of [0 to %d) but "
                     "found {%s}" % (len(keys), ",".join(map(str, sorted(keys)))))
  fns = [fn for _, fn in sorted(pairs, key=lambda p: p[0])]
  if default is not None:
    fns.append(default)
  if branch_index._value.ndim:
    raise errors.invalid_argument("branch_index must be a scalar, got shape %s"
                                  % branch_index.shape)
  if not is_traced(branch_index):
    index = int(branch_index)
    return fns[index if 0 <= index < len(fns) else -1]()
  index = branch_index._value
  fn = fns[-1]
  for i in reversed(range(len(fns) - 1)):
    fn = functools.partial(cond, Tensor(index == i), fns[i], fn)
  return fn()


# ---- tf.group / tf.tuple ----
@export("group")
def group(*inputs, name=None):
  """`tf.group`: an operation that runs `inputs` (operations or tensors) in graph mode;
  None when executing eagerly (ops have already run, in program order)."""
  graph = graph_lib.building()
  if graph is None:
    return None
  with graph.control_dependencies([x for x in _flat(inputs) if x is not None]):
    return graph_lib.Operation(graph, "NoOp", graph._op_name(name, "NoOp"), kind="noop")


def _flat(items):
  for item in items:
    if isinstance(item, (list, tuple)):
      yield from _flat(item)
    elif isinstance(item, dict):
      yield from _flat(list(item.values()))
    else:
      yield item


@export("no_op")
def no_op(name=None):
  """An operation that does nothing (None when executing eagerly)."""
  return group(name=name)


@export("tuple")
def tuple_(tensors, name=None, control_inputs=None):
  """`tf.tuple`: in graph mode, each tensor through an identity that waits for all of them
  (and `control_inputs`); the tensors themselves when executing eagerly."""
  graph = graph_lib.building()
  if graph is None:
    return tensors
  gate = group(*(list(tensors) + list(control_inputs or [])))
  with graph.control_dependencies([gate]):
    return [None if t is None else array_ops.identity(t) for t in tensors]

