"""`tf.while_loop`, `tf.map_fn`, `tf.scan`, `tf.foldl`, `tf.foldr`.

Eagerly they loop in Python (TF's eager semantics; ops inside record on tapes). When a loop
value is traced (inside `tf.function`) each becomes one op running a `lax` loop over the
user function traced once into a jaxpr (`control_flow_ops.TracedFunction`): `lax.scan` for
map_fn/scan/foldl/foldr and for `while_loop` with `maximum_iterations` (differentiable);
`lax.while_loop` otherwise (forward only: its gradient raises NotImplementedError). Random
ops in the functions draw from a PRNG key the loop carries, new in every iteration.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.control_flow_ops import (TracedFunction, any_traced, flatten, is_traced,
                                             structure_error)
from tfe_compat.ops.tensor_array_ops import TensorArray

_WHILE_GRADIENT_ERROR = (
    "Gradients through tf.while_loop inside a compiled function (tf.function) need "
    "`maximum_iterations`: an unbounded loop (lax.while_loop) is not reverse-differentiable. "
    "Pass maximum_iterations=<an upper bound on the iteration count>.")


class _Spec:
  """Static description of one traced loop (hashed by identity)."""

  def __init__(self, **kwargs):
    self.__dict__.update(kwargs)


def _normalize(outputs, like):
  """Body outputs cast to the loop's own array types (drops weak types)."""
  return tuple(lax.convert_element_type(o, a.dtype) for o, a in zip(outputs, like))


# ---- tf.while_loop ----
def _fold(key, data):
  """A key derived from `key` (None: the functions draw nothing)."""
  return None if key is None else jax.random.fold_in(key, data)


def _split_key(spec, arrays):
  """(the loop's PRNG key or None, the other arrays): a key comes last when fns draw."""
  return (arrays[-1], arrays[:-1]) if spec.random else (None, arrays)


def _run_while(spec, *arrays):
  key, arrays = _split_key(spec, arrays)
  n, nc = spec.n_vars, spec.n_cond_caps
  carry, caps_c, caps_b = tuple(arrays[:n]), arrays[n:n + nc], arrays[n + nc:]

  def cond_fn(state):  # (loop variables, key): each iteration draws from its own keys
    return spec.cond.call(state[0], caps_c, _fold(state[1], 1))[0]

  def body_fn(state):
    c, k = state
    return _normalize(spec.body.call(c, caps_b, _fold(k, 2)), c), _fold(k, 0)

  if spec.length is None:
    return lax.while_loop(cond_fn, body_fn, (carry, key))[0]

  def step(state, _):
    done, c = state
    go = jnp.logical_and(jnp.logical_not(done), cond_fn(c))
    return (jnp.logical_not(go), lax.cond(go, body_fn, lambda x: x, c)), None

  (_, (carry, _)), _ = lax.scan(step, (jnp.zeros((), bool), (carry, key)), None,
                                length=spec.length)
  return carry


def _unbounded_fwd(spec, *arrays):
  return _run_while(spec, *arrays), None


def _unbounded_bwd(spec, residuals, cotangents):
  raise NotImplementedError(_WHILE_GRADIENT_ERROR)


_unbounded_while = jax.custom_vjp(_run_while, nondiff_argnums=(0,))
_unbounded_while.defvjp(_unbounded_fwd, _unbounded_bwd)


def _while_impl(*arrays, spec):
  if spec.length is None and spec.back_prop:
    return tuple(_unbounded_while(spec, *arrays))
  out = tuple(_run_while(spec, *arrays))
  return out if spec.back_prop else tuple(lax.stop_gradient(o) for o in out)


_while_op = ops.op(_while_impl, name="While", jit=False)
_while_op_no_grad = ops.op(_while_impl, name="While", jit=False, differentiable=False)


def _loop_key(spec):
  """The loop op's key input: a fresh PRNG key when its functions draw, else none."""
  return [ops.convert_to_tensor(context.next_rng_key())] if spec.random else []


def _same_top_level(out, like):
  if type(out) in (list, tuple) and type(like) in (list, tuple):
    return type(like)(out)
  return out


def _loop_values(leaves):
  """Loop variables as the Tensors a compiled loop carries (a TensorArray: its buffer)."""
  return [x.loop_value() if isinstance(x, TensorArray) else ops.convert_to_tensor(x)
          for x in leaves]


