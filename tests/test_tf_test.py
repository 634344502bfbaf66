"""tf.test: TestCase assertions and sessions, tf.test.main under tfe-run, Benchmark, gradients.

Golden messages and values come from TensorFlow 2.21's tf.test (same NumPy version), whose
TestCase behaves as TF 1.15's for these methods under eager execution.
"""
import collections
import os
import random
import subprocess
import sys
import textwrap
import unittest

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.internal import platform_test

TFE_RUN = os.path.join(os.path.dirname(sys.executable), "tfe-run")


class _Case(tf.test.TestCase):
  __test__ = False  # used directly, not collected

  def runTest(self):  # pylint: disable=invalid-name
    pass


@pytest.fixture(name="case")
def fixture_case():
  case = _Case()
  case.setUp()
  yield case
  case.tearDown()


def _message(fn, *args, **kwargs):
  with pytest.raises(AssertionError) as info:
    fn(*args, **kwargs)
  return str(info.value)


# ---- Assertions (in process) ----
def test_assert_all_close_values_and_structures(case):
  case.assertAllClose([1.0, 2.0], tf.constant([1.0, 2.0]))
  case.assertAllClose({"a": tf.Variable([1.0, 2.0]), "b": (np.ones(2), 3)},
                      {"a": [1.0, 2.0], "b": (tf.ones([2]), 3.0)})
  case.assertAllClose([1.0, np.nan], [1.0, np.nan])
  case.assertAllClose(1.0, 1.0 + 1e-7)
  message = _message(case.assertAllClose, [1.0, 2.0, 3.0], tf.constant([1.0, 2.5, 3.0]))
  assert message.startswith(
      "\nNot equal to tolerance rtol=1e-06, atol=1e-06\n"
      "Mismatched value: a is different from b. \n"
      "not close where = (array([1]),)\nnot close lhs = [2.]\nnot close rhs = [2.5]\n"
      "not close dif = [0.5]\nnot close tol = [3.4999998e-06]\n"
      "dtype = float64, shape = (3,)\nMismatched elements: 1 / 3 (33.3%)\n")
  assert message.endswith(" DESIRED: array([1. , 2.5, 3. ], dtype=float32)")
  message = _message(case.assertAllClose, {"a": 1.0, "b": [1, 2]}, {"a": 1.0, "b": [1, 3]})
  assert "Mismatched value: a[b] is different from b[b]. \n" in message
  point = collections.namedtuple("Point", "x y")
  message = _message(case.assertAllClose, point(1.0, 2.0), point(1.0, 2.1))
  assert "Mismatched value: a[y] is different from b[y]. \nnot close lhs = 2.0\n" in message
  message = _message(case.assertAllClose, (np.ones(2), np.ones(3)), (np.ones(2), np.ones(3) * 2))
  assert "a[1] is different from b[1]. \nnot close where = (array([0, 1, 2]),)" in message
  message = _message(case.assertAllClose, [1.0, 2.0], [1.0, 2.0, 3.0])
  assert message.endswith(" : Shape mismatch: expected (2,), got (3,) with contents [1. 2. 3.].")
  with pytest.raises(ValueError, match=r"^Can't compare dict to non-dict, a vs b. $"):
    case.assertAllClose({"a": 1.0}, [1.0])
  message = _message(case.assertAllClose, {"a": 1.0}, {"b": 1.0})
  assert message.endswith(": mismatched keys: a has keys dict_keys(['a']), but b has keys "
                          "dict_keys(['b']). ")
  case.assertNotAllClose([1.0], [2.0])
  assert _message(case.assertNotAllClose, [1.0], [1.0]) == (
      "The two values are close at all elements. ")


def test_assert_all_close_according_to_type(case):
  case.assertAllCloseAccordingToType(np.float16(1.0), np.float16(1.0005))
  message = _message(case.assertAllCloseAccordingToType, np.float32(1.0), np.float32(1.0005))
  assert "not close tol = 2.000499989662785e-06\ndtype = float32, shape = ()\n" in message


