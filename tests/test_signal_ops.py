"""tf.signal windows and frame against golden values from TensorFlow 2.21 (tf.compat.v1)."""
import numpy as np
import pytest

import tfe_compat as tf

HAMMING8_PERIODIC = [0.08000001311302185, 0.21473091840744019, 0.5400000214576721, 0.865269124507904, 1.0, 0.865269124507904, 0.5400000214576721, 0.21473076939582825]
HAMMING8_SYMMETRIC = [0.08000001311302185, 0.2531947195529938, 0.6423596739768982, 0.9544457197189331, 0.9544457197189331, 0.6423594951629639, 0.25319477915763855, 0.08000001311302185]
HANN8_PERIODIC = [0.0, 0.14644664525985718, 0.5, 0.8535533547401428, 1.0, 0.8535533547401428, 0.5, 0.14644646644592285]
HANN8_SYMMETRIC = [0.0, 0.18825510144233704, 0.6112604737281799, 0.9504843950271606, 0.9504843950271606, 0.6112602949142456, 0.1882551908493042, 0.0]
HAMMING5 = [0.08000001311302185, 0.5400000214576721, 1.0, 0.5400000214576721, 0.08000001311302185]


@pytest.mark.parametrize("fn, periodic, golden", [
    (tf.signal.hamming_window, True, HAMMING8_PERIODIC),
    (tf.signal.hamming_window, False, HAMMING8_SYMMETRIC),
    (tf.signal.hann_window, True, HANN8_PERIODIC),
    (tf.signal.hann_window, False, HANN8_SYMMETRIC)])
def test_windows(fn, periodic, golden):
  window = fn(8, periodic=periodic)
  assert window.dtype == tf.float32 and window.shape == (8,)
  np.testing.assert_allclose(window.numpy(), golden, atol=1e-6)


def test_window_edge_cases():
  assert tf.contrib.signal.hamming_window is tf.signal.hamming_window
  assert tf.contrib.signal.hann_window is tf.signal.hann_window
  # `periodic` only changes even lengths; lengths 0 and 1 are special.
  for periodic in (True, tf.constant(False)):
    np.testing.assert_allclose(tf.signal.hamming_window(tf.constant(5), periodic).numpy(),
                               HAMMING5, atol=1e-6)
  assert tf.signal.hann_window(0).numpy().tolist() == []
  assert tf.signal.hann_window(1, periodic=False).numpy().tolist() == [1.0]
  assert tf.signal.hann_window(2).numpy().tolist() == [0.0, 1.0]
  assert tf.signal.hann_window(2, periodic=False).numpy().tolist() == [0.0, 0.0]
  wide = tf.signal.hann_window(4, dtype=tf.float64)
  assert wide.dtype == tf.float64
  np.testing.assert_allclose(wide.numpy(), [0.0, 0.5, 1.0, 0.5], atol=1e-15)
  with pytest.raises(ValueError, match="dtype must be a floating point type. Found "
                                       "<dtype: 'int32'>"):
    tf.signal.hann_window(4, dtype=tf.int32)
  with pytest.raises(ValueError, match="must have rank 0"):
    tf.signal.hamming_window([3])
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"0/-1 \[Op:Range\]"):
    tf.signal.hamming_window(-1)


def test_frame():
  x = np.arange(10, dtype=np.float32)
  framed = tf.signal.frame(x, 4, 3)
  assert framed.dtype == tf.float32
  assert framed.numpy().tolist() == [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9]]
  padded = tf.contrib.signal.frame(x, 4, 3, pad_end=True, pad_value=-1)
  assert padded.numpy().tolist() == [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9], [9, -1, -1, -1]]
  assert tf.signal.frame(x, 12, 3).shape == (0, 12)
  long = tf.signal.frame(x, 12, 3, pad_end=True).numpy()
  assert long.shape == (4, 12) and long[3].tolist() == [9] + [0] * 11
  assert tf.signal.frame(x, 0, 1).shape == (11, 0)
  y = np.arange(24).reshape(2, 12)
  assert tf.signal.frame(y, 5, 4, axis=1).numpy().tolist() == [
      [[0, 1, 2, 3, 4], [4, 5, 6, 7, 8]], [[12, 13, 14, 15, 16], [16, 17, 18, 19, 20]]]
  by_rows = tf.signal.frame(y.T, 5, 4, axis=0)
  assert by_rows.shape == (2, 5, 2) and by_rows.dtype == tf.int64
  assert by_rows.numpy()[:, :, 1].tolist() == [[12, 13, 14, 15, 16], [16, 17, 18, 19, 20]]
  assert tf.signal.frame(y, 2, 1, axis=0).numpy().tolist() == [y.tolist()]
  cube = tf.signal.frame(np.arange(24).reshape(2, 3, 4), 2, 2, axis=1, pad_end=True)
  assert cube.numpy().tolist() == [
      [[[0, 1, 2, 3], [4, 5, 6, 7]], [[8, 9, 10, 11], [0, 0, 0, 0]]],
      [[[12, 13, 14, 15], [16, 17, 18, 19]], [[20, 21, 22, 23], [0, 0, 0, 0]]]]
  with pytest.raises(ValueError, match="must have rank at least 1"):
    tf.signal.frame(5.0, 3, 1)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
    tf.signal.frame(x, 3, 0)



