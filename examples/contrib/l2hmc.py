"""Learning a Hamiltonian Monte Carlo sampler (L2HMC) with eager execution, TF 1.x style.

What it shows (the APIs of TensorFlow's contrib eager L2HMC example, in our own code): a
sampler for a strongly correlated 2-D Gaussian whose leapfrog steps use the energy's gradient
from `tfe.gradients_function` (a gradient taken inside the training step's
`tf.GradientTape`, so training differentiates through gradients); learned scale, translation
and transformation networks (`tf.keras.Model`s whose extra weights come from `add_weight`)
that stretch and shift the momentum and position updates, with the log-determinant of that
change of volume entering the Metropolis-Hastings acceptance probability; accept/reject with
`tf.random_uniform`; the expected-squared-jump loss of Levy, Hoffman and Sohl-Dickstein
(2018, eq. 8); `tf.train.AdamOptimizer` with an `exponential_decay` learning rate of the global
step; `tfe.defun` compiling the sampler step and the whole training step (--compile);
`tf.contrib.summary` scalars (--logdir).

  tfe-run examples/contrib/l2hmc.py                          # 200 training steps, eager
  tfe-run examples/contrib/l2hmc.py --compile                # sampler and step compiled
  tfe-run examples/contrib/l2hmc.py --steps 50 --leapfrogs 5 --chains 100 --logdir /tmp/l2

Simplification: only the forward direction of the augmented leapfrog is learned (the paper
also samples a backward direction). Random numbers (momenta, the auxiliary batch, the uniform
draws of the accept/reject step) are drawn eagerly and passed in, so an eager run and a
--compile run with the same --seed compute the same numbers. The script prints the loss and
acceptance rate every --log_every steps, then runs the trained sampler for --chain_steps
transitions and prints the acceptance rate and the covariance of the samples.
"""
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_integer("steps", 200, "Training steps.")
flags.DEFINE_integer("chains", 200, "Parallel chains (the batch of samples).")
flags.DEFINE_integer("leapfrogs", 10, "Augmented leapfrog steps per transition.")
flags.DEFINE_float("eps", 0.1, "Initial (learned) leapfrog step size.")
flags.DEFINE_integer("hidden", 10, "Hidden units of the scale/translation/transformation nets.")
flags.DEFINE_float("learning_rate", 1e-3, "Initial Adam learning rate (decays 4% per 1000 steps).")
flags.DEFINE_float("jump_scale", 0.1, "lambda of the loss: the squared jump it aims for.")
flags.DEFINE_integer("log_every", 20, "Print (and summarize) every this many steps.")
flags.DEFINE_integer("chain_steps", 20, "Transitions of the trained sampler at the end.")
flags.DEFINE_bool("compile", False, "Compile the sampler step and training step (tfe.defun).")
flags.DEFINE_string("logdir", None, "Write loss and acceptance scalars here.")
flags.DEFINE_integer("seed", 1, "Graph-level random seed (the networks and the draws).")
FLAGS = flags.FLAGS

COVARIANCE = np.array([[50.05, -49.95], [-49.95, 50.05]], np.float32)


def gaussian_energy(covariance):
  """U(x) = x^T covariance^-1 x / 2 per row of x: minus the log density, up to a constant."""
  precision = tf.matrix_inverse(tf.constant(covariance))

  def energy(x):
    return 0.5 * tf.reduce_sum(tf.matmul(x, precision) * x, axis=1)

  return energy


