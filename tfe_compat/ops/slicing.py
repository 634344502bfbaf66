"""TF 1.15 slicing and indexing: `Tensor.__getitem__`, strided_slice, slice, gather(_nd),
scatter_nd, boolean_mask, unique, setdiff1d, reverse_sequence (space/batch/depth
rearrangements: space_ops.py).

Out-of-range gather/scatter indices raise InvalidArgumentError like TF's CPU kernels when the
indices are concrete and on a CPU; elsewhere (GPU, traced) they read as 0 / are dropped, as
TF's GPU kernels do.
"""
import collections
import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np

# pylint: disable=redefined-builtin
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework import ops
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import value_checks
from tfe_compat.ops.array_ops import (canonical_axis, dims_text, host, int_tuple, invalid,
                                      is_string, np_name, scalar_int)

_Tracer = jax.core.Tracer
_pyslice = slice


# ---- Strided slices ----
@functools.lru_cache(maxsize=4096)
def _plan(shape, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
          shrink_axis_mask):
  """TF's strided-slice canonicalization for a static shape:

  (reversed axes, starts, limits, steps for lax.slice after the reversal, output shape).
  """
  if ellipsis_mask & (ellipsis_mask - 1):
    raise invalid("Multiple ellipses in slice spec not allowed", "StridedSlice")
  rank = len(shape)
  entries = list(range(len(begin)))
  if not ellipsis_mask:
    entries.append(-1)  # an implicit ellipsis at the end
  is_ellipsis = lambda i: i == -1 or ellipsis_mask >> i & 1
  is_new = lambda i: not is_ellipsis(i) and new_axis_mask >> i & 1
  consumed = sum(1 for i in entries if not is_ellipsis(i) and not is_new(i))
  if rank == 0 and consumed:
    raise invalid("Attempting to slice scalar input.", "StridedSlice")
  if consumed > rank:
    raise invalid("Index out of range using input dim %d; input has only %d dims"
                  % (rank, rank), "StridedSlice")
  rev, starts, limits, steps, out = [], [], [], [], []
  dim = 0
  for i in entries:
    if is_ellipsis(i):
      for _ in range(rank - consumed):
        starts.append(0), limits.append(shape[dim]), steps.append(1), out.append(shape[dim])
        dim += 1
      continue
    if is_new(i):
      out.append(1)
      continue
    size, b, e, s = shape[dim], begin[i], end[i], strides[i]
    if s == 0:
      raise invalid("strides[%d] must be non-zero" % i, "StridedSlice")
    if shrink_axis_mask >> i & 1:
      b = b + size if b < 0 else b
      if not 0 <= b < size:
        raise invalid("slice index %d of dimension %d out of bounds." % (b, dim), "StridedSlice")
      count, s = 1, 1
    else:
      lo, hi = (0, size) if s > 0 else (-1, size - 1)
      if begin_mask >> i & 1:
        b = lo if s > 0 else hi
      else:
        b = min(max(b + size if b < 0 else b, lo), hi)
      if end_mask >> i & 1:
        e = hi if s > 0 else lo
      else:
        e = min(max(e + size if e < 0 else e, lo), hi)
      count = max(0, -(-(e - b) // s))
      out.append(count)
    if s < 0:
      rev.append(dim)
      b, s = size - 1 - b, -s
    if count == 0:
      b = 0
    starts.append(b), limits.append(b + (count - 1) * s + 1 if count else b), steps.append(s)
    dim += 1
  return tuple(rev), tuple(starts), tuple(limits), tuple(steps), tuple(out)


@op(name="StridedSlice")
def _strided_slice(x, *, rev, start, limit, step, shape):
  if rev:
    x = jax.lax.rev(x, rev)
  return jnp.reshape(jax.lax.slice(x, start, limit, step), shape)


def _apply_plan(tensor, plan):
  rev, start, limit, step, shape = plan
  value = tensor._value
  if value.dtype == object:
    value = np.flip(value, rev) if rev else value
    return Tensor(value[tuple(map(_pyslice, start, limit, step))].reshape(shape))
  return _strided_slice(tensor, rev=rev, start=start, limit=limit, step=step, shape=shape)


@export("strided_slice")
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
  """`tf.strided_slice`: the op behind `tensor[...]` (masks as in TF)."""
  input_ = convert_to_tensor(input_)
  begin, end = int_tuple(begin), int_tuple(end)
  strides = (1,) * len(begin) if strides is None else int_tuple(strides)
  plan = _plan(tuple(input_._value.shape), begin, end, strides, int(begin_mask), int(end_mask),
               int(ellipsis_mask), int(new_axis_mask), int(shrink_axis_mask))
  return _apply_plan(input_, plan)


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                     "scalar tf.int32/tf.int64 tensors are valid indices")
_INDEX_DTYPES = ("int16", "int32", "int64")


def _index(idx):
  """A slice-spec index as a Python int, or a traced scalar Tensor (kept as is)."""
  if isinstance(idx, numbers.Integral):
    return int(idx)
  if isinstance(idx, tensor_shape.Dimension) and idx.value is not None:
    return idx.value
  dtype = getattr(idx, "dtype", None)
  try:
    ok = dtype is not None and dtypes.as_dtype(dtype).name in _INDEX_DTYPES
  except TypeError:
    ok = False
  if not ok or len(getattr(idx, "shape", ())) != 0:
    raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))
  idx = convert_to_tensor(idx)
  return idx if isinstance(idx._value, _Tracer) else int(idx)


