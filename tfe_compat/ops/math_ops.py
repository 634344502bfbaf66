"""TF 1.15 elementwise math, comparisons and logical ops, and the Python operators of
`tf.Tensor` (installed here, as TF's math_ops does). Casts, `where` and matrix products live
in matmul_cast_ops (imported at the end); reductions in reduction_ops."""
# TF's signatures: `name=` is accepted and ignored; some parameters shadow builtins.
# pylint: disable=unused-argument,redefined-builtin
import builtins
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.scipy import special

from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dispatch, dtypes, errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import broadcast_error, convert_matching, convert_to_tensor, op
from tfe_compat.framework import tensor as tensor_lib
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import grad_rules
from tfe_compat.ops import value_checks

# ---- dtype sets (NumPy dtypes, as `Tensor._value.dtype` reports them) ----
_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half"}
_ORDER = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool")


def np_set(*names):
  return frozenset(np.dtype(dtypes.as_dtype(n).as_numpy_dtype) for n in names)


FLOAT = np_set("bfloat16", "float16", "float32", "float64")
COMPLEX = np_set("complex64", "complex128")
INT = np_set("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
BOOL = np_set("bool")
INEXACT = FLOAT | COMPLEX
REAL = FLOAT | INT
NUMERIC = REAL | COMPLEX
ANY = NUMERIC | BOOL


def tf_type_name(dtype):
  return _TF_NAMES.get(dtype.name, dtype.name)


def dtype_message(tensor, allowed):
  names = ", ".join(tf_type_name(dtypes.as_dtype(n)) for n in _ORDER if np.dtype(
      dtypes.as_dtype(n).as_numpy_dtype) in allowed)
  return "Value for attr 'T' of %s is not in the list of allowed values: %s" % (
      tf_type_name(tensor.dtype), names)


def dtype_error(tensor, op_name, allowed):
  return errors.invalid_argument("%s [Op:%s]" % (dtype_message(tensor, allowed), op_name))


def check_dtype(tensor, allowed, op_name):
  if tensor._value.dtype not in allowed:
    raise dtype_error(tensor, op_name, allowed)
  return tensor


def mismatch_message(op_name, index, expected, got):
  return ("cannot compute %s as input #%d(zero-based) was expected to be a %s tensor but is a "
          "%s tensor" % (op_name, index, tf_type_name(expected), tf_type_name(got)))


class InvalidInputs(TypeError):
  """Raised while tracing an impl whose inputs have dtypes/ranks TF rejects; the op's
  `describe_error` words the InvalidArgumentError. Checking at trace time keeps these
  checks off the per-call fast path (a cached executable never re-checks)."""


def require(ok):
  if not ok:
    raise InvalidInputs("inputs rejected")


def input_error(op_name, allowed, describe_shapes=broadcast_error):
  """A `describe_error` for ops whose inputs share one dtype from `allowed`."""
  def describe(*inputs):
    first = inputs[0].dtype
    for i, t in enumerate(inputs[1:], 1):
      if t.dtype is not first:
        return mismatch_message(op_name, i, first, t.dtype)
    if inputs[0]._value.dtype not in allowed:
      return dtype_message(inputs[0], allowed)
    return describe_shapes(*inputs)
  return describe


def _non_int_type(value):
  """"float" or "string" if `value` (nested lists) holds one, else None."""
  if isinstance(value, (list, tuple)):
    return next(filter(None, map(_non_int_type, value)), None)
  return "float" if isinstance(value, float) else "string" if isinstance(
      value, (str, bytes)) else None


def static_ints(value, op_name=None):
  """An int, or nested tuples of ints, from Python, NumPy or Tensor values (static attrs).
  Refused as TF refuses them: a float scalar when converted to int32 (TypeError), floats or
  strings in a list or Tensor by the op's index attribute (InvalidArgumentError)."""
  if value is None or type(value) is int:
    return value
  if isinstance(value, (float, np.floating)):
    raise TypeError("Cannot convert %s to EagerTensor of dtype int32" % value)
  if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
    value = convert_to_tensor(value).numpy()
  if isinstance(value, (np.ndarray, np.generic)):
    value = value.tolist()
  bad = _non_int_type(value)
  if bad:
    raise errors.invalid_argument(
        "Value for attr 'Tidx' of %s is not in the list of allowed values: int32, int64%s"
        % (bad, " [Op:%s]" % op_name if op_name else ""))
  if isinstance(value, (list, tuple)):
    return tuple(static_ints(v) for v in value)
  return int(value)


# ---- elementwise op factories ----
def _unary(op_name, compute, allowed, *names, differentiable=True):
  def checked(x):
    require(x.dtype in allowed)
    return compute(x)
  impl = op(name=op_name, describe_error=input_error(op_name, allowed),
            differentiable=differentiable)(checked)

  def unary(x, name=None):
    if type(x) is not Tensor:
      try:
        x = convert_to_tensor(x)
      except (TypeError, ValueError):
        return dispatch.dispatch_or_raise(unary, (x,), {"name": name})
    return impl(x)

  return _named(dispatch.handles_dispatch(unary), op_name, names)


def _integer_divisor(op_name, error=errors.invalid_argument,
                     message="Integer division by zero"):
  """TF's check of an integer divisor: none may be zero."""
  def check(x, y):
    if jnp.issubdtype(y._value.dtype, jnp.integer):
      value_checks.check(y, lambda v: (v != 0).all(),
                         lambda _: error("%s [Op:%s]" % (message, op_name)))
  return check


def _integer_exponent(x, y):
  """TF's Pow: integers to negative integer powers are not allowed."""
  if jnp.issubdtype(x._value.dtype, jnp.integer):
    value_checks.check(y, lambda v: (v >= 0).all(), lambda _: errors.invalid_argument(
        "Integers to negative integer powers are not allowed [Op:Pow]"))


def _binary(op_name, compute, allowed, *names, strings=None, differentiable=True, check=None):
  def checked(x, y):
    require(x.dtype == y.dtype and x.dtype in allowed)
    return compute(x, y)
  impl = op(name=op_name, describe_error=input_error(op_name, allowed),
            differentiable=differentiable)(checked)

  def binary(x, y, name=None):
    if not (type(x) is Tensor and type(y) is Tensor):
      try:
        x, y = convert_matching(x, y, op_name=op_name)
      except (TypeError, ValueError):
        return dispatch.dispatch_or_raise(binary, (x, y), {"name": name})
    if check is not None:
      check(x, y)
    try:
      return impl(x, y)
    except errors.InvalidArgumentError:
      if strings is not None and x._value.dtype == object and y._value.dtype == object:
        return strings(x, y)
      raise

  return _named(dispatch.handles_dispatch(binary), op_name, names)


def _named(fn, op_name, names):
  """Names and exports a generated op; with no TF names it stays private (a helper)."""
  if not names:
    fn.__name__ = fn.__qualname__ = "_" + op_name
    return fn
  fn.__name__ = fn.__qualname__ = names[0].rpartition(".")[2]
  fn.__doc__ = "`tf.%s` (TF op %s)." % (names[0], op_name)
  return export(*names)(fn)


@op(name="AddV2", jit=False, describe_error=broadcast_error)
def _string_add(x, y):
  return np.asarray(x + y, dtype=object)  # object arrays of bytes concatenate elementwise


@op(name="Equal", jit=False, describe_error=broadcast_error)
def _string_equal(x, y):
  return device_lib.put(np.asarray(x == y, dtype=bool))


def _string_not_equal(x, y):
  return logical_not(_string_equal(x, y))


def _real_angle(x):
  return jnp.where(x < 0, jnp.asarray(math.pi, x.dtype), jnp.zeros_like(x))


def _int_aware(int_fn, float_fn):
  def compute(x, y):
    return int_fn(x, y) if jnp.issubdtype(x.dtype, jnp.integer) else float_fn(x, y)
  return compute


def _squared_difference(x, y):
  d = x - y
  return d * jnp.conj(d) if jnp.iscomplexobj(d) else d * d


def _div_no_nan(x, y):
  return jnp.where(y == 0, jnp.zeros_like(x), x / jnp.where(y == 0, jnp.ones_like(y), y))


# Unary ops: (TF op name, jax function, allowed dtypes, TF names)
negative = _unary("Neg", jnp.negative, NUMERIC, "math.negative", "negative")
abs = _unary("Abs", grad_rules.abs, NUMERIC, "math.abs", "abs")
sign = _unary("Sign", jnp.sign, NUMERIC, "math.sign", "sign")
square = _unary("Square", jnp.square, NUMERIC, "math.square", "square")
sqrt = _unary("Sqrt", grad_rules.sqrt, INEXACT, "math.sqrt", "sqrt")
rsqrt = _unary("Rsqrt", grad_rules.rsqrt, INEXACT, "math.rsqrt", "rsqrt")
exp = _unary("Exp", jnp.exp, INEXACT, "math.exp", "exp")
expm1 = _unary("Expm1", jnp.expm1, INEXACT, "math.expm1", "expm1")
log = _unary("Log", jnp.log, INEXACT, "math.log", "log")
log1p = _unary("Log1p", jnp.log1p, INEXACT, "math.log1p", "log1p")
reciprocal = _unary("Reciprocal", grad_rules.reciprocal, INEXACT, "math.reciprocal",
                    "reciprocal")
reciprocal_no_nan = _unary(
    "ReciprocalNoNan", lambda x: _div_no_nan(jnp.ones_like(x), x), INEXACT,
    "math.reciprocal_no_nan")
sin = _unary("Sin", jnp.sin, INEXACT, "math.sin", "sin")
cos = _unary("Cos", jnp.cos, INEXACT, "math.cos", "cos")
tan = _unary("Tan", jnp.tan, INEXACT, "math.tan", "tan")
asin = _unary("Asin", jnp.arcsin, INEXACT, "math.asin", "asin")
acos = _unary("Acos", jnp.arccos, INEXACT, "math.acos", "acos")
atan = _unary("Atan", jnp.arctan, INEXACT, "math.atan", "atan")
sinh = _unary("Sinh", jnp.sinh, INEXACT, "math.sinh", "sinh")
cosh = _unary("Cosh", jnp.cosh, INEXACT, "math.cosh", "cosh")
tanh = _unary("Tanh", jnp.tanh, INEXACT, "math.tanh", "tanh", "nn.tanh")
asinh = _unary("Asinh", jnp.arcsinh, INEXACT, "math.asinh", "asinh")
acosh = _unary("Acosh", jnp.arccosh, INEXACT, "math.acosh", "acosh")
atanh = _unary("Atanh", jnp.arctanh, INEXACT, "math.atanh", "atanh")
sigmoid = _unary("Sigmoid", jax.nn.sigmoid, INEXACT, "math.sigmoid", "sigmoid", "nn.sigmoid")
log_sigmoid = _unary("LogSigmoid", jax.nn.log_sigmoid, FLOAT, "math.log_sigmoid", "log_sigmoid")
erf = _unary("Erf", lax.erf, FLOAT, "math.erf", "erf")
erfc = _unary("Erfc", lax.erfc, FLOAT, "math.erfc", "erfc")
erfinv = _unary("Erfinv", lax.erf_inv, FLOAT, "math.erfinv")
ndtri = _unary("Ndtri", special.ndtri, FLOAT, "math.ndtri")
erfcinv = _unary("Erfcinv", lambda x: -special.ndtri(0.5 * x) * np.sqrt(0.5).astype(x.dtype),
                 FLOAT, "math.erfcinv")  # TF's formula
lgamma = _unary("Lgamma", lax.lgamma, FLOAT, "math.lgamma", "lgamma")
digamma = _unary("Digamma", lax.digamma, FLOAT, "math.digamma", "digamma")
bessel_i0e = _unary("BesselI0e", lax.bessel_i0e, FLOAT, "math.bessel_i0e")
bessel_i1e = _unary("BesselI1e", lax.bessel_i1e, FLOAT, "math.bessel_i1e")
bessel_i0 = _unary("BesselI0", grad_rules.bessel_i0, FLOAT, "math.bessel_i0")
bessel_i1 = _unary("BesselI1", grad_rules.bessel_i1, FLOAT, "math.bessel_i1")
# TF has no gradient for these (None, not zeros): the tape does not record them.
round = _unary("Round", jnp.round, REAL, "math.round", "round", differentiable=False)
rint = _unary("Rint", jnp.rint, FLOAT, "math.rint", "rint", differentiable=False)
floor = _unary("Floor", jnp.floor, FLOAT, "math.floor", "floor", differentiable=False)
ceil = _unary("Ceil", jnp.ceil, FLOAT, "math.ceil", "ceil", differentiable=False)
is_finite = _unary("IsFinite", jnp.isfinite, FLOAT, "math.is_finite", "is_finite")
is_nan = _unary("IsNan", jnp.isnan, FLOAT, "math.is_nan", "is_nan")
is_inf = _unary("IsInf", jnp.isinf, FLOAT, "math.is_inf", "is_inf")
_real = _unary("Real", jnp.real, NUMERIC)
_imag = _unary("Imag", lambda x: jnp.imag(x) if jnp.iscomplexobj(x) else jnp.zeros_like(x),
               NUMERIC)
_conj = _unary("Conj", jnp.conj, NUMERIC)
_angle = _unary("Angle", lambda x: jnp.angle(x) if jnp.iscomplexobj(x) else _real_angle(x),
                INEXACT)
logical_not = _unary("LogicalNot", jnp.logical_not, BOOL, "math.logical_not", "logical_not")


@export("math.real", "real")
def real(input, name=None):
  """`tf.math.real`: the real part (the input itself for real tensors)."""
  x = convert_to_tensor(input)
  return _real(x) if x.dtype.is_complex else x


@export("math.imag", "imag")
def imag(input, name=None):
  """`tf.math.imag`: the imaginary part (zeros for real tensors)."""
  return _imag(input)


@export("math.conj", "conj")
def conj(x, name=None):
  """`tf.math.conj`: the complex conjugate (the input itself for real tensors)."""
  x = convert_to_tensor(x)
  if not (x.dtype.is_complex or x.dtype.is_floating or x.dtype.is_integer):
    raise TypeError("Expected numeric or variant tensor, got dtype %r" % x.dtype)
  return _conj(x) if x.dtype.is_complex else x


@export("math.angle", "angle")
def angle(input, name=None):
  """`tf.math.angle`: the argument of complex numbers (0 or pi for real ones)."""
  x = convert_to_tensor(input)
  if x.dtype.is_integer:
    raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (math.pi, x.dtype.name))
  return _angle(x)


