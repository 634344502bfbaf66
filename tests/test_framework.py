"""DType, TensorShape, Tensor protocols and printing, conversion rules, graph-mode errors.

Expected values were checked against TensorFlow (tf.compat.v1 with v2 tensorshape disabled).
"""
import os
import pickle
import threading

import numpy as np
import pytest

import tfe_compat as tf


# ---- DType ----
@pytest.mark.parametrize("name,size,floating,integer,complex_", [
    ("float16", 2, True, False, False), ("bfloat16", 2, True, False, False),
    ("float32", 4, True, False, False), ("float64", 8, True, False, False),
    ("int8", 1, False, True, False), ("int16", 2, False, True, False),
    ("int32", 4, False, True, False), ("int64", 8, False, True, False),
    ("uint8", 1, False, True, False), ("uint16", 2, False, True, False),
    ("uint32", 4, False, True, False), ("uint64", 8, False, True, False),
    ("complex64", 8, False, False, True), ("complex128", 16, False, False, True),
    ("bool", 1, False, False, False), ("string", 0, False, False, False),
])
def test_dtype_properties(name, size, floating, integer, complex_):
  dtype = getattr(tf, name)
  assert dtype.name == name
  assert tf.as_dtype(name) is dtype and tf.dtypes.as_dtype(dtype) is dtype
  assert (dtype.size, dtype.is_floating, dtype.is_integer, dtype.is_complex) == (
      size, floating, integer, complex_)
  assert dtype.is_bool == (name == "bool")
  assert dtype.base_dtype is dtype
  assert repr(dtype) == "tf." + name and str(dtype) == "<dtype: '%s'>" % name
  assert pickle.loads(pickle.dumps(dtype)) is dtype


def test_dtype_conversions_and_limits():
  assert tf.float32 == "float32" and tf.float32 == np.float32 and tf.float32 != tf.float64
  assert tf.as_dtype(float) is tf.float32 and tf.as_dtype(bool) is tf.bool
  assert tf.as_dtype(np.dtype("int16")) is tf.int16 and tf.as_dtype("double") is tf.float64
  assert tf.as_dtype("half") is tf.float16 and tf.as_dtype(np.object_) is tf.string
  assert tf.float32.as_numpy_dtype is np.float32 and tf.int64.as_numpy_dtype is np.int64
  assert tf.complex64.real_dtype is tf.float32 and tf.complex128.real_dtype is tf.float64
  assert tf.float32.real_dtype is tf.float32
  assert tf.int8.min == -128 and tf.uint8.max == 255
  assert tf.float32.max == np.float32(3.4028235e+38) and tf.float32.min == -tf.float32.max
  assert float(tf.bfloat16.min) == pytest.approx(-3.38953e+38, rel=1e-5)
  with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'bool'>"):
    tf.bool.min  # pylint: disable=pointless-statement
  with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: 'foo'"):
    tf.as_dtype("foo")
  with pytest.raises(TypeError):
    tf.as_dtype(int)  # TF has no Python-int dtype either


# ---- TensorShape / Dimension ----
def test_tensor_shape_tf1_behaviour():
  s = tf.constant([[1, 2, 3], [4, 5, 6]]).shape
  assert str(s) == "(2, 3)" and repr(s) == "TensorShape([Dimension(2), Dimension(3)])"
  assert s == [2, 3] and s == (2, 3) and s != [3, 2]
  assert s.as_list() == [2, 3] and s.ndims == 2 and s.rank == 2 and len(s) == 2
  assert s.num_elements() == 6 and s.is_fully_defined()
  assert str(s[0]) == "2" and repr(s[0]) == "Dimension(2)" and s[0].value == 2
  assert int(s[0]) == 2 and [0, 1, 2, 3][s[1]] == 3 and s[0] * 2 == 4
  assert str(s[1:]) == "(3,)" and str(tf.constant(1).shape) == "()"
  assert [d.value for d in s] == [2, 3]


