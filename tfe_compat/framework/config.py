"""`tf.config`: devices, memory, threads, optimizer and placement settings, over JAX.

Physical devices are JAX's local devices ("/physical_device:GPU:1" is
`jax.local_devices(backend="gpu")[1]`); logical devices are the visible ones, renumbered
("/device:GPU:0" is the first visible GPU). As in TF, device settings are fixed once the
runtime is initialized: here, once an array exists or logical devices were listed.
Settings JAX fixes when it starts (memory preallocation, thread pools, splitting devices)
are remembered, and say in their docstrings which environment variables set them in JAX.
"""
import collections
import os
import threading
import warnings

import jax

from tfe_compat.framework import device as device_lib
from tfe_compat.framework.api import export

_TYPES = ("CPU", "GPU", "TPU")

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
export("config.PhysicalDevice")(PhysicalDevice)
export("config.LogicalDevice")(LogicalDevice)


@export("config.experimental.VirtualDeviceConfiguration")
class VirtualDeviceConfiguration(
    collections.namedtuple("VirtualDeviceConfiguration", ["memory_limit"])):
  """The configuration of one virtual device of a physical device (`memory_limit` in MB)."""

  def __new__(cls, memory_limit=None):
    return super().__new__(cls, memory_limit)


class _Settings:
  def __init__(self):
    self.initialized = False
    self.memory_growth = {}   # PhysicalDevice -> bool, or None while unset (GPUs only)
    self.virtual = {}         # PhysicalDevice -> [VirtualDeviceConfiguration]
    self.threads = {"inter": 0, "intra": 0}
    self.jit = False
    self.optimizer_options = {}
    self.run_functions_eagerly = False


_settings = _Settings()
_thread = threading.local()  # device_policy, synchronous: per thread, as in TF


def _initialized():
  """Whether the runtime has started: an array exists or logical devices were listed."""
  if not _settings.initialized:
    _settings.initialized = bool(jax.live_arrays())
  return _settings.initialized


def _physical():
  """[(PhysicalDevice, jax.Device)] of every local device."""
  return [(PhysicalDevice("/physical_device:%s:%d" % (kind, i), kind), d)
          for kind in _TYPES for i, d in enumerate(device_lib.local_devices(kind))]


def _jax_device(device):
  for physical, jax_device in _physical():
    if physical == device:
      return jax_device
  raise ValueError("Unrecognized device: %s" % repr(device))


# ---- Devices ----
@export("config.experimental.list_physical_devices", "config.list_physical_devices")
def list_physical_devices(device_type=None):
  """The local devices ("CPU", "GPU", "TPU"), visible or not; all of them by default."""
  return [p for p, _ in _physical() if device_type is None or p.device_type == device_type]


@export("config.experimental.list_logical_devices", "config.list_logical_devices")
def list_logical_devices(device_type=None):
  """The devices ops run on: the visible ones, numbered from 0 per type."""
  _settings.initialized = True
  return [LogicalDevice("/device:%s:%d" % (kind, i), kind) for kind in _TYPES
          if device_type is None or kind == device_type
          for i in range(len(device_lib.devices_of_type(kind)))]


@export("config.experimental.get_visible_devices", "config.get_visible_devices")
def get_visible_devices(device_type=None):
  """The physical devices ops may be placed on."""
  visible = {id(d) for kind in _TYPES for d in device_lib.devices_of_type(kind)}
  return [p for p, d in _physical() if id(d) in visible and
          (device_type is None or p.device_type == device_type)]


@export("config.experimental.set_visible_devices", "config.set_visible_devices")
def set_visible_devices(devices, device_type=None):
  """Restricts placement to `devices` (of `device_type` only, if given: the visible devices
  of other types stay). `tf.device("/gpu:0")` then names the first visible GPU."""
  if not isinstance(devices, list):
    devices = [devices]
  for d in devices:
    _jax_device(d)
    if device_type is not None and d.device_type != device_type:
      raise ValueError("Unrecognized device: %s" % repr(d))
  current = get_visible_devices()
  visible = [] if device_type is None else [d for d in current if d.device_type != device_type]
  visible += devices
  if visible == current:
    return
  if _initialized():
    raise RuntimeError("Visible devices cannot be modified after being initialized")
  device_lib.set_visible([_jax_device(d) for d in visible])


