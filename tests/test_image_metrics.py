"""tf.image metrics, gradients/edges, YUV/YIQ, crop_and_resize, draw_bounding_boxes and
extract_patches against golden values from TensorFlow 2.21 (tf.compat.v1.image, eager)."""
import numpy as np
import pytest

import tfe_compat as tf


def inputs():
  """The test images, drawn from one seed (the oracle saw the same arrays)."""
  rng = np.random.default_rng(0)
  d = {}
  d["A"] = rng.random((2, 16, 16, 3), dtype=np.float32)
  d["B"] = np.clip(d["A"] + np.float32(0.1) * rng.standard_normal((2, 16, 16, 3), dtype=np.float32),
                   0, 1)
  d["U1"] = rng.integers(0, 256, (2, 16, 16, 1), dtype=np.uint8)
  d["U2"] = np.clip(d["U1"].astype(np.int32) + rng.integers(-20, 21, (2, 16, 16, 1)), 0,
                    255).astype(np.uint8)
  base = rng.random((1, 45, 45, 1), dtype=np.float32)
  d["C"] = np.kron(base, np.ones((1, 4, 4, 1), np.float32))[:, :178, :178]  # blocky 178x178
  d["D"] = np.clip(d["C"] + np.float32(0.05) * rng.standard_normal(d["C"].shape, dtype=np.float32),
                   0, 1)
  d["E"] = rng.random((2, 50, 46, 2), dtype=np.float32)
  d["F"] = np.clip(d["E"] + np.float32(0.2) * rng.standard_normal(d["E"].shape, dtype=np.float32),
                   0, 1)
  d["G"] = rng.standard_normal((1, 4, 5, 2), dtype=np.float32)
  d["RGB"] = rng.random((2, 3), dtype=np.float32)
  d["IMG"] = rng.random((2, 5, 6, 1), dtype=np.float32)
  return d


D = inputs()
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.3, 1.1, 0.7], [0.9, 0.8, 0.1, 0.2],
                  [0.5, 0.5, 0.5, 0.5]], np.float32)
BOX_IND = [0, 1, 1, 0]
DRAW_BOXES = np.array([[[0.1, 0.1, 0.6, 0.8], [-0.2, 0.5, 0.9, 1.3], [0.5, 0.5, 0.2, 0.9],
                        [0.0, 0.0, 1.0, 1.0], [1.2, 0.0, 1.5, 1.0], [0.3, 0.25, 0.7, 0.55]]],
                      np.float32)

