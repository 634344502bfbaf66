"""`tfe-run examples/contrib/cvae.py` trains a convolutional VAE on binarized digits.

One small run (16x16 images, 4-dimensional latent code, the step compiled with `tfe.defun`):
the ELBO printed every epoch rises on the training and the held-out digits, and the
decoder's samples are probabilities.
"""
import os
import re

import pytest

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "cvae.py")
EPOCH = re.compile(r"Epoch (\d+) \([\d.]+ s, global step (\d+)\): "
                   r"train ELBO (-?[\d.]+), test ELBO (-?[\d.]+)")


@pytest.fixture(scope="module")
def run():
  return script_runs.run(
      SCRIPT, "--image_size", "16", "--filters", "8", "--latent_dim", "4",
      "--num_examples", "400", "--num_test", "200", "--batch_size", "50", "--epochs", "10",
      "--learning_rate", "0.005", "--compile")


def test_elbo_improves_on_train_and_test_digits(run):
  assert run.startswith("Training on 400 binarized 16x16 digits, testing on 200\n")
  epochs = [(int(e), int(s), float(tr), float(te)) for e, s, tr, te in EPOCH.findall(run)]
  assert [e for e, *_ in epochs] == list(range(1, 11))
  assert [s for _, s, *_ in epochs] == [8 * e for e in range(1, 11)]  # global_step counts
  train, test = [t for *_, t, _ in epochs], [t for *_, t in epochs]
  # 256 Bernoulli pixels: an untrained decoder gives about -256*log(2) = -177.
  assert -190 < test[0] < -150
  assert test[-1] > test[0] + 30 and train[-1] > train[0] + 30
  assert all(elbo < 0 for elbo in train + test)


def test_samples_are_probabilities_and_reconstructions_are_close(run):
  sample = re.search(r"Samples: shape \((\d+), (\d+), (\d+), (\d+)\), dtype (\w+), "
                     r"range \[([\d.]+), ([\d.]+)\]", run)
  assert sample.group(1, 2, 3, 4, 5) == ("16", "16", "16", "1", "float32")
  low, high = float(sample[6]), float(sample[7])
  assert 0.0 <= low < high <= 1.0
  error = float(re.search(r"Reconstruction mean absolute error on test digits: ([\d.]+)",
                          run)[1])
  assert error < 0.35  # an untrained decoder outputs ~0.5 everywhere
