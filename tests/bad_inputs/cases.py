"""Bad calls: arguments TensorFlow rejects, each written once against a module parameter `tf`.

The same case runs on real TensorFlow (`tf` is `tensorflow.compat.v1`, eager, with tf-keras as
`tf.keras`) and on tfe_compat (`tf` is `tfe_compat`, TF 1.15's API). Names are those of TF 1.15
that TF 2.x keeps with the same meaning under `tf.compat.v1`.

A case returns whatever it computed; the harness forces it (`.numpy()`, iterating a dataset) so
that lazily raised errors surface. Bodies that must run inside `tf.function` do no forcing of
their own. `isolate=True` marks a case that might abort the interpreter or eat memory: it runs in
a subprocess with an address-space limit and a timeout.

TF's exception type for every case is recorded in golden.json by record_golden.py; this module
imports neither TensorFlow nor tfe_compat. Calls that TF 2.x accepts but TF 1.15 rejected
(e.g. Cholesky of a matrix that is not positive definite, `linspace(num=0)`, an unknown
regularizer name, Conv2D on rank-5 input) are left out: the suite must not push tfe_compat to be
laxer than TF 1.15. `function.X` runs case X inside `tf.function`; `function_args.X` passes its
tensors in as arguments, so nothing is known while tracing.
"""
import collections
import os
import shutil
import tempfile

Case = collections.namedtuple("Case", "name fn isolate")

CASES = []
_BY_NAME = {}


def case(name, fn=None, isolate=False):
  """Adds a case; usable as `case(name, lambda tf: ...)` or as a decorator `@case(name)`."""
  def add(fn):
    if name in _BY_NAME:
      raise ValueError("duplicate case name %r" % name)
    _BY_NAME[name] = Case(name, fn, isolate)
    CASES.append(_BY_NAME[name])
    return fn
  return add(fn) if fn is not None else add


def _c(tf, value, dtype=None):
  return tf.constant(value, dtype=dtype)


def _f(tf, shape):
  return tf.ones(shape, dtype=tf.float32)


# ---------------------------------------------------------------------------------------------
# Integer division, modulo and powers
# ---------------------------------------------------------------------------------------------
case("math.floordiv_int32_by_zero", lambda tf: tf.math.floordiv(_c(tf, [1, 2]), _c(tf, [1, 0])))
case("math.floordiv_int64_by_zero",
     lambda tf: tf.math.floordiv(_c(tf, [7], tf.int64), _c(tf, [0], tf.int64)))
