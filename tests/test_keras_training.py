"""Model.compile/fit/evaluate/predict, callbacks, the progress bar, keras.utils,
keras.preprocessing and keras.datasets (TF 1.15 tf.keras semantics).

Progress-bar texts were checked against TF 1.15's own Progbar/ProgbarLogger code run on the
same logs with the same clock; preprocessing goldens come from tf_keras.
"""
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.keras import utils as keras_utils


class _Clock:
  """A stand-in for the `time` module: each `time()` call advances by `step` seconds."""

  def __init__(self, step, start=1000.):
    self.t, self.step = start - step, step

  def time(self):
    self.t += self.step
    return self.t


def _line_model(**dense_kwargs):
  model = tf.keras.Sequential([tf.keras.layers.Dense(
      1, kernel_initializer="zeros", input_shape=(1,), **dense_kwargs)])
  model.compile(tf.keras.optimizers.SGD(0.1), "mse")
  return model


_X8 = (np.arange(8, dtype=np.float32) / 8).reshape(8, 1)
_Y8 = 2 * _X8 + 1


def _blobs(n=128, seed=0):
  rng = np.random.RandomState(seed)
  x = rng.randn(n, 2).astype("float32")
  y = (x[:, 0] + x[:, 1] > 0).astype("int32")
  return x, y


# ---- fit / evaluate / predict ----
def test_linear_regression_fit_reduces_loss():
  rng = np.random.RandomState(1)
  x = rng.uniform(-1, 1, (64, 1)).astype("float32")
  y = 3 * x - 1
  model = _line_model()
  history = model.fit(x, y, epochs=30, batch_size=16, verbose=0)
  assert isinstance(history, tf.keras.callbacks.History)
  assert history is model.history
  losses = history.history["loss"]
  assert sorted(history.history) == ["loss"] and len(losses) == 30
  assert history.epoch == list(range(30))
  assert losses[-1] < 0.01 * losses[0]
  kernel, bias = model.get_weights()
  np.testing.assert_allclose([kernel[0, 0], bias[0]], [3., -1.], atol=0.1)


def test_fit_exact_losses_without_shuffle():
  # Golden values: SGD(0.1) on mse computed step by step in float32.
  model = _line_model()
  history = model.fit(_X8, _Y8, batch_size=4, epochs=2, shuffle=False, verbose=0)
  np.testing.assert_allclose(history.history["loss"], [3.141263, 1.094224], rtol=1e-5)
  kernel, bias = model.get_weights()
  np.testing.assert_allclose([kernel[0, 0], bias[0]], [0.5653033, 1.0718385], rtol=1e-5)


@pytest.mark.parametrize("metric,name", [("accuracy", "acc"), ("acc", "acc")])
def test_two_class_problem_reaches_high_accuracy(metric, name):
  tf.set_random_seed(0)
  x, y = _blobs()
  model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(2,)),
                               tf.keras.layers.Dense(2, activation="softmax")])
  model.compile(tf.keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy",
                metrics=[metric])
  assert model.metrics_names == ["loss", name]
  history = model.fit(x, y, epochs=8, batch_size=32, verbose=0)
  assert sorted(history.history) == sorted(["loss", name])
  assert history.history[name][-1] > 0.9
  loss, acc = model.evaluate(x, y, verbose=0)
  assert acc > 0.9 and loss < history.history["loss"][0]


def test_binary_accuracy_from_sigmoid_output_and_tf_train_optimizer():
  tf.set_random_seed(0)
  x, y = _blobs()
  model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid",
                                                     input_shape=(2,))])
  model.compile(tf.train.GradientDescentOptimizer(1.0), "binary_crossentropy",
                metrics=["accuracy"])
  history = model.fit(x, y.reshape(-1, 1).astype("float32"), epochs=10, verbose=0)
  assert history.history["acc"][-1] > 0.9


def test_history_keys_with_validation_split(capsys):
  x, y = _blobs(64)
  model = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="softmax",
                                                     input_shape=(2,))])
  model.compile("adam", "sparse_categorical_crossentropy", metrics=["acc"])
  history = model.fit(x, y, epochs=2, batch_size=16, validation_split=0.25, verbose=2)
  assert sorted(history.history) == ["acc", "loss", "val_acc", "val_loss"]
  assert all(len(v) == 2 for v in history.history.values())
  out = capsys.readouterr().out
  assert out.startswith("Train on 48 samples, validate on 16 samples\nEpoch 1/2\n48/48 - ")
  assert " - val_loss: " in out and out.count("\n") == 5
  assert model.history.params["samples"] == 48
  assert model.history.params["metrics"] == ["loss", "acc", "val_loss", "val_acc"]


