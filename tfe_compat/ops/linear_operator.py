"""`tf.linalg.LinearOperator` and the operators built from others (adjoint, inversion,
composition). Dense/diagonal/identity-like subclasses live in linear_operator_impls, the
structured ones (Kronecker, block-diagonal, low-rank update, circulant, ...) in
linear_operator_structured.

Everything is computed with tfe_compat's own (differentiable) ops, so gradients flow through
GradientTape. Hints, their consistency errors and shape checks follow TF.
"""
import abc

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops as A
from tfe_compat.ops import check_ops as C
from tfe_compat.ops import linalg_ops as LA
from tfe_compat.ops import linalg_structure_ops as LS
from tfe_compat.ops import manip_ops
from tfe_compat.ops import math_ops as M
from tfe_compat.ops import matmul_cast_ops as MC
from tfe_compat.ops import reduction_ops as R

_MATRIX_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64,
                  dtypes.complex128)


def _check_dtype(tensor, arg):
  if tensor.dtype not in _MATRIX_DTYPES:
    raise TypeError("Argument `%s` must have dtype in [tf.float16, tf.float32, tf.float64, "
                    "tf.complex64, tf.complex128]. Received: %r." % (arg, tensor.dtype))


def _adj(x):
  return LS.matrix_transpose(x, conjugate=True)


def _dim(value):
  return tensor_shape.Dimension(value)


def _broadcast_shapes(*shapes):
  return tensor_shape.TensorShape(np.broadcast_shapes(*[tuple(s.as_list()) for s in shapes]))


def _int_tensor(values):
  return ops.convert_to_tensor(list(values), dtype=dtypes.int32)


def _broadcast_batch(a, b):
  """Broadcasts the batch dimensions of two [batch] matrices against each other."""
  batch = _broadcast_shapes(a.shape[:-2], b.shape[:-2]).as_list()
  return tuple(t if t.shape.as_list()[:-2] == batch else
               manip_ops.broadcast_to(t, batch + t.shape.as_list()[-2:]) for t in (a, b))


def _real_to_dtype(x, dtype):
  """Casts a (possibly complex) result to `dtype`, keeping the real part for real dtypes."""
  if x.dtype.is_complex and not dtype.is_complex:
    x = M.real(x)
  return MC.cast(x, dtype) if x.dtype != dtype else x


