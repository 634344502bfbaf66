"""More of TF 1.15's `tf.contrib.rnn` and `tf.contrib.seq2seq.sequence_loss`.

The block cells compute exactly what TF's fused kernels compute, reusing the LSTM/GRU steps
of `tfe_compat.nn.rnn_cell` (same gate order, forget bias, peepholes and clipping), with TF 1.15's
variable names (`lstm_cell/kernel`, `lstm_cell/w_i_diag`, `gru_cell/w_ru`, ...).
"""
import contextlib

import jax
import jax.numpy as jnp

from tfe_compat.nn import rnn_cell as nn_rnn_cell
from tfe_compat import variable_scope as vs
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.keras.layers import recurrent_cells
from tfe_compat.ops import array_ops
from tfe_compat.ops import fast_matmul
from tfe_compat.ops import init_ops
from tfe_compat.ops import nn_ops

LSTMStateTuple = nn_rnn_cell.LSTMStateTuple


def _tensors(variables):
  return [ops.convert_to_tensor(v) for v in variables]


@export("contrib.rnn.LSTMBlockCell")
class LSTMBlockCell(nn_rnn_cell.RNNCell):
  """TF's fused LSTM cell: BasicLSTMCell math plus optional `cell_clip` and peepholes."""

  def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
               dtype=None, reuse=None, name="lstm_cell"):
    super().__init__(name=name, dtype=dtype)
    self._num_units = num_units
    self._forget_bias = float(forget_bias)
    # TF's kernel clips only for cell_clip > 0 (the default -1 means no clipping).
    self._cell_clip = (float(cell_clip) if cell_clip is not None and cell_clip > 0
                       else None)
    self._use_peephole = use_peephole

  @property
  def state_size(self):
    return LSTMStateTuple(self._num_units, self._num_units)

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    if len(inputs_shape) != 2 or not inputs_shape[1]:
      raise ValueError("Expecting inputs_shape[1] to be set: %s" % (inputs_shape,))
    depth = nn_rnn_cell._input_depth(inputs_shape)  # pylint: disable=protected-access
    units = self._num_units
    self._kernel = self.add_weight("kernel", shape=[depth + units, 4 * units])
    self._bias = self.add_weight("bias", shape=[4 * units], initializer=init_ops.Zeros())
    self._peepholes = []
    if self._use_peephole:
      w_i, w_f, w_o = [self.add_weight(n, shape=[units])
                       for n in ("w_i_diag", "w_f_diag", "w_o_diag")]
      self._peepholes = [w_f, w_i, w_o]  # the order _lstm_step reads them in
    self.built = True

  def call(self, inputs, state):
    if len(state) != 2:
      raise ValueError("Expecting state to be a tuple with length 2.")
    c, h = (ops.convert_to_tensor(s) for s in state)
    h, c = nn_rnn_cell._lstm_step(  # pylint: disable=protected-access
        inputs, c, h, *_tensors([self._kernel, self._bias] + self._peepholes),
        forget_bias=self._forget_bias, act="tanh", peepholes=self._use_peephole,
        cell_clip=self._cell_clip, projection=False, proj_clip=None)
    return h, LSTMStateTuple(c, h)


@export("contrib.rnn.GRUBlockCell")
class GRUBlockCell(nn_rnn_cell.RNNCell):
  """TF's fused GRU cell (GRUCell math); variables `w_ru`, `b_ru` (init 1.0), `w_c`, `b_c`."""

  _NAMES = (("", "w_ru"), ("", "b_ru"), ("", "w_c"), ("", "b_c"))

  def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
    super().__init__(name=name)
    if (cell_size is None) == (num_units is None):
      raise ValueError("Exactly one of num_units or cell_size must be provided.")
    self._cell_size = num_units if num_units is not None else cell_size

  @property
  def state_size(self):
    return self._cell_size

  @property
  def output_size(self):
    return self._cell_size

  def build(self, input_shape):
    depth = input_shape[1] if len(input_shape) > 1 else None
    depth = getattr(depth, "value", depth)
    if depth is None:
      raise ValueError("Expecting input_size to be set.")
    units = self._cell_size
    shapes = ([depth + units, 2 * units], [2 * units], [depth + units, units], [units])
    inits = (None, init_ops.Constant(1.0), None, init_ops.Constant(0.0))
    self._weights_list = []
    for (scope, name), shape, init in zip(self._NAMES, shapes, inits):
      with vs.name_scope(scope) if scope else contextlib.nullcontext():
        self._weights_list.append(self.add_weight(name, shape=shape, initializer=init))
    self.built = True

  def call(self, inputs, h_prev):
    h_prev = ops.convert_to_tensor(h_prev)
    cell_size = h_prev.shape.as_list()[1] if h_prev.shape.ndims == 2 else None
    if cell_size != self._cell_size:
      raise ValueError("Shape of h_prev[1] incorrect: cell_size %i vs %s" %
                       (self._cell_size, cell_size))
    h = nn_rnn_cell._gru_step(  # pylint: disable=protected-access
        inputs, h_prev, *_tensors(self._weights_list), act="tanh")
    return h, h


