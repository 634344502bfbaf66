"""tf.sets, tf.edit_distance and tf.bitwise: golden values from TF 2.21's tf.compat.v1
(eager, CPU); error texts are TF 1.15's (its sources)."""
import numpy as np
import pytest

import tfe_compat as tf


def check_sparse(st, indices, values, shape, dtype):
  assert isinstance(st, tf.SparseTensor)
  assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
  assert st.values.dtype.name == dtype
  np.testing.assert_array_equal(st.indices.numpy(),
                                np.array(indices, np.int64).reshape(-1, len(shape)))
  assert st.values.numpy().tolist() == values
  assert st.dense_shape.numpy().tolist() == shape


A = [[3, 1, 3], [2, 2, 2]]
B = [[1, 5, 5], [7, 8, 9]]


def sparse_a():
  return tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [5, 3, 4], [3, 4])


def sparse_b():
  return tf.SparseTensor([[0, 0], [1, 0], [1, 1]], [3, 1, 1], [3, 2])


def test_names():
  assert tf.sets.size is tf.sets.set_size
  assert tf.sets.union is tf.sets.set_union
  assert tf.sets.intersection is tf.sets.set_intersection
  assert tf.sets.difference is tf.sets.set_difference
  assert tf.bitwise.bitwise_and.__name__ == "bitwise_and"


def test_dense_set_operations():
  check_sparse(tf.sets.set_intersection(A, B), [[0, 0]], [1], [2, 1], "int32")
  check_sparse(tf.sets.set_union(tf.constant(A), tf.constant(B)),
               [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [1, 3]],
               [1, 3, 5, 2, 7, 8, 9], [2, 4], "int32")
  check_sparse(tf.sets.set_difference(A, B), [[0, 0], [1, 0]], [3, 2], [2, 1], "int32")
  check_sparse(tf.sets.set_difference(A, B, aminusb=False),
               [[0, 0], [1, 0], [1, 1], [1, 2]], [5, 7, 8, 9], [2, 3], "int32")
  check_sparse(tf.sets.set_intersection([[1], [2]], [[3], [4]]), [], [], [2, 0], "int32")
  check_sparse(tf.sets.set_union(tf.constant([[[3, 1]], [[2, 2]]]), tf.constant([[[0]], [[5]]])),
               [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 0], [1, 0, 1]], [0, 1, 3, 2, 5],
               [2, 1, 3], "int32")
  check_sparse(tf.sets.set_union(tf.constant([[-1, 5, -7]], tf.int8), tf.constant([[2]], tf.int8)),
               [[0, 0], [0, 1], [0, 2], [0, 3]], [-7, -1, 2, 5], [1, 4], "int8")


def test_string_sets():
  check_sparse(tf.sets.set_union([["b", "a", ""]], [["c", "a"]]),
               [[0, 0], [0, 1], [0, 2], [0, 3]], [b"", b"a", b"b", b"c"], [1, 4], "string")
  check_sparse(tf.sets.set_intersection(tf.SparseTensor([[0, 0], [0, 1]], ["x", "y"], [1, 2]),
                                        tf.SparseTensor([[0, 0]], ["y"], [1, 1])),
               [[0, 0]], [b"y"], [1, 1], "string")


def test_sparse_set_operations():
  check_sparse(tf.sets.set_intersection(sparse_a(), sparse_b()), [[0, 0]], [3], [3, 1], "int32")
  check_sparse(tf.sets.set_union(sparse_a(), sparse_b()), [[0, 0], [0, 1], [1, 0], [2, 0]],
               [3, 5, 1, 4], [3, 2], "int32")
  check_sparse(tf.sets.set_difference(sparse_a(), sparse_b()), [[0, 0], [2, 0]], [5, 4], [3, 1],
               "int32")
  dense = [[1, 2], [3, 3], [0, 0]]
  check_sparse(tf.sets.set_union(dense, sparse_b()),
               [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0]], [1, 2, 3, 1, 3, 0], [3, 3],
               "int32")
  # sparse - dense is computed as dense - sparse with aminusb flipped, as TF does
  check_sparse(tf.sets.set_difference(sparse_a(), [[3, 3]] * 3), [[0, 0], [2, 0]], [5, 4], [3, 1],
               "int32")
  check_sparse(tf.sets.set_difference(sparse_a(), [[3, 3]] * 3, aminusb=False),
               [[1, 0], [2, 0]], [3, 3], [3, 1], "int32")


