"""tf.losses (TF1) and tf.keras.losses: values, reductions, weights, dtypes, errors and
gradients, checked against golden values recorded from the real TensorFlow."""
import numpy as np
import pytest

import tfe_compat as tf

L = tf.losses
K = tf.keras.losses

YT = np.array([[1.5, -2., 0.5], [0.1, 2., -1.]], np.float32)
LG = np.array([[1.5, -2., 0.3], [0.1, 4., -1.]], np.float32)
YP = np.array([[1.2, -1., 0.5], [0.7, 2.5, -3.]], np.float32)
PB = np.array([[0.2, 0.5, 0.3], [0.05, 0.0, 1.2]], np.float32)
OH = np.array([[0, 1, 0], [0, 0, 1]], np.float32)
BL = np.array([[0, 1, 1], [1, 0, 0]], np.float32)
ARRAYS = {"yt": YT, "yp": YP, "lg": LG, "pb": PB, "oh": OH, "bl": BL}
REDUCTIONS = [L.Reduction.NONE, L.Reduction.SUM, L.Reduction.MEAN,
              L.Reduction.SUM_OVER_BATCH_SIZE, L.Reduction.SUM_BY_NONZERO_WEIGHTS]
WEIGHTS = {"one": 1.0, "half": 0.5, "batch": [[0.5], [0.0]], "full": [[1., 0., 2.], [0.5, 0., 0.]]}
WEIGHTS_1D = {"one": 1.0, "half": 0.5, "batch": [0.5, 0.0], "full": [0.5, 0.0]}
WEIGHTS_COS = {"one": 1.0, "half": 0.5, "batch": [[0.5], [0.0]], "full": [[2.], [0.]]}
TF1_CALLS = {
    "absolute_difference": lambda w, r: L.absolute_difference(YT, YP, WEIGHTS[w], reduction=r),
    "mean_squared_error": lambda w, r: L.mean_squared_error(YT, YP, WEIGHTS[w], reduction=r),
    "log_loss": lambda w, r: L.log_loss(BL, PB * 0.8, WEIGHTS[w], reduction=r),
    "hinge_loss": lambda w, r: L.hinge_loss(BL, LG, WEIGHTS[w], reduction=r),
    "huber_loss": lambda w, r: L.huber_loss(YT, YP, WEIGHTS[w], delta=0.8, reduction=r),
    "sigmoid_cross_entropy": lambda w, r: L.sigmoid_cross_entropy(
        BL, LG, WEIGHTS[w], label_smoothing=0.1, reduction=r),
    "softmax_cross_entropy": lambda w, r: L.softmax_cross_entropy(
        OH, LG, WEIGHTS_1D[w], label_smoothing=0.2, reduction=r),
    "sparse_softmax_cross_entropy": lambda w, r: L.sparse_softmax_cross_entropy(
        [1, 2], LG, WEIGHTS_1D[w], reduction=r),
    "cosine_distance": lambda w, r: L.cosine_distance(
        YT / 3, YP / 3, axis=1, weights=WEIGHTS_COS[w], reduction=r),
}
SAMPLE_WEIGHTS = {"none": None, "half": 0.5, "vec": [0.3, 2.], "col": [[0.3], [2.]],
                  "zero": [0., 1.]}


def _close(tensor, expected, dtype=tf.float32):
  assert tensor.dtype == dtype
  np.testing.assert_allclose(tensor.numpy(), expected, rtol=2e-5, atol=2e-6)
  assert tensor.shape.as_list() == list(np.shape(expected))