export("config.experimental_list_devices")(device_lib.list_devices)


# ---- Memory and virtual devices ----
def _memory_growth_map():
  for physical, _ in _physical():
    if physical.device_type == "GPU":
      _settings.memory_growth.setdefault(physical, None)
  return _settings.memory_growth


@export("config.experimental.get_memory_growth")
def get_memory_growth(device):
  """Whether memory growth was requested for a GPU (None if never set)."""
  _jax_device(device)
  return _memory_growth_map()[device]


@export("config.experimental.set_memory_growth")
def set_memory_growth(device, enable):
  """Remembers the request. JAX allocates GPU memory as its environment says when it starts:
  `XLA_PYTHON_CLIENT_PREALLOCATE=false` allocates as needed (TF's memory growth),
  `XLA_PYTHON_CLIENT_MEM_FRACTION=.5` preallocates that fraction; set them before the
  program starts. Asking for growth without the first warns."""
  _jax_device(device)
  if device in _settings.virtual:
    raise ValueError("Cannot set memory growth on device when virtual devices configured")
  if device.device_type != "GPU":
    raise ValueError("Cannot set memory growth on non-GPU devices")
  growth = _memory_growth_map()
  if growth.get(device) == enable:
    return
  if _initialized():
    raise RuntimeError("Physical devices cannot be modified after being initialized")
  growth[device] = enable
  if enable and os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "").lower() != "false":
    warnings.warn("Memory growth is set by JAX's environment, before the program starts: "
                  "XLA_PYTHON_CLIENT_PREALLOCATE=false. Without it JAX preallocates GPU "
                  "memory.", stacklevel=2)


@export("config.experimental.get_virtual_device_configuration")
def get_virtual_device_configuration(device):
  """The virtual devices set for `device`, or None."""
  _jax_device(device)
  return _settings.virtual.get(device)


@export("config.experimental.set_virtual_device_configuration")
def set_virtual_device_configuration(device, virtual_devices):
  """One virtual device per physical device is what JAX has, and is accepted; splitting a
  device raises NotImplementedError (for N CPU devices, start the program with
  `XLA_FLAGS=--xla_force_host_platform_device_count=N`; GPU memory limits are
  `XLA_PYTHON_CLIENT_MEM_FRACTION`)."""
  _jax_device(device)
  if device.device_type == "CPU":
    if any(v.memory_limit is not None for v in virtual_devices):
      raise ValueError("Setting memory limit on CPU virtual devices is currently not "
                       "supported")
  elif device.device_type == "GPU":
    if any(v.memory_limit is None for v in virtual_devices):
      raise ValueError("Setting memory limit is required for GPU virtual devices")
  else:
    raise ValueError("Virtual devices are not supported for %s" % device.device_type)
  if _settings.virtual.get(device) == virtual_devices:
    return
  if _initialized():
    raise RuntimeError("Virtual devices cannot be modified after being initialized")
  if device.device_type == "GPU" or len(virtual_devices) != 1:
    raise NotImplementedError(
        "tfe_compat cannot split %s into virtual devices: JAX fixes its devices when it "
        "starts (XLA_FLAGS=--xla_force_host_platform_device_count=N gives N CPU devices; "
        "XLA_PYTHON_CLIENT_MEM_FRACTION limits GPU memory)." % device.name)
  _settings.virtual[device] = list(virtual_devices)


# ---- Threads, optimizer, execution ----
def _set_threads(kind, num_threads):
  if _settings.threads[kind] == num_threads:
    return
  if _initialized():
    raise RuntimeError("%s op parallelism cannot be modified after initialization."
                       % kind.capitalize())
  _settings.threads[kind] = num_threads


