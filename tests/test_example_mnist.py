"""`tfe-run examples/contrib/mnist.py` reads MNIST IDX files, learns, summarizes and resumes;
the IDX writer it shares with these tests, and `tensorflow.examples.tutorials.mnist.input_data`
(tfe_compat.internal.tutorials_mnist) reading the same files.

The script runs twice: on gzipped IDX files from --data_dir with a tfe.defun-compiled model,
then resuming that model_dir on the default IDX files (the same digits).
"""
import os
import re
import struct
import sys

import numpy as np
import pytest
from tensorboard.backend.event_processing import event_accumulator as ea

from tfe_compat.internal import tutorials_mnist

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "contrib"))
import mnist_idx  # noqa: E402  pylint: disable=wrong-import-position
import script_runs  # noqa: E402  pylint: disable=wrong-import-position

SCRIPT = os.path.join(ROOT, "examples", "contrib", "mnist.py")
SMALL = ["--filters", "8,16", "--hidden", "64", "--batch_size", "50"]
EPOCH = re.compile(r"Epoch (\d+) \(global step (\d+), [\d.]+ s\): train loss ([\d.]+); "
                   r"test loss ([\d.]+), accuracy ([\d.]+)%; saved (\S+)")


# ---- The IDX files and the tutorials' input_data reader ----

def test_write_digits_writes_mnist_idx_headers_and_pixels(tmp_path):
  mnist_idx.write_digits(str(tmp_path), num_train=30, num_test=20)
  raw = (tmp_path / "train-images-idx3-ubyte").read_bytes()
  assert struct.unpack(">4I", raw[:16]) == (2051, 30, 28, 28) and len(raw) == 16 + 30 * 784
  labels = (tmp_path / "t10k-labels-idx1-ubyte").read_bytes()
  assert struct.unpack(">2I", labels[:8]) == (2049, 20) and len(labels) == 28
  images, digits = mnist_idx.digits_28x28()
  assert images.shape == (1797, 28, 28) and images.max() == 240
  assert list(labels[8:]) == digits[-20:].tolist()
  first = np.frombuffer(raw[16:16 + 784], np.uint8).reshape(28, 28)
  assert (first[:2] == 0).all() and (first[2:26, 2:26] == images[0, 2:26, 2:26]).all()
  with pytest.raises(ValueError, match="only 1797 digits"):
    mnist_idx.write_digits(str(tmp_path), 1797, 1)


def test_tutorials_input_data_reads_gzipped_idx(tmp_path, capsys):
  mnist_idx.write_digits(str(tmp_path), num_train=100, num_test=40, gzipped=True)
  data = tutorials_mnist.read_data_sets(str(tmp_path), validation_size=30)
  assert capsys.readouterr().out.count("Extracting ") == 4
  assert (data.train.num_examples, data.validation.num_examples, data.test.num_examples) == (
      70, 30, 40)
  images, digits = mnist_idx.digits_28x28()
  assert data.train.images.shape == (70, 784) and data.train.images.dtype == np.float32
  np.testing.assert_allclose(data.validation.images[0], images[0].ravel() / 255.0, rtol=1e-6)
  assert data.test.labels.dtype == np.uint8 and data.test.labels.tolist() == digits[-40:].tolist()
  # next_batch: 3 x 30 of 70 wraps into a second epoch, reshuffled.
  batches = [data.train.next_batch(30) for _ in range(3)]
  assert [b[0].shape for b in batches] == [(30, 784)] * 3 and data.train.epochs_completed == 1
  seen = np.concatenate([b[1] for b in batches[:2]] + [batches[2][1][:10]])
  assert sorted(seen.tolist()) == sorted(digits[30:100].tolist())
  hot = tutorials_mnist.read_data_sets(str(tmp_path), one_hot=True, reshape=False,
                                       validation_size=0, dtype=np.uint8)
  assert hot.train.images.shape == (100, 28, 28, 1) and hot.train.images.dtype == np.uint8
  assert hot.train.labels.shape == (100, 10) and hot.train.labels.dtype == np.float64
  assert hot.train.labels.argmax(1).tolist() == digits[:100].tolist()
  with pytest.raises(ValueError, match=r"Validation size should be between 0 and 100. "
                                       r"Received: 101."):
    tutorials_mnist.read_data_sets(str(tmp_path), validation_size=101)


