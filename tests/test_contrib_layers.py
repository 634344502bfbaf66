"""`tf.contrib.layers` layer functions (golden values from TF 2.21's equivalent ops)."""
import numpy as np
import pytest

import tfe_compat as tf

L = tf.contrib.layers

X = np.arange(24, dtype=np.float32).reshape(2, 12) / 10 - 1
W = np.linspace(-1, 1, 36, dtype=np.float32).reshape(12, 3)
IMG = (np.arange(64, dtype=np.float32).reshape(2, 4, 4, 2) % 7) / 7
K = np.linspace(-1, 1, 36, dtype=np.float32).reshape(3, 3, 2, 2)

def test_fully_connected_values_names_and_scopes():
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    y = L.fully_connected(X, 3, weights_initializer=tf.constant_initializer(W),
                          biases_initializer=tf.constant_initializer([.1, -.2, .3]))
    L.fully_connected(X, 2)
    L.fully_connected(X, 2, scope="fc")
    again = L.fully_connected(X, 2, scope="fc", reuse=True, activation_fn=None)
  assert y.dtype == tf.float32
  np.testing.assert_allclose(y.numpy(), [[2.86, 2.25143, 2.44286], [2.03714, 2.25143, 3.26571]],
                             rtol=1e-5)
  assert sorted(v.name for v in store.variables()) == sorted([
      "fully_connected/weights:0", "fully_connected/biases:0", "fully_connected_1/weights:0",
      "fully_connected_1/biases:0", "fc/weights:0", "fc/biases:0"])
  assert again.shape == [2, 2]
  assert L.linear(tf.ones([2, 5, 4]), 3).shape == [2, 5, 3]
  with pytest.raises(ValueError, match="num_outputs type"):
    L.fully_connected(X, 2.0)

def test_fully_connected_with_batch_norm_has_no_biases():
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default(), tf.variable_scope("net"):
    L.fully_connected(X, 3, normalizer_fn=L.batch_norm, normalizer_params={"scale": True})
  assert sorted(v.name for v in store.variables()) == sorted([
      "net/fully_connected/weights:0", "net/fully_connected/BatchNorm/beta:0",
      "net/fully_connected/BatchNorm/gamma:0", "net/fully_connected/BatchNorm/moving_mean:0",
      "net/fully_connected/BatchNorm/moving_variance:0"])

