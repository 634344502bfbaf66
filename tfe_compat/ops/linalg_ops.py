"""`tf.linalg.*` and TF1's top-level linear-algebra names (`tf.matrix_inverse`, `tf.norm`, ...).

Decompositions read only what TF's kernels read (the lower triangle for `cholesky` and
`self_adjoint_eig`); float16 inputs are computed in float32 and cast back. Like TF 1.15 on
CPU, `matrix_inverse`, `matrix_solve` and `cholesky` raise InvalidArgumentError on eager
inputs whose result is not finite (singular / not positive definite); under tracing
(tape replay, tf.function) that check is skipped and the NaN/inf result flows on.
"""
import collections
import operator

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.ops import grad_rules

_LINALG_DTYPES = (dtypes.float64, dtypes.float32, dtypes.float16, dtypes.complex64,
                  dtypes.complex128)
_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half"}
_CHOLESKY_FAILED = "Cholesky decomposition was not successful. The input might not be valid."

LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant",
                                              ["sign", "log_abs_determinant"])
Qr = collections.namedtuple("Qr", ["q", "r"])


def _invalid(message, op_name):
  return errors.invalid_argument("%s [Op:%s]" % (message, op_name))


def _dims(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


def _matrix(x, op_name, square=True, dtype=None):
  """Converts one matrix input and checks dtype, rank >= 2 and (optionally) squareness."""
  x = ops.convert_to_tensor(x, dtype=dtype)
  if x.dtype not in _LINALG_DTYPES:
    raise _invalid("Value for attr 'T' of %s is not in the list of allowed values: double, "
                   "float, half, complex64, complex128"
                   % _TF_NAMES.get(x.dtype.name, x.dtype.name), op_name)
  shape = x._shape_tuple()
  if len(shape) < 2:
    raise _invalid("Input tensor 0 must have rank >= 2, got %d" % len(shape), op_name)
  if square and shape[-1] != shape[-2]:
    raise _invalid("Input matrix must be square.", op_name)
  return x


def _at_least_2d(x, op_name, name="input"):
  if x.shape.ndims < 2:
    raise _invalid("%s must be at least 2-dim, received shape: %s"
                   % (name, _dims(x._shape_tuple())), op_name)


_all_finite = jax.jit(lambda x: jnp.all(jnp.isfinite(x)))


def _require_finite(result, message, op_name):
  """TF 1.15's CPU kernels reject singular inputs; only eager values are checked."""
  value = result._value
  if isinstance(value, jax.core.Tracer):
    return result
  with jax.ensure_compile_time_eval():  # a concrete check even inside an outer trace
    finite = bool(_all_finite(value))
  if not finite:
    raise _invalid(message, op_name)
  return result


def _up(x):
  """Computes half precision in float32 (LAPACK has no float16)."""
  return x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x


def _adj(x):
  return jnp.conj(jnp.swapaxes(x, -1, -2))


def _broadcast_batch(a, b):
  batch = jnp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
  return (jnp.broadcast_to(a, batch + a.shape[-2:]), jnp.broadcast_to(b, batch + b.shape[-2:]))


def _tri_solve(a, b, lower, adjoint):
  a, b = _broadcast_batch(a, b)
  return lax.linalg.triangular_solve(a, b, left_side=True, lower=lower,
                                     transpose_a=adjoint, conjugate_a=adjoint)


def _chol_solve(chol, rhs):
  return _tri_solve(chol, _tri_solve(chol, rhs, True, False), True, True)


# ---- Inverses, determinants, decompositions ----
@op(name="MatrixInverse")
def _inverse(x, *, adjoint):
  x = _adj(x) if adjoint else x
  return jnp.linalg.inv(_up(x)).astype(x.dtype)


@export("linalg.inv", "matrix_inverse")
def matrix_inverse(input, adjoint=False, name=None):  # pylint: disable=redefined-builtin
  """The inverse (or inverse of the adjoint) of each square matrix in `input`."""
  x = _matrix(input, "MatrixInverse")
  return _require_finite(_inverse(x, adjoint=bool(adjoint)), "Input is not invertible.",
                         "MatrixInverse")


@op(name="MatrixDeterminant")
def _det(x):
  return jnp.linalg.det(_up(x)).astype(x.dtype)


@export("linalg.det", "matrix_determinant")
def matrix_determinant(input, name=None):  # pylint: disable=redefined-builtin
  """The determinant of each square matrix in `input`."""
  return _det(_matrix(input, "MatrixDeterminant"))


@op(name="LogMatrixDeterminant")
def _slogdet(x):
  sign, logdet = jnp.linalg.slogdet(_up(x))
  return sign.astype(x.dtype), logdet.astype(x.dtype)


@export("linalg.slogdet")
def slogdet(input, name=None):  # pylint: disable=redefined-builtin
  """(sign, log |det|) of each square matrix in `input`."""
  return LogMatrixDeterminant(*_slogdet(_matrix(input, "LogMatrixDeterminant")))


@op(name="Cholesky")
def _cholesky(x):
  return grad_rules.cholesky(_up(x)).astype(x.dtype)


@export("linalg.cholesky", "cholesky")
def cholesky(input, name=None):  # pylint: disable=redefined-builtin
  """The lower Cholesky factor of each (lower-triangle-read) Hermitian PD matrix."""
  return _require_finite(_cholesky(_matrix(input, "Cholesky")), _CHOLESKY_FAILED, "Cholesky")


@op(name="LogDet")
def _logdet(x):
  chol = grad_rules.cholesky(_up(x))
  diag = jnp.real(jnp.diagonal(chol, axis1=-2, axis2=-1))
  return (2.0 * jnp.sum(jnp.log(diag), axis=-1)).astype(jnp.finfo(x.dtype).dtype)


@export("linalg.logdet")
def logdet(matrix, name=None):
  """log(det(matrix)) of Hermitian positive definite matrices, through Cholesky."""
  return _require_finite(_logdet(_matrix(matrix, "Cholesky")), _CHOLESKY_FAILED, "Cholesky")


@op(name="Qr")
def _qr(x, *, full_matrices):
  q, r = jnp.linalg.qr(_up(x), mode="complete" if full_matrices else "reduced")
  return q.astype(x.dtype), r.astype(x.dtype)


@export("linalg.qr", "qr")
def qr(input, full_matrices=False, name=None):  # pylint: disable=redefined-builtin
  """QR decompositions: `Qr(q, r)` with `input = q @ r`."""
  return Qr(*_qr(_matrix(input, "Qr", square=False), full_matrices=bool(full_matrices)))


@op(name="Svd")
def _svd(x, *, full_matrices, compute_uv):
  real = jnp.finfo(x.dtype).dtype  # singular values are real, as TF's wrapper returns them
  if not compute_uv:
    return jnp.linalg.svd(_up(x), compute_uv=False).astype(real)
  u, s, vh = jnp.linalg.svd(_up(x), full_matrices=full_matrices)
  return s.astype(real), u.astype(x.dtype), _adj(vh).astype(x.dtype)


@export("linalg.svd", "svd")
def svd(tensor, full_matrices=False, compute_uv=True, name=None):
  """Singular values `s`, and with `compute_uv` `(s, u, v)` with `tensor = u diag(s) v^H`."""
  x = _matrix(tensor, "Svd", square=False)
  out = _svd(x, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
  return tuple(out) if compute_uv else out


@op(name="SelfAdjointEigV2")
def _eigh(x, *, compute_v):
  v, w = grad_rules.eigh(_up(x))
  return (w.astype(x.dtype), v.astype(x.dtype)) if compute_v else w.astype(x.dtype)


@export("linalg.eigh", "self_adjoint_eig")
def self_adjoint_eig(tensor, name=None):
  """(eigenvalues ascending, eigenvectors) of Hermitian matrices (lower triangle read)."""
  return tuple(_eigh(_matrix(tensor, "SelfAdjointEigV2"), compute_v=True))


@export("linalg.eigvalsh", "self_adjoint_eigvals")
def self_adjoint_eigvals(tensor, name=None):
  """Ascending eigenvalues of Hermitian matrices (lower triangle read)."""
  return _eigh(_matrix(tensor, "SelfAdjointEigV2"), compute_v=False)


@op(name="MatrixExponential")
def _expm(x):
  return jax.scipy.linalg.expm(_up(x)).astype(x.dtype)


@export("linalg.expm")
def expm(input, name=None):  # pylint: disable=redefined-builtin
  """The matrix exponential of each square matrix in `input`."""
  return _expm(_matrix(input, "MatrixExponential"))


# ---- Solves ----
@op(name="MatrixSolve")
def _solve(a, b, *, adjoint):
  a = _adj(a) if adjoint else a
  return jnp.linalg.solve(_up(a), _up(b)).astype(b.dtype)


@export("linalg.solve", "matrix_solve")
def matrix_solve(matrix, rhs, adjoint=False, name=None):
  """Solves `matrix @ x = rhs` (or `adjoint(matrix) @ x = rhs`) for each batch member."""
  a, b = ops.convert_matching(matrix, rhs, op_name="MatrixSolve")
  a = _matrix(a, "MatrixSolve", square=False)
  a_shape, b_shape = a._shape_tuple(), b._shape_tuple()
  if len(a_shape) != len(b_shape):
    raise _invalid("All input tensors must have the same rank.", "MatrixSolve")
  if a_shape[:-2] != b_shape[:-2]:
    raise _invalid("All input tensors must have the same outer dimensions.", "MatrixSolve")
  if a_shape[-1] != a_shape[-2]:
    raise _invalid("First input (lhs) must be a square matrix.", "MatrixSolve")
  if a_shape[-1] != b_shape[-2]:
    raise _invalid("Input matrix and rhs are incompatible.", "MatrixSolve")
  return _require_finite(_solve(a, b, adjoint=bool(adjoint)),
                         "Input matrix is not invertible.", "MatrixSolve")


def _triangular_inputs(matrix, rhs, lower, adjoint):
  """TF's MatrixTriangularSolve checks (batch dimensions broadcast, as in TF 2)."""
  a, b = ops.convert_matching(matrix, rhs, op_name="MatrixTriangularSolve")
  a = _matrix(a, "MatrixTriangularSolve", square=False)
  a_shape, b_shape = a._shape_tuple(), b._shape_tuple()
  if len(b_shape) < 2:
    raise _invalid("In[1] ndims must be >= 2: %d" % len(b_shape), "MatrixTriangularSolve")
  if a_shape[-1] != a_shape[-2]:
    raise _invalid("In[0] matrices in the last dimensions must be square (%d =/= %d)"
                   % (a_shape[-1], a_shape[-2]), "MatrixTriangularSolve")
  if a_shape[-1] != b_shape[-2]:
    raise _invalid("In[0] mismatch In[1] shape: %d vs. %d: %s %s %d %d" % (
        a_shape[-1], b_shape[-2], _dims(a_shape), _dims(b_shape), bool(lower), bool(adjoint)),
                   "MatrixTriangularSolve")
  try:
    np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
  except ValueError:
    raise _invalid("Incompatible shapes: %s vs. %s" % (_dims(a_shape), _dims(b_shape)),
                   "MatrixTriangularSolve") from None
  return a, b


@op(name="MatrixTriangularSolve")
def _triangular_solve(a, b, *, lower, adjoint):
  return _tri_solve(_up(a), _up(b), lower, adjoint).astype(b.dtype)


@export("linalg.triangular_solve", "matrix_triangular_solve")
def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
  """Solves triangular systems; only the `lower` (or upper) triangle of `matrix` is read."""
  a, b = _triangular_inputs(matrix, rhs, lower, False)
  return _triangular_solve(a, b, lower=bool(lower), adjoint=bool(adjoint))


@op(name="CholeskySolve")
def _cholesky_solve(chol, rhs):
  return _chol_solve(_up(chol), _up(rhs)).astype(rhs.dtype)


@export("linalg.cholesky_solve", "cholesky_solve")
def cholesky_solve(chol, rhs, name=None):
  """Solves `A x = rhs` given `chol`, the lower Cholesky factor of `A`."""
  return _cholesky_solve(*_triangular_inputs(chol, rhs, True, False))


@op(name="MatrixSolveLs")
def _lstsq(a, b, l2, *, fast):
  dtype = b.dtype
  a, b = _up(a), _up(b)
  if not fast:  # TF's complete orthogonal decomposition: the minimum-norm solution
    return (jnp.linalg.pinv(a) @ b).astype(dtype)
  rows, cols = a.shape[-2:]
  if rows >= cols:  # normal equations of the first kind, as TF's fast path
    gram = _adj(a) @ a + l2 * jnp.eye(cols, dtype=a.dtype)
    chol = lax.linalg.cholesky(gram, symmetrize_input=False)
    return _chol_solve(chol, _adj(a) @ b).astype(dtype)
  gram = a @ _adj(a) + l2 * jnp.eye(rows, dtype=a.dtype)
  chol = lax.linalg.cholesky(gram, symmetrize_input=False)
  return (_adj(a) @ _chol_solve(chol, b)).astype(dtype)


@export("linalg.lstsq", "matrix_solve_ls")
def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
  """Least-squares solutions of `matrix @ x = rhs` (Cholesky of the regularized Gramian)."""
  a, b = ops.convert_matching(matrix, rhs, op_name="MatrixSolveLs")
  a = _matrix(a, "MatrixSolveLs", square=False)
  a_shape, b_shape = a._shape_tuple(), b._shape_tuple()
  if len(a_shape) != len(b_shape):
    raise _invalid("In[0] and In[1] has different ndims: %s vs. %s"
                   % (_dims(a_shape), _dims(b_shape)), "MatMul")
  if a_shape[:-2] != b_shape[:-2] or a_shape[-2] != b_shape[-2]:
    raise _invalid("Matrix size-incompatible: In[0]: %s, In[1]: %s"
                   % (_dims(a_shape), _dims(b_shape)), "MatMul")
  l2 = ops.convert_to_tensor(l2_regularizer, dtype=a.dtype)
  return _require_finite(_lstsq(a, b, l2, fast=bool(fast)), _CHOLESKY_FAILED, "Cholesky")


# ---- Norms and traces ----
_VECTOR_ORDS = ("euclidean", 1, 2, np.inf)
_MATRIX_ORDS = ["euclidean", "fro", 1, 2, np.inf]


def _is_int(value):
  try:
    operator.index(value)
  except TypeError:
    return False
  return not isinstance(value, bool)


@op(name="Norm")
def _norm(x, *, ord, axis, is_matrix, keepdims):  # pylint: disable=redefined-builtin
  if ord in ("fro", "euclidean", 2) and not (is_matrix and ord == 2):
    result = jnp.sqrt(jnp.sum(x * jnp.conj(x), axis=axis, keepdims=True, dtype=x.dtype))
  elif is_matrix and ord == 2:
    moved = jnp.moveaxis(_up(x), axis, (-2, -1))
    top = jnp.max(jnp.linalg.svd(moved, compute_uv=False), axis=-1)
    top = top.astype(jnp.finfo(x.dtype).dtype)
    result = jnp.expand_dims(top, sorted(a % x.ndim for a in axis))
  else:
    result = grad_rules.abs(x)
    if ord == 1:
      result = jnp.sum(result, axis=None if axis is None else axis[0], keepdims=True,
                       dtype=result.dtype)
      if is_matrix:
        result = jnp.max(result, axis=axis[1], keepdims=True)
    elif ord == np.inf:
      if is_matrix:
        result = jnp.sum(result, axis=axis[1], keepdims=True, dtype=result.dtype)
      result = jnp.max(result, axis=None if axis is None else axis[0], keepdims=True)
    else:
      total = jnp.sum(result ** jnp.asarray(ord, result.dtype), axis=axis, keepdims=True)
      result = total ** jnp.asarray(1.0 / ord, result.dtype)
  if not keepdims:
    result = jnp.squeeze(result, axis)
  return result


@export("linalg.norm", "norm")
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # pylint: disable=redefined-builtin
  """Vector norms (`axis` None or an int) and matrix norms (`axis` a pair of ints)."""
  if keep_dims is not None:
    if keepdims is not None:
      raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
    keepdims = keep_dims
  is_matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
  if is_matrix:
    axis = tuple(axis)
  axis_error = ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, "
                          "got %s" % (axis,))
  if is_matrix:
    if not (_is_int(axis[0]) and _is_int(axis[1])) or axis[0] == axis[1]:
      raise axis_error
    if isinstance(ord, bool) or ord not in _MATRIX_ORDS:
      raise ValueError("'ord' must be a supported matrix norm in %s, got %s"
                       % (_MATRIX_ORDS, ord))
    axis = (int(axis[0]), int(axis[1]))
  else:
    if not (axis is None or _is_int(axis)):
      raise axis_error
    positive = isinstance(ord, (int, float, np.number)) and not isinstance(ord, bool) and ord > 0
    if not positive and ord not in _VECTOR_ORDS:
      raise ValueError("'ord' must be a supported vector norm, got %s" % ord)
    axis = None if axis is None else (int(axis),)
  x = ops.convert_to_tensor(tensor)
  if x.dtype.is_integer and ord not in (1, np.inf):
    raise _invalid("Value for attr 'T' of %s is not in the list of allowed values: bfloat16, "
                   "half, float, double, complex64, complex128" % x.dtype.name,
                   "Sqrt" if ord in ("euclidean", "fro", 2) else "Pow")
  if axis is not None:
    rank = x.shape.ndims
    for a in axis:
      if not -rank <= a < rank:
        raise _invalid("Invalid reduction dimension %d for input with %d dimensions."
                       % (a, rank), "Sum")
  ord = ord if isinstance(ord, str) else float(ord)
  return _norm(x, ord=ord, axis=axis, is_matrix=is_matrix, keepdims=bool(keepdims))


@op(name="Trace")
def _trace(x):
  return jnp.trace(x, axis1=-2, axis2=-1, dtype=x.dtype)


@export("linalg.trace", "trace")
def trace(x, name=None):
  """The sum of the main diagonal of each (batched, possibly non-square) matrix."""
  x = ops.convert_to_tensor(x)
  _at_least_2d(x, "MatrixDiagPartV3")
  return _trace(x)


# ---- Pseudo-inverse, rank, normalize ----
def _default_tolerance(x, singular_max):
  """TF's default cutoff: max(rows, cols) * eps (times the largest singular value)."""
  return max(x.shape[-2:]) * jnp.finfo(x.dtype).eps * singular_max


@op(name="Pinv")
def _pinv(x, rcond):
  u, s, vh = jnp.linalg.svd(x, full_matrices=False)
  cutoff = rcond[..., None] * jnp.max(s, axis=-1, keepdims=True)
  inverse = jnp.where(s > cutoff, 1 / jnp.where(s > cutoff, s, 1), 0).astype(x.dtype)
  return jnp.einsum("...ji,...j,...kj->...ik", vh.conj(), inverse, u.conj())


@export("linalg.pinv")
def pinv(a, rcond=None, validate_args=False, name=None):
  """`tf.linalg.pinv`: the Moore-Penrose pseudo-inverse, singular values under `rcond` times
  the largest cut (default: 10 * max(rows, cols) * eps, as TF)."""
  a = ops.convert_to_tensor(a)
  _at_least_2d(a, "Pinv", "a")
  if rcond is None:
    rcond = 10. * max(a._value.shape[-2:]) * np.finfo(a.dtype.as_numpy_dtype).eps
  rcond = ops.convert_to_tensor(rcond, a.dtype)
  return _pinv(a, ops.convert_to_tensor(jnp.broadcast_to(rcond._value, a._value.shape[:-2])))


@op(name="MatrixRank", differentiable=False)
def _matrix_rank(x, tol):
  s = jnp.linalg.svd(x, compute_uv=False)
  return jnp.sum(s > tol[..., None], axis=-1).astype(jnp.int32)


@export("linalg.matrix_rank")
def matrix_rank(a, tol=None, validate_args=False, name=None):
  """`tf.linalg.matrix_rank`: singular values above `tol` (default: the largest times
  max(rows, cols) * eps), as int32."""
  a = ops.convert_to_tensor(a)
  _at_least_2d(a, "MatrixRank", "a")
  if tol is None:
    largest = jnp.linalg.svd(a._value, compute_uv=False).max(axis=-1)
    tol = _default_tolerance(a._value, largest)
  tol = ops.convert_to_tensor(jnp.broadcast_to(ops.convert_to_tensor(tol, a.dtype)._value,
                                               a._value.shape[:-2]))
  return _matrix_rank(a, tol)


@export("linalg.normalize")
def normalize(tensor, ord="euclidean", axis=None, name=None):  # pylint: disable=redefined-builtin
  """`tf.linalg.normalize`: (tensor / its norm, the norm with the reduced axes kept)."""
  tensor = ops.convert_to_tensor(tensor)
  length = norm(tensor, ord=ord, axis=axis, keepdims=True)
  return tensor / length, length



# ---- LU ----
Lu = collections.namedtuple("Lu", ["lu", "p"])


@op(name="Lu", differentiable=False)  # TF registers no gradient for Lu
def _lu(x, *, index_dtype):
  lu, _, perm = lax.linalg.lu(x)
  return lu, perm.astype(index_dtype)


@export("linalg.lu")
def lu(input, output_idx_type=dtypes.int32, name=None):  # pylint: disable=redefined-builtin
  """`tf.linalg.lu`: (packed L and U with unit-diagonal L, row permutation p), P A = L U;
  InvalidArgumentError when a matrix is singular."""
  x = _matrix(ops.convert_to_tensor(input), "Lu")
  packed, perm = _lu(x, index_dtype=dtypes.as_dtype(output_idx_type).as_numpy_dtype)
  if not isinstance(packed._value, jax.core.Tracer):
    diagonal = jnp.diagonal(packed._value, axis1=-2, axis2=-1)
    if bool(jnp.any(diagonal == 0)):
      raise _invalid("Input is not invertible.", "Lu")
  return Lu(packed, perm)


def _lu_factors(lower_upper):
  eye = jnp.eye(lower_upper.shape[-1], dtype=lower_upper.dtype)
  return jnp.tril(lower_upper, -1) + eye, jnp.triu(lower_upper)


@op(name="LuReconstruct")
def _lu_reconstruct(lower_upper, perm):
  lower, upper = _lu_factors(lower_upper)
  product = lower @ upper
  inverse = jnp.argsort(perm, axis=-1)
  return jnp.take_along_axis(product, inverse[..., None], axis=-2)


@export("linalg.lu_reconstruct")
def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
  """The matrix `lu` factored: P^T L U."""
  return _lu_reconstruct(ops.convert_to_tensor(lower_upper), ops.convert_to_tensor(perm))


@op(name="LuSolve")
def _lu_solve(lower_upper, perm, rhs):
  lower, upper = _lu_factors(lower_upper)
  permuted = jnp.take_along_axis(rhs, jnp.broadcast_to(perm[..., None], perm.shape + (
      rhs.shape[-1],)), axis=-2)
  y = jax.scipy.linalg.solve_triangular(lower, permuted, lower=True, unit_diagonal=True)
  return jax.scipy.linalg.solve_triangular(upper, y, lower=False)


@export("linalg.lu_solve")
def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
  """The solution X of A X = rhs from `lu`'s factors of A."""
  lower_upper, rhs = ops.convert_matching(lower_upper, rhs, op_name="LuSolve")
  return _lu_solve(lower_upper, ops.convert_to_tensor(perm), rhs)


@export("linalg.lu_matrix_inverse")
def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
  """The inverse of A from `lu`'s factors of A."""
  lower_upper = ops.convert_to_tensor(lower_upper)
  shape = lower_upper._value.shape
  eye = jnp.broadcast_to(jnp.eye(shape[-1], dtype=lower_upper._value.dtype), shape)
  return lu_solve(lower_upper, perm, ops.convert_to_tensor(eye))
