"""`tf.layers` (TF 1.x): the Keras layers with TF1 defaults, and their functional forms.

In eager mode every call of a functional form (`tf.layers.dense(x, 10)`) makes a new layer,
so new variables, as TF 1.x did; keep a layer object to reuse variables.
"""
import contextlib
import inspect

from tfe_compat import variable_scope as vs
from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras import layers as _keras_layers
from tfe_compat.keras.engine import base_layer


@export("layers.Layer")
class Layer(base_layer.Layer):
  """`tf.layers.Layer`: a Keras Layer (TF1's base layer API: `apply`, `add_variable`).

  As TF1 creates a layer's variables with `tf.get_variable`, a weight without an initializer
  takes the enclosing variable scope's initializer (else Keras's default)."""

  def __init__(self, *args, name=None, **kwargs):
    base = base_layer.to_snake_case(type(self).__name__)
    # TF1's layer names count from 1 ("dense_1"); the variable scope, chosen at the first
    # call, counts scopes from 0 ("dense").
    super().__init__(*args, name=name or backend.unique_object_name(base, zero_based=False),
                     **kwargs)
    self._base_name = name or base

  def add_weight(self, name=None, shape=None, dtype=None, initializer=None, *args, **kwargs):
    scope = vs.get_variable_scope()
    if initializer is None:
      initializer = scope.initializer
    if scope.custom_getter is None:
      return super().add_weight(name, shape, dtype, initializer, *args, **kwargs)
    create = super().add_weight

    def true_getter(name, shape=None, dtype=None, initializer=None, **unused):  # pylint: disable=unused-argument
      return create(name.rsplit("/", 1)[-1], shape, dtype, initializer, *args, **kwargs)

    # The scope's custom getter sees the weight's full name, as with tf.get_variable.
    full_name = vs.current_name_scope() + name
    return scope.custom_getter(true_getter, full_name, shape=shape, dtype=dtype,
                               initializer=initializer, trainable=kwargs.get("trainable", True))

  add_variable = add_weight

  _variable_scope_name = None  # TF1: the layer's variable scope, made unique at first call

  def __call__(self, inputs, *args, **kwargs):
    if self._variable_scope_name is None and "_parent_scope" not in self.__dict__:
      with vs.variable_scope(None, default_name=self._base_name) as scope:
        self._variable_scope_name = scope.name  # unique among the scopes opened so far
    return super().__call__(inputs, *args, **kwargs)


export("layers.InputSpec")(base_layer.InputSpec)


def _tf1_layer(keras_class, name, training_default=None):
  """A tf.layers class: the Keras layer under its TF1 name (TF1 calls default training=False)."""
  namespace = {"__doc__": "`tf.layers.%s` (Keras %s with TF1 defaults)." % (name, name),
               "__module__": __name__}
  scoped = [p.name for p in inspect.signature(keras_class.__init__).parameters.values()
            if p.name.endswith("_initializer") and p.default == "glorot_uniform"]
  if scoped:  # TF1's default None: the variable scope's initializer, else glorot_uniform
    positions = list(inspect.signature(keras_class.__init__).parameters)[1:]

    def __init__(self, *args, **kwargs):
      for parameter in scoped:
        if parameter not in positions[:len(args)]:
          kwargs.setdefault(parameter, None)
      keras_class.__init__(self, *args, **kwargs)
    signature = inspect.signature(keras_class.__init__)
    __init__.__signature__ = signature.replace(parameters=[
        p.replace(default=None) if p.name in scoped else p
        for p in signature.parameters.values()])
    namespace["__init__"] = __init__
  if training_default is not None:
    def call(self, inputs, training=training_default):
      return keras_class.call(self, inputs, training=training)
    namespace["call"] = call
  cls = type(name, (keras_class, Layer), namespace)
  return export("layers." + name)(cls)


Dense = _tf1_layer(_keras_layers.core.Dense, "Dense")
Dropout = _tf1_layer(_keras_layers.core.Dropout, "Dropout", training_default=False)
Flatten = _tf1_layer(_keras_layers.core.Flatten, "Flatten")
BatchNormalization = _tf1_layer(_keras_layers.normalization.BatchNormalization,
                                "BatchNormalization", training_default=False)