case("math.floordiv_scalar_by_zero", lambda tf: tf.floordiv(_c(tf, 5), _c(tf, 0)))
case("math.floordiv_operator_by_zero", lambda tf: _c(tf, [4, 5]) // _c(tf, 0))
case("math.floordiv_operator_python_zero", lambda tf: _c(tf, [4, 5]) // 0)
case("math.floordiv_uint8_by_zero",
     lambda tf: tf.math.floordiv(_c(tf, [3], tf.uint8), _c(tf, [0], tf.uint8)))
case("math.floordiv_int16_by_zero",
     lambda tf: tf.math.floordiv(_c(tf, [3], tf.int16), _c(tf, [0], tf.int16)))
case("math.floordiv_broadcast_by_zero",
     lambda tf: tf.math.floordiv(_c(tf, [[1, 2], [3, 4]]), _c(tf, [1, 0])))
case("math.floormod_int32_by_zero", lambda tf: tf.math.floormod(_c(tf, [5, 6]), _c(tf, [2, 0])))
case("math.floormod_int64_by_zero",
     lambda tf: tf.math.floormod(_c(tf, [5], tf.int64), _c(tf, [0], tf.int64)))
case("math.mod_by_zero", lambda tf: tf.mod(_c(tf, [5]), _c(tf, [0])))
case("math.mod_operator_by_zero", lambda tf: _c(tf, [5, 6]) % _c(tf, 0))
case("math.mod_operator_python_zero", lambda tf: _c(tf, [5, 6]) % 0)
case("math.truncatediv_by_zero", lambda tf: tf.truncatediv(_c(tf, [5, -5]), _c(tf, [0, 0])))
case("math.truncatediv_int64_by_zero",
     lambda tf: tf.truncatediv(_c(tf, [5], tf.int64), _c(tf, [0], tf.int64)))
case("math.truncatemod_by_zero", lambda tf: tf.truncatemod(_c(tf, [5]), _c(tf, [0])))
case("math.div_int_by_zero", lambda tf: tf.div(_c(tf, [5]), _c(tf, [0])))
case("math.int_pow_negative_exponent", lambda tf: tf.pow(_c(tf, [2, 3]), _c(tf, [-1, 2])))
case("math.int64_pow_negative_exponent",
     lambda tf: tf.pow(_c(tf, [2], tf.int64), _c(tf, [-2], tf.int64)))
case("math.int_pow_operator_negative", lambda tf: _c(tf, [2, 3]) ** _c(tf, -1))
case("math.int_pow_python_negative", lambda tf: _c(tf, [2, 3]) ** -1)
case("math.int_pow_scalar_negative", lambda tf: tf.math.pow(_c(tf, 4), _c(tf, -3)))
case("math.float_floordiv_by_zero_ok", lambda tf: tf.math.floordiv(_c(tf, [1.0]), _c(tf, [0.0])))
case("math.float_floormod_by_zero_ok", lambda tf: tf.math.floormod(_c(tf, [1.0]), _c(tf, [0.0])))
case("math.int_divide_by_zero_ok", lambda tf: tf.divide(_c(tf, [1]), _c(tf, [0])))
case("math.int_pow_one_negative_ok", lambda tf: tf.pow(_c(tf, [2, 3]), _c(tf, [0, 1])))

# ---------------------------------------------------------------------------------------------
# Element-wise math: dtypes, strings, shapes
# ---------------------------------------------------------------------------------------------
case("math.add_int_float", lambda tf: tf.add(_c(tf, [1]), _c(tf, [1.0])))
case("math.add_int_python_float", lambda tf: tf.add(_c(tf, [1]), 1.5))
case("math.operator_int_plus_float_tensor", lambda tf: _c(tf, [1]) + _c(tf, [1.0]))
case("math.multiply_int32_int64", lambda tf: tf.multiply(_c(tf, [1]), _c(tf, [1], tf.int64)))
case("math.subtract_float32_float64",
     lambda tf: tf.subtract(_c(tf, [1.0]), _c(tf, [1.0], tf.float64)))
case("math.add_incompatible_shapes", lambda tf: tf.add(_c(tf, [1, 2, 3]), _c(tf, [1, 2])))
case("math.multiply_incompatible_shapes",
     lambda tf: tf.multiply(_f(tf, [2, 3]), _f(tf, [3, 2])))
case("math.maximum_incompatible_shapes", lambda tf: tf.maximum(_f(tf, [4]), _f(tf, [3])))
case("math.equal_incompatible_shapes", lambda tf: tf.equal(_f(tf, [4]), _f(tf, [3])))
case("math.squared_difference_incompatible",
     lambda tf: tf.squared_difference(_f(tf, [2]), _f(tf, [3])))
case("math.string_add_ok", lambda tf: tf.add(_c(tf, ["a"]), _c(tf, ["b"])))
case("math.string_multiply", lambda tf: tf.multiply(_c(tf, ["a"]), _c(tf, ["b"])))
case("math.string_subtract", lambda tf: tf.subtract(_c(tf, ["a"]), _c(tf, ["b"])))
case("math.string_sqrt", lambda tf: tf.sqrt(_c(tf, ["a"])))
case("math.string_exp", lambda tf: tf.exp(_c(tf, ["a"])))
case("math.string_abs", lambda tf: tf.abs(_c(tf, ["a"])))
case("math.string_negative", lambda tf: tf.negative(_c(tf, ["a"])))
case("math.string_square", lambda tf: tf.square(_c(tf, ["a"])))
case("math.string_log", lambda tf: tf.log(_c(tf, ["a"])))
case("math.string_sigmoid", lambda tf: tf.sigmoid(_c(tf, ["a"])))
case("math.string_tanh", lambda tf: tf.tanh(_c(tf, ["a"])))
case("math.string_reduce_sum", lambda tf: tf.reduce_sum(_c(tf, ["a", "b"])))
case("math.string_reduce_mean", lambda tf: tf.reduce_mean(_c(tf, ["a", "b"])))
case("math.string_matmul", lambda tf: tf.matmul(_c(tf, [["a"]]), _c(tf, [["b"]])))
case("math.string_relu", lambda tf: tf.nn.relu(_c(tf, ["a"])))
case("math.string_softmax", lambda tf: tf.nn.softmax(_c(tf, [["a"]])))
case("math.string_plus_int", lambda tf: tf.add(_c(tf, ["a"]), _c(tf, [1])))
case("math.python_string_to_sqrt", lambda tf: tf.sqrt("abc"))
case("math.python_string_plus_float_tensor", lambda tf: tf.add(_c(tf, [1.0]), "a"))
case("math.sqrt_int", lambda tf: tf.sqrt(_c(tf, [4])))
case("math.log_int", lambda tf: tf.log(_c(tf, [4])))
case("math.exp_int", lambda tf: tf.exp(_c(tf, [1])))
case("math.sigmoid_int", lambda tf: tf.sigmoid(_c(tf, [1])))
case("math.softmax_int", lambda tf: tf.nn.softmax(_c(tf, [[1, 2]])))
case("math.logical_and_int", lambda tf: tf.logical_and(_c(tf, [1]), _c(tf, [0])))
case("math.logical_not_float", lambda tf: tf.logical_not(_c(tf, [1.0])))
case("math.bitwise_and_float",
     lambda tf: tf.bitwise.bitwise_and(_c(tf, [1.0]), _c(tf, [1.0])))
case("math.bitwise_and_mixed_int",
     lambda tf: tf.bitwise.bitwise_and(_c(tf, [1]), _c(tf, [1], tf.int64)))
case("math.cast_string_to_float", lambda tf: tf.cast(_c(tf, ["1.5"]), tf.float32))
case("math.cast_float_to_string", lambda tf: tf.cast(_c(tf, [1.5]), tf.string))
case("math.string_to_number_invalid", lambda tf: tf.string_to_number(_c(tf, ["abc"])))
case("math.string_to_number_int_overflow",
     lambda tf: tf.string_to_number(_c(tf, ["99999999999"]), out_type=tf.int32))
case("math.bitcast_size_mismatch", lambda tf: tf.bitcast(_c(tf, [1.0, 2.0, 3.0]), tf.float64))
case("math.cross_last_dim_not_3", lambda tf: tf.cross(_f(tf, [2, 4]), _f(tf, [2, 4])))
case("math.add_n_mismatched_shapes", lambda tf: tf.add_n([_f(tf, [2]), _f(tf, [3])]))
case("math.add_n_empty", lambda tf: tf.add_n([]))
case("math.add_n_mixed_dtypes", lambda tf: tf.add_n([_c(tf, [1.0]), _c(tf, [1])]))
case("math.accumulate_n_mismatched",
     lambda tf: tf.math.accumulate_n([_f(tf, [2]), _f(tf, [3])]))
case("math.polyval_non_list", lambda tf: tf.math.polyval(_c(tf, [1.0, 2.0]), _c(tf, 1.0)))
case("math.lbeta_string", lambda tf: tf.lbeta(_c(tf, ["a"])))
case("math.segment_sum_not_increasing",
     lambda tf: tf.segment_sum(_c(tf, [1.0, 2.0, 3.0]), _c(tf, [1, 0, 1])))
case("math.segment_sum_negative_id",
     lambda tf: tf.segment_sum(_c(tf, [1.0, 2.0]), _c(tf, [-1, 0])))
case("math.segment_sum_length_mismatch",
     lambda tf: tf.segment_sum(_c(tf, [1.0, 2.0, 3.0]), _c(tf, [0, 1])))
case("math.segment_max_length_mismatch",
     lambda tf: tf.segment_max(_c(tf, [1.0, 2.0]), _c(tf, [0, 0, 1])))
case("math.segment_mean_float_ids",
     lambda tf: tf.segment_mean(_c(tf, [1.0, 2.0]), _c(tf, [0.0, 1.0])))
case("math.unsorted_segment_sum_id_too_large",
     lambda tf: tf.unsorted_segment_sum(_c(tf, [1.0, 2.0, 3.0]), _c(tf, [0, 1, 5]), 3))
case("math.unsorted_segment_sum_id_equal_num",
     lambda tf: tf.unsorted_segment_sum(_c(tf, [1.0, 2.0]), _c(tf, [0, 2]), 2))
case("math.unsorted_segment_max_id_too_large",
     lambda tf: tf.unsorted_segment_max(_c(tf, [1.0, 2.0]), _c(tf, [0, 9]), 2))
case("math.unsorted_segment_min_id_too_large",
     lambda tf: tf.unsorted_segment_min(_c(tf, [1.0, 2.0]), _c(tf, [0, 9]), 2))
case("math.unsorted_segment_prod_id_too_large",
     lambda tf: tf.unsorted_segment_prod(_c(tf, [1.0, 2.0]), _c(tf, [0, 9]), 2))
case("math.unsorted_segment_mean_id_too_large",
     lambda tf: tf.math.unsorted_segment_mean(_c(tf, [1.0, 2.0]), _c(tf, [0, 9]), 2))
case("math.unsorted_segment_sqrt_n_id_too_large",
     lambda tf: tf.math.unsorted_segment_sqrt_n(_c(tf, [1.0, 2.0]), _c(tf, [0, 9]), 2))
case("math.unsorted_segment_sum_negative_num",
     lambda tf: tf.unsorted_segment_sum(_c(tf, [1.0, 2.0]), _c(tf, [0, 0]), -1))
case("math.unsorted_segment_sum_shape_mismatch",
     lambda tf: tf.unsorted_segment_sum(_c(tf, [1.0, 2.0, 3.0]), _c(tf, [0, 0]), 2))
case("math.unsorted_segment_sum_negative_id_ok",
     lambda tf: tf.unsorted_segment_sum(_c(tf, [1.0, 2.0]), _c(tf, [-1, 0]), 2))
case("math.sparse_segment_sum_index_out_of_range",
     lambda tf: tf.sparse_segment_sum(_c(tf, [1.0, 2.0]), _c(tf, [0, 5]), _c(tf, [0, 0])))
case("math.sparse_segment_sum_ids_not_increasing",
     lambda tf: tf.sparse_segment_sum(_c(tf, [1.0, 2.0]), _c(tf, [0, 1]), _c(tf, [1, 0])))
case("math.sparse_segment_mean_index_out_of_range",
     lambda tf: tf.sparse_segment_mean(_c(tf, [1.0, 2.0]), _c(tf, [3]), _c(tf, [0])))
case("math.bincount_negative", lambda tf: tf.math.bincount(_c(tf, [1, -1, 2])))
case("math.bincount_weights_mismatch",
     lambda tf: tf.math.bincount(_c(tf, [1, 2]), weights=_c(tf, [1.0, 2.0, 3.0])))
case("math.confusion_matrix_label_too_large",
     lambda tf: tf.confusion_matrix(_c(tf, [0, 5]), _c(tf, [0, 1]), num_classes=3))
case("math.confusion_matrix_negative_label",
     lambda tf: tf.confusion_matrix(_c(tf, [0, -1]), _c(tf, [0, 1])))
case("math.confusion_matrix_length_mismatch",
     lambda tf: tf.confusion_matrix(_c(tf, [0, 1, 1]), _c(tf, [0, 1])))
case("math.top_k_k_too_large", lambda tf: tf.nn.top_k(_c(tf, [1.0, 2.0]), k=3))
case("math.top_k_negative_k", lambda tf: tf.nn.top_k(_c(tf, [1.0, 2.0]), k=-1))
case("math.top_k_scalar", lambda tf: tf.nn.top_k(_c(tf, 1.0), k=1))
case("math.in_top_k_mismatch",
     lambda tf: tf.nn.in_top_k(_f(tf, [2, 3]), _c(tf, [0, 1, 2]), 1))
case("math.unique_2d", lambda tf: tf.unique(_c(tf, [[1, 2], [1, 2]])))
case("math.cumsum_bad_axis", lambda tf: tf.cumsum(_f(tf, [2, 3]), axis=2))
case("math.cumprod_bad_axis", lambda tf: tf.cumprod(_f(tf, [2, 3]), axis=-3))
case("math.cumsum_float_axis", lambda tf: tf.cumsum(_f(tf, [2, 3]), axis=0.5))
case("math.clip_by_value_incompatible_min",
     lambda tf: tf.clip_by_value(_f(tf, [3]), _c(tf, [0.0, 0.0]), 1.0))
case("math.clip_by_value_incompatible_max",
     lambda tf: tf.clip_by_value(_f(tf, [2, 3]), 0.0, _c(tf, [1.0, 1.0])))
case("math.clip_by_value_int_with_float",
     lambda tf: tf.clip_by_value(_c(tf, [1, 2]), 0.5, 1.5))
case("math.clip_by_value_min_above_max_ok", lambda tf: tf.clip_by_value(_f(tf, [3]), 2.0, 1.0))
case("math.clip_by_norm_negative_norm_ok", lambda tf: tf.clip_by_norm(_f(tf, [3]), -1.0))
case("math.clip_by_norm_bad_axes",
     lambda tf: tf.clip_by_norm(_f(tf, [2, 3]), 1.0, axes=[2]))
case("math.clip_by_global_norm_not_list",
     lambda tf: tf.clip_by_global_norm(_f(tf, [3]), 1.0))
case("math.clip_by_norm_string", lambda tf: tf.clip_by_norm(_c(tf, ["a"]), 1.0))
case("math.norm_bad_ord", lambda tf: tf.norm(_f(tf, [3]), ord="bad"))
case("math.norm_bad_axis", lambda tf: tf.norm(_f(tf, [3]), axis=1))
case("math.norm_ord_zero", lambda tf: tf.norm(_f(tf, [3]), ord=0))
case("math.l2_normalize_bad_axis", lambda tf: tf.nn.l2_normalize(_f(tf, [2, 3]), axis=3))
case("math.tensordot_bad_axes",
     lambda tf: tf.tensordot(_f(tf, [2, 3]), _f(tf, [4, 5]), axes=[[1], [0]]))
case("math.tensordot_negative_axes", lambda tf: tf.tensordot(_f(tf, [2, 3]), _f(tf, [3]), -1))
case("math.einsum_bad_equation", lambda tf: tf.einsum("ij,jk->il", _f(tf, [2, 3]), _f(tf, [3, 4])))
case("math.einsum_dim_mismatch", lambda tf: tf.einsum("ij,jk->ik", _f(tf, [2, 3]), _f(tf, [4, 4])))
case("math.einsum_operand_count", lambda tf: tf.einsum("ij,jk->ik", _f(tf, [2, 3])))

# ---------------------------------------------------------------------------------------------
# Linear algebra
# ---------------------------------------------------------------------------------------------
case("linalg.matmul_size_mismatch", lambda tf: tf.matmul(_f(tf, [2, 3]), _f(tf, [4, 5])))
case("linalg.matmul_rank1", lambda tf: tf.matmul(_f(tf, [3]), _f(tf, [3])))
case("linalg.matmul_dtype_mismatch",
     lambda tf: tf.matmul(_f(tf, [2, 2]), tf.ones([2, 2], dtype=tf.float64)))
case("linalg.matmul_int_float", lambda tf: tf.matmul(_c(tf, [[1]]), _c(tf, [[1.0]])))
case("linalg.matmul_batch_mismatch", lambda tf: tf.matmul(_f(tf, [2, 2, 3]), _f(tf, [3, 3, 2])))
case("linalg.matmul_transpose_mismatch",
     lambda tf: tf.matmul(_f(tf, [2, 3]), _f(tf, [2, 3]), transpose_b=False))
case("linalg.matmul_adjoint_and_transpose",
     lambda tf: tf.matmul(_f(tf, [2, 2]), _f(tf, [2, 2]), transpose_a=True, adjoint_a=True))
case("linalg.matrix_inverse_singular", lambda tf: tf.matrix_inverse(tf.zeros([2, 2])))
case("linalg.matrix_inverse_non_square", lambda tf: tf.matrix_inverse(_f(tf, [2, 3])))
case("linalg.matrix_inverse_rank1", lambda tf: tf.matrix_inverse(_f(tf, [3])))
case("linalg.matrix_inverse_int", lambda tf: tf.matrix_inverse(_c(tf, [[1, 0], [0, 1]])))
case("linalg.cholesky_non_square", lambda tf: tf.cholesky(_f(tf, [2, 3])))
case("linalg.det_non_square", lambda tf: tf.matrix_determinant(_f(tf, [2, 3])))
case("linalg.solve_mismatch", lambda tf: tf.matrix_solve(tf.eye(2), _f(tf, [3, 1])))
case("linalg.solve_singular", lambda tf: tf.matrix_solve(tf.zeros([2, 2]), _f(tf, [2, 1])))
case("linalg.triangular_solve_mismatch",
     lambda tf: tf.matrix_triangular_solve(tf.eye(2), _f(tf, [3, 1])))
case("linalg.band_part_rank1", lambda tf: tf.matrix_band_part(_f(tf, [3]), 0, 0))
case("linalg.diag_part_rank1", lambda tf: tf.matrix_diag_part(_f(tf, [3])))
case("linalg.set_diag_mismatch", lambda tf: tf.matrix_set_diag(_f(tf, [3, 3]), _f(tf, [2])))
case("linalg.trace_rank1", lambda tf: tf.trace(_f(tf, [3])))
case("linalg.eigh_non_square", lambda tf: tf.self_adjoint_eig(_f(tf, [2, 3])))
case("linalg.svd_rank1", lambda tf: tf.svd(_f(tf, [3])))
case("linalg.qr_rank1", lambda tf: tf.qr(_f(tf, [3])))
case("linalg.eye_negative", lambda tf: tf.eye(-2))
case("linalg.eye_float_rows", lambda tf: tf.eye(2.5))
case("linalg.diag_scalar", lambda tf: tf.diag(_c(tf, 1.0)))
case("linalg.lstsq_mismatch", lambda tf: tf.matrix_solve_ls(_f(tf, [3, 2]), _f(tf, [4, 1])))

# ---------------------------------------------------------------------------------------------
# Reductions, arg-reductions, moments: bad axes
# ---------------------------------------------------------------------------------------------
case("reduce.sum_axis_out_of_range", lambda tf: tf.reduce_sum(_f(tf, [2, 3]), axis=2))
case("reduce.sum_negative_axis_out_of_range", lambda tf: tf.reduce_sum(_f(tf, [2, 3]), axis=-3))
case("reduce.sum_float_axis", lambda tf: tf.reduce_sum(_f(tf, [2, 3]), axis=1.0))
case("reduce.sum_float_axis_list", lambda tf: tf.reduce_sum(_f(tf, [2, 3]), axis=[0.5]))
case("reduce.sum_string_axis", lambda tf: tf.reduce_sum(_f(tf, [2, 3]), axis="a"))
case("reduce.sum_duplicate_axes", lambda tf: tf.reduce_sum(_f(tf, [2, 3]), axis=[0, 0]))
case("reduce.sum_axis_rank2", lambda tf: tf.reduce_sum(_f(tf, [2, 3]), axis=[[0]]))
case("reduce.sum_scalar_axis0", lambda tf: tf.reduce_sum(_c(tf, 1.0), axis=0))
case("reduce.mean_axis_out_of_range", lambda tf: tf.reduce_mean(_f(tf, [2, 3]), axis=5))
case("reduce.mean_float_axis", lambda tf: tf.reduce_mean(_f(tf, [2, 3]), axis=0.0))
case("reduce.max_axis_out_of_range", lambda tf: tf.reduce_max(_f(tf, [2, 3]), axis=2))
case("reduce.min_axis_out_of_range", lambda tf: tf.reduce_min(_f(tf, [2, 3]), axis=-3))
case("reduce.prod_axis_out_of_range", lambda tf: tf.reduce_prod(_f(tf, [2, 3]), axis=[1, 2]))
case("reduce.logsumexp_axis_out_of_range",
     lambda tf: tf.reduce_logsumexp(_f(tf, [2, 3]), axis=2))
case("reduce.any_axis_out_of_range",
     lambda tf: tf.reduce_any(tf.cast(_f(tf, [2, 3]), tf.bool), axis=2))
case("reduce.all_axis_out_of_range",
     lambda tf: tf.reduce_all(tf.cast(_f(tf, [2, 3]), tf.bool), axis=-4))
case("reduce.any_float_input", lambda tf: tf.reduce_any(_f(tf, [2, 3])))
case("reduce.all_int_input", lambda tf: tf.reduce_all(_c(tf, [1, 0])))
case("reduce.std_axis_out_of_range", lambda tf: tf.math.reduce_std(_f(tf, [2, 3]), axis=2))
case("reduce.variance_axis_out_of_range",
     lambda tf: tf.math.reduce_variance(_f(tf, [2, 3]), axis=3))
case("reduce.euclidean_norm_bad_axis",
     lambda tf: tf.math.reduce_euclidean_norm(_f(tf, [2, 3]), axis=2))
case("reduce.count_nonzero_bad_axis", lambda tf: tf.count_nonzero(_f(tf, [2, 3]), axis=2))
case("reduce.argmax_axis_out_of_range", lambda tf: tf.argmax(_f(tf, [2, 3]), axis=2))
case("reduce.argmin_axis_out_of_range", lambda tf: tf.argmin(_f(tf, [2, 3]), axis=-3))
case("reduce.argmin_list_axis", lambda tf: tf.argmin(_f(tf, [2, 3]), axis=[0, 1]))
case("reduce.argmax_list_axis", lambda tf: tf.argmax(_f(tf, [2, 3]), axis=[0]))
case("reduce.argmax_float_axis", lambda tf: tf.argmax(_f(tf, [2, 3]), axis=1.0))
case("reduce.argmax_empty_dim", lambda tf: tf.argmax(tf.zeros([0]), axis=0))
case("reduce.argmin_empty_dim", lambda tf: tf.argmin(tf.zeros([2, 0]), axis=1))
case("reduce.argmax_string", lambda tf: tf.argmax(_c(tf, ["a", "b"]), axis=0))
case("reduce.argmax_bad_output_type",
     lambda tf: tf.argmax(_f(tf, [2]), axis=0, output_type=tf.float32))
case("reduce.moments_axis_out_of_range", lambda tf: tf.nn.moments(_f(tf, [2, 3]), axes=[2]))
case("reduce.moments_negative_axis_out_of_range",
     lambda tf: tf.nn.moments(_f(tf, [2, 3]), axes=[-3]))
case("reduce.moments_float_axes", lambda tf: tf.nn.moments(_f(tf, [2, 3]), axes=[0.5]))
case("reduce.moments_int_input", lambda tf: tf.nn.moments(_c(tf, [1, 2]), axes=[0]))
case("reduce.softmax_axis_out_of_range", lambda tf: tf.nn.softmax(_f(tf, [2, 3]), axis=2))
case("reduce.log_softmax_axis_out_of_range",
     lambda tf: tf.nn.log_softmax(_f(tf, [2, 3]), axis=-3))
case("reduce.sort_axis_out_of_range", lambda tf: tf.sort(_f(tf, [2, 3]), axis=2))
case("reduce.argsort_bad_direction", lambda tf: tf.argsort(_f(tf, [3]), direction="UP"))

# ---------------------------------------------------------------------------------------------
# Shapes: reshape, concat, stack, split, squeeze, transpose, tile, pad, slice
# ---------------------------------------------------------------------------------------------
case("shape.reshape_wrong_size", lambda tf: tf.reshape(_f(tf, [2, 3]), [4]))
case("shape.reshape_two_unknown", lambda tf: tf.reshape(_f(tf, [2, 3]), [-1, -1]))
case("shape.reshape_not_divisible", lambda tf: tf.reshape(_f(tf, [2, 3]), [-1, 4]))
case("shape.reshape_float_shape", lambda tf: tf.reshape(_f(tf, [2, 3]), [3.0, 2.0]))
case("shape.reshape_float_tensor_shape", lambda tf: tf.reshape(_f(tf, [2, 3]), _c(tf, [3.0, 2.0])))
case("shape.reshape_string_shape", lambda tf: tf.reshape(_f(tf, [2, 3]), "3,2"))
case("shape.reshape_string_list_shape", lambda tf: tf.reshape(_f(tf, [2, 3]), ["3", "2"]))
case("shape.reshape_negative_two", lambda tf: tf.reshape(_f(tf, [2, 3]), [-2, -3]))
case("shape.reshape_shape_rank2", lambda tf: tf.reshape(_f(tf, [2, 3]), [[2, 3]]))
case("shape.reshape_zero_dim", lambda tf: tf.reshape(_f(tf, [2, 3]), [0, -1]))
case("shape.reshape_none_shape", lambda tf: tf.reshape(_f(tf, [2, 3]), None))
case("shape.concat_empty_list", lambda tf: tf.concat([], axis=0))
case("shape.concat_rank_mismatch", lambda tf: tf.concat([_f(tf, [2]), _f(tf, [2, 2])], axis=0))
case("shape.concat_dim_mismatch", lambda tf: tf.concat([_f(tf, [2, 3]), _f(tf, [2, 4])], axis=0))
case("shape.concat_axis_out_of_range", lambda tf: tf.concat([_f(tf, [2]), _f(tf, [2])], axis=1))
case("shape.concat_dtype_mismatch", lambda tf: tf.concat([_c(tf, [1]), _c(tf, [1.0])], axis=0))
case("shape.concat_scalars", lambda tf: tf.concat([_c(tf, 1.0), _c(tf, 2.0)], axis=0))
case("shape.concat_float_axis", lambda tf: tf.concat([_f(tf, [2]), _f(tf, [2])], axis=0.0))
case("shape.stack_empty_list", lambda tf: tf.stack([]))
case("shape.stack_shape_mismatch", lambda tf: tf.stack([_f(tf, [2]), _f(tf, [3])]))
case("shape.stack_axis_out_of_range", lambda tf: tf.stack([_f(tf, [2]), _f(tf, [2])], axis=3))
case("shape.stack_dtype_mismatch", lambda tf: tf.stack([_c(tf, 1), _c(tf, 1.0)]))
case("shape.unstack_axis_out_of_range", lambda tf: tf.unstack(_f(tf, [2, 3]), axis=2))
case("shape.unstack_num_mismatch", lambda tf: tf.unstack(_f(tf, [2, 3]), num=3))
case("shape.unstack_scalar", lambda tf: tf.unstack(_c(tf, 1.0)))
case("shape.split_not_divisible", lambda tf: tf.split(_f(tf, [5]), 2))
case("shape.split_sizes_wrong_sum", lambda tf: tf.split(_f(tf, [5]), [2, 2]))
case("shape.split_axis_out_of_range", lambda tf: tf.split(_f(tf, [4]), 2, axis=1))
case("shape.split_zero", lambda tf: tf.split(_f(tf, [4]), 0))
case("shape.split_two_unknown_sizes", lambda tf: tf.split(_f(tf, [4]), [-1, -1]))
case("shape.squeeze_non_unit_axis", lambda tf: tf.squeeze(_f(tf, [2, 1]), axis=0))
case("shape.squeeze_axis_out_of_range", lambda tf: tf.squeeze(_f(tf, [2, 1]), axis=2))
case("shape.expand_dims_axis_out_of_range", lambda tf: tf.expand_dims(_f(tf, [2]), axis=3))
case("shape.expand_dims_float_axis", lambda tf: tf.expand_dims(_f(tf, [2]), axis=0.5))
case("shape.transpose_perm_wrong_length", lambda tf: tf.transpose(_f(tf, [2, 3]), [1, 0, 2]))
case("shape.transpose_perm_duplicate", lambda tf: tf.transpose(_f(tf, [2, 3]), [0, 0]))
case("shape.transpose_perm_out_of_range", lambda tf: tf.transpose(_f(tf, [2, 3]), [0, 2]))
case("shape.tile_multiples_wrong_length", lambda tf: tf.tile(_f(tf, [2, 3]), [2]))
case("shape.tile_negative_multiples", lambda tf: tf.tile(_f(tf, [2]), [-1]))
case("shape.tile_float_multiples", lambda tf: tf.tile(_f(tf, [2]), [2.0]))
case("shape.pad_paddings_wrong_shape", lambda tf: tf.pad(_f(tf, [2, 3]), [[1, 1]]))
case("shape.pad_negative", lambda tf: tf.pad(_f(tf, [2, 3]), [[-3, 0], [0, 0]]))
case("shape.pad_reflect_too_large",
     lambda tf: tf.pad(_f(tf, [2, 3]), [[2, 2], [0, 0]], mode="REFLECT"))
case("shape.pad_symmetric_too_large",
     lambda tf: tf.pad(_f(tf, [2, 3]), [[3, 0], [0, 0]], mode="SYMMETRIC"))
case("shape.pad_bad_mode", lambda tf: tf.pad(_f(tf, [2, 3]), [[1, 1], [0, 0]], mode="WRAP"))
case("shape.slice_out_of_range", lambda tf: tf.slice(_f(tf, [3]), [2], [2]))
case("shape.slice_negative_begin", lambda tf: tf.slice(_f(tf, [3]), [-1], [1]))
case("shape.slice_bad_size", lambda tf: tf.slice(_f(tf, [3]), [0], [-2]))
case("shape.slice_wrong_rank", lambda tf: tf.slice(_f(tf, [3]), [0, 0], [1, 1]))
case("shape.strided_slice_zero_stride",
     lambda tf: tf.strided_slice(_f(tf, [4]), [0], [4], [0]))
case("shape.broadcast_to_incompatible", lambda tf: tf.broadcast_to(_f(tf, [3]), [2, 2]))
case("shape.broadcast_to_negative", lambda tf: tf.broadcast_to(_f(tf, [1]), [-2]))
case("shape.broadcast_static_shape_incompatible",
     lambda tf: tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3])))
