"""`tf.sparse` (TF 1.15's sparse ops) on SparseTensor, plus `tf.sparse_to_dense`.

Index bookkeeping has value-dependent sizes, so it runs in NumPy on concrete indices and
dense shapes, as TF's eager kernels do: these ops need concrete indices (inside tf.function
they raise NotImplementedError). Values flow through @op implementations (gathers, segment
reductions, matmuls), so GradientTape differentiates them w.r.t. values and dense inputs.
"""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops.array_ops import invalid
from tfe_compat.ops.string_ops import SparseTensor
from tfe_compat.ops.string_ops import SparseTensorValue


# ---- host helpers ----
def _host(tensor, what):
  value = tensor._value
  if isinstance(value, jax.core.Tracer):
    raise NotImplementedError("tf.sparse.%s needs concrete indices and shapes: tfe_compat runs "
                              "it eagerly only (not inside tf.function)." % what)
  return np.asarray(value)


def _sparse_input(sp_input):
  if isinstance(sp_input, SparseTensorValue):
    return SparseTensor.from_value(sp_input)
  if not isinstance(sp_input, SparseTensor):
    raise TypeError("Input must be a SparseTensor.")
  return sp_input


def _parts(sp_input, what):
  """(SparseTensor, int64 indices [N, rank], int64 dense shape) on the host."""
  sp_input = _sparse_input(sp_input)
  shape = _host(sp_input.dense_shape, what).astype(np.int64).reshape(-1)
  indices = _matrix(_host(sp_input.indices, what).astype(np.int64), len(shape))
  return sp_input, indices, shape


def _matrix(indices, rank):
  """`indices` as [N, rank] (N read from the leading dimension when rank is 0)."""
  if rank:
    return indices.reshape(-1, rank)
  return indices.reshape(indices.shape[0] if indices.ndim == 2 else 0, 0)


def _sparse(indices, values, shape):
  shape = np.asarray(shape, np.int64).reshape(-1)
  return SparseTensor(_matrix(np.asarray(indices, np.int64), len(shape)), values, shape)


def _shape_text(shape):
  return "[%s]" % ",".join(str(int(d)) for d in shape)


def _row_major(indices):
  """The stable permutation that puts `indices` in TF's canonical row-major order."""
  if indices.shape[1] == 0:
    return np.arange(len(indices))
  return np.lexsort(indices.T[::-1])


def _positions(positions):
  return ops.convert_to_tensor(np.asarray(positions, np.int64).reshape(-1))


@op(name="GatherV2")
def _take(positions, *values):
  data = values[0] if len(values) == 1 else jnp.concatenate(values)
  return jnp.take(data, positions, axis=0)


def _gather(values, positions, op_name="GatherV2"):
  """Entries `positions` of the concatenated 1-D `values` (Tensors of one dtype)."""
  values = ops.convert_matching(*values, op_name=op_name)
  if values[0].dtype is dtypes.string:
    data = np.concatenate([np.asarray(v._value, dtype=object).reshape(-1) for v in values])
    return Tensor(data[np.asarray(positions, np.int64)])
  return _take(_positions(positions), *values)


def _axes(axis, rank, op_name):
  if axis is None:
    return tuple(range(rank))
  out = []
  for a in np.asarray(axis).reshape(-1):
    if not -rank <= int(a) < rank:
      raise invalid("Invalid reduction dimension %d, for input with %d dimensions."
                     % (int(a), rank), op_name)
    out.append(int(a) % rank)
  return tuple(sorted(set(out)))


# ---- add / maximum / minimum ----
def _union(a_idx, b_idx):
  """TF's merge of two (assumed ordered) index lists: [(i or -1, j or -1, index)]."""
  i = j = 0
  out = []
  while i < len(a_idx) and j < len(b_idx):
    ka, kb = tuple(a_idx[i]), tuple(b_idx[j])
    if ka < kb:
      out.append((i, -1, ka))
      i += 1
    elif ka > kb:
      out.append((-1, j, kb))
      j += 1
    else:
      out.append((i, j, ka))
      i += 1
      j += 1
  out.extend((k, -1, tuple(a_idx[k])) for k in range(i, len(a_idx)))
  out.extend((-1, k, tuple(b_idx[k])) for k in range(j, len(b_idx)))
  return out


