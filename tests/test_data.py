"""tf.data, TFRecords and tf.train.Example parsing; golden values checked against TF 2.21."""
import gzip
import os
import struct
import threading
import time

import numpy as np
import pytest

import tfe_compat as tf

DATA = os.path.join(os.path.dirname(__file__), "data")


def values(dataset):
  """The elements as Python values (lists, bytes, tuples and dicts kept)."""
  def plain(x):
    if isinstance(x, tuple):
      return tuple(plain(v) for v in x)
    if isinstance(x, dict):
      return {k: plain(v) for k, v in x.items()}
    assert isinstance(x, tf.Tensor)
    v = x.numpy()
    return v.tolist() if hasattr(v, "tolist") else v
  return [plain(e) for e in dataset]


def spec(shape, dtype):
  return tf.TensorSpec(shape, dtype)


# ---- sources and structure ----
def test_from_tensor_slices_structures_and_dtypes():
  ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
  assert ds.element_spec == spec([], tf.int32)
  assert values(ds) == [1, 2, 3]
  ds = tf.data.Dataset.from_tensor_slices(([1., 2.], [[1, 2], [3, 4]]))
  assert ds.element_spec == (spec([], tf.float32), spec([2], tf.int32))
  assert values(ds) == [(1.0, [1, 2]), (2.0, [3, 4])]
  ds = tf.data.Dataset.from_tensor_slices({"b": [1, 2], "a": ["x", "y"]})
  assert ds.element_spec == {"b": spec([], tf.int32), "a": spec([], tf.string)}
  assert values(ds) == [{"b": 1, "a": b"x"}, {"b": 2, "a": b"y"}]
  ds = tf.data.Dataset.from_tensor_slices((tf.constant([[1.5], [2.5]]), np.arange(2)))
  first = next(iter(ds))
  assert type(first) is tuple and first[0].dtype == tf.float32 and first[1].dtype == tf.int64
  with pytest.raises(ValueError):
    tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))


def test_from_tensors_range_zip_enumerate():
  ds = tf.data.Dataset.from_tensors(([1, 2], 3.0))
  assert ds.element_spec == (spec([2], tf.int32), spec([], tf.float32))
  assert values(ds) == [([1, 2], 3.0)]
  assert tf.data.Dataset.range(5).element_spec == spec([], tf.int64)
  assert values(tf.data.Dataset.range(2, 10, 3)) == [2, 5, 8]
  assert values(tf.data.Dataset.range(10, 2, -3)) == [10, 7, 4]
  ones = tf.data.Dataset.from_tensors(1).repeat()
  zipped = tf.data.Dataset.zip((tf.data.Dataset.range(3), (tf.data.Dataset.range(5), ones)))
  assert values(zipped) == [(0, (0, 1)), (1, (1, 1)), (2, (2, 1))]
  assert zipped.element_spec[1][1] == spec([], tf.int32)
  ds = tf.data.Dataset.from_tensor_slices([5, 6]).enumerate(3)
  assert ds.element_spec == (spec([], tf.int64), spec([], tf.int32))
  assert values(ds) == [(3, 5), (4, 6)]


def test_from_generator_types_shapes_args_and_errors():
  ds = tf.data.Dataset.from_generator(lambda: iter([(1, [2.]), (3, [4.])]),
                                      (tf.int32, tf.float32),
                                      (tf.TensorShape([]), tf.TensorShape([None])))
  assert ds.element_spec == (spec([], tf.int32), spec([None], tf.float32))
  assert values(ds) == [(1, [2.0]), (3, [4.0])]
  seen = []

  def gen(n, s):
    seen.append((n, s))
    yield from range(n)
  ds = tf.data.Dataset.from_generator(gen, tf.int64, args=(3, "x"))
  assert ds.element_spec == tf.TensorSpec(None, tf.int64)
  assert values(ds) == [0, 1, 2]
  assert seen[0] == (3, b"x") and isinstance(seen[0][0], np.int32)
  bad_shape = tf.data.Dataset.from_generator(lambda: iter([[1, 2], [1, 2, 3]]), tf.int32,
                                             tf.TensorShape([2]))
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"`generator` yielded an element "
                     r"of shape \(3,\) where an element of shape \(2,\) was expected"):
    values(bad_shape)
  with pytest.raises(tf.errors.InvalidArgumentError, match="did not match the expected"):
    values(tf.data.Dataset.from_generator(lambda: iter(["a"]), tf.int32))


# ---- batching ----
def test_from_generator_reusing_one_buffer():
  """Each element is copied when it is yielded, as TF copies it."""
  def filled():
    buffer = np.zeros([64, 64], np.float32)
    for i in range(20):
      buffer[...] = i
      yield buffer
  got = [t.numpy()[0, 0] for t in tf.data.Dataset.from_generator(filled, tf.float32)]
  assert got == list(range(20))


