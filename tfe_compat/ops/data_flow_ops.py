"""TF 1.x queues (`tf.queue.*`) and conditional accumulators as they run under eager
execution: values go in as Tensors of the queue's dtypes and come out as Tensors; blocking
across Python threads, `close`, and TF's errors and messages follow TF's kernels (see
queue_kernels.py). Like TF's eager queues, `name` is the enclosing name scope ("Empty" at
the root) and each queue's kernel name is a fresh number (TF's `ops.uid()`), so `shared_name`
shares nothing. Queues and accumulators live on the host: inside a compiled `tf.function`
they make the function run eagerly.
"""
import collections.abc

import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import dtypes as dtypes_lib
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import queue_kernels as kernels

_ctx = context.ctx


def _scope_name():
  return _ctx.name_stack[-1] if _ctx.name_stack else ""


def _check_eager(what):
  if _ctx.traced_rng is not None:
    raise context.NotTraceable("%s runs on the host and cannot be compiled" % what)


def _raise(error, op_name, name):
  """Raises a kernel's `(class, message)` as TF's eager ops word it."""
  cls, message = error
  suffix = "" if name is None else " name: %s" % name
  raise cls(None, None, "%s [Op:%s]%s" % (message, op_name, suffix))


def _as_type_list(dtypes):
  return list(dtypes) if isinstance(dtypes, (list, tuple)) else [dtypes]


def _as_shape_list(shapes, unknown_dim_allowed=False, unknown_rank_allowed=False):
  """TF's `_as_shape_list`: a list of TensorShapes, or None."""
  if unknown_dim_allowed and (
      not isinstance(shapes, collections.abc.Sequence) or not shapes or
      any(shape is None or isinstance(shape, int) for shape in shapes)):
    raise ValueError("When providing partial shapes, a list of shapes must be provided.")
  if shapes is None:
    return None
  if isinstance(shapes, tensor_shape.TensorShape):
    shapes = [shapes]
  if not isinstance(shapes, (tuple, list)):
    raise TypeError("shapes must be a TensorShape or a list or tuple of TensorShapes.")
  if all(shape is None or isinstance(shape, int) for shape in shapes):
    shapes = [shapes]
  shapes = [tensor_shape.as_shape(shape) for shape in shapes]
  if not unknown_dim_allowed and any(not shape.is_fully_defined() for shape in shapes):
    raise ValueError("All shapes must be fully defined: %s" % shapes)
  if not unknown_rank_allowed and any(shape.dims is None for shape in shapes):
    raise ValueError("All shapes must have a defined rank: %s" % shapes)
  return shapes


def _as_name_list(names, dtypes):
  if names is None:
    return None
  if not isinstance(names, (list, tuple)):
    names = [names]
  if len(names) != len(dtypes):
    raise ValueError("List of names must have the same length as the list of dtypes")
  return list(names)


def _make_int(value, arg_name):
  """TF's `_execute.make_int` for an int attribute."""
  try:
    if isinstance(value, (str, bytes)):
      raise TypeError
    return int(value)
  except (TypeError, ValueError):
    raise TypeError("Expected int for argument '%s' not %r." % (arg_name, value)) from None


def _int32_input(value, index, op_name, name):
  """The Python int of an int32 scalar input (TF reads the first element)."""
  if isinstance(value, Tensor) and value.dtype is not dtypes_lib.int32:
    raise errors.InvalidArgumentError(
        None, None, "cannot compute %s as input #%d(zero-based) was expected to be a int32 "
        "tensor but is a %s tensor [Op:%s]%s" % (op_name, index, value.dtype.name, op_name,
                                                 "" if name is None else " name: " + name))
  return int(np.asarray(ops.convert_to_tensor(value, dtypes_lib.int32)._value).ravel()[0])


def _create_queue(core_fn, op_name, name, dtypes, shapes):
  """Builds a queue core, checking what TF's TypedQueue::Initialize checks."""
  uid = kernels.new_uid()
  if not dtypes:
    raise errors.InvalidArgumentError(
        None, None, "Length for attr 'component_types' of 0 must be at least minimum 1 "
        "[Op:%s] name: %s" % (op_name, name))
  if shapes and len(shapes) != len(dtypes):
    _raise((errors.InvalidArgumentError, "Different number of component types.  Types: %s, "
            "Shapes: [%s]" % (kernels.type_list_text(dtypes),
                              ", ".join(kernels.shape_text(s) for s in shapes))), op_name, name)
  return core_fn(uid)


