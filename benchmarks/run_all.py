"""Runs every benchmark, then prints one table: each workload of workloads.py on tfe_compat
(eager, and compiled with tf.function), the same computation written by hand in JAX, and
the ratios; all numbers are from this run.

Run: python benchmarks/run_all.py [--table-only]
With TFE_BENCH_TF_PYTHON=/path/to/python (an interpreter with TensorFlow, and tf_keras for
Keras 2), the same TF1-style workloads also run on TensorFlow and the table gains its columns.
"""
import json
import os
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import optax

import tfe_compat

tfe_compat.install()
import workloads  # pylint: disable=g-import-not-at-top  (imports tensorflow: after install())
from cnn_case import conv_pool  # pylint: disable=g-import-not-at-top

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = ["op_overhead.py", "tape.py", "function.py", "layers.py",
           "optimizers.py", "data.py", "checkpoint.py", "summary.py",
           "string_hash.py", "value_checks.py", "graph.py", "convnets.py", "cold_start.py"]


# ---- the workloads written by hand in JAX ----
def jax_training_step(loss_fn, params, optimizer, batch):
  """A jitted `params, state -> params, state, loss` step, run with state kept here."""
  state = {"params": params, "opt": optimizer.init(params)}

  @jax.jit
  def update(params, opt_state, batch):
    loss, grads = jax.value_and_grad(loss_fn)(params, *batch)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss

  def step():
    state["params"], state["opt"], loss = update(state["params"], state["opt"], batch)
    return loss
  return step


def cross_entropy(logits, labels):
  return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


def dense(key, n_in, n_out):
  limit = np.sqrt(6. / (n_in + n_out))
  return {"w": jax.random.uniform(key, (n_in, n_out), jnp.float32, -limit, limit),
          "b": jnp.zeros(n_out, jnp.float32)}


def jax_linear_regression():
  rng = np.random.default_rng(1)
  x = rng.standard_normal((1000, 1)).astype(np.float32)
  y = 3. * x + 2. + 0.1 * rng.standard_normal((1000, 1)).astype(np.float32)
  loss = lambda p, x, y: jnp.mean(jnp.square(x * p["w"] + p["b"] - y))
  return jax_training_step(loss, {"w": jnp.float32(5.), "b": jnp.float32(10.)},
                           optax.sgd(0.1), (x, y))


def jax_mlp():
  rng = np.random.default_rng(2)
  k1, k2 = jax.random.split(jax.random.PRNGKey(0))
  params = [dense(k1, 784, 256), dense(k2, 256, 10)]

  def loss(p, x, labels):
    h = jax.nn.relu(x @ p[0]["w"] + p[0]["b"])
    return cross_entropy(h @ p[1]["w"] + p[1]["b"], labels)
  return jax_training_step(loss, params, optax.adam(1e-3),
                           (rng.standard_normal((64, 784)).astype(np.float32),
                            rng.integers(0, 10, 64)))


def jax_cnn():
  rng = np.random.default_rng(3)
  keys = jax.random.split(jax.random.PRNGKey(0), 4)
  params = {"c1": jax.random.normal(keys[0], (5, 5, 1, 32), jnp.float32) * 0.1,
            "c2": jax.random.normal(keys[1], (5, 5, 32, 64), jnp.float32) * 0.03,
            "b1": jnp.zeros(32, jnp.float32), "b2": jnp.zeros(64, jnp.float32),
            "d1": dense(keys[2], 7 * 7 * 64, 128), "d2": dense(keys[3], 128, 10)}

  def block(x, w, b):
    return conv_pool(x, w, b, jax.nn.relu, "VALID")

  def loss(p, x, labels):
    h = block(block(x, p["c1"], p["b1"]), p["c2"], p["b2"]).reshape(x.shape[0], -1)
    h = jax.nn.relu(h @ p["d1"]["w"] + p["d1"]["b"])
    return cross_entropy(h @ p["d2"]["w"] + p["d2"]["b"], labels)
  return jax_training_step(loss, params, optax.adam(1e-3),
                           (rng.standard_normal((32, 28, 28, 1)).astype(np.float32),
                            rng.integers(0, 10, 32)))


