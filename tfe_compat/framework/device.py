"""Devices: TF device strings, `tf.DeviceSpec`, `tf.device` scopes over JAX devices."""
import contextlib
import warnings

import jax
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import errors
from tfe_compat.framework.api import export

_TF_TYPE = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU"}
_JAX_PLATFORM = {"CPU": "cpu", "GPU": "gpu", "TPU": "tpu"}


@export("DeviceSpec")
class DeviceSpec:
  """`tf.DeviceSpec`: job, replica, task, device type and index of a device string."""

  def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
    self.job = job
    self.replica = None if replica is None else int(replica)
    self.task = None if task is None else int(task)
    self.device_type = None if device_type is None else (
        device_type.upper() if device_type.lower() in ("cpu", "gpu", "tpu") else device_type)
    self.device_index = None if device_index is None else int(device_index)

  @classmethod
  def from_string(cls, spec):
    return cls().parse_from_string(spec)

  def parse_from_string(self, spec):
    """Parses "/job:x/replica:0/task:0/device:GPU:1", "/gpu:0", "gpu:1", "CPU" and the like."""
    for part in (spec or "").split("/"):
      fields = part.split(":")
      key = fields[0].lower()
      if not part:
        continue
      if len(fields) == 2 and key in ("job", "replica", "task"):
        setattr(self, key, fields[1] if key == "job" else int(fields[1]))
      elif key == "device" and len(fields) in (2, 3):
        self.device_type = fields[1].upper() if fields[1].lower() in _TF_TYPE else fields[1]
        if len(fields) == 3 and fields[2] != "*":
          self.device_index = int(fields[2])
      elif len(fields) in (1, 2) and key in ("cpu", "gpu", "tpu", "xla_cpu", "xla_gpu"):
        self.device_type = key.replace("xla_", "").upper()
        if len(fields) == 2 and fields[1] != "*":
          self.device_index = int(fields[1])
      else:
        raise ValueError("Unknown attribute: '%s' in '%s'" % (part, spec))
    return self

  def merge_from(self, dev):
    for key in ("job", "replica", "task", "device_type", "device_index"):
      if getattr(dev, key) is not None:
        setattr(self, key, getattr(dev, key))

  def to_string(self):
    out = ""
    if self.job is not None:
      out += "/job:" + str(self.job)
    if self.replica is not None:
      out += "/replica:" + str(self.replica)
    if self.task is not None:
      out += "/task:" + str(self.task)
    if self.device_type is not None:
      index = "*" if self.device_index is None else str(self.device_index)
      out += "/device:%s:%s" % (self.device_type, index)
    return out

  __str__ = to_string

  def __repr__(self):
    return ("<DeviceSpec(job=%s, replica=%s, task=%s, device_type=%s, device_index=%s)>"
            % (self.job, self.replica, self.task, self.device_type, self.device_index))

  def __eq__(self, other):
    return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

  def __hash__(self):
    return hash(self.to_string())


def local_devices(device_type):
  """Every local JAX device of a TF device type ("CPU", "GPU", "TPU"), visible or not."""
  try:
    return jax.local_devices(backend=_JAX_PLATFORM[device_type])
  except (RuntimeError, KeyError):
    return []


_visible = None  # the JAX devices `tf.config.set_visible_devices` leaves (None: all)
soft_placement = True  # `tf.config.set_soft_device_placement`


def devices_of_type(device_type):
  """The visible local JAX devices of a TF device type, in index order: TF's logical
  devices ("GPU:0" is the first visible GPU)."""
  found = local_devices(device_type)
  return found if _visible is None else [d for d in found if d in _visible]


def set_visible(jax_devices):
  """Restricts placement to `jax_devices` (None: all); JAX's default device becomes the
  first visible one of its default platform (else of the CPU)."""
  global _visible  # pylint: disable=global-statement
  _visible = None if jax_devices is None else list(jax_devices)
  default = None
  if _visible is not None:
    preferred = ([d for d in _visible if d.platform == jax.default_backend()] or
                 [d for d in _visible if d.platform == "cpu"] or _visible)
    default = preferred[0] if preferred else None
  jax.config.update("jax_default_device", default)


def tf_name(jax_device):
  """The TF-style full name of a JAX device."""
  kind = _TF_TYPE.get(jax_device.platform, jax_device.platform.upper())
  visible = devices_of_type(kind) if kind in _JAX_PLATFORM else []
  index = visible.index(jax_device) if jax_device in visible else jax_device.id
  return "/job:localhost/replica:0/task:0/device:%s:%d" % (kind, index)


try:  # JAX's own host-to-device transfer, the one `jax.device_put` ends in
  from jax._src import core as _core  # pylint: disable=g-import-not-at-top
  from jax._src.interpreters import pxla as _pxla  # pylint: disable=g-import-not-at-top
  _batched_device_put = _pxla.batched_device_put
except (ImportError, AttributeError):
  _batched_device_put = None
_shardings = {}
_avals = {}


