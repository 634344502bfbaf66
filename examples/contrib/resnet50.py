"""A ResNet-50 trained with eager execution on upscaled digit images, TF 1.x style.

What it shows (the APIs of TensorFlow's contrib eager ResNet-50 example, in our own code):
a `tf.keras.Model` subclass built from nested Models -- bottleneck blocks with an identity
shortcut or a strided 1x1 projection shortcut, each convolution followed by
`BatchNormalization` -- for `channels_last` or `channels_first` images; a classifier head or
a feature extractor (`--pooling avg|max`); `training=True` (batch statistics, moving averages
updated) versus `training=False` (moving averages); `tfe.defun` compiling `model.call` and
the whole training step (`--compile`); `tf.losses.softmax_cross_entropy` on one-hot labels;
`tf.train.MomentumOptimizer` with the global step; `tf.contrib.summary` scalars (`--logdir`);
`tfe.execution_mode(tfe.ASYNC)` and `tfe.async_wait()`.

  tfe-run examples/contrib/resnet50.py                  # ResNet-50 widths and depth
  tfe-run examples/contrib/resnet50.py --compile        # model.call and train step compiled
  tfe-run examples/contrib/resnet50.py --base_filters 8 --stage_blocks 1,1,1,1 --steps 30
  tfe-run examples/contrib/resnet50.py --data_format channels_first --image_size 64

The images are the 8x8 UCI digits of examples/data/digits.npz, resized to --image_size and
repeated over three colour channels; --num_examples of them are the training set. The script
prints the loss of every step, then the training accuracy and a few checks:
the logits' shape, the largest difference between eager and `tfe.defun` outputs, and that
inference (moving statistics) does not depend on what else is in the batch.
"""
import os
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_enum("data_format", "channels_last", ["channels_last", "channels_first"],
                  "Layout of the images: NHWC or NCHW.")
flags.DEFINE_integer("image_size", 32, "Height and width the digits are resized to.")
flags.DEFINE_integer("batch_size", 16, "Images per training step.")
flags.DEFINE_integer("num_examples", 256, "Digits in the training set.")
flags.DEFINE_integer("steps", 50, "Training steps.")
flags.DEFINE_float("learning_rate", 0.05, "Learning rate of the momentum optimizer.")
flags.DEFINE_integer("base_filters", 64, "Filters of the first convolution; ResNet-50: 64.")
flags.DEFINE_list("stage_blocks", ["3", "4", "6", "3"],
                  "Bottleneck blocks in stages 2-5; ResNet-50: 3,4,6,3.")
flags.DEFINE_enum("pooling", None, ["avg", "max"], "Report the shape of the headless "
                  "model's pooled features too.")
flags.DEFINE_bool("compile", False, "Wrap model.call and the training step in tfe.defun.")
flags.DEFINE_bool("async", False, "Train under tfe.execution_mode(tfe.ASYNC).")
flags.DEFINE_string("logdir", None, "Write the loss as a TensorBoard summary here.")
flags.DEFINE_integer("seed", 1, "Graph-level random seed.")
FLAGS = flags.FLAGS

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data",
                      "digits.npz")
NUM_CLASSES = 10


class Bottleneck(tf.keras.Model):
  """1x1 conv (reduce) -> kxk conv -> 1x1 conv (expand), batch norm after each; added to a
  shortcut, which is the input itself or, with `project`, a strided 1x1 conv + batch norm."""

  def __init__(self, filters, stage, block, data_format, strides=(1, 1), project=False,
               kernel_size=3):
    super(Bottleneck, self).__init__(name="")
    reduce_filters, middle_filters, out_filters = filters
    channel_axis = 3 if data_format == "channels_last" else 1
    prefix = "%d%s_branch" % (stage, block)

    def conv(n, size, suffix, stride=(1, 1), padding="valid"):
      return tf.keras.layers.Conv2D(n, size, strides=stride, padding=padding,
                                    data_format=data_format, name="res" + prefix + suffix)

    def norm(suffix):
      return tf.keras.layers.BatchNormalization(axis=channel_axis, name="bn" + prefix + suffix)

    self.path = [(conv(reduce_filters, (1, 1), "2a", strides), norm("2a")),
                 (conv(middle_filters, kernel_size, "2b", padding="same"), norm("2b")),
                 (conv(out_filters, (1, 1), "2c"), norm("2c"))]
    self.project = project
    if project:
      self.shortcut_conv = conv(out_filters, (1, 1), "1", strides)
      self.shortcut_norm = norm("1")

  def call(self, inputs, training=False):
    x = inputs
    for i, (c, n) in enumerate(self.path):
      x = n(c(x), training=training)
      if i < len(self.path) - 1:
        x = tf.nn.relu(x)
    shortcut = inputs
    if self.project:
      shortcut = self.shortcut_norm(self.shortcut_conv(inputs), training=training)
    return tf.nn.relu(x + shortcut)


