"""`tf.keras.layers`: importing this package registers every layer module's exports."""
from tfe_compat.keras.layers import (advanced_activations, convolutional, core,  # noqa: F401
                                     convolutional_recurrent, dense_attention, embeddings,
                                     local, merge, noise, normalization, pooling, recurrent,
                                     wrappers)