# Binary ops
add = _binary("AddV2", jnp.add, NUMERIC, "math.add", "add", strings=_string_add)
subtract = _binary("Sub", jnp.subtract, NUMERIC, "math.subtract", "subtract")
multiply = _binary("Mul", jnp.multiply, NUMERIC, "math.multiply", "multiply")
realdiv = _binary("RealDiv", _int_aware(lax.div, jnp.true_divide), NUMERIC, "realdiv")
floordiv = _binary("FloorDiv", jnp.floor_divide, REAL, "math.floordiv", "floordiv", "floor_div",
                   differentiable=False, check=_integer_divisor("FloorDiv"))
floormod = _binary("FloorMod", jnp.remainder, REAL, "math.floormod", "floormod", "math.mod",
                   "mod", check=_integer_divisor("FloorMod"))
_TRUNCATE_ERROR = dict(error=lambda m: errors.InternalError(None, None, m), message="Unexpected error in binary operator "
                       "(only integer div and mod ops should have errors)")  # TF 2.21's
truncatediv = _binary("TruncateDiv", _int_aware(lax.div, lambda x, y: jnp.trunc(x / y)), REAL,
                      "truncatediv", differentiable=False,
                      check=_integer_divisor("TruncateDiv", **_TRUNCATE_ERROR))