# ---- Fourier transforms (tf.signal / tf.spectral / top-level tf.fft ...) ----
C4 = np.array([1 + 2j, 3 - 1j, -2 + 0.5j, 0.25j], np.complex64)
X6 = np.array([1., -2., 3., 0.5, 4., -1.], np.float32)


def check(tensor, dtype, shape, golden, atol=1e-5):
  assert tensor.dtype == dtype and tensor.shape == tuple(shape)
  np.testing.assert_allclose(tensor.numpy(), np.reshape(golden, shape), rtol=1e-5, atol=atol)


def test_fft_aliases():
  for name in ("fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d"):
    assert getattr(tf, name) is getattr(tf.signal, name) is getattr(tf.spectral, name)
  for name in ("rfft", "irfft", "rfft2d", "irfft2d", "rfft3d", "irfft3d", "dct", "idct"):
    assert getattr(tf.spectral, name) is getattr(tf.signal, name)
  assert tf.compat.v1.signal.fftshift is tf.signal.fftshift
  for name in ("stft", "inverse_stft", "inverse_stft_window_fn", "overlap_and_add",
               "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms"):
    assert getattr(tf.contrib.signal, name) is getattr(tf.signal, name)


def test_complex_ffts():
  check(tf.signal.fft(C4), tf.complex64, [4], [2 + 1.75j, 1.75 - 1.5j, -4 + 3.25j, 4.25 + 4.5j])
  check(tf.ifft(C4), tf.complex64, [4], [0.5 + 0.4375j, 1.0625 + 1.125j, -1 + 0.8125j,
                                         0.4375 - 0.375j])
  check(tf.fft2d(C4.reshape(2, 2)), tf.complex64, [2, 2], [2 + 1.75j, -4 + 3.25j, 6 + 0.25j, 2.75j])
  check(tf.spectral.ifft2d(C4.reshape(2, 2)), tf.complex64, [2, 2],
        [0.5 + 0.4375j, -1 + 0.8125j, 1.5 + 0.0625j, 0.6875j])
  check(tf.fft3d(C4.reshape(1, 2, 2)), tf.complex64, [1, 2, 2],
        [2 + 1.75j, -4 + 3.25j, 6 + 0.25j, 2.75j])
  check(tf.ifft3d(C4.reshape(1, 2, 2)), tf.complex64, [1, 2, 2],
        [0.5 + 0.4375j, -1 + 0.8125j, 1.5 + 0.0625j, 0.6875j])
  batch = tf.fft(np.arange(12).reshape(3, 4).astype(np.complex64) * (1 + 0.5j))
  check(batch, tf.complex64, [3, 4], [[6 + 3j, -3 + 1j, -2 - 1j, -1 - 3j],
                                      [22 + 11j, -3 + 1j, -2 - 1j, -1 - 3j],
                                      [38 + 19j, -3 + 1j, -2 - 1j, -1 - 3j]])
  wide = tf.signal.fft(tf.constant(C4.astype(np.complex128)))
  assert wide.dtype == tf.complex128
  # Python numbers convert to complex64; an empty input stays empty
  check(tf.signal.fft([1., 2.]), tf.complex64, [2], [3, -1])
  check(tf.signal.fft([1, 2]), tf.complex64, [2], [3, -1])
  assert tf.signal.fft(np.zeros([2, 0], np.complex64)).shape == (2, 0)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Value for attr 'Tcomplex' of float is not in the list of allowed "
                           r"values: complex64, complex128"):
    tf.signal.fft(tf.constant([1., 2.]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Input must have rank of at least 2 but got: \[4\] \[Op:FFT2D\]"):
    tf.signal.fft2d(C4)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Input must have rank of at least 1 but got: \[\] \[Op:FFT\]"):
    tf.signal.fft(tf.constant(1 + 1j))


def test_rfft():
  check(tf.signal.rfft(X6), tf.complex64, [4], [5.5, -4.5 + 1.7320508j, -0.5, 10.5])
  check(tf.signal.rfft(X6, [4]), tf.complex64, [3], [2.5, -2 + 2.5j, 5.5])  # cropped
  check(tf.signal.rfft(X6, tf.constant([9])), tf.complex64, [5],  # zero-padded
        [5.5, -3.0802221 - 3.8119612j, -0.11824083 + 4.5905056j, -0.5, 5.448463 + 7.1034288j])
  check(tf.signal.rfft2d(X6.reshape(2, 3), [3, 4]), tf.complex64, [3, 3],
        [5.5, -0.5 - 2j, 1.5, 0.25 - 3.0310888j, -6.2141018 + 2.7009621j, 8.25 + 3.8971143j,
         0.25 + 3.0310888j, 0.71410155 + 5.2990379j, 8.25 - 3.8971143j])
  check(tf.spectral.rfft2d(X6.reshape(2, 3), [1, 2]), tf.complex64, [1, 2], [-1, 3])
  check(tf.signal.rfft3d(X6.reshape(1, 2, 3), [2, 2, 2]), tf.complex64, [2, 2, 2],
        [3.5, -0.5, -5.5, 6.5, 3.5, -0.5, -5.5, 6.5])
  check(tf.signal.rfft([1, 2, 3]), tf.complex64, [2], [6, -1.5 + 0.8660254j])
  assert tf.signal.rfft(tf.constant(X6, tf.float64)).dtype == tf.complex128
  assert tf.signal.rfft(X6.astype(np.float64)).dtype == tf.complex64  # NumPy takes float32
  assert tf.signal.rfft(np.zeros([2, 0], np.float32), [4]).shape == (2, 3)
  with pytest.raises(ValueError, match=r"RFFT requires tf.float32 or tf.float64 inputs, got: "
                                       r"tf.Tensor\(\[1 2\], shape=\(2,\), dtype=int32\)"):
    tf.signal.rfft(tf.constant([1, 2]))
  with pytest.raises(ValueError, match=r"Shape \(\) must have rank at least 1"):
    tf.signal.rfft(tf.constant(1.))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"fft_length must have shape \[2\] \[Op:RFFT2D\]"):
    tf.signal.rfft2d(X6.reshape(2, 3), [3])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Input dimension 1 must have length of at least 4 but got: 3"):
    tf.signal.rfft(np.zeros([0, 3], np.float32), [4])


def test_irfft():
  spectrum = tf.signal.rfft(X6)
  check(tf.signal.irfft(spectrum), tf.float32, [6], X6)
  check(tf.signal.irfft(spectrum, [3]), tf.float32, [3], [-1.1666667, 2.3333335, 4.3333335])
  check(tf.spectral.irfft(spectrum, [9]), tf.float32, [9],
        [1.8333334, -1.5883033, -1.003846, 3.1666667, 0.16737746, 0.4306646, 3.8333333,
         -0.24574079, -1.0934852])
  skewed = np.array([1 + 1j, 2 + 2j, 3 + 3j], np.complex64)  # not Hermitian: imag(DC) dropped
  check(tf.signal.irfft(skewed), tf.float32, [4], [2, -1.5, 0, 0.5])
  check(tf.signal.irfft(skewed, [5]), tf.float32, [5],
        [2.2, -1.9897944, 0.59464645, -0.74743289, 0.94258064])
  spectrum2d = tf.signal.rfft2d(X6.reshape(2, 3))
  check(tf.signal.irfft2d(spectrum2d, [2, 3]), tf.float32, [2, 3], X6)
  check(tf.signal.irfft2d(spectrum2d, [3, 5]), tf.float32, [3, 5],
        [0.40000004, -0.79031658, -0.5199182, 0.83751363, 1.4060545, -0.75000006, 0.44051179,
         1.5980706, 1.1229694, -0.3282181, 1.2500001, 1.3880013, 0.18365121, -0.69867951,
         -0.03963973])
  check(tf.signal.irfft2d(np.arange(6).reshape(2, 3).astype(np.complex64) * (1 + 2j)),
        tf.float32, [2, 4], [2.5, -3, 0, 2, -1.5, 1.5, 0, -1.5])
  check(tf.signal.irfft3d(tf.signal.rfft3d(X6.reshape(1, 2, 3)), [1, 2, 3]), tf.float32,
        [1, 2, 3], X6)
  check(tf.signal.irfft([1., 2.]), tf.float32, [2], [1.5, -0.5])
  assert tf.signal.irfft(tf.cast(spectrum, tf.complex128)).dtype == tf.float64
  with pytest.raises(ValueError, match="IRFFT requires tf.complex64 or tf.complex128 inputs"):
    tf.signal.irfft(tf.constant([1., 2.]))


def test_fftshift():
  assert tf.signal.fftshift(np.arange(5)).numpy().tolist() == [3, 4, 0, 1, 2]
  assert tf.signal.ifftshift(np.arange(5)).numpy().tolist() == [2, 3, 4, 0, 1]
  grid = np.arange(6).reshape(2, 3)
  shifted = tf.signal.fftshift(grid)
  assert shifted.dtype == tf.int64 and shifted.numpy().tolist() == [[5, 3, 4], [2, 0, 1]]
  assert tf.signal.ifftshift(grid).numpy().tolist() == [[4, 5, 3], [1, 2, 0]]
  assert tf.signal.fftshift(grid, axes=1).numpy().tolist() == [[2, 0, 1], [5, 3, 4]]
  assert tf.signal.fftshift(grid, axes=[-1]).numpy().tolist() == [[2, 0, 1], [5, 3, 4]]
  assert tf.signal.ifftshift(grid, axes=-1).numpy().tolist() == [[1, 2, 0], [4, 5, 3]]
  assert tf.signal.fftshift([1., 2., 3.]).numpy().tolist() == [3., 1., 2.]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Taxis' of float"):
    tf.signal.fftshift(3.0)


# ---- DCT ----
D = np.array([[1., -2., 3., 0.5, 4.], [0., 1., 0., -1., 2.]], np.float32)
DCT1 = [[8, -6.5355339, -1, 0.53553391, 14], [2, 0.82842708, 2, -4.8284273, 2]]
DCT2 = [[13, -8.6452656, 3.0172205, 1.2285708, 11.51722],
        [4, -1.4530849, 3.236068, -6.1553669, 1.2360684]]
DCT2_ORTHO = [[2.9068882, -2.7338729, 0.95412886, 0.3885082, 3.6420648],
              [0.89442718, -0.4595058, 1.0233345, -1.9464979, 0.39087912]]
DCT3 = [[5.109796, -10.628436, 3.0000012, -4.0240412, 11.542679],
        [1.9626105, -0.15838413, 4, -6.3137527, 0.50952572]]
DCT3_ORTHO = [[1.7468456, -3.230021, 1.0796692, -1.1415277, 3.7811012],
              [0.62063187, -0.050085451, 1.2649112, -1.9965836, 0.16112614]]


@pytest.mark.parametrize("fn, kind, norm, golden", [
    (tf.signal.dct, 1, None, DCT1), (tf.signal.idct, 1, None, DCT1),
    (tf.signal.dct, 2, None, DCT2), (tf.spectral.idct, 3, None, DCT2),
    (tf.signal.dct, 2, "ortho", DCT2_ORTHO), (tf.signal.idct, 3, "ortho", DCT2_ORTHO),
    (tf.spectral.dct, 3, None, DCT3), (tf.signal.idct, 2, None, DCT3),
    (tf.signal.dct, 3, "ortho", DCT3_ORTHO), (tf.signal.idct, 2, "ortho", DCT3_ORTHO)])
def test_dct(fn, kind, norm, golden):
  check(fn(D, type=kind, norm=norm), tf.float32, [2, 5], golden)


def test_dct_length_dtype_and_errors():
  check(tf.signal.dct(D, n=3), tf.float32, [2, 3], [[4, -3.4641013, 8], [2, 0, -2]])
  check(tf.signal.dct(D, n=7), tf.float32, [2, 7],
        [[13, -2.0452375, -8.8170033, 5.2490544, 2.7355621, 3.2038169, 14.552565],
         [4, -0.1718719, -0.048917383, 3.0319445, -4.6920214, -5.0771809, 4.3568959]])
  check(tf.signal.idct(D, n=3, norm="ortho"), tf.float32, [2, 3],
        [[0.38788149, -1.8721393, 3.2163086], [0.70710677, 0, -0.70710677]])
  check(tf.signal.dct(D, type=1, n=3), tf.float32, [2, 3], [[0, -2, 8], [2, 0, -2]])
  check(tf.signal.dct(tf.constant(D[0], tf.float64), type=3, norm="ortho"), tf.float64, [5],
        [1.7468456, -3.2300206, 1.0796691, -1.1415275, 3.7811013])
  check(tf.signal.dct([2.], norm="ortho"), tf.float32, [1], [2.])
  assert tf.signal.dct(np.zeros([2, 0], np.float32)).shape == (2, 0)
  with pytest.raises(ValueError, match="Only Types I, II and III"):
    tf.signal.dct(D, type=4)  # type 4 came after TF 1.15
  with pytest.raises(NotImplementedError, match="axis must be -1. Got: 0"):
    tf.signal.dct(D, axis=0)
  with pytest.raises(ValueError, match="n should be a positive integer or None"):
    tf.signal.dct(D, n=0)
  with pytest.raises(ValueError, match="Normalization is not supported for the Type-I DCT"):
    tf.signal.idct(D, type=1, norm="ortho")
  with pytest.raises(ValueError, match="Type-I DCT requires the dimension to be greater than one"):
    tf.signal.dct(tf.constant([2.]), type=1)
  with pytest.raises(ValueError, match="Unknown normalization. Expected None or 'ortho', got: foo"):
    tf.signal.dct(D, norm="foo")
  with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int32"):
    tf.signal.dct([1, 2, 3])


# ---- STFT and reconstruction ----
SIG = (np.sin(np.arange(12) * 0.7) + 0.1 * np.arange(12)).astype(np.float32)


def test_stft():
  check(tf.signal.stft(SIG, 5, 3), tf.complex64, [3, 5],  # fft_length 8, Hann window
        [[2.1391633, -0.1481359 - 1.859827j, -1.1854497 + 0.20949581j,
          0.1481359 + 0.51107246j, 0.23173618],
         [0.38092297, 0.35587406 - 0.31305778j, -0.14921677 - 0.50328195j,
          -0.35587406 - 0.014624238j, -0.082489416],
         [0.48591399, -0.42400473 - 0.39301395j, -0.16873336 + 0.59963328j,
          0.42400473 - 0.055547237j, -0.14844728]])
  check(tf.contrib.signal.stft(SIG, tf.constant(5), 3, fft_length=6, pad_end=True),
        tf.complex64, [4, 4],
        [[2.1391633, -0.98827505 - 1.3488853j, -0.19717464 + 0.70437384j, 0.23173618],
         [0.38092297, 0.24492654 - 0.44748467j, -0.39414331 - 0.18903367j, -0.082489416],
         [0.48591399, -0.61338675 - 0.023821816j, 0.44465339 + 0.26843292j, -0.14844728],
         [2.9166615, -0.62983739 - 2.5259027j, -1.4583308 + 1.0909104j, 1.2596748]])
  check(tf.signal.stft(SIG, 4, 4, window_fn=None), tf.complex64, [3, 3],
        [[3.0928769, -1.1854497 + 0.41899163j, -0.72197735],
         [0.33017653, 1.0065639 - 0.43166938j, 0.59664822],
         [4.8307018, -1.4882532 + 1.1713543j, -1.179262]])
  check(tf.signal.stft(SIG.reshape(2, 6), 4, 2, window_fn=tf.signal.hamming_window),
        tf.complex64, [2, 2, 3],
        [[[2.2154603, -1.1854497 + 0.22625548j, 0.15543902],
          [1.5385343, -0.64015216 - 0.54755598j, 0.12111402]],
         [[0.48956239, -0.19045943 + 0.64760393j, -0.19554782],
          [3.2931757, -1.6434879 + 0.63253129j, 0.047794938]]])
  check(tf.signal.stft(SIG, 8, 4, fft_length=4), tf.complex64, [2, 3],  # frames cut to 4
        [[1.6945744, -0.59272486 + 0.88387305j, -0.50912458],
         [-0.35502398, 0.13578789 - 0.26294068j, 0.083448187]])
  check(tf.signal.stft(SIG.astype(np.float64), 8, 4), tf.complex128, [2, 5],
        [[2.3797748, -1.47929 - 1.4468266j, 0.27805118 + 0.71514439j,
          0.0093137239 + 0.010198917j, 0.0040754537],
         [1.7305574, -0.31991548 + 1.8888876j, -0.52397205 - 0.73968515j,
          -0.017551241 - 0.039674821j, -0.0076799045]])
  check(tf.signal.stft([1., 2., 3., 4.], 4, 2), tf.complex64, [1, 3], [[6, -3 + 1j, 0]])
  with pytest.raises(ValueError, match="dtype must be a floating point type. Found "
                                       "<dtype: 'int64'>"):
    tf.signal.stft(np.arange(8), 4, 2)
  with pytest.raises(ValueError, match=r"Shape \(\) must have rank at least 1"):
    tf.signal.stft(1., 4, 2)
  with pytest.raises(ValueError, match=r"Shape \(1,\) must have rank 0"):
    tf.signal.stft(SIG, [5], 3)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Input dimension 1 must have length of at least 8 but got: 5"):
    tf.signal.stft(SIG[:3], 5, 3)  # no frames: TF skips the padding, then RFFT rejects it


def test_inverse_stft():
  stfts = tf.signal.stft(SIG, 6, 3, fft_length=8)
  istft = [0, 0.046513591, 0.66681552, 1.1632092, 0.45936751, 0.093260475, -0.27157575,
           -0.17653285, 0.10545836, 0.91681397, 0.9320547, 0.13051033]
  check(tf.signal.inverse_stft(stfts, 6, 3, fft_length=8), tf.float32, [12], istft)
  check(tf.contrib.signal.inverse_stft(stfts, 6, 3), tf.float32, [12], istft)
  window_fn = tf.signal.inverse_stft_window_fn(3)
  check(tf.signal.inverse_stft(stfts, 6, 3, fft_length=8, window_fn=window_fn), tf.float32, [12],
        [0, 0.074421749, 1.066905, 1.1632092, 0.73498809, 0.14921679, -0.27157575, -0.28245258,
         0.1687334, 0.91681397, 1.4912877, 0.20881657])
  # frames longer than fft_length are zero-padded
  check(tf.signal.inverse_stft(stfts, 10, 3, fft_length=8, window_fn=None), tf.float32, [16],
        [0, 0.18605436, 0.88908732, 1.1632092, 0.73498809, 0.14921676, -0.27157569, -0.28245252,
         0.16873336, 0.91681397, 1.2427397, 0.52204168, 0, 0, 0, 0])
  wide = tf.signal.inverse_stft(tf.cast(stfts, tf.complex128), 6, 3)
  check(wide, tf.float64, [12], istft)
  with pytest.raises(ValueError, match="IRFFT requires tf.complex64 or tf.complex128 inputs"):
    tf.signal.inverse_stft(np.ones([2, 5], np.float32), 8, 4)
  with pytest.raises(ValueError, match=r"Shape \(5,\) must have rank at least 2"):
    tf.signal.inverse_stft(np.ones([5], np.complex64), 8, 4)


def test_inverse_stft_window_fn():
  check(tf.signal.inverse_stft_window_fn(3)(6, dtype=tf.float32), tf.float32, [6],
        [0, 0.40000004, 1.2000003, 1, 1.2, 0.3999998])
  window_fn = tf.contrib.signal.inverse_stft_window_fn(
      2, forward_window_fn=tf.signal.hamming_window)
  check(window_fn(7, tf.float64), tf.float64, [7],
        [0.066744535, 0.26002349, 0.64241615, 0.83878544, 0.64241615, 0.26002349, 0.066744535])
  check(tf.signal.inverse_stft_window_fn(4)(2, tf.float32), tf.float32, [2], [0, 1])  # 0/0 -> 0


def test_overlap_and_add():
  frames = np.arange(12, dtype=np.float32).reshape(3, 4)
  check(tf.signal.overlap_and_add(frames, 2), tf.float32, [8], [0, 1, 6, 8, 14, 16, 10, 11])
  check(tf.signal.overlap_and_add(frames, 1), tf.float32, [6], [0, 5, 15, 18, 17, 11])
  check(tf.signal.overlap_and_add(frames, 4), tf.float32, [12], np.arange(12))
  check(tf.contrib.signal.overlap_and_add(frames, 5), tf.float32, [14],
        [0, 1, 2, 3, 0, 4, 5, 6, 7, 0, 8, 9, 10, 11])
  check(tf.signal.overlap_and_add(np.arange(21.).reshape(3, 7), 3), tf.float64, [13],
        [0, 1, 2, 10, 12, 14, 30, 26, 28, 30, 18, 19, 20])
  batch = tf.signal.overlap_and_add(np.arange(24).reshape(2, 3, 4), tf.constant(3))
  assert batch.dtype == tf.int64 and batch.numpy().tolist() == [
      [0, 1, 2, 7, 5, 6, 15, 9, 10, 11], [12, 13, 14, 31, 17, 18, 39, 21, 22, 23]]
  small = tf.signal.overlap_and_add(np.arange(12, dtype=np.int32).reshape(3, 4), 3)
  assert small.dtype == tf.int32
  assert tf.signal.overlap_and_add(frames.astype(np.complex64), 3).dtype == tf.complex64
  check(tf.signal.overlap_and_add(np.zeros([0, 4], np.float32), 2), tf.float32, [2], [0, 0])
  check(tf.signal.overlap_and_add(np.zeros([3, 0], np.float32), 2), tf.float32, [4], [0] * 4)
  with pytest.raises(ValueError, match=r"Shape \(4,\) must have rank at least 2"):
    tf.signal.overlap_and_add(np.arange(4.), 1)
  with pytest.raises(ValueError, match="frame_step must be an integer. Got <dtype: 'float32'>"):
    tf.signal.overlap_and_add(frames, 2.0)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Paddings must be non-negative: 0 -4 \[Op:Pad\]"):
    tf.signal.overlap_and_add(frames, 0)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bool"):
    tf.signal.overlap_and_add(np.ones([3, 4], bool), 2)


# ---- Mel matrices and MFCCs ----
def test_linear_to_mel_weight_matrix():
  default = tf.signal.linear_to_mel_weight_matrix()
  assert default.dtype == tf.float32 and default.shape == (129, 20)
  np.testing.assert_allclose(float(tf.reduce_sum(default)), 110.80084, rtol=1e-5)
  np.testing.assert_allclose(default.numpy()[5:9, 0],
                             [0.46023089, 0.90396237, 0.66766191, 0.2536163], atol=2e-5)
  np.testing.assert_allclose(default.numpy()[120:122, 19], [0.13831182, 0.051685255], atol=2e-5)
  assert np.argmax(default.numpy(), 0).tolist() == [
      6, 9, 11, 14, 17, 20, 24, 28, 32, 37, 42, 47, 53, 59, 66, 74, 82, 91, 100, 110]
  check(tf.contrib.signal.linear_to_mel_weight_matrix(3, 9, 16000, 100., 7000.), tf.float32,
        [9, 3], [[0, 0, 0], [0.66846174, 0.33153826, 0], [0, 0.85123706, 0.14876297],
                 [0, 0.29464611, 0.70535392], [0, 0, 0.87204659], [0, 0, 0.53128231],
                 [0, 0, 0.24574304], [0, 0, 0], [0, 0, 0]])
  check(tf.signal.linear_to_mel_weight_matrix(2, 5, 8000, 0., 4000., dtype=tf.float64),
        tf.float64, [5, 2], [[0, 0], [0.60211258, 0.39788742], [0, 0.87327986],
                             [0, 0.37689053], [0, 0]])
  check(tf.signal.linear_to_mel_weight_matrix(tf.constant(2), 5, tf.constant(8000.5), 0., 4000.),
        tf.float32, [5, 2], [[0, 0], [0.60205472, 0.39794528], [0, 0.87320691],
                             [0, 0.37681079], [0, 0]])
  check(tf.signal.linear_to_mel_weight_matrix(2, 0, 8000, 0., 4000.), tf.float32, [1, 2], [0, 0])
  for kwargs, message in [
      (dict(num_mel_bins=0), "num_mel_bins must be positive. Got: 0"),
      (dict(lower_edge_hertz=-1.), "lower_edge_hertz must be non-negative. Got: -1.0"),
      (dict(lower_edge_hertz=300., upper_edge_hertz=200.),
       "lower_edge_hertz 300.0 >= upper_edge_hertz 200.0"),
      (dict(sample_rate=0), "sample_rate must be positive. Got: 0"),
      (dict(upper_edge_hertz=5000.), r"upper_edge_hertz must not be larger than the Nyquist "
                                     r"frequency \(sample_rate / 2\). Got 5000.0 for "
                                     r"sample_rate: 8000"),
      (dict(dtype=tf.int32), "dtype must be a floating point type. Got: <dtype: 'int32'>")]:
    with pytest.raises(ValueError, match=message):
      tf.signal.linear_to_mel_weight_matrix(**kwargs)


def test_mfccs_from_log_mel_spectrograms():
  log_mel = np.array([[1., 2., 0.5, -1.], [0.25, 3., 1., 2.]], np.float32)
  check(tf.signal.mfccs_from_log_mel_spectrograms(log_mel), tf.float32, [2, 4],
        [[1.767767, 1.7124598, -1.25, -0.4387261], [4.4194174, -0.60204661, -0.875, -1.7801095]])
  check(tf.contrib.signal.mfccs_from_log_mel_spectrograms(tf.constant(log_mel[0], tf.float64)),
        tf.float64, [4], [1.767767, 1.71246, -1.25, -0.43872612])
  with pytest.raises(ValueError, match="num_mel_bins must be positive"):
    tf.signal.mfccs_from_log_mel_spectrograms(np.zeros([2, 0], np.float32))
  with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int32"):
    tf.signal.mfccs_from_log_mel_spectrograms(tf.constant([1, 2, 3]))


# ---- Gradients (golden: TF's GradientTape) and tracing ----
def gradient(fn, value):
  x = tf.constant(value)
  with tf.GradientTape() as tape:
    tape.watch(x)
    loss = fn(x)
  return tape.gradient(loss, x)


def test_gradients():
  w = np.array([0.5, -1., 2., 0.25], np.float32)
  check(gradient(lambda x: tf.reduce_sum(tf.real(tf.signal.rfft(x)) * w)
                 + tf.reduce_sum(tf.imag(tf.signal.rfft(x)) * w[::-1]), X6), tf.float32, [6],
        [1.75, -2.1160254, -2.3480761, 3.25, 2.8480761, -0.38397437])
  check(gradient(lambda x: tf.reduce_sum(tf.abs(tf.signal.rfft(x, [8])) ** 2), X6), tf.float32,
        [6], [24, -21, 40, -1, 48, -13])
  check(gradient(lambda x: tf.reduce_sum(tf.abs(tf.signal.rfft2d(x))), X6.reshape(2, 3)),
        tf.float32, [2, 3], [[-0.82933599, -0.43865231, 1.2679882],
                             [0.82933593, 3.4386523, 1.7320118]])
  check(gradient(lambda x: tf.reduce_sum(tf.abs(tf.signal.stft(x, 5, 3))), SIG), tf.float32, [12],
        [0, -0.20065111, 4.9420509, 0.22637287, 2.3461249, 0.90369308, 0.14994922, 0.19510779,
         0.82077432, 2.3774314, 0, 0])
  check(gradient(lambda z: tf.reduce_sum(tf.real(tf.signal.fft(z)) * tf.range(1., 5.))
                 + tf.reduce_sum(tf.imag(tf.signal.fft(z)) ** 2), C4), tf.complex64, [4],
        [10 + 16j, 10 - 5j, -2 + 4j, -14 - 1j])
  check(gradient(lambda z: tf.reduce_sum(tf.signal.irfft(z) * tf.range(1., 7.)), C4),
        tf.complex64, [4], [3.5, -1 + 1.7320508j, -1 + 0.57735026j, -0.5])
  log_mel = np.array([[1., 2., 0.5, -1.], [0.25, 3., 1., 2.]], np.float32)
  check(gradient(lambda x: tf.reduce_sum(tf.signal.mfccs_from_log_mel_spectrograms(x)
                                         * tf.range(1., 5.)), log_mel), tf.float32, [2, 4],
        [[4.5960617, -2.8648229, 1.2790368, -0.1818482]] * 2)
  check(gradient(lambda x: tf.reduce_sum(tf.signal.dct(x, type=1) * tf.range(1., 5.)), log_mel),
        tf.float32, [2, 4], [[10, -7, 5, -2]] * 2)
  check(gradient(lambda x: tf.reduce_sum(tf.signal.dct(x, type=3, norm="ortho")
                                         * tf.range(1., 5.)), log_mel), tf.float32, [2, 4],
        [[5, -2.2304425, 0, -0.15851244]] * 2)
  check(gradient(lambda x: tf.reduce_sum(tf.signal.overlap_and_add(x, 3) * tf.range(1., 11.)),
                 np.arange(12, dtype=np.float32).reshape(3, 4)), tf.float32, [3, 4],
        [[1, 2, 3, 4], [4, 5, 6, 7], [7, 8, 9, 10]])
  stfts = tf.signal.stft(SIG, 6, 3, fft_length=8).numpy()
  check(gradient(lambda s: tf.reduce_sum(tf.signal.inverse_stft(s, 6, 3, fft_length=8)
                                         * tf.range(1., 13.)), stfts)[0], tf.complex64, [5],
        [1.5, -1.8213832 - 1.0928303j, 0.375 + 0.5j, -0.053616703 + 0.0321697j, 0])


def test_traced_matches_eager():
  signal = np.sin(np.arange(40) * 0.3).astype(np.float32)

  def features(x):
    spectrogram = tf.abs(tf.signal.stft(x, 8, 4))
    mel = tf.matmul(spectrogram, tf.signal.linear_to_mel_weight_matrix(4, 5, 8000, 0., 4000.))
    mfccs = tf.signal.mfccs_from_log_mel_spectrograms(tf.log(mel + 1e-3))
    return mfccs, tf.signal.inverse_stft(tf.signal.stft(x, 8, 4), 8, 4), tf.signal.dct(x, type=1)

  for traced, eager in zip(tf.function(features)(tf.constant(signal)), features(signal)):
    assert traced.dtype == eager.dtype == tf.float32 and traced.shape == eager.shape
    np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-5, atol=1e-5)