# ---- Golden values (TensorFlow 2.21, tf.compat.v1.image) ----
PSNR = [20.47353, 20.31491]
PSNR_U8 = [26.6573, 26.88146]
PSNR_BCAST = [20.47353, 7.734613]
SSIM = [0.9430593, 0.945568]
SSIM_U8 = [0.9838783, 0.9864165]
SSIM_F64 = [0.9430593, 0.945568]
SSIM_ARGS = [0.9459796, 0.9375781]
SSIM_MAP_MEAN = [0.9430594, 0.945568]
SSIM_MAP_00 = [0.9583461, 0.9479821]
MSSSIM = [0.9965867]
MSSSIM_U8 = [0.9965879]
MSSSIM_ODD = [0.8220043, 0.8295897]
MSSSIM_PF = [0.8092968, 0.8142455]
DY = [[[[-0.553834, -0.4510148], [2.390969, 0.6246036], [-2.197022, 1.648688], [-0.4447172, 0.1880631], [0.8977177, -1.215648]], [[0.5497276, 0.8346204], [-0.5728869, 1.469922], [2.349604, -0.9546077], [0.7629409, 1.036441], [1.46639, -1.728665]], [[-0.3173606, -0.3547061], [-0.05476696, -0.8690413], [-0.8820279, -0.93392], [-0.2454837, -2.185675], [-0.09906173, 1.675937]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]]
DX = [[[[-2.078925, -0.3765389], [3.380657, 0.1538631], [-1.6937, -0.186048], [-0.3821955, 2.066487], [0.0, 0.0]], [[0.8658786, 0.6990795], [-1.207335, 1.177947], [0.05860478, -1.646673], [0.9602395, 0.6627758], [0.0, 0.0]], [[-0.2567359, 1.334381], [1.715156, -1.246582], [-1.528059, 0.3443762], [1.663688, -2.102331], [0.0, 0.0]], [[0.005857758, 0.8200458], [0.8878955, -1.311461], [-0.8915144, -0.9073787], [1.81011, 1.759282], [0.0, 0.0]]]]
SOBEL = [[[[[0.0, 0.0], [0.0, 0.0]], [[0.0, 1.920553], [0.0, 3.308702]], [[-5.960464e-08, 1.076454], [5.960464e-08, -1.001821]], [[0.0, -2.114103], [0.0, 1.793084]], [[0.0, 0.0], [0.0, 0.0]]], [[[3.627952, 0.0], [4.956262, 0.0]], [[3.78464, 2.077241], [5.266737, 3.619177]], [[2.44147, -0.4234052], [4.70719, -1.871842]], [[3.153137, 0.09742248], [0.1987755, -1.845309]], [[5.364662, 0.0], [-3.439618, 0.0]]], [[[-0.7905736, 0.0], [2.16159, 0.0]], [[0.4446357, 3.469139], [-0.2068524, 1.561209]], [[2.824956, -0.7781528], [-4.325409, -4.491977]], [[3.869819, 2.2087], [-4.239724, -3.647904]], [[3.769571, 0.0], [-2.403924, 0.0]]], [[[7.450581e-09, 0.0], [0.0, 0.0]], [[0.0, 4.704348], [8.940697e-08, -0.8072327]], [[7.450581e-08, 0.3669581], [-1.192093e-07, -6.242092]], [[-1.192093e-07, 2.108451], [0.0, -1.812104]], [[7.450581e-08, 0.0], [-5.960464e-08, 0.0]]]]]
RGB_TO_YUV = [[0.3960132, -0.07732694, -0.01166004], [0.3895896, -0.001702545, -0.2199599]]
YUV_TO_RGB = [[0.6550174, 0.07302471, 1.263214], [0.5790039, -0.2897493, 1.191418]]
RGB_TO_YIQ = [[0.3960132, 0.03233634, -0.07121636], [0.3895896, -0.1835466, -0.1212317]]
YIQ_TO_RGB = [[0.9452534, 0.1102548, 0.3102785], [0.8737571, -0.2519398, 0.2236516]]
YUV_F64 = [[0.3960132, -0.07732694, -0.01166004], [0.3895896, -0.001702546, -0.2199599]]
CAR_BILINEAR = [[[0.7036542, 0.712164, 0.415632, 0.2829421], [0.6221771, 0.880216, 0.8443283, 0.7885861], [0.6277806, 0.5624383, 0.4918569, 0.2378457]], [[-1.0, -1.0, -1.0, -1.0], [0.4120786, 0.4839751, 0.4603516, 0.394715], [-1.0, -1.0, -1.0, -1.0]], [[0.3720719, 0.4597817, 0.1845011, 0.9469245], [0.2416632, 0.5222549, 0.429552, 0.1906744], [0.8751048, 0.6187199, 0.4186674, 0.5618091]], [[0.9089481, 0.9089481, 0.9089481, 0.9089481], [0.9089481, 0.9089481, 0.9089481, 0.9089481], [0.9089481, 0.9089481, 0.9089481, 0.9089481]]]
CAR_NEAREST = [[[0.6147422, 0.8046577, 0.4306371, 0.5194287], [0.5684658, 0.9458328, 0.8720633, 0.8468013], [0.7280899, 0.6182623, 0.6676398, 0.4614535]], [[-1.0, -1.0, -1.0, -1.0], [0.429552, 0.429552, 0.5222549, 0.2416632], [-1.0, -1.0, -1.0, -1.0]], [[0.1619691, 0.6543198, 0.2770575, 0.9798477], [0.2416632, 0.5222549, 0.429552, 0.1906744], [0.9863283, 0.9090611, 0.2103145, 0.3305585]], [[0.8720633, 0.8720633, 0.8720633, 0.8720633], [0.8720633, 0.8720633, 0.8720633, 0.8720633], [0.8720633, 0.8720633, 0.8720633, 0.8720633]]]
CAR_1X1 = [[[0.8374676]], [[0.4721633]], [[0.4759035]], [[0.9089481]]]
CAR_U8 = [[[142.8, 144.3, 160.0], [232.2, 55.8, 85.5]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]
CAR_GRAD_IMAGE_BILINEAR = [[[0.0, 0.0, 0.05000001, 0.09, 0.13, 0.09], [0.0, 0.08000002, 0.1166667, 0.1566667, 0.1966667, 0.13], [0.0, 0.32, 25.23333, 25.28667, 0.4399999, 0.28], [0.0, 0.64, 0.6, 0.6533332, 0.7066666, 0.44], [0.0, 0.16, 0.1500001, 0.1633334, 0.1766667, 0.11]], [[0.0, 2.1, 2.04, 1.98, 1.92, 0.0], [0.0, 1.56, 1.863333, 1.866666, 1.47, 0.0], [0.0, 3.74, 5.013334, 5.086667, 3.56, 0.0], [0.0, 1.08, 1.04, 1.0, 0.9600003, 0.0], [0.0, 1.62, 1.56, 1.5, 1.44, 0.0]]]
CAR_GRAD_BOXES_BILINEAR = [[1.521664, -0.7450043, -2.370866, -0.9677358], [-1.700194, 0.937731, -1.700194, -1.447893], [3.116376, 0.0, 2.037364, 0.0], [0.0, -8.999887, 0.0, -9.368734]]
CAR_GRAD_IMAGE_NEAREST = [[[0.0, 0.0, 0.1, 0.2, 0.0, 0.3], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.4, 0.5, 50.4, 0.0, 0.7], [0.0, 0.8, 0.9, 1.0, 0.0, 1.1], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 3.5, 3.4, 3.3, 3.2, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 3.1, 6.3, 4.7, 4.7, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 2.7, 2.6, 2.5, 2.4, 0.0]]]
CAR_GRAD_BOXES_NEAREST = [[1.521664, -0.7450043, -2.370866, -0.9677358], [-1.700194, 0.937731, -1.700194, -1.447893], [3.116376, 0.0, 2.037364, 0.0], [0.0, -8.999887, 0.0, -9.368734]]
DRAW_DEFAULT = [[[[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]], [[0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 0.0], [0.5, 0.5, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], [[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]]]
DRAW_GRAY = [[[1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5], [1.0, 0.5, 0.5, 1.0, 1.0, 0.5, 0.5], [1.0, 0.5, 0.5, 1.0, 1.0, 0.5, 0.5], [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5], [0.5, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]]]
DRAW_COLORS = [[[[0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6]], [[0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.0, 0.0], [0.9, 0.8, 0.7, 0.6]], [[0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.0, 0.0, 0.0, 0.0], [0.9, 0.8, 0.7, 0.6], [0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.0, 0.0], [0.9, 0.8, 0.7, 0.6]], [[0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.0, 0.0], [0.9, 0.8, 0.7, 0.6]], [[0.9, 0.8, 0.7, 0.6], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6]], [[0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.7, 0.6]]]]
DRAW_HALF = [[0.09997559, 0.1999512, 0.3000488], [0.09997559, 0.1999512, 0.3000488], [0.09997559, 0.1999512, 0.3000488], [0.09997559, 0.1999512, 0.3000488], [0.09997559, 0.1999512, 0.3000488], [0.09997559, 0.1999512, 0.3000488], [0.09997559, 0.1999512, 0.3000488]]
SSIM_GRAD = [-0.01359483, -2.385259e-09, 0.00912887, 0.9146137]
MSSSIM_GRAD = [0.00176423, -0.0001756698, -0.000792038, 4.607952]
PSNR_GRAD = [-0.6605997, -0.0598712, 72.41176]
SOBEL_GRAD = [[[-3.0, -3.0, 0.0, 3.0, 3.0], [-5.0, -5.0, 0.0, 5.0, 5.0], [-5.0, -5.0, 0.0, 5.0, 5.0], [-3.0, -3.0, 0.0, 3.0, 3.0]]]


def close(tensor, golden, rtol=1e-5, atol=1e-6):
  value = np.asarray(tensor)
  golden = np.asarray(golden)
  np.testing.assert_allclose(value.reshape(golden.shape), golden, rtol=rtol, atol=atol)


def raises(error, text, fn, *args, **kwargs):
  with pytest.raises(error) as info:
    fn(*args, **kwargs)
  assert str(info.value) == text


# ---- PSNR ----
def test_psnr_values_and_dtypes():
  value = tf.image.psnr(D["A"], D["B"], 1.0)
  assert value.dtype == tf.float32 and value.shape == (2,)
  close(value, PSNR)
  close(tf.image.psnr(tf.constant(D["U1"]), tf.constant(D["U2"]), 255), PSNR_U8)
  close(tf.image.psnr(D["A"][:1], D["B"], 1.0), PSNR_BCAST)  # batch dims broadcast
  half = tf.image.psnr(tf.constant([[[0.25]]], tf.float16), tf.constant([[[0.5]]], tf.float16), 1.0)
  assert half.dtype == tf.float32
  close(half, 12.0412)
  close(tf.image.psnr(tf.constant([[[10]]], tf.uint8), tf.constant([[[20]]], tf.uint8), 1.0), -20.0)
  assert np.isinf(tf.image.psnr(tf.constant([[[0.5]]]), tf.constant([[[0.5]]]), 1.0).numpy())


def test_psnr_errors():
  raises(tf.errors.InvalidArgumentError,
         "Incompatible shapes: [4,4,1] vs. [4,5,1] [Op:SquaredDifference]", tf.image.psnr,
         tf.zeros((4, 4, 1)), tf.zeros((4, 5, 1)), 1.0)
  raises(tf.errors.InvalidArgumentError,
         "Invalid reduction dimension (-3 for input with 2 dimension(s) [Op:Mean]",
         tf.image.psnr, tf.zeros((4, 4)), tf.zeros((4, 4)), 1.0)


# ---- SSIM / MS-SSIM ----
def test_ssim_values_and_dtypes():
  value = tf.image.ssim(tf.constant(D["A"]), tf.constant(D["B"]), 1.0)
  assert value.dtype == tf.float32 and value.shape == (2,)
  close(value, SSIM)
  close(tf.image.ssim(tf.constant(D["U1"]), tf.constant(D["U2"]), 255), SSIM_U8)
  a64, b64 = (tf.constant(D[k], tf.float64) for k in "AB")
  f64 = tf.image.ssim(a64, b64, 1.0)
  assert f64.dtype == tf.float32
  close(f64, SSIM_F64)
  close(tf.image.ssim(D["A"], D["B"], 2.0, filter_size=5, filter_sigma=0.8, k1=0.02, k2=0.05),
        SSIM_ARGS)
  single = tf.image.ssim(D["A"][0], D["B"][0], 1.0)  # one [h, w, c] image: a scalar
  assert single.shape == ()
  close(single, SSIM[0])
  close(tf.image.ssim(D["A"], D["A"], 1.0), [1.0, 1.0], 0, 0)
  index_map = tf.image.ssim(D["A"], D["B"], 1.0, return_index_map=True)
  assert index_map.shape == (2, 6, 6) and index_map.dtype == tf.float32
  close(tf.reduce_mean(index_map, [1, 2]), SSIM_MAP_MEAN)
  close(index_map[:, 0, 0], SSIM_MAP_00)


def test_ssim_multiscale_values():
  value = tf.image.ssim_multiscale(tf.constant(D["C"]), tf.constant(D["D"]), 1.0)
  assert value.dtype == tf.float32 and value.shape == (1,)
  close(value, MSSSIM)
  c8, d8 = ((D[k] * 255).astype(np.uint8) for k in "CD")
  close(tf.image.ssim_multiscale(tf.constant(c8), tf.constant(d8), 255), MSSSIM_U8)
  # odd sizes (50x46 -> 25x23 -> ...) are padded SYMMETRIC before each 2x2 average
  close(tf.image.ssim_multiscale(D["E"], D["F"], 1.0, filter_size=3), MSSSIM_ODD)
  close(tf.image.ssim_multiscale(D["E"], D["F"], 1.0, power_factors=(0.3, 0.7), filter_size=5,
                                 filter_sigma=1.0), MSSSIM_PF)


def test_ssim_errors():
  raises(ValueError, "Shape (4, 4) must have rank at least 3", tf.image.ssim,
         tf.zeros((4, 4)), tf.zeros((4, 4)), 1.0)
  raises(ValueError, "Shapes (16, 16, 1) and (16, 15, 1) are incompatible", tf.image.ssim,
         tf.zeros((1, 16, 16, 1)), tf.zeros((1, 16, 15, 1)), 1.0)
  raises(ValueError, "Two images are not compatible: (2, 16, 16, 1) and (3, 16, 16, 1)",
         tf.image.ssim, tf.zeros((2, 16, 16, 1)), tf.zeros((3, 16, 16, 1)), 1.0)
  raises(tf.errors.InvalidArgumentError, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to "
         "be true. Summarized data: 1, 8, 8, 1\n11", tf.image.ssim, tf.zeros((1, 8, 8, 1)),
         tf.zeros((1, 8, 8, 1)), 1.0)
  raises(tf.errors.InvalidArgumentError, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to "
         "be true. Summarized data: 2, 3, 10, 10, 1\n11", tf.image.ssim_multiscale,
         tf.zeros((2, 3, 40, 40, 1)), tf.zeros((2, 3, 40, 40, 1)), 1.0)


def test_metric_gradients():
  a = tf.Variable(D["A"][:1])
  with tf.GradientTape() as tape:
    value = tf.image.ssim(a, tf.constant(D["B"][:1]), 1.0)
  g = tape.gradient(value, a).numpy()
  close([g.sum(), g[0, 0, 0, 0], g[0, 7, 8, 1], np.abs(g).sum()], SSIM_GRAD, 1e-4, 1e-7)
  e = tf.Variable(D["E"][:1])
  with tf.GradientTape() as tape:
    value = tf.image.ssim_multiscale(e, tf.constant(D["F"][:1]), 1.0, filter_size=3)
  g = tape.gradient(value, e).numpy()
  # the sum cancels down to ~4e-4 of sum(|g|): compare it at that scale
  close([g.sum(), g[0, 0, 0, 0], g[0, 20, 21, 1], np.abs(g).sum()], MSSSIM_GRAD, 1e-4, 2e-5)
  with tf.GradientTape() as tape:
    value = tf.image.psnr(a, tf.constant(D["B"][:1]), 1.0)
  g = tape.gradient(value, a).numpy()
  close([g.sum(), g[0, 0, 0, 0], np.abs(g).sum()], PSNR_GRAD, 1e-4)


# ---- image_gradients / sobel_edges ----
def test_image_gradients():
  dy, dx = tf.image.image_gradients(tf.constant(D["G"]))
  assert dy.dtype == dx.dtype == tf.float32 and dy.shape == dx.shape == (1, 4, 5, 2)
  close(dy, DY)
  close(dx, DX)
  dy, dx = tf.image.image_gradients(tf.constant(np.arange(8, dtype=np.uint8).reshape(1, 2, 4, 1)))
  assert dy.dtype == tf.uint8
  assert dy.numpy()[0, :, :, 0].tolist() == [[4, 4, 4, 4], [0, 0, 0, 0]]
  assert dx.numpy()[0, :, :, 0].tolist() == [[1, 1, 1, 0], [1, 1, 1, 0]]
  x = tf.Variable(np.arange(12, dtype=np.float32).reshape((1, 3, 4, 1)))
  with tf.GradientTape() as tape:
    dy, dx = tf.image.image_gradients(x * x)
    total = tf.reduce_sum(dy * dy) + tf.reduce_sum(dx)
  close(tape.gradient(total, x)[0, :, :, 0], [[0, -96, -256, -474], [-520, -640, -768, -882],
                                              [1520, 2016, 2560, 3190]])
  raises(ValueError, "image_gradients expects a 4D tensor [batch_size, h, w, d], not (4, 4, 1).",
         tf.image.image_gradients, tf.zeros((4, 4, 1)))


def test_sobel_edges():
  edges = tf.image.sobel_edges(tf.constant(D["G"]))
  assert edges.shape == (1, 4, 5, 2, 2) and edges.dtype == tf.float32
  close(edges, SOBEL)
  assert tf.image.sobel_edges(tf.constant(D["G"], tf.float64)).dtype == tf.float64
  g = tf.Variable(D["G"])
  with tf.GradientTape() as tape:
    total = tf.reduce_sum(tf.image.sobel_edges(g) * tf.range(2.0))
  close(tape.gradient(total, g)[..., 0], SOBEL_GRAD)
  raises(tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list of "
         "allowed values: half, bfloat16, float, double [Op:DepthwiseConv2dNative]",
         tf.image.sobel_edges, tf.zeros((1, 4, 4, 1), tf.int32))
  raises(tf.errors.InvalidArgumentError, "The first dimension of paddings must be the rank of "
         "inputs[4,2], [4,4,1] [Op:MirrorPad]", tf.image.sobel_edges, tf.zeros((4, 4, 1)))
  raises(tf.errors.InvalidArgumentError, "paddings must be less than the dimension size: 1, 1 "
         "not less than 1 [Op:MirrorPad]", tf.image.sobel_edges, tf.zeros((1, 1, 1, 1)))


# ---- YUV / YIQ ----
def test_color_spaces():
  rgb = tf.constant(D["RGB"])
  for fn, golden in [(tf.image.rgb_to_yuv, RGB_TO_YUV), (tf.image.yuv_to_rgb, YUV_TO_RGB),
                     (tf.image.rgb_to_yiq, RGB_TO_YIQ), (tf.image.yiq_to_rgb, YIQ_TO_RGB)]:
    out = fn(rgb)
    assert out.dtype == tf.float32 and out.shape == (2, 3)
    close(out, golden)
  f64 = tf.image.rgb_to_yuv(tf.constant(D["RGB"], tf.float64))
  assert f64.dtype == tf.float64
  close(f64, YUV_F64, 1e-6)
  close(tf.image.rgb_to_yiq([[1.0, 2.0, 3.0]]), [[1.815, -0.91724455, 0.09962624]])
  close(tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(rgb)), D["RGB"], 1e-5, 1e-5)
  raises(TypeError, "Cannot convert [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, "
         "-0.51496512], [0.114, 0.43601035, -0.10001026]] to EagerTensor of dtype int32",
         tf.image.rgb_to_yuv, [[1, 2, 3]])
  raises(tf.errors.InvalidArgumentError, "Matrix size-incompatible: In[0]: [8,4], In[1]: [3,3] "
         "[Op:MatMul]", tf.image.rgb_to_yuv, tf.zeros((2, 2, 2, 4)))


