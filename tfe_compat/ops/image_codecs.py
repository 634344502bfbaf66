"""`tf.image` / `tf.io` image decoders and encoders (Pillow; pypng for 16-bit colour PNGs,
which Pillow reads only at 8 bits and cannot write).

They run on concrete values only (not trace-safe): the contents are a scalar string Tensor.
PNG decoding reproduces libpng's conversions as TF configures them (grey from RGB with
(9798 R + 19235 G + 3735 B) >> 15, rounded at 16 bits, 16 -> 8 bits keeps the high byte,
8 -> 16 bits x 257).
JPEG decoding uses Pillow's libjpeg, whose IDCT/upsampling may differ from TF's build by a
few levels per pixel.
"""
import io

import jax.numpy as jnp
import numpy as np
import png
from PIL import Image, ImageFile, ImageSequence

from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.image_color import convert_image_dtype

_UNKNOWN = "Unknown image file format. One of JPEG, PNG, GIF, BMP required."


def _contents(contents, op_name):
  contents = convert_to_tensor(contents, dtypes.string)
  if contents.shape.ndims != 0:
    raise errors.invalid_argument("`contents` must be scalar but got shape%s [Op:%s]"
                                  % (str(contents.shape.as_list()).replace(" ", ""), op_name))
  return contents.numpy()


def _format(data):
  if data[:3] == b"\xff\xd8\xff":
    return "jpeg"
  if data[:8] == b"\x89PNG\r\n\x1a\n":
    return "png"
  if data[:3] == b"GIF":
    return "gif"
  if data[:2] == b"BM":
    return "bmp"
  return None


def _check_channels(channels, op_name, allowed=(0, 1, 3, 4)):
  if channels not in allowed:
    raise errors.invalid_argument("`channels` must be 0, 1, 3 or 4 but got %d [Op:%s]"
                                  % (channels, op_name))


def _open(data, op_name):
  try:
    image = Image.open(io.BytesIO(data))
  except Exception:  # pylint: disable=broad-except
    raise errors.invalid_argument("%s [Op:%s]" % (_UNKNOWN, op_name)) from None
  return image


def _uint8(array):
  return Tensor(device_lib.put(np.asarray(array, dtype=np.uint8)))


# ---- PNG ----
def _png_native(image, data):
  """(array [h, w, c], bits) at the file's own channel count and depth."""
  raw = image.tile[0][3] if image.tile else ""
  raw = raw[0] if isinstance(raw, tuple) else raw
  if image.mode in ("I", "I;16", "I;16B", "I;16L"):
    return np.asarray(image).astype(np.uint16)[..., None], 16
  if raw.endswith(";16B") and image.mode != "L":  # 16-bit grey+alpha or colour: pypng
    width, height, rows, info = png.Reader(bytes=data).asDirect()
    rows = np.vstack([np.asarray(row, np.uint16) for row in rows])
    return rows.reshape(height, width, info["planes"]), 16
  if image.mode == "1":
    image = image.convert("L")
  elif image.mode in ("P", "PA"):
    image = image.convert("RGBA" if image.mode == "PA" or "transparency" in image.info
                          else "RGB")
  array = np.asarray(image)
  return (array[..., None] if array.ndim == 2 else array), 8


def _png_channels(array, channels, bits):
  have = array.shape[-1]
  if channels == 0 or channels == have:
    return array
  opaque = np.full(array.shape[:-1] + (1,), 2 ** bits - 1, array.dtype)
  color = array[..., :3] if have >= 3 else np.repeat(array[..., :1], 3, axis=-1)
  if channels == 1:
    if have < 3:
      return array[..., :1]
    rgb = color.astype(np.int64)
    rounding = 16384 if bits == 16 else 0
    gray = (9798 * rgb[..., 0] + 19235 * rgb[..., 1] + 3735 * rgb[..., 2] + rounding) >> 15
    return gray.astype(array.dtype)[..., None]
  if channels == 3:
    return color
  alpha = array[..., -1:] if have in (2, 4) else opaque
  return np.concatenate([color, alpha], axis=-1)


@export("image.decode_png", "io.decode_png")
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
  """Decodes a PNG (or any format Pillow reads) to uint8/uint16 [h, w, channels]."""
  data = _contents(contents, "DecodePng")
  _check_channels(channels, "DecodePng")
  dtype = dtypes.as_dtype(dtype)
  if _format(data) == "jpeg":
    return convert_image_dtype(decode_jpeg(data, channels), dtype)
  array, bits = _png_native(_open(data, "DecodePng"), data)
  array = _png_channels(array, channels, bits)
  if dtype is dtypes.uint16:
    return Tensor(jnp.asarray(array.astype(np.uint16) * (257 if bits == 8 else 1)))
  return _uint8(array >> 8 if bits == 16 else array)