def test_set_size():
  size = tf.sets.set_size(sparse_a())
  assert size.dtype == tf.int32 and size.numpy().tolist() == [2, 0, 1]
  size = tf.sets.size(tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 0]], [5, 5, 4], [2, 2, 3]))
  assert size.numpy().tolist() == [[1, 0], [0, 1]]
  unsorted = tf.SparseTensor([[1, 0], [0, 0]], [1, 2], [2, 2])
  assert tf.sets.set_size(unsorted, validate_indices=False).numpy().tolist() == [1, 1]


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.sets.set_size(tf.constant(A)), "Expected `SparseTensor`"),
    (lambda: tf.sets.set_size(tf.SparseTensor([[0, 0]], [1.], [1, 1])), "Invalid dtype"),
    (lambda: tf.sets.set_union([[1.]], [[1.]]), "'a' invalid dtype"),
    (lambda: tf.sets.set_union([[1]], tf.constant([[1]], tf.int64)), "Types don't match"),
    (lambda: tf.sets.set_union(tf.constant([[1]], tf.uint32), tf.constant([[1]], tf.uint32)),
     "'a' invalid dtype"),
])
def test_set_type_errors(fn, message):
  with pytest.raises(TypeError, match=message):
    fn()


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.sets.set_union([3, 1], [2]),
     r"^Shape \[2\] has rank 1 < 2 \[Op:DenseToDenseSetOperation\]$"),
    (lambda: tf.sets.set_union([[3, 1]], [[0], [1]]),
     r"^Mismatched shapes \[1\] vs \[2\] \[Op:DenseToDenseSetOperation\]$"),
    (lambda: tf.sets.set_union([[1, 2], [3, 3]], sparse_b()),
     r"^Mismatched shapes \[2\] vs \[3\] \[Op:DenseToSparseSetOperation\]$"),
    (lambda: tf.sets.set_union(sparse_a(), tf.SparseTensor([[0, 0, 0]], [1], [3, 2, 2])),
     r"^Mismatched shapes \[3\] vs \[3,2\] \[Op:SparseToSparseSetOperation\]$"),
    (lambda: tf.sets.set_size(tf.SparseTensor([[1, 0], [0, 0]], [1, 2], [2, 2])),
     r"^indices\[1\] = \[0,0\] is out of order"),
    (lambda: tf.sets.set_size(tf.SparseTensor([[0, 5]], [1], [2, 2])),
     r"^indices\[0\] = \[0,5\] is out of bounds: need 0 <= index < \[2,2\] \[Op:SetSize\]$"),
    (lambda: tf.sets.set_size(tf.SparseTensor([[0, 0], [0, 0]], [1, 2], [2, 2])),
     r"^indices\[1\] = \[0,0\] is repeated \[Op:SetSize\]$"),
    (lambda: tf.sets.set_size(tf.SparseTensor([[0], [1]], [1, 2], [2])),
     r"^Invalid rank 1. \[Op:SetSize\]$"),
])
def test_set_errors(fn, message):
  with pytest.raises(tf.errors.InvalidArgumentError, match=message):
    fn()


