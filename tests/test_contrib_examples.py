"""What TF's contrib eager examples (l2hmc, resnet50) need from tfe.defun, in our own code.

An l2hmc-style sampler (a Python-unrolled leapfrog loop with `tfe.gradients_function` and
`tf.check_numerics` inside, random shapes from `tf.shape(x)[0]`) and a resnet-style model
(`model.call = tfe.defun(model.call)` with BatchNormalization in training mode) compile and
match eager execution; `tf.check_numerics`; a Keras training step leaves no garbage.
"""
import gc
import warnings

import numpy as np
import pytest

import tfe_compat as tf

tfe = tf.contrib.eager
tf.enable_eager_execution()


@pytest.fixture(autouse=True)
def _no_eager_fallback():
  """Every compiled function here must compile: the eager-fallback warning is an error."""
  with warnings.catch_warnings():
    warnings.filterwarnings("error", message=".*cannot be compiled.*")
    yield


# ---- tf.check_numerics (messages checked against TensorFlow) ----
@pytest.mark.parametrize("values, found", [([1., np.nan, np.inf], "Inf and NaN"),
                                           ([1., np.inf], "Inf"), ([np.nan], "NaN")])
def test_check_numerics_raises_with_tf_message(values, found):
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.check_numerics(np.array(values, np.float32), "gradient of potential")
  assert str(info.value) == ("gradient of potential : Tensor had %s values [Op:CheckNumerics]"
                             % found)
  with pytest.raises(tf.errors.InvalidArgumentError, match="^hello : Tensor had NaN values"):
    tf.verify_tensor_all_finite(x=np.array([0., np.nan], np.float32), message="hello")


def test_check_numerics_passes_values_and_gradients_through():
  x = tf.constant([1., 2.])
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.debugging.check_numerics(x * x, "m")
  assert y.dtype == tf.float32 and y.numpy().tolist() == [1., 4.]
  assert tape.gradient(y, x).numpy().tolist() == [2., 4.]
  assert tf.check_numerics(tf.constant(1., tf.bfloat16), "m").dtype == tf.bfloat16
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Value for attr 'T' of int32 is not in the list of allowed values"):
    tf.check_numerics(tf.constant([1, 2]), "m")


def test_check_numerics_inside_a_compiled_function():
  f = tfe.defun(lambda x: tf.check_numerics(x * 2., "doubled"))
  assert f(tf.constant([1.])).numpy().tolist() == [2.]
  assert f(tf.constant([3.])).numpy().tolist() == [6.]  # the compiled call
  with pytest.raises(tf.errors.InvalidArgumentError, match="doubled : Tensor had NaN values"):
    f(tf.constant([np.nan]))


def test_shapes_of_traced_tensors_are_constants_in_compiled_functions():
  @tf.function
  def noisy(x):
    keep = tf.cast(tf.random_uniform([tf.shape(x)[0]]) > .5, tf.float32)
    return keep[:, None] * x + tf.zeros(tf.shape(x)[1:])

  x = tf.ones([64, 3])
  draws = [noisy(x).numpy() for _ in range(3)]
  assert noisy.experimental_get_tracing_count() == 1
  assert all(d.shape == (64, 3) and set(np.unique(d)) <= {0., 1.} for d in draws)
  assert not np.array_equal(draws[1], draws[2])  # fresh randomness on every compiled call


# ---- An l2hmc-style sampler ----
class _ScaleNet(tf.keras.Model):

  def __init__(self):
    super(_ScaleNet, self).__init__()
    init = tf.contrib.layers.variance_scaling_initializer(factor=2., mode="FAN_IN",
                                                          uniform=False)
    self.x_layer = tf.keras.layers.Dense(8, kernel_initializer=init)
    self.g_layer = tf.keras.layers.Dense(8, kernel_initializer=init)
    self.out_layer = tf.keras.layers.Dense(2)
    self.coeff = tf.Variable(tf.zeros([1, 2]), name="coeff")

  def call(self, inputs):
    x, grad = inputs
    h = tf.nn.relu(self.x_layer(x) + self.g_layer(grad))
    return tf.nn.tanh(self.out_layer(h)) * tf.exp(self.coeff)


