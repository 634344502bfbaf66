"""`tf.contrib.cudnn_rnn.CudnnLSTM`: a multi-layer LSTM over time-major inputs.

The weights live in one variable, `opaque_kernel`, laid out in cuDNN's canonical order (all
weight matrices, layer by layer and direction by direction: 4 input matrices [units, depth]
then 4 recurrent matrices [units, units], gates i, f, c, o; then all biases, 8 vectors of
`units` per layer and direction). A GPU's opaque buffer from real TF is device-specific and
is not read here. All layers and directions run as one op of `jax.lax.scan`s.
"""
import jax
import jax.numpy as jnp

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.keras.engine.base_layer import Layer
from tfe_compat.ops import array_ops
from tfe_compat.ops import fast_matmul
from tfe_compat.ops import init_ops

CUDNN_RNN_UNIDIRECTION = "unidirectional"
CUDNN_RNN_BIDIRECTION = "bidirectional"
CUDNN_INPUT_LINEAR_MODE = "linear_input"
for _name in ("CUDNN_RNN_UNIDIRECTION", "CUDNN_RNN_BIDIRECTION", "CUDNN_INPUT_LINEAR_MODE"):
  export("contrib.cudnn_rnn." + _name)(globals()[_name])


def _canonical_shapes(num_layers, dirs, units, input_size):
  """(weight shapes, bias shapes) in cuDNN's canonical order."""
  weights, biases = [], []
  for layer in range(num_layers):
    depth = input_size if layer == 0 else units * dirs
    for _ in range(dirs):
      weights += [(units, depth)] * 4 + [(units, units)] * 4
      biases += [(units,)] * 8
  return weights, biases


def _unpack(params, num_layers, dirs, units, input_size):
  """[(kernel [depth, 4u], recurrent kernel [u, 4u], bias [4u])] per layer and direction."""
  weight_shapes, bias_shapes = _canonical_shapes(num_layers, dirs, units, input_size)
  pieces, offset = [], 0
  for shape in weight_shapes + bias_shapes:
    size = 1
    for d in shape:
      size *= d
    pieces.append(params[offset:offset + size].reshape(shape))
    offset += size
  n_weights = len(weight_shapes)
  out = []
  for k in range(num_layers * dirs):
    w = pieces[8 * k:8 * k + 8]
    b = pieces[n_weights + 8 * k:n_weights + 8 * k + 8]
    out.append((jnp.concatenate([m.T for m in w[:4]], 1),
                jnp.concatenate([m.T for m in w[4:]], 1),
                jnp.concatenate(b[:4]) + jnp.concatenate(b[4:])))
  return out


def _lstm_direction(xs, h, c, kernel, recurrent, bias, mask):
  """Runs one direction over time-major xs; masked steps output 0 and keep the state."""
  xp = fast_matmul.matmul(xs, kernel) + bias

  def body(carry, inp):
    h, c = carry
    x_t, m_t = inp
    i, f, g, o = jnp.split(x_t + fast_matmul.matmul(h, recurrent), 4, axis=-1)
    c_new = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
    h_new = jax.nn.sigmoid(o) * jnp.tanh(c_new)
    if m_t is not None:
      m = m_t[:, None]
      c_new, h_new = jnp.where(m, c_new, c), jnp.where(m, h_new, h)
      return (h_new, c_new), jnp.where(m, h_new, 0)
    return (h_new, c_new), h_new

  (h, c), ys = jax.lax.scan(body, (h, c), (xp, mask))
  return ys, h, c


@op(name="CudnnRNN")
def _cudnn_lstm(inputs, h0, c0, params, key, *lengths, num_layers, dirs, units, input_size,
                dropout, time_major):
  xs = inputs if time_major else jnp.swapaxes(inputs, 0, 1)
  steps = xs.shape[0]
  if lengths:
    t = jnp.arange(steps)[:, None]
    length = lengths[0].astype(jnp.int32)[None, :]
    mask = t < length
    rev_index = jnp.where(mask, length - 1 - t, t)  # reverses each sequence within its length
  else:
    mask = None
  weights = _unpack(params, num_layers, dirs, units, input_size)
  hs, cs = [], []
  for layer in range(num_layers):
    outs = []
    for d in range(dirs):
      k = layer * dirs + d
      x = xs
      if d == 1:
        x = (jnp.take_along_axis(xs, rev_index[:, :, None], 0) if lengths else xs[::-1])
      ys, h, c = _lstm_direction(x, h0[k], c0[k], *weights[k], mask)
      if d == 1:
        ys = jnp.take_along_axis(ys, rev_index[:, :, None], 0) if lengths else ys[::-1]
      outs.append(ys)
      hs.append(h)
      cs.append(c)
    xs = outs[0] if dirs == 1 else jnp.concatenate(outs, -1)
    if dropout > 0 and layer < num_layers - 1:
      keep = jax.random.bernoulli(jax.random.fold_in(jax.random.wrap_key_data(key), layer),
                                  1.0 - dropout, xs.shape)
      xs = jnp.where(keep, xs / jnp.asarray(1.0 - dropout, xs.dtype), 0)
  out = xs if time_major else jnp.swapaxes(xs, 0, 1)
  return out, jnp.stack(hs), jnp.stack(cs)


