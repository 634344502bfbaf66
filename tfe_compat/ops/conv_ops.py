"""`tf.nn` convolutions and pooling, and helpers shared by the nn modules (nn_ops imports it).

Wrappers validate shapes and normalize strides/padding once per distinct call signature
(`functools.lru_cache` plans), then call one jitted `lax.conv_general_dilated` or pooling
(pooling.py) implementation. TF's SAME padding (extra pad at the end) is what
`lax.padtype_to_pads` computes.
"""
# pylint: disable=redefined-builtin,dangerous-default-value
import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import fast_conv
from tfe_compat.ops import pooling

_SPATIAL = "DHW"
_TF_NAMES = {"float16": "half", "float32": "float", "float64": "double"}


def _fail(message, op_name):
  raise errors.op_error(message, op_name)


def _require_float(x, op_name, attr="T"):
  if not x.dtype.is_floating:
    _fail("Value for attr '%s' of %s is not in the list of allowed values: half, bfloat16, "
          "float, double" % (attr, _TF_NAMES.get(x.dtype.name, x.dtype.name)), op_name)


def _is_concrete(tensor):
  return not isinstance(tensor._value, jax.core.Tracer)


def _axes(axis):
  if axis is None:
    return None
  if isinstance(axis, (list, tuple, np.ndarray)) or hasattr(axis, "numpy"):
    return tuple(int(a) for a in np.asarray(axis).reshape(-1))
  return int(axis)


def _precise(x):
  """TF computes float16/bfloat16 softmax losses, moments and batch norms in float32."""
  return x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x


