"""`tfe-run examples/contrib/gan.py`: both GAN players learn, summaries are written, and a
second run restored from the checkpoint reproduces the generator's output."""
import os
import re

import pytest
from tensorboard.backend.event_processing import event_accumulator as ea

import script_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "contrib", "gan.py")
STEP_LINE = re.compile(
    r"step (\d+): discriminator loss ([\d.]+), generator loss ([\d.]+), D\(real\) ([\d.]+), "
    r"D\(fake\) ([\d.]+), mean-image distance ([\d.]+)")
SAMPLE_LINE = re.compile(r"generated images: shape \((\d+), (\d+), (\d+), (\d+)\), "
                         r"min ([\d.]+), max ([\d.]+), sum ([\d.]+)")

pytestmark = pytest.mark.slow


def run(*flags):
  return script_runs.run(SCRIPT, *flags)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  base = tmp_path_factory.mktemp("gan")
  common = ["--checkpoint_dir", str(base / "ckpt")]
  trained = run("--steps", "80", "--batch_size", "32", "--log_every", "10",
                "--logdir", str(base / "logs"), *common)
  restored = run("--steps", "0", *common)
  return {"base": base, "trained": trained, "restored": restored}


def test_losses_move_as_a_gan_learns(runs):
  rows = [tuple(float(v) for v in m.groups()) for m in STEP_LINE.finditer(runs["trained"])]
  assert [int(r[0]) for r in rows] == [1] + list(range(10, 81, 10))
  first, later = rows[0], rows[1:]
  # At the start the discriminator cannot tell real from generated: both near 0.5, and the
  # losses near their chance values (2 log 2 with label smoothing, log 2).
  assert abs(first[3] - 0.5) < 0.05 and abs(first[4] - 0.5) < 0.05
  assert 1.3 < first[1] < 1.5 and 0.6 < first[2] < 0.75
  # The discriminator learns first: its loss falls, the generator's rises, real images
  # score higher than generated ones.
  assert min(r[1] for r in later) < first[1] - 0.4
  assert max(r[2] for r in later) > first[2] + 0.4
  assert all(r[3] > r[4] for r in later)
  # The generator learns too: its mean image moves towards the mean digit.
  assert min(r[5] for r in later) < 0.75 * first[5] and later[-1][5] < first[5]


def test_generated_images_have_the_image_shape_and_pixel_range(runs):
  (sample,) = SAMPLE_LINE.findall(runs["trained"])
  assert tuple(int(v) for v in sample[:4]) == (16, 8, 8, 1)
  low, high = float(sample[4]), float(sample[5])
  assert 0.0 <= low < 0.1 and 0.9 < high <= 1.0  # sigmoid pixels use most of (0, 1)


def test_summaries_are_written_every_log_every_steps(runs):
  acc = ea.EventAccumulator(str(runs["base"] / "logs"),
                            size_guidance={ea.SCALARS: 0, ea.IMAGES: 0})
  acc.Reload()
  assert set(acc.Tags()["scalars"]) == {"discriminator_loss", "generator_loss"}
  # Written before each step's update increments the global step: at steps 0, 10, ..., 70.
  steps = [e.step for e in acc.Scalars("generator_loss")]
  assert steps == list(range(0, 80, 10))
  # max_images=4: one tag per image, as TF's image summaries name them.
  assert sorted(acc.Tags()["images"]) == ["generated/image/%d" % i for i in range(4)]
  images = acc.Images("generated/image/3")
  assert [e.step for e in images] == steps and (images[0].width, images[0].height) == (8, 8)


def test_restored_generator_reproduces_its_output(runs):
  ckpt = runs["base"] / "ckpt" / "ckpt-1"
  assert "Saved %s" % ckpt in runs["trained"]
  assert runs["restored"].startswith("Restored %s at global step 80\n" % ckpt)
  assert "Trained" not in runs["restored"]
  assert SAMPLE_LINE.findall(runs["restored"]) == SAMPLE_LINE.findall(runs["trained"])
