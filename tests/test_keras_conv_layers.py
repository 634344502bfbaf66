"""Keras convolution, pooling and normalization layers against tf_keras goldens.

Golden values were computed with tf_keras (TF 2.21) on the same inputs and weights
(channels_first cases through the equivalent channels_last layer, as TF's CPU kernels
lack NCHW; bilinear UpSampling2D through tf.compat.v1.image.resize_bilinear, TF 1.15's
half_pixel_centers=False kernel). Outputs are compared through a fingerprint: shape, sum
and a cosine-weighted sum.
"""
import numpy as np
import pytest

import tfe_compat as tf

# (id, layer class, kwargs, input shape, weight (name, shape) list, output fingerprint)
LAYER_CASES = [
    ('conv2d_valid', 'Conv2D', {'filters': 4, 'kernel_size': 3}, (2, 7, 7, 3),
     [('kernel:0', (3, 3, 3, 4)), ('bias:0', (4,))], ((2, 5, 5, 4), 0.86082, 49.65612)),
    ('conv2d_same_s2_relu', 'Conv2D',
     {'activation': 'relu', 'filters': 4, 'kernel_size': (3, 2), 'padding': 'same', 'strides': 2},
     (2, 7, 8, 3), [('kernel:0', (3, 2, 3, 4)), ('bias:0', (4,))],
     ((2, 4, 4, 4), 84.98315, -1.7148)),
    ('conv2d_dilated', 'Conv2D',
     {'dilation_rate': 2, 'filters': 4, 'kernel_size': 3, 'padding': 'same'}, (2, 7, 7, 3),
     [('kernel:0', (3, 3, 3, 4)), ('bias:0', (4,))], ((2, 7, 7, 4), -27.6782, 15.74174)),
    ('conv2d_cf', 'Conv2D',
     {'data_format': 'channels_first',
      'filters': 4,
      'kernel_size': 3,
      'padding': 'same',
      'strides': 2},
     (2, 3, 7, 7), [('kernel:0', (3, 3, 3, 4)), ('bias:0', (4,))],
     ((2, 4, 4, 4), -29.2989, -22.01773)),
    ('conv2d_nobias', 'Conv2D', {'filters': 4, 'kernel_size': 2, 'use_bias': False}, (2, 5, 5, 3),
     [('kernel:0', (2, 2, 3, 4))], ((2, 4, 4, 4), -12.11975, -2.91661)),
    ('conv1d_causal', 'Conv1D',
     {'dilation_rate': 2, 'filters': 4, 'kernel_size': 3, 'padding': 'causal'}, (2, 9, 3),
     [('kernel:0', (3, 3, 4)), ('bias:0', (4,))], ((2, 9, 4), 8.56127, -6.96168)),
    ('conv1d_s2', 'Conv1D', {'filters': 4, 'kernel_size': 3, 'strides': 2}, (2, 9, 3),
     [('kernel:0', (3, 3, 4)), ('bias:0', (4,))], ((2, 4, 4), 7.44994, -6.37775)),
    ('conv1d_cf', 'Conv1D',
     {'data_format': 'channels_first', 'filters': 4, 'kernel_size': 3, 'padding': 'same'},
     (2, 3, 9), [('kernel:0', (3, 3, 4)), ('bias:0', (4,))], ((2, 4, 9), 7.56416, 23.77493)),
    ('conv3d_same', 'Conv3D',
     {'filters': 2, 'kernel_size': 2, 'padding': 'same', 'strides': (1, 2, 2)}, (2, 4, 5, 5, 3),
     [('kernel:0', (2, 2, 2, 3, 2)), ('bias:0', (2,))], ((2, 4, 3, 3, 2), 23.04387, 8.69736)),
    ('conv3d_cf', 'Conv3D', {'data_format': 'channels_first', 'filters': 2, 'kernel_size': 2},
     (2, 3, 4, 5, 5), [('kernel:0', (2, 2, 2, 3, 2)), ('bias:0', (2,))],
     ((2, 2, 3, 4, 4), 11.66606, -35.6173)),
    ('deconv2d_same_s2', 'Conv2DTranspose',
     {'filters': 4, 'kernel_size': 3, 'padding': 'same', 'strides': 2}, (2, 5, 5, 3),
     [('kernel:0', (3, 3, 4, 3)), ('bias:0', (4,))], ((2, 10, 10, 4), -110.08512, -17.55103)),
    ('deconv2d_valid_s2', 'Conv2DTranspose',
     {'filters': 4, 'kernel_size': 3, 'padding': 'valid', 'strides': 2}, (2, 5, 5, 3),
     [('kernel:0', (3, 3, 4, 3)), ('bias:0', (4,))], ((2, 11, 11, 4), -137.10925, 15.44614)),
    ('deconv2d_outpad', 'Conv2DTranspose',
     {'filters': 4,
      'kernel_size': (3, 4),
      'output_padding': (1, 2),
      'padding': 'valid',
      'strides': (2, 3)},
     (2, 4, 5, 3), [('kernel:0', (3, 4, 4, 3)), ('bias:0', (4,))],
     ((2, 10, 18, 4), 288.67692, -45.20333)),
    ('deconv2d_same_outpad', 'Conv2DTranspose',
     {'filters': 4, 'kernel_size': 3, 'output_padding': 1, 'padding': 'same', 'strides': 2},
     (2, 5, 5, 3), [('kernel:0', (3, 3, 4, 3)), ('bias:0', (4,))],
     ((2, 10, 10, 4), -110.08512, -17.55103)),
    ('deconv2d_cf', 'Conv2DTranspose',
     {'data_format': 'channels_first',
      'filters': 4,
      'kernel_size': 3,
      'padding': 'same',
      'strides': 2},
     (2, 3, 5, 5), [('kernel:0', (3, 3, 4, 3)), ('bias:0', (4,))],
     ((2, 4, 10, 10), -120.69001, 17.1548)),
    ('deconv3d_same', 'Conv3DTranspose',
     {'filters': 2, 'kernel_size': 3, 'padding': 'same', 'strides': 2}, (1, 3, 4, 4, 2),
     [('kernel:0', (3, 3, 3, 2, 2)), ('bias:0', (2,))], ((1, 6, 8, 8, 2), -44.06558, 35.59636)),
    ('sepconv2d', 'SeparableConv2D',
     {'depth_multiplier': 2, 'filters': 5, 'kernel_size': 3, 'padding': 'same'}, (2, 6, 6, 3),
     [('depthwise_kernel:0', (3, 3, 3, 2)), ('pointwise_kernel:0', (1, 1, 6, 5)),
      ('bias:0', (5,))],
     ((2, 6, 6, 5), 29.24834, -5.15356)),
    ('sepconv2d_s2', 'SeparableConv2D',
     {'activation': 'tanh', 'filters': 5, 'kernel_size': 3, 'strides': 2}, (2, 7, 7, 3),
     [('depthwise_kernel:0', (3, 3, 3, 1)), ('pointwise_kernel:0', (1, 1, 3, 5)),
      ('bias:0', (5,))],
     ((2, 3, 3, 5), 0.48174, -0.61568)),
    ('sepconv1d', 'SeparableConv1D',
     {'depth_multiplier': 2, 'filters': 5, 'kernel_size': 3, 'strides': 2}, (2, 9, 3),
     [('depthwise_kernel:0', (3, 3, 2)), ('pointwise_kernel:0', (1, 6, 5)), ('bias:0', (5,))],
     ((2, 4, 5), 5.71776, 1.62751)),
    ('depthwise', 'DepthwiseConv2D',
     {'depth_multiplier': 2, 'kernel_size': 3, 'padding': 'same', 'strides': 2}, (2, 7, 7, 3),
     [('depthwise_kernel:0', (3, 3, 3, 2)), ('bias:0', (6,))],
     ((2, 4, 4, 6), 46.42314, -8.27195)),
    ('depthwise_dilated', 'DepthwiseConv2D', {'dilation_rate': 2, 'kernel_size': 3}, (2, 8, 8, 3),
     [('depthwise_kernel:0', (3, 3, 3, 1)), ('bias:0', (3,))], ((2, 4, 4, 3), 10.53348, 7.30943)),
    ('depthwise_cf', 'DepthwiseConv2D', {'data_format': 'channels_first', 'kernel_size': 3},
     (2, 3, 6, 6), [('depthwise_kernel:0', (3, 3, 3, 1)), ('bias:0', (3,))],
     ((2, 3, 4, 4), -11.22809, 12.73733)),
    ('upsample2d_nearest', 'UpSampling2D', {'size': (2, 3)}, (2, 3, 4, 2), [],
     ((2, 6, 12, 2), 53.12761, 2.46322)),
    ('upsample2d_cf', 'UpSampling2D', {'data_format': 'channels_first', 'size': 2}, (2, 2, 3, 4),
     [], ((2, 2, 6, 8), 35.41841, -21.22247)),
    ('upsample2d_bilinear', 'UpSampling2D', {'interpolation': 'bilinear', 'size': (2, 3)},
     (2, 3, 4, 2), [], ((2, 6, 12, 2), 34.08318, 2.59353)),
    ('upsample1d', 'UpSampling1D', {'size': 3}, (2, 4, 2), [], ((2, 12, 2), 31.9164, -0.09283)),
    ('upsample3d', 'UpSampling3D', {'size': (1, 2, 2)}, (1, 2, 3, 3, 2), [],
     ((1, 2, 6, 6, 2), 43.03463, -2.33126)),
    ('zeropad1d', 'ZeroPadding1D', {'padding': (1, 2)}, (2, 4, 2), [],
     ((2, 7, 2), 10.6388, 1.06283)),
    ('zeropad2d', 'ZeroPadding2D', {'padding': ((1, 2), (3, 0))}, (2, 3, 4, 2), [],
     ((2, 6, 7, 2), 8.8546, -13.1117)),
    ('zeropad2d_cf', 'ZeroPadding2D', {'data_format': 'channels_first', 'padding': (1, 2)},
     (2, 2, 3, 4), [], ((2, 2, 5, 8), 8.8546, -2.39232)),
    ('zeropad3d', 'ZeroPadding3D', {'padding': 1}, (1, 2, 3, 3, 2), [],
     ((1, 4, 5, 5, 2), 10.75866, -0.4472)),
    ('crop1d', 'Cropping1D', {'cropping': (1, 2)}, (2, 6, 2), [], ((2, 3, 2), 6.43407, 2.09668)),
    ('crop2d', 'Cropping2D', {'cropping': ((1, 0), (2, 1))}, (2, 5, 6, 2), [],
     ((2, 4, 3, 2), -1.18004, -1.74447)),
    ('crop2d_cf', 'Cropping2D', {'cropping': 1, 'data_format': 'channels_first'}, (2, 2, 5, 6),
     [], ((2, 2, 3, 4), 5.90969, 2.49377)),
    ('crop3d', 'Cropping3D', {'cropping': ((1, 0), (0, 1), (1, 1))}, (1, 3, 4, 5, 2), [],
     ((1, 2, 3, 3, 2), 0.63295, -3.55572)),
    ('maxpool2d_same', 'MaxPooling2D', {'padding': 'same'}, (2, 7, 7, 3), [],
     ((2, 4, 4, 3), 76.63692, 14.1764)),
    ('avgpool2d_same', 'AveragePooling2D', {'padding': 'same', 'pool_size': 3, 'strides': 2},
     (2, 7, 7, 3), [], ((2, 4, 4, 3), 2.09245, 1.9679)),
    ('avgpool2d_cf', 'AveragePooling2D', {'data_format': 'channels_first', 'pool_size': 2},
     (2, 3, 6, 6), [], ((2, 3, 3, 3), 3.49097, -0.73152)),
    ('maxpool1d', 'MaxPooling1D', {'pool_size': 3, 'strides': 2}, (2, 9, 3), [],
     ((2, 4, 3), 22.63824, 2.4462)),
    ('avgpool1d_same', 'AveragePooling1D', {'padding': 'same'}, (2, 9, 3), [],
     ((2, 5, 3), 2.19229, 3.2223)),
    ('maxpool3d', 'MaxPooling3D', {'pool_size': 2}, (1, 4, 4, 4, 2), [],
     ((1, 2, 2, 2, 2), 24.98003, -0.44125)),
    ('avgpool3d_same', 'AveragePooling3D', {'padding': 'same', 'pool_size': 2}, (1, 3, 5, 5, 2),
     [], ((1, 2, 3, 3, 2), 4.43193, 0.40598)),
    ('gmaxpool1d', 'GlobalMaxPooling1D', {}, (2, 5, 3), [], ((2, 3), 10.83462, -0.18738)),
    ('gavgpool1d', 'GlobalAveragePooling1D', {}, (2, 5, 3), [], ((2, 3), 2.65714, 0.34387)),
    ('gmaxpool2d', 'GlobalMaxPooling2D', {}, (2, 4, 5, 3), [], ((2, 3), 11.43946, 0.0907)),
    ('gavgpool2d_cf', 'GlobalAveragePooling2D', {'data_format': 'channels_first'}, (2, 3, 4, 5),
     [], ((2, 3), 0.79567, 0.97807)),
    ('gmaxpool3d', 'GlobalMaxPooling3D', {}, (1, 2, 3, 4, 2), [], ((1, 2), 4.51065, 3.48051)),
    ('gavgpool3d', 'GlobalAveragePooling3D', {}, (1, 2, 3, 4, 2), [], ((1, 2), 0.36894, 0.31461)),
    ('layernorm', 'LayerNormalization', {}, (2, 3, 5), [('gamma:0', (5,)), ('beta:0', (5,))],
     ((2, 3, 5), -8.13104, -1.15963)),
    ('layernorm_axes', 'LayerNormalization', {'axis': [1, 2], 'epsilon': 0.01}, (2, 3, 4),
     [('gamma:0', (3, 4)), ('beta:0', (3, 4))], ((2, 3, 4), 4.96237, 1.13021)),
]

