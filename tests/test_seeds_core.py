"""The seed tutorials' tensor/op/variable/device code runs unchanged under `tfe-run`.

Expected outputs are the TensorFlow outputs (TF 1.x eager printing), checked against real TF.
"""
import os
import subprocess
import sys

import pytest

SEEDS = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "seeds")
TFE_RUN = os.path.join(os.path.dirname(sys.executable), "tfe-run")


def run_seed(name, timeout=300, cwd=SEEDS, args=()):
  """Runs examples/seeds/`name` with `tfe-run` in `cwd`, passing it `args`."""
  out = subprocess.run([TFE_RUN, os.path.join(SEEDS, name)] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=timeout, check=False,
                       cwd=str(cwd))
  return out


def test_seed000_collatz():
  out = run_seed("seed000_collatz.py")
  assert out.returncode == 0, out.stderr
  values = ["6.0", "3.0", "10.0", "5.0", "16.0", "8.0", "4.0", "2.0", "1.0"]
  assert out.stdout.splitlines() == [
      "tf.Tensor(%s, shape=(), dtype=float64)" % v for v in values]


BASICS = """\
hello, [[4.]]
tf.Tensor(
[[1 2]
 [3 4]], shape=(2, 2), dtype=int32)
tf.Tensor(
[[2 3]
 [4 5]], shape=(2, 2), dtype=int32)
tf.Tensor(
[[ 2  6]
 [12 20]], shape=(2, 2), dtype=int32)
[[ 2  6]
 [12 20]]
[[1 2]
 [3 4]]
"""


def test_seed001_basics():
  out = run_seed("seed001_basics.py")
  assert out.returncode == 0, out.stderr
  assert out.stdout == BASICS


def test_seed002_basics_and_fizzbuzz():
  out = run_seed("seed002_basics.py")
  assert out.returncode == 0, out.stderr
  fizz = []
  for n in range(16):
    if n % 15 == 0:
      fizz.append("FizzBuzz")
    elif n % 3 == 0:
      fizz.append("Fizz")
    elif n % 5 == 0:
      fizz.append("Buzz")
    else:
      fizz.append("tf.Tensor(%d, shape=(), dtype=int32)" % n)
  expected = BASICS + "\n".join(fizz) + "\ntf.Tensor(16, shape=(), dtype=int32)\n"
  assert out.stdout == expected


@pytest.mark.slow
def test_seed002_performance_loop_and_device_copies():
  out = run_seed("seed002_performance.py", timeout=600)
  lines = out.stdout.splitlines()
  assert lines[0] == "Time to multiply a (1000, 1000) matrix by itself 200 times:"
  assert lines[1].startswith("CPU: ") and lines[1].endswith(" secs")
  assert float(lines[1].split()[1]) > 0
  if "GPU: not found" in lines:
    # No GPU: `x.gpu()` fails with a clear error, at that line of the script.
    assert out.returncode == 1
    assert "x_gpu0 = x.gpu()" in out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith("RuntimeError: GPU:0 is not available")
  else:
    assert out.returncode == 0, out.stderr


def test_seed003_tensors_variables_comparisons():
  out = run_seed("seed003_basics.py")
  assert out.returncode == 0, out.stderr
  lines = out.stdout.splitlines()
  assert lines[:4] == [
      "tf.Tensor(5, shape=(), dtype=int32)",
      "result is 25",
      "tf.Tensor(50, shape=(), dtype=int32) 50",
      lines[3],
  ]
  assert lines[3].startswith("<tf.Variable 'var:0' shape=() dtype=float32, numpy=")
  assert -1.8 < float(lines[3].split("numpy=")[1].rstrip(">")) < 1.8  # glorot on a scalar
  assert lines[4:16] == [
      "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=10>",
      "False",
      "tf.Tensor(True, shape=(), dtype=bool)",
      "tf.Tensor(True, shape=(), dtype=bool)",
      "True",
      "tf.Tensor(True, shape=(), dtype=bool)",
      "True",
      "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=10>",
      "tf.Tensor(15, shape=(), dtype=int32)",
      "tf.Tensor(10, shape=(), dtype=int32)",
      "fizzbuzz", "1",
  ]
  assert lines[16:] == ["2", "fizz", "4", "buzz", "fizz", "7", "8", "fizz", "buzz", "11",
                        "fizz", "13", "14", "fizzbuzz"]


def test_seed_graph_blocks_run_in_graph_mode():
  out = run_seed("seed000_graph.py")
  assert out.returncode == 0, out.stderr
  assert out.stdout == "[[4.]]\n"
  out = run_seed("seed002_graph.py")
  assert out.returncode == 0, out.stderr
  # the Python function gets eager tensors (TF prints the same), inside a Session run
  assert out.stdout == "tf.Tensor([[4.]], shape=(1, 1), dtype=float32)\n[[4.]]\n"
