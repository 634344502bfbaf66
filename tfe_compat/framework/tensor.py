"""`tf.Tensor`: an immutable wrapper around one `jax.Array` (or a JAX tracer).

Operators, slicing and `cpu()`/`gpu()` are installed by the op modules (as TF's math_ops
does), so this module depends on nothing above it.
"""
import itertools
import weakref

import jax
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export

_uids = itertools.count(1)


def _one_element(value):
  """int()/float() accept any one-element tensor, as TF 1.x did with the NumPy 1.x of its time."""
  array = np.asarray(value)
  if array.size != 1:
    raise TypeError("only size-1 arrays can be converted to Python scalars")
  return array.reshape(())


class Tensor:
  """A multi-dimensional array with a TF dtype; `_id` is a unique, increasing integer."""

  __slots__ = ("_value", "_id", "__weakref__")
  __array_priority__ = 100  # NumPy binary operators defer to the Tensor's

  def __init__(self, value):
    self._value = value
    self._id = next(_uids)

  # ---- Properties ----
  @property
  def dtype(self):
    return dtypes.from_numpy(self._value.dtype)

  @property
  def shape(self):
    return tensor_shape.TensorShape(self._value.shape)

  def get_shape(self):
    return self.shape

  @property
  def ndim(self):
    return self._value.ndim

  @property
  def device(self):
    value = self._value
    if isinstance(value, jax.Array) and not isinstance(value, jax.core.Tracer):
      return device_lib.tf_name(next(iter(value.devices())))
    return device_lib.tf_name(device_lib.cpu_device())

  backing_device = device

  def _shape_tuple(self):
    return tuple(self._value.shape)

  def _rank(self):
    return self._value.ndim

  def set_shape(self, shape):
    if not self.shape.is_compatible_with(shape):
      raise ValueError("Tensor's shape %s is not compatible with supplied shape %s"
                       % (self.shape, tensor_shape.as_shape(shape)))

  def numpy(self):
    """The value as a NumPy array (a NumPy scalar, or bytes, for rank 0)."""
    if context.symbolic_to_caller():
      raise AttributeError("'Tensor' object has no attribute 'numpy'")
    value = np.array(self._value)
    return value[()] if value.ndim == 0 else value

  # ---- Graph-only API, as TF's EagerTensor reports it ----
  @property
  def name(self):
    raise AttributeError("Tensor.name is meaningless when eager execution is enabled.")

  @property
  def op(self):
    raise AttributeError("Tensor.op is meaningless when eager execution is enabled.")

  @property
  def graph(self):
    raise AttributeError("Tensor.graph is meaningless when eager execution is enabled.")

  def eval(self, feed_dict=None, session=None):
    raise NotImplementedError("eval is not supported when eager execution is enabled, "
                              "is .numpy() what you're looking for?")

  # ---- Python protocols ----
  def __jax_array__(self):
    """jax.numpy functions take a Tensor as the array it wraps (see interop.py for jit)."""
    return self._value

  def __array__(self, dtype=None, copy=None):
    value = np.asarray(self._value)
    return value if dtype is None else value.astype(dtype, copy=False)

  def __bool__(self):
    return bool(np.asarray(self._value))

  def __int__(self):
    return int(_one_element(self._value))

  def __float__(self):
    return float(_one_element(self._value))

  def __complex__(self):
    return complex(np.asarray(self._value))

  def __index__(self):
    value = np.asarray(self._value)  # as TF: a float scalar's AttributeError (no __index__)
    return (value[()] if value.ndim == 0 else value).__index__()

  def __len__(self):
    if not self._value.shape:
      raise TypeError("Scalar tensor has no `len()`")
    return self._value.shape[0]

  def __iter__(self):
    if not self._value.shape:
      raise TypeError("Cannot iterate over a scalar tensor.")
    return (self[i] for i in range(self._value.shape[0]))

  def __format__(self, format_spec):
    return self.numpy().__format__(format_spec)

  def __str__(self):
    return "tf.Tensor(%s, shape=%s, dtype=%s)" % (_numpy_text(self), self.shape, self.dtype.name)

  def __repr__(self):
    return "<tf.Tensor: id=%s, shape=%s, dtype=%s, numpy=%s>" % (
        self._id, self.shape, self.dtype.name, _numpy_text(self, is_repr=True))

  # TF 1.x: tensors are hashable and `==` compares identity; tf.equal is elementwise.
  # `tf.enable_tensor_equality()` swaps in elementwise `==` (see the end of the module).
  def __eq__(self, other):
    return self is other

  def __ne__(self, other):
    return self is not other

  def __hash__(self):
    return id(self)

  def experimental_ref(self):
    """A hashable reference to this tensor (a dict key even with tensor equality on)."""
    return Reference(self)

  def __copy__(self):
    return self

  def __deepcopy__(self, memo):
    return self

  def __reduce__(self):
    return _rebuild, (np.asarray(self._value),)


