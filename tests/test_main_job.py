"""The main job: `tfe-run examples/mnist_eager.py` trains, evaluates, summarizes and resumes.

The independent runs (eager with the default flags, --compile, MNIST IDX files) start at
once in separate processes; a fourth run resumes from the eager run's model_dir.
"""
import gzip
import os
import re
import struct

import numpy as np
import pytest
from tensorboard.backend.event_processing import event_accumulator as ea

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "mnist_eager.py")
EPOCH_LINE = re.compile(
    r"Epoch (\d+), global step (\d+) \([\d.]+ s\): train loss ([\d.]+), accuracy ([\d.]+)%; "
    r"test loss ([\d.]+), accuracy ([\d.]+)%; saved (\S+)")


def start(model_dir, *flags):
  return script_runs.start(SCRIPT, "--model_dir", model_dir, *flags)


finish = script_runs.finish


def epochs(stdout):
  """(epoch, global step, train loss, train acc, test loss, test acc, path) per epoch."""
  return [(int(m[1]), int(m[2]), float(m[3]), float(m[4]) / 100, float(m[5]),
           float(m[6]) / 100, m[7]) for m in EPOCH_LINE.finditer(stdout)]


def scalars(logdir, tag):
  acc = ea.EventAccumulator(str(logdir), size_guidance={ea.SCALARS: 0})
  acc.Reload()
  return [(e.step, e.value) for e in acc.Scalars(tag)]


def write_idx(directory, prefix, images, labels, gzipped):
  """MNIST's IDX format: big-endian magic 2051/2049, the dimensions, then unsigned bytes."""
  n, rows, cols = images.shape
  files = {prefix + "-images-idx3-ubyte": struct.pack(">4I", 2051, n, rows, cols),
           prefix + "-labels-idx1-ubyte": struct.pack(">2I", 2049, n)}
  payloads = [images.astype(np.uint8).tobytes(), labels.astype(np.uint8).tobytes()]
  for (name, header), payload in zip(files.items(), payloads):
    opener = gzip.open if gzipped else open
    with opener(os.path.join(directory, name + (".gz" if gzipped else "")), "wb") as f:
      f.write(header + payload)


