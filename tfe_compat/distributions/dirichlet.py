"""`tf.distributions.Dirichlet` and `DirichletMultinomial`, with the Dirichlet-Dirichlet KL."""
import jax
import jax.numpy as jnp
from jax.scipy import special

from tfe_compat.distributions import distribution
from tfe_compat.distributions import kullback_leibler
from tfe_compat.distributions import util
from tfe_compat.distributions.gamma import random_gamma
from tfe_compat.framework import errors
from tfe_compat.framework.ops import op
from tfe_compat.ops import array_ops
from tfe_compat.ops import check_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops import reduction_ops
from tfe_compat.variable_scope import name_scope


def lbeta(x):
  """TF's `lbeta` over the last axis."""
  return jnp.sum(special.gammaln(x), axis=-1) - special.gammaln(jnp.sum(x, axis=-1))


def log_combinations(n, counts):
  """TF's `log_combinations`: log(n! / prod(counts!))."""
  return special.gammaln(n + 1) - jnp.sum(special.gammaln(counts + 1), axis=-1)


def _matrix_stats(mean, scale, which, total_count=1.):
  """Variance or covariance from `x = scale * mean` (TF's Dirichlet(Multinomial) forms)."""
  x = scale * mean
  variance = x * (total_count * scale - x)
  if which == "variance":
    return variance
  diagonal = jnp.eye(mean.shape[-1], dtype=bool)
  return jnp.where(diagonal, variance[..., None, :], -x[..., :, None] * x[..., None, :])


@op(name="DirichletSample")
def _sample(key, concentration, *, n):
  gamma = random_gamma(key, concentration, (n,))
  return gamma / jnp.sum(gamma, axis=-1, keepdims=True)


@op(name="DirichletLogProb")
def _log_prob(x, concentration):
  return jnp.sum(special.xlogy(concentration - 1., x), axis=-1) - lbeta(concentration)


@op(name="DirichletStats")
def _stat(concentration, *, which):
  total = jnp.sum(concentration, axis=-1)
  k = concentration.shape[-1]
  if which == "entropy":
    return (lbeta(concentration) + (total - k) * special.digamma(total)
            - jnp.sum((concentration - 1.) * special.digamma(concentration), axis=-1))
  mean = concentration / total[..., None]
  if which == "mean":
    return mean
  return _matrix_stats(mean, jax.lax.rsqrt(1. + total[..., None]), which)


@op(name="DirichletMode")
def _mode(concentration, *, nan):
  total = jnp.sum(concentration, axis=-1)
  mode = (concentration - 1.) / (total[..., None] - concentration.shape[-1])
  if not nan:
    return mode
  return jnp.where(jnp.all(concentration > 1., axis=-1), mode,
                   jnp.full(mode.shape, jnp.nan, mode.dtype))


@op(name="DirichletKL")
def _kl(c1, c2):
  digamma_diff = special.digamma(c1) - special.digamma(jnp.sum(c1, axis=-1, keepdims=True))
  return jnp.sum((c1 - c2) * digamma_diff, axis=-1) - lbeta(c1) + lbeta(c2)


@op(name="DirichletMultinomialSample", differentiable=False)
def _dm_sample(gamma_key, draw_key, concentration, total_count, *, n, dtype):
  probs = random_gamma(gamma_key, concentration, (n,))
  probs = probs / jnp.sum(probs, axis=-1, keepdims=True)
  counts = jax.random.multinomial(draw_key, total_count.astype(jnp.int32).astype(probs.dtype),
                                  probs)
  return counts.astype(dtype)


@op(name="DirichletMultinomialLogProb")
def _dm_log_prob(counts, concentration, total_count):
  return (lbeta(concentration + counts) - lbeta(concentration)
          + log_combinations(total_count, counts))


@op(name="DirichletMultinomialStats")
def _dm_stat(concentration, total_count, *, which):
  total = jnp.sum(concentration, axis=-1)[..., None]
  mean = total_count * (concentration / total)
  if which == "mean":
    return mean
  scale = jnp.sqrt((1. + total / total_count) / (1. + total))
  return _matrix_stats(mean, scale, which, total_count)


class _ConcentrationMixin:
  """Shapes and the float check of distributions parameterized by a `concentration` vector."""

  concentration = property(lambda self: self._concentration)
  total_concentration = property(lambda self: self._total_concentration)

  def _batch_shape(self):
    return self._total_concentration.shape

  def _event_shape(self):
    return self._concentration.shape.with_rank_at_least(1)[-1:]

  def _float_concentration(self):
    """TF's `concentration - 1.0` on an integer concentration: a TypeError."""
    if not self.dtype.is_floating:
      raise TypeError("Cannot convert 1.0 to EagerTensor of dtype %s" % self.dtype.name)
    return self._concentration


