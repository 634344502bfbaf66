"""tf.contrib.image transforms, tf.contrib.crf and tf.contrib.opt AdamW/MomentumW.

Image golden values come from TF 2.21's ImageProjectiveTransformV2/V3 kernel (contrib's
kernel; CONSTANT fill 0); CRF values from NumPy brute force over every tag sequence; the
optimizers from TF 1.15's formula (var -= weight_decay * var, then the base update).
"""
import itertools

import numpy as np
import pytest

import tfe_compat as tf


IMG = np.arange(1, 41, dtype=np.float32).reshape(2, 4, 5, 1)
T = np.array([[0.9, -0.2, 0.7, 0.3, 1.1, -0.4, 0.01, -0.02],
              [1, 0, -1.5, 0, 1, 0.5, 0, 0]], np.float32)


# ---- tf.contrib.image ----
def test_transform_bilinear_matches_tf_kernel():
  out = tf.contrib.image.transform(IMG, T, "BILINEAR")
  assert out.dtype == tf.float32 and out.shape.as_list() == [2, 4, 5, 1]
  expected = np.array([
      [[1.02, 2.328301, 4.431373, 6.728155, 7.655325],
       [5.081633, 7.464647, 9.8, 12.089108, 14.033062],
       [10.6875, 13.061854, 15.387755, 17.666668, 19.9],
       [14.735622, 10.770082, 6.367619, 1.557658, 0.]],
      [[0., 11.75, 24., 25., 26.], [0., 14.25, 29., 30., 31.],
       [0., 16.75, 34., 35., 36.], [0., 9., 18.25, 18.75, 19.25]]], np.float32)
  np.testing.assert_allclose(out.numpy()[..., 0], expected, rtol=1e-5, atol=1e-5)


def test_transform_nearest_output_shape():
  out = tf.contrib.image.transform(IMG, T, interpolation="nearest", output_shape=[3, 6])
  expected = np.array([
      [[2, 3, 3, 4, 10, 0], [7, 7, 8, 14, 15, 0], [11, 12, 13, 19, 20, 0]],
      [[0, 0, 27, 28, 29, 30], [0, 0, 32, 33, 34, 35], [0, 0, 37, 38, 39, 40]]], np.float32)
  np.testing.assert_array_equal(out.numpy()[..., 0], expected)


def test_transform_uint8_truncates_like_tf():
  u8 = (np.arange(40) * 7 % 256).astype(np.uint8).reshape(2, 4, 5, 1)
  out = tf.contrib.image.transform(u8, T, "BILINEAR")
  assert out.dtype == tf.uint8
  expected = np.array([
      [[2, 9, 24, 40, 47], [28, 45, 61, 77, 91], [67, 84, 100, 116, 132],
       [96, 70, 42, 10, 0]],
      [[0, 78, 161, 168, 175], [0, 96, 196, 203, 210], [0, 113, 231, 174, 117],
       [0, 61, 124, 63, 3]]], np.uint8)
  np.testing.assert_array_equal(out.numpy()[..., 0], expected)


def test_transform_ranks_and_errors():
  image = IMG[0, :, :, 0]
  out = tf.contrib.image.transform(image, T[1])  # in = (x - 1.5, y + 0.5), half away from 0
  assert out.shape.as_list() == [4, 5]
  np.testing.assert_array_equal(out.numpy()[:3, 2:], image[1:, 1:4])
  np.testing.assert_array_equal(out.numpy()[3], np.zeros(5))
  assert tf.contrib.image.transform(IMG[0], T[1]).shape.as_list() == [4, 5, 1]
  with pytest.raises(TypeError, match="Images should have rank between 2 and 4."):
    tf.contrib.image.transform(np.zeros(3, np.float32), T[1])
  with pytest.raises(TypeError, match="Transforms should have rank 1 or 2."):
    tf.contrib.image.transform(IMG, np.zeros((1, 1, 8), np.float32))
  with pytest.raises(ValueError, match="output_shape must be a 1-D Tensor of 2 elements"):
    tf.contrib.image.transform(IMG, T, output_shape=[4])


