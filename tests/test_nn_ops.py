"""tf.nn (nn_ops, conv_ops, nn_impl) against golden values computed with real TensorFlow.

Every golden value below was produced by `tf.compat.v1.nn.*` of TensorFlow (run separately;
these tests never import tensorflow). Small outputs are compared in full; larger ones
through their shape, dtype, first values and a position-weighted checksum.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.framework.tensor import Tensor


def A(*shape, dtype=np.float32, scale=0.1, offset=0.0):
  """Deterministic inputs: (i * 7 % 13 - 6) * scale + offset, reshaped."""
  n = int(np.prod(shape))
  return ((np.arange(n) * 7 % 13 - 6) * scale + offset).astype(dtype).reshape(shape)


def pattern(shape):
  """The weights of the checksums (and of the losses whose gradients are checked)."""
  n = int(np.prod(shape))
  return ((np.arange(n) % 5) + 1).astype(np.float32).reshape(shape) / 3


X = np.array([[-3., -1., 0., 0.5, 2., 6., 7.5]], np.float32)
IMG = A(2, 5, 7, 3)
W = A(3, 3, 3, 4, scale=0.05)


def F(*values):
  return np.array(values, np.float32)


def I(*values):
  return np.array(values, np.int32)


SCALE, OFFSET = F(1., 2., 0.5), F(0., 1., 2.)
Z = F(0., 1., 0.5, 1., 0., 1.)
LOGITS = F(-30., -1., 0., 0.5, 2., 40.)
SOFT = F([0.2, 0.3, 0.5, 0.], [0.1, 0.1, 0.1, 0.7], [1, 0, 0, 0])
DW = A(3, 3, 3, 2, scale=0.05)
PW = A(1, 1, 6, 4, scale=0.05)
TW = A(3, 3, 4, 2, scale=0.05)


def _cases():
  nn = tf.nn
  c = {}
  c["relu"] = lambda: nn.relu(X)
  c["relu6"] = lambda: nn.relu6(X)
  c["relu6_int"] = lambda: nn.relu6(I(-2, 3, 9))
  c["elu"] = lambda: nn.elu(X)
  c["selu"] = lambda: nn.selu(X)
  c["leaky_relu"] = lambda: nn.leaky_relu(X)
  c["leaky_relu_a"] = lambda: nn.leaky_relu(X, alpha=0.1)
  c["leaky_relu_int"] = lambda: nn.leaky_relu(I(-2, 3))
  c["crelu"] = lambda: nn.crelu(A(2, 3))
  c["crelu_ax0"] = lambda: nn.crelu(A(2, 3), axis=0)
  c["softplus"] = lambda: nn.softplus(X)
  c["softsign"] = lambda: nn.softsign(X)
  c["swish"] = lambda: nn.swish(X)
  c["softmax"] = lambda: nn.softmax(A(2, 4))
  c["softmax_ax0"] = lambda: nn.softmax(A(2, 4), axis=0)
  c["softmax_dim0"] = lambda: nn.softmax(A(2, 4), dim=0)
  c["log_softmax"] = lambda: nn.log_softmax(A(2, 4))
  c["log_softmax_f64"] = lambda: nn.log_softmax(A(2, 4, dtype=np.float64))
  c["bias_add"] = lambda: nn.bias_add(A(2, 3), F(1., 2., 3.))
  c["bias_add_nchw"] = lambda: nn.bias_add(A(2, 3, 2, 2), F(1., 2., 3.), data_format="NCHW")
  c["l2_normalize"] = lambda: nn.l2_normalize(A(2, 3), axis=1)
  c["l2_normalize_all"] = lambda: nn.l2_normalize(A(2, 3))
  c["l2_normalize_dim0"] = lambda: nn.l2_normalize(A(2, 3), dim=0)
  c["l2_loss"] = lambda: nn.l2_loss(A(2, 3))
  c["moments"] = lambda: nn.moments(A(2, 3, 4), axes=[0, 1])
  c["moments_keep"] = lambda: nn.moments(A(2, 3, 4), axes=[1], keep_dims=True)
  c["moments_int"] = lambda: nn.moments(I(1, 2, 4, -7), axes=[0])
  c["batch_norm"] = lambda: nn.batch_normalization(A(2, 3), F(0.1, 0.2, 0.3), SCALE, OFFSET,
                                                   F(2., 1., 0.5), 1e-3)
  c["batch_norm_none"] = lambda: nn.batch_normalization(A(2, 3), 0.5, 2.0, None, None, 1e-3)
  c["bn_global"] = lambda: nn.batch_norm_with_global_normalization(
      A(2, 3), F(0.1, 0.2, 0.3), SCALE, OFFSET, F(2., 1., 0.5), 1e-3, True)
  c["bn_global_noscale"] = lambda: nn.batch_norm_with_global_normalization(
      A(2, 3), F(0.1, 0.2, 0.3), SCALE, OFFSET, F(2., 1., 0.5), 1e-3, False)
  c["fbn_train"] = lambda: nn.fused_batch_norm(A(2, 3, 2, 3), SCALE, OFFSET)
  c["fbn_train_nchw"] = lambda: nn.fused_batch_norm(A(2, 3, 2, 3), SCALE, OFFSET,
                                                    data_format="NCHW")
  c["fbn_infer"] = lambda: nn.fused_batch_norm(A(2, 3, 2, 3), SCALE, OFFSET,
                                               mean=F(0.1, 0., -0.1), variance=F(1., 2., 3.),
                                               is_training=False)
  c["fbn_half"] = lambda: nn.fused_batch_norm(A(2, 3, 2, 3, dtype=np.float16), SCALE, OFFSET)
  c["emb"] = lambda: nn.embedding_lookup(A(5, 3), I([0, 4], [2, 2]))
  c["emb_maxnorm"] = lambda: nn.embedding_lookup(A(5, 3, scale=1.), I(0, 4, 1), max_norm=1.5)
  P = lambda: [A(3, 2), A(2, 2, offset=10.), A(2, 2, offset=20.)]
  c["emb_mod"] = lambda: nn.embedding_lookup(P(), I(0, 1, 2, 3, 4, 5, 6))
  c["emb_div"] = lambda: nn.embedding_lookup(P(), np.array([[0, 1, 2], [3, 4, 6]], np.int64),
                                             partition_strategy="div")
  c["emb_div_maxnorm"] = lambda: nn.embedding_lookup(P(), np.array([5, 0], np.int64),
                                                     partition_strategy="div", max_norm=1.)
  c["conv2d_same"] = lambda: nn.conv2d(IMG, W, strides=[1, 1, 1, 1], padding="SAME")
  c["conv2d_same_s2"] = lambda: nn.conv2d(IMG, W, strides=2, padding="SAME")
  c["conv2d_valid_s2"] = lambda: nn.conv2d(IMG, W, strides=[1, 2, 2, 1], padding="VALID")
  c["conv2d_s12"] = lambda: nn.conv2d(IMG, W, strides=[1, 2], padding="SAME")
  c["conv2d_dil"] = lambda: nn.conv2d(IMG, W, strides=1, padding="SAME", dilations=[1, 2, 2, 1])
  c["conv2d_explicit"] = lambda: nn.conv2d(IMG, W, strides=1,
                                           padding=[[0, 0], [1, 0], [2, 1], [0, 0]])
  c["conv2d_int"] = lambda: nn.conv2d(np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1),
                                      np.ones((2, 2, 1, 1), np.int32), 1, "VALID")
  c["conv2d_f64"] = lambda: nn.conv2d(IMG.astype(np.float64), W.astype(np.float64), 2, "SAME")
  c["conv1d"] = lambda: nn.conv1d(A(2, 7, 3), A(3, 3, 2, scale=0.05), stride=2, padding="SAME")
  c["conv1d_valid"] = lambda: nn.conv1d(A(2, 7, 3), A(3, 3, 2, scale=0.05), stride=1,
                                        padding="VALID")
  c["conv3d"] = lambda: nn.conv3d(A(1, 4, 5, 3, 2), A(2, 3, 2, 2, 3, scale=0.05),
                                  strides=[1, 2, 2, 1, 1], padding="SAME")
  c["conv2d_transpose"] = lambda: nn.conv2d_transpose(A(1, 3, 3, 2), TW, [1, 6, 6, 4],
                                                      [1, 2, 2, 1], "SAME")
  c["conv2d_transpose_odd"] = lambda: nn.conv2d_transpose(A(1, 3, 3, 2), TW, [1, 5, 5, 4], 2,
                                                          "SAME")
  c["conv2d_transpose_valid"] = lambda: nn.conv2d_transpose(A(1, 3, 3, 2), TW, [1, 8, 7, 4],
                                                            2, "VALID")
  c["conv2d_backprop_input"] = lambda: nn.conv2d_backprop_input([1, 5, 5, 4], TW,
                                                                A(1, 3, 3, 2), [1, 2, 2, 1],
                                                                "SAME")
  c["atrous_transpose"] = lambda: nn.atrous_conv2d_transpose(A(1, 3, 3, 2), TW, [1, 7, 7, 4],
                                                             2, "VALID")
  c["conv3d_transpose"] = lambda: nn.conv3d_transpose(
      A(1, 2, 2, 2, 2), A(2, 2, 2, 3, 2, scale=0.05), [1, 4, 4, 4, 3], [1, 2, 2, 2, 1], "SAME")
  c["depthwise"] = lambda: nn.depthwise_conv2d(IMG, DW, [1, 1, 1, 1], "SAME")
  c["depthwise_s2"] = lambda: nn.depthwise_conv2d(IMG, DW, [1, 2, 2, 1], "VALID")
  c["depthwise_rate"] = lambda: nn.depthwise_conv2d(IMG, DW, [1, 1, 1, 1], "SAME", rate=[2, 2])
  c["separable"] = lambda: nn.separable_conv2d(IMG, DW, PW, [1, 2, 2, 1], "SAME")
  c["separable_rate"] = lambda: nn.separable_conv2d(IMG, DW, PW, [1, 1, 1, 1], "VALID",
                                                    rate=[1, 2])
  c["atrous"] = lambda: nn.atrous_conv2d(IMG, W, 2, "SAME")
  c["atrous_valid"] = lambda: nn.atrous_conv2d(IMG, W, 2, "VALID")
  c["convolution"] = lambda: nn.convolution(A(2, 7, 3), A(3, 3, 2, scale=0.05), "SAME",
                                            dilation_rate=[2])
  c["max_pool_same"] = lambda: nn.max_pool(IMG, 2, 2, "SAME")
  c["max_pool_valid"] = lambda: nn.max_pool(IMG, [1, 3, 3, 1], [1, 2, 2, 1], "VALID")
  c["max_pool_int"] = lambda: nn.max_pool(np.arange(-20, 5, dtype=np.int32).reshape(1, 5, 5, 1),
                                          2, 2, "SAME")
  c["avg_pool_same"] = lambda: nn.avg_pool(IMG, 3, 2, "SAME")
  c["avg_pool_same_s1"] = lambda: nn.avg_pool(IMG, [1, 2, 3, 1], 1, "SAME")
  c["avg_pool_valid"] = lambda: nn.avg_pool(IMG, 2, [1, 2, 2, 1], "VALID")
  c["max_pool1d"] = lambda: nn.max_pool1d(A(2, 7, 3), 3, 2, "SAME")
  c["avg_pool1d"] = lambda: nn.avg_pool1d(A(2, 7, 3), 3, 2, "SAME")
  c["max_pool3d"] = lambda: nn.max_pool3d(A(1, 3, 5, 4, 2), 2, 2, "SAME")
  c["avg_pool3d"] = lambda: nn.avg_pool3d(A(1, 3, 5, 4, 2), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1],
                                          "SAME")
  c["pool_avg"] = lambda: nn.pool(IMG, [2, 3], "AVG", "SAME", strides=[2, 2])
  c["pool_max_dil"] = lambda: nn.pool(IMG, [2, 2], "MAX", "VALID", dilation_rate=[2, 2])
  c["pool_avg_dil"] = lambda: nn.pool(IMG, [2, 2], "AVG", "VALID", dilation_rate=[1, 2])
  c["max_pool_v2"] = lambda: nn.max_pool_v2(A(2, 7, 3), 2, 2, "SAME")
  c["sparse_xent"] = lambda: nn.sparse_softmax_cross_entropy_with_logits(labels=I(3, 0, 1),
                                                                         logits=A(3, 4))
  c["sparse_xent_3d"] = lambda: nn.sparse_softmax_cross_entropy_with_logits(
      labels=np.array([[1, 2], [0, 3]], np.int64), logits=A(2, 2, 4))
  c["xent_v1"] = lambda: nn.softmax_cross_entropy_with_logits(
      labels=np.eye(4, dtype=np.float32)[[3, 0, 1]], logits=A(3, 4))
  c["xent_v2_soft"] = lambda: nn.softmax_cross_entropy_with_logits_v2(labels=SOFT,
                                                                      logits=A(3, 4))
  c["xent_v2_axis0"] = lambda: nn.softmax_cross_entropy_with_logits_v2(
      labels=np.eye(3, 4, dtype=np.float32), logits=A(3, 4), axis=0)
  c["sigmoid_xent"] = lambda: nn.sigmoid_cross_entropy_with_logits(labels=Z, logits=LOGITS)
  c["weighted_xent"] = lambda: nn.weighted_cross_entropy_with_logits(labels=Z, logits=LOGITS,
                                                                     pos_weight=3.)
  c["weighted_xent_targets"] = lambda: nn.weighted_cross_entropy_with_logits(
      targets=F(0., 1.), logits=F(-1., 2.), pos_weight=0.5)
  c["in_top_k"] = lambda: nn.in_top_k(
      F([1., 1, 1, 0], [0., 2, 1, np.nan], [0, 1, 2, 3], [3, 2, 1, 0]), I(2, 3, 7, 1), 1)
  c["in_top_k2"] = lambda: nn.in_top_k(F([1., 1, 1, 0], [0, 1, 2, 3], [3, 2, 1, 0]),
                                       np.array([3, 2, 1], np.int64), 2)
  c["top_k"] = lambda: nn.top_k(F([1., 3, 3, 2], [5, 0, 1, 5]), 3)
  c["top_k_int"] = lambda: nn.top_k(I(4, 9, -1, 9))
  c["log_poisson"] = lambda: nn.log_poisson_loss(F(0., 0.5, 2., 3.), F(0.1, -1., 1., 2.))
  c["log_poisson_full"] = lambda: nn.log_poisson_loss(F(0., 0.5, 2., 3.), F(0.1, -1., 1., 2.),
                                                      compute_full_loss=True)
  c["zero_fraction"] = lambda: nn.zero_fraction(F(0., 1., 0., 3., 0.))
  c["zero_fraction_int"] = lambda: nn.zero_fraction(np.array([[0, 1], [2, 0]], np.int64))
  c["suff_stats"] = lambda: nn.sufficient_statistics(A(2, 3), axes=[0],
                                                     shift=F(0.1, 0.2, 0.3))[:3]
  c["suff_stats_noshift"] = lambda: nn.sufficient_statistics(A(2, 3), axes=[0, 1],
                                                             keep_dims=True)[:3]
  c["normalize_moments"] = lambda: nn.normalize_moments(np.float32(4.), F(1., 2.), F(3., 5.),
                                                        F(0.5, 0.5))
  c["normalize_moments_noshift"] = lambda: nn.normalize_moments(np.float32(4.), F(1., 2.),
                                                                F(3., 5.), None)
  c["weighted_moments"] = lambda: nn.weighted_moments(A(2, 3), axes=[0],
                                                      frequency_weights=F([1.], [3.]))
  c["xw_plus_b"] = lambda: nn.xw_plus_b(A(2, 3), A(3, 2), F(1., -1.))
  c["relu_layer"] = lambda: nn.relu_layer(A(2, 3), A(3, 2), F(0.1, -1.))
  c["lrn"] = lambda: nn.lrn(A(1, 2, 1, 6), depth_radius=2, bias=1., alpha=0.5, beta=0.75)
  return c


CASES = _cases()


def _grad_cases():
  c = {}
  c["relu"] = (lambda nn, x: nn.relu(x), [X])
  c["relu6"] = (lambda nn, x: nn.relu6(x), [F(-1., 0., 3., 6., 7.)])
  c["leaky_relu"] = (lambda nn, x: nn.leaky_relu(x), [F(-1., 0., 3.)])
  c["elu"] = (lambda nn, x: nn.elu(x), [X])
  c["selu"] = (lambda nn, x: nn.selu(x), [X])
  c["softplus"] = (lambda nn, x: nn.softplus(x), [X])
  c["softsign"] = (lambda nn, x: nn.softsign(x), [X])
  c["swish"] = (lambda nn, x: nn.swish(x), [X])
  c["crelu"] = (lambda nn, x: nn.crelu(x), [X])
  c["softmax"] = (lambda nn, x: nn.softmax(x), [A(2, 4)])
  c["log_softmax"] = (lambda nn, x: nn.log_softmax(x, axis=0), [A(2, 4)])
  c["xent_v1"] = (lambda nn, l, x: nn.softmax_cross_entropy_with_logits(labels=l, logits=x),
                  [SOFT, A(3, 4)])
  c["xent_v2"] = (lambda nn, l, x: nn.softmax_cross_entropy_with_logits_v2(labels=l, logits=x),
                  [SOFT, A(3, 4)])
  c["sparse_xent"] = (lambda nn, x: nn.sparse_softmax_cross_entropy_with_logits(
      labels=I(3, 0, 1), logits=x), [A(3, 4)])
  c["sigmoid_xent"] = (lambda nn, l, x: nn.sigmoid_cross_entropy_with_logits(labels=l,
                                                                             logits=x),
                       [Z, LOGITS])
  c["weighted_xent"] = (lambda nn, l, x: nn.weighted_cross_entropy_with_logits(
      labels=l, logits=x, pos_weight=3.), [Z, LOGITS])
  c["conv2d"] = (lambda nn, x, w: nn.conv2d(x, w, 2, "SAME"), [IMG, W])
  c["conv2d_valid"] = (lambda nn, x, w: nn.conv2d(x, w, [1, 2, 1, 1], "VALID"), [IMG, W])
  c["conv2d_transpose"] = (lambda nn, x, w: nn.conv2d_transpose(x, w, [1, 5, 5, 4], 2, "SAME"),
                           [A(1, 3, 3, 2), TW])
  c["depthwise"] = (lambda nn, x, w: nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), [IMG, DW])
  c["max_pool"] = (lambda nn, x: nn.max_pool(x, 3, 2, "SAME"), [IMG])
  c["avg_pool"] = (lambda nn, x: nn.avg_pool(x, 3, 2, "SAME"), [IMG])
  c["bias_add"] = (lambda nn, x, b: nn.bias_add(x, b, data_format="NCHW"),
                   [A(2, 3, 2, 2), F(1., 2., 3.)])
  c["l2_normalize"] = (lambda nn, x: nn.l2_normalize(x, axis=1), [A(2, 3)])
  c["l2_loss"] = (lambda nn, x: nn.l2_loss(x), [A(2, 3)])
  c["moments_mean"] = (lambda nn, x: nn.moments(x, [0])[0], [A(3, 4)])
  c["moments_var"] = (lambda nn, x: nn.moments(x, [0])[1], [A(3, 4)])
  c["batch_norm"] = (lambda nn, x, m, v, o, s: nn.batch_normalization(x, m, v, o, s, 1e-3),
                     [A(2, 3), F(0.1, 0.2, 0.3), SCALE, OFFSET, F(2., 1., 0.5)])
  c["fbn_train"] = (lambda nn, x, s, o: nn.fused_batch_norm(x, s, o)[0],
                    [A(2, 3, 2, 3), SCALE, OFFSET])
  c["fbn_infer"] = (lambda nn, x, s, o, m, v: nn.fused_batch_norm(
      x, s, o, mean=m, variance=v, is_training=False)[0],
                    [A(2, 3, 2, 3), SCALE, OFFSET, F(0.1, 0., -0.1), F(1., 2., 3.)])
  c["emb"] = (lambda nn, p: nn.embedding_lookup(p, I([0, 4], [2, 2])), [A(5, 3)])
  c["emb_maxnorm"] = (lambda nn, p: nn.embedding_lookup(p, I(0, 4, 1), max_norm=1.5),
                      [A(5, 3, scale=1.)])
  c["emb_div"] = (lambda nn, p0, p1, p2: nn.embedding_lookup(
      [p0, p1, p2], np.array([[0, 1, 2], [3, 4, 6]], np.int64), partition_strategy="div"),
                  [A(3, 2), A(2, 2, offset=10.), A(2, 2, offset=20.)])
  c["xw_plus_b"] = (lambda nn, x, w, b: nn.xw_plus_b(x, w, b), [A(2, 3), A(3, 2), F(1., -1.)])
  c["lrn"] = (lambda nn, x: nn.lrn(x, depth_radius=2, bias=1., alpha=0.5, beta=0.75),
              [A(1, 2, 1, 6)])
  c["log_poisson_full"] = (lambda nn, t, x: nn.log_poisson_loss(t, x, compute_full_loss=True),
                           [F(0., 0.5, 2., 3.), F(0.1, -1., 1., 2.)])
  return c


GRAD_CASES = _grad_cases()

# Golden values from TensorFlow: name -> [(shape, dtype, values)] per output.
GOLDEN = {
  "atrous": [
      ((2, 5, 7, 4), "float32", ("checksum", [-0.19500002, -0.39000002, -0.19500002, -0.13],
          0.41666625, 62.315003)),
  ],
  "atrous_transpose": [
      ((1, 7, 7, 4), "float32", ("checksum", [0.185, 0.16000001, 0.13500001, 0.11000001],
          1.1749997, 20.500001)),
  ],
  "atrous_valid": [
      ((2, 1, 3, 4), "float32", [0.4000001, -0.285, 0.070000045, -0.095000036, 0.22500001,
          -0.245, 0.64999998, -0.14500003, 0.115, -0.20500001, 0.32000005, -0.32499999,
          -0.13500005, -0.18499999, 0.35000005, -0.024999987, 0.27500001, -0.405, -0.17500004,
          -0.33500004, -0.35500005, 0.35000005, -0.245, 0.13499996]),
  ],
  "avg_pool1d": [
      ((2, 4, 3), "float32", [-0.20000002, -0.15000001, -0.099999994, 0.13333333, -0.033333335,
          0.23333335, 0.0, -0.16666669, 0.10000002, -0.099999994, -0.050000004, 0.0, 0.20000002,
          0.25, -0.35000002, 0.10000002, -0.066666663, -0.23333335, -0.033333335, 0.23333335,
          0.066666663, -0.35000002, 0.35000002, -0.25]),
  ],
  "avg_pool3d": [
      ((1, 2, 3, 2, 2), "float32", [0.0, 0.050000016, -0.125, -0.074999996, -0.012500002,
          -0.125, 0.024999997, 0.074999996, 0.1, 0.14999999, -0.025000006, 0.025, -0.25, 0.125,
          -0.050000001, -7.4505806e-09, -0.099999994, -0.050000001, 0.10000001, 0.15000001,
          -0.15000001, 0.55000001, 0.050000001, -0.55000001]),
  ],
  "avg_pool_same": [
      ((2, 3, 4, 3), "float32", ("checksum", [0.0, 0.049999997, -0.22499999, 0.11666667],
          -0.37870362, 6.113889)),
  ],
  "avg_pool_same_s1": [
      ((2, 5, 7, 3), "float32", ("checksum", [0.0, 0.049999997, -0.22499999, -0.033333335],
          0.94166683, 19.300001)),
  ],
  "avg_pool_valid": [
      ((2, 2, 3, 3), "float32", ("checksum", [0.0, 0.049999997, -0.22499999, -0.025000006],
          -0.14999995, 3.7750001)),
  ],
  "batch_norm": [
      ((2, 3), "float32", [-1.3993006, 0.92930698, 1.4348793, 0.19990008, 0.5758419, 2.0]),
  ],
  "batch_norm_none": [
      ((2, 3), "float32", [-0.77762312, -0.28277203, -0.7069301, -0.21207903, -0.63623708,
          -0.14138602]),
  ],
  "bias_add": [
      ((2, 3), "float32", [0.39999998, 2.0999999, 2.5, 1.2, 1.6, 3.3]),
  ],
  "bias_add_nchw": [
      ((2, 3, 2, 2), "float32", [0.39999998, 1.1, 0.5, 1.2, 1.6, 2.3, 1.7, 2.4000001, 2.8, 3.5,
          2.9000001, 3.5999999, 1.0, 0.39999998, 1.1, 0.5, 2.2, 1.6, 2.3, 1.7, 3.4000001, 2.8,
          3.5, 2.9000001]),
  ],
  "bn_global": [
      ((2, 3), "float32", [-1.3993006, 0.92930698, 1.4348793, 0.19990008, 0.5758419, 2.0]),
  ],
  "bn_global_noscale": [
      ((2, 3), "float32", [-0.69965029, 0.92930698, 0.86975873, 0.099950038, 0.5758419, 2.0]),
  ],
  "conv1d": [
      ((2, 4, 2), "float32", [0.115, -0.26500002, 0.050000001, -0.25000003, -0.22, 0.16500001,
          0.14500001, 0.039999999, -0.075000003, -0.0050000083, -0.050000004, 8.9406971e-10,
          0.070000008, 0.025000006, -0.014999999, -0.19000001]),
  ],
  "conv1d_valid": [
      ((2, 5, 2), "float32", [0.24999999, -0.034999985, 0.050000001, -0.25000003, -0.085000008,
          0.38, -0.22, 0.16500001, 0.23000002, -0.31000003, -0.11000001, 0.019999994,
          -0.050000004, 8.9406971e-10, 0.14, -0.28000003, 0.070000008, 0.025000006, -0.26000002,
          0.46000001]),
  ],
  "conv2d_backprop_input": [
      ((1, 5, 5, 4), "float32", ("checksum", [0.11000001, 0.085000001, 0.060000002,
          -0.030000001], 1.6583334, 12.095001)),
  ],
  "conv2d_dil": [
      ((2, 5, 7, 4), "float32", ("checksum", [-0.19500002, -0.39000002, -0.19500002, -0.13],
          0.41666625, 62.315003)),
  ],
  "conv2d_explicit": [
      ((2, 4, 8, 4), "float32", ("checksum", [0.13500001, -0.080000006, 0.094999999, -0.12],
          -0.068332956, 49.450004)),
  ],
  "conv2d_f64": [
      ((2, 3, 4, 4), "float64", ("checksum", [0.20000002, 0.084999999, 0.165, -0.27500001],
          -0.27000006, 17.650001)),
  ],
  "conv2d_int": [
      ((1, 3, 3, 1), "int32", [10.0, 14.0, 18.0, 26.0, 30.0, 34.0, 42.0, 46.0, 50.0]),
  ],
  "conv2d_s12": [
      ((2, 5, 4, 4), "float32", ("checksum", [0.20000002, 0.085000008, 0.16500001, -0.27500004],
          -1.1583331, 31.070003)),
  ],
  "conv2d_same": [
      ((2, 5, 7, 4), "float32", ("checksum", [0.20000002, 0.085000008, 0.16500001, -0.27500004],
          0.17000033, 55.510005)),
  ],
  "conv2d_same_s2": [
      ((2, 3, 4, 4), "float32", ("checksum", [0.20000002, 0.085000008, 0.16500001, -0.27500004],
          -0.27000004, 17.650001)),
  ],
  "conv2d_transpose": [
      ((1, 6, 6, 4), "float32", ("checksum", [0.185, 0.16000001, 0.13500001, 0.11000001],
          3.5116669, 16.170001)),
  ],
  "conv2d_transpose_odd": [
      ((1, 5, 5, 4), "float32", ("checksum", [0.11000001, 0.085000001, 0.060000002,
          -0.030000001], 1.6583334, 12.095001)),
  ],
  "conv2d_transpose_valid": [
      ((1, 8, 7, 4), "float32", ("checksum", [0.185, 0.16000001, 0.13500001, 0.11000001],
          1.4566666, 21.820001)),
  ],
  "conv2d_valid_s2": [
      ((2, 2, 3, 4), "float32", ("checksum", [0.099999987, -0.22499999, 0.55500019,
          -0.35500005], 1.0783338, 11.285001)),
  ],
  "conv3d": [
      ((1, 2, 3, 3, 3), "float32", ("checksum", [0.29500002, -0.13999999, 0.074999981,
          -0.060000025], 0.83833286, 13.795)),
  ],
  "conv3d_transpose": [
      ((1, 4, 4, 4, 3), "float32", ("checksum", [0.185, 0.16000001, 0.13500001, 0.11000001],
          0.79999994, 21.310001)),
  ],
  "convolution": [
      ((2, 7, 2), "float32", ("checksum", [0.105, -0.21499999, 0.050000001, -0.215], 0.23833334,
          3.7800001)),
  ],
  "crelu": [
      ((2, 6), "float32", [0.0, 0.1, 0.0, 0.60000002, 0.0, 0.5, 0.2, 0.0, 0.30000001, 0.0,
          0.40000001, 0.0]),
  ],
  "crelu_ax0": [
      ((4, 3), "float32", [0.0, 0.1, 0.0, 0.2, 0.0, 0.30000001, 0.60000002, 0.0, 0.5, 0.0,
          0.40000001, 0.0]),
  ],
  "depthwise": [
      ((2, 5, 7, 6), "float32", ("checksum", [-0.090000004, 0.040000007, 0.105, -0.15000001],
          0.91833354, 82.250003)),
  ],
  "depthwise_rate": [
      ((2, 5, 7, 6), "float32", ("checksum", [0.024999999, -0.11000001, -0.18000001,
          0.14500001], 1.4299996, 70.830003)),
  ],
  "depthwise_s2": [
      ((2, 2, 3, 6), "float32", ("checksum", [0.36500001, 0.24000001, 0.24000001, -0.28],
          -0.1550001, 15.745)),
  ],
  "elu": [
      ((1, 7), "float32", [-0.95021296, -0.63212055, 0.0, 0.5, 2.0, 6.0, 7.5]),
  ],
  "emb": [
      ((2, 2, 3), "float32", [-0.60000002, 0.1, -0.5, 0.0, -0.60000002, 0.1, -0.30000001,
          0.40000001, -0.2, -0.30000001, 0.40000001, -0.2]),
  ],
  "emb_div": [
      ((2, 3, 2), "float32", [-0.60000002, 0.1, -0.5, 0.2, -0.40000001, 0.30000001, 9.3999996,
          10.1, 9.5, 10.2, 19.5, 20.200001]),
  ],
  "emb_div_maxnorm": [
      ((2, 2), "float32", [0.69446677, 0.71952486, -0.60000002, 0.1]),
  ],
  "emb_maxnorm": [
      ((3, 3), "float32", [-1.1430012, 0.1905002, -0.952501, 0.0, -1.4795909, 0.24659847,
          0.55708605, -1.1141721, 0.83562905]),
  ],
  "emb_mod": [
      ((7, 2), "float32", [-0.60000002, 0.1, 9.3999996, 10.1, 19.4, 20.1, -0.5, 0.2, 9.5, 10.2,
          19.5, 20.200001, -0.40000001, 0.30000001]),
  ],
  "fbn_half": [
      ((2, 3, 2, 3), "float16", ("checksum", [-1.5615234, 1.8652344, 1.3603516, 0.49194336],
          33.507253, 56.986237)),
      ((3,), "float32", [0.0083312988, -0.050008141, 0.0]),
      ((3,), "float32", [0.16447818, 0.12999646, 0.16546255]),
  ],
  "fbn_infer": [
      ((2, 3, 2, 3), "float32", ("checksum", [-0.69965035, 1.141386, 1.8845491, 0.099950038],
          33.854277, 39.595988)),
      ((3,), "float32", [0.1, 0.0, -0.1]),
      ((3,), "float32", [1.0, 2.0, 3.0]),
  ],
  "fbn_train": [
      ((2, 3, 2, 3), "float32", ("checksum", [-1.5615554, 1.8654246, 1.3601651, 0.49199688],
          33.508342, 56.986847)),
      ((3,), "float32", [0.0083333328, -0.050000004, 0.0]),
      ((3,), "float32", [0.16446972, 0.13000003, 0.16545455]),
  ],
  "fbn_train_nchw": [
      ((2, 3, 2, 3), "float32", ("checksum", [-1.5975819, 0.34730038, -1.3197415, 0.62514067],
          37.764392, 57.259687)),
      ((3,), "float32", [-0.024999999, 0.058333334, -0.075000003]),
      ((3,), "float32", [0.14022729, 0.17174245, 0.14022729]),
  ],
  "in_top_k": [
      ((4,), "bool", [1.0, 0.0, 0.0, 0.0]),
  ],
  "in_top_k2": [
      ((3,), "bool", [0.0, 1.0, 1.0]),
  ],
  "l2_loss": [
      ((), "float32", [0.45500004]),
  ],
  "l2_normalize": [
      ((2, 3), "float32", [-0.7620008, 0.12700014, -0.63500065, 0.37139067, -0.74278134,
          0.55708599]),
  ],
  "l2_normalize_all": [
      ((2, 3), "float32", [-0.62897086, 0.10482848, -0.52414238, 0.20965695, -0.41931391,
          0.31448543]),
  ],
  "l2_normalize_dim0": [
      ((2, 3), "float32", [-0.94868332, 0.24253562, -0.85749292, 0.31622776, -0.97014248,
          0.51449579]),
  ],
  "leaky_relu": [
      ((1, 7), "float32", [-0.60000002, -0.2, 0.0, 0.5, 2.0, 6.0, 7.5]),
  ],
  "leaky_relu_a": [
      ((1, 7), "float32", [-0.30000001, -0.1, 0.0, 0.5, 2.0, 6.0, 7.5]),
  ],
  "leaky_relu_int": [
      ((2,), "float32", [-0.40000001, 3.0]),
  ],
  "log_poisson": [
      ((4,), "float32", [1.105171, 0.86787945, 0.71828175, 1.3890562]),
  ],
  "log_poisson_full": [
      ((4,), "float32", [1.105171, 0.86787945, 1.3700882, 3.1531377]),
  ],
  "log_softmax": [
      ((2, 4), "float32", [-1.8475828, -1.1475828, -1.7475827, -1.0475827, -1.8475828,
          -1.1475828, -1.7475828, -1.0475827]),
  ],
  "log_softmax_f64": [
      ((2, 4), "float64", [-1.8475827, -1.1475827, -1.7475827, -1.0475827, -1.8475827,
          -1.1475827, -1.7475827, -1.0475827]),
  ],
  "lrn": [
      ((1, 2, 1, 6), "float32", [-0.49000195, 0.080744185, -0.38641649, 0.16668533, -0.33435455,
          0.27102989, -0.27102989, 0.33435455, -0.16668533, 0.38641649, -0.080744192,
          0.49000195]),
  ],
  "max_pool1d": [
      ((2, 4, 3), "float32", [0.2, 0.1, 0.30000001, 0.5, 0.40000001, 0.60000002, 0.5, 0.2,
          0.60000002, 0.30000001, 0.2, 0.40000001, 0.60000002, 0.5, -0.1, 0.60000002,
          0.30000001, 0.2, 0.40000001, 0.60000002, 0.5, -0.1, 0.60000002, 0.0]),
  ],
  "max_pool3d": [
      ((1, 2, 3, 2, 2), "float32", [0.60000002, 0.60000002, 0.40000001, 0.40000001, 0.60000002,
          0.40000001, 0.5, 0.60000002, 0.5, 0.5, 0.60000002, 0.60000002, 0.0, 0.60000002, 0.2,
          0.5, 0.40000001, 0.2, 0.60000002, 0.40000001, -0.1, 0.60000002, 0.1, -0.5]),
  ],
  "max_pool_int": [
      ((1, 3, 3, 1), "int32", [-14.0, -12.0, -11.0, -4.0, -2.0, -1.0, 1.0, 3.0, 4.0]),
  ],
  "max_pool_same": [
      ((2, 3, 4, 3), "float32", ("checksum", [0.60000002, 0.5, 0.30000001, 0.5], 26.733334,
          28.900001)),
  ],
  "max_pool_v2": [
      ((2, 4, 3), "float32", [0.2, 0.1, 0.30000001, 0.5, 0.40000001, 0.60000002, 0.0, 0.2, 0.1,
          0.30000001, -0.30000001, 0.40000001, 0.60000002, 0.5, -0.1, 0.1, 0.30000001, 0.2,
          0.40000001, 0.60000002, 0.5, -0.60000002, 0.1, -0.5]),
  ],
  "max_pool_valid": [
      ((2, 2, 3, 3), "float32", ("checksum", [0.60000002, 0.5, 0.60000002, 0.5], 18.700001,
          19.200001)),
  ],
  "moments": [
      ((4,), "float32", [-0.1, -0.050000012, 0.0, 0.050000008]),
      ((4,), "float32", [0.11666667, 0.14916666, 0.11666667, 0.14916666]),
  ],
  "moments_int": [
      ((), "int32", [0.0]),
      ((), "int32", [17.0]),
  ],
  "moments_keep": [
      ((2, 1, 4), "float32", [-0.40000001, 0.29999998, -0.30000001, 0.40000001, 0.2,
          -0.40000001, 0.29999998, -0.30000001]),
      ((2, 1, 4), "float32", [0.026666671, 0.026666665, 0.026666665, 0.026666671, 0.026666669,
          0.026666671, 0.026666665, 0.026666665]),
  ],
  "normalize_moments": [
      ((2,), "float32", [0.75, 1.0]),
      ((2,), "float32", [0.6875, 1.0]),
  ],
  "normalize_moments_noshift": [
      ((2,), "float32", [0.25, 0.5]),
      ((2,), "float32", [0.6875, 1.0]),
  ],
  "pool_avg": [
      ((2, 3, 4, 3), "float32", ("checksum", [0.0, 0.049999997, -0.22499999, 0.11666667],
          1.0666668, 8.0083336)),
  ],
  "pool_avg_dil": [
      ((2, 4, 5, 3), "float32", ("checksum", [-0.25, 0.125, -0.15000001, 0.22499999],
          -0.65000002, 15.15)),
  ],
  "pool_max_dil": [
      ((2, 3, 5, 3), "float32", ("checksum", [0.5, 0.40000001, 0.60000002, 0.5], 41.800001,
          42.200001)),
  ],
  "relu": [
      ((1, 7), "float32", [0.0, 0.0, 0.0, 0.5, 2.0, 6.0, 7.5]),
  ],
  "relu6": [
      ((1, 7), "float32", [0.0, 0.0, 0.0, 0.5, 2.0, 6.0, 6.0]),
  ],
  "relu6_int": [
      ((3,), "int32", [0.0, 3.0, 6.0]),
  ],
  "relu_layer": [
      ((2, 2), "float32", [0.61000001, 0.0, 0.059999995, 0.0]),
  ],
  "selu": [
      ((1, 7), "float32", [-1.6705687, -1.1113307, 0.0, 0.52535051, 2.101402, 6.3042059,
          7.8802576]),
  ],
  "separable": [
      ((2, 3, 4, 4), "float32", ("checksum", [0.035000004, 0.021250002, 0.043250002,
          0.029500002], 0.13908327, 6.8310003)),
  ],
  "separable_rate": [
      ((2, 3, 3, 4), "float32", ("checksum", [-0.045000006, -0.059749991, -0.012750003,
          -0.027499989], -0.084833337, 4.3215002)),
  ],
  "sigmoid_xent": [
      ((6,), "float32", [9.3576229e-14, 1.3132617, 0.69314718, 0.47407699, 2.1269281,
          4.2483541e-18]),
  ],
  "softmax": [
      ((2, 4), "float32", [0.15761772, 0.31740311, 0.17419453, 0.35078469, 0.15761773,
          0.31740311, 0.17419453, 0.35078472]),
  ],
  "softmax_ax0": [
      ((2, 4), "float32", [0.45016599, 0.45016599, 0.45016599, 0.45016599, 0.54983401,
          0.54983401, 0.54983395, 0.54983395]),
  ],
  "softmax_dim0": [
      ((2, 4), "float32", [0.45016599, 0.45016599, 0.45016599, 0.45016599, 0.54983401,
          0.54983401, 0.54983395, 0.54983395]),
  ],
  "softplus": [
      ((1, 7), "float32", [0.048587352, 0.31326169, 0.69314718, 0.97407699, 2.1269281,
          6.0024757, 7.5005531]),
  ],
  "softsign": [
      ((1, 7), "float32", [-0.75, -0.5, 0.0, 0.33333334, 0.66666669, 0.85714287, 0.88235295]),
  ],
  "sparse_xent": [
      ((3,), "float32", [1.0475827, 1.8475828, 1.1475827]),
  ],
  "sparse_xent_3d": [
      ((2, 2), "float32", [1.1475828, 1.7475828, 1.8475826, 1.6818846]),
  ],
  "suff_stats": [
      ((), "float32", [2.0]),
      ((3,), "float32", [-0.60000002, -0.70000005, -0.80000001]),
      ((3,), "float32", [0.50000006, 0.37, 0.64000005]),
  ],
  "suff_stats_noshift": [
      ((), "float32", [6.0]),
      ((1, 1), "float32", [-0.90000004]),
      ((1, 1), "float32", [0.91000009]),
  ],
  "swish": [
      ((1, 7), "float32", [-0.14227763, -0.26894143, 0.0, 0.31122968, 1.7615942, 5.9851642,
          7.4958544]),
  ],
  "top_k": [
      ((2, 3), "float32", [3.0, 3.0, 2.0, 5.0, 5.0, 1.0]),
      ((2, 3), "int32", [1.0, 2.0, 3.0, 0.0, 3.0, 2.0]),
  ],
  "top_k_int": [
      ((1,), "int32", [9.0]),
      ((1,), "int32", [1.0]),
  ],
  "weighted_moments": [
      ((3,), "float32", [0.0, -0.27500001, 0.10000001]),
      ((3,), "float32", [0.12, 0.046875, 0.12]),
  ],
  "weighted_xent": [
      ((6,), "float32", [0.0, 3.9397852, 1.3862944, 1.422231, 2.1269281, 1.2745062e-17]),
  ],
  "weighted_xent_targets": [
      ((2,), "float32", [0.31326175, 0.063464001]),
  ],
  "xent_v1": [
      ((3,), "float32", [1.0475827, 1.8475828, 1.1475827]),
  ],
  "xent_v2_axis0": [
      ((4,), "float32", [1.3119016, 1.1119015, 0.91190147, 0.0]),
  ],
  "xent_v2_soft": [
      ((3,), "float32", [1.5875828, 1.2075827, 1.8475826]),
  ],
  "xw_plus_b": [
      ((2, 2), "float32", [1.51, -1.1900001, 0.95999998, -0.96999997]),
  ],
  "zero_fraction": [
      ((), "float32", [0.60000002]),
  ],
  "zero_fraction_int": [
      ((), "float32", [0.5]),
  ],
}

# d sum(out * pattern) / d input, from tf.GradientTape (None -> zeros).
GRAD_GOLDEN = {
  "avg_pool": [
      ((2, 5, 7, 3), "float32", ("checksum", [0.083333336, 0.16666667, 0.25, 0.30555558],
          71.336423, 71.000003)),
  ],
  "batch_norm": [
      ((2, 3), "float32", [0.66633362, 0.47128674, 0.70640075, 2.6653345, 1.1782168,
          0.23546693]),
      ((3,), "float32", [-3.3316681, -1.6495035, -0.94186771]),
      ((3,), "float32", [0.0998502, 0.18842052, 0.56399268]),
      ((3,), "float32", [1.6666667, 2.3333333, 1.3333334]),
      ((3,), "float32", [-0.099950045, -0.75405884, -1.1302413]),
  ],
  "bias_add": [
      ((2, 3, 2, 2), "float32", [0.33333334, 0.66666669, 1.0, 1.3333334, 1.6666666, 0.33333334,
          0.66666669, 1.0, 1.3333334, 1.6666666, 0.33333334, 0.66666669, 1.0, 1.3333334,
          1.6666666, 0.33333334, 0.66666669, 1.0, 1.3333334, 1.6666666, 0.33333334, 0.66666669,
          1.0, 1.3333334]),
      ((3,), "float32", [7.666667, 8.333333, 7.3333335]),
  ],
  "conv2d": [
      ((2, 5, 7, 3), "float32", ("checksum", [0.35000002, -0.18333335, 0.15000001, 0.20000005],
          -7.0777792, 67.866669)),
      ((3, 3, 3, 4), "float32", ("checksum", [-1.6999998, 0.90000015, 1.4999999, 0.93333346],
          -14.266668, 107.13334)),
  ],
  "conv2d_transpose": [
      ((1, 3, 3, 2), "float32", [0.14999999, -0.58333325, -0.083333336, -0.13333341, -1.2833333,
          1.7666667, 0.75, -1.4333335, -0.41666684, 0.26666662, -2.3333335, 1.9166667,
          0.85000002, -1.4000001, -0.1833334, 0.4166666, -1.9000001, 0.7166667]),
      ((3, 3, 4, 2), "float32", ("checksum", [-0.066666678, 0.20000008, 0.10000001, 0.26666665],
          -10.222224, 66.333336)),
  ],
  "conv2d_valid": [
      ((2, 5, 7, 3), "float32", ("checksum", [-0.18333335, 0.15000001, 0.48333338, -1.0333333],
          -5.1111124, 107.33334)),
      ((3, 3, 3, 4), "float32", ("checksum", [-0.53333348, -0.83333355, -2.1333337, -2.2666667],
          -5.466666, 94.233338)),
  ],
  "crelu": [
      ((1, 7), "float32", [-1.0, -1.3333334, 0.0, 1.3333334, 1.6666666, 0.33333334,
          0.66666669]),
  ],
  "depthwise": [
      ((2, 5, 7, 3), "float32", ("checksum", [0.10000001, -0.23333335, -0.38333333,
          -0.016666658], 0.14444457, 53.483334)),
      ((3, 3, 3, 2), "float32", ("checksum", [0.73333347, -0.33333331, 0.83333337, -0.13333333],
          -3.7999993, 43.033335)),
  ],
  "elu": [
      ((1, 7), "float32", [0.016595682, 0.24525297, 1.0, 1.3333334, 1.6666666, 0.33333334,
          0.66666669]),
  ],
  "emb": [
      ((5, 3), "float32", [0.33333334, 0.66666669, 1.0, 0.0, 0.0, 0.0, 2.3333333, 1.3333334,
          2.0, 0.0, 0.0, 0.0, 1.3333334, 1.6666666, 0.33333334]),
  ],
  "emb_div": [
      ((3, 2), "float32", [0.33333334, 0.66666669, 1.0, 1.3333334, 1.6666666, 0.33333334]),
      ((2, 2), "float32", [0.66666669, 1.0, 1.3333334, 1.6666666]),
      ((2, 2), "float32", [0.0, 0.0, 0.33333334, 0.66666669]),
  ],
  "emb_maxnorm": [
      ((5, 3), "float32", [-0.053258128, 0.14645983, 0.093201682, 0.16008219, 0.32976931,
          0.33297098, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.32879797, 0.024437726, 0.14662611]),
  ],
  "fbn_infer": [
      ((2, 3, 2, 3), "float32", ("checksum", [0.33316681, 0.94257349, 0.28862706, 1.3326672],
          39.788707, 32.369554)),
      ((3,), "float32", [1.1327671, -1.2017813, 0.25014347]),
      ((3,), "float32", [11.666666, 12.333333, 11.333334]),
      ((3,), "float32", [0.0, 0.0, 0.0]),
      ((3,), "float32", [0.0, 0.0, 0.0]),
  ],
  "fbn_train": [
      ((2, 3, 2, 3), "float32", ("checksum", [0.24877764, -1.4332609, -0.17338572, 0.33185983],
          14.567471, 31.586458)),
      ((3,), "float32", [5.6543989, -3.125144, -1.7915378]),
      ((3,), "float32", [11.666666, 12.333333, 11.333334]),
  ],
  "l2_loss": [
      ((2, 3), "float32", [-0.20000002, 0.033333335, -0.16666667, 0.06666667, -0.13333334,
          0.10000001]),
  ],
  "l2_normalize": [
      ((2, 3), "float32", [-0.3550542, 0.97639883, 0.62134469, 2.8601351, 2.3265276,
          1.1952803]),
  ],
  "leaky_relu": [
      ((3,), "float32", [0.06666667, 0.13333334, 1.0]),
  ],
  "log_poisson_full": [
      ((4,), "float32", [float('nan'), 0.66666669, -0.056852818, -0.97962785]),
      ((4,), "float32", [0.36839032, -0.088080376, 0.71828175, 5.8520756]),
  ],
  "log_softmax": [
      ((2, 4), "float32", [-0.56699872, 0.21650067, 0.24972332, 0.28294599, 0.5669986,
          -0.21650067, -0.24972326, -0.28294599]),
  ],
  "lrn": [
      ((1, 2, 1, 6), "float32", [0.11100475, 0.55209094, 0.53930646, 1.1741084, 1.2552559,
          0.34289789, 0.58679843, 0.71951264, 1.1663866, 0.99748814, 0.30751535, 0.2357982]),
  ],
  "max_pool": [
      ((2, 5, 7, 3), "float32", ("checksum", [0.0, 0.0, 0.0, 0.0], 75.555556, 71.0)),
  ],
  "moments_mean": [
      ((3, 4), "float32", [0.11111111, 0.22222222, 0.33333334, 0.44444445, 0.11111111,
          0.22222222, 0.33333334, 0.44444445, 0.11111111, 0.22222222, 0.33333334, 0.44444445]),
  ],
  "moments_var": [
      ((3, 4), "float32", [-0.044444449, -0.088888884, -0.13333333, -0.17777778, 0.0,
          1.3245477e-08, 0.0, 0.0, 0.044444446, 0.088888898, 0.13333336, 0.1777778]),
  ],
  "relu": [
      ((1, 7), "float32", [0.0, 0.0, 0.0, 1.3333334, 1.6666666, 0.33333334, 0.66666669]),
  ],
  "relu6": [
      ((5,), "float32", [0.0, 0.0, 1.0, 0.0, 0.0]),
  ],
  "selu": [
      ((1, 7), "float32", [0.029176872, 0.43117905, 1.050701, 1.4009347, 1.7511684, 0.35023367,
          0.70046735]),
  ],
  "sigmoid_xent": [
      ((6,), "float32", [10.0, 0.66666669, -0.0, -0.66666669, -3.3333333, -13.333334]),
      ((6,), "float32", [3.1192076e-14, -0.4873724, 0.0, -0.50338757, 1.4679952,
          -1.4161181e-18]),
  ],
  "softmax": [
      ((2, 4), "float32", [-0.090270095, -0.075980619, 0.016365789, 0.14988489, 0.13102052,
          -0.15936121, -0.029394453, 0.057735071]),
  ],
  "softplus": [
      ((1, 7), "float32", [0.015808625, 0.17929429, 0.5, 0.8299458, 1.4679952, 0.33250913,
          0.66629815]),
  ],
  "softsign": [
      ((1, 7), "float32", [0.020833334, 0.16666667, 1.0, 0.5925926, 0.18518518, 0.0068027214,
          0.0092272209]),
  ],
  "sparse_xent": [
      ((3, 4), "float32", [0.052539241, 0.10580103, 0.058064841, -0.21640512, -0.56158823,
          0.21160206, 0.11612968, 0.23385647, 0.15761773, -0.68259692, 0.17419453, 0.35078472]),
  ],
  "swish": [
      ((1, 7), "float32", [-0.029368034, 0.048219658, 0.5, 0.98661494, 1.8179736, 0.33744216,
          0.66906059]),
  ],
  "weighted_xent": [
      ((6,), "float32", [30.0, 2.4176824, 1.3862944, 0.59753865, -2.9102399, -13.333334]),
      ((6,), "float32", [3.1192076e-14, -1.4621172, 0.5, -1.5101627, 1.4679952,
          -4.2483541e-18]),
  ],
  "xent_v1": [
      ((3, 4), "float32", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
      ((3, 4), "float32", [-0.014127429, 0.0058010221, -0.10860183, 0.11692823, 0.038411811,
          0.1449354, 0.049463011, -0.2328102, -0.84238225, 0.31740311, 0.17419453, 0.35078472]),
  ],
  "xent_v2": [
      ((3, 4), "float32", [0.61586094, 0.38252759, 0.58252758, 0.34919426, 1.2317219,
          0.76505518, 1.1650553, 0.69838852, 1.8475826, 1.1475827, 1.7475827, 1.0475826]),
      ((3, 4), "float32", [-0.014127429, 0.0058010221, -0.10860183, 0.11692823, 0.038411811,
          0.1449354, 0.049463011, -0.2328102, -0.84238225, 0.31740311, 0.17419453, 0.35078472]),
  ],
  "xw_plus_b": [
      ((2, 3), "float32", [-0.13333336, -0.033333331, 0.06666667, -0.4666667, -0.23333332,
          2.1855037e-08]),
      ((3, 2), "float32", [-1.4901161e-08, -0.13333336, -0.36666667, -0.4666667, 0.13333334,
          0.066666685]),
      ((2,), "float32", [1.3333334, 2.0]),
  ],
}


def _as_list(result):
  return [np.asarray(t) for t in result] if isinstance(result, (tuple, list)) else [
      np.asarray(result)]


def _check(actual, expected, name):
  shape, dtype, values = expected
  assert actual.shape == tuple(shape), name
  assert actual.dtype == np.dtype(dtype), (name, actual.dtype)
  # float16 rounding; on GPUs float32 convolutions may run in TF32, as TF's do.
  tol = 2e-3 if dtype == "float16" or jax.default_backend() != "cpu" else 1e-5
  if values[0] == "checksum":
    _, head, weighted, absolute = values
    flat = actual.reshape(-1).astype(np.float64)
    np.testing.assert_allclose(flat[:len(head)], head, rtol=tol, atol=tol, err_msg=name)
    np.testing.assert_allclose((flat * pattern(flat.shape)).sum(), weighted, rtol=tol,
                               atol=10 * tol, err_msg=name)
    np.testing.assert_allclose(np.abs(flat).sum(), absolute, rtol=tol, atol=10 * tol,
                               err_msg=name)
  else:
    np.testing.assert_allclose(actual.astype(np.float64).reshape(-1), values, rtol=tol,
                               atol=tol, err_msg=name)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_values_match_tf(name):
  result = _as_list(CASES[name]())
  assert len(result) == len(GOLDEN[name])
  for actual, expected in zip(result, GOLDEN[name]):
    _check(actual, expected, name)


@pytest.mark.parametrize("name", sorted(GRAD_GOLDEN))
def test_gradients_match_tf(name):
  """Gradients of sum(op(...) * pattern) through jax.grad equal TF's GradientTape ones."""
  fn, inputs = GRAD_CASES[name]

  def loss(*arrays):
    y = fn(tf.nn, *[Tensor(a) for a in arrays])._value
    return jnp.sum(y * pattern(y.shape))

  grads = jax.grad(loss, argnums=tuple(range(len(inputs))))(*[jnp.asarray(i) for i in inputs])
  for actual, expected in zip(grads, GRAD_GOLDEN[name]):
    _check(np.asarray(actual), expected, name)


