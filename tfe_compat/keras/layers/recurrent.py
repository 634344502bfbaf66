"""Keras recurrent layers (TF 1.15 v1): RNN, StackedRNNCells, SimpleRNN, LSTM, GRU, CuDNN*.

Built-in cells (and stacks of them) run the whole time loop as ONE op whose implementation
is a `jax.lax.scan` over time taking the weights as inputs: an eager call dispatches one
compiled computation and GradientTape records one op. User cells run a Python loop over time
calling `cell.call`. As in TF 1.15, the cell's weights are named under the RNN layer's
scope without the cell's name (`lstm/kernel:0`; TF 2.3+ says `lstm/lstm_cell/kernel:0`).
The v1 defaults apply: LSTM/GRU `recurrent_activation='hard_sigmoid'`, GRU
`reset_after=False`, `implementation=1`.
"""
import jax
import jax.numpy as jnp

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import InputSpec, Layer, _call_parameters
from tfe_compat.keras.layers import recurrent_cells
from tfe_compat.keras.layers.recurrent_cells import GRUCell, LSTMCell, SimpleRNNCell
from tfe_compat.ops import array_ops
from tfe_compat.ops import init_ops
from tfe_compat.ops import matmul_cast_ops
from tfe_compat.variable_scope import name_scope


# ---- The time loop ----
def _project(spec, x, arrays):
  if spec[0] != "stacked":
    return recurrent_cells.project(spec, x, arrays)
  first, n_arrays, _ = spec[1][0]
  return recurrent_cells.project(first, x, arrays[:n_arrays])


def _step(spec, xp, states, arrays):
  if spec[0] != "stacked":
    return recurrent_cells.step(spec, xp, states, arrays)
  new_states, a, s, out = [], 0, 0, None
  for k, (cell_spec, n_arrays, n_states) in enumerate(spec[1]):
    cell_arrays = arrays[a:a + n_arrays]
    p = xp if k == 0 else recurrent_cells.project(cell_spec, out, cell_arrays)
    out, cell_states = recurrent_cells.step(cell_spec, p, states[s:s + n_states], cell_arrays)
    new_states += list(cell_states)
    a, s = a + n_arrays, s + n_states
  return out, tuple(new_states)


@op(name="RNNScan")
def _rnn_scan(inputs, *arrays, spec, n_states, masked, go_backwards, time_major,
              return_sequences, zero_output_for_mask, out_dim):
  """(output sequence or last output, *final states) of running the cell over time."""
  states, rest = tuple(arrays[:n_states]), arrays[n_states:]
  xs = inputs if time_major else jnp.swapaxes(inputs, 0, 1)
  if go_backwards:
    xs = xs[::-1]
  xp = _project(spec, xs, rest[:-1] if masked else rest)
  if masked:
    rest, mask = rest[:-1], rest[-1].astype(bool)
    mask = mask if time_major else jnp.swapaxes(mask, 0, 1)
    xp = (xp, mask[::-1] if go_backwards else mask)

  def body(carry, inp):
    prev, st = carry
    x_t, m_t = inp if masked else (inp, None)
    out, new = _step(spec, x_t, st, rest)
    if masked:
      m = m_t[:, None]
      out = jnp.where(m, out, jnp.zeros_like(out) if zero_output_for_mask else prev)
      new = tuple(jnp.where(m, n, s) for n, s in zip(new, st))
    return (out, tuple(new)), (out if return_sequences else None)

  out0 = jnp.zeros((xs.shape[1], out_dim), inputs.dtype)
  (last, final), seq = jax.lax.scan(body, (out0, states), xp)
  if return_sequences:
    last = seq if time_major else jnp.swapaxes(seq, 0, 1)
  return (last,) + tuple(final)


def _flat_sizes(state_size):
  if isinstance(state_size, (list, tuple)):
    return [s for item in state_size for s in _flat_sizes(item)]
  return [getattr(state_size, "value", state_size)]


def _flatten(states):
  return jax.tree_util.tree_leaves(states, is_leaf=lambda x: not isinstance(x, (list, tuple)))


def _is_scannable(cell):
  if isinstance(cell, StackedRNNCells):
    return all(_is_scannable(c) for c in cell.cells)
  return hasattr(cell, "_scan_parts")


