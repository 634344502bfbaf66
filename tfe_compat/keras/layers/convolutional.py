"""Keras convolution layers (TF 1.15 `tf.keras.layers.Conv*`, separable, depthwise, transpose).

Layers call the `tf.nn` convolutions of conv_ops and `bias_add`, except Conv1D/2D/3D with a
bias, which run convolution + bias as one op (one dispatch, one tape entry) on conv_ops's
checked plan. Padding, cropping and upsampling layers live in convolutional_reshaping
(re-exported here).
"""
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.keras import activations
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import InputSpec, Layer
from tfe_compat.keras.layers.conv_utils import (conv_output_length, deconv_output_length, dim,
                                                normalize_data_format, normalize_padding,
                                                normalize_tuple, serialize, tf_data_format)
from tfe_compat.keras.layers.convolutional_reshaping import (  # noqa: F401 (re-exported)
    Cropping1D, Cropping2D, Cropping3D, UpSampling1D, UpSampling2D, UpSampling3D,
    ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)
from tfe_compat.ops import array_ops
from tfe_compat.ops import conv_ops
from tfe_compat.ops import nn_ops

@ops.op(name="Conv2D")
def _conv_bias(x, w, b, *, plan, channel_axis):
  y = conv_ops._conv_impl(x, w, plan=plan)  # pylint: disable=protected-access
  return y + b.reshape((-1,) + (1,) * (y.ndim - 1 - channel_axis))


