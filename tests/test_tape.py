"""GradientTape, tfe gradient functions and tf.custom_gradient.

Expected values and messages were checked against TensorFlow's GradientTape.
"""
import gc
import logging

import jax
import numpy as np
import pytest

import tfe_compat as tf

tfe = tf.contrib.eager


def values(tensors):
  return [None if t is None else t.numpy().tolist() for t in tensors]


# ---- Recording, watching, structures ----
def test_variable_is_watched_and_gradient_structure():
  w = tfe.Variable([[1.0]])
  with tfe.GradientTape() as tape:
    loss = w * w
  grad = tape.gradient(loss, [w])
  assert isinstance(grad, list) and grad[0].dtype is tf.float32
  assert grad[0].numpy().tolist() == [[2.0]]


def test_nested_sources_targets_and_output_gradients():
  v = tf.constant([1.0, 2.0, 3.0])
  with tf.GradientTape(persistent=True) as t:
    t.watch(v)
    y = v * v
    pair = [tf.reduce_sum(v), tf.reduce_sum(v * v)]
    doubled = v * 2
  assert t.gradient(y, v).numpy().tolist() == [2.0, 4.0, 6.0]  # non-scalar target sums
  assert t.gradient(pair, v).numpy().tolist() == [3.0, 5.0, 7.0]  # list target sums
  grads = t.gradient(doubled, {"a": v, "b": [v]})
  assert grads["a"].numpy().tolist() == [2.0, 2.0, 2.0] and len(grads["b"]) == 1
  weighted = t.gradient(doubled, v, output_gradients=tf.constant([1.0, 0.0, 2.0]))
  assert weighted.numpy().tolist() == [2.0, 0.0, 4.0]


def test_unconnected_integer_and_untaped_sources():
  x = tf.constant(3.0)
  z = x * x
  with tf.GradientTape() as t:
    t.watch(x)
  assert t.gradient(z, x) is None  # target computed before the tape
  i = tf.constant(3)
  with tf.GradientTape() as t:
    t.watch(i)
    y = i * i
  assert t.gradient(y, i) is None
  a, b = tf.constant(1.0), tf.constant([2.0, 3.0])
  with tf.GradientTape(persistent=True) as t:
    t.watch([a, b])
    y = a * 2.0
  assert t.gradient(y, b) is None
  zeros = t.gradient(y, b, unconnected_gradients=tf.UnconnectedGradients.ZERO)
  assert zeros.numpy().tolist() == [0.0, 0.0] and zeros.dtype is tf.float32
  assert t.gradient(y, [a, b], unconnected_gradients="zero")[0].numpy() == 2.0


def test_ones_like_and_stop_gradient_are_not_differentiable():
  x = tf.constant([1.0, 2.0])
  with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    ones = tf.ones_like(x) * 3.0
    stopped = tf.stop_gradient(x * x) + x
  assert t.gradient(ones, x) is None
  assert t.gradient(stopped, x).numpy().tolist() == [1.0, 1.0]


def test_variable_read_several_times_sums_and_watch_flags():
  w = tf.Variable(2.0)
  with tf.GradientTape() as t:
    y = w * w + w * 3.0
  assert t.gradient(y, w).numpy() == 7.0
  with tf.GradientTape(watch_accessed_variables=False) as t:
    y = w * w
  assert t.gradient(y, w) is None and t.watched_variables() == []
  with tf.GradientTape(watch_accessed_variables=False) as t:
    t.watch(w)
    y = w * w
  assert t.gradient(y, w).numpy() == 4.0 and t.watched_variables() == [w]
  frozen = tf.Variable(1.0, trainable=False)
  with tf.GradientTape() as t:
    y = frozen * w
  assert t.gradient(y, frozen) is None and t.watched_variables() == [w]


def test_stop_recording_and_reset():
  x = tf.constant(3.0)
  with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    with t.stop_recording():
      z = y * 2.0
  assert t.gradient(z, x) is None
  with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not"):
    with tf.GradientTape().stop_recording():
      pass
  with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    t.reset()
    t.watch(x)
    y = x * 5.0
  assert t.gradient(y, x).numpy() == 5.0


