"""tf.linalg and TF1's linear-algebra names; golden values from TensorFlow 2.21 (tf.compat.v1)."""
import numpy as np
import pytest

import tfe_compat as tf

A = np.array([[4., 1., 2.], [1., 3., 0.5], [2., 0.5, 5.]], np.float32)
B = np.array([[1., 2.], [3., 4.]], np.float32)
AB = np.stack([A, A + 2 * np.eye(3, dtype=np.float32)])
AU = A.copy()
AU[np.triu_indices(3, 1)] = 100.  # garbage in the upper triangle: lower-reading ops ignore it
R = np.array([[1., 2.], [0., 1.], [3., -1.]], np.float32)
M = np.array([[1., 2.], [3., 4.], [5., 7.]], np.float32)
C = np.array([[1 + 2j, 3 - 1j], [0.5j, 2]], np.complex64)
X = np.arange(1., 17., dtype=np.float32).reshape(4, 4)
X3 = np.arange(24., dtype=np.float32).reshape(2, 3, 4)

# ---- Golden values (printed by TensorFlow from the inputs above) ----
INV_A = [[0.33522728085517883, -0.09090909361839294, -0.125], [-0.09090909361839294, 0.3636363744735718, 0.0], [-0.125, 0.0, 0.25]]
INV_B_ADJ = [[-2.0, 1.5], [1.0, -0.5]]
INV_AB = [[[0.33522728085517883, -0.09090909361839294, -0.125], [-0.09090909361839294, 0.3636363744735718, 0.0], [-0.125, 0.0, 0.25]], [[0.18937329947948456, -0.03269754722714424, -0.051771119236946106], [-0.03269754722714424, 0.20708446204662323, -0.00544959120452404], [-0.051771119236946106, -0.005449590738862753, 0.1580381542444229]]]
DET_A = 44.000003814697266
DET_AB = [44.000003814697266, 183.49996948242188]
DET_B = -2.0
SLOGDET_B = [-1.0, 0.6931471824645996]
SLOGDET_AB = [[1.0, 1.0], [3.7841897010803223, 5.212214469909668]]
CHOL_A = [[2.0, 0.0, 0.0], [0.5, 1.658312439918518, 0.0], [1.0, 0.0, 2.0]]
CHOL_AU = [[2.0, 0.0, 0.0], [0.5, 1.658312439918518, 0.0], [1.0, 0.0, 2.0]]
CHOL_AB = [[[2.0, 0.0, 0.0], [0.5, 1.658312439918518, 0.0], [1.0, 0.0, 2.0]], [[2.4494898319244385, 0.0, 0.0], [0.40824827551841736, 2.198484420776367, 0.0], [0.8164965510368347, 0.07580980658531189, 2.5154693126678467]]]
LOGDET_A = 3.7841897010803223
CHOLSOLVE = [[-0.03977271914482117, 0.7045454382896423], [-0.09090909361839294, 0.1818181872367859], [0.625, -0.5]]
SOLVE_A_R = [[-0.03977271914482117, 0.7045454382896423], [-0.09090909361839294, 0.1818181872367859], [0.625, -0.5]]
SOLVE_B_ADJ = [[1.0], [0.0]]
SOLVE_AB = [[[-0.03977271914482117, 0.7045454382896423], [-0.09090909361839294, 0.1818181872367859], [0.625, -0.5]], [[0.03405993431806564, 0.3978201746940613], [-0.04904631897807121, 0.14713895320892334], [0.42234334349632263, -0.2670300006866455]]]
TRI_LOWER = [[0.25, 0.5], [-0.0833333358168602, 0.1666666716337204], [0.5083333849906921, -0.4166666567325592]]
TRI_UPPER = [[485.25006103515625, -169.5], [-20.000001907348633, 7.0], [0.6000000238418579, -0.20000000298023224]]
TRI_LOWER_ADJ = [[-0.025000005960464478, 0.5083333253860474], [-0.10000000894069672, 0.36666667461395264], [0.6000000238418579, -0.20000000298023224]]
TRI_BCAST = [[[0.25, 0.5], [-0.0833333358168602, 0.1666666716337204], [0.5083333849906921, -0.4166666567325592]], [[0.1666666716337204, 0.3333333432674408], [-0.03333333507180214, 0.13333332538604736], [0.38333335518836975, -0.24761906266212463]]]
NORM_DEFAULT = 10.198039054870605
NORM_FRO = 10.198039054870605
NORM_2_MAT = 10.191427230834961
NORM_1_MAT = 13.0
NORM_INF_MAT = 12.0
NORM_1_AX0 = [9.0, 13.0]
NORM_INF_AX1 = [2.0, 4.0, 7.0]
NORM_3_AX1 = [2.0800838470458984, 4.497941493988037, 7.763936519622803]
NORM_EUC_AXM1_KEEP = [[2.2360680103302], [5.0], [8.602325439453125]]
NORM_1_MAT_REV = 12.0
NORM_2_BATCH = [[[27.278738021850586], [36.795013427734375], [47.10309600830078]]]
NORM_FRO_BATCH = [22.494443893432617, 61.78996658325195]
NORM_COMPLEX = (4.387482166290283+0j)
TRACE_AB = [12.0, 18.0]
TRACE_RECT = 4
BAND_1_0 = [[1.0, 0.0, 0.0, 0.0], [5.0, 6.0, 0.0, 0.0], [0.0, 10.0, 11.0, 0.0], [0.0, 0.0, 15.0, 16.0]]
BAND_0_M1 = [[1.0, 2.0, 3.0, 4.0], [0.0, 6.0, 7.0, 8.0], [0.0, 0.0, 11.0, 12.0], [0.0, 0.0, 0.0, 16.0]]
BAND_M1_1 = [[1.0, 2.0, 0.0, 0.0], [5.0, 6.0, 7.0, 0.0], [9.0, 10.0, 11.0, 12.0]]
TRANSPOSE_CONJ = [[(1-2j), -0.5j], [(3+1j), (2-0j)]]
ADJOINT = [[(1-2j), -0.5j], [(3+1j), (2-0j)]]
QR_A_Q = [[-0.8728715181350708, 0.1951800137758255, -0.4472135603427887], [-0.2182178795337677, -0.9759000539779663, -3.725290298461914e-09], [-0.4364357590675354, 0.09758999943733215, 0.8944271802902222]]
QR_A_R = [[-4.582575798034668, -1.7457430362701416, -4.0370306968688965], [0.0, -2.683725357055664, 0.39035993814468384], [0.0, 0.0, 3.5777089595794678]]
QR_M_Q = [[-0.1690307855606079, 0.9486833810806274], [-0.5070924758911133, -0.3162273168563843], [-0.8451542258262634, -4.172325134277344e-07]]
QR_M_R = [[-5.916079998016357, -8.282510757446289], [0.0, 0.6324548721313477]]
QR_MF_Q = [[-0.1690307855606079, 0.9486833810806274, -0.2672606110572815], [-0.5070924758911133, -0.3162273168563843, -0.8017839193344116], [-0.8451542258262634, -4.172325134277344e-07, 0.534522533416748]]
QR_MF_R = [[-5.916079998016357, -8.282510757446289], [0.0, 0.6324548721313477], [0.0, 0.0]]
SVD_A_S = [6.831258773803711, 3.0722241401672363, 2.096522331237793]
SVD_M_S = [10.191427230834961, 0.367137610912323]
EIG_A_E = [2.096522808074951, 3.0722241401672363, 6.831256866455078]
EIG_A_V = [[0.7167432308197021, -0.3257673680782318, 0.6165671348571777], [-0.5748728513717651, -0.7765018343925476, 0.2580046057701111], [-0.3947160840034485, 0.5393706560134888, 0.7438271641731262]]
EIGVALS_AU = [2.096522808074951, 3.0722241401672363, 6.831256866455078]
LSTSQ = [[-0.21428579092025757], [0.5000000596046448]]
LSTSQ_L2 = [[0.08301995694637299], [0.28679168224334717]]
LSTSQ_SLOW = [[-0.21428653597831726], [0.5000006556510925]]
LSTSQ_UNDER = [[0.9285681247711182], [-0.21428442001342773], [0.14285743236541748]]
EXPM_ROT = [[0.5403022766113281, 0.8414709568023682], [-0.8414710760116577, 0.5403023362159729]]
EXPM_A = [[1.5305651426315308, 0.15077252686023712, 0.32029175758361816], [0.15077252686023712, 1.3591713905334473, 0.0903836190700531], [0.32029178738594055, 0.0903836190700531, 1.683212399482727]]
EXPM_AB = [[[1.5305651426315308, 0.15077252686023712, 0.32029175758361816], [0.15077252686023712, 1.3591713905334473, 0.0903836190700531], [0.32029178738594055, 0.0903836190700531, 1.683212399482727]], [[1.8694366216659546, 0.18415400385856628, 0.39120522141456604], [0.1841539889574051, 1.6600955724716187, 0.11039478331804276], [0.39120522141456604, 0.11039479821920395, 2.055880069732666]]]
MDIAG_K1 = [[[0, 1, 0], [0, 0, 2], [0, 0, 0]], [[0, 3, 0], [0, 0, 4], [0, 0, 0]]]
MDIAG_KM1 = [[9.0, 9.0, 9.0, 9.0], [1.0, 9.0, 9.0, 9.0], [9.0, 2.0, 9.0, 9.0]]
MDIAG_COLS = [[1.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0]]
MDPART = [[0.0, 5.0, 10.0], [12.0, 17.0, 22.0]]
MDPART_K1 = [[1.0, 6.0, 11.0], [13.0, 18.0, 23.0]]
MDPART_KM2 = [[8.0], [20.0]]
SETDIAG = [[[0.0, 1.0, 2.0, 3.0], [4.0, 0.0, 6.0, 7.0], [8.0, 9.0, 0.0, 11.0]], [[1.0, 13.0, 14.0, 15.0], [16.0, 1.0, 18.0, 19.0], [20.0, 21.0, 1.0, 23.0]]]
SETDIAG_K1 = [[0.0, 7.0, 0.0], [0.0, 0.0, 8.0]]
DIAG_2D = [[[[1, 0], [0, 0]], [[0, 2], [0, 0]]], [[[0, 0], [3, 0]], [[0, 0], [0, 4]]]]
DIAG_PART_4D = [[0, 5], [10, 15]]


