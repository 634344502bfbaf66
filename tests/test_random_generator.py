"""tf.random.experimental.Generator: TF's Philox-4x32-10 streams, state layout and advance.

Golden values come from TensorFlow 2.21's CPU kernels (the same Philox generator and
distributions as TF 1.15's stateful ops). Uniform floats and integers are bit-exact; normal
values match up to TF's libm rounding (about 1 ulp).
"""
import numpy as np
import pytest

import tfe_compat as tf

Generator = tf.random.experimental.Generator


def _state(g):
  return g.state.numpy().tolist()


def test_from_seed_normal_matches_tf_and_advances_state():
  g = Generator.from_seed(1234)
  assert _state(g) == [1234, 0, 0]
  assert g.algorithm == 1
  assert g.key.numpy() == 0 and g.key.dtype == tf.int64
  assert g.state.dtype == tf.int64 and not g.state.trainable
  x = g.normal((2, 3))
  assert x.dtype == tf.float32 and x.shape == (2, 3)
  np.testing.assert_allclose(x.numpy(), [[0.9356609, 1.0854305, -0.93788373],
                                         [-0.5061547, 1.3169702, 0.7137579]], rtol=2e-7)
  assert _state(g) == [2770, 0, 0]  # 256 Philox blocks per value
  np.testing.assert_allclose(g.normal((5,)).numpy(), [-0.39647493, 0.83695656, -0.30946946,
                                                      1.1206646, 1.008526], rtol=2e-7)
  assert _state(g) == [4050, 0, 0]
  g.normal([])
  assert _state(g) == [4306, 0, 0]


def test_uniform_floats_are_bit_exact():
  g = Generator.from_seed(1234)
  np.testing.assert_array_equal(
      g.uniform((5,)).numpy(),
      [0.3581475019454956, 0.11322760581970215, 0.566709041595459, 0.6712368726730347,
       0.32565057277679443])
  assert _state(g) == [2514, 0, 0]
  g = Generator.from_seed(1234)
  np.testing.assert_array_equal(g.uniform((3,), dtype=tf.float64).numpy(),
                                [0.8651800399892546, 0.5336725426302047, 0.6052055324818093])
  g = Generator.from_seed(1234)
  half = g.uniform((5,), dtype=tf.float16)
  assert half.dtype == tf.float16
  np.testing.assert_array_equal(half.numpy(), np.array([0.9443, 0.5605, 0.4805, 0.7725, 0.7295],
                                                       np.float16))
  g = Generator.from_seed(1234)
  np.testing.assert_array_equal(g.uniform((3,), dtype=tf.bfloat16).numpy().astype(np.float32),
                                [0.5546875, 0.484375, 0.84375])
  g = Generator.from_seed(7)
  np.testing.assert_array_equal(g.uniform((2, 2), minval=[1., 2.], maxval=3.).numpy(),
                                [[1.798656702041626, 2.784071445465088],
                                 [2.357603073120117, 2.7339589595794678]])


def test_normal_other_dtypes_and_mean_stddev():
  g = Generator.from_seed(1234)
  np.testing.assert_allclose(g.normal((3,), dtype=tf.float64).numpy(),
                             [-0.11301515572433057, -0.5261776169327548, -0.9897260194697486],
                             rtol=2e-15)
  g = Generator.from_seed(1234)
  g.uniform((5,))
  half = g.normal((5,), dtype=tf.float16)
  np.testing.assert_array_equal(half.numpy(), np.array([-1.05, 1.744, -0.0845, 0.4304, 1.941],
                                                       np.float16))
  g = Generator.from_seed(7)
  g.uniform((2, 2))
  np.testing.assert_allclose(g.normal((3,), mean=[1., 2., 3.], stddev=2.).numpy(),
                             [0.00609148, 4.7059097, 4.9197054], rtol=1e-6)
  assert _state(g) == [1799, 0, 0]
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
    g.normal((2,), mean=[1., 2., 3.])


def test_truncated_normal_groups_follow_tf():
  g = Generator.from_seed(1234)
  np.testing.assert_allclose(g.truncated_normal((6,)).numpy(),
                             [0.9356609, 1.0854305, -0.93788373, -0.5061547, -0.098852344,
                              1.3884975], rtol=2e-7)
  assert _state(g) == [2770, 0, 0]
  g = Generator.from_seed(1234)
  np.testing.assert_allclose(g.truncated_normal((3,), dtype=tf.float64).numpy(),
                             [-0.11301515572433057, -0.5261776169327548,
                              -0.03737197936832225], rtol=2e-15)
  values = Generator.from_seed(3).truncated_normal((2000,), mean=1., stddev=0.5).numpy()
  assert np.all(np.abs(values - 1.) < 1.) and abs(values.mean() - 1.) < 0.03


