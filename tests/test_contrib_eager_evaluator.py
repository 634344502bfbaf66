"""tfe.Evaluator, tfe.metrics result summaries, execution callbacks / tfe.seterr and the
test_util / eager context pieces TF's contrib.eager tests use (TF 1.15 semantics, computed
by hand from its source: these APIs are not in TF 2.x)."""
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.contrib import evaluator as evaluator_lib
from tfe_compat.eager import execution_callbacks
from tfe_compat.internal import eager_context, test_util
from tfe_compat.summary import summary_test_util

tfe = tf.contrib.eager


class _Identity:
  def eval_data(self, d):
    return d


class _MeanEvaluator(tfe.Evaluator):
  def __init__(self, model):
    super().__init__(model)
    self.mean = self.track_metric(tfe.metrics.Mean("mean"))

  def call(self, eval_data):
    self.mean(eval_data)


class _Outer(tfe.Evaluator):
  def __init__(self, model):
    super().__init__(model)
    self.sub = self.track_evaluator("inner", _MeanEvaluator(model))
    self.total = self.track_metric(tfe.metrics.Mean("outer-mean"))

  def call(self, eval_data):
    self.total(eval_data["outer"])
    self.sub.call(eval_data["inner"])


def test_evaluator_results_dataset_and_summaries(tmp_path):
  e = _MeanEvaluator(_Identity())
  assert e(3.0) is None
  e([5.0, 7.0, 9.0])
  results = e.all_metric_results()
  assert list(results) == ["mean"] and results["mean"].numpy() == 6.0
  tf.train.get_or_create_global_step()
  e.all_metric_results(str(tmp_path))
  events = summary_test_util.events_from_logdir(str(tmp_path))
  assert len(events) == 2 and events[1].summary.value[0].simple_value == 6.0
  assert events[1].summary.value[0].tag == "mean"
  d = _MeanEvaluator(_Identity())
  results = d.evaluate_on_dataset(tf.data.Dataset.from_tensor_slices([1.0, 2.0, 6.0]))
  assert results["mean"].numpy() == 3.0


def test_evaluator_composition_and_tracking_errors():
  e = _Outer(_Identity())
  e({"inner": 2.0, "outer": 100.0})
  e({"inner": 4.0, "outer": 1000.0})
  results = e.all_metric_results()
  assert results["inner/mean"].numpy() == 3.0 and results["outer-mean"].numpy() == 550.0
  assert sorted((p, m.name) for p, m in e.metrics) == [("", "outer-mean"), ("inner/", "mean")]
  assert [v.name.split("/")[1] for v in e.metric_variables] == ["numer:0", "denom:0"] * 2
  metric = tfe.metrics.Mean("shared")
  first = tfe.Evaluator(None)
  assert first.track_metric(metric) is metric and first.track_metric(metric) is metric
  with pytest.raises(ValueError, match="Metric shared already added to Evaluator Evaluator"):
    tfe.Evaluator(None).track_metric(metric)
  with pytest.raises(TypeError, match="not a tfe.metrics.Metric"):
    first.track_metric(3)
  with pytest.raises(TypeError, match="not a tfe.Evaluator"):
    first.track_evaluator("x", 3)
  with pytest.raises(NotImplementedError, match="must define a call"):
    first.call(1.0)
  with pytest.raises(RuntimeError, match="not needed when eager execution is enabled"):
    first.init_variables()
  with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
    tfe.Evaluator.run_evaluation(None, None, None)


def test_sparse_softmax_evaluator():
  e = evaluator_lib.SparseSoftmaxEvaluator(_Identity())
  e({"loss": 1.0, "label": 5, "predicted_class": 5})
  e({"loss": [0.0, 3.0, 4.0], "label": [1, 2, 3], "predicted_class": [1, 1, 3]})
  results = e.all_metric_results()
  assert results["Avg Loss"].numpy() == 2.0 and results["Accuracy"].numpy() == 0.75
  w = evaluator_lib.SparseSoftmaxEvaluator(_Identity())
  w({"loss": [1.0, 3.0], "label": [1, 2], "predicted_class": [1, 1], "weights": [3.0, 1.0]})
  assert w.all_metric_results()["Accuracy"].numpy() == 0.75


