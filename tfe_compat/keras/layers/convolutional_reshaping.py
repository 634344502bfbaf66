"""Keras UpSampling1D/2D/3D, ZeroPadding1D/2D/3D and Cropping1D/2D/3D (TF 1.15 semantics).

Re-exported by convolutional.py, as in TF where they live in keras/layers/convolutional.py.
"""
import jax.numpy as jnp
from jax import lax

from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.keras.engine.base_layer import InputSpec, Layer
from tfe_compat.keras.layers.conv_utils import dim, normalize_data_format, normalize_tuple
from tfe_compat.ops import array_ops
from tfe_compat.ops import image_ops


@ops.op(name="Pad")
def _zero_pad(x, *, paddings):
  return lax.pad(x, jnp.zeros((), x.dtype), [(lo, hi, 0) for lo, hi in paddings])


@ops.op(name="StridedSlice")
def _crop(x, *, crops):
  starts = [min(lo, size) for size, (lo, _) in zip(x.shape, crops)]  # as Python slices:
  return lax.slice(x, starts, [max(size - hi, start)  # overlapping crops leave nothing
                               for size, start, (_, hi) in zip(x.shape, starts, crops)])


@ops.op(name="Tile")
def _repeat(x, *, repeats):
  for axis, count in enumerate(repeats):
    if count != 1:
      x = jnp.repeat(x, count, axis=axis)
  return x


def _full(spatial, channels_first, fill):
  """Per-axis values for [batch, spatial..., channels] (or channels first)."""
  return (fill, fill) + tuple(spatial) if channels_first else (fill,) + tuple(spatial) + (fill,)


def _pairs(value, rank, name):
  """An int, `rank` ints (symmetric) or `rank` pairs -> `rank` (before, after) pairs."""
  if isinstance(value, int):
    return ((value, value),) * rank
  if hasattr(value, "__len__"):
    if len(value) != rank:
      raise ValueError("`%s` should have %s elements. Found: %s"
                       % (name, "two" if rank == 2 else rank, value))
    ordinals = ("1st", "2nd", "3rd")
    return tuple(normalize_tuple(v, 2, "%s entry of %s" % (ordinals[i], name),
                                 allow_zero=True)
                 for i, v in enumerate(value))
  raise ValueError("`%s` should be either an int, a tuple of %d ints, or a tuple of %d tuples "
                   "of 2 ints. Found: %s" % (name, rank, rank, value))


class _UpSampling(Layer):
  """Repeats rows/columns/... `size` times (nearest-neighbour upsampling)."""

  def __init__(self, rank, size, data_format, **kwargs):
    super().__init__(**kwargs)
    self.rank = rank
    self.data_format = data_format
    self.size = normalize_tuple(size, rank, "size")
    self.input_spec = InputSpec(ndim=rank + 2)

  def call(self, inputs):
    return _repeat(inputs, repeats=_full(self.size, self.data_format == "channels_first", 1))

  def get_config(self):
    config = super().get_config()
    config.update(size=self.size, data_format=self.data_format)
    return config


@export("keras.layers.UpSampling1D")
class UpSampling1D(_UpSampling):
  """Repeats each step `size` times along the time axis."""

  def __init__(self, size=2, **kwargs):
    super().__init__(1, size, "channels_last", **kwargs)
    self.size = int(size)

  def call(self, inputs):
    return _repeat(inputs, repeats=(1, self.size, 1))

  def get_config(self):
    config = super().get_config()
    del config["data_format"]
    return config


@export("keras.layers.UpSampling2D")
class UpSampling2D(_UpSampling):
  """Upsamples rows and columns by `size` ("nearest" or "bilinear" interpolation)."""

  def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
    super().__init__(2, size, normalize_data_format(data_format), **kwargs)
    if interpolation not in ("nearest", "bilinear"):
      raise ValueError('`interpolation` argument should be one of `"nearest"` or '
                       '`"bilinear"`.')
    self.interpolation = interpolation

  def call(self, inputs):
    if self.interpolation == "nearest":
      return super().call(inputs)
    first = self.data_format == "channels_first"
    x = array_ops.transpose(inputs, [0, 2, 3, 1]) if first else inputs
    height, width = x.shape.as_list()[1:3]
    x = image_ops.resize_bilinear(x, (height * self.size[0], width * self.size[1]))
    return array_ops.transpose(x, [0, 3, 1, 2]) if first else x

  def get_config(self):
    config = super().get_config()
    config["interpolation"] = self.interpolation
    return config


