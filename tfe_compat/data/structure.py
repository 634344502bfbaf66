"""Element structures of tf.data: nests of NumPy leaves, `tf.TensorSpec`, Tensor conversion.

Inside a pipeline an element is a nest (tuple, namedtuple, dict; lists are leaves, as in
tf.data) of NumPy arrays (object arrays of bytes for strings), of the device arrays a user
function returned (left where they are until something needs them on the host, such as
`batch`), or nested Datasets (`window`). Elements become Tensors only when they leave the
pipeline or enter a user function.
"""
import jax
import numpy as np

from tfe_compat import nest
from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.string_ops import SparseTensorValue
from tfe_compat.data.type_specs import SparseTensorSpec, TypeSpec


@export("TensorSpec")
class TensorSpec(TypeSpec):
  """`tf.TensorSpec(shape, dtype=tf.float32, name=None)`: the type of one Tensor."""

  __slots__ = ("_shape", "_dtype", "_name")

  def __init__(self, shape, dtype=dtypes.float32, name=None):
    self._shape = tensor_shape.TensorShape(shape)
    self._dtype = dtypes.as_dtype(dtype)
    self._name = name

  shape = property(lambda self: self._shape)
  dtype = property(lambda self: self._dtype)
  name = property(lambda self: self._name)
  value_type = property(lambda self: Tensor)

  @classmethod
  def from_tensor(cls, tensor, name=None):
    return cls(tensor.shape, tensor.dtype, name)

  def is_compatible_with(self, spec_or_tensor):
    return (self._dtype is spec_or_tensor.dtype
            and self._shape.is_compatible_with(spec_or_tensor.shape))

  def _serialize(self):
    return (self._shape, self._dtype, self._name)

  def _key(self):
    dims = self._shape.dims
    return None if dims is None else tuple(d.value for d in dims)

  def __eq__(self, other):
    return (type(other) is type(self) and self._dtype is other.dtype
            and self._key() == other._key() and self._name == other.name)

  def __ne__(self, other):
    return not self == other

  def __hash__(self):
    return hash((self._key(), self._dtype.name, self._name))

  def __repr__(self):
    shape = "<unknown>" if self._key() is None else repr(self._key())
    return "TensorSpec(shape=%s, dtype=tf.%s, name=%r)" % (shape, self._dtype.name, self._name)


# ---- nests (tf.nest's traversal; lists are leaves here, as in tf.data) ----
def is_structure(value):
  return isinstance(value, (tuple, dict)) and not isinstance(value, SparseTensorValue)


def flatten(value):
  """The leaves of a nest, dict values in sorted-key order (as tf.nest does)."""
  return nest._flatten(value, is_structure, [])


def pack_as(structure, leaves):
  """Rebuilds `structure` with the leaves in `leaves` (an iterable)."""
  if not isinstance(leaves, (list, tuple)):
    leaves = list(leaves)
  if not is_structure(structure):
    return leaves[0]
  return nest._sequence_like(structure, nest._pack(structure, leaves, 0, is_structure)[1])


def flatten_up_to(shallow, value):
  """The parts of `value` at the leaves of `shallow`: deeper nests in `value` stay whole (as
  tf.data's `nest.flatten_up_to`); TypeError/ValueError where `value` lacks that structure."""
  if not is_structure(shallow):
    return [value]
  if not is_structure(value) or isinstance(shallow, dict) != isinstance(value, dict):
    raise TypeError("expected a %s, got %r" % (type(shallow).__name__, value))
  if isinstance(shallow, dict):
    if sorted(shallow) != sorted(value):
      raise ValueError("the keys %s differ from %s" % (sorted(value), sorted(shallow)))
    pairs = [(shallow[key], value[key]) for key in sorted(shallow)]
  else:
    if len(shallow) != len(value):
      raise ValueError("%d elements where %d were expected" % (len(value), len(shallow)))
    pairs = zip(shallow, value)
  return [leaf for part, item in pairs for leaf in flatten_up_to(part, item)]


