"""`tf.contrib.summary`: TF 1.15's summary_ops_v2 as it behaves when executing eagerly.

The per-thread state (writer.py's `state`), as TF keeps it: the default writer, the
recording condition (`record_if`) and the default step (`tf.summary.experimental.set_step`).
A summary op with no default writer returns None; otherwise it returns a bool Tensor: True
when it recorded, False when the condition said no. Recording queues the value and the step
as they are (device arrays stay on the device; see writer.py); only
`record_summaries_every_n_global_steps` reads the step on the host, once per call, to decide.
"""
import functools
import os
import re
import time

import jax
import jax.numpy as jnp
import numpy as np
from tensorboardX.proto import event_pb2

from tfe_compat import state_ops
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import control_flow_ops
from tfe_compat.summary import encoding
from tfe_compat.summary.writer import state as _state
from tfe_compat.train import training_util

_ctx = context.ctx


SKIP = object()  # "not recording", from record_step
_bools = {}


def bool_tensor(value):
  """The (shared, immutable) scalar bool Tensor True or False."""
  tensor = _bools.get(value)
  if tensor is None:
    tensor = _bools[value] = ops.convert_to_tensor(bool(value))
  return tensor


# ---- Recording conditions ----
class _RecordIf:
  __slots__ = ("_condition", "_old")

  def __init__(self, condition):
    self._condition = condition

  def __enter__(self):
    self._old = _state.is_recording
    _state.is_recording = self._condition

  def __exit__(self, exc_type, exc_value, traceback):
    _state.is_recording = self._old


@export("summary.record_if")
def record_if(condition):
  """Records summaries inside the `with` when `condition` (a bool, bool Tensor or callable)."""
  return _RecordIf(condition)


class _EveryNSteps:
  """The condition `global_step % n == 0`. A step Variable's value is followed on the host
  (state_ops.counter_value); a Tensor's is read once per array."""
  __slots__ = ("global_step", "n", "_array", "_value")

  def __init__(self, global_step, n):
    self.global_step, self.n = global_step, int(n)
    self._array = self._value = None

  def step_value(self):
    step = self.global_step
    if _ctx.variable_scope is None and hasattr(step, "_host_count"):
      return state_ops.counter_value(step)
    if hasattr(step, "_as_tensor"):
      step = state_ops.read(step)  # read as _choose_step reads it
    array = getattr(step, "_value", step)  # a Tensor's array, or a number
    if array is not self._array:
      try:
        self._value = np.asarray(array).item()
      except jax.errors.TracerArrayConversionError:
        raise NotImplementedError("record_summaries_every_n_global_steps cannot decide on a "
                                  "traced global step; record outside tf.function.") from None
      self._array = array
    return self._value

  def __call__(self):
    return bool_tensor(self.step_value() % self.n == 0)


@export("contrib.summary.record_summaries_every_n_global_steps")
def record_summaries_every_n_global_steps(n, global_step=None):
  """Records summaries when `global_step % n == 0` (the global step by default)."""
  if global_step is None:
    global_step = training_util.get_or_create_global_step()
  return _RecordIf(_EveryNSteps(global_step, n))


@export("contrib.summary.always_record_summaries")
def always_record_summaries():
  return _RecordIf(True)


@export("contrib.summary.never_record_summaries")
def never_record_summaries():
  return _RecordIf(False)


def _condition_value(default):
  cond = _state.is_recording
  if cond is None:
    return default
  if callable(cond):
    cond = cond()
  return bool(cond)


@export("contrib.summary.should_record_summaries")
def should_record_summaries():
  """A bool Tensor: a default writer is set and the recording condition holds (default off)."""
  return bool_tensor(_state.writer is not None and _condition_value(False))


@export("summary.experimental.get_step")
def get_step():
  return _state.step


@export("summary.experimental.set_step")
def set_step(step):
  """The default step of tf.summary ops in this thread (an int, Tensor or Variable; None unsets)."""
  _state.step = step


