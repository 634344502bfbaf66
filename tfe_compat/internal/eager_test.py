"""`tensorflow.python.eager.test`: `tf.test` whose `main` enables eager execution first, as
TF's eager tests run (the rest of its names are `tf.test`'s)."""
from tfe_compat.framework import modes
from tfe_compat.internal import platform_test


def main(argv=None):
  modes.enable_eager_execution()
  platform_test.main(argv)
