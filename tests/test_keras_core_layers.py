"""Core, merge, embedding and advanced-activation Keras layers; keras initializers,
activations, regularizers, constraints and backend. Golden values come from tf_keras / TF
(checked against TF 1.15's sources where Keras 2 differs)."""
import numpy as np
import pytest

import tfe_compat as tf

keras = tf.keras
L = keras.layers
K = keras.backend

X = np.linspace(-3, 3, 10, dtype=np.float32).reshape(2, 5)
X3 = np.linspace(-2, 2, 24, dtype=np.float32).reshape(2, 3, 4)
A = np.arange(6, dtype=np.float32).reshape(2, 3)
B = np.array([[1., -1, 2], [0.5, 3, -2]], np.float32)
W = np.array([[1., -2, 0.5], [3, 0.1, -1], [-0.5, 2, 2]], np.float32)
U = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
V = np.arange(8, dtype=np.float32).reshape(2, 2, 2) - 3
BIG = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
POS = [0.333333, 1.0, 1.666667, 2.333333, 3.0]  # X[1] through the identity part


@pytest.fixture(autouse=True)
def fresh_names():
  keras.backend.clear_session()
  yield
  keras.backend.set_learning_phase(0)


def close(actual, expected, atol=1e-5):
  assert isinstance(actual, (tf.Tensor, tf.Variable))
  assert actual.dtype is tf.float32
  np.testing.assert_allclose(actual.numpy(), np.asarray(expected, np.float32), atol=atol)


# ---- Advanced activations ----
@pytest.mark.parametrize("layer, expected", [
    (lambda: L.LeakyReLU(), [[-0.9, -0.7, -0.5, -0.3, -0.1], POS]),
    (lambda: L.ELU(alpha=0.5), [[-0.475106, -0.451514, -0.405562, -0.31606, -0.141734], POS]),
    (lambda: L.ThresholdedReLU(theta=0.5), [[0., 0., 0., 0., 0.], [0., 1., 1.666667, 2.333333, 3.]]),
    (lambda: L.ReLU(max_value=2., negative_slope=0.1, threshold=0.5),
     [[-0.35, -0.283333, -0.216667, -0.15, -0.083333], [-0.016667, 1., 1.666667, 2., 2.]]),
    (lambda: L.ReLU(negative_slope=0.2),
     [[-0.6, -0.466667, -0.333333, -0.2, -0.066667], POS]),
    (lambda: L.PReLU(alpha_initializer=keras.initializers.Constant(0.25)),
     [[-0.75, -0.583333, -0.416667, -0.25, -0.083333], POS]),
])
def test_advanced_activation_layers_match_keras(layer, expected):
  close(layer()(X), expected)


def test_relu6_softmax_axis_and_configs():
  close(L.ReLU(max_value=6.)(X * 3), [[0.] * 5, [1., 3., 5., 6., 6.]])
  column = [[0.142347] * 4, [0.285407] * 4, [0.572246] * 4]
  close(L.Softmax(axis=1)(X3), [column, column])
  assert L.LeakyReLU().get_config()["alpha"] == pytest.approx(0.30000001192092896, abs=0)
  assert L.ELU().get_config()["alpha"] == 1.0 and L.ThresholdedReLU().get_config()["theta"] == 1.
  config = L.ReLU(max_value=6.).get_config()
  assert float(config["max_value"]) == 6. and float(config["negative_slope"]) == 0.
  with pytest.raises(ValueError, match="max_value of Relu layer cannot be negative value: -1"):
    L.ReLU(max_value=-1)
  with pytest.raises(ValueError, match="negative_slope of Relu layer cannot be negative"):
    L.ReLU(negative_slope=-1)


