"""TF 1.15 Keras / tf.train names: backend session functions, RadialConstraint,
metrics.cosine, the Keras Ftrl, NoisyLinearCosineDecay, loss scaling and mixed precision
policies, the premade models, PeepholeLSTMCell, enqueuers, HDF5Matrix, the scikit-learn
wrappers, keras_style_scope. Goldens from tf_keras / TF 2.21 (`tf.compat.v1`), or TF 1.15's
formulas in NumPy where 2.x changed them."""
import importlib.util
import math

import numpy as np
import pytest

import tfe_compat as tf

K = tf.keras
P = tf.keras.mixed_precision.experimental


@pytest.fixture(autouse=True)
def _reset_policy():
  yield
  P.set_policy(None)


def test_backend_session_and_keras_style_scope():
  assert K.backend.backend() == "tensorflow"
  session = K.backend.get_session()
  assert isinstance(session, tf.Session) and K.backend.get_session() is session
  other = tf.Session()
  K.backend.set_session(other)
  assert K.backend.get_session() is other
  from tfe_compat import layers as tf_layers  # pylint: disable=import-outside-toplevel
  with tf.layers.experimental.keras_style_scope():
    assert tf_layers._KERAS_STYLE_SCOPE  # pylint: disable=protected-access
  assert not tf_layers._KERAS_STYLE_SCOPE  # pylint: disable=protected-access


