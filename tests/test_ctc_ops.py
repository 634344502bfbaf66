"""tf.nn CTC ops (tfe_compat/ops/ctc_ops.py) vs goldens from TF 2.21's tf.compat.v1.nn
(losses and GradientTape gradients, decoded SparseTensors, scores, errors)."""
import numpy as np
import pytest

import tfe_compat as tf


LOGITS = np.random.RandomState(0).randn(5, 2, 4).astype(np.float32).round(2)  # time-major
SEQ = [5, 4]


def sparse_labels():
  return tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]],
                         np.array([1, 1, 2, 0, 2], np.int32), [2, 3])


def loss_and_grad(fn, x=LOGITS):
  x = tf.constant(x)
  with tf.GradientTape() as tape:
    tape.watch(x)
    loss = fn(x)
  return loss, tape.gradient(loss, x)


GRAD_V1 = [
    [[0.300197, -0.447477, 0.137612, 0.009667], [0.629319, 0.036403, -0.746069, 0.080347]],
    [[0.115634, -0.0886, 0.146999, -0.174033], [-0.634648, 0.181578, 0.2375, 0.21557]],
    [[0.630402, -0.627003, 0.193709, -0.197108], [-0.017814, 0.396273, -0.397893, 0.019434]],
    [[0.820831, -0.267798, 0.08915, -0.642182], [0.39841, 0.375208, -0.405621, -0.367997]],
    [[0.169208, -0.371397, 0.290363, -0.088174], [0.0, 0.0, 0.0, 0.0]]]


def test_ctc_loss_v1_value_and_gradient():
  loss, grad = loss_and_grad(lambda x: tf.nn.ctc_loss(sparse_labels(), x, SEQ))
  assert loss.dtype == tf.float32 and loss.shape == (2,)
  np.testing.assert_allclose(loss.numpy(), [7.558721, 4.530196], rtol=1e-5)
  assert grad.dtype == tf.float32
  np.testing.assert_allclose(grad.numpy(), GRAD_V1, atol=2e-5)


def test_ctc_loss_v1_options():
  labels = sparse_labels()
  np.testing.assert_allclose(
      tf.nn.ctc_loss(labels, LOGITS, SEQ, preprocess_collapse_repeated=True).numpy(),
      [6.006742, 4.530196], rtol=1e-5)
  batch_major = np.transpose(LOGITS, [1, 0, 2])
  np.testing.assert_allclose(tf.nn.ctc_loss(labels, batch_major, SEQ, time_major=False).numpy(),
                             [7.558721, 4.530196], rtol=1e-5)
  np.testing.assert_allclose(tf.nn.ctc_loss(labels, logits=LOGITS, sequence_length=SEQ).numpy(),
                             [7.558721, 4.530196], rtol=1e-5)
  with pytest.raises(NotImplementedError):
    tf.nn.ctc_loss(labels, LOGITS, SEQ, ctc_merge_repeated=False)
  with pytest.raises(TypeError, match="to be a SparseTensor"):
    tf.nn.ctc_loss(tf.constant([[1]]), LOGITS, SEQ)


def test_ctc_loss_infeasible_is_inf_with_softmax_gradient():
  labels = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0]],
                           np.array([1, 1, 1, 1, 1, 2], np.int32), [2, 5])
  loss, grad = loss_and_grad(lambda x: tf.nn.ctc_loss(labels, x, SEQ))
  assert np.isinf(loss.numpy()[0])
  np.testing.assert_allclose(loss.numpy()[1], 4.324070, rtol=1e-5)
  np.testing.assert_allclose(grad.numpy()[:, 0], [
      [0.300197, 0.077049, 0.137612, 0.485141], [0.115634, 0.192563, 0.146999, 0.544804],
      [0.630402, 0.115164, 0.193709, 0.060725], [0.820831, 0.019892, 0.08915, 0.070128],
      [0.169208, 0.056891, 0.290363, 0.483538]], atol=2e-5)


def test_ctc_loss_longer_labels_than_inputs():
  labels = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]],
                           np.array([1, 2, 1, 2, 2], np.int32), [2, 4])
  loss, grad = loss_and_grad(lambda x: tf.nn.ctc_loss(
      labels, x, [3, 4], ignore_longer_outputs_than_inputs=True))
  np.testing.assert_allclose(loss.numpy(), [0.0, 4.324070], rtol=1e-5)
  assert not grad.numpy()[:, 0].any()
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Not enough time for target transition sequence \(required: 4, "
                           r"available: 3\)0You can turn this error into a warning"):
    tf.nn.ctc_loss(labels, LOGITS, [3, 4])


