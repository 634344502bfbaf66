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
