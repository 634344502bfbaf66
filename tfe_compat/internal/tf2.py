"""`tensorflow.python.tf2`: whether TensorFlow 2.x behaviour is on (after
`tf.enable_v2_behavior()`); tfe_compat implements the TF 1.x API, where it is off."""
from tfe_compat.framework import modes


def enabled():
  return modes.tf2_enabled()
