"""TF 1.15 `tf.keras.backend` functions of tfe_compat/keras/backend_ops.py vs tf_keras goldens.

Golden values come from tf_keras's backend (TF 2.21, eager) on the same inputs, except where
TF 1.15 differs from it: bilinear/nearest resize_images through tf.compat.v1.image's
resize_bilinear / resize_nearest_neighbor (1.15's kernels), a rank-1 switch condition through
tf.compat.v1.where (1.15's row select), moving_average_update through
assign_moving_average(zero_debias=True) (1.15 has tf2 disabled), and ctc_decode through
tf.nn.ctc_greedy_decoder + sparse_to_dense of its dense_shape (1.15 pads to the longest
decoding, not to the number of steps). Tensors are compared through a fingerprint: shape,
dtype, sum and a cosine-weighted sum.
"""
import numpy as np
import pytest

import tfe_compat as tf

K = tf.keras.backend


def R(seed, *shape):
  return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def fingerprint(value):
  if isinstance(value, (list, tuple)):
    return [fingerprint(v) for v in value]
  a = np.asarray(value)
  weights = np.cos(np.arange(a.size)).reshape(a.shape)
  return (a.shape, str(a.dtype), float(a.astype(np.float64).sum()),
          float((a.astype(np.float64) * weights).sum()))


def assert_fingerprint(got, expected):
  if isinstance(expected, list):
    assert isinstance(got, list) and len(got) == len(expected)
    for g, e in zip(got, expected):
      assert_fingerprint(g, e)
    return
  assert got[:2] == expected[:2]
  for g, e in zip(got[2:], expected[2:]):
    assert abs(g - e) <= 2e-3 * max(1.0, abs(e)), (got, expected)


