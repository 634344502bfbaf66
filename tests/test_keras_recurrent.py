"""Keras recurrent layers, wrappers and TF1 RNN cells; golden values from tf_keras / TF 2.21
(`tf.compat.v1.nn.rnn_cell`), computed with the deterministic weights of `_w` and v1 defaults
(recurrent_activation='hard_sigmoid', GRU reset_after=False) passed explicitly there."""
import numpy as np
import pytest

import tfe_compat as tf

K = tf.keras.layers
ATOL = 2e-5


def _w(shape, k):
  n = int(np.prod(shape))
  return (np.sin(np.arange(n) * 0.37 + k) * 0.5).reshape(shape).astype(np.float32)


X = _w((2, 4, 3), 0.1) * 2
MASK = np.array([[1, 1, 1, 0], [1, 1, 0, 0]], bool)


def _lstm_w(din, u, k=1):
  return [_w((din, 4 * u), k), _w((u, 4 * u), k + 1), _w((4 * u,), k + 2)]


def _gru_w(din, u, k=1, reset_after=False):
  return [_w((din, 3 * u), k), _w((u, 3 * u), k + 1),
          _w((2, 3 * u) if reset_after else (3 * u,), k + 2)]


def _run(layer, weights, *args, **kwargs):
  layer(X)
  layer.set_weights(weights)
  return layer(X, *args, **kwargs)


def _close(got, expected):
  if isinstance(got, (list, tuple)):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
      _close(g, e)
    return
  np.testing.assert_allclose(np.asarray(got), np.asarray(expected), atol=ATOL)