def test_prelu_weight_shared_axes_and_config():
  layer = L.PReLU(shared_axes=[1])
  layer(tf.ones((2, 3, 4)))
  assert [w.name for w in layer.weights] == ["p_re_lu/alpha:0"]
  assert layer.weights[0].shape == [1, 4]
  config = layer.get_config()
  assert config["shared_axes"] == [1]
  assert config["alpha_initializer"] == {"class_name": "Zeros", "config": {"dtype": "float32"}}
  with pytest.raises(ValueError, match="expected axis 2 of input shape to have value 4"):
    layer(tf.ones((2, 3, 5)))


# ---- Activations module ----
def test_keras_activations_values():
  act = keras.activations
  close(act.relu(X, alpha=0.1, max_value=2.0, threshold=0.5),
        [[-0.35, -0.283333, -0.216667, -0.15, -0.083333], [-0.016667, 1., 1.666667, 2., 2.]])
  close(act.selu(X), [[-1.670569, -1.587613, -1.426037, -1.111331, -0.498366],
                      [0.350234, 1.050701, 1.751168, 2.451636, 3.152103]])
  close(act.softplus(X), [[0.048587, 0.092554, 0.173008, 0.313262, 0.540306],
                          [0.873639, 1.313262, 1.839675, 2.425887, 3.048587]])
  close(act.softsign(X), [[-0.75, -0.7, -0.625, -0.5, -0.25], [0.25, 0.5, 0.625, 0.7, 0.75]])
  close(act.hard_sigmoid(X), [[0., 0.033333, 0.166667, 0.3, 0.433333],
                              [0.566667, 0.7, 0.833333, 0.966667, 1.]])
  close(act.exponential(X), [[0.049787, 0.096972, 0.188876, 0.367879, 0.716531],
                             [1.395612, 2.718282, 5.29449, 10.312258, 20.085537]], atol=1e-4)
  close(act.elu(X, 0.5), [[-0.475106, -0.451514, -0.405562, -0.31606, -0.141734], POS])
  column = [[0.142347] * 4, [0.285407] * 4, [0.572246] * 4]
  close(act.softmax(X3, axis=1), [column, column])
  with pytest.raises(ValueError, match="Cannot apply softmax to a tensor that is 1D"):
    act.softmax(tf.ones((3,)))


def test_activations_get_serialize_deserialize():
  act = keras.activations
  assert act.get(None) is act.linear and act.get("relu") is act.relu
  assert act.get(tf.nn.relu) is tf.nn.relu
  assert act.serialize(act.softmax) == "softmax" and act.serialize(tf.nn.relu) == "relu"
  assert act.deserialize("tanh") is act.tanh
  with pytest.raises(ValueError, match="Unknown activation function:abcd"):
    act.get("abcd")
  with pytest.raises(TypeError, match="Could not interpret activation function identifier"):
    act.get(3)


# ---- Initializers ----
def test_keras_initializer_defaults_and_aliases():
  init = keras.initializers
  assert init.get("uniform").get_config() == {"minval": -0.05, "maxval": 0.05, "seed": None,
                                              "dtype": "float32"}
  assert init.get("normal").get_config()["stddev"] == 0.05
  assert init.TruncatedNormal().get_config()["stddev"] == 0.05
  assert isinstance(init.get("glorot_uniform"), init.GlorotUniform)
  assert init.zeros is init.Zeros and init.random_normal is init.RandomNormal
  he = init.get("he_normal")
  assert isinstance(he, init.VarianceScaling) and he.scale == 2. and he.mode == "fan_in"
  values = init.RandomUniform()((200, 50)).numpy()
  assert values.dtype == np.float32 and -0.05 <= values.min() and values.max() < 0.05
  assert abs(init.RandomNormal()((400, 100)).numpy().std() - 0.05) < 0.002
  np.testing.assert_array_equal(init.Identity()((2, 3)).numpy(), np.eye(2, 3))
  with pytest.raises(ValueError, match="Unknown initializer:nope"):
    init.get("nope")