def test_tensor_shape_unknown_merge_concatenate():
  unknown = tf.TensorShape(None)
  assert repr(unknown) == "TensorShape(None)" and str(unknown) == "<unknown>"
  assert unknown.ndims is None and not unknown.is_fully_defined()
  partial = tf.TensorShape([None, 3])
  assert str(partial) == "(?, 3)" and partial.num_elements() is None
  assert partial.merge_with([2, None]) == [2, 3]
  assert tf.TensorShape([1]).concatenate([2, 3]) == [1, 2, 3]
  assert partial.is_compatible_with([5, 3]) and not partial.is_compatible_with([5, 4])
  with pytest.raises(ValueError, match=r"Shapes \(2, 3\) and \(3, 3\) are not compatible"):
    tf.TensorShape([2, 3]).merge_with([3, 3])
  with pytest.raises(ValueError):
    unknown.as_list()
  assert (tf.Dimension(None) + 1).value is None and (tf.Dimension(3) + 1).value == 4
  assert (tf.Dimension(None) == 3) is None


def test_dimensions_inside_lists_convert_as_ints():
  # revnet's ops.downsample pads by (filters - x.shape[axis]) // 2, a Dimension.
  d = tf.ones([3, 5]).shape[1]
  t = tf.convert_to_tensor([d, 2])
  assert t.dtype == tf.int32 and t.numpy().tolist() == [5, 2]
  t = tf.convert_to_tensor([[d], [2]], dtype=tf.int64)
  assert t.dtype == tf.int64 and t.numpy().tolist() == [[5], [2]]
  half = (d - tf.ones([2]).shape[0]) // 2
  assert tf.pad(tf.ones([1, 2]), [[0, 0], [half, 1]]).numpy().tolist() == [[0., 1., 1., 0.]]


# ---- Conversion and inference ----
@pytest.mark.parametrize("value,dtype", [
    (2**31, "int64"), ([1, 2.5], "float32"), (np.float64(1), "float64"), (1 + 2j, "complex128"),
    ([[1, 2], [3, 4]], "int32"), (True, "bool"), ("abc", "string"), ([b"a", b"bc"], "string"),
    (np.array([1, 2]), "int64"), (1.5, "float32"), (np.array([1, 2], np.uint8), "uint8"),
])
def test_constant_inference(value, dtype):
  assert tf.constant(value).dtype.name == dtype
  assert tf.convert_to_tensor(value).dtype.name == dtype


def test_conversion_with_dtype():
  assert tf.constant(1, dtype=tf.float32).numpy() == np.float32(1.0)
  assert tf.constant(True, dtype=tf.int32).numpy() == 1
  assert tf.constant(300, dtype=tf.uint8).numpy() == 44  # wraps like TF
  assert tf.constant(np.array([1.7]), dtype=tf.int32).numpy().tolist() == [1]
  assert tf.constant(np.array([1.5, 2.5]), dtype=tf.float32).dtype is tf.float32
  with pytest.raises(TypeError, match="Cannot convert 1.0 to EagerTensor of dtype int32"):
    tf.constant(1.0, dtype=tf.int32)
  with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype bool"):
    tf.constant(1, dtype=tf.bool)
  with pytest.raises(TypeError, match=r"Cannot convert \[1, 0, 1\] to EagerTensor of dtype bool"):
    tf.convert_to_tensor([1, 0, 1], tf.bool)
  assert tf.constant([[True], [False]], tf.bool).numpy().tolist() == [[True], [False]]
  with pytest.raises(TypeError, match=r"Cannot convert \[1, 2\] to EagerTensor of dtype string"):
    tf.constant([1, 2], dtype=tf.string)
  with pytest.raises(ValueError, match="Can't convert non-rectangular Python sequence"):
    tf.constant([[1, 2], [3]])
  with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor "
                     "with dtype int32"):
    tf.convert_to_tensor(tf.constant(1), dtype=tf.float32)
  with pytest.raises(TypeError):
    tf.constant("abc", dtype=tf.float32)


def test_constant_shape_argument():
  assert tf.constant(0, shape=[2, 2]).numpy().tolist() == [[0, 0], [0, 0]]
  assert tf.constant([1, 2, 3, 4], shape=[2, 2]).numpy().tolist() == [[1, 2], [3, 4]]
  with pytest.raises(TypeError, match=r"Tensor \[1 2 3\] \(converted from \[1, 2, 3\]\) has 3 "
                     r"elements, but got `shape` \(2, 2\) with 4 elements"):
    tf.constant([1, 2, 3], shape=[2, 2])


