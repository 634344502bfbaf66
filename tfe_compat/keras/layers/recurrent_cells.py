"""Keras RNN cells (TF 1.15 v1 `tf.keras.layers.SimpleRNNCell`, `LSTMCell`, `GRUCell`).

Each built-in cell describes itself to the recurrent scan with `_scan_spec(training)`, a
hashable static description, and `_scan_arrays(inputs, training)`, its weights (and dropout
masks) as Tensors. The pure-JAX math of one cell lives in `project` (the input part, applied
to a whole sequence at once) and `step` (the recurrent part), shared by the single-step
`cell.call` op and the time-loop op in recurrent.py.
"""
import jax
import jax.numpy as jnp

from tfe_compat.eager.tape import replaying
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import activations
from tfe_compat.keras import backend
from tfe_compat.keras import constraints
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import Layer
from tfe_compat.ops import array_ops
from tfe_compat.ops import fast_matmul
from tfe_compat.ops import init_ops


# ---- Activations: static keys for the jitted math ----
def _hard_sigmoid(x):
  return jnp.clip(x * jnp.asarray(0.2, x.dtype) + jnp.asarray(0.5, x.dtype), 0, 1)


JAX_ACTIVATIONS = {
    "tanh": jnp.tanh, "sigmoid": jax.nn.sigmoid, "hard_sigmoid": _hard_sigmoid,
    "relu": jax.nn.relu, "linear": lambda x: x, "elu": jax.nn.elu,
    "selu": jax.nn.selu, "softplus": jax.nn.softplus, "softsign": jax.nn.soft_sign,
    "exponential": jnp.exp,
}


@op(name="Activation")
def _named_activation(x, *, key):
  return JAX_ACTIVATIONS[key](x)


def activation_key(identifier):
  """A hashable key for the jitted math: a name from JAX_ACTIVATIONS, or the callable."""
  if identifier is None:
    return "linear"
  if isinstance(identifier, str):
    if identifier not in JAX_ACTIVATIONS:
      raise ValueError("Unknown activation function: " + identifier)
    return identifier
  for name in JAX_ACTIVATIONS:
    try:
      if activations.get(name) is identifier:
        return name
    except (KeyError, ValueError):
      pass
  return identifier


def activation_fn(key):
  """The Tensor-level activation for a key (tfe's own function when it has one)."""
  if not isinstance(key, str):
    return key
  try:
    fn = activations.get(key)
  except (KeyError, ValueError):
    fn = None
  return fn if fn is not None else (lambda x: _named_activation(ops.convert_to_tensor(x),
                                                                key=key))


def jax_activation(key):
  """The array-level activation for a key; user callables run on tfe Tensors of tracers."""
  if isinstance(key, str):
    return JAX_ACTIVATIONS[key]

  def apply(x):
    with replaying():
      return key(Tensor(x))._value
  return apply


def _serialize(module, obj):
  fn = getattr(module, "serialize", None)
  return fn(obj) if fn is not None and obj is not None else obj


def serialize_activation(key):
  return key if isinstance(key, str) else activations.serialize(key)


# ---- The math of one step (pure JAX; `arrays` = weights then dropout masks) ----
def _unpack(params, arrays):
  """(kernel, recurrent_kernel, bias or None, input masks or None, recurrent masks or None)."""
  use_bias, has_dp, has_rdp = params[-3:]
  it = iter(arrays)
  kernel, recurrent = next(it), next(it)
  bias = next(it) if use_bias else None
  dp = next(it) if has_dp else None
  rdp = next(it) if has_rdp else None
  return kernel, recurrent, bias, dp, rdp


def _gates(x, kernel, masks, n):
  """x @ kernel, each of the n gate blocks seeing x times its own dropout mask."""
  if masks is None:
    return fast_matmul.matmul(x, kernel)
  u = kernel.shape[-1] // n
  return jnp.concatenate([fast_matmul.matmul(x * masks[k], kernel[:, k * u:(k + 1) * u])
                          for k in range(n)], axis=-1)


_GATES = {"simple": 1, "lstm": 4, "gru": 3}


