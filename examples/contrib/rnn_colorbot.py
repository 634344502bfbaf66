"""A character-level LSTM that reads a colour's name and regresses its RGB value, TF 1.x eager.

What it shows (the APIs of TensorFlow's contrib eager RNN Colorbot example, in our own code):
a `tf.data` pipeline over a CSV file (`TextLineDataset`, `skip` of the header,
`enumerate_dataset` + `filter` for a train/test split, `map`, `shuffle`, `padded_batch`)
whose parser uses string ops (`tf.string_split` on commas and, with an empty delimiter, into
characters; `tf.strings.lower`; `tf.decode_raw` for the character codes;
`tf.string_to_number`); names of different lengths padded into one batch and handled with
their lengths: `tf.nn.dynamic_rnn(sequence_length=...)` over a `tf.nn.rnn_cell.MultiRNNCell`
of `LSTMCell`s plus `tf.gather_nd` at each name's last character (`--rnn cells`), or stacked
`tf.keras.layers.LSTM`s given a `tf.sequence_mask` (`--rnn keras`); dropout between layers
in training; a sigmoid `tf.keras.layers.Dense` head, so predictions lie in [0, 1];
`tf.losses.mean_squared_error`; `tf.train.AdamOptimizer.minimize` with the global step;
`tfe.Iterator`, `tfe.metrics.Mean` and `tf.contrib.summary` scalars (`--logdir`).

  tfe-run examples/contrib/rnn_colorbot.py
  tfe-run examples/contrib/rnn_colorbot.py --rnn keras --epochs 60 --logdir /tmp/colorbot
  tfe-run examples/contrib/rnn_colorbot.py --colors "white,sky blue,tensorflow orange"

The data is examples/data/colors.csv (`name,red,green,blue`, a header line first); every
`--test_every`-th colour is held out. The script prints the train and test mean squared
error of every epoch (RGB scaled to [0, 1]), then its prediction for each of `--colors`.
"""
import functools
import os
import time

import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_string("data_file", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                              os.pardir, "data", "colors.csv"),
                    "CSV file of `name,red,green,blue` lines after a header line.")
flags.DEFINE_integer("test_every", 5, "Every n-th colour is held out for testing.")
flags.DEFINE_integer("max_length", 12, "Names are padded to this many characters (one "
                     "shape for every batch); longer names are dropped.")
flags.DEFINE_integer("epochs", 30, "Passes over the training colours.")
flags.DEFINE_integer("batch_size", 8, "Colours per training step.")
flags.DEFINE_list("layer_sizes", ["64", "32"], "Units of each LSTM layer.")
flags.DEFINE_float("keep_prob", 0.9, "Probability of keeping an LSTM output in training.")
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate.")
flags.DEFINE_enum("rnn", "cells", ["cells", "keras"], "LSTM implementation: "
                  "MultiRNNCell/LSTMCell under dynamic_rnn, or tf.keras.layers.LSTM.")
flags.DEFINE_list("colors", ["white", "black", "red", "sky blue", "dark green", "lemon"],
                  "Names to predict after training.")
flags.DEFINE_string("logdir", None, "Write train/test loss summaries here.")
flags.DEFINE_integer("log_every", 10, "Record the training loss every this many steps.")
flags.DEFINE_integer("seed", 5, "Graph-level random seed.")
FLAGS = flags.FLAGS

ALPHABET = 256  # character codes are bytes


def encode_name(name):
  """A colour name -> (int32 character codes [length], length)."""
  chars = tf.string_split([tf.strings.lower(name)], delimiter="").values  # one per character
  codes = tf.cast(tf.reshape(tf.decode_raw(chars, tf.uint8), [-1]), tf.int32)
  return codes, tf.size(codes)


def parse_line(line):
  """`name,r,g,b` -> (character codes, length, RGB in [0, 1])."""
  fields = tf.string_split([line], delimiter=",").values
  codes, length = encode_name(fields[0])
  rgb = tf.string_to_number(fields[1:], out_type=tf.float32) / 255.0
  return codes, length, rgb


def colour_datasets(path, test_every, batch_size, max_length):
  """(training Dataset, test Dataset) of padded batches (codes, lengths, rgb)."""
  lines = tf.data.experimental.enumerate_dataset()(tf.data.TextLineDataset(path).skip(1))

  def split(keep_test):
    compare = tf.equal if keep_test else tf.not_equal
    chosen = lines.filter(lambda i, _: compare(i % test_every, test_every - 1))
    return (chosen.map(lambda _, line: parse_line(line))
            .filter(lambda codes, length, rgb: length <= max_length))

  shapes = ([max_length], [], [3])
  train = split(False).shuffle(1000).padded_batch(batch_size, shapes, drop_remainder=True)
  test = split(True).padded_batch(batch_size, shapes)
  return train, test