class Conv(Layer):
  """Base of the N-d convolution layers (Keras's `Conv`)."""

  def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
               dilation_rate=1, activation=None, use_bias=True,
               kernel_initializer="glorot_uniform", bias_initializer="zeros",
               kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
               **kwargs):
    super().__init__(trainable=trainable, name=name,
                     activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
    self.rank = rank
    self.filters = int(filters) if filters is not None else None
    if self.filters is not None and self.filters <= 0:
      raise ValueError("Invalid value for argument `filters`. Expected a strictly positive "
                       "value. Received filters=%s." % filters)
    self.kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
    self.strides = normalize_tuple(strides, rank, "strides", allow_zero=True)
    if not all(self.strides):
      raise ValueError("The argument `strides` cannot contains 0(s). Received: %s"
                       % (self.strides,))
    self.padding = normalize_padding(padding)
    if self.padding == "causal" and not isinstance(self, (Conv1D, SeparableConv1D)):
      raise ValueError("Causal padding is only supported for `Conv1D` and "
                       "``SeparableConv1D`.")
    self.data_format = normalize_data_format(data_format)
    self.dilation_rate = normalize_tuple(dilation_rate, rank, "dilation_rate")
    if max(self.strides) > 1 and max(self.dilation_rate) > 1:
      raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                       "Received: strides=%s and dilation_rate=%s"
                       % (self.strides, self.dilation_rate))
    self.activation = activations.get(activation)
    self.use_bias = use_bias
    self.kernel_initializer = initializers.get(kernel_initializer)
    self.bias_initializer = initializers.get(bias_initializer)
    self.kernel_regularizer = regularizers.get(kernel_regularizer)
    self.bias_regularizer = regularizers.get(bias_regularizer)
    self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
    self.input_spec = InputSpec(ndim=rank + 2)
    self._tf_format = tf_data_format(self.data_format, rank)

  @property
  def _channel_axis(self):
    return 1 if self.data_format == "channels_first" else -1

  def _input_dim(self, input_shape):
    input_dim = dim(input_shape, self._channel_axis)
    if input_dim is None:
      raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    return input_dim

  def _add_bias(self):
    self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                regularizer=self.bias_regularizer,
                                constraint=self.bias_constraint, trainable=True,
                                dtype=self.dtype) if self.use_bias else None

  def _check_output_size(self, input_shape):
    """Keras's check when it builds: no spatial dimension of the output may be negative."""
    shape = tensor_shape.TensorShape(input_shape).as_list()
    spatial = shape[2:] if self.data_format == "channels_first" else shape[1:-1]
    for size, kernel, stride, rate in zip(spatial, self.kernel_size, self.strides,
                                          self.dilation_rate):
      if size is not None and conv_output_length(size, kernel, self.padding, stride, rate) < 0:
        raise ValueError("One of the dimensions in the output is <= 0 due to downsampling in "
                         "%s. Consider increasing the input size. Received input shape %s which "
                         "would produce output shape with a zero or negative value in a "
                         "dimension." % (self.name, shape))

  def build(self, input_shape):
    input_dim = self._input_dim(input_shape)
    self._check_output_size(input_shape)
    self.kernel = self.add_weight("kernel", shape=self.kernel_size + (input_dim, self.filters),
                                  initializer=self.kernel_initializer,
                                  regularizer=self.kernel_regularizer,
                                  constraint=self.kernel_constraint, trainable=True,
                                  dtype=self.dtype)
    self._add_bias()
    self.input_spec = InputSpec(ndim=self.rank + 2, axes={self._channel_axis: input_dim})
    self.built = True

  def _causal_pad(self, inputs):
    left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
    pads = [[0, 0], [left, 0], [0, 0]]
    if self.data_format == "channels_first":
      pads = [[0, 0], [0, 0], [left, 0]]
    return array_ops.pad(inputs, pads)

  def _finish(self, outputs):
    if self.use_bias:
      outputs = nn_ops.bias_add(outputs, self.bias, data_format=self._tf_format)
    return self.activation(outputs) if self.activation is not None else outputs

  def call(self, inputs):
    padding = self.padding
    if padding == "causal":
      inputs, padding = self._causal_pad(inputs), "valid"
    if not self.use_bias:
      outputs = conv_ops.convolution(inputs, self.kernel, padding.upper(),
                                     strides=self.strides, dilation_rate=self.dilation_rate,
                                     data_format=self._tf_format)
      return self._finish(outputs)
    op_name = "Conv3D" if self.rank == 3 else "Conv2D"
    x, w, b = ops.convert_matching(inputs, self.kernel, self.bias, op_name=op_name)
    plan = conv_ops._conv_plan(  # pylint: disable=protected-access
        op_name, self.rank, x._value.shape, w._value.shape, self.strides, padding.upper(),
        self.dilation_rate, self._tf_format)
    channel_axis = 1 if self.data_format == "channels_first" else self.rank + 1
    outputs = _conv_bias(x, w, b, plan=plan, channel_axis=channel_axis)
    return self.activation(outputs) if self.activation is not None else outputs

  def get_config(self):
    config = super().get_config()
    config.update(
        filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
        padding=self.padding, data_format=self.data_format, dilation_rate=self.dilation_rate,
        activation=activations.serialize(self.activation), use_bias=self.use_bias,
        kernel_initializer=serialize(self.kernel_initializer),
        bias_initializer=serialize(self.bias_initializer),
        kernel_regularizer=serialize(self.kernel_regularizer),
        bias_regularizer=serialize(self.bias_regularizer),
        activity_regularizer=serialize(self.activity_regularizer),
        kernel_constraint=serialize(self.kernel_constraint),
        bias_constraint=serialize(self.bias_constraint))
    return config


@export("keras.layers.Conv1D", "keras.layers.Convolution1D")
class Conv1D(Conv):
  """1-D convolution over [batch, steps, channels] (padding may be "causal")."""

  def __init__(self, filters, kernel_size, strides=1, padding="valid",
               data_format="channels_last", dilation_rate=1, activation=None, use_bias=True,
               kernel_initializer="glorot_uniform", bias_initializer="zeros",
               kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               kernel_constraint=None, bias_constraint=None, **kwargs):
    super().__init__(1, filters, kernel_size, strides, padding, data_format, dilation_rate,
                     activation, use_bias, kernel_initializer, bias_initializer,
                     kernel_regularizer, bias_regularizer, activity_regularizer,
                     kernel_constraint, bias_constraint, **kwargs)


@export("keras.layers.Conv2D", "keras.layers.Convolution2D")
class Conv2D(Conv):
  """2-D convolution over images (NHWC by default, NCHW with "channels_first")."""

  def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
               dilation_rate=(1, 1), activation=None, use_bias=True,
               kernel_initializer="glorot_uniform", bias_initializer="zeros",
               kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               kernel_constraint=None, bias_constraint=None, **kwargs):
    super().__init__(2, filters, kernel_size, strides, padding, data_format, dilation_rate,
                     activation, use_bias, kernel_initializer, bias_initializer,
                     kernel_regularizer, bias_regularizer, activity_regularizer,
                     kernel_constraint, bias_constraint, **kwargs)


