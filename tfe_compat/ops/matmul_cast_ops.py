"""TF 1.15 casts, `where`, matrix products (matmul, tensordot, einsum, cross): the second half
of math_ops (imported by it)."""
# TF's signatures: `name=` is accepted and ignored; some parameters shadow builtins.
# pylint: disable=unused-argument,redefined-builtin
import builtins

import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dispatch, dtypes, errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_matching, convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import fast_matmul
from tfe_compat.ops.math_ops import (COMPLEX, FLOAT, REAL, check_dtype, input_error, np_set,
                                     require, static_ints, tf_type_name)


# ---- casts ----
def _convert(x, target):
  """`x.astype(target)` with TF's CPU results for complex->real and float->int casts."""
  if jnp.iscomplexobj(x) and not jnp.issubdtype(target, jnp.complexfloating):
    x = jnp.real(x)
  if not (jnp.issubdtype(x.dtype, jnp.floating) and jnp.issubdtype(target, jnp.integer)):
    return x.astype(target)
  bits = np.iinfo(target).bits
  via = np.dtype("int32" if bits <= 16 else "int64" if target == np.uint32 else target)
  if via == np.uint64:
    return x.astype(target)
  low = float(np.iinfo(via).min)  # out of range and NaN give INT_MIN, as C++ casts on x86
  ok = (x >= low) & (x < -low)
  value = jnp.where(ok, jnp.where(ok, x, 0).astype(via), np.iinfo(via).min)
  return value.astype(target)


@op(name="Cast")
def _cast(x, *, dtype):
  return _convert(x, np.dtype(dtypes.as_dtype(dtype).as_numpy_dtype))


@export("cast", "dtypes.cast")
@dispatch.handles_dispatch
def cast(x, dtype, name=None):
  """`tf.cast`: `x` converted to `dtype` (complex -> real keeps the real part)."""
  dtype = dtypes.as_dtype(dtype)
  if type(x) is not Tensor:
    try:
      x = convert_to_tensor(x)
    except (TypeError, ValueError):
      return dispatch.dispatch_or_raise(cast, (x, dtype), {})
  if x.dtype is dtype:
    return x
  if dtype is dtypes.string or x.dtype is dtypes.string:
    raise errors.UnimplementedError(None, None, "Cast %s to %s is not supported [Op:Cast]" % (
        tf_type_name(x.dtype), tf_type_name(dtype)))
  return _cast(x, dtype=dtype.name)


def _cast_to(dtype, default_name):
  def cast_to(x, name=default_name):
    return cast(x, dtype)
  cast_to.__doc__ = "TF1 `tf.to_%s`: `tf.cast(x, tf.%s)`." % (dtype.name, dtype.name)
  return cast_to


to_float = export("to_float")(_cast_to(dtypes.float32, "ToFloat"))
to_double = export("to_double")(_cast_to(dtypes.float64, "ToDouble"))
to_int32 = export("to_int32")(_cast_to(dtypes.int32, "ToInt32"))
to_int64 = export("to_int64")(_cast_to(dtypes.int64, "ToInt64"))
to_bfloat16 = export("to_bfloat16")(_cast_to(dtypes.bfloat16, "ToBFloat16"))
to_complex64 = export("to_complex64")(_cast_to(dtypes.complex64, "ToComplex64"))
to_complex128 = export("to_complex128")(_cast_to(dtypes.complex128, "ToComplex128"))


def _inward(limit, np_dtype):
  """`limit` represented in `np_dtype`, moved toward 0 if rounding pushed it outside."""
  value = np.array(limit).astype(np_dtype)
  if abs(float(value)) > abs(limit):
    value = np.nextafter(value, np.zeros((), np_dtype))
  return value.item()


