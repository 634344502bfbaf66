"""TF 1.15 reductions (reduce_*, argmax/argmin, count_nonzero), segment ops, bincount,
cumulative ops, add_n and the clip_by_* / global_norm family."""
# TF's signatures: `name=` is accepted and ignored; some parameters shadow builtins.
# pylint: disable=unused-argument,redefined-builtin
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dispatch, dtypes, errors, tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_matching, convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import grad_rules
from tfe_compat.ops.array_ops import dims_text
from tfe_compat.ops import value_checks
from tfe_compat.ops.matmul_cast_ops import cast
from tfe_compat.ops.math_ops import (ANY, BOOL, FLOAT, INEXACT, INT, NUMERIC, REAL, TRUEDIV,
                                     check_dtype, input_error, mismatch_message, require,
                                     static_ints)


def _lookup(new_name, new_value, old_name, old_value):
  """TF's `deprecated_argument_lookup`."""
  if old_value is not None:
    if new_value is not None:
      raise ValueError("Cannot specify both '%s' and '%s'." % (old_name, new_name))
    return old_value
  return new_value


def _reduction_axes(x, axis, op_name):
  """Non-negative, checked reduction axes (a tuple), or None for all axes."""
  axis = static_ints(axis, op_name)
  if axis is None:
    return None
  rank = x._value.ndim
  axes = []
  for a in np.reshape(axis, -1).tolist():  # TF flattens the axis tensor
    if not -rank <= a < rank:
      raise errors.op_error("Invalid reduction dimension (%d for input with %d dimension(s)"
                            % (a, rank), op_name)
    if a % rank in axes:
      raise errors.invalid_argument("Invalid reduction arguments: Axes contains duplicate "
                                    "dimension: %d [Op:%s]" % (a % rank, op_name))
    axes.append(a % rank)
  return tuple(axes)


def _reduced_count(x, axis):
  shape = x.shape
  return int(np.prod([shape[a] for a in (range(x.ndim) if axis is None else axis)]))


def _mean(x, axis, keepdims):
  if jnp.issubdtype(x.dtype, jnp.integer):  # TF truncates integer means
    total = jnp.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    return lax.div(total, jnp.asarray(max(_reduced_count(x, axis), 1), x.dtype))
  return jnp.mean(x, axis=axis, keepdims=keepdims)


def _extreme(fn, is_max):
  def compute(x, axis, keepdims):
    initial = None
    if x.size == 0:  # TF returns the identity of the reduction for empty inputs
      if jnp.issubdtype(x.dtype, jnp.inexact):
        initial = -np.inf if is_max else np.inf
      else:
        initial = jnp.iinfo(x.dtype).min if is_max else jnp.iinfo(x.dtype).max
    return fn(x, axis=axis, keepdims=keepdims, initial=initial)
  return compute


def _euclidean_norm(x, axis, keepdims):
  if jnp.issubdtype(x.dtype, jnp.integer):
    total = jnp.sum(x.astype(jnp.float64) ** 2, axis=axis, keepdims=keepdims)
    return jnp.sqrt(total).astype(x.dtype)
  return jnp.sqrt(jnp.sum(x * jnp.conj(x), axis=axis, keepdims=keepdims))


def _reduction_error(op_name, allowed):
  if allowed is BOOL:
    return lambda x: mismatch_message(op_name, 0, dtypes.bool, x.dtype)
  return input_error(op_name, allowed, lambda x: "Invalid input shape %s" % (x.shape,))


