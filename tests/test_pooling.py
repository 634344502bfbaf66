"""Max and average pooling (tfe_compat/ops/pooling.py) against TensorFlow 2.21.

GOLDEN holds TF's outputs and gradients (for output gradients 1, 2, 3, ... in row-major order)
of the cases below, computed once with real TensorFlow; these tests never import it. The
inputs hold many ties: TF's MaxPoolGrad (1-D, 2-D) gives a window's whole gradient to its first
maximum, MaxPool3DGrad to each of its maxima.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.ops import conv_ops
from tfe_compat.ops import pooling

# Integers in [0, 3) from np.random.default_rng(17), flattened.
X2 = [
    2, 2, 0, 0, 1, 1, 2, 1, 0, 0, 1, 1, 2, 1, 1, 1, 0, 2, 0, 0, 1, 0, 1, 1, 0, 0, 2, 2, 2, 2, 1,
    0, 1, 1, 2, 1, 1, 0, 2, 0, 1, 0, 1, 1, 1, 1, 0, 1, 2, 2, 0, 2, 1, 1, 2, 0, 0, 1, 1, 2
]
X1 = [
    0, 1, 2, 2, 2, 1, 2, 0, 0, 1, 0, 1, 0, 1
]
X3 = [
    2, 0, 1, 1, 0, 1, 2, 1, 2, 1, 2, 0, 1, 2, 1, 0, 2, 0, 0, 0, 2, 1, 0, 1, 0, 1, 1, 2, 0, 1, 1,
    2, 0, 1, 1, 1
]

GOLDEN = {
    "max 2x2 s2 SAME": {
        "shape": [1, 3, 3, 2],
        "y": [
            2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 1, 1, 2
        ],
        "grad": [
            1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 5, 6, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 7, 8,
            9, 10, 0, 0, 0, 12, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 14, 0, 0, 0, 16,
            15, 0, 0, 0, 17, 18
        ],
    },
    "max 3x3 s2 SAME": {
        "shape": [1, 3, 3, 2],
        "y": [
            2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 1, 1, 2
        ],
        "grad": [
            1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 5, 6, 7, 0, 0, 0, 0, 22, 0, 0, 0, 0, 0, 12, 0, 0, 0, 0,
            9, 0, 0, 0, 0, 0, 11, 0, 0, 0, 13, 0, 0, 0, 0, 16, 17, 0, 0, 0, 0, 14, 0, 0, 0, 0,
            15, 0, 0, 0, 0, 18
        ],
    },
    "max 3x3 s2 VALID": {
        "shape": [1, 2, 2, 2],
        "y": [
            2, 2, 2, 2, 2, 2, 2, 2
        ],
        "grad": [
            1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5, 6,
            7, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0
        ],
    },
    "max 2x3 s1 SAME": {
        "shape": [1, 5, 6, 2],
        "y": [
            2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 1, 2, 2, 2, 2,
            2, 2, 2, 2, 2, 1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1,
            2, 2, 1, 2
        ],
        "grad": [
            4, 6, 0, 0, 0, 0, 21, 10, 0, 0, 11, 12, 28, 0, 0, 0, 0, 68, 0, 0, 0, 0, 0, 46, 0, 0,
            98, 98, 50, 32, 0, 0, 0, 70, 112, 0, 0, 0, 117, 0, 0, 0, 0, 44, 47, 0, 0, 0, 100,
            180, 0, 96, 0, 56, 253, 0, 0, 0, 59, 212
        ],
    },
    "avg 3x3 s2 SAME": {
        "shape": [1, 3, 3, 2],
        "y": [
            1, 1.166667, 0.6666667, 0.6666667, 0.75, 0.5, 1.222222, 0.8888889, 0.8888889,
            0.7777778, 1, 0.8333333, 1.166667, 0.8333333, 1, 0.6666667, 0.5, 1.25
        ],
        "grad": [
            0.1666667, 0.3333333, 0.1666667, 0.3333333, 0.6666667, 1, 0.5, 0.6666667, 1.75,
            2.166667, 1.25, 1.5, 0.9444445, 1.222222, 0.9444445, 1.222222, 2.444445, 3, 1.5,
            1.777778, 4.583333, 5.277778, 3.083333, 3.5, 0.7777778, 0.8888889, 0.7777778,
            0.8888889, 1.777778, 2, 1, 1.111111, 2.833333, 3.111111, 1.833333, 2, 2.944445,
            3.222222, 2.944445, 3.222222, 6.444445, 7, 3.5, 3.777778, 9.583334, 10.27778,
            6.083333, 6.5, 2.166667, 2.333333, 2.166667, 2.333333, 4.666667, 5, 2.5, 2.666667,
            6.75, 7.166667, 4.25, 4.5
        ],
    },
    "avg 2x2 s2 SAME": {
        "shape": [1, 3, 3, 2],
        "y": [
            1.25, 1, 0.75, 1, 0.75, 0.5, 1.25, 0.5, 1.25, 0.75, 1, 1, 1, 2, 1.5, 0.5, 0.5, 1.5
        ],
        "grad": [
            0.25, 0.5, 0.25, 0.5, 0.75, 1, 0.75, 1, 1.25, 1.5, 1.25, 1.5, 0.25, 0.5, 0.25, 0.5,
            0.75, 1, 0.75, 1, 1.25, 1.5, 1.25, 1.5, 1.75, 2, 1.75, 2, 2.25, 2.5, 2.25, 2.5, 2.75,
            3, 2.75, 3, 1.75, 2, 1.75, 2, 2.25, 2.5, 2.25, 2.5, 2.75, 3, 2.75, 3, 6.5, 7, 6.5, 7,
            7.5, 8, 7.5, 8, 8.5, 9, 8.5, 9
        ],
    },
    "max dilated 2x2 rate 2x1 VALID": {
        "shape": [1, 3, 5, 2],
        "y": [
            2, 2, 2, 2, 2, 2, 2, 1, 2, 1, 2, 1, 2, 2, 1, 2, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 1,
            2, 2
        ],
        "grad": [
            1, 2, 0, 0, 0, 0, 12, 8, 0, 0, 0, 10, 11, 12, 0, 0, 0, 30, 0, 0, 36, 0, 0, 20, 0, 0,
            47, 50, 25, 32, 0, 0, 0, 28, 38, 0, 0, 0, 13, 0, 15, 0, 0, 18, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 27, 0, 0, 0, 0, 30
        ],
    },
    "int32 max 3x3 s2 SAME": {
        "shape": [1, 3, 3, 2],
        "y": [
            2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 1, 1, 2
        ],
    },
    "max1d 3 s2 SAME": {
        "shape": [2, 4, 1],
        "y": [
            1, 2, 2, 2, 0, 1, 1, 1
        ],
        "grad": [
            0, 1, 2, 3, 0, 0, 4, 5, 0, 6, 0, 7, 0, 8
        ],
    },
    "max1d 2 s2 VALID": {
        "shape": [2, 3, 1],
        "y": [
            1, 2, 2, 0, 1, 1
        ],
        "grad": [
            0, 1, 2, 0, 3, 0, 0, 4, 0, 5, 0, 6, 0, 0
        ],
    },
    "avg1d 3 s2 SAME": {
        "shape": [2, 4, 1],
        "y": [
            0.5, 1.666667, 1.666667, 1.5, 0, 0.3333333, 0.3333333, 0.5
        ],
        "grad": [
            0.5, 1.166667, 0.6666667, 1.666667, 1, 3, 2, 2.5, 4.5, 2, 4.333333, 2.333333,
            6.333333, 4
        ],
    },
    "max3d 2 s2 SAME": {
        "shape": [1, 2, 2, 2, 1],
        "y": [
            2, 1, 2, 2, 2, 1, 2, 1
        ],
        "grad": [
            1, 0, 2, 0, 0, 2, 3, 0, 4, 0, 3, 0, 0, 1, 2, 0, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 6, 5,
            0, 6, 0, 7, 0, 0, 0, 8
        ],
    },
    "max3d 2 s1 VALID": {
        "shape": [1, 2, 3, 2, 1],
        "y": [
            2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
        ],
        "grad": [
            1, 0, 0, 0, 0, 0, 8, 0, 10, 0, 11, 0, 0, 18, 0, 0, 44, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0,
            16, 0, 0, 0, 42, 0, 0, 0, 0
        ],
    },
    "avg3d 2 s1 SAME": {
        "shape": [1, 3, 4, 3, 1],
        "y": [
            1, 0.875, 0.75, 0.75, 1, 1.25, 0.875, 1, 1.25, 1, 0.75, 0.5, 1, 1, 0.75, 0.875,
            0.875, 0.75, 0.75, 0.875, 1, 0.75, 0.75, 1, 0.75, 0.75, 1, 1.25, 0.75, 0.5, 1.25, 1,
            0.5, 1, 1, 1
        ],
        "grad": [
            0.125, 0.375, 1, 0.625, 1.5, 3.125, 1.375, 3, 5.375, 3.375, 7.125, 12, 1.75, 3.75,
            6.5, 4.25, 9, 15.25, 5.75, 12, 19.75, 11.25, 23.25, 37.5, 7.875, 16.125, 25.5,
            16.875, 34.5, 54.375, 19.125, 39, 61.125, 32.625, 66.375, 103.5
        ],
    },
}

X2 = np.array(X2, np.float32).reshape(1, 5, 6, 2)
X1 = np.array(X1, np.float32).reshape(2, 7, 1)
X3 = np.array(X3, np.float32).reshape(1, 3, 4, 3, 1)

CASES = {
    "max 2x2 s2 SAME": (X2, lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME")),
    "max 3x3 s2 SAME": (X2, lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME")),
    "max 3x3 s2 VALID": (X2, lambda x: tf.nn.max_pool2d(x, 3, 2, "VALID")),
    "max 2x3 s1 SAME": (X2, lambda x: tf.nn.max_pool2d(x, [2, 3], 1, "SAME")),
    "avg 3x3 s2 SAME": (X2, lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME")),
    "avg 2x2 s2 SAME": (X2, lambda x: tf.nn.avg_pool2d(x, 2, 2, "SAME")),
    "max dilated 2x2 rate 2x1 VALID": (
        X2, lambda x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 1])),
    "int32 max 3x3 s2 SAME": (X2.astype(np.int32), lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME")),
    "max1d 3 s2 SAME": (X1, lambda x: tf.nn.max_pool1d(x, 3, 2, "SAME")),
    "max1d 2 s2 VALID": (X1, lambda x: tf.nn.max_pool1d(x, 2, 2, "VALID")),
    "avg1d 3 s2 SAME": (X1, lambda x: tf.nn.avg_pool1d(x, 3, 2, "SAME")),
    "max3d 2 s2 SAME": (X3, lambda x: tf.nn.max_pool3d(x, 2, 2, "SAME")),
    "max3d 2 s1 VALID": (X3, lambda x: tf.nn.max_pool3d(x, 2, 1, "VALID")),
    "avg3d 2 s1 SAME": (X3, lambda x: tf.nn.avg_pool3d(x, 2, 1, "SAME")),
}


def _run(x, fn, weights=None):
  """fn(x) and, for float x, the gradient of sum(fn(x) * weights) w.r.t. x; the weights
  default to 1, 2, 3, ... in row-major order."""
  x = tf.convert_to_tensor(x)
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = fn(x)
  if not x.dtype.is_floating:
    return y, None
  if weights is None:
    weights = tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y))
  return y, tape.gradient(y, x, output_gradients=tf.cast(weights, y.dtype))


def _check(name, y, grad, rtol=1e-6):
  golden = GOLDEN[name]
  assert list(y.shape) == golden["shape"]
  np.testing.assert_allclose(np.asarray(y, np.float64).ravel(), golden["y"], rtol=rtol)
  if "grad" in golden:
    np.testing.assert_allclose(np.asarray(grad, np.float64).ravel(), golden["grad"],
                               rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tf(name):
  x, fn = CASES[name]
  y, grad = _run(x, fn)
  assert y.dtype == x.dtype
  _check(name, y.numpy(), None if grad is None else grad.numpy())


@pytest.mark.parametrize("name", ["max 3x3 s2 SAME", "max dilated 2x2 rate 2x1 VALID",
                                  "int32 max 3x3 s2 SAME", "avg3d 2 s1 SAME"])
def test_tf_function_matches_tf(name):
  x, fn = CASES[name]
  y, grad = tf.function(lambda v: _run(v, fn))(x)
  _check(name, y.numpy(), None if grad is None else grad.numpy())


@pytest.mark.parametrize("name", ["max 2x2 s2 SAME", "max 3x3 s2 SAME", "max 3x3 s2 VALID",
                                  "avg 3x3 s2 SAME"])
def test_nchw_matches_tf(name):
  kind, size, stride, padding = name.split()
  pool = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
  k, s = int(size[0]), int(stride[1:])
  weights = np.arange(1, np.prod(GOLDEN[name]["shape"]) + 1).reshape(GOLDEN[name]["shape"])
  y, grad = _run(np.moveaxis(X2, -1, 1), lambda x: pool(x, k, s, padding, data_format="NCHW"),
                 np.moveaxis(weights, -1, 1))
  _check(name, np.moveaxis(y.numpy(), 1, -1), np.moveaxis(grad.numpy(), 1, -1))


@pytest.mark.parametrize("dtype", [np.float16, jnp.bfloat16, np.float64])
@pytest.mark.parametrize("name", ["max 2x2 s2 SAME", "max 3x3 s2 SAME", "max 2x3 s1 SAME",
                                  "avg 3x3 s2 SAME", "max3d 2 s1 VALID"])
def test_dtypes_match_tf(name, dtype):
  x, fn = CASES[name]
  y, grad = _run(x.astype(dtype), fn)
  assert y.dtype == grad.dtype == tf.as_dtype(dtype)
  _check(name, y.numpy(), grad.numpy(), rtol=1e-6 if dtype == np.float64 else 1e-2)


@pytest.mark.parametrize("shape, ksize, strides, padding, dilation", [
    ((2, 28, 28, 3), 2, 2, "SAME", None),
    ((2, 7, 7, 3), 2, 2, "SAME", None),
    ((2, 9, 9, 3), 3, 2, "SAME", None),
    ((2, 9, 9, 3), 3, 2, "VALID", None),
    ((2, 9, 3), 3, 1, "SAME", None),
    ((2, 5, 5, 5, 3), 2, 2, "SAME", None),
    ((2, 9, 9, 3), (2, 2), (1, 1), "VALID", (2, 2)),
])
def test_max_pool_gradient_has_no_select_and_scatter(shape, ksize, strides, padding, dilation):
  plan = conv_ops._pool_plan("MaxPool", len(shape) - 2, shape, ksize, strides, padding, None,
                             dilation)
  impl = pooling.max_pool3d if len(shape) == 5 else pooling.max_pool
  loss = lambda x: jnp.sum(impl(x, plan=plan))
  jaxpr = str(jax.make_jaxpr(jax.grad(loss))(jnp.ones(shape, jnp.float32)))
  assert "select_and_scatter" not in jaxpr and "reduce_window" not in jaxpr


def test_max_pool_gradient_of_nan_goes_to_first_nan():
  """NaN propagates; its gradient goes to the window's first NaN (as with reduce_window)."""
  x = np.array([1, np.nan, 3, 2, np.nan, np.nan], np.float32).reshape(1, 6, 1)
  y, grad = _run(x, lambda v: tf.nn.max_pool1d(v, 2, 2, "VALID"))
  np.testing.assert_array_equal(y.numpy().ravel(), [np.nan, 3, np.nan])
  np.testing.assert_array_equal(grad.numpy().ravel(), [0, 1, 2, 0, 3, 0])
