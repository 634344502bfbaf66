"""Fits a linear model to noisy synthetic points, in the style of TF's contrib eager examples.

Shows: a tf.keras.Model holding one Dense unit, a tf.data pipeline that draws each batch of
points with random ops inside `Dataset.map`, gradients from `tfe.implicit_value_and_gradients`
(or, with --tape, from a tf.GradientTape), `tf.train.GradientDescentOptimizer` with the global
step, `tf.contrib.summary` scalars for TensorBoard, and running on the GPU when there is one.

  tfe-run examples/contrib/linear_regression.py
  tfe-run examples/contrib/linear_regression.py --tape --num_batches 50 --logdir /tmp/linreg
  tensorboard --logdir /tmp/linreg

The points follow y = x . W + B + noise for W = [-2, 4, 1] and B = 0.5 (see --true_w,
--true_b); the script prints the loss as it trains and then the fitted W and B.
"""
import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_list("true_w", ["-2.0", "4.0", "1.0"], "The weights the points are drawn with.")
flags.DEFINE_float("true_b", 0.5, "The bias the points are drawn with.")
flags.DEFINE_float("noise", 0.01, "Standard deviation of the noise added to each y.")
flags.DEFINE_integer("batch_size", 64, "Points per batch.")
flags.DEFINE_integer("num_batches", 100, "Batches to train on (one gradient step each).")
flags.DEFINE_float("learning_rate", 0.1, "Step size of gradient descent.")
flags.DEFINE_bool("tape", False, "Take gradients with tf.GradientTape instead of "
                  "tfe.implicit_value_and_gradients.")
flags.DEFINE_string("logdir", None, "Where to write the loss for TensorBoard (optional).")
flags.DEFINE_integer("log_every", 10, "Print the loss every this many steps.")
flags.DEFINE_integer("seed", 0, "Graph-level random seed.")
FLAGS = flags.FLAGS


class Linear(tf.keras.Model):
  """y = x . W + B as a Keras model: one Dense unit, no activation."""

  def __init__(self):
    super(Linear, self).__init__()
    self.dense = tf.keras.layers.Dense(1)

  def call(self, x):
    return self.dense(x)


def noisy_points(w, b, noise, batch_size, num_batches):
  """A Dataset of `num_batches` batches (x [batch_size, n], y [batch_size, 1])."""
  w = tf.reshape(tf.constant(w, tf.float32), [-1, 1])

  def draw(_):
    x = tf.random_normal([batch_size, tf.shape(w)[0]])
    y = tf.matmul(x, w) + b + tf.random_normal([batch_size, 1], stddev=noise)
    return x, y

  with tf.device("/cpu:0"):  # the input pipeline stays on the host
    return tf.data.Dataset.range(num_batches).map(draw)


def mean_squared_error(model, x, y):
  return tf.reduce_mean(tf.squared_difference(model(x), y))


def train(model, dataset, optimizer, use_tape=False, writer=None, log_every=10):
  """One gradient-descent step per batch; returns the loss of every step."""
  step = tf.train.get_or_create_global_step()
  value_and_grads = tfe.implicit_value_and_gradients(
      lambda x, y: mean_squared_error(model, x, y))
  losses = []
  for x, y in tfe.Iterator(dataset):
    if use_tape:
      with tf.GradientTape() as tape:
        loss = mean_squared_error(model, x, y)
      grads_and_vars = list(zip(tape.gradient(loss, model.variables), model.variables))
    else:
      loss, grads_and_vars = value_and_grads(x, y)
    if writer is not None:
      with writer.as_default(), tf.contrib.summary.always_record_summaries():
        tf.contrib.summary.scalar("loss", loss, step=step)
    if len(losses) % log_every == 0:
      print("Step %03d: loss = %.6f" % (step.numpy(), loss.numpy()))
    optimizer.apply_gradients(grads_and_vars, global_step=step)
    losses.append(float(loss.numpy()))
  return losses


def main(_):
  tf.set_random_seed(FLAGS.seed)
  true_w = [float(v) for v in FLAGS.true_w]
  device = "/gpu:0" if tfe.num_gpus() else "/cpu:0"
  print("True W = %s, B = %.3f; training on %s" % (true_w, FLAGS.true_b, device))
  dataset = noisy_points(true_w, FLAGS.true_b, FLAGS.noise, FLAGS.batch_size,
                         FLAGS.num_batches)
  model = Linear()
  writer = tf.contrib.summary.create_file_writer(FLAGS.logdir) if FLAGS.logdir else None
  with tf.device(device):
    optimizer = tf.train.GradientDescentOptimizer(FLAGS.learning_rate)
    losses = train(model, dataset, optimizer, FLAGS.tape, writer, FLAGS.log_every)
  if writer is not None:
    writer.flush()
  kernel, bias = model.dense.kernel.numpy(), model.dense.bias.numpy()
  print("Final loss = %.6f after %d steps" % (losses[-1], len(losses)))
  print("Fitted W = %s" % np.array2string(kernel.ravel(), precision=4, separator=", "))
  print("Fitted B = %.4f" % bias[0])


if __name__ == "__main__":
  tf.app.run()