# ---- crop_and_resize ----
def test_crop_and_resize_values():
  img = tf.constant(D["IMG"])
  out = tf.image.crop_and_resize(img, BOXES, BOX_IND, [3, 4], extrapolation_value=-1.0)
  assert out.shape == (4, 3, 4, 1) and out.dtype == tf.float32
  close(out[..., 0], CAR_BILINEAR)
  close(tf.image.crop_and_resize(img, BOXES, BOX_IND, [3, 4], method="nearest",
                                 extrapolation_value=-1.0)[..., 0], CAR_NEAREST)
  close(tf.image.crop_and_resize(img, BOXES, BOX_IND, [1, 1])[..., 0], CAR_1X1)
  u8 = tf.constant((D["IMG"] * 255).astype(np.uint8))
  out = tf.image.crop_and_resize(u8, BOXES[:2], box_indices=[1, 0], crop_size=[2, 3])
  assert out.dtype == tf.float32
  close(out[..., 0], CAR_U8)
  ramp = np.arange(0, 18, 2).astype("float32").reshape(3, 3)[None, :, :, None]
  close(tf.image.crop_and_resize(ramp, np.asarray([[0.5, 0.5, 1, 1]]), [0], [3, 3])[0, :, :, 0],
        [[8, 9, 10], [11, 12, 13], [14, 15, 16]])
  close(tf.image.crop_and_resize(ramp, np.asarray([[0.5, 0.5, 1, 1]]), [0], [3, 3],
                                 method="nearest")[0, :, :, 0],
        [[8, 10, 10], [14, 16, 16], [14, 16, 16]])
  empty = tf.image.crop_and_resize(img, np.zeros((0, 4), np.float32), np.zeros((0,), np.int32),
                                   [2, 2])
  assert empty.shape == (0, 2, 2, 1)