# ---- dtypes ----
def test_float32_stays_float32():
  x = tf.constant(A(2, 6, 6, 3))
  outputs = [tf.nn.relu(x), tf.nn.relu6(x), tf.nn.elu(x), tf.nn.selu(x), tf.nn.leaky_relu(x),
             tf.nn.softplus(x), tf.nn.softsign(x), tf.nn.swish(x), tf.nn.softmax(x),
             tf.nn.log_softmax(x), tf.nn.l2_normalize(x, 1), tf.nn.l2_loss(x),
             tf.nn.conv2d(x, A(3, 3, 3, 2), 2, "SAME"), tf.nn.max_pool(x, 2, 2, "VALID"),
             tf.nn.avg_pool(x, 3, 2, "SAME"), tf.nn.dropout(x, keep_prob=0.5),
             tf.nn.depthwise_conv2d(x, A(3, 3, 3, 2), [1, 1, 1, 1], "SAME"),
             tf.nn.bias_add(x, np.ones(3, np.float32)), tf.nn.lrn(x),
             tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=x),
             tf.nn.conv2d_transpose(x, A(3, 3, 2, 3), [2, 12, 12, 2], 2, "SAME")]
  outputs += list(tf.nn.moments(x, [0, 1, 2])) + list(tf.nn.fused_batch_norm(
      x, np.ones(3, np.float32), np.zeros(3, np.float32)))
  for out in outputs:
    assert out.dtype == tf.float32 and out.numpy().dtype == np.float32


