"""`tf.distributions.Bernoulli`, with the Bernoulli-Bernoulli KL divergence."""
import jax
import jax.numpy as jnp

from tfe_compat.distributions import distribution
from tfe_compat.distributions import kullback_leibler
from tfe_compat.distributions import util
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import op
from tfe_compat.ops import array_ops
from tfe_compat.ops import matmul_cast_ops
from tfe_compat.variable_scope import name_scope


@op(name="BernoulliSample", differentiable=False)
def _sample(key, probs, *, n, dtype):
  uniform = jax.random.uniform(key, (n,) + probs.shape, probs.dtype)
  return (uniform < probs).astype(dtype)


@op(name="BernoulliLogProb")
def _log_prob(event, logits):
  event = event.astype(logits.dtype)
  shape = jnp.broadcast_shapes(event.shape, logits.shape)
  event, logits = jnp.broadcast_to(event, shape), jnp.broadcast_to(logits, shape)
  # -sigmoid_cross_entropy_with_logits(labels=event, logits=logits), TF's stable form
  return -(jnp.maximum(logits, 0) - logits * event + jnp.log1p(jnp.exp(-jnp.abs(logits))))


@op(name="BernoulliEntropy")
def _entropy(logits):
  return -logits * (jax.nn.sigmoid(logits) - 1) + jax.nn.softplus(-logits)


@op(name="BernoulliVariance")
def _variance(probs):
  return probs * (1.0 - probs)


@op(name="BernoulliKL")
def _kl(logits_a, logits_b):
  delta_probs0 = jax.nn.softplus(-logits_b) - jax.nn.softplus(-logits_a)
  delta_probs1 = jax.nn.softplus(logits_b) - jax.nn.softplus(logits_a)
  return jax.nn.sigmoid(logits_a) * delta_probs0 + jax.nn.sigmoid(-logits_a) * delta_probs1


@util.exported("Bernoulli")
class Bernoulli(distribution.Distribution):
  """Bernoulli distributions over {0, 1}, given `logits` or `probs` of a 1."""

  def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False,
               allow_nan_stats=True, name="Bernoulli"):
    parameters = dict(locals())
    with name_scope(name) as name:
      self._logits, self._probs = util.logits_and_probs(logits=logits, probs=probs,
                                                        validate_args=validate_args)
    super().__init__(dtype=dtypes.as_dtype(dtype),
                     reparameterization_type=distribution.NOT_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters, graph_parents=[self._logits, self._probs],
                     name=name)

  @staticmethod
  def _param_shapes(sample_shape):
    return {"logits": ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)}

  logits = property(lambda self: self._logits)
  probs = property(lambda self: self._probs)

  def _event_shape(self):
    return tensor_shape.TensorShape([])

  def _batch_shape(self):
    return self._logits.shape

  def _sample_n(self, n, seed=None):
    return _sample(util.rng_key(seed), self._probs, n=n, dtype=self.dtype.name)

  def _log_prob(self, event):
    if self.validate_args:
      util.check_integer_casting_closed(event, dtypes.bool)
    return _log_prob(event, self._logits)

  def _entropy(self):
    return _entropy(self._logits)

  def _mean(self):
    return array_ops.identity(self._probs)

  def _variance(self):
    return _variance(self._probs)

  def _mode(self):
    return matmul_cast_ops.cast(self._probs > 0.5, self.dtype)


@kullback_leibler.RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
  return _kl(a.logits, b.logits)
