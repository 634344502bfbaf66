"""`tf.ragged.RaggedTensorValue`: a ragged tensor of NumPy arrays (TF's session-run value)."""
import numpy as np

from tfe_compat.framework.api import export


@export("ragged.RaggedTensorValue")
class RaggedTensorValue:
  """NumPy `values` (or a RaggedTensorValue) partitioned into rows by NumPy `row_splits`."""

  def __init__(self, values, row_splits):
    if not (isinstance(row_splits, (np.ndarray, np.generic))
            and row_splits.dtype in (np.int64, np.int32) and row_splits.ndim == 1):
      raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
    if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
      raise TypeError("values must be a numpy array or a RaggedTensorValue")
    if isinstance(values, RaggedTensorValue) and row_splits.dtype != values.row_splits.dtype:
      raise ValueError("row_splits and values.row_splits must have the same dtype")
    self._values = values
    self._row_splits = row_splits

  row_splits = property(lambda self: self._row_splits)
  values = property(lambda self: self._values)
  dtype = property(lambda self: self._values.dtype)

  @property
  def flat_values(self):
    values = self._values
    while isinstance(values, RaggedTensorValue):
      values = values.values
    return values

  @property
  def nested_row_splits(self):
    splits, rt = [self._row_splits], self._values
    while isinstance(rt, RaggedTensorValue):
      splits.append(rt.row_splits)
      rt = rt.values
    return tuple(splits)

  @property
  def ragged_rank(self):
    values = self._values
    return values.ragged_rank + 1 if isinstance(values, RaggedTensorValue) else 1

  @property
  def shape(self):
    """A tuple: (nrows, None for the ragged dimension, the values' inner shape)."""
    return (self._row_splits.shape[0] - 1,) + (None,) + self._values.shape[1:]

  def to_list(self):
    values = self._values
    items = values.to_list() if isinstance(values, RaggedTensorValue) else values.tolist()
    splits = self._row_splits
    return [items[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

  def __str__(self):
    return "<tf.RaggedTensorValue %s>" % self.to_list()

  def __repr__(self):
    return "tf.RaggedTensorValue(values=%r, row_splits=%r)" % (self._values, self._row_splits)
