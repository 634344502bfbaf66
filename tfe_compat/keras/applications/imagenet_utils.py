"""`tf.keras.applications.imagenet_utils`: ImageNet preprocessing and prediction decoding,
plus what every application shares (input-shape checks, the input, loading weights).

As in TF 1.15 (keras_applications 1.0.8), `weights='imagenet'` fetches the weight file with
`tf.keras.utils.get_file` into `~/.keras/models/` (downloaded when missing or when its hash
does not match).
"""
import json
import os
import warnings

import jax
import numpy as np

from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import backend
from tfe_compat.keras import utils as keras_utils
from tfe_compat.keras.engine.input_layer import Input, InputLayer
from tfe_compat.keras.engine.keras_tensor import KerasTensor
from tfe_compat.keras.engine.training import Model
from tfe_compat.keras.layers import core
from tfe_compat.keras.layers import pooling as pooling_layers
from tfe_compat.ops import array_ops
from tfe_compat.ops.matmul_cast_ops import cast

CLASS_INDEX = None
CLASS_INDEX_PATH = ("https://storage.googleapis.com/download.tensorflow.org/"
                    "data/imagenet_class_index.json")
CLASS_INDEX_HASH = "c2c37ea517e94d9795004a39431a14cb"

_CAFFE_MEAN = [103.939, 116.779, 123.68]
_TORCH_MEAN, _TORCH_STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def _preprocess_numpy_input(x, data_format, mode):
  """In place for floating arrays (as Keras), on a floatx copy otherwise."""
  if not issubclass(x.dtype.type, np.floating):
    x = x.astype(backend.floatx(), copy=False)
  if mode == "tf":
    x /= 127.5
    x -= 1.
    return x
  if mode == "torch":
    x /= 255.
    mean, std = _TORCH_MEAN, _TORCH_STD
  else:
    if data_format == "channels_first":
      x = x[::-1, ...] if x.ndim == 3 else x[:, ::-1, ...]
    else:
      x = x[..., ::-1]
    mean, std = _CAFFE_MEAN, None
  for c in range(3):
    index = ((c,) if x.ndim == 3 else (slice(None), c)) if data_format == "channels_first" \
        else (Ellipsis, c)
    x[index] -= mean[c]
    if std is not None:
      x[index] /= std[c]
  return x


def _preprocess_tensor_input(x, data_format, mode):
  if mode == "tf":
    return x / 127.5 - 1.
  if mode == "torch":
    x = x / 255.
    mean, std = _TORCH_MEAN, _TORCH_STD
  else:
    if data_format == "channels_first":
      x = array_ops.reverse(x, [0 if x.shape.ndims == 3 else 1])
    else:
      x = array_ops.reverse(x, [-1])
    mean, std = _CAFFE_MEAN, None
  mean_tensor = backend.constant(-np.array(mean))
  if x.dtype != mean_tensor.dtype:
    mean_tensor = cast(mean_tensor, x.dtype)
  x = backend.bias_add(x, mean_tensor, data_format)
  if std is not None:
    x = x / np.array(std, dtype=x.dtype.as_numpy_dtype)
  return x


_MODULES = {"caffe": ("vgg16", "vgg19", "resnet50", "resnet"),
            "tf": ("inception_v3", "mobilenet", "mobilenet_v2", "xception"),
            "torch": ("densenet",)}


@export("keras.applications.imagenet_utils.preprocess_input",
        *["keras.applications.%s.preprocess_input" % m for m in _MODULES["caffe"]])
