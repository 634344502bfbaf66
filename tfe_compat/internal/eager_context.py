"""`tensorflow.python.eager.context`: the eager-context queries TF 1.x code imports from there
(`from tensorflow.python import eager as tfe; tfe.context.num_gpus()`)."""
import contextlib

from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework.context import executing_eagerly  # noqa: F401
from tfe_compat.framework.device import num_gpus  # noqa: F401
from tfe_compat.framework.modes import eager_mode  # noqa: F401


@contextlib.contextmanager
def graph_mode():
  """`context.graph_mode()`: ops build into the default graph inside the block."""
  with graph_lib.get_default_graph().as_default():
    yield
