"""`tfe-run examples/contrib/pix2pix.py` learns to render synthetic facade label maps.

One small run (16x16 pairs, a 4-level U-Net, uncompiled): the L1 distance to the targets
falls, the PatchGAN discriminator separates real from generated pairs, and the outputs have
the images' shape and tanh's range.
"""
import os
import re

import pytest

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "pix2pix.py")
EPOCH = re.compile(r"Epoch (\d+) \([\d.]+ s\): L1 ([\d.]+), generator GAN loss ([\d.]+), "
                   r"discriminator loss ([\d.]+)")


@pytest.fixture(scope="module")
def run():
  return script_runs.run(
      SCRIPT, "--image_size", "16", "--filters", "4", "--num_pairs", "8",
      "--num_test", "4", "--batch_size", "4", "--epochs", "8", "--learning_rate", "0.002",
      "--nocompile")


@pytest.mark.slow
def test_l1_distance_falls_and_discriminator_learns(run):
  assert run.startswith("Training on 8 synthetic 16x16 facade pairs, 4 held out\n")
  epochs = [tuple(float(v) for v in m) for m in EPOCH.findall(run)]
  assert [int(e[0]) for e in epochs] == list(range(1, 9))
  l1 = [e[1] for e in epochs]
  assert l1[-1] < 0.6 * l1[0]
  assert l1[4] < l1[2] < l1[0]
  assert epochs[-1][3] < 0.7 * epochs[0][3]
  test_l1 = float(re.search(r"Test L1: ([\d.]+)", run)[1])
  assert test_l1 < 0.75 * l1[0]


@pytest.mark.slow
def test_generator_output_shape_and_range(run):
  out = re.search(r"Generated: shape \(4, 16, 16, 3\), dtype float32, "
                  r"range \[(-?[\d.]+), (-?[\d.]+)\]", run)
  low, high = float(out[1]), float(out[2])
  assert -1.0 <= low < high <= 1.0
  assert "Patch logits: shape (4, 2, 2, 1)" in run
