"""`tf.distribute`: strategy contexts, ReduceOp, per-replica values, reductions, the default
strategy, and the loss helpers (`tf.nn.compute_average_loss`, `scale_regularization_loss`).

tfe_compat runs a strategy's replicas as ONE global SPMD computation (see
mirrored_strategy.py). A value `run` returns is a `PerReplica` holding that computation's
global result and how TF's per-replica values relate to it (its layout):
- "concat": a per-example value (leading dimension = the global batch): TF's replica values
  are its consecutive slices;
- "sum": any other value computed from the distributed batch (a loss scaled by the global
  batch size, gradients): TF's replica values add up to it;
- "mirrored": a value computed without distributed inputs: every replica has it.
`Strategy.reduce` reduces each layout exactly as TF reduces the replica values.
"""
import contextlib
import enum
import threading

import jax

from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops, math_ops, reduction_ops
from tfe_compat.ops import matmul_cast_ops


@export("distribute.ReduceOp")
class ReduceOp(enum.Enum):
  """How per-replica values combine: SUM or MEAN."""
  SUM = "SUM"
  MEAN = "MEAN"

  @staticmethod
  def from_variable_aggregation(aggregation):
    name = getattr(aggregation, "name", str(aggregation)).upper()
    if name not in ("SUM", "MEAN"):
      raise ValueError("Could not convert from `tf.VariableAggregation` %s to "
                       "`tf.distribute.ReduceOp` type" % aggregation)
    return ReduceOp(name)


def as_reduce_op(reduce_op):
  if isinstance(reduce_op, str):
    return ReduceOp(reduce_op.upper())
  if not isinstance(reduce_op, ReduceOp):
    raise TypeError("Expected `reduce_op` to be a `tf.distribute.ReduceOp`, not: %r"
                    % (reduce_op,))
  return reduce_op


# ---- Strategy contexts (per thread, like TF's distribution strategy stack) ----
class _Stack(threading.local):
  def __init__(self):
    super().__init__()
    self.entries = []  # (strategy, ReplicaContext or None for cross-replica)


_stack = _Stack()


@contextlib.contextmanager
def enter(strategy, replica_context=None):
  """Makes `strategy` current, in a replica context when one is given."""
  top = _stack.entries[-1][0] if _stack.entries else None
  if top is not None and top is not strategy and not isinstance(top, _DefaultStrategy):
    raise RuntimeError("Mixing different tf.distribute.Strategy objects: %s is not %s"
                       % (top, strategy))
  _stack.entries.append((strategy, replica_context))
  try:
    yield
  finally:
    _stack.entries.pop()


@export("distribute.get_strategy")
def get_strategy():
  """The current strategy, or the default (one replica) strategy outside any scope."""
  return _stack.entries[-1][0] if _stack.entries else _DEFAULT_STRATEGY


@export("distribute.experimental_set_strategy")
def experimental_set_strategy(strategy):
  """Makes `strategy` current as `with strategy.scope():` would, until the next call
  (None: no strategy). RuntimeError inside a strategy's scope."""
  old_scope = _global_scope[0]
  if old_scope is not None:
    old_scope.__exit__(None, None, None)
    _global_scope[0] = None
  if has_strategy():
    raise RuntimeError("Must not be called inside a `tf.distribute.Strategy` scope.")
  if strategy is not None:
    new_scope = strategy.scope()
    new_scope.__enter__()
    _global_scope[0] = new_scope


_global_scope = [None]  # the scope experimental_set_strategy entered


@export("distribute.get_loss_reduction")
def get_loss_reduction():
  """ReduceOp.SUM: TF answers the last loss reduction only inside an Estimator's scaling
  context (no Estimator here); everywhere else the optimizer need not scale the loss."""
  return ReduceOp.SUM


@export("distribute.has_strategy")
def has_strategy():
  return get_strategy() is not _DEFAULT_STRATEGY


@export("distribute.in_cross_replica_context")
def in_cross_replica_context():
  return bool(_stack.entries) and _stack.entries[-1][1] is None