@export("keras.layers.Conv3D", "keras.layers.Convolution3D")
class Conv3D(Conv):
  """3-D convolution over volumes."""

  def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
               data_format=None, dilation_rate=(1, 1, 1), activation=None, use_bias=True,
               kernel_initializer="glorot_uniform", bias_initializer="zeros",
               kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               kernel_constraint=None, bias_constraint=None, **kwargs):
    super().__init__(3, filters, kernel_size, strides, padding, data_format, dilation_rate,
                     activation, use_bias, kernel_initializer, bias_initializer,
                     kernel_regularizer, bias_regularizer, activity_regularizer,
                     kernel_constraint, bias_constraint, **kwargs)


class _ConvTranspose(Conv):
  """Conv2DTranspose / Conv3DTranspose: kernel is kernel_size + (filters, input_channels)."""

  def __init__(self, rank, filters, kernel_size, strides, padding, output_padding, data_format,
               dilation_rate, *args, **kwargs):
    super().__init__(rank, filters, kernel_size, strides, padding, data_format, dilation_rate,
                     *args, **kwargs)
    self.output_padding = output_padding
    if output_padding is not None:
      self.output_padding = normalize_tuple(output_padding, rank, "output_padding",
                                            allow_zero=True)
      for stride, out_pad in zip(self.strides, self.output_padding):
        if out_pad >= stride:
          raise ValueError("Stride " + str(self.strides) + " must be greater than output "
                           "padding " + str(self.output_padding))

  def build(self, input_shape):
    if len(tensor_shape.TensorShape(input_shape)) != self.rank + 2:
      raise ValueError("Inputs should have rank %d. Received input shape: %s"
                       % (self.rank + 2, input_shape))
    input_dim = self._input_dim(input_shape)
    self.input_spec = InputSpec(ndim=self.rank + 2, axes={self._channel_axis: input_dim})
    self.kernel = self.add_weight("kernel", shape=self.kernel_size + (self.filters, input_dim),
                                  initializer=self.kernel_initializer,
                                  regularizer=self.kernel_regularizer,
                                  constraint=self.kernel_constraint, trainable=True,
                                  dtype=self.dtype)
    self._add_bias()
    self.built = True

  def call(self, inputs):
    shape = inputs.shape.as_list()
    first = self.data_format == "channels_first"
    spatial = shape[2:] if first else shape[1:-1]
    out_pad = self.output_padding or (None,) * self.rank
    sizes = [deconv_output_length(spatial[i], self.kernel_size[i], self.padding, out_pad[i],
                                  self.strides[i], self.dilation_rate[i])
             for i in range(self.rank)]
    output_shape = ([shape[0], self.filters] + sizes if first
                    else [shape[0]] + sizes + [self.filters])
    transpose = conv_ops.conv2d_transpose if self.rank == 2 else conv_ops.conv3d_transpose
    outputs = transpose(inputs, self.kernel, output_shape, self.strides,
                        padding=self.padding.upper(), data_format=self._tf_format,
                        dilations=self.dilation_rate)
    return self._finish(outputs)

  def get_config(self):
    config = super().get_config()
    config["output_padding"] = self.output_padding
    return config


@export("keras.layers.Conv2DTranspose", "keras.layers.Convolution2DTranspose")
class Conv2DTranspose(_ConvTranspose):
  """Transposed 2-D convolution ("deconvolution")."""

  def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None,
               data_format=None, dilation_rate=(1, 1), activation=None, use_bias=True,
               kernel_initializer="glorot_uniform", bias_initializer="zeros",
               kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               kernel_constraint=None, bias_constraint=None, **kwargs):
    super().__init__(2, filters, kernel_size, strides, padding, output_padding, data_format,
                     dilation_rate, activation, use_bias, kernel_initializer, bias_initializer,
                     kernel_regularizer, bias_regularizer, activity_regularizer,
                     kernel_constraint, bias_constraint, **kwargs)