def _choose_step(step, op_name):
  """The step to write: an int or an int64 array (left on the device); the global step if None."""
  if step is None:
    step = training_util.get_global_step()
    if step is None:
      step = training_util.get_or_create_global_step()
    return step._value if _ctx.variable_scope is None else state_ops.read(step)._value
  if type(step) is int:
    return step
  if isinstance(step, Tensor):
    if step.dtype is not dtypes.int64:
      raise errors.invalid_argument(
          "cannot compute %s as input #1(zero-based) was expected to be a int64 tensor but is "
          "a %s tensor [Op:%s]" % (op_name, step.dtype.name, op_name))
    return step._value
  return ops.convert_to_tensor(step, dtype=dtypes.int64)._value


def _is_global_step(variable):
  return variable is training_util.get_global_step()


def record_step(step, default, op_name):
  """The step to record at, or SKIP when the recording condition (or `default`) says no."""
  cond = _state.is_recording
  if type(cond) is _EveryNSteps:
    value = cond.step_value()
    if value % cond.n:
      return SKIP
    if step is cond.global_step or (step is None and _is_global_step(cond.global_step)):
      return value  # the step was read once for the condition
    return _choose_step(step, op_name)
  if cond is None:
    cond = default
  if cond is True:
    return _choose_step(step, op_name)
  if cond is False:
    return SKIP
  if callable(cond):
    cond = cond()
  return _choose_step(step, op_name) if cond else SKIP


# ---- Tags ----
_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")
_tags = {}  # (name, family, name scope) -> tag


def _clean_tag(name):
  return None if name is None else _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")


def _make_tag(name, family, scope):
  name, family = _clean_tag(name), _clean_tag(family)
  base = name if family is None else "%s/%s" % (family, name)
  if not base:
    full = ""  # name_scope("") is the root scope
  elif base.endswith("/"):
    full = base  # an absolute scope name
  else:
    full = scope + base + "/"
  tag = full.rstrip("/")
  return tag if family is None else "%s/%s" % (family, tag)


def scoped_tag(name, family=None):
  """TF 1.x summary_scope's tag: cleaned name in the name scope, `family/` prepended."""
  scope = _ctx.name_stack[-1] if _ctx.name_stack else ""
  key = (name, family, scope)
  tag = _tags.get(key)
  if tag is None:
    if len(_tags) > 10000:
      _tags.clear()
    tag = _tags[key] = _make_tag(name, family, scope)
  return tag


# ---- Values ----
def value_of(tensor):
  """The summary input as an array (a device array stays on the device)."""
  if isinstance(tensor, Tensor):
    return tensor._value
  if type(tensor) is float:
    return np.float32(tensor)
  if isinstance(tensor, (np.ndarray, np.generic)):
    return tensor
  return ops.convert_to_tensor(tensor)._value


def _dtype_set(*names):
  return frozenset(np.dtype(jnp.bfloat16 if n == "bfloat16" else n) for n in names)


_REAL = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16",
         "uint16", "float16", "uint32", "uint64")
SCALAR_DTYPES = _dtype_set(*_REAL)
HISTOGRAM_DTYPES = _dtype_set(*_REAL, "bool")
IMAGE_DTYPES = _dtype_set("uint8", "float64", "float32", "float16")


def check_dtype(value, allowed, op_name):
  """TF's attr check on the input dtype: InvalidArgumentError naming the allowed types."""
  if value.dtype not in allowed:
    names = [dtypes.from_numpy(d).name for d in sorted(allowed, key=str)]
    raise errors.invalid_argument(
        "Value for attr 'T' of %s is not in the list of allowed values: %s [Op:%s]"
        % (dtypes.from_numpy(value.dtype).name, ", ".join(names), op_name))


def check_minimum(attr, value, op_name):
  if value < 1:
    raise errors.invalid_argument("Value for attr '%s' of %d must be at least minimum 1 [Op:%s]"
                                  % (attr, value, op_name))


def check_image_shape(value, op_name, channels=(1, 3, 4)):
  shape = value.shape
  if len(shape) != 4 or shape[-1] not in channels:
    raise errors.invalid_argument("Tensor must be 4-D with last dim 1, 3, or 4, not [%s] [Op:%s]"
                                  % (",".join(str(d) for d in shape), op_name))


def check_audio_shape(value, op_name):
  if len(value.shape) not in (2, 3):
    raise errors.invalid_argument("Tensor must be 3-D or 2-D, got: [%s] [Op:%s]"
                                  % (",".join(str(d) for d in value.shape), op_name))


