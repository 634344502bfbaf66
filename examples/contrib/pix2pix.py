"""Image-to-image translation with a conditional GAN (pix2pix), TF 1.x eager style.

What it shows (the APIs of TensorFlow's contrib eager pix2pix notebook, in our own code):
a U-Net generator of `tf.keras.Model` blocks (strided `Conv2D` + `BatchNormalization` +
leaky ReLU down, `Conv2DTranspose` + `BatchNormalization` + `Dropout` + ReLU up, with
`tf.concat` skip connections) and a PatchGAN discriminator (`ZeroPadding2D`, unpadded
`Conv2D`, one logit per patch), weights from `tf.random_normal_initializer(0., 0.02)`;
`call` methods compiled by decorating them with `tfe.defun` (`--compile`); random jitter in a
`tf.data` map: `tf.image.resize_images` (nearest neighbour, `align_corners=True`),
`tf.stack` + `tf.random_crop` of the input/target pair, `tf.image.flip_left_right` under
`tf.cond`; the generator loss `sigmoid_cross_entropy` + LAMBDA * L1, two tapes, two
`tf.train.AdamOptimizer(2e-4, beta1=0.5)`.

  tfe-run examples/contrib/pix2pix.py                      # 32x32 pairs, 20 epochs
  tfe-run examples/contrib/pix2pix.py --image_size 16 --epochs 5 --num_pairs 8

The data are synthetic "facades": the input is a label map (a wall with a grid of coloured
window rectangles), the target a shaded rendering of the same map. --image_size must be a
power of two (the U-Net goes down to 1x1). Each epoch prints the mean L1 distance between
generated and target images, the generator's GAN loss and the discriminator loss; at the end
the script prints the L1 distance on held-out pairs and the shape and range of the outputs.
"""
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_integer("image_size", 32, "Height and width of the images (a power of two).")
flags.DEFINE_integer("filters", 16, "Filters of the first U-Net level (doubling, max 8x).")
flags.DEFINE_integer("num_pairs", 16, "Training pairs.")
flags.DEFINE_integer("num_test", 4, "Held-out pairs.")
flags.DEFINE_integer("batch_size", 4, "Pairs per training step.")
flags.DEFINE_integer("epochs", 20, "Passes over the training pairs.")
flags.DEFINE_float("l1_weight", 100.0, "LAMBDA: weight of the L1 term of the generator loss.")
flags.DEFINE_float("learning_rate", 2e-4, "Adam learning rate of both networks.")
flags.DEFINE_bool("compile", True, "Compile the generator's and discriminator's call.")
flags.DEFINE_integer("seed", 5, "Random seed (data and graph level).")
FLAGS = flags.FLAGS

WALL, WINDOW, FRAME = (20, 40, 200), (30, 200, 230), (230, 90, 20)


