"""TF1 RNN cells and loops: `tf.nn.rnn_cell.*`, `tf.nn.dynamic_rnn`, `tf.contrib.rnn.*`.

Cells are Keras layers (as TF 1.15's `RNNCell` is a `tf.layers.Layer`), so Models track
them. A cell takes its variable scope at its first call, as TF1 does: the default name is
uniquified within the enclosing variable scope (`rnn/basic_lstm_cell/kernel:0`,
`multi_rnn_cell/cell_1/basic_lstm_cell/kernel:0`). Each cell step is one fused op.
`dynamic_rnn` and `static_rnn` loop over time in Python, calling the cell once per step.
"""
import collections

import jax
import jax.numpy as jnp

from tfe_compat import variable_scope as vs
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras.engine.base_layer import to_snake_case
from tfe_compat.layers import Layer
from tfe_compat.keras.layers import recurrent_cells
from tfe_compat.ops import array_ops
from tfe_compat.ops import fast_matmul
from tfe_compat.ops import init_ops
from tfe_compat.ops import matmul_cast_ops
from tfe_compat.ops import nn_ops
from tfe_compat.ops import slicing


@export("nn.rnn_cell.LSTMStateTuple", "contrib.rnn.LSTMStateTuple")
class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
  """The (c, h) state of an LSTM cell."""
  __slots__ = ()

  @property
  def dtype(self):
    c, h = self
    if c.dtype != h.dtype:
      raise TypeError("Inconsistent internal state: %s vs %s" % (str(c.dtype), str(h.dtype)))
    return c.dtype


def _map_states(fn, *structures):
  return jax.tree_util.tree_map(fn, *structures, is_leaf=lambda x: isinstance(x, Tensor))


def _zeros_for(size, batch_size, dtype):
  if isinstance(size, LSTMStateTuple):
    return LSTMStateTuple(*[_zeros_for(s, batch_size, dtype) for s in size])
  if isinstance(size, (list, tuple)):
    return tuple(_zeros_for(s, batch_size, dtype) for s in size)
  return array_ops.zeros([batch_size, size], dtype=dtype)


def _input_depth(shape):
  depth = getattr(shape[-1], "value", shape[-1])
  if depth is None:
    raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s" % shape)
  return depth


@export("nn.rnn_cell.RNNCell", "contrib.rnn.RNNCell")
class RNNCell(Layer):
  """Base class of TF1 cells: `cell(inputs, state) -> (output, new_state)`."""

  _is_tf_rnn_cell = True

  def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
    kwargs.pop("_reuse", None)
    super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
    self._base_name = name or to_snake_case(type(self).__name__)
    self._scope_leaf = None

  def __call__(self, inputs, state, scope=None, **kwargs):
    if self._scope_leaf is None:
      with vs.variable_scope(scope, default_name=self._base_name) as entered:
        pass
      self._scope_leaf = entered.name.rsplit("/", 1)[-1]
    inputs = ops.convert_to_tensor(inputs, dtype=self._dtype)
    with vs.variable_scope(self._scope_leaf):
      if not self.built:
        self._maybe_build(inputs)
      return self.call(inputs, state, **kwargs)

  @property
  def state_size(self):
    raise NotImplementedError("Abstract method")

  @property
  def output_size(self):
    raise NotImplementedError("Abstract method")

  def zero_state(self, batch_size, dtype):
    """Zero-filled state(s) for a batch: a Tensor or a structure like `state_size`."""
    return _zeros_for(self.state_size, int(batch_size), dtypes.as_dtype(dtype))

  def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
    if inputs is not None:
      batch_size, dtype = inputs.shape.as_list()[0], inputs.dtype
    return self.zero_state(batch_size, dtype or dtypes.float32)


def _activation(activation):
  return recurrent_cells.activation_key(activation or "tanh")


@op(name="BasicRNNCell")
def _basic_rnn_step(x, h, kernel, bias, *, act):
  return recurrent_cells.jax_activation(act)(
      fast_matmul.matmul(jnp.concatenate([x, h], 1), kernel) + bias)


