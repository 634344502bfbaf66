"""`tf.test` outside TestCase: `main`, `Benchmark`, `get_temp_dir`, `compute_gradient`, `mock`.

`tf.test.main()` runs the `__main__` module's test cases with unittest (under `tfe-run foo_test.py`
that module is the script), printing absltest's `[ RUN      ]` lines, and exits 0 only when
every test passed; `--benchmarks=REGEX` (TF 1.x) or `--benchmark_filter=REGEX` runs the
`tf.test.Benchmark` methods whose `module.Class.benchmarkMethod` name matches instead.
"""
import atexit
import logging
import numbers
import os
import re
import shutil
import sys
import tempfile
import unittest
import unittest.mock

import numpy as np
from absl import flags as _absl_flags
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, wrappers_pb2

from tfe_compat.eager.tape import GradientTape
from tfe_compat.framework import dtypes, ops
from tfe_compat.framework.api import export
from tfe_compat.proto.config_pb2 import ConfigProto
from tfe_compat.ops.string_ops import SparseTensor, SparseTensorValue

export("test.mock")(unittest.mock)
_log = logging.getLogger("tensorflow")


# ---- Evaluating nested structures of eager tensors ----
def map_structure(fn, structure):
  """Applies `fn` to the leaves of nested lists, tuples, namedtuples and dicts."""
  if isinstance(structure, dict):
    items = [(k, map_structure(fn, v)) for k, v in structure.items()]
    try:
      return type(structure)(items)
    except TypeError:  # e.g. a defaultdict
      return dict(items)
  if isinstance(structure, tuple) and hasattr(structure, "_fields"):
    return type(structure)(*[map_structure(fn, v) for v in structure])
  if isinstance(structure, (list, tuple)):
    return type(structure)(map_structure(fn, v) for v in structure)
  return fn(structure)


def _eval_tensor(tensor):
  if tensor is None:
    return None
  if callable(tensor):
    return evaluate(tensor())
  if isinstance(tensor, SparseTensor):
    return SparseTensorValue(tensor.indices.numpy(), tensor.values.numpy(),
                             tensor.dense_shape.numpy())
  if callable(getattr(tensor, "numpy", None)):
    return tensor.numpy()
  raise ValueError("Unsupported type %r." % type(tensor).__name__)


def evaluate(tensors):
  """NumPy values of a Tensor (or Variable, or callable) or a nested structure of them."""
  return None if tensors is None else map_structure(_eval_tensor, tensors)


# ---- Temporary directories ----
_temp_dir = []


@export("test.get_temp_dir")
def get_temp_dir():
  """One temporary directory for the whole process (named after the program), removed at exit."""
  if not _temp_dir:
    if os.environ.get("TEST_TMPDIR"):
      path = tempfile.mkdtemp(prefix=os.environ["TEST_TMPDIR"])
    else:
      program = os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "python")
      program = program[:-3] if program.endswith(".py") else program
      path = tempfile.mkdtemp(prefix=os.path.join(tempfile.gettempdir(), program))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    _temp_dir.append(path)
  return _temp_dir[0]


@export("test.test_src_dir_path")
def test_src_dir_path(relative_path):
  """`relative_path` inside the TensorFlow source tree ($TEST_SRCDIR, or a sys.path entry)."""
  if os.environ.get("TEST_SRCDIR"):
    return os.path.join(os.environ["TEST_SRCDIR"], "org_tensorflow/tensorflow", relative_path)
  for entry in sys.path:
    root = os.path.join(entry or os.getcwd(), "tensorflow")
    if os.path.exists(os.path.join(root, relative_path)):
      return os.path.join(root, relative_path)
  raise IOError("%r not found under a `tensorflow` directory on sys.path; put the TensorFlow "
                "source tree's root on PYTHONPATH or set TEST_SRCDIR." % relative_path)


@export("test.StubOutForTesting")
class StubOutForTesting:
  """Replaces attributes for a test and puts the originals back on `UnsetAll()`."""

  _MISSING = object()

  def __init__(self):
    self.cache = []

  def __enter__(self):
    return self

  def __exit__(self, *exc_info):
    self.CleanUp()

  def Set(self, parent, child_name, new_child):  # pylint: disable=invalid-name
    old = vars(parent).get(child_name, self._MISSING) if hasattr(parent, "__dict__") else (
        getattr(parent, child_name))
    self.cache.append((parent, child_name, old))
    setattr(parent, child_name, new_child)

  SmartSet = Set

  def UnsetAll(self):  # pylint: disable=invalid-name
    for parent, child_name, old in reversed(self.cache):
      if old is self._MISSING:
        delattr(parent, child_name)
      else:
        setattr(parent, child_name, old)
    self.cache = []

  SmartUnsetAll = CleanUp = UnsetAll