def test_assert_all_equal(case):
  case.assertAllEqual([[1, 2], [3, 4]], tf.constant([[1, 2], [3, 4]]))
  case.assertAllEqual([np.nan, 1.0], [np.nan, 1.0])
  case.assertAllEqual([b"a", b"b"], tf.constant(["a", "b"]))
  message = _message(case.assertAllEqual, [[1, 2], [3, 4]], tf.constant([[1, 2], [3, 5]]))
  assert message.startswith(
      "\nArrays are not equal\n\nnot equal where = (array([1]), array([1]))\n"
      "not equal lhs = array([4])\nnot equal rhs = array([5], dtype=int32)\n")
  message = _message(case.assertAllEqual, [b"a", b"b"], tf.constant(["a", "c"]))
  assert ("not equal lhs = array([b'b'], dtype='|S1')\n"
          "not equal rhs = array([b'c'], dtype=object)\n") in message
  message = _message(case.assertAllEqual, [1, 2], [1, 2, 3])
  assert message.endswith(" : Shape mismatch: expected (2,), got (3,). Contents: "
                          "array([1, 2, 3]). \n.")
  case.assertNotAllEqual([1], [2])
  assert _message(case.assertNotAllEqual, [1], [1]) == (
      "The two values are equal at all elements. ")


def test_comparisons_ranges_and_sets(case):
  case.assertAllGreater(tf.constant([2, 3]), 1)
  case.assertAllLessEqual([1, 2], 2)
  assert _message(case.assertAllGreater, [1, 2], 1) == "np.int64(1) not greater than 1"
  assert _message(case.assertAllLess, [1, 2], 2) == "np.int64(2) not less than 2"
  case.assertAllInRange(tf.constant([0.0, 3.0]), 0, 3)
  assert _message(case.assertAllInRange, [1.0, 2.0, 5.0], 0, 3) == (
      "1 of the 3 element(s) are outside the range [0, 3]. Subscript(s) and value(s) of the "
      "offending elements:\n  [2] : 5.0")
  assert _message(case.assertAllInRange, [1, 3], 1, 3, True, True) == (
      "2 of the 2 element(s) are outside the range (1, 3). Subscript(s) and value(s) of the "
      "offending elements:\n  [0] : 1\n  [1] : 3")
  assert _message(case.assertAllInRange, [1.0, np.nan], 0, 3) == (
      "1 of the 2 element(s) are NaN. Subscripts(s) and value(s) of the NaN element(s):\n"
      "  [1] : nan")
  assert _message(case.assertAllInSet, [1, 2, 5], [1, 2]) == (
      "1 unique element(s) are not in the set [1, 2]: [5]")
  case.assertDTypeEqual(tf.ones([2]), np.float32)


def test_near_shape_device_and_raises(case):
  case.assertNear(1.0, 1.05, 0.1)
  assert _message(case.assertNear, 1.0, 1.2, 0.1, msg="hi") == (
      "False is not true : 1.000000 != 1.200000 +/- 0.100000 (difference: 0.2) (hi)")
  assert "2.000000 != 2.200000 +/- 0.100000" in _message(
      case.assertArrayNear, [1.0, 2.0], [1.0, 2.2], 0.1)
  case.assertShapeEqual(np.zeros((2, 3)), tf.zeros((2, 3)))
  assert "not equal lhs = array([3])" in _message(
      case.assertShapeEqual, np.zeros((2, 3)), tf.zeros((2, 4)))
  with pytest.raises(TypeError, match="input_a must be a Numpy ndarray, Numpy scalar, or a "
                     "Tensor.Instead received <class 'list'>"):
    case.assertShapeEqual([1], tf.zeros((2, 4)))
  case.assertDeviceEqual("/gpu:0", "/device:GPU:0")
  assert _message(case.assertDeviceEqual, "/cpu:0", "/device:GPU:0").startswith(
      "Devices /device:CPU:0 and /device:GPU:0 are not equal. None:")
  with case.assertRaisesOpError("Input to reshape is a tensor with 6 values"):
    tf.reshape(tf.zeros([2, 3]), [4])
  with pytest.raises(AssertionError, match="^Exception of type <class 'AssertionError'>: "
                     "OpError not raised$"):
    with case.assertRaisesOpError("anything"):
      pass
  with case.assertRaisesWithPredicateMatch(ValueError, lambda e: "y" in str(e)):
    raise ValueError("xy")
  case.assertDictEqual({"a": tf.constant(1.0)}, {"a": 1.0})
  case.assertStartsWith("abc", "ab")
  case.assertLen([1, 2], 2)  # absltest.TestCase's assertions are there too