def _check_same_shape(a_shape, b_shape, op_name):
  if len(a_shape) != len(b_shape):
    raise invalid("Operands do not have the same ranks; got shapes: %s and %s"
                   % (_shape_text(a_shape), _shape_text(b_shape)), op_name)
  for d, (x, y) in enumerate(zip(a_shape, b_shape)):
    if x != y:
      raise invalid("Operands' shapes do not match: got %d and %d for dimension %d"
                     % (x, y, d), op_name)


def _pick(values, positions):
  return jnp.take(values, positions, mode="fill", fill_value=0)


@op(name="SparseAdd")
def _sum_values(a, b, ia, ib):
  return _pick(a, ia) + _pick(b, ib)


@op(name="SparseSparseMaximum")
def _max_values(a, b, ia, ib):
  return jnp.maximum(_pick(a, ia), _pick(b, ib))


@op(name="SparseSparseMinimum")
def _min_values(a, b, ia, ib):
  return jnp.minimum(_pick(a, ia), _pick(b, ib))


def _merge(a, b, combine, op_name, threshold=None):
  a, a_idx, a_shape = _parts(a, op_name)
  b, b_idx, b_shape = _parts(b, op_name)
  a_values, b_values = ops.convert_matching(a.values, b.values, op_name=op_name)
  _check_same_shape(a_shape, b_shape, op_name)
  merged = _union(a_idx, b_idx)
  ia = np.array([m[0] if m[0] >= 0 else len(a_idx) for m in merged], np.int64)
  ib = np.array([m[1] if m[1] >= 0 else len(b_idx) for m in merged], np.int64)
  indices = np.array([m[2] for m in merged], np.int64).reshape(-1, len(a_shape))
  values = combine(a_values, b_values, _positions(ia), _positions(ib))
  if threshold:
    both = np.array([m[0] >= 0 and m[1] >= 0 for m in merged], bool)
    keep = np.flatnonzero(~both | (np.abs(_host(values, op_name)) >= threshold))
    indices, values = indices[keep], _gather([values], keep)
  return _sparse(indices, values, a_shape)


@op(name="SparseTensorDenseAdd")
def _add_dense(indices, values, dense):
  return dense.at[tuple(indices[:, d] for d in range(dense.ndim))].add(values)


@export("sparse.add", "sparse_add")
def add(a, b, threshold=None, thresh=None):
  """SparseTensor + SparseTensor (sums below `threshold` in magnitude are dropped), or
  SparseTensor + dense Tensor (a dense Tensor). Needs concrete indices."""
  threshold = thresh if threshold is None else threshold
  sparse = (SparseTensor, SparseTensorValue)
  if not any(isinstance(x, sparse) for x in (a, b)):
    raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
  if all(isinstance(x, sparse) for x in (a, b)):
    return _merge(a, b, _sum_values, "SparseAdd", float(np.real(threshold or 0)))
  if isinstance(b, sparse):
    a, b = b, a
  a, indices, shape = _parts(a, "add")
  values, dense = ops.convert_matching(a.values, b, op_name="SparseTensorDenseAdd")
  if len(shape) != dense.shape.ndims:
    raise invalid("Two operands have different ranks; received: %d and %d"
                   % (len(shape), dense.shape.ndims), "SparseTensorDenseAdd")
  for d, (x, y) in enumerate(zip(shape, dense.shape.as_list())):
    if x != y:
      raise invalid("Dimension %d does not equal (no broadcasting is supported): sparse side "
                     "%d vs dense side %d" % (d, x, y), "SparseTensorDenseAdd")
  return _add_dense(ops.convert_to_tensor(indices), values, dense)


