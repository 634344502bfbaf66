"""tf.contrib.rnn block / layer-norm cells, stacked bidirectional RNNs, seq2seq.sequence_loss.

Goldens: TF 2.21 `tf.compat.v1.nn.rnn_cell.LSTMCell`/`GRUCell`/`bidirectional_dynamic_rnn`
with the same weights (TF 1.15's block kernels compute the same math), NumPy for the layer
norm cell (TF 1.15 contrib formula), oracle sparse softmax cross-entropy for sequence_loss.
"""
import numpy as np
import pytest

import tfe_compat as tf



def W(shape, off):
  n = int(np.prod(shape))
  return (np.sin(np.arange(n) * 0.37 + off) * 0.5).reshape(shape).astype(np.float32)


X = W([2, 2, 3], 1.0)
C0, H0 = W([2, 3], 2.0), W([2, 3], 3.0)


def test_lstm_block_cell_names_values_and_gradient():
  cell = tf.contrib.rnn.LSTMBlockCell(3, forget_bias=0.5, cell_clip=0.3, use_peephole=True)
  with tf.variable_scope("peephole"):
    cell(X[:, 0], tf.contrib.rnn.LSTMStateTuple(C0, H0))
  assert [(v.name, v.shape.as_list()) for v in cell.variables] == [
      ("peephole/lstm_cell/kernel:0", [6, 12]), ("peephole/lstm_cell/bias:0", [12]),
      ("peephole/lstm_cell/w_i_diag:0", [3]), ("peephole/lstm_cell/w_f_diag:0", [3]),
      ("peephole/lstm_cell/w_o_diag:0", [3])]
  vals = {"kernel": W([6, 12], 4.0), "bias": W([12], 5.0), "w_i_diag": W([3], 6.0),
          "w_f_diag": W([3], 7.0), "w_o_diag": W([3], 8.0)}
  for v in cell.variables:
    v.assign(vals[v.name.split("/")[-1][:-2]])
  state = tf.contrib.rnn.LSTMStateTuple(C0, H0)
  with tf.GradientTape() as tape:
    for t in range(2):
      out, state = cell(X[:, t], state)
    loss = tf.reduce_sum(out * out)
  kernel, w_i = cell.variables[0], cell.variables[2]
  g_kernel, g_wi = tape.gradient(loss, [kernel, w_i])
  assert isinstance(state, tf.contrib.rnn.LSTMStateTuple) and out.dtype == tf.float32
  np.testing.assert_allclose(out.numpy(), [[0.0617856, 0.1038454, 0.1291885],
                                           [-0.0363793, -0.0044685, 0.0353458]], atol=1e-5)
  np.testing.assert_allclose(state.c.numpy(), [[0.0976901, 0.1665263, 0.2176259],
                                               [-0.0579702, -0.0074834, 0.0641771]],
                             atol=1e-5)
  assert np.abs(state.c.numpy()).max() <= 0.3
  np.testing.assert_allclose(g_kernel.numpy().sum(), 0.36609173, atol=1e-5)
  np.testing.assert_allclose(g_wi.numpy(), [-0.0025598, -0.0006806, 0.0010393], atol=1e-6)


def test_lstm_block_cell_without_peephole_is_basic_lstm():
  block, basic = tf.contrib.rnn.LSTMBlockCell(3), tf.nn.rnn_cell.BasicLSTMCell(3)
  state = tf.contrib.rnn.LSTMStateTuple(C0, H0)
  with tf.variable_scope("no_peephole"):
    block(X[:, 0], state)
  basic(X[:, 0], state)
  assert [v.name for v in block.variables] == ["no_peephole/lstm_cell/kernel:0",
                                               "no_peephole/lstm_cell/bias:0"]
  for a, b in zip(block.variables, basic.variables):
    a.assign(b)
  np.testing.assert_allclose(block(X[:, 1], state)[0].numpy(),
                             basic(X[:, 1], state)[0].numpy(), atol=1e-6)
  with pytest.raises(ValueError, match="tuple with length 2"):
    block(X[:, 0], (C0, H0, H0))


