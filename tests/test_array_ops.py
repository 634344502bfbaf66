"""Array ops and Tensor slicing against golden values from TensorFlow (checked with the oracle)."""
import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.framework.tensor import Tensor


def check(t, dtype, values):
  assert isinstance(t, tf.Tensor)
  assert t.dtype == dtype, (t.dtype, dtype)
  expected = np.asarray(values)
  assert tuple(t.shape.as_list()) == expected.shape
  np.testing.assert_array_equal(t.numpy(), expected)


X = np.arange(12, dtype=np.int32).reshape(3, 4)
X3 = np.arange(24, dtype=np.int32).reshape(2, 3, 4)


# ---- shapes, reshape, transpose, expand/squeeze ----
def test_shape_size_rank():
  x = tf.constant(X)
  check(tf.shape(x), tf.int32, [3, 4])
  check(tf.shape(x, out_type=tf.int64), tf.int64, [3, 4])
  check(tf.size(x), tf.int32, 12)
  check(tf.size(x, out_type=tf.int64), tf.int64, 12)
  check(tf.rank(x), tf.int32, 2)
  a, b = tf.shape_n([x, tf.zeros([2])])
  check(a, tf.int32, [3, 4])
  check(b, tf.int32, [2])


def test_reshape():
  x = tf.zeros([2, 784])
  check(tf.reshape(x, [-1, 28, 28, 1]), tf.float32, np.zeros([2, 28, 28, 1]))
  check(tf.reshape(tf.range(6), tf.constant([3, 2])), tf.int32, [[0, 1], [2, 3], [4, 5]])
  check(tf.reshape(tf.range(6), (2, -1)), tf.int32, [[0, 1, 2], [3, 4, 5]])
  check(tf.manip.reshape([7], []), tf.int32, 7)


@pytest.mark.parametrize("shape,message", [
    ([4], "Input to reshape is a tensor with 6 values, but the requested shape has 4 "
          "[Op:Reshape]"),
    ([-1, 4], "Input to reshape is a tensor with 6 values, but the requested shape requires a "
              "multiple of 4 [Op:Reshape]"),
    ([-1, -1], "Only one input size may be -1, not both 0 and 1 [Op:Reshape]"),
])
def test_reshape_errors(shape, message):
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.reshape(tf.range(6), shape)
  assert str(info.value) == message


def test_transpose():
  x = tf.reshape(tf.range(6), [1, 2, 3])
  check(tf.transpose(x), tf.int32, [[[0], [3]], [[1], [4]], [[2], [5]]])
  check(tf.transpose(x, [1, 0, 2]), tf.int32, [[[0, 1, 2]], [[3, 4, 5]]])
  check(tf.transpose(tf.constant([[1 + 2j, 3j]]), conjugate=True), tf.complex128,
        [[1 - 2j], [-3j]])
  for perm, message in [([0, 2], "2 is out of range [0 .. 2) [Op:Transpose]"),
                        ([0, 0], "1 is missing from {0,0}. [Op:Transpose]")]:
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
      tf.transpose(X, perm)
    assert str(info.value) == message


def test_expand_dims_squeeze():
  check(tf.expand_dims(X, -1), tf.int32, X[..., None])
  check(tf.expand_dims(X, dim=0), tf.int32, X[None])
  with pytest.raises(ValueError, match="Cannot specify both 'dim' and 'axis'."):
    tf.expand_dims(X, 1, dim=1)
  with pytest.raises(ValueError, match=r"Must specify an axis argument to tf.expand_dims\(\)"):
    tf.expand_dims(X)
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.expand_dims(X, 3)
  assert str(info.value) == ("Tried to expand dim index 3 for tensor with 2 dimensions. "
                             "[Op:ExpandDims]")
  ones = tf.zeros([1, 2, 1])
  assert tf.squeeze(ones).shape.as_list() == [2]
  assert tf.squeeze(ones, 0).shape.as_list() == [2, 1]
  assert tf.squeeze(ones, squeeze_dims=[-1]).shape.as_list() == [1, 2]
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.squeeze(X, [0])
  assert str(info.value) == ("Can not squeeze dim[0], expected a dimension of 1, got 3 "
                             "[Op:Squeeze]")


# ---- joining and splitting ----
def test_concat():
  a, b = tf.zeros([2, 2]), tf.ones([2, 1])
  check(tf.concat([a, b], axis=1), tf.float32, [[0, 0, 1], [0, 0, 1]])
  check(tf.concat([a, b], -1), tf.float32, [[0, 0, 1], [0, 0, 1]])
  check(tf.concat([[1, 2], [3]], 0), tf.int32, [1, 2, 3])
  check(tf.concat([a], 0), tf.float32, np.zeros([2, 2]))
  check(tf.concat([["a"], ["b"]], 0), tf.string, [b"a", b"b"])


