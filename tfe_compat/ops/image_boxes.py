"""`tf.image` NMS variants, `extract_glimpse` and JPEG-quality ops (TF 1.15 semantics).

NMS selections depend on values, so they run TF's greedy kernel on concrete arrays (NumPy,
float32), except `non_max_suppression_padded(..., pad_to_max_output_size=True)`, whose
static output shape allows a trace-safe `lax.fori_loop`.
"""
import collections
import heapq

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import image_codecs, image_color, image_ops

_F32 = np.float32

CombinedNonMaxSuppression = collections.namedtuple(
    "CombinedNonMaxSuppression",
    ["nmsed_boxes", "nmsed_scores", "nmsed_classes", "valid_detections"])


def _iou(boxes):
  """[n, n] float32 IoU of [y1, x1, y2, x2] boxes as TF's kernel computes it."""
  boxes = np.asarray(boxes, _F32).reshape(-1, 4)
  lo, hi = np.minimum(boxes[:, :2], boxes[:, 2:]), np.maximum(boxes[:, :2], boxes[:, 2:])
  area = (hi[:, 0] - lo[:, 0]) * (hi[:, 1] - lo[:, 1])
  extent = np.maximum(np.minimum(hi[:, None], hi[None]) - np.maximum(lo[:, None], lo[None]),
                      _F32(0))
  inter = extent[..., 0] * extent[..., 1]
  with np.errstate(divide="ignore", invalid="ignore"):
    iou = inter / (area[:, None] + area[None] - inter)
  return np.where((area[:, None] > 0) & (area[None] > 0), iou, _F32(0)).astype(_F32)


def _greedy(similarity, scores, max_output_size, threshold, score_threshold, sigma=0.0):
  """TF's DoNonMaxSuppressionOp: (indices, scores); ties go to the lower index."""
  threshold, score_threshold = _F32(threshold), _F32(score_threshold)
  soft = sigma > 0
  scale = _F32(-0.5 / sigma) if soft else _F32(0)
  queue = [(-s, i, 0) for i, s in enumerate(np.asarray(scores, _F32)) if s > score_threshold]
  heapq.heapify(queue)
  selected, kept = [], []
  while len(selected) < max_output_size and queue:
    neg, i, begin = heapq.heappop(queue)
    score = original = -neg
    hard = False
    for j in range(len(selected) - 1, begin - 1, -1):
      sim = similarity[i, selected[j]]
      weight = np.exp(scale * sim * sim) if soft or sim <= threshold else _F32(0)
      score = _F32(score * weight)
      if not soft and sim > threshold:
        hard = True
        break
      if score <= score_threshold:
        break
    if hard:
      continue
    if score == original:
      selected.append(i)
      kept.append(score)
    elif score > score_threshold:
      heapq.heappush(queue, (-score, i, len(selected)))
  return np.array(selected, np.int32), np.array(kept, _F32)


def _check_threshold(value, what, op_name):
  if not 0 <= float(value) <= 1:
    raise errors.invalid_argument("%s must be in [0, 1] [Op:%s]" % (what, op_name))


def _dims(tensor):
  return str(tensor.shape.as_list()).replace(" ", "")


@op(name="NonMaxSuppressionV5", jit=False)
def _nms_v5(boxes, scores, *, max_output_size, iou_threshold, score_threshold, sigma):
  indices, kept = _greedy(_iou(boxes), scores, max_output_size, iou_threshold,
                          score_threshold, sigma)
  return jnp.asarray(indices), jnp.asarray(kept)


@export("image.non_max_suppression_with_scores")
def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
  """Greedy (soft_nms_sigma=0) or Soft-NMS: (int32 indices, float32 rescored scores)."""
  boxes = convert_to_tensor(boxes, dtypes.float32)
  scores = convert_to_tensor(scores, dtypes.float32)
  size = image_ops.check_nms_inputs(boxes, scores, max_output_size, "NonMaxSuppressionV5")
  _check_threshold(iou_threshold, "iou_threshold", "NonMaxSuppressionV5")
  sigma = float(soft_nms_sigma)
  if sigma < 0:
    raise errors.invalid_argument("soft_nms_sigma_val must be >= 0 [Op:NonMaxSuppressionV5]")
  return tuple(_nms_v5(boxes, scores, max_output_size=size,
                       iou_threshold=float(iou_threshold),
                       score_threshold=float(score_threshold), sigma=sigma))


@op(name="NonMaxSuppressionWithOverlaps", jit=False)
def _nms_overlaps(overlaps, scores, *, max_output_size, overlap_threshold, score_threshold):
  indices, _ = _greedy(np.asarray(overlaps, _F32), scores, max_output_size,
                       overlap_threshold, score_threshold)
  return jnp.asarray(indices)