def put(array, device=None):
  """A copy of a numeric NumPy array on `device` (committed there), or on JAX's default
  device (uncommitted, as `jnp.asarray` leaves it). The transfer `jax.device_put` makes,
  without its ~20 us of Python dispatch (~5 us in all for small arrays on a CPU)."""
  committed = device is not None
  if device is None:
    device = jax.config.jax_default_device or jax.devices()[0]
  array = np.array(array, order="C")  # ours alone: the transfer may alias it, or read it later
  if _batched_device_put is not None:
    sharding = _shardings.get(device)
    if sharding is None:
      sharding = _shardings[device] = jax.sharding.SingleDeviceSharding(device)
    key = (array.shape, array.dtype)
    aval = _avals.get(key)
    if aval is None:
      if len(_avals) > 4096:
        _avals.clear()
      aval = _avals[key] = _core.ShapedArray(*key)
    try:
      return _batched_device_put(aval, sharding, [array], [device], committed)
    except (TypeError, ValueError):  # a dtype JAX lacks: the public call says so
      pass
  return jax.device_put(array, device) if committed else jax.numpy.asarray(array)


_warned = set()


def resolve(spec):
  """The JAX device a TF device string names, with soft placement onto the CPU."""
  if isinstance(spec, DeviceSpec):
    spec = spec.to_string()
  parsed = DeviceSpec.from_string(spec)
  if parsed.device_type is None:
    return None
  found = devices_of_type(parsed.device_type)
  index = parsed.device_index or 0
  if index < len(found):
    return found[index]
  if not soft_placement:
    available = ", ".join(list_devices())
    raise errors.invalid_argument(
        "Could not satisfy device specification '%s'. enable_soft_placement=0. Supported "
        "device types [%s]. All available devices [%s]." % (
            "/job:localhost/replica:0/task:0/device:%s:%d" % (parsed.device_type, index),
            ", ".join(k for k in ("CPU", "GPU", "TPU") if devices_of_type(k)), available))
  if parsed.device_type not in _warned:  # one warning per missing kind, as a laptop run wants
    _warned.add(parsed.device_type)
    warnings.warn("Device %r is not available; running on %s instead (soft placement)."
                  % (spec, tf_name(jax.local_devices(backend="cpu")[0])), stacklevel=4)
  return jax.local_devices(backend="cpu")[0]


@export("device")
@contextlib.contextmanager
def device(device_name_or_function):
  """`tf.device`: runs the ops inside on the named device (`None` clears the scope)."""
  if callable(device_name_or_function):
    if context.ctx.graph is None:
      raise RuntimeError("tf.device does not support functions when eager execution is "
                         "enabled.")
    device_name_or_function = None  # a graph's device function (replica_device_setter)
  building = context.ctx.graph is not None and context.ctx.graph_env is None
  # graph ops are placed when a Session runs them (client/session.py)
  target = None if device_name_or_function is None or building else \
      resolve(device_name_or_function)
  if target is None and context.ctx.device_stack and device_name_or_function:
    target = context.ctx.device_stack[-1][1]  # "/job:localhost" alone keeps the device
  context.ctx.device_stack.append((device_name_or_function, target))
  try:
    if target is None:
      yield
    else:
      with jax.default_device(target):
        yield
  finally:
    context.ctx.device_stack.pop()


@export("contrib.eager.num_gpus")
def num_gpus():
  return len(devices_of_type("GPU"))


@export("contrib.eager.list_devices")
def list_devices():
  """`tfe.list_devices()`: TF-style names of every local device."""
  return [tf_name(d) for kind in ("CPU", "GPU", "TPU") for d in devices_of_type(kind)]


def gpu_device(index=0):
  """The JAX device for GPU `index`, or a clear RuntimeError when there is none."""
  gpus = devices_of_type("GPU")
  if index >= len(gpus):
    raise RuntimeError("GPU:%d is not available: this machine has %d GPU(s) visible to JAX "
                       "(jax.devices() = %s)." % (index, len(gpus), jax.devices()))
  return gpus[index]


def cpu_device(index=0):
  return devices_of_type("CPU")[index]


@export("test.is_gpu_available")
def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
  return num_gpus() > 0


@export("test.gpu_device_name")
def gpu_device_name():
  return "/device:GPU:0" if num_gpus() else ""


def _has_backend(platform):
  """Whether JAX has a backend for `platform` ("cuda", "rocm") with at least one device."""
  try:
    return bool(jax.devices(platform))
  except RuntimeError:
    return False


@export("test.is_built_with_cuda")
def is_built_with_cuda():
  """True when JAX has a CUDA GPU backend (tfe_compat's "build" is the installed jaxlib)."""
  return _has_backend("cuda")


@export("test.is_built_with_rocm")
def is_built_with_rocm():
  """True when JAX has a ROCm GPU backend."""
  return _has_backend("rocm")


@export("test.is_built_with_gpu_support")
def is_built_with_gpu_support():
  return is_built_with_cuda() or is_built_with_rocm()