def test_crop_and_resize_gradients():
  weights = tf.constant(np.arange(4 * 3 * 4, dtype=np.float32).reshape(4, 3, 4, 1) / 10)
  for method, image_golden, boxes_golden in [
      ("bilinear", CAR_GRAD_IMAGE_BILINEAR, CAR_GRAD_BOXES_BILINEAR),
      ("nearest", CAR_GRAD_IMAGE_NEAREST, CAR_GRAD_BOXES_NEAREST)]:
    boxes, image = tf.Variable(BOXES), tf.Variable(D["IMG"])
    with tf.GradientTape() as tape:
      total = tf.reduce_sum(tf.image.crop_and_resize(image, boxes, BOX_IND, [3, 4],
                                                     method=method) * weights)
    grad_image, grad_boxes = tape.gradient(total, [image, boxes])
    close(grad_image[..., 0], image_golden, 1e-5, 1e-5)
    close(grad_boxes, boxes_golden, 1e-4, 1e-4)  # TF gives nearest the bilinear box gradient


def test_crop_and_resize_errors():
  img = tf.zeros((1, 4, 4, 1))
  box = [[0, 0, 1, 1.0]]
  cases = [
      ((img, box, [0], [2, 2]), dict(method="bicubic"), "Value for attr 'method' of \"bicubic\" "
       "is not in the list of allowed values: \"bilinear\", \"nearest\""),
      ((img[0], box, [0], [2, 2]), {}, "input image must be 4-D[4,4,1]"),
      ((img, [0, 0, 1, 1.0], [0], [2, 2]), {}, "boxes must be 2-D, got: [4]"),
      ((img, box, [[0]], [2, 2]), {}, "box_indices must be rank 1 but is shape [1,1]"),
      ((img, [[0, 0, 1.0]], [0], [2, 2]), {}, "boxes must have 4 columns"),
      ((img, box, [0, 0], [2, 2]), {}, "box_index has incompatible shape"),
      ((img, box, [0], [2, 2, 2]), {}, "crop_size must have two elements[3]"),
      ((img, box, [0], [0, 2]), {}, "crop dimensions must be positive"),
      ((img, [[0, 0, np.nan, 1.0]], [0], [2, 2]), {},
       "Boxes contains at least one element that is not finite")]
  for args, kwargs, text in cases:
    raises(tf.errors.InvalidArgumentError, text + " [Op:CropAndResize]", tf.image.crop_and_resize,
           *args, **kwargs)
  raises(tf.errors.OutOfRangeError, "box_index has values outside [0, batch_size) "
         "[Op:CropAndResize]", tf.image.crop_and_resize, img, box, [1], [2, 2])
  raises(ValueError, "Cannot specify both 'box_ind' and 'box_indices'.", tf.image.crop_and_resize,
         img, box, [0], [2, 2], box_indices=[0])
  raises(TypeError, "Cannot convert [2.0, 2.0] to EagerTensor of dtype int32",
         tf.image.crop_and_resize, img, box, [0], [2.0, 2.0])


