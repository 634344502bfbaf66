"""`tf.distributions.Laplace` (and contrib's LaplaceWithSoftplusScale)."""
import math

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.distributions import distribution
from tfe_compat.distributions import util
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import op
from tfe_compat.ops import check_ops
from tfe_compat.ops import nn_ops
from tfe_compat.variable_scope import name_scope


def _z(x, loc, scale):
  return (x - loc) / scale


def _log_cdf_laplace(z):
  """TF's `special_math.log_cdf_laplace`."""
  return jnp.where(z < 0., -math.log(2.) + z, jnp.log1p(-0.5 * jnp.exp(-jnp.abs(z))))


@op(name="LaplaceSample")
def _sample(key, loc, scale, *, n):
  shape = (n,) + jnp.broadcast_shapes(loc.shape, scale.shape)
  low = np.nextafter(np.array(-1.0, loc.dtype), np.array(0.0, loc.dtype))
  u = jax.random.uniform(key, shape, loc.dtype, minval=low, maxval=1.0)
  return loc - scale * jnp.sign(u) * jnp.log1p(-jnp.abs(u))


@op(name="LaplaceLogProb")
def _log_prob(x, loc, scale):
  return -jnp.abs(_z(x, loc, scale)) - (math.log(2.0) + jnp.log(scale))


@op(name="LaplaceCdf")
def _cdf(x, loc, scale):
  z = _z(x, loc, scale)
  return 0.5 + 0.5 * jnp.sign(z) * (1.0 - jnp.exp(-jnp.abs(z)))


@op(name="LaplaceLogCdf")
def _log_cdf(x, loc, scale, *, upper):
  z = _z(x, loc, scale)
  return _log_cdf_laplace(-z if upper else z)


@op(name="LaplaceEntropy")
def _entropy(loc, scale):
  return math.log(2.0) + 1.0 + jnp.log(scale + jnp.zeros_like(loc))


@op(name="LaplaceStats")
def _stat(loc, scale, *, which):
  if which == "mean":
    return loc + jnp.zeros_like(scale)
  return math.sqrt(2.0) * scale + jnp.zeros_like(loc)


@util.exported("Laplace")
class Laplace(distribution.Distribution):
  """The Laplace distribution with location `loc` and scale `scale`."""

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
    parameters = dict(locals())
    with name_scope(name) as name:
      if validate_args:
        check_ops.assert_positive(scale)
      self._loc = util.param(loc)
      self._scale = util.param(scale)
      util.same_float_dtype([self._loc, self._scale])
      super().__init__(dtype=self._loc.dtype,
                       reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                       validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                       parameters=parameters, graph_parents=[self._loc, self._scale],
                       name=name)

  @staticmethod
  def _param_shapes(sample_shape):
    shape = ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)
    return {"loc": shape, "scale": shape}

  loc = property(lambda self: self._loc)
  scale = property(lambda self: self._scale)

  def _event_shape(self):
    return tensor_shape.TensorShape([])

  def _batch_shape(self):
    return util.broadcast_shape(self._loc, self._scale)

  def _sample_n(self, n, seed=None):
    return _sample(util.rng_key(seed), self._loc, self._scale, n=n)

  def _checked(self, x):
    util.check_operands("Sub", x, self._loc)
    return x

  def _log_prob(self, x):
    return _log_prob(self._checked(x), self._loc, self._scale)

  def _cdf(self, x):
    return _cdf(self._checked(x), self._loc, self._scale)

  def _log_cdf(self, x):
    return _log_cdf(self._checked(x), self._loc, self._scale, upper=False)

  def _log_survival_function(self, x):
    return _log_cdf(self._checked(x), self._loc, self._scale, upper=True)

  def _entropy(self):
    return _entropy(self._loc, self._scale)

  def _mean(self):
    return _stat(self._loc, self._scale, which="mean")

  def _stddev(self):
    return _stat(self._loc, self._scale, which="stddev")

  def _mode(self):
    return self._mean()


@util.exported("LaplaceWithSoftplusScale", contrib_only=True)
class LaplaceWithSoftplusScale(Laplace):
  """Laplace with `scale = softplus(scale)`."""

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True,
               name="LaplaceWithSoftplusScale"):
    parameters = dict(locals())
    with name_scope(name) as name:
      super().__init__(loc=loc, scale=nn_ops.softplus(scale), validate_args=validate_args,
                       allow_nan_stats=allow_nan_stats, name=name)
    self._parameters = {k: v for k, v in parameters.items() if k != "self"}