def test_radial_constraint_and_cosine():
  assert K.constraints.radial_constraint is K.constraints.RadialConstraint
  for n, ring0, ring1 in ((3, 0.0, 12.0), (4, 15.0, 45.0)):
    k = (np.arange(n * n * 2, dtype=np.float32) * 1.5).reshape(n, n, 2, 1)
    out = K.constraints.RadialConstraint()(k).numpy()
    centre = slice(n // 2 - 1 + n % 2, n // 2 + 1)
    assert (out[centre, centre, 0, 0] == ring0).all() and out[0, 0, 0, 0] == ring1
    assert out[0, 0, 1, 0] == ring1 + 1.5 and out.dtype == np.float32
  assert K.constraints.get("RadialConstraint").__class__ is K.constraints.RadialConstraint
  with pytest.raises(ValueError, match="The weight tensor must be of rank 4"):
    K.constraints.RadialConstraint()(np.ones((3, 3), np.float32))
  # tf.keras.metrics.cosine is TF 1.15's loss form (negated similarity).
  np.testing.assert_allclose(K.metrics.cosine([[1., 0.], [0., 1.]], [[0.6, 0.8], [0., 2.]]),
                             [-0.6, -1.0], rtol=1e-6)


def test_keras_ftrl_matches_tf():
  for kwargs, golden in (
      ({}, [0.0454661026597023, -0.30941519141197205, 0.1373274177312851]),
      (dict(learning_rate=0.2, l2_shrinkage_regularization_strength=0.05,
            initial_accumulator_value=0.3, l1_regularization_strength=0.01, decay=0.1),
       None)):
    v = tf.Variable([1.0, -2.0, 0.5])
    opt = K.optimizers.Ftrl(**kwargs)
    for g in ([0.1, -0.2, 0.3], [0.4, 0.1, -0.5]):
      opt.apply_gradients([(tf.constant(g), v)])
    if golden is not None:
      np.testing.assert_allclose(v.numpy(), golden, rtol=1e-6)
  assert [w.name for w in opt.weights] == ["Ftrl/iter:0", "Ftrl/Variable/accumulator:0",
                                           "Ftrl/Variable/linear:0"]
  assert opt.get_config()["l2_shrinkage_regularization_strength"] == 0.05
  assert K.optimizers.get("ftrl").__class__ is K.optimizers.Ftrl
  with pytest.raises(ValueError, match="learning_rate_power 0.500000 needs to be negative"):
    K.optimizers.Ftrl(learning_rate_power=0.5)


def test_noisy_linear_cosine_decay():
  quiet = K.experimental.NoisyLinearCosineDecay(0.1, 100, initial_variance=0.0)
  assert quiet(10).numpy() == K.experimental.LinearCosineDecay(0.1, 100)(10).numpy()
  assert quiet(10).dtype == tf.float32 and quiet.get_config()["variance_decay"] == 0.55
  noisy = K.experimental.NoisyLinearCosineDecay(0.1, 100)
  values = np.array([noisy(10).numpy() for _ in range(40)])
  # lr * (noise * std) * cosine around the noiseless value; std = (1 + 10) ** -0.275
  cosine = 0.5 * (1 + math.cos(math.pi * 2 * 0.5 * 0.1))
  spread = 0.1 * cosine * (1 + 10) ** -0.275
  assert values.std() > 0.3 * spread and abs(values.mean() - 0.08789754) < 3 * spread
  step = tf.Variable(10, dtype=tf.int64)
  decayed = tf.train.noisy_linear_cosine_decay(0.1, step, 100, initial_variance=0.0)
  assert decayed().numpy() == quiet(10).numpy()


def test_loss_scales_match_tf():
  ls = tf.train.experimental.DynamicLossScale(initial_loss_scale=4., increment_period=2)
  seen = []
  for g in ([1.], [1.], [np.inf], [1.], [np.nan]):
    _, ok = ls.update([tf.constant(g)])
    seen.append((bool(ok), float(ls()), int(ls.good_steps.numpy())))
  assert seen == [(True, 4.0, 1), (True, 8.0, 0), (False, 4.0, 0), (True, 4.0, 1),
                  (False, 2.0, 0)]
  assert ls.get_config() == {"initial_loss_scale": 4.0, "increment_period": 2,
                             "multiplier": 2.0}
  fixed = tf.train.experimental.FixedLossScale(8)
  assert repr(fixed) == "FixedLossScale(8.0)" and float(fixed()) == 8.0
  assert fixed.update([tf.constant([np.inf])]) == (None, True)
  # The TF1 optimizer wrapper (golden: tf.compat.v1.mixed_precision).
  v = tf.Variable([1.0, 2.0])
  opt = tf.train.experimental.MixedPrecisionLossScaleOptimizer(
      tf.train.MomentumOptimizer(0.1, 0.9),
      tf.train.experimental.DynamicLossScale(initial_loss_scale=8., increment_period=1))
  out = []
  for scale in (1.0, np.inf, 2.0):
    gv = opt.compute_gradients(lambda: tf.reduce_sum(v * v) * scale, [v])
    opt.apply_gradients(gv)
    out.append((v.numpy().tolist(), gv[0][0].numpy().tolist(), float(opt._loss_scale())))  # pylint: disable=protected-access
  np.testing.assert_allclose([o[0] for o in out], [[0.8, 1.6], [0.8, 1.6], [0.3, 0.6]],
                             rtol=1e-6)
  assert [o[2] for o in out] == [16.0, 8.0, 16.0] and out[1][1] == [np.inf, np.inf]
  with pytest.raises(ValueError, match='"opt" must be an instance of Optimizer'):
    tf.train.experimental.MixedPrecisionLossScaleOptimizer(K.optimizers.SGD(), "dynamic")


@pytest.mark.parametrize("compiled", [False, True])
def test_keras_loss_scale_optimizer_skips_non_finite_steps(compiled):
  w = tf.Variable([1.0, 2.0])
  opt = P.LossScaleOptimizer(K.optimizers.Adam(0.1), tf.train.experimental.DynamicLossScale(
      initial_loss_scale=8., increment_period=1))

  def step(s):
    with tf.GradientTape() as tape:
      loss = opt.get_scaled_loss(tf.reduce_sum(w * w) * s)
    grads = opt.get_unscaled_gradients(tape.gradient(loss, [w]))
    opt.apply_gradients(zip(grads, [w]))

  step = tf.function(step) if compiled else step
  seen = []
  for s in (1.0, np.inf, 2.0):
    step(tf.constant(s))
    seen.append((w.numpy().tolist(), int(opt.iterations.numpy()), float(opt.loss_scale())))
  # TF 1.15 skips the whole apply (2.x's tf_keras counts skipped steps in `iterations`).
  np.testing.assert_allclose([x[0] for x in seen], [[0.9000001549720764, 1.9000000953674316],
                                                    [0.9000001549720764, 1.9000000953674316],
                                                    [0.802415132522583, 1.802947759628296]])
  assert [x[1:] for x in seen] == [(1, 16.0), (1, 8.0), (2, 16.0)]
  assert float(opt.lr.numpy()) == pytest.approx(0.1)
  with pytest.raises(ValueError, match='"optimizer" must be an instance of OptimizerV2'):
    P.LossScaleOptimizer(tf.train.AdamOptimizer(), "dynamic")


def test_policies_and_mixed_precision_layers():
  assert repr(P.global_policy()) == '<Policy "infer", loss_scale=None>'
  mixed = P.Policy("mixed_float16")
  assert (mixed.compute_dtype, mixed.variable_dtype, mixed.should_cast_variables) == (
      "float16", "float32", True)
  assert isinstance(mixed.loss_scale, tf.train.experimental.DynamicLossScale)
  assert (P.Policy("float32").compute_dtype, P.Policy("float32").loss_scale) == ("float32", None)
  assert P.Policy("infer_float32_vars").variable_dtype == "float32"
  assert P.Policy("float16_with_float32_vars").compute_dtype == "float16"
  with pytest.raises(ValueError, match="Cannot convert value nope to a mixed precision Policy"):
    P.Policy("nope")
  with pytest.raises(TypeError, match="'name' must be a string, not a DType"):
    P.Policy(tf.float16)
  dense = K.layers.Dense(3, dtype=mixed, kernel_initializer="ones")
  y = dense(np.ones((2, 4), np.float32))
  assert y.dtype == tf.float16 and dense.kernel.dtype == tf.float32 and dense.dtype == "float32"
  assert repr(dense.kernel).startswith("<AutoCastVariable 'dense")
  np.testing.assert_array_equal(y.numpy(), np.full((2, 3), 4.0, np.float16))
  config = dense.get_config()
  assert config["dtype"] == {"class_name": "Policy", "config": {"name": "mixed_float16"}}
  assert K.layers.Dense.from_config(config)(np.ones((1, 4), np.float32)).dtype == tf.float16
  P.set_policy("mixed_float16")
  model = K.Sequential([K.layers.Dense(4, input_shape=(3,), kernel_initializer="ones"),
                        K.layers.Dense(1, kernel_initializer="ones")])
  assert P.global_policy().name == "mixed_float16"
  P.set_policy(None)
  assert [w.dtype for w in model.weights] == [tf.float32] * 4
  opt = P.LossScaleOptimizer(K.optimizers.SGD(0.01), tf.train.experimental.DynamicLossScale(
      64., 2))
  model.compile(opt, "mse")
  x, y = np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)
  history = model.fit(x, y, epochs=2, batch_size=4, verbose=0)
  assert model.predict(x[:1]).dtype == np.float16
  np.testing.assert_allclose(history.history["loss"], [61.88, 0.667], rtol=2e-3)
  assert (int(opt.iterations.numpy()), float(opt.loss_scale())) == (4, 256.0)


