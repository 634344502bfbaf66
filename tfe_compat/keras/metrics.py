"""`tf.keras.metrics` (TF 1.15): the Metric base, the mean metrics and the metric functions.

A Metric keeps its state in non-trainable Variables (attributes such as `total`, `count`),
so checkpoints and tf.function see it. `update_state` is trace-safe: it converts its inputs,
runs one `@op` for the metric's math and `assign_add`s the results (shape decisions use
static shapes only). The confusion-matrix metrics (AUC, Precision, ...) are in
metrics_confusion.py (with get/serialize/deserialize).
"""
import re

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat import variables as variables_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.trackable import Trackable
from tfe_compat.keras import backend

EPSILON = 1e-7  # K.epsilon()


def _snake_case(name):
  intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
  insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
  return insecure if insecure[0] != "_" else "private" + insecure


def shape_of(tensor):
  return tuple(tensor._value.shape)


def shape_text(shape):
  return "[%s]" % ",".join(str(d) for d in shape)


def _broadcastable(wshape, vshape):
  return (not wshape or wshape == vshape or
          (len(wshape) == len(vshape) and all(w in (1, v) for w, v in zip(wshape, vshape))))


def check_broadcast(vshape, wshape):
  """TF's static assert_broadcastable (weights_broadcast_ops)."""
  if not _broadcastable(wshape, vshape):
    raise ValueError("weights can not be broadcast to values. values.rank=%d. weights.rank=%d."
                     " values.shape=%s. weights.shape=%s." % (
                         len(vshape), len(wshape), _tuple_text(vshape), _tuple_text(wshape)))


def weight_plan(vshape, wshape):
  """TF's squeeze_or_expand_dimensions + broadcast_weights on static shapes.

  Returns (adjust, axes): adjust -1/1 squeezes/expands the weights' last dim; axes None
  broadcasts the weights to the values, else the values are reduced over `axes` first
  (Keras' fallback when the weights cannot be broadcast).
  """
  adjust = 0
  if wshape and len(wshape) - len(vshape) == 1:
    if wshape[-1] != 1:
      raise errors.invalid_argument("Can not squeeze dim[%d], expected a dimension of 1, "
                                    "got %d [Op:Squeeze]" % (len(wshape) - 1, wshape[-1]))
    wshape, adjust = wshape[:-1], -1
  elif wshape and len(vshape) - len(wshape) == 1:
    wshape, adjust = wshape + (1,), 1
  if _broadcastable(wshape, vshape):
    return adjust, None
  reduced = vshape[:len(wshape)]
  try:
    np.broadcast_shapes(reduced, wshape)
  except ValueError:
    raise errors.invalid_argument("Incompatible shapes: %s vs. %s [Op:Mul]"
                                  % (shape_text(reduced), shape_text(wshape))) from None
  return adjust, tuple(range(len(wshape), len(vshape)))


def _tuple_text(shape):
  return "(%s)" % "".join("%d, " % d for d in shape)[:-2] + ("," if len(shape) == 1 else "")


def apply_weights(values, weights, adjust, axes, reduce_fn):
  """`values * weights` per a `weight_plan`; returns (weighted values, weights used)."""
  if adjust == -1:
    weights = weights[..., 0]
  elif adjust == 1:
    weights = weights[..., None]
  if axes is None:
    weights = jnp.broadcast_to(weights, values.shape)
  elif axes:
    values = reduce_fn(values, axis=axes)
  return values * weights, weights


@ops.op(name="MetricReduce")
def _reduce(values, weights=None, *, dtype, reduction, adjust=0, axes=None):
  values = values.astype(dtype)
  if weights is not None:
    reduce_fn = jnp.sum if reduction == "sum" else jnp.mean
    values, weights = apply_weights(values, weights.astype(dtype), adjust, axes, reduce_fn)
  total = jnp.sum(values)
  if weights is not None and reduction == "weighted_mean":
    return total, jnp.sum(weights)
  return total, jnp.asarray(values.size, dtype)


