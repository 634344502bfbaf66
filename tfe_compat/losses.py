"""TF1 `tf.losses`: weighted losses with TF 1.15's `Reduction` semantics, and `tf.GraphKeys`.

Each loss is one fused op (elementwise loss, weighting and reduction), so GradientTape sees
one entry per call. As in TF, the weighting and reduction run in float32 and the result is
cast back to the loss dtype; losses on labels/predictions cast their inputs to float32, the
cross-entropies keep the logits' dtype. Eager TF keeps no loss collections: `add_loss` is a
no-op and `get_losses` returns [].
"""
# TF's signatures: `scope`/`loss_collection`/`name` are accepted and ignored.
# pylint: disable=unused-argument
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import graph
from tfe_compat.framework.graph import GraphKeys
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.framework.tensor_shape import TensorShape
from tfe_compat.ops import array_ops
from tfe_compat.ops import grad_rules
from tfe_compat.ops import nn_ops
from tfe_compat.ops import reduction_ops
from tfe_compat.ops.matmul_cast_ops import cast

_F32 = jnp.float32


@export("losses.Reduction")
class Reduction:
  """How `tf.losses` functions reduce the weighted losses."""
  NONE = "none"
  SUM = "weighted_sum"
  SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
  MEAN = "weighted_mean"
  SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
  SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

  @classmethod
  def all(cls):
    return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
            cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

  @classmethod
  def validate(cls, key):
    if key not in cls.all():
      raise ValueError("Invalid Reduction Key %s." % (key,))


# ---- shared by the Keras losses ----
def div_no_nan(x, y):
  """x / y, or 0 where y is 0 (trace-safe, gradient 0 there as TF's DivNoNan)."""
  zero = y == 0
  return jnp.where(zero, jnp.zeros_like(x), x / jnp.where(zero, jnp.ones_like(y), y))


def no_reassociation(x):
  """`x` as computed, so XLA cannot fold `(1 - p) + eps` into `(1 + eps) - p` (TF rounds
  the two steps separately, which matters near p = 1)."""
  return jax.lax.optimization_barrier(x)


def assert_broadcastable(weights_shape, values_shape):
  """TF's static `assert_broadcastable`: weights are scalar or of the values' rank with
  each dimension 1 or equal to the values' one; ValueError otherwise."""
  weights_shape, values_shape = tuple(weights_shape), tuple(values_shape)
  prefix = "weights can not be broadcast to values."
  if not weights_shape:
    return
  if len(weights_shape) != len(values_shape):
    raise ValueError("%s values.rank=%d. weights.rank=%d. values.shape=%s. weights.shape=%s."
                     % (prefix, len(values_shape), len(weights_shape),
                        TensorShape(list(values_shape)), TensorShape(list(weights_shape))))
  for i, (w, v) in enumerate(zip(weights_shape, values_shape)):
    if w not in (1, v):
      raise ValueError("%s Mismatch at dim %d. values.shape=%s weights.shape=%s."
                       % (prefix, i, np.array(values_shape), np.array(weights_shape)))


def to_tensor(value):
  return value if isinstance(value, Tensor) else ops.convert_to_tensor(value)


# ---- weighting and reduction ----
def _reduce(losses, weights, reduction):
  """TF1 `compute_weighted_loss`'s arithmetic on float32 arrays."""
  weighted = losses * weights
  if reduction == Reduction.NONE:
    return weighted
  total = jnp.sum(weighted)
  if reduction == Reduction.SUM:
    return total
  if reduction == Reduction.MEAN:
    count = jnp.sum(jnp.ones_like(losses) * weights)
  elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
    present = jnp.where(weights == 0, jnp.zeros_like(weights), jnp.ones_like(weights))
    count = jnp.sum(jnp.broadcast_to(present, weighted.shape))
  else:
    count = jnp.asarray(losses.size, _F32)
  return div_no_nan(total, count)


@ops.op(name="WeightedLoss")
def _weighted_loss(losses, weights, *, reduction):
  return _reduce(losses.astype(_F32), weights.astype(_F32), reduction).astype(losses.dtype)


def _make_loss_op(name, elementwise, cast_to_float32):
  """A fused op `(labels, predictions, weights) -> reduced loss` around `elementwise`."""
  def impl(labels, predictions, weights, *, param, reduction):
    if cast_to_float32:
      predictions = predictions.astype(_F32)
    labels = labels.astype(predictions.dtype)
    losses = elementwise(labels, predictions, param)
    out = _reduce(losses.astype(_F32), weights.astype(_F32), reduction)
    return out.astype(predictions.dtype)
  impl.__name__ = name
  return ops.op(name=name)(impl)


def _absolute_difference(labels, predictions, _):
  return grad_rules.abs(predictions - labels)


def _squared_difference(labels, predictions, _):
  diff = predictions - labels
  return diff * diff


def _log_loss(labels, predictions, epsilon):
  return (-(labels * jnp.log(predictions + epsilon)) -
          (1 - labels) * jnp.log(no_reassociation(1 - predictions) + epsilon))


def _hinge(labels, logits, _):
  signs = 2 * labels - 1
  return jax.nn.relu(1 - signs * logits)


