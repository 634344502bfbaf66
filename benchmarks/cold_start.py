"""The main job's first epoch: programs compiled, compile seconds and wall time.

Run: python benchmarks/cold_start.py [the main job's flags, e.g. --compile, --device gpu]
Runs `tfe-run examples/mnist_eager.py --epochs 2` twice in fresh processes: first with an
empty compilation cache directory (cold, as on a new machine or CI), then again with the
cache the first run filled (warm). For each, the first and second epoch's wall time (as
the script prints it), the XLA programs compiled in the process, and the seconds spent
tracing, lowering and compiling them (JAX's monitoring events).
Target (issue 17): first epoch ≤ 5 s cold, ≤ 2 s warm, on a 2-core CPU.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, os.pardir, "examples", "mnist_eager.py")

HARNESS = r"""
import collections, sys
import jax
from tfe_compat import runner

totals = collections.Counter()

def listen(event, duration, **kwargs):
  totals[event] += duration
  totals[event + "#"] += 1

jax.monitoring.register_event_duration_secs_listener(listen)
try:
  runner.main(sys.argv[1:])
finally:
  compiled = totals["/jax/core/compile/backend_compile_duration#"]
  seconds = sum(v for k, v in totals.items() if k.startswith("/jax/core/compile/")
                and not k.endswith("#"))
  print("PROGRAMS %d %.2f" % (compiled, seconds))
"""


def first_epochs(cache, model_dir, extra):
  env = dict(os.environ, TFE_COMPILATION_CACHE=cache)
  out = subprocess.run(
      [sys.executable, "-c", HARNESS, SCRIPT, "--epochs", "2", "--model_dir", model_dir]
      + extra, env=env, check=True, capture_output=True, text=True).stdout
  epochs = [float(s) for s in re.findall(r"global step \d+ \(([\d.]+) s\)", out)]
  programs, seconds = re.search(r"PROGRAMS (\d+) ([\d.]+)", out).groups()
  return epochs, int(programs), float(seconds)


def main():
  extra = sys.argv[1:]
  print("%-6s %12s %12s %10s %12s" % ("cache", "epoch 1 (s)", "epoch 2 (s)", "programs",
                                      "compile (s)"))
  with tempfile.TemporaryDirectory() as cache:
    for label in ("cold", "warm"):
      with tempfile.TemporaryDirectory() as model_dir:
        epochs, programs, seconds = first_epochs(cache, model_dir, extra)
      print("%-6s %12.2f %12.2f %10d %12.2f" % (label, epochs[0], epochs[1], programs,
                                                seconds), flush=True)


if __name__ == "__main__":
  main()
