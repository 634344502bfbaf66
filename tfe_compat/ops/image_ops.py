"""`tf.image`: resizing (TF's exact sampling rules), crops, flips, dtype and colour ops.

Resampling weights depend only on static shapes, so they are computed with NumPy in float32
exactly as TF's kernels compute them and baked into trace-safe gathers / matrix products.
Colour/dtype ops live in image_color.py, decoders and encoders in image_codecs.py.
"""
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import image_codecs, image_color  # noqa: F401  (their tf.image names)
from tfe_compat.ops.array_ops import dims_text

_F32 = np.float32
_HIGHEST = jax.lax.Precision.HIGHEST


@export("image.ResizeMethod")
class ResizeMethod:
  """TF 1.x resize methods (`tf.image.resize` also accepts TF 2's string names)."""
  BILINEAR = 0
  NEAREST_NEIGHBOR = 1
  BICUBIC = 2
  AREA = 3


_V1_METHODS = {0: "bilinear", 1: "nearest", 2: "bicubic", 3: "area"}
_V2_KERNELS = {"lanczos3", "lanczos5", "gaussian", "mitchellcubic"}


# ---- Static sampling weights (float32, as TF's kernels compute them) ----
def _scale(in_size, out_size, align_corners):
  if align_corners and out_size > 1:
    return _F32(in_size - 1) / _F32(out_size - 1)
  return _F32(in_size) / _F32(out_size)


def _source(out_size, scale, half_pixel, nn=False):
  x = np.arange(out_size, dtype=_F32)
  if half_pixel:
    return (x + _F32(0.5)) * scale - (_F32(0) if nn else _F32(0.5))
  return x * scale


@functools.lru_cache(maxsize=256)
def _linear_taps(in_size, out_size, align_corners, half_pixel):
  pos = _source(out_size, _scale(in_size, out_size, align_corners), half_pixel)
  low = np.floor(pos)
  lower = np.maximum(low, 0).astype(np.int32)
  upper = np.minimum(np.ceil(pos), in_size - 1).astype(np.int32)
  return lower, upper, (pos - low).astype(_F32)


@functools.lru_cache(maxsize=256)
def _nearest_taps(in_size, out_size, align_corners, half_pixel):
  pos = _source(out_size, _scale(in_size, out_size, align_corners), half_pixel, nn=True)
  if align_corners:  # roundf: halves away from zero
    index = np.sign(pos) * np.floor(np.abs(pos) + _F32(0.5))
  else:
    index = np.floor(pos)
  index = np.minimum(index, in_size - 1)
  return np.maximum(index, 0).astype(np.int32)


@functools.lru_cache(maxsize=4)
def _cubic_table(a):
  x = np.arange(1025, dtype=np.float64) / 1024
  table = np.empty((1025, 2), _F32)
  table[:, 0] = ((a + 2) * x - (a + 3)) * x * x + 1
  x = x + 1
  table[:, 1] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
  return table


@functools.lru_cache(maxsize=256)
def _cubic_taps(in_size, out_size, align_corners, half_pixel):
  pos = _source(out_size, _scale(in_size, out_size, align_corners), half_pixel)
  loc = np.floor(pos).astype(np.int64)
  offset = np.rint((pos - loc).astype(_F32) * _F32(1024)).astype(np.int64)
  table = _cubic_table(-0.5 if half_pixel else -0.75)
  wanted = [loc - 1, loc, loc + 1, loc + 2]
  index = [np.clip(i, 0, in_size - 1) for i in wanted]
  weight = [table[offset, 1], table[offset, 0], table[1024 - offset, 0],
            table[1024 - offset, 1]]
  if half_pixel:  # Keys cubic: out-of-image taps get no weight; renormalize
    weight = [np.where(i == w, v, _F32(0)) for i, w, v in zip(index, wanted, weight)]
    total = weight[0] + weight[1] + weight[2] + weight[3]
    inv = np.where(np.abs(total) >= 1000 * np.finfo(_F32).tiny, _F32(1) / total, _F32(1))
    weight = [(v * inv).astype(_F32) for v in weight]
  return tuple(i.astype(np.int32) for i in index), tuple(weight)