# (id, kwargs, input shape, per training step (output fingerprint, moving_mean,
#  moving_variance), inference fingerprint, config axis after build)
BN_CASES = [
    ('bn_4d', {'momentum': 0.8}, (4, 3, 3, 2),
     [(((4, 3, 3, 2), -28.82053, 2.12941), [0.381229, -0.908741], [1.262827, 0.848992]),
      (((4, 3, 3, 2), -28.82053, 4.29729), [0.536459, -0.555229], [1.674868, 1.393657]),
      (((4, 3, 3, 2), -28.82052, 3.9906), [0.714572, -0.064079], [3.202993, 3.294925])],
     ((4, 3, 3, 2), -37.43669, -0.03277), [3]),
    ('bn_4d_default', {}, (4, 3, 3, 2),
     [(((4, 3, 3, 2), -28.82053, 2.12941), [0.43013, -1.138668], [1.366927, 0.879023]),
      (((4, 3, 3, 2), -28.82053, 4.29729), [0.437403, -1.118693], [1.386488, 0.905956]),
      (((4, 3, 3, 2), -28.82052, 3.9906), [0.447299, -1.088501], [1.465778, 1.005896])],
     ((4, 3, 3, 2), -46.21606, 0.24207), [3]),
    ('bn_4d_axis1', {'axis': 1, 'epsilon': 0.01, 'momentum': 0.7}, (4, 3, 2, 2),
     [(((4, 3, 2, 2), -20.0728, 5.74769), [0.725258, -0.302338, 0.121254],
       [0.697114, 1.020563, 1.416211]),
      (((4, 3, 2, 2), -20.0728, 7.30707), [0.784899, 0.015415, 0.421695],
       [2.217666, 1.194103, 1.711831]),
      (((4, 3, 2, 2), -20.0728, 3.70071), [0.600605, 0.437845, 1.154065],
       [4.505445, 3.459588, 3.875676])],
     ((4, 3, 2, 2), -22.12472, -0.50857), [1]),
    ('bn_3d', {'momentum': 0.8}, (4, 5, 3),
     [(((4, 5, 3), -25.091, 2.61948), [0.733361, -0.284335, 0.166424],
       [0.646868, 1.09121, 1.449328]),
      (((4, 5, 3), -25.091, 6.11255), [0.68764, -0.000855, 0.397653],
       [1.326705, 1.181598, 1.808623]),
      (((4, 5, 3), -25.091, 2.13438), [0.798834, 0.236735, 0.777732],
       [4.040286, 2.453592, 3.182101])],
     ((4, 5, 3), -28.18184, 1.05303), [2]),
    ('bn_3d_axis1', {'axis': 1, 'momentum': 0.5}, (4, 3, 5),
     [(((4, 3, 5), -25.091, -0.75618), [0.468435, -0.150475, 0.243683],
       [0.631907, 1.077776, 1.160724]),
      (((4, 3, 5), -25.091, -0.77375), [0.435725, 0.791238, 0.534053],
       [2.243479, 1.772405, 1.558117]),
      (((4, 3, 5), -25.091, 1.76677), [1.006484, 1.534842, 0.703558],
       [6.594067, 6.051359, 5.595433])],
     ((4, 3, 5), -23.27258, 0.82692), [1]),
    ('bn_multi_axis', {'axis': [1, 2], 'momentum': 0.6}, (4, 2, 3),
     [(((4, 2, 3), 0.91048, 1.79765),
       [0.114932, -0.037987, 0.01111, -0.478089, -0.033345, 0.036948],
       [0.69855, 0.734607, 0.994745, 0.915372, 0.763255, 0.992505]),
      (((4, 2, 3), 0.91048, 1.06818),
       [0.843246, 0.358623, 0.351979, -0.916448, 0.493606, 0.887837],
       [1.59898, 0.825242, 1.91615, 1.708929, 1.167737, 2.136419]),
      (((4, 2, 3), 0.91048, 1.04739),
       [1.469309, 0.773066, 1.395093, 0.606465, 1.638742, 0.898062],
       [3.128985, 3.425739, 3.268645, 10.764566, 2.089003, 4.132211])],
     ((4, 2, 3), 0.46253, 0.25188), [1, 2]),
    ('bn_2d_plain', {'center': False, 'momentum': 0.5, 'scale': False}, (8, 3),
     [(((8, 3), 0.0, 1.78358), [0.445796, -0.093181, -0.14999], [1.030518, 0.751895, 1.701248]),
      (((8, 3), -0.0, 3.24543), [0.31333, 0.512802, 0.681869], [3.517233, 1.073514, 2.849799]),
      (((8, 3), 0.0, -2.5702), [1.481475, 1.444196, 1.309225], [9.230713, 3.717146, 5.054173])],
     ((8, 3), -14.88252, 0.64109), [1]),
]


