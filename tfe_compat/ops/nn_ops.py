"""`tf.nn`: activations, softmax and cross-entropy losses, dropout, bias_add, top_k.

Convolutions and pooling live in conv_ops, normalization, statistics and embedding lookups in
nn_impl (both imported here, so importing nn_ops registers all of `tf.nn`). Every impl
is differentiable by JAX with TF's gradient choices (relu/relu6 at their kinks, labels of the
v1 softmax cross-entropy stopped, fused_batch_norm's statistics outputs stopped).
"""
# pylint: disable=redefined-builtin
import collections
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import conv_ops  # noqa: F401  (registers tf.nn.conv*/pool*)
from tfe_compat.ops import fast_matmul
from tfe_compat.ops import nn_impl  # noqa: F401  (registers moments, embedding_lookup...)
from tfe_compat.ops import value_checks
from tfe_compat.ops.conv_ops import (_TF_NAMES, _fail, _hashable, _is_concrete, _lookup,
                                     _precise, _require_float, _shape_text)
from tfe_compat.ops.math_ops import FLOAT, REAL, dtype_message

op = ops.op


# ---- Activations ----
@op(name="Relu", describe_error=lambda x: dtype_message(x, REAL))
def _relu(x):
  return jax.nn.relu(x)


@op(name="Relu6")
def _relu6(x):
  zero, six = jnp.zeros((), x.dtype), jnp.full((), 6, x.dtype)
  return jnp.where(x >= six, six, jnp.where(x > zero, x, zero))


@op(name="Elu")
def _elu(x):
  return jax.nn.elu(x)


@op(name="Selu")
def _selu(x):
  alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
  negative = x < 0  # TF's gradient at 0 is `scale`, jax.nn.selu's alpha * scale
  return scale * jnp.where(negative, alpha * jnp.expm1(jnp.where(negative, x, 0)), x)


@op(name="LeakyRelu", describe_error=lambda x: dtype_message(x, FLOAT))
def _leaky_relu(x, *, alpha):
  return jnp.where(x > 0, x, x * jnp.asarray(alpha, x.dtype))


@op(name="Softplus")
def _softplus(x):
  return jax.nn.softplus(x)


@op(name="Softsign")
def _softsign(x):
  return x / (1 + jnp.abs(x))


@op(name="Swish")
def _swish(x, *, beta):
  return x * jax.nn.sigmoid(x * jnp.asarray(beta, x.dtype))


@op(name="CRelu")
def _crelu(x, *, axis):
  return jax.nn.relu(jnp.concatenate([x, -x], axis=axis))


@export("nn.relu")
def relu(features, name=None):
  """max(features, 0)."""
  return _relu(ops.convert_to_tensor(features))


@export("nn.relu6")
def relu6(features, name=None):
  """min(max(features, 0), 6); gradient 0 at 0 and 6 as in TF."""
  return _relu6(ops.convert_to_tensor(features))


def _float_input(features, op_name):
  x = ops.convert_to_tensor(features)
  _require_float(x, op_name)
  return x


@export("nn.elu")
def elu(features, name=None):
  """exp(features) - 1 where features < 0, else features."""
  return _elu(_float_input(features, "Elu"))


@export("nn.selu")
def selu(features, name=None):
  """Scaled exponential linear unit."""
  return _selu(_float_input(features, "Selu"))


@export("nn.softplus", "math.softplus")
def softplus(features, name=None):
  """log(exp(features) + 1)."""
  return _softplus(_float_input(features, "Softplus"))


@export("nn.softsign", "math.softsign")
def softsign(features, name=None):
  """features / (abs(features) + 1)."""
  return _softsign(_float_input(features, "Softsign"))


@export("nn.leaky_relu")
def leaky_relu(features, alpha=0.2, name=None):
  """x for x > 0, else alpha * x (integers are cast to float32 first)."""
  x = ops.convert_to_tensor(features)
  if x.dtype.is_integer:
    x = _cast(x, dtype="float32")
  if isinstance(alpha, np.ndarray):
    alpha = alpha.item()
  if not isinstance(alpha, numbers.Real):
    raise TypeError("Expected float for argument 'alpha' not %r." % (alpha,))
  return _leaky_relu(x, alpha=float(alpha))