@op(name="BasicLSTMCell")
def _lstm_step(x, c, h, kernel, bias, *extra, forget_bias, act, peepholes, cell_clip,
               projection, proj_clip):
  """TF1 LSTM step; `extra` = peephole weights (f, i, o) then the projection kernel."""
  activation = recurrent_cells.jax_activation(act)
  z = fast_matmul.matmul(jnp.concatenate([x, h], 1), kernel) + bias
  i, j, f, o = jnp.split(z, 4, axis=1)
  fb = jnp.asarray(forget_bias, z.dtype)
  if peepholes:
    w_f, w_i, w_o = extra[:3]
    c_new = (jax.nn.sigmoid(f + fb + w_f * c) * c
             + jax.nn.sigmoid(i + w_i * c) * activation(j))
  else:
    c_new = jax.nn.sigmoid(f + fb) * c + jax.nn.sigmoid(i) * activation(j)
  if cell_clip is not None:
    c_new = jnp.clip(c_new, -cell_clip, cell_clip)
  o = o + extra[2] * c_new if peepholes else o
  m = jax.nn.sigmoid(o) * activation(c_new)
  if projection:
    m = fast_matmul.matmul(m, extra[-1])
    if proj_clip is not None:
      m = jnp.clip(m, -proj_clip, proj_clip)
  return m, c_new


@op(name="GRUCell")
def _gru_step(x, h, gate_kernel, gate_bias, cand_kernel, cand_bias, *, act):
  gates = jax.nn.sigmoid(fast_matmul.matmul(jnp.concatenate([x, h], 1), gate_kernel) + gate_bias)
  r, u = jnp.split(gates, 2, axis=1)
  cand = recurrent_cells.jax_activation(act)(
      fast_matmul.matmul(jnp.concatenate([x, r * h], 1), cand_kernel) + cand_bias)
  return u * h + (1 - u) * cand


@export("nn.rnn_cell.BasicRNNCell", "contrib.rnn.BasicRNNCell")
class BasicRNNCell(RNNCell):
  """`output = new_state = activation(W * [input, state] + b)`."""

  def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
    super().__init__(name=name, dtype=dtype, **kwargs)
    self._num_units = num_units
    self._act = _activation(activation)

  @property
  def state_size(self):
    return self._num_units

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth = _input_depth(inputs_shape)
    self._kernel = self.add_weight("kernel", shape=[depth + self._num_units, self._num_units])
    self._bias = self.add_weight("bias", shape=[self._num_units],
                                 initializer=init_ops.Zeros())
    self.built = True

  def call(self, inputs, state):
    out = _basic_rnn_step(inputs, ops.convert_to_tensor(state), ops.convert_to_tensor(
        self._kernel), ops.convert_to_tensor(self._bias), act=self._act)
    return out, out


def _split_lstm_state(state, state_is_tuple, num_units):
  if state_is_tuple:
    c, h = state
    return ops.convert_to_tensor(c), ops.convert_to_tensor(h)
  c, h = array_ops.split(ops.convert_to_tensor(state), [num_units, -1], axis=1)
  return c, h


def _lstm_state(c, h, state_is_tuple):
  return LSTMStateTuple(c, h) if state_is_tuple else array_ops.concat([c, h], 1)


@export("nn.rnn_cell.BasicLSTMCell", "contrib.rnn.BasicLSTMCell")
class BasicLSTMCell(RNNCell):
  """TF1's basic LSTM (no peepholes, no clipping; `forget_bias` added to the forget gate)."""

  def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
               reuse=None, name=None, dtype=None, **kwargs):
    super().__init__(name=name, dtype=dtype, **kwargs)
    self._num_units = num_units
    self._forget_bias = float(forget_bias)
    self._state_is_tuple = state_is_tuple
    self._act = _activation(activation)

  @property
  def state_size(self):
    return (LSTMStateTuple(self._num_units, self._num_units) if self._state_is_tuple
            else 2 * self._num_units)

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth = _input_depth(inputs_shape)
    self._kernel = self.add_weight("kernel", shape=[depth + self._num_units,
                                                    4 * self._num_units])
    self._bias = self.add_weight("bias", shape=[4 * self._num_units],
                                 initializer=init_ops.Zeros())
    self.built = True

  def call(self, inputs, state):
    c, h = _split_lstm_state(state, self._state_is_tuple, self._num_units)
    h, c = _lstm_step(inputs, c, h, ops.convert_to_tensor(self._kernel),
                      ops.convert_to_tensor(self._bias), forget_bias=self._forget_bias,
                      act=self._act, peepholes=False, cell_clip=None, projection=False,
                      proj_clip=None)
    return h, _lstm_state(c, h, self._state_is_tuple)


