"""Writes the golden checkpoints of tests/test_tf_bundle.py with real TensorFlow.

Run by hand only (the tests never import TensorFlow), with a Python that has TensorFlow 2.x
and tf-keras, naming a Python that has tfe_compat installed:

    /work/tfvenv/bin/python tests/data/tf_checkpoints/make_golden.py \\
        --tfe-python /work/venv/bin/python

Each folder holds one checkpoint written by TensorFlow, plus what TF's own checkpoint reader
reads from it: expected.npz (every non-string tensor, keyed by checkpoint key; bfloat16 as its
uint16 bits) and expected.json ({key: {"dtype": TF dtype name, "shape": [...]}}, string
tensors also with "hex": their elements' bytes in hex, in C order).

written_by_tfe/ is what tfe_compat's tf_bundle.write makes of writer_input.arrays(): this
script checks that TensorFlow reads every tensor of it back exactly, and that TensorFlow's
own SaveV2 writes the very same bytes for those arrays.
"""
import argparse
import filecmp
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import writer_input  # noqa: E402  pylint: disable=wrong-import-position


def _object_checkpoint(tf, directory, optimizer):
  """tf.train.Checkpoint(model=<two Dense layers>, optimizer=optimizer) after one step."""

  class TwoDense(tf.keras.Model):

    def __init__(self):
      super().__init__()
      self.hidden = tf.keras.layers.Dense(3, activation="relu")
      self.out = tf.keras.layers.Dense(2)

    def call(self, inputs):
      return self.out(self.hidden(inputs))

  tf.keras.utils.set_random_seed(1)
  model = TwoDense()
  x = tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4) / 8)
  y = tf.constant([[1.0, 0.0], [0.0, 1.0]])
  with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
  gradients = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))
  tf.train.Checkpoint(model=model, optimizer=optimizer).save(os.path.join(directory, "ckpt"))


def object_keras_adam(tf, directory):
  """Keras 2's Adam: its moments are "optimizer/_variables/<n>", not slot variables."""
  _object_checkpoint(tf, directory, tf.keras.optimizers.Adam(learning_rate=0.1))


def object_keras_legacy_adam(tf, directory):
  """The legacy Adam, laid out as TF 1.15's: "optimizer/iter", ... and slot variables
  "model/.../.OPTIMIZER_SLOT/optimizer/m"."""
  _object_checkpoint(tf, directory, tf.keras.optimizers.legacy.Adam(learning_rate=0.1))


def keras_save_weights(tf, directory):
  """model.save_weights(path) in TF format of a tiny Sequential model."""
  tf.keras.utils.set_random_seed(2)
  model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="relu"),
                               tf.keras.layers.Dense(2)])
  model.save_weights(os.path.join(directory, "weights"))


def _save_graph(tf, directory, prefix, global_step=None, sharded=False, then_run=()):
  """Initializes the default graph's variables, runs `then_run` and saves the variables
  with a TF1 Saver."""
  saver = tf.compat.v1.train.Saver(sharded=sharded, save_relative_paths=True)
  with tf.compat.v1.Session() as session:
    session.run(tf.compat.v1.global_variables_initializer())
    session.run(list(then_run))
    saver.save(session, os.path.join(directory, prefix), global_step=global_step,
               write_meta_graph=False)