def _make_reduction(op_name, compute, allowed, names, v1_signature=True, public=True):
  def checked(x, *, axis, keepdims):
    require(x.dtype in allowed)
    return compute(x, axis, keepdims)
  describe = _reduction_error(op_name, allowed)
  impl = op(name=op_name, describe_error=describe)(checked)
  impl_all = op(name=op_name, describe_error=describe)(  # no static kwargs: faster dispatch
      lambda x: checked(x, axis=None, keepdims=False))

  def reduce(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
             keep_dims=None):
    if reduction_indices is not None:
      axis = _lookup("axis", axis, "reduction_indices", reduction_indices)
    if keep_dims is not None:
      keepdims = _lookup("keepdims", keepdims, "keep_dims", keep_dims)
    x = input_tensor
    if type(x) is not Tensor:
      try:
        x = convert_to_tensor(x)
      except (TypeError, ValueError):
        return dispatch.dispatch_or_raise(fn, (x,), {"axis": axis, "keepdims": keepdims})
    if axis is None:
      if not keepdims:
        return impl_all(x)
    else:
      axis = _reduction_axes(x, axis, op_name)
    return impl(x, axis=axis, keepdims=bool(keepdims))

  def reduce_v2_style(input_tensor, axis=None, keepdims=False, name=None):
    return reduce(input_tensor, axis, keepdims)

  fn = reduce if v1_signature else reduce_v2_style
  fn.__name__ = fn.__qualname__ = names[0].rpartition(".")[2]
  fn.__doc__ = "`tf.%s` (TF op %s)." % (names[0], op_name)
  dispatch.handles_dispatch(fn)
  return export(*names)(fn) if public else fn


def _sum(x, axis, keepdims):
  return jnp.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _prod(x, axis, keepdims):
  return jnp.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _variance(x, axis, keepdims):
  mean = jnp.mean(x, axis=axis, keepdims=True)
  return jnp.mean(jnp.square(jnp.abs(x - mean)), axis=axis, keepdims=keepdims)


reduce_sum = _make_reduction("Sum", _sum, NUMERIC, ("math.reduce_sum", "reduce_sum"))
reduce_prod = _make_reduction("Prod", _prod, NUMERIC, ("math.reduce_prod", "reduce_prod"))
reduce_mean = _make_reduction("Mean", _mean, NUMERIC, ("math.reduce_mean", "reduce_mean"))
reduce_max = _make_reduction("Max", _extreme(jnp.max, True), REAL,
                             ("math.reduce_max", "reduce_max"))
reduce_min = _make_reduction("Min", _extreme(jnp.min, False), REAL,
                             ("math.reduce_min", "reduce_min"))
reduce_any = _make_reduction("Any", lambda x, a, k: jnp.any(x, axis=a, keepdims=k), BOOL,
                             ("math.reduce_any", "reduce_any"))
reduce_all = _make_reduction("All", lambda x, a, k: jnp.all(x, axis=a, keepdims=k), BOOL,
                             ("math.reduce_all", "reduce_all"))
reduce_logsumexp = _make_reduction(
    "Max", lambda x, a, k: jax.nn.logsumexp(x, axis=a, keepdims=k), FLOAT,
    ("math.reduce_logsumexp", "reduce_logsumexp"))
reduce_euclidean_norm = _make_reduction("EuclideanNorm", _euclidean_norm, NUMERIC,
                                        ("math.reduce_euclidean_norm",), v1_signature=False)
_reduce_variance = _make_reduction("Variance", _variance, INEXACT, ("math.reduce_variance",),
                                   v1_signature=False, public=False)
_reduce_std = _make_reduction("Std", lambda x, a, k: jnp.sqrt(_variance(x, a, k)), INEXACT,
                              ("math.reduce_std",), v1_signature=False,
                              public=False)


def _moment(reduce):
  def moment(input_tensor, axis=None, keepdims=False, name=None):
    x = convert_to_tensor(input_tensor)
    if not (x.dtype.is_floating or x.dtype.is_complex):
      raise TypeError("Input must be either real or complex. Received integer type %s." % x.dtype)
    return reduce(x, axis, keepdims)
  moment.__doc__ = reduce.__doc__
  return moment


reduce_variance = export("math.reduce_variance")(_moment(_reduce_variance))
reduce_std = export("math.reduce_std")(_moment(_reduce_std))


# ---- argmax / argmin / count_nonzero ----
@op(name="ArgMax")
def _argmax(x, *, axis, output_type):
  if jnp.issubdtype(x.dtype, jnp.floating):  # TF never picks NaN
    x = jnp.where(jnp.isnan(x), -jnp.inf, x)
  return jnp.argmax(x, axis=axis).astype(output_type)


@op(name="ArgMin")
def _argmin(x, *, axis, output_type):
  if jnp.issubdtype(x.dtype, jnp.floating):
    x = jnp.where(jnp.isnan(x), jnp.inf, x)
  return jnp.argmin(x, axis=axis).astype(output_type)