@export("nn.swish")
def swish(features, beta=1.0):
  """features * sigmoid(beta * features)."""
  return _swish(_float_input(features, "Swish"), beta=float(beta))


@export("nn.crelu")
def crelu(features, name=None, axis=-1):
  """Concatenated ReLU: relu(concat([x, -x], axis))."""
  return _crelu(ops.convert_to_tensor(features), axis=int(axis))


@op(name="Cast")
def _cast(x, *, dtype):
  return x.astype(dtype)


# ---- Softmax ----
@op(name="Softmax")
def _softmax(x, *, axis):
  return jax.nn.softmax(x, axis=axis)


@op(name="LogSoftmax")
def _log_softmax(x, *, axis):
  return jax.nn.log_softmax(x, axis=axis)


def _softmax_call(impl, op_name, logits, axis, dim):
  axis = _lookup("axis", axis, "dim", dim)
  axis = -1 if axis is None else int(axis)
  x = ops.convert_to_tensor(logits)
  _require_float(x, op_name)
  if x.ndim == 0:
    _fail("logits must have >= 1 dimension, got []", op_name)
  if not -x.ndim <= axis < x.ndim:
    raise errors.invalid_argument(
        "Dimension (%d) must be in the range [%d, %d) where %d is the number of dimensions "
        "in the input." % (axis, -x.ndim, x.ndim, x.ndim))
  return impl(x, axis=axis)


@export("nn.softmax", "math.softmax")
def softmax(logits, axis=None, name=None, dim=None):
  """exp(logits) / reduce_sum(exp(logits), axis); `axis` defaults to -1."""
  return _softmax_call(_softmax, "Softmax", logits, axis, dim)


@export("nn.log_softmax", "math.log_softmax")
def log_softmax(logits, axis=None, name=None, dim=None):
  """logits - log(reduce_sum(exp(logits), axis)); `axis` defaults to -1."""
  return _softmax_call(_log_softmax, "LogSoftmax", logits, axis, dim)


# ---- Cross-entropy losses ----
def _ensure_xent_args(name, sentinel, labels, logits):
  if sentinel is not None:
    raise ValueError("Only call `%s` with named arguments (labels=..., logits=..., ...)"
                     % name)
  if labels is None or logits is None:
    raise ValueError("Both labels and logits must be provided.")


@op(name="SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(logits, labels):
  log_probs = jax.nn.log_softmax(_precise(logits), axis=-1)
  depth = logits.shape[-1]
  valid = (labels >= 0) & (labels < depth)
  picked = jnp.take_along_axis(log_probs, jnp.where(valid, labels, 0)[..., None], axis=-1)
  loss = jnp.where(valid, -picked[..., 0], jnp.nan)  # TF on GPU: NaN for bad labels
  return loss.astype(logits.dtype)


@export("nn.sparse_softmax_cross_entropy_with_logits")
def sparse_softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None,
                                             name=None):
  """Softmax cross-entropy between `logits` [..., classes] and integer `labels` [...]."""
  _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", _sentinel, labels, logits)
  labels = ops.convert_to_tensor(labels)
  logits = ops.convert_to_tensor(logits)
  op_name = "SparseSoftmaxCrossEntropyWithLogits"
  if labels.dtype not in (dtypes.int32, dtypes.int64):
    _fail("Value for attr 'Tlabels' of %s is not in the list of allowed values: int32, int64"
          % _TF_NAMES.get(labels.dtype.name, labels.dtype.name), op_name)
  _require_float(logits, op_name)
  logits_shape, labels_shape = logits._value.shape, labels._value.shape
  if not logits_shape:
    raise ValueError("Logits cannot be scalars - received shape %s." % (logits.shape,))
  if len(labels_shape) != len(logits_shape) - 1:
    raise ValueError("Rank mismatch: Rank of labels (received %d) should equal rank of "
                     "logits minus 1 (received %d)." % (len(labels_shape), len(logits_shape)))
  if labels_shape != logits_shape[:-1]:
    raise ValueError("Shape mismatch: The shape of labels (received %s) should equal the "
                     "shape of logits except for the last dimension (received %s)."
                     % (labels.shape, logits.shape))
  classes = logits_shape[-1]

  def error(values):
    values = values.reshape(-1)
    bad = (values < 0) | (values >= classes)
    _fail("Received a label value of %d which is outside the valid range of [0, %d).  "
          "Label values: %s" % (values[np.argmax(bad)], classes,
                                " ".join(str(v) for v in values)), op_name)
  if labels._value.size:
    value_checks.check(labels, lambda v: ((v >= 0) & (v < classes)).all(), error)
  return _sparse_xent(logits, labels)


