"""Dense, diagonal, identity-like, triangular and zero `tf.linalg.LinearOperator`s."""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops as A
from tfe_compat.ops import check_ops as C
from tfe_compat.ops import linalg_ops as LA
from tfe_compat.ops import linalg_structure_ops as LS
from tfe_compat.ops import math_ops as M
from tfe_compat.ops import matmul_cast_ops as MC
from tfe_compat.ops import reduction_ops as R
from tfe_compat.ops.linear_operator import LinearOperator
from tfe_compat.ops.linear_operator import _adj
from tfe_compat.ops.linear_operator import _broadcast_shapes
from tfe_compat.ops.linear_operator import _check_dtype
from tfe_compat.ops.linear_operator import _matrix_arg

@export("linalg.LinearOperatorFullMatrix")
class LinearOperatorFullMatrix(LinearOperator):
  """A [batch] dense matrix."""

  def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name="LinearOperatorFullMatrix"):
    self._matrix = _matrix_arg(matrix, "matrix")
    super().__init__(self._matrix.dtype, [self._matrix], is_non_singular, is_self_adjoint,
                     is_positive_definite, is_square, name)

  def _shape(self):
    return self._matrix.shape

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return MC.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

  def _to_dense(self):
    return self._matrix


@export("linalg.LinearOperatorDiag")
class LinearOperatorDiag(LinearOperator):
  """A [batch] diagonal matrix: solves divide, determinants multiply the diagonal."""

  def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=True, name="LinearOperatorDiag"):
    self._diag = ops.convert_to_tensor(diag)
    _check_dtype(self._diag, "diag")
    if self._diag.shape.ndims < 1:
      raise ValueError("Argument diag must have at least 1 dimension.  Found: %s" % self._diag)
    if not self._diag.dtype.is_complex:
      if is_self_adjoint is False:
        raise ValueError("A real diagonal operator is always self adjoint.")
      is_self_adjoint = True
    if is_square is False:
      raise ValueError("Only square diagonal operators currently supported.")
    super().__init__(self._diag.dtype, [self._diag], is_non_singular, is_self_adjoint,
                     is_positive_definite, True, name)

  diag = property(lambda self: self._diag)

  def _shape(self):
    n = self._diag.shape[-1]
    return self._diag.shape[:-1].concatenate([n, n])

  def _term(self, adjoint):
    return M.conj(self._diag) if adjoint and self.dtype.is_complex else self._diag

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    x = _adj(x) if adjoint_arg else x
    return A.expand_dims(self._term(adjoint), -1) * x

  def _matvec(self, x, adjoint=False):
    return self._term(adjoint) * x

  def _determinant(self):
    return R.reduce_prod(self._diag, axis=[-1])

  def _log_abs_determinant(self):
    out = R.reduce_sum(M.log(M.abs(self._diag)), axis=[-1])
    return MC.cast(out, self.dtype) if self.dtype.is_complex else out

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    rhs = _adj(rhs) if adjoint_arg else rhs
    return rhs / A.expand_dims(self._term(adjoint), -1)

  def _solvevec(self, rhs, adjoint=False):
    return rhs / self._term(adjoint)

  def _to_dense(self):
    return LS.matrix_diag(self._diag)

  def _diag_part(self):
    return self._diag

  def _add_to_tensor(self, x):
    return LS.matrix_set_diag(x, LS.matrix_diag_part(x) + self._diag)

  def _adjoint(self):
    return LinearOperatorDiag(M.conj(self._diag), is_non_singular=self.is_non_singular,
                              is_self_adjoint=self.is_self_adjoint,
                              is_positive_definite=self.is_positive_definite)

  def _inverse(self):
    return LinearOperatorDiag(1. / self._diag, is_non_singular=self.is_non_singular,
                              is_self_adjoint=self.is_self_adjoint,
                              is_positive_definite=self.is_positive_definite)

  def _cholesky(self):
    return LinearOperatorDiag(M.sqrt(self._diag), is_non_singular=True, is_self_adjoint=True,
                              is_positive_definite=True)

  def _assert_non_singular(self):
    return C.assert_positive(M.abs(self._diag),
                             message="Singular operator:  Diagonal contained zero values.")

  def _assert_positive_definite(self):
    return C.assert_positive(M.real(self._diag) if self.dtype.is_complex else self._diag,
                             message="Diagonal operator had diagonal entries with non-positive "
                             "real part, thus was not positive definite.")

  def _assert_self_adjoint(self):
    imag = M.imag(self._diag) if self.dtype.is_complex else A.zeros_like(self._diag)
    return C.assert_equal(imag, A.zeros_like(imag), message="This diagonal operator contained "
                          "non-zero imaginary values.  Thus it was not self-adjoint.")


