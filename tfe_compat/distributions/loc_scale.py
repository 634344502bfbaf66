"""What the scalar location-scale families (Normal, Laplace) share: parameters, shapes, the
methods that call the family's ops, and contrib's `<Family>WithSoftplusScale` variant."""
from tfe_compat.distributions import distribution
from tfe_compat.distributions import util
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.ops import check_ops
from tfe_compat.ops import nn_ops
from tfe_compat.variable_scope import name_scope


class LocScale(distribution.Distribution):
  """A scalar distribution with parameters `loc` and `scale`. A family sets its ops as
  staticmethods: `_sample_op(key, loc, scale, n=)`, `_log_prob_op(x, loc, scale)`,
  `_log_cdf_op(x, loc, scale, upper=)` and `_entropy_op(loc, scale)`."""

  def __init__(self, loc, scale, validate_args, allow_nan_stats, name, parameters):
    with name_scope(name) as name:
      if validate_args:
        check_ops.assert_positive(scale)
      self._loc = util.param(loc)
      self._scale = util.param(scale)
      util.same_float_dtype([self._loc, self._scale])
      super().__init__(dtype=self._loc.dtype,
                       reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                       validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                       parameters=parameters, graph_parents=[self._loc, self._scale],
                       name=name)

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
    return self._sample_op(util.rng_key(seed), self._loc, self._scale, n=n)

  def _checked(self, x):
    util.check_operands("Sub", x, self._loc)
    return x

  def _log_prob(self, x):
    return self._log_prob_op(self._checked(x), self._loc, self._scale)

  def _log_cdf(self, x):
    return self._log_cdf_op(self._checked(x), self._loc, self._scale, upper=False)

  def _log_survival_function(self, x):
    return self._log_cdf_op(self._checked(x), self._loc, self._scale, upper=True)

  def _entropy(self):
    return self._entropy_op(self._loc, self._scale)

  def _mode(self):
    return self._mean()


def with_softplus_scale(family, class_name):
  """contrib's `<family>WithSoftplusScale`: `family` built with `scale = softplus(scale)`."""

  def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name=class_name):
    parameters = dict(loc=loc, scale=scale, validate_args=validate_args,
                      allow_nan_stats=allow_nan_stats, name=name)
    with name_scope(name) as name:
      family.__init__(self, loc=loc, scale=nn_ops.softplus(scale), validate_args=validate_args,
                      allow_nan_stats=allow_nan_stats, name=name)
    self._parameters = parameters

  return type(class_name, (family,), {
      "__init__": __init__, "__module__": family.__module__, "__qualname__": class_name,
      "__doc__": "%s with `scale = softplus(scale)`." % family.__name__})
