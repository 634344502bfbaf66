"""String ops, SparseTensor, tf.gfile / tf.io.gfile and py_func, checked against TF's behaviour."""
import numpy as np
import pytest

import tfe_compat as tf


def values(tensor):
  return tensor.numpy().tolist()


# ---- Files and raw bytes ----
def test_read_write_file(tmp_path):
  path = str(tmp_path / "sub" / "dir" / "a.txt")
  assert tf.io.write_file(path, "hello\nworld\n") is None  # creates parent directories
  contents = tf.read_file(path)
  assert contents.dtype == tf.string and contents.shape == () and contents.numpy() == b"hello\nworld\n"
  assert tf.io.read_file(tf.constant(path)).numpy() == b"hello\nworld\n"
  with pytest.raises(tf.errors.NotFoundError,
                     match="nope.txt; No such file or directory \\[Op:ReadFile\\]"):
    tf.read_file(str(tmp_path / "nope.txt"))
  with pytest.raises(tf.errors.FailedPreconditionError, match="Is a directory"):
    tf.read_file(str(tmp_path))


def test_decode_raw():
  out = tf.decode_raw([b"\x01\x00\x00\x00\x02\x00\x00\x00"], tf.int32)
  assert out.dtype == tf.int32 and values(out) == [[1, 2]]
  assert values(tf.decode_raw(b"\x01\x00", tf.int16, little_endian=False)) == [256]
  assert values(tf.io.decode_raw([["ab"], ["cd"]], tf.uint8)) == [[[97, 98]], [[99, 100]]]
  assert values(tf.decode_raw(bytes=b"ab", out_type=tf.uint8)) == [97, 98]
  half = tf.decode_raw(np.array([1.5, 2], np.float16).tobytes(), tf.float16)
  assert half.dtype == tf.float16 and values(half) == [1.5, 2.0]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="all be the same size, but element 1 has size 3 != 4"):
    tf.decode_raw(["abc", "abcd"], tf.uint8)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="length 3 that is not a multiple of 4, the size of float"):
    tf.decode_raw(["abc"], tf.float32)


# ---- SparseTensor and splitting ----
def test_string_split_v1():
  sp = tf.string_split(["a b  c", "", "d"])
  assert isinstance(sp, tf.SparseTensor)
  assert sp.indices.dtype == tf.int64 and sp.dense_shape.dtype == tf.int64
  assert values(sp.indices) == [[0, 0], [0, 1], [0, 2], [2, 0]]
  assert values(sp.values) == [b"a", b"b", b"c", b"d"] and sp.dtype == tf.string
  assert values(sp.dense_shape) == [3, 3]
  sp = tf.string_split(["a,b,,c", "d"], delimiter=",", skip_empty=False)
  assert values(sp.values) == [b"a", b"b", b"", b"c", b"d"] and values(sp.dense_shape) == [2, 4]
  assert values(tf.string_split(["abc", "de"], delimiter="").values) == [b"a", b"b", b"c", b"d", b"e"]
  assert values(tf.string_split(["a b;c"], delimiter=" ;").values) == [b"a", b"b", b"c"]
  with pytest.raises(tf.errors.InvalidArgumentError, match="input must be a vector, got shape: \\[\\]"):
    tf.string_split("a b")
  assert tf.string_split(["a"], result_type="RaggedTensor").to_list() == [[b"a"]]


def test_list_of_string_tensors_autopacks():
  line = tf.constant("white,1,2,3")  # rnn_colorbot's parse(): tf.string_split([line], ",")
  packed = tf.convert_to_tensor([line, line])
  assert packed.dtype == tf.string and values(packed) == [b"white,1,2,3"] * 2
  assert values(tf.string_split([line], ",").values) == [b"white", b"1", b"2", b"3"]


