"""`tf.GradientTape`: records ops, then replays them under one cached `jit(vjp)`.

Each recorded op is `(impl, static attributes, input Tensors, output ids)`, where `impl` is the
op's pure JAX function. `gradient()` prunes the record to the ops between sources and
targets, numbers every value (sources, then constants, then op outputs) and differentiates
that *program*: from the values each op saw when it ran (each op's VJP at its recorded
inputs, in reverse; no forward computation runs again), or, while an outer tape records
the gradient for a higher order, by replaying it from the sources under `jax.vjp`.
Programs are cached by structure (`program_cache.LRU`): a small one's first sighting runs
uncompiled, later ones (and big ones at once) run a jitted pullback, so a training loop
compiles its backward pass once. Which sources the targets really depend on comes from dead-code
elimination of the program's jaxpr, so an identically-zero derivative is `None`, as in TF.
An inner `gradient()` seen by an outer tape is recorded there as one op, giving higher orders.
"""
import contextlib
import enum
import functools
import logging

import jax
import jax.numpy as jnp
import numpy as np
from jax._src.interpreters import partial_eval as pe
from jax.extend import core as jax_core

from tfe_compat.framework import context
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import ops
from tfe_compat.framework import program_cache
from tfe_compat.ops import gradients_impl
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor

_ctx = context.ctx
_log = logging.getLogger("tensorflow")
_INEXACT = frozenset(np.dtype(d) for d in (
    np.float16, jnp.bfloat16, np.float32, np.float64, np.complex64, np.complex128))


@export("UnconnectedGradients")
class UnconnectedGradients(enum.Enum):
  NONE = "none"
  ZERO = "zero"


def differentiable(tensor):
  return tensor._value.dtype in _INEXACT


def _is_variable(x):
  return hasattr(x, "_as_tensor") and hasattr(x, "trainable")


# ---- Programs: a pruned tape numbered as slots, replayed as one pure function ----
def _replay(program, target_slots, sources, constants):
  env = list(sources) + list(constants)
  for impl, kwargs, in_slots in program:
    out = impl(*[env[i] for i in in_slots], **dict(kwargs))
    if isinstance(out, (tuple, list)):
      env.extend(out)
    else:
      env.append(out)
  return [env[i] for i in target_slots]


def _pullback(structure, sources, constants, cotangents):
  """Gradients of the program's targets (weighted by `cotangents`) for the used sources.

  With `batched` set in the structure, cotangents carry a leading axis (one row of a
  Jacobian each) and so do the gradients.
  """
  program, target_slots, used, batched = structure
  _, vjp = jax.vjp(lambda *s: _replay(program, target_slots, s, constants), *sources)
  cotangents = [_conj(c) for c in cotangents]  # TF's complex gradients are JAX's conjugated
  grads = jax.vmap(vjp)(cotangents) if batched else vjp(cotangents)
  return tuple(_conj(g) for g, keep in zip(grads, used) if keep)


def _pullback_recorded(recorded, structure, values, cotangents):
  """`_pullback` from the values the ops saw when they ran (`values`, one per slot in
  `input_slots`): each op's VJP at its recorded inputs, in reverse order, so no forward
  computation runs again (a convolution's gradient needs its inputs, not its output).
  Its results are constants to JAX: used only when no outer tape differentiates them."""
  arity, input_slots, first_output = recorded
  program, target_slots, used, batched = structure
  env = dict(zip(input_slots, values))
  outputs, slot = [], first_output
  reached = set(range(len(used)))  # the sources, then what depends on them
  for (_, _, in_slots), count in zip(program, arity):
    outputs.append(range(slot, slot + count))
    if reached.intersection(in_slots):
      reached.update(outputs[-1])
    slot += count

  def backward(cotangents):
    grads = {}
    for s, c in zip(target_slots, cotangents):
      grads[s] = grads[s] + c if s in grads else c
    for (impl, kwargs, in_slots), out_slots in zip(reversed(program), reversed(outputs)):
      if not any(s in grads for s in out_slots):
        continue
      args = [env[s] for s in in_slots]
      varying = [i for i, s in enumerate(in_slots) if s in reached]
      out, vjp = jax.vjp(functools.partial(_call_varying, impl, dict(kwargs), args, varying),
                         *[args[i] for i in varying])
      outs = list(out) if isinstance(out, (tuple, list)) else [out]
      ct = [grads.pop(s) if s in grads else _zero_cotangent(o) for s, o in zip(out_slots, outs)]
      for i, g in zip(varying, vjp(type(out)(ct) if isinstance(out, (tuple, list)) else ct[0])):
        if g.dtype != jax.dtypes.float0:
          s = in_slots[i]
          grads[s] = grads[s] + g if s in grads else g
    return tuple(grads[i] if i in grads else jnp.zeros_like(env[i])
                 for i, keep in enumerate(used) if keep)

  cotangents = [_conj(c) for c in cotangents]  # TF's complex gradients are JAX's conjugated
  grads = jax.vmap(backward)(cotangents) if batched else backward(cotangents)
  return tuple(_conj(g) for g in grads)


