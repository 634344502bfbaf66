"""`tfe.add_execution_callback`, `tfe.seterr`, ... (TF 1.15's eager execution callbacks):
functions called with `(op_type, inputs, attrs, outputs, op_name)` after every op that runs
eagerly; `inf_nan_callback` and its specializations check the outputs for inf and NaN."""
import contextlib
import enum
import functools
import logging

import numpy as np

from tfe_compat.framework import ops
from tfe_compat.framework.api import export


@export("contrib.eager.ExecutionCallback")
class ExecutionCallback(enum.Enum):
  """What a callback does on an event (e.g. an op outputs NaN)."""
  IGNORE = "ignore"
  PRINT = "print"
  RAISE = "raise"
  WARN = "warn"


_DEFAULT_CALLBACK_ACTION = ExecutionCallback.RAISE


class InfOrNanError(Exception):
  """An op's output contains inf and/or NaN."""

  def __init__(self, op_type, op_name, output_index, num_outputs, value):
    self._op_type = op_type
    self._op_name = op_name
    self._output_index = output_index
    self._num_outputs = num_outputs
    self._value = value
    self._total_count = np.size(value)
    self._inf_count = np.count_nonzero(np.isinf(value))
    self._nan_count = np.count_nonzero(np.isnan(value))
    super().__init__(self._get_error_message())

  def _get_error_message(self):
    name_str = ("'%s'" % self._op_name) if self._op_name is not None else str(self._op_name)
    msg = "Output %d of %d of TFE operation %s (name: %s) contains " % (
        self._output_index + 1, self._num_outputs, self._op_type, name_str)
    if self._inf_count and self._nan_count:
      msg += "%d inf(s) and %d nan(s) " % (self._inf_count, self._nan_count)
    elif self._inf_count:
      msg += "%d inf(s) " % self._inf_count
    else:
      msg += "%d nan(s) " % self._nan_count
    return msg + "out of a total of %d element(s). Tensor value: %s" % (self._total_count,
                                                                        self._value)

  op_type = property(lambda self: self._op_type)
  op_name = property(lambda self: self._op_name)
  output_index = property(lambda self: self._output_index)
  num_outputs = property(lambda self: self._num_outputs)
  value = property(lambda self: self._value)


@export("contrib.eager.inf_nan_callback")
def inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=True, check_nan=True,
                     action=_DEFAULT_CALLBACK_ACTION):
  """Acts on (by default raises InfOrNanError for) inf or NaN in floating outputs."""
  del attrs, inputs
  action = ExecutionCallback(action)
  for index, output in enumerate(outputs):
    if not (output.dtype.is_floating or output.dtype.is_complex):
      continue
    value = output.numpy()
    inf_detected = check_inf and np.any(np.isinf(value))
    nan_detected = check_nan and np.any(np.isnan(value))
    if not inf_detected and not nan_detected:
      continue
    error = InfOrNanError(op_type, op_name, index, len(outputs), value)
    if action == ExecutionCallback.PRINT:
      print("Warning: %s" % str(error))
    elif action == ExecutionCallback.WARN:
      logging.getLogger("tensorflow").warning(str(error))
    elif action == ExecutionCallback.RAISE:
      raise error
    else:
      raise ValueError("Invalid action for inf_nan_callback: %s. Valid actions are: "
                       "{PRINT | WARN | RAISE}" % action)


@export("contrib.eager.inf_callback")
def inf_callback(op_type, inputs, attrs, outputs, op_name, action=_DEFAULT_CALLBACK_ACTION):
  """`inf_nan_callback` checking for infs only."""
  inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=True, check_nan=False,
                   action=action)


@export("contrib.eager.nan_callback")
def nan_callback(op_type, inputs, attrs, outputs, op_name, action=_DEFAULT_CALLBACK_ACTION):
  """`inf_nan_callback` checking for NaNs only."""
  inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=False, check_nan=True,
                   action=action)


@export("contrib.eager.add_execution_callback")
def add_execution_callback(callback):
  """Calls `callback(op_type, inputs, attrs, outputs, op_name)` after every eager op
  (callbacks run in the order added; ops inside tf.function traces are not seen)."""
  ops.post_execution_callbacks.append(callback)


@export("contrib.eager.clear_execution_callbacks")
def clear_execution_callbacks():
  del ops.post_execution_callbacks[:]


def _is_inf_nan_callback(callback):
  return callback == inf_nan_callback or (isinstance(callback, functools.partial) and
                                          callback.func == inf_nan_callback)


@export("contrib.eager.seterr")
def seterr(inf_or_nan=None):
  """Sets the action on inf/NaN outputs (an ExecutionCallback or its value; None keeps it);
  returns the old settings as a dict."""
  inf_or_nan = ExecutionCallback(inf_or_nan) if inf_or_nan is not None else None
  old_settings = {"inf_or_nan": ExecutionCallback.IGNORE}
  carryover = []
  for callback in ops.post_execution_callbacks:
    if _is_inf_nan_callback(callback):
      if callback == inf_nan_callback:
        old_settings["inf_or_nan"] = _DEFAULT_CALLBACK_ACTION
      else:
        old_settings["inf_or_nan"] = callback.keywords.get("action", _DEFAULT_CALLBACK_ACTION)
    elif inf_or_nan is not None:
      carryover.append(callback)
  if inf_or_nan is not None:
    ops.post_execution_callbacks[:] = carryover
    if inf_or_nan != ExecutionCallback.IGNORE:
      ops.post_execution_callbacks.append(functools.partial(inf_nan_callback,
                                                            action=inf_or_nan))
  return old_settings


@export("contrib.eager.errstate")
@contextlib.contextmanager
def errstate(inf_or_nan=None):
  """`seterr(inf_or_nan)` for the duration of the block."""
  old_settings = seterr(inf_or_nan=inf_or_nan)
  yield
  seterr(**old_settings)
