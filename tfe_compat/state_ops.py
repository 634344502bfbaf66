"""The one read path and the one write path of variables, and TF's state ops on them.

`read(var)` and `write(var, array)` are the only code that touches a variable's `_value`.
When `context.ctx.variable_scope` is set, both are handed to that scope (it may return
traced values and buffer writes, like Keras 3's StatelessScope); otherwise `read` wraps
`_value` in a Tensor and tells every active tape (`tape.variable_accessed(var, tensor)`),
and `write` replaces `_value`. The scatter updates (`tf.scatter_*`, `Variable.scatter_*`)
read and write through them too.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor

_ctx = context.ctx


# ---- The one read path and the one write path ----
def read(var):
  """The variable's current value as a Tensor (redirected by `ctx.variable_scope`)."""
  scope = _ctx.variable_scope
  if scope is not None:
    return scope.read(var)
  return read_direct(var)


def read_direct(var):
  """The stored value, bypassing scopes (for scopes that pass reads through)."""
  return read_as(var, var._value)


def read_as(var, value):
  """A read of `var` that gives `value` (a scope's own value): tapes see it as a read."""
  tensor = Tensor(value)
  if _ctx.tapes and not _ctx.recording_paused:
    for tape in list(_ctx.tapes):
      accessed = getattr(tape, "variable_accessed", None)
      if accessed is not None:
        accessed(var, tensor)
  return tensor


def write(var, value):
  """Sets the variable's value to the array `value` (buffered by `ctx.variable_scope`)."""
  scope = _ctx.variable_scope
  if scope is not None:
    scope.write(var, value)
    return
  write_direct(var, value)


def write_direct(var, value):
  """Stores `value`, bypassing scopes (for scopes that pass writes through)."""
  if var._device is not None and isinstance(value, jax.Array) and \
      not isinstance(value, jax.core.Tracer) and value.devices() != {var._device}:
    value = jax.device_put(value, var._device)  # a variable stays on its device, as in TF
  var._value = value


# ---- Step counters followed on the host ----
def counter_value(var):
  """The int value of a scalar integer variable (a step counter): read from the device once,
  then followed through `counted` without reading (a read waits for the training step)."""
  known = getattr(var, "_host_count", None)
  array = var._value
  if known is not None and known[0] is array:
    return known[1]
  value = np.asarray(array).item()  # int(array) costs 10x more
  var._host_count = (array, value)
  return value


def counted(var, before, delta):
  """Notes that `var` went from the array `before` to its current value by adding the host
  int `delta`: its host value follows if it was known."""
  known = getattr(var, "_host_count", None)
  if known is not None and known[0] is before:
    var._host_count = (var._value, known[1] + delta)


