"""`tf.print` and TF1's `tf.Print`, with TF's text for tensors (`Tensor::SummarizeValue`).

Both go through `jax.debug.callback`: eagerly it runs at once; inside a traced function
(`tf.function`) it is staged, so the text is printed on every call of the compiled function
(only when the enclosing traced `tf.cond` branch is taken).
"""
import collections
import logging
import pprint
import sys
import threading
import time

import jax
import numpy as np

from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops.control_flow_ops import when_active

_STDERR, _STDOUT = sys.stderr, sys.stdout


# ---- Tensor::SummarizeValue ----
def _float_text(x, digits, more, ftype):
  x = ftype(x)
  if np.isnan(x):
    return "nan"
  if np.isinf(x):
    return "inf" if x > 0 else "-inf"
  text = "%.*g" % (digits, x)
  return text if ftype(float(text)) == x else "%.*g" % (more, x)


def _c_escape(data):
  out = []
  for byte in data:
    char = chr(byte)
    if char in "\n\r\t\"'\\":
      out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char, "\\" + char))
    elif 32 <= byte < 127:
      out.append(char)
    else:
      out.append("\\%03o" % byte)
  return "".join(out)


def element_text(x, dtype, v2):
  """One element as TF's PrintOneElement writes it."""
  kind = dtype.kind
  if kind == "b":
    return "1" if x else "0"
  if kind in "iu":
    return str(int(x))
  if kind == "c":
    return "?"
  if kind == "O":
    data = x if isinstance(x, bytes) else str(x).encode()
    return '"%s"' % _c_escape(data) if v2 else data.decode("utf-8", "replace")
  if dtype == np.float64:
    return _float_text(x, 15, 17, np.float64)
  return _float_text(x, 6, 9, np.float32)  # float32, float16 and bfloat16 print as float


def _limit(array, summarize):
  summarize = 3 if summarize is None else summarize
  return array.size if summarize < 0 else min(summarize, array.size)


def summarize_v2(array, summarize=3):
  """The text tf.print / tf.strings.format give a tensor (first and last items per axis)."""
  array = np.asarray(array)
  limit = _limit(array, summarize)
  if array.ndim == 0:
    return (element_text(array[()], array.dtype, True) if limit else "") + (
        "..." if array.size > limit else "")
  return _dims_v2(array, limit, 0, array.ndim, array.dtype)


def _dims_v2(array, at_ends, depth, ndim, dtype):
  if depth == ndim:
    return element_text(array, dtype, True)
  n = array.shape[0]
  sep = " " if depth == ndim - 1 else "\n" * (ndim - depth - 1) + " " * (depth + 1)
  head = range(min(at_ends, n))
  text = sep.join(_dims_v2(array[i], at_ends, depth + 1, ndim, dtype) for i in head)
  if n > 2 * at_ends:
    text += sep + "..."
  for i in range(max(at_ends, n - at_ends), n):
    text += sep + _dims_v2(array[i], at_ends, depth + 1, ndim, dtype)
  return "[" + text + "]"


def summarize_v1(array, summarize=None):
  """The text TF1's Print and Assert ops give a tensor (its first `summarize` items)."""
  array = np.asarray(array)
  limit = _limit(array, summarize)
  flat = array.reshape(-1)
  if array.ndim == 0:
    text = " ".join(element_text(flat[i], array.dtype, False) for i in range(limit))
  else:
    parts, index = [], [0]
    _dims_v1(array.shape, 0, limit, flat, index, parts)
    text = "".join(parts)
  return text + ("..." if array.size > limit else "")


def _dims_v1(shape, dim, limit, flat, index, out):
  if index[0] >= limit:
    return
  if dim == len(shape) - 1:
    for i in range(shape[dim]):
      if index[0] >= limit:
        if dim:
          out.append("...")
        return
      if i:
        out.append(" ")
      out.append(element_text(flat[index[0]], flat.dtype, False))
      index[0] += 1
    return
  for _ in range(shape[dim]):
    opened = index[0] < limit
    if opened:
      out.append("[")
    _dims_v1(shape, dim + 1, limit, flat, index, out)
    if index[0] < limit or opened:
      out.append("]")


# ---- Staging: format concrete values now, traced ones when the computation runs ----
def _as_tensor(x):
  return x._as_tensor(None) if hasattr(x, "_as_tensor") else x


def stage(tensors, emit):
  """Calls `emit(arrays)` with the NumPy values of `tensors` eagerly, or staged when traced."""
  values = [t._value for t in tensors]
  traced = [i for i, v in enumerate(values) if isinstance(v, jax.core.Tracer)]
  fixed = {i: np.asarray(v) for i, v in enumerate(values) if i not in set(traced)}

  def callback(*arrays):
    found = dict(fixed)
    found.update((i, np.asarray(a)) for i, a in zip(traced, arrays))
    try:
      emit([found[i] for i in range(len(values))])
    except errors.OpError as e:  # JAX's wrapping of it differs by platform: keep the original
      _staged.failure = e
      raise

  when_active(lambda: jax.debug.callback(callback, *[values[i] for i in traced]))


_staged = threading.local()


