"""Math ops, reductions and Tensor operators against golden values from TensorFlow."""
import inspect
import re

import numpy as np
import pytest

import tfe_compat as tf

F32 = np.float32
ERR = tf.errors.InvalidArgumentError

# ---- golden values (TF 2.21 `tf.compat.v1`, eager) ----
UNARY_IN = [0.25, 0.5, 0.75]
UNARY = {
    "negative": [-0.25, -0.5, -0.75], "abs": [0.25, 0.5, 0.75], "sign": [1.0, 1.0, 1.0],
    "square": [0.0625, 0.25, 0.5625], "sqrt": [0.5, 0.7071068, 0.8660254],
    "rsqrt": [2.0, 1.414214, 1.154701], "exp": [1.284025, 1.648721, 2.117],
    "expm1": [0.2840254, 0.6487213, 1.117], "log": [-1.386294, -0.6931472, -0.2876821],
    "log1p": [0.2231435, 0.4054651, 0.5596158], "reciprocal": [4.0, 2.0, 1.333333],
    "sin": [0.247404, 0.4794255, 0.6816388], "cos": [0.9689124, 0.8775826, 0.7316889],
    "tan": [0.2553419, 0.5463025, 0.9315965], "asin": [0.2526802, 0.5235988, 0.8480621],
    "acos": [1.318116, 1.047198, 0.7227343], "atan": [0.2449787, 0.4636476, 0.6435011],
    "sinh": [0.2526123, 0.5210953, 0.8223167], "cosh": [1.031413, 1.127626, 1.294683],
    "tanh": [0.2449187, 0.4621171, 0.6351489], "asinh": [0.2474665, 0.4812118, 0.6931472],
    "atanh": [0.2554128, 0.5493062, 0.9729551], "sigmoid": [0.5621765, 0.6224594, 0.6791787],
    "log_sigmoid": [-0.5759394, -0.474077, -0.386871], "erf": [0.2763264, 0.5204999, 0.7111557],
    "erfc": [0.7236736, 0.4795001, 0.2888443], "lgamma": [1.288023, 0.5723649, 0.203281],
    "digamma": [-4.227454, -1.963511, -1.08586], "round": [0.0, 0.0, 1.0],
    "rint": [0.0, 0.0, 1.0], "floor": [0.0, 0.0, 0.0], "ceil": [1.0, 1.0, 1.0],
    "erfinv": [0.2253121, 0.4769363, 0.8134199], "ndtri": [-0.6744898, 0.0, 0.6744898],
    "erfcinv": [0.8134199, 0.4769363, 0.2253121],
    "bessel_i0e": [0.7910173, 0.6450354, 0.5411652],
    "bessel_i1e": [0.09811264, 0.1564208, 0.1898878],
    "bessel_i0": [1.015686, 1.063483, 1.145647], "bessel_i1": [0.1259791, 0.2578943, 0.4019925],
    "reciprocal_no_nan": [4.0, 2.0, 1.333333],
}
BIN_X, BIN_Y = [3.0, 2.0, -0.75], [2.0, -1.5, 0.5]
BINARY = {
    "add": [5.0, 0.5, -0.25], "subtract": [1.0, 3.5, -1.25], "multiply": [6.0, -3.0, -0.375],
    "divide": [1.5, -1.333333, -1.5], "truediv": [1.5, -1.333333, -1.5],
    "floordiv": [1.0, -2.0, -2.0], "floormod": [1.0, -1.0, 0.25],
    "truncatediv": [1.0, -1.0, -1.0], "truncatemod": [1.0, 0.5, -0.25],
    "maximum": [3.0, 2.0, 0.5], "minimum": [2.0, -1.5, -0.75],
    "squared_difference": [1.0, 12.25, 1.5625], "atan2": [0.9827937, 2.214298, -0.9827937],
    "xdivy": [1.5, -1.333333, -1.5], "xlogy": [2.079442, np.nan, 0.5198604],
    "xlog1py": [3.295837, np.nan, -0.3040988],
    "divide_no_nan": [1.5, -1.333333, -1.5], "multiply_no_nan": [6.0, -3.0, -0.375],
}
INT_X, INT_Y = [-7, -2, 3, 7], [2, 3, -2, 7]
INTS = {
    "add": ("int32", [-5, 1, 1, 14]), "subtract": ("int32", [-9, -5, 5, 0]),
    "multiply": ("int32", [-14, -6, -6, 49]), "floordiv": ("int32", [-4, -1, -2, 1]),
    "floormod": ("int32", [1, 1, -1, 0]), "truncatediv": ("int32", [-3, 0, -1, 1]),
    "truncatemod": ("int32", [-1, -2, 1, 0]), "maximum": ("int32", [2, 3, 3, 7]),
    "minimum": ("int32", [-7, -2, -2, 7]), "squared_difference": ("int32", [81, 25, 25, 0]),
    "truediv": ("float64", [-3.5, -2 / 3, -1.5, 1.0]),
    "divide": ("float64", [-3.5, -2 / 3, -1.5, 1.0]), "div": ("int32", [-4, -1, -2, 1]),
}


def op_named(name):
  return getattr(tf.math, name, None) or getattr(tf, name)


def check(t, dtype, value, rtol=1e-5):
  assert t.dtype == dtype, (t.dtype, dtype)
  np.testing.assert_allclose(np.asarray(t.numpy(), dtype=np.float64) if dtype != "bool" else
                             t.numpy(), value, rtol=rtol, atol=1e-6)


def raises(exc, text, fn, *args, **kwargs):
  with pytest.raises(exc) as info:
    fn(*args, **kwargs)
  assert text in str(info.value), str(info.value)


# ---- elementwise ----
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_float32_golden(name):
  check(getattr(tf.math, name)(tf.constant(UNARY_IN)), tf.float32, UNARY[name])


def test_unary_special_golden():
  check(tf.math.acosh(tf.constant([1.25, 1.5, 1.75])), tf.float32, [0.6931472, 0.9624237, 1.15881])
  check(tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, 3.5])), tf.float32,
        [0, 2, 2, -0.0, -2, 4])  # banker's rounding
  check(tf.math.log_sigmoid(tf.constant([-100., 100.])), tf.float32, [-100.0, 0.0])
  check(tf.abs(tf.constant([3 + 4j], tf.complex64)), tf.float32, [5.0])
  check(tf.math.angle(tf.constant([-1., 2.])), tf.float32, [np.pi, 0.0])
  check(tf.math.imag(tf.constant([1., 2.])), tf.float32, [0.0, 0.0])
  assert tf.math.conj(tf.constant([1 + 2j])).numpy().tolist() == [1 - 2j]
  check(tf.math.real(tf.constant([1, 2])), tf.int32, [1, 2])
  check(tf.math.real(tf.constant([1 + 2j], tf.complex64)), tf.float32, [1.0])
  c = tf.complex(tf.constant([1.], tf.float64), tf.constant([2.], tf.float64))
  assert c.dtype == tf.complex128 and c.numpy().tolist() == [1 + 2j]
  raises(TypeError, "incorrect types", tf.complex, tf.constant([1.]), tf.constant([2.], tf.float64))


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_float32_golden(name):
  check(op_named(name)(tf.constant(BIN_X), tf.constant(BIN_Y)), tf.float32,
        BINARY[name])


