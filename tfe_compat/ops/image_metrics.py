"""`tf.image` quality metrics (psnr, ssim, ssim_multiscale), image_gradients, sobel_edges,
YUV/YIQ conversions, crop_and_resize, draw_bounding_boxes and extract_patches (TF's kernels)."""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op, tf_type_name
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.array_ops import invalid
from tfe_compat.ops.image_color import _convert  # convert_image_dtype on arrays
from tfe_compat.ops.space_ops import extract_image_patches

_HIGHEST = jax.lax.Precision.HIGHEST
_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _dims(tensor):
  return tuple(tensor._value.shape)


def _debug(shape):
  """A shape as TF's C++ DebugString writes it: [2,3]."""
  return "[%s]" % ",".join(str(d) for d in shape)


def _is_concrete(tensor):
  return not isinstance(tensor._value, jax.core.Tracer)


def _as_float32(x, max_val):
  """convert_image_dtype of `x` and of `max_val` cast to x's dtype, as psnr/ssim do."""
  return _convert(x, np.float32), _convert(max_val.astype(x.dtype), np.float32)


# ---- PSNR ----
@op(name="PSNR")
def _psnr(a, b, max_val):
  a, max_val = _as_float32(a, max_val)
  b = _convert(b, np.float32)
  mse = jnp.mean(jnp.square(a - b), axis=(-3, -2, -1))
  return (20 * jnp.log(max_val) / jnp.log(np.float32(10))
          - np.float32(10 / np.log(10)) * jnp.log(mse))


@export("image.psnr")
def psnr(a, b, max_val, name=None):
  """Peak signal-to-noise ratio per image over the last three axes; float32."""
  a, b = convert_to_tensor(a, name="a"), convert_to_tensor(b, name="b")
  try:
    rank = len(np.broadcast_shapes(_dims(a), _dims(b)))
  except ValueError:
    raise invalid("Incompatible shapes: %s vs. %s" % (_debug(_dims(a)), _debug(_dims(b))),
                  "SquaredDifference") from None
  if rank < 3:
    raise invalid("Invalid reduction dimension (-3 for input with %d dimension(s)" % rank, "Mean")
  return _psnr(a, b, convert_to_tensor(max_val))


# ---- SSIM / MS-SSIM ----
def _fspecial_gauss(size, sigma):
  coords = jnp.arange(size, dtype=jnp.float32) - np.float32(size - 1) / np.float32(2)
  g = jnp.square(coords) * (np.float32(-0.5) / jnp.square(jnp.float32(sigma)))
  g = jax.nn.softmax((g[None, :] + g[:, None]).reshape(-1))
  return g.reshape(size, size, 1, 1)


def _ssim_per_channel(x, y, max_val, filter_size, filter_sigma, k1, k2, index_map=False):
  """TF's _ssim_per_channel: (ssim, cs) per channel from an 11x11-style gaussian window."""
  channels = x.shape[-1]
  kernel = jnp.tile(_fspecial_gauss(filter_size, filter_sigma), (1, 1, 1, channels))

  def reducer(v):
    flat = v.reshape((-1,) + v.shape[-3:])
    out = jax.lax.conv_general_dilated(
        flat, kernel, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"),
        feature_group_count=channels, precision=_HIGHEST)
    return out.reshape(v.shape[:-3] + out.shape[1:])

  c1 = jnp.square(k1 * max_val)
  c2 = jnp.square(k2 * max_val)
  mean0, mean1 = reducer(x), reducer(y)
  num0 = mean0 * mean1 * 2.0
  den0 = jnp.square(mean0) + jnp.square(mean1)
  luminance = (num0 + c1) / (den0 + c1)
  num1 = reducer(x * y) * 2.0
  den1 = reducer(jnp.square(x) + jnp.square(y))
  cs = (num1 - num0 + c2) / (den1 - den0 + c2)
  if index_map:
    return luminance * cs, cs
  return jnp.mean(luminance * cs, axis=(-3, -2)), jnp.mean(cs, axis=(-3, -2))


