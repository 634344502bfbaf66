"""Resident memory while eager ops meet many input shapes or attribute values.

Run: python benchmarks/memory.py [N]   (default N = 3000; each workload in a fresh process)
Target (issue 16): RSS after N distinct shapes of a 5-op step, and after N distinct
`leaky_relu` alphas, stays under 1 GB and flat once the program caches fill (each program
costs ~1.4 MB on the CPU; TFE_PROGRAM_CACHE_SIZE, default 384, bounds how many are kept, see
tfe_compat/framework/program_cache.py; float attributes are traced, so a new alpha compiles
nothing). Prints RSS and peak RSS every N/6 steps, then one verdict line per workload.
"""
import subprocess
import sys

WORKLOAD = r"""
import os, sys, time
import tfe_compat as tf

def rss():
  return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def peak():
  line = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
  return int(line.split()[1]) * 1024 / 1e6

which, n = sys.argv[1], int(sys.argv[2])
start = time.time()
for i in range(1, n + 1):
  if which == "shapes":
    y = tf.nn.relu(tf.ones([i + 1, 3]) * 2.0 + 1.0)
    value = tf.reduce_sum(tf.exp(-y)).numpy()
  else:
    value = tf.nn.leaky_relu(tf.ones([4]), alpha=0.001 * i).numpy()
  if i % max(1, n // 6) == 0 or i == n:
    print("%d %.0f %.0f %.2f" % (i, rss(), peak(), (time.time() - start) / i * 1e3), flush=True)
"""


def main():
  n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
  print("%-28s %8s %10s %10s %12s" % ("workload", "steps", "RSS (MB)", "peak (MB)",
                                       "ms per step"))
  verdicts = []
  for which, label in (("shapes", "distinct shapes, 5-op step"),
                       ("alphas", "distinct leaky_relu alphas")):
    out = subprocess.run([sys.executable, "-c", WORKLOAD, which, str(n)], check=True,
                         capture_output=True, text=True).stdout
    rows = [line.split() for line in out.split("\n") if line.strip()]
    for steps, rss, peak, per_step in rows:
      print("%-28s %8s %10s %10s %12s" % (label, steps, rss, peak, per_step))
    final, first = float(rows[-1][1]), float(rows[0][1])
    verdicts.append("%s: RSS after %d %s %.0f MB (peak %s MB; %+.0f MB since step %s): %s"
                    % (label, n, which, final, rows[-1][2], final - first, rows[0][0],
                       "under 1 GB" if float(rows[-1][2]) < 1000 else "OVER 1 GB"))
  print("\n".join(verdicts))


if __name__ == "__main__":
  main()
