"""Bad-input conformance: every case of tests/bad_inputs/cases.py (arguments TensorFlow rejects)
runs on tfe_compat and must raise the exception type real TensorFlow raised, as recorded in
tests/bad_inputs/golden.json by tests/bad_inputs/record_golden.py (run by hand under real TF; CI
needs no TensorFlow).

A case matches when our exception's class (or one of its bases) has the name of TF's: TF's
`tf.errors.X` is `tfe_compat.errors.X`, TF's ValueError / TypeError / ... are Python's. Where TF
returned normally ("OK") we must too. Where TF itself crashed ("CRASH") any exception matches.

The suite records the current state: KNOWN_MISMATCHES lists the cases that do not match yet, as
{case: (TF's type, our type)}. The tests fail on a regression (a case outside the list that does
not match), on a listed case that now matches (remove it from the list), or on a listed case
whose outcome changed (update its entry). "OK" as our type is a silent result: TF raises, we
return a value.

    python tests/test_bad_inputs.py            # the full report, grouped by kind
    python tests/test_bad_inputs.py --known    # KNOWN_MISMATCHES as it should read now
    python tests/test_bad_inputs.py NAME...    # run some cases and show both sides
"""
import json
import os
import re
import sys
import threading
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bad_inputs import cases as bad_cases  # noqa: E402  pylint: disable=wrong-import-position
from bad_inputs import harness  # noqa: E402  pylint: disable=wrong-import-position

# The match rate may only go up: raise this as mismatches are fixed.
MIN_MATCH_RATE = 0.98

KNOWN_MISMATCHES = {
    # Silent results (TF raises, we return a value)
    # TF 1.15 semantics (our default): Tensors are hashable until tf.enable_tensor_equality();
    # the golden was recorded in TF 2, where they are not.
    'convert.tensor_hash': ('TypeError', 'OK'),
    # We raise where TF returns a value
    # TF 2.21 wraps the depth 2**40 to int32 (0) and returns [2, 0]; we refuse the 8 TB tensor.
    'huge.one_hot_huge_depth': ('OK', 'ResourceExhaustedError'),
    'tape.output_gradients_wrong_shape': ('OK', 'InvalidArgumentError'),
    'tape.output_gradients_wrong_rank': ('OK', 'InvalidArgumentError'),
    'tape.output_gradients_wrong_count': ('OK', 'ValueError'),
    'function.tape_output_gradients_wrong_shape': ('OK', 'InvalidArgumentError'),
    # Wrong exception type
    # TF 1.15's non_max_suppression_padded runs the V4 kernel (InvalidArgumentError, as ours);
    # TF 2.21 reshapes in Python first (ValueError).
    'image.nms_padded_mismatch': ('ValueError', 'InvalidArgumentError'),
    # TF 2.21 means to raise our TypeError ("The `map_func` argument must return a `Dataset`"),
    # but formatting it reprs the traced Tensor, which fails (AttributeError '_name').
    'data.interleave_not_dataset': ('AttributeError', 'TypeError'),
    'data.flat_map_not_dataset': ('AttributeError', 'TypeError'),
    # TF 1.15 converts a None element to a tensor ("None values not supported.", as ours);
    # TF 2.21 makes it an empty structure, which the dataset op's attribute check refuses.
    'data.from_tensors_none': ('InvalidArgumentError', 'ValueError'),
    'data.map_returns_none': ('InvalidArgumentError', 'ValueError'),
}


# ---------------------------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------------------------
def _reset_eager_state():
  """What tests/conftest.py does between tests: eager, no graph entered."""
  from tfe_compat.framework import context  # pylint: disable=import-outside-toplevel
  if not context.eager_default[0] or context.ctx.graph_stack:
    context.eager_default[0] = True
    context.ctx.graph_stack = []
    context.refresh_mode(context.ctx)


def run_cases(names=None):
  """{case name: outcome} on tfe_compat: in-process (each case guarded), except isolated cases,
  which run in a memory-limited subprocess alongside."""
  selected = [c for c in bad_cases.CASES if names is None or c.name in names]
  results = {}
  isolated = [c.name for c in selected if c.isolate]
  worker = threading.Thread(target=lambda: results.update(harness.run_isolated("tfe", isolated)))
  worker.start()
  tf = harness.load_backend("tfe")
  for c in selected:
    if not c.isolate:
      results[c.name] = harness.run_case(c, tf)
      _reset_eager_state()
  worker.join()
  return results


def load_golden():
  with open(harness.GOLDEN_PATH) as f:
    return json.load(f)


def matches(tf_record, our_record):
  tf_type, our_type = tf_record["type"], our_record["type"]
  if tf_type in ("CRASH", "TIMEOUT"):  # TF itself died: raising anything is right
    return our_type not in ("OK", "CRASH", "TIMEOUT")
  if tf_type == "OK" or our_type in ("OK", "CRASH", "TIMEOUT"):
    return tf_type == our_type
  return our_type == tf_type or tf_type in our_record.get("mro", ())


def kind_of_mismatch(tf_record, our_record):
  tf_type, our_type = tf_record["type"], our_record["type"]
  if our_type == "OK":
    return "silent"  # TF raises, we return a value
  if our_type in ("CRASH", "TIMEOUT"):
    return "crash"
  if tf_type == "OK":
    return "raises"  # TF returns, we raise
  return "type"


KINDS = [
    ("silent", "Silent results (TF raises, we return a value)"),
    ("crash", "Crashes (our process died or hung)"),
    ("raises", "We raise where TF returns a value"),
    ("type", "Wrong exception type"),
]


