"""`tf.distributions.Categorical` over {0, ..., K-1}, with the Categorical-Categorical KL."""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.distributions import distribution
from tfe_compat.distributions import kullback_leibler
from tfe_compat.distributions import util
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import op
from tfe_compat.ops import matmul_cast_ops
from tfe_compat.variable_scope import name_scope


@op(name="Multinomial", differentiable=False)
def _sample(key, logits, *, n, dtype):
  draws = jax.random.categorical(key, logits, axis=-1, shape=(n,) + logits.shape[:-1])
  return draws.astype(dtype)


def _broadcast(k, params):
  """TF's `_broadcast_cat_event_and_params`: k against params' batch dimensions."""
  batch = jnp.broadcast_shapes(k.shape, params.shape[:-1])
  return jnp.broadcast_to(k, batch), jnp.broadcast_to(params, batch + params.shape[-1:])


@op(name="SparseSoftmaxCrossEntropyWithLogits")
def _log_prob(k, logits):
  k, logits = _broadcast(k, logits)
  log_probs = jax.nn.log_softmax(logits, axis=-1)
  return jnp.take_along_axis(log_probs, k[..., None].astype(jnp.int32), axis=-1)[..., 0]


@op(name="CategoricalCdf")
def _cdf(k, probs):
  k, probs = _broadcast(k, probs)
  below = jnp.arange(probs.shape[-1]) < k[..., None]
  return jnp.sum(jnp.where(below, probs, jnp.zeros_like(probs)), axis=-1)


@op(name="CategoricalEntropy")
def _entropy(logits, probs):
  return -jnp.sum(jax.nn.log_softmax(logits, axis=-1) * probs, axis=-1)


@op(name="ArgMax", differentiable=False)
def _mode(logits, *, dtype):
  return jnp.argmax(logits, axis=-1).astype(dtype)


@op(name="CategoricalKL")
def _kl(logits_a, logits_b):
  delta = jax.nn.log_softmax(logits_a, axis=-1) - jax.nn.log_softmax(logits_b, axis=-1)
  return jnp.sum(jax.nn.softmax(logits_a, axis=-1) * delta, axis=-1)


@util.exported("Categorical")
class Categorical(distribution.Distribution):
  """Categorical distributions over K classes, given `logits` or `probs` ([..., K])."""

  def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False,
               allow_nan_stats=True, name="Categorical"):
    parameters = dict(locals())
    with name_scope(name) as name:
      self._logits, self._probs = util.logits_and_probs(
          logits=logits, probs=probs, validate_args=validate_args, multidimensional=True)
      if validate_args:
        util.check_categorical_event_shape(self._logits)
      self._logits.shape.with_rank_at_least(1)
      self._event_size = ops.convert_to_tensor(self._logits._shape_tuple()[-1],
                                               dtype=dtypes.int32)
    super().__init__(dtype=dtypes.as_dtype(dtype),
                     reparameterization_type=distribution.NOT_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters, graph_parents=[self._logits, self._probs],
                     name=name)

  @property
  def event_size(self):
    """The number of classes K (an int32 scalar Tensor)."""
    return self._event_size

  logits = property(lambda self: self._logits)
  probs = property(lambda self: self._probs)

  def _event_shape(self):
    return tensor_shape.TensorShape([])

  def _batch_shape(self):
    return self._logits.shape[:-1]

  def _sample_n(self, n, seed=None):
    return _sample(util.rng_key(seed), self._logits, n=n, dtype=self.dtype.name)

  def _event(self, k):
    """k as TF's log_prob / cdf use it: integers (floats are truncated)."""
    k = ops.convert_to_tensor(k)
    if self.validate_args:
      util.check_integer_casting_closed(k, dtypes.int32)
    if k.dtype.is_floating:
      return matmul_cast_ops.cast(k, dtypes.int32)
    if not k.dtype.is_integer:
      raise TypeError("`value` should have integer `dtype` or `self.dtype` (%s)" % self.dtype)
    return k

  def _log_prob(self, k):
    k = self._event(k)
    values = util.concrete(k)
    size = self._logits._shape_tuple()[-1]
    if values is not None and ((values < 0) | (values >= size)).any():
      values = np.broadcast_to(values, np.broadcast_shapes(values.shape,
                                                           self._logits._shape_tuple()[:-1]))
      bad = values[(values < 0) | (values >= size)].reshape(-1)[0]
      raise errors.invalid_argument(
          "Received a label value of %d which is outside the valid range of [0, %d).  Label "
          "values: %s [Op:SparseSoftmaxCrossEntropyWithLogits]"
          % (bad, size, " ".join(str(v) for v in values.reshape(-1))))
    return _log_prob(k, self._logits)

  def _cdf(self, k):
    return _cdf(self._event(k), self._probs)

  def _entropy(self):
    return _entropy(self._logits, self._probs)

  def _mode(self):
    return _mode(self._logits, dtype=self.dtype.name)


@kullback_leibler.RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
  return _kl(a.logits, b.logits)