def test_validation_data_and_validation_freq():
  model = _line_model()
  history = model.fit(_X8, _Y8, epochs=4, batch_size=4, verbose=0,
                      validation_data=(_X8[:2], _Y8[:2]), validation_freq=2)
  assert len(history.history["loss"]) == 4
  assert len(history.history["val_loss"]) == 2
  with pytest.raises(ValueError, match="validation_data and validation_split"):
    model.fit(_X8, _Y8, validation_split=0.5, validation_data=(_X8, _Y8), verbose=0)


def test_loss_and_metric_objects_tensor_and_dict_inputs():
  inputs = tf.keras.Input(shape=(1,), name="features")
  model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="zeros")(inputs))
  mae = tf.keras.metrics.MeanAbsoluteError()
  model.compile(tf.keras.optimizers.SGD(0.1), tf.keras.losses.MeanSquaredError(),
                metrics=[mae])
  assert model.metrics_names == ["loss", "mean_absolute_error"]
  history = model.fit({"features": tf.constant(_X8)}, tf.constant(_Y8), batch_size=4,
                      epochs=2, shuffle=False, verbose=0)
  np.testing.assert_allclose(history.history["loss"], [3.141263, 1.094224], rtol=1e-5)
  np.testing.assert_allclose(history.history["mean_absolute_error"], [1.7170899, 0.96250606],
                             rtol=1e-5)  # the metric object is reset every epoch
  assert model.metrics == [mae]
  np.testing.assert_allclose(mae.result().numpy(), 0.96250606, rtol=1e-5)
  with pytest.raises(ValueError, match='No data provided for "features"'):
    model.predict({"other": _X8})


def test_fit_on_a_tf_data_dataset():
  if not hasattr(tf, "data"):
    pytest.skip("tf.data is not available in this checkout")
  dataset = tf.data.Dataset.from_tensor_slices((_X8, _Y8)).batch(4)
  model = _line_model()
  history = model.fit(dataset, epochs=2, verbose=0, validation_data=dataset)
  np.testing.assert_allclose(history.history["loss"], [3.141263, 1.094224], rtol=1e-5)
  assert sorted(history.history) == ["loss", "val_loss"]
  assert model.predict(dataset).shape == (8, 1)


def test_evaluate_and_predict_shapes_and_dtypes():
  model = _line_model()
  x = np.linspace(0, 1, 70).reshape(70, 1).astype("float64")
  prediction = model.predict(x, batch_size=32)
  assert isinstance(prediction, np.ndarray)
  assert prediction.shape == (70, 1) and prediction.dtype == np.float32
  np.testing.assert_array_equal(prediction, np.zeros((70, 1), np.float32))
  loss = model.evaluate(x, 2 * x, verbose=0)
  assert isinstance(loss, np.float32)
  np.testing.assert_allclose(loss, np.mean((2 * x) ** 2), rtol=1e-5)
  model.compile("sgd", "mse", metrics=["mae"])
  result = model.evaluate(x, 2 * x, batch_size=16, verbose=0)
  assert isinstance(result, list) and len(result) == 2
  np.testing.assert_allclose(result[1], np.mean(np.abs(2 * x)), rtol=1e-5)
  assert model.metrics_names == ["loss", "mean_absolute_error"]


def test_train_test_predict_on_batch():
  model = _line_model()
  model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
  loss, mae = model.train_on_batch(_X8[:4], _Y8[:4])
  np.testing.assert_allclose([loss, mae], [1.96875, 1.375], rtol=1e-6)
  loss, mae = model.test_on_batch(_X8[4:], _Y8[4:])
  np.testing.assert_allclose(loss, 4.313776, rtol=1e-5)  # the golden of the fit test
  out = model.predict_on_batch(_X8[:3])
  assert isinstance(out, np.ndarray) and out.shape == (3, 1)


def test_regularization_losses_are_included():
  model = tf.keras.Sequential([tf.keras.layers.Dense(
      1, kernel_initializer="ones", kernel_regularizer=tf.keras.regularizers.l2(0.1),
      input_shape=(2,))])
  model.compile(tf.keras.optimizers.SGD(0.), "mse")
  x = np.array([[1., 2.], [3., 4.]], np.float32)
  y = np.array([[0.], [1.]], np.float32)
  assert len(model.losses) == 1
  np.testing.assert_allclose(model.evaluate(x, y, verbose=0), 22.5 + 0.2, rtol=1e-6)
  history = model.fit(x, y, epochs=1, verbose=0)
  np.testing.assert_allclose(history.history["loss"], [22.7], rtol=1e-6)