@ops.op(name="DivNoNan")
def div_no_nan(x, y, *, sqrt=False):
  out = jnp.where(y == 0, jnp.zeros_like(x), x / jnp.where(y == 0, jnp.ones_like(y), y))
  return jnp.sqrt(out) if sqrt else out


def to_dtype(dtype):
  return dtypes.as_dtype("float32" if dtype is None else dtype)


# ---- The Metric base ----
_LAYER_KWARGS = {"input_shape", "batch_input_shape", "batch_size", "weights",
                 "activity_regularizer", "trainable", "autocast"}


@export("keras.metrics.Metric")
class Metric(Trackable):
  """Encapsulates metric state (Variables) and logic: `update_state`, `result`."""

  _checkpoint_creators = ("add_weight",)

  def __init__(self, name=None, dtype=None, **kwargs):
    for key in kwargs:
      if key not in _LAYER_KWARGS:
        raise TypeError("Keyword argument not understood:", key)
    self._name = name or backend.unique_object_name(_snake_case(type(self).__name__))
    self._dtype = to_dtype(dtype)
    self._metric_variables = []
    self.trainable = kwargs.get("trainable", True)
    self.stateful = True
    self.built = True

  name = property(lambda self: self._name)
  dtype = property(lambda self: self._dtype.name)
  variables = property(lambda self: list(self._metric_variables))
  weights = non_trainable_weights = non_trainable_variables = variables
  trainable_weights = trainable_variables = property(lambda self: [])

  def __call__(self, *args, **kwargs):
    """Updates the state with the inputs, then returns `result()`."""
    self.update_state(*args, **kwargs)
    return self.result()

  def update_state(self, *args, **kwargs):
    raise NotImplementedError("Must be implemented in subclasses.")

  def result(self):
    raise NotImplementedError("Must be implemented in subclasses.")

  def reset_states(self):
    """Sets every state variable to zero."""
    backend.batch_set_value([(v, np.zeros(v.shape.as_list(), v.dtype.as_numpy_dtype))
                             for v in self._metric_variables])

  def add_weight(self, name, shape=(), aggregation=variables_lib.VariableAggregation.SUM,
                 synchronization=variables_lib.VariableSynchronization.ON_READ,
                 initializer=None, dtype=None):
    """Adds a non-trainable state variable (zeros unless `initializer` says otherwise)."""
    dtype = self._dtype if dtype is None else dtypes.as_dtype(dtype)
    shape = tuple(shape)
    if initializer is None or initializer in ("zeros", "ones"):
      value = (np.ones if initializer == "ones" else np.zeros)(shape, dtype.as_numpy_dtype)
    elif isinstance(initializer, str):
      raise ValueError("Unknown initializer: " + initializer)
    else:
      if isinstance(initializer, type):
        initializer = initializer()
      value = initializer(shape, dtype=dtype)
    variable = variables_lib.ResourceVariable(
        value, trainable=False, name=name, dtype=dtype, synchronization=synchronization,
        aggregation=aggregation)
    self._metric_variables.append(variable)
    return variable

  def get_config(self):
    return {"name": self.name, "dtype": self.dtype}

  @classmethod
  def from_config(cls, config):
    return cls(**config)


class Reduce(Metric):
  """Reduces values to a `total` (and a `count` for the means)."""

  def __init__(self, reduction, name, dtype=None):
    super().__init__(name=name, dtype=dtype)
    self.reduction = reduction
    self.total = self.add_weight("total", initializer="zeros")
    if reduction != "sum":
      self.count = self.add_weight("count", initializer="zeros")

  def update_state(self, values, sample_weight=None):
    values = ops.convert_to_tensor(values)
    static = dict(dtype=self._dtype.name, reduction=self.reduction)
    if sample_weight is None:
      total, count = _reduce(values, **static)
    else:
      sample_weight = ops.convert_to_tensor(sample_weight)
      adjust, axes = weight_plan(shape_of(values), shape_of(sample_weight))
      total, count = _reduce(values, sample_weight, adjust=adjust, axes=axes, **static)
    update = self.total.assign_add(total)
    if self.reduction != "sum":
      update = self.count.assign_add(count)
    return update

  def result(self):
    if self.reduction == "sum":
      return self.total.read_value()
    return div_no_nan(self.total.read_value(), self.count.read_value())


