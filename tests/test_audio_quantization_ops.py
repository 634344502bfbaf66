"""tf.audio (WAV codecs, bytes equal TF's), tf.quantization (fake quantization and its
gradients, quantize / dequantize / quantized_concat, quantize_and_dequantize), the quantized
dtypes and the quantized tf.nn ops: golden values from TF 2.21's tf.compat.v1 (eager, CPU,
oneDNN off), bit for bit; QuantizeV2's SCALED round_mode HALF_TO_EVEN is TF 1.15's."""
import numpy as np
import pytest

import tfe_compat as tf


def f32(values):
  return np.array(values, np.float32)


def assert_exact(tensor, expected, dtype="float32"):
  assert tensor.dtype.name == dtype
  np.testing.assert_array_equal(tensor.numpy(), np.array(expected, tensor.numpy().dtype))


# ---- tf.audio ----
STEREO = [[0.0, 0.5], [-1.0, 0.25], [0.99999, -0.3]]
STEREO_WAV = (b"RIFF0\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00\x80>\x00\x00\x00\xfa\x00"
              b"\x00\x04\x00\x10\x00data\x0c\x00\x00\x00\x00\x00\x00@\x00\x80\x00 \xff\x7f\x9a\xd9")


def test_encode_wav_bytes():
  wav = tf.audio.encode_wav(tf.constant(STEREO), 16000)
  assert wav.dtype == tf.string and wav.shape == () and wav.numpy() == STEREO_WAV
  mono = tf.audio.encode_wav(tf.constant([[0.1], [1.5], [-2.0]]), tf.constant(8000))
  assert mono.numpy() == (b"RIFF*\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00"
                          b"\x80>\x00\x00\x02\x00\x10\x00data\x06\x00\x00\x00\xcd\x0c\xff\x7f\x00\x80")
  empty = tf.audio.encode_wav(tf.zeros([0, 2]), 8000)
  assert empty.numpy() == (b"RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00@\x1f\x00"
                           b"\x00\x00}\x00\x00\x04\x00\x10\x00data\x00\x00\x00\x00")
  # NaN -> 0, +-inf saturate, C's roundf (halves away from zero) at 1/32768 steps
  odd = tf.audio.encode_wav(tf.constant([[np.nan], [np.inf], [-np.inf], [-0.00002], [0.00002],
                                         [1.5 / 32768]]), 8000)
  assert odd.numpy()[44:] == b"\x00\x00\xff\x7f\x00\x80\xff\xff\x01\x00\x02\x00"


def test_decode_wav():
  audio, rate = tf.audio.decode_wav(STEREO_WAV)
  assert audio.dtype == tf.float32 and rate.dtype == tf.int32 and int(rate) == 16000
  assert_exact(audio, [[0.0, 0.5], [-1.0, 0.25], [0.999969482421875, -0.29998779296875]])
  decoded = tf.audio.decode_wav(tf.constant(STEREO_WAV), desired_channels=3, desired_samples=4)
  assert decoded.sample_rate.numpy() == 16000
  assert_exact(decoded.audio, [[0.0, 0.5, 0.5], [-1.0, 0.25, 0.25],
                               [0.999969482421875, -0.29998779296875, -0.29998779296875],
                               [0.0, 0.0, 0.0]])
  assert_exact(tf.audio.decode_wav(STEREO_WAV, desired_channels=1, desired_samples=2).audio,
               [[0.0], [-1.0]])


@pytest.mark.parametrize("contents, message", [
    (b"RIFX1234", "Header mismatch: Expected RIFF but found RIFX"),
    (b"", "Data too short when trying to read string"),
    (STEREO_WAV[:-1], "Data too short when trying to read string"),
    (STEREO_WAV[:8] + b"WAVX" + STEREO_WAV[12:], "Header mismatch: Expected WAVE but found WAVX"),
    (STEREO_WAV[:34] + b"\x08" + STEREO_WAV[35:], "Can only read 16-bit WAV files, but received 8"),
    (STEREO_WAV[:20] + b"\x03" + STEREO_WAV[21:],
     r"Bad audio format for WAV: Expected 1 \(PCM\), but got3"),
    ([STEREO_WAV], r"contents must be scalar, got shape \[1\]"),
])
def test_decode_wav_errors(contents, message):
  with pytest.raises(tf.errors.InvalidArgumentError, match=message + r" \[Op:DecodeWav\]$"):
    tf.audio.decode_wav(contents)