GOLDEN = {'basic_lstm_cell': [[[-0.07955, -0.29002, -0.42192, -0.48611],
                      [-0.10536, -0.22037, -0.30494, -0.33202]],
                     [[-0.16033, -0.50694, -0.67946, -0.74259],
                      [-0.237, -0.44423, -0.56174, -0.56039]],
                     [[-0.07955, -0.29002, -0.42192, -0.48611],
                      [-0.10536, -0.22037, -0.30494, -0.33202]]],
 'basic_rnn_cell_tf1': [[0.47292, 0.23032, -0.07636, -0.36027],
                        [0.65985, 0.50258, 0.23374, -0.10827]],
 'bidi_gru_sum': [[-0.01555, -0.19983], [-0.03213, -0.17335]],
 'bidi_lstm': [[[-0.09436, -0.03811, 0.02359, -0.00896, -0.08128, -0.13556],
                [-0.0782, -0.02181, 0.03631, 0.04249, -0.00242, -0.04912],
                [-0.09014, -0.06326, -0.02882, 0.10934, 0.07393, 0.02362],
                [-0.1548, -0.14139, -0.1096, 0.0883, 0.05413, 0.00991]],
               [[-0.152, -0.12881, -0.08152, 0.05027, -0.07227, -0.15399],
                [-0.18851, -0.12309, -0.03321, -0.02624, -0.11134, -0.16439],
                [-0.13947, -0.05702, 0.03252, -0.03892, -0.0906, -0.12735],
                [-0.09116, -0.03391, 0.02627, 0.0002, -0.02152, -0.04027]]],
 'cudnn_lstm': [[[[-0.11749, -0.1065, -0.07859], [-0.12731, -0.12731, -0.11328],
                  [-0.13937, -0.16282, -0.17337], [-0.17925, -0.20999, -0.22783]],
                 [[-0.1508, -0.16728, -0.16434], [-0.21733, -0.21065, -0.17227],
                  [-0.20119, -0.17807, -0.13298], [-0.16161, -0.15978, -0.14556]]],
                [[-0.17925, -0.20999, -0.22783], [-0.16161, -0.15978, -0.14556]],
                [[-0.64644, -0.67363, -0.60445], [-0.42163, -0.39469, -0.33093]]],
 'dynamic_rnn': [[[[-0.06375, -0.08612, -0.09578], [-0.02153, -0.05908, -0.08901],
                   [0.06423, 0.00284, -0.06582], [0.09114, -0.00366, -0.11106]],
                  [[-0.02764, -0.08913, -0.13376], [-0.09723, -0.1756, -0.22413], [0.0, 0.0, 0.0],
                   [0.0, 0.0, 0.0]]],
                 [[0.29885, -0.0106, -0.28601], [-0.22311, -0.36803, -0.42893]],
                 [[0.09114, -0.00366, -0.11106], [-0.09723, -0.1756, -0.22413]]],
 'gru': [[[-0.22173, -0.21636, -0.1768], [-0.32624, -0.33583, -0.30373],
          [-0.33759, -0.32004, -0.25842], [-0.29454, -0.17295, -0.01993]],
         [[-0.18471, -0.05287, 0.11204], [-0.31327, -0.18545, -0.00881],
          [-0.39059, -0.31895, -0.20278], [-0.40681, -0.37222, -0.29397]]],
 'gru_cell_tf1': [[-0.55951, -0.53963, -0.47042, -0.34505],
                  [-0.24264, -0.2417, -0.23658, -0.21224]],
 'gru_reset_after': [[[-0.13027, -0.07433, -0.01667], [-0.24137, -0.25604, -0.23481]],
                     [[-0.13027, -0.07433, -0.01667], [-0.24137, -0.25604, -0.23481]]],
 'lstm': [[[[-0.09436, -0.03811, 0.02359], [-0.0782, -0.02181, 0.03631],
            [-0.09014, -0.06326, -0.02882], [-0.1548, -0.14139, -0.1096]],
           [[-0.152, -0.12881, -0.08152], [-0.18851, -0.12309, -0.03321],
            [-0.13947, -0.05702, 0.03252], [-0.09116, -0.03391, 0.02627]]],
          [[-0.1548, -0.14139, -0.1096], [-0.09116, -0.03391, 0.02627]],
          [[-0.35948, -0.29986, -0.21229], [-0.17422, -0.06256, 0.04771]]],
 'lstm_back': [[-0.13357, -0.06259, 0.01759], [-0.1936, -0.13943, -0.05682]],
 'lstm_cell_tf1': [[[-0.21591, -0.22571], [-0.20516, -0.24585]],
                   [[0.01153, -0.28441, -0.3, -0.3], [-0.29401, -0.3, -0.3, -0.3]],
                   [[-0.21591, -0.22571], [-0.20516, -0.24585]]],
 'lstm_grads': [[[[0.01475, -0.04722, 0.01066], [0.01926, -0.05008, 0.00769],
                  [0.037, -0.07983, 0.00595], [0.02601, -0.06907, 0.01115]],
                 [[0.04774, -0.10041, 0.00629], [0.03392, -0.08102, 0.00968],
                  [0.00968, -0.04557, 0.01485], [0.00066, -0.0225, 0.01145]]],
                [[-0.02432, -0.02565, -0.00881, 0.00538, -0.00216, -0.00219, -0.03761, 0.00834,
                  0.04688, -0.01558, -0.0193, -0.0076],
                 [-0.01583, -0.02578, -0.01216, 0.01155, 0.00082, -0.00201, -0.06885, -0.00799,
                  0.07222, -0.01136, -0.02105, -0.01046],
                 [-0.0052, -0.02242, -0.01387, 0.01616, 0.0037, -0.00156, -0.09077, -0.02324,
                  0.08778, -0.00559, -0.01995, -0.0119]],
                [[-0.0075, -0.00349, -0.00133, -0.00632, -0.00278, -0.00011, 0.0457, 0.03494,
                  0.00692, -0.00911, -0.0041, -0.00126],
                 [-0.00536, -0.00248, -0.00082, -0.00428, -0.00203, -0.00015, 0.02842, 0.02174,
                  0.00379, -0.00632, -0.00292, -0.00083],
                 [-0.00227, -0.00108, -0.00019, -0.00146, -0.00091, -0.00016, 0.0063, 0.00493,
                  0.00028, -0.00246, -0.00127, -0.0003]],
                [0.08528, 0.05491, 0.02219, 0.04347, 0.01968, 0.00064, -0.4575, -0.41149, -0.15912,
                 0.08759, 0.05046, 0.01887]],
 'lstm_loss': 0.21979,
 'lstm_masked': [[[[-0.09436, -0.03811, 0.02359], [-0.0782, -0.02181, 0.03631],
                   [-0.09014, -0.06326, -0.02882], [-0.09014, -0.06326, -0.02882]],
                  [[-0.152, -0.12881, -0.08152], [-0.18851, -0.12309, -0.03321],
                   [-0.18851, -0.12309, -0.03321], [-0.18851, -0.12309, -0.03321]]],
                 [[-0.09014, -0.06326, -0.02882], [-0.18851, -0.12309, -0.03321]],
                 [[-0.19048, -0.12837, -0.05629], [-0.35113, -0.2043, -0.0513]]],
 'simple_rnn': [[[[-0.27114, -0.24949, -0.19464], [0.47865, 0.38457, 0.2305],
                  [0.75263, 0.41336, -0.15786], [0.60181, 0.18343, -0.3364]],
                 [[0.69638, 0.4649, 0.07855], [0.68459, 0.25906, -0.3305],
                  [0.16524, -0.14543, -0.41354], [-0.44351, -0.40312, -0.30978]]],
                [[0.60181, 0.18343, -0.3364], [-0.44351, -0.40312, -0.30978]]],
 'stacked': [[[0.48866, 0.49251], [0.48881, 0.48624]],
             [[[-0.1548, -0.14139, -0.1096], [-0.09116, -0.03391, 0.02627]],
              [[-0.35948, -0.29986, -0.21229], [-0.17422, -0.06256, 0.04771]]],
             [[0.48866, 0.49251], [0.48881, 0.48624]]],
 'time_distributed': [[[0.94861, 0.6989], [1.6265, 1.36962], [1.00284, 0.90636],
                       [-0.22968, -0.17635]],
                      [[-0.70213, -0.67596], [0.11022, -0.03757], [1.30513, 1.02977],
                       [1.55542, 1.3406]]]}


