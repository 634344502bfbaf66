"""Core Keras layers (TF 1.15): Dense, Activation, Dropout, SpatialDropout1D/2D/3D, Flatten,
Reshape, Permute, RepeatVector, Lambda, Masking, ActivityRegularization."""
import codecs
import inspect
import marshal
import sys
import types

import numpy as np

from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import _serialization
from tfe_compat.keras import activations
from tfe_compat.keras import backend as K
from tfe_compat.keras import constraints
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import InputSpec, Layer
from tfe_compat.ops import array_ops, control_flow_ops, math_ops, matmul_cast_ops, nn_ops


def normalize_data_format(value):
  """'channels_first' or 'channels_last' (None: the backend's image_data_format)."""
  data_format = (K.image_data_format() if value is None else value).lower()
  if data_format not in ("channels_first", "channels_last"):
    raise ValueError('The `data_format` argument must be one of "channels_first", '
                     '"channels_last". Received: ' + str(value))
  return data_format


def is_training(training):
  """Keras's `training` argument as a Python bool (None: the learning phase)."""
  if training is None:
    training = K.learning_phase()
  return bool(training)


def training_cond(training, when_training, otherwise):
  """`when_training()` or `otherwise()` by Keras's `training` argument; a tensor whose value
  is unknown (a graph's placeholder, a traced argument) chooses with `tf.cond` (TF's
  smart_cond)."""
  if training is None:
    training = K.learning_phase()
  if isinstance(training, Tensor):
    static = ops.get_static_value(training)
    if static is None:
      return control_flow_ops.cond(training, when_training, otherwise)
    training = static
  return when_training() if bool(training) else otherwise()


@export("keras.layers.Dense")
class Dense(Layer):
  """`activation(inputs @ kernel + bias)` over the last axis."""

  def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
               bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
               **kwargs):
    super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
    self.units = int(units)
    if self.units < 0:
      raise ValueError("Received an invalid value for `units`, expected a positive integer. "
                       "Received: units=%s" % units)
    self.activation = activations.get(activation)
    self.use_bias = use_bias
    self.kernel_initializer = initializers.get(kernel_initializer)
    self.bias_initializer = initializers.get(bias_initializer)
    self.kernel_regularizer = regularizers.get(kernel_regularizer)
    self.bias_regularizer = regularizers.get(bias_regularizer)
    self.kernel_constraint = constraints.get(kernel_constraint)
    self.bias_constraint = constraints.get(bias_constraint)
    self.supports_masking = True
    self.input_spec = InputSpec(min_ndim=2)

  def build(self, input_shape):
    last_dim = tensor_shape.dimension_value(input_shape[-1])
    if last_dim is None:
      raise ValueError("The last dimension of the inputs to `Dense` should be defined. "
                       "Found `None`.")
    self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
    self.kernel = self.add_weight("kernel", shape=[last_dim, self.units],
                                  initializer=self.kernel_initializer,
                                  regularizer=self.kernel_regularizer,
                                  constraint=self.kernel_constraint, dtype=self.dtype)
    self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                regularizer=self.bias_regularizer,
                                constraint=self.bias_constraint,
                                dtype=self.dtype) if self.use_bias else None
    self.built = True

  def call(self, inputs):
    if type(inputs) is Tensor and not inputs.dtype.is_floating:
      # TF casts ints and bools to the compute dtype (strings: Cast's UnimplementedError)
      inputs = matmul_cast_ops.cast(inputs, self._autocast_dtype or self.dtype)
    if inputs.shape.ndims == 2 and self.use_bias:  # one fused op: one dispatch, one tape entry
      return self.activation(nn_ops.xw_plus_b(inputs, self.kernel, self.bias))
    if inputs.shape.ndims > 2:
      outputs = matmul_cast_ops.tensordot(inputs, self.kernel, [[inputs.shape.ndims - 1], [0]])
    else:
      outputs = matmul_cast_ops.matmul(inputs, self.kernel)
    if self.use_bias:
      outputs = nn_ops.bias_add(outputs, self.bias)
    return self.activation(outputs)

  def get_config(self):
    config = super().get_config()
    config.update(
        units=self.units, activation=activations.serialize(self.activation),
        use_bias=self.use_bias,
        kernel_initializer=initializers.serialize(self.kernel_initializer),
        bias_initializer=initializers.serialize(self.bias_initializer),
        kernel_regularizer=regularizers.serialize(self.kernel_regularizer),
        bias_regularizer=regularizers.serialize(self.bias_regularizer),
        activity_regularizer=regularizers.serialize(self.activity_regularizer),
        kernel_constraint=constraints.serialize(self.kernel_constraint),
        bias_constraint=constraints.serialize(self.bias_constraint))
    return config