def map_structure(fn, *structures):
  flats = [flatten(s) for s in structures]
  if any(len(f) != len(flats[0]) for f in flats):
    raise ValueError("The two structures don't have the same number of elements. First "
                     "structure: %s, second structure: %s." % (structures[0], structures[1]))
  return pack_as(structures[0], [fn(*leaves) for leaves in zip(*flats)])


def normalize_types(value):
  """Lists of dtypes/shapes given as `output_types`/`output_shapes` become tuples."""
  if isinstance(value, list) and not all(isinstance(v, (int, type(None))) for v in value):
    return tuple(normalize_types(v) for v in value)
  if isinstance(value, tuple) and not hasattr(value, "_fields"):
    return tuple(normalize_types(v) for v in value)
  if isinstance(value, dict):
    return {k: normalize_types(v) for k, v in value.items()}
  return value


# ---- leaves ----
def to_numpy(value, dtype=None):
  """One leaf as a NumPy array with TF's dtype rules (Python int -> int32, str -> bytes)."""
  if isinstance(value, Tensor):
    array = np.asarray(value._value)
    if dtype is not None and dtypes.from_numpy(array.dtype) is not dtype:
      raise TypeError("Tensor of dtype %s where %s was expected" % (value.dtype.name, dtype.name))
    return array
  if hasattr(value, "_as_tensor"):  # variables
    return to_numpy(value._as_tensor(dtype))
  if _is_dataset(value):
    return value
  if type(value) is SparseValue:
    return value
  if type(value).__name__ in ("SparseTensor", "SparseTensorValue"):
    return SparseValue(*[np.asarray(getattr(v, "_value", v)) for v in
                         (value.indices, value.values, value.dense_shape)])
  if value is None:
    raise ValueError("None values not supported.")
  if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
    value = [to_numpy(v) for v in value]
  return ops._to_numpy(value, dtype)


def element_to_numpy(element):
  """A user-given element (nest of Tensors / arrays / Python values) as a NumPy nest."""
  return map_structure(to_numpy, element)


def _is_dataset(value):
  return hasattr(value, "_make_iter") and hasattr(value, "element_spec")


def spec_of(leaf):
  if _is_dataset(leaf):
    return DatasetSpec(leaf.element_spec)
  if type(leaf) is SparseValue:
    return SparseTensorSpec(leaf.dense_shape.tolist(), dtypes.from_numpy(leaf.values.dtype))
  dtype = leaf.dtype if hasattr(leaf, "dtype") else np.asarray(leaf).dtype
  return TensorSpec(np.shape(leaf), dtypes.from_numpy(dtype))


@export("data.DatasetSpec", "data.experimental.DatasetStructure")
class DatasetSpec(TypeSpec):
  """`tf.data.DatasetSpec`: the type of a dataset-valued element (from `window`)."""

  __slots__ = ("_element_spec", "_shape")

  def __init__(self, element_spec, dataset_shape=()):
    self._element_spec = element_spec
    self._shape = tensor_shape.TensorShape(dataset_shape)

  element_spec = property(lambda self: self._element_spec)
  shape = property(lambda self: self._shape)

  @property
  def value_type(self):
    from tfe_compat.data.dataset_ops import Dataset
    return Dataset

  def _serialize(self):
    return (self._element_spec, self._shape)

  def __hash__(self):
    return hash(repr(self))


class SparseValue:
  """A SparseTensor inside a pipeline (one leaf): NumPy indices, values and dense_shape."""

  __slots__ = ("indices", "values", "dense_shape")

  def __init__(self, indices, values, dense_shape):
    self.indices = np.asarray(indices, np.int64).reshape(-1, np.size(dense_shape))
    self.values, self.dense_shape = np.asarray(values), np.asarray(dense_shape, np.int64)

  ndim = property(lambda self: len(self.dense_shape))
  shape = property(lambda self: tuple(self.dense_shape.tolist()))

  def __getitem__(self, key):
    """Row `key[0]` (as `unbatch` takes it: `leaf[i, ...]`)."""
    keep = self.indices[:, 0] == (key[0] if isinstance(key, tuple) else key)
    return SparseValue(self.indices[keep, 1:], self.values[keep], self.dense_shape[1:])

  def __getstate__(self):
    return self.indices, self.values, self.dense_shape

  def __setstate__(self, state):
    self.indices, self.values, self.dense_shape = state