class ScaleTranslateTransform(tf.keras.Model):
  """Three inputs -> three [batch, dim] outputs: a log-scale S, a translation T and a
  log-scale Q applied to the gradient or momentum term (the paper's S, T, Q)."""

  def __init__(self, dim, hidden, first_input_gain):
    super(ScaleTranslateTransform, self).__init__()
    he = lambda gain: tf.keras.initializers.VarianceScaling(scale=2.0 * gain)
    self.embed = [tf.keras.layers.Dense(hidden, kernel_initializer=he(gain))
                  for gain in (first_input_gain / 3.0, 1.0 / 3.0, 1.0 / 3.0)]
    self.hidden = tf.keras.layers.Dense(hidden, activation=tf.nn.relu,
                                        kernel_initializer=he(1.0))
    small = he(0.001)
    self.log_scale = tf.keras.layers.Dense(dim, activation=tf.tanh, kernel_initializer=small)
    self.translation = tf.keras.layers.Dense(dim, kernel_initializer=small)
    self.log_transform = tf.keras.layers.Dense(dim, activation=tf.tanh,
                                               kernel_initializer=small)
    self.scale_gain = self.add_weight("scale_gain", shape=[1, dim], initializer="zeros")
    self.transform_gain = self.add_weight("transform_gain", shape=[1, dim],
                                          initializer="zeros")

  def call(self, inputs):
    # The time embedding is one row for the whole batch: it broadcasts in the sum.
    first, second, time_row = [layer(x) for layer, x in zip(self.embed, inputs)]
    h = tf.nn.relu(first + second + time_row)
    h = self.hidden(h)
    return (self.log_scale(h) * tf.exp(self.scale_gain), self.translation(h),
            self.log_transform(h) * tf.exp(self.transform_gain))


class Sampler(tf.keras.Model):
  """The learned leapfrog integrator and its Metropolis-Hastings step."""

  def __init__(self, dim, energy, leapfrogs, eps, hidden):
    super(Sampler, self).__init__()
    self.energy = energy
    self.leapfrogs = leapfrogs
    self.momentum_net = ScaleTranslateTransform(dim, hidden, first_input_gain=1.0)
    self.position_net = ScaleTranslateTransform(dim, hidden, first_input_gain=2.0)
    self.eps = self.add_weight("eps", shape=[], initializer=tf.constant_initializer(eps))
    angles = 2 * np.pi * np.arange(leapfrogs) / leapfrogs
    self.times = [tf.constant([[np.cos(a), np.sin(a)]], tf.float32) for a in angles]
    # Alternate which half of the coordinates each leapfrog step updates first.
    rows = [np.arange(dim) % 2 == i % 2 for i in range(leapfrogs)]
    self.masks = [tf.constant(row[None, :], tf.float32) for row in rows]

  def energy_gradient(self, x):
    return tfe.gradients_function(self.energy)(x)[0]

  def _momentum_update(self, x, v, t):
    grad = self.energy_gradient(x)
    log_scale, translation, log_transform = self.momentum_net([x, grad, t])
    half = 0.5 * self.eps
    v = v * tf.exp(half * log_scale) - half * (tf.exp(self.eps * log_transform) * grad
                                               - translation)
    return v, tf.reduce_sum(half * log_scale, axis=1)

  def _position_update(self, x, v, t, keep):
    log_scale, translation, log_transform = self.position_net([v, keep * x, t])
    moved = x * tf.exp(self.eps * log_scale) + self.eps * (
        tf.exp(self.eps * log_transform) * v + translation)
    x = keep * x + (1.0 - keep) * moved
    return x, tf.reduce_sum((1.0 - keep) * self.eps * log_scale, axis=1)

  def hamiltonian(self, x, v):
    return self.energy(x) + 0.5 * tf.reduce_sum(tf.square(v), axis=1)

  def transition(self, x, v, uniform):
    """One proposal from (x, v) and its accept/reject against `uniform` draws.

    Returns the proposal, its acceptance probability and the next state of the chains.
    """
    proposal, w, logdet = x, v, tf.zeros_like(x[:, 0])
    for t, mask in zip(self.times, self.masks):
      w, d1 = self._momentum_update(proposal, w, t)
      proposal, d2 = self._position_update(proposal, w, t, mask)
      proposal, d3 = self._position_update(proposal, w, t, 1.0 - mask)
      w, d4 = self._momentum_update(proposal, w, t)
      logdet += d1 + d2 + d3 + d4
    log_ratio = self.hamiltonian(x, v) - self.hamiltonian(proposal, w) + logdet
    accept = tf.exp(tf.minimum(log_ratio, 0.0))
    accept = tf.where(tf.is_finite(accept), accept, tf.zeros_like(accept))
    accepted = tf.cast(uniform < accept, tf.float32)[:, None]
    return proposal, accept, accepted * proposal + (1.0 - accepted) * x