@export("config.threading.get_intra_op_parallelism_threads")
def get_intra_op_parallelism_threads():
  """The remembered setting (0: the system picks). XLA sizes its CPU thread pool itself."""
  return _settings.threads["intra"]


@export("config.threading.set_intra_op_parallelism_threads")
def set_intra_op_parallelism_threads(num_threads):
  """Remembered only: XLA's CPU thread pool is sized when JAX starts (taskset limits it)."""
  _set_threads("intra", num_threads)


@export("config.threading.get_inter_op_parallelism_threads")
def get_inter_op_parallelism_threads():
  """The remembered setting (0: the system picks)."""
  return _settings.threads["inter"]


@export("config.threading.set_inter_op_parallelism_threads")
def set_inter_op_parallelism_threads(num_threads):
  """Remembered only: JAX dispatches operations asynchronously from one Python thread."""
  _set_threads("inter", num_threads)


@export("config.optimizer.get_jit")
def get_optimizer_jit():
  """Whether XLA auto-clustering was requested (tf.function always compiles with XLA)."""
  return _settings.jit


@export("config.optimizer.set_jit")
def set_optimizer_jit(enabled):
  """Remembered: `tf.function` bodies are always compiled by XLA here."""
  _settings.jit = enabled


@export("config.optimizer.get_experimental_options")
def get_optimizer_experimental_options():
  """The Grappler options set so far (a new dict)."""
  return dict(_settings.optimizer_options)


@export("config.optimizer.set_experimental_options")
def set_optimizer_experimental_options(options):
  """Remembered: Grappler's graph rewrites have no counterpart; XLA optimizes instead."""
  _settings.optimizer_options.update(options)


@export("config.get_soft_device_placement")
def get_soft_device_placement():
  """Whether a missing device falls back to the CPU (True by default here)."""
  return device_lib.soft_placement


@export("config.set_soft_device_placement")
def set_soft_device_placement(enabled):
  """With False, `tf.device` naming a missing device raises InvalidArgumentError."""
  device_lib.soft_placement = bool(enabled)


_POLICIES = ("silent", "silent_for_int32", "warn", "explicit")


@export("config.experimental.get_device_policy")
def get_device_policy():
  """The current thread's device policy ("silent" by default)."""
  return getattr(_thread, "device_policy", None) or "silent"


@export("config.experimental.set_device_policy")
def set_device_policy(device_policy):
  """Remembered for the current thread; JAX copies inputs between devices as "silent" does."""
  if device_policy is not None and device_policy not in _POLICIES:
    raise ValueError("Not a valid device policy: %r" % (device_policy,))
  _thread.device_policy = device_policy


@export("config.experimental.get_synchronous_execution")
def get_synchronous_execution():
  """Whether the current thread asked for synchronous execution (the default)."""
  return getattr(_thread, "synchronous", None) is not False


@export("config.experimental.set_synchronous_execution")
def set_synchronous_execution(enable):
  """Remembered: JAX dispatches asynchronously and waits when a value is read, as TF's
  async mode does; errors in a computation surface when its result is read."""
  _thread.synchronous = None if enable is None else bool(enable)


@export("config.experimental_run_functions_eagerly")
def experimental_run_functions_eagerly(run_eagerly):
  """With True, `tf.function`s call their Python function eagerly (for debugging)."""
  _settings.run_functions_eagerly = bool(run_eagerly)


@export("config.experimental_functions_run_eagerly")
def functions_run_eagerly():
  return _settings.run_functions_eagerly


@export("config.experimental_connect_to_cluster")
def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name="localhost",
                                    task_index=0, protocol=None):
  raise NotImplementedError("tfe_compat runs on the local JAX devices; for several hosts, "
                            "start each with jax.distributed.initialize().")


@export("config.experimental_connect_to_host")
def experimental_connect_to_host(remote_host=None, job_name="worker"):
  raise NotImplementedError("tfe_compat runs on the local JAX devices; remote hosts are not "
                            "supported.")
