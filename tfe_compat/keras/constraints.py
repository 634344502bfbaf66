"""`tf.keras.constraints` (TF 1.15): projections applied to a weight after each optimizer
update (the tf.train / Keras optimizers call `variable.constraint` after `apply_gradients`)."""
import numpy as np

from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.keras import _serialization
from tfe_compat.keras import backend as K
from tfe_compat.ops import math_ops, matmul_cast_ops, reduction_ops


def _norms(w, axis):
  return K.sqrt(reduction_ops.reduce_sum(math_ops.square(w), axis=axis, keepdims=True))


@export("keras.constraints.Constraint")
class Constraint:
  """Base class: the identity projection."""

  def __call__(self, w):
    return w

  def get_config(self):
    return {}

  @classmethod
  def from_config(cls, config):
    return cls(**config)


@export("keras.constraints.MaxNorm", "keras.constraints.max_norm")
class MaxNorm(Constraint):
  """Rescales weights whose norm along `axis` exceeds `max_value`."""

  def __init__(self, max_value=2, axis=0):
    self.max_value = max_value
    self.axis = axis

  def __call__(self, w):
    w = ops.convert_to_tensor(w)
    norms = _norms(w, self.axis)
    desired = K.clip(norms, 0, self.max_value)
    return w * (desired / (K.epsilon() + norms))

  def get_config(self):
    return {"max_value": self.max_value, "axis": self.axis}


@export("keras.constraints.NonNeg", "keras.constraints.non_neg")
class NonNeg(Constraint):
  """Zeroes negative weights."""

  def __call__(self, w):
    w = ops.convert_to_tensor(w)
    return w * matmul_cast_ops.cast(math_ops.greater_equal(w, 0.), w.dtype)


@export("keras.constraints.UnitNorm", "keras.constraints.unit_norm")
class UnitNorm(Constraint):
  """Divides weights by their norm along `axis`."""

  def __init__(self, axis=0):
    self.axis = axis

  def __call__(self, w):
    w = ops.convert_to_tensor(w)
    return w / (K.epsilon() + _norms(w, self.axis))

  def get_config(self):
    return {"axis": self.axis}


@export("keras.constraints.MinMaxNorm", "keras.constraints.min_max_norm")
class MinMaxNorm(Constraint):
  """Moves norms along `axis` into [min_value, max_value] at `rate` (1: all the way)."""

  def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
    self.min_value = min_value
    self.max_value = max_value
    self.rate = rate
    self.axis = axis

  def __call__(self, w):
    w = ops.convert_to_tensor(w)
    norms = _norms(w, self.axis)
    desired = (self.rate * K.clip(norms, self.min_value, self.max_value)
               + (1 - self.rate) * norms)
    return w * (desired / (K.epsilon() + norms))

  def get_config(self):
    return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
            "axis": self.axis}


@ops.op(name="RadialConstraint")
def _radial(w):
  """Each ring of a square kernel takes one value of its diagonal, as TF's while_loop pads."""
  n = w.shape[0]
  start = n // 2
  dist = np.abs(np.arange(n) - start) if n % 2 else np.where(
      np.arange(n) >= start, np.arange(n) - start, start - 1 - np.arange(n))
  ring = np.maximum(dist[:, None], dist[None, :])
  source = np.where(ring == 0, start - 1, start + ring - (n % 2))
  return w[source, source]


@export("keras.constraints.RadialConstraint", "keras.constraints.radial_constraint")
class RadialConstraint(Constraint):
  """Makes each (height, width) kernel of a rank-4 weight radially symmetric."""

  def __call__(self, w):
    w = ops.convert_to_tensor(w)
    if w.shape.rank != 4:
      raise ValueError("The weight tensor must be of rank 4, but is of shape: %s" % w.shape)
    return _radial(w)


# Aliases (and the legacy ones).
max_norm = maxnorm = MaxNorm
non_neg = nonneg = NonNeg
unit_norm = unitnorm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint

_MODULE_OBJECTS = {
    "Constraint": Constraint, "MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm,
    "MinMaxNorm": MinMaxNorm, "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
    "min_max_norm": MinMaxNorm, "maxnorm": MaxNorm, "nonneg": NonNeg, "unitnorm": UnitNorm,
    "RadialConstraint": RadialConstraint, "radial_constraint": RadialConstraint}


serialize, deserialize = _serialization.module_functions(_MODULE_OBJECTS, "constraint")
export("keras.constraints.serialize")(serialize)
export("keras.constraints.deserialize")(deserialize)


@export("keras.constraints.get")
def get(identifier):
  """A constraint from None, a config dict, a name or a callable."""
  if identifier is None:
    return None
  if isinstance(identifier, dict):
    return deserialize(identifier)
  if isinstance(identifier, str):
    return deserialize({"class_name": identifier, "config": {}})
  if callable(identifier):
    return identifier
  raise ValueError("Could not interpret constraint identifier: " + str(identifier))