def _slice_helper(tensor, slice_spec):
  """`Tensor.__getitem__` with TF's semantics (basic indexing; bool masks -> boolean_mask)."""
  if (isinstance(slice_spec, bool)
      or (isinstance(slice_spec, Tensor) and slice_spec.dtype is dtypes.bool)
      or (isinstance(slice_spec, np.ndarray) and slice_spec.dtype == bool)):
    return boolean_mask(tensor, slice_spec)
  if not isinstance(slice_spec, (list, tuple)):
    slice_spec = [slice_spec]
  begin, end, strides, traced = [], [], [], []
  begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
  for i, s in enumerate(slice_spec):
    bit = 1 << i
    if isinstance(s, _pyslice):
      undefined = lambda v: v is None or (isinstance(v, tensor_shape.Dimension)
                                          and v.value is None)
      if undefined(s.start):
        begin.append(0)
        begin_mask |= bit
      else:
        begin.append(_index(s.start))
      if undefined(s.stop):
        end.append(0)
        end_mask |= bit
      else:
        end.append(_index(s.stop))
      strides.append(1 if undefined(s.step) else _index(s.step))
    elif s is Ellipsis or s is None:
      begin.append(0), end.append(0), strides.append(1)
      if s is None:
        new_axis_mask |= bit
      else:
        ellipsis_mask |= bit
    else:
      index = _index(s)
      if isinstance(index, Tensor):  # kept whole here, then indexed by _dynamic_index
        traced.append((i, index))
        begin_mask |= bit
        end_mask |= bit
        index = 0
      else:
        shrink_axis_mask |= bit
      begin.append(index), end.append(index + 1), strides.append(1)
  if any(isinstance(v, Tensor) for v in begin + end + strides):
    raise context.NotTraceable("Slice bounds inside a traced function must be Python ints or "
                               "concrete tensors (JAX needs static slice sizes)")
  tensor = convert_to_tensor(tensor)
  if not traced:
    return _apply_plan(tensor, _plan(tuple(tensor._value.shape), tuple(begin), tuple(end),
                                     tuple(strides), begin_mask, end_mask, ellipsis_mask,
                                     new_axis_mask, shrink_axis_mask))
  # Traced scalar indices (inside tf.function): keep those axes, then index them dynamically.
  kept = _apply_plan(tensor, _plan(tuple(tensor._value.shape), tuple(begin), tuple(end),
                                   tuple(strides), begin_mask, end_mask, ellipsis_mask,
                                   new_axis_mask, shrink_axis_mask))
  axes = _output_axes(slice_spec, shrink_axis_mask, new_axis_mask, ellipsis_mask,
                      tensor._value.ndim, [i for i, _ in traced])
  return _dynamic_index(kept, *[t for _, t in traced], axes=tuple(axes))


