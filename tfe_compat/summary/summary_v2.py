"""`tf.summary`: the TF 2.x summary ops that TF 1.15 carries (tf.compat.v2.summary) and the
TF 1.x ones, under one name each.

`tf.summary.scalar(name, data, step=...)` (or with `tf.summary.experimental.set_step`) is
the 2.x op: it writes to the default writer (recording by default) and returns a bool
Tensor. Called without any step, as TF 1.x code calls `tf.summary.scalar(name, tensor)`, it
is the 1.x op: it returns the serialized `Summary` as a string Tensor and writes nothing.
A list in the third position is TF 1.x's `collections`. `tf.summary.FileWriter` and
`merge_all` raise as TF 1.15's do under eager execution.
"""
import functools
import inspect
import logging
import time

import numpy as np
from tensorboardX.proto import event_pb2, summary_pb2

from tfe_compat import graph_import
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.summary import encoding
from tfe_compat.summary import summary_ops as so
from tfe_compat.summary import writer as writer_lib

export("Summary", "summary.Summary")(summary_pb2.Summary)
export("HistogramProto")(summary_pb2.HistogramProto)
export("Event", "summary.Event")(event_pb2.Event)
export("SummaryMetadata")(summary_pb2.SummaryMetadata)

_log = logging.getLogger("tensorflow")
_warned = []


def _v2_tag(name):
  """TF 2.x summary_scope's tag: the name in the current name scope, not cleaned."""
  stack = context.ctx.name_stack
  return stack[-1] + name if stack and stack[-1] else name


def _v1_style(step, collections):
  """(step, collections): a list in the step position is TF 1.x's `collections`."""
  if isinstance(step, (list, tuple, set)):
    return None, step
  return step, collections


def _v1_summary(encode, tag, value, params=None, check=None):
  """TF 1.x eager semantics: the serialized Summary as a string Tensor."""
  if writer_lib.state.writer is not None and not _warned:
    _warned.append(True)
    _log.warning(
        "tf.summary ops called without a step return a serialized Summary (TF 1.x) and write "
        "nothing; pass step= or call tf.summary.experimental.set_step() to write to the "
        "default writer.")
  value = np.asarray(value)
  if check is not None:
    check(value)
  summary = summary_pb2.Summary(value=encode(tag, value, params))
  return ops.convert_to_tensor(summary.SerializeToString())


def _described(encode, description, tag, value, params):
  values = encode(tag, value, params)
  for v in values:
    v.metadata.summary_description = description
  return values


def _v2_write(encode, tag, value_fn, step, op_name, params=None, description=None,
              check=None):
  """TF 2.x `tf.summary.write`: False without a writer, records by default, needs a step."""
  writer = writer_lib.state.writer
  if writer is None:
    return so.bool_tensor(False)
  if step is None:
    step = writer_lib.state.step
    if step is None:
      raise ValueError("No step set via 'step' argument or "
                       "tf.summary.experimental.set_step()")
  step = so.record_step(step, True, op_name)
  if step is so.SKIP:
    return so.bool_tensor(False)
  value = value_fn()
  if check is not None:
    check(value)
  if description:
    encode = functools.partial(_described, encode, description)
  so.enqueue(writer, encode, tag, value, step, params)
  return so.bool_tensor(True)


def _use_v1(step):
  return step is None and writer_lib.state.step is None


def _v1_in_graphs(op_type):
  """A TF 1.x summary op in graph mode: a host operation that returns the serialized
  `Summary` when run, added to `collections` (default: the SUMMARIES collection)."""
  def decorate(fn):
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def summary_op(*args, **kwargs):
      graph = graph_lib.building()
      if graph is None:
        return fn(*args, **kwargs)
      arguments = signature.bind(*args, **kwargs).arguments
      step, collections = _v1_style(arguments.get("step"), arguments.get("collections"))
      if not _use_v1(step):
        return fn(*args, **kwargs)
      out = graph_build.record_host_call(fn, args, [dtypes.string], True,
                                         name=arguments.get("name"), op_type=op_type,
                                         kwargs=kwargs, shapes=[()])
      graph.add_to_collections(["summaries"] if collections is None else collections, out)
      return out
    return summary_op
  return decorate