# ---- Benchmarks ----
def _benchmark_entries_class():
  """BenchmarkEntries, from a descriptor equal to TF's test_log.proto (same serialization)."""
  field = descriptor_pb2.FieldDescriptorProto
  wrappers = descriptor_pb2.FileDescriptorProto()
  wrappers_pb2.DESCRIPTOR.CopyToProto(wrappers)
  file = descriptor_pb2.FileDescriptorProto(
      name="tfe_compat/tensorflow/core/util/test_log.proto", package="tensorflow",
      syntax="proto3", dependency=["google/protobuf/wrappers.proto"])
  opt, rep, msg = field.LABEL_OPTIONAL, field.LABEL_REPEATED, field.TYPE_MESSAGE

  def message(container, name, fields):
    result = container.add(name=name)
    for number, (field_name, kind, label, type_name) in enumerate(fields, 1):
      result.field.add(name=field_name, number=number, type=kind, label=label,
                       **({"type_name": type_name} if type_name else {}))
    return result

  entry_value = message(file.message_type, "EntryValue", [
      ("double_value", field.TYPE_DOUBLE, opt, None),
      ("string_value", field.TYPE_STRING, opt, None)])
  entry_value.oneof_decl.add(name="kind")
  for f in entry_value.field:
    f.oneof_index = 0
  message(file.message_type, "MetricEntry", [
      ("name", field.TYPE_STRING, opt, None), ("value", field.TYPE_DOUBLE, opt, None),
      ("min_value", msg, opt, ".google.protobuf.DoubleValue"),
      ("max_value", msg, opt, ".google.protobuf.DoubleValue")])
  entry = message(file.message_type, "BenchmarkEntry", [
      ("name", field.TYPE_STRING, opt, None), ("iters", field.TYPE_INT64, opt, None),
      ("cpu_time", field.TYPE_DOUBLE, opt, None), ("wall_time", field.TYPE_DOUBLE, opt, None),
      ("throughput", field.TYPE_DOUBLE, opt, None),
      ("extras", msg, rep, ".tensorflow.BenchmarkEntry.ExtrasEntry"),
      ("metrics", msg, rep, ".tensorflow.MetricEntry")])
  extras = message(entry.nested_type, "ExtrasEntry", [
      ("key", field.TYPE_STRING, opt, None), ("value", msg, opt, ".tensorflow.EntryValue")])
  extras.options.map_entry = True
  message(file.message_type, "BenchmarkEntries", [
      ("entry", msg, rep, ".tensorflow.BenchmarkEntry")])
  pool = descriptor_pool.DescriptorPool()
  pool.Add(wrappers)
  pool.Add(file)
  return message_factory.GetMessageClass(pool.FindMessageTypeByName("tensorflow.BenchmarkEntries"))


_BenchmarkEntries = _benchmark_entries_class()
_REPORT_ENV = "TEST_REPORT_FILE_PREFIX"
_benchmark_registry = []


def _report(name, iters, cpu_time, wall_time, throughput, extras, metrics):
  """Logs one benchmark; prints its BenchmarkEntries proto, or writes it to
  $TEST_REPORT_FILE_PREFIX<name> when that variable is set (as TF does)."""
  _log.info("Benchmark [%s] iters: %d, wall_time: %g, cpu_time: %g,throughput: %g, "
            "extras: %s, metrics: %s", name, -1 if iters is None else iters,
            -1 if wall_time is None else wall_time, -1 if cpu_time is None else cpu_time,
            -1 if throughput is None else throughput, str(extras) if extras else "None",
            str(metrics) if metrics else "None")
  entries = _BenchmarkEntries()
  entry = entries.entry.add(name=name)
  for key, value in [("iters", iters), ("cpu_time", cpu_time), ("wall_time", wall_time),
                     ("throughput", throughput)]:
    if value is not None:
      setattr(entry, key, value)
  if extras is not None:
    if not isinstance(extras, dict):
      raise TypeError("extras must be a dict")
    for key, value in extras.items():
      if isinstance(value, numbers.Number):
        entry.extras[key].double_value = value
      else:
        entry.extras[key].string_value = str(value)
  if metrics is not None:
    if not isinstance(metrics, list):
      raise TypeError("metrics must be a list")
    for metric in metrics:
      for required in ("name", "value"):
        if required not in metric:
          raise TypeError("metric must has a '%s' field" % required)
      metric_entry = entry.metrics.add(name=metric["name"], value=metric["value"])
      for bound in ("min_value", "max_value"):
        if bound in metric:
          getattr(metric_entry, bound).value = metric[bound]
  prefix = os.environ.get(_REPORT_ENV)
  if prefix is None:
    print(str(entries))
    return
  path = prefix + name.replace("/", "__")
  if os.path.exists(path):
    raise IOError("File already exists: %s" % path)
  with open(path, "wb") as out:
    out.write(entries.SerializeToString())