def preprocess_input(x, data_format=None, mode="caffe"):
  """Preprocesses a NumPy array or Tensor of images (3-D or 4-D) for an ImageNet model.

  mode 'caffe': RGB -> BGR, then minus the ImageNet mean pixel; 'tf': scaled to [-1, 1];
  'torch': scaled to [0, 1], then normalized by the ImageNet mean and std. NumPy float
  arrays are modified in place, as in Keras.
  """
  if data_format is None:
    data_format = backend.image_data_format()
  if data_format not in {"channels_first", "channels_last"}:
    raise ValueError("Unknown data_format " + str(data_format))
  if isinstance(x, np.ndarray):
    return _preprocess_numpy_input(x, data_format=data_format, mode=mode)
  if not isinstance(x, Tensor):
    x = ops.convert_to_tensor(x)
  return _preprocess_tensor_input(x, data_format=data_format, mode=mode)


def _preprocess_function(mode):
  def preprocess(x, data_format=None):
    return preprocess_input(x, data_format=data_format, mode=mode)

  preprocess.__name__ = "preprocess_input"
  preprocess.__doc__ = "`preprocess_input(x, data_format, mode=%r)`." % mode
  return export(*["keras.applications.%s.preprocess_input" % m for m in _MODULES[mode]])(
      preprocess)


preprocess_tf = _preprocess_function("tf")
preprocess_torch = _preprocess_function("torch")


@export("keras.applications.imagenet_utils.decode_predictions",
        *["keras.applications.%s.decode_predictions" % m
          for modules in _MODULES.values() for m in modules])
def decode_predictions(preds, top=5):
  """The `top` (class_name, class_description, score) tuples of each row of `preds`.

  The class index comes from `imagenet_class_index.json` in the Keras cache
  (`~/.keras/models/`), fetched with `tf.keras.utils.get_file` as TF does.
  """
  global CLASS_INDEX  # pylint: disable=global-statement
  if isinstance(preds, Tensor):
    preds = preds.numpy()
  if len(preds.shape) != 2 or preds.shape[1] != 1000:
    raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array "
                     "of shape (samples, 1000)). Found array with shape: "
                     + str(preds.shape))
  if CLASS_INDEX is None:
    fpath = keras_utils.get_file("imagenet_class_index.json", CLASS_INDEX_PATH,
                                 cache_subdir="models", file_hash=CLASS_INDEX_HASH)
    with open(fpath) as f:
      CLASS_INDEX = json.load(f)
  results = []
  for pred in preds:
    top_indices = pred.argsort()[-top:][::-1]
    result = [tuple(CLASS_INDEX[str(i)]) + (pred[i],) for i in top_indices]
    result.sort(key=lambda x: x[2], reverse=True)
    results.append(result)
  return results


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten,
                       weights=None):
  """The model's input shape: the default one, or `input_shape` after Keras's checks."""
  if weights != "imagenet" and input_shape and len(input_shape) == 3:
    channels = input_shape[0] if data_format == "channels_first" else input_shape[-1]
    if channels not in {1, 3}:
      warnings.warn("This model usually expects 1 or 3 input channels. However, it was "
                    "passed an input_shape with " + str(channels) + " input channels.")
    default_shape = ((channels, default_size, default_size) if data_format == "channels_first"
                     else (default_size, default_size, channels))
  else:
    default_shape = ((3, default_size, default_size) if data_format == "channels_first"
                     else (default_size, default_size, 3))
  if weights == "imagenet" and require_flatten:
    if input_shape is not None and tuple(input_shape) != default_shape:
      raise ValueError("When setting `include_top=True` and loading `imagenet` weights, "
                       "`input_shape` should be " + str(default_shape) + ".")
    return default_shape
  if input_shape:
    if len(input_shape) != 3:
      raise ValueError("`input_shape` must be a tuple of three integers.")
    first = data_format == "channels_first"
    channels = input_shape[0] if first else input_shape[-1]
    rows, cols = (input_shape[1], input_shape[2]) if first else (input_shape[0],
                                                                 input_shape[1])
    if channels != 3 and weights == "imagenet":
      raise ValueError("The input must have 3 channels; got `input_shape=" + str(input_shape)
                       + "`")
    if (rows is not None and rows < min_size) or (cols is not None and cols < min_size):
      raise ValueError("Input size must be at least " + str(min_size) + "x" + str(min_size)
                       + "; got `input_shape=" + str(input_shape) + "`")
  elif require_flatten:
    input_shape = default_shape
  else:
    input_shape = (3, None, None) if data_format == "channels_first" else (None, None, 3)
  if require_flatten and None in input_shape:
    raise ValueError("If `include_top` is True, you should specify a static `input_shape`. "
                     "Got `input_shape=" + str(input_shape) + "`")
  return input_shape


