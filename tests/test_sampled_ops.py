"""Candidate samplers, nce_loss / sampled_softmax_loss and sparse embedding lookups.

Golden values come from `tf.compat.v1.nn.*` of real TensorFlow (run separately; these
tests never import tensorflow). Sampled values cannot match TF's random streams: the
samplers are checked through shapes, dtypes, uniqueness and TF's expected-count formulas.
"""
import numpy as np
import pytest

import tfe_compat as tf
import tfe_compat.ops.sampled_ops as sampled_ops  # noqa: F401



def A(*shape, scale=0.1, offset=0.0):
  n = int(np.prod(shape))
  return ((np.arange(n) * 7 % 13 - 6) * scale + offset).astype(np.float32).reshape(shape)


ALL_IDS = np.arange(10, dtype=np.int64).reshape(10, 1)
LOG_UNIFORM_4 = [1.1562593, 0.67636836, 0.47989097, 0.37223235, 0.30413598, 0.25714332,
                 0.22274767, 0.19647737, 0.175755, 0.15898973]  # p(k) * 4, range 10


@pytest.mark.parametrize("name,golden", [
    ("log_uniform_candidate_sampler", LOG_UNIFORM_4),
    ("uniform_candidate_sampler", [0.4] * 10),
    ("learned_unigram_candidate_sampler", [0.4] * 10)])
def test_sampler_non_unique_expected_counts(name, golden):
  for namespace in (tf.nn, tf.random):
    s, t, e = getattr(namespace, name)(ALL_IDS, 1, 4, False, 10, seed=5)
    assert s.dtype == tf.int64 and s.shape == (4,)
    assert t.dtype == tf.float32 and t.shape == (10, 1) and e.dtype == tf.float32
    np.testing.assert_allclose(t.numpy().ravel(), golden, rtol=1e-6)
    assert np.all((s.numpy() >= 0) & (s.numpy() < 10))
    np.testing.assert_allclose(e.numpy(), np.array(golden, np.float32)[s.numpy()], rtol=1e-6)


def test_log_uniform_unique_formula():
  # TF's outputs for sampled [7 0 2 6 3 1] (unique=True, range 10): 1 - (1 - p)^num_tries.
  golden = [0.9347411, 0.7727922, 0.6402764, 0.54224217, 0.46881238, 0.41231358, 0.36769292,
            0.33164358, 0.3019513, 0.2770907]
  probs = sampled_ops._probability("log_uniform", np.arange(10), 10, None)
  np.testing.assert_allclose(sampled_ops._expected_counts(probs, 6, 8), golden, rtol=1e-6)
  s, t, e = tf.random.log_uniform_candidate_sampler(ALL_IDS, 1, 6, True, 10, seed=7)
  assert len(set(s.numpy().tolist())) == 6
  assert any(np.allclose(sampled_ops._expected_counts(probs, 6, tries), t.numpy().ravel(),
                         rtol=1e-6) for tries in range(6, 500))  # one num_tries for all


def test_unique_uniform_draws_every_class():
  s, t, e = tf.nn.uniform_candidate_sampler([[1]], 1, 5, True, 5, seed=1)
  assert sorted(s.numpy().tolist()) == [0, 1, 2, 3, 4]


def test_seeds_reproduce():
  tf.set_random_seed(3)
  first = [tf.nn.log_uniform_candidate_sampler([[1]], 1, 8, False, 1000)[0].numpy()
           for _ in range(2)]
  tf.set_random_seed(3)
  again = [tf.nn.log_uniform_candidate_sampler([[1]], 1, 8, False, 1000)[0].numpy()
           for _ in range(2)]
  np.testing.assert_array_equal(first, again)
  assert not np.array_equal(first[0], first[1])


def test_learned_unigram_counts_true_classes():
  tc = [[1, 2], [3, 3]]
  _, t1, _ = tf.nn.learned_unigram_candidate_sampler(tc, 2, 4, False, 5, seed=123)
  _, t2, _ = tf.nn.learned_unigram_candidate_sampler(tc, 2, 4, False, 5, seed=123)
  np.testing.assert_allclose(t1.numpy(), [[0.8, 0.8], [0.8, 0.8]], rtol=1e-6)
  np.testing.assert_allclose(t2.numpy(), [[0.8888889] * 2, [1.3333334] * 2], rtol=1e-6)


