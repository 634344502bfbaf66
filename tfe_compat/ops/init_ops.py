"""TF 1.15 initializers: `tf.zeros_initializer`, `tf.glorot_uniform_initializer`, ...

Each initializer is a class; an instance is called as `init(shape, dtype=None,
partition_info=None)` and returns a Tensor. Random draws take a fresh key from
`context.next_rng_key(seed)` (TF's seeding rules; values are not bit-exact with TF's).
"""
import inspect
import math

import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor


def _shape_list(shape):
  """A list of Python ints from a list, tuple, TensorShape or integer Tensor."""
  if isinstance(shape, Tensor):
    shape = shape.numpy().tolist()
  shape = tensor_shape.as_shape(shape)
  if not shape.is_fully_defined():
    raise ValueError("Attempt to convert a value (None) with an unsupported type "
                     "(<class 'NoneType'>) to a Tensor.")
  return shape.as_list()


def _scale_shape(shape, partition_info):
  return shape if partition_info is None else _shape_list(partition_info.full_shape)


def _assert_float_dtype(dtype):
  dtype = dtypes.as_dtype(dtype)
  if not dtype.is_floating:
    raise ValueError("Argument `dtype` is expected to be floating point. Received: %s." % dtype)
  return dtype


def _require_float(dtype, value):
  """TF's error when a floating-point draw is converted to a non-float dtype."""
  if not dtype.is_floating:
    raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))


def _compute_fans(shape):
  """TF's fan-in/fan-out: conv kernels multiply both by the receptive field size."""
  if len(shape) < 1:
    fan_in = fan_out = 1
  elif len(shape) == 1:
    fan_in = fan_out = shape[0]
  elif len(shape) == 2:
    fan_in, fan_out = shape
  else:
    receptive_field_size = 1
    for dim in shape[:-2]:
      receptive_field_size *= dim
    fan_in = shape[-2] * receptive_field_size
    fan_out = shape[-1] * receptive_field_size
  return int(fan_in), int(fan_out)


# ---- Draws ----
# Initial values are constants drawn once, so they are drawn on the host with NumPy from a
# generator seeded by the op's JAX key (TF's seeding rules, via `context.next_rng_key`):
# jax.random would compile a new XLA kernel for every new shape (0.4-1.6 s each on CPU).
def _generator(seed):
  return np.random.default_rng(np.asarray(context.next_rng_key(seed)).tolist())


def _sample_dtype(dtype):
  return np.float64 if dtype is dtypes.float64 else np.float32


def _to_tensor(array, dtype):
  """A host array as a Tensor: a transfer (jax.numpy would compile a program per shape)."""
  return Tensor(device_lib.put(np.asarray(array).astype(dtype.as_numpy_dtype, copy=False)))


def _drawn_in_graph(draw, args, shape, dtype, seed):
  """A draw while a graph is built: a host operation that draws anew on every run."""
  return graph_build.record_host_call(draw, args, [dtype], True, op_type="RandomInitializer",
                                      shapes=[shape], seeds=[seed])


def _random_uniform(shape, minval, maxval, dtype, seed):
  if graph_lib.building() is not None:
    return _drawn_in_graph(_random_uniform, (shape, minval, maxval, dtype, seed), shape, dtype,
                           seed)
  if dtype.is_integer:
    if maxval is None:
      raise ValueError("Must specify maxval for integer dtype %r" % dtype)
    return _to_tensor(_generator(seed).integers(int(minval), int(maxval), size=shape), dtype)
  _require_float(dtype, minval)
  maxval = 1.0 if maxval is None else maxval
  unit = _generator(seed).random(shape, dtype=_sample_dtype(dtype))
  return _to_tensor(unit * (maxval - minval) + minval, dtype)


def _random_normal(shape, mean, stddev, dtype, seed, truncated=False):
  if graph_lib.building() is not None:
    return _drawn_in_graph(_random_normal, (shape, mean, stddev, dtype, seed, truncated), shape,
                           dtype, seed)
  _require_float(dtype, mean)
  rng = _generator(seed)
  sample_dtype = _sample_dtype(dtype)
  sample = rng.standard_normal(shape, dtype=sample_dtype)
  if truncated:  # redraw values more than two standard deviations out, as TF does
    outside = np.abs(sample) > 2.0
    while outside.any():
      sample[outside] = rng.standard_normal(int(outside.sum()), dtype=sample_dtype)
      outside = np.abs(sample) > 2.0
  return _to_tensor(sample * stddev + mean, dtype)


class Initializer:
  """Initializer base class: all initializers inherit from this class."""

  def __call__(self, shape, dtype=None, partition_info=None):
    raise NotImplementedError("Initializer subclasses implement __call__.")

  def get_config(self):
    return {}

  @classmethod
  def from_config(cls, config):
    return cls(**config)


@export("zeros_initializer", "initializers.zeros")
class Zeros(Initializer):
  """Initializer that generates tensors initialized to 0."""

  def __init__(self, dtype=dtypes.float32):
    self.dtype = dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    shape = _shape_list(shape)
    if dtype is dtypes.string:
      return Tensor(np.full(shape, b"", dtype=object))
    return _to_tensor(np.zeros(shape, dtype.as_numpy_dtype), dtype)

  def get_config(self):
    return {"dtype": self.dtype.name}