def _huber(labels, predictions, delta):
  abs_error = grad_rules.abs(predictions - labels)
  quadratic = grad_rules.minimum(abs_error, jnp.asarray(delta, abs_error.dtype))
  linear = abs_error - quadratic
  return 0.5 * (quadratic * quadratic) + delta * linear


def _cosine_distance(labels, predictions, axis):
  return 1 - jnp.sum(predictions * labels, axis=axis, keepdims=True)


def _sigmoid_xent(labels, logits, label_smoothing):
  if label_smoothing > 0:
    labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
  return nn_ops._sigmoid_xent.impl(labels, logits)  # pylint: disable=protected-access


def _softmax_xent(labels, logits, label_smoothing):
  if label_smoothing > 0:
    dtype = logits.dtype
    labels = (labels * jnp.asarray(1.0 - label_smoothing, dtype) +
              jnp.asarray(label_smoothing, dtype) / jnp.asarray(labels.shape[-1], dtype))
  return nn_ops._softmax_xent.impl(  # pylint: disable=protected-access
      labels, logits, axis=-1, stop_labels=True)


_absolute_difference_op = _make_loss_op("AbsoluteDifference", _absolute_difference, True)
_mean_squared_error_op = _make_loss_op("MeanSquaredError", _squared_difference, True)
_log_loss_op = _make_loss_op("LogLoss", _log_loss, True)
_hinge_op = _make_loss_op("HingeLoss", _hinge, True)
_huber_op = _make_loss_op("HuberLoss", _huber, True)
_cosine_op = _make_loss_op("CosineDistance", _cosine_distance, True)
_sigmoid_op = _make_loss_op("SigmoidCrossEntropy", _sigmoid_xent, False)
_softmax_op = _make_loss_op("SoftmaxCrossEntropy", _softmax_xent, False)


def _require(value, name):
  if value is None:
    raise ValueError("%s must not be None." % name)


def _loss_call(loss_op, labels, predictions, weights, reduction, names, param=None,
               cast_to_float32=True, losses_shape=None):
  """Checks like TF (None inputs, shapes, weights, reduction) and runs the fused op."""
  _require(labels, names[0])
  _require(predictions, names[1])
  Reduction.validate(reduction)
  predictions = to_tensor(predictions)
  labels = to_tensor(labels)
  for t in (predictions, labels):
    if t.dtype is dtypes.string:
      cast(t, predictions.dtype if cast_to_float32 else dtypes.float32)  # TF's error
  if not cast_to_float32 and not predictions.dtype.is_floating:
    nn_ops._require_float(predictions, loss_op.op_name)  # pylint: disable=protected-access
  predictions.shape.assert_is_compatible_with(labels.shape)
  weights = to_tensor(weights)
  shape = predictions._value.shape if losses_shape is None else losses_shape
  assert_broadcastable(weights._value.shape, shape)
  return loss_op(labels, predictions, weights, param=param, reduction=reduction)


@export("losses.compute_weighted_loss")
def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """`losses` scaled by `weights` and reduced by `reduction`, in the losses' dtype."""
  Reduction.validate(reduction)
  losses = to_tensor(losses)
  weights = to_tensor(weights)
  assert_broadcastable(weights._value.shape, losses._value.shape)
  return _weighted_loss(losses, weights, reduction=reduction)


@export("losses.absolute_difference")
def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted |predictions - labels|."""
  return _loss_call(_absolute_difference_op, labels, predictions, weights, reduction,
                    ("labels", "predictions"))


@export("losses.mean_squared_error")
def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted (predictions - labels) ** 2."""
  return _loss_call(_mean_squared_error_op, labels, predictions, weights, reduction,
                    ("labels", "predictions"))


@export("losses.log_loss")
def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted -labels * log(p + epsilon) - (1 - labels) * log(1 - p + epsilon)."""
  return _loss_call(_log_loss_op, labels, predictions, weights, reduction,
                    ("labels", "predictions"), param=float(epsilon))


@export("losses.hinge_loss")
def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted relu(1 - (2 * labels - 1) * logits) for {0, 1} labels."""
  return _loss_call(_hinge_op, labels, logits, weights, reduction, ("labels", "logits"))


@export("losses.huber_loss")
def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted Huber loss: quadratic within `delta` of the labels, linear beyond."""
  return _loss_call(_huber_op, labels, predictions, weights, reduction,
                    ("labels", "predictions"), param=float(delta))


@export("losses.cosine_distance")
def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
  """Weighted 1 - sum(predictions * labels, axis) of unit-normalized inputs (axis kept)."""
  axis = reduction_ops._lookup("axis", axis, "dim", dim)  # pylint: disable=protected-access
  if axis is None:
    raise ValueError("You must specify 'axis'.")
  _require(labels, "labels")
  _require(predictions, "predictions")
  predictions = to_tensor(predictions)
  axis, = reduction_ops._reduction_axes(  # pylint: disable=protected-access
      predictions, int(axis), "Sum")
  shape = list(predictions._value.shape)
  shape[axis] = 1
  return _loss_call(_cosine_op, labels, predictions, weights, reduction,
                    ("labels", "predictions"), param=axis, losses_shape=tuple(shape))


@export("losses.sigmoid_cross_entropy")
def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted sigmoid cross-entropy; labels smoothed towards 1/2 by `label_smoothing`."""
  return _loss_call(_sigmoid_op, multi_class_labels, logits, weights, reduction,
                    ("multi_class_labels", "logits"), param=float(label_smoothing),
                    cast_to_float32=False)


