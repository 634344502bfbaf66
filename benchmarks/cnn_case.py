"""The seed 004 CNN+LSTM training step, in tfe_compat and as one hand-written jitted JAX step.

Shared by benchmarks/layers.py (eager step) and benchmarks/function.py (tf.function step).
The tfe_compat side is the seed's own MNIST_HighLevel class (read from
examples/seeds/seed004_models.py) trained with tf.GradientTape,
tf.losses.softmax_cross_entropy and tf.train.AdamOptimizer(1e-3).apply_gradients on a
batch of 32 random 784-pixel images with one-hot labels. The JAX side is the same math
written by hand (conv/pool via lax, the Keras v1 LSTM via lax.scan, TF1's Adam update),
started from a copy of the model's initial weights.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import tfe_compat as tf
from seed_model import seed_model_class

NAME = "seed 004 CNN+LSTM, batch 32"
LR, BETA1, BETA2, EPSILON = 1e-3, 0.9, 0.999, 1e-8  # tf.train.AdamOptimizer(1e-3) defaults


# ---- The JAX side ----
def conv_pool(x, kernel, bias, activation=None, pool_padding="SAME"):
  """Conv2D(padding='SAME', activation) then MaxPool2D(2, padding=pool_padding), NHWC: the
  hand-written JAX convolution block of the benchmarks."""
  y = lax.conv_general_dilated(x, kernel, (1, 1), "SAME",
                               dimension_numbers=("NHWC", "HWIO", "NHWC")) + bias
  if activation is not None:
    y = activation(y)
  return lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), pool_padding)


def _hard_sigmoid(x):
  return jnp.clip(0.2 * x + 0.5, 0., 1.)


def _logits(params, images):
  k1, b1, k2, b2, lstm_kernel, lstm_recurrent, lstm_bias, dense_kernel, dense_bias = params
  feat = conv_pool(conv_pool(images.reshape(-1, 28, 28, 1), k1, b1), k2, b2)
  feat = jnp.transpose(feat.reshape(-1, 49, 64), (0, 2, 1))  # [batch, 64 steps, 49]
  projected = jnp.einsum("btd,dg->tbg", feat, lstm_kernel) + lstm_bias

  def cell(carry, xp):  # Keras v1 LSTM: gates i, f, c, o; hard_sigmoid; tanh
    h, c = carry
    i, f, g, o = jnp.split(xp + h @ lstm_recurrent, 4, axis=-1)
    c = _hard_sigmoid(f) * c + _hard_sigmoid(i) * jnp.tanh(g)
    h = _hard_sigmoid(o) * jnp.tanh(c)
    return (h, c), None

  zeros = jnp.zeros((images.shape[0], lstm_recurrent.shape[0]), images.dtype)
  (h, _), _ = lax.scan(cell, (zeros, zeros), projected)
  return h @ dense_kernel + dense_bias


def _loss(params, images, labels):
  """tf.losses.softmax_cross_entropy: the batch mean of -sum(labels * log_softmax)."""
  return -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(_logits(params, images)), axis=-1))


@jax.jit
def jax_step(state, images, labels):
  """One step of TF1 Adam (beta powers, epsilon-hat form) on (params, m, v, beta powers)."""
  params, m, v, beta1_power, beta2_power = state
  loss, grads = jax.value_and_grad(_loss)(params, images, labels)
  alpha = LR * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
  m = [mi + (g - mi) * (1 - BETA1) for mi, g in zip(m, grads)]
  v = [vi + (g * g - vi) * (1 - BETA2) for vi, g in zip(v, grads)]
  params = [p - mi * alpha / (jnp.sqrt(vi) + EPSILON) for p, mi, vi in zip(params, m, v)]
  return (params, m, v, beta1_power * BETA1, beta2_power * BETA2), loss


class CnnStep:
  """Both sides of the step, from the same weights; `tf_step` may be wrapped in tf.function."""

  def __init__(self, batch=32):
    rng = np.random.default_rng(0)
    x = rng.random((batch, 784), dtype=np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)]
    self.images, self.labels = tf.constant(x), tf.constant(y)
    self.model = seed_model_class(tf)(hidden_units=64, n_cls=10)
    self.model(self.images)  # builds the weights
    self.variables = self.model.trainable_variables
    self.optimizer = tf.train.AdamOptimizer(LR)
    params = [jnp.asarray(v.numpy()) for v in self.variables]
    zeros = [jnp.zeros_like(p) for p in params]
    self.state = (params, zeros, zeros, jnp.float32(BETA1), jnp.float32(BETA2))
    self.jx, self.jy = jnp.asarray(x), jnp.asarray(y)
    self.name = NAME

  def tf_step(self):
    with tf.GradientTape() as tape:
      logits = self.model(self.images)
      loss = tf.losses.softmax_cross_entropy(onehot_labels=self.labels, logits=logits)
    grads = tape.gradient(loss, self.variables)
    self.optimizer.apply_gradients(zip(grads, self.variables))
    return loss

  def ours(self):
    """One tfe_compat step; returns the updated weights' arrays (to block on)."""
    self.tf_step()
    return [v._value for v in self.variables]  # pylint: disable=protected-access

  def raw(self):
    """One JAX step; returns the updated params."""
    self.state, _ = jax_step(self.state, self.jx, self.jy)
    return self.state[0]

  def agreement(self, steps=3):
    """Max parameter gap after `steps` steps of each side; call before any other step (both
    sides must start from fresh Adam state)."""
    for _ in range(steps):
      self.ours()
      self.raw()
    return max(float(np.max(np.abs(v.numpy() - np.asarray(p))))
               for v, p in zip(self.variables, self.state[0]))
