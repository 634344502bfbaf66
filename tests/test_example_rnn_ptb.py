"""`tfe-run examples/contrib/rnn_ptb.py`: the word-level LSTM language model learns.

Two tiny runs start at once in separate processes, the LSTMCell/MultiRNNCell model (with
checkpoints) and the `--use_cudnn_rnn` model; a third run restores the first one's checkpoint.
"""
import os
import re

import numpy as np
import pytest

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "rnn_ptb.py")
TINY = ["--seq_len", "6", "--batch_size", "4", "--hidden_dim", "32", "--embedding_dim", "16"]
EPOCH = re.compile(r"epoch (\d+): train perplexity ([\d.]+), valid perplexity ([\d.]+), "
                   r"learning rate ([\d.]+)")

pytestmark = pytest.mark.slow


def start(*flags):
  return script_runs.start(SCRIPT, *TINY, *flags)


finish = script_runs.finish


def initial_perplexity(stdout):
  return float(re.search(r"epoch 0: valid perplexity ([\d.]+)", stdout).group(1))


def check_learning(stdout, lstm):
  assert "vocabulary: 51 words; 3192 training and 331 validation words" in stdout
  assert "logits shape: [24, 51]" in stdout  # [seq_len * batch_size, vocabulary]
  assert "lstm: %s" % lstm in stdout
  epochs = [(int(e), float(t), float(v)) for e, t, v, _ in EPOCH.findall(stdout)]
  assert [e for e, _, _ in epochs] == [1, 2, 3, 4, 5]
  # Untrained, every one of the 51 words is about equally likely: perplexity ~51.
  assert 45 < initial_perplexity(stdout) < 58
  train = [t for _, t, _ in epochs]
  assert train[-1] < 0.5 * train[0]
  assert min(v for _, _, v in epochs) < 10  # the grammar of garden.txt is learned
  sample = re.search(r"sample: (.*)", stdout).group(1).split()
  assert sample[:2] == ["the", "gardener"] and len(sample) == 2 + 8
  return epochs


def test_cells_and_cudnn_models_learn_and_checkpoint_restores(tmp_path):
  model_dir = tmp_path / "model"
  cells = start("--epochs", "5", "--model_dir", str(model_dir))
  cudnn = start("--epochs", "5", "--use_cudnn_rnn")
  cells_out, cudnn_out = finish(cells), finish(cudnn)
  epochs = check_learning(cells_out, "cells")
  check_learning(cudnn_out, "CudnnLSTM")
  saved = re.findall(r"saved (\S+)", cells_out)
  assert saved and all(os.path.exists(path + ".index") for path in saved)
  assert "saved" not in cudnn_out  # no --model_dir, no checkpoint

  resumed = finish(start("--epochs", "0", "--model_dir", str(model_dir)))
  assert "restored %s (learning rate 20.0000)" % saved[-1] in resumed
  best = min(v for _, _, v in epochs)
  np.testing.assert_allclose(initial_perplexity(resumed), best, atol=2e-3)
  assert (re.search(r"sample: .*", resumed).group(0)
          == re.search(r"sample: .*", cells_out).group(0))
