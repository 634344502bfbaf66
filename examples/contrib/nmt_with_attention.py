"""Sequence-to-sequence translation with Bahdanau attention, eager execution, TF 1.x style.

What it shows (the APIs of TensorFlow's eager NMT-with-attention notebook, in our own code):
a toy corpus made here, Spanish number words to English ones for 0..999 ("Trescientos
cuarenta y dos." -> "three hundred forty two"), cleaned with `unicodedata` (accents
dropped) and regular expressions (punctuation split off), framed by <start>/<end>; word
indices padded with
`tf.keras.preprocessing.sequence.pad_sequences(padding='post')`; batches from
`tf.data.Dataset.from_tensor_slices(...).shuffle(...).batch(..., drop_remainder=True)`; a
GRU encoder (`tf.keras.layers.Embedding` + `tf.keras.layers.GRU`, or `CuDNNGRU` on a GPU,
with `return_sequences` and `return_state`); a decoder that scores every encoder output
against its state with additive (Bahdanau) attention, `V(tanh(W1(outputs) + W2(state)))`,
normalizes with `tf.nn.softmax(score, axis=1)`, feeds the attention-weighted context
(`tf.reduce_sum`) concatenated to the embedded previous word into its GRU, and predicts the
next word with `tf.keras.layers.Dense`; teacher forcing under `tf.GradientTape` with a
cross-entropy that masks the padding; `tf.train.AdamOptimizer`; `tf.train.Checkpoint`
restored into a fresh encoder/decoder; and greedy decoding that returns the words and the
attention weights of every output word.

  tfe-run examples/contrib/nmt_with_attention.py
  tfe-run examples/contrib/nmt_with_attention.py --epochs 20 --units 128
  tfe-run examples/contrib/nmt_with_attention.py --translate "Setecientos cuarenta y siete."

`--test_size` numbers whose words all occur elsewhere (like "ochocientos cuarenta y dos":
tens and units both spelled out) are held out of training; the trained model, restored from
its checkpoint, translates them. Each epoch prints `epoch N: loss X`; then every held-out
translation, `test accuracy: k/n`, the `--translate` sentences with their attention
matrices, and <model_dir>/attention.npz with the attention matrix (output words x source
words) of every held-out translation.
"""
import os
import re
import tempfile
import time
import unicodedata

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()

flags = tf.app.flags
flags.DEFINE_integer("epochs", 10, "Passes over the training pairs.")
flags.DEFINE_integer("batch_size", 32, "Sentence pairs per batch.")
flags.DEFINE_integer("embedding_dim", 32, "Width of the word vectors.")
flags.DEFINE_integer("units", 64, "GRU units of the encoder and the decoder.")
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate.")
flags.DEFINE_integer("numbers", 1000, "The corpus: the numbers 0..numbers-1 (<= 1000).")
flags.DEFINE_integer("test_size", 20, "Compositional numbers held out of training.")
flags.DEFINE_string("model_dir", None, "Where checkpoints and attention.npz go (default: a "
                    "new temporary directory).")
flags.DEFINE_multi_string("translate", [], "Extra Spanish sentences to translate.")
flags.DEFINE_integer("seed", 5, "Graph-level random seed (and the held-out choice).")
FLAGS = flags.FLAGS

SPANISH_UNITS = ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho",
                 "nueve", "diez", "once", "doce", "trece", "catorce", "quince", "dieciséis",
                 "diecisiete", "dieciocho", "diecinueve", "veinte", "veintiuno", "veintidós",
                 "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete",
                 "veintiocho", "veintinueve"]
SPANISH_TENS = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta",
                8: "ochenta", 9: "noventa"}
SPANISH_HUNDREDS = ["", "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos",
                    "seiscientos", "setecientos", "ochocientos", "novecientos"]
ENGLISH_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                 "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                 "sixteen", "seventeen", "eighteen", "nineteen"]
ENGLISH_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy",
                8: "eighty", 9: "ninety"}


def spanish(n):
  """The Spanish words for 0 <= n < 1000."""
  hundreds, rest = divmod(n, 100)
  if hundreds:
    if rest == 0:
      return "cien" if hundreds == 1 else SPANISH_HUNDREDS[hundreds]
    return SPANISH_HUNDREDS[hundreds] + " " + spanish(rest)
  if n < 30:
    return SPANISH_UNITS[n]
  tens, unit = divmod(n, 10)
  return SPANISH_TENS[tens] + ("" if unit == 0 else " y " + SPANISH_UNITS[unit])