class Colorbot(tf.keras.Model):
  """Character codes [batch, time] + lengths [batch] -> RGB [batch, 3] in [0, 1]."""

  def __init__(self, layer_sizes, keep_prob, rnn):
    super(Colorbot, self).__init__()
    self.keep_prob, self.rnn = keep_prob, rnn
    if rnn == "cells":
      self.cells = [tf.nn.rnn_cell.LSTMCell(units, name="lstm_%d" % i)
                    for i, units in enumerate(layer_sizes)]
    else:
      self.lstms = [tf.keras.layers.LSTM(units, return_sequences=True,
                                         recurrent_activation="sigmoid")
                    for units in layer_sizes]
    self.rgb = tf.keras.layers.Dense(3, activation=tf.nn.sigmoid, name="rgb")

  def call(self, inputs, training=False):
    codes, lengths = inputs
    lengths = tf.cast(lengths, tf.int32)
    x = tf.one_hot(codes, ALPHABET)  # [batch, time, 256]
    if self.rnn == "cells":
      cells = [tf.nn.rnn_cell.DropoutWrapper(c, output_keep_prob=self.keep_prob)
               if training and self.keep_prob < 1 else c for c in self.cells]
      outputs, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells), x,
                                     sequence_length=lengths, dtype=tf.float32)
      # Each name's output after its last real character (padding steps output zeros).
      batch = tf.range(tf.shape(lengths)[0])
      last = tf.gather_nd(outputs, tf.stack([batch, lengths - 1], axis=1))
    else:
      mask = tf.sequence_mask(lengths, maxlen=tf.shape(codes)[1])
      for i, lstm in enumerate(self.lstms):
        x = lstm(x, mask=mask)
        if training and i < len(self.lstms) - 1:
          x = tf.nn.dropout(x, self.keep_prob)
      last = tf.gather_nd(x, tf.stack([tf.range(tf.shape(lengths)[0]), lengths - 1], axis=1))
    return self.rgb(last)


def mse(model, codes, lengths, rgb, training):
  return tf.losses.mean_squared_error(rgb, model((codes, lengths), training=training))


def train_epoch(model, optimizer, dataset):
  """Mean training loss of the epoch's steps."""
  mean = tfe.metrics.Mean("train_loss")
  for codes, lengths, rgb in tfe.Iterator(dataset):
    with tf.contrib.summary.record_summaries_every_n_global_steps(FLAGS.log_every):
      loss = functools.partial(mse, model, codes, lengths, rgb, True)
      optimizer.minimize(loss, global_step=tf.train.get_or_create_global_step())
      value = loss()
      tf.contrib.summary.scalar("loss", value)
      mean(value)
  return mean.result().numpy()


def evaluate(model, dataset):
  mean = tfe.metrics.Mean("test_loss")
  for codes, lengths, rgb in tfe.Iterator(dataset):
    mean(mse(model, codes, lengths, rgb, False), weights=tf.shape(lengths)[0])
  return mean.result().numpy()


def predict(model, names, padded_length):
  """[len(names), 3] RGB in [0, 1]; the names' codes are padded to `padded_length`."""
  batch = [encode_name(tf.constant(n)) for n in names]
  codes = tf.stack([tf.pad(c, [[0, padded_length - int(l)]]) for c, l in batch])
  lengths = tf.stack([l for _, l in batch])
  return model((codes, lengths), training=False).numpy()


def main(_):
  tf.set_random_seed(FLAGS.seed)
  train_data, test_data = colour_datasets(FLAGS.data_file, FLAGS.test_every,
                                          FLAGS.batch_size, FLAGS.max_length)
  codes, lengths, rgb = next(iter(train_data))
  print("batch shapes: codes %s, lengths %s, rgb %s" % (codes.shape.as_list(),
                                                        lengths.shape.as_list(),
                                                        rgb.shape.as_list()))
  model = Colorbot([int(s) for s in FLAGS.layer_sizes], FLAGS.keep_prob, FLAGS.rnn)
  print("predictions shape: %s" % model((codes, lengths)).shape.as_list())
  optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate)

  print("epoch 0: test loss %.4f" % evaluate(model, test_data))
  # Without a default writer, the summary ops below record nothing.
  writer = tf.contrib.summary.create_file_writer(FLAGS.logdir) if FLAGS.logdir else None
  for epoch in range(1, FLAGS.epochs + 1):
    start = time.time()
    with writer.as_default() if writer else tf.contrib.summary.never_record_summaries():
      train_loss = train_epoch(model, optimizer, train_data)
      test_loss = evaluate(model, test_data)
      with tf.contrib.summary.always_record_summaries():
        tf.contrib.summary.scalar("test_loss", test_loss)
    print("epoch %d: train loss %.4f, test loss %.4f (%.1f s)"
          % (epoch, train_loss, test_loss, time.time() - start))

  predictions = predict(model, FLAGS.colors, FLAGS.max_length)
  for name, value in zip(FLAGS.colors, predictions):
    print("%s: rgb (%.3f, %.3f, %.3f) = (%d, %d, %d)"
          % ((name,) + tuple(value) + tuple(int(round(255 * v)) for v in value)))
  # The lengths, not the padding, decide where each name ends.
  shorter = predict(model, FLAGS.colors, max(len(n) for n in FLAGS.colors))
  print("padding changes predictions by at most %.2g" % abs(predictions - shorter).max())


if __name__ == "__main__":
  tf.app.run(main)