@pytest.mark.parametrize("values,axis,message", [
    ([np.zeros([2, 2], np.float32), np.zeros([2], np.float32)], 0,
     "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,2] vs. shape[1] = [2] "
     "[Op:ConcatV2]"),
    ([np.zeros([2, 2], np.float32), np.zeros([2, 3], np.float32)], 0,
     "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [2,2] vs. shape[1] = "
     "[2,3] [Op:ConcatV2]"),
    ([np.zeros([2, 2], np.float32), np.zeros([2, 2], np.float32)], 2,
     "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2 "
     "[Op:ConcatV2]"),
])
def test_concat_errors(values, axis, message):
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.concat([tf.constant(v) for v in values], axis)
  assert str(info.value) == message


def test_stack_unstack():
  check(tf.stack([tf.zeros([2]), tf.ones([2])], axis=1), tf.float32, [[0, 1], [0, 1]])
  check(tf.stack([1, 2.5]), tf.float32, [1, 2.5])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.stack([tf.zeros([2]), tf.zeros([3])])
  assert str(info.value) == ("Shapes of all inputs must match: values[0].shape = [2] != "
                             "values[1].shape = [3] [Op:Pack]")
  with pytest.raises(ValueError, match=r"axis = 3 not in \[-2, 2\)"):
    tf.stack([tf.zeros([2]), tf.zeros([2])], axis=3)
  rows = tf.unstack(X, axis=1)
  assert len(rows) == 4
  check(rows[2], tf.int32, [2, 6, 10])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.unstack(tf.zeros([2, 3]), num=3)
  assert str(info.value) == "Input shape axis 0 must equal 3, got shape [2,3] [Op:Unpack]"


def test_split():
  left, right = tf.split(X, 2, axis=1)
  check(left, tf.int32, [[0, 1], [4, 5], [8, 9]])
  check(right, tf.int32, [[2, 3], [6, 7], [10, 11]])
  assert [t.shape.as_list() for t in tf.split(tf.zeros([5, 2]), [2, -1])] == [[2, 2], [3, 2]]
  parts = tf.split(tf.range(5), tf.constant([2, 3]))
  check(parts[1], tf.int32, [2, 3, 4])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.split(tf.zeros([5, 2]), 2)
  assert str(info.value) == (
      "Number of ways to split should evenly divide the split dimension, but got split_dim 0 "
      "(size = 5) and num_split 2 [Op:Split]")
  with pytest.raises(tf.errors.InvalidArgumentError, match="Got: 4 "):
    tf.split(tf.zeros([5, 2]), [2, 2])


def test_tile_pad_reverse():
  check(tf.tile([[1, 2]], [2, 2]), tf.int32, [[1, 2, 1, 2], [1, 2, 1, 2]])
  with pytest.raises(tf.errors.InvalidArgumentError, match="vector of length 2 but got length 1"):
    tf.tile([[1, 2]], [2])
  check(tf.pad(X, [[1, 0], [0, 2]], constant_values=-3), tf.int32,
        [[-3] * 6, [0, 1, 2, 3, -3, -3], [4, 5, 6, 7, -3, -3], [8, 9, 10, 11, -3, -3]])
  check(tf.pad(X, [[1, 1], [1, 1]], mode="reflect"), tf.int32,
        [[5, 4, 5, 6, 7, 6], [1, 0, 1, 2, 3, 2], [5, 4, 5, 6, 7, 6], [9, 8, 9, 10, 11, 10],
         [5, 4, 5, 6, 7, 6]])
  check(tf.pad([[1, 2, 3], [4, 5, 6]], [[1, 1], [2, 2]], "SYMMETRIC"), tf.int32,
        [[2, 1, 1, 2, 3, 3, 2], [2, 1, 1, 2, 3, 3, 2], [5, 4, 4, 5, 6, 6, 5],
         [5, 4, 4, 5, 6, 6, 5]])
  check(tf.pad([[1., 2.]], [[1, 0], [0, 1]], constant_values=-1.), tf.float32,
        [[-1, -1, -1], [1, 2, -1]])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.pad(X, [[3, 3], [1, 1]], mode="REFLECT")
  assert str(info.value) == ("paddings must be less than the dimension size: 3, 3 not less "
                             "than 3 [Op:MirrorPad]")
  with pytest.raises(ValueError, match="Unknown padding mode: FOO"):
    tf.pad(X, [[1, 1], [1, 1]], mode="foo")
  check(tf.reverse(X, [-1]), tf.int32, X[:, ::-1])
  check(tf.reverse_v2(X, [0, 1]), tf.int32, X[::-1, ::-1])
  check(tf.manip.reverse([1, 2], []), tf.int32, [1, 2])
  with pytest.raises(tf.errors.InvalidArgumentError, match="axis 1 specified more than once"):
    tf.reverse(X, [1, 1])
  with pytest.raises(tf.errors.InvalidArgumentError, match="'dims' must be 1-dimension, not 0"):
    tf.reverse(X, 1)