def _loop_state(treedef, like, values):
  """The loop state of carried `values`, TensorArrays rebuilt like those in `like`."""
  return jax.tree_util.tree_unflatten(treedef, [
      x.with_buffer(v) if isinstance(x, TensorArray) else v for x, v in zip(like, values)])


def _infer_element_shapes(body, call, leaves, treedef, what):
  """Gives the TensorArrays among the loop variables that have no element shape yet the
  shape the body writes (one abstract run of the body with probing copies)."""
  arrays = [x for x in leaves if isinstance(x, TensorArray)]
  if all(a.element_shape.is_fully_defined() for a in arrays):
    return
  probes = {id(a): a.probe() for a in arrays}
  others = [ops.convert_to_tensor(x) for x in leaves if id(x) not in probes]

  def probe_body(flat):
    values = iter(flat)
    call(body, jax.tree_util.tree_unflatten(treedef, [
        probes[id(x)] if id(x) in probes else next(values) for x in leaves]))
    return []
  TracedFunction(probe_body, [jax.ShapeDtypeStruct(t._value.shape, t._value.dtype)
                              for t in others], what)
  for a in arrays:
    a._element_shape = a.element_shape.merge_with(probes[id(a)].element_shape)


def _traced_while(cond, body, state, call, pack, length, back_prop):
  """Runs the rest of a while loop as one `While` op; `state` is the current loop state."""
  leaves, treedef = flatten(state)
  what = ("tf.while_loop", "its body", "loop")
  _infer_element_shapes(body, call, leaves, treedef, what)
  init = _loop_values(leaves)
  avals = [jax.ShapeDtypeStruct(t._value.shape, t._value.dtype) for t in init]

  def cond_fn(flat):
    return [ops.convert_to_tensor(call(cond, _loop_state(treedef, leaves, flat)))]

  def body_fn(flat):
    out = call(body, _loop_state(treedef, leaves, flat))
    if pack and not isinstance(out, (list, tuple)):
      out = (out,)
      packed.append(True)
    out_leaves, out_tree = flatten(_same_top_level(out, state))
    if out_tree != treedef:
      raise structure_error(state, out)
    result = []
    for value, t in zip(_loop_values(out_leaves), flat):
      value = ops.convert_to_tensor(value, preferred_dtype=t.dtype)
      if value.dtype is not t.dtype:
        raise TypeError("Loop variable enters the loop with type %s, but has type %s after "
                        "one iteration." % (t.dtype.name, value.dtype.name))
      if value._value.shape != t._value.shape:
        raise ValueError("Input tensor enters the loop with shape %s, but has shape %s after "
                         "one iteration. Loops whose variables change shape need eager "
                         "execution (shape_invariants are not supported when compiled)."
                         % (t.shape, value.shape))
      result.append(value)
    return result

  packed = []
  traced_cond = TracedFunction(cond_fn, avals, what)
  if traced_cond.out_avals[0].shape:
    raise ValueError("Shape must be rank 0 but is rank %d for tf.while_loop's cond"
                     % len(traced_cond.out_avals[0].shape))
  traced_body = TracedFunction(body_fn, avals, what)
  spec = _Spec(cond=traced_cond, body=traced_body, n_vars=len(init), length=length,
               n_cond_caps=len(traced_cond.captured), back_prop=back_prop,
               random=traced_cond.random or traced_body.random)
  op_fn = _while_op if back_prop else _while_op_no_grad
  out = op_fn(*init, *traced_cond.captured, *traced_body.captured, *_loop_key(spec), spec=spec)
  return _loop_state(treedef, leaves, out if isinstance(out, list) else [out]), bool(packed)


def _with_counter(cond, body, state, call, limit):
  """A traced `maximum_iterations`: the counter becomes one more loop variable."""
  def counted_cond(pair):
    return (pair[0] < limit) & ops.convert_to_tensor(call(cond, pair[1]))

  def counted_body(pair):
    return (pair[0] + 1, _same_top_level(call(body, pair[1]), pair[1]))
  return counted_cond, counted_body, (ops.convert_to_tensor(0, dtype=limit.dtype), state)


def _compiled_only(state):
  """Whether the loop state holds values only known when compiled (a jit trace); values
  being differentiated eagerly (`jax.vjp` outside jit) are concrete: the loop runs in
  Python, so its gradient needs no iteration bound (a graph's eager run)."""
  return any(is_traced(x) and getattr(x, "_value", x).to_concrete_value() is None
             for x in jax.tree_util.tree_leaves(state))


