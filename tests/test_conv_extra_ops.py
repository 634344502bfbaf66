"""tf.nn conv backprops, conv_transpose, dilation2d/erosion2d, with_space_to_batch and
fractional pooling; golden values from TF (CPU, oneDNN off)."""
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.ops import conv_extra_ops



def r(shape, mod=7):
  """The oracle's deterministic inputs."""
  return (((np.arange(np.prod(shape)) * 3 + 1) % mod) - mod // 2).astype(np.float32).reshape(
      shape)


def check(name, t):
  dtype, shape, values = GOLD[name]
  assert t.dtype.name == dtype
  assert list(t.shape) == shape
  np.testing.assert_allclose(t.numpy().ravel(), values, rtol=1e-6, atol=1e-6)


def to_nchw(a):
  return np.transpose(a, (0, 3, 1, 2))


X = r((1, 5, 5, 2))
X3 = r((1, 4, 4, 3, 2))
W = r((2, 2, 2, 3), 4)
DY3 = r((1, 3, 3, 3), 5)
DW_DY = r((1, 3, 3, 6), 5)


def test_conv2d_backprop_filter():
  check("bf_valid", tf.nn.conv2d_backprop_filter(X, [2, 2, 2, 3], r((1, 2, 2, 3), 5),
                                                 [1, 2, 2, 1], "VALID"))
  check("bf_same", tf.nn.conv2d_backprop_filter(X, tf.constant([3, 3, 2, 3]), DY3,
                                                [1, 2, 2, 1], "SAME"))
  check("bf_explicit", tf.nn.conv2d_backprop_filter(
      X, [2, 2, 2, 3], DY3, [1, 2, 2, 1], [[0, 0], [1, 0], [0, 1], [0, 0]]))
  # TF's CPU kernel is NHWC-only; NCHW gives the same filter gradient.
  check("bf_same", tf.nn.conv2d_backprop_filter(to_nchw(X), [3, 3, 2, 3], to_nchw(DY3),
                                                [1, 1, 2, 2], "SAME", data_format="NCHW"))


def test_conv2d_backprop_filter_matches_tape_with_dilations():
  x, w = tf.constant(X), tf.constant(r((2, 2, 2, 3), 5))
  dy = r((1, 3, 3, 3), 4)
  with tf.GradientTape() as tape:
    tape.watch(w)
    y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "VALID", dilations=[1, 2, 2, 1])
    loss = tf.reduce_sum(y * dy)
  got = tf.nn.conv2d_backprop_filter(x, [2, 2, 2, 3], dy, [1, 1, 1, 1], "VALID",
                                     dilations=[1, 2, 2, 1])
  np.testing.assert_allclose(got.numpy(), tape.gradient(loss, w).numpy(), rtol=1e-6)


def test_conv3d_backprop_filter():
  dy = r((1, 3, 2, 2, 3), 5)
  check("bf3", tf.nn.conv3d_backprop_filter_v2(X3, [2, 2, 2, 2, 3], dy, [1, 1, 2, 1, 1],
                                               "VALID"))
  assert tf.nn.conv3d_backprop_filter is tf.nn.conv3d_backprop_filter_v2


def test_depthwise_backprops():
  check("dwf", tf.nn.depthwise_conv2d_native_backprop_filter(X, [2, 2, 2, 3], DW_DY,
                                                             [1, 2, 2, 1], "SAME"))
  check("dwi", tf.nn.depthwise_conv2d_native_backprop_input([1, 5, 5, 2], W, DW_DY,
                                                            [1, 2, 2, 1], "SAME"))
  assert tf.nn.depthwise_conv2d_backprop_filter is tf.nn.depthwise_conv2d_native_backprop_filter
  assert tf.nn.depthwise_conv2d_backprop_input is tf.nn.depthwise_conv2d_native_backprop_input
  # NCHW (GPU-only in TF) agrees with NHWC.
  got = tf.nn.depthwise_conv2d_backprop_input([1, 2, 5, 5], W, to_nchw(DW_DY), [1, 1, 2, 2],
                                              "SAME", data_format="NCHW")
  np.testing.assert_allclose(got.numpy().transpose(0, 2, 3, 1).ravel(), GOLD["dwi"][2])
  got = tf.nn.depthwise_conv2d_backprop_filter(to_nchw(X), [2, 2, 2, 3], to_nchw(DW_DY),
                                               [1, 1, 2, 2], "SAME", data_format="NCHW")
  np.testing.assert_allclose(got.numpy().ravel(), GOLD["dwf"][2])


