"""`tfe-run examples/contrib/nmt_with_attention.py`: an attention GRU encoder-decoder learns to
translate Spanish number words into English ones, including numbers it never saw."""
import os
import re

import numpy as np
import pytest

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "nmt_with_attention.py")

pytestmark = pytest.mark.slow  # one process, ~15 s on an idle 2-core machine (compile)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
  model_dir = tmp_path_factory.mktemp("nmt")
  stdout = script_runs.run(SCRIPT, "--model_dir", model_dir, "--epochs", "8",
                           "--batch_size", "64", "--translate", "VEINTITRÉS.")
  return stdout, model_dir


def test_corpus_and_preprocessing(run):
  assert run[0].startswith(
      "980 training pairs, 20 held out; vocabularies 52 and 32 words; "
      "e.g. '<start> cuarenta y siete . <end>' -> '<start> forty seven <end>'\n")


def test_masked_loss_decreases(run):
  losses = [float(v) for v in re.findall(r"^epoch \d+: loss ([\d.]+)", run[0], re.M)]
  assert len(losses) == 8
  assert losses[0] > 1.5 and losses[-1] < 0.25 * losses[0]


def test_restored_model_translates_held_out_numbers(run):
  stdout = run[0]
  assert "translating with a fresh encoder and decoder restored from it" in stdout
  correct, total = map(int, re.search(r"test accuracy: (\d+)/(\d+)", stdout).groups())
  assert total == 20 and correct >= 15
  # Accents and case are normalized away (unicodedata) before the words are looked up.
  assert "'VEINTITRÉS.' -> 'twenty three'; attention:" in stdout


def test_attention_weights_are_distributions_over_the_source(run):
  with np.load(os.path.join(run[1], "attention.npz")) as saved:
    attention = dict(saved)
  assert len(attention) == 20
  for translation, weights in attention.items():
    words = translation.split(" -> ")[1].split()
    # one row per output word, plus the step that produced <end> (at most 6 decoding steps);
    # one column per source word, padding included
    assert weights.shape == (min(len(words) + 1, 6), 7), translation
    assert weights.dtype == np.float32
    assert (weights >= 0).all()
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, atol=1e-5)
