"""More TF 1.15 `tf.nn` convolution ops: filter/input backprops (as VJPs of the forward
convolutions in conv_ops), conv_transpose, dilation2d/erosion2d (grayscale morphology),
with_space_to_batch, max_pool_with_argmax and fractional max/avg pooling.
"""
# pylint: disable=redefined-builtin,dangerous-default-value
import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import conv_ops
from tfe_compat.ops import space_ops
from tfe_compat.ops.array_ops import int_tuple
from tfe_compat.ops.conv_ops import (_conv_impl, _depthwise_impl, _fail, _hashable, _lookup,
                                     _pool_plan)

# ---- Convolution backprops: the VJP of the forward convolution ----
# kind: (spatial rank, depthwise, error prefix)
_KINDS = {
    "Conv2DBackpropFilter": (2, False, "Conv2DCustomBackpropFilter: "),
    "Conv3DBackpropFilterV2": (3, False, "Conv3DBackpropFilterOp: "),
    "DepthwiseConv2dNativeBackpropFilter": (2, True, "DepthwiseConv2DBackpropFilter: "),
    "DepthwiseConv2dNativeBackpropInput": (2, True, "DepthwiseConv2DBackpropInput: "),
}


def _forward(depthwise):
  return _depthwise_impl if depthwise else _conv_impl


def _filter_grad_impl(x, dy, *, plan, w_shape, depthwise):
  fwd = _forward(depthwise)
  _, vjp = jax.vjp(lambda w: fwd(x, w, plan=plan), jnp.zeros(w_shape, x.dtype))
  return vjp(dy)[0]


def _input_grad_impl(w, dy, *, plan, x_shape, depthwise):
  fwd = _forward(depthwise)
  _, vjp = jax.vjp(lambda x: fwd(x, w, plan=plan), jnp.zeros(x_shape, w.dtype))
  return vjp(dy)[0]


_FILTER_GRAD = {name: ops.op(_filter_grad_impl, name=name)
                for name in _KINDS if name.endswith("Filter") or name.endswith("FilterV2")}
_INPUT_GRAD = ops.op(_input_grad_impl, name="DepthwiseConv2dNativeBackpropInput")


@functools.lru_cache(maxsize=256)
def _backprop_plan(op_name, x_shape, w_shape, dy_shape, dtype, strides, padding, dilations,
                   data_format):
  """Checks (input, filter, out_backprop) shapes as TF's backprop kernels do."""
  n, depthwise, prefix = _KINDS[op_name]
  first = conv_ops._channels_first(data_format, n, op_name)
  if len(x_shape) != n + 2 or len(w_shape) != n + 2 or len(dy_shape) != n + 2:
    _fail("%sinput, filter and out_backprop must be %d-dimensional" % (prefix, n + 2), op_name)
  in_depth = x_shape[1] if first else x_shape[-1]
  out_depth = dy_shape[1] if first else dy_shape[-1]
  if depthwise:
    if in_depth != w_shape[-2] or w_shape[-2] * w_shape[-1] != out_depth:
      _fail(prefix + "depth_multiplier * in_depth not equal to out_depth", op_name)
  else:
    if w_shape[-1] != out_depth and n == 3:
      _fail("out_backprop and filter_sizes must have the same number of channels. Got %d for "
            "out_backprop and %d for filter_sizes" % (out_depth, w_shape[-1]), op_name)
    if w_shape[-1] != out_depth:
      _fail(prefix + "filter and out_backprop must have the same out_depth", op_name)
    if w_shape[-2] == 0 or in_depth % w_shape[-2]:
      _fail(prefix + "input depth must be evenly divisible by filter depth", op_name)
  plan = conv_ops._conv_plan(op_name, n, x_shape, w_shape, strides, padding, dilations,
                             data_format, depthwise=depthwise)
  expected = jax.eval_shape(functools.partial(_forward(depthwise), plan=plan),
                            jax.ShapeDtypeStruct(x_shape, dtype),
                            jax.ShapeDtypeStruct(w_shape, dtype)).shape
  offset = 2 if first else 1
  for i in range(n):
    actual, computed = dy_shape[offset + i], expected[offset + i]
    if actual == computed:
      continue
    if depthwise:
      _fail("%sNumber of %s of out_backprop doesn't match computed: actual = %d, computed = %d"
            % (prefix, ("rows", "columns")[i], actual, computed), op_name)
    in_size = x_shape[offset + i]
    _fail("%sSize of out_backprop doesn't match computed: actual = %d, computed = %d "
          "spatial_dim: %d input: %d filter: %d output: %d stride: %d dilation: %d"
          % (prefix, actual, computed, offset + i, in_size, w_shape[i], actual,
             plan.strides[i], plan.dilations[i]), op_name)
  return plan


