"""tf.train.Checkpoint (orbax storage, deferred restoration), CheckpointManager, Saver,
tfe.restore_variables_on_create, Keras save_weights/load_weights.

Behaviour checked against TF 2.21's tf.compat.v1 (eager): `save` returns `<prefix>-N` and
writes the `checkpoint` state file with the relative path; `restore(None)` gives a status
whose assertions fail with "No checkpoint specified (save_path=None); nothing is being
restored."; CheckpointManager numbers from the save counter and keeps `max_to_keep`.
"""
import gc
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.keras import saving
from tfe_compat.train import checkpoint_io
from tfe_compat.train import training_util


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
  monkeypatch.chdir(tmp_path)
  training_util.reset_global_step()
  yield
  training_util.reset_global_step()


def test_seed_003_save_and_restore(capsys):
  x = tf.get_variable("x", shape=[])
  checkpoint = tf.train.Checkpoint(x=x)
  x.assign(2.)
  save_path = checkpoint.save("./ckpt/")
  x.assign(11.)
  checkpoint.restore(save_path)
  print(x)
  assert capsys.readouterr().out == "<tf.Variable 'x:0' shape=() dtype=float32, numpy=2.0>\n"
  assert save_path == "./ckpt/-1"
  assert open("./ckpt/checkpoint").read() == ('model_checkpoint_path: "-1"\n'
                                             'all_model_checkpoint_paths: "-1"\n')


def test_save_counter_state_file_and_latest_checkpoint():
  v = tf.Variable([1., 2.])
  ckpt = tf.train.Checkpoint(v=v)
  assert tf.train.latest_checkpoint("d") is None
  assert ckpt.save("d/ckpt") == "d/ckpt-1"
  v.assign([3., 4.])
  assert ckpt.save("d/ckpt") == "d/ckpt-2"
  assert tf.train.latest_checkpoint("d") == "d/ckpt-2"
  state = tf.train.get_checkpoint_state("d")
  assert state.model_checkpoint_path == "d/ckpt-2"
  assert state.all_model_checkpoint_paths == ["d/ckpt-2"]
  assert tf.train.list_variables("d") == [("save_counter", []), ("v", [2])]
  assert ckpt.save_counter.dtype == tf.int64
  fresh = tf.contrib.eager.Checkpoint(v=tf.Variable([0., 0.]))
  status = fresh.restore("d/ckpt-1")
  assert status.assert_consumed() is status
  np.testing.assert_array_equal(fresh.v.numpy(), [1., 2.])
  assert int(fresh.save_counter) == 1  # restored, so numbering continues
  assert fresh.save("d/ckpt") == "d/ckpt-2"
  assert ckpt.write("w/exact") == "w/exact" and tf.train.latest_checkpoint("w") is None


def test_restore_none_and_status_assertions():
  ckpt = tf.train.Checkpoint(a=tf.Variable(1.))
  status = ckpt.restore(None)
  for method in ("assert_consumed", "assert_existing_objects_matched",
                 "assert_nontrivial_match"):
    with pytest.raises(AssertionError, match=r"No checkpoint specified \(save_path=None\)"):
      getattr(status, method)()
  path = ckpt.save("c/ck")
  other = tf.train.Checkpoint(z=tf.Variable(1.))
  status = other.restore(path)
  with pytest.raises(AssertionError, match="Found 1 Python objects that were not bound"):
    status.assert_existing_objects_matched()
  with pytest.raises(AssertionError, match="Unresolved object in checkpoint .*: a"):
    status.assert_consumed()
  assert status.assert_nontrivial_match() is status  # save_counter matched
  assert status.expect_partial() is status


class MyModel(tf.keras.Model):

  def __init__(self):
    super().__init__()
    self.dense1 = tf.keras.layers.Dense(5, activation="relu")
    self.dense2 = tf.keras.layers.Dense(1)

  def call(self, x):
    return self.dense2(self.dense1(x))


_RNG = np.random.RandomState(0)
_X = _RNG.randn(8, 3).astype(np.float32)
_Y = _RNG.randn(8, 1).astype(np.float32)