# ---- golden values from TensorFlow 2.21 (tf.compat.v1.losses, tf_keras), 6 places ----
# (loss, weights key) -> values for the reductions NONE, SUM, MEAN, SUM_OVER_BATCH_SIZE,
# SUM_BY_NONZERO_WEIGHTS
TF1_GOLDEN = {('absolute_difference', 'batch'): [[[0.15, 0.5, 0.0], [0.0, 0.0, 0.0]], 0.65, 0.433333, 0.108333,
                                    0.216667],
 ('absolute_difference', 'full'): [[[0.3, 0.0, 0.0], [0.3, 0.0, 0.0]], 0.6, 0.171429, 0.1, 0.2],
 ('absolute_difference', 'half'): [[[0.15, 0.5, 0.0], [0.3, 0.25, 1.0]], 2.2, 0.733333, 0.366667,
                                   0.366667],
 ('absolute_difference', 'one'): [[[0.3, 1.0, 0.0], [0.6, 0.5, 2.0]], 4.4, 0.733333, 0.733333,
                                  0.733333],
 ('cosine_distance', 'batch'): [[[0.275], [0.0]], 0.275, 0.55, 0.1375, 0.275],
 ('cosine_distance', 'full'): [[[1.1], [0.0]], 1.1, 0.55, 0.55, 1.1],
 ('cosine_distance', 'half'): [[[0.275], [0.051667]], 0.326667, 0.326667, 0.163333, 0.163333],
 ('cosine_distance', 'one'): [[[0.55], [0.103333]], 0.653333, 0.326667, 0.326667, 0.326667],
 ('hinge_loss', 'batch'): [[[1.25, 1.5, 0.35], [0.0, 0.0, 0.0]], 3.1, 2.066667, 0.516667, 1.033333],
 ('hinge_loss', 'full'): [[[2.5, 0.0, 1.4], [0.45, 0.0, 0.0]], 4.35, 1.242857, 0.725, 1.45],
 ('hinge_loss', 'half'): [[[1.25, 1.5, 0.35], [0.45, 2.5, 0.0]], 6.05, 2.016667, 1.008333,
                          1.008333],
 ('hinge_loss', 'one'): [[[2.5, 3.0, 0.7], [0.9, 5.0, 0.0]], 12.1, 2.016667, 2.016667, 2.016667],
 ('huber_loss', 'batch'): [[[0.0225, 0.24, 0.0], [0.0, 0.0, 0.0]], 0.2625, 0.175, 0.04375, 0.0875],
 ('huber_loss', 'full'): [[[0.045, 0.0, 0.0], [0.09, 0.0, 0.0]], 0.135, 0.038571, 0.0225, 0.045],
 ('huber_loss', 'half'): [[[0.0225, 0.24, 0.0], [0.09, 0.0625, 0.64]], 1.055, 0.351667, 0.175833,
                          0.175833],
 ('huber_loss', 'one'): [[[0.045, 0.48, 0.0], [0.18, 0.125, 1.28]], 2.11, 0.351667, 0.351667,
                         0.351667],
 ('log_loss', 'batch'): [[[0.087177, 0.458145, 0.713558], [0.0, -0.0, 0.0]], 1.25888, 0.839253,
                         0.209813, 0.419627],
 ('log_loss', 'full'): [[[0.174353, 0.0, 2.854232], [1.609437, -0.0, 0.0]], 4.638022, 1.325149,
                        0.773004, 1.546007],
 ('log_loss', 'half'): [[[0.087177, 0.458145, 0.713558], [1.609437, -0.0, 1.609437]], 4.477754,
                        1.492585, 0.746292, 0.746292],
 ('log_loss', 'one'): [[[0.174353, 0.916291, 1.427116], [3.218873, -0.0, 3.218874]], 8.955507,
                       1.492585, 1.492585, 1.492585],
 ('mean_squared_error', 'batch'): [[[0.045, 0.5, 0.0], [0.0, 0.0, 0.0]], 0.545, 0.363333, 0.090833,
                                   0.181667],
 ('mean_squared_error', 'full'): [[[0.09, 0.0, 0.0], [0.18, 0.0, 0.0]], 0.27, 0.077143, 0.045,
                                  0.09],
 ('mean_squared_error', 'half'): [[[0.045, 0.5, 0.0], [0.18, 0.125, 2.0]], 2.85, 0.95, 0.475,
                                  0.475],
 ('mean_squared_error', 'one'): [[[0.09, 1.0, 0.0], [0.36, 0.25, 4.0]], 5.7, 0.95, 0.95, 0.95],
 ('sigmoid_cross_entropy', 'batch'): [[[0.813207, 1.013464, 0.284678], [0.0, 0.0, 0.0]], 2.111348,
                                      1.407565, 0.351891, 0.703783],
 ('sigmoid_cross_entropy', 'full'): [[[1.626413, 0.0, 1.13871], [0.324698, 0.0, 0.0]], 3.089822,
                                     0.882806, 0.51497, 1.029941],
 ('sigmoid_cross_entropy', 'half'): [[[0.813207, 1.013464, 0.284678],
                                      [0.324698, 1.909075, 0.181631]],
                                     4.526752, 1.508917, 0.754459, 0.754459],
 ('sigmoid_cross_entropy', 'one'): [[[1.626413, 2.026928, 0.569355], [0.649397, 3.81815, 0.363262]],
                                    9.053505, 1.508917, 1.508917, 1.508917],
 ('softmax_cross_entropy', 'batch'): [[1.699779, 0.0], 1.699779, 3.399558, 0.84989, 1.699779],
 ('softmax_cross_entropy', 'full'): [[1.699779, 0.0], 1.699779, 3.399558, 0.84989, 1.699779],
 ('softmax_cross_entropy', 'half'): [[1.699779, 2.309978], 4.009757, 4.009757, 2.004879, 2.004879],
 ('softmax_cross_entropy', 'one'): [[3.399558, 4.619956], 8.019514, 4.009757, 4.009757, 4.009757],
 ('sparse_softmax_cross_entropy', 'batch'): [[1.893112, 0.0], 1.893112, 3.786225, 0.946556,
                                             1.893112],
 ('sparse_softmax_cross_entropy', 'full'): [[1.893112, 0.0], 1.893112, 3.786225, 0.946556,
                                            1.893112],
 ('sparse_softmax_cross_entropy', 'half'): [[1.893112, 2.513311], 4.406424, 4.406424, 2.203212,
                                            2.203212],
 ('sparse_softmax_cross_entropy', 'one'): [[3.786225, 5.026622], 8.812847, 4.406424, 4.406424,
                                           4.406424]}