def test_ctc_loss_float64():
  x = np.random.RandomState(1).randn(4, 2, 3)
  labels = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], [1, 0, 1], [2, 2])
  loss, grad = loss_and_grad(lambda v: tf.nn.ctc_loss(labels, v, [4, 3]), x)
  assert loss.dtype == tf.float64 and grad.dtype == tf.float64
  np.testing.assert_allclose(loss.numpy(), [4.458788006196505, 2.37249144300277], rtol=1e-7)
  np.testing.assert_allclose(grad.numpy()[0], [[0.81761761, -0.09272845, -0.72488918],
                                               [-0.84855428, 0.84312089, 0.00543338]],
                             atol=1e-7)


def test_ctc_loss_v2_dense_and_sparse():
  dense = [[1, 1, 2], [2, 3, 0]]
  loss, grad = loss_and_grad(lambda x: tf.nn.ctc_loss_v2(dense, x, [2, 2], SEQ))
  assert loss.dtype == tf.float32
  np.testing.assert_allclose(loss.numpy(), [5.696860, 3.064047], rtol=1e-5)
  np.testing.assert_allclose(grad.numpy()[:, 0], [
      [-0.403872, -0.218882, 0.137612, 0.485141], [-0.069484, -0.622319, 0.146999, 0.544804],
      [-0.153755, -0.100679, 0.193709, 0.060725], [-0.108905, -0.050372, 0.08915, 0.070128],
      [0.074166, -0.848067, 0.290363, 0.483538]], atol=2e-5)
  np.testing.assert_allclose(grad.numpy()[4, 1], [0, 0, 0, 0])
  np.testing.assert_allclose(
      tf.nn.ctc_loss_v2([[0, 0, 1], [1, 2, -1]], LOGITS, [2, 2], SEQ, blank_index=3).numpy(),
      [2.661363, 5.061537], rtol=1e-5)
  np.testing.assert_allclose(
      tf.nn.ctc_loss_v2(dense, np.transpose(LOGITS, [1, 0, 2]), [2, 2], SEQ,
                        logits_time_major=False).numpy(), [5.696860, 3.064047], rtol=1e-5)
  sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 2, 3], [2, 2])
  np.testing.assert_allclose(
      tf.nn.ctc_loss_v2(sparse, LOGITS, None, SEQ, blank_index=0).numpy(),
      [3.805933, 3.856516], rtol=1e-5)
  with pytest.raises(ValueError, match="`blank_index` must be provided"):
    tf.nn.ctc_loss_v2(sparse, LOGITS, None, SEQ)


def test_ctc_loss_under_function():
  labels = sparse_labels()
  fn = tf.function(lambda x: tf.nn.ctc_loss(labels, x, SEQ))
  np.testing.assert_allclose(fn(tf.constant(LOGITS)).numpy(), [7.558721, 4.530196], rtol=1e-5)


def check_sparse(sp, indices, values, dense_shape):
  assert sp.indices.dtype == tf.int64 and sp.values.dtype == tf.int64
  assert sp.indices.numpy().tolist() == indices
  assert sp.values.numpy().tolist() == values
  assert sp.dense_shape.numpy().tolist() == dense_shape


def test_ctc_greedy_decoder():
  decoded, neg_sum = tf.nn.ctc_greedy_decoder(LOGITS, [3, 4])
  assert len(decoded) == 1
  check_sparse(decoded[0], [[0, 0], [1, 0], [1, 1], [1, 2]], [0, 0, 2, 0], [2, 3])
  assert neg_sum.dtype == tf.float32
  np.testing.assert_allclose(neg_sum.numpy(), [[-5.18], [-5.02]], rtol=1e-6)
  decoded, neg_sum = tf.nn.ctc_greedy_decoder(LOGITS, [5, 5], merge_repeated=False)
  check_sparse(decoded[0], [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4]],
               [0, 0, 0, 0, 2, 0, 0], [2, 5])
  np.testing.assert_allclose(neg_sum.numpy(), [[-7.61], [-6.25]], rtol=1e-6)
  with pytest.raises(tf.errors.FailedPreconditionError, match=r"sequence_length\(0\) <= 5"):
    tf.nn.ctc_greedy_decoder(LOGITS, [6, 1])