def _shape_text(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


def _hashable(value):
  """Lists (strides, paddings, output shapes) as tuples so plans can be cached."""
  if type(value) in (int, str) or value is None:  # pylint: disable=unidiomatic-typecheck
    return value
  if isinstance(value, (list, tuple)):
    return tuple(_hashable(v) for v in value)
  if isinstance(value, np.ndarray):
    return _hashable(value.tolist())
  if hasattr(value, "numpy"):  # a Tensor
    return _hashable(np.asarray(value).tolist())
  if isinstance(value, np.integer):
    return int(value)
  return value


def _lookup(new_name, new_value, old_name, old_value):
  """TF's `deprecated_argument_lookup`."""
  if old_value is not None:
    if new_value is not None:
      raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
    return old_value
  return new_value


def _channels_first(data_format, n, op_name):
  names = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[n]
  if data_format is None or data_format == names[0]:
    return False
  if data_format == names[1]:
    return True
  if n == 1:  # TF's conv1d checks in Python; the others' op definitions list the formats
    raise ValueError("Invalid data format %r for %s; expected %s or %s"
                     % (data_format, op_name, names[0], names[1]))
  _fail('Value for attr \'data_format\' of "%s" is not in the list of allowed values: '
        '"%s", "%s"' % (data_format, names[0], names[1]), op_name)


def _sequence(value, n, channels_first, name, op_name="Conv2D"):
  """TF's `_get_sequence`: an int or a list of 1, n or n+2 ints -> the n spatial values."""
  if value is None:
    return (1,) * n
  if not isinstance(value, tuple):
    value = (value,)
  if len(value) == 1:
    return (int(value[0]),) * n
  if len(value) == n:
    return tuple(int(v) for v in value)
  if len(value) == n + 2:
    outer = (value[0], value[1]) if channels_first else (value[0], value[-1])
    if any(int(v) != 1 for v in outer):
      raise errors.UnimplementedError(
          None, None, "Current implementation does not yet support %s in the batch and "
          "depth dimensions. [Op:%s]" % (name, op_name))
    return tuple(int(v) for v in (value[2:] if channels_first else value[1:-1]))
  raise ValueError("%s should be of length 1, %d or %d but was %d"
                   % (name, n, n + 2, len(value)))


def _layout(n, channels_first):
  spatial = _SPATIAL[-n:]
  lhs = "NC" + spatial if channels_first else "N" + spatial + "C"
  return lhs, spatial


def _padding(padding, n, channels_first, op_name):
  """'SAME' / 'VALID', or TF's explicit [[before, after]] * (n + 2) as spatial pairs."""
  if padding in ("SAME", "VALID"):
    return padding
  if isinstance(padding, tuple) and len(padding) == n + 2:
    pairs = padding[2:] if channels_first else padding[1:-1]
    return tuple((int(a), int(b)) for a, b in pairs)
  if isinstance(padding, tuple):  # TF's _convert_padding checks a list in Python
    raise ValueError("When padding is a list, it must be of size %d. Received: padding=%s of "
                     "size %d" % (n + 2, [list(p) for p in padding], len(padding)))
  _fail("Value for attr 'padding' of \"%s\" is not in the list of allowed values: \"SAME\", "
        "\"VALID\", \"EXPLICIT\"" % (padding,), op_name)


def _check_output_size(in_size, eff, stride, padding, op_name):
  pad = sum(padding) if isinstance(padding, tuple) else 0
  if padding != "SAME" and int((in_size + pad - eff + stride) / stride) < 0:
    _fail("Computed output size would be negative: %d [input_size: %d, effective_filter_size:"
          " %d, stride: %d]" % (int((in_size + pad - eff + stride) / stride), in_size, eff,
                                stride), op_name)


# ---- Convolution ----
# Static attributes travel as one hashable plan: jax.jit dispatch costs ~3 us per static kwarg.
ConvPlan = collections.namedtuple(
    "ConvPlan", ["strides", "padding", "dilations", "dimension_numbers", "groups"])
PoolPlan = collections.namedtuple("PoolPlan", ["window", "strides", "padding", "dilation"])


def _conv_impl(x, w, *, plan):
  if plan.groups == 1 and set(w.shape[:-2]) <= {1} and (
      isinstance(plan.padding, str) or not any(map(any, plan.padding))):
    return _pointwise(x, w, plan)
  return fast_conv.conv(x, w, (plan.strides, plan.padding, None, plan.dilations,
                              plan.dimension_numbers, plan.groups))


def _pointwise(x, w, plan):
  """A 1x1 convolution as a matrix product over the channels of the strided input (XLA's
  CPU convolutions run it 1.3-2.6x slower, forward and backward); SAME and VALID agree."""
  layout = plan.dimension_numbers[0]
  channels = layout.index("C")
  spatial = [i for i, d in enumerate(layout) if d not in "NC"]
  if any(s != 1 for s in plan.strides):
    index = [slice(None)] * x.ndim
    for axis, stride in zip(spatial, plan.strides):
      index[axis] = slice(None, None, stride)
    x = x[tuple(index)]
  y = lax.dot_general(x, w.reshape(w.shape[-2:]), (((channels,), (0,)), ((), ())))
  return jnp.moveaxis(y, -1, channels)


def _depthwise_impl(x, w, *, plan):
  return _conv_impl(x, w.reshape(w.shape[:-2] + (1, w.shape[-2] * w.shape[-1])), plan=plan)


def _separable_impl(x, dw, pw, *, plan):
  pointwise = plan._replace(strides=(1, 1), padding="VALID", dilations=(1, 1), groups=1)
  return _conv_impl(_depthwise_impl(x, dw, plan=plan), pw, plan=pointwise)


def _conv_transpose_impl(y, w, *, plan):
  """`plan.strides` dilate the input (lhs); `plan.padding` is explicit, see _transpose_plan."""
  w = jnp.flip(w, axis=tuple(range(len(plan.strides))))
  return fast_conv.conv(y, w, ((1,) * len(plan.strides), plan.padding, plan.strides,
                              plan.dilations, plan.dimension_numbers, 1))


_CONV = {1: ops.op(_conv_impl, name="Conv2D"), 2: ops.op(_conv_impl, name="Conv2D"),
         3: ops.op(_conv_impl, name="Conv3D")}
_depthwise = ops.op(_depthwise_impl, name="DepthwiseConv2dNative")
_separable = ops.op(_separable_impl, name="SeparableConv2D")
_CONV_TRANSPOSE = {n: ops.op(_conv_transpose_impl, name=name) for n, name in
                   ((1, "Conv2DBackpropInput"), (2, "Conv2DBackpropInput"),
                    (3, "Conv3DBackpropInputV2"))}


@functools.lru_cache(maxsize=512)
def _conv_plan(op_name, n, x_shape, w_shape, strides, padding, dilations, data_format,
               depthwise=False):
  """Checks one convolution's shapes as TF does; returns the impl's static attributes."""
  first = _channels_first(data_format, n, op_name)
  strides = _sequence(strides, n, first, "strides", op_name)
  dilations = _sequence(dilations, n, first, "dilations", op_name)
  padding = _padding(padding, n, first, op_name)
  if len(x_shape) != n + 2:
    _fail("convolution input must be %d-dimensional: %s" % (n + 2, _shape_text(x_shape))
          if n != 3 else "input must be 5-dimensional", op_name)
  if len(w_shape) != n + 2:
    _fail("convolution filter must be %d-dimensional: %s" % (n + 2, _shape_text(w_shape))
          if n != 3 else "filter must be 5-dimensional", op_name)
  if any(v < 1 for v in strides):
    _fail("Stride must be > 0, but got %d" % min(strides) if depthwise else
          "Spatial strides should be larger than 0." if n == 3 else
          "Row and column strides should be larger than 0.", op_name)
  if any(v < 1 for v in dilations):
    _fail("Dilation rates should be larger than 0." if n == 3 else
          "Dilated rates should be larger than 0.", op_name)
  in_depth = x_shape[1] if first else x_shape[-1]
  if depthwise:
    if in_depth != w_shape[-2]:
      _fail("input and filter must have the same depth: %d vs %d" % (in_depth, w_shape[-2]),
            op_name)
    groups = in_depth
  else:
    if w_shape[-2] == 0 or in_depth % w_shape[-2]:
      _fail("%snput depth must be evenly divisible by filter depth: %d vs %d"
            % ("I" if n == 3 else "i", in_depth, w_shape[-2]), op_name)
    groups = in_depth // w_shape[-2]
    if w_shape[-1] % groups:
      _fail("output depth must be evenly divisible by number of groups: %d vs %d"
            % (w_shape[-1], groups), op_name)
  spatial_in = x_shape[2:] if first else x_shape[1:-1]
  for i in range(n):
    eff = (w_shape[i] - 1) * dilations[i] + 1
    pad = padding[i] if isinstance(padding, tuple) else padding
    _check_output_size(spatial_in[i], eff, strides[i], pad, op_name)
  lhs, spatial = _layout(n, first)
  return ConvPlan(strides, padding, dilations, (lhs, spatial + "IO", lhs), groups)


def _convolve(n, op_name, x, w, strides, padding, dilations, data_format):
  x, w = ops.convert_matching(x, w, op_name=op_name)
  plan = _conv_plan(op_name, n, x._value.shape, w._value.shape, _hashable(strides),
                    _hashable(padding), _hashable(dilations), data_format)
  return _CONV[n](x, w, plan=plan)


@export("nn.conv2d")
def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,
           data_format="NHWC", dilations=[1, 1, 1, 1], name=None, filters=None):
  """2-D convolution; `filter` is [height, width, in_channels, out_channels]."""
  filter = _lookup("filters", filters, "filter", filter)
  return _convolve(2, "Conv2D", input, filter, strides, padding, dilations, data_format)