@functools.lru_cache(maxsize=256)
def _area_matrix(in_size, out_size, align_corners):
  scale = _scale(in_size, out_size, align_corners)
  if scale == 0:  # align_corners from a single row/column: TF replicates it
    return np.ones((out_size, 1), _F32), _F32(1)
  matrix = np.zeros((out_size, in_size), _F32)
  for o in range(out_size):
    start, end = _F32(o) * scale, _F32(o + 1) * scale
    for i in range(int(math.floor(start)), int(math.ceil(end))):
      if i < start:
        weight = scale if i + 1 > end else _F32(i + 1) - start
      else:
        weight = end - _F32(i) if i + 1 > end else _F32(1)
      matrix[o, min(max(i, 0), in_size - 1)] += weight
  return matrix, scale


def _kernel(name, x):
  x = np.abs(x)
  if name.startswith("lanczos"):
    r = float(name[-1])
    with np.errstate(invalid="ignore", divide="ignore"):
      v = r * np.sin(np.pi * x) * np.sin(np.pi * x / r) / (np.pi * np.pi * x * x)
    return np.where(x > r, 0, np.where(x <= 1e-3, 1, v))
  if name == "gaussian":
    return np.where(x >= 1.5, 0, np.exp(-x * x / (2.0 * 0.5 * 0.5)))
  if name == "triangle":
    return np.where(x < 1, 1 - x, 0)
  if name == "keyscubic":
    return np.where(x >= 2, 0, np.where(x >= 1, ((-0.5 * x + 2.5) * x - 4) * x + 2,
                                        (1.5 * x - 2.5) * x * x + 1))
  return np.where(x >= 2, 0, np.where(  # mitchellcubic
      x >= 1, ((-7 / 18 * x + 2) * x - 10 / 3) * x + 16 / 9, (7 / 6 * x - 2) * x * x + 8 / 9))


_RADIUS = {"lanczos3": 3, "lanczos5": 5, "gaussian": 1.5, "triangle": 1, "keyscubic": 2,
           "mitchellcubic": 2}


@functools.lru_cache(maxsize=256)
def _scale_translate_matrix(in_size, out_size, kernel, antialias):
  """TF's ScaleAndTranslate spans (translation 0, scale out/in) as a dense matrix."""
  inv_scale = _F32(1) / (_F32(out_size) / _F32(in_size))
  kernel_scale = max(inv_scale, _F32(1)) if antialias else _F32(1)
  radius = _F32(_RADIUS[kernel]) * kernel_scale
  matrix = np.zeros((out_size, in_size), _F32)
  for o in range(out_size):
    sample = (_F32(o) + _F32(0.5)) * inv_scale
    if sample < 0 or sample > in_size:
      continue
    start = min(max(int(math.ceil(sample - radius - _F32(0.5))), 0), in_size - 1)
    end = min(max(int(math.floor(sample + radius - _F32(0.5))), 0), in_size - 1) + 1
    src = np.arange(start, end, dtype=_F32)
    weights = _kernel(kernel, (src + _F32(0.5) - sample) / kernel_scale).astype(_F32)
    total = weights.sum(dtype=_F32)
    if abs(total) >= 1000 * np.finfo(_F32).tiny:
      matrix[o, start:end] = weights * (_F32(1) / total)
  return matrix


# ---- Trace-safe resampling along one spatial axis of [..., h, w, c] ----
def _lerp(x, axis, taps):
  lower, upper, lerp = taps
  shape = [1] * x.ndim
  shape[axis] = lerp.size
  a, b = jnp.take(x, lower, axis=axis), jnp.take(x, upper, axis=axis)
  return a + (b - a) * lerp.reshape(shape)


