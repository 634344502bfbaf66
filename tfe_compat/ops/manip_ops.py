"""TF 1.15 array manipulation: broadcasting, meshgrid, sequence_mask, one_hot, roll.

Split from array_ops.py (whose shared helpers it uses); same conventions.
"""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import value_checks
from tfe_compat.ops.array_ops import (canonical_axis, dims_text, host, int_tuple, invalid,
                                      is_string, np_name, reshape, scalar_int, shape_constant)


# ---- Broadcasting ----
@op(name="BroadcastTo")
def _broadcast_to(x, *, shape):
  return jnp.broadcast_to(x, shape)


def _broadcast_dims(a, b):
  """NumPy's broadcast of two shapes (None: unknown), or None when incompatible."""
  out = []
  for i in range(1, max(len(a), len(b)) + 1):
    x = a[-i] if i <= len(a) else 1
    y = b[-i] if i <= len(b) else 1
    if x == 1 or x == y:
      out.append(y if x == 1 else x)
    elif y == 1:
      out.append(x)
    elif x is None or y is None:
      out.append(x if y is None else y)
    else:
      return None
  return tuple(reversed(out))


@export("broadcast_to")
def broadcast_to(input, shape, name=None):  # pylint: disable=redefined-builtin
  input = convert_to_tensor(input)
  dims = int_tuple(shape)
  if _broadcast_dims(input._value.shape, dims) != dims:
    raise invalid("Incompatible shapes: %s vs. %s" % (dims_text(input._value.shape),
                                                     dims_text(dims)), "BroadcastTo")
  value_checks.check_allocation(dims, "BroadcastTo", input._value.dtype.itemsize)
  if is_string(input):
    return Tensor(np.broadcast_to(input._value, dims).copy())
  return _broadcast_to(input, shape=dims)


@export("broadcast_static_shape")
def broadcast_static_shape(shape_x, shape_y):
  """The broadcast of two TensorShapes (ValueError when incompatible)."""
  shape_x, shape_y = tensor_shape.as_shape(shape_x), tensor_shape.as_shape(shape_y)
  if shape_x.dims is None or shape_y.dims is None:
    return tensor_shape.TensorShape(None)
  dims = _broadcast_dims(shape_x.as_list(), shape_y.as_list())
  if dims is None:
    raise ValueError("Incompatible shapes for broadcasting: %s and %s" % (shape_x, shape_y))
  return tensor_shape.TensorShape(dims)


@export("broadcast_dynamic_shape")
def broadcast_dynamic_shape(shape_x, shape_y):
  """The broadcast of two 1-D int shape Tensors, as a Tensor of their dtype."""
  x, y = ops.convert_matching(shape_x, shape_y, op_name="BroadcastArgs")
  a, b = tuple(host(x).tolist()), tuple(host(y).tolist())
  dims = _broadcast_dims(a, b)
  if dims is None:
    raise invalid("Incompatible shapes: %s vs. %s" % (dims_text(a), dims_text(b)),
                  "BroadcastArgs")
  return shape_constant(dims, np_name(x.dtype))


@op(name="Meshgrid")
def _meshgrid(*xs, indexing):
  return tuple(jnp.meshgrid(*xs, indexing=indexing))


@export("meshgrid")
def meshgrid(*args, **kwargs):
  """`tf.meshgrid(*args, indexing='xy', name=None)`: N-D coordinate grids."""
  indexing = kwargs.pop("indexing", "xy")
  kwargs.pop("name", None)
  if kwargs:
    key = list(kwargs)[0]
    raise TypeError("'{}' is an invalid keyword argument for this function".format(key))
  if indexing not in ("xy", "ij"):
    raise ValueError("indexing parameter must be either 'xy' or 'ij'")
  tensors = [reshape(t, [-1]) for t in (convert_to_tensor(a) for a in args)]
  return list(_meshgrid(*tensors, indexing=indexing))


@op(name="SequenceMask")
def _sequence_mask(lengths, *, maxlen, dtype):
  mask = jnp.arange(maxlen, dtype=lengths.dtype) < lengths[..., None]
  return mask.astype(dtype)


@export("sequence_mask")
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
  """`tf.sequence_mask`: `mask[..., j] = j < lengths[...]`; `maxlen` defaults to max(lengths)."""
  lengths = convert_to_tensor(lengths)
  if maxlen is None:
    values = host(lengths)
    maxlen = int(values.max()) if values.size else 0
  else:
    value = host(maxlen)
    if value.ndim:
      raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received `maxlen` "
                       "= %s with shape '%s' instead" % (value, value.shape))
    maxlen = scalar_int(value)
    if maxlen < 0:
      raise invalid("Requires start <= limit when delta > 0: 0/%d" % maxlen, "Range")
  return _sequence_mask(lengths, maxlen=maxlen, dtype=np_name(dtype))


