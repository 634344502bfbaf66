"""`tf.keras.Input` and `tf.keras.layers.InputLayer`."""
from tfe_compat.framework import dtypes
from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras.engine.base_layer import Layer
from tfe_compat.keras.engine.keras_tensor import KerasTensor, Node


@export("keras.layers.InputLayer")
class InputLayer(Layer):
  """The entry point of a functional model: holds the symbolic input tensor."""

  def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None,
               sparse=False, name=None, **kwargs):
    batch_input_shape = kwargs.pop("batch_input_shape", None)
    if kwargs.pop("ragged", False):
      raise NotImplementedError("Ragged inputs are not supported by tfe_compat.")
    kwargs.pop("optional", None)  # a later Keras's config key (files it wrote load here)
    name = name or backend.unique_object_name("input", zero_based=False)
    super().__init__(name=name, dtype=dtype or backend.floatx(), **kwargs)
    if batch_input_shape is None:
      batch_input_shape = (batch_size,) + tuple(input_shape or ())
    self._batch_input_shape = tuple(batch_input_shape)
    self.built = True
    self.sparse = sparse
    node = Node(self, None, (), {}, None)
    tensor = input_tensor if input_tensor is not None else KerasTensor(
        self._batch_input_shape, dtypes.as_dtype(self.dtype), name=name, node=node)
    node.outputs = tensor
    self.output = tensor

  def get_config(self):
    return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype,
            "sparse": self.sparse, "name": self.name}


@export("keras.Input", "keras.layers.Input")
def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=False, tensor=None,
          **kwargs):  # pylint: disable=invalid-name
  """A symbolic input of `shape` (without the batch dimension) for a functional model."""
  batch_shape = kwargs.pop("batch_shape", None)
  if kwargs:
    raise ValueError("Unrecognized keyword arguments: " + str(list(kwargs)))
  if shape is not None and batch_shape is not None:
    raise ValueError("Only provide the `shape` OR `batch_input_shape` argument to Input, not "
                     "both at the same time.")
  if shape is None and batch_shape is None and tensor is None:
    raise ValueError("Please provide to Input either a `shape` or a `tensor` argument. Note "
                     "that `shape` does not include the batch dimension.")
  if isinstance(shape, int):
    shape = (shape,)
  layer = InputLayer(input_shape=shape, batch_size=batch_size, name=name, dtype=dtype,
                     sparse=sparse, input_tensor=tensor, batch_input_shape=batch_shape)
  return layer.output
