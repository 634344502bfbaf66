"""Values TF's CPU kernels refuse (indices out of range, segment ids beyond the segments,
labels outside the classes) raise TF's InvalidArgumentError everywhere a computation runs:
eagerly, in tf.function, in graph runs, in Keras training and in tf.data functions
(messages from TF 2.21)."""
import subprocess
import sys

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.ops import value_checks

GATHER = r"indices\[1\] = 7 is not in \[0, 3\) \[Op:GatherV2\]"


@pytest.mark.parametrize("call, message", [
    (lambda i: tf.gather(tf.ones([3]), i), GATHER),
    (lambda i: tf.nn.embedding_lookup(tf.ones([3, 2]), i), GATHER),
    (lambda i: tf.gather_nd(tf.ones([3, 2]), tf.expand_dims(i, -1)),
     r"indices\[1\] = \[7\] does not index into param shape \[3,2\], node name: GatherNd"),
    (lambda i: tf.scatter_nd(tf.expand_dims(i, -1), tf.ones([2]), [3]),
     r"indices\[1\] = \[7\] does not index into shape \[3\]"),
    (lambda i: tf.math.unsorted_segment_sum(tf.ones([2]), i, 3),
     r"segment_ids\[1\] = 7 is out of range \[0, 3\) \[Op:UnsortedSegmentSum\]"),
    (lambda i: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=i, logits=tf.ones([2, 3])),
     r"Received a label value of 7 which is outside the valid range of \[0, 3\).  "
     r"Label values: 1 7"),
])
def test_out_of_range_values_raise_eagerly_compiled_and_in_graphs(call, message):
  bad, good = tf.constant([1, 7]), tf.constant([1, 2])
  with pytest.raises(tf.errors.InvalidArgumentError, match=message):
    call(bad)
  compiled = tf.function(call)
  compiled(good)
  with pytest.raises(tf.errors.InvalidArgumentError, match=message):
    compiled(bad)
  with tf.Graph().as_default():
    fed = tf.placeholder(tf.int32, [2])
    result = call(fed)
    with tf.Session() as sess:
      sess.run(result, {fed: [1, 2]})
      with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        sess.run(result, {fed: [1, 7]})


def test_keras_fit_and_dataset_functions_raise_on_out_of_range_ids():
  model = tf.keras.Sequential([tf.keras.layers.Embedding(3, 2, input_length=2),
                               tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
  model.compile("sgd", "mse")
  model.fit(np.array([[0, 1], [2, 1]]), np.zeros([2, 1]), verbose=0)
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,1\] = 7 is not in"):
    model.fit(np.array([[0, 1], [2, 7]]), np.zeros([2, 1]), verbose=0, shuffle=False)
  dataset = tf.data.Dataset.from_tensor_slices([1, 7]).map(lambda i: tf.gather(tf.ones([3]), i))
  iterator = iter(dataset)
  assert next(iterator).numpy() == 1.0
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices = 7 is not in \[0, 3\)"):
    next(iterator)


def test_the_switch_turns_checks_off(monkeypatch):
  """TFE_VALUE_CHECKS=0 (read at import): no checks, as on TF's GPU kernels."""
  monkeypatch.setattr(value_checks, "ENABLED", False)
  assert tf.gather(tf.constant([1., 2., 3.]), [2, 7]).numpy().tolist() == [3.0, 0.0]


_HUGE = """
import tfe_compat as tf
for make in (lambda: tf.zeros([2**31] * 3), lambda: tf.fill([2**62, 4], 1.0),
             lambda: tf.tile(tf.ones([2, 2]), [2**31, 2**31]),
             lambda: tf.random.uniform([2**40]), lambda: tf.ones([2**20, 2**20])):
  try:
    make()
    print("no error")
  except tf.errors.OpError as e:
    print(type(e).__name__, e.message)
"""


def test_tensors_too_large_to_exist_raise_instead_of_aborting():
  """TF 2.21's types and messages (XLA would abort the interpreter on the first three)."""
  out = subprocess.run([sys.executable, "-c", _HUGE], capture_output=True, text=True,
                       timeout=120, check=False)
  assert out.returncode == 0, out.stderr
  lines = out.stdout.splitlines()
  assert lines[:3] == [
      "InvalidArgumentError Shape [2147483648,2147483648,2147483648] would have more than "
      "2**63 - 1 elements [Op:Fill]",
      "InvalidArgumentError Shape [4611686018427387904,4] would have more than 2**63 - 1 "
      "elements [Op:Fill]",
      "InvalidArgumentError Encountered overflow when multiplying 4294967296 with 4294967296, "
      "result: -1 [Op:Tile]"]
  assert lines[3] == ("ResourceExhaustedError OOM when allocating tensor with "
                      "shape[1099511627776] and type float on "
                      "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu "
                      "[Op:RandomUniform]")
  assert lines[4].startswith("ResourceExhaustedError OOM when allocating tensor with "
                             "shape[1048576,1048576] and type float")
