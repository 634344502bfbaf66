"""`tfe.metrics` (tf.contrib.eager.metrics, TF 1.15) and TF1's `tf.metrics.*` in eager mode.

A `tfe.metrics.Metric` creates its Variables in `build()` on the first call, under a
variable scope named after the metric ("loss/numer:0"), and updates them in `call()`.
The TF1 functions `tf.metrics.accuracy`, `tf.metrics.mean`, ... raise TF's RuntimeError:
they are not supported when eager execution is enabled.
"""
import inspect
import re

import jax
import jax.numpy as jnp

from tfe_compat import variable_scope as vs
from tfe_compat import variables as variables_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.trackable import Trackable
from tfe_compat.ops import array_ops
from tfe_compat.ops import control_flow_ops
from tfe_compat.ops import init_ops
from tfe_compat.summary import summary_ops

_to_replace = re.compile("[^A-Za-z0-9.]")


@export("contrib.eager.metrics.Metric")
class Metric(Trackable):
  """Holds Variables aggregating statistics over an evaluation run.

  Subclasses implement `build()` (creating variables with `add_variable`), `call()` (updating
  them) and `result()`.
  """

  _checkpoint_creators = ("add_variable",)

  def __init__(self, name=None, use_global_variables=False):
    self._built = False
    self._vars = []
    self._initial_values = {}
    self._updates = []
    self._use_global_variables = use_global_variables  # graph-mode collections only
    name = name or self.__class__.__name__
    scope_name = _to_replace.sub("_", name)
    with vs.variable_scope(scope_name, use_resource=True, reuse=False) as scope:
      pos = scope.name.rfind(scope_name)
      self._name = name + scope.name[pos + len(scope_name):]
      self._scope = scope
    self._build = self.build

    def actual_build(*args, **kwargs):
      self._build(*args, **kwargs)
      self._built = True
    actual_build.__doc__ = self._build.__doc__
    self.build = actual_build

  def __call__(self, *args, **kwargs):
    """Updates the metric with a mini-batch; returns what `call()` returns (in graph mode,
    tensors that run the updates when evaluated)."""
    if not self._built:
      with vs.variable_scope(self._scope):
        self.build(*args, **kwargs)
    graph = graph_lib.building()
    if graph is None:
      return self.call(*args, **kwargs)
    first = len(graph.get_operations())
    out = self.call(*args, **kwargs)
    updates = [op for op in graph.get_operations()[first:] if op.writes]
    with graph.control_dependencies(updates):
      if out is None:
        return control_flow_ops.group(*updates)
      return jax.tree_util.tree_map(array_ops.identity, out)

  name = property(lambda self: self._name)
  variables = property(lambda self: self._vars)

  def init_variables(self):
    """Resets every variable to its initial value (returns None when executing eagerly, the
    operation that does it in graph mode)."""
    if graph_lib.building() is not None:
      return control_flow_ops.group(*[v.assign(v.initial_value) for v in self._vars])
    for v in self._vars:
      v.assign(self._initial_values[v.experimental_ref()])
    return None

  def build(self, *args, **kwargs):
    raise NotImplementedError("Metrics must define a build() member function")

  def call(self, *args, **kwargs):
    raise NotImplementedError("Metrics must define a call() member function")

  def result(self, write_summary=True):
    raise NotImplementedError("Metrics must define a result() member function")

  def value(self):
    """The `result` method itself when executing eagerly; its tensor in graph mode."""
    return self.result if graph_lib.building() is None else self.result()

  def aggregate(self, metrics):
    """Adds the state of `metrics` (same type, same variables) into this metric's."""
    for m in metrics:
      if type(self) != type(m):  # pylint: disable=unidiomatic-typecheck
        raise TypeError("All metrics must be the same type, '%s' != '%s'." % (type(self),
                                                                             type(m)))
    for i, v in enumerate(self._vars):
      if any(m._vars[i].name != v.name for m in metrics):  # pylint: disable=protected-access
        raise ValueError("All metrics must have variables in the same order.")
      v.assign_add(_add_n(*[m._vars[i].read_value() for m in metrics]))

  def add_variable(self, name, shape=None, dtype=None, initializer=None):
    """Creates a non-trainable variable (only from `build()`)."""
    if self._built:
      raise RuntimeError("Can't call add_variable() except in build().")
    collections = None
    if graph_lib.building() is not None:  # TF 1.x's metric collections
      collections = [graph_lib.GraphKeys.GLOBAL_VARIABLES if self._use_global_variables
                     else graph_lib.GraphKeys.LOCAL_VARIABLES,
                     graph_lib.GraphKeys.METRIC_VARIABLES]
    v = variables_lib.get_variable(name, shape, dtype, initializer, trainable=False,
                                   use_resource=True, collections=collections)
    self._vars.append(v)
    if graph_lib.building() is None:
      self._initial_values[v.experimental_ref()] = v.value()
    return v


