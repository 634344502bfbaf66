"""TensorFlow's own eager examples and their tests, run unchanged under `tfe-run`.

The files are TensorFlow's code, so they are not in this repository: set TFE_TF_SOURCE to
the root of a TensorFlow 1.12-1.15 source tree to run them (they import their modules by
full path, `from tensorflow.contrib.eager.python.examples.x import x`, found through the
source tree on PYTHONPATH). Without it these tests are skipped. The graph-mode tests
(`*_graph_test.py`, graph halves of `run_in_graph_and_eager_modes`) run too; files that
hold only benchmarks run them (`--benchmarks=.`).
"""
import ast
import os
import re
import subprocess
import sys

import pytest

TFE_RUN = os.path.join(os.path.dirname(sys.executable), "tfe-run")
EXAMPLES = "tensorflow/contrib/eager/python/examples/"
ORIGINALS = [  # (test file, tests to run: all when empty)
    ("linear_regression/linear_regression_test.py", ()),
    ("mnist/mnist_test.py", ()),
    ("resnet50/resnet50_test.py", ()),
    ("densenet/densenet_test.py", ()),
    ("rnn_ptb/rnn_ptb_test.py", ()),
    ("rnn_colorbot/rnn_colorbot_test.py", ()),
    ("gan/mnist_test.py", ()),
    ("revnet/ops_test.py", ()),
    ("revnet/revnet_test.py", ()),
    ("l2hmc/l2hmc_test.py", ()),
    ("spinn/data_test.py", ()),  # spinn_test needs third_party/examples/eager/spinn too
    ("spinn/spinn_test.py", ()),
    ("linear_regression/linear_regression_graph_test.py", ("--benchmarks=.",)),
    ("resnet50/resnet50_graph_test.py", ()),
    ("densenet/densenet_graph_test.py", ("DensenetGraphTest",)),
    ("rnn_ptb/rnn_ptb_graph_test.py", ("PTBTest",)),
]


CONTRIB_EAGER = "tensorflow/contrib/eager/python/"
NOT_RUN = {
    # TF 1.12 only: an iterator over prefetch_to_device raised; TF 1.15 (and we) accept it
    "datasets_test.py": {"testTensorsExplicitPrefetchToDevice"},
}
CONTRIB_EAGER_TESTS = ["tfe_test.py", "metrics_test.py", "evaluator_test.py", "saver_test.py",
                       "network_test.py", "datasets_test.py"]


def _test_methods(path, excluded):
  """`Class.method` of every test method in the file but the `excluded` ones."""
  with open(path, encoding="utf8") as f:
    tree = ast.parse(f.read())
  return ["%s.%s" % (c.name, m.name) for c in tree.body if isinstance(c, ast.ClassDef)
          for m in c.body if isinstance(m, ast.FunctionDef) and m.name.startswith("test")
          and m.name not in excluded and m.name != "test_session"]


def _run_unchanged(path, names):
  root = os.environ.get("TFE_TF_SOURCE")
  if not root:
    pytest.skip("set TFE_TF_SOURCE to a TensorFlow 1.x source tree to run its tests")
  path = os.path.join(root, path)
  if not os.path.exists(path):
    pytest.skip("this TensorFlow version has no %s" % os.path.relpath(path, root))
  env = dict(os.environ, PYTHONPATH=root, TF_CPP_MIN_LOG_LEVEL="3")
  if names is None:
    name = os.path.basename(path)
    names = _test_methods(path, NOT_RUN.get(name, set()))
  out = subprocess.run([TFE_RUN, path] + list(names), cwd=root, env=env,
                       capture_output=True, text=True, timeout=1200)
  assert out.returncode == 0, out.stderr[-4000:]
  if not any(n.startswith("--benchmarks") for n in names):
    assert re.search(r"^OK\b", out.stderr, re.M), out.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize("test_file, names", ORIGINALS, ids=[o[0] for o in ORIGINALS])
def test_original_example_tests_pass_unchanged(test_file, names):
  _run_unchanged(EXAMPLES + test_file, names)


@pytest.mark.slow
@pytest.mark.parametrize("test_file", CONTRIB_EAGER_TESTS)
def test_contrib_eager_test_files_pass(test_file):
  _run_unchanged(CONTRIB_EAGER + test_file, None)
