"""JAX functions whose derivatives are TF's gradients where JAX's own differ: ties, kinks,
points TF imputes, and NaNs that TF's kernels keep out of masked (`where`) branches.

Forward values are those of the plain jax.numpy/lax functions. Each rule is a `custom_jvp`
(free at dispatch inside a jitted op); ops whose TF kernel returns 0 for a 0 incoming
gradient use a `custom_vjp`, since no linear tangent map can do that.
"""
# The rules are named after the ops they serve; some shadow builtins.
# pylint: disable=redefined-builtin
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy import special


def xdivy(x, y):
  return jnp.where(x == 0, jnp.zeros_like(x), x / jnp.where(x == 0, jnp.ones_like(y), y))


def _ties_to_x(forward, x_wins):
  """`forward(x, y)` (jnp.maximum or jnp.minimum) whose gradient goes wholly to `x` where
  `x_wins(x, y)`, ties included: TF's choice (JAX splits ties evenly)."""
  fn = jax.custom_jvp(forward)
  fn.defjvp(lambda primals, tangents: (forward(*primals), jnp.where(x_wins(*primals),
                                                                    *tangents)))
  return fn


maximum = _ties_to_x(jnp.maximum, jnp.greater_equal)
minimum = _ties_to_x(jnp.minimum, jnp.less_equal)


@jax.custom_jvp
def _real_abs(x):
  return jnp.abs(x)


_real_abs.defjvps(lambda t, y, x: jnp.sign(x) * t)  # 0 at 0, as TF (JAX gives 1)


def abs(x):
  """`jnp.abs` with TF's gradient `sign(x)` for real inputs."""
  return _real_abs(x) if jnp.issubdtype(x.dtype, jnp.floating) else jnp.abs(x)


def _guarded(forward, gradient):
  """An op whose gradient is 0 wherever the incoming gradient is 0, as TF's Sqrt, Rsqrt and
  Reciprocal kernels do: a `where`-masked NaN or inf does not leak into the gradient."""
  fn = jax.custom_vjp(forward)

  def fwd(x):
    y = forward(x)
    return y, y

  def bwd(y, g):
    return (jnp.where(g == 0, jnp.zeros_like(g), gradient(y, g)),)

  fn.defvjp(fwd, bwd)
  return fn


sqrt = _guarded(jnp.sqrt, lambda y, g: g * 0.5 / y)
rsqrt = _guarded(lax.rsqrt, lambda y, g: -0.5 * (g * y) * (y * y))
reciprocal = _guarded(jnp.reciprocal, lambda y, g: -(y * y) * g)


@jax.custom_jvp
def pow(x, y):
  return jnp.power(x, y)


@pow.defjvp
def _pow_jvp(primals, tangents):
  """TF's Pow gradient: y * x**(y-1) for x, and z * log(x) for y, taken as 0 where x <= 0
  (x == 0 for complex)."""
  x, y = primals
  z = jnp.power(x, y)
  positive = x != 0 if jnp.iscomplexobj(x) else x > 0
  log_x = jnp.where(positive, jnp.log(jnp.where(positive, x, jnp.ones_like(x))),
                    jnp.zeros_like(x))
  return z, tangents[0] * (y * jnp.power(x, y - 1)) + tangents[1] * (z * log_x)


@jax.custom_jvp
def xlogy(x, y):
  return special.xlogy(x, y)


@xlogy.defjvp
def _xlogy_jvp(primals, tangents):
  """TF's gradient: xlogy(x != 0, y) for x and xdivy(x, y) for y (both 0 where x == 0)."""
  x, y = primals
  zero = x == 0
  dx = jnp.where(zero, jnp.zeros_like(x), jnp.log(jnp.where(zero, jnp.ones_like(y), y)))
  return xlogy(x, y), tangents[0] * dx + tangents[1] * xdivy(x, y)


@jax.custom_jvp
def xlog1py(x, y):
  return special.xlog1py(x, y)


@xlog1py.defjvp
def _xlog1py_jvp(primals, tangents):
  """TF's gradient: xlog1py(x != 0, y) for x and x / (1 + y) for y (both 0 where x == 0)."""
  x, y = primals
  zero = x == 0
  safe = jnp.where(zero, jnp.zeros_like(y), y)
  dx = jnp.where(zero, jnp.zeros_like(x), jnp.log1p(safe))
  dy = jnp.where(zero, jnp.zeros_like(x), x / (1 + safe))
  return xlog1py(x, y), tangents[0] * dx + tangents[1] * dy


@jax.custom_jvp
def multiply_no_nan(x, y):
  return jnp.where(y == 0, jnp.zeros_like(x), x * y)


@multiply_no_nan.defjvp
def _multiply_no_nan_jvp(primals, tangents):
  """TF's gradient: mul_no_nan(grad, y) for x, and x * grad for y (NaN x included)."""
  x, y = primals
  dx = jnp.where(y == 0, jnp.zeros_like(tangents[0]), tangents[0] * y)
  return multiply_no_nan(x, y), dx + x * tangents[1]


@jax.custom_jvp
def bessel_i0(x):
  return special.i0(x)