@export("image.non_max_suppression_overlaps")
def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
  """Greedy NMS on a precomputed [n, n] overlap matrix; returns int32 indices."""
  overlaps = convert_to_tensor(overlaps, dtypes.float32)
  scores = convert_to_tensor(scores, dtypes.float32)
  n = scores._value.shape[0] if scores.shape.ndims == 1 else -1
  if overlaps.shape.ndims != 2 or overlaps._value.shape != (n, n):
    raise errors.invalid_argument("overlaps must be square%s [Op:NonMaxSuppressionWithOverlaps]"
                                  % _dims(overlaps))
  return _nms_overlaps(overlaps, scores,
                       max_output_size=image_ops._static_int(max_output_size),
                       overlap_threshold=float(overlap_threshold),
                       score_threshold=float(score_threshold))


@op(name="NonMaxSuppressionV4")
def _nms_padded(boxes, scores, *, max_output_size, iou_threshold, score_threshold):
  """Trace-safe greedy NMS padded with zeros: (indices[max_output_size], valid)."""
  n = scores.shape[0]
  if n == 0:
    return jnp.zeros((max_output_size,), jnp.int32), jnp.zeros((), jnp.int32)
  lo = jnp.minimum(boxes[:, :2], boxes[:, 2:])
  hi = jnp.maximum(boxes[:, :2], boxes[:, 2:])
  area = (hi[:, 0] - lo[:, 0]) * (hi[:, 1] - lo[:, 1])
  positions = jnp.arange(n)

  def body(k, state):
    active, out, count = state
    i = jnp.argmax(jnp.where(active, scores, -jnp.inf))
    ok = active[i]
    extent = jnp.maximum(jnp.minimum(hi, hi[i]) - jnp.maximum(lo, lo[i]), 0)
    inter = extent[:, 0] * extent[:, 1]
    iou = inter / (area + area[i] - inter)
    overlap = (area > 0) & (area[i] > 0) & (iou > iou_threshold)
    out = out.at[k].set(jnp.where(ok, i, 0).astype(jnp.int32))
    return active & ~overlap & (positions != i), out, count + ok.astype(jnp.int32)

  state = (scores > score_threshold, jnp.zeros((max_output_size,), jnp.int32),
           jnp.zeros((), jnp.int32))
  _, out, count = jax.lax.fori_loop(0, max_output_size, body, state)
  return out, count


@export("image.non_max_suppression_padded")
def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None):
  """Greedy NMS returning (int32 indices, int32 number of valid indices)."""
  boxes = convert_to_tensor(boxes, dtypes.float32)
  scores = convert_to_tensor(scores, dtypes.float32)
  size = image_ops.check_nms_inputs(boxes, scores, max_output_size, "NonMaxSuppressionV4")
  _check_threshold(iou_threshold, "iou_threshold", "NonMaxSuppressionV4")
  attrs = dict(max_output_size=size,
               iou_threshold=float(iou_threshold), score_threshold=float(score_threshold))
  if pad_to_max_output_size:
    return tuple(_nms_padded(boxes, scores, **attrs))
  indices = image_ops._nms(boxes, scores, **attrs)
  return indices, Tensor(np.array(indices._value.shape[0], np.int32))


@op(name="CombinedNonMaxSuppression", jit=False)
def _combined(boxes, scores, *, per_class, total, iou_threshold, score_threshold,
              pad_per_class, clip_boxes):
  boxes, scores = np.asarray(boxes, _F32), np.asarray(scores, _F32)
  batch, n, q, _ = boxes.shape
  classes = scores.shape[2]
  size = min(total, per_class * classes) if pad_per_class else total
  out_boxes = np.zeros((batch, size, 4), _F32)
  out_scores = np.zeros((batch, size), _F32)
  out_classes = np.zeros((batch, size), _F32)
  valid = np.zeros((batch,), np.int32)
  for b in range(batch):
    found = []
    for c in range(classes):
      class_boxes = boxes[b, :, c if q > 1 else 0]
      picked, kept = _greedy(_iou(class_boxes), scores[b, :, c], min(per_class, n),
                             iou_threshold, score_threshold)
      found += [(-s, c, r, class_boxes[i]) for r, (i, s) in enumerate(zip(picked, kept))]
    found.sort(key=lambda f: f[:3])
    found = found[:size]
    valid[b] = len(found)
    for k, (neg, c, _, box) in enumerate(found):
      out_boxes[b, k] = np.clip(box, 0, 1) if clip_boxes else box
      out_scores[b, k], out_classes[b, k] = -neg, c
  return (jnp.asarray(out_boxes), jnp.asarray(out_scores), jnp.asarray(out_classes),
          jnp.asarray(valid))