@export("while_loop")
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
  """`tf.while_loop`: `while cond(*loop_vars): loop_vars = body(*loop_vars)`."""
  if loop_vars is None or (isinstance(loop_vars, (list, tuple)) and not loop_vars):
    raise ValueError("'loop_vars' must be provided.")
  if not isinstance(loop_vars, (list, tuple)):
    raise TypeError("'loop_vars' must be a list or tuple of loop variables, got %s"
                    % type(loop_vars).__name__)
  if not callable(cond):
    raise TypeError("'cond' must be callable.")
  if not callable(body):
    raise TypeError("'body' must be callable.")
  if parallel_iterations < 1:
    raise TypeError("'parallel_iterations' must be a positive integer.")
  limit = None
  if isinstance(maximum_iterations, (int, np.integer)):
    limit = int(maximum_iterations)
  elif maximum_iterations is not None:
    limit = ops.convert_to_tensor(maximum_iterations)
    if limit._value.ndim:
      raise ValueError("'maximum_iterations' must be a scalar. Received shape: %s"
                       % (limit.shape,))
  # With maximum_iterations, TF carries (counter, loop_vars) and returns loop_vars (a single
  # loop variable unwrapped); without, a single variable's body may return it unwrapped.
  single = limit is not None and len(loop_vars) == 1
  state = loop_vars[0] if single else loop_vars
  pack = limit is None and len(loop_vars) == 1
  packed = False

  def call(fn, s):
    return fn(s) if single else fn(*s)

  count = 0
  while True:
    if is_traced(limit):
      c_cond, c_body, c_state = _with_counter(cond, body, state, call, limit)
      state = _traced_while(c_cond, c_body, c_state, lambda f, s: f(s), False, None,
                            back_prop)[0][1]
      break
    bound = None if limit is None else int(limit) - count
    if bound is not None and bound <= 0:
      break
    go = None if _compiled_only(state) else call(cond, state)
    if go is None or is_traced(go):
      state, now_packed = _traced_while(cond, body, state, call, pack, bound, back_prop)
      packed = packed or now_packed
      break
    if not go:
      break
    out = call(body, state)
    if pack and not isinstance(out, (list, tuple)):
      packed, out = True, (out,)
    if not single and len(jax.tree_util.tree_leaves(list(out))) != len(
        jax.tree_util.tree_leaves(list(state))):
      raise structure_error(state, out)
    state = out
    count += 1
  result = jax.tree_util.tree_map(
      lambda x: x if isinstance(x, TensorArray) else ops.convert_to_tensor(x), state,
      is_leaf=lambda x: hasattr(x, "_as_tensor"))
  return result[0] if packed else result


# ---- map_fn / scan / foldl / foldr ----
@ops.op(name="Unpack")
def _unstack(x, *, num):
  return tuple(x[i] for i in range(num))


def _rows(tensor, n):
  if n == 0:
    return []
  rows = _unstack(tensor, num=n)
  return rows if isinstance(rows, list) else [rows]


def _elements(elems, unchecked_lengths=False):
  """(flat element Tensors, treedef, n) with TF's checks on the leading dimension; with
  `unchecked_lengths` (scan, foldl/foldr) different lengths fail as TF's TensorArray reads."""
  leaves, tree = flatten(elems)
  flat = [ops.convert_to_tensor(e) for e in leaves]
  if not flat:
    raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. "
                     "Got %s" % (elems,))
  if any(e._value.ndim == 0 for e in flat):
    raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
  n = flat[0]._value.shape[0]
  for e in flat[1:]:
    if e._value.shape[0] == n:
      continue
    if unchecked_lengths:  # TF reads its TensorArrays
      shortest = min(f._value.shape[0] for f in flat)
      raise errors.OutOfRangeError(None, None, "Tried to read from index %d but array size "
                                   "is: %d" % (shortest, shortest))
    raise ValueError("Dimensions %d and %d are not compatible" % (n, e._value.shape[0]))
  return flat, tree, n


def _written(values, tree, dtype_flat, shapes, structure):
  """fn's result written to the TensorArrays: structure, dtype and shape checks."""
  leaves, out_tree = flatten(values)
  if out_tree != tree:
    raise structure_error(structure, values)
  out = []
  for i, (v, dt) in enumerate(zip(leaves, dtype_flat)):
    t = ops.convert_to_tensor(v, preferred_dtype=dt)
    if t.dtype is not dt:
      raise errors.invalid_argument("TensorArray dtype is %s but Op is trying to write dtype "
                                    "%s " % (dt.name, t.dtype.name))
    if shapes[i] is None:
      shapes[i] = t._value.shape
    elif shapes[i] != t._value.shape:
      raise ValueError("Incompatible shape for value (%s), expected (%s)"
                       % (tuple(t._value.shape), tuple(shapes[i])))
    out.append(t)
  return out


