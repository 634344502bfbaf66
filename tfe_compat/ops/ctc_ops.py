"""TF 1.15 CTC ops: `tf.nn.ctc_loss` (v1 and v2), the greedy and beam search decoders,
`collapse_repeated` and `ctc_unique_labels`.

The loss is optax's CTC (log-softmax of the logits inside) in one differentiable op,
`ctc_nll`, which `keras.backend.ctc_batch_cost` can share. The decoders run on the host
(value-dependent output shapes), the beam search follows TF's ctc_beam_search.h step by step.
"""
import jax
import jax.numpy as jnp
import numpy as np
import optax

from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import string_ops

_NEG_INF = -np.inf


def _concrete(tensor):
  return not isinstance(tensor._value, jax.core.Tracer)


# ---- Loss ----
def _collapse_rows(labels, lengths):
  """Drops each label equal to its predecessor (within `lengths`), left-aligned, 0 padded."""
  width = labels.shape[1]
  valid = jnp.arange(width)[None, :] < lengths[:, None]
  keep = valid & jnp.concatenate(
      [jnp.ones_like(labels[:, :1], bool), labels[:, 1:] != labels[:, :-1]], axis=1)
  position = jnp.where(keep, jnp.cumsum(keep, axis=1) - 1, width)
  rows = jnp.broadcast_to(jnp.arange(labels.shape[0])[:, None], labels.shape)
  out = jnp.zeros_like(labels).at[rows, position].set(labels, mode="drop")
  return out, jnp.sum(keep, axis=1).astype(lengths.dtype)


def _nll(logits, labels, logit_length, label_length, blank_index, ignore_longer):
  """Per-example CTC loss of batch-major logits (B, T, K) with TF's values and gradients:
  inf (gradient: the softmax) where no alignment fits, 0 (gradient 0) for ignored rows."""
  steps, width = logits.shape[1], labels.shape[1]
  frame_valid = jnp.arange(steps)[None, :] < logit_length[:, None]
  label_valid = jnp.arange(width)[None, :] < label_length[:, None]
  loss = optax.ctc_loss(logits, (~frame_valid).astype(logits.dtype), labels,
                        (~label_valid).astype(logits.dtype), blank_id=blank_index)
  loss = loss.astype(logits.dtype)
  repeats = jnp.sum(label_valid[:, 1:] & (labels[:, 1:] == labels[:, :-1]), axis=1)
  infeasible = label_length + repeats > logit_length
  total = jnp.sum(jnp.where(frame_valid, jax.nn.logsumexp(logits, axis=-1), 0), axis=1)
  inf = total - jax.lax.stop_gradient(total) + jnp.asarray(np.inf, logits.dtype)
  loss = jnp.where(infeasible, inf, loss)
  if ignore_longer:
    loss = jnp.where(label_length > logit_length, jnp.zeros_like(loss), loss)
  return loss


@ops.op(name="CTCLoss", differentiable=(0,))
def ctc_nll(logits, labels, logit_length, label_length, *, blank_index, collapse=False,
            ignore_longer=False):
  """CTC loss per example: logits (B, T, K) batch-major, dense int labels (B, N) of which
  the first label_length[b] count, class `blank_index` is the blank. Returns (B,)."""
  if collapse:
    labels, label_length = _collapse_rows(labels, label_length)
  return _nll(logits, labels, logit_length, label_length, blank_index, ignore_longer)


def _batch_major(logits, time_major):
  return jnp.swapaxes(logits, 0, 1) if time_major else logits


@ops.op(name="CTCLoss", differentiable=(0,))
def _sparse_ctc_loss(logits, indices, values, logit_length, *, width, time_major, blank_index,
                     collapse, ignore_longer):
  logits = _batch_major(logits, time_major)
  batch = logits.shape[0]
  labels = jnp.zeros((batch, width), jnp.int32).at[indices[:, 0], indices[:, 1]].set(
      values.astype(jnp.int32), mode="drop")
  lengths = jnp.zeros((batch,), jnp.int32).at[indices[:, 0]].max(
      indices[:, 1].astype(jnp.int32) + 1, mode="drop")
  if collapse:
    labels, lengths = _collapse_rows(labels, lengths)
  return _nll(logits, labels, logit_length.astype(jnp.int32), lengths, blank_index,
              ignore_longer)