def check(tensor, expected, dtype=tf.float32, rtol=1e-5, atol=1e-5):
  """Compares a Tensor (its dtype too) or a NumPy array to golden values."""
  if isinstance(tensor, tf.Tensor):
    assert tensor.dtype == dtype
    tensor = tensor.numpy()
  np.testing.assert_allclose(tensor, np.asarray(expected), rtol=rtol, atol=atol)


def raises(error, text, fn, *args, **kwargs):
  with pytest.raises(error) as info:
    fn(*args, **kwargs)
  assert text in str(info.value), str(info.value)


# ---- Inverses and determinants ----
def test_inverse():
  check(tf.matrix_inverse(A), INV_A)
  check(tf.linalg.inv(B, adjoint=True), INV_B_ADJ)
  check(tf.linalg.inv(AB), INV_AB)
  check(tf.matrix_inverse(A.astype(np.float64)), INV_A, tf.float64)
  check(tf.matrix_inverse(np.eye(2, dtype=np.float16)), np.eye(2), tf.float16)


def test_inverse_errors():
  raises(tf.errors.InvalidArgumentError, "Input is not invertible. [Op:MatrixInverse]",
         tf.matrix_inverse, [[1., 2.], [2., 4.]])
  raises(tf.errors.InvalidArgumentError, "Input matrix must be square. [Op:MatrixInverse]",
         tf.matrix_inverse, np.ones((2, 3), np.float32))
  raises(tf.errors.InvalidArgumentError,
         "Input tensor 0 must have rank >= 2, got 1 [Op:MatrixInverse]",
         tf.linalg.inv, [1., 2.])
  raises(tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list",
         tf.matrix_inverse, [[1, 2], [3, 4]])