def test_mixed_precision_graph_rewrite_wraps_optimizers(caplog):
  keras_opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(K.optimizers.SGD())
  assert isinstance(keras_opt, P.LossScaleOptimizer)
  tf1_opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(
      tf.train.GradientDescentOptimizer(0.1), loss_scale=128)
  assert isinstance(tf1_opt, tf.train.experimental.MixedPrecisionLossScaleOptimizer)
  assert float(tf1_opt._loss_scale()) == 128.0  # pylint: disable=protected-access
  with pytest.raises(ValueError, match='"opt" must be an instance of a tf.train.Optimizer'):
    tf.train.experimental.enable_mixed_precision_graph_rewrite(object())
  tf.train.experimental.disable_mixed_precision_graph_rewrite()
  caplog.clear()
  tf.train.experimental.disable_mixed_precision_graph_rewrite()
  assert "already disabled" in caplog.text


def test_premade_models():
  a = np.array([[1., 2.], [-3., 0.5]], np.float32)
  linear = K.experimental.LinearModel(units=2, kernel_initializer="ones",
                                      bias_initializer="ones", activation="relu")
  assert linear([a, np.array([[1.], [-4.]], np.float32)]).numpy().tolist() == [[5.0, 5.0],
                                                                              [0.0, 0.0]]
  with pytest.raises(ValueError, match="Expected 2 inputs, but got 1 inputs"):
    linear(a)
  lin = K.experimental.LinearModel(units=2, kernel_initializer="ones")
  dnn = K.Sequential([K.layers.Dense(2, kernel_initializer="ones")])
  model = K.experimental.WideDeepModel(lin, dnn)
  assert model(a[:1]).numpy().tolist() == [[3.0, 3.0]]  # 0.5 * (linear + dnn), as TF 1.15
  model.compile([K.optimizers.SGD(0.1), K.optimizers.SGD(0.5)], "mse")
  model.train_on_batch(a[:1], np.array([[0., 1.]], np.float32))
  # d(mse)/d(output) = (3, 2); each part gets half: its own learning rate applies.
  np.testing.assert_allclose(lin.dense_layers[0].kernel.numpy(), [[0.85, 0.9], [0.7, 0.8]],
                             rtol=1e-6)
  np.testing.assert_allclose(lin.bias.numpy(), [-0.15, -0.1], rtol=1e-6)
  np.testing.assert_allclose(dnn.layers[0].kernel.numpy(), [[0.25, 0.5], [-0.5, 0.0]],
                             atol=1e-6)
  with pytest.raises(NotImplementedError, match="HDF5"):
    K.experimental.export_saved_model(model, "/tmp/nope")
  with pytest.raises(NotImplementedError, match="HDF5|model.h5"):
    K.experimental.load_from_saved_model("/tmp/nope")
  assert K.experimental.terminate_keras_multiprocessing_pools() == []


