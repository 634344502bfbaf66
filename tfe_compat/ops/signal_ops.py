"""`tf.signal` (and `tf.contrib.signal`): windows, framing, STFTs, mel matrices and MFCCs.

The Fourier and cosine transforms live in spectral_ops (imported here, so they register).
"""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import math_ops
from tfe_compat.ops import spectral_ops


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


# ---- STFT ----
def _enclosing_power_of_two(value):
  with np.errstate(divide="ignore"):
    return int(2 ** np.ceil(np.log(value) / np.log(2.0)))


def _stft_lengths(frame_length, frame_step, fft_length):
  """Static ints; `fft_length` defaults to the smallest power of 2 enclosing the frame."""
  frame_length = _static(frame_length)
  fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else _static(
      fft_length)
  return frame_length, _static(frame_step), fft_length


@export("signal.stft", "contrib.signal.stft")
def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
  """The short-time Fourier transform: framed, windowed, `rfft` of `fft_length` per frame.

  `fft_length` defaults to the smallest power of 2 enclosing `frame_length`.
  """
  signals = convert_to_tensor(signals)
  signals.shape.with_rank_at_least(1)
  frame_length, frame_step, fft_length = _stft_lengths(frame_length, frame_step, fft_length)
  framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
  if window_fn is not None:
    framed = math_ops.multiply(framed, window_fn(frame_length, dtype=framed.dtype))
  return spectral_ops.rfft(framed, [fft_length])