@export("keras.metrics.Sum")
class Sum(Reduce):
  """The (weighted) sum of the given values."""

  def __init__(self, name="sum", dtype=None):
    super().__init__("sum", name=name, dtype=dtype)


@export("keras.metrics.Mean")
class Mean(Reduce):
  """The (weighted) mean of the given values."""

  def __init__(self, name="mean", dtype=None):
    super().__init__("weighted_mean", name=name, dtype=dtype)


@ops.op(name="MeanTensor")
def _mean_tensor(values, weights=None, *, dtype, adjust=0, axes=None):
  values = values.astype(dtype)
  if weights is None:
    return values, jnp.ones_like(values)
  weighted, weights = apply_weights(values, weights.astype(dtype), adjust, axes, jnp.mean)
  return weighted, jnp.ones_like(values) * weights


@export("keras.metrics.MeanTensor")
class MeanTensor(Metric):
  """The element-wise (weighted) mean of tensors of one shape."""

  def __init__(self, name="mean_tensor", dtype=None):
    super().__init__(name=name, dtype=dtype)
    self._shape = None
    self._total = self._count = None

  total = property(lambda self: self._total)
  count = property(lambda self: self._count)

  def update_state(self, values, sample_weight=None):
    values = ops.convert_to_tensor(values)
    if self._shape is None:
      self._shape = values.shape
      self._total = self.add_weight("total", shape=shape_of(values), initializer="zeros")
      self._count = self.add_weight("count", shape=shape_of(values), initializer="zeros")
    elif values.shape != self._shape:
      raise ValueError("MeanTensor input values must always have the same shape. Expected "
                       "shape (set during the first call): {}. Got: {}".format(
                           self._shape, values.shape))
    if sample_weight is None:
      total, count = _mean_tensor(values, dtype=self._dtype.name)
    else:
      sample_weight = ops.convert_to_tensor(sample_weight)
      adjust, axes = weight_plan(shape_of(values), shape_of(sample_weight))
      total, count = _mean_tensor(values, sample_weight, dtype=self._dtype.name,
                                  adjust=adjust, axes=axes)
    self._total.assign_add(total)
    return self._count.assign_add(count)

  def result(self):
    if self._shape is None:
      raise ValueError("MeanTensor does not have any result yet. Please call the MeanTensor "
                       "instance or use `.update_state(value)` before retrieving the result.")
    return div_no_nan(self._total.read_value(), self._count.read_value())


# ---- Metric functions: each is one @op on (y_true, y_pred) ----
def _squeeze_pair(y_true, y_pred):
  """Keras' squeeze_or_expand_dimensions for (y_pred, y_true): drops a trailing 1 dim."""
  diff = y_pred.ndim - y_true.ndim
  if diff != 1 or y_pred.shape[-1] == 1:
    if diff == 1 and y_pred.shape[-1] == 1:
      y_pred = y_pred[..., 0]
    elif diff == -1 and y_true.shape[-1] == 1:
      y_true = y_true[..., 0]
  return y_true, y_pred


def _metric_function(op_name, impl, cast_true=True):
  """The TF-signature public function and the op that runs `impl(y_true, y_pred, **kw)`.

  The op's statics `dtype`/`squeeze` are MeanMetricWrapper's casts and squeeze; the public
  function casts y_true to y_pred's dtype when `cast_true` (as Keras' loss functions do).
  """
  def run(y_true, y_pred, *, dtype=None, squeeze=False, kwargs=()):
    if dtype is not None:
      y_true, y_pred = y_true.astype(dtype), y_pred.astype(dtype)
    if squeeze:
      y_true, y_pred = _squeeze_pair(y_true, y_pred)
    if cast_true and y_true.dtype != y_pred.dtype:
      y_true = y_true.astype(y_pred.dtype)
    return impl(y_true, y_pred, **dict(kwargs))

  run.__name__ = impl.__name__
  metric_op = ops.op(run, name=op_name, describe_error=ops.broadcast_error)

  def function(y_true, y_pred, **kwargs):
    return metric_op(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred),
                     kwargs=tuple(sorted(kwargs.items())))
  function.metric_op = metric_op
  return function


