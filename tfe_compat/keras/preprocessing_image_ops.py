"""The functions of `tf.keras.preprocessing.image`: PIL <-> NumPy conversions and random
transforms of one image (NumPy + scipy.ndimage + PIL, with Keras 2's semantics: random
parameters come from `np.random` in Keras's order). preprocessing_image.py holds the
iterators and ImageDataGenerator and re-exports these names.
"""
import io
import pathlib
import warnings

import numpy as np

from tfe_compat.framework.api import export
from tfe_compat.keras import backend

try:
  from PIL import Image as pil_image
  from PIL import ImageEnhance
except ImportError:  # pragma: no cover
  pil_image = ImageEnhance = None
try:
  from scipy import ndimage
except ImportError:  # pragma: no cover
  ndimage = None

_NAME = "keras.preprocessing.image."
if pil_image is not None:
  _resampling = getattr(pil_image, "Resampling", pil_image)
  _PIL_INTERPOLATION_METHODS = {
      "nearest": _resampling.NEAREST, "bilinear": _resampling.BILINEAR,
      "bicubic": _resampling.BICUBIC, "hamming": _resampling.HAMMING,
      "box": _resampling.BOX, "lanczos": _resampling.LANCZOS}


def _require_pil(function):
  if pil_image is None:
    raise ImportError("Could not import PIL.Image. The use of `%s` requires PIL." % function)


# ---- PIL <-> NumPy ----
@export(_NAME + "array_to_img")
def array_to_img(x, data_format=None, scale=True, dtype=None):
  """Converts a rank-3 array to a PIL Image (rescaled to [0, 255] when `scale`)."""
  data_format = data_format or backend.image_data_format()
  _require_pil("array_to_img")
  x = np.asarray(x, dtype=dtype or backend.floatx())
  if x.ndim != 3:
    raise ValueError("Expected image array to have rank 3 (single image). "
                     "Got array with shape: %s" % (x.shape,))
  if data_format not in ("channels_first", "channels_last"):
    raise ValueError("Invalid data_format: %s" % data_format)
  if data_format == "channels_first":
    x = x.transpose(1, 2, 0)
  if scale:
    x = x - np.min(x)
    x_max = np.max(x)
    if x_max != 0:
      x /= x_max
    x *= 255
  channels = x.shape[2]
  if channels == 4:
    return pil_image.fromarray(x.astype("uint8"), "RGBA")
  if channels == 3:
    return pil_image.fromarray(x.astype("uint8"), "RGB")
  if channels == 1:
    if np.max(x) > 255:  # 32-bit signed integer grayscale
      return pil_image.fromarray(x[:, :, 0].astype("int32"), "I")
    return pil_image.fromarray(x[:, :, 0].astype("uint8"), "L")
  raise ValueError("Unsupported channel number: %s" % (channels,))


@export(_NAME + "img_to_array")
def img_to_array(img, data_format=None, dtype=None):
  """Converts a PIL Image to a rank-3 NumPy array."""
  data_format = data_format or backend.image_data_format()
  if data_format not in ("channels_first", "channels_last"):
    raise ValueError("Unknown data_format: %s" % (data_format,))
  x = np.asarray(img, dtype=dtype or backend.floatx())
  if x.ndim == 3:
    if data_format == "channels_first":
      x = x.transpose(2, 0, 1)
  elif x.ndim == 2:
    x = x.reshape(((1,) + x.shape) if data_format == "channels_first" else (x.shape + (1,)))
  else:
    raise ValueError("Unsupported image shape: %s" % (x.shape,))
  return x


@export(_NAME + "save_img")
def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
  """Saves an image array to a path or file object (extra kwargs go to `PIL.Image.save`)."""
  img = array_to_img(x, data_format=data_format or backend.image_data_format(), scale=scale)
  if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
    warnings.warn("The JPG format does not support RGBA images, converting to RGB.")
    img = img.convert("RGB")
  img.save(path, format=file_format, **kwargs)


@export(_NAME + "load_img")
def load_img(path, grayscale=False, color_mode="rgb", target_size=None,
             interpolation="nearest"):
  """Loads an image file into a PIL Image, converted to `color_mode` and resized to
  `target_size` (height, width) if given."""
  if grayscale:
    warnings.warn('grayscale is deprecated. Please use color_mode = "grayscale"')
    color_mode = "grayscale"
  _require_pil("load_img")
  if isinstance(path, io.BytesIO):
    img = pil_image.open(path)
  elif isinstance(path, (pathlib.Path, bytes, str)):
    with open(path, "rb") as f:
      img = pil_image.open(io.BytesIO(f.read()))
  else:
    raise TypeError("path should be path-like or io.BytesIO, not {}".format(type(path)))
  if color_mode == "grayscale":
    if img.mode not in ("L", "I;16", "I"):
      img = img.convert("L")
  elif color_mode in ("rgba", "rgb"):
    if img.mode != color_mode.upper():
      img = img.convert(color_mode.upper())
  else:
    raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
  if target_size is not None:
    width_height = (target_size[1], target_size[0])
    if img.size != width_height:
      if interpolation not in _PIL_INTERPOLATION_METHODS:
        raise ValueError("Invalid interpolation method {} specified. Supported methods are "
                         "{}".format(interpolation, ", ".join(_PIL_INTERPOLATION_METHODS)))
      img = img.resize(width_height, _PIL_INTERPOLATION_METHODS[interpolation])
  return img