@op(name="SSIM")
def _ssim(img1, img2, max_val, *, filter_size, filter_sigma, k1, k2, index_map):
  img1, max_val = _as_float32(img1, max_val)
  img2 = _convert(img2, np.float32)
  ssim_val, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2,
                                  index_map)
  return jnp.mean(ssim_val, axis=-1)


def _downscale(x):
  """TF's MS-SSIM step: pad odd sizes (SYMMETRIC), then a 2x2 VALID average pool."""
  h, w, c = x.shape[-3:]
  flat = jnp.pad(x.reshape((-1, h, w, c)), ((0, 0), (0, h % 2), (0, w % 2), (0, 0)),
                 mode="symmetric")
  pooled = jax.lax.reduce_window(flat, np.array(0, flat.dtype), jax.lax.add, (1, 2, 2, 1),
                                 (1, 2, 2, 1), "VALID") / np.float32(4)
  return pooled.reshape(x.shape[:-3] + pooled.shape[1:])


@op(name="MS-SSIM")
def _ms_ssim(img1, img2, max_val, power_factors, *, filter_size, filter_sigma, k1, k2):
  img1, max_val = _as_float32(img1, max_val)
  imgs = [img1, _convert(img2, np.float32)]
  mcs = []
  for k in range(power_factors.shape[0]):
    if k > 0:
      imgs = [_downscale(x) for x in imgs]
    ssim_per_channel, cs = _ssim_per_channel(*imgs, max_val, filter_size, filter_sigma, k1, k2)
    mcs.append(jax.nn.relu(cs))
  mcs[-1] = jax.nn.relu(ssim_per_channel)
  ms_ssim = jnp.prod(jnp.power(jnp.stack(mcs, axis=-1), power_factors), axis=-1)
  return jnp.mean(ms_ssim, axis=-1)


def _image_pair(img1, img2):
  """TF's _verify_compatible_image_shapes (its static ValueErrors)."""
  img1, img2 = convert_to_tensor(img1, name="img1"), convert_to_tensor(img2, name="img2")
  for image in (img1, img2):
    if image.shape.ndims < 3:
      raise ValueError("Shape %s must have rank at least 3" % image.shape)
  s1, s2 = _dims(img1), _dims(img2)
  if s1[-3:] != s2[-3:]:
    raise ValueError("Shapes %s and %s are incompatible" % (img1.shape[-3:], img2.shape[-3:]))
  for d1, d2 in zip(reversed(s1[:-3]), reversed(s2[:-3])):
    if d1 != d2 and 1 not in (d1, d2):
      raise ValueError("Two images are not compatible: %s and %s" % (img1.shape, img2.shape))
  return img1, img2


def _check_filter(shape, filter_size):
  """TF's Assert that the images are at least filter_size x filter_size."""
  if min(shape[-3:-1]) < filter_size:
    raise errors.invalid_argument(
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
        "%s\n%d" % (", ".join(str(d) for d in shape), filter_size))


def _ssim_attrs(filter_size, filter_sigma, k1, k2):
  return dict(filter_size=int(filter_size), filter_sigma=float(filter_sigma), k1=float(k1),
              k2=float(k2))


@export("image.ssim")
def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
  """SSIM per image (mean over channels) with TF's gaussian window; float32."""
  img1, img2 = _image_pair(img1, img2)
  attrs = _ssim_attrs(filter_size, filter_sigma, k1, k2)
  _check_filter(_dims(img1), attrs["filter_size"])
  return _ssim(img1, img2, convert_to_tensor(max_val), index_map=bool(return_index_map),
               **attrs)