def test_peephole_lstm_cell():
  x = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10.0) - 1.0
  layer = K.layers.RNN(K.experimental.PeepholeLSTMCell(2), return_sequences=True,
                       return_state=True)
  layer(x)
  layer.set_weights([np.linspace(-0.5, 0.5, w.size, dtype=np.float32).reshape(w.shape)
                     for w in layer.get_weights()])
  assert [w.name.split("/")[-1] for w in layer.weights][3:] == [
      "input_gate_peephole_weights:0", "forget_gate_peephole_weights:0",
      "output_gate_peephole_weights:0"]
  outputs, _, state_c = layer(x)
  np.testing.assert_allclose(outputs[1].numpy(), [[0.05273, 0.112302], [0.082593, 0.206008],
                                                  [0.098818, 0.284991]], atol=2e-6)
  np.testing.assert_allclose(state_c.numpy(), [[0.141653, 0.256809], [0.147937, 0.378995]],
                             atol=2e-6)
  with pytest.raises(NotImplementedError, match="dropout"):
    K.experimental.PeepholeLSTMCell(2, dropout=0.5)


class _Batches(K.utils.Sequence):
  def __init__(self):
    self.epochs = 0

  def __len__(self):
    return 3

  def __getitem__(self, i):
    return np.full((2,), i + 10 * self.epochs)

  def on_epoch_end(self):
    self.epochs += 1


