"""`tf.train` optimizers, learning-rate schedules and the global step; Keras optimizers.

optimizer_base.py (slots and the one jitted update), update_rules.py (each optimizer's math
as an optax transformation), optimizers.py (`tf.train.*Optimizer`), keras_optimizers.py
(`tf.keras.optimizers.*`), schedules.py, training_util.py (global step), moving_averages.py
(`ExponentialMovingAverage`).
"""
from tfe_compat.train import keras_optimizers  # noqa: F401
from tfe_compat.train import optimizers  # noqa: F401
from tfe_compat.train import schedules  # noqa: F401
from tfe_compat.train import training_util  # noqa: F401
from tfe_compat.train import checkpoint, checkpoint_management, saver  # noqa: F401,E501
from tfe_compat.train import meta_graph  # noqa: F401  (import_meta_graph, export_meta_graph)
from tfe_compat.train import moving_averages  # noqa: F401
from tfe_compat.train import queue_inputs  # noqa: F401
from tfe_compat.train import basic_loops, checkpoint_utils, device_setter, sdca_ops, server_lib  # noqa: F401,E501
from tfe_compat.train import session_hooks, monitored_session  # noqa: F401  (graph mode)