@export("summary.write")
def write(tag, tensor, step=None, metadata=None, name=None):
  """Writes a tensor summary (`tensor` may be a callable, called only when recording)."""
  return _v2_write(encoding.generic, tag,
                   lambda: so.value_of(tensor() if callable(tensor) else tensor), step,
                   "WriteSummary", encoding.metadata_proto(metadata))


def _scalar_check(value):
  if value.ndim:
    raise ValueError("Expected scalar shape, saw shape: %s." % (tuple(value.shape),))
  if value.dtype.kind not in "biuf":
    so.check_dtype(value, so.SCALAR_DTYPES, "WriteScalarSummary")


@export("summary.scalar")
@_v1_in_graphs("ScalarSummary")
def scalar(name, data=None, step=None, description=None, collections=None, family=None,
           tensor=None):
  """TF 2.x `scalar(name, data, step=None, description=None)`; TF 1.x
  `scalar(name, tensor, collections=None, family=None)` when no step is given or set."""
  data = tensor if data is None else data
  step, collections = _v1_style(step, collections)
  if _use_v1(step):
    return _v1_summary(encoding.scalar, so.scoped_tag(name, family), so.value_of(data),
                       check=lambda v: so.check_dtype(v, so.SCALAR_DTYPES, "ScalarSummary"))
  return _v2_write(encoding.scalar, _v2_tag(name), lambda: so.value_of(data), step,
                   "WriteScalarSummary", description=description, check=_scalar_check)


@export("summary.histogram")
@_v1_in_graphs("HistogramSummary")
def histogram(name, data=None, step=None, buckets=None, description=None, collections=None,
              family=None, values=None):
  """TF 2.x `histogram(name, data, step=None, buckets=None, description=None)`; TF 1.x
  `histogram(name, values, collections=None, family=None)` when no step is given or set."""
  data = values if data is None else data
  step, collections = _v1_style(step, collections)
  check = lambda v: so.check_dtype(v, so.HISTOGRAM_DTYPES, "HistogramSummary")  # noqa: E731
  if _use_v1(step):
    return _v1_summary(encoding.histogram, so.scoped_tag(name, family), so.value_of(data),
                       check=check)
  return _v2_write(encoding.histogram, _v2_tag(name), lambda: so.value_of(data), step,
                   "WriteHistogramSummary", buckets, description, check)


@export("summary.image")
@_v1_in_graphs("ImageSummary")
def image(name, data=None, step=None, max_outputs=3, description=None, collections=None,
          family=None, tensor=None):
  """TF 2.x `image(name, data, step=None, max_outputs=3, description=None)` (floats in
  [0, 1]); TF 1.x `image(name, tensor, max_outputs=3, ...)` (TF's rescaling) without a step."""
  data = tensor if data is None else data
  step, collections = _v1_style(step, collections)
  max_outputs = int(max_outputs)
  if _use_v1(step):
    def check_v1(value):
      so.check_minimum("max_images", max_outputs, "ImageSummary")
      so.check_dtype(value, so.IMAGE_DTYPES, "ImageSummary")
      so.check_image_shape(value, "ImageSummary")
    return _v1_summary(encoding.image, so.scoped_tag(name, family), so.value_of(data),
                       (max_outputs, np.array([255, 0, 0, 255], np.uint8), False), check_v1)

  def check(value):
    so.check_minimum("max_outputs", max_outputs, "WriteImageSummary")
    so.check_image_shape(value, "WriteImageSummary", channels=(1, 2, 3, 4))
  return _v2_write(encoding.image, _v2_tag(name), lambda: so.value_of(data), step,
                   "WriteImageSummary", (max_outputs, None, True), description, check)


