"""Summary values as TensorBoard protos, from NumPy arrays, as TF's summary kernels make them.

Each encoder is `encode(tag, array, params) -> [Summary.Value]` and runs when an event file
is flushed (the arrays were queued as they were at the summary call). Histograms use TF's
default exponential buckets, images are PNG (Pillow) with TF's float rescaling, audio is
16-bit PCM WAV, strings and generic tensors are `TensorProto`s.
"""
import io
import sys
import wave

import numpy as np
from PIL import Image
from tensorboardX.proto import summary_pb2

from tfe_compat.framework import tensor_util

_DBL_MAX = sys.float_info.max


def _default_bucket_limits():
  """TF's histogram bucket edges: +-1e-12 * 1.1**k up to 1e20, 0 and +-DBL_MAX."""
  positive = []
  v = 1.0e-12
  while v < 1.0e20:
    positive.append(v)
    v *= 1.1
  positive.append(_DBL_MAX)
  return np.array([-x for x in reversed(positive)] + [0.0] + positive)


_BUCKET_LIMITS = _default_bucket_limits()


def histogram_proto(values):
  """TF's `HistogramProto` of the values (runs of empty buckets collapsed, as TF does)."""
  values = np.asarray(values, np.float64).ravel()
  proto = summary_pb2.HistogramProto()
  if values.size:
    proto.min, proto.max = float(values.min()), float(values.max())
    proto.sum, proto.sum_squares = float(values.sum()), float(np.dot(values, values))
  else:
    proto.min, proto.max = _DBL_MAX, -_DBL_MAX
  proto.num = float(values.size)
  index = np.minimum(np.searchsorted(_BUCKET_LIMITS, values, side="right"),
                     len(_BUCKET_LIMITS) - 1)
  counts = np.bincount(index, minlength=len(_BUCKET_LIMITS)).astype(np.float64)
  empty = counts <= 0
  run_end = np.append(~empty[1:], True)  # the last bucket of each run of empty buckets
  keep = ~empty | run_end
  proto.bucket_limit.extend(_BUCKET_LIMITS[keep].tolist())
  proto.bucket.extend(counts[keep].tolist())
  return proto


def equal_width_histogram_proto(values, buckets):
  """`buckets` equal-width buckets over [min, max] (tf.summary.histogram(buckets=k))."""
  values = np.asarray(values, np.float64).ravel()
  if not values.size:
    return histogram_proto(values)
  proto = histogram_proto(values)
  counts, edges = np.histogram(values, bins=max(int(buckets), 1))
  del proto.bucket_limit[:], proto.bucket[:]
  proto.bucket_limit.extend(edges[1:].tolist())
  proto.bucket.extend(counts.astype(np.float64).tolist())
  return proto


def scalar(tag, value, params):
  """A `simple_value` (the first element, as TF's WriteScalarSummary kernel reads it)."""
  value = np.asarray(value)
  return [summary_pb2.Summary.Value(tag=tag, simple_value=float(value.ravel()[0]))]


def histogram(tag, values, params):
  values = np.asarray(values)
  if values.dtype.kind == "f" and not np.all(np.isfinite(values)):
    raise ValueError("%s in summary histogram for: %s"
                     % ("Nan" if np.isnan(values).any() else "Infinity", tag))
  if params:
    return [summary_pb2.Summary.Value(tag=tag, histo=equal_width_histogram_proto(values, params))]
  return [summary_pb2.Summary.Value(tag=tag, histo=histogram_proto(values))]


def _png(pixels):
  """PNG bytes of an HxWxC uint8 array (C in 1, 3, 4)."""
  mode = {1: "L", 3: "RGB", 4: "RGBA"}[pixels.shape[-1]]
  data = pixels[..., 0] if pixels.shape[-1] == 1 else pixels
  out = io.BytesIO()
  Image.fromarray(np.ascontiguousarray(data), mode).save(out, format="PNG")
  return out.getvalue()


