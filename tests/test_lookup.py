"""tf.lookup, tf.contrib.lookup and tf.sparse.cross*: values and errors as TensorFlow's
(golden values from TF 2.21's same kernels; messages are TF 1.15's)."""
import pytest

import tfe_compat as tf

L, C = tf.lookup, tf.contrib.lookup
errors = tf.errors


def values(tensor):
  return tensor.numpy().tolist()


def sparse(sp):
  return values(sp.indices), values(sp.values), values(sp.dense_shape)


@pytest.fixture(name="vocab")
def vocab_file(tmp_path):
  path = tmp_path / "vocab.txt"
  path.write_bytes(b"a\nb\r\nc\nd\n")  # "\r\n" ends a line too
  return str(path)


def kv(keys, vals, **kwargs):
  return L.KeyValueTensorInitializer(keys, vals, **kwargs)


def test_static_hash_table():
  table = L.StaticHashTable(kv(tf.constant([3, 1, 2], tf.int64), [10., 20., 30.]), -1.)
  out = table.lookup(tf.constant([[1, 5], [2, 3]], tf.int64))
  assert values(out) == [[20., -1.], [30., 10.]] and out.dtype == tf.float32
  assert values(table[tf.constant([3], tf.int64)]) == [10.]
  assert values(table.size()) == 3 and table.size().dtype == tf.int64
  assert (table.key_dtype, table.value_dtype, table.name) == (tf.int64, tf.float32, None)
  assert table.initializer is None and values(table.default_value) == -1.
  keys, vals = table.export()
  assert sorted(zip(values(keys), values(vals))) == [(1, 20.), (2, 30.), (3, 10.)]
  with pytest.raises(TypeError, match="Signature mismatch. Keys must be dtype "
                                      "<dtype: 'int64'>, got <dtype: 'int32'>."):
    table.lookup(tf.constant([1]))
  assert values(L.StaticHashTable(kv([1, 2], [10, 20]), -1).lookup(tf.constant([1, 3]))) == [
      10, -1]
  assert values(L.StaticHashTable(kv([1, 2], ["p", "q"]), "z").lookup(tf.constant([1, 3]))) == [
      b"p", b"z"]
  assert values(L.StaticHashTable(kv(["a", "b"], [1.5, 2.5]), 0.).lookup(
      tf.constant(["b", "c"]))) == [2.5, 0.]
  assert values(L.StaticHashTable(kv(["a", "b"], [True, False]), False).lookup(
      tf.constant(["a", "c"]))) == [True, False]
  sp = L.StaticHashTable(kv(["a", "b", "c"], [1, 2, 3]), -1).lookup(
      tf.SparseTensor([[0, 0], [1, 2]], ["a", "z"], [2, 3]))
  assert sparse(sp) == ([[0, 0], [1, 2]], [1, -1], [2, 3])
  assert C.HashTable is L.StaticHashTable
  assert tf.tables_initializer() is None and tf.initialize_all_tables() is None
  assert tf.initializers.tables_initializer() is None


def test_static_hash_table_errors():
  with pytest.raises(errors.FailedPreconditionError, match="HashTable has different value for "
                     "same key. Key a has 1 and trying to add value 3"):
    L.StaticHashTable(kv(["a", "b", "a"], [1, 2, 3]), -1)
  assert values(L.StaticHashTable(kv(["a", "b", "a"], [1, 2, 1]), -1).size()) == 2
  with pytest.raises(errors.InvalidArgumentError, match=r"Expected shape \[2\] for value, got "
                     r"\[1\] \[Op:LookupTableImportV2\]"):
    L.StaticHashTable(kv(["a", "b"], [1]), -1)
  with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(\) are not compatible"):
    L.StaticHashTable(kv(["a"], [1]), [-1, 2])
  with pytest.raises(TypeError, match="Cannot convert -1.0 to EagerTensor of dtype int32"):
    L.StaticHashTable(kv(["a", "b"], [1, 2]), -1.)
  with pytest.raises(errors.NotFoundError):
    L.StaticHashTable(kv([1., 2.], [1, 2]), -1)
  with pytest.raises(errors.InvalidArgumentError, match="keys and values cannot be empty"):
    L.StaticHashTable(kv(tf.constant([], tf.int64), tf.constant([], tf.float32)), -1.)