def project(spec, x, arrays):
  """The input part of a step for inputs of any leading shape ([time, batch] or [batch])."""
  kind, params = spec
  kernel, _, bias, dp, _ = _unpack(params, arrays)
  out = _gates(x, kernel, dp, _GATES[kind])
  if bias is not None:
    units = kernel.shape[-1]
    if bias.ndim == 2:  # GRU reset_after: [input bias, recurrent bias]
      bias = bias[0]
    elif bias.shape[0] == 2 * units:  # CuDNN layout: input and recurrent biases
      bias = bias[:units] + bias[units:] if kind == "lstm" else bias[:units]
    out = out + bias
  return out


def step(spec, xp, states, arrays):
  """(output, new states) of one step given the projected input `xp`."""
  kind, params = spec
  _, recurrent, bias, _, rdp = _unpack(params, arrays)
  h = states[0]
  if kind == "simple":
    out = jax_activation(params[0])(xp + _gates(h, recurrent, rdp, 1))
    return out, (out,)
  act, ract = jax_activation(params[0]), jax_activation(params[1])
  if kind == "lstm":
    c = states[1]
    z = xp + _gates(h, recurrent, rdp, 4)
    i, f, g, o = jnp.split(z, 4, axis=-1)
    c = ract(f) * c + ract(i) * act(g)
    h = ract(o) * act(c)
    return h, (h, c)
  units = recurrent.shape[0]
  x_z, x_r, x_h = jnp.split(xp, 3, axis=-1)
  reset_after = params[2]
  if reset_after:
    rec = _gates(h, recurrent, rdp, 3)
    if bias is not None:
      rec = rec + (bias[1] if bias.ndim == 2 else bias[3 * units:])
    r_z, r_r, r_h = jnp.split(rec, 3, axis=-1)
    z, r = ract(x_z + r_z), ract(x_r + r_r)
    hh = act(x_h + r * r_h)
  else:
    m = (None,) * 3 if rdp is None else (rdp[0], rdp[1], rdp[2])
    h_z, h_r, h_h = [h if mk is None else h * mk for mk in m]
    z = ract(x_z + fast_matmul.matmul(h_z, recurrent[:, :units]))
    r = ract(x_r + fast_matmul.matmul(h_r, recurrent[:, units:2 * units]))
    hh = act(x_h + fast_matmul.matmul(r * h_h, recurrent[:, 2 * units:]))
  h = z * states[0] + (1 - z) * hh
  return h, (h,)


@op(name="RNNCellStep")
def _cell_step(x, *arrays, spec, n_states):
  states, rest = arrays[:n_states], arrays[n_states:]
  out, new_states = step(spec, project(spec, x, rest), states, rest)
  return (out,) + tuple(new_states)


@op(name="DropoutMask")
def _dropout_mask(key, *, shape, rate, dtype):
  keep = jax.random.bernoulli(jax.random.wrap_key_data(key), 1.0 - rate, shape)
  return keep.astype(dtype) / jnp.asarray(1.0 - rate, dtype)


def dropout_masks(rate, count, shape, dtype):
  """Keras's per-call dropout masks: `count` masks of `shape` ([batch, dim]), stacked."""
  key = ops.convert_to_tensor(context.next_rng_key())
  return _dropout_mask(key, shape=(count,) + tuple(shape), rate=float(rate),
                       dtype=dtypes.as_dtype(dtype).name)


def _is_training(training):
  if training is None:
    training = backend.learning_phase()
  return bool(training)


