"""tf.RaggedTensor, tf.ragged and the ops that dispatch on RaggedTensors (golden values from TF).

Printing, `==`, hashing, `keepdims` and the validation messages are TF 1.15's (checked against
its source); values were recorded with TensorFlow.
"""
import numpy as np
import pytest

import tfe_compat as tf

RT = tf.RaggedTensor


def rt4():
  return tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])


def nested():
  return tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6], [], [7]]])


def uniform():
  return tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]]], ragged_rank=1)


def lst(value):
  return value.to_list() if isinstance(value, RT) else value.numpy().tolist()


# ---- Construction and properties ----
def test_factories_and_partitions():
  values = [3, 1, 4, 1, 5, 9, 2, 6]
  expected = [[3, 1, 4, 1], [], [5, 9, 2], [6], []]
  for rt in [RT.from_row_splits(values, [0, 4, 4, 7, 8, 8]),
             RT.from_row_lengths(values, [4, 0, 3, 1, 0]),
             RT.from_value_rowids(values, [0, 0, 0, 0, 2, 2, 2, 3], nrows=5),
             RT.from_row_starts(values, [0, 4, 4, 7, 8]),
             RT.from_row_limits(values, [4, 4, 7, 8, 8])]:
    assert rt.to_list() == expected
    assert rt.dtype == tf.int32 and rt.row_splits.dtype == tf.int64 and rt.ragged_rank == 1
  assert lst(RT.from_value_rowids(values, [0, 0, 0, 0, 2, 2, 2, 3])) == expected[:4]
  rt = RT.from_row_splits(values, [0, 4, 4, 7, 8, 8])
  assert str(rt) == repr(rt) == "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], []]>"
  assert rt.shape.as_list() == [5, None] and str(rt.shape) == "(5, ?)"
  assert lst(rt.values) == values and lst(rt.flat_values) == values
  assert lst(rt.row_lengths()) == [4, 0, 3, 1, 0]
  assert lst(rt.row_starts()) == [0, 4, 4, 7, 8] and lst(rt.row_limits()) == [4, 4, 7, 8, 8]
  assert lst(rt.value_rowids()) == [0, 0, 0, 0, 2, 2, 2, 3]
  assert rt.nrows().numpy() == 5 and rt.nrows().dtype == tf.int64
  assert rt.nrows(out_type=tf.int32).dtype == tf.int32
  assert lst(rt.bounding_shape()) == [5, 4] and rt.bounding_shape(axis=1).numpy() == 4
  assert rt.bounding_shape(out_type=tf.int32).dtype == tf.int32
  splits32 = RT.from_row_splits([1, 2, 3], tf.constant([0, 2, 3], tf.int32)).row_splits
  assert splits32.dtype == tf.int32
  assert rt.with_row_splits_dtype(tf.int32).row_splits.dtype == tf.int32


def test_nested_and_uniform_inner_dimensions():
  values = [3, 1, 4, 1, 5, 9, 2, 6]
  expected = [[[3, 1, 4, 1], [], [5, 9, 2]], [], [[6], []]]
  n = RT.from_nested_row_splits(values, ([0, 3, 3, 5], [0, 4, 4, 7, 8, 8]))
  assert n.to_list() == expected and n.ragged_rank == 2
  assert lst(RT.from_nested_row_lengths(values, ([3, 0, 2], [4, 0, 3, 1, 0]))) == expected
  assert lst(RT.from_nested_value_rowids(values, ([0, 0, 0, 2, 2], [0, 0, 0, 0, 2, 2, 2, 3]),
                                         nested_nrows=[3, 5])) == expected
  assert n.shape.as_list() == [3, None, None]
  assert [lst(s) for s in n.nested_row_splits] == [[0, 3, 3, 5], [0, 4, 4, 7, 8, 8]]
  assert lst(n.values) == [[3, 1, 4, 1], [], [5, 9, 2], [6], []]
  assert lst(n.row_lengths()) == [3, 0, 2] and lst(n.row_lengths(axis=2)) == [[4, 0, 3], [], [1, 0]]
  assert [lst(l) for l in n.nested_row_lengths()] == [[3, 0, 2], [4, 0, 3, 1, 0]]
  assert [lst(r) for r in n.nested_value_rowids()] == [[0, 0, 0, 2, 2], [0, 0, 0, 0, 2, 2, 2, 3]]
  assert lst(n.bounding_shape()) == [3, 3, 4]
  u = RT.from_row_splits(tf.ones([5, 3], tf.int32), [0, 2, 5])
  assert u.shape.as_list() == [2, None, 3]
  assert str(u) == "<tf.RaggedTensor [[[1, 1, 1], [1, 1, 1]], [[1, 1, 1], [1, 1, 1], [1, 1, 1]]]>"
  assert str(RT.from_row_splits(["a", "bc", "d"], [0, 2, 3])) == \
      "<tf.RaggedTensor [[b'a', b'bc'], [b'd']]>"
  assert str(RT.from_row_splits(tf.constant([], tf.float32), [0])) == "<tf.RaggedTensor []>"
  assert lst(RT.from_row_splits([1.5, 2., 3.], [0, 2, 3])) == [[1.5, 2.0], [3.0]]
  assert lst(n.with_flat_values(tf.cast(n.flat_values, tf.float32)))[0][0] == [3., 1., 4., 1.]
  rt = RT.from_row_splits(values, [0, 4, 4, 7, 8, 8])
  assert lst(rt.with_values(rt.values * 2)) == [[6, 2, 8, 2], [], [10, 18, 4], [12], []]


