"""`tf.keras.metrics` confusion-matrix metrics (TF 1.15): TruePositives ... AUC, MeanIoU;
and `tf.keras.metrics.get` / `serialize` / `deserialize` over all metrics.

Each update is one `@op` that counts, per threshold, the (weighted) true/false
positives/negatives of `y_pred > threshold` against `y_true != 0`; the counts are
`assign_add`ed to the metric's Variables. Shape checks run on static shapes; the [0, 1]
range check on predictions runs when values are concrete (eagerly), as TF's asserts do.
"""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.keras import metrics as keras_metrics
from tfe_compat.keras.metrics import EPSILON, Metric, check_broadcast, shape_of

NEG_INF = -1e10
_KINDS = ("true_positives", "true_negatives", "false_positives", "false_negatives")


def _to_list(x):
  return list(x) if isinstance(x, (list, tuple)) else [x]


def parse_init_thresholds(thresholds, default_threshold=0.5):
  if thresholds is not None:
    invalid = [t for t in _to_list(thresholds) if t is None or t < 0 or t > 1]
    if invalid:
      raise ValueError("Threshold values must be in [0, 1]. Invalid values: {}".format(invalid))
  return _to_list(default_threshold if thresholds is None else thresholds)


@ops.op(name="ConfusionMatrixCounts")
def _counts(y_true, y_pred, weights=None, *, thresholds, kinds, top_k, class_id, squeeze,
            wshape):
  y_true, y_pred = y_true.astype(jnp.float32), y_pred.astype(jnp.float32)
  if squeeze == "pred":
    y_pred = y_pred[..., 0]
  elif squeeze == "true":
    y_true = y_true[..., 0]
  if top_k is not None:
    _, idx = jax.lax.top_k(y_pred, top_k)
    mask = jnp.sum(jax.nn.one_hot(idx, y_pred.shape[-1], dtype=y_pred.dtype), axis=-2)
    y_pred = y_pred * mask + NEG_INF * (1 - mask)
  if class_id is not None:
    y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
  pred_pos = y_pred.reshape(1, -1) > jnp.asarray(thresholds, jnp.float32)[:, None]
  label_pos = (y_true != 0).reshape(1, -1)
  if weights is not None:
    weights = jnp.broadcast_to(weights.astype(jnp.float32).reshape(wshape), y_pred.shape)
    weights = weights.reshape(1, -1)
  conditions = {"true_positives": (label_pos, pred_pos),
                "true_negatives": (~label_pos, ~pred_pos),
                "false_positives": (~label_pos, pred_pos),
                "false_negatives": (label_pos, ~pred_pos)}
  out = []
  for kind in kinds:
    label, pred = conditions[kind]
    hits = (label & pred).astype(jnp.float32)
    out.append(jnp.sum(hits if weights is None else hits * weights, axis=1))
  return tuple(out)


def _check_range(y_pred):
  value = y_pred._value
  if isinstance(value, jax.core.Tracer) or not value.size:
    return
  array = np.asarray(value)
  if array.min() < 0:
    raise errors.invalid_argument("predictions must be >= 0\nCondition x >= y did not hold "
                                  "element-wise: [Op:Assert]")
  if array.max() > 1:
    raise errors.invalid_argument("predictions must be <= 1\nCondition x <= y did not hold "
                                  "element-wise: [Op:Assert]")