def test_float16_fused_batch_norm_keeps_float32_statistics():
  y, mean, variance = tf.nn.fused_batch_norm(A(2, 3, 2, 3, dtype=np.float16),
                                             np.ones(3, np.float32), np.zeros(3, np.float32))
  assert (y.dtype, mean.dtype, variance.dtype) == (tf.float16, tf.float32, tf.float32)


def test_float64_and_int_paths():
  assert tf.nn.softmax(A(2, 3, dtype=np.float64)).dtype == tf.float64
  assert tf.nn.relu(np.array([-1, 2], np.int32)).dtype == tf.int32
  assert tf.nn.leaky_relu(np.array([-1, 2], np.int32)).dtype == tf.float32
  assert tf.nn.zero_fraction(np.array([0., 1.], np.float64)).dtype == tf.float32
  assert float(tf.nn.zero_fraction(tf.constant(["a", "", "b", ""]))) == 0.5  # TF's zero: ""


def test_activations_refuse_strings_in_tfs_words():
  for fn, op_name in [(tf.nn.relu, "Relu"), (tf.nn.leaky_relu, "LeakyRelu")]:
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Value for attr 'T' of string is not in the list of allowed "
                             r"values: .*float, double.* \[Op:%s\]" % op_name):
      fn(tf.constant(["a"]))
  values, indices = tf.nn.top_k(np.array([1., 3., 2.], np.float64), 2)
  assert values.dtype == tf.float64 and indices.dtype == tf.int32


