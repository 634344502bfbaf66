"""tf.distributions (TF 1.15's tensorflow/python/ops/distributions): values, shapes, errors.

Golden values from TensorFlow 2.21's `tf.compat.v1.distributions` (TF 1.15's code, frozen).
"""
import numpy as np
import pytest

import tfe_compat as tf

tfd = tf.distributions
nan, inf = float("nan"), float("inf")

# family: (constructor, value for the value methods, {method: TF's result})
CASES = {
    "Normal": (lambda: tfd.Normal(loc=[0., 1.], scale=[1., 2.]), [0.5, -1.], {
        "log_prob": [-1.0439385, -2.1120858], "prob": [0.35206532, 0.12098535],
        "cdf": [0.69146246, 0.15865526], "log_cdf": [-0.36894643, -1.8410217],
        "survival_function": [0.30853754, 0.84134471],
        "log_survival_function": [-1.1759118, -0.17275381],
        "entropy": [1.4189385, 2.1120858], "mean": [0, 1], "variance": [1, 4],
        "stddev": [1, 2], "mode": [0, 1]}),
    "Laplace": (lambda: tfd.Laplace(loc=[0., 1.], scale=[1., 2.]), [0.5, -1.], {
        "log_prob": [-1.1931472, -2.3862944], "prob": [0.30326533, 0.091969863],
        "cdf": [0.69673467, 0.18393973], "log_cdf": [-0.36135063, -1.6931472],
        "log_survival_function": [-1.1931472, -0.20326707],
        "survival_function": [0.30326533, 0.8160603], "entropy": [1.6931472, 2.3862944],
        "mean": [0, 1], "variance": [1.9999999, 7.9999995], "stddev": [1.4142135, 2.8284271],
        "mode": [0, 1]}),
    "StudentT": (lambda: tfd.StudentT(df=[3., 1.5], loc=[0., 1.], scale=[1., 2.]), [0.5, -1.], {
        "log_prob": [-1.1609743, -2.4083295], "prob": [0.31318092, 0.089965455],
        "cdf": [0.67427599, 0.22556773], "entropy": [1.7734773, 2.8428059], "mean": [0, 1],
        "variance": [3, inf], "stddev": [1.7320508, inf], "mode": [0, 1]}),
    "Uniform": (lambda: tfd.Uniform(low=[0., 1.], high=[2., 4.]), [0.5, 4.], {
        "log_prob": [-0.69314718, -inf], "prob": [0.5, 0], "cdf": [0.25, 1],
        "entropy": [0.69314718, 1.0986123], "mean": [1, 2.5], "variance": [0.33333334, 0.75],
        "stddev": [0.57735026, 0.86602545]}),
    "Gamma": (lambda: tfd.Gamma(concentration=[0.5, 3.], rate=[1., 2.]), [0.5, 2.], {
        "log_prob": [-0.72579134, -1.2274113], "prob": [0.48394147, 0.29305023],
        "cdf": [0.68268955, 0.76189667], "log_cdf": [-0.38171506, -0.27194434],
        "entropy": [0.09060955, 1.1544316], "mean": [0.5, 1.5], "variance": [0.5, 0.75],
        "stddev": [0.70710677, 0.86602539], "mode": [nan, 1]}),
    "Exponential": (lambda: tfd.Exponential(rate=[1., 2.]), [0.5, 2.], {
        "log_prob": [-0.5, -3.3068528], "prob": [0.60653067, 0.036631279],
        "cdf": [0.39346936, 0.98168439], "log_survival_function": [-0.5, -4],
        "survival_function": [0.60653067, 0.018315613], "entropy": [1, 0.30685282],
        "mean": [1, 0.5], "variance": [1, 0.25], "stddev": [1, 0.5], "mode": [nan, nan]}),
    "Beta": (lambda: tfd.Beta(concentration1=[0.5, 3.], concentration0=[2., 4.]), [0.3, 0.6], {
        "log_prob": [-0.042370617, 0.32382107], "prob": [0.95851445, 1.3823999],
        "cdf": [0.73942542, 0.82080001], "log_cdf": [-0.30188185, -0.19747579],
        "entropy": [-0.76527911, -0.34434319], "mean": [0.2, 0.42857143],
        "variance": [0.045714289, 0.030612243], "stddev": [0.213809, 0.17496355],
        "mode": [nan, 0.40000001]}),
    "Bernoulli": (lambda: tfd.Bernoulli(logits=[-1., 2.]), [1, 0], {
        "log_prob": [-1.3132617, -2.1269281], "prob": [0.2689414, 0.11920291],
        "entropy": [0.58220303, 0.36533383], "mean": [0.26894143, 0.88079709],
        "variance": [0.19661194, 0.10499357], "stddev": [0.44340944, 0.32402712],
        "mode": [0, 1]}),
    "Categorical": (lambda: tfd.Categorical(logits=[[0., 1., 2.], [1., 1., 0.]]), [2, 0], {
        "log_prob": [-0.40760595, -0.8619948], "prob": [0.66524094, 0.42231879],
        "cdf": [0.33475906, 0], "entropy": [0.83239549, 1.0173572], "mode": [2, 0]}),
    "Dirichlet": (lambda: tfd.Dirichlet([[1.5, 2., 3.], [2., 2., 2.]]), [0.2, 0.3, 0.5], {
        "log_prob": [1.6952109, 1.2809339], "prob": [5.4477949, 3.6000001],
        "entropy": [-1.1016045, -0.93749154],
        "mean": [[0.23076923, 0.30769232, 0.46153846], [0.33333334, 0.33333334, 0.33333334]],
        "variance": [[0.023668639, 0.028402366, 0.033136092],
                     [0.031746034, 0.031746034, 0.031746034]],
        "covariance": [[[0.023668639, -0.0094674556, -0.014201184],
                        [-0.0094674556, 0.028402366, -0.018934911],
                        [-0.014201184, -0.018934911, 0.033136092]],
                       [[0.031746034, -0.015873019, -0.015873019],
                        [-0.015873019, 0.031746034, -0.015873019],
                        [-0.015873019, -0.015873019, 0.031746034]]]}),
    "DirichletMultinomial": (
        lambda: tfd.DirichletMultinomial(5., [[1., 2., 3.], [2., 2., 2.]]), [1., 2., 2.], {
            "log_prob": [-2.6390576, -2.6390581], "prob": [0.071428552, 0.071428515],
            "mean": [[0.83333337, 1.6666667, 2.5], [1.6666667, 1.6666667, 1.6666667]],
            "variance": [[1.0912699, 1.7460318, 1.9642857], [1.7460318, 1.7460318, 1.7460318]],
            "covariance": [[[1.0912699, -0.43650797, -0.65476197],
                            [-0.43650797, 1.7460318, -1.3095239],
                            [-0.65476197, -1.3095239, 1.9642857]],
                           [[1.7460318, -0.87301594, -0.87301594],
                            [-0.87301594, 1.7460318, -0.87301594],
                            [-0.87301594, -0.87301594, 1.7460318]]]}),
    "Multinomial": (
        lambda: tfd.Multinomial(total_count=[5., 4.], probs=[[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]),
        [1., 2., 2.], {
            "log_prob": [-2.0024805, -3.9404225], "prob": [0.13500001, 0.019439999],
            "mean": [[1, 1.5, 2.5], [0.40000001, 2.4000001, 1.2]],
            "variance": [[0.80000001, 1.05, 1.25], [0.36000001, 0.96000004, 0.84000003]],
            "covariance": [[[0.80000001, -0.30000001, -0.5], [-0.30000001, 1.05, -0.75],
                            [-0.5, -0.75, 1.25]],
                           [[0.36000001, -0.24000001, -0.12], [-0.24000001, 0.96000004,
                                                                -0.72000003],
                            [-0.12, -0.72000003, 0.84000003]]]}),
}
# methods TF 1.15 does not implement for a family
NOT_IMPLEMENTED = {
    "Normal": ["covariance"], "Laplace": ["quantile", "covariance"], "Uniform": ["mode"],
    "Bernoulli": ["cdf"], "Categorical": ["mean", "variance"],
    "DirichletMultinomial": ["entropy", "mode"], "Multinomial": ["entropy", "mode"],
}
STATS = ("entropy", "mean", "variance", "stddev", "mode", "covariance")


@pytest.mark.parametrize("family", sorted(CASES))
def test_values_match_tf(family):
  make, value, expected = CASES[family]
  dist = make()
  for method, want in expected.items():
    got = getattr(dist, method)() if method in STATS else getattr(dist, method)(value)
    discrete = method == "mode" and family in ("Bernoulli", "Categorical")
    assert got.dtype == (tf.int32 if discrete else tf.float32), method
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-5, atol=2e-6, err_msg=method)
  for method in NOT_IMPLEMENTED.get(family, []):
    with pytest.raises(NotImplementedError, match="is not implemented: " + family):
      getattr(dist, method)() if method in STATS else getattr(dist, method)(value)


