"""tf.keras.applications: architectures, preprocessing, prediction decoding, weight loading.

Golden architectures (parameter counts, layer names in Keras order, weight shapes, output
shapes) were recorded from tf_keras 2.21 with weights=None
(tests/data/keras_applications_tf_keras.json); where TF 1.15 (keras_applications 1.0.8)
differs from tf_keras, the TF 1.15 layer names are expected (see TF115_NAMES).
"""
import json
import os
import urllib.error
import urllib.request

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.keras.applications import imagenet_utils

A = tf.keras.applications
GOLDEN = os.path.join(os.path.dirname(__file__), "data", "keras_applications_tf_keras.json")
with open(GOLDEN) as _f:
  CONFIGS = json.load(_f)

# TF 1.15 names that tf_keras 2.x changed: (layer inserted after, new layer) and renames.
TF115_NAMES = {"MobileNet": ({"input_1": "conv1_pad"}, {}),
               "MobileNetV2": ({"input_1": "Conv1_pad"}, {"predictions": "Logits"})}


def _tf115_names(name, layers):
  inserted, renamed = TF115_NAMES.get(name, ({}, {}))
  out = []
  for layer in layers:
    out.append(renamed.get(layer, layer))
    if layer in inserted:
      out.append(inserted[layer])
  return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "%s-%s" % (
    c["name"], "top" if c["kwargs"]["include_top"] else c["kwargs"].get("pooling")))
def test_architecture_matches_keras(config):
  tf.keras.backend.clear_session()
  kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in config["kwargs"].items()}
  model = getattr(A, config["name"])(weights=None, **kwargs)
  assert model.name == config["model_name"]
  assert model.count_params() == config["params"]
  trainable = sum(int(np.prod(w.shape.as_list())) for w in model.trainable_weights)
  assert trainable == config["trainable"]
  assert model.outputs.shape.as_list() == config["output_shape"]
  assert [layer.name for layer in model.layers] == _tf115_names(config["name"], config["layers"])
  weights = [w for layer in model.layers for w in layer.weights]
  assert [w.shape.as_list() for w in weights] == config["weight_shapes"]


def test_exported_under_module_paths():
  assert A.resnet50.ResNet50 is A.ResNet50 is A.resnet.ResNet50
  assert A.inception_v3.InceptionV3 is A.InceptionV3
  assert A.vgg16.VGG16 is A.VGG16 and A.vgg19.VGG19 is A.VGG19
  assert A.mobilenet_v2.MobileNetV2 is A.MobileNetV2 and A.densenet.DenseNet121 is A.DenseNet121
  assert A.resnet50.decode_predictions is A.imagenet_utils.decode_predictions
  assert A.vgg16.preprocess_input is A.imagenet_utils.preprocess_input


EX = np.arange(2 * 2 * 2 * 3, dtype=np.float32).reshape(2, 2, 2, 3) * 10.
GOLDEN_PRE = {  # first six and last three values, from tf_keras
    "caffe": ([-83.939003, -106.778999, -123.68, -53.939003, -76.778999, -93.68],
              [126.061, 103.221001, 86.32]),
    "tf": ([-1.0, -0.92156863, -0.84313726, -0.7647059, -0.6862745, -0.60784316],
           [0.64705884, 0.7254902, 0.8039216]),
    "torch": ([-2.117904, -1.8606442, -1.4558606, -1.6041614, -1.335434, -0.9329847],
              [1.4782944, 1.8158263, 2.2042704]),
}


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
def test_preprocess_input_numpy_and_tensor(mode):
  head, tail = GOLDEN_PRE[mode]
  x = EX.copy()
  out = A.imagenet_utils.preprocess_input(x, mode=mode)
  assert out.dtype == np.float32 and out.shape == (2, 2, 2, 3)
  np.testing.assert_allclose(out.reshape(-1)[:6], head, rtol=1e-6)
  np.testing.assert_allclose(out.reshape(-1)[-3:], tail, rtol=1e-6)
  t = A.imagenet_utils.preprocess_input(tf.constant(EX), mode=mode)
  assert isinstance(t, tf.Tensor) and t.dtype == tf.float32
  np.testing.assert_allclose(t.numpy(), out, rtol=1e-6, atol=1e-5)


