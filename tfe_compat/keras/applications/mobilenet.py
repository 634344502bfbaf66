"""`tf.keras.applications.MobileNet` and `MobileNetV2` (modules `mobilenet`, `mobilenet_v2`).

As in TF 1.15 (keras_applications 1.0.8): MobileNet's and MobileNetV2's first convolution
follows an explicit ZeroPadding2D (`conv1_pad`, `Conv1_pad`); MobileNet's classifier is
GlobalAveragePooling2D, `reshape_1`, `dropout`, `conv_preds`, `act_softmax`, `reshape_2`;
MobileNetV2's is named `Logits`.
"""
import warnings

from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras.applications import imagenet_utils
from tfe_compat.keras.layers import (advanced_activations, convolutional,
                                     convolutional_reshaping, core, merge, normalization)
from tfe_compat.keras.layers import pooling as pooling_layers

_V1_BASE = "https://github.com/fchollet/deep-learning-models/releases/download/v0.6/"
_V2_BASE = "https://github.com/JonathanCMitchell/mobilenet_v2_keras/releases/download/v1.1/"


def _default_size(input_shape, sizes):
  if input_shape is None:
    return 224
  first = backend.image_data_format() == "channels_first"
  rows, cols = (input_shape[1], input_shape[2]) if first else (input_shape[0], input_shape[1])
  return rows if rows == cols and rows in sizes else 224


def _rows(input_shape):
  return input_shape[0 if backend.image_data_format() == "channels_last" else 1]


def _correct_pad(inputs, kernel_size):
  """The zero padding that makes a stride-2 'valid' convolution match TF's 'same'."""
  img_dim = 2 if backend.image_data_format() == "channels_first" else 1
  input_size = inputs.shape.as_list()[img_dim:img_dim + 2]
  adjust = (1, 1) if input_size[0] is None else (1 - input_size[0] % 2, 1 - input_size[1] % 2)
  correct = (kernel_size // 2, kernel_size // 2)
  return ((correct[0] - adjust[0], correct[0]), (correct[1] - adjust[1], correct[1]))


def _relu6(name):
  return advanced_activations.ReLU(6., name=name)


# ---- MobileNet ----
def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
  filters = int(filters * alpha)
  x = convolutional_reshaping.ZeroPadding2D(padding=((0, 1), (0, 1)), name="conv1_pad")(inputs)
  x = convolutional.Conv2D(filters, kernel, padding="valid", use_bias=False, strides=strides,
                           name="conv1")(x)
  x = normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), name="conv1_bn")(x)
  return _relu6("conv1_relu")(x)


def _depthwise_conv_block(inputs, pointwise_conv_filters, alpha, depth_multiplier=1,
                          strides=(1, 1), block_id=1):
  axis = imagenet_utils.channel_axis()
  pointwise_conv_filters = int(pointwise_conv_filters * alpha)
  x = inputs
  if strides != (1, 1):
    x = convolutional_reshaping.ZeroPadding2D(((0, 1), (0, 1)),
                                              name="conv_pad_%d" % block_id)(inputs)
  x = convolutional.DepthwiseConv2D((3, 3), padding="same" if strides == (1, 1) else "valid",
                                    depth_multiplier=depth_multiplier, strides=strides,
                                    use_bias=False, name="conv_dw_%d" % block_id)(x)
  x = normalization.BatchNormalization(axis=axis, name="conv_dw_%d_bn" % block_id)(x)
  x = _relu6("conv_dw_%d_relu" % block_id)(x)
  x = convolutional.Conv2D(pointwise_conv_filters, (1, 1), padding="same", use_bias=False,
                           strides=(1, 1), name="conv_pw_%d" % block_id)(x)
  x = normalization.BatchNormalization(axis=axis, name="conv_pw_%d_bn" % block_id)(x)
  return _relu6("conv_pw_%d_relu" % block_id)(x)