# ---- Cells ----
class _Cell(Layer):
  """Shared parts of the three Keras cells (weights, dropout, single-step call)."""

  _KIND = None
  _N_GATES = 1

  def __init__(self, units, activation, recurrent_activation, use_bias, kernel_initializer,
               recurrent_initializer, bias_initializer, kernel_regularizer,
               recurrent_regularizer, bias_regularizer, kernel_constraint,
               recurrent_constraint, bias_constraint, dropout, recurrent_dropout, **kwargs):
    super().__init__(**kwargs)
    self.units = int(units)
    self._activation_key = activation_key(activation)
    self.activation = activation_fn(self._activation_key)
    self._recurrent_key = (None if recurrent_activation is None and self._KIND == "simple"
                           else activation_key(recurrent_activation))
    self.recurrent_activation = (None if self._recurrent_key is None
                                 else activation_fn(self._recurrent_key))
    self.use_bias = use_bias
    self.kernel_initializer = initializers.get(kernel_initializer)
    self.recurrent_initializer = initializers.get(recurrent_initializer)
    self.bias_initializer = initializers.get(bias_initializer)
    self.kernel_regularizer = regularizers.get(kernel_regularizer)
    self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
    self.bias_regularizer = regularizers.get(bias_regularizer)
    self.kernel_constraint = kernel_constraint
    self.recurrent_constraint = recurrent_constraint
    self.bias_constraint = bias_constraint
    self.dropout = min(1., max(0., dropout))
    self.recurrent_dropout = min(1., max(0., recurrent_dropout))

  def _bias_shape(self):
    return (self._N_GATES * self.units,)

  def _bias_init(self):
    return self.bias_initializer

  def build(self, input_shape):
    input_dim = input_shape[-1]
    input_dim = getattr(input_dim, "value", input_dim)
    n = self._N_GATES * self.units
    self.kernel = self.add_weight(shape=(input_dim, n), name="kernel",
                                  initializer=self.kernel_initializer,
                                  regularizer=self.kernel_regularizer,
                                  constraint=self.kernel_constraint)
    self.recurrent_kernel = self.add_weight(shape=(self.units, n), name="recurrent_kernel",
                                            initializer=self.recurrent_initializer,
                                            regularizer=self.recurrent_regularizer,
                                            constraint=self.recurrent_constraint)
    self.bias = self.add_weight(shape=self._bias_shape(), name="bias",
                                initializer=self._bias_init(),
                                regularizer=self.bias_regularizer,
                                constraint=self.bias_constraint) if self.use_bias else None
    self.built = True

  def _params(self):
    return (self._activation_key,)

  def _uses_dropout(self, training):
    training = _is_training(training)
    return training and 0 < self.dropout < 1, training and 0 < self.recurrent_dropout < 1

  def _scan_parts(self, batch, input_dim, dtype, training=None):
    """(static spec, weight and dropout-mask Tensors, output size) for the scan op."""
    has_dp, has_rdp = self._uses_dropout(training)
    arrays = [ops.convert_to_tensor(self.kernel), ops.convert_to_tensor(self.recurrent_kernel)]
    if self.use_bias:
      arrays.append(ops.convert_to_tensor(self.bias))
    n = self._N_GATES
    if has_dp:
      arrays.append(dropout_masks(self.dropout, n, (batch, input_dim), dtype))
    if has_rdp:
      arrays.append(dropout_masks(self.recurrent_dropout, n, (batch, self.units), dtype))
    spec = (self._KIND, self._params() + (self.use_bias, has_dp, has_rdp))
    return spec, arrays, self.units

  def call(self, inputs, states, training=None):
    states = list(states) if isinstance(states, (list, tuple)) else [states]
    states = [ops.convert_to_tensor(s) for s in states]
    batch, input_dim = inputs.shape.as_list()
    spec, arrays, _ = self._scan_parts(batch, input_dim, inputs.dtype, training)
    out = _cell_step(inputs, *states, *arrays, spec=spec, n_states=len(states))
    return out[0], list(out[1:])

  def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
    if inputs is not None:
      batch_size = inputs.shape.as_list()[0]
      dtype = inputs.dtype
    sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else [self.state_size]
    zeros = [array_ops.zeros([batch_size, s], dtype=dtype or dtypes.float32) for s in sizes]
    return zeros if len(zeros) > 1 else zeros[0]

  def get_config(self):
    config = {"units": self.units,
              "activation": serialize_activation(self._activation_key),
              "use_bias": self.use_bias,
              "kernel_initializer": _serialize(initializers, self.kernel_initializer),
              "recurrent_initializer": _serialize(initializers, self.recurrent_initializer),
              "bias_initializer": _serialize(initializers, self.bias_initializer),
              "kernel_regularizer": _serialize(regularizers, self.kernel_regularizer),
              "recurrent_regularizer": _serialize(regularizers, self.recurrent_regularizer),
              "bias_regularizer": _serialize(regularizers, self.bias_regularizer),
              "kernel_constraint": _serialize(constraints, self.kernel_constraint),
              "recurrent_constraint": _serialize(constraints, self.recurrent_constraint),
              "bias_constraint": _serialize(constraints, self.bias_constraint),
              "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout}
    if self._recurrent_key is not None:
      config["recurrent_activation"] = serialize_activation(self._recurrent_key)
    config.update(super().get_config())
    return config


@export("keras.layers.SimpleRNNCell")
class SimpleRNNCell(_Cell):
  """`output = activation(x @ kernel + bias + h @ recurrent_kernel)`."""

  _KIND = "simple"

  def __init__(self, units, activation="tanh", use_bias=True,
               kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
               bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
               bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
               bias_constraint=None, dropout=0., recurrent_dropout=0., **kwargs):
    super().__init__(units, activation, None, use_bias, kernel_initializer,
                     recurrent_initializer, bias_initializer, kernel_regularizer,
                     recurrent_regularizer, bias_regularizer, kernel_constraint,
                     recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                     **kwargs)
    self.state_size = self.output_size = self.units


@export("keras.layers.LSTMCell")
class LSTMCell(_Cell):
  """TF 1.15's v1 LSTMCell: gates i, f, c, o; recurrent_activation='hard_sigmoid'."""

  _KIND = "lstm"
  _N_GATES = 4

  def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid",
               use_bias=True, kernel_initializer="glorot_uniform",
               recurrent_initializer="orthogonal", bias_initializer="zeros",
               unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
               bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
               bias_constraint=None, dropout=0., recurrent_dropout=0., implementation=1,
               **kwargs):
    super().__init__(units, activation, recurrent_activation, use_bias, kernel_initializer,
                     recurrent_initializer, bias_initializer, kernel_regularizer,
                     recurrent_regularizer, bias_regularizer, kernel_constraint,
                     recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                     **kwargs)
    self.unit_forget_bias = unit_forget_bias
    self.implementation = implementation
    self.state_size = [self.units, self.units]
    self.output_size = self.units

  def _params(self):
    return (self._activation_key, self._recurrent_key)

  def _bias_init(self):
    if not self.unit_forget_bias:
      return self.bias_initializer
    units, base = self.units, self.bias_initializer

    def initializer(shape, dtype=None, **kwargs):
      return array_ops.concat([base((units,), dtype=dtype), init_ops.Ones()((units,), dtype),
                               base((units * 2,), dtype=dtype)], axis=0)
    return initializer

  def get_config(self):
    config = super().get_config()
    config.update(unit_forget_bias=self.unit_forget_bias, implementation=self.implementation)
    return config