def _floatx(x):
  return x.astype(jnp.float32)


def _in_top_k(predictions, targets, k):
  """tf.nn.in_top_k: ties at the k-th value count as in; bad targets/non-finite are out."""
  classes = predictions.shape[-1]
  valid = (targets >= 0) & (targets < classes)
  idx = jnp.clip(targets, 0, classes - 1).astype(jnp.int32)
  target = jnp.take_along_axis(predictions, idx[..., None], axis=-1)
  larger = jnp.sum(predictions > target, axis=-1)
  return valid & jnp.isfinite(target[..., 0]) & (larger < k)


def _squeeze_same_rank(y_true, y_pred):
  return y_true[..., 0] if y_true.ndim == y_pred.ndim else y_true


def _maybe_convert_labels(y_true):
  """{0, 1} labels become {-1, 1} (Keras' hinge losses)."""
  is_binary = jnp.all((y_true == 0) | (y_true == 1))
  return jnp.where(is_binary, 2. * y_true - 1., y_true).astype(y_true.dtype)


def _l2_normalize(x, axis):
  return x * jax.lax.rsqrt(jnp.maximum(jnp.sum(x * x, axis, keepdims=True),
                                       jnp.asarray(1e-12, x.dtype)))


def binary_crossentropy_values(target, output, from_logits):
  """K.binary_crossentropy (TF 1.15): probabilities are clipped and turned into logits."""
  if not from_logits:
    eps = jnp.asarray(EPSILON, output.dtype)
    output = jnp.clip(output, eps, 1. - eps)
    output = jnp.log(output / (1. - output))
  return (jnp.maximum(output, 0) - output * target +
          jnp.log1p(jnp.exp(-jnp.abs(output))))


def categorical_crossentropy_values(target, output, from_logits, axis=-1):
  if from_logits:
    return -jnp.sum(target * jax.nn.log_softmax(output, axis=axis), axis)
  output = output / jnp.sum(output, axis, keepdims=True)
  eps = jnp.asarray(EPSILON, output.dtype)
  return -jnp.sum(target * jnp.log(jnp.clip(output, eps, 1. - eps)), axis)


def sparse_categorical_crossentropy_values(target, output, from_logits, axis=-1):
  output = jnp.moveaxis(output, axis, -1)
  if not from_logits:
    eps = jnp.asarray(EPSILON, output.dtype)
    output = jnp.log(jnp.clip(output, eps, 1. - eps))
  target = target.reshape(output.shape[:-1]).astype(jnp.int32)
  log_probs = jax.nn.log_softmax(output, axis=-1)
  return -jnp.take_along_axis(log_probs, target[..., None], axis=-1)[..., 0]


def _smooth(y_true, label_smoothing, num_classes):
  if not label_smoothing:
    return y_true
  return y_true * (1. - label_smoothing) + label_smoothing / num_classes