def test_fixed_unigram():
  _, t, _ = tf.nn.fixed_unigram_candidate_sampler(
      np.arange(6).reshape(6, 1), 1, 3, False, 6, unigrams=[1., 2., 3., 4.], distortion=0.5,
      num_reserved_ids=2)
  np.testing.assert_allclose(t.numpy().ravel(), [0., 0., 0.48810133, 0.69027954, 0.8454163,
                                                 0.97620267], rtol=1e-6)
  s, t, _ = tf.random.fixed_unigram_candidate_sampler(
      [[0], [1], [2]], 1, 2, False, 3, unigrams=[1., 2., 3., 4., 5., 6.], num_shards=2,
      shard=1, distortion=2.0)
  np.testing.assert_allclose(t.numpy().ravel(), [0.14285715, 0.5714286, 1.2857143], rtol=1e-6)


def test_fixed_unigram_vocab_file(tmp_path):
  path = tmp_path / "vocab.csv"
  path.write_text("a,1\nb,2\nc,3\nd,4\n")
  s, t, _ = tf.nn.fixed_unigram_candidate_sampler(
      np.arange(6).reshape(6, 1), 1, 3, True, 6, vocab_file=str(path), distortion=0.5,
      num_reserved_ids=2, seed=1)
  assert set(s.numpy().tolist()) <= {2, 3, 4, 5} and len(set(s.numpy().tolist())) == 3
  assert t.numpy()[0, 0] == 0 and t.numpy()[1, 0] == 0
  with pytest.raises(tf.errors.InvalidArgumentError, match="Must provide either"):
    tf.nn.fixed_unigram_candidate_sampler([[0]], 1, 1, True, 4)


def test_all_candidate_sampler():
  s, t, e = tf.nn.all_candidate_sampler([[1, 2]], 2, 3, True)
  np.testing.assert_array_equal(s.numpy(), [0, 1, 2])
  np.testing.assert_array_equal(t.numpy(), [[1., 1.]])
  np.testing.assert_array_equal(e.numpy(), [1., 1., 1.])


@pytest.mark.parametrize("args,message", [
    (([1, 2], 1, 2, True, 5), "true_classes must be a matrix"),
    (([[1, 2]], 1, 2, True, 5), "true_classes must have num_true columns, expected: 2 was: 1"),
    (([[1]], 1, 6, True, 5), "Sampler's range is too small."),
    (([[7]], 1, 2, True, 5), r"`true_candidate` out of range \[0, 5\), received 7")])
def test_sampler_errors(args, message):
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=message + r" \[Op:UniformCandidateSampler\]"):
    tf.nn.uniform_candidate_sampler(*args)


def test_compute_accidental_hits():
  rows, ids, weights = tf.nn.compute_accidental_hits([[1, 2], [3, 3]], [3, 1, 3, 7], 2)
  assert rows.dtype == tf.int32 and ids.dtype == tf.int64 and weights.dtype == tf.float32
  np.testing.assert_array_equal(rows.numpy(), [0, 1, 1])
  np.testing.assert_array_equal(ids.numpy(), [1, 2, 2])
  np.testing.assert_array_equal(weights.numpy(), [-np.finfo(np.float32).max] * 3)


# ---- Sampled losses ----
W, B, X = A(7, 3), A(7, scale=0.05), A(2, 3, scale=0.2, offset=0.1)
LABELS = np.array([[1, 4], [3, 3]], np.int64)
SAMPLED = (np.array([3, 0, 5, 1], np.int64), np.array([[0.5, 0.25], [0.4, 0.4]], np.float32),
           np.array([0.3, 0.9, 0.2, 0.6], np.float32))
