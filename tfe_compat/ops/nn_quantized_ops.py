"""TF 1.15's quantized `tf.nn` ops on quint8 tensors: quantized_max_pool, quantized_avg_pool,
quantized_conv2d (integer arithmetic, as TF's CPU kernels) and quantized_relu_x (which
TF 1.15 has no CPU kernel for: it raises NotFoundError, as TF does).

Each returns (output, output_min, output_max); see quantization_ops for the quantized
tensors themselves.
"""
# pylint: disable=redefined-builtin,dangerous-default-value
import collections

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import QuantizedTensor, Tensor
from tfe_compat.ops import conv_ops
from tfe_compat.ops.array_ops import dims_text, invalid, int_tuple
from tfe_compat.ops.quantization_ops import _div, _float32, _quantized_input

QuantizedOutput = collections.namedtuple("QuantizedOutput",
                                         ["output", "min_output", "max_output"])


def _no_kernel(op_name, dtype):
  return errors.NotFoundError(None, None, "No registered '%s' OpKernel for CPU devices "
                              "compatible with node (T=%s) [Op:%s]" % (op_name, dtype.name,
                                                                        op_name))


def _inputs(input, min_input, max_input, op_name, allowed=(dtypes.quint8,)):
  q = _quantized_input(input, op_name)
  if q.dtype not in allowed:
    raise _no_kernel(op_name, q.dtype)
  return q, _float32(min_input, "min_input"), _float32(max_input, "max_input")


def _first(bound):
  """TF reads a range input as its first element (a scalar output)."""
  return Tensor(bound._value.reshape(-1)[0])


@export("nn.quantized_max_pool")
def quantized_max_pool(input, min_input, max_input, ksize, strides, padding, name=None):
  """Max pooling of a quantized NHWC tensor; the range passes through."""
  q, lo, hi = _inputs(input, min_input, max_input, "QuantizedMaxPool",
                      (dtypes.quint8, dtypes.qint8))
  out = conv_ops.max_pool(Tensor(q._value), ksize, strides, padding)
  return QuantizedOutput(QuantizedTensor(out._value, q.dtype), _first(lo), _first(hi))