def test_batch_padded_batch_unbatch():
  ds = tf.data.Dataset.range(7).batch(3)
  assert ds.element_spec == spec([None], tf.int64)
  assert values(ds) == [[0, 1, 2], [3, 4, 5], [6]]
  ds = tf.data.Dataset.range(7).batch(3, drop_remainder=True)
  assert ds.element_spec == spec([3], tf.int64)
  assert values(ds) == [[0, 1, 2], [3, 4, 5]]
  ragged = tf.data.Dataset.range(5).map(lambda x: tf.fill([x], x))
  ds = ragged.padded_batch(2, padded_shapes=[None])
  assert ds.element_spec == spec([None, None], tf.int64)
  assert values(ds) == [[[0], [1]], [[2, 2, 0], [3, 3, 3]], [[4, 4, 4, 4]]]
  ds = ragged.padded_batch(2, padded_shapes=[5], padding_values=tf.constant(-1, tf.int64))
  assert ds.element_spec == spec([None, 5], tf.int64)
  assert values(ds)[1] == [[2, 2, -1, -1, -1], [3, 3, 3, -1, -1]]
  strings = tf.data.Dataset.from_tensor_slices([["a"], ["b"]]).padded_batch(2, [3])
  assert values(strings) == [[[b"a", b"", b""], [b"b", b"", b""]]]
  ds = tf.data.Dataset.from_tensor_slices([[[1, 2], [3, 4]]]).unbatch()
  assert ds.element_spec == spec([2], tf.int32)
  assert values(ds) == [[1, 2], [3, 4]]
  mismatch = tf.data.Dataset.from_tensor_slices([[1], [2]]).map(lambda x: tf.fill([x[0]], 1))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"number of elements does not match. Shapes are: \[tensor\]: \[2\], "
                           r"\[batch\]: \[1\]"):
    values(mismatch.batch(2))
  three = tf.data.Dataset.from_tensors(tf.ones([3]))
  for padded, text in [([2], r"\(2,\)"), ([2, 2], r"\(2, 2\)")]:  # smaller, or another rank
    with pytest.raises(ValueError, match=r"The padded shape %s is not compatible with the shape "
                                         r"\(3,\) of the corresponding input component." % text):
      values(three.padded_batch(2, padded_shapes=padded))


def test_batch_of_shuffled_slices_matches_rows():
  x = np.arange(50, dtype=np.float32).reshape(25, 2)
  y = np.arange(25)
  ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(25, seed=3).repeat(2).batch(8)
  batches = list(ds)
  assert [b[0].shape.as_list() for b in batches] == [[8, 2]] * 6 + [[2, 2]]
  assert all(b[0].dtype == tf.float32 and b[1].dtype == tf.int64 for b in batches)
  xs = np.concatenate([b[0].numpy() for b in batches])
  ys = np.concatenate([b[1].numpy() for b in batches])
  np.testing.assert_array_equal(xs, x[ys])
  assert sorted(ys[:25]) == list(range(25)) and sorted(ys[25:]) == list(range(25))
  assert list(ys[:25]) != list(ys[25:])  # reshuffled each epoch


# ---- shuffle ----
def test_shuffle_seed_and_reshuffle_semantics():
  ds = tf.data.Dataset.range(10).shuffle(10, seed=42)
  first, second = values(ds), values(ds)
  assert sorted(first) == list(range(10)) and first != second
  assert values(tf.data.Dataset.range(10).shuffle(10, seed=42)) == first
  fixed = tf.data.Dataset.range(10).shuffle(10, seed=42, reshuffle_each_iteration=False)
  assert values(fixed) == values(fixed)
  epochs = values(tf.data.Dataset.range(4).shuffle(4, seed=1, reshuffle_each_iteration=False)
                  .repeat(2))
  assert epochs[:4] == epochs[4:]
  tf.set_random_seed(7)
  a = values(tf.data.Dataset.range(20).shuffle(5))
  tf.set_random_seed(7)
  assert values(tf.data.Dataset.range(20).shuffle(5)) == a
  with pytest.raises(tf.errors.InvalidArgumentError):
    tf.data.Dataset.range(3).shuffle(0)


def test_small_buffer_shuffle_stays_local():
  out = values(tf.data.Dataset.range(100).shuffle(3, seed=0))
  assert sorted(out) == list(range(100))
  # With a buffer of 3, element i cannot come out before position i - 2.
  assert all(pos >= value - 2 for pos, value in enumerate(out))
  generic = values(tf.data.Dataset.range(100).map(lambda x: x).shuffle(3, seed=0))
  assert sorted(generic) == list(range(100))


# ---- repeat/take/skip/filter/concatenate/window/interleave ----
def test_repeat_take_skip_filter_flat_map_concatenate():
  assert values(tf.data.Dataset.range(3).repeat(2).skip(1).take(4)) == [1, 2, 0, 1]
  assert values(tf.data.Dataset.range(3).repeat().take(5)) == [0, 1, 2, 0, 1]
  assert values(tf.data.Dataset.from_tensor_slices([1, 2, 3]).skip(-1)) == []
  assert values(tf.data.Dataset.range(10).filter(lambda x: tf.equal(x % 3, 0))) == [0, 3, 6, 9]
  assert values(tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.range(x))) == \
      [0, 0, 1]
  assert values(tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 7))) == \
      [0, 1, 5, 6]
  with pytest.raises(TypeError, match="Incompatible dataset elements"):
    tf.data.Dataset.range(2).concatenate(tf.data.Dataset.from_tensors(1))
  with pytest.raises(ValueError, match="must return a `tf.bool` scalar"):
    values(tf.data.Dataset.range(3).filter(lambda x: x))
  assert tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x).numpy() == 10