@export("contrib.cudnn_rnn.CudnnLSTM", "contrib.cudnn_rnn.python.layers.cudnn_rnn.CudnnLSTM")
class CudnnLSTM(Layer):
  """Multi-layer (optionally bidirectional) LSTM; `call` returns (outputs, (h, c))."""

  def __init__(self, num_layers, num_units, input_mode=CUDNN_INPUT_LINEAR_MODE,
               direction=CUDNN_RNN_UNIDIRECTION, dropout=0., seed=None, dtype=dtypes.float32,
               kernel_initializer=None, bias_initializer=None, name=None):
    if input_mode != CUDNN_INPUT_LINEAR_MODE:
      raise NotImplementedError("tfe_compat: CudnnLSTM supports input_mode='linear_input' "
                                "only, got %r." % (input_mode,))
    if direction not in (CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION):
      raise ValueError("Invalid direction: %s, expecting %s or %s"
                       % (direction, CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION))
    super().__init__(dtype=dtype, name=name)
    self._num_layers, self._num_units = int(num_layers), int(num_units)
    self._input_mode, self._direction = input_mode, direction
    self._dropout, self._seed = float(dropout), seed
    self._kernel_initializer = kernel_initializer or init_ops.GlorotUniform()
    self._bias_initializer = bias_initializer or init_ops.Constant(0.0)
    self._input_size = None

  num_layers = property(lambda self: self._num_layers)
  num_units = property(lambda self: self._num_units)
  input_mode = property(lambda self: self._input_mode)
  direction = property(lambda self: self._direction)
  input_size = property(lambda self: self._input_size)

  @property
  def num_dirs(self):
    return 1 if self._direction == CUDNN_RNN_UNIDIRECTION else 2

  def state_shape(self, batch_size):
    shape = [self._num_layers * self.num_dirs, batch_size, self._num_units]
    return shape, list(shape)

  def build(self, input_shape):
    depth = getattr(input_shape[-1], "value", input_shape[-1])
    if depth is None:
      raise ValueError("The last dimension of the inputs to `CudnnRNN` should be defined. "
                       "Found `None`.")
    self._input_size = depth
    weight_shapes, bias_shapes = _canonical_shapes(self._num_layers, self.num_dirs,
                                                   self._num_units, depth)

    def initializer(shape, dtype=None, **kwargs):
      parts = [array_ops.reshape(self._kernel_initializer(list(s), dtype=dtype), [-1])
               for s in weight_shapes]
      parts += [array_ops.reshape(self._bias_initializer(list(s), dtype=dtype), [-1])
                for s in bias_shapes]
      return array_ops.concat(parts, 0)

    size = sum(a * b for a, b in weight_shapes) + self._num_units * len(bias_shapes)
    self.kernel = self.add_weight("opaque_kernel", shape=[size], initializer=initializer)
    self.built = True

  def call(self, inputs, initial_state=None, sequence_lengths=None, time_major=True,
           training=True):
    if inputs.shape.ndims != 3:
      raise ValueError("Expecting inputs of rank 3, got shape %s" % inputs.shape)
    batch = inputs.shape.as_list()[1 if time_major else 0]
    if initial_state is None:
      h, c = [array_ops.zeros(s, inputs.dtype) for s in self.state_shape(batch)]
    else:
      h, c = [ops.convert_to_tensor(s, dtype=inputs.dtype) for s in initial_state]
    lengths = [] if sequence_lengths is None else [ops.convert_to_tensor(sequence_lengths)]
    rate = self._dropout if training else 0.0
    key = ops.convert_to_tensor(context.next_rng_key(self._seed))
    outputs, h, c = _cudnn_lstm(inputs, h, c, ops.convert_to_tensor(self.kernel), key,
                                *lengths, num_layers=self._num_layers, dirs=self.num_dirs,
                                units=self._num_units, input_size=self._input_size,
                                dropout=float(rate), time_major=bool(time_major))
    return outputs, (h, c)
