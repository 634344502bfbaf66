"""`tf.sparse` math: sparse-dense matmul, reductions, softmax, sparse segment ops and
`tf.sparse_to_dense` (split from sparse_ops.py). Like sparse_ops, these need concrete indices
(computed on the host); values and dense operands are differentiable."""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.ops.array_ops import invalid
from tfe_compat.ops.matmul_cast_ops import matmul as _dense_matmul
from tfe_compat.ops.sparse_ops import _axes
from tfe_compat.ops.sparse_ops import _host
from tfe_compat.ops.sparse_ops import _parts
from tfe_compat.ops.sparse_ops import _positions
from tfe_compat.ops.sparse_ops import _row_major
from tfe_compat.ops.sparse_ops import _shape_text
from tfe_compat.ops.sparse_ops import _sparse


# ---- matmul ----
@op(name="SparseTensorDenseMatMul")
def _sparse_dense_matmul(indices, values, b, *, rows, adjoint_a, adjoint_b):
  out_rows, inner = indices[:, 0], indices[:, 1]
  if adjoint_a:
    out_rows, inner, values = inner, out_rows, jnp.conj(values)
  if adjoint_b:
    b = jnp.conj(b).T
  products = values[:, None] * jnp.take(b, inner, axis=0)
  return jnp.zeros((rows, b.shape[1]), products.dtype).at[out_rows].add(products)


@export("sparse.sparse_dense_matmul", "sparse.matmul", "sparse_tensor_dense_matmul")
def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
  """Rank-2 SparseTensor `sp_a` times dense matrix `b` (either adjointed): a dense Tensor."""
  sp_a, indices, shape = _parts(sp_a, "sparse_dense_matmul")
  values, b = ops.convert_matching(sp_a.values, b, op_name="SparseTensorDenseMatMul")
  if len(shape) != 2:
    raise invalid("Tensor 'a_shape' is not a vector of length 2", "SparseTensorDenseMatMul")
  if b.shape.ndims != 2:
    raise invalid("Tensor 'b' is not a matrix", "SparseTensorDenseMatMul")
  a_rows, a_inner = (shape[1], shape[0]) if adjoint_a else (shape[0], shape[1])
  b_dims = b.shape.as_list()
  b_inner = b_dims[1] if adjoint_b else b_dims[0]
  if a_inner != b_inner:
    raise invalid("Cannot multiply A and B because inner dimension does not match: %d vs. %d."
                   "  Did you forget a transpose?  Dimensions of A: [%d, %d).  Dimensions of "
                   "B: %s" % (a_inner, b_inner, shape[0], shape[1], _shape_text(b_dims)),
                   "SparseTensorDenseMatMul")
  checks = [("k", 0 if adjoint_a else 1, a_inner), ("m", 1 if adjoint_a else 0, a_rows)]
  bad = np.stack([(indices[:, d] < 0) | (indices[:, d] >= limit) for _, d, limit in checks])
  if bad.any():  # TF's kernel checks k, then m, of each entry in turn
    i = int(np.argmax(bad.any(axis=0)))
    label, d, limit = checks[0] if bad[0, i] else checks[1]
    raise invalid("%s (%d) from index[%d,%d] out of bounds (>=%d)"
                  % (label, indices[i, d], i, d, limit), "SparseTensorDenseMatMul")
  return _sparse_dense_matmul(ops.convert_to_tensor(indices), values, b, rows=int(a_rows),
                              adjoint_a=bool(adjoint_a), adjoint_b=bool(adjoint_b))


@export("sparse_matmul")
def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False,
                  b_is_sparse=False, name=None):
  """TF1's dense `tf.sparse_matmul` (MatMul with sparsity hints, which are ignored)."""
  return _dense_matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)


# ---- reductions ----
def _segment_max(values, segments, num):
  out = jax.ops.segment_max(values, segments, num)
  present = jax.ops.segment_sum(jnp.ones_like(segments), segments, num) > 0
  return jnp.where(present, out, jnp.zeros_like(out))


@op(name="SparseReduceSum")
def _reduce_sum(values, segments, *, num, shape):
  return jax.ops.segment_sum(values, segments, num).reshape(shape)


@op(name="SparseReduceMax")
def _reduce_max(values, segments, *, num, shape):
  return _segment_max(values, segments, num).reshape(shape)


def _reduction(sp_input, axis, keepdims, reduction_axes, keep_dims, op_name):
  """(values, kept dims' coordinates [N, k], kept dims, kept shape, output shape)."""
  axis = reduction_axes if axis is None else axis
  keepdims = bool(keep_dims if keepdims is None else keepdims)
  sp_input, indices, shape = _parts(sp_input, op_name)
  axes = _axes(axis, len(shape), op_name)
  kept = [d for d in range(len(shape)) if d not in axes]
  out_shape = [1 if d in axes else int(shape[d]) for d in range(len(shape))
               if keepdims or d not in axes]
  return sp_input.values, indices[:, kept], kept, shape[kept], out_shape