def test_reverse_sequence():
  check(tf.reverse_sequence(X, [1, 2, 3], seq_axis=1, batch_axis=0), tf.int32,
        [[0, 1, 2, 3], [5, 4, 6, 7], [10, 9, 8, 11]])
  check(tf.reverse_sequence(X, [1, 2, 3], seq_dim=1, batch_dim=0), tf.int32,
        [[0, 1, 2, 3], [5, 4, 6, 7], [10, 9, 8, 11]])
  check(tf.reverse_sequence(tf.reshape(tf.range(6), [3, 2]), [1, 2], seq_axis=0, batch_axis=1),
        tf.int32, [[0, 3], [2, 1], [4, 5]])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.reverse_sequence(X, [1, 2, 5], seq_axis=1, batch_axis=0)
  assert str(info.value) == "seq_lens(2) > input.dims(1) [Op:ReverseSequence]"


# ---- creation ----
def test_zeros_ones_fill():
  check(tf.zeros([1, 1, 784]), tf.float32, np.zeros([1, 1, 784]))
  check(tf.zeros([2], tf.int32), tf.int32, [0, 0])
  check(tf.zeros(tf.constant([2, 1])), tf.float32, [[0], [0]])
  check(tf.zeros(tf.TensorShape([2, 1])), tf.float32, [[0], [0]])
  check(tf.zeros(3), tf.float32, [0, 0, 0])
  check(tf.zeros([2], tf.string), tf.string, [b"", b""])
  check(tf.ones((1, 2), tf.float16), tf.float16, [[1, 1]])
  check(tf.ones([2], tf.bool), tf.bool, [True, True])
  check(tf.fill([2, 2], 7), tf.int32, [[7, 7], [7, 7]])
  check(tf.fill([2], 7.), tf.float32, [7, 7])
  check(tf.zeros_like([1, 2], dtype=tf.float32), tf.float32, [0, 0])
  check(tf.ones_like(tf.constant([True, False])), tf.bool, [True, True])
  check(tf.ones_like(tf.zeros([1], tf.float16)), tf.float16, [1])
  check(tf.zeros_like(tf.constant(["a"])), tf.string, [b""])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.zeros([-1])
  assert str(info.value) == "Dimension -1 must be >= 0 [Op:Fill]"


def test_eye_identity():
  check(tf.eye(2), tf.float32, np.eye(2))
  check(tf.eye(2, 3, batch_shape=[2], dtype=tf.int32), tf.int32, [np.eye(2, 3)] * 2)
  check(tf.linalg.eye(1), tf.float32, [[1]])
  check(tf.identity([1.5]), tf.float32, [1.5])
  a, b = tf.identity_n([X, [1.]])
  check(a, tf.int32, X)
  check(b, tf.float32, [1.])
  check(tf.stop_gradient([1.5]), tf.float32, [1.5])
  check(tf.placeholder_with_default([1, 2], [2]), tf.int32, [1, 2])
  check(tf.ensure_shape(X, [3, None]), tf.int32, X)
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.ensure_shape(X, [3, 5])
  assert str(info.value) == ("Shape of tensor input [3,4] is not compatible with expected shape "
                             "[3,5]. [Op:EnsureShape]")


def test_stop_gradient_blocks_jax_gradient():
  grad = jax.grad(lambda v: (tf.stop_gradient(Tensor(v))._value * v).sum())(jnp.ones(3))
  np.testing.assert_array_equal(grad, [1., 1., 1.])


def test_range():
  check(tf.range(5), tf.int32, [0, 1, 2, 3, 4])
  check(tf.range(1., 5.), tf.float32, [1, 2, 3, 4])
  check(tf.range(1, 5.5, 2), tf.float32, [1, 3, 5])
  check(tf.range(5, 1, -1.5), tf.float32, [5, 3.5, 2])
  check(tf.range(10, 1, -3), tf.int32, [10, 7, 4])
  check(tf.range(5, dtype=tf.float64), tf.float64, [0, 1, 2, 3, 4])
  check(tf.range(tf.constant(4, tf.int64)), tf.int64, [0, 1, 2, 3])
  check(tf.range(0.3, 7.1, 0.7), tf.float32, np.array(
      [0.30000001192092896, 1.0, 1.7000000476837158, 2.3999998569488525, 3.0999999046325684,
       3.799999952316284, 4.5, 5.200000286102295, 5.900000095367432, 6.599999904632568],
      np.float32))
  assert [int(i) for i in tf.range(3)] == [0, 1, 2]
  for args, message in [((1, 5, 0), "Requires delta != 0: 0 [Op:Range]"),
                        ((5, 1, 1), "Requires start <= limit when delta > 0: 5/1 [Op:Range]"),
                        ((1, 5, -1), "Requires start >= limit when delta < 0: 1/5 [Op:Range]")]:
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
      tf.range(*args)
    assert str(info.value) == message
  for args in [("a",), (0, "a"), (True,)]:  # TF's `assert` on the types it infers from
    with pytest.raises(AssertionError):
      tf.range(*args)


