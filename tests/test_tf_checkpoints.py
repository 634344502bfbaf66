"""TensorFlow's checkpoints, through the APIs a ported program uses: restored wherever a
checkpoint path is accepted, written in TF's format on request, inspected and converted.

The checkpoints under tests/data/tf_checkpoints were written by TensorFlow 2.21 (tf-keras,
`tf.compat.v1` for graph programs; make_golden.py there); expected.npz holds what TF's own
reader read from them. Checkpoints this file writes in TF's format were restored by
TensorFlow by hand (a model and legacy Adam from `tf.train.Checkpoint`, a Sequential model
from `save_weights`: values equal, `assert_consumed()` passed); the tests pin what made them
readable: TF's keys and object graph."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.train import tf_bundle

GOLDEN = os.path.join(os.path.dirname(__file__), "data", "tf_checkpoints")
X = np.arange(8, dtype=np.float32).reshape(2, 4) / 8


def _expected(name):
  return np.load(os.path.join(GOLDEN, name, "expected.npz"))


def _keys(name):
  with open(os.path.join(GOLDEN, name, "expected.json")) as f:
    return sorted(json.load(f))


class TwoDense(tf.keras.Model):
  """make_golden.py's model."""

  def __init__(self):
    super().__init__()
    self.hidden = tf.keras.layers.Dense(3, activation="relu")
    self.out = tf.keras.layers.Dense(2)

  def call(self, inputs):
    return self.out(self.hidden(inputs))


def _value(path):
  return path + "/.ATTRIBUTES/VARIABLE_VALUE"


def test_object_based_checkpoint_restores_model_and_adam_slots():
  model, optimizer = TwoDense(), tf.keras.optimizers.Adam(0.5)
  status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(
      tf.train.latest_checkpoint(os.path.join(GOLDEN, "object_keras_legacy_adam")))
  model(X)  # variables created later take their values (deferred restoration)
  expected = _expected("object_keras_legacy_adam")
  np.testing.assert_array_equal(model.hidden.kernel.numpy(),
                                expected[_value("model/hidden/kernel")])
  np.testing.assert_array_equal(model.out.bias.numpy(), expected[_value("model/out/bias")])
  assert optimizer.iterations.numpy() == 1
  assert optimizer.learning_rate.numpy() == np.float32(0.1)  # the checkpoint's
  optimizer.apply_gradients([(tf.zeros_like(v), v) for v in model.trainable_variables])
  saved_m = expected["model/hidden/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/"
                     "VARIABLE_VALUE"]
  np.testing.assert_allclose(optimizer.get_slot(model.hidden.kernel, "m").numpy(),
                             0.9 * saved_m, rtol=1e-6)  # restored when created, then a step
  status.assert_consumed()


def test_checkpoint_of_keras_2_optimizer_restores_the_model_and_reports_the_rest():
  model, optimizer = TwoDense(), tf.keras.optimizers.Adam(0.1)
  status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(
      os.path.join(GOLDEN, "object_keras_adam", "ckpt-1"))
  model(X)
  np.testing.assert_array_equal(model.hidden.kernel.numpy(),
                                _expected("object_keras_adam")[_value("model/hidden/kernel")])
  with pytest.raises(AssertionError, match="optimizer/_variables/1"):
    status.assert_consumed()  # Keras 2's optimizer layout has no TF 1.x counterpart
  status.expect_partial()


def test_keras_load_weights_of_tf_save_weights():
  model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="relu"),
                               tf.keras.layers.Dense(2)])
  model.load_weights(os.path.join(GOLDEN, "keras_save_weights", "weights")).assert_consumed()
  expected = _expected("keras_save_weights")
  np.testing.assert_array_equal(model.layers[1].kernel.numpy(),
                                expected[_value("layer_with_weights-1/kernel")])
  np.testing.assert_array_equal(model.layers[0].bias.numpy(),
                                expected[_value("layer_with_weights-0/bias")])


def _graph_saver_variables():
  kernel = tf.get_variable("dense/kernel", [2, 3])
  bias = tf.get_variable("dense/bias", [3])
  return kernel, bias, tf.train.get_or_create_global_step()


def test_graph_program_restores_a_tf_saver_checkpoint():
  directory = os.path.join(GOLDEN, "graph_saver")
  expected = _expected("graph_saver")
  assert os.path.basename(tf.train.latest_checkpoint(directory)) == "model-7"
  with tf.Graph().as_default():
    kernel, bias, step = _graph_saver_variables()
    with tf.Session() as sess:
      tf.train.Saver().restore(sess, tf.train.latest_checkpoint(directory))
      values = sess.run([kernel, bias, step])
  np.testing.assert_array_equal(values[0], expected["dense/kernel"])
  np.testing.assert_array_equal(values[1], expected["dense/bias"])
  assert values[2] == 7 and values[0].dtype == np.float32
  with tf.Graph().as_default():
    tf.get_variable("dense/kernel", [3, 2])
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match=r"Assign requires shapes of "
                         r"both tensors to match. lhs shape= \[3,2\] rhs shape= \[2,3\]"):
        tf.train.Saver().restore(sess, tf.train.latest_checkpoint(directory))