def test_ctc_beam_search_decoder():
  decoded, log_probs = tf.nn.ctc_beam_search_decoder(LOGITS, [5, 4], beam_width=3, top_paths=2)
  check_sparse(decoded[0], [[0, 0], [1, 0], [1, 1], [1, 2]], [0, 0, 2, 1], [2, 3])
  check_sparse(decoded[1], [[0, 0], [1, 0], [1, 1], [1, 2]], [0, 0, 2, 0], [2, 3])
  assert log_probs.dtype == tf.float32
  np.testing.assert_allclose(log_probs.numpy(), [[-2.055242, -2.661363], [-1.988940, -2.188325]],
                             rtol=1e-5)
  decoded, log_probs = tf.nn.ctc_beam_search_decoder(LOGITS, [5, 4], beam_width=4, top_paths=3,
                                                     merge_repeated=False)
  check_sparse(decoded[1], [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [0, 0, 0, 2, 0], [2, 3])
  check_sparse(decoded[2], [[0, 0], [0, 1], [1, 0], [1, 1]], [2, 0, 0, 1], [2, 2])
  np.testing.assert_allclose(log_probs.numpy()[:, 2], [-2.816700, -2.293627], rtol=1e-5)
  decoded, log_probs = tf.nn.ctc_beam_search_decoder(LOGITS, [5, 4])
  np.testing.assert_allclose(log_probs.numpy(), [[-1.988856], [-1.988940]], rtol=1e-5)
  decoded, log_probs = tf.nn.ctc_beam_search_decoder_v2(LOGITS, [5, 4], beam_width=2,
                                                        top_paths=2)
  check_sparse(decoded[1], [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [0, 0, 0, 2, 1], [2, 3])
  np.testing.assert_allclose(log_probs.numpy()[1], [-2.239563, -2.299562], rtol=1e-5)


def test_ctc_beam_search_decoder_pruning():
  x = np.random.RandomState(3).randn(8, 3, 6).astype(np.float32).round(1)
  cases = [
      ((3, 3, True), [[0, 4, 2, 0, 1, 3, 2, 3, 1, 3, 1, 3, 1, 2],
                      [0, 4, 2, 0, 1, 2, 0, 1, 3, 1, 3, 1, 2, 1],
                      [0, 4, 2, 1, 2, 1, 3, 1, 4, 3, 1, 2]],
       [[-5.67174, -6.05902, -6.17122], [-4.16567, -4.50064, -4.56059],
        [-5.42618, -5.61352, -5.6442]]),
      ((5, 2, False), [[0, 4, 2, 0, 1, 3, 2, 3, 1, 3, 1, 3, 1, 2],
                       [0, 2, 0, 1, 3, 2, 0, 1, 3, 1, 3, 1]],
       [[-5.67174, -5.72697], [-3.82778, -4.50064], [-4.62327, -4.80524]])]
  for (beam_width, top_paths, merge), values, scores in cases:
    decoded, log_probs = tf.nn.ctc_beam_search_decoder(
        x, [8, 6, 7], beam_width=beam_width, top_paths=top_paths, merge_repeated=merge)
    assert [d.values.numpy().tolist() for d in decoded] == values
    np.testing.assert_allclose(log_probs.numpy(), scores, rtol=1e-5)


def test_ctc_beam_search_decoder_errors():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"requested more paths than the beam width\. \[Op:"):
    tf.nn.ctc_beam_search_decoder(LOGITS[:1], [1, 1], beam_width=2, top_paths=3)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Less leaves in the beam search than requested"):
    tf.nn.ctc_beam_search_decoder(LOGITS[:1], [1, 1], beam_width=10, top_paths=8)


def test_collapse_repeated():
  labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 0], [3, 3, 3, 4, 4]], [4, 3])
  assert labels.dtype == tf.int32 and lengths.dtype == tf.int32
  assert labels.numpy().tolist() == [[1, 2], [3, 0]]
  assert lengths.numpy().tolist() == [2, 1]
  labels, lengths = tf.nn.collapse_repeated(
      tf.constant([[1, 1, 2, 2, 0], [3, 3, 3, 4, 4]], tf.int64), tf.constant([4, 3], tf.int64))
  assert labels.dtype == tf.int64 and lengths.dtype == tf.int64


def test_ctc_unique_labels():
  unique, index = tf.nn.ctc_unique_labels([[3, 1, 3, 0, 0], [2, 2, 5, 1, 0]])
  assert unique.dtype == tf.int64 and index.dtype == tf.int32
  assert unique.numpy().tolist() == [[3, 1, 0, 0, 0], [2, 5, 1, 0, 0]]
  assert index.numpy().tolist() == [[0, 1, 0, 2, 2], [0, 0, 1, 2, 3]]
