"""Trains a convolutional digit classifier with eager execution, TF 1.x style.

The main job of tfe_compat: a TensorFlow 1.x eager program in the style of TensorFlow's
official mnist_eager.py, run unchanged on JAX.

  tfe-run examples/mnist_eager.py                  # the shipped 8x8 digits, CPU, < 1 min
  tfe-run examples/mnist_eager.py --compile        # the train step as one tf.function
  tfe-run examples/mnist_eager.py --device gpu     # on the GPU (the CPU when there is none)
  tfe-run examples/mnist_eager.py --data_dir ~/mnist   # real MNIST from its IDX files

By default it trains on the UCI handwritten digits shipped in examples/data/digits.npz
(1797 8x8 images, see examples/data/README.md): 1437 for training, 360 held out for testing.
With --data_dir holding MNIST's IDX files (train-images-idx3-ubyte, train-labels-idx1-ubyte,
t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, raw or .gz) it trains on MNIST instead.

Each epoch shows a progress bar, prints the training loss and accuracy, evaluates on the
test set, writes TensorBoard summaries to <model_dir>/train and <model_dir>/test, and saves
a checkpoint. Run it again with the same --model_dir and it resumes where it stopped:

  tensorboard --logdir /tmp/mnist_eager
"""
import gzip
import os
import struct
import time

import numpy as np
import tensorflow as tf

# Soft placement: with --device gpu and no GPU, ops run on the CPU instead of failing.
tf.enable_eager_execution(config=tf.ConfigProto(allow_soft_placement=True))
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_integer("epochs", 20, "Number of epochs to train (more after a resume).")
flags.DEFINE_integer("batch_size", 32, "Batch size for training and evaluation.")
flags.DEFINE_float("learning_rate", 0.002, "Learning rate of the Adam optimizer.")
flags.DEFINE_string("model_dir", "/tmp/mnist_eager", "Checkpoints and TensorBoard summaries.")
flags.DEFINE_string("data_dir", None, "A directory with MNIST's IDX files; default: the "
                    "8x8 digits shipped in examples/data/digits.npz.")
flags.DEFINE_enum("device", "cpu", ["cpu", "gpu"], "Where to run (gpu falls back to the CPU "
                  "when there is no GPU).")
flags.DEFINE_bool("compile", False, "Compile the training step with tf.function.")
flags.DEFINE_integer("log_interval", 10, "Record summaries every this many global steps.")
FLAGS = flags.FLAGS

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits.npz")
NUM_CLASSES = 10


# ---------------------------------------------------------------------------------------
# Data: (image, label) pairs, the image a float32 [height, width] in [0, 1], the label int32.

def digits_datasets():
  """The shipped UCI digits: the first 1437 images to train on, the last 360 to test."""
  with np.load(DIGITS) as data:
    images = data["images"].astype(np.float32) / 16.0
    labels = data["labels"].astype(np.int32)
  train = tf.data.Dataset.from_tensor_slices((images[:1437], labels[:1437]))
  test = tf.data.Dataset.from_tensor_slices((images[1437:], labels[1437:]))
  return train, test, 1437, images.shape[1:]


def idx_file(directory, name, header_words):
  """The path of an IDX file in `directory` (raw, or gzipped as downloaded), how it is
  compressed, and its header: magic number, number of items, then rows and columns."""
  path = os.path.join(directory, name)
  compression = None
  if not tf.gfile.Exists(path) and tf.gfile.Exists(path + ".gz"):
    path, compression = path + ".gz", "GZIP"
  if not tf.gfile.Exists(path):
    raise IOError("%s (or %s.gz) not found in --data_dir %s" % (name, name, directory))
  with (gzip.open(path) if compression else open(path, "rb")) as f:
    header = struct.unpack(">%dI" % header_words, f.read(4 * header_words))
  return path, compression, header