KERAS_FN_GOLDEN = [('mean_squared_error', 'yt', 'yp', {}, [0.363333, 1.536667]),
 ('mean_absolute_error', 'yt', 'yp', {}, [0.433333, 1.033333]),
 ('mean_absolute_percentage_error', 'yt', 'yp', {}, [23.333334, 275.0]),
 ('mean_squared_logarithmic_error', 'yt', 'yp', {}, [0.005447, 0.071088]),
 ('squared_hinge', 'bl', 'lg', {}, [5.246666, 8.603333]),
 ('hinge', 'bl', 'lg', {}, [2.066667, 1.966667]), ('hinge', 'yt', 'lg', {}, [0.283333, 0.33]),
 ('categorical_hinge', 'oh', 'lg', {}, [4.5, 6.0]),
 ('logcosh', 'yt', 'yp', {}, [0.159374, 0.538418]),
 ('kullback_leibler_divergence', 'oh', 'pb', {}, [0.693144, -1e-06]),
 ('poisson', 'yt', 'pb', {}, [0.876616, 11.322694]),
 ('cosine_similarity', 'yt', 'lg', {}, [-0.996962, -0.976009]),
 ('cosine_similarity', 'yt', 'lg', {'axis': 0}, [-1.0, -0.948683, -0.985212]),
 ('categorical_crossentropy', 'oh', 'pb', {}, [0.693147, 0.040822]),
 ('categorical_crossentropy', 'oh', 'pb', {'label_smoothing': 0.1}, [0.740718, 0.682666]),
 ('categorical_crossentropy', 'oh', 'lg', {'from_logits': True}, [3.786225, 5.026622]),
 ('categorical_crossentropy', 'oh', 'lg', {'from_logits': True, 'label_smoothing': 0.2},
  [3.399558, 4.619956]),
 ('binary_crossentropy', 'bl', 'pb', {}, [0.706754, 6.109656]),
 ('binary_crossentropy', 'bl', 'pb', {'label_smoothing': 0.1}, [0.715738, 6.062111]),
 ('binary_crossentropy', 'bl', 'lg', {'from_logits': True}, [1.460899, 1.658603]),
 ('binary_crossentropy', 'bl', 'lg', {'from_logits': True, 'label_smoothing': 0.2},
  [1.354232, 1.561936]),
 ('sparse_categorical_crossentropy', [1, 2], 'pb', {}, [0.693147, 0.04879]),
 ('sparse_categorical_crossentropy', [[1.0], [2.0]], 'pb', {}, [0.693147, 0.04879]),
 ('sparse_categorical_crossentropy', [1, 0], 'lg', {'from_logits': True}, [3.786225, 3.926622]),
 ('sparse_categorical_crossentropy', [1, 0, 1], 'lg', {'axis': 0, 'from_logits': True},
  [1.620417, 6.002476, 1.541008]),
 ('sparse_categorical_crossentropy', [[1, 2], [0, 0]],
  [[[0.20000000298023224, 0.5, 0.30000001192092896],
    [0.05000000074505806, 0.0, 1.2000000476837158]],
   [[0.05000000074505806, 0.0, 1.2000000476837158],
    [0.20000000298023224, 0.5, 0.30000001192092896]]],
  {}, [[0.693147, 0.04879], [3.044523, 1.609438]])]