def _num_rows_arg(value, arg):
  tensor = ops.convert_to_tensor(value)
  if not tensor.dtype.is_integer:
    raise TypeError("Argument %s must be integer type.  Found: %s" % (arg, tensor))
  if tensor.shape.ndims != 0:
    raise ValueError("Argument %s must be a 0-D Tensor.  Found: %s" % (arg, value))
  value = int(tensor.numpy())
  if value < 0:
    raise ValueError("Argument %s must be non-negative.  Found: %s" % (arg, value))
  return value


def _batch_shape_arg(batch_shape):
  if batch_shape is None:
    return None
  values = [int(v) for v in np.asarray(ops.convert_to_tensor(batch_shape).numpy()).reshape(-1)]
  if any(v < 0 for v in values):
    raise ValueError("Argument batch_shape must be non-negative.  Found:%s" % values)
  return tuple(values)


class _BaseIdentity(LinearOperator):
  """Shared pieces of the identity-like operators."""

  def _broadcast_batch(self, x):
    if self._batch_shape_arg is None:
      return x
    special = list(self._batch_shape_arg) + [1, 1]
    target = np.broadcast_shapes(tuple(x.shape.as_list()), tuple(special))
    if tuple(x.shape.as_list()) == target:
      return x
    return x + A.zeros(special, dtype=self.dtype)


@export("linalg.LinearOperatorIdentity")
class LinearOperatorIdentity(_BaseIdentity):
  """The [batch] identity matrix."""

  def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
               is_self_adjoint=True, is_positive_definite=True, is_square=True,
               assert_proper_shapes=False, name="LinearOperatorIdentity"):
    for hint, text in ((is_self_adjoint, "self adjoint"), (is_non_singular, "non-singular"),
                       (is_positive_definite, "positive-definite"), (is_square, "square")):
      if not hint:
        raise ValueError("An identity operator is always %s." % text)
    self._num_rows = _num_rows_arg(num_rows, "num_rows")
    self._batch_shape_arg = _batch_shape_arg(batch_shape)
    super().__init__(dtype or dtypes.float32, [], True, True, True, True, name)

  def _shape(self):
    return tensor_shape.TensorShape(list(self._batch_shape_arg or ()) +
                                    [self._num_rows, self._num_rows])

  def _ones(self, extra=()):
    return A.ones(list(self._batch_shape_arg or ()) + list(extra), dtype=self.dtype)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return self._broadcast_batch(_adj(x) if adjoint_arg else x)

  def _determinant(self):
    return self._ones()

  def _log_abs_determinant(self):
    return A.zeros(list(self._batch_shape_arg or ()), dtype=self.dtype)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._matmul(rhs, adjoint_arg=adjoint_arg)

  def _trace(self):
    return self._ones() * float(self._num_rows)

  def _diag_part(self):
    return self._ones([self._num_rows])

  def _to_dense(self):
    return A.eye(self._num_rows, batch_shape=list(self._batch_shape_arg or ()) or None,
                 dtype=self.dtype)

  def _add_to_tensor(self, x):
    return LS.matrix_set_diag(x, LS.matrix_diag_part(x) + 1)

  def _inverse(self):
    return self

  def _cholesky(self):
    return self

  def _assert_non_singular(self):
    return None

  def _assert_positive_definite(self):
    return None

  def _assert_self_adjoint(self):
    return None


@export("linalg.LinearOperatorScaledIdentity")
class LinearOperatorScaledIdentity(_BaseIdentity):
  """`multiplier * I` with a [batch] scalar multiplier."""

  def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=True, assert_proper_shapes=False,
               name="LinearOperatorScaledIdentity"):
    if not is_square:
      raise ValueError("A ScaledIdentity operator is always square.")
    self._multiplier = ops.convert_to_tensor(multiplier)
    if not self._multiplier.dtype.is_complex:
      if is_self_adjoint is False:
        raise ValueError("A real diagonal operator is always self adjoint.")
      is_self_adjoint = True
    self._num_rows = _num_rows_arg(num_rows, "num_rows")
    self._batch_shape_arg = None
    super().__init__(self._multiplier.dtype, [self._multiplier], is_non_singular,
                     is_self_adjoint, is_positive_definite, True, name)

  multiplier = property(lambda self: self._multiplier)

  def _shape(self):
    return self._multiplier.shape.concatenate([self._num_rows, self._num_rows])

  def _mult(self, adjoint, extra=2):
    m = M.conj(self._multiplier) if adjoint and self.dtype.is_complex else self._multiplier
    return A.reshape(m, self._multiplier.shape.as_list() + [1] * extra)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return (_adj(x) if adjoint_arg else x) * self._mult(adjoint)

  def _matvec(self, x, adjoint=False):
    return x * self._mult(adjoint, 1)

  def _determinant(self):
    return self._multiplier ** self._num_rows

  def _log_abs_determinant(self):
    out = float(self._num_rows) * M.log(M.abs(self._multiplier))
    return MC.cast(out, self.dtype) if self.dtype.is_complex else out

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return (_adj(rhs) if adjoint_arg else rhs) / self._mult(adjoint)

  def _trace(self):
    return self._multiplier * float(self._num_rows)

  def _diag_part(self):
    return self._mult(False, 1) * A.ones([self._num_rows], dtype=self.dtype)

  def _to_dense(self):
    return self._mult(False) * A.eye(self._num_rows, dtype=self.dtype)

  def _add_to_tensor(self, x):
    return LS.matrix_set_diag(x, LS.matrix_diag_part(x) + self._mult(False, 1))

  def _cholesky(self):
    return LinearOperatorScaledIdentity(self._num_rows, M.sqrt(self._multiplier),
                                        is_non_singular=True, is_self_adjoint=True,
                                        is_positive_definite=True)

  def _inverse(self):
    return LinearOperatorScaledIdentity(self._num_rows, 1. / self._multiplier,
                                        is_non_singular=self.is_non_singular,
                                        is_self_adjoint=self.is_self_adjoint,
                                        is_positive_definite=self.is_positive_definite)


