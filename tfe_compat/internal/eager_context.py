"""`tensorflow.python.eager.context`: the eager-context queries TF 1.x code imports from there
(`from tensorflow.python import eager as tfe; tfe.context.num_gpus()`)."""
from tfe_compat.framework.context import executing_eagerly  # noqa: F401
from tfe_compat.framework.device import num_gpus  # noqa: F401
