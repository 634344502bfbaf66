"""TF 2 behaviour switches, tf.compat helpers, tf.errors helpers, tf.resource_loader,
library loading, partitioners, tf.autograph, tf.logging extras, resource/variant dtypes and
small TF 1.x names; golden values and messages from TensorFlow."""
import logging
import os
import pathlib

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.framework import modes
from tfe_compat.internal import tf2


@pytest.fixture
def restore_switches(monkeypatch):
  monkeypatch.setattr(modes, "_tf2", modes._tf2)
  monkeypatch.setattr(modes, "_control_flow_v2", modes._control_flow_v2)
  yield
  tf.disable_tensor_equality()
  tf.disable_v2_tensorshape()


def test_tensor_equality_switch(restore_switches):
  t, u = tf.constant([1, 2]), tf.constant([1, 3])
  identity_eq = tf.Tensor.__eq__
  assert (t == u) is False and (t != u) is True and hash(t) == id(t)
  tf.enable_tensor_equality()
  assert (t == u).numpy().tolist() == [True, False]
  assert (t != u).numpy().tolist() == [False, True]
  assert (t == 1).numpy().tolist() == [True, False]
  assert (t == None) is False and (t != None) is True  # noqa: E711
  mismatch = t == tf.constant([1, 2, 3])
  assert mismatch.shape == () and mismatch.dtype == tf.bool and not bool(mismatch)
  assert bool(t != tf.constant([1, 2, 3]))
  with pytest.raises(TypeError, match="^Tensor is unhashable if Tensor equality is enabled. "
                     r"Instead, use tensor.experimental_ref\(\) as the key.$"):
    hash(t)
  assert {t.experimental_ref(): 1}[t.experimental_ref()] == 1
  v = tf.Variable([1.0, 2.0])
  assert (v == tf.constant([1.0, 3.0])).numpy().tolist() == [True, False]
  with pytest.raises(TypeError, match="^Variable is unhashable if Tensor equality is enabled"):
    hash(v)
  tf.disable_tensor_equality()
  assert tf.Tensor.__eq__ is identity_eq  # TF 1.x identity comparison, at its old cost
  assert (t == u) is False and hash(t) == id(t) and hash(v) == id(v)


def test_v2_tensorshape_switch(restore_switches):
  shape = tf.TensorShape([2, None])
  assert (repr(shape[0]), repr(list(shape)), str(shape)) == (
      "Dimension(2)", "[Dimension(2), Dimension(None)]", "(2, ?)")
  tf.enable_v2_tensorshape()
  assert (shape[0], shape[1], list(shape)) == (2, None, [2, None])
  assert (repr(shape), str(shape)) == ("TensorShape([2, None])", "(2, None)")
  assert repr(shape.dims) == "[Dimension(2), Dimension(None)]"
  assert tf.TensorShape(None)[0] is None
  assert tf.ones([3, 4]).shape[1] == 4 and isinstance(tf.ones([3, 4]).shape[1], int)
  tf.disable_v2_tensorshape()
  assert repr(shape) == "TensorShape([Dimension(2), Dimension(None)])"
  assert tf.TensorShape(None)[0].value is None


def test_enable_v2_behavior_and_control_flow(restore_switches):
  assert tf.control_flow_v2_enabled() is False and tf2.enabled() is False
  tf.enable_control_flow_v2()
  assert tf.control_flow_v2_enabled() is True
  tf.disable_control_flow_v2()
  assert tf.control_flow_v2_enabled() is False
  tf.enable_v2_behavior()
  assert tf2.enabled() is True and tf.control_flow_v2_enabled() is True
  assert bool(tf.constant(1) == 1) and tf.TensorShape([3])[0] == 3
  with pytest.raises(TypeError):
    hash(tf.constant(1))
  tf.disable_v2_behavior()
  assert not tf.executing_eagerly() and tf2.enabled() is False
  assert tf.control_flow_v2_enabled() is False and hash(tf.constant(1))


