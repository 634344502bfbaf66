"""`tf.distribute.experimental`: CentralStorageStrategy, MultiWorkerMirroredStrategy,
ParameterServerStrategy and TPUStrategy on one machine, over the MirroredStrategy
machinery (one global SPMD computation over the local devices, see mirrored_strategy.py).

Their numbers are TF's one-machine numbers. Differences: CentralStorageStrategy (and the
local ParameterServerStrategy) keep variables replicated on the compute devices where TF
keeps one copy on the parameter device (reported by `extended.parameter_devices`); several
workers (a multi-task TF_CONFIG cluster) are not supported and raise NotImplementedError.
"""
import enum

from tfe_compat.distribute import distribute_lib
from tfe_compat.distribute import mirrored_strategy
from tfe_compat.distribute.cluster_resolver import TFConfigClusterResolver
from tfe_compat.framework import device as device_lib
from tfe_compat.framework.api import export

@export("distribute.experimental.CollectiveCommunication")
class CollectiveCommunication(enum.Enum):
  """The collective implementation of MultiWorkerMirroredStrategy (XLA chooses here)."""
  AUTO = "AUTO"
  RING = "RING"
  NCCL = "NCCL"


def _local_devices():
  """TF's default compute devices: every local GPU, else the CPU."""
  gpus = device_lib.devices_of_type("GPU")
  return ["/device:GPU:%d" % i for i in range(len(gpus))] if gpus else ["/device:CPU:0"]


def _check_single_worker(cluster_resolver, strategy_name):
  """NotImplementedError when the resolver's cluster has more than one task."""
  cluster = cluster_resolver.cluster_spec().as_dict()
  tasks = sum(len(tasks) for tasks in cluster.values())
  if tasks > 1:
    raise NotImplementedError(
        "tfe_compat runs %s on one machine only; the cluster %s (TF_CONFIG) has %d tasks. "
        "Use MirroredStrategy over the local devices, or JAX's multi-process runtime "
        "(jax.distributed)." % (strategy_name, cluster, tasks))


class _CentralStorageExtended(distribute_lib.StrategyExtended):
  """`extended` of the central-storage strategies: compute devices and the parameter
  device."""

  def __init__(self, strategy, device_names, parameter_device):
    super().__init__(strategy, device_names)
    self._parameter_device = parameter_device

  parameter_devices = property(lambda self: (self._parameter_device,))
  experimental_between_graph = True

  def non_slot_devices(self, var_list):
    return min(var_list, key=lambda x: x.name)


class _CentralStorage(mirrored_strategy._Mirrored):  # pylint: disable=protected-access
  """Compute replicated over `compute_devices`; TF's parameter device reported."""

  def __init__(self, compute_devices=None, parameter_device=None):
    compute_devices = list(compute_devices) if compute_devices else _local_devices()
    if parameter_device is None:
      parameter_device = compute_devices[0] if len(compute_devices) == 1 else "/device:CPU:0"
    super().__init__(compute_devices)
    self._extended = _CentralStorageExtended(self, self._extended.worker_devices,
                                             parameter_device)


@export("distribute.experimental.CentralStorageStrategy")
class CentralStorageStrategy(_CentralStorage):
  """One machine: replicas on `compute_devices` (default every GPU, else the CPU), variables
  on `parameter_device` (default the CPU, or the only compute device). Here the variables
  stay replicated on the compute devices; the updates are TF's."""

  def __init__(self, compute_devices=None, parameter_device=None):
    super().__init__(compute_devices, parameter_device)


@export("distribute.experimental.ParameterServerStrategy")
class ParameterServerStrategy(_CentralStorage):
  """Without a cluster (TF_CONFIG), TF's local mode: CentralStorageStrategy over the local
  GPUs (or the CPU). Parameter servers in a cluster are not supported."""

  def __init__(self, cluster_resolver=None):
    cluster_resolver = cluster_resolver or TFConfigClusterResolver()
    if cluster_resolver.cluster_spec().as_dict():
      raise NotImplementedError(
          "tfe_compat does not support ParameterServerStrategy with parameter-server and "
          "worker tasks (cluster %s): there is no distributed TensorFlow runtime. Without a "
          "cluster it runs locally, as CentralStorageStrategy."
          % cluster_resolver.cluster_spec())
    super().__init__()


@export("distribute.experimental.MultiWorkerMirroredStrategy")
class MultiWorkerMirroredStrategy(mirrored_strategy._Mirrored):  # pylint: disable=protected-access
  """One worker: MirroredStrategy over the local GPUs (or the CPU), as TF's does without a
  cluster. A TF_CONFIG cluster of several tasks raises NotImplementedError."""

  def __init__(self, communication=CollectiveCommunication.AUTO, cluster_resolver=None):
    _check_single_worker(cluster_resolver or TFConfigClusterResolver(),
                         "MultiWorkerMirroredStrategy")
    self._communication = communication
    super().__init__(_local_devices())


@export("distribute.experimental.TPUStrategy")
class TPUStrategy(mirrored_strategy._Mirrored):  # pylint: disable=protected-access
  """Replicas on the local TPU cores JAX sees; TF's RuntimeError when there are none."""

  def __init__(self, tpu_cluster_resolver=None, steps_per_run=None, device_assignment=None):
    if device_assignment is not None:
      raise NotImplementedError("tfe_compat's TPUStrategy replicates over every local TPU "
                                "core; a device_assignment is not supported.")
    tpus = device_lib.devices_of_type("TPU")
    if not tpus:
      master = tpu_cluster_resolver.master() if tpu_cluster_resolver is not None else ""
      raise RuntimeError(
          "Cannot find any TPU cores in the system (master address {}). This usually means "
          "the master address is incorrect or the TPU worker has some problems. Available "
          "devices: {}".format(master, device_lib.list_devices()))
    self.steps_per_run = steps_per_run or 1
    super().__init__(["/device:TPU:%d" % i for i in range(len(tpus))])