def test_fit_functional_model_with_two_outputs():
  tf.set_random_seed(0)
  x, labels = _blobs(64)
  inputs = tf.keras.Input(shape=(2,))
  hidden = tf.keras.layers.Dense(8, activation="tanh", name="hidden")(inputs)
  out_a = tf.keras.layers.Dense(1, name="reg")(hidden)
  out_b = tf.keras.layers.Dense(2, activation="softmax", name="cls")(hidden)
  model = tf.keras.Model(inputs, [out_a, out_b])
  model.compile("adam", loss=["mse", "sparse_categorical_crossentropy"],
                loss_weights=[1., 0.5], metrics={"cls": ["accuracy"]})
  assert model.metrics_names == ["loss", "reg_loss", "cls_loss", "cls_acc"]
  target = x.sum(axis=1, keepdims=True)
  history = model.fit(x, [target, labels], epochs=3, batch_size=16, verbose=0,
                      validation_data=(x, {"reg": target, "cls": labels}))
  assert sorted(history.history) == sorted(
      ["loss", "reg_loss", "cls_loss", "cls_acc", "val_loss", "val_reg_loss",
       "val_cls_loss", "val_cls_acc"])
  assert history.history["loss"][-1] < history.history["loss"][0]
  total, reg_loss, cls_loss, _ = model.evaluate(x, [target, labels], verbose=0)
  np.testing.assert_allclose(total, reg_loss + 0.5 * cls_loss, rtol=1e-5)
  predictions = model.predict(x)
  assert [p.shape for p in predictions] == [(64, 1), (64, 2)]


def test_fit_subclassed_model():
  class Linear(tf.keras.Model):

    def __init__(self):
      super().__init__()
      self.dense = tf.keras.layers.Dense(1, kernel_initializer="zeros")

    def call(self, inputs):
      return self.dense(inputs)

  model = Linear()
  model.compile(tf.keras.optimizers.SGD(0.1), "mse")
  history = model.fit(_X8, _Y8, batch_size=4, epochs=2, shuffle=False, verbose=0)
  np.testing.assert_allclose(history.history["loss"], [3.141263, 1.094224], rtol=1e-5)
  assert model.predict(_X8).shape == (8, 1)


class _Batches:
  """An iterable of (x, y) batches without `shape`, as a tf.data.Dataset is."""

  def __init__(self, x, y, batch_size):
    self.x, self.y, self.batch_size = x, y, batch_size

  def __iter__(self):
    for start in range(0, len(self.x), self.batch_size):
      yield self.x[start:start + self.batch_size], self.y[start:start + self.batch_size]


def test_fit_on_an_iterable_of_batches(capsys):
  model = _line_model()
  history = model.fit(_Batches(_X8, _Y8, 4), epochs=2, verbose=0)
  np.testing.assert_allclose(history.history["loss"], [3.141263, 1.094224], rtol=1e-5)
  # Without a known size, the loss is the mean of the batch losses (TF's use_steps mode).
  batch_losses = [model.test_on_batch(_X8[i:i + 3], _Y8[i:i + 3]) for i in (0, 3, 6)]
  np.testing.assert_allclose(model.evaluate(_Batches(_X8, _Y8, 3), verbose=0),
                             np.mean(batch_losses), rtol=1e-5)
  assert model.predict(_Batches(_X8, _Y8, 3)).shape == (8, 1)
  # steps_per_epoch takes that many batches per epoch from one iterator.
  seen = []
  model.fit(_Batches(_X8, _Y8, 2), epochs=2, steps_per_epoch=2, verbose=1,
            callbacks=[tf.keras.callbacks.LambdaCallback(
                on_batch_end=lambda batch, logs: seen.append(logs["size"]))])
  assert seen == [2, 2, 2, 2]
  assert capsys.readouterr().out.startswith("Train for 2 steps\nEpoch 1/2\n")
  with pytest.raises(ValueError, match="`y` argument is not supported"):
    model.fit(_Batches(_X8, _Y8, 4), _Y8, verbose=0)


def test_fit_on_a_sequence_with_sample_weights():
  class Weighted(tf.keras.utils.Sequence):

    def __len__(self):
      return 2

    def __getitem__(self, i):
      sl = slice(4 * i, 4 * i + 4)
      return _X8[sl], _Y8[sl], np.ones(4, np.float32)

  model = _line_model()
  history = model.fit(Weighted(), epochs=2, shuffle=False, verbose=0)
  np.testing.assert_allclose(history.history["loss"], [3.141263, 1.094224], rtol=1e-5)