# ---- Keras layers vs tf_keras ----
def test_simple_rnn_sequences_state_backwards():
  out = _run(K.SimpleRNN(3, return_sequences=True, return_state=True, go_backwards=True),
             [_w((3, 3), 1), _w((3, 3), 2), _w((3,), 3)])
  assert [o.shape.as_list() for o in out] == [[2, 4, 3], [2, 3]]
  assert out[0].dtype == tf.float32
  _close(out, GOLDEN["simple_rnn"])


def test_lstm_v1_defaults_and_weight_names():
  tf.keras.backend.clear_session()
  layer = K.LSTM(3, return_sequences=True, return_state=True)
  assert layer.recurrent_activation is not None and layer.implementation == 1
  out = _run(layer, _lstm_w(3, 3))
  assert [w.name for w in layer.weights] == ["lstm/kernel:0", "lstm/recurrent_kernel:0",
                                             "lstm/bias:0"]
  assert len(out) == 3
  _close(out, GOLDEN["lstm"])
  _close(_run(K.LSTM(3, go_backwards=True), _lstm_w(3, 3)), GOLDEN["lstm_back"])


def test_lstm_unit_forget_bias_init():
  layer = K.LSTM(2)
  layer(X)
  np.testing.assert_array_equal(layer.weights[2].numpy(), [0, 0, 1, 1, 0, 0, 0, 0])