def test_window():
  flat = tf.data.Dataset.range(7).window(3, shift=2).flat_map(lambda w: w.batch(3))
  assert flat.element_spec == spec([None], tf.int64)
  assert values(flat) == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
  strided = tf.data.Dataset.range(10).window(3, shift=1, stride=2, drop_remainder=True)
  assert values(strided.flat_map(lambda w: w.batch(3))) == \
      [[0, 2, 4], [1, 3, 5], [2, 4, 6], [3, 5, 7], [4, 6, 8], [5, 7, 9]]
  pairs = tf.data.Dataset.zip((tf.data.Dataset.range(4), tf.data.Dataset.range(4))).window(2)
  both = pairs.flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))
  assert values(both) == [([0, 1], [0, 1]), ([2, 3], [2, 3])]
  assert values(tf.data.Dataset.range(7).window(2, shift=3).flat_map(lambda w: w.batch(2))) \
      == [[0, 1], [3, 4], [6]]


def test_interleave_order_matches_tf():
  ds = tf.data.Dataset.range(1, 4).interleave(
      lambda x: tf.data.Dataset.from_tensors(x).repeat(4), cycle_length=2, block_length=3)
  assert values(ds) == [1, 1, 1, 2, 2, 2, 1, 2, 3, 3, 3, 3]
  ds = tf.data.Dataset.range(1, 6).interleave(
      lambda x: tf.data.Dataset.range(x * 10, x * 10 + x), cycle_length=3, block_length=2)
  assert values(ds) == [10, 20, 21, 30, 31, 40, 41, 32, 42, 43, 50, 51, 52, 53, 54]
  ds = tf.data.Dataset.range(1, 4).apply(tf.data.experimental.parallel_interleave(
      lambda x: tf.data.Dataset.range(x), cycle_length=1))
  assert values(ds) == [0, 0, 1, 0, 1, 2]


# ---- map ----
def test_map_unpacks_tuples_and_receives_tensors():
  seen = []

  def fn(a, b):
    seen.append((type(a), type(b)))
    return a * 2, {"b": tf.cast(b, tf.float32)}
  ds = tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).map(fn)
  assert ds.element_spec == (spec([], tf.int32), {"b": spec([], tf.float32)})
  assert values(ds) == [(2, {"b": 3.0}), (4, {"b": 4.0})]
  assert seen[0] == (tf.Tensor, tf.Tensor)
  listed = tf.data.Dataset.range(3).map(lambda x: [x, x])
  assert listed.element_spec == (spec([], tf.int64), spec([], tf.int64))


def test_parallel_map_keeps_order():
  ds = tf.data.Dataset.range(40).map(lambda x: x * x, num_parallel_calls=4)
  assert values(ds) == [i * i for i in range(40)]
  auto = tf.data.Dataset.range(10).apply(tf.data.experimental.map_and_batch(
      lambda x: x + 1, 4, num_parallel_calls=tf.data.experimental.AUTOTUNE))
  assert values(auto) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]
  assert tf.contrib.data.AUTOTUNE == -1


def test_parallel_map_of_strings_keeps_order_and_raises_in_place():
  """String elements run eagerly (in the iterating thread); order and errors are TF's."""
  words = tf.data.Dataset.from_tensor_slices([b"%d" % i for i in range(30)])
  assert values(words.map(tf.strings.to_number, num_parallel_calls=2)) == list(range(30))
  bad = tf.data.Dataset.from_tensor_slices([b"1", b"2", b"x", b"4"]).map(
      tf.strings.to_number, num_parallel_calls=2)
  it = iter(bad)
  assert [next(it).numpy(), next(it).numpy()] == [1.0, 2.0]
  with pytest.raises(tf.errors.InvalidArgumentError, match="could not correctly convert "
                     "string: x"):
    next(it)


def test_parallel_map_sends_long_eager_calls_to_the_pool():
  """Eager calls (string elements) longer than a millisecond, such as image decoding, run in
  the pool's threads; results stay in order."""
  threads = []

  def slow(s):
    threads.append(threading.get_ident())
    time.sleep(0.005)
    return s
  words = [b"w%d" % i for i in range(12)]
  ds = tf.data.Dataset.from_tensor_slices(words).map(
      lambda s: tf.py_func(slow, [s], tf.string), num_parallel_calls=2)
  assert values(ds) == words
  assert threads[:3] == [threading.get_ident()] * 3  # timed here first
  assert threading.get_ident() not in threads[3:]


def test_map_is_not_recorded_on_tapes():
  v = tf.Variable(2.0)
  with tf.GradientTape() as tape:
    (x,) = list(tf.data.Dataset.from_tensors(1.0).map(lambda x: x * v))
  assert x.numpy() == 2.0
  assert tape.gradient(x, v) is None


