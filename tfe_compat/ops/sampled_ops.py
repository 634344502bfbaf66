"""Candidate samplers, sampled losses and sparse embedding lookups (`tf.nn.nce_loss`, ...).

The samplers draw with keys from `context.next_rng_key` (TF's seeding rules; values are not
TF's Philox streams); their outputs and expected counts follow TF's range_sampler.cc:
unique sampling rejects repeats and counts tries, and an expected count is `p * num_sampled`
when no draw was rejected, `1 - (1 - p) ** num_tries` otherwise, in float32.
"""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import nn_impl
from tfe_compat.ops.array_ops import invalid
from tfe_compat.ops.string_ops import SparseTensor

_FLT_MAX = float(np.finfo(np.float32).max)


def _concrete(tensor, what):
  value = tensor._value
  if isinstance(value, jax.core.Tracer):
    raise NotImplementedError("tfe_compat computes %s eagerly only (not inside tf.function)."
                              % what)
  return np.asarray(value)


# ---- Candidate samplers ----
def _expected_counts(probs, num_sampled, num_tries):
  """TF's ExpectedCountHelper on float32 probabilities."""
  probs = np.asarray(probs, np.float32)
  if num_tries == num_sampled:
    return probs * np.float32(num_sampled)
  return -np.expm1(np.float32(num_tries) * np.log1p(-probs))


def _draw(key, kind, size, range_max, weights):
  """`size` independent draws (int64 NumPy) of one sampler's distribution."""
  if kind == "uniform":
    return np.asarray(jax.random.randint(key, (size,), 0, range_max, jnp.int64))
  if kind == "log_uniform":
    u = jax.random.uniform(key, (size,), jnp.float64)
    values = np.floor(np.exp(np.asarray(u) * np.log1p(range_max))).astype(np.int64) - 1
    return values % range_max
  logits = jnp.log(jnp.asarray(weights, jnp.float64))
  return np.asarray(jax.random.categorical(key, logits, shape=(size,))).astype(np.int64)


def _probability(kind, values, range_max, weights):
  if kind == "uniform":
    return np.full(values.shape, np.float32(1.0 / range_max))
  if kind == "log_uniform":
    values = values.astype(np.float64)
    return (np.log((values + 2.0) / (values + 1.0)) / np.log1p(range_max)).astype(np.float32)
  weights = np.asarray(weights, np.float32)
  return weights[values] / np.float32(weights.sum(dtype=np.float32))


def _sample(key, kind, num_sampled, unique, range_max, weights):
  """(candidates, num_tries) as TF's SampleBatchGetExpectedCountAvoid picks them."""
  key = jnp.asarray(key, jnp.uint32)
  if not unique:
    return _draw(key, kind, num_sampled, range_max, weights), num_sampled
  picked, seen, tries = [], set(), 0
  while len(picked) < num_sampled:
    key, sub = jax.random.split(key)
    for value in _draw(sub, kind, max(2 * num_sampled, 64), range_max, weights):
      tries += 1
      if value not in seen:
        seen.add(value)
        picked.append(value)
        if len(picked) == num_sampled:
          break
  return np.array(picked, np.int64), tries


_learned_counts = {}  # kernel attributes -> unigram counts (TF's kernels keep them per attrs)