def test_family_preprocess_modes():
  np.testing.assert_allclose(A.vgg16.preprocess_input(EX.copy()).reshape(-1)[:6],
                             GOLDEN_PRE["caffe"][0], rtol=1e-6)
  for module in (A.inception_v3, A.mobilenet, A.mobilenet_v2, A.xception):
    np.testing.assert_allclose(module.preprocess_input(EX.copy()).reshape(-1)[-3:],
                               GOLDEN_PRE["tf"][1], rtol=1e-6)
  np.testing.assert_allclose(A.densenet.preprocess_input(tf.constant(EX)).numpy().reshape(-1)[
      :6], GOLDEN_PRE["torch"][0], rtol=1e-6)


def test_preprocess_channels_first_uint8_and_errors():
  xc = np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2)
  golden = [-95.939003, -94.939003, -93.939003, -92.939003, -112.778999, -111.778999,
            -110.778999, -109.778999, -123.68, -122.68, -121.68, -120.68]
  np.testing.assert_allclose(A.resnet50.preprocess_input(xc.copy(), data_format="channels_first")
                             .reshape(-1), golden, rtol=1e-6)
  np.testing.assert_allclose(A.resnet50.preprocess_input(
      tf.constant(xc), data_format="channels_first").numpy().reshape(-1), golden, rtol=1e-6)
  out = A.vgg16.preprocess_input(np.arange(12, dtype=np.uint8).reshape(2, 2, 3))
  assert out.dtype == np.float32
  np.testing.assert_allclose(out.reshape(-1)[:3], [-101.939003, -115.778999, -123.68],
                             rtol=1e-6)
  x = EX.copy()  # float arrays are preprocessed in place, as in Keras
  A.inception_v3.preprocess_input(x)
  assert x[0, 0, 0, 0] == -1.0
  with pytest.raises(ValueError, match="Unknown data_format nhwc"):
    A.imagenet_utils.preprocess_input(EX, data_format="nhwc")


def test_decode_predictions_from_cached_class_index(tmp_path, monkeypatch):
  index = {str(i): ["n%08d" % i, "class_%d" % i] for i in range(1000)}
  models_dir = tmp_path / ".keras" / "models"
  models_dir.mkdir(parents=True)
  data = json.dumps(index).encode()
  (models_dir / "imagenet_class_index.json").write_bytes(data)
  monkeypatch.setenv("HOME", str(tmp_path))
  monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", None)
  with pytest.raises(ValueError, match=r"^`decode_predictions` expects a batch of predictions "
                     r"\(i.e. a 2D array of shape \(samples, 1000\)\). Found array with "
                     r"shape: \(2, 10\)$"):
    A.vgg16.decode_predictions(np.zeros((2, 10)))
  preds = np.zeros((2, 1000), np.float32)
  preds[0, [3, 7, 5]] = [0.5, 0.3, 0.2]
  preds[1, 999] = 1.
  fetched = []

  def download(url, filename, reporthook=None):  # no network in tests
    fetched.append(url)
    with open(filename, "wb") as f:
      f.write(data)

  monkeypatch.setattr(urllib.request, "urlretrieve", download)
  result = A.resnet50.decode_predictions(tf.constant(preds), top=3)
  assert fetched == [imagenet_utils.CLASS_INDEX_PATH]  # the cached file's hash is not TF's
  assert [r[:2] for r in result[0]] == [("n00000003", "class_3"), ("n00000007", "class_7"),
                                        ("n00000005", "class_5")]
  np.testing.assert_allclose([r[2] for r in result[0]], [0.5, 0.3, 0.2])
  assert result[1][0][:2] == ("n00000999", "class_999") and len(result[1]) == 3