@op(name="OneHot", differentiable=False)
def _one_hot(indices, on_value, off_value, *, depth, axis):
  hot = indices[..., None] == jnp.arange(depth, dtype=indices.dtype)
  if axis != -1:
    hot = jnp.moveaxis(hot, -1, axis)
  return jnp.where(hot, *jax.lax.stop_gradient((on_value, off_value)))  # TF: no gradients


@export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
  """`tf.one_hot`: dtype from `dtype`, else on/off values, else float32; -1 is all off."""
  indices = convert_to_tensor(indices)
  if indices.dtype.name not in ("uint8", "int8", "int32", "int64"):
    raise invalid("Value for attr 'TI' of %s is not in the list of allowed values: uint8, "
                  "int8, int32, int64" % ops.tf_type_name(indices.dtype), "OneHot")
  on = None if on_value is None else convert_to_tensor(on_value)
  off = None if off_value is None else convert_to_tensor(off_value)
  dtype = None if dtype is None else dtypes.as_dtype(dtype)
  for label, t in (("on_value", on), ("off_value", off)):
    if t is not None and dtype is not None and t.dtype is not dtype:
      raise TypeError("dtype {0} of {1} does not match dtype parameter {2}".format(
          t.dtype, label, dtype))
  if dtype is None:
    dtype = on.dtype if on is not None else off.dtype if off is not None else dtypes.float32
  on = convert_to_tensor(1, dtype) if on is None else on
  off = convert_to_tensor(0, dtype) if off is None else off
  if on.dtype is not off.dtype:
    raise TypeError("dtype {0} of on_value does not match dtype {1} of off_value".format(
        on.dtype, off.dtype))
  ndim = indices._value.ndim
  axis = -1 if axis is None else scalar_int(axis)
  if axis != -1 and not 0 <= axis <= ndim:
    raise invalid("Expected axis to be -1 or between [0, %d).  But received: %d"
                  % (ndim + 1, axis), "OneHot")
  depth = scalar_int(depth)
  if depth < 0:
    raise invalid("depth must be non-negative, got: %d" % depth, "OneHot")
  value_checks.check_allocation(indices._value.shape + (depth,), "OneHot",
                                on._value.dtype.itemsize)
  return _one_hot(indices, on, off, depth=depth, axis=axis)


# ---- Rolling ----
@op(name="Roll")
def _roll(x, *, shift, axis):
  return jnp.roll(x, shift, axis)


@export("roll", "manip.roll")
def roll(input, shift, axis, name=None):  # pylint: disable=redefined-builtin
  input = convert_to_tensor(input)
  shifts, axes = int_tuple(shift), int_tuple(axis)
  ndim = input._value.ndim
  if len(shifts) != len(axes):
    raise invalid("shift and axis must have the same size", "Roll")
  for a in axes:
    if not -ndim <= a < ndim:
      raise invalid("axis %d is out of range" % a, "Roll")
  return _roll(input, shift=shifts, axis=tuple(canonical_axis(a, ndim) for a in axes))


# ---- Permutations, partitions and stitching ----
@op(name="InvertPermutation")
def _invert_permutation(x):
  return jnp.zeros_like(x).at[x].set(jnp.arange(x.shape[0], dtype=x.dtype))


@export("invert_permutation", "math.invert_permutation")
def invert_permutation(x, name=None):
  """`tf.invert_permutation`: y[x[i]] = i, with TF's checks (1-D, a true permutation)."""
  x = convert_to_tensor(x)
  if x._value.ndim != 1:
    raise invalid("invert_permutation expects a 1D vector.", "InvertPermutation")
  if not isinstance(x._value, jax.core.Tracer):
    values, seen = host(x).tolist(), set()
    for v in values:
      if not 0 <= v < len(values):
        raise invalid("%d is not between 0 and %d" % (v, len(values)), "InvertPermutation")
      if v in seen:
        raise invalid("%d is duplicated in the input." % v, "InvertPermutation")
      seen.add(v)
  return _invert_permutation(x)


@export("batch_gather")
def batch_gather(params, indices, name=None):
  """`tf.batch_gather` (deprecated in TF): `tf.gather` with batch_dims = rank(indices) - 1."""
  from tfe_compat.ops import slicing  # pylint: disable=import-outside-toplevel  (a cycle)
  indices = convert_to_tensor(indices)
  return slicing.gather(params, indices, batch_dims=indices._value.ndim - 1)


@export("dynamic_partition")
def dynamic_partition(data, partitions, num_partitions, name=None):
  """`tf.dynamic_partition`: the rows of `data` whose partition is i, for each i (a gather
  per partition, so gradients flow back to the rows)."""
  from tfe_compat.ops import slicing  # pylint: disable=import-outside-toplevel  (a cycle)
  data, parts = convert_to_tensor(data), host(partitions)
  num = scalar_int(num_partitions)
  if data._value.shape[:parts.ndim] != parts.shape:
    raise invalid("data.shape must start with partitions.shape, got data.shape = %s, "
                  "partitions.shape = %s" % (dims_text(data._value.shape),
                                             dims_text(parts.shape)), "DynamicPartition")
  flat = reshape(data, (-1,) + data._value.shape[parts.ndim:]) if parts.ndim != 1 else data
  for i, p in enumerate(parts.reshape(-1).tolist()):
    if not 0 <= p < num:
      raise invalid("partitions[%d] = %d is not in [0, %d)" % (i, p, num), "DynamicPartition")
  return [slicing.gather(flat, np.flatnonzero(parts.reshape(-1) == i).astype(np.int32))
          for i in range(num)]