def compare(golden, ours):
  """(matched names, {name: kind} of mismatches)."""
  matched, mismatched = [], {}
  for name, our_record in ours.items():
    if name not in golden:  # test_golden_has_every_case reports it
      continue
    if matches(golden[name], our_record):
      matched.append(name)
    else:
      mismatched[name] = kind_of_mismatch(golden[name], our_record)
  return matched, mismatched


def _short(text, limit):
  return text if len(text) <= limit else text[:limit - 3] + "..."


def _side(record):
  if record["type"] == "OK":
    return "OK -> %s" % record.get("result", "?")
  return "%s: %s" % (record["type"], record.get("message", ""))


def report(golden, ours):
  matched, mismatched = compare(golden, ours)
  lines = ["bad-input conformance: %d/%d cases match TF's exception type (%.1f%%)"
           % (len(matched), len(ours), 100.0 * len(matched) / max(len(ours), 1))]
  for kind, title in KINDS:
    names = [n for n in ours if mismatched.get(n) == kind]
    lines.append("")
    lines.append("%s: %d" % (title, len(names)))
    for name in names:
      lines.append("  %s" % name)
      lines.append("    call: %s" % _short(bad_cases.source_of(name), 240))
      lines.append("    TF:   %s" % _side(golden[name]))
      lines.append("    ours: %s" % _side(ours[name]))
  jax_names = jax_internals_in_messages(ours)
  lines.append("")
  lines.append("Messages showing JAX internals (matched or not): %d" % len(jax_names))
  for name in jax_names:
    lines.append("  %s [%s]" % (name, "match" if name in matched else mismatched[name]))
    lines.append("    TF:   %s" % _side(golden[name]))
    lines.append("    ours: %s" % _side(ours[name]))
  return "\n".join(lines)


_JAX_INTERNALS = re.compile(r"functools\.partial|abstract array|jaxpr|\bjax\b|JAX|VJP|Traced<|"
                            r"ShapedArray|XlaRuntimeError|JaxRuntimeError|ConcretizationTypeError")


def jax_internals_in_messages(ours):
  """Cases whose exception message (ours) shows JAX internals instead of TF's words."""
  return [n for n, r in ours.items() if r["type"] not in ("OK", "CRASH", "TIMEOUT")
          and _JAX_INTERNALS.search("%s %s" % (r["type"], r.get("message", "")))]


def known_mismatches_source(golden, ours):
  _, mismatched = compare(golden, ours)
  out = ["KNOWN_MISMATCHES = {"]
  for kind, title in KINDS:
    names = [n for n in ours if mismatched.get(n) == kind]
    if names:
      out.append("    # %s" % title)
    for name in names:
      out.append("    %r: (%r, %r)," % (name, golden[name]["type"], ours[name]["type"]))
  out.append("}")
  return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def outcome():
  golden = load_golden()
  start = time.time()
  ours = run_cases()
  print("\n%d bad-input cases in %.1f s" % (len(ours), time.time() - start))
  print(report(golden, ours))
  return golden, ours


def test_golden_has_every_case():
  golden = load_golden()
  names = [c.name for c in bad_cases.CASES]
  missing = [n for n in names if n not in golden]
  stale = sorted(set(golden) - set(names))
  assert not missing and not stale, (
      "golden.json is out of date: run tests/bad_inputs/record_golden.py under real TF "
      "(missing %s, stale %s)" % (missing, stale))


def test_known_mismatches_are_cases():
  names = {c.name for c in bad_cases.CASES}
  assert not sorted(set(KNOWN_MISMATCHES) - names)


def test_no_new_mismatches(outcome):
  golden, ours = outcome
  _, mismatched = compare(golden, ours)
  new = {n: k for n, k in mismatched.items() if n not in KNOWN_MISMATCHES}
  assert not new, "bad-input cases that no longer match TF:\n" + "\n".join(
      "  %s [%s]\n    TF:   %s\n    ours: %s" % (n, k, _side(golden[n]), _side(ours[n]))
      for n, k in new.items())


def test_known_mismatches_are_current(outcome):
  golden, ours = outcome
  fixed, changed = [], []
  for name, (tf_type, our_type) in KNOWN_MISMATCHES.items():
    if name not in ours:
      continue
    if matches(golden[name], ours[name]):
      fixed.append(name)
    elif (golden[name]["type"], ours[name]["type"]) != (tf_type, our_type):
      changed.append("%s: listed as %s, now %s" % (
          name, (tf_type, our_type), (golden[name]["type"], ours[name]["type"])))
  assert not fixed, "fixed, remove from KNOWN_MISMATCHES: %s" % fixed
  assert not changed, "update KNOWN_MISMATCHES:\n  " + "\n  ".join(changed)


def test_match_rate(outcome):
  golden, ours = outcome
  matched, mismatched = compare(golden, ours)
  rate = len(matched) / len(ours)
  silent = sorted(n for n, k in mismatched.items() if k == "silent")
  print("match rate %.1f%% (%d/%d); silent results: %d %s"
        % (100 * rate, len(matched), len(ours), len(silent), silent))
  assert rate >= MIN_MATCH_RATE, report(golden, ours)


if __name__ == "__main__":
  _golden = load_golden()
  _args = sys.argv[1:]
  _names = [a for a in _args if not a.startswith("--")] or None
  _ours = run_cases(_names)
  if "--known" in _args:
    print(known_mismatches_source(_golden, _ours))
  elif _names:
    for _n in _names:
      print("%s\n  TF:   %s\n  ours: %s  [%s]" % (_n, _side(_golden[_n]), _side(_ours[_n]),
                                                 "match" if matches(_golden[_n], _ours[_n])
                                                 else "MISMATCH"))
  else:
    print(report(_golden, _ours))