def test_encode_wav_errors():
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"audio must be 2-dimensional\[2\]"):
    tf.audio.encode_wav(tf.constant([0.1, 0.2]), 8000)
  with pytest.raises(tf.errors.InvalidArgumentError, match="was expected to be a float tensor "
                                                           "but is a double tensor"):
    tf.audio.encode_wav(tf.constant([[0.1]], tf.float64), 8000)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"sample_rate must be in \(0, 2\^32\), got: 18446744073709551611"):
    tf.audio.encode_wav(tf.constant([[0.1]]), -5)


# ---- fake quantization ----
X = f32([-7., -6., -1.3, -0.02, 0., 0.024, 0.5, 1.7, 3.1, 5.98, 6.3, 100.])
WEIGHTS = np.arange(12, dtype=np.float32)


def test_fake_quant_args():
  assert_exact(tf.fake_quant_with_min_max_args(X), [
      -6.023529529571533, -5.976470470428467, -1.317647099494934, 0.0, 0.0, 0.0470588244497776,
      0.5176470875740051, 1.6941176652908325, 3.105882406234741, 5.976470470428467,
      5.976470470428467, 5.976470470428467])
  assert_exact(tf.quantization.fake_quant_with_min_max_args(X, min=-1., max=2.5, num_bits=4,
                                                            narrow_range=True),
               [-1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.5, 1.75, 2.5, 2.5, 2.5, 2.5])
  assert_exact(tf.fake_quant_with_min_max_args_gradient(X * 0 + 2, X, min=-1., max=2.5),
               [0, 0, 0, 2, 2, 2, 2, 2, 0, 0, 0, 0])


def test_fake_quant_vars_and_per_channel():
  assert_exact(tf.fake_quant_with_min_max_vars(X, -1., 2.5, num_bits=5), [
      -1.0161290168762207, -1.0161290168762207, -1.0161290168762207, 0.0, 0.0, 0.0,
      0.4516128897666931, 1.693548321723938, 2.4838709831237793, 2.4838709831237793,
      2.4838709831237793, 2.4838709831237793])
  per_channel = tf.fake_quant_with_min_max_vars_per_channel(
      X.reshape(4, 3), [-1., 0.1, -3.], [2.5, 4., -0.5], num_bits=6, narrow_range=True)
  assert_exact(per_channel, [[-1.0161290168762207, 0.0, -1.2903225421905518], [0.0, 0.0, 0.0],
                             [0.5080645084381104, 1.6983871459960938, 0.0],
                             [2.4838709831237793, 3.9000000953674316, 0.0]])
  grads = tf.quantization.fake_quant_with_min_max_vars_gradient(X * 0 + 2, X, -1., 2.5,
                                                                num_bits=5)
  assert_exact(grads.backprops_wrt_input, [0, 0, 0, 2, 2, 2, 2, 2, 0, 0, 0, 0])
  assert float(grads.backprop_wrt_min) == 6.0 and float(grads.backprop_wrt_max) == 8.0
  grads = tf.fake_quant_with_min_max_vars_per_channel_gradient(
      WEIGHTS.reshape(4, 3), X.reshape(4, 3), [-1., 0.1, -3.], [2.5, 4., -0.5], num_bits=6)
  assert_exact(grads[0], [[0, 0, 2], [3, 4, 0], [6, 7, 0], [0, 0, 0]])
  assert_exact(grads[1], [0, 1, 0])
  assert_exact(grads[2], [9, 10, 24])
  assert_exact(tf.fake_quant_with_min_max_vars(X[:3], 0., 0.), [0, 0, 0])  # zero range


def test_fake_quant_straight_through_gradients():
  x = tf.constant(X)
  lo, hi = tf.Variable(-1.), tf.Variable(2.5)
  with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    by_vars = tf.reduce_sum(tf.fake_quant_with_min_max_vars(x, lo, hi, num_bits=5) * WEIGHTS)
    by_args = tf.reduce_sum(tf.fake_quant_with_min_max_args(x, -1., 2.5) * WEIGHTS)
  dx, dlo, dhi = tape.gradient(by_vars, [x, lo, hi])
  assert_exact(dx, [0, 0, 0, 3, 4, 5, 6, 7, 0, 0, 0, 0])
  assert float(dlo) == 3.0 and float(dhi) == 38.0
  assert_exact(tape.gradient(by_args, x), [0, 0, 0, 3, 4, 5, 6, 7, 0, 0, 0, 0])
  xm = tf.constant(X.reshape(4, 3))
  lo, hi = tf.Variable([-1., 0.1, -3.]), tf.Variable([2.5, 4., -0.5])
  with tf.GradientTape() as tape:
    tape.watch(xm)
    loss = tf.reduce_sum(tf.fake_quant_with_min_max_vars_per_channel(xm, lo, hi) *
                         WEIGHTS.reshape(4, 3))
  dx, dlo, dhi = tape.gradient(loss, [xm, lo, hi])
  assert_exact(dx, [[0, 0, 2], [3, 4, 0], [6, 7, 0], [0, 0, 0]])
  assert_exact(dlo, [0, 1, 0])
  assert_exact(dhi, [9, 10, 24])


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.fake_quant_with_min_max_args(X, min=2., max=1.),
     r"^min has to be smaller than max, was: 2 >= 1 \[Op:FakeQuantWithMinMaxArgs\]$"),
    (lambda: tf.fake_quant_with_min_max_args(X, num_bits=17),
     "num_bits must be between 2 and 16, inclusive"),
    (lambda: tf.fake_quant_with_min_max_vars(X, [-1.], [2.5]), "`min` must be rank 0 but is rank 1"),
    (lambda: tf.fake_quant_with_min_max_vars_per_channel(X.reshape(4, 3), [-1., 0.1], [2.5, 4.]),
     "min has incorrect size, expected 3 was 2"),
])
def test_fake_quant_errors(fn, message):
  with pytest.raises(tf.errors.InvalidArgumentError, match=message):
    fn()