def test_non_persistent_tape_used_once_and_inside_context():
  w = tf.get_variable("w", shape=[])
  w.assign(5.0)
  with tf.GradientTape() as gt:
    loss = w * w
    assert gt.gradient(loss, w).numpy() == 10.0  # inside the context, as in seed 003
  with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used to "
                     r"compute one set of gradients \(or jacobians\)"):
    gt.gradient(loss, w)
  with tf.GradientTape(persistent=True) as gt:
    loss = w * w
  assert gt.gradient(loss, w).numpy() == 10.0 and gt.gradient(loss, w).numpy() == 10.0


def test_persistent_gradient_inside_context_warns(caplog):
  x = tf.constant(2.0)
  with caplog.at_level(logging.WARNING, logger="tensorflow"):
    with tf.GradientTape(persistent=True) as t:
      t.watch(x)
      y = x * x
      assert t.gradient(y, x).numpy() == 4.0
  assert "persistent tape inside its context is significantly less efficient" in caplog.text


def test_bad_sources_and_watch_arguments():
  x = tf.constant(3.0)
  with tf.GradientTape() as t:
    with pytest.raises(ValueError, match="Passed in object 3.0 of type 'float', not tf.Tensor"):
      t.watch(3.0)
    t.watch(x)
    y = x * x
  with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: 'a'"):
    t.gradient(y, [x, "a"])


def test_tape_releases_recording_and_memory_stays_flat():
  w = tf.Variable(np.ones((4, 4), np.float32))
  x = tf.constant(np.ones((4, 4), np.float32))

  def step():
    with tf.GradientTape() as tape:
      loss = tf.reduce_sum(tf.matmul(x, w) * 2.0)
    grad = tape.gradient(loss, w)
    w.assign_sub(grad * 0.0)
    return tape

  for _ in range(50):
    step()
  gc.collect()
  before = len(jax.live_arrays())
  for _ in range(10000):
    tape = step()
  gc.collect()
  assert tape._entries == [] and not tape._watched
  assert len(jax.live_arrays()) <= before + 5


# ---- Higher order, jacobians ----
def test_nested_tapes_any_order():
  x = tf.constant(3.0)
  with tf.GradientTape() as g:
    g.watch(x)
    with tf.GradientTape() as gg:
      gg.watch(x)
      y = x * x * x
    dy_dx = gg.gradient(y, x)
  assert dy_dx.numpy() == 27.0
  assert g.gradient(dy_dx, x).numpy() == 18.0
  with tf.GradientTape() as t3:
    t3.watch(x)
    with tf.GradientTape() as t2:
      t2.watch(x)
      with tf.GradientTape() as t1:
        t1.watch(x)
        y = tf.sin(x)
      d1 = t1.gradient(y, x)
    d2 = t2.gradient(d1, x)
  d3 = t3.gradient(d2, x)
  assert np.isclose(d3.numpy(), -np.cos(3.0), atol=1e-6)


def test_jacobian_and_batch_jacobian():
  x = tf.constant([1.0, 2.0, 3.0])
  with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    y = x * x
    z = tf.reduce_sum(x) * tf.ones([2])
  assert t.jacobian(y, x).numpy().tolist() == [[2, 0, 0], [0, 4, 0], [0, 0, 6]]
  assert t.jacobian(z, x, experimental_use_pfor=False).numpy().tolist() == [[1.0] * 3] * 2
  b = tf.constant([[1.0, 2.0], [3.0, 4.0]])
  with tf.GradientTape() as t:
    t.watch(b)
    y = b * b
  bj = t.batch_jacobian(y, b)
  assert bj.shape == [2, 2, 2]
  assert bj.numpy().tolist() == [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]]


