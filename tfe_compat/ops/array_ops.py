"""TF 1.15 array ops: shapes, reshaping, joining, filling (slicing/gather: slicing.py;
broadcasting, one_hot, roll...: manip_ops.py; sorting: sort_ops.py).

Wrappers validate on static shapes (with TF's error wording) and pass static attributes as
hashable Python values to `@op` implementations. String tensors (NumPy object arrays) take a
NumPy path in the ops that only move data (reshape, concat, stack, tile, ...).
"""
import builtins
import operator

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import value_checks


# ---- Helpers shared with slicing.py ----
def dims_text(shape):
  """A shape as TF writes it in kernel messages: `[2,3]`."""
  return "[%s]" % ",".join(str(d) for d in shape)


def invalid(message, op_name):
  return errors.op_error(message, op_name)


def is_string(tensor):
  return tensor._value.dtype == object


def np_name(dtype):
  """The NumPy dtype name of a TF dtype (a hashable static attribute)."""
  return np.dtype(dtypes.as_dtype(dtype).as_numpy_dtype).name


def _contains_tensor(value):
  if isinstance(value, (list, tuple)):
    return any(_contains_tensor(v) for v in value)
  return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def host(value):
  """A NumPy array of a Tensor, Variable or Python/NumPy value (one host read)."""
  if isinstance(value, Tensor):
    return np.asarray(value._value)
  if _contains_tensor(value):
    value = convert_to_tensor(value)._value
  return np.asarray(value)


_INDEX_ATTRS = {"Reshape": "Tshape", "Tile": "Tmultiples"}  # int32/int64 attrs of the shape
_NOT_VECTOR = {"Reshape": "sizes input must be 1-D, not %s",
               "Fill": "dims must represent a vector, got shape %s"}


def int_tuple(value, op_name=None):
  """Python ints from a shape-like: list/tuple (of ints or scalar Tensors), TensorShape,
  Tensor, ndarray or int. A Tensor costs one host read. With `op_name`, a float or string
  shape and a shape of rank 2 or more get that op's InvalidArgumentError."""
  if value is None:
    raise ValueError("Attempt to convert a value (None) with an unsupported type "
                     "(<class 'NoneType'>) to a Tensor.")
  if type(value) in (list, tuple):
    try:
      return tuple(operator.index(d) for d in value)
    except TypeError:
      pass
  if isinstance(value, tensor_shape.TensorShape):
    dims = value.as_list()
    if None in dims:
      raise ValueError("Cannot convert a partially known TensorShape to a Tensor: %s" % value)
    return tuple(dims)
  if isinstance(value, (int, np.integer)):
    return (int(value),)
  array = host(value)
  if array.dtype == object and isinstance(value, (list, tuple)):  # e.g. nested Dimensions
    array = host(convert_to_tensor(value))
  if array.dtype.kind not in "iu":
    kind = "string" if array.dtype.kind in "US" or array.size and isinstance(
        array.flat[0], (bytes, str)) else "float" if array.dtype.kind == "f" else None
    if op_name in _INDEX_ATTRS and kind:
      raise invalid("Value for attr '%s' of %s is not in the list of allowed values: int32, "
                    "int64" % (_INDEX_ATTRS[op_name], kind), op_name)
    raise TypeError("Expected int32 or int64 for a shape argument, got %s" % array.dtype)
  if array.ndim > 1 and op_name in _NOT_VECTOR:
    raise invalid(_NOT_VECTOR[op_name] % dims_text(array.shape), op_name)
  return tuple(array.reshape(-1).tolist())


def scalar_int(value):
  """A Python int from an int, NumPy int or scalar int Tensor; a Python or NumPy float is
  TF's TypeError (it is converted to an int32 Tensor)."""
  try:
    return operator.index(value)
  except TypeError:
    if isinstance(value, (float, np.floating)):
      raise TypeError("Cannot convert %s to EagerTensor of dtype int32" % value) from None
    return int(host(value))


def canonical_axis(axis, rank):
  return axis + rank if axis < 0 else axis


# ---- Shapes ----
_shape_cache = {}  # (shape tuple, dtype name) -> jax array; shapes are small and immutable


