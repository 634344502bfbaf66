"""Learning-rate schedules: the Keras `LearningRateSchedule` classes and TF1's decay functions.

`schedule(step)` returns the learning rate as a Tensor (computed by one trace-safe op in the
initial learning rate's dtype, as TF's learning_rate_schedule.py does). The TF1 functions
(`tf.train.exponential_decay(...)` ...) return, as TF 1.15 does when executing eagerly, a
no-argument callable that evaluates the schedule at the global step's current value;
optimizers call it on every apply.
"""
import functools
import math

import jax.numpy as jnp

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import random_ops


def _tensor(value, dtype):
  """Python numbers straight in `dtype` (TF's cast of a constant); Tensors cast in the op."""
  if isinstance(value, (int, float)) and not isinstance(value, bool):
    return ops.convert_to_tensor(value, dtype=dtype)
  return ops.convert_to_tensor(value)


def _inputs(initial_learning_rate, step, *params):
  lr = ops.convert_to_tensor(initial_learning_rate)
  return [lr, ops.convert_to_tensor(step)] + [_tensor(p, lr.dtype) for p in params]


def _cast(dtype, *values):
  return [v.astype(dtype) for v in values]


@ops.op(name="ExponentialDecay")
def _exponential(lr, step, decay_steps, decay_rate, *, staircase):
  step, decay_steps, decay_rate = _cast(lr.dtype, step, decay_steps, decay_rate)
  p = step / decay_steps
  if staircase:
    p = jnp.floor(p)
  return lr * jnp.power(decay_rate, p)


@ops.op(name="InverseTimeDecay")
def _inverse_time(lr, step, decay_steps, decay_rate, *, staircase):
  step, decay_steps, decay_rate = _cast(lr.dtype, step, decay_steps, decay_rate)
  p = step / decay_steps
  if staircase:
    p = jnp.floor(p)
  return lr / (1 + decay_rate * p)


@ops.op(name="PolynomialDecay")
def _polynomial(lr, step, decay_steps, end_lr, power, *, cycle):
  step, decay_steps, end_lr, power = _cast(lr.dtype, step, decay_steps, end_lr, power)
  if cycle:
    multiplier = jnp.where(step == 0, jnp.ones_like(step), jnp.ceil(step / decay_steps))
    decay_steps = decay_steps * multiplier
  else:
    step = jnp.minimum(step, decay_steps)
  p = step / decay_steps
  return (lr - end_lr) * jnp.power(1 - p, power) + end_lr


@ops.op(name="CosineDecay")
def _cosine(lr, step, decay_steps, alpha):
  step, decay_steps, alpha = _cast(lr.dtype, step, decay_steps, alpha)
  fraction = jnp.minimum(step, decay_steps) / decay_steps
  cosine = 0.5 * (1.0 + jnp.cos(jnp.asarray(math.pi, lr.dtype) * fraction))
  return lr * ((1 - alpha) * cosine + alpha)


@ops.op(name="CosineDecayRestarts")
def _cosine_restarts(lr, step, first_decay_steps, t_mul, m_mul, alpha):
  step, first, t_mul, m_mul, alpha = _cast(lr.dtype, step, first_decay_steps, t_mul, m_mul,
                                           alpha)
  fraction = step / first
  i_linear = jnp.floor(fraction)
  i_geometric = jnp.floor(jnp.log(1.0 - fraction * (1.0 - t_mul)) / jnp.log(t_mul))
  sum_r = (1.0 - t_mul ** i_geometric) / (1.0 - t_mul)
  linear = t_mul == 1.0
  i_restart = jnp.where(linear, i_linear, i_geometric)
  fraction = jnp.where(linear, fraction - i_linear, (fraction - sum_r) / t_mul ** i_geometric)
  cosine = 0.5 * m_mul ** i_restart * (1.0 + jnp.cos(jnp.asarray(math.pi, lr.dtype) * fraction))
  return lr * ((1 - alpha) * cosine + alpha)


@ops.op(name="LinearCosineDecay")
def _linear_cosine(lr, step, decay_steps, num_periods, alpha, beta):
  step, decay_steps, num_periods, alpha, beta = _cast(lr.dtype, step, decay_steps, num_periods,
                                                      alpha, beta)
  step = jnp.minimum(step, decay_steps)
  linear = (decay_steps - step) / decay_steps
  fraction = 2.0 * num_periods * (step / decay_steps)
  cosine = 0.5 * (1.0 + jnp.cos(jnp.asarray(math.pi, lr.dtype) * fraction))
  return lr * ((alpha + linear) * cosine + beta)


