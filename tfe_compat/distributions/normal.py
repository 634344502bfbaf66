"""`tf.distributions.Normal` (and contrib's NormalWithSoftplusScale), with the Normal-Normal
KL divergence."""
import math

import jax
import jax.numpy as jnp
from jax.scipy import special

from tfe_compat.distributions import kullback_leibler
from tfe_compat.distributions import loc_scale
from tfe_compat.distributions import util
from tfe_compat.framework.ops import op


def _z(x, loc, scale):
  return (x - loc) / scale


def _full(value, *others):
  return jnp.broadcast_to(value, jnp.broadcast_shapes(value.shape, *(o.shape for o in others)))


@op(name="NormalSample")
def _sample(key, loc, scale, *, n):
  shape = (n,) + jnp.broadcast_shapes(loc.shape, scale.shape)
  return jax.random.normal(key, shape, loc.dtype) * scale + loc


@op(name="NormalLogProb")
def _log_prob(x, loc, scale):
  return -0.5 * jnp.square(_z(x, loc, scale)) - (0.5 * math.log(2.0 * math.pi) + jnp.log(scale))


@op(name="Ndtr")
def _cdf(x, loc, scale, *, upper):
  z = _z(x, loc, scale)
  return special.ndtr(-z if upper else z)


@op(name="LogNdtr")
def _log_cdf(x, loc, scale, *, upper):
  z = _z(x, loc, scale)
  return special.log_ndtr(-z if upper else z)


@op(name="Ndtri")
def _quantile(p, loc, scale):
  return special.ndtri(p) * scale + loc


@op(name="NormalEntropy")
def _entropy(loc, scale):
  return 0.5 * math.log(2.0 * math.pi * math.e) + jnp.log(_full(scale, loc))


@op(name="Mul")
def _broadcast(value, other):
  return _full(value, other)


@op(name="NormalKL")
def _kl(loc_a, scale_a, loc_b, scale_b):
  ratio = jnp.square(scale_a) / jnp.square(scale_b)
  return (jnp.square(loc_a - loc_b) / (2 * jnp.square(scale_b))
          + 0.5 * (ratio - 1 - jnp.log(ratio)))


@util.exported("Normal")
class Normal(loc_scale.LocScale):
  """The Normal distribution with mean `loc` and standard deviation `scale`."""

  _sample_op = staticmethod(_sample)
  _log_prob_op = staticmethod(_log_prob)
  _log_cdf_op = staticmethod(_log_cdf)
  _entropy_op = staticmethod(_entropy)

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
    super().__init__(loc, scale, validate_args, allow_nan_stats, name, parameters=dict(locals()))

  def _cdf(self, x):
    return _cdf(self._checked(x), self._loc, self._scale, upper=False)

  def _survival_function(self, x):
    return _cdf(self._checked(x), self._loc, self._scale, upper=True)

  def _quantile(self, p):
    util.check_operands("Mul", p, self._scale)
    return _quantile(p, self._loc, self._scale)

  def _mean(self):
    return _broadcast(self._loc, self._scale)

  def _stddev(self):
    return _broadcast(self._scale, self._loc)


NormalWithSoftplusScale = util.exported("NormalWithSoftplusScale", contrib_only=True)(
    loc_scale.with_softplus_scale(Normal, "NormalWithSoftplusScale"))


@kullback_leibler.RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a, n_b, name=None):
  return _kl(n_a.loc, n_a.scale, n_b.loc, n_b.scale)