def test_conv2d_conv2d_transpose_and_separable():
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    c = L.conv2d(IMG, 2, 3, weights_initializer=tf.constant_initializer(K), activation_fn=None)
    kt = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 2, 3, 2)
    t = L.conv2d_transpose(IMG, 3, 2, stride=2, padding="VALID", activation_fn=None,
                           weights_initializer=tf.constant_initializer(kt))
    assert L.conv2d_transpose(IMG, 3, 3, stride=2, padding="VALID").shape == [2, 9, 9, 3]
    s = L.separable_conv2d(IMG, 3, 3, weights_initializer=tf.constant_initializer(K[..., :1]),
                           pointwise_initializer=tf.constant_initializer(
                               np.linspace(-1, 1, 6, dtype=np.float32).reshape(1, 1, 2, 3)),
                           activation_fn=None)
    d = L.separable_conv2d(IMG, None, 3, padding="VALID", activation_fn=None,
                           weights_initializer=tf.constant_initializer(K[..., :1]))
  np.testing.assert_allclose(c.numpy()[0, :2, :2].ravel(), [
      1.33878, 1.46939, 2.48163, 2.77551, 1.39592, 1.64082, 0.83265, 1.2898], rtol=1e-4)
  assert t.shape == [2, 8, 8, 3]
  np.testing.assert_allclose(t.numpy()[1, :2, :2].ravel(), [
      -1.2236, -1.0, -0.7764, -0.5528, -0.32919, -0.10559, 0.11801, 0.34161, 0.56522,
      0.78882, 1.01242, 1.23602], rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(s.numpy()[0, 0].ravel(), [
      -0.3102, 0.22531, 0.76082, -0.65469, 0.33796, 1.33061, -0.37959, 0.23265, 0.8449,
      0.06286, 0.21796, 0.37306], rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(d.numpy()[0, 0].ravel(), [0.64898, 0.18367, -0.54286, -0.28571],
                             rtol=1e-4)
  assert sorted(v.name for v in store.variables()) == sorted([
      "Conv/weights:0", "Conv/biases:0", "Conv2d_transpose/weights:0",
      "Conv2d_transpose/biases:0", "Conv2d_transpose_1/weights:0",
      "Conv2d_transpose_1/biases:0", "SeparableConv2d/depthwise_weights:0",
      "SeparableConv2d/pointwise_weights:0", "SeparableConv2d/biases:0",
      "SeparableConv2d_1/depthwise_weights:0", "SeparableConv2d_1/biases:0"])
  assert L.convolution2d is L.conv2d
  assert L.conv2d(IMG, 4, [3, 3]).numpy().min() >= 0  # relu by default

def test_pooling_flatten_softmax_one_hot_bias_add():
  np.testing.assert_allclose(L.max_pool2d(IMG, 2).numpy()[0, 0].ravel(),
                             [0.428571, 0.571429, 0.857143, 0.857143], rtol=1e-5)
  np.testing.assert_allclose(L.avg_pool2d(IMG, 3, stride=1, padding="SAME").numpy()[0, 0].ravel(),
                             [0.21429, 0.35714, 0.35714, 0.5, 0.47619, 0.45238, 0.53571, 0.42857],
                             rtol=1e-4)
  assert L.flatten(IMG).shape == [2, 32]
  np.testing.assert_allclose(L.softmax([[1.0, 2.0, 3.0]]).numpy(),
                             [[0.090031, 0.244728, 0.665241]], rtol=1e-5)
  oh = L.one_hot_encoding([0, 2], 3)
  assert oh.dtype == tf.float32 and oh.numpy().tolist() == [[1, 0, 0], [0, 0, 1]]
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    out = L.bias_add(tf.ones([2, 3]), initializer=tf.constant_initializer([1., 2., 3.]),
                     activation_fn=tf.nn.relu)
  assert out.numpy().tolist() == [[2, 3, 4]] * 2
  assert [v.name for v in store.variables()] == ["BiasAdd/biases:0"]

def test_batch_norm_training_updates_moving_statistics():
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    y = L.batch_norm(IMG, scope="bn")
    mean, var = store.variables()[1:]
    np.testing.assert_allclose(mean.numpy(), [0.00042857, 0.00041518], rtol=1e-4)
    np.testing.assert_allclose(var.numpy(), [0.99908692, 0.99908477], rtol=1e-6)
    np.testing.assert_allclose(y.numpy()[0, 0].ravel(), [
        -1.4684, -0.94472, -0.48947, 0.04646, 0.48947, 1.03765, 1.4684, -1.44032],
        rtol=1e-4, atol=1e-5)
    inference = L.batch_norm(IMG, scope="bn", reuse=True, is_training=False)
    np.testing.assert_allclose(
        inference.numpy(), (IMG - mean.numpy()) / np.sqrt(var.numpy() + 1e-3), rtol=1e-5)
    L.batch_norm(IMG.reshape(2, 16, 2), decay=0.9, scope="bn3")  # non-fused: biased variance
  assert [v.name for v in store.variables()][:3] == [
      "bn/beta:0", "bn/moving_mean:0", "bn/moving_variance:0"]
  np.testing.assert_allclose(store.variables()[-1].numpy(),
                             0.9 + 0.1 * np.array([0.08418366, 0.08209104]), rtol=1e-6)
  assert mean.trainable is False

def test_layer_norm_and_dropout():
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    out = L.layer_norm(IMG)
  np.testing.assert_allclose(out.numpy()[1, 0].ravel(), [
      0.44168, 0.92905, 1.41643, -1.50781, -1.02044, -0.53306, -0.04569, 0.44168],
      rtol=1e-4, atol=1e-5)
  assert [(v.name, v.shape.as_list()) for v in store.variables()] == [
      ("LayerNorm/beta:0", [2]), ("LayerNorm/gamma:0", [2])]
  assert L.dropout(tf.ones([4]), is_training=False).numpy().tolist() == [1.0] * 4
  kept = L.dropout(tf.ones([1000]), keep_prob=0.25).numpy()
  assert set(np.unique(kept)) <= {0.0, 4.0} and 150 < (kept > 0).sum() < 350

def test_regularizers_and_apply_regularization():
  np.testing.assert_allclose(L.l1_regularizer(0.5)(W).numpy(), 9.257143, rtol=1e-6)
  np.testing.assert_allclose(L.l2_regularizer(0.25)(W).numpy(), 1.585714, rtol=1e-6)
  np.testing.assert_allclose(L.l1_l2_regularizer(0.5, 0.25)(W).numpy(), 10.842857, rtol=1e-6)
  assert L.l2_regularizer(0.0)(W) is None and L.sum_regularizer([None]) is None
  with pytest.raises(ValueError, match="scale cannot be an integer: 1"):
    L.l1_regularizer(1)
  with pytest.raises(ValueError, match="less than 0"):
    L.l2_regularizer(-0.1)
  before = len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
  L.fully_connected(X, 2, weights_regularizer=L.l2_regularizer(0.1))  # TF 1.15 eager: no entry
  assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == before
  total = L.apply_regularization(L.l1_regularizer(0.5), [tf.constant(W), tf.constant(-W)])
  np.testing.assert_allclose(total.numpy(), 18.514286, rtol=1e-6)
  assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)[-1] is total

def test_embed_sequence_repeat_stack():
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    emb = L.embed_sequence([[0, 2]], vocab_size=3, embed_dim=2,
                           initializer=tf.constant_initializer([[0, 1], [2, 3], [4, 5]]))
    L.repeat(tf.ones([1, 4]), 2, L.fully_connected, 4)
    L.stack(tf.ones([1, 4]), L.fully_connected, [3, 2], scope="mlp")
  assert emb.numpy().tolist() == [[[0, 1], [4, 5]]]
  assert sorted(v.name for v in store.variables()) == sorted([
      "EmbedSequence/embeddings:0", "Repeat/fully_connected_1/weights:0",
      "Repeat/fully_connected_1/biases:0", "Repeat/fully_connected_2/weights:0",
      "Repeat/fully_connected_2/biases:0", "mlp/mlp_1/weights:0", "mlp/mlp_1/biases:0",
      "mlp/mlp_2/weights:0", "mlp/mlp_2/biases:0"])
  with pytest.raises(ValueError, match="Must specify vocab size"):
    L.embed_sequence([0], vocab_size=3)