@export("ones_initializer", "initializers.ones")
class Ones(Initializer):
  """Initializer that generates tensors initialized to 1."""

  def __init__(self, dtype=dtypes.float32):
    self.dtype = dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    return _to_tensor(np.ones(_shape_list(shape), dtype.as_numpy_dtype), dtype)

  def get_config(self):
    return {"dtype": self.dtype.name}


@export("constant_initializer", "initializers.constant")
class Constant(Initializer):
  """Initializer that generates tensors with constant values (`tf.constant` rules)."""

  def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
    if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
      raise TypeError("Invalid type for initial value=%s of type: %s. Expected Python scalar, "
                      "list or tuple of values, or numpy.ndarray." % (value, type(value).__name__))
    self.value = value
    self.dtype = dtypes.as_dtype(dtype)
    self._verify_shape = verify_shape

  def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    verify_shape = self._verify_shape if verify_shape is None else verify_shape
    return ops.constant(self.value, dtype=dtype, shape=_shape_list(shape),
                        verify_shape=verify_shape)

  def get_config(self):
    return {"value": self.value, "dtype": self.dtype.name}


@export("random_uniform_initializer", "initializers.random_uniform")
class RandomUniform(Initializer):
  """Uniform samples in [minval, maxval); maxval None means 1 for floating dtypes."""

  def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
    self.minval, self.maxval, self.seed = minval, maxval, seed
    self.dtype = dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    return _random_uniform(_shape_list(shape), self.minval, self.maxval, dtype, self.seed)

  def get_config(self):
    return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed,
            "dtype": self.dtype.name}


@export("random_normal_initializer", "initializers.random_normal")
class RandomNormal(Initializer):
  """Normal samples with the given mean and standard deviation."""

  def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
    self.mean, self.stddev, self.seed = mean, stddev, seed
    self.dtype = _assert_float_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    return _random_normal(_shape_list(shape), self.mean, self.stddev, dtype, self.seed)

  def get_config(self):
    return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
            "dtype": self.dtype.name}


@export("truncated_normal_initializer", "initializers.truncated_normal")
class TruncatedNormal(RandomNormal):
  """Normal samples redrawn when more than two standard deviations from the mean."""

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    return _random_normal(_shape_list(shape), self.mean, self.stddev, dtype, self.seed,
                          truncated=True)


@export("uniform_unit_scaling_initializer", "initializers.uniform_unit_scaling")
class UniformUnitScaling(Initializer):
  """Uniform in [-sqrt(3 / input_size), sqrt(3 / input_size)] * factor."""

  def __init__(self, factor=1.0, seed=None, dtype=dtypes.float32):
    self.factor, self.seed = factor, seed
    self.dtype = _assert_float_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    shape = _shape_list(shape)
    input_size = 1.0
    for dim in _scale_shape(shape, partition_info)[:-1]:
      input_size *= float(dim)
    max_val = math.sqrt(3 / max(input_size, 1.0)) * self.factor
    _require_float(dtype, -max_val)
    return _random_uniform(shape, -max_val, max_val, dtype, self.seed)

  def get_config(self):
    return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


@export("variance_scaling_initializer", "initializers.variance_scaling")
class VarianceScaling(Initializer):
  """Samples scaled by the fan-in, fan-out or their average (TF 1.15 defaults)."""

  def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
               dtype=dtypes.float32):
    if scale <= 0.:
      raise ValueError("Argument `scale` must be a positive float. Received: %s" % scale)
    if mode not in {"fan_in", "fan_out", "fan_avg"}:
      raise ValueError("Argument `mode` should be one of ('fan_in', 'fan_out', 'fan_avg'). "
                       "Received: %s" % mode)
    distribution = distribution.lower()
    if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
      raise ValueError("Argument `distribution` should be one of ('normal', uniform', "
                       "'truncated_normal', 'untruncated_normal'). Received: %s" % distribution)
    self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
    self.dtype = _assert_float_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    shape = _shape_list(shape)
    fan_in, fan_out = _compute_fans(_scale_shape(shape, partition_info))
    fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.}[self.mode]
    scale = self.scale / max(1., fan)
    if self.distribution in ("normal", "truncated_normal"):
      # 0.879... is the standard deviation of a unit normal truncated to [-2, 2].
      stddev = math.sqrt(scale) / .87962566103423978
      return _random_normal(shape, 0.0, stddev, dtype, self.seed, truncated=True)
    if self.distribution == "untruncated_normal":
      return _random_normal(shape, 0.0, math.sqrt(scale), dtype, self.seed)
    limit = math.sqrt(3.0 * scale)
    _require_float(dtype, -limit)
    return _random_uniform(shape, -limit, limit, dtype, self.seed)

  def get_config(self):
    return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
            "seed": self.seed, "dtype": self.dtype.name}