def jump_loss(x, proposal, accept, scale):
  """Small expected squared jumps are penalized (scale/jump), large ones rewarded."""
  jump = tf.reduce_sum(tf.square(x - proposal), axis=1) * accept + 1e-4
  return scale / jump - jump / scale


def draws(chains, dim):
  """The random inputs of one transition: momenta and accept/reject uniforms."""
  return tf.random_normal([chains, dim]), tf.random_uniform([chains])


def main(_):
  tf.set_random_seed(FLAGS.seed)
  dim = COVARIANCE.shape[0]
  sampler = Sampler(dim, gaussian_energy(COVARIANCE), FLAGS.leapfrogs, FLAGS.eps,
                    FLAGS.hidden)
  global_step = tf.train.get_or_create_global_step()
  learning_rate = tf.train.exponential_decay(FLAGS.learning_rate, global_step, 1000, 0.96,
                                             staircase=True)
  optimizer = tf.train.AdamOptimizer(learning_rate)

  def train_step(x, v_x, u_x, z, v_z, u_z):
    with tf.GradientTape() as tape:
      x_proposal, x_accept, x_next = transition(x, v_x, u_x)
      z_proposal, z_accept, _ = transition(z, v_z, u_z)
      loss = tf.reduce_mean(jump_loss(x, x_proposal, x_accept, FLAGS.jump_scale)
                            + jump_loss(z, z_proposal, z_accept, FLAGS.jump_scale))
    variables = sampler.trainable_variables
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables), global_step=global_step)
    return loss, tf.reduce_mean(x_accept), x_next

  transition = sampler.transition
  if FLAGS.compile:
    transition = tfe.defun(sampler.transition)
    train_step = tfe.defun(train_step)

  writer = tf.contrib.summary.create_file_writer(FLAGS.logdir)  # None: writes nothing
  x = tf.random_normal([FLAGS.chains, dim])
  # Build the networks with one eager transition: their random initializers run here, so a
  # compiled step draws no random numbers and eager and --compile runs see the same draws.
  sampler.transition(x, *draws(FLAGS.chains, dim))
  start = time.time()
  with writer.as_default(), tf.contrib.summary.always_record_summaries():
    for _ in range(FLAGS.steps):
      v_x, u_x = draws(FLAGS.chains, dim)
      z = tf.random_normal([FLAGS.chains, dim])
      v_z, u_z = draws(FLAGS.chains, dim)
      loss, acceptance, x = train_step(x, v_x, u_x, z, v_z, u_z)
      step = int(global_step.numpy())
      if step % FLAGS.log_every == 0 or step == 1:
        tf.contrib.summary.scalar("loss", loss)
        tf.contrib.summary.scalar("acceptance", acceptance)
        print("step %d: loss %.6f, acceptance %.6f, eps %.6f"
              % (step, loss, acceptance, sampler.eps.numpy()))
  print("Trained %d steps in %.1f s%s" % (FLAGS.steps, time.time() - start,
                                          " (compiled)" if FLAGS.compile else ""))

  samples, rates = [], []
  for _ in range(FLAGS.chain_steps):
    v, u = draws(FLAGS.chains, dim)
    _, accept, x = transition(x, v, u)
    rates.append(float(tf.reduce_mean(accept)))
    samples.append(x.numpy())
  if samples:
    cov = np.cov(np.concatenate(samples).T)
    print("chain: %d transitions, acceptance %.6f, sample covariance "
          "[[%.2f, %.2f], [%.2f, %.2f]]" % (len(rates), np.mean(rates), cov[0, 0], cov[0, 1],
                                           cov[1, 0], cov[1, 1]))


if __name__ == "__main__":
  tf.app.run(main)
