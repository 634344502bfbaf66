"""`tf.quantization`: fake quantization (with TF's straight-through gradients),
quantize-and-dequantize, and quantize / dequantize / quantized_concat to TF's quantized
dtypes (qint8, quint8, qint16, quint16, qint32).

Arithmetic follows TF's CPU kernels step by step in float32 (nudged ranges, rounding modes,
casts), so results are TF's bit for bit; fake quantization computes its outputs as exact
multiples of the scale, as TF 2's kernels do (TF 1.15 added the nudged minimum after
rounding, which can differ in the last bit).
"""
# TF's signatures: parameters named min, max, input shadow builtins.
# pylint: disable=redefined-builtin
import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import QuantizedTensor, Tensor
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
  """a / b, correctly rounded as TF's float32 division: XLA turns `x / constant` into
  `x * (1 / constant)` (the divisor selected per element of `a`, NaN where `a` is NaN, a
  no-op, is no longer a constant), and divides float32 only approximately on GPUs (there,
  float64 division rounded to float32 is the float32 quotient)."""
  a = jnp.asarray(a)
  divisor = jnp.where(jnp.isnan(a), jnp.nan, b).astype(a.dtype)
  if a.dtype == jnp.float32 and jax.default_backend() == "gpu":
    return (a.astype(jnp.float64) / divisor.astype(jnp.float64)).astype(jnp.float32)
  return a / divisor


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
  scale, inverse = _div(hi - lo, qmax - qmin), _div(qmax - qmin, hi - lo)
  zero_from_min = qmin - _div(lo, scale)
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


def _args_attrs(min, max, num_bits, narrow_range, op_name):
  lo, hi = float(min), float(max)
  if not lo < hi:
    raise invalid("min has to be smaller than max, was: %s >= %s"
                  % (_c_float(lo), _c_float(hi)), op_name)
  _check_num_bits(num_bits, op_name)
  quant_min, quant_max = _quant_range(num_bits, narrow_range)
  return dict(lo=lo, hi=hi, quant_min=quant_min, quant_max=quant_max)


def _vars_inputs(inputs, min, max, num_bits, narrow_range, op_name, per_channel):
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
def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False,
                                 name=None):
  """`tf.quantization.fake_quant_with_min_max_args`: float32 `inputs` rounded to the
  2^num_bits levels of the nudged range [min, max] (values outside are clamped)."""
  attrs = _args_attrs(min, max, num_bits, narrow_range, "FakeQuantWithMinMaxArgs")
  return _fake_quant_args(_float32(inputs, "inputs"), **attrs)


@export("quantization.fake_quant_with_min_max_args_gradient",
        "fake_quant_with_min_max_args_gradient")
def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6, num_bits=8,
                                          narrow_range=False, name=None):
  """`gradients` where `inputs` lie inside the nudged range, 0 elsewhere."""
  op_name = "FakeQuantWithMinMaxArgsGradient"
  attrs = _args_attrs(min, max, num_bits, narrow_range, op_name)
  gradients, inputs = _float32(gradients, "gradients"), _float32(inputs, "inputs")
  if gradients.shape != inputs.shape:
    raise invalid("gradient and input must be the same size", op_name)
  return _fake_quant_args_gradient(gradients, inputs, **attrs)


@export("quantization.fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars")
def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):
  """`tf.quantization.fake_quant_with_min_max_vars`: as the `_args` version with scalar
  float32 tensors (e.g. Variables) as the range; differentiable in `min` and `max`."""
  inputs, lo, hi, (quant_min, quant_max) = _vars_inputs(
      inputs, min, max, num_bits, narrow_range, "FakeQuantWithMinMaxVars", False)
  return _fake_quant_vars(inputs, lo, hi, quant_min=quant_min, quant_max=quant_max)


@export("quantization.fake_quant_with_min_max_vars_per_channel",
        "fake_quant_with_min_max_vars_per_channel")
def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8,
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


def _vars_gradient(gradients, inputs, min, max, num_bits, narrow_range, op_name,
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
def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8,
                                          narrow_range=False, name=None):
  """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) of FakeQuantWithMinMaxVars."""
  return _VarsGradient(*_vars_gradient(gradients, inputs, min, max, num_bits, narrow_range,
                                       "FakeQuantWithMinMaxVarsGradient", False))