def test_numeric_lookup_compiles_in_tf_function():
  table = L.StaticHashTable(kv(tf.constant([1, 5, 9], tf.int64), [10., 50., 90.]), -1.)
  fn = tf.function(lambda k: table.lookup(k) * 2.)
  assert values(fn(tf.constant([5, 6], tf.int64))) == [100., -2.]
  assert values(fn(tf.constant([9, 1], tf.int64))) == [180., 20.]
  assert next(iter(fn._concrete.values())).compiled  # pylint: disable=protected-access


def test_text_file_initializer(vocab, tmp_path):
  table = L.StaticHashTable(L.TextFileInitializer(vocab, tf.string, L.TextFileIndex.WHOLE_LINE,
                                                  tf.int64, L.TextFileIndex.LINE_NUMBER), -1)
  assert values(table.lookup(tf.constant(["a", "b", "b\r", "c", "", "d", "e"]))) == [
      0, 1, -1, 2, -1, 3, -1]
  assert values(table.size()) == 4
  cols = tmp_path / "cols.txt"
  cols.write_bytes(b"p 1.5\nq 2\nr 3.25\n")
  floats = L.StaticHashTable(L.TextFileInitializer(str(cols), tf.string, 0, tf.float32, 1,
                                                   delimiter=" "), -1.)
  assert values(floats.lookup(tf.constant(["p", "r"]))) == [1.5, 3.25]
  firsts = L.StaticHashTable(L.TextFileInitializer(str(cols), tf.string, 0, tf.string, 1,
                                                   vocab_size=2, delimiter=" "), "?")
  assert values(firsts.lookup(tf.constant(["q", "r"]))) == [b"2", b"?"]
  blank = tmp_path / "blank.txt"
  blank.write_bytes(b"a\n\nb\n")
  with pytest.raises(errors.InvalidArgumentError, match="Invalid content in .*blank.txt: empty "
                     "line found at position 3."):
    L.StaticHashTable(L.TextFileInitializer(str(blank), tf.string, -2, tf.int64, -1), -1)
  with pytest.raises(errors.InvalidArgumentError, match="Invalid number of columns in .*vocab"
                     r".txt line 0 \(a\) : expected at least 2 got 1"):
    L.StaticHashTable(L.TextFileInitializer(vocab, tf.string, 0, tf.int64, 1), -1)
  with pytest.raises(errors.InvalidArgumentError, match="Field p in line 0 is not a valid "
                     "int64."):
    L.StaticHashTable(L.TextFileInitializer(str(cols), tf.string, 0, tf.int64, 0,
                                            delimiter=" "), -1)
  with pytest.raises(errors.InvalidArgumentError, match="Invalid vocab_size in .*: expected 6 "
                     "but got 4"):
    L.StaticHashTable(L.TextFileInitializer(vocab, tf.string, -2, tf.int64, -1, vocab_size=6),
                      -1)
  with pytest.raises(errors.NotFoundError, match="No such file or directory"):
    L.StaticHashTable(L.TextFileInitializer(str(tmp_path / "no.txt"), tf.string, -2, tf.int64,
                                            -1), -1)


@pytest.mark.parametrize("args, message", [
    (("v", tf.string, -3, tf.int64, -1), "Invalid key index -3."),
    (("v", tf.string, -1, tf.int64, -1), "Signature mismatch. Keys must be dtype <dtype: "
     "'int64'>, got <dtype: 'string'>."),
    (("v", tf.float32, -2, tf.int64, -1), "Signature mismatch. Keys must be integer or string, "
     "got <dtype: 'float32'>."),
    (("v", tf.string, -2, tf.int32, -1), "Signature mismatch. Values must be dtype <dtype: "
     "'int64'>, got <dtype: 'int32'>."),
    (("", tf.string, -2, tf.int64, -1), "Filename required for None."),
    (("v", tf.string, -2, tf.int64, -1, 0), "Invalid vocab_size 0."),
])
def test_text_file_initializer_errors(args, message):
  with pytest.raises(ValueError, match=message):
    L.TextFileInitializer(*args)