@pytest.mark.parametrize("make, error, message", [
    (lambda: RT.from_row_splits([1, 2, 3], [0, 3, 2]), tf.errors.InvalidArgumentError,
     "Arguments to from_row_splits do not form a valid RaggedTensor.  \nCondition x >= 0 did "
     "not hold element-wise:\nx (shape=(2,) dtype=int64) = \n['3', '-1']"),
    (lambda: RT.from_row_splits([1, 2, 3], [1, 2, 3]), tf.errors.InvalidArgumentError,
     "Arguments to from_row_splits do not form a valid RaggedTensor\nCondition x == y did not "
     "hold.\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[0]"),
    (lambda: RT.from_row_splits([1, 2, 3], [0, 2]), tf.errors.InvalidArgumentError,
     "First 1 elements of x:\n[2]\nFirst 1 elements of y:\n[3]"),
    (lambda: RT.from_row_splits([1, 2, 3], []), ValueError, "row_splits tensor may not be empty."),
    (lambda: RT.from_row_lengths([1, 2, 3], [4, -1]), tf.errors.InvalidArgumentError,
     "Arguments to from_row_lengths do not form a valid RaggedTensor.  \nCondition x >= 0"),
    (lambda: RT.from_value_rowids([1, 2, 3], [0, 2, 1]), tf.errors.InvalidArgumentError,
     "from_value_rowids do not form a valid RaggedTensor.  \nCondition x >= 0 did not hold "
     "element-wise:\nx (shape=(2,) dtype=int64) = \n['2', '-1']"),
    (lambda: RT.from_value_rowids([1, 2, 3], [0, 1, 2], nrows=2), ValueError,
     "Expected nrows >= value_rowids[-1] + 1; got nrows=2, value_rowids[-1]=2"),
    (lambda: RT.from_value_rowids([1, 2, 3], [0, 1, 2], nrows=-1), ValueError,
     "Expected nrows >= 0; got -1"),
    (lambda: RT.from_value_rowids([1, 2, 3], [0, 1]), ValueError,
     "Shapes (3,) and (2,) are incompatible"),
    (lambda: RT.from_row_starts([1, 2, 3], [1, 2]), tf.errors.InvalidArgumentError,
     "from_row_starts do not form a valid RaggedTensor\nCondition x == y"),
    (lambda: RT.from_row_limits([1, 2, 3], [1, 2]), tf.errors.InvalidArgumentError,
     "from_row_limits do not form a valid RaggedTensor\nCondition x == y"),
    (lambda: RT.from_row_splits([1, 2, 3], [0., 3.]), ValueError,
     "row_splits must have dtype int32 or int64"),
    (lambda: RT.from_row_splits([1, 2, 3], [[0, 3]]), ValueError, "must have rank 1"),
    (lambda: RT([1], [0, 1]), ValueError, "RaggedTensor constructor is private; please use one "
     "of the factory methods instead (e.g., RaggedTensor.from_row_lengths())"),
    (lambda: RT.from_row_splits([1], [0, 1], validate=1), TypeError,
     "validate must have type bool"),
    (lambda: rt4().with_values([1, 2]), ValueError, "Shapes (6,) and (2,) are incompatible"),
])
def test_validation_errors(make, error, message):
  with pytest.raises(error) as info:
    make()
  assert message in str(info.value)


def test_python_protocols_are_tf_1_15s():
  rt = rt4()
  assert rt == rt and rt != rt4() and isinstance(hash(rt), int)  # identity, as TF 1.15
  assert bool(rt) and not hasattr(rt, "numpy") and not tf.is_tensor(rt)
  with pytest.raises(TypeError, match="has no len"):
    len(rt)
  assert [r.numpy().tolist() for r in rt] == [[1, 2, 3], [], [4, 5], [6]]
  with pytest.raises(TypeError, match="Failed to convert object of type .*RaggedTensor"):
    tf.convert_to_tensor(rt)
  assert rt.to_list() == [[1, 2, 3], [], [4, 5], [6]]


# ---- Indexing ----
@pytest.mark.parametrize("key, expected", [
    (0, [1, 2, 3]), (1, []), (-1, [6]), (slice(1, 3), [[], [4, 5]]),
    (slice(None, None, 2), [[1, 2, 3], [4, 5]]),
    (slice(None, None, -1), [[6], [4, 5], [], [1, 2, 3]]),
    ((0, 1), 2), ((2, -1), 5), ((slice(None), slice(1, None)), [[2, 3], [], [5], []]),
    ((slice(None), slice(None, 2)), [[1, 2], [], [4, 5], [6]]),
    ((slice(None), slice(-1, None)), [[3], [], [5], [6]]),
    ((slice(None), slice(None, None, 2)), [[1, 3], [], [4], [6]]),
    ((slice(None), slice(None, None, -1)), [[3, 2, 1], [], [5, 4], [6]]),
    ((slice(None), slice(-2, None, -1)), [[2, 1], [], [4], []]),
    ((slice(None, None, -2), slice(1, None)), [[], []]),
    ((slice(None), slice(1, -1)), [[2], [], [], []]),
    (None, [[[1, 2, 3], [], [4, 5], [6]]]),
    ((slice(None), None), [[[1, 2, 3]], [[]], [[4, 5]], [[6]]]),
    ((0, None), [[1, 2, 3]]), (Ellipsis, [[1, 2, 3], [], [4, 5], [6]]), (slice(3, 1), []),
    ([0, 1], 2),
])
def test_getitem(key, expected):
  assert lst(rt4()[key]) == expected


