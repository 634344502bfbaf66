"""`tf.distributions.Beta` (and contrib's BetaWithSoftplusConcentration), with the Beta-Beta
KL divergence."""
import jax.numpy as jnp
from jax.scipy import special

from tfe_compat.distributions import distribution
from tfe_compat.distributions import kullback_leibler
from tfe_compat.distributions import util
from tfe_compat.distributions.gamma import random_gamma
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import op
from tfe_compat.ops import array_ops
from tfe_compat.ops import check_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops import nn_ops
from tfe_compat.variable_scope import name_scope


def _log_normalization(c1, c0):
  return special.gammaln(c1) + special.gammaln(c0) - special.gammaln(c1 + c0)


@op(name="BetaSample")
def _sample(key, c1, c0, *, n):
  total = c1 + c0
  gammas = random_gamma(key, jnp.stack([jnp.ones_like(total) * c1, jnp.ones_like(total) * c0]),
                        (n,))  # both of TF's gamma draws in one sampler: [n, 2, batch...]
  return gammas[:, 0] / (gammas[:, 0] + gammas[:, 1])


@op(name="BetaLogProb")
def _log_prob(x, c1, c0):
  return (special.xlogy(c1 - 1., x) + (c0 - 1.) * jnp.log1p(-x)) - _log_normalization(c1, c0)


@op(name="Betainc")
def _cdf(x, c1, c0):
  shape = jnp.broadcast_shapes(x.shape, c1.shape, c0.shape)
  return special.betainc(*(jnp.broadcast_to(v, shape) for v in (c1, c0, x)))


@op(name="BetaStats")
def _stat(c1, c0, *, which):
  total = c1 + c0
  if which == "entropy":
    return (_log_normalization(c1, c0) - (c1 - 1.) * special.digamma(c1)
            - (c0 - 1.) * special.digamma(c0) + (total - 2.) * special.digamma(total))
  mean = c1 / total
  if which == "mean":
    return mean
  return mean * (1. - mean) / (1. + total)


@op(name="BetaMode")
def _mode(c1, c0, *, nan):
  mode = (c1 - 1.) / (c1 + c0 - 2.)
  if not nan:
    return mode
  return jnp.where((c1 > 1.) & (c0 > 1.), mode, jnp.full(mode.shape, jnp.nan, mode.dtype))


@op(name="BetaKL")
def _kl(a1, a0, b1, b0):
  return (_log_normalization(b1, b0) - _log_normalization(a1, a0)
          - special.digamma(a1) * (b1 - a1) - special.digamma(a0) * (b0 - a0)
          + special.digamma(a1 + a0) * ((b1 + b0) - (a1 + a0)))


@util.exported("Beta")
class Beta(distribution.Distribution):
  """The Beta distribution on (0, 1) with `concentration1` (alpha), `concentration0` (beta)."""

  def __init__(self, concentration1=None, concentration0=None, validate_args=False,
               allow_nan_stats=True, name="Beta"):
    parameters = dict(locals())
    with name_scope(name) as name:
      self._concentration1 = self._valid_concentration(util.param(concentration1),
                                                       validate_args)
      self._concentration0 = self._valid_concentration(util.param(concentration0),
                                                       validate_args)
      util.same_float_dtype([self._concentration1, self._concentration0])
      self._total_concentration = self._concentration1 + self._concentration0
    super().__init__(dtype=self._total_concentration.dtype,
                     reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters,
                     graph_parents=[self._concentration1, self._concentration0,
                                    self._total_concentration], name=name)

  @staticmethod
  def _valid_concentration(concentration, validate_args):
    if validate_args:
      check_ops.assert_positive(concentration,
                                message="Concentration parameter must be positive.")
    return concentration

  @staticmethod
  def _param_shapes(sample_shape):
    shape = ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)
    return {"concentration1": shape, "concentration0": shape}

  concentration1 = property(lambda self: self._concentration1)
  concentration0 = property(lambda self: self._concentration0)
  total_concentration = property(lambda self: self._total_concentration)

  def _params(self):
    return self._concentration1, self._concentration0

  def _event_shape(self):
    return tensor_shape.TensorShape([])

  def _batch_shape(self):
    return self._total_concentration.shape

  def _sample_n(self, n, seed=None):
    key = util.rng_key(seed)
    util.rng_key(util.gen_new_seed(seed, "beta"))  # TF's second gamma op takes an op seed too
    return _sample(key, *self._params(), n=n)

  def _checked(self, x):
    util.check_operands("Xlogy", self._concentration1, x)
    if self.validate_args:
      check_ops.assert_positive(x, message="sample must be positive")
      check_ops.assert_less(x, array_ops.ones([], self.dtype),
                            message="sample must be less than `1`.")
    return x

  def _log_prob(self, x):
    return _log_prob(self._checked(x), *self._params())

  def _prob(self, x):
    return math_ops.exp(self._log_prob(x))

  def _cdf(self, x):
    util.check_operands("Betainc", self._concentration1, x)
    return _cdf(x, *self._params())

  def _log_cdf(self, x):
    return math_ops.log(self._cdf(x))

  def _entropy(self):
    return _stat(*self._params(), which="entropy")

  def _mean(self):
    return _stat(*self._params(), which="mean")

  def _variance(self):
    return _stat(*self._params(), which="variance")

  def _mode(self):
    if not self.allow_nan_stats:
      util.require_above_one(self._concentration1, "Mode undefined for concentration1 <= 1.")
      util.require_above_one(self._concentration0, "Mode undefined for concentration0 <= 1.")
    return _mode(*self._params(), nan=self.allow_nan_stats)


@util.exported("BetaWithSoftplusConcentration", contrib_only=True)
class BetaWithSoftplusConcentration(Beta):
  """Beta with `softplus` applied to both concentrations."""

  def __init__(self, concentration1, concentration0, validate_args=False,
               allow_nan_stats=True, name="BetaWithSoftplusConcentration"):
    parameters = dict(locals())
    with name_scope(name) as name:
      super().__init__(concentration1=nn_ops.softplus(concentration1),
                       concentration0=nn_ops.softplus(concentration0),
                       validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
    self._parameters = {k: v for k, v in parameters.items() if k != "self"}


@kullback_leibler.RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
  return _kl(d1.concentration1, d1.concentration0, d2.concentration1, d2.concentration0)