@ops.op(name="NoisyLinearCosineDecay")
def _noisy_linear_cosine(lr, step, decay_steps, initial_variance, variance_decay, num_periods,
                         alpha, beta, noise):
  step, decay_steps, initial_variance, variance_decay, num_periods, alpha, beta = _cast(
      lr.dtype, step, decay_steps, initial_variance, variance_decay, num_periods, alpha, beta)
  step = jnp.minimum(step, decay_steps)
  linear = (decay_steps - step) / decay_steps
  std = jnp.sqrt(initial_variance / jnp.power(1.0 + step, variance_decay))
  fraction = 2.0 * num_periods * (step / decay_steps)
  cosine = 0.5 * (1.0 + jnp.cos(jnp.asarray(math.pi, lr.dtype) * fraction))
  return lr * ((alpha + linear + noise.astype(lr.dtype) * std) * cosine + beta)


@ops.op(name="PiecewiseConstant")
def _piecewise(x, boundaries, values):
  return values[jnp.searchsorted(boundaries.astype(x.dtype), x, side="left")]


@export("keras.optimizers.schedules.LearningRateSchedule")
class LearningRateSchedule:
  """A serializable schedule: `schedule(step)` is the learning rate at `step`."""

  def __call__(self, step):
    raise NotImplementedError("Learning rate schedule must override __call__")

  def get_config(self):
    raise NotImplementedError("Learning rate schedule must override get_config")

  @classmethod
  def from_config(cls, config):
    return cls(**config)


def _schedule(cls_name, fields, compute, static=()):
  """A LearningRateSchedule class with constructor `fields` computed by op `compute`."""
  names = [f for f, _ in fields]

  def __init__(self, *args, **kwargs):
    values = dict(fields)
    values.update(zip(names, args))
    for key, value in kwargs.items():
      if key not in values:
        raise TypeError("__init__() got an unexpected keyword argument '%s'" % key)
      values[key] = value
    missing = [n for n in names if values[n] is _REQUIRED]
    if missing:
      raise TypeError("__init__() missing required argument: '%s'" % missing[0])
    self.__dict__.update(values)

  def __call__(self, step):
    params = [getattr(self, n) for n in names[1:] if n not in static and n != "name"]
    flags = {n: bool(getattr(self, n)) for n in static}
    return compute(*_inputs(self.initial_learning_rate, step, *params), **flags)

  def get_config(self):
    return {n: getattr(self, n) for n in names}

  cls = type(cls_name, (LearningRateSchedule,), {
      "__init__": __init__, "__call__": __call__, "get_config": get_config,
      "__doc__": "`%s(%s)`" % (cls_name, ", ".join(names))})
  return cls


_REQUIRED = object()

ExponentialDecay = _schedule(
    "ExponentialDecay", [("initial_learning_rate", _REQUIRED), ("decay_steps", _REQUIRED),
                         ("decay_rate", _REQUIRED), ("staircase", False), ("name", None)],
    _exponential, static=("staircase",))
InverseTimeDecay = _schedule(
    "InverseTimeDecay", [("initial_learning_rate", _REQUIRED), ("decay_steps", _REQUIRED),
                         ("decay_rate", _REQUIRED), ("staircase", False), ("name", None)],
    _inverse_time, static=("staircase",))
PolynomialDecay = _schedule(
    "PolynomialDecay", [("initial_learning_rate", _REQUIRED), ("decay_steps", _REQUIRED),
                        ("end_learning_rate", 0.0001), ("power", 1.0), ("cycle", False),
                        ("name", None)], _polynomial, static=("cycle",))
CosineDecay = _schedule(
    "CosineDecay", [("initial_learning_rate", _REQUIRED), ("decay_steps", _REQUIRED),
                    ("alpha", 0.0), ("name", None)], _cosine)
CosineDecayRestarts = _schedule(
    "CosineDecayRestarts", [("initial_learning_rate", _REQUIRED),
                            ("first_decay_steps", _REQUIRED), ("t_mul", 2.0), ("m_mul", 1.0),
                            ("alpha", 0.0), ("name", None)], _cosine_restarts)
LinearCosineDecay = _schedule(
    "LinearCosineDecay", [("initial_learning_rate", _REQUIRED), ("decay_steps", _REQUIRED),
                          ("num_periods", 0.5), ("alpha", 0.0), ("beta", 0.001),
                          ("name", None)], _linear_cosine)


@export("keras.experimental.NoisyLinearCosineDecay")
class NoisyLinearCosineDecay(_schedule(
    "NoisyLinearCosineDecay", [("initial_learning_rate", _REQUIRED), ("decay_steps", _REQUIRED),
                               ("initial_variance", 1.0), ("variance_decay", 0.55),
                               ("num_periods", 0.5), ("alpha", 0.0), ("beta", 0.001),
                               ("name", None)], None)):
  """Linear cosine decay with Gaussian noise of variance
  initial_variance / (1 + step) ** variance_decay added to the linear part."""

  def __call__(self, step):
    lr = ops.convert_to_tensor(self.initial_learning_rate)
    noise = random_ops.random_normal([], dtype=lr.dtype)
    params = [self.decay_steps, self.initial_variance, self.variance_decay, self.num_periods,
              self.alpha, self.beta]
    return _noisy_linear_cosine(*_inputs(lr, step, *params), noise)


