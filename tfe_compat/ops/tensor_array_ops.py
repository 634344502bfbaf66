"""`tf.TensorArray`, as TF runs it eagerly: a list of Tensors with TF's checks and errors.

Writes change the array and return it (TF returns a new handle on the same storage). Unwritten
elements read as zeros of the element shape, which the first write fixes unless
`infer_shape=False`. As a compiled `tf.while_loop` variable an array travels as one stacked
buffer (`loop_value`/`with_buffer`): its size is fixed and its element shape must be known
when the loop starts; reads and writes at traced indices work on the buffer.
"""
import jax
import numpy as np
from jax import lax

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import slicing


@ops.op(name="TensorArrayReadV3")
def _read_at(buffer, index):
  return lax.dynamic_index_in_dim(buffer, index, 0, keepdims=False)


@ops.op(name="TensorArrayWriteV3", differentiable=(0, 2))
def _write_at(buffer, index, value):
  return lax.dynamic_update_index_in_dim(buffer, value.astype(buffer.dtype), index, 0)


@ops.op(name="TensorArrayScatterV3", differentiable=(0, 2))
def _scatter_at(buffer, indices, values):
  return buffer.at[indices].set(values.astype(buffer.dtype))


def _out_of_range(message):
  return errors.OutOfRangeError(None, None, message)