@export("distribute.get_replica_context")
def get_replica_context():
  """The current ReplicaContext: None in a cross-replica context (a strategy's scope)."""
  if not _stack.entries:
    return _DEFAULT_REPLICA_CONTEXT
  return _stack.entries[-1][1]


@export("distribute.get_cross_replica_context")
def get_cross_replica_context():
  return _stack.entries[-1][0] if in_cross_replica_context() else None


def _run_batch_sizes():
  """Inside `run` with distributed inputs: the replicas' batch sizes; else None."""
  context = get_replica_context()
  return None if context is None else context._batch_sizes


# ---- Per-replica values ----
def split_sizes(total, num_replicas):
  """TF's split of a batch across replicas: as even as possible, earlier replicas larger."""
  base, extra = divmod(total, num_replicas)
  return tuple(base + 1 if i < extra else base for i in range(num_replicas))


class PerReplica:
  """A value with one component per replica (see the module docstring for `layout`)."""

  def __init__(self, value, num_replicas, layout, sizes=None):
    self._value = value
    self._num_replicas = num_replicas
    self._layout = layout
    self._sizes = sizes  # "concat": the replicas' slice sizes

  @property
  def values(self):
    """The per-replica components (TF's `PerReplica.values`)."""
    if self._layout == "mirrored":
      return (self._value,) * self._num_replicas
    if self._layout == "concat":
      out, start = [], 0
      for size in self._sizes:
        out.append(Tensor(self._value._value[start:start + size]))
        start += size
      return tuple(out)
    raise NotImplementedError(
        "tfe_compat runs the replicas of a strategy as one global computation, so the "
        "separate per-replica values of a non-batch value (here one whose replica values add "
        "up to %s) do not exist. Use strategy.reduce(ReduceOp.SUM/MEAN, value, axis=None)."
        % (self._value,))

  def __repr__(self):
    if self._layout == "sum":
      return "PerReplica(sum over %d replicas: %r)" % (self._num_replicas, self._value)
    return "PerReplica:{%s}" % ", ".join("%d: %r" % (i, v) for i, v in enumerate(self.values))


jax.tree_util.register_pytree_node(
    PerReplica, lambda p: ((p._value,), (p._num_replicas, p._layout, p._sizes)),
    lambda aux, children: PerReplica(children[0], *aux))


def _is_per_replica(x):
  return isinstance(x, PerReplica)


def unwrap_global(nest):
  """Replaces every PerReplica in `nest` by its global value."""
  return jax.tree_util.tree_map(lambda x: x._value if isinstance(x, PerReplica) else x, nest,
                                is_leaf=_is_per_replica)


def input_batch(nest):
  """The batch sizes of the first "concat" PerReplica in `nest`, or None."""
  for leaf in jax.tree_util.tree_leaves(nest, is_leaf=_is_per_replica):
    if isinstance(leaf, PerReplica) and leaf._layout == "concat":
      return leaf._sizes
  return None


def wrap_outputs(nest, num_replicas, sizes, marks=None):
  """Wraps the Tensors `fn` returned as PerReplica values (a plain nest for one replica).

  `marks` maps Tensor ids to "mirrored" (all_reduce results) or "plain" (merge_call
  results, one object in TF, returned unwrapped).
  """
  if num_replicas == 1:
    return nest
  total = None if sizes is None else sum(sizes)
  marks = marks or {}

  def wrap(x):
    if not isinstance(x, Tensor):  # Variables (mirrored in TF) and Python values as they are
      return x
    mark = marks.get(x._id)
    if mark == "plain":
      return x
    if total is None or mark == "mirrored":
      return PerReplica(x, num_replicas, "mirrored")
    if x.ndim >= 1 and x._value.shape[0] == total:
      return PerReplica(x, num_replicas, "concat", sizes)
    return PerReplica(x, num_replicas, "sum")
  return jax.tree_util.tree_map(wrap, nest)


def _mark(nest, marks, mark):
  """`nest` with its Tensors replaced by marked identities (new objects, never the inputs)."""
  def copy(x):
    if not isinstance(x, Tensor):
      return x
    x = array_ops.identity(x)
    marks[x._id] = mark
    return x
  return jax.tree_util.tree_map(copy, nest)


