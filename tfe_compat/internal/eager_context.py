"""`tensorflow.python.eager.context`: the eager-context queries TF 1.x code imports from there
(`from tensorflow.python import eager as tfe; tfe.context.num_gpus()`)."""
import contextlib

from tfe_compat.framework.context import executing_eagerly  # noqa: F401
from tfe_compat.framework.device import num_gpus  # noqa: F401


@contextlib.contextmanager
def eager_mode():
  """`context.eager_mode()`: execution is always eager."""
  yield


@contextlib.contextmanager
def graph_mode():
  """`context.graph_mode()`: graph mode is not supported; entering it raises."""
  raise RuntimeError("Graph mode is not supported: tfe_compat runs TensorFlow's eager "
                     "execution only (context.graph_mode() was entered).")
  yield  # pylint: disable=unreachable