def _candidate_sampler(op_name, kind, true_classes, num_true, num_sampled, unique, range_max,
                       seed, weights=None, learned_key=None):
  true_classes = ops.convert_to_tensor(true_classes, dtypes.int64)
  num_true, num_sampled, range_max = int(num_true), int(num_sampled), int(range_max)
  classes = _concrete(true_classes, op_name)
  if classes.ndim != 2:
    raise invalid("true_classes must be a matrix", op_name)
  if classes.shape[1] != num_true:
    raise invalid("true_classes must have num_true columns, expected: %d was: %d"
          % (classes.shape[1], num_true), op_name)
  if unique and num_sampled > range_max:
    raise invalid("Sampler's range is too small.", op_name)
  bad = classes[(classes < 0) | (classes >= range_max)]
  if bad.size:
    raise invalid("`true_candidate` out of range [0, %d), received %d" % (range_max, bad[0]), op_name)
  op_seed = context.get_seed(seed)[1]
  if kind == "learned":
    key = learned_key + (unique, context.get_seed(op_seed) if op_seed is not None else None)
    counts = _learned_counts.setdefault(key, np.ones(range_max, np.int64))
    weights = counts.astype(np.float32)
  if kind == "all":
    sampled, tries = np.arange(num_sampled, dtype=np.int64), num_sampled
    true_count = np.ones(classes.shape, np.float32)
    sampled_count = np.ones(num_sampled, np.float32)
  else:
    draw_kind = "unigram" if kind == "learned" else kind
    key = context.next_rng_key(op_seed)
    sampled, tries = _sample(key, draw_kind, num_sampled, unique, range_max, weights)
    true_count = _expected_counts(_probability(draw_kind, classes, range_max, weights),
                                  num_sampled, tries)
    sampled_count = _expected_counts(_probability(draw_kind, sampled, range_max, weights),
                                     num_sampled, tries)
  if kind == "learned":
    np.add.at(counts, classes.reshape(-1), 1)
  return (Tensor(jnp.asarray(sampled, jnp.int64)),
          Tensor(jnp.asarray(true_count, jnp.float32)),
          Tensor(jnp.asarray(sampled_count, jnp.float32)))


@export("random.uniform_candidate_sampler", "nn.uniform_candidate_sampler")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
  """Samples classes uniformly from [0, range_max): (sampled, true_expected, sampled_expected)."""
  return _candidate_sampler("UniformCandidateSampler", "uniform", true_classes, num_true,
                            num_sampled, unique, range_max, seed)


@export("random.log_uniform_candidate_sampler", "nn.log_uniform_candidate_sampler")
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
  """Samples with P(k) = log((k + 2) / (k + 1)) / log(range_max + 1) (Zipfian)."""
  return _candidate_sampler("LogUniformCandidateSampler", "log_uniform", true_classes,
                            num_true, num_sampled, unique, range_max, seed)


@export("random.learned_unigram_candidate_sampler", "nn.learned_unigram_candidate_sampler")
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
  """Samples by counts of the true classes seen so far (every class starts at count 1)."""
  return _candidate_sampler("LearnedUnigramCandidateSampler", "learned", true_classes,
                            num_true, num_sampled, unique, range_max, seed,
                            learned_key=(int(num_true), int(num_sampled), int(range_max)))


def _read_vocab(vocab_file):
  from tfe_compat.ops import gfile  # pylint: disable=import-outside-toplevel
  with gfile.GFile(vocab_file, "r") as f:
    lines = f.read().splitlines()
  weights = []
  for line in lines:
    try:
      weights.append(float(line.split(",")[-1]))
    except ValueError:
      raise invalid("Wrong vocabulary format at line: %s" % line, "FixedUnigramCandidateSampler")
  return weights


@export("random.fixed_unigram_candidate_sampler", "nn.fixed_unigram_candidate_sampler")
def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
  """Samples by given unigram weights (`unigrams` or a CSV `vocab_file`) raised to `distortion`."""
  op_name = "FixedUnigramCandidateSampler"
  if not vocab_file and not len(unigrams):
    raise invalid("Must provide either vocab_file or unigrams.", op_name)
  if vocab_file and len(unigrams):
    raise invalid("Must only provide one of vocab_file and unigrams.", op_name)
  raw = _read_vocab(vocab_file) if vocab_file else [float(u) for u in unigrams]
  num_shards, shard = int(num_shards), int(shard)
  weights = [np.float32(0.0)] * len([i for i in range(int(num_reserved_ids))
                                     if i % num_shards == shard])
  for word_id, w in enumerate(raw, start=int(num_reserved_ids)):
    if word_id % num_shards == shard:
      weights.append(np.power(np.float32(w), np.float32(distortion)))
  if int(range_max) != len(weights):
    raise invalid("range is %d must be equal to weights size  %d" % (int(range_max), len(weights)),
          op_name)
  return _candidate_sampler(op_name, "unigram", true_classes, num_true, num_sampled, unique,
                            range_max, seed, weights=np.array(weights, np.float32))


@export("random.all_candidate_sampler", "nn.all_candidate_sampler")
def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
  """"Samples" every class 0..num_sampled-1, with expected counts 1."""
  return _candidate_sampler("AllCandidateSampler", "all", true_classes, num_true, num_sampled,
                            unique, num_sampled, seed)


