"""Bounds on the compiled programs held in memory.

Each compiled program costs ~1.4 MB resident on the CPU, and eager ops compile one per new
input shape, so every cache of programs is bounded by `SIZE` (`TFE_PROGRAM_CACHE_SIZE`,
default 384):

- tfe_compat's own caches of jitted or traced functions (an op's jits per static
  attributes, the tape's pullbacks per program structure, tf.function's traces per input
  signature, a Session's runs per run signature, optimizers' updates per rule) are `LRU`
  mappings of at most `SIZE` entries; an evicted entry is traced and compiled again when
  needed (a tf.function retrace counts as one).
- JAX keeps one executable per input shape inside each jitted function (up to 8192 in
  all): after `SIZE` compilations `jax.clear_caches()` drops them; programs in use compile
  again, from the disk cache when it holds them.
"""
import collections
import os

import jax

SIZE = max(1, int(os.environ.get("TFE_PROGRAM_CACHE_SIZE", "384")))


class LRU(collections.OrderedDict):
  """A dict of at most `SIZE` entries (read at each insertion) that drops the least
  recently used one; `get` and assignment count as uses."""

  def get(self, key, default=None):
    try:
      self.move_to_end(key)
    except KeyError:
      return default
    return self[key]

  def __setitem__(self, key, value):
    super().__setitem__(key, value)
    self.move_to_end(key)
    while len(self) > SIZE:
      self.popitem(last=False)


_compiled_since_clear = [0]


def _bound_jax_caches(event, duration, **kwargs):
  """JAX's compile listener: clears JAX's in-memory program caches every SIZE compilations."""
  del duration, kwargs
  if event != "/jax/core/compile/backend_compile_duration":
    return
  _compiled_since_clear[0] += 1
  if _compiled_since_clear[0] >= SIZE:
    _compiled_since_clear[0] = 0
    jax.clear_caches()


jax.monitoring.register_event_duration_secs_listener(_bound_jax_caches)