def mnist_dataset(directory, images_name, labels_name):
  """MNIST's images and labels, read record by record with FixedLengthRecordDataset.

  The records are decoded 1000 at a time and then unbatched: one decode_raw per 1000
  images rather than one per image (tf.data's performance guide: vectorize the map)."""
  images_path, images_compression, (_, count, rows, cols) = idx_file(
      directory, images_name, 4)
  labels_path, labels_compression, _ = idx_file(directory, labels_name, 2)

  def decode_images(records):
    pixels = tf.cast(tf.decode_raw(records, tf.uint8), tf.float32) / 255.0
    return tf.reshape(pixels, [-1, rows, cols])

  def decode_labels(records):
    return tf.cast(tf.reshape(tf.decode_raw(records, tf.uint8), [-1]), tf.int32)

  images = tf.data.FixedLengthRecordDataset(
      images_path, rows * cols, header_bytes=16, compression_type=images_compression)
  labels = tf.data.FixedLengthRecordDataset(
      labels_path, 1, header_bytes=8, compression_type=labels_compression)
  pairs = tf.data.Dataset.zip((images.batch(1000).map(decode_images),
                               labels.batch(1000).map(decode_labels)))
  return pairs.apply(tf.data.experimental.unbatch()), count, (rows, cols)


def mnist_datasets(directory):
  """MNIST's 60000 training and 10000 test images (or as many as the IDX files hold)."""
  train, num_train, image_shape = mnist_dataset(
      directory, "train-images-idx3-ubyte", "train-labels-idx1-ubyte")
  test, _, _ = mnist_dataset(directory, "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")
  return train, test, num_train, image_shape


# ---------------------------------------------------------------------------------------
# The model: two convolutions with max pooling, then two dense layers.

class ConvNet(tf.keras.Model):

  def __init__(self, image_shape):
    super(ConvNet, self).__init__()
    self.reshape = tf.keras.layers.Reshape(list(image_shape) + [1])
    self.conv1 = tf.keras.layers.Conv2D(32, 3, padding="same", activation=tf.nn.relu)
    self.pool1 = tf.keras.layers.MaxPooling2D(2, padding="same")
    self.conv2 = tf.keras.layers.Conv2D(64, 3, padding="same", activation=tf.nn.relu)
    self.pool2 = tf.keras.layers.MaxPooling2D(2, padding="same")
    self.flatten = tf.keras.layers.Flatten()
    self.dense = tf.keras.layers.Dense(128, activation=tf.nn.relu)
    self.dropout = tf.keras.layers.Dropout(0.3)
    self.logits = tf.keras.layers.Dense(NUM_CLASSES)

  def call(self, images, training=False):
    x = self.reshape(images)
    x = self.pool1(self.conv1(x))
    x = self.pool2(self.conv2(x))
    x = self.dense(self.flatten(x))
    return self.logits(self.dropout(x, training=training))


def loss(logits, labels):
  return tf.reduce_mean(
      tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=labels))


def predictions(logits):
  return tf.argmax(logits, axis=1, output_type=tf.int32)


# ---------------------------------------------------------------------------------------
# Training and evaluation.

def _value(metric):
  """A tfe metric's value; `result()` would also write it as a summary of its own (TF's
  default), and these scripts write their summaries themselves."""
  return metric.result(write_summary=False).numpy()


def train_one_epoch(train_step, dataset, step_counter, num_batches):
  """One pass of `train_step` over `dataset`, with a progress bar and summaries."""
  mean_loss = tfe.metrics.Mean("loss")
  accuracy = tfe.metrics.Accuracy("accuracy")
  progress = tf.keras.utils.Progbar(num_batches, stateful_metrics=["loss", "accuracy"])
  for batch, (images, labels) in enumerate(dataset):
    with tf.contrib.summary.record_summaries_every_n_global_steps(
        FLAGS.log_interval, global_step=step_counter):
      loss_value, logits = train_step(images, labels)
      predicted = predictions(logits)
      correct = tf.cast(tf.equal(predicted, labels), tf.float32)
      tf.contrib.summary.scalar("loss", loss_value)
      tf.contrib.summary.scalar("accuracy", tf.reduce_mean(correct))
    mean_loss(loss_value)
    accuracy(labels, predicted)
    progress.update(batch + 1, [("loss", _value(mean_loss)), ("accuracy", _value(accuracy))])
  return _value(mean_loss), _value(accuracy)


