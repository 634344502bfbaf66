"""`tf.keras.losses` as in TF 1.15: loss functions, `Loss` classes and `Reduction`.

Each loss function is one fused op returning per-sample losses (mean or sum over the last
axis); `Loss.__call__` adds one weighting/reduction op (computed in float32, as TF 1.15 does,
and cast back). Probability inputs are clipped to [epsilon, 1 - epsilon] with Keras's
epsilon 1e-7 exactly where Keras clips.
"""
import jax
import jax.numpy as jnp

from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import backend
from tfe_compat.losses import assert_broadcastable, div_no_nan, no_reassociation, to_tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import grad_rules
from tfe_compat.ops import nn_ops
from tfe_compat.ops.matmul_cast_ops import cast
from tfe_compat.ops.reduction_ops import _mean

EPSILON = 1e-7  # keras.backend.epsilon()
_F32 = jnp.float32


@export("keras.losses.Reduction")
class Reduction:
  """How a Keras `Loss` reduces its weighted per-sample losses (TF's ReductionV2)."""
  AUTO = "auto"
  NONE = "none"
  SUM = "sum"
  SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

  @classmethod
  def all(cls):
    return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

  @classmethod
  def validate(cls, key):
    if key not in cls.all():
      raise ValueError("Invalid Reduction Key %s." % (key,))


# ---- elementwise math (jax.numpy, on y_pred's dtype) ----
def _clip(x, lo, hi):
  return grad_rules.maximum(grad_rules.minimum(x, jnp.asarray(hi, x.dtype)),
                            jnp.asarray(lo, x.dtype))


def _binary_labels(y_true):
  """{0, 1} labels become {-1, 1}; other labels are kept (Keras's _maybe_convert_labels)."""
  is_binary = jnp.all((y_true == 0) | (y_true == 1))
  return jnp.where(is_binary, 2. * y_true - 1., y_true)


def _mse(y_pred, y_true):
  diff = y_pred - y_true
  return _mean(diff * diff, -1, False)


def _mae(y_pred, y_true):
  return _mean(grad_rules.abs(y_pred - y_true), -1, False)


def _mape(y_pred, y_true):
  diff = grad_rules.abs((y_true - y_pred) /
                        grad_rules.maximum(grad_rules.abs(y_true),
                                           jnp.asarray(EPSILON, y_true.dtype)))
  return 100. * _mean(diff, -1, False)


def _msle(y_pred, y_true):
  eps = jnp.asarray(EPSILON, y_pred.dtype)
  diff = (jnp.log(grad_rules.maximum(y_pred, eps) + 1.) -
          jnp.log(grad_rules.maximum(y_true, eps) + 1.))
  return _mean(diff * diff, -1, False)


def _squared_hinge(y_pred, y_true):
  margin = grad_rules.maximum(1. - _binary_labels(y_true) * y_pred, jnp.zeros((), y_pred.dtype))
  return _mean(margin * margin, -1, False)


def _hinge(y_pred, y_true):
  margin = grad_rules.maximum(1. - _binary_labels(y_true) * y_pred, jnp.zeros((), y_pred.dtype))
  return _mean(margin, -1, False)


def _categorical_hinge(y_pred, y_true):
  pos = jnp.sum(y_true * y_pred, axis=-1)
  neg = jnp.max((1. - y_true) * y_pred, axis=-1)
  return grad_rules.maximum(neg - pos + 1., jnp.zeros((), y_pred.dtype))


def _logcosh(y_pred, y_true):
  x = y_pred - y_true
  return _mean(x + jax.nn.softplus(-2. * x) - jnp.log(jnp.asarray(2., x.dtype)), -1, False)


def _huber(y_pred, y_true, delta):
  abs_error = grad_rules.abs(y_pred - y_true)
  quadratic = grad_rules.minimum(abs_error, jnp.asarray(delta, abs_error.dtype))
  return 0.5 * (quadratic * quadratic) + delta * (abs_error - quadratic)


def _kld(y_pred, y_true):
  y_true = _clip(y_true, EPSILON, 1)
  y_pred = _clip(y_pred, EPSILON, 1)
  return jnp.sum(y_true * jnp.log(y_true / y_pred), axis=-1)


def _poisson(y_pred, y_true):
  return _mean(y_pred - y_true * jnp.log(y_pred + EPSILON), -1, False)


