"""Graph mode training programs: input pipelines, checkpoints, summaries, monitored sessions.

The programs are TF 1.x's classic forms; where values are compared, TensorFlow 1.15 gives
the same (TF 2.21's compat.v1 was run on them).
"""
import os

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.summary import summary_test_util


@pytest.fixture
def graph():
  with tf.Graph().as_default() as g:
    yield g


def _linear_model():
  x = tf.placeholder(tf.float32, [None], name="x")
  w = tf.Variable(1.0, name="w")
  step = tf.train.get_or_create_global_step()
  loss = tf.reduce_mean(tf.square(x * w - 2.0))
  train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
  return x, w, step, loss, train


def test_initializable_iterator_epochs_end_in_out_of_range(graph):
  features = tf.placeholder(tf.float32, [None, 2])
  dataset = tf.data.Dataset.from_tensor_slices(features).map(lambda v: v * 2).batch(3)
  iterator = dataset.make_initializable_iterator()
  batch = iterator.get_next()
  assert batch.shape.as_list() == [None, 2] and batch.dtype is tf.float32
  total = tf.Variable(0.0)
  accumulate = total.assign_add(tf.reduce_sum(batch))
  data = np.arange(10, dtype=np.float32).reshape(5, 2)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(2):
      sess.run(iterator.initializer, {features: data})
      sizes = []
      with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        while True:
          sizes.append(len(sess.run([batch, accumulate])[0]))
      assert sizes == [3, 2]
    assert sess.run(total) == 2 * 2 * data.sum()
    plan = [p for p in sess._plans.values() if p.pre][0]
    assert not plan.eager and [op.type for op in plan.pre] == ["IteratorGetNext"]
  with tf.Session() as other, pytest.raises(tf.errors.FailedPreconditionError,
                                            match="iterator has not been initialized"):
    other.run(batch)


def test_one_shot_reinitializable_and_feedable_iterators(graph):
  one_shot = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
  train_data = tf.data.Dataset.from_tensor_slices([1, 2, 3])
  test_data = tf.data.Dataset.from_tensor_slices([10, 20])
  iterator = tf.data.Iterator.from_structure(train_data.output_types, train_data.output_shapes)
  element = iterator.get_next()
  to_train, to_test = iterator.make_initializer(train_data), iterator.make_initializer(test_data)
  handle = tf.placeholder(tf.string, [])
  feedable = tf.data.Iterator.from_string_handle(handle, train_data.output_types)
  train_iterator = tf.compat.v1.data.make_one_shot_iterator(train_data.repeat())
  with tf.Session() as sess:
    assert [sess.run(one_shot) for _ in range(3)] == [0, 1, 2]
    sess.run(to_test)
    assert sess.run(element) == 10
    sess.run(to_train)
    assert sess.run(element) == 1
    train_handle = sess.run(train_iterator.string_handle())
    assert [sess.run(feedable.get_next(), {handle: train_handle}) for _ in range(4)] == [
        1, 2, 3, 1]


def test_saver_saves_and_restores_a_sessions_variables(graph, tmp_path):
  x, w, step, loss, train = _linear_model()
  saver = tf.train.Saver(max_to_keep=2)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    paths = []
    for _ in range(3):
      sess.run(train, {x: [1.0, 2.0]})
      paths.append(saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step))
    trained = sess.run(w)
  assert paths[-1] == str(tmp_path / "model.ckpt-3")
  assert tf.train.latest_checkpoint(str(tmp_path)) == paths[-1]
  assert saver.last_checkpoints == paths[1:]  # max_to_keep=2 deleted the first
  with tf.Session() as sess:
    saver.restore(sess, paths[-1])
    assert sess.run([w, step]) == [trained, 3]