class ResNet50(tf.keras.Model):
  """Stem (7x7/2 conv, batch norm, 3x3/2 max pool), four stages of bottleneck blocks whose
  first block projects (stride 2 from stage 3 on), then global average pooling and a dense
  layer -- or, without the top, the feature map itself or its avg/max pooling."""

  def __init__(self, data_format, classes=NUM_CLASSES, include_top=True, pooling=None,
               base_filters=64, stage_blocks=(3, 4, 6, 3)):
    super(ResNet50, self).__init__(name="resnet50")
    if data_format not in ("channels_first", "channels_last"):
      raise ValueError("Unknown data_format: %s" % data_format)
    channel_axis = 3 if data_format == "channels_last" else 1
    self.spatial_axes = [1, 2] if data_format == "channels_last" else [2, 3]
    self.include_top, self.pooling = include_top, pooling

    self.conv1 = tf.keras.layers.Conv2D(base_filters, (7, 7), strides=(2, 2), padding="same",
                                        data_format=data_format, name="conv1")
    self.bn_conv1 = tf.keras.layers.BatchNormalization(axis=channel_axis, name="bn_conv1")
    self.max_pool = tf.keras.layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same",
                                                 data_format=data_format)
    self.blocks = []
    for stage, count in enumerate(stage_blocks, start=2):
      width = base_filters * 2 ** (stage - 2)
      filters = (width, width, 4 * width)
      for index in range(count):
        block = Bottleneck(filters, stage, "abcdefghijklmnopqrstuvwxyz"[index], data_format,
                           strides=(2, 2) if stage > 2 and index == 0 else (1, 1),
                           project=index == 0)
        self.blocks.append(block)
    if include_top:
      self.global_pool = tf.keras.layers.GlobalAveragePooling2D(data_format=data_format)
      self.fc = tf.keras.layers.Dense(classes, name="fc%d" % classes)
    elif pooling == "max":
      self.global_pool = tf.keras.layers.GlobalMaxPooling2D(data_format=data_format)

  def call(self, images, training=True):
    x = tf.nn.relu(self.bn_conv1(self.conv1(images), training=training))
    x = self.max_pool(x)
    for block in self.blocks:
      x = block(x, training=training)
    if self.include_top:
      return self.fc(self.global_pool(x))
    if self.pooling == "avg":
      return tf.reduce_mean(x, self.spatial_axes)
    if self.pooling == "max":
      return self.global_pool(x)
    return x


def load_digits(image_size, num_examples, data_format):
  """Float images in [0, 1] of shape [n, size, size, 3] (or [n, 3, size, size]), labels."""
  with np.load(DIGITS) as data:
    images = data["images"][:num_examples, :, :, None].astype(np.float32) / 16.0
    labels = data["labels"][:num_examples].astype(np.int32)
  images = tf.image.grayscale_to_rgb(tf.image.resize_images(images, [image_size] * 2))
  if data_format == "channels_first":
    images = tf.transpose(images, [0, 3, 1, 2])
  return images, tf.one_hot(labels, NUM_CLASSES)


def train_step(model, optimizer, images, onehot_labels):
  with tf.GradientTape() as tape:
    logits = model(images, training=True)
    loss = tf.losses.softmax_cross_entropy(onehot_labels, logits)
  variables = model.trainable_variables
  grads = tape.gradient(loss, variables)
  optimizer.apply_gradients(zip(grads, variables),
                            global_step=tf.train.get_or_create_global_step())
  return loss