def test_getitem_nested_uniform_and_errors():
  n, u = nested(), uniform()
  assert lst(n[0]) == [[1, 2], [3]] and lst(n[0, 1]) == [3] and lst(n[2, 0, 1]) == 5
  assert lst(n[:, 1:]) == [[[3]], [], [[], [7]]]
  assert lst(n[:, :, :1]) == lst(n[..., :1]) == [[[1], [3]], [], [[4], [], [7]]]
  assert lst(n[1:, ::-1]) == [[], [[7], [], [4, 5, 6]]]
  assert lst(u[0]) == [[1, 2], [3, 4]] and lst(u[:, :, 0]) == [[1, 3], [5]]
  assert lst(u[..., 1]) == [[2, 4], [6]] and lst(u[0, :, 0]) == [1, 3]
  assert lst(rt4()[tf.constant(1)]) == [] and lst(rt4()[tf.constant(-1)]) == [6]
  rt = rt4()
  for key in [(slice(None), 0), (Ellipsis, 0)]:
    with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension."):
      rt[key]
  with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension."):
    n[0, :, 0]
  with pytest.raises(IndexError, match="Row key 4 out of bounds"):
    rt[4]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"slice index -1 of dimension 0 out of bounds. \[Op:StridedSlice\]"):
    rt[-5]
  with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 5 of dimension 0"):
    rt[0, 5]
  with pytest.raises(TypeError, match="Only integers, slices"):
    rt[1.0]


# ---- Conversions ----
def test_to_tensor_and_from_tensor():
  assert lst(rt4().to_tensor()) == [[1, 2, 3], [0, 0, 0], [4, 5, 0], [6, 0, 0]]
  assert lst(rt4().to_tensor(default_value=-1)) == [[1, 2, 3], [-1, -1, -1], [4, 5, -1],
                                                    [6, -1, -1]]
  assert lst(nested().to_tensor(9)) == [[[1, 2, 9], [3, 9, 9], [9, 9, 9]], [[9, 9, 9]] * 3,
                                        [[4, 5, 6], [9, 9, 9], [7, 9, 9]]]
  assert lst(uniform().to_tensor(-1.)) == [[[1., 2.], [3., 4.]], [[5., 6.], [-1., -1.]]]
  assert lst(uniform().to_tensor([7., 8.])) == [[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]]
  strings = tf.ragged.constant([["a"], ["b", "c"]]).to_tensor()
  assert strings.dtype == tf.string and lst(strings) == [[b"a", b""], [b"b", b"c"]]
  empty = tf.ragged.constant([[], []], dtype=tf.float32).to_tensor()
  assert empty.shape.as_list() == [2, 0] and empty.dtype == tf.float32
  dense = [[1, 2, 0], [3, 0, 0]]
  assert lst(RT.from_tensor(dense)) == dense and lst(RT.from_tensor(dense).row_splits) == [0, 3, 6]
  assert lst(RT.from_tensor(dense, lengths=[2, 1])) == [[1, 2], [3]]
  assert lst(RT.from_tensor(dense, padding=0)) == [[1, 2], [3]]
  assert lst(RT.from_tensor([[1, 0, 2, 0], [0, 0, 0, 0]], padding=0)) == [[1, 0, 2], []]
  cube = [[[1, 0], [2, 3]], [[0, 0], [4, 0]]]
  assert lst(RT.from_tensor(cube, padding=0, ragged_rank=2)) == [[[1], [2, 3]], [[], [4]]]
  assert lst(RT.from_tensor([[[1, 0], [0, 0]], [[0, 0], [4, 0]]], padding=[0, 0])) == \
      [[[1, 0]], [[0, 0], [4, 0]]]
  assert lst(RT.from_tensor(cube, lengths=[1, 2])) == [[[1, 0]], [[0, 0], [4, 0]]]
  assert lst(RT.from_tensor(cube, lengths=([1, 2], [1, 2, 1]), ragged_rank=2)) == \
      [[[1]], [[0, 0], [4]]]
  assert lst(RT.from_tensor(cube, lengths=[1, 2, 0, 1], ragged_rank=2)) == \
      [[[1], [2, 3]], [[], [4]]]
  assert lst(RT.from_tensor([["a", ""], ["", ""]], padding="")) == [[b"a"], []]
  assert lst(RT.from_tensor([[1, 2]], lengths=[3])) == [[1, 2]]
  assert RT.from_tensor([[1]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
  with pytest.raises(ValueError, match="Specify lengths or padding, but not both"):
    RT.from_tensor([[1]], lengths=[1], padding=0)
  with pytest.raises(ValueError, match="ragged_rank must be greater than 0; got 0"):
    RT.from_tensor([[1]], ragged_rank=0)
  with pytest.raises(ValueError, match=r"Shape \(1, 1\) must have rank at least 3"):
    RT.from_tensor([[1]], ragged_rank=2)


def test_sparse_conversions():
  st = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [4, 3])
  assert lst(RT.from_sparse(st)) == [[1, 2], [], [3], []]
  with pytest.raises(ValueError, match="rank\\(st_input\\) must be 2"):
    RT.from_sparse(tf.SparseTensor([[0, 0, 0]], [1], [1, 1, 1]))
  with pytest.raises(tf.errors.InvalidArgumentError, match="SparseTensor is not right-ragged"):
    RT.from_sparse(tf.SparseTensor([[0, 1]], [1], [2, 2]))
  with pytest.raises(TypeError, match="Expected SparseTensor, got list"):
    RT.from_sparse([1])
  sp = rt4().to_sparse()
  assert lst(sp.indices) == [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]]
  assert lst(sp.values) == [1, 2, 3, 4, 5, 6] and lst(sp.dense_shape) == [4, 3]
  sp = nested().to_sparse()
  assert lst(sp.indices) == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [2, 0, 0], [2, 0, 1], [2, 0, 2],
                             [2, 2, 0]] and lst(sp.dense_shape) == [3, 3, 3]
  sp = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).to_sparse()
  assert lst(sp.indices) == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1]]
  assert lst(sp.values) == [1, 2, 3, 4, 5, 6] and lst(sp.dense_shape) == [2, 2, 2]