def test_vocabulary_tables():
  words = tf.constant([["emerson", "lake"], ["and", "palmer"], ["king", "crimson"]])
  init = kv(["emerson", "lake", "palmer"], tf.constant([0, 1, 2], tf.int64))
  table = L.StaticVocabularyTable(init, 3)
  assert values(table.lookup(words)) == [[0, 1], [3, 2], [4, 3]]
  assert values(table.size()) == 6
  ints = L.StaticVocabularyTable(kv(tf.constant([10, 20], tf.int64),
                                    tf.constant([0, 1], tf.int64)), 5)
  assert values(ints.lookup(tf.constant([10, 30, 40, 20, -7], tf.int64))) == [0, 5, 5, 1, 4]
  assert values(L.StaticVocabularyTable(None, 7).lookup(tf.constant(["a", "b", "hello"]))) == [
      5, 2, 5]
  with pytest.raises(ValueError, match="oov_buckets must be > 0."):
    L.StaticVocabularyTable(None, 0)
  with pytest.raises(TypeError, match="Invalid value dtype, expected <dtype: 'int64'> but got "
                     "<dtype: 'int32'>."):
    L.StaticVocabularyTable(kv(["a"], [1]), 1)


def test_index_table_from_tensor():
  words = tf.constant([["emerson", "lake"], ["and", "palmer"], ["king", "crimson"]])
  vocab = ["emerson", "lake", "palmer"]
  assert values(C.index_table_from_tensor(vocab, num_oov_buckets=2).lookup(words)) == [
      [0, 1], [4, 2], [3, 3]]
  assert values(C.index_table_from_tensor(vocab, default_value=7).lookup(words)) == [
      [0, 1], [7, 2], [7, 7]]
  assert values(C.index_table_from_tensor([5, 9, 2], num_oov_buckets=3, dtype=tf.int32).lookup(
      tf.constant([2, 3, 9, 100]))) == [2, 3, 1, 3]
  assert values(C.index_table_from_tensor(tf.constant([5, 9, 2], tf.int64), dtype=tf.int64)
                .lookup(tf.constant([2, 3, 9, 100], tf.int64))) == [2, -1, 1, -1]
  strong = C.index_table_from_tensor(["a"], num_oov_buckets=10,
                                     hasher_spec=C.StrongHashSpec((1, 2)))
  assert values(strong.lookup(tf.constant(["a", "b", "c", "d"]))) == [0, 5, 10, 9]
  legacy = C.index_table_from_tensor(["a"], num_oov_buckets=10,
                                     hasher_spec=C.HasherSpec("legacy", None))
  assert values(legacy.lookup(tf.constant(["a", "b", "c", "d"]))) == [0, 1, 8, 10]
  sp = C.index_table_from_tensor(["a", "b"], num_oov_buckets=1).lookup(
      tf.SparseTensor([[0, 0], [1, 1]], ["b", "zz"], [2, 2]))
  assert sparse(sp) == ([[0, 0], [1, 1]], [1, 2], [2, 2])
  with pytest.raises(ValueError, match="Expected integer, got <dtype: 'string'>."):
    C.index_table_from_tensor(["a"], dtype=tf.int64)
  with pytest.raises(ValueError, match="Expected non-integer, got <dtype: 'int32'>."):
    C.index_table_from_tensor([1], dtype=tf.string)
  with pytest.raises(ValueError, match="num_oov_buckets must be greater or equal than 0, got "
                     "-1."):
    C.index_table_from_tensor(["a"], num_oov_buckets=-1)
  with pytest.raises(TypeError, match="Only integer and string keys are supported."):
    C.index_table_from_tensor(["a"], dtype=tf.float32)
  with pytest.raises(errors.FailedPreconditionError, match="Key a has 0 and trying to add "
                     "value 2"):
    C.index_table_from_tensor(["a", "b", "a"])


def test_index_tables_from_file_and_to_string(vocab):
  table = C.index_table_from_file(vocab, num_oov_buckets=1)
  assert values(table.lookup(tf.constant(["a", "c", "q", "d"]))) == [0, 2, 4, 3]
  assert values(C.index_table_from_file(vocab, vocab_size=2).lookup(
      tf.constant(["a", "c", "b"]))) == [0, -1, 1]
  with pytest.raises(ValueError, match="vocabulary_file must be specified and must not be "
                     "empty."):
    C.index_table_from_file("")
  with pytest.raises(ValueError, match="vocab_size must be greater than 0, got 0."):
    C.index_table_from_file(vocab, vocab_size=0)
  assert values(C.index_to_string_table_from_file(vocab).lookup(
      tf.constant([0, 3, 4], tf.int64))) == [b"a", b"d", b"UNK"]
  strings = C.index_to_string_table_from_tensor(["a", "b", "c"])
  assert values(strings.lookup(tf.constant([[0, 5], [2, -1]], tf.int64))) == [
      [b"a", b"UNK"], [b"c", b"UNK"]]
  assert values(C.index_to_string_table_from_tensor(["a", "b"], default_value="?").lookup(
      tf.constant([1, 3], tf.int64))) == [b"b", b"?"]


