"""`tensorflow.python.client.device_lib`: the local devices, as TF describes them.

`list_local_devices()` returns one record per local JAX device with the fields of TF's
`DeviceAttributes` proto that code reads: `name` ("/device:GPU:0"), `device_type`,
`memory_limit` (bytes, 0 where JAX does not say), `physical_device_desc` and `incarnation`.
"""
import dataclasses

from tfe_compat.framework import device as device_lib


@dataclasses.dataclass(frozen=True)
class DeviceAttributes:
  """What TF's `DeviceAttributes` proto holds for one local device."""
  name: str
  device_type: str
  memory_limit: int
  physical_device_desc: str
  incarnation: int

  def __str__(self):
    return ('name: "%s"\ndevice_type: "%s"\nmemory_limit: %d\nincarnation: %d\n'
            'physical_device_desc: "%s"\n' % (self.name, self.device_type, self.memory_limit,
                                             self.incarnation, self.physical_device_desc))


def _describe(jax_device, device_type, index):
  stats = {}
  try:
    stats = jax_device.memory_stats() or {}
  except Exception:  # pylint: disable=broad-except  # backends without memory statistics
    pass
  desc = ""
  if device_type != "CPU":
    desc = "device: %d, name: %s" % (index, jax_device.device_kind)
  return DeviceAttributes(name="/device:%s:%d" % (device_type, index), device_type=device_type,
                          memory_limit=int(stats.get("bytes_limit", 0)),
                          physical_device_desc=desc, incarnation=int(jax_device.id) + 1)


def list_local_devices(session_config=None):
  """The local CPU, GPU and TPU devices, CPUs first (`session_config` is accepted)."""
  del session_config
  return [_describe(d, kind, i) for kind in ("CPU", "GPU", "TPU")
          for i, d in enumerate(device_lib.devices_of_type(kind))]