def _rebuild(value):
  return Tensor(value if value.dtype == object else jax.numpy.asarray(value))


_LEGACY_PRINT = {"legacy": "1.25"} if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else {}


def _numpy_text(tensor, is_repr=False):
  if isinstance(tensor._value, jax.core.Tracer):
    return "<traced>"
  value = tensor.numpy()
  with np.printoptions(**_LEGACY_PRINT):  # NumPy 2 would print scalars as np.float32(1.0)
    text = repr(value) if is_repr else str(value)
  return "\n" + text if "\n" in text else text


class Reference:
  """What `experimental_ref()` returns: hashable, compares the wrapped object by identity."""

  def __init__(self, wrapped):
    self._wrapped = wrapped

  def deref(self):
    return self._wrapped

  def __eq__(self, other):
    return isinstance(other, Reference) and self._wrapped is other._wrapped

  def __hash__(self):
    return id(self._wrapped)

  def __repr__(self):
    return "<Reference wrapping %r>" % (self._wrapped,)


class WeakIdentityMap:
  """{Tensor: value} by identity, an entry dropped with its tensor: a WeakKeyDictionary that
  still works when tensor equality makes tensors unhashable."""

  def __init__(self):
    self._data = {}  # id(key) -> (weak reference to key, value)

  def __setitem__(self, key, value):
    key_id = id(key)
    self._data[key_id] = (weakref.ref(key, lambda _: self._data.pop(key_id, None)), value)

  def get(self, key, default=None):
    entry = self._data.get(id(key))
    return entry[1] if entry is not None and entry[0]() is key else default

  def __contains__(self, key):
    entry = self._data.get(id(key))
    return entry is not None and entry[0]() is key

  def __len__(self):
    return len(self._data)


# ---- `tf.enable_tensor_equality()`: TF 2's elementwise `==` and unhashable tensors ----
# The identity methods above stay on the classes (no cost) until equality is enabled; then
# the elementwise ones, registered by the modules that define them, replace them.
_equality_methods = []  # (class, {name: identity method}, {name: elementwise method})
_equality = False


def register_equality(cls, methods):
  """While tensor equality is on, `methods` ({"__eq__": ..., "__ne__": ..., "__hash__":
  ...}) replace `cls`'s own."""
  _equality_methods.append((cls, {name: cls.__dict__[name] for name in methods}, methods))
  if _equality:
    _set_equality(True)


def _set_equality(enabled):
  global _equality  # pylint: disable=global-statement
  _equality = enabled
  for cls, identity, elementwise in _equality_methods:
    for name, method in (elementwise if enabled else identity).items():
      setattr(cls, name, method)


@export("enable_tensor_equality")
def enable_tensor_equality():
  """`==` / `!=` on Tensors and Variables compare elementwise; they become unhashable."""
  _set_equality(True)


@export("disable_tensor_equality")
def disable_tensor_equality():
  """Back to TF 1.x: `==` compares identity and Tensors hash by identity."""
  _set_equality(False)


def tensor_equality_enabled():
  return _equality


def unhashable(self):
  raise TypeError("Tensor is unhashable if Tensor equality is enabled. Instead, use "
                  "tensor.experimental_ref() as the key.")


class QuantizedTensor(Tensor):
  """A Tensor of a quantized dtype (`tf.qint8`, ...); its value is the integer array of the
  same width."""

  __slots__ = ("_dtype",)

  def __init__(self, value, dtype):
    super().__init__(value)
    self._dtype = dtype

  dtype = property(lambda self: self._dtype)

