"""TensorFlow 1.15's public v1 API (its golden API files, tests/data/tf115_api_names.txt):
at least 95% of the module-level names are defined, outside the namespaces that are out of
scope (listed below) and the graph-mode training hooks that the graph-mode work brings."""
import os

import tfe_compat as tf

NAMES = os.path.join(os.path.dirname(__file__), "data", "tf115_api_names.txt")
OUT_OF_SCOPE = ("raw_ops", "lite", "tpu", "profiler", "sysconfig", "xla", "user_ops",
                "estimator", "saved_model", "queue")
SESSION_HOOKS = ("SessionRunArgs", "SessionRunContext", "SessionRunValues", "SessionCreator",
                 "ChiefSessionCreator", "WorkerSessionCreator", "Scaffold", "SessionManager",
                 "CheckpointSaverListener", "SecondOrStepTimer")


def _counted(name):
  parts = name.split(".")[1:]
  if any(part in OUT_OF_SCOPE for part in parts[:-1]):
    return False
  if parts[:1] == ["train"] and (parts[-1].endswith("Hook") or parts[-1] in SESSION_HOOKS):
    return False
  return True


def _defined(name):
  obj = tf
  for part in name.split(".")[1:]:
    obj = getattr(obj, part, _defined)
    if obj is _defined:
      return False
  return True


def test_at_least_95_percent_of_tf115_v1_names_are_defined():
  with open(NAMES, encoding="utf8") as f:
    names = [line.strip() for line in f if line.startswith("tensorflow")]
  counted = [name for name in names if _counted(name)]
  missing = [name for name in counted if not _defined(name)]
  share = 1 - len(missing) / len(counted)
  assert len(counted) > 2200
  assert share >= 0.95, "%.1f%% defined; missing: %s" % (100 * share, " ".join(missing))