def test_determinants():
  check(tf.matrix_determinant(A), DET_A, rtol=1e-5)
  check(tf.linalg.det(AB), DET_AB, rtol=1e-5)
  check(tf.linalg.det(B), DET_B)
  check(tf.linalg.det(B.astype(np.float64)), DET_B, tf.float64)
  check(tf.linalg.det(np.zeros((0, 0), np.float32)), 1.0)
  sign, logabs = tf.linalg.slogdet(B)
  check(sign, SLOGDET_B[0])
  check(logabs, SLOGDET_B[1])
  result = tf.linalg.slogdet(AB)
  check(result.sign, SLOGDET_AB[0])
  check(result.log_abs_determinant, SLOGDET_AB[1])
  check(tf.linalg.logdet(A), LOGDET_A)
  raises(tf.errors.InvalidArgumentError,
         "Input matrix must be square. [Op:MatrixDeterminant]", tf.linalg.det, M)
  raises(tf.errors.InvalidArgumentError, "[Op:LogMatrixDeterminant]", tf.linalg.slogdet, [1.])


# ---- Decompositions ----
def test_cholesky():
  check(tf.cholesky(A), CHOL_A)
  check(tf.linalg.cholesky(AU), CHOL_AU)  # reads the lower triangle only
  check(tf.cholesky(AB), CHOL_AB)
  check(tf.cholesky(A.astype(np.float64)), CHOL_A, tf.float64)
  raises(tf.errors.InvalidArgumentError, "Cholesky decomposition was not successful",
         tf.cholesky, [[1., 2.], [2., 1.]])
  raises(tf.errors.InvalidArgumentError, "Input matrix must be square. [Op:Cholesky]",
         tf.cholesky, M)