def _l2_normalize(x, axis):
  square_sum = jnp.sum(x * x, axis=axis, keepdims=True)
  return x * grad_rules.rsqrt(grad_rules.maximum(square_sum, jnp.asarray(1e-12, x.dtype)))


def _cosine(y_pred, y_true, axis):
  return -jnp.sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


def _categorical_xent(y_pred, y_true, from_logits, label_smoothing):
  if label_smoothing:
    dtype = y_pred.dtype
    y_true = (y_true * jnp.asarray(1.0 - label_smoothing, dtype) +
              jnp.asarray(label_smoothing, dtype) / jnp.asarray(y_true.shape[-1], dtype))
  if from_logits:
    return nn_ops._softmax_xent.impl(  # pylint: disable=protected-access
        y_true, y_pred, axis=-1, stop_labels=False)
  output = y_pred / jnp.sum(y_pred, axis=-1, keepdims=True)
  output = _clip(output, EPSILON, 1. - EPSILON)
  return -jnp.sum(y_true * jnp.log(output), axis=-1)


def _binary_xent(y_pred, y_true, from_logits, label_smoothing):
  if label_smoothing:
    y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
  if from_logits:
    losses = nn_ops._sigmoid_xent.impl(y_true, y_pred)  # pylint: disable=protected-access
  else:
    output = _clip(y_pred, EPSILON, 1. - EPSILON)
    losses = -(y_true * jnp.log(output + EPSILON) +
               (1 - y_true) * jnp.log(no_reassociation(1 - output) + EPSILON))
  return _mean(losses, -1, False)


def _clipped_log(y_pred):
  return jnp.log(_clip(y_pred, EPSILON, 1 - EPSILON))


def _loss_op(name, compute, float32_inputs=False):
  """One fused op `(y_pred, y_true) -> per-sample losses` (y_true cast to y_pred's dtype)."""
  def impl(y_pred, y_true, **params):
    if float32_inputs:
      y_pred = y_pred.astype(_F32)
    return compute(y_pred, y_true.astype(y_pred.dtype), **params)
  impl.__name__ = compute.__name__
  return ops.op(name=name, describe_error=ops.broadcast_error)(impl)


_OPS = {fn.__name__: _loss_op(op_name, fn) for op_name, fn in [
    ("SquaredDifference", _mse), ("Sub", _mae), ("Sub", _mape), ("SquaredDifference", _msle),
    ("Mul", _squared_hinge), ("Mul", _hinge), ("Mul", _categorical_hinge),
    ("Sub", _logcosh), ("RealDiv", _kld), ("Mul", _poisson), ("Mul", _cosine),
    ("Mul", _categorical_xent), ("Mul", _binary_xent)]}
_OPS["_huber"] = _loss_op("Sub", _huber, float32_inputs=True)
_clipped_log_op = ops.op(name="Log")(_clipped_log)


def _run(fn_name, y_true, y_pred, **params):
  y_pred = to_tensor(y_pred)
  y_true = to_tensor(y_true)
  return _OPS[fn_name](y_pred, y_true, **params)


def _simple(fn_name, doc, *names):
  def loss(y_true, y_pred):
    return _run(fn_name, y_true, y_pred)
  loss.__name__ = loss.__qualname__ = names[0]
  loss.__doc__ = doc
  return export(*("keras.losses." + n for n in names))(loss)


mean_squared_error = mse = MSE = _simple(
    "_mse", "mean(square(y_pred - y_true), axis=-1).", "mean_squared_error", "mse", "MSE")
mean_absolute_error = mae = MAE = _simple(
    "_mae", "mean(abs(y_pred - y_true), axis=-1).", "mean_absolute_error", "mae", "MAE")
mean_absolute_percentage_error = mape = MAPE = _simple(
    "_mape", "100 * mean(abs((y_true - y_pred) / max(abs(y_true), epsilon)), axis=-1).",
    "mean_absolute_percentage_error", "mape", "MAPE")
mean_squared_logarithmic_error = msle = MSLE = _simple(
    "_msle", "mean(square(log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1)), axis=-1).",
    "mean_squared_logarithmic_error", "msle", "MSLE")
squared_hinge = _simple("_squared_hinge", "mean(square(max(1 - y_true * y_pred, 0)), -1); "
                        "{0, 1} labels are converted to {-1, 1}.", "squared_hinge")
hinge = _simple("_hinge", "mean(max(1 - y_true * y_pred, 0), axis=-1); {0, 1} labels are "
                "converted to {-1, 1}.", "hinge")
