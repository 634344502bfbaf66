"""`tf.linalg.sqrtm` / `tf.matrix_square_root`, `tf.linalg.logm`, `tf.linalg.tridiagonal_matmul`
and `tf.linalg.tridiagonal_solve`.

sqrtm and logm use JAX's Schur decomposition (CPU only in JAX). Real sqrtm is the real
principal square root, NaN where a negative real eigenvalue leaves none (as TF's real Schur
kernel gives). Tridiagonal solves run TF's elimination (partial pivoting or Thomas) as a
scan; like TF 1.15's CPU kernel, a singular system raises InvalidArgumentError on eager
inputs (under tracing the result is NaN).
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.ops import array_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops.linalg_ops import _invalid, _matrix
from tfe_compat.ops.linalg_structure_ops import matrix_transpose
from tfe_compat.ops.math_ops import tf_type_name


def _batched(fn, x):
  """`fn` (square matrix -> same shape) over the matrices [..., n, n] of `x`."""
  if x.shape[-1] == 0:
    return x
  return jax.vmap(fn)(x.reshape((-1,) + x.shape[-2:])).reshape(x.shape)


# ---- sqrtm ----
def _real_sqrtm(a):
  """The real principal square root of real `a`: NaN everywhere if `a` has a negative real
  eigenvalue (its principal root is then complex)."""
  root = jax.scipy.linalg.sqrtm(a)
  tolerance = 1000 * jnp.finfo(a.dtype).eps * jnp.maximum(jnp.max(jnp.abs(root)), 1)
  return jnp.where(jnp.max(jnp.abs(root.imag)) > tolerance, jnp.nan, root.real).astype(a.dtype)


def _sqrtm_gradient(root, grad):
  """TF's MatrixSquareRoot gradient: solves the Sylvester equation R dR + dR R = dA through
  its Kronecker form."""
  n = root.shape[-1]
  eye = jnp.eye(n, dtype=root.dtype)
  kron = jnp.kron(eye, root.T) + jnp.kron(root, eye)
  solution = jnp.linalg.solve(kron, grad.T.reshape(n * n, 1))
  return solution.reshape(n, n).T


@jax.custom_vjp
def _sqrtm_one(a):
  if jnp.iscomplexobj(a):
    return jax.scipy.linalg.sqrtm(a).astype(a.dtype)
  return _real_sqrtm(a)


def _sqrtm_forward(a):
  root = _sqrtm_one(a)
  return root, root


def _sqrtm_backward(root, cotangent):
  # TF's formula, in JAX's convention for complex values (the tape conjugates around it).
  return (jnp.conj(_sqrtm_gradient(root, jnp.conj(cotangent))),)


_sqrtm_one.defvjp(_sqrtm_forward, _sqrtm_backward)


@op(name="MatrixSquareRoot")
def _sqrtm(x):
  return _batched(_sqrtm_one, x)


@export("linalg.sqrtm", "matrix_square_root")
def matrix_square_root(input, name=None):  # pylint: disable=redefined-builtin
  """The principal square root of each square matrix in `input` (real for real inputs)."""
  x = _matrix(input, "MatrixSquareRoot")
  if x.dtype is dtypes.float16:
    raise errors.NotFoundError(None, None, "Could not find device for node: {{node "
                               "MatrixSquareRoot}} = MatrixSquareRoot[T=DT_HALF]")
  return _sqrtm(x)


# ---- logm ----
_PADE_NODES, _PADE_WEIGHTS = np.polynomial.legendre.leggauss(13)


def _logm_one(a):
  """Inverse scaling and squaring: square roots until A^(1/2^k) is within 0.25 of I, then
  log(I + Y) by the 13-point Gauss-Legendre Pade approximant, times 2^k."""
  eye = jnp.eye(a.shape[-1], dtype=a.dtype)

  def far_from_identity(state):
    k, x = state
    return (k < 64) & (jnp.max(jnp.sum(jnp.abs(x - eye), axis=0)) > 0.25)

  def square_root(state):
    k, x = state
    return k + 1, jax.scipy.linalg.sqrtm(x).astype(a.dtype)

  k, x = lax.while_loop(far_from_identity, square_root, (0, a))
  y = x - eye
  log = sum(w / 2 * jnp.linalg.solve(eye + (t + 1) / 2 * y, y)
            for t, w in zip(_PADE_NODES, _PADE_WEIGHTS))
  return log * (2.0 ** k).astype(a.real.dtype)


@jax.custom_vjp
def _logm_all(x):
  wide = x.astype(jnp.complex128)  # square roots lose precision; complex64 runs in complex128
  return _batched(_logm_one, wide).astype(x.dtype)


def _no_logm_gradient(*_):
  raise LookupError("gradient registry has no entry for: MatrixLogarithm")


_logm_all.defvjp(lambda x: (_logm_all(x), None), _no_logm_gradient)


@op(name="MatrixLogarithm")
def _logm(x):
  return _logm_all(x)


@export("linalg.logm")
def logm(input, name=None):  # pylint: disable=redefined-builtin
  """The principal logarithm of each square complex matrix in `input`."""
  x = ops.convert_to_tensor(input)
  if not x.dtype.is_complex:
    raise _invalid("Value for attr 'T' of %s is not in the list of allowed values: complex64, "
                   "complex128" % tf_type_name(x.dtype), "MatrixLogarithm")
  return _logm(_matrix(x, "MatrixLogarithm"))


# ---- tridiagonal matmul ----
_TRIDIAGONAL_DTYPES = (dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128)


def _check_tridiagonal_dtype(tensor, op_name):
  if tensor.dtype not in _TRIDIAGONAL_DTYPES:
    raise _invalid("Value for attr 'T' of %s is not in the list of allowed values: double, "
                   "float, complex64, complex128" % tf_type_name(tensor.dtype), op_name)


@op(name="TridiagonalMatMul")
def _tridiagonal_matmul(superdiag, maindiag, subdiag, rhs):
  """TF's kernel order: main * rhs, then + sub * previous row, then + super * next row."""
  out = maindiag[..., :, None] * rhs
  out = out.at[..., 1:, :].add(subdiag[..., 1:, None] * rhs[..., :-1, :])
  return out.at[..., :-1, :].add(superdiag[..., :-1, None] * rhs[..., 1:, :])


