"""Locally-connected layers (TF 1.15): LocallyConnected1D and LocallyConnected2D.

Convolutions with unshared weights, in TF's three weight layouts (`implementation`):
1: kernel (output positions, kernel volume * input channels, filters), patches gathered and
   multiplied per position; 2: a dense (inputs..., outputs...) kernel masked to the receptive
   fields; 3: the nonzero entries of that matrix as a vector, in TF's sorted index order.
Each runs as one op; the connectivity is computed with NumPy from static attributes.
"""
import itertools

import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.keras import activations
from tfe_compat.keras import backend as K
from tfe_compat.keras import constraints
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import InputSpec, Layer
from tfe_compat.keras.layers.conv_utils import (dim, normalize_data_format, normalize_padding,
                                                normalize_tuple)


def conv_output_length(input_length, filter_size, padding, stride):
  """Keras's conv_utils.conv_output_length (no dilation)."""
  if input_length is None:
    return None
  length = input_length - filter_size + 1 if padding == "valid" else input_length
  return (length + stride - 1) // stride


def _connected_range(size, kernel, out_pos, stride, padding):
  """Input positions along one axis that output position `out_pos` sees (TF's rule)."""
  left = kernel // 2
  center = out_pos * stride + (left if padding == "valid" else 0)
  return range(max(0, center - left), min(size, center + kernel - left))


def conv_kernel_mask(input_shape, kernel_shape, strides, padding):
  """Boolean (d_in..., d_out...) connectivity of an N-d convolution (TF's conv_utils)."""
  output_shape = tuple(conv_output_length(n, k, padding, s)
                       for n, k, s in zip(input_shape, kernel_shape, strides))
  mask = np.zeros(tuple(input_shape) + output_shape, bool)
  for out_pos in itertools.product(*[range(n) for n in output_shape]):
    ranges = [_connected_range(n, k, o, s, padding)
              for n, k, o, s in zip(input_shape, kernel_shape, out_pos, strides)]
    for in_pos in itertools.product(*ranges):
      mask[in_pos + out_pos] = True
  return mask


def _dense_mask(spatial, kernel_size, strides, padding, channels_first):
  """The implementation-2 mask: kernel shape with singleton channel axes."""
  mask = conv_kernel_mask(spatial, kernel_size, strides, padding)
  n = len(spatial)
  if channels_first:
    return np.expand_dims(np.expand_dims(mask, 0), -n - 1)
  return np.expand_dims(np.expand_dims(mask, n), -1)


def _sparse_indices(spatial, kernel_size, strides, padding, c_in, c_out, channels_first):
  """TF's sorted (output index, input index) pairs of implementation 3, as two arrays, and
  the (outputs, inputs) matrix shape."""
  mask = _dense_mask(spatial, kernel_size, strides, padding, channels_first)
  out = tuple(conv_output_length(n, k, padding, s)
              for n, k, s in zip(spatial, kernel_size, strides))
  if channels_first:
    full = np.broadcast_to(mask, (c_in,) + tuple(spatial) + (c_out,) + out)
  else:
    full = np.broadcast_to(mask, tuple(spatial) + (c_in,) + out + (c_out,))
  n = len(spatial) + 1
  full = np.transpose(full, tuple(range(n, 2 * n)) + tuple(range(n)))
  matrix = full.reshape(int(np.prod(full.shape[:n])), -1)
  rows, cols = np.nonzero(matrix)
  return rows, cols, matrix.shape