categorical_hinge = _simple(
    "_categorical_hinge", "max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0).",
    "categorical_hinge")
logcosh = _simple("_logcosh", "mean(log(cosh(y_pred - y_true)), axis=-1).", "logcosh")
kullback_leibler_divergence = kld = KLD = _simple(
    "_kld", "sum(y_true * log(y_true / y_pred), axis=-1), both clipped to [epsilon, 1].",
    "kullback_leibler_divergence", "kld", "KLD")
poisson = _simple("_poisson", "mean(y_pred - y_true * log(y_pred + epsilon), axis=-1).",
                  "poisson")


def huber_loss(y_true, y_pred, delta=1.0):
  """Elementwise Huber loss (TF 1.15's Keras helper: no mean over the last axis)."""
  return _run("_huber", y_true, y_pred, delta=float(delta))


@export("keras.losses.cosine_similarity", "keras.losses.cosine_proximity",
        "keras.losses.cosine", "keras.metrics.cosine")
def cosine_similarity(y_true, y_pred, axis=-1):
  """-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)."""
  y_pred = to_tensor(y_pred)
  axis = int(axis) % max(y_pred.ndim, 1)
  return _run("_cosine", y_true, y_pred, axis=axis)


cosine_proximity = cosine = cosine_similarity


@export("keras.losses.categorical_crossentropy")
def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
  """Crossentropy of one-hot `y_true` and probabilities (normalized, then clipped to
  [epsilon, 1 - epsilon]) or logits `y_pred`, over the last axis."""
  y_pred, y_true = to_tensor(y_pred), to_tensor(y_true)
  backend.check_categorical_shapes(y_true, y_pred)
  if from_logits and y_true._value.shape != y_pred._value.shape:
    nn_ops.softmax_cross_entropy_with_logits_v2(y_true, y_pred)  # raises TF's error
  return _OPS["_categorical_xent"](y_pred, y_true, from_logits=bool(from_logits),
                                   label_smoothing=float(label_smoothing))


@export("keras.losses.binary_crossentropy")
def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
  """Mean over the last axis of the elementwise binary crossentropy (probabilities clipped
  to [epsilon, 1 - epsilon], or logits)."""
  y_pred, y_true = to_tensor(y_pred), to_tensor(y_true)
  if from_logits and y_true._value.shape != y_pred._value.shape:
    raise ValueError("logits and labels must have the same shape (%s vs %s)"
                     % (y_pred.shape, y_true.shape))
  return _OPS["_binary_xent"](y_pred, y_true, from_logits=bool(from_logits),
                              label_smoothing=float(label_smoothing))