KERAS_CLASS_GOLDEN = [('MeanSquaredError', {}, 'yt', 'yp', 'auto', 'none', 0.95),
 ('MeanSquaredError', {}, 'yt', 'yp', 'auto', 'half', 0.475),
 ('MeanSquaredError', {}, 'yt', 'yp', 'none', 'vec', [0.109, 3.073334]),
 ('MeanSquaredError', {}, 'yt', 'yp', 'none', 'none', [0.363333, 1.536667]),
 ('MeanSquaredError', {}, 'yt', 'yp', 'sum', 'col', 3.182333),
 ('MeanSquaredError', {}, 'yt', 'yp', 'sum', 'none', 1.9),
 ('MeanSquaredError', {}, 'yt', 'yp', 'sum_over_batch_size', 'zero', 0.768333),
 ('MeanSquaredError', {}, 'yt', 'yp', 'sum_over_batch_size', 'vec', 1.591167),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'auto', 'none', 0.733333),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'auto', 'half', 0.366667),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'none', 'vec', [0.13, 2.066667]),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'none', 'none', [0.433333, 1.033333]),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'sum', 'col', 2.196667),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'sum', 'none', 1.466667),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'sum_over_batch_size', 'zero', 0.516667),
 ('MeanAbsoluteError', {}, 'yt', 'yp', 'sum_over_batch_size', 'vec', 1.098333),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'auto', 'none', 149.166672),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'auto', 'half', 74.583336),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'none', 'vec', [7.0, 550.0]),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'none', 'none', [23.333334, 275.0]),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'sum', 'col', 557.0),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'sum', 'none', 298.333344),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'sum_over_batch_size', 'zero', 137.5),
 ('MeanAbsolutePercentageError', {}, 'yt', 'yp', 'sum_over_batch_size', 'vec', 278.5),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'auto', 'none', 0.038268),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'auto', 'half', 0.019134),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'none', 'vec', [0.001634, 0.142176]),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'none', 'none', [0.005447, 0.071088]),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'sum', 'col', 0.14381),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'sum', 'none', 0.076535),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'sum_over_batch_size', 'zero', 0.035544),
 ('MeanSquaredLogarithmicError', {}, 'yt', 'yp', 'sum_over_batch_size', 'vec', 0.071905),
 ('Hinge', {}, 'bl', 'lg', 'auto', 'none', 2.016667),
 ('Hinge', {}, 'bl', 'lg', 'auto', 'half', 1.008333),
 ('Hinge', {}, 'bl', 'lg', 'none', 'vec', [0.62, 3.933333]),
 ('Hinge', {}, 'bl', 'lg', 'none', 'none', [2.066667, 1.966667]),
 ('Hinge', {}, 'bl', 'lg', 'sum', 'col', 4.553333),
 ('Hinge', {}, 'bl', 'lg', 'sum', 'none', 4.033333),
 ('Hinge', {}, 'bl', 'lg', 'sum_over_batch_size', 'zero', 0.983333),
 ('Hinge', {}, 'bl', 'lg', 'sum_over_batch_size', 'vec', 2.276667),
 ('SquaredHinge', {}, 'bl', 'lg', 'auto', 'none', 6.925),
 ('SquaredHinge', {}, 'bl', 'lg', 'auto', 'half', 3.4625),
 ('SquaredHinge', {}, 'bl', 'lg', 'none', 'vec', [1.574, 17.206667]),
 ('SquaredHinge', {}, 'bl', 'lg', 'none', 'none', [5.246666, 8.603333]),
 ('SquaredHinge', {}, 'bl', 'lg', 'sum', 'col', 18.780666),
 ('SquaredHinge', {}, 'bl', 'lg', 'sum', 'none', 13.85),
 ('SquaredHinge', {}, 'bl', 'lg', 'sum_over_batch_size', 'zero', 4.301667),
 ('SquaredHinge', {}, 'bl', 'lg', 'sum_over_batch_size', 'vec', 9.390333),
 ('CategoricalHinge', {}, 'oh', 'lg', 'auto', 'none', 5.25),
 ('CategoricalHinge', {}, 'oh', 'lg', 'auto', 'half', 2.625),
 ('CategoricalHinge', {}, 'oh', 'lg', 'none', 'vec', [1.35, 12.0]),
 ('CategoricalHinge', {}, 'oh', 'lg', 'none', 'none', [4.5, 6.0]),
 ('CategoricalHinge', {}, 'oh', 'lg', 'sum', 'col', 13.35),
 ('CategoricalHinge', {}, 'oh', 'lg', 'sum', 'none', 10.5),
 ('CategoricalHinge', {}, 'oh', 'lg', 'sum_over_batch_size', 'zero', 3.0),
 ('CategoricalHinge', {}, 'oh', 'lg', 'sum_over_batch_size', 'vec', 6.675),
 ('LogCosh', {}, 'yt', 'yp', 'auto', 'none', 0.348896),
 ('LogCosh', {}, 'yt', 'yp', 'auto', 'half', 0.174448),
 ('LogCosh', {}, 'yt', 'yp', 'none', 'vec', [0.047812, 1.076835]),
 ('LogCosh', {}, 'yt', 'yp', 'none', 'none', [0.159374, 0.538418]),
 ('LogCosh', {}, 'yt', 'yp', 'sum', 'col', 1.124647),
 ('LogCosh', {}, 'yt', 'yp', 'sum', 'none', 0.697791),
 ('LogCosh', {}, 'yt', 'yp', 'sum_over_batch_size', 'zero', 0.269209),
 ('LogCosh', {}, 'yt', 'yp', 'sum_over_batch_size', 'vec', 0.562324),
 ('KLDivergence', {}, 'oh', 'pb', 'auto', 'none', 0.346571),
 ('KLDivergence', {}, 'oh', 'pb', 'auto', 'half', 0.173286),
 ('KLDivergence', {}, 'oh', 'pb', 'none', 'vec', [0.207943, -3e-06]),
 ('KLDivergence', {}, 'oh', 'pb', 'none', 'none', [0.693144, -1e-06]),
 ('KLDivergence', {}, 'oh', 'pb', 'sum', 'col', 0.207941),
 ('KLDivergence', {}, 'oh', 'pb', 'sum', 'none', 0.693143),
 ('KLDivergence', {}, 'oh', 'pb', 'sum_over_batch_size', 'zero', -1e-06),
 ('KLDivergence', {}, 'oh', 'pb', 'sum_over_batch_size', 'vec', 0.10397),
 ('Poisson', {}, 'yt', 'pb', 'auto', 'none', 6.099655),
 ('Poisson', {}, 'yt', 'pb', 'auto', 'half', 3.049828),
 ('Poisson', {}, 'yt', 'pb', 'none', 'vec', [0.262985, 22.645388]),
 ('Poisson', {}, 'yt', 'pb', 'none', 'none', [0.876616, 11.322694]),
 ('Poisson', {}, 'yt', 'pb', 'sum', 'col', 22.908373),
 ('Poisson', {}, 'yt', 'pb', 'sum', 'none', 12.19931),
 ('Poisson', {}, 'yt', 'pb', 'sum_over_batch_size', 'zero', 5.661347),
 ('Poisson', {}, 'yt', 'pb', 'sum_over_batch_size', 'vec', 11.454186),
 ('CosineSimilarity', {'axis': 0}, 'yt', 'lg', 'auto', 'none', -0.977965),
 ('CosineSimilarity', {'axis': 0}, 'yt', 'lg', 'auto', 'half', -0.488983),
 ('CosineSimilarity', {'axis': 0}, 'yt', 'lg', 'none', 'none', [-1.0, -0.948683, -0.985212]),
 ('CosineSimilarity', {'axis': 0}, 'yt', 'lg', 'sum', 'none', -2.933895),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'auto', 'none', 3.408205),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'auto', 'half', 1.704103),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'none', 'vec', [0.212026, 12.219312]),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'none', 'none', [0.706754, 6.109656]),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'sum', 'col', 12.431338),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'sum', 'none', 6.81641),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'sum_over_batch_size', 'zero', 3.054828),
 ('BinaryCrossentropy', {}, 'bl', 'pb', 'sum_over_batch_size', 'vec', 6.215669),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg', 'auto', 'none',
  1.508917),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg', 'auto', 'half',
  0.754459),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg', 'none', 'vec',
  [0.42227, 3.220539]),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg', 'none', 'none',
  [1.407565, 1.610269]),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg', 'sum', 'col',
  3.642808),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg', 'sum', 'none',
  3.017835),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg',
  'sum_over_batch_size', 'zero', 0.805135),
 ('BinaryCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'bl', 'lg',
  'sum_over_batch_size', 'vec', 1.821404),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'auto', 'none', 0.366985),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'auto', 'half', 0.183492),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'none', 'vec', [0.207944, 0.081644]),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'none', 'none', [0.693147, 0.040822]),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'sum', 'col', 0.289588),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'sum', 'none', 0.733969),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'sum_over_batch_size', 'zero', 0.020411),
 ('CategoricalCrossentropy', {}, 'oh', 'pb', 'sum_over_batch_size', 'vec', 0.144794),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg', 'auto',
  'none', 4.20809),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg', 'auto',
  'half', 2.104045),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg', 'none',
  'vec', [1.077867, 9.646578]),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg', 'none',
  'none', [3.592891, 4.823289]),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg', 'sum',
  'col', 10.724445),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg', 'sum',
  'none', 8.41618),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg',
  'sum_over_batch_size', 'zero', 2.411644),
 ('CategoricalCrossentropy', {'from_logits': True, 'label_smoothing': 0.1}, 'oh', 'lg',
  'sum_over_batch_size', 'vec', 5.362223),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'auto', 'none', 0.370969),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'auto', 'half', 0.185484),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'none', 'vec', [0.207944, 0.09758]),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'none', 'none', [0.693147, 0.04879]),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'sum', 'col', 0.305525),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'sum', 'none', 0.741937),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'sum_over_batch_size', 'zero', 0.024395),
 ('SparseCategoricalCrossentropy', {}, [1, 2], 'pb', 'sum_over_batch_size', 'vec', 0.152762),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'auto', 'none',
  3.856423),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'auto', 'half',
  1.928212),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'none', 'vec',
  [1.135867, 7.853245]),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'none', 'none',
  [3.786225, 3.926622]),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'sum', 'col', 8.989112),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'sum', 'none',
  7.712847),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'sum_over_batch_size',
  'zero', 1.963311),
 ('SparseCategoricalCrossentropy', {'from_logits': True}, [[1], [0]], 'lg', 'sum_over_batch_size',
  'vec', 4.494556)]