_FUNCTIONS = {
    # name: (TF op that fails first, impl, cast y_true to y_pred's dtype)
    "accuracy": ("Equal", lambda t, p: _floatx(t == p.astype(t.dtype)), False),
    "binary_accuracy": ("Greater", lambda t, p, threshold=0.5: jnp.mean(
        _floatx(t == (p > jnp.asarray(threshold, p.dtype)).astype(p.dtype)), -1), True),
    "categorical_accuracy": ("Equal", lambda t, p: _floatx(
        jnp.argmax(t, -1) == jnp.argmax(p, -1)), False),
    "sparse_categorical_accuracy": ("Equal", lambda t, p: _floatx(
        _squeeze_same_rank(t, p) == jnp.argmax(p, -1).astype(t.dtype)), False),
    "top_k_categorical_accuracy": ("InTopKV2", lambda t, p, k=5: _floatx(
        _in_top_k(p, jnp.argmax(t, -1), k)), False),
    "sparse_top_k_categorical_accuracy": ("InTopKV2", lambda t, p, k=5: _floatx(
        _in_top_k(p, _squeeze_same_rank(t, p).astype(jnp.int32), k)), False),
    "mean_squared_error": ("SquaredDifference", lambda t, p: jnp.mean(jnp.square(p - t), -1),
                           True),
    "mean_absolute_error": ("Sub", lambda t, p: jnp.mean(jnp.abs(p - t), -1), True),
    "mean_absolute_percentage_error": ("Sub", lambda t, p: 100. * jnp.mean(jnp.abs(
        (t - p) / jnp.maximum(jnp.abs(t), EPSILON)), -1), True),
    "mean_squared_logarithmic_error": ("Sub", lambda t, p: jnp.mean(jnp.square(
        jnp.log(jnp.maximum(p, EPSILON) + 1.) - jnp.log(jnp.maximum(t, EPSILON) + 1.)), -1),
                                       True),
    "hinge": ("Mul", lambda t, p: jnp.mean(jnp.maximum(
        1. - _maybe_convert_labels(t) * p, 0.), -1), True),
    "squared_hinge": ("Mul", lambda t, p: jnp.mean(jnp.square(jnp.maximum(
        1. - _maybe_convert_labels(t) * p, 0.)), -1), True),
    "categorical_hinge": ("Mul", lambda t, p: jnp.maximum(
        0., jnp.max((1. - t) * p, -1) - jnp.sum(t * p, -1) + 1.), True),
    "logcosh": ("Sub", lambda t, p: jnp.mean(
        (p - t) + jax.nn.softplus(-2. * (p - t)) - jnp.log(2.).astype(p.dtype), -1), True),
    "kullback_leibler_divergence": ("Mul", lambda t, p: jnp.sum(
        jnp.clip(t, EPSILON, 1) * jnp.log(jnp.clip(t, EPSILON, 1) / jnp.clip(p, EPSILON, 1)),
        -1), True),
    "poisson": ("Sub", lambda t, p: jnp.mean(p - t * jnp.log(p + EPSILON), -1), True),
    "cosine_similarity": ("Mul", lambda t, p, axis=-1: jnp.sum(
        _l2_normalize(t, axis) * _l2_normalize(p, axis), axis), True),
    "binary_crossentropy": ("Mul", lambda t, p, from_logits=False, label_smoothing=0: jnp.mean(
        binary_crossentropy_values(_smooth(t, label_smoothing, 2.), p, from_logits), -1), True),
    "categorical_crossentropy": (
        "Mul", lambda t, p, from_logits=False, label_smoothing=0: categorical_crossentropy_values(
            _smooth(t, label_smoothing, t.shape[-1]), p, from_logits), True),
    "sparse_categorical_crossentropy": (
        "SparseSoftmaxCrossEntropyWithLogits",
        lambda t, p, from_logits=False, axis=-1: sparse_categorical_crossentropy_values(
            t, p, from_logits, axis), False),
}
_ALIASES = {"mean_squared_error": ("mse", "MSE"), "mean_absolute_error": ("mae", "MAE"),
            "mean_absolute_percentage_error": ("mape", "MAPE"),
            "mean_squared_logarithmic_error": ("msle", "MSLE"),
            "kullback_leibler_divergence": ("kld", "KLD"),
            "cosine_similarity": ("cosine_proximity",)}


def _make_functions():
  made = {}
  for name, (op_name, impl, cast_true) in _FUNCTIONS.items():
    impl.__name__ = name
    fn = _metric_function(op_name, impl, cast_true)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "`tf.keras.metrics.%s(y_true, y_pred)`." % name
    names = (name,) + _ALIASES.get(name, ())
    export(*("keras.metrics." + n for n in names))(fn)
    for n in names:
      made[n] = fn
  return made


FUNCTIONS = _make_functions()
globals().update(FUNCTIONS)


