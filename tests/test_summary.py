"""tf.contrib.summary and tf.summary: event files read back with TensorBoard's EventAccumulator.

Golden values (tags, histogram buckets, decoded PNG pixels, serialized TF 1.x summaries) come
from the TF oracle (TF 2.21's summary_ops_v2, which is TF 1.15's tf.contrib.summary, and
tf.compat.v1.summary executing eagerly).
"""
import gc
import io
import os
import subprocess
import sys
import threading
import time
import wave

import jax
import numpy as np
import pytest
from PIL import Image
from tensorboard.backend.event_processing import event_accumulator as ea
from tensorboard.util import tensor_util

import tfe_compat as tf
from tfe_compat.summary import writer as writer_lib
from tfe_compat.keras.callbacks_tensorboard import TensorBoard
from tfe_compat.train import training_util

summary = tf.contrib.summary


@pytest.fixture(autouse=True)
def fresh_state():
  training_util.reset_global_step()
  yield
  training_util.reset_global_step()
  writer_lib.state.writer = None  # set_as_default() has no undo in TF's API


def load(logdir):
  acc = ea.EventAccumulator(str(logdir), size_guidance={
      ea.SCALARS: 0, ea.IMAGES: 0, ea.HISTOGRAMS: 0, ea.AUDIO: 0, ea.TENSORS: 0})
  acc.Reload()
  return acc


def scalars(logdir, tag):
  return [(e.step, e.value) for e in load(logdir).Scalars(tag)]


def pixels(image_event):
  return np.asarray(Image.open(io.BytesIO(image_event.encoded_image_string))).tolist()


def test_scalars_steps_values_tags_and_wall_times(tmp_path):
  writer = summary.create_file_writer(str(tmp_path))
  start = time.time()
  with writer.as_default(), summary.always_record_summaries():
    assert summary.scalar("loss", tf.constant(0.5), step=1).numpy()
    summary.scalar("loss", 0.25, step=2)
    summary.scalar("loss", np.float64(0.125), step=np.int64(3))
    summary.scalar("count", tf.constant(7, tf.int64), step=tf.constant(4, tf.int64))
  end = time.time()
  acc = load(tmp_path)
  assert sorted(acc.Tags()["scalars"]) == ["count", "loss"]
  assert scalars(tmp_path, "loss") == [(1, 0.5), (2, 0.25), (3, 0.125)]
  assert scalars(tmp_path, "count") == [(4, 7.0)]
  assert all(start - 1 <= e.wall_time <= end + 1 for e in acc.Scalars("loss"))
  assert [f for f in os.listdir(tmp_path) if f.startswith("events.out.tfevents.")]


def test_default_step_is_the_global_step(tmp_path):
  global_step = tf.train.get_or_create_global_step()
  with summary.create_file_writer(str(tmp_path)).as_default(), \
      summary.always_record_summaries():
    summary.scalar("x", 1.0)
    global_step.assign_add(5)
    summary.scalar("x", 2.0)
  assert scalars(tmp_path, "x") == [(0, 1.0), (5, 2.0)]
  assert global_step.dtype == tf.int64


def test_every_n_global_steps_seed_003(tmp_path):
  gs = tf.train.get_or_create_global_step()
  writer = summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    for i in range(250):
      with summary.record_summaries_every_n_global_steps(100):
        summary.scalar("loss", tf.constant(float(i)))
        gs.assign_add(1)
  assert scalars(tmp_path, "loss") == [(0, 0.0), (100, 100.0), (200, 200.0)]


def test_every_n_global_steps_seed_002_set_as_default(tmp_path):
  global_step = tf.train.get_or_create_global_step()
  writer = summary.create_file_writer(str(tmp_path))
  writer.set_as_default()
  for i in range(250):
    global_step.assign_add(1)
    with summary.record_summaries_every_n_global_steps(100):
      summary.scalar("loss", float(i))
  writer.flush()
  assert scalars(tmp_path, "loss") == [(100, 99.0), (200, 199.0)]