def _build_cell(cell, shape):
  if isinstance(cell, Layer) and not cell.built:
    cell.build(shape)
    cell.built = True


# ---- Layers ----
@export("keras.layers.StackedRNNCells")
class StackedRNNCells(Layer):
  """A stack of cells acting as one cell (states flat, in cell order).

  Each cell builds under its own name scope (`rnn/lstm_cell/kernel:0`,
  `rnn/lstm_cell_1/kernel:0`): TF 1.15 gave both cells the same names.
  """

  def __init__(self, cells, **kwargs):
    for cell in cells:
      if not hasattr(cell, "call"):
        raise ValueError("All cells must have a `call` method. received cells:", cells)
      if not hasattr(cell, "state_size"):
        raise ValueError("All cells must have a `state_size` attribute. received cells:",
                         cells)
    self.cells = list(cells)
    self.reverse_state_order = kwargs.pop("reverse_state_order", False)
    if self.reverse_state_order:
      raise NotImplementedError("tfe_compat: StackedRNNCells(reverse_state_order=True) is "
                                "not supported.")
    super().__init__(**kwargs)

  @property
  def state_size(self):
    return tuple(cell.state_size for cell in self.cells)

  @property
  def output_size(self):
    last = self.cells[-1]
    if getattr(last, "output_size", None) is not None:
      return last.output_size
    return _flat_sizes(last.state_size)[0]

  def build(self, input_shape):
    input_shape = tuple(input_shape)
    for cell in self.cells:
      with name_scope(cell.name):
        _build_cell(cell, input_shape)
      output_dim = getattr(cell, "output_size", None) or _flat_sizes(cell.state_size)[0]
      input_shape = (input_shape[0], output_dim)
    self.built = True

  def call(self, inputs, states, constants=None, training=None):
    states, new_states = list(_flatten(states)), []
    for cell in self.cells:
      n = len(_flat_sizes(cell.state_size))
      cell_states, states = states[:n], states[n:]
      kwargs = {}
      accepts_training, _, _ = _call_parameters(type(cell))
      if accepts_training:
        kwargs["training"] = training
      if constants is not None:
        kwargs["constants"] = constants
      inputs, cell_states = cell.call(inputs, cell_states, **kwargs)
      new_states += _flatten(cell_states)
    return inputs, new_states

  def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
    states = []
    for cell in self.cells:
      if hasattr(cell, "get_initial_state"):
        states += _flatten(cell.get_initial_state(inputs, batch_size, dtype))
      else:
        states += [array_ops.zeros([batch_size, s], dtype or dtypes.float32)
                   for s in _flat_sizes(cell.state_size)]
    return states

  def _scan_parts(self, batch, input_dim, dtype, training=None):
    specs, arrays, out_dim = [], [], input_dim
    for cell in self.cells:
      spec, cell_arrays, out_dim = cell._scan_parts(batch, out_dim, dtype, training)
      specs.append((spec, len(cell_arrays), len(_flat_sizes(cell.state_size))))
      arrays += cell_arrays
    return ("stacked", tuple(specs)), arrays, out_dim

  def get_config(self):
    config = super().get_config()
    config["cells"] = [{"class_name": type(c).__name__, "config": c.get_config()}
                       for c in self.cells]
    return config

  @classmethod
  def from_config(cls, config, custom_objects=None):
    config = dict(config)
    cells = [deserialize_cell(c, custom_objects) for c in config.pop("cells")]
    return cls(cells, **config)


_CELLS = {"SimpleRNNCell": SimpleRNNCell, "LSTMCell": LSTMCell, "GRUCell": GRUCell,
          "StackedRNNCells": StackedRNNCells}


def deserialize_cell(config, custom_objects=None):
  """A cell from `{'class_name': ..., 'config': ...}` (built-in cells or custom_objects)."""
  classes = dict(_CELLS, **(custom_objects or {}))
  if config["class_name"] not in classes:
    raise ValueError("Unknown layer: " + config["class_name"])
  cls = classes[config["class_name"]]
  if cls is StackedRNNCells:
    return cls.from_config(config["config"], custom_objects)
  return cls.from_config(config["config"])


