"""tf.debugging additions: assert_shapes, assert_same_float_dtype, is_nan/is_inf/is_finite,
log_device_placement; TF's eager answers of the graph-mode variable reports. Messages are
TF 1.15's (its check_ops.py; TF 2.21 gives the same text without the leading ".  " when no
message is given)."""
import subprocess
import sys

import numpy as np
import pytest

import tfe_compat as tf


def test_assert_shapes_accepts_consistent_shapes():
  tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "Q")), (tf.ones([2]), ("N",)),
                              (tf.constant(1.), ()), (tf.ones([5, 2, 3]), ("*", "N", 3)),
                              (tf.ones([4, 3]), (".", "Q")), (tf.ones([7]), None)])
  tf.assert_shapes({tf.ones([1]): ("A",)}.items())


@pytest.mark.parametrize("shapes, message, expected", [
    ([(tf.ones([2, 3]), ("N", "Q")), (tf.ones([3]), ("N",))], None,
     ".  Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(3,) "
     "dtype=float32 dimension 0 must have size 2.  Received size 3, shape (3,)"),
    ([(tf.ones([2, 3]), ("N", "Q", "R"))], None,
     "Tensor  must have rank 3.  Received rank 2, shape (2, 3)"),
    ([(tf.ones([2, 3]), (4, "."))], None,
     ".  Specified explicitly.  Tensor shape=(2, 3) dtype=float32 dimension 0 must have size "
     "4.  Received size 2, shape (2, 3)"),
    ([(tf.ones([5, 2, 3]), ("*", "N", 4))], "msg",
     "msg.  Specified explicitly.  Tensor shape=(5, 2, 3) dtype=float32 dimension -1 must "
     "have size 4.  Received size 3, shape (5, 2, 3)"),
    ([(tf.ones([2]), ("N", "..."))], None,
     ".  Tensor shape=(2,) dtype=float32 specified shape index 1.  Symbol `...` or `*` for a "
     "variable number of unspecified dimensions is only allowed as the first entry"),
])
def test_assert_shapes_errors(shapes, message, expected):
  shapes = [(x, tuple(Ellipsis if s == "..." else s for s in spec)) for x, spec in shapes]
  with pytest.raises(ValueError) as info:
    tf.debugging.assert_shapes(shapes, message=message)
  assert str(info.value) == expected


def test_assert_same_float_dtype():
  assert tf.assert_same_float_dtype([tf.ones(2), tf.ones(3)]) is tf.float32
  assert tf.debugging.assert_same_float_dtype() is tf.float32
  assert tf.assert_same_float_dtype(None, tf.float64) is tf.float64
  with pytest.raises(ValueError) as info:
    tf.assert_same_float_dtype([tf.ones(2), tf.ones(3, dtype=tf.float64)])
  assert str(info.value) == (
      "tf.Tensor([1. 1. 1.], shape=(3,), dtype=float64), type=<dtype: 'float64'>, must be of "
      "the same type (<dtype: 'float32'>) as tf.Tensor([1. 1.], shape=(2,), dtype=float32).")
  with pytest.raises(ValueError, match=r"^Expected floating point type, got <dtype: 'int32'>\.$"):
    tf.assert_same_float_dtype([tf.ones(2, dtype=tf.int32)])


def test_is_nan_inf_finite_in_debugging():
  x = tf.constant([1., np.nan, np.inf, -np.inf])
  assert tf.debugging.is_nan(x).numpy().tolist() == [False, True, False, False]
  assert tf.debugging.is_inf(x).numpy().tolist() == [False, False, True, True]
  assert tf.debugging.is_finite(x).numpy().tolist() == [True, False, False, False]


def test_variable_reports_and_check_numerics_ops_under_eager_execution():
  report = tf.report_uninitialized_variables()
  assert report.dtype is tf.string and report.shape.as_list() == [0]
  assert tf.assert_variables_initialized() is None
  with pytest.raises(AttributeError, match="Tensor.op is undefined when eager execution"):
    tf.assert_variables_initialized([tf.Variable(1.)])
  with pytest.raises(RuntimeError, match=r"add_check_numerics_ops\(\) is not compatible"):
    tf.add_check_numerics_ops()


def test_log_device_placement_prints_each_op_and_device():
  code = ("import tfe_compat as tf\n"
          "tf.debugging.set_log_device_placement(True)\n"
          "print(tf.debugging.get_log_device_placement())\n"
          "y = tf.matmul([[1.]], [[2.]]) * 2\n"
          "tf.debugging.set_log_device_placement(False)\n"
          "y = y * 2\n")
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, check=True)
  assert out.stdout == "True\n"
  device = tf.constant(1.).device  # the default device: a GPU where there is one
  assert [l for l in out.stderr.splitlines() if l.startswith("Executing")] == [
      "Executing op MatMul in device " + device, "Executing op Mul in device " + device]


def test_convert_to_tensor_or_sparse_tensor_or_indexed_slices():
  sparse = tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[0]], [1.], [2]))
  assert isinstance(sparse, tf.SparseTensor) and sparse.values.numpy().tolist() == [1.]
  dense = tf.convert_to_tensor_or_sparse_tensor([1, 2], tf.int64)
  assert dense.dtype is tf.int64 and dense.numpy().tolist() == [1, 2]
  with pytest.raises(RuntimeError, match=r"^Sparse dtype: requested = int32, actual = float32$"):
    tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensor([[0]], [1.], [2]), tf.int32)
  slices = tf.IndexedSlices(tf.constant([1.]), tf.constant([0]))
  assert tf.convert_to_tensor_or_indexed_slices(slices) is slices
  assert tf.convert_to_tensor_or_indexed_slices(3.).dtype is tf.float32
  with pytest.raises(ValueError, match="^Tensor conversion requested dtype int32 for Tensor with "
                     "dtype float32: 'IndexedSlices"):
    tf.convert_to_tensor_or_indexed_slices(slices, tf.int32)


def test_nondifferentiable_batch_function_and_aggregation_method():
  # TF 1.15's decorated function returns the BatchFunction op's list of outputs.
  @tf.nondifferentiable_batch_function(1, 2, 10)
  def f(a, b):
    return a * b, a + b

  out = f(tf.constant([1., 2.]), tf.constant([3., 4.]))
  assert [t.numpy().tolist() for t in out] == [[3., 8.], [4., 6.]]
  with pytest.raises(AttributeError, match="'float' object has no attribute 'dtype'"):
    f(1.0, 2.0)
  with pytest.raises(ValueError, match="supposed to be Tensors"):
    f(np.ones(2), np.ones(2))
  assert (tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
          tf.AggregationMethod.EXPERIMENTAL_TREE,
          tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N) == (0, 0, 1, 2)
  assert tf.NoGradient is tf.NotDifferentiable