def test_strings_split_and_to_dense():
  sp = tf.strings.split(["a  b c", " d "])
  assert values(sp.values) == [b"a", b"b", b"c", b"d"] and values(sp.dense_shape) == [2, 3]
  assert values(tf.strings.split(["a,,b", "c"], sep=",").values) == [b"a", b"", b"b", b"c"]
  assert values(tf.strings.split(["a b c d"], maxsplit=2).values) == [b"a", b"b", b"c d"]
  sp = tf.string_split(["a b c", "d"])
  assert values(tf.sparse.to_dense(sp)) == [[b"a", b"b", b"c"], [b"d", b"", b""]]
  assert values(tf.sparse_tensor_to_dense(sp, default_value="x")) == [[b"a", b"b", b"c"],
                                                                      [b"d", b"x", b"x"]]
  st = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 2])
  assert st.shape == (3, 2) and st.dtype == tf.float32
  dense = tf.sparse.to_dense(st)
  assert dense.dtype == tf.float32 and values(dense) == [[0, 1.5], [0, 0], [2.5, 0]]
  ints = tf.SparseTensor([[0, 1], [2, 0]], [1, 2], [3, 2])
  assert values(tf.sparse.to_dense(ints, default_value=-1)) == [[-1, 1], [-1, -1], [2, -1]]
  with pytest.raises(tf.errors.InvalidArgumentError, match="indices\\[1\\] = \\[0,1\\] is out of order"):
    tf.sparse.to_dense(tf.SparseTensor([[2, 0], [0, 1]], [1, 2], [3, 2]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="indices\\[0\\] = \\[5,0\\] is out of bounds: need 0 <= index < \\[3,2\\]"):
    tf.sparse.to_dense(tf.SparseTensor([[5, 0]], [1], [3, 2]))


# ---- Conversions ----
@pytest.mark.parametrize("text,number", [("1.5", 1.5), (" 1.5", 1.5), ("+3", 3.0), ("-2e3", -2000.0),
                                         ("inf", np.inf), ("1e40", np.inf), ("0x10", 16.0), ("3.", 3.0)])
def test_string_to_number_float(text, number):
  out = tf.string_to_number(text)
  assert out.dtype == tf.float32 and out.numpy() == number


def test_string_to_number_int_and_errors():
  out = tf.strings.to_number([" 12", "+7", "-5"], out_type=tf.int32)
  assert out.dtype == tf.int32 and values(out) == [12, 7, -5]
  assert values(tf.string_to_number(["99999999999"], out_type=tf.int64)) == [99999999999]
  assert np.isnan(tf.string_to_number("nan").numpy())
  for bad, kind in [("abc", tf.float32), ("", tf.float32), ("1_0", tf.float32),
                    ("3.0", tf.int32), ("99999999999", tf.int32)]:
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="StringToNumberOp could not correctly convert string: %s " % bad):
      tf.string_to_number(bad, out_type=kind)


def test_as_string():
  assert values(tf.as_string([3.5, 1e10, 1e-7])) == [b"3.500000", b"10000000000.000000", b"0.000000"]
  assert values(tf.as_string([3.14159], precision=2)) == [b"3.14"]
  assert values(tf.as_string([3.14159], scientific=True)) == [b"3.141590e+00"]
  assert values(tf.as_string([3.14159, 1e10, 0.1], shortest=True)) == [b"3.14159", b"1e+10", b"0.1"]
  assert values(tf.as_string([3, -4], width=5, fill="0")) == [b"00003", b"-0004"]
  assert values(tf.as_string([3.5], width=12)) == [b"    3.500000"]
  assert values(tf.as_string([True, False])) == [b"true", b"false"]
  assert values(tf.as_string(np.array([1 + 2j], np.complex64))) == [b"(1.000000,2.000000)"]