@export("image.ssim_multiscale")
def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
  """MS-SSIM per image: one scale per power factor, each downscaled by 2; float32."""
  img1, img2 = _image_pair(img1, img2)
  attrs = _ssim_attrs(filter_size, filter_sigma, k1, k2)
  power_factors = convert_to_tensor(power_factors, dtypes.float32)
  shape = _dims(img1)
  for k in range(_dims(power_factors)[0]):
    if k > 0:
      shape = shape[:-3] + ((shape[-3] + 1) // 2, (shape[-2] + 1) // 2, shape[-1])
    _check_filter(shape, attrs["filter_size"])
  return _ms_ssim(img1, img2, convert_to_tensor(max_val), power_factors, **attrs)


# ---- Gradients and edges ----
@op(name="ImageGradients")
def _image_gradients(image):
  dy = jnp.concatenate([image[:, 1:] - image[:, :-1], jnp.zeros_like(image[:, :1])], axis=1)
  dx = jnp.concatenate([image[:, :, 1:] - image[:, :, :-1], jnp.zeros_like(image[:, :, :1])],
                       axis=2)
  return dy, dx


@export("image.image_gradients")
def image_gradients(image):
  """(dy, dx): forward differences of a [batch, h, w, d] image, zero in the last row/col."""
  image = convert_to_tensor(image, name="image")
  if image.shape.ndims != 4:
    raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not %s."
                     % image.shape)
  return tuple(_image_gradients(image))