@export("nn.conv1d")
def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):
  """1-D convolution of [batch, width, channels] with a [width, in, out] filter."""
  value = _lookup("input", input, "value", value)
  return _convolve(1, "Conv2D", value, filters, stride, padding, dilations, data_format)


@export("nn.conv3d")
def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",
           dilations=[1, 1, 1, 1, 1], name=None, filters=None):
  """3-D convolution; `filter` is [depth, height, width, in_channels, out_channels]."""
  filter = _lookup("filters", filters, "filter", filter)
  return _convolve(3, "Conv3D", input, filter, strides, padding, dilations, data_format)


@export("nn.convolution")
def convolution(input, filter, padding, strides=None, dilation_rate=None, name=None,
                data_format=None, filters=None, dilations=None):
  """N-d convolution (N = 1, 2, 3 from the input's rank)."""
  filter = _lookup("filters", filters, "filter", filter)
  dilation_rate = _lookup("dilations", dilations, "dilation_rate", dilation_rate)
  x = ops.convert_to_tensor(input)
  n = x.ndim - 2
  if n not in (1, 2, 3):
    raise ValueError("Input tensor must be of rank 3, 4 or 5 but was %d." % x.ndim)
  if data_format is not None and data_format.startswith("NC"):
    data_format = "NC" + _SPATIAL[-n:]
  elif data_format is not None:
    data_format = "N" + _SPATIAL[-n:] + "C"
  return _convolve(n, "Conv%dD" % max(n, 2), x, filter, strides, padding, dilation_rate,
                   data_format)


