"""tf.nn.raw_rnn, static_state_saving_rnn, rnn_cell.DeviceWrapper, and TF1's rule that
tf.layers / RNN cell weights without an initializer take the variable scope's initializer.
Golden values from TF 2.21's tf.compat.v1 (TF_USE_LEGACY_KERAS=1) under eager execution."""
import numpy as np
import pytest

import tfe_compat as tf

MAX_TIME, BATCH, DEPTH, UNITS = 4, 2, 3, 2
INPUTS = np.arange(MAX_TIME * BATCH * DEPTH, dtype=np.float32).reshape(MAX_TIME, BATCH, DEPTH) / 10


def test_variable_scope_initializer_reaches_tf1_layers_and_cells():
  with tf.variable_scope("a", initializer=tf.constant_initializer(0.1)):
    cell = tf.nn.rnn_cell.BasicRNNCell(2)
    tf.nn.dynamic_rnn(cell, tf.ones([1, 2, 3]), dtype=tf.float32)
  with tf.variable_scope("b", initializer=tf.constant_initializer(0.3)):
    dense = tf.layers.Dense(2)
    dense(tf.ones([1, 2]))
    explicit = tf.layers.Dense(2, None, True, tf.ones_initializer())
    explicit(tf.ones([1, 2]))
  assert [(v.name, v.numpy().ravel().tolist()) for v in cell.variables] == [
      ("a/rnn/basic_rnn_cell/kernel:0", [np.float32(0.1)] * 10),
      ("a/rnn/basic_rnn_cell/bias:0", [0.0, 0.0])]
  assert dense.kernel.numpy().ravel().tolist() == [np.float32(0.3)] * 4
  assert dense.bias.numpy().tolist() == [0.0, 0.0]
  assert explicit.kernel.numpy().ravel().tolist() == [1.0] * 4
  plain = tf.layers.Dense(2)  # no scope initializer: Keras's glorot_uniform
  plain(tf.ones([1, 2]))
  assert np.all(np.abs(plain.kernel.numpy()) <= np.sqrt(6 / 4)) and len(set(
      plain.kernel.numpy().ravel().tolist())) == 4


def test_raw_rnn_stops_per_sequence_and_emits_zeros_after():
  sequence_length = tf.constant([2, 4])
  inputs_ta = tf.TensorArray(dtype=tf.float32, size=MAX_TIME).unstack(INPUTS)
  cell = tf.nn.rnn_cell.BasicRNNCell(UNITS)

  def loop_fn(time, cell_output, cell_state, loop_state):
    state = cell.zero_state(BATCH, tf.float32) if cell_output is None else cell_state
    finished = time >= sequence_length
    next_input = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([BATCH, DEPTH]),
                         lambda: inputs_ta.read(time))
    return finished, next_input, state, cell_output, None

  with tf.variable_scope("a", initializer=tf.constant_initializer(0.1)):
    outputs_ta, final_state, loop_state = tf.nn.raw_rnn(cell, loop_fn)
  np.testing.assert_allclose(outputs_ta.stack().numpy()[..., 0], [
      [0.02999, 0.11943], [0.2127, 0.31302], [0.0, 0.49496], [0.0, 0.64048]], atol=1e-5)
  np.testing.assert_allclose(final_state.numpy()[:, 1], [0.2127, 0.64048], atol=1e-5)
  assert loop_state is None
  with pytest.raises(TypeError, match="loop_fn must be a callable"):
    tf.nn.raw_rnn(cell, None)


def test_raw_rnn_carries_a_loop_state():
  def loop_fn(time, cell_output, cell_state, loop_state):
    if cell_output is None:
      return (tf.constant([False]), tf.ones([1, 1]), cell.zero_state(1, tf.float32), None,
              tf.constant(0))
    return time >= 3, tf.ones([1, 1]), cell_state, cell_output, loop_state + 10

  cell = tf.nn.rnn_cell.BasicRNNCell(1)
  outputs_ta, _, loop_state = tf.nn.raw_rnn(cell, loop_fn)
  assert int(loop_state) == 30 and outputs_ta.stack().shape.as_list() == [3, 1, 1]


def test_static_state_saving_rnn_and_device_wrapper():
  class Saver:
    def __init__(self):
      self.saved = {}

    def state(self, name):  # pylint: disable=unused-argument
      return tf.ones([BATCH, UNITS]) * 0.5

    def save_state(self, name, value):
      self.saved[name] = value

  saver = Saver()
  with tf.variable_scope("b", initializer=tf.constant_initializer(0.2)):
    outputs, state = tf.nn.static_state_saving_rnn(
        tf.nn.rnn_cell.BasicRNNCell(UNITS), tf.unstack(INPUTS), saver, "h")
  assert len(outputs) == MAX_TIME and list(saver.saved) == ["h"]
  np.testing.assert_allclose(state.numpy()[:, 0], [0.89365, 0.92962], atol=1e-5)
  assert saver.saved["h"] is state
  with pytest.raises(ValueError, match="state_name should be the same type as cell.state_size"):
    tf.nn.static_state_saving_rnn(tf.nn.rnn_cell.BasicRNNCell(UNITS), tf.unstack(INPUTS),
                                  saver, ("h", "c"))
  wrapped = tf.nn.rnn_cell.DeviceWrapper(tf.nn.rnn_cell.BasicRNNCell(UNITS), "/cpu:0")
  output, new_state = wrapped(tf.ones([1, 3]), wrapped.zero_state(1, tf.float32))
  assert output.shape.as_list() == new_state.shape.as_list() == [1, 2]
  assert output.device.endswith("CPU:0")


def test_variable_scope_custom_getter_sees_tf1_layer_weights():
  # Golden names from TF 2.21's tf.compat.v1 layers (TF_USE_LEGACY_KERAS=1).
  seen = []

  def recording(getter, name, *args, **kwargs):
    seen.append(name)
    return getter(name, *args, **kwargs)

  with tf.variable_scope("outer", custom_getter=recording):
    dense = tf.layers.Dense(2, name="proj")
    dense(tf.ones([1, 3]))
  assert seen == ["outer/proj/kernel", "outer/proj/bias"]
  assert [v.name for v in dense.variables] == ["outer/proj/kernel:0", "outer/proj/bias:0"]

  def zeroed(getter, name, *args, **kwargs):
    return getter(name, *args, **kwargs) * 0.

  with tf.variable_scope("s", custom_getter=zeroed):
    scaled = tf.layers.Dense(2)
    assert scaled(tf.ones([1, 3])).numpy().tolist() == [[0.0, 0.0]]
  assert len(scaled.variables) == 2
