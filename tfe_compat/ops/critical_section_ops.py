"""`tf.CriticalSection`: runs functions one at a time across Python threads.

Under eager execution TF 1.15 locks a mutex around `fn()`; a nested `execute` on the same
section deadlocks there, and TF 2 raises a ValueError instead, which tfe_compat follows.
Sections built with the same `shared_name` share one lock, as they share TF's mutex. The
lock is a host lock, so inside a compiled `tf.function` the function runs eagerly.
"""
import threading

import jax

from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops
from tfe_compat.ops.tensor_array_ops import TensorArray

_ctx = context.ctx
_shared_locks = {}  # shared_name -> lock
_shared_locks_lock = threading.Lock()
_running = threading.local()  # .signatures: the sections this thread is executing in


@export("CriticalSection")
class CriticalSection:
  """`execute(fn)` runs `fn()` while no other thread runs a function in this section."""

  def __init__(self, name=None, shared_name=None, critical_section_def=None,
               import_scope=None):
    if critical_section_def and name is not None:
      raise ValueError("critical_section_def and shared_name are mutually exclusive.")
    if critical_section_def:
      raise NotImplementedError("Not yet implemented")
    if shared_name:
      with _shared_locks_lock:
        self._lock = _shared_locks.setdefault(shared_name, threading.Lock())
    else:
      self._lock = threading.Lock()
    device = context.current_device() or jax.devices()[0]
    self._signature = ("", shared_name or id(self), device_lib.tf_name(device))

  @property
  def name(self):
    raise AttributeError("Tensor.op is meaningless when eager execution is enabled.")

  def execute(self, fn, exclusive_resource_access=True, name=None):
    """The result of `fn()` (its Tensors passed through tf.identity), run under the lock."""
    if _ctx.traced_rng is not None:
      raise context.NotTraceable("CriticalSection.execute locks on the host and cannot be "
                                 "compiled")
    stack = _running.__dict__.setdefault("signatures", [])
    if self._signature in stack:
      raise ValueError("Attempting to lock a CriticalSection (signature=%s) in which we are "
                       "already running. This is illegal and may cause deadlocks."
                       % (self._signature,))
    stack.append(self._signature)
    try:
      with self._lock:
        result = fn()
    finally:
      stack.pop()
    return jax.tree_util.tree_map(_identity, result)


def _identity(value):
  if isinstance(value, TensorArray):
    return value.identity()
  return array_ops.identity(value)