def evaluate(model, dataset):
  """Average loss and accuracy over `dataset`, also written as summaries."""
  mean_loss = tfe.metrics.Mean("loss")
  accuracy = tfe.metrics.Accuracy("accuracy")
  for images, labels in dataset:
    logits = model(images, training=False)
    mean_loss(loss(logits, labels))
    accuracy(labels, predictions(logits))
  with tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.scalar("loss", _value(mean_loss))
    tf.contrib.summary.scalar("accuracy", _value(accuracy))
  return _value(mean_loss), _value(accuracy)


def main(_):
  tf.set_random_seed(0)
  if FLAGS.data_dir:
    train_ds, test_ds, num_train, image_shape = mnist_datasets(FLAGS.data_dir)
    source = "MNIST from %s" % FLAGS.data_dir
  else:
    train_ds, test_ds, num_train, image_shape = digits_datasets()
    source = "UCI digits from %s" % DIGITS
  print("Training on %d %dx%d images (%s)" % ((num_train,) + tuple(image_shape) + (source,)))
  train_ds = train_ds.shuffle(num_train, seed=0).batch(FLAGS.batch_size)
  test_ds = test_ds.batch(FLAGS.batch_size)
  num_batches = int(np.ceil(num_train / FLAGS.batch_size))

  model = ConvNet(image_shape)
  optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate)
  step_counter = tf.train.get_or_create_global_step()
  epoch = tf.Variable(0, dtype=tf.int64, trainable=False, name="epoch")

  # Resume from the latest checkpoint in model_dir, if there is one. The model's variables
  # do not exist yet: they are restored when its first call creates them.
  checkpoint = tf.train.Checkpoint(
      model=model, optimizer=optimizer, step_counter=step_counter, epoch=epoch)
  manager = tf.train.CheckpointManager(checkpoint, FLAGS.model_dir, max_to_keep=3)
  latest = tf.train.latest_checkpoint(FLAGS.model_dir)
  checkpoint.restore(latest)
  if latest:
    print("Restored %s: epoch %d, global step %d"
          % (latest, epoch.numpy(), step_counter.numpy()))

  train_writer = tf.contrib.summary.create_file_writer(
      os.path.join(FLAGS.model_dir, "train"), flush_millis=10000)
  test_writer = tf.contrib.summary.create_file_writer(
      os.path.join(FLAGS.model_dir, "test"), flush_millis=10000, name="test")

  def train_step(images, labels):
    with tf.GradientTape() as tape:
      logits = model(images, training=True)
      loss_value = loss(logits, labels)
    grads = tape.gradient(loss_value, model.variables)
    optimizer.apply_gradients(zip(grads, model.variables), global_step=step_counter)
    return loss_value, logits

  if FLAGS.compile:
    train_step = tf.function(train_step)  # one XLA computation per batch shape

  last_epoch = epoch.numpy() + FLAGS.epochs
  with tf.device("/gpu:0" if FLAGS.device == "gpu" else "/cpu:0"):
    for _ in range(FLAGS.epochs):
      epoch.assign_add(1)
      print("Epoch %d/%d" % (epoch.numpy(), last_epoch))
      start = time.time()
      with train_writer.as_default():
        train_loss, train_accuracy = train_one_epoch(train_step, train_ds, step_counter,
                                                     num_batches)
      with test_writer.as_default():
        test_loss, test_accuracy = evaluate(model, test_ds)
      save_path = manager.save()
      print("Epoch %d, global step %d (%.1f s): train loss %.4f, accuracy %.2f%%; "
            "test loss %.4f, accuracy %.2f%%; saved %s"
            % (epoch.numpy(), step_counter.numpy(), time.time() - start, train_loss,
               100 * train_accuracy, test_loss, 100 * test_accuracy, save_path))
  train_writer.flush()
  test_writer.flush()


if __name__ == "__main__":
  tf.app.run()
