"""`tf.test.TestCase`: TF 1.15's test case, for eager code.

Assertions accept Tensors, Variables, NumPy and Python values and nested lists, tuples,
namedtuples and dicts of them, and fail with TF's messages. The session context managers
yield an object whose `run(fetches)` evaluates eager tensors, so TF 1.x tests written as
`with self.test_session() as sess: ... sess.run(x)` run unchanged.

The module is also `tensorflow.python.framework.test_util` under `tfe-run`: TF's test
decorators run a test's eager half; graph-only tests are skipped with the eager-only reason.
"""
import collections.abc
import contextlib
import functools
import gc
import math
import random
import re
import tempfile
import threading
import unittest

import jax
import numpy as np
from absl.testing import absltest
from google.protobuf import text_format

from tfe_compat.internal import platform_test
from tfe_compat.framework import context, errors
from tfe_compat.client import session as session_lib
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import modes
from tfe_compat.framework.api import export
from tfe_compat.framework import device as device_lib
from tfe_compat.framework.device import DeviceSpec, is_gpu_available  # noqa: F401
from tfe_compat.framework.tensor import Tensor
from tfe_compat.summary import writer as summary_writer

_DEFAULT_GRAPH_SEED = 87654321
_CUSTOM_FLOATS = {"bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
                  "float8_e4m3b11fnuz", "float8_e5m2fnuz"}


class _EagerSession:
  """What the session context managers yield under eager execution: `run` evaluates."""

  def __init__(self, test_case):
    self._test_case = test_case
    self.graph = graph_lib.get_default_graph()

  def run(self, fetches, *args, **kwargs):
    if kwargs.pop("feed_dict", None):
      raise RuntimeError("feed_dict is not supported when eager execution is enabled "
                         "(in this case, sess.run(t) is shorthand for t.numpy()")
    if args or any(v is not None for v in kwargs.values()):
      raise RuntimeError("Optional args are not supported when eager execution is enabled "
                         "(in this case, sess.run(t) is shorthand for t.numpy()")
    return self._test_case.evaluate(fetches)

  def close(self):
    pass


class _CheckedThread:
  """A thread whose exception fails the test when it is joined."""

  def __init__(self, test_case, target, args=None, kwargs=None):
    self._test_case, self._target = test_case, target
    self._args, self._kwargs = args or (), kwargs or {}
    self._thread = threading.Thread(target=self._protected_run)
    self._exception = None
    self._is_thread_joined = False

  def _protected_run(self):
    try:
      self._target(*self._args, **self._kwargs)
    except Exception as e:  # pylint: disable=broad-except
      self._exception = e

  def start(self):
    self._thread.start()

  def join(self):
    self._is_thread_joined = True
    self._thread.join()
    if self._exception is not None:
      self._test_case.fail("Error in checkedThread: %s" % str(self._exception))

  def is_alive(self):
    return self._thread.is_alive()

  def check_termination(self):
    if not self._is_thread_joined:
      self._test_case.fail("A checked thread was not joined.")
    if self.is_alive():
      raise RuntimeError("Thread was not joined with main thread, and is still running when "
                         "the test finished.")


