"""`tf.distribute.MirroredStrategy` and `OneDeviceStrategy` on JAX sharding.

Data parallelism over a 1-D `jax.sharding.Mesh` of the strategy's devices (axis "batch"):
- variables created in `scope()` (or inside `run`) hold one array replicated on every
  device (`NamedSharding(mesh, P())`), TF's MirroredVariable;
- `experimental_distribute_dataset` places each batch split along axis 0 across the devices
  (`NamedSharding(mesh, P("batch"))`); the elements are PerReplica values whose replica
  components are the consecutive slices TF's replicas get;
- `run(fn, args)` calls `fn` ONCE, on the global (sharded) batch: JAX's SPMD partitioner
  runs every op (eagerly, or the whole step under `tf.function`) data-parallel on the
  shards, with the collectives XLA needs.

Why one global call: in TF every replica runs `fn` on its slice, and
`optimizer.apply_gradients` sums the replicas' gradients before one update. When the loss is
a sum over examples divided by the global batch size (`tf.nn.compute_average_loss`, or
`reduce_sum(...) / GLOBAL_BATCH_SIZE`, the scaling TF requires for correct training), the
global call's loss is the sum of the replica losses, so its gradient IS the sum of the
replica gradients, and the one optimizer update is TF's update, for every optimizer, with
no change to the optimizers. Values `run` returns are classified (see distribute_lib) so
`reduce` and `experimental_local_results` give TF's numbers for per-example values and for
such sums. Differences from TF, all from the one global call:
- a loss NOT scaled by the global batch size (e.g. a per-replica `reduce_mean`) gives the
  single-device gradient, where TF's summed replica gradients are num_replicas times larger;
- `run` with no distributed inputs runs `fn` once (TF: once per replica on the same values);
  its results are mirrored (reduce SUM multiplies by num_replicas, as in TF), but a
  gradient step inside it is applied once, not summed over replicas;
- BatchNormalization in training normalizes with global-batch statistics (TF: per replica);
- `replica_id_in_sync_group` is 0, and scalar results that are not sums over the batch
  (a returned constant) reduce as sums: SUM gives the value itself.
"""
import contextlib

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from tfe_compat import state_ops
from tfe_compat.data import structure
from tfe_compat.distribute import distribute_lib
from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor

_ctx = context.ctx


class _Placement:
  """Variable scope of a strategy: new variables are replicated; reads and writes pass."""

  def __init__(self, outer, sharding):
    self.outer = outer
    self.sharding = sharding

  def read(self, var):
    return state_ops.read_direct(var) if self.outer is None else self.outer.read(var)

  def write(self, var, value):
    if self.outer is None:
      state_ops.write_direct(var, value)
    else:
      self.outer.write(var, value)

  def variable_created(self, var):
    created = getattr(self.outer, "variable_created", None)
    if created is not None:
      created(var)
    value = var._value  # the initial value, placed once (a tf.device scope inside wins)
    if var._device is None and isinstance(value, jax.Array) and \
        not isinstance(value, jax.core.Tracer):
      state_ops.write_direct(var, jax.device_put(value, self.sharding))


def _resolve_devices(devices):
  if not devices:
    return list(jax.local_devices())
  if isinstance(devices, str):
    devices = [devices]
  names = [d.to_string() if isinstance(d, device_lib.DeviceSpec) else d for d in devices]
  full = [device_lib.tf_name(device_lib.resolve(n)) for n in names]
  if len(set(full)) != len(full):
    raise AssertionError("No duplicates allowed in `devices` argument: %s" % (tuple(full),))
  return [device_lib.resolve(n) for n in names]


class _DistributedIterator:
  """Yields the dataset's batches split across the replicas (PerReplica leaves)."""

  def __init__(self, dataset, strategy, per_replica_batches):
    self._dataset = dataset
    self._strategy = strategy
    self._elements = dataset._make_iter()
    self._per_replica_batches = per_replica_batches
    self._checked = False

  def __iter__(self):
    return self

  def __next__(self):
    if self._per_replica_batches:
      parts = []  # one dataset element per replica, joined into the global batch
      for _ in range(self._strategy.num_replicas_in_sync):
        try:
          parts.append(structure.checked(next(self._elements)))
        except StopIteration:
          break
      if not parts:
        raise StopIteration
      flat = [structure.flatten(p) for p in parts]
      element = structure.pack_as(parts[0], [np.concatenate([np.asarray(f[i]) for f in flat])
                                             for i in range(len(flat[0]))])
    else:
      element = structure.checked(next(self._elements))
    placed = self._strategy._place_batch(element, check=not self._checked)
    self._checked = True
    return placed

  def get_next(self, name=None):
    try:
      return self.__next__()
    except StopIteration:
      raise errors.OutOfRangeError(None, None, "End of sequence") from None

  next = __next__
  element_spec = property(lambda self: self._dataset.element_spec)


class DistributedDataset:
  """What `experimental_distribute_dataset` returns: iterate it (`for`, `iter`)."""

  def __init__(self, dataset, strategy, per_replica_batches=False):
    self._dataset = dataset
    self._strategy = strategy
    self._per_replica_batches = per_replica_batches

  def __iter__(self):
    return _DistributedIterator(self._dataset, self._strategy, self._per_replica_batches)

  def make_one_shot_iterator(self):
    return iter(self)

  element_spec = property(lambda self: self._dataset.element_spec)


