"""`tf.random.experimental.Generator`: TF 1.15's stateful random-number generator.

The state is an int64 Variable `[counter_lo, counter_hi, key]` (Philox-4x32-10), laid out
and advanced as TF's kernels do: a draw of N values reads the state, generates from it and
skips the 128-bit counter by 256 * N. The bits are TF's own, so uniform floats and all
integer draws equal TF's exactly, on every device. Normal and truncated-normal values use
TF's Box-Muller transform with log/sin/cos evaluated in float64: on CPU float64 values match
TF's CPU values and float32 ones differ by 1 ulp for about 1.5% of values (TF calls glibc's
logf/sincosf, which do not always round correctly); on GPU both differ from TF's CPU values
by at most about 1 ulp in more values (TF's own GPU kernels differ from its CPU ones too).
`binomial` advances the state exactly as TF does but draws with jax.random from a key taken
from the state, so its values are not TF's. ThreeFry states can be created but not drawn
from (TF's CPU/GPU kernels do not support it either).
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.framework.trackable import Trackable
from tfe_compat.ops import array_ops
from tfe_compat.ops import random_ops
from tfe_compat import variables

RNG_ALG_PHILOX = 1
RNG_ALG_THREEFRY = 2
DEFAULT_ALGORITHM = RNG_ALG_PHILOX
PHILOX_STATE_SIZE = 3
THREEFRY_STATE_SIZE = 2
STATE_TYPE = dtypes.int64
_SEED_MAX = 2**63 - 1
_M0, _M1, _W0, _W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
_SKIP_PER_OUTPUT = 256  # TF reserves 256 Philox blocks for every output element
_TRUNCATED_BLOCKS = 8   # Philox blocks tried per truncated-normal output group
# random_ops' argument checks, with TF's messages (shared with the stateless ops)
_shape_tuple = random_ops._shape_tuple  # pylint: disable=protected-access
_check_dtype = random_ops._check_dtype  # pylint: disable=protected-access
_check_broadcast = random_ops._check_broadcast  # pylint: disable=protected-access
_concrete = random_ops._concrete  # pylint: disable=protected-access
_FLOATS = random_ops._FLOATS  # pylint: disable=protected-access


# ---- Philox-4x32-10, as TF's random::PhiloxRandom ----
def _philox(counter, key):
  """Philox outputs for a list of 4 uint32 counter words (arrays) and 2 key words."""
  c0, c1, c2, c3 = counter
  k0, k1 = key
  for i in range(10):
    p0 = c0.astype(jnp.uint64) * jnp.uint64(_M0)
    p1 = c2.astype(jnp.uint64) * jnp.uint64(_M1)
    c0, c1, c2, c3 = ((p1 >> 32).astype(jnp.uint32) ^ c1 ^ k0, p1.astype(jnp.uint32),
                      (p0 >> 32).astype(jnp.uint32) ^ c3 ^ k1, p0.astype(jnp.uint32))
    if i < 9:
      k0, k1 = k0 + jnp.uint32(_W0), k1 + jnp.uint32(_W1)
  return jnp.stack([c0, c1, c2, c3], axis=-1)


def _words(value):
  return value.astype(jnp.uint32), (value >> 32).astype(jnp.uint32)


def _skip(state, delta):
  """The int64 state with its 128-bit counter advanced by `delta` (uint64 array)."""
  words = lax.bitcast_convert_type(state, jnp.uint64)
  low = words[0] + delta
  high = words[1] + (low < words[0]).astype(jnp.uint64)
  return lax.bitcast_convert_type(jnp.stack([low, high, words[2]]), jnp.int64)


def _blocks(state, offsets):
  """uint32 [..., 4]: the Philox blocks at counter + offsets (uint64 array)."""
  words = lax.bitcast_convert_type(state, jnp.uint64)
  low = words[0] + offsets
  high = words[1] + (low < words[0]).astype(jnp.uint64)
  return _philox(_words(low) + _words(high), _words(words[2]))


# ---- TF's distributions over Philox output (random_distributions.h) ----
def _float32_unit(bits):
  return lax.bitcast_convert_type((bits & 0x7FFFFF) | 0x3F800000, jnp.float32) - 1.0


def _float64_unit(high, low):
  mantissa = ((high & 0xFFFFF).astype(jnp.uint64) << 32) | low.astype(jnp.uint64)
  return lax.bitcast_convert_type(mantissa | (np.uint64(1023) << 52), jnp.float64) - 1.0


def _float16_unit(bits, dtype):
  if dtype == jnp.float16:
    raw = (bits & 0x3FF).astype(jnp.uint16) | jnp.uint16(15 << 10)
  else:
    raw = (bits & 0x7F).astype(jnp.uint16) | jnp.uint16(127 << 7)
  one = jnp.asarray(1, dtype)
  return lax.bitcast_convert_type(raw, dtype) - one


def _to_float32(x):
  """A float64 value rounded to float32, also where XLA allows excess precision (GPUs)."""
  return lax.reduce_precision(x, exponent_bits=8, mantissa_bits=23).astype(jnp.float32)


def _box_muller_float(x0, x1):
  """TF's BoxMullerFloat; its libm calls are evaluated in float64 and rounded."""
  u1 = jnp.maximum(_float32_unit(x0), jnp.float32(1e-7))
  v1 = _to_float32(2 * np.pi * _float32_unit(x1).astype(jnp.float64)).astype(jnp.float64)
  u2 = jnp.sqrt(jnp.float32(-2.0) * _to_float32(jnp.log(u1.astype(jnp.float64))))
  return _to_float32(jnp.sin(v1)) * u2, _to_float32(jnp.cos(v1)) * u2