def _stacked(columns, dtype_flat, shapes):
  return [ops.stack(*col, axis=0) if col else
          Tensor(jnp.zeros((0,) + tuple(shape or ()), dt.as_numpy_dtype))
          for col, dt, shape in zip(columns, dtype_flat, shapes)]


def _scan_impl(*arrays, spec):
  key, arrays = _split_key(spec, arrays)
  na, ne = spec.n_acc, spec.n_elems
  init, xs, caps = tuple(arrays[:na]), tuple(arrays[na:na + ne]), arrays[na + ne:]
  if spec.first_as_init:
    init = tuple(x[-1] if spec.reverse else x[0] for x in xs)
    xs = tuple(x[:-1] if spec.reverse else x[1:] for x in xs)

  def step(state, x):  # (accumulators, key): each step draws from its own key
    carry, k = state
    out = spec.fn.call(list(carry) + list(x), caps, _fold(k, 1))
    if spec.mode == "map":
      return (carry, _fold(k, 0)), tuple(out)
    new = _normalize(out, carry)
    return (new, _fold(k, 0)), (new if spec.mode == "scan" else ())

  (carry, _), ys = lax.scan(step, (init, key), xs, reverse=spec.reverse)
  if spec.mode == "fold":
    out = tuple(carry)
  elif spec.first_as_init:
    out = tuple(jnp.concatenate([y, i[None]] if spec.reverse else [i[None], y])
                for y, i in zip(ys, init))
  else:
    out = tuple(ys)
  return out if spec.back_prop else tuple(lax.stop_gradient(o) for o in out)


_scan_op = ops.op(_scan_impl, name="Scan", jit=False)
_scan_op_no_grad = ops.op(_scan_impl, name="Scan", jit=False, differentiable=False)


def _traced_scan(step, acc, acc_tree, elems_flat, elems_tree, mode, first_as_init, reverse,
                 back_prop, what):
  """One `Scan` op: `step(acc structure, element structure)` -> flat list of Tensors."""
  acc_avals = [jax.ShapeDtypeStruct(t._value.shape, t._value.dtype) for t in acc]
  x_avals = [jax.ShapeDtypeStruct(t._value.shape[1:], t._value.dtype) for t in elems_flat]
  if first_as_init:
    acc_avals = x_avals
  na = len(acc_avals)

  def flat_step(flat):
    return step(jax.tree_util.tree_unflatten(acc_tree, flat[:na]),
                jax.tree_util.tree_unflatten(elems_tree, flat[na:]))

  traced = TracedFunction(flat_step, acc_avals + x_avals, (what, "its fn", "loop"))
  if mode != "map":
    for out, a in zip(traced.out_avals, acc_avals):
      if out.dtype != a.dtype:
        raise TypeError("%s: fn changes the accumulator's dtype from %s to %s."
                        % (what, a.dtype, out.dtype))
      if out.shape != a.shape:
        raise ValueError("%s: fn changes the accumulator's shape from %s to %s; that needs "
                         "eager execution." % (what, a.shape, out.shape))
  spec = _Spec(fn=traced, n_acc=0 if first_as_init else na, n_elems=len(elems_flat),
               mode=mode, first_as_init=first_as_init, reverse=reverse, back_prop=back_prop,
               random=traced.random)
  op_fn = _scan_op if back_prop else _scan_op_no_grad
  out = op_fn(*([] if first_as_init else acc), *elems_flat, *traced.captured, *_loop_key(spec),
              spec=spec)
  return out if isinstance(out, list) else [out]


def _check_fn(fn):
  if not callable(fn):
    raise TypeError("'fn' must be callable.")