@export("keras.applications.MobileNet", "keras.applications.mobilenet.MobileNet")
def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3,
              include_top=True, weights="imagenet", input_tensor=None, pooling=None,
              classes=1000):  # pylint: disable=invalid-name
  """MobileNet v1 (default input 224x224x3, at least 32x32); `alpha` scales the widths."""
  imagenet_utils.check_weights(weights, False, classes)
  if weights == "imagenet" and include_top and classes != 1000:
    raise ValueError("If using `weights` as ImageNet with `include_top` as true, `classes` "
                     "should be 1000")
  input_shape = imagenet_utils.obtain_input_shape(
      input_shape, default_size=_default_size(input_shape, (128, 160, 192, 224)), min_size=32,
      data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
  rows = _rows(input_shape)
  cols = input_shape[1 if backend.image_data_format() == "channels_last" else 2]
  if weights == "imagenet":
    if depth_multiplier != 1:
      raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1")
    if alpha not in [0.25, 0.50, 0.75, 1.0]:
      raise ValueError("If imagenet weights are being loaded, alpha can be one of`0.25`, "
                       "`0.50`, `0.75` or `1.0` only.")
    if rows != cols or rows not in [128, 160, 192, 224]:
      if rows is None:
        rows = 224
        warnings.warn("MobileNet shape is undefined. Weights for input shape (224, 224) will "
                      "be loaded.")
      else:
        raise ValueError("If imagenet weights are being loaded, input must have a static "
                         "square shape (one of (128, 128), (160, 160), (192, 192), or (224, "
                         "224)). Input shape provided = %s" % (input_shape,))
  if backend.image_data_format() != "channels_last":
    raise NotImplementedError("tfe_compat's MobileNet supports only the channels_last image "
                              "data format (TF switches the format temporarily).")
  img_input = imagenet_utils.image_input(input_tensor, input_shape)
  x = _conv_block(img_input, 32, alpha, strides=(2, 2))
  plan = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + [
      (1024, 2), (1024, 1)]
  for block_id, (filters, stride) in enumerate(plan, 1):
    x = _depthwise_conv_block(x, filters, alpha, depth_multiplier, strides=(stride, stride),
                              block_id=block_id)
  if include_top:
    x = pooling_layers.GlobalAveragePooling2D()(x)
    x = core.Reshape((1, 1, int(1024 * alpha)), name="reshape_1")(x)
    x = core.Dropout(dropout, name="dropout")(x)
    x = convolutional.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
    x = core.Activation("softmax", name="act_softmax")(x)
    x = core.Reshape((classes,), name="reshape_2")(x)
  elif pooling == "avg":
    x = pooling_layers.GlobalAveragePooling2D()(x)
  elif pooling == "max":
    x = pooling_layers.GlobalMaxPooling2D()(x)
  model = imagenet_utils.build_model(input_tensor, img_input, x,
                                     "mobilenet_%0.2f_%s" % (alpha, rows))
  if weights != "imagenet":
    return imagenet_utils.load_weights(model, weights)
  alpha_text = {1.0: "1_0", 0.75: "7_5", 0.50: "5_0"}.get(alpha, "2_5")
  model_name = "mobilenet_%s_%d_tf%s.h5" % (alpha_text, rows, "" if include_top else "_no_top")
  return imagenet_utils.load_weights(model, weights, model_name, _V1_BASE + model_name)


# ---- MobileNetV2 ----
def _make_divisible(v, divisor, min_value=None):
  if min_value is None:
    min_value = divisor
  new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
  if new_v < 0.9 * v:  # rounding down must not lose more than 10%
    new_v += divisor
  return new_v


def _bn_v2(name):
  return normalization.BatchNormalization(axis=imagenet_utils.channel_axis(), epsilon=1e-3,
                                          momentum=0.999, name=name)


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
  in_channels = inputs.shape.as_list()[imagenet_utils.channel_axis()]
  pointwise_filters = _make_divisible(int(filters * alpha), 8)
  x = inputs
  prefix = "block_{}_".format(block_id)
  if block_id:
    x = convolutional.Conv2D(expansion * in_channels, kernel_size=1, padding="same",
                             use_bias=False, activation=None, name=prefix + "expand")(x)
    x = _bn_v2(prefix + "expand_BN")(x)
    x = _relu6(prefix + "expand_relu")(x)
  else:
    prefix = "expanded_conv_"
  if stride == 2:
    x = convolutional_reshaping.ZeroPadding2D(padding=_correct_pad(x, 3),
                                              name=prefix + "pad")(x)
  x = convolutional.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None,
                                    use_bias=False,
                                    padding="same" if stride == 1 else "valid",
                                    name=prefix + "depthwise")(x)
  x = _bn_v2(prefix + "depthwise_BN")(x)
  x = _relu6(prefix + "depthwise_relu")(x)
  x = convolutional.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False,
                           activation=None, name=prefix + "project")(x)
  x = _bn_v2(prefix + "project_BN")(x)
  if in_channels == pointwise_filters and stride == 1:
    return merge.Add(name=prefix + "add")([inputs, x])
  return x


