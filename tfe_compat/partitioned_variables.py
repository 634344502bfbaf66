"""TF 1.x variable partitioners: functions `(shape, dtype) -> partitions per axis`.

The partitioners compute TF's partition lists; creating partitioned variables
(`get_variable(partitioner=...)` with a shape, `create_partitioned_variables`) is not
supported: tfe_compat variables are single arrays (shard them with `tf.distribute`).
"""
import math

from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export


def _element_size(dtype, bytes_per_string_element):
  dtype = dtypes.as_dtype(dtype)
  return bytes_per_string_element if dtype is dtypes.string else dtype.size


@export("variable_axis_size_partitioner")
def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16,
                                   max_shards=None):
  """A partitioner that shards `axis` so that each shard stays below `max_shard_bytes`
  (at most `max_shards` shards)."""
  if max_shard_bytes < 1 or bytes_per_string_element < 1:
    raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive.")
  if max_shards and max_shards < 1:
    raise ValueError("max_shards must be positive.")

  def _partitioner(shape, dtype):
    if not isinstance(shape, tensor_shape.TensorShape):
      raise ValueError("shape is not a TensorShape: %s" % shape)
    if not shape.is_fully_defined():
      raise ValueError("shape is not fully defined: %s" % shape)
    partitions = [1] * shape.ndims
    axis_size = shape.dims[axis].value
    bytes_per_slice = 1.0 * (shape.num_elements() / axis_size) * _element_size(
        dtype, bytes_per_string_element)
    slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
    axis_shards = int(math.ceil(1.0 * axis_size / slices_per_shard))
    if max_shards:
      axis_shards = min(max_shards, axis_shards)
    partitions[axis] = axis_shards
    return partitions

  return _partitioner


@export("min_max_variable_partitioner")
def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
  """A partitioner giving each shard at least `min_slice_size` bytes, in at most
  `max_partitions` shards along `axis`."""

  def _partitioner(shape, dtype):
    if axis >= len(shape):
      raise ValueError("Can not partition variable along axis %d when shape is only %s"
                       % (axis, shape))
    total_size_bytes = shape.num_elements() * _element_size(dtype, bytes_per_string_element)
    partitions = total_size_bytes / min_slice_size
    partitions_list = [1] * len(shape)
    partitions_list[axis] = max(1, min(shape.dims[axis].value, max_partitions,
                                       int(math.ceil(partitions))))
    return partitions_list

  return _partitioner


@export("fixed_size_partitioner")
def fixed_size_partitioner(num_shards, axis=0):
  """A partitioner making `num_shards` shards along `axis` (fewer if the axis is shorter)."""

  def _partitioner(shape, **unused_args):
    partitions_list = [1] * len(shape)
    partitions_list[axis] = min(num_shards, shape.dims[axis].value)
    return partitions_list

  return _partitioner


@export("create_partitioned_variables")
def create_partitioned_variables(shape, slicing, initializer, dtype=dtypes.float32,
                                 trainable=True, collections=None, name=None, reuse=None):
  """Checks the arguments as TF does, then raises NotImplementedError (see the module)."""
  if len(shape) != len(slicing):
    raise ValueError("The 'shape' and 'slicing' of a partitioned Variable must have the "
                     "length: shape: %s, slicing: %s" % (shape, slicing))
  if len(shape) < 1:
    raise ValueError("A partitioned Variable must have rank at least 1: shape: %s" % shape)
  raise NotImplementedError("tfe_compat does not support partitioned variables "
                            "(create_partitioned_variables): create one variable of the "
                            "full shape instead.")