@export("keras.layers.Conv3DTranspose", "keras.layers.Convolution3DTranspose")
class Conv3DTranspose(_ConvTranspose):
  """Transposed 3-D convolution."""

  def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
               output_padding=None, data_format=None, activation=None, use_bias=True,
               kernel_initializer="glorot_uniform", bias_initializer="zeros",
               kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               kernel_constraint=None, bias_constraint=None, **kwargs):
    super().__init__(3, filters, kernel_size, strides, padding, output_padding, data_format,
                     (1, 1, 1), activation, use_bias,
                     kernel_initializer, bias_initializer, kernel_regularizer,
                     bias_regularizer, activity_regularizer, kernel_constraint,
                     bias_constraint, **kwargs)


class SeparableConv(Conv):
  """Depthwise then pointwise convolution (Keras's `SeparableConv`)."""

  def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
               dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
               depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
               bias_initializer="zeros", depthwise_regularizer=None,
               pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
               trainable=True, name=None, **kwargs):
    super().__init__(rank, filters, kernel_size, strides=strides, padding=padding,
                     data_format=data_format, dilation_rate=dilation_rate,
                     activation=activation, use_bias=use_bias,
                     bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                     activity_regularizer=activity_regularizer,
                     bias_constraint=bias_constraint, trainable=trainable, name=name, **kwargs)
    self.depth_multiplier = depth_multiplier
    self.depthwise_initializer = initializers.get(depthwise_initializer)
    self.pointwise_initializer = initializers.get(pointwise_initializer)
    self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
    self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
    self.depthwise_constraint = depthwise_constraint
    self.pointwise_constraint = pointwise_constraint

  def build(self, input_shape):
    input_dim = self._input_dim(input_shape)
    self.input_spec = InputSpec(ndim=self.rank + 2, axes={self._channel_axis: input_dim})
    self.depthwise_kernel = self.add_weight(
        "depthwise_kernel", shape=self.kernel_size + (input_dim, self.depth_multiplier),
        initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
        constraint=self.depthwise_constraint, trainable=True, dtype=self.dtype)
    self.pointwise_kernel = self.add_weight(
        "pointwise_kernel",
        shape=(1,) * self.rank + (self.depth_multiplier * input_dim, self.filters),
        initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
        constraint=self.pointwise_constraint, trainable=True, dtype=self.dtype)
    self._add_bias()
    self.built = True

  def call(self, inputs):
    padding, strides, dilation = self.padding, self.strides, self.dilation_rate
    depthwise, pointwise = self.depthwise_kernel, self.pointwise_kernel
    if padding == "causal":
      inputs, padding = self._causal_pad(inputs), "valid"
    data_format = self._tf_format
    if self.rank == 1:  # as Keras: a 2-D separable convolution over a height-1 image
      first = self.data_format == "channels_first"
      inputs = array_ops.expand_dims(inputs, 2 if first else 1)
      depthwise = array_ops.expand_dims(depthwise, 0)
      pointwise = array_ops.expand_dims(pointwise, 0)
      strides, dilation = (1,) + strides, (1,) + dilation
      data_format = "NCHW" if first else "NHWC"
    full_strides = (1, 1) + strides if data_format == "NCHW" else (1,) + strides + (1,)
    outputs = conv_ops.separable_conv2d(inputs, depthwise, pointwise, full_strides,
                                        padding.upper(), rate=dilation, data_format=data_format)
    if self.rank == 1:
      outputs = array_ops.squeeze(outputs, [2 if data_format == "NCHW" else 1])
    return self._finish(outputs)

  def get_config(self):
    config = super().get_config()
    for key in ("kernel_initializer", "kernel_regularizer", "kernel_constraint"):
      config.pop(key)
    config.update(depth_multiplier=self.depth_multiplier,
                  depthwise_initializer=serialize(self.depthwise_initializer),
                  pointwise_initializer=serialize(self.pointwise_initializer),
                  depthwise_regularizer=serialize(self.depthwise_regularizer),
                  pointwise_regularizer=serialize(self.pointwise_regularizer),
                  depthwise_constraint=serialize(self.depthwise_constraint),
                  pointwise_constraint=serialize(self.pointwise_constraint))
    return config