def update_confusion_matrix_variables(variables_to_update, y_true, y_pred, thresholds,
                                      top_k=None, class_id=None, sample_weight=None):
  """Adds the (weighted) counts per threshold to `{kind: Variable}` (Keras' metrics_utils)."""
  y_true, y_pred = ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred)
  _check_range(y_pred)
  tshape, pshape = shape_of(y_true), shape_of(y_pred)
  squeeze = None
  diff = len(pshape) - len(tshape)
  if diff != 1 or pshape[-1] == 1:
    if diff == 1 and pshape[-1] == 1:
      squeeze, pshape = "pred", pshape[:-1]
    elif diff == -1 and tshape[-1] == 1:
      squeeze, tshape = "true", tshape[:-1]
  if pshape != tshape:
    raise ValueError("Shapes %s and %s are incompatible" % (_shape_str(pshape),
                                                            _shape_str(tshape)))
  inputs = [y_true, y_pred]
  wshape = None
  if sample_weight is not None:
    sample_weight = ops.convert_to_tensor(sample_weight)
    wshape = shape_of(sample_weight)
    if wshape and len(wshape) - len(pshape) == 1:
      wshape = wshape[:-1]
    elif wshape and len(pshape) - len(wshape) == 1:
      wshape = wshape + (1,)
    final = pshape
    if class_id is not None:
      final = pshape[:-1]
      if len(wshape) == len(pshape) and wshape[-1] == 1:
        wshape = wshape[:-1]  # per-example weights stay per-example (TF 1.15 raised here)
    check_broadcast(final, wshape)
    inputs.append(sample_weight)
  kinds = tuple(k for k in _KINDS if k in variables_to_update)
  counts = _counts(*inputs, thresholds=tuple(float(t) for t in thresholds), kinds=kinds,
                   top_k=top_k, class_id=class_id, squeeze=squeeze, wshape=wshape)
  for kind, count in zip(kinds, counts):
    variables_to_update[kind].assign_add(count)


def _shape_str(shape):
  return "(%s%s)" % (", ".join(str(d) for d in shape), "," if len(shape) == 1 else "")


@ops.op(name="Index")
def _first(x):
  return x[0]


class _ConfusionMatrixConditionCount(Metric):
  """Counts one confusion-matrix condition per threshold (`accumulator`)."""

  _kind = None

  def __init__(self, thresholds=None, name=None, dtype=None):
    super().__init__(name=name, dtype=dtype)
    self.init_thresholds = thresholds
    self.thresholds = parse_init_thresholds(thresholds, default_threshold=0.5)
    self.accumulator = self.add_weight("accumulator", shape=(len(self.thresholds),),
                                       initializer="zeros")

  def update_state(self, y_true, y_pred, sample_weight=None):
    update_confusion_matrix_variables({self._kind: self.accumulator}, y_true, y_pred,
                                      self.thresholds, sample_weight=sample_weight)

  def result(self):
    value = self.accumulator.read_value()
    return _first(value) if len(self.thresholds) == 1 else value

  def get_config(self):
    return dict(super().get_config(), thresholds=self.init_thresholds)


def _count_class(class_name, kind):
  cls = type(class_name, (_ConfusionMatrixConditionCount,),
             {"_kind": kind, "__doc__": "The number (weight) of %s." % kind.replace("_", " ")})
  return export("keras.metrics." + class_name)(cls)


TruePositives = _count_class("TruePositives", "true_positives")
TrueNegatives = _count_class("TrueNegatives", "true_negatives")
FalsePositives = _count_class("FalsePositives", "false_positives")
FalseNegatives = _count_class("FalseNegatives", "false_negatives")


@ops.op(name="DivNoNan")
def _ratio(a, b, *, single):
  out = jnp.where(a + b == 0, jnp.zeros_like(a), a / jnp.where(a + b == 0, 1, a + b))
  return out[0] if single else out


class _PrecisionRecall(Metric):
  _kinds = None

  def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
    super().__init__(name=name, dtype=dtype)
    self.init_thresholds = thresholds
    self.top_k = top_k
    self.class_id = class_id
    self.thresholds = parse_init_thresholds(
        thresholds, default_threshold=0.5 if top_k is None else NEG_INF)
    for kind in self._kinds:
      setattr(self, kind, self.add_weight(kind, shape=(len(self.thresholds),),
                                          initializer="zeros"))

  def update_state(self, y_true, y_pred, sample_weight=None):
    update_confusion_matrix_variables({k: getattr(self, k) for k in self._kinds}, y_true,
                                      y_pred, self.thresholds, top_k=self.top_k,
                                      class_id=self.class_id, sample_weight=sample_weight)

  def result(self):
    tp, other = (getattr(self, k).read_value() for k in self._kinds)
    return _ratio(tp, other, single=len(self.thresholds) == 1)

  def get_config(self):
    return dict(super().get_config(), thresholds=self.init_thresholds, top_k=self.top_k,
                class_id=self.class_id)


