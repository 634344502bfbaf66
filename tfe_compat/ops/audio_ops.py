"""`tf.audio`: 16-bit PCM WAV decoding and encoding, byte for byte as TF's wav_io.

They run on concrete values only (the contents are a scalar string Tensor), as the image
codecs do.
"""
import collections
import struct

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.array_ops import dims_text, invalid, scalar_int
from tfe_compat.ops.math_ops import mismatch_message

DecodeWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])
# Chunks that may come between "WAVE" and "fmt " (TF skips them).
_SKIPPED_CHUNKS = (b"JUNK", b"bext", b"iXML", b"qlty", b"mext", b"levl", b"link", b"axml")


class _Reader:
  """Reads little-endian fields from WAV bytes with TF's errors (as InvalidArgumentError)."""

  def __init__(self, data):
    self.data, self.offset = data, 0

  def take(self, size):
    end = self.offset + size
    if end > len(self.data):
      raise invalid("Data too short when trying to read string", "DecodeWav")
    chunk, self.offset = self.data[self.offset:end], end
    return chunk

  def expect(self, text):
    found = self.take(len(text))
    if found != text:
      raise invalid("Header mismatch: Expected %s but found %s"
                    % (text.decode(), found.decode("latin-1")), "DecodeWav")

  def value(self, fmt):
    return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]


def _fail(message):
  raise invalid(message, "DecodeWav")


def _decode(data):
  """(float32 samples [frames, channels], sample rate) of 16-bit PCM WAV bytes."""
  reader = _Reader(data)
  reader.expect(b"RIFF")
  reader.value("I")  # file size
  reader.expect(b"WAVE")
  chunk = reader.take(4)
  while chunk != b"fmt ":
    if chunk not in _SKIPPED_CHUNKS:
      _fail("Unexpected field %s" % chunk.decode("latin-1"))
    reader.take(reader.value("I"))
    chunk = reader.take(4)
  format_size = reader.value("I")
  if format_size not in (16, 18):
    _fail("Bad format chunk size for WAV: Expected 16 or 18, but got%d" % format_size)
  audio_format = reader.value("H")
  if audio_format != 1:
    _fail("Bad audio format for WAV: Expected 1 (PCM), but got%d" % audio_format)
  channels = reader.value("H")
  if channels < 1:
    _fail("Bad number of channels for WAV: Expected at least 1, but got %d" % channels)
  sample_rate, bytes_per_second = reader.value("I"), reader.value("I")
  bytes_per_frame, bits = reader.value("H"), reader.value("H")
  if bits != 16:
    _fail("Can only read 16-bit WAV files, but received %d" % bits)
  if bytes_per_frame != (bits * channels + 7) // 8:
    _fail("Bad bytes per sample in WAV header: Expected %d but got %d"
          % ((bits * channels + 7) // 8, bytes_per_frame))
  if bytes_per_second != (bytes_per_frame * sample_rate) & 0xFFFFFFFF:
    _fail("Bad bytes per second in WAV header: Expected %d but got %d (sample_rate=%d, "
          "bytes_per_sample=%d)" % ((bytes_per_frame * sample_rate) & 0xFFFFFFFF,
                                    bytes_per_second, sample_rate, bytes_per_frame))
  reader.offset += 2 if format_size == 18 else 0
  samples = None
  while reader.offset < len(data):
    chunk, size = reader.take(4), reader.value("I")
    if size > 2 ** 31 - 1:
      _fail("WAV data chunk '%s' is too large: %d bytes, but the limit is %d"
            % (chunk.decode("latin-1"), size, 2 ** 31 - 1))
    if chunk != b"data":
      reader.offset += size
      continue
    if samples is not None:
      _fail("More than one data chunk found in WAV")
    frames = size // bytes_per_frame
    samples = np.frombuffer(reader.take(2 * frames * channels), "<i2").reshape(frames, channels)
  if samples is None:
    _fail("No data chunk found in WAV")
  return samples.astype(np.float32) / np.float32(32768), sample_rate


@export("audio.decode_wav")
def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
  """`tf.audio.decode_wav`: (float32 audio [samples, channels] in [-1, 1), int32 sample
  rate) of a 16-bit PCM WAV file's contents. Missing channels repeat the last one; missing
  samples are zeros."""
  contents = convert_to_tensor(contents, dtypes.string)
  if contents.shape.ndims != 0:
    _fail("contents must be scalar, got shape %s" % dims_text(contents.shape.as_list()))
  samples, sample_rate = _decode(contents.numpy())
  desired_channels, desired_samples = scalar_int(desired_channels), scalar_int(desired_samples)
  if desired_channels < -1:
    _fail("desired_channels must be >= -1, got %d" % desired_channels)
  if desired_samples < -1:
    _fail("desired_samples must be >= -1, got %d" % desired_samples)
  frames, channels = samples.shape
  if desired_channels != -1:
    samples = samples[:, np.minimum(np.arange(desired_channels), channels - 1)]
  if desired_samples != -1:
    samples = np.pad(samples[:desired_samples], [(0, max(desired_samples - frames, 0)), (0, 0)])
  return DecodeWav(convert_to_tensor(samples), convert_to_tensor(np.int32(sample_rate)))


@export("audio.encode_wav")
def encode_wav(audio, sample_rate, name=None):
  """`tf.audio.encode_wav`: the 16-bit PCM WAV file (a scalar string) of float32 `audio`
  [samples, channels], clipped to [-1, 1] and rounded to 1/32768 steps."""
  audio = convert_to_tensor(audio)
  if audio.dtype is not dtypes.float32:
    raise errors.invalid_argument("%s [Op:EncodeWav]" % mismatch_message(
        "EncodeWav", 0, dtypes.float32, audio.dtype))
  sample_rate = convert_to_tensor(sample_rate, dtypes.int32)
  if audio.shape.ndims != 2:
    raise invalid("audio must be 2-dimensional%s" % dims_text(audio.shape.as_list()),
                  "EncodeWav")
  if sample_rate.shape.ndims != 0:
    raise invalid("Input sample_rate should be a scalar tensor, got %s instead."
                  % dims_text(sample_rate.shape.as_list()), "EncodeWav")
  rate = int(sample_rate.numpy()) % 2 ** 64  # TF reads it as a size_t
  frames, channels = audio.shape.as_list()
  if rate == 0 or rate >= 2 ** 32:
    raise invalid("sample_rate must be in (0, 2^32), got: %d" % rate, "EncodeWav")
  if channels == 0 or channels >= 2 ** 16:
    raise invalid("num_channels must be in (0, 2^16), got: %d" % channels, "EncodeWav")
  scaled = np.nan_to_num(np.asarray(audio.numpy(), np.float32) * np.float32(32768), nan=0.0)
  whole = np.trunc(scaled)  # C's roundf: halves away from zero
  rounded = np.where(np.abs(scaled - whole) >= 0.5, whole + np.sign(scaled), whole)
  samples = np.clip(rounded, -32768, 32767).astype("<i2")
  data_size = 2 * samples.size
  bytes_per_second = (rate * 2 * channels) & 0xFFFFFFFF
  header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + data_size, b"WAVE", b"fmt ", 16, 1,
                       channels, rate, bytes_per_second, 2 * channels, 16, b"data", data_size)
  return Tensor(np.array(header + samples.tobytes(), dtype=object))