def synthetic_facades(count, size, rng):
  """(label maps, renderings) as uint8 (count, size, size, 3) arrays."""
  labels = np.empty((count, size, size, 3), np.uint8)
  labels[:] = WALL
  cell = max(size // 4, 4)
  for k in range(count):
    rows, cols = rng.randint(2, 4), rng.randint(2, 4)
    for r in range(rows):
      for c in range(cols):
        y, x = r * cell + cell // 4, c * cell + cell // 4 + rng.randint(0, 2)
        labels[k, y:y + cell // 2, x:x + cell // 2] = WINDOW if (r + c) % 2 else FRAME
  shade = np.linspace(0.0, 50.0, size, dtype=np.float32)[None, :, None, None]
  photos = np.clip(0.6 * labels + 50.0 + shade, 0, 255).astype(np.uint8)
  return labels, photos


def to_unit_range(image):
  return tf.cast(image, tf.float32) / 127.5 - 1.0


def jitter(label, photo):
  """Upscale by 1/8 (nearest neighbour), crop both images at the same place, maybe mirror."""
  size = FLAGS.image_size
  big = size + size // 8
  label = tf.image.resize_images(to_unit_range(label), [big, big], align_corners=True,
                                 method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
  photo = tf.image.resize_images(to_unit_range(photo), [big, big], align_corners=True,
                                 method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
  pair = tf.random_crop(tf.stack([label, photo], axis=0), size=[2, size, size, 3])
  mirror = tf.random_uniform([]) > 0.5
  pair = tf.cond(mirror, lambda: tf.image.flip_left_right(pair), lambda: pair)
  return pair[0], pair[1]


def weights():
  return tf.random_normal_initializer(0., 0.02)


class Down(tf.keras.Model):
  """Halves the resolution: 4x4/2 convolution, optional batch norm, leaky ReLU."""

  def __init__(self, filters, batchnorm=True):
    super(Down, self).__init__()
    self.conv = tf.keras.layers.Conv2D(filters, (4, 4), strides=2, padding="same",
                                       kernel_initializer=weights(), use_bias=False)
    self.norm = tf.keras.layers.BatchNormalization() if batchnorm else None

  def call(self, x, training):
    x = self.conv(x)
    if self.norm is not None:
      x = self.norm(x, training=training)
    return tf.nn.leaky_relu(x)


class Up(tf.keras.Model):
  """Doubles the resolution, then appends the encoder's feature map of the same size."""

  def __init__(self, filters, dropout=False):
    super(Up, self).__init__()
    self.deconv = tf.keras.layers.Conv2DTranspose(filters, (4, 4), strides=2, padding="same",
                                                  kernel_initializer=weights(),
                                                  use_bias=False)
    self.norm = tf.keras.layers.BatchNormalization()
    self.drop = tf.keras.layers.Dropout(0.5) if dropout else None

  def call(self, x, skip, training):
    x = self.norm(self.deconv(x), training=training)
    if self.drop is not None:
      x = self.drop(x, training=training)
    return tf.concat([tf.nn.relu(x), skip], axis=-1)


class UNet(tf.keras.Model):
  """log2(size) Down blocks to 1x1, as many Up blocks back, a tanh 3-channel output."""

  def __init__(self, image_size, filters):
    super(UNet, self).__init__()
    depth = int(np.log2(image_size))
    widths = [filters * min(2 ** i, 8) for i in range(depth)]
    self.downs = [Down(w, batchnorm=i > 0) for i, w in enumerate(widths)]
    self.ups = [Up(w, dropout=i < 2) for i, w in enumerate(reversed(widths[:-1]))]
    self.out = tf.keras.layers.Conv2DTranspose(3, (4, 4), strides=2, padding="same",
                                               kernel_initializer=weights())

  def call(self, x, training):
    skips = []
    for down in self.downs:
      x = down(x, training=training)
      skips.append(x)
    for up, skip in zip(self.ups, reversed(skips[:-1])):
      x = up(x, skip, training=training)
    return tf.nn.tanh(self.out(x))


class PatchCritic(tf.keras.Model):
  """Judges (input, image) pairs with one logit per overlapping patch."""

  def __init__(self, filters):
    super(PatchCritic, self).__init__()
    self.down1 = Down(filters, batchnorm=False)
    self.down2 = Down(2 * filters)
    self.pad1 = tf.keras.layers.ZeroPadding2D()
    self.conv = tf.keras.layers.Conv2D(4 * filters, (4, 4), strides=1,
                                       kernel_initializer=weights(), use_bias=False)
    self.norm = tf.keras.layers.BatchNormalization()
    self.pad2 = tf.keras.layers.ZeroPadding2D()
    self.logits = tf.keras.layers.Conv2D(1, (4, 4), strides=1, kernel_initializer=weights())

  def call(self, condition, image, training):
    x = tf.concat([condition, image], axis=-1)
    x = self.down2(self.down1(x, training=training), training=training)
    x = tf.nn.leaky_relu(self.norm(self.conv(self.pad1(x)), training=training))
    return self.logits(self.pad2(x))


def critic_loss(real_logits, fake_logits):
  return (tf.losses.sigmoid_cross_entropy(tf.ones_like(real_logits), real_logits) +
          tf.losses.sigmoid_cross_entropy(tf.zeros_like(fake_logits), fake_logits))


def generator_losses(fake_logits, generated, target):
  """(total, GAN part, L1 part) of the generator loss."""
  gan = tf.losses.sigmoid_cross_entropy(multi_class_labels=tf.ones_like(fake_logits),
                                        logits=fake_logits)
  l1 = tf.reduce_mean(tf.abs(target - generated))
  return gan + FLAGS.l1_weight * l1, gan, l1


def main(_):
  size = FLAGS.image_size
  if size < 8 or size & (size - 1):
    raise ValueError("--image_size must be a power of two >= 8, got %d" % size)
  tf.set_random_seed(FLAGS.seed)
  rng = np.random.RandomState(FLAGS.seed)
  labels, photos = synthetic_facades(FLAGS.num_pairs + FLAGS.num_test, size, rng)
  n = FLAGS.num_pairs
  train = (tf.data.Dataset.from_tensor_slices((labels[:n], photos[:n]))
           .shuffle(n, seed=FLAGS.seed).map(jitter).batch(FLAGS.batch_size))
  test_inputs, test_targets = to_unit_range(labels[n:]), to_unit_range(photos[n:])
  print("Training on %d synthetic %dx%d facade pairs, %d held out" % (
      n, size, size, FLAGS.num_test))

  if FLAGS.compile:
    UNet.call = tfe.defun(UNet.call)
    PatchCritic.call = tfe.defun(PatchCritic.call)
  generator, critic = UNet(size, FLAGS.filters), PatchCritic(FLAGS.filters)
  gen_optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate, beta1=0.5)
  critic_optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate, beta1=0.5)

  for epoch in range(1, FLAGS.epochs + 1):
    start = time.time()
    l1s, gans, critics = [], [], []
    for inputs, targets in train:
      with tf.GradientTape() as gen_tape, tf.GradientTape() as critic_tape:
        generated = generator(inputs, training=True)
        real_logits = critic(inputs, targets, training=True)
        fake_logits = critic(inputs, generated, training=True)
        g_total, g_gan, g_l1 = generator_losses(fake_logits, generated, targets)
        c_loss = critic_loss(real_logits, fake_logits)
      gen_grads = gen_tape.gradient(g_total, generator.variables)
      critic_grads = critic_tape.gradient(c_loss, critic.variables)
      gen_optimizer.apply_gradients(zip(gen_grads, generator.variables))
      critic_optimizer.apply_gradients(zip(critic_grads, critic.variables))
      l1s.append(float(g_l1))
      gans.append(float(g_gan))
      critics.append(float(c_loss))
    print("Epoch %d (%.1f s): L1 %.4f, generator GAN loss %.4f, discriminator loss %.4f" % (
        epoch, time.time() - start, np.mean(l1s), np.mean(gans), np.mean(critics)))

  # training=True on purpose, as pix2pix does at test time: batch statistics, active dropout.
  translated = generator(test_inputs, training=True)
  print("Test L1: %.4f" % float(tf.reduce_mean(tf.abs(test_targets - translated))))
  print("Generated: shape %s, dtype %s, range [%.4f, %.4f]" % (
      tuple(translated.shape.as_list()), translated.dtype.name,
      float(tf.reduce_min(translated)), float(tf.reduce_max(translated))))
  print("Patch logits: shape %s" % (tuple(critic(test_inputs, translated,
                                                 training=False).shape.as_list()),))


if __name__ == "__main__":
  tf.app.run(main)