@export("keras.layers.UpSampling3D")
class UpSampling3D(_UpSampling):
  """Repeats the three spatial dimensions by `size`."""

  def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
    super().__init__(3, size, normalize_data_format(data_format), **kwargs)


class _Margins(Layer):
  """Zero padding or cropping: (before, after) amounts per spatial axis, in `self.<_key>`."""

  _key = "padding"

  def __init__(self, rank, amounts, data_format, **kwargs):
    super().__init__(**kwargs)
    self.data_format = data_format
    setattr(self, self._key, amounts)
    self.input_spec = InputSpec(ndim=rank + 2)

  def _pairs(self):
    amounts = getattr(self, self._key)
    return (amounts,) if isinstance(amounts[0], int) else amounts  # 1-D: one (before, after)

  def _margins(self):
    return _full(self._pairs(), self.data_format == "channels_first", (0, 0))

  def _check_cropping(self, inputs, refusal):
    """tf-keras's refusal (Cropping1D/2D) of a cropping that leaves nothing of an axis."""
    first = 2 if self.data_format == "channels_first" else 1
    for axis, pair in enumerate(self._pairs(), first):
      size = dim(inputs.shape, axis)
      if size is not None and sum(pair) >= size:
        raise ValueError("%s must be greater than the input shape. Received: inputs.shape=%s, "
                         "and cropping=%s" % (refusal, inputs.shape, self.cropping))

  def call(self, inputs):
    if self._key == "padding":
      return _zero_pad(inputs, paddings=self._margins())
    return _crop(inputs, crops=self._margins())

  def get_config(self):
    config = super().get_config()
    config[self._key] = getattr(self, self._key)
    if self.input_spec.ndim != 3:  # the 1-D layers have no data_format
      config["data_format"] = self.data_format
    return config


@export("keras.layers.ZeroPadding1D")
class ZeroPadding1D(_Margins):
  """Pads the time axis with zeros: an int or (left, right)."""

  def __init__(self, padding=1, **kwargs):
    super().__init__(1, normalize_tuple(padding, 2, "padding", allow_zero=True),
                     "channels_last", **kwargs)


@export("keras.layers.ZeroPadding2D")
class ZeroPadding2D(_Margins):
  """Pads rows and columns with zeros."""

  def __init__(self, padding=(1, 1), data_format=None, **kwargs):
    super().__init__(2, _pairs(padding, 2, "padding"), normalize_data_format(data_format),
                     **kwargs)


@export("keras.layers.ZeroPadding3D")
class ZeroPadding3D(_Margins):
  """Pads the three spatial dimensions with zeros."""

  def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
    super().__init__(3, _pairs(padding, 3, "padding"), normalize_data_format(data_format),
                     **kwargs)


@export("keras.layers.Cropping1D")
class Cropping1D(_Margins):
  """Crops (start, end) steps off the time axis."""

  _key = "cropping"

  def __init__(self, cropping=(1, 1), **kwargs):
    super().__init__(1, normalize_tuple(cropping, 2, "cropping", allow_zero=True),
                     "channels_last", **kwargs)

  def call(self, inputs):
    self._check_cropping(inputs, "cropping parameter of Cropping layer")
    return super().call(inputs)


@export("keras.layers.Cropping2D")
class Cropping2D(_Margins):
  """Crops rows and columns: an int, (symmetric_h, symmetric_w) or ((top, bottom), (l, r))."""

  _key = "cropping"

  def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
    super().__init__(2, _pairs(cropping, 2, "cropping"), normalize_data_format(data_format),
                     **kwargs)

  def call(self, inputs):
    self._check_cropping(inputs, "Argument `cropping`")
    return super().call(inputs)


@export("keras.layers.Cropping3D")
class Cropping3D(_Margins):
  """Crops the three spatial dimensions."""

  _key = "cropping"

  def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
    super().__init__(3, _pairs(cropping, 3, "cropping"), normalize_data_format(data_format),
                     **kwargs)