# ---- quantize_and_dequantize ----
Y = f32([-1.3, -1.0, -0.5, -0.01, 0., 0.3, 0.5, 1.0, 2.7, 3.0, 3.5])


def test_quantize_and_dequantize():
  qd = tf.quantization.quantize_and_dequantize
  assert_exact(qd(Y, -1.0, 3.0), [
      -1.2952755689620972, -0.9921259880065918, -0.4960629940032959, -0.0, 0.0,
      0.30314961075782776, 0.4960629940032959, 0.9921259880065918, 2.700787305831909,
      3.003937005996704, 3.5])
  assert_exact(qd(Y, -1.0, 3.0, range_given=True), [
      -1.2992125749588013, -0.9921259880065918, -0.4960629940032959, -0.0, 0.0,
      0.30708661675453186, 0.4960629940032959, 0.9921259880065918, 2.692913293838501, 3.0, 3.0])
  assert_exact(qd(Y, -1.0, 3.0, range_given=True, num_bits=4, narrow_range=True,
                  round_mode="HALF_UP"), [
      -1.2857142686843872, -0.8571428656578064, -0.4285714328289032, 0.0, 0.0,
      0.4285714328289032, 0.4285714328289032, 0.8571428656578064, 2.5714285373687744, 3.0, 3.0])
  assert_exact(qd(Y, 0.0, 3.0, signed_input=False, range_given=True, num_bits=3), [
      0.0, 0.0, 0.0, 0.0, 0.0, 0.4285714328289032, 0.4285714328289032, 0.8571428656578064,
      2.5714285373687744, 3.0, 3.0])
  y = tf.constant(Y)
  with tf.GradientTape() as tape:
    tape.watch(y)
    loss = tf.reduce_sum(qd(y, -1.0, 3.0, range_given=True) * np.arange(11, dtype=np.float32))
  assert_exact(tape.gradient(loss, y), np.arange(11))  # straight through, clamped or not
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"^Invalid range: input_min 3 > input_max -1 "
                           r"\[Op:QuantizeAndDequantizeV2\]$"):
    qd(Y, 3.0, -1.0, range_given=True)


# ---- quantized dtypes, quantize / dequantize / quantized_concat ----
def test_quantized_dtypes():
  assert tf.qint8.is_quantized and not tf.int8.is_quantized and not tf.qint8.is_integer
  assert tf.as_dtype("quint8") is tf.quint8 and tf.as_dtype(13) is tf.qint32
  assert tf.dtypes.qint16.size == 2 and tf.quint16.name == "quint16"
  assert tf.qint8 != tf.int8
  with pytest.raises(TypeError):
    tf.qint8.min  # pylint: disable=pointless-statement