@export("keras.layers.RNN")
class RNN(Layer):
  """Runs a cell over the time axis (`stateful=True` is not supported)."""

  def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
               stateful=False, unroll=False, time_major=False, **kwargs):
    if isinstance(cell, (list, tuple)):
      cell = StackedRNNCells(cell)
    if not hasattr(cell, "call"):
      raise ValueError("`cell` should have a `call` method. The RNN was passed:", cell)
    if not hasattr(cell, "state_size"):
      raise ValueError("The RNN cell should have an attribute `state_size` (tuple of "
                       "integers, one integer per RNN state).")
    if stateful:
      raise NotImplementedError("tfe_compat: stateful=True recurrent layers are not "
                                "supported; pass `initial_state` explicitly instead.")
    self.zero_output_for_mask = kwargs.pop("zero_output_for_mask", False)
    super().__init__(**kwargs)
    self.cell = cell
    self.return_sequences = return_sequences
    self.return_state = return_state
    self.go_backwards = go_backwards
    self.stateful = stateful
    self.unroll = unroll
    self.time_major = time_major
    self.supports_masking = True
    self.input_spec = [InputSpec(ndim=3)]
    self._num_constants = None

  @property
  def states(self):
    return [None] * len(_flat_sizes(self.cell.state_size))

  def reset_states(self, states=None):
    raise AttributeError("Layer must be stateful.")

  def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
    if initial_state is None and constants is None:
      return super().__call__(inputs, **kwargs)
    full = [inputs] + _flatten(initial_state if initial_state is not None else [])
    if constants is not None:
      constants = _flatten(constants)
      full += constants
      self._num_constants = len(constants)
    return super().__call__(full, **kwargs)

  def build(self, input_shape):
    if isinstance(input_shape, (list, tuple)) and hasattr(input_shape[0], "as_list"):
      input_shape = input_shape[0]
    shape = [getattr(d, "value", d) for d in input_shape]
    step_shape = tuple(shape[1:2] + shape[2:]) if self.time_major else tuple(
        shape[:1] + shape[2:])
    _build_cell(self.cell, step_shape)
    self.built = True

  def get_initial_state(self, inputs):
    batch = inputs.shape.as_list()[1 if self.time_major else 0]
    if hasattr(self.cell, "get_initial_state"):
      return _flatten(self.cell.get_initial_state(inputs=None, batch_size=batch,
                                                  dtype=inputs.dtype))
    return [array_ops.zeros([batch, s], inputs.dtype) for s in _flat_sizes(self.cell.state_size)]

  def call(self, inputs, mask=None, training=None, initial_state=None, constants=None):
    if isinstance(inputs, (list, tuple)):
      n_const = self._num_constants or 0
      if n_const:
        constants = list(inputs[len(inputs) - n_const:])
      initial_state = list(inputs[1:len(inputs) - n_const]) or initial_state
      inputs = inputs[0]
    if isinstance(mask, (list, tuple)):
      mask = mask[0]
    n_states = len(_flat_sizes(self.cell.state_size))
    if initial_state is not None:
      states = [ops.convert_to_tensor(s) for s in _flatten(initial_state)]
      if len(states) != n_states:
        raise ValueError("An `initial_state` was passed that is not compatible with "
                         "`cell.state_size`. Received `state_spec`=%d states; however "
                         "`cell.state_size` is %s" % (len(states), self.cell.state_size))
    else:
      states = self.get_initial_state(inputs)
    if mask is not None:
      mask = ops.convert_to_tensor(mask)
    if _is_scannable(self.cell) and constants is None:
      output, states = self._scan(inputs, states, mask, training)
    else:
      output, states = self._loop(inputs, states, mask, training, constants)
    if self.return_state:  # states nested like cell.state_size, as TF 1.15 returns them
      nested = jax.tree_util.tree_unflatten(
          jax.tree_util.tree_structure(self.cell.state_size), list(states))
      return [output] + (list(nested) if isinstance(nested, (list, tuple)) else [nested])
    return output

  def _scan(self, inputs, states, mask, training):
    shape = inputs.shape.as_list()
    batch = shape[1] if self.time_major else shape[0]
    spec, arrays, out_dim = self.cell._scan_parts(batch, shape[-1], inputs.dtype, training)
    out = _rnn_scan(inputs, *states, *arrays, *([mask] if mask is not None else []),
                    spec=spec, n_states=len(states), masked=mask is not None,
                    go_backwards=bool(self.go_backwards), time_major=bool(self.time_major),
                    return_sequences=bool(self.return_sequences),
                    zero_output_for_mask=bool(self.zero_output_for_mask), out_dim=out_dim)
    return out[0], out[1:]

  def _loop(self, inputs, states, mask, training, constants):
    """The time loop in Python, calling a user cell's `call` once per step."""
    cell = self.cell
    steps = array_ops.unstack(inputs, axis=0 if self.time_major else 1)
    masks = None if mask is None else array_ops.unstack(mask, axis=1)
    if self.go_backwards:
      steps = steps[::-1]
      masks = None if masks is None else masks[::-1]
    kwargs = {}
    accepts_training, _, accepts_any = _call_parameters(type(cell))
    if accepts_training or accepts_any:
      kwargs["training"] = training
    if constants is not None:
      kwargs["constants"] = constants
    single = not isinstance(cell.state_size, (list, tuple))
    tf1_cell = getattr(cell, "_is_tf_rnn_cell", False)
    treedef = jax.tree_util.tree_structure(cell.state_size)
    outputs, prev = [], None
    for t, x in enumerate(steps):
      if single:
        packed = states[0] if tf1_cell else [states[0]]
      else:
        packed = jax.tree_util.tree_unflatten(treedef, list(states))
      out, new_states = cell.call(x, packed, **kwargs)
      new_states = _flatten(new_states)
      if masks is not None:
        m = array_ops.expand_dims(masks[t], -1)
        keep = array_ops.zeros_like(out) if prev is None or self.zero_output_for_mask else prev
        out = matmul_cast_ops.where_v2(m, out, keep)
        new_states = [matmul_cast_ops.where_v2(m, n, s) for n, s in zip(new_states, states)]
      outputs.append(out)
      prev, states = out, new_states
    if not self.return_sequences:
      return prev, states
    return array_ops.stack(outputs, axis=0 if self.time_major else 1), states

  def get_config(self):
    config = {"return_sequences": self.return_sequences, "return_state": self.return_state,
              "go_backwards": self.go_backwards, "stateful": self.stateful,
              "unroll": self.unroll, "time_major": self.time_major}
    if self._num_constants is not None:
      config["num_constants"] = self._num_constants
    config["cell"] = {"class_name": type(self.cell).__name__,
                      "config": self.cell.get_config()}
    config.update(super().get_config())
    return config

  @classmethod
  def from_config(cls, config, custom_objects=None):
    config = dict(config)
    num_constants = config.pop("num_constants", None)
    layer = cls(deserialize_cell(config.pop("cell"), custom_objects), **config)
    layer._num_constants = num_constants
    return layer