def test_sample_weight_and_class_weight():
  model = _line_model()
  weights = np.array([1., 0., 0., 0.], np.float32)
  # A batch loss is sum(w * err) / batch size (TF's SUM_OVER_BATCH_SIZE).
  np.testing.assert_allclose(model.test_on_batch(_X8[:4], _Y8[:4], sample_weight=weights),
                             1. / 4, rtol=1e-6)
  labels = np.array([0, 1, 1, 1])
  clf = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="zeros",
                                                   input_shape=(1,))])
  clf.compile("sgd", "sparse_categorical_crossentropy")
  loss = clf.test_on_batch(np.zeros((4, 1), np.float32), labels)
  np.testing.assert_allclose(loss, np.log(2.), rtol=1e-6)
  history = clf.fit(np.zeros((4, 1), np.float32), labels, class_weight={0: 3., 1: 1.},
                    epochs=1, verbose=0, batch_size=4)
  np.testing.assert_allclose(history.history["loss"], [6 * np.log(2.) / 4], rtol=1e-6)


def test_compile_and_fit_errors():
  model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
  with pytest.raises(RuntimeError, match="must compile"):
    model.fit(_X8, _Y8, verbose=0)
  with pytest.raises(ValueError, match="target_tensors"):
    model.compile("sgd", "mse", target_tensors=[_Y8])
  with pytest.raises(ValueError, match="Unknown"):
    model.compile("sgd", "no_such_loss")
  model.compile("sgd", "mse")
  with pytest.raises(ValueError, match="same number of samples"):
    model.fit(_X8, _Y8[:5], verbose=0)


# ---- The progress bar ----
def test_fit_progress_bar_verbose_1_exact(capsys, monkeypatch):
  monkeypatch.setattr(keras_utils, "time", _Clock(0.25))
  _line_model().fit(_X8, _Y8, batch_size=4, epochs=2, shuffle=False, verbose=1)
  first = "4/8 [==============>...............] - ETA: 0s - loss: 1.9688"
  second = "4/8 [==============>...............] - ETA: 0s - loss: 0.4407"
  assert len(first) == 61
  expected = ("Train on 8 samples\n"
              "Epoch 1/2\n"
              "\r" + first + "\b" * 61 +
              "\r8/8 [==============================] - 0s 62ms/sample - loss: 3.1413\n"
              "Epoch 2/2\n"
              "\r" + second + "\b" * 61 +
              "\r8/8 [==============================] - 0s 62ms/sample - loss: 1.0942\n")
  assert capsys.readouterr().out == expected


def test_fit_progress_bar_verbose_2_exact_with_validation(capsys, monkeypatch):
  # Three clock ticks an epoch: the bar's start, the first batch, the epoch's end; the
  # validation loop's (silent) bar also starts inside the epoch, as in TF.
  monkeypatch.setattr(keras_utils, "time", _Clock(30.))
  model = _line_model()
  model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
  x_val = np.array([[0.5], [1.5]], np.float32)
  model.fit(_X8, _Y8, batch_size=4, epochs=2, shuffle=False, verbose=2,
            validation_data=(x_val, 2 * x_val + 1))
  assert capsys.readouterr().out == (
      "Train on 8 samples, validate on 2 samples\n"
      "Epoch 1/2\n"
      "8/8 - 90s - loss: 3.1413 - mean_absolute_error: 1.7171 - val_loss: 4.5342"
      " - val_mean_absolute_error: 1.9631\n"
      "Epoch 2/2\n"
      "8/8 - 90s - loss: 1.0942 - mean_absolute_error: 0.9625 - val_loss: 2.3720"
      " - val_mean_absolute_error: 1.3629\n")


def test_evaluate_progress_bar_as_tf_1_15_prints_it(capsys, monkeypatch):
  # TF 1.15's evaluate passes `samples=True` to the callbacks, so the bar's target is 1
  # ("8/1 [=====...]", a bar 8 times too long): reproduced as it was.
  monkeypatch.setattr(keras_utils, "time", _Clock(0.5))
  _line_model().evaluate(_X8, _Y8, batch_size=8, verbose=1)
  assert capsys.readouterr().out == (
      "\r8/1 [" + "=" * 240 + "] - 0s 62ms/sample - loss: 3.8438\n")