def _train(model, optimizer, global_step, steps):
  for _ in range(steps):
    with tf.GradientTape() as tape:
      loss = tf.reduce_mean(tf.square(model(_X) - _Y))
    variables = model.trainable_variables
    grads = tape.gradient(loss, variables)
    if isinstance(optimizer, tf.keras.optimizers.Optimizer):
      optimizer.apply_gradients(zip(grads, variables))
      global_step.assign_add(1)
    else:
      optimizer.apply_gradients(zip(grads, variables), global_step=global_step)


def _fresh(make_optimizer):
  training_util.reset_global_step()
  tf.set_random_seed(3)
  return MyModel(), make_optimizer(), tf.train.get_or_create_global_step()


@pytest.mark.parametrize("make_optimizer", [lambda: tf.train.AdamOptimizer(0.01),
                                            lambda: tf.keras.optimizers.Adam(0.01)])
def test_seed_002_resume_equals_uninterrupted(make_optimizer):
  model, optimizer, step = _fresh(make_optimizer)
  _train(model, optimizer, step, 4)
  expected = [v.numpy() for v in model.weights]

  model, optimizer, step = _fresh(make_optimizer)
  root = tf.train.Checkpoint(optimizer=optimizer, model=model, optimizer_step=step)
  _train(model, optimizer, step, 2)
  root.save(file_prefix=os.path.join("model_dir", "ckpt"))
  keys = [k for k, _ in tf.train.list_variables("model_dir")]
  assert "model/dense1/kernel" in keys and "optimizer/slots/model/dense1/kernel/m" in keys

  model, optimizer, step = _fresh(make_optimizer)
  root = tf.train.Checkpoint(optimizer=optimizer, model=model, optimizer_step=step)
  status = root.restore(tf.train.latest_checkpoint("model_dir"))
  assert int(step) == 2  # existing variables are restored at once
  with pytest.raises(AssertionError, match="Unresolved object"):
    status.assert_consumed()  # the model and the slots do not exist yet
  _train(model, optimizer, step, 2)
  status.assert_consumed()
  assert int(step) == 4
  for want, got in zip(expected, model.weights):
    np.testing.assert_array_equal(got.numpy(), want)
  assert "add_weight" not in vars(model.dense1)  # the creation hooks are gone


def test_mismatched_shape_or_dtype_assigns_nothing():
  ckpt = tf.train.Checkpoint(a=tf.Variable([1., 2.]), b=tf.Variable(5.))
  path = ckpt.save("m/ck")
  a, b = tf.Variable([0., 0., 0.]), tf.Variable(0.)
  with pytest.raises(ValueError, match=r"shape \(2,\) .* variable with shape \(3,\) .*'a'"):
    tf.train.Checkpoint(a=a, b=b).restore(path)
  assert float(b) == 0. and a.numpy().tolist() == [0., 0., 0.]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="tensor_name = b; expected dtype int32 does not equal original "
                           "dtype float"):
    tf.train.Checkpoint(b=tf.Variable(1)).restore(path)


def test_missing_and_corrupt_checkpoints():
  with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for "
                                                    "nowhere/ck-3"):
    tf.train.Checkpoint(a=tf.Variable(1.)).restore("nowhere/ck-3")
  ckpt = tf.train.Checkpoint(a=tf.Variable(1.))
  path = ckpt.save("c/ck")
  data = [n for n in os.listdir("c") if ".orbax-" in n][0]
  for root, _, files in os.walk(os.path.join("c", data)):
    for name in files:
      if name != "_METADATA":
        os.remove(os.path.join(root, name))
  with pytest.raises(tf.errors.DataLossError, match="c/ck-1"):
    ckpt.restore(path)
  with open(path + ".index", "w") as f:
    f.write("garbage")
  with pytest.raises(tf.errors.DataLossError, match=r"c/ck-1\.index"):
    ckpt.restore(path)