case("shape.zeros_negative_dim", lambda tf: tf.zeros([-1, 2]))
case("shape.ones_negative_dim", lambda tf: tf.ones([2, -3]))
case("shape.zeros_float_shape", lambda tf: tf.zeros([2.5]))
case("shape.zeros_string_shape", lambda tf: tf.zeros("2"))
case("shape.fill_negative_dim", lambda tf: tf.fill([-1], 1.0))
case("shape.fill_non_scalar_value", lambda tf: tf.fill([2], [1.0, 2.0]))
case("shape.fill_dims_rank2", lambda tf: tf.fill([[2]], 1.0))
case("shape.zeros_like_of_string_ok", lambda tf: tf.zeros_like(_c(tf, ["a"])))
case("shape.range_zero_delta", lambda tf: tf.range(0, 5, 0))
case("shape.range_wrong_direction", lambda tf: tf.range(5, 0, 1))
case("shape.range_negative_delta_wrong_direction", lambda tf: tf.range(0, 5, -1))
case("shape.range_string", lambda tf: tf.range("a"))
case("shape.linspace_int_start", lambda tf: tf.linspace(0, 1, 3))
case("shape.one_hot_negative_depth", lambda tf: tf.one_hot(_c(tf, [0, 1]), -1))
case("shape.one_hot_float_indices", lambda tf: tf.one_hot(_c(tf, [0.0, 1.0]), 3))
case("shape.one_hot_bad_axis", lambda tf: tf.one_hot(_c(tf, [0, 1]), 3, axis=3))
case("shape.one_hot_out_of_range_ok", lambda tf: tf.one_hot(_c(tf, [0, 7, -1]), 3))
case("shape.sequence_mask_negative_maxlen", lambda tf: tf.sequence_mask(_c(tf, [1, 2]), -1))
case("shape.sequence_mask_float_lengths", lambda tf: tf.sequence_mask(_c(tf, [1.5, 2.0]), 3))
case("shape.sequence_mask_maxlen_vector",
     lambda tf: tf.sequence_mask(_c(tf, [1, 2]), _c(tf, [3, 3])))
case("shape.histogram_empty_range",
     lambda tf: tf.histogram_fixed_width(_c(tf, [1.0, 2.0]), [1.0, 1.0], nbins=3))
case("shape.histogram_reversed_range",
     lambda tf: tf.histogram_fixed_width(_c(tf, [1.0, 2.0]), [2.0, 0.0], nbins=3))
case("shape.histogram_negative_nbins",
     lambda tf: tf.histogram_fixed_width(_c(tf, [1.0, 2.0]), [0.0, 3.0], nbins=-1))
case("shape.histogram_zero_nbins",
     lambda tf: tf.histogram_fixed_width(_c(tf, [1.0, 2.0]), [0.0, 3.0], nbins=0))
case("shape.boolean_mask_shape_mismatch",
     lambda tf: tf.boolean_mask(_f(tf, [3]), _c(tf, [True, False])))
case("shape.boolean_mask_non_bool", lambda tf: tf.boolean_mask(_f(tf, [2]), _c(tf, [1, 0])))
case("shape.boolean_mask_scalar_mask", lambda tf: tf.boolean_mask(_f(tf, [2]), _c(tf, True)))
case("shape.where_shape_mismatch",
     lambda tf: tf.where(_c(tf, [True, False]), _f(tf, [2]), _f(tf, [3])))
case("shape.where_non_bool_condition",
     lambda tf: tf.where(_c(tf, [1, 0]), _f(tf, [2]), _f(tf, [2])))
case("shape.where_x_without_y", lambda tf: tf.where(_c(tf, [True]), x=_f(tf, [1])))
case("shape.where_v2_incompatible",
     lambda tf: tf.where_v2(_c(tf, [True, False, True]), _f(tf, [2]), _f(tf, [2])))
case("shape.reverse_axis_out_of_range", lambda tf: tf.reverse(_f(tf, [2, 3]), [2]))
case("shape.reverse_duplicate_axis", lambda tf: tf.reverse(_f(tf, [2, 3]), [0, 0]))
case("shape.reverse_sequence_length_too_large",
     lambda tf: tf.reverse_sequence(_f(tf, [2, 3]), _c(tf, [4, 1], tf.int64), seq_axis=1,
                                    batch_axis=0))
case("shape.reverse_sequence_batch_mismatch",
     lambda tf: tf.reverse_sequence(_f(tf, [2, 3]), _c(tf, [1, 1, 1], tf.int64), seq_axis=1,
                                    batch_axis=0))
case("shape.space_to_depth_not_divisible",
     lambda tf: tf.space_to_depth(_f(tf, [1, 3, 3, 1]), 2))
case("shape.depth_to_space_not_divisible",
     lambda tf: tf.depth_to_space(_f(tf, [1, 2, 2, 3]), 2))
case("shape.space_to_depth_block_1", lambda tf: tf.space_to_depth(_f(tf, [1, 2, 2, 1]), 1))
case("shape.space_to_batch_not_divisible",
     lambda tf: tf.space_to_batch_nd(_f(tf, [1, 3, 3, 1]), [2, 2], [[0, 0], [0, 0]]))
case("shape.batch_to_space_not_divisible",
     lambda tf: tf.batch_to_space_nd(_f(tf, [3, 1, 1, 1]), [2, 2], [[0, 0], [0, 0]]))
case("shape.meshgrid_bad_indexing",
     lambda tf: tf.meshgrid(_f(tf, [2]), _f(tf, [3]), indexing="xyz"))
case("shape.matrix_diag_scalar", lambda tf: tf.matrix_diag(_c(tf, 1.0)))
case("shape.dynamic_partition_out_of_range",
     lambda tf: tf.dynamic_partition(_f(tf, [3]), _c(tf, [0, 1, 5]), 2))
case("shape.dynamic_partition_shape_mismatch",
     lambda tf: tf.dynamic_partition(_f(tf, [3]), _c(tf, [0, 1]), 2))
case("shape.dynamic_stitch_mismatch",
     lambda tf: tf.dynamic_stitch([_c(tf, [0, 1])], [_f(tf, [3])]))
case("shape.searchsorted_rank_mismatch",
     lambda tf: tf.searchsorted(_f(tf, [2, 3]), _f(tf, [3])))
case("shape.ensure_shape_mismatch", lambda tf: tf.ensure_shape(_f(tf, [2, 3]), [3, 2]))
case("shape.tensorshape_merge_incompatible",
     lambda tf: tf.TensorShape([2, 3]).merge_with(tf.TensorShape([2, 4])))
case("shape.tensorshape_index_out_of_range", lambda tf: tf.TensorShape([2, 3])[5])

# ---------------------------------------------------------------------------------------------
# Tensor creation and conversion
# ---------------------------------------------------------------------------------------------
case("convert.constant_ragged_list", lambda tf: tf.constant([1, [2, 3]]))
case("convert.constant_string_as_float", lambda tf: tf.constant("a", dtype=tf.float32))
case("convert.constant_float_as_int", lambda tf: tf.constant(1.5, dtype=tf.int32))
case("convert.constant_int_overflow", lambda tf: tf.constant(2**40, dtype=tf.int32))
case("convert.constant_int64_overflow", lambda tf: tf.constant(2**70))
case("convert.constant_negative_uint8", lambda tf: tf.constant(-1, dtype=tf.uint8))
case("convert.constant_shape_mismatch", lambda tf: tf.constant([1, 2, 3], shape=[2]))
case("convert.constant_dict", lambda tf: tf.constant({"a": 1}))
case("convert.constant_none", lambda tf: tf.constant(None))
case("convert.constant_object", lambda tf: tf.constant(object()))
case("convert.constant_list_with_none", lambda tf: tf.constant([1.0, None]))
case("convert.convert_to_tensor_none", lambda tf: tf.convert_to_tensor(None))
case("convert.convert_to_tensor_dtype_mismatch",
     lambda tf: tf.convert_to_tensor(_c(tf, [1]), dtype=tf.float32))
case("convert.convert_to_tensor_mixed_list", lambda tf: tf.convert_to_tensor([1, "a"]))
case("convert.convert_to_tensor_bad_dtype", lambda tf: tf.convert_to_tensor([1], dtype="nope"))
case("convert.as_dtype_unknown", lambda tf: tf.as_dtype("float31"))
case("convert.cast_bad_dtype", lambda tf: tf.cast(_f(tf, [1]), "nope"))
case("convert.identity_of_list_of_strings_and_numbers", lambda tf: tf.identity([1.0, "a"]))
case("convert.tensor_bool_of_non_scalar", lambda tf: bool(_f(tf, [2])))
case("convert.tensor_int_of_non_scalar", lambda tf: int(_f(tf, [2])))
case("convert.tensor_float_of_string", lambda tf: float(_c(tf, "a")))
case("convert.tensor_index_of_float", lambda tf: [1, 2, 3][_c(tf, 1.0)])
case("convert.tensor_len_of_scalar", lambda tf: len(_c(tf, 1.0)))
case("convert.tensor_iterate_scalar", lambda tf: list(_c(tf, 1.0)))
case("convert.tensor_hash", lambda tf: {_c(tf, 1.0): 1})
case("convert.string_join_mismatched_shapes",
     lambda tf: tf.strings.join([_c(tf, ["a", "b"]), _c(tf, ["a", "b", "c"])]))
case("convert.substr_pos_out_of_range",
     lambda tf: tf.strings.substr(_c(tf, ["abc"]), 5, 1))
case("convert.substr_shape_mismatch",
     lambda tf: tf.strings.substr(_c(tf, ["abc", "de"]), _c(tf, [0, 0, 0]), _c(tf, [1, 1, 1])))
case("convert.decode_base64_invalid", lambda tf: tf.decode_base64(_c(tf, ["a"])))
case("convert.as_string_of_string", lambda tf: tf.as_string(_c(tf, ["a"])))
case("convert.decode_raw_bad_length",
     lambda tf: tf.decode_raw(_c(tf, ["abc"]), tf.int32))
case("convert.decode_csv_wrong_field_count",
     lambda tf: tf.io.decode_csv(_c(tf, ["1,2,3"]), record_defaults=[[0], [0]]))
case("convert.decode_csv_bad_number",
     lambda tf: tf.io.decode_csv(_c(tf, ["a"]), record_defaults=[[0]]))
case("convert.decode_csv_missing_required",
     lambda tf: tf.io.decode_csv(_c(tf, [","]), record_defaults=[_c(tf, [], tf.int32),
                                                                 [0]]))
case("convert.parse_example_bad_bytes",
     lambda tf: tf.io.parse_single_example(
         _c(tf, b"garbage"), {"a": tf.io.FixedLenFeature([], tf.int64)}))
case("convert.parse_tensor_bad_bytes", lambda tf: tf.io.parse_tensor(_c(tf, b"xyz"), tf.float32))
case("convert.decode_png_invalid", lambda tf: tf.image.decode_png(_c(tf, b"not a png")))
case("convert.decode_jpeg_invalid", lambda tf: tf.image.decode_jpeg(_c(tf, b"not a jpeg")))
case("convert.decode_image_invalid", lambda tf: tf.image.decode_image(_c(tf, b"not an image")))
case("convert.read_file_missing",
     lambda tf: tf.io.read_file(_c(tf, "/nonexistent/bad_inputs/file.txt")))
case("convert.gfile_open_missing",
     lambda tf: tf.gfile.GFile("/nonexistent/bad_inputs/file.txt").read())
case("convert.string_split_bad_delimiter_type",
     lambda tf: tf.string_split(_c(tf, ["a b"]), delimiter=1))
case("convert.string_to_hash_bucket_zero",
     lambda tf: tf.string_to_hash_bucket_fast(_c(tf, ["a"]), 0))

# ---------------------------------------------------------------------------------------------
# Indexing: tensors, gather/scatter, embedding lookups
# ---------------------------------------------------------------------------------------------
case("index.tensor_index_out_of_range", lambda tf: _f(tf, [3])[5])
case("index.tensor_negative_index_out_of_range", lambda tf: _f(tf, [3])[-4])
case("index.tensor_too_many_indices", lambda tf: _f(tf, [3])[0, 0])
case("index.tensor_string_index", lambda tf: _f(tf, [3])["a"])
case("index.tensor_float_index", lambda tf: _f(tf, [3])[1.5])
case("index.tensor_list_index", lambda tf: _f(tf, [3])[[0, 1]])
case("index.tensor_tensor_index_out_of_range", lambda tf: _f(tf, [3])[_c(tf, 5)])
case("index.tensor_float_tensor_index", lambda tf: _f(tf, [3])[_c(tf, 1.0)])
case("index.tensor_zero_step", lambda tf: _f(tf, [3])[::0])
case("index.tensor_two_ellipses", lambda tf: _f(tf, [2, 3])[..., ...])
case("index.tensor_index_of_scalar", lambda tf: _c(tf, 1.0)[0])
case("index.tensor_2d_row_out_of_range", lambda tf: _f(tf, [2, 3])[2, 0])
case("index.tensor_2d_col_out_of_range", lambda tf: _f(tf, [2, 3])[:, 3])
case("index.variable_index_out_of_range", lambda tf: tf.Variable([1.0, 2.0])[3])
case("index.gather_out_of_range", lambda tf: tf.gather(_c(tf, [1.0, 2.0, 3.0]), [5]))
case("index.gather_negative", lambda tf: tf.gather(_c(tf, [1.0, 2.0, 3.0]), [-1]))
case("index.gather_2d_out_of_range",
     lambda tf: tf.gather(_f(tf, [2, 3]), _c(tf, [[0], [2]])))
case("index.gather_axis1_out_of_range", lambda tf: tf.gather(_f(tf, [2, 3]), [3], axis=1))
case("index.gather_bad_axis", lambda tf: tf.gather(_f(tf, [2, 3]), [0], axis=2))
case("index.gather_float_indices", lambda tf: tf.gather(_f(tf, [3]), _c(tf, [0.0])))
case("index.gather_int64_out_of_range",
     lambda tf: tf.gather(_f(tf, [3]), _c(tf, [3], tf.int64)))
case("index.gather_batch_dims_too_large",
     lambda tf: tf.gather(_f(tf, [2, 3]), _c(tf, [[0], [1]]), batch_dims=3))
case("index.gather_nd_out_of_range", lambda tf: tf.gather_nd(_f(tf, [2, 3]), [[1, 5]]))
case("index.gather_nd_negative", lambda tf: tf.gather_nd(_f(tf, [2, 3]), [[-1, 0]]))
case("index.gather_nd_index_too_deep", lambda tf: tf.gather_nd(_f(tf, [2, 3]), [[0, 0, 0]]))
case("index.gather_nd_float_indices", lambda tf: tf.gather_nd(_f(tf, [2, 3]), [[0.0, 0.0]]))
case("index.batch_gather_out_of_range",
     lambda tf: tf.batch_gather(_f(tf, [2, 3]), _c(tf, [[0], [7]])))
case("index.embedding_lookup_out_of_range",
     lambda tf: tf.nn.embedding_lookup(_f(tf, [4, 2]), _c(tf, [1, 4])))
case("index.embedding_lookup_negative",
     lambda tf: tf.nn.embedding_lookup(_f(tf, [4, 2]), _c(tf, [-1])))
case("index.embedding_lookup_variable_out_of_range",
     lambda tf: tf.nn.embedding_lookup(tf.Variable(tf.ones([4, 2])), _c(tf, [[9]])))
case("index.embedding_lookup_partitioned_out_of_range",
     lambda tf: tf.nn.embedding_lookup([_f(tf, [2, 2]), _f(tf, [2, 2])], _c(tf, [5])))
case("index.embedding_lookup_float_ids",
     lambda tf: tf.nn.embedding_lookup(_f(tf, [4, 2]), _c(tf, [1.0])))
case("index.embedding_lookup_empty_params", lambda tf: tf.nn.embedding_lookup([], _c(tf, [0])))
case("index.scatter_nd_out_of_range",
     lambda tf: tf.scatter_nd(_c(tf, [[5]]), _c(tf, [1.0]), _c(tf, [3])))
case("index.scatter_nd_negative_index",
     lambda tf: tf.scatter_nd(_c(tf, [[-1]]), _c(tf, [1.0]), _c(tf, [3])))
case("index.scatter_nd_updates_shape_mismatch",
     lambda tf: tf.scatter_nd(_c(tf, [[0]]), _c(tf, [1.0, 2.0]), _c(tf, [3])))
case("index.scatter_nd_negative_shape",
     lambda tf: tf.scatter_nd(_c(tf, [[0]]), _c(tf, [1.0]), _c(tf, [-3])))
case("index.tensor_scatter_update_out_of_range",
     lambda tf: tf.tensor_scatter_update(_f(tf, [3]), _c(tf, [[3]]), _c(tf, [2.0])))
case("index.tensor_scatter_add_out_of_range",
     lambda tf: tf.tensor_scatter_add(_f(tf, [3]), _c(tf, [[-1]]), _c(tf, [2.0])))
case("index.tensor_scatter_sub_shape_mismatch",
     lambda tf: tf.tensor_scatter_sub(_f(tf, [3]), _c(tf, [[0]]), _c(tf, [2.0, 1.0])))
case("index.scatter_update_var_out_of_range",
     lambda tf: tf.scatter_update(tf.Variable([1.0, 2.0]), [5], [1.0]))
case("index.scatter_add_var_out_of_range",
     lambda tf: tf.scatter_add(tf.Variable([1.0, 2.0]), [2], [1.0]))
case("index.scatter_sub_var_negative",
     lambda tf: tf.scatter_sub(tf.Variable([1.0, 2.0]), [-1], [1.0]))
case("index.scatter_mul_var_out_of_range",
     lambda tf: tf.scatter_mul(tf.Variable([1.0, 2.0]), [7], [1.0]))
case("index.scatter_div_var_out_of_range",
     lambda tf: tf.scatter_div(tf.Variable([1.0, 2.0]), [7], [1.0]))