def test_compat_helpers():
  assert tf.compat.as_bytes("h\u00e9") == b"h\xc3\xa9"
  assert tf.compat.as_bytes("h\u00e9", encoding="latin-1") == b"h\xe9"
  assert tf.compat.as_bytes(bytearray(b"ab")) == b"ab" and tf.compat.as_bytes(b"ab") == b"ab"
  with pytest.raises(TypeError, match="^Expected binary or unicode string, got 1$"):
    tf.compat.as_bytes(1)
  assert tf.compat.as_text(b"h\xc3\xa9") == "h\u00e9" and tf.compat.as_str(b"x") == "x"
  with pytest.raises(TypeError, match="^Expected binary or unicode string, got 1$"):
    tf.compat.as_text(1)
  assert tf.compat.as_str_any(5) == "5" and tf.compat.as_str_any(b"xy") == "xy"
  assert tf.compat.as_str_any([1, "a"]) == "[1, 'a']"
  assert tf.compat.path_to_str(pathlib.Path("/a/b")) == "/a/b"
  assert tf.compat.path_to_str(3) == 3
  assert tf.compat.bytes_or_text_types == (bytes, str)
  assert isinstance(np.int8(1), tf.compat.integral_types)
  assert isinstance(np.float16(1), tf.compat.real_types)
  assert isinstance(np.complex64(1), tf.compat.complex_types)
  assert tf.compat.forward_compatible(2019, 1, 1) is True
  assert tf.compat.forward_compatible(2100, 1, 1) is False
  with tf.compat.forward_compatibility_horizon(2100, 1, 2):
    assert (tf.compat.forward_compatible(2100, 1, 1),
            tf.compat.forward_compatible(2100, 1, 2)) == (True, False)
  assert tf.compat.forward_compatible(2100, 1, 1) is False
  assert repr(tf.compat.dimension_at_index(tf.TensorShape([2, None]), 1)) == "Dimension(None)"
  assert repr(tf.dimension_at_index(tf.TensorShape([2, None]), 0)) == "Dimension(2)"
  assert repr(tf.compat.dimension_at_index(tf.TensorShape(None), 5)) == "Dimension(None)"
  assert tf.compat.v1 is tf and tf.compat.v2 is tf


def test_errors_helpers():
  errors = tf.errors
  assert errors.error_code_from_exception_type(errors.NotFoundError) == 5
  assert errors.exception_type_from_error_code(3) is errors.InvalidArgumentError
  with pytest.raises(KeyError):
    errors.exception_type_from_error_code(0)
  with pytest.warns(UserWarning, match="Unknown class exception"):
    unknown = errors.error_code_from_exception_type(ValueError)
  assert isinstance(unknown, errors.UnknownError)  # TF returns an instance here
  with errors.raise_exception_on_not_ok_status():
    pass
  with pytest.raises(errors.NotFoundError, match="^missing$"):
    with errors.raise_exception_on_not_ok_status() as status:
      status.code, status.message = errors.NOT_FOUND, "missing"


def test_resource_loader():
  here = os.path.dirname(os.path.abspath(__file__))
  loader = tf.resource_loader
  assert loader.get_data_files_path() == here
  assert loader.get_path_to_datafile("a/b") == os.path.join(here, "a/b")
  assert loader.readahead_file_path("x", readahead="1M") == "x"
  assert os.path.isdir(loader.get_root_dir_with_all_resources())
  assert b"GRAPH_DEF_VERSION" in loader.load_resource("framework/versions.py")
  with pytest.raises(FileNotFoundError):
    loader.load_resource("nonexistent.txt")


def test_load_library(tmp_path):
  with pytest.raises(tf.errors.NotFoundError, match="^/nonexistent/x.so: cannot open shared "
                     "object file: No such file or directory$"):
    tf.load_op_library("/nonexistent/x.so")
  with pytest.raises(tf.errors.NotFoundError):
    tf.load_file_system_library("/nonexistent/x.so")
  with pytest.raises(FileNotFoundError, match="The file or folder to load kernel libraries "
                     "from does not exist."):
    tf.load_library("/nonexistent/x.so")
  assert tf.load_library(str(tmp_path)) is None  # a folder without libraries: nothing to load
  library = tmp_path / "kernels.so"
  library.write_bytes(b"\x7fELF")
  for load in (tf.load_op_library, tf.load_library, tf.load_file_system_library):
    with pytest.raises(NotImplementedError, match="cannot load TensorFlow custom-op"):
      load(str(library))


def test_partitioners():
  shape = tf.TensorShape([10, 8])
  assert tf.fixed_size_partitioner(5, axis=1)(shape=tf.TensorShape([10, 4]),
                                              dtype=tf.float32) == [1, 4]
  assert tf.fixed_size_partitioner(3)(shape=shape, dtype=tf.float32) == [3, 1]
  min_max = tf.min_max_variable_partitioner(max_partitions=4, min_slice_size=64)
  assert min_max(shape, tf.float32) == [4, 1] and min_max(shape, tf.string) == [4, 1]
  assert tf.variable_axis_size_partitioner(100)(shape, tf.float32) == [4, 1]
  assert tf.variable_axis_size_partitioner(100, axis=1, max_shards=3)(
      shape, tf.float64) == [1, 3]
  assert tf.variable_axis_size_partitioner(100)(shape, tf.string) == [10, 1]
  with pytest.raises(ValueError, match="^Both max_shard_bytes and bytes_per_string_element "
                     "must be positive."):
    tf.variable_axis_size_partitioner(0)
  with pytest.raises(ValueError, match="^shape is not fully defined"):
    tf.variable_axis_size_partitioner(100)(tf.TensorShape([None, 8]), tf.float32)
  with pytest.raises(ValueError, match="must have the length"):
    tf.create_partitioned_variables([4, 2], [2], tf.zeros_initializer())
  with pytest.raises(NotImplementedError, match="partitioned variables"):
    tf.create_partitioned_variables([4, 2], [2, 1], tf.zeros_initializer())