def _inputs(shape, seed=0):
  return np.random.RandomState(seed).standard_normal(shape).astype(np.float32)


def _weights(layer, seed=1):
  rng = np.random.RandomState(seed)
  out = []
  for w in layer.weights:
    value = rng.standard_normal(w.shape.as_list()).astype(np.float32) * 0.5
    out.append(np.abs(value) + 0.5 if "variance" in w.name else value)
  return out


def _fingerprint(a):
  a = np.asarray(a, np.float64)
  w = np.cos(np.arange(a.size)).reshape(a.shape)
  return a.shape, a.sum(), (a * w).sum()


def _check(out, golden):
  shape, total, weighted = _fingerprint(out)
  assert shape == golden[0]
  np.testing.assert_allclose([total, weighted], golden[1:], rtol=1e-4, atol=2e-4)


@pytest.mark.parametrize("case", LAYER_CASES, ids=[c[0] for c in LAYER_CASES])
def test_layer_matches_tf_keras(case):
  _, cls, kwargs, shape, weights, golden = case
  layer = getattr(tf.keras.layers, cls)(**kwargs)
  layer.build(tf.TensorShape(shape))
  assert [(w.name.split("/")[-1], tuple(w.shape.as_list())) for w in layer.weights] == weights
  layer.set_weights(_weights(layer))
  out = layer(tf.constant(_inputs(shape)))
  assert out.dtype == tf.float32
  _check(out.numpy(), golden)