case("index.scatter_max_var_out_of_range",
     lambda tf: tf.scatter_max(tf.Variable([1.0, 2.0]), [7], [1.0]))
case("index.scatter_min_var_out_of_range",
     lambda tf: tf.scatter_min(tf.Variable([1.0, 2.0]), [7], [1.0]))
case("index.scatter_update_var_shape_mismatch",
     lambda tf: tf.scatter_update(tf.Variable([1.0, 2.0]), [0], [1.0, 2.0]))
case("index.scatter_nd_update_var_out_of_range",
     lambda tf: tf.scatter_nd_update(tf.Variable([1.0, 2.0]), [[4]], [1.0]))
case("index.scatter_nd_add_var_out_of_range",
     lambda tf: tf.scatter_nd_add(tf.Variable([1.0, 2.0]), [[4]], [1.0]))
case("index.variable_scatter_update_method_out_of_range",
     lambda tf: tf.Variable([1.0, 2.0]).scatter_update(
         tf.IndexedSlices(_c(tf, [1.0]), _c(tf, [3]))))
case("index.variable_scatter_add_method_out_of_range",
     lambda tf: tf.Variable([1.0, 2.0]).scatter_add(
         tf.IndexedSlices(_c(tf, [1.0]), _c(tf, [-2]))))
case("index.variable_scatter_nd_update_method_out_of_range",
     lambda tf: tf.Variable([1.0, 2.0]).scatter_nd_update(_c(tf, [[2]]), _c(tf, [1.0])))
case("index.variable_sparse_read_out_of_range",
     lambda tf: tf.Variable([1.0, 2.0]).sparse_read(_c(tf, [2])))
case("index.variable_gather_nd_out_of_range",
     lambda tf: tf.Variable([[1.0, 2.0]]).gather_nd(_c(tf, [[1, 0]])))

# ---------------------------------------------------------------------------------------------
# Sparse tensors
# ---------------------------------------------------------------------------------------------
case("sparse.tensor_mismatched_indices_values",
     lambda tf: tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1.0], dense_shape=[2, 2]))
case("sparse.tensor_indices_rank_mismatch",
     lambda tf: tf.SparseTensor(indices=[[0, 0, 0]], values=[1.0], dense_shape=[2, 2]))
case("sparse.tensor_float_indices",
     lambda tf: tf.SparseTensor(indices=[[0.5, 0.0]], values=[1.0], dense_shape=[2, 2]))
case("sparse.tensor_values_rank2",
     lambda tf: tf.SparseTensor(indices=[[0, 0]], values=[[1.0]], dense_shape=[2, 2]))
case("sparse.to_dense_out_of_bounds",
     lambda tf: tf.sparse.to_dense(tf.SparseTensor([[0, 5]], [1.0], [2, 2])))
case("sparse.to_dense_unordered",
     lambda tf: tf.sparse.to_dense(tf.SparseTensor([[1, 0], [0, 0]], [1.0, 2.0], [2, 2])))
case("sparse.to_dense_duplicate",
     lambda tf: tf.sparse.to_dense(tf.SparseTensor([[0, 0], [0, 0]], [1.0, 2.0], [2, 2])))
case("sparse.to_dense_negative_index",
     lambda tf: tf.sparse.to_dense(tf.SparseTensor([[-1, 0]], [1.0], [2, 2])))
case("sparse.tensor_to_dense_out_of_bounds",
     lambda tf: tf.sparse_tensor_to_dense(tf.SparseTensor([[3, 0]], [1.0], [2, 2])))
case("sparse.add_shape_mismatch",
     lambda tf: tf.sparse.add(tf.SparseTensor([[0, 0]], [1.0], [2, 2]),
                              tf.SparseTensor([[0, 0]], [1.0], [3, 3])))
case("sparse.dense_matmul_mismatch",
     lambda tf: tf.sparse_tensor_dense_matmul(tf.SparseTensor([[0, 0]], [1.0], [2, 3]),
                                              _f(tf, [2, 2])))
case("sparse.dense_matmul_index_out_of_bounds",
     lambda tf: tf.sparse_tensor_dense_matmul(tf.SparseTensor([[0, 5]], [1.0], [2, 3]),
                                              _f(tf, [3, 2])))
case("sparse.concat_rank_mismatch",
     lambda tf: tf.sparse.concat(0, [tf.SparseTensor([[0, 0]], [1.0], [2, 2]),
                                     tf.SparseTensor([[0]], [1.0], [2])]))
case("sparse.reshape_wrong_size",
     lambda tf: tf.sparse.reshape(tf.SparseTensor([[0, 0]], [1.0], [2, 2]), [3]))
case("sparse.reduce_sum_bad_axis",
     lambda tf: tf.sparse.reduce_sum(tf.SparseTensor([[0, 0]], [1.0], [2, 2]), axis=2))
case("sparse.slice_wrong_rank",
     lambda tf: tf.sparse.slice(tf.SparseTensor([[0, 0]], [1.0], [2, 2]), [0], [1]))
case("sparse.retain_mask_length",
     lambda tf: tf.sparse.retain(tf.SparseTensor([[0, 0]], [1.0], [2, 2]), [True, False]))
case("sparse.to_indicator_out_of_range",
     lambda tf: tf.sparse.to_indicator(tf.SparseTensor([[0, 0]], _c(tf, [5], tf.int64),
                                                       [1, 1]), 3))
case("sparse.softmax_rank1",
     lambda tf: tf.sparse.softmax(tf.SparseTensor([[0]], [1.0], [2])))
case("sparse.to_dense_default_value_wrong_dtype",
     lambda tf: tf.sparse.to_dense(tf.SparseTensor([[0, 0]], [1.0], [2, 2]), default_value=1))

# ---------------------------------------------------------------------------------------------
# Neural network ops: convolution, pooling, losses, normalization, dropout
# ---------------------------------------------------------------------------------------------
_K = lambda tf: tf.ones([3, 3, 1, 2])  # noqa: E731


case("nn.conv2d_stride_zero",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), [1, 0, 0, 1], "SAME"))
case("nn.conv2d_strides_wrong_length",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), [1, 1, 1], "SAME"))
case("nn.conv2d_batch_stride",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), [2, 1, 1, 1], "SAME"))
case("nn.conv2d_negative_stride",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), [1, -1, -1, 1], "SAME"))
case("nn.conv2d_input_rank3",
     lambda tf: tf.nn.conv2d(_f(tf, [5, 5, 1]), _K(tf), [1, 1, 1, 1], "SAME"))
case("nn.conv2d_filter_rank3",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), tf.ones([3, 3, 1]), [1, 1, 1, 1], "SAME"))
case("nn.conv2d_channel_mismatch",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 3]), tf.ones([3, 3, 2, 2]), [1, 1, 1, 1],
                             "SAME"))
case("nn.conv2d_valid_window_too_large",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 1, 1, 1]), _K(tf), [1, 1, 1, 1], "VALID"))
case("nn.conv2d_valid_empty_output_ok",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 2, 2, 1]), _K(tf), [1, 1, 1, 1], "VALID"))
case("nn.conv2d_bad_padding",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), [1, 1, 1, 1], "FULL"))
case("nn.conv2d_dtype_mismatch",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), tf.ones([3, 3, 1, 2], tf.float64),
                             [1, 1, 1, 1], "SAME"))
case("nn.conv2d_int_input",
     lambda tf: tf.nn.conv2d(tf.ones([1, 5, 5, 1], tf.int32), tf.ones([3, 3, 1, 2], tf.int32),
                             [1, 1, 1, 1], "SAME"))
case("nn.conv2d_dilation_and_stride",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 8, 8, 1]), _K(tf), [1, 2, 2, 1], "SAME",
                             dilations=[1, 2, 2, 1]))
case("nn.conv2d_zero_dilation",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 8, 8, 1]), _K(tf), [1, 1, 1, 1], "SAME",
                             dilations=[1, 0, 0, 1]))
case("nn.conv2d_bad_data_format",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), [1, 1, 1, 1], "SAME",
                             data_format="NHCW"))
case("nn.conv2d_explicit_padding_wrong_shape",
     lambda tf: tf.nn.conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), [1, 1, 1, 1], [[0, 0], [1, 1]]))
case("nn.conv1d_stride_zero",
     lambda tf: tf.nn.conv1d(_f(tf, [1, 5, 1]), tf.ones([3, 1, 2]), 0, "SAME"))
case("nn.conv1d_input_rank2",
     lambda tf: tf.nn.conv1d(_f(tf, [5, 1]), tf.ones([3, 1, 2]), 1, "SAME"))
case("nn.conv1d_valid_window_too_large",
     lambda tf: tf.nn.conv1d(_f(tf, [1, 1, 1]), tf.ones([3, 1, 2]), 1, "VALID"))
case("nn.conv3d_valid_window_too_large",
     lambda tf: tf.nn.conv3d(_f(tf, [1, 1, 4, 4, 1]), tf.ones([3, 2, 2, 1, 1]),
                             [1, 1, 1, 1, 1], "VALID"))
case("nn.conv3d_stride_zero",
     lambda tf: tf.nn.conv3d(_f(tf, [1, 4, 4, 4, 1]), tf.ones([2, 2, 2, 1, 1]),
                             [1, 0, 1, 1, 1], "SAME"))
case("nn.conv3d_channel_mismatch",
     lambda tf: tf.nn.conv3d(_f(tf, [1, 4, 4, 4, 2]), tf.ones([2, 2, 2, 1, 1]),
                             [1, 1, 1, 1, 1], "SAME"))
case("nn.depthwise_conv2d_channel_mismatch",
     lambda tf: tf.nn.depthwise_conv2d(_f(tf, [1, 5, 5, 2]), tf.ones([3, 3, 3, 1]),
                                       [1, 1, 1, 1], "SAME"))
case("nn.depthwise_conv2d_stride_zero",
     lambda tf: tf.nn.depthwise_conv2d(_f(tf, [1, 5, 5, 1]), tf.ones([3, 3, 1, 1]),
                                       [1, 0, 0, 1], "SAME"))
case("nn.separable_conv2d_bad_pointwise",
     lambda tf: tf.nn.separable_conv2d(_f(tf, [1, 5, 5, 1]), tf.ones([3, 3, 1, 2]),
                                       tf.ones([1, 1, 3, 4]), [1, 1, 1, 1], "SAME"))
case("nn.conv2d_transpose_output_shape_mismatch",
     lambda tf: tf.nn.conv2d_transpose(_f(tf, [1, 3, 3, 2]), _K(tf), [1, 3, 3, 5],
                                       [1, 1, 1, 1], "SAME"))
case("nn.conv2d_transpose_bad_spatial",
     lambda tf: tf.nn.conv2d_transpose(_f(tf, [1, 3, 3, 2]), _K(tf), [1, 9, 9, 1],
                                       [1, 1, 1, 1], "SAME"))
case("nn.atrous_conv2d_rate_zero",
     lambda tf: tf.nn.atrous_conv2d(_f(tf, [1, 5, 5, 1]), _K(tf), 0, "SAME"))
case("nn.max_pool_ksize_zero",
     lambda tf: tf.nn.max_pool(_f(tf, [1, 4, 4, 1]), [1, 0, 0, 1], [1, 1, 1, 1], "SAME"))
case("nn.max_pool_stride_zero",
     lambda tf: tf.nn.max_pool(_f(tf, [1, 4, 4, 1]), [1, 2, 2, 1], [1, 0, 0, 1], "SAME"))
case("nn.max_pool_ksize_wrong_length",
     lambda tf: tf.nn.max_pool(_f(tf, [1, 4, 4, 1]), [1, 2, 2], [1, 1, 1, 1], "SAME"))
case("nn.max_pool_batch_ksize",
     lambda tf: tf.nn.max_pool(_f(tf, [2, 4, 4, 1]), [2, 2, 2, 1], [1, 1, 1, 1], "SAME"))
case("nn.max_pool_valid_window_too_large",
     lambda tf: tf.nn.max_pool(_f(tf, [1, 1, 1, 1]), [1, 3, 3, 1], [1, 1, 1, 1], "VALID"))
case("nn.max_pool_valid_empty_output_ok",
     lambda tf: tf.nn.max_pool(_f(tf, [1, 2, 2, 1]), [1, 3, 3, 1], [1, 1, 1, 1], "VALID"))
case("nn.max_pool_input_rank3",
     lambda tf: tf.nn.max_pool(_f(tf, [4, 4, 1]), [1, 2, 2, 1], [1, 1, 1, 1], "SAME"))
case("nn.max_pool_bad_padding",
     lambda tf: tf.nn.max_pool(_f(tf, [1, 4, 4, 1]), [1, 2, 2, 1], [1, 1, 1, 1], "FULL"))
case("nn.avg_pool_ksize_zero",
     lambda tf: tf.nn.avg_pool(_f(tf, [1, 4, 4, 1]), [1, 0, 0, 1], [1, 1, 1, 1], "VALID"))
case("nn.avg_pool_stride_zero",
     lambda tf: tf.nn.avg_pool(_f(tf, [1, 4, 4, 1]), [1, 2, 2, 1], [1, 0, 0, 1], "VALID"))
case("nn.avg_pool_valid_window_too_large",
     lambda tf: tf.nn.avg_pool(_f(tf, [1, 1, 1, 1]), [1, 3, 3, 1], [1, 1, 1, 1], "VALID"))
case("nn.avg_pool_int_input",
     lambda tf: tf.nn.avg_pool(tf.ones([1, 4, 4, 1], tf.int32), [1, 2, 2, 1], [1, 1, 1, 1],
                               "VALID"))
case("nn.max_pool3d_ksize_zero",
     lambda tf: tf.nn.max_pool3d(_f(tf, [1, 4, 4, 4, 1]), [1, 0, 2, 2, 1], [1, 1, 1, 1, 1],
                                 "SAME"))
case("nn.pool_bad_type",
     lambda tf: tf.nn.pool(_f(tf, [1, 4, 4, 1]), [2, 2], "MIN", "SAME"))
case("nn.max_pool_with_argmax_stride_zero",
     lambda tf: tf.nn.max_pool_with_argmax(_f(tf, [1, 4, 4, 1]), [1, 2, 2, 1], [1, 0, 0, 1],
                                           "SAME"))
case("nn.bias_add_mismatch", lambda tf: tf.nn.bias_add(_f(tf, [2, 3]), _f(tf, [4])))
case("nn.bias_add_bias_rank2", lambda tf: tf.nn.bias_add(_f(tf, [2, 3]), _f(tf, [1, 3])))
case("nn.bias_add_input_rank1", lambda tf: tf.nn.bias_add(_f(tf, [3]), _f(tf, [3])))
case("nn.bias_add_dtype_mismatch",
     lambda tf: tf.nn.bias_add(_f(tf, [2, 3]), tf.ones([3], tf.float64)))
case("nn.dropout_keep_prob_zero", lambda tf: tf.nn.dropout(_f(tf, [4]), keep_prob=0.0))
case("nn.dropout_keep_prob_above_one", lambda tf: tf.nn.dropout(_f(tf, [4]), keep_prob=1.5))
case("nn.dropout_rate_one", lambda tf: tf.nn.dropout(_f(tf, [4]), rate=1.0))
case("nn.dropout_rate_negative", lambda tf: tf.nn.dropout(_f(tf, [4]), rate=-0.5))
case("nn.dropout_int_input", lambda tf: tf.nn.dropout(_c(tf, [1, 2]), rate=0.5))
case("nn.dropout_noise_shape_incompatible",
     lambda tf: tf.nn.dropout(_f(tf, [2, 3]), rate=0.5, noise_shape=[3, 3]))
case("nn.relu_int_ok", lambda tf: tf.nn.relu(_c(tf, [-1, 1])))
case("nn.leaky_relu_string", lambda tf: tf.nn.leaky_relu(_c(tf, ["a"])))
case("nn.elu_int", lambda tf: tf.nn.elu(_c(tf, [1])))
case("nn.softmax_xent_shape_mismatch",
     lambda tf: tf.nn.softmax_cross_entropy_with_logits_v2(labels=_f(tf, [2, 3]),
                                                           logits=_f(tf, [2, 4])))
case("nn.softmax_xent_v1_shape_mismatch",
     lambda tf: tf.nn.softmax_cross_entropy_with_logits(labels=_f(tf, [2, 3]),
                                                        logits=_f(tf, [3, 3])))
case("nn.softmax_xent_int_labels",
     lambda tf: tf.nn.softmax_cross_entropy_with_logits_v2(labels=_c(tf, [[0, 1]]),
                                                           logits=_f(tf, [1, 2])))
case("nn.sparse_xent_label_too_large",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_c(tf, [0, 7]),
                                                               logits=_f(tf, [2, 3])))
case("nn.sparse_xent_label_negative",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_c(tf, [-1]),
                                                               logits=_f(tf, [1, 3])))
case("nn.sparse_xent_label_equal_classes",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_c(tf, [3]),
                                                               logits=_f(tf, [1, 3])))
case("nn.sparse_xent_label_rank_mismatch",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_c(tf, [[0, 1]]),
                                                               logits=_f(tf, [2, 3])))
case("nn.sparse_xent_batch_mismatch",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_c(tf, [0, 1, 2]),
                                                               logits=_f(tf, [2, 3])))
case("nn.sparse_xent_float_labels",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_c(tf, [0.0]),
                                                               logits=_f(tf, [1, 3])))