def test_id_table_with_hash_buckets():
  assert values(C.IdTableWithHashBuckets(None, 5).lookup(tf.constant(["x", "y"]))) == [0, 0]
  assert values(C.IdTableWithHashBuckets(None, 5, key_dtype=tf.int64).lookup(
      tf.constant([1, 2, 3], tf.int64))) == [4, 4, 1]
  assert values(C.IdTableWithHashBuckets(C.index_table_from_tensor(["a", "b"]), 5).size()) == 7
  with pytest.raises(TypeError, match="hasher_spec must be of type HasherSpec, got x"):
    C.IdTableWithHashBuckets(None, 5, hasher_spec="x")
  with pytest.raises(ValueError, match="oov_buckets must be > 0 if no table is supplied."):
    C.IdTableWithHashBuckets(None, 0)


def test_mutable_hash_table():
  table = C.MutableHashTable(tf.string, tf.float32, -1.)
  assert table.insert(tf.constant(["a", "b"]), tf.constant([1., 2.])) is None
  assert values(table.lookup(tf.constant(["a", "c"]))) == [1., -1.]
  table.remove(tf.constant(["a"]))
  assert values(table.lookup(tf.constant(["a", "b"]))) == [-1., 2.] and values(table.size()) == 1
  keys, vals = table.export()
  assert values(keys) == [b"b"] and values(vals) == [2.]
  vectors = C.MutableHashTable(tf.int64, tf.float32, [0., -1.])
  vectors.insert(tf.constant([1, 2], tf.int64), tf.constant([[1., 2.], [3., 4.]]))
  assert values(vectors.lookup(tf.constant([2, 5], tf.int64))) == [[3., 4.], [0., -1.]]
  with pytest.raises(errors.InvalidArgumentError, match=r"Expected shape \[2\] for value, got "
                     r"\[1\]"):
    table.insert(tf.constant(["a", "b"]), tf.constant([1.]))
  with pytest.raises(TypeError, match="Signature mismatch"):
    table.remove(tf.constant([1]))


def test_dense_hash_table_buckets_match_tf():
  table = L.experimental.DenseHashTable(tf.int64, tf.float32, default_value=-1., empty_key=0,
                                        deleted_key=-1, initial_num_buckets=8)
  table.insert(tf.constant([5, 13, 21], tf.int64), tf.constant([1., 2., 3.]))
  table.remove(tf.constant([13, 99], tf.int64))
  table.insert(tf.constant([29, 3, 4, 6, 9, 13], tf.int64), tf.constant([1., 2., 3., 4, 5, 6]))
  keys, vals = table.export()  # grown to 16 buckets; TF's probing order
  assert keys.shape == (16, 1)
  assert [k[0] for k in values(keys)] == [
      0, 0, 0, 3, 4, 21, 5, 6, 0, 9, 0, 0, 0, 29, 13, 0]
  assert [v[0] for v in values(vals)] == [0., 0., 0., 2., 3., 3., 1., 4., 0., 5., 0., 0., 0.,
                                          1., 6., 0.]
  assert values(table.size()) == 8
  assert values(table.lookup(tf.constant([5, 13, 21, 7, 29], tf.int64))) == [1., 6., 3., -1., 1.]
  strings = L.experimental.DenseHashTable(tf.string, tf.int64, default_value=-1, empty_key="",
                                          deleted_key="$", initial_num_buckets=16)
  strings.insert(tf.constant(["apple", "b", "cat", "dog", "e"]),
                 tf.constant([1, 2, 3, 4, 5], tf.int64))
  keys, vals = strings.export()  # TF's Hash64 of strings
  assert [k[0] for k in values(keys)] == [b"e", b"", b"", b"", b"", b"", b"", b"cat", b"", b"",
                                         b"apple", b"b", b"", b"", b"", b"dog"]
  assert values(strings.lookup(tf.constant(["cat", "zz"]))) == [3, -1]
  vectors = L.experimental.DenseHashTable(tf.int64, tf.float32, default_value=[0., 0.],
                                          empty_key=[0, 0], deleted_key=[-1, -1],
                                          initial_num_buckets=8)
  vectors.insert(tf.constant([[1, 2], [3, 4], [7, 7]], tf.int64),
                 tf.constant([[1., 2.], [3., 4.], [5., 6.]]))
  keys, _ = vectors.export()  # Hash64Combine over vector keys
  assert values(keys) == [[7, 7], [0, 0], [0, 0], [1, 2], [0, 0], [0, 0], [0, 0], [3, 4]]
  assert values(vectors.lookup(tf.constant([[3, 4], [5, 6]], tf.int64))) == [[3., 4.], [0., 0.]]


