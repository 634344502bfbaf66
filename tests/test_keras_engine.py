"""Keras engine: Layer building and tracking, Sequential, functional and subclassed models,
summary(), tfe.Network. Names and printed tables were checked against tf_keras / TF 1.15."""
import numpy as np
import pytest

import tfe_compat as tf

tfe = tf.contrib.eager
keras = tf.keras


@pytest.fixture(autouse=True)
def fresh_names():
  keras.backend.clear_session()


def test_sequential_with_input_shape_builds_at_once_and_prints_summary(capsys):
  model = keras.Sequential([keras.layers.Dense(10, input_shape=(784,)), keras.layers.Dense(3)])
  assert model.built and [w.name for w in model.weights] == [
      "dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0"]
  model.summary()
  assert capsys.readouterr().out == (
      'Model: "sequential"\n'
      + "_" * 65 + "\n"
      + "Layer (type)                 Output Shape              Param #   \n"
      + "=" * 65 + "\n"
      + "dense (Dense)                (None, 10)                7850      \n"
      + "_" * 65 + "\n"
      + "dense_1 (Dense)              (None, 3)                 33        \n"
      + "=" * 65 + "\n"
      + "Total params: 7,883\nTrainable params: 7,883\nNon-trainable params: 0\n"
      + "_" * 65 + "\n")
  out = model(np.zeros((2, 784), np.float32))
  assert out.shape == [2, 3] and out.dtype is tf.float32


def test_sequential_built_on_first_call_add_and_pop():
  model = keras.Sequential()
  model.add(keras.layers.Dense(5))
  model.add(keras.layers.Dense(1))
  assert not model.built
  with pytest.raises(ValueError, match="This model has not yet been built"):
    model.summary()
  model(tf.zeros([3, 7]))
  assert [w.name for w in model.weights] == [
      "sequential/dense/kernel:0", "sequential/dense/bias:0",
      "sequential/dense_1/kernel:0", "sequential/dense_1/bias:0"]
  assert [tuple(w.shape.as_list()) for w in model.weights] == [(7, 5), (5,), (5, 1), (1,)]
  model.pop()
  assert len(model.layers) == 1 and model(tf.zeros([2, 7])).shape == [2, 5]
  with pytest.raises(TypeError, match="must be an instance of class Layer"):
    model.add("dense")


def test_sequential_accepts_one_layer_added_twice():
  # TF 1.x's official MNIST model reuses one pooling layer (TF >= 2.4 refuses it).
  pool = keras.layers.MaxPooling2D(2, 2, padding="same")
  model = keras.Sequential([keras.layers.Reshape((4, 4, 1), input_shape=(16,)), pool, pool,
                            keras.layers.Flatten()])
  out = model(np.arange(32, dtype=np.float32).reshape(2, 16))
  assert out.shape == [2, 1] and out.numpy().tolist() == [[15.0], [31.0]]


def test_subclassed_model_tracks_layers_variables_lists_and_dicts():
  class Block(keras.Model):

    def __init__(self):
      super().__init__()
      self.first = keras.layers.Dense(4)
      self.stack = [keras.layers.Dense(3), keras.layers.Dense(2)]
      self.by_name = {"out": keras.layers.Dense(1)}
      self.shared = self.first  # the same layer twice counts once
      self.W = tf.Variable(1.0, name="w")

    def call(self, x):
      x = self.shared(self.first(tf.concat([x, x], axis=1)[:, :4]))
      for layer in self.stack:
        x = layer(x)
      return self.by_name["out"](x) * self.W

  model = Block()
  model(tf.ones([2, 2]))
  assert [w.name for w in model.weights] == [
      "block/dense/kernel:0", "block/dense/bias:0", "block/dense_1/kernel:0",
      "block/dense_1/bias:0", "block/dense_2/kernel:0", "block/dense_2/bias:0",
      "block/dense_3/kernel:0", "block/dense_3/bias:0", "w:0"]
  assert len(model.layers) == 4 and len(model.trainable_variables) == 9
  model.stack.append(keras.layers.Dense(2))  # later appends are seen
  assert len(model.layers) == 5


def test_model_holding_plain_variables_trains_with_a_tape():
  class Linear(keras.Model):

    def __init__(self):
      super().__init__()
      self.W = tf.Variable(5., name="weight")
      self.B = tf.Variable(10., name="bias")

    def call(self, inputs):
      return inputs * self.W + self.B

  model = Linear()
  assert [v.name for v in model.variables] == ["weight:0", "bias:0"]
  x = tf.constant([1.0, 2.0])
  with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - 1.0))
  grads = tape.gradient(loss, model.variables)
  assert [g.numpy() for g in grads] == [pytest.approx(52.0), pytest.approx(33.0)]


def test_functional_model_layers_in_keras_order():
  # By decreasing depth from the outputs, then by first visit (checked with tf_keras); HDF5
  # weight files are written and read in this order.
  inp = keras.Input((3,), name="x")
  b = keras.layers.Dense(2, name="b")(inp)
  c = keras.layers.Dense(2, name="c")(keras.layers.Dense(2, name="a")(inp))
  model = keras.Model(inp, keras.layers.Concatenate(name="cat")([b, c]))
  assert [layer.name for layer in model.layers] == ["x", "a", "b", "c", "cat"]