def test_angles_and_rotate():
  transforms = tf.contrib.image.angles_to_projective_transforms([0.3, -1.0], 4, 5)
  assert transforms.dtype == tf.float32
  np.testing.assert_allclose(transforms.numpy(), [
      [0.955337, -0.29552, 0.532607, 0.29552, 0.955337, -0.524045, 0, 0],
      [0.540302, 0.841471, -0.342811, -0.841471, 0.540302, 2.372488, 0, 0]], atol=1e-5)
  out = tf.contrib.image.rotate(IMG, [0.3, -1.0], interpolation="BILINEAR")
  np.testing.assert_allclose(out.numpy()[1, 0, :, 0], [21.596832, 28.852577, 25.185528, 18.893509,
                                                  0.150708], atol=1e-4)
  np.testing.assert_allclose(out.numpy()[0, 3, :, 0], [8.211138, 14.788806, 17.221743, 14.281589,
                                                  9.265598], atol=1e-4)
  square = np.arange(16, dtype=np.float32).reshape(4, 4)
  np.testing.assert_array_equal(tf.contrib.image.rotate(square, np.pi / 2).numpy(),
                                np.rot90(square))
  with pytest.raises(TypeError, match="Angles should have rank 0 or 1."):
    tf.contrib.image.angles_to_projective_transforms([[1.0]], 4, 4)


def test_translate_and_compose():
  np.testing.assert_array_equal(
      tf.contrib.image.translations_to_projective_transforms([2, -1]).numpy(),
      [[1, 0, -2, 0, 1, 1, 0, 0]])
  out = tf.contrib.image.translate(IMG, [[1, 0], [0, 1]])
  np.testing.assert_array_equal(out.numpy()[0, :, 1:, 0], IMG[0, :, :4, 0])
  np.testing.assert_array_equal(out.numpy()[0, :, 0, 0], np.zeros(4))
  np.testing.assert_array_equal(out.numpy()[1, 1:, :, 0], IMG[1, :3, :, 0])
  shift = tf.contrib.image.translations_to_projective_transforms([2, -1])
  rot = tf.contrib.image.angles_to_projective_transforms(0.5, 4, 5)
  composed = tf.contrib.image.compose_transforms(rot, shift)
  matrix = lambda t: np.append(t, 1).reshape(3, 3)
  expected = matrix(rot.numpy()[0]) @ matrix(shift.numpy()[0])
  np.testing.assert_allclose(composed.numpy()[0], expected.reshape(-1)[:8], atol=1e-6)


# ---- tf.contrib.crf ----
RNG = np.random.RandomState(0)
X = RNG.randn(3, 4, 3).astype(np.float32)
TRANS = RNG.randn(3, 3).astype(np.float32)
TAGS = RNG.randint(0, 3, (3, 4)).astype(np.int32)
LENGTHS = np.array([4, 2, 1], np.int32)


def _score(x, tags, length, trans):
  return (sum(x[t, tags[t]] for t in range(length))
          + sum(trans[tags[t - 1], tags[t]] for t in range(1, length)))


def _brute(x, length, trans):
  """(log Z, best sequence, best score) over every tag sequence of `length`."""
  seqs = list(itertools.product(range(x.shape[1]), repeat=length))
  scores = np.array([_score(x, s, length, trans) for s in seqs], np.float64)
  return np.log(np.sum(np.exp(scores))), seqs[int(np.argmax(scores))], scores.max()


def test_crf_scores_and_log_norm():
  scores = tf.contrib.crf.crf_sequence_score(X, TAGS, LENGTHS, TRANS)
  assert scores.dtype == tf.float32 and scores.shape.as_list() == [3]
  np.testing.assert_allclose(scores.numpy(), [_score(X[b], TAGS[b], LENGTHS[b], TRANS)
                                              for b in range(3)], rtol=1e-5)
  unary = tf.contrib.crf.crf_unary_score(TAGS, LENGTHS, X).numpy()
  binary = tf.contrib.crf.crf_binary_score(TAGS, LENGTHS, TRANS).numpy()
  np.testing.assert_allclose(unary + binary, scores.numpy(), rtol=1e-5)
  np.testing.assert_allclose(binary, [_score(np.zeros_like(X[b]), TAGS[b], LENGTHS[b], TRANS)
                                      for b in range(3)], rtol=1e-5, atol=1e-6)
  norm = tf.contrib.crf.crf_log_norm(X, np.array([0, 3, 4], np.int32), TRANS).numpy()
  np.testing.assert_allclose(norm, [0.0, _brute(X[1], 3, TRANS)[0], _brute(X[2], 4, TRANS)[0]],
                             rtol=1e-5)


def test_crf_single_step():
  x = X[:, :1]
  lengths = np.array([1, 0, 1], np.int32)
  scores = tf.contrib.crf.crf_sequence_score(x, TAGS[:, :1], lengths, TRANS).numpy()
  np.testing.assert_allclose(scores, [x[0, 0, TAGS[0, 0]], 0, x[2, 0, TAGS[2, 0]]])
  tags, best = tf.contrib.crf.crf_decode(x, TRANS, lengths)
  np.testing.assert_array_equal(tags.numpy(), np.argmax(x, axis=2))
  np.testing.assert_allclose(best.numpy(), x.max(axis=(1, 2)))