def test_gru_both_bias_layouts():
  layer = K.GRU(3, return_sequences=True)
  _close(_run(layer, _gru_w(3, 3)), GOLDEN["gru"])
  assert layer.weights[2].shape.as_list() == [9]
  layer = K.GRU(3, reset_after=True, recurrent_activation="sigmoid", return_state=True)
  _close(_run(layer, _gru_w(3, 3, reset_after=True)), GOLDEN["gru_reset_after"])
  assert layer.weights[2].shape.as_list() == [2, 9]


def test_bidirectional():
  tf.keras.backend.clear_session()
  layer = K.Bidirectional(K.LSTM(3, return_sequences=True))
  _close(_run(layer, _lstm_w(3, 3, 1) + _lstm_w(3, 3, 5)), GOLDEN["bidi_lstm"])
  names = [w.name for w in layer.weights]
  assert names[0].startswith("bidirectional") and "/forward_lstm" in names[0]
  assert "/backward_lstm" in names[3] and len(names) == 6
  layer = K.Bidirectional(K.GRU(2), merge_mode="sum")
  _close(_run(layer, _gru_w(3, 2, 1) + _gru_w(3, 2, 5)), GOLDEN["bidi_gru_sum"])
  with pytest.raises(ValueError, match="Invalid merge mode"):
    K.Bidirectional(K.LSTM(2), merge_mode="max")


def test_bidirectional_return_state_and_list_merge():
  out = K.Bidirectional(K.LSTM(2, return_state=True), merge_mode=None)(X)
  assert [o.shape.as_list() for o in out] == [[2, 2]] * 6


def test_time_distributed():
  tf.keras.backend.clear_session()
  layer = K.TimeDistributed(K.Dense(2))
  _close(_run(layer, [_w((3, 2), 1), _w((2,), 2)]), GOLDEN["time_distributed"])
  assert [w.name for w in layer.weights] == ["time_distributed/kernel:0",
                                             "time_distributed/bias:0"]


def test_mask_repeats_previous_output():
  out = _run(K.LSTM(3, return_sequences=True, return_state=True), _lstm_w(3, 3), mask=MASK)
  _close(out, GOLDEN["lstm_masked"])


def test_stacked_cells_return_nested_states():
  layer = K.RNN([K.LSTMCell(3), K.GRUCell(2)], return_state=True)
  out, lstm_states, gru_state = _run(layer, _lstm_w(3, 3, 1) + _gru_w(3, 2, 4))
  _close([out, lstm_states, gru_state], GOLDEN["stacked"])
  assert len(layer.weights) == 6


def test_cudnn_layers():
  tf.keras.backend.clear_session()
  layer = K.CuDNNLSTM(3, return_sequences=True, return_state=True)
  out = _run(layer, [_w((3, 12), 1), _w((3, 12), 2), _w((24,), 3)])
  _close(out, GOLDEN["cudnn_lstm"])
  assert layer.weights[0].name == "cu_dnnlstm/kernel:0"
  gru = K.CuDNNGRU(4, return_sequences=True, return_state=True)
  out, state = gru(X, initial_state=tf.zeros((2, 4)))
  assert out.shape.as_list() == [2, 4, 4] and gru.weights[2].shape.as_list() == [24]
  np.testing.assert_allclose(out.numpy()[:, -1], state.numpy(), atol=1e-6)


def test_lstm_gradient_matches_tf():
  layer = K.LSTM(3, return_sequences=True)
  layer(X)
  layer.set_weights(_lstm_w(3, 3))
  x = tf.constant(X)
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = layer(x)
    loss = tf.reduce_sum(y ** 2)
  grads = tape.gradient(loss, [x] + layer.trainable_weights)
  np.testing.assert_allclose(loss.numpy(), GOLDEN["lstm_loss"], atol=ATOL)
  _close(grads, GOLDEN["lstm_grads"])


