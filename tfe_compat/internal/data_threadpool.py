"""`tensorflow.python.data.experimental.ops.threadpool`: a private thread pool for a dataset's
parallel transformations (not in TF's public API)."""
from tfe_compat.data import dataset_ops


class PrivateThreadPool:
  """A thread pool of `num_threads` threads for a pipeline's parallel work."""

  def __init__(self, num_threads, display_name=None, max_intra_op_parallelism=1):
    if num_threads < 1:
      raise ValueError("num_threads must be at least 1")
    self.num_threads = num_threads
    self.display_name = display_name
    self.max_intra_op_parallelism = max_intra_op_parallelism


class _ThreadPoolDataset(dataset_ops.Dataset):
  """The input's elements. The pool is not used: tfe_compat runs parallel transformations on
  the thread that reads the pipeline (short calls) or on tf.data's own workers (long ones)."""

  def __init__(self, input_dataset, thread_pool):
    self._input, self._thread_pool = input_dataset, thread_pool

  def _compute_spec(self):
    return self._input.element_spec

  def _cardinality(self):
    return self._input._cardinality()

  def _make_iter(self):
    return self._input._make_iter()


def override_threadpool(dataset, thread_pool):
  """`dataset`, computing its parallel transformations with `thread_pool`."""
  return _ThreadPoolDataset(dataset, thread_pool)