@export("image.encode_png", "io.encode_png")
def encode_png(image, compression=-1, name=None):
  """PNG-encodes a uint8/uint16 [h, w, c] image (c in 1..4); compression -1 or 0..9."""
  image = convert_to_tensor(image)
  if image.dtype not in (dtypes.uint8, dtypes.uint16):
    raise errors.invalid_argument("Value for attr 'T' of %s is not in the list of allowed "
                                  "values: uint8, uint16 [Op:EncodePng]" % image.dtype.name)
  if image.shape.ndims != 3:
    raise errors.invalid_argument("images must be at least rank 3%s [Op:EncodePng]"
                                  % str(image.shape.as_list()).replace(" ", ""))
  h, w, c = image.shape.as_list()
  if c not in (1, 2, 3, 4):
    raise errors.invalid_argument("image must have 1, 2, 3, or 4 channels, got %d "
                                  "[Op:EncodePng]" % c)
  level = int(compression)
  if not -1 <= level <= 9:
    raise errors.invalid_argument("compression should be in [-1,9], got %d [Op:EncodePng]"
                                  % level)
  array = image.numpy()
  out = io.BytesIO()
  if image.dtype is dtypes.uint16 and c > 1:  # Pillow writes 16 bits for grey only
    writer = png.Writer(w, h, greyscale=c < 3, alpha=c in (2, 4), bitdepth=16,
                        compression=None if level == -1 else level)
    writer.write_packed(out, (row.tobytes() for row in array.astype(">u2").reshape(h, -1)))
  else:  # level -1 is zlib's default, as in TF
    Image.fromarray(array[..., 0] if c == 1 else array).save(out, "PNG", compress_level=level)
  return Tensor(np.array(out.getvalue(), dtype=object))


# ---- JPEG ----
def _check_jpeg_args(channels, ratio, fancy_upscaling, op_name):
  _check_channels(channels, op_name)
  if channels == 4:
    raise errors.invalid_argument("JPEG does not support 4 channels [Op:%s]" % op_name)
  if ratio not in (1, 2, 4, 8):
    raise errors.invalid_argument("ratio must be 1, 2, 4, or 8, got %d [Op:%s]"
                                  % (ratio, op_name))
  if not fancy_upscaling:
    raise NotImplementedError("decode_jpeg(fancy_upscaling=False) is not supported.")