def has_sparse(element):
  return any(type(leaf) is SparseValue for leaf in flatten(element))


def _sparse_tensor(leaf, device):
  from tfe_compat.ops.string_ops import SparseTensor
  values = leaf.values if leaf.values.dtype == object else device_lib.put(leaf.values, device)
  return SparseTensor(Tensor(device_lib.put(leaf.indices, device)), Tensor(values),
                      Tensor(device_lib.put(leaf.dense_shape, device)))


def _host_device():
  return context.current_device() or jax.devices()[0]


def element_to_tensors(element, device=None):
  """A NumPy nest as Tensors: numeric leaves moved to `device` (default: the current one),
  strings as object-array Tensors, datasets unchanged."""
  device = device or _host_device()
  out = []
  for leaf in flatten(element):
    if isinstance(leaf, jax.Array):
      leaf = Tensor(leaf if leaf.devices() == {device} else jax.device_put(leaf, device))
    elif type(leaf) is SparseValue:
      leaf = _sparse_tensor(leaf, device)
    elif not _is_dataset(leaf):
      leaf = np.asarray(leaf)
      leaf = Tensor(leaf if leaf.dtype == object else device_lib.put(leaf, device))
    out.append(leaf)
  return pack_as(element, out)


def element_to_host(element):
  """The element with its device arrays read into NumPy arrays."""
  return map_structure(lambda x: np.asarray(x) if isinstance(x, jax.Array) else x, element)


def _result_leaf(value):
  """A user function's output leaf: a Tensor's device array as it is, else NumPy."""
  if isinstance(value, Tensor) and isinstance(value._value, jax.Array):
    return value._value
  return to_numpy(value)


class Failure:
  """Stands in a pipeline for an element whose computation raised `error`: iterators raise
  it at that position and go on after it, as TF's do; `ignore_errors()` drops it."""

  __slots__ = ("error",)

  def __init__(self, error):
    self.error = error


def checked(element):
  """The element; a Failure's error is raised."""
  if type(element) is Failure:
    raise element.error
  return element


def call_or_failure(fn, element):
  """`call_on_host(fn, element)`, or the Failure of the error it raised."""
  try:
    return call_on_host(fn, element)
  except Exception as exc:  # pylint: disable=broad-except
    return Failure(exc)


_ON_CPU = None


def call_on_host(fn, element):
  """Calls a user function on an element as TF does (a plain tuple is unpacked into
  arguments), with Tensors on the host CPU and no tape recording; returns an element (device
  arrays as computed, other leaves as NumPy) or the Dataset the function returned."""
  global _ON_CPU
  if _ON_CPU is None:
    _ON_CPU = jax.default_backend() == "cpu"
  ctx = context.ctx
  ctx.recording_paused += 1
  try:
    if _ON_CPU:
      return _call(fn, element, None)
    with device_lib.device("/cpu:0"):
      return _call(fn, element, device_lib.cpu_device())
  finally:
    ctx.recording_paused -= 1


def _call(fn, element, device):
  if has_sparse(element):  # SparseTensor arguments: the Python function, eagerly
    fn = getattr(fn, "python_function", fn)
  call_on_arrays = getattr(fn, "call_on_arrays", None)  # a DatasetFunction's compiled call
  result = None if call_on_arrays is None else call_on_arrays(element)
  if result is None:
    args = element_to_tensors(element, device)
    result = fn(*args) if type(args) is tuple else fn(args)
  if _is_dataset(result):
    return result
  if isinstance(result, list):
    result = tuple(result)
  return map_structure(_result_leaf, result)