# ---- evaluate, sessions, setUp, temp dirs ----
def test_evaluate_and_sessions(case):
  result = case.evaluate([tf.constant(1.0), {"a": tf.constant([1, 2])}, None, tf.Variable(2.0)])
  assert isinstance(result, list) and result[2] is None
  assert result[0] == np.float32(1.0) and type(result[0]) is np.float32
  np.testing.assert_array_equal(result[1]["a"], np.array([1, 2], np.int32))
  assert result[1]["a"].dtype == np.int32 and result[3] == np.float32(2.0)
  assert case.evaluate(lambda: tf.constant(2.0)) == np.float32(2.0)
  with pytest.raises(ValueError, match="^Unsupported type 'int'.$"):
    case.evaluate([3])
  with case.test_session() as sess:
    assert sess.run([tf.constant(1.0)]) == [np.float32(1.0)]
    with case.cached_session() as same:
      assert same is sess
    with pytest.raises(RuntimeError, match="feed_dict is not supported when eager execution"):
      sess.run(tf.constant(1.0), feed_dict={"x": 1})
  with case.session(use_gpu=True) as sess:
    assert sess.run({"a": tf.constant(1)}) == {"a": np.int32(1)}


def test_setup_seeds_and_temp_dirs(case):
  # TF's TestCase.setUp seeds Python's and NumPy's generators with 87654321.
  assert np.random.rand() == 0.18463433217903202
  assert random.random() == 0.3499765785632496
  first = tf.random_uniform([3]).numpy()
  case.setUp()
  np.testing.assert_array_equal(tf.random_uniform([3]).numpy(), first)
  assert case.get_temp_dir() == case.get_temp_dir()
  assert os.path.dirname(case.get_temp_dir()) == tf.test.get_temp_dir()
  assert os.path.isdir(case.get_temp_dir())


def test_checked_thread(case):
  failing = case.checkedThread(target=lambda: 1 / 0)
  failing.start()
  with pytest.raises(AssertionError, match="Error in checkedThread: division by zero"):
    failing.join()
  unjoined = case.checkedThread(target=lambda: None)
  with pytest.raises(AssertionError, match="A checked thread was not joined."):
    case.tearDown()
  unjoined.start()
  unjoined.join()


def test_mock_and_stubs():
  assert tf.test.mock is unittest.mock
  target = collections.namedtuple("T", "x")
  with tf.test.StubOutForTesting() as stubs:
    stubs.Set(platform_test, "_REPORT_ENV", "X")
    stubs.SmartSet(target, "extra", 5)
    assert platform_test._REPORT_ENV == "X" and target.extra == 5
  assert platform_test._REPORT_ENV == "TEST_REPORT_FILE_PREFIX"
  assert not hasattr(target, "extra")