# ---- errors in elements ----
E = "InvalidArgumentError"


def outcomes(dataset):
  """Each element's value, or the name of the error raised for it (iteration goes on)."""
  it, out = iter(dataset), []
  while True:
    try:
      out.append(next(it).numpy().tolist())
    except StopIteration:
      return out
    except tf.errors.OpError as e:
      out.append(type(e).__name__)


def fails_at_3_and_7(x):
  """to_number of "x" for elements 3 and 7 (mod 4 == 3): TF's InvalidArgumentError."""
  text = tf.where(tf.equal(x % 4, 3), tf.constant("x"), tf.strings.as_string(x))
  return tf.strings.to_number(text)


def test_a_failed_element_raises_and_iteration_goes_on():
  """Golden outcomes from TF 2.21 (the same pipelines; map and batch fused, as TF runs them)."""
  failing = tf.data.Dataset.range(10).map(fails_at_3_and_7)
  assert outcomes(failing) == [0., 1., 2., E, 4., 5., 6., E, 8., 9.]
  assert outcomes(tf.data.Dataset.range(10).map(fails_at_3_and_7, num_parallel_calls=2)) == \
      outcomes(failing)
  assert outcomes(failing.map(lambda x: x * 2)) == [0., 2., 4., E, 8., 10., 12., E, 16., 18.]
  assert outcomes(failing.batch(3)) == [[0., 1., 2.], E, E, [9.]]
  assert outcomes(failing.padded_batch(3, [])) == [[0., 1., 2.], E, [4., 5., 6.], E, [8., 9.]]
  assert outcomes(failing.batch(2).unbatch()) == [0., 1., E, 4., 5., E, 8., 9.]
  assert outcomes(failing.take(5)) == [0., 1., 2., E, 4., 5.]
  assert outcomes(failing.repeat(2).take(12)) == outcomes(failing) + [0., 1., 2., E, 4.]
  for same in [failing.cache(), failing.prefetch(2),
               tf.data.Dataset.zip((failing, tf.data.Dataset.range(10))).map(lambda a, b: a),
               failing.enumerate().map(lambda i, v: v)]:
    assert outcomes(same) == outcomes(failing)
  assert outcomes(failing.window(3).flat_map(lambda w: w.batch(3))) == \
      [[0., 1., 2.], E, E, [9.]]
  filtered = tf.data.Dataset.range(10).filter(lambda x: fails_at_3_and_7(x) > 1)
  assert outcomes(filtered) == [2, E, 4, 5, 6, E, 8, 9]
  interleaved = tf.data.Dataset.range(4).interleave(
      lambda x: tf.data.Dataset.range(3 * x, 3 * x + 3).map(fails_at_3_and_7), cycle_length=2)
  assert outcomes(interleaved) == [0., E, 4., 1., 5., 2., 6., 9., E, 8., 10., E]
  shuffled = outcomes(failing.shuffle(3, seed=1))
  assert [i for i, v in enumerate(shuffled) if v == E] == [1, 5]  # raised when met, as in TF
  assert sorted(v for v in shuffled if v != E) == [0., 1., 2., 4., 5., 6., 8., 9.]

  def generate():
    yield 1
    yield 2
    raise ValueError("boom")
  assert outcomes(tf.data.Dataset.from_generator(generate, tf.int64)) == [1, 2, E]


def test_ignore_errors():
  """Golden outcomes from TF 2.21."""
  failing = tf.data.Dataset.range(10).map(fails_at_3_and_7)
  ignore = tf.data.experimental.ignore_errors
  assert outcomes(failing.apply(ignore())) == [0., 1., 2., 4., 5., 6., 8., 9.]
  assert outcomes(failing.apply(tf.contrib.data.ignore_errors())) == \
      outcomes(failing.ignore_errors())
  assert outcomes(failing.batch(3).apply(ignore())) == [[0., 1., 2.], [9.]]
  assert outcomes(failing.apply(ignore()).batch(3)) == [[0., 1., 2.], [4., 5., 6.], [8., 9.]]

  def generate():
    yield 1
    yield 2
    raise ValueError("boom")
  assert outcomes(tf.data.Dataset.from_generator(generate, tf.int64).apply(ignore())) == [1, 2]


def test_ignore_errors_log_warning(caplog):
  failing = tf.data.Dataset.range(5).map(fails_at_3_and_7)
  with caplog.at_level("WARNING", logger="tensorflow"):
    assert outcomes(failing.ignore_errors(log_warning=True)) == [0., 1., 2., 4.]
  assert "could not correctly convert string: x" in caplog.text


# ---- prefetch, cache ----
def test_prefetch_and_errors_through_prefetch():
  assert values(tf.data.Dataset.range(20).prefetch(2)) == list(range(20))
  assert values(tf.data.Dataset.range(5).prefetch(tf.data.experimental.AUTOTUNE)) == \
      list(range(5))

  def boom():
    yield 1
    raise ValueError("boom")
  ds = tf.data.Dataset.from_generator(boom, tf.int32).prefetch(1)
  with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: boom"):
    values(ds)


