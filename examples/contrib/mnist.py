"""Trains a convolutional classifier on MNIST's IDX files, in the style of TF's eager MNIST.

Shows: reading MNIST's IDX files with `tf.data.FixedLengthRecordDataset` (header_bytes skips
each file's header; raw or gzipped files), a `tf.keras.Sequential` model (one pooling layer
used twice), training with a tf.GradientTape and `tf.train.MomentumOptimizer`, evaluation
with `tfe.metrics.Mean` / `tfe.metrics.Accuracy`, `tf.contrib.summary` scalars, and a
`tf.train.Checkpoint` saved every epoch and restored from `tf.train.latest_checkpoint`.

  tfe-run examples/contrib/mnist.py --data_dir ~/mnist        # MNIST's four IDX files
  tfe-run examples/contrib/mnist.py --model_dir /tmp/m        # no --data_dir: see below
  tfe-run examples/contrib/mnist.py --model_dir /tmp/m --train_epochs 1   # resumes
  tensorboard --logdir /tmp/m

Without --data_dir, the shipped 8x8 digits (examples/data/digits.npz) are written as
MNIST-format 28x28 IDX files to a temporary directory first (examples/contrib/mnist_idx.py),
so the same IDX reading path always runs.
"""
import gzip
import os
import shutil
import struct
import tempfile
import time

import tensorflow as tf

import mnist_idx  # next to this script

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_string("data_dir", None, "A directory with MNIST's IDX files; default: the "
                    "shipped digits, written as IDX files to a temporary directory.")
flags.DEFINE_integer("num_train", 1437, "Without --data_dir: digits to train on.")
flags.DEFINE_integer("num_test", 360, "Without --data_dir: digits to test on.")
flags.DEFINE_string("model_dir", "/tmp/contrib_mnist", "Checkpoints and summaries.")
flags.DEFINE_integer("train_epochs", 5, "Epochs to train (more after a resume).")
flags.DEFINE_integer("batch_size", 50, "Batch size.")
flags.DEFINE_float("lr", 0.05, "Learning rate.")
flags.DEFINE_float("momentum", 0.9, "Momentum.")
flags.DEFINE_list("filters", ["32", "64"], "Filters of the two convolutions.")
flags.DEFINE_integer("hidden", 512, "Units of the hidden dense layer.")
flags.DEFINE_integer("log_interval", 10, "Print the training loss every this many batches.")
flags.DEFINE_bool("defun", False, "Compile the model's call with tfe.defun.")
flags.DEFINE_bool("no_gpu", False, "Stay on the CPU even when there is a GPU.")
FLAGS = flags.FLAGS

ROWS = COLS = 28


# ---- Input: MNIST's IDX files -> (float32 [784] in [0, 1], int32 label) pairs ----

def _idx_file(directory, name, magic):
  """The path of `name` (or `name`.gz) in `directory`, its compression and item count."""
  path, compression = os.path.join(directory, name), ""
  if not tf.gfile.Exists(path) and tf.gfile.Exists(path + ".gz"):
    path, compression = path + ".gz", "GZIP"
  if not tf.gfile.Exists(path):
    raise IOError("%s not found in %s" % (name, directory))
  header_words = 4 if magic == mnist_idx.IMAGE_MAGIC else 2
  with (gzip.open if compression else tf.gfile.Open)(path, "rb") as f:
    words = struct.unpack(">%dI" % header_words, f.read(4 * header_words))
  if words[0] != magic:
    raise ValueError("Invalid magic number %d in MNIST file %s" % (words[0], path))
  if magic == mnist_idx.IMAGE_MAGIC and words[2:] != (ROWS, COLS):
    raise ValueError("Expected %dx%d images in %s, found %dx%d" % ((ROWS, COLS, path)
                                                                  + words[2:]))
  return path, compression, words[1]


def idx_dataset(directory, prefix):
  """MNIST's `<prefix>-images-idx3-ubyte` / `-labels-idx1-ubyte` pairs, record by record."""
  images_path, images_gz, count = _idx_file(
      directory, prefix + "-images-idx3-ubyte", mnist_idx.IMAGE_MAGIC)
  labels_path, labels_gz, _ = _idx_file(
      directory, prefix + "-labels-idx1-ubyte", mnist_idx.LABEL_MAGIC)

  def pixels(record):
    return tf.reshape(tf.cast(tf.decode_raw(record, tf.uint8), tf.float32), [ROWS * COLS]) / 255.

  def label(record):
    return tf.cast(tf.reshape(tf.decode_raw(record, tf.uint8), []), tf.int32)

  images = tf.data.FixedLengthRecordDataset(
      images_path, ROWS * COLS, header_bytes=16, compression_type=images_gz).map(pixels)
  labels = tf.data.FixedLengthRecordDataset(
      labels_path, 1, header_bytes=8, compression_type=labels_gz).map(label)
  return tf.data.Dataset.zip((images, labels)), count


# ---- Model ----

