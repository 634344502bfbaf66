"""Convolutional training steps against TensorFlow (issue 17's targets), in one run.

Run: python benchmarks/convnets.py
     TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/convnets.py   (adds TensorFlow)
The same TF 1.x eager code (this file, `import tensorflow`) runs on tfe_compat and, in a
subprocess of TFE_BENCH_TF_PYTHON (TF_USE_LEGACY_KERAS=1), on TensorFlow:
- CNN: seed 004's convolution blocks (Conv2D 32 5x5 SAME + MaxPool2D SAME, Conv2D 64 5x5 +
  MaxPool2D) then Dense(1024, relu) and Dense(10), as TensorFlow's mnist_eager example;
  batch 64 of 28x28 images, sparse softmax cross-entropy, tf.train.AdamOptimizer(1e-3),
  eager (GradientTape) and compiled (tf.function), with the same step hand-written in JAX.
- ResNet-50 (tf.keras.applications, weights=None) at batch 8 and 112x112, Momentum(0.1,
  0.9), compiled with tf.function.
Targets on the CPU: CNN eager <= 0.8x TensorFlow's eager step, compiled <= 0.7x TensorFlow's
tf.function step; ResNet-50 compiled <= 1.0x TensorFlow's tf.function step.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ON_TF = "--tensorflow" in sys.argv
if not ON_TF:
  import tfe_compat  # pylint: disable=g-import-not-at-top
  tfe_compat.install()
import tensorflow  # pylint: disable=g-import-not-at-top,wrong-import-position
from workloads import seconds_per_call  # pylint: disable=g-import-not-at-top

tf = tensorflow.compat.v1
TARGETS = {"CNN eager": 0.8, "CNN tf.function": 0.7, "ResNet-50 tf.function": 1.0}


def training_step(model, optimizer, images, labels):
  def step():
    with tf.GradientTape() as tape:
      loss = tf.losses.sparse_softmax_cross_entropy(labels, model(images, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
  return step


def cnn_model():
  layers = tf.keras.layers
  return tf.keras.Sequential([
      layers.Conv2D(32, 5, padding="same", activation="relu"),
      layers.MaxPool2D(padding="same"),
      layers.Conv2D(64, 5, padding="same", activation="relu"),
      layers.MaxPool2D(padding="same"),
      layers.Flatten(), layers.Dense(1024, activation="relu"), layers.Dense(10)])


def cnn_data():
  rng = np.random.default_rng(0)
  return (rng.random((64, 28, 28, 1), dtype=np.float32),
          rng.integers(0, 10, 64).astype(np.int32))


def measure_cnn():
  images, labels = cnn_data()
  eager = training_step(cnn_model(), tf.train.AdamOptimizer(1e-3), images, labels)
  compiled = tf.function(training_step(cnn_model(), tf.train.AdamOptimizer(1e-3), images,
                                       labels))
  return {"CNN eager": seconds_per_call(eager, budget=1.0),
          "CNN tf.function": seconds_per_call(compiled, budget=1.0)}


def measure_resnet():
  rng = np.random.default_rng(1)
  images = rng.random((8, 112, 112, 3), dtype=np.float32)
  labels = rng.integers(0, 1000, 8).astype(np.int32)
  model = tf.keras.applications.ResNet50(weights=None, input_shape=(112, 112, 3))
  step = tf.function(training_step(model, tf.train.MomentumOptimizer(0.1, 0.9), images,
                                   labels))
  return {"ResNet-50 tf.function": seconds_per_call(step, budget=2.0)}


def jax_cnn_step():
  """The CNN step hand-written in JAX (lax convolutions and pooling, optax Adam)."""
  import jax  # pylint: disable=g-import-not-at-top
  import jax.numpy as jnp
  import optax

  from cnn_case import conv_pool  # pylint: disable=g-import-not-at-top

  def loss_fn(p, x, labels):
    h = conv_pool(conv_pool(x, p[0], p[1], jax.nn.relu), p[2], p[3], jax.nn.relu)
    h = h.reshape(x.shape[0], -1)
    h = jax.nn.relu(h @ p[4] + p[5])
    return optax.softmax_cross_entropy_with_integer_labels(h @ p[6] + p[7], labels).mean()

  rng = np.random.default_rng(2)
  shapes = [(5, 5, 1, 32), (32,), (5, 5, 32, 64), (64,), (3136, 1024), (1024,), (1024, 10),
            (10,)]
  params = [jnp.asarray(rng.standard_normal(s).astype(np.float32) * 0.05) for s in shapes]
  optimizer = optax.adam(1e-3)
  state = [params, optimizer.init(params)]
  images, labels = cnn_data()

  @jax.jit
  def update(p, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, p)
    return optax.apply_updates(p, updates), opt_state, loss

  def step():
    state[0], state[1], loss = update(state[0], state[1], images, labels)
    return loss
  return step


def on_tensorflow(python):
  env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
  out = subprocess.run([python, os.path.abspath(__file__), "--tensorflow"], env=env,
                       check=True, stdout=subprocess.PIPE, text=True).stdout
  return json.loads(out.strip().splitlines()[-1])


def text(seconds):
  return "-" if seconds is None else "%.1f ms" % (seconds * 1e3)


def main():
  if ON_TF:
    print(json.dumps(dict(measure_cnn(), **measure_resnet())))
    return
  ours = dict(measure_cnn(), **measure_resnet())
  raw = {"CNN tf.function": seconds_per_call(jax_cnn_step(), budget=1.0)}
  python = os.environ.get("TFE_BENCH_TF_PYTHON")
  theirs = on_tensorflow(python) if python else {}
  import jax  # pylint: disable=g-import-not-at-top
  print("==== convolutional training steps on %s (%d CPU cores); all numbers from this run"
        % (jax.devices()[0].device_kind, os.cpu_count()))
  print("%-22s %12s %12s %12s %10s %8s" % ("step", "tfe_compat", "JAX by hand", "TensorFlow",
                                           "vs TF", "target"))
  for name, seconds in ours.items():
    ratio = "%.2fx" % (seconds / theirs[name]) if name in theirs else "-"
    print("%-22s %12s %12s %12s %10s %7.1fx" % (name, text(seconds), text(raw.get(name)),
                                                text(theirs.get(name)), ratio, TARGETS[name]))


if __name__ == "__main__":
  main()
