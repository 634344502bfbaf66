"""`tf.distributions.Multinomial`: counts of `total_count` draws over K classes."""
import jax
import jax.numpy as jnp

from tfe_compat.distributions import distribution
from tfe_compat.distributions import util
from tfe_compat.distributions.dirichlet import log_combinations
from tfe_compat.framework.ops import op
from tfe_compat.ops import array_ops
from tfe_compat.ops import check_ops
from tfe_compat.ops import reduction_ops
from tfe_compat.variable_scope import name_scope


@op(name="MultinomialSample", differentiable=False)
def _sample(key, logits, total_count, *, n):
  shape = (n,) + jnp.broadcast_shapes(logits.shape[:-1], total_count.shape)
  probs = jnp.broadcast_to(jax.nn.softmax(logits, axis=-1), shape + logits.shape[-1:])
  draws = jnp.broadcast_to(total_count.astype(jnp.int32).astype(logits.dtype), shape)
  return jax.random.multinomial(key, draws, probs, dtype=logits.dtype)


@op(name="MultinomialLogProb")
def _log_prob(counts, logits, total_count):
  log_unnormalized = jnp.sum(counts * jax.nn.log_softmax(logits, axis=-1), axis=-1)
  return log_unnormalized + log_combinations(total_count, counts)


@op(name="MultinomialStats")
def _stat(probs, total_count, *, which):
  mean = total_count[..., None] * probs
  p = probs * jnp.ones_like(total_count)[..., None]
  variance = mean - mean * p
  if which == "variance":
    return variance
  diagonal = jnp.eye(probs.shape[-1], dtype=bool)
  return jnp.where(diagonal, variance[..., None, :], -mean[..., :, None] * p[..., None, :])


@util.exported("Multinomial")
class Multinomial(distribution.Distribution):
  """Multinomial distributions: counts of `total_count` draws, given `logits` or `probs`."""

  def __init__(self, total_count, logits=None, probs=None, validate_args=False,
               allow_nan_stats=True, name="Multinomial"):
    parameters = dict(locals())
    with name_scope(name) as name:
      self._total_count = util.param(total_count)
      if validate_args:
        util.check_nonnegative_integer_form(self._total_count)
      self._logits, self._probs = util.logits_and_probs(
          logits=logits, probs=probs, multidimensional=True, validate_args=validate_args)
      self._mean_val = array_ops.expand_dims(self._total_count, -1) * self._probs
    super().__init__(dtype=self._probs.dtype,
                     reparameterization_type=distribution.NOT_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters,
                     graph_parents=[self._total_count, self._logits, self._probs], name=name)

  total_count = property(lambda self: self._total_count)
  logits = property(lambda self: self._logits)
  probs = property(lambda self: self._probs)

  def _batch_shape(self):
    return self._mean_val.shape.with_rank_at_least(1)[:-1]

  def _event_shape(self):
    return self._mean_val.shape.with_rank_at_least(1)[-1:]

  def _sample_n(self, n, seed=None):
    return _sample(util.rng_key(seed), self._logits, self._total_count, n=n)

  def _log_prob(self, counts):
    util.check_operands("Mul", counts, self._logits)
    if self.validate_args:
      util.check_nonnegative_integer_form(counts)
      check_ops.assert_equal(self._total_count, reduction_ops.reduce_sum(counts, -1),
                             message="counts must sum to `self.total_count`")
    return _log_prob(counts, self._logits, self._total_count)

  def _mean(self):
    return array_ops.identity(self._mean_val)

  def _variance(self):
    return _stat(self._probs, self._total_count, which="variance")

  def _covariance(self):
    return _stat(self._probs, self._total_count, which="covariance")