def test_initializer_serialize_round_trip():
  init = keras.initializers
  config = init.serialize(init.RandomNormal(stddev=0.3, seed=1))
  assert config == {"class_name": "RandomNormal",
                    "config": {"mean": 0.0, "stddev": 0.3, "seed": 1, "dtype": "float32"}}
  again = init.deserialize(config)
  assert type(again) is init.RandomNormal and again.stddev == 0.3
  assert init.get({"class_name": "VarianceScaling", "config": {"scale": 3.}}).scale == 3.
  assert isinstance(init.get(init.Ones), init.Ones)


# ---- Regularizers ----
def test_regularizers_values_and_config():
  reg = keras.regularizers
  assert float(reg.l2()(W)) == pytest.approx(0.2351, rel=1e-6)
  assert float(reg.l1()(W)) == pytest.approx(0.121, rel=1e-6)
  assert float(reg.l1_l2(l1=0.1, l2=0.2)(W)) == pytest.approx(5.912, rel=1e-6)
  assert reg.get("l2").get_config() == {"l1": 0.0, "l2": 0.009999999776482582}
  assert reg.get("l1_l2").get_config() == {"l1": 0.009999999776482582,
                                           "l2": 0.009999999776482582}
  assert float(reg.L1L2()(W)) == 0.0
  assert reg.serialize(reg.l1(0.5)) == {"class_name": "L1L2", "config": {"l1": 0.5, "l2": 0.0}}
  assert reg.deserialize({"class_name": "L1L2", "config": {"l1": 0.5, "l2": 0.0}}).l1 == 0.5
  with pytest.raises(ValueError, match="Unknown regularizer:l3"):
    reg.get("l3")


def test_dense_kernel_regularizer_loss_and_activity_regularization():
  dense = L.Dense(2, kernel_initializer="ones", kernel_regularizer=keras.regularizers.l2(0.5))
  dense(tf.ones((1, 3)))
  assert [float(v) for v in dense.losses] == [3.0]
  layer = L.ActivityRegularization(l1=0.1, l2=0.2)
  out = layer(X)
  close(out, X)
  assert float(layer.losses[0]) == pytest.approx(4.5, rel=1e-6)
  assert layer.get_config()["l1"] == 0.1


# ---- Constraints ----
def test_constraints_values():
  c = keras.constraints
  close(c.MaxNorm(2.)(W), [[0.624695, -1.41333, 0.436436], [1.874085, 0.070667, -0.872872],
                           [-0.312348, 1.41333, 1.745743]])
  close(c.MaxNorm(1.5, axis=1)(W), [[0.654654, -1.309307, 0.327327],
                                    [1.422314, 0.04741, -0.474105],
                                    [-0.261116, 1.044466, 1.044466]])
  close(c.NonNeg()(W), [[1., 0., 0.5], [3., 0.1, 0.], [0., 2., 2.]])
  close(c.UnitNorm()(W), [[0.312348, -0.706665, 0.218218], [0.937043, 0.035333, -0.436436],
                          [-0.156174, 0.706665, 0.872872]])
  close(c.MinMaxNorm(1., 2., rate=0.5)(W), [[0.812347, -1.706665, 0.468218],
                                             [2.437042, 0.085333, -0.936436],
                                             [-0.406174, 1.706665, 1.872872]])
  assert isinstance(c.get("max_norm"), c.MaxNorm) and c.max_norm is c.MaxNorm
  assert c.serialize(c.MaxNorm(3)) == {"class_name": "MaxNorm",
                                       "config": {"max_value": 3, "axis": 0}}
  with pytest.raises(ValueError, match="Unknown constraint: bogus"):
    c.get("bogus")


def test_dense_constraint_applied_by_optimizer_update():
  dense = L.Dense(2, kernel_initializer=keras.initializers.Constant(0.1),
                  kernel_constraint="non_neg")
  x = tf.constant([[1., 2.]])
  dense(x)
  assert isinstance(dense.kernel.constraint, keras.constraints.NonNeg)
  with tf.GradientTape() as tape:
    loss = tf.reduce_sum(dense(x))
  grads = tape.gradient(loss, dense.trainable_variables)
  tf.train.GradientDescentOptimizer(1.0).apply_gradients(zip(grads, dense.trainable_variables))
  np.testing.assert_array_equal(dense.kernel.numpy(), np.zeros((2, 2), np.float32))
  np.testing.assert_allclose(dense.bias.numpy(), [-1., -1.])


