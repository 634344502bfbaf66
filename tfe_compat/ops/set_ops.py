"""`tf.sets` (set_size, intersection, union, difference) and `tf.edit_distance`.

Both group the elements of their inputs by every index but the last (a dense row, or the
entries of a SparseTensor sharing those indices). Grouping has value-dependent sizes, so it
runs in NumPy on concrete values, as TF's CPU kernels do (not inside tf.function). Neither
op has a gradient in TF.
"""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops.array_ops import dims_text, invalid
from tfe_compat.ops.math_ops import mismatch_message
from tfe_compat.ops.sparse_math_ops import _validate
from tfe_compat.ops.sparse_ops import _host, _parts, _sparse
from tfe_compat.ops.string_ops import (SparseTensor, SparseTensorValue,
                                       convert_to_tensor_or_sparse_tensor)

_VALID_DTYPES = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                 dtypes.uint16, dtypes.string)


def _values(tensor, what):
  values = _host(tensor, what)
  return values.astype(object) if tensor.dtype is dtypes.string else values


def _group_shape(shape, op_name):
  if len(shape) < 2:
    raise invalid("Shape %s has rank %d < 2" % (dims_text(shape), len(shape)), op_name)
  return tuple(int(d) for d in shape[:-1])


def _sparse_groups(sp_input, validate_indices, op_name):
  """(shape, {group index tuple: values in index order}) of a SparseTensor of rank >= 2."""
  sp_input, indices, shape = _parts(sp_input, op_name)
  if len(shape) < 2:
    raise invalid("Invalid rank %d." % len(shape), op_name)
  if validate_indices:
    _validate(indices, shape, op_name)
  groups = {}
  for index, value in zip(indices.tolist(), _values(sp_input.values, op_name)):
    groups.setdefault(tuple(index[:-1]), []).append(value)
  return tuple(int(d) for d in shape), groups


def _dense_groups(tensor, op_name):
  array = _values(tensor, op_name)
  if array.ndim < 2:
    return array.shape, {}
  rows = array.reshape(-1, array.shape[-1])
  return array.shape, {index: list(row) for index, row in zip(np.ndindex(*array.shape[:-1]),
                                                                rows)}


# ---- tf.sets ----
@export("sets.set_size", "sets.size")
def set_size(a, validate_indices=True):
  """`tf.sets.set_size`: int32 counts of the unique values along the last dimension of the
  SparseTensor `a`."""
  a = convert_to_tensor_or_sparse_tensor(a)
  if not isinstance(a, SparseTensor):
    raise TypeError("Expected `SparseTensor`, got %s." % a)
  if a.values.dtype not in _VALID_DTYPES:
    raise TypeError("Invalid dtype %s." % a.values.dtype)
  shape, groups = _sparse_groups(a, validate_indices, "SetSize")
  sizes = np.zeros(shape[:-1], np.int32)
  for index, values in groups.items():
    sizes[index] = len(set(values))
  return ops.convert_to_tensor(sizes)


def _set_inputs(a, b):
  """TF's _convert_to_tensors_or_sparse_tensors: (a, b, flipped), dense first."""
  a = convert_to_tensor_or_sparse_tensor(a)
  if a.dtype not in _VALID_DTYPES:
    raise TypeError("'a' invalid dtype %s." % a.dtype)
  b = convert_to_tensor_or_sparse_tensor(b)
  if b.dtype != a.dtype:
    raise TypeError("Types don't match, %s vs %s." % (a.dtype, b.dtype))
  if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
    return b, a, True
  return a, b, False


_COMBINE = {
    "a-b": lambda x, y: x - y,
    "b-a": lambda x, y: y - x,
    "intersection": lambda x, y: x & y,
    "union": lambda x, y: x | y,
}


def _set_operation(a, b, operation, validate_indices):
  """The set `operation` on aligned groups of `a` and `b`, as a SparseTensor whose last
  dimension holds each result set in ascending order."""
  if isinstance(b, SparseTensor):
    op_name = "SparseToSparseSetOperation" if isinstance(a, SparseTensor) else \
        "DenseToSparseSetOperation"
  else:
    op_name = "DenseToDenseSetOperation"
  if isinstance(a, SparseTensor):
    a_shape, a_groups = _sparse_groups(a, validate_indices, op_name)
  else:
    a_shape, a_groups = _dense_groups(a, op_name)
  if isinstance(b, SparseTensor):
    b_shape, b_groups = _sparse_groups(b, validate_indices, op_name)
  else:
    b_shape, b_groups = _dense_groups(b, op_name)
  group_shape = _group_shape(a_shape, op_name)
  if _group_shape(b_shape, op_name) != group_shape:
    raise invalid("Mismatched shapes %s vs %s" % (dims_text(group_shape),
                                                  dims_text(b_shape[:-1])), op_name)
  combine = _COMBINE[operation]
  indices, values, width = [], [], 0
  for group in sorted(set(a_groups) | set(b_groups)):
    result = sorted(combine(set(a_groups.get(group, ())), set(b_groups.get(group, ()))))
    indices.extend(group + (i,) for i in range(len(result)))
    values.extend(result)
    width = max(width, len(result))
  np_dtype = object if a.dtype is dtypes.string else a.dtype.as_numpy_dtype
  return _sparse(np.array(indices, np.int64).reshape(-1, len(group_shape) + 1),
                 ops.convert_to_tensor(np.array(values, np_dtype), a.dtype),
                 group_shape + (width,))