def _matrix_diagonals(matrix):
  """(superdiagonal, diagonal, subdiagonal) of [..., M, M] matrices, each [..., M] (the
  ignored ends hold the diagonal's first element, as TF's gather of a dummy index does)."""
  matrix = ops.convert_to_tensor(matrix)
  m1, m2 = matrix.shape.as_list()[-2:]
  if m1 != m2:
    raise ValueError("Expected last two dimensions of diagonals to be same, got %d and %d"
                     % (m2, m1))
  rows, dummy = np.arange(m1), np.zeros(1, np.int64)
  return (_entries(matrix, np.concatenate([rows[:-1], dummy]), np.concatenate([rows[1:], dummy])),
          _entries(matrix, rows, rows),
          _entries(matrix, np.concatenate([dummy, rows[1:]]), np.concatenate([dummy, rows[:-1]])))


@op(name="GatherNd")
def _entries_impl(matrix, rows, cols):
  return matrix[..., rows, cols]


def _entries(matrix, rows, cols):
  """matrix[..., rows[i], cols[i]] for each i: [..., len(rows)]."""
  return _entries_impl(matrix, ops.convert_to_tensor(rows), ops.convert_to_tensor(cols))


@export("linalg.tridiagonal_matmul")
def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
  """The product of tridiagonal matrices (given by their three diagonals) and `rhs`
  [..., M, N]."""
  if diagonals_format == "compact":
    diagonals = ops.convert_to_tensor(diagonals)
    superdiag, maindiag, subdiag = (diagonals[..., i, :] for i in range(3))
  elif diagonals_format == "sequence":
    superdiag, maindiag, subdiag = (ops.convert_to_tensor(d) for d in diagonals)
  elif diagonals_format == "matrix":
    superdiag, maindiag, subdiag = _matrix_diagonals(diagonals)
  else:
    raise ValueError("Unrecognized diagonals_format: %s" % diagonals_format)
  superdiag, maindiag, subdiag, rhs = ops.convert_matching(
      superdiag, maindiag, subdiag, rhs, op_name="TridiagonalMatMul")
  _check_tridiagonal_dtype(rhs, "TridiagonalMatMul")
  if rhs.shape.ndims != superdiag.shape.ndims + 1:
    raise _invalid("All input tensors must have the same rank.", "TridiagonalMatMul")
  m = rhs.shape.as_list()[-2]
  for what, diagonal in (("superdiagonal", superdiag), ("main diagonal", maindiag),
                         ("subdiagonal", subdiag)):
    if diagonal.shape.as_list()[-1] != m:
      raise _invalid("Invalid %s shape." % what, "TridiagonalMatMul")
  return _tridiagonal_matmul(superdiag, maindiag, subdiag, rhs)


