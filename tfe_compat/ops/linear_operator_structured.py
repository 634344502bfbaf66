"""Structured `tf.linalg.LinearOperator`s: Kronecker, BlockDiag, LowRankUpdate, Circulant,
Toeplitz, Householder. Each uses its structure where TF does (factorwise products, the
matrix determinant lemma and Woodbury identity, FFTs) and dense ops otherwise."""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops as A
from tfe_compat.ops import linalg_ops as LA
from tfe_compat.ops import linalg_structure_ops as LS
from tfe_compat.ops import math_ops as M
from tfe_compat.ops import matmul_cast_ops as MC
from tfe_compat.ops import reduction_ops as R
from tfe_compat.ops import slicing
from tfe_compat.ops import spectral_ops
from tfe_compat.ops.linear_operator import LinearOperator
from tfe_compat.ops.linear_operator import _adj
from tfe_compat.ops.linear_operator import _all_hint
from tfe_compat.ops.linear_operator import _broadcast_shapes
from tfe_compat.ops.linear_operator import _check_dtype
from tfe_compat.ops.linear_operator import _check_operators
from tfe_compat.ops.linear_operator import _real_to_dtype
from tfe_compat.ops.linear_operator_impls import LinearOperatorDiag
from tfe_compat.ops.linear_operator_impls import LinearOperatorIdentity


def _parents(operators):
  return [p for o in operators for p in o.graph_parents]


def _product_hint(operators, attr, given, what):
  return _all_hint(operators, attr, given,
                   "The Kronecker product of %s operators is always %s. Expected argument `%s` "
                   "to be True. Received: %s." % (what, what, attr, given))


