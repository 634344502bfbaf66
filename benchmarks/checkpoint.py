"""Save and restore of a ~100 MB model with tf.train.Checkpoint against numpy.save/np.load,
and restoring a 200 MB checkpoint in TensorFlow's format.

Run: python benchmarks/checkpoint.py   (prints two tables; ratios are measured in this run)
Targets: save and restore <= 2x numpy.save / np.load of the same arrays (issue 5); restoring
a 200 MB TF-format checkpoint <= 1.5x np.load of one .npy per variable, peak memory (NumPy
allocations, tracemalloc) <= 1.5x the checkpoint's size (issue 15).

The model is 25 float32 variables of 1M elements. "restore" assigns the values to the
existing variables; it is compared with np.load alone and with np.load + assign. For reference, the last row saves the same
arrays with orbax's defaults (OCDBT, zstd compression, fsync of every file), which
checkpoint_io.py turns off: on a 2-core machine the fsyncs alone cost ~5x numpy.save.
"""
import os
import shutil
import tempfile
import time
import tracemalloc

import numpy as np

import tfe_compat as tf

N_VARIABLES, SIZE = 25, 1_000_000


def best_of(fn, repeat=7):
  fn()
  best = float("inf")
  for _ in range(repeat):
    start = time.perf_counter()
    fn()
    best = min(best, time.perf_counter() - start)
  return best


def main():
  rng = np.random.default_rng(0)
  arrays = [rng.standard_normal(SIZE).astype(np.float32) for _ in range(N_VARIABLES)]
  variables = {"v%02d" % i: tf.Variable(a) for i, a in enumerate(arrays)}
  ckpt = tf.train.Checkpoint(**variables)
  root = tempfile.mkdtemp()
  npy_dir, prefix = os.path.join(root, "npy"), os.path.join(root, "ckpt", "model")
  os.makedirs(npy_dir)

  def np_save():
    for i, a in enumerate(arrays):
      np.save(os.path.join(npy_dir, "%02d.npy" % i), a)

  def np_load():
    return [np.load(os.path.join(npy_dir, "%02d.npy" % i)) for i in range(N_VARIABLES)]

  def np_load_assign():
    for variable, value in zip(variables.values(), np_load()):
      variable.assign(value)

  def orbax_defaults():
    import orbax.checkpoint as ocp  # pylint: disable=import-outside-toplevel
    path = os.path.join(root, "orbax_default")
    shutil.rmtree(path, ignore_errors=True)
    ocp.PyTreeCheckpointer().save(path, arrays)

  try:
    mb = N_VARIABLES * SIZE * 4 / 1e6
    t_np_save, t_np_load = best_of(np_save), best_of(np_load)
    t_save = best_of(lambda: ckpt.write(prefix))
    t_restore = best_of(lambda: ckpt.restore(prefix))
    t_np_assign = best_of(np_load_assign)
    t_default = best_of(orbax_defaults, repeat=2)
    print("%.0f MB in %d float32 variables" % (mb, N_VARIABLES))
    print("%-34s %10s %10s %8s" % ("", "tfe_compat", "numpy", "ratio"))
    print("%-34s %8.1fms %8.1fms %7.2fx" % ("save (Checkpoint.write)", t_save * 1e3,
                                          t_np_save * 1e3, t_save / t_np_save))
    print("%-34s %8.1fms %8.1fms %7.2fx" % ("restore (Checkpoint.restore)", t_restore * 1e3,
                                          t_np_load * 1e3, t_restore / t_np_load))
    print("%-34s %8.1fms %8.1fms %7.2fx" % ("restore vs np.load + assign", t_restore * 1e3,
                                          t_np_assign * 1e3, t_restore / t_np_assign))
    print("%-34s %8.1fms %8.1fms %7.2fx" % ("orbax defaults save (reference)", t_default * 1e3,
                                          t_np_save * 1e3, t_default / t_np_save))
  finally:
    shutil.rmtree(root, ignore_errors=True)


def tf_format(n_variables=50):
  """Restore of a TF-format checkpoint (written with TFE_CHECKPOINT_FORMAT=tf) against
  np.load of the same arrays, and the restore's peak NumPy memory."""
  rng = np.random.default_rng(1)
  arrays = [rng.standard_normal(SIZE).astype(np.float32) for _ in range(n_variables)]
  variables = {"v%02d" % i: tf.Variable(a) for i, a in enumerate(arrays)}
  ckpt = tf.train.Checkpoint(**variables)
  root = tempfile.mkdtemp()
  try:
    npy_dir, prefix = os.path.join(root, "npy"), os.path.join(root, "tf", "model")
    os.makedirs(npy_dir)
    for i, a in enumerate(arrays):
      np.save(os.path.join(npy_dir, "%02d.npy" % i), a)
    os.environ["TFE_CHECKPOINT_FORMAT"] = "tf"
    try:
      ckpt.write(prefix)
    finally:
      del os.environ["TFE_CHECKPOINT_FORMAT"]
    size = sum(a.nbytes for a in arrays)
    t_np = best_of(lambda: [np.load(os.path.join(npy_dir, "%02d.npy" % i))
                            for i in range(n_variables)])
    t_restore = best_of(lambda: ckpt.restore(prefix))
    tracemalloc.start()
    ckpt.restore(prefix)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print("\n%.0f MB TF-format checkpoint, %d float32 variables" % (size / 1e6, n_variables))
    print("%-34s %8.1fms %8.1fms %7.2fx" % ("restore (TF format) vs np.load", t_restore * 1e3,
                                          t_np * 1e3, t_restore / t_np))
    print("%-34s %8.0fMB %8.0fMB %7.2fx" % ("peak NumPy memory vs its size", peak / 1e6,
                                          size / 1e6, peak / size))
  finally:
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
  main()
  tf_format()
