"""Convolutional recurrent layers (TF 1.15): ConvLSTM2D.

The whole time loop is one op: the input convolutions of every step run at once, then a
`jax.lax.scan` applies the recurrent convolutions, so GradientTape records one op. As with
TF 1.15's v1 recurrent layers, the weights are named under the layer's scope
(`conv_lst_m2d/kernel:0`, `.../recurrent_kernel:0`, `.../bias:0`).
"""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat import variables as variables_lib
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.keras import constraints
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import InputSpec, Layer
from tfe_compat.keras.layers import recurrent_cells
from tfe_compat.keras.layers.conv_utils import (normalize_data_format, normalize_padding,
                                                normalize_tuple)
from tfe_compat.keras.layers.core import is_training
from tfe_compat.ops import array_ops
from tfe_compat.ops import fast_conv
from tfe_compat.ops import init_ops


def conv_output_length(input_length, filter_size, padding, stride, dilation=1):
  """Keras's conv_utils.conv_output_length for "valid" and "same"."""
  if input_length is None:
    return None
  dilated = (filter_size - 1) * dilation + 1
  length = input_length - dilated + 1 if padding == "valid" else input_length
  return (length + stride - 1) // stride


def _conv(x, w, strides, padding, dilation):
  return fast_conv.conv(x, w, (tuple(strides), padding, None, tuple(dilation),
                               ("NHWC", "HWIO", "NHWC"), 1))


def _gated_conv(x, w, masks, strides, padding, dilation):
  """conv(x, w) where gate block g of w sees x * masks[g] (masks may be None)."""
  if masks is None:
    return _conv(x, w, strides, padding, dilation)
  f = w.shape[-1] // 4
  return jnp.concatenate([_conv(x * masks[g], w[..., g * f:(g + 1) * f], strides, padding,
                                dilation) for g in range(4)], axis=-1)


@op(name="ConvLSTM2D")
def _conv_lstm(inputs, h0, c0, kernel, recurrent_kernel, *rest, use_bias, has_dp, has_rdp,
               masked, strides, padding, dilation, channels_first, activation,
               recurrent_activation, go_backwards, return_sequences):
  """(outputs, final h, final c) of a ConvLSTM over inputs (batch, time, ...)."""
  rest = list(rest)
  bias = rest.pop(0) if use_bias else None
  dp = rest.pop(0) if has_dp else None
  rdp = rest.pop(0) if has_rdp else None
  mask = rest.pop(0).astype(bool) if masked else None
  act = recurrent_cells.jax_activation(activation)
  ract = recurrent_cells.jax_activation(recurrent_activation)
  x = inputs
  if channels_first:  # compute channels_last
    x = jnp.moveaxis(x, 2, -1)
    h0, c0 = jnp.moveaxis(h0, 1, -1), jnp.moveaxis(c0, 1, -1)
    dp = None if dp is None else jnp.moveaxis(dp, 2, -1)
    rdp = None if rdp is None else jnp.moveaxis(rdp, 2, -1)
  xs = jnp.swapaxes(x, 0, 1)  # (time, batch, rows, cols, channels)
  if go_backwards:
    xs = xs[::-1]
  steps, batch = xs.shape[:2]
  if dp is not None:
    dp = dp[:, None]  # the same masks at every step
  flat = xs.reshape((steps * batch,) + xs.shape[2:])
  if dp is None:
    xp = _conv(flat, kernel, strides, padding, dilation)
  else:
    f = kernel.shape[-1] // 4
    xp = jnp.concatenate([_conv((xs * dp[g]).reshape(flat.shape),
                                kernel[..., g * f:(g + 1) * f], strides, padding, dilation)
                          for g in range(4)], axis=-1)
  if bias is not None:
    xp = xp + bias
  xp = xp.reshape((steps, batch) + xp.shape[1:])
  scan_inputs = xp
  if masked:
    mask = jnp.swapaxes(mask, 0, 1)
    scan_inputs = (xp, mask[::-1] if go_backwards else mask)

  def step(carry, inp):
    prev, h, c = carry
    x_t, m_t = inp if masked else (inp, None)
    z = x_t + _gated_conv(h, recurrent_kernel, rdp, (1, 1), "SAME", (1, 1))
    i, f, g, o = jnp.split(z, 4, axis=-1)
    new_c = ract(f) * c + ract(i) * act(g)
    new_h = ract(o) * act(new_c)
    out = new_h
    if masked:
      m = m_t[:, None, None, None]
      out = jnp.where(m, new_h, prev)
      new_h, new_c = jnp.where(m, new_h, h), jnp.where(m, new_c, c)
    return (out, new_h, new_c), (out if return_sequences else None)

  (last, h, c), seq = jax.lax.scan(step, (jnp.zeros_like(h0), h0, c0), scan_inputs)
  out = jnp.swapaxes(seq, 0, 1) if return_sequences else last
  if channels_first:
    out = jnp.moveaxis(out, -1, 2 if return_sequences else 1)
    h, c = jnp.moveaxis(h, -1, 1), jnp.moveaxis(c, -1, 1)
  return out, h, c


