"""tf.image NMS variants, extract_glimpse and JPEG quality; golden values from TF."""
import numpy as np
import pytest

import tfe_compat as tf


BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                  [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
TIES = np.array([0.5, 0.5, 0.5, 0.9, 0.9, 0.1], np.float32)


@pytest.mark.parametrize("scores,kwargs,indices,kept", [
    (SCORES, dict(iou_threshold=0.5), [3, 0, 5], [0.95, 0.9, 0.3]),
    (SCORES, dict(iou_threshold=0.5, score_threshold=0.5), [3, 0], [0.95, 0.9]),
    (SCORES, dict(iou_threshold=0.0), [3, 0, 5], [0.95, 0.9, 0.3]),
    (SCORES, dict(iou_threshold=1.0), [3, 0, 1, 2, 4, 5], [0.95, 0.9, 0.75, 0.6, 0.5, 0.3]),
    (TIES, dict(iou_threshold=0.5), [3, 0, 5], [0.9, 0.5, 0.1]),
    (TIES, dict(iou_threshold=0.5, score_threshold=0.5), [3], [0.9]),
    (TIES, dict(iou_threshold=1.0), [3, 4, 0, 1, 2, 5], [0.9, 0.9, 0.5, 0.5, 0.5, 0.1]),
    (SCORES, dict(score_threshold=0.1, soft_nms_sigma=0.5), [3, 0, 1, 5, 4, 2],
     [0.95, 0.9, 0.38400355, 0.3, 0.2560026, 0.19697244]),
    (SCORES, dict(score_threshold=0.1, soft_nms_sigma=1.0), [3, 0, 1, 4, 2, 5],
     [0.95, 0.9, 0.53665876, 0.3577727, 0.34377822, 0.3]),
    (TIES, dict(score_threshold=0.1, soft_nms_sigma=0.5), [3, 0, 4, 1, 2],
     [0.9, 0.5, 0.46080467, 0.25600237, 0.1641437]),
    (TIES, dict(score_threshold=0.1, soft_nms_sigma=1.0), [3, 4, 0, 1, 2],
     [0.9, 0.64399087, 0.5, 0.35777253, 0.28648186]),
])
def test_nms_with_scores(scores, kwargs, indices, kept):
  i, s = tf.image.non_max_suppression_with_scores(BOXES, scores, 6, **kwargs)
  assert i.dtype == tf.int32 and s.dtype == tf.float32
  assert i.numpy().tolist() == indices
  np.testing.assert_allclose(s.numpy(), kept, rtol=1e-6)


def test_soft_nms_max_output_size():
  i, s = tf.image.non_max_suppression_with_scores(BOXES, SCORES, 3, soft_nms_sigma=0.5)
  assert i.numpy().tolist() == [3, 0, 1]
  np.testing.assert_allclose(s.numpy(), [0.95, 0.9, 0.38400355], rtol=1e-6)


OVERLAPS = np.array([[1, .6, .2, 0], [.6, 1, .7, .1], [.2, .7, 1, .3], [0, .1, .3, 1]],
                    np.float32)


@pytest.mark.parametrize("size,kwargs,expected", [
    (4, {}, [1, 3]), (4, dict(overlap_threshold=0.65), [1, 0, 3]),
    (4, dict(overlap_threshold=0.65, score_threshold=0.3), [1, 0]),
    (4, dict(overlap_threshold=0.2), [1, 3]), (1, {}, [1])])
def test_nms_overlaps(size, kwargs, expected):
  scores = np.array([.4, .9, .8, .1], np.float32)
  out = tf.image.non_max_suppression_overlaps(OVERLAPS, scores, size, **kwargs)
  assert out.dtype == tf.int32 and out.numpy().tolist() == expected


@pytest.mark.parametrize("scores", [SCORES, TIES])
def test_nms_padded(scores):
  i, n = tf.image.non_max_suppression_padded(BOXES, scores, 5, 0.5, 0.4)
  assert i.numpy().tolist() == [3, 0] and int(n) == 2
  assert i.dtype == tf.int32 and n.dtype == tf.int32
  i, n = tf.image.non_max_suppression_padded(BOXES, scores, 5, 0.5, 0.4,
                                             pad_to_max_output_size=True)
  assert i.numpy().tolist() == [3, 0, 0, 0, 0] and int(n) == 2 and i.shape == (5,)
  i, n = tf.image.non_max_suppression_padded(BOXES, scores, 8, iou_threshold=1.0,
                                             pad_to_max_output_size=True)
  order = [3, 0, 1, 2, 4, 5] if scores is SCORES else [3, 4, 0, 1, 2, 5]
  assert i.numpy().tolist() == order + [0, 0] and int(n) == 6


def test_nms_padded_small_max():
  i, n = tf.image.non_max_suppression_padded(BOXES, SCORES, 2, 0.5,
                                             pad_to_max_output_size=True)
  assert i.numpy().tolist() == [3, 0] and int(n) == 2


def test_nms_padded_traces():
  import jax
  from tfe_compat.ops import image_boxes
  fn = jax.jit(lambda b, s: image_boxes._nms_padded.__wrapped__(
      b, s, max_output_size=4, iou_threshold=0.5, score_threshold=0.4))
  out, count = fn(BOXES, SCORES)
  assert np.asarray(out).tolist() == [3, 0, 0, 0] and int(count) == 2


CB = np.array([[[[0, 0, 1, 1]], [[0, 0.1, 1, 1.1]], [[0.5, 0.5, 1.5, 1.5]], [[-0.2, 0, 0.5, 0.4]]],
               [[[0, 0, .2, .2]], [[0, 0, .2, .21]], [[.5, .5, .6, .6]], [[.9, .9, 1, 1]]]],
              np.float32)
CS = np.array([[[.9, .1, .3], [.8, .7, .05], [.2, .6, .4], [.55, .35, .25]],
               [[.3, .2, .9], [.85, .15, .6], [.45, .65, .05], [.12, .22, .32]]], np.float32)


@pytest.mark.parametrize("kwargs", [dict(), dict(score_threshold=0.3)])
def test_combined_nms(kwargs):
  r = tf.image.combined_non_max_suppression(CB, CS, 2, 5, **kwargs)
  assert type(r).__name__ == "CombinedNonMaxSuppression"
  assert r.nmsed_classes.dtype == tf.float32 and r.valid_detections.dtype == tf.int32
  np.testing.assert_allclose(r.nmsed_boxes.numpy(), [
      [[0, 0, 1, 1], [0, 0.1, 1, 1], [0.5, 0.5, 1, 1], [0, 0, 0.5, 0.4], [0.5, 0.5, 1, 1]],
      [[0, 0, .2, .2], [0, 0, .2, .21], [.5, .5, .6, .6], [.5, .5, .6, .6], [.9, .9, 1, 1]]],
      rtol=1e-6)
  np.testing.assert_allclose(r.nmsed_scores.numpy(), [[.9, .7, .6, .55, .4],
                                                      [.9, .85, .65, .45, .32]], rtol=1e-6)
  assert r.nmsed_classes.numpy().tolist() == [[0, 1, 1, 0, 2], [2, 0, 1, 0, 2]]
  assert r.valid_detections.numpy().tolist() == [5, 5]


def test_combined_nms_pad_per_class_and_no_clip():
  r = tf.image.combined_non_max_suppression(CB, CS, 1, 10, pad_per_class=True)
  assert r.nmsed_boxes.shape == (2, 3, 4)
  np.testing.assert_allclose(r.nmsed_scores.numpy(), [[.9, .7, .4], [.9, .85, .65]], rtol=1e-6)
  assert r.nmsed_classes.numpy().tolist() == [[0, 1, 2], [2, 0, 1]]
  assert r.valid_detections.numpy().tolist() == [3, 3]
  r = tf.image.combined_non_max_suppression(CB, CS, 3, 4, clip_boxes=False, iou_threshold=0.3)
  np.testing.assert_allclose(r.nmsed_boxes.numpy()[0], [
      [0, 0, 1, 1], [0, 0.1, 1, 1.1], [0.5, 0.5, 1.5, 1.5], [-0.2, 0, 0.5, 0.4]], rtol=1e-6)
  assert r.nmsed_classes.numpy().tolist() == [[0, 1, 1, 0], [2, 0, 1, 0]]


def test_combined_nms_boxes_per_class():
  boxes = np.concatenate([CB, CB[:, :, :, [1, 0, 3, 2]] * 0.5, CB + 0.05], axis=2)
  r = tf.image.combined_non_max_suppression(boxes, CS, 2, 4, clip_boxes=False)
  np.testing.assert_allclose(r.nmsed_boxes.numpy(), [
      [[0, 0, 1, 1], [0.05, 0, 0.55, 0.5], [0.25, 0.25, 0.75, 0.75], [-0.2, 0, 0.5, 0.4]],
      [[.05, .05, .25, .25], [0, 0, .2, .21], [.25, .25, .3, .3], [.5, .5, .6, .6]]],
      rtol=1e-6)
  assert r.nmsed_classes.numpy().tolist() == [[0, 1, 1, 0], [2, 0, 1, 0]]


IMG = np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2)