def _sum_along(values, axis):
  return reduction_ops.add_n([reduction_ops.reduce_sum(v, axis=axis) for v in values])


def reduce_value(reduce_op, value, axis, num_replicas):
  """TF's `Strategy.reduce` of one (possibly per-replica) value over `num_replicas`."""
  if not isinstance(value, PerReplica):
    value = ops.convert_to_tensor(value)
    if axis is None:
      if reduce_op is ReduceOp.SUM and num_replicas != 1:
        raise ValueError("A non-DistributedValues value %s cannot be reduced with the given "
                         "reduce op %s." % (value, reduce_op))
      return value
    value = PerReplica(value, num_replicas, "mirrored")
  if value._layout == "sum":
    total = value._value if axis is None else reduction_ops.reduce_sum(value._value, axis=axis)
    if reduce_op is ReduceOp.SUM:
      return total
    count = num_replicas * (1 if axis is None else value._value.shape[axis])
    return total / ops.convert_to_tensor(count, dtype=total.dtype)
  values = value.values
  if axis is None:
    total = values[0] if len(values) == 1 else reduction_ops.add_n(list(values))
    return total if reduce_op is ReduceOp.SUM else total / len(values)
  total = _sum_along(values, axis)
  if reduce_op is ReduceOp.SUM:
    return total
  count = sum(int(v._value.shape[axis]) for v in values)
  return math_ops.truediv(total, ops.convert_to_tensor(count, dtype=total.dtype))


# ---- Contexts ----
@export("distribute.ReplicaContext")
class ReplicaContext:
  """The context of `fn` inside `Strategy.run`.

  All replicas run as one global computation, so `replica_id_in_sync_group` is 0.
  """

  def __init__(self, strategy, replica_id_in_sync_group=0, batch_sizes=None):
    self._strategy = strategy
    self._replica_id = replica_id_in_sync_group
    self._batch_sizes = batch_sizes
    self._marks = {}  # Tensor id -> "mirrored" / "plain" (see wrap_outputs)

  strategy = property(lambda self: self._strategy)
  num_replicas_in_sync = property(lambda self: self._strategy.num_replicas_in_sync)
  devices = property(lambda self: self._strategy.extended.worker_devices)

  @property
  def replica_id_in_sync_group(self):
    return ops.convert_to_tensor(self._replica_id, dtype=dtypes.int32)

  def _wrap(self, nest):
    return wrap_outputs(nest, self.num_replicas_in_sync, self._batch_sizes, self._marks)

  def merge_call(self, merge_fn, args=(), kwargs=None):
    """Calls `merge_fn(strategy, *args, **kwargs)` in the cross-replica context."""
    args, kwargs = self._wrap((tuple(args), dict(kwargs or {})))
    with enter(self._strategy):
      return _mark(merge_fn(self._strategy, *args, **kwargs), self._marks, "plain")

  def all_reduce(self, reduce_op, value):
    """The reduction over replicas of `value` (a nest), as every replica sees it."""
    reduce_op = as_reduce_op(reduce_op)
    wrapped = self._wrap(value)
    return _mark(jax.tree_util.tree_map(
        lambda v: reduce_value(reduce_op, v, None, self.num_replicas_in_sync), wrapped,
        is_leaf=_is_per_replica), self._marks, "mirrored")


@export("distribute.StrategyExtended")
class StrategyExtended:
  """`strategy.extended`: devices and the cross-replica update helpers."""

  def __init__(self, strategy, device_names):
    self._strategy = strategy
    self._device_names = tuple(device_names)

  worker_devices = property(lambda self: self._device_names)
  parameter_devices = property(lambda self: self._device_names)
  experimental_require_static_shapes = False
  experimental_between_graph = False
  experimental_should_init = True
  should_checkpoint = True
  should_save_summary = True

  @contextlib.contextmanager
  def colocate_vars_with(self, colocate_with_variable):
    """Variables are replicated on every device anyway: nothing to do."""
    yield

  def non_slot_devices(self, var_list):
    return self._device_names

  def value_container(self, value):
    return value

  def read_var(self, v):
    return v.read_value()

  def call_for_each_replica(self, fn, args=(), kwargs=None):
    return self._strategy.run(fn, args=args, kwargs=kwargs)

  def reduce_to(self, reduce_op, value, destinations, experimental_hints=None, options=None):
    return self._strategy.reduce(reduce_op, value, axis=None)

  def batch_reduce_to(self, reduce_op, value_destination_pairs, experimental_hints=None,
                      options=None):
    return [self.reduce_to(reduce_op, v, d) for v, d in value_destination_pairs]

  def broadcast_to(self, tensor, destinations):
    return tensor

  def update(self, var, fn, args=(), kwargs=None, group=True):
    """Calls `fn(var, *args, **kwargs)` once (replicated variables have one value)."""
    return fn(var, *unwrap_global(tuple(args)), **unwrap_global(dict(kwargs or {})))

  def update_non_slot(self, colocate_with, fn, args=(), kwargs=None, group=True):
    return fn(*unwrap_global(tuple(args)), **unwrap_global(dict(kwargs or {})))