@pytest.mark.parametrize("case", BN_CASES, ids=[c[0] for c in BN_CASES])
def test_batch_normalization_training_and_inference(case):
  _, kwargs, shape, steps, inference, axis = case
  layer = tf.keras.layers.BatchNormalization(**kwargs)
  layer.build(tf.TensorShape(shape))
  layer.set_weights(_weights(layer))
  for step, (golden, moving_mean, moving_variance) in enumerate(steps):
    x = _inputs(shape, seed=10 + step) * (step + 1) + step
    _check(layer(tf.constant(x), training=True).numpy(), golden)
    np.testing.assert_allclose(layer.moving_mean.numpy().ravel(), moving_mean, atol=2e-6)
    np.testing.assert_allclose(layer.moving_variance.numpy().ravel(), moving_variance,
                               atol=2e-6)
  before = [w.numpy() for w in layer.weights]
  x = tf.constant(_inputs(shape, seed=20))
  _check(layer(x).numpy(), inference)              # training=None: inference in eager
  _check(layer(x, training=False).numpy(), inference)
  for old, new in zip(before, layer.weights):
    np.testing.assert_array_equal(old, new.numpy())  # no update outside training
  assert layer.get_config()["axis"] == axis


def test_batch_normalization_weights_and_learning_phase():
  tf.keras.backend.clear_session()
  bn = tf.keras.layers.BatchNormalization()
  x = tf.constant(_inputs((4, 3, 3, 2)))
  bn(x)
  assert [w.name for w in bn.weights] == [
      "batch_normalization/gamma:0", "batch_normalization/beta:0",
      "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
  assert [w.name for w in bn.trainable_weights] == ["batch_normalization/gamma:0",
                                                    "batch_normalization/beta:0"]
  assert [w.name for w in bn.non_trainable_weights] == [
      "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
  np.testing.assert_array_equal(bn.moving_mean.numpy(), [0, 0])
  tf.keras.backend.set_learning_phase(1)
  try:
    bn(x)  # training=None now follows the learning phase: training
  finally:
    tf.keras.backend.clear_session()
  expected = 0.01 * _inputs((4, 3, 3, 2)).reshape(-1, 2).mean(axis=0)
  np.testing.assert_allclose(bn.moving_mean.numpy(), expected, rtol=1e-5, atol=1e-7)
  config = bn.get_config()
  assert (config["momentum"], config["epsilon"], config["center"], config["scale"]) == (
      0.99, 1e-3, True, True)
  assert config["gamma_initializer"]["class_name"] == "Ones"
  assert config["moving_mean_initializer"]["class_name"] == "Zeros"


def test_batch_normalization_gradients_and_unsupported_options():
  conv = tf.keras.layers.Conv2D(3, 2)
  bn = tf.keras.layers.BatchNormalization()
  x = tf.constant(_inputs((2, 4, 4, 2)))
  with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.square(bn(conv(x), training=True)))
  grads = tape.gradient(loss, conv.trainable_variables + bn.trainable_variables)
  assert [g.shape.as_list() for g in grads] == [[2, 2, 2, 3], [3], [3], [3]]
  # the normalized output is invariant to the conv bias, so its gradient is ~0
  np.testing.assert_allclose(grads[1].numpy(), 0, atol=1e-4)
  with pytest.raises(NotImplementedError):
    tf.keras.layers.BatchNormalization(renorm=True)
  with pytest.raises(NotImplementedError):
    tf.keras.layers.BatchNormalization(virtual_batch_size=2)


def test_layer_normalization_weights():
  tf.keras.backend.clear_session()
  ln = tf.keras.layers.LayerNormalization(axis=[1, 2])
  ln(tf.zeros((2, 3, 4)))
  assert [(w.name, w.shape.as_list()) for w in ln.weights] == [
      ("layer_normalization/gamma:0", [3, 4]), ("layer_normalization/beta:0", [3, 4])]
  assert ln.get_config()["axis"] == [1, 2]


def test_conv_weight_names_and_configs():
  tf.keras.backend.clear_session()
  x = tf.zeros((1, 6, 6, 3))
  conv, conv_b = tf.keras.layers.Conv2D(4, 3), tf.keras.layers.Conv2D(4, 3)
  sep = tf.keras.layers.SeparableConv2D(5, 3, depth_multiplier=2)
  dw = tf.keras.layers.DepthwiseConv2D(3)
  for layer in (conv, conv_b, sep, dw):
    layer(x)
  assert [w.name for w in conv.weights + conv_b.weights] == [
      "conv2d/kernel:0", "conv2d/bias:0", "conv2d_1/kernel:0", "conv2d_1/bias:0"]
  assert [(w.name, w.shape.as_list()) for w in sep.weights] == [
      ("separable_conv2d/depthwise_kernel:0", [3, 3, 3, 2]),
      ("separable_conv2d/pointwise_kernel:0", [1, 1, 6, 5]), ("separable_conv2d/bias:0", [5])]
  assert [w.name for w in dw.weights] == ["depthwise_conv2d/depthwise_kernel:0",
                                          "depthwise_conv2d/bias:0"]
  config = tf.keras.layers.Conv2D(4, 3, padding="SAME", activation="relu").get_config()
  assert {k: config[k] for k in ("filters", "kernel_size", "strides", "padding", "data_format",
                                 "dilation_rate", "activation", "use_bias")} == {
      "filters": 4, "kernel_size": (3, 3), "strides": (1, 1), "padding": "same",
      "data_format": "channels_last", "dilation_rate": (1, 1), "activation": "relu",
      "use_bias": True}
  assert config["kernel_initializer"]["class_name"] == "GlorotUniform"
  assert config["bias_initializer"]["class_name"] == "Zeros"
  assert set(config) == {
      "name", "trainable", "dtype", "filters", "kernel_size", "strides", "padding",
      "data_format", "dilation_rate", "activation", "use_bias", "kernel_initializer",
      "bias_initializer", "kernel_regularizer", "bias_regularizer", "activity_regularizer",
      "kernel_constraint", "bias_constraint"}
  assert "kernel_initializer" not in sep.get_config()
  assert sep.get_config()["depth_multiplier"] == 2
  assert "filters" not in dw.get_config()
  assert tf.keras.layers.Conv2DTranspose(4, 3, strides=2, output_padding=1).get_config()[
      "output_padding"] == (1, 1)
  assert tf.keras.layers.MaxPooling2D().get_config() == {
      "name": "max_pooling2d", "trainable": True, "dtype": "float32", "pool_size": (2, 2),
      "padding": "valid", "strides": (2, 2), "data_format": "channels_last"}
  assert tf.keras.layers.MaxPooling1D().get_config()["strides"] == (2,)
  assert tf.keras.layers.UpSampling2D().get_config()["interpolation"] == "nearest"
  assert tf.keras.layers.ZeroPadding2D().get_config()["padding"] == ((1, 1), (1, 1))
  assert tf.keras.layers.Cropping1D().get_config() == {
      "name": "cropping1d", "trainable": True, "dtype": "float32", "cropping": (1, 1)}
  assert tf.keras.layers.GlobalAveragePooling2D().get_config()["data_format"] == (
      "channels_last")


def test_aliases():
  layers = tf.keras.layers
  assert layers.Convolution1D is layers.Conv1D and layers.Convolution3D is layers.Conv3D
  assert layers.Convolution2D is layers.Conv2D
  assert layers.Convolution2DTranspose is layers.Conv2DTranspose
  assert layers.SeparableConvolution2D is layers.SeparableConv2D
  assert layers.MaxPool2D is layers.MaxPooling2D and layers.AvgPool1D is layers.AveragePooling1D
  assert layers.MaxPool3D is layers.MaxPooling3D and layers.AvgPool3D is layers.AveragePooling3D
  assert layers.GlobalAvgPool2D is layers.GlobalAveragePooling2D
  assert layers.GlobalMaxPool1D is layers.GlobalMaxPooling1D


def test_seed_004_conv_and_pool():
  conv = tf.keras.layers.Conv2D(filters=64, kernel_size=3, padding='SAME')
  pool = tf.keras.layers.MaxPool2D(pool_size=2, strides=2, padding='SAME')
  imgs = tf.random_uniform(shape=(128, 32, 32, 3))
  conv_feat = conv(imgs)
  pooled_feat = pool(conv_feat)
  assert conv_feat.shape.as_list() == [128, 32, 32, 64]
  assert pooled_feat.shape.as_list() == [128, 16, 16, 64]
  assert pooled_feat.dtype == tf.float32
  assert "shape=(128, 16, 16, 64), dtype=float32" in repr(pooled_feat)
  conv1 = tf.keras.layers.Conv2D(32, 5, padding='SAME', name='conv1')
  pool1 = tf.keras.layers.MaxPool2D(padding='SAME', name='conv1/pool')
  out = pool1(conv1(tf.zeros((3, 28, 28, 1))))
  assert out.shape.as_list() == [3, 14, 14, 32]
  assert conv1.kernel.name == "conv1/kernel:0"


def test_output_shapes_symbolic_and_channels_first():
  layers = tf.keras.layers
  assert layers.Conv2DTranspose(4, 3, strides=2).compute_output_shape(
      (None, 5, 5, 3)).as_list() == [None, 11, 11, 4]
  assert layers.Conv2D(4, 3, strides=2, padding="same", data_format="channels_first"
                       ).compute_output_shape((None, 3, 7, 9)).as_list() == [None, 4, 4, 5]
  assert layers.MaxPooling2D(data_format="channels_first").compute_output_shape(
      (None, 3, 7, 9)).as_list() == [None, 3, 3, 4]
  inputs = tf.keras.Input((28, 28, 1))
  h = layers.Conv2D(8, 3, padding="same", activation="relu")(inputs)
  h = layers.BatchNormalization()(h)
  h = layers.MaxPooling2D()(h)
  h = layers.Conv2DTranspose(4, 3, strides=2, padding="same")(h)
  h = layers.GlobalAveragePooling2D()(h)
  assert h.shape.as_list() == [None, 4]
  model = tf.keras.Model(inputs, h)
  assert model(np.zeros((3, 28, 28, 1), np.float32)).shape.as_list() == [3, 4]


def test_global_average_pooling_1d_mask():
  x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 4, 3))
  mask = tf.constant([[True, True, False, False], [True, False, True, True]])
  out = tf.keras.layers.GlobalAveragePooling1D()(x, mask=mask)
  np.testing.assert_allclose(out.numpy(), [[1.5, 2.5, 3.5], [17, 18, 19]])