@export("keras.metrics.Precision")
class Precision(_PrecisionRecall):
  """true_positives / (true_positives + false_positives), per threshold."""
  _kinds = ("true_positives", "false_positives")


@export("keras.metrics.Recall")
class Recall(_PrecisionRecall):
  """true_positives / (true_positives + false_negatives), per threshold."""
  _kinds = ("true_positives", "false_negatives")


class _FourCounts(Metric):
  """A metric holding TP/TN/FP/FN over `self.thresholds`."""

  def _add_counts(self, num_thresholds):
    for kind in _KINDS:
      setattr(self, kind, self.add_weight(kind, shape=(num_thresholds,), initializer="zeros"))

  def update_state(self, y_true, y_pred, sample_weight=None):
    update_confusion_matrix_variables({k: getattr(self, k) for k in _KINDS}, y_true, y_pred,
                                      self.thresholds, sample_weight=sample_weight)

  def _counts(self):
    return [getattr(self, k).read_value() for k in _KINDS]


@ops.op(name="ArgMin")
def _at_closest(tp, tn, fp, fn, *, value, given):
  """The other rate at the threshold whose `given` rate is closest to `value` (TF 1.15)."""
  def rate(a, b):
    return jnp.where(a + b == 0, 0., a / jnp.where(a + b == 0, 1., a + b)).astype(a.dtype)
  if given == "specificity":
    i = jnp.argmin(jnp.abs(rate(tn, fp) - value))
    return rate(tp[i], fn[i])
  i = jnp.argmin(jnp.abs(rate(tp, fn) - value))
  return rate(tn[i], fp[i])


class _SensitivitySpecificityBase(_FourCounts):
  _given = None

  def __init__(self, value, num_thresholds=200, name=None, dtype=None):
    super().__init__(name=name, dtype=dtype)
    if num_thresholds <= 0:
      raise ValueError("`num_thresholds` must be > 0.")
    self.value = value
    self.num_thresholds = num_thresholds
    if num_thresholds == 1:
      self.thresholds = [0.5]
    else:
      inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
      self.thresholds = [0.0] + inner + [1.0]
    self._add_counts(num_thresholds)

  def result(self):
    return _at_closest(*self._counts(), value=float(self.value), given=self._given)

  def get_config(self):
    return dict(super().get_config(), num_thresholds=self.num_thresholds,
                **{self._given: self.value})


@export("keras.metrics.SensitivityAtSpecificity")
class SensitivityAtSpecificity(_SensitivitySpecificityBase):
  """Sensitivity at the threshold whose specificity is closest to `specificity`."""
  _given = "specificity"

  def __init__(self, specificity, num_thresholds=200, name=None, dtype=None):
    if specificity < 0 or specificity > 1:
      raise ValueError("`specificity` must be in the range [0, 1].")
    super().__init__(specificity, num_thresholds=num_thresholds, name=name, dtype=dtype)
    self.specificity = specificity


@export("keras.metrics.SpecificityAtSensitivity")
class SpecificityAtSensitivity(_SensitivitySpecificityBase):
  """Specificity at the threshold whose sensitivity is closest to `sensitivity`."""
  _given = "sensitivity"

  def __init__(self, sensitivity, num_thresholds=200, name=None, dtype=None):
    if sensitivity < 0 or sensitivity > 1:
      raise ValueError("`sensitivity` must be in the range [0, 1].")
    super().__init__(sensitivity, num_thresholds=num_thresholds, name=name, dtype=dtype)
    self.sensitivity = sensitivity