def test_binary_special_golden():
  check(tf.pow(tf.constant([3.0, 2.0, 0.75]), tf.constant(BIN_Y)), tf.float32,
        [9.0, 0.3535534, 0.8660254])
  a, b = tf.constant([1.0, 2.0, 3.0]), tf.constant([0.5, 1.5, 2.5])
  check(tf.math.igamma(a, b), tf.float32, [0.3934694, 0.4421746, 0.4561869])
  check(tf.math.igammac(a, b), tf.float32, [0.6065307, 0.5578254, 0.5438131])
  check(tf.math.zeta(tf.constant([2.0, 3.0, 4.0]), b), tf.float32,
        [4.934802, 0.4143983, 0.03731764])
  check(tf.math.polygamma(a, b), tf.float32, [4.934802, -0.8287967, 0.2239059])
  check(tf.math.xdivy(tf.constant([0.]), tf.constant([0.])), tf.float32, [0.0])
  check(tf.math.xlogy(tf.constant([0.]), tf.constant([0.])), tf.float32, [0.0])
  check(tf.div_no_nan(tf.constant([1.]), 0.), tf.float32, [0.0])
  check(tf.div_no_nan(tf.constant([1, 1]), tf.constant([0, 2])), tf.float64, [0.0, 0.5])
  check(tf.floordiv(tf.constant([7.5]), tf.constant([0.])), tf.float32, [np.inf])
  check(tf.maximum(tf.constant([np.nan, 1.]), 0.), tf.float32, [np.nan, 1.0])
  check(tf.scalar_mul(2, tf.constant([1., 2])), tf.float32, [2.0, 4.0])
  raises(ValueError, "0-D", tf.scalar_mul, tf.constant([2., 3]), tf.constant([1., 2]))
  check(tf.math.polyval([1., 2., 3.], tf.constant([0., 2.])), tf.float32, [3.0, 11.0])
  check(tf.math.polyval([], tf.constant([0., 2.])), tf.float32, [0.0, 0.0])


@pytest.mark.parametrize("name", sorted(INTS))
def test_integer_arithmetic_golden(name):
  dtype, value = INTS[name]
  check(getattr(tf, name)(tf.constant(INT_X), tf.constant(INT_Y)), dtype, value)


def test_integer_unary_and_truediv_dtypes():
  x = tf.constant(INT_X)
  for name, value in [("negative", [7, 2, -3, -7]), ("abs", [7, 2, 3, 7]),
                      ("sign", [-1, -1, 1, 1]), ("square", [49, 4, 9, 49]),
                      ("round", [-7, -2, 3, 7])]:
    check(getattr(tf, name)(x), tf.int32, value)
  check(tf.pow(x, tf.constant([2, 3, 2, 7])), tf.int32, [49, -8, 9, 823543])
  check(tf.truediv(tf.constant(7, tf.int16), tf.constant(2, tf.int16)), tf.float32, 3.5)
  check(tf.constant(7, tf.uint8) / 2, tf.float32, 3.5)
  check(tf.truediv(1, 2), tf.float64, 0.5)
  check(tf.div(tf.constant(-7.), tf.constant(2.)), tf.float32, -3.5)
  raises(TypeError, "`x` and `y` must have the same dtype, got tf.float32 != tf.int32.",
         tf.truediv, tf.constant(1.), tf.constant(2))


def test_comparison_and_logical_ops():
  x = tf.constant([1, 2, 3])
  for fn, value in [(tf.equal, [False, True, False]), (tf.not_equal, [True, False, True]),
                    (tf.less, [True, False, False]), (tf.less_equal, [True, True, False]),
                    (tf.greater, [False, False, True]), (tf.greater_equal, [False, True, True])]:
    check(fn(x, 2), "bool", value)
  a, b = tf.constant([True, True, False]), tf.constant([True, False, False])
  check(tf.logical_and(a, b), "bool", [True, False, False])
  check(tf.logical_or(a, b), "bool", [True, True, False])
  check(tf.logical_xor(a, b), "bool", [False, True, False])
  check(tf.logical_not(a), "bool", [False, False, True])
  check(tf.equal(tf.constant(["a", "b"]), "b"), "bool", [False, True])
  assert tf.add(tf.constant("a"), "b").numpy() == b"ab"
  raises(ERR, "cannot compute LogicalAnd as input #0(zero-based) was expected to be a bool "
         "tensor but is a int32 tensor [Op:LogicalAnd]", tf.logical_and, tf.constant([1]), True)
  raises(ERR, "Value for attr 'T' of bool is not in the list", tf.less, tf.constant([True]), True)


# ---- dtype walk over every op of the modules ----
def _x(dtype):
  return tf.constant([[0.25, 0.5], [0.75, 0.5]], dtype)


