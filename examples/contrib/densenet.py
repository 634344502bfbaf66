"""A DenseNet trained with eager execution on upscaled digit images, TF 1.x style.

What it shows (the APIs of TensorFlow's contrib eager DenseNet example, in our own code):
`tf.keras.Model` subclasses kept in Python lists (dense blocks, transition layers, their
convolution layers); each layer of a dense block sees the concatenation (`tf.concat`) of all
earlier feature maps; optional bottleneck 1x1 convolutions, compression in the transition
layers, `Dropout`, an optional 7x7/2 + max-pool stem (`--pool_initial`); kernels regularized
with `tf.keras.regularizers.l2`, whose penalties (`model.losses`) are added to the loss with
`tf.add_n`; `BatchNormalization` with `training=True/False`; `tfe.defun` (`--compile`).

  tfe-run examples/contrib/densenet.py                        # DenseNet-BC, depth 40, k=12
  tfe-run examples/contrib/densenet.py --compile
  tfe-run examples/contrib/densenet.py --num_blocks 2 --layers_per_block 2 --growth_rate 4
  tfe-run examples/contrib/densenet.py --nobottleneck --compression 1 --pool_initial

Layers per block: --layers_per_block N for every block, a list (2,4,3) one per block, or -1
to derive them from --depth as the paper does for 3 blocks: (depth - 4) / 3, halved with
bottlenecks. The images are the 8x8 UCI digits of examples/data/digits.npz resized to
--image_size with three channels. The script prints the feature-map shape after every block,
the loss of every step (cross-entropy + L2 penalty), then the checks the tests read.
"""
import os
import time

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

flags = tf.app.flags
flags.DEFINE_integer("depth", 40, "Depth of the network (used with --layers_per_block -1).")
flags.DEFINE_integer("growth_rate", 12, "Feature maps each layer adds (k).")
flags.DEFINE_integer("num_blocks", 3, "Dense blocks.")
flags.DEFINE_list("layers_per_block", ["-1"], "Layers per dense block: one number, one per "
                  "block, or -1 to derive it from --depth.")
flags.DEFINE_bool("bottleneck", True, "1x1 convolution (4k maps) before each 3x3 one.")
flags.DEFINE_float("compression", 0.5, "Fraction of the feature maps a transition keeps.")
flags.DEFINE_float("weight_decay", 1e-4, "L2 penalty factor of the convolution kernels.")
flags.DEFINE_float("dropout_rate", 0.0, "Dropout after each 3x3 convolution.")
flags.DEFINE_bool("pool_initial", False, "Stem: 7x7/2 conv and 3x3/2 max pool instead of "
                  "a 3x3/1 conv.")
flags.DEFINE_enum("data_format", "channels_last", ["channels_last", "channels_first"],
                  "Layout of the images: NHWC or NCHW.")
flags.DEFINE_integer("image_size", 32, "Height and width the digits are resized to.")
flags.DEFINE_integer("batch_size", 16, "Images per training step.")
flags.DEFINE_integer("num_examples", 256, "Digits in the training set.")
flags.DEFINE_integer("steps", 50, "Training steps.")
flags.DEFINE_float("learning_rate", 0.1, "Learning rate of the momentum optimizer.")
flags.DEFINE_bool("compile", False, "Wrap model.call and the training step in tfe.defun.")
flags.DEFINE_integer("seed", 1, "Graph-level random seed.")
FLAGS = flags.FLAGS

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data",
                      "digits.npz")
NUM_CLASSES = 10


def conv(filters, size, data_format, weight_decay, strides=(1, 1)):
  """The DenseNet convolution: no bias (batch norm follows), He init, L2-regularized."""
  return tf.keras.layers.Conv2D(filters, size, strides=strides, padding="same",
                                use_bias=False, data_format=data_format,
                                kernel_initializer="he_normal",
                                kernel_regularizer=tf.keras.regularizers.l2(weight_decay))


class CompositeLayer(tf.keras.Model):
  """BN -> ReLU -> [1x1 conv to 4k maps -> BN -> ReLU] -> 3x3 conv to k maps -> dropout."""

  def __init__(self, growth_rate, data_format, bottleneck, weight_decay, dropout_rate):
    super(CompositeLayer, self).__init__()
    axis = -1 if data_format == "channels_last" else 1
    self.stages = []   # (batch norm, convolution) pairs
    if bottleneck:
      self.stages.append((tf.keras.layers.BatchNormalization(axis=axis),
                          conv(4 * growth_rate, (1, 1), data_format, weight_decay)))
    self.stages.append((tf.keras.layers.BatchNormalization(axis=axis),
                        conv(growth_rate, (3, 3), data_format, weight_decay)))
    self.dropout = tf.keras.layers.Dropout(dropout_rate)

  def call(self, x, training=True):
    for norm, convolution in self.stages:
      x = convolution(tf.nn.relu(norm(x, training=training)))
    return self.dropout(x, training=training)