def test_qr():
  q, r = tf.qr(A)
  check(q, QR_A_Q)
  check(r, QR_A_R)
  result = tf.linalg.qr(M)
  check(result.q, QR_M_Q)
  check(result.r, QR_M_R)
  q, r = tf.qr(M, full_matrices=True)
  assert q.shape == (3, 3) and r.shape == (3, 2)
  check(abs(r.numpy()), np.abs(QR_MF_R))
  check(q.numpy() @ r.numpy(), M)
  q, r = tf.qr(AB.astype(np.float64))
  check(q, np.linalg.qr(AB.astype(np.float64))[0], tf.float64)


def test_svd():
  s = tf.svd(A, compute_uv=False)
  check(s, SVD_A_S)
  s, u, v = tf.linalg.svd(M)
  check(s, SVD_M_S)
  assert u.shape == (3, 2) and v.shape == (2, 2)
  check(u.numpy() @ np.diag(s.numpy()) @ v.numpy().T, M, rtol=1e-4, atol=1e-5)
  s, u, v = tf.svd(M, full_matrices=True)
  assert (s.shape, u.shape, v.shape) == ((2,), (3, 3), (2, 2))
  s, u, v = tf.svd(AB.astype(np.float64))
  assert s.dtype == tf.float64 and s.shape == (2, 3)
  check(tf.svd(C, compute_uv=False), np.linalg.svd(C, compute_uv=False))  # real, as in TF
  raises(tf.errors.InvalidArgumentError, "In[1] ndims must be >= 2: 1",
         tf.matrix_triangular_solve, np.eye(2, dtype=np.float32), np.ones(2, np.float32))
  raises(tf.errors.InvalidArgumentError, "Input tensor 0 must have rank >= 2, got 1 [Op:Svd]",
         tf.svd, [1., 2.])


def test_eigh():
  e, v = tf.self_adjoint_eig(A)
  check(e, EIG_A_E)
  v = v.numpy()
  signs = np.sign(v[0] * np.asarray(EIG_A_V)[0])  # eigenvectors are defined up to sign
  check(v * signs, EIG_A_V, rtol=1e-4, atol=1e-5)
  check(tf.linalg.eigvalsh(AU), EIGVALS_AU)  # lower triangle only
  values = tf.self_adjoint_eigvals(AB.astype(np.float64))
  assert values.dtype == tf.float64
  check(values.numpy()[0], EIG_A_E)
  raises(tf.errors.InvalidArgumentError, "Input matrix must be square. [Op:SelfAdjointEigV2]",
         tf.linalg.eigh, M)


def test_expm():
  check(tf.linalg.expm(np.array([[0., 1.], [-1., 0.]], np.float32)), EXPM_ROT)
  check(tf.linalg.expm(A / 10), EXPM_A)
  check(tf.linalg.expm(AB / 10), EXPM_AB)
  check(tf.linalg.expm(np.zeros((2, 2))), np.eye(2), tf.float64)