def _backprop_filter(op_name, input, filter_sizes, out_backprop, strides, padding, data_format,
                     dilations):
  x, dy = ops.convert_matching(input, out_backprop, op_name=op_name)
  conv_ops._require_float(x, op_name)
  w_shape = int_tuple(filter_sizes)
  plan = _backprop_plan(op_name, x._value.shape, w_shape, dy._value.shape, x.dtype.name,
                        _hashable(strides), _hashable(padding), _hashable(dilations),
                        data_format)
  return _FILTER_GRAD[op_name](x, dy, plan=plan, w_shape=w_shape,
                               depthwise=_KINDS[op_name][1])


@export("nn.conv2d_backprop_filter")
def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=[1, 1, 1, 1],
                           name=None):
  """The gradient of conv2d w.r.t. its filter, of shape `filter_sizes`."""
  return _backprop_filter("Conv2DBackpropFilter", input, filter_sizes, out_backprop, strides,
                          padding, data_format, dilations)


@export("nn.conv3d_backprop_filter", "nn.conv3d_backprop_filter_v2")
def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,
                              data_format="NDHWC", dilations=[1, 1, 1, 1, 1], name=None):
  """The gradient of conv3d w.r.t. its filter, of shape `filter_sizes`."""
  return _backprop_filter("Conv3DBackpropFilterV2", input, filter_sizes, out_backprop, strides,
                          padding, data_format, dilations)


@export("nn.depthwise_conv2d_native_backprop_filter", "nn.depthwise_conv2d_backprop_filter")
def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides,
                                            padding, data_format="NHWC",
                                            dilations=[1, 1, 1, 1], name=None):
  """The gradient of depthwise_conv2d_native w.r.t. its filter."""
  return _backprop_filter("DepthwiseConv2dNativeBackpropFilter", input, filter_sizes,
                          out_backprop, strides, padding, data_format, dilations)


@export("nn.depthwise_conv2d_native_backprop_input", "nn.depthwise_conv2d_backprop_input")
def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides, padding,
                                           data_format="NHWC", dilations=[1, 1, 1, 1],
                                           name=None):
  """The gradient of depthwise_conv2d_native w.r.t. its input, of shape `input_sizes`."""
  op_name = "DepthwiseConv2dNativeBackpropInput"
  w, dy = ops.convert_matching(filter, out_backprop, op_name=op_name)
  conv_ops._require_float(w, op_name)
  x_shape = int_tuple(input_sizes)
  plan = _backprop_plan(op_name, x_shape, w._value.shape, dy._value.shape, w.dtype.name,
                        _hashable(strides), _hashable(padding), _hashable(dilations),
                        data_format)
  return _INPUT_GRAD(w, dy, plan=plan, x_shape=x_shape, depthwise=True)