def shape_constant(dims, dtype):
  key = (dims, dtype)
  hit = _shape_cache.get(key)
  if hit is None:
    hit = device_lib.put(np.array(dims, dtype=dtype))  # a constant even while traced
    if len(_shape_cache) < 4096 and not isinstance(hit, jax.core.Tracer):
      _shape_cache[key] = hit
  return Tensor(hit)


@export("shape")
def shape(input, name=None, out_type=dtypes.int32):  # pylint: disable=redefined-builtin
  """`tf.shape`: the shape of `input` as a 1-D int32 (or `out_type`) Tensor."""
  return shape_constant(tuple(convert_to_tensor(input)._value.shape), np_name(out_type))


@export("shape_n")
def shape_n(input, out_type=dtypes.int32, name=None):  # pylint: disable=redefined-builtin
  return [shape(t, out_type=out_type) for t in input]


@export("size")
def size(input, name=None, out_type=dtypes.int32):  # pylint: disable=redefined-builtin
  value = convert_to_tensor(input)._value
  return shape_constant(int(np.prod(value.shape, dtype=np.int64)), np_name(out_type))


@export("rank")
def rank(input, name=None):  # pylint: disable=redefined-builtin
  return shape_constant(convert_to_tensor(input)._value.ndim, "int32")


# ---- Reshaping ----
@op(name="Reshape")
def _reshape(x, *, shape):
  return jnp.reshape(x, shape)