@export("contrib.rnn.GRUBlockCellV2")
class GRUBlockCellV2(GRUBlockCell):
  """GRUBlockCell with GRUCell's variable names (`gates/kernel`, `candidate/bias`, ...)."""

  _NAMES = (("gates", "kernel"), ("gates", "bias"), ("candidate", "kernel"),
            ("candidate", "bias"))


_LN_SCOPES = ("input", "transform", "forget", "output", "state")


def _layer_norm(x, gamma, beta):
  """contrib `layers.layer_norm` over the last axis (variance epsilon 1e-12)."""
  mean = jnp.mean(x, axis=1, keepdims=True)
  var = jnp.mean(jnp.square(x - mean), axis=1, keepdims=True)
  inv = jax.lax.rsqrt(var + jnp.asarray(1e-12, x.dtype)) * gamma
  return x * inv + (beta - mean * inv)


@op(name="LayerNormBasicLSTMCell")
def _ln_lstm_step(x, c, h, kernel, *rest, forget_bias, act, layer_norm, dropout):
  """`rest`: the bias, or (gamma, beta) per `_LN_SCOPES`; then a dropout mask if any."""
  activation = recurrent_cells.jax_activation(act)
  z = fast_matmul.matmul(jnp.concatenate([x, h], 1), kernel)
  if not layer_norm:
    z = z + rest[0]
  gates = jnp.split(z, 4, axis=1)
  if layer_norm:
    gates = [_layer_norm(g, rest[2 * k], rest[2 * k + 1]) for k, g in enumerate(gates)]
  i, j, f, o = gates
  g = activation(j)
  if dropout:
    g = g * rest[-1]
  c_new = c * jax.nn.sigmoid(f + jnp.asarray(forget_bias, z.dtype)) + jax.nn.sigmoid(i) * g
  if layer_norm:
    c_new = _layer_norm(c_new, rest[8], rest[9])
  return activation(c_new) * jax.nn.sigmoid(o), c_new


@export("contrib.rnn.LayerNormBasicLSTMCell")
class LayerNormBasicLSTMCell(nn_rnn_cell.RNNCell):
  """Basic LSTM with layer norm on each gate and the new cell, and recurrent dropout."""

  def __init__(self, num_units, forget_bias=1.0, input_size=None, activation=None,
               layer_norm=True, norm_gain=1.0, norm_shift=0.0, dropout_keep_prob=1.0,
               dropout_prob_seed=None, reuse=None):
    super().__init__()
    self._num_units = num_units
    self._act = nn_rnn_cell._activation(activation)  # pylint: disable=protected-access
    self._forget_bias = float(forget_bias)
    self._keep_prob = dropout_keep_prob
    self._seed = dropout_prob_seed
    self._layer_norm = layer_norm
    self._norm_gain = norm_gain
    self._norm_shift = norm_shift

  @property
  def state_size(self):
    return LSTMStateTuple(self._num_units, self._num_units)

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth = nn_rnn_cell._input_depth(inputs_shape)  # pylint: disable=protected-access
    units = self._num_units
    self._kernel = self.add_weight("kernel", shape=[depth + units, 4 * units])
    if self._layer_norm:
      self._extra = []
      for scope in _LN_SCOPES:
        with vs.name_scope(scope):
          self._extra.append(self.add_weight(
              "gamma", shape=[units], initializer=init_ops.Constant(self._norm_gain)))
          self._extra.append(self.add_weight(
              "beta", shape=[units], initializer=init_ops.Constant(self._norm_shift)))
    else:
      self._extra = [self.add_weight("bias", shape=[4 * units])]
    self.built = True

  def call(self, inputs, state):
    c, h = (ops.convert_to_tensor(s) for s in state)
    weights = _tensors([self._kernel] + self._extra)
    dropout = not isinstance(self._keep_prob, float) or self._keep_prob < 1
    if dropout:
      ones = array_ops.ones([inputs.shape.as_list()[0], self._num_units], dtype=c.dtype)
      weights.append(nn_ops.dropout(ones, self._keep_prob, seed=self._seed))
    h, c = _ln_lstm_step(inputs, c, h, *weights, forget_bias=self._forget_bias,
                         act=self._act, layer_norm=bool(self._layer_norm), dropout=dropout)
    return h, LSTMStateTuple(c, h)


