"""Gradients through tf.GradientTape equal real TensorFlow's, op by op.

Each case is `(id, fn, *inputs)`: `fn(*tensors)` builds the target(s) from constants made of
`inputs`; every floating input is watched and the target is weighted by `weights(shape)`
(`output_gradients`), so permutations and ties show. GOLDEN holds TF 2.21's
`tf.compat.v1` GradientTape gradients (dtype, shape, values; None where TF gives None),
produced once by a generator script that runs these same cases under the oracle.
Kinks follow TF: maximum/minimum ties go to x, sqrt/rsqrt/reciprocal give 0 where the
incoming gradient is 0 (so a `where` mask hides their NaN), pow's dy is 0 for x <= 0, ...
Not here: ops TF has no gradient for (truncatemod, unique, setdiff1d, bincount, resize_area
raise LookupError in TF) and ops with only integer or boolean outputs.
"""
import numpy as np
import pytest

import tfe_compat as tf

nan, inf = float("nan"), float("inf")


def F(*values):
  return np.array(values, np.float32)


def A(*shape, scale=0.25, offset=0.0, dtype=np.float32):
  """Deterministic inputs: (i * 7 % 13 - 6) * scale + offset."""
  n = int(np.prod(shape))
  return ((np.arange(n) * 7 % 13 - 6) * scale + offset).astype(dtype).reshape(shape)


def weights(shape, dtype):
  """The output_gradients: 1, 1.5, 2, 2.5, 1, ... (times 1 - 0.5j for complex outputs)."""
  n = int(np.prod(shape))
  w = (1 + 0.5 * (np.arange(n) % 4)).reshape(shape)
  if np.dtype(dtype).kind == "c":
    w = w * (1 - 0.5j)
  return w.astype(dtype)


V = F(-2., -0.5, 0., 0.5, 1., 3.)            # crosses the kinks at 0
POS = F(0.25, 0.5, 1., 2.5)
UNIT = F(-0.75, -0.25, 0., 0.5)              # inside (-1, 1)
ROUNDING = F(-1.5, -0.5, 0.2, 0.5, 2.5)
SPD = F([4., 1., 0.5], [1., 3., 0.25], [0.5, 0.25, 2.])
SQUARE = F([2., 1., 0.], [0.5, 3., 1.], [1., -1., 4.])
LOWER = F([2., 0., 0.], [0.5, 3., 0.], [1., -1., 4.])
I32 = np.array([3, -1, 4], np.int32)
IMG = A(1, 4, 6, 2)
Z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j], np.complex64)

UNARY = [
    ("negative", V), ("abs", V), ("sign", V), ("square", V), ("sqrt", F(0., 0.25, 1., 4.)),
    ("rsqrt", POS), ("exp", V), ("expm1", V), ("log", POS), ("log1p", F(-0.5, 0., 1., 3.)),
    ("reciprocal", F(-2., -0.5, 0.5, 4.)), ("reciprocal_no_nan", F(-2., 0., 0.5, 4.)),
    ("sin", V), ("cos", V), ("tan", UNIT), ("asin", UNIT), ("acos", UNIT), ("atan", V),
    ("sinh", V), ("cosh", V), ("tanh", V), ("asinh", V), ("acosh", F(1.5, 2., 4.)),
    ("atanh", UNIT), ("sigmoid", V), ("log_sigmoid", V), ("erf", V), ("erfc", V),
    ("erfinv", UNIT), ("ndtri", F(0.1, 0.5, 0.9)), ("lgamma", F(-2.5, 0.5, 1., 3.5)),
    ("digamma", F(-2.5, 0.5, 1., 3.5)), ("bessel_i0e", V), ("bessel_i1e", V),
    ("bessel_i0", V), ("bessel_i1", V), ("round", ROUNDING), ("rint", ROUNDING),
    ("floor", ROUNDING), ("ceil", ROUNDING),
]
P2, Q2 = F(-2., 0., 0., 0., 0.5, 2., 3.), F(2., 0., 1., -1., 0.5, 3., -2.)
BINARY = [
    ("add", V, V[::-1]), ("subtract", V, V[::-1]), ("multiply", V, V[::-1]),
    ("divide", V, F(1., -2., 4., 0.5, 0.25, -1.)),
    ("divide_no_nan", F(1., -2., 3., 0.), F(0., 4., 0.5, 0.)), ("floormod", F(5., -5., 3.5), F(3., 2., -2.)),
    ("pow", P2, Q2), ("maximum", V, F(1., -0.5, 0., 2., 1., -1.)),
    ("minimum", V, F(1., -0.5, 0., 2., 1., -1.)), ("squared_difference", V, V[::-1]),
    ("atan2", F(0., 1., -1., 2.), F(0., 0., 3., -1.)), ("xdivy", F(0., 1., 2.), F(0., 2., -4.)),
    ("xlogy", F(0., 1., 2.), F(0., 2., 4.)), ("multiply_no_nan", F(1., nan, 2.), F(0., 0., 3.)),
    ("igamma", F(0.5, 1., 3.), F(0.5, 2., 1.)), ("igammac", F(0.5, 1., 3.), F(0.5, 2., 1.)),
    ("betainc_x", F(1., 2., 0.5), F(2., 3., 0.5), F(0.25, 0.5, 0.75)),
    ("nextafter", F(1., 2.), F(2., 0.)), ("zeta", F(2., 3.), F(1., 2.)),
    ("polygamma", F(1., 2.), F(1.5, 2.)), ("truncatediv", F(5., -5.), F(2., 3.)),
]


def _binary(name):
  if name == "betainc_x":
    return lambda a, b, x: tf.math.betainc(tf.stop_gradient(a), tf.stop_gradient(b), x)
  return getattr(tf, name) if name == "truncatediv" else getattr(tf.math, name)


def _second_order(fn):
  """x -> d sum(fn(x)) / dx, computed with an inner tape (so the outer tape sees it)."""
  def gradient(x):
    with tf.GradientTape() as inner:
      inner.watch(x)
      y = fn(x)
    return inner.gradient(y, x)
  return gradient