@export("nn.atrous_conv2d")
def atrous_conv2d(value, filters, rate, padding, name=None):
  """2-D convolution with holes: conv2d with `dilations=rate`, stride 1."""
  if int(rate) < 1:
    raise ValueError("rate must be a positive integer, got %r" % (rate,))
  return _convolve(2, "Conv2D", value, filters, 1, padding, int(rate), "NHWC")


def _rate_and_dilations(rate, dilations, strides, data_format):
  dilations = _hashable(_lookup("dilations", dilations, "rate", rate))
  first = data_format is not None and data_format.startswith("NC")
  if dilations is not None and any(d != 1 for d in _sequence(dilations, 2, first, "rate")):
    if any(s != 1 for s in _sequence(_hashable(strides), 2, first, "strides")):
      raise NotImplementedError("depthwise/separable convolution with rate > 1 and strides "
                                "> 1 (a space_to_batch quirk of TF) is not supported")
  return dilations


@export("nn.depthwise_conv2d")
def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,
                     data_format=None, dilations=None):
  """Depthwise 2-D convolution; `filter` is [h, w, in_channels, channel_multiplier]."""
  dilations = _rate_and_dilations(rate, dilations, strides, data_format)
  return depthwise_conv2d_native(input, filter, strides, padding, data_format, dilations)


@export("nn.depthwise_conv2d_native")
def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",
                            dilations=[1, 1, 1, 1], name=None):
  """The DepthwiseConv2dNative op."""
  x, w = ops.convert_matching(input, filter, op_name="DepthwiseConv2dNative")
  plan = _conv_plan("DepthwiseConv2dNative", 2, x._value.shape, w._value.shape,
                    _hashable(strides), _hashable(padding), _hashable(dilations),
                    data_format, depthwise=True)
  return _depthwise(x, w, plan=plan)


@export("nn.separable_conv2d")
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     rate=None, name=None, data_format=None, dilations=None):
  """Depthwise convolution followed by a 1x1 (pointwise) convolution."""
  dilations = _rate_and_dilations(rate, dilations, strides, data_format)
  x, dw, pw = ops.convert_matching(input, depthwise_filter, pointwise_filter,
                                   op_name="SeparableConv2D")
  plan = _conv_plan("DepthwiseConv2dNative", 2, x._value.shape, dw._value.shape,
                    _hashable(strides), _hashable(padding), dilations, data_format,
                    depthwise=True)
  pw_shape = pw._value.shape
  if len(pw_shape) != 4 or pw_shape[0] != 1 or pw_shape[1] != 1:
    raise ValueError("pointwise_filter must have shape [1, 1, in, out], got %s"
                     % (list(pw_shape),))
  if pw_shape[2] != dw._value.shape[2] * dw._value.shape[3]:
    _fail("input depth must be evenly divisible by filter depth: %d vs %d"
          % (dw._value.shape[2] * dw._value.shape[3], pw_shape[2]), "Conv2D")
  return _separable(x, dw, pw, plan=plan)