def test_ragged_tensor_spec():
  spec = tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32)
  assert (spec.shape.as_list(), spec.dtype, spec.ragged_rank, spec.row_splits_dtype) == (
      [2, None], tf.int32, 1, tf.int64)
  assert spec == tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32)
  assert tf.RaggedTensorSpec([None, None, 3], tf.float32, ragged_rank=1).ragged_rank == 1
  assert not spec.is_compatible_with(rt4())
  assert tf.RaggedTensorSpec.from_value(rt4()).shape.as_list() == [4, None]
  assert spec.value_type is RT
  with pytest.raises(ValueError, match="Must specify ragged_rank or a shape with a known rank."):
    tf.RaggedTensorSpec()
  with pytest.raises(ValueError, match="ragged_rank must be less than rank."):
    tf.RaggedTensorSpec(shape=[2, None], ragged_rank=2)


# ---- Elementwise ops, operators and broadcasting ----
def test_operators():
  rt, r2 = rt4(), tf.ragged.constant([[10, 20, 30], [], [40, 50], [60]])
  assert lst(tf.add(rt, r2)) == [[11, 22, 33], [], [44, 55], [66]]
  assert lst(tf.add(rt, 1)) == lst(1 + rt) == [[2, 3, 4], [], [5, 6], [7]]
  assert lst(rt - r2) == [[-9, -18, -27], [], [-36, -45], [-54]]
  assert lst(10 - rt) == [[9, 8, 7], [], [6, 5], [4]]
  assert lst(rt * 2) == [[2, 4, 6], [], [8, 10], [12]]
  div = rt / 2
  assert div.dtype == tf.float64 and lst(div) == [[0.5, 1.0, 1.5], [], [2.0, 2.5], [3.0]]
  assert lst(rt // 2) == [[0, 1, 1], [], [2, 2], [3]]
  assert lst(rt % 2) == [[1, 0, 1], [], [0, 1], [0]]
  assert lst(rt ** 2) == [[1, 4, 9], [], [16, 25], [36]] and lst(2 ** rt)[0] == [2, 4, 8]
  assert lst(-rt) == [[-1, -2, -3], [], [-4, -5], [-6]] and lst(abs(-rt)) == lst(rt)
  assert lst(rt < 3) == [[True, True, False], [], [False, False], [False]]
  assert lst(rt >= r2) == [[False, False, False], [], [False, False], [False]]
  assert lst((rt > 1) & (rt < 5)) == [[False, True, True], [], [True, False], [False]]
  assert lst(~(rt > 1)) == [[True, False, False], [], [False, False], [False]]
  assert lst(tf.equal(rt, 2)) == [[False, True, False], [], [False, False], [False]]
  assert lst(tf.maximum(rt, 3)) == [[3, 3, 3], [], [4, 5], [6]]
  assert lst(tf.minimum(rt, r2)) == lst(rt) and lst(tf.subtract(r2, rt))[0] == [9, 18, 27]
  assert lst(tf.multiply(rt, r2))[2] == [160, 250]
  rf = tf.ragged.constant([[1., 2., 3.], [], [4., 5.], [6.]])
  assert lst(tf.math.squared_difference(rf, 1.)) == [[0.0, 1.0, 4.0], [], [9.0, 16.0], [25.0]]
  assert lst(tf.math.floormod(rf, 4.)) == [[1.0, 2.0, 3.0], [], [0.0, 1.0], [2.0]]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="cannot compute AddV2 as input #1\\(zero-based\\) was expected to be a "
                           "int32 tensor but is a float tensor"):
    rt + 1.5


