"""State TensorFlow keeps globally: eager flag, device scopes, tapes, RNG seeds, name scopes.

Per-thread state (device and name scopes, active tapes, the variable-access scope) lives in
`ctx`, a `threading.local`, as TF's eager context is per thread. Seeds are process-wide.
"""
import contextlib
import os
import random
import sys
import threading

import jax
import numpy as np

from tfe_compat.framework import api
from tfe_compat.framework.api import export


class NotTraceable(TypeError):
  """An op that needs concrete values met traced ones (e.g. a slice bound computed inside a
  compiled function): compiled callers (tf.function, tf.data maps) then run eagerly."""


class _ThreadState(threading.local):
  def __init__(self):
    super().__init__()
    self.tapes = []            # active GradientTapes, innermost last
    self.device_stack = []     # (requested spec string, jax.Device or None)
    self.name_stack = []       # name_scope / variable_scope prefixes
    self.variable_scope = None  # a scope that redirects Variable reads and writes
    self.recording_paused = 0  # >0 while a tape replays (ops and reads are not recorded)
    self.variable_stores = []  # tfe.EagerVariableStore dicts: get_variable reuses by name
    self.traced_rng = None     # inside a tf.function trace: the traced key random ops split
    self.dataset_function = 0  # >0 while a tf.data function runs (py_func: TF's graph outputs)
    self.function_body = False  # tf.function runs the user's code: tensors are symbolic to it
    self.graph_stack = []      # graphs entered with `Graph.as_default()`, innermost last
    self.graph = None          # the graph ops build into (graph mode), else None (eager)
    self.graph_env = None      # while a graph's recorded calls run: their tensors' values
    self.eager_override = False  # host work of a graph run (datasets) executes eagerly
    refresh_mode(self)


eager_default = [True]  # False once a TF 1.x program runs in graph mode (see graph.py)
default_graph = [None]  # the process's default tf.Graph (set by graph.py)


def refresh_mode(state):
  """Sets `state.graph` (and the building hooks) from the graph stack and the eager flag."""
  if state.eager_override:
    graph = None
  elif state.graph_stack:
    graph = state.graph_stack[-1]
  else:
    graph = None if eager_default[0] else default_graph[0]
  state.graph = graph
  if graph is not None:
    api.graph_mode[0] = True
  if state.graph_env is None:
    building = None if graph is None else graph.building
    state.traced_rng = building
    state.variable_scope = building if graph is not None else None


ctx = _ThreadState()


@export("executing_eagerly", "contrib.eager.executing_eagerly")
def executing_eagerly():
  """False in graph mode (TF 1.x's default, or inside `Graph.as_default()`)."""
  return ctx.graph is None


@contextlib.contextmanager
def function_body(symbolic=True):
  """The user's Python function of a tf.function runs (symbolic=True), or a py_function body
  inside it (False): see `symbolic_to_caller`."""
  outer = ctx.function_body
  ctx.function_body = symbolic
  try:
    yield
  finally:
    ctx.function_body = outer


def symbolic_to_caller():
  """Whether the code calling the caller is the user's, inside a tf.function: TF's tensors
  are symbolic there (no `.numpy()`); tfe_compat's own code still reads values."""
  if not ctx.function_body:
    return False
  name = sys._getframe(2).f_globals.get("__name__", "")  # pylint: disable=protected-access
  return name != "tfe_compat" and not name.startswith("tfe_compat.")


def current_device():
  """The jax.Device of the innermost `tf.device` scope, or None."""
  return ctx.device_stack[-1][1] if ctx.device_stack else None


# ---- Random seeds (TF semantics: global seed + op seed, fresh values on every call) ----
# Op seeds drawn for unseeded ops match TF's eager `get_seed` exactly (Python's
# `random.Random(global_seed)`); the values drawn from them are NOT bit-exact with TF's
# Philox streams, only reproducible under the same seeds.
_MAXINT32 = 2**31 - 1


class _Seeds:
  def __init__(self):
    self.global_seed = None
    self.op_seeds = None  # random.Random(global seed): op seeds for ops given none
    self.calls = {}  # (global seed, op seed) -> number of draws so far
    self.fresh = np.random.default_rng(int.from_bytes(os.urandom(8), "little"))

  def reset(self, seed):
    self.global_seed = None if seed is None else int(seed)
    self.op_seeds = None if seed is None else random.Random(self.global_seed)
    self.calls = {}


_seeds = _Seeds()
_seed_lock = threading.Lock()
_DEFAULT_GRAPH_SEED = 87654321


@export("set_random_seed", "random.set_random_seed", "random.set_seed")
def set_random_seed(seed):
  """`tf.set_random_seed`: resets the global seed and the op-seed sequence."""
  with _seed_lock:
    _seeds.reset(seed)


@export("get_seed", "random.get_seed")
def get_seed(op_seed):
  """TF's `random_seed.get_seed`: the (global seed, op seed) pair for one random op."""
  with _seed_lock:
    global_seed = _seeds.global_seed
    if global_seed is not None:
      if op_seed is None:
        op_seed = _seeds.op_seeds.randint(0, _MAXINT32)
      seeds = global_seed % _MAXINT32, _truncate_seed(op_seed)
    elif op_seed is not None:
      seeds = _DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
      return None, None
  return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _truncate_seed(seed):
  """TF's `seed % MAXINT32` (a string seed: its TypeError from string formatting)."""
  return int(seed % _MAXINT32)


rng_draws = 0  # random ops run so far (tf.function notes whether a function draws any)


class TracedKeys:
  """`ctx.traced_rng` inside a trace: random ops split keys off one traced key argument."""

  building = False  # True for the graph-building hook that stands in this place (graph.py)
  op_names = None  # a set of the TF op names run, while a graph call is evaluated

  def __init__(self, key):
    self.key, self.used = key, False

  def next(self, op_seed=None):
    self.used = True
    self.key, sub = jax.random.split(self.key)
    return sub


def next_rng_key(op_seed=None):
  """A fresh raw jax PRNG key (uint32[2] NumPy array) for one random op call, by TF's rules.

  With seeds set, the n-th call with the same (global, op) seeds gets the same key on a
  fresh run, and successive calls get different keys; with none set, keys are random.
  A NumPy key costs ~1 us against ~60 us for `jax.random.PRNGKey`; jax.random takes it.
  """
  global rng_draws  # pylint: disable=global-statement
  rng_draws += 1
  if ctx.traced_rng is not None:  # a compiled function or a graph: fresh values on every call
    return ctx.traced_rng.next(op_seed)
  return seeded_key(op_seed)


def seeded_key(op_seed=None):
  """The next key by TF's seed rules (see `next_rng_key`), outside any trace."""
  global_seed, op_seed = get_seed(op_seed)
  with _seed_lock:
    if global_seed is None:
      seed = int(_seeds.fresh.integers(2**63))
    else:
      count = _seeds.calls.get((global_seed, op_seed), 0)
      _seeds.calls[(global_seed, op_seed)] = count + 1
      seed = ((global_seed * 1000003 + op_seed) * 1000003 + count) % 2**63
  return np.array([seed >> 32, seed & 0xFFFFFFFF], dtype=np.uint32)
