"""`tfe-run examples/contrib/resnet50.py`: a tiny ResNet-50-structured model learns.

Two runs start at once: eager NHWC (under tfe.ASYNC, with summaries and a max-pooled
headless model) and --compile NCHW (model.call and the train step in tfe.defun). Both use
stages of one bottleneck block, 4 base filters, 32x32 images, batches of 4.
"""
import os
import re

import numpy as np
import pytest
from tensorboard.backend.event_processing import event_accumulator as ea

import script_runs

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "resnet50.py")
TINY = ["--base_filters", "4", "--stage_blocks", "1,1", "--image_size", "32",
        "--batch_size", "4", "--num_examples", "8", "--steps", "20", "--learning_rate", "0.05"]


def start(*flags):
  return script_runs.start(SCRIPT, *TINY, *flags)


def finish(process):
  stdout, stderr = script_runs.outputs(process, timeout=400)
  assert "cannot be compiled" not in stderr
  return stdout


def losses(out):
  steps = re.findall(r"^step (\d+): loss ([\d.]+)$", out, re.M)
  assert [int(s) for s, _ in steps] == list(range(1, 21))
  return np.array([float(v) for _, v in steps])


def number(out, label):
  return float(re.search(re.escape(label) + r" ([-\d.e+]+)", out).group(1))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  logdir = tmp_path_factory.mktemp("resnet50_logs")
  eager = start("--async", "--pooling", "max", "--logdir", str(logdir))
  compiled = start("--compile", "--data_format", "channels_first")
  return {"eager": finish(eager), "compiled": finish(compiled), "logdir": logdir}


def test_loss_decreases(runs):
  for mode in ("eager", "compiled"):
    loss = losses(runs[mode])
    assert 2.0 < loss[0] < 3.0                     # about ln(10) at the start
    assert loss[-5:].mean() < 0.7 * loss[:5].mean()


def test_compiled_nchw_training_follows_eager_nhwc(runs):
  # Same seed, same weights and batches: the layout and the compilation change nothing.
  np.testing.assert_allclose(losses(runs["compiled"]), losses(runs["eager"]), rtol=5e-3)


def test_output_shapes(runs):
  for mode in ("eager", "compiled"):
    assert "logits shape: [4, 10]\n" in runs[mode]
  # Headless, max pooling: 4 * 4 * 2 = 32 channels out of stage 3.
  assert "max-pooled features shape: [2, 32]\n" in runs["eager"]


def test_defun_matches_eager(runs):
  for mode in ("eager", "compiled"):
    for training in ("False", "True"):
      label = "eager vs defun (training=%s): max difference" % training
      assert number(runs[mode], label) < 1e-5


def test_batch_norm_statistics(runs):
  for mode in ("eager", "compiled"):
    out = runs[mode]
    # training=False: moving averages; training=True: the batch's own mean and variance.
    assert number(out, "bn_conv1 inference vs moving-statistics formula: max difference") < 1e-5
    assert number(out, "bn_conv1 training vs batch-statistics formula: max difference") < 1e-5
    # An image's inference logits ignore its batch-mates; in training mode they do not.
    label = "training=%s, first image's logits with other batch-mates: max difference"
    assert number(out, label % "False") < 1e-5
    assert number(out, label % "True") > 1e-2


def test_loss_summaries(runs):
  acc = ea.EventAccumulator(str(runs["logdir"]), size_guidance={ea.SCALARS: 0})
  acc.Reload()
  events = acc.Scalars("loss")
  assert [e.step for e in events] == list(range(1, 21))
  np.testing.assert_allclose([e.value for e in events], losses(runs["eager"]), atol=1e-4)
