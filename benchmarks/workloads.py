"""The workloads of benchmarks/run_all.py, written once in TensorFlow 1.x eager style.

`WORKLOADS` maps a name to a builder returning `(step, compile)`: `step()` runs one op call,
training step or epoch eagerly and returns something to wait on; `compile` says whether the
same step under `tf.function` is a meaningful second column. run_all.py runs them on
tfe_compat; `python workloads.py` under an interpreter with TensorFlow runs them on
TensorFlow (TF_USE_LEGACY_KERAS=1 for Keras 2) and prints the timings as JSON.
"""
import json
import time

import numpy as np
import tensorflow

tf = tensorflow.compat.v1
tf.enable_eager_execution()


def add_scalars():
  a, b = tf.constant(1.), tf.constant(2.)
  return (lambda: tf.add(a, b)), False


def matmul_1000():
  m = tf.constant(np.random.default_rng(0).standard_normal((1000, 1000)).astype(np.float32))
  return (lambda: tf.matmul(m, m)), False


def linear_regression():
  rng = np.random.default_rng(1)
  x = rng.standard_normal((1000, 1)).astype(np.float32)
  y = 3. * x + 2. + 0.1 * rng.standard_normal((1000, 1)).astype(np.float32)
  w, b = tf.Variable(5.), tf.Variable(10.)
  optimizer = tf.train.GradientDescentOptimizer(0.1)

  def step():
    with tf.GradientTape() as tape:
      loss = tf.reduce_mean(tf.square(x * w + b - y))
    optimizer.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    return loss
  return step, True


def keras_step(model, images, labels):
  optimizer = tf.train.AdamOptimizer(1e-3)
  model(images[:1])

  def step():
    with tf.GradientTape() as tape:
      logits = model(images, training=True)
      loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
  return step, True


def mlp():
  rng = np.random.default_rng(2)
  model = tf.keras.Sequential([tf.keras.layers.Dense(256, activation="relu"),
                               tf.keras.layers.Dense(10)])
  return keras_step(model, rng.standard_normal((64, 784)).astype(np.float32),
                    rng.integers(0, 10, 64))


def cnn():
  rng = np.random.default_rng(3)
  layers = tf.keras.layers
  model = tf.keras.Sequential([
      layers.Conv2D(32, 5, padding="same", activation="relu"), layers.MaxPooling2D(2),
      layers.Conv2D(64, 5, padding="same", activation="relu"), layers.MaxPooling2D(2),
      layers.Flatten(), layers.Dense(128, activation="relu"), layers.Dense(10)])
  return keras_step(model, rng.standard_normal((32, 28, 28, 1)).astype(np.float32),
                    rng.integers(0, 10, 32))


def lstm():
  rng = np.random.default_rng(4)
  model = tf.keras.Sequential([tf.keras.layers.LSTM(64), tf.keras.layers.Dense(10)])
  return keras_step(model, rng.standard_normal((32, 20, 32)).astype(np.float32),
                    rng.integers(0, 10, 32))


def data_epoch():
  rng = np.random.default_rng(5)
  images = rng.random((60000, 784), dtype=np.float32)
  labels = rng.integers(0, 10, 60000)
  dataset = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(60000).batch(32)

  def step():
    last = None
    for last, _ in dataset:
      pass
    return last
  return step, False


WORKLOADS = {
    "op: tf.add, scalars": add_scalars,
    "op: tf.matmul, 1000x1000": matmul_1000,
    "linear regression step (SGD)": linear_regression,
    "MLP 784-256-10 step (Adam, batch 64)": mlp,
    "CNN 2 conv + 2 dense step (batch 32)": cnn,
    "LSTM(64) step (20 steps, batch 32)": lstm,
    "tf.data epoch: 60000x784 shuffle, batch 32": data_epoch,
}


def wait(result):
  """Blocks until `result` (a Tensor, array or None) is computed."""
  if result is not None:
    np.asarray(result.numpy() if hasattr(result, "numpy") else result)


def seconds_per_call(step, budget=0.4, rounds=3):
  """Best-of-`rounds` seconds per call, each round about `budget` seconds, after warm-up."""
  for _ in range(3):
    wait(step())
  start, calls = time.perf_counter(), 0
  while time.perf_counter() - start < budget / 4 or calls < 1:
    result, calls = step(), calls + 1
  wait(result)
  number = max(1, int(calls * 4 * budget / rounds / (time.perf_counter() - start)))
  best = float("inf")
  for _ in range(rounds):
    start = time.perf_counter()
    for _ in range(number):
      result = step()
    wait(result)
    best = min(best, (time.perf_counter() - start) / number)
  return best


def measure(build):
  """(eager seconds per call, tf.function seconds per call or None) of one workload."""
  step, compile_it = build()
  eager = seconds_per_call(step)
  return eager, seconds_per_call(tf.function(step)) if compile_it else None


if __name__ == "__main__":
  print(json.dumps({name: measure(build) for name, build in WORKLOADS.items()}))