def test_unary_ops_cast_and_list_ops():
  rf = tf.ragged.constant([[1., 2., 3.], [], [4., 5.], [6.]])
  exp = tf.exp(rf)
  assert exp.dtype == tf.float32 and lst(exp.row_splits) == [0, 3, 3, 5, 6]
  np.testing.assert_allclose(exp.flat_values.numpy(), [2.7182817, 7.389056, 20.085537,
                                                       54.59815, 148.41316, 403.4288], rtol=1e-6)
  np.testing.assert_allclose(tf.sqrt(rf).flat_values.numpy(),
                             [1.0, 1.4142135, 1.7320508, 2.0, 2.236068, 2.4494898], rtol=1e-6)
  np.testing.assert_allclose(tf.math.log(rf).flat_values.numpy(),
                             [0.0, 0.6931472, 1.0986123, 1.3862944, 1.609438, 1.7917595], rtol=1e-6)
  assert lst(tf.square(rt4())) == [[1, 4, 9], [], [16, 25], [36]]
  assert lst(tf.abs(tf.ragged.constant([[-1, 2], [-3]]))) == [[1, 2], [3]]
  cast = tf.cast(rt4(), tf.float32)
  assert cast.dtype == tf.float32 and lst(cast) == [[1., 2., 3.], [], [4., 5.], [6.]]
  assert lst(tf.exp(tf.ragged.constant([[[0.]], []]))) == [[[1.0]], []]
  assert lst(tf.zeros_like(rt4())) == [[0, 0, 0], [], [0, 0], [0]]
  assert lst(tf.ones_like(rt4(), dtype=tf.float32)) == [[1., 1., 1.], [], [1., 1.], [1.]]
  assert lst(tf.identity(rt4())) == lst(rt4())
  assert lst(tf.clip_by_value(rt4(), 2, 4)) == [[2, 2, 3], [], [4, 4], [4]]
  assert lst(tf.add_n([rt4(), rt4()])) == [[2, 4, 6], [], [8, 10], [12]]
  joined = tf.strings.join([tf.ragged.constant([["a"], ["b", "c"]]), "x"])
  assert lst(joined) == [[b"ax"], [b"bx", b"cx"]]
  words = tf.ragged.constant([["ab"], ["cbc", ""]])
  assert lst(tf.strings.regex_replace(words, "b", "x")) == [[b"ax"], [b"cxc", b""]]
  assert lst(tf.strings.length(words)) == [[2], [3, 0]]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
    tf.exp(rt4())
  with pytest.raises(TypeError, match="Failed to convert object"):  # not in TF 1.15's list
    tf.tanh(rf)


def test_broadcasting():
  rt = rt4()
  assert lst(tf.add(rt, tf.constant([[1], [2], [3], [4]]))) == [[2, 3, 4], [], [7, 8], [10]]
  assert lst(tf.constant([[1], [2], [3], [4]]) + rt) == [[2, 3, 4], [], [7, 8], [10]]
  assert lst(tf.add(rt, tf.constant([1]))) == [[2, 3, 4], [], [5, 6], [7]]
  assert lst(nested() + 1) == [[[2, 3], [4]], [], [[5, 6, 7], [], [8]]]
  u = uniform()
  assert lst(u + tf.constant([10., 20.])) == [[[11., 22.], [13., 24.]], [[15., 26.]]]
  assert lst(u + tf.constant([[[1.]], [[2.]]])) == [[[2., 3.], [4., 5.]], [[7., 8.]]]
  assert lst(u * u) == [[[1., 4.], [9., 16.]], [[25., 36.]]]
  message = ("Condition x == y did not hold.\nIndices of first 3 different values:\n[[1]\n [2]\n"
             " [3]]\nCorresponding x values:\n[3 3 5]\nCorresponding y values:\n[1 2 3]\nFirst 3 "
             "elements of x:\n[0 3 3]\nFirst 3 elements of y:\n[0 1 2]")
  for other in [tf.ragged.constant([[1], [2], [3], [4]]), tf.ragged.constant([[1]])]:
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
      tf.add(rt, other)
    assert str(info.value) == message
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.add(rt, tf.constant([1, 2, 3]))
  assert "Corresponding x values:\n[ 6  9 12]\nCorresponding y values:\n[3 5 6]" in str(info.value)
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    nested() + tf.ragged.constant([[1, 2], [], [3, 4, 5]])
  assert "First 3 elements of x:\n[0 3 6]\nFirst 3 elements of y:\n[0 2 2]" in str(info.value)


def test_gradient_through_ragged_ops():
  v = tf.Variable([1., 2., 3., 4.])
  with tf.GradientTape() as tape:
    rt = RT.from_row_lengths(v * 1.0, [3, 1])
    loss = (tf.reduce_sum(tf.reduce_mean(rt * rt, axis=1)) + tf.reduce_sum(rt.to_tensor())
            + tf.reduce_sum(rt[:, 1:].flat_values))
  assert abs(loss.numpy() - 35.666664) < 1e-5
  np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [1.6666667, 3.3333335, 4., 9.],
                             rtol=1e-6)


def test_tensor_fast_path_is_unchanged():
  """Hot ops check for RaggedTensors only where converting an input failed: no wrapper."""
  from tfe_compat.ops import math_ops, matmul_cast_ops, reduction_ops
  assert tf.add is math_ops.add and tf.exp is math_ops.exp and tf.cast is matmul_cast_ops.cast
  assert tf.reduce_sum is reduction_ops.reduce_sum