def test_lin_space():
  check(tf.lin_space(0., 1., 5), tf.float32, [0, 0.25, 0.5, 0.75, 1])
  check(tf.linspace(3., 4., 1), tf.float32, [3])
  check(tf.lin_space(0.1, 0.9, 7), tf.float32, np.array(
      [0.10000000149011612, 0.23333331942558289, 0.36666664481163025, 0.4999999701976776,
       0.6333333253860474, 0.7666666507720947, 0.8999999761581421], np.float32))
  check(tf.lin_space(tf.constant(0.1, tf.float64), 0.9, 7), tf.float64,
        [0.1, 0.23333333333333334, 0.3666666666666667, 0.5, 0.6333333333333333,
         0.7666666666666666, 0.9])


def test_one_hot():
  check(tf.one_hot([0, 2], 3), tf.float32, [[1, 0, 0], [0, 0, 1]])
  check(tf.one_hot([-1, 2, 5], 3), tf.float32, [[0, 0, 0], [0, 0, 1], [0, 0, 0]])
  check(tf.one_hot([0, 2], 3, on_value=5, off_value=-1), tf.int32, [[5, -1, -1], [-1, -1, 5]])
  check(tf.one_hot([0, 2], 3, dtype=tf.int64), tf.int64, [[1, 0, 0], [0, 0, 1]])
  check(tf.one_hot([0, 2], 3, axis=0), tf.float32, [[1, 0], [0, 0], [0, 1]])
  check(tf.one_hot([[0, 2], [1, 1]], tf.constant(3), axis=1), tf.float32,
        [[[1, 0], [0, 0], [0, 1]], [[0, 0], [1, 1], [0, 0]]])
  with pytest.raises(TypeError, match="dtype <dtype: 'int32'> of on_value does not match dtype "
                                      "<dtype: 'float32'> of off_value"):
    tf.one_hot([0, 2], 3, on_value=5, off_value=-1.)
  with pytest.raises(TypeError, match="dtype <dtype: 'float32'> of on_value does not match "
                                      "dtype parameter <dtype: 'int32'>"):
    tf.one_hot([0, 2], 3, on_value=1., dtype=tf.int32)


# ---- slicing ----
@pytest.mark.parametrize("spec", [
    (1,), (-1,), (slice(None, None, -1),), (slice(-1, -10, -2),), (Ellipsis, None, 1),
    (None, Ellipsis, None), (1, None, Ellipsis, slice(None, None, -2)),
    (slice(None), slice(10, None)), (slice(None, None, -1), slice(-1, -10, -2)),
    (-1, slice(None), slice(3, 0, -1)), (slice(None), slice(None, None, 2), 1), (Ellipsis,),
    (slice(1, None), Ellipsis, slice(None, 2)), (0, 0, slice(None, None, -3)),
])
def test_getitem_matches_numpy(spec):
  check(tf.constant(X3)[spec], tf.int32, X3[spec])


def test_getitem_index_types():
  x = tf.constant(X)
  check(x[tf.constant(1)], tf.int32, [4, 5, 6, 7])
  check(x[tf.constant(1, tf.int64):], tf.int32, X[1:])
  check(x[np.int64(2)], tf.int32, [8, 9, 10, 11])
  check(x[[1, 2]], tf.int32, 6)  # a list is a tuple of indices in TF 1.x
  check(x[tf.constant([True, False, True])], tf.int32, X[[0, 2]])
  check(tf.constant(3)[...], tf.int32, 3)
  check(tf.constant(3)[None], tf.int32, [3])
  check(tf.constant(["a", "b", "c"])[::-2], tf.string, [b"c", b"a"])
  assert [r.numpy().tolist() for r in x] == X.tolist()


@pytest.mark.parametrize("spec,got", [
    ((slice(None), [1, 2]), "[1, 2]"), ([[1, 2]], "[1, 2]"), (1.0, "1.0"),
    (np.array([1, 2]), "array([1, 2])"),
])
def test_getitem_type_errors(spec, got):
  with pytest.raises(TypeError) as info:
    tf.constant(X)[spec]  # pylint: disable=expression-not-assigned
  assert str(info.value) == ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis "
                             "(`None`) and scalar tf.int32/tf.int64 tensors are valid indices, "
                             "got " + got)


@pytest.mark.parametrize("spec,message", [
    (5, "slice index 5 of dimension 0 out of bounds."),
    (-4, "slice index -1 of dimension 0 out of bounds."),
    ((slice(None), 4), "slice index 4 of dimension 1 out of bounds."),
    ((1, 2, 3), "Index out of range using input dim 2; input has only 2 dims"),
    ((Ellipsis, Ellipsis), "Multiple ellipses in slice spec not allowed"),
    (slice(None, None, 0), "strides[0] must be non-zero"),
])
def test_getitem_errors(spec, message):
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.constant(X)[spec]  # pylint: disable=expression-not-assigned
  assert str(info.value) == message + " [Op:StridedSlice]"
  with pytest.raises(tf.errors.InvalidArgumentError, match="Attempting to slice scalar input"):
    tf.constant(3)[0]  # pylint: disable=expression-not-assigned
  with pytest.raises(ValueError, match="mask cannot be scalar."):
    tf.constant(X)[True]  # pylint: disable=expression-not-assigned