def test_enqueuers():
  enqueuer = K.utils.OrderedEnqueuer(_Batches())
  enqueuer.start(workers=2, max_queue_size=2)
  batches = enqueuer.get()
  assert [next(batches).tolist()[0] for _ in range(7)] == [0, 1, 2, 10, 11, 12, 20]
  assert enqueuer.is_running()
  enqueuer.stop()
  assert not enqueuer.is_running()
  generator = K.utils.GeneratorEnqueuer((i * i for i in range(5)))
  generator.start(workers=2)
  assert list(generator.get()) == [0, 1, 4, 9, 16]
  generator.stop()
  assert isinstance(enqueuer, K.utils.SequenceEnqueuer)


def test_hdf5_matrix_kernels_and_model_to_dot(tmp_path):
  h5py = pytest.importorskip("h5py")
  path = str(tmp_path / "d.h5")
  with h5py.File(path, "w") as f:
    f["x"] = np.arange(20, dtype=np.float32).reshape(10, 2)
  m = K.utils.HDF5Matrix(path, "x", start=2, end=6, normalizer=lambda a: a * 2)
  assert (len(m), m.shape, m.dtype, m.ndim, m.size) == (4, (4, 2), np.float32, 2, 8)
  assert m[0].tolist() == [8.0, 10.0] and m[1:3].tolist() == [[12., 14.], [16., 18.]]
  with pytest.raises(IndexError):
    m[4]  # pylint: disable=pointless-statement
  model = K.Sequential([K.layers.Conv2D(1, 2, input_shape=(3, 3, 1), use_bias=False)])
  kernel = np.arange(4, dtype=np.float32).reshape(2, 2, 1, 1)
  model.layers[0].kernel.assign(kernel)
  K.utils.convert_all_kernels_in_model(model)
  np.testing.assert_array_equal(model.layers[0].kernel.numpy(), kernel[::-1, ::-1])
  if importlib.util.find_spec("pydot") is None:
    with pytest.raises(ImportError, match="Failed to import pydot. You must install pydot and "
                                          "graphviz for `pydotprint` to work."):
      K.utils.model_to_dot(model)


def _classifier(units=3):
  model = K.Sequential([K.layers.Dense(units, input_shape=(2,), activation="softmax",
                                       kernel_initializer="zeros")])
  model.compile("sgd", "sparse_categorical_crossentropy", metrics=["accuracy"])
  return model


def test_scikit_learn_wrappers():
  x = np.array([[1., 0.], [0., 1.], [1., 1.], [0., 0.]], np.float32)
  y = np.array([5, 7, 9, 5])
  clf = K.wrappers.scikit_learn.KerasClassifier(_classifier, units=3, epochs=1, verbose=0)
  assert clf.get_params()["units"] == 3 and clf.get_params()["build_fn"] is _classifier
  clf.fit(x, y)
  assert clf.classes_.tolist() == [5, 7, 9] and clf.n_classes_ == 3
  assert clf.predict(x).tolist()[0] in (5, 7, 9) and clf.predict_proba(x).shape == (4, 3)
  assert 0.0 <= clf.score(x, y) <= 1.0
  with pytest.raises(ValueError, match="nope is not a legal parameter"):
    K.wrappers.scikit_learn.KerasClassifier(_classifier, nope=1)
  with pytest.raises(ValueError, match="Invalid shape for y"):
    clf.fit(x, np.zeros((4, 1, 1)))

  def regressor():
    model = K.Sequential([K.layers.Dense(1, input_shape=(2,), kernel_initializer="ones")])
    model.compile("sgd", "mse")
    return model

  reg = K.wrappers.scikit_learn.KerasRegressor(regressor, epochs=1, verbose=0)
  reg.set_params(batch_size=4)
  reg.fit(x, np.array([1., 1., 2., 0.], np.float32))
  assert reg.predict(x).shape == (4,)
  assert reg.score(x, np.array([1., 1., 2., 0.], np.float32)) <= 0.0