@op(name="SoftmaxCrossEntropyWithLogits")
def _softmax_xent(labels, logits, *, axis, stop_labels):
  labels = labels.astype(logits.dtype)
  if stop_labels:
    labels = lax.stop_gradient(labels)
  log_probs = jax.nn.log_softmax(_precise(logits), axis=axis)
  return -jnp.sum(_precise(labels) * log_probs, axis=axis).astype(logits.dtype)


def _softmax_xent_call(labels, logits, axis, stop_labels):
  labels = ops.convert_to_tensor(labels)
  logits = ops.convert_to_tensor(logits)
  op_name = "SoftmaxCrossEntropyWithLogits"
  _require_float(logits, op_name)
  axis = -1 if axis is None else int(axis)
  if not logits.ndim or not -logits.ndim <= axis < logits.ndim:
    raise errors.invalid_argument("Dimension (%d) must be in the range [%d, %d) where %d is "
                                  "the number of dimensions in the input." %
                                  (axis, -logits.ndim, logits.ndim, logits.ndim))
  try:
    compatible = np.broadcast_shapes(labels._value.shape, logits._value.shape)
  except ValueError:
    compatible = None
  if compatible != logits._value.shape:
    _fail("logits and labels must be broadcastable: logits_size=%s labels_size=%s"
          % (_shape_text(logits._value.shape), _shape_text(labels._value.shape)), op_name)
  return _softmax_xent(labels, logits, axis=axis, stop_labels=stop_labels)


@export("nn.softmax_cross_entropy_with_logits_v2")
def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
  """-sum(labels * log_softmax(logits), axis); gradients flow into `labels` too."""
  axis = _lookup("axis", axis, "dim", dim)
  return _softmax_xent_call(labels, logits, axis, stop_labels=False)


@export("nn.softmax_cross_entropy_with_logits")
def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1,
                                      name=None, axis=None):
  """TF1's softmax cross-entropy: like the v2 op, but no gradient flows into `labels`."""
  dim = _lookup("axis", axis, "dim", dim)
  _ensure_xent_args("softmax_cross_entropy_with_logits", _sentinel, labels, logits)
  return _softmax_xent_call(labels, logits, dim, stop_labels=True)


def _matching_labels(labels, logits, op_name):
  logits, labels = ops.convert_matching(ops.convert_to_tensor(logits),
                                        ops.convert_to_tensor(labels), op_name=op_name)
  if labels._value.shape != logits._value.shape:
    raise ValueError("logits and labels must have the same shape (%s vs %s)"
                     % (logits.shape, labels.shape))
  return labels, logits


@op(name="SigmoidCrossEntropyWithLogits")
def _sigmoid_xent(labels, logits):
  zeros = jnp.zeros_like(logits)
  cond = logits >= zeros
  relu_logits = jnp.where(cond, logits, zeros)
  neg_abs_logits = jnp.where(cond, -logits, logits)
  return relu_logits - logits * labels + jnp.log1p(jnp.exp(neg_abs_logits))


@export("nn.sigmoid_cross_entropy_with_logits")
def sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):
  """max(x, 0) - x * z + log(1 + exp(-abs(x))) for logits x and labels z."""
  _ensure_xent_args("sigmoid_cross_entropy_with_logits", _sentinel, labels, logits)
  labels, logits = _matching_labels(labels, logits, "Mul")
  return _sigmoid_xent(labels, logits)


@op(name="WeightedCrossEntropyWithLogits")
def _weighted_xent(labels, logits, pos_weight):
  log_weight = 1 + (pos_weight - 1) * labels
  abs_logits = logits * jnp.sign(logits)  # TF's abs has gradient sign(x): 0 at 0
  return ((1 - labels) * logits +
          log_weight * (jnp.log1p(jnp.exp(-abs_logits)) + jax.nn.relu(-logits)))