# ---- The script ----

def start(*flags):
  return script_runs.start(SCRIPT, *SMALL, *flags)


finish = script_runs.finish


def epochs(stdout):
  """(epoch, global step, train loss, test loss, test accuracy, saved path) per epoch."""
  return [(int(m[1]), int(m[2]), float(m[3]), float(m[4]), float(m[5]) / 100, m[6])
          for m in EPOCH.finditer(stdout)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  """Gzipped IDX files from --data_dir with a tfe.defun-compiled model; then a second run
  resumes its model_dir, reading the same digits as the default IDX files."""
  base = tmp_path_factory.mktemp("contrib_mnist")
  data_dir = mnist_idx.write_digits(str(base / "gz"), 600, 200, gzipped=True)
  first = finish(start("--model_dir", str(base / "model"), "--data_dir", data_dir,
                       "--train_epochs", "2", "--defun"))
  resumed = finish(start("--model_dir", str(base / "model"), "--num_train", "600",
                         "--num_test", "200", "--train_epochs", "1"))
  return {"base": base, "first": first, "resumed": resumed}


@pytest.mark.slow  # the module fixture: two runs, ~25 s on an idle 2-core machine
def test_gzipped_idx_files_are_learned(runs):
  out = runs["first"]
  assert out.startswith("Reading 600 training and 200 test images from IDX files in %s; "
                        % (runs["base"] / "gz"))
  assert "Restored" not in out
  rows = epochs(out)
  assert [r[:2] for r in rows] == [(1, 12), (2, 24)]
  assert rows[1][2] < rows[0][2] < 2.35          # train loss
  assert rows[1][3] < rows[0][3] < 2.3           # test loss (chance: ln 10 = 2.303)
  assert rows[1][4] > 0.5                        # test accuracy (chance: 0.1)
  assert rows[1][5] == str(runs["base"] / "model" / "ckpt-2")
  assert "  batch 10: loss " in out


@pytest.mark.slow
def test_summaries_and_checkpoints(runs):
  model_dir = runs["base"] / "model"
  acc = ea.EventAccumulator(str(model_dir / "train"), size_guidance={ea.SCALARS: 0})
  acc.Reload()
  # record_summaries_every_n_global_steps(10), before each step's update: 0, 10, 20, then
  # 30 in the resumed run.
  assert [e.step for e in acc.Scalars("loss")] == [0, 10, 20, 30]
  assert [e.step for e in acc.Scalars("accuracy")] == [0, 10, 20, 30]
  test = ea.EventAccumulator(str(model_dir / "test"), size_guidance={ea.SCALARS: 0})
  test.Reload()
  rows = epochs(runs["first"])
  accuracy = test.Scalars("accuracy")
  # Epochs 1 and 2, the restored model's evaluation, then epoch 3.
  assert [e.step for e in accuracy] == [12, 24, 24, 36]
  assert accuracy[1].value == pytest.approx(rows[1][4], abs=1e-4)
  assert (model_dir / "checkpoint").read_text().splitlines()[0] == (
      'model_checkpoint_path: "ckpt-3"')


@pytest.mark.slow
def test_second_run_restores_the_checkpoint(runs):
  out, first = runs["resumed"], epochs(runs["first"])
  # Without --data_dir the same 600 + 200 digits are written as IDX files to a temp dir.
  assert re.match(r"Reading 600 training and 200 test images from IDX files in "
                  r"\S+digits_idx_", out)
  restored = re.search(r"Restored (\S+): global step (\d+), test loss ([\d.]+), "
                       r"accuracy ([\d.]+)%", out)
  assert restored[1] == str(runs["base"] / "model" / "ckpt-2") and restored[2] == "24"
  # The restored model gives the test results of the one that was saved.
  assert float(restored[3]) == pytest.approx(first[1][3], abs=2e-4)
  assert float(restored[4]) / 100 == pytest.approx(first[1][4], abs=1e-4)
  (row,) = epochs(out)
  assert row[:2] == (3, 36) and row[5] == str(runs["base"] / "model" / "ckpt-3")
  assert row[2] < first[0][2]       # continues from the trained weights, not from scratch