@export("test.TestCase")
class TestCase(absltest.TestCase):
  """Base class for tests of TensorFlow code (absltest.TestCase plus TF's assertions)."""

  def __init__(self, methodName="runTest"):
    super().__init__(methodName)
    self._threads = []
    self._tempdir = None
    self._cached_session = None

  def setUp(self):
    """Seeds Python's, NumPy's and TF's global RNGs with 87654321; clears the default writer."""
    super().setUp()
    random.seed(_DEFAULT_GRAPH_SEED)
    np.random.seed(_DEFAULT_GRAPH_SEED)
    graph_lib.reset_default_graph()
    context.set_random_seed(_DEFAULT_GRAPH_SEED)
    summary_writer.state.writer = None
    if self.id().endswith(".test_session"):  # the session method, collected as a test
      self.skipTest("Not a test.")

  def tearDown(self):
    for thread in self._threads:
      thread.check_termination()
    self._cached_session = None
    super().tearDown()

  def get_temp_dir(self):
    """A directory for this test (the same one on every call within the test)."""
    if not self._tempdir:
      self._tempdir = tempfile.mkdtemp(dir=platform_test.get_temp_dir())
    return self._tempdir

  def checkedThread(self, target, args=None, kwargs=None):
    thread = _CheckedThread(self, target, args, kwargs)
    self._threads.append(thread)
    return thread

  # ---- Evaluation and sessions ----
  def evaluate(self, tensors):
    """NumPy values of a Tensor or a nested structure of Tensors (callables are called);
    graph tensors run in the default session (or a test session), as TF 1.15 does."""
    if _has_graph_elements(tensors):
      sess = session_lib.get_default_session()
      if sess is None:
        with self.test_session() as sess:
          return sess.run(tensors)
      return sess.run(tensors)
    return platform_test.evaluate(tensors)

  @contextlib.contextmanager
  def session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
    """A Session on `graph` (the default graph) made the default; eagerly, an object whose
    `run` evaluates."""
    if graph is None and context.executing_eagerly():
      yield _EagerSession(self)
      return
    with session_lib.Session(graph=graph, config=config) as sess:
      yield sess

  @contextlib.contextmanager
  def cached_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
    if graph is None and context.executing_eagerly():
      if not isinstance(self._cached_session, _EagerSession):
        self._cached_session = _EagerSession(self)
      yield self._cached_session
      return
    graph = graph if graph is not None else graph_lib.get_default_graph()
    cached = self._cached_session
    if not isinstance(cached, session_lib.Session) or cached.graph is not graph:
      cached = self._cached_session = session_lib.Session(graph=graph, config=config)
    with graph.as_default(), cached.as_default():
      yield cached

  @contextlib.contextmanager
  def test_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
    if self.id().endswith(".test_session"):
      self.skipTest("Not a test.")
    with self.cached_session(graph, config, use_gpu, force_gpu) as sess:
      yield sess

  # ---- Values ----
  def _GetNdArray(self, a):
    if _has_graph_elements(a):
      a = self.evaluate(a)
    if callable(getattr(a, "numpy", None)):
      a = a.numpy()
    if not isinstance(a, np.ndarray):
      try:
        return np.array(a)
      except ValueError as e:
        if "inhomogeneous shape" in str(e):
          return np.array(a, dtype=object)
        raise
    return a

  def _assertArrayLikeAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
    a, b = self._GetNdArray(a), self._GetNdArray(b)
    if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
      shape_mismatch_msg = ("Shape mismatch: expected %s, got %s with contents %s."
                            % (a.shape, b.shape, b))
    else:
      shape_mismatch_msg = "Shape mismatch: expected %s, got %s." % (a.shape, b.shape)
    self.assertEqual(a.shape, b.shape, shape_mismatch_msg)
    msgs = [msg]
    a_dtype = a.dtype
    a = a.astype(np.float32) if a.dtype.name in _CUSTOM_FLOATS else a
    b = b.astype(np.float32) if b.dtype.name in _CUSTOM_FLOATS else b
    if not np.allclose(a, b, rtol=rtol, atol=atol):
      cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b), np.isnan(a) != np.isnan(b))
      if a.ndim:
        x, y = a[np.where(cond)], b[np.where(cond)]
        msgs.append("not close where = {}".format(np.where(cond)))
      else:
        x, y = a, b
      msgs.append("not close lhs = {}".format(x))
      msgs.append("not close rhs = {}".format(y))
      msgs.append("not close dif = {}".format(np.abs(x - y)))
      msgs.append("not close tol = {}".format(atol + rtol * np.abs(y)))
      msgs.append("dtype = {}, shape = {}".format(a_dtype, a.shape))
      np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(msgs),
                                 equal_nan=True)

  def _assertAllCloseRecursive(self, a, b, rtol=1e-6, atol=1e-6, path=None, msg=None):
    path = path or []
    path_str = ("[" + "][".join(str(p) for p in path) + "]") if path else ""
    msg = msg if msg else ""
    a = a._asdict() if hasattr(a, "_asdict") else a
    b = b._asdict() if hasattr(b, "_asdict") else b
    a_is_dict = isinstance(a, collections.abc.Mapping)
    if a_is_dict != isinstance(b, collections.abc.Mapping):
      raise ValueError("Can't compare dict to non-dict, a%s vs b%s. %s" % (path_str, path_str, msg))
    mismatch = "Mismatched value: a%s is different from b%s. %s" % (path_str, path_str, msg)
    if a_is_dict:
      self.assertItemsEqual(a.keys(), b.keys(),
                            msg="mismatched keys: a%s has keys %s, but b%s has keys %s. %s"
                            % (path_str, a.keys(), path_str, b.keys(), msg))
      for k in a:
        self._assertAllCloseRecursive(a[k], b[k], rtol=rtol, atol=atol, path=path + [k],
                                      msg=msg)
    elif isinstance(a, (list, tuple)):
      try:  # compare as arrays; traverse the sequences if they are not arrays
        self._assertArrayLikeAllClose(self._GetNdArray(a), self._GetNdArray(b), rtol=rtol,
                                      atol=atol, msg=mismatch)
      except (ValueError, TypeError, NotImplementedError):
        if len(a) != len(b):
          raise ValueError("Mismatched length: a%s has %d items, but b%s has %d items. %s"
                           % (path_str, len(a), path_str, len(b), msg))
        for idx, (a_ele, b_ele) in enumerate(zip(a, b)):
          self._assertAllCloseRecursive(a_ele, b_ele, rtol=rtol, atol=atol,
                                        path=path + [str(idx)], msg=msg)
    else:
      try:
        self._assertArrayLikeAllClose(a, b, rtol=rtol, atol=atol, msg=mismatch)
      except TypeError as e:
        e.args = ((e.args[0] + " : " + "Error: a%s has %s, but b%s has %s. %s"
                   % (path_str, type(a), path_str, type(b), msg),) + e.args[1:])
        raise

  def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
    """Asserts that two (nested structures of) arrays or Tensors have near values:
    |a - b| <= atol + rtol * |b| elementwise, NaNs in the same places."""
    self._assertAllCloseRecursive(a, b, rtol=rtol, atol=atol, msg=msg)

  def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,
                                    float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3,
                                    bfloat16_rtol=1e-2, bfloat16_atol=1e-2, msg=None):
    """assertAllClose with tolerances widened for float32/complex64, float16 and bfloat16."""
    a, b = self._GetNdArray(a), self._GetNdArray(b)
    kinds = {a.dtype.name, b.dtype.name}
    if kinds & {"float32", "complex64"}:
      rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
    if "float16" in kinds:
      rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
    if "bfloat16" in kinds:
      rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
    self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

  def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
    try:
      self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
    except AssertionError:
      return
    raise AssertionError("The two values are close at all elements. %s" % (msg or ""))

  def assertAllEqual(self, a, b, msg=None):
    """Asserts that two arrays or Tensors have the same shape and values (NaN equals NaN)."""
    msg = msg if msg else ""
    a, b = self._GetNdArray(a), self._GetNdArray(b)
    if b.ndim <= 3 or b.size < 500:
      self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s. Contents: %r. "
                       "\n%s." % (a.shape, b.shape, b, msg))
    else:
      self.assertEqual(a.shape, b.shape,
                       "Shape mismatch: expected %s, got %s. %s" % (a.shape, b.shape, msg))
    same = a == b
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
      same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
    if not np.all(same):
      msgs = [msg]
      diff = np.logical_not(same)
      if a.ndim:
        x, y = a[np.where(diff)], b[np.where(diff)]
        msgs.append("not equal where = {}".format(np.where(diff)))
      else:
        x, y = a, b
      msgs.append("not equal lhs = %r" % x)
      msgs.append("not equal rhs = %r" % y)
      if a.dtype.kind != b.dtype.kind and {a.dtype.kind, b.dtype.kind} <= {"U", "S", "O"}:
        a, b = ([item.encode("utf-8") if isinstance(item, str) else item for item in arr.flat]
                for arr in (a, b))
        a, b = np.array(a), np.array(b)
      np.testing.assert_array_equal(a, b, err_msg="\n".join(msgs))

  def assertNotAllEqual(self, a, b, msg=None):
    try:
      self.assertAllEqual(a, b)
    except AssertionError:
      return
    raise AssertionError("The two values are equal at all elements. %s" % (msg or ""))

  def assertAllGreater(self, a, comparison_target):
    self.assertGreater(np.min(self._GetNdArray(a)), comparison_target)

  def assertAllLess(self, a, comparison_target):
    self.assertLess(np.max(self._GetNdArray(a)), comparison_target)

  def assertAllGreaterEqual(self, a, comparison_target):
    self.assertGreaterEqual(np.min(self._GetNdArray(a)), comparison_target)

  def assertAllLessEqual(self, a, comparison_target):
    self.assertLessEqual(np.max(self._GetNdArray(a)), comparison_target)

  def _format_subscripts(self, subscripts, value, limit=10, indent=2):
    prefix = " " * indent
    if np.ndim(value) == 0:
      return [prefix + "[0] : " + str(value)]
    subscripts = np.transpose(subscripts)
    lines = [prefix + str(s) + " : " + str(value[tuple(s)]) for s in subscripts[:limit]]
    return lines + [prefix + "..."] if len(subscripts) > limit else lines

  def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,
                       open_upper_bound=False):
    """Asserts that every element lies in [lower_bound, upper_bound] (or the open range)."""
    target = self._GetNdArray(target)
    if not (np.issubdtype(target.dtype, np.floating) or np.issubdtype(target.dtype, np.integer)):
      raise AssertionError("The value of %s does not have an ordered numeric type, instead it "
                           "has type: %s" % (target, target.dtype))
    nan_subscripts = np.where(np.isnan(target))
    if np.size(nan_subscripts):
      raise AssertionError(
          "%d of the %d element(s) are NaN. Subscripts(s) and value(s) of the NaN element(s):\n"
          % (len(nan_subscripts[0]), np.size(target))
          + "\n".join(self._format_subscripts(nan_subscripts, target)))
    range_str = (("(" if open_lower_bound else "[") + str(lower_bound) + ", " +
                 str(upper_bound) + (")" if open_upper_bound else "]"))
    violations = np.logical_or(
        (target <= lower_bound) if open_lower_bound else (target < lower_bound),
        (target >= upper_bound) if open_upper_bound else (target > upper_bound))
    violation_subscripts = np.where(violations)
    if np.size(violation_subscripts):
      raise AssertionError(
          "%d of the %d element(s) are outside the range %s. " % (
              len(violation_subscripts[0]), np.size(target), range_str)
          + "Subscript(s) and value(s) of the offending elements:\n"
          + "\n".join(self._format_subscripts(violation_subscripts, target)))

  def assertAllInSet(self, target, expected_set):
    diff = np.setdiff1d(self._GetNdArray(target).flatten(), list(expected_set))
    if np.size(diff):
      raise AssertionError("%d unique element(s) are not in the set %s: %s"
                           % (np.size(diff), expected_set, diff))

  def assertDTypeEqual(self, target, expected_dtype):
    self.assertEqual(self._GetNdArray(target).dtype, expected_dtype)

  def assertNear(self, f1, f2, err, msg=None):
    """Asserts |f1 - f2| <= err for two floats."""
    f1, f2 = np.squeeze(f1), np.squeeze(f2)
    if f1 != f2:  # inf == inf
      diff = math.fabs(f1 - f2)
      self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s" % (
          f1, f2, err, diff, " (%s)" % msg if msg is not None else ""))

  def assertArrayNear(self, farray1, farray2, err, msg=None):
    self.assertEqual(len(farray1), len(farray2), msg=msg)
    for f1, f2 in zip(farray1, farray2):
      self.assertNear(float(f1), float(f2), err, msg=msg)

  def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):
    self.assertTrue(np.linalg.norm(ndarray1 - ndarray2) < err, msg=msg)

  def assertShapeEqual(self, input_a, input_b, msg=None):
    """Asserts that two NumPy arrays (or scalars) or Tensors have the same shape."""
    for name, value in (("input_a", input_a), ("input_b", input_b)):
      if not isinstance(value, (np.ndarray, np.generic, Tensor)):
        raise TypeError("%s must be a Numpy ndarray, Numpy scalar, or a Tensor.Instead "
                        "received %s" % (name, type(value)))
    shape_a, shape_b = (v.get_shape().as_list() if isinstance(v, Tensor) else v.shape
                        for v in (input_a, input_b))
    self.assertAllEqual(shape_a, shape_b, msg=msg)

  def assertDeviceEqual(self, device1, device2, msg=None):
    """Asserts two device strings (or DeviceSpecs) name the same device."""
    device1, device2 = (d.to_string() if isinstance(d, DeviceSpec) else
                        DeviceSpec.from_string(d or "").to_string() for d in (device1, device2))
    self.assertEqual(device1, device2,
                     "Devices %s and %s are not equal. %s" % (device1, device2, msg))

  def assertDictEqual(self, a, b, msg=None):
    """dict equality, where values may be arrays or Tensors (floats compared with allclose)."""
    try:
      super().assertDictEqual(a, b, msg)
    except Exception:  # pylint: disable=broad-except
      self.assertSameElements(a.keys(), b.keys())
      for k, v in a.items():
        if np.issubdtype(self._GetNdArray(v).dtype, np.floating):
          self.assertAllClose(v, b[k], msg=k)
        else:
          self.assertAllEqual(v, b[k], msg=k)

  def assertStartsWith(self, actual, expected_start, msg=None):
    if not actual.startswith(expected_start):
      self.fail("%r does not start with %r" % (actual, expected_start) +
                (" : %r" % msg if msg else ""))

  def assertProtoEquals(self, expected_message_maybe_ascii, message, msg=None):
    """Asserts a protobuf message equals another or a text-format string of one."""
    expected = expected_message_maybe_ascii
    if isinstance(expected, str):
      expected = text_format.Parse(expected, type(message)())
    self.assertMultiLineEqual(text_format.MessageToString(expected),
                              text_format.MessageToString(message), msg=msg)

  # ---- Exceptions ----
  @contextlib.contextmanager
  def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):
    """Expects `exception_type` whose message matches a regex (or satisfies a predicate)."""
    if callable(expected_err_re_or_predicate):
      predicate = expected_err_re_or_predicate
    else:
      def predicate(e):
        message = e.message if isinstance(e, errors.OpError) else str(e)
        return re.search(expected_err_re_or_predicate, message)
    try:
      yield
      self.fail(exception_type.__name__ + " not raised")
    except Exception as e:  # pylint: disable=broad-except
      if not isinstance(e, exception_type) or not predicate(e):
        raise AssertionError("Exception of type %s: %s" % (str(type(e)), str(e)))

  def assertRaisesOpError(self, expected_err_re_or_predicate):
    return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)

  def assertRaisesIncompatibleShapesError(self, exception_type=errors.InvalidArgumentError):
    return self.assertRaisesWithPredicateMatch(
        exception_type,
        r"Incompatible shapes|Dimensions must be equal|required broadcastable shapes")

  assertRaisesRegexp = absltest.TestCase.assertRaisesRegex
  assertItemsEqual = absltest.TestCase.assertCountEqual


