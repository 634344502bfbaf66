"""`tf.keras.callbacks.TensorBoard` as TF 1.15 has it (callbacks_v1) under eager execution.

Epoch logs go to `log_dir` as `epoch_<name>` scalars at step `epoch` (`epoch_loss`,
`epoch_acc`, `epoch_val_loss`, ...); with `update_freq` 'batch' or a number of samples, batch
logs go as `batch_<name>` at the count of batches seen, and epoch logs at the number of
samples seen. Histograms, images, graphs and embeddings are graph-mode features of TF 1.15's
callback: `histogram_freq` is set to 0 with a warning, as TF does when executing eagerly.
Subclasses may override `_write_custom_summaries(step, logs)` and use `self.writer`.
"""
import logging

import numpy as np

from tfe_compat.framework.api import export
from tfe_compat.keras import callbacks
from tfe_compat.summary import summary_ops
from tfe_compat.summary import writer

_log = logging.getLogger("tensorflow")
_NOT_LOGGED = ("batch", "size", "num_steps")


@export("keras.callbacks.TensorBoard")
class TensorBoard(callbacks.Callback):
  """Writes the training and validation metrics of `fit` for TensorBoard."""

  def __init__(self, log_dir="./logs", histogram_freq=0, batch_size=32, write_graph=True,
               write_grads=False, write_images=False, embeddings_freq=0,
               embeddings_layer_names=None, embeddings_metadata=None, embeddings_data=None,
               update_freq="epoch", profile_batch=2):
    super().__init__()
    self.log_dir = log_dir
    self.histogram_freq = histogram_freq
    if histogram_freq:
      _log.warning("Weight and gradient histograms not supported for eager execution, "
                   "setting `histogram_freq` to `0`.")
      self.histogram_freq = 0
    self.batch_size = batch_size
    self.write_graph = write_graph
    self.write_grads = write_grads
    self.write_images = write_images
    self.embeddings_freq = embeddings_freq
    self.embeddings_layer_names = embeddings_layer_names
    self.embeddings_metadata = embeddings_metadata
    self.embeddings_data = embeddings_data
    self.update_freq = 1 if update_freq == "batch" else update_freq
    self.profile_batch = profile_batch
    self.writer = None
    self._total_batches_seen = 0
    self._samples_seen = 0
    self._samples_seen_at_last_write = 0

  def _init_writer(self):
    self.writer = writer.create_file_writer(self.log_dir)

  def set_model(self, model):
    self.model = model
    self._init_writer()

  def _write_custom_summaries(self, step, logs=None):
    """Writes each log value as a scalar summary at `step`, then flushes."""
    logs = logs or {}
    with self.writer.as_default(), summary_ops.always_record_summaries():
      for name, value in logs.items():
        if isinstance(value, np.ndarray):
          value = value.item()
        if not isinstance(value, (bool, np.bool_)):  # flags the training loop may add
          summary_ops.scalar(name, value, step=step)
    self.writer.flush()

  def on_batch_end(self, batch, logs=None):
    logs = logs or {}
    self._samples_seen += logs.get("size", 1)
    if (self.update_freq != "epoch"
        and self._samples_seen - self._samples_seen_at_last_write >= self.update_freq):
      self._write_custom_summaries(
          self._total_batches_seen,
          {"batch_" + k: v for k, v in logs.items() if k not in _NOT_LOGGED})
      self._samples_seen_at_last_write = self._samples_seen
    self._total_batches_seen += 1

  def on_epoch_end(self, epoch, logs=None):
    logs = {"epoch_" + k: v for k, v in (logs or {}).items() if k not in _NOT_LOGGED}
    self._write_custom_summaries(epoch if self.update_freq == "epoch" else self._samples_seen,
                                 logs)

  def on_train_end(self, logs=None):
    self.writer.close()