def test_name_based_checkpoint_through_tf_train_checkpoint_matches_by_name():
  kernel = tf.Variable(tf.zeros([2, 3]), name="dense/kernel")
  checkpoint = tf.train.Checkpoint(layer_kernel=kernel)
  checkpoint.restore(os.path.join(GOLDEN, "graph_saver", "model-7")).assert_consumed()
  np.testing.assert_array_equal(kernel.numpy(), _expected("graph_saver")["dense/kernel"])


def test_saver_refuses_mismatches_and_assigns_nothing(tmp_path):
  prefix = os.path.join(GOLDEN, "graph_saver", "model-7")
  bias = tf.Variable(tf.zeros([3]), name="dense/bias")
  wrong = tf.Variable(tf.zeros([3, 2]), name="dense/kernel")
  with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(2, 3\) "
                     r"when attempting to restore variable with shape \(3, 2\)"):
    tf.train.Saver([bias, wrong]).restore(None, prefix)  # TF 2.21's words
  assert bias.numpy().tolist() == [0.0, 0.0, 0.0]  # all or nothing (TF assigns bias first)
  missing = tf.Variable(tf.zeros([3]), name="dense/missing")
  with pytest.raises(tf.errors.NotFoundError, match="Key dense/missing not found"):
    tf.train.Saver([bias, missing]).restore(None, prefix)
  copy = str(tmp_path / "model-7")
  for suffix in (".index", ".data-00000-of-00001"):
    shutil.copy(prefix + suffix, copy + suffix)
  with open(copy + ".data-00000-of-00001", "r+b") as f:
    data = bytearray(f.read())
    data[3] ^= 0x10
    f.seek(0)
    f.write(data)
  with pytest.raises(tf.errors.DataLossError):
    tf.train.Saver([bias]).restore(None, copy)
  assert bias.numpy().tolist() == [0.0, 0.0, 0.0]


def test_inspection_apis_read_tf_checkpoints():
  prefix = os.path.join(GOLDEN, "graph_saver", "model-7")
  reader = tf.train.load_checkpoint(prefix)
  assert reader.get_variable_to_shape_map() == {"dense/kernel": [2, 3], "dense/bias": [3],
                                                "global_step": []}
  assert reader.get_variable_to_dtype_map()["global_step"] == tf.int64
  assert reader.has_tensor("dense/bias") and not reader.has_tensor("dense")
  assert reader.debug_string() == (b"dense/bias (DT_FLOAT) [3]\n"
                                   b"dense/kernel (DT_FLOAT) [2,3]\n"
                                   b"global_step (DT_INT64) []\n")
  assert tf.train.list_variables(os.path.dirname(prefix)) == [
      ("dense/bias", [3]), ("dense/kernel", [2, 3]), ("global_step", [])]
  np.testing.assert_array_equal(tf.train.load_variable(prefix, "dense/bias"),
                                _expected("graph_saver")["dense/bias"])
  assert tf.contrib.framework.list_variables(prefix) == tf.train.list_variables(prefix)
  assert tf.contrib.framework.load_checkpoint(prefix).get_tensor("global_step") == 7
  joined = tf.train.load_variable(os.path.join(GOLDEN, "partitioned", "model"), "embedding")
  assert joined.shape == (10, 3) and joined[9].tolist() == [27.0, 28.0, 29.0]


def test_init_from_checkpoint_maps_scopes_of_a_tf_checkpoint():
  with tf.Graph().as_default():
    with tf.variable_scope("new"):
      kernel = tf.get_variable("kernel", [2, 3])
      bias = tf.get_variable("bias", [3])
    tf.train.init_from_checkpoint(os.path.join(GOLDEN, "graph_saver"), {"dense/": "new/"})
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      values = sess.run([kernel, bias])
  np.testing.assert_array_equal(values[0], _expected("graph_saver")["dense/kernel"])
  np.testing.assert_array_equal(values[1], _expected("graph_saver")["dense/bias"])


def _trained_two_dense():
  model, optimizer = TwoDense(), tf.keras.optimizers.Adam(0.1)
  with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(X) - 1.0))
  grads = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(grads, model.trainable_variables))
  return model, optimizer


def test_tf_format_object_checkpoint_has_tfs_keys_and_restores(tmp_path, monkeypatch):
  monkeypatch.setenv("TFE_CHECKPOINT_FORMAT", "tf")
  model, optimizer = _trained_two_dense()
  path = tf.train.Checkpoint(model=model, optimizer=optimizer).save(str(tmp_path / "ckpt"))
  assert tf_bundle.is_bundle(path)
  assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-1.data-00000-of-00001",
                                          "ckpt-1.index"]
  # the keys TensorFlow writes for the same program (its checkpoint in tests/data)
  assert [k for k, _ in tf.train.list_variables(path)] == _keys("object_keras_legacy_adam")
  monkeypatch.delenv("TFE_CHECKPOINT_FORMAT")
  restored, restored_optimizer = TwoDense(), tf.keras.optimizers.Adam(0.1)
  status = tf.train.Checkpoint(model=restored, optimizer=restored_optimizer).restore(path)
  restored(X)
  np.testing.assert_array_equal(restored.out.kernel.numpy(), model.out.kernel.numpy())
  restored_optimizer.apply_gradients([(tf.zeros_like(v), v)
                                      for v in restored.trainable_variables])
  status.assert_consumed()