@export("keras.layers.GRUCell")
class GRUCell(_Cell):
  """TF 1.15's v1 GRUCell: gates z, r, h; reset_after=False by default."""

  _KIND = "gru"
  _N_GATES = 3

  def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid",
               use_bias=True, kernel_initializer="glorot_uniform",
               recurrent_initializer="orthogonal", bias_initializer="zeros",
               kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
               kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
               dropout=0., recurrent_dropout=0., implementation=1, reset_after=False,
               **kwargs):
    super().__init__(units, activation, recurrent_activation, use_bias, kernel_initializer,
                     recurrent_initializer, bias_initializer, kernel_regularizer,
                     recurrent_regularizer, bias_regularizer, kernel_constraint,
                     recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                     **kwargs)
    self.implementation = implementation
    self.reset_after = reset_after
    self.state_size = self.output_size = self.units

  def _params(self):
    return (self._activation_key, self._recurrent_key, self.reset_after)

  def _bias_shape(self):
    return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

  def get_config(self):
    config = super().get_config()
    config.update(implementation=self.implementation, reset_after=self.reset_after)
    return config


def _zero_state(batch_size, state_size, dtype):
  """Zeros of shape [batch_size] + size for each (possibly nested) state size."""
  if batch_size is None or dtype is None:
    raise ValueError("batch_size and dtype cannot be None while constructing initial state: "
                     "batch_size={}, dtype={}".format(batch_size, dtype))

  def zeros(size):
    return array_ops.zeros([batch_size] + tensor_shape.TensorShape(size).as_list(),
                           dtype=dtype)

  if isinstance(state_size, (list, tuple)):
    return jax.tree_util.tree_map(zeros, state_size, is_leaf=lambda s: not isinstance(
        s, (list, tuple)))
  return zeros(state_size)


@export("keras.layers.AbstractRNNCell")
class AbstractRNNCell(Layer):
  """Base class of custom RNN cells: subclasses define `call(inputs, states)` returning
  `(output, new_states)`, and the `state_size` and `output_size` properties."""

  def call(self, inputs, states):
    raise NotImplementedError("Abstract method")

  @property
  def state_size(self):
    raise NotImplementedError("Abstract method")

  @property
  def output_size(self):
    raise NotImplementedError("Abstract method")

  def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
    if inputs is not None:
      batch_size = inputs.shape.as_list()[0]
      dtype = inputs.dtype
    return _zero_state(batch_size, self.state_size, dtype)