# ---- draw_bounding_boxes ----
def test_draw_bounding_boxes():
  out = tf.image.draw_bounding_boxes(tf.zeros((1, 6, 7, 3)), DRAW_BOXES)
  assert out.shape == (1, 6, 7, 3) and out.dtype == tf.float32
  close(out, DRAW_DEFAULT)
  close(tf.image.draw_bounding_boxes(tf.zeros((1, 6, 7, 1)) + 0.5, DRAW_BOXES[:, :2])[..., 0],
        DRAW_GRAY)
  colors = np.array([[0.1, 0.2, 0.3, 0.4, 9.0], [0.9, 0.8, 0.7, 0.6, 9.0]], np.float32)
  close(tf.image.draw_bounding_boxes(tf.zeros((1, 6, 7, 4)), DRAW_BOXES, colors=colors),
        DRAW_COLORS)
  half = tf.image.draw_bounding_boxes(tf.zeros((1, 6, 7, 3), tf.float16), DRAW_BOXES[:, 3:4],
                                      colors=[[0.1, 0.2, 0.3]])
  assert half.dtype == tf.float16
  assert (half.numpy()[0, 0] == np.asarray(DRAW_HALF, np.float16)).all()
  red_blue = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
  whole = np.array([0, 0, 1, 1]).reshape([1, 1, 4])
  framed = tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 3]), whole, colors=red_blue)
  assert framed.numpy()[0, :, :, 0].tolist() == [[1, 1, 1], [1, 0, 1], [1, 1, 1]]
  assert framed.numpy()[..., 1:].max() == 0
  # TF 1.x's third positional parameter is `name`: the default table's yellow is drawn
  yellow = tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 3]), whole, red_blue)
  assert yellow.numpy()[0, 0].tolist() == [[1, 1, 0]] * 3
  empty = tf.image.draw_bounding_boxes(tf.zeros((1, 3, 3, 3)), DRAW_BOXES[:, :1],
                                       colors=np.zeros((0, 3), np.float32))
  assert empty.numpy()[0, 0, 1].tolist() == [1, 1, 0]  # empty colors: the default table
  images = tf.Variable(np.ones((1, 3, 3, 3), np.float32))
  with tf.GradientTape() as tape:
    drawn = tf.image.draw_bounding_boxes(images, [[[0, 0, 1, 1.0]]])
  assert tape.gradient(drawn, images) is None