@export("test.Benchmark")
class Benchmark:
  """Base class of benchmarks: each subclass is registered, and its `benchmark*` methods run
  under `tf.test.main()` when the program gets `--benchmarks=REGEX`."""

  def __init_subclass__(cls, **kwargs):
    super().__init_subclass__(**kwargs)
    _benchmark_registry.append(cls)

  def _get_name(self, overwrite_name=None):
    """"Class.method" of the outermost Benchmark method on the stack (or `overwrite_name`)."""
    frame, found = sys._getframe(1), None  # pylint: disable=protected-access
    while frame is not None:
      if isinstance(frame.f_locals.get("self"), Benchmark):
        found = frame
      frame = frame.f_back
    if found is None:
      raise ValueError("Unable to determine calling Benchmark class.")
    return "%s.%s" % (type(found.f_locals["self"]).__name__,
                      overwrite_name or found.f_code.co_name)

  def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                       extras=None, name=None, metrics=None):
    """Reports one result, named "Class.method" unless `name` is given."""
    _report(self._get_name(overwrite_name=name), iters, cpu_time, wall_time, throughput,
            extras, metrics)

  def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10,
                       store_trace=False, name=None, extras=None, mbs=0):
    raise NotImplementedError(
        "run_op_benchmark times Session.run of a graph, and tfe_compat runs eager code only: "
        "time the eager computation (e.g. with time.time()) and call self.report_benchmark().")

  def evaluate(self, tensors):
    return evaluate(tensors)


@export("test.benchmark_config")
def benchmark_config():
  return ConfigProto()


def _run_benchmarks(regex):
  selected = []
  for benchmark in list(_benchmark_registry):
    instance = None
    for attr in dir(benchmark):
      full_name = "%s.%s.%s" % (benchmark.__module__, benchmark.__name__, attr)
      if (attr.startswith("benchmark") and callable(getattr(benchmark, attr))
          and (regex == "all" or re.search(regex, full_name))):
        selected.append(full_name)
        instance = instance or benchmark()
        getattr(instance, attr)()
  if not selected:
    raise ValueError("No benchmarks matched the pattern: '{}'".format(regex))


# ---- tf.test.main ----
class _TestResult(unittest.TextTestResult):
  """unittest's result, reporting each test with absltest's `[ RUN      ]` lines."""

  def __init__(self, stream, descriptions, verbosity):
    super().__init__(stream, descriptions, verbosity)
    self.dots = self.showAll = False

  def _line(self, status, test, extra=""):
    name = test.id()
    name = name[len("__main__."):] if name.startswith("__main__.") else name
    self.stream.writeln("[%s] %s%s" % (status, name, extra))
    self.stream.flush()

  def startTest(self, test):
    super().startTest(test)
    self._line(" RUN      ", test)

  def addSuccess(self, test):
    super().addSuccess(test)
    self._line("       OK ", test)

  def addExpectedFailure(self, test, err):
    super().addExpectedFailure(test, err)
    self._line("       OK ", test)

  def addFailure(self, test, err):
    super().addFailure(test, err)
    self._line("  FAILED  ", test)

  def addError(self, test, err):
    super().addError(test, err)
    self._line("  FAILED  ", test)

  def addUnexpectedSuccess(self, test):
    super().addUnexpectedSuccess(test)
    self._line("  FAILED  ", test)

  def addSkip(self, test, reason):
    super().addSkip(test, reason)
    self._line("  SKIPPED ", test, " - " + str(reason))


class _TestRunner(unittest.TextTestRunner):
  resultclass = _TestResult


def _parse_flags(argv):
  """Parses the flags the program defined (tf.flags), leaving the rest, as TF's app.run does."""
  try:
    return _absl_flags.FLAGS(argv, known_only=True)
  except _absl_flags.Error as e:
    sys.stderr.write("FATAL Flags parsing error: %s\nPass --helpshort or --helpfull to see "
                     "help on flags.\n" % e)
    sys.exit(1)


@export("test.main")
def main(argv=None):
  """Runs the `__main__` module's tests (or its benchmarks) and exits with their status."""
  argv = list(sys.argv if argv is None else argv)
  requested = [a for a in argv if a.split("=")[0] in ("--benchmarks", "-benchmarks",
                                                      "--benchmark_filter", "-benchmark_filter")]
  if requested:
    argv.remove(requested[0])
    _parse_flags(argv)
    _run_benchmarks(requested[0].split("=", 1)[1])
    sys.exit(0)
  argv = _parse_flags(argv)
  unittest.main(module="__main__", argv=argv, testRunner=_TestRunner)


# ---- Gradient checking (TF 2's tf.test.compute_gradient(f, x), run eagerly) ----
_CHECKABLE = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64,
              dtypes.complex64, dtypes.complex128)