def graph_saver(tf, directory):
  """Graph mode: two get_variables and a global step, Saver.save(global_step=7)."""
  tf.compat.v1.disable_eager_execution()
  tf.compat.v1.get_variable("dense/kernel",
                            initializer=np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
  tf.compat.v1.get_variable("dense/bias", initializer=np.array([0.5, -1.5, 2.0], np.float32))
  step = tf.compat.v1.train.get_or_create_global_step()
  _save_graph(tf, directory, "model", global_step=7, then_run=[step.assign(7)])


def partitioned(tf, directory):
  """Graph mode: a [10, 3] get_variable in 3 partitions (rows 4, 3, 3) and a plain one."""
  tf.compat.v1.disable_eager_execution()

  def rows(shape, dtype=None, partition_info=None):
    start = partition_info.var_offset[0] if partition_info else 0
    return tf.constant(np.arange(start * 3, (start + shape[0]) * 3).reshape(shape), dtype)

  tf.compat.v1.get_variable("embedding", shape=[10, 3], dtype=tf.float32, initializer=rows,
                            partitioner=tf.compat.v1.fixed_size_partitioner(3))
  tf.compat.v1.get_variable("plain", initializer=np.array([1, 2], np.int64))
  _save_graph(tf, directory, "model")


def sliced_save_v2(tf, directory):
  """SaveV2 of slices given as TF's slice specs: "-" extents (stored without a length), and
  starts >= 64 (longer OrderedCode numbers)."""
  matrix = np.arange(12, dtype=np.float64).reshape(4, 3)
  long = np.arange(200, dtype=np.int32)
  tf.raw_ops.SaveV2(prefix=os.path.join(directory, "sliced"),
                    tensor_names=["matrix", "matrix", "long", "long"],
                    shape_and_slices=["4 3 0,2:-", "4 3 2,2:-", "200 0,100", "200 100,100"],
                    tensors=[matrix[:2], matrix[2:], long[:100], long[100:]])


def all_dtypes(tf, directory):
  """Graph mode: a variable of every dtype of writer_input.arrays(), saved by a Saver."""
  tf.compat.v1.disable_eager_execution()
  for name, value in writer_input.arrays().items():
    dtype = tf.string if value.dtype == object else tf.as_dtype(value.dtype)
    tf.compat.v1.Variable(tf.constant(value.tolist() if value.dtype == object else value,
                                      dtype=dtype, shape=value.shape), name=name)
  _save_graph(tf, directory, "model")


def two_shards(tf, directory):
  """Graph mode: variables on two CPU devices, Saver(sharded=True): num_shards == 2."""
  cpu = tf.config.list_physical_devices("CPU")[0]
  tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
  tf.compat.v1.disable_eager_execution()
  with tf.device("/cpu:0"):
    tf.compat.v1.get_variable("on_cpu0/w", initializer=np.array([[1.0, 2.0]], np.float32))
    tf.compat.v1.get_variable("on_cpu0/names", initializer=np.array([b"x", b"yz"], object),
                              dtype=tf.string)
  with tf.device("/cpu:1"):
    tf.compat.v1.get_variable("on_cpu1/v", initializer=np.array([3, 4, 5], np.int32))
  _save_graph(tf, directory, "model", sharded=True)


GOLDENS = [object_keras_adam, object_keras_legacy_adam, keras_save_weights, graph_saver,
           partitioned, sliced_save_v2, all_dtypes, two_shards]


def write_expected(tf, directory):
  """expected.npz and expected.json of the one checkpoint in `directory`, as TF reads it."""
  (index,) = glob.glob(os.path.join(directory, "*.index"))
  reader = tf.train.load_checkpoint(index[:-len(".index")])
  arrays, infos = {}, {}
  for key, dtype in sorted(reader.get_variable_to_dtype_map().items()):
    value = np.asarray(reader.get_tensor(key))
    infos[key] = {"dtype": dtype.name, "shape": list(value.shape)}
    if dtype == tf.string:
      infos[key]["hex"] = [element.hex() for element in value.flat]
    else:
      arrays[key] = value.view(np.uint16) if dtype == tf.bfloat16 else value
  np.savez(os.path.join(directory, "expected.npz"), **arrays)
  with open(os.path.join(directory, "expected.json"), "w") as f:
    json.dump(infos, f, indent=1, sort_keys=True)
    f.write("\n")


def check_written_by_tfe(tf, tfe_python):
  """Writes written_by_tfe/ with tf_bundle.write and checks it against TensorFlow."""
  directory = os.path.join(HERE, "written_by_tfe")
  prefix = os.path.join(directory, "arrays")
  code = ("import sys; sys.path.insert(0, sys.argv[1]); import writer_input; "
          "from tfe_compat.train import tf_bundle; "
          "tf_bundle.write(sys.argv[2], writer_input.arrays())")
  subprocess.run([tfe_python, "-c", code, HERE, prefix], check=True)
  arrays = writer_input.arrays()
  reader = tf.train.load_checkpoint(prefix)
  assert reader.get_variable_to_shape_map().keys() == arrays.keys()
  for key, value in arrays.items():
    restored = np.asarray(reader.get_tensor(key))
    dtype = reader.get_variable_to_dtype_map()[key]
    assert dtype == (tf.string if value.dtype == object else tf.as_dtype(value.dtype)), key
    assert restored.shape == value.shape and np.array_equal(restored, value), key
  with tempfile.TemporaryDirectory() as temporary:
    tf_prefix = os.path.join(temporary, "arrays")
    keys = sorted(arrays)
    tf.raw_ops.SaveV2(prefix=tf_prefix, tensor_names=keys, shape_and_slices=[""] * len(keys),
                      tensors=[tf.constant(arrays[key].tolist(), tf.string)
                               if arrays[key].dtype == object else tf.constant(arrays[key])
                               for key in keys])
    for suffix in (".index", ".data-00000-of-00001"):
      assert filecmp.cmp(prefix + suffix, tf_prefix + suffix, shallow=False), suffix
  print("written_by_tfe: TensorFlow reads it exactly; SaveV2 writes the same bytes")


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--tfe-python", help="a Python with tfe_compat installed")
  parser.add_argument("--only", help="build just this golden (used by the script itself)")
  args = parser.parse_args()
  os.environ["TF_USE_LEGACY_KERAS"] = "1"
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  import tensorflow as tf  # pylint: disable=import-outside-toplevel
  if args.only:  # in a fresh process: graph mode and device setup are process-wide
    directory = os.path.join(HERE, args.only)
    {golden.__name__: golden for golden in GOLDENS}[args.only](tf, directory)
    write_expected(tf, directory)
    return
  if not args.tfe_python:
    parser.error("--tfe-python is required")
  for golden in GOLDENS:
    shutil.rmtree(os.path.join(HERE, golden.__name__), ignore_errors=True)
    os.makedirs(os.path.join(HERE, golden.__name__))
    subprocess.run([sys.executable, os.path.abspath(__file__), "--only", golden.__name__],
                   check=True)
    print(golden.__name__, "written")
  check_written_by_tfe(tf, args.tfe_python)


if __name__ == "__main__":
  main()
