"""`tf.keras.applications.DenseNet121` / `DenseNet169` / `DenseNet201` (module `densenet`).

The classifier is named `fc1000`, as in TF 1.15 (keras_applications 1.0.8).
"""
from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras.applications import imagenet_utils
from tfe_compat.keras.layers import (convolutional, convolutional_reshaping, core, merge,
                                     normalization)
from tfe_compat.keras.layers import pooling as pooling_layers

_BASE = "https://github.com/keras-team/keras-applications/releases/download/densenet/"
_HASHES = {121: ("9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738"),
           169: ("d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b"),
           201: ("1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1")}
_BLOCKS = {121: (6, 12, 24, 16), 169: (6, 12, 32, 32), 201: (6, 12, 48, 32)}


def _bn_axis():
  return 3 if backend.image_data_format() == "channels_last" else 1


def _bn(name):
  return normalization.BatchNormalization(axis=_bn_axis(), epsilon=1.001e-5, name=name)


def _conv_block(x, growth_rate, name):
  x1 = _bn(name + "_0_bn")(x)
  x1 = core.Activation("relu", name=name + "_0_relu")(x1)
  x1 = convolutional.Conv2D(4 * growth_rate, 1, use_bias=False, name=name + "_1_conv")(x1)
  x1 = _bn(name + "_1_bn")(x1)
  x1 = core.Activation("relu", name=name + "_1_relu")(x1)
  x1 = convolutional.Conv2D(growth_rate, 3, padding="same", use_bias=False,
                            name=name + "_2_conv")(x1)
  return merge.Concatenate(axis=_bn_axis(), name=name + "_concat")([x, x1])


def _transition_block(x, reduction, name):
  x = _bn(name + "_bn")(x)
  x = core.Activation("relu", name=name + "_relu")(x)
  x = convolutional.Conv2D(int(x.shape.as_list()[_bn_axis()] * reduction), 1, use_bias=False,
                           name=name + "_conv")(x)
  return pooling_layers.AveragePooling2D(2, strides=2, name=name + "_pool")(x)


def _densenet(depth, include_top, weights, input_tensor, input_shape, pooling, classes):
  img_input = imagenet_utils.model_input(weights, include_top, classes, input_tensor,
                                         input_shape, 224, 32)
  x = convolutional_reshaping.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
  x = convolutional.Conv2D(64, 7, strides=2, use_bias=False, name="conv1/conv")(x)
  x = _bn("conv1/bn")(x)
  x = core.Activation("relu", name="conv1/relu")(x)
  x = convolutional_reshaping.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
  x = pooling_layers.MaxPooling2D(3, strides=2, name="pool1")(x)
  blocks = _BLOCKS[depth]
  for i, count in enumerate(blocks):
    for j in range(count):
      x = _conv_block(x, 32, name="conv%d_block%d" % (i + 2, j + 1))
    if i < 3:
      x = _transition_block(x, 0.5, name="pool%d" % (i + 2))
  x = _bn("bn")(x)
  x = core.Activation("relu", name="relu")(x)
  x = imagenet_utils.classifier(x, include_top, pooling, classes, "fc1000",
                                ("avg_pool", "max_pool"))
  model = imagenet_utils.build_model(input_tensor, img_input, x, "densenet%d" % depth)
  file_name = "densenet%d_weights_tf_dim_ordering_tf_kernels%s.h5" % (
      depth, "" if include_top else "_notop")
  return imagenet_utils.load_weights(model, weights, file_name, _BASE + file_name,
                                     _HASHES[depth][0 if include_top else 1])


@export("keras.applications.DenseNet121", "keras.applications.densenet.DenseNet121")
def DenseNet121(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000):  # pylint: disable=invalid-name
  """DenseNet-121 (default input 224x224x3, at least 32x32)."""
  return _densenet(121, include_top, weights, input_tensor, input_shape, pooling, classes)


@export("keras.applications.DenseNet169", "keras.applications.densenet.DenseNet169")
def DenseNet169(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000):  # pylint: disable=invalid-name
  """DenseNet-169 (default input 224x224x3, at least 32x32)."""
  return _densenet(169, include_top, weights, input_tensor, input_shape, pooling, classes)


@export("keras.applications.DenseNet201", "keras.applications.densenet.DenseNet201")
def DenseNet201(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000):  # pylint: disable=invalid-name
  """DenseNet-201 (default input 224x224x3, at least 32x32)."""
  return _densenet(201, include_top, weights, input_tensor, input_shape, pooling, classes)