# ---- Transforms of one image (rank 3) ----
def _offset_center(matrix, x, y):
  o_x, o_y = float(x) / 2 - 0.5, float(y) / 2 - 0.5
  offset = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
  reset = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
  return offset.dot(matrix).dot(reset)


@export(_NAME + "apply_affine_transform")
def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1,
                           col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.,
                           order=1):
  """Rotation (degrees), shift, shear (degrees) and zoom of a rank-3 image, resampled
  with scipy.ndimage.affine_transform channel by channel."""
  if ndimage is None:
    raise ImportError("Image transformations require SciPy. Install SciPy.")
  axes = {row_axis, col_axis, channel_axis}
  if len(axes) != 3:
    raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
  if axes != {0, 1, 2}:
    raise ValueError("Invalid axis' indices: {}".format(axes - {0, 1, 2}))
  if x.ndim != 3:
    raise ValueError("Input arrays must be multi-channel 2D images.")
  if channel_axis not in (0, 2):
    raise ValueError("Channels are allowed and the first and last dimensions.")
  matrices = []
  if theta != 0:
    t = np.deg2rad(theta)
    matrices.append(np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0],
                              [0, 0, 1]]))
  if tx != 0 or ty != 0:
    matrices.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
  if shear != 0:
    s = np.deg2rad(shear)
    matrices.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
  if zx != 1 or zy != 1:
    matrices.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
  if not matrices:
    return x
  matrix = matrices[0]
  for m in matrices[1:]:
    matrix = np.dot(matrix, m)
  matrix = _offset_center(matrix, x.shape[row_axis], x.shape[col_axis])
  x = np.rollaxis(x, channel_axis, 0)
  if col_axis > row_axis:  # the matrix acts on (row, col); rolled images index (col, row)
    matrix[:, [0, 1]] = matrix[:, [1, 0]]
    matrix[[0, 1]] = matrix[[1, 0]]
  channels = [ndimage.affine_transform(c, matrix[:2, :2], matrix[:2, 2], order=order,
                                       mode=fill_mode, cval=cval) for c in x]
  return np.rollaxis(np.stack(channels, axis=0), 0, channel_axis + 1)


@export(_NAME + "random_rotation")
def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                    cval=0., interpolation_order=1):
  """Rotates by a random angle in [-rg, rg) degrees."""
  theta = np.random.uniform(-rg, rg)
  return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis,
                                channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                order=interpolation_order)


@export(_NAME + "random_shift")
def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0., interpolation_order=1):
  """Shifts by random fractions of the height (hrg) and width (wrg)."""
  h, w = x.shape[row_axis], x.shape[col_axis]
  tx = np.random.uniform(-hrg, hrg) * h
  ty = np.random.uniform(-wrg, wrg) * w
  return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis,
                                channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                order=interpolation_order)


@export(_NAME + "random_shear")
def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0., interpolation_order=1):
  """Shears by a random angle in [-intensity, intensity) degrees."""
  shear = np.random.uniform(-intensity, intensity)
  return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis,
                                channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                order=interpolation_order)


@export(_NAME + "random_zoom")
def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                cval=0., interpolation_order=1):
  """Zooms by random factors (zx, zy) drawn from `zoom_range` = (lower, upper)."""
  if len(zoom_range) != 2:
    raise ValueError("`zoom_range` should be a tuple or list of two floats. Received: %s"
                     % (zoom_range,))
  if zoom_range[0] == 1 and zoom_range[1] == 1:
    zx, zy = 1, 1
  else:
    zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
  return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis,
                                channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                order=interpolation_order)


@export(_NAME + "apply_channel_shift")
def apply_channel_shift(x, intensity, channel_axis=0):
  """Adds `intensity` to every channel, clipped to the image's [min, max]."""
  x = np.rollaxis(x, channel_axis, 0)
  min_x, max_x = np.min(x), np.max(x)
  x = np.stack([np.clip(c + intensity, min_x, max_x) for c in x], axis=0)
  return np.rollaxis(x, 0, channel_axis + 1)


@export(_NAME + "random_channel_shift")
def random_channel_shift(x, intensity_range, channel_axis=0):
  """Channel shift by a random intensity in [-intensity_range, intensity_range)."""
  intensity = np.random.uniform(-intensity_range, intensity_range)
  return apply_channel_shift(x, intensity, channel_axis=channel_axis)


@export(_NAME + "apply_brightness_shift")
def apply_brightness_shift(x, brightness, scale=True):
  """PIL brightness enhancement of a channels-last image by the factor `brightness`."""
  if ImageEnhance is None:
    raise ImportError("Using brightness shifts requires PIL. Install PIL or Pillow.")
  x_min, x_max = np.min(x), np.max(x)
  local_scale = (x_min < 0) or (x_max > 255)
  img = array_to_img(x, scale=local_scale or scale)
  x = img_to_array(ImageEnhance.Brightness(img).enhance(brightness))
  if not scale and local_scale:
    x = x / 255 * (x_max - x_min) + x_min
  return x


@export(_NAME + "random_brightness")
def random_brightness(x, brightness_range, scale=True):
  """Brightness shift by a random factor drawn from `brightness_range`."""
  if len(brightness_range) != 2:
    raise ValueError("`brightness_range should be tuple or list of two floats. "
                     "Received: %s" % (brightness_range,))
  u = np.random.uniform(brightness_range[0], brightness_range[1])
  return apply_brightness_shift(x, u, scale)


def flip_axis(x, axis):
  """Reverses `x` along `axis`."""
  return np.asarray(x).swapaxes(axis, 0)[::-1, ...].swapaxes(0, axis)