@functools.lru_cache(maxsize=256)
def _transpose_plan(op_name, n, y_shape, w_shape, output_shape, strides, padding, dilations,
                    data_format):
  first = _channels_first(data_format, n, op_name)
  strides = _sequence(strides, n, first, "strides", op_name)
  dilations = _sequence(dilations, n, first, "dilations", op_name)
  explicit = None if padding in ("SAME", "VALID") else _padding(padding, n, first, op_name)
  if len(y_shape) != n + 2 or len(w_shape) != n + 2 or len(output_shape) != n + 2:
    raise ValueError("%s expects a rank-%d input, filter and output_shape, got %s, %s and %s"
                     % (op_name, n + 2, list(y_shape), list(w_shape), list(output_shape)))
  prefix = "Conv%dDCustomBackpropInput: " % max(n, 2) if n != 3 else "Conv3DBackpropInputOp: "
  y_depth = y_shape[1] if first else y_shape[-1]
  out_depth = output_shape[1] if first else output_shape[-1]
  if w_shape[-1] != y_depth:
    _fail(prefix + "filter and out_backprop must have the same out_depth", op_name)
  if w_shape[-2] != out_depth:
    _fail(prefix + "input depth must be evenly divisible by filter depth", op_name)
  y_spatial = y_shape[2:] if first else y_shape[1:-1]
  o_spatial = output_shape[2:] if first else output_shape[1:-1]
  pads = []
  for i in range(n):
    eff = (w_shape[i] - 1) * dilations[i] + 1
    size, out, s = o_spatial[i], y_spatial[i], strides[i]
    if explicit:
      expected = (size + sum(explicit[i]) - eff) // s + 1
    else:
      expected = -(-size // s) if padding == "SAME" else (size - eff + s) // s
    if expected != out:
      _fail(prefix + "Size of out_backprop doesn't match computed: actual = %d, computed = %d "
            "spatial_dim: %d input: %d filter: %d output: %d stride: %d dilation: %d"
            % (out, expected, i + (2 if first else 1), size, w_shape[i], out, s,
               dilations[i]), op_name)
    if explicit:
      before = explicit[i][0]
    else:
      before = max((out - 1) * s + eff - size, 0) // 2 if padding == "SAME" else 0
    lo = eff - 1 - before
    pads.append((lo, size + eff - 2 - (out - 1) * s - lo))
  lhs, spatial = _layout(n, first)
  return ConvPlan(strides, tuple(pads), dilations, (lhs, spatial + "OI", lhs), 1)


def _transpose(n, value, filters, output_shape, strides, padding, data_format, dilations):
  op_fn = _CONV_TRANSPOSE[n]
  op_name = op_fn.op_name
  y, w = ops.convert_matching(value, filters, op_name=op_name)
  plan = _transpose_plan(op_name, n, y._value.shape, w._value.shape,
                         tuple(int(d) for d in _hashable(output_shape)), _hashable(strides),
                         _hashable(padding), _hashable(dilations), data_format)
  return op_fn(y, w, plan=plan)


@export("nn.conv2d_transpose")
def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",
                     data_format="NHWC", name=None, input=None, filters=None, dilations=None):
  """The gradient of conv2d w.r.t. its input; `filter` is [h, w, out_channels, in_channels]."""
  value = _lookup("input", input, "value", value)
  filter = _lookup("filters", filters, "filter", filter)
  return _transpose(2, value, filter, output_shape, strides, padding, data_format, dilations)


