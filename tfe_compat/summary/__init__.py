"""`tf.contrib.summary` and `tf.summary`: TensorBoard event files written with tensorboardX.

summary_ops.py (tf.contrib.summary, the per-thread summary state, writers), summary_v2.py
(tf.summary: the TF 2.x ops TF 1.15 carries and the TF 1.x ones), encoding.py (values as
TensorBoard protos), writer.py (event files and their flush threads).
`tf.keras.callbacks.TensorBoard` lives in keras/callbacks_tensorboard.py.
"""
from tfe_compat.summary import summary_ops  # noqa: F401
from tfe_compat.summary import summary_v2  # noqa: F401
