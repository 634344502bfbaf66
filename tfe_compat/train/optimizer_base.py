"""What tf.train and tf.keras optimizers share: slot variables and the one jitted update.

An optimizer names an update rule (see update_rules.py: an optax GradientTransformation over
a list of parameters). Its state lives in Variables: one slot Variable per (slot name,
variable) and one Variable per non-slot scalar (TF1 Adam's `beta1_power`), created lazily
from the rule's `init` on the first apply. `apply_rule` then reads every variable, slot and
step counter through `state_ops.read`, runs ONE jitted pure function
`(params, state, grads, hyper, counters) -> (new params, new state, counters + 1)` and
writes the results back through `state_ops.write`. The jitted function is cached per
(rule, static flags); JAX caches its compilation per structure, shape and dtype. Everything
here is trace-safe, so `tf.function` can trace an optimizer step.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax

from tfe_compat import state_ops
from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import program_cache
from tfe_compat.framework.tensor import Tensor
from tfe_compat.framework.trackable import Trackable
from tfe_compat.ops import value_checks

_compiled = program_cache.LRU()  # (rule, static items) -> jitted pure update


def _pure_update(rule, static, params, state, grads, hyper, counters):
  transform = rule(hyper, **dict(static))
  updates, new_state = transform.update(grads, state, params)
  return optax.apply_updates(params, updates), new_state, [c + 1 for c in counters]


def jitted_update(rule, static):
  key = (rule, static)
  fn = _compiled.get(key)
  if fn is None:
    fn = _compiled[key] = jax.jit(functools.partial(_pure_update, rule, static))
  return fn


def is_variable(x):
  return isinstance(x, variables.ResourceVariable) or (
      hasattr(x, "_as_tensor") and hasattr(x, "trainable") and hasattr(x, "_id"))


def hyper_array(value):
  """A hyperparameter's value as an array: callables are called, Variables read."""
  if callable(value):
    value = value()
  if not isinstance(value, Tensor):
    value = ops.convert_to_tensor(value)
  if value.dtype == dtypes.string:  # TF casts a hyperparameter to the variables' dtype
    raise errors.UnimplementedError(None, None,
                                    "Cast string to float is not supported [Op:Cast]")
  return value._value


def constant_hyper(value):
  """True for values converted once (Python and NumPy numbers)."""
  return isinstance(value, (int, float, np.number, np.ndarray)) and not isinstance(value, bool)


def _densify(grad):
  """An IndexedSlices-like gradient (indices, values, dense_shape) as a dense Tensor."""
  shape = tuple(int(d) for d in np.asarray(ops.convert_to_tensor(grad.dense_shape)._value))
  values = ops.convert_to_tensor(grad.values)._value
  indices = ops.convert_to_tensor(grad.indices)
  rows = shape[0] if shape else 0

  def error(values):
    bad = (values < 0) | (values >= rows)
    return errors.invalid_argument("indices%s = %d is not in [0, %d) [Op:ResourceScatterAdd]" % (
        value_checks.first_position(bad), values[tuple(np.argwhere(bad)[0])], rows))
  value_checks.check(indices, lambda i: ((i >= 0) & (i < rows)).all(), error)
  return Tensor(jnp.zeros(shape, values.dtype).at[indices._value].add(values))