def _cubic(x, axis, taps):
  index, weight = taps
  shape = [1] * x.ndim
  shape[axis] = index[0].size
  out = jnp.take(x, index[0], axis=axis) * weight[0].reshape(shape)
  for i, w in zip(index[1:], weight[1:]):
    out = out + jnp.take(x, i, axis=axis) * w.reshape(shape)
  return out


def _matmul(x, matrix, axis):
  y = jnp.tensordot(x, jnp.asarray(matrix), axes=[[axis], [1]], precision=_HIGHEST)
  return jnp.moveaxis(y, -1, axis)


@op(name="Resize")
def _resize(images, *, size, method, align_corners, half_pixel, antialias):
  h, w = images.shape[-3], images.shape[-2]
  oh, ow = size
  if method == "nearest":
    y = jnp.take(images, _nearest_taps(h, oh, align_corners, half_pixel), axis=-3)
    return jnp.take(y, _nearest_taps(w, ow, align_corners, half_pixel), axis=-2)
  x = images.astype(jnp.float32)
  if method == "bilinear" and not antialias:
    x = _lerp(x, -2, _linear_taps(w, ow, align_corners, half_pixel))
    return _lerp(x, -3, _linear_taps(h, oh, align_corners, half_pixel))
  if method == "bicubic" and not antialias:
    x = _cubic(x, -3, _cubic_taps(h, oh, align_corners, half_pixel))
    return _cubic(x, -2, _cubic_taps(w, ow, align_corners, half_pixel))
  if method == "area":
    (my, sy), (mx, sx) = _area_matrix(h, oh, align_corners), _area_matrix(w, ow, align_corners)
    return _matmul(_matmul(x, mx, -2), my, -3) * (_F32(1) / (sy * sx))
  kernel = {"bilinear": "triangle", "bicubic": "keyscubic"}.get(method, method)
  x = _matmul(x, _scale_translate_matrix(w, ow, kernel, antialias), -2)
  return _matmul(x, _scale_translate_matrix(h, oh, kernel, antialias), -3)


_OP_NAMES = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor",
             "bicubic": "ResizeBicubic", "area": "ResizeArea"}


def _size_tuple(size):
  if isinstance(size, Tensor):
    if size.dtype is not dtypes.int32:
      raise ValueError("'size' must be a 1-D int32 Tensor")
    size = size.numpy()
  size = np.asarray(size)
  if size.shape != (2,):
    raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
  if size.dtype.kind not in "iu":
    raise ValueError("'size' must be a 1-D int32 Tensor")
  return int(size[0]), int(size[1])


def _images(images):
  images = convert_to_tensor(images, name="images")
  if images.shape.ndims not in (3, 4):
    raise ValueError("'images' must have either 3 or 4 dimensions.")
  return images


def _image(image):
  image = convert_to_tensor(image, name="image")
  if image.shape.ndims < 3:
    raise ValueError("'image' (shape %s) must be at least three-dimensional." % image.shape)
  if image.shape.ndims > 4:
    raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % image.shape)
  return image


def _run_resize(images, size, method, align_corners=False, half_pixel=False,
                antialias=False):
  if min(size) < 0:  # TF sets the static shape first
    raise ValueError("Dimension %d must be >= 0" % min(size))
  if min(size) == 0:
    raise errors.invalid_argument("output dimensions must be positive [Op:%s]"
                                  % _OP_NAMES.get(method, "ScaleAndTranslate"))
  return _resize(images, size=size, method=method, align_corners=bool(align_corners),
                 half_pixel=half_pixel, antialias=bool(antialias))


def _aspect_size(images, size):
  h, w = _hw(images)
  scale = min(_F32(size[0]) / _F32(h), _F32(size[1]) / _F32(w))
  return int(np.rint(_F32(h) * scale)), int(np.rint(_F32(w) * scale))