GOLDEN = {
    'conv2d_valid': ((2, 3, 4, 4), 'float32', -12.0363, 30.2568),
    'conv2d_same_s2': ((2, 3, 3, 4), 'float32', 16.5315, -11.4785),
    'conv2d_cf_dil': ((2, 4, 5, 6), 'float32', 9.3757, 33.2329),
    'conv1d_causal': ((2, 7, 2), 'float32', 19.6662, -12.131),
    'conv1d_cf_s2': ((2, 2, 3), 'float32', 3.1907, 0.4826),
    'conv3d_same': ((2, 4, 3, 3, 3), 'float32', 53.4036, 6.188),
    'conv3d_cf': ((2, 3, 3, 4, 4), 'float32', 2.3647, -3.705),
    'deconv_same_s2': ((2, 10, 12, 2), 'float32', -54.3715, 14.6951),
    'deconv_cf_valid': ((2, 2, 7, 8), 'float32', -60.6725, 47.4612),
    'deconv_dil': ((2, 5, 6, 2), 'float32', -70.9601, -9.1961),
    'depthwise_s2': ((2, 3, 3, 6), 'float32', 14.2203, 28.1068),
    'depthwise_cf': ((2, 6, 3, 4), 'float32', -9.5349, 32.0868),
    'separable': ((2, 5, 6, 4), 'float32', -244.2543, -26.8587),
    'separable_cf': ((2, 4, 2, 2), 'float32', -8.8099, 2.0425),
    'pool2d_max_same': ((2, 3, 3, 3), 'float32', 73.4243, 1.8423),
    'pool2d_avg_cf': ((2, 3, 3, 3), 'float32', 4.1291, 4.111),
    'pool3d_avg': ((2, 2, 3, 3, 2), 'float32', 6.0538, -0.6602),
    'pool3d_max_cf': ((2, 2, 3, 4, 4), 'float32', 298.4559, -3.5272),
    'local_conv1d': ((2, 3, 4), 'float32', -9.1421, -6.9297),
    'local_conv2d': ((2, 4, 5, 2), 'float32', 5.1406, -1.7917),
    'local_conv2d_cf': ((2, 2, 4, 5), 'float32', 16.306, -10.1895),
    'tpad': ((2, 10, 3), 'float32', -7.9002, -0.5842),
    'pad2d': ((2, 6, 9, 3), 'float32', 16.7901, -5.7459),
    'pad2d_cf': ((2, 5, 7, 6), 'float32', 16.7901, -3.2237),
    'pad3d': ((2, 6, 7, 7, 2), 'float32', 32.2313, 1.8811),
    'pad3d_cf': ((2, 4, 6, 6, 6), 'float32', 32.2313, -4.4418),
    'repeat_el': ((2, 21, 3), 'float32', -23.7005, -4.2008),
    'resize_nn_cf': ((2, 3, 10, 18), 'float32', 100.7403, 34.2725),
    'resize_vol': ((2, 8, 5, 10, 2), 'float32', 128.9251, 16.7063),
    'reverse': ((2, 7, 3), 'float32', -7.9002, 4.067),
    'cumprod': ((2, 7, 3), 'float32', -10.0241, 3.3901),
    'bn_4d': ((3, 4, 5, 6), 'float32', -210.6715, 8.534),
    'bn_4d_bcast': ((3, 4, 5, 6), 'float32', -202.9221, 8.6075),
    'bn_2d': ((3, 6), 'float32', 5.6328, 11.6668),
    'nbt_fused': [
        ((3, 4, 5, 6), 'float32', -7.6492, -7.0565),
        ((6,), 'float32', -0.1117, -0.0617),
        ((6,), 'float32', 5.6243, -0.7929),
    ],
    'nbt_cf': [
        ((3, 4, 5, 6), 'float32', 155.8949, 0.3318),
        ((4,), 'float32', -0.0745, 0.1664),
        ((4,), 'float32', 3.769, -0.3362),
    ],
    'nbt_regular': [
        ((2, 7, 3), 'float32', 25.263, -1.4959),
        ((3,), 'float32', -0.5643, -0.1425),
        ((3,), 'float32', 3.1146, 0.3233),
    ],
    'nbt_bcast': [
        ((2, 7, 3), 'float32', -0.0, 7.2095),
        ((7,), 'float32', -1.3167, -0.9373),
        ((7,), 'float32', 6.378, -1.6719),
    ],
    'rnn_u0_b0': [
        ((2, 2), 'float32', 1.2311, 1.6474),
        ((2, 4, 2), 'float32', -0.64, -0.4021),
        [((2, 2), 'float32', 1.2311, 1.6474)],
    ],
    'rnn_mask_u0_b0': [
        ((2, 2), 'float32', 1.2725, 0.2007),
        ((2, 4, 2), 'float32', -0.1943, 1.0036),
        [((2, 2), 'float32', 1.2725, 0.2007)],
    ],
    'rnn_zero_u0_b0': [
        ((2, 2), 'float32', 1.2208, 0.7946),
        ((2, 4, 2), 'float32', 0.2907, 0.3311),
        [((2, 2), 'float32', 1.2725, 0.2007)],
    ],
    'rnn_u0_b1': [
        ((2, 2), 'float32', 0.2489, -0.0488),
        ((2, 4, 2), 'float32', -1.3316, 0.6325),
        [((2, 2), 'float32', 0.2489, -0.0488)],
    ],
    'rnn_mask_u0_b1': [
        ((2, 2), 'float32', 0.1577, -0.1752),
        ((2, 4, 2), 'float32', 1.1943, -0.5627),
        [((2, 2), 'float32', 0.1577, -0.1752)],
    ],
    'rnn_zero_u0_b1': [
        ((2, 2), 'float32', 0.1577, -0.1752),
        ((2, 4, 2), 'float32', 0.8726, -0.2144),
        [((2, 2), 'float32', 0.1577, -0.1752)],
    ],
    'rnn_u1_b0': [
        ((2, 2), 'float32', 1.2311, 1.6474),
        ((2, 4, 2), 'float32', -0.64, -0.4021),
        [((2, 2), 'float32', 1.2311, 1.6474)],
    ],
    'rnn_mask_u1_b0': [
        ((2, 2), 'float32', 1.2725, 0.2007),
        ((2, 4, 2), 'float32', -0.1943, 1.0036),
        [((2, 2), 'float32', 1.2725, 0.2007)],
    ],
    'rnn_zero_u1_b0': [
        ((2, 2), 'float32', 1.2208, 0.7946),
        ((2, 4, 2), 'float32', 0.2907, 0.3311),
        [((2, 2), 'float32', 1.2725, 0.2007)],
    ],
    'rnn_u1_b1': [
        ((2, 2), 'float32', 0.2489, -0.0488),
        ((2, 4, 2), 'float32', -1.3316, 0.6325),
        [((2, 2), 'float32', 0.2489, -0.0488)],
    ],
    'rnn_mask_u1_b1': [
        ((2, 2), 'float32', 0.1577, -0.1752),
        ((2, 4, 2), 'float32', 1.1943, -0.5627),
        [((2, 2), 'float32', 0.1577, -0.1752)],
    ],
    'rnn_zero_u1_b1': [
        ((2, 2), 'float32', 0.1577, -0.1752),
        ((2, 4, 2), 'float32', 0.7494, 0.0439),
        [((2, 2), 'float32', 0.1577, -0.1752)],
    ],
    'rnn_tm_const': [
        ((2, 2), 'float32', 0.4638, -0.1911),
        ((4, 2, 2), 'float32', 5.5903, 0.7979),
        [((2, 2), 'float32', 0.4638, -0.1911), ((2, 2), 'float32', 5.5903, -1.2787)],
    ],
    'switch_scalar': ((2, 4, 3), 'float32', -1.3232, 2.2364),
    'switch_scalar_int': ((2, 4, 3), 'float32', 1.3232, -2.2364),
    'switch_2d': ((2, 4, 3), 'float32', 8.1766, 0.3941),
    'switch_1d': ((3,), 'float32', 9.0, 2.4531),
    'map_fn': ((2,), 'float32', 30.5323, 21.3395),
    'map_fn_dtype': ((4,), 'int32', 2.0, 1.0806),
    'foldl': ((4, 3), 'float32', -0.958, 4.566),
    'foldr': ((4, 3), 'float32', 1.9731, 4.7866),
    'in_top_k': ((4,), 'bool', 3.0, 1.1242),
    'cumprod_def': ((2, 2), 'int32', 14.0, -7.0878),
    'repeat_int': ((6,), 'int32', 12.0, -2.3819),
    'eval_var': ((4, 3), 'float32', -0.7306, 3.4759),
    'eval_sparse': ((3, 2), 'float32', 4.0, -0.8237),
    'ctc_sparse': [
        ((5, 2), 'int64', 6.0, -0.5191),
        ((5,), 'int32', 9.0, -2.3753),
        ((2,), 'int64', 6.0, 4.1612),
    ],
    'ctc_cost': ((2, 1), 'float32', 8.4607, 6.9058),
    'ctc_decode': [((2, 5), 'int64', 10.0, 2.5246), ((2, 1), 'float32', 8.2111, 6.5998)],
    'resize_bilinear': ((2, 6, 8, 2), 'float32', 39.8629, 1.6123),
    'resize_nn_cl': ((2, 6, 8, 2), 'float32', 39.5778, 0.1246),
}