@export("linalg.LinearOperatorKronecker")
class LinearOperatorKronecker(LinearOperator):
  """`A1 x A2 x ... x AJ` (Kronecker product), applied factor by factor."""

  def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name=None):
    if not list(operators):
      raise ValueError("Argument `operators` must be a list of >=1 operators. Received: [].")
    self._operators = _check_operators(operators, "%s")
    is_self_adjoint = _product_hint(self._operators, "is_self_adjoint", is_self_adjoint,
                                    "self-adjoint")
    is_positive_definite = _product_hint(self._operators, "is_positive_definite",
                                         is_positive_definite, "positive-definite")
    is_non_singular = _product_hint(self._operators, "is_non_singular", is_non_singular,
                                    "non-singular")
    super().__init__(self._operators[0].dtype, _parents(self._operators), is_non_singular,
                     is_self_adjoint, is_positive_definite, is_square,
                     name or "_x_".join(o.name for o in self._operators))

  operators = property(lambda self: self._operators)

  def _shape(self):
    batch = _broadcast_shapes(*[o.batch_shape for o in self._operators])
    rows = int(np.prod([o.range_dimension.value for o in self._operators]))
    cols = int(np.prod([o.domain_dimension.value for o in self._operators]))
    return batch.concatenate([rows, cols])

  def _apply(self, x, method, adjoint, pick_in, pick_out):
    """(A x B) X for one factor pair at a time: B acts on the trailing block dimension."""
    if len(self._operators) == 1:
      return getattr(self._operators[0], method)(x, adjoint=adjoint)
    first, rest = self._operators[0], LinearOperatorKronecker(self._operators[1:])
    d_first, d_rest = pick_in(first), pick_in(rest)
    batch, k = x.shape.as_list()[:-2], x.shape[-1]
    nb = len(batch)
    y = A.reshape(x, batch + [d_first, d_rest, k])
    y = A.transpose(y, list(range(nb)) + [nb + 1, nb, nb + 2])
    y = A.reshape(y, batch + [d_rest, d_first * k])
    y = rest._apply(y, method, adjoint, pick_in, pick_out)
    batch, r_rest = y.shape.as_list()[:-2], pick_out(rest)
    nb = len(batch)
    y = A.reshape(y, batch + [r_rest, d_first, k])
    y = A.transpose(y, list(range(nb)) + [nb + 1, nb, nb + 2])
    y = A.reshape(y, batch + [d_first, r_rest * k])
    y = getattr(first, method)(y, adjoint=adjoint)
    batch = y.shape.as_list()[:-2]
    return A.reshape(y, batch + [pick_out(first) * r_rest, k])

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    x = _adj(x) if adjoint_arg else x
    dom = (lambda o: o.range_dimension.value) if adjoint else (lambda o: o.domain_dimension.value)
    rng = (lambda o: o.domain_dimension.value) if adjoint else (lambda o: o.range_dimension.value)
    return self._apply(x, "matmul", adjoint, dom, rng)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    rhs = _adj(rhs) if adjoint_arg else rhs
    dim = lambda o: o.domain_dimension.value  # noqa: E731  square factors
    return self._apply(rhs, "solve", adjoint, dim, dim)

  def _exponent(self, operator):
    return float(self.domain_dimension.value // operator.domain_dimension.value)

  def _determinant(self):
    result = None
    for o in self._operators:
      term = o.determinant() ** MC.cast(self._exponent(o), o.dtype)
      result = term if result is None else result * term
    return result

  def _log_abs_determinant(self):
    result = None
    for o in self._operators:
      term = o.log_abs_determinant() * self._exponent(o)
      result = term if result is None else result + term
    return result

  def _trace(self):
    result = self._operators[0].trace()
    for o in self._operators[1:]:
      result = result * o.trace()
    return result

  def _diag_part(self):
    result = self._operators[0].diag_part()
    for o in self._operators[1:]:
      d = o.diag_part()
      outer = A.expand_dims(result, -1) * A.expand_dims(d, -2)
      result = A.reshape(outer, outer.shape.as_list()[:-2] + [-1])
    return result

  def _to_dense(self):
    result = self._operators[0].to_dense()
    for o in self._operators[1:]:
      d = o.to_dense()
      prod = (A.expand_dims(A.expand_dims(result, -1), -3) *
              A.expand_dims(A.expand_dims(d, -3), -2))  # [..., r1, r2, c1, c2]
      shape = prod.shape.as_list()
      result = A.reshape(prod, shape[:-4] + [shape[-4] * shape[-3], shape[-2] * shape[-1]])
    return result


@export("linalg.LinearOperatorBlockDiag")
class LinearOperatorBlockDiag(LinearOperator):
  """The direct sum `diag(A1, ..., AJ)`, applied block by block."""

  def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=True, name=None):
    self._operators = _check_operators(operators, "Expected a non-empty list of operators. "
                                       "Found: %s")
    is_self_adjoint = _all_hint(self._operators, "is_self_adjoint", is_self_adjoint,
                                "The direct sum of self-adjoint operators is always "
                                "self-adjoint.")
    is_positive_definite = _all_hint(self._operators, "is_positive_definite",
                                     is_positive_definite, "The direct sum of positive definite "
                                     "operators is always positive definite.")
    is_non_singular = _all_hint(self._operators, "is_non_singular", is_non_singular,
                                "The direct sum of non-singular operators is always "
                                "non-singular.")
    super().__init__(self._operators[0].dtype, _parents(self._operators), is_non_singular,
                     is_self_adjoint, is_positive_definite, is_square,
                     name or "_ds_".join(o.name for o in self._operators))

  operators = property(lambda self: self._operators)

  def _shape(self):
    batch = _broadcast_shapes(*[o.batch_shape for o in self._operators])
    return batch.concatenate([sum(o.range_dimension.value for o in self._operators),
                              sum(o.domain_dimension.value for o in self._operators)])

  def _blockwise(self, x, method, adjoint, sizes):
    parts = A.split(x, sizes, axis=-2)
    outs = [getattr(o, method)(p, adjoint=adjoint) for o, p in zip(self._operators, parts)]
    batch = _broadcast_shapes(*[o.shape[:-2] for o in outs]).as_list()
    outs = [o if o.shape.as_list()[:-2] == batch else
            o + A.zeros(batch + o.shape.as_list()[-2:], dtype=self.dtype) for o in outs]
    return A.concat(outs, axis=-2)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    x = _adj(x) if adjoint_arg else x
    sizes = [(o.range_dimension if adjoint else o.domain_dimension).value
             for o in self._operators]
    return self._blockwise(x, "matmul", adjoint, sizes)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    rhs = _adj(rhs) if adjoint_arg else rhs
    return self._blockwise(rhs, "solve", adjoint,
                           [o.domain_dimension.value for o in self._operators])

  def _determinant(self):
    result = self._operators[0].determinant()
    for o in self._operators[1:]:
      result = result * o.determinant()
    return result

  def _log_abs_determinant(self):
    result = self._operators[0].log_abs_determinant()
    for o in self._operators[1:]:
      result = result + o.log_abs_determinant()
    return result

  def _diag_part(self):
    parts = [o.diag_part() for o in self._operators]
    batch = _broadcast_shapes(*[p.shape[:-1] for p in parts]).as_list()
    parts = [p + A.zeros(batch + [p.shape[-1]], dtype=self.dtype) for p in parts]
    return A.concat(parts, axis=-1)

  def _to_dense(self):
    cols = self.domain_dimension.value
    batch = self.batch_shape.as_list()
    rows, start = [], 0
    for o in self._operators:
      d = o.to_dense()
      d = d + A.zeros(batch + d.shape.as_list()[-2:], dtype=self.dtype)
      width = o.domain_dimension.value
      rows.append(A.pad(d, [[0, 0]] * len(batch) + [[0, 0], [start, cols - start - width]]))
      start += width
    return A.concat(rows, axis=-2)