def _output_axes(spec, shrink, new_axis, ellipsis, rank, positions):
  """The output axis of each spec entry in `positions` (an entry that keeps one axis)."""
  consumed = sum(1 for i, s in enumerate(spec) if s is not Ellipsis and s is not None)
  axis, where = 0, {}
  for i, s in enumerate(spec):
    if ellipsis >> i & 1:
      axis += rank - consumed
    elif not shrink >> i & 1 or new_axis >> i & 1:
      where[i] = axis
      axis += 1
  return [where[p] for p in positions]


@op(name="StridedSlice")
def _dynamic_index(x, *indices, axes):
  for axis, index in sorted(zip(axes, indices), reverse=True):
    index = jnp.where(index < 0, index + x.shape[axis], index)
    x = jax.lax.dynamic_index_in_dim(x, index, axis, keepdims=False)
  return x


Tensor.__getitem__ = _slice_helper


@export("slice")
def slice(input_, begin, size, name=None):  # pylint: disable=redefined-builtin
  """`tf.slice`: `size[i]` elements from `begin[i]` (-1: all remaining)."""
  input_ = convert_to_tensor(input_)
  dims = input_._value.shape
  begin, size = int_tuple(begin), int_tuple(size)
  if len(begin) != len(dims) or len(size) != len(dims):
    raise invalid("Expected begin and size arguments to be 1-D tensors of size %d, but got "
                  "shapes [%d] and [%d] instead." % (len(dims), len(begin), len(size)), "Slice")
  ends = []
  for i, (b, s, d) in enumerate(zip(begin, size, dims)):
    s = d - b if s == -1 else s
    if not 0 <= b <= d:
      raise invalid("Expected begin[%d] in [0, %d], but got %d" % (i, d, b), "Slice")
    if not 0 <= s <= d - b:
      raise invalid("Expected size[%d] in [0, %d], but got %d" % (i, d - b, s), "Slice")
    ends.append(b + s)
  shape = tuple(e - b for b, e in zip(begin, ends))
  return _apply_plan(input_, ((), begin, tuple(ends), (1,) * len(dims), shape))


# ---- Gather / scatter ----
def _position(pos):
  return "[%s]" % ",".join(str(p) for p in pos) if len(pos) else ""


def _check_gather(indices, limit):
  def error(idx):
    bad = (idx < 0) | (idx >= limit)
    pos = tuple(np.argwhere(bad)[0]) if idx.ndim else ()
    return invalid("indices%s = %d is not in [0, %d)" % (_position(pos), idx[pos], limit),
                   "GatherV2")
  value_checks.check(indices, lambda idx: ((idx >= 0) & (idx < limit)).all(), error)


def _check_nd(indices, dims, message, op_name):
  """Bounds check for gather_nd/scatter_nd style indices (last axis indexes `dims`)."""
  shape = indices.shape.as_list()
  if not shape or not shape[-1] or 0 in shape:
    return  # nothing to check (or an unknown index depth)
  limits = np.asarray(dims[:shape[-1]])

  def error(idx):
    pos = tuple(np.argwhere(((idx < 0) | (idx >= limits)).any(axis=-1))[0])
    return invalid(message % (_position(pos), ", ".join(map(str, idx[pos])), dims_text(dims)),
                   op_name)
  value_checks.check(indices, lambda idx: ((idx >= 0) & (idx < limits)).all(), error)


def _components(p_shape, indices):
  """The index arrays of `indices[..., j]`, negatives mapped out of range (never wrapped)."""
  return tuple(jnp.where(indices[..., j] < 0, p_shape[j], indices[..., j])
               for j in range(indices.shape[-1]))


