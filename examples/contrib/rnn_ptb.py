"""A word-level LSTM language model trained with eager execution, TF 1.x style.

What it shows (the APIs of TensorFlow's contrib eager PTB example, in our own code): a token
stream cut into `--batch_size` parallel rows and read in time-major windows of `--seq_len`
words (truncated backpropagation); a `tf.keras.Model` made of an embedding layer (a
`tf.keras.layers.Layer` with `add_weight` + `tf.nn.embedding_lookup`), a multi-layer LSTM
and a `tf.keras.layers.Dense` softmax layer; three interchangeable LSTMs:
`tf.nn.rnn_cell.MultiRNNCell` of `tf.nn.rnn_cell.LSTMCell`s run by `tf.nn.dynamic_rnn`
(`--rnn cells`), stacked `tf.keras.layers.LSTM`s (`--rnn keras`) and
`tf.contrib.cudnn_rnn.CudnnLSTM` (`--use_cudnn_rnn`); dropout (`tf.nn.dropout`) in training
only; `tf.nn.sparse_softmax_cross_entropy_with_logits`; `tfe.implicit_value_and_gradients`
with `tf.clip_by_global_norm`; `tf.train.GradientDescentOptimizer` whose learning rate is a
variable, multiplied by `--lr_decay` when validation perplexity stops improving;
`tf.train.Checkpoint` saving the model, optimizer and learning rate, restored on the next run.

  tfe-run examples/contrib/rnn_ptb.py                       # examples/data/garden.txt
  tfe-run examples/contrib/rnn_ptb.py --use_cudnn_rnn --epochs 10
  tfe-run examples/contrib/rnn_ptb.py --rnn keras --model_dir /tmp/ptb_model
  tfe-run examples/contrib/rnn_ptb.py --data_path /path/to/simple-examples/data

`--data_path` is a directory in the Penn Treebank format (ptb.train.txt, ptb.valid.txt, one
sentence a line, words separated by spaces); without it the sentences of `--data_file` are
split: every `--valid_every`-th one is held out for validation. Each line ends with <eos>.
The script prints the logits' shape, the perplexity (exp of the mean cross-entropy) of every
epoch on the training and validation words, and a greedy continuation of `--prompt`.
"""
import os
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_string("data_file", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                              os.pardir, "data", "garden.txt"),
                    "A text file: one sentence a line, words separated by spaces.")
flags.DEFINE_string("data_path", None, "A PTB directory (ptb.train.txt, ptb.valid.txt); "
                    "overrides --data_file.")
flags.DEFINE_integer("valid_every", 10, "Every n-th line of --data_file is validation data.")
flags.DEFINE_integer("epochs", 12, "Passes over the training words.")
flags.DEFINE_integer("batch_size", 4, "Parallel rows the token stream is cut into.")
flags.DEFINE_integer("seq_len", 10, "Words per truncated-backpropagation window.")
flags.DEFINE_integer("embedding_dim", 32, "Width of the word vectors.")
flags.DEFINE_integer("hidden_dim", 64, "Units of each LSTM layer.")
flags.DEFINE_integer("num_layers", 2, "Stacked LSTM layers.")
flags.DEFINE_float("dropout", 0.2, "Dropout rate on the embeddings and LSTM outputs.")
flags.DEFINE_float("clip", 0.25, "Global norm the gradients are clipped to.")
flags.DEFINE_float("learning_rate", 20.0, "Initial SGD learning rate.")
flags.DEFINE_float("lr_decay", 0.25, "Factor applied to the learning rate after an epoch "
                   "that did not improve validation perplexity.")
flags.DEFINE_enum("rnn", "cells", ["cells", "keras"], "LSTM implementation: "
                  "MultiRNNCell/LSTMCell under dynamic_rnn, or tf.keras.layers.LSTM.")
flags.DEFINE_bool("use_cudnn_rnn", False, "Use tf.contrib.cudnn_rnn.CudnnLSTM instead.")
flags.DEFINE_string("model_dir", None, "Checkpoint directory: restored from, saved to.")
flags.DEFINE_string("prompt", "the gardener", "Words the trained model continues.")
flags.DEFINE_integer("sample_words", 8, "Words generated after --prompt.")
flags.DEFINE_integer("seed", 3, "Graph-level random seed.")
FLAGS = flags.FLAGS

EOS = "<eos>"