HUBER_ELEMENTWISE = [[0.045, 0.48, 0.0], [0.18, 0.125, 1.28]]


# ---- tf.losses ----
@pytest.mark.parametrize("name,weights", sorted(TF1_GOLDEN))
def test_tf1_losses_golden(name, weights):
  for reduction, expected in zip(REDUCTIONS, TF1_GOLDEN[(name, weights)]):
    _close(TF1_CALLS[name](weights, reduction), expected)


def test_tf1_default_reduction_and_signatures():
  assert L.Reduction.all() == ("none", "weighted_sum", "weighted_mean",
                               "weighted_sum_over_batch_size", "weighted_sum_by_nonzero_weights",
                               "weighted_sum_by_nonzero_weights")
  _close(L.absolute_difference(YT, YP), 0.733333)  # SUM_BY_NONZERO_WEIGHTS
  _close(L.log_loss(BL, PB * 0.8, epsilon=1e-3), 1.482881)
  _close(L.cosine_distance(YT / 3, YP / 3, dim=1), 0.326667)
  with pytest.raises(ValueError, match="Invalid Reduction Key bad"):
    L.Reduction.validate("bad")


def test_tf1_dtypes():
  a = np.array([[1., 2., 3.], [4., 5., 6.]])
  _close(L.mean_squared_error(a, a + 1), 1.0)  # float64 in: cast to float32
  _close(L.mean_squared_error([1, 2], [3, 5]), 6.5)
  _close(L.sigmoid_cross_entropy(a, a + 1), -14.132706, dtype=tf.float64)
  _close(L.softmax_cross_entropy(a, a + 1), 12.779863, dtype=tf.float64)
  _close(L.sparse_softmax_cross_entropy(np.array([0, 1], np.int64), a), 1.907606,
         dtype=tf.float64)
  out = L.compute_weighted_loss([1, 2, 3])
  assert out.dtype == tf.int32 and out.numpy() == 2
  _close(L.compute_weighted_loss(a / 3), 1.1666666269302368, dtype=tf.float64)
  _close(L.compute_weighted_loss((a / 3).astype(np.float16)), 1.167, dtype=tf.float16)


