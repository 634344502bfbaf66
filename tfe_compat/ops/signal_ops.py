"""`tf.signal` (and `tf.contrib.signal`): raised-cosine windows and `frame`."""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op


def _static(value, dtype=dtypes.int32):
  """A Python value of a scalar static parameter (Python value or Tensor)."""
  tensor = convert_to_tensor(value, dtype)
  if tensor.shape.ndims != 0:
    raise ValueError("Shape %s must have rank 0" % tensor.shape)
  return tensor.numpy().item()


@op(name="RaisedCosineWindow")
def _raised_cosine(*, length, periodic, dtype, a, b):
  if length == 1:
    return jnp.ones([1], dtype)
  # As TF: `periodic` only changes even lengths.
  n = jnp.asarray(length + (periodic and length % 2 == 0) - 1, dtype)
  count = jnp.arange(length, dtype=dtype)
  return jnp.asarray(a, dtype) - jnp.asarray(b, dtype) * jnp.cos(
      jnp.asarray(2 * np.pi, dtype) * count / n)


def _window(window_length, periodic, dtype, a, b):
  dtype = dtypes.as_dtype(dtype)
  if not dtype.is_floating:
    raise ValueError("dtype must be a floating point type. Found <dtype: '%s'>" % dtype.name)
  length = _static(window_length)
  if length < 0:
    raise errors.invalid_argument("Requires start <= limit when delta > 0: 0/%d [Op:Range]"
                                  % length)
  return _raised_cosine(length=length, periodic=bool(_static(periodic, dtypes.bool)),
                        dtype=dtype.name, a=a, b=b)


@export("signal.hann_window", "contrib.signal.hann_window")
def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
  """A Hann window: 0.5 - 0.5 cos(2 pi n / N)."""
  return _window(window_length, periodic, dtype, 0.5, 0.5)


@export("signal.hamming_window", "contrib.signal.hamming_window")
def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
  """A Hamming window: 0.54 - 0.46 cos(2 pi n / N)."""
  return _window(window_length, periodic, dtype, 0.54, 0.46)


@op(name="Frame", differentiable=(0,))
def _frame(signal, pad_value, *, frame_length, frame_step, pad_end, axis):
  length = signal.shape[axis]
  if pad_end:
    frames = -(-length // frame_step)
    padding = [(0, 0)] * signal.ndim
    padding[axis] = (0, max(0, (frames - 1) * frame_step + frame_length - length))
    # TF pads with PadV2, which has no gradient for the pad value
    signal = jnp.pad(signal, padding, constant_values=jax.lax.stop_gradient(pad_value))
  else:
    frames = max(0, 1 + (length - frame_length) // frame_step)
  index = (frame_step * np.arange(frames)[:, None] + np.arange(frame_length)[None, :])
  return jnp.take(signal, jnp.asarray(index, jnp.int32), axis=axis)


@export("signal.frame", "contrib.signal.frame")
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
  """Slides a window of `frame_length` by `frame_step` along `axis` into [frames, length]."""
  signal = convert_to_tensor(signal)
  rank = signal.shape.ndims
  if rank == 0:
    raise ValueError("Shape () must have rank at least 1")
  axis = _static(axis)
  if not -rank <= axis < rank:
    raise IndexError("axis %d is out of range for a signal of rank %d" % (axis, rank))
  frame_step = _static(frame_step)
  if frame_step == 0:
    raise errors.invalid_argument("Integer division by zero [Op:FloorDiv]")
  pad_value = convert_to_tensor(pad_value, signal.dtype)
  return _frame(signal, pad_value, frame_length=_static(frame_length), frame_step=frame_step,
                pad_end=bool(pad_end), axis=axis % rank)
