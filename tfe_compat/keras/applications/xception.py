"""`tf.keras.applications.Xception` (module `xception`)."""
from tfe_compat.framework.api import export
from tfe_compat.keras.applications import imagenet_utils
from tfe_compat.keras.layers import convolutional, core, merge, normalization
from tfe_compat.keras.layers import pooling as pooling_layers

_BASE = "https://github.com/fchollet/deep-learning-models/releases/download/v0.4/"
_FILES = (("xception_weights_tf_dim_ordering_tf_kernels.h5", "0a58e3b7378bc2990ea3b43d5981f1f6"),
          ("xception_weights_tf_dim_ordering_tf_kernels_notop.h5",
           "b0042744bf5b25fce3cb969f33bebb97"))


def _bn(name=None):
  return normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), name=name)


def _sepconv(filters, name):
  return convolutional.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False,
                                       name=name)


def _residual(x, filters):
  residual = convolutional.Conv2D(filters, (1, 1), strides=(2, 2), padding="same",
                                  use_bias=False)(x)
  return _bn()(residual)


def _entry_block(x, block, filters, first_act=True):
  """Two separable convolutions and a strided max pooling, plus a 1x1 strided shortcut."""
  residual = _residual(x, filters[1])
  prefix = "block%d_" % block
  if first_act:
    x = core.Activation("relu", name=prefix + "sepconv1_act")(x)
  x = _sepconv(filters[0], prefix + "sepconv1")(x)
  x = _bn(prefix + "sepconv1_bn")(x)
  x = core.Activation("relu", name=prefix + "sepconv2_act")(x)
  x = _sepconv(filters[1], prefix + "sepconv2")(x)
  x = _bn(prefix + "sepconv2_bn")(x)
  x = pooling_layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same",
                                  name=prefix + "pool")(x)
  return merge.add([x, residual])


@export("keras.applications.Xception", "keras.applications.xception.Xception")
def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000):  # pylint: disable=invalid-name
  """Xception (default input 299x299x3, at least 71x71)."""
  img_input = imagenet_utils.model_input(weights, include_top, classes, input_tensor,
                                         input_shape, 299, 71)
  x = convolutional.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False,
                           name="block1_conv1")(img_input)
  x = _bn("block1_conv1_bn")(x)
  x = core.Activation("relu", name="block1_conv1_act")(x)
  x = convolutional.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
  x = _bn("block1_conv2_bn")(x)
  x = core.Activation("relu", name="block1_conv2_act")(x)
  x = _entry_block(x, 2, (128, 128), first_act=False)
  x = _entry_block(x, 3, (256, 256))
  x = _entry_block(x, 4, (728, 728))
  for i in range(8):
    residual = x
    prefix = "block" + str(i + 5)
    for j in (1, 2, 3):
      x = core.Activation("relu", name="%s_sepconv%d_act" % (prefix, j))(x)
      x = _sepconv(728, "%s_sepconv%d" % (prefix, j))(x)
      x = _bn("%s_sepconv%d_bn" % (prefix, j))(x)
    x = merge.add([x, residual])
  x = _entry_block(x, 13, (728, 1024))
  x = _sepconv(1536, "block14_sepconv1")(x)
  x = _bn("block14_sepconv1_bn")(x)
  x = core.Activation("relu", name="block14_sepconv1_act")(x)
  x = _sepconv(2048, "block14_sepconv2")(x)
  x = _bn("block14_sepconv2_bn")(x)
  x = core.Activation("relu", name="block14_sepconv2_act")(x)
  x = imagenet_utils.classifier(x, include_top, pooling, classes)
  model = imagenet_utils.build_model(input_tensor, img_input, x, "xception")
  file_name, file_hash = _FILES[0 if include_top else 1]
  return imagenet_utils.load_weights(model, weights, file_name, _BASE + file_name, file_hash)
