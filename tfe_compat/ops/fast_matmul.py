"""`matmul(a, b)`: `jnp.matmul`, whose derivative's products XLA:CPU runs with its fast kernels.

The gradients of `a @ b` are `g @ b.T` and `a.T @ g`; JAX writes them as dot products that
contract a transposed operand, which XLA:CPU's fast (YNNPACK) matrix kernels do not take, so
they run on a generic loop 2-3x slower (a 784x64 weight gradient at batch 32: 150 us against
75 us). On the CPU the derivative here uses transposed copies of the operands instead (an
`optimization_barrier` keeps XLA from folding them back), which those kernels take: the MLP
training step of benchmarks/graph.py gets ~28% faster. Other backends get plain transposes.
A `custom_jvp`, so forward-mode and higher derivatives work as for `jnp.matmul`.
"""
import jax
import jax.numpy as jnp
from jax import lax


# Products smaller than this (multiply-adds) gain nothing from the copies.
_MIN_PRODUCT = 1 << 18


def matmul(a, b):
  """`jnp.matmul(a, b)`; for two large enough matrices, with the derivative described above."""
  if a.ndim == 2 and b.ndim == 2 and jnp.issubdtype(a.dtype, jnp.floating) and \
      a.shape[0] * a.shape[1] * b.shape[1] >= _MIN_PRODUCT:
    return _matrix_product(a, b)
  return jnp.matmul(a, b)


@jax.custom_jvp
def _matrix_product(a, b):
  return jnp.matmul(a, b)


def _copied_transposes(a, b):
  return lax.optimization_barrier((a.T, b.T))


@_matrix_product.defjvp
def _matrix_product_jvp(primals, tangents):
  a, b = primals
  da, db = tangents
  a_t, b_t = lax.platform_dependent(a, b, cpu=_copied_transposes,
                                    default=lambda a, b: (a.T, b.T))
  # da @ b and a @ db, written on the copies so that their transposes (the gradients
  # g @ b_t and a_t @ g) contract the copies' last dimension, compiled or run op by op
  tangent = lax.dot_general(da, b_t, (((1,), (1,)), ((), ()))) + \
      lax.dot_general(a_t, db, (((0,), (0,)), ((), ())))
  return jnp.matmul(a, b), tangent