@export("quantization.fake_quant_with_min_max_vars_per_channel_gradient",
        "fake_quant_with_min_max_vars_per_channel_gradient")
def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,
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
  from_min = jnp.where(q_min * lo > 0, _div(q_min, lo), biggest)
  from_max = jnp.where(q_max * hi > 0, _div(q_max, hi), biggest)
  min_side = from_min < from_max
  scale = jnp.where(min_side, from_min, from_max)
  inverse = jnp.where(min_side, _div(lo, q_min), _div(hi, q_max))
  if range_given:
    hi = jnp.where(min_side, q_max * inverse, hi)
    lo = jnp.where(min_side, lo, q_min * inverse)
    x_clamped = jnp.maximum(jnp.minimum(x, hi), lo)
  else:
    x_clamped = x
  return _straight_through(x, _round(_mul(x_clamped, scale), round_mode) * inverse)


@export("quantization.quantize_and_dequantize")
def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8,
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


# ---- quantized dtypes: quantize, dequantize, quantized_concat ----
_QUANTIZED_TYPES = (dtypes.qint8, dtypes.quint8, dtypes.qint32, dtypes.qint16, dtypes.quint16)
_MODES = ("MIN_COMBINED", "MIN_FIRST", "SCALED")


QuantizeV2 = collections.namedtuple("QuantizeV2", ["output", "output_min", "output_max"])
QuantizedConcat = collections.namedtuple("QuantizedConcat",
                                         ["output", "output_min", "output_max"])


def _storage(dtype):
  """The NumPy integer type holding a quantized dtype's values."""
  return np.dtype(dtype.as_numpy_dtype[0])


def _quantized_type_error(dtype, op_name):
  return invalid("Value for attr 'T' of %s is not in the list of allowed values: qint8, quint8, "
                 "qint32, qint16, quint16" % dtype.name, op_name)


def _to_storage(values, storage):
  """Rounded float values as TF's casts store them: 32-bit ones wrap past the int32 range
  (TF's lrint then int32 cast on x86), narrower ones are already in range."""
  return values.astype(jnp.int64).astype(storage)


def _steps(storage):
  return float(1 << (8 * storage.itemsize))


def _to_float_params(lo, hi, storage):
  """TF's QuantizedToFloatStruct: (range_scale, range_min_rounded)."""
  scale = _div((hi - lo).astype(jnp.float64), _steps(storage) - 1.0).astype(jnp.float32)
  rounded = jnp.where(hi == lo, lo, _mul(_std_round(_div(lo, scale)), scale))
  return scale, rounded


def _dequantize_min_first(q, lo, hi, storage):
  """DEQUANTIZE_WITH_EIGEN: (min_rounded - lowest * scale) + q * scale."""
  scale, rounded = _to_float_params(lo, hi, storage)
  return (rounded - _mul(_F32(np.iinfo(storage).min), scale)) + _mul(q.astype(jnp.float32),
                                                                     scale)


def _quantize_min_first(x, lo, hi, storage):
  """QUANTIZE_WITH_EIGEN with TF's FloatToQuantizedStruct for the range [lo, hi]."""
  info = np.iinfo(storage)
  scale = jnp.where(hi == lo, 0.0, (_steps(storage) - 1.0) / (hi - lo).astype(jnp.float64))
  scale = scale.astype(jnp.float32)
  min_scaled = _std_round(lo * scale)
  q = _std_round(x * scale) - (min_scaled - _F32(info.min))
  q = jnp.clip(q, max(_F32(info.min), _F32(-2.147483648e9)), min(_F32(info.max),
                                                                 _F32(2.147483520e9)))
  return _to_storage(q, storage)