@op(name="InverseStftWindow")
def _inverse_window(window, *, frame_step):
  length = window.shape[0]
  overlaps = -(-length // frame_step)
  denom = jnp.pad(jnp.square(window), [(0, overlaps * frame_step - length)])
  denom = jnp.sum(denom.reshape(overlaps, frame_step), 0, keepdims=True)
  denom = jnp.tile(denom, [overlaps, 1]).reshape(-1)[:length]
  zero = denom == 0
  return jnp.where(zero, jnp.zeros_like(window), window / jnp.where(zero, 1, denom))


@export("signal.inverse_stft_window_fn", "contrib.signal.inverse_stft_window_fn")
def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
  """A window function for `inverse_stft` that inverts `forward_window_fn` at `frame_step`."""
  def inverse_stft_window_fn_inner(frame_length, dtype):
    step = _static(frame_step)
    forward_window = forward_window_fn(_static(frame_length), dtype=dtype)
    return _inverse_window(forward_window, frame_step=step)
  return inverse_stft_window_fn_inner


@export("signal.inverse_stft", "contrib.signal.inverse_stft")
def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
  """The inverse STFT: `irfft` per frame, cut or padded to `frame_length`, windowed, summed."""
  stfts = convert_to_tensor(stfts)
  stfts.shape.with_rank_at_least(2)
  frame_length, frame_step, fft_length = _stft_lengths(frame_length, frame_step, fft_length)
  real_frames = spectral_ops.irfft(stfts, [fft_length])
  if real_frames.shape[-1] != frame_length:
    real_frames = spectral_ops.fit_last_axis(real_frames, length=frame_length)
  if window_fn is not None:
    window = window_fn(frame_length, dtype=stfts.dtype.real_dtype)
    real_frames = math_ops.multiply(real_frames, window)
  return overlap_and_add(real_frames, frame_step)


@op(name="OverlapAndAdd")
def _overlap_and_add(signal, *, frame_step):
  """TF's algorithm: pad each frame to whole segments of `frame_step` and sum the diagonals."""
  outer = list(signal.shape[:-2])
  frames, length = signal.shape[-2:]
  segments = -(-length // frame_step)
  signal = jnp.pad(signal, [(0, 0)] * len(outer)
                   + [(0, segments), (0, segments * frame_step - length)])
  signal = jnp.swapaxes(signal.reshape(outer + [frames + segments, segments, frame_step]), -3, -2)
  signal = signal.reshape(outer + [(frames + segments) * segments, frame_step])
  signal = signal[..., :(frames + segments - 1) * segments, :]
  signal = signal.reshape(outer + [segments, frames + segments - 1, frame_step])
  signal = jnp.sum(signal, -3, dtype=signal.dtype)
  signal = signal.reshape(outer + [(frames + segments - 1) * frame_step])
  return signal[..., :length + frame_step * (frames - 1)]


@export("signal.overlap_and_add", "contrib.signal.overlap_and_add")
def overlap_and_add(signal, frame_step, name=None):
  """Sums `[..., frames, frame_length]` frames placed `frame_step` apart into one signal."""
  signal = convert_to_tensor(signal)
  signal.shape.with_rank_at_least(2)
  step = convert_to_tensor(frame_step)
  step.shape.assert_has_rank(0)
  if not step.dtype.is_integer:
    raise ValueError("frame_step must be an integer. Got %s" % step.dtype)
  step = int(step.numpy())
  if signal.dtype.is_bool or signal.dtype is dtypes.string:
    raise errors.invalid_argument(
        "Value for attr 'T' of %s is not in the list of allowed values: float, double, int32, "
        "uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, "
        "uint16, complex128, half, uint32, uint64 [Op:Sum]" % signal.dtype.name)
  if step < 1:
    length = signal._value.shape[-1]
    segments = 0 if step == 0 else -(-length // step)
    padding = (segments, segments * step - length)
    raise errors.invalid_argument("Paddings must be non-negative: 0 %d [Op:Pad]"
                                  % min(padding))
  return _overlap_and_add(signal, frame_step=step)


# ---- Mel spectrograms and MFCCs ----
def _python_value(value):
  return value.numpy().item() if isinstance(value, Tensor) else value


@op(name="LinearToMelWeightMatrix", differentiable=False)
def _mel_matrix(*, num_mel_bins, num_spectrogram_bins, sample_rate, lower_edge_hertz,
                upper_edge_hertz, dtype):
  """TF's HTK-mel triangular filters (bin 0, DC, gets no weight), computed in `dtype`."""
  def linspace(start, stop, num):  # TF's: start + i * step, ending exactly at stop
    values = start + jnp.arange(num, dtype=dtype) * ((stop - start) / max(num - 1, 1))
    return values.at[-1].set(stop) if num > 1 else values

  def hertz_to_mel(hertz):
    return 1127.0 * jnp.log(1.0 + hertz / 700.0)

  zero = jnp.zeros([], dtype)
  frequencies = linspace(zero, jnp.asarray(sample_rate, dtype) / 2.0, num_spectrogram_bins)[1:]
  spectrogram_mel = hertz_to_mel(frequencies)[:, None]
  edges = linspace(hertz_to_mel(jnp.asarray(lower_edge_hertz, dtype)),
                   hertz_to_mel(jnp.asarray(upper_edge_hertz, dtype)), num_mel_bins + 2)
  lower, center, upper = edges[None, :-2], edges[None, 1:-1], edges[None, 2:]
  lower_slopes = (spectrogram_mel - lower) / (center - lower)
  upper_slopes = (upper - spectrogram_mel) / (upper - center)
  weights = jnp.maximum(zero, jnp.minimum(lower_slopes, upper_slopes))
  return jnp.pad(weights, [(1, 0), (0, 0)])


@export("signal.linear_to_mel_weight_matrix", "contrib.signal.linear_to_mel_weight_matrix")
def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
  """A `[num_spectrogram_bins, num_mel_bins]` matrix warping linear spectrograms to mel."""
  num_mel_bins = _python_value(num_mel_bins)
  sample_rate = _python_value(sample_rate)
  lower_edge_hertz = _python_value(lower_edge_hertz)
  upper_edge_hertz = _python_value(upper_edge_hertz)
  dtype = dtypes.as_dtype(dtype)
  if num_mel_bins <= 0:
    raise ValueError("num_mel_bins must be positive. Got: %s" % num_mel_bins)
  if lower_edge_hertz < 0.0:
    raise ValueError("lower_edge_hertz must be non-negative. Got: %s" % lower_edge_hertz)
  if lower_edge_hertz >= upper_edge_hertz:
    raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f"
                     % (lower_edge_hertz, upper_edge_hertz))
  if sample_rate <= 0.0:
    raise ValueError("sample_rate must be positive. Got: %s" % sample_rate)
  if upper_edge_hertz > sample_rate / 2:
    raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency "
                     "(sample_rate / 2). Got %s for sample_rate: %s"
                     % (upper_edge_hertz, sample_rate))
  if not dtype.is_floating:
    raise ValueError("dtype must be a floating point type. Got: %s" % dtype)
  return _mel_matrix(num_mel_bins=int(num_mel_bins),
                     num_spectrogram_bins=int(_python_value(num_spectrogram_bins)),
                     sample_rate=float(sample_rate), lower_edge_hertz=float(lower_edge_hertz),
                     upper_edge_hertz=float(upper_edge_hertz), dtype=dtype.name)


@op(name="Mul")
def _mfcc_scale(dct2):
  return dct2 * jax.lax.rsqrt(jnp.asarray(dct2.shape[-1] * 2.0, dct2.dtype))


@export("signal.mfccs_from_log_mel_spectrograms",
        "contrib.signal.mfccs_from_log_mel_spectrograms")
def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
  """MFCCs: the orthonormal-scaled type-2 DCT of `[..., num_mel_bins]` log-mel spectrograms."""
  if isinstance(log_mel_spectrograms, Tensor) or hasattr(log_mel_spectrograms, "_as_tensor"):
    spectrograms = convert_to_tensor(log_mel_spectrograms)
  else:
    spectrograms = convert_to_tensor(log_mel_spectrograms, preferred_dtype=dtypes.float32)
  if spectrograms.shape.ndims == 0:
    raise errors.invalid_argument(
        "slice index -1 of dimension 0 out of bounds. [Op:StridedSlice]")
  if spectrograms._value.shape[-1] == 0:
    raise ValueError("num_mel_bins must be positive. Got: %s" % spectrograms)
  return _mfcc_scale(spectral_ops.dct(spectrograms, type=2))