# ---- compute_gradient ----
def test_compute_gradient():
  theoretical, numeric = tf.test.compute_gradient(lambda x: x * x, [[1.0, 2.0]])
  np.testing.assert_array_equal(theoretical[0], [[2.0, 0.0], [0.0, 4.0]])
  assert theoretical[0].dtype == np.float32 and numeric[0].dtype == np.float32
  np.testing.assert_allclose(numeric[0], [[2.0, 0.0], [0.0, 4.0]], atol=1e-3)
  theoretical, numeric = tf.test.compute_gradient(lambda x, y: x * y, [[1.0, 2.0], 3.0])
  np.testing.assert_array_equal(theoretical[1], [[1.0], [2.0]])
  np.testing.assert_allclose(numeric[0], [[3.0, 0.0], [0.0, 3.0]], atol=1e-3)
  theoretical, numeric = tf.test.compute_gradient(
      lambda x: tf.reduce_sum(x * x), [tf.constant([[1.0, 2.0]], tf.float64)], 1e-3)
  assert theoretical[0].dtype == np.float64 and theoretical[0].shape == (1, 2)
  np.testing.assert_allclose(numeric[0], [[2.0, 4.0]], rtol=1e-9)
  theoretical, numeric = tf.test.compute_gradient(lambda x: x[:0], [[1.0, 2.0]])
  assert theoretical[0].shape == numeric[0].shape == (0, 2)
  theoretical, _ = tf.test.compute_gradient(lambda x: tf.constant(3.0), [[1.0, 2.0]])
  np.testing.assert_array_equal(theoretical[0], [[0.0, 0.0]])
  error = tf.test.compute_gradient_error(lambda x: tf.tanh(x), [[0.1, 0.5]])
  assert 0 < error < 1e-3
  with pytest.raises(AssertionError, match="unsupported type int32 of argument 0"):
    tf.test.compute_gradient(lambda x: x * x, [[1]])
  with pytest.raises(ValueError, match="`x` must be a list or tuple"):
    tf.test.compute_gradient(lambda x: x * x, 1.0)
  with pytest.raises(RuntimeError, match=r"pass the function and its arguments instead"):
    tf.test.compute_gradient(tf.constant(1.0), [], tf.constant(1.0), [])


# ---- Benchmark ----
class _Bench(tf.test.Benchmark):
  def benchmarkStep(self):
    self._inner()

  def _inner(self):
    self.report_benchmark(iters=5, wall_time=0.25, extras={"examples_per_sec": 128.5},
                          metrics=[{"name": "loss", "value": 0.5, "max_value": 1.0}])


def test_report_benchmark_prints_and_writes(capsys, tmp_path, monkeypatch):
  _Bench().benchmarkStep()
  _Bench().report_benchmark(name="named/one", cpu_time=2.0, throughput=1.5)
  assert capsys.readouterr().out == textwrap.dedent("""\
      entry {
        name: "_Bench.benchmarkStep"
        iters: 5
        wall_time: 0.25
        extras {
          key: "examples_per_sec"
          value {
            double_value: 128.5
          }
        }
        metrics {
          name: "loss"
          value: 0.5
          max_value {
            value: 1
          }
        }
      }

      entry {
        name: "_Bench.named/one"
        cpu_time: 2
        throughput: 1.5
      }

      """)
  with pytest.raises(TypeError, match="extras must be a dict"):
    _Bench().report_benchmark(extras=[1])
  with pytest.raises(ValueError, match="Unable to determine calling Benchmark class."):
    platform_test.Benchmark._get_name(None)  # no Benchmark on the stack
  monkeypatch.setenv("TEST_REPORT_FILE_PREFIX", str(tmp_path / "report_"))
  _Bench().report_benchmark(name="named/one", cpu_time=2.0, throughput=1.5)
  # Bytes TensorFlow's own BenchmarkEntries proto serializes to for the same call.
  golden = bytes.fromhex("0a240a105f42656e63682e6e616d65642f6f6e6519000000000000004029000000"
                         "000000f83f")
  assert (tmp_path / "report__Bench.named__one").read_bytes() == golden
  with pytest.raises(IOError, match="File already exists"):
    _Bench().report_benchmark(name="named/one")
  with pytest.raises(NotImplementedError, match="report_benchmark"):
    _Bench().run_op_benchmark(None, tf.constant(1.0))


