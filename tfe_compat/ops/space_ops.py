"""TF 1.15 space/batch/depth rearrangements: space_to_batch(_nd), batch_to_space(_nd),
required_space_to_batch_paddings, depth_to_space, space_to_depth, extract_image_patches,
extract_volume_patches.
"""
import jax
import jax.numpy as jnp
import numpy as np

# pylint: disable=redefined-builtin
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.ops.array_ops import dims_text, int_tuple, invalid, scalar_int, transpose


# ---- Space / batch / depth rearrangements ----
@op(name="SpaceToBatchND")
def _space_to_batch(x, *, block, paddings):
  m = len(block)
  x = jnp.pad(x, ((0, 0),) + paddings + ((0, 0),) * (x.ndim - 1 - m))
  b, rest = x.shape[0], x.shape[1 + m:]
  split = sum(((x.shape[1 + i] // k, k) for i, k in enumerate(block)), ())
  x = x.reshape((b,) + split + rest)
  perm = tuple(range(2, 2 * m + 1, 2)) + (0,) + tuple(range(1, 2 * m, 2))
  x = x.transpose(perm + tuple(range(2 * m + 1, x.ndim)))
  return x.reshape((b * int(np.prod(block)),) + split[0::2] + rest)


@op(name="BatchToSpaceND")
def _batch_to_space(x, *, block, crops):
  m = len(block)
  b, spatial, rest = x.shape[0] // int(np.prod(block)), x.shape[1:1 + m], x.shape[1 + m:]
  x = x.reshape(block + (b,) + spatial + rest)
  perm = (m,) + sum(((m + 1 + i, i) for i in range(m)), ())
  x = x.transpose(perm + tuple(range(2 * m + 1, x.ndim)))
  x = x.reshape((b,) + tuple(s * k for s, k in zip(spatial, block)) + rest)
  index = (np.s_[:],) + tuple(np.s_[lo:x.shape[1 + i] - hi] for i, (lo, hi) in enumerate(crops))
  return x[index]


def _pairs(value, m):
  flat = int_tuple(value)
  if len(flat) != 2 * m:
    raise ValueError("paddings/crops must have shape [%d, 2], got %d values" % (m, len(flat)))
  return tuple(zip(flat[0::2], flat[1::2]))


@export("space_to_batch_nd", "manip.space_to_batch_nd")
def space_to_batch_nd(input, block_shape, paddings, name=None):  # pylint: disable=redefined-builtin
  input = convert_to_tensor(input)
  block = int_tuple(block_shape)
  pads = _pairs(paddings, len(block))
  for i, (k, (lo, hi)) in enumerate(zip(block, pads)):
    padded = input._value.shape[1 + i] + lo + hi
    if padded % k:
      raise invalid("padded_shape[%d]=%d is not divisible by block_shape[%d]=%d"
                    % (i, padded, i, k), "SpaceToBatchND")
  return _space_to_batch(input, block=block, paddings=pads)


@export("batch_to_space_nd", "manip.batch_to_space_nd")
def batch_to_space_nd(input, block_shape, crops, name=None):  # pylint: disable=redefined-builtin
  input = convert_to_tensor(input)
  block = int_tuple(block_shape)
  count = int(np.prod(block))
  if input._value.shape[0] % count:
    raise invalid("Input batch dimension (%d) is not divisible by product of block sizes (%d)"
                  % (input._value.shape[0], count), "BatchToSpaceND")
  return _batch_to_space(input, block=block, crops=_pairs(crops, len(block)))


def required_paddings(input_shape, block_shape, base_paddings):
  """(paddings, crops) as int64 arrays [n, 2]: pad the end so each padded dimension is a
  multiple of its block size (TF's required_space_to_batch_paddings on NumPy values)."""
  pad_start, orig_pad_end = base_paddings[:, 0], base_paddings[:, 1]
  pad_end_extra = (block_shape - (input_shape + pad_start + orig_pad_end) % block_shape) % \
      block_shape
  zeros = np.zeros_like(pad_end_extra)
  return (np.stack([pad_start, orig_pad_end + pad_end_extra], axis=1),
          np.stack([zeros, pad_end_extra], axis=1))


@export("required_space_to_batch_paddings")
def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
  """`tf.required_space_to_batch_paddings`: int32 (paddings, crops) for space_to_batch_nd."""
  input_shape = convert_to_tensor(input_shape, dtypes.int32)
  block_shape = convert_to_tensor(block_shape, dtypes.int32)
  if block_shape.ndim != 1:
    raise ValueError("Shape %s must have rank 1" % block_shape.shape)
  n = block_shape._shape_tuple()[0]
  if input_shape._shape_tuple() != (n,):
    raise ValueError("Shapes %s and [%d] are incompatible" % (input_shape.shape, n))
  if base_paddings is None:
    base = np.zeros([n, 2], np.int32)
  else:
    base_paddings = convert_to_tensor(base_paddings, dtypes.int32)
    if base_paddings._shape_tuple() != (n, 2):
      raise ValueError("Shapes %s and [%d, 2] are incompatible" % (base_paddings.shape, n))
    base = base_paddings.numpy()
  paddings, crops = required_paddings(input_shape.numpy(), block_shape.numpy(), base)
  return (convert_to_tensor(paddings.astype(np.int32)),
          convert_to_tensor(crops.astype(np.int32)))


@export("space_to_batch", "nn.space_to_batch")
def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):
  block_size = block_shape if block_size is None else block_size
  size = scalar_int(block_size)
  return space_to_batch_nd(input, (size, size), paddings)


@export("batch_to_space")
def batch_to_space(input, crops, block_size, name=None, block_shape=None):
  block_size = block_shape if block_size is None else block_size
  size = scalar_int(block_size)
  return batch_to_space_nd(input, (size, size), crops)


@op(name="DepthToSpace")
def _depth_to_space(x, *, block):
  b, h, w, c = x.shape
  x = x.reshape(b, h, w, block, block, c // (block * block)).transpose(0, 1, 3, 2, 4, 5)
  return x.reshape(b, h * block, w * block, c // (block * block))


@op(name="SpaceToDepth")
def _space_to_depth(x, *, block):
  b, h, w, c = x.shape
  x = x.reshape(b, h // block, block, w // block, block, c).transpose(0, 1, 3, 2, 4, 5)
  return x.reshape(b, h // block, w // block, block * block * c)


def _block_size(block_size, op_name):
  block = scalar_int(block_size)
  if block < 2:
    raise invalid("Value for attr 'block_size' of %d must be at least minimum 2" % block, op_name)
  return block


def _nhwc(fn, input, data_format):
  if data_format == "NHWC":
    return fn(input)
  if data_format != "NCHW":
    raise ValueError("data_format must be NHWC or NCHW, got %s" % data_format)
  out = fn(transpose(input, (0, 2, 3, 1)))
  return transpose(out, (0, 3, 1, 2))


@export("depth_to_space", "nn.depth_to_space")
def depth_to_space(input, block_size, name=None, data_format="NHWC"):
  """`tf.depth_to_space`: moves depth blocks into `block_size` x `block_size` spatial tiles."""
  block = _block_size(block_size, "DepthToSpace")

  def run(x):
    depth = x._value.shape[-1]
    if depth % (block * block):
      raise invalid("Input depth dimension %d should be divisible by: %d"
                    % (depth, block * block), "DepthToSpace")
    return _depth_to_space(x, block=block)
  return _nhwc(run, convert_to_tensor(input), data_format)


@export("space_to_depth", "nn.space_to_depth")
def space_to_depth(input, block_size, name=None, data_format="NHWC"):
  """`tf.space_to_depth`: moves `block_size` x `block_size` spatial tiles into depth."""
  block = _block_size(block_size, "SpaceToDepth")

  def run(x):
    _, h, w, _ = x._value.shape
    if h % block or w % block:
      raise invalid("Image width %d and height %d should be divisible by block_size: %d"
                    % (w, h, block), "SpaceToDepth")
    return _space_to_depth(x, block=block)
  return _nhwc(run, convert_to_tensor(input), data_format)


def _patches(x, sizes, strides, rates, padding):
  """Patches of the spatial dimensions of channels-last `x`, flattened in (spatial...,
  depth) order as TF's Extract*Patches ops give them."""
  spatial = "DHW"[-len(sizes):]
  patches = jax.lax.conv_general_dilated_patches(
      x, sizes, strides, padding, rhs_dilation=rates,
      dimension_numbers=("N%sC" % spatial, "%sIO" % spatial, "N%sC" % spatial))
  # channels come depth-major: (c, *sizes); TF wants (*sizes, c)
  window = int(np.prod(sizes))
  patches = patches.reshape(patches.shape[:-1] + (x.shape[-1], window))
  return patches.swapaxes(-1, -2).reshape(patches.shape[:-2] + (x.shape[-1] * window,))


@op(name="ExtractImagePatches")
def _extract_patches(images, *, sizes, strides, rates, padding):
  return _patches(images, sizes, strides, rates, padding)


@op(name="ExtractVolumePatches")
def _extract_volume_patches(x, *, sizes, strides, padding):
  return _patches(x, sizes, strides, (1, 1, 1), padding)


@export("extract_volume_patches")
def extract_volume_patches(input, ksizes, strides, padding, name=None):
  """`tf.extract_volume_patches`: NDHWC patches flattened in (plane, row, col, depth)
  order."""
  x = convert_to_tensor(input)
  ksizes, strides = int_tuple(ksizes), int_tuple(strides)
  if padding not in ("SAME", "VALID"):
    raise invalid("Value for attr 'padding' of \"%s\" is not in the list of allowed values: "
                  "\"SAME\", \"VALID\"" % padding, "ExtractVolumePatches")
  if ksizes[0] != 1 or ksizes[4] != 1:
    raise errors.UnimplementedError(None, None, "Only support ksizes across space. "
                                    "[Op:ExtractVolumePatches]")
  if strides[0] != 1 or strides[4] != 1:
    raise errors.UnimplementedError(None, None, "Only support strides across space. "
                                    "[Op:ExtractVolumePatches]")
  if x.ndim != 5:
    raise invalid("input must be 5-dimensional%s" % dims_text(x._shape_tuple()),
                  "ExtractVolumePatches")
  return _extract_volume_patches(x, sizes=ksizes[1:4], strides=strides[1:4], padding=padding)


def _check_patch_attrs(**attrs):
  """The errors of TF's ExtractImagePatches kernel for its ksizes, strides and rates."""
  for attr, values in attrs.items():
    if len(values) < 4:
      raise errors.invalid_argument("Length for attr '%s' of %d must be at least minimum 4 "
                                    "[Op:ExtractImagePatches]" % (attr, len(values)))
    if values[0] != 1 or values[3] != 1:
      raise errors.UnimplementedError(None, None, "Only support %s across space. "
                                      "[Op:ExtractImagePatches]" % attr)
  for attr, values in attrs.items():
    if min(values[1:3]) <= 0:
      raise errors.OutOfRangeError(None, None, "%s is out of range. [Op:ExtractImagePatches]"
                                   % attr)


@export("extract_image_patches", "image.extract_image_patches")
def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None,
                          sizes=None):
  """`tf.extract_image_patches`: NHWC patches flattened in (row, col, depth) order."""
  ksizes = sizes if ksizes is None else ksizes
  images = convert_to_tensor(images)
  ksizes, strides, rates = (int_tuple(v) for v in (ksizes, strides, rates))
  if padding not in ("SAME", "VALID"):
    raise ValueError("padding must be SAME or VALID, got %r" % (padding,))
  _check_patch_attrs(ksizes=ksizes, strides=strides, rates=rates)
  return _extract_patches(images, sizes=ksizes[1:3], strides=strides[1:3], rates=rates[1:3],
                          padding=padding)