# ---- Reductions ----
def test_reductions():
  rt = rt4()
  rf = tf.cast(rt, tf.float32)
  assert tf.reduce_sum(rt).numpy() == 21 and tf.reduce_sum(rt, axis=[0, 1]).numpy() == 21
  assert lst(tf.reduce_sum(rt, axis=0)) == [11, 7, 3]
  assert lst(tf.reduce_sum(rt, axis=1)) == lst(tf.reduce_sum(rt, axis=-1)) == [6, 0, 9, 6]
  assert lst(tf.compat.v1.reduce_sum(rt, reduction_indices=1)) == [6, 0, 9, 6]
  mean = tf.reduce_mean(rf, axis=1)
  assert mean.dtype == tf.float32 and np.isnan(lst(mean)[1])
  assert [lst(mean)[i] for i in (0, 2, 3)] == [2.0, 4.5, 6.0]
  np.testing.assert_allclose(lst(tf.reduce_mean(rf, axis=0)), [3.6666667, 3.5, 3.0], rtol=1e-6)
  assert tf.reduce_mean(rt, axis=1).dtype == tf.float64 and tf.reduce_mean(rf).numpy() == 3.5
  assert lst(tf.reduce_max(rt, axis=1)) == [3, -2147483648, 5, 6]
  assert lst(tf.reduce_max(rf, axis=1))[1] == np.finfo(np.float32).min
  assert lst(tf.reduce_min(rt, axis=1)) == [1, 2147483647, 4, 6]
  assert lst(tf.reduce_max(rt, axis=0)) == [6, 5, 3] and lst(tf.reduce_min(rf, axis=0)) == [1, 2, 3]
  assert lst(tf.reduce_prod(rt, axis=1)) == [6, 1, 20, 6]
  assert lst(tf.reduce_prod(rf, axis=0)) == [24., 10., 3.]
  assert lst(tf.reduce_any(rt > 2, axis=1)) == [True, False, True, True]
  assert lst(tf.reduce_all(rt > 2, axis=1)) == [False, True, True, True]
  n = nested()
  assert lst(tf.reduce_sum(n, axis=2)) == [[3, 3], [], [15, 0, 7]]
  assert lst(tf.reduce_sum(n, axis=1)) == [[4, 2], [], [11, 5, 6]]
  assert lst(tf.reduce_sum(n, axis=0)) == [[5, 7, 6], [3], [7]]
  assert tf.reduce_sum(n).numpy() == 28 and lst(tf.reduce_sum(n, axis=[1, 2])) == [6, 0, 22]
  mean2 = tf.reduce_mean(tf.cast(n, tf.float32), axis=2).to_list()
  assert mean2[0] == [1.5, 3.0] and mean2[2][0] == 5.0 and np.isnan(mean2[2][1])
  u = uniform()
  assert lst(tf.reduce_sum(u, axis=2)) == [[3., 7.], [11.]]
  assert lst(tf.reduce_sum(u, axis=1)) == [[4., 6.], [5., 6.]]
  assert lst(tf.reduce_sum(u, axis=0)) == [[6., 8.], [3., 4.]]
  assert lst(tf.reduce_max(u, axis=1)) == [[3., 4.], [5., 6.]]
  with pytest.raises(ValueError, match="axis=2 out of bounds: expected -2<=axis<2"):
    tf.reduce_sum(rt, axis=2)
  with pytest.raises(ValueError, match="keepdims=True is not supported for RaggedTensors."):
    tf.reduce_sum(rt, axis=1, keepdims=True)
  segments = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
  assert lst(tf.math.unsorted_segment_sum(segments, [0, 1, 0], 2)) == [[5, 7, 6], [3]]
  assert lst(tf.math.unsorted_segment_mean(tf.cast(segments, tf.float32), [0, 1, 0], 2)) == \
      [[2.5, 3.5, 6.0], [3.0]]


# ---- concat / stack / gather / expand_dims ----
def test_concat_and_stack():
  rt, r2 = rt4(), tf.ragged.constant([[10, 20, 30], [], [40, 50], [60]])
  assert lst(tf.concat([rt, r2], axis=0)) == lst(rt) + lst(r2)
  assert lst(tf.concat([rt, r2], axis=1)) == [[1, 2, 3, 10, 20, 30], [], [4, 5, 40, 50], [6, 60]]
  assert lst(tf.concat([rt, tf.constant([[7, 8]] * 4)], axis=1)) == \
      [[1, 2, 3, 7, 8], [7, 8], [4, 5, 7, 8], [6, 7, 8]]
  assert lst(tf.concat([rt, tf.constant([[7, 8]])], axis=0)) == lst(rt) + [[7, 8]]
  n = nested()
  assert lst(tf.concat([n, n], axis=1)) == [[[1, 2], [3], [1, 2], [3]], [],
                                            [[4, 5, 6], [], [7], [4, 5, 6], [], [7]]]
  assert lst(tf.concat([n, n], axis=2)) == [[[1, 2, 1, 2], [3, 3]], [],
                                            [[4, 5, 6, 4, 5, 6], [], [7, 7]]]
  assert lst(tf.concat([rt], axis=0)) == lst(rt)
  strings = tf.concat([tf.ragged.constant([["a"]]), tf.ragged.constant([["b", "c"]])], axis=1)
  assert lst(strings) == [[b"a", b"b", b"c"]]
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.concat([rt, tf.ragged.constant([[1]])], axis=1)
  assert str(info.value) == ("Input tensors have incompatible shapes.\nCondition x == y did not "
                             "hold.\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[4]")
  with pytest.raises(ValueError, match=r"Shape \(3, \?, \?\) must have rank 2"):
    tf.concat([rt, n], axis=0)
  with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute ConcatV2 as input #1"):
    tf.concat([rt, tf.cast(rt, tf.float32)], axis=0)
  with pytest.raises(ValueError, match="axis=2 out of bounds: expected -2<=axis<2"):
    tf.concat([rt, r2], axis=2)
  assert lst(tf.stack([rt, r2], axis=0)) == [lst(rt), lst(r2)]
  stacked = [[[1, 2, 3], [10, 20, 30]], [[], []], [[4, 5], [40, 50]], [[6], [60]]]
  assert lst(tf.stack([rt, r2], axis=1)) == lst(tf.ragged.stack([rt, r2], axis=1)) == stacked
  pairs = [[[1, 10], [2, 20], [3, 30]], [], [[4, 40], [5, 50]], [[6, 60]]]
  assert lst(tf.stack([rt, r2], axis=2)) == lst(tf.ragged.stack([rt, r2], axis=-1)) == pairs
  mixed = tf.stack([tf.ragged.constant([[1, 2], [3]]), tf.constant([[1, 2], [3, 4]])], axis=0)
  assert lst(mixed) == [[[1, 2], [3]], [[1, 2], [3, 4]]]
  vectors = tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4])])
  assert isinstance(vectors, RT) and lst(vectors) == [[1, 2], [3, 4]]
  assert lst(tf.ragged.stack([rt])) == [lst(rt)]