def _cases():
  """name -> thunk computing the value fingerprinted in GOLDEN."""
  c = {}
  x4, k = R(0, 2, 5, 6, 3), R(1, 3, 3, 3, 4)
  x4_cf = x4.transpose(0, 3, 1, 2)
  c['conv2d_valid'] = lambda: K.conv2d(x4, k)
  c['conv2d_same_s2'] = lambda: K.conv2d(x4, k, strides=(2, 2), padding='same')
  c['conv2d_cf_dil'] = lambda: K.conv2d(x4_cf, k, padding='same', data_format='channels_first',
                                        dilation_rate=(2, 2))
  x3, k1 = R(2, 2, 7, 3), R(3, 3, 3, 2)
  c['conv1d_causal'] = lambda: K.conv1d(x3, k1, padding='causal', dilation_rate=2)
  c['conv1d_cf_s2'] = lambda: K.conv1d(x3.transpose(0, 2, 1), k1, strides=2,
                                       data_format='channels_first')
  x5, k3 = R(4, 2, 4, 5, 5, 2), R(5, 2, 2, 2, 2, 3)
  x5_cf = x5.transpose(0, 4, 1, 2, 3)
  c['conv3d_same'] = lambda: K.conv3d(x5, k3, strides=(1, 2, 2), padding='same')
  c['conv3d_cf'] = lambda: K.conv3d(x5_cf, k3, data_format='channels_first')
  kt = R(6, 3, 3, 2, 3)
  c['deconv_same_s2'] = lambda: K.conv2d_transpose(x4, kt, (2, 10, 12, 2), strides=(2, 2),
                                                   padding='same')
  c['deconv_cf_valid'] = lambda: K.conv2d_transpose(x4_cf, kt, (None, 2, 7, 8), padding='valid',
                                                    data_format='channels_first')
  c['deconv_dil'] = lambda: K.conv2d_transpose(x4, kt, (2, 5, 6, 2), padding='same',
                                               dilation_rate=(2, 2))
  dk, pk = R(7, 3, 3, 3, 2), R(8, 1, 1, 6, 4)
  c['depthwise_s2'] = lambda: K.depthwise_conv2d(x4, dk, strides=(2, 2), padding='same')
  c['depthwise_cf'] = lambda: K.depthwise_conv2d(x4_cf, dk, data_format='channels_first')
  c['separable'] = lambda: K.separable_conv2d(x4, dk, pk, padding='same', dilation_rate=(2, 2))
  c['separable_cf'] = lambda: K.separable_conv2d(x4_cf, dk, pk, strides=(2, 2),
                                                 data_format='channels_first')
  c['pool2d_max_same'] = lambda: K.pool2d(x4, (3, 3), strides=(2, 2), padding='same')
  c['pool2d_avg_cf'] = lambda: K.pool2d(x4_cf, (2, 2), strides=(2, 2), padding='same',
                                        data_format='channels_first', pool_mode='avg')
  c['pool3d_avg'] = lambda: K.pool3d(x5, (2, 2, 2), strides=(2, 2, 2), padding='same',
                                     pool_mode='avg')
  c['pool3d_max_cf'] = lambda: K.pool3d(x5_cf, (2, 2, 2), data_format='channels_first')
  lk1, lk2 = R(9, 3, 6, 4), R(10, 4 * 5, 4 * 3, 2)
  c['local_conv1d'] = lambda: K.local_conv1d(x3, lk1, (2,), (2,))
  c['local_conv2d'] = lambda: K.local_conv2d(x4, lk2, (2, 2), (1, 1), (4, 5))
  c['local_conv2d_cf'] = lambda: K.local_conv2d(x4_cf, lk2, (2, 2), (1, 1), (4, 5),
                                                data_format='channels_first')
  c['tpad'] = lambda: K.temporal_padding(x3, (2, 1))
  c['pad2d'] = lambda: K.spatial_2d_padding(x4, ((1, 0), (2, 1)))
  c['pad2d_cf'] = lambda: K.spatial_2d_padding(x4, ((1, 0), (2, 1)), data_format='channels_first')
  c['pad3d'] = lambda: K.spatial_3d_padding(x5)
  c['pad3d_cf'] = lambda: K.spatial_3d_padding(x5, ((0, 1), (1, 0), (2, 2)),
                                               data_format='channels_first')
  c['repeat_el'] = lambda: K.repeat_elements(tf.constant(x3), 3, axis=-2)
  c['resize_nn_cf'] = lambda: K.resize_images(x4_cf, 2, 3, 'channels_first')
  c['resize_vol'] = lambda: K.resize_volumes(x5, 2, 1, 2, 'channels_last')
  c['reverse'] = lambda: K.reverse(x3, (0, 2))
  c['cumprod'] = lambda: K.cumprod(x3, axis=1)
  bnx, mean, beta, gamma = R(11, 3, 4, 5, 6), R(12, 6), R(14, 6), R(15, 6)
  var = np.abs(R(13, 6)) + .5
  c['bn_4d'] = lambda: K.batch_normalization(bnx, mean, var, beta, gamma, epsilon=1e-6)
  c['bn_4d_bcast'] = lambda: K.batch_normalization(
      bnx, mean.reshape(1, 1, 1, 6), var.reshape(1, 1, 1, 6), None, gamma.reshape(1, 1, 1, 6))
  c['bn_2d'] = lambda: K.batch_normalization(bnx[:, 0, 0], mean, var, beta, None, epsilon=0.01)
  c['nbt_fused'] = lambda: K.normalize_batch_in_training(bnx, gamma, beta, [0, 1, 2])
  c['nbt_cf'] = lambda: K.normalize_batch_in_training(bnx, gamma[:4], beta[:4], [0, 2, 3])
  c['nbt_regular'] = lambda: K.normalize_batch_in_training(x3, None, beta[:3], [0, 1],
                                                           epsilon=0.1)
  c['nbt_bcast'] = lambda: K.normalize_batch_in_training(x3, R(16, 7), None, [0, 2])
  x, w, u = R(20, 2, 4, 3), R(21, 3, 2), R(22, 2, 2)

  def step(inp, states):
    h = K.tanh(K.dot(inp, tf.constant(w)) + K.dot(states[0], tf.constant(u)))
    return h, [h]

  mask = np.array([[1, 1, 0, 1], [1, 0, 0, 0]], np.float32)
  for unroll in (False, True):
    for back in (False, True):
      for kind, kwargs in (('', {}), ('_mask', {'mask': mask}),
                           ('_zero', {'mask': mask, 'zero_output_for_mask': True})):
        c['rnn%s_u%d_b%d' % (kind, unroll, back)] = (
            lambda kwargs=kwargs, unroll=unroll, back=back: K.rnn(
                step, tf.constant(x), [tf.zeros((2, 2))], go_backwards=back, unroll=unroll,
                **kwargs))

  def step2(inp, states):
    n = K.tanh(inp[:, :2] * states[2] + states[0])
    return n, [n, states[1] + n]

  c['rnn_tm_const'] = lambda: K.rnn(step2, tf.constant(x.transpose(1, 0, 2)),
                                    [tf.ones((2, 2)), tf.zeros((2, 2))],
                                    constants=[tf.constant(0.5)], time_major=True)
  c['switch_scalar'] = lambda: K.switch(tf.constant(True), lambda: tf.constant(x),
                                        tf.constant(-x))
  c['switch_scalar_int'] = lambda: K.switch(tf.constant(0), tf.constant(x), tf.constant(-x))
  c['switch_2d'] = lambda: K.switch(tf.constant([[1, 0, 1, 1], [0, 0, 1, 0]]), tf.constant(x),
                                    tf.constant(-x))
  c['switch_1d'] = lambda: K.switch(tf.constant([True, False, True]), tf.constant([1., 2., 3.]),
                                    tf.constant([4., 5., 6.]))
  c['map_fn'] = lambda: K.map_fn(lambda r: K.sum(r * r), tf.constant(x))
  c['map_fn_dtype'] = lambda: K.map_fn(lambda r: K.cast(K.argmax(r), 'int32'), tf.constant(x[0]),
                                       dtype=tf.int32)
  c['foldl'] = lambda: K.foldl(lambda a, r: a * 0.5 + r, tf.constant(x))
  c['foldr'] = lambda: K.foldr(lambda a, r: a * 0.5 + r, tf.constant(x),
                               initializer=tf.ones((4, 3)))
  c['in_top_k'] = lambda: K.in_top_k(tf.constant(x[0]), tf.constant([0, 1, 2, 2]), 2)
  c['cumprod_def'] = lambda: K.cumprod(tf.constant([[1, 2], [3, 4]]))
  c['repeat_int'] = lambda: K.repeat_elements(tf.constant([1, 2, 3]), 2, axis=0)
  c['eval_var'] = lambda: K.eval(K.variable(x[0]))
  c['eval_sparse'] = lambda: K.eval(tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 2]))
  labels = np.array([[1, 2, 2, 0], [3, 1, 0, 0]], np.int32)
  c['ctc_sparse'] = lambda: (lambda s: [s.indices, s.values, s.dense_shape])(
      K.ctc_label_dense_to_sparse(tf.constant(labels), tf.constant([3, 2])))
  logits = R(23, 2, 6, 5)
  y_pred = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
  c['ctc_cost'] = lambda: K.ctc_batch_cost(labels, y_pred, tf.constant([[6], [5]]),
                                           tf.constant([[3], [2]]))
  c['ctc_decode'] = lambda: (lambda d: [d[0][0], d[1]])(
      K.ctc_decode(tf.constant(y_pred), tf.constant([6, 4])))
  c['resize_bilinear'] = lambda: K.resize_images(R(24, 2, 3, 4, 2), 2, 2, 'channels_last',
                                                 interpolation='bilinear')
  c['resize_nn_cl'] = lambda: K.resize_images(R(24, 2, 3, 4, 2), 2, 2, 'channels_last')
  return c