def _walk_calls():
  """(exported function name, call(dtype) -> Tensor/list, TF's float32 output dtype)."""
  x, v = _x, lambda d: tf.constant([0.5, 0.25, 0.75], d)
  seg = tf.constant([0, 0, 1])
  calls = {name: (lambda d, n=name: getattr(tf.math, n)(x(d)), "float32") for name in UNARY}
  calls.update({name: (lambda d, n=name: op_named(n)(x(d), x(d)), "float32")
                for name in BINARY})
  for name in ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
               "is_finite", "is_nan", "is_inf"]:
    arity = 1 if name.startswith("is_") else 2
    calls[name] = (lambda d, n=name, k=arity: getattr(tf.math, n)(*[x(d)] * k), "bool")
  calls.update({
      "acosh": (lambda d: tf.acosh(x(d) + 1), "float32"),
      "pow": (lambda d: tf.pow(x(d), x(d)), "float32"),
      "realdiv": (lambda d: tf.realdiv(x(d), x(d)), "float32"),
      "div": (lambda d: tf.div(x(d), x(d)), "float32"),
      "div_no_nan": (lambda d: tf.div_no_nan(x(d), x(d)), "float32"),
      "nextafter": (lambda d: tf.math.nextafter(x(d), x(d)), "float32"),
      "igamma": (lambda d: tf.math.igamma(x(d), x(d)), "float32"),
      "igammac": (lambda d: tf.math.igammac(x(d), x(d)), "float32"),
      "zeta": (lambda d: tf.math.zeta(x(d) + 1, x(d)), "float32"),
      "polygamma": (lambda d: tf.math.polygamma(x(d), x(d)), "float32"),
      "betainc": (lambda d: tf.math.betainc(x(d), x(d), x(d)), "float32"),
      "real": (lambda d: tf.math.real(x(d)), "float32"),
      "imag": (lambda d: tf.math.imag(x(d)), "float32"),
      "conj": (lambda d: tf.math.conj(x(d)), "float32"),
      "angle": (lambda d: tf.math.angle(x(d)), "float32"),
      "scalar_mul": (lambda d: tf.scalar_mul(2, x(d)), "float32"),
      "polyval": (lambda d: tf.math.polyval([1, 2], x(d)), "float32"),
      "complex": (lambda d: tf.complex(x(d), x(d)), "complex64"),
      "cast": (lambda d: tf.cast(x(d), tf.float32), "float32"),
      "saturate_cast": (lambda d: tf.saturate_cast(x(d), tf.float32), "float32"),
      "bitcast": (lambda d: tf.bitcast(x(d), tf.float32), "float32"),
      "where": (lambda d: tf.where(tf.constant([True, False]), x(d), x(d)), "float32"),
      "where_v2": (lambda d: tf.where_v2(tf.constant([True, False]), x(d), x(d)), "float32"),
      "matmul": (lambda d: tf.matmul(x(d), x(d)), "float32"),
      "matvec": (lambda d: tf.linalg.matvec(x(d), x(d)[0]), "float32"),
      "tensordot": (lambda d: tf.tensordot(x(d), x(d), 1), "float32"),
      "einsum": (lambda d: tf.einsum("ij,jk->ik", x(d), x(d)), "float32"),
      "cross": (lambda d: tf.cross(v(d), v(d)), "float32"),
      "argmax": (lambda d: tf.argmax(x(d)), "int64"),
      "argmin": (lambda d: tf.argmin(x(d)), "int64"),
      "arg_max": (lambda d: tf.arg_max(x(d), 1), "int64"),
      "arg_min": (lambda d: tf.arg_min(x(d), 1), "int64"),
      "confusion_matrix": (lambda d: tf.confusion_matrix([0, 1], [1, 1], weights=tf.constant(
          [0.5, 1.], d), dtype=d), "float32"),
      "count_nonzero": (lambda d: tf.count_nonzero(x(d)), "int64"),
      "bincount": (lambda d: tf.math.bincount([1, 2], weights=tf.constant([1, 2], d)),
                   "float32"),
      "add_n": (lambda d: tf.add_n([x(d), x(d)]), "float32"),
      "accumulate_n": (lambda d: tf.accumulate_n([x(d), x(d)]), "float32"),
      "clip_by_value": (lambda d: tf.clip_by_value(x(d), 0.3, 0.6), "float32"),
      "clip_by_norm": (lambda d: tf.clip_by_norm(x(d), 0.5), "float32"),
      "clip_by_average_norm": (lambda d: tf.clip_by_average_norm(x(d), 0.5), "float32"),
      "global_norm": (lambda d: tf.global_norm([x(d), x(d)]), "float32"),
      "clip_by_global_norm": (lambda d: tf.clip_by_global_norm([x(d)], 0.5)[0][0], "float32"),
      "is_non_decreasing": (lambda d: tf.math.is_non_decreasing(x(d)), "bool"),
      "is_strictly_increasing": (lambda d: tf.math.is_strictly_increasing(x(d)), "bool"),
      "lbeta": (lambda d: tf.math.lbeta(x(d)), "float32"),
  })
  for name in ["reduce_sum", "reduce_prod", "reduce_mean", "reduce_max", "reduce_min",
               "reduce_logsumexp", "reduce_variance", "reduce_std", "reduce_euclidean_norm",
               "cumsum", "cumprod", "cumulative_logsumexp"]:
    calls[name] = (lambda d, n=name: getattr(tf.math, n)(x(d), 1), "float32")
  for kind in ["sum", "mean", "max", "min", "prod"]:
    calls["segment_" + kind] = (lambda d, k=kind: getattr(tf.math, "segment_" + k)(v(d), seg),
                                "float32")
  for kind in ["sum", "mean", "max", "min", "prod", "sqrt_n"]:
    calls["unsorted_segment_" + kind] = (
        lambda d, k=kind: getattr(tf.math, "unsorted_segment_" + k)(v(d), seg, 2), "float32")
  return calls


# Ops outside the float32 walk: bool/int-only ops, dtype-changing casts.
_NOT_FLOAT = {"logical_and", "logical_or", "logical_xor", "logical_not", "reduce_any",
              "reduce_all", "to_float", "to_double", "to_int32", "to_int64", "to_bfloat16",
              "to_complex64", "to_complex128"}


def _public_ops():
  from tfe_compat.ops import math_ops, matmul_cast_ops, reduction_ops  # noqa: E402
  names = set()
  for module in (math_ops, matmul_cast_ops, reduction_ops):
    for name, obj in vars(module).items():
      if (inspect.isfunction(obj) and not name.startswith("_") and obj.__doc__ and
          obj.__module__ == module.__name__ and obj.__doc__.startswith(("`tf.", "TF1 `tf."))):
        names.add(name)
  return names


def test_walk_covers_every_op():
  assert _public_ops() - set(_walk_calls()) - _NOT_FLOAT == set()


# Ops whose output is float32 whatever the input's float type (TF does the same).
_FLOAT32_ONLY = {"cast", "saturate_cast", "bitcast", "clip_by_average_norm"}


@pytest.mark.parametrize("name", sorted(_walk_calls()))
def test_every_op_keeps_float32(name):
  call, out_dtype = _walk_calls()[name]
  assert call(tf.float32).dtype == out_dtype
  if out_dtype == "float32" and name not in _FLOAT32_ONLY:
    assert call(tf.float64).dtype == tf.float64


# TF's result dtype for int32 inputs ("error": TF raises InvalidArgumentError).
INT32_RESULTS = {"negative": "int32", "abs": "int32", "sign": "int32", "square": "int32",
                 "round": "int32", "add": "int32", "subtract": "int32", "multiply": "int32",
                 "floordiv": "int32", "floormod": "int32", "truncatediv": "int32",
                 "truncatemod": "int32", "maximum": "int32", "minimum": "int32",
                 "squared_difference": "int32", "divide": "float64", "truediv": "float64",
                 "divide_no_nan": "float64"}


@pytest.mark.parametrize("name", sorted((set(UNARY) | set(BINARY)) - {"reciprocal"}))
def test_int32_inputs_follow_tf(name):  # (TF raises NotFoundError for int reciprocal)
  x = tf.constant([[1, 2], [3, 4]])
  fn = op_named(name)
  args = (x,) if name in UNARY else (x, x)
  if name in INT32_RESULTS:
    assert fn(*args).dtype == INT32_RESULTS[name]
  else:
    raises(ERR, "Value for attr 'T' of int32 is not in the list of allowed values", fn, *args)