@export("nn.compute_accidental_hits")
def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
  """(row indices int32, sampled positions int64, weights -FLT_MAX) of sampled true classes."""
  op_name = "ComputeAccidentalHits"
  true_classes = _concrete(ops.convert_to_tensor(true_classes, dtypes.int64), op_name)
  sampled = _concrete(ops.convert_to_tensor(sampled_candidates, dtypes.int64), op_name)
  if true_classes.ndim != 2 or true_classes.shape[1] != int(num_true):
    raise invalid("true_candidates must be a batch_size * num_true matrix", op_name)
  if sampled.ndim != 1:
    raise invalid("sampled_candidates must be a vector, which is typically an output from "
          "CandidateSampler", op_name)
  position = {int(c): j for j, c in enumerate(sampled)}  # the last position of a repeat
  hits = [(i, position[int(c)]) for i, row in enumerate(true_classes) for c in row
          if int(c) in position]
  rows = np.array([h[0] for h in hits], np.int32)
  ids = np.array([h[1] for h in hits], np.int64)
  return (Tensor(jnp.asarray(rows)), Tensor(jnp.asarray(ids)),
          Tensor(jnp.full(len(hits), -_FLT_MAX, jnp.float32)))


# ---- Sampled losses ----
def _lookup(ids, tables, strategy):
  return nn_impl._embedding_lookup.impl(ids, *tables, strategy=strategy, max_norm=None)


def _sum_rows(x):
  return jnp.matmul(x, jnp.ones((x.shape[1], 1), x.dtype))[:, 0]


@op(name="SampledLoss")
def _sampled_loss(inputs, labels, sampled, true_count, sampled_count, *tables, num_weights,
                  strategy, num_true, remove_hits, subtract_log_q, loss):
  weights, biases = tables[:num_weights], tables[num_weights:]
  dtype = inputs.dtype
  labels_flat = labels.reshape(-1)
  all_ids = jnp.concatenate([labels_flat, sampled])
  all_w = _lookup(all_ids, weights, strategy).astype(dtype)
  all_b = _lookup(all_ids, biases, strategy).astype(dtype)
  n = labels_flat.shape[0]
  true_w, sampled_w = all_w[:n], all_w[n:]
  sampled_logits = jnp.matmul(inputs, sampled_w.T) + all_b[n:]
  dots = inputs[:, None, :] * true_w.reshape(-1, num_true, true_w.shape[1])
  true_logits = _sum_rows(dots.reshape(-1, true_w.shape[1])).reshape(-1, num_true)
  true_logits = true_logits + all_b[:n].reshape(-1, num_true)
  if remove_hits:  # the last position of each sampled id that is a true class of its row
    later = jnp.triu(sampled[:, None] == sampled[None, :], 1).any(axis=1)
    hit = (labels[:, :, None] == sampled[None, None, :]).any(axis=1) & ~later[None, :]
    sampled_logits = sampled_logits + jnp.where(hit, jnp.asarray(-_FLT_MAX, dtype), 0)
  if subtract_log_q:
    true_logits = true_logits - jnp.log(true_count.astype(dtype))
    sampled_logits = sampled_logits - jnp.log(sampled_count.astype(dtype))
  logits = jnp.concatenate([true_logits, sampled_logits], 1)
  targets = jnp.concatenate([jnp.ones_like(true_logits) / num_true,
                             jnp.zeros_like(sampled_logits)], 1)
  if loss == "nce":
    per_logit = (jnp.maximum(logits, 0) - logits * targets
                 + jnp.log1p(jnp.exp(-jnp.abs(logits))))
    return _sum_rows(per_logit)
  return -jnp.sum(targets * jax.nn.log_softmax(logits, axis=1), axis=1)


def _as_list(params):
  if params is not None and hasattr(params, "_get_variable_list"):  # PartitionedVariable
    params = list(params)
  return list(params) if isinstance(params, (list, tuple)) else [params]


