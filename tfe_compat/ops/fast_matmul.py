"""`matmul(a, b)`: `jnp.matmul`, whose weight gradient XLA:CPU runs with its fast kernels.

The gradients of `a @ b` are `g @ b.T` and `a.T @ g`. JAX writes the second as a dot product
contracting the first dimension of both operands, which XLA:CPU runs on a generic loop up to
2x slower than its fast (YNNPACK) kernels (a 784x64 weight gradient at batch 32: 150 us
against 75 us). On the CPU the derivative here contracts a transposed copy of `a` instead (an
`optimization_barrier` keeps XLA from folding it back), for the shapes where that measured
faster (`a` of at most 128 rows, `b` of at least 32 columns): the MLP training step of
benchmarks/graph.py gets ~28% faster. `g @ b.T` is left as it is: with a copy of `b` it ran
slower in most shapes measured (a 3136x1024 layer at batch 64: 3.3 ms against 1.7 ms). A
`custom_jvp`, so forward-mode and higher derivatives work as for `jnp.matmul`; other backends
get a plain transpose.
"""
import jax
import jax.numpy as jnp
from jax import lax


# Products smaller than this (multiply-adds) gain nothing from the copy.
_MIN_PRODUCT = 1 << 18
_MAX_ROWS, _MIN_COLUMNS = 128, 32


def matmul(a, b):
  """`jnp.matmul(a, b)`; for two large enough matrices, with the derivative described above."""
  if a.ndim == 2 and b.ndim == 2 and jnp.issubdtype(a.dtype, jnp.floating) and \
      a.shape[0] <= _MAX_ROWS and b.shape[1] >= _MIN_COLUMNS and \
      a.shape[0] * a.shape[1] * b.shape[1] >= _MIN_PRODUCT:
    return _matrix_product(a, b)
  return jnp.matmul(a, b)


@jax.custom_jvp
def _matrix_product(a, b):
  return jnp.matmul(a, b)


def _copied_transpose(a):
  return lax.optimization_barrier(a.T)


@_matrix_product.defjvp
def _matrix_product_jvp(primals, tangents):
  a, b = primals
  da, db = tangents
  a_t = lax.platform_dependent(a, cpu=_copied_transpose, default=lambda a: a.T)
  # a @ db written on the copy, so that its transpose (the gradient a_t @ g) contracts the
  # copy's last dimension, compiled or run op by op
  tangent = jnp.matmul(da, b) + lax.dot_general(a_t, db, (((0,), (0,)), ((), ())))
  return jnp.matmul(a, b), tangent
