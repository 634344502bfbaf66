"""`tf.nn` normalization, statistics and embedding lookups (TF's nn_impl / embedding_ops).

Imported by nn_ops, which exports the rest of `tf.nn`.
"""
# pylint: disable=redefined-builtin
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import value_checks
from tfe_compat.ops.reduction_ops import _reduction_axes
from tfe_compat.ops.conv_ops import (_TF_NAMES, _axes, _fail, _lookup, _precise,
                                     _require_float, _shape_text)

op = ops.op


@op(name="L2Normalize")
def _l2_normalize(x, epsilon, *, axis):
  square_sum = jnp.sum(jnp.square(x), axis=axis, keepdims=True)
  return x * lax.rsqrt(jnp.maximum(square_sum, epsilon))


@export("nn.l2_normalize", "math.l2_normalize", "linalg.l2_normalize")
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
  """x / sqrt(max(sum(x**2, axis), epsilon))."""
  axis = _axes(_lookup("axis", axis, "dim", dim))
  x = ops.convert_to_tensor(x)
  return _l2_normalize(x, ops.convert_to_tensor(epsilon, dtype=x.dtype), axis=axis)


def _mean(x, axes):
  if jnp.issubdtype(x.dtype, jnp.integer):
    count = int(np.prod([x.shape[a] for a in axes]))
    return lax.div(jnp.sum(x, axes, keepdims=True, dtype=x.dtype),
                   jnp.full((), count, x.dtype))
  return jnp.mean(x, axes, keepdims=True)


@op(name="Moments")
def _moments(x, *, axes, keep_dims):
  y = _precise(x)
  mean = _mean(y, axes)
  variance = _mean(jnp.square(y - lax.stop_gradient(mean)), axes)
  if not keep_dims:
    mean, variance = jnp.squeeze(mean, axes), jnp.squeeze(variance, axes)
  return mean.astype(x.dtype), variance.astype(x.dtype)


def _axes_tuple(x, axes, op_name):
  """Checked, non-negative reduction `axes` of `x` (TF's errors of the op reducing them)."""
  axes = _reduction_axes(x, axes, op_name)
  return tuple(range(x._value.ndim)) if axes is None else axes


@export("nn.moments")
def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
  """(mean, variance) of `x` over `axes`; `shift` is unused, as in TF."""
  keep_dims = bool(_lookup("keepdims", keepdims, "keep_dims", keep_dims))
  x = ops.convert_to_tensor(x)
  return tuple(_moments(x, axes=_axes_tuple(x, axes, "Mean"), keep_dims=keep_dims))


@op(name="WeightedMoments")
def _weighted_moments(x, weights, *, axes, keep_dims):
  y, w = _precise(x), weights.astype(_precise(x).dtype)
  divisor = 1 / jnp.sum(w + jnp.zeros_like(y), axes, keepdims=True)
  mean = jnp.sum(w * y, axes, keepdims=True) * divisor
  variance = jnp.sum(w * jnp.square(y - mean), axes, keepdims=True) * divisor
  if not keep_dims:
    mean, variance = jnp.squeeze(mean, axes), jnp.squeeze(variance, axes)
  return mean.astype(x.dtype), variance.astype(x.dtype)


@export("nn.weighted_moments")
def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
  """Frequency-weighted (mean, variance) of `x` over `axes`."""
  keep_dims = bool(_lookup("keepdims", keepdims, "keep_dims", keep_dims))
  x = ops.convert_to_tensor(x)
  weights = ops.convert_to_tensor(frequency_weights, preferred_dtype=x.dtype)
  return tuple(_weighted_moments(x, weights, axes=_axes_tuple(x, axes, "Sum"),
                                 keep_dims=keep_dims))