@export("linalg.LinearOperator")
class LinearOperator(metaclass=abc.ABCMeta):
  """Base class: an [batch] matrix-like object, defined by how it acts (matmul)."""

  def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name=None):
    if is_positive_definite:
      if is_non_singular is False:
        raise ValueError("A positive definite matrix is always non-singular.")
      is_non_singular = True
    if is_non_singular:
      if is_square is False:
        raise ValueError("A non-singular matrix is always square.")
      is_square = True
    if is_self_adjoint:
      if is_square is False:
        raise ValueError("A self-adjoint matrix is always square.")
      is_square = True
    self._is_square_set_or_implied_by_hints = is_square
    self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
    self._graph_parents = list(graph_parents or [])
    self._is_non_singular = is_non_singular
    self._is_self_adjoint = is_self_adjoint
    self._is_positive_definite = is_positive_definite
    self._name = name or type(self).__name__

  # ---- properties ----
  dtype = property(lambda self: self._dtype)
  name = property(lambda self: self._name)
  graph_parents = property(lambda self: self._graph_parents)
  is_non_singular = property(lambda self: self._is_non_singular)
  is_self_adjoint = property(lambda self: self._is_self_adjoint)
  is_positive_definite = property(lambda self: self._is_positive_definite)

  @property
  def is_square(self):
    auto = self.domain_dimension.value == self.range_dimension.value
    if self._is_square_set_or_implied_by_hints is False and auto:
      raise ValueError("User set is_square hint to False, but the operator was square.")
    return auto if self._is_square_set_or_implied_by_hints is None else (
        self._is_square_set_or_implied_by_hints)

  @abc.abstractmethod
  def _shape(self):
    """Static TensorShape of the operator."""

  @abc.abstractmethod
  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    """The product of this operator with a dense [batch] matrix x."""

  @property
  def shape(self):
    return self._shape()

  def shape_tensor(self, name="shape_tensor"):
    return _int_tensor(self.shape.as_list())

  @property
  def batch_shape(self):
    return self.shape[:-2]

  def batch_shape_tensor(self, name="batch_shape_tensor"):
    return _int_tensor(self.batch_shape.as_list())

  @property
  def tensor_rank(self):
    return self.shape.ndims

  def tensor_rank_tensor(self, name="tensor_rank_tensor"):
    return ops.convert_to_tensor(self.tensor_rank, dtype=dtypes.int32)

  @property
  def domain_dimension(self):
    return _dim(self.shape[-1])

  def domain_dimension_tensor(self, name="domain_dimension_tensor"):
    return ops.convert_to_tensor(self.domain_dimension.value, dtype=dtypes.int32)

  @property
  def range_dimension(self):
    return _dim(self.shape[-2])

  def range_dimension_tensor(self, name="range_dimension_tensor"):
    return ops.convert_to_tensor(self.range_dimension.value, dtype=dtypes.int32)

  # ---- checks ----
  def _check_input_dtype(self, arg):
    if arg.dtype != self.dtype:
      raise TypeError("Expected argument to have dtype %s.  Found: %s in tensor %s"
                      % (self.dtype, arg.dtype, arg))

  def _convert(self, x):
    x = ops.convert_to_tensor(x)
    self._check_input_dtype(x)
    return x

  def _can_use_cholesky(self):
    return self.is_self_adjoint and self.is_positive_definite

  def _require_square(self, what):
    if self.is_square is False:
      raise NotImplementedError("%s not implemented for an operator that is expected to not "
                                "be square." % what)

  def _require_solvable(self):
    if self.is_non_singular is False:
      raise NotImplementedError("Exact solve not implemented for an operator that is expected "
                                "to be singular.")
    self._require_square("Exact solve")

  # ---- public API ----
  def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
    """`self @ x` (or with adjoints); x may itself be a LinearOperator."""
    if isinstance(x, LinearOperator):
      left = self.adjoint() if adjoint else self
      right = x.adjoint() if adjoint_arg else x
      left.domain_dimension.assert_is_compatible_with(right.range_dimension)
      return _compose(left, right)
    x = self._convert(x)
    self.shape.dims[-2 if adjoint else -1].assert_is_compatible_with(
        x.shape[-1 if adjoint_arg else -2])
    return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def __matmul__(self, other):
    return self.matmul(other)

  def matvec(self, x, adjoint=False, name="matvec"):
    x = self._convert(x)
    self.shape.dims[-2 if adjoint else -1].assert_is_compatible_with(x.shape[-1])
    return self._matvec(x, adjoint=adjoint)

  def _matvec(self, x, adjoint=False):
    return A.squeeze(self.matmul(A.expand_dims(x, -1), adjoint=adjoint), [-1])

  def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
    self._require_solvable()
    if isinstance(rhs, LinearOperator):
      left = self.adjoint() if adjoint else self
      right = rhs.adjoint() if adjoint_arg else rhs
      left.range_dimension.assert_is_compatible_with(right.range_dimension)
      return _compose(left.inverse(), right)
    rhs = self._convert(rhs)
    self.shape.dims[-1 if adjoint else -2].assert_is_compatible_with(
        rhs.shape[-1 if adjoint_arg else -2])
    return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    rhs = _adj(rhs) if adjoint_arg else rhs
    if self._can_use_cholesky():
      return LA.cholesky_solve(*_broadcast_batch(LA.cholesky(self.to_dense()), rhs))
    return LA.matrix_solve(*_broadcast_batch(self.to_dense(), rhs), adjoint=adjoint)

  def solvevec(self, rhs, adjoint=False, name="solve"):
    self._require_solvable()
    rhs = self._convert(rhs)
    self.shape.dims[-1 if adjoint else -2].assert_is_compatible_with(rhs.shape[-1])
    return self._solvevec(rhs, adjoint=adjoint)

  def _solvevec(self, rhs, adjoint=False):
    return A.squeeze(self.solve(A.expand_dims(rhs, -1), adjoint=adjoint), [-1])

  def determinant(self, name="det"):
    self._require_square("Determinant")
    return self._determinant()

  def _determinant(self):
    if self._can_use_cholesky():
      return M.exp(self.log_abs_determinant())
    return LA.matrix_determinant(self.to_dense())

  def log_abs_determinant(self, name="log_abs_det"):
    self._require_square("Determinant")
    return self._log_abs_determinant()

  def _log_abs_determinant(self):
    if self._can_use_cholesky():
      diag = LS.matrix_diag_part(LA.cholesky(self.to_dense()))
      return 2. * R.reduce_sum(M.log(diag), axis=[-1])
    return LA.slogdet(self.to_dense())[1]

  def to_dense(self, name="to_dense"):
    return self._to_dense()

  def _to_dense(self):
    eye = A.eye(self.domain_dimension.value, batch_shape=self.batch_shape.as_list(),
                dtype=self.dtype)
    return self.matmul(eye)

  def diag_part(self, name="diag_part"):
    return self._diag_part()

  def _diag_part(self):
    return LS.matrix_diag_part(self.to_dense())

  def trace(self, name="trace"):
    return self._trace()

  def _trace(self):
    return R.reduce_sum(self.diag_part(), axis=-1)

  def add_to_tensor(self, x, name="add_to_tensor"):
    x = self._convert(x)
    return self._add_to_tensor(x)

  def _add_to_tensor(self, x):
    return self.to_dense() + x

  def adjoint(self, name="adjoint"):
    if self.is_self_adjoint is True:
      return self
    return self._adjoint()

  def _adjoint(self):
    return LinearOperatorAdjoint(self)

  H = property(lambda self: self.adjoint())

  def inverse(self, name="inverse"):
    if self.is_square is False:
      raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
    if self.is_non_singular is False:
      raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
    return self._inverse()

  def _inverse(self):
    return LinearOperatorInversion(self)

  def cholesky(self, name="cholesky"):
    if not self._can_use_cholesky():
      raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self "
                       "adjoint matrix.")
    return self._cholesky()

  def _cholesky(self):
    return _impls.LinearOperatorLowerTriangular(LA.cholesky(self.to_dense()),
                                                is_non_singular=True, is_self_adjoint=False,
                                                is_square=True)

  def assert_non_singular(self, name="assert_non_singular"):
    return self._assert_non_singular()

  def _assert_non_singular(self):
    if self._can_use_cholesky():
      return self.assert_positive_definite()
    singular_values = LA.svd(self.to_dense(), compute_uv=False)
    cond = (R.reduce_max(singular_values, axis=-1) / R.reduce_min(singular_values, axis=-1))
    eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
    limit = 1. / (max(100., self.range_dimension.value * self.domain_dimension.value) * eps)
    return C.assert_less(cond, ops.convert_to_tensor(limit, dtype=cond.dtype),
                         message="Singular matrix up to precision epsilon.")

  def assert_positive_definite(self, name="assert_positive_definite"):
    return self._assert_positive_definite()

  def _assert_positive_definite(self):
    if self.is_self_adjoint:
      return C.assert_positive(LS.matrix_diag_part(LA.cholesky(self.to_dense())),
                               message="Matrix was not positive definite.")
    raise NotImplementedError("assert_positive_definite is not implemented.")

  def assert_self_adjoint(self, name="assert_self_adjoint"):
    return self._assert_self_adjoint()

  def _assert_self_adjoint(self):
    dense = self.to_dense()
    return C.assert_equal(dense, _adj(dense), message="Matrix was not equal to its adjoint.")