def _batched(fn, batch_dims):
  for _ in range(batch_dims):
    fn = jax.vmap(fn)
  return fn


@op(name="GatherV2")
def _gather(params, indices, *, axis, batch_dims):
  def take(p, i):
    i = jnp.where(i < 0, p.shape[axis - batch_dims], i)
    return jnp.take(p, i, axis=axis - batch_dims, mode="fill", fill_value=0)
  return _batched(take, batch_dims)(params, indices)


@export("gather")
def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
  """`tf.gather`: slices of `params` along `axis` at `indices` (with leading `batch_dims`)."""
  params = convert_to_tensor(params)
  indices = convert_to_tensor(indices)
  if indices.dtype.name not in _INDEX_DTYPES:
    raise invalid("Value for attr 'Tindices' of %s is not in the list of allowed values: "
                  "int16, int32, int64" % ops.tf_type_name(indices.dtype), "GatherV2")
  p_rank, i_rank = params._value.ndim, indices._value.ndim
  batch_dims = scalar_int(batch_dims)
  batch_dims = batch_dims + i_rank if batch_dims < 0 else batch_dims
  axis = batch_dims if axis is None else scalar_int(axis)
  if not -p_rank <= axis < p_rank:
    raise invalid("Expected axis in the range [%d, %d), but got %d" % (-p_rank, p_rank, axis),
                  "GatherV2")
  axis = canonical_axis(axis, p_rank)
  if batch_dims > i_rank or axis < batch_dims:
    raise invalid("batch_dims (%d) must be less than or equal to rank(indices) (%d) and "
                  "axis (%d)" % (batch_dims, i_rank, axis), "GatherV2")
  if params._value.shape[:batch_dims] != indices._value.shape[:batch_dims]:
    raise invalid("params.shape[:batch_dims] = %s must equal indices.shape[:batch_dims] = %s"
                  % (dims_text(params._value.shape[:batch_dims]),
                     dims_text(indices._value.shape[:batch_dims])), "GatherV2")
  _check_gather(indices, params._value.shape[axis])
  if is_string(params):
    if batch_dims:
      raise NotImplementedError("gather with batch_dims on string tensors is not supported")
    return Tensor(np.take(params._value, np.asarray(indices._value), axis=axis))
  return _gather(params, indices, axis=axis, batch_dims=batch_dims)


@op(name="GatherNd")
def _gather_nd(params, indices, *, batch_dims):
  def take(p, i):
    if i.shape[-1] == 0:
      return jnp.broadcast_to(p, i.shape[:-1] + p.shape)
    return p.at[_components(p.shape, i)].get(mode="fill", fill_value=0)
  return _batched(take, batch_dims)(params, indices)


@export("gather_nd", "manip.gather_nd")
def gather_nd(params, indices, name=None, batch_dims=0):
  """`tf.gather_nd`: `indices[..., :]` index the leading dims of `params` (after batch dims)."""
  params = convert_to_tensor(params)
  indices = convert_to_tensor(indices)
  batch_dims = scalar_int(batch_dims)
  p_shape, i_shape = params._value.shape, indices._value.shape
  if not i_shape or i_shape[-1] > len(p_shape) - batch_dims:
    raise invalid("index innermost dimension length must be <= params rank; saw: %s vs. %d"
                  % (i_shape[-1] if i_shape else 0, len(p_shape) - batch_dims), "GatherNd")
  _check_nd(indices, p_shape[batch_dims:],
            "indices%s = [%s] does not index into param shape %s, node name: GatherNd",
            "GatherNd")
  if is_string(params) and not batch_dims:
    idx = np.asarray(indices._value)
    return Tensor(params._value[tuple(np.moveaxis(idx, -1, 0))])
  return _gather_nd(params, indices, batch_dims=batch_dims)


@op(name="ScatterNd")
def _scatter_nd(indices, updates, *, shape):
  target = jnp.zeros(shape, updates.dtype)
  return target.at[_components(shape, indices)].add(updates, mode="drop")


