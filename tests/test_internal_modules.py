"""TensorFlow-internal module names (`tensorflow.python.*`) under `tfe-run`: the one table
(`tfe_compat.internal.MODULES`), the share of TF 1.15's own internal imports that resolve, the
error for the modules not served, and the stand-ins' behaviour."""
import logging
import os
import subprocess
import sys
import textwrap

import pytest

from tfe_compat import internal
from tfe_compat.internal import deprecation, file_io, tf_export, tf_inspect

IMPORTS = os.path.join(os.path.dirname(__file__), "data", "tf115_internal_imports.txt")


def _run(tmp_path, code):
  script = tmp_path / "script.py"
  script.write_text(textwrap.dedent(code))
  return subprocess.run([sys.executable, "-m", "tfe_compat", str(script)], capture_output=True,
                        text=True, timeout=300, check=False)


def test_share_of_tf115_example_imports_that_resolve(tmp_path):
  # 149 statements of TF 1.15's examples/tutorials/models; 128 resolve (85.9%). The rest are
  # the debugger, profiler, timeline, Estimator, graph import/export, distribute test
  # combinations, control_flow_util, tf.Operation (graph mode) and four private rnn helpers.
  out = _run(tmp_path, """
      import sys
      rows = [l.rstrip("\\n").split("\\t") for l in open(%r) if not l.startswith("#")]
      ok = []
      for path, statement in rows:
        try:
          exec(statement, {})
          ok.append(statement)
        except ImportError:
          pass
      print(len(ok), len(rows))
      print("\\n".join(sorted(set(ok))))
  """ % IMPORTS)
  assert out.returncode == 0, out.stderr
  lines = out.stdout.splitlines()
  resolved, total = map(int, lines[0].split())
  assert total == 149 and resolved / total >= 0.85, lines[0]
  for statement in ("from tensorflow.python.framework import test_util",
                    "from tensorflow.python.platform import test",
                    "from tensorflow.python.training import adagrad",
                    "from tensorflow.python.keras.optimizer_v2 import rmsprop",
                    "from tensorflow.python.util.tf_export import tf_export",
                    "from tensorflow.python.training.tracking import util as trackable_utils"):
    assert statement in lines[1:]


def test_served_modules_are_tfe_compat_names(tmp_path):
  out = _run(tmp_path, """
      import tensorflow as tf
      from tensorflow.python.framework import ops, dtypes, constant_op, tensor_shape
      from tensorflow.python.ops import array_ops, math_ops, nn_ops, init_ops, state_ops
      from tensorflow.python.ops import variable_scope as vs, variables, control_flow_ops
      from tensorflow.python.platform import gfile, tf_logging as logging, flags
      from tensorflow.python.keras import layers
      from tensorflow.python.keras.engine import base_layer
      from tensorflow.python.eager import backprop, context
      from tensorflow.python.util import nest, compat
      from tensorflow.python.lib.io import file_io
      from tensorflow.python.training import adam, training_util
      from tensorflow.python.client import session
      import tensorflow.python.keras as keras
      from tensorflow.python.framework import tensor_util
      from tensorflow.core.framework import tensor_pb2
      from tensorflow.core.example import example_pb2
      from tensorflow.core.util import event_pb2
      assert type(tensor_util.make_tensor_proto([1.])) is tensor_pb2.TensorProto
      assert example_pb2.Example is tf.train.Example and event_pb2.Event is tf.Event
      assert ops.convert_to_tensor is tf.convert_to_tensor and ops.Tensor is tf.Tensor
      assert dtypes.float32 is tf.float32 and tensor_shape.TensorShape is tf.TensorShape
      assert array_ops.reshape is tf.reshape and math_ops.reduce_sum is tf.reduce_sum
      assert nn_ops.relu is tf.nn.relu and vs.get_variable is tf.get_variable
      assert variables.Variable is tf.Variable and control_flow_ops.cond is tf.cond
      assert gfile.GFile is tf.gfile.GFile and logging.info is tf.logging.info
      assert layers.Dense is tf.keras.layers.Dense is keras.layers.Dense
      assert base_layer.Layer is tf.keras.layers.Layer and nest.flatten is tf.nest.flatten
      assert adam.AdamOptimizer is tf.train.AdamOptimizer and session.Session is tf.Session
      assert backprop.GradientTape is tf.GradientTape
      print(constant_op.constant([1, 2]).dtype.name, file_io.file_exists(__file__))
      try:
        array_ops.no_such_op
      except AttributeError as e:
        print(e)
  """)
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == [
      "int32 True",
      "module 'tensorflow.python.ops.array_ops' has no attribute 'no_such_op' (tfe_compat "
      "serves it from tf, tf.manip, tfe_compat.ops.array_ops)"]


