"""Keras layers added for TF 1.15 parity: noise, dense attention, locally-connected,
ConvLSTM2D and AbstractRNNCell. Golden values come from tf_keras (TF 2.21 oracle) with the same
deterministic inputs and weights; `_sig` summarizes large outputs as (sum, cosine-weighted
sum), which any wrong element changes."""
import numpy as np
import pytest

import tfe_compat as tf

tf.enable_eager_execution()
L = tf.keras.layers


def _det(shape, seed):
  n = int(np.prod(shape))
  return (np.sin(np.arange(n) * 0.37 + seed) * 0.8).reshape(shape).astype(np.float32)


def _cos(shape):
  return np.cos(np.arange(int(np.prod(shape)))).reshape(shape).astype(np.float32)


def _sig(a):
  a = np.asarray(a, np.float64)
  return [a.sum(), (a * _cos(a.shape)).sum()]


def _set_weights(layer):
  layer.set_weights([_det(w.shape, 10 + i) for i, w in enumerate(layer.get_weights())])


def _weighted_loss(y):
  return tf.reduce_sum(y * _cos(y.shape.as_list()))


def _base_keys():
  return {"name", "trainable", "dtype"}


ALPHA_LOW = -1.059548
ALPHA_AB = [0.860953, 0.454092]
ATTENTION = {'add_noscale_causal_key': [[[0.727438, 0.557822, 0.312708, 0.02527],
                                         [0.543133, 0.357686, 0.123828, -0.126789],
                                         [-0.35453, -0.348105, -0.294565, -0.201158]],
                                        [[0.01982, -0.270724, -0.524628, -0.707526],
                                         [-0.702656, -0.717367, -0.634985, -0.466661],
                                         [-0.228242, 0.031402, 0.286796, 0.503373]]],
             'add_scale_mask': [[[-0.362311, -0.468561, -0.511394, -0.485012],
                                 [-0.420634, -0.503913, -0.51899, -0.463824],
                                 [-0.0, -0.0, -0.0, -0.0]],
                                [[0.121723, -0.099691, -0.307612, -0.4739],
                                 [0.0, -0.0, -0.0, -0.0],
                                 [0.136298, -0.080481, -0.286367, -0.453495]]],
             'dot': [[[0.536638, 0.547162, 0.48363, 0.354642],
                      [0.297489, 0.238518, 0.147266, 0.036081],
                      [-0.408903, -0.495032, -0.51416, -0.463699]],
                     [[-0.217824, -0.236887, -0.223889, -0.180588],
                      [0.476703, 0.538521, 0.527453, 0.444997],
                      [0.33703, 0.305758, 0.233104, 0.1289]]],
             'dot_scale_causal_mask_key': [[[0.727438, 0.557822, 0.312708, 0.02527],
                                            [0.164928, -0.053005, -0.263764, -0.438823],
                                            [-0.0, -0.0, -0.0, -0.0]],
                                           [[0.01982, -0.270724, -0.524628, -0.707526],
                                            [0.0, -0.0, -0.0, -0.0],
                                            [-0.037129, -0.146427, -0.235907, -0.293458]]],
             'grad_q_sig': [-0.18721, 0.04488],
             'grad_scale': [0.157731, 0.022187, -0.178415, -0.346843]}