class Vocabulary(object):
  """Word <-> integer id; ids are handed out in order of first appearance."""

  def __init__(self):
    self.words, self.ids = [], {}

  def __len__(self):
    return len(self.words)

  def encode(self, lines, grow=True):
    """The ids of the words of `lines`, each line followed by <eos>."""
    stream = []
    for line in lines:
      for word in line.split() + [EOS]:
        if word not in self.ids:
          if not grow:
            raise ValueError("%r is not in the training vocabulary" % word)
          self.ids[word] = len(self.words)
          self.words.append(word)
        stream.append(self.ids[word])
    return np.array(stream, dtype=np.int64)


def read_lines(path):
  with tf.gfile.GFile(path, "r") as f:
    return [line for line in f.read().split("\n") if line.strip()]


def load_corpus():
  """(vocabulary, train ids, validation ids)."""
  if FLAGS.data_path:
    train_lines = read_lines(os.path.join(FLAGS.data_path, "ptb.train.txt"))
    valid_lines = read_lines(os.path.join(FLAGS.data_path, "ptb.valid.txt"))
  else:
    lines = read_lines(FLAGS.data_file)
    held_out = set(range(FLAGS.valid_every - 1, len(lines), FLAGS.valid_every))
    train_lines = [l for i, l in enumerate(lines) if i not in held_out]
    valid_lines = [l for i, l in enumerate(lines) if i in held_out]
  vocab = Vocabulary()
  train = vocab.encode(train_lines)
  valid = vocab.encode(valid_lines, grow=not FLAGS.data_path)
  return vocab, train, valid


def rows(stream, batch_size):
  """A [time, batch] matrix: the stream cut into `batch_size` consecutive rows."""
  per_row = len(stream) // batch_size
  return stream[:per_row * batch_size].reshape(batch_size, per_row).T


def windows(matrix, seq_len):
  """(inputs, targets) time-major windows of `seq_len` words; targets are the inputs shifted
  by one word. The words after the last whole window are left out (one shape, one trace)."""
  for start in range(0, matrix.shape[0] - seq_len, seq_len):
    yield (tf.constant(matrix[start:start + seq_len]),
           tf.constant(matrix[start + 1:start + seq_len + 1]))


class WordEmbedding(tf.keras.layers.Layer):
  """A [vocab, dim] table looked up with tf.nn.embedding_lookup."""

  def __init__(self, vocab_size, dim, **kwargs):
    super(WordEmbedding, self).__init__(**kwargs)
    self.vocab_size, self.dim = vocab_size, dim

  def build(self, input_shape):
    self.table = self.add_weight("table", shape=[self.vocab_size, self.dim],
                                 initializer=tf.random_uniform_initializer(-0.1, 0.1))
    super(WordEmbedding, self).build(input_shape)

  def call(self, ids):
    return tf.nn.embedding_lookup(self.table, ids)


class StackedLSTM(tf.keras.Model):
  """[time, batch, depth] -> [time, batch, units] through `num_layers` LSTMs."""

  def __init__(self, units, num_layers, kind):
    super(StackedLSTM, self).__init__()
    self.kind = kind
    if kind == "cells":
      self.cell = tf.nn.rnn_cell.MultiRNNCell(
          [tf.nn.rnn_cell.LSTMCell(units, name="lstm_%d" % i) for i in range(num_layers)])
    else:
      self.lstms = [tf.keras.layers.LSTM(units, return_sequences=True,
                                         recurrent_activation="sigmoid")
                    for _ in range(num_layers)]

  def call(self, inputs):
    if self.kind == "cells":
      outputs, _ = tf.nn.dynamic_rnn(self.cell, inputs, dtype=tf.float32, time_major=True)
      return outputs
    outputs = tf.transpose(inputs, [1, 0, 2])  # Keras layers read [batch, time, depth]
    for lstm in self.lstms:
      outputs = lstm(outputs)
    return tf.transpose(outputs, [1, 0, 2])


class LanguageModel(tf.keras.Model):
  """Word ids [time, batch] -> next-word logits [time * batch, vocab]."""

  def __init__(self, vocab_size, embedding_dim, hidden_dim, num_layers, dropout, rnn,
               use_cudnn_rnn):
    super(LanguageModel, self).__init__()
    self.dropout = dropout
    self.use_cudnn_rnn = use_cudnn_rnn
    self.embed = WordEmbedding(vocab_size, embedding_dim)
    if use_cudnn_rnn:
      self.lstm = tf.contrib.cudnn_rnn.CudnnLSTM(num_layers, hidden_dim, dropout=dropout)
    else:
      self.lstm = StackedLSTM(hidden_dim, num_layers, rnn)
    self.softmax = tf.keras.layers.Dense(
        vocab_size, kernel_initializer=tf.random_uniform_initializer(-0.1, 0.1))

  def call(self, ids, training=False):
    keep_prob = 1.0 - self.dropout
    x = self.embed(ids)
    if training and self.dropout:
      x = tf.nn.dropout(x, keep_prob)
    if self.use_cudnn_rnn:
      x, _ = self.lstm(x, training=training)  # (outputs, (h, c)); dropout between layers
    else:
      x = self.lstm(x)
    if training and self.dropout:
      x = tf.nn.dropout(x, keep_prob)
    return self.softmax(tf.reshape(x, [-1, x.shape[-1].value]))