def _decode_jpeg(data, channels, ratio, try_recover_truncated, op_name):
  """The uint8 [h, w, c] NumPy array of JPEG bytes."""
  previous = ImageFile.LOAD_TRUNCATED_IMAGES
  ImageFile.LOAD_TRUNCATED_IMAGES = bool(try_recover_truncated)
  try:
    image = Image.open(io.BytesIO(data))
    mode = {1: "L", 3: "RGB"}.get(channels, "L" if image.mode == "L" else "RGB")
    w, h = image.size
    image.draft(mode, (max(1, w // ratio), max(1, h // ratio)) if ratio > 1 else None)
    image = image.convert(mode)
  except (OSError, SyntaxError, ValueError):
    raise errors.invalid_argument("jpeg::Uncompress failed. Invalid JPEG data or crop "
                                  "window. [Op:%s]" % op_name) from None
  finally:
    ImageFile.LOAD_TRUNCATED_IMAGES = previous
  array = np.asarray(image)
  return array[..., None] if array.ndim == 2 else array


@export("image.decode_jpeg", "io.decode_jpeg")
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
  """Decodes a JPEG to uint8 [h, w, channels]; `dct_method` is a hint TF may ignore."""
  data = _contents(contents, "DecodeJpeg")
  _check_jpeg_args(channels, ratio, fancy_upscaling, "DecodeJpeg")
  if _format(data) != "jpeg":
    return decode_png(data, channels)
  return _uint8(_decode_jpeg(data, channels, ratio, try_recover_truncated, "DecodeJpeg"))


@export("image.decode_and_crop_jpeg", "io.decode_and_crop_jpeg")
def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
  """Decodes a JPEG (scaled down by `ratio`) and crops it to `crop_window` [y, x, h, w]."""
  op_name = "DecodeAndCropJpeg"
  data = _contents(contents, op_name)
  window = convert_to_tensor(crop_window, dtypes.int32)
  if window.shape.ndims != 1:
    raise errors.invalid_argument("crop_window must be 1-D, got shape %s [Op:%s]"
                                  % (str(window.shape.as_list()).replace(" ", ""), op_name))
  if window.shape[0] != 4:
    raise errors.invalid_argument("crop_size must have four elements [%d] [Op:%s]"
                                  % (window.shape[0], op_name))
  _check_jpeg_args(channels, ratio, fancy_upscaling, op_name)
  kind = _format(data)
  if kind != "jpeg":
    raise errors.invalid_argument(
        ("%s operation can run on JPEG only, but detected %s." % (op_name, kind.upper())
         if kind else _UNKNOWN) + " [Op:%s]" % op_name)
  array = _decode_jpeg(data, channels, ratio, try_recover_truncated, op_name)
  y, x, h, w = (int(v) for v in window.numpy())
  if min(y, x) < 0 or min(h, w) <= 0 or y + h > array.shape[0] or x + w > array.shape[1]:
    raise errors.invalid_argument("jpeg::Uncompress failed. Invalid JPEG data or crop "
                                  "window. [Op:%s]" % op_name)
  return _uint8(array[y:y + h, x:x + w])


@export("image.encode_jpeg", "io.encode_jpeg")
def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # pylint: disable=redefined-builtin
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
  """JPEG-encodes a uint8 [h, w, 1 or 3] image with Pillow."""
  image = convert_to_tensor(image)
  if image.shape.ndims != 3:
    raise errors.invalid_argument("image must be 3-dimensional%s [Op:EncodeJpeg]"
                                  % str(image.shape.as_list()).replace(" ", ""))
  channels = image._value.shape[-1]
  if channels not in (1, 3):
    raise errors.invalid_argument("image must have 1 or 3 channels, got %s [Op:EncodeJpeg]"
                                  % str(image.shape.as_list()).replace(" ", ""))
  array = np.asarray(image.numpy()).astype(np.uint8)
  picture = Image.fromarray(array[..., 0] if channels == 1 else array,
                            "L" if channels == 1 else "RGB")
  if format == "grayscale" and channels == 3:
    picture = picture.convert("L")
  elif format == "rgb" and channels == 1:
    picture = picture.convert("RGB")
  scale = 2.54 if density_unit == "cm" else 1.0
  options = dict(quality=int(quality), progressive=bool(progressive),
                 optimize=bool(optimize_size), subsampling=2 if chroma_downsampling else 0,
                 dpi=(x_density * scale, y_density * scale))
  if xmp_metadata:
    options["xmp"] = xmp_metadata.encode() if isinstance(xmp_metadata, str) else xmp_metadata
  buffer = io.BytesIO()
  picture.save(buffer, "JPEG", **options)
  return Tensor(np.array(buffer.getvalue(), dtype=object))


@export("image.extract_jpeg_shape", "io.extract_jpeg_shape")
def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
  """[height, width, channels] read from a JPEG header."""
  data = _contents(contents, "ExtractJpegShape")
  if _format(data) != "jpeg":
    raise errors.invalid_argument("Invalid JPEG data, size %d [Op:ExtractJpegShape]"
                                  % len(data))
  image = _open(data, "ExtractJpegShape")
  shape = [image.size[1], image.size[0], len(image.getbands())]
  return convert_to_tensor(shape, dtypes.as_dtype(output_type))


@export("image.is_jpeg", "io.is_jpeg")
def is_jpeg(contents, name=None):
  data = _contents(contents, "IsJpeg")
  return Tensor(jnp.asarray(_format(data) == "jpeg"))


# ---- GIF, BMP, any ----
@export("image.decode_gif", "io.decode_gif")
def decode_gif(contents, name=None):
  """Decodes every GIF frame to uint8 [num_frames, h, w, 3]."""
  image = _open(_contents(contents, "DecodeGif"), "DecodeGif")
  frames = [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(image)]
  return _uint8(np.stack(frames))


@export("image.decode_bmp", "io.decode_bmp")
def decode_bmp(contents, channels=0, name=None):
  image = _open(_contents(contents, "DecodeBmp"), "DecodeBmp")
  mode = {1: "L", 3: "RGB", 4: "RGBA"}.get(channels, "RGBA" if "A" in image.mode else "RGB")
  return _uint8(np.asarray(image.convert(mode)))


@export("image.decode_image", "io.decode_image")
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
  """Decodes JPEG, PNG, GIF or BMP; GIFs are [frames, h, w, 3] unless expand_animations=False."""
  data = _contents(contents, "DecodeImage")
  _check_channels(channels or 0, "DecodeImage")
  dtype = dtypes.as_dtype(dtype)
  kind = _format(data)
  if kind == "jpeg":
    image = decode_jpeg(data, channels or 0)
  elif kind == "png":
    wide = dtypes.uint16 if dtype is dtypes.uint16 else dtypes.uint8
    image = decode_png(data, channels or 0, wide)
  elif kind == "gif":
    if channels not in (None, 0, 3):
      raise errors.invalid_argument("channels must be 0 or 3 for GIF, got %d "
                                    "[Op:DecodeImage]" % channels)
    image = decode_gif(data)
    if not expand_animations:
      image = Tensor(image._value[0])
  elif kind == "bmp":
    image = decode_bmp(data, channels or 0)
  else:
    raise errors.invalid_argument("%s [Op:DecodeImage]" % _UNKNOWN)
  return convert_image_dtype(image, dtype)
