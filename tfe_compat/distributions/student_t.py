"""`tf.distributions.StudentT` (and contrib's StudentTWithAbsDfSoftplusScale)."""
import math

import jax
import jax.numpy as jnp
from jax.scipy import special

from tfe_compat.distributions import distribution
from tfe_compat.distributions import util
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.ops import op
from tfe_compat.ops import array_ops
from tfe_compat.ops import check_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops import nn_ops
from tfe_compat.variable_scope import name_scope


def _batch(df, loc, scale):
  return jnp.broadcast_shapes(df.shape, loc.shape, scale.shape)


@op(name="StudentTSample")
def _sample(normal_key, gamma_key, df, loc, scale, *, n):
  shape = (n,) + _batch(df, loc, scale)
  normal = jax.random.normal(normal_key, shape, scale.dtype)
  df = jnp.broadcast_to(df, _batch(df, loc, scale))
  gamma = jax.random.gamma(gamma_key, jnp.broadcast_to(0.5 * df, shape), dtype=scale.dtype)
  gamma = jnp.maximum(jnp.finfo(scale.dtype).tiny, gamma / 0.5)
  return normal * jax.lax.rsqrt(gamma / df) * scale + loc


@op(name="StudentTLogProb")
def _log_prob(x, df, loc, scale):
  y = (x - loc) / scale
  return (-0.5 * (df + 1.) * jnp.log1p(y**2. / df)
          - (jnp.log(jnp.abs(scale)) + 0.5 * jnp.log(df) + 0.5 * math.log(math.pi)
             + special.gammaln(0.5 * df) - special.gammaln(0.5 * (df + 1.))))


@op(name="StudentTCdf")
def _cdf(x, df, loc, scale):
  y = (x - loc) / jnp.abs(scale)
  neg_cdf = 0.5 * special.betainc(0.5 * df, jnp.asarray(0.5, df.dtype), df / (y**2. + df))
  return jnp.where(y < 0., neg_cdf, 1. - neg_cdf)


@op(name="StudentTEntropy")
def _entropy(df, loc, scale):
  half_df = 0.5 * jnp.broadcast_to(df, _batch(df, loc, scale))
  lbeta = special.gammaln(half_df) + special.gammaln(jnp.asarray(0.5, df.dtype)) - (
      special.gammaln(half_df + 0.5))
  return (jnp.log(jnp.abs(scale)) + 0.5 * jnp.log(df) + lbeta
          + 0.5 * (df + 1.) * (special.digamma(0.5 * (df + 1.)) - special.digamma(0.5 * df)))


@op(name="StudentTMean")
def _mean(df, loc, scale, *, nan):
  batch = _batch(df, loc, scale)
  mean = loc * jnp.ones(batch, scale.dtype)
  return jnp.where(df > 1., mean, jnp.nan) if nan else mean


@op(name="StudentTVariance")
def _variance(df, loc, scale, *, nan):
  batch = _batch(df, loc, scale)
  denom = jnp.where(df > 2., df - 2., jnp.ones_like(df))
  var = jnp.ones(batch, scale.dtype) * jnp.square(scale) * df / denom
  defined = jnp.where(df > 2., var, jnp.inf)
  return jnp.where(df > 1., defined, jnp.nan) if nan else defined


@util.exported("StudentT")
class StudentT(distribution.Distribution):
  """Student's t-distribution with `df` degrees of freedom, location and scale."""

  def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True,
               name="StudentT"):
    parameters = dict(locals())
    with name_scope(name) as name:
      if validate_args:
        check_ops.assert_positive(df)
      self._df = util.param(df)
      self._loc = util.param(loc)
      self._scale = util.param(scale)
      util.same_float_dtype([self._df, self._loc, self._scale])
    super().__init__(dtype=self._scale.dtype,
                     reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                     parameters=parameters,
                     graph_parents=[self._df, self._loc, self._scale], name=name)

  @staticmethod
  def _param_shapes(sample_shape):
    shape = ops.convert_to_tensor(sample_shape, dtype=dtypes.int32)
    return {"df": shape, "loc": shape, "scale": shape}

  df = property(lambda self: self._df)
  loc = property(lambda self: self._loc)
  scale = property(lambda self: self._scale)

  def _params(self):
    return self._df, self._loc, self._scale

  def _event_shape(self):
    return tensor_shape.TensorShape([])

  def _batch_shape(self):
    return util.broadcast_shape(self._df, self._loc, self._scale)

  def _sample_n(self, n, seed=None):
    normal_key = util.rng_key(seed)
    gamma_key = util.rng_key(util.gen_new_seed(seed, "student_t"))
    return _sample(normal_key, gamma_key, *self._params(), n=n)

  def _log_prob(self, x):
    util.check_operands("Sub", x, self._loc)
    return _log_prob(x, *self._params())

  def _cdf(self, x):
    util.check_operands("Sub", x, self._loc)
    return _cdf(x, *self._params())

  def _entropy(self):
    return _entropy(*self._params())

  def _mean(self):
    if not self.allow_nan_stats:
      util.require_above_one(self._df, "mean not defined for components of df <= 1")
    return _mean(*self._params(), nan=self.allow_nan_stats)

  def _variance(self):
    if not self.allow_nan_stats:
      util.require_above_one(self._df, "variance not defined for components of df <= 1")
    return _variance(*self._params(), nan=self.allow_nan_stats)

  def _mode(self):
    return array_ops.identity(self._loc)


@util.exported("StudentTWithAbsDfSoftplusScale", contrib_only=True)
class StudentTWithAbsDfSoftplusScale(StudentT):
  """StudentT with `df = floor(|df|)` and `scale = softplus(scale)`."""

  def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True,
               name="StudentTWithAbsDfSoftplusScale"):
    parameters = dict(locals())
    with name_scope(name) as name:
      super().__init__(df=math_ops.floor(math_ops.abs(df)), loc=loc,
                       scale=nn_ops.softplus(scale), validate_args=validate_args,
                       allow_nan_stats=allow_nan_stats, name=name)
    self._parameters = {k: v for k, v in parameters.items() if k != "self"}