_V2_PLAN = [(16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6),
            (64, 1, 6), (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6),
            (160, 2, 6), (160, 1, 6), (160, 1, 6), (320, 1, 6)]


@export("keras.applications.MobileNetV2", "keras.applications.mobilenet_v2.MobileNetV2")
def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet",
                input_tensor=None, pooling=None, classes=1000):  # pylint: disable=invalid-name
  """MobileNetV2 (default input 224x224x3, at least 32x32); `alpha` scales the widths."""
  imagenet_utils.check_weights(weights, include_top, classes)
  if input_tensor is not None and input_shape is None and backend.is_keras_tensor(input_tensor):
    dims = input_tensor.shape.as_list()
    first = backend.image_data_format() == "channels_first"
    rows, cols = (dims[2], dims[3]) if first else (dims[1], dims[2])
    default_size = rows if rows == cols and rows in [96, 128, 160, 192, 224] else 224
  else:
    default_size = _default_size(input_shape, (96, 128, 160, 192, 224))
  input_shape = imagenet_utils.obtain_input_shape(
      input_shape, default_size=default_size, min_size=32,
      data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
  rows = _rows(input_shape)
  cols = input_shape[1 if backend.image_data_format() == "channels_last" else 2]
  if weights == "imagenet":
    if alpha not in [0.35, 0.50, 0.75, 1.0, 1.3, 1.4]:
      raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.35`, "
                       "`0.50`, `0.75`, `1.0`, `1.3` or `1.4` only.")
    if rows != cols or rows not in [96, 128, 160, 192, 224]:
      rows = 224
      warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [96, 128, "
                    "160, 192, 224]. Weights for input shape (224, 224) will be loaded as the "
                    "default.")
  img_input = imagenet_utils.image_input(input_tensor, input_shape)
  x = convolutional_reshaping.ZeroPadding2D(padding=_correct_pad(img_input, 3),
                                            name="Conv1_pad")(img_input)
  x = convolutional.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2),
                           padding="valid", use_bias=False, name="Conv1")(x)
  x = _bn_v2("bn_Conv1")(x)
  x = _relu6("Conv1_relu")(x)
  for block_id, (filters, stride, expansion) in enumerate(_V2_PLAN):
    x = _inverted_res_block(x, filters=filters, alpha=alpha, stride=stride,
                            expansion=expansion, block_id=block_id)
  last_block_filters = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
  x = convolutional.Conv2D(last_block_filters, kernel_size=1, use_bias=False, name="Conv_1")(x)
  x = _bn_v2("Conv_1_bn")(x)
  x = _relu6("out_relu")(x)
  if include_top:
    x = pooling_layers.GlobalAveragePooling2D()(x)
    x = core.Dense(classes, activation="softmax", use_bias=True, name="Logits")(x)
  elif pooling == "avg":
    x = pooling_layers.GlobalAveragePooling2D()(x)
  elif pooling == "max":
    x = pooling_layers.GlobalMaxPooling2D()(x)
  model = imagenet_utils.build_model(input_tensor, img_input, x,
                                     "mobilenetv2_%0.2f_%s" % (alpha, rows))
  if weights != "imagenet":
    return imagenet_utils.load_weights(model, weights)
  model_name = "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_%s_%s%s.h5" % (
      float(alpha), rows, "" if include_top else "_no_top")
  return imagenet_utils.load_weights(model, weights, model_name, _V2_BASE + model_name)