CASES = [(name, getattr(tf.math, name), x) for name, x in UNARY] + [
    (name, _binary(name)) + tuple(xs) for name, *xs in BINARY] + [
    # kinks, ties and masks
    ("relu_at_0", tf.nn.relu, V),
    ("maximum_tie_broadcast", tf.maximum, V, F(0.)),
    ("minimum_tie_broadcast", tf.minimum, V, F(0.5)),
    ("where_sqrt_mask", lambda x: tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x)), F(-1., 0., 4.)),
    ("where_rsqrt_mask", lambda x: tf.where(x > 0, tf.rsqrt(x), tf.zeros_like(x)), F(-1., 0., 4.)),
    ("where_reciprocal_mask", lambda x: tf.where(tf.not_equal(x, 0), tf.reciprocal(x),
                                                 tf.zeros_like(x)), F(-1., 0., 4.)),
    ("where_log_mask", lambda x: tf.where(x > 0, tf.log(x), tf.zeros_like(x)), F(-1., 0., 4.)),
    ("where_pow_mask", lambda x: tf.where(x > 0, tf.pow(x, 0.5), tf.zeros_like(x)), F(-1., 0., 4.)),
    ("where_rows", lambda x, y: tf.where(tf.constant([True, False]), x, y), A(2, 3), A(2, 3, offset=1.)),
    ("where_v2_broadcast", lambda x, y: tf.where_v2(x > 0, x, y), V, F(2.)),
    ("clip_by_value_tensors", tf.clip_by_value, F(-2., -1., 0., 1., 2.), F(-1.), F(1.)),
    ("clip_by_value_nan", tf.clip_by_value, F(nan, 0.5), F(0.), F(1.)),
    ("pow_scalar_exponent", lambda x: x ** 2, V),
    ("sqrt_norm_at_0", lambda x: tf.sqrt(tf.reduce_sum(x * x)), F(0., 0.)),
    ("cast_f64", lambda x: tf.cast(x, tf.float64), V),
    ("cast_f64_back", lambda x: tf.cast(x, tf.float32), V.astype(np.float64)),
    ("cast_int_roundtrip", lambda x: tf.cast(tf.cast(x, tf.int32), tf.float32) + x * 0.,
     ROUNDING),
    ("cast_complex", lambda x: tf.real(tf.cast(x, tf.complex64) * (1 + 2j)), V),
    ("floordiv", tf.floordiv, F(5., -5.), F(2., 3.)),
    ("polyval", lambda x: tf.math.polyval([2., -1., 0.5], x), V),
    ("scalar_mul", lambda s, x: tf.scalar_mul(s, x), F(2.)[0], V),
    ("lbeta", tf.lbeta, F([1., 2.], [0.5, 3.])),
    ("lin_space", lambda a, b: tf.lin_space(a, b, 4), F(1.)[0], F(3.)[0]),
    ("saturate_cast", lambda x: tf.saturate_cast(x, tf.float64), V),
    # integer sources give None, the rest still flows
    ("int_source_cast", lambda i: tf.cast(i, tf.float32) * 2., I32),
    ("int_source_mixed", lambda x, i: x * tf.cast(i, tf.float32), F(1., 2., 3.), I32),
    ("int_target", lambda i: tf.reduce_sum(i * 2), I32),
    ("int_gather", lambda x, i: tf.gather(x, tf.abs(i) % 3), F(1., 2., 3.), I32),
    ("argmax_path", lambda x: tf.cast(tf.argmax(x), tf.float32) + tf.reduce_max(x), V),
    # reductions
    ("reduce_sum_axis", lambda x: tf.reduce_sum(x, axis=1), A(2, 3)),
    ("reduce_mean", lambda x: tf.reduce_mean(x, axis=[0, 2]), A(2, 3, 2)),
    ("reduce_prod", lambda x: tf.reduce_prod(x, axis=1), F([1., 2., 3.], [0., 2., 3.], [0., 0., 2.])),
    ("reduce_prod_all", tf.reduce_prod, F([1.5, -2.], [0.5, 3.])),
    ("reduce_logsumexp", lambda x: tf.reduce_logsumexp(x, axis=1),
     F([1., 2., 3.], [-inf, 0., 0.])),
    ("reduce_max_ties", lambda x: tf.reduce_max(x, axis=1), F([1., 3., 3.], [2., 2., 2.])),
    ("reduce_min_ties", tf.reduce_min, F([1., 3., 1.], [2., 1., 5.])),
    ("reduce_variance", lambda x: tf.math.reduce_variance(x, axis=0), A(3, 2)),
    ("reduce_std", lambda x: tf.math.reduce_std(x, axis=1), A(2, 3)),
    ("reduce_euclidean_norm", lambda x: tf.math.reduce_euclidean_norm(x, axis=1),
     F([3., 4.], [0., 0.])),
    ("cumsum", lambda x: tf.cumsum(x, axis=1), A(2, 3)),
    ("cumsum_exclusive", lambda x: tf.cumsum(x, exclusive=True), F(1., 2., 3., 4.)),
    ("cumsum_reverse", lambda x: tf.cumsum(x, reverse=True), F(1., 2., 3., 4.)),
    ("cumsum_exclusive_reverse", lambda x: tf.cumsum(x, exclusive=True, reverse=True),
     F(1., 2., 3., 4.)),
    ("cumprod", lambda x: tf.cumprod(x, exclusive=True), F(1.5, -2., 3., 0.5)),
    ("cumprod_reverse", lambda x: tf.cumprod(x, reverse=True), F(1.5, -2., 3., 0.5)),
    ("cumprod_zero", lambda x: tf.cumprod(x, axis=1), F([2., 0., 3., 0.5], [0., 1., 0., 2.])),
    ("cumprod_zero_exclusive_reverse", lambda x: tf.cumprod(x, exclusive=True, reverse=True),
     F(2., 0., 3., 0.5)),
    ("cumulative_logsumexp", tf.math.cumulative_logsumexp, F(1., -2., 3., 0.5)),
    ("add_n", lambda x, y, z: tf.add_n([x, y, z]), V, V * 2, V[::-1]),
    ("accumulate_n", lambda x, y: tf.math.accumulate_n([x, y]), V, V * 2),
    ("clip_by_norm", lambda x: tf.clip_by_norm(x, 1.), F(3., 4.)),
    ("clip_by_norm_tie", lambda x, c: tf.clip_by_norm(x, c), F(3., 4.), F(5.)[0]),
    ("global_norm", lambda x, y: tf.global_norm([x, y]), F(3., 4.), F(1., -2.)),
    ("clip_by_global_norm", lambda x, y: tf.clip_by_global_norm([x, y], 2.)[0],
     F(3., 4.), F(1., -2.)),
    ("clip_by_global_norm_tie", lambda x, c: tf.clip_by_global_norm([x], c)[0],
     F(3., 4.), F(5.)[0]),
    ("clip_by_average_norm", lambda x: tf.clip_by_average_norm(x, 0.5), F(3., 4.)),
    ("segment_sum", lambda x: tf.segment_sum(x, [0, 0, 1, 2]), A(4, 2)),
    ("segment_mean", lambda x: tf.segment_mean(x, [0, 0, 1, 1]), A(4, 2)),
    ("segment_max_ties", lambda x: tf.segment_max(x, [0, 0, 0, 1]), F(2., 1., 2., 5.)),
    ("segment_min", lambda x: tf.segment_min(x, [0, 0, 1, 1]), F(2., 1., 3., 5.)),
    ("segment_prod", lambda x: tf.segment_prod(x, [0, 0, 1, 1]), F(2., 1.5, 0., 5.)),
    ("unsorted_segment_sum", lambda x: tf.unsorted_segment_sum(x, [2, 0, 2, 1], 4), A(4, 2)),
    ("unsorted_segment_mean", lambda x: tf.unsorted_segment_mean(x, [2, 0, 2, 1], 3), A(4, 2)),
    ("unsorted_segment_max", lambda x: tf.unsorted_segment_max(x, [1, 0, 1, 1], 3),
     F(2., 1., 2., 5.)),
    ("unsorted_segment_max_dropped", lambda x: tf.unsorted_segment_max(x, [0, -1, 0], 1),
     F(1., 5., 1.)),
    ("confusion_matrix_weights", lambda w: tf.confusion_matrix(
        [0, 1, 1], [1, 1, 0], weights=w, dtype=tf.float32), F(1., 2., 3.)),
    ("unsorted_segment_min", lambda x: tf.unsorted_segment_min(x, [1, 0, 1, 1], 2),
     F(2., 1., 2., 5.)),
    ("unsorted_segment_prod", lambda x: tf.unsorted_segment_prod(x, [1, 0, 1, 1], 2),
     F(2., 1., 2., 5.)),
    ("unsorted_segment_sqrt_n", lambda x: tf.unsorted_segment_sqrt_n(x, [1, 0, 1, 1], 2),
     F(2., 1., 2., 5.)),
    # matrix products
    ("matmul", tf.matmul, A(2, 3), A(3, 2, offset=0.5)),
    ("matmul_transpose_a", lambda a, b: tf.matmul(a, b, transpose_a=True), A(3, 2), A(3, 2)),
    ("matmul_transpose_b", lambda a, b: tf.matmul(a, b, transpose_b=True), A(2, 3), A(4, 3)),
    ("matmul_batched", tf.matmul, A(2, 2, 3), A(3, 2, offset=0.5)),
    ("tensordot", lambda a, b: tf.tensordot(a, b, [[0, 1], [1, 0]]), A(2, 3), A(3, 2)),
    ("einsum_matmul", lambda a, b: tf.einsum("ij,jk->ik", a, b), A(2, 3), A(3, 2)),
    ("einsum_diagonal", lambda a: tf.einsum("ii->i", a), A(3, 3)),
    ("einsum_batch", lambda a, b: tf.einsum("bij,bjk->bik", a, b), A(2, 2, 3), A(2, 3, 2)),
    ("cross", tf.cross, A(2, 3), A(2, 3, offset=1.)),
    # shapes, joins and splits
    ("reshape", lambda x: tf.reshape(x, [3, 2]), A(2, 3)),
    ("transpose", lambda x: tf.transpose(x, [2, 0, 1]), A(2, 3, 2)),
    ("expand_dims", lambda x: tf.expand_dims(x, 1), A(2, 3)),
    ("squeeze", lambda x: tf.squeeze(x, [0]), A(1, 3)),
    ("concat", lambda x, y: tf.concat([x, y, x], axis=1), A(2, 1), A(2, 3)),
    ("stack", lambda x, y: tf.stack([x, y], axis=1), A(2, 3), A(2, 3, offset=1.)),
    ("unstack", lambda x: tf.unstack(x, axis=1), A(2, 3)),
    ("split_sizes", lambda x: tf.split(x, [1, 3], axis=1), A(2, 4)),
    ("split_num", lambda x: tf.split(x, 2), A(4, 2)),
    ("tile", lambda x: tf.tile(x, [2, 3]), A(2, 2)),
    ("pad_constant", lambda x: tf.pad(x, [[1, 0], [0, 2]], constant_values=3.), A(2, 2)),
    ("pad_constant_value", lambda x, c: tf.pad(x, [[1, 0]], constant_values=c), F(1., 2.),
     F(3.)[0]),
    ("pad_reflect", lambda x: tf.pad(x, [[1, 1], [2, 1]], mode="REFLECT"), A(3, 3)),
    ("reverse", lambda x: tf.reverse(x, [1]), A(2, 3)),
    ("fill_value", lambda v: tf.fill([2, 3], v), F(2.)[0]),
    ("zeros_like", lambda x: tf.zeros_like(x) + 1., V),
    ("identity", tf.identity, V),
    ("identity_n", lambda x, y: tf.identity_n([x, y]), V, F(1., 2.)),
    ("stop_gradient", lambda x, y: tf.stop_gradient(x) * y, V, V),
    ("placeholder_with_default", lambda x: tf.placeholder_with_default(x, [6]), V),
    ("ensure_shape", lambda x: tf.ensure_shape(x, [6]), V),
    ("broadcast_to", lambda x: tf.broadcast_to(x, [2, 3, 2]), A(3, 1)),
    ("meshgrid", lambda x, y: tf.meshgrid(x, y), F(1., 2., 3.), F(-1., 4.)),
    ("one_hot_values", lambda on, off: tf.one_hot([0, 2, 1], 3, on, off), F(2.)[0], F(-1.)[0]),
    ("roll", lambda x: tf.roll(x, [1, -1], [0, 1]), A(2, 3)),
    # slicing and indexing
    ("getitem_reverse", lambda x: x[1:, ::-1], A(3, 4)),
    ("getitem_newaxis", lambda x: x[:, None, 1], A(3, 4)),
    ("strided_slice", lambda x: tf.strided_slice(x, [0, 1], [3, 4], [2, 2]), A(3, 4)),
    ("slice", lambda x: tf.slice(x, [1, 0], [2, 3]), A(3, 4)),
    ("gather_repeats", lambda x: tf.gather(x, [2, 0, 2]), A(3, 2)),
    ("gather_axis1", lambda x: tf.gather(x, [[1, 0], [1, 1]], axis=1), A(2, 3)),
    ("gather_batch_dims", lambda x: tf.gather(x, [[1], [0]], axis=1, batch_dims=1), A(2, 3)),
    ("gather_nd", lambda x: tf.gather_nd(x, [[0, 1], [2, 0], [0, 1]]), A(3, 2)),
    ("scatter_nd", lambda u: tf.scatter_nd([[1], [3], [1]], u, [4, 2]), A(3, 2)),
    ("tensor_scatter_update", lambda t, u: tf.tensor_scatter_update(t, [[1], [0]], u),
     A(3, 2), A(2, 2, offset=1.)),
    ("tensor_scatter_add", lambda t, u: tf.tensor_scatter_add(t, [[1], [1]], u),
     A(3, 2), A(2, 2, offset=1.)),
    ("tensor_scatter_sub", lambda t, u: tf.tensor_scatter_sub(t, [[2], [0]], u),
     A(3, 2), A(2, 2, offset=1.)),
    ("boolean_mask", lambda x: tf.boolean_mask(x, [True, False, True]), A(3, 2)),
    ("reverse_sequence", lambda x: tf.reverse_sequence(x, [2, 3], seq_axis=1, batch_axis=0),
     A(2, 3)),
    ("sort_ties", lambda x: tf.sort(x), F(2., 1., 2., 0., 1.)),
    ("sort_descending_ties", lambda x: tf.sort(x, direction="DESCENDING"), F(2., 1., 2., 0., 1.)),
    # space ops
    ("space_to_batch_nd", lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 1]]), IMG),
    ("batch_to_space_nd", lambda x: tf.batch_to_space_nd(x, [2, 1], [[1, 0], [0, 1]]),
     A(2, 2, 3, 1)),
    ("depth_to_space", lambda x: tf.depth_to_space(x, 2), A(1, 2, 1, 8)),
    ("space_to_depth", lambda x: tf.space_to_depth(x, 2), IMG),
    ("extract_image_patches", lambda x: tf.extract_image_patches(
        x, [1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME"), IMG),
    # linear algebra
    ("matrix_inverse", tf.matrix_inverse, SQUARE),
    ("matrix_inverse_adjoint", lambda x: tf.linalg.inv(x, adjoint=True), SQUARE),
    ("det", tf.linalg.det, SQUARE),
    ("slogdet", tf.linalg.slogdet, SQUARE),
    ("logdet", tf.linalg.logdet, SPD),
    ("cholesky", tf.cholesky, SPD),
    ("cholesky_nonsymmetric", tf.cholesky, SPD + np.triu(SQUARE, 1)),
    ("qr_r", lambda x: tf.abs(tf.linalg.qr(x)[1]), SQUARE),
    ("svd_values", lambda x: tf.linalg.svd(x, compute_uv=False), A(3, 2)),
    ("eigh_values", tf.linalg.eigvalsh, SPD),
    ("eigh_nonsymmetric", lambda x: tf.linalg.eigh(x)[0], SPD + np.triu(SQUARE, 1)),
    ("eigh_vectors", lambda x: tf.square(tf.linalg.eigh(x)[1]), SPD),
    ("expm", tf.linalg.expm, A(2, 2)),
    ("solve", tf.linalg.solve, SQUARE, A(3, 2)),
    ("solve_adjoint", lambda a, b: tf.linalg.solve(a, b, adjoint=True), SQUARE, A(3, 2)),
    ("triangular_solve", tf.linalg.triangular_solve, LOWER, A(3, 2)),
    ("triangular_solve_upper_adjoint", lambda a, b: tf.linalg.triangular_solve(
        a, b, lower=False, adjoint=True), LOWER.T.copy(), A(3, 2)),
    ("cholesky_solve", tf.linalg.cholesky_solve, np.linalg.cholesky(SPD), A(3, 2)),
    ("lstsq", tf.linalg.lstsq, A(4, 2, offset=0.1), A(4, 1)),
    ("lstsq_l2", lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5), A(4, 2, offset=0.1),
     A(4, 1)),
    ("norm", tf.norm, F(3., -4.)),
    ("norm_at_0", tf.norm, F(0., 0.)),
    ("norm_ord1", lambda x: tf.norm(x, ord=1), V),
    ("norm_inf_ties", lambda x: tf.norm(x, ord=np.inf), F(-3., 1., 3.)),
    ("norm_ord3", lambda x: tf.norm(x, ord=3), F(1., -2., 0.5)),
    ("norm_fro", lambda x: tf.norm(x, ord="fro", axis=[0, 1]), A(2, 3)),
    ("norm_matrix_1", lambda x: tf.norm(x, ord=1, axis=[0, 1]), A(2, 3)),
    ("norm_matrix_2", lambda x: tf.norm(x, ord=2, axis=[0, 1]), A(3, 2)),
    ("trace", tf.trace, A(3, 3)),
    ("matrix_transpose", tf.linalg.matrix_transpose, A(2, 3)),
    ("band_part", lambda x: tf.linalg.band_part(x, 1, 0), A(3, 3)),
    ("matrix_diag", tf.linalg.diag, F(1., 2., 3.)),
    ("matrix_diag_part", tf.linalg.diag_part, A(3, 3)),
    ("matrix_diag_part_k", lambda x: tf.linalg.diag_part(x, k=1), A(3, 3)),
    ("matrix_set_diag", tf.linalg.set_diag, A(3, 3), F(1., 2., 3.)),
    ("tensor_diag", tf.diag, A(2, 2)),
    ("tensor_diag_part", tf.diag_part, A(2, 2, 2, 2)),
    # images and signals
    ("resize_bilinear", lambda x: tf.image.resize_images(x, [3, 9]), IMG),
    ("resize_nearest", lambda x: tf.image.resize_images(
        x, [7, 4], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR), IMG),
    ("resize_bicubic", lambda x: tf.image.resize_images(
        x, [5, 8], method=tf.image.ResizeMethod.BICUBIC), IMG),
    ("crop_to_bounding_box", lambda x: tf.image.crop_to_bounding_box(x, 1, 2, 2, 3), IMG),
    ("pad_to_bounding_box", lambda x: tf.image.pad_to_bounding_box(x, 1, 0, 6, 7), IMG),
    ("resize_with_crop_or_pad", lambda x: tf.image.resize_image_with_crop_or_pad(x, 6, 3), IMG),
    ("central_crop", lambda x: tf.image.central_crop(x, 0.5), IMG[0]),
    ("flip_left_right", tf.image.flip_left_right, IMG),
    ("transpose_image", tf.image.transpose_image, IMG),
    ("rot90", lambda x: tf.image.rot90(x, 3), IMG),
    ("frame", lambda x: tf.signal.frame(x, 3, 2), A(2, 7)),
    ("frame_pad_end", lambda x, p: tf.signal.frame(x, 3, 2, pad_end=True, pad_value=p),
     A(6), F(1.)[0]),
    # second order: a gradient taken under an outer tape
    ("second_order_sqrt", _second_order(tf.sqrt), POS),
    ("second_order_reciprocal", _second_order(tf.reciprocal), POS),
    ("second_order_pow", _second_order(lambda x: tf.pow(x, 3.)), V),
    ("second_order_maximum", _second_order(lambda x: tf.maximum(x * x, 0.25)), V),
    ("second_order_abs", _second_order(lambda x: tf.abs(x) * x), V),
    ("second_order_cumprod", _second_order(lambda x: tf.cumprod(x)), F(1.5, -2., 3.)),
    ("second_order_segment_prod", _second_order(lambda x: tf.segment_prod(x, [0, 0, 0, 1])),
     F(2., 1.5, 3., 5.)),
    # complex values (TF's gradients are the conjugates of JAX's vjp)
    ("complex", tf.complex, F(1., 2.), F(-1., 0.5)),
    ("real_imag", lambda z: tf.real(z) * 2. + tf.imag(z), Z),
    ("conj", tf.conj, Z),
    ("complex_square", tf.square, Z),
    ("complex_abs", tf.abs, Z),
]


def gradients(case):
  """The case's gradients as (dtype name, shape, flat values) or None, per input."""
  _, fn, *inputs = case
  xs = [tf.constant(x) for x in inputs]
  with tf.GradientTape() as tape:
    for x in xs:
      if x.dtype.is_floating or x.dtype.is_complex:
        tape.watch(x)
    out = fn(*xs)
  outs = [o for o in (out if isinstance(out, (list, tuple)) else [out])
          if o.dtype.is_floating or o.dtype.is_complex]
  cots = [tf.constant(weights(o.numpy().shape, o.dtype.as_numpy_dtype)) for o in outs]
  grads = tape.gradient(outs, xs, output_gradients=cots)
  result = []
  for g in grads:
    if g is None:
      result.append(None)
    else:
      g = tf.convert_to_tensor(g)  # TF's IndexedSlices (gather) -> dense
      value = g.numpy()
      result.append((g.dtype.name, value.shape, value.reshape(-1).tolist()))
  return result


_computed = {}


def _gradients_of(case):
  """`gradients(case)`, computed once per case id (some tests check a case twice)."""
  if case[0] not in _computed:
    _computed[case[0]] = gradients(case)
  return _computed[case[0]]


def _assert_same(got, want, case_id):
  assert len(got) == len(want), case_id
  for i, (g, w) in enumerate(zip(got, want)):
    where = "%s input %d" % (case_id, i)
    if w is None or g is None:
      assert g is None and w is None, "%s: got %s, TF gives %s" % (where, g, w)
      continue
    assert g[0] == w[0], where
    assert tuple(g[1]) == tuple(w[1]), where
    np.testing.assert_allclose(np.array(g[2], np.complex128), np.array(w[2], np.complex128),
                               rtol=2e-5, atol=2e-6, err_msg=where)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_tf(case):
  _assert_same(_gradients_of(case), GOLDEN[case[0]], case[0])


def test_jacobian_of_guarded_sqrt():
  x = tf.constant(F(0.25, 1., 4.))
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sqrt(x)
  np.testing.assert_allclose(tape.jacobian(y, x).numpy(), np.diag(F(1., 0.5, 0.25)))


def test_every_case_has_golden_values():
  assert sorted(GOLDEN) == sorted(c[0] for c in CASES)


# BEGIN GOLDEN (generated with TensorFlow 2.21, tf.compat.v1)
GOLDEN = {
    "negative": [("float32", (6,), [-1., -1.5, -2., -2.5, -1., -1.5])],
    "abs": [("float32", (6,), [-1., -1.5, 0., 2.5, 1., 1.5])],
    "sign": [("float32", (6,), [0., 0., 0., 0., 0., 0.])],
    "square": [("float32", (6,), [-4., -1.5, 0., 2.5, 2., 9.])],
    "sqrt": [("float32", (4,), [inf, 1.5, 1., 0.625])],
    "rsqrt": [("float32", (4,), [-4., -2.12132, -1., -0.31622776])],
    "exp": [("float32", (6,), [0.13533528, 0.909796, 2., 4.1218033, 2.7182817, 30.128305])],
    "expm1": [("float32", (6,), [0.13533528, 0.909796, 2., 4.1218033, 2.7182817, 30.128305])],
    "log": [("float32", (4,), [4., 3., 2., 1.])],
    "log1p": [("float32", (4,), [2., 1.5, 1., 0.625])],
    "reciprocal": [("float32", (4,), [-0.25, -6., -8., -0.15625])],
    "reciprocal_no_nan": [("float32", (4,), [-0.25, 0., -8., -0.15625])],
    "sin": [("float32", (6,), [-0.41614684, 1.3163738, 2., 2.1939564, 0.54030228, -1.4849887])],
    "cos": [("float32", (6,), [0.90929741, 0.71913832, -0., -1.1985638, -0.84147096, -0.21168])],
    "tan": [("float32", (4,), [1.867872, 1.5977994, 2., 3.2461162])],
    "asin": [("float32", (4,), [1.511858, 1.5491934, 2., 2.8867512])],
    "acos": [("float32", (4,), [-1.511858, -1.5491934, -2., -2.8867512])],
    "atan": [("float32", (6,), [0.2, 1.2, 2., 2., 0.5, 0.15000001])],
    "sinh": [("float32", (6,), [3.7621958, 1.6914389, 2., 2.8190649, 1.5430806, 15.101494])],
    "cosh": [("float32", (6,), [-3.6268604, -0.78164291, 0., 1.3027382, 1.1752012, 15.026812])],
    "tanh": [("float32", (6,), [0.070650816, 1.1796716, 2., 1.9661194, 0.41997433, 0.014799178])],
    "asinh": [("float32", (6,), [0.44721365, 1.3416407, 2., 2.236068, 0.70710671, 0.4743416])],
    "acosh": [("float32", (3,), [0.89442706, 0.86602539, 0.51639783])],
    "atanh": [("float32", (4,), [2.2857144, 1.6000001, 2., 3.3333335])],
    "sigmoid": [("float32", (6,), [0.10499358, 0.35250553, 0.5, 0.58750927, 0.19661193,
        0.067764975])],
    "log_sigmoid": [("float32", (6,), [0.88079709, 0.933689, 1., 0.94385171, 0.26894143,
        0.071138814])],
    "erf": [("float32", (6,), [0.020666987, 1.3181739, 2.2567585, 2.1969566, 0.41510752,
        0.00020887957])],
    "erfc": [("float32", (6,), [-0.020666987, -1.3181739, -2.2567585, -2.1969566, -0.41510752,
        -0.00020887957])],
    "erfinv": [("float32", (4,), [1.7175, 1.3985674, 1.7724539, 2.7814622])],
    "ndtri": [("float32", (3,), [5.6980605, 3.7599425, 11.396113])],
    "lgamma": [("float32", (4,), [1.1031568, -2.9452662, -1.1544318, 2.7578921])],
    "digamma": [("float32", (4,), [9.5392466, 7.4022031, 3.2898681, 0.82589424])],
    "bessel_i0e": [("float32", (6,), [0.093239009, 0.73292184, 0., -1.2215364, -0.25784922,
        -0.069260448])],
    "bessel_i1e": [("float32", (6,), [-0.014395654, 0.26365936, 1., 0.43943226, 0.049938798,
        -0.02915293])],
    "bessel_i0": [("float32", (6,), [-1.5906372, -0.38684151, 0., 0.64473581, 0.56515908,
        5.9300566])],
    "bessel_i1": [("float32", (6,), [1.4842668, 0.8215422, 2., 1.3692369, 0.70090687, 5.3445039])],
    "round": [None],
    "rint": [None],
    "floor": [None],
    "ceil": [None],
    "add": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5]), ("float32", (6,), [1., 1.5, 2., 2.5,
        1., 1.5])],
    "subtract": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5]), ("float32", (6,), [-1., -1.5,
        -2., -2.5, -1., -1.5])],
    "multiply": [("float32", (6,), [3., 1.5, 1., 0., -0.5, -3.]), ("float32", (6,), [-2., -0.75,
        0., 1.25, 1., 4.5])],
    "divide": [("float32", (6,), [1., -0.75, 0.5, 5., 4., -1.5]), ("float32", (6,), [2., 0.1875,
        -0., -5., -16., -4.5])],
    "divide_no_nan": [("float32", (4,), [0., 0.375, 4., 0.]), ("float32", (4,), [0., 0.1875, -24.,
        0.])],
    "floormod": [("float32", (3,), [1., 1.5, 2.]), ("float32", (3,), [-1., 4.5, 4.])],
    "pow": [("float32", (7,), [-4., nan, 2., -inf, 0.70710677, 18., -0.14814815]), ("float32",
        (7,), [0., 0., 0., nan, -0.49012905, 8.3177662, 0.24413607])],
    "maximum": [("float32", (6,), [0., 1.5, 2., 0., 1., 1.5]), ("float32", (6,), [1., 0., 0., 2.5,
        0., 0.])],
    "minimum": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 0.]), ("float32", (6,), [0., 0., 0., 0.,
        0., 1.5])],
    "squared_difference": [("float32", (6,), [-10., -4.5, -2., 2.5, 3., 15.]), ("float32", (6,),
        [10., 4.5, 2., -2.5, -3., -15.])],
    "atan2": [("float32", (4,), [nan, 0., 0.60000002, -0.5]), ("float32", (4,), [nan, -1.5, 0.2,
        -1.])],
    "xdivy": [("float32", (3,), [0., 0.75, -0.5]), ("float32", (3,), [0., -0.375, -0.25])],
    "xlogy": [("float32", (3,), [0., 1.0397208, 2.7725887]), ("float32", (3,), [0., 0.75, 1.])],
    "multiply_no_nan": [("float32", (3,), [0., 0., 6.]), ("float32", (3,), [1., nan, 4.])],
    "igamma": [("float32", (3,), [-0.64720041, -0.33123818, -0.2129187]), ("float32", (3,),
        [0.48394147, 0.20300293, 0.36787945])],
    "igammac": [("float32", (3,), [0.64720041, 0.33123818, 0.2129187]), ("float32", (3,),
        [-0.48394147, -0.20300293, -0.36787945])],
    "betainc_x": [None, None, ("float32", (3,), [1.5, 2.25, 1.4702104])],
    "nextafter": [("float32", (2,), [1., 1.5]), ("float32", (2,), [0., 0.])],
    "zeta": [None, ("float32", (2,), [-2.404114, -0.37045455])],
    "polygamma": [None, ("float32", (2,), [-0.82879668, 0.7409091])],
    "truncatediv": [None, None],
    "relu_at_0": [("float32", (6,), [0., 0., 0., 2.5, 1., 1.5])],
    "maximum_tie_broadcast": [("float32", (6,), [0., 0., 2., 2.5, 1., 1.5]), ("float32", (1,),
        [2.5])],
    "minimum_tie_broadcast": [("float32", (6,), [1., 1.5, 2., 2.5, 0., 0.]), ("float32", (1,),
        [2.5])],
    "where_sqrt_mask": [("float32", (3,), [0., 0., 0.5])],
    "where_rsqrt_mask": [("float32", (3,), [0., 0., -0.125])],
    "where_reciprocal_mask": [("float32", (3,), [-1., 0., -0.125])],
    "where_log_mask": [("float32", (3,), [-0., nan, 0.5])],
    "where_pow_mask": [("float32", (3,), [nan, nan, 0.5])],
    "where_rows": [("float32", (2, 3), [1., 1.5, 2., 0., 0., 0.]), ("float32", (2, 3), [0., 0.,
        0., 2.5, 1., 1.5])],
    "where_v2_broadcast": [("float32", (6,), [0., 0., 0., 2.5, 1., 1.5]), ("float32", (1,), [4.5])],
    "clip_by_value_tensors": [("float32", (5,), [0., 1.5, 2., 2.5, 0.]), ("float32", (1,), [1.]),
        ("float32", (1,), [1.])],
    "clip_by_value_nan": [("float32", (2,), [0., 1.5]), ("float32", (1,), [1.]), ("float32", (1,),
        [0.])],
    "pow_scalar_exponent": [("float32", (6,), [-4., -1.5, 0., 2.5, 2., 9.])],
    "sqrt_norm_at_0": [("float32", (2,), [nan, nan])],
    "cast_f64": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "cast_f64_back": [("float64", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "cast_int_roundtrip": [("float32", (5,), [0., 0., 0., 0., 0.])],
    "cast_complex": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "floordiv": [None, None],
    "polyval": [("float32", (6,), [-9., -4.5, -2., 2.5, 3., 16.5])],
    "scalar_mul": [("float32", (), [4.]), ("float32", (6,), [2., 3., 4., 5., 2., 3.])],
    "lbeta": [("float32", (2, 2), [-1.5000001, -0.5, -4.6000013, -0.27055895])],
    "lin_space": [("float32", (), [2.6666665]), ("float32", (), [4.3333335])],
    "saturate_cast": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "int_source_cast": [None],
    "int_source_mixed": [("float32", (3,), [3., -1.5, 8.]), None],
    "int_target": [None],
    "int_gather": [("float32", (3,), [1., 3.5, 0.]), None],
    "argmax_path": [("float32", (6,), [0., 0., 0., 0., 0., 1.])],
    "reduce_sum_axis": [("float32", (2, 3), [1., 1., 1., 1.5, 1.5, 1.5])],
    "reduce_mean": [("float32", (2, 3, 2), [0.25, 0.25, 0.375, 0.375, 0.5, 0.5, 0.25, 0.25, 0.375,
        0.375, 0.5, 0.5])],
    "reduce_prod": [("float32", (3, 3), [6., 3., 2., 9., 0., 0., 0., 0., 0.])],
    "reduce_prod_all": [("float32", (2, 2), [-3., 2.25, -9., -1.5])],
    "reduce_logsumexp": [("float32", (2, 3), [0.090030573, 0.24472848, 0.66524094, 0., 0.75,
        0.75])],
    "reduce_max_ties": [("float32", (2, 3), [0., 0.5, 0.5, 0.5, 0.5, 0.5])],
    "reduce_min_ties": [("float32", (2, 3), [0.33333334, 0., 0.33333334, 0., 0.33333334, 0.])],
    "reduce_variance": [("float32", (3, 2), [-0.16666667, -0.25, 0., 0., 0.16666667, 0.25])],
    "reduce_std": [("float32", (2, 3), [-0.28755409, 0.46727538, -0.1797213, 0.26958191,
        -0.70091301, 0.4313311])],
    "reduce_euclidean_norm": [("float32", (2, 2), [0.60000002, 0.80000001, nan, nan])],
    "cumsum": [("float32", (2, 3), [4.5, 3.5, 2., 5., 2.5, 1.5])],
    "cumsum_exclusive": [("float32", (4,), [6., 4.5, 2.5, 0.])],
    "cumsum_reverse": [("float32", (4,), [1., 2.5, 4.5, 7.])],
    "cumsum_exclusive_reverse": [("float32", (4,), [0., 1., 2.5, 4.5])],
    "cumprod": [("float32", (4,), [-17.5, 14.25, -7.5, 0.])],
    "cumprod_reverse": [("float32", (4,), [-3., 4.5, -2., -9.5])],
    "cumprod_zero": [("float32", (2, 4), [1., 0., 0., 0., 0., 0., 0., 0.])],
    "cumprod_zero_exclusive_reverse": [("float32", (4,), [0., 0., 0.75, 6.5])],
    "cumulative_logsumexp": [("float32", (4,), [2.9422448, 0.096698694, 3.793421, 0.16763562])],
    "add_n": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5]), ("float32", (6,), [1., 1.5, 2., 2.5,
        1., 1.5]), ("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "accumulate_n": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5]), ("float32", (6,), [1., 1.5,
        2., 2.5, 1., 1.5])],
    "clip_by_norm": [("float32", (2,), [-0.016000018, 0.011999995])],
    "clip_by_norm_tie": [("float32", (2,), [-0.080000043, 0.059999943]), ("float32", (),
        [1.8000001])],
    "global_norm": [("float32", (2,), [0.54772258, 0.73029673]), ("float32", (2,), [0.18257418,
        -0.36514837])],
    "clip_by_global_norm": [("float32", (2,), [0.10954452, 0.20691746]), ("float32", (2,),
        [0.2799471, 0.7181251])],
    "clip_by_global_norm_tie": [("float32", (2,), [-0.079999924, 0.060000062]), ("float32", (),
        [1.8000001])],
    "clip_by_average_norm": [("float32", (2,), [-0.016000018, 0.011999995])],
    "segment_sum": [("float32", (4, 2), [1., 1.5, 1., 1.5, 2., 2.5, 1., 1.5])],
    "segment_mean": [("float32", (4, 2), [0.5, 0.75, 0.5, 0.75, 1., 1.25, 1., 1.25])],
    "segment_max_ties": [("float32", (4,), [0.5, 0., 0.5, 1.5])],
    "segment_min": [("float32", (4,), [0., 1., 1.5, 0.])],
    "segment_prod": [("float32", (4,), [1.5, 2., 7.5, 0.])],
    "unsorted_segment_sum": [("float32", (4, 2), [1., 1.5, 1., 1.5, 1., 1.5, 2., 2.5])],
    "unsorted_segment_mean": [("float32", (4, 2), [0.5, 0.75, 1., 1.5, 0.5, 0.75, 2., 2.5])],
    "unsorted_segment_max": [("float32", (4,), [0., 1., 0., 1.5])],
    "unsorted_segment_max_dropped": [("float32", (3,), [0.5, 0., 0.5])],
    "confusion_matrix_weights": [("float32", (3,), [1.5, 2.5, 2.])],
    "unsorted_segment_min": [("float32", (4,), [0.75, 1., 0.75, 0.])],
    "unsorted_segment_prod": [("float32", (4,), [15., 1., 15., 6.])],
    "unsorted_segment_sqrt_n": [("float32", (4,), [0.86602545, 1., 0.86602545, 0.86602545])],
    "matmul": [("float32", (2, 3), [0.125, 0.75, 1.375, -0.125, 1., 2.125]), ("float32", (3, 2),
        [-0.5, -1., -1.75, -2.125, 0.25, 0.])],
    "matmul_transpose_a": [("float32", (3, 2), [-1.125, -2.375, -0.5, -1.25, 0.125, -0.125]),
        ("float32", (3, 2), [-1., -1.625, -0.25, -0.625, 0.5, 0.375])],
    "matmul_transpose_b": [("float32", (2, 3), [0.875, 0.125, 2.625, 0.875, 0.125, 2.625]),
        ("float32", (4, 3), [-1., -0.75, -0.5, -1.5, -1.125, -0.75, -2., -1.5, -1., -2.5, -1.875,
        -1.25])],
    "matmul_batched": [("float32", (2, 2, 3), [0.125, 0.75, 1.375, -0.125, 1., 2.125, 0.125, 0.75,
        1.375, -0.125, 1., 2.125]), ("float32", (3, 2), [1.25, 1., -1.25, -1.25, 2.75, 3.])],
    "tensordot": [("float32", (2, 3), [-1.5, -1.25, -1., 0.25, 0.5, 0.75]), ("float32", (3, 2),
        [-1.5, 0.5, 0.25, -1., -1.25, 0.75])],
    "einsum_matmul": [("float32", (2, 3), [-1.125, -0.5, 0.125, -2.375, -1.25, -0.125]),
        ("float32", (3, 2), [-0.5, -1., -1.75, -2.125, 0.25, 0.])],
    "einsum_diagonal": [("float32", (3, 3), [1., 0., 0., 0., 1.5, 0., 0., 0., 2.])],
    "einsum_batch": [("float32", (2, 2, 3), [-1.125, -0.5, 0.125, -2.375, -1.25, -0.125, 0.75,
        1.375, 2., 1., 2.125, 3.25]), ("float32", (2, 3, 2), [-0.5, -1., -1.75, -2.125, 0.25, 0.,
        1.75, 2., 0.5, 0.875, 2.5, 3.])],
    "cross": [("float32", (2, 3), [2.875, 0.75, -2., -1.75, 2.125, 1.5]), ("float32", (2, 3),
        [-2.375, -1.75, 2.5, 2.25, -1.125, -3.])],
    "reshape": [("float32", (2, 3), [1., 1.5, 2., 2.5, 1., 1.5])],
    "transpose": [("float32", (2, 3, 2), [1., 2., 1.5, 2.5, 2., 1., 2.5, 1.5, 1., 2., 1.5, 2.5])],
    "expand_dims": [("float32", (2, 3), [1., 1.5, 2., 2.5, 1., 1.5])],
    "squeeze": [("float32", (1, 3), [1., 1.5, 2.])],
    "concat": [("float32", (2, 1), [2., 3.]), ("float32", (2, 3), [1.5, 2., 2.5, 2., 2.5, 1.])],
    "stack": [("float32", (2, 3), [1., 1.5, 2., 2., 2.5, 1.]), ("float32", (2, 3), [2.5, 1., 1.5,
        1.5, 2., 2.5])],
    "unstack": [("float32", (2, 3), [1., 1., 1., 1.5, 1.5, 1.5])],
    "split_sizes": [("float32", (2, 4), [1., 1., 1.5, 2., 1.5, 2.5, 1., 1.5])],
    "split_num": [("float32", (4, 2), [1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5])],
    "tile": [("float32", (2, 2), [8., 11., 10., 13.])],
    "pad_constant": [("float32", (2, 2), [1., 1.5, 1., 1.5])],
    "pad_constant_value": [("float32", (2,), [1.5, 2.]), None],
    "pad_reflect": [("float32", (3, 3), [1., 6.5, 4., 6., 16.5, 6., 1., 6.5, 4.])],
    "reverse": [("float32", (2, 3), [2., 1.5, 1., 1.5, 1., 2.5])],
    "fill_value": [("float32", (), [9.5])],
    "zeros_like": [None],
    "identity": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "identity_n": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5]), ("float32", (2,), [1., 1.5])],
    "stop_gradient": [None, ("float32", (6,), [-2., -0.75, 0., 1.25, 1., 4.5])],
    "placeholder_with_default": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "ensure_shape": [("float32", (6,), [1., 1.5, 2., 2.5, 1., 1.5])],
    "broadcast_to": [("float32", (3, 1), [7., 7., 7.])],
    "meshgrid": [("float32", (3,), [3.5, 2.5, 3.5]), ("float32", (2,), [4.5, 5.])],
    "one_hot_values": [None, None],
    "roll": [("float32", (2, 3), [1.5, 2.5, 1., 2., 1., 1.5])],
    "getitem_reverse": [("float32", (3, 4), [0., 0., 0., 0., 2.5, 2., 1.5, 1., 2.5, 2., 1.5, 1.])],
    "getitem_newaxis": [("float32", (3, 4), [0., 1., 0., 0., 0., 1.5, 0., 0., 0., 2., 0., 0.])],
    "strided_slice": [("float32", (3, 4), [0., 1., 0., 1.5, 0., 0., 0., 0., 0., 2., 0., 2.5])],
    "slice": [("float32", (3, 4), [0., 0., 0., 0., 1., 1.5, 2., 0., 2.5, 1., 1.5, 0.])],
    "gather_repeats": [("float32", (3, 2), [2., 2.5, 0., 0., 2., 3.])],
    "gather_axis1": [("float32", (2, 3), [1.5, 5.5, 0., 1.5, 5.5, 0.])],
    "gather_batch_dims": [("float32", (2, 3), [0., 1., 0., 1.5, 0., 0.])],
    "gather_nd": [("float32", (3, 2), [0., 3., 0., 0., 1.5, 0.])],
    "scatter_nd": [("float32", (3, 2), [2., 2.5, 2., 2.5, 2., 2.5])],
    "tensor_scatter_update": [("float32", (3, 2), [0., 0., 0., 0., 1., 1.5]), ("float32", (2, 2),
        [2., 2.5, 1., 1.5])],
    "tensor_scatter_add": [("float32", (3, 2), [1., 1.5, 2., 2.5, 1., 1.5]), ("float32", (2, 2),
        [2., 2.5, 2., 2.5])],
    "tensor_scatter_sub": [("float32", (3, 2), [1., 1.5, 2., 2.5, 1., 1.5]), ("float32", (2, 2),
        [-1., -1.5, -1., -1.5])],
    "boolean_mask": [("float32", (3, 2), [1., 1.5, 0., 0., 2., 2.5])],
    "reverse_sequence": [("float32", (2, 3), [1.5, 1., 2., 1.5, 1., 2.5])],
    "sort_ties": [("float32", (5,), [2.5, 1.5, 1., 1., 2.])],
    "sort_descending_ties": [("float32", (5,), [1., 2., 1.5, 1., 2.5])],
    "space_to_batch_nd": [("float32", (1, 4, 6, 2), [1., 1.5, 2., 2.5, 2., 2.5, 1., 1.5, 1., 1.5,
        2., 2.5, 1., 1.5, 2., 2.5, 2., 2.5, 1., 1.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 2., 2.5,
        1., 1.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 2., 2.5, 1., 1.5, 1., 1.5, 2., 2.5])],
    "batch_to_space_nd": [("float32", (2, 2, 3, 1), [0., 0., 0., 2., 2.5, 0., 1., 1.5, 0., 1.,
        1.5, 0.])],
    "depth_to_space": [("float32", (1, 2, 1, 8), [1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2.,
        2.5, 1., 1.5, 2., 2.5])],
    "space_to_depth": [("float32", (1, 4, 6, 2), [1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2.,
        2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2.,
        2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5])],
    "extract_image_patches": [("float32", (1, 4, 6, 2), [1., 1.5, 2., 2.5, 2., 3., 2., 2.5, 2.,
        3., 2., 2.5, 2., 2.5, 1., 1.5, 4., 5., 1., 1.5, 4., 5., 1., 1.5, 1., 1.5, 2., 2.5, 2., 3.,
        2., 2.5, 2., 3., 2., 2.5, 2., 2.5, 1., 1.5, 4., 5., 1., 1.5, 4., 5., 1., 1.5])],
    "matrix_inverse": [("float32", (3, 3), [-0.043999974, -0.05199999, -0.21200001, -0.40799999,
        -0.06400001, 0.016000008, -0.067999974, -0.14400001, -0.064000003])],
    "matrix_inverse_adjoint": [("float32", (3, 3), [0.042399999, -0.26480001, -0.27680004,
        -0.29920006, 0.038400002, -0.065599993, -0.13520001, -0.089600004, -0.013599999])],
    "det": [("float32", (3, 3), [13.000002, -1.0000001, -3.5000002, -4.0000005, 8.000001,
        3.0000002, 1.0000001, -2.0000002, 5.5000005])],
    "slogdet": [("float32", (3, 3), [0.52000004, -0.040000003, -0.14, -0.16000001, 0.32000002,
        0.12, 0.040000003, -0.080000006, 0.22])],
    "logdet": [("float32", (3, 3), [0.27941176, -0.088235296, -0.058823526, -0.088235296,
        0.36470589, -0.023529412, -0.058823526, -0.023529412, 0.51764709])],
    "cholesky": [("float32", (3, 3), [0.099709556, 0.46582374, 0.27067602, 0.46582374, 0.26799196,
        0.73742676, 0.27067602, 0.73742676, 0.35973847])],
    "cholesky_nonsymmetric": [("float32", (3, 3), [0.099709556, 0.46582374, 0.27067602,
        0.46582374, 0.26799196, 0.73742676, 0.27067602, 0.73742676, 0.35973847])],
    "qr_r": [("float32", (3, 3), [-0.47502917, 1.9819609, 1.235224, 3.1489818, 0.64562845,
        -0.46826911, 1.6668552, -0.8498041, 2.346262])],
    "svd_values": [("float32", (3, 2), [-0.94399172, -0.69039142, -0.51065689, 0.27523488,
        -0.077321902, 1.2408613])],
    "eigh_values": [("float32", (3, 3), [1.8249749, 0., 0., 0.42283449, 1.6305912, 0., 0.38175458,
        0.12274119, 1.044433])],
    "eigh_nonsymmetric": [("float32", (3, 3), [1.8249749, 0., 0., 0.42283449, 1.6305912, 0.,
        0.38175458, 0.12274119, 1.044433])],
    "eigh_vectors": [("float32", (3, 3), [0.049815048, 0., 0., 0.02297163, 0.01442248, 0.,
        -0.27234006, -0.0034165382, -0.064237542])],
    "expm": [("float32", (2, 2), [-0.39284599, -0.38189945, 1.636832, 2.8641772])],
    "solve": [("float32", (3, 3), [0.14840001, 0.035700001, -0.041299995, 0.31279999, 0.089399993,
        -0.044600002, 0.046799995, 0.0088999961, -0.020099999]), ("float32", (3, 2), [0.30000001,
        0.47, 0.60000002, 0.74000007, 0.099999994, 0.19])],
    "solve_adjoint": [("float32", (3, 3), [0.13940002, 0.3037, 0.18670003, -0.025199994,
        0.015399978, 0.0013999939, -0.016200002, 0.0098999888, 0.00089999661]), ("float32", (3,
        2), [0.24000001, 0.44, 0.51999998, 0.62, 0.32000002, 0.42000002])],
    "triangular_solve": [("float32", (3, 3), [0.10026042, 0., 0., 0.44270831, 0.078993052, 0.,
        0.140625, 0.018229168, -0.038411457]), ("float32", (3, 2), [0.1875, 0.32291663, 0.75,
        0.95833337, 0.25, 0.375])],
    "triangular_solve_upper_adjoint": [("float32", (3, 3), [0.10026042, 0.44270831, 0.140625, 0.,
        0.078993052, 0.018229168, 0., 0., -0.038411457]), ("float32", (3, 2), [0.1875, 0.32291663,
        0.75, 0.95833337, 0.25, 0.375])],
    "cholesky_solve": [("float32", (3, 3), [0.15808822, 0., 0., 0.41323531, 0.2633791, 0.,
        0.15882356, 0.0097548217, -0.17510793]), ("float32", (3, 2), [0.04411763, 0.11029413,
        0.61764711, 0.74411762, 0.41176474, 0.62941176])],
    "lstsq": [("float32", (4, 2), [0.98274183, 0.3366847, 2.0910361, 2.7449625, -2.2383828,
        -2.8547587, -1.1300886, -0.44648069]), ("float32", (4, 1), [-1.4799998, -0.44571424,
        0.58857131, 1.622857])],
    "lstsq_l2": [("float32", (4, 2), [-0.022829056, -0.5968408, 0.94939023, 1.231042, -1.0534507,
        -1.3282652, -0.081231296, 0.49961764]), ("float32", (4, 1), [-0.80909777, -0.24277079,
        0.32355618, 0.8898831])],
    "norm": [("float32", (2,), [0.60000002, -0.80000001])],
    "norm_at_0": [("float32", (2,), [nan, nan])],
    "norm_ord1": [("float32", (6,), [-1., -1., 0., 1., 1., 1.])],
    "norm_inf_ties": [("float32", (3,), [-0.5, 0., 0.5])],
    "norm_ord3": [("float32", (3,), [0.2290049, -0.91601962, 0.057251226])],
    "norm_fro": [("float32", (2, 3), [-0.62897086, 0.10482848, -0.52414238, 0.20965695,
        -0.41931391, 0.31448543])],
    "norm_matrix_1": [("float32", (2, 3), [-0.5, 0., -0.5, 0.5, -0., 0.5])],
    "norm_matrix_2": [("float32", (3, 2), [-0.59543437, 0.22638378, -0.53759134, 0.20439188,
        -0.47974822, 0.18239997])],
    "trace": [("float32", (3, 3), [1., 0., 0., 0., 1., 0., 0., 0., 1.])],
    "matrix_transpose": [("float32", (2, 3), [1., 2., 1., 1.5, 2.5, 1.5])],
    "band_part": [("float32", (3, 3), [1., 0., 0., 2.5, 1., 0., 0., 2.5, 1.])],
    "matrix_diag": [("float32", (3,), [1., 1., 1.])],
    "matrix_diag_part": [("float32", (3, 3), [1., 0., 0., 0., 1.5, 0., 0., 0., 2.])],
    "matrix_diag_part_k": [("float32", (3, 3), [0., 1., 0., 0., 0., 1.5, 0., 0., 0.])],
    "matrix_set_diag": [("float32", (3, 3), [0., 1.5, 2., 2.5, 0., 1.5, 2., 2.5, 0.]), ("float32",
        (3,), [1., 1., 1.])],
    "tensor_diag": [("float32", (2, 2), [1., 1.5, 2., 2.5])],
    "tensor_diag_part": [("float32", (2, 2, 2, 2), [1., 0., 0., 0., 0., 1.5, 0., 0., 0., 0., 2.,
        0., 0., 0., 0., 2.5])],
    "resize_bilinear": [("float32", (1, 4, 6, 2), [1.6666666, 2.3333333, 2., 2.6666667, 2.6666667,
        3.5, 1.9999998, 2.6666665, 2.333333, 3.1666663, 2.333334, 3.1666675, 1.5555555, 1.9999998,
        1.3333333, 1.7777776, 1.5555555, 2.1111109, 1.3333333, 1.7777777, 1.7777776, 2.333333,
        1.7777779, 2.3333335, 1.3333333, 1.7777777, 1.3333333, 1.7777777, 1.6666665, 2.2222219,
        1.3333333, 1.7777774, 1.6666664, 2.2222219, 1.6666669, 2.2222226, 1.1111112, 1.5555557,
        1.3333335, 1.7777779, 1.777778, 2.3333335, 1.3333333, 1.7777777, 1.5555555, 2.1111112,
        1.5555562, 2.1111119])],
    "resize_nearest": [("float32", (1, 4, 6, 2), [2., 3., 4., 5., 0., 0., 2., 3., 4., 5., 0., 0.,
        2., 3., 4., 5., 0., 0., 2., 3., 4., 5., 0., 0., 2., 3., 4., 5., 0., 0., 2., 3., 4., 5.,
        0., 0., 1., 1.5, 2., 2.5, 0., 0., 1., 1.5, 2., 2.5, 0., 0.])],
    "resize_bicubic": [("float32", (1, 4, 6, 2), [1.5008856, 2.1262546, 2.3634629, 3.1182187,
        2.2858307, 3.0211787, 2.0529349, 2.7904398, 2.2858307, 3.0211787, 2.7602484, 3.5883238,
        1.7296906, 2.4503946, 2.7237654, 3.5935814, 2.6342986, 3.4817476, 2.3658981, 3.2158322,
        2.6342983, 3.4817476, 3.1810396, 4.1353521, 1.6950979, 2.4013891, 2.669292, 3.5217118,
        2.5816145, 3.4121149, 2.3185821, 3.1515186, 2.5816143, 3.4121149, 3.1174214, 4.0526471,
        1.8712009, 2.6508679, 2.9466038, 3.8875813, 2.8498173, 3.7665985, 2.5594592, 3.4789281,
        2.8498173, 3.7665987, 3.4412892, 4.4736762])],
    "crop_to_bounding_box": [("float32", (1, 4, 6, 2), [0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
        0., 0., 0., 0., 0., 0., 1., 1.5, 2., 2.5, 1., 1.5, 0., 0., 0., 0., 0., 0., 2., 2.5, 1.,
        1.5, 2., 2.5, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.])],
    "pad_to_bounding_box": [("float32", (1, 4, 6, 2), [2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2.,
        2.5, 1., 1.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 2., 2.5, 1., 1.5, 2.,
        2.5, 1., 1.5, 2., 2.5, 1., 1.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5])],
    "resize_with_crop_or_pad": [("float32", (1, 4, 6, 2), [0., 0., 2., 2.5, 1., 1.5, 2., 2.5, 0.,
        0., 0., 0., 0., 0., 1., 1.5, 2., 2.5, 1., 1.5, 0., 0., 0., 0., 0., 0., 2., 2.5, 1., 1.5,
        2., 2.5, 0., 0., 0., 0., 0., 0., 1., 1.5, 2., 2.5, 1., 1.5, 0., 0., 0., 0.])],
    "central_crop": [("float32", (4, 6, 2), [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
        0., 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 0., 0., 0., 0., 1., 1.5, 2., 2.5, 1., 1.5, 2.,
        2.5, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.])],
    "flip_left_right": [("float32", (1, 4, 6, 2), [2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5,
        1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5,
        1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5, 2., 2.5, 1., 1.5])],
    "transpose_image": [("float32", (1, 4, 6, 2), [1., 1.5, 1., 1.5, 1., 1.5, 1., 1.5, 1., 1.5,
        1., 1.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 1., 1.5, 1., 1.5, 1., 1.5,
        1., 1.5, 1., 1.5, 1., 1.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5])],
    "rot90": [("float32", (1, 4, 6, 2), [2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 1.,
        1.5, 1., 1.5, 1., 1.5, 1., 1.5, 1., 1.5, 1., 1.5, 2., 2.5, 2., 2.5, 2., 2.5, 2., 2.5, 2.,
        2.5, 2., 2.5, 1., 1.5, 1., 1.5, 1., 1.5, 1., 1.5, 1., 1.5, 1., 1.5])],
    "frame": [("float32", (2, 7), [1., 1.5, 4.5, 1., 3.5, 2.5, 1., 1.5, 2., 3.5, 1.5, 4.5, 1.,
        1.5])],
    "frame_pad_end": [("float32", (6,), [1., 1.5, 4.5, 1., 3.5, 2.5]), None],
    "second_order_sqrt": [("float32", (4,), [-2., -1.0606602, -0.5, -0.15811388])],
    "second_order_reciprocal": [("float32", (4,), [128., 24., 4., 0.32000002])],
    "second_order_pow": [("float32", (6,), [-12., -4.5, 0., 7.5, 6., 27.])],
    "second_order_maximum": [("float32", (6,), [2., 3., 0., 5., 2., 3.])],
    "second_order_abs": [("float32", (6,), [-2., -3., 0., 5., 2., 3.])],
    "second_order_cumprod": [("float32", (3,), [1.9999995, 7., 0.24999988])],
    "second_order_segment_prod": [("float32", (4,), [7.5, 7., 4.5, 0.])],
    "complex": [("float32", (2,), [1., 1.5]), ("float32", (2,), [-0.5, -0.75])],
    "real_imag": [("complex64", (3,), [complex(2., 1.), complex(3., 1.5), complex(4., 2.)])],
    "conj": [("complex64", (3,), [complex(1., 0.5), complex(1.5, 0.75), complex(2., 1.)])],
    "complex_square": [("complex64", (3,), [complex(0., -5.), complex(-1.875, 0.), complex(14.,
        -2.)])],
    "complex_abs": [("complex64", (3,), [complex(0.44721359, 0.89442718), complex(-1.3416407,
        0.67082036), complex(1.8973665, -0.63245553)])],
}
# END GOLDEN