def _call_varying(impl, kwargs, args, varying, *values):
  """`impl` on `args` with those at positions `varying` replaced by `values`."""
  args = list(args)
  for i, value in zip(varying, values):
    args[i] = value
  return impl(*args, **kwargs)


def _zero_cotangent(value):
  if jnp.issubdtype(value.dtype, jnp.inexact):
    return jnp.zeros_like(value)
  return np.zeros(value.shape, jax.dtypes.float0)


def _conj(x):
  return jnp.conj(x) if jnp.iscomplexobj(x) else x


@contextlib.contextmanager
def replaying():
  """While a program is traced or replayed, ops and variable reads are not recorded."""
  _ctx.recording_paused += 1
  try:
    yield
  finally:
    _ctx.recording_paused -= 1


stop_recording = replaying  # TF's name for it (tensorflow.python.eager.tape.stop_recording)


def _used_sources(program, target_slots, sources, constants):
  """Which sources the targets depend on, by dead-code elimination of the replay's jaxpr;
  and whether to compile it on first sight: a program that loops (slow to differentiate
  uncompiled), or one of many primitives (each would compile alone for its shapes)."""
  jaxpr = jax.make_jaxpr(lambda s, c: _replay(program, target_slots, s, c))(
      list(sources), list(constants))
  _, used_inputs = pe.dce_jaxpr(jaxpr.jaxpr, [True] * len(target_slots))
  loops = any(eqn.primitive.name in ("scan", "while") for eqn in jaxpr.jaxpr.eqns)
  return tuple(used_inputs[:len(sources)]), loops or _size(jaxpr.jaxpr) >= _COMPILE_AT_ONCE


def _size(jaxpr):
  """The number of primitives in `jaxpr`, those of nested jaxprs (custom gradients) included."""
  return len(jaxpr.eqns) + sum(_size(sub) for sub in jax_core.subjaxprs(jaxpr))


class _Compiled:
  """One program structure: its used sources, how often it ran, and its jitted pullback."""

  __slots__ = ("used", "runs", "pullback", "compile_now")

  def __init__(self, used, loops):
    self.used, self.runs, self.pullback, self.compile_now = used, 0, None, loops


_COMPILE_AT_ONCE = 24  # primitives in a program that compiles on first sight
_cache = program_cache.LRU()  # (program, target slots, n constants, batched) -> _Compiled


def _lookup(program, target_slots, sources, constants, batched, recorded=None):
  """(used sources, pullback) of a program; with `recorded` (see _pullback_recorded) the
  pullback takes the recorded input values instead of (sources, constants)."""
  key = (program, target_slots, len(constants), batched, recorded)
  try:
    hit = _cache.get(key)
  except TypeError:  # unhashable static attributes: never cached
    used, _ = _used_sources(program, target_slots, sources, constants)
    return used, _pullback_for((program, target_slots, used, batched), recorded)
  if hit is None:
    hit = _cache[key] = _Compiled(*_used_sources(program, target_slots, sources, constants))
  hit.runs += 1
  structure = (program, target_slots, hit.used, batched)
  if hit.runs < 2 and not hit.compile_now:
    return hit.used, _pullback_for(structure, recorded)  # cheaper than compiling
  if hit.pullback is None:
    hit.pullback = jax.jit(_pullback_for(structure, recorded))
  return hit.used, hit.pullback


def _pullback_for(structure, recorded):
  if recorded is None:
    return functools.partial(_pullback, structure)
  return functools.partial(_pullback_recorded, recorded, structure)


class _GradientOp:
  """A gradient computed while outer tapes record, seen by them as one differentiable op."""

  op_name = "SymbolicGradient"

  @staticmethod
  def impl(*arrays, structure, n_sources, n_constants):
    return _pullback(structure, arrays[:n_sources], arrays[n_sources:n_sources + n_constants],
                     arrays[n_sources + n_constants:])