def _sampled(kind, weights, biases, labels, inputs, num_sampled, num_classes, num_true,
             sampled_values, remove_accidental_hits, partition_strategy, seed=None):
  if partition_strategy not in ("mod", "div"):
    raise ValueError("Unrecognized partition strategy: " + str(partition_strategy))
  weights, biases = _as_list(weights), _as_list(biases)
  inputs = ops.convert_to_tensor(inputs)
  labels = ops.convert_to_tensor(labels)
  if labels.dtype is not dtypes.int64:
    from tfe_compat.ops.matmul_cast_ops import cast  # pylint: disable=import-outside-toplevel
    labels = cast(labels, dtypes.int64)
  num_true = int(num_true)
  if sampled_values is None:
    sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                   num_classes, seed=seed)
  # stop_gradient: fresh Tensors, unknown to any tape
  sampled, true_count, sampled_count = (Tensor(ops.convert_to_tensor(v)._value)
                                        for v in sampled_values)
  sampled = Tensor(sampled._value.astype(jnp.int64))
  weights = ops.convert_matching(*weights, op_name="GatherV2")
  biases = ops.convert_matching(*biases, op_name="GatherV2")
  for tables in (weights, biases):
    ids = Tensor(jnp.concatenate([labels._value.reshape(-1), sampled._value]))
    if not isinstance(ids._value, jax.core.Tracer):
      nn_impl._check_ids(ids, [t._value.shape[0] for t in tables], partition_strategy)
  return _sampled_loss(inputs, labels, sampled, true_count, sampled_count, *weights, *biases,
                       num_weights=len(weights), strategy=partition_strategy,
                       num_true=num_true, remove_hits=bool(remove_accidental_hits),
                       subtract_log_q=True, loss=kind)


@export("nn.nce_loss")
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, partition_strategy="mod",
             name="nce_loss"):
  """Noise-contrastive estimation loss, [batch_size]: logistic loss on true vs sampled."""
  return _sampled("nce", weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                  sampled_values, remove_accidental_hits, partition_strategy)


@export("nn.sampled_softmax_loss")
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         partition_strategy="mod", name="sampled_softmax_loss", seed=None):
  """Softmax cross entropy over the true and the sampled classes, [batch_size]."""
  return _sampled("softmax", weights, biases, labels, inputs, num_sampled, num_classes,
                  num_true, sampled_values, remove_accidental_hits, partition_strategy, seed)


# ---- Sparse embedding lookups ----
@op(name="SparseSegmentCombine")
def _sparse_combine(ids, segments, weight_values, weight_index, *tables, num_segments,
                    strategy, max_norm, combiner, weighted):
  rows = nn_impl._embedding_lookup.impl(ids, *tables, strategy=strategy, max_norm=max_norm)
  if rows.dtype in (jnp.float16, jnp.bfloat16):
    rows = rows.astype(jnp.float32)
  if weighted:
    picked = jnp.take(weight_values, jnp.maximum(weight_index, 0))
    weights = jnp.where(weight_index >= 0, picked, jnp.ones_like(picked)).astype(rows.dtype)
  else:
    weights = jnp.ones(ids.shape, rows.dtype)
  weights = weights.reshape(weights.shape + (1,) * (rows.ndim - 1))
  sums = jax.ops.segment_sum(rows * weights, segments, num_segments)
  if combiner == "sum":
    return sums
  if weighted:
    norm = jax.ops.segment_sum(weights if combiner == "mean" else weights * weights,
                               segments, num_segments)
    norm = norm if combiner == "mean" else jnp.sqrt(norm)
    nonzero = norm != 0  # empty rows give 0, as TF's div_no_nan
    return jnp.where(nonzero, sums / jnp.where(nonzero, norm, 1), 0)
  counts = jax.ops.segment_sum(weights, segments, num_segments)  # empty segments give 0
  norm = counts if combiner == "mean" else jnp.sqrt(counts)
  return sums / jnp.maximum(norm, 1)


def _combine(params, ids, segments, weight_values, weight_index, num_segments,
             partition_strategy, combiner, max_norm):
  if partition_strategy not in ("mod", "div"):
    raise ValueError("Unrecognized partition strategy: " + str(partition_strategy))
  tables = ops.convert_matching(*params, op_name="GatherV2")
  ids_tensor = Tensor(jnp.asarray(ids, jnp.int64))
  if ids.size:
    nn_impl._check_ids(ids_tensor, [t._value.shape[0] for t in tables], partition_strategy)
  weighted = weight_values is not None
  if not weighted:
    weight_values = Tensor(jnp.zeros([0], jnp.float32))
  return _sparse_combine(ids_tensor, Tensor(jnp.asarray(segments, jnp.int32)), weight_values,
                         Tensor(jnp.asarray(weight_index, jnp.int32)), *tables,
                         num_segments=int(num_segments), strategy=partition_strategy,
                         max_norm=None if max_norm is None else float(max_norm),
                         combiner=combiner, weighted=weighted)