def test_backprop_float64_dtype():
  got = tf.nn.conv2d_backprop_filter(X.astype(np.float64), [2, 2, 2, 3],
                                     r((1, 2, 2, 3), 5).astype(np.float64), 2, "VALID")
  assert got.dtype == tf.float64
  np.testing.assert_allclose(got.numpy().ravel(), GOLD["bf_valid"][2])


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.nn.conv2d_backprop_filter(X, [2, 2, 2, 3], DY3, [1, 2, 2, 1], "VALID"),
     tf.errors.InvalidArgumentError,
     "Conv2DCustomBackpropFilter: Size of out_backprop doesn't match computed: actual = 3, "
     "computed = 2 spatial_dim: 1 input: 5 filter: 2 output: 3 stride: 2 dilation: 1 "
     "[Op:Conv2DBackpropFilter]"),
    (lambda: tf.nn.conv2d_backprop_filter(X, [2, 2, 2, 3], r((1, 2, 2, 4)), [1, 2, 2, 1],
                                          "VALID"),
     tf.errors.InvalidArgumentError, "Conv2DCustomBackpropFilter: filter and out_backprop "
     "must have the same out_depth [Op:Conv2DBackpropFilter]"),
    (lambda: tf.nn.depthwise_conv2d_native_backprop_filter(X, [2, 2, 2, 3], r((1, 2, 2, 3)),
                                                           [1, 2, 2, 1], "VALID"),
     tf.errors.InvalidArgumentError, "DepthwiseConv2DBackpropFilter: depth_multiplier * "
     "in_depth not equal to out_depth [Op:DepthwiseConv2dNativeBackpropFilter]"),
    (lambda: tf.nn.depthwise_conv2d_native_backprop_input([1, 5, 5, 2], W, r((1, 3, 2, 6)),
                                                          [1, 2, 2, 1], "VALID"),
     tf.errors.InvalidArgumentError, "DepthwiseConv2DBackpropInput: Number of rows of "
     "out_backprop doesn't match computed: actual = 3, computed = 2 "
     "[Op:DepthwiseConv2dNativeBackpropInput]"),
    (lambda: tf.nn.conv3d_backprop_filter_v2(X3, [2, 2, 2, 2, 3], r((1, 3, 3, 3, 4)),
                                             [1, 1, 1, 1, 1], "VALID"),
     tf.errors.InvalidArgumentError, "out_backprop and filter_sizes must have the same number "
     "of channels. Got 4 for out_backprop and 3 for filter_sizes [Op:Conv3DBackpropFilterV2]"),
    (lambda: tf.nn.conv2d_backprop_filter(X.astype(np.int32), [2, 2, 2, 3],
                                          np.ones((1, 2, 2, 3), np.int32), 2, "VALID"),
     tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list of "
     "allowed values: half, bfloat16, float, double"),
])
def test_backprop_errors(call, error, message):
  with pytest.raises(error) as info:
    call()
  assert message in str(info.value)


def test_conv_transpose():
  check("ct2", tf.nn.conv_transpose(r((1, 3, 3, 2), 5), r((3, 3, 4, 2), 4), [1, 5, 5, 4],
                                    [1, 2, 2, 1]))
  check("ct1", tf.nn.conv_transpose(r((1, 3, 2)), r((2, 3, 2), 4), tf.constant([1, 6, 3]), 2,
                                    "VALID"))
  out = tf.nn.conv_transpose(np.ones((1, 2, 2, 2, 1), np.float32),
                             np.ones((2, 2, 2, 3, 1), np.float32), [1, 4, 4, 4, 3], 2)
  np.testing.assert_array_equal(out.numpy(), np.ones((1, 4, 4, 4, 3), np.float32))
  with pytest.raises(ValueError, match=r"`output_shape` must be of length 3, 4 or 5. "
                     r"Received: output_shape=\[1, 5\] of length 2."):
    tf.nn.conv_transpose(r((1, 3, 3, 2)), r((3, 3, 4, 2)), [1, 5], 2)