truncatemod = _binary("TruncateMod", lax.rem, REAL, "truncatemod",
                      check=_integer_divisor("TruncateMod", **_TRUNCATE_ERROR))
pow = _binary("Pow", grad_rules.pow, NUMERIC, "math.pow", "pow", check=_integer_exponent)
maximum = _binary("Maximum", grad_rules.maximum, REAL, "math.maximum", "maximum")
minimum = _binary("Minimum", grad_rules.minimum, REAL, "math.minimum", "minimum")
squared_difference = _binary("SquaredDifference", _squared_difference, NUMERIC,
                             "math.squared_difference", "squared_difference")
xdivy = _binary("Xdivy", grad_rules.xdivy, INEXACT, "math.xdivy")
xlogy = _binary("Xlogy", grad_rules.xlogy, FLOAT, "math.xlogy")
xlog1py = _binary("Xlog1py", grad_rules.xlog1py, FLOAT, "math.xlog1py")
multiply_no_nan = _binary("MulNoNan", grad_rules.multiply_no_nan, INEXACT,
                          "math.multiply_no_nan")
_nextafter = _binary("NextAfter", grad_rules.nextafter, FLOAT)
_igamma = _binary("Igamma", lax.igamma, FLOAT)
_igammac = _binary("Igammac", lax.igammac, FLOAT)
_zeta = _binary("Zeta", grad_rules.zeta, FLOAT, differentiable=(1,))  # TF: none for x
_polygamma = _binary("Polygamma", grad_rules.polygamma, FLOAT, differentiable=(1,))  # nor a
equal = _binary("Equal", jnp.equal, ANY, "math.equal", "equal", strings=_string_equal)
not_equal = _binary("NotEqual", jnp.not_equal, ANY, "math.not_equal", "not_equal",
                    strings=_string_not_equal)