def _check_compatible(y_true, y_pred):
  """accuracy's shape check, on the shapes after the wrapper's squeeze."""
  t, p = _squeeze_pair(np.empty(shape_of(y_true), bool), np.empty(shape_of(y_pred), bool))
  if t.shape != p.shape:
    raise ValueError("Shapes %s and %s are incompatible" % (y_pred.shape.__class__(p.shape),
                                                            y_true.shape.__class__(t.shape)))


# ---- MeanMetricWrapper and its subclasses ----
@ops.op(name="MetricCast")
def _prepare(y_true, y_pred, *, dtype):
  return _squeeze_pair(y_true.astype(dtype), y_pred.astype(dtype))


class MeanMetricWrapper(Mean):
  """The mean of `fn(y_true, y_pred, **kwargs)` over everything seen."""

  def __init__(self, fn, name=None, dtype=None, **kwargs):
    super().__init__(name=name, dtype=dtype)
    self._fn = fn
    self._fn_kwargs = kwargs

  def update_state(self, y_true, y_pred, sample_weight=None):
    y_true, y_pred = ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred)
    metric_op = getattr(self._fn, "metric_op", None)
    if metric_op is not None:
      if self._fn is FUNCTIONS["accuracy"]:
        _check_compatible(y_true, y_pred)
      values = metric_op(y_true, y_pred, dtype=self._dtype.name, squeeze=True,
                         kwargs=tuple(sorted(self._fn_kwargs.items())))
    else:
      y_true, y_pred = _prepare(y_true, y_pred, dtype=self._dtype.name)
      values = self._fn(y_true, y_pred, **self._fn_kwargs)
    return super().update_state(values, sample_weight=sample_weight)

  def get_config(self):
    config = {k: (v.numpy() if hasattr(v, "numpy") else v) for k, v in self._fn_kwargs.items()}
    return dict(super().get_config(), **config)


def _wrapper(class_name, fn_name, default_name, params=(), doc="", leading=False):
  """A MeanMetricWrapper subclass `class_name(name=default_name, dtype=None, **params)`.

  `leading` puts the params before name and dtype (TopK's `k`).
  """
  order = ("name", "dtype") + tuple(p for p, _ in params)
  if leading:
    order = order[2:] + order[:2]

  def __init__(self, *args, **kwargs):
    if len(args) > len(order):
      raise TypeError("__init__() takes at most %d positional arguments" % (len(order) + 1))
    bound = dict(zip(order, args))
    for key in kwargs:
      if key in bound:
        raise TypeError("%s() got multiple values for argument '%s'" % (class_name, key))
    bound.update(kwargs)
    name = bound.pop("name", default_name)
    dtype = bound.pop("dtype", None)
    fn_kwargs = {p: bound.pop(p, default) for p, default in params}
    if bound:
      raise TypeError("__init__() got an unexpected keyword argument '%s'" % next(iter(bound)))
    MeanMetricWrapper.__init__(self, FUNCTIONS[fn_name], name, dtype=dtype, **fn_kwargs)
  cls = type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc})
  return export("keras.metrics." + class_name)(cls)


Accuracy = _wrapper("Accuracy", "accuracy", "accuracy",
                    doc="How often predictions equal labels.")
BinaryAccuracy = _wrapper("BinaryAccuracy", "binary_accuracy", "binary_accuracy",
                          (("threshold", 0.5),), "How often thresholded predictions match.")
CategoricalAccuracy = _wrapper("CategoricalAccuracy", "categorical_accuracy",
                               "categorical_accuracy", doc="argmax(y_pred) == argmax(y_true).")
SparseCategoricalAccuracy = _wrapper(
    "SparseCategoricalAccuracy", "sparse_categorical_accuracy",
    "sparse_categorical_accuracy", doc="argmax(y_pred) == y_true (integer labels).")
TopKCategoricalAccuracy = _wrapper(
    "TopKCategoricalAccuracy", "top_k_categorical_accuracy", "top_k_categorical_accuracy",
    (("k", 5),), "How often the one-hot target is in the top `k` predictions.", True)
