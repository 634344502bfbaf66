"""`tf.linalg` transposes, bands and diagonals (and TF1's `tf.matrix_transpose`, `tf.diag`, ...)."""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.ops.linalg_ops import _adj, _at_least_2d, _dims, _invalid


@op(name="MatrixTranspose")
def _transpose(a, *, conjugate):
  return _adj(a) if conjugate else jnp.swapaxes(a, -1, -2)


@export("linalg.transpose", "linalg.matrix_transpose", "matrix_transpose")
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
  """Transposes the last two dimensions (conjugating complex values if `conjugate`)."""
  a = ops.convert_to_tensor(a)
  if a.shape.ndims < 2:
    raise ValueError("Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = "
                     "%s with shape: %s" % (a.numpy(), a._shape_tuple()))
  return _transpose(a, conjugate=bool(conjugate) and a.dtype.is_complex)


@export("linalg.adjoint")
def adjoint(matrix, name=None):
  """The conjugate transpose of the last two dimensions."""
  return matrix_transpose(matrix, conjugate=True)


@op(name="MatrixBandPart")
def _band_part(x, num_lower, num_upper):
  i = jnp.arange(x.shape[-2])[:, None]
  j = jnp.arange(x.shape[-1])[None, :]
  keep = (((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper)))
  return jnp.where(keep, x, jnp.zeros((), x.dtype))


@export("linalg.band_part", "matrix_band_part")
def matrix_band_part(input, num_lower, num_upper, name=None):  # pylint: disable=redefined-builtin
  """Keeps `num_lower` subdiagonals and `num_upper` superdiagonals (negative: all)."""
  x = ops.convert_to_tensor(input)
  _at_least_2d(x, "MatrixBandPart")
  bounds = []
  for value, label, what, size in ((num_lower, "num_lower", "rows", x._shape_tuple()[-2]),
                                   (num_upper, "num_upper", "columns", x._shape_tuple()[-1])):
    value = value if isinstance(value, ops.Tensor) else ops.convert_to_tensor(value,
                                                                              dtypes.int64)
    if value.shape.ndims != 0:
      raise _invalid("%s must be scalar, got shape %s" % (label, _dims(value._shape_tuple())),
                     "MatrixBandPart")
    if not isinstance(value._value, jax.core.Tracer) and int(value) > size:
      raise _invalid("%s must be negative or less or equal to number of %s (%d) got: %d"
                     % (label, what, size, int(value)), "MatrixBandPart")
    bounds.append(value)
  return _band_part(x, *bounds)


def _single_k(k):
  if isinstance(k, (tuple, list)) or (isinstance(k, ops.Tensor) and k.shape.ndims):
    raise NotImplementedError("tfe_compat supports only a single diagonal offset k (an int); "
                              "bands of diagonals (k=(lower, upper)) are not implemented.")
  return int(k)


def _diag_len(rows, cols, k):
  return max(0, min(rows + min(k, 0), cols - max(k, 0)))


def _check_k(shape, k, op_name):
  rows, cols = shape[-2:]
  if (rows and not -rows < k) or (cols and not k < cols):
    raise _invalid("lower_diag_index is out of bound: %d. It must be between %d and %d"
                   % (k, -rows, cols), op_name)


def _on_diagonal(rows, cols, k, length):
  """(mask of the k-th diagonal, index into the diagonal vector) for a rows x cols matrix."""
  i = jnp.arange(rows)[:, None]
  j = jnp.arange(cols)[None, :]
  index = jnp.broadcast_to(i if k >= 0 else j, (rows, cols))
  return (j - i == k) & (index < length), jnp.clip(index, 0, max(length - 1, 0))


@op(name="MatrixDiagV3")
def _matrix_diag(diagonal, padding, *, k, rows, cols):
  mask, index = _on_diagonal(rows, cols, k, diagonal.shape[-1])
  values = jnp.take(diagonal, index, axis=-1)
  return jnp.where(mask, values, padding.astype(diagonal.dtype))