# ---- edit_distance ----
def test_edit_distance_doc_example():
  hypothesis = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], (2, 1, 1))
  truth = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"],
                          (2, 2, 2))
  out = tf.edit_distance(hypothesis, truth, normalize=True)
  assert out.dtype == tf.float32 and out.shape == (2, 2)
  assert out.numpy().tolist() == [[np.inf, 1.0], [0.5, 1.0]]
  assert tf.edit_distance(hypothesis, truth, normalize=False).numpy().tolist() == [[1, 1], [1, 1]]


def test_edit_distance_values():
  hypothesis = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0]], [1, 2, 3, 4], [3, 3])
  truth = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 3, 5], [3, 2])
  assert tf.edit_distance(hypothesis, truth).numpy().tolist() == [0.5, np.inf, 1.0]
  assert tf.edit_distance(hypothesis, truth, normalize=False).numpy().tolist() == [1, 1, 1]
  empty = tf.SparseTensor(np.zeros([0, 2], np.int64), tf.constant([], tf.int32), [2, 2])
  assert tf.edit_distance(empty, empty).numpy().tolist() == [0.0, 0.0]
  # the output shape is the larger of the two group shapes; positions inside a row don't count
  wide = tf.SparseTensor([[0, 0]], [1], [1, 5])
  tall = tf.SparseTensor([[0, 0], [1, 0], [2, 0]], [1, 2, 3], [3, 1])
  assert tf.edit_distance(tall, wide).numpy().tolist() == [0.0, np.inf, np.inf]
  gaps = tf.edit_distance(tf.SparseTensor([[0, 0], [0, 3]], [1, 2], [1, 5]),
                          tf.SparseTensor([[0, 1], [0, 2]], [1, 2], [1, 5]))
  assert gaps.numpy().tolist() == [0.0]
  three = tf.edit_distance(tf.SparseTensor([[0, 0, 0], [1, 1, 1]], [1, 2], [2, 2, 2]),
                           tf.SparseTensor([[0, 1, 0]], [1], [1, 3, 1]))
  assert three.numpy().tolist() == [[np.inf, 1.0, 0.0], [0.0, np.inf, 0.0]]
  unsorted = tf.edit_distance(tf.SparseTensor([[1, 0], [0, 0]], [1, 2], [2, 2]),
                              tf.SparseTensor([[0, 0]], [1], [2, 2]))
  assert unsorted.numpy().tolist() == [np.inf, np.inf]  # TF merges the runs as they come