@export("queue.QueueBase", "io.QueueBase", "QueueBase")
class QueueBase:
  """A queue of elements (tuples of Tensors of fixed dtypes), shared by Python threads."""

  def __init__(self, dtypes, shapes, names, queue_ref):
    if not isinstance(queue_ref, kernels.QueueCore):
      raise TypeError("queue_ref must be the queue_ref of a tfe_compat queue, got %r"
                      % (queue_ref,))
    self._dtypes = dtypes
    if shapes is not None:
      if len(shapes) != len(dtypes):
        raise ValueError("Queue shapes must have the same length as dtypes")
      self._shapes = [tensor_shape.TensorShape(s) for s in shapes]
    else:
      self._shapes = [tensor_shape.unknown_shape() for _ in dtypes]
    if names is not None:
      if len(names) != len(dtypes):
        raise ValueError("Queue names must have the same length as dtypes")
      self._names = names
    else:
      self._names = None
    self._queue_ref = queue_ref
    self._tf_dtypes = [dtypes_lib.as_dtype(d) for d in dtypes]
    self._name = _scope_name() or "Empty"

  @staticmethod
  def from_list(index, queues):
    """The queue `queues[index]`, with the shapes the queues have in common."""
    if not queues or not isinstance(queues, list) or not all(
        isinstance(x, QueueBase) for x in queues):
      raise TypeError("A list of queues expected")
    dtypes = queues[0].dtypes
    if not all(dtypes == q.dtypes for q in queues[1:]):
      raise TypeError("Queues do not have matching component dtypes.")
    names = queues[0].names
    if not all(names == q.names for q in queues[1:]):
      raise TypeError("Queues do not have matching component names.")
    shapes = [_common_shape(s) for s in zip(*[q.shapes for q in queues])]
    i = _int32_input(index, 1, "GatherV2", None)
    if not 0 <= i < len(queues):
      raise errors.InvalidArgumentError(None, None, "indices = %d is not in [0, %d) "
                                        "[Op:GatherV2]" % (i, len(queues)))
    return QueueBase(dtypes=dtypes, shapes=shapes, names=names,
                     queue_ref=queues[i].queue_ref)

  queue_ref = property(lambda self: self._queue_ref)
  name = property(lambda self: self._name)
  dtypes = property(lambda self: self._dtypes)
  shapes = property(lambda self: self._shapes)
  names = property(lambda self: self._names)

  def _check_enqueue_dtypes(self, vals):
    if isinstance(vals, dict):
      if not self._names:
        raise ValueError("Queue must have names to enqueue a dictionary")
      if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
        raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  "
                         "Dictionary: (%s), Queue: (%s)" % (sorted(vals.keys()),
                                                            sorted(self._names)))
      vals = [vals[k] for k in self._names]
    else:
      if self._names:
        raise ValueError("You must enqueue a dictionary in a Queue with names")
      if not isinstance(vals, (list, tuple)):
        vals = [vals]
    tensors = []
    for i, (val, dtype) in enumerate(zip(vals, self._tf_dtypes)):
      try:
        tensors.append(ops.convert_to_tensor(val, dtype=dtype))
      except ValueError as e:
        raise ValueError("component_%d: %s" % (i, e)) from None
    return tensors

  def _check_count(self, tensors, op_name, name):
    if len(tensors) != len(self._tf_dtypes):
      _raise((errors.InvalidArgumentError, "Signature mismatch, have: resource, %s-> "
              "expected: resource, %s->" % (
                  kernels.type_list_text([t.dtype for t in tensors]),
                  kernels.type_list_text(self._tf_dtypes))), op_name, name)

  def _run(self, result_error, op_name, name):
    result, error = result_error
    if error is not None:
      _raise(error, op_name, name)
    return result

  def enqueue(self, vals, name=None):
    """Enqueues one element; blocks while the queue is full."""
    _check_eager("QueueBase.enqueue")
    name = _op_scope(name, "%s_enqueue" % self._name)
    tensors = self._check_enqueue_dtypes(vals)
    for tensor, shape in zip(tensors, self._shapes):
      tensor.shape.assert_is_compatible_with(shape)
    self._check_count(tensors, "QueueEnqueueV2", name)
    element = tuple(_host(t) for t in tensors)
    self._run(self._queue_ref.enqueue([element]), "QueueEnqueueV2", name)

  def enqueue_many(self, vals, name=None):
    """Enqueues the slices of `vals` along dimension 0; blocks while the queue is full."""
    _check_eager("QueueBase.enqueue_many")
    name = _op_scope(name, "%s_EnqueueMany" % self._name)
    tensors = self._check_enqueue_dtypes(vals)
    batch_dim = tensor_shape.Dimension(tensor_shape.dimension_value(
        tensors[0].shape.with_rank_at_least(1)[0]))
    for tensor, shape in zip(tensors, self._shapes):
      batch_dim = batch_dim.merge_with(tensor_shape.dimension_value(
          tensor.shape.with_rank_at_least(1)[0]))
      tensor.shape[1:].assert_is_compatible_with(shape)
    self._check_count(tensors, "QueueEnqueueManyV2", name)
    arrays = [_host(t) for t in tensors]
    elements = [tuple(a[i, ...] for a in arrays) for i in range(len(arrays[0]))]
    self._run(self._queue_ref.enqueue(elements), "QueueEnqueueManyV2", name)

  def _dequeue_return_value(self, tensors):
    if self._names:
      return {n: tensors[i] for i, n in enumerate(self._names)}
    if len(tensors) == 1:
      return tensors[0]
    return tensors

  def dequeue(self, name=None):
    """Dequeues one element; blocks while the queue is empty and open."""
    _check_eager("QueueBase.dequeue")
    name = "%s_Dequeue" % self._name if name is None else name
    element = self._run(self._queue_ref.dequeue(), "QueueDequeueV2", name)
    return self._dequeue_return_value([ops._from_numpy(np.asarray(c)) for c in element])

  def _dequeue_many(self, n, allow_small_batch, op_name, name):
    _check_eager("QueueBase.dequeue_many")
    count = _int32_input(n, 1, op_name, name)
    if count < 0:
      _raise((errors.InvalidArgumentError, "%s requested %d < 0 elements" % (
          "DequeueUpToOp" if allow_small_batch else "DequeueManyOp", count)), op_name, name)
    arrays = self._run(self._queue_ref.dequeue_many(count, allow_small_batch), op_name, name)
    return self._dequeue_return_value([ops._from_numpy(a) for a in arrays])

  def dequeue_many(self, n, name=None):
    """Dequeues `n` elements stacked along a new dimension 0; blocks until there are `n`."""
    name = "%s_DequeueMany" % self._name if name is None else name
    return self._dequeue_many(n, False, "QueueDequeueManyV2", name)

  def dequeue_up_to(self, n, name=None):
    """Like dequeue_many, but a closed queue returns the (fewer than `n`) elements left."""
    name = "%s_DequeueUpTo" % self._name if name is None else name
    return self._dequeue_many(n, True, "QueueDequeueUpToV2", name)

  def close(self, cancel_pending_enqueues=False, name=None):
    """Closes the queue (after the pending enqueues, unless they are cancelled)."""
    _check_eager("QueueBase.close")
    name = "%s_Close" % self._name if name is None else name
    self._run(self._queue_ref.close(bool(cancel_pending_enqueues)), "QueueCloseV2", name)

  def is_closed(self, name=None):
    _check_eager("QueueBase.is_closed")
    with self._queue_ref.cond:
      return ops._from_numpy(np.asarray(self._queue_ref.closed))

  def size(self, name=None):
    _check_eager("QueueBase.size")
    with self._queue_ref.cond:
      return ops._from_numpy(np.asarray(len(self._queue_ref), np.int32))