XD = r((1, 4, 5, 2), 11)
FD = r((2, 2, 2), 3) * 0.5


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("strides,rates,tag", [([1, 1, 1, 1], [1, 1, 1, 1], "11"),
                                               ([1, 2, 1, 1], [1, 1, 2, 1], "22")])
def test_dilation_erosion(padding, strides, rates, tag):
  check("dil_%s_%s" % (padding, tag), tf.nn.dilation2d(XD, FD, strides, rates, padding))
  check("ero_%s_%s" % (padding, tag), tf.nn.erosion2d(XD, FD, strides, rates, padding))


def test_dilation_erosion_gradients():
  x, f = tf.constant(XD), tf.constant(FD)
  for name, fn in (("dil", tf.nn.dilation2d), ("ero", tf.nn.erosion2d)):
    with tf.GradientTape() as tape:
      tape.watch([x, f])
      out = fn(x, f, [1, 2, 1, 1], [1, 1, 2, 1], "SAME")
      loss = tf.reduce_sum(out * r(out.shape.as_list(), 5))
    gx, gf = tape.gradient(loss, [x, f])
    check("g%s_x" % name, gx)
    check("g%s_f" % name, gf)


def test_dilation_int_and_empty_and_kwargs():
  check("dil_int", tf.nn.dilation2d(XD.astype(np.int32), FD.astype(np.int32) * 2,
                                    [1, 1, 1, 1], [1, 1, 1, 1], "SAME"))
  check("dil_big", tf.nn.dilation2d(XD, r((5, 2, 2)), [1, 1, 1, 1], [1, 1, 1, 1], "VALID"))
  check("dil_SAME_22", tf.nn.dilation2d(XD, filters=FD, strides=[1, 2, 1, 1],
                                        dilations=[1, 1, 2, 1], padding="SAME"))


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.nn.dilation2d(XD, r((2, 2, 3)), [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError,
     "input and filter must have the same depth: 2 vs 3 [Op:Dilation2D]"),
    (lambda: tf.nn.erosion2d(XD, r((2, 2, 3)), [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError,
     "input and filter must have the same depth: 2 vs 3 [Op:Dilation2D]"),
    (lambda: tf.nn.dilation2d(XD, r((2, 2, 2, 1)), [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError, "filter must be 3-dimensional: [2,2,2,1] [Op:Dilation2D]"),
    (lambda: tf.nn.dilation2d(XD[0], FD, [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError, "input must be 4-dimensional[4,5,2] [Op:Dilation2D]"),
    (lambda: tf.nn.dilation2d(XD, FD, [2, 1, 1, 1], [1, 1, 1, 1], "SAME"),
     tf.errors.UnimplementedError, "Stride is only supported across spatial dimensions."),
    (lambda: tf.nn.dilation2d(XD, FD, [1, 1, 1, 1], [1, 1, 1, 2], "SAME"),
     tf.errors.UnimplementedError, "Rate is only supported across spatial dimensions."),
    (lambda: tf.nn.dilation2d(XD, FD, [1, 1, 1], [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError,
     "Length for attr 'strides' of 3 must be at least minimum 4"),
    (lambda: tf.nn.dilation2d(XD, FD, [1, 1, 1, 1], [1, 1, 1, 1], "FOO"),
     tf.errors.InvalidArgumentError, "Value for attr 'padding' of \"FOO\" is not in the list "
     "of allowed values: \"SAME\", \"VALID\""),
])
def test_dilation_errors(call, error, message):
  with pytest.raises(error) as info:
    call()
  assert message in str(info.value)


XS = r((1, 7, 6, 2), 9)
WS = r((3, 3, 2, 1), 4)


def test_with_space_to_batch():
  for padding in ("SAME", "VALID"):
    check("wsb_" + padding, tf.nn.with_space_to_batch(
        XS, [2, 3], padding, lambda inp, n, pad: tf.nn.convolution(inp, WS, pad),
        filter_shape=[3, 3]))
  seen = []

  def pool(inp, n, pad):
    seen.append((n, pad))
    return tf.nn.max_pool(inp, [1, 2, 2, 1], [1, 1, 1, 1], pad)
  check("wsb_rate1", tf.nn.with_space_to_batch(XS, [1, 1], "SAME", pool))
  assert seen == [(2, "SAME")]
  check("wsb_nchw", tf.nn.with_space_to_batch(
      to_nchw(XS), tf.constant([2, 2]), "VALID",
      lambda inp, n, pad: tf.reduce_sum(inp[:, :, 1:, :-1], axis=1, keepdims=True),
      data_format="NCHW"))
  with pytest.raises(ValueError, match="`filter_shape` must be specified"):
    tf.nn.with_space_to_batch(XS, [2, 2], "SAME", lambda inp, n, pad: inp)
  with pytest.raises(ValueError, match="`dilation_rate` must be positive"):
    tf.nn.with_space_to_batch(XS, [0, 2], "SAME", lambda inp, n, pad: inp)


XF = r((1, 7, 8, 2), 13)
TF_ROWS = {False: [0, 2, 4, 5, 7], True: [0, 2, 3, 5, 7]}  # TF's sequences, seed=3, seed2=4
TF_COLS = [0, 2, 4, 6, 8]


@pytest.mark.parametrize("overlapping", [False, True])
@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("average", [False, True])
def test_fractional_pooling_given_tf_sequences(overlapping, pseudo_random, average):
  """TF's random sequences cannot be reproduced; pooling over them must match TF."""
  out = conv_extra_ops._FRACTIONAL[average](
      tf.constant(XF), rows=tuple(TF_ROWS[pseudo_random]), cols=tuple(TF_COLS),
      overlapping=overlapping, average=average)
  check("fr_%s_%d%d" % ("avg" if average else "max", overlapping, pseudo_random), out)


def _reference(x, rows, cols, overlapping, average):
  out = np.zeros((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]), x.dtype)
  for i in range(len(rows) - 1):
    for j in range(len(cols) - 1):
      extra = 1 if overlapping else 0
      win = x[:, rows[i]:rows[i + 1] + extra, cols[j]:cols[j + 1] + extra]
      out[:, i, j] = win.mean(axis=(1, 2)) if average else win.max(axis=(1, 2))
  return out


@pytest.mark.parametrize("fn", [tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool])
@pytest.mark.parametrize("pseudo_random", [False, True])
def test_fractional_pooling_sequences(fn, pseudo_random):
  x = r((2, 11, 9, 3), 17)
  for overlapping in (False, True):
    out, rows, cols = fn(x, [1.0, 1.44, 1.73, 1.0], pseudo_random, overlapping)
    assert out.shape == (2, 7, 5, 3) and out.dtype == tf.float32
    assert rows.dtype == tf.int64 and cols.dtype == tf.int64
    rows, cols = rows.numpy(), cols.numpy()
    for seq, size, out_size in ((rows, 11, 7), (cols, 9, 5)):
      assert seq[0] == 0 and seq[-1] == size and len(seq) == out_size + 1
      assert set(np.diff(seq)) <= {size // out_size, size // out_size + 1}
    np.testing.assert_allclose(out.numpy(), _reference(x, rows, cols, overlapping,
                                                       fn is tf.nn.fractional_avg_pool),
                               rtol=1e-6)
  # deterministic with seeds: the same sequences every call.
  a = fn(x, [1.0, 1.44, 1.73, 1.0], pseudo_random, deterministic=True, seed=3, seed2=4)
  b = fn(x, [1.0, 1.44, 1.73, 1.0], pseudo_random, deterministic=True, seed=3, seed2=4)
  np.testing.assert_array_equal(a[1].numpy(), b[1].numpy())
  np.testing.assert_array_equal(a.col_pooling_sequence.numpy(), b[2].numpy())


def test_fractional_max_pool_gradient():
  x = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
  with tf.GradientTape() as tape:
    tape.watch(x)
    out = tf.nn.fractional_max_pool(x, [1, 2, 2, 1])[0]
  grad = tape.gradient(out, x).numpy().reshape(4, 4)
  np.testing.assert_array_equal(grad, [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 0], [0, 1, 0, 1]])


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.nn.fractional_max_pool(XF, [1, 1.5, 1.5, 1], seed=1),
     tf.errors.InvalidArgumentError,
     "Both seed and seed2 should be 0 if deterministic is false. [Op:FractionalMaxPool]"),
    (lambda: tf.nn.fractional_max_pool(XF, [2, 1.5, 1.5, 1]), tf.errors.UnimplementedError,
     "Fractional max pooling is not yet supported on the batch nor channel dimension. "
     "[Op:FractionalMaxPool]"),
    (lambda: tf.nn.fractional_avg_pool(XF, [2, 1.5, 1.5, 1]), tf.errors.UnimplementedError,
     "Fractional average pooling is not yet supported on the batch nor channel dimension. "
     "[Op:FractionalAvgPool]"),
    (lambda: tf.nn.fractional_max_pool(XF, [1.5, 1.5, 1]), tf.errors.InvalidArgumentError,
     "Length for attr 'pooling_ratio' of 3 must be at least minimum 4"),
    (lambda: tf.nn.fractional_max_pool(XF, [1, 8, 1.5, 1]), tf.errors.InvalidArgumentError,
     "Pooling ratio is higher than input dimension size for dimension 1. Input dim size: 7 "
     "pooling ratio: 8 [Op:FractionalMaxPool]"),
])
def test_fractional_errors(call, error, message):
  with pytest.raises(error) as info:
    call()
  assert message in str(info.value)


GOLD = {
    "bf_valid": ("float32", [2, 2, 2, 3], [0, -1, -7, 0, -2, 11, 0, -3, -6, 0, -4, 12, 0, -4,
        12, -7, 9, -5, 14, -6, -1, -7, 7, -4]),
    "bf_same": ("float32", [3, 3, 2, 3], [10, -5, -5, -5, -1, -2, 7, 7, -3, 3, -10, 17, -5, 10,
        -10, -2, -3, 11, 10, -10, 10, -5, 11, -3, 0, -10, 10, -14, 3, 0, 10, -5, -5, -3, -2,
        -1, -5, -5, 10, -1, -2, -3, 7, -3, -8, -10, 17, -1, 10, -10, 10, -3, 11, -5]),
    "bf_explicit": ("float32", [2, 2, 2, 3], [7, 7, -3, 3, -10, 17, -5, 10, -10, -2, -3, 11, 0,
        -10, 10, -14, 3, 0, 10, -5, -5, -3, -2, -1]),
    "bf3": ("float32", [2, 2, 2, 2, 3], [-2, -2, 3, 17, 0, -7, -13, 2, -3, 6, -10, -6, 0, 17,
        -1, -2, -2, 3, 17, 0, -7, -13, 2, -3, 6, -10, -6, -10, 6, 12, 2, -13, 2, 0, 17, -1,
        -13, 2, -3, 6, -10, -6, -10, 6, 12, 2, -13, 2]),
    "dwf": ("float32", [2, 2, 2, 3], [0, 0, -10, -8, -11, 11, 0, -10, 0, -6, -5, 6, 4, -11, 14,
        -10, 7, -6, -10, 0, 5, -6, 8, -3]),
    "dwi": ("float32", [1, 5, 5, 2], [-3, 1, -1, 5, -4, -3, 4, -3, 5, -2, -3, 1, -1, 5, -4, -3,
        4, -3, 5, -2, -1, 4, -1, -4, 3, 0, -1, -2, -3, 1, -1, 4, -1, -4, 3, 0, -1, -2, -3, 1,
        -4, -3, 4, -3, 5, -2, -1, 4, -1, 4]),
    "ct2": ("float32", [1, 5, 5, 4], [-3, -1, -3, -1, 1, -1, 1, -1, 4, 0, 4, 0, 5, 1, 5, 1, 1,
        1, 1, 1, -5, 1, -5, 1, -1, -1, -1, -1, 4, -2, 4, -2, 2, -2, 2, -2, -2, 0, -2, 0, -2, 2,
        -2, 2, -2, 0, -2, 0, 0, -2, 0, -2, -3, -3, -3, -3, -3, -1, -3, -1, 2, 2, 2, 2, 3, 1, 3,
        1, 1, -1, 1, -1, -4, 0, -4, 0, -5, 1, -5, 1, 4, 0, 4, 0, 5, 1, 5, 1, 1, 1, 1, 1, -1, 3,
        -1, 3, -2, 2, -2, 2]),
    "ct1": ("float32", [1, 6, 3], [0, -2, 0, -2, 0, -2, 3, -3, 3, -3, 3, -3, -1, 3, -1, 3, -1,
        3]),
    "dil_SAME_11": ("float32", [1, 4, 5, 2], [4, 5, 5, 5, 5, 3, 3, 3, -2, 1, 4, 4, 5, 5, 5, 5,
        3, 3, 3, -2, 4, 4, 4, 5, 5, 5, 5, 3, 3, 3, 4, 1, 4, 2, 5, 2, 5, 3, 0, 3]),
    "ero_SAME_11": ("float32", [1, 4, 5, 2], [-4, -4, -3, -3, -3, -5, -5, -5, -5, -2, -4, -4,
        -4, -3, -3, -3, -5, -5, -5, -5, -4, -4, -4, -4, -3, -3, -3, -5, 0, -5, -2, -4, -1, -4,
        -1, -3, 0, -3, 0, 3]),
    "dil_SAME_22": ("float32", [1, 2, 5, 2], [2, 5, 5, 0, 3, 5, 5, 1, 3, 3, 4, -1, 2, 5, 5, 0,
        3, 5, 5, 0]),
    "ero_SAME_22": ("float32", [1, 2, 5, 2], [-1, 2, -4, -4, -1, -5, -5, -3, 0, -5, -4, -4, -2,
        1, -4, -4, -1, -5, -3, -3]),
    "dil_VALID_11": ("float32", [1, 3, 4, 2], [4, 5, 5, 5, 5, 3, 3, 3, 4, 4, 5, 5, 5, 5, 3, 3,
        4, 4, 4, 5, 5, 5, 5, 3]),
    "ero_VALID_11": ("float32", [1, 3, 4, 2], [-4, -4, -3, -3, -3, -5, -5, -5, -4, -4, -4, -3,
        -3, -3, -5, -5, -4, -4, -4, -4, -3, -3, -3, -5]),
    "dil_VALID_22": ("float32", [1, 2, 3, 2], [5, 0, 3, 5, 5, 1, 2, 5, 5, 0, 3, 5]),
    "ero_VALID_22": ("float32", [1, 2, 3, 2], [-4, -4, -1, -5, -5, -3, -2, 1, -4, -4, -1, -5]),
    "gdil_x": ("float32", [1, 4, 5, 2], [0, 0, -1, 1, 0, -2, -1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0,
        1, 0, 0, 0, 0, 0, 2, 0, -2, 0, 0, 2, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0]),
    "gdil_f": ("float32", [2, 2, 2], [-2, 0, 2, -1, 0, 1, 0, 0]),
    "gero_x": ("float32", [1, 4, 5, 2], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 0, 2, 0, 0, -2,
        0, 2, 0, 0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, -2, 0, 1, 2, 0, 0, 1, 0, 0]),
    "gero_f": ("float32", [2, 2, 2], [-1, -4, -1, 4, 1, 1, 1, -1]),
    "dil_int": ("int32", [1, 4, 5, 2], [4, 5, 5, 5, 5, 3, 3, 3, -2, 1, 4, 4, 5, 5, 5, 5, 3, 3,
        3, -2, 4, 4, 4, 5, 5, 5, 5, 3, 3, 3, 4, 1, 4, 2, 5, 2, 5, 3, 0, 3]),
    "wsb_SAME": ("float32", [1, 7, 6, 1], [0, 12, -12, 0, 12, -12, 0, 12, -12, 0, 12, -12, 0,
        18, -18, 0, 18, -18, 0, 18, -18, 0, 18, -18, 0, 18, -18, 0, 18, -18, 0, 12, -12, 0, 12,
        -12, 0, 12, -12, 0, 12, -12]),
    "wsb_VALID": ("float32", [1, 3, 0, 1], []),
    "wsb_rate1": ("float32", [1, 7, 6, 2], [3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0,
        3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3,
        0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3,
        3, 0, 3, 3, 0, 3, 3, 0, 3]),
    "wsb_nchw": ("float32", [1, 1, 5, 4], [-3, 0, 3, -3, -3, 0, 3, -3, -3, 0, 3, -3, -3, 0, 3,
        -3, -3, 0, 3, -3]),
    "fr_max_00": ("float32", [1, 4, 4, 2], [4, 4, 3, 6, 6, 5, 5, 4, 6, 5, 5, 4, 4, 3, 6, 6, 5,
        1, 4, 0, 3, 6, 2, 5, 3, 6, 6, 5, 5, 4, 4, 3]),
    "fr_avg_00": ("float32", [1, 4, 4, 2], [-0.75, -1, -1.75, 1.25, 0.5, 0.25, -0.5, -0.75, 1,
        0.75, 0, -0.25, -1, -1.25, 1.25, 1, 1.5, -2, 0.5, -3, -0.5, 2.5, -1.5, 1.5, -1.25,
        1.75, 1, 0.75, 0, -0.25, -1, -1.25]),
    "fr_max_01": ("float32", [1, 4, 4, 2], [4, 4, 3, 6, 6, 5, 5, 4, 6, 3, 5, 2, 4, 1, 3, 6, 5,
        5, 4, 4, 3, 6, 6, 5, 3, 6, 6, 5, 5, 4, 4, 3]),
    "fr_avg_01": ("float32", [1, 4, 4, 2], [-0.75, -1, -1.75, 1.25, 0.5, 0.25, -0.5, -0.75, 3,
        -0.5, 2, -1.5, 1, -2.5, 0, 3, 0.25, 0, -0.75, -1, -1.75, 1.25, 0.5, 0.25, -1.25, 1.75,
        1, 0.75, 0, -0.25, -1, -1.25]),
    "fr_max_10": ("float32", [1, 4, 4, 2], [6, 6, 6, 6, 6, 5, 5, 6, 6, 5, 5, 6, 6, 6, 6, 6, 5,
        4, 6, 6, 5, 6, 4, 5, 3, 6, 6, 5, 5, 4, 4, 3]),
    "fr_avg_10": ("float32", [1, 4, 4, 2], [-0.1111111, 0, 0.3333333, 0.4444444, 0.7777778,
        -0.5555556, -0.3333333, 0.5, 0.5555556, -0.7777778, -0.4444444, -0.3333333, 0,
        0.1111111, 0.3333333, 1.166667, 0.3333333, -1, 1.5, 0.1666667, 0.5, 1.333333, -0.25,
        -0.5, -1.5, 1.5, -0.3333333, 0.5, -1.333333, -0.5, -1, -1.25]),
    "fr_max_11": ("float32", [1, 4, 4, 2], [6, 6, 6, 6, 6, 5, 5, 6, 6, 5, 5, 4, 6, 3, 6, 6, 5,
        5, 6, 6, 6, 6, 6, 5, 3, 6, 6, 5, 5, 4, 4, 3]),
    "fr_avg_11": ("float32", [1, 4, 4, 2], [-0.1111111, 0, 0.3333333, 0.4444444, 0.7777778,
        -0.5555556, -0.3333333, 0.5, -0.3333333, 0.5, -1.333333, -0.5, -0.1666667, -1.5, 1.25,
        1, -0.5555556, -0.4444444, -0.1111111, 0, 0.3333333, 0.4444444, 0.6666667, -0.6666667,
        -1.5, 1.5, -0.3333333, 0.5, -1.333333, -0.5, -1, -1.25]),
    "dil_big": ("float32", [1, 0, 4, 2], []),
}
