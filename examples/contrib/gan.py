"""A small DCGAN trained with eager execution on the 8x8 digits, TF 1.x style.

What it shows (the APIs of TensorFlow's contrib eager GAN example, in our own code): a
generator written as a `tf.keras.Model` (dense -> reshape -> two `Conv2DTranspose`, sigmoid
pixels) and a discriminator of `tf.layers` (conv -> average pool -> conv -> flatten -> dense
logits), both for `channels_last` or `channels_first`; the GAN
losses with `tf.losses.sigmoid_cross_entropy` (label smoothing on the real side); two Adam
optimizers; two `tf.GradientTape`s recorded over one forward pass per step; a `tf.data`
pipeline iterated directly; `tf.contrib.summary` scalars and generated images every
--log_every global steps; a `tf.train.Checkpoint` of both models, both optimizers and the
global step, restored from --checkpoint_dir when the script starts.

  tfe-run examples/contrib/gan.py                                   # 600 steps
  tfe-run examples/contrib/gan.py --steps 300 --logdir /tmp/gan     # TensorBoard summaries
  tfe-run examples/contrib/gan.py --checkpoint_dir /tmp/gan_ckpt    # resumes when run again
  tfe-run examples/contrib/gan.py --checkpoint_dir /tmp/gan_ckpt --steps 0   # sample only

The real images are the UCI digits of examples/data/digits.npz scaled to [0, 1]. Every
--log_every steps the script prints both losses, the discriminator's mean probability on real
and generated images, and the distance between the mean generated image and the mean digit.
At the end it prints the shape and range of a batch generated from a fixed noise batch and
its sum, which a restored generator reproduces exactly.
"""
import os
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()

flags = tf.app.flags
flags.DEFINE_integer("steps", 600, "Training steps (batches) to run in this invocation.")
flags.DEFINE_integer("batch_size", 64, "Real images per step (and generated ones).")
flags.DEFINE_integer("noise_dim", 16, "Length of the generator's uniform noise vector.")
flags.DEFINE_float("learning_rate", 0.002, "Adam learning rate of both players.")
flags.DEFINE_integer("log_every", 50, "Print and summarize every this many global steps.")
flags.DEFINE_enum("data_format", "channels_last", ["channels_last", "channels_first"],
                  "Layout of the convolutions' images.")
flags.DEFINE_string("logdir", None, "Write loss scalars and generated images here.")
flags.DEFINE_string("checkpoint_dir", None, "Restore from / save a checkpoint here.")
flags.DEFINE_integer("seed", 3, "Graph-level random seed.")
FLAGS = flags.FLAGS

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data",
                      "digits.npz")
SIDE = 8


def nhwc_or_nchw(data_format, height, width, channels):
  """The [-1, ...] shape of an image batch in `data_format`."""
  if data_format == "channels_first":
    return [-1, channels, height, width]
  return [-1, height, width, channels]


