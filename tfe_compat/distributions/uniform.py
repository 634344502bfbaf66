"""`tf.distributions.Uniform` on [low, high)."""
import math

import jax
import jax.numpy as jnp

from tfe_compat.distributions import distribution
from tfe_compat.distributions import util
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import op
from tfe_compat.ops import check_ops
from tfe_compat.variable_scope import name_scope


def _batch(low, high):
  return jnp.broadcast_shapes(low.shape, high.shape)


@op(name="UniformSample")
def _sample(key, low, high, *, n):
  samples = jax.random.uniform(key, (n,) + _batch(low, high), low.dtype)
  return low + (high - low) * samples


@op(name="UniformProb")
def _prob(x, low, high):
  x = x * jnp.ones(_batch(low, high), x.dtype)
  inside = jnp.where((x < low) | (x >= high), jnp.zeros_like(x), jnp.ones_like(x) / (high - low))
  return jnp.where(jnp.isnan(x), x, inside)


@op(name="UniformCdf")
def _cdf(x, low, high):
  shape = jnp.broadcast_shapes(x.shape, _batch(low, high))
  broadcast_x = x * jnp.ones(shape, x.dtype)
  below = jnp.where(x < low, jnp.zeros(shape, x.dtype), (broadcast_x - low) / (high - low))
  return jnp.where(x >= high, jnp.ones(shape, x.dtype), below)


@op(name="UniformStats")
def _stat(low, high, *, which):
  span = high - low
  if which == "entropy":
    return jnp.log(span)
  if which == "mean":
    return (low + high) / 2.
  if which == "variance":
    return jnp.square(span) / 12.
  if which == "stddev":
    return span / math.sqrt(12.)
  return span


@util.exported("Uniform")
class Uniform(distribution.Distribution):
  """The uniform distribution on [low, high)."""

  def __init__(self, low=0., high=1., validate_args=False, allow_nan_stats=True,
               name="Uniform"):
    parameters = dict(locals())
    with name_scope(name) as name:
      if validate_args:
        check_ops.assert_less(low, high, message="uniform not defined when low >= high.")
      self._low = util.param(low)
      self._high = util.param(high)
      util.same_float_dtype([self._low, self._high])
    super().__init__(dtype=self._low.dtype,
                     reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters, graph_parents=[self._low, self._high], name=name)

  @staticmethod
  def _param_shapes(sample_shape):
    shape = ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)
    return {"low": shape, "high": shape}

  low = property(lambda self: self._low)
  high = property(lambda self: self._high)

  def range(self, name="range"):
    """`high - low`."""
    return _stat(self._low, self._high, which="range")

  def _event_shape(self):
    return tensor_shape.TensorShape([])

  def _batch_shape(self):
    return util.broadcast_shape(self._low, self._high)

  def _sample_n(self, n, seed=None):
    return _sample(util.rng_key(seed), self._low, self._high, n=n)

  def _prob(self, x):
    util.check_operands("Less", x, self._low)
    return _prob(x, self._low, self._high)

  def _cdf(self, x):
    util.check_operands("Less", x, self._low)
    return _cdf(x, self._low, self._high)

  def _entropy(self):
    return _stat(self._low, self._high, which="entropy")

  def _mean(self):
    return _stat(self._low, self._high, which="mean")

  def _variance(self):
    return _stat(self._low, self._high, which="variance")

  def _stddev(self):
    return _stat(self._low, self._high, which="stddev")
