"""tf.linalg.sqrtm / logm, tridiagonal_matmul / tridiagonal_solve, LinearOperatorCirculant2D /
3D, and the other TF 1.15 array/nn extras (extract_volume_patches, batch_scatter_update,
required_space_to_batch_paddings, nn.max_pool_with_argmax): golden values from TF 2.21's
tf.compat.v1 (eager, CPU); TF 1.15's behaviour where TF 2 changed it (noted)."""
import numpy as np
import pytest

import tfe_compat as tf

A = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]], np.float32)
W9 = np.arange(9, dtype=np.float32).reshape(3, 3)


def close(tensor, expected, dtype, rtol=1e-5, atol=1e-6):
  assert tensor.dtype.name == dtype
  np.testing.assert_allclose(tensor.numpy(), expected, rtol=rtol, atol=atol)


# ---- sqrtm / logm ----
def test_sqrtm():
  assert tf.matrix_square_root is tf.linalg.sqrtm
  close(tf.linalg.sqrtm(A), [[1.980710506439209, 0.27578186988830566, -0.02712365984916687],
                             [0.2757818102836609, 1.6778045892715454, 0.3300296664237976],
                             [-0.027123838663101196, 0.3300297260284424, 1.3748987913131714]],
        "float32")
  rotation = np.array([[0., -1.], [1., 0.]], np.float32)  # complex eigenvalues, real root
  close(tf.linalg.sqrtm(rotation), [[0.70710677, -0.70710677], [0.70710677, 0.70710677]],
        "float32")
  negative = tf.linalg.sqrtm(np.array([[-1., 0.], [0., 4.]], np.float32))
  assert np.isnan(negative.numpy()).all()  # no real root: TF's real Schur kernel gives NaN
  close(tf.linalg.sqrtm(np.array([[-1., 0.5], [0., 4.]], np.complex128)),
        [[1j, 0.2 - 0.1j], [0, 2]], "complex128")
  assert tf.linalg.sqrtm(np.zeros([2, 0, 0], np.float32)).shape == (2, 0, 0)


def test_sqrtm_gradient():
  x = tf.constant(A)
  with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(tf.linalg.sqrtm(x) * W9)
  close(tape.gradient(loss, x), [[-0.041869521141052246, 0.1823391318321228, 0.4973166584968567],
                                 [0.6254081130027771, 0.8292170166969299, 1.2312184572219849],
                                 [1.6004432439804077, 1.782781958580017, 2.5682575702667236]],
        "float32", rtol=1e-4)


def test_logm():
  close(tf.linalg.logm(A.astype(np.complex64)),
        [[1.3436301946640015, 0.3125953674316406, -0.06757749617099762],
         [0.31259533762931824, 0.9634570479393005, 0.447750449180603],
         [-0.06757746636867523, 0.4477503299713135, 0.5832841396331787]], "complex64", rtol=1e-4)
  matrix = np.array([[1., 2. + 1j], [0.5, 3.]], np.complex128)
  close(tf.linalg.logm(matrix),
        [[-0.25492011502828255 - 0.16844179415004615j, 1.1873472589381142 + 0.7085547859355921j],
         [0.308324930381182 + 0.02297623129330703j, 0.9783796064964452 - 0.07653686897681809j]],
        "complex128", rtol=1e-10, atol=1e-12)
  close(tf.linalg.logm(np.array([[-1., 0.], [0., 4.]], np.complex128)),
        [[np.pi * 1j, 0], [0, 1.3862943611198906]], "complex128", rtol=1e-12, atol=1e-12)
  jordan = tf.linalg.logm(np.array([[1., 1.], [0., 1.]], np.complex128))  # repeated eigenvalue
  close(jordan, [[0, 1], [0, 0]], "complex128", atol=1e-12)


def test_sqrtm_logm_errors():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"^Input matrix must be square. \[Op:MatrixSquareRoot\]$"):
    tf.linalg.sqrtm(np.zeros([2, 3], np.float32))
  with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank >= 2, got 1"):
    tf.linalg.sqrtm(np.zeros([3], np.float32))
  with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
    tf.linalg.sqrtm(np.eye(2, dtype=np.int32))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"^Value for attr 'T' of float is not in the list of allowed values: "
                           r"complex64, complex128 \[Op:MatrixLogarithm\]$"):
    tf.linalg.logm(A)
  x = tf.constant(A.astype(np.complex64))
  with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(tf.math.real(tf.linalg.logm(x)))
  with pytest.raises(LookupError, match="no entry for: MatrixLogarithm"):
    tape.gradient(loss, x)


