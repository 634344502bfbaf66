"""`tf.feature_column` (TF 1.15): columns, `input_layer`, `linear_model`; the Keras layers
over them live in keras/layers/dense_features.py."""
from tfe_compat.feature_column import categorical, columns, feature_column_lib  # noqa: F401