# ---- tridiagonal solve ----
def _pivoting_solve(superdiag, diag, subdiag, rhs):
  """TF's Gaussian elimination with partial pivoting on one system: (x, failed)."""
  def eliminate(carry, row):
    u0, u1, x, failed = carry
    sup, d, sub, b = row
    keep = jnp.abs(u0) >= jnp.abs(sub)
    failed = failed | (keep & (u0 == 0))
    f_keep = sub / jnp.where(keep & (u0 != 0), u0, 1)
    f_swap = u0 / jnp.where(keep, 1, sub)
    out = (jnp.where(keep, u0, sub), jnp.where(keep, u1, d), jnp.where(keep, 0, sup),
           jnp.where(keep, x, b))
    carry = (jnp.where(keep, d - f_keep * u1, u1 - f_swap * d),
             jnp.where(keep, sup, -f_swap * sup),
             jnp.where(keep, b - f_keep * x, x - f_swap * b), failed)
    return carry, out

  rows = (superdiag[1:], diag[1:], subdiag[1:], rhs[1:])
  (u0, u1, x, failed), (us0, us1, us2, xs) = lax.scan(
      eliminate, (diag[0], superdiag[0], rhs[0], jnp.array(False)), rows)
  failed = failed | (u0 == 0)
  us0, us1 = jnp.concatenate([us0, u0[None]]), jnp.concatenate([us1, u1[None]])
  us2, xs = jnp.concatenate([us2, jnp.zeros_like(u0)[None]]), jnp.concatenate([xs, x[None]])

  def substitute(carry, row):
    x1, x2 = carry
    a0, a1, a2, b = row
    x0 = (b - a1 * x1 - a2 * x2) / a0
    return (x0, x1), x0

  _, solution = lax.scan(substitute, (jnp.zeros_like(x), jnp.zeros_like(x)),
                         (us0, us1, us2, xs), reverse=True)
  return solution, failed


def _thomas_solve(superdiag, diag, subdiag, rhs):
  """TF's Thomas algorithm (no pivoting) on one system: (x, failed)."""
  def forward(carry, row):
    u, x, failed = carry
    sup, d, sub, b = row
    denom = d - sub * u
    failed = failed | (denom == 0)
    denom = jnp.where(denom == 0, 1, denom)
    u, x = sup / denom, (b - sub * x) / denom
    return (u, x, failed), (u, x)

  first = jnp.where(diag[0] == 0, 1, diag[0])
  start = (superdiag[0] / first, rhs[0] / first, diag[0] == 0)
  (_, _, failed), (us, xs) = lax.scan(forward, start,
                                      (superdiag[1:], diag[1:], subdiag[1:], rhs[1:]))
  us, xs = jnp.concatenate([start[0][None], us]), jnp.concatenate([start[1][None], xs])

  def backward(x_next, row):
    u, x = row
    x = x - u * x_next
    return x, x

  _, solution = lax.scan(backward, xs[-1], (us[:-1], xs[:-1]), reverse=True)
  return jnp.concatenate([solution, xs[-1:]]), failed


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _solve_systems(diagonals, rhs, partial_pivoting):
  """(solutions, failed) of the systems [..., 3, M] x = rhs [..., M, K]."""
  n = rhs.shape[-2]
  flat_diagonals = diagonals.reshape((-1, 3, n))
  flat_rhs = rhs.reshape((-1,) + rhs.shape[-2:])
  if n == 1:
    failed = flat_diagonals[:, 1, 0] == 0
    solution = flat_rhs / flat_diagonals[:, 1, :, None]
  else:
    solve = _pivoting_solve if partial_pivoting else _thomas_solve
    solution, failed = jax.vmap(lambda d, b: solve(d[0], d[1], d[2], b))(flat_diagonals,
                                                                        flat_rhs)
  solution = jnp.where(failed[:, None, None], jnp.nan, solution)
  return solution.reshape(rhs.shape), failed.reshape(rhs.shape[:-2])


def _solve_forward(diagonals, rhs, partial_pivoting):
  solution, failed = _solve_systems(diagonals, rhs, partial_pivoting)
  return (solution, failed), (diagonals, solution)


def _solve_backward(partial_pivoting, residuals, cotangents):
  """TF's TridiagonalSolve gradient (a solve with the transposed matrix), in JAX's
  convention for complex values (the tape conjugates around it)."""
  diagonals, x = residuals
  grad = jnp.conj(cotangents[0])
  zeros = jnp.zeros_like(diagonals[..., 1, :1])
  transposed = jnp.stack([jnp.concatenate([diagonals[..., 2, 1:], zeros], -1), diagonals[..., 1, :],
                          jnp.concatenate([zeros, diagonals[..., 0, :-1]], -1)], -2)
  grad_rhs = _solve_systems(transposed, grad, partial_pivoting)[0]
  zero_row = jnp.zeros_like(x[..., :1, :])
  grad_diagonals = -jnp.stack([
      jnp.sum(grad_rhs * jnp.concatenate([x[..., 1:, :], zero_row], -2), -1),
      jnp.sum(grad_rhs * x, -1),
      jnp.sum(grad_rhs * jnp.concatenate([zero_row, x[..., :-1, :]], -2), -1)], -2)
  return jnp.conj(grad_diagonals), jnp.conj(grad_rhs)