def test_argument_errors():
  with pytest.raises(ValueError, match="^The `weights` argument should be either `None`"):
    A.VGG16(weights="nope")
  with pytest.raises(ValueError, match="`classes` should be 1000"):
    A.VGG16(weights="imagenet", classes=10)
  with pytest.raises(ValueError, match=r"^Input size must be at least 32x32; got "
                     r"`input_shape=\(16, 16, 3\)`"):
    A.VGG16(weights=None, include_top=False, input_shape=(16, 16, 3))
  with pytest.raises(ValueError, match="Input size must be at least 75x75"):
    A.InceptionV3(weights=None, include_top=False, input_shape=(32, 32, 3))
  with pytest.raises(ValueError, match="must be a tuple of three integers"):
    A.ResNet50(weights=None, include_top=False, input_shape=(32, 32))
  with pytest.raises(ValueError, match="you should specify a static `input_shape`"):
    A.VGG16(weights=None, input_shape=(None, None, 3))
  with pytest.raises(ValueError, match=r"`input_shape` should be \(224, 224, 3\)"):
    A.VGG16(weights="imagenet", input_shape=(32, 32, 3))
  with pytest.raises(ValueError, match="The input must have 3 channels"):
    A.VGG16(weights="imagenet", include_top=False, input_shape=(32, 32, 1))
  with pytest.raises(ValueError, match="alpha can be one of"):
    A.MobileNet(weights="imagenet", alpha=0.3)


def test_imagenet_weights_come_from_the_keras_cache(tmp_path, monkeypatch):
  (tmp_path / ".keras").mkdir()  # (without it, Keras falls back to /tmp/.keras)
  monkeypatch.setenv("HOME", str(tmp_path))
  tf.keras.backend.clear_session()
  cached = tmp_path / ".keras" / "models" / "vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5"

  def offline(url, filename, reporthook=None):
    raise urllib.error.URLError("offline")

  monkeypatch.setattr(urllib.request, "urlretrieve", offline)
  with pytest.raises(Exception, match="URL fetch failure on https://github.com/fchollet/deep-"
                     "learning-models/releases/download/v0.1/vgg16_weights_tf_dim_ordering_tf_"
                     "kernels_notop.h5: None -- offline"):
    A.VGG16(include_top=False, input_shape=(32, 32, 3))
  cached.write_bytes(b"not the real file")
  with pytest.raises(Exception, match="URL fetch failure"):  # wrong hash: downloaded again
    A.VGG16(include_top=False, input_shape=(32, 32, 3))
  assert not cached.exists()


def _tiny_mobilenet(weights=None):
  tf.keras.backend.clear_session()
  return A.MobileNet(input_shape=(32, 32, 3), alpha=0.25, include_top=True, weights=weights,
                     classes=4)


X = A.mobilenet.preprocess_input(
    np.random.RandomState(0).uniform(0, 255, (2, 32, 32, 3)).astype(np.float32))


def test_weights_path_loads_hdf5(tmp_path):
  tf.set_random_seed(1)
  model = _tiny_mobilenet()
  path = str(tmp_path / "mobilenet.h5")
  try:
    import h5py  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
  except ImportError:
    with open(path, "wb") as f:
      f.write(b"\x89HDF")
    with pytest.raises(ImportError, match="^`load_weights` requires h5py when loading "
                       "weights from HDF5.$"):
      _tiny_mobilenet(weights=path)
    return
  model.save_weights(path)
  again = _tiny_mobilenet(weights=path)
  for a, b in zip(model.weights, again.weights):
    np.testing.assert_array_equal(a.numpy(), b.numpy())
  np.testing.assert_allclose(again(X).numpy(), model(X).numpy(), rtol=1e-5, atol=1e-6)


def test_forward_pass_and_a_training_step():
  tf.set_random_seed(1)
  model = _tiny_mobilenet()
  assert [l.name for l in model.layers][-5:] == ["reshape_1", "dropout", "conv_preds",
                                                 "act_softmax", "reshape_2"]
  probs = model(X)
  assert probs.shape.as_list() == [2, 4] and probs.dtype == tf.float32
  np.testing.assert_allclose(probs.numpy().sum(axis=1), [1., 1.], rtol=1e-5)
  labels = tf.constant([1, 3])
  optimizer = tf.train.GradientDescentOptimizer(0.1)
  before = [v.numpy() for v in model.trainable_variables]
  with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
        labels, model(X, training=True)))
  grads = tape.gradient(loss, model.trainable_variables)
  assert len(grads) == len(model.trainable_variables) == 83
  assert all(g is not None and np.all(np.isfinite(g.numpy())) for g in grads)
  assert np.abs(grads[0].numpy()).sum() > 0  # reaches the first convolution
  optimizer.apply_gradients(zip(grads, model.trainable_variables))
  changed = [not np.array_equal(b, v.numpy()) for b, v in zip(before,
                                                               model.trainable_variables)]
  assert all(changed)