# ---- tridiagonal ----
SUPER = np.array([1., 2., -1., 9.], np.float32)
MAIN = np.array([0.5, 3., 1., 2.], np.float32)
SUB = np.array([7., 1., 4., -2.], np.float32)
COMPACT = np.stack([SUPER, MAIN, SUB])
MATRIX = (np.diag(MAIN) + np.diag(SUPER[:-1], 1) + np.diag(SUB[1:], -1) +
          5 * np.eye(4, k=2, dtype=np.float32))  # entries off the three diagonals are ignored
RHS = np.arange(8, dtype=np.float32).reshape(4, 2) - 3
PRODUCT = [[-2.5, -1.0], [-4.0, 2.0], [-6.0, -2.0], [4.0, 4.0]]
SOLUTION = [[-7.25, -6.0], [0.625, 1.0], [2.1875, 1.5], [3.6875, 3.5]]


def test_tridiagonal_matmul():
  close(tf.linalg.tridiagonal_matmul(COMPACT, RHS), PRODUCT, "float32")
  close(tf.linalg.tridiagonal_matmul([SUPER, MAIN, SUB], RHS, diagonals_format="sequence"),
        PRODUCT, "float32")
  close(tf.linalg.tridiagonal_matmul(MATRIX, RHS, diagonals_format="matrix"), PRODUCT, "float32")
  with pytest.raises(ValueError, match="Unrecognized diagonals_format: xx"):
    tf.linalg.tridiagonal_matmul(COMPACT, RHS, diagonals_format="xx")
  with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid superdiagonal shape."):
    tf.linalg.tridiagonal_matmul(COMPACT, RHS[:3])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="All input tensors must have the same rank."):
    tf.linalg.tridiagonal_matmul(COMPACT, RHS[:, 0])


@pytest.mark.parametrize("pivoting", [True, False])
def test_tridiagonal_solve(pivoting):
  solve = tf.linalg.tridiagonal_solve
  close(solve(COMPACT, RHS, partial_pivoting=pivoting), SOLUTION, "float32")
  close(solve([SUPER[:-1], MAIN, SUB[1:]], RHS, diagonals_format="sequence",
              partial_pivoting=pivoting), SOLUTION, "float32")
  close(solve([SUPER, MAIN, SUB], RHS[:, 0], diagonals_format="sequence",
              partial_pivoting=pivoting), np.array(SOLUTION)[:, 0], "float32")
  close(solve(MATRIX, RHS, diagonals_format="matrix", partial_pivoting=pivoting), SOLUTION,
        "float32")
  batch = solve(np.stack([COMPACT, 2 * COMPACT]), np.stack([RHS, RHS]), partial_pivoting=pivoting)
  close(batch[1], np.array(SOLUTION) / 2, "float32")


def test_tridiagonal_solve_transpose_and_complex():
  # TF 1.15 returns the solution transposed back to the rhs's layout (TF 2 does not)
  close(tf.linalg.tridiagonal_solve(COMPACT, RHS.T, transpose_rhs=True), np.array(SOLUTION).T,
        "float32")
  diagonals = (COMPACT + 1j * np.stack([SUB, SUPER, MAIN])).astype(np.complex128)
  rhs = (np.arange(8).reshape(4, 2) + 2j).astype(np.complex128)
  d, r = tf.constant(diagonals), tf.constant(rhs)
  with tf.GradientTape() as tape:
    tape.watch([d, r])
    solution = tf.linalg.tridiagonal_solve(d, r)
    loss = tf.reduce_sum(tf.abs(solution))
  close(solution,
        [[0.27449129297697206 - 0.09022134336926746j, 0.31013586783185554 - 0.30643618039165677j],
         [0.24333737322191756 + 0.06725776615423873j, 0.2688014288448045 - 0.038527779549658706j],
         [0.45939911972954006 + 0.05945014990112929j, 0.5456401097148688 + 0.20418447407029428j],
         [0.2926625367248386 - 0.7169303850901845j, 0.3394481987475094 - 0.8689725300083675j]],
        "complex128", rtol=1e-12)
  # TF's gradient solves with the transposed (not conjugated) matrix
  grad_d, grad_r = tape.gradient(loss, [d, r])
  close(grad_d[0], [0.03276935473395722 + 0.07610583240070636j,
                    -0.01719410563008718 + 0.2655805779520971j,
                    -0.5904935331131285 - 0.25507466991539646j, 0], "complex128", rtol=1e-10)
  close(grad_r[:, 0], [-0.007388131464572318 - 0.1134720125437665j,
                       0.00958404169067233 - 0.27687919399720573j,
                       -0.02230576871906151 + 0.3163431180016534j,
                       -0.01694550221326497 - 0.18387740526080718j], "complex128", rtol=1e-10)