TensorFlowTestCase = TestCase

def _has_graph_elements(structure):
  leaves = jax.tree_util.tree_leaves(structure, is_leaf=lambda x: isinstance(x, Tensor) or
                                     hasattr(x, "_as_tensor"))
  return any(isinstance(x, (graph_lib.GraphTensor, graph_lib.Operation)) or
             getattr(x, "_graph", None) is not None for x in leaves)


def _decorator(wrap):
  """Lets `wrap(test)` be used as `@d`, `@d()` and `@d(reason, ...)`."""
  @functools.wraps(wrap)
  def decorator(func=None, *args, **kwargs):
    if callable(func):
      return wrap(func)
    return wrap
  return decorator


@_decorator
def run_in_graph_and_eager_modes(test):
  """`@test_util.run_in_graph_and_eager_modes`: the test runs in a new graph (with a test
  session), then eagerly after a fresh setUp, as TF 1.15 runs it."""
  if getattr(test, "runs_in_both_modes", False):
    return test

  @functools.wraps(test)
  def decorated(self, *args, **kwargs):
    try:
      with graph_lib.Graph().as_default(), self.test_session():
        test(self, *args, **kwargs)
    except unittest.SkipTest:
      pass
    self.tearDown()
    self._tempdir = None
    self.setUp()
    with modes.eager_mode():
      return test(self, *args, **kwargs)
  decorated.runs_in_both_modes = True
  return decorated