@op(name="SobelEdges")
def _sobel_edges(image):
  h, w = image.shape[1:3]
  padded = jnp.pad(image, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")

  def tap(i, j):
    return padded[:, i:i + h, j:j + w]
  dy = tap(2, 0) + 2 * tap(2, 1) + tap(2, 2) - tap(0, 0) - 2 * tap(0, 1) - tap(0, 2)
  dx = tap(0, 2) + 2 * tap(1, 2) + tap(2, 2) - tap(0, 0) - 2 * tap(1, 0) - tap(2, 0)
  return jnp.stack([dy, dx], axis=-1)


@export("image.sobel_edges")
def sobel_edges(image):
  """[batch, h, w, d, 2] Sobel responses (dy, dx) with REFLECT padding."""
  image = convert_to_tensor(image, name="image")
  shape = _dims(image)
  if len(shape) != 4:
    raise invalid("The first dimension of paddings must be the rank of inputs[4,2], %s"
                  % _debug(shape), "MirrorPad")
  for size in shape[1:3]:
    if size < 2:
      raise invalid("paddings must be less than the dimension size: 1, 1 not less than %d"
                    % size, "MirrorPad")
  if not image.dtype.is_floating:
    raise invalid("Value for attr 'T' of %s is not in the list of allowed values: half, "
                  "bfloat16, float, double" % tf_type_name(image.dtype), "DepthwiseConv2dNative")
  return _sobel_edges(image)


# ---- YUV / YIQ (TF's kernels, a matrix product over the last axis) ----
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


@op(name="Tensordot")
def _color_transform(images, kernel):
  return jnp.tensordot(images, kernel, axes=[[images.ndim - 1], [0]], precision=_HIGHEST)


def _apply_kernel(images, kernel):
  images = convert_to_tensor(images, name="images")
  kernel = convert_to_tensor(kernel, dtype=images.dtype, name="kernel")
  shape = _dims(images)
  if shape and shape[-1] != 3:
    raise invalid("Matrix size-incompatible: In[0]: [%d,%d], In[1]: [3,3]"
                  % (int(np.prod(shape[:-1])), shape[-1]), "MatMul")
  return _color_transform(images, kernel)


@export("image.rgb_to_yiq")
def rgb_to_yiq(images):
  return _apply_kernel(images, _RGB_TO_YIQ)


@export("image.yiq_to_rgb")
def yiq_to_rgb(images):
  return _apply_kernel(images, _YIQ_TO_RGB)


@export("image.rgb_to_yuv")
def rgb_to_yuv(images):
  return _apply_kernel(images, _RGB_TO_YUV)


@export("image.yuv_to_rgb")
def yuv_to_rgb(images):
  return _apply_kernel(images, _YUV_TO_RGB)


# ---- crop_and_resize (tensorflow/core/kernels/image/crop_and_resize_op.cc) ----
def _sample_points(start, end, size, crop):
  """Source coordinates (num_boxes, crop) of one axis, in float32 as the kernel computes."""
  extent = np.float32(size - 1)
  if crop > 1:
    # An opaque divisor keeps XLA from folding `* extent / (crop - 1)` into one
    # multiplication, whose rounding moves points off the integers TF's kernel lands on
    # (compiled code may still differ from TF by an ulp, through fused multiply-adds).
    span = (end - start) * extent
    scale = span / jax.lax.optimization_barrier(jnp.full(span.shape, crop - 1, jnp.float32))
    return start[:, None] * extent + jnp.arange(crop, dtype=jnp.float32) * scale[:, None]
  return (np.float32(0.5) * (start + end) * extent)[:, None]


def _bilinear_crops(image, boxes, box_ind, crop_size):
  _, h, w, _ = image.shape
  in_y = _sample_points(boxes[:, 0], boxes[:, 2], h, crop_size[0])
  in_x = _sample_points(boxes[:, 1], boxes[:, 3], w, crop_size[1])
  top, left = jnp.floor(in_y), jnp.floor(in_x)
  y_lerp, x_lerp = (in_y - top)[:, :, None, None], (in_x - left)[:, None, :, None]

  def pixels(y, x):
    y = jnp.clip(y.astype(jnp.int32), 0, h - 1)[:, :, None]
    x = jnp.clip(x.astype(jnp.int32), 0, w - 1)[:, None, :]
    return image[box_ind[:, None, None], y, x]
  bottom, right = jnp.ceil(in_y), jnp.ceil(in_x)
  top_left, top_right = pixels(top, left), pixels(top, right)
  bottom_left, bottom_right = pixels(bottom, left), pixels(bottom, right)
  upper = top_left + (top_right - top_left) * x_lerp
  lower = bottom_left + (bottom_right - bottom_left) * x_lerp
  return upper + (lower - upper) * y_lerp, in_y, in_x


def _round_half_away(v):
  """C's roundf for v >= 0."""
  whole = jnp.floor(v)
  return whole + (v - whole >= 0.5)


@op(name="CropAndResize", differentiable=(0, 1))
def _crop_and_resize(image, boxes, box_ind, *, crop_size, method, extrapolation_value):
  image = image.astype(jnp.float32)
  box_ind = jnp.clip(box_ind, 0, image.shape[0] - 1)
  nearest = method == "nearest"
  # TF's box gradient is the bilinear one whatever the method: with "nearest", the bilinear
  # crops (of a constant image) carry it, and the values come from the nearest pixels.
  crops, in_y, in_x = _bilinear_crops(jax.lax.stop_gradient(image) if nearest else image,
                                      boxes, box_ind, crop_size)
  if nearest:
    h, w = image.shape[1:3]
    fixed_y, fixed_x = jax.lax.stop_gradient((in_y, in_x))
    y = jnp.clip(_round_half_away(fixed_y).astype(jnp.int32), 0, h - 1)[:, :, None]
    x = jnp.clip(_round_half_away(fixed_x).astype(jnp.int32), 0, w - 1)[:, None, :]
    delta = crops - jax.lax.stop_gradient(crops)
    crops = image[box_ind[:, None, None], y, x] + jnp.where(jnp.isfinite(delta), delta, 0)
  inside_y = (in_y >= 0) & (in_y <= image.shape[1] - 1)
  inside_x = (in_x >= 0) & (in_x <= image.shape[2] - 1)
  inside = inside_y[:, :, None, None] & inside_x[:, None, :, None]
  return jnp.where(inside, crops, np.float32(extrapolation_value))


def _crop_and_resize_checks(image, boxes, box_ind, crop_size):
  """The kernel's input validation, in its order; returns (crop_height, crop_width)."""
  fail = lambda message: invalid(message, "CropAndResize")  # noqa: E731
  shape, box_shape, ind_shape = _dims(image), _dims(boxes), _dims(box_ind)
  if len(shape) != 4:
    raise fail("input image must be 4-D%s" % _debug(shape))
  if shape[1] <= 0 or shape[2] <= 0:
    raise fail("image dimensions must be positive")
  if len(box_shape) != 2:
    raise fail("boxes must be 2-D, got: %s" % _debug(box_shape))
  if len(ind_shape) != 1:
    raise fail("box_indices must be rank 1 but is shape %s" % _debug(ind_shape))
  if box_shape[0] * box_shape[1] or ind_shape[0]:
    if box_shape[1] != 4:
      raise fail("boxes must have 4 columns")
    if ind_shape[0] != box_shape[0]:
      raise fail("box_index has incompatible shape")
  if len(_dims(crop_size)) != 1:
    raise fail("crop_size must be 1-D%s" % _debug(_dims(crop_size)))
  if _dims(crop_size)[0] != 2:
    raise fail("crop_size must have two elements%s" % _debug(_dims(crop_size)))
  crop_height, crop_width = (int(v) for v in np.asarray(crop_size._value))
  if crop_height <= 0 or crop_width <= 0:
    raise fail("crop dimensions must be positive")
  if _is_concrete(box_ind):
    indices = np.asarray(box_ind._value)
    if indices.size and (indices.min() < 0 or indices.max() >= shape[0]):
      raise errors.OutOfRangeError(
          None, None, "box_index has values outside [0, batch_size) [Op:CropAndResize]")
  if _is_concrete(boxes) and not np.isfinite(np.asarray(boxes._value)).all():
    raise fail("Boxes contains at least one element that is not finite")
  return crop_height, crop_width


@export("image.crop_and_resize")
def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear",
                    extrapolation_value=0, name=None, box_indices=None):
  """Crops normalized boxes [y1, x1, y2, x2] from `image[box_ind]`, resized (corner aligned)
  to crop_size; coordinates outside the image give extrapolation_value; float32."""
  if box_ind is not None and box_indices is not None:
    raise ValueError("Cannot specify both 'box_ind' and 'box_indices'.")
  box_ind = box_indices if box_ind is None else box_ind
  image = convert_to_tensor(image, name="image")
  boxes = convert_to_tensor(boxes, dtypes.float32, name="boxes")
  box_ind = convert_to_tensor(box_ind, dtypes.int32, name="box_ind")
  crop_size = convert_to_tensor(crop_size, dtypes.int32, name="crop_size")
  if method not in ("bilinear", "nearest"):
    raise invalid("Value for attr 'method' of \"%s\" is not in the list of allowed values: "
                  "\"bilinear\", \"nearest\"" % method, "CropAndResize")
  size = _crop_and_resize_checks(image, boxes, box_ind, crop_size)
  return _crop_and_resize(image, boxes, box_ind, crop_size=size, method=method,
                          extrapolation_value=float(np.float32(extrapolation_value)))


