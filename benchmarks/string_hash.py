"""Seconds per 100k strings of the string hash ops (`tf.strings.to_hash_bucket*`,
`tf.fingerprint`), on short strings (7-40 bytes, like vocabulary tokens) and long ones
(1000 bytes).

Run: python benchmarks/string_hash.py   (prints one table from this run)
Before FarmHash and SipHash came from C packages (cityhash, siphashc) and the legacy Hash64
was vectorised with NumPy, the pure-Python versions took (2-core development machine, short /
long): to_hash_bucket_fast 0.182 s / 4.61 s, to_hash_bucket 0.145 s / 3.38 s,
to_hash_bucket_strong 1.19 s / 26.5 s, fingerprint 0.198 s / 4.80 s. After, on the same
machine: 0.017 / 0.028, 0.038 / 0.162, 0.020 / 0.057, 0.025 / 0.030.
"""
import time

import numpy as np

import tfe_compat as tf


def seconds(fn, repeat=3):
  """Best-of-`repeat` seconds of one call, after a warm-up call."""
  fn()
  best = float("inf")
  for _ in range(repeat):
    start = time.perf_counter()
    fn()
    best = min(best, time.perf_counter() - start)
  return best


def main():
  rng = np.random.default_rng(0)
  short = np.array([("token_%d_%s" % (i, "x" * int(rng.integers(0, 24)))).encode()
                    for i in range(100000)], dtype=object)
  long = np.array([rng.integers(0, 256, 1000, dtype=np.uint8).tobytes() for _ in range(10000)],
                  dtype=object)
  print("%-34s %12s %12s" % ("seconds per 100k strings", "7-40 bytes", "1000 bytes"))
  for name, fn in [
      ("to_hash_bucket_fast (FarmHash)", lambda t: tf.strings.to_hash_bucket_fast(t, 1000)),
      ("to_hash_bucket (legacy Hash64)", lambda t: tf.strings.to_hash_bucket(t, 1000)),
      ("to_hash_bucket_strong (SipHash)",
       lambda t: tf.strings.to_hash_bucket_strong(t, 1000, [1, 2])),
      ("fingerprint (FarmHash)", lambda t: tf.fingerprint(t))]:
    times = [seconds(lambda: fn(tf.constant(short))),
             seconds(lambda: fn(tf.constant(long))) * len(short) / len(long)]
    print("  %-32s %11.3fs %11.3fs" % (name, times[0], times[1]))


if __name__ == "__main__":
  main()
