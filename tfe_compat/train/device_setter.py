"""`tf.train.replica_device_setter`: the device function that places variables on
parameter-server tasks (round robin) and other ops on the worker, as TF computes it.
Executing eagerly, `tf.device` refuses functions, as TF's does; the function can still be
called on NodeDefs."""
import copy
import logging

from tensorboardX.proto import node_def_pb2

from tfe_compat.framework import device as device_lib
from tfe_compat.framework.api import export
from tfe_compat.train import server_lib

STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable",
                   "MutableHashTableV2", "MutableHashTableOfTensors",
                   "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp",
                   "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp",
                   "ResourceConditionalAccumulator")


class _RoundRobinStrategy:
  """The next ps task index, cycling over `num_tasks`."""

  def __init__(self, num_tasks):
    self._num_tasks = num_tasks
    self._next_task = 0

  def __call__(self, unused_op):
    task = self._next_task
    self._next_task = (self._next_task + 1) % self._num_tasks
    return task


def _merged(spec, current):
  """`spec` with the fields set in `current` taking precedence (TF's make_merged_spec)."""
  merged = copy.copy(spec)
  merged.merge_from(current)
  return merged


class _ReplicaDeviceChooser:
  """Chooses a device for an op (a NodeDef, or an object with `.node_def` and `.device`)."""

  def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
    self._ps_tasks = ps_tasks
    self._ps_device = ps_device
    self._worker_device = worker_device
    self._merge_devices = merge_devices
    self._ps_ops = ps_ops
    self._ps_strategy = ps_strategy

  def device_function(self, op):
    if not self._merge_devices and op.device:
      return op.device
    current_device = device_lib.DeviceSpec.from_string(op.device or "")
    node_def = op if isinstance(op, node_def_pb2.NodeDef) else op.node_def
    if self._ps_tasks and self._ps_device and node_def.op in self._ps_ops:
      ps_device = device_lib.DeviceSpec.from_string(self._ps_device)
      current_job, ps_job = current_device.job, ps_device.job
      if ps_job and (not current_job or current_job == ps_job):
        ps_device.task = self._ps_strategy(op)
      return _merged(ps_device, current_device).to_string()
    worker_device = device_lib.DeviceSpec.from_string(self._worker_device or "")
    return _merged(worker_device, current_device).to_string()


@export("train.replica_device_setter")
def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker",
                          merge_devices=True, cluster=None, ps_ops=None, ps_strategy=None):
  """A device function for `tf.device` placing `ps_ops` (variables) on the `ps` tasks in
  round robin and other ops on `worker_device`; None when there are no ps tasks."""
  if cluster is not None:
    if isinstance(cluster, server_lib.ClusterSpec):
      cluster_spec = cluster.as_dict()
    else:
      cluster_spec = server_lib.ClusterSpec(cluster).as_dict()
    ps_job_name = device_lib.DeviceSpec.from_string(ps_device).job
    if ps_job_name not in cluster_spec or cluster_spec[ps_job_name] is None:
      return None
    ps_tasks = len(cluster_spec[ps_job_name])
  if ps_tasks == 0:
    return None
  if ps_ops is None:
    ps_ops = list(STANDARD_PS_OPS)
  if not merge_devices:
    logging.getLogger("tensorflow").warning(
        "DEPRECATION: It is recommended to set merge_devices=true in replica_device_setter")
  if ps_strategy is None:
    ps_strategy = _RoundRobinStrategy(ps_tasks)
  if not callable(ps_strategy):
    raise TypeError("ps_strategy must be callable")
  return _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops,
                               ps_strategy).device_function
