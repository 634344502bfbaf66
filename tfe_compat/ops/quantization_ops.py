"""`tf.quantization`: fake quantization (with TF's straight-through gradients),
quantize-and-dequantize, and quantize / dequantize / quantized_concat to TF's quantized
dtypes (qint8, quint8, qint16, quint16, qint32).

Arithmetic follows TF 1.15's kernels step by step in float32 (nudged ranges, rounding
modes), so results are TF's bit for bit.
"""
import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.ops.array_ops import dims_text, invalid

_F32 = np.float32


def _c_float(value):
  """A float as TF's StrCat prints it (6 significant digits unless that loses the value)."""
  text = "%.6g" % value
  return text if _F32(float(text)) == _F32(value) else "%.9g" % value


def _std_round(x):
  """C's round(): halves away from zero."""
  whole = jnp.trunc(x)
  return whole + jnp.where(jnp.abs(x - whole) >= 0.5, jnp.sign(x), 0).astype(x.dtype)


def _mul(a, b):
  """a * b, rounded as TF's kernels round it: XLA fuses `a * b + c` into one fused
  multiply-add. Selecting between the product and NaN (a no-op) keeps it separate."""
  product = a * b
  return jnp.where(jnp.isnan(product), jnp.nan, product).astype(product.dtype)


def _div(a, b):
  """a / b for a scalar or constant b, not the `a * (1 / b)` XLA turns it into: the divisor
  selected per element of `a` (NaN where `a` is NaN, a no-op) is no longer a constant."""
  return a / jnp.where(jnp.isnan(a), jnp.nan, b).astype(a.dtype)


# ---- fake quantization ----
def _check_num_bits(num_bits, op_name):
  if not 2 <= num_bits <= 16:
    raise invalid("num_bits must be between 2 and 16, inclusive", op_name)


def _quant_range(num_bits, narrow_range):
  return (1 if narrow_range else 0), (1 << num_bits) - 1


def _nudge(lo, hi, quant_min, quant_max):
  """TF's Nudge: (nudged min, nudged max, scale, 1 / scale) such that 0.0 is exactly
  representable."""
  qmin, qmax = _F32(quant_min), _F32(quant_max)
  scale, inverse = _div(hi - lo, qmax - qmin), (qmax - qmin) / (hi - lo)
  zero_from_min = qmin - lo / scale
  zero = jnp.where(zero_from_min < qmin, qmin,
                   jnp.where(zero_from_min > qmax, qmax, _std_round(zero_from_min)))
  return (qmin - zero) * scale, (qmax - zero) * scale, scale, inverse


def _fake_quant_forward(x, lo, hi, quant_min, quant_max, per_element_divide):
  """TF's FakeQuant* functors: multiples of the scale (the vars op divides by the scale,
  the others multiply by its inverse)."""
  nudged_min, nudged_max, scale, inverse = _nudge(lo, hi, quant_min, quant_max)
  quant_zero = jnp.floor(_mul(-nudged_min, inverse) + _F32(0.5))
  shifted = jnp.maximum(jnp.minimum(x, nudged_max), nudged_min) - nudged_min
  steps = _div(shifted, scale) if per_element_divide else _mul(shifted, inverse)
  out = jnp.floor(steps - quant_zero + _F32(0.5)) * scale
  return jnp.where((lo == 0) & (hi == 0), _F32(0), out)  # TF: zero range gives zeros


def _fake_quant_backward(g, x, lo, hi, quant_min, quant_max):
  """TF's FakeQuant*Gradient: g where x is inside the nudged range; the rest, summed over
  all but the axes of `lo`, goes to min (below) and max (above)."""
  nudged_min, nudged_max, _, _ = _nudge(lo, hi, quant_min, quant_max)
  zero_range = (lo == 0) & (hi == 0)
  inside = ((x >= nudged_min) & (x <= nudged_max)) | zero_range
  zeros = jnp.zeros_like(g)

  def per_range(mask):
    return jnp.where(mask & ~zero_range, g, zeros).reshape((-1,) + lo.shape).sum(0)

  return jnp.where(inside, g, zeros), per_range(x < nudged_min), per_range(x > nudged_max)


@functools.lru_cache(maxsize=None)
def _fake_quant_fn(quant_min, quant_max, per_element_divide):
  """fake_quant(x, min, max) with TF's gradient as a jax.custom_vjp."""
  @jax.custom_vjp
  def fake_quant(x, lo, hi):
    return _fake_quant_forward(x, lo, hi, quant_min, quant_max, per_element_divide)

  def forward(x, lo, hi):
    return fake_quant(x, lo, hi), (x, lo, hi)

  def backward(residuals, g):
    return _fake_quant_backward(g, *residuals, quant_min, quant_max)

  fake_quant.defvjp(forward, backward)
  return fake_quant


@op(name="FakeQuantWithMinMaxArgs")
def _fake_quant_args(x, *, lo, hi, quant_min, quant_max):
  return _fake_quant_fn(quant_min, quant_max, False)(x, _F32(lo), _F32(hi))