def test_normal_quantile_and_float64():
  normal = tfd.Normal(loc=[0., 1.], scale=[1., 2.])
  np.testing.assert_allclose(normal.quantile(0.3).numpy(), [-0.52440047, -0.048800945],
                             rtol=1e-5)
  wide = tfd.Normal(np.float64(0.), np.float64(1.))
  assert wide.dtype == tf.float64 and wide.log_prob(0.5).dtype == tf.float64
  np.testing.assert_allclose(wide.log_prob(0.5).numpy(), -1.0439385332046727, rtol=1e-14)


KL_CASES = [
    (lambda: (tfd.Normal([0., 1.], [1., 2.]), tfd.Normal(0.5, 1.5)),
     [0.18324285745620728, 0.15676236152648926]),
    (lambda: (tfd.Bernoulli(logits=[-1., 2.]), tfd.Bernoulli(probs=0.3)),
     [0.0023453403264284134, 0.7376386523246765]),
    (lambda: (tfd.Beta([0.5, 3.], [2., 4.]), tfd.Beta(1., 1.5)),
     [0.5000002980232239, 0.24721240997314453]),
    (lambda: (tfd.Categorical(logits=[[0., 1., 2.], [1., 1., 0.]]),
              tfd.Categorical(probs=[0.2, 0.3, 0.5])),
     [0.06825938075780869, 0.27848806977272034]),
    (lambda: (tfd.Dirichlet([[1.5, 2., 3.], [2., 2., 2.]]), tfd.Dirichlet([1., 1., 1.])),
     [0.40845704078674316, 0.24434423446655273]),
    (lambda: (tfd.Gamma([0.5, 3.], [1., 2.]), tfd.Gamma(2., 3.)),
     [1.1756768226623535, 0.9187067747116089]),
    (lambda: (tfd.Exponential([1., 2.]), tfd.Exponential(3.)),  # through Gamma-Gamma
     [0.9013876914978027, 0.09453487396240234]),
    (lambda: (tfd.Exponential([1., 2.]), tfd.Gamma(2., 3.)),
     [0.3799912929534912, 0.26628565788269043]),
]