def test_every_n_with_step_counter_and_metric_numpy_seed_004(tmp_path):
  step_counter = tf.train.get_or_create_global_step()
  acc_metrics = tf.contrib.eager.metrics.Accuracy()
  writer = summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    for batch in range(25):
      with summary.record_summaries_every_n_global_steps(10, global_step=step_counter):
        acc_metrics(labels=tf.constant([1, 0]), predictions=tf.constant([1, batch % 2]))
        summary.scalar("loss", tf.constant(1.0 / (batch + 1)))
        summary.scalar("accuracy", acc_metrics.result().numpy())
      step_counter.assign_add(1)
  assert [s for s, _ in scalars(tmp_path, "accuracy")] == [0, 10, 20]
  assert np.allclose([v for _, v in scalars(tmp_path, "accuracy")], [1.0, 17 / 22, 32 / 42])
  assert np.allclose([v for _, v in scalars(tmp_path, "loss")], [1.0, 1 / 11, 1 / 21])


def test_every_n_follows_the_step_through_every_kind_of_write(tmp_path):
  """The step's value is followed on the host through counted writes (assign_add of ints,
  optimizer updates) and read again after any other write."""
  step = tf.train.get_or_create_global_step()
  v = tf.Variable(1.0)
  sgd, adam = tf.train.GradientDescentOptimizer(0.1), tf.train.AdamOptimizer(0.1)
  updates = [
      lambda: step.assign_add(1),
      lambda: step.assign_add(2),
      lambda: step.assign_sub(1),
      lambda: step.assign(tf.constant(7, tf.int64)),
      lambda: sgd.apply_gradients([(tf.constant(1.0), v)], global_step=step),
      lambda: adam.apply_gradients([(tf.constant(1.0), v)], global_step=step),
      lambda: step.assign_add(tf.constant(3, tf.int64)),
      lambda: step.assign_add(np.int64(1)),
      lambda: tf.train.Checkpoint(step=step).restore(saved),
  ]
  saved = tf.train.Checkpoint(step=step).save(str(tmp_path / "ckpt"))  # at step 0
  recorded, expected = [], []
  with summary.create_file_writer(str(tmp_path)).as_default(), \
      summary.record_summaries_every_n_global_steps(3):
    for i in range(40):
      updates[i * 5 % len(updates)]()
      recorded.append(bool(summary.scalar("x", 1.0).numpy()))
      expected.append(int(step.numpy()) % 3 == 0)
  assert recorded == expected and 3 < sum(recorded) < 37


def test_recording_switches_and_return_values(tmp_path):
  assert summary.scalar("x", 1.0) is None  # no default writer: TF returns the no_op (None)
  assert not summary.should_record_summaries().numpy()
  writer = summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    result = summary.scalar("x", 1.0)  # contrib summaries do not record by default
    assert result.dtype == tf.bool and not result.numpy()
    assert not summary.should_record_summaries().numpy()
    with summary.always_record_summaries():
      assert summary.should_record_summaries().numpy()
      assert summary.scalar("x", 2.0, step=1).numpy()
      with summary.never_record_summaries():
        assert not summary.should_record_summaries().numpy()
        assert not summary.scalar("x", 3.0, step=2).numpy()
        assert not summary.histogram("h", [1.0], step=2).numpy()
      assert summary.scalar("x", 4.0, step=3).numpy()
    with tf.summary.record_if(lambda: tf.constant(True)):
      assert summary.scalar("x", 5.0, step=4).numpy()
  assert scalars(tmp_path, "x") == [(1, 2.0), (3, 4.0), (4, 5.0)]
  assert summary.all_summary_ops() is None
  assert summary.initialize() is None
  with pytest.raises(RuntimeError, match="only supported in graph mode"):
    summary.summary_writer_initializer_op()


def test_default_writer_switching_and_threads(tmp_path):
  a = summary.create_file_writer(str(tmp_path / "a"))
  b = summary.create_file_writer(str(tmp_path / "b"))
  with summary.always_record_summaries():
    with a.as_default() as yielded:
      assert yielded is a
      summary.scalar("v", 1.0, step=1)
      with b.as_default():
        summary.scalar("v", 2.0, step=1)
      summary.scalar("v", 3.0, step=2)
      seen = []
      thread = threading.Thread(target=lambda: seen.append(summary.scalar("v", 9.0, step=9)))
      thread.start()
      thread.join()
      assert seen == [None]  # the default writer is per thread, as in TF
    assert summary.scalar("v", 4.0, step=3) is None
  assert scalars(tmp_path / "a", "v") == [(1, 1.0), (2, 3.0)]
  assert scalars(tmp_path / "b", "v") == [(1, 2.0)]