@export("nn.conv2d_backprop_input")
def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,
                          padding=None, use_cudnn_on_gpu=True, explicit_paddings=[],
                          data_format="NHWC", dilations=[1, 1, 1, 1], name=None, filters=None):
  """The Conv2DBackpropInput op: conv2d_transpose with `input_sizes` as the output shape
  (`padding="EXPLICIT"` takes `explicit_paddings`, 4 [before, after] pairs)."""
  filter = _lookup("filters", filters, "filter", filter)
  if padding == "EXPLICIT":
    flat = [int(p) for p in explicit_paddings]
    padding = [flat[i:i + 2] for i in range(0, len(flat), 2)]
  return _transpose(2, out_backprop, filter, input_sizes, strides, padding, data_format,
                    dilations)


@export("nn.atrous_conv2d_transpose")
def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
  """The transpose of atrous_conv2d: conv2d_transpose with stride 1 and dilation `rate`."""
  if int(rate) < 1:
    raise ValueError("rate must be a positive integer, got %r" % (rate,))
  return _transpose(2, value, filters, output_shape, 1, padding, "NHWC", int(rate))


@export("nn.conv1d_transpose")
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",
                     data_format="NWC", dilations=None, name=None):
  """The gradient of conv1d w.r.t. its input."""
  return _transpose(1, input, filters, output_shape, strides, padding, data_format, dilations)


@export("nn.conv3d_transpose")
def conv3d_transpose(value, filter=None, output_shape=None, strides=None, padding="SAME",
                     data_format="NDHWC", name=None, input=None, filters=None,
                     dilations=None):
  """The gradient of conv3d w.r.t. its input."""
  value = _lookup("input", input, "value", value)
  filter = _lookup("filters", filters, "filter", filter)
  return _transpose(3, value, filter, output_shape, strides, padding, data_format, dilations)


# ---- Pooling (the implementations are in pooling.py) ----
_POOL = {("MAX", 1): ops.op(pooling.max_pool, name="MaxPool"),
         ("MAX", 2): ops.op(pooling.max_pool, name="MaxPool"),
         ("MAX", 3): ops.op(pooling.max_pool3d, name="MaxPool3D")}
_POOL.update({("AVG", n): ops.op(pooling.avg_pool, name="AvgPool3D" if n == 3 else "AvgPool")
              for n in (1, 2, 3)})


@functools.lru_cache(maxsize=512)
def _pool_plan(op_name, n, x_shape, ksize, strides, padding, data_format, dilation=None):
  first = _channels_first(data_format, n, op_name)
  if len(x_shape) != n + 2:
    _fail("tensor_in must be %d-dimensional" % (n + 2), op_name)
  if padding not in ("SAME", "VALID"):
    _fail("Value for attr 'padding' of \"%s\" is not in the list of allowed values: \"SAME\", "
          "\"VALID\"" % (padding,), op_name)

  def full(value, name):
    if isinstance(value, tuple) and len(value) == n + 2:
      if int(value[0]) != 1:
        raise errors.UnimplementedError(
            None, None, "Pooling is not yet supported on the batch dimension. [Op:%s]"
            % op_name)
      return tuple(int(v) for v in value)
    spatial = _sequence(value, n, first, name, op_name)
    return (1, 1) + spatial if first else (1,) + spatial + (1,)

  window, strides = full(ksize, "ksize"), full(strides, "strides")
  if op_name.startswith("MaxPool") and n == 2 and 0 in window:
    raise ValueError("`ksize` cannot be zero. Received: ksize=%s" % list(window))
  if min(strides) < 1:
    raise errors.invalid_argument("Stride must be > 0, but got %d [Op:%s]"
                                  % (min(strides), op_name))
  dilation = (1,) * (n + 2) if dilation is None else full(dilation, "dilation_rate")
  for i in range(n + 2):
    _check_output_size(x_shape[i], (window[i] - 1) * dilation[i] + 1, strides[i], padding,
                       op_name)
  return PoolPlan(window, strides, padding, dilation)