@pytest.mark.parametrize("index", range(len(KL_CASES)))
def test_registered_kl_pairs(index):
  make, want = KL_CASES[index]
  a, b = make()
  np.testing.assert_allclose(tfd.kl_divergence(a, b).numpy(), want, rtol=1e-5, atol=2e-6)


def test_kl_method_cross_entropy_and_registration():
  a, b = tfd.Normal(0., 1.), tfd.Normal(1., 2.)
  np.testing.assert_allclose(a.kl_divergence(b).numpy(), 0.44314718, rtol=1e-6)
  np.testing.assert_allclose(a.cross_entropy(b).numpy(), 1.8620857, rtol=1e-6)
  with pytest.raises(NotImplementedError, match="No KL\\(distribution_a \\|\\| distribution_b\\)"
                     " registered for distribution_a type Normal and distribution_b type Gamma"):
    tfd.kl_divergence(a, tfd.Gamma(1., 1.))
  with pytest.raises(tf.errors.InvalidArgumentError, match="returned NaN values"):
    tfd.kl_divergence(a, tfd.Normal(nan, 1.), allow_nan_stats=False)
  with pytest.raises(ValueError, match=r"KL\(Normal \|\| Normal\) has already been registered"):
    tfd.RegisterKL(tfd.Normal, tfd.Normal)(lambda x, y, name=None: 0)
  with pytest.raises(TypeError, match="kl_fn must be callable"):
    tfd.RegisterKL(tfd.Uniform, tfd.Uniform)(3)

  class MyNormal(tfd.Normal):
    pass

  class Other(tfd.Normal):
    pass

  np.testing.assert_allclose(tfd.kl_divergence(MyNormal(0., 1.), b).numpy(), 0.44314718,
                             rtol=1e-6)
  tfd.RegisterKL(MyNormal, Other)(lambda x, y, name=None: tf.constant(7.))
  assert float(tfd.kl_divergence(MyNormal(0., 1.), Other(0., 1.))) == 7.