LOCAL = {'1-channels_first-1-valid': [[2, 2, 3], [[3, 9, 2], [3, 2]], [2.82148, -1.95933]],
         '1-channels_first-2-same': [[2, 2, 4], [[3, 7, 2, 4], [4, 2]], [-0.9172, 0.74635]],
         '1-channels_first-2-valid': [[2, 2, 3], [[3, 7, 2, 3], [3, 2]], [-5.37177, -1.50524]],
         '1-channels_first-3-same': [[2, 2, 4], [[60], [4, 2]], [-2.47788, 2.43006]],
         '1-channels_first-3-valid': [[2, 2, 3], [[54], [3, 2]], [-2.72869, 0.53113]],
         '1-channels_last-1-valid': [[2, 3, 2], [[3, 9, 2], [3, 2]], [-1.35783, 2.58107]],
         '1-channels_last-2-same': [[2, 4, 2], [[7, 3, 4, 2], [4, 2]], [-1.0037, 1.90222]],
         '1-channels_last-2-valid': [[2, 3, 2], [[7, 3, 3, 2], [3, 2]], [-1.93744, -0.2103]],
         '1-channels_last-3-same': [[2, 4, 2], [[60], [4, 2]], [2.50764, 0.10847]],
         '1-channels_last-3-valid': [[2, 3, 2], [[54], [3, 2]], [-1.93497, -1.67581]],
         '2-channels_first-1-valid': [[2, 2, 2, 5], [[10, 18, 2], [2, 5, 2]], [0.07739, -0.27196]],
         '2-channels_first-2-same': [[2, 2, 3, 6], [[3, 5, 6, 2, 3, 6], [3, 6, 2]],
                                     [4.42015, 4.9151]],
         '2-channels_first-2-valid': [[2, 2, 2, 5], [[3, 5, 6, 2, 2, 5], [2, 5, 2]],
                                      [-2.30556, -2.30989]],
         '2-channels_first-3-same': [[2, 2, 3, 6], [[462], [3, 6, 2]], [-4.97973, 1.23685]],
         '2-channels_first-3-valid': [[2, 2, 2, 5], [[360], [2, 5, 2]], [1.26767, 11.064]],
         '2-channels_last-1-valid': [[2, 2, 5, 2], [[10, 18, 2], [2, 5, 2]], [-3.84196, -2.21786]],
         '2-channels_last-2-same': [[2, 3, 6, 2], [[5, 6, 3, 3, 6, 2], [3, 6, 2]],
                                    [4.90776, 16.15993]],
         '2-channels_last-2-valid': [[2, 2, 5, 2], [[5, 6, 3, 2, 5, 2], [2, 5, 2]],
                                     [0.10198, 0.17883]],
         '2-channels_last-3-same': [[2, 3, 6, 2], [[462], [3, 6, 2]], [-0.0316, -2.88959]],
         '2-channels_last-3-valid': [[2, 2, 5, 2], [[360], [2, 5, 2]], [-2.20118, 3.03671]],
         'grad': [[5.7443, -5.50147], [1.51543, 14.76181]]}
CONV_LSTM = {'cf': [[[2, 3, 3, 5]], [[22.51545, 0.28634]]],
             'default': [[[2, 3, 5, 3]], [[17.4197, 0.61409]]],
             'dil_state_nobias': [[[2, 5, 6, 3], [2, 5, 6, 3], [2, 5, 6, 3]],
                                  [[-0.94176, -0.04973], [-0.94176, -0.04973],
                                   [-2.14462, -0.19107]]],
             'grad': [[-0.15749, 0.33389], [-0.44504, -0.29649], [0.60647, -0.21173]],
             'init': [20.20622, -0.10045],
             'relu_masked': [[[2, 3, 3, 5, 3]], [[52.25974, 0.16726]]],
             'same_seq': [[[2, 3, 5, 6, 3]], [[87.50232, -0.28032]]],
             'stride_back_cf': [[[2, 3, 3, 2, 5]], [[32.21165, 0.20302]]]}
ABSTRACT_CELL = {'grad': [[-11.08848, 10.88705], [-7.96994, -4.99175]],
                 'names': ['rnn/minimal_rnn_cell/kernel:0',
                           'rnn/minimal_rnn_cell/recurrent_kernel:0'],
                 'seq': [[[-0.330396, -0.289823, -0.209922, -0.098643, 0.028546],
                          [-0.214078, -0.322983, -0.386067, -0.400511, -0.36611],
                          [0.253704, 0.073418, -0.121617, -0.292641, -0.413547],
                          [0.399113, 0.367803, 0.288509, 0.166252, 0.015966]],
                         [[0.269554, 0.363299, 0.408206, 0.403285, 0.348562],
                          [-0.333862, -0.165168, 0.036323, 0.230252, 0.380667],
                          [-0.383849, -0.382804, -0.334181, -0.239908, -0.108284],
                          [-0.043077, -0.205895, -0.333167, -0.411163, -0.436976]]]}
CONV_LSTM_CONFIG_KEYS = ['activation', 'activity_regularizer', 'bias_constraint',
                         'bias_initializer', 'bias_regularizer', 'data_format', 'dilation_rate',
                         'dropout', 'dtype', 'filters', 'go_backwards', 'kernel_constraint',
                         'kernel_initializer', 'kernel_regularizer', 'kernel_size', 'name',
                         'padding', 'recurrent_activation', 'recurrent_constraint',
                         'recurrent_dropout', 'recurrent_initializer', 'recurrent_regularizer',
                         'return_sequences', 'return_state', 'stateful', 'strides', 'time_major',
                         'trainable', 'unit_forget_bias', 'unroll', 'use_bias']