@export("keras.losses.sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
  """Crossentropy of integer class ids `y_true` and probabilities (clipped) or logits."""
  output = to_tensor(y_pred)
  target = cast(to_tensor(y_true), "int64")
  if not from_logits:
    output = _clipped_log_op(output)
  rank = output.ndim
  axis = int(axis) % rank
  if axis != rank - 1:
    output = array_ops.transpose(output, list(range(axis)) + list(range(axis + 1, rank)) +
                                 [axis])
  output_shape = output._value.shape
  update_shape = target.ndim != rank - 1
  if update_shape:
    target = array_ops.reshape(target, [-1])
    output = array_ops.reshape(output, [-1, output_shape[-1]])
  result = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
  if update_shape and rank >= 3:
    result = array_ops.reshape(result, list(output_shape[:-1]))
  return result


# ---- weighting and reduction ----
@ops.op(name="WeightedLoss")
def _weighted_reduce(losses, weights, *, reduction):
  weighted = losses.astype(_F32) * weights.astype(_F32)
  if reduction != Reduction.NONE:
    weighted = jnp.sum(weighted) if reduction == Reduction.SUM else div_no_nan(
        jnp.sum(weighted), jnp.asarray(weighted.size, _F32))
  return weighted.astype(losses.dtype)


def compute_weighted_loss(losses, sample_weight=None,
                          reduction=Reduction.SUM_OVER_BATCH_SIZE, name=None):
  """Keras's `losses_utils.compute_weighted_loss`: scales `losses` by `sample_weight`
  (squeezing or expanding its last dimension to the losses' rank) and reduces them."""
  Reduction.validate(reduction)
  if reduction == Reduction.AUTO:
    reduction = Reduction.SUM_OVER_BATCH_SIZE
  losses = to_tensor(losses)
  weights = to_tensor(1.0 if sample_weight is None else sample_weight)
  if weights.ndim:
    if weights.ndim - losses.ndim == 1:
      weights = array_ops.squeeze(weights, [-1])
    elif losses.ndim - weights.ndim == 1:
      weights = array_ops.expand_dims(weights, -1)
    if weights._value.shape != losses._value.shape:
      assert_broadcastable(weights._value.shape, losses._value.shape)
  return _weighted_reduce(losses, weights, reduction=reduction)


def squeeze_or_expand_dimensions(y_pred, y_true):
  """Keras: drops a trailing size-1 dimension so `y_true` and `y_pred` ranks line up."""
  pred_rank, true_rank = y_pred.ndim, y_true.ndim
  if pred_rank - true_rank != 1 or y_pred._value.shape[-1:] == (1,):
    if pred_rank - true_rank == 1 and y_pred._value.shape[-1] == 1:
      y_pred = array_ops.squeeze(y_pred, [-1])
    elif pred_rank - true_rank == -1 and y_true._value.shape[-1] == 1:
      y_true = array_ops.squeeze(y_true, [-1])
  return y_pred, y_true


# ---- Loss classes ----
@export("keras.losses.Loss")
class Loss:
  """Base class: `__call__(y_true, y_pred, sample_weight=None)` runs `call` and reduces."""

  def __init__(self, reduction=Reduction.AUTO, name=None):
    Reduction.validate(reduction)
    self.reduction = reduction
    self.name = name

  def __call__(self, y_true, y_pred, sample_weight=None):
    losses = self.call(y_true, y_pred)
    return compute_weighted_loss(losses, sample_weight, reduction=self._get_reduction())

  @classmethod
  def from_config(cls, config):
    return cls(**config)

  def get_config(self):
    return {"reduction": self.reduction, "name": self.name}

  def call(self, y_true, y_pred):
    """Per-sample losses; subclasses implement it."""
    raise NotImplementedError("Must be implemented in subclasses.")

  def _get_reduction(self):
    if self.reduction == Reduction.AUTO:
      return Reduction.SUM_OVER_BATCH_SIZE
    return self.reduction


class LossFunctionWrapper(Loss):
  """A `Loss` computing `fn(y_true, y_pred, **kwargs)`."""

  def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
    super().__init__(reduction=reduction, name=name)
    self.fn = fn
    self._fn_kwargs = kwargs

  def call(self, y_true, y_pred):
    if ops.is_tensor(y_pred) and ops.is_tensor(y_true):
      y_pred, y_true = squeeze_or_expand_dimensions(to_tensor(y_pred), to_tensor(y_true))
    return self.fn(y_true, y_pred, **self._fn_kwargs)

  def get_config(self):
    config = {k: (v.numpy() if isinstance(v, Tensor) else v)
              for k, v in self._fn_kwargs.items()}
    return dict(super().get_config(), **config)


def _wrapper_class(class_name, fn, default_name, doc):
  def __init__(self, reduction=Reduction.AUTO, name=default_name):
    LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name)
  cls = type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": doc,
                                                  "__module__": __name__})
  return export("keras.losses." + class_name)(cls)


MeanSquaredError = _wrapper_class("MeanSquaredError", mean_squared_error,
                                  "mean_squared_error", "Mean of squared errors.")
MeanAbsoluteError = _wrapper_class("MeanAbsoluteError", mean_absolute_error,
                                   "mean_absolute_error", "Mean of absolute errors.")