@op(name="Cast")
def _saturate_cast(x, *, dtype):
  target = np.dtype(dtypes.as_dtype(dtype).as_numpy_dtype)
  if jnp.iscomplexobj(x) and not jnp.issubdtype(target, jnp.complexfloating):
    x = jnp.real(x)
  if not jnp.iscomplexobj(x) and x.dtype != np.bool_ and target != np.bool_:
    src, dst = dtypes.from_numpy(x.dtype), dtypes.as_dtype(dtype)
    if src.min < dst.min:
      x = jnp.maximum(x, _inward(int(dst.min) if dst.is_integer else float(dst.min), x.dtype))
    if src.max > dst.max:
      x = jnp.minimum(x, _inward(int(dst.max) if dst.is_integer else float(dst.max), x.dtype))
  return _convert(x, target)


@export("saturate_cast", "dtypes.saturate_cast")
def saturate_cast(value, dtype, name=None):
  """`tf.saturate_cast`: a cast that clamps to the target dtype's range first."""
  dtype = dtypes.as_dtype(dtype)
  value = convert_to_tensor(value)
  if value.dtype is dtype:
    return value
  return _saturate_cast(value, dtype=dtype.name)


@op(name="Bitcast")
def _bitcast(x, *, dtype):
  return lax.bitcast_convert_type(x, np.dtype(dtypes.as_dtype(dtype).as_numpy_dtype))


@export("bitcast")
def bitcast(input, type, name=None):
  """`tf.bitcast`: reinterprets the bytes (a narrower type adds a last dimension)."""
  x = convert_to_tensor(input)
  type = dtypes.as_dtype(type)
  if type.size > x.dtype.size and (not x._value.ndim or
                                   x._value.shape[-1] * x.dtype.size != type.size):
    raise errors.invalid_argument("Cannot bitcast from %d to %d [Op:Bitcast]" % (
        x.dtype.as_datatype_enum, type.as_datatype_enum))
  return _bitcast(x, dtype=type.name)


# ---- where ----
@op(name="Where", jit=False)
def _where_indices(condition):
  return jnp.argwhere(condition).astype(jnp.int64)


@op(name="Select")
def _select(condition, x, y):
  extra = x.ndim - condition.ndim
  return jnp.where(condition.reshape(condition.shape + (1,) * extra) if condition.ndim else
                   condition, x, y)


def _shape_list(t):
  return "[%s]" % ",".join(str(d) for d in t._value.shape)


def _select_v2_error(c, x, y):
  return "condition %s, then %s, and else %s must be broadcastable" % (
      _shape_list(c), _shape_list(x), _shape_list(y))


@op(name="SelectV2", describe_error=_select_v2_error)
def _select_v2(condition, x, y):
  return jnp.where(condition, x, y)


def _where_coordinates(condition):
  condition = convert_to_tensor(condition)
  if condition._value.ndim == 0:
    raise errors.invalid_argument("WhereOp : Unhandled input dimensions: 0 [Op:Where]")
  return _where_indices(condition)


@export("where")
def where(condition, x=None, y=None, name=None):
  """TF1 `tf.where`: int64 coordinates of true elements, or `select` (no broadcasting except
  a vector `condition` that picks rows of `x`/`y`)."""
  if x is None and y is None:
    return _where_coordinates(condition)
  if x is None or y is None:
    raise ValueError("x and y must both be non-None or both be None.")
  (condition,) = convert_matching(condition, dtype=dtypes.bool, op_name="Select")
  try:
    x, y = convert_matching(x, y, op_name="Select")
  except errors.InvalidArgumentError as e:  # number the inputs after `condition`, as TF does
    raise errors.invalid_argument(str(e).replace("#1(", "#2(").replace("#0(", "#1(")) from None
  cs, xs, ys = condition._value.shape, x._value.shape, y._value.shape
  prefix = "Inputs to operation Select of type Select must have the same size and shape.  "
  if len(cs) == 1 and len(xs) > 1:
    if xs != ys:
      raise errors.invalid_argument("%sInput 1: %s != input 2: %s [Op:Select]" % (
          prefix, _shape_list(x), _shape_list(y)))
    if cs[0] != xs[0]:
      raise errors.invalid_argument(
          "Number of batches of 'then' must match size of 'cond', but saw: %d vs. %d "
          "[Op:Select]" % (xs[0], cs[0]))
  elif not cs and xs != ys:
    raise errors.invalid_argument("'then' and 'else' must have the same size.  but received: "
                                  "%s vs. %s [Op:Select]" % (_shape_list(x), _shape_list(y)))
  elif cs and (cs != xs or cs != ys):
    other, index = (x, 1) if cs != xs else (y, 2)
    raise errors.invalid_argument("%sInput 0: %s != input %d: %s [Op:Select]" % (
        prefix, _shape_list(condition), index, _shape_list(other)))
  if x.dtype is dtypes.string:
    extra = x._value.ndim - condition._value.ndim
    rows = np.asarray(condition._value)
    return _select_strings(rows.reshape(rows.shape + (1,) * extra) if rows.ndim else rows, x, y)
  return _select(condition, x, y)