LOCAL_CASES = [k for k in LOCAL if k != "grad"]


# ---- Noise ----
def test_noise_layers_are_identity_unless_training():
  x = _det((3, 4), 0)
  for layer in (L.GaussianNoise(0.5), L.GaussianDropout(0.3), L.AlphaDropout(0.3)):
    np.testing.assert_array_equal(layer(x).numpy(), x)
    np.testing.assert_array_equal(layer(x, training=False).numpy(), x)
    y = layer(x, training=True)
    assert y.dtype == tf.float32 and y.shape.as_list() == [3, 4]
    assert not np.allclose(y.numpy(), x)


def test_gaussian_noise_and_dropout_statistics():
  x = np.ones((400, 250), np.float32)
  noise = L.GaussianNoise(0.5)(x, training=True).numpy() - 1
  assert abs(noise.mean()) < 0.01 and abs(noise.std() - 0.5) < 0.01
  mult = L.GaussianDropout(0.2)(x, training=True).numpy()
  assert abs(mult.mean() - 1) < 0.01 and abs(mult.std() - 0.5) < 0.01  # sqrt(.2 / .8)
  for rate in (0., 1.):  # outside (0, 1): the identity even when training
    np.testing.assert_array_equal(L.GaussianDropout(rate)(x, training=True).numpy(), x)
    np.testing.assert_array_equal(L.AlphaDropout(rate)(x, training=True).numpy(), x)


def test_alpha_dropout_formula_seed_and_noise_shape():
  x = _det((40, 50), 0)
  layer = L.AlphaDropout(0.3, seed=7)
  tf.set_random_seed(3)
  y = layer(x, training=True).numpy()
  tf.set_random_seed(3)
  np.testing.assert_array_equal(layer(x, training=True).numpy(), y)
  dropped = np.isclose(y, ALPHA_LOW, atol=1e-6)
  assert 0.25 < dropped.mean() < 0.35
  a, b = ALPHA_AB
  np.testing.assert_allclose(y[~dropped], a * x[~dropped] + b, rtol=1e-5, atol=1e-6)
  rows = L.AlphaDropout(0.5, noise_shape=(None, 1))(x, training=True).numpy()
  row_dropped = np.isclose(rows, ALPHA_LOW, atol=1e-6)
  assert np.all(row_dropped.all(axis=1) | ~row_dropped.any(axis=1))


def test_noise_gradients_and_configs():
  x = tf.constant(_det((5, 6), 1))
  noise, gdrop, adrop = L.GaussianNoise(0.1), L.GaussianDropout(0.4), L.AlphaDropout(0.3)
  with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    outs = [layer(x, training=True) for layer in (noise, gdrop, adrop)]
  np.testing.assert_allclose(tape.gradient(outs[0], x).numpy(), np.ones((5, 6)))
  np.testing.assert_allclose(tape.gradient(outs[1], x).numpy(), outs[1].numpy() / x.numpy(),
                             rtol=1e-4)
  dropped = np.isclose(outs[2].numpy(), ALPHA_LOW, atol=1e-6)
  assert dropped.any() and not dropped.all()
  np.testing.assert_allclose(tape.gradient(outs[2], x).numpy(), ALPHA_AB[0] * ~dropped,
                             rtol=1e-5)
  assert set(noise.get_config()) == _base_keys() | {"stddev"}
  assert set(gdrop.get_config()) == _base_keys() | {"rate"}
  assert set(adrop.get_config()) == _base_keys() | {"rate", "seed"}
  assert L.AlphaDropout.from_config(adrop.get_config()).rate == 0.3


def test_noise_functional_model():
  inputs = tf.keras.Input(shape=(4,))
  model = tf.keras.Model(inputs, L.GaussianNoise(1.0)(L.Dense(3, kernel_initializer="ones")(
      inputs)))
  x = _det((2, 4), 0)
  np.testing.assert_allclose(model(x).numpy(), np.repeat(x.sum(1, keepdims=True), 3, 1),
                             rtol=1e-6)
  assert not np.allclose(model(x, training=True).numpy(), model(x).numpy())


# ---- Dense attention ----
_Q, _V, _K = _det((2, 3, 4), 1), _det((2, 5, 4), 2), _det((2, 5, 4), 3)
_QM = np.array([[1, 1, 0], [1, 0, 1]], bool)
_VM = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 1]], bool)


