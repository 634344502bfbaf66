"""`tfe-run examples/contrib/rnn_colorbot.py`: the character-level colour regressor learns.

The stacked `tf.keras.layers.LSTM` model (with summaries) and a one-layer
LSTMCell/`dynamic_rnn` model train at once in separate processes.
"""
import os
import re

import numpy as np
import pytest
from tensorboard.backend.event_processing import event_accumulator as ea

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "rnn_colorbot.py")
EPOCH = re.compile(r"epoch (\d+): train loss ([\d.]+), test loss ([\d.]+)")
PREDICTION = re.compile(r"^(.+): rgb \(([\d.]+), ([\d.]+), ([\d.]+)\) = \((\d+), (\d+), (\d+)\)$",
                        re.M)
COLORS = "white,black,red,sky blue,dark green,lemon"

pytestmark = pytest.mark.slow


def start(*flags):
  return script_runs.start(SCRIPT, "--colors", COLORS, *flags)


finish = script_runs.finish


def check(stdout, epochs):
  assert "batch shapes: codes [8, 12], lengths [8], rgb [8, 3]" in stdout
  assert "predictions shape: [8, 3]" in stdout
  losses = [(int(e), float(train), float(test)) for e, train, test in EPOCH.findall(stdout)]
  assert [e for e, _, _ in losses] == list(range(1, epochs + 1))
  assert losses[-1][1] < 0.35 * losses[0][1]  # mean squared error of RGB in [0, 1]
  assert 0 < losses[-1][2] < 0.5
  found = {m[0]: (np.array([float(v) for v in m[1:4]]), np.array([int(v) for v in m[4:]]))
           for m in PREDICTION.findall(stdout)}
  assert list(found) == COLORS.split(",")
  for rgb, rgb255 in found.values():
    assert np.all((rgb >= 0) & (rgb <= 1))  # a sigmoid head
    np.testing.assert_array_equal(rgb255, np.round(rgb * 255))
  white, black, red = found["white"][0], found["black"][0], found["red"][0]
  assert white.min() > 0.6 and black.max() < 0.4
  assert red[0] > 0.6 and red[1] < 0.4 and red[2] < 0.4
  assert "padding changes predictions by at most 0\n" in stdout or re.search(
      r"padding changes predictions by at most \d(\.\d+)?e-0[6-9]", stdout)


def test_keras_and_cell_models_learn_colors(tmp_path):
  logdir = tmp_path / "logs"
  keras = start("--rnn", "keras", "--epochs", "25", "--logdir", str(logdir))
  cells = start("--rnn", "cells", "--layer_sizes", "48", "--epochs", "25")
  check(finish(keras), 25)
  check(finish(cells), 25)

  acc = ea.EventAccumulator(str(logdir), size_guidance={ea.SCALARS: 0})
  acc.Reload()
  assert sorted(acc.Tags()["scalars"]) == ["loss", "test_loss"]
  # Recorded after `minimize` advanced the global step, when it is a multiple of --log_every.
  assert [e.step for e in acc.Scalars("loss")][:3] == [10, 20, 30]
  assert len(acc.Scalars("test_loss")) == 25