_CASES = _cases()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_against_tf_keras(name):
  assert_fingerprint(fingerprint(_CASES[name]()), GOLDEN[name])


def test_rnn_state_structures():
  def step(inp, states):
    return inp, [states[0] + 1.]

  x, init = tf.ones((2, 3, 1)), [tf.zeros((2, 1))]
  mask = tf.constant([[1, 0, 1], [1, 1, 1]])
  assert isinstance(K.rnn(step, x, init)[2], tuple)
  assert isinstance(K.rnn(step, x, init, mask=mask)[2], tuple)
  assert isinstance(K.rnn(step, x, init, unroll=True)[2], list)
  states = K.rnn(step, x, init, unroll=True, mask=mask)[2]
  assert isinstance(states, tuple)
  np.testing.assert_array_equal(states[0].numpy(), [[2.], [3.]])
  with pytest.raises(ValueError, match="must have rank at least 3"):
    K.rnn(step, tf.ones((2, 3)), init)


@pytest.mark.parametrize("unroll", [False, True])
def test_rnn_gradient(unroll):
  x = tf.constant(R(20, 2, 4, 3))
  w, u = tf.Variable(R(21, 3, 2)), tf.Variable(R(22, 2, 2))
  mask = tf.constant(np.array([[1, 1, 0, 1], [1, 0, 0, 0]], np.float32))

  def step(inp, states):
    h = K.tanh(K.dot(inp, w) + K.dot(states[0], u))
    return h, [h]

  with tf.GradientTape() as tape:
    tape.watch(x)
    last, outputs, states = K.rnn(step, x, [tf.zeros((2, 2))], mask=mask, go_backwards=True,
                                  unroll=unroll)
    loss = K.sum(outputs * outputs) + K.sum(last) + 2 * K.sum(states[0])
  assert_fingerprint(fingerprint(loss), ((), 'float32', 4.0896, 4.0896))
  assert_fingerprint(fingerprint(tape.gradient(loss, [w, u, x])), [
      ((3, 2), 'float32', 2.1083, 3.7751), ((2, 2), 'float32', 1.079, -1.7084),
      ((2, 4, 3), 'float32', -11.0513, 3.4123)])