def _resolve_shape(num, dims):
  """`dims` with its -1 inferred, or TF's InvalidArgumentError."""
  unknown = [i for i, d in enumerate(dims) if d == -1]
  known = 1
  for i, d in enumerate(dims):
    if d < -1:
      raise invalid("Size %d must be non-negative, not %d" % (i, d), "Reshape")
    if d != -1:
      known *= d
  if len(unknown) > 1:
    raise invalid("Only one input size may be -1, not both %d and %d" % tuple(unknown[:2]),
                  "Reshape")
  if unknown:
    if known == 0:
      if num == 0:
        raise invalid("Reshape cannot infer the missing input size for an empty tensor unless "
                      "all specified input sizes are non-zero", "Reshape")
    elif num % known == 0:
      dims = dims[:unknown[0]] + (num // known,) + dims[unknown[0] + 1:]
      return dims
    raise invalid("Input to reshape is a tensor with %d values, but the requested shape "
                  "requires a multiple of %d" % (num, known), "Reshape")
  if known != num:
    raise invalid("Input to reshape is a tensor with %d values, but the requested shape has %d"
                  % (num, known), "Reshape")
  return dims


@export("reshape", "manip.reshape")
def reshape(tensor, shape, name=None):  # pylint: disable=redefined-outer-name
  """`tf.reshape`: same values in a new shape; one dimension may be -1 (inferred)."""
  tensor = convert_to_tensor(tensor)
  value = tensor._value
  dims = int_tuple(shape, "Reshape")
  if dims != value.shape:
    dims = _resolve_shape(value.size, dims)
  if value.dtype == object:
    return Tensor(value.reshape(dims))
  return _reshape(tensor, shape=dims)


@op(name="Transpose")
def _transpose(x, *, perm, conjugate):
  x = jnp.transpose(x, perm)
  return jnp.conj(x) if conjugate else x


@export("transpose")
def transpose(a, perm=None, name="transpose", conjugate=False):
  """`tf.transpose`: permutes dimensions (default: reverses them); `conjugate` for complex."""
  a = convert_to_tensor(a)
  ndim = a._value.ndim
  perm = tuple(builtins.range(ndim - 1, -1, -1)) if perm is None else int_tuple(perm)
  if len(perm) != ndim:
    raise invalid("transpose expects a vector of size %d. But input(1) is a vector of size %d"
                  % (ndim, len(perm)), "Transpose")
  for p in perm:
    if not 0 <= p < ndim:
      raise invalid("%d is out of range [0 .. %d)" % (p, ndim), "Transpose")
  for i in builtins.range(ndim):
    if i not in perm:
      raise invalid("%d is missing from {%s}." % (i, ",".join(map(str, perm))), "Transpose")
  if is_string(a):
    return Tensor(a._value.transpose(perm))
  return _transpose(a, perm=perm, conjugate=bool(conjugate) and a.dtype.is_complex)


def _reshaped(tensor, dims):
  if is_string(tensor):
    return Tensor(tensor._value.reshape(dims))
  return _reshape(tensor, shape=dims)


@export("expand_dims")
def expand_dims(input, axis=None, name=None, dim=None):  # pylint: disable=redefined-builtin
  """`tf.expand_dims`: inserts a dimension of size 1 at `axis` (deprecated alias `dim`)."""
  if dim is not None:
    if axis is not None:
      raise ValueError("Cannot specify both 'dim' and 'axis'.")
    axis = dim
  if axis is None:
    raise ValueError("Must specify an axis argument to tf.expand_dims()")
  input = convert_to_tensor(input)
  dims = input._value.shape
  axis = scalar_int(axis)
  if not -1 - len(dims) <= axis <= len(dims):
    raise invalid("Tried to expand dim index %d for tensor with %d dimensions."
                  % (axis, len(dims)), "ExpandDims")
  axis = axis + len(dims) + 1 if axis < 0 else axis
  return _reshaped(input, dims[:axis] + (1,) + dims[axis:])


@export("squeeze")
def squeeze(input, axis=None, name=None, squeeze_dims=None):  # pylint: disable=redefined-builtin
  """`tf.squeeze`: removes size-1 dimensions (all, or those in `axis`)."""
  if squeeze_dims is not None:
    if axis is not None:
      raise ValueError("Cannot specify both 'squeeze_dims' and 'axis'.")
    axis = squeeze_dims
  input = convert_to_tensor(input)
  dims = input._value.shape
  if axis is None:
    return _reshaped(input, tuple(d for d in dims if d != 1))
  axes = set()
  for a in int_tuple(axis):
    if not -len(dims) <= a < len(dims):
      raise invalid("Tried to squeeze dim index %d for tensor with %d dimensions."
                    % (a, len(dims)), "Squeeze")
    a = canonical_axis(a, len(dims))
    if dims[a] != 1:
      raise invalid("Can not squeeze dim[%d], expected a dimension of 1, got %d"
                    % (a, dims[a]), "Squeeze")
    axes.add(a)
  return _reshaped(input, tuple(d for i, d in enumerate(dims) if i not in axes))


# ---- Joining and splitting ----
@op(name="ConcatV2")
def _concat(*values, axis):
  return jnp.concatenate(values, axis=axis)


@export("concat")
def concat(values, axis, name="concat"):
  """`tf.concat`: joins tensors along an existing `axis`."""
  if not isinstance(values, (list, tuple)):
    values = [values]
  if not values:
    raise invalid("OpKernel 'ConcatV2' has constraint on attr 'T' not in NodeDef '[N=0, "
                  "Tidx=DT_INT32]'", "ConcatV2")
  if len(values) == 1:
    return identity(values[0])
  tensors = ops.convert_matching(*values, op_name="ConcatV2")
  axis = scalar_int(axis)
  first = tensors[0]._value.shape
  if not first:
    raise invalid("ConcatOp : Can't concatenate scalars (use tf.stack instead)", "ConcatV2")
  if not -len(first) <= axis < len(first):
    raise invalid("ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got "
                  "%d" % (-len(first), len(first), axis), "ConcatV2")
  axis = canonical_axis(axis, len(first))
  for i, t in enumerate(tensors[1:], 1):
    dims = t._value.shape
    if len(dims) != len(first):
      raise invalid("ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. "
                    "shape[%d] = %s" % (dims_text(first), i, dims_text(dims)), "ConcatV2")
    for d, (a, b) in enumerate(zip(first, dims)):
      if d != axis and a != b:
        raise invalid("ConcatOp : Dimension %d in both shapes must be equal: shape[0] = %s vs. "
                      "shape[%d] = %s" % (d, dims_text(first), i, dims_text(dims)), "ConcatV2")
  if any(is_string(t) for t in tensors):
    return Tensor(np.concatenate([np.asarray(t._value) for t in tensors], axis=axis))
  return _concat(*tensors, axis=axis)


@export("stack")
def stack(values, axis=0, name="stack"):
  """`tf.stack`: packs rank-R tensors into one rank-(R+1) tensor along `axis`."""
  axis = scalar_int(axis)
  if axis == 0 and not _contains_tensor(values):
    try:
      return convert_to_tensor(values)
    except (TypeError, ValueError):
      pass
  tensors = ops.convert_matching(*values, op_name="Pack")
  first = tensors[0]._value.shape
  if not -len(first) - 1 <= axis < len(first) + 1:
    raise ValueError("axis = %d not in [%d, %d)" % (axis, -len(first) - 1, len(first) + 1))
  for i, t in enumerate(tensors[1:], 1):
    if t._value.shape != first:
      raise invalid("Shapes of all inputs must match: values[0].shape = %s != values[%d].shape "
                    "= %s" % (dims_text(first), i, dims_text(t._value.shape)), "Pack")
  if is_string(tensors[0]):
    return Tensor(np.stack([t._value for t in tensors], axis=axis))
  return ops.stack(*tensors, axis=canonical_axis(axis, len(first) + 1))


@op(name="Unpack")
def _unstack(x, *, num, axis):
  return tuple(jax.lax.index_in_dim(x, i, axis, keepdims=False) for i in builtins.range(num))


@export("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
  """`tf.unstack`: the list of slices of `value` along `axis`."""
  value = convert_to_tensor(value)
  dims = value._value.shape
  axis = scalar_int(axis)
  if not -len(dims) <= axis < len(dims):
    raise ValueError("axis = %d not in [%d, %d)" % (axis, -len(dims), len(dims)))
  axis = canonical_axis(axis, len(dims))
  if num is not None and num != dims[axis]:
    raise invalid("Input shape axis %d must equal %d, got shape %s"
                  % (axis, num, dims_text(dims)), "Unpack")
  if is_string(value):
    return [Tensor(np.take(value._value, i, axis=axis)) for i in builtins.range(dims[axis])]
  return _unstack(value, num=dims[axis], axis=axis)


@op(name="SplitV")
def _split(x, *, sizes, axis):
  out, start = [], 0
  for s in sizes:
    out.append(jax.lax.slice_in_dim(x, start, start + s, axis=axis))
    start += s
  return tuple(out)


@export("split")
def split(value, num_or_size_splits, axis=0, num=None, name="split"):
  """`tf.split`: `num_or_size_splits` equal pieces, or pieces of the given sizes (one -1)."""
  value = convert_to_tensor(value)
  dims = value._value.shape
  axis = scalar_int(axis)
  if not -len(dims) <= axis < len(dims):
    raise invalid("-input rank(-%d) <= split_dim < input rank (%d), but got %d"
                  % (len(dims), len(dims), axis), "Split")
  axis = canonical_axis(axis, len(dims))
  total = dims[axis]
  splits = host(num_or_size_splits) if isinstance(num_or_size_splits, Tensor) else \
      np.asarray(num_or_size_splits)
  if splits.ndim == 0:
    count = int(splits)
    if count <= 0 or total % count:
      raise invalid("Number of ways to split should evenly divide the split dimension, but got "
                    "split_dim %d (size = %d) and num_split %d" % (axis, total, count), "Split")
    sizes = (total // count,) * count
  else:
    sizes = tuple(int(s) for s in splits.reshape(-1))
    if num is not None and num != len(sizes):
      raise ValueError("Cannot infer num from shape %s" % (num_or_size_splits,))
    if sizes.count(-1) > 1:
      raise invalid("Only one dimensions can have a value of -1. Second one found at dimension "
                    "%d" % [i for i, s in enumerate(sizes) if s == -1][1], "SplitV")
    known = sum(s for s in sizes if s != -1)
    if -1 in sizes and known <= total:
      sizes = tuple(total - known if s == -1 else s for s in sizes)
    elif known != total:
      raise invalid("Determined shape must either match input shape along split_dim exactly if "
                    "fully specified, or be less than the size of the input along split_dim if "
                    "not fully specified.  Got: %d" % known, "SplitV")
  if is_string(value):
    return [Tensor(p) for p in np.split(value._value, np.cumsum(sizes)[:-1], axis=axis)]
  return _split(value, sizes=sizes, axis=axis)


@op(name="Tile")
def _tile(x, *, multiples):
  return jnp.tile(x, multiples)


@export("tile", "manip.tile")
def tile(input, multiples, name=None):  # pylint: disable=redefined-builtin
  """`tf.tile`: repeats `input` `multiples[i]` times along dimension i."""
  input = convert_to_tensor(input)
  multiples = int_tuple(multiples, "Tile")
  if len(multiples) != input._value.ndim:
    raise invalid("Expected multiples argument to be a vector of length %d but got length %d"
                  % (input._value.ndim, len(multiples)), "Tile")
  for i, m in enumerate(multiples):
    if m < 0:
      raise invalid("Expected multiples[%d] >= 0, but got %d" % (i, m), "Tile")
  value_checks.check_allocation(
      [d * m for d, m in zip(input._value.shape, multiples)], "Tile",
      input._value.dtype.itemsize,
      lambda a, b: "Encountered overflow when multiplying %d with %d, result: -1" % (a, b))
  if is_string(input):
    return Tensor(np.tile(input._value, multiples))
  return _tile(input, multiples=multiples)


@op(name="PadV2", differentiable=(0,))
def _pad_constant(x, value, *, paddings):
  value = jax.lax.stop_gradient(value)  # TF's PadV2 has no gradient for constant_values
  return jax.lax.pad(x, value, [(lo, hi, 0) for lo, hi in paddings])


@op(name="MirrorPad")
def _mirror_pad(x, *, paddings, mode):
  return jnp.pad(x, paddings, mode=mode)


@export("pad")
def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
  """`tf.pad`: CONSTANT (with `constant_values`), REFLECT or SYMMETRIC (case-insensitive)."""
  tensor = convert_to_tensor(tensor)
  dims = tensor._value.shape
  flat = int_tuple(paddings)
  if len(flat) != 2 * len(dims):
    raise invalid("The first dimension of paddings must be the rank of inputs%s %s"
                  % (dims_text((len(flat) // 2, 2)), dims_text(dims)), "Pad")
  pads = tuple(zip(flat[0::2], flat[1::2]))
  for lo, hi in pads:
    if lo < 0 or hi < 0:
      raise invalid("Paddings must be non-negative: %d %d" % (lo, hi), "Pad")
  mode = mode.upper()
  if mode == "CONSTANT":
    value = convert_to_tensor(constant_values, dtype=tensor.dtype)
    if is_string(tensor):
      return Tensor(np.pad(tensor._value, pads, constant_values=value._value.item()))
    return _pad_constant(tensor, value, paddings=pads)
  if mode not in ("REFLECT", "SYMMETRIC"):
    raise ValueError("Unknown padding mode: %s" % mode)
  offset = 0 if mode == "REFLECT" else 1
  for (lo, hi), d in zip(pads, dims):
    if lo > d - 1 + offset or hi > d - 1 + offset:
      if offset:
        raise invalid("paddings must be no greater than the dimension size: %d, %d greater than "
                      "%d" % (lo, hi, d), "MirrorPad")
      raise invalid("paddings must be less than the dimension size: %d, %d not less than %d"
                    % (lo, hi, d), "MirrorPad")
  return _mirror_pad(tensor, paddings=pads, mode=mode.lower())


@op(name="ReverseV2")
def _reverse(x, *, axis):
  return jax.lax.rev(x, axis)


@export("reverse", "reverse_v2", "manip.reverse")
def reverse(tensor, axis, name=None):
  """`tf.reverse` (ReverseV2): reverses the dimensions listed in the 1-D `axis`."""
  tensor = convert_to_tensor(tensor)
  ndim = tensor._value.ndim
  axes = host(axis) if not isinstance(axis, (list, tuple)) else np.asarray(axis)
  if axes.ndim != 1:
    raise invalid("'dims' must be 1-dimension, not %d" % axes.ndim, "ReverseV2")
  seen = []
  for i, a in enumerate(axes.tolist()):
    if not -ndim <= a < ndim:
      raise invalid("'axis'[%d] = %d is out of valid range [0, %d" % (i, a, ndim - 1),
                    "ReverseV2")
    a = canonical_axis(a, ndim)
    if a in seen:
      raise invalid("axis %d specified more than once." % a, "ReverseV2")
    seen.append(a)
  if is_string(tensor):
    return Tensor(np.flip(tensor._value, tuple(seen)))
  return _reverse(tensor, axis=tuple(sorted(seen)))


# ---- Creating tensors ----
@op(name="Fill")
def _full(*, shape, dtype, value):
  return jnp.full(shape, value, dtype=dtype)


def _filled(dims, dtype, value):
  for d in dims:
    if d < 0:
      raise invalid("Dimension %d must be >= 0" % d, "Fill")
  dtype = dtypes.as_dtype(dtype)
  value_checks.check_allocation(dims, "Fill", dtype.size if dtype is not dtypes.string else 1)
  if dtype is dtypes.string:
    return Tensor(np.full(dims, b"" if value == 0 else b"1", dtype=object))
  if dtype.is_bool:
    value = builtins.bool(value)
  return _full(shape=dims, dtype=np_name(dtype), value=value)


@export("zeros")
def zeros(shape, dtype=dtypes.float32, name=None):  # pylint: disable=redefined-outer-name
  """`tf.zeros`: `shape` may be a list, tuple, TensorShape or 1-D int Tensor."""
  return _filled(int_tuple(shape), dtype, 0)


@export("ones")
def ones(shape, dtype=dtypes.float32, name=None):  # pylint: disable=redefined-outer-name
  return _filled(int_tuple(shape), dtype, 1)


@op(name="Fill")
def _fill(value, *, shape):
  return jnp.broadcast_to(value, shape)


@export("fill")
def fill(dims, value, name=None):
  """`tf.fill`: a tensor of shape `dims` filled with the scalar `value` (its dtype)."""
  dims = int_tuple(dims, "Fill")
  value = convert_to_tensor(value)
  for d in dims:
    if d < 0:
      raise invalid("Dimension %d must be >= 0" % d, "Fill")
  value_checks.check_allocation(dims, "Fill", value._value.dtype.itemsize)
  if value._value.ndim:
    raise invalid("value must be a scalar, got shape %s" % dims_text(value._value.shape), "Fill")
  if is_string(value):
    return Tensor(np.full(dims, value._value.item(), dtype=object))
  return _fill(value, shape=dims)


@export("zeros_like")
def zeros_like(tensor, dtype=None, name=None, optimize=True):
  tensor = convert_to_tensor(tensor)
  return _filled(tuple(tensor._value.shape), dtype or tensor.dtype, 0)


@export("ones_like")
def ones_like(tensor, dtype=None, name=None, optimize=True):
  tensor = convert_to_tensor(tensor)
  return _filled(tuple(tensor._value.shape), dtype or tensor.dtype, 1)


@op(name="Eye")
def _eye(*, rows, cols, batch, dtype):
  return jnp.broadcast_to(jnp.eye(rows, cols, dtype=dtype), batch + (rows, cols))


@export("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
  """`tf.eye`: identity matrices, optionally batched with `batch_shape`."""
  if isinstance(num_rows, float) or isinstance(num_columns, float):
    raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. "
                    "Received: num_rows=%s, num_columns=%s"
                    % (num_rows, num_rows if num_columns is None else num_columns))
  rows = scalar_int(num_rows)
  cols = rows if num_columns is None else scalar_int(num_columns)
  batch = () if batch_shape is None else int_tuple(batch_shape)
  return _eye(rows=rows, cols=cols, batch=batch, dtype=np_name(dtype))


_RANGE_TYPES = ("int32", "int64", "float32", "float64")


@export("range")
def range(start, limit=None, delta=1, dtype=None, name="range"):  # pylint: disable=redefined-builtin
  """`tf.range`: TF's dtype inference (int32 for ints, float32 if any float) and values."""
  if limit is None:
    start, limit = 0, start
  args = (start, limit, delta)
  if all(type(a) in (int, float) for a in args):  # fast path: TF's inference, no Tensors
    inferred = "float32" if float in map(type, args) else "int32" if all(
        -2**31 <= a < 2**31 for a in args) else "int64"
  else:
    args = [convert_to_tensor(a) for a in args]
    names = [a.dtype.name for a in args]
    if dtype is None and not set(names) <= set(_RANGE_TYPES):
      raise AssertionError()  # TF asserts that the types it infers from are numbers
    inferred = dtype or max(names, key=_RANGE_TYPES.index)
    args = [host(a) for a in args]
  dtype = dtypes.as_dtype(dtype or inferred)
  np_dtype = np.dtype(dtype.as_numpy_dtype)
  s, l, d = (np.asarray(a).astype(np_dtype)[()] for a in args)
  if d == 0:
    raise invalid("Requires delta != 0: %s" % d, "Range")
  if d > 0 and s > l:
    raise invalid("Requires start <= limit when delta > 0: %s/%s" % (s, l), "Range")
  if d < 0 and s < l:
    raise invalid("Requires start >= limit when delta < 0: %s/%s" % (s, l), "Range")
  if dtype.is_integer:
    count = (abs(int(l) - int(s)) + abs(int(d)) - 1) // abs(int(d))
  else:
    count = int(np.ceil(np.abs((l - s) / d)))
  values = np.arange(count, dtype=np_dtype) * d + s  # start + i * delta, in the output type
  return Tensor(device_lib.put(values))  # a constant even while traced (folded in graphs)


@op(name="LinSpace")
def _lin_space(start, stop, *, num):
  if num == 1:
    return jnp.reshape(start, (1,))
  step = (stop - start) / jnp.asarray(num - 1, start.dtype)
  values = start + step * jnp.arange(num, dtype=start.dtype)
  return values.at[-1].set(stop)


@export("lin_space", "linspace")
def lin_space(start, stop, num, name=None):
  """`tf.lin_space`: `num` evenly spaced values from `start` to `stop` inclusive."""
  start, stop = ops.convert_matching(start, stop, op_name="LinSpace")
  if not (start.dtype.is_floating):
    start, stop = (Tensor(jnp.asarray(t._value, jnp.float64)) for t in (start, stop))
  num = scalar_int(num)
  if num <= 0:
    raise invalid("Requires num > 0: %d" % num, "LinSpace")
  return _lin_space(start, stop, num=num)


# ---- Identity-like ----
@op(name="Identity")
def _identity(x):
  return x


@export("identity")
def identity(input, name=None):  # pylint: disable=redefined-builtin
  input = convert_to_tensor(input)
  if is_string(input):
    return Tensor(input._value)
  return _identity(input)


@op(name="IdentityN")
def _identity_n(*xs):
  return xs


@export("identity_n")
def identity_n(input, name=None):  # pylint: disable=redefined-builtin
  if not input:
    raise invalid("Length for attr 'T' of 0 must be at least minimum 1", "IdentityN")
  return _identity_n(*[convert_to_tensor(t) for t in input])


@export("stop_gradient")
def stop_gradient(input, name=None):  # pylint: disable=redefined-builtin
  """`tf.stop_gradient`: the same values; not recorded on tapes, so no gradient flows back
  (TF gives None through it); `jax.lax.stop_gradient` also stops it inside traced code."""
  input = convert_to_tensor(input)
  if is_string(input):
    return Tensor(input._value)
  return Tensor(jax.lax.stop_gradient(input._value))


@export("placeholder_with_default")
def placeholder_with_default(input, shape, name=None):  # pylint: disable=redefined-builtin
  """`identity(input)`, of static shape `shape` in a graph (where it may be fed)."""
  out = identity(convert_to_tensor(input), name=name or "PlaceholderWithDefault")
  if isinstance(out, graph_lib.GraphTensor):  # fed or not, its value is only known in a run
    out._shape = tensor_shape.as_shape(shape)
    out.op.default, out._const, out.op.stateful = out._const, None, True
  return out


@export("placeholder")
def placeholder(dtype, shape=None, name=None):
  """A graph tensor that must be fed; TF's RuntimeError when executing eagerly."""
  if graph_lib.building() is None:
    raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
  return graph_build.placeholder(dtypes.as_dtype(dtype), shape, name)


@export("ensure_shape")
def ensure_shape(x, shape, name=None):  # pylint: disable=redefined-outer-name
  x = convert_to_tensor(x)
  expected = tensor_shape.as_shape(shape)
  if not expected.is_compatible_with(x.shape):
    wanted = "?" if expected.dims is None else dims_text(
        "?" if d is None else d for d in expected.as_list())
    raise invalid("Shape of tensor input %s is not compatible with expected shape %s."
                  % (dims_text(x._value.shape), wanted), "EnsureShape")
  return identity(x)
