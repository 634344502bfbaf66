"""Trains the digit classifier as a TensorFlow 1.x graph program: an initializable iterator
over placeholders feeds it; Saver checkpoints, FileWriter summaries, resume.

  tfe-run examples/mnist_graph.py                  # the shipped 8x8 digits, CPU
  tfe-run examples/mnist_graph.py --epochs 5 --model_dir /tmp/mnist_graph

The same model as examples/mnist_eager.py, written the TF 1.x graph way: build the graph
once (dataset -> iterator -> model -> loss -> train op, summaries), then run it epoch by
epoch in a tf.Session until `tf.errors.OutOfRangeError` ends each epoch. Every
`sess.run(train_op)` is one compiled XLA computation. Each epoch evaluates on the held-out
digits (the same iterator, re-initialized with the test set) and saves a checkpoint; a run
with the same --model_dir restores the latest one and goes on from there:

  tensorboard --logdir /tmp/mnist_graph
"""
import os
import time

import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_integer("epochs", 10, "Number of epochs to train (more after a resume).")
flags.DEFINE_integer("batch_size", 32, "Batch size for training and evaluation.")
flags.DEFINE_float("learning_rate", 0.002, "Learning rate of the Adam optimizer.")
flags.DEFINE_string("model_dir", "/tmp/mnist_graph", "Checkpoints and TensorBoard summaries.")
FLAGS = flags.FLAGS

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits.npz")
NUM_CLASSES = 10


def model(images, training):
  """Two convolutions with max pooling, then two dense layers (tf.layers, TF 1.x style)."""
  x = tf.reshape(images, [-1, 8, 8, 1])
  x = tf.layers.conv2d(x, 32, 3, padding="same", activation=tf.nn.relu, name="conv1")
  x = tf.layers.max_pooling2d(x, 2, 2, padding="same")
  x = tf.layers.conv2d(x, 64, 3, padding="same", activation=tf.nn.relu, name="conv2")
  x = tf.layers.max_pooling2d(x, 2, 2, padding="same")
  x = tf.layers.dense(tf.layers.flatten(x), 128, activation=tf.nn.relu, name="dense")
  x = tf.layers.dropout(x, 0.3, training=training)
  return tf.layers.dense(x, NUM_CLASSES, name="logits")


def main(_):
  tf.set_random_seed(0)
  with np.load(DIGITS) as data:
    images = data["images"].astype(np.float32) / 16.0
    labels = data["labels"].astype(np.int32)
  print("Training on 1437 8x8 images (UCI digits from %s)" % DIGITS)

  # The graph: one iterator over placeholders, so the train and test sets share it.
  images_in = tf.placeholder(tf.float32, [None, 8, 8], name="images")
  labels_in = tf.placeholder(tf.int32, [None], name="labels")
  dataset = tf.data.Dataset.from_tensor_slices((images_in, labels_in))
  dataset = dataset.shuffle(1437, seed=0).batch(FLAGS.batch_size)
  iterator = dataset.make_initializable_iterator()
  batch_images, batch_labels = iterator.get_next()

  training = tf.placeholder_with_default(False, [], name="training")
  logits = model(batch_images, training)
  loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
      logits=logits, labels=batch_labels))
  correct = tf.equal(tf.argmax(logits, axis=1, output_type=tf.int32), batch_labels)
  accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
  global_step = tf.train.get_or_create_global_step()
  train_op = tf.train.AdamOptimizer(FLAGS.learning_rate).minimize(loss,
                                                                 global_step=global_step)
  epoch = tf.Variable(0, dtype=tf.int64, trainable=False, name="epoch")
  next_epoch = tf.assign_add(epoch, 1)
  tf.summary.scalar("loss", loss)
  tf.summary.scalar("accuracy", accuracy)
  summaries = tf.summary.merge_all()
  saver = tf.train.Saver(max_to_keep=3)

  with tf.Session() as sess:
    latest = tf.train.latest_checkpoint(FLAGS.model_dir)
    if latest:
      saver.restore(sess, latest)
      print("Restored %s: epoch %d, global step %d"
            % (latest, sess.run(epoch), sess.run(global_step)))
    else:
      sess.run(tf.global_variables_initializer())
    train_writer = tf.summary.FileWriter(os.path.join(FLAGS.model_dir, "train"), sess.graph)
    test_writer = tf.summary.FileWriter(os.path.join(FLAGS.model_dir, "test"))
    last_epoch = sess.run(epoch) + FLAGS.epochs
    for _ in range(FLAGS.epochs):
      start = time.time()
      current = sess.run(next_epoch)
      sess.run(iterator.initializer, {images_in: images[:1437], labels_in: labels[:1437]})
      losses = []
      try:
        while True:
          _, loss_value, summary, step = sess.run([train_op, loss, summaries, global_step],
                                                  {training: True})
          losses.append(loss_value)
          train_writer.add_summary(summary, step)
      except tf.errors.OutOfRangeError:
        pass
      sess.run(iterator.initializer, {images_in: images[1437:], labels_in: labels[1437:]})
      test_losses, test_correct = [], []
      try:
        while True:
          loss_value, batch_correct = sess.run([loss, correct])
          test_losses.append(loss_value * len(batch_correct))
          test_correct.extend(batch_correct)
      except tf.errors.OutOfRangeError:
        pass
      test_loss = sum(test_losses) / len(test_correct)
      test_accuracy = float(np.mean(test_correct))
      step = sess.run(global_step)
      test_writer.add_summary(tf.Summary(value=[
          tf.Summary.Value(tag="loss", simple_value=test_loss),
          tf.Summary.Value(tag="accuracy", simple_value=test_accuracy)]), step)
      save_path = saver.save(sess, os.path.join(FLAGS.model_dir, "model.ckpt"),
                             global_step=global_step)
      print("Epoch %d/%d, global step %d (%.1f s): train loss %.4f; test loss %.4f, "
            "accuracy %.2f%%; saved %s" % (current, last_epoch, step, time.time() - start,
                                          np.mean(losses), test_loss, 100 * test_accuracy,
                                          save_path))
    train_writer.close()
    test_writer.close()


if __name__ == "__main__":
  tf.app.run()