class Generator(tf.keras.Model):
  """Noise [batch, noise_dim] -> images [batch, 8, 8, 1] (or [batch, 1, 8, 8]) in (0, 1)."""

  def __init__(self, data_format):
    super(Generator, self).__init__(name="generator")
    self._seed_shape = nhwc_or_nchw(data_format, SIDE // 2, SIDE // 2, 32)
    self.project = tf.keras.layers.Dense(4 * 4 * 32, activation=tf.nn.relu)
    self.upsample = tf.keras.layers.Conv2DTranspose(
        16, 3, strides=2, padding="same", activation=tf.nn.relu, data_format=data_format)
    self.to_pixels = tf.keras.layers.Conv2DTranspose(
        1, 3, strides=1, padding="same", activation=tf.sigmoid, data_format=data_format)

  def call(self, noise):
    features = tf.reshape(self.project(noise), self._seed_shape)
    return self.to_pixels(self.upsample(features))


class Discriminator(tf.keras.Model):
  """Images (any batch layout reshaping to the data format) -> one real/fake logit each.
  (A `tfe.Network` would not do: TF refuses object-based checkpoints of Networks.)"""

  def __init__(self, data_format):
    super(Discriminator, self).__init__(name="discriminator")
    self._image_shape = nhwc_or_nchw(data_format, SIDE, SIDE, 1)
    self.conv_a = tf.layers.Conv2D(
        16, 3, padding="same", activation=tf.nn.leaky_relu, data_format=data_format)
    self.pool = tf.layers.AveragePooling2D(2, 2, data_format=data_format)
    self.conv_b = tf.layers.Conv2D(
        32, 3, padding="same", activation=tf.nn.leaky_relu, data_format=data_format)
    self.flatten = tf.layers.Flatten()
    self.logit = tf.layers.Dense(1)

  def call(self, images):
    x = tf.reshape(images, self._image_shape)
    x = self.conv_b(self.pool(self.conv_a(x)))
    return self.logit(self.flatten(x))


def discriminator_loss(real_logits, fake_logits):
  """Real images should score 1 (smoothed to 0.9), generated ones 0."""
  on_real = tf.losses.sigmoid_cross_entropy(tf.ones_like(real_logits), real_logits,
                                            label_smoothing=0.2)
  on_fake = tf.losses.sigmoid_cross_entropy(tf.zeros_like(fake_logits), fake_logits)
  return on_real + on_fake


def generator_loss(fake_logits):
  """The non-saturating generator loss: -log D(G(z))."""
  return tf.losses.sigmoid_cross_entropy(tf.ones_like(fake_logits), fake_logits)


def load_digits():
  with np.load(DIGITS) as data:
    images = data["images"].astype(np.float32) / 16.0
  return images.reshape(-1, SIDE * SIDE)


def sample_noise(batch, noise_dim, seed=None):
  return tf.random_uniform([batch, noise_dim], minval=-1.0, maxval=1.0, seed=seed)


def train_step(models, optimizers, real_images, step_counter):
  """One update of both players from one forward pass watched by two tapes."""
  generator, discriminator = models
  noise = sample_noise(int(real_images.shape[0]), FLAGS.noise_dim)
  with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
    fake_images = generator(noise)
    fake_logits = discriminator(fake_images)
    real_logits = discriminator(real_images)
    d_loss = discriminator_loss(real_logits, fake_logits)
    g_loss = generator_loss(fake_logits)
  tf.contrib.summary.scalar("discriminator_loss", d_loss)
  tf.contrib.summary.scalar("generator_loss", g_loss)
  tf.contrib.summary.image("generated", tf.reshape(fake_images, [-1, SIDE, SIDE, 1]),
                           max_images=4)
  g_grads = g_tape.gradient(g_loss, generator.variables)
  d_grads = d_tape.gradient(d_loss, discriminator.variables)
  optimizers[0].apply_gradients(zip(g_grads, generator.variables), global_step=step_counter)
  optimizers[1].apply_gradients(zip(d_grads, discriminator.variables))
  return (d_loss, g_loss, tf.reduce_mean(tf.sigmoid(real_logits)),
          tf.reduce_mean(tf.sigmoid(fake_logits)), fake_images)


def main(_):
  tf.set_random_seed(FLAGS.seed)
  real = load_digits()
  mean_digit = real.mean(axis=0)
  dataset = (tf.data.Dataset.from_tensor_slices(real).shuffle(len(real), seed=FLAGS.seed)
             .repeat().batch(FLAGS.batch_size))

  generator = Generator(FLAGS.data_format)
  discriminator = Discriminator(FLAGS.data_format)
  g_optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate, beta1=0.5)
  d_optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate, beta1=0.5)
  step_counter = tf.train.get_or_create_global_step()
  checkpoint = tf.train.Checkpoint(generator=generator, discriminator=discriminator,
                                   g_optimizer=g_optimizer, d_optimizer=d_optimizer,
                                   step_counter=step_counter)
  if FLAGS.checkpoint_dir:
    latest = tf.train.latest_checkpoint(FLAGS.checkpoint_dir)
    if latest:
      checkpoint.restore(latest)
      print("Restored %s at global step %d" % (latest, step_counter.numpy()))

  # With no --logdir this is a writer that writes nothing.
  writer = tf.contrib.summary.create_file_writer(FLAGS.logdir, flush_millis=1000)
  start = time.time()
  with writer.as_default(), tf.contrib.summary.record_summaries_every_n_global_steps(
      FLAGS.log_every, global_step=step_counter):
    for images in dataset.take(FLAGS.steps):
      d_loss, g_loss, d_real, d_fake, fake = train_step(
          (generator, discriminator), (g_optimizer, d_optimizer), images, step_counter)
      step = int(step_counter.numpy())
      if step % FLAGS.log_every == 0 or step == 1:
        distance = np.abs(fake.numpy().reshape(-1, SIDE * SIDE).mean(axis=0)
                          - mean_digit).mean()
        print("step %d: discriminator loss %.4f, generator loss %.4f, D(real) %.3f, "
              "D(fake) %.3f, mean-image distance %.4f"
              % (step, d_loss, g_loss, d_real, d_fake, distance))
  if FLAGS.steps:
    print("Trained %d steps in %.1f s" % (FLAGS.steps, time.time() - start))
  if FLAGS.checkpoint_dir and FLAGS.steps:
    print("Saved %s" % checkpoint.save(os.path.join(FLAGS.checkpoint_dir, "ckpt")))

  fixed_noise = tf.constant(
      np.random.RandomState(0).uniform(-1, 1, (16, FLAGS.noise_dim)).astype(np.float32))
  samples = generator(fixed_noise).numpy()
  print("generated images: shape %s, min %.4f, max %.4f, sum %.6f"
        % (samples.shape, samples.min(), samples.max(), samples.sum()))


if __name__ == "__main__":
  tf.app.run(main)