@export("losses.softmax_cross_entropy")
def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted softmax cross-entropy over the last axis; labels smoothed towards
  1/num_classes by `label_smoothing`; no gradient flows into the labels."""
  logits_shape = to_tensor(logits)._value.shape if logits is not None else ()
  if onehot_labels is not None:
    onehot_labels = array_ops.stop_gradient(onehot_labels)
  return _loss_call(_softmax_op, onehot_labels, logits, weights, reduction,
                    ("onehot_labels", "logits"), param=float(label_smoothing),
                    cast_to_float32=False, losses_shape=logits_shape[:-1])


@export("losses.sparse_softmax_cross_entropy")
def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
  """Weighted softmax cross-entropy of integer `labels`; a trailing size-1 dimension of
  labels (and then of weights) is squeezed as in TF."""
  _require(labels, "labels")
  _require(logits, "logits")
  Reduction.validate(reduction)
  labels, logits, weights = to_tensor(labels), to_tensor(logits), to_tensor(weights)
  rank_diff = logits.ndim - labels.ndim
  if rank_diff == 2 and logits._value.shape[-1] == 1:
    logits = array_ops.squeeze(logits, [-1])
  elif rank_diff == 0 and labels.ndim and labels._value.shape[-1] == 1:
    labels = array_ops.squeeze(labels, [-1])
  if weights.ndim - labels.ndim == 1:
    weights = array_ops.squeeze(weights, [-1])
  losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
  assert_broadcastable(weights._value.shape, losses._value.shape)
  return _weighted_loss(losses, weights, reduction=reduction)


@ops.op(name="MeanPairwiseSquaredError")
def _mean_pairwise_squared_error(labels, predictions, weights):
  diffs = predictions.astype(_F32) - labels.astype(_F32)
  weights = weights.astype(_F32)
  axes = tuple(range(1, diffs.ndim))
  sum_squares = jnp.sum(diffs * diffs, axis=axes, keepdims=True)
  if weights.ndim == 0:  # TF eager: a non-zero scalar weight counts all elements
    present = jnp.where(weights == 0, jnp.zeros((), _F32), jnp.asarray(diffs.size, _F32))
    num_present = jnp.broadcast_to(present, sum_squares.shape)
  else:
    present = jnp.where(weights == 0, jnp.zeros_like(weights), jnp.ones_like(weights))
    num_present = jnp.sum(jnp.broadcast_to(present, diffs.shape), axis=axes, keepdims=True)
  term1 = 2.0 * div_no_nan(sum_squares, jnp.maximum(num_present - 1, 0))
  sum_diff = jnp.sum(diffs, axis=axes, keepdims=True)
  term2 = 2.0 * div_no_nan(sum_diff * sum_diff,
                           jnp.maximum(num_present * (num_present - 1), 0))
  loss = jnp.sum((term1 - term2) * weights)
  return jnp.where(jnp.sum(num_present) > 0, loss, jnp.zeros_like(loss))


@export("losses.mean_pairwise_squared_error")
def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=GraphKeys.LOSSES):
  """Weighted mean of the squared differences between all pairs of `predictions - labels`
  entries within each batch item (dimension 0)."""
  _require(labels, "labels")
  _require(predictions, "predictions")
  labels, predictions, weights = to_tensor(labels), to_tensor(predictions), to_tensor(weights)
  assert_broadcastable(weights._value.shape, labels._value.shape)
  predictions.shape.assert_is_compatible_with(labels.shape)
  return _mean_pairwise_squared_error(labels, predictions, weights)


# ---- collections (empty under eager execution) ----
@export("losses.add_loss")
def add_loss(loss, loss_collection=GraphKeys.LOSSES):
  """Eager execution keeps no collections: the loss is not recorded (as in TF)."""


@export("losses.get_losses")
def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
  return graph.get_default_graph().get_collection(loss_collection, scope)


@export("losses.get_regularization_losses")
def get_regularization_losses(scope=None):
  return graph.get_default_graph().get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


@export("losses.get_regularization_loss")
def get_regularization_loss(scope=None, name="total_regularization_loss"):
  """The sum of the regularization losses, or a float32 0.0 when there are none."""
  losses = get_regularization_losses(scope)
  if losses:
    return reduction_ops.add_n(losses)
  return ops.constant(0.0, dtype=dtypes.float32)


@export("losses.get_total_loss")
def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
  """add_n of the collected losses: raises ValueError in eager mode, where there are none."""
  losses = list(get_losses(scope=scope))
  if add_regularization_losses:
    losses += get_regularization_losses(scope=scope)
  return reduction_ops.add_n(losses)
