"""TF 1.x random ops: `tf.random_normal`, `tf.random_uniform`, `tf.multinomial`, ...

Each call draws a fresh key from `context.next_rng_key(seed)`, which follows TF's seeding
rules (global seed from `tf.set_random_seed`, op seeds, reproducible call sequences). The
values are NOT bit-exact with TF's Philox streams: only the seeding semantics are TF's.
The key reaches the jitted implementation as a positional uint32[2] array, so new draws
never recompile; shape and dtype are static attributes.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import value_checks

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_UNIFORM_DTYPES = _FLOATS + (dtypes.int32, dtypes.int64)
_SAMPLE_DTYPES = (dtypes.int32, dtypes.int64)


def _invalid(message, op_name):
  return errors.invalid_argument("%s [Op:%s]" % (message, op_name))


def _shape_tuple(shape, op_name):
  """A static shape tuple from a list/tuple/TensorShape/Tensor/ndarray, with TF's errors."""
  if isinstance(shape, tensor_shape.TensorShape):
    if not shape.is_fully_defined():
      raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % shape)
    shape = shape.as_list()
  if isinstance(shape, (list, tuple)):
    shape = [tensor_shape.dimension_value(d) for d in shape]
    array = np.asarray(shape) if shape else np.zeros([0], np.int32)
  else:
    array = np.asarray(shape)
  if array.dtype.kind not in "iu":
    raise _invalid("Value for attr 'T' of %s is not in the list of allowed values: int32, "
                   "int64" % ops.tf_type_name(array.dtype), op_name)
  if array.ndim != 1:
    raise _invalid("shape must be a vector of {int32,int64}, got shape [%s]"
                   % ",".join(str(d) for d in array.shape), op_name)
  for d in array:
    if d < 0:
      raise _invalid("Dimension %d must be >= 0" % d, op_name)
  dims = tuple(int(d) for d in array)
  value_checks.check_allocation(dims, op_name)
  return dims


def _check_dtype(dtype, allowed):
  dtype = dtypes.as_dtype(dtype)
  if dtype not in allowed:
    raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are (%s)."
                     % (dtype, ", ".join(repr(d) for d in allowed)))
  return dtype


def _key(seed):
  return Tensor(context.next_rng_key(seed))


def _stateless_key(seed):
  seed = ops.convert_to_tensor(seed)
  if seed.shape.as_list() != [2]:
    raise _invalid("seed must have shape [2], not [%s]"
                   % ",".join(str(d) for d in seed.shape.as_list()),
                   "StatelessRandomGetKeyCounter")
  if seed.dtype not in _SAMPLE_DTYPES:
    raise TypeError("seed must be an int32 or int64 tensor, got %s" % seed.dtype.name)
  return seed


def _concrete(tensor):
  """The NumPy value of an eager Tensor, or None while tracing."""
  value = tensor._value
  return None if isinstance(value, jax.core.Tracer) else np.asarray(value)


def _check_broadcast(shape, scale, loc):
  """TF computes `rnd * scale + loc`: its Mul/AddV2 broadcasting errors, before any work."""
  current = shape
  for operand, op_name in ((scale, "Mul"), (loc, "AddV2")):
    try:
      current = np.broadcast_shapes(current, operand._shape_tuple())
    except ValueError:
      raise _invalid("Incompatible shapes: [%s] vs. [%s]" % (
          ",".join(map(str, current)), ",".join(map(str, operand._shape_tuple()))),
                     op_name) from None


def _raw(key):
  return key.astype(jnp.uint32)  # stateless seeds arrive as int32/int64 pairs


# ---- Implementations ----
@op(name="RandomStandardNormal")
def _normal(key, mean, stddev, *, shape, dtype):
  return jax.random.normal(_raw(key), shape, jnp.dtype(dtype)) * stddev + mean


@op(name="TruncatedNormal")
def _truncated_normal(key, mean, stddev, *, shape, dtype):
  dtype = jnp.dtype(dtype)
  return jax.random.truncated_normal(_raw(key), -2.0, 2.0, shape, dtype) * stddev + mean


@op(name="RandomUniform")
def _uniform(key, minval, maxval, *, shape, dtype):
  return jax.random.uniform(_raw(key), shape, jnp.dtype(dtype)) * (maxval - minval) + minval


@op(name="RandomUniformInt")
def _uniform_int(key, minval, maxval, *, shape):
  return jax.random.randint(_raw(key), shape, minval, maxval, minval.dtype)


@op(name="RandomShuffle")
def _shuffle(key, value):
  if value.ndim == 0:
    return value
  return jax.random.permutation(_raw(key), value, axis=0, independent=False)