def test_switch_gradient():
  a, b = tf.constant(R(30, 2, 3)), tf.constant(R(31, 2, 3))
  with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    y1 = K.switch(tf.constant(True), lambda: a * a, lambda: b * 3.)
    y2 = K.switch(tf.constant([[True, False, True], [False, False, True]]), a * b, b * 2.)
    y3 = K.switch(tf.constant([True, False]), a * a, b)  # rank-1 condition selects rows
  assert_fingerprint(fingerprint([y1, y2, y3]), [
      ((2, 3), 'float32', 5.1985, 2.2674), ((2, 3), 'float32', -2.4723, 1.983),
      ((2, 3), 'float32', 3.1018, 3.1765)])
  grad_a, grad_b = tape.gradient(y1, [a, b])
  assert grad_b is None
  assert_fingerprint(fingerprint(grad_a), ((2, 3), 'float32', -0.0664, -0.6968))
  assert_fingerprint(fingerprint(tape.gradient(y2, [a, b])), [
      ((2, 3), 'float32', -1.0969, -0.665), ((2, 3), 'float32', 4.069, -2.9806)])
  assert_fingerprint(fingerprint(tape.gradient(y3, [a, b])), [
      ((2, 3), 'float32', -1.4137, -0.0691), ((2, 3), 'float32', 3.0, -1.36)])
  with pytest.raises(ValueError, match="Rank of `condition` should be less than"):
    K.switch(tf.ones((2, 2, 2)) > 0, a, b)


