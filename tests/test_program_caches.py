"""Compiled programs held in memory stay bounded: float attributes are traced (a new value
compiles nothing), every cache of programs keeps at most TFE_PROGRAM_CACHE_SIZE entries
(least recently used dropped), and JAX's caches are cleared every TFE_PROGRAM_CACHE_SIZE
compilations (benchmarks/memory.py measures the resident memory)."""
import os
import subprocess
import sys
import warnings

import jax
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.eager import tape as tape_lib
from tfe_compat.framework import ops
from tfe_compat.framework import program_cache


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
  monkeypatch.setattr(program_cache, "SIZE", 3)
  monkeypatch.setattr(program_cache, "_compiled_since_clear", [0])
  monkeypatch.setattr(jax, "clear_caches", lambda: cleared.append(True))
  for n in range(301, 311):  # shapes no other test uses: each compiles
    assert tf.reduce_sum(tf.ones([n, 7])).numpy() == n * 7
  assert len(cleared) >= 3


def test_traced_float_attributes_with_a_varying_number_of_inputs():
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


@pytest.fixture
def bound_of_three(monkeypatch):
  """Every program cache keeps at most 3 entries; JAX's own caches are left alone."""
  monkeypatch.setattr(program_cache, "SIZE", 3)
  monkeypatch.setattr(jax, "clear_caches", lambda: None)


def test_the_size_comes_from_the_environment():
  env = dict(os.environ, TFE_PROGRAM_CACHE_SIZE="7")
  out = subprocess.run([sys.executable, "-c", "import tfe_compat.framework.program_cache as p; "
                        "print(p.SIZE)"], env=env, capture_output=True, text=True, check=True)
  assert out.stdout.split() == ["7"]


def test_lru_drops_the_least_recently_used(bound_of_three):
  cache = program_cache.LRU()
  for key in "abc":
    cache[key] = key.upper()
  assert cache.get("a") == "A"  # a use: "b" is now the oldest
  cache["d"] = "D"
  assert list(cache) == ["c", "a", "d"] and cache.get("b") is None


def test_an_op_keeps_a_bounded_number_of_jits(bound_of_three):
  traces = []

  @ops.op(name="ShiftForCacheTest")
  def shift(x, by):
    traces.append(by)
    return x + by

  one = tf.constant(1)
  assert [shift(one, by=b).numpy() for b in range(5)] == [1, 2, 3, 4, 5]
  assert shift(one, by=4).numpy() == 5 and shift(one, by=2).numpy() == 3
  assert traces == [0, 1, 2, 3, 4]  # recently used attributes: still compiled
  assert shift(one, by=0).numpy() == 1  # dropped: traced again, the same value
  assert traces == [0, 1, 2, 3, 4, 0]


def test_tf_function_keeps_a_bounded_number_of_traces(bound_of_three):
  f = tf.function(lambda x: tf.reduce_sum(x) * 2.0)
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for n in range(1, 7):
      assert f(tf.ones([n])).numpy() == 2.0 * n
  assert f.experimental_get_tracing_count() == 6
  assert any("retracing" in str(w.message) for w in caught)  # after 5 traces, as before
  assert len(f._concrete) <= 3 and len(f._fast) <= 3  # pylint: disable=protected-access
  assert f(tf.ones([6])).numpy() == 12.0  # kept: no retrace
  assert f.experimental_get_tracing_count() == 6
  assert f(tf.ones([1])).numpy() == 2.0  # dropped: traced again, the same value
  assert f.experimental_get_tracing_count() == 7
  assert len(f._concrete) <= 3 and len(f._fast) <= 3  # pylint: disable=protected-access


def test_tf_function_with_an_input_signature_keeps_few_shapes(bound_of_three):
  f = tf.function(lambda x: tf.reduce_sum(x), input_signature=[tf.TensorSpec([None])])
  for n in range(1, 7):
    assert f(tf.ones([n])).numpy() == n
  assert f.experimental_get_tracing_count() == 1
  assert len(f._fast) <= 3  # pylint: disable=protected-access


def test_tape_keeps_a_bounded_number_of_programs(bound_of_three, monkeypatch):
  monkeypatch.setattr(tape_lib, "_cache", program_cache.LRU())  # none of other tests'
  x = tf.constant(2.0)

  def gradient(power):
    with tf.GradientTape() as tape:
      tape.watch(x)
      y = x
      for _ in range(power - 1):
        y = y * x
    return tape.gradient(y, x).numpy()

  for _ in range(2):  # the second sighting of each program compiles it
    assert [gradient(p) for p in range(1, 7)] == [p * 2.0 ** (p - 1) for p in range(1, 7)]
  assert 0 < len(tape_lib._cache) <= 3  # pylint: disable=protected-access
  assert gradient(1) == 1.0 and gradient(3) == 12.0  # dropped ones: again, the same values


def test_session_keeps_a_bounded_number_of_run_plans(bound_of_three):
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None])
    outputs = [tf.reduce_sum(x) * float(k) for k in range(5)]
    with tf.Session() as sess:
      for _ in range(2):
        for k, out in enumerate(outputs):
          assert sess.run(out, {x: [1.0, 2.0]}) == 3.0 * k
        assert len(sess._plans) <= 3  # pylint: disable=protected-access