# ---- Solves ----
def test_solve():
  check(tf.matrix_solve(A, R), SOLVE_A_R)
  check(tf.linalg.solve(B, [[1.], [2.]], adjoint=True), SOLVE_B_ADJ)
  check(tf.matrix_solve(AB, np.stack([R, R])), SOLVE_AB)
  check(tf.matrix_solve(A.astype(np.float64), R.astype(np.float64)), SOLVE_A_R, tf.float64)


def test_solve_errors():
  eye = np.eye(2, dtype=np.float32)
  raises(tf.errors.InvalidArgumentError, "Input matrix is not invertible. [Op:MatrixSolve]",
         tf.matrix_solve, [[1., 2.], [2., 4.]], [[1.], [1.]])
  raises(tf.errors.InvalidArgumentError, "First input (lhs) must be a square matrix.",
         tf.matrix_solve, M, np.ones((3, 1), np.float32))
  raises(tf.errors.InvalidArgumentError, "Input matrix and rhs are incompatible.",
         tf.matrix_solve, eye, np.ones((3, 1), np.float32))
  raises(tf.errors.InvalidArgumentError, "All input tensors must have the same rank.",
         tf.matrix_solve, eye, np.ones(2, np.float32))
  raises(tf.errors.InvalidArgumentError, "All input tensors must have the same outer",
         tf.matrix_solve, np.stack([eye] * 3), np.ones((2, 2, 1), np.float32))
  raises(tf.errors.InvalidArgumentError, "cannot compute MatrixSolve as input #1",
         tf.matrix_solve, tf.constant(eye), tf.constant(np.ones((2, 1))))


def test_triangular_solve():
  check(tf.matrix_triangular_solve(AU, R), TRI_LOWER)
  check(tf.linalg.triangular_solve(AU, R, lower=False), TRI_UPPER, rtol=1e-5, atol=1e-3)
  check(tf.matrix_triangular_solve(AU, R, adjoint=True), TRI_LOWER_ADJ)
  check(tf.matrix_triangular_solve(AB, R), TRI_BCAST)  # batch dimensions broadcast
  raises(tf.errors.InvalidArgumentError,
         "In[0] matrices in the last dimensions must be square (3 =/= 2)",
         tf.matrix_triangular_solve, np.ones((2, 3), np.float32), np.ones((2, 1), np.float32))
  raises(tf.errors.InvalidArgumentError,
         "In[0] mismatch In[1] shape: 2 vs. 3: [2,2] [3,1] 1 0 [Op:MatrixTriangularSolve]",
         tf.matrix_triangular_solve, np.eye(2, dtype=np.float32), np.ones((3, 1), np.float32))


def test_cholesky_solve():
  check(tf.cholesky_solve(tf.cholesky(A), R), CHOLSOLVE)
  check(tf.linalg.cholesky_solve(np.linalg.cholesky(AB.astype(np.float64)), R.astype(np.float64)),
        [SOLVE_AB[0], SOLVE_AB[1]], tf.float64)
  raises(tf.errors.InvalidArgumentError, "In[0] mismatch In[1] shape: 2 vs. 3",
         tf.cholesky_solve, np.eye(2, dtype=np.float32), np.ones((3, 1), np.float32))


def test_lstsq():
  b = np.array([[1.], [2.], [2.]], np.float32)
  check(tf.linalg.lstsq(M, b), LSTSQ, rtol=1e-4, atol=1e-5)
  check(tf.matrix_solve_ls(M, b, l2_regularizer=0.5), LSTSQ_L2, rtol=1e-4, atol=1e-5)
  check(tf.linalg.lstsq(M, b, fast=False), LSTSQ_SLOW, rtol=1e-4, atol=1e-5)
  check(tf.linalg.lstsq(M.T, np.array([[1.], [2.]], np.float32)), LSTSQ_UNDER, rtol=1e-4,
        atol=1e-4)
  check(tf.linalg.lstsq(M.astype(np.float64), b.astype(np.float64)), LSTSQ, tf.float64)
  raises(tf.errors.InvalidArgumentError, "In[0] and In[1] has different ndims: [3,2] vs. [3]",
         tf.linalg.lstsq, M, np.ones(3, np.float32))
  raises(tf.errors.InvalidArgumentError, "Matrix size-incompatible: In[0]: [3,2], In[1]: [2,1]",
         tf.linalg.lstsq, M, np.ones((2, 1), np.float32))