# ---- draw_bounding_boxes (tensorflow/core/kernels/image/draw_bounding_box_op.cc) ----
_DEFAULT_COLORS = np.array(
    [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
     [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


@op(name="DrawBoundingBoxesV2", differentiable=False)
def _draw_bounding_boxes(images, boxes, colors):
  _, h, w, _ = images.shape
  num_boxes = boxes.shape[1]
  if num_boxes == 0:
    return images
  # The kernel truncates float(coordinate) * (size - 1) to an integer.
  rows = (boxes[..., 0::2] * np.float32(h - 1)).astype(jnp.int64)[..., None, None]
  cols = (boxes[..., 1::2] * np.float32(w - 1)).astype(jnp.int64)[..., None, None]
  min_row, max_row, min_col, max_col = rows[:, :, 0], rows[:, :, 1], cols[:, :, 0], cols[:, :, 1]
  drawn = ~((min_row > max_row) | (min_col > max_col) | (min_row >= h) | (max_row < 0)
            | (min_col >= w) | (max_col < 0))
  y = jnp.arange(h, dtype=jnp.int64)[:, None]
  x = jnp.arange(w, dtype=jnp.int64)[None, :]
  along_x = (x >= jnp.maximum(min_col, 0)) & (x <= jnp.minimum(max_col, w - 1))
  along_y = (y >= jnp.maximum(min_row, 0)) & (y <= jnp.minimum(max_row, h - 1))
  on_box = drawn & ((((y == min_row) | (y == max_row)) & along_x)
                    | (((x == min_col) | (x == max_col)) & along_y))
  # Boxes are drawn in order, so the last box through a pixel gives its colour.
  last = jnp.max(jnp.where(on_box, jnp.arange(num_boxes)[:, None, None], -1), axis=1)
  box_colors = colors[jnp.arange(num_boxes) % colors.shape[0]].astype(images.dtype)
  return jnp.where((last >= 0)[..., None], box_colors[jnp.maximum(last, 0)], images)


@export("image.draw_bounding_boxes")
def draw_bounding_boxes(images, boxes, name=None, colors=None):
  """Draws box outlines (normalized [y_min, x_min, y_max, x_max]) on float32/half images,
  cycling through `colors` (RGBA rows) or TF's default colour table."""
  op_name = "DrawBoundingBoxes" if colors is None else "DrawBoundingBoxesV2"
  images = convert_to_tensor(images, name="images")
  if images.dtype not in (dtypes.float32, dtypes.float16):
    raise invalid("Value for attr 'T' of %s is not in the list of allowed values: float, half"
                  % tf_type_name(images.dtype), op_name)
  if isinstance(boxes, Tensor) and boxes.dtype is not dtypes.float32:
    raise invalid("cannot compute %s as input #1(zero-based) was expected to be a float tensor "
                  "but is a %s tensor" % (op_name, tf_type_name(boxes.dtype)), op_name)
  boxes = convert_to_tensor(boxes, dtypes.float32, name="boxes")
  shape, box_shape = _dims(images), _dims(boxes)
  if len(shape) != 4:
    raise invalid("The rank of the images should be 4", op_name)
  if len(box_shape) != 3:
    raise invalid("The rank of the boxes tensor should be 3", op_name)
  if shape[0] != box_shape[0]:
    raise invalid("The batch sizes should be the same", op_name)
  if shape[3] not in (1, 3, 4):
    raise invalid("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)", op_name)
  if box_shape[2] != 4:
    raise invalid("The size of the third dimension of the box must be 4. Received: %d"
                  % box_shape[2], op_name)
  depth = shape[3]
  table = None
  if colors is not None:
    colors = convert_to_tensor(colors, dtypes.float32, name="colors")
    color_shape = _dims(colors)
    if len(color_shape) != 2:
      raise invalid("colors must be a 2-D matrix%s" % _debug(color_shape), op_name)
    if color_shape[1] < depth:
      raise invalid("colors must have equal or more channels than the image provided: %s"
                    % _debug(color_shape), op_name)
    if color_shape[0] * color_shape[1]:
      table = colors[:, :depth]
  if table is None:
    default = _DEFAULT_COLORS[:, :depth].copy()
    if depth == 1:
      default[:, 0] = 1
    table = convert_to_tensor(default)
  return _draw_bounding_boxes(images, boxes, table)


# ---- extract_patches (the TF 2 name of extract_image_patches) ----
@export("image.extract_patches")
def extract_patches(images, sizes, strides, rates, padding, name=None):
  """`tf.image.extract_patches`: `tf.extract_image_patches` with TF 2's argument names."""
  return extract_image_patches(images, ksizes=sizes, strides=strides, rates=rates,
                               padding=padding)
