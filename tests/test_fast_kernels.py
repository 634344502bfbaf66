"""ops/fast_matmul and ops/fast_conv: the same values and derivatives as jnp.matmul and
lax.conv_general_dilated (first and second order, reverse and forward mode), with the
derivative rewritten as documented on the CPU."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from tfe_compat.ops import fast_conv
from tfe_compat.ops import fast_matmul

_RNG = np.random.default_rng(0)


def _normal(*shape):
  return jnp.asarray(_RNG.standard_normal(shape).astype(np.float32))


def _close(actual, expected, rtol=2e-5):
  scale = float(jnp.max(jnp.abs(expected)))
  np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=0,
                             atol=rtol * scale)


def _derivatives(f, g, args):
  """Checks f against g: value, gradients, a forward-mode derivative, a second derivative."""
  loss = lambda fn: lambda *a: jnp.sum(jnp.sin(fn(*a)))
  _close(jax.jit(f)(*args), g(*args))
  for got, want in zip(jax.jit(jax.grad(loss(f), (0, 1)))(*args),
                       jax.grad(loss(g), (0, 1))(*args)):
    _close(got, want)
  _close(jax.jvp(loss(f), args, args)[1], jax.jvp(loss(g), args, args)[1])
  second = lambda fn: jax.grad(lambda b: jnp.sum(jax.grad(loss(fn), 0)(args[0], b) ** 2))
  _close(second(f)(args[1]), second(g)(args[1]), rtol=1e-4)


def _program(fn, *args):
  return jax.jit(fn).lower(*args).compile().as_text()


def _count(primitive, fn, *args):
  """How many `primitive` operations the CPU program of fn(*args) runs."""
  return _program(fn, *args).count(" %s(" % primitive)


@pytest.mark.parametrize("shape", [(32, 784, 64), (8, 300, 40), (200, 50, 20)])
def test_matmul_matches_jnp(shape):
  m, k, n = shape
  _derivatives(fast_matmul.matmul, jnp.matmul, (_normal(m, k), _normal(k, n)))


@pytest.mark.parametrize("params, x_shape, w_shape", [
    (((1, 1), "SAME", None, (1, 1), ("NHWC", "HWIO", "NHWC"), 1), (24, 14, 14, 8), (5, 5, 8, 16)),
    (((2, 1), ((1, 0), (2, 1)), None, (1, 2), ("NCHW", "OIHW", "NCHW"), 2), (7, 4, 30, 30),
     (6, 2, 3, 3)),
    (((1, 1), ((1, 1), (1, 1)), (2, 2), (1, 1), ("NHWC", "HWIO", "NHWC"), 1), (5, 20, 20, 4),
     (3, 3, 4, 3)),
    (((1,), "VALID", None, (1,), ("NWC", "WIO", "NWC"), 1), (3, 50, 4), (7, 4, 5)),
])
def test_conv_matches_lax(monkeypatch, params, x_shape, w_shape):
  # slices of one example; the 1-D case's of two (880 bytes each), the last one shorter
  monkeypatch.setattr(fast_conv, "_SLICE_BYTES", 2048)
  x, w = _normal(*x_shape), _normal(*w_shape)
  _derivatives(lambda x, w: fast_conv.conv(x, w, params),
               lambda x, w: lax.conv_general_dilated(x, w, *params), (x, w))


def test_conv_filter_gradient_runs_in_slices_on_the_cpu(monkeypatch):
  """A 14x14x64 output gradient is 50 KB per example: 13 slices of at most 5 (256 KB)."""
  params = ((1, 1), "SAME", None, (1, 1), ("NHWC", "HWIO", "NHWC"), 1)
  x, w = _normal(64, 14, 14, 32), _normal(5, 5, 32, 64)
  filter_gradient = lambda: jax.grad(lambda w: jnp.sum(fast_conv.conv(x, w, params) ** 2))
  whole = jax.grad(lambda w: jnp.sum(lax.conv_general_dilated(x, w, *params) ** 2))
  assert _count("convolution", whole, w) == 2  # the forward and the filter gradient
  assert _count("convolution", filter_gradient(), w) == 1 + 13  # the forward, 13 slices
  # each in the layout XLA:CPU's fast convolution kernels take, also inside a nested jit
  # whose input comes out of another operation (where XLA leaves the slices' convolutions
  # as they are, 10x slower)
  layer = jax.jit(lambda x, w: fast_conv.conv(x, w, params) + 1.)
  loss = lambda x, w: jnp.sum(jax.nn.relu(layer(jnp.maximum(x, 0.1) * 2., w)) ** 2)
  labels = re.findall(r"dim_labels=(\S+),", _program(jax.grad(loss, (0, 1)), x, w))
  assert labels == ["b01f_01io->b01f"] * 15, labels  # forward, input gradient, slices
  _close(filter_gradient()(w), whole(w))
  monkeypatch.setattr(fast_conv, "_SLICE_BYTES", 1)  # one example a slice, at most 32 slices
  assert _count("convolution", filter_gradient(), w) == 1 + fast_conv._MAX_SLICES