def test_summaries_and_file_writer_read_back_by_tensorboard(graph, tmp_path):
  x, _, _, loss, train = _linear_model()
  tf.summary.scalar("loss", loss)
  tf.summary.histogram("inputs", x)
  merged = tf.summary.merge_all()
  assert str(merged) == 'Tensor("MergeSummary:0", shape=(), dtype=string)'
  with tf.Session() as sess:
    writer = tf.summary.FileWriter(str(tmp_path), sess.graph)
    sess.run(tf.global_variables_initializer())
    losses = []
    for step in range(3):
      summary, _, value = sess.run([merged, train, loss], {x: [1.0, 2.0]})
      writer.add_summary(summary, step)
      losses.append(value)
    writer.close()
    assert not [p for p in sess._plans.values() if p.post][0].eager  # summaries after the step
  np.testing.assert_allclose(losses, [0.5, 0.425, 0.40625], rtol=1e-6)
  events = summary_test_util.events_from_logdir(str(tmp_path))
  assert events[1].graph_def  # the graph, for TensorBoard's graph dashboard
  scalars = [(e.step, v.simple_value) for e in events for v in e.summary.value
             if v.tag == "loss"]
  assert [s for s, _ in scalars] == [0, 1, 2]
  np.testing.assert_allclose([v for _, v in scalars], losses, rtol=1e-6)


def test_contrib_summary_in_a_graph(graph, tmp_path):
  step = tf.train.get_or_create_global_step()
  value = tf.placeholder(tf.float32, [])
  writer = tf.contrib.summary.create_file_writer(str(tmp_path), max_queue=0)
  with writer.as_default(), tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.scalar("value", value)
  increment = tf.assign_add(step, 1)
  with tf.Session() as sess:
    tf.contrib.summary.initialize(graph=tf.get_default_graph(), session=sess)
    sess.run(tf.global_variables_initializer())
    for v in (1.5, 2.5):
      sess.run([tf.contrib.summary.all_summary_ops(), increment], {value: v})
  tf.contrib.summary.flush(writer)
  events = summary_test_util.events_from_logdir(str(tmp_path))
  values = [(e.step, v.tag) for e in events for v in e.summary.value]
  assert [tag for _, tag in values] == ["value", "value"]


def test_monitored_training_session_resumes(graph, tmp_path):
  x, w, step, loss, train = _linear_model()
  tf.summary.scalar("loss", loss)

  def train_until(last_step):
    hooks = [tf.train.StopAtStepHook(last_step=last_step), tf.train.NanTensorHook(loss)]
    with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=hooks,
                                           save_checkpoint_steps=2,
                                           save_summaries_steps=1) as sess:
      fetched = []
      while not sess.should_stop():
        fetched.append(sess.run([train, step], {x: [1.0, 2.0]})[1])
      assert fetched[-1] == last_step - 1  # a fetched variable's value before the run
      return sess.run(step, {x: [1.0, 2.0]})
  assert train_until(3) == 3
  assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-3")
  graph._unsafe_unfinalize()
  with tf.Graph().as_default():
    x, w, step, loss, train = _linear_model()
    tf.summary.scalar("loss", loss)
    assert train_until(5) == 5  # resumed from step 3
  assert os.path.exists(tmp_path / "graph.pbtxt")
  tf.summary.FileWriterCache.clear()
  events = [e for path in tmp_path.glob("events.out.tfevents.*")
            for e in tf.train.summary_iterator(str(path))]
  steps = sorted({e.step for e in events for v in e.summary.value if v.tag == "loss"})
  assert steps == [0, 1, 2, 3, 4, 5]  # the two final reads ran the summary hook too


def test_hooks_see_every_run(graph):
  x, _, step, loss, train = _linear_model()

  class Recorder(tf.train.SessionRunHook):
    def __init__(self):
      self.calls = []

    def before_run(self, run_context):
      self.calls.append("before")
      return tf.train.SessionRunArgs(loss, feed_dict=None)

    def after_run(self, run_context, run_values):
      self.calls.append(round(float(run_values.results), 4))
      if len(self.calls) >= 4:
        run_context.request_stop()

  recorder = Recorder()
  final = tf.train.FinalOpsHook(step)
  feed = tf.train.FeedFnHook(lambda: {x: [1.0, 2.0]})
  with tf.train.SingularMonitoredSession(hooks=[recorder, final, feed]) as sess:
    while not sess.should_stop():
      sess.run(train)
  assert recorder.calls == ["before", 0.5, "before", 0.425]
  assert final.final_ops_values == 2
  with pytest.raises(RuntimeError, match="Global step should be created"):
    with tf.Graph().as_default():
      tf.train.StopAtStepHook(num_steps=1).begin()