def test_crf_log_likelihood_and_gradient():
  trans = tf.Variable(TRANS)
  with tf.GradientTape() as tape:
    ll, params = tf.contrib.crf.crf_log_likelihood(X, TAGS, LENGTHS, trans)
    loss = tf.reduce_sum(ll)
  assert params is trans and ll.dtype == tf.float32
  expected = [_score(X[b], TAGS[b], LENGTHS[b], TRANS) - _brute(X[b], LENGTHS[b], TRANS)[0]
              for b in range(3)]
  np.testing.assert_allclose(ll.numpy(), expected, rtol=1e-5)
  grad = tape.gradient(loss, trans).numpy()

  def total(t):
    return sum(_score(X[b], TAGS[b], LENGTHS[b], t) - _brute(X[b], LENGTHS[b], t)[0]
               for b in range(3))
  numeric = np.zeros((3, 3))
  for i, j in itertools.product(range(3), repeat=2):
    delta = np.zeros((3, 3))
    delta[i, j] = 1e-4
    t64 = TRANS.astype(np.float64)
    numeric[i, j] = (total(t64 + delta) - total(t64 - delta)) / 2e-4
  np.testing.assert_allclose(grad, numeric, atol=1e-4)


def test_crf_log_likelihood_creates_transitions():
  ll, params = tf.contrib.crf.crf_log_likelihood(X, TAGS, LENGTHS)
  assert params.shape.as_list() == [3, 3] and "transitions" in params.name
  assert ll.shape.as_list() == [3]


def test_crf_decode_and_viterbi():
  lengths = np.array([4, 2, 3], np.int32)
  tags, best = tf.contrib.crf.crf_decode(X, TRANS, lengths)
  assert tags.dtype == tf.int32 and best.dtype == tf.float32
  for b in range(3):
    _, seq, score = _brute(X[b], lengths[b], TRANS)
    np.testing.assert_array_equal(tags.numpy()[b], list(seq) + [0] * (4 - lengths[b]))
    np.testing.assert_allclose(best.numpy()[b], score, rtol=1e-5)
    path, path_score = tf.contrib.crf.viterbi_decode(X[b, :lengths[b]], TRANS)
    assert [int(t) for t in path] == list(seq)
    np.testing.assert_allclose(path_score, score, rtol=1e-5)


# ---- tf.contrib.opt ----
def _adamw(x, g, decays, lr=0.01, wd=0.1, b1=0.9, b2=0.999, eps=1e-8):
  m = v = np.zeros_like(x)
  for t, decay in enumerate(decays, 1):
    if decay:
      x = x - wd * x
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    x = x - lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
  return x


def test_adamw_decay_var_list():
  w, b = tf.Variable([1.0, -2.0]), tf.Variable([0.5])
  opt = tf.contrib.opt.AdamWOptimizer(weight_decay=0.1, learning_rate=0.01)
  gw, gb = np.array([0.3, -0.4], np.float32), np.array([0.2], np.float32)
  for _ in range(3):
    opt.apply_gradients([(tf.constant(gw), w), (tf.constant(gb), b)], decay_var_list=[w])
  assert w.dtype == tf.float32
  np.testing.assert_allclose(w.numpy(), _adamw(np.array([1.0, -2.0]), gw, [1] * 3), rtol=1e-6)
  np.testing.assert_allclose(b.numpy(), _adamw(np.array([0.5]), gb, [0] * 3), rtol=1e-6)
  assert opt.get_name() == "AdamW"
  assert opt.get_slot(w, "m") is not None
  opt.apply_gradients([(tf.constant(gb), b)])  # no decay_var_list: every variable decays
  np.testing.assert_allclose(b.numpy(), _adamw(np.array([0.5]), gb, [0, 0, 0, 1]), rtol=1e-6)


def test_momentumw_minimize():
  m = tf.Variable([1.0, -2.0])
  step = tf.train.get_or_create_global_step()
  start = int(step.numpy())
  opt = tf.contrib.opt.MomentumWOptimizer(weight_decay=0.05, learning_rate=0.1, momentum=0.9)
  for _ in range(2):
    opt.minimize(lambda: tf.reduce_sum(m * m), global_step=step)
  x, acc = np.array([1.0, -2.0]), np.zeros(2)
  for _ in range(2):
    g = 2 * x
    x = x - 0.05 * x
    acc = 0.9 * acc + g
    x = x - 0.1 * acc
  np.testing.assert_allclose(m.numpy(), x, rtol=1e-6)
  assert int(step.numpy()) == start + 2
