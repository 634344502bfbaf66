"""`tf.keras.experimental`: the premade `LinearModel` and `WideDeepModel`, `PeepholeLSTMCell`,
and the SavedModel functions (not supported: Keras models are saved as HDF5 here)."""
from tfe_compat.framework.api import export
from tfe_compat.keras import activations
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.training import Model
from tfe_compat.keras.layers import core
from tfe_compat.keras.layers import recurrent_cells
from tfe_compat.ops import array_ops, matmul_cast_ops, nn_ops


@export("keras.experimental.LinearModel")
class LinearModel(Model):
  """`activation(sum_i inputs_i @ kernel_i + bias)`: one bias-free Dense per input."""

  def __init__(self, units=1, activation=None, use_bias=True, kernel_initializer="zeros",
               bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
               **kwargs):
    self.units = units
    self.activation = activations.get(activation)
    self.use_bias = use_bias
    self.kernel_initializer = initializers.get(kernel_initializer)
    self.bias_initializer = initializers.get(bias_initializer)
    self.kernel_regularizer = regularizers.get(kernel_regularizer)
    self.bias_regularizer = regularizers.get(bias_regularizer)
    super().__init__(**kwargs)

  def build(self, input_shape):
    shapes = input_shape if isinstance(input_shape, list) else [input_shape]
    self.dense_layers = [core.Dense(units=self.units, use_bias=False,
                                    kernel_initializer=self.kernel_initializer,
                                    kernel_regularizer=self.kernel_regularizer)
                         for _ in shapes]
    self.bias = self.add_weight("bias", shape=(self.units,), initializer=self.bias_initializer,
                                regularizer=self.bias_regularizer, dtype=self.dtype,
                                trainable=True) if self.use_bias else None
    self.built = True

  def call(self, inputs):
    if not isinstance(inputs, (tuple, list)):
      inputs = [inputs]
    if len(inputs) != len(self.dense_layers):
      raise ValueError("Expected {} inputs, but got {} inputs".format(len(self.dense_layers),
                                                                      len(inputs)))
    result = None
    for inp, layer in zip(inputs, self.dense_layers):
      output = layer(inp)
      result = output if result is None else result + output
    if self.use_bias:
      result = nn_ops.bias_add(result, self.bias)
    if self.activation is not None:
      return self.activation(result)
    return result

  def get_config(self):
    return {"units": self.units, "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer)}

  @classmethod
  def from_config(cls, config, custom_objects=None):
    del custom_objects
    return cls(**config)


@export("keras.experimental.WideDeepModel")
class WideDeepModel(Model):
  """`activation(0.5 * (linear_model(x) + dnn_model(x)))`; `compile` may take two
  optimizers, [linear optimizer, dnn optimizer]."""

  def __init__(self, linear_model, dnn_model, activation=None, **kwargs):
    super().__init__(**kwargs)
    self.linear_model = linear_model
    self.dnn_model = dnn_model
    self.activation = activations.get(activation)

  def call(self, inputs):
    if not isinstance(inputs, (tuple, list)) or len(inputs) != 2:
      linear_inputs = dnn_inputs = inputs
    else:
      linear_inputs, dnn_inputs = inputs
    output = .5 * (self.linear_model(linear_inputs) + self.dnn_model(dnn_inputs))
    if self.activation:
      return self.activation(output)
    return output

  def _get_optimizers(self):
    if isinstance(self.optimizer, (tuple, list)):
      return self.optimizer[0], self.optimizer[1]
    return self.optimizer, self.optimizer

  def _backwards(self, tape, loss):
    linear_vars = self.linear_model.trainable_weights
    dnn_vars = self.dnn_model.trainable_weights
    linear_grads, dnn_grads = tape.gradient(loss, (linear_vars, dnn_vars))
    linear_optimizer, dnn_optimizer = self._get_optimizers()
    linear_optimizer.apply_gradients(zip(linear_grads, linear_vars))
    dnn_optimizer.apply_gradients(zip(dnn_grads, dnn_vars))

  def get_config(self):
    return {"linear_model": {"class_name": type(self.linear_model).__name__,
                             "config": self.linear_model.get_config()},
            "dnn_model": {"class_name": type(self.dnn_model).__name__,
                          "config": self.dnn_model.get_config()},
            "activation": activations.serialize(self.activation)}


@export("keras.experimental.PeepholeLSTMCell")
class PeepholeLSTMCell(recurrent_cells.LSTMCell):
  """An LSTMCell whose input and forget gates see the previous cell state and whose output
  gate sees the new one, through per-unit peephole weights (Gers & Schmidhuber)."""

  def __init__(self, units, **kwargs):
    super().__init__(units, **kwargs)
    if self.dropout or self.recurrent_dropout:
      raise NotImplementedError("PeepholeLSTMCell with dropout or recurrent_dropout is not "
                                "supported by tfe_compat.")

  @property
  def _scan_parts(self):  # no fused scan: the RNN steps `call`
    raise AttributeError("_scan_parts")

  def build(self, input_shape):
    super().build(input_shape)
    for gate in ("input", "forget", "output"):
      setattr(self, gate + "_gate_peephole_weights", self.add_weight(
          shape=(self.units,), name=gate + "_gate_peephole_weights",
          initializer=self.kernel_initializer))

  def call(self, inputs, states, training=None):
    h, c = states
    z = matmul_cast_ops.matmul(inputs, self.kernel) + matmul_cast_ops.matmul(h, self.recurrent_kernel)
    if self.use_bias:
      z = z + self.bias
    z_i, z_f, z_c, z_o = array_ops.split(z, 4, axis=1)
    act = recurrent_cells.activation_fn(self._activation_key)
    ract = recurrent_cells.activation_fn(self._recurrent_key)
    i = ract(z_i + self.input_gate_peephole_weights * c)
    f = ract(z_f + self.forget_gate_peephole_weights * c)
    c = f * c + i * act(z_c)
    o = ract(z_o + self.output_gate_peephole_weights * c)
    h = o * act(c)
    return h, [h, c]


@export("keras.experimental.export_saved_model")
def export_saved_model(model, saved_model_path, custom_objects=None, as_text=False,
                       input_signature=None, serving_only=False):
  """Not supported: tfe_compat writes no SavedModel; save Keras models as HDF5."""
  raise NotImplementedError(
      "tf.keras.experimental.export_saved_model is not supported by tfe_compat: SavedModel "
      "directories are neither written nor read. Save the model in HDF5 format instead: "
      "model.save('model.h5') and tf.keras.models.load_model('model.h5').")


@export("keras.experimental.load_from_saved_model")
def load_from_saved_model(saved_model_path, custom_objects=None):
  """Not supported: tfe_compat reads no SavedModel; load Keras models from HDF5."""
  raise NotImplementedError(
      "tf.keras.experimental.load_from_saved_model is not supported by tfe_compat: "
      "SavedModel directories are neither written nor read. Use HDF5 files: "
      "tf.keras.models.load_model('model.h5').")