def test_progbar_formats(capsys, monkeypatch):
  monkeypatch.setattr(keras_utils, "time", _Clock(40.))
  bar = tf.keras.utils.Progbar(100)
  bar.update(1, [("loss", 2.5)])
  bar.update(2, [("loss", 1.5)])
  bar.update(100, [("loss", 0.5)])
  line1 = "  1/100 [..............................] - ETA: 1:06:00 - loss: 2.5000"
  line2 = "  2/100 [..............................] - ETA: 1:05:20 - loss: 2.0000"
  assert capsys.readouterr().out == (
      "\r" + line1 + "\b" * len(line1) + "\r" + line2 + "\b" * len(line2) +
      "\r100/100 [==============================] - 120s 1s/step - loss: 0.5300\n")

  monkeypatch.setattr(keras_utils, "time", _Clock(1.5))
  bar = tf.keras.utils.Progbar(1000, stateful_metrics=["acc"])
  bar.update(10, [("acc", 0.5)])
  bar.update(500, [("acc", 0.75)])
  bar.add(500, [("acc", 1.0)])
  line1 = "  10/1000 [..............................] - ETA: 2:28 - acc: 0.5000"
  line2 = " 500/1000 [==============>...............] - ETA: 3s - acc: 0.7500  "
  assert capsys.readouterr().out == (
      "\r" + line1 + "\b" * len(line1) + "\r" + line2 + "\b" * (len(line2) - 2) +
      "\r1000/1000 [==============================] - 4s 4ms/step - acc: 1.0000\n")

  monkeypatch.setattr(keras_utils, "time", _Clock(2e-5))
  bar = tf.keras.utils.Progbar(None, unit_name="sample")
  bar.update(3, [("loss", 1e-4)])
  bar.update(7, [("loss", 2e-4)])
  line1 = "      3/Unknown - 0s 7us/sample - loss: 1.0000e-04"
  assert capsys.readouterr().out == (
      "\r" + line1 + "\b" * len(line1) +
      "\r      7/Unknown - 0s 6us/sample - loss: 1.5714e-04")

  monkeypatch.setattr(keras_utils, "time", _Clock(0.01))
  bar = tf.keras.utils.Progbar(5, verbose=2)
  bar.update(3, [("loss", 3.0)])
  bar.update(5, [("loss", 3.0)])
  assert capsys.readouterr().out == "5/5 - 0s - loss: 3.0000\n"


# ---- Callbacks ----
def test_callback_hooks_order_and_params():
  events = []

  class Recorder(tf.keras.callbacks.Callback):

    def set_model(self, model):
      events.append("set_model")
      super().set_model(model)

    def on_train_begin(self, logs=None):
      events.append("train_begin")

    def on_epoch_begin(self, epoch, logs=None):
      events.append("epoch_begin %d" % epoch)

    def on_train_batch_end(self, batch, logs=None):
      events.append("batch_end %d %s" % (batch, sorted(logs)))

    def on_test_begin(self, logs=None):
      events.append("test_begin")

    def on_test_batch_end(self, batch, logs=None):
      events.append("test_batch_end %d" % batch)

    def on_epoch_end(self, epoch, logs=None):
      events.append("epoch_end %d %s" % (epoch, sorted(logs)))

    def on_train_end(self, logs=None):
      events.append("train_end")

    def on_predict_batch_end(self, batch, logs=None):
      events.append("predict_batch_end %d %s" % (batch, logs["outputs"][0].shape))

  recorder = Recorder()
  model = _line_model()
  model.fit(_X8, _Y8, batch_size=4, epochs=1, verbose=0, validation_data=(_X8, _Y8),
            callbacks=[recorder])
  assert events == [
      "set_model", "train_begin", "epoch_begin 0",
      "batch_end 0 ['batch', 'loss', 'size']", "batch_end 1 ['batch', 'loss', 'size']",
      "test_begin", "test_batch_end 0", "test_batch_end 1",
      "epoch_end 0 ['loss', 'val_loss']", "train_end"]
  assert recorder.params == {"batch_size": 4, "epochs": 1, "steps": 2, "samples": 8,
                             "verbose": 0, "do_validation": True,
                             "metrics": ["loss", "val_loss"]}
  assert recorder.model is model
  del events[:]
  model.predict(_X8, batch_size=5, callbacks=[recorder])
  assert events == ["set_model", "predict_batch_end 0 (5, 1)", "predict_batch_end 1 (3, 1)"]


def test_early_stopping_stops_early(capsys):
  model = _line_model()
  stopper = tf.keras.callbacks.EarlyStopping(monitor="loss", min_delta=10., patience=1,
                                             verbose=1)
  history = model.fit(_X8, _Y8, epochs=20, verbose=0, callbacks=[stopper])
  assert len(history.history["loss"]) == 2
  assert stopper.stopped_epoch == 1 and model.stop_training
  assert capsys.readouterr().out == "Epoch 00002: early stopping\n"