def cross_entropy(model, inputs, targets, training):
  logits = model(inputs, training=training)
  return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
      labels=tf.reshape(targets, [-1]), logits=logits))


def train_epoch(model, optimizer, data, value_and_grads):
  """Mean training cross-entropy over the epoch's windows (weighted by their words)."""
  total, words = 0.0, 0
  for inputs, targets in windows(data, FLAGS.seq_len):
    loss, grads_and_vars = value_and_grads(model, inputs, targets, True)
    grads, variables = zip(*grads_and_vars)
    clipped, _ = tf.clip_by_global_norm(grads, FLAGS.clip)
    optimizer.apply_gradients(zip(clipped, variables))
    total += loss.numpy() * int(tf.size(targets))
    words += int(tf.size(targets))
  return total / words


def evaluate(model, data):
  total, words = 0.0, 0
  for inputs, targets in windows(data, FLAGS.seq_len):
    total += cross_entropy(model, inputs, targets, False).numpy() * int(tf.size(targets))
    words += int(tf.size(targets))
  return total / words


def continue_text(model, vocab, prompt, count):
  """Greedy continuation of the prompt's known words: the most likely next word, `count`
  times."""
  ids = [vocab.ids[w] for w in prompt.split() if w in vocab.ids] or [vocab.ids[EOS]]
  for _ in range(count):
    logits = model(tf.constant(np.array(ids, np.int64)[:, None]), training=False)
    ids.append(int(tf.argmax(logits[-1]).numpy()))
  return " ".join(vocab.words[i] for i in ids)


def main(_):
  tf.set_random_seed(FLAGS.seed)
  vocab, train_ids, valid_ids = load_corpus()
  train_data = rows(train_ids, FLAGS.batch_size)
  valid_data = rows(valid_ids, 1)
  print("vocabulary: %d words; %d training and %d validation words; training batches of "
        "[%d, %d]" % (len(vocab), len(train_ids), len(valid_ids), FLAGS.seq_len,
                      FLAGS.batch_size))

  model = LanguageModel(len(vocab), FLAGS.embedding_dim, FLAGS.hidden_dim, FLAGS.num_layers,
                        FLAGS.dropout, FLAGS.rnn, FLAGS.use_cudnn_rnn)
  learning_rate = tf.Variable(FLAGS.learning_rate, name="learning_rate")
  optimizer = tf.train.GradientDescentOptimizer(learning_rate)
  checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer,
                                   learning_rate=learning_rate)
  if FLAGS.model_dir and tf.train.latest_checkpoint(FLAGS.model_dir):
    checkpoint.restore(tf.train.latest_checkpoint(FLAGS.model_dir))
    print("restored %s (learning rate %.4f)" % (tf.train.latest_checkpoint(FLAGS.model_dir),
                                                learning_rate.numpy()))

  sample_inputs, _ = next(windows(train_data, FLAGS.seq_len))
  print("logits shape: %s" % (model(sample_inputs).shape.as_list(),))
  print("lstm: %s" % ("CudnnLSTM" if FLAGS.use_cudnn_rnn else FLAGS.rnn))
  best = evaluate(model, valid_data)
  print("epoch 0: valid perplexity %.3f" % np.exp(best))

  value_and_grads = tfe.implicit_value_and_gradients(cross_entropy)
  for epoch in range(1, FLAGS.epochs + 1):
    start = time.time()
    train_loss = train_epoch(model, optimizer, train_data, value_and_grads)
    valid_loss = evaluate(model, valid_data)
    print("epoch %d: train perplexity %.3f, valid perplexity %.3f, learning rate %.4f "
          "(%.1f s)" % (epoch, np.exp(train_loss), np.exp(valid_loss), learning_rate.numpy(),
                        time.time() - start))
    if valid_loss < best:
      best = valid_loss
      if FLAGS.model_dir:
        print("saved %s" % checkpoint.save(os.path.join(FLAGS.model_dir, "ckpt")))
    else:
      learning_rate.assign(learning_rate * FLAGS.lr_decay)

  print("sample: %s" % continue_text(model, vocab, FLAGS.prompt, FLAGS.sample_words))


if __name__ == "__main__":
  tf.app.run(main)