def _select_strings(condition, x, y):
  """Select of string Tensors (NumPy object arrays, on the host)."""
  return Tensor(np.where(np.asarray(condition), x._value, y._value))


@export("where_v2")
def where_v2(condition, x=None, y=None, name=None):
  """`tf.where_v2`: coordinates of true elements, or a broadcasting select."""
  if x is None and y is None:
    return _where_coordinates(condition)
  if x is None or y is None:
    raise ValueError("x and y must both be non-None or both be None.")
  (condition,) = convert_matching(condition, dtype=dtypes.bool, op_name="SelectV2")
  x, y = convert_matching(x, y, op_name="SelectV2")
  if x.dtype is dtypes.string:
    return _select_strings(condition._value, x, y)
  return _select_v2(condition, x, y)


# ---- matrix products ----
_MATMUL_TYPES = FLOAT | COMPLEX | np_set("int32", "int64", "uint8", "uint16", "uint32",
                                          "uint64")


def _matmul_shapes_error(a, b):
  ra, rb = a._value.ndim, b._value.ndim
  if ra < 2 or rb < 2:
    if ra < 2 and ra != rb:
      return "In[0] and In[1] has different ndims: %s vs. %s" % (_shape_list(a), _shape_list(b))
    return "In[%d] ndims must be >= 2" % (0 if ra < 2 else 1)
  if ra > 2 or rb > 2:
    try:
      np.broadcast_shapes(a._value.shape[:-2], b._value.shape[:-2])
    except ValueError:
      return "In[0] and In[1] must have compatible batch dimensions: %s vs. %s" % (
          _shape_list(a), _shape_list(b))
  return "Matrix size-incompatible: In[0]: %s, In[1]: %s" % (_shape_list(a), _shape_list(b))


@op(name="MatMul", describe_error=input_error("MatMul", _MATMUL_TYPES, _matmul_shapes_error))
def _matmul(a, b, *, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False):
  require(a.dtype == b.dtype and a.dtype in _MATMUL_TYPES and a.ndim >= 2 and b.ndim >= 2)
  if transpose_a or adjoint_a:
    a = jnp.swapaxes(jnp.conj(a) if adjoint_a else a, -1, -2)
  if transpose_b or adjoint_b:
    b = jnp.swapaxes(jnp.conj(b) if adjoint_b else b, -1, -2)
  return fast_matmul.matmul(a, b)