@export("sparse.maximum", "sparse_maximum")
def maximum(sp_a, sp_b, name=None):
  """Elementwise max of two ordered SparseTensors (missing entries count as 0)."""
  return _merge(sp_a, sp_b, _max_values, "SparseSparseMaximum")


@export("sparse.minimum", "sparse_minimum")
def minimum(sp_a, sp_b, name=None):
  """Elementwise min of two ordered SparseTensors (missing entries count as 0)."""
  return _merge(sp_a, sp_b, _min_values, "SparseSparseMinimum")


# ---- reordering and restructuring ----
@export("sparse.reorder", "sparse_reorder")
def reorder(sp_input, name=None):
  """A copy in canonical row-major order. Needs concrete indices."""
  sp_input, indices, shape = _parts(sp_input, "reorder")
  perm = _row_major(indices)
  return _sparse(indices[perm], _gather([sp_input.values], perm), shape)


@export("sparse.concat", "sparse_concat")
def concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
           expand_nonconcat_dims=None):
  """Concatenates SparseTensors along `axis` (row-major output). Needs concrete indices."""
  axis = concat_dim if concat_dim is not None else axis
  if expand_nonconcat_dims is not None:
    expand_nonconcat_dim = expand_nonconcat_dims
  parts = [_parts(sp, "concat") for sp in sp_inputs]
  rank = len(parts[0][2])
  axis = int(axis) % rank if -rank <= int(axis) < rank else int(axis)
  if not 0 <= axis < rank:
    raise invalid("Concat dimension must be in range [%d, %d), got %d"
                   % (-rank, rank, axis), "SparseConcat")
  for position, (_, _, shape) in enumerate(parts):
    if len(shape) != rank:
      raise invalid("Ranks of all input tensors must match: expected %d but got %d at "
                    "position %d" % (rank, len(shape), position), "SparseConcat")
  shapes = np.stack([p[2] for p in parts])
  if expand_nonconcat_dim:
    out_shape = shapes.max(axis=0)
  else:
    out_shape = shapes[0].copy()
    for position, shape in enumerate(shapes[1:], 1):
      for d in range(rank):
        if d != axis and shape[d] != out_shape[d]:
          raise invalid("Input shapes must match: expected %d for dimension %d but got %d at "
                         "position %d" % (out_shape[d], d, shape[d], position), "SparseConcat")
  out_shape[axis] = shapes[:, axis].sum()
  offsets = np.concatenate([[0], np.cumsum(shapes[:, axis])[:-1]])
  moved = []
  for (_, indices, _), offset in zip(parts, offsets):
    indices = indices.copy()
    indices[:, axis] += offset
    moved.append(indices)
  indices = np.concatenate(moved).reshape(-1, rank)
  perm = _row_major(indices)
  values = _gather([p[0].values for p in parts], perm, "SparseConcat")
  return _sparse(indices[perm], values, out_shape)


@export("sparse.fill_empty_rows", "sparse_fill_empty_rows")
def fill_empty_rows(sp_input, default_value, name=None):
  """(SparseTensor with `default_value` at [row, 0, ...] of each empty row, bool indicator
  of the empty rows). Needs concrete indices."""
  sp_input, indices, shape = _parts(sp_input, "fill_empty_rows")
  default = ops.convert_to_tensor(default_value, sp_input.dtype)
  empty = np.ones(shape[0], bool)
  empty[indices[:, 0]] = False
  filled = np.zeros((int(empty.sum()), len(shape)), np.int64)
  filled[:, 0] = np.flatnonzero(empty)
  all_indices = np.concatenate([indices, filled])
  source = np.concatenate([np.arange(len(indices)), np.full(len(filled), len(indices))])
  perm = np.argsort(all_indices[:, 0], kind="stable")
  values = _gather([sp_input.values, Tensor(default._value.reshape(1))], source[perm],
                   "SparseFillEmptyRows")
  return (_sparse(all_indices[perm], values, shape),
          ops.convert_to_tensor(empty))