def _check_combiner(combiner):
  if combiner not in ("mean", "sqrtn", "sum"):
    raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum'")


@export("nn.embedding_lookup_sparse")
def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None,
                            combiner=None, max_norm=None):
  """Combines (sum/mean/sqrtn, optionally weighted) the embeddings of each row's ids.

  The result has max(row index) + 1 rows, as TF's segment sums give.
  """
  if combiner is None:
    combiner = "mean"
  _check_combiner(combiner)
  params = _as_list(params)
  if not isinstance(sp_ids, SparseTensor):
    raise TypeError("sp_ids must be SparseTensor")
  if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
    raise TypeError("sp_weights must be either None or SparseTensor")
  indices = _concrete(sp_ids.indices, "embedding_lookup_sparse")
  ids = _concrete(sp_ids.values, "embedding_lookup_sparse").astype(np.int64)
  segments = indices[:, 0] if indices.size else np.zeros([0], np.int64)
  num_segments = int(segments.max()) + 1 if segments.size else 0
  weight_values = None if sp_weights is None else sp_weights.values
  if weight_values is not None and weight_values._value.shape != ids.shape:
    raise ValueError("Shapes %s and %s are incompatible" % (
        list(ids.shape), list(weight_values._value.shape)))
  return _combine(params, ids, segments, weight_values, np.arange(ids.size), num_segments,
                  partition_strategy, combiner, max_norm)


@export("nn.safe_embedding_lookup_sparse")
def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, name=None,
                                 partition_strategy="div", max_norm=None):
  """`embedding_lookup_sparse` that drops ids < 0 (and weights <= 0 unless combiner is
  'sum'), gives empty rows `default_id`'s embedding (or zeros), and keeps the leading
  dimensions of `sparse_ids` (shape dense_shape[:-1] + embedding shape)."""
  if embedding_weights is None:
    raise ValueError("Missing embedding_weights %s." % embedding_weights)
  params = _as_list(embedding_weights)
  if not params:
    raise ValueError("Missing embedding_weights %s." % embedding_weights)
  _check_combiner(combiner)
  if sparse_weights is not None:
    params = [ops.convert_to_tensor(p, sparse_weights.dtype) if isinstance(p, Tensor) else p
              for p in params]
  what = "safe_embedding_lookup_sparse"
  shape = _concrete(sparse_ids.dense_shape, what)
  indices = _concrete(sparse_ids.indices, what).reshape(-1, len(shape))
  ids = _concrete(sparse_ids.values, what).astype(np.int64)
  rows = int(np.prod(shape[:-1]))
  segments = (np.ravel_multi_index(tuple(indices[:, :-1].T), tuple(shape[:-1]))
              if len(shape) > 1 and ids.size else np.zeros(ids.shape, np.int64))
  keep = ids >= 0
  if sparse_weights is not None and combiner != "sum":
    keep &= _concrete(sparse_weights.values, what) > 0
  weight_index = np.flatnonzero(keep)
  empty = np.ones(rows, bool)
  empty[segments[keep]] = False
  filled = np.flatnonzero(empty)
  ids = np.concatenate([ids[keep], np.full(filled.size, default_id or 0, np.int64)])
  segments = np.concatenate([segments[keep], filled])
  weight_index = np.concatenate([weight_index, np.full(filled.size, -1)])
  values = None if sparse_weights is None else sparse_weights.values
  result = _combine(params, ids, segments, values, weight_index, rows, partition_strategy,
                    combiner, max_norm)
  if default_id is None:
    result = _zero_rows(result, Tensor(jnp.asarray(empty)))
  return _reshape_rows(result, shape=tuple(int(d) for d in shape[:-1]))


@op(name="Select")
def _zero_rows(result, empty):
  mask = empty.reshape(empty.shape + (1,) * (result.ndim - 1))
  return jnp.where(mask, jnp.zeros_like(result), result)


@op(name="Reshape")
def _reshape_rows(result, *, shape):
  return result.reshape(shape + result.shape[1:])