# ---- Shared by the model builders ----
def check_weights(weights, include_top, classes):
  """TF's checks of the `weights` and `classes` arguments."""
  if not (weights in {"imagenet", None} or os.path.exists(weights)):
    raise ValueError("The `weights` argument should be either `None` (random "
                     "initialization), `imagenet` (pre-training on ImageNet), or the path "
                     "to the weights file to be loaded.")
  if weights == "imagenet" and include_top and classes != 1000:
    raise ValueError('If using `weights` as `"imagenet"` with `include_top` as true, '
                     "`classes` should be 1000")


def image_input(input_tensor, input_shape):
  """The model's input: a new `Input(shape=input_shape)`, or the given Keras tensor."""
  if input_tensor is None:
    return Input(shape=input_shape)
  if not backend.is_keras_tensor(input_tensor):
    raise ValueError("tfe_compat builds applications with the functional API: "
                     "`input_tensor` must be a symbolic Keras tensor (from tf.keras.Input or "
                     "a layer called on one), got %r." % (input_tensor,))
  return input_tensor


def source_inputs(tensor):
  """The `Input` tensors that `tensor` is computed from (Keras's get_source_inputs)."""
  found, stack, seen = [], [tensor], set()
  while stack:
    x = stack.pop()
    if id(x) in seen:
      continue
    seen.add(id(x))
    node = x.node
    if node is None or isinstance(node.layer, InputLayer):
      found.append(x)
    else:
      stack.extend(reversed([p for p in jax.tree_util.tree_leaves(
          node.inputs, is_leaf=lambda v: isinstance(v, KerasTensor))
                             if isinstance(p, KerasTensor)]))
  return found[0] if len(found) == 1 else found


def model_input(weights, include_top, classes, input_tensor, input_shape, default_size,
                min_size):
  """The checked arguments' input of an application: `weights` and `classes` validated,
  the input shape settled (`default_size`, at least `min_size`), the image Input made."""
  check_weights(weights, include_top, classes)
  input_shape = obtain_input_shape(
      input_shape, default_size=default_size, min_size=min_size,
      data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
  return image_input(input_tensor, input_shape)


def classifier(x, include_top, pooling, classes, dense_name="predictions", pool_names=(None, None)):
  """The top most applications share: average pooling and a softmax Dense of `classes`; or,
  without it, the global pooling `pooling` asks for ('avg', 'max' or none)."""
  if include_top:
    x = pooling_layers.GlobalAveragePooling2D(name="avg_pool")(x)
    return core.Dense(classes, activation="softmax", name=dense_name)(x)
  if pooling == "avg":
    return pooling_layers.GlobalAveragePooling2D(name=pool_names[0])(x)
  if pooling == "max":
    return pooling_layers.GlobalMaxPooling2D(name=pool_names[1])(x)
  return x


def build_model(input_tensor, img_input, outputs, name):
  inputs = source_inputs(input_tensor) if input_tensor is not None else img_input
  return Model(inputs, outputs, name=name)


def load_weights(model, weights, file_name=None, origin=None, file_hash=None):
  """`weights='imagenet'`: the file from the Keras cache via get_file; a path: that file."""
  if weights == "imagenet":
    weights = keras_utils.get_file(file_name, origin, cache_subdir="models",
                                   file_hash=file_hash)
  if weights is None:
    return model
  model.load_weights(weights)
  return model


def channel_axis():
  return 1 if backend.image_data_format() == "channels_first" else -1