# ---- errors ----
def test_error_messages():
  m = tf.constant([[1., 2, 3], [4, 5, 6]])
  raises(ERR, "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3] [Op:MatMul]",
         tf.matmul, m, m)
  raises(ERR, "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3] [Op:MatMul]",
         lambda: m @ m)
  raises(ERR, "Incompatible shapes: [2,3] vs. [4] [Op:AddV2]", tf.add, m, tf.constant([1.] * 4))
  raises(ERR, "Incompatible shapes: [2,3] vs. [4] [Op:AddV2]", lambda: m + tf.constant([1.] * 4))
  raises(ERR, "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor "
         "but is a float tensor [Op:AddV2]", tf.add, tf.constant(1), tf.constant(1.0))
  raises(ERR, "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor "
         "but is a float tensor [Op:AddV2]", lambda: tf.constant(1) + tf.constant(1.0))
  raises(ERR, "cannot compute Mul as input #1(zero-based)", tf.multiply, tf.constant(1),
         tf.constant(1.0))
  raises(TypeError, "Cannot convert 2.5 to EagerTensor of dtype int32",
         lambda: tf.constant(2) * 2.5)
  raises(TypeError, "Cannot convert 2.5 to EagerTensor of dtype int32",
         lambda: 2.5 + tf.constant(2))
  raises(TypeError, "Cannot convert 4.5 to EagerTensor of dtype int32",
         lambda: tf.constant(3) < 4.5)
  raises(TypeError, "`x` and `y` must have the same dtype",
         lambda: tf.constant(7.) / tf.constant(2))
  raises(ERR, "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, "
         "half, float, double, complex64, complex128", tf.sqrt, tf.constant([1, 2]))
  raises(ERR, "In[0] and In[1] has different ndims: [2] vs. [2,1] [Op:MatMul]",
         tf.matmul, tf.constant([1, 2]), tf.constant([[1], [2]]))
  raises(ERR, "In[1] ndims must be >= 2 [Op:MatMul]", tf.matmul, m, tf.constant([1., 2, 3]))
  raises(ERR, "In[0] and In[1] must have compatible batch dimensions: [5,2,3] vs. [3,4,4] "
         "[Op:BatchMatMulV2]", tf.matmul, tf.constant(np.zeros([5, 2, 3], F32)),
         tf.constant(np.zeros([3, 4, 4], F32)))
  raises(ERR, "Value for attr 'T' of int8 is not in the list", tf.matmul,
         tf.constant([[1]], tf.int8), tf.constant([[1]], tf.int8))
  raises(ValueError, "Only one of `transpose_a` and `adjoint_a` can be True.", tf.matmul, m, m,
         transpose_a=True, adjoint_a=True)


# ---- operators ----
def test_operators_with_python_and_numpy_values():
  i, f = tf.constant([1, 2]), tf.constant([1., 2.])
  check(i + 1, tf.int32, [2, 3])
  check(1 - i, tf.int32, [0, -1])
  check(3 * i, tf.int32, [3, 6])
  check(i / 2, tf.float64, [0.5, 1.0])
  check(4 / i, tf.float64, [4.0, 2.0])
  check(i // 2, tf.int32, [0, 1])
  check(tf.constant(-7) % 3, tf.int32, 2)
  check(tf.constant(-7.5) % 2, tf.float32, 0.5)
  check(i ** 2, tf.int32, [1, 4])
  check(2 ** i, tf.int32, [2, 4])
  check(f ** 0.5, tf.float32, [1.0, 1.4142135])
  check(-i, tf.int32, [-1, -2])
  check(abs(tf.constant([-3.])), tf.float32, [3.0])
  check(i * np.float64(2.7), tf.int32, [2, 4])        # NumPy values take the tensor's dtype
  check(np.float64(2.7) * i, tf.int32, [2, 4])
  check(np.array([1.5, 1.5]) + i, tf.int32, [2, 3])   # ndarray defers to Tensor.__radd__
  check(np.array([1, 2]) - f, tf.float32, [0.0, 0.0])
  check(f + np.int64(3), tf.float32, [4.0, 5.0])
  check([1, 2] + i, tf.int32, [2, 4])
  check((1,) - i, tf.int32, [0, -1])
  check(tf.constant([[1, 2]]) @ [[1], [2]], tf.int32, [[5]])
  check([[1, 2]] @ tf.constant([[1], [2]]), tf.int32, [[5]])
  check(np.array([[1., 2.]], F32) @ tf.constant([[1.], [2.]]), tf.float32, [[5.0]])
  check(i < 2, "bool", [True, False])
  check(2 < i, "bool", [False, False])
  check(i >= np.array([2, 2]), "bool", [False, True])
  check(np.array([2, 2]) <= i, "bool", [False, True])
  t, u = tf.constant([True, False]), tf.constant([True, True])
  check(t & u, "bool", [True, False])
  check(t | False, "bool", [True, False])
  check(t ^ u, "bool", [False, True])
  check(True & t, "bool", [True, False])
  check(~t, "bool", [False, True])
  check(tf.constant([5]) ^ 3, tf.int32, [6])
  check(~tf.constant([1, 2]), tf.int32, [-2, -3])
  raises(ERR, "[Op:BitwiseAnd]", lambda: f & f)
  assert (i == i) is True and (i == tf.constant([1, 2])) is False  # TF 1.x: identity
  assert (i != i) is False


def test_collatz_seed_prints_like_tf(capsys):
  a = tf.constant(12)
  while not tf.equal(a, 1):
    if tf.equal(a % 2, 0):
      a = a / 2
    else:
      a = 3 * a + 1
    print(a)
  assert capsys.readouterr().out.splitlines() == [
      "tf.Tensor(%s, shape=(), dtype=float64)" % v
      for v in ["6.0", "3.0", "10.0", "5.0", "16.0", "8.0", "4.0", "2.0", "1.0"]]


# ---- casts, where ----
def test_casts():
  check(tf.cast(tf.constant([1.7, -1.7]), tf.int32), tf.int32, [1, -1])
  check(tf.cast(tf.constant([np.nan, np.inf, -np.inf, 1e20]), tf.int32), tf.int32,
        [-2147483648] * 4)
  check(tf.cast(tf.constant([-1.5, 300]), tf.uint8), tf.uint8, [255, 44])
  check(tf.cast(tf.constant([70000]), tf.int16), tf.int16, [4464])
  check(tf.cast(tf.constant([1 + 2j]), tf.float32), tf.float32, [1.0])
  check(tf.cast(tf.constant([0.5, 0]), tf.bool), "bool", [True, False])
  check(tf.cast(1.5, tf.int32), tf.int32, 1)
  check(tf.to_float(tf.constant([1, 2])), tf.float32, [1.0, 2.0])
  check(tf.to_int64(tf.constant([-1.7])), tf.int64, [-1])
  assert tf.to_bfloat16(tf.constant([1, 2])).dtype == tf.bfloat16
  assert tf.to_complex64(tf.constant([1, 2])).dtype == tf.complex64
  raises(tf.errors.UnimplementedError, "Cast string to float is not supported [Op:Cast]",
         tf.cast, tf.constant("a"), tf.float32)
  check(tf.saturate_cast(tf.constant([300., -5]), tf.uint8), tf.uint8, [255, 0])
  check(tf.saturate_cast(tf.constant([1e10]), tf.int32), tf.int32, [2147483520])
  check(tf.saturate_cast(tf.constant([-1, 70000]), tf.int16), tf.int16, [-1, 32767])
  check(tf.saturate_cast(tf.constant([1e6]), tf.float16), tf.float16, [65504.0])
  check(tf.bitcast(tf.constant([1.0]), tf.int32), tf.int32, [1065353216])
  check(tf.bitcast(tf.constant([1, 2], tf.int32), tf.int64), tf.int64, 8589934593)
  check(tf.bitcast(tf.constant([1.], tf.float32), tf.uint8), tf.uint8, [[0, 0, 128, 63]])
  raises(ERR, "Cannot bitcast from 3 to 9", tf.bitcast, tf.constant([1, 2, 3]), tf.int64)


def test_where():
  c = tf.constant([True, False])
  m1, m2 = tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]])
  check(tf.where(c, m1, m2), tf.int32, [[1, 2], [7, 8]])   # TF1: vector picks rows
  check(tf.where(tf.constant(True), m1, m2), tf.int32, [[1, 2], [3, 4]])
  check(tf.where(c, [1., 2], [3, 4]), tf.float32, [1.0, 4.0])
  check(tf.where(tf.constant([[True, False], [False, True]])), tf.int64, [[0, 0], [1, 1]])
  check(tf.where(tf.constant([1, 0, 3])), tf.int64, [[0], [2]])
  check(tf.where_v2(tf.constant([[True], [False]]), tf.constant([1, 2, 3]), tf.constant([0])),
        tf.int32, [[1, 2, 3], [0, 0, 0]])
  check(tf.where_v2(c, 1, tf.constant([3., 4])), tf.float32, [1.0, 4.0])
  raises(ERR, "Number of batches of 'then' must match size of 'cond', but saw: 2 vs. 3",
         tf.where, tf.constant([True, False, True]), m1, m2)
  raises(ERR, "Input 0: [2] != input 2: [3] [Op:Select]", tf.where, c, tf.constant([1, 2]),
         tf.constant([1, 2, 3]))
  raises(ERR, "'then' and 'else' must have the same size.  but received: [2] vs. [3]",
         tf.where, tf.constant(True), tf.constant([1, 2]), tf.constant([1, 2, 3]))
  raises(ERR, "input #0(zero-based) was expected to be a bool tensor but is a int32 tensor",
         tf.where, tf.constant([1, 0]), tf.constant([1, 2]), tf.constant([3, 4]))
  raises(ERR, "input #2(zero-based) was expected to be a int32 tensor but is a float tensor",
         tf.where, c, tf.constant([1, 2]), tf.constant([3., 4]))
  raises(ERR, "WhereOp : Unhandled input dimensions: 0", tf.where, tf.constant(True))
  raises(ValueError, "x and y must both be non-None or both be None.", tf.where, c, x=m1)
  raises(ERR, "condition [2], then [3], and else [] must be broadcastable",
         tf.where_v2, c, tf.constant([1, 2, 3]), 0)


