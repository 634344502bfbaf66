"""tfe.Network naming and name-based checkpoints, tfe.Sequential, tfe.Saver.

Expected names, messages and values are those TF 1.15's own contrib.eager network_test.py
and saver_test.py assert.
"""
import os

import numpy as np
import pytest

import tfe_compat as tf

tfe = tf.contrib.eager
ONE = np.array([[1.]], np.float32)


class Child(tfe.Network):

  def __init__(self, name=None):
    super().__init__(name=name)
    self.dense = self.track_layer(tf.layers.Dense(1, use_bias=False))

  def call(self, x):
    return self.dense(x)


class Parent(tfe.Network):

  def __init__(self, name=None):
    super().__init__(name=name)
    self.child = self.track_layer(Child())

  def call(self, x):
    return self.child(x)


@pytest.fixture(autouse=True)
def _fresh_graph():
  tf.reset_default_graph()  # layer and network names are unique per graph


def test_nested_anonymous_networks_are_named_by_nesting():
  first, second = Parent(), Parent()
  with pytest.raises(ValueError, match="does not yet have a final name"):
    first.name  # pylint: disable=pointless-statement
  first(ONE)
  second(ONE)
  assert (first.name, second.name, second.child.name) == ("parent", "parent_1", "child")
  assert [v.name for v in second.variables] == ["parent_1/child/dense/kernel:0"]
  assert second.child.scope_name == "parent_1/child"


def test_layers_are_named_within_their_network_and_keep_its_scope():
  tf.layers.Dense(1)  # global layer names do not affect names inside a network
  shared = tf.layers.Dense(1, use_bias=False)

  class First(tfe.Network):

    def __init__(self):
      super().__init__()
      self.a = self.track_layer(shared)

    def call(self, x):
      return self.a(x)

  class Second(First):
    pass

  first, second = First(), Second()
  second(ONE)  # builds the layer owned by `first`: its variables are named under `first`
  assert shared.name == "dense"
  assert [v.name for v in second.variables] == ["first/dense/kernel:0"]
  assert first.variables[0] is second.variables[0]


def test_duplicate_names_and_invalid_names_raise():
  Child(name="foo")(ONE)
  with pytest.raises(ValueError, match="A Network named 'foo' already exists"):
    Child(name="foo")(ONE)
  with pytest.raises(ValueError, match="not allowed in Network names"):
    Child(name="a/b")
  with pytest.raises(ValueError, match="VariableScopes are not valid Network names"):
    with tf.variable_scope("scope") as scope:
      Child(name=scope)

  class TwoSameNames(tfe.Network):

    def __init__(self):
      super().__init__()
      self.track_layer(tf.layers.Dense(1, name="d"))
      self.track_layer(tf.layers.Dense(1, name="d"))

  with pytest.raises(ValueError,
                     match="Attempt to add two Layers with the name 'd' to the same Network"):
    TwoSameNames()


def test_network_is_always_trainable_and_not_object_checkpointable(tmp_path):
  net = Child()
  with pytest.raises(AttributeError, match="cannot mark Network as not trainable"):
    net.trainable = False
  assert net.trainable
  with pytest.raises(NotImplementedError, match="does not support object-based"):
    tf.train.Checkpoint(net=net).save(str(tmp_path / "ckpt"))


def test_save_and_restore_network_checkpoint(tmp_path):
  net = Child(name="abcd")
  with pytest.raises(ValueError, match="Attempt to save the Network before it was first"):
    tfe.save_network_checkpoint(net, str(tmp_path))
  net(ONE)
  net.variables[0].assign([[17.]])
  path = tfe.save_network_checkpoint(net, str(tmp_path), global_step=10)
  assert os.path.basename(path) == "abcd-10"
  assert os.path.basename(tfe.save_network_checkpoint(net, str(tmp_path))) == "abcd"
  net.variables[0].assign([[1.]])
  tfe.restore_network_checkpoint(net, str(tmp_path))  # a directory: <dir>/<network name>
  assert net.variables[0].numpy().tolist() == [[17.]]
  net.variables[0].assign([[1.]])
  tfe.restore_network_checkpoint(net, path)
  assert net.variables[0].numpy().tolist() == [[17.]]
  unbuilt = Child()  # deferred: the value arrives when the variable is created
  tfe.restore_network_checkpoint(unbuilt, path)
  assert unbuilt(ONE).numpy().tolist() == [[17.]]
  assert unbuilt.variables[0].name == "child/dense/kernel:0"


def test_later_restorations_win_for_deferred_variables(tmp_path):
  whole = Parent()
  whole(ONE)
  whole.variables[0].assign([[15.]])
  whole_path = tfe.save_network_checkpoint(whole, str(tmp_path / "whole"))
  part = Child()
  part(ONE)
  part.variables[0].assign([[5.]])
  part_path = tfe.save_network_checkpoint(part, str(tmp_path / "part"))
  into = Parent()
  tfe.restore_network_checkpoint(into, whole_path)
  tfe.restore_network_checkpoint(into.child, part_path)
  into(ONE)
  assert into.variables[0].numpy().tolist() == [[5.]]


def test_map_func_collisions_raise(tmp_path):
  class TwoChildren(tfe.Network):

    def __init__(self):
      super().__init__()
      self.first = self.track_layer(Child())
      self.second = self.track_layer(Child())

    def call(self, x):
      return self.second(self.first(x))

  net = TwoChildren()
  net(ONE)
  assert [v.name for v in net.variables] == ["two_children/child/dense/kernel:0",
                                             "two_children/child_1/dense/kernel:0"]
  with pytest.raises(ValueError, match="The map_func passed to save_network_checkpoint for "
                                       "the Network 'two_children' resulted in two variables "
                                       "named 'foo'"):
    tfe.save_network_checkpoint(net, str(tmp_path), map_func=lambda n: "foo")
  path = tfe.save_network_checkpoint(net.first, str(tmp_path), map_func=lambda n: "foo")
  loader = TwoChildren()
  tfe.restore_network_checkpoint(loader, path, map_func=lambda n: "foo")
  with pytest.raises(ValueError, match="The map_func passed to restore_network_checkpoint "
                                       "for the Network 'two_children_1' resulted in two"):
    loader(ONE)


def test_sequential_passes_training_only_to_callables_taking_it():
  def add_training(x, training=None):
    if training is None:
      return x
    return x + 1 if training else x - 1

  net = tfe.Sequential([add_training, lambda x: 2 * x])
  two = tf.constant(2)
  assert [net(two).numpy(), net(two, training=False).numpy(),
          net(two, training=True).numpy()] == [4, 2, 6]
  dropout = tfe.Sequential([tf.layers.Dropout(0.99999)])
  assert dropout(tf.constant(2.0), training=False).numpy() == 2.0


def test_saver_accepts_the_same_variable_twice_but_not_two_with_one_name(tmp_path):
  v1 = tf.Variable(1.0, name="v1")
  tfe.Saver([v1, v1]).save(str(tmp_path / "same"))
  saver = tfe.Saver([v1, tf.Variable(2.0, name="v1")])
  with pytest.raises(ValueError, match="Two different ResourceVariable objects with the "
                                       "same shared_name 'v1'"):
    saver.save(str(tmp_path / "clash"))
