"""tf.sparse ops: golden values from TF 2.21's tf.compat.v1 (eager)."""
import numpy as np
import pytest

import tfe_compat as tf



def sp(indices, values, shape):
  return tf.SparseTensor(indices, values, shape)


def A():
  return sp([[0, 1], [1, 0], [1, 2]], [1., -2., 3.], [2, 3])


def B():
  return sp([[0, 1], [1, 1], [1, 2]], [0.5, 4., -3.], [2, 3])


def NEG():
  return sp([[0, 0], [2, 1]], [-1., -5.], [3, 2])


def UN():
  return sp([[1, 0], [0, 1], [0, 0]], [1., 2., 3.], [2, 3])


def check(st, indices, values, shape, dtype="float32"):
  assert isinstance(st, tf.SparseTensor)
  assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
  assert st.values.dtype.name == dtype
  expected = np.array(indices, np.int64)
  expected = expected if expected.ndim == 2 else expected.reshape(0, len(shape))
  assert st.indices.numpy().shape == expected.shape
  np.testing.assert_array_equal(st.indices.numpy(), expected)
  np.testing.assert_allclose(st.values.numpy(), values, rtol=1e-6)
  assert st.dense_shape.numpy().tolist() == shape


def check_dense(t, expected, dtype="float32"):
  assert t.dtype.name == dtype
  np.testing.assert_allclose(t.numpy(), expected, rtol=1e-6)


def test_names():
  assert tf.sparse_add is tf.sparse.add
  assert tf.sparse_tensor_dense_matmul is tf.sparse.sparse_dense_matmul is tf.sparse.matmul
  for name in ["concat", "fill_empty_rows", "mask", "maximum", "minimum", "reduce_max",
               "reduce_max_sparse", "reduce_sum", "reduce_sum_sparse", "reorder", "reset_shape",
               "reshape", "retain", "segment_mean", "segment_sqrt_n", "segment_sum", "slice",
               "softmax", "split", "to_indicator", "transpose", "merge"]:
    assert getattr(tf, "sparse_" + name) is getattr(tf.sparse, name)
  for name in ["from_dense", "eye", "expand_dims", "cross", "cross_hashed"]:
    assert callable(getattr(tf.sparse, name))
  assert callable(tf.sparse_to_dense) and callable(tf.sparse_matmul)


def test_add():
  check(tf.sparse.add(A(), B()), [[0, 1], [1, 0], [1, 1], [1, 2]], [1.5, -2., 4., 0.], [2, 3])
  check(tf.sparse.add(A(), B(), threshold=0.6), [[0, 1], [1, 0], [1, 1]], [1.5, -2., 4.],
        [2, 3])
  # the threshold only applies to sums; unordered inputs merge as TF's kernel does
  check(tf.sparse_add(A(), sp([[0, 0]], [0.1], [2, 3]), thresh=0.5),
        [[0, 0], [0, 1], [1, 0], [1, 2]], [0.1, 1., -2., 3.], [2, 3])
  check(tf.sparse.add(UN(), A()), [[0, 1], [1, 0], [0, 1], [0, 0], [1, 2]],
        [1., -1., 2., 3., 3.], [2, 3])
  expected = [[1., 2., 1.], [-1., 1., 4.]]
  check_dense(tf.sparse.add(A(), tf.ones([2, 3])), expected)
  check_dense(tf.sparse.add(tf.ones([2, 3]), A()), expected)