@export("distribute.InputReplicationMode")
class InputReplicationMode(enum.Enum):
  """How an input function is replicated: PER_WORKER, one input pipeline per worker."""
  PER_WORKER = "PER_WORKER"


@export("distribute.InputContext")
class InputContext:
  """What `experimental_distribute_datasets_from_function` passes to its `dataset_fn`."""

  def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
    self.num_input_pipelines = num_input_pipelines
    self.input_pipeline_id = input_pipeline_id
    self.num_replicas_in_sync = num_replicas_in_sync

  def get_per_replica_batch_size(self, global_batch_size):
    if global_batch_size % self.num_replicas_in_sync != 0:
      raise ValueError("The `global_batch_size` %r is not divisible by `num_replicas_in_sync` "
                       "%r " % (global_batch_size, self.num_replicas_in_sync))
    return global_batch_size // self.num_replicas_in_sync


@export("distribute.Strategy", "distribute.StrategyV1")
class Strategy:
  """Base of the strategies: contexts, `run`, `reduce` and local results.

  Subclasses set `_num_replicas`, `_extended` and define `_enter_placement()` (a context
  manager placing the variables created inside), `_run_context()` and
  `experimental_distribute_dataset`.
  """

  _num_replicas = 1

  def __init__(self, extended):
    self._extended = extended

  @property
  def num_replicas_in_sync(self):
    return self._num_replicas

  @property
  def extended(self):
    return self._extended

  @contextlib.contextmanager
  def scope(self):
    """Variables created inside are the strategy's (replicated on its devices)."""
    with enter(self), self._enter_placement():
      yield self

  def _enter_placement(self):
    return contextlib.nullcontext()

  def _run_context(self):
    return contextlib.nullcontext()

  def run(self, fn, args=(), kwargs=None, options=None):
    """Runs `fn` for all replicas at once, on the global values of the distributed inputs."""
    sizes = input_batch((args, kwargs))
    args, kwargs = unwrap_global((tuple(args), dict(kwargs or {})))
    context = ReplicaContext(self, 0, sizes)
    with enter(self, context), self._enter_placement(), self._run_context():
      out = fn(*args, **kwargs)
    return wrap_outputs(out, self._num_replicas, sizes, context._marks)

  experimental_run_v2 = run

  def experimental_run(self, fn, input_iterator=None):
    """TF1's `experimental_run`: `fn(inputs)` on the next element of `input_iterator`."""
    if input_iterator is None:
      return self.run(fn)
    return self.run(fn, args=(next(input_iterator),))

  def reduce(self, reduce_op, value, axis=None):
    """Combines per-replica `value` (a nest) over replicas, and over `axis` when given."""
    reduce_op = as_reduce_op(reduce_op)
    return jax.tree_util.tree_map(
        lambda v: reduce_value(reduce_op, v, axis, self._num_replicas), value,
        is_leaf=_is_per_replica)

  def experimental_local_results(self, value):
    """The per-replica components of `value` as a tuple ((value,) for a plain value)."""
    if isinstance(value, PerReplica):
      return value.values
    return (value,)

  unwrap = experimental_local_results

  def experimental_make_numpy_dataset(self, numpy_input, session=None):
    from tfe_compat.data import dataset_ops
    return dataset_ops.Dataset.from_tensor_slices(numpy_input)

  def make_dataset_iterator(self, dataset):
    return iter(self.experimental_distribute_dataset(dataset))

  def experimental_distribute_dataset(self, dataset, options=None):
    return dataset

  def experimental_distribute_datasets_from_function(self, dataset_fn, options=None):
    return self.experimental_distribute_dataset(
        dataset_fn(InputContext(1, 0, self._num_replicas)))

  distribute_datasets_from_function = experimental_distribute_datasets_from_function

  def group(self, value, name=None):
    return value

  def configure(self, session_config=None, cluster_spec=None, task_type=None, task_id=None):
    return None

  def update_config_proto(self, config_proto):
    return config_proto