def _op_scope(name, default):
  """The name an eager `ops.name_scope(name, default)` returns (TF 1.15)."""
  name = default if name is None else name
  if not name:
    return ""
  return name if name.endswith("/") else _scope_name() + name + "/"


def _host(tensor):
  return np.asarray(tensor._value)


def _common_shape(shapes):
  """The most specific shape every one of `shapes` is compatible with."""
  out = shapes[0]
  for shape in shapes[1:]:
    if out.ndims is None or shape.ndims is None or out.ndims != shape.ndims:
      out = tensor_shape.unknown_shape()
    else:
      out = tensor_shape.TensorShape([a if a is not None and a == b else None for a, b in
                                      zip(out.as_list(), shape.as_list())])
  return out


@export("queue.RandomShuffleQueue", "io.RandomShuffleQueue", "RandomShuffleQueue")
class RandomShuffleQueue(QueueBase):
  """A queue that dequeues in random order, keeping `min_after_dequeue` elements back until
  it is closed. The order comes from NumPy's generator seeded by (graph seed, op seed), not
  TF's Philox stream: reproducible under the same seeds, not the same order as TF."""

  def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,
               shared_name=None, name="random_shuffle_queue"):
    dtypes = _as_type_list(dtypes)
    shapes = _as_shape_list(shapes)
    names = _as_name_list(names, dtypes)
    seeds = context.get_seed(seed)
    seeds = (0, 0) if seeds == (None, None) else seeds
    capacity = _make_int(capacity, "capacity")
    min_after_dequeue = _make_int(min_after_dequeue, "min_after_dequeue")
    limit = kernels.UNBOUNDED if capacity < 0 else capacity
    for bad, text in ((min_after_dequeue < 0, "must be >= 0"),
                      (min_after_dequeue >= limit, "must be < capacity %d" % limit)):
      if bad:
        _raise((errors.InvalidArgumentError, "min_after_dequeue %d %s" % (
            min_after_dequeue, text)), "RandomShuffleQueueV2", name)
    tf_dtypes = [dtypes_lib.as_dtype(d) for d in dtypes]
    core = _create_queue(lambda uid: kernels.RandomShuffleQueueCore(
        capacity, min_after_dequeue, seeds, tf_dtypes, shapes or [], uid),
                         "RandomShuffleQueueV2", name, tf_dtypes, shapes)
    super().__init__(dtypes, shapes, names, core)