@export("nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
  """Sigmoid cross-entropy with positive examples weighted by `pos_weight`."""
  labels = _lookup("labels", labels, "targets", targets)
  labels, logits = _matching_labels(labels, logits, "Mul")
  pos_weight = ops.convert_to_tensor(pos_weight, dtype=logits.dtype)
  return _weighted_xent(labels, logits, pos_weight)


@op(name="LogPoissonLoss")
def _log_poisson_loss(targets, log_input, *, full):
  result = jnp.exp(log_input) - log_input * targets
  if full:
    stirling = (targets * jnp.log(targets) - targets +
                0.5 * jnp.log(2 * np.pi * targets)).astype(targets.dtype)
    result += jnp.where((targets >= 0) & (targets <= 1), jnp.zeros_like(targets), stirling)
  return result


@export("nn.log_poisson_loss")
def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
  """exp(log_input) - log_input * targets (+ Stirling's term when `compute_full_loss`)."""
  log_input, targets = ops.convert_matching(log_input, targets, op_name="Mul")
  if log_input._value.shape != targets._value.shape:
    raise ValueError("log_input and targets must have the same shape (%s vs %s)"
                     % (log_input.shape, targets.shape))
  return _log_poisson_loss(targets, log_input, full=bool(compute_full_loss))


# ---- Top-k ----
TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


@op(name="TopKV2")
def _top_k(x, *, k):
  return lax.top_k(x, k)


@export("nn.top_k", "math.top_k")
def top_k(input, k=1, sorted=True, name=None):
  """The k largest entries of the last dimension (values, int32 indices), sorted."""
  x = ops.convert_to_tensor(input)
  k = int(k)
  if x.ndim == 0:
    _fail("input must be >= 1-D, got shape []", "TopKV2")
  if k < 0:
    _fail("Need k >= 0, got %d" % k, "TopKV2")
  if x._value.shape[-1] < k:
    _fail("input must have at least k columns. Had %d, needed %d"
          % (x._value.shape[-1], k), "TopKV2")
  return TopKV2(*_top_k(x, k=k))


@op(name="InTopKV2")
def _in_top_k(predictions, targets, k):
  depth = predictions.shape[-1]
  valid = (targets >= 0) & (targets < depth)
  target_value = jnp.take_along_axis(predictions, jnp.where(valid, targets, 0)[:, None],
                                     axis=1)
  higher = jnp.sum(predictions > target_value, axis=1)
  return valid & jnp.isfinite(target_value[:, 0]) & (higher < k)


@export("nn.in_top_k", "math.in_top_k")
def in_top_k(predictions, targets, k, name=None):
  """Whether each target's prediction is among the row's k largest (ties count as in)."""
  predictions, = ops.convert_matching(predictions, dtype=dtypes.float32, op_name="InTopKV2")
  targets = ops.convert_to_tensor(targets)
  if targets.dtype not in (dtypes.int32, dtypes.int64):
    _fail("Value for attr 'T' of %s is not in the list of allowed values: int32, int64"
          % _TF_NAMES.get(targets.dtype.name, targets.dtype.name), "InTopKV2")
  if predictions.ndim != 2:
    _fail("predictions must be 2-dimensional", "InTopKV2")
  if targets.ndim != 1:
    _fail("targets must be 1-dimensional", "InTopKV2")
  if predictions._value.shape[0] != targets._value.shape[0]:
    _fail("First dimension of predictions %d must match length of targets %d"
          % (predictions._value.shape[0], targets._value.shape[0]), "InTopKV2")
  return _in_top_k(predictions, targets, ops.convert_to_tensor(k, dtype=targets.dtype))


# ---- Dropout ----
@op(name="Dropout")
def _dropout(x, key, rate, *, noise_shape, from_keep_prob):
  if from_keep_prob:
    rate = 1 - rate
  uniform = jax.random.uniform(key, noise_shape, dtype=x.dtype)
  return x * (1 / (1 - rate)) * (uniform >= rate).astype(x.dtype)


@export("nn.dropout")
def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
  """Zeroes each element with probability `rate` (or 1 - `keep_prob`: pass exactly one)
  and scales the others by 1 / (1 - rate)."""
  from_keep_prob = keep_prob is not None and not isinstance(keep_prob, numbers.Real)
  if keep_prob is not None and rate is not None:
    raise ValueError("Cannot specify both 'keep_prob' and 'rate'")
  if keep_prob is not None:
    rate = keep_prob if from_keep_prob else 1. - keep_prob
  if rate is None:
    raise ValueError("You must provide a rate to dropout.")
  x = ops.convert_to_tensor(x)
  if not x.dtype.is_floating:
    raise ValueError("x has to be a floating point tensor since it's going to be scaled. "
                     "Got a %s tensor instead." % x.dtype)
  if isinstance(rate, numbers.Real):
    if not 0 <= rate < 1:
      raise ValueError("rate must be a scalar tensor or a float in the range [0, 1), got %g"
                       % rate)
    if rate == 0:
      return x
  rate = ops.convert_to_tensor(rate, dtype=x.dtype)
  if rate.ndim:
    raise ValueError("rate must be a scalar tensor, got shape %s" % (rate.shape,))
  if not from_keep_prob and _is_concrete(rate) and float(rate._value) == 0:
    return x
  shape = x._value.shape
  if noise_shape is None:
    noise_shape = shape
  else:
    noise_shape = tuple(shape[i] if d is None else int(d)
                        for i, d in enumerate(_hashable(noise_shape)))
    try:
      ok = np.broadcast_shapes(noise_shape, shape) == shape
    except ValueError:
      ok = False
    if not ok:
      _fail("Incompatible shapes: %s vs. %s" % (_shape_text(shape), _shape_text(noise_shape)),
            "Mul")
  key = Tensor(context.next_rng_key(seed))
  return _dropout(x, key, rate, noise_shape=noise_shape, from_keep_prob=from_keep_prob)


# ---- Bias, dense helpers ----
@op(name="BiasAdd")
def _bias_add(x, bias, *, channels_first):
  if channels_first:
    bias = bias.reshape(bias.shape + (1,) * (x.ndim - 2))
  return x + bias


@export("nn.bias_add")
def bias_add(value, bias, data_format=None, name=None):
  """Adds the 1-D `bias` along the channel dimension (last, or 1 for "NC..." formats)."""
  channels_first = False
  if data_format is not None:
    if data_format.startswith("NC"):
      channels_first = True
    elif not (data_format.startswith("N") and data_format.endswith("C")):
      raise ValueError("data_format must be of the form `N...C` or `NC...`")
  value, bias = ops.convert_matching(value, bias, op_name="BiasAdd")
  x_shape, b_shape = value._value.shape, bias._value.shape
  if len(x_shape) < 2:
    _fail("Input tensor must be at least 2D: %s" % _shape_text(x_shape), "BiasAdd")
  if len(b_shape) != 1:
    _fail("Biases must be 1D: %s" % _shape_text(b_shape), "BiasAdd")
  if b_shape[0] != x_shape[1 if channels_first else -1]:
    _fail("Must provide as many biases as the %s dimension of the input tensor: %s vs. %s"
          % ("channel" if channels_first else "last", _shape_text(b_shape),
             _shape_text(x_shape)), "BiasAdd")
  return _bias_add(value, bias, channels_first=channels_first)


def _matmul_error(x, w, b):
  return "Matrix size-incompatible: In[0]: %s, In[1]: %s" % (_shape_text(x._value.shape),
                                                             _shape_text(w._value.shape))


@op(name="MatMul", describe_error=_matmul_error)
def _xw_plus_b(x, w, b, *, relu):
  y = fast_matmul.matmul(x, w) + b
  return jax.nn.relu(y) if relu else y


@export("nn.xw_plus_b")
def xw_plus_b(x, weights, biases, name=None):
  """matmul(x, weights) + biases."""
  x, weights, biases = ops.convert_matching(x, weights, biases, op_name="MatMul")
  return _xw_plus_b(x, weights, biases, relu=False)


@export("nn.relu_layer")
def relu_layer(x, weights, biases, name=None):
  """relu(matmul(x, weights) + biases)."""
  x, weights, biases = ops.convert_matching(x, weights, biases, op_name="MatMul")
  return _xw_plus_b(x, weights, biases, relu=True)


# ---- Weight decay ----
@op(name="L2Loss")
def _l2_loss(x):
  return jnp.sum(jnp.square(x)) / 2


@export("nn.l2_loss")
def l2_loss(t, name=None):
  """sum(t ** 2) / 2."""
  t = ops.convert_to_tensor(t)
  _require_float(t, "L2Loss")
  return _l2_loss(t)