# ---- Norms and traces ----
@pytest.mark.parametrize("expected, kwargs", [
    (NORM_DEFAULT, {}), (NORM_FRO, dict(ord="fro", axis=[0, 1])),
    (NORM_2_MAT, dict(ord=2, axis=[0, 1])), (NORM_1_MAT, dict(ord=1, axis=[0, 1])),
    (NORM_INF_MAT, dict(ord=np.inf, axis=[0, 1])), (NORM_1_AX0, dict(ord=1, axis=0)),
    (NORM_INF_AX1, dict(ord=np.inf, axis=1)), (NORM_3_AX1, dict(ord=3, axis=1)),
    (NORM_EUC_AXM1_KEEP, dict(axis=-1, keepdims=True)), (NORM_1_MAT_REV, dict(ord=1, axis=(1, 0))),
])
def test_norm(expected, kwargs):
  result = tf.norm(M, **kwargs)
  assert result.shape == np.shape(expected)
  check(result, expected)


def test_norm_more():
  check(tf.linalg.norm(X3, ord=2, axis=[-1, 0], keepdims=True), NORM_2_BATCH)
  check(tf.norm(X3, ord="fro", axis=[1, 2]), NORM_FRO_BATCH)
  check(tf.norm(C), NORM_COMPLEX, tf.complex64)
  check(tf.norm(M, keep_dims=True), [[NORM_DEFAULT]])
  check(tf.norm(M.astype(np.float64), ord=1), 22.0, tf.float64)
  result = tf.norm(np.array([1, -5, 3]), ord=np.inf)
  assert result.dtype == tf.int64 and result.numpy() == 5
  check(tf.norm(np.array([1., 4.], np.float32), ord=0.5), 9.0)


def test_norm_errors():
  raises(ValueError, "Cannot specify both 'keep_dims' and 'keepdims'.",
         tf.norm, M, keep_dims=True, keepdims=True)
  raises(ValueError, "'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], "
         "got 3", tf.norm, M, ord=3, axis=[0, 1])
  raises(ValueError, "'ord' must be a supported vector norm, got fro", tf.norm, M, ord="fro")
  raises(ValueError, "'ord' must be a supported vector norm, got -1", tf.norm, M, ord=-1)
  raises(ValueError, "'axis' must be None, an integer, or a tuple of 2 unique integers, got "
         "[0, 1, 2]", tf.norm, X3, axis=[0, 1, 2])
  raises(ValueError, "got (1, 1)", tf.norm, X3, ord=2, axis=[1, 1])
  raises(tf.errors.InvalidArgumentError, "Value for attr 'T' of int64", tf.norm,
         np.array([3, 4]))


def test_trace():
  check(tf.trace(AB), TRACE_AB)
  result = tf.linalg.trace(np.arange(6).reshape(2, 3))
  assert result.dtype == tf.int64 and result.numpy() == TRACE_RECT
  result = tf.trace(np.arange(9, dtype=np.int32).reshape(3, 3))
  assert result.dtype == tf.int32 and result.numpy() == 12
  raises(tf.errors.InvalidArgumentError,
         "input must be at least 2-dim, received shape: [3] [Op:MatrixDiagPartV3]",
         tf.trace, [1., 2., 3.])


# ---- Transposes, bands, diagonals ----
def test_band_part():
  check(tf.matrix_band_part(X, 1, 0), BAND_1_0)
  check(tf.linalg.band_part(X, 0, -1), BAND_0_M1)
  check(tf.matrix_band_part(X[:3], -1, 1), BAND_M1_1)
  check(tf.matrix_band_part(X, tf.constant(1), tf.constant(0)), BAND_1_0)
  raises(tf.errors.InvalidArgumentError, "num_lower must be negative or less or equal to "
         "number of rows (4) got: 5 [Op:MatrixBandPart]", tf.matrix_band_part, X, 5, 0)
  raises(tf.errors.InvalidArgumentError, "num_upper must be negative or less or equal to "
         "number of columns (4) got: 6", tf.matrix_band_part, X, 0, 6)
  raises(tf.errors.InvalidArgumentError, "num_lower must be scalar, got shape [1]",
         tf.matrix_band_part, X, [1], 0)
  raises(TypeError, "Cannot convert 1.0 to EagerTensor of dtype int64",
         tf.matrix_band_part, X, 1.0, 0)
  raises(tf.errors.InvalidArgumentError, "input must be at least 2-dim",
         tf.matrix_band_part, [1., 2.], 1, 0)