def test_tridiagonal_gradients():
  d, r = tf.constant(COMPACT), tf.constant(RHS)
  weights = np.arange(8, dtype=np.float32).reshape(4, 2)
  with tf.GradientTape(persistent=True) as tape:
    tape.watch([d, r])
    solved = tf.reduce_sum(tf.linalg.tridiagonal_solve(d, r) * weights)
    product = tf.reduce_sum(tf.linalg.tridiagonal_matmul(d, r) * weights)
  grad_d, grad_r = tape.gradient(solved, [d, r])
  close(grad_d, [[16.25, -19.9375, 7.140625, 0.0], [-132.5, -9.125, 3.515625, -19.7421875],
                 [0.0, 72.25, 1.71875, -10.0546875]], "float32")
  close(grad_r, [[-10.0, -10.0], [5.0, 6.0], [-0.75, -1.25], [2.625, 2.875]], "float32")
  grad_d, grad_r = tape.gradient(product, [d, r])
  close(grad_d, [[0, 8, 32, 0], [-2, -2, 14, 46], [0, -12, -4, 20]], "float32")
  close(grad_r, [[2.0, 3.5], [22.0, 30.0], [-4.0, -3.0], [8.0, 9.0]], "float32")


def test_tridiagonal_solve_errors():
  solve = tf.linalg.tridiagonal_solve
  for message, fn in [
      ("Expected the rank of rhs to be 1 or 2, got 3", lambda: solve(COMPACT, RHS[None])),
      ("Expected 3 diagonals got 2", lambda: solve(COMPACT[:2], RHS)),
      ("left-hand sided and right-hand sides to be equal, got 4 and 3",
       lambda: solve(COMPACT, RHS[:3])),
      ("Expected superdiagonal to be have length 4 or 3, got 2.",
       lambda: solve([SUPER[:2], MAIN, SUB], RHS, diagonals_format="sequence")),
      ("Unrecognized diagonals_format: x", lambda: solve(COMPACT, RHS, diagonals_format="x"))]:
    with pytest.raises(ValueError, match=message):
      fn()
  with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
    solve(COMPACT.astype(np.int32), RHS.astype(np.int32))
  # TF 1.15's CPU kernel rejects singular systems (TF 2 returns NaN)
  zeros, ones = np.zeros([3, 3], np.float32), np.ones([3, 1], np.float32)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"^The matrix is not invertible. \[Op:TridiagonalSolve\]$"):
    solve(zeros, ones)
  with pytest.raises(tf.errors.InvalidArgumentError, match="requires pivoting"):
    solve(np.stack([np.ones(3), np.zeros(3), np.ones(3)]).astype(np.float32), ones,
          partial_pivoting=False)
  with pytest.raises(tf.errors.InvalidArgumentError, match="it is a scalar with value zero"):
    solve(np.zeros([3, 1], np.float32), ones[:1])


# ---- LinearOperatorCirculant2D / 3D ----
def test_circulant_2d():
  spectrum = np.array([[6., 1.5], [-0.5, 2.]], np.float32)
  op = tf.linalg.LinearOperatorCirculant2D(spectrum)
  assert op.shape == (4, 4) and op.dtype == tf.complex64 and op.block_shape == (2, 2)
  assert op.block_depth == 2 and op.is_self_adjoint
  close(op.to_dense(), [[2.25, 0.5, 1.5, 1.75], [0.5, 2.25, 1.75, 1.5], [1.5, 1.75, 2.25, 0.5],
                        [1.75, 1.5, 0.5, 2.25]], "complex64")
  x = np.arange(8, dtype=np.complex64).reshape(4, 2)
  close(op.matmul(x), [[17.5, 23.5], [20.5, 26.5], [15.5, 21.5], [18.5, 24.5]], "complex64")
  close(op.solve(x), [[3.8333, 4], [5.1667, 5.3333], [-4.1667, -4], [-2.8333, -2.6667]],
        "complex64", rtol=1e-4)
  close(op.determinant(), -9, "complex64")
  close(op.log_abs_determinant(), 2.1972246, "complex64")
  close(op.trace(), 9, "complex64")
  close(op.diag_part(), [2.25] * 4, "complex64")
  close(op.convolution_kernel(), [[2.25, 0.5], [1.5, 1.75]], "complex64")
  batched = tf.linalg.LinearOperatorCirculant2D(
      np.ones([3, 2, 2], np.float32) * np.arange(1, 4, dtype=np.float32)[:, None, None],
      input_output_dtype=tf.float32)
  assert batched.shape == (3, 4, 4)
  close(batched.matvec(np.ones([4], np.float32)), [[1] * 4, [2] * 4, [3] * 4], "float32")