def test_getitem_traced_index_and_gradient():
  def f(v, i):
    t, idx = Tensor(v), Tensor(i)
    return tf.concat([t[idx], t[:, idx], tf.reshape(t[1:, None, idx], [-1])], 0)._value
  out = jax.jit(f)(jnp.arange(12.).reshape(3, 4), 1)
  np.testing.assert_array_equal(out, [4, 5, 6, 7, 1, 5, 9, 5, 9])
  grad = jax.grad(lambda v: Tensor(v)[1, ::-2]._value.sum())(jnp.zeros((2, 3)))
  np.testing.assert_array_equal(grad, [[0, 0, 0], [1, 0, 1]])


def test_strided_slice_and_slice():
  check(tf.strided_slice(X, [1, 0], [0, 3], [1, 2], begin_mask=1, end_mask=1), tf.int32,
        [[0, 2], [4, 6], [8, 10]])
  check(tf.strided_slice(X, [1, 0], [2, 3], [1, 1], shrink_axis_mask=1), tf.int32, [4, 5, 6])
  check(tf.strided_slice(X, [0, 1], [0, 3], [1, 1], new_axis_mask=1), tf.int32,
        [[[4, 5, 6, 7], [8, 9, 10, 11]]])
  check(tf.strided_slice(X, [0, 1], [0, 3], [1, 1], ellipsis_mask=1), tf.int32,
        [[1, 2], [5, 6], [9, 10]])
  check(tf.strided_slice(X, [-1, -1], [-4, 0], [-2, -1]), tf.int32, [[11, 10, 9], [3, 2, 1]])
  check(tf.slice(X, [1, 1], [-1, 2]), tf.int32, [[5, 6], [9, 10]])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.slice(X, [1, 1], [3, 2])
  assert str(info.value) == "Expected size[0] in [0, 2], but got 3 [Op:Slice]"


# ---- gather / scatter / masks ----
def test_gather():
  check(tf.gather(X, [[0, 3], [1, 1]], axis=1), tf.int32,
        [[[0, 3], [1, 1]], [[4, 7], [5, 5]], [[8, 11], [9, 9]]])
  check(tf.gather(np.array([1., 2., 3.]), 2), tf.float64, 3.)
  check(tf.gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], batch_dims=1), tf.int32,
        [[3, 1], [5, 5]])
  check(tf.gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], batch_dims=-1), tf.int32,
        [[3, 1], [5, 5]])
  check(tf.gather(X3, [[2, 0], [1, 1]], axis=2, batch_dims=1), tf.int32,
        [[[2, 0], [6, 4], [10, 8]], [[13, 13], [17, 17], [21, 21]]])
  check(tf.gather(["b", "a", "c"], [2, 0]), tf.string, [b"c", b"b"])


@pytest.mark.parametrize("params,indices,axis,message", [
    ([1, 2, 3], [0, 7], 0, "indices[1] = 7 is not in [0, 3)"),
    ([1, 2, 3], [[0, 1], [7, 1]], 0, "indices[1,0] = 7 is not in [0, 3)"),
    ([1, 2, 3], [-1], 0, "indices[0] = -1 is not in [0, 3)"),
    ([1, 2, 3], 3, 0, "indices = 3 is not in [0, 3)"),
    (X, [0, 5], 1, "indices[1] = 5 is not in [0, 4)"),
])
def test_gather_out_of_range(params, indices, axis, message):
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.gather(params, indices, axis=axis)
  assert str(info.value) == message + " [Op:GatherV2]"


def test_gather_nd_and_scatter_nd():
  check(tf.gather_nd(X, [[0], [2]]), tf.int32, [[0, 1, 2, 3], [8, 9, 10, 11]])
  check(tf.gather_nd(X, [1, 2]), tf.int32, 6)
  check(tf.manip.gather_nd(X3, [[[1, 2]], [[0, 3]]], batch_dims=1), tf.int32, [[6], [15]])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.gather_nd(X, [[[0, 1], [2, 3]], [[1, 1], [9, 9]]])
  assert str(info.value) == ("indices[1,1] = [9, 9] does not index into param shape [3,4], "
                             "node name: GatherNd [Op:GatherNd]")
  check(tf.scatter_nd([[1], [3], [1]], [9, 10, 11], [5]), tf.int32, [0, 20, 0, 10, 0])
  check(tf.scatter_nd([[0], [2]], [[1., 2.], [3., 4.]], [3, 2]), tf.float32,
        [[1, 2], [0, 0], [3, 4]])
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.scatter_nd([[1], [7]], [9, 10], [5])
  assert str(info.value) == "indices[1] = [7] does not index into shape [5] [Op:ScatterNd]"
  check(tf.tensor_scatter_nd_update([1, 2, 3, 4], [[1], [3]], [9, 10]), tf.int32, [1, 9, 3, 10])
  check(tf.tensor_scatter_add([1, 2, 3, 4], [[1], [1]], [9, 10]), tf.int32, [1, 21, 3, 4])
  check(tf.tensor_scatter_sub([1, 2, 3, 4], [[1], [1]], [9, 10]), tf.int32, [1, -17, 3, 4])