def test_add_errors():
  with pytest.raises(TypeError, match="At least one input should be SparseTensor"):
    tf.sparse.add(tf.ones([2]), tf.ones([2]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Operands' shapes do not match: got 2 and 3 for dimension 0 "
                           r"\[Op:SparseAdd\]"):
    tf.sparse.add(A(), NEG())
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Dimension 0 does not equal \(no broadcasting is supported\): sparse "
                           r"side 2 vs dense side 3 \[Op:SparseTensorDenseAdd\]"):
    tf.sparse.add(A(), tf.ones([3, 3]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Two operands have different ranks; received: 2 and 1"):
    tf.sparse.add(A(), tf.ones([6]))
  with pytest.raises(tf.errors.InvalidArgumentError, match="float tensor but is a int32"):
    tf.sparse.add(A(), sp([[0, 0]], [1], [2, 3]))


def test_maximum_minimum():
  check(tf.sparse.maximum(A(), B()), [[0, 1], [1, 0], [1, 1], [1, 2]], [1., 0., 4., 3.], [2, 3])
  check(tf.sparse_minimum(A(), B()), [[0, 1], [1, 0], [1, 1], [1, 2]], [.5, -2., 0., -3.],
        [2, 3])
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:SparseSparseMaximum\]"):
    tf.sparse.maximum(A(), NEG())


def test_concat():
  check(tf.sparse.concat(1, [A(), B()]), [[0, 1], [0, 4], [1, 0], [1, 2], [1, 4], [1, 5]],
        [1., .5, -2., 3., 4., -3.], [2, 6])
  check(tf.sparse_concat(0, [A(), B()]), [[0, 1], [1, 0], [1, 2], [2, 1], [3, 1], [3, 2]],
        [1., -2., 3., .5, 4., -3.], [4, 3])
  check(tf.sparse.concat(1, [UN(), A()]), [[0, 0], [0, 1], [0, 4], [1, 0], [1, 3], [1, 5]],
        [3., 2., 1., 1., -2., 3.], [2, 6])
  check(tf.sparse.concat(0, [UN(), A()]), [[0, 0], [0, 1], [1, 0], [2, 1], [3, 0], [3, 2]],
        [3., 2., 1., 1., -2., 3.], [4, 3])
  check(tf.sparse.concat(-1, [A(), A()]), [[0, 1], [0, 4], [1, 0], [1, 2], [1, 3], [1, 5]],
        [1., 1., -2., 3., -2., 3.], [2, 6])
  check(tf.sparse.concat(1, [A(), NEG()], expand_nonconcat_dim=True),
        [[0, 1], [0, 3], [1, 0], [1, 2], [2, 4]], [1., -1., -2., 3., -5.], [3, 5])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Input shapes must match: expected 2 for dimension 0 but got 3 at "
                           r"position 1 \[Op:SparseConcat\]"):
    tf.sparse.concat(1, [A(), NEG()])


def test_fill_empty_rows():
  out, empty = tf.sparse.fill_empty_rows(NEG(), 7.)
  check(out, [[0, 0], [1, 0], [2, 1]], [-1., 7., -5.], [3, 2])
  assert empty.dtype == tf.bool and empty.numpy().tolist() == [False, True, False]
  out, empty = tf.sparse_fill_empty_rows(sp([[2, 1], [0, 0], [2, 0]], [1, 2, 3], [4, 2]), 7)
  check(out, [[0, 0], [1, 0], [2, 1], [2, 0], [3, 0]], [2, 7, 1, 3, 7], [4, 2], "int32")
  assert empty.numpy().tolist() == [False, True, False, True]


def test_sparse_dense_matmul():
  check_dense(tf.sparse.matmul(A(), tf.reshape(tf.range(6.), [3, 2])), [[2., 3.], [12., 13.]])
  check_dense(tf.sparse_tensor_dense_matmul(A(), tf.reshape(tf.range(6.), [2, 3]),
                                            adjoint_a=True),
              [[-6., -8., -10.], [0., 1., 2.], [9., 12., 15.]])
  check_dense(tf.sparse.sparse_dense_matmul(A(), tf.reshape(tf.range(6.), [2, 3]),
                                            adjoint_b=True), [[1., 4.], [6., 9.]])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"inner dimension does not match: 3 vs. 2.  Did you forget a "
                           r"transpose\?  Dimensions of A: \[2, 3\).  Dimensions of B: \[2,2\] "
                           r"\[Op:SparseTensorDenseMatMul\]"):
    tf.sparse.matmul(A(), tf.ones([2, 2]))
  with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor 'b' is not a matrix"):
    tf.sparse.matmul(A(), tf.ones([3]))


def test_sparse_dense_matmul_gradient():
  x = tf.constant([1., 2., 3.])
  m = tf.reshape(tf.range(6.), [3, 2])
  with tf.GradientTape() as tape:
    tape.watch(x)
    tape.watch(m)
    y = tf.sparse.matmul(sp([[0, 1], [1, 0], [1, 2]], x, [2, 3]), m)
    loss = tf.reduce_sum(y * y)
  gx, gm = tape.gradient(loss, [x, m])
  check_dense(gx, [26., 34., 266.])
  check_dense(gm, [[48., 68.], [4., 6.], [72., 102.]])