def test_circulant_3d():
  spectrum = (np.arange(1, 13).reshape(1, 2, 3, 2) * (1 + 0.5j)).astype(np.complex64)
  op = tf.linalg.LinearOperatorCirculant3D(spectrum, input_output_dtype=tf.complex64)
  assert op.shape == (1, 12, 12) and op.batch_shape == (1,) and op.block_shape == (2, 3, 2)
  x = (np.arange(24).reshape(12, 2) + 1j).astype(np.complex64)
  close(op.matmul(x, adjoint=True)[0, :2], [[-49.655 + 23.191j, -48.655 + 22.691j],
                                            [-45.655 + 21.191j, -44.655 + 20.691j]], "complex64",
        rtol=1e-4)
  close(op.solve(x)[0, 0], [7.3225 - 2.5073j, 8.1225 - 2.9073j], "complex64", rtol=1e-4)
  close(op.trace(), [78 + 39j], "complex64")
  close(op.to_dense()[0, 0, :3], [6.5 + 3.25j, -0.5 - 0.25j, -1.2887 + 0.0774j], "complex64",
        rtol=1e-3)
  with pytest.raises(ValueError, match="must have at least 3 dimensions"):
    tf.linalg.LinearOperatorCirculant3D(np.ones([2, 2], np.float32))


# ---- extract_volume_patches, batch_scatter_update, required_space_to_batch_paddings ----
VOLUME = np.arange(2 * 3 * 4 * 3 * 2, dtype=np.float32).reshape(2, 3, 4, 3, 2)