def test_writers_with_the_same_logdir_share_one_file(tmp_path):
  first = summary.create_file_writer(str(tmp_path))
  second = summary.create_file_writer(str(tmp_path))
  with summary.always_record_summaries():
    with first.as_default():
      summary.scalar("s", 1.0, step=1)
    with second.as_default():
      summary.scalar("s", 2.0, step=2)
  assert len(os.listdir(tmp_path)) == 1
  assert scalars(tmp_path, "s") == [(1, 1.0), (2, 2.0)]
  assert isinstance(summary.create_file_writer(None), summary.SummaryWriter)
  with summary.create_file_writer(None).as_default():
    assert summary.scalar("s", 1.0) is None


def test_flush_on_close_queue_and_timer(tmp_path):
  writer = summary.create_file_writer(str(tmp_path / "close"), flush_millis=10**7)
  with writer.as_default(), summary.always_record_summaries():
    summary.scalar("s", 1.0, step=1)
    writer._file.flush = lambda: None  # as_default flushes on exit; keep the record queued
  del writer._file.flush
  assert load(tmp_path / "close").Tags()["scalars"] == []  # still queued
  writer.close()
  assert scalars(tmp_path / "close", "s") == [(1, 1.0)]
  with pytest.raises(tf.errors.NotFoundError):
    writer.flush()
  writer.init()  # TF 1.x writers start a new file on init() after close()
  with writer.as_default(), summary.always_record_summaries():
    summary.scalar("s", 2.0, step=2)
  assert len(os.listdir(tmp_path / "close")) == 2

  queued = summary.create_file_writer(str(tmp_path / "queue"), max_queue=2, flush_millis=10**7)
  timed = summary.create_file_writer(str(tmp_path / "timer"), flush_millis=50)
  with summary.always_record_summaries():
    with queued.as_default():
      for step in range(4):
        summary.scalar("s", float(step), step=step)
      queued._file.flush = lambda: None  # only the flush thread writes from here
    with timed.as_default():
      summary.scalar("s", 7.0, step=7)
      timed._file.flush = lambda: None
  deadline = time.time() + 10
  while time.time() < deadline and not (load(tmp_path / "queue").Tags()["scalars"] and
                                        load(tmp_path / "timer").Tags()["scalars"]):
    time.sleep(0.05)
  assert scalars(tmp_path / "queue", "s")[:3] == [(0, 0.0), (1, 1.0), (2, 2.0)]
  assert scalars(tmp_path / "timer", "s") == [(7, 7.0)]


def test_a_dropped_writer_is_flushed_and_closed(tmp_path):
  writer = summary.create_file_writer(str(tmp_path), flush_millis=10**7)
  writer.set_as_default()
  with summary.always_record_summaries():
    summary.scalar("s", 5.0, step=3)
  writer_lib.state.writer = None
  del writer
  gc.collect()
  assert scalars(tmp_path, "s") == [(3, 5.0)]


def test_import_event_and_graph(tmp_path):
  event = tf.Event(step=8, summary=tf.Summary(value=[tf.Summary.Value(tag="imported",
                                                                      simple_value=1.5)]))
  with summary.create_file_writer(str(tmp_path)).as_default():
    summary.import_event(tf.constant(event.SerializeToString()))  # records regardless
    assert summary.graph(tf.get_default_graph()) is None  # no ops to write when eager
    summary.graph(b"", step=0)  # an empty serialized GraphDef
  acc = load(tmp_path)
  assert scalars(tmp_path, "imported") == [(8, 1.5)]
  assert acc.Tags()["graph"]


def test_pending_summaries_are_written_at_exit(tmp_path):
  script = ("import tfe_compat as tf\n"
            "w = tf.contrib.summary.create_file_writer(%r)\n"
            "w.set_as_default()\n"
            "with tf.contrib.summary.always_record_summaries():\n"
            "  tf.contrib.summary.scalar('exit', tf.constant(3.0), step=12)\n" % str(tmp_path))
  subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
  assert scalars(tmp_path, "exit") == [(12, 3.0)]


