"""`tf.keras.Sequential`: a linear stack of layers."""
import logging

from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.keras.engine.base_layer import Layer, _call_parameters
from tfe_compat.keras.engine.input_layer import Input, InputLayer
from tfe_compat.keras.engine.keras_tensor import KerasTensor
from tfe_compat.keras.engine.training import Model


@export("keras.Sequential", "keras.models.Sequential")
class Sequential(Model):
  """`Sequential(layers=None, name=None)`: each layer's output feeds the next layer."""

  def __init__(self, layers=None, name=None):
    super().__init__(name=name)
    self._stack = []
    self._symbolic_outputs = None  # the KerasTensor after each layer, once the input is known
    for layer in layers or []:
      self.add(layer)

  @property
  def layers(self):
    return [layer for layer in self._stack if not isinstance(layer, InputLayer)]

  def _tracked_values(self):
    values = super()._tracked_values()
    ids = {id(v) for v in values}
    return values + [layer for layer in self._stack if id(layer) not in ids]

  def add(self, layer):
    """Appends a layer; with a known input shape the new layer is built at once. As in TF 1.x,
    one layer may be added twice (its weights, if any, are then shared)."""
    if isinstance(layer, KerasTensor) and isinstance(layer.node.layer, InputLayer):
      layer = layer.node.layer
    if not isinstance(layer, Layer):
      raise TypeError("The added layer must be an instance of class Layer. Found: "
                      + str(layer))
    self._stack.append(layer)
    if isinstance(layer, InputLayer):
      self._symbolic_outputs = [layer.output]
    elif self._symbolic_outputs:
      self._symbolic_outputs.append(layer(self._symbolic_outputs[-1]))
    elif len(self._stack) == 1 and hasattr(layer, "_batch_input_shape"):
      shape = layer._batch_input_shape  # pylint: disable=protected-access
      x = Input(batch_shape=shape, dtype=layer.dtype)
      self._stack.insert(0, x.node.layer)
      self._symbolic_outputs = [x, layer(x)]
    self.built = self._symbolic_outputs is not None

  def pop(self):
    """Removes the last layer."""
    if not self.layers:
      raise TypeError("There are no layers in the model.")
    self._stack.pop()
    if self._symbolic_outputs:
      self._symbolic_outputs.pop()
    if not self.layers:
      self._stack, self._symbolic_outputs, self.built = [], None, False

  def build(self, input_shape=None):
    """Builds every layer for inputs of `input_shape` (batch dimension included); layers
    taking a dict of features (DenseFeatures) build when first called, as in Keras."""
    if self._symbolic_outputs is None and input_shape is not None and not isinstance(
        input_shape, dict):
      shape = tensor_shape.TensorShape(input_shape).as_list()
      x = Input(batch_shape=[None] + shape[1:])
      self._stack.insert(0, x.node.layer)
      outputs = [x]
      for layer in self.layers:
        outputs.append(layer(outputs[-1]))
      self._symbolic_outputs = outputs
    self.built = True

  def call(self, inputs, training=None, mask=None):
    outputs = inputs
    for layer in self.layers:
      accepts_training, _, accepts_any = _call_parameters(type(layer))
      if accepts_training or accepts_any:
        outputs = layer(outputs, training=training)
      else:
        outputs = layer(outputs)
    return outputs

  def predict_proba(self, x, batch_size=32, verbose=0):
    """`predict`, warning when the outputs are not probabilities (TF 1.15)."""
    preds = self.predict(x, batch_size, verbose)
    if preds.min() < 0. or preds.max() > 1.:
      logging.getLogger("tensorflow").warning(
          "Network returning invalid probability values. The last layer might not normalize "
          "predictions into probabilities (like softmax or sigmoid would).")
    return preds

  def predict_classes(self, x, batch_size=32, verbose=0):
    """The argmax class of each prediction (a 0.5 threshold for one output unit)."""
    proba = self.predict(x, batch_size=batch_size, verbose=verbose)
    if proba.shape[-1] > 1:
      return proba.argmax(axis=-1)
    return (proba > 0.5).astype("int32")

  def _output_shape_text(self, layer):
    if self._symbolic_outputs:
      index = self._stack.index(layer)
      return str(tuple(self._symbolic_outputs[index].shape.as_list()))
    return "multiple"

  def get_config(self):
    """{"name", "layers"}; built from an input, the first layer's config carries its shape."""
    layers = [{"class_name": type(l).__name__, "config": l.get_config()} for l in self.layers]
    if layers and self._symbolic_outputs and "batch_input_shape" not in layers[0]["config"]:
      layers[0]["config"]["batch_input_shape"] = self._stack[0]._batch_input_shape  # pylint: disable=protected-access
    return {"name": self.name, "layers": layers}

  @classmethod
  def from_config(cls, config, custom_objects=None):
    from tfe_compat.keras import saving  # pylint: disable=import-outside-toplevel  (a cycle)
    if isinstance(config, list):  # the older format: the list of layers alone
      config = {"layers": config}
    model = cls(name=config.get("name"))
    for layer_config in config["layers"]:
      model.add(saving.deserialize(layer_config, custom_objects))
    return model
