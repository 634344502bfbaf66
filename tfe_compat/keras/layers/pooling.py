"""Keras pooling layers (TF 1.15): Max/AveragePooling1D/2D/3D and the global poolings."""
import jax.numpy as jnp

from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.keras.engine.base_layer import InputSpec, Layer
from tfe_compat.keras.layers.conv_utils import (normalize_data_format, normalize_padding,
                                                normalize_tuple, tf_data_format)
from tfe_compat.ops import conv_ops


class Pooling(Layer):
  """Max or average pooling over `rank` spatial dimensions (Keras's Pooling1D/2D/3D)."""

  def __init__(self, rank, kind, pool_size, strides, padding="valid", data_format=None,
               name=None, **kwargs):
    super().__init__(name=name, **kwargs)
    self.rank, self._kind = rank, kind
    if data_format is None:
      data_format = "channels_last" if rank == 1 else None
    if strides is None:
      strides = pool_size
    self.pool_size = normalize_tuple(pool_size, rank, "pool_size")
    self.strides = normalize_tuple(strides, rank, "strides", allow_zero=True)
    self.padding = normalize_padding(padding)
    self.data_format = normalize_data_format(data_format)
    self.input_spec = InputSpec(ndim=rank + 2)
    self._tf_format = tf_data_format(self.data_format, rank)

  def call(self, inputs):
    pool = conv_ops.max_pool_v2 if self._kind == "MAX" else conv_ops.avg_pool_v2
    return pool(inputs, self.pool_size, self.strides, self.padding.upper(),
                data_format=self._tf_format)

  def get_config(self):
    config = super().get_config()
    config.update(pool_size=self.pool_size, padding=self.padding, strides=self.strides,
                  data_format=self.data_format)
    return config


@export("keras.layers.MaxPool1D", "keras.layers.MaxPooling1D")
class MaxPooling1D(Pooling):
  """Max pooling over the time axis."""

  def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last",
               **kwargs):
    super().__init__(1, "MAX", pool_size, strides, padding, data_format, **kwargs)


@export("keras.layers.AvgPool1D", "keras.layers.AveragePooling1D")
class AveragePooling1D(Pooling):
  """Average pooling over the time axis."""

  def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last",
               **kwargs):
    super().__init__(1, "AVG", pool_size, strides, padding, data_format, **kwargs)


@export("keras.layers.MaxPool2D", "keras.layers.MaxPooling2D")
class MaxPooling2D(Pooling):
  """Max pooling over rows and columns."""

  def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
               **kwargs):
    super().__init__(2, "MAX", pool_size, strides, padding, data_format, **kwargs)


@export("keras.layers.AvgPool2D", "keras.layers.AveragePooling2D")
class AveragePooling2D(Pooling):
  """Average pooling over rows and columns (SAME windows average their valid cells)."""

  def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
               **kwargs):
    super().__init__(2, "AVG", pool_size, strides, padding, data_format, **kwargs)


@export("keras.layers.MaxPool3D", "keras.layers.MaxPooling3D")
class MaxPooling3D(Pooling):
  """Max pooling over three spatial dimensions."""

  def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
               **kwargs):
    super().__init__(3, "MAX", pool_size, strides, padding, data_format, **kwargs)


@export("keras.layers.AvgPool3D", "keras.layers.AveragePooling3D")
class AveragePooling3D(Pooling):
  """Average pooling over three spatial dimensions."""

  def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
               **kwargs):
    super().__init__(3, "AVG", pool_size, strides, padding, data_format, **kwargs)


@ops.op(name="Max")
def _global_max(x, *, axes):
  return jnp.max(x, axis=axes)


@ops.op(name="Mean")
def _global_mean(x, *, axes):
  return jnp.mean(x, axis=axes, dtype=x.dtype)


@ops.op(name="Mean")
def _masked_mean(x, mask, *, steps_axis):
  """Keras's GlobalAveragePooling1D with a [batch, steps] mask: sum(x * m) / sum(m)."""
  mask = jnp.expand_dims(mask.astype(x.dtype), 3 - steps_axis)
  return jnp.sum(x * mask, axis=steps_axis) / jnp.sum(mask, axis=steps_axis)


class GlobalPooling(Layer):
  """Max or mean over all spatial dimensions: [batch, ..., channels] -> [batch, channels]."""

  def __init__(self, rank, kind, data_format=None, **kwargs):
    super().__init__(**kwargs)
    self.rank, self._kind = rank, kind
    self.data_format = normalize_data_format(data_format)
    self.input_spec = InputSpec(ndim=rank + 2)

  def call(self, inputs):
    first = self.data_format == "channels_first"
    axes = tuple(range(2, self.rank + 2)) if first else tuple(range(1, self.rank + 1))
    reduce = _global_max if self._kind == "MAX" else _global_mean
    return reduce(inputs, axes=axes)

  def get_config(self):
    config = super().get_config()
    config["data_format"] = self.data_format
    return config


@export("keras.layers.GlobalMaxPool1D", "keras.layers.GlobalMaxPooling1D")
class GlobalMaxPooling1D(GlobalPooling):
  """Max over the time axis."""

  def __init__(self, data_format="channels_last", **kwargs):
    super().__init__(1, "MAX", data_format, **kwargs)


@export("keras.layers.GlobalAvgPool1D", "keras.layers.GlobalAveragePooling1D")
class GlobalAveragePooling1D(GlobalPooling):
  """Mean over the time axis; with a mask, the mean over unmasked steps."""

  def __init__(self, data_format="channels_last", **kwargs):
    super().__init__(1, "AVG", data_format, **kwargs)
    self.supports_masking = True

  def call(self, inputs, mask=None):
    if mask is None:
      return super().call(inputs)
    steps_axis = 2 if self.data_format == "channels_first" else 1
    return _masked_mean(inputs, ops.convert_to_tensor(mask), steps_axis=steps_axis)


@export("keras.layers.GlobalMaxPool2D", "keras.layers.GlobalMaxPooling2D")
class GlobalMaxPooling2D(GlobalPooling):
  """Max over rows and columns."""

  def __init__(self, data_format=None, **kwargs):
    super().__init__(2, "MAX", data_format, **kwargs)


@export("keras.layers.GlobalAvgPool2D", "keras.layers.GlobalAveragePooling2D")
class GlobalAveragePooling2D(GlobalPooling):
  """Mean over rows and columns."""

  def __init__(self, data_format=None, **kwargs):
    super().__init__(2, "AVG", data_format, **kwargs)


@export("keras.layers.GlobalMaxPool3D", "keras.layers.GlobalMaxPooling3D")
class GlobalMaxPooling3D(GlobalPooling):
  """Max over three spatial dimensions."""

  def __init__(self, data_format=None, **kwargs):
    super().__init__(3, "MAX", data_format, **kwargs)


@export("keras.layers.GlobalAvgPool3D", "keras.layers.GlobalAveragePooling3D")
class GlobalAveragePooling3D(GlobalPooling):
  """Mean over three spatial dimensions."""

  def __init__(self, data_format=None, **kwargs):
    super().__init__(3, "AVG", data_format, **kwargs)