def _arg_reduce(impl, op_name):
  def arg_reduce(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):
    axis = _lookup("axis", axis, "dimension", dimension)
    if op_name == "ArgMax" and isinstance(axis, (float, list, tuple, str)):
      raise TypeError("axis must be int or Tensor with integer datatype")
    x = input if type(input) is Tensor else convert_to_tensor(input)
    check_dtype(x, REAL | BOOL, op_name)
    axis = 0 if axis is None else static_ints(axis, op_name)
    rank = x._value.ndim
    if isinstance(axis, tuple):
      raise errors.op_error("dim must be a scalar, but received tensor of shape: %s"
                            % list(np.shape(axis)), op_name)
    if not -rank <= axis < max(rank, 1) or rank == 0:
      raise errors.invalid_argument("Expected dimension in the range [%d, %d), but got %d "
                                    "[Op:%s]" % (-rank, rank, axis, op_name))
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64):
      raise errors.invalid_argument("Value for attr 'output_type' of %s is not in the list of "
                                    "allowed values: int32, int64 [Op:%s]"
                                    % (output_type.name, op_name))
    return impl(x, axis=axis % rank, output_type=output_type.name)
  arg_reduce.__doc__ = "`tf.%s`: indices of the %s values along `axis` (default 0)." % (
      op_name.lower(), "largest" if op_name == "ArgMax" else "smallest")
  return arg_reduce


argmax = export("math.argmax", "argmax")(_arg_reduce(_argmax, "ArgMax"))
argmin = export("math.argmin", "argmin")(_arg_reduce(_argmin, "ArgMin"))


@export("arg_max")
def arg_max(input, dimension, output_type=dtypes.int64, name=None):
  """TF1 `tf.arg_max` (deprecated): `tf.argmax(input, dimension)`."""
  return argmax(input, dimension, output_type=output_type)


@export("arg_min")
def arg_min(input, dimension, output_type=dtypes.int64, name=None):
  """TF1 `tf.arg_min` (deprecated): `tf.argmin(input, dimension)`."""
  return argmin(input, dimension, output_type=output_type)


@op(name="CountNonzero")
def _count_nonzero(x, *, axis, keepdims, dtype):
  return jnp.sum(x != 0, axis=axis, keepdims=keepdims, dtype=jnp.int64).astype(dtype)


@export("math.count_nonzero", "count_nonzero")
def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):
  """`tf.count_nonzero`: the number of non-zero elements along `axis`."""
  input_tensor = _lookup("input", input, "input_tensor", input_tensor)
  axis = _lookup("axis", axis, "reduction_indices", reduction_indices)
  keepdims = _lookup("keepdims", keepdims, "keep_dims", keep_dims)
  x = convert_to_tensor(input_tensor)
  check_dtype(x, ANY, "NotEqual")
  return _count_nonzero(x, axis=_reduction_axes(x, axis, "Sum"), keepdims=bool(keepdims),
                        dtype=dtypes.as_dtype(dtype).name)


# ---- segment ops ----
_EMPTY = {"max": "lowest", "min": "highest", "prod": 1}


def _segment_reduce(data, ids, num_segments, kind, empty):
  """Segment reduction of `data` rows by `ids`; `empty` fills segments with no rows."""
  data = data.reshape((-1,) + data.shape[ids.ndim:])
  ids = ids.reshape(-1)
  counts = jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, num_segments)
  counts = counts.reshape(counts.shape + (1,) * (data.ndim - 1))
  if kind in ("sum", "mean", "sorted_mean", "sqrt_n"):
    out = jax.ops.segment_sum(data, ids, num_segments)
    divisor = jnp.maximum(counts, 1)
    if kind == "sorted_mean" and jnp.issubdtype(data.dtype, jnp.integer):  # SegmentMean truncates
      out = lax.div(out, divisor.astype(out.dtype))
    elif kind in ("mean", "sorted_mean"):  # unsorted: TF's `/`, so int data gives float means
      dtype = TRUEDIV.get(np.dtype(data.dtype).name, data.dtype)
      out = out.astype(dtype) / divisor.astype(dtype)
    elif kind == "sqrt_n":
      out = out / jnp.sqrt(divisor.astype(out.dtype))
    return out
  reduce = grad_rules.segment_prod if kind == "prod" else getattr(jax.ops, "segment_" + kind)
  out = reduce(data, ids, num_segments)
  if empty in ("lowest", "highest"):
    info = jnp.finfo(data.dtype) if jnp.issubdtype(data.dtype, jnp.inexact) else jnp.iinfo(
        data.dtype)
    empty = info.min if empty == "lowest" else info.max
  return jnp.where(counts > 0, out, jnp.asarray(empty, data.dtype))