@export("keras.optimizers.schedules.PiecewiseConstantDecay")
class PiecewiseConstantDecay(LearningRateSchedule):
  """values[0] for step <= boundaries[0], values[i] for boundaries[i-1] < step <= boundaries[i]."""

  def __init__(self, boundaries, values, name=None):
    if len(boundaries) != len(values) - 1:
      raise ValueError("The length of boundaries should be 1 less than the length of values")
    self.boundaries, self.values, self.name = boundaries, values, name

  def __call__(self, step):
    x = ops.convert_to_tensor(step)
    values = [ops.convert_to_tensor(v) for v in self.values]
    for v in values[1:]:
      if v.dtype is not values[0].dtype:
        raise ValueError("Values must have elements all with the same dtype (%s vs %s)."
                         % (values[0].dtype.name, v.dtype.name))
    return _piecewise(x, ops.stack(*[ops.convert_to_tensor(b) for b in self.boundaries]),
                      ops.stack(*values))

  def get_config(self):
    return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


for _cls, _names in ((ExponentialDecay, ("keras.optimizers.schedules.ExponentialDecay",)),
                     (InverseTimeDecay, ("keras.optimizers.schedules.InverseTimeDecay",)),
                     (PolynomialDecay, ("keras.optimizers.schedules.PolynomialDecay",)),
                     (CosineDecay, ("keras.experimental.CosineDecay",)),
                     (CosineDecayRestarts, ("keras.experimental.CosineDecayRestarts",)),
                     (LinearCosineDecay, ("keras.experimental.LinearCosineDecay",))):
  _cls.__module__ = __name__
  export(*_names)(_cls)

_CLASSES = {c.__name__: c for c in (ExponentialDecay, InverseTimeDecay, PolynomialDecay,
                                    PiecewiseConstantDecay, CosineDecay, CosineDecayRestarts,
                                    LinearCosineDecay, NoisyLinearCosineDecay)}


@export("keras.optimizers.schedules.serialize")
def serialize(learning_rate_schedule):
  return {"class_name": type(learning_rate_schedule).__name__,
          "config": learning_rate_schedule.get_config()}


@export("keras.optimizers.schedules.deserialize")
def deserialize(config, custom_objects=None):
  classes = dict(_CLASSES, **(custom_objects or {}))
  if config["class_name"] not in classes:
    raise ValueError("Unknown decay: " + config["class_name"])
  return classes[config["class_name"]].from_config(config["config"])


# ---- TF1 functions: a callable evaluated at the global step's current value ----
def _v1(function_name, schedule_cls):
  def decay(learning_rate, global_step, *args, **kwargs):
    return functools.partial(schedule_cls(learning_rate, *args, **kwargs), global_step)
  decay.__name__ = function_name
  decay.__doc__ = ("`tf.train.%s(learning_rate, global_step, ...)`: a callable returning the "
                   "decayed learning rate at the global step's current value." % function_name)
  return export("train." + function_name)(decay)


exponential_decay = _v1("exponential_decay", ExponentialDecay)
inverse_time_decay = _v1("inverse_time_decay", InverseTimeDecay)
polynomial_decay = _v1("polynomial_decay", PolynomialDecay)
cosine_decay = _v1("cosine_decay", CosineDecay)
cosine_decay_restarts = _v1("cosine_decay_restarts", CosineDecayRestarts)
linear_cosine_decay = _v1("linear_cosine_decay", LinearCosineDecay)
noisy_linear_cosine_decay = _v1("noisy_linear_cosine_decay", NoisyLinearCosineDecay)


@export("train.natural_exp_decay")
def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
  """lr * exp(-decay_rate * global_step / decay_steps), as a callable."""
  rate = Tensor(jnp.exp(-ops.convert_to_tensor(decay_rate)._value))
  schedule = ExponentialDecay(learning_rate, decay_steps, rate, staircase=staircase)
  return functools.partial(schedule, global_step)


@export("train.piecewise_constant", "train.piecewise_constant_decay")
def piecewise_constant(x, boundaries, values, name=None):
  """`values[i]` for the interval of `boundaries` that the current `x` falls in (a callable)."""
  x_dtype = ops.convert_to_tensor(x).dtype.base_dtype
  for b in boundaries:
    b_dtype = ops.convert_to_tensor(b).dtype.base_dtype
    if b_dtype is not x_dtype and (b_dtype, x_dtype) != (dtypes.int32, dtypes.int64):
      raise ValueError("Boundaries (%s) must have the same dtype as x (%s)."
                       % (b_dtype, x_dtype))
  return functools.partial(PiecewiseConstantDecay(boundaries, values, name=name), x)