def test_initial_state_and_errors():
  layer = K.LSTM(3, return_state=True)
  _, h, c = layer(X, initial_state=[tf.ones((2, 3)), tf.ones((2, 3))])
  out2, _, _ = layer(X)
  assert h.shape.as_list() == [2, 3] and not np.allclose(h.numpy(), out2.numpy())
  with pytest.raises(ValueError, match="expected ndim=3"):
    K.LSTM(3)(np.zeros((2, 3), np.float32))
  with pytest.raises(NotImplementedError):
    K.LSTM(3, stateful=True)


def test_dropout_only_when_training():
  layer = K.LSTM(3, dropout=0.5, recurrent_dropout=0.5)
  a, b = layer(X).numpy(), layer(X).numpy()
  c, d = layer(X, training=True).numpy(), layer(X, training=True).numpy()
  np.testing.assert_array_equal(a, b)
  assert not np.allclose(c, d) and not np.allclose(a, c)


class _MinimalCell(K.Layer):
  def __init__(self, units, **kwargs):
    self.units = units
    self.state_size = units
    super().__init__(**kwargs)

  def build(self, input_shape):
    self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones",
                                  name="kernel")
    self.built = True

  def call(self, inputs, states):
    output = tf.matmul(inputs, self.kernel) + states[0] * 0.5
    return output, [output]


def test_custom_cell_python_loop():
  x = np.arange(12, dtype=np.float32).reshape(2, 3, 2) / 10
  layer = K.RNN(_MinimalCell(2), return_sequences=True, return_state=True)
  out, state = layer(x)
  expected, h = [], np.zeros((2, 2), np.float32)
  for t in range(3):
    h = x[:, t].sum(1, keepdims=True) + h * 0.5
    expected.append(h)
  np.testing.assert_allclose(out.numpy(), np.stack(expected, 1), rtol=1e-6)
  np.testing.assert_allclose(state.numpy(), expected[-1], rtol=1e-6)
  assert [w.name for w in layer.weights] == [layer.name + "/kernel:0"]


def test_functional_and_sequential():
  inp = tf.keras.Input((4, 3))
  h = K.Bidirectional(K.LSTM(4, return_sequences=True))(inp)
  out, state = K.GRU(2, return_state=True)(h)
  model = tf.keras.Model(inp, [out, state])
  assert [t.shape.as_list() for t in model(X)] == [[2, 2], [2, 2]]
  seq = tf.keras.Sequential([K.SimpleRNN(4, input_shape=(4, 3), return_sequences=True),
                             K.TimeDistributed(K.Dense(2)), K.LSTM(3)])
  assert seq(X).shape.as_list() == [2, 3]
  assert seq.count_params() == 4 * 3 + 16 + 4 + 10 + 4 * (2 * 3 + 9 + 3)


def test_get_config_round_trip():
  layer = K.GRU(5, return_sequences=True, go_backwards=True)
  config = layer.get_config()
  assert config["recurrent_activation"] == "hard_sigmoid" and config["reset_after"] is False
  clone = K.GRU.from_config(config)
  assert clone.units == 5 and clone.go_backwards and clone.return_sequences


# ---- TF1 cells vs tf.compat.v1.nn.rnn_cell ----
X1 = _w((2, 3), 0.7)


def test_basic_lstm_cell_step():
  cell = tf.nn.rnn_cell.BasicLSTMCell(4)
  with tf.variable_scope("basic"):  # names are uniquified within the enclosing scope
    cell(X1, cell.zero_state(2, tf.float32))
  assert [w.name for w in cell.weights] == ["basic/basic_lstm_cell/kernel:0",
                                            "basic/basic_lstm_cell/bias:0"]
  cell.set_weights([_w((7, 16), 1), _w((16,), 2)])
  state = tf.nn.rnn_cell.LSTMStateTuple(tf.constant(_w((2, 4), 3)), tf.constant(_w((2, 4), 4)))
  out, new = cell(X1, state)
  assert isinstance(new, tf.nn.rnn_cell.LSTMStateTuple) and new.dtype == tf.float32
  _close([out, new.c, new.h], GOLDEN["basic_lstm_cell"])
  assert tf.contrib.rnn.BasicLSTMCell is tf.nn.rnn_cell.BasicLSTMCell