def compute_gradients(entries, targets, cotangents, sources, batched=False):
  """Gradients of `targets` (weighted by `cotangents`) w.r.t. the Tensors `sources`.

  `entries` is a tape's record; returns one Tensor, or None where unconnected, per source.
  """
  needed = {t._id for t in targets}
  kept = []
  for entry in reversed(entries):
    if any(o in needed for o in entry[3]):
      kept.append(entry)
      needed.update(t._id for t in entry[2])
  reach = {s._id for s in sources}
  slots = {s._id: i for i, s in enumerate(sources)}
  constants, program, produced = [], [], set()
  for impl, kwargs, inputs, out_ids in reversed(kept):
    if not any(t._id in reach for t in inputs):
      continue
    reach.update(out_ids)
    for t in inputs:
      if t._id not in slots and t._id not in produced:
        slots[t._id] = len(sources) + len(constants)
        constants.append(t)
    produced.update(out_ids)
    program.append((impl, kwargs, inputs, out_ids))
  next_slot = len(sources) + len(constants)
  numbered, values, arity = [], {}, []
  for impl, kwargs, inputs, out_ids in program:
    numbered.append((impl, kwargs, tuple(slots[t._id] for t in inputs)))
    arity.append(len(out_ids))
    values.update((slots[t._id], t._value) for t in inputs)
    for uid in out_ids:
      slots[uid] = next_slot
      next_slot += 1
  connected = [(t, c) for t, c in zip(targets, cotangents) if t._id in slots]
  if not connected:
    return [None] * len(sources)
  program, target_slots = tuple(numbered), tuple(slots[t._id] for t, _ in connected)
  source_values = [s._value for s in sources]
  constant_values = [t._value for t in constants]
  cotangent_values = [c._value for _, c in connected]
  with replaying():
    if _ctx.tapes:  # an outer tape differentiates this gradient: replay from the sources
      used, pullback = _lookup(program, target_slots, source_values, constant_values, batched)
      grads = pullback(source_values, constant_values, cotangent_values)
    else:  # from what the ops saw: no forward computation runs again
      input_slots = tuple(sorted(values))
      recorded = (tuple(arity), input_slots, len(sources) + len(constants))
      used, pullback = _lookup(program, target_slots, source_values, constant_values, batched,
                               recorded)
      grads = pullback([values[s] for s in input_slots], cotangent_values)
    grads = [Tensor(g) for g in grads]
  if _ctx.tapes and grads:
    ops.record(_GradientOp, {"structure": (program, target_slots, used, batched),
                             "n_sources": len(sources), "n_constants": len(constants)},
               list(sources) + constants + [c for _, c in connected], grads)
  found = iter(grads)
  return [next(found) if keep else None for keep in used]