def test_ctc():
  labels = tf.constant(np.array([[1, 2, 2, 0], [3, 1, 0, 0]], np.int32))
  sparse = K.ctc_label_dense_to_sparse(labels, tf.constant([3, 2]))
  assert K.is_sparse(sparse)
  np.testing.assert_array_equal(sparse.indices.numpy(), [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]])
  np.testing.assert_array_equal(sparse.values.numpy(), [1, 2, 2, 3, 1])
  assert sparse.dense_shape.dtype == tf.int64
  logits = tf.constant(R(23, 2, 6, 5))
  with tf.GradientTape() as tape:
    tape.watch(logits)
    cost = K.ctc_batch_cost(labels, K.softmax(logits), tf.constant([[6], [5]]),
                            tf.constant([[3], [2]]))
  assert cost.dtype == tf.float32 and cost.shape == (2, 1)
  np.testing.assert_allclose(cost.numpy().ravel(), [5.0783863, 3.3822641], rtol=1e-5)
  assert_fingerprint(fingerprint(tape.gradient(cost, logits)),
                     ((2, 6, 5), 'float32', 0.0, -1.1146))
  (decoded,), log_prob = K.ctc_decode(K.softmax(logits), tf.constant([6, 4]))
  assert decoded.dtype == tf.int64
  np.testing.assert_array_equal(decoded.numpy(), [[3, 1, 2, 1, 2], [3, 1, -1, -1, -1]])
  np.testing.assert_allclose(log_prob.numpy().ravel(), [4.7058992, 3.5052366], rtol=1e-5)
  with pytest.raises(NotImplementedError, match="beam search"):
    K.ctc_decode(K.softmax(logits), tf.constant([6, 4]), greedy=False)