@export("dynamic_stitch")
def dynamic_stitch(indices, data, name=None):
  """`tf.dynamic_stitch`: merged[indices[m][i]] = data[m][i], the last write of an index
  winning; indices never written give zeros."""
  from tfe_compat.ops import array_ops, slicing  # pylint: disable=import-outside-toplevel
  if len(indices) != len(data):
    raise ValueError("List argument 'data' to 'dynamic_stitch' Op with length %d must match "
                     "length %d of argument 'indices'." % (len(data), len(indices)))
  index_arrays = [host(i) for i in indices]
  tensors = [convert_to_tensor(d) for d in data]
  for m, (i, t) in enumerate(zip(index_arrays, tensors)):
    if t._value.shape[:i.ndim] != i.shape:
      raise invalid("data[%d].shape = %s does not start with indices[%d].shape = %s"
                    % (m, dims_text(t._value.shape), m, dims_text(i.shape)), "DynamicStitch")
  row_shape = tensors[0]._value.shape[index_arrays[0].ndim:]
  rows = array_ops.concat([reshape(t, (-1,) + row_shape) for t in tensors]
                          + [array_ops.zeros((1,) + row_shape, tensors[0].dtype)], 0)
  flat = np.concatenate([i.reshape(-1) for i in index_arrays]).astype(np.int64)
  size = int(flat.max()) + 1 if flat.size else 0
  source = np.full(size, len(flat), np.int32)  # the zeros row unless written
  source[flat] = np.arange(len(flat), dtype=np.int32)  # the last write wins
  return slicing.gather(rows, source)


@export("parallel_stack")
def parallel_stack(values, name="parallel_stack"):
  raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")


@op(name="UnravelIndex")
def _unravel_index(indices, dims):
  """Row-major coordinates of flat `indices` in an array of shape `dims`."""
  strides = jnp.cumprod(jnp.concatenate([jnp.ones(1, dims.dtype), dims[1:][::-1]]))[::-1]
  return jnp.stack([(indices // strides[i]) % dims[i] for i in range(dims.shape[0])])


@export("unravel_index")
def unravel_index(indices, dims, name=None):
  """`tf.unravel_index`: the coordinates of flat `indices` in an array of shape `dims`
  (shape [len(dims)] + indices' shape), with TF's bound check."""
  indices, dims = ops.convert_matching(indices, dims, op_name="UnravelIndex")
  if indices._value.ndim > 1:
    raise invalid('The indices can only be scalar or vector, got "[%s]"'
                  % ",".join(map(str, indices._value.shape)), "UnravelIndex")
  if not isinstance(indices._value, jax.core.Tracer):
    flat = host(indices).reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= np.prod(host(dims))):
      raise invalid("index is out of bound as with dims", "UnravelIndex")
  return _unravel_index(indices, dims)


@export("repeat")
def repeat(input, repeats, axis=None, name=None):  # pylint: disable=redefined-builtin
  """`tf.repeat`: each element (or slice along `axis`) `repeats` times; the flattened
  input when `axis` is None."""
  from tfe_compat.ops import slicing  # pylint: disable=import-outside-toplevel  (a cycle)
  input = convert_to_tensor(input)
  counts = host(repeats).reshape(-1)
  if axis is None:
    input, axis = reshape(input, (-1,)), 0
  axis = canonical_axis(scalar_int(axis), input._value.ndim)
  size = input._value.shape[axis]
  counts = np.broadcast_to(counts, (size,)) if counts.size == 1 else counts
  if counts.size != size:
    raise invalid("Dimensions must be equal, but are %d and %d" % (counts.size, size), "Repeat")
  return slicing.gather(input, np.repeat(np.arange(size), counts).astype(np.int64), axis=axis)



# ---- guarantee_const: an identity the graph optimizer may constant-fold ----
@jax.custom_vjp
def _guaranteed(x):
  return x


def _no_guarantee_const_gradient(*_):
  raise LookupError("gradient registry has no entry for: GuaranteeConst")


_guaranteed.defvjp(lambda x: (x, None), _no_guarantee_const_gradient)


@op(name="GuaranteeConst")
def _guarantee_const(x):
  return _guaranteed(x)


@export("guarantee_const")
def guarantee_const(input, name=None):  # pylint: disable=redefined-builtin
  """`input` itself; like TF's op it has no gradient (LookupError when one is asked)."""
  return _guarantee_const(convert_to_tensor(input))