@export("GradientTape", "contrib.eager.GradientTape")
class GradientTape:
  """Records operations on watched tensors and trainable variables for differentiation."""

  def __init__(self, persistent=False, watch_accessed_variables=True):
    self._persistent = persistent
    self._watch_accessed_variables = watch_accessed_variables
    self._recording = False
    self._used = False
    self._variables = {}         # variable _id -> variable, in order of first watch
    self._explicit = set()       # variable _ids watched with watch()
    self._clear()

  def _clear(self):
    """Releases the recording (watched variables stay listed, as in TF)."""
    self._entries = []           # (impl, static kwargs tuple, input Tensors, output ids)
    self._watched = {}           # id -> Tensor gradients may flow from
    self._variable_reads = {}    # variable _id -> [Tensors read from it under the tape]

  # ---- Context ----
  def __enter__(self):
    self._push()
    return self

  def __exit__(self, *exc_info):
    if self._recording:
      self._pop()

  def _push(self):
    if self._recording:
      raise ValueError("Tape is still recording, This can happen if you try to re-enter an "
                       "already-active tape.")
    _ctx.tapes.append(self)
    self._recording = True

  def _pop(self):
    _ctx.tapes.remove(self)
    self._recording = False

  @contextlib.contextmanager
  def stop_recording(self):
    """Ops inside are not recorded on this tape."""
    if not self._recording:
      raise RuntimeError("Trying to stop recording a tape which is not recording.")
    self._pop()
    try:
      yield
    finally:
      self._push()

  def reset(self):
    """Forgets everything recorded so far (the tape keeps recording if it was)."""
    self._clear()
    self._variables, self._explicit = {}, set()
    self._used = False

  # ---- Watching and recording ----
  def watch(self, tensor):
    """Ensures `tensor` (a Tensor, Variable, or nested structure of them) is traced."""
    for t in jax.tree_util.tree_leaves(tensor):
      if _is_variable(t):
        self._explicit.add(t._id)
        self._variables.setdefault(t._id, t)
      elif isinstance(t, Tensor):
        if differentiable(t):
          self._watched[t._id] = t
        else:
          _log.warning("The dtype of the watched tensor must be floating (e.g. tf.float32), "
                       "got %r", t.dtype)
      else:
        raise ValueError("Passed in object %r of type %r, not tf.Tensor or tf.Variable."
                         % (t, type(t).__name__))

  def watched_variables(self):
    return list(self._variables.values())

  def variable_accessed(self, var, tensor):
    """Called by every variable read while this tape records (see state_ops.read)."""
    if not (var._id in self._explicit or (self._watch_accessed_variables and var.trainable)):
      return
    if not differentiable(tensor):
      return
    self._variables.setdefault(var._id, var)
    self._watched[tensor._id] = tensor
    self._variable_reads.setdefault(var._id, []).append(tensor)

  def record_operation(self, op_fn, kwargs, inputs, outputs):
    """Called by every op while this tape records (see framework/ops.py)."""
    watched = self._watched
    for t in inputs:
      if t._id in watched:
        break
    else:
      return
    self._entries.append((op_fn.impl, tuple(kwargs.items()), inputs,
                          tuple(o._id for o in outputs)))
    for o in outputs:
      if o._value.dtype in _INEXACT:
        watched[o._id] = o

  # ---- Differentiation ----
  def _begin_gradient(self):
    if self._used:
      raise RuntimeError("A non-persistent GradientTape can only be used to compute one set "
                         "of gradients (or jacobians)")
    if self._recording:
      if not self._persistent:
        self._pop()
      else:
        _log.warning(
            "Calling GradientTape.gradient on a persistent tape inside its context is "
            "significantly less efficient than calling it outside the context (it causes the "
            "gradient ops to be recorded on the tape, leading to increased CPU and memory "
            "usage). Only call GradientTape.gradient inside the context if you actually want "
            "to trace the gradient in order to compute higher order derivatives.")

  def _end_gradient(self):
    if not self._persistent:
      self._used = True
      self._clear()

  def _source_tensors(self, source):
    """The watched tensors standing for one source (a variable: every read of it)."""
    if _is_variable(source):
      return self._variable_reads.get(source._id, [])
    if isinstance(source, Tensor):
      return [source]
    raise TypeError("Cannot convert the argument `type_value`: %r to a TensorFlow DType."
                    % (source,))

  def gradient(self, target, sources, output_gradients=None,
               unconnected_gradients=UnconnectedGradients.NONE):
    """d(sum of targets)/d(sources), in the structure of `sources`."""
    if target is None:
      raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                      "Variables or CompositeTensors to be differentiated, but received None.")
    if graph_lib.building() is not None:  # graph mode: `tf.gradients` of the graph
      flat_sources, treedef = jax.tree_util.tree_flatten(sources)
      grads = gradients_impl.gradients(
          jax.tree_util.tree_leaves(target), flat_sources,
          grad_ys=None if output_gradients is None else jax.tree_util.tree_leaves(
              output_gradients), unconnected_gradients=UnconnectedGradients(
                  unconnected_gradients).value)
      return jax.tree_util.tree_unflatten(treedef, grads)
    self._begin_gradient()
    try:
      unconnected = UnconnectedGradients(unconnected_gradients)
      flat_sources, treedef = jax.tree_util.tree_flatten(sources, is_leaf=lambda s: s is None)
      targets, cotangents = self._targets(target, output_gradients)
      grads = self._gradients(targets, cotangents, flat_sources, unconnected)
    finally:
      self._end_gradient()
    return jax.tree_util.tree_unflatten(treedef, grads)

  def _targets(self, target, output_gradients):
    targets = [t._as_tensor(None) if _is_variable(t) else ops.convert_to_tensor(t)
               for t in jax.tree_util.tree_leaves(target)]
    if output_gradients is None:
      given = [None] * len(targets)
    else:
      given = jax.tree_util.tree_leaves(output_gradients, is_leaf=lambda x: x is None)
      if len(given) != len(targets):
        raise ValueError("output_gradients must have as many entries as target (%d), got %d"
                         % (len(targets), len(given)))
    kept, cotangents = [], []
    for t, g in zip(targets, given):
      if not differentiable(t):
        continue
      kept.append(t)
      cotangents.append(_ones(t._value.shape, t._value.dtype) if g is None
                        else self._output_gradient(t, self._output_gradient_tensor(t, g)))
    return kept, cotangents

  def _output_gradient_tensor(self, target, grad):
    """`grad` as a Tensor of the target's dtype; a Tensor of another dtype fails as TF's
    gradient of the target's op does, given it."""
    if isinstance(grad, Tensor) and grad.dtype != target.dtype:
      producer = next((e[0] for e in self._entries if target._id in e[3]), None)
      op_name = getattr(producer, "op_name", "Identity")
      raise errors.invalid_argument(
          "cannot compute %s as input #1(zero-based) was expected to be a %s tensor but is a "
          "%s tensor [Op:%s]" % (op_name, ops.tf_type_name(grad.dtype),
                                 ops.tf_type_name(target.dtype), op_name))
    return ops.convert_to_tensor(grad, dtype=target.dtype)

  def _output_gradient(self, target, grad):
    """`grad` as the cotangent of `target`. One of another shape and the same size is
    reshaped where TF's gradient reshapes it (Add, Sub: to the input's shape); elsewhere
    TF's gradient ops refuse it, and so does this."""
    shape = target._value.shape
    if grad._value.shape == shape:
      return grad
    producer = next((e[0] for e in self._entries if target._id in e[3]), None)
    if getattr(producer, "op_name", None) in ("AddV2", "Add", "Sub") and \
        grad._value.size == target._value.size:
      return Tensor(grad._value.reshape(shape))
    raise errors.InvalidArgumentError(
        None, None, "Incompatible shapes: the output gradient has shape %s, the target %s"
        % (list(grad._value.shape), list(shape)))

  def _gradients(self, targets, cotangents, flat_sources, unconnected, batched=False):
    per_source = [self._source_tensors(s) for s in flat_sources]
    unique = list({t._id: t for ts in per_source for t in ts if differentiable(t)}.values())
    found = dict(zip((t._id for t in unique),
                     compute_gradients(self._entries, targets, cotangents, unique, batched)))
    out = []
    for source, tensors in zip(flat_sources, per_source):
      parts = [found[t._id] for t in tensors if found.get(t._id) is not None]
      if not parts:
        out.append(_zeros_for(source, cotangents if batched else None)
                   if unconnected is UnconnectedGradients.ZERO
                   and _differentiable_source(source) else None)
      else:
        out.append(functools.reduce(lambda a, b: a + b, parts))
    return out

  def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
               parallel_iterations=None, experimental_use_pfor=True):
    """d(target)/d(sources): for each source, shape target.shape + source.shape."""
    self._begin_gradient()
    try:
      unconnected = UnconnectedGradients(unconnected_gradients)
      flat_sources, treedef = jax.tree_util.tree_flatten(sources)
      target = ops.convert_to_tensor(target)
      size = int(np.prod(target._value.shape))
      rows = Tensor(jnp.eye(size, dtype=target._value.dtype).reshape(
          (size,) + target._value.shape))
      grads = self._gradients([target] if differentiable(target) else [], [rows],
                              flat_sources, unconnected, batched=True)
    finally:
      self._end_gradient()
    shaped = [None if g is None else
              Tensor(g._value.reshape(target._value.shape + g._value.shape[1:]))
              for g in grads]
    return jax.tree_util.tree_unflatten(treedef, shaped)

  def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                     parallel_iterations=None, experimental_use_pfor=True):
    """Per-example Jacobians: shape [batch] + target.shape[1:] + source.shape[1:]."""
    target = ops.convert_to_tensor(target)
    target.shape.with_rank_at_least(2)
    source.shape.with_rank_at_least(2)
    if not target.shape[0].is_compatible_with(source.shape[0]):
      raise ValueError("Need first dimension of target shape (%s) and source shape (%s) to "
                       "match." % (target.shape, source.shape))
    full = self.jacobian(target, source, unconnected_gradients)
    if full is None:
      return None
    batch = target._value.shape[0]
    t_rest, s_rest = target._value.shape[1:], full._value.shape[target._value.ndim + 1:]
    flat = full._value.reshape((batch, int(np.prod(t_rest)), batch, int(np.prod(s_rest))))
    diagonal = jnp.einsum("ibis->ibs", flat)
    return Tensor(diagonal.reshape((batch,) + t_rest + s_rest))


_ones_cache = {}  # (shape, dtype) -> the all-ones cotangent (immutable, so shared)


def _ones(shape, dtype):
  ones = _ones_cache.get((shape, dtype))
  if ones is None:
    ones = jnp.ones(shape, dtype)
    if len(_ones_cache) < 256 and not isinstance(ones, jax.core.Tracer):
      _ones_cache[(shape, dtype)] = ones
  return Tensor(ones)


def _differentiable_source(source):
  return source.dtype.is_floating or source.dtype.is_complex


def _zeros_for(source, batched_rows=None):
  shape = tuple(source.shape.as_list())
  if batched_rows is not None:
    shape = batched_rows[0]._value.shape[:1] + shape
  return Tensor(jnp.zeros(shape, source.dtype.as_numpy_dtype))