def test_tags_name_scopes_and_family(tmp_path):
  with summary.create_file_writer(str(tmp_path)).as_default(), \
      summary.always_record_summaries():
    with tf.name_scope("outer"):
      summary.scalar("b", 2.0, family="fam", step=3)
      summary.scalar("b c:d", 2.5, step=3)
      tf.summary.scalar("v2 name", 1.0, step=3)
      with tf.name_scope("inner"):
        summary.histogram("h", [1.0], step=3)
  tags = load(tmp_path).Tags()
  assert sorted(tags["scalars"]) == ["fam/outer/fam/b", "outer/b_c_d", "outer/v2 name"]
  assert tags["histograms"] == ["outer/inner/h"]


def test_histogram_matches_tf_buckets(tmp_path):
  with summary.create_file_writer(str(tmp_path)).as_default(), \
      summary.always_record_summaries():
    summary.histogram("h", tf.constant([1.0, 2.0, 3.0, 10.0]), step=1)
    summary.histogram("empty", tf.zeros([0]), step=1)
    summary.histogram("nan", tf.constant([1.0, float("nan")]), step=1)  # dropped, as TF refuses
    summary.histogram("ints", tf.constant([1, 2]), step=2)
  acc = load(tmp_path)
  h = acc.Histograms("h")[0].histogram_value
  assert (h.min, h.max, h.num, h.sum, h.sum_squares) == (1.0, 10.0, 4.0, 16.0, 114.0)
  assert np.allclose(h.bucket_limit, [0.917246389039776, 1.0089710279437536, 1.9661990955585713,
                                      2.1628190051144287, 2.8787120958073054, 3.1665833053880363,
                                      9.938094902880803, 10.931904393168884, 1.7976931348623157e308],
                     rtol=1e-15)
  assert h.bucket == [0, 1, 0, 1, 0, 1, 0, 1, 0]
  e = acc.Histograms("empty")[0].histogram_value
  assert (e.min, e.max, e.num, e.bucket_limit, e.bucket) == (
      1.7976931348623157e308, -1.7976931348623157e308, 0.0, [1.7976931348623157e308], [0.0])
  assert "nan" not in acc.Tags()["histograms"]
  assert acc.Histograms("ints")[0].step == 2


def test_images_match_tf_rescaling(tmp_path):
  with summary.create_file_writer(str(tmp_path)).as_default(), \
      summary.always_record_summaries():
    summary.image("neg", tf.constant([[[[-1.0], [0.5]], [[0.25], [2.0]]]]), max_images=1, step=1)
    summary.image("rgba", tf.constant(np.arange(16, dtype=np.float32).reshape(2, 1, 2, 4) - 3),
                  max_images=5, step=1)
    summary.image("bad", tf.constant([[[[np.nan, 1.0, 2.0], [0.5, 0.25, 1.0]]]]),
                  bad_color=tf.constant([1, 2, 3, 4], tf.uint8), step=1)
    summary.image("inf", tf.constant([[[[np.inf], [-1.0], [2.0]]]]), step=1)
    summary.image("u8", tf.constant(np.arange(16, dtype=np.uint8).reshape(4, 2, 2, 1)), step=1)
    summary.image("f64", tf.constant(np.array([[[[0.5], [7.0]]]])), step=1)
    summary.image("f16", tf.constant(np.array([[[[0.5], [7.0], [3.3]]]], np.float16)), step=1)
  acc = load(tmp_path)
  assert pixels(acc.Images("neg/image")[0]) == [[64, 159], [143, 255]]
  assert pixels(acc.Images("rgba/image/0")[0]) == [[[32, 64, 96, 128], [159, 191, 223, 255]]]
  assert pixels(acc.Images("rgba/image/1")[0]) == [[[106, 127, 148, 170],
                                                    [191, 212, 233, 255]]]
  assert pixels(acc.Images("bad/image/0")[0]) == [[[1, 2, 3], [127, 63, 255]]]
  assert pixels(acc.Images("inf/image/0")[0]) == [[255, 64, 255]]
  assert sorted(t for t in acc.Tags()["images"] if t.startswith("u8")) == [
      "u8/image/0", "u8/image/1", "u8/image/2"]  # max_images=3
  assert pixels(acc.Images("u8/image/2")[0]) == [[8, 9], [10, 11]]
  assert pixels(acc.Images("f64/image/0")[0]) == [[18, 254]]
  assert pixels(acc.Images("f16/image/0")[0]) == [[18, 255, 120]]  # computed in half
  assert (acc.Images("neg/image")[0].width, acc.Images("neg/image")[0].height) == (2, 2)