@export("queue.FIFOQueue", "FIFOQueue")
class FIFOQueue(QueueBase):
  """A queue that dequeues elements in first-in first-out order."""

  def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
               name="fifo_queue"):
    dtypes = _as_type_list(dtypes)
    shapes = _as_shape_list(shapes)
    names = _as_name_list(names, dtypes)
    capacity = _make_int(capacity, "capacity")
    tf_dtypes = [dtypes_lib.as_dtype(d) for d in dtypes]
    core = _create_queue(lambda uid: kernels.QueueCore(capacity, tf_dtypes, shapes or [], uid),
                         "FIFOQueueV2", name, tf_dtypes, shapes)
    super().__init__(dtypes, shapes, names, core)


@export("queue.PaddingFIFOQueue", "io.PaddingFIFOQueue", "PaddingFIFOQueue")
class PaddingFIFOQueue(QueueBase):
  """A FIFO queue of elements with unknown dimensions (None in `shapes`); dequeue_many pads
  them with zeros (empty strings) to the largest in the batch."""

  def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
               name="padding_fifo_queue"):
    dtypes = _as_type_list(dtypes)
    shapes = _as_shape_list(shapes, unknown_dim_allowed=True)
    names = _as_name_list(names, dtypes)
    if len(dtypes) != len(shapes):
      raise ValueError("Shapes must be provided for all components, but received %d dtypes "
                       "and %d shapes." % (len(dtypes), len(shapes)))
    capacity = _make_int(capacity, "capacity")
    tf_dtypes = [dtypes_lib.as_dtype(d) for d in dtypes]
    core = _create_queue(lambda uid: kernels.PaddingFIFOQueueCore(
        capacity, tf_dtypes, shapes, uid), "PaddingFIFOQueueV2", name, tf_dtypes, shapes)
    super().__init__(dtypes, shapes, names, core)


@export("queue.PriorityQueue", "io.PriorityQueue", "PriorityQueue")
class PriorityQueue(QueueBase):
  """A queue whose elements lead with an int64 scalar priority; the lowest leaves first.
  As in TF, `shapes` must be given (TF's kernel rejects a PriorityQueue without them)."""

  def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
               name="priority_queue"):
    types = _as_type_list(types)
    shapes = _as_shape_list(shapes)
    capacity = _make_int(capacity, "capacity")
    tf_dtypes = [dtypes_lib.int64] + [dtypes_lib.as_dtype(d) for d in types]
    kernel_shapes = [tensor_shape.TensorShape([])] + shapes if shapes else []
    core = _create_queue(lambda uid: kernels.PriorityQueueCore(
        capacity, tf_dtypes, kernel_shapes, uid), "PriorityQueueV2", name, tf_dtypes,
                         kernel_shapes)
    if not shapes:  # TF's kernel compares [] with [[]] when it verifies the new queue
      _raise((errors.InvalidArgumentError, "Shared queue '%s' has component shapes [] but "
              "requested component shapes were [[]]" % core.name), "PriorityQueueV2", name)
    super().__init__([dtypes_lib.int64] + types, [()] + shapes, names, core)


# ---- conditional accumulators ----
_ACCUMULATOR_TYPES = (dtypes_lib.float16, dtypes_lib.float32, dtypes_lib.float64)