def convert_gradient(grad, var, op_name, known=None):
  """`grad` as a Tensor matching `var`, or TF's errors (worded for the kernel `op_name`).

  `known` (a dict) caches each variable's (numpy dtype, shape) by `_id`.
  """
  if type(grad) is not Tensor:  # pylint: disable=unidiomatic-typecheck
    if hasattr(grad, "indices") and hasattr(grad, "values") and hasattr(grad, "dense_shape"):
      grad = _densify(grad)
    try:
      grad = ops.convert_to_tensor(grad)
    except (TypeError, ValueError):
      raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, or None: %s"
                      % (grad,)) from None
  value = grad._value
  expected = None if known is None else known.get(var._id)
  if expected is None:
    expected = (np.dtype(var.dtype.as_numpy_dtype), var._shape_tuple())
    if known is not None:
      known[var._id] = expected
  if value.dtype == expected[0] and value.shape == expected[1]:
    return grad
  if grad.dtype is not var.dtype:
    raise errors.invalid_argument(
        "cannot compute %s as input #2(zero-based) was expected to be a %s tensor but is a "
        "%s tensor [Op:%s]" % (op_name, ops.tf_type_name(var.dtype),
                               ops.tf_type_name(grad.dtype), op_name))
  grad_name = "delta" if op_name.endswith("GradientDescent") else "grad"
  raise errors.op_error(
      "var and %s do not have the same shape%s %s"
      % (grad_name, state_ops.shape_text(var.shape.as_list()),
         state_ops.shape_text(value.shape)), op_name)


class SlotState(Trackable):
  """Slot and non-slot Variables of one optimizer, and `apply_rule` (the jitted update)."""

  _checkpoint_creators = ("_add_slot_variable", "_make_non_slot", "_create_non_slot_variable")

  _slot_major = False  # create slots slot by slot (Keras) instead of variable by variable

  def _init_slot_state(self):
    self._slots = {}           # slot name -> {variable _id: slot Variable}
    self._non_slot_dict = {}   # name -> Variable
    self._state_names = None   # (slot names, non-slot names) of the rule, once known
    self._known_variables = {}  # variable _id -> (numpy dtype, shape), for convert_gradient

  # ---- Hooks for the two front ends ----
  def _update_rule(self):
    """(rule, static items) for the jitted update, or None for a per-variable subclass."""
    return None

  def _hyper_arrays(self):
    """The rule's hyperparameters as arrays, evaluated for this apply."""
    raise NotImplementedError

  def _make_slot(self, var, slot_name, value):
    raise NotImplementedError

  def _make_non_slot(self, name, value):
    raise NotImplementedError

  # ---- Slots ----
  def _slot_for(self, var, slot_name):
    table = self._slots.get(slot_name)
    return None if table is None else table.get(var._id)

  def _add_slot_variable(self, var, slot_name, variable):
    self._slots.setdefault(slot_name, {})[var._id] = variable
    return variable

  def _create_rule_state(self, var_list, make_transform):
    """Creates the slots `var_list` lacks (and missing non-slots) from the rule's `init`."""
    names = self._state_names
    if names is not None:
      slot_names, non_slot_names = names
      ready = self._slots[slot_names[0]] if slot_names else None
      if ready is None or all(v._id in ready for v in var_list):
        if len(self._non_slot_dict) >= len(non_slot_names):
          return
      missing = [v for v in var_list
                 if any(v._id not in self._slots.get(n, ()) for n in slot_names)]
    else:
      missing = list(var_list)
    init = _initial_state(make_transform, missing)
    slot_names = tuple(k for k, v in init.items() if isinstance(v, list))
    non_slot_names = tuple(k for k in init if k not in slot_names)
    self._state_names = slot_names, non_slot_names
    for name in non_slot_names:
      if name not in self._non_slot_dict:
        self._non_slot_dict[name] = self._make_non_slot(name, init[name])
    pairs = [(i, n) for n in slot_names for i in range(len(missing))] if self._slot_major \
        else [(i, n) for i in range(len(missing)) for n in slot_names]
    for i, name in pairs:
      if self._slot_for(missing[i], name) is None:
        self._add_slot_variable(missing[i], name,
                                self._make_slot(missing[i], name, init[name][i]))

  def apply_rule(self, grads, var_list, counters=()):
    """Applies the update rule to `var_list` in one jitted call; increments `counters`.

    `grads` are Tensors matching `var_list`; `counters` are integer Variables (the global
    step, Keras `iterations`). A variable given twice is updated twice, in order, as TF's
    separate update ops do; the shared state (Adam's beta powers, the counters) advances
    once, after all updates, as TF's `_finish` does.
    """
    rule, static = self._update_rule()
    hyper = self._hyper_arrays()
    self._create_rule_state(var_list, lambda: rule(hyper, **dict(static)))
    slot_names, non_slot_names = self._state_names
    read, write = state_ops.read, state_ops.write
    non_slots = [self._non_slot_dict[n] for n in non_slot_names]
    shared = {n: read(variable)._value for n, variable in zip(non_slot_names, non_slots)}
    counter_values = [read(c)._value for c in counters]
    finished = None
    for update in _rounds(var_list):
      round_vars = [var_list[i] for i in update]
      slots = [[self._slots[n][v._id] for v in round_vars] for n in slot_names]
      state = {n: [read(s)._value for s in column] for n, column in zip(slot_names, slots)}
      state.update(shared)
      new_params, new_state, new_counters = _run_update(
          jitted_update(rule, static), [read(v)._value for v in round_vars], state,
          [grads[i]._value for i in update], hyper, counter_values)
      for v, value in zip(round_vars, new_params):
        write(v, value)
      for n, column in zip(slot_names, slots):
        for slot, value in zip(column, new_state[n]):
          write(slot, value)
      finished = finished or (new_state, new_counters)
    for n, variable in zip(non_slot_names, non_slots):
      write(variable, finished[0][n])
    for c, before, value in zip(counters, counter_values, finished[1]):
      write(c, value)
      state_ops.counted(c, before, 1)
    for v in var_list:
      if v.constraint is not None:
        v.assign(v.constraint(v))


