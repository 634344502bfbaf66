"""`tf.keras.applications.VGG16` / `VGG19` (modules `vgg16`, `vgg19`)."""
from tfe_compat.framework.api import export
from tfe_compat.keras.applications import imagenet_utils
from tfe_compat.keras.layers import convolutional, core
from tfe_compat.keras.layers import pooling as pooling_layers

_BASE = "https://github.com/fchollet/deep-learning-models/releases/download/v0.1/"
_HASHES = {"vgg16": ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc"),
           "vgg19": ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6")}


def _vgg(name, convs_per_block, include_top, weights, input_tensor, input_shape, pooling,
         classes):
  img_input = imagenet_utils.model_input(weights, include_top, classes, input_tensor,
                                         input_shape, 224, 32)
  x = img_input
  for block, (filters, count) in enumerate(zip((64, 128, 256, 512, 512), convs_per_block), 1):
    for i in range(1, count + 1):
      x = convolutional.Conv2D(filters, (3, 3), activation="relu", padding="same",
                               name="block%d_conv%d" % (block, i))(x)
    x = pooling_layers.MaxPooling2D((2, 2), strides=(2, 2), name="block%d_pool" % block)(x)
  if include_top:
    x = core.Flatten(name="flatten")(x)
    x = core.Dense(4096, activation="relu", name="fc1")(x)
    x = core.Dense(4096, activation="relu", name="fc2")(x)
    x = core.Dense(classes, activation="softmax", name="predictions")(x)
  elif pooling == "avg":
    x = pooling_layers.GlobalAveragePooling2D()(x)
  elif pooling == "max":
    x = pooling_layers.GlobalMaxPooling2D()(x)
  model = imagenet_utils.build_model(input_tensor, img_input, x, name)
  suffix = "" if include_top else "_notop"
  file_name = "%s_weights_tf_dim_ordering_tf_kernels%s.h5" % (name, suffix)
  return imagenet_utils.load_weights(model, weights, file_name, _BASE + file_name,
                                     _HASHES[name][0 if include_top else 1])


@export("keras.applications.VGG16", "keras.applications.vgg16.VGG16")
def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
          pooling=None, classes=1000):  # pylint: disable=invalid-name
  """The VGG16 network (default input 224x224x3, at least 32x32)."""
  return _vgg("vgg16", (2, 2, 3, 3, 3), include_top, weights, input_tensor, input_shape,
              pooling, classes)


@export("keras.applications.VGG19", "keras.applications.vgg19.VGG19")
def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
          pooling=None, classes=1000):  # pylint: disable=invalid-name
  """The VGG19 network (default input 224x224x3, at least 32x32)."""
  return _vgg("vgg19", (2, 2, 4, 4, 4), include_top, weights, input_tensor, input_shape,
              pooling, classes)