def test_bad_arguments_and_inputs():
  layers = tf.keras.layers
  with pytest.raises(ValueError, match="Causal padding is only supported"):
    layers.Conv2D(4, 3, padding="causal")
  with pytest.raises(ValueError, match="The `padding` argument must be one of"):
    layers.Conv2D(4, 3, padding="full")
  with pytest.raises(ValueError, match="The `data_format` argument must be one of"):
    layers.Conv2D(4, 3, data_format="NHWC")
  with pytest.raises(ValueError, match="`kernel_size` argument must be a tuple of 2"):
    layers.Conv2D(4, (3, 3, 3))
  with pytest.raises(ValueError, match="`interpolation` argument should be one of"):
    layers.UpSampling2D(interpolation="bicubic")
  with pytest.raises(ValueError, match="must be greater than output padding"):
    layers.Conv2DTranspose(4, 3, strides=2, output_padding=2)
  conv = layers.Conv2D(4, 3)
  conv(tf.zeros((1, 5, 5, 3)))
  with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
    conv(tf.zeros((1, 5, 5, 2)))
  with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
    layers.MaxPooling2D()(tf.zeros((1, 5, 5)))


def test_windows_and_croppings_larger_than_the_input():
  layers = tf.keras.layers
  with pytest.raises(ValueError, match=r"One of the dimensions in the output is <= 0 due to "
                                       r"downsampling in big_kernel. .* Received input shape "
                                       r"\[1, 3, 3, 1\] which would produce"):
    layers.Conv2D(2, 5, name="big_kernel")(tf.ones([1, 3, 3, 1]))
  with pytest.raises(ValueError, match="One of the dimensions in the output is <= 0"):
    layers.Conv1D(2, 3, dilation_rate=2)(tf.ones([1, 3, 1]))
  assert layers.Conv2D(2, 5, padding="same")(tf.ones([1, 3, 3, 1])).shape == (1, 3, 3, 2)
  with pytest.raises(ValueError, match=r"Argument `cropping` must be greater than the input "
                                       r"shape. Received: inputs.shape=\(1, 4, 4, 1\), and "
                                       r"cropping=\(\(2, 2\), \(1, 1\)\)"):
    layers.Cropping2D(((2, 2), (1, 1)))(tf.ones([1, 4, 4, 1]))
  with pytest.raises(ValueError, match="cropping parameter of Cropping layer must be greater"):
    layers.Cropping1D(2)(tf.ones([1, 4, 1]))
  assert layers.Cropping3D(3)(tf.ones([1, 4, 4, 4, 1])).shape == (1, 0, 0, 0, 1)  # as TF