@export("TensorArray")
class TensorArray:
  """A list of Tensors of one dtype, written and read by index (see the module docstring)."""

  def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
               tensor_array_name=None, handle=None, flow=None, infer_shape=True,
               element_shape=None, colocate_with_first_write_call=True, name=None):
    self._dtype = dtypes.as_dtype(dtype)
    self._dynamic_size = bool(dynamic_size)
    self._infer_shape = infer_shape
    self._element_shape = tensor_shape.TensorShape(element_shape)
    if size is None:
      raise ValueError("Size must be provided if handle is not provided")
    size = ops.convert_to_tensor(size)
    if isinstance(size._value, jax.core.Tracer):
      raise ValueError("A TensorArray's size must be known when tracing (it is a traced "
                       "Tensor here): pass a Python int.")
    self._elements = [None] * int(size._value)
    self._buffer = None  # a Tensor [size, *element_shape] inside compiled loops
    self._probing = False  # see probe()

  dtype = property(lambda self: self._dtype)
  dynamic_size = property(lambda self: self._dynamic_size)
  element_shape = property(lambda self: self._element_shape)
  handle = property(lambda self: None)
  flow = property(lambda self: None)

  def __repr__(self):
    return "<tf.TensorArray dtype=%s size=%d element_shape=%s>" % (
        self._dtype.name, self._size(), self._element_shape)

  # ---- size and element shape ----
  def _size(self):
    return len(self._elements) if self._buffer is None else self._buffer._value.shape[0]

  def size(self, name=None):
    return ops.convert_to_tensor(self._size(), dtypes.int32)

  def _checked(self, value):
    """`value` as a Tensor of this array's dtype, its shape checked against the elements'."""
    value = ops.convert_to_tensor(value, preferred_dtype=self._dtype)
    if value.dtype is not self._dtype:
      raise errors.invalid_argument("TensorArray dtype is %s but Op is trying to write dtype "
                                    "%s " % (self._dtype.name, value.dtype.name))
    if self._infer_shape:
      if not self._element_shape.is_compatible_with(value.shape):
        raise ValueError("Incompatible shape for value (%s), expected (%s)"
                         % (value.shape, self._element_shape))
      self._element_shape = self._element_shape.merge_with(value.shape)
    return value

  def _zeros(self):
    if not self._element_shape.is_fully_defined():
      raise errors.invalid_argument(
          "TensorArray has an element that was never written and no fully defined element "
          "shape to fill it with zeros (element_shape: %s)" % self._element_shape)
    return array_ops.zeros(self._element_shape.as_list(), self._dtype)

  # ---- index checks ----
  def _index(self, index, what):
    """The concrete int index, checked as TF checks it (None for a traced index)."""
    index = ops.convert_to_tensor(index)
    if isinstance(index._value, jax.core.Tracer):
      return None
    index = int(index._value)
    if index < 0:
      raise _out_of_range("%s negative indices (index %d) is not allowed." % (
          "Writing to" if what == "write" else "Reading from", index))
    return index

  # ---- writing ----
  def write(self, index, value, name=None):
    """Sets element `index` to `value`; returns this array."""
    value = self._checked(value)
    at = self._index(index, "write")
    if self._probing:
      return self
    if self._buffer is None and at is None:
      self._to_buffer()
    if self._buffer is not None:
      self._buffer = _write_at(self._buffer, ops.convert_to_tensor(index, dtypes.int32), value)
      return self
    if at >= len(self._elements):
      if not self._dynamic_size:
        raise _out_of_range("Tried to write to index %d but array is not resizeable and size "
                            "is: %d " % (at, len(self._elements)))
      self._elements.extend([None] * (at + 1 - len(self._elements)))
    self._elements[at] = value
    return self

  def unstack(self, value, name=None):
    """Writes the rows of `value` to elements 0, 1, ...; returns this array."""
    value = ops.convert_to_tensor(value, preferred_dtype=self._dtype)
    if self._buffer is not None:
      self._checked(value[0])  # TF's dtype and shape checks
      self._buffer = value
      return self
    return self.scatter(np.arange(value._value.shape[0]), value)

  def scatter(self, indices, value, name=None):
    """Writes the rows of `value` to the elements `indices`; returns this array."""
    value = ops.convert_to_tensor(value, preferred_dtype=self._dtype)
    if self._buffer is not None:
      self._checked(value[0])
      self._buffer = _scatter_at(self._buffer, ops.convert_to_tensor(indices, dtypes.int32),
                                 value)
      return self
    for i, row in zip(np.asarray(ops.convert_to_tensor(indices)._value).tolist(),
                      array_ops.unstack(value) if value._value.shape[0] else []):
      self.write(i, row)
    return self

  def split(self, value, lengths, name=None):
    """Writes consecutive pieces of `value` (along axis 0) of the given `lengths`."""
    value = ops.convert_to_tensor(value, preferred_dtype=self._dtype)
    lengths = [int(n) for n in np.asarray(ops.convert_to_tensor(lengths)._value).tolist()]
    if sum(lengths) != value._value.shape[0]:
      raise errors.invalid_argument("Expected sum of lengths to be equal to values.shape[0], "
                                    "but sum of lengths is %d and value's shape is: %s "
                                    % (sum(lengths), value.shape))
    starts = np.cumsum([0] + lengths[:-1]).tolist()
    for i, (start, n) in enumerate(zip(starts, lengths)):
      self.write(i, value[start:start + n])
    return self

  # ---- reading ----
  def read(self, index, name=None):
    """Element `index` (zeros if never written)."""
    at = self._index(index, "read")
    if self._probing:
      return self._zeros()
    if self._buffer is not None or at is None:
      self._to_buffer()
      return _read_at(self._buffer, ops.convert_to_tensor(index, dtypes.int32))
    if at >= len(self._elements):
      raise _out_of_range("Tried to read from index %d but array size is: %d " % (
          at, len(self._elements)))
    element = self._elements[at]
    return self._zeros() if element is None else element

  def stack(self, name=None):
    """All elements stacked along a new axis 0."""
    if self._buffer is not None:
      return self._buffer
    if not self._elements:
      dims = self._element_shape.as_list() if self._element_shape.dims is not None else []
      return array_ops.zeros([0] + [d or 0 for d in dims], self._dtype)
    return array_ops.stack([self._zeros() if e is None else e for e in self._elements])

  def gather(self, indices, name=None):
    """The elements `indices`, stacked."""
    return slicing.gather(self.stack(), indices)

  def concat(self, name=None):
    """All elements concatenated along axis 0."""
    if self._buffer is not None:
      shape = self._buffer._value.shape
      return array_ops.reshape(self._buffer, (shape[0] * shape[1],) + shape[2:])
    return array_ops.concat([self._zeros() if e is None else e for e in self._elements], 0)

  def identity(self):
    return self

  def close(self, name=None):
    return None

  # ---- compiled loops ----
  def _to_buffer(self):
    """Switches to one stacked buffer (what a traced index needs)."""
    if self._buffer is None:
      if self._dynamic_size:
        raise NotImplementedError(
            "A TensorArray with dynamic_size=True cannot be used with a traced index (inside a "
            "compiled tf.while_loop its size would change); give it a fixed size, or run the "
            "loop eagerly.")
      if not self._element_shape.is_fully_defined():
        raise ValueError(
            "A TensorArray used with a traced index (a compiled tf.while_loop variable) needs "
            "its element shape when the loop starts: pass element_shape=, or write an element "
            "before the loop (element shape so far: %s)." % self._element_shape)
      self._buffer = self.stack()
      self._elements = None

  def probe(self):
    """A copy whose writes only note the element shape (for a compiled loop to infer it
    from one abstract run of its body, as TF infers it from the first write)."""
    out = TensorArray.__new__(TensorArray)
    out.__dict__.update(self.__dict__)
    out._elements, out._probing = list(self._elements), True
    return out

  def loop_value(self):
    """The stacked buffer this array travels as through a compiled loop."""
    self._to_buffer()
    return self._buffer

  def with_buffer(self, buffer):
    """A TensorArray like this one holding the stacked `buffer`."""
    out = TensorArray.__new__(TensorArray)
    out.__dict__.update(self.__dict__)
    out._elements, out._buffer = None, buffer if isinstance(buffer, Tensor) else Tensor(buffer)
    return out