def _in_graph_mode(test):
  @functools.wraps(test)
  def decorated(self, *args, **kwargs):
    with graph_lib.get_default_graph().as_default():
      return test(self, *args, **kwargs)
  return decorated


@_decorator
def run_v1_only(test):
  """`@test_util.run_v1_only(reason)`: the test runs (this is TF 1.x)."""
  return test


def run_all_in_graph_and_eager_modes(cls):
  """`@test_util.run_all_in_graph_and_eager_modes`: every test method runs in both modes."""
  for name, value in list(vars(cls).items()):
    if name.startswith("test") and callable(value) and name != "test_session":
      setattr(cls, name, run_in_graph_and_eager_modes(value))
  return cls


def _skipped(reason):
  def wrap(test):
    @functools.wraps(test)
    def skipped(self, *args, **kwargs):
      raise unittest.SkipTest(reason)
    return skipped
  return _decorator(wrap)


def assert_no_garbage_created(test):
  """`@test_util.assert_no_garbage_created`: fails if the test leaves reference cycles."""
  @functools.wraps(test)
  def decorated(self, **kwargs):
    gc.disable()
    previous_debug_flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    previous_garbage = len(gc.garbage)
    try:
      result = test(self, **kwargs)
      gc.collect()
      new = gc.garbage[previous_garbage:]
      self.assertEqual(previous_garbage, len(gc.garbage),
                       "The test created reference cycles: %s" % sorted(
                           {type(obj).__name__ for obj in new}))
    finally:
      del gc.garbage[previous_garbage:]
      gc.set_debug(previous_debug_flags)
      gc.enable()
    return result
  return decorated


