"""Running a script as a user does, `tfe-run script.py --flags`, for the example tests."""
import os
import subprocess
import sys

TFE_RUN = os.path.join(os.path.dirname(sys.executable), "tfe-run")


def start(script, *args):
  """Starts `tfe-run script args...` (each arg passed as str), its output captured."""
  return subprocess.Popen([TFE_RUN, script] + [str(a) for a in args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def outputs(process, timeout=300):
  """(stdout, stderr) of a started script, which must exit 0 (its stderr is the message)."""
  try:
    stdout, stderr = process.communicate(timeout=timeout)
  except subprocess.TimeoutExpired:
    process.kill()
    raise
  assert process.returncode == 0, stderr
  return stdout, stderr


def finish(process, timeout=300):
  """The stdout of a started script, which must exit 0."""
  return outputs(process, timeout)[0]


def run(script, *args, timeout=300):
  """The stdout of `tfe-run script args...`, run to its end; it must exit 0."""
  return finish(start(script, *args), timeout)