def _compose(left, right):
  if isinstance(left, _impls.LinearOperatorIdentity) and left._batch_shape_arg is None:
    return right
  if isinstance(right, _impls.LinearOperatorIdentity) and right._batch_shape_arg is None:
    return left
  if type(left) is _impls.LinearOperatorDiag and type(right) is _impls.LinearOperatorDiag:
    return _impls.LinearOperatorDiag(left.diag * right.diag,
                                     is_non_singular=_and(left.is_non_singular,
                                                          right.is_non_singular),
                                     is_positive_definite=_and(left.is_positive_definite,
                                                               right.is_positive_definite))
  return LinearOperatorComposition([left, right])


def _and(a, b):
  return True if (a and b) else None


def _matrix_arg(value, arg, min_rank=2):
  value = ops.convert_to_tensor(value)
  _check_dtype(value, arg)
  if value.shape.ndims < min_rank:
    raise ValueError("Argument `%s` must have at least %d dimensions. Received: %s."
                     % (arg, min_rank, value))
  return value


def _iff_hint(operator_hint, given, message):
  if operator_hint is not None and given is not None and operator_hint != given:
    raise ValueError(message)
  return operator_hint if given is None else given


@export("linalg.LinearOperatorAdjoint")
class LinearOperatorAdjoint(LinearOperator):
  """The adjoint (conjugate transpose) of another operator."""

  def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name=None):
    self._operator = operator
    msg = "An operator is %s if and only if its adjoint is %s."
    hints = [_iff_hint(getattr(operator, "is_" + attr), given, msg % (text, text))
             for attr, given, text in (("square", is_square, "square"),
                                       ("self_adjoint", is_self_adjoint, "self-adjoint"),
                                       ("non_singular", is_non_singular, "non-singular"),
                                       ("positive_definite", is_positive_definite,
                                        "positive-definite"))]
    super().__init__(operator.dtype, operator.graph_parents, hints[2], hints[1], hints[3],
                     hints[0], name or operator.name + "_adjoint")

  operator = property(lambda self: self._operator)

  def _shape(self):
    shape = self._operator.shape
    return shape[:-2].concatenate([shape[-1], shape[-2]])

  def _conj(self, x):
    return M.conj(x) if self.dtype.is_complex else x

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

  def _matvec(self, x, adjoint=False):
    return self._operator.matvec(x, adjoint=not adjoint)

  def _determinant(self):
    return self._conj(self._operator.determinant())

  def _log_abs_determinant(self):
    return self._operator.log_abs_determinant()

  def _trace(self):
    return self._conj(self._operator.trace())

  def _diag_part(self):
    return self._conj(self._operator.diag_part())

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

  def _solvevec(self, rhs, adjoint=False):
    return self._operator.solvevec(rhs, adjoint=not adjoint)

  def _to_dense(self):
    return _adj(self._operator.to_dense())

  def _adjoint(self):
    return self._operator