_FORWARDED = frozenset((
    "units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
    "recurrent_initializer", "bias_initializer", "unit_forget_bias", "kernel_regularizer",
    "recurrent_regularizer", "bias_regularizer", "kernel_constraint", "recurrent_constraint",
    "bias_constraint", "dropout", "recurrent_dropout", "implementation", "reset_after",
    "kernel", "recurrent_kernel", "bias"))


class _CellLayer(RNN):
  """An RNN owning one built-in cell; its arguments read through to the cell."""

  _CELL = None

  def __init__(self, cell_kwargs, rnn_kwargs, activity_regularizer, kwargs):
    if cell_kwargs["units"] <= 0:
      raise ValueError("Received an invalid value for argument `units`, expected a positive "
                       "integer, got %s." % cell_kwargs["units"])
    cell = self._CELL(dtype=kwargs.get("dtype"), **cell_kwargs)
    super().__init__(cell, **rnn_kwargs, **kwargs)
    self.activity_regularizer = regularizers.get(activity_regularizer)
    self.input_spec = [InputSpec(ndim=3)]

  def __getattr__(self, name):
    if name in _FORWARDED and "cell" in self.__dict__:
      return getattr(self.__dict__["cell"], name)
    raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

  def get_config(self):
    config = self.cell.get_config()
    for key in ("name", "trainable", "dtype"):
      config.pop(key, None)
    base = super().get_config()
    del base["cell"]
    config.update(base)
    config["activity_regularizer"] = recurrent_cells._serialize(regularizers,
                                                                self.activity_regularizer)
    return config

  @classmethod
  def from_config(cls, config):
    return cls(**config)