def test_reductions():
  check_dense(tf.sparse.reduce_sum(A()), 2.)
  check_dense(tf.sparse_reduce_sum(A(), 1), [1., 1.])
  check_dense(tf.sparse.reduce_sum(A(), -1, keepdims=True), [[1.], [1.]])
  t = tf.sparse.reduce_sum(sp([[0, 0]], [3], [2, 2]), [0, 1])
  assert t.dtype == tf.int32 and t.numpy() == 3
  check_dense(tf.sparse.reduce_max(NEG()), -1.)
  check_dense(tf.sparse.reduce_max(NEG(), 1), [-1., 0., -5.])
  check_dense(tf.sparse_reduce_max(NEG(), 0, keepdims=True), [[-1., -5.]])
  check(tf.sparse.reduce_max_sparse(NEG(), 1), [[0], [2]], [-1., -5.], [3])
  check(tf.sparse.reduce_sum_sparse(A(), 0), [[0], [1], [2]], [-2., 1., 3.], [3])
  check(tf.sparse_reduce_sum_sparse(A(), 0, keepdims=True), [[0, 0], [0, 1], [0, 2]],
        [-2., 1., 3.], [1, 3])
  check(tf.sparse.reduce_sum_sparse(A()), np.zeros([1, 0]), [2.], [])
  check(tf.sparse.reduce_sum_sparse(A(), keepdims=True), [[0, 0]], [2.], [1, 1])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Invalid reduction dimension 2, for input with 2 dimensions. "
                           r"\[Op:SparseReduceSum\]"):
    tf.sparse.reduce_sum(A(), 2)


def test_reduce_sum_gradient():
  x = tf.constant([1., 2., 3.])
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sparse.reduce_sum(sp([[0, 1], [1, 0], [1, 2]], x, [2, 3]), 1)
    loss = tf.reduce_sum(y * tf.constant([2., 3.]))
  check_dense(tape.gradient(loss, x), [2., 3., 3.])


def test_reorder_reshape_reset_retain():
  check(tf.sparse.reorder(UN()), [[0, 0], [0, 1], [1, 0]], [3., 2., 1.], [2, 3])
  with pytest.raises(TypeError, match="Input must be a SparseTensor."):
    tf.sparse.reorder(tf.ones([2]))
  check(tf.sparse.reshape(A(), [3, -1]), [[0, 1], [1, 1], [2, 1]], [1., -2., 3.], [3, 2])
  check(tf.sparse_reshape(UN(), [-1]), [[3], [1], [0]], [1., 2., 3.], [6])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Input to reshape is a SparseTensor with 6 dense values, but the "
                           r"requested shape requires a multiple of 4. input_shape=\[2,3\] "
                           r"output_shape=\[4,1\] \[Op:SparseReshape\]"):
    tf.sparse.reshape(A(), [4, -1])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Input to reshape is a tensor with 6 dense values, but the "
                           r"requested shape has 8. input_shape=\[2,3\] output_shape=\[2,4\]"):
    tf.sparse.reshape(A(), [2, 4])
  check(tf.sparse.reset_shape(NEG()), [[0, 0], [2, 1]], [-1., -5.], [3, 2])
  check(tf.sparse_reset_shape(NEG(), [5, 5]), [[0, 0], [2, 1]], [-1., -5.], [5, 5])
  with pytest.raises(ValueError, match=r"Requested new_shape should have dimension sizes >= "
                                       r"sp_input.shape.  Found new_shape \(\[3 2\]\), "
                                       r"sp_input.shape \(\[1 5\]\)."):
    tf.sparse.reset_shape(NEG(), [1, 5])
  check(tf.sparse.reset_shape(sp(np.zeros([0, 2], np.int64), tf.zeros([0]), [3, 3])),
        np.zeros([0, 2]), [], [0, 0])
  check(tf.sparse.retain(A(), [True, False, True]), [[0, 1], [1, 2]], [1., 3.], [2, 3])
  with pytest.raises(ValueError, match="Dimensions 3 and 1 are not compatible"):
    tf.sparse_retain(A(), [True])


