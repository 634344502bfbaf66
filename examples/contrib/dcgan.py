"""A deep convolutional GAN that learns to draw digits, TF 1.x eager style.

What it shows (the APIs of TensorFlow's contrib eager DCGAN notebook, in our own code):
a generator (`Dense` without bias, `BatchNormalization`, `LeakyReLU`, `Reshape`, strided
`Conv2DTranspose`, tanh) and a discriminator (`Conv2D`, `LeakyReLU`, `Dropout`, `Flatten`,
`Dense` logit) as `tf.keras.Model` subclasses whose `call` takes `training`;
`model.call = tfe.defun(model.call)`; `tf.losses.sigmoid_cross_entropy` against
`tf.ones_like` / `tf.zeros_like` targets; two `tf.GradientTape`s open at once, one per
network, and two `tf.train.AdamOptimizer`s; object-based checkpoints
(`tf.train.Checkpoint`, `save`, `tf.train.latest_checkpoint`, `restore`).

  tfe-run examples/contrib/dcgan.py --model_dir /tmp/dcgan         # 28x28 digits
  tfe-run examples/contrib/dcgan.py --model_dir /tmp/dcgan --epochs 0  # restore, generate

The real images are the 8x8 UCI digits of examples/data/digits.npz resized to --image_size
(a multiple of 4) and scaled to [-1, 1]. Each epoch prints the mean generator and
discriminator losses and how often the discriminator calls real digits real and generated
ones fake. A run restores the latest checkpoint in --model_dir first (if any), saves one
every --save_every epochs and after the last one, and finally prints a digest of the images
the generator draws (training=False) from a fixed noise batch.
"""
import os
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_string("model_dir", None, "Directory of the checkpoints (none: no saving).")
flags.DEFINE_integer("image_size", 28, "Height and width of the images (a multiple of 4).")
flags.DEFINE_integer("noise_dim", 64, "Dimensions of the generator's input noise.")
flags.DEFINE_integer("filters", 32, "Base number of filters of both networks.")
flags.DEFINE_integer("num_examples", 1024, "Real digits to train on.")
flags.DEFINE_integer("batch_size", 64, "Images per training step.")
flags.DEFINE_integer("epochs", 10, "Passes over the real digits.")
flags.DEFINE_integer("save_every", 5, "Save a checkpoint every this many epochs.")
flags.DEFINE_float("learning_rate", 2e-4, "Adam learning rate of both networks.")
flags.DEFINE_bool("compile", True, "Wrap both models' call in tfe.defun.")
flags.DEFINE_integer("seed", 7, "Graph-level random seed.")
FLAGS = flags.FLAGS

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data",
                      "digits.npz")


def real_digits(size, count):
  """`count` digits as float32 (count, size, size, 1) images in [-1, 1]."""
  raw = np.load(DIGITS)["images"][:count].astype(np.float32) / 8.0 - 1.0
  return tf.image.resize_images(raw[..., None], [size, size]).numpy()


class DigitGenerator(tf.keras.Model):
  """noise -> (size/4)^2 x 2f map -> upsample twice -> one tanh channel."""

  def __init__(self, image_size, filters):
    super(DigitGenerator, self).__init__()
    quarter = image_size // 4
    self.project = tf.keras.layers.Dense(quarter * quarter * 2 * filters, use_bias=False)
    self.norm0 = tf.keras.layers.BatchNormalization()
    self.to_map = tf.keras.layers.Reshape((quarter, quarter, 2 * filters))
    self.up1 = tf.keras.layers.Conv2DTranspose(filters, (5, 5), strides=(2, 2),
                                               padding="same", use_bias=False)
    self.norm1 = tf.keras.layers.BatchNormalization()
    self.up2 = tf.keras.layers.Conv2DTranspose(1, (5, 5), strides=(2, 2), padding="same",
                                               use_bias=False, activation="tanh")
    self.act = tf.keras.layers.LeakyReLU()

  def call(self, noise, training=True):
    x = self.act(self.norm0(self.project(noise), training=training))
    x = self.act(self.norm1(self.up1(self.to_map(x)), training=training))
    return self.up2(x)


class DigitCritic(tf.keras.Model):
  """image -> two strided convolutions -> one real/fake logit."""

  def __init__(self, filters):
    super(DigitCritic, self).__init__()
    self.down1 = tf.keras.layers.Conv2D(filters, (5, 5), strides=(2, 2), padding="same")
    self.down2 = tf.keras.layers.Conv2D(2 * filters, (5, 5), strides=(2, 2), padding="same")
    self.drop = tf.keras.layers.Dropout(0.3)
    self.flat = tf.keras.layers.Flatten()
    self.logit = tf.keras.layers.Dense(1)

  def call(self, images, training=True):
    x = self.drop(tf.nn.leaky_relu(self.down1(images)), training=training)
    x = self.drop(tf.nn.leaky_relu(self.down2(x)), training=training)
    return self.logit(self.flat(x))