def counted(calls, fn=lambda x: x):
  """A map function whose every per-element run is counted (tf.py_func runs per element)."""
  def count(x):
    calls.append(1)
    return x
  return lambda x: fn(tf.py_func(count, [x], tf.int64))


def test_cache_memory_and_file(tmp_path):
  calls = []
  ds = tf.data.Dataset.range(3).map(counted(calls)).cache()
  assert values(ds) == values(ds) == [0, 1, 2]
  assert len(calls) == 3
  shuffled = tf.data.Dataset.range(10).shuffle(10).cache()
  assert values(shuffled) == values(shuffled)
  prefix = str(tmp_path / "cache")
  calls.clear()
  ds = tf.data.Dataset.range(4).map(counted(calls, lambda x: x * 2)).cache(prefix)
  assert values(ds) == [0, 2, 4, 6]
  again = tf.data.Dataset.range(4).map(counted(calls, lambda x: x * 2)).cache(prefix)
  assert values(again) == [0, 2, 4, 6] and len(calls) == 4


def test_map_function_is_traced_like_tf():
  """As in TF, a map function's Python body runs at trace time, not once per element;
  random ops still draw anew for every element, and string elements work."""
  runs = []

  def noisy(x):
    runs.append(1)
    return tf.cast(x, tf.float32) + tf.random_uniform([])

  out = values(tf.data.Dataset.range(50).map(noisy, num_parallel_calls=2))
  assert len(runs) <= 2  # the discovery run and the trace
  fractions = [v - i for i, v in enumerate(out)]
  assert all(0 <= f < 1 for f in fractions) and len(set(fractions)) == 50
  words = tf.data.Dataset.from_tensor_slices([b"a b", b"c d e"])
  assert values(words.map(lambda s: tf.size(tf.string_split([s]).values))) == [2, 3]
  shapes = tf.data.Dataset.range(1, 12).map(lambda n: tf.reduce_sum(tf.range(n)))
  assert values(shapes) == [n * (n - 1) // 2 for n in range(1, 12)]


# ---- iterators ----
def test_iterators():
  ds = tf.data.Dataset.range(3).batch(2)
  assert tf.data.get_output_shapes(ds).as_list() == [None]
  assert tf.data.get_output_types(ds) == tf.int64
  assert tf.data.get_output_classes(ds) is tf.Tensor
  assert ds.batch(2, drop_remainder=True).output_shapes.as_list() == [2, None]
  it = ds.make_one_shot_iterator()
  assert it.get_next().numpy().tolist() == [0, 1]
  assert it.get_next().numpy().tolist() == [2]
  with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
    it.get_next()
  it = tf.compat.v1.data.make_one_shot_iterator(ds)
  assert it.next().numpy().tolist() == [0, 1]
  with pytest.raises(RuntimeError, match="not supported in eager mode"):
    tf.compat.v1.data.make_initializable_iterator(ds)
  with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
    ds.make_initializable_iterator()
  tfe = tf.contrib.eager
  it = tfe.Iterator(tf.data.Dataset.from_tensor_slices(([1.0], [2])))
  x, y = it.next()
  assert (x.numpy(), y.numpy()) == (1.0, 2)
  with pytest.raises(StopIteration):
    it.next()
  x, y = iter(tf.data.Dataset.from_tensor_slices(([1.0], [2]))).next()
  assert y.dtype == tf.int32
  assert [int(v) for v in tfe.Iterator(tf.data.Dataset.range(3))] == [0, 1, 2]


def test_tensor_spec():
  s = tf.TensorSpec([None, 3], tf.float32)
  assert repr(s) == "TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)"
  assert str(tf.TensorSpec([2], tf.int32, name="x")) == \
      "TensorSpec(shape=(2,), dtype=tf.int32, name='x')"
  assert s.is_compatible_with(tf.zeros([4, 3]))
  assert not s.is_compatible_with(tf.zeros([4, 2]))


# ---- files ----
def test_text_line_and_list_files(tmp_path):
  (tmp_path / "a.txt").write_bytes(b"line1\nline2\r\n\nlast")
  (tmp_path / "b.txt").write_bytes(b"b1\n")
  (tmp_path / "c.txt.gz").write_bytes(gzip.compress(b"g1\ng2\n"))
  files = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
  assert values(tf.data.TextLineDataset(files)) == [b"line1", b"line2", b"", b"last", b"b1"]
  assert values(tf.data.TextLineDataset(str(tmp_path / "c.txt.gz"), "GZIP")) == [b"g1", b"g2"]
  listed = tf.data.Dataset.list_files(str(tmp_path / "*.txt"), shuffle=False)
  assert values(listed) == [f.encode() for f in files]
  assert sorted(values(tf.data.Dataset.list_files(str(tmp_path / "*.txt"), seed=1))) == \
      [f.encode() for f in files]
  assert values(tf.data.TextLineDataset(listed)) == [b"line1", b"line2", b"", b"last", b"b1"]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="No files matched pattern: .*nope"):
    tf.data.Dataset.list_files(str(tmp_path / "*.nope"))
  with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
    values(tf.data.TextLineDataset(str(tmp_path / "missing.txt")))


