"""`tf.distributions.Distribution`: TF 1.15's base class, and ReparameterizationType.

A family computes each method in one op (`op(jax function)`), so a method is one compiled
call; the tape differentiates that jax function, so gradients reach the parameters and,
for reparameterized families, flow through samples.
"""
import contextlib

import numpy as np

from tfe_compat.distributions import kullback_leibler
from tfe_compat.distributions.util import exported
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.ops import array_ops
from tfe_compat.ops import math_ops
from tfe_compat.variable_scope import name_scope


@exported("ReparameterizationType")
class ReparameterizationType:
  """How samples are reparameterized: FULLY_REPARAMETERIZED or NOT_REPARAMETERIZED."""

  def __init__(self, rep_type):
    self._rep_type = rep_type

  def __repr__(self):
    return "<Reparameterization Type: %s>" % self._rep_type

  def __eq__(self, other):
    return self is other

  __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")
exported("FULLY_REPARAMETERIZED")(FULLY_REPARAMETERIZED)
exported("NOT_REPARAMETERIZED")(NOT_REPARAMETERIZED)


def _convert_value(value, preferred_dtype):
  """TF's eager `_convert_to_tensor`: floats stay floats for integer-typed distributions."""
  if preferred_dtype is not None and (preferred_dtype.is_integer or preferred_dtype.is_bool):
    converted = ops.convert_to_tensor(value)
    if converted.dtype.is_floating:
      return converted
  return ops.convert_to_tensor(value, preferred_dtype=preferred_dtype)


