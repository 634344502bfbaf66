"""`tf.distributions.Gamma` and `Exponential` (a Gamma with concentration 1), with the
Gamma-Gamma KL divergence (which Exponential pairs use too), and contrib's softplus forms."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special

from tfe_compat.distributions import distribution
from tfe_compat.distributions import kullback_leibler
from tfe_compat.distributions import util
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import op
from tfe_compat.ops import array_ops
from tfe_compat.ops import check_ops
from tfe_compat.ops import nn_ops
from tfe_compat.variable_scope import name_scope


def random_gamma(key, alpha, shape, beta=1.):
  """TF's `random_gamma(shape, alpha, beta)`: samples of `shape + alpha.shape`, at least
  `tiny`; jax's gamma sampler is implicitly reparameterized, so they carry gradients."""
  sample = jax.random.gamma(key, jnp.broadcast_to(alpha, shape + alpha.shape),
                            dtype=alpha.dtype)
  return jnp.maximum(jnp.finfo(alpha.dtype).tiny, sample / beta)


def _batch(concentration, rate):
  return jnp.broadcast_shapes(concentration.shape, rate.shape)


@op(name="RandomGamma")
def _sample(key, concentration, rate, *, n):
  alpha = jnp.broadcast_to(concentration, _batch(concentration, rate))
  return random_gamma(key, alpha, (n,), rate)


def _log_density(x, concentration, rate):
  return (special.xlogy(concentration - 1., x) - rate * x
          - (special.gammaln(concentration) - concentration * jnp.log(rate)))


@op(name="GammaLogProb")
def _log_prob(x, concentration, rate):
  return _log_density(x, concentration, rate)


@op(name="Igamma")
def _cdf(x, concentration, rate):
  return special.gammainc(concentration, rate * x)


@op(name="GammaStats")
def _stat(concentration, rate, *, which):
  if which == "entropy":
    return (concentration - jnp.log(rate) + special.gammaln(concentration)
            + (1. - concentration) * special.digamma(concentration))
  if which == "mean":
    return concentration / rate
  if which == "variance":
    return concentration / jnp.square(rate)
  return jnp.sqrt(concentration) / rate


@op(name="GammaMode")
def _mode(concentration, rate, *, nan):
  mode = (concentration - 1.) / rate
  if not nan:
    return mode
  return jnp.where(concentration > 1., mode, jnp.full(_batch(concentration, rate), jnp.nan,
                                                       mode.dtype))


@op(name="ExponentialSample")
def _exponential_sample(key, rate, *, n):
  tiny = np.finfo(rate.dtype).tiny
  u = jax.random.uniform(key, (n,) + rate.shape, rate.dtype, minval=tiny, maxval=1.)
  return -jnp.log(u) / rate


@op(name="ExponentialLogSurvival")
def _exponential_log_survival(x, concentration, rate):
  return _log_density(x, concentration, rate) - jnp.log(rate)


@op(name="GammaKL")
def _kl(c0, r0, c1, r1):
  return ((c0 - c1) * special.digamma(c0) + special.gammaln(c1) - special.gammaln(c0)
          + c1 * jnp.log(r0) - c1 * jnp.log(r1) + c0 * (r1 / r0 - 1.))


@util.exported("Gamma")
class Gamma(distribution.Distribution):
  """The Gamma distribution with `concentration` (shape) and `rate` (inverse scale)."""

  def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
               name="Gamma"):
    parameters = dict(locals())
    with name_scope(name) as name:
      if validate_args:
        check_ops.assert_positive(concentration)
        check_ops.assert_positive(rate)
      self._concentration = util.param(concentration)
      self._rate = util.param(rate)
      util.same_float_dtype([self._concentration, self._rate])
    super().__init__(dtype=self._concentration.dtype,
                     reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters,
                     graph_parents=[self._concentration, self._rate], name=name)

  @staticmethod
  def _param_shapes(sample_shape):
    shape = ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)
    return {"concentration": shape, "rate": shape}

  concentration = property(lambda self: self._concentration)
  rate = property(lambda self: self._rate)

  def _event_shape(self):
    return tensor_shape.TensorShape([])

  def _batch_shape(self):
    return util.broadcast_shape(self._concentration, self._rate)

  def _sample_n(self, n, seed=None):
    return _sample(util.rng_key(seed), self._concentration, self._rate, n=n)

  def _checked(self, x):
    util.same_float_dtype([x], dtype=self.dtype)
    if self.validate_args:
      check_ops.assert_positive(x)
    return x

  def _log_prob(self, x):
    return _log_prob(self._checked(x), self._concentration, self._rate)

  def _cdf(self, x):
    return _cdf(self._checked(x), self._concentration, self._rate)

  def _entropy(self):
    return _stat(self._concentration, self._rate, which="entropy")

  def _mean(self):
    return _stat(self._concentration, self._rate, which="mean")

  def _variance(self):
    return _stat(self._concentration, self._rate, which="variance")

  def _stddev(self):
    return _stat(self._concentration, self._rate, which="stddev")

  def _mode(self):
    if not self.allow_nan_stats:
      util.require_above_one(self._concentration,
                             "mode not defined when any concentration <= 1")
    return _mode(self._concentration, self._rate, nan=self.allow_nan_stats)


@util.exported("Exponential")
class Exponential(Gamma):
  """The Exponential distribution with `rate`: Gamma(1, rate)."""

  def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
    parameters = dict(locals())
    with name_scope(name) as name:
      self._rate = util.param(rate)
    super().__init__(concentration=array_ops.ones([], dtype=self._rate.dtype), rate=self._rate,
                     allow_nan_stats=allow_nan_stats, validate_args=validate_args, name=name)
    self._parameters = {k: v for k, v in parameters.items() if k != "self"}
    self._graph_parents += [self._rate]

  @staticmethod
  def _param_shapes(sample_shape):
    return {"rate": ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)}

  def _log_survival_function(self, value):
    return _exponential_log_survival(self._checked(value), self._concentration, self._rate)

  def _sample_n(self, n, seed=None):
    return _exponential_sample(util.rng_key(seed), self._rate, n=n)


@util.exported("GammaWithSoftplusConcentrationRate", contrib_only=True)
class GammaWithSoftplusConcentrationRate(Gamma):
  """Gamma with `softplus` applied to both parameters."""

  def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
               name="GammaWithSoftplusConcentrationRate"):
    parameters = dict(locals())
    with name_scope(name) as name:
      super().__init__(concentration=nn_ops.softplus(concentration),
                       rate=nn_ops.softplus(rate), validate_args=validate_args,
                       allow_nan_stats=allow_nan_stats, name=name)
    self._parameters = {k: v for k, v in parameters.items() if k != "self"}


@util.exported("ExponentialWithSoftplusRate", contrib_only=True)
class ExponentialWithSoftplusRate(Exponential):
  """Exponential with `rate = softplus(rate)`."""

  def __init__(self, rate, validate_args=False, allow_nan_stats=True,
               name="ExponentialWithSoftplusRate"):
    parameters = dict(locals())
    with name_scope(name) as name:
      super().__init__(rate=nn_ops.softplus(rate), validate_args=validate_args,
                       allow_nan_stats=allow_nan_stats, name=name)
    self._parameters = {k: v for k, v in parameters.items() if k != "self"}


@kullback_leibler.RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0, g1, name=None):
  return _kl(g0.concentration, g0.rate, g1.concentration, g1.rate)