def test_gather_out_of_range_in_compiled_code(monkeypatch):
  """TF's CPU kernel refuses it inside tf.function too; with TFE_VALUE_CHECKS=0 (no checks,
  as TF's GPU kernels) out-of-range indices read zero."""
  gather = tf.function(lambda p, i: tf.gather(p, i))
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 7 is not in "
                     r"\[0, 3\) \[Op:GatherV2\]"):
    gather(tf.constant([1., 2., 3.]), tf.constant([2, 7, -1]))
  from tfe_compat.ops import value_checks  # pylint: disable=import-outside-toplevel
  monkeypatch.setattr(value_checks, "ENABLED", False)
  out = jax.jit(lambda p, i: tf.gather(Tensor(p), Tensor(i))._value)(
      jnp.array([1., 2., 3.]), jnp.array([2, 7, -1]))
  np.testing.assert_array_equal(out, [3., 0., 0.])


def test_boolean_mask_and_sequence_mask():
  check(tf.boolean_mask(X, [True, False, True, False], axis=1), tf.int32, X[:, [0, 2]])
  check(tf.boolean_mask(X, [[True, False, True, False]] * 3), tf.int32, [0, 2, 4, 6, 8, 10])
  check(tf.boolean_mask(["a", "b"], [True, False]), tf.string, [b"a"])
  with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
    tf.boolean_mask(X, [True, False])
  check(tf.sequence_mask([1, 3, 2], 5), tf.bool,
        [[1, 0, 0, 0, 0], [1, 1, 1, 0, 0], [1, 1, 0, 0, 0]])
  check(tf.sequence_mask([1, 3, 2], dtype=tf.float32), tf.float32,
        [[1, 0, 0], [1, 1, 1], [1, 1, 0]])
  check(tf.sequence_mask([[1], [2]]), tf.bool, [[[True, False]], [[True, True]]])


def test_unique_setdiff():
  y, idx = tf.unique([4, 1, 4, 2, 1])
  check(y, tf.int32, [4, 1, 2])
  check(idx, tf.int32, [0, 1, 0, 2, 1])
  assert tf.unique([4, 1], out_idx=tf.int64).idx.dtype == tf.int64
  y, idx, count = tf.unique_with_counts([4., 1., 4., 2., 1.])
  check(y, tf.float32, [4, 1, 2])
  check(count, tf.int32, [2, 2, 1])
  check(tf.unique(["b", "a", "b"]).y, tf.string, [b"b", b"a"])
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"unique expects a 1D vector"):
    tf.unique([[1, 2]])
  out, idx = tf.setdiff1d([1, 2, 3, 4, 5, 6], [1, 3, 5])
  check(out, tf.int32, [2, 4, 6])
  check(idx, tf.int32, [1, 3, 5])


# ---- broadcasting, grids, sorting ----
def test_broadcast_and_meshgrid():
  check(tf.broadcast_to([1, 2], [3, 2]), tf.int32, [[1, 2]] * 3)
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.broadcast_to([1, 2], [3, 3])
  assert str(info.value) == "Incompatible shapes: [2] vs. [3,3] [Op:BroadcastTo]"
  assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])) == [2, 3]
  with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
    tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3, 2]))
  check(tf.broadcast_dynamic_shape([2, 1], [3]), tf.int32, [2, 3])
  check(tf.broadcast_dynamic_shape(tf.constant([2, 1], tf.int64), tf.constant([3], tf.int64)),
        tf.int64, [2, 3])
  gx, gy = tf.meshgrid([1, 2, 3], [4, 5])
  check(gx, tf.int32, [[1, 2, 3], [1, 2, 3]])
  check(gy, tf.int32, [[4, 4, 4], [5, 5, 5]])
  gx, _ = tf.meshgrid([1, 2, 3], [4, 5], indexing="ij")
  check(gx, tf.int32, [[1, 1], [2, 2], [3, 3]])


def test_sort_search_roll():
  check(tf.sort([[3, 1, 2], [0, 5, 4]], direction="DESCENDING"), tf.int32,
        [[3, 2, 1], [5, 4, 0]])
  check(tf.sort([3., 1., 2.], axis=0), tf.float32, [1, 2, 3])
  check(tf.argsort([3., 1., 2., 1.]), tf.int32, [1, 3, 2, 0])
  check(tf.argsort([3., 1., 2., 1.], direction="DESCENDING"), tf.int32, [0, 2, 1, 3])
  check(tf.argsort([[3., 1.], [2., 1.]], axis=0), tf.int32, [[1, 0], [0, 1]])
  with pytest.raises(ValueError, match="up should be one of ASCENDING, DESCENDING"):
    tf.sort([3, 1], direction="up")
  check(tf.searchsorted([[0, 3, 9, 10], [1, 2, 3, 4]], [[2, 4, 9], [0, 5, 2]]), tf.int32,
        [[1, 2, 2], [0, 4, 1]])
  check(tf.searchsorted([0, 3, 9, 10], [3, 9, 11], side="right"), tf.int32, [2, 3, 4])
  check(tf.roll(X, [1, -1], [0, 1]), tf.int32, [[9, 10, 11, 8], [1, 2, 3, 0], [5, 6, 7, 4]])
  check(tf.manip.roll([1, 2, 3, 4], [1, 2], [0, 0]), tf.int32, [2, 3, 4, 1])