def test_extract_volume_patches():
  patches = tf.extract_volume_patches(VOLUME, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "VALID")
  assert patches.shape == (2, 2, 2, 2, 16)
  close(patches[1, 1, 1], [[108, 109, 110, 111, 114, 115, 116, 117, 132, 133, 134, 135, 138, 139,
                            140, 141],
                           [110, 111, 112, 113, 116, 117, 118, 119, 134, 135, 136, 137, 140, 141,
                            142, 143]], "float32")
  same = tf.extract_volume_patches(VOLUME, [1, 2, 3, 2, 1], [1, 2, 1, 2, 1], "SAME")
  assert same.shape == (2, 2, 4, 2, 24)
  close(same[0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 2, 3, 6, 7, 8, 9, 0, 0, 0, 0, 24, 25, 26, 27, 30, 31,
                           32, 33], "float32")
  assert float(tf.reduce_sum(same)) == 25740.0
  x = tf.constant(VOLUME)
  with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1],
                                                   "SAME") ** 2)
  close(tape.gradient(loss, x)[1, :, :, 1, 0], [[296, 320, 344, 368], [784, 832, 880, 928],
                                                [976, 1024, 1072, 1120]], "float32")
  with pytest.raises(tf.errors.UnimplementedError, match="Only support ksizes across space."):
    tf.extract_volume_patches(VOLUME, [2, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"input must be 5-dimensional\[3,4,3,2\]"):
    tf.extract_volume_patches(VOLUME[0], [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")


def test_batch_scatter_update():
  v = tf.Variable(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
  out = tf.batch_scatter_update(v, [[2, 0], [1, 1]], -np.ones([2, 2, 4], np.float32))
  assert out is v
  close(v, [[[-1] * 4, [4, 5, 6, 7], [-1] * 4], [[12, 13, 14, 15], [-1] * 4, [20, 21, 22, 23]]],
        "float32")
  w = tf.Variable(np.arange(6, dtype=np.int32).reshape(2, 3))
  tf.batch_scatter_update(w, tf.constant([[2], [0]], tf.int64), [[70], [80]])
  assert w.numpy().tolist() == [[0, 1, 70], [80, 4, 5]]
  w.batch_scatter_update(tf.IndexedSlices(tf.constant([[9], [8]]), tf.constant([[0], [1]])))
  assert w.numpy().tolist() == [[9, 1, 70], [80, 8, 5]]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"indices\[0\] = \[5\] does not index into shape \[3\]"):
    tf.batch_scatter_update(tf.Variable([1., 2., 3.]), [5], [9.])


def test_required_space_to_batch_paddings():
  for args, paddings, crops in [
      (([5, 7], [2, 3]), [[0, 1], [0, 2]], [[0, 1], [0, 2]]),
      (([5, 7], [2, 3], [[1, 0], [2, 2]]), [[1, 0], [2, 3]], [[0, 0], [0, 1]]),
      ((tf.constant([5, 7]), tf.constant([4, 4])), [[0, 3], [0, 1]], [[0, 3], [0, 1]])]:
    out_paddings, out_crops = tf.required_space_to_batch_paddings(*args)
    assert out_paddings.dtype == out_crops.dtype == tf.int32
    assert out_paddings.numpy().tolist() == paddings and out_crops.numpy().tolist() == crops
  with pytest.raises(ValueError, match="must have rank 1"):
    tf.required_space_to_batch_paddings([5, 7], [[2, 3]])
  with pytest.raises(ValueError, match="are incompatible"):
    tf.required_space_to_batch_paddings([5, 7, 1], [2, 3])


# ---- max_pool_with_argmax ----
def _pool_input():
  x = np.random.RandomState(0).randint(0, 6, size=(2, 5, 4, 2)).astype(np.float32)
  x[0, 0, 0, 0] = np.nan  # first in its window: kept; elsewhere NaN never wins
  x[1, 2, 1, 1] = np.nan
  return x


def test_max_pool_with_argmax():
  x = _pool_input()
  out, argmax = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
  assert argmax.dtype == tf.int64
  np.testing.assert_array_equal(out.numpy(), [[[[np.nan, 5], [3, 4]], [[5, 5], [5, 4]]],
                                              [[[2, 4], [5, 5]], [[3, 4], [2, 3]]]])
  assert argmax.numpy().tolist() == [[[[0, 1], [4, 13]], [[18, 27], [20, 23]]],
                                     [[[2, 3], [12, 13]], [[26, 17], [20, 29]]]]
  result = tf.nn.max_pool_with_argmax(x, [1, 3, 2, 1], [1, 2, 1, 1], "SAME",
                                      include_batch_in_index=True)
  assert result.argmax.numpy().tolist() == [
      [[[0, 1], [10, 13], [4, 13], [14, 7]], [[8, 27], [18, 27], [20, 13], [30, 23]],
       [[34, 27], [34, 27], [30, 29], [30, 39]]],
      [[[42, 43], [52, 53], [52, 53], [46, 47]], [[66, 51], [52, 53], [52, 53], [62, 55]],
       [[72, 73], [76, 67], [76, 79], [78, 79]]]]
  small = tf.nn.max_pool_with_argmax(x[:, :2], [1, 2, 2, 1], [1, 2, 2, 1], "VALID",
                                     Targmax=tf.int32)
  assert small.argmax.dtype == tf.int32


def test_max_pool_with_argmax_gradient_and_errors():
  x = tf.constant(np.nan_to_num(_pool_input()))
  with tf.GradientTape() as tape:
    tape.watch(x)
    pooled = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")[0]
    loss = tf.reduce_sum(pooled * np.arange(80, dtype=np.float32).reshape(2, 5, 4, 2))
  close(tape.gradient(loss, x)[0, :, :, 0], [[0, 0, 4, 0], [8, 2, 0, 20], [0, 44, 32, 0],
                                             [0, 0, 0, 80], [0, 116, 36, 38]], "float32")
  with pytest.raises(ValueError, match="Data formats other than 'NHWC' are not yet supported"):
    tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", data_format="NCHW")
  with pytest.raises(tf.errors.UnimplementedError, match="not yet supported on the batch"):
    tf.nn.max_pool_with_argmax(x, [2, 2, 2, 1], [1, 2, 2, 1], "VALID")
