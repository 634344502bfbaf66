"""Keras BatchNormalization (TF 1.15's v1 layer) and LayerNormalization."""
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import backend
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import InputSpec, Layer
from tfe_compat.keras.layers.conv_utils import serialize
from tfe_compat.ops import array_ops
from tfe_compat.ops import control_flow_ops
from tfe_compat.ops import matmul_cast_ops
from tfe_compat.ops import nn_impl


@ops.op(name="AssignMovingAvg")
def _moving_deltas(moving_mean, moving_variance, mean, variance, decay):
  """TF's assign_moving_average deltas: (moving - batch) * (1 - momentum), for both stats."""
  return ((moving_mean - mean.astype(moving_mean.dtype)) * decay,
          (moving_variance - variance.astype(moving_variance.dtype)) * decay)


def _normalize_axes(axis, ndims):
  axes = [axis] if isinstance(axis, int) else list(axis)
  axes = [a + ndims if a < 0 else a for a in axes]
  for a in axes:
    if a < 0 or a >= ndims:
      raise ValueError("Invalid axis: %d" % a)
  if len(axes) != len(set(axes)):
    raise ValueError("Duplicate axis: %s" % axes)
  return axes


@export("keras.layers.BatchNormalization")
class BatchNormalization(Layer):
  """Normalizes with batch statistics when training, moving statistics otherwise.

  `training=None` follows `tf.keras.backend.learning_phase()` (0, i.e. inference, unless
  set). In training the moving statistics are updated TF's way:
  `moving -= (moving - batch) * (1 - momentum)`. As in TF 1.15, 4-D inputs normalized over
  axis 1 or 3 use the fused kernel, whose batch variance for the moving average is the
  unbiased one; other inputs use the biased variance of `tf.nn.moments`.
  """

  def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
               beta_initializer="zeros", gamma_initializer="ones",
               moving_mean_initializer="zeros", moving_variance_initializer="ones",
               beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
               gamma_constraint=None, renorm=False, renorm_clipping=None,
               renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
               adjustment=None, name=None, **kwargs):
    super().__init__(name=name, trainable=trainable, **kwargs)
    if renorm:
      raise NotImplementedError("BatchNormalization(renorm=True) is not supported by "
                                "tfe_compat")
    if virtual_batch_size is not None:
      raise NotImplementedError("BatchNormalization(virtual_batch_size=...) is not supported "
                                "by tfe_compat")
    if adjustment is not None:
      raise NotImplementedError("BatchNormalization(adjustment=...) is not supported by "
                                "tfe_compat")
    self.axis = axis[:] if isinstance(axis, list) else axis
    self.momentum, self.epsilon = momentum, epsilon
    self.center, self.scale = center, scale
    self.beta_initializer = initializers.get(beta_initializer)
    self.gamma_initializer = initializers.get(gamma_initializer)
    self.moving_mean_initializer = initializers.get(moving_mean_initializer)
    self.moving_variance_initializer = initializers.get(moving_variance_initializer)
    self.beta_regularizer = regularizers.get(beta_regularizer)
    self.gamma_regularizer = regularizers.get(gamma_regularizer)
    self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
    self.renorm, self.virtual_batch_size, self.adjustment = renorm, None, None
    self.fused = True if fused is None else fused
    self.supports_masking = True

  def build(self, input_shape):
    input_shape = tensor_shape.TensorShape(input_shape)
    if not input_shape.ndims:
      raise ValueError("Input has undefined rank:", input_shape)
    ndims = len(input_shape)
    self.axis = _normalize_axes(self.axis, ndims)
    self.fused = bool(self.fused and ndims == 4 and self.axis in ([1], [3])
                      and self.dtype in ("float16", "bfloat16", "float32"))
    param_dtype = "float32" if self.dtype in ("float16", "bfloat16") else self.dtype
    axis_to_dim = {a: tensor_shape.dimension_value(input_shape[a]) for a in self.axis}
    if any(d is None for d in axis_to_dim.values()):
      raise ValueError("Input has undefined `axis` dimension. Input shape: ", input_shape)
    self.input_spec = InputSpec(ndim=ndims, axes=axis_to_dim)
    if len(axis_to_dim) == 1:
      param_shape = (list(axis_to_dim.values())[0],)
    else:
      param_shape = tuple(axis_to_dim.get(i, 1) for i in range(ndims))

    def weight(name, initializer, regularizer=None, constraint=None, trainable=True):
      return self.add_weight(name=name, shape=param_shape, dtype=param_dtype,
                             initializer=initializer, regularizer=regularizer,
                             constraint=constraint, trainable=trainable)

    self.gamma = weight("gamma", self.gamma_initializer, self.gamma_regularizer,
                        self.gamma_constraint) if self.scale else None
    self.beta = weight("beta", self.beta_initializer, self.beta_regularizer,
                       self.beta_constraint) if self.center else None
    self.moving_mean = weight("moving_mean", self.moving_mean_initializer, trainable=False)
    self.moving_variance = weight("moving_variance", self.moving_variance_initializer,
                                  trainable=False)
    self._param_shape = param_shape
    self.built = True

  def _update_moving_stats(self, mean, variance, decay):
    decay = ops.convert_to_tensor(decay, dtype=self.moving_mean.dtype)
    mean_delta, variance_delta = _moving_deltas(
        ops.convert_to_tensor(self.moving_mean), ops.convert_to_tensor(self.moving_variance),
        mean, variance, decay)
    self.moving_mean.assign_sub(mean_delta)
    self.moving_variance.assign_sub(variance_delta)

  def _params(self):
    ones = lambda: array_ops.ones(self._param_shape, self.moving_mean.dtype)  # noqa: E731
    zeros = lambda: array_ops.zeros(self._param_shape, self.moving_mean.dtype)  # noqa: E731
    return (self.gamma if self.scale else ones()), (self.beta if self.center else zeros())

  def call(self, inputs, training=None):
    if training is None:
      training = backend.learning_phase()
    decay = 1.0 - self.momentum
    if isinstance(training, Tensor):
      static = ops.get_static_value(training)
      if static is None:  # known when the graph runs: TF's smart_cond, both ways computed
        outputs, mean, variance = self._with_batch_statistics(inputs)
        decay = matmul_cast_ops.cast(training, self.moving_mean.dtype) * decay  # none if inference
        self._update_moving_stats(mean, variance, decay)
        return control_flow_ops.cond(training, lambda: outputs,
                                     lambda: self._with_moving_statistics(inputs))
      training = static
    if not bool(training):
      return self._with_moving_statistics(inputs)
    outputs, mean, variance = self._with_batch_statistics(inputs)
    self._update_moving_stats(mean, variance, decay)
    return outputs

  def _with_batch_statistics(self, inputs):
    """(normalized inputs, batch mean, batch variance for the moving average)."""
    if self.fused:
      scale, offset = self._params()
      return nn_impl.fused_batch_norm(inputs, scale, offset, epsilon=self.epsilon,
                                      data_format="NCHW" if self.axis == [1] else "NHWC")
    mean, variance = nn_impl.moments(inputs, self._reduction_axes(inputs),
                                     keep_dims=len(self.axis) > 1)
    return self._normalize(inputs, mean, variance), mean, variance

  def _with_moving_statistics(self, inputs):
    if self.fused:
      scale, offset = self._params()
      return nn_impl.fused_batch_norm(inputs, scale, offset, self.moving_mean,
                                      self.moving_variance, epsilon=self.epsilon,
                                      data_format="NCHW" if self.axis == [1] else "NHWC",
                                      is_training=False)[0]
    return self._normalize(inputs, self.moving_mean, self.moving_variance)

  def _reduction_axes(self, inputs):
    return [i for i in range(inputs.shape.ndims) if i not in self.axis]

  def _normalize(self, inputs, mean, variance):
    ndims = inputs.shape.ndims
    reduction_axes = self._reduction_axes(inputs)
    broadcast_shape = [1] * ndims
    broadcast_shape[self.axis[0]] = inputs.shape.as_list()[self.axis[0]]

    def broadcast(v):
      if v is not None and v.shape.ndims != ndims and reduction_axes != list(range(ndims - 1)):
        return array_ops.reshape(v, broadcast_shape)
      return v

    return nn_impl.batch_normalization(inputs, broadcast(mean), broadcast(variance),
                                       broadcast(self.beta), broadcast(self.gamma),
                                       self.epsilon)

  def get_config(self):
    config = super().get_config()
    config.update(
        axis=self.axis, momentum=self.momentum, epsilon=self.epsilon, center=self.center,
        scale=self.scale, beta_initializer=serialize(self.beta_initializer),
        gamma_initializer=serialize(self.gamma_initializer),
        moving_mean_initializer=serialize(self.moving_mean_initializer),
        moving_variance_initializer=serialize(self.moving_variance_initializer),
        beta_regularizer=serialize(self.beta_regularizer),
        gamma_regularizer=serialize(self.gamma_regularizer),
        beta_constraint=serialize(self.beta_constraint),
        gamma_constraint=serialize(self.gamma_constraint))
    return config