def test_tf1_edge_cases():
  a = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
  _close(L.mean_squared_error(a, a + 1, weights=0.), 0.)
  _close(L.mean_squared_error(a, a + 1, weights=[[1.], [-1.]], reduction=L.Reduction.MEAN), 0.)
  _close(L.sparse_softmax_cross_entropy([[0], [1]], a), 1.907606)
  _close(L.sparse_softmax_cross_entropy([0, 1], a, weights=[[1.], [2.]]), 2.611409)
  _close(L.softmax_cross_entropy([[0, 1, 0]], a[:1], label_smoothing=0.1), 1.407606)
  _close(L.hinge_loss([0, 1, 1], a[0], weights=[1, 2, 3]), 0.666667)
  _close(L.cosine_distance(a, a, dim=1, reduction="none"), [[-13.], [-76.]])


@pytest.mark.parametrize("weights,expected", [
    (1.0, 333.06665), ([[1.], [2.]], 343.99991), (2., 666.1333), ([[0.], [2.]], 325.33325),
    ([[1., 0, 1], [2., 1, 0]], -2836.0)])
def test_mean_pairwise_squared_error(weights, expected):
  a = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
  _close(L.mean_pairwise_squared_error(a, a * a, weights=weights), expected)


def test_mean_pairwise_squared_error_rank1():
  a = np.array([1., 2., 3.], np.float32)
  _close(L.mean_pairwise_squared_error(a, a * a), 26.666666)


def test_tf1_errors():
  a = np.ones((2, 3), np.float32)
  with pytest.raises(ValueError, match=r"Shapes \(2, 2\) and \(2, 3\) are incompatible"):
    L.mean_squared_error(a, a[:, :2])
  with pytest.raises(ValueError, match=r"Shapes \(2, 2\) and \(2, 3\) are incompatible"):
    L.softmax_cross_entropy(a, a[:, :2])
  with pytest.raises(ValueError, match=r"Shapes \(2, 2\) and \(2, 3\) are incompatible"):
    L.sigmoid_cross_entropy(a, a[:, :2])
  with pytest.raises(ValueError, match="weights can not be broadcast to values. values.rank=2. "
                     r"weights.rank=1. values.shape=\(2, 3\). weights.shape=\(2,\)"):
    L.mean_squared_error(a, a, weights=[1., 2.])
  with pytest.raises(ValueError, match="Mismatch at dim 1"):
    L.mean_squared_error(a, a, weights=[[1., 2.]])
  with pytest.raises(ValueError, match="must not be None"):
    L.mean_squared_error(None, a)
  with pytest.raises(ValueError, match="must not be None"):
    L.hinge_loss(a, None)
  with pytest.raises(ValueError, match="axis"):
    L.cosine_distance(a, a)
  with pytest.raises(ValueError, match="Cannot specify both"):
    L.cosine_distance(a, a, axis=1, dim=1)
  with pytest.raises(ValueError, match="Invalid Reduction Key"):
    L.compute_weighted_loss(a, reduction="bad")
  with pytest.raises(ValueError, match="should equal the shape of logits"):
    L.sparse_softmax_cross_entropy([0, 1, 2], a)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"label value of 5 which is outside the valid range of \[0, 3\)"):
    L.sparse_softmax_cross_entropy([0, 5], a)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Can not squeeze dim"):
    L.sparse_softmax_cross_entropy([0, 1], a, weights=[[1., 2], [2., 3]])
  with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension"):
    L.cosine_distance(a, a, axis=3)