@export("keras.layers.Activation")
class Activation(Layer):
  """Applies an activation function (a name or a callable)."""

  def __init__(self, activation, **kwargs):
    super().__init__(**kwargs)
    self.supports_masking = True
    self.activation = activations.get(activation)

  def call(self, inputs):
    return self.activation(inputs)

  def get_config(self):
    config = super().get_config()
    config["activation"] = activations.serialize(self.activation)
    return config


@export("keras.layers.Dropout")
class Dropout(Layer):
  """Zeroes a fraction `rate` of the inputs (scaling the rest by 1 / (1 - rate)) when
  training is truthy; the identity otherwise."""

  def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
    super().__init__(**kwargs)
    if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
      raise ValueError("Invalid value %s received for `rate`, expected a value between 0 and "
                       "1." % rate)
    self.rate = rate
    self.noise_shape = noise_shape
    self.seed = seed
    self.supports_masking = True

  def _get_noise_shape(self, inputs):
    if self.noise_shape is None:
      return None
    dims = inputs.shape.as_list()
    return [dims[i] if value is None else value for i, value in enumerate(self.noise_shape)]

  def call(self, inputs, training=None):
    return training_cond(training, lambda: nn_ops.dropout(
        inputs, noise_shape=self._get_noise_shape(inputs), seed=self.seed, rate=self.rate),
                         lambda: array_ops.identity(inputs))

  def get_config(self):
    config = super().get_config()
    config.update(rate=self.rate, noise_shape=self.noise_shape, seed=self.seed)
    return config


@export("keras.layers.SpatialDropout1D")
class SpatialDropout1D(Dropout):
  """Dropout of whole channels of (batch, steps, channels) inputs."""

  def __init__(self, rate, **kwargs):
    super().__init__(rate, **kwargs)
    self.input_spec = InputSpec(ndim=3)

  def _get_noise_shape(self, inputs):
    dims = inputs.shape.as_list()
    return (dims[0], 1, dims[2])


@export("keras.layers.SpatialDropout2D")
class SpatialDropout2D(Dropout):
  """Dropout of whole feature maps of 4-D inputs."""

  _rank = 2

  def __init__(self, rate, data_format=None, **kwargs):
    super().__init__(rate, **kwargs)
    self.data_format = normalize_data_format(data_format)
    self.input_spec = InputSpec(ndim=self._rank + 2)

  def _get_noise_shape(self, inputs):
    dims = inputs.shape.as_list()
    if self.data_format == "channels_first":
      return (dims[0], dims[1]) + (1,) * self._rank
    return (dims[0],) + (1,) * self._rank + (dims[-1],)


@export("keras.layers.SpatialDropout3D")
class SpatialDropout3D(SpatialDropout2D):
  """Dropout of whole feature volumes of 5-D inputs."""

  _rank = 3


