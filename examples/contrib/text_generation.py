"""A character-level GRU language model that writes text, with eager execution, TF 1.x style.

What it shows (the APIs of TensorFlow's eager text-generation notebook, in our own code): a
text file turned into character ids; the character stream cut into `--batch_size` parallel
rows read in windows of `--seq_len` characters through `tf.data`, so that the GRU state at
the end of one window is the initial state of the next (stateful training); a
`tf.keras.Model` of `tf.keras.layers.Embedding`, `tf.keras.layers.GRU` (or
`tf.keras.layers.CuDNNGRU` when `tf.test.is_gpu_available()`) with `return_sequences` and
`return_state`, and `tf.keras.layers.Dense`; `tf.losses.sparse_softmax_cross_entropy`;
`tf.GradientTape` with `tf.train.AdamOptimizer` and the global step; `tf.train.Checkpoint`
saved to `--model_dir`, restored into a fresh model that must give the same predictions;
and a sampling loop that feeds one character at a time together with the GRU state, drawing
the next character with `tf.multinomial(logits / temperature)` (greedy `tf.argmax` at
temperature 0).

  tfe-run examples/contrib/text_generation.py                      # examples/data/lighthouse.txt
  tfe-run examples/contrib/text_generation.py --epochs 60 --temperature 0.5
  tfe-run examples/contrib/text_generation.py --data_file my.txt --start_string "Once "

Every epoch prints `epoch N: loss X (T s)`; then the model is checkpointed, restored, and
`--num_generate` characters are sampled after `--start_string`, printed and written to
<model_dir>/sample.txt.
"""
import os
import tempfile
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()

flags = tf.app.flags
flags.DEFINE_string("data_file", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                              os.pardir, "data", "lighthouse.txt"),
                    "The text to learn (any UTF-8 text file).")
flags.DEFINE_integer("epochs", 30, "Passes over the text.")
flags.DEFINE_integer("batch_size", 16, "Parallel rows the character stream is cut into.")
flags.DEFINE_integer("seq_len", 40, "Characters per training window.")
flags.DEFINE_integer("embedding_dim", 32, "Width of the character vectors.")
flags.DEFINE_integer("units", 128, "GRU units.")
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate.")
flags.DEFINE_string("model_dir", None, "Where checkpoints and sample.txt go (default: a "
                    "new temporary directory).")
flags.DEFINE_string("start_string", "The ", "Text the sampler starts from.")
flags.DEFINE_integer("num_generate", 300, "Characters to sample after --start_string.")
flags.DEFINE_float("temperature", 0.6, "Sampling temperature; 0 picks the likeliest "
                   "character every time.")
flags.DEFINE_integer("seed", 7, "Graph-level random seed.")
FLAGS = flags.FLAGS


class CharTable(object):
  """Character <-> id, the characters sorted."""

  def __init__(self, text):
    self.chars = sorted(set(text))
    self.ids = {c: i for i, c in enumerate(self.chars)}

  def __len__(self):
    return len(self.chars)

  def encode(self, text):
    return np.array([self.ids[c] for c in text], dtype=np.int32)

  def decode(self, ids):
    return "".join(self.chars[i] for i in ids)


def windows(ids, batch_size, seq_len):
  """A dataset of (input, target) [batch, seq_len] windows; row r of window k + 1 continues
  row r of window k, and the targets are the inputs shifted by one character."""
  per_row = (len(ids) - 1) // batch_size
  count = per_row // seq_len
  rows = ids[:per_row * batch_size + 1]
  inputs = rows[:-1].reshape(batch_size, per_row)[:, :count * seq_len]
  targets = rows[1:].reshape(batch_size, per_row)[:, :count * seq_len]
  split = lambda m: m.reshape(batch_size, count, seq_len).transpose(1, 0, 2)
  return tf.data.Dataset.from_tensor_slices((split(inputs), split(targets)))