def test_edit_distance_errors():
  with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor."):
    tf.edit_distance(tf.constant([[1]]), tf.SparseTensor([[0, 0]], [1], [1, 1]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"input #4\(zero-based\) was expected to be a int32 tensor but is a "
                           r"float tensor"):
    tf.edit_distance(tf.SparseTensor([[0, 0]], [1], [1, 1]),
                     tf.SparseTensor([[0, 0]], [1.5], [1, 1]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"matching ranks, but their shapes are: \[3\] and \[2\]"):
    tf.edit_distance(tf.SparseTensor([[0, 0]], [1], [1, 1]),
                     tf.SparseTensor([[0, 0, 0]], [1], [1, 1, 1]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="must have rank at least 2, but truth_shape rank is: 1"):
    tf.edit_distance(tf.SparseTensor([[0]], [1], [1]), tf.SparseTensor([[0]], [2], [1]))


# ---- tf.bitwise ----
SHIFT_GOLDEN = {  # x = [-5 (or 250 unsigned), 7, 1, 100], y = [1, 3, bits, bits + 3]
    "int8": ([-10, 56, -128, 0], [-3, 0, 0, 0], [4, -8, -2, -101], [1, 3, 0, 0]),
    "uint8": ([244, 56, 128, 0], [125, 0, 0, 0], [5, 248, 254, 155], [0, 3, 0, 0]),
    "int16": ([-10, 56, -32768, 0], [-3, 0, 0, 0], [4, -8, -2, -101], [1, 3, 0, 0]),
    "uint16": ([500, 56, 32768, 0], [125, 0, 0, 0], [65285, 65528, 65534, 65435], [0, 3, 0, 0]),
    "int32": ([-10, 56, -2147483648, 0], [-3, 0, 0, 0], [4, -8, -2, -101], [1, 3, 0, 32]),
    "uint32": ([500, 56, 2147483648, 0], [125, 0, 0, 0],
               [4294967045, 4294967288, 4294967294, 4294967195], [0, 3, 0, 32]),
    "int64": ([-10, 56, -9223372036854775808, 0], [-3, 0, 0, 0], [4, -8, -2, -101],
              [1, 3, 0, 64]),
    "uint64": ([500, 56, 9223372036854775808, 0], [125, 0, 0, 0],
               [18446744073709551365, 18446744073709551608, 18446744073709551614,
                18446744073709551515], [0, 3, 0, 64]),
}


@pytest.mark.parametrize("name", sorted(SHIFT_GOLDEN))
def test_shifts_invert_and(name):
  dtype = tf.as_dtype(name)
  x = tf.constant([250 if dtype.is_unsigned else -5, 7, 1, 100], dtype)
  y = tf.constant([1, 3, dtype.size * 8, dtype.size * 8 + 3], dtype)
  left, right, inverted, anded = SHIFT_GOLDEN[name]
  for out, expected in [(tf.bitwise.left_shift(x, y), left), (tf.bitwise.right_shift(x, y), right),
                        (tf.bitwise.invert(x), inverted), (tf.bitwise.bitwise_and(x, y), anded)]:
    assert out.dtype == dtype and out.numpy().tolist() == expected


def test_negative_and_large_shifts():
  x = tf.constant([-5, 7, 1, 100], tf.int8)
  negative = tf.constant([-1, -2, -8, -100], tf.int8)
  assert tf.bitwise.left_shift(x, negative).numpy().tolist() == [-5, 7, 1, 100]
  assert tf.bitwise.right_shift(x, negative).numpy().tolist() == [-5, 7, 1, 100]
  assert tf.bitwise.right_shift(tf.constant([-128, -1], tf.int8),
                                tf.constant([7, 8], tf.int8)).numpy().tolist() == [-1, -1]
  big = tf.constant([-128, -1, -100])
  assert tf.bitwise.left_shift(big, [31, 32, 33]).numpy().tolist() == [0, -2147483648, 0]
  assert tf.bitwise.right_shift(big, [31, 32, 33]).numpy().tolist() == [-1, -1, -1]


def test_bitwise_or_xor_broadcast():
  out = tf.bitwise.bitwise_or([[1], [2]], [4, 8])
  assert out.dtype == tf.int32 and out.numpy().tolist() == [[5, 9], [6, 10]]
  assert tf.bitwise.bitwise_xor([5, 6], [3, 3]).numpy().tolist() == [6, 5]
  assert tf.bitwise.left_shift(1, 2).numpy() == 4


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.bitwise.bitwise_and(1., 2.),
     r"^Value for attr 'T' of float is not in the list of allowed values: int8, int16, int32, "
     r"int64, uint8, uint16, uint32, uint64 \[Op:BitwiseAnd\]$"),
    (lambda: tf.bitwise.invert(True), "Value for attr 'T' of bool"),
    (lambda: tf.bitwise.left_shift(1., 2.), r"Value for attr 'T' of float .*\[Op:LeftShift\]$"),
    (lambda: tf.bitwise.left_shift(tf.constant(1, tf.int8), tf.constant(2)),
     r"^cannot compute LeftShift as input #1\(zero-based\) was expected to be a int8 tensor but "
     r"is a int32 tensor \[Op:LeftShift\]$"),
    (lambda: tf.bitwise.right_shift([1, 2, 3], [4, 8]),
     r"^Incompatible shapes: \[3\] vs. \[2\] \[Op:RightShift\]$"),
])
def test_bitwise_errors(fn, message):
  with pytest.raises(tf.errors.InvalidArgumentError, match=message):
    fn()