def test_dense_hash_table_errors():
  dense = L.experimental.DenseHashTable
  with pytest.raises(errors.InvalidArgumentError, match="Empty and deleted keys cannot be "
                     "equal"):
    dense(tf.int64, tf.float32, -1., 0, 0)
  with pytest.raises(errors.InvalidArgumentError, match="Number of buckets must be at least 4 "
                     "and a power of 2, got: 6"):
    dense(tf.int64, tf.float32, -1., 0, -1, initial_num_buckets=6)
  table = dense(tf.int64, tf.float32, -1., 0, -1, initial_num_buckets=4)
  with pytest.raises(errors.InvalidArgumentError, match=r"Expected key shape \[1\] got \[1,2\]"):
    table.lookup(tf.constant([[1, 2]], tf.int64))
  with pytest.raises(errors.InvalidArgumentError, match="Using the empty_key as a table key is "
                     "not allowed"):
    table.insert(tf.constant([0], tf.int64), tf.constant([1.]))
  with pytest.raises(errors.InvalidArgumentError, match="Using the deleted_key as a table key "
                     "is not allowed"):
    table.remove(tf.constant([-1], tf.int64))


def test_sparse_cross():
  inputs = [tf.SparseTensor([[0, 0], [0, 1], [1, 0]], ["a", "b", "c"], [2, 2]),
            tf.constant([["x"], ["y"]]),
            tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([1, 2, 3], tf.int64), [2, 2])]
  # sparse inputs are crossed first, then the dense ones; the last varies fastest
  assert sparse(tf.sparse.cross(inputs)) == ([[0, 0], [0, 1], [1, 0], [1, 1]], [
      b"a_X_1_X_x", b"b_X_1_X_x", b"c_X_2_X_y", b"c_X_3_X_y"], [2, 2])
  assert sparse(tf.sparse.cross_hashed(inputs, num_buckets=1000)) == (
      [[0, 0], [0, 1], [1, 0], [1, 1]], [67, 601, 244, 271], [2, 2])
  dense = [tf.constant([["x", "y"]]), tf.constant([[3, -4]])]
  assert values(tf.sparse.cross_hashed(dense).values) == [
      8761168886905583153, 3538507998153227367, 2381860480059392834, 8172580241315336947]
  assert values(tf.sparse.cross_hashed(dense, 100, hash_key=123).values) == [66, 43, 26, 95]
  assert sparse(tf.sparse.cross_hashed([tf.SparseTensor([[1, 0]], ["a"], [3, 1]),
                                        tf.constant([["x"], ["y"], ["z"]])], 100)) == (
      [[1, 0]], [47], [3, 1])
  with pytest.raises(errors.InvalidArgumentError, match="Expected batch size 3 got 2 at dense "
                     "tensor 0"):
    tf.sparse.cross_hashed([tf.SparseTensor([[1, 0]], ["a"], [3, 1]),
                            tf.constant([["x"], ["y"]])], 100)
  with pytest.raises(TypeError, match="Inputs must be a list"):
    tf.sparse.cross_hashed("a")
  with pytest.raises(errors.InvalidArgumentError, match=r"Dense inputs should be a matrix but "
                     r"received shape \[2\] at position 0"):
    tf.sparse.cross_hashed([tf.constant(["a", "b"])])