def test_fixed_length_records(tmp_path):
  path = str(tmp_path / "f.bin")
  with open(path, "wb") as f:
    f.write(bytes(range(23)))
  ds = tf.data.FixedLengthRecordDataset(path, 4, header_bytes=3, footer_bytes=4)
  assert values(ds) == [b"\x03\x04\x05\x06", b"\x07\x08\t\n", b"\x0b\x0c\r\x0e",
                        b"\x0f\x10\x11\x12"]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Excluding the header \(3 bytes\) and footer \(2 bytes\), input file "
                           r"\".*f.bin\" has body length 18 bytes, which is not an exact "
                           r"multiple of the record length \(4 bytes\)."):
    values(tf.data.FixedLengthRecordDataset(path, 4, header_bytes=3, footer_bytes=2))


def test_mnist_idx_pipeline(tmp_path):
  """The official MNIST dataset.py pipeline over small IDX files."""
  rng = np.random.default_rng(0)
  pixels = rng.integers(0, 256, (10, 28, 28), dtype=np.uint8)
  labels = np.arange(10, dtype=np.uint8)
  images_file, labels_file = str(tmp_path / "images"), str(tmp_path / "labels")
  with open(images_file, "wb") as f:
    f.write(struct.pack(">IIII", 2051, 10, 28, 28) + pixels.tobytes())
  with open(labels_file, "wb") as f:
    f.write(struct.pack(">II", 2049, 10) + labels.tobytes())

  def decode_image(image):
    image = tf.decode_raw(image, tf.uint8)
    image = tf.cast(image, tf.float32)
    image = tf.reshape(image, [784])
    return image / 255.0

  def decode_label(label):
    label = tf.decode_raw(label, tf.uint8)
    label = tf.reshape(label, [])
    return tf.to_int32(label)
  images = tf.data.FixedLengthRecordDataset(images_file, 28 * 28, header_bytes=16).map(
      decode_image)
  labels_ds = tf.data.FixedLengthRecordDataset(labels_file, 1, header_bytes=8).map(decode_label)
  ds = tf.data.Dataset.zip((images, labels_ds)).shuffle(60000).repeat(4).batch(32)
  batches = list(ds)
  assert [b[0].shape.as_list() for b in batches] == [[32, 784], [8, 784]]
  x, y = batches[0]
  assert x.dtype == tf.float32 and y.dtype == tf.int32
  np.testing.assert_allclose(x.numpy(), pixels.reshape(10, 784)[y.numpy()] / 255.0, rtol=1e-6)


# ---- TFRecords ----
def test_tfrecords_written_by_tf_are_readable():
  plain = os.path.join(DATA, "tf_written.tfrecord")
  assert values(tf.data.TFRecordDataset(plain)) == [b"hello", b"", b"x" * 300]
  assert list(tf.python_io.tf_record_iterator(plain)) == [b"hello", b"", b"x" * 300]
  gz = os.path.join(DATA, "tf_written_gzip.tfrecord")
  zl = os.path.join(DATA, "tf_written_zlib.tfrecord")
  assert values(tf.data.TFRecordDataset(gz, compression_type="GZIP")) == [b"hello", b"world"]
  assert values(tf.data.TFRecordDataset(zl, compression_type="ZLIB")) == [b"hello", b"world"]
  options = tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.GZIP)
  assert list(tf.python_io.tf_record_iterator(gz, options)) == [b"hello", b"world"]
  both = tf.data.TFRecordDataset([gz, gz], "GZIP", num_parallel_reads=2)
  assert values(both) == [b"hello", b"hello", b"world", b"world"]


def test_tfrecord_writer_matches_tf_bytes_and_round_trips(tmp_path):
  path = str(tmp_path / "ours.tfrecord")
  with tf.python_io.TFRecordWriter(path) as writer:
    for record in (b"hello", b"", b"x" * 300):
      writer.write(record)
  with open(path, "rb") as f, open(os.path.join(DATA, "tf_written.tfrecord"), "rb") as g:
    assert f.read() == g.read()
  for kind in ("GZIP", "ZLIB"):
    path = str(tmp_path / kind)
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(compression_type=kind)) as writer:
      writer.write(b"a")
      writer.write("b")
    assert values(tf.data.TFRecordDataset(path, kind)) == [b"a", b"b"]
  with open(str(tmp_path / "bad"), "wb") as f:
    f.write(open(os.path.join(DATA, "tf_written.tfrecord"), "rb").read()[:30])
  assert values(tf.data.TFRecordDataset(str(tmp_path / "bad"))) == [b"hello"]  # as TF 2.21
  with open(str(tmp_path / "bad"), "wb") as f:  # the second record's data cut short
    f.write(open(os.path.join(DATA, "tf_written.tfrecord"), "rb").read()[:35])
  with pytest.raises(tf.errors.DataLossError, match="truncated record at 21' failed with Read "
                     "less bytes than requested"):
    values(tf.data.TFRecordDataset(str(tmp_path / "bad")))
  with pytest.raises(tf.errors.DataLossError, match="truncated record at 21'"):
    list(tf.io.tf_record_iterator(str(tmp_path / "bad")))
  with open(str(tmp_path / "bad"), "wb") as f:
    f.write(b"x" * 36)
  with pytest.raises(tf.errors.DataLossError,
                     match=r"corrupted record at 0 \(Is this even a TFRecord file\?\)"):
    values(tf.data.TFRecordDataset(str(tmp_path / "bad")))