class _Sampler(tf.keras.Model):

  def __init__(self, n_steps=2):
    super(_Sampler, self).__init__()
    self.n_steps = n_steps
    self.net = _ScaleNet()
    self.eps = tfe.Variable(0.1, name="eps", dtype=tf.float32)
    self.precision = tf.matrix_inverse(tf.constant([[2., .5], [.5, 1.]]))

  def energy(self, x):
    return .5 * tf.reduce_sum(tf.matmul(x, self.precision) * x, axis=1)

  def transition(self, x, v):
    x0, v0, logdet = x, v, 0.
    for _ in range(self.n_steps):  # unrolled at trace time, as l2hmc's leapfrog loop
      grad = tf.check_numerics(tfe.gradients_function(self.energy)(x)[0], "grad")
      scale = self.net([x, grad]) * self.eps
      v = v * tf.exp(scale) - .5 * self.eps * grad
      x = x + self.eps * v
      logdet += tf.reduce_sum(scale, axis=1)
    hamiltonian = lambda x, v: self.energy(x) + .5 * tf.reduce_sum(v**2, axis=1)
    accept = tf.exp(tf.minimum(hamiltonian(x0, v0) - hamiltonian(x, v) + logdet, 0.))
    return x, v, accept

  def sample(self, x):
    x_new, _, accept = self.transition(x, tf.random_normal(tf.shape(x)))
    take = tf.cast(accept > tf.random_uniform([tf.shape(x)[0]]), tf.float32)[:, None]
    return take * x_new + (1. - take) * x


def _twin_samplers():
  a, b = _Sampler(), _Sampler()
  x = tf.zeros([1, 2])
  a.transition(x, x), b.transition(x, x)  # builds the layers
  b.set_weights(a.get_weights())
  return a, b


def _train_step(sampler, optimizer, x, v):
  with tf.GradientTape() as tape:
    x_new, _, accept = sampler.transition(x, v)
    loss = -tf.reduce_mean(accept * tf.reduce_sum((x_new - x)**2, axis=1))
  grads = tape.gradient(loss, sampler.trainable_variables)
  optimizer.apply_gradients(zip(grads, sampler.trainable_variables))
  return loss


def test_sampler_transition_compiled_matches_eager():
  sampler = _Sampler()
  x = tf.random_normal([16, 2], seed=1)
  v = tf.random_normal([16, 2], seed=2)
  compiled = tfe.defun(sampler.transition)
  for _ in range(2):  # the eager first call, then the compiled one
    for got, want in zip(compiled(x, v), sampler.transition(x, v)):
      np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
  assert compiled.experimental_get_tracing_count() == 1


def test_compiled_sampler_draws_fresh_samples():
  sampler = _Sampler()
  sample = tfe.defun(sampler.sample)
  x = tf.random_normal([32, 2], seed=3)
  outs = [sample(x).numpy() for _ in range(3)]
  assert all(o.shape == (32, 2) and np.isfinite(o).all() for o in outs)
  assert not np.array_equal(outs[1], outs[2])


def test_compiled_sampler_train_step_matches_eager():
  eager, compiled = _twin_samplers()
  step = tfe.defun(_train_step)
  opt_e, opt_c = tf.train.AdamOptimizer(0.01), tf.train.AdamOptimizer(0.01)
  for i in range(3):
    x = tf.random_normal([16, 2], seed=10 + i)
    v = tf.random_normal([16, 2], seed=20 + i)
    np.testing.assert_allclose(step(compiled, opt_c, x, v).numpy(),
                               _train_step(eager, opt_e, x, v).numpy(), rtol=1e-4)
  assert step.experimental_get_tracing_count() == 1
  assert abs(compiled.eps.numpy() - 0.1) > 1e-3  # the optimizer wrote the variables back
  for got, want in zip(compiled.get_weights(), eager.get_weights()):
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


# ---- A resnet-style model: model.call = tfe.defun(model.call) ----
class _Block(tf.keras.Model):

  def __init__(self, filters):
    super(_Block, self).__init__(name="")
    self.conv_a = tf.keras.layers.Conv2D(filters, (3, 3), padding="same")
    self.bn_a = tf.keras.layers.BatchNormalization(axis=3)
    self.conv_b = tf.keras.layers.Conv2D(filters, (1, 1))
    self.bn_b = tf.keras.layers.BatchNormalization(axis=3)

  def call(self, x, training=False):
    h = tf.nn.relu(self.bn_a(self.conv_a(x), training=training))
    return tf.nn.relu(self.bn_b(self.conv_b(h), training=training) + x)