def test_lstm_cell_peepholes_projection_clip():
  cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True, cell_clip=0.3, num_proj=2,
                                 proj_clip=0.25, forget_bias=0.5)
  with tf.variable_scope("peep"):
    cell(X1, cell.zero_state(2, tf.float32))
  assert [w.name for w in cell.weights] == [
      "peep/lstm_cell/kernel:0", "peep/lstm_cell/bias:0", "peep/lstm_cell/w_f_diag:0",
      "peep/lstm_cell/w_i_diag:0", "peep/lstm_cell/w_o_diag:0",
      "peep/lstm_cell/projection/kernel:0"]
  cell.set_weights([_w((5, 16), 1), _w((16,), 2), _w((4,), 3), _w((4,), 4), _w((4,), 5),
                    _w((4, 2), 6)])
  out, new = cell(X1, tf.nn.rnn_cell.LSTMStateTuple(tf.constant(_w((2, 4), 3)),
                                                    tf.constant(_w((2, 2), 4))))
  _close([out, new.c, new.h], GOLDEN["lstm_cell_tf1"])


def test_gru_and_basic_rnn_cells():
  cell = tf.nn.rnn_cell.GRUCell(4)
  with tf.variable_scope("gru"):
    cell(X1, cell.zero_state(2, tf.float32))
  assert [w.name for w in cell.weights] == [
      "gru/gru_cell/gates/kernel:0", "gru/gru_cell/gates/bias:0",
      "gru/gru_cell/candidate/kernel:0", "gru/gru_cell/candidate/bias:0"]
  np.testing.assert_array_equal(cell.weights[1].numpy(), np.ones(8))
  cell.set_weights([_w((7, 8), 1), _w((8,), 2), _w((7, 4), 3), _w((4,), 4)])
  _close(cell(X1, tf.constant(_w((2, 4), 5)))[0], GOLDEN["gru_cell_tf1"])
  cell = tf.nn.rnn_cell.BasicRNNCell(4)
  cell(X1, cell.zero_state(2, tf.float32))
  cell.set_weights([_w((7, 4), 1), _w((4,), 2)])
  _close(cell(X1, tf.constant(_w((2, 4), 5)))[0], GOLDEN["basic_rnn_cell_tf1"])


def test_dynamic_rnn_sequence_length():
  cell = tf.nn.rnn_cell.BasicLSTMCell(3)
  tf.nn.dynamic_rnn(cell, X, sequence_length=[4, 2], dtype=tf.float32)
  assert [w.name for w in cell.weights] == ["rnn/basic_lstm_cell/kernel:0",
                                            "rnn/basic_lstm_cell/bias:0"]
  cell.set_weights([_w((6, 12), 1), _w((12,), 2)])
  out, state = tf.nn.dynamic_rnn(cell, X, sequence_length=[4, 2], dtype=tf.float32)
  _close([out, state.c, state.h], GOLDEN["dynamic_rnn"])
  with pytest.raises(ValueError, match="must give a dtype"):
    tf.nn.dynamic_rnn(cell, X)


def test_multi_rnn_cell_names_and_static_rnn():
  cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(3) for _ in range(2)])
  outputs, state = tf.nn.static_rnn(cell, tf.unstack(tf.constant(X), axis=1), dtype=tf.float32)
  assert len(outputs) == 4 and len(state) == 2
  assert [w.name for w in cell.weights][::2] == [
      "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel:0",
      "rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel:0"]


def test_dropout_wrapper_and_bidirectional_dynamic_rnn():
  cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(3), output_keep_prob=0.5)
  out, _ = cell(X1, cell.zero_state(2, tf.float32))
  assert set(np.unique(out.numpy() == 0)) == {True, False}
  (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(
      tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3), X, sequence_length=[4, 2],
      dtype=tf.float32)
  assert fw.shape.as_list() == bw.shape.as_list() == [2, 4, 3]
  np.testing.assert_array_equal(bw.numpy()[1, 2:], 0)


