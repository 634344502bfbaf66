"""`tfe.Evaluator` (tf.contrib.eager, TF 1.15): holds and updates Metrics during one eval run;
`SparseSoftmaxEvaluator` (tensorflow.contrib.eager.python.evaluator) for single-label models."""
from tfe_compat.client import session as session_lib
from tfe_compat.contrib import metrics
from tfe_compat.data import iterator_ops
from tfe_compat.eager import function
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops
from tfe_compat.ops import control_flow_ops
from tfe_compat.summary import summary_ops
from tfe_compat.summary import writer as summary_writer


@export("contrib.eager.Evaluator")
class Evaluator:
  """Updates tracked Metrics with `call(model.eval_data(...))` on each mini-batch.

  Subclasses track metrics (`track_metric`) and child evaluators (`track_evaluator`) in
  `__init__` and override `call()`.
  """

  def __init__(self, model):
    self._model = model
    self._metrics = {}
    self._evaluators = {}
    if graph_lib.building() is not None:  # a call is one operation, as a defun's in TF
      self.call = function.function(self.call)

  def __call__(self, *args, **kwargs):
    """Updates the metrics with a mini-batch; returns None (eager execution)."""
    return self.call(self._model.eval_data(*args, **kwargs))

  def init_variables(self):
    """Graph mode: the op that resets every metric's variables."""
    if graph_lib.building() is None:
      raise RuntimeError("Evaluator.init_variables() not needed when "
                         "eager execution is enabled.")
    return control_flow_ops.group([m.init_variables() for _, m in self.metrics])

  def all_metric_results(self, summary_logdir=None):
    """A dict of every metric's result; written as summaries to `summary_logdir` if given
    (in graph mode, when the results are evaluated)."""
    if summary_logdir is None:
      with summary_ops.never_record_summaries():
        return self._all_metric_results()
    graph = graph_lib.building()
    first = len(graph.get_operations()) if graph is not None else 0
    writer = summary_writer.create_file_writer(summary_logdir)
    writer.flush_each_write = graph is not None  # TF's function-owned writer: flushed at once
    with writer.as_default(), summary_ops.always_record_summaries():
      results = self._all_metric_results()
    if graph is None:
      return results
    writes = [op for op in graph.get_operations()[first:] if op.stateful]
    with graph.control_dependencies(writes):
      return {name: array_ops.identity(value) for name, value in results.items()}

  def _all_metric_results(self):
    results = {name: metric.result() for name, metric in self._metrics.items()}
    for prefix, evaluator in self._evaluators.items():
      for name, metric in evaluator._metrics.items():  # pylint: disable=protected-access
        results[prefix + "/" + name] = metric.result()
    return results

  def evaluate_on_dataset(self, dataset, *args, **kwargs):
    """Calls the evaluator on every element of `dataset`; returns `all_metric_results()`
    (written as summaries to the `summary_logdir` keyword argument, if given)."""
    summary_logdir = kwargs.pop("summary_logdir", None)
    graph = graph_lib.building()
    if graph is None:
      for example in dataset:
        self.__call__(example, *args, **kwargs)
      return self.all_metric_results(summary_logdir)
    next_value = iterator_ops.make_one_shot_iterator(dataset).get_next()
    with graph.control_dependencies([next_value]):
      has_next_value = control_flow_ops.no_op(name="iterator_has_next")
    with graph.control_dependencies([has_next_value]):
      call_op = self.__call__(next_value, *args, **kwargs)
    return self.init_variables(), call_op, self.all_metric_results(summary_logdir)

  @staticmethod
  def run_evaluation(init_op, call_op, results_op, sess=None):
    """Graph mode: runs `init_op`, `call_op` until the data ends, then `results_op`."""
    if graph_lib.building() is None:
      raise RuntimeError("Evaluator.run_evaluation() not supported when "
                         "eager execution is enabled.")
    sess = sess or session_lib.get_default_session()
    sess.run(init_op)
    try:
      while True:
        sess.run(call_op)
    except errors.OutOfRangeError:
      pass
    return sess.run(results_op)

  def call(self, eval_data):
    """Updates the metrics from the output of `model.eval_data()` (to be overridden)."""
    raise NotImplementedError("Evaluators must define a call member function.")

  @property
  def model(self):
    return self._model

  def track_metric(self, metric):
    """Adds a Metric (tracked by at most one Evaluator) to `all_metric_results()`."""
    if not hasattr(self, "_metrics"):
      raise RuntimeError("Need to call Evaluator.__init__ before adding metrics")
    if not isinstance(metric, metrics.Metric):
      raise TypeError("Evaluator.track_metric() passed type %s, not a tfe.metrics.Metric"
                      % (type(metric),))
    if metric.name in self._metrics:
      if metric is self._metrics[metric.name]:
        return metric
      raise ValueError("Attempt to add two Metrics with the name '%s' to the same Evaluator "
                       "'%s'" % (metric.name, self.__class__.__name__))
    # pylint: disable=protected-access
    if hasattr(metric, "_added_to_an_evaluator"):
      raise ValueError("Metric %s already added to Evaluator %s"
                       % (metric.name, metric._added_to_an_evaluator))
    metric._added_to_an_evaluator = self.__class__.__name__
    # pylint: enable=protected-access
    self._metrics[metric.name] = metric
    return metric

  def track_evaluator(self, prefix, evaluator):
    """Adds a child Evaluator whose metrics are reported as "<prefix>/<name>"."""
    if not hasattr(self, "_evaluators"):
      raise RuntimeError("Need to call Evaluator.__init__ before adding evaluators")
    if not isinstance(evaluator, Evaluator):
      raise TypeError("Evaluator.track_evaluator() passed type %s, not a tfe.Evaluator."
                      % (type(evaluator),))
    if prefix in self._evaluators:
      if evaluator is self._evaluators[prefix]:
        return evaluator
      raise RuntimeError("Attempt to add two Evaluators with the same prefix '%s'." % prefix)
    self._evaluators[prefix] = evaluator
    return evaluator

  @property
  def metric_variables(self):
    v = []
    for metric in self._metrics.values():
      v += metric.variables
    for evaluator in self._evaluators.values():
      v += evaluator.metric_variables
    return v

  @property
  def metrics(self):
    """A list of (prefix, metric) pairs."""
    pairs = [("", metric) for metric in self._metrics.values()]
    for prefix, evaluator in self._evaluators.items():
      pairs += [(prefix + "/" + p, m) for p, m in evaluator.metrics]
    return pairs


class SparseSoftmaxEvaluator(Evaluator):
  """Average loss and accuracy of a single-label, multi-class model, read from the dict that
  `model.eval_data()` returns (weights optional)."""

  def __init__(self, model, loss_key="loss", label_key="label",
               predicted_class_key="predicted_class", weights_key="weights"):
    super().__init__(model)
    self.avg_loss = self.track_metric(metrics.Mean("Avg Loss"))
    self.accuracy = self.track_metric(metrics.Accuracy())
    self.loss_key = loss_key
    self.label_key = label_key
    self.predicted_class_key = predicted_class_key
    self.weights_key = weights_key

  def call(self, eval_data):
    weights = eval_data.get(self.weights_key, None)
    if weights is None:
      self.avg_loss(eval_data[self.loss_key])
      self.accuracy(eval_data[self.label_key], eval_data[self.predicted_class_key])
    else:
      self.avg_loss(eval_data[self.loss_key], weights=weights)
      self.accuracy(eval_data[self.label_key], eval_data[self.predicted_class_key],
                    weights=weights)