@op(name="SegmentReduction")
def _segment(data, ids, *, num_segments, kind, empty):
  return _segment_reduce(data, ids, num_segments, kind, empty)


def _segment_inputs(data, segment_ids, kind):
  data = convert_to_tensor(data)
  ids = convert_to_tensor(segment_ids)
  allowed = {"sqrt_n": FLOAT, "max": REAL, "min": REAL}.get(kind, NUMERIC)
  check_dtype(data, allowed, "Segment" + kind.capitalize())
  check_dtype(ids, INT, "Segment" + kind.capitalize())
  if ids.shape.as_list() != data.shape.as_list()[:ids.shape.ndims]:
    raise errors.invalid_argument("data.shape = %s does not start with segment_ids.shape = %s"
                                  % (data.shape.as_list(), ids.shape.as_list()))
  return data, ids


def _make_unsorted(kind):
  op_name = "UnsortedSegment" + ("Sum" if kind in ("mean", "sqrt_n") else kind.capitalize())

  def unsorted_segment(data, segment_ids, num_segments, name=None):
    data, ids = _segment_inputs(data, segment_ids, kind)
    count = static_ints(num_segments)

    def error(values):
      first = np.argwhere(values >= count)[0] if values.ndim else ()
      return errors.invalid_argument("segment_ids%s = %d is out of range [0, %d) [Op:%s]" % (
          value_checks.first_position(values >= count), values[tuple(first)], count, op_name))
    value_checks.check(ids, lambda v: (v < count).all(), error)  # negative ids are dropped
    return _segment(data, ids, num_segments=static_ints(num_segments), kind=kind,
                    empty=_EMPTY.get(kind, 0))
  unsorted_segment.__doc__ = "`tf.math.unsorted_segment_%s` over `num_segments` segments." % kind
  return export("math.unsorted_segment_" + kind, "unsorted_segment_" + kind)(unsorted_segment)


def _make_sorted(kind):
  def segment(data, segment_ids, name=None):
    data, ids = _segment_inputs(data, segment_ids, kind)
    ids_np = ids.numpy().reshape(-1)  # the output shape depends on the ids' values
    num_segments = int(ids_np.max()) + 1 if ids_np.size else 0
    if ids_np.size and ids_np.min() < 0:
      raise errors.invalid_argument(
          "Segment id %d out of range [0, %d), possibly because 'segment_ids' input is not "
          "sorted. [Op:Segment%s]" % (ids_np.min(), num_segments, kind.capitalize()))
    if ids_np.size and np.any(np.diff(ids_np) < 0):
      raise errors.invalid_argument("segment ids are not increasing [Op:Segment%s]"
                                    % kind.capitalize())
    return _segment(data, ids, num_segments=num_segments,
                    kind="sorted_mean" if kind == "mean" else kind,
                    empty=1 if kind == "prod" else 0)
  segment.__doc__ = "`tf.math.segment_%s` over sorted `segment_ids` (empty segments: 0)." % kind
  return export("math.segment_" + kind, "segment_" + kind)(segment)


unsorted_segment_sum, unsorted_segment_mean, unsorted_segment_max, unsorted_segment_min, \
    unsorted_segment_prod, unsorted_segment_sqrt_n = (_make_unsorted(k) for k in (
        "sum", "mean", "max", "min", "prod", "sqrt_n"))
segment_sum, segment_mean, segment_max, segment_min, segment_prod = (
    _make_sorted(k) for k in ("sum", "mean", "max", "min", "prod"))