@export("image.combined_non_max_suppression")
def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
  """Per-class greedy NMS over a batch, merged by score into `max_total_size` slots."""
  op_name = "CombinedNonMaxSuppression"
  boxes = convert_to_tensor(boxes, dtypes.float32)
  scores = convert_to_tensor(scores, dtypes.float32)
  if boxes.shape.ndims != 4:
    raise errors.invalid_argument("boxes must be 4-D%s [Op:%s]" % (_dims(boxes), op_name))
  if scores.shape.ndims != 3 or scores._value.shape[:2] != boxes._value.shape[:2]:
    raise errors.invalid_argument("scores must be 3-D [batch, num_boxes, num_classes] "
                                  "matching boxes [Op:%s]" % op_name)
  q, classes = boxes._value.shape[2], scores._value.shape[2]
  if q not in (1, classes) or boxes._value.shape[3] != 4:
    raise errors.invalid_argument("third dimension of boxes must be either 1 or num classes "
                                  "[Op:%s]" % op_name)
  _check_threshold(iou_threshold, "iou_threshold", op_name)
  per_class = image_ops._static_int(max_output_size_per_class)
  total = image_ops._static_int(max_total_size)
  if per_class <= 0:
    raise errors.invalid_argument("max_size_per_class must be > 0 [Op:%s]" % op_name)
  if total <= 0:
    raise errors.invalid_argument("max_total_size must be > 0 [Op:%s]" % op_name)
  return CombinedNonMaxSuppression(*_combined(
      boxes, scores, per_class=per_class, total=total, iou_threshold=float(iou_threshold),
      score_threshold=float(score_threshold), pad_per_class=bool(pad_per_class),
      clip_boxes=bool(clip_boxes)))


@op(name="ExtractGlimpse")
def _glimpse(images, offsets, key, *, size, centered, normalized):
  batch, height, width, channels = images.shape
  glimpse_h, glimpse_w = size
  y, x = offsets[:, 0].astype(jnp.float32), offsets[:, 1].astype(jnp.float32)
  if normalized:
    y, x = y * _F32(height), x * _F32(width)
  if centered:
    y = y / _F32(2) + _F32(height / 2.0)
    x = x / _F32(2) + _F32(width / 2.0)
  y, x = y - _F32(glimpse_h / 2.0), x - _F32(glimpse_w / 2.0)
  rows = y.astype(jnp.int32)[:, None] + jnp.arange(glimpse_h, dtype=jnp.int32)
  cols = x.astype(jnp.int32)[:, None] + jnp.arange(glimpse_w, dtype=jnp.int32)
  inside = (((rows >= 0) & (rows < height))[:, :, None]
            & ((cols >= 0) & (cols < width))[:, None, :])[..., None]
  picked = images[jnp.arange(batch)[:, None, None], jnp.clip(rows, 0, height - 1)[:, :, None],
                  jnp.clip(cols, 0, width - 1)[:, None, :]]
  shape = (batch, glimpse_h, glimpse_w, channels)
  low = images.min(axis=(1, 2, 3), keepdims=True)
  span = images.max(axis=(1, 2, 3), keepdims=True) - low
  noise = low + jax.random.uniform(key, shape, jnp.float32) * span
  return jnp.where(inside, picked, noise)


@export("image.extract_glimpse")
def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # pylint: disable=redefined-builtin
                    uniform_noise=True, name=None):
  """TF 1.x ExtractGlimpse: [batch, h, w, c] float32 windows at (y, x) offsets.

  Offsets are window centres. Out-of-image pixels are uniform noise over each image's
  value range, as TF's kernel fills them whatever `uniform_noise` says (its `noise` attr
  defaults to "uniform"); the draws come from tfe_compat's RNG, not TF's.
  """
  images = convert_to_tensor(input, dtypes.float32)
  offsets = convert_to_tensor(offsets, dtypes.float32)
  if images.shape.ndims != 4:
    raise errors.invalid_argument("input must be 4-dimensional (batch_size, height, width, "
                                  "depth)%s [Op:ExtractGlimpse]" % _dims(images))
  sizes = convert_to_tensor(size, dtypes.int32).numpy().reshape(-1)
  if sizes.shape != (2,):
    raise errors.invalid_argument("input must be a vector of size 2 (height, width) "
                                  "[Op:ExtractGlimpse]")
  if offsets.shape.ndims != 2 or offsets._value.shape != (images._value.shape[0], 2):
    raise errors.invalid_argument("offsets must be a [batch_size, 2] matrix matching input "
                                  "[Op:ExtractGlimpse]")
  key = Tensor(context.next_rng_key())
  return _glimpse(images, offsets, key, size=(int(sizes[0]), int(sizes[1])),
                  centered=bool(centered), normalized=bool(normalized))


@export("image.adjust_jpeg_quality")
def adjust_jpeg_quality(image, jpeg_quality, name=None):
  """JPEG-encodes at `jpeg_quality` and decodes again (Pillow's libjpeg, not TF's)."""
  image = convert_to_tensor(image, name="image")
  dtype = image.dtype
  encoded = image_codecs.encode_jpeg(image_color.convert_image_dtype(image, dtypes.uint8),
                                     quality=image_ops._static_int(jpeg_quality))
  return image_color.convert_image_dtype(image_codecs.decode_jpeg(encoded), dtype)


@export("image.random_jpeg_quality")
def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
  """`adjust_jpeg_quality` at a quality drawn as TF 1.15 does: NumPy's global RNG."""
  if (min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100
      or max_jpeg_quality > 100):
    raise ValueError("jpeg encoding range must be between 0 and 100.")
  if min_jpeg_quality >= max_jpeg_quality:
    raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
  np.random.seed(seed)
  return adjust_jpeg_quality(image, np.random.randint(min_jpeg_quality, max_jpeg_quality))