@op(name="SufficientStatistics")
def _sufficient_statistics(x, *shift, axes, keep_dims):
  m_ss, v_ss = (x - shift[0], jnp.square(x - shift[0])) if shift else (x, jnp.square(x))
  return (jnp.sum(m_ss, axes, keepdims=keep_dims, dtype=x.dtype),
          jnp.sum(v_ss, axes, keepdims=keep_dims, dtype=x.dtype))


@export("nn.sufficient_statistics")
def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
  """(count, sum(x - shift), sum((x - shift)**2), shift) over `axes`."""
  keep_dims = bool(_lookup("keepdims", keepdims, "keep_dims", keep_dims))
  x = ops.convert_to_tensor(x)
  axes = _axes_tuple(x, axes, "Sum")
  counts = ops.convert_to_tensor(int(np.prod([x._value.shape[a] for a in axes])),
                                 dtype=x.dtype)
  shift = None if shift is None else ops.convert_to_tensor(shift, dtype=x.dtype)
  extra = () if shift is None else (shift,)
  m_ss, v_ss = _sufficient_statistics(x, *extra, axes=axes, keep_dims=keep_dims)
  return counts, m_ss, v_ss, shift


@op(name="NormalizeMoments")
def _normalize_moments(counts, mean_ss, variance_ss, *shift):
  divisor = 1 / counts
  shifted_mean = mean_ss * divisor
  mean = shifted_mean + shift[0] if shift else shifted_mean
  return mean, variance_ss * divisor - jnp.square(shifted_mean)


@export("nn.normalize_moments")
def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
  """(mean, variance) from sufficient statistics."""
  values = [counts, mean_ss, variance_ss] + ([] if shift is None else [shift])
  return tuple(_normalize_moments(*ops.convert_matching(*values, op_name="Mul")))


@op(name="BatchNormalization")
def _batch_normalization(x, mean, variance, epsilon, *params, has_offset, has_scale):
  inv = lax.rsqrt(variance + epsilon)
  if has_scale:
    inv = inv * params[-1]
  shift = params[0] - mean * inv if has_offset else -mean * inv
  return x * inv.astype(x.dtype) + shift.astype(x.dtype)


@export("nn.batch_normalization")
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
  """scale * (x - mean) / sqrt(variance + variance_epsilon) + offset."""
  x = ops.convert_to_tensor(x)
  mean, variance = [ops.convert_to_tensor(v, preferred_dtype=x.dtype) for v in (mean, variance)]
  params = [ops.convert_to_tensor(v, preferred_dtype=variance.dtype)
            for v in (offset, scale) if v is not None]
  epsilon = ops.convert_to_tensor(variance_epsilon, dtype=variance.dtype)
  return _batch_normalization(x, mean, variance, epsilon, *params,
                              has_offset=offset is not None, has_scale=scale is not None)


@export("nn.batch_norm_with_global_normalization")
def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None,
                                         variance_epsilon=None,
                                         scale_after_normalization=None, name=None,
                                         input=None, mean=None, variance=None):
  """Deprecated batch_normalization; `gamma` is used only if `scale_after_normalization`."""
  t = _lookup("input", input, "t", t)
  m = _lookup("mean", mean, "m", m)
  v = _lookup("variance", variance, "v", v)
  return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None,
                             variance_epsilon)


def _channel_shape(x, channel_axis):
  return tuple(-1 if i == channel_axis else 1 for i in range(x.ndim))


@op(name="FusedBatchNormV3")
def _fused_batch_norm_train(x, scale, offset, *, epsilon, channel_axis):
  y = _precise(x)
  axes = tuple(i for i in range(x.ndim) if i != channel_axis)
  shape = _channel_shape(x, channel_axis)
  mean = jnp.mean(y, axes, keepdims=True)
  variance = jnp.mean(jnp.square(y - mean), axes, keepdims=True)
  out = (y - mean) * lax.rsqrt(variance + epsilon) * scale.reshape(shape) + offset.reshape(shape)
  count = int(np.prod([x.shape[a] for a in axes]))
  unbiased = variance.reshape(-1) * (count / max(count - 1, 1))
  return (out.astype(x.dtype), lax.stop_gradient(mean.reshape(-1)),
          lax.stop_gradient(unbiased.astype(variance.dtype)))