@util.exported("Dirichlet")
class Dirichlet(_ConcentrationMixin, distribution.Distribution):
  """The Dirichlet distribution over the (K-1)-simplex, with `concentration` [..., K]."""

  def __init__(self, concentration, validate_args=False, allow_nan_stats=True,
               name="Dirichlet"):
    parameters = dict(locals())
    with name_scope(name) as name:
      self._concentration = util.param(concentration)
      if validate_args:
        check_ops.assert_positive(self._concentration,
                                  message="Concentration parameter must be positive.")
        check_ops.assert_rank_at_least(self._concentration, 1,
                                       message="Concentration parameter must have >=1 "
                                       "dimensions.")
        check_ops.assert_less(1, array_ops.shape(self._concentration)[-1],
                              message="Concentration parameter must have event_size >= 2.")
      self._total_concentration = reduction_ops.reduce_sum(self._concentration, -1)
    super().__init__(dtype=self._concentration.dtype,
                     reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters,
                     graph_parents=[self._concentration, self._total_concentration],
                     name=name)

  def _sample_n(self, n, seed=None):
    return _sample(util.rng_key(seed), self._float_concentration(), n=n)

  def _log_prob(self, x):
    concentration = self._float_concentration()
    util.check_operands("Xlogy", concentration, x)
    if self.validate_args:
      check_ops.assert_positive(x, message="samples must be positive")
      check_ops.assert_near(array_ops.ones([], dtype=self.dtype),
                            reduction_ops.reduce_sum(x, -1),
                            message="sample last-dimension must sum to `1`")
    return _log_prob(x, concentration)

  def _prob(self, x):
    return math_ops.exp(self._log_prob(x))

  def _entropy(self):
    return _stat(self._float_concentration(), which="entropy")

  def _mean(self):
    return self._concentration / array_ops.expand_dims(self._total_concentration, -1)

  def _variance(self):
    return _stat(self._float_concentration(), which="variance")

  def _covariance(self):
    return _stat(self._float_concentration(), which="covariance")

  def _mode(self):
    concentration = self._float_concentration()
    if not self.allow_nan_stats:
      check_ops.assert_less(array_ops.ones([], self.dtype), concentration,
                            message="Mode undefined when any concentration <= 1")
    return _mode(concentration, nan=self.allow_nan_stats)


@util.exported("DirichletMultinomial")
class DirichletMultinomial(_ConcentrationMixin, distribution.Distribution):
  """Counts of `total_count` draws with class probabilities drawn from a Dirichlet."""

  def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
               name="DirichletMultinomial"):
    parameters = dict(locals())
    with name_scope(name) as name:
      self._total_count = util.param(total_count)
      if validate_args:
        util.check_nonnegative_integer_form(self._total_count)
      self._concentration = util.param(concentration)
      if validate_args:
        util.check_categorical_event_shape(self._concentration)
        check_ops.assert_positive(self._concentration,
                                  message="Concentration parameter must be positive.")
      self._total_concentration = reduction_ops.reduce_sum(self._concentration, -1)
    super().__init__(dtype=self._concentration.dtype,
                     reparameterization_type=distribution.NOT_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters,
                     graph_parents=[self._total_count, self._concentration], name=name)

  total_count = property(lambda self: self._total_count)

  def _sample_n(self, n, seed=None):
    if self._total_count.shape.ndims != 0:
      raise errors.invalid_argument(
          "num_samples should be a scalar, got shape [%s] [Op:Multinomial]"
          % ",".join(str(d) for d in self._total_count._shape_tuple()))
    gamma_key = util.rng_key(seed)
    draw_key = util.rng_key(util.gen_new_seed(seed, "dirichlet_multinomial"))
    return _dm_sample(gamma_key, draw_key, self._float_concentration(), self._total_count,
                      n=n, dtype=self.dtype.name)

  def _log_prob(self, counts):
    util.check_operands("AddV2", self._concentration, counts)
    if self.validate_args:
      util.check_nonnegative_integer_form(counts)
      check_ops.assert_equal(self._total_count, reduction_ops.reduce_sum(counts, -1),
                             message="counts last-dimension must sum to `self.total_count`")
    return _dm_log_prob(counts, self._concentration, self._total_count)

  def _prob(self, counts):
    return math_ops.exp(self._log_prob(counts))

  def _mean(self):
    return _dm_stat(self._concentration, self._total_count, which="mean")

  def _variance(self):
    return _dm_stat(self._float_concentration(), self._total_count, which="variance")

  def _covariance(self):
    return _dm_stat(self._float_concentration(), self._total_count, which="covariance")


@kullback_leibler.RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
  return _kl(d1.concentration, d2.concentration)
