"""Per-call cost of `tf.contrib.summary.scalar`, recording and not recording.

Run: python benchmarks/summary.py   (prints one table; all numbers are from this run)
Targets (issue 5): <= 20 us per call when recording, <= 2 us when not recording.
"Recording" rows time the call itself, with the writer's flush thread running beside it
(default max_queue=10, so it wakes every 11 records); the "amortized" rows add the encoding
and the file writes (N calls then `flush()`, divided by N). tensorboardX's own
`SummaryWriter.add_scalar` (which converts and encodes in the call) is the reference.
"""
import shutil
import tempfile
import time

import jax
import numpy as np
import tensorboardX

import tfe_compat as tf

summary = tf.contrib.summary


def per_call(fn, number=20000, repeat=5):
  """Best-of-`repeat` seconds per call, after warm-up."""
  fn()
  best = float("inf")
  for _ in range(repeat):
    start = time.perf_counter()
    for _ in range(number):
      fn()
    best = min(best, (time.perf_counter() - start) / number)
  return best


def amortized(fn, writer, number=20000):
  """Seconds per call including the encoding and writing of every record (flush at the end)."""
  fn()
  writer.flush()
  start = time.perf_counter()
  for _ in range(number):
    fn()
  writer.flush()
  return (time.perf_counter() - start) / number


def main():
  logdir = tempfile.mkdtemp()
  try:
    global_step = tf.train.get_or_create_global_step()
    loss = tf.constant(0.25)
    writer = summary.create_file_writer(logdir)
    rows = []

    rows.append(("no default writer", per_call(lambda: summary.scalar("loss", loss))))
    with writer.as_default():
      with summary.never_record_summaries():
        rows.append(("never_record_summaries", per_call(lambda: summary.scalar("loss", loss))))
      global_step.assign(1)
      with summary.record_summaries_every_n_global_steps(100):
        rows.append(("every 100 steps, step 1", per_call(lambda: summary.scalar("loss", loss))))
        # A new step each call: time (step update + scalar) - (step update alone). Counted
        # updates (assign_add of an int, optimizers' global_step) are followed on the host;
        # after any other write the step is read from the device once (a read waits for
        # the computation that wrote it).
        step_and_summary = per_call(
            lambda: (global_step.assign_add(100 * 2**20), summary.scalar("loss", loss)))
        step_alone = per_call(lambda: global_step.assign_add(100 * 2**20 + 1))
        rows.append(("every 100 steps, step += k each call", step_and_summary - step_alone))
        steps = [tf.constant(100 * k + 1, tf.int64) for k in range(2)]
        step_and_summary = per_call(
            lambda: (global_step.assign(steps[0]), summary.scalar("loss", loss),
                     global_step.assign(steps[1]), summary.scalar("loss", loss)))
        step_alone = per_call(
            lambda: (global_step.assign(steps[0]), global_step.assign(steps[1])))
        rows.append(("every 100 steps, step assigned (read)", (step_and_summary - step_alone) / 2))
      print("%-44s %10s" % ("not recording (target <= 2 us)", "per call"))
      for name, seconds in rows:
        print("  %-42s %8.2fus" % (name, seconds * 1e6))

      rows = []
      with summary.always_record_summaries():
        rows.append(("always, Tensor, global step",
                     per_call(lambda: summary.scalar("loss", loss))))
        rows.append(("always, Python float, step=int",
                     per_call(lambda: summary.scalar("loss", 0.25, step=7))))
        rows.append(("always, NumPy float32 (seed 004)",
                     per_call(lambda: summary.scalar("acc", np.float32(0.5)))))
        with tf.name_scope("scope"):
          rows.append(("always, in a name scope, family",
                       per_call(lambda: summary.scalar("loss", loss, family="f"))))
      global_step.assign(100)
      with summary.record_summaries_every_n_global_steps(100):
        rows.append(("every 100 steps, step 100", per_call(lambda: summary.scalar("loss", loss))))
      with summary.always_record_summaries():
        rows.append(("amortized: + encode and write",
                     amortized(lambda: summary.scalar("loss", loss), writer)))
      reference = tensorboardX.SummaryWriter(tempfile.mkdtemp(dir=logdir))
      rows.append(("tensorboardX add_scalar (reference)",
                   per_call(lambda: reference.add_scalar("loss", loss.numpy(), 1), number=5000)))
      reference.close()
    print("%-44s %10s" % ("recording (target <= 20 us)", "per call"))
    for name, seconds in rows:
      print("  %-42s %8.2fus" % (name, seconds * 1e6))
    writer.close()
    print("device: %s" % jax.devices()[0])
  finally:
    shutil.rmtree(logdir, ignore_errors=True)


if __name__ == "__main__":
  main()