@export("linalg.LinearOperatorLowRankUpdate")
class LinearOperatorLowRankUpdate(LinearOperator):
  """`L + U D V^H`: solves by the Woodbury identity, determinants by the determinant lemma."""

  def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
               is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name="LinearOperatorLowRankUpdate"):
    dtype = base_operator.dtype
    if diag_update is None:
      if is_diag_update_positive is False:
        raise ValueError("Default diagonal is the identity, which is positive.  However, user "
                         "set 'is_diag_update_positive' to False.")
      is_diag_update_positive = True
    if v is None and base_operator.is_self_adjoint:
      if is_self_adjoint is False:
        raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H "
                         "is self-adjoint, this must be a self-adjoint operator.")
      is_self_adjoint = True
    self._use_cholesky = bool(base_operator.is_positive_definite and
                              base_operator.is_self_adjoint and is_diag_update_positive and
                              v is None)
    if self._use_cholesky:
      if is_positive_definite is False or is_self_adjoint is False or is_non_singular is False:
        raise ValueError("Arguments imply this is self-adjoint positive-definite operator.")
      is_positive_definite = is_self_adjoint = True
    self._base_operator = base_operator
    self._u = ops.convert_to_tensor(u, dtype=dtype)
    self._v = self._u if v is None else ops.convert_to_tensor(v, dtype=dtype)
    self._diag_update = (None if diag_update is None
                         else ops.convert_to_tensor(diag_update, dtype=dtype))
    self._is_diag_update_positive = is_diag_update_positive
    parents = [p for p in base_operator.graph_parents + [self._u, self._diag_update, self._v]
               if p is not None]
    super().__init__(dtype, parents, is_non_singular, is_self_adjoint, is_positive_definite,
                     is_square, name)
    rank = self._u.shape.dims[-1]
    if self._diag_update is None:
      self._diag_operator = LinearOperatorIdentity(rank.value, dtype=dtype)
      self._diag_inv_operator = self._diag_operator
    else:
      self._diag_operator = LinearOperatorDiag(self._diag_update, is_non_singular=True,
                                               is_self_adjoint=True,
                                               is_positive_definite=is_diag_update_positive)
      self._diag_inv_operator = LinearOperatorDiag(1. / self._diag_update, is_non_singular=True,
                                                   is_self_adjoint=True,
                                                   is_positive_definite=is_diag_update_positive)
      rank.assert_is_compatible_with(self._diag_update.shape[-1])
    base_operator.shape.dims[-2].assert_is_compatible_with(self._u.shape[-2])
    base_operator.shape.dims[-1].assert_is_compatible_with(self._v.shape[-2])
    rank.assert_is_compatible_with(self._v.shape[-1])

  base_operator = property(lambda self: self._base_operator)
  u = property(lambda self: self._u)
  v = property(lambda self: self._v)
  diag_update = property(lambda self: self._diag_update)
  diag_operator = property(lambda self: self._diag_operator)
  is_diag_update_positive = property(lambda self: self._is_diag_update_positive)

  def _capacitance(self):
    """C = D^{-1} + V^H L^{-1} U, computed on use so that tapes see u, v and the diagonal."""
    linv_u = self._base_operator.solve(self._u)
    return self._diag_inv_operator.add_to_tensor(MC.matmul(self._v, linv_u, adjoint_a=True))

  def _shape(self):
    batch = _broadcast_shapes(self._base_operator.batch_shape, self._u.shape[:-2])
    return batch.concatenate(self._base_operator.shape[-2:])

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    u, v = (self._v, self._u) if adjoint else (self._u, self._v)
    leading = self._base_operator.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
    vh_x = MC.matmul(v, x, adjoint_a=True, adjoint_b=adjoint_arg)
    return leading + MC.matmul(u, self._diag_operator.matmul(vh_x, adjoint=adjoint))

  def _determinant(self):
    if self.is_positive_definite:
      return M.exp(self.log_abs_determinant())
    return (LA.matrix_determinant(self._capacitance()) * self._diag_operator.determinant() *
            self._base_operator.determinant())

  def _log_abs_determinant(self):
    capacitance = self._capacitance()
    if self._use_cholesky:
      chol_diag = LS.matrix_diag_part(LA.cholesky(capacitance))
      log_abs_det_c = 2. * R.reduce_sum(M.log(chol_diag), axis=[-1])
    else:
      log_abs_det_c = M.log(M.abs(LA.matrix_determinant(capacitance)))
      if self.dtype.is_complex:
        log_abs_det_c = MC.cast(log_abs_det_c, self.dtype)
    return (log_abs_det_c + self._diag_operator.log_abs_determinant() +
            self._base_operator.log_abs_determinant())

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    if self._base_operator.is_non_singular is False:
      raise ValueError("Solve returns incorrect result when base_operator is singular.")
    base = self._base_operator
    u, v = (self._v, self._u) if adjoint else (self._u, self._v)
    linv_rhs = base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
    vh_linv_rhs = MC.matmul(v, linv_rhs, adjoint_a=True)
    capacitance = self._capacitance()
    if self._use_cholesky:
      capinv = LA.cholesky_solve(LA.cholesky(capacitance), vh_linv_rhs)
    else:
      capinv = LA.matrix_solve(capacitance, vh_linv_rhs, adjoint=adjoint)
    return linv_rhs - base.solve(MC.matmul(u, capinv), adjoint=adjoint)