SAMPLE_CASES = {  # family: (constructor of a Variable, its value, event shape, dtype, mean,
    #                  d sum(mean of samples[..., 0]) / d Variable, or None: not reparameterized)
    "Normal": (lambda v: tfd.Normal(v, 2.), [0., 1.], [], tf.float32, [0., 1.], [1., 1.]),
    "Laplace": (lambda v: tfd.Laplace(v, 2.), [0., 1.], [], tf.float32, [0., 1.], [1., 1.]),
    "StudentT": (lambda v: tfd.StudentT(5., v, 2.), [0., 1.], [], tf.float32, [0., 1.],
                 [1., 1.]),
    "Uniform": (lambda v: tfd.Uniform(v, 3.), [0., 1.], [], tf.float32, [1.5, 2.], [0.5, 0.5]),
    "Gamma": (lambda v: tfd.Gamma(v, 2.), [0.5, 3.], [], tf.float32, [0.25, 1.5], [0.5, 0.5]),
    "Exponential": (lambda v: tfd.Exponential(v), [1., 2.], [], tf.float32, [1., 0.5],
                    [-1., -0.25]),
    "Beta": (lambda v: tfd.Beta(v, 2.), [0.5, 3.], [], tf.float32, [0.2, 0.6], [0.32, 0.08]),
    "Bernoulli": (lambda v: tfd.Bernoulli(probs=v), [0.2, 0.7], [], tf.int32, [0.2, 0.7], None),
    "Categorical": (lambda v: tfd.Categorical(probs=v, dtype=tf.int64), [[0.2, 0.8], [0.5, 0.5]],
                    [], tf.int64, [0.8, 0.5], None),
    "Dirichlet": (lambda v: tfd.Dirichlet(v), [[1., 3.], [2., 2.]], [2], tf.float32,
                  [[0.25, 0.75], [0.5, 0.5]], [[0.1875, -0.0625], [0.125, -0.125]]),
    "DirichletMultinomial": (lambda v: tfd.DirichletMultinomial(4., v), [[1., 3.], [2., 2.]],
                             [2], tf.float32, [[1., 3.], [2., 2.]], None),
    "Multinomial": (lambda v: tfd.Multinomial([4., 2.], probs=v), [[0.25, 0.75], [0.5, 0.5]],
                    [2], tf.float32, [[1., 3.], [1., 1.]], None),
}
SUPPORTS = {
    "Uniform": lambda x: np.all((x >= [0., 1.]) & (x < 3.)),
    "Gamma": lambda x: np.all(x > 0), "Exponential": lambda x: np.all(x > 0),
    "Beta": lambda x: np.all((x > 0) & (x < 1)),
    "Bernoulli": lambda x: set(np.unique(x)) <= {0, 1},
    "Categorical": lambda x: set(np.unique(x)) <= {0, 1},
    "Dirichlet": lambda x: np.allclose(x.sum(-1), 1., rtol=1e-5),
    "DirichletMultinomial": lambda x: np.all(x.sum(-1) == 4),
    "Multinomial": lambda x: np.all(x.sum(-1) == [4., 2.]) and np.all(x >= 0),
}