def _pool(kind, n, value, ksize, strides, padding, data_format, dilation=None):
  x = ops.convert_to_tensor(value)
  op_fn = _POOL[(kind, n)]
  if kind == "AVG":
    _require_float(x, op_fn.op_name)
  plan = _pool_plan(op_fn.op_name, n, x._value.shape, _hashable(ksize), _hashable(strides),
                    padding, data_format, _hashable(dilation))
  return op_fn(x, plan=plan)


@export("nn.max_pool")
def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
  """2-D max pooling; `ksize`/`strides` are an int or a list of 1, 2 or 4."""
  value = _lookup("input", input, "value", value)
  return _pool("MAX", 2, value, ksize, strides, padding, data_format)


@export("nn.avg_pool", "nn.avg_pool2d")
def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
  """2-D average pooling; SAME windows average over their valid elements only."""
  value = _lookup("input", input, "value", value)
  return _pool("AVG", 2, value, ksize, strides, padding, data_format)


@export("nn.max_pool2d")
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
  return _pool("MAX", 2, input, ksize, strides, padding, data_format)


@export("nn.max_pool1d")
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
  return _pool("MAX", 1, input, ksize, strides, padding, data_format)


@export("nn.avg_pool1d")
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
  return _pool("AVG", 1, input, ksize, strides, padding, data_format)


@export("nn.max_pool3d")
def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
  return _pool("MAX", 3, input, ksize, strides, padding, data_format)


@export("nn.avg_pool3d")
def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
  return _pool("AVG", 3, input, ksize, strides, padding, data_format)


def _pool_v2(kind, input, ksize, strides, padding, data_format):
  x = ops.convert_to_tensor(input)
  n = x.ndim - 2
  if n not in (1, 2, 3):
    raise ValueError("Input tensor must be of rank 3, 4 or 5 but was %d." % x.ndim)
  if data_format is None or not data_format.startswith("NC"):
    data_format = "N" + _SPATIAL[-n:] + "C"
  return _pool(kind, n, x, ksize, strides, padding, data_format)


@export("nn.max_pool_v2")
def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):
  """N-d max pooling (N from the input's rank)."""
  return _pool_v2("MAX", input, ksize, strides, padding, data_format)


@export("nn.avg_pool_v2")
def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):
  """N-d average pooling (N from the input's rank)."""
  return _pool_v2("AVG", input, ksize, strides, padding, data_format)


@export("nn.pool")
def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None,
         name=None, data_format=None, dilations=None):
  """N-d "MAX" or "AVG" pooling with optional window dilation."""
  dilation_rate = _lookup("dilations", dilations, "dilation_rate", dilation_rate)
  if pooling_type not in ("MAX", "AVG"):
    raise ValueError("Invalid pooling_type: %s" % (pooling_type,))
  window_shape = _hashable(window_shape)
  n = len(window_shape)
  if n not in (1, 2, 3):
    raise ValueError("window_shape must have length 1, 2 or 3, got %d" % n)
  dilation_rate = _hashable(dilation_rate) or (1,) * n
  strides = _hashable(strides) or (1,) * n
  if any(d != 1 for d in dilation_rate):
    if any(s != 1 for s in strides):
      raise ValueError("strides > 1 not supported in conjunction with dilation_rate > 1")
    if padding == "SAME":
      raise ValueError("pooling with SAME padding is not implemented for dilation_rate > 1")
  if data_format is None or not data_format.startswith("NC"):
    data_format = "N" + _SPATIAL[-n:] + "C"
  else:
    data_format = "NC" + _SPATIAL[-n:]
  return _pool(pooling_type, n, input, window_shape, strides, padding, data_format,
               dilation_rate)
