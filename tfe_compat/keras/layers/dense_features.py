"""`tf.keras.layers.DenseFeatures` and `tf.keras.experimental.SequenceFeatures`.

Keras layers over feature columns: the columns' variables (embedding tables) are the
layer's weights, named "<layer>/<column>/embedding_weights:0", trainable and saved in
checkpoints. Called on a dict of `tf.keras.Input`s, the layer's output shape comes from
its columns (the columns' host-side id bookkeeping cannot be traced for shapes).
"""
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.feature_column import columns as fc
from tfe_compat.feature_column import feature_column_lib as fc_lib
from tfe_compat.keras.engine import keras_tensor
from tfe_compat.keras.engine.base_layer import Layer
from tfe_compat.ops import array_ops
from tfe_compat.ops import check_ops
from tfe_compat.variable_scope import name_scope


class _LayerState:
  """The state manager of a features layer: variables are the layer's weights."""

  def __init__(self, layer):
    self._layer = layer
    self._variables, self._resources = {}, {}

  def create_variable(self, column, name, shape, dtype=None, trainable=True, initializer=None):
    variable = self._layer.add_weight(name=name, shape=shape, dtype=dtype,
                                      initializer=initializer,
                                      trainable=self._layer.trainable and trainable)
    self._variables[(column, name)] = variable
    return variable

  def get_variable(self, column, name):
    return self._variables[(column, name)]

  def resource(self, column, name, make):
    if (column, name) not in self._resources:
      self._resources[(column, name)] = make()
    return self._resources[(column, name)]


class _BaseFeaturesLayer(Layer):
  """A layer of feature columns of one kind (sorted by name, as TF sorts them)."""

  def __init__(self, feature_columns, expected_column_type, trainable, name, **kwargs):
    super().__init__(name=name, trainable=trainable, **kwargs)
    self._feature_columns = fc_lib.normalize_feature_columns(feature_columns, sort=True)
    self._state_manager = _LayerState(self)
    for column in self._feature_columns:
      if not isinstance(column, expected_column_type):
        raise ValueError("Items of feature_columns must be a {}. You can wrap a categorical "
                         "column with an embedding_column or indicator_column. Given: {}"
                         .format(expected_column_type, column))

  def build(self, _):
    for column in self._feature_columns:
      with name_scope(fc.sanitize_column_name_for_variable_scope(column.name)):
        column.create_state(self._state_manager)
    super().build(None)

  def __call__(self, features, *args, **kwargs):
    if isinstance(features, dict) and any(
        isinstance(v, keras_tensor.KerasTensor) for v in features.values()):
      return self._symbolic_call(features, kwargs)
    return super().__call__(features, *args, **kwargs)

  def _symbolic_call(self, features, kwargs):
    with name_scope(self.name):
      self._maybe_build(features)
    batch = next(v.shape[0] for v in features.values()
                 if isinstance(v, keras_tensor.KerasTensor))
    node = keras_tensor.Node(self, features, (), kwargs, None)
    node.outputs = self._symbolic_outputs(node, batch)
    return node.outputs

  def _total_elements(self):
    return sum(column.variable_shape.num_elements() for column in self._feature_columns)

  def _check_features(self, features):
    if not isinstance(features, dict):
      raise ValueError("We expected a dictionary here. Instead we got: ", features)

  def get_config(self):
    raise NotImplementedError("tfe_compat cannot serialize feature columns: a model with a "
                              "%s layer cannot be saved as a config (save its weights)."
                              % type(self).__name__)


@export("keras.layers.DenseFeatures")
class DenseFeatures(_BaseFeaturesLayer):
  """The dense columns' tensors for a dict of features, concatenated: [batch, total]."""

  def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
    super().__init__(feature_columns, fc.DenseColumn, trainable, name, **kwargs)

  def call(self, features, cols_to_output_tensors=None):
    self._check_features(features)
    cache = fc.FeatureTransformationCache(features)
    outputs = []
    for column in self._feature_columns:
      with name_scope(column.name):
        output = fc_lib.dense_output(column, column.get_dense_tensor(cache,
                                                                     self._state_manager))
      if cols_to_output_tensors is not None:
        cols_to_output_tensors[column] = output
      outputs.append(output)
    fc_lib.verify_static_batch_size_equality(outputs, self._feature_columns)
    return array_ops.concat(outputs, -1)

  def compute_output_shape(self, input_shape):
    batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
    return tensor_shape.TensorShape([batch, self._total_elements()])

  def _symbolic_outputs(self, node, batch):
    return keras_tensor.KerasTensor([batch, self._total_elements()], "float32",
                                    name="%s/Identity:0" % self.name, node=node)


@export("keras.experimental.SequenceFeatures")
class SequenceFeatures(_BaseFeaturesLayer):
  """The sequence columns' tensors, concatenated ([batch, time, total]), and the sequence
  lengths (int64 [batch]; the columns' lengths must agree)."""

  def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
    super().__init__(feature_columns, fc.SequenceDenseColumn, trainable, name, **kwargs)

  def call(self, features):
    self._check_features(features)
    cache = fc.FeatureTransformationCache(features)
    outputs, lengths = [], []
    for column in self._feature_columns:
      with name_scope(column.name):
        dense, length = column.get_sequence_dense_tensor(cache, self._state_manager)
        num_elements = column.variable_shape.num_elements()
        outputs.append(array_ops.reshape(dense, [dense.shape[0], dense.shape[1], num_elements]))
        lengths.append(length)
    fc_lib.verify_static_batch_size_equality(lengths, self._feature_columns)
    for length in lengths[1:]:
      check_ops.assert_equal(lengths[0], length)
    fc_lib.verify_static_batch_size_equality(outputs, self._feature_columns)
    return array_ops.concat(outputs, -1), lengths[0]

  def compute_output_shape(self, input_shape):
    batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
    return tensor_shape.TensorShape([batch, None, self._total_elements()])

  def _symbolic_outputs(self, node, batch):
    return (keras_tensor.KerasTensor([batch, None, self._total_elements()], "float32",
                                     name="%s/Identity:0" % self.name, node=node),
            keras_tensor.KerasTensor([batch], "int64", name="%s/Identity:1" % self.name,
                                     node=node))