def make_model(data_format, filters, hidden):
  """Two 5x5 convolutions, each followed by the same 2x2 max pooling layer, then two dense
  layers; the input is a batch of flat 784-pixel images."""
  shape = [1, ROWS, COLS] if data_format == "channels_first" else [ROWS, COLS, 1]
  pool = tf.keras.layers.MaxPooling2D(2, 2, padding="same", data_format=data_format)
  return tf.keras.Sequential([
      tf.keras.layers.Reshape(shape, input_shape=(ROWS * COLS,)),
      tf.keras.layers.Conv2D(filters[0], 5, padding="same", data_format=data_format,
                             activation=tf.nn.relu),
      pool,
      tf.keras.layers.Conv2D(filters[1], 5, padding="same", data_format=data_format,
                             activation=tf.nn.relu),
      pool,
      tf.keras.layers.Flatten(),
      tf.keras.layers.Dense(hidden, activation=tf.nn.relu),
      tf.keras.layers.Dropout(0.4),
      tf.keras.layers.Dense(10),
  ])


def cross_entropy(logits, labels):
  return tf.reduce_mean(
      tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


def predicted(logits):
  return tf.argmax(logits, axis=1, output_type=tf.int32)


# ---- Training and evaluation ----

def _value(metric):
  """A tfe metric's value; `result()` would also write it as a summary of its own (TF's
  default), and these scripts write their summaries themselves."""
  return metric.result(write_summary=False).numpy()


def train_epoch(model, optimizer, dataset, step_counter, log_interval):
  """One pass over `dataset`; returns the mean training loss."""
  mean_loss = tfe.metrics.Mean("train_loss")
  for batch, (images, labels) in enumerate(dataset):
    with tf.contrib.summary.record_summaries_every_n_global_steps(10, step_counter):
      with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = cross_entropy(logits, labels)
      tf.contrib.summary.scalar("loss", loss)
      tf.contrib.summary.scalar(
          "accuracy", tf.reduce_mean(tf.cast(tf.equal(predicted(logits), labels), tf.float32)))
    grads = tape.gradient(loss, model.variables)
    optimizer.apply_gradients(zip(grads, model.variables), global_step=step_counter)
    mean_loss(loss)
    if log_interval and batch % log_interval == 0:
      print("  batch %d: loss %.4f" % (batch, loss.numpy()))
  return _value(mean_loss)


def evaluate(model, dataset):
  """(mean loss, accuracy) over `dataset`, also written as summaries."""
  mean_loss = tfe.metrics.Mean("loss")
  accuracy = tfe.metrics.Accuracy("accuracy")
  for images, labels in dataset:
    logits = model(images, training=False)
    mean_loss(cross_entropy(logits, labels))
    accuracy(labels, predicted(logits))
  with tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.scalar("loss", _value(mean_loss))
    tf.contrib.summary.scalar("accuracy", _value(accuracy))
  return _value(mean_loss), _value(accuracy)


def run(data_dir):
  use_gpu = tfe.num_gpus() > 0 and not FLAGS.no_gpu
  device, data_format = ("/gpu:0", "channels_first") if use_gpu else ("/cpu:0",
                                                                      "channels_last")
  train_ds, num_train = idx_dataset(data_dir, "train")
  test_ds, num_test = idx_dataset(data_dir, "t10k")
  print("Reading %d training and %d test images from IDX files in %s; %s, %s"
        % (num_train, num_test, data_dir, device, data_format))
  train_ds = train_ds.shuffle(num_train, seed=0).batch(FLAGS.batch_size)
  test_ds = test_ds.batch(FLAGS.batch_size)

  model = make_model(data_format, [int(f) for f in FLAGS.filters], FLAGS.hidden)
  if FLAGS.defun:
    model.call = tfe.defun(model.call)
  optimizer = tf.train.MomentumOptimizer(FLAGS.lr, FLAGS.momentum)
  step_counter = tf.train.get_or_create_global_step()
  checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer,
                                   step_counter=step_counter)
  latest = tf.train.latest_checkpoint(FLAGS.model_dir)
  # The model's variables do not exist yet: they take the saved values when created.
  checkpoint.restore(latest)

  train_writer = tf.contrib.summary.create_file_writer(
      os.path.join(FLAGS.model_dir, "train"), flush_millis=10000)
  test_writer = tf.contrib.summary.create_file_writer(
      os.path.join(FLAGS.model_dir, "test"), flush_millis=10000, name="test")
  with tf.device(device):
    if latest:
      with test_writer.as_default():
        loss, accuracy = evaluate(model, test_ds)
      print("Restored %s: global step %d, test loss %.4f, accuracy %.2f%%"
            % (latest, step_counter.numpy(), loss, 100 * accuracy))
    for _ in range(FLAGS.train_epochs):
      start = time.time()
      with train_writer.as_default():
        train_loss = train_epoch(model, optimizer, train_ds, step_counter,
                                 FLAGS.log_interval)
      with test_writer.as_default():
        loss, accuracy = evaluate(model, test_ds)
      saved = checkpoint.save(os.path.join(FLAGS.model_dir, "ckpt"))
      print("Epoch %d (global step %d, %.1f s): train loss %.4f; test loss %.4f, "
            "accuracy %.2f%%; saved %s" % (checkpoint.save_counter.numpy(),
                                           step_counter.numpy(), time.time() - start,
                                           train_loss, loss, 100 * accuracy, saved))
  train_writer.flush()
  test_writer.flush()


def main(_):
  tf.set_random_seed(0)
  if FLAGS.data_dir:
    run(FLAGS.data_dir)
    return
  data_dir = tempfile.mkdtemp(prefix="digits_idx_")
  try:
    mnist_idx.write_digits(data_dir, FLAGS.num_train, FLAGS.num_test)
    run(data_dir)
  finally:
    shutil.rmtree(data_dir)


if __name__ == "__main__":
  tf.app.run()