def _run_update(update, params, *rest):
  """`update(params, *rest)`; with arrays on several devices (a global step made outside the
  model's tf.device scope), on the first parameter's device, as TF copies an op's inputs."""
  try:
    return update(params, *rest)
  except ValueError as e:
    if "incompatible devices" not in str(e):
      raise
  device = next(iter(params[0].devices()))
  return update(*jax.device_put((params,) + rest, device))


def _rounds(var_list):
  """Positions of `var_list` in rounds that hold each variable once, in order (one round
  unless a variable repeats)."""
  rounds, seen = [], {}
  for i, v in enumerate(var_list):
    k = seen.get(v._id, 0)
    seen[v._id] = k + 1
    if k == len(rounds):
      rounds.append([])
    rounds[k].append(i)
  return rounds


def _initial_state(make_transform, var_list):
  """The rule's initial state for `var_list` (graph tensors while a graph is built)."""
  if graph_lib.building() is None:
    return make_transform().init([state_ops.read(v)._value for v in var_list])
  return graph_build.record_call(_initial_state_tensors, (make_transform, var_list),
                                 op_type="InitialState")


def _initial_state_tensors(make_transform, var_list):
  return jax.tree_util.tree_map(Tensor, _initial_state(make_transform, var_list))


def increment(counter):
  """`counter.assign_add(1)` for a step counter outside the jitted update."""
  counter.assign_add(1)


@jax.jit
def _clip_by_norm(grads, clip_norm):
  out = []
  for g in grads:
    total = jnp.sum(g * g)
    norm = jnp.where(total > 0, jnp.sqrt(jnp.where(total > 0, total, 1)), total)
    out.append(g * clip_norm.astype(g.dtype) / jnp.maximum(norm, clip_norm.astype(g.dtype)))
  return out


@jax.jit
def _clip_by_value(grads, clip_value):
  return [jnp.clip(g, -clip_value.astype(g.dtype), clip_value.astype(g.dtype)) for g in grads]


def clip_gradients(grads, clipnorm=None, clipvalue=None):
  """Keras' per-gradient clipping (clip_by_norm, then clip_by_value); None stays None."""
  kept = [i for i, g in enumerate(grads) if g is not None]
  values = [ops.convert_to_tensor(grads[i])._value for i in kept]
  if clipnorm is not None:
    values = _clip_by_norm(values, jnp.asarray(clipnorm, jnp.float32))
  if clipvalue is not None:
    values = _clip_by_value(values, jnp.asarray(clipvalue, jnp.float32))
  out = list(grads)
  for i, value in zip(kept, values):
    out[i] = Tensor(value)
  return out