less = _binary("Less", jnp.less, REAL, "math.less", "less")
less_equal = _binary("LessEqual", jnp.less_equal, REAL, "math.less_equal", "less_equal")
greater = _binary("Greater", jnp.greater, REAL, "math.greater", "greater")
greater_equal = _binary("GreaterEqual", jnp.greater_equal, REAL, "math.greater_equal",
                        "greater_equal")
_atan2 = _binary("Atan2", jnp.arctan2, FLOAT)
_bitwise_and = _binary("BitwiseAnd", jnp.bitwise_and, INT)  # for `&` on integer tensors
_bitwise_or = _binary("BitwiseOr", jnp.bitwise_or, INT)
_bitwise_xor = _binary("BitwiseXor", jnp.bitwise_xor, INT)
_invert = _unary("Invert", jnp.invert, INT)
_logical_and = op(name="LogicalAnd", describe_error=broadcast_error)(jnp.logical_and)
_logical_or = op(name="LogicalOr", describe_error=broadcast_error)(jnp.logical_or)
_logical_xor = op(name="LogicalXor", describe_error=broadcast_error)(jnp.logical_xor)


@op(name="Betainc", describe_error=input_error("Betainc", FLOAT))
def _betainc(a, b, x):
  require(a.dtype == b.dtype == x.dtype and a.dtype in FLOAT)
  return lax.betainc(a, b, x)