def _check_lengths(indices, dense_shape, seq_len, collapse, values):
  """TF's host-side error for a label sequence longer than its input sequence."""
  rows = np.zeros(int(dense_shape[0]), np.int64)
  for b in range(len(rows)):
    row = values[indices[:, 0] == b]
    if collapse and row.size:
      row = row[np.concatenate([[True], row[1:] != row[:-1]])]
    rows[b] = row.size
  for b, (length, steps) in enumerate(zip(rows, seq_len)):
    if length > steps:
      raise errors.invalid_argument(
          "Not enough time for target transition sequence (required: %d, available: %d)%d"
          "You can turn this error into a warning by using the flag "
          "ignore_longer_outputs_than_inputs [Op:CTCLoss]" % (length, steps, b))


def _sparse_loss(labels, logits, sequence_length, time_major, blank_index, collapse,
                 ignore_longer):
  if not isinstance(labels, string_ops.SparseTensor):
    raise TypeError("Expected argument `labels` to be a SparseTensor. Received labels=%s of "
                    "type: %s" % (labels, type(labels).__name__))
  logits = ops.convert_to_tensor(logits)
  sequence_length = ops.convert_to_tensor(sequence_length, dtypes.int32)
  indices, values = labels.indices, labels.values
  nnz = int(indices.shape[0])
  width = max(nnz, 1)
  if _concrete(labels.dense_shape):
    width = max(int(labels.dense_shape.numpy()[1]), 1)
    if not ignore_longer and all(_concrete(t) for t in (indices, values, sequence_length)):
      _check_lengths(indices.numpy(), labels.dense_shape.numpy(), sequence_length.numpy(),
                     collapse, values.numpy())
  blank = logits.shape[-1] - 1 if blank_index is None else int(blank_index)
  return _sparse_ctc_loss(logits, indices, values, sequence_length, width=width,
                          time_major=bool(time_major), blank_index=blank,
                          collapse=bool(collapse), ignore_longer=bool(ignore_longer))


@export("nn.ctc_loss")
def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
             ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False, time_major=True,
             logits=None):
  """TF1 CTC loss of unnormalized logits against SparseTensor labels; the blank is the last
  class. Returns the per-example loss (batch,)."""
  if not ctc_merge_repeated:
    raise NotImplementedError("tf.nn.ctc_loss(ctc_merge_repeated=False) is not supported by "
                              "tfe_compat; only the standard CTC (merged repeats) is.")
  if inputs is None:
    inputs = logits
  elif logits is not None:
    raise ValueError("Cannot specify both `inputs` and `logits`.")
  return _sparse_loss(labels, inputs, sequence_length, time_major, None,
                      preprocess_collapse_repeated, ignore_longer_outputs_than_inputs)


@export("nn.ctc_loss_v2")
def ctc_loss_v2(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
                blank_index=None, name=None):
  """CTC loss with dense (batch, max_label) labels and label_length (blank default 0), or
  SparseTensor labels (blank_index required). `unique` only speeds TF up: same result."""
  logits = ops.convert_to_tensor(logits)
  num_classes = logits.shape[-1]
  if isinstance(labels, string_ops.SparseTensor):
    if blank_index is None:
      raise ValueError("Argument `blank_index` must be provided when labels is a "
                       "SparseTensor.")
    blank_index = int(blank_index) + (num_classes if blank_index < 0 else 0)
    return _sparse_loss(labels, logits, logit_length, logits_time_major, blank_index, False,
                        False)
  blank_index = 0 if blank_index is None else int(blank_index)
  blank_index += num_classes if blank_index < 0 else 0
  labels = ops.convert_to_tensor(labels, dtypes.int32)
  label_length = ops.convert_to_tensor(label_length, dtypes.int32)
  logit_length = ops.convert_to_tensor(logit_length, dtypes.int32)
  return _dense_ctc_loss(logits, labels, logit_length, label_length,
                         time_major=bool(logits_time_major), blank_index=blank_index)


@ops.op(name="CTCLossV2", differentiable=(0,))
def _dense_ctc_loss(logits, labels, logit_length, label_length, *, time_major, blank_index):
  return _nll(_batch_major(logits, time_major), labels, logit_length, label_length,
              blank_index, False)


# ---- Decoders ----
def _check_decoder_inputs(inputs, sequence_length, op_name):
  if inputs.ndim != 3:
    raise errors.invalid_argument("inputs is not a 3-Tensor [Op:%s]" % op_name)
  steps = inputs.shape[0]
  for b, length in enumerate(sequence_length):
    if length > steps:
      raise errors.FailedPreconditionError(
          None, None, "sequence_length(%d) <= %d [Op:%s]" % (b, steps, op_name))