@op(name="Bincount")
def _bincount(arr, *weights, size, dtype):
  arr = arr.reshape(-1)
  values = weights[0].reshape(-1) if weights else jnp.ones(arr.shape, dtype)
  return jnp.zeros((size,), values.dtype).at[arr].add(values, mode="drop")


@export("math.bincount", "bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32):
  """`tf.math.bincount`: counts (or summed `weights`) of each value in the int32 `arr`."""
  arr = convert_to_tensor(arr, dtype=dtypes.int32)
  weights = () if weights is None else (convert_to_tensor(weights),)
  values = arr.numpy()  # the output size depends on the values
  if values.size and values.min() < 0:
    raise errors.invalid_argument("Input arr must be non-negative! [Op:Bincount]")
  size = max(int(values.max()) + 1 if values.size else 0, static_ints(minlength) or 0)
  if maxlength is not None:
    size = min(size, static_ints(maxlength))
  return _bincount(arr, *weights, size=size, dtype=dtypes.as_dtype(dtype).name)


@op(name="ConfusionMatrix")
def _confusion_matrix(labels, predictions, weights, *, num_classes, dtype):
  out = jnp.zeros((num_classes, num_classes), dtype)
  return out.at[labels.reshape(-1), predictions.reshape(-1)].add(
      weights.reshape(-1).astype(dtype), mode="drop")


@export("math.confusion_matrix", "confusion_matrix")
def confusion_matrix(labels, predictions, num_classes=None, dtype=dtypes.int32, name=None,
                     weights=None):
  """`tf.math.confusion_matrix`: counts (or summed `weights`) of (label, prediction) pairs."""
  labels = cast(labels, dtypes.int64)
  predictions = cast(predictions, dtypes.int64)
  if labels.shape.as_list() != predictions.shape.as_list():  # TF stacks the two
    raise errors.invalid_argument(
        "Shapes of all inputs must match: values[0].shape = %s != values[1].shape = %s "
        "[Op:Pack]" % (dims_text(labels._value.shape), dims_text(predictions._value.shape)))
  values = np.concatenate([labels.numpy().reshape(-1), predictions.numpy().reshape(-1)])
  if values.size and values.min() < 0:
    raise errors.invalid_argument("`labels` and `predictions` must be non-negative.")
  if num_classes is None:
    num_classes = int(values.max()) + 1 if values.size else 0
  elif values.size and values.max() >= static_ints(num_classes):
    raise errors.invalid_argument("`labels` and `predictions` must be less than num_classes.")
  dtype = dtypes.as_dtype(dtype)
  weights = (convert_to_tensor(np.ones(labels.shape.as_list(), dtype.as_numpy_dtype))
             if weights is None else convert_to_tensor(weights))
  return _confusion_matrix(labels, predictions, weights, num_classes=static_ints(num_classes),
                           dtype=dtype.name)


# ---- cumulative ops ----
_CUMULATIVE = {"Cumsum": (lax.cumsum, 0), "CumulativeLogsumexp": (lax.cumlogsumexp, -np.inf)}


def _cumulative_compute(x, *, axis, exclusive, reverse, kind):
  if kind == "Cumprod":  # TF's gradient, which differs from JAX's where x has zeros
    return grad_rules.cumprod(x, axis, exclusive, reverse)
  fn, fill = _CUMULATIVE[kind]
  return grad_rules.scan(fn, fill, x, axis, exclusive, reverse)


def _make_cumulative(kind, allowed, names):
  impl = op(name=kind)(_cumulative_compute)

  def cumulative(x, axis=0, exclusive=False, reverse=False, name=None):
    x = convert_to_tensor(x)
    check_dtype(x, allowed, kind)
    axis, rank = static_ints(axis, kind), x._value.ndim
    if not -rank <= axis < rank:
      raise errors.invalid_argument("ScanOp: Expected scan axis in the range [%d, %d), but got "
                                    "%d [Op:%s]" % (-rank, rank, axis, kind))
    return impl(x, axis=axis % rank, exclusive=bool(exclusive), reverse=bool(reverse),
                kind=kind)
  cumulative.__doc__ = "`tf.%s` along `axis`, optionally exclusive and/or reversed." % names[0]
  return export(*names)(cumulative)


cumsum = _make_cumulative("Cumsum", NUMERIC, ("math.cumsum", "cumsum"))
cumprod = _make_cumulative("Cumprod", NUMERIC, ("math.cumprod", "cumprod"))
cumulative_logsumexp = _make_cumulative("CumulativeLogsumexp", FLOAT,
                                        ("math.cumulative_logsumexp",))


@op(name="IsNonDecreasing")
def _monotonic(x, *, strict):
  flat = x.reshape(-1)
  diff_ok = flat[1:] > flat[:-1] if strict else flat[1:] >= flat[:-1]
  return jnp.all(diff_ok)


@export("debugging.is_non_decreasing", "math.is_non_decreasing", "is_non_decreasing")
def is_non_decreasing(x, name=None):
  """`tf.math.is_non_decreasing`: whether the flattened `x` never decreases."""
  return _monotonic(check_dtype(convert_to_tensor(x), REAL, "LessEqual"), strict=False)


@export("debugging.is_strictly_increasing", "math.is_strictly_increasing",
        "is_strictly_increasing")
def is_strictly_increasing(x, name=None):
  """`tf.math.is_strictly_increasing`: whether the flattened `x` always increases."""
  return _monotonic(check_dtype(convert_to_tensor(x), REAL, "Less"), strict=True)


@op(name="Lbeta")
def _lbeta(x):
  return jnp.sum(lax.lgamma(x), axis=-1) - lax.lgamma(jnp.sum(x, axis=-1))


@export("math.lbeta", "lbeta")
def lbeta(x, name=None):
  """`tf.math.lbeta`: log of the multivariate Beta function over the last axis."""
  return _lbeta(check_dtype(convert_to_tensor(x), FLOAT, "Lgamma"))


# ---- add_n ----
@op(name="AddN")
def _add_n(*inputs):
  return functools.reduce(jnp.add, inputs)


@export("math.add_n", "add_n")
def add_n(inputs, name=None):
  """`tf.add_n`: the elementwise sum of tensors of one dtype and shape."""
  if isinstance(inputs, Tensor):
    inputs = list(inputs)
  if not inputs or not isinstance(inputs, (list, tuple)):
    raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the "
                     "same dtype and shape.")
  inputs = convert_matching(*inputs, op_name="AddN")
  if len(inputs) == 1:
    return inputs[0]
  check_dtype(inputs[0], NUMERIC, "AddN")
  for i, t in enumerate(inputs[1:], 1):
    if t._value.shape != inputs[0]._value.shape:
      raise errors.invalid_argument(
          "Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: "
          "%s != input %d: %s [Op:AddN]" % (inputs[0].shape.as_list(), i, t.shape.as_list()))
  return _add_n(*inputs)