def test_collections_are_empty_in_eager_mode():
  assert tf.GraphKeys.LOSSES == "losses"
  assert tf.GraphKeys.REGULARIZATION_LOSSES == "regularization_losses"
  assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"
  assert tf.GraphKeys.GLOBAL_VARIABLES == "variables"
  loss = L.mean_squared_error([1., 2.], [2., 4.])
  L.add_loss(loss)
  assert L.get_losses() == [] and L.get_regularization_losses() == []
  _close(L.get_regularization_loss(), 0.)
  with pytest.raises(ValueError, match="at least one Tensor"):
    L.get_total_loss()


# ---- tf.keras.losses ----
@pytest.mark.parametrize("row", KERAS_FN_GOLDEN, ids=lambda r: r[0])
def test_keras_functions_golden(row):
  name, y_true, y_pred, kwargs, expected = row
  y_true, y_pred = (ARRAYS[y] if isinstance(y, str) else np.array(y) for y in (y_true, y_pred))
  _close(getattr(K, name)(y_true, y_pred.astype(np.float32), **kwargs), expected)


@pytest.mark.parametrize("row", KERAS_CLASS_GOLDEN, ids=lambda r: "%s-%s-%s" % (r[0], r[4], r[5]))
def test_keras_classes_golden(row):
  name, kwargs, y_true, y_pred, reduction, weights, expected = row
  y_true = ARRAYS[y_true] if isinstance(y_true, str) else np.array(y_true)
  loss = getattr(K, name)(reduction=reduction, **kwargs)
  _close(loss(tf.constant(y_true), tf.constant(ARRAYS[y_pred]),
              sample_weight=SAMPLE_WEIGHTS[weights]), expected)


def test_keras_huber_is_elementwise_as_in_tf_1_15():
  hub = np.array(HUBER_ELEMENTWISE)
  _close(K.Huber(delta=0.8, reduction="none")(YT, YP), hub)
  _close(K.Huber(delta=0.8)(YT, YP), hub.mean())
  _close(K.Huber(delta=0.8, reduction=K.Reduction.SUM)(YT, YP, sample_weight=[0.3, 2.]),
         (hub * [[0.3], [2.]]).sum())


def test_keras_aliases_dtypes_and_reduction():
  assert K.mse is K.MSE is K.mean_squared_error and K.kld is K.kullback_leibler_divergence
  assert K.cosine_proximity is K.cosine_similarity
  assert K.Reduction.all() == ("auto", "none", "sum", "sum_over_batch_size")
  with pytest.raises(ValueError, match="Invalid Reduction Key"):
    K.MeanSquaredError(reduction="weighted_sum")
  out = K.mean_squared_error(YT.astype(np.float64), YP.astype(np.float64))
  _close(out, [0.363333, 1.536667], dtype=tf.float64)
  _close(K.MeanSquaredError()(YT.astype(np.float64), YP.astype(np.float64)), 0.95,
         dtype=tf.float64)
  _close(K.mean_squared_error(YT[:, :1], YP), [2.446667, 5.243333])  # broadcasting
  _close(K.MeanSquaredError()(tf.constant(YT[:, :1]), tf.constant(YP[:, :1])), 0.225)


def test_keras_errors():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Incompatible shapes: \[2,3\] vs. \[2,2\] \[Op:SquaredDifference\]"):
    K.mean_squared_error(YT[:, :2], YP)
  for fn in (K.categorical_crossentropy, tf.keras.backend.categorical_crossentropy):
    for from_logits in (True, False):  # tf-keras checks the shapes first
      with pytest.raises(ValueError, match=r"Shapes \(2, 2\) and \(2, 3\) are incompatible"):
        fn(OH[:, :2], LG, from_logits=from_logits)
  assert K.categorical_crossentropy(OH[:1], LG).shape == (2,)  # broadcasts, as in TF 1.15
  with pytest.raises(ValueError, match="must have the same shape"):
    K.binary_crossentropy(OH[:, :2], LG, from_logits=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="label value of 3"):
    K.sparse_categorical_crossentropy(np.array([1, 3]), PB)
  with pytest.raises(ValueError, match="weights can not be broadcast to values"):
    K.MeanSquaredError()(tf.constant(YT), tf.constant(YP), sample_weight=[1., 2., 3.])
  with pytest.raises(tf.errors.InvalidArgumentError, match="Can not squeeze dim"):
    K.MeanSquaredError()(tf.constant(YT), tf.constant(YP), sample_weight=np.ones((2, 3)))