# ---- The compiled backward is cached by structure ----
def test_steady_state_training_loop_compiles_nothing():
  compiles = []
  jax.monitoring.register_event_duration_secs_listener(
      lambda event, duration, **kw: compiles.append(event)
      if event == "/jax/core/compile/backend_compile_duration" else None)
  w = tf.Variable(np.full((3, 2), 0.5, np.float32))
  b = tf.Variable(np.zeros(2, np.float32))
  x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)

  def step():
    with tf.GradientTape() as tape:
      loss = tf.reduce_mean(tf.square(tf.nn.relu(tf.matmul(x, w) + b) - 1.0))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(dw * 0.1)
    b.assign_sub(db * 0.1)
    return loss

  for _ in range(3):
    step()
  compiles.clear()
  losses = [float(step()) for _ in range(20)]
  assert compiles == []
  assert losses[-1] < losses[0]


def test_changing_structure_every_step_still_works():
  x = tf.constant(2.0)
  for n in range(1, 8):  # a different program each time: the uncompiled path
    with tf.GradientTape() as t:
      t.watch(x)
      y = x
      for _ in range(n):
        y = y * x
    assert t.gradient(y, x).numpy() == pytest.approx((n + 1) * 2.0 ** n)


# ---- tfe gradient functions (seed 000/001/002) ----
def test_gradients_function_orders_and_none_at_third_order():
  def square(x):
    return tf.multiply(x, x)

  grad = tfe.gradients_function(square)
  assert values(grad(3.)) == [6.0]
  gradgrad = tfe.gradients_function(lambda x: grad(x)[0])
  assert values(gradgrad(3.)) == [2.0]
  gradgradgrad = tfe.gradients_function(lambda x: gradgrad(x)[0])
  assert gradgradgrad(3.) == [None]


def test_gradients_function_with_python_control_flow_and_arguments():
  def abs(x):  # pylint: disable=redefined-builtin
    return x if x > 0. else -x

  grad = tfe.gradients_function(abs)
  assert values(grad(2.0)) == [1.0] and values(grad(-2.0)) == [-1.0]
  f = tfe.gradients_function(lambda a, b: a * b * 2.0, params=[1])
  assert values(f(3.0, np.float32(4.0))) == [6.0]
  g = tfe.gradients_function(lambda a, b: tf.reduce_sum(a * b), params=["a"])
  assert values(g([1.0, 2.0], [3.0, 4.0])) == [[3.0, 4.0]]
  h = tfe.gradients_function(lambda a, scale=1.0: a * scale)
  assert values(h(2.0, scale=5.0)) == [5.0]
  value, grads = tfe.value_and_gradients_function(lambda a, b: a * b)(2., 5.)
  assert value.numpy() == 10.0 and values(grads) == [5.0, 2.0]
  with pytest.raises(ValueError, match="Cannot differentiate a function that returns None"):
    tfe.gradients_function(lambda x: None)(1.0)


def test_implicit_gradients():
  w = tf.Variable(2.0)
  b = tf.Variable(1.0)

  def loss(a):
    return w * w * a + b

  grads = tfe.implicit_gradients(loss)(3.0)
  assert [(g.numpy(), v) for g, v in grads] == [(12.0, w), (1.0, b)]
  value, grads = tfe.implicit_value_and_gradients(loss)(3.0)
  assert value.numpy() == 13.0 and grads[0][1] is w
  with pytest.raises(ValueError, match="No trainable variables were accessed"):
    tfe.implicit_gradients(lambda: tf.constant(1.0) * 2.0)()


def test_tf_gradients_points_to_gradient_tape():
  with pytest.raises(RuntimeError, match="Use tf.GradientTape instead"):
    tf.gradients(tf.constant(1.0), tf.constant(2.0))


# ---- custom_gradient (seed 001) ----
def test_log1pexp_custom_gradient_fixes_nan():
  def log1pexp(x):
    return tf.log(1 + tf.exp(x))

  plain = tfe.gradients_function(log1pexp)
  assert values(plain(0.)) == [0.5] and np.isnan(plain(100.)[0].numpy())

  @tf.custom_gradient
  def log1pexp(x):  # pylint: disable=function-redefined
    e = tf.exp(x)

    def grad(dy):
      return dy * (1 - 1 / (1 + e))
    return tf.log(1 + e), grad

  fixed = tfe.gradients_function(log1pexp)
  assert values(fixed(0.)) == [0.5] and values(fixed(100.)) == [1.0]