@export("keras.layers.SeparableConv1D", "keras.layers.SeparableConvolution1D")
class SeparableConv1D(SeparableConv):
  """Depthwise separable 1-D convolution."""

  def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
               dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
               depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
               bias_initializer="zeros", depthwise_regularizer=None,
               pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
               **kwargs):
    super().__init__(1, filters, kernel_size, strides, padding, data_format, dilation_rate,
                     depth_multiplier, activation, use_bias, depthwise_initializer,
                     pointwise_initializer, bias_initializer, depthwise_regularizer,
                     pointwise_regularizer, bias_regularizer, activity_regularizer,
                     depthwise_constraint, pointwise_constraint, bias_constraint, **kwargs)


@export("keras.layers.SeparableConv2D", "keras.layers.SeparableConvolution2D")
class SeparableConv2D(SeparableConv):
  """Depthwise separable 2-D convolution."""

  def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
               dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
               depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
               bias_initializer="zeros", depthwise_regularizer=None,
               pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
               **kwargs):
    super().__init__(2, filters, kernel_size, strides, padding, data_format, dilation_rate,
                     depth_multiplier, activation, use_bias, depthwise_initializer,
                     pointwise_initializer, bias_initializer, depthwise_regularizer,
                     pointwise_regularizer, bias_regularizer, activity_regularizer,
                     depthwise_constraint, pointwise_constraint, bias_constraint, **kwargs)


@export("keras.layers.DepthwiseConv2D")
class DepthwiseConv2D(Conv2D):
  """Depthwise 2-D convolution: each input channel gets `depth_multiplier` filters."""

  def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1,
               data_format=None, activation=None, use_bias=True,
               depthwise_initializer="glorot_uniform", bias_initializer="zeros",
               depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
               depthwise_constraint=None, bias_constraint=None, **kwargs):
    super().__init__(filters=None, kernel_size=kernel_size, strides=strides, padding=padding,
                     data_format=data_format, activation=activation, use_bias=use_bias,
                     bias_regularizer=bias_regularizer,
                     activity_regularizer=activity_regularizer,
                     bias_constraint=bias_constraint, **kwargs)
    self.depth_multiplier = depth_multiplier
    self.depthwise_initializer = initializers.get(depthwise_initializer)
    self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
    self.depthwise_constraint = depthwise_constraint

  def build(self, input_shape):
    if len(tensor_shape.TensorShape(input_shape)) < 4:
      raise ValueError("Inputs to `DepthwiseConv2D` should have rank 4. Received input shape:",
                       str(input_shape))
    input_dim = dim(input_shape, self._channel_axis)
    if input_dim is None:
      raise ValueError("The channel dimension of the inputs to `DepthwiseConv2D` should be "
                       "defined. Found `None`.")
    self.depthwise_kernel = self.add_weight(
        "depthwise_kernel", shape=self.kernel_size + (input_dim, self.depth_multiplier),
        initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
        constraint=self.depthwise_constraint, trainable=True, dtype=self.dtype)
    self.filters = input_dim * self.depth_multiplier
    self._add_bias()
    self.input_spec = InputSpec(ndim=4, axes={self._channel_axis: input_dim})
    self.built = True

  def call(self, inputs):
    first = self.data_format == "channels_first"
    strides = (1, 1) + self.strides if first else (1,) + self.strides + (1,)
    outputs = conv_ops.depthwise_conv2d(inputs, self.depthwise_kernel, strides,
                                        self.padding.upper(), dilations=self.dilation_rate,
                                        data_format=self._tf_format)
    return self._finish(outputs)

  def get_config(self):
    config = super().get_config()
    for key in ("filters", "kernel_initializer", "kernel_regularizer", "kernel_constraint"):
      config.pop(key)
    config.update(depth_multiplier=self.depth_multiplier,
                  depthwise_initializer=serialize(self.depthwise_initializer),
                  depthwise_regularizer=serialize(self.depthwise_regularizer),
                  depthwise_constraint=serialize(self.depthwise_constraint))
    return config