@pytest.mark.parametrize("cls,names", [
    ("GRUBlockCell", ["gru_cell/w_ru:0", "gru_cell/b_ru:0", "gru_cell/w_c:0",
                      "gru_cell/b_c:0"]),
    ("GRUBlockCellV2", ["gru_cell/gates/kernel:0", "gru_cell/gates/bias:0",
                        "gru_cell/candidate/kernel:0", "gru_cell/candidate/bias:0"])])
def test_gru_block_cells(cls, names):
  cell = getattr(tf.contrib.rnn, cls)(3)
  with tf.variable_scope(cls):
    cell(X[:, 0], H0)
  assert [v.name for v in cell.variables] == [cls + "/" + n for n in names]
  assert [v.shape.as_list() for v in cell.variables] == [[6, 6], [6], [6, 3], [3]]
  np.testing.assert_allclose(cell.variables[1].numpy(), np.ones(6))
  for v, value in zip(cell.variables, [W([6, 6], 9.0), W([6], 10.0), W([6, 3], 11.0),
                                       W([3], 12.0)]):
    v.assign(value)
  h = H0
  for t in range(2):
    out, h = cell(X[:, t], h)
  np.testing.assert_allclose(h.numpy(), [[-0.3998914, -0.2049192, 0.0322015],
                                         [-0.2217333, -0.1723335, -0.1050792]], atol=1e-5)
  with pytest.raises(ValueError, match="Exactly one of num_units or cell_size"):
    getattr(tf.contrib.rnn, cls)()


def _np_layer_norm_lstm(x, c, h, kernel, extra, layer_norm, forget_bias=1.0):
  def norm(v, gamma, beta):
    mean, var = v.mean(1, keepdims=True), v.var(1, keepdims=True)
    return (v - mean) / np.sqrt(var + 1e-12) * gamma + beta

  def sig(v):
    return 1 / (1 + np.exp(-v))

  z = np.concatenate([x, h], 1) @ kernel
  if not layer_norm:
    z = z + extra[0]
  gates = np.split(z, 4, axis=1)
  if layer_norm:
    gates = [norm(g, extra[2 * k], extra[2 * k + 1]) for k, g in enumerate(gates)]
  i, j, f, o = gates
  c_new = c * sig(f + forget_bias) + sig(i) * np.tanh(j)
  if layer_norm:
    c_new = norm(c_new, extra[8], extra[9])
  return np.tanh(c_new) * sig(o), c_new


@pytest.mark.parametrize("layer_norm", [True, False])
def test_layer_norm_basic_lstm_cell(layer_norm):
  cell = tf.contrib.rnn.LayerNormBasicLSTMCell(3, layer_norm=layer_norm, norm_gain=2.0,
                                               norm_shift=0.1)
  state = tf.contrib.rnn.LSTMStateTuple(C0, H0)
  with tf.variable_scope("ln_%s" % layer_norm):
    cell(X[:, 0], state)
  names = [v.name.split("/", 2)[2] for v in cell.variables]
  if layer_norm:
    assert names == ["kernel:0"] + ["%s/%s:0" % (s, p) for s in
                                    ("input", "transform", "forget", "output", "state")
                                    for p in ("gamma", "beta")]
    np.testing.assert_allclose(cell.variables[1].numpy(), [2.0] * 3)
    np.testing.assert_allclose(cell.variables[2].numpy(), [0.1] * 3)
  else:
    assert names == ["kernel:0", "bias:0"]
  assert cell.variables[0].name.startswith("ln_%s/layer_norm_basic_lstm_cell/" % layer_norm)
  for k, v in enumerate(cell.variables):
    v.assign(W(v.shape.as_list(), 40.0 + k) + (1.0 if "gamma" in v.name else 0.0))
  weights = [v.numpy() for v in cell.variables]
  out, new_state = cell(X[:, 1], state)
  want_h, want_c = _np_layer_norm_lstm(X[:, 1], C0, H0, weights[0], weights[1:], layer_norm)
  np.testing.assert_allclose(out.numpy(), want_h, atol=1e-5)
  np.testing.assert_allclose(new_state.c.numpy(), want_c, atol=1e-5)