def _real_numpy(dtype):
  return dtype.real_dtype.as_numpy_dtype


def _theoretical_jacobian(tape, y, x):
  """Rows: elements of y (real and imaginary parts for complex); columns: elements of x."""
  x_size = x.shape.num_elements() * (2 if x.dtype.is_complex else 1)
  y_size = y.shape.num_elements() * (2 if y.dtype.is_complex else 1)
  jacobian = np.zeros((y_size, x_size), dtype=_real_numpy(x.dtype))
  dy = np.zeros(tuple(y.shape.as_list()), dtype=y.dtype.as_numpy_dtype)
  dy_flat = dy.ravel().view(_real_numpy(y.dtype))
  for row in range(y_size):
    dy_flat[row] = 1
    grad = tape.gradient(y, x, output_gradients=ops.convert_to_tensor(dy))
    if grad is not None:
      jacobian[row, :] = np.asarray(grad.numpy()).ravel().view(jacobian.dtype)
    dy_flat[row] = 0
  if y_size == 0:
    grad = tape.gradient(y, x, output_gradients=ops.convert_to_tensor(dy))
    if grad is not None and np.any(grad.numpy()):
      raise ValueError("Empty tensor with nonzero gradients")
  return jacobian


def _numeric_jacobian(f, y, xs, param, delta):
  """Central differences, perturbing one element (or real/imaginary part) of xs[param]."""
  x_dtype, y_dtype = _real_numpy(xs[param].dtype), _real_numpy(y.dtype)
  values = [np.array(x.numpy()) for x in xs]
  x_flat = values[param].ravel().view(x_dtype)
  y_size = y.shape.num_elements() * (2 if y.dtype.is_complex else 1)
  jacobian = np.zeros((y_size, x_flat.size), dtype=x_dtype)
  scale = np.asarray(2 * delta, dtype=y_dtype)[()]

  def run():
    return np.asarray(ops.convert_to_tensor(f(*map(ops.convert_to_tensor, values))).numpy())

  for col in range(x_flat.size):
    original = x_flat[col]
    x_flat[col] += delta
    y_pos = run()
    x_flat[col] = original
    x_flat[col] -= delta
    y_neg = run()
    x_flat[col] = original
    jacobian[:, col] = ((y_pos - y_neg) / scale).ravel().view(y_dtype)
  return jacobian


def _check_graph_signature(name, f):
  if not callable(f):
    raise RuntimeError(
        "tf.test.%s(x, x_shape, y, y_shape) differentiates a graph, and tfe_compat runs eager "
        "code only: pass the function and its arguments instead, as in TF 2: "
        "tf.test.%s(f, [x])." % (name, name))


@export("test.compute_gradient")
def compute_gradient(x, x_shape=None, y=None, y_shape=None, x_init_value=None, delta=None,
                     init_targets=None, extra_feed_dict=None):
  """TF 2's `compute_gradient(f, xs, delta=1/1024)`: the theoretical (GradientTape) and the
  numeric Jacobians of `f` for each of the arguments `xs`, as two tuples of 2-D arrays
  of shape [y_size, x_size]."""
  _check_graph_signature("compute_gradient", x)
  f, xs = x, x_shape
  delta = y if y is not None else delta
  if not isinstance(xs, (list, tuple)):
    raise ValueError("`x` must be a list or tuple of values convertible to a Tensor "
                     "(arguments to `f`), not a %s" % type(xs))
  delta = 1.0 / 1024 if delta is None else delta
  xs = [ops.convert_to_tensor(value) for value in xs]
  for i, value in enumerate(xs):
    assert value.dtype.base_dtype in _CHECKABLE, (
        "Cannot compute gradient for unsupported type %s of argument %s" % (value.dtype.name, i))
  with GradientTape(persistent=True) as tape:
    tape.watch(xs)
    result = ops.convert_to_tensor(f(*xs))
  assert result.dtype.base_dtype in _CHECKABLE, (
      "Cannot compute gradient for unsupported type %s of y" % result.dtype.name)
  theoretical = tuple(_theoretical_jacobian(tape, result, value) for value in xs)
  numeric = tuple(_numeric_jacobian(f, result, xs, i, delta) for i in range(len(xs)))
  return theoretical, numeric


@export("test.compute_gradient_error")
def compute_gradient_error(x, x_shape=None, y=None, y_shape=None, x_init_value=None,
                           delta=None, init_targets=None, extra_feed_dict=None):
  """`compute_gradient_error(f, xs, delta)`: the largest gap between the two Jacobians."""
  _check_graph_signature("compute_gradient_error", x)
  error = 0
  for j_t, j_n in zip(*compute_gradient(x, x_shape, y, delta=delta)):
    if j_t.size or j_n.size:
      error = np.maximum(error, np.fabs(j_t - j_n).max())
  return error