def test_integer_draws_are_bit_exact():
  g = Generator.from_seed(1234)
  x = g.uniform((5,), minval=-3, maxval=10, dtype=tf.int32)
  assert x.dtype == tf.int32
  assert x.numpy().tolist() == [0, 0, 0, 2, 7]
  g = Generator.from_seed(1234)
  assert g.uniform((5,), minval=-3, maxval=10, dtype=tf.int64).numpy().tolist() == [
      1, 6, 6, 9, -2]
  g = Generator.from_seed(7)
  assert g.uniform((3,), minval=-2**31, maxval=2**31 - 1, dtype=tf.int32).numpy().tolist() == [
      682827057, -1964745613, 945218296]
  g = Generator.from_seed(7)
  assert g.uniform((3,), minval=5, maxval=2**40, dtype=tf.int64).numpy().tolist() == [
      496755118850, 406857595063, 671137492856]
  g = Generator.from_seed(1234)
  full = g.uniform_full_int((3,))
  assert full.dtype == tf.uint64
  assert full.numpy().tolist() == [472453817354278855, 4059409125917362668,
                                   18380845769304944363]
  assert g.uniform_full_int((3,), tf.int32).numpy().tolist() == [1042794019, 1982800025,
                                                                1132141883]
  assert g.uniform_full_int((3,), tf.int64).numpy().tolist() == [
      7275280234014006408, -578005722877321679, 4297011221691667300]
  assert g.uniform_full_int((2,), tf.uint32).numpy().tolist() == [1030002572, 3443529094]


def test_seeds_states_and_counters():
  assert Generator.from_seed(2**64 + 5).state.numpy().tolist() == [5, 1, 0]
  assert Generator.from_seed([7, 8]).state.numpy().tolist() == [0, 7, 8]  # left-padded
  assert Generator.from_seed(-1).state.numpy().tolist() == [-1, -1, -1]
  big = Generator.from_seed(2**70 + 3)
  assert _state(big) == [3, 64, 0]
  np.testing.assert_allclose(big.normal((2,)).numpy(), [0.84349567, 0.6912161], rtol=2e-7)
  g = Generator.from_key_counter(key=12, counter=[3, 4], alg=1)
  np.testing.assert_array_equal(
      g.uniform((4,)).numpy(),
      [0.4030972719192505, 0.27473199367523193, 0.014538764953613281, 0.24250495433807373])
  assert _state(g) == [1027, 4, 12]
  g = Generator.from_state([2**63 - 512, -1, 9], alg=1)  # the low counter word wraps
  np.testing.assert_array_equal(g.uniform((3,)).numpy(),
                                [0.3247852325439453, 0.7503794431686401, 0.39522087574005127])
  assert _state(g) == [-9223372036854775552, -1, 9]
  g = Generator.from_state([1, 2, 3], 1)
  g.skip(3)
  assert _state(g) == [769, 2, 3]
  assert tf.random.experimental.create_rng_state(1234, 1).numpy().tolist() == [1234, 0, 0]
  assert Generator.from_seed(5, alg=2).state.numpy().tolist() == [5, 0]


def test_reset_copy_and_reproducibility():
  g = Generator.from_seed(1234)
  first = g.normal((4,)).numpy()
  g.reset_from_seed(1234)
  np.testing.assert_array_equal(g.normal((4,)).numpy(), first)
  g.reset([4, 5, 6])
  assert _state(g) == [4, 5, 6]
  g.reset_from_key_counter(9, [1, 2])
  assert _state(g) == [1, 2, 9]
  copy = Generator(copy_from=g)
  np.testing.assert_array_equal(copy.uniform((3,)).numpy(), g.uniform((3,)).numpy())
  assert copy.state is not g.state