# ---- matrix products ----
def test_matrix_products():
  m = tf.constant([[1., 2], [3, 4]])
  check(tf.matmul(m, m, transpose_a=True, transpose_b=True), tf.float32, [[7, 15], [10, 22]])
  check(tf.linalg.matmul(tf.constant([[1, 2], [3, 4]], tf.int64),
                         tf.constant([[1], [1]], tf.int64)), tf.int64, [[3], [7]])
  z = tf.constant([[1 + 1j, 2]], tf.complex64)
  assert tf.matmul(z, z, adjoint_b=True).numpy().tolist() == [[6 + 0j]]
  b = tf.constant(np.ones([5, 2, 3], F32))
  check(tf.matmul(b, tf.constant(np.ones([3, 4], F32))), tf.float32, np.full([5, 2, 4], 3.))
  check(tf.matmul(tf.constant(np.ones([1, 2, 3], F32)), tf.constant(np.ones([5, 3, 4], F32))),
        tf.float32, np.full([5, 2, 4], 3.))
  e = tf.constant(np.arange(8, dtype=F32).reshape(2, 2, 2))
  check(tf.einsum("bij,bjk->bik", e, e), tf.float32,
        [[[2, 3], [6, 11]], [[46, 55], [66, 79]]])
  check(tf.einsum("i,i->", tf.constant([1, 2, 3]), tf.constant([4, 5, 6])), tf.int32, 32)
  check(tf.linalg.einsum("ij->ji", tf.constant([[1, 2, 3]])), tf.int32, [[1], [2], [3]])
  d = tf.constant([[1., 0], [0, 2]])
  check(tf.tensordot(m, d, [1, 0]), tf.float32, [[1, 4], [3, 8]])
  check(tf.tensordot(m, d, 2), tf.float32, 9.0)
  check(tf.linalg.tensordot(m, d, [[0], [1]]), tf.float32, [[1, 6], [2, 8]])
  assert tf.tensordot(m, d, 0).shape == (2, 2, 2, 2)
  check(tf.cross(tf.constant([[1, 2, 3]]), tf.constant([[4, 5, 6]])), tf.int32, [[-3, 6, -3]])
  check(tf.linalg.cross(tf.constant([1., 0, 0]), tf.constant([0., 1, 0])), tf.float32, [0, 0, 1])


def test_cross_errors_are_tfs():
  raises(tf.errors.FailedPreconditionError, "Cross-products are only defined for 3-element "
         "vectors. [Op:Cross]", tf.cross, tf.ones([2, 4]), tf.ones([2, 4]))
  raises(ERR, "Both inputs must be of same shape: [2,3] vs. [3,3] [Op:Cross]", tf.cross,
         tf.ones([2, 3]), tf.ones([3, 3]))
  raises(ERR, "Input must be at least 1D[] [Op:Cross]", tf.cross, tf.ones([]), tf.ones([]))
  raises(ValueError, "Dimension must be 3 but is 4", tf.function(tf.cross), tf.ones([2, 4]),
         tf.ones([2, 4]))


