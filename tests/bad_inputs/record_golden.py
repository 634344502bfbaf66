"""Records TensorFlow's answer to every bad-input case: RUN BY HAND, with real TensorFlow.

    TF_USE_LEGACY_KERAS=1 /work/tfvenv/bin/python tests/bad_inputs/record_golden.py [NAME...]

(TensorFlow 2.x with tf-keras; the harness sets TF_USE_LEGACY_KERAS=1 itself.) Each case runs
under `tensorflow.compat.v1` in eager mode, in worker subprocesses limited to
harness.ISOLATED_MEM_GIB of address space with a per-case timeout: a case that kills the worker is
recorded as "CRASH", one that hangs as "TIMEOUT", and the worker restarts for the remaining cases.

Writes tests/bad_inputs/golden.json: {case name: {"type": the exception class name TF raised
(e.g. "InvalidArgumentError", "ValueError") or "OK", "message": TF's message (one line,
shortened) when it raised, "result": dtype and shape of what it returned when "OK"}}. Given case
names, only those entries are re-recorded and the rest of the file is kept. CI never runs this:
tests/test_bad_inputs.py reads the committed golden.json and needs no TensorFlow.
"""
import importlib.util
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bad_inputs import cases, harness  # noqa: E402  pylint: disable=wrong-import-position


def main(argv):
  os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  if importlib.util.find_spec("tensorflow") is None:
    sys.exit("record_golden.py needs real TensorFlow: run it with /work/tfvenv/bin/python")
  names = argv or [c.name for c in cases.CASES]
  unknown = sorted(set(names) - {c.name for c in cases.CASES})
  if unknown:
    sys.exit("unknown cases: %s" % ", ".join(unknown))
  start = time.time()
  results = harness.run_isolated("tf", names)
  golden = {}
  if argv and os.path.exists(harness.GOLDEN_PATH):
    with open(harness.GOLDEN_PATH) as f:
      golden = json.load(f)
  for name in names:
    record = dict(results[name])
    record.pop("mro", None)
    golden[name] = record
  order = {c.name: i for i, c in enumerate(cases.CASES)}
  golden = {k: golden[k] for k in sorted(golden, key=lambda k: order.get(k, len(order)))
            if k in order}
  with open(harness.GOLDEN_PATH, "w") as f:
    json.dump(golden, f, indent=1, sort_keys=False)
    f.write("\n")
  counts = {}
  for record in golden.values():
    counts[record["type"]] = counts.get(record["type"], 0) + 1
  print("%d cases in %.0f s -> %s" % (len(golden), time.time() - start, harness.GOLDEN_PATH))
  for kind, n in sorted(counts.items(), key=lambda kv: -kv[1]):
    print("  %-28s %d" % (kind, n))


if __name__ == "__main__":
  main(sys.argv[1:])
