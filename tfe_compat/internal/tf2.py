"""`tensorflow.python.tf2`: whether TensorFlow 2.x behaviour is on. tfe_compat implements the
TF 1.x API, where it is off (`tf.enable_v2_behavior()` is accepted and changes nothing)."""


def enabled():
  return False
