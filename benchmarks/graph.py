"""TF 1.x graph programs (`sess.run(train_op, feed_dict)`) against the hand-written jitted step.

Run: python benchmarks/graph.py   (prints one table; ratios are measured in this run)
With TFE_BENCH_TF_PYTHON=/path/to/python (an interpreter with TensorFlow), the same graph
programs also run on TensorFlow's own `compat.v1` Session and the table gains its column.
Targets (issue 14): per step <= 1.5x the jitted JAX step (linear regression), <= 1.2x (MLP,
CNN); at least 2x faster than TensorFlow's Session; building the ResNet-50 training graph
no slower than TensorFlow.

The programs are written once against `tensorflow.compat.v1`; `python graph.py --tf` runs
them on whatever `tensorflow` imports (real TensorFlow there) and prints JSON.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ON_TF = "--tf" in sys.argv
if not ON_TF:
  import tfe_compat
  tfe_compat.install()
import tensorflow  # pylint: disable=g-import-not-at-top

tf = tensorflow.compat.v1
tf.disable_eager_execution()


def seconds_per_call(step, budget=0.5, rounds=3):
  for _ in range(3):
    step()
  start, calls = time.perf_counter(), 0
  while time.perf_counter() - start < budget / 4:
    step()
    calls += 1
  number = max(1, int(calls * 4 * budget / rounds / (time.perf_counter() - start)))
  best = float("inf")
  for _ in range(rounds):
    start = time.perf_counter()
    for _ in range(number):
      step()
    best = min(best, (time.perf_counter() - start) / number)
  return best


# ---- the graph programs ----
def linear_regression():
  rng = np.random.default_rng(1)
  xs = rng.standard_normal((1000, 1)).astype(np.float32)
  ys = 3. * xs + 2. + 0.1 * rng.standard_normal((1000, 1)).astype(np.float32)
  x = tf.placeholder(tf.float32, [None, 1])
  y = tf.placeholder(tf.float32, [None, 1])
  w, b = tf.Variable(5.), tf.Variable(10.)
  loss = tf.reduce_mean(tf.square(x * w + b - y))
  train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
  return train, {x: xs, y: ys}


def mlp():
  rng = np.random.default_rng(2)
  images = rng.random((32, 784), dtype=np.float32)
  labels = rng.integers(0, 10, 32).astype(np.int32)
  x = tf.placeholder(tf.float32, [None, 784])
  y = tf.placeholder(tf.int32, [None])
  hidden = tf.layers.dense(x, 64, activation=tf.nn.relu)
  logits = tf.layers.dense(hidden, 10)
  loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
  train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
  return train, {x: images, y: labels}


def cnn():
  """The seed 004 CNN+LSTM (benchmarks/cnn_case.py) as a graph program, Adam(1e-3)."""
  sys.path.insert(0, HERE)
  from seed_model import seed_model_class  # pylint: disable=g-import-not-at-top
  rng = np.random.default_rng(0)
  images = rng.random((32, 784), dtype=np.float32)
  labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)]
  model = seed_model_class(tensorflow)(hidden_units=64, n_cls=10)
  x = tf.placeholder(tf.float32, [None, 784])
  y = tf.placeholder(tf.float32, [None, 10])
  loss = tf.losses.softmax_cross_entropy(onehot_labels=y, logits=model(x))
  train = tf.train.AdamOptimizer(1e-3).minimize(loss)
  return train, {x: images, y: labels}


PROGRAMS = {"linear regression (seed), SGD": linear_regression,
            "MLP 784-64-10, SGD, batch 32": mlp,
            "seed 004 CNN+LSTM, Adam, batch 32": cnn}


def run_program(build):
  """Seconds per `sess.run(train_op, feed_dict)` step of one program in a fresh graph."""
  with tf.Graph().as_default():
    train, feed = build()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      return seconds_per_call(lambda: sess.run(train, feed))


def resnet50_build_seconds():
  """Seconds to build the ResNet-50 training graph (Keras application, Momentum)."""
  with tf.Graph().as_default():
    start = time.perf_counter()
    images = tf.placeholder(tf.float32, [None, 224, 224, 3])
    labels = tf.placeholder(tf.int32, [None])
    model = tf.keras.applications.ResNet50(weights=None)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, model(images))
    tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    return time.perf_counter() - start


# ---- the hand-written JAX steps ----
def jax_steps():
  import jax  # pylint: disable=g-import-not-at-top
  import jax.numpy as jnp
  sys.path.insert(0, HERE)
  import cnn_case  # pylint: disable=g-import-not-at-top

  rng = np.random.default_rng(1)
  xs = rng.standard_normal((1000, 1)).astype(np.float32)
  ys = 3. * xs + 2. + 0.1 * rng.standard_normal((1000, 1)).astype(np.float32)

  @jax.jit
  def linear(p, x, y):
    grads = jax.grad(lambda p: jnp.mean(jnp.square(x * p[0] + p[1] - y)))(p)
    return [v - 0.1 * g for v, g in zip(p, grads)]
  linear_state = [[jnp.float32(5.), jnp.float32(10.)]]

  def linear_step():
    linear_state[0] = linear(linear_state[0], xs, ys)
    jax.block_until_ready(linear_state[0])

  rng = np.random.default_rng(2)
  images = rng.random((32, 784), dtype=np.float32)
  labels = rng.integers(0, 10, 32).astype(np.int32)
  keys = jax.random.split(jax.random.PRNGKey(0), 2)
  mlp_state = [[jax.random.uniform(keys[0], (784, 64)) * 0.1, jnp.zeros(64),
                jax.random.uniform(keys[1], (64, 10)) * 0.1, jnp.zeros(10)]]

  def mlp_loss(p, x, y):
    logits = jax.nn.relu(x @ p[0] + p[1]) @ p[2] + p[3]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))

  @jax.jit
  def mlp_update(p, x, y):
    return [v - 0.1 * g for v, g in zip(p, jax.grad(mlp_loss)(p, x, y))]

  def mlp_step():
    mlp_state[0] = mlp_update(mlp_state[0], images, labels)
    jax.block_until_ready(mlp_state[0])

  from tfe_compat.framework import modes  # pylint: disable=g-import-not-at-top
  with modes.eager_mode():  # the JAX side starts from the seed model's eager weights
    case = cnn_case.CnnStep()
  x, y = np.asarray(case.jx), np.asarray(case.jy)
  cnn_state = [case.state]

  def cnn_step():
    cnn_state[0], _ = cnn_case.jax_step(cnn_state[0], x, y)
    jax.block_until_ready(cnn_state[0])
  return dict(zip(PROGRAMS, [linear_step, mlp_step, cnn_step]))


def on_tensorflow(python):
  env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
  out = subprocess.run([python, os.path.abspath(__file__), "--tf"], env=env, check=True,
                       stdout=subprocess.PIPE, text=True).stdout
  return json.loads(out.strip().splitlines()[-1])


def text(seconds):
  return "-" if seconds is None else "%.1f us" % (seconds * 1e6) if seconds < 1e-3 else \
      "%.2f ms" % (seconds * 1e3) if seconds < 1 else "%.2f s" % seconds


def main():
  if ON_TF:
    times = {name: run_program(build) for name, build in PROGRAMS.items()}
    times["build"] = resnet50_build_seconds()
    print(json.dumps(times))
    return
  tf_python = os.environ.get("TFE_BENCH_TF_PYTHON")
  theirs = on_tensorflow(tf_python) if tf_python else {}
  raw = jax_steps()
  header = ["graph program (sess.run step)", "tfe_compat", "JAX jit", "vs JAX"]
  header += ["TensorFlow", "TF / tfe_compat"] if theirs else []
  rows = []
  for name, build in PROGRAMS.items():
    ours, jax_time = run_program(build), seconds_per_call(raw[name])
    row = [name, text(ours), text(jax_time), "%.2fx" % (ours / jax_time)]
    if theirs:
      row += [text(theirs[name]), "%.2fx" % (theirs[name] / ours)]
    rows.append(row)
  build = resnet50_build_seconds()
  row = ["build the ResNet-50 training graph", text(build), "-", "-"]
  if theirs:
    row += [text(theirs["build"]), "%.2fx" % (theirs["build"] / build)]
  rows.append(row)
  widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
  for r in [header, ["-" * w for w in widths]] + rows:
    print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")


if __name__ == "__main__":
  main()
