"""`tf.keras`: layers, models, training, on tfe_compat ops, Variables and tapes."""
from tfe_compat.keras import applications  # noqa: F401,E402  (tf.keras.applications)