case("nn.sparse_xent_3d_label_too_large",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=_c(tf, [[0, 4]]),
                                                               logits=_f(tf, [1, 2, 3])))
case("nn.sigmoid_xent_shape_mismatch",
     lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(labels=_f(tf, [2]), logits=_f(tf, [3])))
case("nn.weighted_xent_shape_mismatch",
     lambda tf: tf.nn.weighted_cross_entropy_with_logits(_f(tf, [2]), _f(tf, [3]), 1.0))
case("nn.l2_loss_string", lambda tf: tf.nn.l2_loss(_c(tf, ["a"])))
case("nn.batch_normalization_mismatch",
     lambda tf: tf.nn.batch_normalization(_f(tf, [2, 3]), _f(tf, [4]), _f(tf, [4]), None, None,
                                          1e-3))
case("nn.fused_batch_norm_rank2",
     lambda tf: tf.nn.fused_batch_norm(_f(tf, [2, 3]), _f(tf, [3]), _f(tf, [3])))
case("nn.fused_batch_norm_scale_mismatch",
     lambda tf: tf.nn.fused_batch_norm(_f(tf, [1, 2, 2, 3]), _f(tf, [4]), _f(tf, [4])))
case("nn.lrn_rank2", lambda tf: tf.nn.local_response_normalization(_f(tf, [2, 3])))
case("nn.ctc_loss_label_length_mismatch",
     lambda tf: tf.nn.ctc_loss_v2(_c(tf, [[1, 2]]), _f(tf, [3, 1, 4]), _c(tf, [2, 2]),
                                  _c(tf, [3])))
case("nn.nce_loss_bad_num_true",
     lambda tf: tf.nn.nce_loss(_f(tf, [5, 2]), _f(tf, [5]), _c(tf, [[0], [1]], tf.int64),
                               _f(tf, [2, 2]), num_sampled=2, num_classes=5, num_true=3))
case("nn.log_poisson_loss_shape_mismatch",
     lambda tf: tf.nn.log_poisson_loss(_f(tf, [2]), _f(tf, [3])))
case("nn.zero_fraction_string", lambda tf: tf.nn.zero_fraction(_c(tf, ["a"])))
case("nn.xw_plus_b_mismatch",
     lambda tf: tf.nn.xw_plus_b(_f(tf, [2, 3]), _f(tf, [4, 2]), _f(tf, [2])))
case("nn.normalize_moments_bad", lambda tf: tf.nn.normalize_moments("a", _f(tf, [2]),
                                                                    _f(tf, [2]), None))

# ---------------------------------------------------------------------------------------------
# Images and boxes
# ---------------------------------------------------------------------------------------------
case("image.nms_mismatched_boxes_scores",
     lambda tf: tf.image.non_max_suppression(_f(tf, [3, 4]), _f(tf, [2]), 2))
case("image.nms_boxes_rank1",
     lambda tf: tf.image.non_max_suppression(_f(tf, [4]), _f(tf, [1]), 2))
case("image.nms_boxes_last_dim_3",
     lambda tf: tf.image.non_max_suppression(_f(tf, [2, 3]), _f(tf, [2]), 2))
case("image.nms_negative_max_output",
     lambda tf: tf.image.non_max_suppression(_f(tf, [2, 4]), _f(tf, [2]), -1))
case("image.nms_iou_above_one",
     lambda tf: tf.image.non_max_suppression(_f(tf, [2, 4]), _f(tf, [2]), 2,
                                             iou_threshold=1.5))
case("image.nms_scores_rank2",
     lambda tf: tf.image.non_max_suppression(_f(tf, [2, 4]), _f(tf, [2, 1]), 2))
case("image.nms_with_scores_mismatch",
     lambda tf: tf.image.non_max_suppression_with_scores(_f(tf, [3, 4]), _f(tf, [2]), 2))
case("image.nms_padded_mismatch",
     lambda tf: tf.image.non_max_suppression_padded(_f(tf, [3, 4]), _f(tf, [2]), 2))
case("image.nms_overlaps_non_square",
     lambda tf: tf.image.non_max_suppression_overlaps(_f(tf, [2, 3]), _f(tf, [2]), 2))
case("image.crop_and_resize_box_ind_mismatch",
     lambda tf: tf.image.crop_and_resize(_f(tf, [1, 4, 4, 1]), _f(tf, [2, 4]), _c(tf, [0]),
                                         [2, 2]))
case("image.crop_and_resize_box_ind_out_of_range",
     lambda tf: tf.image.crop_and_resize(_f(tf, [1, 4, 4, 1]), _f(tf, [1, 4]), _c(tf, [3]),
                                         [2, 2]))
case("image.crop_and_resize_zero_crop_size",
     lambda tf: tf.image.crop_and_resize(_f(tf, [1, 4, 4, 1]), _f(tf, [1, 4]), _c(tf, [0]),
                                         [0, 2]))
case("image.resize_negative_size", lambda tf: tf.image.resize_images(_f(tf, [1, 4, 4, 1]), [-2, 2]))
case("image.resize_size_wrong_length",
     lambda tf: tf.image.resize_images(_f(tf, [1, 4, 4, 1]), [2]))
case("image.resize_rank2", lambda tf: tf.image.resize_images(_f(tf, [4, 4]), [2, 2]))
case("image.resize_bilinear_zero_size",
     lambda tf: tf.image.resize_bilinear(_f(tf, [1, 4, 4, 1]), [0, 2]))
case("image.resize_nearest_rank3",
     lambda tf: tf.image.resize_nearest_neighbor(_f(tf, [4, 4, 1]), [2, 2]))
case("image.crop_to_bounding_box_out_of_bounds",
     lambda tf: tf.image.crop_to_bounding_box(_f(tf, [4, 4, 1]), 2, 2, 3, 3))
case("image.crop_to_bounding_box_negative_offset",
     lambda tf: tf.image.crop_to_bounding_box(_f(tf, [4, 4, 1]), -1, 0, 2, 2))
case("image.pad_to_bounding_box_too_small",
     lambda tf: tf.image.pad_to_bounding_box(_f(tf, [4, 4, 1]), 0, 0, 2, 2))
case("image.central_crop_fraction_zero",
     lambda tf: tf.image.central_crop(_f(tf, [4, 4, 1]), 0.0))
case("image.central_crop_fraction_above_one",
     lambda tf: tf.image.central_crop(_f(tf, [4, 4, 1]), 1.5))
case("image.rgb_to_grayscale_wrong_channels",
     lambda tf: tf.image.rgb_to_grayscale(_f(tf, [4, 4, 2])))
case("image.rgb_to_hsv_wrong_channels", lambda tf: tf.image.rgb_to_hsv(_f(tf, [4, 4, 4])))
case("image.flip_left_right_rank1", lambda tf: tf.image.flip_left_right(_f(tf, [4])))
case("image.transpose_rank2", lambda tf: tf.image.transpose_image(_f(tf, [4, 4])))
case("image.rot90_rank1", lambda tf: tf.image.rot90(_f(tf, [4])))
case("image.per_image_standardization_rank1",
     lambda tf: tf.image.per_image_standardization(_f(tf, [4])))
case("image.adjust_contrast_rank1", lambda tf: tf.image.adjust_contrast(_f(tf, [4]), 2.0))
case("image.adjust_hue_wrong_channels",
     lambda tf: tf.image.adjust_hue(_f(tf, [4, 4, 2]), 0.1))
case("image.random_crop_too_large", lambda tf: tf.random_crop(_f(tf, [4, 4]), [5, 5]))
case("image.random_crop_rank_mismatch", lambda tf: tf.random_crop(_f(tf, [4, 4]), [2]))
case("image.extract_patches_zero_ksize",
     lambda tf: tf.image.extract_image_patches(_f(tf, [1, 4, 4, 1]), [1, 0, 0, 1],
                                               [1, 1, 1, 1], [1, 1, 1, 1], "VALID"))
case("image.psnr_shape_mismatch",
     lambda tf: tf.image.psnr(_f(tf, [4, 4, 1]), _f(tf, [3, 3, 1]), 1.0))
case("image.ssim_too_small",
     lambda tf: tf.image.ssim(_f(tf, [1, 4, 4, 1]), _f(tf, [1, 4, 4, 1]), 1.0))
case("image.draw_bounding_boxes_bad_rank",
     lambda tf: tf.image.draw_bounding_boxes(_f(tf, [4, 4, 1]), _f(tf, [1, 1, 4])))
case("image.encode_png_rank2", lambda tf: tf.image.encode_png(tf.ones([4, 4], tf.uint8)))
case("image.encode_png_float", lambda tf: tf.image.encode_png(_f(tf, [4, 4, 1])))
case("image.encode_jpeg_2_channels",
     lambda tf: tf.image.encode_jpeg(tf.ones([4, 4, 2], tf.uint8)))
case("image.total_variation_rank2", lambda tf: tf.image.total_variation(_f(tf, [4, 4])))

# ---------------------------------------------------------------------------------------------
# Random ops
# ---------------------------------------------------------------------------------------------
case("random.uniform_negative_shape", lambda tf: tf.random_uniform([-1]))
case("random.uniform_int_min_ge_max",
     lambda tf: tf.random_uniform([2], minval=5, maxval=5, dtype=tf.int32))
case("random.uniform_int_no_maxval", lambda tf: tf.random_uniform([2], dtype=tf.int32))
case("random.uniform_string_dtype", lambda tf: tf.random_uniform([2], dtype=tf.string))
case("random.uniform_float_shape", lambda tf: tf.random_uniform([2.5]))
case("random.normal_negative_shape", lambda tf: tf.random_normal([2, -2]))
case("random.normal_int_dtype", lambda tf: tf.random_normal([2], dtype=tf.int32))
case("random.truncated_normal_negative_shape", lambda tf: tf.truncated_normal([-3]))
case("random.categorical_rank1", lambda tf: tf.random.categorical(_f(tf, [3]), 2))
case("random.categorical_negative_samples",
     lambda tf: tf.random.categorical(_f(tf, [1, 3]), -1))
case("random.multinomial_rank3", lambda tf: tf.multinomial(_f(tf, [1, 1, 3]), 2))
case("random.shuffle_scalar_ok", lambda tf: tf.random_shuffle(_c(tf, 1.0)))
case("random.gamma_negative_shape", lambda tf: tf.random_gamma([-1], 1.0))
case("random.poisson_negative_shape", lambda tf: tf.random_poisson(1.0, [-1]))
case("random.set_seed_string", lambda tf: tf.random_uniform([2], seed="a"))
case("random.uniform_candidate_sampler_bad",
     lambda tf: tf.nn.uniform_candidate_sampler(_c(tf, [[0]], tf.int64), 1, 5, True, 2))

# ---------------------------------------------------------------------------------------------
# Huge shapes: element counts that overflow or cannot be allocated (subprocess, memory limit)
# ---------------------------------------------------------------------------------------------
case("huge.zeros_overflow", lambda tf: tf.zeros([2**31] * 3), isolate=True)
case("huge.ones_overflow_int64", lambda tf: tf.ones([2**62, 4]), isolate=True)
case("huge.fill_overflow", lambda tf: tf.fill([2**31] * 3, 1.0), isolate=True)
case("huge.zeros_4tb", lambda tf: tf.zeros([2**40]), isolate=True)
case("huge.random_uniform_4tb", lambda tf: tf.random_uniform([2**40]), isolate=True)
case("huge.random_normal_overflow", lambda tf: tf.random_normal([2**31] * 3), isolate=True)
case("huge.reshape_overflow", lambda tf: tf.reshape(_f(tf, [2]), [2**31] * 3), isolate=True)
case("huge.broadcast_to_4tb", lambda tf: tf.broadcast_to(_f(tf, [1]), [2**20, 2**20]),
     isolate=True)
case("huge.tile_4tb", lambda tf: tf.tile(_f(tf, [1]), [2**40]), isolate=True)
case("huge.one_hot_huge_depth", lambda tf: tf.one_hot(_c(tf, [0, 1]), 2**40), isolate=True)


# ---------------------------------------------------------------------------------------------
# Variables
# ---------------------------------------------------------------------------------------------
case("variable.none_initial_value", lambda tf: tf.Variable(None))
case("variable.assign_shape_mismatch", lambda tf: tf.Variable([1.0, 2.0]).assign([1.0]))
case("variable.assign_dtype_mismatch", lambda tf: tf.Variable([1.0, 2.0]).assign([1, 2]))
case("variable.assign_string_to_float", lambda tf: tf.Variable([1.0]).assign(["a"]))
case("variable.assign_add_shape_mismatch",
     lambda tf: tf.Variable([1.0, 2.0]).assign_add([1.0, 2.0, 3.0]))
case("variable.assign_sub_dtype_mismatch",
     lambda tf: tf.Variable([1.0, 2.0]).assign_sub(_c(tf, [1, 2])))
case("variable.tf_assign_shape_mismatch",
     lambda tf: tf.assign(tf.Variable([1.0, 2.0]), [1.0, 2.0, 3.0]))
case("variable.tf_assign_add_float_to_int", lambda tf: tf.assign_add(tf.Variable([1]), [1.5]))
case("variable.bad_dtype", lambda tf: tf.Variable([1.0], dtype=tf.int32))
case("variable.bad_shape_arg", lambda tf: tf.Variable([1.0, 2.0], shape=[3]))
case("variable.get_variable_no_shape",
     lambda tf: tf.get_variable("bad_inputs_no_shape", initializer=tf.zeros_initializer()))
case("variable.get_variable_shape_and_tensor_initializer",
     lambda tf: tf.get_variable("bad_inputs_both", shape=[3], initializer=_c(tf, [1.0, 2.0])))
case("variable.get_variable_bad_initializer_string",
     lambda tf: tf.get_variable("bad_inputs_init", shape=[2], initializer="ones"))
case("variable.constraint_not_callable", lambda tf: tf.Variable([1.0], constraint=5))
case("variable.assign_in_bool_context", lambda tf: bool(tf.Variable([1.0, 2.0])))


# ---------------------------------------------------------------------------------------------
# Control flow, assertions, debugging, TensorArray, py_func
# ---------------------------------------------------------------------------------------------
case("control.cond_non_bool_pred",
     lambda tf: tf.cond(_c(tf, 1), lambda: _c(tf, 1.0), lambda: _c(tf, 2.0)))
case("control.cond_vector_pred",
     lambda tf: tf.cond(_c(tf, [True, False]), lambda: _c(tf, 1.0), lambda: _c(tf, 2.0)))
case("control.cond_missing_branch", lambda tf: tf.cond(_c(tf, True), lambda: _c(tf, 1.0)))
case("control.cond_branch_not_callable",
     lambda tf: tf.cond(_c(tf, True), _c(tf, 1.0), lambda: _c(tf, 2.0)))
case("control.while_loop_body_not_callable",
     lambda tf: tf.while_loop(lambda i: i < 3, 5, [_c(tf, 0)]))
case("control.while_loop_body_wrong_arity",
     lambda tf: tf.while_loop(lambda i: i < 3, lambda i: (i + 1, i), [_c(tf, 0)]))
case("control.while_loop_non_bool_cond",
     lambda tf: tf.while_loop(lambda i: i, lambda i: i - 1, [_c(tf, 3)]))
case("control.case_no_default_none_true",
     lambda tf: tf.case([(_c(tf, False), lambda: _c(tf, 1.0))], exclusive=True))
case("control.switch_case_bad_index",
     lambda tf: tf.switch_case(_c(tf, 1.5), [lambda: _c(tf, 1.0)]))
case("control.assert_false", lambda tf: tf.Assert(_c(tf, False), ["boom"]))
case("control.assert_non_bool", lambda tf: tf.Assert(_c(tf, 1.0), ["boom"]))
case("control.assert_equal_fails", lambda tf: tf.assert_equal(_c(tf, [1, 2]), _c(tf, [1, 3])))
case("control.assert_equal_shape_mismatch",
     lambda tf: tf.assert_equal(_c(tf, [1, 2]), _c(tf, [1, 2, 3])))
case("control.assert_positive_fails", lambda tf: tf.assert_positive(_c(tf, [1.0, -1.0])))
case("control.assert_non_negative_fails", lambda tf: tf.assert_non_negative(_c(tf, [-1])))
case("control.assert_less_fails", lambda tf: tf.assert_less(_c(tf, [2]), _c(tf, [1])))
case("control.assert_greater_equal_fails",
     lambda tf: tf.assert_greater_equal(_c(tf, [0]), _c(tf, [1])))
case("control.assert_rank_fails", lambda tf: tf.assert_rank(_f(tf, [2, 3]), 3))
case("control.assert_rank_at_least_fails", lambda tf: tf.assert_rank_at_least(_f(tf, [2]), 2))
case("control.assert_type_fails", lambda tf: tf.assert_type(_c(tf, [1]), tf.float32))
case("control.assert_integer_fails", lambda tf: tf.assert_integer(_c(tf, [1.0])))
case("control.assert_scalar_fails", lambda tf: tf.assert_scalar(_c(tf, [1.0])))
case("control.assert_near_fails", lambda tf: tf.assert_near(_c(tf, [1.0]), _c(tf, [2.0])))
case("control.assert_proper_iterable_fails", lambda tf: tf.assert_proper_iterable("abc"))
case("control.assert_same_float_dtype_fails",
     lambda tf: tf.assert_same_float_dtype([_c(tf, [1.0]), _c(tf, [1.0], tf.float64)]))