def _box_muller_double(x0, x1, x2, x3):
  u1 = jnp.maximum(_float64_unit(x0, x1), 1e-7)
  v1 = 2 * np.pi * _float64_unit(x2, x3)
  u2 = jnp.sqrt(-2.0 * jnp.log(u1))
  return jnp.sin(v1) * u2, jnp.cos(v1) * u2


def _group_values(block, kind, dtype, low, high):
  """The output values of one Philox block ([..., 4] uint32) for `kind` and `dtype`."""
  x = [block[..., i] for i in range(4)]
  wide = dtype in (jnp.float64, jnp.int64, jnp.uint64)
  if kind == "normal":
    if wide:
      return jnp.stack(_box_muller_double(*x), axis=-1)
    pairs = _box_muller_float(x[0], x[1]) + _box_muller_float(x[2], x[3])
    values = jnp.stack(pairs, axis=-1)
    return values if dtype == jnp.float32 else _to_float32(values).astype(dtype)
  if kind == "uniform":
    if dtype == jnp.float64:
      return jnp.stack([_float64_unit(x[0], x[1]), _float64_unit(x[2], x[3])], axis=-1)
    if dtype == jnp.float32:
      return _float32_unit(block)
    return _float16_unit(block, dtype)
  # integers: "full" (every bit pattern) or "int" (low + bits % span)
  if wide:
    bits = jnp.stack([x[0].astype(jnp.uint64) | (x[1].astype(jnp.uint64) << 32),
                      x[2].astype(jnp.uint64) | (x[3].astype(jnp.uint64) << 32)], axis=-1)
  else:
    bits = block
  if kind == "full":
    return lax.bitcast_convert_type(bits, dtype)
  span = lax.bitcast_convert_type(high - low, bits.dtype)  # TF's unsigned range
  return low + lax.bitcast_convert_type(bits % span, dtype)


def _truncated_group(state, groups, dtype):
  """TF's TruncatedNormalDistribution: group g reads blocks from counter + g * skip on."""
  wide = dtype == jnp.float64
  per_group = 2 if wide else 4
  skip = per_group * _SKIP_PER_OUTPUT // 4
  offsets = (jnp.arange(groups, dtype=jnp.uint64)[:, None] * jnp.uint64(skip)
             + jnp.arange(_TRUNCATED_BLOCKS, dtype=jnp.uint64)[None, :])
  blocks = _blocks(state, offsets)  # [groups, blocks, 4]
  x = [blocks[..., i] for i in range(4)]
  if wide:
    pairs = _box_muller_double(*x)
  else:
    pairs = _box_muller_float(x[0], x[1]) + _box_muller_float(x[2], x[3])
  candidates = jnp.stack(pairs, axis=-1).reshape(groups, -1)  # in TF's stream order
  accepted = jnp.abs(candidates) < 2.0
  rank = jnp.cumsum(accepted, axis=-1) - 1
  picked = [jnp.sum(jnp.where(accepted & (rank == j), candidates, 0), axis=-1)
            for j in range(per_group)]
  values = jnp.stack(picked, axis=-1)
  return values if dtype in (jnp.float32, jnp.float64) else _to_float32(values).astype(dtype)


