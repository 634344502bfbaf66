"""TF 1.x `Dimension` and `TensorShape`: shapes whose entries may be unknown (None).

After `tf.enable_v2_tensorshape()` a shape's entries read as ints or None (TF 2's
TensorShape) instead of `Dimension`s; `dims` keeps the Dimensions, as in TF 1.15.
"""
import functools
import operator

from tfe_compat.framework.api import export

_v2_behavior = False


@export("enable_v2_tensorshape")
def enable_v2_tensorshape():
  """Entries of TensorShapes read as ints or None (`shape[0]`, iteration)."""
  global _v2_behavior  # pylint: disable=global-statement
  _v2_behavior = True


@export("disable_v2_tensorshape")
def disable_v2_tensorshape():
  """Entries of TensorShapes read as `Dimension`s again (TF 1.x)."""
  global _v2_behavior  # pylint: disable=global-statement
  _v2_behavior = False


class Dimension:
  """One dimension of a shape: an int, or unknown (`value is None`)."""

  __slots__ = ("_value",)

  def __init__(self, value):
    if isinstance(value, Dimension):
      value = value.value
    if value is not None:
      try:
        value = operator.index(value)
      except TypeError:
        raise TypeError("Dimension value must be integer or None or have an __index__ "
                        "method, got value '{0!r}' with type '{1!r}'".format(value, type(value)))
      if value < 0:
        raise ValueError("Dimension %d must be >= 0" % value)
    self._value = value

  value = property(lambda self: self._value)

  def __repr__(self):
    return "Dimension(%r)" % (self._value,)

  def __str__(self):
    return "?" if self._value is None else str(self._value)

  def __int__(self):
    return self._value

  def __index__(self):
    return self._value

  def __bool__(self):
    return bool(self._value)

  def __hash__(self):
    return hash(self._value)

  def is_compatible_with(self, other):
    other = as_dimension(other)
    return self._value is None or other.value is None or self._value == other.value

  def assert_is_compatible_with(self, other):
    if not self.is_compatible_with(other):
      raise ValueError("Dimensions %s and %s are not compatible" % (self, other))

  def merge_with(self, other):
    other = as_dimension(other)
    self.assert_is_compatible_with(other)
    return Dimension(self._value if self._value is not None else other.value)

  def _binary(self, other, fn, reverse=False):
    try:
      other = as_dimension(other)
    except (TypeError, ValueError):
      return NotImplemented
    if self._value is None or other.value is None:
      return Dimension(None)
    a, b = (other.value, self._value) if reverse else (self._value, other.value)
    return Dimension(fn(a, b))

  def _compare(self, other, fn):
    try:
      other = as_dimension(other)
    except (TypeError, ValueError):
      return NotImplemented
    if self._value is None or other.value is None:
      return None
    return fn(self._value, other.value)

  __add__ = lambda self, o: self._binary(o, operator.add)
  __radd__ = lambda self, o: self._binary(o, operator.add, True)
  __sub__ = lambda self, o: self._binary(o, operator.sub)
  __rsub__ = lambda self, o: self._binary(o, operator.sub, True)
  __mul__ = lambda self, o: self._binary(o, operator.mul)
  __rmul__ = lambda self, o: self._binary(o, operator.mul, True)
  __floordiv__ = lambda self, o: self._binary(o, operator.floordiv)
  __rfloordiv__ = lambda self, o: self._binary(o, operator.floordiv, True)
  __mod__ = lambda self, o: self._binary(o, operator.mod)
  __rmod__ = lambda self, o: self._binary(o, operator.mod, True)
  __eq__ = lambda self, o: self._compare(o, operator.eq)
  __ne__ = lambda self, o: self._compare(o, operator.ne)
  __lt__ = lambda self, o: self._compare(o, operator.lt)
  __le__ = lambda self, o: self._compare(o, operator.le)
  __gt__ = lambda self, o: self._compare(o, operator.gt)
  __ge__ = lambda self, o: self._compare(o, operator.ge)

  def __truediv__(self, other):
    raise TypeError("unsupported operand type(s) for /: 'Dimension' and '{}', please use // "
                    "instead".format(type(other).__name__))


def as_dimension(value):
  return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension):
  return dimension.value if isinstance(dimension, Dimension) else dimension


def dimension_at_index(shape, index):
  """The `Dimension` at `index` of `shape` (`Dimension(None)` when the rank is unknown)."""
  assert isinstance(shape, TensorShape)
  if shape.rank is None:
    return Dimension(None)
  return shape.dims[index]


