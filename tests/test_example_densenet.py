"""`tfe-run examples/contrib/densenet.py`: tiny DenseNets learn and have the right shapes.

Two runs start at once: eager DenseNet-BC (2 blocks of 2 bottleneck layers, growth rate 4,
compression 0.5, NHWC) and --compile (layers per block derived from depth 7, no bottleneck,
no compression, 7x7/2 stem with max pooling, dropout, NCHW). 32x32 images, batches of 4.
"""
import os
import re

import numpy as np
import pytest

import script_runs

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "densenet.py")
TINY = ["--growth_rate", "4", "--image_size", "32", "--batch_size", "4", "--num_examples", "8",
        "--steps", "40", "--learning_rate", "0.1"]
STEP = re.compile(r"^step (\d+): loss ([\d.]+) \(cross-entropy ([\d.]+), l2 ([\d.]+)\)$", re.M)


def start(*flags):
  return script_runs.start(SCRIPT, *TINY, *flags)


def finish(process):
  stdout, stderr = script_runs.outputs(process, timeout=400)
  assert "cannot be compiled" not in stderr
  return stdout


def steps(out):
  rows = STEP.findall(out)
  assert [int(r[0]) for r in rows] == list(range(1, 41))
  return np.array([[float(v) for v in r[1:]] for r in rows])


def number(out, label):
  return float(re.search(re.escape(label) + r" ([-\d.e+]+)", out).group(1))


@pytest.fixture(scope="module")
def runs():
  bc = start("--num_blocks", "2", "--layers_per_block", "2")
  compiled = start("--compile", "--depth", "7", "--layers_per_block", "-1", "--nobottleneck",
                   "--compression", "1", "--pool_initial", "--dropout_rate", "0.2",
                   "--data_format", "channels_first")
  return {"bc": finish(bc), "compiled": finish(compiled)}


def test_loss_decreases(runs):
  for mode in ("bc", "compiled"):
    rows = steps(runs[mode])
    loss, cross_entropy, l2 = rows.T
    assert 2.0 < cross_entropy[0] < 3.5
    assert loss[-5:].mean() < 0.75 * loss[:5].mean()
    np.testing.assert_allclose(loss, cross_entropy + l2, atol=2e-4)
    assert (l2 > 0).all()


def test_densenet_bc_feature_maps(runs):
  # 2k = 8 maps from the stem, +2k per block, halved by the transition.
  assert ("layers per block: [2, 2]\n"
          "after stem: [4, 32, 32, 8]\n"
          "after DenseBlock: [4, 32, 32, 16]\n"
          "after Transition: [4, 16, 16, 8]\n"
          "after DenseBlock: [4, 16, 16, 16]\n") in runs["bc"]
  assert "logits shape: [4, 10]\n" in runs["bc"]
  # 10 kernels: stem, 2 x 2 x (1x1 + 3x3), transition; each has an L2 penalty.
  assert "l2 penalty: 10 terms for 10 conv kernels" in runs["bc"]


def test_pool_initial_nchw_feature_maps(runs):
  # Depth 7 -> (7 - 4) / 3 = 1 layer per block; 7x7/2 conv and 3x3/2 pool: 32 -> 8.
  assert ("layers per block: [1, 1, 1]\n"
          "after stem: [4, 8, 8, 8]\n"
          "after DenseBlock: [4, 12, 8, 8]\n"
          "after Transition: [4, 12, 4, 4]\n"
          "after DenseBlock: [4, 16, 4, 4]\n"
          "after Transition: [4, 16, 2, 2]\n"
          "after DenseBlock: [4, 20, 2, 2]\n") in runs["compiled"]
  assert "logits shape: [4, 10]\n" in runs["compiled"]
  assert "l2 penalty: 6 terms for 6 conv kernels" in runs["compiled"]


def test_l2_penalty_is_weight_decay_times_sum_of_squares(runs):
  for mode in ("bc", "compiled"):
    assert number(runs[mode], "difference from weight_decay * sum of squares") < 1e-6


def test_defun_matches_eager(runs):
  # Logits reach ~16: float32 rounds them to ~2e-6, and eager ops and one compiled program
  # sum in different orders (a few ulps, as TF's own eager-vs-defun tests allow).
  assert number(runs["bc"], "eager vs defun (training=True): max difference") < 1e-4
  for mode in ("bc", "compiled"):   # with dropout, only inference is deterministic
    assert number(runs[mode], "eager vs defun (training=False): max difference") < 1e-4


def test_inference_uses_moving_statistics(runs):
  # An image's inference logits ignore its batch-mates; with batch statistics they do not.
  label = "training=%s, first image's logits with other batch-mates: max difference"
  for mode in ("bc", "compiled"):
    assert number(runs[mode], label % "False") < 1e-5
    assert number(runs[mode], label % "True") > 1e-2
