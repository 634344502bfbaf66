"""`tf.distributions.Laplace` (and contrib's LaplaceWithSoftplusScale)."""
import math

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.distributions import loc_scale
from tfe_compat.distributions import util
from tfe_compat.framework.ops import op


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
class Laplace(loc_scale.LocScale):
  """The Laplace distribution with location `loc` and scale `scale`."""

  _sample_op = staticmethod(_sample)
  _log_prob_op = staticmethod(_log_prob)
  _log_cdf_op = staticmethod(_log_cdf)
  _entropy_op = staticmethod(_entropy)

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
    super().__init__(loc, scale, validate_args, allow_nan_stats, name, parameters=dict(locals()))

  def _cdf(self, x):
    return _cdf(self._checked(x), self._loc, self._scale)

  def _mean(self):
    return _stat(self._loc, self._scale, which="mean")

  def _stddev(self):
    return _stat(self._loc, self._scale, which="stddev")


LaplaceWithSoftplusScale = util.exported("LaplaceWithSoftplusScale", contrib_only=True)(
    loc_scale.with_softplus_scale(Laplace, "LaplaceWithSoftplusScale"))