def test_layer_norm_basic_lstm_cell_dropout():
  tf.set_random_seed(3)
  cell = tf.contrib.rnn.LayerNormBasicLSTMCell(4, dropout_keep_prob=0.5)
  zero = cell.zero_state(2, tf.float32)
  outputs = [cell(X[:, 0], zero)[0].numpy() for _ in range(3)]
  assert not np.allclose(outputs[0], outputs[1]) or not np.allclose(outputs[1], outputs[2])
  full = tf.contrib.rnn.LayerNormBasicLSTMCell(4)
  full(X[:, 0], zero)
  for a, b in zip(full.variables, cell.variables):
    a.assign(b)
  assert not np.allclose(full(X[:, 0], zero)[0].numpy(), outputs[0])


STACK_OUT = [[[0.0743566, 0.1135715, 0.1882919, 0.0833557],
              [0.1397828, 0.2079824, 0.1630507, 0.0704283],
              [0.1962933, 0.2819492, 0.1239946, 0.0509097],
              [0.2434209, 0.3377816, 0.0703875, 0.0270923]],
             [[0.0778847, 0.115262, 0.1130196, 0.0416402],
              [0.1444181, 0.209982, 0.0671282, 0.0244405],
              [0.0] * 4, [0.0] * 4]]


def _set_stack_weights(cells_fw, cells_bw):
  for layer, (fw, bw) in enumerate(zip(cells_fw, cells_bw)):
    for k, v in enumerate(fw.variables + bw.variables):
      v.assign(W(v.shape.as_list(), 20.0 + layer * 4 + k))


def test_stack_bidirectional_dynamic_rnn():
  xs = W([2, 4, 3], 13.0)
  cells_fw = [tf.contrib.rnn.LSTMBlockCell(2) for _ in range(2)]
  cells_bw = [tf.contrib.rnn.LSTMBlockCell(2) for _ in range(2)]
  tf.contrib.rnn.stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, xs, dtype=tf.float32,
                                                 sequence_length=[4, 2], scope="sbd")
  assert [v.name for v in cells_fw[1].variables + cells_bw[0].variables] == [
      "sbd/cell_1/bidirectional_rnn/fw/lstm_cell/kernel:0",
      "sbd/cell_1/bidirectional_rnn/fw/lstm_cell/bias:0",
      "sbd/cell_0/bidirectional_rnn/bw/lstm_cell/kernel:0",
      "sbd/cell_0/bidirectional_rnn/bw/lstm_cell/bias:0"]
  assert cells_fw[1].variables[0].shape.as_list() == [6, 8]
  _set_stack_weights(cells_fw, cells_bw)
  out, states_fw, states_bw = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
      cells_fw, cells_bw, xs, dtype=tf.float32, sequence_length=[4, 2], scope="sbd")
  assert len(states_fw) == len(states_bw) == 2
  np.testing.assert_allclose(out.numpy(), STACK_OUT, atol=1e-5)
  np.testing.assert_allclose(states_fw[1].h.numpy(), [[0.2434209, 0.3377816],
                                                      [0.1444181, 0.209982]], atol=1e-5)
  np.testing.assert_allclose(states_bw[1].c.numpy(), [[0.4947305, 0.2189097],
                                                      [0.286011, 0.1085235]], atol=1e-5)
  with pytest.raises(ValueError, match="same depth"):
    tf.contrib.rnn.stack_bidirectional_dynamic_rnn(cells_fw, cells_bw[:1], xs,
                                                   dtype=tf.float32)