# ---- space / batch / depth ----
def test_space_batch_depth():
  check(tf.depth_to_space(tf.reshape(tf.range(16), [1, 2, 2, 4]), 2), tf.int32,
        [[[[0], [1], [4], [5]], [[2], [3], [6], [7]], [[8], [9], [12], [13]],
          [[10], [11], [14], [15]]]])
  check(tf.nn.space_to_depth(tf.reshape(tf.range(16), [1, 4, 4, 1]), 2), tf.int32,
        [[[[0, 1, 4, 5], [2, 3, 6, 7]], [[8, 9, 12, 13], [10, 11, 14, 15]]]])
  with pytest.raises(tf.errors.InvalidArgumentError, match="Input depth dimension 3 should be "
                                                           "divisible by: 4"):
    tf.depth_to_space(tf.zeros([1, 2, 2, 3]), 2)
  check(tf.space_to_batch(tf.reshape(tf.range(16.), [1, 4, 4, 1]), [[0, 0], [1, 1]], 2),
        tf.float32, np.array([[[[0.], [1.], [3.]], [[0.], [9.], [11.]]],
                              [[[0.], [2.], [0.]], [[8.], [10.], [0.]]],
                              [[[0.], [5.], [7.]], [[0.], [13.], [15.]]],
                              [[[4.], [6.], [0.]], [[12.], [14.], [0.]]]]))
  check(tf.space_to_batch_nd(tf.reshape(tf.range(12), [2, 3, 2, 1]), [1, 2], [[0, 0], [0, 0]]),
        tf.int32, np.array([0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11]).reshape(4, 3, 1, 1))
  check(tf.batch_to_space(tf.reshape(tf.range(16.), [4, 2, 2, 1]), [[0, 0], [1, 1]], 2),
        tf.float32, np.array([4., 1., 12., 9., 6., 3., 14., 11.]).reshape(1, 4, 2, 1))
  check(tf.manip.batch_to_space_nd(tf.reshape(tf.range(12), [4, 3, 1]), [2], [[1, 0]]),
        tf.int32, np.array([6, 1, 7, 2, 8, 9, 4, 10, 5, 11]).reshape(2, 5, 1))
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.space_to_batch_nd(tf.zeros([1, 4, 4, 1]), [3, 3], [[0, 0], [0, 0]])
  assert str(info.value) == ("padded_shape[0]=4 is not divisible by block_shape[0]=3 "
                             "[Op:SpaceToBatchND]")


def test_extract_image_patches():
  check(tf.extract_image_patches(tf.reshape(tf.range(32.), [1, 4, 4, 2]), [1, 2, 2, 1],
                                 [1, 2, 2, 1], [1, 1, 1, 1], "VALID"), tf.float32,
        [[[[0, 1, 2, 3, 8, 9, 10, 11], [4, 5, 6, 7, 12, 13, 14, 15]],
          [[16, 17, 18, 19, 24, 25, 26, 27], [20, 21, 22, 23, 28, 29, 30, 31]]]])
  check(tf.image.extract_image_patches(tf.reshape(tf.range(18.), [1, 3, 3, 2]), [1, 2, 2, 1],
                                       [1, 2, 2, 1], [1, 1, 1, 1], "SAME"), tf.float32,
        [[[[0, 1, 2, 3, 6, 7, 8, 9], [4, 5, 0, 0, 10, 11, 0, 0]],
          [[12, 13, 14, 15, 0, 0, 0, 0], [16, 17, 0, 0, 0, 0, 0, 0]]]])
  out = tf.extract_image_patches(tf.reshape(tf.range(25.), [1, 5, 5, 1]), [1, 2, 2, 1],
                                 [1, 1, 1, 1], [1, 2, 2, 1], "VALID")
  check(out[0, 0], tf.float32, [[0, 2, 10, 12], [1, 3, 11, 13], [2, 4, 12, 14]])
  ones = tf.ones([1, 4, 4, 1])
  assert tf.extract_image_patches(ones, [1, 5, 5, 1], [1] * 4, [1] * 4, "VALID").shape == (
      1, 0, 0, 25)  # a window larger than the image: no patches, as TF
  with pytest.raises(tf.errors.OutOfRangeError, match="ksizes is out of range."):
    tf.extract_image_patches(ones, [1, 0, 0, 1], [1] * 4, [1] * 4, "VALID")
  with pytest.raises(tf.errors.OutOfRangeError, match="strides is out of range."):
    tf.extract_image_patches(ones, [1, 2, 2, 1], [1, 0, 1, 1], [1] * 4, "VALID")
  with pytest.raises(tf.errors.UnimplementedError, match="Only support ksizes across space."):
    tf.extract_image_patches(ones, [2, 2, 2, 1], [1] * 4, [1] * 4, "VALID")