@op(name="RandomShuffle")
def _permutation(key, *, size):
  return jax.random.permutation(_raw(key), size)


@op(name="Multinomial")
def _multinomial(key, logits, *, num_samples, dtype):
  samples = jax.random.categorical(_raw(key), logits, axis=-1,
                                   shape=(num_samples, logits.shape[0]))
  return samples.T.astype(jnp.dtype(dtype))


@op(name="RandomGamma")
def _gamma(key, alpha, beta, *, shape):
  full = shape + jnp.broadcast_shapes(alpha.shape, beta.shape)
  sample = jax.random.gamma(_raw(key), jnp.broadcast_to(alpha, full), dtype=alpha.dtype)
  return jnp.maximum(jnp.finfo(alpha.dtype).tiny, sample / beta)


@op(name="RandomPoissonV2")
def _poisson(key, lam, *, shape, dtype):
  rate = lam.astype(jnp.float64 if lam.dtype.itemsize == 8 else jnp.float32)
  samples = jax.random.poisson(_raw(key), rate, shape + lam.shape, dtype=jnp.int64)
  return samples.astype(jnp.dtype(dtype))


@op(name="RandomCrop")
def _crop(key, value, *, size):
  limit = np.asarray(value.shape, np.int64) - np.asarray(size, np.int64) + 1
  offsets = jax.random.randint(_raw(key), (len(size),), 0, limit, jnp.int64)
  return lax.dynamic_slice(value, tuple(offsets), size)


# ---- Shared front ends (stateful ops pass `_key(seed)`, stateless ones the seed pair) ----
def _normal_like(impl, key, shape, mean, stddev, dtype, op_name):
  shape = _shape_tuple(shape, op_name)
  mean = ops.convert_to_tensor(mean, dtype=dtype)
  stddev = ops.convert_to_tensor(stddev, dtype=dtype)
  dtype = _check_dtype(dtype, _FLOATS)
  _check_broadcast(shape, stddev, mean)
  return impl(key(), mean, stddev, shape=shape, dtype=dtype.name)


def _uniform_any(key, shape, minval, maxval, dtype, op_name):
  dtype = _check_dtype(dtype, _UNIFORM_DTYPES)
  if maxval is None:
    if dtype.is_integer:
      raise ValueError("Must specify maxval for integer dtype %r" % dtype)
    maxval = 1
  shape = _shape_tuple(shape, op_name)
  minval = ops.convert_to_tensor(minval, dtype=dtype)
  maxval = ops.convert_to_tensor(maxval, dtype=dtype)
  if dtype.is_floating:
    _check_broadcast(shape, maxval, minval)
    return _uniform(key(), minval, maxval, shape=shape, dtype=dtype.name)
  for bound, label in ((minval, "minval"), (maxval, "maxval")):
    if bound.shape.ndims != 0:
      raise _invalid("%s must be 0-D, got shape [%s]" % (
          label, ",".join(map(str, bound._shape_tuple()))), "RandomUniformInt")
  low, high = _concrete(minval), _concrete(maxval)
  if low is not None and high is not None and low >= high and np.prod(shape) > 0:
    raise _invalid("Need minval < maxval, got %s >= %s" % (low, high), "RandomUniformInt")
  return _uniform_int(key(), minval, maxval, shape=shape)


def _categorical(key, logits, num_samples, dtype):
  logits = ops.convert_to_tensor(logits)
  dtype = _check_dtype(dtype or dtypes.int64, _SAMPLE_DTYPES)
  if logits.shape.ndims != 2:
    raise _invalid("logits should be a matrix, got shape [%s]"
                   % ",".join(map(str, logits._shape_tuple())), "Multinomial")
  num_samples = int(num_samples)
  if num_samples < 0:
    raise _invalid("num_samples should be nonnegative, got %d" % num_samples, "Multinomial")
  if logits._shape_tuple()[1] == 0 and logits._shape_tuple()[0] > 0:
    raise _invalid("num_classes should be positive, got 0", "Multinomial")
  return _multinomial(key(), logits, num_samples=num_samples, dtype=dtype.name)


# ---- Public ops ----
@export("random.normal", "random_normal")
def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
  """Samples from a normal distribution."""
  return _normal_like(_normal, lambda: _key(seed), shape, mean, stddev, dtype,
                      "RandomStandardNormal")


@export("random.truncated_normal", "truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None,
                     name=None):
  """Samples from a normal distribution, resampling values beyond 2 stddev."""
  return _normal_like(_truncated_normal, lambda: _key(seed), shape, mean, stddev, dtype,
                      "TruncatedNormal")