def _check_stack_args(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
  if not cells_fw:
    raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
  if not cells_bw:
    raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
  if not isinstance(cells_fw, list):
    raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
  if not isinstance(cells_bw, list):
    raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
  if len(cells_fw) != len(cells_bw):
    raise ValueError("Forward and Backward cells must have the same depth.")
  for states, which in ((initial_states_fw, "fw"), (initial_states_bw, "bw")):
    if states is not None and (not isinstance(states, list) or len(states) != len(cells_fw)):
      raise ValueError("initial_states_%s must be a list of state tensors (one per layer)."
                       % which)


def _layer_states(initial_states, i):
  return initial_states[i] if initial_states else None


@export("contrib.rnn.stack_bidirectional_rnn")
def stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                            initial_states_bw=None, dtype=None, sequence_length=None,
                            scope=None):
  """Stacked `static_bidirectional_rnn`s (layer i in scope `cell_i`); (outputs, fw, bw)."""
  _check_stack_args(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
  states_fw, states_bw, prev_layer = [], [], inputs
  with vs.variable_scope(scope or "stack_bidirectional_rnn"):
    for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
      prev_layer, state_fw, state_bw = nn_rnn_cell.static_bidirectional_rnn(
          cell_fw, cell_bw, prev_layer, _layer_states(initial_states_fw, i),
          _layer_states(initial_states_bw, i), dtype=dtype, sequence_length=sequence_length,
          scope="cell_%d" % i)
      states_fw.append(state_fw)
      states_bw.append(state_bw)
  return prev_layer, tuple(states_fw), tuple(states_bw)


@export("contrib.rnn.stack_bidirectional_dynamic_rnn")
def stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                                    initial_states_bw=None, dtype=None, sequence_length=None,
                                    parallel_iterations=None, time_major=False, scope=None,
                                    swap_memory=False):
  """Stacked `bidirectional_dynamic_rnn`s; each layer reads the previous one's fw/bw
  outputs concatenated. Returns (outputs, states_fw, states_bw)."""
  _check_stack_args(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
  states_fw, states_bw, prev_layer = [], [], inputs
  with vs.variable_scope(scope or "stack_bidirectional_rnn"):
    for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
      with vs.variable_scope("cell_%d" % i):
        outputs, (state_fw, state_bw) = nn_rnn_cell.bidirectional_dynamic_rnn(
            cell_fw, cell_bw, prev_layer, sequence_length=sequence_length,
            initial_state_fw=_layer_states(initial_states_fw, i),
            initial_state_bw=_layer_states(initial_states_bw, i), dtype=dtype,
            time_major=time_major)
        prev_layer = array_ops.concat(outputs, 2)
      states_fw.append(state_fw)
      states_bw.append(state_bw)
  return prev_layer, tuple(states_fw), tuple(states_bw)


@op(name="SequenceLoss")
def _sequence_loss(crossent, weights, *, average_across_timesteps, average_across_batch,
                   sum_over_timesteps, sum_over_batch):
  """Weighted [batch, time] losses reduced as TF's `sequence_loss` does (div_no_nan)."""
  crossent = crossent * weights

  def reduce(axis, by_weight):
    size = (jnp.sum(weights, axis=axis) if by_weight
            else jnp.count_nonzero(weights, axis=axis).astype(crossent.dtype))
    total = jnp.sum(crossent, axis=axis)
    return jnp.where(size == 0, jnp.zeros_like(total), total / jnp.where(size == 0, 1, size))

  if average_across_timesteps and average_across_batch:
    return reduce(None, True)
  if sum_over_timesteps and sum_over_batch:
    return reduce(None, False)
  if average_across_timesteps or average_across_batch:
    return reduce(0 if average_across_batch else 1, True)
  if sum_over_timesteps or sum_over_batch:
    return reduce(0 if sum_over_batch else 1, False)
  return crossent


@export("contrib.seq2seq.sequence_loss")
def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, sum_over_timesteps=False, sum_over_batch=False,
                  softmax_loss_function=None, name=None):
  """Weighted cross-entropy of [batch, time, classes] logits against [batch, time] ids."""
  logits, weights = ops.convert_to_tensor(logits), ops.convert_to_tensor(weights)
  targets = ops.convert_to_tensor(targets)
  if logits.shape.ndims != 3:
    raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
  if targets.shape.ndims != 2:
    raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
  if weights.shape.ndims != 2:
    raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
  if average_across_timesteps and sum_over_timesteps:
    raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True "
                     "at same time.")
  if average_across_batch and sum_over_batch:
    raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same "
                     "time.")
  batch, steps, classes = logits.shape.as_list()
  logits_flat = array_ops.reshape(logits, [-1, classes])
  targets_flat = array_ops.reshape(targets, [-1])
  loss_fn = softmax_loss_function or nn_ops.sparse_softmax_cross_entropy_with_logits
  crossent = ops.convert_to_tensor(loss_fn(labels=targets_flat, logits=logits_flat))
  crossent = array_ops.reshape(crossent, [batch, steps])
  weights = ops.convert_matching(crossent, weights, op_name="Mul")[1]
  return _sequence_loss(crossent, weights,
                        average_across_timesteps=bool(average_across_timesteps),
                        average_across_batch=bool(average_across_batch),
                        sum_over_timesteps=bool(sum_over_timesteps),
                        sum_over_batch=bool(sum_over_batch))