LOSSES = {  # (function, remove_accidental_hits): (loss, d/dx, d/dW rows 0,1,3,4,5, d/dB)
    ("nce_loss", False): (
        [7.0144663, 7.3827143],
        [[-0.5243583, -0.13177045, -0.23035625], [0.80315334, -0.56937397, 1.4801165]],
        [[-0.506148, -0.18441756, -0.24769114], [0.18662047, -0.90724236, 0.59467447],
         [0.9903759, -2.0633974, 1.7358792], [-0.23571509, 0.06428593, -0.1928578],
         [-0.2843398, -0.76596373, 0.20271885]],
        [1.292284, 2.0402699, 0., 3.7275162, 0.21428645, 2.4352932, 0.]),
    ("nce_loss", True): (
        [6.345604, 5.2169547],
        [[-0.6219, 0.0633131, -0.3766689], [-0.08218396, -0.3923065, 0.41771173]],
        [[-0.506148, -0.18441756, -0.24769114], [0.72310024, -1.053555, 1.0336124],
         [0.10503864, -0.8239254, 0.49640703], [-0.23571509, 0.06428593, -0.1928578],
         [-0.2843398, -0.76596373, 0.20271885]],
        [1.292284, 1.552561, 0., 1.956842, 0.21428645, 2.4352932, 0.]),
    ("sampled_softmax_loss", True): (
        [2.5995111, 1.1404994],
        [[-0.4683383, 0.55474603, -0.4683383], [-0.4815185, 0.00261346, -0.48151848]],
        [[-0.10236955, 0.0029876, -0.0708891], [0.66922045, -0.37919745, 0.6490577],
         [-0.41881847, 0.52080935, -0.5525206], [0.4290802, -0.11702187, 0.35106558],
         [-0.5771126, -0.02757766, -0.37671354]],
        [0.15740226, -0.10081378, 0., -0.66851044, -0.39007288, 1.0019948, 0.]),
    ("sampled_softmax_loss", False): (
        [2.6405196, 1.4955217],
        [[-0.44550306, 0.5364748, -0.44550312], [-0.33762044, 0.00183245, -0.33762044]],
        [[-0.1039772, 0.01087659, -0.07604989], [0.57510287, -0.29475188, 0.5417158],
         [-0.3086958, 0.36927074, -0.39970782], [0.4339386, -0.11834689, 0.35504064],
         [-0.5963684, 0.03295137, -0.42099863]],
        [0.13963653, -0.16693524, 0., -0.45506036, -0.39448962, 0.8768487, 0.]),
}
SHARDS = {"mod": [[0, 3, 6], [1, 4], [2, 5]], "div": [[0, 1, 2], [3, 4], [5, 6]]}


@pytest.mark.parametrize("key", sorted(LOSSES))
@pytest.mark.parametrize("strategy,parts", [("mod", 1), ("mod", 3), ("div", 3)])
def test_sampled_losses(key, strategy, parts):
  fn, remove = key
  loss_gold, dx_gold, dw_rows, db_gold = LOSSES[key]
  dw_gold = np.zeros([7, 3], np.float32)
  dw_gold[[0, 1, 3, 4, 5]] = dw_rows
  rows = SHARDS[strategy] if parts == 3 else [list(range(7))]
  ws = [tf.Variable(W[r]) for r in rows]
  bs = [tf.Variable(B[r]) for r in rows]
  x = tf.constant(X)
  with tf.GradientTape() as tape:
    tape.watch(x)
    loss = getattr(tf.nn, fn)(ws if parts == 3 else ws[0], bs if parts == 3 else bs[0],
                              LABELS, x, 4, 7, num_true=2, sampled_values=SAMPLED,
                              remove_accidental_hits=remove, partition_strategy=strategy)
    total = tf.reduce_sum(loss * tf.constant([1.0, 2.0]))
  assert loss.dtype == tf.float32 and loss.shape == (2,)
  np.testing.assert_allclose(loss.numpy(), loss_gold, rtol=1e-5)
  grads = tape.gradient(total, [x] + ws + bs)
  np.testing.assert_allclose(grads[0].numpy(), dx_gold, rtol=1e-4, atol=1e-6)
  for r, g in zip(rows, grads[1:1 + len(rows)]):
    np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), dw_gold[r], atol=1e-6)
  for r, g in zip(rows, grads[1 + len(rows):]):
    np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), np.array(db_gold)[r],
                               atol=1e-6)


def test_sampled_softmax_draws_its_own_samples():
  loss = tf.nn.sampled_softmax_loss(tf.constant(W), tf.constant(B), [[1], [3]], X, 3, 7,
                                    seed=2)
  assert loss.shape == (2,) and loss.dtype == tf.float32
  assert np.all(np.isfinite(loss.numpy())) and np.all(loss.numpy() > 0)


# ---- Sparse embedding lookups ----
P = A(6, 2)
INDICES = [[0, 0], [0, 1], [2, 0], [2, 1], [2, 2]]
IDS = tf.SparseTensor(INDICES, tf.constant([1, 5, 0, 1, 1], tf.int64), [4, 3])
WEIGHTS = tf.SparseTensor(INDICES, tf.constant([2.0, 0.5, 1.0, 3.0, -1.0]), [4, 3])
SPARSE = {  # (combiner, weighted): rows 0 and 2 (row 1 is zeros, row 3 absent)
    ("sum", False): [[-0.6, 0.8], [-1.6, 0.5]],
    ("sum", True): [[-1.05, 0.70000005], [-1.5999999, 0.50000006]],
    ("mean", False): [[-0.3, 0.4], [-0.53333336, 0.16666667]],
    ("mean", True): [[-0.42, 0.28000003], [-0.5333333, 0.16666669]],
    ("sqrtn", False): [[-0.42426407, 0.56568545], [-0.9237604, 0.28867513]],
    ("sqrtn", True): [[-0.5093248, 0.3395499], [-0.48241812, 0.15075569]],
}