def test_dense_config_round_trip():
  dense = L.Dense(3, activation="relu", kernel_regularizer="l2", bias_constraint="max_norm",
                  kernel_initializer="he_uniform")
  config = dense.get_config()
  assert config["activation"] == "relu"
  assert config["kernel_regularizer"] == {"class_name": "L1L2",
                                          "config": {"l1": 0.0, "l2": 0.009999999776482582}}
  assert config["kernel_initializer"]["class_name"] == "VarianceScaling"
  assert config["bias_constraint"] == {"class_name": "MaxNorm",
                                       "config": {"max_value": 2, "axis": 0}}
  assert L.Dense.from_config(config).get_config() == config


# ---- Core layers ----
def test_dense_with_constant_initializers():
  dense = L.Dense(2, activation="tanh", kernel_initializer=keras.initializers.Constant(0.1),
                  bias_initializer="ones")
  close(dense(X), [[0.16514, 0.16514], [0.950151, 0.950151]])


def test_dense_casts_non_float_inputs_to_its_dtype():
  dense = L.Dense(2, kernel_initializer="ones")
  out = dense(tf.constant([[1, 2]]))
  assert out.dtype == tf.float32 and out.numpy().tolist() == [[3.0, 3.0]]
  with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float is not supported"):
    L.Dense(2)(tf.constant([["a"]]))


def test_dropout_only_when_training():
  layer = L.Dropout(0.5)
  x = tf.ones((40, 50))
  assert layer(x) is x or np.array_equal(layer(x).numpy(), x.numpy())
  np.testing.assert_array_equal(layer(x, training=False).numpy(), x.numpy())
  out = layer(x, training=True).numpy()
  assert set(np.unique(out)) <= {0., 2.} and 0.4 < (out == 0).mean() < 0.6
  keras.backend.set_learning_phase(1)
  assert (layer(x).numpy() == 0).any()
  assert layer.get_config() == {"name": "dropout", "trainable": True, "dtype": "float32",
                                "rate": 0.5, "noise_shape": None, "seed": None}


def test_dropout_noise_shape_and_spatial_dropout():
  out = L.Dropout(0.5, noise_shape=(None, 1, 6))(tf.ones((4, 5, 6)), training=True).numpy()
  assert (out == out[:, :1, :]).all()
  out = L.SpatialDropout1D(0.5)(tf.ones((4, 5, 6)), training=True).numpy()
  assert (out == out[:, :1, :]).all() and set(np.unique(out)) <= {0., 2.}
  out = L.SpatialDropout2D(0.5, data_format="channels_first")(
      tf.ones((4, 6, 3, 3)), training=True).numpy()
  assert (out == out[:, :, :1, :1]).all()
  with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
    L.SpatialDropout1D(0.5)(tf.ones((4, 5)))
  with pytest.raises(ValueError, match='must be one of "channels_first", "channels_last"'):
    L.SpatialDropout2D(0.5, data_format="nchw")


def test_dropout_in_functional_model_follows_training_flag():
  inputs = keras.Input((50,))
  model = keras.Model(inputs, L.Dropout(0.5)(inputs))
  x = np.ones((20, 50), np.float32)
  np.testing.assert_array_equal(model(x).numpy(), x)
  assert (model(x, training=True).numpy() == 0).any()