def test_empty_string_constants():
  for value, shape in [([], (0,)), ((), (0,)), ([[]], (1, 0)), ([[], []], (2, 0)),
                       (np.array([]), (0,)), (np.zeros((0, 2), np.int32), (0, 2))]:
    t = tf.constant(value, tf.string)
    assert t.dtype is tf.string and t.shape.as_list() == list(shape)
    assert t.numpy().dtype == object and t.numpy().shape == shape
  assert tf.convert_to_tensor([], tf.string).shape.as_list() == [0]
  assert tf.constant([], tf.string, shape=[0]).shape.as_list() == [0]
  with pytest.raises(TypeError, match=r"Cannot convert \[1\] to EagerTensor of dtype string"):
    tf.constant([1], tf.string)


_NONE_ERROR = (r"^Attempt to convert a value \(None\) with an unsupported type "
               r"\(<class 'NoneType'>\) to a Tensor\.$")
_MIXED_ERROR = r"^Can't convert Python sequence with mixed types to Tensor\.$"


@pytest.mark.parametrize("value,dtype,message", [
    ([None], None, _NONE_ERROR), ((None,), None, _NONE_ERROR), ([[None]], None, _NONE_ERROR),
    ([None, 1], None, _NONE_ERROR), ([[None], [1]], None, _NONE_ERROR),
    (None, None, _NONE_ERROR), ([None], "float32", _NONE_ERROR),
    ([None], "int32", _NONE_ERROR), ([None], "bool", _NONE_ERROR),
    ([None], "string", _NONE_ERROR), ([None, 1.5], "int32", _NONE_ERROR),
    ([1, None], None, _MIXED_ERROR), (["a", None], None, _MIXED_ERROR),
    ([b"a", None], None, _MIXED_ERROR), ([1.5, None], None, _MIXED_ERROR),
    ([True, None], None, _MIXED_ERROR), ([[1], [None]], None, _MIXED_ERROR),
    ([1, "a"], None, _MIXED_ERROR), (["a", 1], None, _MIXED_ERROR),
    ([np.float32(1), None], None, _MIXED_ERROR), ([1, None], "float32", _MIXED_ERROR),
    (["a", None], "float32", _MIXED_ERROR), ([1.5, None], "int32", _MIXED_ERROR),
    ([1, "a"], "string", _MIXED_ERROR), ([1, None], "string", _MIXED_ERROR),
])
def test_none_and_mixed_leaves_are_rejected(value, dtype, message):
  with pytest.raises(ValueError, match=message):
    tf.constant(value, dtype)
  with pytest.raises(ValueError, match=message):
    tf.convert_to_tensor(value, dtype)


def test_unsupported_object_leaf():
  with pytest.raises(ValueError, match=r"^Attempt to convert a value \(<object object at "
                     r"0x[0-9a-f]+>\) with an unsupported type \(<class 'object'>\) to a "
                     r"Tensor\.$"):
    tf.constant([object()])
  with pytest.raises(TypeError, match=r"Cannot convert \['a'\] to EagerTensor of dtype"):
    tf.constant(["a"], tf.float32)


def test_autopacking_lists_of_tensors():
  packed = tf.convert_to_tensor([tf.constant(1.0), 2.0, tf.constant(3.0)])
  assert packed.dtype is tf.float32 and packed.numpy().tolist() == [1.0, 2.0, 3.0]
  nested = tf.constant([[tf.constant(1), 2], [3, 4]])
  assert nested.shape == [2, 2] and nested.dtype is tf.int32


# ---- Tensor protocols and printing ----
def test_str_and_repr_match_tf():
  a = tf.constant([[1, 2], [3, 4]])
  assert str(a) == "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
  assert repr(a) == ("<tf.Tensor: id=%d, shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n"
                     "       [3, 4]], dtype=int32)>" % a._id)
  assert str(tf.constant(5)) == "tf.Tensor(5, shape=(), dtype=int32)"
  assert str(tf.constant("hi")) == "tf.Tensor(b'hi', shape=(), dtype=string)"
  assert str(tf.constant([1.5, 2.])) == "tf.Tensor([1.5 2. ], shape=(2,), dtype=float32)"
  assert str(tf.constant(np.zeros((2, 0)))) == "tf.Tensor([], shape=(2, 0), dtype=float64)"
  assert repr(tf.constant(1.0)).endswith("shape=(), dtype=float32, numpy=1.0>")


def test_ids_increase():
  a, b = tf.constant(1), tf.constant(2)
  assert b._id > a._id