@ops.op(name="AUC")
def _auc(tp, tn, fp, fn, *, curve, summation_method):
  def div(a, b):
    return jnp.where(b == 0, jnp.zeros_like(a), a / jnp.where(b == 0, 1., b))
  if curve == "PR" and summation_method == "interpolation":
    dtp = tp[:-1] - tp[1:]
    p = tp + fp
    dp = p[:-1] - p[1:]
    prec_slope = div(dtp, jnp.maximum(dp, 0))
    intercept = tp[1:] - prec_slope * p[1:]
    safe_p_ratio = jnp.where((p[:-1] > 0) & (p[1:] > 0), div(p[:-1], jnp.maximum(p[1:], 0)),
                             jnp.ones_like(p[1:]))
    return jnp.sum(div(prec_slope * (dtp + intercept * jnp.log(safe_p_ratio)),
                       jnp.maximum(tp[1:] + fn[1:], 0)))
  recall = div(tp, tp + fn)
  if curve == "ROC":
    x, y = div(fp, fp + tn), recall
  else:
    x, y = recall, div(tp, tp + fp)
  if summation_method == "interpolation":
    heights = (y[:-1] + y[1:]) / 2.
  elif summation_method == "minoring":
    heights = jnp.minimum(y[:-1], y[1:])
  else:
    heights = jnp.maximum(y[:-1], y[1:])
  return jnp.sum((x[:-1] - x[1:]) * heights)


_CURVES = {"roc": "ROC", "pr": "PR"}
_SUMMATIONS = ("interpolation", "majoring", "minoring")


@export("keras.metrics.AUC")
class AUC(_FourCounts):
  """Approximate area under the ROC or PR curve (Riemann sum over thresholds)."""

  def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
               name=None, dtype=None, thresholds=None):
    curve = getattr(curve, "value", curve)
    if curve.lower() not in _CURVES:
      raise ValueError('Invalid AUC curve value "%s".' % curve)
    summation_method = getattr(summation_method, "value", summation_method)
    if summation_method.lower() not in _SUMMATIONS:
      raise ValueError('Invalid AUC summation method value "%s".' % summation_method)
    super().__init__(name=name, dtype=dtype)
    self.curve = _CURVES[curve.lower()]
    self.summation_method = summation_method.lower()
    if thresholds is not None:
      self.num_thresholds = len(thresholds) + 2
      thresholds = sorted(thresholds)
    else:
      if num_thresholds <= 1:
        raise ValueError("`num_thresholds` must be > 1.")
      self.num_thresholds = num_thresholds
      thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    self.thresholds = [0.0 - EPSILON] + thresholds + [1.0 + EPSILON]
    self._add_counts(self.num_thresholds)

  def result(self):
    return _auc(*self._counts(), curve=self.curve, summation_method=self.summation_method)

  def get_config(self):
    return dict(super().get_config(), num_thresholds=self.num_thresholds, curve=self.curve,
                summation_method=self.summation_method, thresholds=self.thresholds[1:-1])


@ops.op(name="ConfusionMatrix")
def _confusion_matrix(y_true, y_pred, weights=None, *, dtype, num_classes):
  labels = y_true.astype(dtype).reshape(-1).astype(jnp.int64)
  predictions = y_pred.astype(dtype).reshape(-1).astype(jnp.int64)
  weights = (jnp.ones(labels.shape, jnp.float64) if weights is None
             else weights.reshape(-1).astype(jnp.float64))
  cm = jnp.zeros((num_classes, num_classes), jnp.float64)
  return cm.at[labels, predictions].add(weights, mode="drop")


@ops.op(name="MeanIoU")
def _mean_iou(cm, *, dtype):
  sum_over_row = jnp.sum(cm, 0).astype(dtype)
  sum_over_col = jnp.sum(cm, 1).astype(dtype)
  tp = jnp.diagonal(cm).astype(dtype)
  denominator = sum_over_row + sum_over_col - tp
  valid = jnp.sum((denominator != 0).astype(dtype))
  iou = jnp.where(denominator == 0, 0, tp / jnp.where(denominator == 0, 1, denominator))
  total = jnp.sum(iou)
  return jnp.where(valid == 0, 0, total / jnp.where(valid == 0, 1, valid)).astype(dtype)