@op(name="LocalConv")
def _local_conv(x, kernel, *, kernel_size, strides, padding, channels_first, implementation,
                out_shape):
  """The unshared convolution of `x` (batch first); `out_shape` excludes the batch."""
  batch, rank = x.shape[0], len(kernel_size)
  if implementation == 1:
    spatial_out = out_shape[1:] if channels_first else out_shape[:-1]
    index = []
    for d, (o, k, s) in enumerate(zip(spatial_out, kernel_size, strides)):
      idx = np.arange(o)[:, None] * s + np.arange(k)[None, :]  # (o, k)
      shape = [1] * (2 * rank)
      shape[d], shape[rank + d] = o, k
      index.append(idx.reshape(shape))
    if channels_first:  # (batch, c, out..., k...) -> (batch, out..., c, k...)
      patches = x[(slice(None), slice(None)) + tuple(index)]
      patches = jnp.moveaxis(patches, 1, rank + 1)
    else:  # (batch, out..., k..., c)
      patches = x[(slice(None),) + tuple(index)]
    positions = int(np.prod(spatial_out))
    patches = patches.reshape(batch, positions, -1)
    out = jnp.einsum("bpf,pfo->bpo", patches, kernel)
    out = out.reshape((batch,) + tuple(spatial_out) + (-1,))
    return jnp.moveaxis(out, -1, 1) if channels_first else out
  flat = x.reshape(batch, -1)
  spatial_in = x.shape[2:] if channels_first else x.shape[1:-1]
  if implementation == 2:
    mask = _dense_mask(spatial_in, kernel_size, strides, padding, channels_first)
    dense = (kernel * mask.astype(kernel.dtype)).reshape(flat.shape[1], -1)
    return jnp.matmul(flat, dense).reshape((batch,) + tuple(out_shape))
  c_in = x.shape[1] if channels_first else x.shape[-1]
  c_out = out_shape[0] if channels_first else out_shape[-1]
  rows, cols, dense_shape = _sparse_indices(spatial_in, kernel_size, strides, padding, c_in,
                                            c_out, channels_first)
  dense = jnp.zeros(dense_shape, kernel.dtype).at[rows, cols].set(kernel)
  return jnp.matmul(flat, dense.T).reshape((batch,) + tuple(out_shape))