@export("math.betainc", "betainc")
def betainc(a, b, x, name=None):
  """`tf.math.betainc`: the regularized incomplete beta function I_x(a, b)."""
  return _betainc(*convert_matching(a, b, x, op_name="Betainc"))


@export("math.nextafter")
def nextafter(x1, x2, name=None):
  """`tf.math.nextafter`: the next representable value after `x1` toward `x2`."""
  return _nextafter(x1, x2)


@export("math.igamma", "igamma")
def igamma(a, x, name=None):
  """`tf.math.igamma`: the lower regularized incomplete gamma function P(a, x)."""
  return _igamma(a, x)


@export("math.igammac", "igammac")
def igammac(a, x, name=None):
  """`tf.math.igammac`: the upper regularized incomplete gamma function Q(a, x)."""
  return _igammac(a, x)


@export("math.zeta", "zeta")
def zeta(x, q, name=None):
  """`tf.math.zeta`: the Hurwitz zeta function."""
  return _zeta(x, q)


@export("math.polygamma", "polygamma")
def polygamma(a, x, name=None):
  """`tf.math.polygamma`: the a-th derivative of the digamma function."""
  return _polygamma(a, x)


@export("math.atan2", "atan2")
def atan2(y, x, name=None):
  """`tf.math.atan2(y, x)`: the angle of the point (x, y)."""
  return _atan2(y, x)


def _logical(impl, op_name):
  def logical(x, y, name=None):
    x, y = convert_matching(x, y, dtype=dtypes.bool, op_name=op_name)
    return impl(x, y)
  logical.__doc__ = "`tf.math.%s` of two bool tensors." % impl.__name__
  return logical