@export("keras.layers.Flatten")
class Flatten(Layer):
  """(batch, ...) -> (batch, prod(...)); channels_first inputs are made channels_last first."""

  def __init__(self, data_format=None, **kwargs):
    super().__init__(**kwargs)
    self.data_format = normalize_data_format(data_format)
    self.input_spec = InputSpec(min_ndim=1)

  def call(self, inputs):
    rank = inputs.shape.ndims
    if self.data_format == "channels_first" and rank > 1:
      inputs = array_ops.transpose(inputs, perm=[0] + list(range(2, rank)) + [1])
    if rank == 1:
      return array_ops.expand_dims(inputs, 1)
    dims = inputs.shape.as_list()
    return array_ops.reshape(inputs, (dims[0], int(np.prod(dims[1:]))))

  def get_config(self):
    config = super().get_config()
    config["data_format"] = self.data_format
    return config


@export("keras.layers.Reshape")
class Reshape(Layer):
  """Reshapes every sample to `target_shape` (one entry may be -1)."""

  def __init__(self, target_shape, **kwargs):
    super().__init__(**kwargs)
    self.target_shape = tuple(target_shape)

  def call(self, inputs):
    return array_ops.reshape(inputs, (inputs.shape.as_list()[0],) + self.target_shape)

  def get_config(self):
    config = super().get_config()
    config["target_shape"] = self.target_shape
    return config


@export("keras.layers.Permute")
class Permute(Layer):
  """Permutes the non-batch axes: `dims` is a permutation of 1..n."""

  def __init__(self, dims, **kwargs):
    super().__init__(**kwargs)
    self.dims = tuple(dims)
    if sorted(dims) != list(range(1, len(dims) + 1)):
      raise ValueError("Invalid permutation `dims` for Permute Layer: %s. The set of indices "
                       "in `dims` must be consecutive and start from 1." % (dims,))
    self.input_spec = InputSpec(ndim=len(self.dims) + 1)

  def call(self, inputs):
    return array_ops.transpose(inputs, perm=(0,) + self.dims)

  def get_config(self):
    config = super().get_config()
    config["dims"] = self.dims
    return config


@export("keras.layers.RepeatVector")
class RepeatVector(Layer):
  """(batch, features) -> (batch, n, features)."""

  def __init__(self, n, **kwargs):
    super().__init__(**kwargs)
    self.n = n
    self.input_spec = InputSpec(ndim=2)

  def call(self, inputs):
    return K.repeat(inputs, self.n)

  def get_config(self):
    config = super().get_config()
    config["n"] = self.n
    return config


# ---- Lambda: functions are serialized as marshalled bytecode, as Keras does ----
def func_dump(func):
  """(base64 bytecode, defaults, closure values) of a Python function."""
  code = codecs.encode(marshal.dumps(func.__code__), "base64").decode("ascii")
  closure = tuple(c.cell_contents for c in func.__closure__) if func.__closure__ else None
  return code, func.__defaults__, closure


def func_load(code, defaults=None, closure=None, globs=None):
  """The function `func_dump` described."""
  if isinstance(code, (tuple, list)):
    code, defaults, closure = code
    defaults = tuple(defaults) if isinstance(defaults, list) else defaults
  if closure is not None:
    closure = tuple(types.CellType(value) for value in closure)
  code = marshal.loads(codecs.decode(code.encode("ascii"), "base64"))
  return types.FunctionType(code, globs if globs is not None else globals(),
                            name=code.co_name, argdefs=defaults, closure=closure)