def _rnn_args(return_sequences, return_state, go_backwards, stateful, unroll):
  return dict(return_sequences=return_sequences, return_state=return_state,
              go_backwards=go_backwards, stateful=stateful, unroll=unroll)


@export("keras.layers.SimpleRNN")
class SimpleRNN(_CellLayer):
  """Fully-connected RNN whose output is fed back as input."""

  _CELL = SimpleRNNCell

  def __init__(self, units, activation="tanh", use_bias=True,
               kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
               bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
               bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
               recurrent_constraint=None, bias_constraint=None, dropout=0.,
               recurrent_dropout=0., return_sequences=False, return_state=False,
               go_backwards=False, stateful=False, unroll=False, **kwargs):
    cell_kwargs = dict(units=units, activation=activation, use_bias=use_bias,
                       kernel_initializer=kernel_initializer,
                       recurrent_initializer=recurrent_initializer,
                       bias_initializer=bias_initializer,
                       kernel_regularizer=kernel_regularizer,
                       recurrent_regularizer=recurrent_regularizer,
                       bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                       recurrent_constraint=recurrent_constraint,
                       bias_constraint=bias_constraint, dropout=dropout,
                       recurrent_dropout=recurrent_dropout)
    super().__init__(cell_kwargs, _rnn_args(return_sequences, return_state, go_backwards,
                                            stateful, unroll), activity_regularizer, kwargs)


@export("keras.layers.LSTM")
class LSTM(_CellLayer):
  """Long Short-Term Memory layer (TF 1.15 v1 defaults: recurrent_activation='hard_sigmoid')."""

  _CELL = LSTMCell

  def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid",
               use_bias=True, kernel_initializer="glorot_uniform",
               recurrent_initializer="orthogonal", bias_initializer="zeros",
               unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
               bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
               recurrent_constraint=None, bias_constraint=None, dropout=0.,
               recurrent_dropout=0., implementation=1, return_sequences=False,
               return_state=False, go_backwards=False, stateful=False, unroll=False,
               **kwargs):
    cell_kwargs = dict(units=units, activation=activation,
                       recurrent_activation=recurrent_activation, use_bias=use_bias,
                       kernel_initializer=kernel_initializer,
                       recurrent_initializer=recurrent_initializer,
                       bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
                       kernel_regularizer=kernel_regularizer,
                       recurrent_regularizer=recurrent_regularizer,
                       bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                       recurrent_constraint=recurrent_constraint,
                       bias_constraint=bias_constraint, dropout=dropout,
                       recurrent_dropout=recurrent_dropout, implementation=implementation)
    super().__init__(cell_kwargs, _rnn_args(return_sequences, return_state, go_backwards,
                                            stateful, unroll), activity_regularizer, kwargs)


@export("keras.layers.GRU")
class GRU(_CellLayer):
  """Gated Recurrent Unit layer (TF 1.15 v1 defaults: reset_after=False, hard_sigmoid)."""

  _CELL = GRUCell

  def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid",
               use_bias=True, kernel_initializer="glorot_uniform",
               recurrent_initializer="orthogonal", bias_initializer="zeros",
               kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
               bias_constraint=None, dropout=0., recurrent_dropout=0., implementation=1,
               return_sequences=False, return_state=False, go_backwards=False, stateful=False,
               unroll=False, reset_after=False, **kwargs):
    cell_kwargs = dict(units=units, activation=activation,
                       recurrent_activation=recurrent_activation, use_bias=use_bias,
                       kernel_initializer=kernel_initializer,
                       recurrent_initializer=recurrent_initializer,
                       bias_initializer=bias_initializer,
                       kernel_regularizer=kernel_regularizer,
                       recurrent_regularizer=recurrent_regularizer,
                       bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                       recurrent_constraint=recurrent_constraint,
                       bias_constraint=bias_constraint, dropout=dropout,
                       recurrent_dropout=recurrent_dropout, implementation=implementation,
                       reset_after=reset_after)
    super().__init__(cell_kwargs, _rnn_args(return_sequences, return_state, go_backwards,
                                            stateful, unroll), activity_regularizer, kwargs)