logical_and = export("math.logical_and", "logical_and")(_logical(_logical_and, "LogicalAnd"))
logical_or = export("math.logical_or", "logical_or")(_logical(_logical_or, "LogicalOr"))
logical_xor = export("math.logical_xor", "logical_xor")(_logical(_logical_xor, "LogicalOr"))

TRUEDIV = {"uint8": "float32", "int8": "float32", "uint16": "float32", "int16": "float32",
           "int32": "float64", "int64": "float64", "uint32": "float64", "uint64": "float64"}


@op(name="RealDiv", describe_error=broadcast_error)
def _truediv(x, y, *, dtype=None):
  if dtype is not None:
    x, y = x.astype(dtype), y.astype(dtype)
  if jnp.shape(y) != jnp.shape(x):
    # XLA rewrites x / broadcast(y) as x * (1 / y), 1 ulp off TF's division: keep it a division.
    y = lax.optimization_barrier(y)
  return x / y


@op(name="DivNoNan", describe_error=broadcast_error)
def _div_no_nan_op(x, y, *, dtype=None):
  if dtype is not None:
    x, y = x.astype(dtype), y.astype(dtype)
  return _div_no_nan(x, y)


def _same_dtype_operands(x, y):
  """TF's `x = convert(x); y = convert(y, dtype_hint=x.dtype)` and the same-dtype check."""
  if type(x) is not Tensor:
    x = convert_to_tensor(x)
  if type(y) is not Tensor:
    y = convert_to_tensor(y, preferred_dtype=x.dtype)
  if x.dtype is not y.dtype:
    raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (x.dtype, y.dtype))
  return x, y


@export("math.truediv", "truediv")
def truediv(x, y, name=None):
  """`tf.truediv`: Python 3 division; integers are cast to float32/float64 first."""
  x, y = _same_dtype_operands(x, y)
  if x._value.dtype in INT:
    return _truediv(x, y, dtype=TRUEDIV[x.dtype.name])
  check_dtype(x, INEXACT, "RealDiv")
  return _truediv(x, y)


@export("math.divide", "divide")
def divide(x, y, name=None):
  """`tf.divide`: `x / y` with TF's operator semantics (true division)."""
  if type(x) is not Tensor:
    x = convert_to_tensor(x)
  return truediv(x, y)


@export("div")
def div(x, y, name=None):
  """TF1 `tf.div`: Python 2 division (floor division for integers)."""
  x, y = _same_dtype_operands(x, y)
  if x.dtype.is_floating or x.dtype.is_complex:
    return _truediv(x, y)
  return floordiv(x, y)


@export("div_no_nan", "math.divide_no_nan")
def div_no_nan(x, y, name=None):
  """`tf.div_no_nan`: `x / y`, or 0 where `y` is 0."""
  x = convert_to_tensor(x)
  y = convert_to_tensor(y, preferred_dtype=x.dtype)
  if x.dtype is not y.dtype:
    raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (x.dtype, y.dtype))
  if x._value.dtype in INT:
    return _div_no_nan_op(x, y, dtype=TRUEDIV[x.dtype.name])
  check_dtype(x, INEXACT, "DivNoNan")
  return _div_no_nan_op(x, y)


@export("math.scalar_mul", "scalar_mul")
def scalar_mul(scalar, x, name=None):
  """`tf.scalar_mul`: a 0-D `scalar` times `x`."""
  x = convert_to_tensor(x)
  scalar = convert_to_tensor(scalar, dtype=x.dtype)
  if scalar.shape.ndims != 0:
    raise ValueError("The input scalar must be a 0-D value. Received shape %s." % (scalar.shape,))
  return multiply(scalar, x)


@export("complex", "dtypes.complex")
def complex(real, imag, name=None):
  """`tf.complex`: complex64 from float32 parts, complex128 from float64 parts."""
  real, imag = convert_to_tensor(real), convert_to_tensor(imag)
  out = {("float32", "float32"): "complex64", ("float64", "float64"): "complex128"}.get(
      (real.dtype.name, imag.dtype.name))
  if out is None:
    raise TypeError("real and imag have incorrect types: %s %s" % (real.dtype.name,
                                                                    imag.dtype.name))
  return _complex(real, imag, dtype=out)