class DenseBlock(tf.keras.Model):
  """Layers whose inputs are the concatenated outputs of all the layers before them."""

  def __init__(self, num_layers, growth_rate, data_format, bottleneck, weight_decay,
               dropout_rate):
    super(DenseBlock, self).__init__()
    self.axis = -1 if data_format == "channels_last" else 1
    self.composite_layers = [
        CompositeLayer(growth_rate, data_format, bottleneck, weight_decay, dropout_rate)
        for _ in range(num_layers)]

  def call(self, x, training=True):
    for layer in self.composite_layers:
      x = tf.concat([x, layer(x, training=training)], axis=self.axis)
    return x


class Transition(tf.keras.Model):
  """BN -> ReLU -> 1x1 conv (compressing the maps) -> 2x2 average pooling."""

  def __init__(self, filters, data_format, weight_decay):
    super(Transition, self).__init__()
    axis = -1 if data_format == "channels_last" else 1
    self.norm = tf.keras.layers.BatchNormalization(axis=axis)
    self.conv = conv(filters, (1, 1), data_format, weight_decay)
    self.pool = tf.keras.layers.AveragePooling2D(data_format=data_format)

  def call(self, x, training=True):
    return self.pool(self.conv(tf.nn.relu(self.norm(x, training=training))))


def block_sizes(depth, num_blocks, layers_per_block, bottleneck):
  """Layers in each dense block, from the flags."""
  if len(layers_per_block) > 1:
    if len(layers_per_block) != num_blocks:
      raise ValueError("--layers_per_block needs one number per block (%d)" % num_blocks)
    return layers_per_block
  if layers_per_block[0] != -1:
    return layers_per_block * num_blocks
  if num_blocks != 3 or (depth - 4) % 3:
    raise ValueError("--layers_per_block -1 needs 3 blocks and a depth of 3N+4")
  per_block = (depth - 4) // 3
  return [per_block // 2 if bottleneck else per_block] * num_blocks


class DenseNet(tf.keras.Model):
  """Stem convolution, dense blocks separated by transitions, BN-ReLU, global average
  pooling and a dense classifier. `feature_shapes` holds the shape after each stage of the
  last call."""

  def __init__(self, sizes, growth_rate, classes, data_format, bottleneck=True,
               compression=0.5, weight_decay=1e-4, dropout_rate=0.0, pool_initial=False):
    super(DenseNet, self).__init__()
    axis = -1 if data_format == "channels_last" else 1
    channels = 2 * growth_rate
    self.stem = [conv(channels, (7, 7) if pool_initial else (3, 3), data_format,
                      weight_decay, strides=(2, 2) if pool_initial else (1, 1))]
    self.stem_norm = None
    if pool_initial:
      self.stem_norm = tf.keras.layers.BatchNormalization(axis=axis)
      self.stem.append(tf.keras.layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same",
                                                    data_format=data_format))
    self.stages = []
    for i, size in enumerate(sizes):
      self.stages.append(DenseBlock(size, growth_rate, data_format, bottleneck, weight_decay,
                                    dropout_rate))
      channels += size * growth_rate
      if i + 1 < len(sizes):
        channels = int(channels * compression)
        self.stages.append(Transition(channels, data_format, weight_decay))
    self.final_norm = tf.keras.layers.BatchNormalization(axis=axis)
    self.pool = tf.keras.layers.GlobalAveragePooling2D(data_format=data_format)
    self.classifier = tf.keras.layers.Dense(classes)
    self.feature_shapes = []

  def call(self, images, training=True):
    x = self.stem[0](images)
    if self.stem_norm is not None:
      x = self.stem[1](tf.nn.relu(self.stem_norm(x, training=training)))
    shapes = [("stem", x.shape.as_list())]
    for stage in self.stages:
      x = stage(x, training=training)
      shapes.append((type(stage).__name__, x.shape.as_list()))
    self.feature_shapes = shapes
    x = tf.nn.relu(self.final_norm(x, training=training))
    return self.classifier(self.pool(x))