@export("random.uniform", "random_uniform")
def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None,
                   name=None):
  """Samples uniformly from [minval, maxval) (maxval required for integer dtypes)."""
  return _uniform_any(lambda: _key(seed), shape, minval, maxval, dtype, "RandomUniform")


@export("random.shuffle", "random_shuffle")
def random_shuffle(value, seed=None, name=None):
  """Shuffles `value` along its first dimension."""
  value = ops.convert_to_tensor(value)
  if value.dtype is dtypes.string:
    if value.shape.ndims == 0:
      return value
    perm = _permutation(_key(seed), size=value._shape_tuple()[0])
    return Tensor(value._value[np.asarray(perm._value)])
  return _shuffle(_key(seed), value)


@export("random.multinomial", "multinomial")
def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
  """Draws `num_samples` class indices per row of `logits` ([batch, classes])."""
  return _categorical(lambda: _key(seed), logits, num_samples, output_dtype)


@export("random.categorical")
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
  """Draws `num_samples` class indices per row of `logits` ([batch, classes])."""
  return _categorical(lambda: _key(seed), logits, num_samples, dtype)


@export("random.gamma", "random_gamma")
def random_gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
  """Gamma samples of shape `shape + broadcast(alpha.shape, beta.shape)` (beta: rate)."""
  dtype = _check_dtype(dtype, _FLOATS)
  shape = _shape_tuple(shape, "RandomGamma")
  alpha = ops.convert_to_tensor(alpha, dtype=dtype)
  beta = ops.convert_to_tensor(1 if beta is None else beta, dtype=dtype)
  try:
    np.broadcast_shapes(alpha._shape_tuple(), beta._shape_tuple())
  except ValueError:
    raise _invalid("Incompatible shapes: [%s] vs. [%s]" % (
        ",".join(map(str, alpha._shape_tuple())), ",".join(map(str, beta._shape_tuple()))),
                   "BroadcastArgs") from None
  return _gamma(_key(seed), alpha, beta, shape=shape)


@export("random.poisson", "random_poisson")
def random_poisson(lam, shape, dtype=dtypes.float32, seed=None, name=None):
  """Poisson samples of shape `shape + lam.shape`."""
  dtype = _check_dtype(dtype, _UNIFORM_DTYPES)
  shape = _shape_tuple(shape, "RandomPoissonV2")
  lam = ops.convert_to_tensor(lam)
  _check_dtype(lam.dtype, _UNIFORM_DTYPES)
  return _poisson(_key(seed), lam, shape=shape, dtype=dtype.name)


@export("image.random_crop", "random_crop")
def random_crop(value, size, seed=None, name=None):
  """A random slice of `value` of shape `size` (one uniform offset per dimension)."""
  value = ops.convert_to_tensor(value)
  size = ops.convert_to_tensor(size, dtype=dtypes.int32)
  shape, sizes = value._shape_tuple(), tuple(int(d) for d in np.asarray(size._value))
  if len(shape) != len(sizes):
    raise _invalid("Expected begin and size arguments to be 1-D tensors of size %d, but got "
                   "shapes [%d] and [%d] instead." % (len(shape), len(sizes), len(sizes)),
                   "Slice")
  if any(s < z for s, z in zip(shape, sizes)):
    raise errors.invalid_argument(
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
        "b'Need value.shape >= size, got '\n%s\n%s"
        % (", ".join(map(str, shape)), ", ".join(map(str, sizes))))
  return _crop(_key(seed), value, size=sizes)


@export("random.stateless_normal")
def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                            name=None):
  """Normal samples that depend only on `shape` and the int pair `seed`."""
  return _normal_like(_normal, lambda: _stateless_key(seed), shape, mean, stddev, dtype,
                      "StatelessRandomNormalV2")


@export("random.stateless_truncated_normal")
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None):
  """Truncated normal samples that depend only on `shape` and the int pair `seed`."""
  return _normal_like(_truncated_normal, lambda: _stateless_key(seed), shape, mean, stddev,
                      dtype, "StatelessTruncatedNormalV2")


@export("random.stateless_uniform")
def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32,
                             name=None):
  """Uniform samples that depend only on `shape` and the int pair `seed`."""
  return _uniform_any(lambda: _stateless_key(seed), shape, minval, maxval, dtype,
                      "StatelessRandomUniformV2")


@export("random.stateless_multinomial")
def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
  """Class samples that depend only on the inputs and the int pair `seed`."""
  return _categorical(lambda: _stateless_key(seed), logits, num_samples, output_dtype)


@export("random.stateless_categorical")
def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
  """Class samples that depend only on the inputs and the int pair `seed`."""
  return _categorical(lambda: _stateless_key(seed), logits, num_samples, dtype)