# ---- layouts and shapes ----
def _nchw(x):
  return np.transpose(x, (0, 3, 1, 2))


def test_nchw_matches_nhwc():
  x, w = IMG, W
  nhwc = tf.nn.conv2d(x, w, [1, 2, 2, 1], "SAME").numpy()
  nchw = tf.nn.conv2d(_nchw(x), w, [1, 1, 2, 2], "SAME", data_format="NCHW").numpy()
  np.testing.assert_allclose(_nchw(nhwc), nchw, rtol=1e-5, atol=1e-6)
  for pool in (tf.nn.max_pool, tf.nn.avg_pool):
    nhwc = pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME").numpy()
    nchw = pool(_nchw(x), [1, 1, 3, 3], [1, 1, 2, 2], "SAME", data_format="NCHW").numpy()
    np.testing.assert_allclose(_nchw(nhwc), nchw, rtol=1e-6)
  dw = A(3, 3, 3, 2)
  np.testing.assert_allclose(
      _nchw(tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME").numpy()),
      tf.nn.depthwise_conv2d(_nchw(x), dw, [1, 1, 1, 1], "SAME", data_format="NCHW").numpy(),
      rtol=1e-5, atol=1e-6)
  y = A(2, 3, 4, 2)
  np.testing.assert_allclose(
      _nchw(tf.nn.conv2d_transpose(y, A(3, 3, 5, 2), [2, 5, 7, 5], 2, "SAME").numpy()),
      tf.nn.conv2d_transpose(_nchw(y), A(3, 3, 5, 2), [2, 5, 5, 7], [1, 1, 2, 2], "SAME",
                             data_format="NCHW").numpy(), rtol=1e-5, atol=1e-6)
  b = np.array([1., 2., 3.], np.float32)
  np.testing.assert_allclose(_nchw(tf.nn.bias_add(x, b).numpy()),
                             tf.nn.bias_add(_nchw(x), b, data_format="NCHW").numpy())
  y1 = tf.nn.fused_batch_norm(x, b, b)[0].numpy()
  y2 = tf.nn.fused_batch_norm(_nchw(x), b, b, data_format="NCHW")[0].numpy()
  np.testing.assert_allclose(_nchw(y1), y2, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("size", [7, 8])
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_same_valid_output_shapes(size, k, padding):
  x = A(1, size, size + 2, 2)
  expected = [-(-n // 2) if padding == "SAME" else -(-(n - k + 1) // 2)
              for n in (size, size + 2)]
  conv = tf.nn.conv2d(x, A(k, k, 2, 3), 2, padding)
  assert conv.shape.as_list() == [1] + expected + [3]
  for pool in (tf.nn.max_pool, tf.nn.avg_pool):
    assert pool(x, k, 2, padding).shape.as_list() == [1] + expected + [2]


def test_avg_pool_same_divides_by_valid_elements():
  out = tf.nn.avg_pool(np.ones((1, 5, 5, 1), np.float32), 3, 2, "SAME").numpy()
  np.testing.assert_array_equal(out, np.ones((1, 3, 3, 1), np.float32))


def test_multi_output_ops_return_tuples():
  result = tf.nn.top_k(np.array([[1., 3., 2.]], np.float32), k=2)
  assert type(result).__name__ == "TopKV2" and result._fields == ("values", "indices")
  np.testing.assert_array_equal(result.indices.numpy(), [[1, 2]])
  assert isinstance(tf.nn.moments(A(2, 3), [0]), tuple)
  assert isinstance(tf.nn.fused_batch_norm(A(1, 2, 2, 3), A(3), A(3)), tuple)


def test_exported_names():
  assert tf.math.softmax is tf.nn.softmax and tf.math.log_softmax is tf.nn.log_softmax
  assert tf.math.softplus is tf.nn.softplus and tf.math.softsign is tf.nn.softsign
  assert tf.math.in_top_k is tf.nn.in_top_k and tf.math.top_k is tf.nn.top_k
  assert tf.math.l2_normalize is tf.nn.l2_normalize is tf.linalg.l2_normalize
  assert tf.math.zero_fraction is tf.nn.zero_fraction
  assert tf.nn.lrn is tf.nn.local_response_normalization
  assert tf.nn.avg_pool2d is tf.nn.avg_pool


# ---- dropout ----
def test_dropout_statistics_and_scale():
  x = np.ones((200, 500), np.float32)
  for kwargs, keep in (({"keep_prob": 0.8}, 0.8), ({"rate": 0.7}, 0.3)):
    out = tf.nn.dropout(x, **kwargs).numpy()
    kept = out != 0
    assert abs(kept.mean() - keep) < 0.01
    np.testing.assert_allclose(out[kept], np.float32(1) / np.float32(keep), rtol=1e-6)
    assert out.dtype == np.float32


def test_dropout_draws_fresh_masks_and_honours_seeds():
  x = np.ones((64, 64), np.float32)
  assert not np.array_equal(tf.nn.dropout(x, rate=0.5).numpy(), tf.nn.dropout(x, rate=0.5).numpy())
  tf.set_random_seed(7)
  first = [tf.nn.dropout(x, rate=0.5, seed=3).numpy() for _ in range(2)]
  tf.set_random_seed(7)
  second = [tf.nn.dropout(x, rate=0.5, seed=3).numpy() for _ in range(2)]
  np.testing.assert_array_equal(first[0], second[0])
  np.testing.assert_array_equal(first[1], second[1])
  assert not np.array_equal(first[0], first[1])
  tf.set_random_seed(None)


def test_dropout_rate_zero_and_noise_shape():
  x = tf.constant(A(4, 3))
  assert tf.nn.dropout(x, rate=0.) is x
  assert tf.nn.dropout(x, keep_prob=1.) is x
  assert tf.nn.dropout(x, rate=tf.constant(0.)) is x
  out = tf.nn.dropout(np.ones((300, 4), np.float32), rate=0.5, noise_shape=[300, 1]).numpy()
  assert (out == out[:, :1]).all() and 0 < (out[:, 0] != 0).mean() < 1
  kept = tf.nn.dropout(np.ones((100, 100), np.float32), keep_prob=tf.constant(0.25)).numpy()
  np.testing.assert_allclose(kept[kept != 0], 4.)


# ---- errors ----
_ONES4 = np.ones((2, 5, 5, 3), np.float32)
_W4 = np.ones((3, 3, 3, 4), np.float32)
ERRORS = {
    "conv2d rank": (lambda: tf.nn.conv2d(_ONES4[0], _W4, 1, "SAME"),
                    tf.errors.InvalidArgumentError,
                    "convolution input must be 4-dimensional: [5,5,3] [Op:Conv2D]"),
    "conv2d channels": (lambda: tf.nn.conv2d(_ONES4, np.ones((3, 3, 2, 4), np.float32), 1,
                                             "SAME"), tf.errors.InvalidArgumentError,
                        "input depth must be evenly divisible by filter depth: 3 vs 2"),
    "conv2d filter rank": (lambda: tf.nn.conv2d(_ONES4, _W4[0], 1, "SAME"),
                           tf.errors.InvalidArgumentError,
                           "convolution filter must be 4-dimensional: [3,3,4]"),
    "conv2d padding": (lambda: tf.nn.conv2d(_ONES4, _W4, 1, "same"),
                       tf.errors.InvalidArgumentError, "Value for attr 'padding' of \"same\""),
    "conv2d strides": (lambda: tf.nn.conv2d(_ONES4, _W4, [1, 1, 1], "SAME"), ValueError,
                       "strides should be of length 1, 2 or 4"),
    "conv2d batch stride": (lambda: tf.nn.conv2d(_ONES4, _W4, [2, 1, 1, 1], "SAME"),
                            tf.errors.UnimplementedError,
                            "does not yet support strides in the batch and depth dimensions"),
    "conv2d dtypes": (lambda: tf.nn.conv2d(tf.constant(_ONES4), tf.constant(_W4, tf.float64),
                                           1, "SAME"), tf.errors.InvalidArgumentError,
                      "cannot compute Conv2D as input #1(zero-based) was expected to be a "
                      "float tensor but is a double tensor [Op:Conv2D]"),
    "conv2d negative size": (lambda: tf.nn.conv2d(_ONES4, np.ones((7, 7, 3, 4), np.float32), 1,
                                                  "VALID"), tf.errors.InvalidArgumentError,
                             "Computed output size would be negative: -1 [input_size: 5, "
                             "effective_filter_size: 7, stride: 1] [Op:Conv2D]"),
    "conv3d channels": (lambda: tf.nn.conv3d(np.ones((1, 3, 4, 4, 4), np.float32),
                                             np.ones((2, 2, 2, 3, 1), np.float32),
                                             [1, 1, 1, 1, 1], "SAME"),
                        tf.errors.InvalidArgumentError,
                        "Input depth must be evenly divisible by filter depth: 4 vs 3"),
    "conv2d_transpose size": (
        lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 2), np.float32),
                                       np.ones((3, 3, 4, 2), np.float32), [1, 6, 6, 4],
                                       [1, 1, 1, 1], "SAME"),
        tf.errors.InvalidArgumentError,
        "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 3, "
        "computed = 6 spatial_dim: 1 input: 6 filter: 3 output: 3 stride: 1 dilation: 1"),
    "conv2d_transpose depth": (
        lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 2), np.float32),
                                       np.ones((3, 3, 4, 3), np.float32), [1, 6, 6, 4], 2,
                                       "SAME"), tf.errors.InvalidArgumentError,
        "filter and out_backprop must have the same out_depth"),
    "depthwise depth": (lambda: tf.nn.depthwise_conv2d(_ONES4, np.ones((3, 3, 2, 2), np.float32),
                                                       [1, 1, 1, 1], "SAME"),
                        tf.errors.InvalidArgumentError,
                        "input and filter must have the same depth: 3 vs 2"),
    "max_pool rank": (lambda: tf.nn.max_pool(_ONES4[0], 2, 2, "SAME"),
                      tf.errors.InvalidArgumentError, "[Op:MaxPool]"),
    "max_pool batch": (lambda: tf.nn.max_pool(_ONES4, [2, 2, 2, 1], 2, "SAME"),
                       tf.errors.UnimplementedError,
                       "Pooling is not yet supported on the batch dimension."),
    "avg_pool int": (lambda: tf.nn.avg_pool(np.ones((1, 4, 4, 1), np.int32), 2, 2, "SAME"),
                     tf.errors.InvalidArgumentError,
                     "Value for attr 'T' of int32 is not in the list of allowed values: half, "
                     "bfloat16, float, double"),
    "sparse xent label": (
        lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([1, 10, 3], np.int32), logits=np.zeros((3, 10), np.float32)),
        tf.errors.InvalidArgumentError,
        "Received a label value of 10 which is outside the valid range of [0, 10).  "
        "Label values: 1 10 3 [Op:SparseSoftmaxCrossEntropyWithLogits]"),
    "sparse xent negative": (
        lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([1, -1, 3], np.int64), logits=np.zeros((3, 10), np.float32)),
        tf.errors.InvalidArgumentError, "Received a label value of -1 which is outside"),
    "sparse xent float labels": (
        lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([1., 2.], np.float32), logits=np.zeros((2, 3), np.float32)),
        tf.errors.InvalidArgumentError, "Value for attr 'Tlabels' of float"),
    "sparse xent shape": (
        lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([1, 2], np.int32), logits=np.zeros((3, 10), np.float32)),
        ValueError, "Shape mismatch"),
    "sparse xent rank": (
        lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([[1, 2, 3]], np.int32), logits=np.zeros((3, 10), np.float32)),
        ValueError, "Rank mismatch"),
    "xent positional": (lambda: tf.nn.sparse_softmax_cross_entropy_with_logits([1], [[1., 2.]]),
                        ValueError, "Only call `sparse_softmax_cross_entropy_with_logits` with "
                        "named arguments"),
    "xent shapes": (lambda: tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=np.zeros((3, 9), np.float32), logits=np.zeros((3, 10), np.float32)),
                    tf.errors.InvalidArgumentError,
                    "logits and labels must be broadcastable: logits_size=[3,10] "
                    "labels_size=[3,9] [Op:SoftmaxCrossEntropyWithLogits]"),
    "xent v1 dim and axis": (lambda: tf.nn.softmax_cross_entropy_with_logits(
        labels=[[0., 1.]], logits=[[1., 2.]], axis=0), ValueError,
                             "Cannot specify both 'dim' and 'axis'"),
    "sigmoid xent shapes": (lambda: tf.nn.sigmoid_cross_entropy_with_logits(
        labels=np.ones(3, np.float32), logits=np.ones(4, np.float32)), ValueError,
                            "must have the same shape"),
    "sigmoid xent int labels": (lambda: tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.constant([1, 0, 1]), logits=tf.constant([1., 2., 3.])),
                                tf.errors.InvalidArgumentError,
                                "cannot compute Mul as input #1(zero-based) was expected to be "
                                "a float tensor but is a int32 tensor [Op:Mul]"),
    "bias_add size": (lambda: tf.nn.bias_add(_ONES4, np.ones(4, np.float32)),
                      tf.errors.InvalidArgumentError,
                      "Must provide as many biases as the last dimension of the input tensor: "
                      "[4] vs. [2,5,5,3] [Op:BiasAdd]"),
    "bias_add rank": (lambda: tf.nn.bias_add(np.ones(4, np.float32), np.ones(4, np.float32)),
                      tf.errors.InvalidArgumentError,
                      "Input tensor must be at least 2D: [4] [Op:BiasAdd]"),
    "bias_add bias rank": (lambda: tf.nn.bias_add(np.ones((2, 3), np.float32),
                                                  np.ones((3, 1), np.float32)),
                           tf.errors.InvalidArgumentError, "Biases must be 1D: [3,1]"),
    "dropout both": (lambda: tf.nn.dropout(_ONES4, keep_prob=0.5, rate=0.5), ValueError,
                     "Cannot specify both 'keep_prob' and 'rate'"),
    "dropout neither": (lambda: tf.nn.dropout(_ONES4), ValueError, "You must provide a rate"),
    "dropout keep_prob 0": (lambda: tf.nn.dropout(_ONES4, keep_prob=0.), ValueError,
                            "rate must be a scalar tensor or a float in the range [0, 1), got 1"),
    "dropout rate 1": (lambda: tf.nn.dropout(_ONES4, rate=1.), ValueError, "range [0, 1)"),
    "dropout int": (lambda: tf.nn.dropout(np.array([1, 2], np.int32), rate=0.5), ValueError,
                    "x has to be a floating point tensor"),
    "top_k k too big": (lambda: tf.nn.top_k(np.array([1., 2.], np.float32), 3),
                        tf.errors.InvalidArgumentError,
                        "input must have at least k columns. Had 2, needed 3 [Op:TopKV2]"),
    "top_k negative": (lambda: tf.nn.top_k(np.array([1., 2.], np.float32), -1),
                       tf.errors.InvalidArgumentError, "Need k >= 0, got -1 [Op:TopKV2]"),
    "in_top_k lengths": (lambda: tf.nn.in_top_k(np.zeros((3, 4), np.float32),
                                                np.array([0, 1], np.int32), 1),
                         tf.errors.InvalidArgumentError,
                         "First dimension of predictions 3 must match length of targets 2"),
    "softmax int": (lambda: tf.nn.softmax(np.array([1, 2], np.int32)),
                    tf.errors.InvalidArgumentError, "Value for attr 'T' of int32"),
    "softmax scalar": (lambda: tf.nn.softmax(np.float32(1.)), tf.errors.InvalidArgumentError,
                       "logits must have >= 1 dimension, got [] [Op:Softmax]"),
    "softmax axis": (lambda: tf.nn.softmax(np.ones((2, 3), np.float32), axis=2),
                     tf.errors.InvalidArgumentError, "must be in the range [-2, 2)"),
    "elu int": (lambda: tf.nn.elu(np.array([1, 2], np.int32)), tf.errors.InvalidArgumentError,
                "[Op:Elu]"),
    "l2_loss int": (lambda: tf.nn.l2_loss(np.array([1, 2], np.int32)),
                    tf.errors.InvalidArgumentError, "[Op:L2Loss]"),
    "l2_normalize int": (lambda: tf.nn.l2_normalize(np.array([3, 4], np.int32)), TypeError,
                         "Cannot convert 1e-12 to EagerTensor of dtype int32"),
    "embedding out of range": (lambda: tf.nn.embedding_lookup(np.ones((3, 2), np.float32),
                                                              np.array([[0, 1], [5, 1]])),
                               tf.errors.InvalidArgumentError,
                               "indices[1,0] = 5 is not in [0, 3) [Op:GatherV2]"),
    "embedding out of range mod": (
        lambda: tf.nn.embedding_lookup([np.ones((3, 2), np.float32), np.ones((2, 2), np.float32),
                                        np.ones((2, 2), np.float32)], np.array([0, 9])),
        tf.errors.InvalidArgumentError, "indices[1] = 3 is not in [0, 3) [Op:GatherV2]"),
    "embedding float ids": (lambda: tf.nn.embedding_lookup(np.ones((3, 2), np.float32),
                                                           np.array([0., 1.], np.float32)),
                            tf.errors.InvalidArgumentError, "Value for attr 'Tindices' of float"),
    "embedding no params": (lambda: tf.nn.embedding_lookup([], np.array([0])), ValueError,
                            "Need at least one param"),
    "embedding strategy": (lambda: tf.nn.embedding_lookup([A(3, 2), A(3, 2)], np.array([0]),
                                                          partition_strategy="foo"),
                           ValueError, "Unrecognized partition strategy: foo"),
    "fused_batch_norm rank": (lambda: tf.nn.fused_batch_norm(_ONES4[0], np.ones(3, np.float32),
                                                             np.zeros(3, np.float32)),
                              tf.errors.InvalidArgumentError,
                              "input must be 4 or 5-dimensional[5,5,3] [Op:FusedBatchNormV3]"),
    "fused_batch_norm scale": (lambda: tf.nn.fused_batch_norm(_ONES4, np.ones(2, np.float32),
                                                              np.zeros(3, np.float32)),
                               tf.errors.InvalidArgumentError,
                               "scale must have the same number of elements as the channels "
                               "of x, got 2 and 3 [Op:FusedBatchNormV3]"),
    "fused_batch_norm inference": (lambda: tf.nn.fused_batch_norm(
        _ONES4, np.ones(3, np.float32), np.zeros(3, np.float32), is_training=False),
                                   ValueError, "must be a 1-D tensor when is_training is False"),
    "pool dilation same": (lambda: tf.nn.pool(_ONES4, [2, 2], "AVG", "SAME",
                                              dilation_rate=[2, 2]), ValueError,
                           "not implemented for dilation_rate > 1"),
    "leaky_relu tensor alpha": (lambda: tf.nn.leaky_relu(A(3), alpha=tf.constant(0.1)),
                                TypeError, "Expected float for argument 'alpha'"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_like_tf(name):
  fn, error, message = ERRORS[name]
  with pytest.raises(error) as info:
    fn()
  assert message in str(info.value)


def test_out_of_range_labels_in_compiled_code(monkeypatch):
  """TF's error inside tf.function; NaN losses with TFE_VALUE_CHECKS=0 (as TF's GPU kernel)."""
  loss_fn = tf.function(lambda labels, logits: tf.nn.sparse_softmax_cross_entropy_with_logits(
      labels=labels, logits=logits))
  with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of 10 which "
                     r"is outside the valid range of \[0, 10\).  Label values: 1 10 -1"):
    loss_fn(tf.constant([1, 10, -1]), tf.zeros([3, 10]))
  from tfe_compat.ops import value_checks  # pylint: disable=import-outside-toplevel
  monkeypatch.setattr(value_checks, "ENABLED", False)

  @jax.jit
  def loss(labels, logits):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=Tensor(labels),
                                                         logits=Tensor(logits))._value
  out = np.asarray(loss(jnp.array([1, 10, -1], jnp.int32), jnp.zeros((3, 10), jnp.float32)))
  np.testing.assert_allclose(out[0], np.log(10.), rtol=1e-6)
  assert np.isnan(out[1:]).all()


