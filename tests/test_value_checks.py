"""Values TF's CPU kernels refuse (indices out of range, segment ids beyond the segments,
labels outside the classes) raise TF's InvalidArgumentError everywhere a computation runs:
eagerly, in tf.function, in graph runs, in Keras training and in tf.data functions
(messages from TF 2.21)."""
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