@pytest.mark.parametrize("kwargs,offsets,expected", [
    (dict(centered=True, normalized=True), [[0, 0], [-0.2, 0.4]],
     [[[14, 16, 18], [26, 28, 30], [38, 40, 42]], [[64, 66, 68], [76, 78, 80], [88, 90, 92]]]),
    (dict(centered=False, normalized=True), [[0.2, 0.5], [0.4, 0.1]],
     [[[2, 4, 6], [14, 16, 18], [26, 28, 30]], [[60, 62, 64], [72, 74, 76], [84, 86, 88]]]),
    (dict(centered=False, normalized=False), [[1, 2], [0.7, 3.9]],
     [[[0, 2, 4], [12, 14, 16], [24, 26, 28]], [[64, 66, 68], [76, 78, 80], [88, 90, 92]]]),
    (dict(centered=True, normalized=False), [[-2, -3], [-1.5, -1]],
     [[[0, 2, 4], [12, 14, 16], [24, 26, 28]], [[62, 64, 66], [74, 76, 78], [86, 88, 90]]]),
])
def test_extract_glimpse(kwargs, offsets, expected):
  g = tf.image.extract_glimpse(IMG, [3, 3], np.array(offsets, np.float32),
                               uniform_noise=False, **kwargs)
  assert g.dtype == tf.float32 and g.shape == (2, 3, 3, 2)
  np.testing.assert_array_equal(g.numpy()[..., 0], expected)
  np.testing.assert_array_equal(g.numpy()[..., 1], np.array(expected) + 1)