def test_moving_average_update_is_tf1_zero_debiased():
  x = tf.Variable([5., -1., 3.])
  K.moving_average_update(x, tf.constant([2., 0.7, 1e-3]), 0.9)
  np.testing.assert_allclose(x.numpy(), [1.9999995, 0.6999998, 9.999998e-04], rtol=2e-7)
  assert x.dtype == tf.float32
  x64 = tf.Variable([5., -1., 3.], dtype=tf.float64)
  K.moving_average_update(x64, [2.1, 0.7, 1e-3], 0.97)
  np.testing.assert_allclose(x64.numpy(), [2.1, 0.7, 1e-3], rtol=1e-15)


def test_print_tensor(capfd):
  y = K.print_tensor(tf.constant([[1, 2], [3, 4]]), message="x is: ")
  np.testing.assert_array_equal(y.numpy(), [[1, 2], [3, 4]])
  assert capfd.readouterr().err == "x is: [[1 2][3...]...]\n"


def test_learning_phase_scope():
  K.clear_session()
  assert K.learning_phase() == 0
  with K.learning_phase_scope(1):
    assert K.learning_phase() == 1
    with K.learning_phase_scope(0):
      assert K.learning_phase() == 0
    assert K.learning_phase() == 1
  assert K.learning_phase() == 0
  with pytest.raises(ValueError, match="Expected learning phase to be 0 or 1."):
    with K.learning_phase_scope(2):
      pass
  K.manual_variable_initialization(True)  # accepted; eager variables are always initialized
  K.manual_variable_initialization(False)


def test_learning_phase_is_set_per_graph():
  """TF 1.15's _GRAPH_LEARNING_PHASES (values from TF 2.21's tf_keras): a phase set eagerly
  leaves a new graph its placeholder, and one set in a graph stays there."""
  K.clear_session()
  K.set_learning_phase(0)
  with tf.Graph().as_default():
    assert str(K.learning_phase()) == (
        'Tensor("keras_learning_phase:0", shape=(), dtype=bool)')
    K.set_learning_phase(1)
    assert K.learning_phase() == 1
  assert K.learning_phase() == 0
  K.clear_session()


