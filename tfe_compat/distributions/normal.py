"""`tf.distributions.Normal` (and contrib's NormalWithSoftplusScale), with the Normal-Normal
KL divergence."""
import math

import jax
import jax.numpy as jnp
from jax.scipy import special

from tfe_compat.distributions import distribution
from tfe_compat.distributions import kullback_leibler
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
class Normal(distribution.Distribution):
  """The Normal distribution with mean `loc` and standard deviation `scale`."""

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
    parameters = dict(locals())
    with name_scope(name) as name:
      if validate_args:
        check_ops.assert_positive(scale)
      self._loc = util.param(loc)
      self._scale = util.param(scale)
      util.same_float_dtype([self._loc, self._scale])
    super().__init__(dtype=self._scale.dtype,
                     reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters, graph_parents=[self._loc, self._scale], name=name)

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
    return _cdf(self._checked(x), self._loc, self._scale, upper=False)

  def _survival_function(self, x):
    return _cdf(self._checked(x), self._loc, self._scale, upper=True)

  def _log_cdf(self, x):
    return _log_cdf(self._checked(x), self._loc, self._scale, upper=False)

  def _log_survival_function(self, x):
    return _log_cdf(self._checked(x), self._loc, self._scale, upper=True)

  def _quantile(self, p):
    util.check_operands("Mul", p, self._scale)
    return _quantile(p, self._loc, self._scale)

  def _entropy(self):
    return _entropy(self._loc, self._scale)

  def _mean(self):
    return _broadcast(self._loc, self._scale)

  def _stddev(self):
    return _broadcast(self._scale, self._loc)

  def _mode(self):
    return self._mean()


@util.exported("NormalWithSoftplusScale", contrib_only=True)
class NormalWithSoftplusScale(Normal):
  """Normal with `scale = softplus(scale)`."""

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True,
               name="NormalWithSoftplusScale"):
    parameters = dict(locals())
    with name_scope(name) as name:
      super().__init__(loc=loc, scale=nn_ops.softplus(scale), validate_args=validate_args,
                       allow_nan_stats=allow_nan_stats, name=name)
    self._parameters = {k: v for k, v in parameters.items() if k != "self"}


@kullback_leibler.RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a, n_b, name=None):
  return _kl(n_a.loc, n_a.scale, n_b.loc, n_b.scale)