@op(name="Complex", describe_error=broadcast_error)
def _complex(re, im, *, dtype):
  return lax.complex(re, im).astype(dtype)


@export("math.polyval")
def polyval(coeffs, x, name=None):
  """`tf.math.polyval`: evaluates the polynomial with `coeffs` (highest power first) at `x`."""
  if not isinstance(coeffs, (list, tuple)):
    raise ValueError("Argument coeffs must be list type found %s." % type(coeffs))
  x = convert_to_tensor(x)
  if not coeffs:
    return multiply(x, 0)
  p = convert_to_tensor(coeffs[0], dtype=x.dtype)
  for c in coeffs[1:]:
    p = add(convert_to_tensor(c, dtype=x.dtype), multiply(p, x))
  return p


# ---- Tensor operators (TF's `_OverrideBinaryOperatorHelper`) ----
_PLAIN = (int, float, builtins.complex, builtins.bool, str, bytes, list, tuple, np.ndarray,
          np.generic)


def _operators(func, name):
  """`x <op> y` converts `y` to x's dtype; the reflected form converts `x` to y's dtype."""
  def forward(x, y):
    if type(y) is Tensor:
      return func(x, y)
    try:
      y = convert_to_tensor(y, dtype=x.dtype)
    except TypeError:
      if not isinstance(y, _PLAIN) and hasattr(type(y), "__r%s__" % name):
        return NotImplemented  # a tensor-aware object may implement the reflected operator
      raise
    return func(x, y)

  def reflected(y, x):
    return func(convert_to_tensor(x, dtype=y.dtype), y)

  forward.__name__, reflected.__name__ = "__%s__" % name, "__r%s__" % name
  return forward, reflected


def _and(x, y):
  return logical_and(x, y) if x._value.dtype == np.bool_ else _bitwise_and(x, y)


def _or(x, y):
  return logical_or(x, y) if x._value.dtype == np.bool_ else _bitwise_or(x, y)


def _xor(x, y):
  return logical_xor(x, y) if x._value.dtype == np.bool_ else _bitwise_xor(x, y)


def _invert_operator(x):
  return logical_not(x) if x._value.dtype == np.bool_ else _invert(x)


def _install_operators():
  for name, func in [("add", add), ("sub", subtract), ("mul", multiply), ("truediv", truediv),
                     ("div", div), ("floordiv", floordiv), ("mod", floormod), ("pow", pow),
                     ("matmul", matmul_cast_ops.matmul), ("and", _and), ("or", _or), ("xor", _xor)]:
    forward, reflected = _operators(func, name)
    setattr(Tensor, forward.__name__, forward)
    setattr(Tensor, reflected.__name__, reflected)
  for name, func in [("lt", less), ("le", less_equal), ("gt", greater), ("ge", greater_equal)]:
    setattr(Tensor, "__%s__" % name, _operators(func, name)[0])
  Tensor.__neg__ = negative
  Tensor.__abs__ = abs
  Tensor.__invert__ = _invert_operator


def _elementwise_equality(func, name, unequal):
  """`==` / `!=` after tf.enable_tensor_equality(): elementwise, but `unequal` (a Python
  bool) for None and a bool scalar for shapes that do not broadcast, as TF's
  `incompatible_shape_error=False`."""
  forward = _operators(func, name)[0]

  def method(self, other):
    if other is None:
      return unequal
    try:
      return forward(self, other)
    except errors.InvalidArgumentError:
      try:
        np.broadcast_shapes(self._value.shape, other._value.shape if isinstance(other, Tensor)
                            else np.shape(other))
      except ValueError:
        return convert_to_tensor(unequal)
      raise
  method.__name__ = "__%s__" % name
  return method


from tfe_compat.ops import matmul_cast_ops  # noqa: E402,F401  (casts, where, matmul: same family)

_install_operators()
tensor_lib.register_equality(Tensor, {"__eq__": _elementwise_equality(equal, "eq", False),
                                      "__ne__": _elementwise_equality(not_equal, "ne", True),
                                      "__hash__": tensor_lib.unhashable})