@export("ConditionalAccumulatorBase")
class ConditionalAccumulatorBase:
  """A gradient accumulator: gradients computed at a step older than its own are dropped."""

  def __init__(self, dtype, shape, accumulator_ref):
    self._dtype = dtype
    self._shape = (tensor_shape.TensorShape(shape) if shape is not None
                   else tensor_shape.unknown_shape())
    self._accumulator_ref = accumulator_ref
    self._name = _scope_name()

  accumulator_ref = property(lambda self: self._accumulator_ref)
  name = property(lambda self: self._name)
  dtype = property(lambda self: self._dtype)

  def num_accumulated(self, name=None):
    """The number of gradients accumulated since the last take_grad (an int32 Tensor)."""
    _check_eager("ConditionalAccumulator.num_accumulated")
    with self._accumulator_ref.cond:
      return ops._from_numpy(np.asarray(self._accumulator_ref.counter, np.int32))

  def set_global_step(self, new_global_step, name=None):
    """Sets the accumulator's step (TF only logs a warning when it goes down)."""
    _check_eager("ConditionalAccumulator.set_global_step")
    step = ops.convert_to_tensor(new_global_step)
    self._accumulator_ref.set_global_step(int(np.asarray(step._value)))


@export("ConditionalAccumulator")
class ConditionalAccumulator(ConditionalAccumulatorBase):
  """Averages (reduction_type="MEAN") or sums ("SUM") the dense gradients applied to it."""

  def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
               reduction_type="MEAN"):
    op_name = "ResourceConditionalAccumulator"
    if reduction_type not in ("MEAN", "SUM"):
      raise errors.InvalidArgumentError(
          None, None, "Value for attr 'reduction_type' of \"%s\" is not in the list of allowed "
          "values: \"MEAN\", \"SUM\" [Op:%s]" % (reduction_type, op_name))
    tf_dtype = dtypes_lib.as_dtype(dtype)
    if tf_dtype not in _ACCUMULATOR_TYPES:
      raise errors.NotFoundError(
          None, None, "Could not find device for node: {{node %s}} = %s[dtype=DT_%s]\nAll "
          "kernels registered for op %s:\n  device='CPU'; dtype in [DT_DOUBLE]\n  "
          "device='CPU'; dtype in [DT_FLOAT]\n  device='CPU'; dtype in [DT_HALF]\n [Op:%s]"
          % (op_name, op_name, tf_dtype.name.upper(), op_name, op_name))
    core = kernels.AccumulatorCore(tf_dtype, tensor_shape.TensorShape(shape), reduction_type)
    super().__init__(dtype, shape, core)
    self._tf_dtype = tf_dtype

  def apply_grad(self, grad, local_step=0, name=None):
    """Adds `grad` unless `local_step` is older than the accumulator's step."""
    _check_eager("ConditionalAccumulator.apply_grad")
    grad = ops.convert_to_tensor(grad, self._tf_dtype)
    grad.shape.assert_is_compatible_with(self._shape)
    step = np.asarray(ops.convert_to_tensor(local_step)._value)
    if step.ndim:
      raise errors.InvalidArgumentError(
          None, None, "Argument local_step must be scalar, but had bad shape %s "
          "[Op:ResourceAccumulatorApplyGradient]" % kernels.shape_text(step.shape))
    error = self._accumulator_ref.apply(int(step), _host(grad))
    if error is not None:
      _raise(error, "ResourceAccumulatorApplyGradient", name)

  def take_grad(self, num_required, name=None):
    """The mean (or sum) of the gradients once `num_required` are in; resets the count and
    advances the step. Blocks until enough gradients have been applied."""
    _check_eager("ConditionalAccumulator.take_grad")
    op_name = "ResourceAccumulatorTakeGradient"
    count = _int32_input(num_required, 1, op_name, name)
    if count <= 0:
      _raise((errors.InvalidArgumentError, "Argument num_required must be positive, but was "
              "%d" % count), op_name, name)
    value, _ = self._accumulator_ref.take(count)
    return ops._from_numpy(value)


@export("sparse.SparseConditionalAccumulator", "SparseConditionalAccumulator")
class SparseConditionalAccumulator(ConditionalAccumulatorBase):
  """TF 1.15 builds it from a reference-typed op, which eager execution rejects."""

  def __init__(self, dtype, shape=None, shared_name=None,
               name="sparse_conditional_accumulator", reduction_type="MEAN"):
    raise RuntimeError("sparse_conditional_accumulator op does not support eager execution. "
                       "Arg 'handle' is a ref.")