def test_keras_get_serialize_deserialize():
  assert K.get("mse") is K.mean_squared_error
  assert K.get("categorical_crossentropy") is K.categorical_crossentropy
  assert K.get(None) is None and K.get(K.hinge) is K.hinge
  assert isinstance(K.get("MeanSquaredError"), K.MeanSquaredError)
  loss = K.BinaryCrossentropy(from_logits=True, label_smoothing=0.1, reduction="sum")
  config = K.serialize(loss)
  assert config == {"class_name": "BinaryCrossentropy", "config": {
      "reduction": "sum", "name": "binary_crossentropy", "from_logits": True,
      "label_smoothing": 0.1}}
  restored = K.get(config)
  assert isinstance(restored, K.BinaryCrossentropy) and restored.reduction == "sum"
  _close(restored(BL, LG), loss(BL, LG).numpy())
  assert K.serialize(K.poisson) == "poisson" and K.deserialize("poisson") is K.poisson
  with pytest.raises(ValueError, match="Unknown loss function"):
    K.get("nope")
  with pytest.raises(ValueError, match="Could not interpret loss function identifier"):
    K.get(3)


def test_keras_loss_subclass():
  class Scaled(K.Loss):
    def call(self, y_true, y_pred):
      return tf.reduce_mean(tf.square(y_pred - y_true), axis=-1) * 2.

  _close(Scaled()(YT, YP, sample_weight=[1., 0.]), 0.363333)
  assert Scaled(name="s").get_config() == {"reduction": "auto", "name": "s"}
  with pytest.raises(NotImplementedError):
    K.Loss()(YT, YP)


# ---- gradients (golden values from TF's GradientTape) ----
W_COL = np.array([[0.5], [2.]], np.float32)
GRADIENT_CASES = {
    "log_loss": (lambda p, w: L.log_loss(BL, p * p / 20, weights=w), 3.68151,
                 [[0.01408, 0.08333, -0.55554], [-6.66533, 0.66667, -0.03509]],
                 [[1.18874], [1.54357]]),
    "absdiff": (lambda p, w: L.absolute_difference(YT, p, weights=w), 0.68333,
                [[0.0, 0.0, -0.08333], [0.0, 0.33333, 0.0]], [[0.03333], [0.33333]]),
    "softmax": (lambda p, w: L.softmax_cross_entropy(OH, p, weights=tf.reshape(w, [2]),
                                                     label_smoothing=0.1), 5.72151,
                [[0.17944, -0.22766, 0.04822], [-0.01362, 0.9404, -0.92677]],
                [[1.79645], [2.41164]]),
    "sparse": (lambda p, w: L.sparse_softmax_cross_entropy([1, 2], p, weights=w), 5.97318,
               [[0.18777, -0.24433, 0.05656], [0.01971, 0.97373, -0.99344]],
               [[1.89311], [2.51331]]),
    "mpse": (lambda p, w: L.mean_pairwise_squared_error(YT, p, weights=w), 5.34667,
             [[0.06667, 0.06667, -0.13333], [-2.66667, 5.33333, -2.66667]],
             [[0.02667], [2.66667]]),
    "k_cce": (lambda p, w: K.CategoricalCrossentropy()(OH, p * p / 10, sample_weight=w),
              2.94895, [[0.1183, 0.09227, 0.02366], [0.01176, 0.47031, 1.88242]],
              [[0.23029], [1.4169]]),
    "k_bce": (lambda p, w: K.BinaryCrossentropy()(BL, p * p / 16, sample_weight=w), 8.15166,
              [[0.01818, 0.08333, -0.55555], [-6.6656, 0.0, -0.04444]],
              [[1.11973], [3.7959]]),
    "k_scce": (lambda p, w: K.SparseCategoricalCrossentropy()(np.array([1, 2]), p * p / 10,
                                                              sample_weight=w), 2.51395,
               [[0.1183, 0.09227, 0.02366], [0.01817, 0.0, 1.81835]], [[0.23029], [1.1994]]),
    "k_hinge": (lambda p, w: K.Hinge()(BL, p, sample_weight=w), 2.48333,
                [[0.08333, -0.08333, -0.08333], [-0.33333, 0.33333, 0.33333]],
                [[1.03333], [0.98333]]),
    "k_cos": (lambda p, w: K.CosineSimilarity()(YT, p, sample_weight=w), -1.22525,
              [[0.00055, -0.00074, -0.00768], [-0.00509, 0.01286, 0.05095]],
              [[-0.49848], [-0.488]]),
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradients_match_tf(name):
  fn, value, grad_p, grad_w = GRADIENT_CASES[name]
  p, w = tf.Variable(LG), tf.Variable(W_COL)
  with tf.GradientTape() as tape:
    loss = fn(p, w * 1.0)
  gp, gw = tape.gradient(loss, [p, w])
  np.testing.assert_allclose(loss.numpy(), value, rtol=1e-5, atol=1e-5)
  np.testing.assert_allclose(gp.numpy(), grad_p, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(gw.numpy(), grad_w, rtol=1e-4, atol=1e-5)


def test_softmax_cross_entropy_stops_label_gradient():
  labels = tf.Variable(OH)
  with tf.GradientTape() as tape:
    loss = L.softmax_cross_entropy(labels * 1.0, LG)
  assert tape.gradient(loss, labels) is None