class _DefaultStrategy(Strategy):
  """The strategy in effect outside any scope: one replica, the default device."""

  def __init__(self):
    self._extended = StrategyExtended(self, ("/job:localhost/replica:0/task:0/device:CPU:0",))


_DEFAULT_STRATEGY = _DefaultStrategy()
_DEFAULT_REPLICA_CONTEXT = ReplicaContext(_DEFAULT_STRATEGY)


# ---- Losses scaled for replicas ----
def _per_example_rank_check(per_example_loss):
  if per_example_loss.ndim == 0:
    raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at "
                     "least rank 1. Received per_example_loss=%s with rank 0"
                     % per_example_loss.numpy())


@export("nn.compute_average_loss")
def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
  """sum(per_example_loss * sample_weight) / global_batch_size (0 when that is 0).

  Inside `Strategy.run` the loss covers the global batch (see the module docstring), so the
  default `global_batch_size` is its leading dimension, which is TF's per-replica batch size
  times the number of replicas.
  """
  per_example_loss = ops.convert_to_tensor(per_example_loss)
  _per_example_rank_check(per_example_loss)
  input_dtype = per_example_loss.dtype
  if sample_weight is not None:
    weights = matmul_cast_ops.cast(ops.convert_to_tensor(sample_weight), dtypes.float32)
    losses = matmul_cast_ops.cast(per_example_loss, dtypes.float32)
    if weights.ndim == losses.ndim + 1 and weights.shape[-1] == 1:
      weights = array_ops.squeeze(weights, [-1])
    elif weights.ndim == losses.ndim - 1 and weights.ndim > 0:
      weights = array_ops.expand_dims(weights, -1)
    per_example_loss = matmul_cast_ops.cast(math_ops.multiply(losses, weights), input_dtype)
  if global_batch_size is None:
    if has_strategy() and in_cross_replica_context():
      raise RuntimeError("You are calling `compute_average_loss` in cross replica context, "
                         "while it was expected to be called in replica context.")
    global_batch_size = per_example_loss._value.shape[0]
    if _run_batch_sizes() is None:  # not the global batch: TF's per-replica size x replicas
      global_batch_size *= get_strategy().num_replicas_in_sync
  size = ops.convert_to_tensor(global_batch_size)
  if size.ndim != 0:
    raise ValueError("global_batch_size must be scalar.")
  if not size.dtype.is_integer:
    raise TypeError("global_batch_size must be an integer..  Expected \"x\" to be integer "
                    "type.  Found: tensor of %s" % size.dtype)
  if not isinstance(size._value, jax.core.Tracer) and int(size) < 0:
    raise ValueError("global_batch_size must be non-negative.")
  loss = reduction_ops.reduce_sum(per_example_loss)
  return math_ops.div_no_nan(loss, matmul_cast_ops.cast(size, input_dtype))


@export("nn.scale_regularization_loss")
def scale_regularization_loss(regularization_loss):
  """sum(regularization_loss) / num_replicas in TF's replicas; inside `run` (one global
  computation standing for all replicas) the sum of those: sum(regularization_loss)."""
  if has_strategy() and in_cross_replica_context():
    raise RuntimeError("You are calling `scale_regularization_loss` in cross replica context, "
                       "while it was expected to be called in replica context.")
  total = reduction_ops.reduce_sum(regularization_loss)
  if _run_batch_sizes() is not None:
    return total
  return total / get_strategy().num_replicas_in_sync