def test_gather_and_expand_dims():
  rt = rt4()
  assert lst(tf.gather(rt, [3, 0])) == [[6], [1, 2, 3]] and lst(tf.gather(rt, 2)) == [4, 5]
  assert lst(tf.gather(nested(), [2, 0])) == [[[4, 5, 6], [], [7]], [[1, 2], [3]]]
  assert lst(tf.gather(rt, [[0, 2], [3, 3]])) == [[[1, 2, 3], [4, 5]], [[6], [6]]]
  assert lst(tf.gather(rt, tf.ragged.constant([[0], [3, 1]]))) == [[[1, 2, 3]], [[6], []]]
  assert lst(tf.expand_dims(rt, 0)) == [lst(rt)]
  assert lst(tf.expand_dims(rt, 1)) == [[[1, 2, 3]], [[]], [[4, 5]], [[6]]]
  assert lst(tf.expand_dims(rt, 2)) == [[[1], [2], [3]], [], [[4], [5]], [[6]]]


# ---- tf.ragged ----
def test_ragged_constant():
  assert lst(tf.ragged.constant([[1, 2], [3]])) == [[1, 2], [3]]
  assert tf.ragged.constant([[1.5, 2], [3]]).dtype == tf.float32
  assert tf.ragged.constant([[2**40], [3]]).dtype == tf.int64
  assert tf.ragged.constant([[True], []]).dtype == tf.bool
  assert lst(tf.ragged.constant([["a", b"b"], []])) == [[b"a", b"b"], []]
  assert lst(tf.ragged.constant([[1, 2], [3]], dtype=tf.float32)) == [[1.0, 2.0], [3.0]]
  assert tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).shape.as_list() == \
      [2, None, 2]
  assert tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], inner_shape=(2,)).ragged_rank == 1
  assert tf.ragged.constant([[1, 2], [3, 4]]).shape.as_list() == [2, None]
  empty = tf.ragged.constant([])
  assert isinstance(empty, tf.Tensor) and empty.dtype == tf.float32 and empty.shape == (0,)
  assert tf.ragged.constant([[], []]).dtype == tf.float32
  assert tf.ragged.constant([[[]], []]).ragged_rank == 2
  assert isinstance(tf.ragged.constant(5), tf.Tensor) and lst(tf.ragged.constant([1, 2])) == [1, 2]
  assert tf.ragged.constant([[1], [2]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
  assert lst(tf.ragged.constant([np.array([1, 2]), np.array([3])])) == [[1, 2], [3]]
  for kwargs, message in [({"pylist": [[1, [2]], [3]]}, "all scalar values must have the same "
                           "nesting depth"),
                          ({"pylist": [[1, 2], [3]], "ragged_rank": 2}, "pylist has scalar "
                           "values depth 2, but ragged_rank=2 requires scalar value depth "
                           "greater than 2"),
                          ({"pylist": [[1, 2], [3]], "ragged_rank": 0}, "Can't convert "
                           "non-rectangular Python sequence to Tensor."),
                          ({"pylist": [[[1, 2], [3]], [[5, 6]]], "ragged_rank": 1},
                           "inner values have inconsistent shape")]:
    with pytest.raises(ValueError) as info:
      tf.ragged.constant(**kwargs)
    assert str(info.value) == message


def test_constant_value_and_ragged_tensor_value():
  value = tf.compat.v1.ragged.constant_value([[1, 2], [3]])
  assert isinstance(value, tf.ragged.RaggedTensorValue)
  assert repr(value) == "tf.RaggedTensorValue(values=array([1, 2, 3]), row_splits=array([0, 2, 3]))"
  assert str(value) == "<tf.RaggedTensorValue [[1, 2], [3]]>"
  assert value.dtype == np.int64 and value.shape == (2, None) and value.ragged_rank == 1
  assert value.to_list() == [[1, 2], [3]] and value.values.tolist() == [1, 2, 3]
  inner = tf.compat.v1.ragged.constant_value([[[1, 2]], []])
  assert repr(inner) == ("tf.RaggedTensorValue(values=tf.RaggedTensorValue(values=array([1, 2]), "
                         "row_splits=array([0, 2])), row_splits=array([0, 1, 1]))")
  assert [s.tolist() for s in inner.nested_row_splits] == [[0, 1, 1], [0, 2]]
  assert inner.flat_values.tolist() == [1, 2]
  assert tf.compat.v1.ragged.constant_value([1, 2]).tolist() == [1, 2]
  made = tf.ragged.RaggedTensorValue(np.array([1, 2, 3]), np.array([0, 2, 3]))
  assert made.to_list() == [[1, 2], [3]]
  assert lst(tf.add(made, 1)) == [[2, 3], [4]]  # converted where a RaggedTensor is accepted
  with pytest.raises(TypeError, match="row_splits must be a 1D int32 or int64 numpy array"):
    tf.ragged.RaggedTensorValue(np.array([1]), [0, 1])


def test_ragged_range():
  assert lst(tf.ragged.range([3, 5, 2])) == [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]
  assert lst(tf.ragged.range([0, 5, 8], [3, 3, 12])) == [[0, 1, 2], [], [8, 9, 10, 11]]
  assert lst(tf.ragged.range(0, [3, 3, 12], 2)) == [[0, 2], [0, 2], [0, 2, 4, 6, 8, 10]]
  assert lst(tf.ragged.range([0, 5, 8], [3, 3, 12], [1, -1, 2])) == [[0, 1, 2], [5, 4], [8, 10]]
  floats = tf.ragged.range([0., 1.], 3., 0.5)
  assert floats.dtype == tf.float32
  assert lst(floats) == [[0.0, 0.5, 1.0, 1.5, 2.0, 2.5], [1.0, 1.5, 2.0, 2.5]]
  assert tf.ragged.range([3], dtype=tf.int64).dtype == tf.int64
  assert lst(tf.ragged.range(3)) == [[0, 1, 2]] and lst(tf.ragged.range([3]).row_splits) == [0, 3]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Requires delta != 0 \[Op:RaggedRange\]"):
    tf.ragged.range([3], 5, 0)


def test_boolean_mask():
  bm = tf.ragged.boolean_mask
  assert lst(bm([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, True, False]])) == \
      [[1, 3], [5]]
  rows = bm([[1, 2, 3], [4, 5, 6]], [True, False])
  assert isinstance(rows, tf.Tensor) and lst(rows) == [[1, 2, 3]]
  data = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
  assert lst(bm(data, tf.ragged.constant([[False, False, True], [True], [True, False]]))) == \
      [[3], [4], [5]]
  assert lst(bm(data, [True, False, True])) == [[1, 2, 3], [5, 6]]
  assert lst(bm([1, 2, 3], [True, False, True])) == [1, 3]
  assert lst(bm([[[1, 2], [3, 4]], [[5, 6], [7, 8]]],
                [[[True, False], [False, True]], [[False, False], [True, True]]])) == \
      [[[1], [4]], [[], [7, 8]]]
  assert lst(bm(tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[True, False], [True]]))) \
      == [[1], [3]]
  with pytest.raises(ValueError, match="mask cannot be scalar."):
    bm([1, 2, 3], True)
  with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(1, 3\) are incompatible"):
    bm([1, 2, 3], [[True, False, True]])