def test_transpose():
  check(tf.matrix_transpose(M), M.T)
  check(tf.linalg.transpose(X3), np.swapaxes(X3, -1, -2))
  check(tf.linalg.matrix_transpose(C, conjugate=True), TRANSPOSE_CONJ, tf.complex64)
  check(tf.matrix_transpose(C), C.T, tf.complex64)
  check(tf.linalg.adjoint(C), ADJOINT, tf.complex64)
  raises(ValueError, "Argument `a` should be a (batch) matrix with rank >= 2.",
         tf.matrix_transpose, [1., 2.])


def test_matrix_diag_family():
  result = tf.matrix_diag([[1, 2], [3, 4]], k=1)
  assert result.dtype == tf.int32
  np.testing.assert_array_equal(result.numpy(), MDIAG_K1)
  check(tf.linalg.diag([1., 2.], k=-1, num_rows=3, num_cols=4, padding_value=9), MDIAG_KM1)
  check(tf.matrix_diag([1., 2.], num_cols=4), MDIAG_COLS)
  check(tf.matrix_diag([1., 2.]), np.diag([1., 2.]))
  check(tf.matrix_diag_part(X3), MDPART)
  check(tf.linalg.diag_part(X3, k=1), MDPART_K1)
  check(tf.matrix_diag_part(X3, k=-2), MDPART_KM2)
  check(tf.matrix_set_diag(X3, [[0., 0., 0.], [1., 1., 1.]]), SETDIAG)
  check(tf.linalg.set_diag(np.zeros((2, 3), np.float32), [7., 8.], k=1), SETDIAG_K1)


def test_matrix_diag_errors():
  raises(tf.errors.InvalidArgumentError, "diagonal must be at least 1-dim, received shape: []",
         tf.matrix_diag, 1.0)
  raises(tf.errors.InvalidArgumentError, "The number of rows or columns is not consistent",
         tf.matrix_diag, [1., 2.], num_rows=5, num_cols=5)
  raises(tf.errors.InvalidArgumentError,
         "lower_diag_index is out of bound: -3. It must be between -3 and 4",
         tf.matrix_diag_part, np.zeros((3, 4)), k=-3)
  raises(tf.errors.InvalidArgumentError, "Input shape: [2,3]\nDiagonal shape: [3]\n"
         "Expected diagonal shape: [2] [Op:MatrixSetDiagV3]",
         tf.matrix_set_diag, np.zeros((2, 3), np.float32), np.ones(3, np.float32))
  raises(NotImplementedError, "k=(lower, upper)", tf.matrix_diag_part, X, k=(0, 1))


def test_diag_and_diag_part():
  result = tf.diag([[1, 2], [3, 4]])
  assert result.dtype == tf.int32 and result.shape == (2, 2, 2, 2)
  np.testing.assert_array_equal(result.numpy(), DIAG_2D)
  check(tf.linalg.tensor_diag([1., 2.]), np.diag([1., 2.]))
  np.testing.assert_array_equal(tf.diag_part(np.arange(16).reshape(2, 2, 2, 2)).numpy(),
                                DIAG_PART_4D)
  check(tf.linalg.tensor_diag_part(np.diag([1., 2.]).astype(np.float32)), [1., 2.])
  raises(tf.errors.InvalidArgumentError, "Input must be at least rank 1, got 0 [Op:Diag]",
         tf.diag, 1.0)
  raises(tf.errors.InvalidArgumentError,
         "Invalid shape [2,3]: dimensions 0 and 1 do not match. [Op:DiagPart]",
         tf.diag_part, np.ones((2, 3)))
  raises(tf.errors.InvalidArgumentError, "even and positive, got shape [3]",
         tf.diag_part, np.ones(3))