@pytest.mark.parametrize("family", sorted(SAMPLE_CASES))
def test_samples_shapes_statistics_and_gradients(family):
  make, value, event, dtype, mean, grad = SAMPLE_CASES[family]
  param = tf.Variable(value)
  with tf.GradientTape() as tape:
    dist = make(param)
    many = dist.sample([2000, 2], seed=3)
    means = tf.reduce_mean(tf.cast(many, tf.float32), axis=[0, 1])
    target = tf.reduce_sum(means[..., 0] if event else means)
  assert dist.batch_shape.as_list() == [2] and dist.event_shape.as_list() == event
  assert many.dtype == dtype == dist.dtype
  assert many.shape.as_list() == [2000, 2, 2] + event
  np.testing.assert_allclose(means.numpy(), mean,
                             atol=0.08 * max(1., float(np.max(np.abs(mean)))))
  assert SUPPORTS.get(family, lambda x: True)(many.numpy())
  gradient = tape.gradient(target, param)
  if grad is None:
    assert dist.reparameterization_type is tfd.NOT_REPARAMETERIZED
    assert gradient is None  # as in TF: no gradient through these samples
  else:
    assert dist.reparameterization_type is tfd.FULLY_REPARAMETERIZED
    np.testing.assert_allclose(gradient.numpy(), grad, rtol=0.1, atol=0.02)


def test_sampling_details():
  assert tfd.Normal([0., 1.], 2.).sample().shape == (2,)
  assert tfd.Bernoulli(probs=0.5, dtype=tf.bool).sample(2).dtype == tf.bool
  assert repr(tfd.NOT_REPARAMETERIZED) == "<Reparameterization Type: NOT_REPARAMETERIZED>"
  with pytest.raises(ValueError, match="Input is neither scalar nor vector."):
    tfd.Normal(0., 1.).sample([[2]])
  with pytest.raises(tf.errors.InvalidArgumentError, match="num_samples should be a scalar"):
    tfd.DirichletMultinomial([5., 3.], [[1., 2.], [3., 4.]]).sample(3)


def test_seeded_samples_are_reproducible():
  tf.set_random_seed(5)
  first = tfd.Normal(0., 1.).sample(3, seed=7).numpy()
  again = tfd.Normal(0., 1.).sample(3, seed=7).numpy()
  tf.set_random_seed(5)
  np.testing.assert_array_equal(tfd.Normal(0., 1.).sample(3, seed=7).numpy(), first)
  assert not np.array_equal(first, again)
  tf.set_random_seed(None)


def test_log_prob_gradients_reach_parameters():
  loc, scale = tf.Variable(0.5), tf.Variable(2.)
  with tf.GradientTape() as tape:
    nll = -tf.reduce_sum(tfd.Normal(loc, scale).log_prob([1., 2.]))
  grad_loc, grad_scale = tape.gradient(nll, [loc, scale])
  np.testing.assert_allclose([grad_loc.numpy(), grad_scale.numpy()], [-0.5, 0.6875], rtol=1e-6)
  logits = tf.Variable([0., 1., 2.])
  with tf.GradientTape() as tape:
    loss = -tfd.Categorical(logits=logits).log_prob(2)
  np.testing.assert_allclose(tape.gradient(loss, logits).numpy(),
                             [0.09003057, 0.24472848, -0.33475906], rtol=1e-5)