def critic_loss(real_logits, fake_logits):
  real = tf.losses.sigmoid_cross_entropy(multi_class_labels=tf.ones_like(real_logits),
                                         logits=real_logits)
  fake = tf.losses.sigmoid_cross_entropy(multi_class_labels=tf.zeros_like(fake_logits),
                                         logits=fake_logits)
  return real + fake


def generator_loss(fake_logits):
  return tf.losses.sigmoid_cross_entropy(tf.ones_like(fake_logits), fake_logits)


def main(_):
  tf.set_random_seed(FLAGS.seed)
  if FLAGS.image_size % 4:
    raise ValueError("--image_size must be a multiple of 4, got %d" % FLAGS.image_size)
  images = real_digits(FLAGS.image_size, FLAGS.num_examples)
  dataset = tf.data.Dataset.from_tensor_slices(images).shuffle(
      len(images), seed=FLAGS.seed).batch(FLAGS.batch_size, drop_remainder=True)
  generator = DigitGenerator(FLAGS.image_size, FLAGS.filters)
  critic = DigitCritic(FLAGS.filters)
  if FLAGS.compile:
    generator.call = tfe.defun(generator.call)
    critic.call = tfe.defun(critic.call)
  gen_optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate, beta1=0.5)
  critic_optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate, beta1=0.5)
  epoch_counter = tf.Variable(0, dtype=tf.int64, name="epoch", trainable=False)
  checkpoint = tf.train.Checkpoint(generator=generator, critic=critic, epoch=epoch_counter,
                                   generator_optimizer=gen_optimizer,
                                   critic_optimizer=critic_optimizer)
  if FLAGS.model_dir:
    latest = tf.train.latest_checkpoint(FLAGS.model_dir)
    if latest:
      checkpoint.restore(latest)
      print("Restored %s (epoch %d)" % (latest, int(epoch_counter)))
  print("Training on %d digits of %dx%d, %d per batch" % (
      len(images), FLAGS.image_size, FLAGS.image_size, FLAGS.batch_size))

  for _ in range(FLAGS.epochs):
    start = time.time()
    gen_losses, critic_losses, real_right, fake_right = [], [], [], []
    for real in dataset:
      noise = tf.random_normal([FLAGS.batch_size, FLAGS.noise_dim])
      with tf.GradientTape() as gen_tape, tf.GradientTape() as critic_tape:
        fake = generator(noise, training=True)
        real_logits = critic(real, training=True)
        fake_logits = critic(fake, training=True)
        g_loss = generator_loss(fake_logits)
        c_loss = critic_loss(real_logits, fake_logits)
      gen_grads = gen_tape.gradient(g_loss, generator.trainable_variables)
      critic_grads = critic_tape.gradient(c_loss, critic.trainable_variables)
      gen_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
      critic_optimizer.apply_gradients(zip(critic_grads, critic.trainable_variables))
      gen_losses.append(float(g_loss))
      critic_losses.append(float(c_loss))
      real_right.append(float(tf.reduce_mean(tf.cast(real_logits > 0, tf.float32))))
      fake_right.append(float(tf.reduce_mean(tf.cast(fake_logits < 0, tf.float32))))
    epoch_counter.assign_add(1)
    epoch = int(epoch_counter)
    print("Epoch %d (%.1f s): generator loss %.4f, discriminator loss %.4f, "
          "real judged real %.3f, fake judged fake %.3f" % (
              epoch, time.time() - start, np.mean(gen_losses), np.mean(critic_losses),
              np.mean(real_right), np.mean(fake_right)))
    if FLAGS.model_dir and (epoch % FLAGS.save_every == 0 or _ == FLAGS.epochs - 1):
      print("Saved %s" % checkpoint.save(os.path.join(FLAGS.model_dir, "ckpt")))

  fixed_noise = np.random.RandomState(0).normal(size=(16, FLAGS.noise_dim)).astype(np.float32)
  drawn = generator(tf.constant(fixed_noise), training=False)
  print("Generated: shape %s, dtype %s, range [%.4f, %.4f], sum %.6f" % (
      tuple(drawn.shape.as_list()), drawn.dtype.name, float(tf.reduce_min(drawn)),
      float(tf.reduce_max(drawn)), float(tf.reduce_sum(drawn))))


if __name__ == "__main__":
  tf.app.run(main)