@op(name="QuantizeV2", differentiable=False)
def _quantize(x, lo_in, hi_in, *, storage, mode, round_mode):
  """TF 1.15's QuantizeV2 kernel: (quantized values, output min, output max)."""
  storage = np.dtype(storage)
  info = np.iinfo(storage)
  lo_in, hi_in = lo_in.reshape(-1)[0], hi_in.reshape(-1)[0]
  lo = jnp.minimum(_F32(0), lo_in)
  epsilon = _div(jnp.maximum(_F32(1), jnp.maximum(jnp.abs(lo_in), jnp.abs(hi_in))), _F32(100))
  hi = jnp.maximum(_F32(0), jnp.maximum(hi_in, lo + epsilon))
  signed = info.min < 0
  if mode == "MIN_COMBINED":
    scale = (np.float64(info.max) - np.float64(info.min)) / (hi - lo).astype(jnp.float64)
    shifted = _mul(jnp.maximum(jnp.minimum(x, hi), lo) - lo, scale.astype(jnp.float32))
    if signed:
      q = _std_round(shifted - _F32((float(info.max) - float(info.min) + 1) / 2))
    else:
      q = jnp.trunc(shifted + _F32(0.5))
    return _to_storage(q, storage), lo, hi
  if mode == "MIN_FIRST":
    return _quantize_min_first(x, lo, hi, storage), lo, hi
  low, high = _F32(info.min), _F32(info.max)
  from_min = jnp.where(low * lo > 0, _div(low, lo), np.finfo(np.float32).max)
  from_max = jnp.where(high * hi > 0, _div(high, hi), np.finfo(np.float32).max)
  scale = jnp.minimum(from_min, from_max)
  lo, hi = _div(low, scale), _div(high, scale)
  scaled = jnp.maximum(jnp.minimum(x, hi), lo) * scale
  q = jnp.round(scaled) if round_mode == "HALF_TO_EVEN" else _std_round(scaled)
  return _to_storage(q, storage), lo, hi


def _check_modes(mode, round_mode, op_name):
  if mode not in _MODES:
    raise invalid("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '%s'"
                  % mode, op_name)
  if round_mode not in ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN"):
    raise invalid("Round mode string must be 'HALF_AWAY_FROM_ZERO' or 'HALF_TO_EVEN', is '%s'"
                  % round_mode, op_name)
  if round_mode == "HALF_TO_EVEN" and mode != "SCALED":
    raise invalid("Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is "
                  "'%s'." % mode, op_name)


def _concrete(tensor):
  return None if isinstance(tensor._value, jax.core.Tracer) else tensor.numpy()


@export("quantization.quantize", "quantize")
def quantize(input, min_range, max_range, T, mode="MIN_COMBINED",
             round_mode="HALF_AWAY_FROM_ZERO", name=None):
  """`tf.quantization.quantize`: float32 `input` quantized to the quantized dtype `T` over
  [min_range, max_range] (widened to include 0); returns (output, output_min, output_max)."""
  op_name = "QuantizeV2"
  T = dtypes.as_dtype(T)
  if T not in _QUANTIZED_TYPES:
    raise _quantized_type_error(T, op_name)
  _check_modes(mode, round_mode, op_name)
  x = _float32(input, "input")
  lo, hi = _float32(min_range, "min_range"), _float32(max_range, "max_range")
  lo_value, hi_value = _concrete(lo), _concrete(hi)
  if lo_value is not None and hi_value is not None and hi_value.reshape(-1)[0] < \
      lo_value.reshape(-1)[0]:
    raise invalid("input_max_range must be larger than input_min_range.", op_name)
  q, out_min, out_max = _quantize(x, lo, hi, storage=_storage(T).name, mode=mode,
                                  round_mode=round_mode)
  return QuantizeV2(QuantizedTensor(q._value, T), out_min, out_max)


@export("quantize_v2")
def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None,
                round_mode="HALF_AWAY_FROM_ZERO"):
  """`tf.quantize_v2` (deprecated): `tf.quantization.quantize` with `name` before
  `round_mode`."""
  return quantize(input, min_range, max_range, T, mode=mode, round_mode=round_mode)


@op(name="Dequantize", differentiable=False)
def _dequantize(q, lo, hi, *, mode):
  """TF 1.15's Dequantize kernel (float32 output)."""
  info = np.iinfo(q.dtype)
  lo, hi = lo.reshape(-1)[0], hi.reshape(-1)[0]
  if mode == "MIN_COMBINED":
    half = _F32((_F32(info.max) - _F32(info.min) + _F32(1)) / _F32(2)) if info.min < 0 else 0
    scale = _div(hi - lo, _F32(info.max) - _F32(info.min))
    return _mul(q.astype(jnp.float32) + _F32(half), scale) + lo
  if mode == "MIN_FIRST":
    return _dequantize_min_first(q, lo, hi, q.dtype)
  scale = _div(hi, _F32(info.max)) if info.min == 0 else jnp.maximum(
      _div(lo, _F32(info.min)), _div(hi, _F32(info.max)))
  return q.astype(jnp.float32) * scale


