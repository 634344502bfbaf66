"""`tfe-run examples/contrib/linear_regression.py` fits W and B to noisy synthetic points.

Two runs start at once: implicit gradients with TensorBoard summaries, and a GradientTape run
on other true weights (the values of TF's own linear_regression_test).
"""
import os
import re

import numpy as np
import pytest
from tensorboard.backend.event_processing import event_accumulator as ea

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "linear_regression.py")

pytestmark = pytest.mark.slow  # two processes, ~10 s on an idle 2-core machine


def start(*flags):
  return script_runs.start(SCRIPT, *flags)


finish = script_runs.finish


def parse(stdout):
  steps = [(int(s), float(v)) for s, v in re.findall(r"Step (\d+): loss = ([\d.]+)", stdout)]
  w = re.search(r"Fitted W = \[([^\]]*)\]", stdout)[1]
  b = re.search(r"Fitted B = (-?[\d.]+)", stdout)[1]
  return steps, np.array([float(v) for v in w.split(",")]), float(b)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  logdir = tmp_path_factory.mktemp("linreg")
  implicit = start("--num_batches", "60", "--logdir", str(logdir))
  tape = start("--tape", "--true_w", "1,-0.5,2", "--true_b", "1", "--noise", "0",
               "--num_batches", "40", "--log_every", "5")
  return {"implicit": finish(implicit), "tape": finish(tape), "logdir": logdir}


def test_implicit_gradients_fit_the_true_weights(runs):
  out = runs["implicit"]
  assert out.startswith("True W = [-2.0, 4.0, 1.0], B = 0.500; training on /")
  steps, w, b = parse(out)
  assert [s for s, _ in steps] == [0, 10, 20, 30, 40, 50]
  losses = [v for _, v in steps]
  assert losses[0] > 5.0 and losses[-1] < 0.001 * losses[0]
  assert losses[2] < losses[1] < losses[0]
  assert "Final loss = " in out and "after 60 steps" in out
  np.testing.assert_allclose(w, [-2.0, 4.0, 1.0], atol=0.01)
  assert abs(b - 0.5) < 0.01


def test_loss_summaries_reach_tensorboard(runs):
  acc = ea.EventAccumulator(str(runs["logdir"]), size_guidance={ea.SCALARS: 0})
  acc.Reload()
  events = acc.Scalars("loss")
  assert [e.step for e in events] == list(range(60))
  printed = dict(parse(runs["implicit"])[0])
  assert events[0].value == pytest.approx(printed[0], abs=1e-6)
  assert events[50].value == pytest.approx(printed[50], abs=1e-6)


def test_gradient_tape_fits_noiseless_points(runs):
  steps, w, b = parse(runs["tape"])
  assert [s for s, _ in steps] == list(range(0, 40, 5))
  assert steps[-1][1] < 0.01 * steps[0][1]
  # TF's linear_regression_test asks for rtol=1e-2 after 40 batches of 64 points.
  np.testing.assert_allclose(w, [1.0, -0.5, 2.0], rtol=1e-2)
  assert b == pytest.approx(1.0, rel=1e-2)