# ---- reductions ----
def test_reductions_golden():
  x = tf.constant([[1., 2, 3], [4, 5, 6]])
  xi = tf.constant([[1, 2, 3], [4, 5, 7]])
  check(tf.reduce_sum(x), tf.float32, 21.0)
  check(tf.reduce_sum(x, 1, keepdims=True), tf.float32, [[6.0], [15.0]])
  check(tf.reduce_sum(xi, [0, 1]), tf.int32, 22)
  check(tf.reduce_mean(x, 1, keepdims=True), tf.float32, [[2.0], [5.0]])
  check(tf.reduce_mean(xi), tf.int32, 3)                       # integer mean truncates
  check(tf.reduce_mean(tf.constant([-1, -2])), tf.int32, -1)
  check(tf.reduce_mean(xi, -1), tf.int32, [2, 5])
  check(tf.reduce_mean(tf.constant([[1, 2], [3, 4]], tf.int64), 0, keep_dims=True),
        tf.int64, [[2, 3]])
  check(tf.reduce_mean(tf.constant([1., 2.], tf.float16)), tf.float16, 1.5)
  check(tf.reduce_max(x), tf.float32, 6.0)
  check(tf.reduce_max(xi, -1), tf.int32, [3, 7])
  check(tf.reduce_min(x, 1, keepdims=True), tf.float32, [[1.0], [4.0]])
  check(tf.reduce_prod(xi, [0, 1]), tf.int32, 840)
  check(tf.reduce_prod(x, 0), tf.float32, [4.0, 10.0, 18.0])
  check(tf.reduce_logsumexp(x), tf.float32, 6.456193447113037)
  check(tf.reduce_logsumexp(x, 1, keepdims=True), tf.float32, [[3.407606], [6.407606]])
  check(tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf])), tf.float32, -np.inf)
  check(tf.reduce_logsumexp(tf.constant([1000., 1000.])), tf.float32, 1000.6931762695312)
  check(tf.reduce_max(tf.constant([], tf.float32)), tf.float32, -np.inf)
  check(tf.reduce_min(tf.constant([], tf.float32)), tf.float32, np.inf)
  check(tf.reduce_max(tf.constant([], tf.int32)), tf.int32, -2147483648)
  check(tf.reduce_max(tf.constant([np.nan, 1.])), tf.float32, np.nan)
  check(tf.reduce_sum(tf.constant([1, 2], tf.int8)), tf.int8, 3)
  check(tf.reduce_mean(tf.constant([1, 2], tf.uint8)), tf.uint8, 1)
  assert tf.reduce_sum(tf.constant([1 + 1j, 2j], tf.complex64)).numpy() == 1 + 3j
  check(tf.reduce_any(tf.constant([True, False])), "bool", True)
  check(tf.reduce_all(tf.constant([[True, False]]), 1), "bool", [False])
  check(tf.math.reduce_any(tf.constant([[False, False]]), keepdims=True), "bool", [[False]])
  check(tf.reduce_sum([[1, 2], [3, 4]], 0), tf.int32, [4, 6])
  check(tf.math.reduce_variance(x), tf.float32, 2.9166667461395264)
  check(tf.math.reduce_variance(tf.constant([[1., 2], [3, 5]]), 1, keepdims=True), tf.float32,
        [[0.25], [1.0]])
  check(tf.math.reduce_std(x, 0), tf.float32, [1.5, 1.5, 1.5])
  check(tf.math.reduce_std(tf.constant([1 + 1j, 2 - 1j], tf.complex64)), tf.float32, 1.118034)
  check(tf.math.reduce_euclidean_norm(x, 1), tf.float32, [3.7416575, 8.774964])
  check(tf.math.reduce_euclidean_norm(xi, 1), tf.int32, [3, 9])
  raises(TypeError, "Input must be either real or complex", tf.math.reduce_std, xi, 0)


def test_reduction_arguments_and_errors():
  x = tf.constant([[1., 2, 3], [4, 5, 6]])
  check(tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), reduction_indices=1, keep_dims=True),
        tf.int32, [[3], [7]])
  check(tf.reduce_sum(x, axis=tf.constant(1)), tf.float32, [6.0, 15.0])
  check(tf.reduce_sum(x, axis=tf.constant([0, 1])), tf.float32, 21.0)
  check(tf.reduce_sum(x, axis=np.int64(1)), tf.float32, [6.0, 15.0])
  check(tf.reduce_sum(x, axis=[]), tf.float32, [[1, 2, 3], [4, 5, 6]])
  raises(ValueError, "Cannot specify both 'reduction_indices' and 'axis'.", tf.reduce_sum, x,
         axis=1, reduction_indices=1)
  raises(ValueError, "Cannot specify both 'keep_dims' and 'keepdims'.", tf.reduce_sum, x,
         keepdims=True, keep_dims=True)
  raises(ERR, "Invalid reduction dimension (2 for input with 2 dimension(s) [Op:Sum]",
         tf.reduce_sum, x, 2)
  raises(ERR, "Axes contains duplicate dimension: 0 [Op:Sum]", tf.reduce_sum, x, [0, 0])
  raises(ERR, "Invalid reduction dimension (0 for input with 0 dimension(s)", tf.reduce_sum,
         tf.constant(5.), 0)
  raises(ERR, "Value for attr 'T' of bool is not in the list", tf.reduce_sum,
         tf.constant([True, True]))
  raises(ERR, "cannot compute Any as input #0(zero-based) was expected to be a bool tensor "
         "but is a int32 tensor [Op:Any]", tf.reduce_any, tf.constant([1, 0]))
  assert tuple(inspect.signature(tf.reduce_sum).parameters)[:6] == (
      "input_tensor", "axis", "keepdims", "name", "reduction_indices", "keep_dims")


def test_argmax_count_nonzero_bincount():
  x = tf.constant([[1., 2, 3], [4, 5, 6]])
  check(tf.argmax(x), tf.int64, [1, 1, 1])                     # TF1: axis defaults to 0
  check(tf.argmax(x, 1), tf.int64, [2, 2])
  check(tf.math.argmin(x, dimension=1, output_type=tf.int32), tf.int32, [0, 0])
  check(tf.argmax(tf.constant([[1, 5], [7, 2]]), axis=tf.constant(1)), tf.int64, [1, 0])
  check(tf.argmax(tf.constant([1., np.nan, 3.])), tf.int64, 2)
  raises(ERR, "Expected dimension in the range [-2, 2), but got 2 [Op:ArgMax]", tf.argmax, x, 2)
  raises(ValueError, "Cannot specify both 'dimension' and 'axis'.", tf.argmax, x, axis=1,
         dimension=1)
  check(tf.arg_max(tf.constant([[1, 5], [7, 2]]), 1), tf.int64, [1, 0])
  check(tf.arg_min(tf.constant([[1, 5], [7, 2]]), 0, output_type=tf.int32), tf.int32, [0, 1])
  check(tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]), tf.int32,
        [[0] * 5, [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0] * 5, [0, 0, 0, 0, 1]])
  check(tf.confusion_matrix([1, 2, 0], [2, 2, 0], num_classes=4, weights=[0.5, 1., 2.],
                            dtype=tf.float32), tf.float32,
        [[2, 0, 0, 0], [0, 0, 0.5, 0], [0, 0, 1, 0], [0, 0, 0, 0]])
  check(tf.count_nonzero(tf.constant([[0, 1], [2, 0]])), tf.int64, 2)
  check(tf.count_nonzero(tf.constant([[0., 1], [2, 0]]), 1, dtype=tf.int32), tf.int32, [1, 1])
  check(tf.math.count_nonzero(input=tf.constant([0, 1])), tf.int64, 1)
  check(tf.count_nonzero(tf.constant([True, False, True])), tf.int64, 2)
  check(tf.count_nonzero(tf.constant([[0, 1], [2, 0]]), axis=0, keepdims=True), tf.int64,
        [[1, 1]])
  check(tf.math.bincount(tf.constant([1, 1, 3])), tf.int32, [0, 2, 0, 1])
  check(tf.math.bincount(tf.constant([1, 1, 3]), minlength=6,
                         weights=tf.constant([.5, 1., 2.])), tf.float32, [0, 1.5, 0, 2, 0, 0])
  check(tf.math.bincount(tf.constant([1, 1, 3]), maxlength=2), tf.int32, [0, 2])
  check(tf.math.bincount(tf.constant([[1, 2], [2, 0]])), tf.int32, [1, 1, 2])
  check(tf.math.bincount(tf.constant([], tf.int32)), tf.int32, np.zeros([0]))
  check(tf.math.bincount(tf.constant([1, 1, 3]), dtype=tf.float32), tf.float32, [0, 2, 0, 1])