def test_draw_bounding_boxes_errors():
  box = [[[0, 0, 1, 1.0]]]
  raises(tf.errors.InvalidArgumentError, "Value for attr 'T' of uint8 is not in the list of "
         "allowed values: float, half [Op:DrawBoundingBoxes]", tf.image.draw_bounding_boxes,
         tf.zeros((1, 3, 3, 3), tf.uint8), box)
  raises(tf.errors.InvalidArgumentError, "cannot compute DrawBoundingBoxes as input #1(zero-based)"
         " was expected to be a float tensor but is a double tensor [Op:DrawBoundingBoxes]",
         tf.image.draw_bounding_boxes, tf.zeros((1, 3, 3, 3)), tf.constant(box, tf.float64))
  for images, boxes, text in [
      (tf.zeros((3, 3, 3)), box, "The rank of the images should be 4"),
      (tf.zeros((1, 3, 3, 3)), box[0], "The rank of the boxes tensor should be 3"),
      (tf.zeros((2, 3, 3, 3)), box, "The batch sizes should be the same"),
      (tf.zeros((1, 3, 3, 2)), box, "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)"),
      (tf.zeros((1, 3, 3, 3)), [[[0, 0, 1, 1.0, 1]]],
       "The size of the third dimension of the box must be 4. Received: 5")]:
    raises(tf.errors.InvalidArgumentError, text + " [Op:DrawBoundingBoxes]",
           tf.image.draw_bounding_boxes, images, boxes)
  raises(tf.errors.InvalidArgumentError, "colors must have equal or more channels than the image "
         "provided: [1,2] [Op:DrawBoundingBoxesV2]", tf.image.draw_bounding_boxes,
         tf.zeros((1, 3, 3, 3)), box, colors=[[1.0, 0]])
  raises(tf.errors.InvalidArgumentError, "colors must be a 2-D matrix[3] [Op:DrawBoundingBoxesV2]",
         tf.image.draw_bounding_boxes, tf.zeros((1, 3, 3, 3)), box, colors=[1.0, 0, 0])