class CharGRU(tf.keras.Model):
  """(ids [batch, time], state [batch, units]) -> (logits [batch, time, vocab], new state)."""

  def __init__(self, vocab_size, embedding_dim, units):
    super(CharGRU, self).__init__()
    self.units = units
    self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
    if tf.test.is_gpu_available():
      self.gru = tf.keras.layers.CuDNNGRU(units, return_sequences=True, return_state=True,
                                          recurrent_initializer="glorot_uniform")
    else:
      self.gru = tf.keras.layers.GRU(units, return_sequences=True, return_state=True,
                                     recurrent_activation="sigmoid",
                                     recurrent_initializer="glorot_uniform")
    self.logits = tf.keras.layers.Dense(vocab_size)

  def zero_state(self, batch_size):
    return tf.zeros((batch_size, self.units))

  def call(self, ids, state):
    outputs, state = self.gru(self.embedding(ids), initial_state=state)
    return self.logits(outputs), state


def loss_fn(targets, logits):
  return tf.losses.sparse_softmax_cross_entropy(labels=targets, logits=logits)


def train(model, optimizer, dataset, epochs):
  """Stateful training: the state flows from window to window and restarts every epoch."""
  step = tf.train.get_or_create_global_step()
  for epoch in range(epochs):
    start, losses = time.time(), []
    state = model.zero_state(FLAGS.batch_size)
    for inputs, targets in dataset:
      with tf.GradientTape() as tape:
        logits, state = model(inputs, state)
        loss = loss_fn(targets, logits)
      grads = tape.gradient(loss, model.variables)
      optimizer.apply_gradients(zip(grads, model.variables), global_step=step)
      losses.append(loss.numpy())
    print("epoch %d: loss %.4f (%.1f s)" % (epoch + 1, np.mean(losses), time.time() - start))


def generate(model, table, start_string, num_generate, temperature):
  """`num_generate` characters sampled one at a time after `start_string`."""
  state = model.zero_state(1)
  ids = tf.expand_dims(table.encode(start_string), 0)
  generated = []
  for _ in range(num_generate):
    logits, state = model(ids, state)
    last = logits[:, -1, :]  # the prediction after the last character fed
    if temperature > 0:
      next_id = tf.multinomial(last / temperature, num_samples=1)[0, 0].numpy()
    else:
      next_id = tf.argmax(last[0]).numpy()
    generated.append(next_id)
    ids = tf.expand_dims([next_id], 0)
  return table.decode(generated)


def main(_):
  tf.set_random_seed(FLAGS.seed)
  with tf.gfile.GFile(FLAGS.data_file, "r") as f:
    text = f.read()
  table = CharTable(text)
  unknown = set(FLAGS.start_string) - set(table.chars)
  if unknown:
    raise ValueError("--start_string has characters the text lacks: %r" % sorted(unknown))
  dataset = windows(table.encode(text), FLAGS.batch_size, FLAGS.seq_len)
  print("%d characters, %d distinct; %s" % (len(text), len(table), dataset.output_shapes))

  model = CharGRU(len(table), FLAGS.embedding_dim, FLAGS.units)
  optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate)
  train(model, optimizer, dataset, FLAGS.epochs)

  model_dir = FLAGS.model_dir or tempfile.mkdtemp(prefix="text_generation_")
  checkpoint = tf.train.Checkpoint(optimizer=optimizer, model=model)
  path = checkpoint.save(os.path.join(model_dir, "ckpt"))
  restored = CharGRU(len(table), FLAGS.embedding_dim, FLAGS.units)
  tf.train.Checkpoint(model=restored).restore(tf.train.latest_checkpoint(model_dir))
  probe = tf.expand_dims(table.encode(text[:FLAGS.seq_len]), 0)
  difference = tf.reduce_max(tf.abs(model(probe, model.zero_state(1))[0] -
                                    restored(probe, restored.zero_state(1))[0]))
  print("saved %s; restored model's logits differ by %g" % (path, difference))

  sample = generate(restored, table, FLAGS.start_string, FLAGS.num_generate,
                    FLAGS.temperature)
  with tf.gfile.GFile(os.path.join(model_dir, "sample.txt"), "w") as f:
    f.write(sample)
  print("----- %d characters after %r at temperature %g -----"
        % (len(sample), FLAGS.start_string, FLAGS.temperature))
  print(FLAGS.start_string + sample)


if __name__ == "__main__":
  tf.app.run(main)