def mnist_fixture(directory):
  """Pseudo-MNIST: shipped digits blown up to 24x24 and padded to 28x28, bytes 0..240."""
  data = np.load(os.path.join(ROOT, "examples", "data", "digits.npz"))
  big = np.kron(data["images"], np.ones((3, 3), np.uint8)) * 15
  images = np.pad(big, ((0, 0), (2, 2), (2, 2)))
  labels = data["labels"]
  write_idx(directory, "train", images[:600], labels[:600], gzipped=False)
  write_idx(directory, "t10k", images[-200:], labels[-200:], gzipped=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  base = tmp_path_factory.mktemp("main_job")
  mnist_dir = base / "mnist"
  mnist_dir.mkdir()
  mnist_fixture(mnist_dir)
  eager = start(base / "eager")
  compiled = start(base / "compiled", "--compile")
  mnist = start(base / "mnist_model", "--data_dir", str(mnist_dir), "--epochs", "3",
                "--batch_size", "50")
  out = {"base": base, "eager": finish(eager)}
  resumed = start(base / "eager", "--epochs", "1")
  out.update(compiled=finish(compiled), mnist=finish(mnist), resumed=finish(resumed))
  return out


def test_default_run_learns_the_digits(runs):
  out = runs["eager"]
  assert out.startswith("Training on 1437 8x8 images (UCI digits from ")
  assert "Restored" not in out
  # Keras's progress bar, one per epoch of 45 batches.
  assert out.count("Epoch 1/20\n") == 1 and "45/45 [==============================]" in out
  rows = epochs(out)
  assert [r[:2] for r in rows] == [(e, 45 * e) for e in range(1, 21)]
  train_losses = [r[2] for r in rows]
  assert train_losses[-1] < 0.1 < 1.0 < train_losses[0]
  assert train_losses[-1] < train_losses[5] < train_losses[1]
  assert rows[-1][3] > 0.97                    # train accuracy
  assert rows[-1][5] > 0.90                    # held-out accuracy
  assert rows[-1][4] < rows[0][4]              # held-out loss
  assert rows[-1][6] == str(runs["base"] / "eager" / "ckpt-20")


def test_summaries_and_checkpoints_are_written(runs):
  model_dir = runs["base"] / "eager"
  train_loss = scalars(model_dir / "train", "loss")
  # Every 10 global steps, as record_summaries_every_n_global_steps(10) asks, up to 900
  # steps (then 945 more from the resumed run).
  assert [step for step, _ in train_loss][:90] == list(range(10, 901, 10))
  first, last = train_loss[:5], train_loss[85:90]
  assert np.mean([v for _, v in first]) > 5 * np.mean([v for _, v in last])
  assert len(scalars(model_dir / "train", "accuracy")) == len(train_loss)
  test_accuracy = scalars(model_dir / "test", "accuracy")
  assert [step for step, _ in test_accuracy] == list(range(45, 946, 45))
  assert test_accuracy[19][1] == pytest.approx(epochs(runs["eager"])[-1][5], abs=1e-4)
  # The CheckpointManager keeps the last 3.
  state = (model_dir / "checkpoint").read_text()
  assert state.splitlines()[0] == 'model_checkpoint_path: "ckpt-21"'
  assert sorted(p.name for p in model_dir.glob("ckpt-*.index")) == [
      "ckpt-19.index", "ckpt-20.index", "ckpt-21.index"]


def test_second_run_resumes_from_the_checkpoint(runs):
  out = runs["resumed"]
  model_dir = runs["base"] / "eager"
  assert "Restored %s: epoch 20, global step 900\nEpoch 21/21\n" % (model_dir / "ckpt-20") \
      in out
  (row,) = epochs(out)
  first_run = epochs(runs["eager"])
  assert row[:2] == (21, 945)
  # Restored weights (and Adam slots): it starts where the first run stopped, not from scratch.
  assert row[2] < 0.1 and row[5] > 0.90
  assert row[2] < first_run[0][2] / 10


def test_compiled_step_matches_eager_accuracy(runs):
  eager, compiled = epochs(runs["eager"]), epochs(runs["compiled"])
  assert [r[:2] for r in compiled] == [(e, 45 * e) for e in range(1, 21)]
  assert compiled[-1][2] < 0.1 < 1.0 < compiled[0][2]
  assert compiled[-1][5] > 0.90
  # The two runs do not match number for number: compare the last 5 epochs' mean.
  assert abs(np.mean([r[5] for r in compiled[-5:]]) - np.mean([r[5] for r in eager[-5:]])) \
      < 0.03


def test_mnist_idx_files_from_data_dir(runs):
  out = runs["mnist"]
  assert out.startswith("Training on 600 28x28 images (MNIST from ")
  rows = epochs(out)
  assert [r[:2] for r in rows] == [(1, 12), (2, 24), (3, 36)]
  assert "12/12 [==============================]" in out
  assert rows[-1][2] < rows[0][2]
  assert rows[-1][5] > 0.80      # 200 test images read from gzipped IDX files


GRAPH_SCRIPT = os.path.join(ROOT, "examples", "mnist_graph.py")
GRAPH_EPOCH_LINE = re.compile(
    r"Epoch (\d+)/(\d+), global step (\d+) \([\d.]+ s\): train loss ([\d.]+); "
    r"test loss ([\d.]+), accuracy ([\d.]+)%; saved (\S+)")


def test_graph_program_trains_summarizes_and_resumes(tmp_path):
  """examples/mnist_graph.py: the same digits as a TF 1.x graph program (iterator over
  placeholders, Saver, FileWriter); a second run resumes from its checkpoint."""
  first = finish(script_runs.start(GRAPH_SCRIPT, "--model_dir", tmp_path, "--epochs", "4"))
  lines = [m.groups() for m in GRAPH_EPOCH_LINE.finditer(first)]
  assert [int(g[0]) for g in lines] == [1, 2, 3, 4]
  assert [int(g[2]) for g in lines] == [45, 90, 135, 180]  # 1437 images, batch 32
  train_losses = [float(g[3]) for g in lines]
  assert train_losses[-1] < train_losses[0] / 3
  assert float(lines[-1][5]) > 80  # test accuracy, %
  assert lines[-1][6].endswith("model.ckpt-180")
  second = finish(script_runs.start(GRAPH_SCRIPT, "--model_dir", tmp_path, "--epochs", "1"))
  assert "Restored %s: epoch 4, global step 180" % lines[-1][6] in second
  assert [m.group(1) for m in GRAPH_EPOCH_LINE.finditer(second)] == ["5"]
  steps = [s for s, _ in scalars(tmp_path / "train", "loss")]
  assert steps[:3] == [0, 1, 2] and len(steps) == 225  # every step of the 5 epochs
  assert [s for s, _ in scalars(tmp_path / "test", "accuracy")] == [45, 90, 135, 180, 225]