@export("sets.set_intersection", "sets.intersection")
def set_intersection(a, b, validate_indices=True):
  """`tf.sets.set_intersection` of the sets along the last dimension of `a` and `b`."""
  a, b, _ = _set_inputs(a, b)
  return _set_operation(a, b, "intersection", validate_indices)


@export("sets.set_difference", "sets.difference")
def set_difference(a, b, aminusb=True, validate_indices=True):
  """`tf.sets.set_difference`: `a - b` (or `b - a`) along the last dimension."""
  a, b, flipped = _set_inputs(a, b)
  if flipped:
    aminusb = not aminusb
  return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


@export("sets.set_union", "sets.union")
def set_union(a, b, validate_indices=True):
  """`tf.sets.set_union` of the sets along the last dimension of `a` and `b`."""
  a, b, _ = _set_inputs(a, b)
  return _set_operation(a, b, "union", validate_indices)


# ---- tf.edit_distance ----
def _levenshtein(source, target):
  row = list(range(len(target) + 1))
  for i, s in enumerate(source, 1):
    previous, row[0] = row[0], i
    for j, t in enumerate(target, 1):
      previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (s != t))
  return row[-1]


def _sequences(sp_input, op_name):
  """(dense shape, [(group index, values)]): runs of entries sharing a group, in the given
  order (TF assumes sorted indices and merges these runs as they come)."""
  sp_input, indices, shape = _parts(sp_input, op_name)
  runs = []
  for index, value in zip(indices.tolist(), _values(sp_input.values, op_name)):
    if runs and runs[-1][0] == index[:-1]:
      runs[-1][1].append(value)
    else:
      runs.append((index[:-1], [value]))
  return shape, runs


def _distance(h_seq, t_seq, normalize):
  if not t_seq:  # len(h_seq) / 0 when normalized
    return np.float32(np.inf) if normalize else np.float32(len(h_seq))
  if not h_seq:
    return np.float32(1 if normalize else len(t_seq))
  distance = np.float32(_levenshtein(h_seq, t_seq))
  return distance / np.float32(len(t_seq)) if normalize else distance


@export("edit_distance")
def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
  """`tf.edit_distance`: float32 Levenshtein distances between the sequences (last
  dimension) of two SparseTensors; normalized by the truth's length (inf where the truth
  is empty and the hypothesis is not)."""
  if not isinstance(hypothesis, (SparseTensor, SparseTensorValue)):
    raise TypeError("Hypothesis must be a SparseTensor.")
  if not isinstance(truth, (SparseTensor, SparseTensorValue)):
    raise TypeError("Truth must be a SparseTensor.")
  hypothesis, truth = SparseTensor.from_value(hypothesis), SparseTensor.from_value(truth)
  if truth.values.dtype != hypothesis.values.dtype:
    raise invalid(mismatch_message("EditDistance", 4, hypothesis.values.dtype,
                                   truth.values.dtype), "EditDistance")
  h_shape, h_runs = _sequences(hypothesis, "EditDistance")
  t_shape, t_runs = _sequences(truth, "EditDistance")
  if len(t_shape) < 2:
    raise invalid("Input SparseTensors must have rank at least 2, but truth_shape rank is: %d"
                  % len(t_shape), "EditDistance")
  if len(t_shape) != len(h_shape):
    raise invalid("Expected truth and hypothesis to have matching ranks, but their shapes "
                  "are: [%d] and [%d]" % (len(t_shape), len(h_shape)), "EditDistance")
  out = np.zeros(np.maximum(h_shape, t_shape)[:-1], np.float32)
  h, t = 0, 0
  while h < len(h_runs) or t < len(t_runs):  # TF's merge of the two run lists
    h_group = h_runs[h][0] if h < len(h_runs) else None
    t_group = t_runs[t][0] if t < len(t_runs) else None
    if h_group == t_group:
      out[tuple(h_group)] = _distance(h_runs[h][1], t_runs[t][1], normalize)
      h, t = h + 1, t + 1
    elif t_group is None or (h_group is not None and t_group > h_group):
      out[tuple(h_group)] = _distance(h_runs[h][1], [], normalize)
      h += 1
    else:
      out[tuple(t_group)] = _distance([], t_runs[t][1], normalize)
      t += 1
  return ops.convert_to_tensor(out)