@export("summary.audio")
@_v1_in_graphs("AudioSummary")
def audio(name, data=None, sample_rate=None, step=None, max_outputs=3,
          encoding=None,  # pylint: disable=redefined-outer-name
          description=None, collections=None, family=None, tensor=None):
  """TF 2.x `audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None,
  description=None)`; TF 1.x `audio(name, tensor, sample_rate, max_outputs=3, ...)`."""
  data = tensor if data is None else data
  step, collections = _v1_style(step, collections)
  if encoding not in (None, "wav"):
    raise ValueError("Unknown encoding: %r" % encoding)
  params = (float(sample_rate), int(max_outputs))

  def value_fn():
    return ops.convert_to_tensor(data, dtype=dtypes.float32)._value

  def check(value):
    so.check_minimum("max_outputs", params[1], "WriteAudioSummary")
    so.check_audio_shape(value, "WriteAudioSummary")
  if _use_v1(step):
    return _v1_summary(_encoding.audio, so.scoped_tag(name, family), value_fn(), params, check)
  return _v2_write(_encoding.audio, _v2_tag(name), value_fn, step, "WriteAudioSummary", params,
                   description, check)


_encoding = encoding  # audio() has a parameter named `encoding`


@export("summary.text")
@_v1_in_graphs("TensorSummaryV2")
def text(name, data=None, step=None, description=None, collections=None, tensor=None):
  """TF 2.x `text(name, data, step=None, description=None)`; TF 1.x `text(name, tensor,
  collections=None)` without a step. Written for TensorBoard's Text tab."""
  data = tensor if data is None else data
  step, collections = _v1_style(step, collections)

  def value_fn():
    value = ops.convert_to_tensor(data)
    if value.dtype is not dtypes.string:
      raise ValueError("Expected a string tensor, got %s" % value.dtype.name)
    return value._value
  if _use_v1(step):
    return _v1_summary(encoding.text, so.scoped_tag(name), value_fn())
  return _v2_write(encoding.text, _v2_tag(name), value_fn, step, "WriteSummary",
                   description=description)


@export("summary.FileWriter")
class FileWriter:
  """TF 1.x's FileWriter (graph mode; TF 1.15 refuses it under eager execution): writes
  serialized summaries, graphs and run metadata as events in `logdir`."""

  def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
               filename_suffix=None, session=None):
    if context.ctx.graph is None:
      raise RuntimeError("tf.summary.FileWriter is not compatible with eager execution. "
                         "Use tf.contrib.summary instead.")
    self._logdir = logdir
    self._file = writer_lib.EventFileWriter(logdir, max_queue, flush_secs * 1000,
                                            filename_suffix or "")
    if graph is not None or graph_def is not None:
      self.add_graph(graph, graph_def=graph_def)

  def get_logdir(self):
    return self._logdir

  def add_event(self, event):
    self._file.add_serialized_event(event.SerializeToString())

  def add_summary(self, summary, global_step=None):
    """Writes a `Summary` (a proto or its serialized bytes, as `sess.run` returns it)."""
    if isinstance(summary, bytes):
      summary = summary_pb2.Summary.FromString(summary)
    self.add_event(event_pb2.Event(wall_time=time.time(), step=int(global_step or 0),
                                   summary=summary))

  def add_graph(self, graph, global_step=None, graph_def=None):
    graph_def = graph_def if graph_def is not None else graph.as_graph_def()
    self.add_event(event_pb2.Event(wall_time=time.time(), step=int(global_step or 0),
                                   graph_def=graph_def.SerializeToString()))

  def add_meta_graph(self, meta_graph_def, global_step=None):
    self.add_event(event_pb2.Event(wall_time=time.time(), step=int(global_step or 0),
                                   meta_graph_def=meta_graph_def.SerializeToString()))

  def add_session_log(self, session_log, global_step=None):
    self.add_event(event_pb2.Event(wall_time=time.time(), step=int(global_step or 0),
                                   session_log=session_log))

  def add_run_metadata(self, run_metadata, tag, global_step=None):
    tagged = event_pb2.TaggedRunMetadata(tag=tag,
                                         run_metadata=run_metadata.SerializeToString())
    self.add_event(event_pb2.Event(wall_time=time.time(), step=int(global_step or 0),
                                   tagged_run_metadata=tagged))

  def flush(self):
    self._file.flush()

  def close(self):
    self._file.close()

  def reopen(self):
    self._file.reopen()

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()