def test_clip_gradient_by_norm_and_none_entries():
  @tf.custom_gradient
  def clip_gradient_by_norm(x, norm):
    y = tf.identity(x)

    def grad_fn(dresult):
      return [tf.clip_by_norm(dresult, norm), None]
    return y, grad_fn

  x = tf.constant([3.0, 4.0])
  with tf.GradientTape() as t:
    t.watch(x)
    y = clip_gradient_by_norm(x * 10.0, 1.0)
    z = tf.reduce_sum(y * y)
  assert np.allclose(t.gradient(z, x).numpy(), [6.0, 8.0])


def test_custom_gradient_multiple_outputs_variables_and_errors():
  v = tf.Variable(3.0)

  @tf.custom_gradient
  def scaled(x):
    out = x * v

    def grad_fn(dy, variables=None):
      return dy * v * 10.0, [dy * x * 100.0]
    return out, grad_fn

  x = tf.constant(2.0)
  with tf.GradientTape() as t:
    t.watch(x)
    y = scaled(x)
  gx, gv = t.gradient(y, [x, v])
  assert (gx.numpy(), gv.numpy()) == (30.0, 200.0)

  @tf.custom_gradient
  def two_outputs(a, b):
    def grad_fn(d1, d2):
      return [d1 + d2, d1 - d2]
    return (a * b, a + b), grad_fn

  a, b = tf.constant(1.0), tf.constant(2.0)
  with tf.GradientTape() as t:
    t.watch([a, b])
    p, s = two_outputs(a, b)
    total = p * 2.0 + s
  assert values(t.gradient(total, [a, b])) == [3.0, 1.0]

  @tf.custom_gradient
  def wrong(a, b):
    return a * b, lambda dy: [dy]

  with tf.GradientTape() as t:
    t.watch([a, b])
    y = wrong(a, b)
  with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
    t.gradient(y, [a, b])

  @tf.custom_gradient
  def reads_variable(x):
    return x * v, lambda dy: dy

  with tf.GradientTape() as t:
    with pytest.raises(TypeError, match="grad_fn must accept a keyword argument 'variables'"):
      reads_variable(tf.constant(1.0))


def test_custom_gradient_second_order():
  @tf.custom_gradient
  def cube(x):
    def grad_fn(dy):
      return dy * 3.0 * x * x
    return x * x * x, grad_fn

  x = tf.constant(2.0)
  with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
      inner.watch(x)
      y = cube(x)
    dy = inner.gradient(y, x)
  assert dy.numpy() == 12.0 and outer.gradient(dy, x).numpy() == 12.0


def test_register_gradient_takes_new_names_and_refuses_taken_ones_as_tf():
  @tf.RegisterGradient("TapeTestClip")
  def _clip(op, grad):  # pylint: disable=unused-argument
    return grad

  assert callable(_clip)
  with pytest.raises(KeyError, match="Registering two gradient with name 'TapeTestClip'"):
    tf.RegisterGradient("TapeTestClip")(lambda op, grad: grad)
  with pytest.raises(KeyError, match="Registering two gradient with name 'MatMul'"):
    tf.RegisterGradient("MatMul")(lambda op, grad: grad)
  with pytest.raises(KeyError, match="'MatMul'"):
    tf.NotDifferentiable("MatMul")
  with pytest.raises(TypeError, match="op_type must be a string"):
    tf.RegisterGradient(3)


def test_output_gradients_of_another_shape():
  """TF 1.12's Add gradient reshapes a same-size output gradient to the input's shape (its
  revnet ops_test relies on it); ReluGrad refuses one (InvalidArgumentError in TF 2.21)."""
  x = tf.ones([2, 3])
  with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x + 0.
    z = tf.nn.relu(x)
  dy = tf.reshape(tf.range(6.), [3, 2])
  grad = tape.gradient(y, x, output_gradients=dy)
  assert grad.shape == (2, 3) and grad.numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
    tape.gradient(z, x, output_gradients=dy)