def _circulant_spectrum(spectrum):
  spectrum = ops.convert_to_tensor(spectrum)
  if spectrum.dtype.is_integer:
    spectrum = MC.cast(spectrum, dtypes.float32)
  if spectrum.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64,
                            dtypes.complex128):
    raise TypeError("Argument `spectrum` must have dtype in [tf.float16, tf.float32, tf.float64,"
                    " tf.complex64, tf.complex128]. Received: %r." % spectrum.dtype)
  return spectrum


_FFTS = {1: (spectral_ops.fft, spectral_ops.ifft), 2: (spectral_ops.fft2d, spectral_ops.ifft2d),
         3: (spectral_ops.fft3d, spectral_ops.ifft3d)}


@export("linalg.LinearOperatorCirculant")
class LinearOperatorCirculant(LinearOperator):
  """A [batch] circulant matrix given by its spectrum (the FFT of its first column).

  The 2D / 3D subclasses are block circulant with circulant blocks: their spectrum's last
  `block_depth` dimensions are the block shape, and they act by 2-D / 3-D FFTs.
  """

  _block_depth = 1

  def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
               is_self_adjoint=None, is_positive_definite=None, is_square=True,
               name="LinearOperatorCirculant"):
    if is_square is False:
      raise ValueError("A [[nested] block] circulant operator is always square. Expected "
                       "argument `is_square` to be True. Received: False.")
    spectrum = _circulant_spectrum(spectrum)
    if spectrum.shape.ndims < self._block_depth:
      raise ValueError("Argument spectrum must have at least %d dimensions.  Found: %s"
                       % (self._block_depth, spectrum))
    if not spectrum.dtype.is_complex:
      if is_self_adjoint is False:
        raise ValueError("A real spectrum always corresponds to a self-adjoint operator.")
      is_self_adjoint = True
    complex_dtype = dtypes.complex128 if spectrum.dtype == dtypes.float64 else dtypes.complex64
    self._spectrum = (spectrum if spectrum.dtype.is_complex
                      else MC.cast(spectrum, complex_dtype))
    super().__init__(dtypes.as_dtype(input_output_dtype), [spectrum], is_non_singular,
                     is_self_adjoint, is_positive_definite, True, name)

  spectrum = property(lambda self: self._spectrum)
  block_depth = property(lambda self: self._block_depth)

  @property
  def block_shape(self):
    return self._spectrum.shape[-self._block_depth:]

  def block_shape_tensor(self):
    return A.shape(self._spectrum)[-self._block_depth:]

  def _block_axes(self):
    return list(range(-self._block_depth, 0))

  def _shape(self):
    n = self.block_shape.num_elements()
    return self._spectrum.shape[:-self._block_depth].concatenate([n, n])

  def _spec(self, adjoint):
    return M.conj(self._spectrum) if adjoint else self._spectrum

  def _apply(self, x, spectrum):
    """Columns of `x` [..., N, R] reshaped to the block shape, multiplied by `spectrum` in
    the frequency domain, and reshaped back."""
    fft, ifft = _FFTS[self._block_depth]
    x = LS.matrix_transpose(x)
    xc = x if x.dtype == self._spectrum.dtype else MC.cast(x, self._spectrum.dtype)
    leading = xc.shape.as_list()[:-1]
    blocks = A.reshape(xc, leading + self.block_shape.as_list())
    y = ifft(A.expand_dims(spectrum, -self._block_depth - 1) * fft(blocks))
    y = A.reshape(y, y.shape.as_list()[:-self._block_depth] + [-1])
    return _real_to_dtype(LS.matrix_transpose(y), self.dtype)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    x = _adj(x) if adjoint_arg else x
    return self._apply(x, self._spec(adjoint))

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    rhs = _adj(rhs) if adjoint_arg else rhs
    return self._apply(rhs, 1. / self._spec(adjoint))

  def _determinant(self):
    return _real_to_dtype(R.reduce_prod(self._spectrum, axis=self._block_axes()), self.dtype)

  def _log_abs_determinant(self):
    out = R.reduce_sum(M.log(M.abs(self._spectrum)), axis=self._block_axes())
    return MC.cast(out, self.dtype)

  def _trace(self):
    return _real_to_dtype(R.reduce_sum(self._spectrum, axis=self._block_axes()), self.dtype)

  def _diag_part(self):
    n = self.block_shape.num_elements()
    mean = R.reduce_mean(self._spectrum, axis=self._block_axes())
    return _real_to_dtype(A.expand_dims(mean, -1) * A.ones([n], dtype=self._spectrum.dtype),
                          self.dtype)

  def convolution_kernel(self, name="convolution_kernel"):
    return _real_to_dtype(_FFTS[self._block_depth][1](self._spectrum), self.dtype)