@export("scatter_nd", "manip.scatter_nd")
def scatter_nd(indices, updates, shape, name=None):  # pylint: disable=redefined-outer-name
  """`tf.scatter_nd`: zeros of `shape` with `updates` summed in at `indices`."""
  indices = convert_to_tensor(indices)
  updates = convert_to_tensor(updates)
  dims = int_tuple(shape)
  _check_nd(indices, dims, "indices%s = [%s] does not index into shape %s", "ScatterNd")
  return _scatter_nd(indices, updates, shape=dims)


@op(name="TensorScatterUpdate")
def _tensor_scatter(tensor, indices, updates, *, mode):
  ref = tensor.at[_components(tensor.shape, indices)]
  if mode == "update":
    return ref.set(updates, mode="drop")
  return ref.add(-updates if mode == "sub" else updates, mode="drop")


def _tensor_scatter_op(mode, op_name):
  def scatter(tensor, indices, updates, name=None):
    tensor = convert_to_tensor(tensor)
    indices = convert_to_tensor(indices)
    updates = convert_to_tensor(updates, dtype=tensor.dtype)
    _check_nd(indices, tensor._value.shape, "indices%s = [%s] does not index into shape %s",
              op_name)
    return _tensor_scatter(tensor, indices, updates, mode=mode)
  scatter.__name__ = scatter.__qualname__ = "tensor_scatter_" + mode
  scatter.__doc__ = "`tf.tensor_scatter_%s`: a copy of `tensor` with `updates` %s at `indices`." \
      % (mode, {"update": "written", "add": "added", "sub": "subtracted"}[mode])
  return scatter


tensor_scatter_update = export("tensor_scatter_update", "tensor_scatter_nd_update")(
    _tensor_scatter_op("update", "TensorScatterUpdate"))
tensor_scatter_add = export("tensor_scatter_add", "tensor_scatter_nd_add")(
    _tensor_scatter_op("add", "TensorScatterAdd"))
tensor_scatter_sub = export("tensor_scatter_sub", "tensor_scatter_nd_sub")(
    _tensor_scatter_op("sub", "TensorScatterSub"))


@export("boolean_mask")
def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
  """`tf.boolean_mask`: the entries of `tensor` where `mask` is True (mask dims from `axis`).

  The kept positions are read on the host; the recorded op is a gather, so tapes replay it.
  """
  tensor = convert_to_tensor(tensor)
  mask = convert_to_tensor(mask)
  dims, m_dims = tensor._value.shape, mask._value.shape
  if not m_dims:
    raise ValueError("mask cannot be scalar.")
  axis = 0 if axis is None else canonical_axis(scalar_int(axis), len(dims))
  if not tensor_shape.TensorShape(dims[axis:axis + len(m_dims)]).is_compatible_with(m_dims):
    raise ValueError("Shapes %s and %s are incompatible" % (
        tensor_shape.TensorShape(dims[axis:axis + len(m_dims)]), tensor_shape.TensorShape(m_dims)))
  flat = array_ops.reshape(tensor, dims[:axis] + (-1,) + dims[axis + len(m_dims):])
  keep = Tensor(device_lib.put(np.flatnonzero(host(mask)).astype(np.int64)))
  return gather(flat, keep, axis=axis)


# ---- Set-like ops (outputs sized by values: computed on concrete arrays) ----
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])
ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


def _unique_np(x):
  """Unique values in first-occurrence order, each element's index into them, counts."""
  values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                             return_counts=True)
  order = np.argsort(first, kind="stable")
  rank = np.empty_like(order)
  rank[order] = np.arange(order.size)
  return values[order], rank[inverse.reshape(-1)], counts[order]


@op(name="UniqueWithCounts", jit=False)
def _unique(x, *, out_idx):
  values, first, inverse, counts = jnp.unique(x, return_index=True, return_inverse=True,
                                              return_counts=True)
  order = jnp.argsort(first)
  rank = jnp.argsort(order)
  return (values[order], rank[inverse.reshape(-1)].astype(out_idx),
          counts[order].astype(out_idx))


