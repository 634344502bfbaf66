"""SparseTensor elements in tf.data (`structure.SparseValue` leaves): batching them, and
`tf.data.experimental.dense_to_sparse_batch`."""
import numpy as np

from tfe_compat.framework import errors
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.data import dataset_ops
from tfe_compat.data import structure


def batch_sparse(values):
  """One SparseValue of rank N+1 from N-rank SparseValues, as TF batches SparseTensors:
  the row index before each index, each dimension the largest of the batch."""
  ranks = [len(v.dense_shape) for v in values]
  for i, rank in enumerate(ranks):
    if rank != ranks[0]:
      raise errors.invalid_argument(
          "Inconsistent shape across SparseTensors: rank prior to SparseTensor[%d] was: %d but "
          "rank of SparseTensor[%d] is: %d" % (i, ranks[0], i, rank))
  indices = [np.concatenate([np.full((len(v.indices), 1), b, np.int64), v.indices], axis=1)
             for b, v in enumerate(values)]
  shape = np.max([v.dense_shape for v in values], axis=0) if ranks[0] else np.zeros(
      0, np.int64)
  return structure.SparseValue(np.concatenate(indices), np.concatenate([v.values for v in values]),
                               np.concatenate([[len(values)], shape]).astype(np.int64))


def _dims_text(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


class _DenseToSparseBatch(dataset_ops.Dataset):
  def __init__(self, dataset, batch_size, row_shape):
    spec = dataset.element_spec
    if not isinstance(spec, structure.TensorSpec):
      raise TypeError("`dense_to_sparse_batch` requires an input whose elements have a single "
                      "component, but the given dataset has %s." % (spec,))
    self._input, self._batch_size = dataset, batch_size
    self._row_shape = tensor_shape.TensorShape(row_shape)
    self._spec = structure.SparseTensorSpec(
        tensor_shape.TensorShape([None]).concatenate(self._row_shape), spec.dtype)

  def _cardinality(self):
    n = self._input._cardinality()
    if n < 0:
      return n
    return -(-n // self._batch_size)

  def _make_iter(self):
    from tfe_compat.data import transformations
    for batch in transformations._batches(self._input._make_iter(), self._batch_size):
      if type(batch) is structure.Failure:
        yield batch
        continue
      try:
        yield self._sparse(batch)
      except errors.OpError as error:
        yield structure.Failure(error)

  def _sparse(self, batch):
    row = self._row_shape.as_list()
    arrays = [np.asarray(e) for e in batch]
    for a in arrays:
      if a.ndim != len(row):
        raise errors.invalid_argument(
            "Input element had shape (%s) that is incompatible with the row shape (%s)."
            % (_dims_text(a.shape), _dims_text(-1 if d is None else d for d in row)))
      if any(d is not None and s > d for s, d in zip(a.shape, row)):
        raise errors.DataLossError(None, None, "Input element had shape (%s) that is larger "
                                   "than the row shape (%s)." % (_dims_text(a.shape),
                                                                 _dims_text(row)))
    dims = [d if d is not None else max(a.shape[i] for a in arrays) for i, d in enumerate(row)]
    indices = [np.concatenate([np.full((a.size, 1), b, np.int64),
                               np.argwhere(np.ones(a.shape, bool)).astype(np.int64)], axis=1)
               for b, a in enumerate(arrays)]
    return structure.SparseValue(np.concatenate(indices),
                                 np.concatenate([a.ravel() for a in arrays]),
                                 np.array([len(arrays)] + dims, np.int64))


@export("data.experimental.dense_to_sparse_batch", "contrib.data.dense_to_sparse_batch")
def dense_to_sparse_batch(batch_size, row_shape):
  """Batches elements of varying shape into SparseTensors of dense shape
  `[batch_size] + row_shape` (unknown row dimensions: the largest in the batch)."""
  return lambda dataset: _DenseToSparseBatch(dataset, dataset_ops._int(batch_size), row_shape)