@export("linalg.LinearOperatorCirculant2D")
class LinearOperatorCirculant2D(LinearOperatorCirculant):
  """A [batch] block circulant matrix with circulant blocks; spectrum `[..., N0, N1]`."""

  _block_depth = 2

  def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
               is_self_adjoint=None, is_positive_definite=None, is_square=True,
               name="LinearOperatorCirculant2D"):
    super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                     is_positive_definite, is_square, name)


@export("linalg.LinearOperatorCirculant3D")
class LinearOperatorCirculant3D(LinearOperatorCirculant):
  """A [batch] nested block circulant matrix; spectrum `[..., N0, N1, N2]`."""

  _block_depth = 3

  def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
               is_self_adjoint=None, is_positive_definite=None, is_square=True,
               name="LinearOperatorCirculant3D"):
    super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                     is_positive_definite, is_square, name)


def _toeplitz_indices(n):
  return (np.arange(n)[:, None] - np.arange(n)[None, :] + n - 1).astype(np.int32)


@export("linalg.LinearOperatorToeplitz")
class LinearOperatorToeplitz(LinearOperator):
  """A [batch] Toeplitz matrix given by its first column and first row (row[0] is ignored)."""

  def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name="LinearOperatorToeplitz"):
    self._col = ops.convert_to_tensor(col)
    self._row = ops.convert_to_tensor(row, dtype=self._col.dtype)
    _check_dtype(self._col, "col")
    if self._col.shape.dims[-1].value != self._row.shape.dims[-1].value:
      raise ValueError("Expected square matrix, got row and col with mismatched dimensions.")
    if is_square is False:
      raise ValueError("Only square Toeplitz operators currently supported.")
    super().__init__(self._col.dtype, [self._col, self._row], is_non_singular, is_self_adjoint,
                     is_positive_definite, True, name)

  col = property(lambda self: self._col)
  row = property(lambda self: self._row)

  def _shape(self):
    batch = _broadcast_shapes(self._col.shape[:-1], self._row.shape[:-1])
    n = self._col.shape[-1]
    return batch.concatenate([n, n])

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return MC.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

  def _to_dense(self):
    batch = self.batch_shape.as_list()
    n = self._col.shape.dims[-1].value
    col = self._col + A.zeros(batch + [n], dtype=self.dtype)
    row = self._row + A.zeros(batch + [n], dtype=self.dtype)
    values = A.concat([A.reverse(row[..., 1:], [-1]), col], axis=-1)
    return slicing.gather(values, _toeplitz_indices(n), axis=len(batch))