case("control.debugging_assert_shapes_fails",
     lambda tf: tf.debugging.assert_shapes([(_f(tf, [2, 3]), ("N", "Q")),
                                            (_f(tf, [3, 3]), ("N", "Q"))]))
case("control.check_numerics_nan",
     lambda tf: tf.check_numerics(_c(tf, [1.0, float("nan")]), "bad value"))
case("control.check_numerics_inf",
     lambda tf: tf.check_numerics(_c(tf, [float("inf")]), "bad value"))
case("control.check_numerics_int", lambda tf: tf.check_numerics(_c(tf, [1]), "int"))
case("control.verify_tensor_all_finite_nan",
     lambda tf: tf.verify_tensor_all_finite(_c(tf, [float("nan")]), "bad"))
case("control.add_check_numerics_ops_eager", lambda tf: tf.add_check_numerics_ops())
case("control.gradients_in_eager", lambda tf: tf.gradients(_c(tf, 1.0), _c(tf, 1.0)))
case("control.placeholder_in_eager", lambda tf: tf.placeholder(tf.float32, [2]))
case("control.py_func_raises",
     lambda tf: tf.py_func(lambda x: 1 // 0, [_c(tf, 1)], tf.int64))
case("control.py_function_raises_value_error",
     lambda tf: tf.py_function(lambda x: int("x"), [_c(tf, 1)], tf.int64))
case("control.py_func_wrong_output_dtype",
     lambda tf: tf.py_func(lambda x: "str", [_c(tf, 1)], tf.int64))
case("control.tensor_array_read_out_of_range",
     lambda tf: tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0).read(5))
case("control.tensor_array_write_twice",
     lambda tf: tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(0, 2.0).stack())
case("control.tensor_array_write_wrong_dtype",
     lambda tf: tf.TensorArray(tf.float32, size=2).write(0, _c(tf, 1)))
case("control.tensor_array_write_out_of_range",
     lambda tf: tf.TensorArray(tf.float32, size=2).write(5, 1.0).stack())
case("control.tensor_array_inconsistent_shapes",
     lambda tf: tf.TensorArray(tf.float32, size=2).write(0, [1.0]).write(1, [1.0, 2.0]).stack())
case("control.tensor_array_split_bad_lengths",
     lambda tf: tf.TensorArray(tf.float32, size=2).split(_f(tf, [3]), [1, 1]).concat())
case("control.tensor_array_negative_size",
     lambda tf: tf.TensorArray(tf.float32, size=-1).stack())
case("control.map_fn_inconsistent_dtype",
     lambda tf: tf.map_fn(lambda x: tf.cast(x, tf.int32), _f(tf, [3])))
case("control.map_fn_scalar_elems", lambda tf: tf.map_fn(lambda x: x, _c(tf, 1.0)))
case("control.foldl_empty", lambda tf: tf.foldl(lambda a, x: a + x, tf.zeros([0])))
case("control.scan_elems_mismatched_lengths",
     lambda tf: tf.scan(lambda a, x: a + x[0], (_f(tf, [3]), _f(tf, [2])), initializer=0.0))
case("control.group_non_tensor", lambda tf: tf.group(5))
case("control.tuple_non_tensor", lambda tf: tf.tuple([5]))
case("control.identity_n_empty", lambda tf: tf.identity_n([]))
case("control.lookup_table_wrong_key_dtype",
     lambda tf: tf.lookup.StaticHashTable(
         tf.lookup.KeyValueTensorInitializer(_c(tf, ["a"]), _c(tf, [1], tf.int64)), -1).lookup(
             _c(tf, [1], tf.int64)))
case("control.lookup_initializer_length_mismatch",
     lambda tf: tf.lookup.StaticHashTable(
         tf.lookup.KeyValueTensorInitializer(_c(tf, ["a", "b"]), _c(tf, [1], tf.int64)), -1))
case("control.lookup_default_wrong_dtype",
     lambda tf: tf.lookup.StaticHashTable(
         tf.lookup.KeyValueTensorInitializer(_c(tf, ["a"]), _c(tf, [1], tf.int64)), "x"))


# ---------------------------------------------------------------------------------------------
# Keras layers and models
# ---------------------------------------------------------------------------------------------
case("keras.dense_units_zero", lambda tf: tf.keras.layers.Dense(units=0))
case("keras.dense_units_negative", lambda tf: tf.keras.layers.Dense(units=-3))
case("keras.dense_units_string", lambda tf: tf.keras.layers.Dense(units="4"))
case("keras.dense_units_none", lambda tf: tf.keras.layers.Dense(units=None))
case("keras.dense_bad_activation", lambda tf: tf.keras.layers.Dense(2, activation="nope"))
case("keras.dense_bad_initializer",
     lambda tf: tf.keras.layers.Dense(2, kernel_initializer="nope"))
case("keras.dense_scalar_input", lambda tf: tf.keras.layers.Dense(2)(_c(tf, 1.0)))
case("keras.dense_string_input", lambda tf: tf.keras.layers.Dense(2)(_c(tf, [["a"]])))


@case("keras.dense_input_dim_changed")
def _dense_input_dim_changed(tf):
  layer = tf.keras.layers.Dense(2)
  layer(_f(tf, [1, 3]))
  return layer(_f(tf, [1, 4]))


case("keras.dense_unknown_kwarg", lambda tf: tf.keras.layers.Dense(2, nonsense=1))
case("keras.dropout_rate_above_one", lambda tf: tf.keras.layers.Dropout(rate=1.5))
case("keras.dropout_rate_negative", lambda tf: tf.keras.layers.Dropout(rate=-0.1))
case("keras.dropout_rate_above_one_called",
     lambda tf: tf.keras.layers.Dropout(rate=1.5)(_f(tf, [2, 2]), training=True))
case("keras.embedding_id_out_of_range",
     lambda tf: tf.keras.layers.Embedding(10, 4)(_c(tf, [[1, 12]])))
case("keras.embedding_negative_id",
     lambda tf: tf.keras.layers.Embedding(10, 4)(_c(tf, [[-1]])))
case("keras.embedding_id_equal_input_dim",
     lambda tf: tf.keras.layers.Embedding(10, 4)(_c(tf, [[10]])))
case("keras.embedding_input_dim_zero", lambda tf: tf.keras.layers.Embedding(0, 4))
case("keras.embedding_output_dim_zero", lambda tf: tf.keras.layers.Embedding(4, 0))
case("keras.conv2d_wrong_rank_input",
     lambda tf: tf.keras.layers.Conv2D(2, 3)(_f(tf, [4, 4, 1])))
case("keras.conv2d_filters_zero", lambda tf: tf.keras.layers.Conv2D(0, 3))
case("keras.conv2d_kernel_size_zero", lambda tf: tf.keras.layers.Conv2D(2, 0))
case("keras.conv2d_strides_zero", lambda tf: tf.keras.layers.Conv2D(2, 3, strides=0))
case("keras.conv2d_bad_padding", lambda tf: tf.keras.layers.Conv2D(2, 3, padding="full"))
case("keras.conv2d_bad_data_format",
     lambda tf: tf.keras.layers.Conv2D(2, 3, data_format="channels_middle"))
case("keras.conv2d_kernel_larger_than_input",
     lambda tf: tf.keras.layers.Conv2D(2, 5)(_f(tf, [1, 3, 3, 1])))
case("keras.conv2d_kernel_size_wrong_length",
     lambda tf: tf.keras.layers.Conv2D(2, (3, 3, 3)))
case("keras.conv2d_dilation_and_strides",
     lambda tf: tf.keras.layers.Conv2D(2, 3, strides=2, dilation_rate=2)(_f(tf, [1, 8, 8, 1])))
case("keras.conv1d_wrong_rank_input", lambda tf: tf.keras.layers.Conv1D(2, 3)(_f(tf, [4, 4])))
case("keras.conv2d_transpose_wrong_rank",
     lambda tf: tf.keras.layers.Conv2DTranspose(2, 3)(_f(tf, [4, 4, 1])))
case("keras.depthwise_conv2d_wrong_rank",
     lambda tf: tf.keras.layers.DepthwiseConv2D(3)(_f(tf, [4, 4, 1])))
case("keras.separable_conv2d_wrong_rank",
     lambda tf: tf.keras.layers.SeparableConv2D(2, 3)(_f(tf, [4, 4, 1])))
case("keras.maxpool2d_pool_size_zero", lambda tf: tf.keras.layers.MaxPooling2D(pool_size=0))
case("keras.maxpool2d_wrong_rank",
     lambda tf: tf.keras.layers.MaxPooling2D()(_f(tf, [4, 4, 1])))
case("keras.maxpool2d_pool_larger_than_input",
     lambda tf: tf.keras.layers.MaxPooling2D(pool_size=5)(_f(tf, [1, 3, 3, 1])))
case("keras.avgpool1d_wrong_rank",
     lambda tf: tf.keras.layers.AveragePooling1D()(_f(tf, [4, 4])))
case("keras.global_avgpool2d_wrong_rank",
     lambda tf: tf.keras.layers.GlobalAveragePooling2D()(_f(tf, [4, 4])))
case("keras.batchnorm_bad_axis",
     lambda tf: tf.keras.layers.BatchNormalization(axis=5)(_f(tf, [2, 3])))
case("keras.layernorm_bad_axis",
     lambda tf: tf.keras.layers.LayerNormalization(axis=5)(_f(tf, [2, 3])))
case("keras.lstm_wrong_rank", lambda tf: tf.keras.layers.LSTM(2)(_f(tf, [2, 3])))
case("keras.gru_wrong_rank", lambda tf: tf.keras.layers.GRU(2)(_f(tf, [2, 3])))
case("keras.simple_rnn_wrong_rank", lambda tf: tf.keras.layers.SimpleRNN(2)(_f(tf, [2, 3])))
case("keras.lstm_units_zero", lambda tf: tf.keras.layers.LSTM(0))
case("keras.rnn_not_a_cell", lambda tf: tf.keras.layers.RNN(5))
case("keras.bidirectional_not_a_layer", lambda tf: tf.keras.layers.Bidirectional(5))
case("keras.time_distributed_not_a_layer", lambda tf: tf.keras.layers.TimeDistributed(5))
case("keras.reshape_wrong_size",
     lambda tf: tf.keras.layers.Reshape((4,))(_f(tf, [2, 3])))
case("keras.reshape_two_unknown",
     lambda tf: tf.keras.layers.Reshape((-1, -1))(_f(tf, [2, 6])))
case("keras.permute_bad_dims", lambda tf: tf.keras.layers.Permute((1, 3)))
case("keras.permute_wrong_rank",
     lambda tf: tf.keras.layers.Permute((2, 1))(_f(tf, [2, 3, 4, 5])))
case("keras.concatenate_shape_mismatch",
     lambda tf: tf.keras.layers.Concatenate()([_f(tf, [2, 3]), _f(tf, [3, 3])]))
case("keras.concatenate_single_tensor",
     lambda tf: tf.keras.layers.Concatenate()(_f(tf, [2, 3])))
case("keras.add_shape_mismatch",
     lambda tf: tf.keras.layers.Add()([_f(tf, [2, 3]), _f(tf, [2, 4])]))
case("keras.multiply_shape_mismatch",
     lambda tf: tf.keras.layers.Multiply()([_f(tf, [2, 3]), _f(tf, [2, 4])]))
case("keras.dot_bad_axes",
     lambda tf: tf.keras.layers.Dot(axes=1)([_f(tf, [2, 3]), _f(tf, [2, 4])]))
case("keras.activation_unknown", lambda tf: tf.keras.layers.Activation("nope"))
case("keras.repeat_vector_wrong_rank",
     lambda tf: tf.keras.layers.RepeatVector(2)(_f(tf, [2, 3, 4])))
case("keras.zero_padding2d_bad_padding",
     lambda tf: tf.keras.layers.ZeroPadding2D(padding=(1, 2, 3)))
case("keras.cropping2d_too_much",
     lambda tf: tf.keras.layers.Cropping2D(cropping=3)(_f(tf, [1, 4, 4, 1])))
case("keras.upsampling2d_wrong_rank",
     lambda tf: tf.keras.layers.UpSampling2D()(_f(tf, [4, 4])))
case("keras.flatten_bad_data_format",
     lambda tf: tf.keras.layers.Flatten(data_format="nope"))
case("keras.input_bad_shape", lambda tf: tf.keras.layers.Input(shape="abc"))
case("keras.input_batch_size_and_batch_shape",
     lambda tf: tf.keras.layers.Input(shape=(2,), batch_shape=(1, 2)))
case("keras.lambda_not_callable", lambda tf: tf.keras.layers.Lambda(5)(_f(tf, [1])))
case("keras.softmax_bad_axis", lambda tf: tf.keras.layers.Softmax(axis=3)(_f(tf, [2, 3])))
case("keras.activations_get_unknown", lambda tf: tf.keras.activations.get("nope"))
case("keras.losses_get_unknown", lambda tf: tf.keras.losses.get("nope"))
case("keras.initializers_get_unknown", lambda tf: tf.keras.initializers.get("nope"))
case("keras.optimizers_get_unknown", lambda tf: tf.keras.optimizers.get("nope"))
case("keras.constraints_get_unknown", lambda tf: tf.keras.constraints.get("nope"))
case("keras.sequential_not_a_layer", lambda tf: tf.keras.Sequential([5]))
case("keras.sequential_input_shape_mismatch",
     lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])(
         _f(tf, [1, 4])))
case("keras.model_summary_before_build",
     lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(2)]).summary())
case("keras.model_weights_count_mismatch",
     lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))]).set_weights(
         [tf.ones([3, 2]).numpy()]))
case("keras.model_weights_shape_mismatch",
     lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))]).set_weights(
         [tf.ones([4, 2]).numpy(), tf.ones([2]).numpy()]))
case("keras.model_compile_unknown_optimizer",
     lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))]).compile(
         optimizer="nope", loss="mse"))
case("keras.model_fit_before_compile",
     lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))]).fit(
         tf.ones([4, 3]).numpy(), tf.ones([4, 2]).numpy(), verbose=0))
case("keras.backend_dot_mismatch",
     lambda tf: tf.keras.backend.dot(_f(tf, [2, 3]), _f(tf, [4, 2])))
case("keras.backend_concatenate_mismatch",
     lambda tf: tf.keras.backend.concatenate([_f(tf, [2, 3]), _f(tf, [3, 3])], axis=1))
case("keras.backend_categorical_crossentropy_mismatch",
     lambda tf: tf.keras.backend.categorical_crossentropy(_f(tf, [2, 3]), _f(tf, [2, 4])))
case("keras.backend_sparse_xent_label_too_large",
     lambda tf: tf.keras.backend.sparse_categorical_crossentropy(_c(tf, [5]), _f(tf, [1, 3])))
case("keras.losses_mse_shape_mismatch",
     lambda tf: tf.keras.losses.mean_squared_error(_f(tf, [2, 3]), _f(tf, [2, 4])))
case("keras.losses_sparse_cce_label_too_large",
     lambda tf: tf.keras.losses.sparse_categorical_crossentropy(_c(tf, [3]), _f(tf, [1, 3]),
                                                                from_logits=True))
case("keras.utils_to_categorical_negative",
     lambda tf: tf.keras.utils.to_categorical([0, 5], num_classes=3))


def _tiny_compiled_model(tf, layer):
  model = tf.keras.Sequential([layer, tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
  model.compile(optimizer=tf.train.GradientDescentOptimizer(0.1), loss="mse")
  return model


@case("keras.fit_embedding_id_out_of_range")
def _fit_embedding_out_of_range(tf):
  model = _tiny_compiled_model(tf, tf.keras.layers.Embedding(5, 2, input_length=2))
  x = tf.constant([[1, 9], [0, 1]]).numpy()
  return model.fit(x, tf.zeros([2, 1]).numpy(), epochs=1, verbose=0).history["loss"]


@case("keras.predict_embedding_id_out_of_range")
def _predict_embedding_out_of_range(tf):
  model = _tiny_compiled_model(tf, tf.keras.layers.Embedding(5, 2, input_length=2))
  return model.predict(tf.constant([[1, 9]]).numpy())


@case("keras.fit_mismatched_x_y_lengths")
def _fit_mismatched_lengths(tf):
  model = _tiny_compiled_model(tf, tf.keras.layers.Dense(2, input_shape=(3,)))
  return model.fit(tf.ones([4, 3]).numpy(), tf.ones([5, 1]).numpy(), verbose=0)


@case("keras.fit_wrong_input_width")
def _fit_wrong_input_width(tf):
  model = _tiny_compiled_model(tf, tf.keras.layers.Dense(2, input_shape=(3,)))
  return model.fit(tf.ones([4, 5]).numpy(), tf.ones([4, 1]).numpy(), verbose=0)


@case("keras.fit_sparse_cce_label_out_of_range")
def _fit_sparse_cce_out_of_range(tf):
  model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,))])
  model.compile(optimizer=tf.train.GradientDescentOptimizer(0.1),
                loss="sparse_categorical_crossentropy")
  return model.fit(tf.ones([2, 2]).numpy(), tf.constant([[0], [7]]).numpy(), verbose=0)


@case("keras.load_weights_missing_file")
def _load_weights_missing(tf):
  model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
  return model.load_weights("/nonexistent/bad_inputs/weights")