# ---- Example protos and parsing ----
def _example():
  return tf.train.Example(features=tf.train.Features(feature={
      "i": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2, 3])),
      "f": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 1.5])),
      "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"ab", b"c"])),
      "one": tf.train.Feature(int64_list=tf.train.Int64List(value=[7])),
  }))


FEATURES = {"i": tf.FixedLenFeature([3], tf.int64), "f": tf.io.FixedLenFeature([2], tf.float32),
            "s": tf.VarLenFeature(tf.string), "one": tf.FixedLenFeature([], tf.int64),
            "missing": tf.FixedLenFeature([2], tf.float32, default_value=[9., 8.])}


def test_example_serialization_matches_tf():
  golden = bytes.fromhex(
      "0a3f0a110a0166120c120a0a080000003f0000c03f0a0c0a016912071a050a030102030a0c0a036f6e65"
      "12051a030a01070a0e0a017312090a070a0261620a0163")
  assert _example().SerializeToString(deterministic=True) == golden
  (record,) = values(tf.data.TFRecordDataset(os.path.join(DATA, "tf_example.tfrecord")))
  assert record == golden
  assert tf.train.Example.FromString(golden).features.feature["one"].int64_list.value == [7]


def test_parse_single_example():
  parsed = tf.parse_single_example(_example().SerializeToString(), FEATURES)
  assert parsed["i"].numpy().tolist() == [1, 2, 3] and parsed["i"].dtype == tf.int64
  assert parsed["f"].numpy().tolist() == [0.5, 1.5] and parsed["f"].dtype == tf.float32
  assert parsed["one"].shape.as_list() == [] and parsed["one"].numpy() == 7
  assert parsed["missing"].numpy().tolist() == [9.0, 8.0]
  s = parsed["s"]
  assert isinstance(s, tf.SparseTensor)
  assert s.indices.numpy().tolist() == [[0], [1]] and s.values.numpy().tolist() == [b"ab", b"c"]
  assert s.dense_shape.numpy().tolist() == [2]
  serialized = tf.constant(_example().SerializeToString())
  ds = tf.data.Dataset.from_tensors(serialized).map(
      lambda r: tf.io.parse_single_example(r, {"i": tf.io.FixedLenFeature([3], tf.int64)})["i"])
  assert values(ds) == [[1, 2, 3]]


def test_parse_example_batch_and_errors():
  other = tf.train.Example(features=tf.train.Features(feature={
      "i": tf.train.Feature(int64_list=tf.train.Int64List(value=[4, 5, 6])),
      "f": tf.train.Feature(float_list=tf.train.FloatList(value=[1., 2.])),
      "one": tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))}))
  batch = [_example().SerializeToString(), other.SerializeToString()]
  parsed = tf.io.parse_example(batch, FEATURES)
  assert parsed["i"].numpy().tolist() == [[1, 2, 3], [4, 5, 6]]
  assert parsed["one"].numpy().tolist() == [7, 1]
  assert parsed["missing"].numpy().tolist() == [[9.0, 8.0], [9.0, 8.0]]
  s = parsed["s"]
  assert s.indices.numpy().tolist() == [[0, 0], [0, 1]]
  assert s.dense_shape.numpy().tolist() == [2, 2]
  seq = tf.parse_example(batch, {"s": tf.io.FixedLenSequenceFeature([], tf.string,
                                                                     allow_missing=True)})
  assert seq["s"].numpy().tolist() == [[b"ab", b"c"], [b"", b""]]
  one = _example().SerializeToString()
  cases = [
      ({"x": tf.FixedLenFeature([], tf.int64)},
       "Feature: x (data type: int64) is required but could not be found.",
       "Name: <unknown>, Feature: x (data type: int64) is required but could not be found."),
      ({"i": tf.FixedLenFeature([2], tf.int64)},
       "Key: i.  Can't parse serialized Example: Some int64_list slice was not parsed.",
       "Name: <unknown>, Key: i, Index: 0.  Number of int64 values != expected.  Values size: "
       "3 but output shape: [2]"),
      ({"i": tf.FixedLenFeature([3], tf.float32)},
       "Key: i.  Data types don't match. Data type: int64 but expected type: float",
       "Name: <unknown>, Key: i, Index: 0.  Data types don't match. Data type: int64 but "
       "expected type: float"),
  ]
  for features, single, batched in cases:
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
      tf.parse_single_example(one, features)
    assert str(e.value).startswith(single)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
      tf.io.parse_example([one], features)
    assert str(e.value).startswith(batched)