def _sparse_outputs(paths, batch):
  """(indices, values, dense_shape) of one decoding per batch row, as TF's decoders."""
  indices = [(b, j) for b, path in enumerate(paths) for j in range(len(path))]
  values = [v for path in paths for v in path]
  width = max([len(p) for p in paths] + [0])
  return (device_lib.put(np.array(indices, np.int64).reshape(-1, 2)),
          device_lib.put(np.array(values, np.int64)),
          device_lib.put(np.array([batch, width], np.int64)))


@ops.op(name="CTCGreedyDecoder", jit=False, differentiable=False)
def _greedy_decode(inputs, sequence_length, *, merge_repeated, blank_index):
  inputs, lengths = np.asarray(inputs), np.asarray(sequence_length)
  _check_decoder_inputs(inputs, lengths, "CTCGreedyDecoder")
  best, top = inputs.argmax(axis=-1), inputs.max(axis=-1)
  paths, scores = [], np.zeros((inputs.shape[1], 1), inputs.dtype)
  for b in range(inputs.shape[1]):
    path, previous = [], -1
    for t in range(lengths[b]):
      label = best[t, b]
      if label != blank_index and not (merge_repeated and label == previous):
        path.append(int(label))
      previous = label
    paths.append(path)
    scores[b, 0] = -top[:lengths[b], b].sum(dtype=inputs.dtype)
  return _sparse_outputs(paths, inputs.shape[1]) + (jnp.asarray(scores),)


@export("nn.ctc_greedy_decoder")
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
  """Best-path decoding of time-major logits: ([SparseTensor int64], neg_sum_logits (B, 1))."""
  inputs = ops.convert_to_tensor(inputs)
  sequence_length = ops.convert_to_tensor(sequence_length, dtypes.int32)
  num_classes = inputs.shape[-1]
  blank = num_classes - 1 if blank_index is None else int(blank_index)
  blank += num_classes if blank < 0 else 0
  indices, values, shape, neg_sum = _greedy_decode(
      inputs, sequence_length, merge_repeated=bool(merge_repeated), blank_index=blank)
  return [string_ops.SparseTensor(indices, values, shape)], neg_sum


class _Entry:
  """A beam: a prefix-tree node with (total, blank, label) log probabilities, old and new."""
  __slots__ = ("parent", "label", "children", "old", "new")

  def __init__(self, parent, label):
    self.parent, self.label, self.children = parent, label, None
    self.old = [_NEG_INF] * 3
    self.new = [_NEG_INF] * 3

  def labels(self, merge_repeated):
    out, previous, node = [], -1, self
    while node.parent is not None:
      if not merge_repeated or node.label != previous:
        out.append(node.label)
      previous, node = node.label, node.parent
    return out[::-1]


def _lse(a, b):
  return a if b == _NEG_INF else b if a == _NEG_INF else np.logaddexp(a, b)


def _beam_step(leaves, x, beam_width, blank):
  """One time step of TF's CTCBeamSearchDecoder::Step (default scorer, no label selection)."""
  branches = sorted(leaves, key=lambda e: -e.new[0])
  leaves = []
  for b in branches:
    b.old = list(b.new)
  for b in branches:
    if b.parent is not None:
      if b.parent.new[0] != _NEG_INF:
        previous = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
        b.new[2] = _lse(b.new[2], previous)
      b.new[2] = b.new[2] + x[b.label]
    b.new[1] = b.old[0] + x[blank]
    b.new[0] = _lse(b.new[1], b.new[2])
    leaves.append(b)

  def is_candidate(total):
    return total > _NEG_INF and (len(leaves) < beam_width or
                                 total > min(e.new[0] for e in leaves))

  for b in branches:
    if not is_candidate(b.old[0]):
      continue
    if b.children is None:
      b.children = [_Entry(b, label) for label in range(len(x) - 1)]
    for c in b.children:
      if c.new[0] != _NEG_INF:
        continue
      previous = b.old[1] if c.label == b.label else b.old[0]
      c.new = [x[c.label] + previous, _NEG_INF, x[c.label] + previous]
      if is_candidate(c.new[0]):
        if len(leaves) == beam_width:
          bottom = min(leaves, key=lambda e: e.new[0])
          bottom.new = [_NEG_INF] * 3
          leaves.remove(bottom)
        leaves.append(c)
      else:
        c.old = [_NEG_INF] * 3
        c.new = [_NEG_INF] * 3
  return leaves