def _dense_reduce(impl, sp_input, axis, keepdims, reduction_axes, keep_dims, op_name):
  values, coords, _, kept_shape, out_shape = _reduction(sp_input, axis, keepdims,
                                                        reduction_axes, keep_dims, op_name)
  segments = np.ravel_multi_index(tuple(coords.T), kept_shape) if len(kept_shape) else (
      np.zeros(len(coords), np.int64))
  return impl(values, _positions(segments), num=int(np.prod(kept_shape)),
              shape=tuple(out_shape))


def _sparse_reduce(impl, sp_input, axis, keepdims, reduction_axes, keep_dims, op_name):
  values, coords, kept, _, out_shape = _reduction(sp_input, axis, keepdims, reduction_axes,
                                                  keep_dims, op_name)
  groups, segments = np.unique(coords, axis=0, return_inverse=True)
  reduced = impl(values, _positions(segments.reshape(-1)), num=len(groups),
                 shape=(len(groups),))
  if len(out_shape) > len(kept):  # keepdims: the reduced dims get index 0
    full = np.zeros((len(groups), len(out_shape)), np.int64)
    full[:, kept] = groups
    groups = full
  return _sparse(groups, reduced, out_shape)


@export("sparse.reduce_sum", "sparse_reduce_sum")
def reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
  """Sum over `axis` (all by default) of a SparseTensor: a dense Tensor."""
  return _dense_reduce(_reduce_sum, sp_input, axis, keepdims, reduction_axes, keep_dims,
                       "SparseReduceSum")


@export("sparse.reduce_max", "sparse_reduce_max")
def reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
  """Max over `axis` of the present values only (0 where a group has none): dense."""
  return _dense_reduce(_reduce_max, sp_input, axis, keepdims, reduction_axes, keep_dims,
                       "SparseReduceMax")


@export("sparse.reduce_sum_sparse", "sparse_reduce_sum_sparse")
def reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                      keep_dims=None):
  """reduce_sum as a SparseTensor holding the groups that have entries."""
  return _sparse_reduce(_reduce_sum, sp_input, axis, keepdims, reduction_axes, keep_dims,
                        "SparseReduceSumSparse")


@export("sparse.reduce_max_sparse", "sparse_reduce_max_sparse")
def reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                      keep_dims=None):
  """reduce_max as a SparseTensor holding the groups that have entries."""
  return _sparse_reduce(_reduce_max, sp_input, axis, keepdims, reduction_axes, keep_dims,
                        "SparseReduceMaxSparse")


# ---- softmax ----
@op(name="SparseSoftmax")
def _sparse_softmax(values, perm, segments, *, num):
  ordered = jnp.take(values, perm)
  top = jax.lax.stop_gradient(jax.ops.segment_max(ordered, segments, num))
  exp = jnp.exp(ordered - top[segments])
  return exp / jax.ops.segment_sum(exp, segments, num)[segments]


@export("sparse.softmax", "sparse_softmax")
def softmax(sp_input, name=None):
  """Softmax over the last dimension's present entries (input in row-major order; like TF,
  output values follow row-major order)."""
  sp_input, indices, shape = _parts(sp_input, "softmax")
  if len(shape) < 2:
    raise invalid("Input should have rank >= 2, but received shape: %s"
                   % " ".join(str(d) for d in shape), "SparseSoftmax")
  perm = _row_major(indices)
  _, segments = np.unique(indices[perm, :-1], axis=0, return_inverse=True)
  values = _sparse_softmax(sp_input.values, _positions(perm), _positions(segments.reshape(-1)),
                           num=int(segments.max()) + 1 if len(segments) else 0)
  return _sparse(indices, values, shape)


# ---- sparse segment ops ----
def _segment_reduce(data, indices, segments, num, kind):
  rows = jnp.take(data, indices, axis=0)
  total = jax.ops.segment_sum(rows, segments, num)
  if kind == "sum":
    return total
  count = jax.ops.segment_sum(jnp.ones(segments.shape, data.dtype), segments, num)
  count = jnp.maximum(count, 1).reshape((num,) + (1,) * (data.ndim - 1))
  return total / (count if kind == "mean" else jnp.sqrt(count))


@op(name="SparseSegmentSum")
def _segment_sum(data, indices, segments, *, num):
  return _segment_reduce(data, indices, segments, num, "sum")


@op(name="SparseSegmentMean")
def _segment_mean(data, indices, segments, *, num):
  return _segment_reduce(data, indices, segments, num, "mean")


@op(name="SparseSegmentSqrtN")
def _segment_sqrt_n(data, indices, segments, *, num):
  return _segment_reduce(data, indices, segments, num, "sqrt_n")