@pytest.mark.parametrize("key", sorted(SPARSE))
def test_embedding_lookup_sparse(key):
  combiner, weighted = key
  out = tf.nn.embedding_lookup_sparse(tf.constant(P), IDS, WEIGHTS if weighted else None,
                                      combiner=combiner)
  assert out.dtype == tf.float32 and out.shape == (3, 2)
  gold = SPARSE[key]
  np.testing.assert_allclose(out.numpy(), [gold[0], [0., 0.], gold[1]], rtol=1e-5)


def test_embedding_lookup_sparse_partitions_max_norm_and_gradients():
  out = tf.nn.embedding_lookup_sparse([tf.constant(P[:3]), tf.constant(P[3:])], IDS, WEIGHTS,
                                      partition_strategy="div", combiner="sum", max_norm=0.5)
  np.testing.assert_allclose(out.numpy(), [[-0.9695765, 0.6179892], [0., 0.],
                                           [-1.4216737, 0.4535902]], rtol=1e-5)
  p = tf.Variable(P)
  wv = tf.Variable([2.0, 0.5, 1.0, 3.0, -1.0])
  with tf.GradientTape() as tape:
    r = tf.nn.embedding_lookup_sparse(p, IDS, tf.SparseTensor(INDICES, wv, [4, 3]),
                                      combiner="sqrtn")
    s = tf.reduce_sum(r * tf.constant(A(3, 2, offset=0.3)))
  gp, gw = tape.gradient(s, [p, wv])
  np.testing.assert_allclose(tf.convert_to_tensor(gp).numpy(), [
      [-0.03015113, 0.1809068], [-0.35134506, 0.74987066], [0., 0.], [0., 0.], [0., 0.],
      [-0.07276069, 0.09701426]], rtol=1e-5, atol=1e-7)
  np.testing.assert_allclose(gw.numpy(), [-0.02425358, 0.09701426, 0.0235727, 0.01343096,
                                          0.06386559], rtol=1e-5)
  with pytest.raises(ValueError, match="combiner must be one of"):
    tf.nn.embedding_lookup_sparse(P, IDS, None, combiner="max")
  with pytest.raises(TypeError, match="sp_ids must be SparseTensor"):
    tf.nn.embedding_lookup_sparse(P, [1, 2], None)


IDS3 = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1], [1, 1, 2]],
                       tf.constant([1, -1, 0, 4, 2], tf.int64), [2, 2, 3])
W3 = tf.SparseTensor(IDS3.indices, tf.constant([2.0, 1.0, 1.0, 0.0, 0.5]), IDS3.dense_shape)
SAFE = {  # (combiner, weighted): rows [0, 0] and [1, 1]; the others are empty
    ("sum", False): [[-0.5, 0.2], [-1.2, 0.90000004]],
    ("sum", True): [[-1., 0.4], [-0.8, 0.25]],
    ("mean", False): [[-0.5, 0.2], [-0.40000004, 0.3]],
    ("mean", True): [[-0.5, 0.2], [-0.53333336, 0.16666667]],
    ("sqrtn", False): [[-0.5, 0.2], [-0.6928203, 0.51961523]],
    ("sqrtn", True): [[-0.5, 0.2], [-0.7155418, 0.2236068]],
}


@pytest.mark.parametrize("key", sorted(SAFE))
@pytest.mark.parametrize("default_id", [None, 3])
def test_safe_embedding_lookup_sparse(key, default_id):
  combiner, weighted = key
  out = tf.nn.safe_embedding_lookup_sparse(tf.constant(P), IDS3, W3 if weighted else None,
                                           combiner=combiner, default_id=default_id)
  assert out.dtype == tf.float32 and out.shape == (2, 2, 2)
  empty = [0., 0.] if default_id is None else [-0.3, 0.4]
  gold = SAFE[key]
  np.testing.assert_allclose(out.numpy(), [[gold[0], empty], [empty, gold[1]]], rtol=1e-5)


def test_safe_embedding_lookup_sparse_mod_max_norm():
  out = tf.nn.safe_embedding_lookup_sparse([tf.constant(P[0::2]), tf.constant(P[1::2])], IDS3,
                                           W3, partition_strategy="mod", max_norm=0.4)
  np.testing.assert_allclose(out.numpy(), [[[-0.3713907, 0.14855629], [0., 0.]],
                                           [[0., 0.], [-0.36970508, 0.12383974]]], rtol=1e-5)