class _QuietStagedFailures(logging.Filter):
  """JAX logs every exception a debug callback raises; a failed TF check (an OpError) is
  raised to the caller instead, so its log record (and traceback) is dropped."""

  def filter(self, record):
    return not (record.exc_info and isinstance(record.exc_info[1], errors.OpError))


logging.getLogger("jax._src.debugging").addFilter(_QuietStagedFailures())


def staged_failure(runtime_error):
  """The TF error a staged check raised inside the compiled run that failed with
  `runtime_error` (a JaxRuntimeError); InvalidArgumentError with JAX's text if none did."""
  failure = getattr(_staged, "failure", None)
  _staged.failure = None
  if failure is not None:
    return failure
  return errors.invalid_argument(str(runtime_error).split("\n")[0])


def _writer(output_stream):
  """A function writing text to `output_stream` as tf.print understands it."""
  if output_stream is _STDERR or output_stream is sys.__stderr__ or output_stream is sys.stderr:
    return lambda text: (sys.stderr.write(text), sys.stderr.flush())
  if output_stream is _STDOUT or output_stream is sys.__stdout__ or output_stream is sys.stdout:
    return lambda text: (sys.stdout.write(text), sys.stdout.flush())
  if isinstance(output_stream, str) and output_stream.startswith("file://"):
    path = output_stream[len("file://"):]

    def append(text):
      with open(path, "a") as f:
        f.write(text)
    return append
  if callable(output_stream):  # tf.logging.info / warning / error
    return lambda text: output_stream(text.rstrip("\n"))
  raise ValueError("Unsupported output stream, logging level, or file.%s. Supported streams "
                   "are sys.stdout, sys.stderr, tf.logging.info, tf.logging.warning, "
                   "tf.logging.error. File needs to be in the form of 'file://<filepath>'."
                   % (output_stream,))


def _placeholders(item, tensors, mark):
  """`item` with each tensor replaced by `mark` (collected in TF's nest order)."""
  item = _as_tensor(item)
  if isinstance(item, Tensor):
    tensors.append(item)
    return mark
  if isinstance(item, dict):
    keys = sorted(item)
    values = {k: _placeholders(item[k], tensors, mark) for k in keys}
    if isinstance(item, collections.OrderedDict):
      return collections.OrderedDict((k, values[k]) for k in keys)
    return values
  if isinstance(item, tuple) and hasattr(item, "_fields"):
    return type(item)(*[_placeholders(x, tensors, mark) for x in item])
  if isinstance(item, (list, tuple)):
    return type(item)(_placeholders(x, tensors, mark) for x in item)
  return item


@export("print")
def print_v2(*inputs, **kwargs):
  """`tf.print(*inputs, output_stream=sys.stderr, summarize=3, sep=' ', end='\\n')`."""
  output_stream = kwargs.pop("output_stream", _STDERR)
  summarize = kwargs.pop("summarize", 3)
  sep = kwargs.pop("sep", " ")
  end = kwargs.pop("end", "\n")
  kwargs.pop("name", None)
  if kwargs:
    raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
  write = _writer(output_stream)
  inputs = [_as_tensor(x) for x in inputs]
  if (len(inputs) == 1 and isinstance(inputs[0], Tensor) and inputs[0]._value.ndim == 0
      and inputs[0].dtype.name == "string"):
    text = np.asarray(inputs[0]._value)[()]
    write((text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)) + end)
    return None
  mark = "{}"
  while any(mark in (x if isinstance(x, str) else pprint.pformat(x)) for x in inputs
            if not isinstance(x, Tensor)):
    mark = "{" + mark + "}"
  tensors, templates = [], []
  for item in inputs:
    templates.append(item if isinstance(item, str)
                     else pprint.pformat(_placeholders(item, tensors, mark)))
  template = sep.join(templates).replace("'" + mark + "'", mark)
  pieces = template.split(mark)

  def emit(arrays):
    texts = [summarize_v2(a, summarize) for a in arrays]
    write("".join(p + (texts[i] if i < len(texts) else "") for i, p in enumerate(pieces)) + end)

  stage(tensors, emit)
  return None


_print_counts = collections.Counter()


@export("Print")
def Print(input_, data, message=None, first_n=None, summarize=None,  # pylint: disable=invalid-name
          name=None):
  """TF1 `tf.Print`: returns `input_`; prints `message` and `data` to stderr as it runs."""
  tensors = [ops.convert_to_tensor(_as_tensor(d)) for d in data]
  message = message or ""
  first_n = -1 if first_n is None else first_n
  key = (message, first_n, summarize, tuple(t.dtype.name for t in tensors))

  def emit(arrays):
    if first_n >= 0:
      if _print_counts[key] >= first_n:
        return
      _print_counts[key] += 1
    sys.stderr.write(message + "".join("[%s]" % summarize_v1(a, summarize) for a in arrays)
                     + "\n")
    sys.stderr.flush()

  stage(tensors, emit)
  return array_ops.identity(input_)


@export("timestamp")
def timestamp(name=None):
  """`tf.timestamp()`: seconds since the Unix epoch, as a float64 scalar."""
  return ops.convert_to_tensor(np.float64(time.time()))