def test_base64():
  assert values(tf.encode_base64(["hello?>", "a", "\xff\xfe"])) == [b"aGVsbG8_Pg", b"YQ", b"w7_Dvg"]
  assert values(tf.io.encode_base64(["hello?>", "a"], pad=True)) == [b"aGVsbG8_Pg==", b"YQ=="]
  assert values(tf.decode_base64(["aGVsbG8_Pg", "YQ==", "YQ"])) == [b"hello?>", b"a", b"a"]
  with pytest.raises(tf.errors.InvalidArgumentError, match="length cannot be 1 modulo 4"):
    tf.decode_base64(["a"])
  with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid character found in base64"):
    tf.decode_base64(["a+b/"])


# ---- Elementwise string functions ----
def test_join_length_substr():
  assert values(tf.strings.join([["a", "b"], "x", ["c", "d"]], separator="-")) == [b"a-x-c", b"b-x-d"]
  assert tf.string_join(["a", "b"]).numpy() == b"ab"
  with pytest.raises(tf.errors.InvalidArgumentError, match="Input shapes do not match: \\[2\\] vs. \\[3\\]"):
    tf.strings.join([["a", "b"], ["c", "d", "e"]])
  length = tf.strings.length(["abc", "", "héllo"])
  assert length.dtype == tf.int32 and values(length) == [3, 0, 6]
  assert values(tf.strings.length(["abc", "", "héllo"], unit="UTF8_CHAR")) == [3, 0, 5]
  assert values(tf.substr(["hello", "world"], 1, 3)) == [b"ell", b"orl"]
  assert values(tf.strings.substr(["hello", "world"], [0, 2], [2, 10])) == [b"he", b"rld"]
  assert values(tf.substr(["hello"], -3, 2)) == [b"ll"]
  assert tf.substr("hello", 5, 1).numpy() == b""
  assert tf.strings.substr("héllo", 1, 2, unit="UTF8_CHAR").numpy() == "él".encode()
  with pytest.raises(tf.errors.InvalidArgumentError, match="pos 3 out of range for string b'ab' at index 1"):
    tf.substr(["hello", "ab"], 3, 1)
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
    tf.strings.substr(["abc", "de"], [0, 0, 0], [1, 1, 1])
  with pytest.raises(tf.errors.InvalidArgumentError, match="pos and len should have the same shape"):
    tf.strings.substr(["abc", "de"], [0, 0], [1, 1, 1])


