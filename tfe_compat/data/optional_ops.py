"""`tf.data.experimental.Optional` (a value that may be missing), `tf.OptionalSpec` and
`get_next_as_optional`."""
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.data import structure
from tfe_compat.data import type_specs


@export("OptionalSpec", "data.experimental.OptionalStructure")
class OptionalSpec(type_specs.TypeSpec):
  """`tf.OptionalSpec(value_structure)`: the type of an Optional of that structure."""

  __slots__ = ("_value_structure",)

  def __init__(self, value_structure):
    self._value_structure = value_structure

  value_structure = property(lambda self: self._value_structure)
  element_spec = value_structure

  @property
  def value_type(self):
    return _OptionalImpl

  def _serialize(self):
    return (self._value_structure,)

  @staticmethod
  def from_value(value):
    return OptionalSpec(value.value_structure)


@export("data.experimental.Optional", "contrib.data.Optional")
class Optional:
  """A value that may be missing: `Optional.from_value(v)` or
  `Optional.none_from_structure(spec)` (TF 2: `Optional.empty(spec)`)."""

  def has_value(self, name=None):
    raise NotImplementedError

  def get_value(self, name=None):
    raise NotImplementedError

  @property
  def value_structure(self):
    raise NotImplementedError

  @property
  def element_spec(self):
    return self.value_structure

  @staticmethod
  def from_value(value):
    element = structure.element_to_numpy(value)
    return _OptionalImpl(element, structure.map_structure(structure.spec_of, element))

  @staticmethod
  def none_from_structure(value_structure):
    return _OptionalImpl(None, value_structure)

  empty = none_from_structure


class _OptionalImpl(Optional):
  def __init__(self, element, value_structure):
    self._element, self._structure = element, value_structure

  def has_value(self, name=None):
    return ops.convert_to_tensor(self._element is not None)

  def get_value(self, name=None):
    if self._element is None:
      raise errors.invalid_argument("The given optional does not have a value.")
    return structure.element_to_tensors(self._element)

  @property
  def value_structure(self):
    return self._structure

  @property
  def _type_spec(self):
    return OptionalSpec(self._structure)


def next_as_optional(iterator):
  """The iterator's next element as an Optional (empty at the end)."""
  element = next(iterator._elements, None)
  if element is None:
    return Optional.none_from_structure(iterator.element_spec)
  return _OptionalImpl(structure.checked(element), iterator.element_spec)


@export("data.experimental.get_next_as_optional", "contrib.data.get_next_as_optional")
def get_next_as_optional(iterator):
  """`iterator.get_next()` as an Optional that is empty at the end of the dataset."""
  return next_as_optional(iterator)