def shape_text(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


def _concrete(tensor):
  value = tensor._value
  return None if isinstance(value, jax.core.Tracer) else np.asarray(value)


def check_indices(indices, limit, op_name):
  """TF's eager bounds check on scatter/gather indices (skipped while tracing)."""
  values = _concrete(indices)
  if values is None or not values.size:
    return
  flat = values.reshape(-1)
  bad = np.nonzero((flat < 0) | (flat >= limit))[0]
  if bad.size:
    raise errors.invalid_argument("indices[%d] = %d is not in [0, %d) [Op:%s]"
                                  % (bad[0], flat[bad[0]], limit, op_name))


def int_indices(indices, op_name, attr="Tindices"):
  indices = ops.convert_to_tensor(indices)
  if indices.dtype not in (dtypes.int32, dtypes.int64):
    raise errors.invalid_argument(
        "Value for attr '%s' of %s is not in the list of allowed values: int32, int64 [Op:%s]"
        % (attr, ops.tf_type_name(indices.dtype), op_name))
  return indices


@ops.op(name="ResourceGather")
def gather(params, indices):
  return jnp.take(params, indices, axis=0)


@ops.op(name="ResourceGatherNd")
def gather_nd(params, indices):
  return params[tuple(jnp.moveaxis(indices, -1, 0))]


@functools.partial(jax.jit, static_argnames=("mode",))
def _updated(ref, index, updates, *, mode):
  """`ref` with `updates` applied at `index` (a tuple of index arrays) by `mode`."""
  at = ref.at[index]
  if mode == "sub":
    return at.add(-updates)
  return getattr(at, {"update": "set", "add": "add", "mul": "multiply", "div": "divide",
                      "max": "max", "min": "min"}[mode])(updates)


@functools.partial(jax.jit, static_argnames=("mode",))
def _updated_nd(ref, indices, updates, *, mode):
  return _updated(ref, tuple(jnp.moveaxis(indices, -1, 0)), updates, mode=mode)


_SCATTER_OPS = {"update": "ResourceScatterUpdate", "add": "ResourceScatterAdd",
                "sub": "ResourceScatterSub", "mul": "ResourceScatterMul",
                "div": "ResourceScatterDiv", "max": "ResourceScatterMax",
                "min": "ResourceScatterMin"}


def scatter(var, indices, updates, mode):
  op_name = _SCATTER_OPS[mode]
  indices = int_indices(indices, op_name)
  updates = ops.convert_to_tensor(updates, dtype=var.dtype)
  current = read(var)
  ref_shape = tuple(current._value.shape)
  expected = tuple(indices._value.shape) + ref_shape[1:]
  if updates._value.shape and tuple(updates._value.shape) != expected:
    raise errors.invalid_argument(
        "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], "
        "got updates.shape %s, indices.shape %s, params.shape %s [Op:%s]"
        % (shape_text(updates._value.shape), shape_text(indices._value.shape),
           shape_text(ref_shape), op_name))
  check_indices(indices, ref_shape[0] if ref_shape else 0, op_name)
  write(var, _updated(current._value, indices._value, updates._value, mode=mode))
  return var


def scatter_nd(var, indices, updates, mode):
  op_name = "ResourceScatterNd" + mode.capitalize()
  indices = int_indices(indices, op_name)
  updates = ops.convert_to_tensor(updates, dtype=var.dtype)
  current = read(var)
  ref_shape = tuple(current._value.shape)
  index_shape = tuple(indices._value.shape)
  batch, depth = index_shape[:-1], index_shape[-1] if index_shape else 0
  expected = batch + ref_shape[depth:]
  if tuple(updates._value.shape) != expected:
    raise errors.invalid_argument(
        "Dimensions [0,%d) of indices[shape=%s] must match dimensions [0,%d) of "
        "updates[shape=%s], and the rest of updates must be params.shape[%d:] = %s [Op:%s]"
        % (len(batch), shape_text(index_shape), len(batch),
           shape_text(updates._value.shape), depth, shape_text(ref_shape[depth:]), op_name))
  values = _concrete(indices)
  if values is not None:
    rows = values.reshape(-1, depth)
    limits = np.array(ref_shape[:depth])
    for i, row in enumerate(rows):
      if np.any(row < 0) or np.any(row >= limits):
        raise errors.invalid_argument("indices[%d] = [%s] does not index into shape %s [Op:%s]"
                                      % (i, ", ".join(str(x) for x in row),
                                         shape_text(ref_shape), op_name))
  write(var, _updated_nd(current._value, indices._value, updates._value, mode=mode))
  return var


@export("batch_scatter_update")
def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
  """`tf.batch_scatter_update`: ref[i..., indices[i..., j], ...] = updates[i..., j, ...] for
  the leading (batch) dimensions of `indices`; returns `ref`."""
  index = ops.convert_to_tensor(indices)._value
  batch = [jnp.broadcast_to(jnp.arange(n, dtype=index.dtype).reshape(
      (-1,) + (1,) * (index.ndim - 1 - axis)), index.shape)
           for axis, n in enumerate(index.shape[:-1])]
  return scatter_nd(ref, Tensor(jnp.stack(batch + [index], axis=-1)), updates, "update")


def sparse_delta_parts(sparse_delta):
  if not (hasattr(sparse_delta, "indices") and hasattr(sparse_delta, "values")):
    raise TypeError("Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: %s"
                    % (sparse_delta,))
  return sparse_delta.indices, sparse_delta.values


@functools.partial(jax.jit, static_argnames=("sign",))
def add(value, delta, *, sign):
  return value + delta if sign > 0 else value - delta


# ---- tf.assign*, tf.count_up_to, tf.scatter_* (each returns the variable) ----
@export("assign")
def assign(ref, value, validate_shape=None, use_locking=None, name=None):
  return ref.assign(value)


@export("assign_add")
def assign_add(ref, value, use_locking=None, name=None):
  return ref.assign_add(value)


@export("assign_sub")
def assign_sub(ref, value, use_locking=None, name=None):
  return ref.assign_sub(value)


@export("count_up_to")
def count_up_to(ref, limit, name=None):
  return ref.count_up_to(limit)


def _scatter_function(mode, use_locking):
  def fn(ref, indices, updates, use_locking=use_locking, name=None):
    return scatter(ref, indices, updates, mode)
  fn.__name__ = "scatter_" + mode
  fn.__doc__ = "`tf.scatter_%s(ref, indices, updates)`: returns `ref`." % mode
  return fn


def _scatter_nd_function(mode, use_locking):
  def fn(ref, indices, updates, use_locking=use_locking, name=None):
    return scatter_nd(ref, indices, updates, mode)
  fn.__name__ = "scatter_nd_" + mode
  fn.__doc__ = "`tf.scatter_nd_%s(ref, indices, updates)`: returns `ref`." % mode
  return fn


for _mode in ("update", "add", "sub", "mul", "div", "max", "min"):
  export("scatter_" + _mode)(_scatter_function(_mode, _mode == "update"))
for _mode in ("update", "add", "sub"):
  export("scatter_nd_" + _mode)(_scatter_nd_function(_mode, _mode == "update"))

