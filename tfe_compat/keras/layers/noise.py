"""Noise regularization layers (TF 1.15): GaussianNoise, GaussianDropout, AlphaDropout.

Each is the identity unless `training` is truthy (default: the learning phase). The noise
comes from tfe_compat's random ops, so `tf.set_random_seed` and the `seed` argument behave
as for every other random op here (values are not bit-exact with TF's).
"""
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.keras.engine.base_layer import Layer
from tfe_compat.keras.layers.core import training_cond
from tfe_compat.ops import array_ops, random_ops

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@export("keras.layers.GaussianNoise")
class GaussianNoise(Layer):
  """Adds zero-centered Gaussian noise of standard deviation `stddev` when training."""

  def __init__(self, stddev, **kwargs):
    super().__init__(**kwargs)
    self.supports_masking = True
    self.stddev = stddev

  def call(self, inputs, training=None):
    return training_cond(training, lambda: inputs + random_ops.random_normal(
        array_ops.shape(inputs), mean=0., stddev=self.stddev, dtype=inputs.dtype),
                         lambda: inputs)

  def compute_output_shape(self, input_shape):
    return input_shape

  def get_config(self):
    config = super().get_config()
    config["stddev"] = self.stddev
    return config


@export("keras.layers.GaussianDropout")
class GaussianDropout(Layer):
  """Multiplies by 1-centered Gaussian noise of stddev sqrt(rate / (1 - rate)) when
  training (only for 0 < rate < 1)."""

  def __init__(self, rate, **kwargs):
    super().__init__(**kwargs)
    self.supports_masking = True
    self.rate = rate

  def call(self, inputs, training=None):
    if not 0 < self.rate < 1:
      return inputs
    stddev = float(np.sqrt(self.rate / (1.0 - self.rate)))
    return training_cond(training, lambda: inputs * random_ops.random_normal(
        array_ops.shape(inputs), mean=1.0, stddev=stddev, dtype=inputs.dtype),
                         lambda: inputs)

  def compute_output_shape(self, input_shape):
    return input_shape

  def get_config(self):
    config = super().get_config()
    config["rate"] = self.rate
    return config


@op(name="AlphaDropout")
def _alpha_dropout(x, uniform, *, rate):
  alpha_p = -_SELU_ALPHA * _SELU_SCALE
  kept = (uniform >= rate).astype(x.dtype)
  a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
  b = -a * alpha_p * rate
  dropped = x * kept + jnp.asarray(alpha_p, x.dtype) * (1 - kept)
  return jnp.asarray(a, x.dtype) * dropped + jnp.asarray(b, x.dtype)


@export("keras.layers.AlphaDropout")
class AlphaDropout(Layer):
  """Dropout for SELU networks: dropped units are set to SELU's negative saturation and an
  affine correction keeps the mean and variance (only for 0 < rate < 1, when training)."""

  def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
    super().__init__(**kwargs)
    self.rate = rate
    self.noise_shape = noise_shape
    self.seed = seed
    self.supports_masking = True

  def _get_noise_shape(self, inputs):
    dims = inputs.shape.as_list()
    if not self.noise_shape:
      return dims
    return [dims[i] if d is None else int(d) for i, d in enumerate(self.noise_shape)]

  def call(self, inputs, training=None):
    if not 0. < self.rate < 1.:
      return inputs
    return training_cond(training, lambda: _alpha_dropout(inputs, random_ops.random_uniform(
        self._get_noise_shape(inputs), seed=self.seed, dtype=inputs.dtype),
                                                          rate=float(self.rate)),
                         lambda: inputs)

  def compute_output_shape(self, input_shape):
    return input_shape

  def get_config(self):
    config = super().get_config()
    config.update(rate=self.rate, seed=self.seed)
    return config