@export("linalg.LinearOperatorInversion")
class LinearOperatorInversion(LinearOperator):
  """The inverse of a square, non-singular operator (matmul solves, solve multiplies)."""

  def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name=None):
    self._operator = operator
    for attr, given in (("is_square", is_square), ("is_non_singular", is_non_singular)):
      op_hint = getattr(operator, attr)
      if op_hint is False or given is False:
        raise ValueError("Argument `{0}` or argument `operator` must have supplied hint `{0}` "
                         "equal to `True` or `None`. Found `operator.{0}`: {1}, `{0}`: {2}."
                         .format(attr, op_hint, given))
    msg = "An operator is %s if and only if its inverse is %s."
    is_self_adjoint = _iff_hint(operator.is_self_adjoint, is_self_adjoint,
                                msg % ("self-adjoint", "self-adjoint"))
    is_positive_definite = _iff_hint(operator.is_positive_definite, is_positive_definite,
                                     msg % ("positive-definite", "positive-definite"))
    super().__init__(operator.dtype, operator.graph_parents,
                     operator.is_non_singular or is_non_singular, is_self_adjoint,
                     is_positive_definite, operator.is_square or is_square,
                     name or operator.name + "_inv")

  operator = property(lambda self: self._operator)

  def _shape(self):
    return self._operator.shape

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _matvec(self, x, adjoint=False):
    return self._operator.solvevec(x, adjoint=adjoint)

  def _determinant(self):
    return 1. / self._operator.determinant()

  def _log_abs_determinant(self):
    return -1. * self._operator.log_abs_determinant()

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _solvevec(self, rhs, adjoint=False):
    return self._operator.matvec(rhs, adjoint=adjoint)

  def _inverse(self):
    return self._operator


def _check_operators(operators, empty_message):
  operators = list(operators)
  if not operators:
    raise ValueError(empty_message % (operators,))
  if len({o.dtype for o in operators}) > 1:
    raise TypeError("Expected all operators to have the same dtype.  Found %s"
                    % "   ".join(str((o.name, o.dtype)) for o in operators))
  return operators


def _all_hint(operators, attr, given, message):
  if all(getattr(o, attr) for o in operators):
    if given is False:
      raise ValueError(message)
    return True
  return given


@export("linalg.LinearOperatorComposition")
class LinearOperatorComposition(LinearOperator):
  """The product `A1 A2 ... AJ` of operators, applied right to left."""

  def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name=None):
    self._operators = _check_operators(operators, "Expected a non-empty list of operators. "
                                       "Found: %s")
    is_non_singular = _all_hint(self._operators, "is_non_singular", is_non_singular,
                                "The composition of non-singular operators is always "
                                "non-singular.")
    for left, right in zip(self._operators, self._operators[1:]):
      left.domain_dimension.assert_is_compatible_with(right.range_dimension)
    super().__init__(self._operators[0].dtype,
                     [p for o in self._operators for p in o.graph_parents], is_non_singular,
                     is_self_adjoint, is_positive_definite, is_square,
                     name or "_o_".join(o.name for o in self._operators))

  operators = property(lambda self: self._operators)

  def _shape(self):
    batch = _broadcast_shapes(*[o.batch_shape for o in self._operators])
    return batch.concatenate([self._operators[0].range_dimension,
                              self._operators[-1].domain_dimension])

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    order = self._operators if adjoint else self._operators[::-1]
    result = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
    for operator in order[1:]:
      result = operator.matmul(result, adjoint=adjoint)
    return result

  def _determinant(self):
    result = self._operators[0].determinant()
    for operator in self._operators[1:]:
      result = result * operator.determinant()
    return result

  def _log_abs_determinant(self):
    result = self._operators[0].log_abs_determinant()
    for operator in self._operators[1:]:
      result = result + operator.log_abs_determinant()
    return result

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    order = self._operators[::-1] if adjoint else self._operators
    result = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
    for operator in order[1:]:
      result = operator.solve(result, adjoint=adjoint)
    return result


# pylint: disable=wrong-import-position
from tfe_compat.ops import linear_operator_impls as _impls  # noqa: E402
from tfe_compat.ops import linear_operator_structured  # noqa: E402,F401