def test_activation_flatten_reshape_permute_repeat():
  close(L.Activation("relu")(X), [[0.] * 5, POS])
  assert L.Activation(tf.nn.softmax).get_config()["activation"] == "softmax"
  close(L.Flatten(data_format="channels_first")(BIG),
        [[0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7., 11.],
         [12., 16., 20., 13., 17., 21., 14., 18., 22., 15., 19., 23.]])
  assert L.Flatten()(BIG).shape == [2, 12] and L.Flatten()(tf.ones((3,))).shape == [3, 1]
  assert L.Flatten().get_config()["data_format"] == "channels_last"
  reshape = L.Reshape((-1, 2))
  assert reshape(BIG).shape == [2, 6, 2] and reshape.get_config()["target_shape"] == (-1, 2)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Input to reshape is a tensor with 6 values, but the requested "
                           "shape has 10"):
    L.Reshape((5,))(tf.ones((2, 3)))
  close(L.Permute((2, 1))(U), [[[0., 2., 4.], [1., 3., 5.]], [[6., 8., 10.], [7., 9., 11.]]])
  with pytest.raises(ValueError, match="Invalid permutation `dims` for Permute Layer"):
    L.Permute((1, 3))
  close(L.RepeatVector(2)(A), [[[0., 1., 2.], [0., 1., 2.]], [[3., 4., 5.], [3., 4., 5.]]])
  with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
    L.RepeatVector(2)(BIG)


def test_shapes_in_sequential_model():
  model = keras.Sequential([L.Reshape((3, 4), input_shape=(12,)), L.Permute((2, 1)),
                            L.Flatten(), L.RepeatVector(2), L.Reshape((-1,))])
  assert [tuple(o.shape.as_list()) for o in model._symbolic_outputs[1:]] == [
      (None, 3, 4), (None, 4, 3), (None, 12), (None, 2, 12), (None, 24)]
  assert model(tf.ones((5, 12))).shape == [5, 24]


def test_masking():
  x = np.array([[[1., 2], [0, 0], [3, 0]], [[0, 0], [0, 0], [1, 1]]], np.float32)
  layer = L.Masking()
  close(layer(x), x)
  assert layer.compute_mask(tf.constant(x)).numpy().tolist() == [[True, False, True],
                                                                 [False, False, True]]
  close(L.Masking(mask_value=1.)(x), [[[1., 2.], [0., 0.], [3., 0.]],
                                      [[0., 0.], [0., 0.], [0., 0.]]])


def test_lambda_arguments_training_and_config_round_trip():
  layer = L.Lambda(lambda x, k: x * k, arguments={"k": 3.})
  close(layer(A), A * 3)
  config = layer.get_config()
  assert config["function_type"] == "lambda" and config["arguments"] == {"k": 3.}
  assert config["output_shape_type"] == "raw" and config["module"] == __name__
  clone = L.Lambda.from_config(config)
  close(clone(A), A * 3)

  def scaled(x, training=None):
    return x * (2. if training else 1.)
  layer = L.Lambda(scaled, output_shape=(3,))
  close(layer(A), A)
  close(layer(A, training=True), A * 2)
  assert layer.compute_output_shape((None, 7)).as_list() == [None, 3]
  inputs = keras.Input((3,))
  model = keras.Model(inputs, L.Lambda(lambda t: tf.reduce_sum(t, axis=1, keepdims=True))(inputs))
  assert model.outputs.shape.as_list() == [None, 1]
  close(model(A), [[3.], [12.]])