def test_permutations_partitions_stitching_histograms():
  """Golden values and messages from TF 2.21 (tf.compat.v1)."""
  assert tf.invert_permutation([3, 4, 0, 2, 1]).numpy().tolist() == [2, 4, 3, 0, 1]
  assert tf.math.invert_permutation(tf.constant([2, 0, 1], tf.int64)).dtype == tf.int64
  with pytest.raises(tf.errors.InvalidArgumentError, match="0 is duplicated in the input"):
    tf.invert_permutation([0, 0, 1])
  with pytest.raises(tf.errors.InvalidArgumentError, match="expects a 1D vector"):
    tf.invert_permutation([[0, 1]])
  gathered = tf.batch_gather([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[1], [0]])
  assert gathered.numpy().tolist() == [[[3, 4]], [[5, 6]]]

  parts = tf.dynamic_partition(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), [1, 0, 1], 3)
  assert [p.numpy().tolist() for p in parts] == [[[3., 4.]], [[1., 2.], [5., 6.]], []]
  assert parts[2].shape == (0, 2)
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"partitions\[1\] = 5 is not in "
                     r"\[0, 2\)"):
    tf.dynamic_partition([1, 2, 3], [0, 5, 1], 2)
  stitched = tf.dynamic_stitch(
      [tf.constant([6]), tf.constant([4, 1]), tf.constant([[5, 2], [0, 3]])],
      [tf.constant([61.]), tf.constant([41., 11.]), tf.constant([[51., 21.], [1., 31.]])])
  assert stitched.numpy().tolist() == [1., 11., 21., 31., 41., 51., 61.]
  assert tf.dynamic_stitch([[0, 1], [1, 3]], [[1., 2.], [3., 4.]]).numpy().tolist() == \
      [1., 3., 0., 4.]  # the last write wins; unwritten rows are zeros
  with pytest.raises(ValueError, match="must match length 1 of argument 'indices'"):
    tf.dynamic_stitch([[0, 2]], [[1., 2.], [3.]])
  x = tf.Variable([1., 2., 3.])
  with tf.GradientTape(persistent=True) as tape:
    parts = tf.dynamic_partition(x * x, [1, 0, 1], 2)
    partitioned = tf.reduce_sum(parts[1] * 3.) + tf.reduce_sum(parts[0])
    stitched = tf.reduce_sum(tf.dynamic_stitch([[0, 2], [1]], [x[:2] * 2., x[2:] * 5.])
                             * [1., 10., 100.])
  assert tape.gradient(partitioned, x).numpy().tolist() == [6., 4., 18.]
  assert tape.gradient(stitched, x).numpy().tolist() == [2., 200., 50.]
  with pytest.raises(RuntimeError, match="not compatible with eager execution"):
    tf.parallel_stack([1, 2])

  values = [-1.0, 0.0, 1.5, 2.0, 5.0, 15]
  counts = tf.histogram_fixed_width(values, [0.0, 5.0], nbins=5)
  assert counts.dtype == tf.int32 and counts.numpy().tolist() == [2, 1, 1, 0, 2]
  assert tf.histogram_fixed_width_bins(values, [0.0, 5.0], nbins=5).numpy().tolist() == \
      [0, 0, 1, 2, 4, 4]
  ints = tf.histogram_fixed_width(tf.constant([1, 2, 3, 9]), [0, 10], nbins=5, dtype=tf.int64)
  assert ints.dtype == tf.int64 and ints.numpy().tolist() == [1, 2, 0, 0, 1]


def test_unravel_index_repeat_timestamp():
  """Golden values and messages from TF 2.21 (tf.compat.v1)."""
  assert tf.unravel_index([5, 7], [3, 4]).numpy().tolist() == [[1, 1], [1, 3]]
  assert tf.unravel_index(7, [3, 4]).numpy().tolist() == [1, 3]
  with pytest.raises(tf.errors.InvalidArgumentError, match="index is out of bound as with dims"):
    tf.unravel_index([12], [3, 4])
  with pytest.raises(tf.errors.InvalidArgumentError, match="can only be scalar or vector"):
    tf.unravel_index([[5, 7], [0, 11]], [3, 4])
  assert tf.repeat([1, 2, 3], 2).numpy().tolist() == [1, 1, 2, 2, 3, 3]
  assert tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0).numpy().tolist() == [[1, 2], [3, 4],
                                                                          [3, 4]]
  assert tf.repeat([[1, 2], [3, 4]], 2).numpy().tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
  now = tf.timestamp()
  assert now.dtype == tf.float64 and abs(float(now) - time.time()) < 60