@export("summary.FileWriterCache")
class FileWriterCache:
  """TF 1.x's cache of FileWriters by logdir; `get` fails as FileWriter does eagerly."""

  _writers = {}

  @staticmethod
  def clear():
    for writer in FileWriterCache._writers.values():
      writer.close()
    FileWriterCache._writers.clear()

  @staticmethod
  def get(logdir):
    writer = FileWriterCache._writers.get(logdir)
    if writer is None:
      writer = FileWriterCache._writers[logdir] = FileWriter(logdir,
                                                             graph=graph_lib.get_default_graph())
    return writer


@export("summary.tensor_summary")
@_v1_in_graphs("TensorSummaryV2")
def tensor_summary(name, tensor, summary_description=None, collections=None,
                   summary_metadata=None, family=None, display_name=None):
  """TF 1.x's tensor summary: the serialized `Summary` of `tensor` as a string Tensor, with
  `summary_metadata` (plus the description and display name given)."""
  metadata = summary_pb2.SummaryMetadata()
  if summary_metadata is not None:
    metadata.CopyFrom(encoding.metadata_proto(summary_metadata))
  if summary_description is not None:
    metadata.summary_description = summary_description
  if display_name is not None:
    metadata.display_name = display_name
  return _v1_summary(encoding.generic, so.scoped_tag(name, family), so.value_of(tensor),
                     metadata)


@export("summary.merge_all")
def merge_all(key="summaries", scope=None, name=None):
  """The merged summaries of collection `key` (None if it is empty), in graph mode."""
  if context.ctx.graph is None:
    raise RuntimeError("Merging tf.summary.* ops is not compatible with eager execution. "
                       "Use tf.contrib.summary instead.")
  summaries = graph_lib.get_collection(key, scope)
  return merge(summaries, name=name) if summaries else None


@export("summary.merge")
def merge(inputs, collections=None, name=None):
  """One serialized `Summary` holding the values of the serialized summaries `inputs`."""
  graph = graph_lib.building()
  if graph is None:
    raise RuntimeError("Merging tf.summary.* ops is not compatible with eager execution. "
                       "Use tf.contrib.summary instead.")
  out = graph_build.record_host_call(_merged, (list(inputs),), [dtypes.string], True,
                                     name=name, op_type="MergeSummary", shapes=[()])
  if collections:
    graph.add_to_collections(collections, out)
  return out


def _scalar_summary(tags, values):
  """TF 1.x's ScalarSummary kernel (an imported graph's): one value per tag."""
  tags, values = np.asarray(tags._value).ravel(), np.asarray(values._value).ravel()
  summary = summary_pb2.Summary(value=[
      summary_pb2.Summary.Value(tag=tag.decode(), simple_value=float(value))
      for tag, value in zip(tags, values)])
  return ops.convert_to_tensor(summary.SerializeToString())


def _histogram_summary(tag, values):
  """TF 1.x's HistogramSummary kernel (an imported graph's)."""
  tag = np.asarray(tag._value).item().decode()
  summary = summary_pb2.Summary(value=encoding.histogram(tag, np.asarray(values._value), None))
  return ops.convert_to_tensor(summary.SerializeToString())


def _merged(inputs):
  merged = summary_pb2.Summary()
  for serialized in inputs:
    merged.MergeFromString(np.asarray(serialized._value).item())
  return ops.convert_to_tensor(merged.SerializeToString())


@export("train.summary_iterator")
def summary_iterator(path):
  """The `Event` protos of an event file, in order (TFRecord-framed, as TensorBoard reads)."""
  from tfe_compat.data import tfrecord  # pylint: disable=import-outside-toplevel
  for record in tfrecord.tf_record_iterator(path):
    yield event_pb2.Event.FromString(record)


graph_import.HOST_KERNELS.update(
    ScalarSummary=(_scalar_summary, lambda attrs: [dtypes.string]),
    HistogramSummary=(_histogram_summary, lambda attrs: [dtypes.string]),
    MergeSummary=(lambda *inputs: _merged(inputs), lambda attrs: [dtypes.string]))