@exported("Distribution")
class Distribution:
  """A batch of probability distributions: TF 1.15's `tf.distributions.Distribution`.

  Subclasses implement `_log_prob`, `_mean`, ... (the public methods add TF's fallbacks:
  `prob` from `log_prob`, `stddev` from `variance`, and so on).
  """

  def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats,
               parameters=None, graph_parents=None, name=None):
    graph_parents = [] if graph_parents is None else graph_parents
    for i, t in enumerate(graph_parents):
      if t is None or not ops.is_tensor(t):
        raise ValueError("Graph parent item %d is not a Tensor; %s." % (i, t))
    if not name or name[-1] != "/":
      with name_scope(name or type(self).__name__) as name:
        pass
    self._dtype = dtype
    self._reparameterization_type = reparameterization_type
    self._allow_nan_stats = allow_nan_stats
    self._validate_args = validate_args
    self._parameters = dict(parameters or {})
    self._parameters.pop("self", None)
    self._graph_parents = graph_parents
    self._name = name

  @classmethod
  def param_shapes(cls, sample_shape, name="DistributionParamShapes"):
    """{parameter name: shape Tensor} giving samples of shape `sample_shape`."""
    return cls._param_shapes(sample_shape)

  @classmethod
  def param_static_shapes(cls, sample_shape):
    """{parameter name: TensorShape} giving samples of shape `sample_shape`."""
    if isinstance(sample_shape, tensor_shape.TensorShape):
      if not sample_shape.is_fully_defined():
        raise ValueError("TensorShape sample_shape must be fully defined")
      sample_shape = sample_shape.as_list()
    return {name: tensor_shape.TensorShape(shape.numpy().tolist())
            for name, shape in cls.param_shapes(sample_shape).items()}

  @staticmethod
  def _param_shapes(sample_shape):
    raise NotImplementedError("_param_shapes not implemented")

  name = property(lambda self: self._name)
  dtype = property(lambda self: self._dtype)
  reparameterization_type = property(lambda self: self._reparameterization_type)
  allow_nan_stats = property(lambda self: self._allow_nan_stats)
  validate_args = property(lambda self: self._validate_args)

  @property
  def parameters(self):
    """The arguments the distribution was built with."""
    return {k: v for k, v in self._parameters.items() if not k.startswith("__")}

  def copy(self, **override_parameters_kwargs):
    """A new distribution of this type from `parameters`, with some overridden."""
    return type(self)(**dict(self.parameters, **override_parameters_kwargs))

  @contextlib.contextmanager
  def _name_scope(self, name=None, values=None):
    """TF's helper for subclasses: the distribution's name scope, then `name`'s."""
    with name_scope(self.name):
      with name_scope(name) as scope:
        yield scope

  # ---- Shapes (statically known here; subclasses with unknown ones add the _tensor forms) ----
  def _batch_shape(self):
    return tensor_shape.TensorShape(None)

  @property
  def batch_shape(self):
    return tensor_shape.as_shape(self._batch_shape())

  def _batch_shape_tensor(self):
    raise NotImplementedError("batch_shape_tensor is not implemented: %s"
                              % type(self).__name__)

  def batch_shape_tensor(self, name="batch_shape_tensor"):
    """The batch shape as a 1-D int32 Tensor."""
    if self.batch_shape.is_fully_defined():
      return ops.convert_to_tensor(self.batch_shape.as_list(), dtype=dtypes.int32)
    return self._batch_shape_tensor()

  def _event_shape(self):
    return tensor_shape.TensorShape(None)

  @property
  def event_shape(self):
    return tensor_shape.as_shape(self._event_shape())

  def _event_shape_tensor(self):
    raise NotImplementedError("event_shape_tensor is not implemented: %s"
                              % type(self).__name__)

  def event_shape_tensor(self, name="event_shape_tensor"):
    """The event shape as a 1-D int32 Tensor."""
    if self.event_shape.is_fully_defined():
      return ops.convert_to_tensor(self.event_shape.as_list(), dtype=dtypes.int32)
    return self._event_shape_tensor()

  def is_scalar_event(self, name="is_scalar_event"):
    if self.event_shape.ndims is not None:
      return ops.convert_to_tensor(self.event_shape.ndims == 0)
    return ops.convert_to_tensor(self.event_shape_tensor()._shape_tuple() == (0,))

  def is_scalar_batch(self, name="is_scalar_batch"):
    if self.batch_shape.ndims is not None:
      return ops.convert_to_tensor(self.batch_shape.ndims == 0)
    return ops.convert_to_tensor(self.batch_shape_tensor()._shape_tuple() == (0,))

  # ---- Sampling ----
  def _sample_n(self, n, seed=None):
    raise NotImplementedError("sample_n is not implemented: %s" % type(self).__name__)

  def sample(self, sample_shape=(), seed=None, name="sample"):
    """Samples of shape `sample_shape + batch_shape + event_shape`."""
    dims = array_ops.host(ops.convert_to_tensor(sample_shape, dtype=dtypes.int32))
    if dims.ndim > 1:
      raise ValueError("Input is neither scalar nor vector.")
    dims = [int(d) for d in dims.reshape(-1)]
    samples = self._sample_n(int(np.prod(dims, dtype=np.int64)), seed)
    return array_ops.reshape(samples, dims + samples.shape.as_list()[1:])

  # ---- Densities and distribution functions (with TF's fallbacks) ----
  def _value(self, value):
    return _convert_value(value, self.dtype)

  def _fallback(self, method, fallback, value):
    value = self._value(value)
    try:
      return getattr(self, method)(value)
    except NotImplementedError as original:
      try:
        return fallback(value)
      except NotImplementedError:
        raise original from None

  def log_prob(self, value, name="log_prob"):
    """Log probability density / mass at `value`."""
    return self._fallback("_log_prob", lambda v: math_ops.log(self._prob(v)), value)

  def prob(self, value, name="prob"):
    """Probability density / mass at `value`."""
    return self._fallback("_prob", lambda v: math_ops.exp(self._log_prob(v)), value)

  def log_cdf(self, value, name="log_cdf"):
    """Log of the cumulative distribution function."""
    return self._fallback("_log_cdf", lambda v: math_ops.log(self._cdf(v)), value)

  def cdf(self, value, name="cdf"):
    """Cumulative distribution function P[X <= value]."""
    return self._fallback("_cdf", lambda v: math_ops.exp(self._log_cdf(v)), value)

  def log_survival_function(self, value, name="log_survival_function"):
    """Log of P[X > value]."""
    return self._fallback("_log_survival_function",
                          lambda v: math_ops.log1p(-self.cdf(v)), value)

  def survival_function(self, value, name="survival_function"):
    """P[X > value] = 1 - cdf(value)."""
    return self._fallback("_survival_function", lambda v: 1. - self.cdf(v), value)

  def quantile(self, value, name="quantile"):
    """The inverse of the cdf."""
    return self._quantile(self._value(value))

  def _not_implemented(self, method):
    raise NotImplementedError("%s is not implemented: %s" % (method, type(self).__name__))

  def _log_prob(self, value):
    self._not_implemented("log_prob")

  def _prob(self, value):
    self._not_implemented("prob")

  def _log_cdf(self, value):
    self._not_implemented("log_cdf")

  def _cdf(self, value):
    self._not_implemented("cdf")

  def _log_survival_function(self, value):
    self._not_implemented("log_survival_function")

  def _survival_function(self, value):
    self._not_implemented("survival_function")

  def _quantile(self, value):
    self._not_implemented("quantile")

  # ---- Statistics ----
  def entropy(self, name="entropy"):
    """Shannon entropy in nats."""
    return self._entropy()

  def mean(self, name="mean"):
    return self._mean()

  def mode(self, name="mode"):
    return self._mode()

  def covariance(self, name="covariance"):
    return self._covariance()

  def variance(self, name="variance"):
    """Variance (from stddev when only that is implemented)."""
    try:
      return self._variance()
    except NotImplementedError as original:
      try:
        return math_ops.square(self._stddev())
      except NotImplementedError:
        raise original from None

  def stddev(self, name="stddev"):
    """Standard deviation (from variance when only that is implemented)."""
    try:
      return self._stddev()
    except NotImplementedError as original:
      try:
        return math_ops.sqrt(self._variance())
      except NotImplementedError:
        raise original from None

  def _entropy(self):
    self._not_implemented("entropy")

  def _mean(self):
    self._not_implemented("mean")

  def _mode(self):
    self._not_implemented("mode")

  def _covariance(self):
    self._not_implemented("covariance")

  def _variance(self):
    self._not_implemented("variance")

  def _stddev(self):
    self._not_implemented("stddev")

  def cross_entropy(self, other, name="cross_entropy"):
    """H[self, other] = entropy + KL[self || other]."""
    return kullback_leibler.cross_entropy(self, other, allow_nan_stats=self.allow_nan_stats)

  def kl_divergence(self, other, name="kl_divergence"):
    """KL[self || other] by the registered KL function."""
    return kullback_leibler.kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

  def __str__(self):
    return ("tfp.distributions.%s(\"%s\"%s%s, dtype=%s)" % (
        type(self).__name__, self.name,
        ", batch_shape=%s" % self.batch_shape if self.batch_shape.ndims is not None else "",
        ", event_shape=%s" % self.event_shape if self.event_shape.ndims is not None else "",
        self.dtype.name))

  def __repr__(self):
    return ("<tfp.distributions.%s '%s' batch_shape=%s event_shape=%s dtype=%s>" % (
        type(self).__name__, self.name, self.batch_shape, self.event_shape, self.dtype.name))
