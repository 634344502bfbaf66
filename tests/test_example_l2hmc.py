"""`tfe-run examples/contrib/l2hmc.py`: the learned sampler's loss falls, its acceptance rate
is a probability, and `--compile` (tfe.defun) computes what eager execution computes."""
import os
import re

import numpy as np
import pytest

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "l2hmc.py")
STEP_LINE = re.compile(r"step (\d+): loss (-?[\d.]+), acceptance ([\d.]+), eps ([\d.]+)")
CHAIN_LINE = re.compile(r"chain: (\d+) transitions, acceptance ([\d.]+), sample covariance "
                        r"\[\[(-?[\d.]+), (-?[\d.]+)\], \[(-?[\d.]+), (-?[\d.]+)\]\]")
# One leapfrog step keeps the nested-gradient backward pass quick to compile on a CPU.
SMALL = ["--leapfrogs", "1", "--chains", "100", "--learning_rate", "0.005", "--log_every", "1",
         "--seed", "1"]

pytestmark = pytest.mark.slow


def start(*flags):
  return script_runs.start(SCRIPT, *SMALL, *flags)


finish = script_runs.finish


def steps(out):
  """(step, loss, acceptance, eps) per printed step."""
  return [(int(m[1]), float(m[2]), float(m[3]), float(m[4])) for m in STEP_LINE.finditer(out)]


@pytest.fixture(scope="module")
def runs():
  eager = start("--steps", "60", "--chain_steps", "5")
  compiled = start("--steps", "5", "--chain_steps", "0", "--compile")
  return {"eager": finish(eager), "compiled": finish(compiled)}


def test_training_lowers_the_loss(runs):
  rows = steps(runs["eager"])
  assert [r[0] for r in rows] == list(range(1, 61))
  losses = np.array([r[1] for r in rows])
  # The loss (eq. 8: lambda^2 / jump - jump / lambda^2) is noisy step to step; its level
  # falls as the sampler learns longer jumps.
  assert losses[-10:].mean() < losses[:10].mean() - 15
  assert rows[-1][3] > rows[0][3]  # the learned step size grew


def test_acceptance_rates_are_probabilities(runs):
  rates = [r[2] for r in steps(runs["eager"])]
  assert all(0.0 < a <= 1.0 for a in rates)
  (chain,) = CHAIN_LINE.findall(runs["eager"])
  assert int(chain[0]) == 5 and 0.0 < float(chain[1]) <= 1.0
  cov = np.array([float(v) for v in chain[2:]]).reshape(2, 2)
  assert cov[0, 1] == cov[1, 0] and cov[0, 1] < 0  # the target's correlation is -0.998


def test_compiled_sampler_and_step_match_eager(runs):
  eager, compiled = steps(runs["eager"])[:5], steps(runs["compiled"])
  assert [r[0] for r in compiled] == [1, 2, 3, 4, 5]
  np.testing.assert_allclose([r[1:] for r in compiled], [r[1:] for r in eager], rtol=1e-4)
  assert "Trained 5 steps in" in runs["compiled"] and "(compiled)" in runs["compiled"]