def test_keras_fit_evaluate_predict_in_graph_mode(graph):
  digits = np.load("examples/data/digits.npz")
  images = digits["images"].reshape(-1, 64).astype(np.float32) / 16.0
  labels = digits["labels"]
  model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu", input_shape=(64,)),
                               tf.keras.layers.Dense(10, activation="softmax")])
  model.compile(optimizer=tf.train.AdamOptimizer(0.01),
                loss="sparse_categorical_crossentropy", metrics=["accuracy"])
  history = model.fit(images[:1500], labels[:1500], epochs=3, batch_size=64, verbose=0)
  losses = history.history["loss"]
  assert losses[2] < losses[0] < 2.5 and history.history["acc"][2] > 0.9
  loss, accuracy = model.evaluate(images[1500:], labels[1500:], verbose=0)
  assert accuracy > 0.8
  assert model.predict(images[:3]).shape == (3, 10)
  session = tf.keras.backend.get_session()
  assert session.graph is graph  # the variables' values live in the Keras session
  kernel = model.layers[0].kernel
  np.testing.assert_array_equal(session.run(kernel), tf.keras.backend.get_value(kernel))
  assert len(model.get_weights()) == 4


def test_gradient_tape_and_checkpoint_in_graph_mode(graph, tmp_path):
  w = tf.Variable([1.0, 2.0])
  x = tf.placeholder(tf.float32, [2])
  with tf.GradientTape() as tape:
    loss = tf.reduce_sum(w * w * x)
  grad = tape.gradient(loss, w)
  checkpoint = tf.train.Checkpoint(w=w)
  with tf.Session() as sess:
    sess.run(w.initializer)
    assert sess.run(grad, {x: [1.0, 1.0]}).tolist() == [2.0, 4.0]
    path = checkpoint.save(str(tmp_path / "ckpt"))
    sess.run(w.assign([5.0, 5.0]))
    checkpoint.restore(path).assert_consumed().run_restore_ops()
    assert sess.run(w).tolist() == [1.0, 2.0]
  assert path.endswith("ckpt-1")


def test_keras_backend_placeholders_functions_and_learning_phase(graph):
  K = tf.keras.backend
  x = K.placeholder(shape=(None, 3))
  model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)),
                               tf.keras.layers.Dropout(0.999)])
  y = model(x)
  phase = K.learning_phase()
  assert str(phase) == 'Tensor("keras_learning_phase:0", shape=(), dtype=bool)'
  assert K.learning_phase() is phase
  predict = K.function([x, phase], [y])
  inference = predict([np.ones((2, 3)), False])[0]
  assert inference.shape == (2, 2) and np.abs(inference).sum() > 0
  dropped = K.get_session().run(y, {x: np.ones((4, 3)), phase: True})
  assert (dropped == 0).mean() > 0.5  # training: most units dropped


def test_batch_normalization_updates_are_separate_ops_as_in_tf():
  """A training-mode call does not move the statistics; its update ops (layer.updates, and
  UPDATE_OPS for tf.layers) do. Values from TF 2.21 compat.v1 with tf-keras."""
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 3])
    training = tf.placeholder(tf.bool, [])
    bn = tf.keras.layers.BatchNormalization(momentum=0.5)
    y = bn(x, training=training)
    y_layers = tf.layers.batch_normalization(x, training=training, momentum=0.5)
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert len(update_ops) == 2 and len(bn.updates) == 2
    data = np.array([[1., 2, 3], [3, 4, 5]], np.float32)
    normalized = [[-0.9995004] * 3, [0.9995004] * 3]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_allclose(sess.run(y, {x: data, training: True}), normalized,
                                 rtol=1e-6)
      np.testing.assert_allclose(sess.run(y, {x: data, training: False}), data / np.sqrt(
          1.001), rtol=1e-6)  # the statistics did not move
      sess.run(bn.updates, {x: data, training: True})
      np.testing.assert_allclose(sess.run(bn.moving_mean), [1.0, 1.5, 2.0])
      sess.run(bn.updates, {x: data, training: False})  # not training: no change
      np.testing.assert_allclose(sess.run(bn.moving_mean), [1.0, 1.5, 2.0])
      np.testing.assert_allclose(sess.run([y_layers] + update_ops,
                                          {x: data, training: True})[0], normalized, rtol=1e-6)
      np.testing.assert_allclose(sess.run(y_layers, {x: data, training: False}),
                                 [[0., 0.49975014, 0.9995005], [1.9990009, 2.498751, 2.998501]],
                                 rtol=1e-6, atol=1e-6)
