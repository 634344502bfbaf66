"""`tf.data.experimental` / `tf.contrib.data` transformations (functions of a dataset)."""
from tfe_compat.framework.api import export


@export("data.experimental.shuffle_and_repeat", "contrib.data.shuffle_and_repeat")
def shuffle_and_repeat(buffer_size, count=None, seed=None):
  return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


@export("data.experimental.map_and_batch", "contrib.data.map_and_batch")
def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
  calls = num_parallel_calls if num_parallel_calls is not None else num_parallel_batches
  return lambda dataset: dataset.map(map_func, calls).batch(batch_size, drop_remainder)


@export("data.experimental.parallel_interleave", "contrib.data.parallel_interleave")
def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
  """Interleave in TF's deterministic order (`sloppy` is accepted; order is kept)."""
  return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


@export("data.experimental.unbatch", "contrib.data.unbatch")
def unbatch():
  return lambda dataset: dataset.unbatch()


@export("data.experimental.enumerate_dataset", "contrib.data.enumerate_dataset")
def enumerate_dataset(start=0):
  return lambda dataset: dataset.enumerate(start)


@export("data.experimental.ignore_errors", "contrib.data.ignore_errors")
def ignore_errors(log_warning=False):
  return lambda dataset: dataset.ignore_errors(log_warning)


@export("data.experimental.prefetch_to_device", "contrib.data.prefetch_to_device")
def prefetch_to_device(device, buffer_size=None):
  """Prefetches on the host; elements move to the current device as they are produced."""
  return lambda dataset: dataset.prefetch(1 if buffer_size is None else buffer_size)


@export("data.experimental.padded_batch_and_drop_remainder",
        "contrib.data.padded_batch_and_drop_remainder")
def padded_batch_and_drop_remainder(batch_size, padded_shapes, padding_values=None):
  return lambda dataset: dataset.padded_batch(batch_size, padded_shapes, padding_values, True)


@export("contrib.data.batch_and_drop_remainder")
def batch_and_drop_remainder(batch_size):
  return lambda dataset: dataset.batch(batch_size, drop_remainder=True)