def test_options_are_kept_and_merged():
  """tf.data.Options as TF keeps them (checked against TF 2.21); pipelines run the same."""
  options = tf.data.Options()
  assert options.experimental_deterministic is None
  assert options.experimental_optimization.map_parallelization is None
  assert options.experimental_threading.private_threadpool_size is None
  with pytest.raises(AttributeError, match="Cannot set the property foo on Options."):
    options.foo = 1
  options.experimental_deterministic = False
  options.experimental_optimization.map_parallelization = True
  ds = tf.data.Dataset.range(3).with_options(options)
  assert ds.options() == options
  downstream = ds.map(lambda x: x + 1).batch(2).options()
  assert downstream.experimental_deterministic is False
  assert downstream.experimental_optimization.map_parallelization is True
  other = tf.data.Options()
  other.experimental_threading.private_threadpool_size = 4
  zipped = tf.data.Dataset.zip((ds, tf.data.Dataset.range(3).with_options(other)))
  merged = zipped.options()
  assert merged.experimental_deterministic is False
  assert merged.experimental_threading.private_threadpool_size == 4
  assert values(zipped.map(lambda a, b: a + b)) == [0, 2, 4]
  assert isinstance(options.experimental_threading, tf.data.experimental.ThreadingOptions)


def test_cardinality_matches_tf():
  """Golden cardinalities from TF 2.21 (-1 infinite, -2 unknown)."""
  experimental = tf.data.experimental
  r = tf.data.Dataset.range(10)
  cases = [(r, 10), (r.repeat(), -1), (r.repeat(3), 30), (r.take(4), 4), (r.skip(4), 6),
           (r.skip(-1), 0), (r.batch(3), 4), (r.batch(3, True), 3),
           (r.filter(lambda x: x > 2), -2), (r.map(lambda x: x), 10),
           (tf.data.Dataset.zip((r, r.take(3))), 3), (r.concatenate(r), 20),
           (r.repeat().take(5), 5), (r.shuffle(3).prefetch(1).cache(), 10),
           (tf.data.Dataset.from_tensor_slices([1, 2, 3]), 3),
           (tf.data.Dataset.from_tensors([1, 2]), 1), (r.padded_batch(4, []), 3),
           (tf.data.Dataset.zip((r.repeat(), r.repeat())), -1), (r.repeat().batch(2), -1),
           (r.filter(lambda x: True).repeat(), -1)]
  assert [int(experimental.cardinality(d)) for d, _ in cases] == [n for _, n in cases]
  assert experimental.cardinality(r).dtype == tf.int64
  assert (experimental.INFINITE_CARDINALITY, experimental.UNKNOWN_CARDINALITY) == (-1, -2)


def test_iterator_position_saved_and_restored_by_checkpoint(tmp_path):
  iterator = tf.contrib.eager.Iterator(tf.data.Dataset.range(5).map(lambda x: x * x))
  checkpoint = tf.train.Checkpoint(iterator=iterator)
  assert iterator.get_next().numpy() == 0
  save_path = checkpoint.save(str(tmp_path / "ckpt"))
  assert [iterator.get_next().numpy() for _ in range(2)] == [1, 4]
  checkpoint.restore(save_path)
  assert [int(x) for x in iterator] == [1, 4, 9, 16]
  shuffled = tf.contrib.eager.Iterator(tf.data.Dataset.range(5).shuffle(5))
  save_path = tf.train.Checkpoint(iterator=shuffled).save(str(tmp_path / "shuffled"))
  with pytest.raises(NotImplementedError, match="Shuffle"):
    tf.train.Checkpoint(iterator=shuffled).restore(save_path)


def test_sparse_tensor_value_slices_and_nested_generator_elements():
  sparse = tf.SparseTensorValue(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[2, 3])
  rows = list(tf.data.Dataset.from_tensor_slices((sparse, [5, 6])))
  assert [(r[0].indices.numpy().tolist(), r[0].values.numpy().tolist(),
           r[0].dense_shape.numpy().tolist(), int(r[1])) for r in rows] == [
               ([[0]], [1], [3], 5), ([[1]], [2], [3], 6)]

  def generator():  # parts deeper than output_types are converted whole, as in TF
    yield (1, 2), [[3, 4]], {"a": (5, 6)}
  dataset = tf.data.Dataset.from_generator(generator, (tf.int64, tf.int32, {"a": tf.float32}))
  (first, second, third), = list(dataset)
  assert (first.numpy().tolist(), first.dtype) == ([1, 2], tf.int64)
  assert (second.numpy().tolist(), second.dtype) == ([[3, 4]], tf.int32)
  assert third["a"].numpy().tolist() == [5.0, 6.0]


def test_py_func_in_map_returns_outputs_as_tf_graph():
  dataset = tf.data.Dataset.range(2).map(
      lambda x: tf.py_func(lambda v: [[v + 1]], [x], tf.int64))
  assert [(e.shape.as_list(), e.dtype, e.numpy().tolist()) for e in dataset] == [
      ([1], tf.int64, [1]), ([1], tf.int64, [2])]
  pairs = tf.data.Dataset.range(1).map(
      lambda x: tf.py_func(lambda v: [[v], [v, v]], [x], [tf.int64, tf.int64]))
  assert values(pairs) == [([0], [0, 0])]
  assert tf.py_func(lambda v: [[v + 1]], [tf.constant(3, tf.int64)], tf.int64).shape == []