_CONV_AND_POOL = ("Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
                  "SeparableConv1D", "SeparableConv2D", "MaxPooling1D", "MaxPooling2D",
                  "MaxPooling3D", "AveragePooling1D", "AveragePooling2D", "AveragePooling3D")
for _name in _CONV_AND_POOL:
  _module = (_keras_layers.pooling if "Pooling" in _name else _keras_layers.convolutional)
  globals()[_name] = _tf1_layer(getattr(_module, _name), _name)
for _alias, _name in (("Convolution1D", "Conv1D"), ("Convolution2D", "Conv2D"),
                      ("Convolution3D", "Conv3D"), ("Convolution2DTranspose", "Conv2DTranspose"),
                      ("Convolution3DTranspose", "Conv3DTranspose"),
                      ("SeparableConvolution2D", "SeparableConv2D"), ("MaxPool1D", "MaxPooling1D"),
                      ("MaxPool2D", "MaxPooling2D"), ("MaxPool3D", "MaxPooling3D"),
                      ("AveragePool1D", "AveragePooling1D"), ("AveragePool2D", "AveragePooling2D"),
                      ("AveragePool3D", "AveragePooling3D")):
  export("layers." + _alias)(globals()[_name])


def _functional(cls, name):
  """`tf.layers.<name>(inputs, *layer args, training=..., reuse=..., **kwargs)`."""
  init_params = list(inspect.signature(cls.__init__).parameters)[1:]

  def apply_layer(inputs, *args, **kwargs):
    kwargs.pop("reuse", None)  # eager mode has no variable reuse across functional calls
    call_kwargs = {"training": kwargs.pop("training")} if "training" in kwargs else {}
    layer_kwargs = dict(zip(init_params, args))
    layer_kwargs.update(kwargs)
    return cls(**layer_kwargs).apply(inputs, **call_kwargs)

  apply_layer.__name__ = name
  apply_layer.__doc__ = "`tf.layers.%s`: builds a `tf.layers.%s` and applies it." % (
      name, cls.__name__)
  return export("layers." + name)(apply_layer)


for _fn_name, _cls in (("dense", Dense), ("dropout", Dropout), ("flatten", Flatten),
                       ("batch_normalization", BatchNormalization), ("conv1d", "Conv1D"),
                       ("conv2d", "Conv2D"), ("conv3d", "Conv3D"),
                       ("conv2d_transpose", "Conv2DTranspose"),
                       ("conv3d_transpose", "Conv3DTranspose"),
                       ("separable_conv1d", "SeparableConv1D"),
                       ("separable_conv2d", "SeparableConv2D"),
                       ("max_pooling1d", "MaxPooling1D"), ("max_pooling2d", "MaxPooling2D"),
                       ("max_pooling3d", "MaxPooling3D"),
                       ("average_pooling1d", "AveragePooling1D"),
                       ("average_pooling2d", "AveragePooling2D"),
                       ("average_pooling3d", "AveragePooling3D")):
  globals()[_fn_name] = _functional(globals()[_cls] if isinstance(_cls, str) else _cls,
                                    _fn_name)


# ---- Keras-style scope: in eager mode every tf.layers layer already owns its variables ----
_KERAS_STYLE_SCOPE = False


@export("layers.experimental.keras_style_scope")
@contextlib.contextmanager
def keras_style_scope():
  """Layers created inside use Keras-style variable management (TF 1.15's scope flag; eager
  layers never share variables through variable scopes)."""
  global _KERAS_STYLE_SCOPE  # pylint: disable=global-statement
  stack = _KERAS_STYLE_SCOPE
  _KERAS_STYLE_SCOPE = True
  try:
    yield
  finally:
    _KERAS_STYLE_SCOPE = stack


@export("layers.experimental.set_keras_style")
def set_keras_style():
  """Uses Keras-style variable management for every layer from now on."""
  global _KERAS_STYLE_SCOPE  # pylint: disable=global-statement
  _KERAS_STYLE_SCOPE = True
