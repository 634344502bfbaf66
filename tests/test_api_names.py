"""Every TF name the official eager examples use (../shared/api_usage.txt) exists, except the
namespaces later milestones build (listed in LATER, shrinking as they land)."""
import os
import re

import pytest

import tfe_compat as tf

API_USAGE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "shared",
                         "api_usage.txt")

LATER = (  # Estimator/TPU graph-mode APIs are out of the eager scope.
    "tf.estimator.", "tf.contrib.estimator.", "tf.contrib.tpu.", "tf.contrib.cluster_resolver.",
)


def _names():
  names = []
  with open(API_USAGE, encoding="utf-8") as f:
    for line in f:
      ranked = re.match(r"\s*\d+\.\s+(\S+)", line)
      if ranked:
        names.append(ranked.group(1))
      elif line.startswith("tf."):
        names.extend(n.strip() for n in line.split(",") if n.strip())
  return names


@pytest.mark.skipif(not os.path.exists(API_USAGE), reason="shared/ is not beside the checkout")
def test_foundation_names_exist():
  missing = []
  for name in _names():
    if name.startswith(LATER):
      continue
    parts = name.split(".")
    obj = tf.contrib.eager if parts[0] == "tfe" else tf
    try:
      for part in parts[1:]:
        obj = getattr(obj, part)
    except AttributeError:
      missing.append(name)
  assert not missing


def test_no_name_is_exported_twice_with_different_objects():
  from tfe_compat.framework import api  # pylint: disable=import-outside-toplevel
  first = {}
  clashes = []
  for name, obj in api._registry:  # pylint: disable=protected-access
    if name in first and first[name] is not obj:
      clashes.append(name)
    first.setdefault(name, obj)
  assert not clashes
