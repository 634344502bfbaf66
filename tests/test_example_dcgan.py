"""`tfe-run examples/contrib/dcgan.py` trains a DCGAN on digits, checkpoints and restores it.

A training run (16x16 digits, uncompiled to stay quick, checkpoints every 3 epochs), then a
second process that only restores the latest checkpoint and draws the same images.
"""
import os
import re

import pytest

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "dcgan.py")
SMALL = ["--image_size", "16", "--filters", "8", "--noise_dim", "16", "--nocompile"]
EPOCH = re.compile(r"Epoch (\d+) \([\d.]+ s\): generator loss ([\d.]+), discriminator loss "
                   r"([\d.]+), real judged real ([\d.]+), fake judged fake ([\d.]+)")
GENERATED = re.compile(r"Generated: shape \(16, 16, 16, 1\), dtype float32, "
                       r"range \[(-?[\d.]+), (-?[\d.]+)\], sum (-?[\d.]+)")


def tfe_run(*flags):
  return script_runs.run(SCRIPT, *SMALL, *flags)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  model_dir = str(tmp_path_factory.mktemp("dcgan"))
  train = tfe_run("--model_dir", model_dir, "--num_examples", "256", "--batch_size", "64",
                  "--epochs", "6", "--save_every", "3", "--learning_rate", "0.002")
  files = sorted(os.listdir(model_dir))
  restored = tfe_run("--model_dir", model_dir, "--epochs", "0")
  return {"train": train, "restored": restored, "dir": model_dir, "files": files}


@pytest.mark.slow
def test_discriminator_learns_and_generator_answers(runs):
  epochs = [tuple(float(v) for v in m) for m in EPOCH.findall(runs["train"])]
  assert [int(e[0]) for e in epochs] == [1, 2, 3, 4, 5, 6]
  disc = [e[2] for e in epochs]
  assert 1.0 < disc[0] < 1.45  # about 2*log(2) before the networks separate
  assert disc[-1] < 0.85 * disc[0]
  assert max(e[3] for e in epochs[1:]) > 0.9  # real digits are recognised
  assert epochs[-1][4] > epochs[0][4]  # fakes are told apart better, the generator adapts
  low, high, _ = (float(v) for v in GENERATED.search(runs["train"]).groups())
  assert -1.0 <= low < high <= 1.0  # tanh output


@pytest.mark.slow
def test_checkpoints_are_saved_and_restore_the_same_generator(runs):
  saves = re.findall(r"Saved (\S+)", runs["train"])
  assert [os.path.basename(s) for s in saves] == ["ckpt-1", "ckpt-2"]
  assert "checkpoint" in runs["files"] and "ckpt-2.index" in runs["files"]
  assert runs["restored"].startswith(
      "Restored %s (epoch 6)\n" % os.path.join(runs["dir"], "ckpt-2"))
  assert "Epoch" not in runs["restored"]
  assert (GENERATED.search(runs["restored"]).group(0) ==
          GENERATED.search(runs["train"]).group(0))