@export("image.resize_images")
def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
                  preserve_aspect_ratio=False, name=None):
  """TF 1.x resize (legacy pixel alignment); same-size input is returned unchanged."""
  images = _images(images)
  size = _size_tuple(size)
  if method not in _V1_METHODS:
    raise ValueError("Resize method is not implemented: %s" % (method,))
  if preserve_aspect_ratio:
    size = _aspect_size(images, size)
  if size == _hw(images):
    return images
  return _run_resize(images, size, _V1_METHODS[method], align_corners)


@export("image.resize")
def resize(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
           preserve_aspect_ratio=False, name=None, antialias=False):
  """`tf.image.resize`: TF 1.x `resize_images` for integer methods; TF 2 semantics (half-pixel
  centres, `antialias`, float32 output except nearest) for TF 2's string methods."""
  if not isinstance(method, str) and not antialias:
    return resize_images(images, size, method, align_corners, preserve_aspect_ratio)
  method = _V1_METHODS.get(method, method)
  images = _images(images)
  size = _size_tuple(size)
  if method not in ("bilinear", "nearest", "bicubic", "area") and method not in _V2_KERNELS:
    raise ValueError("Resize method is not implemented: %s" % (method,))
  if preserve_aspect_ratio:
    size = _aspect_size(images, size)
  return _run_resize(images, size, method, False, True, antialias and method != "area")


def _v1_kernel(images, size, method, align_corners, half_pixel_centers):
  images = convert_to_tensor(images, name="images")
  if images.shape.ndims != 4:
    raise errors.invalid_argument("input must be 4-dimensional%s [Op:%s]" % (
        str(images.shape.as_list()).replace(" ", ""), _OP_NAMES[method]))
  return _run_resize(images, _size_tuple(size), method, align_corners,
                     half_pixel_centers)


@export("image.resize_bilinear")
def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
  return _v1_kernel(images, size, "bilinear", align_corners, half_pixel_centers)


@export("image.resize_nearest_neighbor")
def resize_nearest_neighbor(images, size, align_corners=False, name=None,
                            half_pixel_centers=False):
  return _v1_kernel(images, size, "nearest", align_corners, half_pixel_centers)


@export("image.resize_bicubic")
def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
  return _v1_kernel(images, size, "bicubic", align_corners, half_pixel_centers)


@export("image.resize_area")
def resize_area(images, size, align_corners=False, name=None):
  return _v1_kernel(images, size, "area", align_corners, False)


# ---- Crops and pads ----
@op(name="Slice")
def _slice(image, *, begin, size):
  return jax.lax.slice(image, begin, tuple(b + s for b, s in zip(begin, size)))


@op(name="Pad")
def _pad(image, *, paddings):
  return jnp.pad(image, paddings)


def _hw(image):
  return tuple(image._value.shape[-3:-1])


def _static_int(value):
  return int(value.numpy()) if isinstance(value, Tensor) else int(value)


def _spatial(image, offsets, sizes):
  lead = image.shape.ndims - 3
  begin = (0,) * lead + tuple(offsets) + (0,)
  size = tuple(image._value.shape[:lead]) + tuple(sizes) + (image._value.shape[-1],)
  return _slice(image, begin=begin, size=size)


@export("image.crop_to_bounding_box")
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
  image = _image(image)
  oh, ow, th, tw = (_static_int(v) for v in
                    (offset_height, offset_width, target_height, target_width))
  h, w = _hw(image)
  for ok, message in ((ow >= 0, "offset_width must be >= 0."),
                      (oh >= 0, "offset_height must be >= 0."),
                      (tw > 0, "target_width must be > 0."),
                      (th > 0, "target_height must be > 0."),
                      (w >= tw + ow, "width must be >= target + offset."),
                      (h >= th + oh, "height must be >= target + offset.")):
    if not ok:
      raise ValueError(message)
  return _spatial(image, (oh, ow), (th, tw))