@op(name="FusedBatchNormV3")
def _fused_batch_norm_infer(x, scale, offset, mean, variance, *, epsilon, channel_axis):
  shape = _channel_shape(x, channel_axis)
  mean, variance = lax.stop_gradient(mean), lax.stop_gradient(variance)
  inv = lax.rsqrt(variance + epsilon) * scale
  out = _precise(x) * inv.reshape(shape) + (offset - mean * inv).reshape(shape)
  return out.astype(x.dtype), mean, variance


@export("nn.fused_batch_norm")
def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None):
  """Batch normalization of a 4-D (or 5-D) `x`; returns (y, batch_mean, batch_variance).

  In training the batch variance returned is the unbiased one (n / (n - 1)), as in TF,
  while `y` is normalized with the biased one.
  """
  x = ops.convert_to_tensor(x)
  if x.ndim not in (4, 5):
    _fail("input must be 4 or 5-dimensional%s" % _shape_text(x._value.shape),
          "FusedBatchNormV3")
  if data_format not in ("NHWC", "NCHW", "NDHWC", "NCDHW"):
    raise ValueError("Invalid data_format %r" % (data_format,))
  channel_axis = 1 if data_format.startswith("NC") else x.ndim - 1
  depth = x._value.shape[channel_axis]
  param_dtype = "float32" if x.dtype.size == 2 else x.dtype
  epsilon = max(float(epsilon), 1.001e-5)
  names = ("scale", "offset") if is_training else ("scale", "offset", "mean", "variance")
  if not is_training and (mean is None or variance is None):
    raise ValueError("Both 'mean' and 'variance' must be a 1-D tensor when is_training is "
                     "False.")
  params = [ops.convert_to_tensor(v, dtype=param_dtype) for v in (scale, offset, mean,
                                                                   variance)[:len(names)]]
  for param_name, param in zip(names, params):
    if param._value.shape != (depth,):
      _fail("%s must have the same number of elements as the channels of x, got %d and %d"
            % (param_name, param._value.size, depth), "FusedBatchNormV3")
  impl = _fused_batch_norm_train if is_training else _fused_batch_norm_infer
  return tuple(impl(x, *params, epsilon=epsilon, channel_axis=channel_axis))


@op(name="LRN")
def _lrn(x, *, depth_radius, bias, alpha, beta):
  window = (1, 1, 1, 2 * depth_radius + 1)
  pads = ((0, 0), (0, 0), (0, 0), (depth_radius, depth_radius))
  square_sum = lax.reduce_window(jnp.square(x), np.array(0, x.dtype), lax.add, window,
                                 (1, 1, 1, 1), pads)
  return x * (bias + alpha * square_sum) ** -beta


@export("nn.local_response_normalization", "nn.lrn")
def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):
  """x / (bias + alpha * sum of squares over a window of the last dimension) ** beta."""
  x = ops.convert_to_tensor(input)
  _require_float(x, "LRN")
  if x.ndim != 4:
    _fail("input must be 4-dimensional", "LRN")
  return _lrn(x, depth_radius=int(depth_radius), bias=float(bias), alpha=float(alpha),
              beta=float(beta))


@op(name="ZeroFraction")
def _zero_fraction(x):
  zeros = jnp.sum(x == 0, dtype=jnp.int64).astype(jnp.float32)
  return zeros / jnp.float32(x.size)


@export("nn.zero_fraction", "math.zero_fraction")
def zero_fraction(value, name=None):
  """The fraction of zeros in `value`, as a float32 scalar."""
  value = ops.convert_to_tensor(value)
  if value.dtype is dtypes.string:  # TF's zero of a string tensor is the empty string
    value = ops.convert_to_tensor(np.asarray(value._value != b""))
  return _zero_fraction(value)