def test_functional_model_and_summary(capsys):
  inputs = keras.Input(shape=(3,))
  hidden = keras.layers.Dense(4, activation="relu")(inputs)
  outputs = keras.layers.Dense(2)(hidden)
  model = keras.Model(inputs=inputs, outputs=outputs)
  assert inputs.shape.as_list() == [None, 3] and outputs.shape.as_list() == [None, 2]
  assert [l.name for l in model.layers] == ["input_1", "dense", "dense_1"]
  assert model(tf.ones([5, 3])).shape == [5, 2]
  model.summary()
  text = capsys.readouterr().out.splitlines()
  assert text[4] == "input_1 (InputLayer)         (None, 3)                 0         "
  assert text[6] == "dense (Dense)                (None, 4)                 16        "
  assert text[-4:-1] == ["Total params: 26", "Trainable params: 26", "Non-trainable params: 0"]
  with pytest.raises(TypeError, match="Lambda layer"):
    inputs + 1  # pylint: disable=pointless-statement


def test_input_spec_error_names_layer_and_shapes():
  dense = keras.layers.Dense(3)
  dense(tf.zeros([2, 4]))
  with pytest.raises(ValueError, match=r"Input 0 of layer dense is incompatible with the "
                     r"layer: expected axis -1 of input shape to have value 4 but received "
                     r"input with shape \[2, 5\]"):
    dense(tf.zeros([2, 5]))


def test_layer_names_weights_and_trainability():
  assert keras.layers.Dense(1).name == "dense" and keras.layers.Dense(1).name == "dense_1"
  layer = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
  out = layer(np.array([[1.0, 2.0]]))
  assert out.numpy().tolist() == [[3.0, 3.0]] and layer.count_params() == 6
  layer.set_weights([np.full((2, 2), 2.0), np.ones(2)])
  assert layer(tf.constant([[1.0, 2.0]])).numpy().tolist() == [[7.0, 7.0]]
  with pytest.raises(ValueError, match="expecting 2 weights"):
    layer.set_weights([np.ones((2, 2))])
  layer.trainable = False
  assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 2
  with pytest.raises(TypeError, match="Keyword argument not understood"):
    keras.layers.Dense(2, bogus=1)


def test_regularization_losses_and_add_loss():
  layer = keras.layers.Dense(2, kernel_initializer="ones",
                             kernel_regularizer=lambda w: tf.reduce_sum(w) * 0.5)
  layer(tf.ones([1, 3]))
  assert [l.numpy() for l in layer.losses] == [3.0]
  layer.kernel.assign(tf.zeros([3, 2]))
  assert [l.numpy() for l in layer.losses] == [0.0]  # recomputed from the current weights
  layer.add_loss(tf.constant(2.0))
  assert len(layer.losses) == 2


def test_compute_output_shape_by_tracing():
  layer = keras.layers.Dense(7)
  assert layer.compute_output_shape(tf.TensorShape([None, 3])).as_list() == [None, 7]


def test_tfe_network_seed000():
  class MNISTModel(tfe.Network):

    def __init__(self):
      super(MNISTModel, self).__init__()
      self.layer1 = self.track_layer(keras.layers.Dense(units=10))
      self.layer2 = self.track_layer(keras.layers.Dense(units=10))

    def call(self, input):  # pylint: disable=redefined-builtin
      result = self.layer1(input)
      result = self.layer2(result)
      return result

  model = MNISTModel()
  batch = tf.zeros([1, 1, 784])
  assert str(batch.shape) == "(1, 1, 784)"
  result = model(batch)
  assert result.shape == [1, 1, 10] and model.name == "mnist_model"
  assert [v.name for v in model.variables][:2] == ["mnist_model/dense/kernel:0",
                                                    "mnist_model/dense/bias:0"]
  with pytest.raises(TypeError, match="not a tf.layers.Layer"):
    model.track_layer(3)
  seq = tfe.Sequential([keras.layers.Dense(3), tf.nn.relu])
  assert seq(tf.ones([2, 4])).shape == [2, 3] and len(seq.layers) == 1


def test_masks_propagate_from_embedding_to_rnn():
  emb = keras.layers.Embedding(10, 4, mask_zero=True)
  lstm = keras.layers.LSTM(3)
  padded = emb(tf.constant([[3, 0, 0, 0]]))
  trimmed = emb(tf.constant([[3]]))
  np.testing.assert_allclose(lstm(padded).numpy(), lstm(trimmed).numpy(), rtol=1e-5, atol=1e-7)
  model = keras.Sequential([keras.layers.Embedding(10, 4, mask_zero=True), keras.layers.LSTM(3)])
  masked = model(tf.constant([[5, 2, 0, 0]])).numpy()
  unpadded = model(tf.constant([[5, 2]])).numpy()
  np.testing.assert_allclose(masked, unpadded, rtol=1e-5, atol=1e-7)


def test_model_reset_states_resets_only_stateful_layers():
  """TF 1.x's text generation notebook calls `hidden = model.reset_states()` (None)."""
  class Counter(tf.keras.layers.Layer):
    stateful = True
    resets = 0

    def reset_states(self):
      Counter.resets += 1

  class Net(tf.keras.Model):
    def __init__(self):
      super(Net, self).__init__()
      self.gru = tf.keras.layers.GRU(2)  # not stateful: its reset_states would raise
      self.counter = Counter()

  assert Net().reset_states() is None
  assert Counter.resets == 1
