"""Keras's conv_utils: argument normalization shared by the convolution-family layers."""
from tfe_compat.framework import tensor_shape
from tfe_compat.keras import backend

_SPATIAL = "DHW"


def normalize_tuple(value, n, name, allow_zero=False):
  """Keras's conv_utils.normalize_tuple: an int or n ints -> a tuple of n ints, each positive
  (or non-negative with `allow_zero`)."""
  message = "The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value)
  if isinstance(value, int):
    values = (value,) * n
  else:
    try:
      values = tuple(value)
    except TypeError:
      raise ValueError(message) from None
    if len(values) != n or not all(isinstance(v, int) for v in values):
      raise ValueError(message)
  bad = {v for v in values if v < 0 or v == 0 and not allow_zero}
  if bad:
    raise ValueError("%s including %s that does not satisfy the requirement `%s`."
                     % (message, bad, ">= 0" if allow_zero else "> 0"))
  return values


def normalize_padding(value):
  padding = value.lower() if isinstance(value, str) else value
  if padding not in ("valid", "same", "causal"):
    raise ValueError('The `padding` argument must be one of "valid", "same" (or "causal", only'
                     ' for `Conv1D). Received: ' + str(padding))
  return padding


def normalize_data_format(value):
  data_format = backend.image_data_format() if value is None else value.lower()
  if data_format not in ("channels_first", "channels_last"):
    raise ValueError('The `data_format` argument must be one of "channels_first", '
                     '"channels_last". Received: ' + str(value))
  return data_format


def tf_data_format(data_format, rank):
  """"channels_last" -> "NHWC" (or NWC, NDHWC); "channels_first" -> "NCHW" ..."""
  spatial = _SPATIAL[-rank:]
  return "NC" + spatial if data_format == "channels_first" else "N" + spatial + "C"


def serialize(obj):
  """Keras's serialize_keras_object for initializers, regularizers and constraints."""
  if obj is None:
    return None
  config = obj.get_config() if hasattr(obj, "get_config") else {}
  return {"class_name": type(obj).__name__, "config": config}


def dim(shape, axis):
  return tensor_shape.dimension_value(tensor_shape.TensorShape(shape)[axis])


def conv_output_length(input_length, filter_size, padding, stride, dilation=1):
  """Keras's conv_utils.conv_output_length (negative where the window does not fit)."""
  filter_size = filter_size + (filter_size - 1) * (dilation - 1)
  if padding == "valid":
    input_length = input_length - filter_size + 1
  elif padding == "full":
    input_length = input_length + filter_size - 1
  return (input_length + stride - 1) // stride


def deconv_output_length(input_length, filter_size, padding, output_padding=None, stride=0,
                         dilation=1):
  """Keras's conv_utils.deconv_output_length."""
  filter_size = filter_size + (filter_size - 1) * (dilation - 1)
  if output_padding is None:
    if padding == "valid":
      return input_length * stride + max(filter_size - stride, 0)
    return input_length * stride
  pad = filter_size // 2 if padding == "same" else 0
  return (input_length - 1) * stride + filter_size - 2 * pad + output_padding