run_deprecated_v1 = _decorator(_in_graph_mode)  # TF 1.15: the test runs in graph mode
deprecated_graph_mode_only = run_deprecated_v1
run_v2_only = _skipped("Test requires TF 2.x behavior; tfe_compat runs TF 1.x.")


def run_gpu_only(func=None):
  """`@test_util.run_gpu_only`: the test is skipped where no GPU is present."""
  def wrap(test):
    @functools.wraps(test)
    def decorated(self, *args, **kwargs):
      if not is_gpu_available():
        self.skipTest("Test requires GPU")
      return test(self, *args, **kwargs)
    return decorated
  return wrap(func) if func is not None else wrap


@contextlib.contextmanager
def device(use_gpu):
  """Ops inside run on the first GPU when `use_gpu` and one is present, else on the CPU."""
  with device_lib.device("/device:GPU:0" if use_gpu and is_gpu_available() else
                         "/device:CPU:0"):
    yield


@contextlib.contextmanager
def use_gpu():
  """Ops inside run on the first GPU where there is one."""
  with device(use_gpu=True):
    yield


@contextlib.contextmanager
def force_gpu():
  with device_lib.device("/device:GPU:0"):
    yield


@contextlib.contextmanager
def force_cpu():
  with device_lib.device("/device:CPU:0"):
    yield