def _unique_op(x, out_idx):
  x = convert_to_tensor(x)
  if x._value.ndim != 1:
    raise invalid("unique expects a 1D vector.", "Unique")
  out_idx = np_name(out_idx)
  if is_string(x):
    y, idx, count = _unique_np(x._value)
    return [Tensor(y), Tensor(jnp.asarray(idx.astype(out_idx))),
            Tensor(jnp.asarray(count.astype(out_idx)))]
  return _unique(x, out_idx=out_idx)


@export("unique")
def unique(x, out_idx=dtypes.int32, name=None):
  """`tf.unique`: (y, idx) with y in first-occurrence order and `x == gather(y, idx)`."""
  y, idx, _ = _unique_op(x, out_idx)
  return Unique(y, idx)


@export("unique_with_counts")
def unique_with_counts(x, out_idx=dtypes.int32, name=None):
  return UniqueWithCounts(*_unique_op(x, out_idx))


@op(name="ListDiff", jit=False)
def _list_diff(x, y, *, index_dtype):
  idx = jnp.nonzero(~jnp.isin(x, y))[0]
  return x[idx], idx.astype(index_dtype)


@export("setdiff1d")
def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
  """`tf.setdiff1d`: (out, idx): the values of x not in y, in order, and their positions."""
  x, y = convert_to_tensor(x), convert_to_tensor(y)
  if is_string(x):
    idx = np.flatnonzero(~np.isin(x._value, y._value))
    return ListDiff(Tensor(x._value[idx]), Tensor(jnp.asarray(idx.astype(np_name(index_dtype)))))
  return ListDiff(*_list_diff(x, y, index_dtype=np_name(index_dtype)))


# ---- Sequence reversal ----
@op(name="ReverseSequence")
def _reverse_sequence(x, lengths, *, seq_axis, batch_axis):
  i = jnp.arange(x.shape[seq_axis], dtype=lengths.dtype)[None, :]
  src = jnp.where(i < lengths[:, None], lengths[:, None] - 1 - i, i)
  if batch_axis > seq_axis:
    src = src.T
  shape = [1] * x.ndim
  shape[batch_axis], shape[seq_axis] = x.shape[batch_axis], x.shape[seq_axis]
  src = jnp.broadcast_to(src.reshape(shape), x.shape)
  return jnp.take_along_axis(x, src, axis=seq_axis)


@export("reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,
                     seq_dim=None, batch_dim=None):
  """`tf.reverse_sequence`: reverses the first `seq_lengths[b]` entries of each batch row."""
  seq_axis = seq_dim if seq_axis is None else seq_axis
  batch_axis = (0 if batch_dim is None else batch_dim) if batch_axis is None else batch_axis
  input = convert_to_tensor(input)
  lengths = convert_to_tensor(seq_lengths)
  dims = input._value.shape
  seq_axis, batch_axis = scalar_int(seq_axis), scalar_int(batch_axis)
  if seq_axis == batch_axis or not (0 <= seq_axis < len(dims) and 0 <= batch_axis < len(dims)):
    raise invalid("Invalid seq_dim %d / batch_dim %d for input of rank %d"
                  % (seq_axis, batch_axis, len(dims)), "ReverseSequence")
  if lengths._value.shape != (dims[batch_axis],):
    raise invalid("Length of seq_lengths != input.dims(%d), (%d vs. %d)"
                  % (batch_axis, lengths._value.shape[0] if lengths._value.ndim else 0,
                     dims[batch_axis]), "ReverseSequence")
  value_checks.check(lengths, lambda values: (values <= dims[seq_axis]).all(),
                     lambda values: invalid("seq_lens(%d) > input.dims(%d)" % (
                         np.flatnonzero(values > dims[seq_axis])[0], seq_axis),
                                            "ReverseSequence"))
  return _reverse_sequence(input, lengths, seq_axis=seq_axis, batch_axis=batch_axis)
