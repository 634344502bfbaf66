"""The cost of TF's value checks in compiled steps (tfe_compat/ops/value_checks.py).

Run: python benchmarks/value_checks.py   (ratios measured in this run, checks on vs off)
Target (issue 16): <= 5% on the MLP step, whose sparse softmax cross-entropy checks its
labels. The tf.function step fetches its loss each call, as a training loop that logs it
does; without any fetch a checked step also waits for its flags (the check is synchronous,
as TF's kernels are), which is measured too.
"""
import time

import numpy as np

import tfe_compat as tf
from tfe_compat.ops import value_checks


def best_of_interleaved(steps, calls=1000, rounds=6):
  """{key: best seconds per call}, the steps' rounds interleaved (the machine's drift and
  noise hit every variant alike)."""
  for step in steps.values():
    for _ in range(50):
      step()
  times = {key: [] for key in steps}
  for _ in range(rounds):
    for key, step in steps.items():
      start = time.perf_counter()
      for _ in range(calls):
        step()
      times[key].append((time.perf_counter() - start) / calls)
  return {key: min(t) for key, t in times.items()}


def mlp_steps():
  rng = np.random.default_rng(2)
  x = tf.constant(rng.random((32, 784), dtype=np.float32))
  y = tf.constant(rng.integers(0, 10, 32).astype(np.int32))
  w1 = tf.Variable(tf.random.normal([784, 64]) * 0.1)
  w2 = tf.Variable(tf.random.normal([64, 10]) * 0.1)
  optimizer = tf.train.GradientDescentOptimizer(0.1)

  @tf.function
  def step(x, y):
    with tf.GradientTape() as tape:
      logits = tf.nn.relu(x @ w1) @ w2
      loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                           logits=logits))
    optimizer.apply_gradients(zip(tape.gradient(loss, [w1, w2]), [w1, w2]))
    return loss
  return (lambda: step(x, y).numpy()), (lambda: step(x, y))


def graph_step():
  graph = tf.Graph()
  with graph.as_default():
    rng = np.random.default_rng(2)
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.int32, [None])
    logits = tf.layers.dense(tf.layers.dense(x, 64, activation=tf.nn.relu), 10)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    feed = {x: rng.random((32, 784), dtype=np.float32), y: rng.integers(0, 10, 32)}
  return lambda: sess.run(train, feed)


def main():
  rows = []
  for name, build in (("tf.function MLP step, loss fetched", lambda: mlp_steps()[0]),
                      ("tf.function MLP step, nothing fetched", lambda: mlp_steps()[1]),
                      ("graph MLP step (Session.run)", graph_step)):
    steps = {}
    for enabled in (True, False):  # each variant traced with the checks on or off
      value_checks.ENABLED = enabled
      steps[enabled] = build()
    times = best_of_interleaved(steps)
    rows.append((name, times[True], times[False]))
  value_checks.ENABLED = True
  print("%-40s %10s %10s %7s" % ("", "checks on", "off", "ratio"))
  for name, on, off in rows:
    print("%-40s %8.1fus %8.1fus %6.3fx" % (name, on * 1e6, off * 1e6, on / off))


if __name__ == "__main__":
  main()