@export("linalg.LinearOperatorLowerTriangular")
class LinearOperatorLowerTriangular(LinearOperator):
  """A [batch] lower-triangular matrix (the strict upper triangle of `tril` is ignored)."""

  def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name="LinearOperatorLowerTriangular"):
    if is_square is False:
      raise ValueError("Only square lower triangular operators supported at this time.")
    self._tril = LS.matrix_band_part(_matrix_arg(tril, "tril"), -1, 0)
    self._diag = LS.matrix_diag_part(self._tril)
    super().__init__(self._tril.dtype, [self._tril], is_non_singular, is_self_adjoint,
                     is_positive_definite, True, name)

  def _shape(self):
    return self._tril.shape

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return MC.matmul(self._tril, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

  def _determinant(self):
    return R.reduce_prod(self._diag, axis=[-1])

  def _log_abs_determinant(self):
    out = R.reduce_sum(M.log(M.abs(self._diag)), axis=[-1])
    return MC.cast(out, self.dtype) if self.dtype.is_complex else out

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    rhs = _adj(rhs) if adjoint_arg else rhs
    return LA.matrix_triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

  def _to_dense(self):
    return self._tril

  def _diag_part(self):
    return self._diag

  def _assert_non_singular(self):
    return C.assert_positive(M.abs(self._diag),
                             message="Singular operator:  Diagonal contained zero values.")


@export("linalg.LinearOperatorZeros")
class LinearOperatorZeros(_BaseIdentity):
  """The [batch] zero matrix (possibly non-square)."""

  def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None,
               is_non_singular=False, is_self_adjoint=True, is_positive_definite=False,
               is_square=True, assert_proper_shapes=False, name="LinearOperatorZeros"):
    if not is_self_adjoint:
      raise ValueError("A zero operator is always self adjoint.")
    if is_non_singular:
      raise ValueError("A zero operator is always singular.")
    if is_positive_definite:
      raise ValueError("A zero operator is always not positive-definite.")
    self._num_rows = _num_rows_arg(num_rows, "num_rows")
    self._num_columns = (self._num_rows if num_columns is None
                         else _num_rows_arg(num_columns, "num_columns"))
    if is_square and self._num_rows != self._num_columns:
      raise ValueError("LinearOperatorZeros initialized as is_square=True, but got num_rows(%d)"
                       " != num_columns(%d)" % (self._num_rows, self._num_columns))
    self._batch_shape_arg = _batch_shape_arg(batch_shape)
    super().__init__(dtype or dtypes.float32, [], is_non_singular, is_self_adjoint,
                     is_positive_definite, is_square, name)

  def _shape(self):
    return tensor_shape.TensorShape(list(self._batch_shape_arg or ()) +
                                    [self._num_rows, self._num_columns])

  def _zeros(self, extra=()):
    return A.zeros(list(self._batch_shape_arg or ()) + list(extra), dtype=self.dtype)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    x = _adj(x) if adjoint_arg else x
    rows = self._num_columns if adjoint else self._num_rows
    batch = _broadcast_shapes(x.shape[:-2], self.batch_shape).as_list()
    return A.zeros(batch + [rows, x.shape[-1]], dtype=self.dtype)

  def _matvec(self, x, adjoint=False):
    rows = self._num_columns if adjoint else self._num_rows
    batch = _broadcast_shapes(x.shape[:-1], self.batch_shape).as_list()
    return A.zeros(batch + [rows], dtype=self.dtype)

  def _determinant(self):
    return self._zeros()

  def _log_abs_determinant(self):
    return M.log(self._zeros())

  def _trace(self):
    return self._zeros()

  def _diag_part(self):
    return self._zeros([min(self._num_rows, self._num_columns)])

  def _to_dense(self):
    return self._zeros([self._num_rows, self._num_columns])

  def _add_to_tensor(self, x):
    return self._broadcast_batch(x)

  def _assert_non_singular(self):
    raise errors.invalid_argument("Zero operators are always non-invertible.")

  def _assert_positive_definite(self):
    raise errors.invalid_argument("Zero operators are always non-positive definite.")

  def _assert_self_adjoint(self):
    return None