def jax_lstm():
  rng = np.random.default_rng(4)
  keys = jax.random.split(jax.random.PRNGKey(0), 3)
  params = {"kernel": jax.random.normal(keys[0], (32, 256), jnp.float32) * 0.1,
            "recurrent": jax.random.normal(keys[1], (64, 256), jnp.float32) * 0.1,
            "bias": jnp.zeros(256, jnp.float32), "out": dense(keys[2], 64, 10)}

  def loss(p, x, labels):
    def cell(carry, x_t):
      h, c = carry
      i, f, g, o = jnp.split(x_t @ p["kernel"] + h @ p["recurrent"] + p["bias"], 4, axis=-1)
      c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
      h = jax.nn.sigmoid(o) * jnp.tanh(c)
      return (h, c), None
    zeros = jnp.zeros((x.shape[0], 64), jnp.float32)
    (h, _), _ = jax.lax.scan(cell, (zeros, zeros), jnp.swapaxes(x, 0, 1))
    return cross_entropy(h @ p["out"]["w"] + p["out"]["b"], labels)
  return jax_training_step(loss, params, optax.adam(1e-3),
                           (rng.standard_normal((32, 20, 32)).astype(np.float32),
                            rng.integers(0, 10, 32)))


def jax_data_epoch():
  """NumPy index batching of a shuffled epoch, each batch moved to the device."""
  rng = np.random.default_rng(5)
  images = rng.random((60000, 784), dtype=np.float32)
  labels = rng.integers(0, 10, 60000)

  def step():
    order = rng.permutation(60000)
    batch = None
    for start in range(0, 60000, 32):
      index = order[start:start + 32]
      batch = jax.device_put(images[index]), jax.device_put(labels[index])
    return batch[0]
  return step


def jax_op(fn, *args):
  compiled = jax.jit(fn)
  return lambda: compiled(*args)


JAX = {
    "op: tf.add, scalars": lambda: jax_op(jnp.add, jnp.float32(1.), jnp.float32(2.)),
    "op: tf.matmul, 1000x1000": lambda: jax_op(
        lambda m: m @ m, jnp.asarray(np.random.default_rng(0).standard_normal(
            (1000, 1000)).astype(np.float32))),
    "linear regression step (SGD)": jax_linear_regression,
    "MLP 784-256-10 step (Adam, batch 64)": jax_mlp,
    "CNN 2 conv + 2 dense step (batch 32)": jax_cnn,
    "LSTM(64) step (20 steps, batch 32)": jax_lstm,
    "tf.data epoch: 60000x784 shuffle, batch 32": jax_data_epoch,
}


def on_tensorflow(python):
  """{workload: [eager s, tf.function s or None]} measured by `python` with TensorFlow."""
  env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
  out = subprocess.run([python, os.path.join(HERE, "workloads.py")], env=env, check=True,
                       stdout=subprocess.PIPE, text=True).stdout
  return json.loads(out.strip().splitlines()[-1])


def text(seconds):
  if seconds is None:
    return "-"
  return "%.1f us" % (seconds * 1e6) if seconds < 1e-3 else "%.2f ms" % (seconds * 1e3) \
      if seconds < 1 else "%.2f s" % seconds


def ratio(a, b):
  return "-" if a is None or b is None else "%.2fx" % (a / b)


def main():
  if "--table-only" not in sys.argv:
    for script in SCRIPTS:
      print("==== benchmarks/%s" % script, flush=True)
      subprocess.run([sys.executable, os.path.join(HERE, script)], check=True)
  tf_python = os.environ.get("TFE_BENCH_TF_PYTHON")
  tf_times = on_tensorflow(tf_python) if tf_python else {}
  header = ["workload", "eager", "tf.function", "JAX", "eager/JAX", "function/JAX"]
  if tf_times:
    header += ["TF eager", "TF function", "TF/eager"]
  rows = []
  for name, build in workloads.WORKLOADS.items():
    eager, compiled = workloads.measure(build)
    raw = workloads.seconds_per_call(JAX[name]())
    row = [name, text(eager), text(compiled), text(raw), ratio(eager, raw), ratio(compiled, raw)]
    if tf_times:
      tf_eager, tf_compiled = tf_times[name]
      row += [text(tf_eager), text(tf_compiled), ratio(tf_eager, eager)]
    rows.append(row)
  print("\n==== tfe_compat %s on %s (%d CPU cores); all numbers from this run" % (
      "eager / tf.function / hand-written JAX", jax.devices()[0].device_kind, os.cpu_count()))
  widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
  for r in [header, ["-" * w for w in widths]] + rows:
    print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")


if __name__ == "__main__":
  main()