QUANTIZED = {  # (mode, T): (output, output_min, output_max) of quantize(Y, -1, 3, T, mode)
    ("MIN_COMBINED", "qint8"): ([-128, -128, -96, -65, -64, -45, -32, -1, 108, 127, 127], -1, 3),
    ("MIN_COMBINED", "quint8"): ([0, 0, 32, 63, 64, 83, 96, 128, 236, 255, 255], -1, 3),
    ("MIN_COMBINED", "qint16"): ([-32768, -32768, -24576, -16548, -16384, -11469, -8192, -1,
                                  27852, 32767, 32767], -1, 3),
    ("MIN_COMBINED", "qint32"): ([-2147483648, -2147483648, -1610612736, -1084479232,
                                  -1073741824, -751619328, -536870912, 0, 1825361152,
                                  -2147483648, -2147483648], -1, 3),
    ("MIN_FIRST", "qint8"): ([-128, -128, -96, -65, -64, -45, -32, 0, 108, 127, 127], -1, 3),
    ("MIN_FIRST", "quint16"): ([0, 0, 8192, 16220, 16384, 21299, 24576, 32768, 60620, 65535,
                                65535], -1, 3),
    ("MIN_FIRST", "qint32"): ([-2147483648, -2147483648, -1610612736, -1084479232, -1073741824,
                               -751619264, -536870912, 0, 1825361152, 2147483520, 2147483520],
                              -1, 3),
    ("SCALED", "qint8"): ([-55, -42, -21, 0, 0, 13, 21, 42, 114, 127, 127], -3.0236220359802246,
                          3),
    ("SCALED", "quint8"): ([0, 0, 0, 0, 0, 26, 43, 85, 230, 255, 255], 0, 3),
    ("SCALED", "qint16"): ([-14199, -10922, -5461, -109, 0, 3277, 5461, 10922, 29490, 32767,
                            32767], -3.000091552734375, 3),
}


@pytest.mark.parametrize("mode, name", sorted(QUANTIZED))
def test_quantize(mode, name):
  out = tf.quantization.quantize(Y, -1.0, 3.0, tf.as_dtype(name), mode=mode)
  values, lo, hi = QUANTIZED[(mode, name)]
  assert_exact(out.output, values, name)
  assert out.output.numpy().dtype == np.dtype(name[1:])  # the integer storage, as TF's numpy()
  assert_exact(out.output_min, lo)
  assert_exact(out.output_max, hi)


DEQUANTIZED = {
    ("MIN_COMBINED", "qint8"): [-1.0, -1.0, -0.498039186000824, -0.01176464557647705,
                                0.003921627998352051, 0.301960825920105, 0.5058825016021729,
                                0.992156982421875, 2.701961040496826, 3.0, 3.0],
    ("MIN_COMBINED", "qint32"): [-1.0, -1.0, -0.5, -0.009999990463256836, 0.0,
                                 0.2999999523162842, 0.5, 1.0, 2.700000047683716, -1.0, -1.0],
    ("MIN_FIRST", "quint8"): [-1.003921627998352, -1.003921627998352, -0.501960813999176,
                              -0.0156862735748291, 0.0, 0.29803919792175293, 0.5019608736038208,
                              1.003921627998352, 2.6980395317077637, 2.9960784912109375,
                              2.9960784912109375],
    ("SCALED", "qint8"): [-1.2992125749588013, -0.9921259880065918, -0.4960629940032959, 0.0, 0.0,
                          0.30708661675453186, 0.4960629940032959, 0.9921259880065918,
                          2.692913293838501, 3.0, 3.0],
    ("SCALED", "qint32"): [-1.2999999523162842, -1.0, -0.5, -0.009999999776482582, 0.0,
                           0.30000001192092896, 0.5, 1.0, 2.700000047683716, -3.0, -3.0],
}


@pytest.mark.parametrize("mode, name", sorted(DEQUANTIZED))
def test_dequantize(mode, name):
  q = tf.quantize(Y, -1.0, 3.0, tf.as_dtype(name), mode=mode)
  assert_exact(tf.dequantize(q.output, q.output_min, q.output_max, mode=mode),
               DEQUANTIZED[(mode, name)])


def test_quantize_v2_zero_range_and_scaled_rounding():
  q = tf.quantize_v2(Y, 0.0, 0.0, tf.quint8)
  assert_exact(q.output, [0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255], "quint8")
  assert_exact(q.output_max, 0.009999999776482582)
  # TF 1.15's SCALED mode keeps its range with HALF_TO_EVEN (2.7 * 127 / 3 = 114.3 -> 114)
  q = tf.quantize(Y, -1.0, 3.0, tf.qint8, mode="SCALED", round_mode="HALF_TO_EVEN")
  assert_exact(q.output, [-55, -42, -21, 0, 0, 13, 21, 42, 114, 127, 127], "qint8")