# ---------------------------------------------------------------------------------------------
# Optimizers
# ---------------------------------------------------------------------------------------------
def _apply(tf, opt, grad, var_value=(1.0, 2.0)):
  v = tf.Variable(list(var_value))
  opt.apply_gradients([(grad, v)])
  return v


case("optimizer.sgd_string_learning_rate",
     lambda tf: _apply(tf, tf.train.GradientDescentOptimizer("a"), _f(tf, [2])))
case("optimizer.adam_string_learning_rate",
     lambda tf: _apply(tf, tf.train.AdamOptimizer(learning_rate="fast"), _f(tf, [2])))
case("optimizer.momentum_string_momentum",
     lambda tf: _apply(tf, tf.train.MomentumOptimizer(0.1, momentum="a"), _f(tf, [2])))
case("optimizer.sgd_none_learning_rate",
     lambda tf: _apply(tf, tf.train.GradientDescentOptimizer(None), _f(tf, [2])))
case("optimizer.sgd_grad_shape_mismatch",
     lambda tf: _apply(tf, tf.train.GradientDescentOptimizer(0.1), _f(tf, [3])))
case("optimizer.adam_grad_shape_mismatch",
     lambda tf: _apply(tf, tf.train.AdamOptimizer(0.1), _f(tf, [3])))
case("optimizer.momentum_grad_shape_mismatch",
     lambda tf: _apply(tf, tf.train.MomentumOptimizer(0.1, 0.9), _f(tf, [2, 2])))
case("optimizer.rmsprop_grad_shape_mismatch",
     lambda tf: _apply(tf, tf.train.RMSPropOptimizer(0.1), _f(tf, [1])))
case("optimizer.adagrad_grad_shape_mismatch",
     lambda tf: _apply(tf, tf.train.AdagradOptimizer(0.1), _f(tf, [3])))
case("optimizer.sgd_grad_dtype_mismatch",
     lambda tf: _apply(tf, tf.train.GradientDescentOptimizer(0.1), _c(tf, [1, 2])))
case("optimizer.sgd_grad_float64",
     lambda tf: _apply(tf, tf.train.GradientDescentOptimizer(0.1), _c(tf, [1.0, 2.0],
                                                                       tf.float64)))
case("optimizer.sgd_all_none_gradients",
     lambda tf: _apply(tf, tf.train.GradientDescentOptimizer(0.1), None))
case("optimizer.sgd_empty_grads_and_vars",
     lambda tf: tf.train.GradientDescentOptimizer(0.1).apply_gradients([]))
case("optimizer.sgd_grads_not_pairs",
     lambda tf: tf.train.GradientDescentOptimizer(0.1).apply_gradients([_f(tf, [2])]))
case("optimizer.sgd_var_not_variable",
     lambda tf: tf.train.GradientDescentOptimizer(0.1).apply_gradients(
         [(_f(tf, [2]), _f(tf, [2]))]))
case("optimizer.sgd_sparse_grad_out_of_range",
     lambda tf: _apply(tf, tf.train.GradientDescentOptimizer(0.1),
                       tf.IndexedSlices(_c(tf, [1.0]), _c(tf, [5]), _c(tf, [2]))))
case("optimizer.adam_sparse_grad_out_of_range",
     lambda tf: _apply(tf, tf.train.AdamOptimizer(0.1),
                       tf.IndexedSlices(_c(tf, [1.0]), _c(tf, [5]), _c(tf, [2]))))
case("optimizer.minimize_tensor_loss_in_eager",
     lambda tf: tf.train.GradientDescentOptimizer(0.1).minimize(_c(tf, 1.0),
                                                                var_list=[tf.Variable(1.0)]))
case("optimizer.minimize_no_gradients",
     lambda tf: tf.train.GradientDescentOptimizer(0.1).minimize(lambda: _c(tf, 1.0),
                                                                var_list=[tf.Variable(1.0)]))
case("optimizer.piecewise_constant_length_mismatch",
     lambda tf: tf.train.piecewise_constant(_c(tf, 1), [1, 2], [0.1, 0.2]))
case("optimizer.piecewise_constant_dtype_mismatch",
     lambda tf: tf.train.piecewise_constant(_c(tf, 1), [1.0], [0.1, 0.2]))
case("optimizer.keras_sgd_string_learning_rate",
     lambda tf: _apply(tf, tf.keras.optimizers.SGD(learning_rate="a"), _f(tf, [2])))
case("optimizer.keras_sgd_negative_momentum",
     lambda tf: tf.keras.optimizers.SGD(momentum=-1.0))
case("optimizer.keras_sgd_unknown_kwarg", lambda tf: tf.keras.optimizers.SGD(nonsense=1))
case("optimizer.keras_sgd_grad_shape_mismatch",
     lambda tf: _apply(tf, tf.keras.optimizers.SGD(0.1), _f(tf, [3])))
case("optimizer.keras_adam_grad_shape_mismatch",
     lambda tf: _apply(tf, tf.keras.optimizers.Adam(0.1), _f(tf, [3])))
case("optimizer.keras_adam_all_none_gradients",
     lambda tf: _apply(tf, tf.keras.optimizers.Adam(0.1), None))
case("optimizer.keras_adam_negative_lr_ok",
     lambda tf: _apply(tf, tf.keras.optimizers.Adam(-0.1), _f(tf, [2])))
case("optimizer.keras_rmsprop_grad_dtype_mismatch",
     lambda tf: _apply(tf, tf.keras.optimizers.RMSprop(0.1), _c(tf, [1, 2])))


# ---------------------------------------------------------------------------------------------
# Gradient tapes
# ---------------------------------------------------------------------------------------------
def _tape(tf, persistent=False):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape(persistent=persistent) as tape:
    y = tf.reduce_sum(x * x)
  return tape, x, y




@case("tape.gradient_of_none")
def _gradient_of_none(tf):
  tape, x, _ = _tape(tf)
  return tape.gradient(None, x)


@case("tape.gradient_source_none")
def _gradient_source_none(tf):
  tape, _, y = _tape(tf)
  return tape.gradient(y, None)


@case("tape.gradient_source_string")
def _gradient_source_string(tf):
  tape, _, y = _tape(tf)
  return tape.gradient(y, "x")


@case("tape.output_gradients_wrong_shape")
def _output_gradients_wrong_shape(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = x * 3.0
  return tape.gradient(y, x, output_gradients=_f(tf, [3]))


@case("tape.output_gradients_wrong_rank")
def _output_gradients_wrong_rank(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = x * 3.0
  return tape.gradient(y, x, output_gradients=_f(tf, [2, 2]))


@case("tape.output_gradients_wrong_shape_reduce")
def _output_gradients_wrong_shape_reduce(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = tf.reduce_sum(x)
  return tape.gradient(y, x, output_gradients=_f(tf, [3]))


@case("tape.output_gradients_wrong_dtype")
def _output_gradients_wrong_dtype(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = x * 3.0
  return tape.gradient(y, x, output_gradients=_c(tf, [1, 1]))


@case("tape.output_gradients_wrong_count")
def _output_gradients_wrong_count(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = x * 3.0
  return tape.gradient([y], x, output_gradients=[_f(tf, [2]), _f(tf, [2])])


@case("tape.gradient_twice_non_persistent")
def _gradient_twice(tf):
  tape, x, y = _tape(tf)
  tape.gradient(y, x)
  return tape.gradient(y, x)


@case("tape.jacobian_after_gradient_non_persistent")
def _jacobian_after_gradient(tf):
  tape, x, y = _tape(tf)
  tape.gradient(y, x)
  return tape.jacobian(y, x)


@case("tape.batch_jacobian_rank1_source")
def _batch_jacobian_rank1(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = x * 2.0
  return tape.batch_jacobian(y, x)


@case("tape.batch_jacobian_rank1_target")
def _batch_jacobian_rank1_target(tf):
  x = tf.Variable([[1.0, 2.0]])
  with tf.GradientTape() as tape:
    y = tf.reduce_sum(x, axis=1)
  return tape.batch_jacobian(y, x)


@case("tape.batch_jacobian_batch_mismatch")
def _batch_jacobian_batch_mismatch(tf):
  x = tf.Variable(tf.ones([2, 3]))
  with tf.GradientTape() as tape:
    y = tf.ones([3, 1]) * tf.reduce_sum(x)
  return tape.batch_jacobian(y, x)


@case("tape.watch_string")
def _watch_string(tf):
  with tf.GradientTape() as tape:
    tape.watch("x")
  return None


@case("tape.watch_python_float")
def _watch_python_float(tf):
  with tf.GradientTape() as tape:
    tape.watch(1.0)
  return None


@case("tape.stop_recording_outside")
def _stop_recording_outside(tf):
  tape = tf.GradientTape()
  with tape.stop_recording():
    pass


@case("tape.reenter_recording_tape")
def _reenter(tf):
  tape = tf.GradientTape()
  with tape:
    with tape:
      pass


@case("tape.bad_unconnected_gradients")
def _bad_unconnected(tf):
  tape, x, y = _tape(tf)
  return tape.gradient(y, x, unconnected_gradients="nope")


@case("tape.gradient_int_target_float_source_ok")
def _int_target(tf):
  x = tf.Variable([1.0])
  with tf.GradientTape() as tape:
    y = tf.cast(x, tf.int32)
  return tape.gradient(y, x)


@case("tape.gradient_through_out_of_range_gather")
def _gradient_gather(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.gather(x, [3]))
  return tape.gradient(y, x)


@case("tape.gradient_through_int_floordiv_by_zero")
def _gradient_floordiv(tf):
  x = tf.Variable([1.0, 2.0])
  with tf.GradientTape() as tape:
    y = tf.reduce_sum(x) * tf.cast(tf.math.floordiv(_c(tf, [1]), _c(tf, [0])), tf.float32)
  return tape.gradient(y, x)


@case("tape.custom_gradient_wrong_arity")
def _custom_gradient_wrong_arity(tf):
  @tf.custom_gradient
  def f(x):
    return x * 2.0, lambda dy: (dy, dy)
  x = tf.Variable([1.0])
  with tf.GradientTape() as tape:
    y = f(x.read_value())
  return tape.gradient(y, x)


# ---------------------------------------------------------------------------------------------
# tf.data
# ---------------------------------------------------------------------------------------------
def _ds(tf, n=5):
  return tf.data.Dataset.range(n)


case("data.prefetch_negative", lambda tf: _ds(tf).prefetch(-5))
case("data.prefetch_autotune_ok", lambda tf: _ds(tf).prefetch(-1))
case("data.batch_zero", lambda tf: _ds(tf).batch(0))
case("data.batch_negative", lambda tf: _ds(tf).batch(-2))
case("data.batch_float", lambda tf: _ds(tf).batch(2.5))
case("data.padded_batch_zero", lambda tf: _ds(tf).padded_batch(0, padded_shapes=[]))
case("data.padded_batch_bad_shape",
     lambda tf: tf.data.Dataset.from_tensors(_f(tf, [3])).padded_batch(2, padded_shapes=[2]))
case("data.padded_batch_bad_rank",
     lambda tf: tf.data.Dataset.from_tensors(_f(tf, [3])).padded_batch(2, padded_shapes=[2, 2]))
case("data.shuffle_zero", lambda tf: _ds(tf).shuffle(0))
case("data.shuffle_negative", lambda tf: _ds(tf).shuffle(-3))
case("data.repeat_string", lambda tf: _ds(tf).repeat("a"))
case("data.shard_zero", lambda tf: _ds(tf).shard(0, 0))
case("data.shard_index_too_large", lambda tf: _ds(tf).shard(2, 2))
case("data.window_zero", lambda tf: _ds(tf).window(0))
case("data.interleave_cycle_zero",
     lambda tf: _ds(tf).interleave(lambda x: tf.data.Dataset.from_tensors(x), cycle_length=0))
case("data.interleave_block_zero",
     lambda tf: _ds(tf).interleave(lambda x: tf.data.Dataset.from_tensors(x), cycle_length=1,
                                   block_length=0))
case("data.interleave_not_dataset", lambda tf: _ds(tf).interleave(lambda x: x, cycle_length=1))
case("data.flat_map_not_dataset", lambda tf: _ds(tf).flat_map(lambda x: x))
case("data.from_tensor_slices_mismatched_lengths",
     lambda tf: tf.data.Dataset.from_tensor_slices((_f(tf, [3]), _f(tf, [2]))))
case("data.from_tensor_slices_dict_mismatched",
     lambda tf: tf.data.Dataset.from_tensor_slices({"a": _f(tf, [3]), "b": _f(tf, [4])}))
case("data.from_tensor_slices_scalar",
     lambda tf: tf.data.Dataset.from_tensor_slices(_c(tf, 1.0)))
case("data.from_tensor_slices_ragged_list",
     lambda tf: tf.data.Dataset.from_tensor_slices([[1, 2], [3]]))
case("data.from_tensors_none", lambda tf: tf.data.Dataset.from_tensors(None))
case("data.range_float", lambda tf: tf.data.Dataset.range(2.5))
case("data.range_zero_step", lambda tf: tf.data.Dataset.range(0, 5, 0))
case("data.zip_not_dataset", lambda tf: tf.data.Dataset.zip((_ds(tf), 5)))
case("data.concatenate_incompatible",
     lambda tf: _ds(tf).concatenate(tf.data.Dataset.from_tensors(_f(tf, [2]))))
case("data.map_wrong_arity", lambda tf: _ds(tf).map(lambda x, y: x))
case("data.map_returns_none", lambda tf: _ds(tf).map(lambda x: None))
case("data.map_gather_out_of_range",
     lambda tf: _ds(tf).map(lambda i: tf.gather(_c(tf, [1.0, 2.0]), i)))
case("data.map_floordiv_by_zero",
     lambda tf: _ds(tf).map(lambda i: tf.math.floordiv(i, tf.constant(0, tf.int64))))
case("data.map_reshape_bad",
     lambda tf: _ds(tf).map(lambda i: tf.reshape(tf.fill([3], i), [2])))
case("data.map_num_parallel_calls_zero",
     lambda tf: _ds(tf).map(lambda x: x, num_parallel_calls=0))
case("data.filter_non_bool", lambda tf: _ds(tf).filter(lambda x: x))
case("data.filter_vector_predicate",
     lambda tf: _ds(tf).filter(lambda x: tf.stack([x > 1, x > 2])))
case("data.unbatch_scalar", lambda tf: _ds(tf).unbatch())
case("data.take_string", lambda tf: _ds(tf).take("a"))
case("data.from_generator_raises",
     lambda tf: tf.data.Dataset.from_generator(lambda: iter([1, 2, int("x")]), tf.int64))
case("data.from_generator_wrong_type",
     lambda tf: tf.data.Dataset.from_generator(lambda: iter(["a"]), tf.int64))
case("data.from_generator_wrong_shape",
     lambda tf: tf.data.Dataset.from_generator(lambda: iter([[1, 2]]), tf.int64,
                                               tf.TensorShape([3])))
case("data.from_generator_not_callable",
     lambda tf: tf.data.Dataset.from_generator([1, 2], tf.int64))
case("data.get_single_element_many",
     lambda tf: tf.data.experimental.get_single_element(_ds(tf, 3)))
case("data.get_single_element_empty",
     lambda tf: tf.data.experimental.get_single_element(_ds(tf, 0)))
case("data.text_line_missing_file",
     lambda tf: tf.data.TextLineDataset("/nonexistent/bad_inputs/lines.txt"))
case("data.tfrecord_missing_file",
     lambda tf: tf.data.TFRecordDataset("/nonexistent/bad_inputs/data.tfrecord"))
case("data.fixed_length_record_missing_file",
     lambda tf: tf.data.FixedLengthRecordDataset("/nonexistent/bad_inputs/data.bin", 4))
case("data.list_files_no_match",
     lambda tf: tf.data.Dataset.list_files("/nonexistent/bad_inputs/*.txt"))


@case("data.iterate_past_end_next")
def _iterate_past_end(tf):
  it = iter(_ds(tf, 2))
  return [next(it), next(it), next(it)]


@case("data.one_shot_iterator_past_end")
def _one_shot_past_end(tf):
  it = tf.data.make_one_shot_iterator(_ds(tf, 1))
  return [it.get_next(), it.get_next()]


@case("data.iterator_get_next_past_end")
def _get_next_past_end(tf):
  it = iter(_ds(tf, 1))
  return [it.get_next(), it.get_next()]


@case("data.tfrecord_truncated")
def _tfrecord_truncated(tf):
  d = tempfile.mkdtemp(prefix="bad_inputs_")
  try:
    path = os.path.join(d, "t.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
      w.write(b"x" * 100)
      w.write(b"y" * 100)
    with open(path, "rb+") as f:
      f.truncate(150)
    return [t.numpy() for t in tf.data.TFRecordDataset(path)]
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("data.tfrecord_corrupted_crc")
def _tfrecord_corrupted(tf):
  d = tempfile.mkdtemp(prefix="bad_inputs_")
  try:
    path = os.path.join(d, "t.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
      w.write(b"x" * 100)
    with open(path, "rb+") as f:
      f.seek(20)
      f.write(b"Z")
    return [t.numpy() for t in tf.data.TFRecordDataset(path)]
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("data.fixed_length_record_partial")
def _fixed_length_partial(tf):
  d = tempfile.mkdtemp(prefix="bad_inputs_")
  try:
    path = os.path.join(d, "f.bin")
    with open(path, "wb") as f:
      f.write(b"abcdefg")
    return [t.numpy() for t in tf.data.FixedLengthRecordDataset(path, 4)]
  finally:
    shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Checkpoints
# ---------------------------------------------------------------------------------------------
def _tmpdir():
  return tempfile.mkdtemp(prefix="bad_inputs_ckpt_")


@case("checkpoint.restore_directory")
def _restore_directory(tf):
  d = _tmpdir()
  try:
    return tf.train.Checkpoint(v=tf.Variable(1.0)).restore(d)
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("checkpoint.restore_directory_with_checkpoint")
def _restore_directory_with_checkpoint(tf):
  d = _tmpdir()
  try:
    tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "ckpt"))
    return tf.train.Checkpoint(v=tf.Variable(2.0)).restore(d)
  finally:
    shutil.rmtree(d, ignore_errors=True)


case("checkpoint.restore_missing_path",
     lambda tf: tf.train.Checkpoint(v=tf.Variable(1.0)).restore(
         "/nonexistent/bad_inputs/ckpt-1"))


@case("checkpoint.restore_missing_prefix_in_existing_dir")
def _restore_missing_prefix(tf):
  d = _tmpdir()
  try:
    return tf.train.Checkpoint(v=tf.Variable(1.0)).restore(os.path.join(d, "ckpt-7"))
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("checkpoint.restore_shape_mismatch")
def _restore_shape_mismatch(tf):
  d = _tmpdir()
  try:
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(os.path.join(d, "ckpt"))
    v = tf.Variable([1.0, 2.0, 3.0])
    tf.train.Checkpoint(v=v).restore(path)
    return v
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("checkpoint.restore_dtype_mismatch")
def _restore_dtype_mismatch(tf):
  d = _tmpdir()
  try:
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(os.path.join(d, "ckpt"))
    v = tf.Variable([1, 2])
    tf.train.Checkpoint(v=v).restore(path)
    return v
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("checkpoint.restore_assert_consumed_unmatched")
def _restore_assert_consumed(tf):
  d = _tmpdir()
  try:
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "ckpt"))
    return tf.train.Checkpoint(w=tf.Variable(1.0)).restore(path).assert_consumed()
  finally:
    shutil.rmtree(d, ignore_errors=True)


def _largest_file(directory):
  """The largest regular file under `directory`: a checkpoint's tensor data, in any layout."""
  files = [os.path.join(root, f) for root, _, names in os.walk(directory) for f in names]
  return max(files, key=os.path.getsize)


@case("checkpoint.restore_corrupted_data")
def _restore_corrupted(tf):
  d = _tmpdir()
  try:
    value = tf.cast(tf.range(4096), tf.float32)
    path = tf.train.Checkpoint(v=tf.Variable(value)).save(os.path.join(d, "ckpt"))
    target = _largest_file(d)
    size = os.path.getsize(target)
    with open(target, "rb+") as f:
      f.seek(size // 2)
      byte = f.read(1)
      f.seek(size // 2)
      f.write(bytes([byte[0] ^ 0x10]))
    v = tf.Variable(tf.zeros([4096]))
    tf.train.Checkpoint(v=v).restore(path)
    return v
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("checkpoint.restore_assert_existing_objects_matched_unmatched")
def _restore_assert_existing(tf):
  d = _tmpdir()
  try:
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "ckpt"))
    return tf.train.Checkpoint(w=tf.Variable(1.0)).restore(
        path).assert_existing_objects_matched()
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("keras.load_weights_shape_mismatch")
def _load_weights_shape_mismatch(tf):
  d = _tmpdir()
  try:
    prefix = os.path.join(d, "weights")
    tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))]).save_weights(prefix)
    model = tf.keras.Sequential([tf.keras.layers.Dense(5, input_shape=(3,))])
    return model.load_weights(prefix)
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("keras.load_weights_nothing_matches")
def _load_weights_nothing_matches(tf):
  d = _tmpdir()
  try:
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(os.path.join(d, "ckpt"))
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    return model.load_weights(path)
  finally:
    shutil.rmtree(d, ignore_errors=True)


