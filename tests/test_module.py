"""tf.Module (naming, traversal, checkpoints), tf.variable_creator_scope, tf.recompute_grad,
tf.grad_pass_through and tf.vectorized_map; golden values from TensorFlow."""
import os

import jax
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.eager import custom_gradient


class Child(tf.Module):

  def __init__(self, name=None):
    super().__init__(name=name)
    with self.name_scope:
      self.v = tf.Variable(2.0, name="v", trainable=False)


class Parent(tf.Module):

  def __init__(self):
    super().__init__()
    with self.name_scope:
      self.b = Child()
      self.a = [Child(name="c2"), {"k": Child(name="c3")}]
      self.z = tf.Variable(3.0, name="z")
      self.shared = self.b


def test_module_names_and_scopes():
  assert tf.Module().name == "module"
  assert type("HTTPServerXYZ", (tf.Module,), {})().name == "http_server_xyz"
  assert type("MyABC2Module", (tf.Module,), {})().name == "my_abc2_module"
  with pytest.raises(ValueError, match=r"^'a b' is not a valid module name. Module names must "
                     r"be valid Python identifiers \(e.g. a valid class name\).$"):
    tf.Module(name="a b")
  with tf.name_scope("outer"):
    inner = tf.Module(name="inner")
  assert inner.name == "inner" and inner.name_scope.name == "outer/inner/"
  assert tf.compat.v1.Module is tf.Module


def test_module_traversal_order_and_dedup():
  p = Parent()
  assert (p.name, p.name_scope.name) == ("parent", "parent/")
  assert [v.name for v in p.variables] == [
      "parent/z:0", "parent/c2/v:0", "parent/c3/v:0", "parent/child/v:0"]
  assert [v.name for v in p.trainable_variables] == ["parent/z:0"]
  assert [m.name for m in p.submodules] == ["c2", "c3", "child"]
  paths = [(path, v.name) for path, v in
           p._flatten(predicate=lambda x: isinstance(x, tf.Variable), with_path=True)]
  assert paths == [(("z",), "parent/z:0"), (("a", 0, "v"), "parent/c2/v:0"),
                   (("a", 1, "k", "v"), "parent/c3/v:0"), (("b", "v"), "parent/child/v:0"),
                   (("shared", "v"), "parent/child/v:0")]
  assert [m.name for m in p._flatten(recursive=False, predicate=lambda x: isinstance(
      x, tf.Module))] == ["c2", "c3", "child"]


def test_with_name_scope_and_keras_layers():
  class Lazy(tf.Module):

    @tf.Module.with_name_scope
    def __call__(self, x):
      if not hasattr(self, "w"):
        self.w = tf.Variable(x, name="w")
      return self.w * x

  lazy = Lazy()
  assert float(lazy(2.0)) == 4.0 and lazy.w.name == "lazy/w:0"

  class WithDense(tf.Module):

    def __init__(self):
      super().__init__()
      self.dense = tf.keras.layers.Dense(2, name="d")
      self.dense(tf.ones([1, 3]))
      self.w = tf.Variable(1.0, name="w")

  m = WithDense()
  assert [v.name for v in m.variables] == ["w:0", "d/kernel:0", "d/bias:0"]
  assert [type(s).__name__ for s in m.submodules] == ["Dense"]


def test_module_checkpoints_and_deferred_restore(tmp_path):
  class Eager(tf.Module):

    def __init__(self):
      super().__init__()
      self.w = tf.Variable([1.0, 2.0], name="w")
      self.sub = [tf.Module(name="s")]
      self.sub[0].b = tf.Variable(5.0, name="b")

  class Lazy(tf.Module):

    def __call__(self, x):
      if not hasattr(self, "w"):
        self.w = tf.Variable(tf.zeros([2]), name="w")
        self.sub = [tf.Module(name="s")]
        self.sub[0].b = tf.Variable(0.0, name="b")
      return x * self.w

  path = tf.train.Checkpoint(module=Eager()).save(os.path.join(str(tmp_path), "ckpt"))
  fresh = Eager()
  fresh.w.assign([0.0, 0.0])
  tf.train.Checkpoint(module=fresh).restore(path).assert_consumed()
  assert fresh.w.numpy().tolist() == [1.0, 2.0] and float(fresh.sub[0].b) == 5.0
  lazy = Lazy()
  status = tf.train.Checkpoint(module=lazy).restore(path)
  lazy(tf.ones([2]))  # variables made after the restore take the saved values
  assert lazy.w.numpy().tolist() == [1.0, 2.0] and float(lazy.sub[0].b) == 5.0
  status.assert_consumed()


# TF 1.15's keyword arguments to variable creators (tf.Variable / tf.compat.v1.Variable)
_CREATOR_KWARGS = ["aggregation", "caching_device", "collections", "constraint", "dtype",
                   "expected_shape", "import_scope", "initial_value", "name", "shape",
                   "synchronization", "trainable", "use_resource", "validate_shape",
                   "variable_def"]