def test_map_flat_values_and_segment_ids():
  mfv = tf.ragged.map_flat_values
  a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[5, 6], [7]])
  assert lst(mfv(tf.ones_like, a)) == [[1, 1], [1]]
  assert lst(mfv(tf.multiply, a, b)) == [[5, 12], [21]]
  assert lst(mfv(tf.add, a, 5)) == [[6, 7], [8]]
  assert lst(mfv(tf.math.add, x=a, y=tf.ragged.constant([[1, 1], [1]]))) == [[2, 3], [4]]
  assert lst(mfv(tf.add, 1, 2)) == 3
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    mfv(tf.add, a, tf.ragged.constant([[1], [2, 3]]))
  assert str(info.value).startswith("Inputs must have identical ragged splits\nCondition x == y")
  with pytest.raises(ValueError, match="requires that the output of `op` have the same "
                                       "outer-dimension size"):
    mfv(lambda x: x[:1], a)
  ids = tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5, 6, 9])
  assert ids.dtype == tf.int64 and lst(ids) == [0, 0, 0, 2, 2, 3, 4, 4, 4]
  assert tf.ragged.row_splits_to_segment_ids(tf.constant([0, 3], tf.int32)).dtype == tf.int32
  assert tf.ragged.row_splits_to_segment_ids([0, 3], out_type=tf.int32).dtype == tf.int32
  with pytest.raises(ValueError, match=r"Shape \(1, 2\) must have rank 1"):
    tf.ragged.row_splits_to_segment_ids([[0, 3]])
  splits = tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2, 3, 4, 4, 4])
  assert splits.dtype == tf.int64 and lst(splits) == [0, 3, 3, 5, 6, 9]
  assert lst(tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2], num_segments=5)) == \
      [0, 3, 3, 5, 5, 5]
  assert tf.ragged.segment_ids_to_row_splits(tf.constant([0, 1], tf.int32)).dtype == tf.int32
  assert lst(tf.ragged.segment_ids_to_row_splits(tf.constant([], tf.int64))) == [0]


def test_stack_dynamic_partitions_and_placeholder():
  sdp = tf.ragged.stack_dynamic_partitions
  assert lst(sdp(["a", "b", "c", "d", "e"], [3, 0, 2, 2, 3], 5)) == \
      [[b"b"], [], [b"c", b"d"], [b"a", b"e"], []]
  assert lst(sdp(tf.ragged.constant([[1], [2, 3], [4]]), [1, 0, 1], 2)) == [[[2, 3]], [[1], [4]]]
  assert lst(sdp(tf.ragged.constant([[1], [2, 3], [4]]),
                 tf.ragged.constant([[1], [0, 1], [0]]), 2)) == [[2, 4], [1, 3]]
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    sdp([1, 2], [0, 5], 2)
  assert str(info.value) == ("partitions must be less than num_partitions\nCondition x < y did "
                             "not hold.\nFirst 1 elements of x:\n[5]\nFirst 1 elements of y:\n[2]")
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"partitions must be non-negative..  \nCondition x >= 0"):
    sdp([1, 2], [0, -1], 2)
  with pytest.raises(RuntimeError, match=r"tf.placeholder\(\) is not compatible with eager"):
    tf.compat.v1.ragged.placeholder(tf.int32, 1)