@export("nn.rnn_cell.LSTMCell", "contrib.rnn.LSTMCell")
class LSTMCell(RNNCell):
  """TF1's LSTM with optional peepholes, cell clipping and output projection."""

  def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
               num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
               forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
               dtype=None, **kwargs):
    super().__init__(name=name, dtype=dtype, **kwargs)
    if num_unit_shards is not None or num_proj_shards is not None:
      raise NotImplementedError("tfe_compat: LSTMCell num_unit_shards/num_proj_shards "
                                "(variable partitioning) are not supported.")
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._cell_clip = None if cell_clip is None else float(cell_clip)
    self._initializer = initializer
    self._num_proj = num_proj
    self._proj_clip = None if proj_clip is None else float(proj_clip)
    self._forget_bias = float(forget_bias)
    self._state_is_tuple = state_is_tuple
    self._act = _activation(activation)

  @property
  def state_size(self):
    out = self._num_proj or self._num_units
    return (LSTMStateTuple(self._num_units, out) if self._state_is_tuple
            else self._num_units + out)

  @property
  def output_size(self):
    return self._num_proj or self._num_units

  def build(self, inputs_shape):
    depth = _input_depth(inputs_shape)
    units, h_depth = self._num_units, self._num_proj or self._num_units
    self._kernel = self.add_weight("kernel", shape=[depth + h_depth, 4 * units],
                                   initializer=self._initializer)
    self._bias = self.add_weight("bias", shape=[4 * units], initializer=init_ops.Zeros())
    self._extra = []
    if self._use_peepholes:
      self._extra += [self.add_weight(n, shape=[units], initializer=self._initializer)
                      for n in ("w_f_diag", "w_i_diag", "w_o_diag")]
    if self._num_proj is not None:
      with vs.name_scope("projection"):
        self._extra.append(self.add_weight("kernel", shape=[units, self._num_proj],
                                           initializer=self._initializer))
    self.built = True

  def call(self, inputs, state):
    c, m = _split_lstm_state(state, self._state_is_tuple, self._num_units)
    m, c = _lstm_step(inputs, c, m, ops.convert_to_tensor(self._kernel),
                      ops.convert_to_tensor(self._bias),
                      *[ops.convert_to_tensor(w) for w in self._extra],
                      forget_bias=self._forget_bias, act=self._act,
                      peepholes=self._use_peepholes, cell_clip=self._cell_clip,
                      projection=self._num_proj is not None, proj_clip=self._proj_clip)
    return m, _lstm_state(c, m, self._state_is_tuple)


@export("nn.rnn_cell.GRUCell", "contrib.rnn.GRUCell")
class GRUCell(RNNCell):
  """TF1's GRU: `gates/kernel`, `gates/bias` (init 1.0), `candidate/kernel`, `candidate/bias`."""

  def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
               bias_initializer=None, name=None, dtype=None, **kwargs):
    super().__init__(name=name, dtype=dtype, **kwargs)
    self._num_units = num_units
    self._act = _activation(activation)
    self._kernel_initializer = kernel_initializer
    self._bias_initializer = bias_initializer

  @property
  def state_size(self):
    return self._num_units

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth, units = _input_depth(inputs_shape), self._num_units
    with vs.name_scope("gates"):
      self._gate_kernel = self.add_weight("kernel", shape=[depth + units, 2 * units],
                                          initializer=self._kernel_initializer)
      self._gate_bias = self.add_weight(
          "bias", shape=[2 * units],
          initializer=self._bias_initializer or init_ops.Constant(1.0))
    with vs.name_scope("candidate"):
      self._candidate_kernel = self.add_weight("kernel", shape=[depth + units, units],
                                               initializer=self._kernel_initializer)
      self._candidate_bias = self.add_weight(
          "bias", shape=[units], initializer=self._bias_initializer or init_ops.Zeros())
    self.built = True

  def call(self, inputs, state):
    weights = [ops.convert_to_tensor(w) for w in (self._gate_kernel, self._gate_bias,
                                                  self._candidate_kernel,
                                                  self._candidate_bias)]
    h = _gru_step(inputs, ops.convert_to_tensor(state), *weights, act=self._act)
    return h, h