def test_segments():
  data = tf.constant([1, 2, 3, 4])
  check(tf.math.segment_sum(data, tf.constant([0, 0, 2, 2])), tf.int32, [3, 0, 7])
  check(tf.math.segment_mean(data, tf.constant([0, 0, 2, 2])), tf.int32, [1, 0, 3])
  check(tf.math.segment_max(tf.constant([1., 2, 3, 4]), tf.constant([0, 0, 2, 2])), tf.float32,
        [2, 0, 4])
  check(tf.math.segment_prod(tf.constant([2, 3, 4]), tf.constant([0, 0, 2])), tf.int32, [6, 1, 4])
  check(tf.math.segment_min(tf.constant([2., 3, 4]), tf.constant([0, 0, 2])), tf.float32,
        [2, 0, 4])
  raises(ERR, "segment ids are not increasing", tf.math.segment_sum, data,
         tf.constant([0, 1, 0, 2]))
  ids = tf.constant([0, 2, 0, 1])
  check(tf.math.unsorted_segment_max(tf.constant([1., 2, 3, 4]), ids, 4), tf.float32,
        [3, 4, 2, -3.4028235e+38])
  check(tf.math.unsorted_segment_mean(tf.constant([1., 2, 3, 4]), ids, 4), tf.float32,
        [2, 4, 2, 0])
  check(tf.math.unsorted_segment_mean(tf.constant([1, 2, 4]), tf.constant([0, 0, 1]), 2),
        tf.float64, [1.5, 4.0])
  check(tf.math.unsorted_segment_min(tf.constant([2, 3, 4]), tf.constant([0, 0, 2]), 3),
        tf.int32, [2, 2147483647, 4])
  check(tf.math.unsorted_segment_prod(tf.constant([2., 3, 4]), tf.constant([0, 0, 2]), 3),
        tf.float32, [6, 1, 4])
  check(tf.math.unsorted_segment_sqrt_n(tf.constant([2., 3, 4]), tf.constant([0, 0, 2]), 3),
        tf.float32, [3.535533905029297, 0, 4])
  check(tf.unsorted_segment_sum(tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([1, 0, 1]),
                                tf.constant(2)), tf.int32, [[3, 4], [6, 8]])
  check(tf.math.unsorted_segment_sum(tf.constant([1., 2, 4]), tf.constant([0, -1, 1]), 2),
        tf.float32, [1, 4])


def test_cumulative_and_monotonic():
  check(tf.cumsum(tf.constant([1, 2, 3]), exclusive=True, reverse=True), tf.int32, [5, 3, 0])
  check(tf.cumsum(tf.constant([[1, 2], [3, 4]]), axis=1), tf.int32, [[1, 3], [3, 7]])
  check(tf.cumsum(tf.constant([[1., 2], [3, 4]]), axis=0, exclusive=True), tf.float32,
        [[0, 0], [1, 2]])
  check(tf.math.cumprod(tf.constant([1., 2, 3]), exclusive=True), tf.float32, [1, 1, 2])
  check(tf.cumprod(tf.constant([1, 2, 3, 4]), reverse=True), tf.int32, [24, 24, 12, 4])
  check(tf.cumprod(tf.constant([1, 2, 3, 4]), exclusive=True, reverse=True), tf.int32,
        [24, 12, 4, 1])
  check(tf.math.cumulative_logsumexp(tf.constant([0., 1, 2]), exclusive=True), tf.float32,
        [-np.inf, 0.0, 1.3132617473602295])
  check(tf.math.cumulative_logsumexp(tf.constant([0., 1, 2]), reverse=True), tf.float32,
        [2.4076061248779297, 2.3132617473602295, 2.0])
  raises(ERR, "Expected scan axis in the range [-1, 1), but got 1 [Op:Cumsum]", tf.cumsum,
         tf.constant([1, 2]), axis=1)
  check(tf.math.is_non_decreasing(tf.constant([[1, 2], [2, 3]])), "bool", True)
  check(tf.math.is_strictly_increasing([1, 2, 2]), "bool", False)
  check(tf.math.lbeta(tf.constant([[1., 2.], [3., 4.]])), tf.float32,
        [-0.6931471824645996, -4.094344615936279])


# ---- add_n, clipping ----
def test_add_n():
  check(tf.add_n([tf.constant([1, 2]), tf.constant([3, 4])]), tf.int32, [4, 6])
  check(tf.add_n([[1, 2], [3, 4]]), tf.int32, [4, 6])
  check(tf.math.add_n([tf.constant([1., 2])]), tf.float32, [1, 2])
  check(tf.accumulate_n([tf.constant([1., 2]), tf.constant([3., 4])]), tf.float32, [4, 6])
  raises(ERR, "cannot compute AddN as input #1(zero-based) was expected to be a int32 tensor "
         "but is a float tensor [Op:AddN]", tf.add_n, [tf.constant([1, 2]), tf.constant([3., 4])])
  raises(ERR, "Inputs to operation AddN of type AddN must have the same size and shape.  "
         "Input 0: [2] != input 1: [3] [Op:AddN]", tf.add_n,
         [tf.constant([1, 2]), tf.constant([1, 2, 3])])
  raises(ValueError, "at least one Tensor", tf.add_n, [])
  raises(TypeError, "tensor_dtype", tf.accumulate_n, [tf.constant([1., 2])],
         tensor_dtype=tf.int32)
  # accumulate_n merges the static shapes in Python first (TF's ValueError, not AddN's)
  raises(ValueError, "Shapes (2,) and (3,) are not compatible", tf.math.accumulate_n,
         [tf.ones([2]), tf.ones([3])])
  raises(ValueError, "Shapes (3,) and (2,) are not compatible", tf.math.accumulate_n,
         [tf.ones([2])], shape=[3])
  raises(ValueError, "with the same dtype and shape", tf.math.accumulate_n,
         [tf.ones([2]), tf.ones([2], tf.float64)])