@export("sparse.reset_shape", "sparse_reset_shape")
def reset_shape(sp_input, new_shape=None):
  """Same entries with `new_shape` (default: the tight bounding box of the indices)."""
  sp_input, indices, shape = _parts(sp_input, "reset_shape")
  if new_shape is None:
    out = indices.max(axis=0) + 1 if len(indices) else np.zeros(len(shape), np.int64)
  else:
    out = _host(ops.convert_to_tensor(new_shape), "reset_shape").astype(np.int64).reshape(-1)
    if len(out) != len(shape):
      raise ValueError("Shapes (%d,) and (%d,) are incompatible" % (len(out), len(shape)))
    if not np.all(shape <= out):
      raise ValueError("Requested new_shape should have dimension sizes >= sp_input.shape.  "
                       "Found new_shape (%s), sp_input.shape (%s)." % (shape, out))
  return _sparse(indices, sp_input.values, out)


@export("sparse.reshape", "sparse_reshape")
def reshape(sp_input, shape, name=None):
  """Reshapes the dense shape (one -1 is inferred); entry order is kept."""
  sp_input, indices, in_shape = _parts(sp_input, "reshape")
  out = _host(ops.convert_to_tensor(shape), "reshape").astype(np.int64).reshape(-1)
  size, known = int(np.prod(in_shape)), int(np.prod(out[out != -1]))
  if np.sum(out == -1) > 1:
    raise invalid("only one output dimension may be -1, not both %d and %d"
                   % tuple(np.flatnonzero(out == -1)[:2]), "SparseReshape")
  if -1 in out:
    if known == 0 or size % known:
      text = np.where(out == -1, 1, out)
      raise invalid("Input to reshape is a SparseTensor with %d dense values, but the "
                     "requested shape requires a multiple of %d. input_shape=%s output_shape=%s"
                     % (size, known, _shape_text(in_shape), _shape_text(text)), "SparseReshape")
    out = np.where(out == -1, size // known, out)
  elif known != size:
    raise invalid("Input to reshape is a tensor with %d dense values, but the requested "
                   "shape has %d. input_shape=%s output_shape=%s"
                   % (size, known, _shape_text(in_shape), _shape_text(out)), "SparseReshape")
  flat = np.ravel_multi_index(tuple(indices.T), in_shape) if len(in_shape) else np.zeros(
      len(indices), np.int64)
  new = np.stack(np.unravel_index(flat, out), axis=1) if len(out) else np.zeros((len(flat), 0))
  return _sparse(new, sp_input.values, out)


@export("sparse.retain", "sparse_retain")
def retain(sp_input, to_retain):
  """Keeps the entries where the bool vector `to_retain` is True."""
  sp_input, indices, shape = _parts(sp_input, "retain")
  keep = _host(ops.convert_to_tensor(to_retain), "retain").astype(bool)
  if keep.ndim != 1:
    raise ValueError("Shape %s must have rank 1" % (keep.shape,))
  if len(keep) != len(indices):
    raise ValueError("Dimensions %d and %d are not compatible" % (len(indices), len(keep)))
  positions = np.flatnonzero(keep)
  return _sparse(indices[positions], _gather([sp_input.values], positions), shape)


@export("sparse.slice", "sparse_slice")
def slice(sp_input, start, size, name=None):  # pylint: disable=redefined-builtin
  """The entries inside the box [start, start + size), shifted by -start (order kept)."""
  sp_input, indices, shape = _parts(sp_input, "slice")
  start = np.asarray(start, np.int64).reshape(-1)
  size = np.asarray(size, np.int64).reshape(-1)
  for label, vector in (("start", start), ("size", size)):
    if len(vector) != len(shape):
      raise invalid("Expected %s to be a vector of length %d but got length %d"
                    % (label, len(shape), len(vector)), "SparseSlice")
  end = np.minimum(start + size, shape)
  keep = np.flatnonzero(np.all((indices >= start) & (indices < end), axis=1))
  out_shape = np.maximum(end - start, 0)
  return _sparse(indices[keep] - start, _gather([sp_input.values], keep, "SparseSlice"),
                 out_shape)


class _KeywordRequired:
  def __repr__(self):
    return "KeywordRequired()"


@export("sparse.split", "sparse_split")
def split(keyword_required=_KeywordRequired(), sp_input=None, num_split=None, axis=None,
          name=None, split_dim=None):
  """Splits along `axis` into `num_split` SparseTensors (the first dim % num_split pieces are
  one larger). Keyword arguments only, as in TF."""
  if not isinstance(keyword_required, _KeywordRequired):
    raise ValueError("Keyword arguments are required for this function.")
  axis = split_dim if axis is None else axis
  if sp_input is None or num_split is None or axis is None:
    raise ValueError("sp_input, num_split and axis are required.")
  sp_input, indices, shape = _parts(sp_input, "split")
  axis, num_split = int(axis) % len(shape), int(num_split)
  base, extra = divmod(int(shape[axis]), num_split)
  sizes = [base + (1 if i < extra else 0) for i in range(num_split)]
  starts = np.concatenate([[0], np.cumsum(sizes)])
  out = []
  for i in range(num_split):
    keep = np.flatnonzero((indices[:, axis] >= starts[i]) & (indices[:, axis] < starts[i + 1]))
    piece = indices[keep].copy()
    piece[:, axis] -= starts[i]
    piece_shape = shape.copy()
    piece_shape[axis] = sizes[i]
    out.append(_sparse(piece, _gather([sp_input.values], keep, "SparseSplit"), piece_shape))
  return out


@export("sparse.transpose", "sparse_transpose")
def transpose(sp_input, perm=None, name=None):
  """Permutes the dimensions (default: reversed); the result is reordered row-major."""
  sp_input, indices, shape = _parts(sp_input, "transpose")
  perm = np.arange(len(shape))[::-1] if perm is None else np.asarray(perm, np.int64).reshape(-1)
  if sorted(perm.tolist()) != list(range(len(shape))):
    raise invalid("%s is not a permutation of 0..%d" % (_shape_text(perm), len(shape) - 1),
                   "Transpose")
  return reorder(_sparse(indices[:, perm], sp_input.values, shape[perm]))


@export("sparse.expand_dims")
def expand_dims(sp_input, axis=None, name=None):
  """Inserts a dimension of size 1 at `axis` (default -1)."""
  sp_input, indices, shape = _parts(sp_input, "expand_dims")
  rank = len(shape)
  axis = -1 if axis is None else int(np.asarray(axis).reshape(()))
  if not -rank - 1 <= axis <= rank:
    raise invalid("Expected axis in [%d, %d], but got %d" % (-rank - 1, rank, axis),
                   "ExpandDims")
  axis = axis + rank + 1 if axis < 0 else axis
  new = np.insert(indices, axis, 0, axis=1)
  return _sparse(new, sp_input.values, np.insert(shape, axis, 1))


@export("sparse.merge", "sparse_merge")
def merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
  """Entries of `sp_values` re-indexed by ids: indices[:, :-1] + ids, last dim vocab_size."""
  if isinstance(sp_ids, (SparseTensor, SparseTensorValue)):
    sp_ids, vocab_size = [sp_ids], [vocab_size]
  elif not isinstance(vocab_size, (list, tuple)) or len(vocab_size) != len(sp_ids):
    raise ValueError("sp_ids and vocab_size have to be lists of the same length.")
  sp_values, indices, shape = _parts(sp_values, "merge")
  columns = [indices[:, :-1]]
  for ids in sp_ids:
    ids = _sparse_input(ids)
    if not ids.values.dtype.is_integer:
      raise TypeError("sp_ids.values.dtype=%s is not integer" % ids.values.dtype.name)
    columns.append(_host(ids.values, "merge").astype(np.int64).reshape(-1, 1))
  new_shape = np.concatenate([shape[:-1], np.asarray(vocab_size, np.int64).reshape(-1)])
  result = _sparse(np.concatenate(columns, axis=1), sp_values.values, new_shape)
  return result if already_sorted else reorder(result)


@export("sparse.to_indicator", "sparse_to_indicator")
def to_indicator(sp_input, vocab_size, name=None):
  """Dense bool [..., vocab_size]: True at (indices[:-1], value) for each entry."""
  sp_input, indices, shape = _parts(sp_input, "to_indicator")
  if not sp_input.dtype.is_integer:
    raise TypeError("sp_input.values must be int32 or int64, not %s" % sp_input.dtype.name)
  ids = _host(sp_input.values, "to_indicator").astype(np.int64)
  out_shape = tuple(shape[:-1]) + (int(vocab_size),)
  where = np.concatenate([indices[:, :-1], ids.reshape(-1, 1)], axis=1)
  if np.any(where < 0) or np.any(where >= np.array(out_shape)):
    raise invalid("Indices are not valid (out of bounds).  Shape: %s"
                   % _shape_text(out_shape), "SparseToDense")
  dense = np.zeros(out_shape, bool)
  dense[tuple(where.T)] = True
  return ops.convert_to_tensor(dense)


@op(name="GatherNd")
def _gather_nd(tensor, indices):
  return tensor[tuple(indices[:, d] for d in range(tensor.ndim))]


@export("sparse.from_dense")
def from_dense(tensor, name=None):
  """The nonzero (non-empty for strings) entries of a dense Tensor, row-major."""
  tensor = ops.convert_to_tensor(tensor)
  value = _host(tensor, "from_dense")
  nonzero = value != (b"" if tensor.dtype is dtypes.string else 0)
  indices = np.argwhere(nonzero).astype(np.int64).reshape(-1, value.ndim)
  if tensor.dtype is dtypes.string:
    values = Tensor(value[nonzero])
  else:
    values = _gather_nd(tensor, ops.convert_to_tensor(indices))
  return _sparse(indices, values, value.shape)


@export("sparse.eye")
def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
  """A sparse [num_rows, num_columns] identity matrix."""
  num_rows = int(np.asarray(num_rows._value if isinstance(num_rows, Tensor) else num_rows))
  num_columns = num_rows if num_columns is None else int(np.asarray(
      num_columns._value if isinstance(num_columns, Tensor) else num_columns))
  diag = np.arange(min(num_rows, num_columns), dtype=np.int64)
  values = ops.convert_to_tensor(np.ones(len(diag)), dtypes.as_dtype(dtype))
  return _sparse(np.stack([diag, diag], axis=1), values, [num_rows, num_columns])


@export("sparse.mask", "sparse_mask")
def mask(a, mask_indices, name=None):
  """The slices of IndexedSlices-like `a` (values, indices, dense_shape) whose indices are
  not in `mask_indices`, as `type(a)(values, indices, dense_shape)`."""
  indices = ops.convert_to_tensor(a.indices)
  host = _host(indices, "mask")
  keep = np.flatnonzero(~np.isin(host, _host(ops.convert_to_tensor(mask_indices), "mask")))
  values = _gather([ops.convert_to_tensor(a.values)], keep, "ListDiff")
  return type(a)(values, Tensor(indices._value[keep]), a.dense_shape)


@export("sparse_placeholder", "sparse.placeholder")
def sparse_placeholder(dtype, shape=None, name=None):
  """A SparseTensor of placeholders (fed a SparseTensorValue); TF's eager-mode error."""
  if graph_lib.building() is None:
    raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
  rank = None if shape is None else len(shape)
  name = name or "Placeholder"
  if shape is not None and None not in list(shape):  # TF: the shape is a default, fed or not
    dense_shape = array_ops.placeholder_with_default(
        ops.constant(list(shape), dtypes.int64), [rank], name=name + "/shape")
  else:
    dense_shape = graph_build.placeholder(dtypes.int64, [rank], name + "/shape")
  return SparseTensor(
      graph_build.placeholder(dtypes.int64, [None, rank], name + "/indices"),
      graph_build.placeholder(dtypes.as_dtype(dtype), [None], name + "/values"), dense_shape)