@export("image.pad_to_bounding_box")
def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
  image = _image(image)
  oh, ow, th, tw = (_static_int(v) for v in
                    (offset_height, offset_width, target_height, target_width))
  h, w = _hw(image)
  after_h, after_w = th - oh - h, tw - ow - w
  for ok, message in ((oh >= 0, "offset_height must be >= 0"),
                      (ow >= 0, "offset_width must be >= 0"),
                      (after_w >= 0, "width must be <= target - offset"),
                      (after_h >= 0, "height must be <= target - offset")):
    if not ok:
      raise ValueError(message)
  lead = ((0, 0),) * (image.shape.ndims - 3)
  return _pad(image, paddings=lead + ((oh, after_h), (ow, after_w), (0, 0)))


@export("image.resize_image_with_crop_or_pad", "image.resize_with_crop_or_pad")
def resize_image_with_crop_or_pad(image, target_height, target_width):
  """Centrally crops and/or zero-pads `image` to the target size."""
  image = _image(image)
  th, tw = _static_int(target_height), _static_int(target_width)
  if tw <= 0:
    raise ValueError("target_width must be > 0.")
  if th <= 0:
    raise ValueError("target_height must be > 0.")
  h, w = _hw(image)
  cropped = crop_to_bounding_box(image, max(-(th - h) // 2, 0), max(-(tw - w) // 2, 0),
                                 min(th, h), min(tw, w))
  return pad_to_bounding_box(cropped, max((th - h) // 2, 0), max((tw - w) // 2, 0), th, tw)


@export("image.resize_image_with_pad")
def resize_image_with_pad(image, target_height, target_width,
                          method=ResizeMethod.BILINEAR, align_corners=False):
  """Resizes keeping the aspect ratio, then zero-pads to the target size."""
  image = _image(image)
  th, tw = _static_int(target_height), _static_int(target_width)
  if tw <= 0:
    raise ValueError("target_width must be > 0.")
  if th <= 0:
    raise ValueError("target_height must be > 0.")
  h, w = (_F32(d) for d in _hw(image))
  ratio = max(w / _F32(tw), h / _F32(th))
  rh, rw = h / ratio, w / ratio
  pad_h = max(0, int(np.floor((_F32(th) - rh) / _F32(2))))
  pad_w = max(0, int(np.floor((_F32(tw) - rw) / _F32(2))))
  resized = resize_images(image, [int(np.floor(rh)), int(np.floor(rw))], method, align_corners)
  return pad_to_bounding_box(resized, pad_h, pad_w, th, tw)


@export("image.central_crop")
def central_crop(image, central_fraction):
  """Crops the central `central_fraction` of the image (both spatial dimensions)."""
  image = _image(image)
  if central_fraction <= 0.0 or central_fraction > 1.0:
    raise ValueError("central_fraction must be within (0, 1]")
  if central_fraction == 1.0:
    return image
  h, w = _hw(image)
  start_h = int((h - h * central_fraction) / 2)
  start_w = int((w - w * central_fraction) / 2)
  return _spatial(image, (start_h, start_w), (h - 2 * start_h, w - 2 * start_w))


# ---- Flips, transposes, rotations ----
@op(name="ReverseV2")
def _reverse(image, *, axis):
  return jnp.flip(image, axis=axis)


@op(name="Transpose")
def _transpose(image, *, perm):
  return jnp.transpose(image, perm)


def _flip(image, axis):
  image = _image(image)
  return _reverse(image, axis=axis - 4)


@export("image.flip_left_right")
def flip_left_right(image):
  return _flip(image, 2)


@export("image.flip_up_down")
def flip_up_down(image):
  return _flip(image, 1)


@op(name="RandomFlip")
def _select_flip(image, draws, *, axis):
  shape = draws.shape + (1,) * (image.ndim - draws.ndim)
  return jnp.where(draws.reshape(shape) < 0.5, jnp.flip(image, axis=axis), image)


def _random_flip(image, axis, seed):
  image = _image(image)
  batch = tuple(image._value.shape[:-3])
  draws = jax.random.uniform(context.next_rng_key(seed), batch, jnp.float32)
  return _select_flip(image, Tensor(draws), axis=axis - 4)


@export("image.random_flip_left_right")
def random_flip_left_right(image, seed=None):
  return _random_flip(image, 2, seed)


@export("image.random_flip_up_down")
def random_flip_up_down(image, seed=None):
  return _random_flip(image, 1, seed)


@export("image.transpose_image", "image.transpose")
def transpose_image(image, name=None):
  image = _image(image)
  perm = (1, 0, 2) if image.shape.ndims == 3 else (0, 2, 1, 3)
  return _transpose(image, perm=perm)


@op(name="Rot90")
def _rot90(image, *, k):
  return jnp.rot90(image, k, axes=(image.ndim - 3, image.ndim - 2))


@export("image.rot90")
def rot90(image, k=1, name=None):
  """Rotates counter-clockwise by k * 90 degrees."""
  image = _image(image)
  return _rot90(image, k=_static_int(k) % 4)



def check_nms_inputs(boxes, scores, max_output_size, op_name):
  """TF's checks of NMS boxes [n, 4], scores [n] and max_output_size; the size as an int."""
  def fail(message):
    return errors.op_error(message, op_name)
  if boxes.shape.ndims != 2:
    raise fail("boxes must be 2-D%s (Shape must be rank 2 but is rank %d)"
               % (dims_text(boxes._value.shape), boxes.shape.ndims))
  if boxes._value.shape[1] != 4:
    raise fail("boxes must have 4 columns (Dimension must be 4 but is %d)"
               % boxes._value.shape[1])
  if scores.shape.ndims != 1:
    raise fail("scores must be 1-D%s (Shape must be rank 1 but is rank %d)"
               % (dims_text(scores._value.shape), scores.shape.ndims))
  if scores._value.shape[0] != boxes._value.shape[0]:
    raise fail("scores has incompatible shape (Dimensions must be equal, but are %d and %d)"
               % (boxes._value.shape[0], scores._value.shape[0]))
  size = _static_int(max_output_size)
  if size < 0:
    raise fail("output size must be non-negative")
  return size


@op(name="NonMaxSuppressionV3", jit=False)
def _nms(boxes, scores, *, max_output_size, iou_threshold, score_threshold):
  boxes, scores = np.asarray(boxes, np.float32), np.asarray(scores, np.float32)
  lo, hi = np.minimum(boxes[:, :2], boxes[:, 2:]), np.maximum(boxes[:, :2], boxes[:, 2:])
  area = np.prod(hi - lo, axis=1)
  order = [i for i in np.lexsort((np.arange(scores.size), -scores))
           if scores[i] > score_threshold]
  selected = []
  for i in order:
    if len(selected) >= max_output_size:
      break
    keep = True
    for j in selected:
      inter = np.prod(np.maximum(np.minimum(hi[i], hi[j]) - np.maximum(lo[i], lo[j]), 0))
      union = area[i] + area[j] - inter
      if area[i] > 0 and area[j] > 0 and union > 0 and inter / union > iou_threshold:
        keep = False
        break
    if keep:
      selected.append(i)
  return device_lib.put(np.array(selected, np.int32))


@export("image.non_max_suppression")
def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
  """Greedy NMS over [y1, x1, y2, x2] boxes; returns int32 indices, best score first."""
  boxes = convert_to_tensor(boxes, dtypes.float32)
  scores = convert_to_tensor(scores, dtypes.float32)
  size = check_nms_inputs(boxes, scores, max_output_size, "NonMaxSuppressionV3")
  if not 0 <= float(iou_threshold) <= 1:
    raise errors.invalid_argument("iou_threshold must be in [0, 1] [Op:NonMaxSuppressionV3]")
  return _nms(boxes, scores, max_output_size=size,
              iou_threshold=float(iou_threshold), score_threshold=float(score_threshold))
