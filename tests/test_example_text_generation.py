"""`tfe-run examples/contrib/text_generation.py`: a character GRU learns
examples/data/lighthouse.txt, survives a checkpoint round trip and samples text of the
requested length from the text's alphabet."""
import os
import re

import pytest

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "text_generation.py")
TEXT = os.path.join(ROOT, "examples", "data", "lighthouse.txt")

pytestmark = pytest.mark.slow  # one process, ~15 s on an idle 2-core machine (GRU compile)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
  model_dir = tmp_path_factory.mktemp("text_generation")
  stdout = script_runs.run(SCRIPT, "--model_dir", model_dir, "--epochs", "15", "--units",
                           "64", "--seq_len", "20", "--num_generate", "60",
                           "--start_string", "The ")
  return stdout, model_dir


def test_reads_the_text_in_stateful_windows(run):
  stdout, _ = run
  with open(TEXT) as f:
    text = f.read()
  assert stdout.startswith("%d characters, %d distinct; (TensorShape([Dimension(16), "
                           "Dimension(20)]), TensorShape([Dimension(16), Dimension(20)]))\n"
                           % (len(text), len(set(text))))


def test_loss_decreases(run):
  losses = [float(v) for v in re.findall(r"^epoch \d+: loss ([\d.]+)", run[0], re.M)]
  assert len(losses) == 15
  assert losses[0] > 3.0  # about log(48 characters) at the start
  assert losses[-1] < 0.6 * losses[0]
  assert losses[-1] < min(losses[:5])


def test_checkpoint_restores_the_same_predictions(run):
  stdout, model_dir = run
  assert re.search(r"saved \S+ckpt-1; restored model's logits differ by 0\n", stdout)
  assert os.path.exists(os.path.join(model_dir, "checkpoint"))
  assert os.path.exists(os.path.join(model_dir, "ckpt-1.index"))


def test_samples_the_requested_length_from_the_alphabet(run):
  stdout, model_dir = run
  with open(os.path.join(model_dir, "sample.txt")) as f:
    sample = f.read()
  with open(TEXT) as f:
    alphabet = set(f.read())
  assert len(sample) == 60
  assert set(sample) <= alphabet
  header = "----- 60 characters after 'The ' at temperature 0.6 -----\n"
  assert header + "The " + sample + "\n" in stdout
