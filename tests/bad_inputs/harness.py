"""Runs bad-input cases (cases.py) on one backend and describes what happened.

Shared by `record_golden.py` (real TensorFlow, /work/tfvenv) and `tests/test_bad_inputs.py`
(tfe_compat). This module never imports TensorFlow itself: `load_backend("tf")` does, and only
when asked to.

Run as a script it is the subprocess worker for isolated cases (those that might abort the
interpreter or eat memory): `python harness.py BACKEND MEM_GIB NAME...` sets RLIMIT_AS, runs
the named cases one after another and prints one JSON line per case as it finishes, so the
parent knows which case a crash belongs to.
"""
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS_DIR = os.path.dirname(HERE)
GOLDEN_PATH = os.path.join(HERE, "golden.json")

ISOLATED_MEM_GIB = 8  # RLIMIT_AS of an isolated case's worker process
ISOLATED_TIMEOUT_S = 60  # per isolated case; a timeout is recorded as "TIMEOUT"


def load_backend(name):
  """The module the cases are written against: `tf.compat.v1` of real TensorFlow (eager, the
  TF 2.x default, with tf-keras as `tf.keras`), or `tfe_compat` (TF 1.15's API)."""
  if name == "tf":
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    # TF's own (Eigen) CPU kernels: oneDNN's crash or return bogus shapes on some bad calls
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    import tensorflow  # pylint: disable=import-outside-toplevel
    return tensorflow.compat.v1
  if name == "tfe":
    import tfe_compat  # pylint: disable=import-outside-toplevel
    return tfe_compat
  raise ValueError("backend must be 'tf' or 'tfe', not %r" % (name,))


def force(x, depth=0):
  """Evaluates whatever a case returned, so errors raised lazily surface: tensors and variables
  through `.numpy()`, sparse tensors through their parts, datasets by iterating them (at most 100
  elements), containers element by element."""
  if depth > 8 or x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
    return x
  if isinstance(x, (list, tuple)):
    return type(x)(force(e, depth + 1) for e in x) if type(x) in (list, tuple) else x
  if isinstance(x, dict):
    return {k: force(v, depth + 1) for k, v in x.items()}
  if any("Dataset" in c.__name__ for c in type(x).__mro__) and hasattr(x, "__iter__"):
    out = []
    for i, e in enumerate(x):
      out.append(force(e, depth + 1))
      if i >= 99:
        break
    return out
  if all(hasattr(x, a) for a in ("indices", "values", "dense_shape")):
    force(x.indices, depth + 1), force(x.values, depth + 1), force(x.dense_shape, depth + 1)
    return x
  numpy = getattr(x, "numpy", None)
  if callable(numpy) and not isinstance(x, type):
    numpy()
  return x


def describe(x):
  """A short description of a case's result: dtype and shape of a tensor, else the type."""
  dtype, shape = getattr(x, "dtype", None), getattr(x, "shape", None)
  if dtype is not None and shape is not None:
    try:
      shape = tuple(None if d is None else int(d) for d in
                    (shape.as_list() if hasattr(shape, "as_list") else shape))
    except (TypeError, ValueError):
      pass
    return "%s %s" % (getattr(dtype, "name", dtype), shape)
  if isinstance(x, (list, tuple)):
    return "%s[%s]" % (type(x).__name__, ", ".join(describe(e) for e in x[:4])
                       + (", ..." if len(x) > 4 else ""))
  return type(x).__name__


_FUNCTION_NODE = re.compile(r"\{\{function_node [^}]*\}\}\s*")


def clean_message(exc, limit=300):
  """An exception's message on one line, without TF's `{{function_node ...}}` prefix."""
  try:
    msg = str(exc)
  except Exception:  # pylint: disable=broad-except
    msg = "<unprintable %s>" % type(exc).__name__
  if msg.startswith(("in user code:", "Graph execution error:")):
    # tf.function's errors: a traceback of the user's code, then the error itself
    blocks = [b for b in msg.split("\n\n") if b.strip()]
    msg = "%s %s" % (blocks[0].strip(), blocks[-1].strip()) if len(blocks) > 1 else msg
  msg = " ".join(_FUNCTION_NODE.sub("", msg).split())
  return msg if len(msg) <= limit else msg[:limit - 3] + "..."


def run_case(case, tf):
  """Runs one case, catching everything but KeyboardInterrupt. Returns {"type": exception class
  name or "OK", "message" or "result", "mro": base class names of the exception}."""
  try:
    with warnings.catch_warnings():
      warnings.simplefilter("ignore")
      result = force(case.fn(tf))
  except KeyboardInterrupt:
    raise
  except BaseException as e:  # pylint: disable=broad-except
    mro = [c.__name__ for c in type(e).__mro__[1:]
           if c not in (object, BaseException, Exception)]
    return {"type": type(e).__name__, "message": clean_message(e), "mro": mro}
  return {"type": "OK", "result": describe(result)}


def run_isolated(backend, names, mem_gib=ISOLATED_MEM_GIB, timeout_s=ISOLATED_TIMEOUT_S):
  """Runs the named cases in worker subprocesses limited to `mem_gib` of address space. A case
  whose worker dies is recorded as "CRASH" (with the signal or exit status and the end of its
  stderr), one that runs past `timeout_s` as "TIMEOUT"; the worker restarts for the rest."""
  results, remaining = {}, list(names)
  while remaining:
    with tempfile.TemporaryFile(mode="w+") as err:
      proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), backend, str(mem_gib)]
                              + remaining, stdout=subprocess.PIPE, stderr=err, text=True,
                              cwd=TESTS_DIR)
      lines = queue.Queue()

      def pump(stream=proc.stdout, lines=lines):
        for line in stream:
          lines.put(line)
        lines.put(None)
      threading.Thread(target=pump, daemon=True).start()
      while remaining:
        try:
          line = lines.get(timeout=timeout_s)
        except queue.Empty:
          proc.kill()
          proc.wait()
          results[remaining.pop(0)] = {"type": "TIMEOUT",
                                       "message": "no result after %d s" % timeout_s}
          break
        if line is None:  # the worker died before reporting remaining[0]
          rc = proc.wait()
          err.seek(0)
          tail = " | ".join(l.strip() for l in err.read().splitlines()[-3:] if l.strip())
          why = ("killed by %s" % signal.Signals(-rc).name if rc < 0 else "exit status %d" % rc)
          results[remaining.pop(0)] = {"type": "CRASH",
                                       "message": clean_message("%s: %s" % (why, tail))}
          break
        if not line.startswith("{"):
          continue
        record = json.loads(line)
        if record.get("name") == remaining[0]:
          remaining.pop(0)
          results[record.pop("name")] = record
      else:
        proc.wait()
  return results


def _worker(argv):
  import resource  # pylint: disable=import-outside-toplevel
  backend, mem_gib, names = argv[0], float(argv[1]), argv[2:]
  limit = int(mem_gib * 2**30)
  resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
  sys.path.insert(0, TESTS_DIR)
  from bad_inputs import cases  # pylint: disable=import-outside-toplevel
  by_name = {c.name: c for c in cases.CASES}
  tf = load_backend(backend)
  for name in names:
    record = run_case(by_name[name], tf)
    record["name"] = name
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
  _worker(sys.argv[1:])