@ops.op(name="CTCBeamSearchDecoder", jit=False, differentiable=False)
def _beam_decode(inputs, sequence_length, *, beam_width, top_paths, merge_repeated):
  inputs, lengths = np.asarray(inputs), np.asarray(sequence_length)
  _check_decoder_inputs(inputs, lengths, "CTCBeamSearchDecoder")
  if top_paths > beam_width:
    raise errors.invalid_argument(
        "requested more paths than the beam width. [Op:CTCBeamSearchDecoder]")
  batch, blank = inputs.shape[1], inputs.shape[2] - 1
  paths = [[] for _ in range(top_paths)]
  log_probs = np.zeros((batch, top_paths), inputs.dtype)
  for b in range(batch):
    root = _Entry(None, -1)
    root.new = [0.0, 0.0, _NEG_INF]
    leaves = [root]
    for t in range(lengths[b]):
      x = inputs[t, b] - inputs[t, b].max()
      x = x - np.log(np.exp(x).sum(dtype=x.dtype))
      leaves = _beam_step(leaves, x, beam_width, blank)
    if top_paths > len(leaves):
      raise errors.invalid_argument(
          "Less leaves in the beam search than requested. [Op:CTCBeamSearchDecoder]")
    best = sorted(leaves, key=lambda e: -e.new[0])
    for i in range(top_paths):
      paths[i].append(best[i].labels(merge_repeated))
      log_probs[b, i] = best[i].new[0]
  out = []
  for path in paths:
    out.extend(_sparse_outputs(path, batch))
  return tuple(out) + (jnp.asarray(log_probs),)


@export("nn.ctc_beam_search_decoder")
def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1,
                            merge_repeated=True):
  """TF's CTC beam search over time-major logits (blank last): (top_paths SparseTensors,
  log_probability (batch, top_paths))."""
  inputs = ops.convert_to_tensor(inputs)
  sequence_length = ops.convert_to_tensor(sequence_length, dtypes.int32)
  out = _beam_decode(inputs, sequence_length, beam_width=int(beam_width),
                     top_paths=int(top_paths), merge_repeated=bool(merge_repeated))
  decoded = [string_ops.SparseTensor(*out[i:i + 3]) for i in range(0, len(out) - 1, 3)]
  return decoded, out[-1]


@export("nn.ctc_beam_search_decoder_v2")
def ctc_beam_search_decoder_v2(inputs, sequence_length, beam_width=100, top_paths=1, name=None):
  """`ctc_beam_search_decoder` with merge_repeated=False."""
  return ctc_beam_search_decoder(inputs, sequence_length, beam_width, top_paths,
                                 merge_repeated=False)


# ---- Label utilities ----
@ops.op(name="CollapseRepeated", jit=False, differentiable=False)
def _collapse_repeated(labels, seq_length):
  collapsed, lengths = _collapse_rows(labels, seq_length)
  return collapsed[:, :int(jnp.max(lengths, initial=0))], lengths


@export("nn.collapse_repeated")
def collapse_repeated(labels, seq_length, name=None):
  """Merges repeated labels of (batch, max_len) `labels`: (collapsed, new lengths)."""
  labels = ops.convert_to_tensor(labels)
  seq_length = ops.convert_to_tensor(seq_length)
  return tuple(_collapse_repeated(labels, seq_length))


@ops.op(name="CTCUniqueLabels", jit=False, differentiable=False)
def _unique_labels(labels):
  labels = np.asarray(labels)
  unique = np.zeros(labels.shape, np.int64)
  index = np.zeros(labels.shape, np.int32)
  for b, row in enumerate(labels):
    seen = {}
    for j, label in enumerate(row.tolist()):
      index[b, j] = seen.setdefault(label, len(seen))
    unique[b, :len(seen)] = list(seen)
  return jnp.asarray(unique), jnp.asarray(index)


@export("nn.ctc_unique_labels")
def ctc_unique_labels(labels, name=None):
  """Per row of (batch, max_len) labels, its unique labels in order of first appearance
  (int64, 0 padded) and each label's index among them (int32)."""
  return tuple(_unique_labels(ops.convert_to_tensor(labels)))