def test_early_stopping_restores_best_weights_and_baseline():
  model = _line_model()
  model.compile(tf.keras.optimizers.SGD(5.), "mse")  # diverges: the first epoch is best
  stopper = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2,
                                             restore_best_weights=True)
  after_first = []
  record = tf.keras.callbacks.LambdaCallback(
      on_epoch_end=lambda epoch, logs: after_first.extend(
          model.get_weights() if epoch == 0 else []))
  history = model.fit(_X8, _Y8, epochs=10, batch_size=8, verbose=0,
                      callbacks=[record, stopper])
  assert len(history.history["loss"]) == 3
  assert history.history["loss"][2] > history.history["loss"][0]
  for restored, best in zip(model.get_weights(), after_first):
    np.testing.assert_array_equal(restored, best)
  model.compile(tf.keras.optimizers.SGD(0.1), "mse")
  stopper = tf.keras.callbacks.EarlyStopping(monitor="loss", baseline=0.001, patience=3)
  assert len(model.fit(_X8, _Y8, epochs=10, verbose=0,
                       callbacks=[stopper]).history["loss"]) == 3


def test_learning_rate_scheduler_changes_lr(capsys):
  model = _line_model()
  schedule = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5, verbose=1)
  history = model.fit(_X8, _Y8, epochs=3, verbose=0, callbacks=[schedule])
  np.testing.assert_allclose(history.history["lr"], [0.05, 0.025, 0.0125], rtol=1e-6)
  assert history.history["lr"][0].dtype == np.float32
  np.testing.assert_allclose(tf.keras.backend.get_value(model.optimizer.lr), 0.0125,
                             rtol=1e-6)
  assert capsys.readouterr().out == (
      "\nEpoch 00001: LearningRateScheduler reducing learning rate to 0.05000000074505806.\n"
      "\nEpoch 00002: LearningRateScheduler reducing learning rate to 0.02500000037252903.\n"
      "\nEpoch 00003: LearningRateScheduler reducing learning rate to 0.012500000186264515."
      "\n")
  # The old one-argument schedule, and a tf.train optimizer's learning rate.
  model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
  schedule = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.0)
  before = model.get_weights()
  history = model.fit(_X8, _Y8, epochs=2, verbose=0, callbacks=[schedule])
  assert history.history["lr"] == [0., 0.]
  np.testing.assert_array_equal(model.get_weights()[0], before[0])
  with pytest.raises(ValueError, match="should be float"):
    model.fit(_X8, _Y8, verbose=0,
              callbacks=[tf.keras.callbacks.LearningRateScheduler(lambda epoch: "x")])


def test_reduce_lr_on_plateau():
  model = _line_model()
  model.compile(tf.keras.optimizers.SGD(0.), "mse")  # no progress: a plateau
  reducer = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                                 min_lr=0.)
  history = model.fit(_X8, _Y8, epochs=3, verbose=0, callbacks=[reducer])
  assert history.history["lr"] == [0., 0., 0.]
  model.compile(tf.keras.optimizers.SGD(1e-6), "mse")
  reducer = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                                 min_delta=1.)
  history = model.fit(_X8, _Y8, epochs=4, verbose=0, callbacks=[reducer])
  # logs["lr"] is read before the reduction of that epoch.
  np.testing.assert_allclose(history.history["lr"], [1e-6, 1e-6, 5e-7, 2.5e-7], rtol=1e-6)
  with pytest.raises(ValueError, match="factor >= 1.0"):
    tf.keras.callbacks.ReduceLROnPlateau(factor=2.)