def test_regex_case_strip():
  assert values(tf.regex_replace(["hello world", "aaa"], "o|a", "0")) == [b"hell0 w0rld", b"000"]
  assert values(tf.regex_replace(["aaa"], "a", "b", replace_global=False)) == [b"baa"]
  assert values(tf.strings.regex_replace(["ab12cd"], r"(\d+)", r"<\1>")) == [b"ab<12>cd"]
  assert values(tf.strings.regex_replace(["ab12cd"], r"\d", r"[\0]")) == [b"ab[1][2]cd"]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid pattern: \\("):
    tf.strings.regex_replace(["x"], "(", "y")
  match = tf.strings.regex_full_match(["abc", "ab"], "a.c")
  assert match.dtype == tf.bool and values(match) == [True, False]
  assert values(tf.strings.lower(["HeLLo É"])) == ["hello É".encode()]
  assert values(tf.strings.upper(["HeLLo é"], encoding="utf-8")) == ["HELLO É".encode()]
  assert values(tf.strings.strip([" \t a b \n", "x"])) == [b"a b", b"x"]


def test_reduce_join():
  grid = [["a", "b"], ["c", "d"]]
  assert tf.reduce_join(grid).numpy() == b"abcd"
  assert values(tf.reduce_join(grid, axis=0, separator="-")) == [b"a-c", b"b-d"]
  kept = tf.reduce_join(grid, axis=1, keep_dims=True)
  assert kept.shape == (2, 1) and values(kept) == [[b"ab"], [b"cd"]]
  assert values(tf.strings.reduce_join(grid, axis=-1)) == [b"ab", b"cd"]
  with pytest.raises(tf.errors.OutOfRangeError, match="Invalid reduction dimension 2 for input with 2"):
    tf.reduce_join(grid, axis=2)


# ---- gfile ----
def test_gfile_file_object(tmp_path):
  path = str(tmp_path / "a.txt")
  with tf.gfile.GFile(path, "w") as f:
    f.write("hello\n")
    f.write(b"world\n")
    assert f.tell() == 12 and f.size() == 12
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for reading"):
      f.read()
  f = tf.gfile.Open(path)
  assert (f.readline(), f.tell(), f.readline(), f.readline()) == ("hello\n", 6, "world\n", "")
  f.seek(2)
  assert (f.read(3), f.tell(), f.size(), f.name, f.mode) == ("llo", 5, 12, path, "r")
  f.seek(0)
  assert f.readlines() == ["hello\n", "world\n"]
  f.seek(-2, 2)
  assert f.read() == "d\n"
  f.seek(0)
  assert list(f) == ["hello\n", "world\n"]
  with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
    f.write("x")
  f.close()
  binary = tf.io.gfile.GFile(path, "rb")
  assert (binary.read(3), binary.readline(), binary.readlines()) == (b"hel", b"lo\n", [b"world\n"])
  with tf.gfile.GFile(path, "a") as f:
    f.write("more")
  assert tf.gfile.FastGFile(path, "rb").read() == b"hello\nworld\nmore"
  with pytest.raises(tf.errors.NotFoundError, match="nope.txt; No such file or directory"):
    tf.gfile.GFile(str(tmp_path / "nope.txt")).read()
  with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
    tf.gfile.GFile(str(tmp_path / "nodir" / "x.txt"), "w").write("x")
  with pytest.raises(tf.errors.InvalidArgumentError, match="mode is not 'r' or 'w'"):
    tf.gfile.GFile(path, "x").read()


def test_gfile_functions(tmp_path):
  root = str(tmp_path)
  G = tf.gfile
  G.MakeDirs(root + "/x/y")
  G.MakeDirs(root + "/x/y")
  G.MkDir(root + "/x")
  with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
    G.MkDir(root + "/p/q")
  tf.io.write_file(root + "/x/a.txt", "abc")
  with pytest.raises(tf.errors.FailedPreconditionError, match="a.txt is not a directory"):
    G.MakeDirs(root + "/x/a.txt")
  assert G.Exists(root + "/x") and not G.Exists(root + "/nope")
  assert G.IsDirectory(root + "/x") and not G.IsDirectory(root + "/x/a.txt")
  assert sorted(G.ListDirectory(root + "/x")) == ["a.txt", "y"]
  with pytest.raises(tf.errors.NotFoundError, match="Could not find directory"):
    G.ListDirectory(root + "/nope")
  G.Copy(root + "/x/a.txt", root + "/b.txt")
  with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
    G.Copy(root + "/x/a.txt", root + "/b.txt")
  G.Copy(root + "/x/a.txt", root + "/b.txt", overwrite=True)
  with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
    G.Copy(root + "/nope", root + "/c.txt")
  G.Rename(root + "/b.txt", root + "/c.txt")
  with pytest.raises(tf.errors.NotFoundError):
    G.Rename(root + "/b.txt", root + "/d.txt")
  assert G.Glob(root + "/*.txt") == [root + "/c.txt"]
  assert sorted(tf.io.gfile.glob(root + "/*/*.txt")) == [root + "/x/a.txt"]
  stat = G.Stat(root + "/c.txt")
  assert stat.length == 3 and not stat.is_directory and stat.mtime_nsec > 0
  assert tf.io.gfile.stat(root + "/x").is_directory
  walked = [(d, sorted(s), sorted(f)) for d, s, f in G.Walk(root)]
  assert walked[0] == (root, ["x"], ["c.txt"]) and (root + "/x/y", [], []) in walked
  assert [d for d, _, _ in tf.io.gfile.walk(root, topdown=False)][-1] == root
  assert list(G.Walk(root + "/nope")) == []
  with pytest.raises(tf.errors.FailedPreconditionError, match="Is a directory"):
    G.Remove(root + "/x")
  G.Remove(root + "/c.txt")
  with pytest.raises(tf.errors.NotFoundError, match="c.txt; No such file or directory"):
    tf.io.gfile.remove(root + "/c.txt")
  G.DeleteRecursively(root + "/x")
  assert tf.io.gfile.listdir(root) == []
  with pytest.raises(tf.errors.NotFoundError, match="x not found"):
    tf.io.gfile.rmtree(root + "/x")


# ---- py_func / py_function ----
def test_py_func_eager():
  seen = []

  def double(x):
    seen.append(type(x))
    return x * 2
  out = tf.py_func(double, [tf.constant(3.0)], tf.float32)
  assert seen == [np.ndarray] and out.dtype == tf.float32 and out.numpy() == 6.0
  pair = tf.py_func(lambda x, y: (x + y, x * y), [np.float32(1), np.float32(2)], [tf.float32] * 2)
  assert [values(t) for t in pair] == [3.0, 2.0]
  # TF's eager py_func converts results as they are (no cast to Tout)
  assert tf.py_func(lambda x: np.float64(2.0), [1.0], tf.float32).dtype == tf.float64
  assert tf.numpy_function(lambda x: x + 1, [np.int32(3)], tf.int32).numpy() == 4
  assert tf.py_func(lambda x: x, [tf.constant(["abc"])], tf.string).numpy().tolist() == [b"abc"]
  assert tf.py_func(lambda x: None, [1.0], []) is None
  with pytest.raises(ZeroDivisionError):
    tf.py_func(lambda x: 1 / 0, [1.0], tf.float32)


def test_py_function_eager():
  seen = []

  def square(x):
    seen.append(type(x))
    return np.asarray(x) ** 2
  out = tf.py_function(square, [3.0], tf.float32)
  assert seen == [tf.Tensor] and out.dtype == tf.float32 and out.numpy() == 9.0
  assert tf.contrib.eager.py_func is tf.py_function
  both = tf.py_function(lambda a, b: [np.float64(1), b], [1.0, 2.0], [tf.float32, tf.float32])
  assert [t.dtype for t in both] == [tf.float32, tf.float32]
  assert tf.py_function(lambda x: None, [1.0], []) == []
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="ValueError: Tensor conversion requested dtype float32 for Tensor with dtype float64"):
    tf.py_function(lambda x: tf.constant(2.0, tf.float64), [1.0], tf.float32)
  with pytest.raises(tf.errors.UnknownError, match="ZeroDivisionError: division by zero"):
    tf.py_function(lambda x: 1 / 0, [1.0], tf.float32)
  with pytest.raises(tf.errors.UnknownError, match="IndexError"):
    tf.py_function(lambda x: [][1], [1.0], tf.float32)


def test_where_selects_strings():
  """tf.where / tf.where_v2 on string Tensors, as TF selects them."""
  picked = tf.where(tf.constant([True, False]), tf.constant(["a", "b"]), tf.constant(["c", "d"]))
  assert picked.dtype == tf.string and picked.numpy().tolist() == [b"a", b"d"]
  rows = tf.where(tf.constant([True, False]), tf.constant([["a", "b"], ["e", "f"]]),
                  tf.constant([["c", "d"], ["g", "h"]]))
  assert rows.numpy().tolist() == [[b"a", b"b"], [b"g", b"h"]]
  assert tf.where(tf.constant(False), tf.constant("a"), tf.constant("c")).numpy() == b"c"
  broadcast = tf.where_v2(tf.constant([True, False]), tf.constant("a"), tf.constant(["c", "d"]))
  assert broadcast.numpy().tolist() == [b"a", b"d"]