@export("linalg.LinearOperatorHouseholder")
class LinearOperatorHouseholder(LinearOperator):
  """The reflection `I - 2 v v^H / (v^H v)` about the hyperplane orthogonal to `v`."""

  def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name="LinearOperatorHouseholder"):
    self._axis = ops.convert_to_tensor(reflection_axis)
    _check_dtype(self._axis, "reflection_axis")
    if is_self_adjoint is False:
      raise ValueError("A Householder operator is always self adjoint.")
    if is_positive_definite is True:
      raise ValueError("A Householder operator is always non-positive definite.")
    if is_square is False:
      raise ValueError("A Householder operator is always square.")
    super().__init__(self._axis.dtype, [self._axis], is_non_singular, True, False, True, name)

  reflection_axis = property(lambda self: self._axis)

  def _shape(self):
    n = self._axis.shape[-1]
    return self._axis.shape[:-1].concatenate([n, n])

  def _unit_axis(self):
    norm_sq = R.reduce_sum(M.conj(self._axis) * self._axis, axis=-1, keepdims=True)
    return self._axis / M.sqrt(norm_sq)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    x = _adj(x) if adjoint_arg else x
    v = A.expand_dims(self._unit_axis(), -1)
    return x - 2. * MC.matmul(v, MC.matmul(v, x, adjoint_a=True))

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _determinant(self):
    return -A.ones(self.batch_shape.as_list(), dtype=self.dtype)

  def _log_abs_determinant(self):
    return A.zeros(self.batch_shape.as_list(), dtype=self.dtype)

  def _trace(self):
    n = float(self.domain_dimension.value)
    return A.ones(self.batch_shape.as_list(), dtype=self.dtype) * (n - 2.)

  def _diag_part(self):
    v = self._unit_axis()
    return 1. - 2. * M.conj(v) * v

  def _to_dense(self):
    v = A.expand_dims(self._unit_axis(), -1)
    return A.eye(self.domain_dimension.value, dtype=self.dtype) - 2. * MC.matmul(
        v, v, adjoint_b=True)