def test_conv2d_backprop_input_explicit_padding():
  """Explicit paddings (a list, or "EXPLICIT" with explicit_paddings): TF 2.21's values."""
  rng = np.random.default_rng(0)
  w = rng.standard_normal((3, 3, 2, 4)).astype(np.float32)
  dy = rng.standard_normal((1, 4, 4, 4)).astype(np.float32)
  out = tf.nn.conv2d_backprop_input([1, 5, 6, 2], w, dy, strides=[1, 1, 2, 1],
                                    padding=[[0, 0], [1, 0], [2, 1], [0, 0]])
  assert out.shape == (1, 5, 6, 2)
  np.testing.assert_allclose(out.numpy()[0, 0, :, 0], [-1.4605, 2.4554, 6.0142, 0.5644, -7.4781,
                                                       -0.419], atol=1e-4)
  np.testing.assert_allclose(out.numpy()[0, 4, :, 0], [-3.7994, 0.92, -4.8328, 0.0962, -0.0964,
                                                       0.4018], atol=1e-4)
  same = tf.nn.conv2d_backprop_input([1, 5, 6, 2], w, dy, strides=[1, 1, 2, 1],
                                     padding="EXPLICIT",
                                     explicit_paddings=[0, 0, 1, 0, 2, 1, 0, 0])
  np.testing.assert_array_equal(same.numpy(), out.numpy())