def english(n):
  """The English words for 0 <= n < 1000 (American style: no "and")."""
  hundreds, rest = divmod(n, 100)
  if hundreds:
    return ENGLISH_UNITS[hundreds] + " hundred" + ("" if rest == 0 else " " + english(rest))
  if n < 20:
    return ENGLISH_UNITS[n]
  tens, unit = divmod(n, 10)
  return ENGLISH_TENS[tens] + ("" if unit == 0 else " " + ENGLISH_UNITS[unit])


def corpus(size):
  """(Spanish sentence, English sentence, number) for 0..size-1, the Spanish sentence
  capitalized and with a full stop, as a corpus file would have it."""
  return [(spanish(n).capitalize() + ".", english(n), n) for n in range(size)]


def strip_accents(text):
  return "".join(c for c in unicodedata.normalize("NFD", text)
                 if unicodedata.category(c) != "Mn")


def clean(sentence):
  """Lower case, no accents, punctuation as separate words, framed by <start> and <end>."""
  sentence = strip_accents(sentence.lower().strip())
  sentence = re.sub(r"([?.!,¿])", r" \1 ", sentence)
  sentence = re.sub(r"[^a-z?.!,¿]+", " ", sentence).strip()
  return "<start> " + sentence + " <end>"


class Vocabulary(object):
  """Word <-> index; index 0 is the padding."""

  def __init__(self, sentences):
    self.words = ["<pad>"] + sorted({w for s in sentences for w in s.split(" ")})
    self.index = {w: i for i, w in enumerate(self.words)}

  def __len__(self):
    return len(self.words)

  def encode(self, sentences, maxlen):
    return tf.keras.preprocessing.sequence.pad_sequences(
        [[self.index[w] for w in s.split(" ")] for s in sentences], maxlen=maxlen,
        padding="post")


def recurrent_layer(units):
  if tf.test.is_gpu_available():
    return tf.keras.layers.CuDNNGRU(units, return_sequences=True, return_state=True,
                                    recurrent_initializer="glorot_uniform")
  return tf.keras.layers.GRU(units, return_sequences=True, return_state=True,
                             recurrent_activation="sigmoid",
                             recurrent_initializer="glorot_uniform")


class Encoder(tf.keras.Model):
  """ids [batch, time] -> (outputs [batch, time, units], final state [batch, units])."""

  def __init__(self, vocab_size, embedding_dim, units):
    super(Encoder, self).__init__()
    self.units = units
    self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
    self.gru = recurrent_layer(units)

  def call(self, ids):
    batch = tf.shape(ids)[0]
    return self.gru(self.embedding(ids), initial_state=tf.zeros((batch, self.units)))


class AttentionDecoder(tf.keras.Model):
  """One step: (previous word [batch, 1], state, encoder outputs) -> (logits [batch, vocab],
  new state, attention weights [batch, source time, 1])."""

  def __init__(self, vocab_size, embedding_dim, units):
    super(AttentionDecoder, self).__init__()
    self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
    self.gru = recurrent_layer(units)
    self.keys = tf.keras.layers.Dense(units)      # W1, applied to the encoder outputs
    self.query = tf.keras.layers.Dense(units)     # W2, applied to the decoder state
    self.energy = tf.keras.layers.Dense(1)        # V
    self.out = tf.keras.layers.Dense(vocab_size)

  def call(self, word, state, encoder_outputs):
    score = self.energy(tf.nn.tanh(self.keys(encoder_outputs) +
                                   self.query(tf.expand_dims(state, 1))))
    weights = tf.nn.softmax(score, axis=1)
    context = tf.reduce_sum(weights * encoder_outputs, axis=1)
    inputs = tf.concat([tf.expand_dims(context, 1), self.embedding(word)], axis=-1)
    output, state = self.gru(inputs, initial_state=state)
    return self.out(tf.squeeze(output, 1)), state, weights


def masked_loss(targets, logits):
  """The cross-entropy summed over the words that are not padding, and their count."""
  mask = tf.cast(tf.not_equal(targets, 0), tf.float32)
  losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits)
  return tf.reduce_sum(losses * mask), tf.reduce_sum(mask)


def teacher_forced_loss(encoder, decoder, source, target, start_id):
  """The decoder reads the true previous word at every step (teacher forcing)."""
  encoder_outputs, state = encoder(source)
  word = tf.fill([tf.shape(target)[0], 1], start_id)
  total, count = 0., 0.
  for t in range(1, target.shape[1]):
    logits, state, _ = decoder(word, state, encoder_outputs)
    loss, words = masked_loss(target[:, t], logits)
    total, count = total + loss, count + words
    word = target[:, t:t + 1]
  return total / count