bessel_i0.defjvps(lambda t, y, x: special.i1(x) * t)  # JAX's is 1 at x = 0 (through |x|)


@jax.custom_jvp
def bessel_i1(x):
  return special.i1(x)


@bessel_i1.defjvp
def _bessel_i1_jvp(primals, tangents):
  """TF's gradient i0(x) - i1(x) / x, imputed as 1 at x == 0 (TF's choice)."""
  (x,), (t,) = primals, tangents
  y = special.i1(x)
  zero = x == 0
  dx = jnp.where(zero, jnp.ones_like(x), special.i0(x) - y / jnp.where(zero, jnp.ones_like(x), x))
  return y, dx * t




@jax.custom_jvp
def nextafter(x1, x2):
  return jnp.nextafter(x1, x2)


nextafter.defjvps(lambda t, y, x1, x2: t, lambda t, y, x1, x2: jnp.zeros_like(y))  # TF's


def zeta(x, q):
  """The Hurwitz zeta function; as in TF, no gradient flows to `x`."""
  return special.zeta(lax.stop_gradient(x), q)


def polygamma(a, x):
  """The a-th derivative of digamma; as in TF, no gradient flows to `a`."""
  return lax.polygamma(lax.stop_gradient(a), x)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def segment_prod(data, ids, num_segments):
  """`jax.ops.segment_prod` (rows of `data` by the 1-D `ids`) with TF's gradient, which
  JAX lacks: each entry gets the product of the other entries of its segment."""
  return jax.ops.segment_prod(data, ids, num_segments)


@segment_prod.defjvp
def _segment_prod_jvp(num_segments, primals, tangents):
  data, ids = primals
  out = segment_prod(data, ids, num_segments)
  zero = data == 0
  nonzero_prod = segment_prod(jnp.where(zero, jnp.ones_like(data), data), ids, num_segments)
  zeros = jax.ops.segment_sum(zero.astype(jnp.int32), ids, num_segments)

  def per_row(values):  # dropped (out of range) ids get 0, as TF's gradient
    return jnp.take(values, ids, axis=0, mode="fill", fill_value=0)

  others = jnp.where(zero, jnp.where(per_row(zeros) == 1, per_row(nonzero_prod), 0),
                     per_row(out) / jnp.where(zero, jnp.ones_like(data), data))
  return out, jax.ops.segment_sum(tangents[0] * others, ids, num_segments)


def scan(fn, fill, x, axis, exclusive, reverse):
  """`fn(x, axis, reverse)` (lax.cumsum, lax.cumprod, ...); exclusive scans shift `fill` in."""
  if exclusive:
    n = x.shape[axis]
    widths = [(0, 0)] * x.ndim
    widths[axis] = (0, 1) if reverse else (1, 0)
    x = lax.slice_in_dim(jnp.pad(x, widths, constant_values=fill), int(reverse),
                         n + int(reverse), axis=axis)
  return fn(x, axis=axis, reverse=reverse)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3))
def cumprod(x, axis, exclusive, reverse):
  return scan(lax.cumprod, 1, x, axis, exclusive, reverse)


@cumprod.defjvp
def _cumprod_jvp(axis, exclusive, reverse, primals, tangents):
  """TF's gradient: the tangent map cumprod(x) * cumsum(t / x), with t / x taken as 0 where
  x == 0 (TF's div_no_nan: the terms through a zero are dropped)."""
  (x,), (t,) = primals, tangents
  out = cumprod(x, axis, exclusive, reverse)
  zero = x == 0
  ratio = jnp.where(zero, jnp.zeros_like(t), t / jnp.where(zero, jnp.ones_like(x), x))
  return out, out * scan(lax.cumsum, 0, ratio, axis, exclusive, reverse)


def _adjoint(x):
  return jnp.conj(jnp.swapaxes(x, -1, -2))


@jax.custom_jvp
def cholesky(x):
  """The Cholesky factor of `x`'s lower triangle, with TF's symmetric gradient."""
  return lax.linalg.cholesky(x, symmetrize_input=False)


@cholesky.defjvp
def _cholesky_jvp(primals, tangents):
  (x,), (t,) = primals, tangents
  return jax.jvp(lambda a: lax.linalg.cholesky(a, symmetrize_input=False), (x,),
                 ((t + _adjoint(t)) / 2,))


def _lower_hermitian(x):
  """The Hermitian matrix made of `x`'s lower triangle (all that eigh reads)."""
  return jnp.tril(x) + _adjoint(jnp.tril(x, -1))


@jax.custom_jvp
def eigh(x):
  """(eigenvectors, eigenvalues) of `x`'s lower triangle; the gradient is TF's: lower
  triangular, off-diagonal entries carrying both halves."""
  return lax.linalg.eigh(x, lower=True, symmetrize_input=False)


@eigh.defjvp
def _eigh_jvp(primals, tangents):
  (x,), (t,) = primals, tangents
  return jax.jvp(lambda a: lax.linalg.eigh(a, lower=True, symmetrize_input=False),
                 (_lower_hermitian(x),), (_lower_hermitian(t),))