def test_internal_modules_not_served_fail_with_a_clear_error(tmp_path):
  out = _run(tmp_path, """
      import tensorflow as tf
      for statement in ("from tensorflow.python import debug as tf_debug",
                        "import tensorflow.python.profiler.profiler",
                        "from tensorflow.core.framework import no_such_pb2"):
        try:
          exec(statement)
        except ModuleNotFoundError as e:
          print(e)
  """)
  assert out.returncode == 0, out.stderr
  lines = out.stdout.splitlines()
  assert len(lines) == 3
  assert lines[0].startswith("No module named 'tensorflow.python.debug': it is a "
                             "TensorFlow-internal module that tfe_compat does not provide")
  assert "'tensorflow.python.profiler'" in lines[1]
  assert "'tensorflow.core.framework.no_such_pb2'" in lines[2]


def test_every_table_entry_names_something_that_exists():
  missing = []
  for name, sources in internal.MODULES.items():
    for source in (sources,) if isinstance(sources, str) else sources:
      try:
        internal._source(source)  # pylint: disable=protected-access
      except (AttributeError, ImportError):
        missing.append((name, source))
  assert not missing


def test_deprecation_decorators_warn_once(caplog):
  @deprecation.deprecated("2020-01-01", "Use g instead.")
  def f(x):
    return x + 1

  @deprecation.deprecated_args(None, "Drop it.", "old")
  def g(x, old=None):  # pylint: disable=unused-argument
    return x

  with caplog.at_level(logging.WARNING, logger="tensorflow"):
    assert f(1) == 2 and f(2) == 3 and g(1, old=3) == 1 and g(1) == 1
    with deprecation.silence():
      deprecation.deprecated(None, "x")(lambda: 0)()
  messages = [r.getMessage() for r in caplog.records]
  assert len(messages) == 2
  assert "f (from " in messages[0] and "is deprecated and will be removed after 2020-01-01" \
      in messages[0] and messages[0].endswith("Instructions for updating:\nUse g instead.")
  assert "calling g with old is deprecated" in messages[1]


def test_tf_export_inspect_and_file_io(tmp_path):
  @tf_export.tf_export("math.thing", v1=["thing"])
  def thing(a, b=2):
    return a + b

  assert thing._tf_api_names == ("math.thing",) and thing._tf_api_names_v1 == ("thing",)  # pylint: disable=protected-access

  def wrapper(*args, **kwargs):
    return thing(*args, **kwargs)

  decorated = tf_inspect.make_decorator(thing, wrapper)
  assert decorated.__name__ == "thing"
  assert tf_inspect.getargspec(decorated) == (["a", "b"], None, None, (2,))
  assert tf_inspect.unwrap(decorated)[1] is thing
  path = str(tmp_path / "f.txt")
  file_io.write_string_to_file(path, "héllo")
  assert file_io.read_file_to_string(path) == "héllo"
  assert file_io.read_file_to_string(path, binary_mode=True) == "héllo".encode()
  with pytest.raises(Exception) as info:
    file_io.read_file_to_string(str(tmp_path / "missing"))
  assert type(info.value).__name__ == "NotFoundError"


def test_atomic_write_honours_overwrite(tmp_path):
  path = str(tmp_path / "state.txt")
  file_io.atomic_write_string_to_file(path, "one")
  file_io.atomic_write_string_to_file(path, "two")
  assert file_io.read_file_to_string(path) == "two"
  with pytest.raises(Exception) as info:
    file_io.atomic_write_string_to_file(path, "three", overwrite=False)
  assert type(info.value).__name__ == "AlreadyExistsError"
  assert file_io.read_file_to_string(path) == "two" and os.listdir(str(tmp_path)) == [
      "state.txt"]


def test_deprecated_alias_and_warn_once_false(caplog):
  class Old:
    def __init__(self, x):
      self.x = x

  def new(x):
    return x * 2

  OldAlias = deprecation.deprecated_alias("tf.old_cls", "tf.Old", Old)  # pylint: disable=invalid-name
  old_fn = deprecation.deprecated_alias("tf.old_fn", "tf.new", new)
  every_time = deprecation.deprecated(None, "Use g.", warn_once=False)(lambda: 1)
  with caplog.at_level(logging.WARNING, logger="tensorflow"):
    assert OldAlias(3).x == 3 and isinstance(OldAlias(4), Old) and old_fn(2) == 4
    assert old_fn(3) == 6 and every_time() == 1 and every_time() == 1
  messages = [r.getMessage() for r in caplog.records]
  assert messages[:2] == ["The name tf.old_cls is deprecated. Please use tf.Old instead.\n",
                          "The name tf.old_fn is deprecated. Please use tf.new instead.\n"]
  assert len(messages) == 4 and OldAlias.__name__ == "Old"


def test_deprecated_args_positional_and_ok_values(caplog):
  @deprecation.deprecated_args(None, "Drop them.", "a", ("b", 1))
  def f(x, a=None, b=1):
    return x

  with caplog.at_level(logging.WARNING, logger="tensorflow"):
    assert f(0, None, 1) == 0 and f(0, b=1) == 0  # a given positionally warns; b=1 is fine
    assert f(0, b=2) == 0
  messages = [r.getMessage() for r in caplog.records]
  assert [m.split(" is deprecated")[0].rsplit(" ", 3)[1:] for m in messages] == [
      ["f", "with", "a"], ["f", "with", "b"]]
