"""Compiled programs held in memory stay bounded: float attributes are traced (a new value
compiles nothing), and the in-memory caches are cleared every TFE_PROGRAM_CACHE_SIZE
compilations (benchmarks/memory.py measures the resident memory)."""
import jax
import numpy as np

import tfe_compat as tf
import tfe_compat.framework as framework


def _compilations(run):
  count = [0]

  def listener(event, duration, **kwargs):
    del duration, kwargs
    if event == "/jax/core/compile/backend_compile_duration":
      count[0] += 1
  jax.monitoring.register_event_duration_secs_listener(listener)
  try:
    run()
  finally:
    jax.monitoring.unregister_event_duration_listener(listener)
  return count[0]


def test_a_new_float_attribute_value_compiles_nothing():
  x = tf.constant([-2.0, 3.0])
  tf.nn.leaky_relu(x, alpha=0.5)
  values = []
  assert _compilations(lambda: values.extend(
      v for a in (0.1, 0.25, 0.3, 0.75) for v in tf.nn.leaky_relu(x, alpha=a).numpy())) == 0
  np.testing.assert_allclose(values, [-0.2, 3, -0.5, 3, -0.6, 3, -1.5, 3], rtol=1e-6)
  assert tf.nn.leaky_relu(tf.constant([-2.0], tf.float16), alpha=0.1).dtype == tf.float16


def test_program_caches_are_cleared_every_n_compilations(monkeypatch):
  cleared = []
  monkeypatch.setattr(framework, "_PROGRAM_CACHE_SIZE", 3)
  monkeypatch.setattr(framework, "_compiled_since_clear", [0])
  monkeypatch.setattr(jax, "clear_caches", lambda: cleared.append(True))
  for n in range(301, 311):  # shapes no other test uses: each compiles
    assert tf.reduce_sum(tf.ones([n, 7])).numpy() == n * 7
  assert len(cleared) >= 3


def test_traced_float_attributes_with_a_varying_number_of_inputs():
  from tfe_compat.framework import ops  # pylint: disable=import-outside-toplevel

  @ops.op(name="ScaledSumForTest")
  def scaled_sum(*values, scale):
    return sum(values) * scale

  one, two = tf.constant(1.0), tf.constant(2.0)
  assert scaled_sum(one, scale=2.0).numpy() == 2.0
  assert scaled_sum(one, two, scale=2.0).numpy() == 6.0
  assert scaled_sum(one, two, two, scale=0.5).numpy() == 2.5


def _names_compiled(run):
  names = []

  def listener(event, duration, **kwargs):
    del duration
    if event == "/jax/core/compile/backend_compile_duration":
      names.append(kwargs.get("fun_name"))
  jax.monitoring.register_event_duration_secs_listener(listener)
  try:
    run()
  finally:
    jax.monitoring.unregister_event_duration_listener(listener)
  return names


def _convnet_step():
  """An eager TF 1.x training step of a small convnet (with max pooling, whose gradient
  has many primitives) and a global step created outside the device scope, as the main
  job's."""
  model = tf.keras.Sequential([
      tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
      tf.keras.layers.MaxPooling2D(2), tf.keras.layers.Flatten(), tf.keras.layers.Dense(3)])
  optimizer = tf.train.AdamOptimizer(0.01)
  step = tf.train.get_or_create_global_step()

  def train(images, labels):
    with tf.device("/cpu:0"):
      with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            logits=model(images), labels=labels))
      grads = tape.gradient(loss, model.variables)
      optimizer.apply_gradients(zip(grads, model.variables), global_step=step)
      return loss.numpy()
  return train, step


def test_training_steps_compile_each_program_once():
  train, step = _convnet_step()
  rng = np.random.default_rng(0)
  batch = lambda n: (rng.random((n, 6, 6, 1), np.float32), rng.integers(0, 3, n))  # noqa
  train(*batch(5))  # builds the model, creates the slots, compiles
  again = _compilations(lambda: [train(*batch(5)) for _ in range(3)])
  # The tape's pullback compiles on its second sighting at the latest; nothing else does.
  assert again <= 1
  assert _compilations(lambda: train(*batch(5))) == 0
  assert step.numpy() == 5
  # A new batch size compiles each program once: the gradient of the pooling is one
  # program, not one per primitive (tens of tiny programs, as op-by-op differentiation).
  names = _names_compiled(lambda: train(*batch(7)))
  assert len(names) == len(set(names)) and len(names) < 20, names
  assert _compilations(lambda: train(*batch(7))) == 0


def test_eager_programs_inside_other_traces():
  """Ops compile with eager-only XLA options at the top level, and still trace inside
  tf.function, a user's jax.jit and Keras' symbolic shape inference."""
  x = tf.constant([[1.0, -2.0]])
  expected = tf.nn.relu(x * 2.0).numpy()
  np.testing.assert_array_equal(tf.function(lambda v: tf.nn.relu(v * 2.0))(x).numpy(),
                                expected)
  np.testing.assert_array_equal(
      jax.jit(lambda v: tf.nn.relu(tf.zeros([1, 2]) + v * 2.0)._value)(x._value), expected)
  inputs = tf.keras.Input((3,))
  assert tf.keras.layers.Dense(2)(tf.keras.layers.Lambda(
      lambda t: t + tf.zeros([3]))(inputs)).shape.as_list() == [None, 2]