def _check_classes(tensor, num_classes, what, dtype):
  value = tensor._value
  if isinstance(value, jax.core.Tracer) or not value.size:
    return
  array = np.asarray(value).astype(dtype.as_numpy_dtype).astype(np.int64)
  if array.min() < 0:
    raise errors.invalid_argument("`%s` contains negative values\nCondition x >= 0 did not "
                                  "hold element-wise: [Op:Assert]" % what)
  if array.max() >= num_classes:
    raise errors.invalid_argument("`%s` out of bound\nCondition x < y did not hold "
                                  "element-wise: [Op:Assert]" % what)


@export("keras.metrics.MeanIoU")
class MeanIoU(Metric):
  """Mean intersection-over-union over the classes, from a confusion matrix."""

  def __init__(self, num_classes, name=None, dtype=None):
    super().__init__(name=name, dtype=dtype)
    self.num_classes = num_classes
    self.total_cm = self.add_weight("total_confusion_matrix", shape=(num_classes, num_classes),
                                    initializer="zeros", dtype=dtypes.float64)

  def update_state(self, y_true, y_pred, sample_weight=None):
    y_true, y_pred = ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred)
    _check_classes(y_true, self.num_classes, "labels", self._dtype)
    _check_classes(y_pred, self.num_classes, "predictions", self._dtype)
    inputs = [y_true, y_pred]
    if sample_weight is not None:
      inputs.append(ops.convert_to_tensor(sample_weight))
    cm = _confusion_matrix(*inputs, dtype=self._dtype.name, num_classes=self.num_classes)
    return self.total_cm.assign_add(cm)

  def result(self):
    return _mean_iou(self.total_cm.read_value(), dtype=self._dtype.name)

  def get_config(self):
    return dict(super().get_config(), num_classes=self.num_classes)


CLASSES = {cls.__name__: cls for cls in (
    TruePositives, TrueNegatives, FalsePositives, FalseNegatives, Precision, Recall,
    SensitivityAtSpecificity, SpecificityAtSensitivity, AUC, MeanIoU)}


# ---- get / serialize / deserialize ----
def _module_objects():
  objects = {name: obj for name, obj in vars(keras_metrics).items()
             if isinstance(obj, type) and issubclass(obj, Metric)}
  objects.update(CLASSES)
  objects.update(keras_metrics.FUNCTIONS)
  return objects


@export("keras.metrics.serialize")
def serialize(metric):
  """A metric's config dict ({'class_name', 'config'}), or a function's name."""
  if hasattr(metric, "get_config"):
    return {"class_name": type(metric).__name__, "config": metric.get_config()}
  if hasattr(metric, "__name__"):
    return metric.__name__
  raise ValueError("Cannot serialize", metric)


@export("keras.metrics.deserialize")
def deserialize(config, custom_objects=None):
  """The metric class instance or function described by `config` (a dict or a name)."""
  objects = dict(_module_objects(), **(custom_objects or {}))
  if isinstance(config, dict):
    if "class_name" not in config or "config" not in config:
      raise ValueError("Improper config format: " + str(config))
    cls = objects.get(config["class_name"])
    if cls is None:
      raise ValueError("Unknown metric function: " + config["class_name"])
    return cls.from_config(config["config"])
  obj = objects.get(config)
  if obj is None:
    raise ValueError("Unknown metric function:" + config)
  return obj() if isinstance(obj, type) else obj


@export("keras.metrics.get")
def get(identifier):
  """A metric from a name, a config dict or a callable."""
  if isinstance(identifier, (dict, str)):
    return deserialize(identifier)
  if callable(identifier):
    return identifier
  raise ValueError("Could not interpret metric function identifier: %s" % (identifier,))