def test_segment_ops():
  d = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
  check_dense(tf.sparse_segment_sum(d, [0, 1, 2, 0], [0, 0, 2, 2]),
              [[4., 6.], [0., 0.], [6., 8.]])
  check_dense(tf.sparse.segment_mean(d, [0, 1, 2, 0], [0, 0, 2, 2]),
              [[2., 3.], [0., 0.], [3., 4.]])
  check_dense(tf.sparse_segment_sqrt_n(d, [0, 1, 2, 0], [0, 0, 2, 2], num_segments=4),
              [[2.828427, 4.2426405], [0., 0.], [4.2426405, 5.656854], [0., 0.]])
  t = tf.sparse.segment_sum(tf.constant([1, 2, 3]), [0, 2], [0, 1])
  assert t.dtype == tf.int32 and t.numpy().tolist() == [1, 3]
  err = tf.errors.InvalidArgumentError
  with pytest.raises(err, match=r"segment ids are not increasing \[Op:SparseSegmentSum\]"):
    tf.sparse.segment_sum(d, [0, 1, 2], [1, 0, 1])
  with pytest.raises(err, match=r"Bad: indices\[1\] == 5 out of range \[0, 3\)"):
    tf.sparse.segment_sum(d, [0, 5], [0, 0])
  with pytest.raises(err, match="segment_ids and indices should have same size."):
    tf.sparse.segment_sum(d, [0, 1], [0])
  with pytest.raises(err, match=r"segment ids must be < num_segments "
                                r"\[Op:SparseSegmentSumWithNumSegments\]"):
    tf.sparse.segment_sum(d, [0, 1], [0, 3], num_segments=2)
  with pytest.raises(err, match="Value for attr 'T' of int32 is not in the list"):
    tf.sparse.segment_mean(tf.constant([1, 2]), [0], [0])


def test_segment_gradients():
  d = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
  w = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
  for fn, expected in [(tf.sparse.segment_sum, [[6., 8.], [1., 2.], [5., 6.]]),
                       (tf.sparse.segment_mean, [[3., 4.], [.5, 1.], [2.5, 3.]])]:
    with tf.GradientTape() as tape:
      tape.watch(d)
      loss = tf.reduce_sum(fn(d, [0, 1, 2, 0], [0, 0, 2, 2]) * w)
    check_dense(tape.gradient(loss, d), expected)


def test_slice_split():
  check(tf.sparse.slice(A(), [0, 1], [2, 5]), [[0, 0], [1, 1]], [1., 3.], [2, 2])
  check(tf.sparse_slice(UN(), [0, 0], [1, 2]), [[0, 1], [0, 0]], [2., 3.], [1, 2])
  check(tf.sparse.slice(A(), [3, 0], [1, 1]), np.zeros([0, 2]), [], [0, 1])
  x = sp([[0, 0], [0, 4], [1, 1], [1, 3], [0, 2]], [1, 2, 3, 4, 5], [2, 5])
  first, second = tf.sparse.split(sp_input=x, num_split=2, axis=1)
  check(first, [[0, 0], [1, 1], [0, 2]], [1, 3, 5], [2, 3], "int32")
  check(second, [[0, 1], [1, 0]], [2, 4], [2, 2], "int32")
  first, second = tf.sparse_split(sp_input=UN(), num_split=2, split_dim=0)
  check(first, [[0, 1], [0, 0]], [2., 3.], [1, 3])
  check(second, [[0, 0]], [1.], [1, 3])
  with pytest.raises(ValueError, match="Keyword arguments are required for this function."):
    tf.sparse.split(A(), 2, 1)


def test_softmax():
  check(tf.sparse.softmax(A()), [[0, 1], [1, 0], [1, 2]], [1., 0.006692851, 0.9933072], [2, 3])
  # like TF, output values follow row-major order even for unordered input
  check(tf.sparse_softmax(UN()), [[1, 0], [0, 1], [0, 0]], [0.7310586, 0.26894143, 1.], [2, 3])
  with pytest.raises(tf.errors.InvalidArgumentError, match="Input should have rank >= 2"):
    tf.sparse.softmax(sp([[0]], [1.], [2]))
  x = tf.constant([1., 2., 3.])
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sparse.softmax(sp([[0, 1], [1, 0], [1, 2]], x, [2, 3]))
    loss = tf.reduce_sum(y.values * tf.constant([1., 2., 3.]))
  np.testing.assert_allclose(tape.gradient(loss, x).numpy(), [0., -0.19661194, 0.19661193],
                             atol=1e-6)


def test_add_gradient():
  x = tf.constant([1., 2., 3.])
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sparse.add(sp([[0, 1], [1, 0], [1, 2]], x, [2, 3]),
                      sp([[0, 1], [1, 1]], x[:2] * 2, [2, 3]))
    loss = tf.reduce_sum(y.values * tf.constant([1., 2., 3., 4.]))
  check_dense(tape.gradient(loss, x), [3., 8., 4.])