def test_cudnn_lstm_matches_keras_lstm():
  kernel, recurrent, bias = _w((3, 12), 1), _w((3, 12), 2), _w((24,), 3)
  blocks = [kernel[:, g * 3:(g + 1) * 3].T.ravel() for g in range(4)]
  blocks += [recurrent[:, g * 3:(g + 1) * 3].T.ravel() for g in range(4)]
  layer = tf.contrib.cudnn_rnn.CudnnLSTM(1, 3)
  x = np.transpose(X, (1, 0, 2))
  layer(x)
  assert [w.name for w in layer.weights] == ["cudnn_lstm/opaque_kernel:0"]
  layer.set_weights([np.concatenate(blocks + [bias])])
  out, (h, c) = layer(x, training=False)
  expected = GOLDEN["cudnn_lstm"]
  _close([np.transpose(out.numpy(), (1, 0, 2)), h.numpy()[0], c.numpy()[0]], expected)
  deep = tf.contrib.cudnn_rnn.CudnnLSTM(2, 4, direction="bidirectional", dropout=0.5)
  out, (h, c) = deep(x, training=True)
  assert out.shape.as_list() == [4, 2, 8] and h.shape.as_list() == c.shape.as_list() == [4, 2, 4]


def test_checkpoint_list_tracked_by_model():
  class Net(tf.keras.Model):
    def __init__(self):
      super().__init__()
      self.blocks = tf.contrib.checkpoint.List()
      self.blocks.append(K.Dense(2))
      self.blocks.append(K.Dense(3))

    def call(self, x):
      for block in self.blocks:
        x = block(x)
      return x

  net = Net()
  assert net(X1).shape.as_list() == [2, 3]
  assert len(net.trainable_variables) == 4 and len(net.blocks.trainable_weights) == 4


def test_static_bidirectional_rnn_matches_tf():
  """Outputs, states and variable names from TF 2.21 (tf.compat.v1, tf_keras cells)."""
  x = [tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) / 10 * (t + 1))
       for t in range(4)]
  fw, bw = tf.nn.rnn_cell.BasicRNNCell(2), tf.nn.rnn_cell.BasicRNNCell(2)
  tf.nn.static_bidirectional_rnn(fw, bw, x, dtype=tf.float32)
  assert [v.name for v in fw.variables + bw.variables] == [
      "bidirectional_rnn/fw/basic_rnn_cell/kernel:0", "bidirectional_rnn/fw/basic_rnn_cell/bias:0",
      "bidirectional_rnn/bw/basic_rnn_cell/kernel:0", "bidirectional_rnn/bw/basic_rnn_cell/bias:0"]
  for cell in (fw, bw):
    kernel, bias = cell.variables
    kernel.assign(np.linspace(-1, 1, 10).reshape(5, 2).astype(np.float32))
    bias.assign([0.1, 0.1])
  outputs, state_fw, state_bw = tf.nn.static_bidirectional_rnn(
      fw, bw, x, dtype=tf.float32, sequence_length=[4, 2])
  assert len(outputs) == 4 and outputs[0].shape == (2, 4)
  np.testing.assert_allclose(outputs[1].numpy(), [[0.0208, 0.1769, -0.10279, -0.0035],
                                                  [-0.87766, -0.75184, -0.78396, -0.47941]],
                             atol=2e-5)
  assert outputs[3].numpy()[1].tolist() == [0., 0., 0., 0.]  # past sequence_length
  np.testing.assert_allclose(state_fw.numpy(), [[-0.01315, 0.3018], [-0.87766, -0.75184]],
                             atol=2e-5)
  np.testing.assert_allclose(state_bw.numpy(), [[-0.01476, 0.02827], [-0.80476, -0.80967]],
                             atol=2e-5)