def test_python_protocols():
  m = tf.constant([[4.0]])
  assert "hello, {}".format(m) == "hello, [[4.]]"
  assert "%d" % tf.constant(25) == "25" and "{:.2f}".format(tf.constant(1.2345)) == "1.23"
  assert not bool(tf.constant(0)) and int(tf.constant(3.7)) == 3 and float(tf.constant(2)) == 2.0
  assert [10, 20, 30][tf.constant(1)] == 20
  with pytest.raises(AttributeError, match="'numpy.float32' object has no attribute '__index__'"):
    [10, 20, 30][tf.constant(1.0)]  # pylint: disable=expression-not-assigned  (as TF's)
  # TF 1.x's int()/float() went through NumPy 1.x, which took any one-element array (the
  # eager workshop notebook prints "Prediction: %d" % tf.argmax(logits, axis=1)).
  assert "%d" % tf.constant([7], tf.int64) == "7" and float(tf.Variable([[2.5]])) == 2.5
  with pytest.raises(TypeError, match="only size-1 arrays can be converted to Python scalars"):
    int(tf.constant([1, 2]))
  with pytest.raises(ValueError, match="truth value of an array with more than one element"):
    bool(tf.constant([1, 2]))
  with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
    len(tf.constant(1))
  with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor."):
    iter(tf.constant(1))
  assert len(tf.constant([[1, 2], [3, 4], [5, 6]])) == 3


def test_numpy_interop():
  a = tf.constant([[1, 2], [3, 4]])
  c = np.multiply(a, a)
  assert isinstance(c, np.ndarray) and c.tolist() == [[1, 4], [9, 16]]
  assert np.asarray(a).dtype == np.int32
  value = a.numpy()
  assert isinstance(value, np.ndarray) and value.flags.writeable
  assert isinstance(tf.constant(5).numpy(), np.int32)
  assert tf.constant("hi").numpy() == b"hi"


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.uint64,
                                   np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.bool_, tf.bfloat16.as_numpy_dtype])
def test_numpy_arrays_convert_by_copy_keeping_dtype(dtype):
  source = np.arange(6).reshape(2, 3).astype(dtype)
  expected = source.copy()
  tensor = tf.convert_to_tensor(source)
  source[...] = source[0, 1]  # a later change to the array does not reach the Tensor
  assert tensor.dtype.as_numpy_dtype == dtype and tensor.shape == (2, 3)
  np.testing.assert_array_equal(tensor.numpy(), expected)
  assert tensor.numpy().dtype == dtype
  strided = expected.T  # not C-contiguous
  np.testing.assert_array_equal(tf.constant(strided).numpy(), strided)
  np.testing.assert_array_equal(tf.constant(np.float64(2.5)).numpy(), 2.5)


def test_identity_equality_and_hashing():
  a, b = tf.constant([1, 2]), tf.constant([1, 2])
  assert a == a and a != b and not a == b  # pylint: disable=comparison-with-itself
  assert len({a, b, a}) == 2


def test_tensor_graph_only_attributes_raise():
  t = tf.constant(1)
  with pytest.raises(AttributeError, match="Tensor.name is meaningless"):
    t.name  # pylint: disable=pointless-statement
  with pytest.raises(NotImplementedError, match="is .numpy\\(\\) what you're looking for"):
    t.eval()


def test_pickle_and_shape_properties():
  t = tf.constant([[1.5, 2.5]])
  restored = pickle.loads(pickle.dumps(t))
  assert restored.dtype is tf.float32 and restored.numpy().tolist() == [[1.5, 2.5]]
  assert t.get_shape() == [1, 2] and t.ndim == 2
  t.set_shape([None, 2])
  with pytest.raises(ValueError):
    t.set_shape([3, 2])


# ---- Graph-mode API under eager execution ----
def test_eager_switches_and_graph_errors():
  assert tf.enable_eager_execution() is None
  tf.enable_eager_execution(config=tf.ConfigProto(), device_policy=tf.contrib.eager.DEVICE_PLACEMENT_SILENT)
  tf.contrib.eager.enable_eager_execution()
  assert tf.executing_eagerly() and tf.contrib.eager.executing_eagerly()
  with pytest.raises(RuntimeError, match=r"tf.placeholder\(\) is not compatible with eager execution."):
    tf.placeholder(tf.float32, [None, 3])
  with pytest.raises(RuntimeError, match="The Session graph is empty"):
    tf.Session().run(tf.global_variables_initializer())
  with pytest.raises(RuntimeError, match="Use tf.GradientTape instead"):
    tf.gradients(tf.constant(1.0), tf.constant(2.0))
  assert tf.global_variables_initializer() is None
  with tf.control_dependencies([tf.constant(1)]):
    pass
  assert tf.compat.v1 is tf and tf.__version__.startswith("1.15")