class _SmallResNet(tf.keras.Model):

  def __init__(self):
    super(_SmallResNet, self).__init__(name="")
    self.conv = tf.keras.layers.Conv2D(4, (3, 3), strides=(2, 2), padding="same")
    self.bn = tf.keras.layers.BatchNormalization(axis=3)
    self.block = _Block(4)
    self.pool = tf.keras.layers.AveragePooling2D((4, 4), strides=(4, 4))
    self.flatten = tf.keras.layers.Flatten()
    self.fc = tf.keras.layers.Dense(5)

  def call(self, x, training):
    x = tf.nn.relu(self.bn(self.conv(x), training=training))
    return self.fc(self.flatten(self.pool(self.block(x, training=training))))


def _twin_resnets(images):
  eager, compiled = _SmallResNet(), _SmallResNet()
  eager(images, training=False), compiled(images, training=False)
  compiled.set_weights(eager.get_weights())
  compiled.call = tfe.defun(compiled.call)
  return eager, compiled


def test_resnet_style_defun_call_matches_eager_and_updates_batchnorm_statistics():
  images = tf.random_uniform([2, 8, 8, 4], seed=4)
  eager, compiled = _twin_resnets(images)
  for training in (True, True, False):
    np.testing.assert_allclose(compiled(images, training=training).numpy(),
                               eager(images, training=training).numpy(), rtol=1e-4, atol=1e-5)
  assert len(compiled.variables) == len(eager.variables) == 20
  moving = [v for v in compiled.variables if "moving" in v.name]
  assert len(moving) == 6 and not np.allclose(moving[0].numpy(), 0.)
  for got, want in zip(compiled.get_weights(), eager.get_weights()):
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_resnet_style_train_step_through_defun_call_matches_eager():
  images = tf.random_uniform([2, 8, 8, 4], seed=5)
  labels = tf.one_hot([1, 3], 5)
  eager, compiled = _twin_resnets(images)
  for model in (eager, compiled):
    optimizer = tf.train.GradientDescentOptimizer(0.1)
    for _ in range(2):
      with tf.GradientTape() as tape:
        loss = tf.losses.softmax_cross_entropy(logits=model(images, training=True),
                                               onehot_labels=labels)
      grads = tape.gradient(loss, model.variables)
      optimizer.apply_gradients(zip(grads, model.variables))
  for got, want in zip(compiled.get_weights(), eager.get_weights()):
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_keras_training_step_creates_no_garbage():
  model = _SmallResNet()
  optimizer = tf.train.GradientDescentOptimizer(0.1)
  images, labels = tf.random_uniform([2, 8, 8, 4]), tf.one_hot([0, 1], 5)

  def train_step():
    with tf.GradientTape() as tape:
      loss = tf.losses.softmax_cross_entropy(logits=model(images, training=True),
                                             onehot_labels=labels)
    grads = tape.gradient(loss, model.variables)
    optimizer.apply_gradients(zip(grads, model.variables))

  gc.disable()
  try:
    train_step()
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    for _ in range(2):
      train_step()
    gc.collect()
    garbage = len(gc.garbage)
    gc.set_debug(flags)
    del gc.garbage[:]
  finally:
    gc.enable()
  assert garbage == 0


def _regularized_train_losses(compiled):
  """Three steps of a DenseNet-style train step: six L2-regularized layers, the penalties
  (model.losses) added inside the tape; with `compiled`, model.call and the step in defun."""
  class Stack(tf.keras.Model):
    def __init__(self):
      super(Stack, self).__init__()
      self.layers_ = [tf.keras.layers.Dense(3, kernel_initializer=tf.constant_initializer(0.3),
                                            kernel_regularizer=tf.keras.regularizers.l2(0.1))
                      for _ in range(6)]

    def call(self, x):
      for layer in self.layers_:
        x = layer(x)
      return x

  model, optimizer = Stack(), tf.train.GradientDescentOptimizer(0.01)

  def step(x):
    with tf.GradientTape() as tape:
      loss = tf.reduce_sum(model(x)) + tf.add_n(model.losses)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss

  if compiled:
    model.call, step = tfe.defun(model.call), tfe.defun(step)
  return [float(step(tf.ones([2, 3]))) for _ in range(3)]


def test_defun_call_inside_defun_train_step_with_regularizers():
  # The inner defun's traced variable reads must not reach the outer tape (a leaked tracer).
  np.testing.assert_allclose(_regularized_train_losses(True), _regularized_train_losses(False),
                             rtol=1e-5)