MeanAbsolutePercentageError = _wrapper_class(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error", "Mean absolute percentage error.")
MeanSquaredLogarithmicError = _wrapper_class(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", "Mean squared logarithmic error.")
Hinge = _wrapper_class("Hinge", hinge, "hinge", "Hinge loss.")
SquaredHinge = _wrapper_class("SquaredHinge", squared_hinge, "squared_hinge",
                              "Squared hinge loss.")
CategoricalHinge = _wrapper_class("CategoricalHinge", categorical_hinge, "categorical_hinge",
                                  "Categorical hinge loss.")
LogCosh = _wrapper_class("LogCosh", logcosh, "logcosh", "Log of the hyperbolic cosine.")
KLDivergence = _wrapper_class("KLDivergence", kullback_leibler_divergence,
                              "kullback_leibler_divergence", "Kullback-Leibler divergence.")
Poisson = _wrapper_class("Poisson", poisson, "poisson", "Poisson loss.")


@export("keras.losses.BinaryCrossentropy")
class BinaryCrossentropy(LossFunctionWrapper):
  """Binary crossentropy of labels and probabilities (or logits with `from_logits`)."""

  def __init__(self, from_logits=False, label_smoothing=0, reduction=Reduction.AUTO,
               name="binary_crossentropy"):
    super().__init__(binary_crossentropy, reduction=reduction, name=name,
                     from_logits=from_logits, label_smoothing=label_smoothing)
    self.from_logits = from_logits


@export("keras.losses.CategoricalCrossentropy")
class CategoricalCrossentropy(LossFunctionWrapper):
  """Crossentropy of one-hot labels and probabilities (or logits with `from_logits`)."""

  def __init__(self, from_logits=False, label_smoothing=0, reduction=Reduction.AUTO,
               name="categorical_crossentropy"):
    super().__init__(categorical_crossentropy, reduction=reduction, name=name,
                     from_logits=from_logits, label_smoothing=label_smoothing)


@export("keras.losses.SparseCategoricalCrossentropy")
class SparseCategoricalCrossentropy(LossFunctionWrapper):
  """Crossentropy of integer labels and probabilities (or logits with `from_logits`)."""

  def __init__(self, from_logits=False, reduction=Reduction.AUTO,
               name="sparse_categorical_crossentropy"):
    super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name,
                     from_logits=from_logits)


@export("keras.losses.Huber")
class Huber(LossFunctionWrapper):
  """Huber loss: quadratic within `delta`, linear beyond (elementwise, as in TF 1.15)."""

  def __init__(self, delta=1.0, reduction=Reduction.AUTO, name="huber_loss"):
    super().__init__(huber_loss, reduction=reduction, name=name, delta=delta)


@export("keras.losses.CosineSimilarity")
class CosineSimilarity(LossFunctionWrapper):
  """-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)."""

  def __init__(self, axis=-1, reduction=Reduction.AUTO, name="cosine_similarity"):
    super().__init__(cosine_similarity, reduction=reduction, name=name, axis=axis)


# ---- lookup ----
_OBJECTS = {name: globals()[name] for name in (
    "mean_squared_error", "mse", "MSE", "mean_absolute_error", "mae", "MAE",
    "mean_absolute_percentage_error", "mape", "MAPE", "mean_squared_logarithmic_error", "msle",
    "MSLE", "squared_hinge", "hinge", "categorical_hinge", "logcosh",
    "kullback_leibler_divergence", "kld", "KLD", "poisson", "huber_loss", "cosine_similarity",
    "cosine_proximity", "cosine", "categorical_crossentropy", "binary_crossentropy",
    "sparse_categorical_crossentropy", "Loss", "MeanSquaredError", "MeanAbsoluteError",
    "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "Hinge", "SquaredHinge",
    "CategoricalHinge", "LogCosh", "KLDivergence", "Poisson", "BinaryCrossentropy",
    "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "Huber", "CosineSimilarity")}


@export("keras.losses.serialize")
def serialize(loss):
  """A loss function's name, or a Loss's {"class_name", "config"}."""
  if hasattr(loss, "get_config"):
    return {"class_name": type(loss).__name__, "config": loss.get_config()}
  if hasattr(loss, "__name__"):
    return loss.__name__
  raise ValueError("Cannot serialize", loss)


@export("keras.losses.deserialize")
def deserialize(name, custom_objects=None):
  """The loss function (or a new Loss instance) that `name` or a config dict names."""
  objects = dict(_OBJECTS, **(custom_objects or {}))
  if isinstance(name, dict):
    if "class_name" not in name or "config" not in name:
      raise ValueError("Improper config format: %s" % (name,))
    cls = objects.get(name["class_name"])
    if cls is None:
      raise ValueError("Unknown loss function: %s" % name["class_name"])
    return cls.from_config(name["config"])
  if isinstance(name, str):
    obj = objects.get(name)
    if obj is None:
      raise ValueError("Unknown loss function:%s" % name)
    return obj() if isinstance(obj, type) else obj
  raise ValueError("Could not interpret serialized loss function: %s" % (name,))


@export("keras.losses.get")
def get(identifier):
  """A loss from None, a name, a config dict or a callable (returned as is)."""
  if identifier is None:
    return None
  if isinstance(identifier, (str, dict)):
    return deserialize(identifier)
  if callable(identifier):
    return identifier
  raise ValueError("Could not interpret loss function identifier: %s" % (identifier,))
