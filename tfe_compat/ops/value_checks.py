"""TF's checks of input values on the CPU: an integer divisor of zero, an index out of range,
a label outside the classes. XLA computes something for these (zeros, clamped indices), so
without the checks a bad input would come back as a plausible number.

A value known at the call (eager execution) is checked on the host at once. In compiled
code (`tf.function`, graph runs, Keras steps, tf.data functions) the computation also
returns whether each check held, and the value checked: the caller (`collecting()`, used by
eager/function.py and client/session.py) raises TF's error from them after the run. A valid
run pays for one reduction per check and a few bytes back. A check inside a traced loop or
branch (whose values cannot leave it) is a staged callback instead, which costs more (JAX
runs programs with host callbacks synchronously). Code that plain `jax.jit` compiles is not
checked.

TF's GPU kernels do not check (an out-of-range gather gives zeros there), so checks run
where TF's would: for arrays on the CPU. `TFE_VALUE_CHECKS=0` turns them all off, for speed.
"""
import contextlib
import os
import threading

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src import core

from tfe_compat.framework import context
from tfe_compat.framework import errors

ENABLED = os.environ.get("TFE_VALUE_CHECKS", "1") != "0"


def _on_cpu(value):
  if isinstance(value, jax.core.Tracer):
    device = context.current_device()
    return (device.platform if device is not None else jax.default_backend()) == "cpu"
  return next(iter(value.devices())).platform == "cpu" if hasattr(value, "devices") else True


def check(tensor, valid, error):
  """Raises `error(array)` unless `valid(array)` holds for the value of `tensor`.

  `valid` must work on NumPy and on traced JAX arrays (write it with operators and
  `.all()` / `.any()`); `error` gets the NumPy value and returns the exception."""
  if not ENABLED or getattr(context.ctx.graph_env, "abstract", False) or (
      context.ctx.graph is not None and context.ctx.graph_env is None):
    return  # a graph being built: the recorded call checks when it runs
  value = tensor._value
  if not _on_cpu(value):
    return
  if not isinstance(value, jax.core.Tracer):
    array = np.asarray(value)
    if not valid(array):
      with errors.at_run_time():
        raise error(array)
    return

  collector = _collectors.stack[-1] if getattr(_collectors, "stack", None) else None
  if collector is None:
    return  # plain jax.jit code
  flag = jnp.asarray(valid(value))
  if getattr(flag, "_trace", None) is collector.trace:
    collector.checks.append((flag, value, error, collector.site))
    return

  def fail(arrays):
    raise error(arrays[0])

  def failing():
    from tfe_compat.ops import logging_ops  # pylint: disable=import-outside-toplevel
    logging_ops.stage([tensor], fail)

  lax.cond(flag, lambda: None, failing)  # inside a traced loop or branch


class Collector:
  """The checks made while one compiled function is traced (`checks`: flag, value, error,
  site); `site` is what the caller says is being traced now (a graph's operation)."""

  def __init__(self):
    self.trace = core.trace_ctx.trace
    self.checks = []
    self.site = None

  def outputs(self):
    """What the traced function returns for its checks: (flags, values)."""
    flags = jnp.stack([c[0] for c in self.checks]) if self.checks else None
    return flags, [c[1] for c in self.checks]

  def failures(self):
    """(error, site) of each check: what `raise_failed` needs after the run."""
    return [(c[2], c[3]) for c in self.checks]


_collectors = threading.local()


@contextlib.contextmanager
def collecting():
  """Collects the checks of the function traced inside (call it inside the trace)."""
  if not hasattr(_collectors, "stack"):
    _collectors.stack = []
  collector = Collector()
  _collectors.stack.append(collector)
  try:
    yield collector
  finally:
    _collectors.stack.pop()


def failed(failures, flags, values):
  """The first check that did not hold after a run, as (exception, site); None if all did."""
  if flags is None:
    return None
  held = np.asarray(flags)
  if held.all():
    return None
  index = int(np.argmin(held))
  error, site = failures[index]
  try:
    with errors.at_run_time():
      exception = error(np.asarray(values[index]))
  except errors.OpError as raised:  # error builders may raise instead of returning
    exception = raised
  return exception, site


def first_position(bad):
  """"[i,j]" of the first True of the boolean array `bad` ("" for a scalar)."""
  if not bad.ndim:
    return ""
  return "[%s]" % ",".join(str(int(i)) for i in np.argwhere(bad)[0])


# ---- Tensors too large to exist: XLA would abort the process, TF raises ----
_MAX_ELEMENTS = 2 ** 63 - 1
_memory = []


def _device_memory():
  """Bytes the default device can hold: its allocator's limit, else the host's memory."""
  if not _memory:
    stats = jax.devices()[0].memory_stats() or {}
    _memory.append(stats.get("bytes_limit") or
                   os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
  return _memory[0]


def check_allocation(dims, op_name, itemsize=4, overflow=None):
  """Refuses a tensor of shape `dims` as TF does: more than 2**63 - 1 elements is an
  InvalidArgumentError (`overflow`(a, b) words it, else TF's Fill message), more bytes than
  the device holds a ResourceExhaustedError (TF's OOM)."""
  count = 1
  for d in dims:
    if count * d > _MAX_ELEMENTS:
      message = overflow(count, d) if overflow else \
          "Shape [%s] would have more than 2**63 - 1 elements" % ",".join(map(str, dims))
      raise errors.invalid_argument("%s [Op:%s]" % (message, op_name))
    count *= d
  if count * itemsize > _device_memory():
    device = jax.devices()[0]
    raise errors.ResourceExhaustedError(
        None, None, "OOM when allocating tensor with shape[%s] and type %s on "
        "/job:localhost/replica:0/task:0/device:%s:0 by allocator %s [Op:%s]"
        % (",".join(map(str, dims)), "float" if itemsize == 4 else "%d-byte" % itemsize,
           device.platform.upper(), device.platform, op_name))