@export("nn.rnn_cell.MultiRNNCell", "contrib.rnn.MultiRNNCell")
class MultiRNNCell(RNNCell):
  """Cells stacked in sequence; cell i runs in variable scope `cell_i`."""

  def __init__(self, cells, state_is_tuple=True):
    super().__init__()
    if not cells:
      raise ValueError("Must specify at least one cell for MultiRNNCell.")
    if not state_is_tuple:
      raise NotImplementedError("tfe_compat: MultiRNNCell(state_is_tuple=False) is not "
                                "supported.")
    self._cells = list(cells)
    self._state_is_tuple = state_is_tuple

  @property
  def state_size(self):
    return tuple(cell.state_size for cell in self._cells)

  @property
  def output_size(self):
    return self._cells[-1].output_size

  def zero_state(self, batch_size, dtype):
    return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)

  def call(self, inputs, state):
    if not isinstance(state, (list, tuple)) or len(state) != len(self._cells):
      raise ValueError("Expected state to be a tuple of length %d, but received: %s"
                       % (len(self._cells), state))
    new_states = []
    for i, cell in enumerate(self._cells):
      with vs.variable_scope("cell_%d" % i):
        inputs, new_state = cell(inputs, state[i])
      new_states.append(new_state)
    return inputs, tuple(new_states)


class _Wrapper(RNNCell):
  """A cell around another cell; it adds no variable scope of its own."""

  def __init__(self, cell, **kwargs):
    super().__init__(**kwargs)
    self._cell = cell

  @property
  def state_size(self):
    return self._cell.state_size

  @property
  def output_size(self):
    return self._cell.output_size

  def zero_state(self, batch_size, dtype):
    return self._cell.zero_state(batch_size, dtype)

  def __call__(self, inputs, state, scope=None, **kwargs):
    return self.call(ops.convert_to_tensor(inputs), state, scope=scope)


def _keeps_lstm_c(substate):
  return LSTMStateTuple(False, True) if isinstance(substate, LSTMStateTuple) else True


@export("nn.rnn_cell.DropoutWrapper", "contrib.rnn.DropoutWrapper")
class DropoutWrapper(_Wrapper):
  """Dropout on the cell's inputs, outputs and (except LSTM `c`) state, on every call."""

  def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
               variational_recurrent=False, input_size=None, dtype=None, seed=None,
               dropout_state_filter_visitor=None):
    if variational_recurrent:
      raise NotImplementedError("tfe_compat: DropoutWrapper(variational_recurrent=True) is "
                                "not supported.")
    for name, value in (("input_keep_prob", input_keep_prob),
                        ("output_keep_prob", output_keep_prob),
                        ("state_keep_prob", state_keep_prob)):
      if isinstance(value, (int, float)) and not 0.0 < value <= 1.0:
        raise ValueError("Parameter %s must be between 0 and 1: %d" % (name, value))
    super().__init__(cell)
    self._input_keep_prob = input_keep_prob
    self._output_keep_prob = output_keep_prob
    self._state_keep_prob = state_keep_prob
    self._seed = seed
    self._filter = dropout_state_filter_visitor or _keeps_lstm_c

  def _dropout(self, value, keep_prob):
    if isinstance(keep_prob, (int, float)) and keep_prob == 1:
      return value
    return nn_ops.dropout(value, keep_prob=keep_prob, seed=self._seed)

  def call(self, inputs, state, scope=None):
    inputs = self._dropout(inputs, self._input_keep_prob)
    output, new_state = self._cell(inputs, state, scope=scope)
    if not (isinstance(self._state_keep_prob, (int, float)) and self._state_keep_prob == 1):
      keep = jax.tree_util.tree_map(self._filter, new_state,
                                    is_leaf=lambda s: isinstance(s, (Tensor, LSTMStateTuple)))
      new_state = _map_states(
          lambda s, k: self._dropout(s, self._state_keep_prob) if k else s, new_state, keep)
    return self._dropout(output, self._output_keep_prob), new_state


@export("nn.rnn_cell.ResidualWrapper", "contrib.rnn.ResidualWrapper")
class ResidualWrapper(_Wrapper):
  """Adds the cell's inputs to its outputs (or `residual_fn(inputs, outputs)`)."""

  def __init__(self, cell, residual_fn=None):
    super().__init__(cell)
    self._residual_fn = residual_fn or (lambda i, o: i + o)

  def call(self, inputs, state, scope=None):
    output, new_state = self._cell(inputs, state, scope=scope)
    return self._residual_fn(inputs, output), new_state


@export("nn.rnn_cell.DeviceWrapper", "contrib.rnn.DeviceWrapper")
class DeviceWrapper(_Wrapper):
  """Runs the cell (and its zero state) on `device`."""

  def __init__(self, cell, device):
    super().__init__(cell)
    self._device = device

  def zero_state(self, batch_size, dtype):
    with device_lib.device(self._device):
      return self._cell.zero_state(batch_size, dtype)

  def call(self, inputs, state, scope=None):
    with device_lib.device(self._device):
      return self._cell(inputs, state, scope=scope)