def test_clipping():
  check(tf.clip_by_value(tf.constant([1, 5, 9]), 2, 8), tf.int32, [2, 5, 8])
  check(tf.clip_by_value(tf.constant([1., 5, 9]), 2, 8), tf.float32, [2, 5, 8])
  check(tf.clip_by_value(tf.constant([[1., 5], [9, 2]]), [0., 3.], 4.), tf.float32,
        [[1, 4], [4, 3]])
  raises(ValueError, "incompatible", tf.clip_by_value, tf.constant([1., 5]),
         tf.constant([[0.], [1.]]), 4.)
  raises(TypeError, "Cannot convert 2.5 to EagerTensor of dtype int32", tf.clip_by_value,
         tf.constant([1, 5]), 2.5, 4)
  check(tf.clip_by_norm(tf.constant([3., 4]), 1.), tf.float32, [0.6, 0.8])
  check(tf.clip_by_norm(tf.constant([[3., 4], [6, 8]]), 1., axes=[1]), tf.float32,
        [[0.6, 0.8], [0.6, 0.8]])
  check(tf.clip_by_norm(tf.constant([0., 0.]), 1.), tf.float32, [0, 0])
  clipped, norm = tf.clip_by_global_norm([tf.constant([3., 4]), None, tf.constant([12.])], 6.5)
  assert clipped[1] is None
  check(clipped[0], tf.float32, [1.5, 2.0])
  check(clipped[2], tf.float32, [6.0])
  check(norm, tf.float32, 13.0)
  clipped, norm = tf.clip_by_global_norm((tf.constant([3., 4]),), 10.)
  check(clipped[0], tf.float32, [3, 4])
  clipped, norm = tf.clip_by_global_norm([tf.constant([3., 4])], 1., use_norm=tf.constant(10.))
  check(clipped[0], tf.float32, [0.3, 0.4])
  check(norm, tf.float32, 10.0)
  clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 4])], 1.)
  check(clipped[0], tf.float32, [np.nan, np.nan])
  raises(TypeError, "should be a sequence", tf.clip_by_global_norm, tf.constant([3., 4.]), 1.)
  check(tf.clip_by_average_norm(tf.constant([3., 4]), 1.), tf.float32, [1.2, 1.6])
  check(tf.linalg.global_norm([tf.constant([3., 4]), None]), tf.float32, 5.0)
  check(tf.global_norm([tf.constant([3., 4]), tf.constant([[12.]])]), tf.float32, 13.0)
  raises(ERR, "cannot compute Pack as input #1(zero-based) was expected to be a float tensor "
         "but is a double tensor", tf.global_norm,
         [tf.constant([3., 4]), tf.constant([12.], tf.float64)])


# ---- exports and trace safety ----
def test_exported_names():
  assert tf.math.mod is tf.floormod is tf.mod is tf.math.floormod
  assert tf.nn.sigmoid is tf.sigmoid is tf.math.sigmoid
  assert tf.nn.tanh is tf.tanh
  assert tf.linalg.matmul is tf.matmul and tf.linalg.einsum is tf.einsum
  assert tf.linalg.tensordot is tf.tensordot and tf.linalg.cross is tf.cross
  assert tf.math.divide_no_nan is tf.div_no_nan
  assert tf.dtypes.cast is tf.cast and tf.dtypes.saturate_cast is tf.saturate_cast
  assert tf.math.reduce_sum is tf.reduce_sum and tf.math.argmax is tf.argmax
  assert callable(tf.math.reduce_std) and callable(tf.math.cumulative_logsumexp)
  assert tf.math.unsorted_segment_sum is tf.unsorted_segment_sum


def test_ops_are_trace_safe_under_jit():
  import jax  # pylint: disable=import-outside-toplevel
  from tfe_compat.framework.tensor import Tensor  # pylint: disable=import-outside-toplevel

  def f(a, b):
    x, y = Tensor(a), Tensor(b)
    m = tf.matmul(x, y, transpose_b=True) + tf.reduce_mean(x, axis=1, keepdims=True)
    m = tf.where_v2(m > 1, tf.cast(tf.argmax(m, 1), tf.float32) * m, -m)
    clipped, norm = tf.clip_by_global_norm([m, None, y], 2.0)
    out = tf.cumsum(clipped[0], axis=1, exclusive=True) + tf.clip_by_value(norm, 0., 1.)
    return (tf.reduce_logsumexp(out) / tf.sigmoid(tf.reduce_sum(y)))._value

  a = np.arange(6, dtype=F32).reshape(2, 3) / 6
  eager = f(a, a)
  np.testing.assert_allclose(jax.jit(f)(a, a), eager, rtol=1e-6)
  grad = jax.grad(lambda a: f(a, a))(a)
  assert grad.dtype == F32 and np.all(np.isfinite(grad))


def test_xlog1py_and_erfcinv():
  """Golden values and gradients from TF 2.21."""
  x, y = tf.Variable([0., 1., 2.]), tf.Variable([5., 1., 0.5])
  with tf.GradientTape() as tape:
    out = tf.math.xlog1py(x, y)
    total = tf.reduce_sum(out)
  np.testing.assert_allclose(out.numpy(), [0., 0.6931472, 0.8109302], rtol=1e-6)
  dx, dy = tape.gradient(total, [x, y])
  np.testing.assert_allclose(dx.numpy(), [0., 0.6931472, 0.4054651], rtol=1e-6)
  np.testing.assert_allclose(dy.numpy(), [0., 0.5, 1.3333334], rtol=1e-6)
  inverse = tf.math.erfcinv([0.5, 1.0, 1.5])
  assert inverse.dtype == tf.float32
  np.testing.assert_allclose(inverse.numpy(), [0.4769363, 0., -0.4769363], atol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda x, z: tf.math.floordiv(x, z), tf.errors.InvalidArgumentError,
     "Integer division by zero [Op:FloorDiv]"),
    (lambda x, z: x // z, tf.errors.InvalidArgumentError, "Integer division by zero [Op:FloorDiv]"),
    (lambda x, z: x % z, tf.errors.InvalidArgumentError, "Integer division by zero [Op:FloorMod]"),
    (lambda x, z: tf.div(x, z), tf.errors.InvalidArgumentError,
     "Integer division by zero [Op:FloorDiv]"),
    (lambda x, z: tf.truncatediv(x, z), tf.errors.InternalError,
     "Unexpected error in binary operator (only integer div and mod ops should have errors) "
     "[Op:TruncateDiv]"),
    (lambda x, z: tf.truncatemod(x, z), tf.errors.InternalError,
     "Unexpected error in binary operator (only integer div and mod ops should have errors) "
     "[Op:TruncateMod]"),
    (lambda x, z: tf.pow(x, z - 1), tf.errors.InvalidArgumentError,
     "Integers to negative integer powers are not allowed [Op:Pow]"),
])
def test_integer_division_by_zero_raises_as_tf(call, error, message, capfd):
  """TF 2.21's types and messages; eagerly, in tf.function (no callback traceback printed)
  and in a graph run (the op's node named)."""
  x, z = tf.constant([7, -7]), tf.constant([0, 2])
  with pytest.raises(error) as raised:
    call(x, z)
  assert raised.value.message == message
  traced = tf.function(call)
  assert traced(x, tf.constant([1, 2])).numpy().tolist() == call(x, tf.constant([1, 2])).numpy(
      ).tolist()
  with pytest.raises(error) as raised:
    traced(x, z)
  assert raised.value.message.startswith(message)
  assert "callback failed" not in capfd.readouterr().err
  with tf.Graph().as_default():
    divisor = tf.placeholder(tf.int32, [2])
    result = call(tf.constant([7, -7]), divisor)
    with tf.Session() as sess:
      with pytest.raises(error, match=re.escape(message)):
        sess.run(result, {divisor: [0, 2]})
  assert tf.math.divide(x, z).numpy().tolist() == [np.inf, -3.5]  # true division: no error