@export("glorot_uniform_initializer", "initializers.glorot_uniform")
class GlorotUniform(VarianceScaling):
  """Uniform in [-limit, limit], limit = sqrt(6 / (fan_in + fan_out))."""

  def __init__(self, seed=None, dtype=dtypes.float32):
    super().__init__(scale=1.0, mode="fan_avg", distribution="uniform", seed=seed, dtype=dtype)

  def get_config(self):
    return {"seed": self.seed, "dtype": self.dtype.name}


@export("glorot_normal_initializer", "initializers.glorot_normal")
class GlorotNormal(VarianceScaling):
  """Truncated normal with stddev sqrt(2 / (fan_in + fan_out)) after truncation."""

  def __init__(self, seed=None, dtype=dtypes.float32):
    super().__init__(scale=1.0, mode="fan_avg", distribution="truncated_normal", seed=seed,
                     dtype=dtype)

  def get_config(self):
    return {"seed": self.seed, "dtype": self.dtype.name}


@export("initializers.he_normal")
def he_normal(seed=None):
  return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


@export("initializers.he_uniform")
def he_uniform(seed=None):
  return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


@export("initializers.lecun_normal")
def lecun_normal(seed=None):
  return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


@export("initializers.lecun_uniform")
def lecun_uniform(seed=None):
  return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def _at_least_2d(shape):
  if len(shape) < 2:
    raise ValueError("The tensor to initialize, specified by argument `shape` must be at "
                     "least two-dimensional. Received shape=%s" % shape)


@export("orthogonal_initializer", "initializers.orthogonal")
class Orthogonal(Initializer):
  """An orthogonal matrix (QR of a normal matrix), reshaped to `shape`, times `gain`."""

  def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
    self.gain, self.seed = gain, seed
    self.dtype = _assert_float_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    shape = _shape_list(shape)
    _at_least_2d(shape)
    num_rows = int(np.prod(shape[:-1]))
    num_cols = int(shape[-1])
    if graph_lib.building() is not None:
      return _drawn_in_graph(self, (shape, dtype), shape, dtype, self.seed)
    flat_shape = (num_cols, num_rows) if num_rows < num_cols else (num_rows, num_cols)
    a = _generator(self.seed).standard_normal(flat_shape, dtype=_sample_dtype(dtype))
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diagonal(r))
    if num_rows < num_cols:
      q = q.T
    return _to_tensor(self.gain * q.reshape(shape), dtype)

  def get_config(self):
    return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


@export("initializers.identity")
class Identity(Initializer):
  """The identity matrix (2-D shapes only) times `gain`."""

  def __init__(self, gain=1.0, dtype=dtypes.float32):
    self.gain = gain
    self.dtype = _assert_float_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
    full_shape = _scale_shape(_shape_list(shape), partition_info)
    if len(full_shape) != 2:
      raise ValueError("The tensor to initialize, specified by argument `shape` must be at "
                       "least two-dimensional. Received shape=%s" % full_shape)
    _require_float(dtype, 1.0)
    return _to_tensor(self.gain * np.eye(*full_shape), dtype)

  def get_config(self):
    return {"gain": self.gain, "dtype": self.dtype.name}


# ---- tf.contrib.layers initializers (their own, older fan rules) ----
@export("contrib.layers.variance_scaling_initializer")
def contrib_variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None,
                                         dtype=dtypes.float32):
  """`tf.contrib.layers.variance_scaling_initializer`: returns an initializer function."""
  dtype = dtypes.as_dtype(dtype)
  if not dtype.is_floating:
    raise TypeError("Cannot create initializer for non-floating point type.")
  if mode not in ("FAN_IN", "FAN_OUT", "FAN_AVG"):
    raise TypeError("Unknown mode %s [FAN_IN, FAN_OUT, FAN_AVG]" % mode)

  def _initializer(shape, dtype=dtype, partition_info=None):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
      raise TypeError("Cannot create initializer for non-floating point type.")
    shape = _shape_list(shape)
    dims = _scale_shape(shape, partition_info)
    fan_in = float(dims[-2]) if len(dims) > 1 else float(dims[-1]) if dims else 1.0
    fan_out = float(dims[-1]) if dims else 1.0
    for dim in dims[:-2]:
      fan_in *= float(dim)
      fan_out *= float(dim)
    n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
    if uniform:
      limit = math.sqrt(3.0 * factor / n)
      return _random_uniform(shape, -limit, limit, dtype, seed)
    return _random_normal(shape, 0.0, math.sqrt(1.3 * factor / n), dtype, seed, truncated=True)

  return _initializer


@export("contrib.layers.xavier_initializer", "contrib.layers.xavier_initializer_conv2d")
def xavier_initializer(uniform=True, seed=None, dtype=dtypes.float32):
  """`tf.contrib.layers.xavier_initializer`: Glorot scaling with the contrib fan rules."""
  return contrib_variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform,
                                              seed=seed, dtype=dtype)


def accepts_partition_info(initializer):
  """Whether `initializer(shape, dtype, partition_info=...)` names `partition_info`."""
  try:
    parameters = inspect.signature(initializer).parameters
  except (TypeError, ValueError):
    return False
  return "partition_info" in parameters
