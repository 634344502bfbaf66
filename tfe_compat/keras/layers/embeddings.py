"""`tf.keras.layers.Embedding` (TF 1.15): integer ids -> dense vectors."""
from tfe_compat.framework.api import export
from tfe_compat.keras import backend as K
from tfe_compat.keras import constraints
from tfe_compat.keras import initializers
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine.base_layer import Layer
from tfe_compat.ops import math_ops, matmul_cast_ops, nn_impl


@export("keras.layers.Embedding")
class Embedding(Layer):
  """Looks up rows of an (input_dim, output_dim) `embeddings` matrix for each integer id."""

  def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
               embeddings_regularizer=None, activity_regularizer=None,
               embeddings_constraint=None, mask_zero=False, input_length=None, **kwargs):
    if input_dim <= 0 or output_dim <= 0:
      raise ValueError("Both `input_dim` and `output_dim` should be positive, Received "
                       "input_dim = %s and output_dim = %s" % (input_dim, output_dim))
    if "input_shape" not in kwargs:
      kwargs["input_shape"] = (input_length,) if input_length else (None,)
    dtype = kwargs.pop("dtype", K.floatx())
    kwargs["autocast"] = False
    super().__init__(dtype=dtype, activity_regularizer=regularizers.get(activity_regularizer),
                     **kwargs)
    self.input_dim = input_dim
    self.output_dim = output_dim
    self.embeddings_initializer = initializers.get(embeddings_initializer)
    self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
    self.embeddings_constraint = constraints.get(embeddings_constraint)
    self.mask_zero = mask_zero
    self.supports_masking = mask_zero
    self.input_length = input_length

  def build(self, input_shape):
    self.embeddings = self.add_weight(
        shape=(self.input_dim, self.output_dim), initializer=self.embeddings_initializer,
        name="embeddings", regularizer=self.embeddings_regularizer,
        constraint=self.embeddings_constraint)
    self.built = True

  def compute_mask(self, inputs, mask=None):
    if not self.mask_zero:
      return None
    return math_ops.not_equal(inputs, 0)

  def call(self, inputs):
    if K.dtype(inputs) not in ("int32", "int64"):
      inputs = matmul_cast_ops.cast(inputs, "int32")
    return nn_impl.embedding_lookup(self.embeddings, inputs)

  def get_config(self):
    config = super().get_config()
    config.update(
        input_dim=self.input_dim, output_dim=self.output_dim,
        embeddings_initializer=initializers.serialize(self.embeddings_initializer),
        embeddings_regularizer=regularizers.serialize(self.embeddings_regularizer),
        activity_regularizer=regularizers.serialize(self.activity_regularizer),
        embeddings_constraint=constraints.serialize(self.embeddings_constraint),
        mask_zero=self.mask_zero, input_length=self.input_length)
    return config