# ---- Embedding ----
def test_embedding_lookup_weights_and_config():
  emb = L.Embedding(4, 2)
  out = emb(tf.constant([[3, 1], [0, 2]]))
  assert [w.name for w in emb.weights] == ["embedding/embeddings:0"]
  assert emb.weights[0].shape == [4, 2] and out.shape == [2, 2, 2]
  values = emb.weights[0].numpy()
  assert np.abs(values).max() <= 0.05
  emb.set_weights([np.arange(8, dtype=np.float32).reshape(4, 2)])
  close(emb(np.array([[3., 1.], [0., 2.]], np.float32)), [[[6., 7.], [2., 3.]],
                                                          [[0., 1.], [4., 5.]]])
  config = emb.get_config()
  assert config["batch_input_shape"] == (None, None)
  assert config["embeddings_initializer"] == {
      "class_name": "RandomUniform",
      "config": {"minval": -0.05, "maxval": 0.05, "seed": None, "dtype": "float32"}}
  assert [config[k] for k in ("input_dim", "output_dim", "mask_zero", "input_length")] == [
      4, 2, False, None]
  masked = L.Embedding(4, 2, mask_zero=True, input_length=3)
  assert masked.compute_mask(tf.constant([[0, 1, 2]])).numpy().tolist() == [[False, True, True]]
  assert masked.get_config()["batch_input_shape"] == (None, 3)
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0,0\] = 7 is not in"):
    emb(tf.constant([[7]]))


def test_embedding_in_sequential_model():
  model = keras.Sequential([L.Embedding(10, 4, input_length=5), L.Flatten(), L.Dense(1)])
  assert model(np.zeros((3, 5), np.int32)).shape == [3, 1]
  assert [w.name for w in model.weights][0] == "embedding/embeddings:0"


# ---- Merge layers ----
@pytest.mark.parametrize("cls, expected", [
    (L.Add, [[1., 0., 4.], [3.5, 7., 3.]]), (L.Subtract, [[-1., 2., 0.], [2.5, 1., 7.]]),
    (L.Multiply, [[0., -1., 4.], [1.5, 12., -10.]]), (L.Average, [[0.5, 0., 2.], [1.75, 3.5, 1.5]]),
    (L.Maximum, [[1., 1., 2.], [3., 4., 5.]]), (L.Minimum, [[0., -1., 2.], [0.5, 3., -2.]]),
])
def test_elementwise_merge_layers(cls, expected):
  close(cls()([A, B]), expected)


def test_concatenate_dot_and_rank_broadcast():
  small = np.array([[1., 2, 3, 4], [-1, -2, -3, -4]], np.float32)
  close(L.Add()([BIG, small]), [[[1., 3., 5., 7.], [5., 7., 9., 11.], [9., 11., 13., 15.]],
                                [[11.] * 4, [15.] * 4, [19.] * 4]])
  close(L.Concatenate(axis=1)([A, B]), [[0., 1., 2., 1., -1., 2.], [3., 4., 5., 0.5, 3., -2.]])
  close(L.Dot(axes=1)([A, B]), [[3.], [3.5]])
  close(L.Dot(axes=1, normalize=True)([A, B]), [[0.547723], [0.13598]])
  close(L.Dot(axes=(2, 1))([U, V]), [[[-1., 0.], [-9., -4.], [-17., -8.]],
                                     [[27., 40.], [35., 52.], [43., 64.]]])
  close(L.Dot(axes=(1, 1))([U, np.arange(18, dtype=np.float32).reshape(2, 3, 3)]),
        [[[30., 36., 42.], [39., 48., 57.]], [[300., 324., 348.], [336., 363., 390.]]])
  assert L.Concatenate(axis=1).get_config()["axis"] == 1
  assert L.Dot(axes=1, normalize=True).get_config() == {
      "name": "dot_4", "trainable": True, "dtype": "float32", "axes": 1, "normalize": True}


def test_merge_errors_like_keras():
  with pytest.raises(ValueError, match=r"Operands could not be broadcast together with shapes "
                                       r"\(3,\) \(4,\)"):
    L.Add()([tf.ones((2, 3)), tf.ones((2, 4))])
  with pytest.raises(ValueError, match="Can not merge tensors with different batch sizes"):
    L.Add()([tf.ones((2, 3)), tf.ones((3, 3))])
  with pytest.raises(ValueError, match="A merge layer should be called on a list of inputs"):
    L.Add()(tf.ones((2, 3)))
  with pytest.raises(ValueError, match="on a list of at least 2 inputs. Got 1 inputs"):
    L.Add()([tf.ones((2, 3))])
  with pytest.raises(ValueError, match="A `Subtract` layer should be called on exactly 2"):
    L.Subtract()([tf.ones((2, 3))] * 3)
  with pytest.raises(ValueError, match="requires inputs with matching shapes except for the "
                                       "concat axis"):
    L.Concatenate()([tf.ones((2, 3, 4)), tf.ones((2, 4, 4))])
  with pytest.raises(ValueError, match=r"Dimension incompatibility 3 != 4"):
    L.Dot(axes=1)([tf.ones((2, 3)), tf.ones((2, 4))])
  with pytest.raises(ValueError, match="Invalid format for `axes` - should contain two"):
    L.Dot(axes=(1, 2, 3))