def test_random():
  ones = K.random_binomial((200,), p=1.0)
  assert ones.dtype == tf.float32 and ones.shape == (200,)
  np.testing.assert_array_equal(ones.numpy(), np.ones(200))
  draws = K.random_binomial((4000,), p=0.3, dtype='float64', seed=3).numpy()
  assert draws.dtype == np.float64 and set(np.unique(draws)) <= {0., 1.}
  assert abs(draws.mean() - 0.3) < 0.05
  normal = K.truncated_normal((3000,), mean=1., stddev=2., seed=1).numpy()
  assert normal.dtype == np.float32 and normal.min() >= -3. and normal.max() <= 5.
  assert abs(normal.mean() - 1.) < 0.15
  uniform = K.random_uniform_variable((2, 3), -1., 2., name="u")
  assert isinstance(uniform, tf.Variable) and uniform.dtype == tf.float32
  assert uniform.shape == (2, 3) and uniform.name == "u:0"
  values = uniform.numpy()
  assert values.min() >= -1. and values.max() < 2.
  gaussian = K.random_normal_variable((50, 40), 3., 0.5, dtype='float64', seed=2)
  assert isinstance(gaussian, tf.Variable) and gaussian.dtype == tf.float64
  assert abs(gaussian.numpy().mean() - 3.) < 0.05 and abs(gaussian.numpy().std() - 0.5) < 0.05


def test_sparse_and_values():
  dense = tf.constant([1., 2.])
  assert not K.is_sparse(dense) and K.to_dense(dense) is dense
  sparse = tf.SparseTensor([[0, 1]], [5], [2, 2])
  np.testing.assert_array_equal(K.to_dense(sparse).numpy(), [[0, 5], [0, 0]])
  value = K.eval(K.variable([[1, 2], [3, 4]]))
  assert isinstance(value, np.ndarray) and value.dtype == np.float32


def test_stop_gradient_and_gradients():
  a, b = tf.constant(2.), tf.constant(3.)
  with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    c, d = K.stop_gradient([a * a, b * b])
    y = K.stop_gradient(a * b) + a * b
  assert (c.numpy(), d.numpy()) == (4., 9.)
  assert tape.gradient(c, a) is None and tape.gradient(y, a).numpy() == 3.
  with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution"):
    K.gradients(y, [a])


def test_reset_uids():
  K.reset_uids()
  assert K.get_uid("thing") == 1 and K.get_uid("thing") == 2
  K.reset_uids()
  assert K.get_uid("thing") == 1


def test_image_data_format_default():
  x, k = R(0, 2, 3, 5, 6), R(1, 3, 3, 3, 4)
  K.set_image_data_format("channels_first")
  try:
    default = K.conv2d(x, k, padding="same").numpy()
    padded = K.spatial_2d_padding(x, ((1, 1), (0, 2))).shape
  finally:
    K.set_image_data_format("channels_last")
  explicit = K.conv2d(x, k, padding="same", data_format="channels_first").numpy()
  np.testing.assert_array_equal(default, explicit)
  assert default.shape == (2, 4, 5, 6) and padded == (2, 3, 7, 8)


def test_argument_errors():
  x, k = R(0, 1, 4, 4, 2), R(1, 2, 2, 2, 2)
  with pytest.raises(ValueError, match="Unknown data_format: NHWC"):
    K.conv2d(x, k, data_format="NHWC")
  with pytest.raises(ValueError, match="Invalid padding: full"):
    K.conv2d(x, k, padding="full")
  with pytest.raises(ValueError, match="Invalid pooling mode: min"):
    K.pool2d(x, (2, 2), pool_mode="min")
  with pytest.raises(ValueError, match="`pool_size` must be a tuple of 2 integers."):
    K.pool2d(x, (2, 2, 2))
  with pytest.raises(ValueError, match="Invalid `data_format` argument: nchw"):
    K.resize_images(x, 2, 2, "nchw")
  with pytest.raises(ValueError, match="interpolation should be one of"):
    K.resize_images(x, 2, 2, "channels_last", interpolation="bicubic")