@export("map_fn")
def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True,
           swap_memory=False, infer_shape=True, name=None):
  """`tf.map_fn`: `fn` applied to each row of `elems` (nested), the results stacked."""
  _check_fn(fn)
  elems_flat, elems_tree, n = _elements(elems)
  if dtype is None:
    out_structure, out_tree = elems, elems_tree
    dtype_flat = [e.dtype for e in elems_flat]
  else:
    out_structure = dtype
    leaves, out_tree = jax.tree_util.tree_flatten(dtype)
    dtype_flat = [dtypes.as_dtype(d) for d in leaves]
  shapes = [None] * len(dtype_flat)

  def apply(x):
    return _written(fn(x), out_tree, dtype_flat, shapes, out_structure)

  if any_traced(elems_flat):
    out = _traced_scan(lambda acc, x: apply(x), [], jax.tree_util.tree_structure(()),
                       elems_flat, elems_tree, "map", False, False, back_prop, "tf.map_fn")
    return jax.tree_util.tree_unflatten(out_tree, out)
  rows = [_rows(e, n) for e in elems_flat]
  columns = [[] for _ in dtype_flat]
  for i in range(n):
    for col, t in zip(columns, apply(jax.tree_util.tree_unflatten(elems_tree,
                                                                  [r[i] for r in rows]))):
      col.append(t)
  return jax.tree_util.tree_unflatten(out_tree, _stacked(columns, dtype_flat, shapes))


def _accumulate(fn, elems, initializer, reverse, mode, back_prop, what):
  """scan (mode "scan": every accumulator, stacked) and foldl/foldr (mode "fold": the last)."""
  _check_fn(fn)
  elems_flat, elems_tree, n = _elements(elems, unchecked_lengths=True)
  first_as_init = initializer is None
  if first_as_init:
    if n == 0:  # TF reads the first element of an empty TensorArray
      raise errors.OutOfRangeError(None, None,
                                   "Tried to read from index 0 but array size is: 0")
    acc_structure, acc_tree = elems, elems_tree
    acc_flat = None
  else:
    leaves, acc_tree = flatten(initializer)
    acc_flat = [ops.convert_to_tensor(x) for x in leaves]
    acc_structure = initializer
  if any_traced(elems_flat) or (acc_flat is not None and any_traced(acc_flat)):
    def step(acc, x):
      leaves, tree = flatten(fn(acc, x))
      if tree != acc_tree:
        raise structure_error(acc_structure, jax.tree_util.tree_unflatten(tree, leaves))
      return [ops.convert_to_tensor(v) for v in leaves]
    out = _traced_scan(step, acc_flat or [], acc_tree, elems_flat, elems_tree, mode,
                       first_as_init, reverse, back_prop, what)
    return jax.tree_util.tree_unflatten(acc_tree, out)
  rows = [_rows(e, n) for e in elems_flat]
  order = list(range(n))[::-1] if reverse else list(range(n))
  if first_as_init:
    acc_flat = [r[order[0]] for r in rows]
    order = order[1:]
  dtype_flat = [t.dtype for t in acc_flat]
  shapes = [t._value.shape for t in acc_flat] if mode == "scan" else [None] * len(acc_flat)
  history = {} if not first_as_init else {(n - 1 if reverse else 0): acc_flat}
  acc = acc_flat
  for i in order:
    out = fn(jax.tree_util.tree_unflatten(acc_tree, acc),
             jax.tree_util.tree_unflatten(elems_tree, [r[i] for r in rows]))
    if mode == "scan":
      acc = _written(out, acc_tree, dtype_flat, shapes, acc_structure)
      history[i] = acc
    else:
      leaves, tree = flatten(out)
      if tree != acc_tree:
        raise structure_error(acc_structure, out)
      acc = [ops.convert_to_tensor(v) for v in leaves]
  if mode == "fold":
    return jax.tree_util.tree_unflatten(acc_tree, acc)
  columns = [[history[i][j] for i in range(n)] for j in range(len(dtype_flat))]
  return jax.tree_util.tree_unflatten(acc_tree, _stacked(columns, dtype_flat, shapes))


@export("scan")
def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
  """`tf.scan`: the accumulators `a = fn(a, x)` over the rows of `elems`, stacked."""
  return _accumulate(fn, elems, initializer, reverse, "scan", back_prop, "tf.scan")


@export("foldl")
def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
  """`tf.foldl`: `a = fn(a, x)` over the rows of `elems` from the first; the last `a`."""
  return _accumulate(fn, elems, initializer, False, "fold", back_prop, "tf.foldl")


@export("foldr")
def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
  """`tf.foldr`: `a = fn(a, x)` over the rows of `elems` from the last; the last `a`."""
  return _accumulate(fn, elems, initializer, True, "fold", back_prop, "tf.foldr")