def _sparse_segment(impl, data, indices, segment_ids, num_segments, op_name):
  data = ops.convert_to_tensor(data)
  if num_segments is not None:
    op_name += "WithNumSegments"
  if impl is not _segment_sum and not data.dtype.is_floating:
    raise invalid("Value for attr 'T' of %s is not in the list of allowed values: bfloat16, "
                   "half, float, double" % data.dtype.name, op_name)
  idx = _host(ops.convert_to_tensor(indices), "segment_sum").astype(np.int64).reshape(-1)
  seg = _host(ops.convert_to_tensor(segment_ids), "segment_sum").astype(np.int64).reshape(-1)
  if len(idx) != len(seg):
    raise invalid("segment_ids and indices should have same size.", op_name)
  if np.any(np.diff(seg) < 0):
    raise invalid("segment ids are not increasing", op_name)
  rows = data.shape.as_list()[0]
  bad = np.flatnonzero((idx < 0) | (idx >= rows))
  if len(bad):
    raise invalid("Bad: indices[%d] == %d out of range [0, %d)" % (bad[0], idx[bad[0]], rows),
                   op_name)
  if num_segments is None:
    num = int(seg[-1]) + 1 if len(seg) else 0
  else:
    num = int(_host(ops.convert_to_tensor(num_segments), "segment_sum"))
    if len(seg) and seg[-1] >= num:
      raise invalid("segment ids must be < num_segments", op_name)
  return impl(data, _positions(idx), _positions(seg), num=num)


@export("sparse.segment_sum", "sparse_segment_sum")
def segment_sum(data, indices, segment_ids, name=None, num_segments=None):
  """out[segment_ids[i]] += data[indices[i]] (segment_ids sorted): TF's SparseSegmentSum."""
  return _sparse_segment(_segment_sum, data, indices, segment_ids, num_segments,
                         "SparseSegmentSum")


@export("sparse.segment_mean", "sparse_segment_mean")
def segment_mean(data, indices, segment_ids, name=None, num_segments=None):
  """Mean of data[indices[i]] per segment (empty segments are 0)."""
  return _sparse_segment(_segment_mean, data, indices, segment_ids, num_segments,
                         "SparseSegmentMean")


@export("sparse.segment_sqrt_n", "sparse_segment_sqrt_n")
def segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None):
  """Sum of data[indices[i]] per segment divided by sqrt(segment size)."""
  return _sparse_segment(_segment_sqrt_n, data, indices, segment_ids, num_segments,
                         "SparseSegmentSqrtN")


# ---- sparse_to_dense ----
@op(name="SparseToDense")
def _to_dense(indices, values, default, *, shape):
  dense = jnp.full(shape, default, dtype=values.dtype)
  values = jnp.broadcast_to(values, indices.shape[:1])
  return dense.at[tuple(indices[:, d] for d in range(len(shape)))].set(values)


@export("sparse_to_dense")
def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
                    validate_indices=True, name=None):
  """TF1's SparseToDense: `sparse_values` (scalar or [N]) at `sparse_indices` (scalar, [N] or
  [N, rank]) in a dense `output_shape` Tensor filled with `default_value`."""
  shape = _host(ops.convert_to_tensor(output_shape), "sparse_to_dense").astype(np.int64)
  shape = shape.reshape(-1)
  indices = _host(ops.convert_to_tensor(sparse_indices), "sparse_to_dense").astype(np.int64)
  indices = indices.reshape(-1, 1) if indices.ndim < 2 else indices
  values = ops.convert_to_tensor(sparse_values)
  default = ops.convert_to_tensor(default_value, values.dtype)
  if values.shape.ndims not in (0, 1) or (values.shape.ndims == 1 and
                                          values.shape.as_list()[0] != len(indices)):
    raise invalid("sparse_values has incorrect shape %s, should be [] or [%d]"
                   % (_shape_text(values.shape.as_list()), len(indices)), "SparseToDense")
  if indices.shape[1] != len(shape):
    raise invalid("sparse_indices should be a scalar, vector, or matrix, got shape %s and "
                   "output_shape %s" % (_shape_text(indices.shape), _shape_text(shape)),
                   "SparseToDense")
  if validate_indices:
    _validate(indices, shape)
  elif np.any(indices < 0) or np.any(indices >= shape):
    raise invalid("Indices are not valid (out of bounds).  Shape: %s" % _shape_text(shape),
                   "SparseToDense")
  if values.dtype is dtypes.string:
    dense = np.full(tuple(shape), np.asarray(default._value, dtype=object).item(), dtype=object)
    dense[tuple(indices.T)] = np.asarray(values._value, dtype=object)
    return ops.convert_to_tensor(dense)
  return _to_dense(ops.convert_to_tensor(indices), values, default, shape=tuple(int(d) for d in
                                                                                 shape))


def _validate(indices, shape, op_name="SparseToDense"):
  """TF's SparseTensor::IndicesValid: in bounds, in row-major order, no repeats."""
  for i, index in enumerate(indices):
    text = "indices[%d] = %s" % (i, _shape_text(index))
    if np.any(index < 0) or np.any(index >= shape):
      raise invalid("%s is out of bounds: need 0 <= index < %s" % (text, _shape_text(shape)),
                     op_name)
    if i and tuple(index) <= tuple(indices[i - 1]):
      if tuple(index) == tuple(indices[i - 1]):
        raise invalid("%s is repeated" % text, op_name)
      raise invalid("%s is out of order. Many sparse ops require sorted indices.\n    Use "
                     "`tf.sparse.reorder` to create a correctly ordered copy.\n\n" % text,
                     op_name)