@op(name="StatefulRandomDraw", differentiable=False)
def _draw(state, low, high, *, shape, kind, dtype):
  """(values of `shape`, the advanced state) for one draw of TF's stateful ops."""
  dtype = jnp.dtype(dtype)
  size = int(np.prod(shape, dtype=np.int64))
  per_group = 2 if dtype in (jnp.float64, jnp.int64, jnp.uint64) else 4
  groups = -(-size // per_group)
  if kind == "truncated":
    values = _truncated_group(state, groups, dtype)
  else:
    blocks = _blocks(state, jnp.arange(groups, dtype=jnp.uint64))
    values = _group_values(blocks, kind, dtype, low, high)
  new_state = _skip(state, jnp.uint64(size * _SKIP_PER_OUTPUT))
  return values.reshape(-1)[:size].reshape(shape), new_state


@op(name="RngSkip", differentiable=False)
def _advance(state, delta):
  return _skip(state, delta.astype(jnp.uint64) * jnp.uint64(_SKIP_PER_OUTPUT))


@op(name="StatefulRandomBinomial", differentiable=False)
def _binomial(state, counts, probs, *, shape, dtype, delta):
  key = _blocks(state, jnp.zeros((), jnp.uint64))[:2]
  counts, probs = jnp.broadcast_to(counts, shape), jnp.broadcast_to(probs, shape)
  values = jax.random.binomial(key, counts, probs, shape, dtype=counts.dtype)
  return values.astype(dtype), _skip(state, jnp.uint64(delta * _SKIP_PER_OUTPUT))


@op(name="AddV2")
def _scale_shift(x, scale, shift):
  return x * scale + shift


@op(name="AddV2")
def _to_range(x, minval, maxval):
  return x * (maxval - minval) + minval


# ---- States ----
def _state_size(alg):
  if alg == RNG_ALG_PHILOX:
    return PHILOX_STATE_SIZE
  if alg == RNG_ALG_THREEFRY:
    return THREEFRY_STATE_SIZE
  raise ValueError("Unsupported algorithm id: %s" % alg)


def _alg_id(alg):
  if isinstance(alg, str):
    names = {"philox": RNG_ALG_PHILOX, "threefry": RNG_ALG_THREEFRY}
    if alg not in names:
      raise ValueError("Unknown algorithm name: %s" % alg)
    return names[alg]
  return int(alg)


def _wrap_uint64(value):
  """Python ints above int64's range wrap to negative int64 words, as TF's `_uint_to_int`."""
  if isinstance(value, (list, tuple)):
    return [_wrap_uint64(v) for v in value]
  if isinstance(value, int) and value > _SEED_MAX:
    return value - 2**64
  return value


def _state_tensor(value):
  """An int64 Tensor from ints, a vector of them, an array, a Tensor or a Variable."""
  if hasattr(value, "numpy"):
    value = value.numpy()
  return ops.convert_to_tensor(np.asarray(_wrap_uint64(value)).astype(np.int64))


@export("random.experimental.create_rng_state")
def create_rng_state(seed, algorithm):
  """The RNG state for an integer seed (split into 64-bit words) or a vector of words."""
  size = _state_size(_alg_id(algorithm))
  if isinstance(seed, int):
    words = []
    for _ in range(size):
      words.append(seed & 0xFFFFFFFFFFFFFFFF)
      seed >>= 64
    seed = words
  words = np.reshape(_state_tensor(seed).numpy(), [-1])[:size]  # zeros pad on the left
  return ops.convert_to_tensor(np.concatenate([np.zeros(size - words.size, np.int64), words]))


def _check_shape(state, alg):
  shape = tensor_shape.as_shape(state.shape)
  shape.assert_is_compatible_with([_state_size(alg)])


@export("random.experimental.Generator")
class Generator(Trackable):
  """A random-number generator whose state lives in a Variable (Philox-4x32-10)."""

  def __init__(self, copy_from=None, state=None, alg=None):
    if copy_from is not None:
      assert (alg or state) is None
      self._state_var = variables.Variable(copy_from.state, dtype=STATE_TYPE,
                                           trainable=False)
      self._alg = copy_from.algorithm
      return
    assert alg is not None and state is not None
    alg = _alg_id(alg)
    if isinstance(state, variables.Variable):
      _check_shape(state, alg)
      self._state_var = state
    else:
      state = _state_tensor(state)
      _check_shape(state, alg)
      self._state_var = variables.Variable(state, dtype=STATE_TYPE, trainable=False)
    self._alg = alg

  @classmethod
  def from_state(cls, state, alg):
    return cls(state=state, alg=alg)

  @classmethod
  def from_seed(cls, seed, alg=None):
    alg = DEFAULT_ALGORITHM if alg is None else _alg_id(alg)
    return cls(state=create_rng_state(seed, alg), alg=alg)

  @classmethod
  def from_non_deterministic_state(cls, alg=None):
    alg = DEFAULT_ALGORITHM if alg is None else _alg_id(alg)
    words = np.frombuffer(os.urandom(8 * _state_size(alg)), np.int64)
    return cls(state=words.copy(), alg=alg)

  @classmethod
  def from_key_counter(cls, key, counter, alg):
    alg = _alg_id(alg)
    return cls(state=_key_counter_state(key, counter, alg), alg=alg)

  def reset(self, state):
    state = _state_tensor(state)
    _check_shape(state, self._alg)
    self._state_var.assign(state, read_value=False)

  def reset_from_seed(self, seed):
    self._state_var.assign(create_rng_state(seed, self._alg), read_value=False)

  def reset_from_key_counter(self, key, counter):
    self._state_var.assign(_key_counter_state(key, counter, self._alg), read_value=False)

  @property
  def state(self):
    return self._state_var

  @property
  def algorithm(self):
    return self._alg

  @property
  def key(self):
    """The 'key' word of the state (the last one)."""
    return self._state_var[-1]

  def _philox_state(self, op_name):
    if self._alg != RNG_ALG_PHILOX:
      raise errors.UnimplementedError(
          None, None, "tfe_compat's Generator draws with the Philox algorithm only; "
          "algorithm %d (ThreeFry) is not supported [Op:%s]" % (self._alg, op_name))
    return ops.convert_to_tensor(self._state_var)

  def _draw(self, shape, kind, dtype, op_name, low=0, high=1):
    state = self._philox_state(op_name)
    low, high = (ops.convert_to_tensor(v, dtype=dtype) for v in (low, high))
    values, new_state = _draw(state, low, high, shape=shape, kind=kind, dtype=dtype.name)
    self._state_var.assign(new_state, read_value=False)
    return values

  def skip(self, delta):
    """Advances the counter as `delta` drawn values would."""
    state = self._philox_state("RngSkip")
    self._state_var.assign(_advance(state, ops.convert_to_tensor(delta, dtypes.int64)),
                           read_value=False)

  def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
    """Normal values (TF's Box-Muller over Philox)."""
    return self._normal_like("normal", shape, mean, stddev, dtype, "StatefulStandardNormalV2")

  def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
    """Normal values with those beyond 2 standard deviations redrawn."""
    return self._normal_like("truncated", shape, mean, stddev, dtype,
                             "StatefulTruncatedNormal")

  def _normal_like(self, kind, shape, mean, stddev, dtype, op_name):
    shape = _shape_tuple(shape, op_name)
    mean = ops.convert_to_tensor(mean, dtype=dtype)
    stddev = ops.convert_to_tensor(stddev, dtype=dtype)
    dtype = _check_dtype(dtype, _FLOATS)
    _check_broadcast(shape, stddev, mean)
    return _scale_shift(self._draw(shape, kind, dtype, op_name), stddev, mean)

  def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
    """Uniform values in [minval, maxval) (maxval required for integer dtypes)."""
    dtype = dtypes.as_dtype(dtype)
    if maxval is None:
      if dtype.is_integer:
        raise ValueError("Must specify maxval for integer dtype %r" % dtype)
      maxval = 1
    op_name = "StatefulUniformInt" if dtype.is_integer else "StatefulUniform"
    shape = _shape_tuple(shape, op_name)
    minval = ops.convert_to_tensor(minval, dtype=dtype)
    maxval = ops.convert_to_tensor(maxval, dtype=dtype)
    if not dtype.is_integer:
      dtype = _check_dtype(dtype, _FLOATS)
      return _to_range(self._draw(shape, "uniform", dtype, op_name), minval, maxval)
    if dtype not in (dtypes.int32, dtypes.int64):
      raise errors.invalid_argument("Value for attr 'dtype' of %s is not in the list of "
                                    "allowed values: int32, int64 [Op:%s]"
                                    % (dtype.name, op_name))
    for bound, label in ((minval, "minval"), (maxval, "maxval")):
      if bound.shape.ndims != 0:
        raise errors.invalid_argument("%s must be 0-D, got shape %s [Op:%s]" % (
            label, "[%s]" % ",".join(map(str, bound._shape_tuple())), op_name))
    low, high = (_concrete(v) for v in (minval, maxval))
    if low is not None and high is not None and low >= high:
      raise errors.invalid_argument("Need minval < maxval, got %d >= %d [Op:%s]"
                                    % (low, high, op_name))
    return self._draw(shape, "int", dtype, op_name, low=minval, high=maxval)

  def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
    """Integers over the whole range of `dtype`."""
    dtype = dtypes.as_dtype(dtype)
    op_name = "StatefulUniformFullInt"
    shape = _shape_tuple(shape, op_name)
    if dtype not in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):
      raise errors.invalid_argument("Value for attr 'dtype' of %s is not in the list of "
                                    "allowed values: int32, int64, uint32, uint64 [Op:%s]"
                                    % (dtype.name, op_name))
    return self._draw(shape, "full", dtype, op_name)

  def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
    """Binomial counts; `shape` must end with broadcast(counts, probs).shape."""
    dtype = dtypes.as_dtype(dtype)
    counts = ops.convert_to_tensor(counts)
    probs = ops.convert_to_tensor(probs)
    op_name = "StatefulRandomBinomial"
    shape = _shape_tuple(shape, op_name)
    floats = (dtypes.float16, dtypes.float32, dtypes.float64)
    if counts.dtype not in floats or probs.dtype is not counts.dtype or dtype not in floats + (
        dtypes.int32, dtypes.int64):
      raise errors.invalid_argument(
          "No OpKernel was registered to support Op '%s' with these attrs: [T=%s, dtype=%s] "
          "[Op:%s]" % (op_name, counts.dtype.name, dtype.name, op_name))
    batch = np.broadcast_shapes(counts._shape_tuple(), probs._shape_tuple())
    if len(batch) > len(shape) or tuple(shape[len(shape) - len(batch):]) != batch:
      raise errors.invalid_argument("Shape passed in must end with broadcasted shape. [Op:%s]"
                                    % op_name)
    num_batches = int(np.prod(batch, dtype=np.int64))
    per_batch = int(np.prod(shape, dtype=np.int64)) // max(num_batches, 1)
    delta = num_batches * 2 * 100 * (per_batch + 3) // 4  # TF's reservation
    state = self._philox_state(op_name)
    values, new_state = _binomial(state, counts, probs, shape=shape, dtype=dtype.name,
                                  delta=delta)
    self._state_var.assign(new_state, read_value=False)
    return values

  def make_seeds(self, count=1):
    """int64 [2, count]: seeds for the stateless random ops."""
    keys = self.uniform_full_int([count], dtypes.int64)
    return array_ops.stack([keys, array_ops.zeros_like(keys)])

  def split(self, count=1):
    """`count` new independent Generators (this one's state advances)."""
    keys = self.uniform_full_int([count], dtypes.int64).numpy()
    size = _state_size(self._alg)
    return [Generator(state=[0] * (size - 1) + [int(k)], alg=self._alg) for k in keys]


def _key_counter_state(key, counter, alg):
  counter = _state_tensor(counter)
  key = _state_tensor(key)
  counter.shape.assert_is_compatible_with([_state_size(alg) - 1])
  key.shape.assert_is_compatible_with([])
  return array_ops.concat([counter, array_ops.reshape(key, [1])], 0)


_global_generator = None


@export("random.experimental.get_global_generator")
def get_global_generator():
  """The process-wide Generator (non-deterministically seeded on first use)."""
  global _global_generator  # pylint: disable=global-statement
  if _global_generator is None:
    _global_generator = Generator.from_non_deterministic_state()
  return _global_generator


@export("random.experimental.set_global_generator")
def set_global_generator(generator):
  """Replaces the global Generator."""
  global _global_generator  # pylint: disable=global-statement
  _global_generator = generator