def _normalize_float_image(image, bad_color):
  """TF's ImageSummary rescaling of one float image to uint8; non-finite pixels get bad_color."""
  # The affine map runs in the image's own precision (half, float or double), as in TF.
  compute = image.dtype.type if image.dtype in (np.float16, np.float64) else np.float32
  image = image.astype(compute)
  finite = np.isfinite(image).all(axis=-1)
  good = image[finite]
  lo = np.float32(good.min()) if good.size else np.float32(np.inf)
  hi = np.float32(good.max()) if good.size else np.float32(-np.inf)
  if lo < 0:
    top = max(abs(lo), abs(hi))
    scale = np.float32(0.0) if top < 1e-6 else np.float32(127.0) / top
    offset = 128.0
  else:
    scale = np.float32(0.0) if hi < 1e-6 else np.float32(255.0) / hi
    offset = 0.0
  with np.errstate(invalid="ignore"):
    out = (image * compute(scale) + compute(offset)).astype(np.uint8)
  out[~finite] = bad_color[:image.shape[-1]]
  return out


def _convert_image_v2(image):
  """`tf.image.convert_image_dtype(image, tf.uint8, saturate=True)` (tf.summary.image v2)."""
  if image.dtype == np.uint8:
    return image
  if image.dtype.kind == "f":
    return np.clip(image.astype(np.float64) * 255.5, 0, 255).astype(np.uint8)
  if image.dtype.kind in "iu":
    shift = np.iinfo(image.dtype).bits - (image.dtype.kind == "i") - 8
    return np.clip(image.astype(np.int64) >> max(shift, 0), 0, 255).astype(np.uint8)
  return (image != 0).astype(np.uint8) * 255


def image(tag, images, params):
  """One PNG image value per image, tagged `tag/image/i` (`tag/image` when max_images is 1)."""
  max_images, bad_color, v2 = params
  images = np.asarray(images)[:max_images]
  values = []
  for i, img in enumerate(images):
    if v2:
      pixels = _convert_image_v2(img)
    elif img.dtype == np.uint8:
      pixels = img
    else:
      pixels = _normalize_float_image(img, bad_color)
    sub = "%s/image" % tag if max_images == 1 else "%s/image/%d" % (tag, i)
    values.append(summary_pb2.Summary.Value(tag=sub, image=summary_pb2.Summary.Image(
        height=pixels.shape[0], width=pixels.shape[1], colorspace=pixels.shape[2],
        encoded_image_string=_png(pixels))))
  return values


def wav(samples, sample_rate):
  """16-bit PCM WAV bytes of a frames x channels float array (TF's rounding and clipping)."""
  pcm = np.clip(np.round(samples.astype(np.float32) * np.float32(32768.0)), -32768, 32767)
  out = io.BytesIO()
  with wave.open(out, "wb") as w:
    w.setnchannels(samples.shape[1])
    w.setsampwidth(2)
    w.setframerate(int(sample_rate))
    w.writeframes(pcm.astype("<i2").tobytes())
  return out.getvalue()


def audio(tag, clips, params):
  """One WAV value per clip, tagged `tag/audio/i` (`tag/audio` when max_outputs is 1)."""
  sample_rate, max_outputs = params
  clips = np.asarray(clips)
  if clips.ndim == 2:
    clips = clips[:, :, None]
  values = []
  for i, clip in enumerate(clips[:max_outputs]):
    sub = "%s/audio" % tag if max_outputs == 1 else "%s/audio/%d" % (tag, i)
    values.append(summary_pb2.Summary.Value(tag=sub, audio=summary_pb2.Summary.Audio(
        sample_rate=float(sample_rate), num_channels=clip.shape[1],
        length_frames=clip.shape[0], encoded_audio_string=wav(clip, sample_rate),
        content_type="audio/wav")))
  return values


def metadata_proto(metadata):
  """A `SummaryMetadata` from None, serialized bytes or a proto."""
  if metadata is None:
    return None
  if hasattr(metadata, "SerializeToString"):
    metadata = metadata.SerializeToString()
  return summary_pb2.SummaryMetadata.FromString(bytes(metadata))


def generic(tag, array, params):
  """A tensor value with optional metadata (params: a SummaryMetadata or None)."""
  value = summary_pb2.Summary.Value(tag=tag, tensor=tensor_util.content_proto(array))
  if params is not None:
    value.metadata.CopyFrom(params)
  return [value]


TEXT_METADATA = summary_pb2.SummaryMetadata(
    plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="text", content=b""))


def text(tag, array, params):
  """A string tensor with the text plugin's metadata (what TensorBoard's Text tab reads)."""
  return generic(tag, array, TEXT_METADATA)