def load_digits(image_size, num_examples, data_format):
  """Float images in [0, 1] of shape [n, size, size, 3] (or [n, 3, size, size]), labels."""
  with np.load(DIGITS) as data:
    images = data["images"][:num_examples, :, :, None].astype(np.float32) / 16.0
    labels = data["labels"][:num_examples].astype(np.int32)
  images = tf.image.grayscale_to_rgb(tf.image.resize_images(images, [image_size] * 2))
  if data_format == "channels_first":
    images = tf.transpose(images, [0, 3, 1, 2])
  return images, tf.constant(labels)


def train_step(model, optimizer, images, labels):
  """One step on cross-entropy + the kernels' L2 penalties; returns both parts."""
  with tf.GradientTape() as tape:
    logits = model(images, training=True)
    cross_entropy = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    penalty = tf.add_n(model.losses)
    loss = cross_entropy + penalty
  grads = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(grads, model.trainable_variables))
  return loss, cross_entropy, penalty


def checks(model, eager_call, images, labels):
  """Prints what the tests check: shapes, the L2 penalty, eager == defun, batch norm."""
  batch = images[:FLAGS.batch_size]
  logits = model(batch, training=False)
  print("logits shape: %s" % logits.shape.as_list())
  kernels = [v for v in model.trainable_variables if "kernel" in v.name and
             len(v.shape) == 4]
  by_hand = FLAGS.weight_decay * tf.add_n([tf.reduce_sum(tf.square(k)) for k in kernels])
  print("l2 penalty: %d terms for %d conv kernels, difference from weight_decay * sum of "
        "squares %.3g" % (len(model.losses), len(kernels),
                          abs(float(tf.add_n(model.losses) - by_hand))))
  defun_call = model.call if FLAGS.compile else tfe.defun(model.call)
  # Dropout draws different masks in the two calls: then only inference can match.
  for training in (False, True) if FLAGS.dropout_rate == 0 else (False,):
    difference = np.max(np.abs(eager_call(batch, training=training)
                               - defun_call(batch, training=training)))
    print("eager vs defun (training=%s): max difference %.3g" % (training, difference))
  # With moving statistics an image's logits do not depend on the rest of its batch.
  others = tf.concat([batch[:1], tf.zeros_like(batch[1:])], 0)
  for training in (False, True):
    difference = np.max(np.abs(eager_call(batch, training=training)[0]
                               - eager_call(others, training=training)[0]))
    print("training=%s, first image's logits with other batch-mates: max difference %.3g"
          % (training, difference))
  size = FLAGS.batch_size
  correct = [np.argmax(model(images[i:i + size], training=False), 1) == labels[i:i + size]
             for i in range(0, images.shape[0] - size + 1, size)]
  print("train accuracy (inference mode): %.3f" % np.mean(correct))


def main(_):
  tf.set_random_seed(FLAGS.seed)
  sizes = block_sizes(FLAGS.depth, FLAGS.num_blocks, [int(n) for n in FLAGS.layers_per_block],
                      FLAGS.bottleneck)
  images, labels = load_digits(FLAGS.image_size, FLAGS.num_examples, FLAGS.data_format)
  model = DenseNet(sizes, FLAGS.growth_rate, NUM_CLASSES, FLAGS.data_format,
                   bottleneck=FLAGS.bottleneck, compression=FLAGS.compression,
                   weight_decay=FLAGS.weight_decay, dropout_rate=FLAGS.dropout_rate,
                   pool_initial=FLAGS.pool_initial)
  eager_call = model.call
  step_fn = train_step
  if FLAGS.compile:
    model.call = tfe.defun(model.call)
    step_fn = tfe.defun(train_step)
  optimizer = tf.train.MomentumOptimizer(FLAGS.learning_rate, momentum=0.9)
  dataset = (tf.data.Dataset.from_tensor_slices((images, labels))
             .shuffle(FLAGS.num_examples, seed=FLAGS.seed).repeat()
             .batch(FLAGS.batch_size).take(FLAGS.steps))
  start = time.time()
  for step, (batch_images, batch_labels) in enumerate(dataset, start=1):
    loss, cross_entropy, penalty = step_fn(model, optimizer, batch_images, batch_labels)
    if step == 1:
      print("layers per block: %s" % sizes)
      for name, shape in model.feature_shapes:
        print("after %s: %s" % (name, shape))
      print("trainable parameters: %d" % sum(
          int(np.prod(v.shape.as_list())) for v in model.trainable_variables))
    print("step %d: loss %.4f (cross-entropy %.4f, l2 %.4f)"
          % (step, float(loss), float(cross_entropy), float(penalty)))
  print("trained %d steps in %.1f s" % (FLAGS.steps, time.time() - start))
  checks(model, eager_call, images, labels)


if __name__ == "__main__":
  tf.app.run(main)
