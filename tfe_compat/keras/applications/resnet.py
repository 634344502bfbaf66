"""`tf.keras.applications.ResNet50` / `ResNet101` / `ResNet152` (modules `resnet50`, `resnet`).

TF 1.15 builds these with keras_applications' resnet_common (layer names `conv1_conv`,
`conv2_block1_1_conv`, ...), the layout of the `resnet*_weights_tf_dim_ordering_tf_kernels`
files.
"""
from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras.applications import imagenet_utils
from tfe_compat.keras.layers import (convolutional, convolutional_reshaping, core, merge,
                                     normalization)
from tfe_compat.keras.layers import pooling as pooling_layers

_BASE = "https://github.com/keras-team/keras-applications/releases/download/resnet/"
_HASHES = {"resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
           "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5",
                         "88cf7a10940856eca736dc7b7e228a21"),
           "resnet152": ("100835be76be38e30d865e96f2aaae62",
                         "ee4c566cf9a93f14d82f913c2dc6dd0c")}


def _bn(name):
  return normalization.BatchNormalization(axis=3 if backend.image_data_format() ==
                                          "channels_last" else 1, epsilon=1.001e-5, name=name)


def _block1(x, filters, stride=1, conv_shortcut=True, name=None):
  """The bottleneck residual block (1x1, 3x3, 1x1 convolutions)."""
  if conv_shortcut:
    shortcut = convolutional.Conv2D(4 * filters, 1, strides=stride, name=name + "_0_conv")(x)
    shortcut = _bn(name + "_0_bn")(shortcut)
  else:
    shortcut = x
  x = convolutional.Conv2D(filters, 1, strides=stride, name=name + "_1_conv")(x)
  x = _bn(name + "_1_bn")(x)
  x = core.Activation("relu", name=name + "_1_relu")(x)
  x = convolutional.Conv2D(filters, 3, padding="SAME", name=name + "_2_conv")(x)
  x = _bn(name + "_2_bn")(x)
  x = core.Activation("relu", name=name + "_2_relu")(x)
  x = convolutional.Conv2D(4 * filters, 1, name=name + "_3_conv")(x)
  x = _bn(name + "_3_bn")(x)
  x = merge.Add(name=name + "_add")([shortcut, x])
  return core.Activation("relu", name=name + "_out")(x)


def _stack1(x, filters, blocks, stride1=2, name=None):
  x = _block1(x, filters, stride=stride1, name=name + "_block1")
  for i in range(2, blocks + 1):
    x = _block1(x, filters, conv_shortcut=False, name=name + "_block" + str(i))
  return x


def _resnet(blocks, model_name, include_top, weights, input_tensor, input_shape, pooling,
            classes):
  img_input = imagenet_utils.model_input(weights, include_top, classes, input_tensor,
                                         input_shape, 224, 32)
  x = convolutional_reshaping.ZeroPadding2D(padding=((3, 3), (3, 3)),
                                            name="conv1_pad")(img_input)
  x = convolutional.Conv2D(64, 7, strides=2, use_bias=True, name="conv1_conv")(x)
  x = _bn("conv1_bn")(x)
  x = core.Activation("relu", name="conv1_relu")(x)
  x = convolutional_reshaping.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
  x = pooling_layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
  for i, (filters, count) in enumerate(zip((64, 128, 256, 512), blocks)):
    x = _stack1(x, filters, count, stride1=1 if i == 0 else 2, name="conv%d" % (i + 2))
  x = imagenet_utils.classifier(x, include_top, pooling, classes, "probs",
                                ("avg_pool", "max_pool"))
  model = imagenet_utils.build_model(input_tensor, img_input, x, model_name)
  suffix = "" if include_top else "_notop"
  file_name = "%s_weights_tf_dim_ordering_tf_kernels%s.h5" % (model_name, suffix)
  return imagenet_utils.load_weights(model, weights, file_name, _BASE + file_name,
                                     _HASHES[model_name][0 if include_top else 1])


@export("keras.applications.ResNet50", "keras.applications.resnet50.ResNet50",
        "keras.applications.resnet.ResNet50")
def ResNet50(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000):  # pylint: disable=invalid-name
  """ResNet50 (default input 224x224x3, at least 32x32)."""
  return _resnet((3, 4, 6, 3), "resnet50", include_top, weights, input_tensor, input_shape,
                 pooling, classes)


@export("keras.applications.ResNet101", "keras.applications.resnet.ResNet101")
def ResNet101(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000):  # pylint: disable=invalid-name
  """ResNet101 (default input 224x224x3, at least 32x32)."""
  return _resnet((3, 4, 23, 3), "resnet101", include_top, weights, input_tensor, input_shape,
                 pooling, classes)


@export("keras.applications.ResNet152", "keras.applications.resnet.ResNet152")
def ResNet152(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000):  # pylint: disable=invalid-name
  """ResNet152 (default input 224x224x3, at least 32x32)."""
  return _resnet((3, 8, 36, 3), "resnet152", include_top, weights, input_tensor, input_shape,
                 pooling, classes)