@export("math.accumulate_n", "accumulate_n")
def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
  """`tf.math.accumulate_n`: `add_n`, checking the optional `shape` and `tensor_dtype`."""
  refusal = ("inputs must be a list of at least one Tensor/IndexedSlices with the same dtype "
             "and shape")
  if not inputs or not isinstance(inputs, (list, tuple)):
    raise ValueError(refusal)
  inputs = [convert_to_tensor(t) for t in inputs]
  if any(t.dtype != inputs[0].dtype for t in inputs):
    raise ValueError(refusal)
  merged = tensor_shape.unknown_shape() if shape is None else tensor_shape.as_shape(shape)
  for t in inputs:
    merged = merged.merge_with(t.shape)  # TF's ValueError "Shapes (2,) and (3,) are not ..."
  if tensor_dtype is not None and inputs[0].dtype != tensor_dtype:
    raise TypeError("tensor_dtype is {}, but input is of type {}".format(
        dtypes.as_dtype(tensor_dtype), inputs[0].dtype))
  return add_n(inputs)


# ---- clipping ----
@op(name="ClipByValue")
def _clip_by_value(t, lo, hi):
  return grad_rules.maximum(grad_rules.minimum(t, hi), lo)  # TF's composite, TF's gradients


@export("clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
  """`tf.clip_by_value`: `t` with values below/above the bounds replaced by them."""
  t = convert_to_tensor(t)
  lo, hi = (b if isinstance(b, Tensor) else convert_to_tensor(b, dtype=t.dtype)
            for b in (clip_value_min, clip_value_max))
  t, lo, hi = convert_matching(t, lo, hi, op_name="ClipByValue")
  check_dtype(t, REAL, "ClipByValue")
  for bound, op_name in ((lo, "Maximum"), (hi, "Minimum")):
    try:
      joint = np.broadcast_shapes(t._value.shape, bound._value.shape)
    except ValueError:  # TF computes maximum(t, min) then minimum(.., max)
      raise errors.op_error("Incompatible shapes: %s vs. %s" % (
          dims_text(t._value.shape), dims_text(bound._value.shape)), op_name) from None
    if not t.shape.is_compatible_with(joint):
      raise ValueError("Shapes %s and %s are incompatible" % (t.shape, bound.shape))
  return _clip_by_value(t, lo, hi)


@op(name="ClipByNorm")
def _clip_by_norm(t, clip_norm, *, axes):
  clip_norm = jnp.maximum(clip_norm, 0)  # TF 2's: a negative norm clips to zero
  l2sum = jnp.sum(t * t, axis=axes, keepdims=True)
  positive = l2sum > 0
  l2norm = jnp.where(positive, jnp.sqrt(jnp.where(positive, l2sum, 1)), l2sum)
  return t * clip_norm / grad_rules.maximum(l2norm, clip_norm)


@export("clip_by_norm")
def clip_by_norm(t, clip_norm, axes=None, name=None):
  """`tf.clip_by_norm`: `t` rescaled so its L2 norm over `axes` is at most `clip_norm`."""
  t = check_dtype(convert_to_tensor(t), FLOAT, "Sqrt")
  clip_norm = convert_to_tensor(clip_norm, dtype=t.dtype)
  return _clip_by_norm(t, clip_norm, axes=_reduction_axes(t, axes, "Sum"))


def _values_of(t_list):
  if not isinstance(t_list, (list, tuple)):
    raise TypeError("t_list should be a sequence")
  return [None if t is None else convert_to_tensor(getattr(t, "values", t) if hasattr(
      t, "indices") else t) for t in t_list]


@op(name="GlobalNorm")
def _global_norm(*values):
  return jnp.sqrt(sum(jnp.sum(v * v) for v in values))


@export("global_norm", "linalg.global_norm")
def global_norm(t_list, name=None):
  """`tf.global_norm`: sqrt of the summed squares of every tensor in `t_list` (None skipped)."""
  values = [v for v in _values_of(t_list) if v is not None]
  if not values:
    raise ValueError("global_norm needs at least one tensor that is not None.")
  return _global_norm(*convert_matching(*values, op_name="Pack"))


@op(name="ClipByGlobalNorm")
def _clip_by_global_norm(norm, clip_norm, *values):
  # NaN if the norm is not finite
  scale = clip_norm * grad_rules.minimum(1 / norm, 1 / clip_norm) + (norm - norm)
  return tuple(v * scale.astype(v.dtype) for v in values)


@export("clip_by_global_norm")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
  """`tf.clip_by_global_norm`: (the tensors scaled by clip_norm / max(global_norm, clip_norm),
  the global norm); None entries stay None."""
  values = _values_of(t_list)
  norm = global_norm(values) if use_norm is None else convert_to_tensor(use_norm)
  clip_norm = convert_to_tensor(clip_norm, dtype=norm.dtype)
  present = [v for v in values if v is not None]
  clipped = iter(_clip_by_global_norm(norm, clip_norm, *present) if present else [])
  return [None if v is None else next(clipped) for v in values], norm


@op(name="ClipByAverageNorm")
def _clip_by_average_norm(t, clip_norm):
  inv_norm = grad_rules.rsqrt(jnp.sum(t * t))
  return t * clip_norm * grad_rules.minimum(inv_norm * t.size, 1 / clip_norm)


@export("clip_by_average_norm")
def clip_by_average_norm(t, clip_norm, name=None):
  """TF1 `tf.clip_by_average_norm`: clips `t` so its L2 norm / size is at most `clip_norm`."""
  t = check_dtype(convert_to_tensor(t), FLOAT, "Rsqrt")
  return _clip_by_average_norm(t, convert_to_tensor(clip_norm, dtype=t.dtype))

