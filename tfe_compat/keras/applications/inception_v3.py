"""`tf.keras.applications.InceptionV3` (module `inception_v3`).

Convolutions, batch normalizations and activations keep Keras's automatic names (`conv2d_5`,
`batch_normalization_5`, `activation_5`); the blocks are `mixed0` ... `mixed10`.
"""
from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras.applications import imagenet_utils
from tfe_compat.keras.layers import convolutional, core, merge, normalization
from tfe_compat.keras.layers import pooling as pooling_layers

_BASE = "https://github.com/fchollet/deep-learning-models/releases/download/v0.5/"
_FILES = (("inception_v3_weights_tf_dim_ordering_tf_kernels.h5",
           "9a0d58056eeedaa3f26cb7ebd46da564"),
          ("inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5",
           "bcbd6486424b2319ff4ef7d526e38f63"))


def _conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
  """Conv2D (no bias) + BatchNormalization (no scale) + ReLU."""
  bn_axis = 1 if backend.image_data_format() == "channels_first" else 3
  x = convolutional.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding,
                           use_bias=False, name=None if name is None else name + "_conv")(x)
  x = normalization.BatchNormalization(axis=bn_axis, scale=False,
                                       name=None if name is None else name + "_bn")(x)
  return core.Activation("relu", name=name)(x)


def _avg_branch(x, filters):
  branch_pool = pooling_layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
  return _conv2d_bn(branch_pool, filters, 1, 1)


def _block_35(x, pool_filters, name, axis):
  branch1x1 = _conv2d_bn(x, 64, 1, 1)
  branch5x5 = _conv2d_bn(x, 48, 1, 1)
  branch5x5 = _conv2d_bn(branch5x5, 64, 5, 5)
  branch3x3dbl = _conv2d_bn(x, 64, 1, 1)
  branch3x3dbl = _conv2d_bn(branch3x3dbl, 96, 3, 3)
  branch3x3dbl = _conv2d_bn(branch3x3dbl, 96, 3, 3)
  branch_pool = _avg_branch(x, pool_filters)
  return merge.concatenate([branch1x1, branch5x5, branch3x3dbl, branch_pool], axis=axis,
                           name=name)


def _block_17(x, width, name, axis):
  branch1x1 = _conv2d_bn(x, 192, 1, 1)
  branch7x7 = _conv2d_bn(x, width, 1, 1)
  branch7x7 = _conv2d_bn(branch7x7, width, 1, 7)
  branch7x7 = _conv2d_bn(branch7x7, 192, 7, 1)
  branch7x7dbl = _conv2d_bn(x, width, 1, 1)
  branch7x7dbl = _conv2d_bn(branch7x7dbl, width, 7, 1)
  branch7x7dbl = _conv2d_bn(branch7x7dbl, width, 1, 7)
  branch7x7dbl = _conv2d_bn(branch7x7dbl, width, 7, 1)
  branch7x7dbl = _conv2d_bn(branch7x7dbl, 192, 1, 7)
  branch_pool = _avg_branch(x, 192)
  return merge.concatenate([branch1x1, branch7x7, branch7x7dbl, branch_pool], axis=axis,
                           name=name)


def _block_8(x, i, axis):
  branch1x1 = _conv2d_bn(x, 320, 1, 1)
  branch3x3 = _conv2d_bn(x, 384, 1, 1)
  branch3x3_1 = _conv2d_bn(branch3x3, 384, 1, 3)
  branch3x3_2 = _conv2d_bn(branch3x3, 384, 3, 1)
  branch3x3 = merge.concatenate([branch3x3_1, branch3x3_2], axis=axis, name="mixed9_" + str(i))
  branch3x3dbl = _conv2d_bn(x, 448, 1, 1)
  branch3x3dbl = _conv2d_bn(branch3x3dbl, 384, 3, 3)
  branch3x3dbl_1 = _conv2d_bn(branch3x3dbl, 384, 1, 3)
  branch3x3dbl_2 = _conv2d_bn(branch3x3dbl, 384, 3, 1)
  branch3x3dbl = merge.concatenate([branch3x3dbl_1, branch3x3dbl_2], axis=axis)
  branch_pool = _avg_branch(x, 192)
  return merge.concatenate([branch1x1, branch3x3, branch3x3dbl, branch_pool], axis=axis,
                           name="mixed" + str(9 + i))


@export("keras.applications.InceptionV3", "keras.applications.inception_v3.InceptionV3")
def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000):  # pylint: disable=invalid-name
  """Inception V3 (default input 299x299x3, at least 75x75)."""
  img_input = imagenet_utils.model_input(weights, include_top, classes, input_tensor,
                                         input_shape, 299, 75)
  axis = 1 if backend.image_data_format() == "channels_first" else 3

  x = _conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
  x = _conv2d_bn(x, 32, 3, 3, padding="valid")
  x = _conv2d_bn(x, 64, 3, 3)
  x = pooling_layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
  x = _conv2d_bn(x, 80, 1, 1, padding="valid")
  x = _conv2d_bn(x, 192, 3, 3, padding="valid")
  x = pooling_layers.MaxPooling2D((3, 3), strides=(2, 2))(x)

  x = _block_35(x, 32, "mixed0", axis)
  x = _block_35(x, 64, "mixed1", axis)
  x = _block_35(x, 64, "mixed2", axis)
  # mixed 3: 17 x 17 x 768
  branch3x3 = _conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
  branch3x3dbl = _conv2d_bn(x, 64, 1, 1)
  branch3x3dbl = _conv2d_bn(branch3x3dbl, 96, 3, 3)
  branch3x3dbl = _conv2d_bn(branch3x3dbl, 96, 3, 3, strides=(2, 2), padding="valid")
  branch_pool = pooling_layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
  x = merge.concatenate([branch3x3, branch3x3dbl, branch_pool], axis=axis, name="mixed3")
  x = _block_17(x, 128, "mixed4", axis)
  x = _block_17(x, 160, "mixed5", axis)
  x = _block_17(x, 160, "mixed6", axis)
  x = _block_17(x, 192, "mixed7", axis)
  # mixed 8: 8 x 8 x 1280
  branch3x3 = _conv2d_bn(x, 192, 1, 1)
  branch3x3 = _conv2d_bn(branch3x3, 320, 3, 3, strides=(2, 2), padding="valid")
  branch7x7x3 = _conv2d_bn(x, 192, 1, 1)
  branch7x7x3 = _conv2d_bn(branch7x7x3, 192, 1, 7)
  branch7x7x3 = _conv2d_bn(branch7x7x3, 192, 7, 1)
  branch7x7x3 = _conv2d_bn(branch7x7x3, 192, 3, 3, strides=(2, 2), padding="valid")
  branch_pool = pooling_layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
  x = merge.concatenate([branch3x3, branch7x7x3, branch_pool], axis=axis, name="mixed8")
  x = _block_8(x, 0, axis)
  x = _block_8(x, 1, axis)

  x = imagenet_utils.classifier(x, include_top, pooling, classes)
  model = imagenet_utils.build_model(input_tensor, img_input, x, "inception_v3")
  file_name, file_hash = _FILES[0 if include_top else 1]
  return imagenet_utils.load_weights(model, weights, file_name, _BASE + file_name, file_hash)
