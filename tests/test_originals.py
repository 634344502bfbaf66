"""TensorFlow's own eager examples and their tests, run unchanged under `tfe-run`.

The files are TensorFlow's code, so they are not in this repository: set TFE_TF_SOURCE to
the root of a TensorFlow 1.12-1.15 source tree to run them (they import their modules by
full path, `from tensorflow.contrib.eager.python.examples.x import x`, found through the
source tree on PYTHONPATH). Without it these tests are skipped. Graph-mode tests
(`*_graph_test.py`, and `test_training_graph` in revnet_test.py) are out of scope.
"""
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
]


@pytest.mark.slow
@pytest.mark.parametrize("test_file, names", ORIGINALS, ids=[o[0] for o in ORIGINALS])
def test_original_example_tests_pass_unchanged(test_file, names):
  root = os.environ.get("TFE_TF_SOURCE")
  if not root:
    pytest.skip("set TFE_TF_SOURCE to a TensorFlow 1.x source tree to run its example tests")
  path = os.path.join(root, EXAMPLES, test_file)
  env = dict(os.environ, PYTHONPATH=root, TF_CPP_MIN_LOG_LEVEL="3")
  out = subprocess.run([TFE_RUN, path] + list(names), cwd=root, env=env,
                       capture_output=True, text=True, timeout=1200)
  assert out.returncode == 0, out.stderr[-4000:]
  assert re.search(r"^OK\b", out.stderr, re.M), out.stderr[-2000:]