def test_autograph(capsys):
  def absolute(x):
    if x > 0:
      return x
    return -x

  assert tf.autograph.to_code(absolute).startswith("def absolute(x):\n  if x > 0:")
  converted = tf.compat.v1.autograph.to_graph(absolute)
  assert int(converted(tf.constant(-3))) == 3
  assert int(tf.autograph.experimental.do_not_convert(absolute)(tf.constant(-2))) == 2
  assert tf.autograph.experimental.do_not_convert() is tf.autograph.experimental.do_not_convert
  assert tf.autograph.experimental.set_loop_options(maximum_iterations=3) is None
  tf.autograph.set_verbosity(3, alsologtostdout=True)
  tf.autograph.trace(1, "a", tf.constant(2))
  assert capsys.readouterr().out == "1 a tf.Tensor(2, shape=(), dtype=int32)\n"
  assert [f.value for f in tf.autograph.experimental.Feature] == [
      "ALL", "AUTO_CONTROL_DEPS", "ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS",
      "EQUALITY_OPERATORS", "LISTS", "NAME_SCOPES"]


def test_logging_extras(caplog):
  with pytest.raises(NotImplementedError):  # as in TF 1.15
    tf.logging.flush()
  logger = logging.getLogger("tensorflow")
  logger.addHandler(caplog.handler)
  try:
    with caplog.at_level(logging.INFO, logger="tensorflow"):
      tf.logging.log_if(tf.logging.INFO, "shown %d", True, 3)
      tf.logging.log_if(tf.logging.INFO, "hidden %d", False, 4)
      tf.logging.TaskLevelStatusMessage("status")
  finally:
    logger.removeHandler(caplog.handler)
  assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
      ("INFO", "shown 3"), ("ERROR", "status")]


def test_resource_variant_and_quantized_dtypes():
  for dtype, name, enum in [(tf.resource, "resource", 20), (tf.variant, "variant", 21)]:
    assert (dtype.name, dtype.as_datatype_enum, dtype.size) == (name, enum, 0)
    assert (repr(dtype), str(dtype)) == ("tf." + name, "<dtype: '%s'>" % name)
    assert not (dtype.is_numpy_compatible or dtype.is_quantized or dtype.is_integer)
    assert tf.as_dtype(enum) is dtype and tf.as_dtype(name) is dtype
    assert tf.dtypes.as_dtype(name) is getattr(tf.dtypes, name)
  assert sorted(d.name for d in tf.dtypes.QUANTIZED_DTYPES) == [
      "qint16", "qint32", "qint8", "quint16", "quint8"]
  assert tf.QUANTIZED_DTYPES is tf.dtypes.QUANTIZED_DTYPES
  assert all(d.is_quantized for d in tf.QUANTIZED_DTYPES)


def test_small_tf1_names(caplog):
  x = tf.constant([1.0, 2.0])
  with tf.op_scope([x], "named", "default") as scope:
    assert scope == "named/"
  with tf.variable_op_scope([x], None, "default_scope") as scope:
    assert scope.name == "default_scope"
    assert tf.get_variable("v", shape=[1]).name == "default_scope/v:0"
  assert tf.no_regularizer(x) is None
  assert tf.guarantee_const(x).numpy().tolist() == [1.0, 2.0]
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.guarantee_const(x) * 3.0)
  with pytest.raises(LookupError, match="^gradient registry has no entry for: GuaranteeConst$"):
    tape.gradient(y, x)
  with tf.experimental.function_executor_type("SINGLE_THREADED_EXECUTOR"):
    assert float(tf.function(lambda a: a * 2)(tf.constant(2.0))) == 4.0
  assert tf.compat.v1.experimental.output_all_intermediates(True) is None


def test_layers_take_the_dtype_of_their_first_input_in_tf1_only(monkeypatch):
  """TF 2.21 + tf-keras after `disable_v2_behavior()`: float64 inputs make float64 layers;
  with v2 behaviour the layer stays float32 and casts its input."""
  dense = tf.keras.layers.Dense(2, kernel_initializer="ones")
  out = dense(tf.ones([1, 3], tf.float64))
  assert out.dtype == tf.float64 and dense.dtype == "float64"
  assert dense.kernel.dtype.base_dtype == tf.float64
  assert tf.keras.layers.Dense(2)(np.ones([1, 3])).dtype == tf.float64
  assert tf.keras.layers.Dense(2)(np.ones([1, 3], np.float32)).dtype == tf.float32
  assert tf.keras.layers.Dense(2, dtype="float32")(tf.ones([1, 3], tf.float64)).dtype == \
      tf.float32
  monkeypatch.setattr(modes, "_tf2", True)
  dense = tf.keras.layers.Dense(2)
  assert dense(tf.ones([1, 3], tf.float64)).dtype == tf.float32 and dense.dtype == "float32"