def test_validate_args_errors():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Condition x > 0 did not hold element-wise"):
    tfd.Normal(0., -1., validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="uniform not defined when low >= high"):
    tfd.Uniform(2., 1., validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Concentration parameter must be positive"):
    tfd.Beta(-1., 2., validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="sample must be less than `1`"):
    tfd.Beta(1., 2., validate_args=True).log_prob(1.5)
  with pytest.raises(ValueError, match="must have at least 2 events"):
    tfd.Categorical(logits=[1.], validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="probs does not sum to 1"):
    tfd.Categorical(probs=[0.2, 0.3], validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Elements must be int32-equivalent"):
    tfd.Categorical(logits=[1., 2.], validate_args=True).log_prob(1.5)
  with pytest.raises(tf.errors.InvalidArgumentError, match="probs has components greater than 1"):
    tfd.Bernoulli(probs=1.3, validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Elements cannot exceed 1"):
    tfd.Bernoulli(probs=0.3, validate_args=True).log_prob(2)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="sample last-dimension must sum to `1`"):
    tfd.Dirichlet([1., 2.], validate_args=True).log_prob([0.5, 0.6])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="'2.5' cannot contain fractional components"):
    tfd.DirichletMultinomial(2.5, [1., 2.], validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="'-3.0' must be non-negative"):
    tfd.Multinomial(-3., probs=[0.5, 0.5], validate_args=True)
  with pytest.raises(tf.errors.InvalidArgumentError, match="counts must sum to"):
    tfd.Multinomial(3., probs=[0.5, 0.5], validate_args=True).log_prob([1., 1.])
  with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x > 0"):
    tfd.Gamma(1., 2., validate_args=True).log_prob(-1.)


def test_allow_nan_stats():
  np.testing.assert_array_equal(tfd.StudentT([0.5, 3.], [1., 2.], 1.).mean().numpy(), [nan, 2.])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="mean not defined for components of df <= 1"):
    tfd.StudentT(1., 0., 1., allow_nan_stats=False).mean()
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="variance not defined for components of df <= 1"):
    tfd.StudentT([0.5, 3.], 0., 1., allow_nan_stats=False).variance()
  np.testing.assert_array_equal(
      tfd.StudentT([1.5, 3.], 0., 1., allow_nan_stats=False).variance().numpy(), [inf, 3.])
  with pytest.raises(tf.errors.InvalidArgumentError, match="Mode undefined for concentration1"):
    tfd.Beta([0.5, 3.], 2., allow_nan_stats=False).mode()
  with pytest.raises(tf.errors.InvalidArgumentError, match="mode not defined when any conc"):
    tfd.Gamma([0.5, 3.], 2., allow_nan_stats=False).mode()
  with pytest.raises(tf.errors.InvalidArgumentError, match="Mode undefined when any conc"):
    tfd.Dirichlet([0.5, 3.], allow_nan_stats=False).mode()
  np.testing.assert_allclose(tfd.Dirichlet([2., 3.]).mode().numpy(), [1 / 3, 2 / 3], rtol=1e-6)
  np.testing.assert_array_equal(tfd.Dirichlet([0.5, 3.]).mode().numpy(), [nan, nan])


def test_dtype_and_shape_errors():
  with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>"):
    tfd.Normal(0, 1)
  with pytest.raises(ValueError, match=r"must be of the same type \(<dtype: 'float64'>\) as"):
    tfd.Normal(np.float64(0.), 1.)
  normal = tfd.Normal([0., 1.], 2.)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Incompatible shapes: \[3\] vs. \[2\] \[Op:Sub\]"):
    normal.log_prob([1., 2., 3.])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="cannot compute Sub as input #1\\(zero-based\\) was expected to be a "
                     "double tensor but is a float tensor"):
    normal.log_prob(tf.constant(1., tf.float64))
  with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Xlogy"):
    tfd.Beta(1., 2.).log_prob(tf.constant(0.5, tf.float64))
  with pytest.raises(ValueError, match="must be of the same type"):
    tfd.Gamma(1., 2.).log_prob(tf.constant(1., tf.float64))
  with pytest.raises(ValueError, match=r"Incompatible shapes for broadcasting: \(2,\) and \(3,\)"):
    tfd.Normal([0., 1.], [1., 2., 3.]).batch_shape  # pylint: disable=expression-not-assigned
  with pytest.raises(ValueError, match="Must pass probs or logits, but not both"):
    tfd.Categorical(probs=[0.2, 0.8], logits=[1., 2.])
  with pytest.raises(TypeError, match="logits must having floating type"):
    tfd.Bernoulli(logits=[1, 2])
  categorical = tfd.Categorical(logits=[[0., 1., 2.], [1., 1., 0.]])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Received a label value of 3 which is outside the valid range of "
                     r"\[0, 3\)\.  Label values: 3 3"):
    categorical.log_prob(3)
  np.testing.assert_allclose(categorical.log_prob(1.5).numpy(), [-1.4076059, -0.8619948],
                             rtol=1e-6)
  np.testing.assert_allclose(categorical.cdf(5).numpy(), [1., 1.], rtol=1e-6)
  with pytest.raises(tf.errors.InvalidArgumentError):
    tfd.Dirichlet([[1., 2., 3.], [2., 2., 2.]]).mode()  # TF's where() cannot broadcast


