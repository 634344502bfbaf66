"""A convolutional variational autoencoder on binarized digit images, TF 1.x eager style.

What it shows (the APIs of TensorFlow's contrib eager CVAE notebook, in our own code):
an encoder and a decoder built as `tf.keras.Sequential` stacks (`InputLayer`, `Conv2D`,
`Flatten`, `Dense`; `Dense`, `Reshape`, `Conv2DTranspose`), a `tf.keras.Model` that owns
both; `tf.split` of the encoder output into mean and log-variance; the reparameterization
trick with `tf.random_normal`; a one-sample Monte Carlo ELBO from
`tf.nn.sigmoid_cross_entropy_with_logits` and a log-normal density; `tf.GradientTape` and
`tf.train.AdamOptimizer(...).apply_gradients(..., global_step=...)`; the test ELBO averaged
with `tfe.metrics.Mean` over a `make_one_shot_iterator()`; optionally the loss step wrapped
in `tfe.defun` (`--compile`).

  tfe-run examples/contrib/cvae.py                       # 28x28 digits, 10 epochs
  tfe-run examples/contrib/cvae.py --image_size 16 --epochs 4 --num_examples 400

The images are the 8x8 UCI digits of examples/data/digits.npz, resized to --image_size
(a multiple of 4) with `tf.image.resize_images` and binarized at 0.5, so each pixel is
modelled as a Bernoulli variable. Each epoch prints the mean training ELBO and the ELBO on
held-out digits; at the end the script decodes latent vectors to images and prints their
shape and value range.
"""
import os
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_integer("image_size", 28, "Height and width of the images (a multiple of 4).")
flags.DEFINE_integer("latent_dim", 8, "Dimensions of the latent code z.")
flags.DEFINE_integer("filters", 32, "Filters of the first convolution (the second has 2x).")
flags.DEFINE_integer("num_examples", 1500, "Digits to train on (the rest are the test set).")
flags.DEFINE_integer("num_test", 200, "Held-out digits for the test ELBO.")
flags.DEFINE_integer("batch_size", 50, "Images per training step.")
flags.DEFINE_integer("epochs", 10, "Passes over the training digits.")
flags.DEFINE_float("learning_rate", 1e-3, "Adam learning rate.")
flags.DEFINE_bool("compile", False, "Compile the loss-and-gradient step with tfe.defun.")
flags.DEFINE_integer("seed", 3, "Graph-level random seed.")
FLAGS = flags.FLAGS

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data",
                      "digits.npz")
LOG_2PI = float(np.log(2.0 * np.pi))


def binarized_digits(size):
  """All digits as float32 (n, size, size, 1) images of zeros and ones."""
  raw = np.load(DIGITS)["images"].astype(np.float32) / 16.0
  resized = tf.image.resize_images(raw[..., None], [size, size])
  return tf.cast(resized >= 0.5, tf.float32).numpy()


class ConvVAE(tf.keras.Model):
  """q(z|x) is a diagonal Gaussian from a conv encoder; p(x|z) Bernoulli from a deconv decoder."""

  def __init__(self, image_size, latent_dim, filters):
    super(ConvVAE, self).__init__()
    self.latent_dim = latent_dim
    quarter = image_size // 4
    self.encoder = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(image_size, image_size, 1)),
        tf.keras.layers.Conv2D(filters, 3, strides=2, padding="same", activation="relu"),
        tf.keras.layers.Conv2D(2 * filters, 3, strides=2, padding="same",
                               activation=tf.nn.relu),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(2 * latent_dim),  # mean and log-variance, no activation
    ])
    self.decoder = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(latent_dim,)),
        tf.keras.layers.Dense(quarter * quarter * filters, activation=tf.nn.relu),
        tf.keras.layers.Reshape((quarter, quarter, filters)),
        tf.keras.layers.Conv2DTranspose(2 * filters, 3, strides=(2, 2), padding="SAME",
                                        activation="relu"),
        tf.keras.layers.Conv2DTranspose(filters, 3, strides=(2, 2), padding="SAME",
                                        activation="relu"),
        tf.keras.layers.Conv2DTranspose(1, 3, strides=1, padding="SAME"),  # pixel logits
    ])

  def posterior(self, images):
    return tf.split(self.encoder(images), num_or_size_splits=2, axis=1)

  def draw_latent(self, mean, logvar):
    noise = tf.random_normal(shape=tf.shape(mean))
    return mean + tf.exp(0.5 * logvar) * noise

  def pixel_logits(self, z):
    return self.decoder(z)

  def generate(self, z):
    return tf.sigmoid(self.pixel_logits(z))