@export("linalg.diag", "matrix_diag")
def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
                align="RIGHT_LEFT"):
  """Batched matrices with `diagonal` on their k-th diagonal and `padding_value` elsewhere."""
  diagonal = ops.convert_to_tensor(diagonal)
  k, num_rows, num_cols = _single_k(k), int(num_rows), int(num_cols)
  if diagonal.shape.ndims < 1:
    raise _invalid("diagonal must be at least 1-dim, received shape: []", "MatrixDiagV3")
  length = diagonal._shape_tuple()[-1]
  min_rows, min_cols = length + max(-k, 0), length + max(k, 0)
  if num_rows == -1 and num_cols == -1:
    num_rows = num_cols = max(min_rows, min_cols)
  elif num_rows == -1:
    num_rows = min_rows
  elif num_cols == -1:
    num_cols = min_cols
  if num_rows != min_rows and num_cols != min_cols:
    raise _invalid("The number of rows or columns is not consistent with the specified "
                   "d_lower, d_upper, and diagonal.", "MatrixDiagV3")
  padding = ops.convert_to_tensor(padding_value, dtype=diagonal.dtype)
  return _matrix_diag(diagonal, padding, k=k, rows=num_rows, cols=num_cols)


@op(name="MatrixDiagPartV3")
def _matrix_diag_part(x, *, k):
  return jnp.diagonal(x, offset=k, axis1=-2, axis2=-1)


@export("linalg.diag_part", "matrix_diag_part")
def matrix_diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # pylint: disable=redefined-builtin
  """The k-th diagonal of each (batched, possibly non-square) matrix."""
  x = ops.convert_to_tensor(input)
  k = _single_k(k)
  _at_least_2d(x, "MatrixDiagPartV3")
  _check_k(x._shape_tuple(), k, "MatrixDiagPartV3")
  return _matrix_diag_part(x, k=k)


@op(name="MatrixSetDiagV3")
def _matrix_set_diag(x, diagonal, *, k):
  mask, index = _on_diagonal(x.shape[-2], x.shape[-1], k, diagonal.shape[-1])
  return jnp.where(mask, jnp.take(diagonal, index, axis=-1), x)


@export("linalg.set_diag", "matrix_set_diag")
def matrix_set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # pylint: disable=redefined-builtin
  """`input` with its k-th diagonal replaced by `diagonal`."""
  x, diagonal = ops.convert_matching(input, diagonal, op_name="MatrixSetDiagV3")
  k = _single_k(k)
  _at_least_2d(x, "MatrixSetDiagV3")
  shape = x._shape_tuple()
  _check_k(shape, k, "MatrixSetDiagV3")
  expected = shape[:-2] + (_diag_len(shape[-2], shape[-1], k),)
  if diagonal._shape_tuple() != expected:
    raise _invalid(
        "Either first dimensions of diagonal don't match input.shape[:-2], or "
        "diagonal.shape[:-1] is not equal to the longests diagonal in range "
        "[lower_diag_index:upper_diag_index].\nInput shape: %s\nDiagonal shape: %s\n"
        "Expected diagonal shape: %s" % (_dims(shape), _dims(diagonal._shape_tuple()),
                                         _dims(expected)), "MatrixSetDiagV3")
  return _matrix_set_diag(x, diagonal, k=k)


@op(name="Diag")
def _diag(diagonal):
  flat = diagonal.reshape(-1)
  return jnp.diag(flat).reshape(diagonal.shape + diagonal.shape)


@export("linalg.tensor_diag", "diag")
def diag(diagonal, name=None):
  """A rank-2k tensor with `diagonal` (rank k) on its diagonal: out[i.., i..] = diagonal[i..]."""
  diagonal = ops.convert_to_tensor(diagonal)
  if diagonal.shape.ndims < 1:
    raise _invalid("Input must be at least rank 1, got 0", "Diag")
  return _diag(diagonal)


@op(name="DiagPart")
def _diag_part(x):
  half = x.shape[:x.ndim // 2]
  size = int(np.prod(half))
  return jnp.diagonal(x.reshape(size, size)).reshape(half)


@export("linalg.tensor_diag_part", "diag_part")
def diag_part(input, name=None):  # pylint: disable=redefined-builtin
  """The inverse of `tf.diag`: out[i..] = input[i.., i..] for a rank-2k input."""
  x = ops.convert_to_tensor(input)
  shape = x._shape_tuple()
  if len(shape) % 2:
    raise _invalid("The rank of the tensor should be                                         "
                   " even and positive, got shape %s" % _dims(shape), "DiagPart")
  half = len(shape) // 2
  for d in range(half):
    if shape[d] != shape[d + half]:
      raise _invalid("Invalid shape %s: dimensions %d and %d do not match."
                     % (_dims(shape), d, d + half), "DiagPart")
  return _diag_part(x)