def test_variable_creator_scope():
  seen = []

  def creator(next_creator, **kwargs):
    seen.append(dict(kwargs))
    kwargs["trainable"] = False
    return next_creator(**kwargs)

  with tf.variable_creator_scope(creator):
    v = tf.Variable(1.0, name="a")
    g = tf.get_variable("gv", shape=[2], initializer=tf.zeros_initializer())
    dense = tf.keras.layers.Dense(2)
    dense(tf.ones([1, 2]))
  assert not v.trainable and not g.trainable and g.name == "gv:0"
  assert [w.trainable for w in dense.weights] == [False, False]
  assert sorted(seen[0]) == _CREATOR_KWARGS
  assert (seen[0]["initial_value"], seen[0]["name"], seen[0]["trainable"],
          seen[0]["dtype"], seen[0]["shape"]) == (1.0, "a", None, None, None)
  assert seen[0]["aggregation"] is tf.VariableAggregation.NONE
  assert (seen[1]["name"], seen[1]["dtype"], seen[1]["shape"], seen[1]["trainable"],
          seen[1]["use_resource"]) == ("gv", tf.float32, tf.TensorShape([2]), True, True)
  assert tf.Variable(1.0).trainable  # outside the scope: no creator

  order = []

  def outer(next_creator, **kwargs):
    order.append("outer")
    return next_creator(**kwargs)

  def inner(next_creator, **kwargs):
    order.append("inner")
    return next_creator(**kwargs)

  with tf.variable_creator_scope(outer):
    with tf.variable_creator_scope(inner):
      tf.Variable(2.0)
  assert order == ["inner", "outer"]
  with tf.variable_creator_scope(lambda next_creator, **kwargs: "made elsewhere"):
    assert tf.Variable(3.0) == "made elsewhere"


def test_recompute_grad_same_gradients():
  def f(a):
    return tf.reduce_sum(tf.sin(a) * a)

  a = tf.constant([0.5, 1.5])
  with tf.GradientTape() as tape:
    tape.watch(a)
    out = tf.recompute_grad(f)(a)
  np.testing.assert_allclose(out.numpy(), 1.7359552383422852, rtol=1e-6)
  np.testing.assert_allclose(tape.gradient(out, a).numpy(), [0.9182168, 1.1036007], rtol=1e-6)
  w = tf.Variable([[1.0, 2.0], [3.0, -4.0]])

  def layer(h):
    return tf.tanh(tf.matmul(h, w) / 4.0)

  x = tf.constant([[1.0, 0.5]])
  with tf.GradientTape(persistent=True) as tape:
    recomputed = tf.reduce_sum(tf.recompute_grad(layer)(x) ** 2)
    plain = tf.reduce_sum(layer(x) ** 2)
  np.testing.assert_allclose(recomputed.numpy(), plain.numpy())
  for got, want in zip(tape.gradient(recomputed, [w, x]), tape.gradient(plain, [w, x])):
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
  # the recorded op is the function under jax.checkpoint (rematerialized in the backward pass)
  recorded = custom_gradient._RecomputedOp(f)
  jaxpr = jax.make_jaxpr(lambda v: recorded.impl(v, n_args=1, variables=(), kwargs=()))(
      a._value)
  assert "checkpoint" in str(jaxpr) or "remat" in str(jaxpr)


def test_grad_pass_through():
  x = tf.Variable(2.0)
  z = tf.Variable(3.0)
  with tf.GradientTape() as tape:
    y = tf.grad_pass_through(x.assign)(z ** 2)
  assert float(y) == 9.0 and float(x) == 9.0
  assert float(tape.gradient(y, z)) == 6.0  # d(z**2)/dz: the assign passes the gradient


def test_vectorized_map_values():
  out = tf.vectorized_map(lambda e: e * 2 + 1, tf.constant([[1.0, 2.0], [3.0, 4.0]]))
  assert out.numpy().tolist() == [[3.0, 5.0], [7.0, 9.0]]
  total, row_sum = tf.vectorized_map(lambda e: (e[0] + e[1], tf.reduce_sum(e[1])),
                                     (tf.constant([1.0, 2.0]),
                                      tf.constant([[1.0, 2.0], [3.0, 4.0]])))
  assert total.numpy().tolist() == [[2.0, 3.0], [5.0, 6.0]]
  assert row_sum.numpy().tolist() == [3.0, 7.0]
  const = tf.vectorized_map(lambda e: tf.constant(3.0), tf.constant([1.0, 2.0, 3.0]))
  assert const.numpy().tolist() == [3.0, 3.0, 3.0]
  with pytest.raises(ValueError, match="same first dimension"):
    tf.vectorized_map(lambda e: e, (tf.ones([2]), tf.ones([3])))


def test_vectorized_map_falls_back_to_a_loop():
  # unique has a value-dependent shape: TF (and tfe_compat) run it in a loop
  sizes = tf.vectorized_map(lambda e: tf.size(tf.unique(e)[0]), tf.constant([[1, 1], [1, 2]]))
  assert sizes.numpy().tolist() == [1, 2]
  tf.set_random_seed(1)
  draws = tf.vectorized_map(lambda e: e + tf.random.uniform([]), tf.zeros([3]))
  assert len(set(draws.numpy().tolist())) == 3  # each slice draws its own
  counter = tf.Variable(0.0)
  out = tf.vectorized_map(lambda e: counter.assign_add(e) * 1.0, tf.constant([1.0, 2.0]))
  assert out.numpy().tolist() == [1.0, 3.0] and float(counter) == 3.0


def test_vectorized_map_gradients():
  w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
  rows = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
  with tf.GradientTape(persistent=True) as tape:
    tape.watch(rows)
    mapped = tf.reduce_sum(tf.vectorized_map(
        lambda r: tf.reduce_sum(tf.matmul(r[None], w) ** 2), rows))
    direct = tf.reduce_sum(tf.matmul(rows, w) ** 2)
  assert float(mapped) == float(direct) == 2543.0
  assert tape.gradient(mapped, w).numpy().tolist() == [[334.0, 492.0], [424.0, 624.0]]
  np.testing.assert_allclose(tape.gradient(mapped, rows).numpy(),
                             tape.gradient(direct, rows).numpy())