def test_merge_layers_in_functional_model():
  in1, in2 = keras.Input((3,)), keras.Input((3,))
  added = L.add([in1, in2])
  product = L.multiply([in1, in2])
  joined = L.concatenate([added, product, L.subtract([in1, in2])])
  dotted = L.dot([in1, in2], axes=1)
  model = keras.Model([in1, in2], [joined, dotted, L.average([in1, in2]),
                                   L.maximum([in1, in2]), L.minimum([in1, in2])])
  assert joined.shape.as_list() == [None, 9] and dotted.shape.as_list() == [None, 1]
  joined_value, dot_value, avg, mx, mn = model([A, B])
  close(joined_value, np.concatenate([A + B, A * B, A - B], axis=1))
  close(dot_value, [[3.], [3.5]])
  close(avg, (A + B) / 2)
  close(mx, np.maximum(A, B))
  close(mn, np.minimum(A, B))
  with pytest.raises(ValueError, match="Operands could not be broadcast"):
    L.Add()([keras.Input((3,)), keras.Input((4,))])


@pytest.mark.parametrize("layer", [
    lambda: L.Dropout(0.3, noise_shape=(None, 1), seed=2), lambda: L.Flatten("channels_first"),
    lambda: L.Reshape((2, -1)), lambda: L.Permute((2, 1)), lambda: L.RepeatVector(4),
    lambda: L.Masking(2.), lambda: L.Activation("tanh"), lambda: L.ActivityRegularization(0.1),
    lambda: L.Embedding(5, 3, embeddings_regularizer="l1"), lambda: L.Concatenate(axis=2),
    lambda: L.Dot(axes=(1, 2)), lambda: L.LeakyReLU(0.1), lambda: L.ELU(0.7),
    lambda: L.PReLU(alpha_constraint="non_neg", shared_axes=2), lambda: L.Softmax(axis=1),
    lambda: L.ThresholdedReLU(0.2), lambda: L.SpatialDropout2D(0.2),
])
def test_get_config_round_trip(layer):
  layer = layer()
  config = layer.get_config()
  assert type(layer).from_config(config).get_config() == config


# ---- Backend ----
def test_backend_shapes_values_and_variables():
  x = tf.constant(BIG)
  assert K.int_shape(x) == (2, 3, 4) and K.ndim(x) == 3 and K.dtype(x) == "float32"
  assert K.int_shape(keras.Input((5,))) == (None, 5)
  assert K.shape(x).numpy().tolist() == [2, 3, 4]
  assert K.batch_flatten(x).shape == [2, 12] and K.flatten(x).shape == [24]
  v = K.variable([[1, 2]], name="v")
  assert isinstance(v, tf.Variable) and v.dtype is tf.float32 and v.name == "v:0"
  K.set_value(v, [[3, 4]])
  assert K.get_value(v).tolist() == [[3., 4.]]
  K.batch_set_value([(v, [[5, 6]])])
  assert K.batch_get_value([v])[0].tolist() == [[5., 6.]]
  assert isinstance(K.zeros((2, 2)), tf.Variable) and K.ones((2,), dtype="int32").dtype is tf.int32
  assert K.eye(3).numpy().tolist() == np.eye(3).tolist()
  assert K.constant(2).dtype is tf.float32 and K.cast(x, "int32").dtype is tf.int32
  assert K.is_keras_tensor(keras.Input((2,))) and not K.is_keras_tensor(x)
  with pytest.raises(ValueError, match="Expected a symbolic tensor instance"):
    K.is_keras_tensor(np.ones(2))
  with pytest.raises(RuntimeError, match="not compatible with eager execution"):
    K.placeholder(shape=(None, 3))
  with pytest.raises(NotImplementedError, match="keras.backend.function"):
    K.function([], [])
  with K.name_scope("outer"):
    assert tf.Variable(1.0, name="w").name == "outer/w:0"