@pytest.mark.parametrize("case,cls,kwargs,with_key,masked", [
    ("dot", "Attention", {}, False, False),
    ("dot_scale_causal_mask_key", "Attention", dict(use_scale=True, causal=True), True, True),
    ("add_scale_mask", "AdditiveAttention", {}, False, True),
    ("add_noscale_causal_key", "AdditiveAttention", dict(use_scale=False, causal=True), True,
     False)])
def test_attention_matches_tf_keras(case, cls, kwargs, with_key, masked):
  layer = getattr(L, cls)(**kwargs)
  inputs = [_Q, _V, _K] if with_key else [_Q, _V]
  mask = [_QM, _VM] if masked else None
  layer(inputs, mask=mask)
  _set_weights(layer)
  y = layer(inputs, mask=mask)
  assert y.dtype == tf.float32
  np.testing.assert_allclose(y.numpy(), ATTENTION[case], atol=2e-6)
  scale = kwargs.get("use_scale", cls == "AdditiveAttention")
  prefix = "attention" if cls == "Attention" else "additive_attention"
  assert [w.name.split("/")[-1] for w in layer.weights] == (["scale:0"] if scale else [])
  assert all(w.name.startswith(prefix) for w in layer.weights)
  if scale:
    assert layer.weights[0].shape.as_list() == ([] if cls == "Attention" else [4])
  assert set(layer.get_config()) == _base_keys() | {"use_scale", "causal"}
  assert (layer.compute_mask(inputs, mask) is None) == (not masked)


def test_attention_gradient_and_errors():
  layer = L.AdditiveAttention()
  layer([_Q, _V])
  _set_weights(layer)
  q = tf.constant(_Q)
  with tf.GradientTape() as tape:
    tape.watch(q)
    loss = _weighted_loss(layer([q, tf.constant(_V)], mask=[_QM, _VM]))
  grad_scale, grad_q = tape.gradient(loss, [layer.scale, q])
  np.testing.assert_allclose(grad_scale.numpy(), ATTENTION["grad_scale"], atol=2e-6)
  np.testing.assert_allclose(_sig(grad_q.numpy()), ATTENTION["grad_q_sig"], atol=2e-5)
  with pytest.raises(ValueError, match="must be called on a list of inputs"):
    L.Attention()(_Q)
  with pytest.raises(ValueError, match="mask must be a list of length 2"):
    L.Attention()([_Q, _V], mask=[_QM])


def test_attention_functional_model():
  q_in, v_in = tf.keras.Input(shape=(3, 4)), tf.keras.Input(shape=(5, 4))
  out = L.Attention(causal=True)([q_in, v_in])
  assert out.shape.as_list() == [None, 3, 4]
  model = tf.keras.Model([q_in, v_in], out)
  expected = L.Attention(causal=True)([_Q, _V]).numpy()
  np.testing.assert_allclose(model([_Q, _V]).numpy(), expected, rtol=1e-6)


# ---- Locally connected ----
@pytest.mark.parametrize("key", sorted(LOCAL_CASES))
def test_locally_connected_matches_tf_keras(key):
  rank, data_format, implementation, padding = key.split("-")
  rank, implementation = int(rank), int(implementation)
  cls = L.LocallyConnected1D if rank == 1 else L.LocallyConnected2D
  shape = (2, 7, 3) if rank == 1 else (2, 5, 6, 3)
  if data_format == "channels_first":
    shape = (shape[0], shape[-1]) + shape[1:-1]
  x = _det(shape, 4)
  layer = cls(2, 3 if rank == 1 else (3, 2), strides=2 if rank == 1 else (2, 1),
              padding=padding, data_format=data_format, implementation=implementation,
              activation="tanh")
  layer(x)
  out_shape, weight_shapes, signature = LOCAL[key]
  assert [w.shape.as_list() for w in layer.weights] == weight_shapes
  assert [w.name for w in layer.weights] == ["%s/kernel:0" % layer.name, "%s/bias:0" % layer.name]
  _set_weights(layer)
  y = layer(x)
  assert y.shape.as_list() == out_shape and y.dtype == tf.float32
  np.testing.assert_allclose(_sig(y.numpy()), signature, atol=2e-4)


