"""Core types: DType, TensorShape, Tensor, the op path, context and devices.

Importing it configures JAX: 64-bit types on, and XLA programs cached on disk across runs
(an eager program compiles each op and tape structure once; the cache makes the next run
of a script skip those compilations). `TFE_COMPILATION_CACHE` names the cache directory
(default `~/.cache/tfe_compat/xla`; past 1 GiB its oldest half is removed, checked on
import at most once a day) or is `0` to turn it off; a cache set up through JAX's own configuration is
left as it is.

Compiled programs held in memory are bounded too (`program_cache.py`: at most
`TFE_PROGRAM_CACHE_SIZE`, default 384, in each cache, least recently used dropped first).
"""
import os
import time

import jax

from tfe_compat.framework import program_cache  # noqa: F401  (bounds program memory)

jax.config.update("jax_enable_x64", True)  # int64/float64 are real; ops pass explicit dtypes


def _persistent_compilation_cache():
  setting = os.environ.get("TFE_COMPILATION_CACHE", "")
  if setting == "0" or jax.config.jax_compilation_cache_dir:
    return
  cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
  path = setting or os.path.join(cache_home, "tfe_compat", "xla")
  try:
    os.makedirs(path, exist_ok=True)
  except OSError:
    return
  if not os.access(path, os.W_OK):
    return
  _trim(path, 2**30)
  jax.config.update("jax_compilation_cache_dir", path)
  jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)


def _trim(path, limit, every=86400):
  """Removes the oldest files of the cache directory down to `limit / 2` bytes once it holds
  more than `limit` (JAX's own size limit rescans the directory on every write). The scan
  runs at most once per `every` seconds (a stamp file's time), not on every import."""
  stamp = os.path.join(path, ".trimmed")
  try:
    if time.time() - os.stat(stamp).st_mtime < every:
      return
  except OSError:
    pass
  with open(stamp, "a"):
    os.utime(stamp)
  entries = [(e.stat().st_mtime, e.stat().st_size, e.path) for e in os.scandir(path)
             if e.is_file() and e.path != stamp]
  total = sum(size for _, size, _ in entries)
  if total <= limit:
    return
  for _, size, file in sorted(entries):
    try:
      os.remove(file)
    except OSError:
      pass
    total -= size
    if total <= limit // 2:
      return


_persistent_compilation_cache()