class _LocallyConnected(Layer):
  """Shared parts of LocallyConnected1D/2D (`rank` spatial axes)."""

  _RANK = 1

  def __init__(self, filters, kernel_size, strides, padding, data_format, activation,
               use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
               bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint,
               implementation, **kwargs):
    super().__init__(**kwargs)
    rank = self._RANK
    self.filters = filters
    self.kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
    self.strides = normalize_tuple(strides, rank, "strides", allow_zero=True)
    self.padding = normalize_padding(padding)
    if self.padding != "valid" and implementation == 1:
      raise ValueError("Invalid border mode for %s (only \"valid\" is supported if "
                       "implementation is 1): %s" % (type(self).__name__, padding))
    self.data_format = normalize_data_format(data_format)
    self.activation = activations.get(activation)
    self.use_bias = use_bias
    self.kernel_initializer = initializers.get(kernel_initializer)
    self.bias_initializer = initializers.get(bias_initializer)
    self.kernel_regularizer = regularizers.get(kernel_regularizer)
    self.bias_regularizer = regularizers.get(bias_regularizer)
    self.activity_regularizer = regularizers.get(activity_regularizer)
    self.kernel_constraint = constraints.get(kernel_constraint)
    self.bias_constraint = constraints.get(bias_constraint)
    self.implementation = implementation
    self.input_spec = InputSpec(ndim=rank + 2)

  @property
  def _channels_first(self):
    return self.data_format == "channels_first"

  def _spatial(self, input_shape):
    axes = range(2, self._RANK + 2) if self._channels_first else range(1, self._RANK + 1)
    return tuple(dim(input_shape, a) for a in axes)

  def _out_spatial(self, spatial):
    return tuple(conv_output_length(n, k, self.padding, s)
                 for n, k, s in zip(spatial, self.kernel_size, self.strides))

  def build(self, input_shape):
    channel_axis = 1 if self._channels_first else -1
    input_dim = dim(input_shape, channel_axis)
    if input_dim is None:
      raise ValueError("Axis %d of input should be fully-defined. Found shape: %s"
                       % (self._RANK + 1, input_shape))
    spatial = self._spatial(input_shape)
    out = self._out_spatial(spatial)
    n_in, n_out = int(np.prod(spatial)), int(np.prod(out))
    if self.implementation == 1:
      shape = (n_out, int(np.prod(self.kernel_size)) * input_dim, self.filters)
    elif self.implementation == 2:
      if self._channels_first:
        shape = (input_dim,) + spatial + (self.filters,) + out
      else:
        shape = spatial + (input_dim,) + out + (self.filters,)
    elif self.implementation == 3:
      self.kernel_shape = (n_out * self.filters, n_in * input_dim)
      rows, _, _ = _sparse_indices(spatial, self.kernel_size, self.strides, self.padding,
                                   input_dim, self.filters, self._channels_first)
      shape = (len(rows),)
    else:
      raise ValueError("Unrecognized implementation mode: %d." % self.implementation)
    if self.implementation != 3:
      self.kernel_shape = shape
    self.kernel = self.add_weight(shape=shape, initializer=self.kernel_initializer,
                                  name="kernel", regularizer=self.kernel_regularizer,
                                  constraint=self.kernel_constraint)
    self.bias = self.add_weight(shape=out + (self.filters,), initializer=self.bias_initializer,
                                name="bias", regularizer=self.bias_regularizer,
                                constraint=self.bias_constraint) if self.use_bias else None
    self.input_spec = InputSpec(ndim=self._RANK + 2, axes={channel_axis: input_dim})
    self.built = True

  def _output_shape(self, input_shape):
    out = self._out_spatial(self._spatial(input_shape))
    return (self.filters,) + out if self._channels_first else out + (self.filters,)

  def compute_output_shape(self, input_shape):
    batch = tensor_shape.TensorShape(input_shape).as_list()[0]
    return tensor_shape.TensorShape((batch,) + self._output_shape(input_shape))

  def call(self, inputs):
    x, kernel = ops.convert_matching(inputs, self.kernel, op_name="LocalConv")
    output = _local_conv(x, kernel, kernel_size=self.kernel_size, strides=self.strides,
                         padding=self.padding, channels_first=self._channels_first,
                         implementation=int(self.implementation),
                         out_shape=self._output_shape(inputs.shape))
    if self.use_bias:
      output = K.bias_add(output, self.bias, data_format=self.data_format)
    return self.activation(output)

  def get_config(self):
    config = super().get_config()
    config.update(
        filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
        padding=self.padding, data_format=self.data_format,
        activation=activations.serialize(self.activation), use_bias=self.use_bias,
        kernel_initializer=initializers.serialize(self.kernel_initializer),
        bias_initializer=initializers.serialize(self.bias_initializer),
        kernel_regularizer=regularizers.serialize(self.kernel_regularizer),
        bias_regularizer=regularizers.serialize(self.bias_regularizer),
        activity_regularizer=regularizers.serialize(self.activity_regularizer),
        kernel_constraint=constraints.serialize(self.kernel_constraint),
        bias_constraint=constraints.serialize(self.bias_constraint),
        implementation=self.implementation)
    return config


@export("keras.layers.LocallyConnected1D")
class LocallyConnected1D(_LocallyConnected):
  """Conv1D with unshared weights over (batch, steps, channels) inputs."""

  _RANK = 1

  def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
               activation=None, use_bias=True, kernel_initializer="glorot_uniform",
               bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
               implementation=1, **kwargs):
    super().__init__(filters, kernel_size, strides, padding, data_format, activation,
                     use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                     bias_regularizer, activity_regularizer, kernel_constraint,
                     bias_constraint, implementation, **kwargs)


@export("keras.layers.LocallyConnected2D")
class LocallyConnected2D(_LocallyConnected):
  """Conv2D with unshared weights over images."""

  _RANK = 2

  def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
               activation=None, use_bias=True, kernel_initializer="glorot_uniform",
               bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
               implementation=1, **kwargs):
    super().__init__(filters, kernel_size, strides, padding, data_format, activation,
                     use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                     bias_regularizer, activity_regularizer, kernel_constraint,
                     bias_constraint, implementation, **kwargs)