def test_locally_connected_gradient_config_and_errors():
  x = _det((2, 5, 6, 3), 4)
  layer = L.LocallyConnected2D(2, (3, 2), strides=(2, 1))
  layer(x)
  _set_weights(layer)
  with tf.GradientTape() as tape:
    loss = _weighted_loss(layer(x))
  grads = tape.gradient(loss, layer.trainable_weights)
  for grad, expected in zip(grads, LOCAL["grad"]):
    np.testing.assert_allclose(_sig(grad.numpy()), expected, atol=2e-4)
  config = layer.get_config()
  assert set(config) == _base_keys() | {
      "filters", "kernel_size", "strides", "padding", "data_format", "activation", "use_bias",
      "kernel_initializer", "bias_initializer", "kernel_regularizer", "bias_regularizer",
      "activity_regularizer", "kernel_constraint", "bias_constraint", "implementation"}
  assert config["kernel_size"] == (3, 2) and config["implementation"] == 1
  with pytest.raises(ValueError, match="only \"valid\" is supported if implementation is 1"):
    L.LocallyConnected1D(2, 3, padding="same")


def test_locally_connected_functional_model():
  inputs = tf.keras.Input(shape=(7, 3))
  out = L.LocallyConnected1D(4, 3, implementation=2)(inputs)
  assert out.shape.as_list() == [None, 5, 4]
  model = tf.keras.Model(inputs, out)
  assert model(_det((2, 7, 3), 0)).shape.as_list() == [2, 5, 4]


# ---- ConvLSTM2D ----
_CONV_LSTM_CASES = {
    "default": {}, "cf": dict(data_format="channels_first"),
    "same_seq": dict(padding="same", return_sequences=True),
    "stride_back_cf": dict(strides=(2, 1), go_backwards=True, return_sequences=True,
                           data_format="channels_first"),
    "dil_state_nobias": dict(dilation_rate=(2, 1), padding="same", return_state=True,
                             use_bias=False),
    "relu_masked": dict(activation="relu", recurrent_activation="sigmoid",
                        return_sequences=True)}


@pytest.mark.parametrize("case", sorted(_CONV_LSTM_CASES))
def test_conv_lstm_matches_tf_keras(case):
  kwargs = _CONV_LSTM_CASES[case]
  channels_last = kwargs.get("data_format", "channels_last") == "channels_last"
  x = _det((2, 3, 5, 6, 2) if channels_last else (2, 3, 2, 5, 6), 5)
  mask = np.array([[1, 1, 0], [1, 0, 1]], bool) if case == "relu_masked" else None
  layer = L.ConvLSTM2D(3, (3, 2), **kwargs)
  layer(x, mask=mask)
  names = ["kernel", "recurrent_kernel"] + (["bias"] if kwargs.get("use_bias", True) else [])
  assert [w.name for w in layer.weights] == ["%s/%s:0" % (layer.name, n) for n in names]
  assert layer.weights[0].shape.as_list() == [3, 2, 2, 12]
  assert layer.weights[1].shape.as_list() == [3, 2, 3, 12]
  _set_weights(layer)
  outputs = layer(x, mask=mask)
  outputs = outputs if isinstance(outputs, list) else [outputs]
  shapes, signatures = CONV_LSTM[case]
  assert [t.shape.as_list() for t in outputs] == shapes
  for t, signature in zip(outputs, signatures):
    np.testing.assert_allclose(_sig(t.numpy()), signature, atol=3e-4)


def test_conv_lstm_initial_state_gradient_and_config():
  assert L.ConvLSTM2D(3, 3).name.startswith("conv_lst_m2d")  # TF 1.15's snake case
  x = _det((2, 3, 4, 4, 2), 5)
  h0, c0 = _det((2, 4, 4, 3), 6), _det((2, 4, 4, 3), 7)
  layer = L.ConvLSTM2D(3, (3, 3), padding="same")
  layer(x, initial_state=[h0, c0])
  _set_weights(layer)
  np.testing.assert_allclose(_sig(layer(x, initial_state=[h0, c0]).numpy()),
                             CONV_LSTM["init"], atol=3e-4)
  x = _det((2, 3, 5, 6, 2), 5)
  layer = L.ConvLSTM2D(3, (3, 2))
  layer(x)
  _set_weights(layer)
  with tf.GradientTape() as tape:
    loss = _weighted_loss(layer(x))
  for grad, expected in zip(tape.gradient(loss, layer.trainable_weights), CONV_LSTM["grad"]):
    np.testing.assert_allclose(_sig(grad.numpy()), expected, atol=3e-4)
  config = layer.get_config()
  assert sorted(config) == CONV_LSTM_CONFIG_KEYS
  clone = L.ConvLSTM2D.from_config(config)
  assert clone.kernel_size == (3, 2) and clone.recurrent_activation == layer.recurrent_activation
  bias = L.ConvLSTM2D(2, 3)
  bias(x)
  np.testing.assert_array_equal(bias.bias.numpy(), [0, 0, 1, 1, 0, 0, 0, 0])  # forget gate