def test_audio_is_16_bit_wav(tmp_path):
  clips = np.linspace(-2, 2, 30, dtype=np.float32).reshape(1, 15, 2)
  with summary.create_file_writer(str(tmp_path)).as_default(), \
      summary.always_record_summaries():
    summary.audio("au", tf.constant(clips), 16000, 1, step=5)
  event = load(tmp_path).Audio("au/audio")[0]
  assert (event.step, event.sample_rate, event.length_frames, event.content_type) == (
      5, 16000.0, 15, "audio/wav")
  with wave.open(io.BytesIO(event.encoded_audio_string)) as w:
    assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (2, 2, 16000)
    samples = np.frombuffer(w.readframes(15), "<i2").reshape(15, 2)
  assert samples.tolist() == np.clip(np.round(clips[0] * 32768), -32768, 32767).tolist()


def test_generic_and_text_tensors(tmp_path):
  with summary.create_file_writer(str(tmp_path)).as_default(), \
      summary.always_record_summaries():
    summary.generic("g", tf.constant([[1, 2], [3, 4]]), step=1)
  with tf.summary.create_file_writer(str(tmp_path)).as_default():
    assert tf.summary.text("notes", tf.constant(["hello", "world"]), step=2).numpy()
  acc = load(tmp_path)
  g = acc.Tensors("g")[0]
  assert g.step == 1 and tensor_util.make_ndarray(g.tensor_proto).tolist() == [[1, 2], [3, 4]]
  t = acc.Tensors("notes")[0]
  assert t.step == 2 and tensor_util.make_ndarray(t.tensor_proto).tolist() == [b"hello",
                                                                              b"world"]
  assert acc.SummaryMetadata("notes").plugin_data.plugin_name == "text"