@op(name="FakeQuantWithMinMaxVars")
def _fake_quant_vars(x, lo, hi, *, quant_min, quant_max):
  return _fake_quant_fn(quant_min, quant_max, lo.ndim == 0)(x, lo, hi)


@op(name="FakeQuantWithMinMaxArgsGradient", differentiable=False)
def _fake_quant_args_gradient(g, x, *, lo, hi, quant_min, quant_max):
  return _fake_quant_backward(g, x, _F32(lo), _F32(hi), quant_min, quant_max)[0]


@op(name="FakeQuantWithMinMaxVarsGradient", differentiable=False)
def _fake_quant_vars_gradient(g, x, lo, hi, *, quant_min, quant_max):
  return _fake_quant_backward(g, x, lo, hi, quant_min, quant_max)


def _float32(value, param):
  return convert_to_tensor(value, dtypes.float32, name=param)


def _args_attrs(min, max, num_bits, narrow_range, op_name):  # pylint: disable=redefined-builtin
  lo, hi = float(min), float(max)
  if not lo < hi:
    raise invalid("min has to be smaller than max, was: %s >= %s"
                  % (_c_float(lo), _c_float(hi)), op_name)
  _check_num_bits(num_bits, op_name)
  quant_min, quant_max = _quant_range(num_bits, narrow_range)
  return dict(lo=lo, hi=hi, quant_min=quant_min, quant_max=quant_max)


def _vars_inputs(inputs, min, max, num_bits, narrow_range, op_name, per_channel):  # pylint: disable=redefined-builtin
  _check_num_bits(num_bits, op_name)
  inputs, lo, hi = _float32(inputs, "inputs"), _float32(min, "min"), _float32(max, "max")
  if per_channel:
    depth = inputs.shape.as_list()[-1] if inputs.shape.ndims else 1
    for name, bound in (("min", lo), ("max", hi)):
      size = bound.shape.as_list()[0] if bound.shape.ndims else 1
      if bound.shape.ndims != 1 or size != depth:
        raise invalid("%s has incorrect size, expected %d was %d" % (name, depth, size),
                      op_name)
  else:
    for name, bound in (("min", lo), ("max", hi)):
      if bound.shape.ndims != 0:
        raise invalid("`%s` must be rank 0 but is rank %d" % (name, bound.shape.ndims), op_name)
  return inputs, lo, hi, _quant_range(num_bits, narrow_range)


@export("quantization.fake_quant_with_min_max_args", "fake_quant_with_min_max_args")
def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False,  # pylint: disable=redefined-builtin
                                 name=None):
  """`tf.quantization.fake_quant_with_min_max_args`: float32 `inputs` rounded to the
  2^num_bits levels of the nudged range [min, max] (values outside are clamped)."""
  attrs = _args_attrs(min, max, num_bits, narrow_range, "FakeQuantWithMinMaxArgs")
  return _fake_quant_args(_float32(inputs, "inputs"), **attrs)


@export("quantization.fake_quant_with_min_max_args_gradient",
        "fake_quant_with_min_max_args_gradient")
def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6, num_bits=8,  # pylint: disable=redefined-builtin
                                          narrow_range=False, name=None):
  """`gradients` where `inputs` lie inside the nudged range, 0 elsewhere."""
  op_name = "FakeQuantWithMinMaxArgsGradient"
  attrs = _args_attrs(min, max, num_bits, narrow_range, op_name)
  gradients, inputs = _float32(gradients, "gradients"), _float32(inputs, "inputs")
  if gradients.shape != inputs.shape:
    raise invalid("gradient and input must be the same size", op_name)
  return _fake_quant_args_gradient(gradients, inputs, **attrs)


@export("quantization.fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars")
def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):  # pylint: disable=redefined-builtin
  """`tf.quantization.fake_quant_with_min_max_vars`: as the `_args` version with scalar
  float32 tensors (e.g. Variables) as the range; differentiable in `min` and `max`."""
  inputs, lo, hi, (quant_min, quant_max) = _vars_inputs(
      inputs, min, max, num_bits, narrow_range, "FakeQuantWithMinMaxVars", False)
  return _fake_quant_vars(inputs, lo, hi, quant_min=quant_min, quant_max=quant_max)


@export("quantization.fake_quant_with_min_max_vars_per_channel",
        "fake_quant_with_min_max_vars_per_channel")
def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8,  # pylint: disable=redefined-builtin
                                             narrow_range=False, name=None):
  """Fake quantization with one range per channel (the last dimension of `inputs`)."""
  inputs, lo, hi, (quant_min, quant_max) = _vars_inputs(
      inputs, min, max, num_bits, narrow_range, "FakeQuantWithMinMaxVarsPerChannel", True)
  return _fake_quant_vars(inputs, lo, hi, quant_min=quant_min, quant_max=quant_max)


_VarsGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])
_PerChannelGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsPerChannelGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])