@case("checkpoint.restore_truncated_index")
def _restore_truncated_index(tf):
  d = _tmpdir()
  try:
    path = tf.train.Checkpoint(v=tf.Variable(tf.ones([64]))).save(os.path.join(d, "ckpt"))
    index = path + ".index"
    if os.path.exists(index):
      with open(index, "rb+") as f:
        f.truncate(os.path.getsize(index) // 2)
    else:  # not TF's layout: truncate whatever file the checkpoint wrote
      for f in os.listdir(d):
        p = os.path.join(d, f)
        if f.startswith(os.path.basename(path)) and os.path.isfile(p):
          with open(p, "rb+") as fh:
            fh.truncate(os.path.getsize(p) // 2)
    v = tf.Variable(tf.zeros([64]))
    tf.train.Checkpoint(v=v).restore(path)
    return v
  finally:
    shutil.rmtree(d, ignore_errors=True)


case("checkpoint.not_trackable_value", lambda tf: tf.train.Checkpoint(v=1.0))
case("checkpoint.load_checkpoint_missing",
     lambda tf: tf.train.load_checkpoint("/nonexistent/bad_inputs/ckpt-1"))
case("checkpoint.list_variables_missing",
     lambda tf: tf.train.list_variables("/nonexistent/bad_inputs/ckpt-1"))
case("checkpoint.load_variable_missing",
     lambda tf: tf.train.load_variable("/nonexistent/bad_inputs/ckpt-1", "v"))
case("checkpoint.latest_checkpoint_missing_dir_ok",
     lambda tf: tf.train.latest_checkpoint("/nonexistent/bad_inputs/"))


@case("checkpoint.load_variable_unknown_name")
def _load_variable_unknown(tf):
  d = _tmpdir()
  try:
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d, "ckpt"))
    return tf.train.load_variable(path, "no_such_variable")
  finally:
    shutil.rmtree(d, ignore_errors=True)


case("checkpoint.saver_no_var_list_in_eager", lambda tf: tf.train.Saver())


@case("checkpoint.manager_directory_is_file")
def _manager_dir_is_file(tf):
  d = _tmpdir()
  try:
    path = os.path.join(d, "file")
    with open(path, "w") as f:
      f.write("x")
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), path, 2)
    return manager.save()
  finally:
    shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# tf.function: the same bad calls inside a compiled function, and function-specific misuse
# ---------------------------------------------------------------------------------------------
_IN_FUNCTION = [
    "math.floordiv_int32_by_zero", "math.floordiv_operator_by_zero", "math.floormod_int32_by_zero",
    "math.mod_operator_by_zero", "math.truncatediv_by_zero", "math.truncatemod_by_zero",
    "math.int_pow_negative_exponent", "math.add_incompatible_shapes", "math.string_multiply",
    "math.string_sqrt", "math.cast_string_to_float", "math.unsorted_segment_sum_id_too_large",
    "math.segment_sum_not_increasing", "math.clip_by_value_incompatible_min",
    "math.top_k_k_too_large", "linalg.matmul_size_mismatch",
    "reduce.sum_axis_out_of_range", "reduce.sum_float_axis", "reduce.argmin_list_axis",
    "reduce.moments_axis_out_of_range", "shape.reshape_wrong_size", "shape.reshape_float_shape",
    "shape.concat_empty_list", "shape.concat_dim_mismatch", "shape.split_not_divisible",
    "shape.one_hot_negative_depth", "shape.sequence_mask_negative_maxlen",
    "shape.histogram_empty_range", "shape.range_zero_delta", "shape.zeros_negative_dim",
    "index.tensor_index_out_of_range", "index.gather_out_of_range", "index.gather_negative",
    "index.gather_nd_out_of_range", "index.embedding_lookup_out_of_range",
    "index.scatter_nd_out_of_range", "index.tensor_scatter_update_out_of_range",
    "sparse.to_dense_out_of_bounds", "nn.conv2d_stride_zero", "nn.conv2d_valid_window_too_large",
    "nn.max_pool_ksize_zero", "nn.sparse_xent_label_too_large", "nn.bias_add_mismatch",
    "image.nms_mismatched_boxes_scores", "control.check_numerics_nan", "control.assert_false",
    "control.assert_equal_fails", "random.uniform_negative_shape",
]


def _in_function(fn):
  def run(tf):
    def body():
      out = fn(tf)  # an op (tf.Assert in graph mode) is no return value of a tf.function
      return out if tf.is_tensor(out) or isinstance(out, (list, tuple)) else None
    return tf.function(body)()
  return run


for _name in _IN_FUNCTION:
  case("function." + _name, _in_function(_BY_NAME[_name].fn))


def _with_args(body, *make_args):
  """`body` compiled by tf.function, called with tensors made outside it (so nothing is
  constant-folded while tracing)."""
  return lambda tf: tf.function(body)(*[m(tf) for m in make_args])


case("function_args.floordiv_by_zero",
     _with_args(lambda a, b: a // b, lambda tf: _c(tf, [4, 5]), lambda tf: _c(tf, [1, 0])))
case("function_args.floormod_by_zero",
     _with_args(lambda a, b: a % b, lambda tf: _c(tf, [4, 5]), lambda tf: _c(tf, [0, 1])))
case("function_args.int_pow_negative",
     _with_args(lambda a, b: a ** b, lambda tf: _c(tf, [2]), lambda tf: _c(tf, [-1])))
case("function_args.gather_out_of_range",
     _with_args(lambda p, i: p[i], lambda tf: _f(tf, [3]), lambda tf: _c(tf, 3)))


def _function_args(name, body, *make_args):
  case("function_args." + name, lambda tf: tf.function(lambda *a: body(tf, *a))(
      *[m(tf) for m in make_args]))


_function_args("gather_fn_out_of_range", lambda tf, p, i: tf.gather(p, i),
               lambda tf: _f(tf, [3]), lambda tf: _c(tf, [0, 3]))
_function_args("gather_nd_out_of_range", lambda tf, p, i: tf.gather_nd(p, i),
               lambda tf: _f(tf, [2, 2]), lambda tf: _c(tf, [[2, 0]]))
_function_args("embedding_lookup_out_of_range", lambda tf, p, i: tf.nn.embedding_lookup(p, i),
               lambda tf: _f(tf, [4, 2]), lambda tf: _c(tf, [4]))
_function_args("unsorted_segment_sum_id_too_large",
               lambda tf, d, s: tf.unsorted_segment_sum(d, s, 2),
               lambda tf: _f(tf, [3]), lambda tf: _c(tf, [0, 1, 2]))
_function_args("scatter_nd_out_of_range",
               lambda tf, i, u: tf.scatter_nd(i, u, [3]),
               lambda tf: _c(tf, [[3]]), lambda tf: _c(tf, [1.0]))
_function_args("sparse_xent_label_too_large",
               lambda tf, l, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=l,
                                                                               logits=x),
               lambda tf: _c(tf, [0, 7]), lambda tf: _f(tf, [2, 3]))
_function_args("reshape_wrong_size", lambda tf, x, s: tf.reshape(x, s),
               lambda tf: _f(tf, [2, 3]), lambda tf: _c(tf, [4]))
_function_args("one_hot_negative_depth", lambda tf, i, d: tf.one_hot(i, d),
               lambda tf: _c(tf, [0, 1]), lambda tf: _c(tf, -1))
_function_args("sequence_mask_negative_maxlen", lambda tf, l, m: tf.sequence_mask(l, m),
               lambda tf: _c(tf, [1, 2]), lambda tf: _c(tf, -1))
_function_args("check_numerics_nan", lambda tf, x: tf.check_numerics(x, "bad value"),
               lambda tf: _c(tf, [float("nan")]))
_function_args("assert_equal_fails",
               lambda tf, a, b: tf.identity(a) if tf.assert_equal(a, b) is None else a,
               lambda tf: _c(tf, [1]), lambda tf: _c(tf, [2]))
_function_args("matmul_size_mismatch", lambda tf, a, b: tf.matmul(a, b),
               lambda tf: _f(tf, [2, 3]), lambda tf: _f(tf, [4, 5]))
_function_args("cast_string_to_float", lambda tf, s: tf.cast(s, tf.float32),
               lambda tf: _c(tf, ["1"]))
_function_args("tensor_scatter_update_out_of_range",
               lambda tf, t, i: tf.tensor_scatter_update(t, i, [1.0]),
               lambda tf: _f(tf, [3]), lambda tf: _c(tf, [[5]]))


@case("function.variable_created_every_call")
def _variable_every_call(tf):
  @tf.function
  def f(x):
    return tf.Variable(1.0) * x
  f(_c(tf, 1.0))
  return f(_c(tf, 2.0))


@case("function.input_signature_wrong_arity")
def _signature_arity(tf):
  f = tf.function(lambda x: x * 2.0, input_signature=[tf.TensorSpec([2], tf.float32)])
  return f(_f(tf, [2]), _f(tf, [2]))


@case("function.input_signature_wrong_shape")
def _signature_shape(tf):
  f = tf.function(lambda x: x * 2.0, input_signature=[tf.TensorSpec([2], tf.float32)])
  return f(_f(tf, [3]))


@case("function.input_signature_wrong_dtype")
def _signature_dtype(tf):
  f = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([2], tf.float32)])
  return f(_c(tf, [1, 2]))


@case("function.python_exception_inside")
def _python_exception_inside(tf):
  @tf.function
  def f(x):
    raise KeyError("boom")
  return f(_c(tf, 1.0))


@case("function.numpy_inside")
def _numpy_inside(tf):
  return tf.function(lambda x: x.numpy())(_c(tf, 1.0))


@case("function.tensor_bool_inside_python_if_ok")
def _bool_inside(tf):
  @tf.function
  def f(x):
    if x > 0:
      return x
    return -x
  return f(_c(tf, 1.0))


@case("function.return_non_tensor_object")
def _return_object(tf):
  return tf.function(lambda: object())()


@case("function.wrong_keyword_argument")
def _wrong_keyword(tf):
  return tf.function(lambda x: x)(y=_c(tf, 1.0))


@case("function.missing_argument")
def _missing_argument(tf):
  return tf.function(lambda x, y: x + y)(_c(tf, 1.0))


@case("function.gradient_of_out_of_range_gather")
def _function_gradient(tf):
  x = tf.Variable([1.0, 2.0])

  @tf.function
  def step():
    with tf.GradientTape() as tape:
      y = tf.reduce_sum(tf.gather(x, [2]))
    return tape.gradient(y, x)
  return step()


@case("function.tape_output_gradients_wrong_shape")
def _function_output_gradients(tf):
  x = tf.Variable([1.0, 2.0])

  @tf.function
  def step():
    with tf.GradientTape() as tape:
      y = x * 3.0
    return tape.gradient(y, x, output_gradients=tf.ones([3]))
  return step()


@case("function.optimizer_grad_shape_mismatch")
def _function_optimizer(tf):
  v = tf.Variable([1.0, 2.0])
  opt = tf.train.GradientDescentOptimizer(0.1)
  return tf.function(lambda: opt.apply_gradients([(tf.ones([3]), v)]))()


@case("function.variable_scatter_out_of_range")
def _function_variable_scatter(tf):
  v = tf.Variable([1.0, 2.0])
  return tf.function(lambda: tf.scatter_update(v, [5], [1.0]))()


@case("function.dataset_iteration_out_of_range")
def _function_dataset(tf):
  @tf.function
  def f():
    total = tf.constant(0.0)
    for x in tf.data.Dataset.from_tensor_slices(_c(tf, [0, 5])):
      total += tf.gather(_c(tf, [1.0, 2.0]), x)
    return total
  return f()


# ---------------------------------------------------------------------------------------------
# The source of a case, for reports
# ---------------------------------------------------------------------------------------------
def _statement_at(text, start):
  """The text from `start` to the parenthesis that closes the first one opened after it."""
  depth, i, quote = 0, start, None
  while i < len(text):
    ch = text[i]
    if quote:
      if ch == "\\":
        i += 1
      elif ch == quote:
        quote = None
    elif ch in "\"'":
      quote = ch
    elif ch == "(":
      depth += 1
    elif ch == ")":
      depth -= 1
      if depth == 0:
        return text[start:i + 1]
    i += 1
  return text[start:]


def source_of(name):
  """The call a case makes, as written in this file (one line)."""
  if name.startswith("function.") and name[len("function."):] in _BY_NAME:
    return "inside tf.function: " + source_of(name[len("function."):])
  with open(__file__) as f:
    text = f.read()
  for literal in ('"%s"' % name, '"%s"' % name.split(".", 1)[-1]):
    at = text.find(literal)
    if at < 0:
      continue
    line_start = text.rfind("\n", 0, at) + 1
    head = text[line_start:at]
    if head.startswith("@case("):  # a decorated def: its body
      body_start = text.index("\n", at) + 1
      body_start = text.index("\n", body_start) + 1  # skip the def line
      lines = []
      for line in text[body_start:].splitlines():
        if line.strip() and not line.startswith(" "):
          break
        if line.strip():
          lines.append(line.strip())
      return "; ".join(lines)
    stmt = _statement_at(text, line_start)
    call = stmt[stmt.index(literal) + len(literal):].lstrip(", \n")
    if stmt.startswith(("case(", "_function_args(")):
      call = call[:-1]  # the closing parenthesis of case(...)
    return " ".join(call.split())
  return "?"