# ---- Loops over time ----
def _initial_state(cell, initial_state, batch_size, dtype):
  if initial_state is not None:
    return initial_state
  if dtype is None:
    raise ValueError("If there is no initial_state, you must give a dtype.")
  return cell.zero_state(batch_size, dtype)


def _run(cell, steps, state, sequence_length):
  """Calls the cell once per step; past `sequence_length` outputs are zero, state is kept."""
  outputs = []
  lengths = None if sequence_length is None else ops.convert_to_tensor(sequence_length)
  for t, x in enumerate(steps):
    output, new_state = cell(x, state)
    if lengths is not None:
      valid = array_ops.expand_dims(matmul_cast_ops.cast(lengths, dtypes.int32) > t, 1)
      output = matmul_cast_ops.where_v2(valid, output, array_ops.zeros_like(output))
      new_state = _map_states(lambda n, s: matmul_cast_ops.where_v2(valid, n, s),
                              new_state, state)
    outputs.append(output)
    state = new_state
  return outputs, state


@export("nn.dynamic_rnn")
def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
  """Runs `cell` over a [batch, time, depth] (or time-major) input; (outputs, final state)."""
  inputs = ops.convert_to_tensor(inputs)
  if inputs.shape.ndims != 3:
    raise ValueError("Input must have rank 3 ([batch, time, depth] or time-major): got "
                     "shape %s" % inputs.shape)
  axis = 0 if time_major else 1
  with vs.variable_scope(scope or "rnn"):
    batch = inputs.shape.as_list()[1 - axis]
    state = _initial_state(cell, initial_state, batch, dtype)
    outputs, state = _run(cell, array_ops.unstack(inputs, axis=axis), state, sequence_length)
  return array_ops.stack(outputs, axis=axis), state


@export("nn.static_rnn", "contrib.rnn.static_rnn")
def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
  """Runs `cell` over a list of [batch, depth] inputs; (list of outputs, final state)."""
  if not isinstance(inputs, (list, tuple)):
    raise TypeError("inputs must be a sequence")
  if not inputs:
    raise ValueError("inputs must not be empty")
  inputs = [ops.convert_to_tensor(x) for x in inputs]
  with vs.variable_scope(scope or "rnn"):
    state = _initial_state(cell, initial_state, inputs[0].shape.as_list()[0], dtype)
    return _run(cell, inputs, state, sequence_length)


@export("nn.bidirectional_dynamic_rnn")
def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
  """((outputs_fw, outputs_bw), (state_fw, state_bw)); the backward pass reads reversed."""
  inputs = ops.convert_to_tensor(inputs)
  time_axis, batch_axis = (0, 1) if time_major else (1, 0)

  def reverse(x):
    if sequence_length is None:
      return array_ops.reverse(x, [time_axis])
    return slicing.reverse_sequence(x, sequence_length, seq_axis=time_axis,
                                    batch_axis=batch_axis)

  with vs.variable_scope(scope or "bidirectional_rnn"):
    out_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw, dtype,
                                   time_major=time_major, scope="fw")
    out_bw, state_bw = dynamic_rnn(cell_bw, reverse(inputs), sequence_length,
                                   initial_state_bw, dtype, time_major=time_major, scope="bw")
  return (out_fw, reverse(out_bw)), (state_fw, state_bw)


@export("nn.static_bidirectional_rnn", "contrib.rnn.static_bidirectional_rnn")
def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
  """(outputs: per step the forward and backward outputs concatenated, state_fw, state_bw)."""
  if not isinstance(inputs, (list, tuple)):
    raise TypeError("inputs must be a sequence")
  if not inputs:
    raise ValueError("inputs must not be empty")
  (out_fw, out_bw), (state_fw, state_bw) = bidirectional_dynamic_rnn(
      cell_fw, cell_bw, array_ops.stack(list(inputs)), sequence_length, initial_state_fw,
      initial_state_bw, dtype, time_major=True, scope=scope)
  outputs = array_ops.unstack(array_ops.concat([out_fw, out_bw], 2))
  return outputs, state_fw, state_bw


from tfe_compat.nn import cudnn_rnn, rnn_loops  # noqa: E402,F401  pylint: disable=wrong-import-position