@op(name="QuantizedAvgPool", differentiable=False)
def _avg_pool(q, *, window, strides, padding):
  """TF's int32 average: the sum over the valid (unpadded) elements, integer-divided by
  their count."""
  x = q.astype(jnp.int32)
  total = lax.reduce_window(x, np.int32(0), lax.add, window, strides, padding)
  count = lax.reduce_window(jnp.ones(x.shape, jnp.int32), np.int32(0), lax.add, window,
                            strides, padding)
  return (total // count).astype(q.dtype)


@export("nn.quantized_avg_pool")
def quantized_avg_pool(input, min_input, max_input, ksize, strides, padding, name=None):
  """Average pooling of a quint8 NHWC tensor in integers; the range passes through."""
  op_name = "QuantizedAvgPool"
  q, lo, hi = _inputs(input, min_input, max_input, op_name)
  ksize, strides = int_tuple(ksize), int_tuple(strides)
  if len(ksize) != 4:
    raise invalid("Sliding window ksize field must specify 4 dimensions", op_name)
  if len(strides) != 4:
    raise invalid("Sliding window strides field must specify 4 dimensions", op_name)
  if ksize[0] != 1 or strides[0] != 1:
    raise errors.UnimplementedError(None, None, "Pooling is not yet supported on the batch "
                                    "dimension. [Op:%s]" % op_name)
  if ksize[3] != 1:
    raise errors.UnimplementedError(None, None, "Non-spatial pooling is not yet supported. "
                                    "Volunteers? :) [Op:%s]" % op_name)
  if q.ndim != 4:
    raise invalid("tensor_in must be 4-dimensional", op_name)
  out = _avg_pool(Tensor(q._value), window=ksize, strides=strides, padding=padding)
  return QuantizedOutput(QuantizedTensor(out._value, q.dtype), _first(lo), _first(hi))


@export("nn.quantized_relu_x")
def quantized_relu_x(features, max_value, min_features, max_features, out_type=dtypes.quint8,
                     name=None):
  """TF 1.15 registers no CPU kernel for QuantizedReluX: NotFoundError, as in TF."""
  raise errors.NotFoundError(
      None, None, "Could not find device for node: {{node QuantizedReluX}} = QuantizedReluX"
      "[Tinput=DT_%s, out_type=DT_%s]\nAll kernels registered for op QuantizedReluX:\n  <no "
      "registered kernels>\n [Op:QuantizedReluX]" % (
          features.dtype.name.upper(), dtypes.as_dtype(out_type).name.upper()))


def _zero_point(lo, hi, storage):
  """TF's FloatToQuantizedUnclamped(0.0, lo, hi), in double precision."""
  lowest = float(np.iinfo(storage).min)
  steps = float(1 << (8 * storage.itemsize))
  scale = steps / ((hi - lo).astype(jnp.float64) * (steps / (steps - 1.0)))
  zero = -jnp.round(lo.astype(jnp.float64) * scale) + lowest  # round(0 * scale) is 0
  return jnp.where(lo == hi, lowest, zero).astype(jnp.int32)


def _level(lo, hi, storage):
  info = np.iinfo(storage)
  return _div(hi - lo, np.float32(info.max - info.min))


@op(name="QuantizedConv2D", differentiable=False)
def _conv(x, f, x_lo, x_hi, f_lo, f_hi, *, stride, padding):
  """int32 sums of (input - its zero point) * (filter - its zero point); padding is zero in
  real value. The range is one output step (the product of the inputs' steps) times the
  int32 limits."""
  x_lo, x_hi, f_lo, f_hi = (b.reshape(-1)[0] for b in (x_lo, x_hi, f_lo, f_hi))
  xs = x.astype(jnp.int32) - _zero_point(x_lo, x_hi, x.dtype)
  fs = f.astype(jnp.int32) - _zero_point(f_lo, f_hi, f.dtype)
  # cuDNN has no int32 convolution: on GPUs the sums are exact in float64 instead
  wide = jnp.float64 if jax.default_backend() == "gpu" else jnp.int32
  out = lax.conv_general_dilated(xs.astype(wide), fs.astype(wide), (stride, stride), padding,
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                 preferred_element_type=wide).astype(jnp.int32)
  level = _level(x_lo, x_hi, x.dtype) * _level(f_lo, f_hi, f.dtype)
  info = np.iinfo(np.int32)
  return out, level * np.float32(info.min), level * np.float32(info.max)


@export("nn.quantized_conv2d")
def quantized_conv2d(input, filter, min_input, max_input, min_filter, max_filter, strides,
                     padding, out_type=dtypes.qint32, dilations=[1, 1, 1, 1], name=None):
  """2-D convolution of quint8 NHWC `input` with a quint8 HWIO `filter` to qint32."""
  op_name = "QuantizedConv2D"
  q, x_lo, x_hi = _inputs(input, min_input, max_input, op_name)
  f, f_lo, f_hi = _inputs(filter, min_filter, max_filter, op_name)
  if dtypes.as_dtype(out_type) != dtypes.qint32:
    raise _no_kernel(op_name, dtypes.as_dtype(out_type))
  strides, dilations = int_tuple(strides), int_tuple(dilations)
  checks = [
      (len(strides) == 4, "Sliding window strides field must specify 4 dimensions"),
      (strides[1] == strides[2], "Current implementation only supports equal length strides "
       "in the row and column dimensions."),
      (strides[0] == 1 and strides[3] == 1, "Current implementation does not yet support "
       "strides in the batch and depth dimensions."),
      (len(dilations) == 4, "Dilations field must specify 4 dimensions"),
      (dilations[1] == 1 and dilations[2] == 1, "Current implementation only supports "
       "dilated rate as 1 in the row and column dimensions."),
      (dilations[0] == 1 and dilations[3] == 1, "Current implementation does not yet support "
       "dilations in the batch and depth dimensions."),
      (q.ndim == 4, "input must be 4-dimensional%s" % dims_text(q._shape_tuple())),
      (f.ndim == 4, "filter must be 4-dimensional: %s" % dims_text(f._shape_tuple()))]
  for ok, message in checks:
    if not ok:
      raise invalid(message, op_name)
  if q._shape_tuple()[3] != f._shape_tuple()[2]:
    raise invalid("input and filter must have the same depth: %d vs %d"
                  % (q._shape_tuple()[3], f._shape_tuple()[2]), op_name)
  out, out_min, out_max = _conv(Tensor(q._value), Tensor(f._value), x_lo, x_hi, f_lo, f_hi,
                                stride=strides[1], padding=padding)
  return QuantizedOutput(QuantizedTensor(out._value, dtypes.qint32), out_min, out_max)