class _Mirrored(distribute_lib.Strategy):
  """One replica per device, variables replicated, batches split along axis 0."""

  def __init__(self, devices, cross_device_ops=None):
    self._devices = _resolve_devices(devices)
    self._mesh = Mesh(np.array(self._devices), ("batch",))
    self._replicated = NamedSharding(self._mesh, PartitionSpec())
    self._batch_sharding = NamedSharding(self._mesh, PartitionSpec("batch"))
    self._num_replicas = len(self._devices)
    self._cross_device_ops = cross_device_ops  # XLA chooses the collectives
    self._extended = distribute_lib.StrategyExtended(
        self, [device_lib.tf_name(d) for d in self._devices])

  @contextlib.contextmanager
  def _enter_placement(self):
    outer = _ctx.variable_scope
    _ctx.variable_scope = _Placement(outer, self._replicated)
    try:
      yield
    finally:
      _ctx.variable_scope = outer

  def experimental_distribute_dataset(self, dataset, options=None):
    """Each batch of `dataset` split along axis 0 across the replicas.

    The global batch size (the first batch's leading dimension) must be divisible by the
    number of replicas; a smaller final batch is split as evenly as possible (earlier
    replicas one example more), as TF does.
    """
    return DistributedDataset(dataset, self)

  def experimental_distribute_datasets_from_function(self, dataset_fn, options=None):
    """`dataset_fn(input_context)` gives per-replica batches; replica i gets every R-th."""
    dataset = dataset_fn(distribute_lib.InputContext(1, 0, self._num_replicas))
    return DistributedDataset(dataset, self, per_replica_batches=True)

  distribute_datasets_from_function = experimental_distribute_datasets_from_function

  def _place_batch(self, element, check):
    """A NumPy nest as Tensors split across the devices (PerReplica leaves)."""
    replicas = self._num_replicas
    leaves = structure.flatten(element)
    numeric = [i for i, leaf in enumerate(leaves)
               if not hasattr(leaf, "_make_iter") and np.asarray(leaf).dtype != object]
    arrays = [np.asarray(leaves[i]) for i in numeric]
    if check:
      for array in arrays:
        if array.ndim == 0:
          raise ValueError("Call the `batch` method on the input Dataset in order to be able "
                           "to split your input across %d replicas." % replicas)
        if array.shape[0] % replicas:
          raise errors.InvalidArgumentError(
              None, None, "Cannot split a batch of %d examples evenly across %d replicas: the "
              "global batch size must be divisible by num_replicas_in_sync."
              % (array.shape[0], replicas))
    shardings = [self._batch_sharding if a.ndim and a.shape[0] % replicas == 0
                 else self._replicated for a in arrays]
    out = list(leaves)
    for i, value in zip(numeric, jax.device_put(arrays, shardings)):
      out[i] = Tensor(value)
    for i, leaf in enumerate(leaves):
      if out[i] is leaf and not hasattr(leaf, "_make_iter"):
        out[i] = Tensor(np.asarray(leaf, dtype=object))
    if replicas > 1:
      out = [distribute_lib.PerReplica(t, replicas, "concat",
                                       distribute_lib.split_sizes(t._value.shape[0], replicas))
             if isinstance(t, Tensor) and t.ndim else t for t in out]
    return structure.pack_as(element, out)


@export("distribute.MirroredStrategy")
class MirroredStrategy(_Mirrored):
  """Synchronous data parallelism over `devices` (default: every local device of the default
  JAX backend, which for a GPU machine is TF's default, all GPUs)."""

  def __init__(self, devices=None, cross_device_ops=None):
    super().__init__(devices, cross_device_ops)


@export("contrib.distribute.MirroredStrategy")
class ContribMirroredStrategy(_Mirrored):
  """TF 1.x `tf.contrib.distribute.MirroredStrategy` (`num_gpus`, `cross_tower_ops`)."""

  def __init__(self, devices=None, num_gpus=None, num_gpus_per_worker=None,
               cross_device_ops=None, auto_shard_dataset=False, cross_tower_ops=None):
    count = num_gpus if num_gpus is not None else num_gpus_per_worker
    if devices is None and count is not None:
      gpus = device_lib.devices_of_type("GPU")
      devices = ["/device:GPU:%d" % i for i in range(count)] if gpus else ["/device:CPU:0"]
    super().__init__(devices, cross_device_ops or cross_tower_ops)

  def distribute_dataset(self, dataset_fn):
    return self.experimental_distribute_dataset(dataset_fn())


@export("distribute.OneDeviceStrategy", "contrib.distribute.OneDeviceStrategy")
class OneDeviceStrategy(_Mirrored):
  """One replica on `device`: variables and the ops in `run` are placed there."""

  def __init__(self, device):
    self._device_name = device
    super().__init__([device])

  def _enter_placement(self):
    return device_lib.device(self._device_name)

  def _run_context(self):
    return device_lib.device(self._device_name)


@export("distribute.CrossDeviceOps")
class CrossDeviceOps:
  """How replicas exchange values in TF; accepted for compatibility: under JAX the XLA
  compiler chooses the collectives."""

  def __init__(self, *args, **kwargs):
    self._args, self._kwargs = args, kwargs


export("distribute.NcclAllReduce")(type("NcclAllReduce", (CrossDeviceOps,), {}))
export("distribute.HierarchicalCopyAllReduce")(
    type("HierarchicalCopyAllReduce", (CrossDeviceOps,), {}))
export("distribute.ReductionToOneDevice")(type("ReductionToOneDevice", (CrossDeviceOps,), {}))