def test_transpose_merge_indicator():
  check(tf.sparse.transpose(A()), [[0, 1], [1, 0], [2, 1]], [-2., 1., 3.], [3, 2])
  check(tf.sparse_transpose(sp([[0, 1, 2], [1, 0, 0]], [1, 2], [2, 3, 4]), [2, 0, 1]),
        [[0, 1, 0], [2, 0, 1]], [2, 1], [4, 2, 3], "int32")
  ids = sp([[0, 0], [0, 1], [1, 0]], [5, 1, 3], [2, 4])
  check(tf.sparse.merge(ids, sp([[0, 0], [0, 1], [1, 0]], [1., 2., 3.], [2, 4]), 6),
        [[0, 1], [0, 5], [1, 3]], [2., 1., 3.], [2, 6])
  t = tf.sparse.to_indicator(sp([[0, 0], [0, 1], [1, 0]], [2, 0, 3], [2, 4]), 4)
  assert t.dtype == tf.bool
  assert t.numpy().tolist() == [[True, False, True, False], [False, False, False, True]]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Indices are not valid"):
    tf.sparse_to_indicator(ids, 3)


def test_from_dense_eye_expand_dims():
  check(tf.sparse.from_dense([[0, 1], [2, 0]]), [[0, 1], [1, 0]], [1, 2], [2, 2], "int32")
  s = tf.sparse.from_dense([b"", b"x"])
  assert s.indices.numpy().tolist() == [[1]] and s.values.numpy().tolist() == [b"x"]
  check(tf.sparse.eye(2, 3), [[0, 0], [1, 1]], [1., 1.], [2, 3])
  check(tf.sparse.expand_dims(A(), 1), [[0, 0, 1], [1, 0, 0], [1, 0, 2]], [1., -2., 3.],
        [2, 1, 3])
  check(tf.sparse.expand_dims(A()), [[0, 1, 0], [1, 0, 0], [1, 2, 0]], [1., -2., 3.], [2, 3, 1])


def test_mask():
  class Slices:
    def __init__(self, values, indices, dense_shape):
      self.values, self.indices, self.dense_shape = values, indices, dense_shape

  out = tf.sparse.mask(Slices(tf.constant([[1.], [2.], [3.]]), tf.constant([12, 26, 37]),
                              None), [26])
  assert out.indices.numpy().tolist() == [12, 37]
  assert out.values.numpy().tolist() == [[1.], [3.]]


def test_sparse_to_dense():
  check_dense(tf.sparse_to_dense([[0, 1], [1, 2]], [2, 3], [5., 6.]),
              [[0., 5., 0.], [0., 0., 6.]])
  check_dense(tf.sparse_to_dense([1, 3], [5], 7, default_value=-1), [-1, 7, -1, 7, -1], "int32")
  check_dense(tf.sparse_to_dense(2, [4], 1), [0, 0, 1, 0], "int32")
  check_dense(tf.sparse_to_dense([3, 1], [5], 7, validate_indices=False), [0, 7, 0, 7, 0],
              "int32")
  err = tf.errors.InvalidArgumentError
  with pytest.raises(err, match=r"indices\[1\] = \[1\] is out of order. Many sparse ops "
                                r"require sorted indices."):
    tf.sparse_to_dense([3, 1], [5], 7)
  with pytest.raises(err, match=r"indices\[0\] = \[6\] is out of bounds: need 0 <= index < "
                                r"\[5\] \[Op:SparseToDense\]"):
    tf.sparse_to_dense([6], [5], 7)


def test_indexed_slices_convert_and_mask():
  """tf.IndexedSlices as TF 2.21 shows, converts (repeated rows summed) and masks it."""
  rows = tf.IndexedSlices(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), tf.constant([0, 2, 0]),
                          tf.constant([3, 2]))
  assert rows.shape == (3, 2) and rows.dtype == tf.float32
  assert tf.convert_to_tensor(rows).numpy().tolist() == [[6., 8.], [0., 0.], [3., 4.]]
  kept = tf.sparse.mask(rows, [2])
  assert isinstance(kept, tf.IndexedSlices)
  assert kept.indices.numpy().tolist() == [0, 0]
  assert kept.values.numpy().tolist() == [[1., 2.], [5., 6.]]
  assert repr(kept).startswith("IndexedSlices(indices=tf.Tensor([0 0], shape=(2,), dtype=int32)")