def train(model, step_fn, optimizer, images, labels):
  dataset = (tf.data.Dataset.from_tensor_slices((images, labels))
             .shuffle(FLAGS.num_examples, seed=FLAGS.seed).repeat()
             .batch(FLAGS.batch_size).take(FLAGS.steps))
  mode = tfe.ASYNC if FLAGS["async"].value else tfe.SYNC
  start = time.time()
  with tfe.execution_mode(mode):
    for batch_images, batch_labels in dataset:
      loss = step_fn(model, optimizer, batch_images, batch_labels)
      step = int(tf.train.get_global_step())
      print("step %d: loss %.4f" % (step, float(loss)))
      if FLAGS.logdir:
        tf.contrib.summary.scalar("loss", loss)
    tfe.async_wait()
  print("trained %d steps in %.1f s" % (FLAGS.steps, time.time() - start))


def checks(model, eager_call, images, labels):
  """Prints what the tests check: accuracy, shapes, eager == defun, moving statistics."""
  batch = images[:FLAGS.batch_size]
  print("train accuracy (inference mode): %.3f" % accuracy(model, images, labels))
  print("logits shape: %s" % model(batch, training=False).shape.as_list())
  defun_call = model.call if FLAGS.compile else tfe.defun(model.call)
  for training in (False, True):
    difference = np.max(np.abs(eager_call(batch, training=training)
                               - defun_call(batch, training=training)))
    print("eager vs defun (training=%s): max difference %.3g" % (training, difference))
  # Inference normalizes with the moving averages, training with the batch's statistics.
  bn, features = model.bn_conv1, model.conv1(batch)
  channels_last = FLAGS.data_format == "channels_last"

  def normalized(mean, variance):
    def channel(v):
      return v if channels_last else tf.reshape(v, [-1, 1, 1])
    scale = tf.rsqrt(variance + bn.epsilon) * bn.gamma
    return (features - channel(mean)) * channel(scale) + channel(bn.beta)

  print("bn_conv1 inference vs moving-statistics formula: max difference %.3g" % np.max(
      np.abs(bn(features, training=False) - normalized(bn.moving_mean, bn.moving_variance))))
  batch_mean, batch_variance = tf.nn.moments(features, [0, 1, 2] if channels_last else [0, 2, 3])
  print("bn_conv1 training vs batch-statistics formula: max difference %.3g" % np.max(
      np.abs(bn(features, training=True) - normalized(batch_mean, batch_variance))))
  # With moving statistics an image's logits do not depend on the rest of its batch.
  others = tf.concat([batch[:1], tf.zeros_like(batch[1:])], 0)
  for training in (False, True):
    difference = np.max(np.abs(eager_call(batch, training=training)[0]
                               - eager_call(others, training=training)[0]))
    print("training=%s, first image's logits with other batch-mates: max difference %.3g"
          % (training, difference))


def accuracy(model, images, labels):
  """Inference-mode accuracy, batch by batch (one batch shape: no new compilations)."""
  size = FLAGS.batch_size
  correct = [np.argmax(model(images[i:i + size], training=False), 1)
             == np.argmax(labels[i:i + size], 1)
             for i in range(0, images.shape[0] - size + 1, size)]
  return np.mean(correct)


def main(_):
  tf.set_random_seed(FLAGS.seed)
  blocks = [int(n) for n in FLAGS.stage_blocks]
  device = "/gpu:0" if tfe.num_gpus() else "/cpu:0"
  with tf.device(device):
    images, labels = load_digits(FLAGS.image_size, FLAGS.num_examples, FLAGS.data_format)
    model = ResNet50(FLAGS.data_format, base_filters=FLAGS.base_filters, stage_blocks=blocks)
    eager_call = model.call
    step_fn = train_step
    if FLAGS.compile:
      model.call = tfe.defun(model.call)
      step_fn = tfe.defun(train_step)
    optimizer = tf.train.MomentumOptimizer(FLAGS.learning_rate, momentum=0.9)
    if FLAGS.logdir:
      writer = tf.contrib.summary.create_file_writer(FLAGS.logdir)
      with writer.as_default(), tf.contrib.summary.always_record_summaries():
        train(model, step_fn, optimizer, images, labels)
    else:
      train(model, step_fn, optimizer, images, labels)
    checks(model, eager_call, images, labels)
    if FLAGS.pooling:
      headless = ResNet50(FLAGS.data_format, include_top=False, pooling=FLAGS.pooling,
                          base_filters=FLAGS.base_filters, stage_blocks=blocks)
      print("%s-pooled features shape: %s"
            % (FLAGS.pooling, headless(images[:2], training=False).shape.as_list()))


if __name__ == "__main__":
  tf.app.run(main)