def gaussian_log_density(x, mean, logvar):
  """log N(x; mean, exp(logvar)) summed over the latent dimensions."""
  squared = tf.square(x - mean) * tf.exp(-logvar)
  return -0.5 * tf.reduce_sum(squared + logvar + LOG_2PI, axis=1)


def negative_elbo(model, images):
  """-E_q[log p(x|z) + log p(z) - log q(z|x)] with one sample of z per image."""
  mean, logvar = model.posterior(images)
  z = model.draw_latent(mean, logvar)
  bernoulli_nll = tf.nn.sigmoid_cross_entropy_with_logits(labels=images,
                                                          logits=model.pixel_logits(z))
  log_likelihood = -tf.reduce_sum(bernoulli_nll, axis=[1, 2, 3])
  log_prior = gaussian_log_density(z, 0.0, 0.0)
  log_posterior = gaussian_log_density(z, mean, logvar)
  return -tf.reduce_mean(log_likelihood + log_prior - log_posterior)


def loss_and_gradients(model, images):
  with tf.GradientTape() as tape:
    loss = negative_elbo(model, images)
  return loss, tape.gradient(loss, model.trainable_variables)


def main(_):
  tf.set_random_seed(FLAGS.seed)
  if FLAGS.image_size % 4:
    raise ValueError("--image_size must be a multiple of 4, got %d" % FLAGS.image_size)
  images = binarized_digits(FLAGS.image_size)
  np.random.RandomState(FLAGS.seed).shuffle(images)
  train_images = images[:FLAGS.num_examples]
  test_images = images[-FLAGS.num_test:]
  print("Training on %d binarized %dx%d digits, testing on %d" % (
      len(train_images), FLAGS.image_size, FLAGS.image_size, len(test_images)))
  train_data = tf.data.Dataset.from_tensor_slices(train_images).shuffle(
      len(train_images), seed=FLAGS.seed).batch(FLAGS.batch_size)
  test_data = tf.data.Dataset.from_tensor_slices(test_images).batch(FLAGS.batch_size)

  model = ConvVAE(FLAGS.image_size, FLAGS.latent_dim, FLAGS.filters)
  optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate)
  global_step = tf.train.get_or_create_global_step()
  step = tfe.defun(loss_and_gradients) if FLAGS.compile else loss_and_gradients

  for epoch in range(1, FLAGS.epochs + 1):
    start = time.time()
    train_elbo = tfe.metrics.Mean("train_elbo")
    for batch in train_data:
      loss, grads = step(model, batch)
      optimizer.apply_gradients(zip(grads, model.trainable_variables), global_step=global_step)
      train_elbo(-loss)
    test_elbo = tfe.metrics.Mean("test_elbo")
    for batch in test_data.make_one_shot_iterator():
      test_elbo(-negative_elbo(model, batch))
    print("Epoch %d (%.1f s, global step %d): train ELBO %.3f, test ELBO %.3f" % (
        epoch, time.time() - start, int(global_step), float(train_elbo.result()),
        float(test_elbo.result())))

  samples = model.generate(tf.random_normal([16, FLAGS.latent_dim]))
  mean, _ = model.posterior(test_images[:16])
  reconstruction = model.generate(mean)
  error = tf.reduce_mean(tf.abs(reconstruction - test_images[:16]))
  print("Samples: shape %s, dtype %s, range [%.4f, %.4f]" % (
      tuple(samples.shape.as_list()), samples.dtype.name, float(tf.reduce_min(samples)),
      float(tf.reduce_max(samples))))
  print("Reconstruction mean absolute error on test digits: %.4f" % float(error))


if __name__ == "__main__":
  tf.app.run(main)