@export("linalg.matmul", "matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, name=None):
  """`tf.matmul`: (batched, broadcasting) matrix product; the sparse hints are ignored."""
  if not (type(a) is Tensor and type(b) is Tensor):
    a, b = convert_matching(a, b, op_name="MatMul")
  try:
    if not (transpose_a or transpose_b or adjoint_a or adjoint_b):
      return _matmul(a, b)
    for flag, transpose, adjoint in (("a", transpose_a, adjoint_a), ("b", transpose_b, adjoint_b)):
      if transpose and adjoint:
        raise ValueError("Only one of `transpose_{0}` and `adjoint_{0}` can be True. Received "
                         "`transpose_{0}`=True, `adjoint_{0}`=True.".format(flag))
    return _matmul(a, b, transpose_a=builtins.bool(transpose_a),
                   transpose_b=builtins.bool(transpose_b), adjoint_a=builtins.bool(adjoint_a),
                   adjoint_b=builtins.bool(adjoint_b))
  except errors.InvalidArgumentError as e:
    if a._value.ndim > 2 or b._value.ndim > 2:  # TF runs BatchMatMulV2 for batched inputs
      raise errors.invalid_argument(str(e).replace("[Op:MatMul]", "[Op:BatchMatMulV2]")) from None
    raise


@op(name="Tensordot")
def _tensordot(a, b, *, axes):
  return jnp.tensordot(a, b, axes=axes)


@export("linalg.tensordot", "tensordot")
def tensordot(a, b, axes, name=None):
  """`tf.tensordot`: sums products over `axes` (an int, or a pair of axis lists)."""
  a, b = convert_matching(a, b, op_name="MatMul")
  axes = static_ints(axes)
  if isinstance(axes, int):
    if axes < 0:
      raise ValueError("'axes' must be at least 0.")
  elif len(axes) != 2:
    raise ValueError("'axes' must be an integer or have length 2.")
  else:
    axes = tuple(ax if isinstance(ax, tuple) else (ax,) for ax in axes)
    if len(axes[0]) != len(axes[1]):
      raise ValueError("Different number of contraction axes 'a' and 'b', %d != %d."
                       % (len(axes[0]), len(axes[1])))
  return _tensordot(a, b, axes=axes)


@op(name="Einsum")
def _einsum(*inputs, equation):
  return jnp.einsum(equation, *inputs)


@export("einsum", "linalg.einsum")
def einsum(equation, *inputs, **kwargs):
  """`tf.einsum`: Einstein summation over `inputs` as `equation` says."""
  unknown = set(kwargs) - {"name"}
  if unknown:
    raise TypeError("invalid keyword arguments for this function: %s" % ", ".join(unknown))
  inputs = convert_matching(*inputs, op_name="Einsum")
  equation = equation.replace(" ", "")
  _check_equation(equation, len(inputs))
  return _einsum(*inputs, equation=equation)


def _check_equation(equation, count):
  """The ValueErrors of TF's einsum equation parsing (before its kernel sees shapes)."""
  subscripts, arrow, output = equation.partition("->")
  terms = subscripts.split(",")
  if len(terms) != count:
    raise ValueError('Got %d inputs for equation "%s", expecting %d'
                     % (count, equation, len(terms)))
  for label in output if arrow else "":
    if label.isalpha() and label not in subscripts:
      raise ValueError("Output subscripts contain the label %s not present in the input "
                       "subscripts." % label)


def _check_cross(a, b):
  """The errors of TF's Cross kernel (its shape function's ValueErrors inside tf.function)."""
  shape = a._value.shape
  if shape != b._value.shape:
    raise errors.op_error("Both inputs must be of same shape: %s vs. %s"
                          % (_shape_list(a), _shape_list(b)), "Cross")
  if not shape:
    raise errors.op_error("Input must be at least 1D%s" % _shape_list(a), "Cross")
  if shape[-1] != 3:
    if errors.building_function[0]:
      raise errors.op_error("Dimension must be 3 but is %d" % shape[-1], "Cross")
    raise errors.FailedPreconditionError(
        None, None, "Cross-products are only defined for 3-element vectors. [Op:Cross]")


@op(name="Cross")
def _cross(a, b):
  return jnp.cross(a, b)


@export("linalg.cross", "cross")
def cross(a, b, name=None):
  """`tf.cross`: cross products of 3-vectors along the last axis."""
  a, b = convert_matching(a, b, op_name="Cross")
  check_dtype(a, REAL, "Cross")
  _check_cross(a, b)
  return _cross(a, b)


@export("linalg.matvec")
def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
  """`tf.linalg.matvec`: the matrix (batch) `a` times the vector (batch) `b`."""
  product = matmul(a, array_ops.expand_dims(b, -1), transpose_a=transpose_a,
                   adjoint_a=adjoint_a)
  return array_ops.squeeze(product, axis=-1)