# ---- extract_patches ----
def test_extract_patches():
  images = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
  patches = tf.image.extract_patches(images, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
  assert patches.shape == (1, 2, 2, 4)
  close(patches, [[[[0, 1, 4, 5], [2, 3, 6, 7]], [[8, 9, 12, 13], [10, 11, 14, 15]]]])
  same = tf.image.extract_patches(images, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
  assert same.shape == (1, 4, 4, 4)
  close(same, tf.extract_image_patches(images, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"))


# ---- trace safety: the same ops under tf.function ----
def test_ops_under_tf_function():
  @tf.function
  def run(a, b, image, boxes, box_ind):
    return (tf.image.ssim(a, b, 1.0), tf.image.psnr(a, b, 1.0),
            tf.image.crop_and_resize(image, boxes, box_ind, [3, 4], extrapolation_value=-1.0),
            tf.image.sobel_edges(image), tf.image.rgb_to_yiq(a),
            tf.image.draw_bounding_boxes(a[:, :6, :7], DRAW_BOXES.repeat(2, axis=0)))
  ssim, psnr, crops, edges, yiq, drawn = run(tf.constant(D["A"]), tf.constant(D["B"]),
                                             tf.constant(D["IMG"]), tf.constant(BOXES),
                                             tf.constant(BOX_IND))
  close(ssim, SSIM)
  close(psnr, PSNR)
  close(crops[..., 0], CAR_BILINEAR)
  close(edges, tf.image.sobel_edges(tf.constant(D["IMG"])))
  close(yiq, tf.image.rgb_to_yiq(D["A"]))
  close(drawn, tf.image.draw_bounding_boxes(D["A"][:, :6, :7], DRAW_BOXES.repeat(2, axis=0)))