def _quantized_input(value, op_name):
  if not (isinstance(value, Tensor) and value.dtype.is_quantized):
    raise _quantized_type_error(convert_to_tensor(value).dtype, op_name)
  return value


@export("quantization.dequantize", "dequantize")
def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None):
  """`tf.quantization.dequantize`: float32 values of a quantized tensor over
  [min_range, max_range], in the `mode` it was quantized with."""
  q = _quantized_input(input, "Dequantize")
  if mode not in _MODES:
    raise invalid("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '%s'"
                  % mode, "Dequantize")
  return _dequantize(Tensor(q._value), _float32(min_range, "min_range"),
                     _float32(max_range, "max_range"), mode=mode)


@op(name="QuantizedConcat", differentiable=False)
def _quantized_concat(*args, axis):
  """Inputs requantized (dequantize, then quantize, MIN_FIRST style) to the output range
  unless theirs already is it, then concatenated."""
  n = len(args) // 3
  values, mins, maxes = args[:n], [m.reshape(-1)[0] for m in args[n:2 * n]], \
      [m.reshape(-1)[0] for m in args[2 * n:]]
  storage = values[0].dtype
  lo = jnp.minimum(_F32(0), jnp.min(jnp.stack(mins)))
  hi = jnp.max(jnp.stack(maxes))
  if np.iinfo(storage).min < 0:
    largest = jnp.maximum(jnp.abs(lo), jnp.abs(hi))
    lo, hi = -largest, largest
  parts = []
  for q, q_min, q_max in zip(values, mins, maxes):
    requantized = _quantize_min_first(_dequantize_min_first(q, q_min, q_max, storage), lo, hi,
                                      storage)
    parts.append(jnp.where((q_min == lo) & (q_max == hi), q, requantized))
  return jnp.concatenate(parts, axis=axis), lo, hi


@export("quantization.quantized_concat", "quantized_concat")
def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
  """`tf.quantization.quantized_concat` of quint8 or qint32 tensors: (output, output_min,
  output_max), the output range covering every input's (symmetric for qint32)."""
  op_name = "QuantizedConcat"
  values = [_quantized_input(v, op_name) for v in values]
  dtype = values[0].dtype
  if dtype not in (dtypes.quint8, dtypes.qint32):
    raise errors.NotFoundError(None, None, "No registered 'QuantizedConcat' OpKernel for CPU "
                               "devices compatible with node (T=%s)" % dtype.name)
  for i, value in enumerate(values[1:], 1):
    if value.dtype != dtype:
      raise invalid("cannot compute QuantizedConcat as input #%d(zero-based) was expected to be "
                    "a %s tensor but is a %s tensor" % (i + 1, dtype.name, value.dtype.name),
                    op_name)
  for what, bounds in (("mins", input_mins), ("maxes", input_maxes)):
    if len(bounds) != len(values):
      raise invalid("QuantizedConcatOp : Expected %s input list length %d to equal values "
                    "length %d" % (what, len(bounds), len(values)), op_name)
  axis = int(convert_to_tensor(concat_dim, dtypes.int32).numpy())
  shape = values[0]._shape_tuple()
  if not 0 <= axis < len(shape):
    raise invalid("ConcatOp : Expected concatenating dimensions in the range [0, %d), but got "
                  "%d" % (len(shape), axis), op_name)
  for i, value in enumerate(values):
    other = value._shape_tuple()
    if len(other) != len(shape):
      raise invalid("ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. "
                    "shape[%d] = %s" % (dims_text(shape), i, dims_text(other)), op_name)
    if any(a != b for d, (a, b) in enumerate(zip(shape, other)) if d != axis):
      raise invalid("ConcatOp : Dimensions of inputs should match: shape[0] = %s vs. shape[%d] "
                    "= %s" % (dims_text(shape), i, dims_text(other)), op_name)
  bounds = [_float32(b, "input_mins") for b in input_mins] + [
      _float32(b, "input_maxes") for b in input_maxes]
  out, out_min, out_max = _quantized_concat(*[Tensor(v._value) for v in values], *bounds,
                                            axis=axis)
  return QuantizedConcat(QuantizedTensor(out._value, dtype), out_min, out_max)