def enqueue(writer, encode, tag, value, step, params=None):
  """Queues one record on the writer's file (through a host callback when traced)."""
  if isinstance(value, jax.core.Tracer) or isinstance(step, jax.core.Tracer):
    file, every_n, flush = writer._file, _state.every_n, _state.flush_each  # pylint: disable=protected-access

    def add(v, s):
      if every_n is None or int(s) % every_n == 0:
        file.add(encode, tag, np.asarray(v), np.asarray(s), params)
        if flush:
          file.flush()
    jax.debug.callback(add, value, step)
  else:
    writer._file.add(encode, tag, value, step, params)  # pylint: disable=protected-access


@export("contrib.summary.flush", "summary.flush")
def flush(writer=None, name=None):
  """Writes the pending summaries of `writer` (the default writer if None) to its file."""
  if writer is None:
    writer = _state.writer
    if writer is None:
      return None
  writer.flush()
  return None


@export("contrib.summary.eval_dir")
def eval_dir(model_dir, name=None):
  return os.path.join(model_dir, "eval" if not name else "eval_" + name)


@export("contrib.summary.all_summary_ops", "summary.all_v2_summary_ops")
def all_summary_ops():
  """The graph's summary ops (None when executing eagerly: they run when called)."""
  if _ctx.graph is None:
    return None
  return graph_lib.get_default_graph().get_collection(graph_lib.GraphKeys._SUMMARY_COLLECTION)


@export("contrib.summary.initialize", "summary.initialize")
def initialize(graph=None, session=None):
  """Graph mode: runs the writers' initializers and writes `graph` (a no-op when eager)."""
  if _ctx.graph is None:
    return None
  session = session or graph_lib._default_session(None)
  session.run(summary_writer_initializer_op())
  if graph is not None:
    _write_graph(graph.as_graph_def().SerializeToString(), None)
  return None


@export("contrib.summary.summary_writer_initializer_op")
def summary_writer_initializer_op():
  """Graph mode: the writers' initializer ops (event files are opened on creation here)."""
  if _ctx.graph is None:
    raise RuntimeError("tf.contrib.summary.summary_writer_initializer_op is only supported in "
                       "graph mode.")
  graph = graph_lib.get_default_graph()
  ops_list = graph.get_collection("_SUMMARY_WRITER_INIT_OP")
  if not ops_list:
    graph.add_to_collection("_SUMMARY_WRITER_INIT_OP", control_flow_ops.no_op())
    ops_list = graph.get_collection("_SUMMARY_WRITER_INIT_OP")
  return ops_list


def _in_graphs(op_name):
  """A contrib summary op in graph mode: one operation writing when run, with the writer and
  recording condition in effect where it was built (as TF's ops capture them)."""
  def decorate(fn):
    @functools.wraps(fn)
    def summary_op(*args, **kwargs):
      graph = graph_lib.building()
      if graph is None:
        return fn(*args, **kwargs)
      writer, condition = _state.writer, _state.is_recording
      if writer is None:
        return None
      every_n, flush = None, getattr(writer, "flush_each_write", False)
      if type(condition) is _EveryNSteps:
        every_n, condition = condition.n, True

      def write(*call_args, **call_kwargs):
        saved = _state.writer, _state.is_recording, _state.every_n, _state.flush_each
        _state.writer, _state.is_recording, _state.every_n, _state.flush_each = (
            writer, condition, every_n, flush)
        try:
          return fn(*call_args, **call_kwargs)
        finally:
          _state.writer, _state.is_recording, _state.every_n, _state.flush_each = saved
      out = graph_build.record_call(write, args, kwargs, op_type=op_name, stateful=True)
      graph.add_to_collection(graph_lib.GraphKeys._SUMMARY_COLLECTION, out)
      return out
    return summary_op
  return decorate


# ---- Summary ops ----
def _write(name, family, tensor, step, op_name, encode, check=None, params=None,
           convert=value_of):
  """Shared body of the contrib ops: decide, convert, check, queue."""
  writer = _state.writer
  if writer is None:
    return None
  step = record_step(step, False, op_name)
  if step is SKIP:
    return bool_tensor(False)
  value = convert(tensor)
  if check is not None:
    check(value)
  enqueue(writer, encode, scoped_tag(name, family), value, step, params)
  return bool_tensor(True)