def test_a_flipped_bit_is_data_loss_and_restores_nothing():
  """Each array's CRC32C is kept in the index, as TF's bundle entries keep theirs."""
  a, b = tf.Variable(np.arange(1000, dtype=np.float32)), tf.Variable([1., 2.])
  path = tf.train.Checkpoint(a=a, b=b).write("flip/ck")
  data = [n for n in os.listdir("flip") if ".orbax-" in n][0]
  chunks = [os.path.join(root, name) for root, _, files in os.walk(os.path.join("flip", data))
            for name in files if not name.startswith("_") and not name.startswith(".")]
  largest = max(chunks, key=os.path.getsize)
  with open(largest, "r+b") as f:
    contents = bytearray(f.read())
    contents[len(contents) // 2] ^= 0x04
    f.seek(0)
    f.write(contents)
  a.assign(tf.zeros([1000]))
  b.assign([0., 0.])
  with pytest.raises(tf.errors.DataLossError, match="Checksum does not match"):
    tf.train.Checkpoint(a=a, b=b).restore(path)
  assert a.numpy().sum() == 0 and b.numpy().tolist() == [0., 0.]  # nothing assigned


def test_failed_write_leaves_previous_checkpoint(monkeypatch):
  v = tf.Variable([1., 2.])
  ckpt = tf.train.Checkpoint(v=v)
  ckpt.write("p/ck")
  v.assign([7., 7.])

  def crash(*args, **kwargs):
    raise OSError("disk full")

  _, checkpointer = checkpoint_io._orbax()  # pylint: disable=protected-access
  for target, name in ((checkpointer, "save"), (checkpoint_io.os, "replace")):
    with monkeypatch.context() as patch:  # fails before the data, or before the index
      patch.setattr(target, name, crash)
      with pytest.raises(OSError, match="disk full"):
        ckpt.write("p/ck")
    assert sorted(os.listdir("p"))[0] == "ck.index" and len(os.listdir("p")) == 2
  ckpt.restore("p/ck")
  np.testing.assert_array_equal(v.numpy(), [1., 2.])
  ckpt.write("p/ck")  # overwriting replaces the data directory
  assert len([n for n in os.listdir("p") if ".orbax-" in n]) == 1


def test_checkpoint_manager():
  ckpt = tf.train.Checkpoint(v=tf.Variable(1.))
  ckpt.save("first/ck")
  manager = tf.train.CheckpointManager(ckpt, "./m", max_to_keep=2)
  assert manager.latest_checkpoint is None and manager.checkpoints == []
  paths = [manager.save() for _ in range(4)]
  assert paths == ["./m/ckpt-2", "./m/ckpt-3", "./m/ckpt-4", "./m/ckpt-5"]
  assert manager.checkpoints == ["./m/ckpt-4", "./m/ckpt-5"]
  assert sorted(n for n in os.listdir("m") if n.endswith(".index")) == ["ckpt-4.index",
                                                                          "ckpt-5.index"]
  assert len([n for n in os.listdir("m") if ".orbax-" in n]) == 2
  text = open("m/checkpoint").read()
  assert text.startswith('model_checkpoint_path: "ckpt-5"\nall_model_checkpoint_paths: '
                         '"ckpt-4"\nall_model_checkpoint_paths: "ckpt-5"\n'
                         "all_model_checkpoint_timestamps: ")
  assert manager.save(checkpoint_number=100) == "./m/ckpt-100"
  again = tf.train.CheckpointManager(ckpt, "./m", max_to_keep=2)
  assert again.latest_checkpoint == "./m/ckpt-100"
  assert again.checkpoints == ["./m/ckpt-5", "./m/ckpt-100"]
  assert tf.train.latest_checkpoint("m") == "m/ckpt-100"
  with pytest.raises(ValueError, match="keep_checkpoint_every_n_hours must be None"):
    tf.train.CheckpointManager(ckpt, "x", max_to_keep=None, keep_checkpoint_every_n_hours=1)


def test_saver_name_based():
  v = tf.Variable(3.0, name="vv")
  w = tf.Variable([1, 2], name="ww")
  with pytest.raises(RuntimeError, match="When eager execution is enabled, `var_list` must "
                                         "specify a list or dict of variables to save"):
    tf.train.Saver()
  saver = tf.train.Saver([v, w])
  path = saver.save(None, "./s/model", global_step=7)
  assert path == "./s/model-7"
  assert open("s/checkpoint").read() == ('model_checkpoint_path: "model-7"\n'
                                         'all_model_checkpoint_paths: "model-7"\n')
  assert tf.train.list_variables(path) == [("vv", []), ("ww", [2])]
  v.assign(0.)
  saver.restore(None, path)
  assert float(v) == 3.0
  assert tf.train.Saver({"foo": v}).save(None, "s2/m") == "s2/m"
  assert tf.train.list_variables("s2/m") == [("foo", [])]
  with pytest.raises(tf.errors.NotFoundError, match="Key vv not found in checkpoint"):
    tf.train.Saver([v]).restore(None, "s2/m")
  eager = tf.contrib.eager.Saver([v])
  assert eager.save("e/m", global_step=tf.Variable(3, dtype=tf.int64)) == "e/m-3"
  v.assign(1.)
  eager.restore("e/m-3")
  assert float(v) == 3.0


def test_saver_max_to_keep():
  saver = tf.train.Saver([tf.Variable(1.)], max_to_keep=2)
  for step in range(4):
    saver.save(None, "k/m", global_step=step)
  assert saver.last_checkpoints == ["k/m-2", "k/m-3"]
  assert sorted(n for n in os.listdir("k") if n.endswith(".index")) == ["m-2.index",
                                                                          "m-3.index"]


def test_restore_variables_on_create():
  tf.train.Saver([tf.Variable([1., 2.], name="dense/kernel")]).save(None, "r/m")
  with tf.contrib.eager.restore_variables_on_create("r/m"):
    created = tf.Variable([0., 0.], name="dense/kernel")
    second = tf.Variable([5., 5.], name="dense/kernel")  # only the first one is restored
  assert created.numpy().tolist() == [1., 2.] and second.numpy().tolist() == [5., 5.]
  with pytest.raises(tf.errors.NotFoundError, match="other not found in checkpoint"):
    with tf.contrib.eager.restore_variables_on_create("r/m"):
      tf.Variable(1., name="other")
  with tf.contrib.eager.restore_variables_on_create(None):
    assert float(tf.Variable(4.)) == 4.


def test_keras_save_and_load_weights_deferred():
  model = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
  model(_X)
  saving.save_weights(model, "w/weights")
  assert tf.train.latest_checkpoint("w") == "w/weights"
  fresh = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
  status = saving.load_weights(fresh, "w/weights")  # not built: deferred
  np.testing.assert_array_equal(fresh(_X).numpy(), model(_X).numpy())
  status.assert_consumed()
  with pytest.raises(NotImplementedError, match="by_name=True"):
    saving.load_weights(fresh, "w/weights", by_name=True)
  with pytest.raises(tf.errors.NotFoundError):
    saving.load_weights(fresh, "w/missing")
  with pytest.raises(ValueError, match='looks like an HDF5 file'):
    saving.save_weights(model, "w.h5", save_format="tf")


def test_keras_hdf5_needs_h5py():
  try:
    import h5py  # noqa: F401  pylint: disable=unused-import,import-outside-toplevel
  except ImportError:
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    with pytest.raises(ImportError, match="`save_weights` requires h5py"):
      saving.save_weights(model, "w.h5")
    return
  model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
  saving.save_weights(model, "w.h5")
  fresh = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
  saving.load_weights(fresh, "w.h5")
  np.testing.assert_array_equal(fresh(_X).numpy(), model(_X).numpy())


def test_checkpointable_objects_and_metrics():
  class Holder(tf.contrib.eager.Checkpointable):

    def __init__(self):
      self.v = tf.Variable(1.)
      self.items = tf.contrib.checkpoint.List([tf.Variable(2.)])
      self.skip = tf.contrib.checkpoint.NoDependency(tf.Variable(3.))

  holder = Holder()
  mean = tf.keras.metrics.Mean()
  mean.update_state([1., 2., 3.])
  tfe_mean = tf.contrib.eager.metrics.Mean()
  tfe_mean(4.)
  ckpt = tf.train.Checkpoint(holder=holder, mean=mean, tfe_mean=tfe_mean)
  path = ckpt.save("h/ck")
  assert tf.train.list_variables(path) == [
      ("holder/items/0", []), ("holder/v", []), ("mean/count", []), ("mean/total", []),
      ("save_counter", []), ("tfe_mean/denom", []), ("tfe_mean/numer", [])]

  restored = tf.train.Checkpoint()
  restored.restore(path)  # nothing exists yet: everything waits
  restored.holder = Holder()
  restored.mean = tf.keras.metrics.Mean()
  restored.tfe_mean = tf.contrib.eager.metrics.Mean()
  assert float(restored.mean.result()) == 2.
  restored.tfe_mean(0.)  # the metric builds its variables on the first call
  assert float(restored.tfe_mean.result()) == 2.
  with pytest.raises(ValueError, match="`Checkpoint` was expecting a trackable object"):
    tf.train.Checkpoint(x=1)


def test_deferred_restore_outlives_the_checkpoint_object(tmp_path):
  """`tf.train.Checkpoint(model=fresh).restore(path)` with a temporary Checkpoint: the layer
  gets the saved values when it builds later (checked against TensorFlow)."""
  x = tf.ones((1, 2))
  layer = tf.keras.layers.Dense(3)
  expected = layer(x).numpy()
  path = tf.train.Checkpoint(model=layer).save(str(tmp_path / "ckpt"))
  fresh = tf.keras.layers.Dense(3)
  tf.train.Checkpoint(model=fresh).restore(path)
  gc.collect()
  np.testing.assert_array_equal(fresh(x).numpy(), expected)


def test_saving_and_restoring_prints_nothing_with_info_logging(tmp_path):
  """TF prints nothing when it checkpoints; orbax's absl INFO/WARNING lines are dropped
  (the second run restores first, in a fresh process)."""
  script = tmp_path / "resume.py"
  script.write_text(textwrap.dedent("""
      import tensorflow as tf
      tf.enable_eager_execution()
      tf.logging.set_verbosity(tf.logging.INFO)

      def main(_):
        ckpt = tf.train.Checkpoint(v=tf.Variable(3.))
        latest = tf.train.latest_checkpoint(%r)
        if latest:
          ckpt.restore(latest).assert_consumed()
          print("restored")
        else:
          ckpt.save(%r)
          print("saved")

      tf.app.run()
  """ % (str(tmp_path), str(tmp_path / "ckpt"))))
  tfe_run = os.path.join(os.path.dirname(sys.executable), "tfe-run")
  for expected in ("saved\n", "restored\n"):
    out = subprocess.run([tfe_run, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == expected
    assert "orbax" not in out.stderr and "Checkpoint" not in out.stderr, out.stderr


def test_loads_hdf5_weights_written_by_keras(tmp_path):
  """tests/data/tf_keras_weights.h5 was written by tf_keras (Keras 2) from this model with
  set weights; loading it by topology gives Keras's outputs, and our file has its layout."""
  h5py = pytest.importorskip("h5py")
  layers = tf.keras.layers
  inp = tf.keras.Input((6, 6, 2), name="image")
  a = layers.Conv2D(3, 3, padding="same", name="conv_a")(inp)
  a = layers.BatchNormalization(name="bn_a")(a)
  b = layers.Conv2D(3, 1, name="conv_b")(inp)
  c = layers.Activation("relu", name="relu")(layers.Add(name="add")([a, b]))
  model = tf.keras.Model(inp, layers.Dense(4, name="logits")(
      layers.GlobalAveragePooling2D(name="pool")(c)))
  assert [l.name for l in model.layers] == ["image", "conv_a", "bn_a", "conv_b", "add", "relu",
                                            "pool", "logits"]
  model.load_weights(os.path.join(os.path.dirname(__file__), "data", "tf_keras_weights.h5"))
  x = np.random.RandomState(7).rand(2, 6, 6, 2).astype(np.float32)
  np.testing.assert_allclose(model(x, training=False).numpy(),
                             [[30.543205, 30.039568, 32.656307, 28.561245],
                              [31.11751, 30.610792, 33.249424, 29.076176]], rtol=1e-5)
  path = str(tmp_path / "ours.h5")
  model.save_weights(path)
  text = lambda names: [n.decode() if isinstance(n, bytes) else n for n in names]
  with h5py.File(path, "r") as f:
    assert text(f.attrs["layer_names"]) == [l.name for l in model.layers]
    assert text(f["bn_a"].attrs["weight_names"]) == [
        "bn_a/gamma:0", "bn_a/beta:0", "bn_a/moving_mean:0", "bn_a/moving_variance:0"]


def test_checkpoint_reader(tmp_path):
  v, step = tf.Variable([1., 2.]), tf.Variable(3, dtype=tf.int64)
  path = tf.train.Checkpoint(v=v, step=step).save(str(tmp_path / "ckpt"))
  reader = tf.train.load_checkpoint(str(tmp_path))
  assert reader.get_variable_to_shape_map() == {"save_counter": [], "step": [], "v": [2]}
  assert reader.get_variable_to_dtype_map()["v"] == tf.float32
  assert reader.has_tensor("v") and not reader.has_tensor("w")
  assert reader.get_tensor("v").tolist() == [1., 2.]
  assert tf.train.NewCheckpointReader(path).get_tensor("step") == 3
  with pytest.raises(tf.errors.NotFoundError, match="Key w not found in checkpoint"):
    reader.get_tensor("w")


def test_python_state_is_saved_and_restored_with_the_variables(tmp_path):
  class Counter(tf.train.experimental.PythonState):
    def __init__(self):
      self.count = 0

    def serialize(self):
      return str(self.count)

    def deserialize(self, string_value):
      self.count = int(string_value)

  counter, v = Counter(), tf.Variable(4.)
  counter.count = 42
  path = tf.train.Checkpoint(state=counter, v=v).save(str(tmp_path / "ckpt"))
  fresh = Counter()
  v.assign(0.)
  tf.train.Checkpoint(state=fresh, v=v).restore(path).assert_consumed()
  assert fresh.count == 42 and float(v) == 4.
  with pytest.raises(NotImplementedError):
    tf.train.experimental.PythonState().serialize()


def test_object_metadata_names_the_saved_variables(tmp_path):
  step = tf.Variable(0, name="global_step", dtype=tf.int64)
  dense = tf.keras.layers.Dense(1)
  dense(tf.ones([1, 2]))
  path = tf.train.Checkpoint(step=step, dense=dense).save(str(tmp_path / "ckpt"))
  graph = tf.contrib.checkpoint.object_metadata(path)
  full_names = {a.full_name for node in graph.nodes for a in node.attributes}
  assert {"global_step", "save_counter", dense.kernel.name.split(":")[0]} <= full_names
  with pytest.raises(tf.errors.NotFoundError):
    tf.contrib.checkpoint.object_metadata(str(tmp_path / "missing"))


def test_load_weights_that_match_nothing_raise_as_tf():
  """TF 2.21 (tf-keras): AssertionError, whether the model is built or not."""
  class Saved(tf.keras.Model):
    def __init__(self):
      super().__init__()
      self.dense = tf.keras.layers.Dense(2)

    def call(self, x):
      return self.dense(x)

  class Other(tf.keras.Model):
    def __init__(self):
      super().__init__()
      self.other = tf.keras.layers.Dense(2)

    def call(self, x):
      return self.other(x)

  saved = Saved()
  saved(tf.ones([1, 3]))
  saved.save_weights("lw/w")
  built = Other()
  built(tf.ones([1, 3]))
  for model in (built, Other()):
    with pytest.raises(AssertionError, match="Nothing except the root object matched"):
      model.load_weights("lw/w")
  deferred = Saved()
  deferred.load_weights("lw/w")  # matched when built
  deferred(tf.ones([1, 3]))
  np.testing.assert_array_equal(deferred.dense.kernel.numpy(), saved.dense.kernel.numpy())


def test_what_a_killed_save_leaves_is_removed_by_the_next_save_or_restore():
  v = tf.Variable([1., 2.])
  ckpt = tf.train.Checkpoint(v=v)
  path = ckpt.save("killed/ck")
  data = [n for n in os.listdir("killed") if ".orbax-" in n][0]
  leftovers = ["ck-2.orbax-0123456789ab",  # data of a save killed before its index
               data + ".orbax-checkpoint-tmp-1764200000",  # orbax's unfinished data
               "ck-1.index.tmp-0123456789ab", "ck-3.data-00000-of-00001.tempstate5f"]
  for name in leftovers:
    os.makedirs(os.path.join("killed", name)) if "orbax" in name else \
        open(os.path.join("killed", name), "w").close()
  ckpt.restore(path)
  assert sorted(os.listdir("killed")) == ["checkpoint", "ck-1.index", data]
  open(os.path.join("killed", leftovers[2]), "w").close()
  ckpt.save("killed/ck")
  assert not os.path.exists(os.path.join("killed", leftovers[2]))


def test_status_of_a_temporary_checkpoint_object_still_checks():
  a, b = tf.Variable(1.), tf.Variable(2.)
  path = tf.train.Checkpoint(a=a).write("temp/ck")
  status = tf.train.Checkpoint(a=a, b=b).restore(path)  # the Checkpoint is not kept
  gc.collect()
  with pytest.raises(AssertionError, match="not bound to checkpointed values"):
    status.assert_existing_objects_matched()
  with pytest.raises(AssertionError, match="not bound to checkpointed values"):
    status.assert_consumed()
