"""Whole Keras models: configs, JSON, clone_model, HDF5 model files (Model.save / load_model),
and a model file written by tf_keras (tests/data/tf_keras_model.h5; its golden predictions
come from tf_keras)."""
import json
import os

import numpy as np
import pytest

import tfe_compat as tf

keras = tf.keras
DATA = os.path.join(os.path.dirname(__file__), "data")
pytest.importorskip("h5py")


def functional():
  a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
  shared = keras.layers.Dense(5, activation="relu", name="shared")
  joined = keras.layers.Concatenate(name="cat")([shared(a), shared(b)])
  return keras.Model([a, b], keras.layers.Dense(3, name="out")(joined), name="two_in")


def data():
  rng = np.random.default_rng(0)
  x = rng.standard_normal((8, 4)).astype(np.float32)
  return x, rng.integers(0, 3, 8)


def test_functional_model_file_round_trip_keeps_weights_compilation_and_optimizer(tmp_path):
  x, y = data()
  model = functional()
  model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                metrics=["accuracy"])
  model.fit([x, x * 2], y, epochs=2, verbose=0)
  path = str(tmp_path / "model.h5")
  model.save(path)
  loaded = keras.models.load_model(path)
  assert [l.name for l in loaded.layers] == ["a", "b", "shared", "cat", "out"]
  assert loaded.get_config() == model.get_config()
  np.testing.assert_array_equal(loaded.predict([x, x * 2]), model.predict([x, x * 2]))
  assert loaded.loss == "sparse_categorical_crossentropy"
  assert isinstance(loaded.optimizer, keras.optimizers.Adam)
  for a, b in zip(loaded.optimizer.get_weights(), model.optimizer.get_weights()):
    np.testing.assert_array_equal(a, b)
  model.fit([x, x * 2], y, epochs=1, verbose=0)  # the optimizer state carries on
  loaded.fit([x, x * 2], y, epochs=1, verbose=0)
  for a, b in zip(loaded.get_weights(), model.get_weights()):
    np.testing.assert_allclose(a, b, rtol=1e-6)
  uncompiled = keras.models.load_model(path, compile=False)
  assert getattr(uncompiled, "optimizer", None) is None


def test_sequential_file_and_keras_layout(tmp_path):
  import h5py  # pylint: disable=import-outside-toplevel
  x, _ = data()
  model = keras.Sequential([keras.layers.Dense(6, activation="tanh", input_shape=(4,)),
                            keras.layers.Dropout(0.2), keras.layers.Dense(2)])
  model.compile("sgd", "mse")
  path = str(tmp_path / "seq.h5")
  keras.models.save_model(model, path)
  with h5py.File(path, "r") as f:
    config = json.loads(f.attrs["model_config"])
    assert config["class_name"] == "Sequential"
    assert config["config"]["layers"][0]["config"]["batch_input_shape"] == [None, 4]
    assert f.attrs["keras_version"] in ("2.2.4-tf", b"2.2.4-tf") and "model_weights" in f
    assert json.loads(f.attrs["training_config"])["loss"] == "mse"
  loaded = keras.models.load_model(path)
  np.testing.assert_array_equal(loaded.predict(x), model.predict(x))
  built_later = keras.Sequential([keras.layers.Dense(2)])
  built_later.build((None, 4))  # the input shape goes into the first layer's config
  assert built_later.get_config()["layers"][0]["config"]["batch_input_shape"] == (None, 4)


def test_json_configs_clone_and_layer_serialization():
  x, _ = data()
  model = functional()
  again = keras.models.model_from_json(model.to_json())
  assert again.get_config() == model.get_config()
  again.set_weights(model.get_weights())
  np.testing.assert_array_equal(again.predict([x, x]), model.predict([x, x]))
  clone = keras.models.clone_model(model)
  assert clone.get_config() == model.get_config() and clone is not model
  assert not np.array_equal(clone.get_weights()[0], model.get_weights()[0])  # new weights
  dense = keras.layers.deserialize(keras.layers.serialize(keras.layers.Dense(4, name="d")))
  assert isinstance(dense, keras.layers.Dense) and dense.units == 4 and dense.name == "d"
  with pytest.raises(TypeError, match="expects a dictionary"):
    keras.models.model_from_config([])


def test_model_files_tfe_compat_cannot_write(tmp_path):
  class Subclassed(keras.Model):
    def __init__(self):
      super().__init__()
      self.dense = keras.layers.Dense(2)

    def call(self, inputs):
      return self.dense(inputs)
  model = Subclassed()
  model(np.zeros((1, 3), np.float32))
  with pytest.raises(NotImplementedError, match="requires the model to be a Functional model"):
    model.save(str(tmp_path / "sub.h5"))
  with pytest.raises(NotImplementedError):
    model.get_config()
  with pytest.raises(NotImplementedError, match="SavedModel"):
    functional().save(str(tmp_path / "saved"), save_format="tf")


def test_loads_a_model_file_written_by_tf_keras():
  with pytest.warns(UserWarning, match="later Keras optimizer"):
    model = keras.models.load_model(os.path.join(DATA, "tf_keras_model.h5"))
  assert [l.name for l in model.layers] == ["a", "b", "shared", "cat", "out"]
  q = np.arange(8, dtype=np.float32).reshape(2, 4) / 8
  np.testing.assert_allclose(model.predict([q, -q]),
                             [[0.312667, 0.372471, 0.314862], [0.269822, 0.546116, 0.184062]],
                             atol=2e-6)
  assert isinstance(model.optimizer, keras.optimizers.Adam)
  np.testing.assert_allclose(float(model.optimizer.learning_rate), 0.01, rtol=1e-6)


def test_custom_layers_must_override_get_config_and_source_inputs():
  """TF 1.15's rule: a layer with `__init__` arguments needs its own get_config to be saved."""
  class Scaled(keras.layers.Layer):
    def __init__(self, factor, **kwargs):
      super().__init__(**kwargs)
      self.factor = factor

    def call(self, inputs):
      return inputs * self.factor

  with pytest.raises(NotImplementedError, match="must override `get_config`"):
    Scaled(2.).get_config()
  a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
  out = keras.layers.Dense(2)(keras.layers.Add()([a, b]))
  assert [t.name for t in keras.utils.get_source_inputs(out)] == ["a", "b"]  # as tf_keras
  if tf.contrib.eager.num_gpus() < 2:
    with pytest.raises(ValueError, match="we expect the following devices to be available"):
      keras.utils.multi_gpu_model(keras.Model([a, b], out), gpus=2)
  with pytest.raises(ValueError, match="`gpus >= 2`"):
    keras.utils.multi_gpu_model(keras.Model([a, b], out), gpus=1)