@export("keras.layers.LayerNormalization")
class LayerNormalization(Layer):
  """Normalizes each example over `axis` with its own mean and variance."""

  def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
               gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
               beta_constraint=None, gamma_constraint=None, trainable=True, name=None,
               **kwargs):
    super().__init__(name=name, trainable=trainable, **kwargs)
    if isinstance(axis, (list, tuple)):
      self.axis = list(axis)
    elif isinstance(axis, int):
      self.axis = axis
    else:
      raise ValueError("Expected an int or a list/tuple of ints for the argument 'axis', but "
                       "received instead: %s" % axis)
    self.epsilon, self.center, self.scale = epsilon, center, scale
    self.beta_initializer = initializers.get(beta_initializer)
    self.gamma_initializer = initializers.get(gamma_initializer)
    self.beta_regularizer = regularizers.get(beta_regularizer)
    self.gamma_regularizer = regularizers.get(gamma_regularizer)
    self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
    self.supports_masking = True

  def build(self, input_shape):
    input_shape = tensor_shape.TensorShape(input_shape)
    if input_shape.ndims is None:
      raise ValueError("Input shape %s has undefined rank." % input_shape)
    self.axis = _normalize_axes(self.axis, input_shape.ndims)
    param_shape = [tensor_shape.dimension_value(input_shape[a]) for a in self.axis]
    self.gamma = self.add_weight(
        name="gamma", shape=param_shape, initializer=self.gamma_initializer,
        regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
        trainable=True) if self.scale else None
    self.beta = self.add_weight(
        name="beta", shape=param_shape, initializer=self.beta_initializer,
        regularizer=self.beta_regularizer, constraint=self.beta_constraint,
        trainable=True) if self.center else None
    self.built = True

  def call(self, inputs):
    ndims = inputs.shape.ndims
    dims = inputs.shape.as_list()
    broadcast_shape = [dims[a] if a in self.axis else 1 for a in range(ndims)]

    def broadcast(v):
      if v is not None and v.shape.ndims != ndims and self.axis != [ndims - 1]:
        return array_ops.reshape(v, broadcast_shape)
      return v

    mean, variance = nn_impl.moments(inputs, self.axis, keep_dims=True)
    return nn_impl.batch_normalization(inputs, mean, variance, broadcast(self.beta),
                                       broadcast(self.gamma), self.epsilon)

  def get_config(self):
    config = super().get_config()
    config.update(
        axis=self.axis, epsilon=self.epsilon, center=self.center, scale=self.scale,
        beta_initializer=serialize(self.beta_initializer),
        gamma_initializer=serialize(self.gamma_initializer),
        beta_regularizer=serialize(self.beta_regularizer),
        gamma_regularizer=serialize(self.gamma_regularizer),
        beta_constraint=serialize(self.beta_constraint),
        gamma_constraint=serialize(self.gamma_constraint))
    return config