class TensorShape:
  """The shape of a Tensor: a list of `Dimension`s, or unknown rank (`dims is None`)."""

  __slots__ = ("_dims",)

  def __init__(self, dims):
    if isinstance(dims, TensorShape):
      dims = dims.dims
    if dims is None:
      self._dims = None
    elif isinstance(dims, (str, bytes)):
      raise TypeError("A string has ambiguous TensorShape, please wrap in a list or convert "
                      "to an int: %r" % (dims,))
    else:
      try:
        self._dims = [as_dimension(d) for d in dims]
      except TypeError:
        self._dims = [as_dimension(dims)]

  dims = property(lambda self: None if self._dims is None else list(self._dims))
  ndims = property(lambda self: None if self._dims is None else len(self._dims))
  rank = ndims

  def as_list(self):
    if self._dims is None:
      raise ValueError("as_list() is not defined on an unknown TensorShape.")
    return [d.value for d in self._dims]

  def num_elements(self):
    if not self.is_fully_defined():
      return None
    return functools.reduce(operator.mul, self.as_list(), 1)

  def is_fully_defined(self):
    return self._dims is not None and all(d.value is not None for d in self._dims)

  def assert_is_fully_defined(self):
    if not self.is_fully_defined():
      raise ValueError("Shape %s is not fully defined" % self)

  def __len__(self):
    if self._dims is None:
      raise ValueError("Cannot take the length of shape with unknown rank.")
    return len(self._dims)

  def __bool__(self):
    return self._dims is not None

  def __iter__(self):
    if self._dims is None:
      raise ValueError("Cannot iterate over a shape with unknown rank.")
    if _v2_behavior:
      return iter([d.value for d in self._dims])
    return iter(self._dims)

  def __getitem__(self, key):
    if self._dims is None:
      if isinstance(key, slice):
        return TensorShape(None)
      return None if _v2_behavior else Dimension(None)
    if isinstance(key, slice):
      return TensorShape(self._dims[key])
    return self._dims[key].value if _v2_behavior else self._dims[key]

  def concatenate(self, other):
    other = as_shape(other)
    if self._dims is None or other.dims is None:
      return TensorShape(None)
    return TensorShape(self._dims + other.dims)

  def is_compatible_with(self, other):
    other = as_shape(other)
    if self._dims is None or other.dims is None:
      return True
    return len(self._dims) == len(other.dims) and all(
        a.is_compatible_with(b) for a, b in zip(self._dims, other.dims))

  def assert_is_compatible_with(self, other):
    if not self.is_compatible_with(other):
      raise ValueError("Shapes %s and %s are incompatible" % (self, other))

  def merge_with(self, other):
    other = as_shape(other)
    if self._dims is None:
      return other
    if other.dims is None:
      return self
    if len(self._dims) != len(other.dims):
      raise ValueError("Shapes %s and %s are not compatible" % (self, other))
    try:
      return TensorShape([a.merge_with(b) for a, b in zip(self._dims, other.dims)])
    except ValueError:
      raise ValueError("Shapes %s and %s are not compatible" % (self, other))

  def assert_has_rank(self, rank):
    if self._dims is not None and len(self._dims) != rank:
      raise ValueError("Shape %s must have rank %d" % (self, rank))

  def with_rank(self, rank):
    try:
      return self.merge_with(unknown_shape(rank))
    except ValueError:
      raise ValueError("Shape %s must have rank %d" % (self, rank))

  def with_rank_at_least(self, rank):
    if self._dims is not None and len(self._dims) < rank:
      raise ValueError("Shape %s must have rank at least %d" % (self, rank))
    return self

  def __eq__(self, other):
    try:
      other = as_shape(other)
    except TypeError:
      return NotImplemented
    return self._dims == other.dims if self._dims is not None and other.dims is not None \
        else self._dims is None and other.dims is None

  def __ne__(self, other):
    eq = self.__eq__(other)
    return eq if eq is NotImplemented else not eq

  def __hash__(self):
    return hash(None if self._dims is None else tuple(d.value for d in self._dims))

  def __str__(self):
    if self._dims is None:
      return "<unknown>"
    dims = [d.value for d in self._dims] if _v2_behavior else self._dims
    if len(dims) == 1:
      return "(%s,)" % dims[0]
    return "(%s)" % ", ".join(str(d) for d in dims)

  def __repr__(self):
    if _v2_behavior:
      return "TensorShape(%r)" % (None if self._dims is None else [d.value for d in self._dims],)
    return "TensorShape(%r)" % (self._dims,)

  def __reduce__(self):
    return TensorShape, (None if self._dims is None else [d.value for d in self._dims],)


def as_shape(shape):
  return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None, ndims=None):
  rank = ndims if rank is None else rank
  return TensorShape(None if rank is None else [None] * rank)


def scalar():
  return TensorShape([])


export("TensorShape")(TensorShape)
export("Dimension")(Dimension)
export("dimension_value", "compat.dimension_value")(dimension_value)
export("dimension_at_index", "compat.dimension_at_index")(dimension_at_index)