@ops.op(name="AddN")
def _add_n(*values):
  return sum(values[1:], values[0])


@ops.op(name="Sum")
def _mean_unweighted(values, *, dtype):
  total = jnp.sum(values, dtype=values.dtype)
  return total, total.astype(dtype), jnp.asarray(values.size, dtype)


@ops.op(name="Mul", describe_error=ops.broadcast_error)
def _mean_weighted(values, weights, *, dtype):
  weights = weights.astype(dtype)
  weighted = values.astype(dtype) * weights
  return jnp.sum(weighted), jnp.sum(weights), weighted, weights


@export("contrib.eager.metrics.Mean")
class Mean(Metric):
  """The (weighted) mean of the values seen (`numer` / `denom`, float64 by default)."""

  def __init__(self, name=None, dtype=dtypes.float64, use_global_variables=False):
    super().__init__(name=name, use_global_variables=use_global_variables)
    self.dtype = dtypes.as_dtype(dtype)

  def build(self, *args, **kwargs):
    del args, kwargs
    self.numer = self.add_variable(name="numer", shape=(), dtype=self.dtype,
                                   initializer=init_ops.Zeros)
    self.denom = self.add_variable(name="denom", shape=(), dtype=self.dtype,
                                   initializer=init_ops.Zeros)

  def call(self, values, weights=None):
    """Accumulates `values` (weighted by `weights`); returns TF's chained values."""
    values = ops.convert_to_tensor(values)
    if weights is None:
      values, numer, denom = _mean_unweighted(values, dtype=self.dtype.name)
      self.denom.assign_add(denom)
      self.numer.assign_add(numer)
      return values
    numer, denom, values, weights = _mean_weighted(values, ops.convert_to_tensor(weights),
                                                   dtype=self.dtype.name)
    self.denom.assign_add(denom)
    self.numer.assign_add(numer)
    return values, weights

  def result(self, write_summary=True):
    """numer / denom (NaN before any value was seen); with `write_summary` (a scalar bool)
    also written as a scalar summary named after the metric under the default writer."""
    write_summary = ops.convert_to_tensor(write_summary)
    if write_summary.shape.ndims != 0:
      raise ValueError("Non-scalar tensor %s cannot be converted to boolean." % write_summary)
    if write_summary.dtype != dtypes.bool:
      raise ValueError("Non-boolean tensor %s cannot be converted to boolean." % write_summary)
    t = self.numer.read_value() / self.denom.read_value()
    if bool(ops.get_static_value(write_summary)):
      summary_ops.scalar(name=self.name, tensor=t)
    return t


@ops.op(name="Equal")
def _matches(labels, predictions, *, kind, dtype, threshold=0.5):
  if kind == "categorical":
    labels, predictions = jnp.argmax(labels, -1), jnp.argmax(predictions, -1)
  elif kind == "binary":
    labels, predictions = labels != 0, predictions > threshold
  elif kind == "sparse":
    labels, predictions = labels.astype(jnp.int64), jnp.argmax(predictions, -1)
  return (labels == predictions).astype(dtype), labels, predictions


def _check_shapes(labels, predictions, trailing=False):
  lshape = tuple(labels._value.shape)
  pshape = tuple(predictions._value.shape)
  if trailing:
    pshape = pshape[:-1]
  if lshape != pshape:
    raise errors.invalid_argument(
        "Shapes of labels and predictions are unequal\nCondition x == y did not hold "
        "element-wise:\nx (shape=(%d,)) = %s\ny (shape=(%d,)) = %s" % (
            len(lshape), list(lshape), len(pshape), list(pshape)))


class _AccuracyBase(Mean):
  _kind = None

  def __init__(self, name=None, dtype=dtypes.float64):
    super().__init__(name=name, dtype=dtype)

  def call(self, labels, predictions, weights=None):
    """Accumulates how often predictions match labels; returns the compared tensors."""
    if self._kind == "equal":
      labels, predictions = ops.convert_matching(labels, predictions, op_name="Equal")
    else:
      labels, predictions = ops.convert_to_tensor(labels), ops.convert_to_tensor(predictions)
    _check_shapes(labels, predictions, trailing=self._kind == "sparse")
    matches, labels, predictions = _matches(labels, predictions, kind=self._kind,
                                            dtype=self.dtype.name,
                                            threshold=getattr(self, "threshold", 0.5))
    super().call(matches, weights=weights)
    if weights is None:
      return labels, predictions
    return labels, predictions, weights