def test_compilation_cache_trimmed_to_half_its_limit_oldest_first(tmp_path):
  from tfe_compat.framework import _trim  # pylint: disable=import-outside-toplevel
  for i in range(10):
    path = tmp_path / ("entry%d" % i)
    path.write_bytes(b"x" * 100)
    os.utime(path, (i, i))
  _trim(str(tmp_path), 1000, every=0)  # at the limit: nothing removed
  assert len(os.listdir(tmp_path)) == 10 + 1  # and the stamp file
  _trim(str(tmp_path), 500)  # checked less than a day ago: no scan
  assert len(os.listdir(tmp_path)) == 11
  _trim(str(tmp_path), 500, every=0)
  assert sorted(os.listdir(tmp_path)) == [".trimmed", "entry8", "entry9"]


def test_numpy_object_arrays_convert_as_tf_does():
  # Checked against TensorFlow: str items are encoded; other objects are refused.
  assert tf.constant(np.array([b"a", "b"], dtype=object)).numpy().tolist() == [b"a", b"b"]
  assert tf.constant(np.array([], dtype=object)).shape.as_list() == [0]
  for value, kind in [([None], "NoneType"), ([1, "a"], "int"), ([1, 2], "int")]:
    with pytest.raises(ValueError, match=r"^Failed to convert a NumPy array to a Tensor "
                       r"\(Unsupported object type %s\)\.$" % kind):
      tf.constant(np.array(value, dtype=object))


def test_graph_collections_and_eager_no_op_scopes():
  """TF 1.x collections live on in eager mode (checked against TF 2.21's tf.compat.v1)."""
  tf.add_to_collection("x", 1)
  tf.add_to_collections(["x", "y"], 2)
  assert tf.get_collection("x") == [1, 2] and tf.get_collection_ref("y") == [2]
  assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == []
  tf.reset_default_graph()
  assert tf.get_collection("x") == []
  with tf.init_scope(), tf.colocate_with(tf.constant(1)), tf.container("c"):
    assert tf.executing_eagerly_outside_functions()
  assert tf.get_logger().name == "tensorflow"
  with pytest.raises(RuntimeError, match="Use tf.GradientTape instead"):
    tf.hessians(tf.constant(1.), tf.constant(2.))
  assert tf.get_static_value(tf.constant(2.)) == np.float32(2.)
  assert tf.get_static_value(tf.Variable(1.)) is None and tf.get_static_value([1, 2]) == [1, 2]
  seen = []
  traced = tf.function(lambda x: seen.append(tf.get_static_value(x)) or x)
  traced(tf.constant(1.))
  traced(tf.constant(2.))  # the eager first call, then the trace
  assert seen[0] == 1. and seen[-1] is None


def test_queue_pipelines_raise_tfs_eager_errors_and_coordinator_works():
  """The queue-based input APIs raise what TF 2.21's tf.compat.v1 raises under eager."""
  message = "Input pipelines based on Queues are not supported when eager execution is enabled"
  with pytest.raises(ValueError, match=message):
    tf.train.shuffle_batch([tf.constant(1)], 2, 10, 2)
  with pytest.raises(RuntimeError, match=message):
    tf.train.string_input_producer(["a"])
  with pytest.raises(RuntimeError, match="Queues are not compatible with eager execution"):
    tf.train.start_queue_runners()
  with pytest.raises(RuntimeError, match="Supervisors are incompatible with eager execution"):
    tf.train.Supervisor()
  coord = tf.train.Coordinator()

  def worker(i):
    with coord.stop_on_exception():
      while not coord.should_stop():
        if i == 1:
          raise ValueError("boom")
  threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
  for t in threads:
    t.start()
  with pytest.raises(ValueError, match="boom"):
    coord.join(threads)
  assert coord.should_stop() and coord.joined
  clean = tf.train.Coordinator()
  clean.request_stop(tf.errors.OutOfRangeError(None, None, "end"))  # a clean stop
  clean.join([])