class _States:
  """Holds a stateful layer's state Variables out of its weights (as Keras keeps them)."""

  def __init__(self):
    self.variables = []


@export("keras.layers.ConvLSTM2D")
class ConvLSTM2D(Layer):
  """LSTM whose input and recurrent transformations are 2-D convolutions, over inputs
  (batch, time, rows, cols, channels) (or (batch, time, channels, rows, cols))."""

  def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
               dilation_rate=(1, 1), activation="tanh", recurrent_activation="hard_sigmoid",
               use_bias=True, kernel_initializer="glorot_uniform",
               recurrent_initializer="orthogonal", bias_initializer="zeros",
               unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
               bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
               recurrent_constraint=None, bias_constraint=None, return_sequences=False,
               go_backwards=False, stateful=False, dropout=0., recurrent_dropout=0.,
               **kwargs):
    return_state = kwargs.pop("return_state", False)
    if kwargs.pop("unroll", False):
      raise TypeError("Unrolling isn't possible with convolutional RNNs.")
    kwargs.pop("time_major", None)
    super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
    self.filters = filters
    self.kernel_size = normalize_tuple(kernel_size, 2, "kernel_size")
    self.strides = normalize_tuple(strides, 2, "strides", allow_zero=True)
    self.padding = normalize_padding(padding)
    self.data_format = normalize_data_format(data_format)
    self.dilation_rate = normalize_tuple(dilation_rate, 2, "dilation_rate")
    self._activation_key = recurrent_cells.activation_key(activation)
    self._recurrent_key = recurrent_cells.activation_key(recurrent_activation)
    self.activation = recurrent_cells.activation_fn(self._activation_key)
    self.recurrent_activation = recurrent_cells.activation_fn(self._recurrent_key)
    self.use_bias = use_bias
    self.kernel_initializer = initializers.get(kernel_initializer)
    self.recurrent_initializer = initializers.get(recurrent_initializer)
    self.bias_initializer = initializers.get(bias_initializer)
    self.unit_forget_bias = unit_forget_bias
    self.kernel_regularizer = regularizers.get(kernel_regularizer)
    self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
    self.bias_regularizer = regularizers.get(bias_regularizer)
    self.kernel_constraint = constraints.get(kernel_constraint)
    self.recurrent_constraint = constraints.get(recurrent_constraint)
    self.bias_constraint = constraints.get(bias_constraint)
    self.dropout = min(1., max(0., dropout))
    self.recurrent_dropout = min(1., max(0., recurrent_dropout))
    self.return_sequences = return_sequences
    self.return_state = return_state
    self.go_backwards = go_backwards
    self.stateful = stateful
    self.unroll = False
    self.time_major = False
    self.supports_masking = True
    self.input_spec = [InputSpec(ndim=5)]
    self._state_vars = _States()

  @property
  def states(self):
    return list(self._state_vars.variables) or [None, None]

  @property
  def _channels_first(self):
    return self.data_format == "channels_first"

  def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
    if constants is not None:
      raise NotImplementedError("tfe_compat: ConvLSTM2D does not take `constants`.")
    if initial_state is None:
      return super().__call__(inputs, **kwargs)
    return super().__call__([inputs] + list(initial_state), **kwargs)

  def _bias_initializer(self):
    if not self.unit_forget_bias:
      return self.bias_initializer
    filters, base = self.filters, self.bias_initializer

    def initializer(shape, dtype=None, **kwargs):
      return array_ops.concat([base((filters,), dtype=dtype), init_ops.Ones()((filters,), dtype),
                               base((filters * 2,), dtype=dtype)], axis=0)
    return initializer

  def build(self, input_shape):
    if isinstance(input_shape, (list, tuple)) and not isinstance(
        input_shape[0], (int, type(None), tensor_shape.Dimension)):
      input_shape = input_shape[0]
    input_shape = tensor_shape.TensorShape(input_shape)
    input_dim = tensor_shape.dimension_value(input_shape[2 if self._channels_first else -1])
    if input_dim is None:
      raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    self.kernel = self.add_weight(shape=self.kernel_size + (input_dim, self.filters * 4),
                                  initializer=self.kernel_initializer, name="kernel",
                                  regularizer=self.kernel_regularizer,
                                  constraint=self.kernel_constraint)
    self.recurrent_kernel = self.add_weight(
        shape=self.kernel_size + (self.filters, self.filters * 4),
        initializer=self.recurrent_initializer, name="recurrent_kernel",
        regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
    self.bias = self.add_weight(shape=(self.filters * 4,), name="bias",
                                initializer=self._bias_initializer(),
                                regularizer=self.bias_regularizer,
                                constraint=self.bias_constraint) if self.use_bias else None
    if self.stateful:
      if input_shape.dims[0].value is None:
        raise ValueError("If a RNN is stateful, it needs to know its batch size. Specify the "
                         "batch size of your input tensors: \n- If using a Sequential model, "
                         "specify the batch size by passing a `batch_input_shape` argument to "
                         "your first layer.\n- If using the functional API, specify the "
                         "batch size by passing a `batch_shape` argument to your Input layer.")
      self._batch_input_shape_5d = input_shape.as_list()
      self.reset_states()
    self.built = True

  def _state_shape(self, shape):
    """The (batch, rows, cols, filters)-like shape of the states for inputs of `shape`."""
    spatial = shape[3:] if self._channels_first else shape[2:4]
    out = [conv_output_length(n, k, self.padding, s, d) for n, k, s, d in
           zip(spatial, self.kernel_size, self.strides, self.dilation_rate)]
    return [shape[0], self.filters] + out if self._channels_first else (
        [shape[0]] + out + [self.filters])

  def get_initial_state(self, inputs):
    """Zero states [h, c] for `inputs` (batch, time, ...)."""
    zeros = array_ops.zeros(self._state_shape(inputs.shape.as_list()), dtype=inputs.dtype)
    return [zeros, zeros]

  def call(self, inputs, mask=None, training=None, initial_state=None):
    if isinstance(inputs, (list, tuple)):
      initial_state = list(inputs[1:]) or initial_state
      inputs = inputs[0]
    if isinstance(mask, (list, tuple)):
      mask = mask[0]
    if initial_state is not None:
      states = [ops.convert_to_tensor(s, dtype=inputs.dtype) for s in initial_state]
      if len(states) != 2:
        raise ValueError("Layer %s expects 2 states, but it received %d state tensors."
                         % (self.name, len(states)))
    elif self.stateful:
      states = [ops.convert_to_tensor(v) for v in self._state_vars.variables]
    else:
      states = self.get_initial_state(inputs)
    training = is_training(training)
    has_dp = training and 0 < self.dropout < 1
    has_rdp = training and 0 < self.recurrent_dropout < 1
    arrays = [ops.convert_to_tensor(self.kernel), ops.convert_to_tensor(self.recurrent_kernel)]
    if self.use_bias:
      arrays.append(ops.convert_to_tensor(self.bias))
    shape = inputs.shape.as_list()
    if has_dp:
      arrays.append(recurrent_cells.dropout_masks(self.dropout, 4, [shape[0]] + shape[2:],
                                                  inputs.dtype))
    if has_rdp:
      arrays.append(recurrent_cells.dropout_masks(self.recurrent_dropout, 4,
                                                  self._state_shape(shape), inputs.dtype))
    if mask is not None:
      arrays.append(ops.convert_to_tensor(mask))
    output, h, c = _conv_lstm(
        inputs, *states, *arrays, use_bias=bool(self.use_bias), has_dp=has_dp,
        has_rdp=has_rdp, masked=mask is not None, strides=self.strides,
        padding=self.padding.upper(), dilation=self.dilation_rate,
        channels_first=self._channels_first, activation=self._activation_key,
        recurrent_activation=self._recurrent_key, go_backwards=bool(self.go_backwards),
        return_sequences=bool(self.return_sequences))
    if self.stateful:
      for variable, value in zip(self._state_vars.variables, (h, c)):
        variable.assign(value)
    if self.return_state:
      return [output, h, c]
    return output

  def compute_mask(self, inputs, mask=None):
    if isinstance(mask, (list, tuple)):
      mask = mask[0]
    output_mask = mask if self.return_sequences else None
    if self.return_state:
      return [output_mask, None, None]
    return output_mask

  def reset_states(self, states=None):
    """Zeroes the states of a stateful layer (or sets them to `states`)."""
    if not self.stateful:
      raise AttributeError("Layer must be stateful.")
    shape = self._state_shape(self._batch_input_shape_5d)
    values = [np.zeros(shape, self.dtype)] * 2 if states is None else [
        np.asarray(v) for v in (states if isinstance(states, (list, tuple)) else [states])]
    if len(values) != 2:
      raise ValueError("Layer %s expects 2 states, but it received %d state values."
                       % (self.name, len(values)))
    for value in values:
      if list(value.shape) != shape:
        raise ValueError("State value shape %s is incompatible with the state shape %s."
                         % (value.shape, tuple(shape)))
    if not self._state_vars.variables:
      self._state_vars.variables = [variables_lib.Variable(v, trainable=False, name=n)
                                    for v, n in zip(values, ("state_h", "state_c"))]
    else:
      for variable, value in zip(self._state_vars.variables, values):
        variable.assign(value)

  def get_config(self):
    config = super().get_config()
    config.update(
        return_sequences=self.return_sequences, return_state=self.return_state,
        go_backwards=self.go_backwards, stateful=self.stateful, unroll=self.unroll,
        time_major=self.time_major, filters=self.filters, kernel_size=self.kernel_size,
        strides=self.strides, padding=self.padding, data_format=self.data_format,
        dilation_rate=self.dilation_rate,
        activation=recurrent_cells.serialize_activation(self._activation_key),
        recurrent_activation=recurrent_cells.serialize_activation(self._recurrent_key),
        use_bias=self.use_bias,
        kernel_initializer=initializers.serialize(self.kernel_initializer),
        recurrent_initializer=initializers.serialize(self.recurrent_initializer),
        bias_initializer=initializers.serialize(self.bias_initializer),
        unit_forget_bias=self.unit_forget_bias,
        kernel_regularizer=regularizers.serialize(self.kernel_regularizer),
        recurrent_regularizer=regularizers.serialize(self.recurrent_regularizer),
        bias_regularizer=regularizers.serialize(self.bias_regularizer),
        activity_regularizer=regularizers.serialize(self.activity_regularizer),
        kernel_constraint=constraints.serialize(self.kernel_constraint),
        recurrent_constraint=constraints.serialize(self.recurrent_constraint),
        bias_constraint=constraints.serialize(self.bias_constraint),
        dropout=self.dropout, recurrent_dropout=self.recurrent_dropout)
    return config

  @classmethod
  def from_config(cls, config):
    config = dict(config)
    for key in ("unroll", "time_major"):
      config.pop(key, None)
    return cls(**config)