def test_quantized_concat():
  a = tf.quantize(Y, -1.0, 3.0, tf.quint8).output
  b = tf.quantize(Y, -2.0, 1.0, tf.quint8).output
  out = tf.quantized_concat(0, [a, b], [-1.0, -2.0], [3.0, 1.0])
  assert_exact(out.output, [51, 51, 76, 101, 102, 117, 128, 153, 240, 255, 255, 36, 51, 77, 101,
                            102, 118, 128, 153, 153, 153, 153], "quint8")
  assert float(out.output_min) == -2.0 and float(out.output_max) == 3.0
  a = tf.quantize(Y[:4], -1.0, 3.0, tf.qint32, mode="MIN_FIRST")
  b = tf.quantize(Y[4:6], -0.5, 5.0, tf.qint32, mode="MIN_FIRST")
  out = tf.quantization.quantized_concat(0, [a.output, b.output], [a.output_min, b.output_min],
                                         [a.output_max, b.output_max])
  assert_exact(out.output, [-429496736, -429496736, -214748368, -4294964, 0, 128849048], "qint32")
  assert float(out.output_min) == -5.0 and float(out.output_max) == 5.0


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.quantize(Y, 3.0, -1.0, tf.quint8),
     r"^input_max_range must be larger than input_min_range. \[Op:QuantizeV2\]$"),
    (lambda: tf.quantize(Y, -1.0, 3.0, tf.int8),
     r"^Value for attr 'T' of int8 is not in the list of allowed values: qint8, quint8, qint32, "
     r"qint16, quint16 \[Op:QuantizeV2\]$"),
    (lambda: tf.quantize(Y, -1.0, 3.0, tf.qint8, round_mode="HALF_TO_EVEN"),
     "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is 'MIN_COMBINED'."),
    (lambda: tf.quantize(Y, -1.0, 3.0, tf.qint8, mode="FOO"),
     "Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is 'FOO'"),
    (lambda: tf.dequantize(tf.constant([1], tf.uint8), 0., 1.),
     "Value for attr 'T' of uint8 is not in the list of allowed values"),
])
def test_quantize_errors(fn, message):
  with pytest.raises(tf.errors.InvalidArgumentError, match=message):
    fn()


# ---- quantized tf.nn ops ----
def test_quantized_nn_ops():
  x = np.random.RandomState(0).uniform(-1, 3, size=(1, 4, 5, 2)).astype(np.float32)
  q = tf.quantize(x, -1., 3., tf.quint8)
  out = tf.nn.quantized_max_pool(q.output, q.output_min, q.output_max, [1, 2, 2, 1],
                                 [1, 2, 2, 1], "SAME")
  assert_exact(out.output, [[[[202, 236], [112, 227], [246, 222]],
                             [[250, 204], [156, 241], [241, 174]]]], "quint8")
  assert float(out.min_output) == -1.0 and float(out.max_output) == 3.0
  out = tf.nn.quantized_avg_pool(q.output, q.output_min, q.output_max, [1, 2, 3, 1],
                                 [1, 1, 2, 1], "SAME")
  assert_exact(out.output, [[[[160, 173], [90, 166], [140, 189]], [[178, 193], [58, 178],
                                                                  [93, 195]],
                             [[137, 186], [77, 177], [141, 169]],
                             [[91, 171], [92, 153], [198, 165]]]], "quint8")
  f = np.random.RandomState(0).uniform(-0.5, 0.5, size=(2, 3, 2, 3)).astype(np.float32)
  qf = tf.quantize(f, -0.5, 0.5, tf.quint8)
  out = tf.nn.quantized_conv2d(q.output, qf.output, q.output_min, q.output_max, qf.output_min,
                               qf.output_max, [1, 2, 2, 1], "VALID")
  assert_exact(out.output, [[[[17208, 26482, 31187], [6077, 17227, -8985]],
                             [[7341, -7602, 36089], [-11972, 4787, -13177]]]], "qint32")
  assert float(out.min_output) == -132102.046875 and float(out.max_output) == 132102.046875
  with pytest.raises(tf.errors.NotFoundError, match="QuantizedReluX"):
    tf.nn.quantized_relu_x(q.output, 2.0, q.output_min, q.output_max)
  with pytest.raises(tf.errors.InvalidArgumentError, match="equal length strides"):
    tf.nn.quantized_conv2d(q.output, qf.output, -1., 3., -0.5, 0.5, [1, 1, 2, 1], "SAME")


def test_constants_of_quantized_dtypes():
  # TF 2.21: <tf.Tensor: shape=(2,), dtype=qint8, numpy=array([1, 2], dtype=int8)>
  q = tf.constant([1, 2], tf.qint8)
  assert q.dtype is tf.qint8 and q.numpy().dtype == np.int8 and q.numpy().tolist() == [1, 2]
  with pytest.raises(TypeError, match=r"Cannot convert \[1.0, 2.0\] to EagerTensor of dtype "
                     "quint8"):
    tf.constant([1., 2.], tf.quint8)
  assert tf.quantization.dequantize(tf.constant([0, 255], tf.quint8), 0., 1.).numpy().tolist() \
      == [0., 1.]