def test_names_parameters_shapes_and_printing():
  normal = tfd.Normal([0., 1.], 2.)
  assert normal.name == "Normal/"
  assert normal.parameters == {"loc": [0., 1.], "scale": 2., "validate_args": False,
                               "allow_nan_stats": True, "name": "Normal"}
  with tf.name_scope("outer"):
    assert tfd.Gamma(1., 2., name="g").name == "outer/g/"
  copy = normal.copy(scale=3.)
  assert isinstance(copy, tfd.Normal) and float(copy.stddev()[0]) == 3.
  assert normal.batch_shape_tensor().numpy().tolist() == [2]
  assert normal.event_shape_tensor().numpy().tolist() == []
  assert bool(tfd.Normal(0., 1.).is_scalar_batch()) and not bool(normal.is_scalar_batch())
  assert bool(normal.is_scalar_event())
  shapes = tfd.Normal.param_static_shapes([2, 3])
  assert {k: v.as_list() for k, v in shapes.items()} == {"loc": [2, 3], "scale": [2, 3]}
  assert tfd.Normal.param_shapes([4])["scale"].numpy().tolist() == [4]
  dirichlet = tfd.Dirichlet([[1., 2., 3.]])
  assert str(dirichlet) == ('tfp.distributions.Dirichlet("Dirichlet/", batch_shape=(1,), '
                            'event_shape=(3,), dtype=float32)')
  assert repr(tfd.Categorical(logits=[1., 2.])) == (
      "<tfp.distributions.Categorical 'Categorical/' batch_shape=() event_shape=() "
      "dtype=int32>")
  exponential = tfd.Exponential(2.)
  assert exponential.parameters == {"rate": 2., "validate_args": False,
                                    "allow_nan_stats": True, "name": "Exponential"}
  assert isinstance(exponential, tfd.Gamma) and float(exponential.concentration) == 1.
  assert tfd.Categorical(logits=[1., 2., 3.]).event_size.numpy() == 3
  np.testing.assert_allclose(tfd.Uniform([0., 1.], 3.).range().numpy(), [3., 2.])
  np.testing.assert_array_equal(tfd.Uniform(0., 1.).prob([nan, 0.5]).numpy(), [nan, 1.])
  np.testing.assert_allclose(tfd.Bernoulli(probs=[0.25, 0.5]).logits.numpy(),
                             [-1.0986123, 0.], atol=1e-6)
  np.testing.assert_allclose(tfd.Beta([1., 2.], 3.).total_concentration.numpy(), [4., 5.])


def test_namespaces_and_subclassing():
  assert tf.compat.v1.distributions.Normal is tfd.Normal
  for name in ("Normal", "Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial",
               "Exponential", "Gamma", "Laplace", "Multinomial", "StudentT", "Uniform",
               "Distribution", "kl_divergence", "RegisterKL", "ReparameterizationType",
               "FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED"):
    assert getattr(tf.contrib.distributions, name) is getattr(tfd, name)
  softplus = tf.contrib.distributions.NormalWithSoftplusScale(0., -1.)
  np.testing.assert_allclose(softplus.scale.numpy(), 0.31326169, rtol=1e-6)
  assert softplus.name == "NormalWithSoftplusScale/"

  class Coin(tfd.Distribution):
    def __init__(self):
      super().__init__(dtype=tf.float32, reparameterization_type=tfd.NOT_REPARAMETERIZED,
                       validate_args=False, allow_nan_stats=True, parameters={})

    def _log_prob(self, x):
      return tf.math.log(0.5 * tf.ones_like(x))

  coin = Coin()
  assert coin.name == "Coin/"
  np.testing.assert_allclose(coin.prob([0., 1.]).numpy(), [0.5, 0.5])  # prob from log_prob
  with pytest.raises(NotImplementedError, match="mean is not implemented: Coin"):
    coin.mean()
  with pytest.raises(NotImplementedError, match="stddev is not implemented: Coin"):
    coin.stddev()


def test_inside_tf_function():
  @tf.function
  def f(loc):
    normal = tfd.Normal(loc, 1.)
    return normal.log_prob(0.5), normal.sample(3), tfd.Categorical(logits=[0., 1.]).sample(2)

  log_prob, first, classes = f(tf.constant([1., 2.]))
  np.testing.assert_allclose(log_prob.numpy(), [-1.0439385, -2.0439386], rtol=1e-6)
  assert first.shape == (3, 2) and classes.shape == (2,) and classes.dtype == tf.int32
  _, second, _ = f(tf.constant([1., 2.]))
  assert not np.array_equal(first.numpy(), second.numpy())  # fresh draws on every call
