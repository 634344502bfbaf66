"""Calling the user functions of tf.data.experimental transformations: errors of the
computation fail one element (structure.Failure); what TF rejects when it traces the function
(a wrong return type) is raised."""
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.data import structure


class InvalidFunction(Exception):
  """Raised inside a wrapped user function for a result TF would reject at tracing time."""

  def __init__(self, error):
    super().__init__(error)
    self.error = error


def call(fn, element):
  """`fn` on the element (unpacked as TF does), or the Failure of its error."""
  try:
    return structure.call_on_host(fn, element)
  except InvalidFunction as invalid:
    raise invalid.error from None
  except Exception as exc:  # pylint: disable=broad-except
    return structure.Failure(exc)


def spec_text(leaf):
  return str(structure.spec_of(leaf))


def types_text(element):
  """The dtypes of a NumPy nest as TF prints a structure of dtypes."""
  return str(structure.map_structure(lambda leaf: dtypes.from_numpy(np.asarray(leaf).dtype),
                                     element))


def int64_scalar(fn, name):
  """`fn` with its result converted to an int64 scalar Tensor, as TF wraps `key_func` and
  `window_size_func`."""
  def wrapper(*args):
    value = fn(*args)
    try:
      value = ops.convert_to_tensor(value, dtypes.int64)
    except (TypeError, ValueError) as error:
      raise InvalidFunction(error) from None
    if value.shape.ndims != 0:
      raise InvalidFunction(ValueError(
          "Invalid `%s`. `%s` must return a single `tf.int64` scalar tensor but its return "
          "type is %s." % (name, name, structure.TensorSpec(value.shape, value.dtype))))
    return value
  return wrapper


def bool_scalar(fn):
  """`fn` (a predicate) checked to return a bool scalar."""
  def wrapper(*args):
    value = ops.convert_to_tensor(fn(*args))
    if value.dtype is not dtypes.bool or value.shape.ndims != 0:
      raise InvalidFunction(ValueError(
          "Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its "
          "return type is%s." % structure.TensorSpec(value.shape, value.dtype)))
    return value
  return wrapper