# ---- tf.test.main under tfe-run ----
SAMPLE = '''
import random
import numpy as np
import tensorflow as tf
import tensorflow.contrib.eager as tfe


class SampleTest(tf.test.TestCase):

  def setUp(self):
    super(SampleTest, self).setUp()
    self.seeded = (np.random.rand(), random.random())

  def testValues(self):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    self.assertAllClose({"y": [[2.0, 4.0], [6.0, 8.0]]}, {"y": x * 2})
    self.assertAllEqual(tf.shape(x), [2, 2])
    self.assertEqual(tf.float32, x.dtype)
    self.assertEqual(self.seeded, (0.18463433217903202, 0.3499765785632496))

  def testSessionsAndEvaluate(self):
    with self.test_session() as sess:
      self.assertAllClose(sess.run(tf.reduce_sum(tf.ones([3]))), 3.0)
    with self.cached_session():
      self.assertAllEqual(self.evaluate([tf.range(3)])[0], [0, 1, 2])
    self.assertTrue(tf.gfile.Exists(self.get_temp_dir()))
    self.assertIn(tf.test.is_gpu_available(), (True, False))

  def testOpError(self):
    with self.assertRaisesOpError("Incompatible shapes"):
      tf.add(tf.ones([2]), tf.ones([3]))


if __name__ == "__main__":
  tfe.enable_eager_execution()
  tf.test.main()
'''

FAILING = '''
import tensorflow as tf


class FailingTest(tf.test.TestCase):

  def testClose(self):
    self.assertAllClose([1.0, 2.0], tf.constant([1.0, 2.5]))

  def testFine(self):
    pass


class StepBenchmark(tf.test.Benchmark):

  def benchmarkStep(self):
    self.report_benchmark(iters=10, wall_time=0.5, extras={"examples_per_sec": 12.0})


if __name__ == "__main__":
  tf.test.main()
'''


def _tfe_run(tmp_path, source, *args):
  script = tmp_path / "sample_test.py"
  script.write_text(source)
  return subprocess.run([TFE_RUN, str(script)] + list(args), capture_output=True, text=True,
                        timeout=120, cwd=tmp_path, check=False)


def test_main_runs_passing_tests(tmp_path):
  out = _tfe_run(tmp_path, SAMPLE)
  assert out.returncode == 0, out.stderr
  lines = out.stderr.splitlines()
  for name in ("testOpError", "testSessionsAndEvaluate", "testValues"):
    assert "[       OK ] SampleTest.%s" % name in lines
  assert "[  SKIPPED ] SampleTest.test_session - Not a test." in lines
  assert "Ran 4 tests in " in out.stderr and lines[-1] == "OK (skipped=1)"
  selected = _tfe_run(tmp_path, SAMPLE, "SampleTest.testValues")
  assert selected.returncode == 0 and "Ran 1 test in " in selected.stderr


def test_main_failure_exit_code_message_and_benchmarks(tmp_path):
  out = _tfe_run(tmp_path, FAILING)
  assert out.returncode == 1
  assert "[  FAILED  ] FailingTest.testClose" in out.stderr
  assert "[       OK ] FailingTest.testFine" in out.stderr
  assert ("AssertionError: \nNot equal to tolerance rtol=1e-06, atol=1e-06\n"
          "Mismatched value: a is different from b. \n"
          "not close where = (array([1]),)\nnot close lhs = [2.]\nnot close rhs = [2.5]\n"
          "not close dif = [0.5]\nnot close tol = [3.4999998e-06]\n"
          "dtype = float64, shape = (2,)\n") in out.stderr
  assert out.stderr.rstrip().endswith("FAILED (failures=1, skipped=1)")
  bench = _tfe_run(tmp_path, FAILING, "--benchmarks=Step")
  assert bench.returncode == 0, bench.stderr
  assert bench.stdout == ('entry {\n  name: "StepBenchmark.benchmarkStep"\n  iters: 10\n'
                          '  wall_time: 0.5\n  extras {\n    key: "examples_per_sec"\n'
                          '    value {\n      double_value: 12\n    }\n  }\n}\n\n')