def test_model_checkpoint_formats_path_and_saves_best(monkeypatch, capsys):
  model = _line_model()
  saved = []
  monkeypatch.setattr(model, "save_weights",
                      lambda path, overwrite=True: saved.append(path))
  checkpoint = tf.keras.callbacks.ModelCheckpoint(
      "ckpt/weights.{epoch:02d}-{loss:.2f}.h5", monitor="loss", save_weights_only=True)
  model.fit(_X8, _Y8, batch_size=4, epochs=2, shuffle=False, verbose=0,
            callbacks=[checkpoint])
  assert saved == ["ckpt/weights.01-3.14.h5", "ckpt/weights.02-1.09.h5"]
  del saved[:]
  model.compile(tf.keras.optimizers.SGD(5.), "mse")  # diverges after the first epoch
  checkpoint = tf.keras.callbacks.ModelCheckpoint("best.h5", monitor="loss",
                                                  save_best_only=True,
                                                  save_weights_only=True, verbose=1)
  model.fit(_X8, _Y8, epochs=2, batch_size=8, verbose=0, callbacks=[checkpoint])
  assert saved == ["best.h5"]
  out = capsys.readouterr().out
  assert out.startswith("\nEpoch 00001: loss improved from inf to ")
  assert "\nEpoch 00002: loss did not improve from " in out
  del saved[:]
  checkpoint = tf.keras.callbacks.ModelCheckpoint("w{epoch}", period=2,
                                                  save_weights_only=True)
  model.fit(_X8, _Y8, epochs=4, verbose=0, callbacks=[checkpoint])
  assert saved == ["w2", "w4"]


def test_model_checkpoint_saves_weights_that_load_back(tmp_path):
  model = _line_model()
  path = str(tmp_path / "weights.ckpt")
  checkpoint = tf.keras.callbacks.ModelCheckpoint(path, save_weights_only=True)
  model.fit(_X8, _Y8, epochs=1, verbose=0, callbacks=[checkpoint])
  trained = model.get_weights()
  model.set_weights([np.zeros_like(w) for w in trained])
  model.load_weights(path)
  for got, want in zip(model.get_weights(), trained):
    np.testing.assert_array_equal(got, want)


def test_csv_logger_lambda_and_terminate_on_nan(tmp_path, capsys):
  path = str(tmp_path / "log.csv")
  model = _line_model()
  model.fit(_X8, _Y8, batch_size=4, epochs=2, shuffle=False, verbose=0,
            callbacks=[tf.keras.callbacks.CSVLogger(path)])
  lines = open(path).read().splitlines()
  assert lines[0] == "epoch,loss"
  assert [line.split(",")[0] for line in lines[1:]] == ["0", "1"]
  np.testing.assert_allclose(float(lines[1].split(",")[1]), 3.141263, rtol=1e-5)

  epochs = []
  model.fit(_X8, _Y8, epochs=2, verbose=0, callbacks=[tf.keras.callbacks.LambdaCallback(
      on_epoch_end=lambda epoch, logs: epochs.append((epoch, sorted(logs))))])
  assert epochs == [(0, ["loss"]), (1, ["loss"])]

  model.compile(tf.keras.optimizers.SGD(1e30), "mse")
  history = model.fit(_X8 * 1e10, _Y8, batch_size=1, epochs=3, verbose=0,
                      callbacks=[tf.keras.callbacks.TerminateOnNaN()])
  assert len(history.history["loss"]) == 1
  assert "Invalid loss, terminating training" in capsys.readouterr().out


def test_tensorboard_callback_writes_epoch_logs(tmp_path):
  from tensorboard.backend.event_processing import event_accumulator  # pylint: disable=g-import-not-at-top
  model = _line_model()
  model.fit(_X8, _Y8, epochs=3, verbose=0,
            callbacks=[tf.keras.callbacks.TensorBoard(log_dir=str(tmp_path))])
  events = event_accumulator.EventAccumulator(str(tmp_path))
  events.Reload()
  losses = events.Scalars("epoch_loss")
  assert [e.step for e in losses] == [0, 1, 2]
  assert losses[-1].value < losses[0].value


def test_unavailable_callbacks_and_utils():
  with pytest.raises(NotImplementedError, match="network"):
    tf.keras.callbacks.RemoteMonitor()
  with pytest.raises(NotImplementedError, match="plot_model"):
    tf.keras.utils.plot_model(_line_model())


def test_callback_list_and_base_logger():
  logger = tf.keras.callbacks.BaseLogger(stateful_metrics=["acc"])
  logger.set_params({"metrics": ["loss", "acc"]})
  logger.on_epoch_begin(0)
  logger.on_batch_end(0, {"size": 2, "loss": 1., "acc": 0.5})
  logger.on_batch_end(1, {"size": 6, "loss": 3., "acc": 0.25})
  logs = {}
  logger.on_epoch_end(0, logs)
  assert logs == {"loss": 2.5, "acc": 0.25}


# ---- keras.utils ----
def test_to_categorical_and_normalize():
  one_hot = tf.keras.utils.to_categorical([0, 2, 1, 2])
  assert one_hot.dtype == np.float32
  np.testing.assert_array_equal(one_hot, [[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 1]])
  np.testing.assert_array_equal(tf.keras.utils.to_categorical([[1], [0]], num_classes=3),
                                [[0, 1, 0], [1, 0, 0]])
  np.testing.assert_allclose(tf.keras.utils.normalize(np.array([[3., 4.], [0., 0.]])),
                             [[0.6, 0.8], [0., 0.]])