def test_stack_bidirectional_rnn_static():
  xs = W([2, 4, 3], 13.0)
  steps = [xs[:, t] for t in range(4)]
  cells_fw = [tf.contrib.rnn.LSTMBlockCell(2) for _ in range(2)]
  cells_bw = [tf.contrib.rnn.LSTMBlockCell(2) for _ in range(2)]
  with tf.variable_scope("static"):
    tf.contrib.rnn.stack_bidirectional_rnn(cells_fw, cells_bw, steps, dtype=tf.float32)
  assert (cells_bw[1].variables[0].name
          == "static/stack_bidirectional_rnn/cell_1/bw/lstm_cell/kernel:0")
  _set_stack_weights(cells_fw, cells_bw)
  outs, states_fw, _ = tf.contrib.rnn.stack_bidirectional_rnn(
      cells_fw, cells_bw, steps, dtype=tf.float32, sequence_length=[4, 2])
  assert isinstance(outs, list) and len(outs) == 4
  np.testing.assert_allclose(np.stack([o.numpy() for o in outs], 1), STACK_OUT, atol=1e-5)
  np.testing.assert_allclose(states_fw[1].h.numpy()[1], [0.1444181, 0.209982], atol=1e-5)


LOGITS = W([2, 3, 5], 30.0) * 4
TARGETS = np.array([[1, 2, 3], [0, 4, 1]])
WEIGHTS = np.array([[1, 1, 0], [1, 0.5, 0]], np.float32)


@pytest.mark.parametrize("kwargs,want", [
    ({}, 1.7223493),
    (dict(average_across_timesteps=False, average_across_batch=False),
     [[2.5576046, 1.4447185, 0.0], [1.6077348, 0.4181646, 0.0]]),
    (dict(average_across_batch=False), [2.0011616, 1.3505996]),
    (dict(average_across_timesteps=False), [2.0826697, 1.241922, 0.0]),
    (dict(average_across_timesteps=False, average_across_batch=False,
          sum_over_timesteps=True, sum_over_batch=True), 1.5070556),
    (dict(average_across_timesteps=False, average_across_batch=False,
          sum_over_timesteps=True), [2.0011616, 1.0129497]),
    (dict(average_across_timesteps=False, average_across_batch=False,
          sum_over_batch=True), [2.0826697, 0.9314415, 0.0]),
])
def test_sequence_loss_reductions(kwargs, want):
  loss = tf.contrib.seq2seq.sequence_loss(LOGITS, TARGETS, WEIGHTS, **kwargs)
  assert loss.dtype == tf.float32
  assert loss.shape.as_list() == list(np.shape(want))
  np.testing.assert_allclose(loss.numpy(), want, atol=1e-5)


def test_sequence_loss_custom_fn_gradient_and_errors():
  calls = []

  def loss_fn(labels, logits):
    calls.append((labels.shape.as_list(), logits.shape.as_list()))
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)

  logits = tf.constant(LOGITS)
  with tf.GradientTape() as tape:
    tape.watch(logits)
    loss = tf.contrib.seq2seq.sequence_loss(logits, TARGETS, WEIGHTS,
                                            softmax_loss_function=loss_fn)
  assert calls == [([6], [6, 5])]
  np.testing.assert_allclose(loss.numpy(), 1.7223493, atol=1e-5)
  grad = tape.gradient(loss, logits).numpy()
  probs = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
  want = (probs - np.eye(5)[TARGETS]) * WEIGHTS[..., None] / WEIGHTS.sum()
  np.testing.assert_allclose(grad, want, atol=1e-5)
  with pytest.raises(ValueError, match="cannot be set to True at same time"):
    tf.contrib.seq2seq.sequence_loss(LOGITS, TARGETS, WEIGHTS, sum_over_timesteps=True)
  with pytest.raises(ValueError, match="Logits must be a"):
    tf.contrib.seq2seq.sequence_loss(LOGITS[0], TARGETS, WEIGHTS)