@export("contrib.summary.scalar")
@_in_graphs("WriteScalarSummary")
def scalar(name, tensor, family=None, step=None):
  """Writes a scalar summary (its first element, as TF) if a writer is set and recording."""
  writer = _state.writer
  if writer is None:
    return None
  step = record_step(step, False, "WriteScalarSummary")
  if step is SKIP:
    return bool_tensor(False)
  value = value_of(tensor)
  if value.dtype not in SCALAR_DTYPES:
    check_dtype(value, SCALAR_DTYPES, "WriteScalarSummary")
  enqueue(writer, encoding.scalar, scoped_tag(name, family), value, step)
  return bool_tensor(True)


@export("contrib.summary.histogram")
@_in_graphs("WriteHistogramSummary")
def histogram(name, tensor, family=None, step=None):
  """Writes a histogram (TF's default exponential buckets)."""
  return _write(name, family, tensor, step, "WriteHistogramSummary",
                encoding.histogram,
                lambda v: check_dtype(v, HISTOGRAM_DTYPES, "WriteHistogramSummary"))


@export("contrib.summary.image")
@_in_graphs("WriteImageSummary")
def image(name, tensor, bad_color=None, max_images=3, family=None, step=None):
  """Writes up to `max_images` images of a [k, h, w, c] tensor as PNGs (`name/image/i`)."""
  def check(value):
    check_minimum("max_images", max_images, "WriteImageSummary")
    check_dtype(value, IMAGE_DTYPES, "WriteImageSummary")
    check_image_shape(value, "WriteImageSummary")
  color = np.array([255, 0, 0, 255], np.uint8) if bad_color is None else np.asarray(
      bad_color, np.uint8)
  return _write(name, family, tensor, step, "WriteImageSummary", encoding.image,
                check, (int(max_images), color, False))


@export("contrib.summary.audio")
@_in_graphs("WriteAudioSummary")
def audio(name, tensor, sample_rate, max_outputs, family=None, step=None):
  """Writes up to `max_outputs` float32 clips ([k, frames] or [k, frames, channels]) as WAV."""
  def check(value):
    check_minimum("max_outputs", max_outputs, "WriteAudioSummary")
    check_audio_shape(value, "WriteAudioSummary")
  return _write(name, family, tensor, step, "WriteAudioSummary", encoding.audio,
                check, (float(sample_rate), int(max_outputs)), _float32_value)


def _float32_value(tensor):
  return ops.convert_to_tensor(tensor, dtype=dtypes.float32)._value


@export("contrib.summary.generic")
@_in_graphs("WriteSummary")
def generic(name, tensor, metadata=None, family=None, step=None):
  """Writes a tensor summary with optional `SummaryMetadata` (a proto or its bytes)."""
  return _write(name, family, tensor, step, "WriteSummary", encoding.generic,
                None, encoding.metadata_proto(metadata))


@export("contrib.summary.graph")
def graph(param, step=None, name=None):
  """Writes a GraphDef (bytes, a string Tensor or a proto) to the default writer; a
  `tf.Graph` has no ops under eager execution, so there is nothing to write for it."""
  writer = _state.writer
  if writer is None or isinstance(param, graph_lib.Graph) and not param._ops:
    return None
  if hasattr(param, "as_graph_def"):
    param = param.as_graph_def()
  if hasattr(param, "SerializeToString"):
    param = param.SerializeToString()
  elif isinstance(param, Tensor):
    param = param.numpy()
  if not isinstance(param, bytes):
    raise TypeError("graph() needs a serialized GraphDef, but was: %s" % type(param))
  return _write_graph(param, step)


def _write_graph(param, step):
  writer = _state.writer
  if writer is None:
    return None
  step = 0 if step is None and _ctx.graph is not None else \
      int(np.asarray(_choose_step(step, "WriteGraphSummary")))
  event = event_pb2.Event(wall_time=time.time(), step=step, graph_def=param)
  writer._file.add_serialized_event(event.SerializeToString())  # pylint: disable=protected-access
  return None


@export("contrib.summary.import_event")
def import_event(tensor, name=None):
  """Writes a serialized `Event` proto as is (ignoring the recording condition)."""
  writer = _state.writer
  if writer is None:
    return None
  data = tensor.numpy() if isinstance(tensor, Tensor) else tensor
  writer._file.add_serialized_event(data)  # pylint: disable=protected-access
  return None