SparseTopKCategoricalAccuracy = _wrapper(
    "SparseTopKCategoricalAccuracy", "sparse_top_k_categorical_accuracy",
    "sparse_top_k_categorical_accuracy", (("k", 5),),
    "How often the integer target is in the top `k` predictions.", True)
MeanSquaredError = _wrapper("MeanSquaredError", "mean_squared_error", "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", "mean_absolute_error", "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper(
    "MeanAbsolutePercentageError", "mean_absolute_percentage_error",
    "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper(
    "MeanSquaredLogarithmicError", "mean_squared_logarithmic_error",
    "mean_squared_logarithmic_error")
Hinge = _wrapper("Hinge", "hinge", "hinge")
SquaredHinge = _wrapper("SquaredHinge", "squared_hinge", "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", "categorical_hinge", "categorical_hinge")
LogCoshError = _wrapper("LogCoshError", "logcosh", "logcosh")
KLDivergence = _wrapper("KLDivergence", "kullback_leibler_divergence",
                        "kullback_leibler_divergence")
Poisson = _wrapper("Poisson", "poisson", "poisson")
CosineSimilarity = _wrapper("CosineSimilarity", "cosine_similarity", "cosine_similarity",
                            (("axis", -1),))
BinaryCrossentropy = _wrapper("BinaryCrossentropy", "binary_crossentropy",
                              "binary_crossentropy",
                              (("from_logits", False), ("label_smoothing", 0)))
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", "categorical_crossentropy",
                                   "categorical_crossentropy",
                                   (("from_logits", False), ("label_smoothing", 0)))
SparseCategoricalCrossentropy = _wrapper(
    "SparseCategoricalCrossentropy", "sparse_categorical_crossentropy",
    "sparse_categorical_crossentropy", (("from_logits", False), ("axis", -1)))


@ops.op(name="SquaredDifference", describe_error=ops.broadcast_error)
def _squared_error(y_true, y_pred, *, dtype):
  y_true, y_pred = _squeeze_pair(y_true.astype(dtype), y_pred.astype(dtype))
  return jnp.square(y_pred - y_true)


@export("keras.metrics.RootMeanSquaredError")
class RootMeanSquaredError(Mean):
  """sqrt of the (weighted) mean of the element-wise squared errors."""

  def __init__(self, name="root_mean_squared_error", dtype=None):
    super().__init__(name=name, dtype=dtype)

  def update_state(self, y_true, y_pred, sample_weight=None):
    error_sq = _squared_error(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred),
                              dtype=self._dtype.name)
    return super().update_state(error_sq, sample_weight=sample_weight)

  def result(self):
    return div_no_nan(self.total.read_value(), self.count.read_value(), sqrt=True)


@ops.op(name="DivNoNan", describe_error=ops.broadcast_error)
def _relative_error(y_true, y_pred, normalizer, *, dtype):
  y_true, y_pred = _squeeze_pair(y_true.astype(dtype), y_pred.astype(dtype))
  normalizer, y_pred = _squeeze_pair(normalizer.astype(dtype), y_pred)
  error = jnp.abs(y_true - y_pred)
  error, normalizer = jnp.broadcast_arrays(error, normalizer)
  safe = jnp.where(normalizer == 0, jnp.ones_like(normalizer), normalizer)
  return jnp.where(normalizer == 0, jnp.zeros_like(error), error / safe)


@export("keras.metrics.MeanRelativeError")
class MeanRelativeError(Mean):
  """The mean of |y_true - y_pred| / normalizer."""

  def __init__(self, normalizer, name=None, dtype=None):
    super().__init__(name=name, dtype=dtype)
    self.normalizer = ops.convert_to_tensor(normalizer)

  def update_state(self, y_true, y_pred, sample_weight=None):
    y_true, y_pred = ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred)
    errors_ = _relative_error(y_true, y_pred, self.normalizer, dtype=self._dtype.name)
    return super().update_state(errors_, sample_weight=sample_weight)

  def get_config(self):
    return dict(super().get_config(), normalizer=self.normalizer.numpy())