def test_custom_objects_and_serialization():
  def my_activation(x):
    return x

  assert tf.keras.utils.get_custom_objects() == {}
  with tf.keras.utils.CustomObjectScope({"my_activation": my_activation}):
    assert tf.keras.utils.get_custom_objects() == {"my_activation": my_activation}
    assert tf.keras.utils.deserialize_keras_object("my_activation") is my_activation
  assert tf.keras.utils.get_custom_objects() == {}
  with tf.keras.utils.custom_object_scope({"f": my_activation}):
    assert "f" in tf.keras.utils.get_custom_objects()
  config = tf.keras.utils.serialize_keras_object(tf.keras.regularizers.l2(0.5))
  assert config["class_name"] == "L1L2"
  regularizer = tf.keras.utils.deserialize_keras_object(
      config, module_objects={"L1L2": tf.keras.regularizers.L1L2})
  np.testing.assert_allclose(regularizer.l2, 0.5)
  assert tf.keras.utils.serialize_keras_object(my_activation) == "my_activation"
  with pytest.raises(ValueError, match="Unknown object"):
    tf.keras.utils.deserialize_keras_object({"class_name": "Nope", "config": {}})


# ---- keras.preprocessing (goldens from tf_keras) ----
def test_pad_sequences():
  pad = tf.keras.preprocessing.sequence.pad_sequences
  seqs = [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10]]
  out = pad(seqs)
  assert out.dtype == np.int32
  np.testing.assert_array_equal(out, [[0, 0, 1, 2, 3], [0, 0, 0, 4, 5], [6, 7, 8, 9, 10]])
  np.testing.assert_array_equal(pad(seqs, maxlen=4), [[0, 1, 2, 3], [0, 0, 4, 5],
                                                      [7, 8, 9, 10]])
  np.testing.assert_array_equal(pad(seqs, maxlen=4, padding="post", truncating="post"),
                                [[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 8, 9]])
  out = pad(seqs, maxlen=4, value=-1, dtype="float32")
  assert out.dtype == np.float32
  np.testing.assert_array_equal(out, [[-1, 1, 2, 3], [-1, -1, 4, 5], [7, 8, 9, 10]])
  with pytest.raises(ValueError, match="Padding type"):
    pad(seqs, padding="middle")


def test_tokenizer():
  texts = ["The cat sat on the mat.", "The dog ate my homework!", "Cat and dog."]
  tokenizer = tf.keras.preprocessing.text.Tokenizer(num_words=5, oov_token="<OOV>")
  tokenizer.fit_on_texts(texts)
  assert tokenizer.word_index == {"<OOV>": 1, "the": 2, "cat": 3, "dog": 4, "sat": 5, "on": 6,
                                  "mat": 7, "ate": 8, "my": 9, "homework": 10, "and": 11}
  assert list(tokenizer.word_counts.items()) == [
      ("the", 3), ("cat", 2), ("sat", 1), ("on", 1), ("mat", 1), ("dog", 2), ("ate", 1),
      ("my", 1), ("homework", 1), ("and", 1)]
  assert tokenizer.texts_to_sequences(texts + ["unknown cat"]) == [
      [2, 3, 1, 1, 2, 1], [2, 4, 1, 1, 1], [3, 1, 4], [1, 3]]
  np.testing.assert_array_equal(tokenizer.texts_to_matrix(texts, mode="count"),
                                [[0, 3, 2, 1, 0], [0, 3, 1, 0, 1], [0, 1, 0, 1, 1]])
  plain = tf.keras.preprocessing.text.Tokenizer()
  plain.fit_on_texts(texts)
  assert plain.texts_to_sequences(["the dog sat"]) == [[1, 3, 4]]
  np.testing.assert_allclose(
      plain.texts_to_matrix(["the dog sat the"], mode="tfidf"),
      [[0., 1.1736, 0., 0.693147, 0.916291, 0., 0., 0., 0., 0., 0.]], atol=1e-6)
  assert plain.sequences_to_texts([[1, 5, 3]]) == ["the on dog"]
  restored = tf.keras.preprocessing.text.tokenizer_from_json(plain.to_json())
  assert restored.word_index == plain.word_index
  assert tf.keras.preprocessing.text.text_to_word_sequence(
      "Hello, World! It's a test.") == ["hello", "world", "it's", "a", "test"]