def _vars_gradient(gradients, inputs, min, max, num_bits, narrow_range, op_name,  # pylint: disable=redefined-builtin
                   per_channel):
  inputs, lo, hi, (quant_min, quant_max) = _vars_inputs(inputs, min, max, num_bits,
                                                        narrow_range, op_name, per_channel)
  gradients = _float32(gradients, "gradients")
  if gradients.shape != inputs.shape:
    raise invalid("gradient and input must be the same size", op_name)
  return _fake_quant_vars_gradient(gradients, inputs, lo, hi, quant_min=quant_min,
                                   quant_max=quant_max)


@export("quantization.fake_quant_with_min_max_vars_gradient",
        "fake_quant_with_min_max_vars_gradient")
def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8,  # pylint: disable=redefined-builtin
                                          narrow_range=False, name=None):
  """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) of FakeQuantWithMinMaxVars."""
  return _VarsGradient(*_vars_gradient(gradients, inputs, min, max, num_bits, narrow_range,
                                       "FakeQuantWithMinMaxVarsGradient", False))


@export("quantization.fake_quant_with_min_max_vars_per_channel_gradient",
        "fake_quant_with_min_max_vars_per_channel_gradient")
def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,  # pylint: disable=redefined-builtin
                                                      narrow_range=False, name=None):
  """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max), the last two per channel."""
  return _PerChannelGradient(*_vars_gradient(
      gradients, inputs, min, max, num_bits, narrow_range,
      "FakeQuantWithMinMaxVarsPerChannelGradient", True))


# ---- quantize and dequantize (float in, float out) ----
def _round(x, round_mode):
  return jnp.round(x) if round_mode == "HALF_TO_EVEN" else jnp.floor(x + x.dtype.type(0.5))


@jax.custom_vjp
def _straight_through(x, quantized):
  del x
  return quantized


_straight_through.defvjp(lambda x, q: (q, None),
                         lambda _, g: (g, None))


@op(name="QuantizeAndDequantizeV2", differentiable=(0,))
def _quantize_and_dequantize(x, input_min, input_max, *, signed_input, num_bits,
                             range_given, round_mode, narrow_range):
  lo, hi = (input_min, input_max) if range_given else (jnp.min(x), jnp.max(x))
  lo, hi = lo.astype(x.dtype), hi.astype(x.dtype)
  if signed_input:
    q_min = -(1 << (num_bits - 1)) + (1 if narrow_range else 0)
    q_max = (1 << (num_bits - 1)) - 1
  else:
    q_min, q_max = 0, (1 << num_bits) - 1
  q_min, q_max = x.dtype.type(q_min), x.dtype.type(q_max)
  biggest = jnp.finfo(x.dtype).max
  from_min = jnp.where(q_min * lo > 0, q_min / lo, biggest)
  from_max = jnp.where(q_max * hi > 0, q_max / hi, biggest)
  min_side = from_min < from_max
  scale = jnp.where(min_side, from_min, from_max)
  inverse = jnp.where(min_side, _div(lo, q_min), _div(hi, q_max))
  if range_given:
    hi = jnp.where(min_side, q_max * inverse, hi)
    lo = jnp.where(min_side, lo, q_min * inverse)
    x_clamped = jnp.maximum(jnp.minimum(x, hi), lo)
  else:
    x_clamped = x
  return _straight_through(x, _round(x_clamped * scale, round_mode) * inverse)


@export("quantization.quantize_and_dequantize")
def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8,  # pylint: disable=redefined-builtin
                            range_given=False, round_mode="HALF_TO_EVEN", name=None,
                            narrow_range=False):
  """`tf.quantization.quantize_and_dequantize`: `input` rounded to a num_bits grid over its
  range (or [input_min, input_max] when range_given); the gradient passes straight through."""
  op_name = "QuantizeAndDequantizeV2"
  if not 0 < num_bits < (62 if signed_input else 63):
    raise invalid("num_bits is out of range: %d with signed_input_ %d"
                  % (num_bits, bool(signed_input)), op_name)
  if round_mode not in ("HALF_UP", "HALF_TO_EVEN"):
    raise invalid("Round mode string must be 'HALF_UP' or 'HALF_TO_EVEN', is '%s'"
                  % round_mode, op_name)
  input = convert_to_tensor(input)
  input_min = convert_to_tensor(input_min, input.dtype)
  input_max = convert_to_tensor(input_max, input.dtype)
  if range_given and not isinstance(input_min._value, jax.core.Tracer) and not isinstance(
      input_max._value, jax.core.Tracer):
    lo, hi = input_min.numpy(), input_max.numpy()
    if not lo <= hi:
      raise invalid("Invalid range: input_min %s > input_max %s" % (_c_float(lo), _c_float(hi)),
                    op_name)
  return _quantize_and_dequantize(input, input_min, input_max, signed_input=bool(signed_input),
                                  num_bits=int(num_bits), range_given=bool(range_given),
                                  round_mode=round_mode, narrow_range=bool(narrow_range))