def test_errors_mirror_tf(tmp_path):
  writer = summary.create_file_writer(str(tmp_path))
  with writer.as_default(), summary.always_record_summaries():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="attr 'T' of bool is not in the list of allowed values"):
      summary.scalar("b", True, step=1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Tensor must be 4-D with last dim 1, 3, or 4, not \[2,2\]"):
      summary.image("i", tf.zeros([2, 2]), step=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="of int32 is not in the list"):
      summary.image("i", tf.zeros([1, 2, 2, 1], tf.int32), step=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'max_images' of 0 must be at"):
      summary.image("i", tf.zeros([1, 2, 2, 1]), max_images=0, step=1)
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype int32"):
      summary.audio("a", tf.zeros([1, 10, 1], tf.int32), 8000, 1, step=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int64 tensor"):
      summary.scalar("s", 1.0, step=tf.constant(5))
    with pytest.raises(TypeError, match="Cannot convert 2.7 to EagerTensor of dtype int64"):
      summary.scalar("s", 1.0, step=2.7)
  writer.close()
  with pytest.raises(tf.errors.NotFoundError):
    with writer.as_default(), summary.always_record_summaries():
      summary.scalar("s", 1.0, step=1)
  v2 = tf.summary.create_file_writer(str(tmp_path))
  v2.close()
  assert v2.flush() is None and v2.close() is None
  with pytest.raises(RuntimeError, match="already closed"):
    v2.set_as_default()
  with pytest.raises(ValueError, match="logdir cannot be None"):
    tf.summary.create_file_writer(None)
  with pytest.raises(NotImplementedError):
    summary.create_db_writer("file:/tmp/x.sqlite")


def test_tf_summary_v2_style(tmp_path):
  assert not tf.summary.scalar("x", 1.0, step=1).numpy()  # no writer: False
  writer = tf.summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    assert tf.summary.scalar("x", 0.5, step=1).numpy()  # records by default
    step = tf.Variable(3, dtype=tf.int64)
    assert tf.summary.scalar("x", 1.5, step=step, description="d").numpy()
    with tf.summary.record_if(False):
      assert not tf.summary.scalar("x", 9.0, step=9).numpy()
    tf.summary.experimental.set_step(4)
    try:
      assert tf.summary.experimental.get_step() == 4
      assert tf.summary.scalar("x", 2.5).numpy()
      assert tf.summary.histogram("h", tf.constant([1.0, 2.0, 3.0]), buckets=3).numpy()
      assert tf.summary.image("im", tf.constant([[[[0.0], [1.0]]]])).numpy()
      assert tf.summary.audio("au", tf.zeros([1, 8, 1]), 8000).numpy()
      with pytest.raises(ValueError, match="Expected scalar shape"):
        tf.summary.scalar("v", [1.0, 2.0])
    finally:
      tf.summary.experimental.set_step(None)
    with pytest.raises(ValueError, match="No step set"):
      tf.summary.write("w", tf.constant(1.0))
  tf.summary.flush(writer)
  acc = load(tmp_path)
  assert scalars(tmp_path, "x") == [(1, 0.5), (3, 1.5), (4, 2.5)]
  assert acc.Histograms("h")[0].histogram_value.bucket == [1.0, 1.0, 1.0]
  assert pixels(acc.Images("im/image/0")[0]) == [[0, 255]]
  assert acc.Audio("au/audio/0")[0].length_frames == 8


def test_tf_summary_v1_style_returns_serialized_summary():
  result = tf.summary.scalar("loss", 1.0)
  assert result.dtype == tf.string
  assert result.numpy() == b"\n\x0b\n\x04loss\x15\x00\x00\x80?"
  assert tf.summary.scalar("loss", 1.0, family="f").numpy() == b"\n\x0f\n\x08f/f/loss\x15\x00\x00\x80?"
  assert tf.summary.scalar("loss", tf.constant(1.0), ["my_collection"]).numpy() == result.numpy()
  assert tf.summary.text("t", tf.constant(["a", "bc"])).numpy() == (
      b"\n\x1e\n\x01tB\x0f\x08\x07\x12\x04\x12\x02\x08\x02B\x01aB\x02bcJ\x08\n\x06\n\x04text")
  with tf.name_scope("sc"):
    assert tf.summary.scalar("x y", 3).numpy() == b"\n\r\n\x06sc/x_y\x15\x00\x00@@"
    parsed = tf.Summary.FromString(tf.summary.histogram("h", [1.0, 2.0]).numpy())
  assert parsed.value[0].tag == "sc/h" and list(parsed.value[0].histo.bucket) == [0, 1, 0, 1, 0]
  with pytest.raises(RuntimeError, match="not compatible with eager execution"):
    tf.summary.merge_all()
  with pytest.raises(RuntimeError, match="not compatible with eager execution"):
    tf.summary.FileWriter("/tmp/unused")


def test_summaries_inside_jax_jit_record_at_run_time(tmp_path):
  from tfe_compat.framework.tensor import Tensor
  writer = summary.create_file_writer(str(tmp_path))

  @jax.jit
  def step_fn(x):
    summary.scalar("traced", Tensor(x) * 2.0, step=Tensor(jax.numpy.int64(6)))
    return x + 1

  with writer.as_default(), summary.always_record_summaries():
    step_fn(jax.numpy.float32(1.0))
    step_fn(jax.numpy.float32(2.0)).block_until_ready()
    jax.effects_barrier()
  assert scalars(tmp_path, "traced") == [(6, 2.0), (6, 4.0)]


def test_keras_tensorboard_callback(tmp_path):
  callback = TensorBoard(log_dir=str(tmp_path / "epochs"))
  callback.set_model(None)
  callback.on_train_begin()
  for epoch in range(2):
    callback.on_epoch_begin(epoch)
    callback.on_batch_end(0, {"batch": 0, "size": 32, "loss": 1.0})
    callback.on_epoch_end(epoch, {"loss": np.float32(0.5 / (epoch + 1)), "acc": 0.25 * epoch,
                                  "val_loss": np.array(0.75), "val_acc": 0.5})
  callback.on_train_end()
  acc = load(tmp_path / "epochs")
  assert sorted(acc.Tags()["scalars"]) == ["epoch_acc", "epoch_loss", "epoch_val_acc",
                                           "epoch_val_loss"]
  assert scalars(tmp_path / "epochs", "epoch_loss") == [(0, 0.5), (1, 0.25)]
  assert scalars(tmp_path / "epochs", "epoch_val_loss") == [(0, 0.75), (1, 0.75)]

  batches = TensorBoard(log_dir=str(tmp_path / "batches"), update_freq="batch")
  batches.set_model(None)
  for batch in range(3):
    batches.on_batch_end(batch, {"batch": batch, "size": 8, "loss": float(batch)})
  batches.on_epoch_end(0, {"loss": 1.0})
  batches.on_train_end()
  assert scalars(tmp_path / "batches", "batch_loss") == [(0, 0.0), (1, 1.0), (2, 2.0)]
  assert scalars(tmp_path / "batches", "epoch_loss") == [(24, 1.0)]  # step: samples seen


def test_summary_iterator_reads_event_files(tmp_path):
  writer = summary.create_file_writer(str(tmp_path))
  with writer.as_default(), summary.always_record_summaries():
    summary.scalar("loss", 0.5, step=3)
  writer.flush()
  (path,) = [str(p) for p in tmp_path.iterdir() if p.name.startswith("events.out")]
  events = list(tf.train.summary_iterator(path))
  assert events[0].file_version == "brain.Event:2"
  assert [(e.step, [(v.tag, v.simple_value) for v in e.summary.value]) for e in events[1:]] == \
      [(3, [("loss", 0.5)])]
  with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
    list(tf.train.summary_iterator(str(tmp_path / "missing")))


def test_tensorboard_reader_works_inside_tfe_run(tmp_path):
  # Under tfe-run, `import tensorflow` inside TensorBoard's reader is tfe_compat: the reader
  # probes tf.compat, tf.io.gfile and deprecation helpers, and must read our logs in-process.
  script = tmp_path / "read_logs.py"
  script.write_text(
      "import glob, os\n"
      "import tensorflow as tf\n"
      "tf.enable_eager_execution()\n"
      "logdir = os.path.join(os.path.dirname(__file__), 'logs')\n"
      "with tf.contrib.summary.create_file_writer(logdir).as_default(), \\\n"
      "    tf.contrib.summary.always_record_summaries():\n"
      "  for step in range(3):\n"
      "    tf.contrib.summary.scalar('loss', 1.0 / (step + 1), step=step)\n"
      "    tf.contrib.summary.histogram('w', tf.constant([1., 2., 3.]), step=step)\n"
      "tf.contrib.summary.flush()\n"
      "from tensorboard.backend.event_processing import event_accumulator\n"
      "from tensorboard.backend.event_processing import event_file_loader\n"
      "acc = event_accumulator.EventAccumulator(logdir, size_guidance={'scalars': 0})\n"
      "acc.Reload()\n"
      "print(sorted(acc.Tags()['scalars']), sorted(acc.Tags()['histograms']))\n"
      "print([(e.step, round(e.value, 4)) for e in acc.Scalars('loss')])\n"
      "path = glob.glob(os.path.join(logdir, 'events*'))[0]\n"
      "print(sum(1 for _ in event_file_loader.EventFileLoader(path).Load()))\n")
  out = subprocess.run([sys.executable, "-m", "tfe_compat", str(script)], capture_output=True,
                       text=True, timeout=300, check=False)
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == ["['loss'] ['w']", "[(0, 1.0), (1, 0.5), (2, 0.3333)]", "7"]


def test_v1_tensor_summary_bytes_equal_tf():
  # Golden bytes from TF 2.21's tf.compat.v1.summary.tensor_summary under eager execution.
  out = tf.summary.tensor_summary("t", tf.constant([[1., 2.]]), summary_description="d",
                                  display_name="T", family="fam")
  assert out.dtype is tf.string
  assert out.numpy() == (b'\n+\n\tfam/fam/tB\x16\x08\x01\x12\x08\x12\x02\x08\x01\x12\x02\x08'
                         b'\x02"\x08\x00\x00\x80?\x00\x00\x00@J\x06\x12\x01T\x1a\x01d')
  assert tf.summary.tensor_summary("x y", [1, 2]).numpy() == (
      b'\n\x1b\n\x03x_yB\x12\x08\x03\x12\x04\x12\x02\x08\x02"\x08\x01\x00\x00\x00\x02\x00\x00'
      b'\x00J\x00')
  tf.summary.FileWriterCache.clear()
  with pytest.raises(RuntimeError, match="FileWriter is not compatible with eager execution"):
    tf.summary.FileWriterCache.get("logs")