def test_conv_lstm_dropout_stateful_and_functional():
  x = _det((2, 3, 5, 6, 2), 5)
  layer = L.ConvLSTM2D(3, (3, 2), dropout=0.5, recurrent_dropout=0.5)
  inference = layer(x).numpy()
  np.testing.assert_array_equal(layer(x).numpy(), inference)
  with tf.GradientTape() as tape:
    trained = layer(x, training=True)
  assert not np.allclose(trained.numpy(), inference)
  assert all(g is not None for g in tape.gradient(trained, layer.trainable_weights))

  stateful = L.ConvLSTM2D(2, 3, stateful=True, padding="same", batch_input_shape=(1, 2, 4, 4, 1))
  model = tf.keras.Sequential([stateful])
  ones = np.ones((1, 2, 4, 4, 1), np.float32)
  first = model(ones).numpy()
  assert len(stateful.weights) == 3 and stateful.states[0].shape.as_list() == [1, 4, 4, 2]
  assert not np.allclose(model(ones).numpy(), first)
  stateful.reset_states()
  np.testing.assert_allclose(model(ones).numpy(), first, rtol=1e-6)
  with pytest.raises(AttributeError, match="Layer must be stateful"):
    layer.reset_states()

  inputs = tf.keras.Input(shape=(3, 5, 6, 2))
  out = L.ConvLSTM2D(4, 3, padding="same", return_sequences=True)(inputs)
  assert out.shape.as_list() == [None, 3, 5, 6, 4]
  assert tf.keras.Model(inputs, out)(x).shape.as_list() == [2, 3, 5, 6, 4]


# ---- AbstractRNNCell ----
class MinimalRNNCell(L.AbstractRNNCell):

  def __init__(self, units, **kwargs):
    self.units = units
    super().__init__(**kwargs)

  @property
  def state_size(self):
    return self.units

  def build(self, input_shape):
    self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform",
                                  name="kernel")
    self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                            initializer="uniform", name="recurrent_kernel")
    self.built = True

  def call(self, inputs, states):
    output = tf.tanh(tf.matmul(inputs, self.kernel) + tf.matmul(states[0],
                                                               self.recurrent_kernel))
    return output, output


def test_abstract_rnn_cell_in_rnn():
  x = _det((2, 4, 3), 8)
  rnn = L.RNN(MinimalRNNCell(5), return_sequences=True)
  rnn(x)
  assert [w.name for w in rnn.weights] == [rnn.name + "/kernel:0",
                                           rnn.name + "/recurrent_kernel:0"]  # TF 1.15
  _set_weights(rnn)
  np.testing.assert_allclose(rnn(x).numpy(), ABSTRACT_CELL["seq"], atol=2e-6)
  with tf.GradientTape() as tape:
    loss = _weighted_loss(rnn(x))
  for grad, expected in zip(tape.gradient(loss, rnn.trainable_weights), ABSTRACT_CELL["grad"]):
    np.testing.assert_allclose(_sig(grad.numpy()), expected, rtol=1e-5, atol=1e-4)
  inputs = tf.keras.Input(shape=(4, 3))
  model = tf.keras.Model(inputs, L.RNN(MinimalRNNCell(2))(inputs))
  assert model(x).shape.as_list() == [2, 2]


def test_abstract_rnn_cell_base_behaviour():
  cell = L.AbstractRNNCell()
  assert isinstance(cell, L.Layer)
  for attr in ("state_size", "output_size"):
    with pytest.raises(NotImplementedError):
      getattr(cell, attr)
  with pytest.raises(NotImplementedError):
    cell.call(None, None)

  class TwoStates(L.AbstractRNNCell):
    state_size = (4, tf.TensorShape([2, 3]))
    output_size = 4

  states = TwoStates().get_initial_state(batch_size=5, dtype=tf.float64)
  assert isinstance(states, tuple) and [s.shape.as_list() for s in states] == [[5, 4], [5, 2, 3]]
  assert all(s.dtype == tf.float64 and not s.numpy().any() for s in states)
  single = MinimalRNNCell(3).get_initial_state(inputs=tf.constant(_det((6, 2), 0)))
  assert single.shape.as_list() == [6, 3] and single.dtype == tf.float32
  with pytest.raises(ValueError, match="batch_size and dtype cannot be None"):
    MinimalRNNCell(3).get_initial_state()