@pytest.mark.parametrize("data_format, strides, padding", [
    ("NHWC", 1, "SAME"), ("NHWC", 2, "VALID"), ("NCHW", 2, "SAME"), ("NHWC", 3, "SAME")])
def test_pointwise_conv2d_values_and_gradients(data_format, strides, padding):
  """1x1 convolutions run as matrix products: TF's values and gradients (strided too)."""
  rng = np.random.default_rng(7)
  x = rng.standard_normal((2, 5, 5, 3)).astype(np.float32)
  w = rng.standard_normal((1, 1, 3, 4)).astype(np.float32)
  expected = np.einsum("nhwc,co->nhwo", x[:, ::strides, ::strides, :], w[0, 0])
  grad_x = np.zeros_like(x)
  grad_x[:, ::strides, ::strides, :] = np.einsum("nhwo,co->nhwc", np.ones_like(expected),
                                                  w[0, 0])
  grad_w = np.einsum("nhwc,nhwo->co", x[:, ::strides, ::strides, :],
                     np.ones_like(expected))[None, None]
  if data_format == "NCHW":
    x, expected, grad_x = (np.transpose(a, (0, 3, 1, 2)) for a in (x, expected, grad_x))
  xv, wv = tf.Variable(x), tf.Variable(w)
  with tf.GradientTape() as tape:
    y = tf.nn.conv2d(xv, wv, strides=strides, padding=padding, data_format=data_format)
    total = tf.reduce_sum(y)
  np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)
  gx, gw = tape.gradient(total, [xv, wv])
  np.testing.assert_allclose(gx.numpy(), grad_x, rtol=1e-5, atol=1e-5)
  np.testing.assert_allclose(gw.numpy(), grad_w, rtol=1e-5, atol=1e-5)