def test_complex_dtypes():
  h = np.array([[2, 1 - 1j], [1 + 1j, 3]], np.complex64)  # Hermitian PD
  assert tf.self_adjoint_eig(h)[0].dtype == tf.complex64
  sign, logabs = tf.linalg.slogdet(h)
  check(sign, 1.0, tf.complex64)
  check(logabs, 1.3862943649291992, tf.complex64)
  check(tf.linalg.logdet(h), 1.3862943649291992)
  assert tf.norm(h, ord=1).dtype == tf.float32
  assert tf.norm(h, ord=2, axis=[0, 1]).dtype == tf.float32


def test_float32_stays_float32():
  for fn in (tf.matrix_inverse, tf.matrix_determinant, tf.cholesky, tf.linalg.logdet,
             tf.linalg.expm, tf.trace, tf.matrix_transpose, tf.matrix_diag_part, tf.norm,
             tf.diag, tf.diag_part, tf.self_adjoint_eigvals):
    assert fn(A).dtype == tf.float32, fn
    assert fn(A.astype(np.float64)).dtype == tf.float64, fn


def test_pinv_matrix_rank_normalize_matvec():
  """Golden values from TF 2.21 (tf.compat.v1.linalg)."""
  np.testing.assert_allclose(tf.linalg.pinv([[1., 2.], [2., 4.]]).numpy(),
                             [[0.04, 0.08], [0.08, 0.16]], rtol=1e-5)
  x = tf.Variable([[1., 2.], [3., 5.]])
  with tf.GradientTape() as tape:
    total = tf.reduce_sum(tf.linalg.pinv(x))
  np.testing.assert_allclose(tape.gradient(total, x).numpy(), [[-6., 4.], [3., -2.]], rtol=1e-5)
  rank = tf.linalg.matrix_rank([[1., 2.], [2., 4.]])
  assert rank.dtype == tf.int32 and int(rank) == 1
  batch = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
  assert tf.linalg.matrix_rank(batch).numpy().tolist() == [3, 3]
  np.testing.assert_allclose(tf.linalg.pinv(batch).numpy()[0, 0],
                             [1.0467, -0.55898, -0.34195], atol=1e-4)
  unit, length = tf.linalg.normalize([[3., 4.], [6., 8.]], axis=1)
  np.testing.assert_allclose(unit.numpy(), [[0.6, 0.8], [0.6, 0.8]])
  assert length.numpy().tolist() == [[5.], [10.]]
  unit, length = tf.linalg.normalize([[3., 4.], [6., 8.]], ord=1)
  np.testing.assert_allclose(unit.numpy(), [[0.14285715, 0.1904762], [0.2857143, 0.3809524]])
  assert length.numpy().tolist() == [[21.]]
  assert tf.linalg.matvec([[1., 2.], [3., 4.]], [1., 1.]).numpy().tolist() == [3., 7.]
  assert tf.linalg.matvec([[[1., 2.], [3., 4.]]], [[1., 2.]],
                          transpose_a=True).numpy().tolist() == [[7., 10.]]


def test_lu_family():
  """Golden values and errors from TF 2.21 (TF registers no gradient for Lu)."""
  a = np.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]], np.float32)
  factors = tf.linalg.lu(a)
  assert factors._fields == ("lu", "p") and factors.p.dtype == tf.int32
  np.testing.assert_allclose(factors.lu.numpy(), [[7., 8., 10.], [0.142857, 0.857143, 1.571429],
                                                  [0.571429, 0.5, -0.5]], atol=1e-5)
  assert factors.p.numpy().tolist() == [2, 0, 1]
  assert tf.linalg.lu(a, output_idx_type=tf.int64).p.dtype == tf.int64
  assert tf.linalg.lu(np.stack([a, a.T])).p.numpy().tolist() == [[2, 0, 1], [2, 0, 1]]
  np.testing.assert_allclose(tf.linalg.lu_reconstruct(*factors).numpy(), a, atol=1e-5)
  np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(*factors).numpy(),
                             [[-0.66667, -1.33333, 1.], [-0.66667, 3.66667, -2.], [1., -2., 1.]],
                             atol=1e-4)
  np.testing.assert_allclose(tf.linalg.lu_solve(factors.lu, factors.p, [[1.], [2.], [3.]]),
                             [[-0.33333], [0.66667], [0.]], atol=1e-4)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
    tf.linalg.lu([[1., 2.], [2., 4.]])