@export("nn.conv_transpose")
def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,
                   dilations=None, name=None):
  """N-d transposed convolution; N = len(output_shape) - 2."""
  if hasattr(output_shape, "shape") and not isinstance(output_shape, (list, tuple)):
    n = int(np.prod(output_shape.shape)) - 2
  elif isinstance(output_shape, (list, tuple)):
    n = len(output_shape) - 2
  else:
    raise ValueError("output_shape must be a tensor or sized collection.")
  if not 1 <= n <= 3:
    raise ValueError("`output_shape` must be of length 3, 4 or 5. Received: output_shape=%s of "
                     "length %d." % (list(int_tuple(output_shape)), n + 2))
  fmt = data_format or {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
  if n == 1:
    return conv_ops.conv1d_transpose(input, filters, output_shape, strides, padding, fmt,
                                     dilations)
  transpose = conv_ops.conv2d_transpose if n == 2 else conv_ops.conv3d_transpose
  return transpose(input, filters, output_shape, strides, padding, data_format=fmt,
                   dilations=dilations)


# ---- Grayscale morphology ----
MorphPlan = collections.namedtuple("MorphPlan", ["strides", "rates", "pads", "out", "erode"])


def _lowest(dtype):
  if jnp.issubdtype(dtype, jnp.floating):
    return np.array(-np.inf, dtype)
  return np.array(np.iinfo(dtype).min, dtype)


def _dilation_impl(x, f, *, plan):
  """max over the (dilated) window of input + filter; the gradient goes to the first max."""
  if 0 in plan.out:  # a VALID window larger than the input: TF returns an empty result
    return jnp.zeros((x.shape[0],) + plan.out + (x.shape[3],), x.dtype)
  if plan.erode:  # TF's erosion2d: -dilation2d(-value, reverse(kernel, [0, 1]))
    x, f = -x, jnp.flip(f, (0, 1))
  lowest = _lowest(x.dtype)
  xp = jnp.pad(x, ((0, 0),) + plan.pads + ((0, 0),), constant_values=lowest)
  inside = np.pad(np.ones(x.shape[1:3], bool), plan.pads)
  (sh, sw), (rh, rw), (oh, ow) = plan.strides, plan.rates, plan.out
  candidates = []
  for i in range(f.shape[0]):
    for j in range(f.shape[1]):
      rows = np.s_[i * rh:i * rh + (oh - 1) * sh + 1:sh]
      cols = np.s_[j * rw:j * rw + (ow - 1) * sw + 1:sw]
      mask = inside[rows, cols][None, :, :, None]
      candidates.append(jnp.where(mask, xp[:, rows, cols, :] + f[i, j], lowest))
  stack = jnp.stack(candidates, axis=-1)
  best = jnp.argmax(stack, axis=-1)[..., None]
  out = jnp.take_along_axis(stack, best, axis=-1)[..., 0]
  return -out if plan.erode else out


_dilation = ops.op(_dilation_impl, name="Dilation2D")


@functools.lru_cache(maxsize=128)
def _morph_plan(x_shape, f_shape, strides, rates, padding, erode):
  op_name = "Dilation2D"
  for value, label in ((strides, "strides"), (rates, "rates")):
    value = value if isinstance(value, tuple) else (value,)
    if len(value) < 4:
      _fail("Length for attr '%s' of %d must be at least minimum 4" % (label, len(value)),
            op_name)
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
      raise errors.UnimplementedError(
          None, None, "%s is only supported across spatial dimensions. [Op:%s]"
          % ({"strides": "Stride", "rates": "Rate"}[label], op_name))
  if padding not in ("SAME", "VALID"):
    _fail("Value for attr 'padding' of \"%s\" is not in the list of allowed values: \"SAME\", "
          "\"VALID\"" % (padding,), op_name)
  if len(x_shape) != 4:
    _fail("input must be 4-dimensional%s" % conv_ops._shape_text(x_shape), op_name)
  if len(f_shape) != 3:
    _fail("filter must be 3-dimensional: %s" % conv_ops._shape_text(f_shape), op_name)
  if x_shape[3] != f_shape[2]:
    _fail("input and filter must have the same depth: %d vs %d" % (x_shape[3], f_shape[2]),
          op_name)
  eff = tuple((f_shape[i] - 1) * rates[1 + i] + 1 for i in range(2))
  pads = tuple(lax.padtype_to_pads(x_shape[1:3], eff, strides[1:3], padding))
  out = tuple(max((x_shape[1 + i] + sum(pads[i]) - eff[i]) // strides[1 + i] + 1, 0)
              for i in range(2))
  return MorphPlan(strides[1:3], rates[1:3], tuple(tuple(p) for p in pads), out, erode)


def _morphology(x, f, strides, rates, padding, erode):
  x, f = ops.convert_matching(x, f, op_name="Dilation2D")
  plan = _morph_plan(x._value.shape, f._value.shape, _hashable(strides), _hashable(rates),
                     padding, erode)
  return _dilation(x, f, plan=plan)


@export("nn.dilation2d")
def dilation2d(input, filter=None, strides=None, rates=None, padding=None, name=None,
               filters=None, dilations=None):
  """Grayscale dilation of NHWC `input` by a [h, w, depth] `filter` (max of input + filter)."""
  filter = conv_ops._lookup("filters", filters, "filter", filter)
  rates = conv_ops._lookup("dilations", dilations, "rates", rates)
  return _morphology(input, filter, strides, rates, padding, False)


@export("nn.erosion2d")
def erosion2d(value, kernel, strides, rates, padding, name=None):
  """Grayscale erosion: -dilation2d(-value, kernel reversed in its two spatial dims)."""
  return _morphology(value, kernel, strides, rates, padding, True)


# ---- with_space_to_batch ----
@export("nn.with_space_to_batch")
def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,
                        spatial_dims=None, data_format=None):
  """Runs `op(input, num_spatial_dims, padding)` on the space-to-batch form of `input`."""
  input = ops.convert_to_tensor(input)
  rate = np.array(int_tuple(dilation_rate), np.int64).reshape(-1)
  n = rate.size
  start = 2 if data_format is not None and data_format.startswith("NC") else 1
  dims = list(range(start, start + n)) if spatial_dims is None else [int(d)
                                                                     for d in spatial_dims]
  if dims != sorted(set(dims)) or any(d < 1 for d in dims):
    raise ValueError("`spatial_dims` must be a monotonically increasing sequence of positive "
                     "integers. Received: spatial_dims=%s" % dims)
  rank = dims[-1] if start == 2 else dims[-1] + 1
  if input.ndim < rank:
    raise ValueError("`input.shape.rank` must be at least %d. Received: input.shape=%s with "
                     "rank %d" % (rank, input.shape, input.ndim))
  if np.any(rate < 1):
    raise ValueError("`dilation_rate` must be positive. Received: dilation_rate=%s" % rate)
  if np.all(rate == 1):
    return op(input, n, padding)
  padding = _hashable(padding)
  if padding == "SAME":
    if filter_shape is None:
      raise ValueError("`filter_shape` must be specified for `padding='SAME'`. Received: "
                       "filter_shape=None and padding=SAME")
    extra = (np.array(int_tuple(filter_shape))[:n] - 1) * rate
    base = np.stack([extra // 2, extra - extra // 2], axis=1)
  elif padding == "VALID":
    base = np.zeros([n, 2], np.int64)
  elif isinstance(padding, tuple) and len(padding) == input.ndim:
    base = np.array(padding[start:start + n] if spatial_dims is None else
                    [padding[d] for d in dims], np.int64).reshape(n, 2)
  else:
    raise ValueError("`padding` must be one of 'SAME' or 'VALID'. Received: padding=%s"
                     % (padding,))
  sizes = np.array([input.shape[d] for d in dims], np.int64)
  dims_paddings, dims_crops = space_ops.required_paddings(sizes, rate, base)
  block, paddings, crops = [1] * dims[-1], [[0, 0]] * dims[-1], [[0, 0]] * dims[-1]
  for i, d in enumerate(dims):
    block[d - 1] = int(rate[i])
    paddings[d - 1] = [int(v) for v in dims_paddings[i]]
    crops[d - 1] = [int(v) for v in dims_crops[i]]
  converted = space_ops.space_to_batch_nd(input, block, paddings)
  result = op(converted, n, "VALID")
  return space_ops.batch_to_space_nd(result, block, crops)


# ---- max_pool_with_argmax ----
_ArgmaxPool = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


@ops.op(name="MaxPoolWithArgmax")
def _max_pool_with_argmax(x, *, plan, include_batch_in_index, index_dtype):
  """TF's CPU kernel: each window's first maximum in row-major order (NaN never replaces a
  value), and its flat index ((b *) h * W + w) * C + c."""
  (_, kh, kw, _), (_, sh, sw, _) = plan.window, plan.strides
  b, h, w, c = x.shape
  if plan.padding == "SAME":
    out_h, out_w = -(-h // sh), -(-w // sw)
    top = max((out_h - 1) * sh + kh - h, 0) // 2
    left = max((out_w - 1) * sw + kw - w, 0) // 2
  else:
    out_h, out_w, top, left = (h - kh) // sh + 1, (w - kw) // sw + 1, 0, 0
  rows = np.arange(out_h)[:, None] * sh - top + np.arange(kh)  # [out_h, kh]
  cols = np.arange(out_w)[:, None] * sw - left + np.arange(kw)  # [out_w, kw]
  best = jnp.zeros((b, out_h, out_w, c), x.dtype)
  index = jnp.full((b, out_h, out_w, c), -1, jnp.int64)
  for i in range(kh):
    for j in range(kw):
      r, q = rows[:, i], cols[:, j]
      valid = ((r >= 0) & (r < h))[:, None] & ((q >= 0) & (q < w))[None, :]
      r, q = np.clip(r, 0, h - 1), np.clip(q, 0, w - 1)
      value = x[:, r][:, :, q]
      position = (r[:, None] * w + q[None, :])[..., None] * c + np.arange(c)
      if include_batch_in_index:
        position = position + (np.arange(b) * h * w * c)[:, None, None, None]
      take = valid[None, :, :, None] & ((index < 0) | (best < value))
      best, index = jnp.where(take, value, best), jnp.where(take, position, index)
  return best, index.astype(index_dtype)


@export("nn.max_pool_with_argmax")
def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", Targmax=None,
                         name=None, output_dtype=None, include_batch_in_index=False):
  """(max pooling of NHWC `input`, the flat index of each maximum): `(y * width + x) *
  channels + c`, plus `b * height * width * channels` with include_batch_in_index."""
  if data_format != "NHWC":
    raise ValueError("Data formats other than 'NHWC' are not yet supported")
  index_dtype = dtypes.as_dtype(_lookup("output_dtype", output_dtype, "Targmax", Targmax) or
                                dtypes.int64)
  x = ops.convert_to_tensor(input)
  plan = _pool_plan("MaxPoolWithArgmax", 2, x._value.shape, _hashable(ksize), _hashable(strides),
                    padding, "NHWC")
  return _ArgmaxPool(*_max_pool_with_argmax(
      x, plan=plan, include_batch_in_index=bool(include_batch_in_index),
      index_dtype=np.dtype(index_dtype.as_numpy_dtype).name))


# ---- Fractional pooling ----
def _pooling_sequence(size, out, pseudo_random, rng):
  """TF's GeneratePoolingSequence: out + 1 cumulative boundaries from 0 to size."""
  k = size // out
  if size % out == 0:
    diff = np.full(out, k)
  elif pseudo_random:
    alpha = size / out
    max_u = min((k + 2) / alpha - 1, (size + 1 - k) / alpha - (out - 1))
    u = rng.uniform() * max_u
    cum = np.array([1] + [int(np.ceil(alpha * (i + u))) for i in range(1, out)] + [size + 1])
    diff = np.diff(cum)
  else:
    diff = np.full(out, k)
    diff[rng.permutation(out)[:size % out]] += 1
  return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _windows(seq, size, overlapping):
  """Static (index, mask) arrays [out, K] covering each pooling window along one axis."""
  starts = seq[:-1]
  ends = np.minimum(seq[1:] + (1 if overlapping else 0), size)
  width = int((ends - starts).max())
  index = starts[:, None] + np.arange(width)[None, :]
  return np.minimum(index, size - 1), index < ends[:, None]


def _fractional_impl(x, *, rows, cols, overlapping, average):
  for axis, seq in ((1, rows), (2, cols)):
    index, mask = _windows(np.array(seq), x.shape[axis], overlapping)
    shape = [1] * (x.ndim + 1)
    shape[axis:axis + 2] = mask.shape
    g = jnp.take(x, index.reshape(-1), axis=axis)
    g = g.reshape(x.shape[:axis] + mask.shape + x.shape[axis + 1:])
    mask = mask.reshape(shape)
    if average:
      x = jnp.where(mask, g, 0).sum(axis=axis + 1) / np.array(
          mask.sum(axis=axis + 1), x.dtype)
    else:
      g = jnp.where(mask, g, _lowest(x.dtype))
      best = jnp.expand_dims(jnp.argmax(g, axis=axis + 1), axis + 1)
      x = jnp.take_along_axis(g, best, axis=axis + 1).squeeze(axis + 1)
  return x


FractionalPoolOutput = collections.namedtuple(
    "FractionalPoolOutput", ["output", "row_pooling_sequence", "col_pooling_sequence"])
_FRACTIONAL = {False: ops.op(_fractional_impl, name="FractionalMaxPool"),
               True: ops.op(_fractional_impl, name="FractionalAvgPool")}


def _fractional(average, value, pooling_ratio, pseudo_random, overlapping, deterministic, seed,
                seed2):
  op_fn = _FRACTIONAL[average]
  op_name = op_fn.op_name
  x = ops.convert_to_tensor(value)
  ratio = tuple(float(r) for r in np.asarray(pooling_ratio, np.float64).reshape(-1))
  if len(ratio) < 4:
    _fail("Length for attr 'pooling_ratio' of %d must be at least minimum 4" % len(ratio),
          op_name)
  if (seed or seed2) and not deterministic:
    _fail("Both seed and seed2 should be 0 if deterministic is false.", op_name)
  if len(ratio) != 4 or ratio[0] != 1 or ratio[3] != 1:
    raise errors.UnimplementedError(
        None, None, "Fractional %s pooling is not yet supported on the batch nor channel "
        "dimension. [Op:%s]" % ("average" if average else "max", op_name))
  if x.ndim != 4:
    _fail("input must be 4-dimensional", op_name)
  shape = x._value.shape
  out = [int(shape[i] / ratio[i]) for i in range(4)]
  for i in (1, 2):
    if shape[i] < ratio[i]:
      _fail("Pooling ratio is higher than input dimension size for dimension %d. Input dim "
            "size: %d pooling ratio: %g" % (i, shape[i], ratio[i]), op_name)
  # seed = seed2 = 0 draws fresh sequences; other seeds give the same sequences every call.
  rng = np.random.default_rng([seed, seed2] if seed or seed2 else None)
  rows = _pooling_sequence(shape[1], out[1], pseudo_random, rng)
  cols = _pooling_sequence(shape[2], out[2], pseudo_random, rng)
  y = op_fn(x, rows=tuple(rows.tolist()), cols=tuple(cols.tolist()),
            overlapping=bool(overlapping), average=average)
  return FractionalPoolOutput(y, ops.convert_to_tensor(rows, dtype="int64"),
                              ops.convert_to_tensor(cols, dtype="int64"))


@export("nn.fractional_max_pool")
def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
  """Max pooling over randomly sized windows; returns (output, row_seq, col_seq).

  TF's random sequences cannot be reproduced: only their distribution rules are followed.
  """
  return _fractional(False, value, pooling_ratio, pseudo_random, overlapping, deterministic,
                     seed, seed2)


@export("nn.fractional_avg_pool")
def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
  """Average pooling over randomly sized windows; returns (output, row_seq, col_seq)."""
  return _fractional(True, value, pooling_ratio, pseudo_random, overlapping, deterministic,
                     seed, seed2)