# ---- CuDNN layers: the same math with CuDNN's fixed activations and bias layout ----
class _CuDNNLSTMCell(LSTMCell):
  """LSTM cell with tanh/sigmoid and CuDNN's bias [input biases (4u), recurrent (4u)]."""

  def _bias_shape(self):
    return (8 * self.units,)

  def _bias_init(self):
    if not self.unit_forget_bias:
      return self.bias_initializer
    units, base = self.units, self.bias_initializer

    def initializer(shape, dtype=None, **kwargs):
      return array_ops.concat([base((units * 5,), dtype=dtype),
                               init_ops.Ones()((units,), dtype),
                               base((units * 2,), dtype=dtype)], axis=0)
    return initializer


class _CuDNNGRUCell(GRUCell):
  """GRU cell (reset_after) with CuDNN's bias [input biases (3u), recurrent biases (3u)]."""

  def _bias_shape(self):
    return (6 * self.units,)


def _cudnn_cell_kwargs(units, kernel_initializer, recurrent_initializer, bias_initializer,
                       kernel_regularizer, recurrent_regularizer, bias_regularizer,
                       kernel_constraint, recurrent_constraint, bias_constraint):
  return dict(units=units, activation="tanh", recurrent_activation="sigmoid",
              kernel_initializer=kernel_initializer,
              recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
              kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
              bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
              recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint)


class _CuDNNLayer(_CellLayer):

  def get_config(self):
    config = super().get_config()
    for key in ("activation", "recurrent_activation", "use_bias", "dropout",
                "recurrent_dropout", "implementation", "reset_after", "unroll", "time_major"):
      config.pop(key, None)
    return config


@export("keras.layers.CuDNNLSTM")
class CuDNNLSTM(_CuDNNLayer):
  """CuDNN-compatible LSTM (tanh, sigmoid, bias of 8*units); runs on any device here."""

  _CELL = _CuDNNLSTMCell

  def __init__(self, units, kernel_initializer="glorot_uniform",
               recurrent_initializer="orthogonal", bias_initializer="zeros",
               unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
               bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
               recurrent_constraint=None, bias_constraint=None, return_sequences=False,
               return_state=False, go_backwards=False, stateful=False, **kwargs):
    cell_kwargs = _cudnn_cell_kwargs(units, kernel_initializer, recurrent_initializer,
                                     bias_initializer, kernel_regularizer,
                                     recurrent_regularizer, bias_regularizer, kernel_constraint,
                                     recurrent_constraint, bias_constraint)
    cell_kwargs.update(unit_forget_bias=unit_forget_bias, name="cudnn_lstm_cell")
    super().__init__(cell_kwargs, _rnn_args(return_sequences, return_state, go_backwards,
                                            stateful, False), activity_regularizer, kwargs)


@export("keras.layers.CuDNNGRU")
class CuDNNGRU(_CuDNNLayer):
  """CuDNN-compatible GRU (reset_after, tanh, sigmoid, bias of 6*units); any device here."""

  _CELL = _CuDNNGRUCell

  def __init__(self, units, kernel_initializer="glorot_uniform",
               recurrent_initializer="orthogonal", bias_initializer="zeros",
               kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
               bias_constraint=None, return_sequences=False, return_state=False,
               go_backwards=False, stateful=False, **kwargs):
    cell_kwargs = _cudnn_cell_kwargs(units, kernel_initializer, recurrent_initializer,
                                     bias_initializer, kernel_regularizer,
                                     recurrent_regularizer, bias_regularizer, kernel_constraint,
                                     recurrent_constraint, bias_constraint)
    cell_kwargs.update(reset_after=True, name="cudnn_gru_cell")
    super().__init__(cell_kwargs, _rnn_args(return_sequences, return_state, go_backwards,
                                            stateful, False), activity_regularizer, kwargs)