def test_make_seeds_split_and_global_generator():
  g = Generator.from_seed(1234)
  seeds = g.make_seeds(3)
  assert seeds.dtype == tf.int64
  assert seeds.numpy().tolist() == [[472453817354278855, 4059409125917362668,
                                     -65898304404607253], [0, 0, 0]]
  assert _state(g) == [2002, 0, 0]
  g = Generator.from_seed(1234)
  parts = g.split(2)
  assert [_state(p) for p in parts] == [[0, 0, 472453817354278855],
                                        [0, 0, 4059409125917362668]]
  assert _state(g) == [1746, 0, 0]
  g = Generator.from_seed(7)
  np.testing.assert_allclose(g.split(2)[1].normal((2,)).numpy(), [-2.227163, 0.59609723],
                             rtol=2e-7)
  glob = tf.random.experimental.get_global_generator()
  assert glob is tf.random.experimental.get_global_generator()
  assert glob.state.numpy().shape == (3,)
  mine = Generator.from_seed(1)
  tf.random.experimental.set_global_generator(mine)
  assert tf.random.experimental.get_global_generator() is mine
  tf.random.experimental.set_global_generator(glob)
  a, b = Generator.from_non_deterministic_state(), Generator.from_non_deterministic_state()
  assert _state(a) != _state(b)


def test_binomial_advances_like_tf():
  g = Generator.from_seed(1234)
  x = g.binomial((4,), counts=10., probs=0.5)
  assert x.dtype == tf.int32 and x.shape == (4,)
  assert _state(g) == [90834, 0, 0]  # TF reserves per batch of counts/probs
  g = Generator.from_seed(0)
  g.binomial((2, 3), counts=[1., 2., 3.], probs=0.5)
  assert _state(g) == [192000, 0, 0]
  draws = Generator.from_seed(5).binomial((4000,), counts=20., probs=0.25, dtype=tf.float32)
  assert draws.dtype == tf.float32
  values = draws.numpy()
  assert values.min() >= 0 and values.max() <= 20 and abs(values.mean() - 5.) < 0.15
  with pytest.raises(tf.errors.InvalidArgumentError, match="must end with broadcasted shape"):
    g.binomial((2,), counts=[1., 2., 3.], probs=0.5)
  with pytest.raises(tf.errors.InvalidArgumentError):
    g.binomial((2,), counts=10, probs=0.5)


def test_errors_are_tfs():
  g = Generator.from_seed(1234)
  with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
    g.uniform((2,), dtype=tf.int32)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval, got 5 >= 5"):
    g.uniform((2,), minval=5, maxval=5, dtype=tf.int32)
  with pytest.raises(tf.errors.InvalidArgumentError, match="minval must be 0-D"):
    g.uniform((2,), minval=[1, 2], maxval=3, dtype=tf.int32)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -1 must be >= 0"):
    g.normal((-1,))
  with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values: int32, int64, "
                     "uint32, uint64"):
    g.uniform_full_int((2,), dtype=tf.float32)
  with pytest.raises(TypeError):
    g.normal((2,), dtype=tf.int32)
  with pytest.raises(ValueError, match=r"Shapes \(2,\) and \[3\] are incompatible"):
    Generator.from_state([1, 2], 1)
  with pytest.raises(ValueError, match="Unsupported algorithm id: 3"):
    Generator.from_seed(1, alg=3)
  threefry = Generator.from_seed(5, alg="threefry")
  with pytest.raises(tf.errors.UnimplementedError, match="Philox"):
    threefry.normal((2,))
  assert _state(g) == [1234, 0, 0]  # failed draws leave the state alone


def test_draws_inside_tf_function_advance_the_state():
  g = Generator.from_seed(1234)

  @tf.function
  def draw():
    return g.normal((2, 3)), g.uniform((2,), maxval=10, dtype=tf.int32)

  first, _ = draw()
  np.testing.assert_allclose(first.numpy()[0], [0.9356609, 1.0854305, -0.93788373], rtol=2e-7)
  assert _state(g) == [3282, 0, 0]
  second, _ = draw()
  assert _state(g) == [5330, 0, 0]
  check = Generator.from_seed(3282)
  np.testing.assert_array_equal(second.numpy(), check.normal((2, 3)).numpy())


def test_statistics_and_gradients_of_mean_and_stddev():
  g = Generator.from_seed(11)
  values = g.normal((4000,)).numpy()
  assert abs(values.mean()) < 0.05 and abs(values.std() - 1.) < 0.05
  uniform = g.uniform((4000,), minval=-1., maxval=3.).numpy()
  assert uniform.min() >= -1. and uniform.max() < 3. and abs(uniform.mean() - 1.) < 0.06
  mean, stddev = tf.Variable(1.), tf.Variable(2.)
  with tf.GradientTape() as tape:
    x = tf.reduce_sum(g.normal((3,), mean=mean, stddev=stddev))
  grad_mean, grad_stddev = tape.gradient(x, [mean, stddev])
  assert float(grad_mean) == 3.
  assert grad_stddev is not None