@export("contrib.eager.metrics.Accuracy", "contrib.eager.Metrics.Accuracy")
class Accuracy(_AccuracyBase):
  """How often `predictions` equals `labels` (same shape and dtype)."""
  _kind = "equal"


@export("contrib.eager.metrics.CategoricalAccuracy")
class CategoricalAccuracy(_AccuracyBase):
  """How often argmax(predictions) equals argmax(labels) (one-hot labels)."""
  _kind = "categorical"


@export("contrib.eager.metrics.SparseAccuracy")
class SparseAccuracy(_AccuracyBase):
  """How often argmax(predictions) equals the integer labels."""
  _kind = "sparse"


@export("contrib.eager.metrics.BinaryAccuracy")
class BinaryAccuracy(_AccuracyBase):
  """How often `predictions > threshold` equals `labels != 0`."""
  _kind = "binary"

  def __init__(self, threshold, name=None, dtype=dtypes.float64):
    self.threshold = threshold
    super().__init__(name=name, dtype=dtype)


# ---- TF1 tf.metrics.*: graph-only, so they raise when executing eagerly ----
_LABELS = "labels, predictions"
_COLLECTIONS = "metrics_collections=None, updates_collections=None, name=None"
_TAIL = "weights=None, " + _COLLECTIONS
_TF1_METRICS = {
    "accuracy": _LABELS, "false_negatives": _LABELS, "false_positives": _LABELS,
    "true_negatives": _LABELS, "true_positives": _LABELS, "precision": _LABELS,
    "recall": _LABELS, "mean_absolute_error": _LABELS, "mean_squared_error": _LABELS,
    "root_mean_squared_error": _LABELS, "mean": "values", "mean_tensor": "values",
    "percentage_below": "values, threshold",
    "mean_cosine_distance": _LABELS + ", dim", "mean_iou": _LABELS + ", num_classes",
    "mean_per_class_accuracy": _LABELS + ", num_classes",
    "mean_relative_error": _LABELS + ", normalizer",
    "average_precision_at_k": _LABELS + ", k",
    "sparse_average_precision_at_k": _LABELS + ", k",
    "precision_at_k": _LABELS + ", k, class_id=None",
    "sparse_precision_at_k": _LABELS + ", k, class_id=None",
    "recall_at_k": _LABELS + ", k, class_id=None",
    "precision_at_top_k": "labels, predictions_idx, k=None, class_id=None",
    "recall_at_top_k": "labels, predictions_idx, k=None, class_id=None",
}
for _kind in ("false_negatives", "false_positives", "true_negatives", "true_positives",
              "precision", "recall"):
  _TF1_METRICS[_kind + "_at_thresholds"] = _LABELS + ", thresholds"
_SIGNATURES = {name: "(%s, %s)" % (args, _TAIL) for name, args in _TF1_METRICS.items()}
_SIGNATURES.update({
    "auc": "(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,"
           " updates_collections=None, curve='ROC', name=None, summation_method='trapezoidal',"
           " thresholds=None)",
    "sensitivity_at_specificity": "(labels, predictions, specificity, weights=None, "
                                  "num_thresholds=200, " + _COLLECTIONS + ")",
    "specificity_at_sensitivity": "(labels, predictions, sensitivity, weights=None, "
                                  "num_thresholds=200, " + _COLLECTIONS + ")",
})
_REPORTED_AS = {"average_precision_at_k": "sparse_average_precision_at_k",
                "precision_at_k": "sparse_precision_at_k",
                "recall": "recall is not supported"}  # TF's own wording


def _graph_only(name, signature):
  """`tf.metrics.<name>` with TF's signature; raises TF's eager RuntimeError when called."""
  namespace = {}
  exec("def _signature%s: pass" % signature, namespace)  # pylint: disable=exec-used
  sig = inspect.signature(namespace["_signature"])

  def metric(*args, **kwargs):
    sig.bind(*args, **kwargs)
    raise RuntimeError("tf.metrics.%s is not supported when eager execution is enabled."
                       % _REPORTED_AS.get(name, name))
  metric.__name__ = metric.__qualname__ = name
  metric.__signature__ = sig
  metric.__doc__ = "`tf.metrics.%s`: graph mode only (raises when executing eagerly)." % name
  return export("metrics." + name)(metric)


for _name, _signature in sorted(_SIGNATURES.items()):
  _graph_only(_name, _signature)
