"""TF1 `tf.layers`, `tf.make_template` and `tfe.EagerVariableStore`."""
import numpy as np
import pytest

import tfe_compat as tf


@pytest.fixture(autouse=True)
def fresh_names():
  tf.keras.backend.clear_session()


def test_layer_classes_have_tf1_defaults_and_names():
  dense = tf.layers.Dense(units=3, kernel_initializer=tf.ones_initializer())
  out = dense(tf.ones([2, 4]))
  assert out.numpy().tolist() == [[4.0] * 3] * 2
  assert [v.name for v in dense.variables] == ["dense/kernel:0", "dense/bias:0"]
  assert isinstance(dense, tf.layers.Layer) and isinstance(dense, tf.keras.layers.Dense)
  dropout = tf.layers.Dropout(0.5)
  assert dropout(tf.ones([4, 4])).numpy().tolist() == [[1.0] * 4] * 4  # training=False
  kept = dropout(tf.ones([1000]), training=True).numpy()
  assert set(np.unique(kept)) <= {0.0, 2.0} and 350 < (kept > 0).sum() < 650
  bn = tf.layers.BatchNormalization()
  x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
  assert np.allclose(bn(x).numpy(), x.numpy() / np.sqrt(1 + 1e-3))  # inference by default
  assert np.allclose(bn(x, training=True).numpy().mean(axis=0), 0.0, atol=1e-6)
  assert tf.layers.MaxPool2D is tf.layers.MaxPooling2D


def test_functional_forms_make_new_layers_each_call():
  tf.reset_default_graph()  # layer names and scope counts start anew, as in a new program
  x = tf.ones([2, 8, 8, 3])
  y = tf.layers.conv2d(x, 4, 3, padding="same", kernel_initializer=tf.ones_initializer())
  assert y.shape == [2, 8, 8, 4] and y.numpy()[0, 4, 4, 0] == 27.0
  assert tf.layers.max_pooling2d(y, 2, 2).shape == [2, 4, 4, 4]
  assert tf.layers.average_pooling2d(y, pool_size=2, strides=2).shape == [2, 4, 4, 4]
  assert tf.layers.flatten(x).shape == [2, 192]
  h = tf.layers.dense(tf.ones([2, 3]), 5, activation=tf.nn.relu)
  assert h.shape == [2, 5] and h.numpy().min() >= 0
  assert tf.layers.dropout(tf.ones([3]), rate=0.5).numpy().tolist() == [1.0, 1.0, 1.0]
  first, second = tf.layers.Dense(2), tf.layers.Dense(2)
  assert (first.name, second.name) == ("dense_2", "dense_3")  # TF1 names count from 1
  second(tf.ones([1, 3]))
  first(tf.ones([1, 3]))  # variable scopes are numbered in call order (TF 1.15's values)
  assert (first.kernel.name, second.kernel.name) == ("dense_2/kernel:0", "dense_1/kernel:0")


def test_make_template_shares_variables():
  def scale(x):
    w = tf.get_variable("w", shape=[2], initializer=tf.ones_initializer())
    return x * w

  template = tf.make_template("lin", scale)
  a = template(tf.constant([1.0, 2.0]))
  template.variables[0].assign([2.0, 3.0])
  b = template(tf.constant([1.0, 2.0]))
  assert a.numpy().tolist() == [1.0, 2.0] and b.numpy().tolist() == [2.0, 6.0]
  assert [v.name for v in template.trainable_variables] == ["lin/w:0"]
  other = tf.make_template("lin", scale)
  other(1.0)
  assert [v.name for v in other.variables] == ["lin_1/w:0"]


def test_eager_variable_store():
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    a = tf.get_variable("a", shape=[3])
    b = tf.get_variable("a", shape=[3])
    with pytest.raises(ValueError, match="Trying to share variable a"):
      tf.get_variable("a", shape=[4])
  assert a is b and [v.name for v in store.variables()] == ["a:0"]
  assert tf.get_variable("a", shape=[3]) is not a  # outside the store: a new variable
  copy = store.copy()
  assert copy.variables()[0] is not a
  assert copy.variables()[0].numpy().tolist() == a.numpy().tolist()