def test_metric_result_writes_summary(tmp_path):
  m = tfe.metrics.Mean(use_global_variables=True)
  m([1, 10, 100])
  tf.train.get_or_create_global_step()
  with tf.contrib.summary.create_file_writer(str(tmp_path / "a"), max_queue=0).as_default(), \
      tf.contrib.summary.always_record_summaries():
    assert m.result().numpy() == 37.0
  events = summary_test_util.events_from_logdir(str(tmp_path / "a"))
  assert len(events) == 2 and events[1].summary.value[0].simple_value == 37.0
  with tf.contrib.summary.create_file_writer(str(tmp_path / "b"), max_queue=0).as_default(), \
      tf.contrib.summary.always_record_summaries():
    m.result(write_summary=False)
  assert len(summary_test_util.events_from_logdir(str(tmp_path / "b"))) == 1
  with pytest.raises(ValueError, match="Non-boolean tensor"):
    m.result(write_summary=5)
  with pytest.raises(ValueError, match="Non-scalar tensor"):
    m.result(write_summary=[True])
  with pytest.raises(TypeError):
    tfe.metrics.BinaryAccuracy()  # threshold is required, as in TF


def test_execution_callbacks_and_seterr(capsys):
  seen = []
  tfe.add_execution_callback(lambda *args: seen.append(args))
  try:
    tf.constant(2.0) * tf.constant(3.0)
  finally:
    tfe.clear_execution_callbacks()
  op_type, inputs, attrs, outputs, op_name = seen[-1]
  assert op_type == "Mul" and len(inputs) == 2 and attrs == () and op_name is None
  assert outputs[0].numpy() == 6.0
  ignore = execution_callbacks.ExecutionCallback.IGNORE
  assert tfe.seterr(inf_or_nan="raise") == {"inf_or_nan": ignore}
  try:
    with pytest.raises(execution_callbacks.InfOrNanError,
                       match=r"Output 1 of 1 of TFE operation RealDiv \(name: None\) contains "
                             r"1 inf\(s\) out of a total of 1 element\(s\). Tensor value: inf"):
      tf.constant(1.0) / tf.constant(0.0)
    assert (tf.constant(1) // tf.constant(1)).numpy() == 1  # integers are not checked
  finally:
    old = tfe.seterr(inf_or_nan="ignore")
  assert old == {"inf_or_nan": execution_callbacks.ExecutionCallback.RAISE}
  assert np.isinf((tf.constant(1.0) / tf.constant(0.0)).numpy())
  with pytest.raises(ValueError):
    tfe.seterr(inf_or_nan="explode")
  tfe.add_execution_callback(tfe.nan_callback)
  try:
    tf.math.log(tf.constant(0.0))  # -inf: not a NaN
    with pytest.raises(execution_callbacks.InfOrNanError, match="1 nan"):
      tf.sqrt(tf.constant(-1.0))
  finally:
    tfe.clear_execution_callbacks()
  with execution_callbacks.errstate(inf_or_nan="print"):
    tf.math.log(tf.constant([0.0, 1.0]))
  assert "Warning: Output 1 of 1 of TFE operation Log" in capsys.readouterr().out
  assert tfe.seterr() == {"inf_or_nan": execution_callbacks.ExecutionCallback.IGNORE}


def test_context_and_test_util_helpers():
  with eager_context.eager_mode():
    assert eager_context.executing_eagerly()
  with eager_context.graph_mode():
    assert not eager_context.executing_eagerly()
  assert test_util.is_gpu_available() == (tf.contrib.eager.num_gpus() > 0)

  class _Case(test_util.TensorFlowTestCase):
    @test_util.run_gpu_only
    def test_gpu(self):
      pass
  result = _Case("test_gpu").run()
  assert len(result.skipped) == (0 if test_util.is_gpu_available() else 1)