@export("keras.layers.Lambda")
class Lambda(Layer):
  """Wraps `function(inputs, **arguments)` as a layer (it may also take `mask`/`training`)."""

  def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
    super().__init__(**kwargs)
    self.function = function
    self.arguments = arguments if arguments else {}
    if mask is not None:
      self.supports_masking = True
    self.mask = mask
    self._output_shape = output_shape
    params = inspect.signature(function).parameters
    self._fn_expects_training_arg = "training" in params
    self._fn_expects_mask_arg = "mask" in params

  def call(self, inputs, mask=None, training=None):
    arguments = dict(self.arguments)
    if self._fn_expects_mask_arg:
      arguments["mask"] = mask
    if self._fn_expects_training_arg:
      arguments["training"] = training
    return self.function(inputs, **arguments)

  def compute_mask(self, inputs, mask=None):
    return self.mask(inputs, mask) if callable(self.mask) else self.mask

  def compute_output_shape(self, input_shape):
    if self._output_shape is None:
      return super().compute_output_shape(input_shape)
    if callable(self._output_shape):
      return tensor_shape.TensorShape(self._output_shape(input_shape))
    batch = tensor_shape.TensorShape(input_shape).as_list()[0]
    return tensor_shape.TensorShape([batch] + list(self._output_shape))

  @staticmethod
  def _serialize_function(value, allow_raw=False):
    if isinstance(value, types.LambdaType):
      return func_dump(value), "lambda", value.__module__
    if callable(value):
      return value.__name__, "function", value.__module__
    if allow_raw:
      return value, "raw", None
    raise ValueError("Invalid input for serialization, type: %s " % type(value))

  def get_config(self):
    config = super().get_config()
    function, function_type, module = self._serialize_function(self.function)
    shape, shape_type, shape_module = self._serialize_function(self._output_shape, True)
    config.update(function=function, function_type=function_type, module=module,
                  output_shape=shape, output_shape_type=shape_type,
                  output_shape_module=shape_module)
    if self.mask is not None:
      mask, mask_type, mask_module = self._serialize_function(self.mask)
      config.update(mask=mask, mask_type=mask_type, mask_module=mask_module)
    config["arguments"] = self.arguments
    return config

  @staticmethod
  def _parse_function(config, custom_objects, attr, module_attr, type_attr):
    globs = dict(globals())
    module = config.pop(module_attr, None)
    if module in sys.modules:
      globs.update(sys.modules[module].__dict__)
    globs.update(custom_objects or {})
    function_type = config.pop(type_attr)
    if function_type == "function":
      return _serialization.deserialize_keras_object(
          config[attr], custom_objects=custom_objects,
          printable_module_name="function in Lambda layer")
    if function_type == "lambda":
      return func_load(config[attr], globs=globs)
    if function_type == "raw":
      return config[attr]
    raise TypeError("Unknown function type:", function_type)

  @classmethod
  def from_config(cls, config, custom_objects=None):
    config = dict(config)
    config["function"] = cls._parse_function(config, custom_objects, "function", "module",
                                             "function_type")
    config["output_shape"] = cls._parse_function(config, custom_objects, "output_shape",
                                                 "output_shape_module", "output_shape_type")
    config["mask"] = (cls._parse_function(config, custom_objects, "mask", "mask_module",
                                          "mask_type") if "mask" in config else None)
    for key, value in config.get("arguments", {}).items():
      if isinstance(value, dict) and value.get("type") == "ndarray":
        config["arguments"][key] = np.array(value["value"])
    return cls(**config)


@export("keras.layers.Masking")
class Masking(Layer):
  """Zeroes timesteps whose features all equal `mask_value`; `compute_mask` gives the mask."""

  def __init__(self, mask_value=0., **kwargs):
    super().__init__(**kwargs)
    self.supports_masking = True
    self.mask_value = mask_value

  def compute_mask(self, inputs, mask=None):
    return K.any(math_ops.not_equal(inputs, self.mask_value), axis=-1)

  def call(self, inputs):
    keep = K.any(math_ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
    return inputs * matmul_cast_ops.cast(keep, inputs.dtype)

  def get_config(self):
    config = super().get_config()
    config["mask_value"] = self.mask_value
    return config


@export("keras.layers.ActivityRegularization")
class ActivityRegularization(Layer):
  """The identity, adding `l1 * sum(|x|) + l2 * sum(x**2)` (per sample) to `losses`."""

  def __init__(self, l1=0., l2=0., **kwargs):  # pylint: disable=redefined-outer-name
    super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
    self.supports_masking = True
    self.l1 = l1
    self.l2 = l2

  def get_config(self):
    config = super().get_config()
    config.update(l1=self.l1, l2=self.l2)
    return config