def test_extract_glimpse_out_of_bounds_noise():
  g = tf.image.extract_glimpse(IMG, [4, 4], np.array([[0, 0], [3, 4]], np.float32),
                               centered=False, normalized=False, uniform_noise=False).numpy()
  np.testing.assert_array_equal(g[0, 2:, 2:, 0], [[0, 2], [12, 14]])
  np.testing.assert_array_equal(g[1, ..., 0], [[76, 78, 80, 82], [88, 90, 92, 94],
                                               [100, 102, 104, 106], [112, 114, 116, 118]])
  noise = np.concatenate([g[0, :2].ravel(), g[0, 2:, :2].ravel()])
  assert noise.min() >= 0 and noise.max() <= 59 and noise.std() > 1


U8 = (np.linspace(0, 1, 16 * 16 * 3).reshape(16, 16, 3) * 255).astype(np.uint8)


@pytest.mark.parametrize("quality,max_err", [(10, 12), (90, 3)])
def test_adjust_jpeg_quality(quality, max_err):
  out = tf.image.adjust_jpeg_quality(U8, quality)
  assert out.dtype == tf.uint8 and out.shape == (16, 16, 3)
  err = np.abs(out.numpy().astype(int) - U8)
  assert err.max() <= max_err + 3 and err.mean() < {10: 6, 90: 1.5}[quality]
  f = tf.image.adjust_jpeg_quality(U8.astype(np.float32) / 255, quality)
  assert f.dtype == tf.float32 and np.abs(f.numpy() - U8 / 255).max() < 0.06


def test_random_jpeg_quality():
  out = tf.image.random_jpeg_quality(U8, 20, 80, seed=3)  # TF draws quality 62 here
  np.testing.assert_array_equal(out.numpy(), tf.image.adjust_jpeg_quality(U8, 62).numpy())
  with pytest.raises(ValueError, match="must be less than"):
    tf.image.random_jpeg_quality(U8, 50, 50)
  with pytest.raises(ValueError, match="between 0 and 100"):
    tf.image.random_jpeg_quality(U8, 50, 101)


@pytest.mark.parametrize("call,message", [
    (lambda: tf.image.non_max_suppression_with_scores(np.zeros((3, 4)), np.zeros(3), 2,
                                                      iou_threshold=1.5),
     r"iou_threshold must be in \[0, 1\] \[Op:NonMaxSuppressionV5\]"),
    (lambda: tf.image.non_max_suppression_with_scores(np.zeros((3, 4)), np.zeros(3), 2,
                                                      soft_nms_sigma=-1.),
     "soft_nms_sigma_val must be >= 0"),
    (lambda: tf.image.non_max_suppression_with_scores(np.zeros((3, 3)), np.zeros(3), 2),
     r"boxes must have 4 columns \(Dimension must be 4 but is 3\)"),
    (lambda: tf.image.combined_non_max_suppression(np.zeros((1, 3, 2, 4)), np.zeros((1, 3, 3)),
                                                   2, 3),
     "third dimension of boxes must be either 1 or num classes"),
    (lambda: tf.image.combined_non_max_suppression(np.zeros((1, 3, 1, 4)), np.zeros((1, 3, 3)),
                                                   2, 0), "max_total_size must be > 0"),
    (lambda: tf.image.extract_glimpse(IMG[0], [3, 3], [[0, 0]]),
     r"input must be 4-dimensional \(batch_size, height, width, depth\)\[5,6,2\]"),
    (lambda: tf.image.non_max_suppression_overlaps(np.zeros((3, 2)), np.zeros(3), 2),
     r"overlaps must be square\[3,2\]"),
])
def test_errors(call, message):
  with pytest.raises(tf.errors.InvalidArgumentError, match=message):
    call()