_solve_systems.defvjp(_solve_forward, _solve_backward)


@op(name="TridiagonalSolve")
def _tridiagonal_solve(diagonals, rhs, *, partial_pivoting):
  return _solve_systems(diagonals, rhs, partial_pivoting)


def _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting):
  """TF's _tridiagonal_solve_compact_format."""
  diagonals, rhs = ops.convert_matching(diagonals, rhs, op_name="TridiagonalSolve")
  diags_rank, rhs_rank = diagonals.shape.ndims, rhs.shape.ndims
  if diags_rank < 2:
    raise ValueError("Expected diagonals to have rank at least 2, got %d" % diags_rank)
  if rhs_rank not in (diags_rank, diags_rank - 1):
    raise ValueError("Expected the rank of rhs to be %d or %d, got %d"
                     % (diags_rank - 1, diags_rank, rhs_rank))
  if diagonals.shape[-2] != 3:
    raise ValueError("Expected 3 diagonals got %s" % diagonals.shape[-2])
  if not diagonals.shape[:-2].is_compatible_with(rhs.shape[:diags_rank - 2]):
    raise ValueError("Batch shapes %s and %s are incompatible"
                     % (diagonals.shape[:-2], rhs.shape[:diags_rank - 2]))
  _check_tridiagonal_dtype(rhs, "TridiagonalSolve")
  vector = rhs_rank == diags_rank - 1
  if vector:
    rhs = array_ops.expand_dims(math_ops.conj(rhs) if conjugate_rhs else rhs, -1)
  elif transpose_rhs:
    rhs = matrix_transpose(rhs, conjugate=conjugate_rhs)
  elif conjugate_rhs:
    rhs = math_ops.conj(rhs)
  if diagonals.shape[-1] != rhs.shape[-2]:
    raise ValueError("Expected number of left-hand sided and right-hand sides to be equal, got "
                     "%s and %s" % (diagonals.shape[-1], rhs.shape[-2]))
  solution, failed = _tridiagonal_solve(diagonals, rhs, partial_pivoting=bool(partial_pivoting))
  if not isinstance(failed._value, jax.core.Tracer) and bool(jnp.any(failed._value)):
    raise _invalid(_failure_message(diagonals, partial_pivoting), "TridiagonalSolve")
  if vector:
    return array_ops.squeeze(solution, -1)
  return matrix_transpose(solution) if transpose_rhs else solution


def _failure_message(diagonals, partial_pivoting):
  if diagonals.shape[-1] == 1:
    return "The matrix is not invertible: it is a scalar with value zero."
  if partial_pivoting:
    return "The matrix is not invertible."
  return ("The matrix is either not invertible, or requires pivoting. Try setting "
          "partial_pivoting = True.")


def _pad_diagonal(diagonal, m, what, padding):
  n = diagonal.shape.as_list()[-1]
  if n == m:
    return diagonal
  if n == m - 1:
    return array_ops.pad(diagonal, [[0, 0]] * (diagonal.shape.ndims - 1) + [padding])
  raise ValueError("Expected %s to be have length %d or %d, got %d." % (what, m, m - 1, n))


@export("linalg.tridiagonal_solve")
def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True):
  """Solves tridiagonal systems: `diagonals` as [..., 3, M] (compact), a (super, main, sub)
  sequence, or [..., M, M] matrices; `rhs` [..., M] or [..., M, K]."""
  if diagonals_format == "compact":
    diagonals = ops.convert_to_tensor(diagonals)
  elif diagonals_format == "sequence":
    if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
      raise ValueError("Expected diagonals to be a sequence of length 3.")
    superdiag, maindiag, subdiag = (ops.convert_to_tensor(d) for d in diagonals)
    if not (subdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1]) and
            superdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1])):
      raise ValueError("Tensors representing the three diagonals must have the same shape,"
                       "except for the last dimension, got {}, {}, {}".format(
                           subdiag.shape, maindiag.shape, superdiag.shape))
    m = maindiag.shape.as_list()[-1]
    subdiag = _pad_diagonal(subdiag, m, "subdiagonal", [1, 0])
    superdiag = _pad_diagonal(superdiag, m, "superdiagonal", [0, 1])
    diagonals = array_ops.stack([superdiag, maindiag, subdiag], axis=-2)
  elif diagonals_format == "matrix":
    diagonals = array_ops.stack(_matrix_diagonals(diagonals), axis=-2)
  else:
    raise ValueError("Unrecognized diagonals_format: {}".format(diagonals_format))
  return _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting)
