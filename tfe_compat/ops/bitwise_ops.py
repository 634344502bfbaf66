"""`tf.bitwise`: and/or/xor, invert and shifts on the eight integer dtypes.

The and/or/xor/invert ops are math_ops' (they also serve `&`, `|`, `^`, `~` on tensors).
Shifts follow TF's kernels: the shift is clamped to [0, bits - 1] (a negative shift leaves
the value unchanged; a shift past the width shifts by bits - 1), right shifts are arithmetic
on signed types.
"""
import jax.numpy as jnp
from jax import lax

from tfe_compat.framework.api import export
from tfe_compat.ops import math_ops
from tfe_compat.ops.math_ops import INT, _binary


@export("bitwise.bitwise_and")
def bitwise_and(x, y, name=None):
  """`tf.bitwise.bitwise_and` (TF op BitwiseAnd)."""
  return math_ops._bitwise_and(x, y)


@export("bitwise.bitwise_or")
def bitwise_or(x, y, name=None):
  """`tf.bitwise.bitwise_or` (TF op BitwiseOr)."""
  return math_ops._bitwise_or(x, y)


@export("bitwise.bitwise_xor")
def bitwise_xor(x, y, name=None):
  """`tf.bitwise.bitwise_xor` (TF op BitwiseXor)."""
  return math_ops._bitwise_xor(x, y)


@export("bitwise.invert")
def invert(x, name=None):
  """`tf.bitwise.invert` (TF op Invert): flips every bit."""
  return math_ops._invert(x)


def _clamped_shift(y, bits):
  return jnp.clip(y, 0, bits - 1).astype(y.dtype)


def _left_shift(x, y):
  return lax.shift_left(x, _clamped_shift(y, x.dtype.itemsize * 8))


def _right_shift(x, y):
  shift = lax.shift_right_logical if jnp.issubdtype(x.dtype, jnp.unsignedinteger) else \
      lax.shift_right_arithmetic
  return shift(x, _clamped_shift(y, x.dtype.itemsize * 8))


left_shift = _binary("LeftShift", _left_shift, INT, "bitwise.left_shift", differentiable=False)
right_shift = _binary("RightShift", _right_shift, INT, "bitwise.right_shift",
                      differentiable=False)
