"""tfe_compat.interop: Tensors as jax.Arrays, and models as pure JAX functions."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat import interop

tf.enable_eager_execution()


def test_to_jax_and_from_jax():
  v = tf.Variable([1., 2.])
  nest = {"t": tf.constant([3, 4]), "v": v, "n": 5}
  out = interop.to_jax(nest)
  assert isinstance(out["t"], jax.Array) and out["t"].dtype == jnp.int32
  assert out["v"].tolist() == [1., 2.] and out["n"] == 5
  back = interop.from_jax(out)
  assert isinstance(back["t"], tf.Tensor) and back["t"].dtype == tf.int32
  assert back["v"].numpy().tolist() == [1., 2.]


def test_model_as_pure_function_jit_grad_and_assign():
  tf.set_random_seed(0)
  model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
                               tf.keras.layers.BatchNormalization(),
                               tf.keras.layers.Dense(2)])
  x = np.random.default_rng(0).standard_normal((8, 3)).astype(np.float32)
  f = interop.functionalize(lambda x: model(x, training=True), x)
  params = f.params()
  assert sorted(params) == sorted(v.name for v in model.variables)
  outputs, new_params = jax.jit(f)(params, x)
  np.testing.assert_allclose(outputs, model(x, training=True).numpy(), rtol=1e-5, atol=1e-6)
  # BatchNormalization's moving statistics are written into new_params, not the Variables.
  moving = [n for n in params if "moving_mean" in n][0]
  assert not np.allclose(new_params[moving], params[moving])

  def loss(p):
    return jnp.mean(f(p, x)[0] ** 2)
  grads = jax.grad(loss)(params)
  with tf.GradientTape() as tape:
    tape_loss = tf.reduce_mean(model(x, training=True) ** 2)
  expected = dict(zip([v.name for v in model.trainable_variables],
                      tape.gradient(tape_loss, model.trainable_variables)))
  for name, grad in expected.items():
    np.testing.assert_allclose(grads[name], grad.numpy(), rtol=1e-4, atol=1e-6)
  f.assign({name: value * 0 for name, value in params.items()})
  assert all(not v.numpy().any() for v in model.variables)


def test_random_ops_draw_from_the_given_key():
  f = interop.functionalize(lambda: tf.random_uniform([3]))
  a, _ = f({}, rng=jax.random.PRNGKey(1))
  b, _ = f({}, rng=jax.random.PRNGKey(1))
  c, _ = jax.jit(lambda k: f({}, rng=k))(jax.random.PRNGKey(2))
  assert a.dtype == jnp.float32 and a.shape == (3,)
  assert a.tolist() == b.tolist() and a.tolist() != c.tolist()


def test_a_variable_the_discovery_call_missed_raises():
  v, w = tf.Variable(1.), tf.Variable(2.)
  f = interop.functionalize(lambda use_w: w * 2. if use_w else v * 2., False)
  with pytest.raises(ValueError, match="used a variable its functionalize"):
    f(f.params(), True)


def test_tensors_and_variables_go_straight_into_jax_transformations():
  t = tf.constant([1., 2.])
  v = tf.Variable([3., 4.])
  scaled = jax.jit(lambda p, x: p["w"] * x)({"w": 2.0}, t)
  assert isinstance(scaled, jax.Array) and scaled.tolist() == [2., 4.]
  assert jax.grad(lambda x: jnp.sum(x ** 2))(t).tolist() == [2., 4.]
  assert jax.vmap(lambda x: x * 3)(t).tolist() == [3., 6.]
  np.testing.assert_allclose(jnp.sin(t), np.sin([1., 2.]), rtol=1e-6)
  assert jax.jit(lambda x: x + 1)(v).tolist() == [4., 5.]
  v.assign([5., 6.])  # a Variable enters as its current value
  assert jax.jit(lambda x: x + 1)(v).tolist() == [6., 7.]
  assert jax.jit(lambda x: x)(tf.constant(3, dtype=tf.int64)).dtype == jnp.int64