def translate(sentence, encoder, decoder, source_vocab, target_vocab, source_len, max_words):
  """Greedy decoding: (English words, attention weights [output words, source_len])."""
  ids = tf.convert_to_tensor(source_vocab.encode([clean(sentence)], source_len))
  encoder_outputs, state = encoder(ids)
  word = tf.expand_dims([target_vocab.index["<start>"]], 0)
  words, attention = [], []
  for _ in range(max_words):
    logits, state, weights = decoder(word, state, encoder_outputs)
    attention.append(tf.reshape(weights, [-1]).numpy())
    next_id = int(tf.argmax(logits[0]).numpy())
    if target_vocab.words[next_id] == "<end>":
      break
    words.append(target_vocab.words[next_id])
    word = tf.expand_dims([next_id], 0)
  return " ".join(words), np.stack(attention)


def main(_):
  tf.set_random_seed(FLAGS.seed)
  pairs = corpus(FLAGS.numbers)
  compositional = [n for n in range(31, FLAGS.numbers) if n % 10 and n % 100 > 30]
  held_out = set(np.random.RandomState(FLAGS.seed).choice(compositional, FLAGS.test_size,
                                                          replace=False))
  train_pairs = [p for p in pairs if p[2] not in held_out]
  test_pairs = [p for p in pairs if p[2] in held_out]

  sources = [clean(es) for es, _, _ in pairs]
  targets = [clean(en) for _, en, _ in pairs]
  source_vocab, target_vocab = Vocabulary(sources), Vocabulary(targets)
  source_len = max(len(s.split(" ")) for s in sources)
  target_len = max(len(s.split(" ")) for s in targets)
  train_source = source_vocab.encode([clean(es) for es, _, _ in train_pairs], source_len)
  train_target = target_vocab.encode([clean(en) for _, en, _ in train_pairs], target_len)
  print("%d training pairs, %d held out; vocabularies %d and %d words; e.g. %r -> %r"
        % (len(train_pairs), len(test_pairs), len(source_vocab), len(target_vocab),
           sources[47], targets[47]))
  dataset = tf.data.Dataset.from_tensor_slices((train_source, train_target)).shuffle(
      len(train_pairs)).batch(FLAGS.batch_size, drop_remainder=True)

  encoder = Encoder(len(source_vocab), FLAGS.embedding_dim, FLAGS.units)
  decoder = AttentionDecoder(len(target_vocab), FLAGS.embedding_dim, FLAGS.units)
  optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate)
  step = tf.train.get_or_create_global_step()
  start_id = target_vocab.index["<start>"]
  for epoch in range(FLAGS.epochs):
    start, losses = time.time(), []
    for source, target in dataset:
      with tf.GradientTape() as tape:
        loss = teacher_forced_loss(encoder, decoder, source, target, start_id)
      variables = encoder.variables + decoder.variables
      optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables),
                                global_step=step)
      losses.append(loss.numpy())
    print("epoch %d: loss %.4f (%.1f s)" % (epoch + 1, np.mean(losses), time.time() - start))

  model_dir = FLAGS.model_dir or tempfile.mkdtemp(prefix="nmt_with_attention_")
  path = tf.train.Checkpoint(optimizer=optimizer, encoder=encoder, decoder=decoder).save(
      os.path.join(model_dir, "ckpt"))
  encoder = Encoder(len(source_vocab), FLAGS.embedding_dim, FLAGS.units)
  decoder = AttentionDecoder(len(target_vocab), FLAGS.embedding_dim, FLAGS.units)
  tf.train.Checkpoint(encoder=encoder, decoder=decoder).restore(
      tf.train.latest_checkpoint(model_dir))
  print("saved %s; translating with a fresh encoder and decoder restored from it" % path)

  attention, correct = {}, 0
  for i, (es, en, _) in enumerate(test_pairs):
    result, weights = translate(es, encoder, decoder, source_vocab, target_vocab,
                                source_len, target_len)
    attention["%s -> %s" % (es, result)] = weights
    correct += result == en
    print("%-28r -> %-22r %s" % (es, result, "ok" if result == en else "expected %r" % en))
  print("test accuracy: %d/%d" % (correct, len(test_pairs)))
  for es in FLAGS.translate:
    result, weights = translate(es, encoder, decoder, source_vocab, target_vocab,
                                source_len, target_len)
    print("%r -> %r; attention:\n%s" % (es, result, np.round(weights, 2)))
  np.savez(os.path.join(model_dir, "attention.npz"), **attention)


if __name__ == "__main__":
  tf.app.run(main)