def test_save_weights_in_tf_format_and_saver_with_the_switch(tmp_path, monkeypatch):
  model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3),
                               tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(2)])
  model.save_weights(str(tmp_path / "weights"), save_format="tf")
  assert tf_bundle.is_bundle(str(tmp_path / "weights"))
  assert [k for k, _ in tf.train.list_variables(str(tmp_path / "weights"))] == [
      "_CHECKPOINTABLE_OBJECT_GRAPH", _value("layer_with_weights-0/bias"),
      _value("layer_with_weights-0/kernel"), _value("layer_with_weights-1/bias"),
      _value("layer_with_weights-1/kernel")]
  model.save_weights(str(tmp_path / "ours"))
  assert not tf_bundle.is_bundle(str(tmp_path / "ours"))  # our format by default
  monkeypatch.setenv("TFE_CHECKPOINT_FORMAT", "tf")
  v = tf.Variable([1.0, 2.0], name="v")
  path = tf.train.Saver([v]).save(None, str(tmp_path / "saver"), global_step=3)
  assert tf_bundle.is_bundle(path) and tf.train.list_variables(path) == [("v", [2])]
  v.assign([0.0, 0.0])
  tf.train.Saver([v]).restore(None, path)
  assert v.numpy().tolist() == [1.0, 2.0]


def test_inspect_and_convert_commands(tmp_path):
  command = [sys.executable, "-m", "tfe_compat.checkpoint"]
  out = subprocess.run(command + ["inspect", os.path.join(GOLDEN, "graph_saver")],
                       capture_output=True, text=True, check=True).stdout
  assert out == ("dense/bias (DT_FLOAT) [3]\ndense/kernel (DT_FLOAT) [2,3]\n"
                 "global_step (DT_INT64) []\n\n# Total number of params: 10\n")
  out = subprocess.run(command + ["inspect", os.path.join(GOLDEN, "graph_saver", "model-7"),
                                  "--tensor", "global_step"],
                       capture_output=True, text=True, check=True).stdout
  assert out == "tensor: global_step (int64) []\n7\n# Total number of params: 10\n"
  source = os.path.join(GOLDEN, "object_keras_legacy_adam", "ckpt-1")
  ours = str(tmp_path / "ours" / "ckpt-1")
  subprocess.run(command + ["convert", source, ours, "--to", "orbax"], check=True,
                 capture_output=True)
  assert not tf_bundle.is_bundle(ours)
  model, optimizer = TwoDense(), tf.keras.optimizers.Adam(0.5)
  status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(ours)
  model(X)
  np.testing.assert_array_equal(model.hidden.kernel.numpy(),
                                _expected("object_keras_legacy_adam")[
                                    _value("model/hidden/kernel")])
  back = str(tmp_path / "back" / "ckpt-1")
  subprocess.run(command + ["convert", ours, back, "--to", "tf"], check=True,
                 capture_output=True)
  assert [k for k, _ in tf.train.list_variables(back)] == _keys("object_keras_legacy_adam")
  assert tf.train.load_checkpoint(back).get_tensor(_value("model/out/bias")).tolist() == \
      _expected("object_keras_legacy_adam")[_value("model/out/bias")].tolist()
  status.expect_partial()
  failed = subprocess.run(command + ["inspect", str(tmp_path / "nothing")],
                          capture_output=True, text=True, check=False)
  assert failed.returncode == 1 and failed.stderr.startswith("NotFoundError: ")


def test_checkpoint_manager_keeps_and_deletes_tf_format_checkpoints(tmp_path, monkeypatch):
  monkeypatch.setenv("TFE_CHECKPOINT_FORMAT", "tf")
  v = tf.Variable(1.0)
  manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path), max_to_keep=1)
  first = manager.save()
  v.assign(2.0)
  second = manager.save()
  assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-2.data-00000-of-00001",
                                          "ckpt-2.index"]
  assert not tf.train.checkpoint_exists(first) and manager.latest_checkpoint == second
  v.assign(0.0)
  tf.train.Checkpoint(v=v).restore(second).assert_consumed()
  assert v.numpy() == 2.0


def test_graph_program_restores_a_tf_object_based_checkpoint():
  with tf.Graph().as_default():
    model = TwoDense()
    model(tf.placeholder(tf.float32, [None, 4]))
    status = tf.train.Checkpoint(model=model).restore(
        os.path.join(GOLDEN, "object_keras_legacy_adam", "ckpt-1"))
    with tf.Session() as sess:
      status.initialize_or_restore(sess)
      kernel = sess.run(model.hidden.kernel)
    status.expect_partial()
  np.testing.assert_array_equal(
      kernel, _expected("object_keras_legacy_adam")[_value("model/hidden/kernel")])