def test_backend_math():
  close(K.batch_dot(A, B, axes=1), [[3.], [3.5]])
  close(K.batch_dot(U, V, axes=(2, 1)), [[[-1., 0.], [-9., -4.], [-17., -8.]],
                                        [[27., 40.], [35., 52.], [43., 64.]]])
  close(K.dot(tf.constant(U), tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))),
        [[[3., 4., 5.], [9., 14., 19.], [15., 24., 33.]],
         [[21., 34., 47.], [27., 44., 61.], [33., 54., 75.]]])
  close(K.std(W, axis=1), [1.312335, 1.687207, 1.178511])
  close(K.var(W, axis=0, keepdims=True), [[2.055556, 2.668889, 1.5]])
  close(K.mean(W), 0.566667)
  assert K.argmax(W).numpy().tolist() == [0, 0, 1] and K.argmax(W).dtype is tf.int64
  assert K.argmin(W, axis=0).numpy().tolist() == [2, 0, 1]
  assert K.sum(W, axis=1, keepdims=True).shape == [3, 1] and K.max(W).numpy() == 3.
  assert K.any(tf.constant([0, 1])).numpy() and not K.all(tf.constant([0, 1])).numpy()
  close(K.clip(W, -1, 1), [[1., -1., 0.5], [1., 0.1, -1.], [-0.5, 1., 1.]])
  close(K.sqrt(W), [[1., 0., 0.707107], [1.732051, 0.316228, 0.], [0., 1.414214, 1.414214]])
  close(K.l2_normalize(W, axis=1), [[0.436436, -0.872872, 0.218218],
                                    [0.948209, 0.031607, -0.31607],
                                    [-0.174078, 0.696311, 0.696311]])
  close(K.one_hot(tf.constant([0, 2]), 3), [[1., 0., 0.], [0., 0., 1.]])
  close(K.concatenate([A, B]), np.concatenate([A, B], axis=-1))
  close(K.permute_dimensions(U, (0, 2, 1)), U.transpose(0, 2, 1))
  close(K.relu(X, max_value=1.), np.clip(X, 0, 1))


def test_backend_crossentropies():
  probs = tf.constant([[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]])
  target = tf.constant([[0., 0., 1.], [1., 0., 0.]])
  logits = tf.constant(W[:2])
  close(K.categorical_crossentropy(target, probs), [0.693147, 0.105361])
  close(K.categorical_crossentropy(target, logits, from_logits=True), [1.004597, 0.070774])
  close(K.sparse_categorical_crossentropy(tf.constant([2, 0]), probs), [0.693147, 0.105361])
  close(K.sparse_categorical_crossentropy(tf.constant([[1], [2]]), logits, from_logits=True),
        [3.504597, 4.070774])
  bt = tf.constant([[1., 0., 1.], [0., 1., 0.]])
  close(K.binary_crossentropy(bt, probs), [[1.609437, 0.356675, 0.693147],
                                           [2.302584, 2.99573, 0.051293]], atol=1e-4)
  close(K.binary_crossentropy(bt, logits, from_logits=True),
        [[0.313262, 0.126928, 0.474077], [3.048587, 0.644397, 0.313262]])
  out = K.dropout(tf.ones((10, 10)), 0.5).numpy()
  assert set(np.unique(out)) <= {0., 2.}