# ---- Embeddings ----
def _clip_rows(rows, ids_ndim, max_norm):
  axes = tuple(range(ids_ndim, rows.ndim))
  l2sum = jnp.sum(rows * rows, axes, keepdims=True)
  positive = l2sum > 0
  l2norm = jnp.where(positive, jnp.sqrt(jnp.where(positive, l2sum, 1)), l2sum)
  max_norm = jnp.asarray(max_norm, rows.dtype)
  return rows * max_norm / jnp.maximum(l2norm, max_norm)


def _partition(ids, sizes, strategy, xp):
  """(partition, row within it) of each id, for TF's "mod" and "div" strategies."""
  n = len(sizes)
  if strategy == "mod":
    return ids % n, ids // n
  per, extras = divmod(sum(sizes), n)
  part = xp.maximum(ids // (per + 1), (ids - extras) // max(per, 1))
  return part, xp.where(part < extras, ids % (per + 1), (ids - extras) % max(per, 1))


@op(name="GatherV2")
def _embedding_lookup(ids, *params, strategy, max_norm):
  if len(params) == 1:
    rows = jnp.take(params[0], ids, axis=0)
  else:
    part, local = _partition(ids, [p.shape[0] for p in params], strategy, jnp)
    rows = jnp.zeros(ids.shape + params[0].shape[1:], params[0].dtype)
    expand = (Ellipsis,) + (None,) * (params[0].ndim - 1)
    for i, table in enumerate(params):
      picked = jnp.take(table, jnp.clip(local, 0, table.shape[0] - 1), axis=0)
      rows = jnp.where((part == i)[expand], picked, rows)
  return rows if max_norm is None else _clip_rows(rows, ids.ndim, max_norm)


def _check_ids(ids, sizes, strategy):
  """TF's GatherV2 check of the ids (within their partition, for partitioned params)."""
  def bounds(values, xp):
    """(ids within their partition, the partitions' sizes)."""
    if len(sizes) == 1:
      return values, sizes[0]
    parts, local = _partition(values, sizes, strategy, xp)
    return local, xp.asarray(sizes)[parts]

  def valid(values):
    local, limits = bounds(values, np if isinstance(values, np.ndarray) else jnp)
    return ((local >= 0) & (local < limits)).all()

  def error(values):
    local, limits = bounds(values, np)
    limits = np.broadcast_to(limits, local.shape)
    bad = (local < 0) | (local >= limits)
    first = tuple(np.argwhere(bad)[0]) if values.ndim else ()
    where = first if len(sizes) == 1 else (int(np.flatnonzero(bad.reshape(-1))[0]),)
    _fail("indices[%s] = %d is not in [0, %d)" % (",".join(str(int(i)) for i in where),
                                                   local[first], limits[first]), "GatherV2")
  value_checks.check(ids, valid, error)


@export("nn.embedding_lookup")
def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
  """Rows of `params` (a Tensor/Variable, or a list of partitions) for each id."""
  if params is None or (isinstance(params, (list, tuple)) and not params):
    raise ValueError("Need at least one param")
  if not isinstance(params, list):
    params = [params]
  if partition_strategy not in ("mod", "div"):
    raise ValueError("Unrecognized partition strategy: " + str(partition_strategy))
  params = ops.convert_matching(*params, op_name="GatherV2")
  ids = ops.convert_to_tensor(ids)
  if ids.dtype not in (dtypes.int16, dtypes.int32, dtypes.int64):
    _fail("Value for attr 'Tindices' of %s is not in the list of allowed values: int16, "
          "int32, int64" % _TF_NAMES.get(ids.dtype.name, ids.dtype.name), "GatherV2")
  sizes = [p._value.shape[0] for p in params]
  if ids._value.size:
    _check_ids(ids, sizes, partition_strategy)
  return _embedding_lookup(ids, *params, strategy=partition_strategy,
                           max_norm=None if max_norm is None else float(max_norm))
