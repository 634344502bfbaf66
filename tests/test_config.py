"""tf.config (devices, memory, threads, optimizer, placement, eager functions) and tf.version.

Values and messages are TF's (TF 1.15's where it differs from the 2.x oracle). Settings that
TF fixes once the runtime is initialized are checked before initialization in a fresh
process with two CPU devices.
"""
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

import tfe_compat as tf

CPU = tf.config.experimental.list_physical_devices("CPU")[0]


def test_version_constants():
  assert tf.version.VERSION == tf.VERSION == tf.__version__ == "1.15.0"
  assert tf.version.GIT_VERSION == tf.GIT_VERSION == tf.__git_version__ == (
      "v1.15.0-rc3-22-g590d6ee")
  assert tf.version.COMPILER_VERSION == tf.COMPILER_VERSION == "7.3.1 20180303"
  assert tf.version.GRAPH_DEF_VERSION == tf.GRAPH_DEF_VERSION == 134
  assert tf.GRAPH_DEF_VERSION_MIN_CONSUMER == tf.version.GRAPH_DEF_VERSION_MIN_PRODUCER == 0
  assert (tf.CXX11_ABI_FLAG, tf.MONOLITHIC_BUILD, tf.__cxx11_abi_flag__) == (0, 0, 0)
  assert tf.compat.v1.version.VERSION == "1.15.0"


def test_physical_and_logical_devices():
  physical = tf.config.experimental.list_physical_devices()
  assert physical[0] == CPU
  assert repr(CPU) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
  assert isinstance(CPU, tuple) and CPU.device_type == "CPU"
  assert tf.config.list_physical_devices("GPU") == [
      d for d in physical if d.device_type == "GPU"]
  assert tf.config.list_physical_devices("XYZ") == []
  logical = tf.config.experimental.list_logical_devices("CPU")
  assert repr(logical) == "[LogicalDevice(name='/device:CPU:0', device_type='CPU')]"
  assert len(tf.config.list_logical_devices()) == len(physical)
  assert tf.config.experimental_list_devices()[0] == (
      "/job:localhost/replica:0/task:0/device:CPU:0")
  assert tf.config.experimental.get_visible_devices() == physical


def test_visible_devices_checks():
  with pytest.raises(ValueError, match=r"Unrecognized device: PhysicalDevice\(name='/physical_"
                     r"device:GPU:7', device_type='GPU'\)"):
    tf.config.set_visible_devices([tf.config.PhysicalDevice("/physical_device:GPU:7", "GPU")])
  with pytest.raises(ValueError, match="Unrecognized device"):
    tf.config.experimental.set_visible_devices([CPU], "GPU")
  tf.config.experimental.set_visible_devices(CPU, "CPU")  # unchanged: always allowed
  tf.constant(1.0)  # the runtime is initialized
  with pytest.raises(RuntimeError,
                     match="^Visible devices cannot be modified after being initialized$"):
    tf.config.experimental.set_visible_devices([], "CPU")


def test_memory_growth_and_virtual_devices():
  with pytest.raises(ValueError, match="^Cannot set memory growth on non-GPU devices$"):
    tf.config.experimental.set_memory_growth(CPU, True)
  with pytest.raises(KeyError):  # TF keeps memory growth for GPUs only
    tf.config.experimental.get_memory_growth(CPU)
  assert tf.config.experimental.get_virtual_device_configuration(CPU) is None
  config = tf.config.experimental.VirtualDeviceConfiguration
  assert config() == (None,) and config(memory_limit=10).memory_limit == 10
  with pytest.raises(ValueError, match="^Setting memory limit on CPU virtual devices is "
                     "currently not supported$"):
    tf.config.experimental.set_virtual_device_configuration(CPU, [config(memory_limit=10)])
  for gpu in tf.config.experimental.list_physical_devices("GPU"):
    assert tf.config.experimental.get_memory_growth(gpu) in (None, True, False)


def test_settings_are_remembered():
  assert tf.config.threading.get_inter_op_parallelism_threads() == 0
  assert tf.config.threading.get_intra_op_parallelism_threads() == 0
  tf.config.threading.set_intra_op_parallelism_threads(0)  # unchanged: allowed
  tf.constant(1.0)
  with pytest.raises(RuntimeError, match="^Inter op parallelism cannot be modified after "
                     "initialization.$"):
    tf.config.threading.set_inter_op_parallelism_threads(3)
  assert tf.config.optimizer.get_jit() is False
  tf.config.optimizer.set_jit(True)
  assert tf.config.optimizer.get_jit() is True
  tf.config.optimizer.set_jit(False)
  tf.config.optimizer.set_experimental_options({"constant_folding": False})
  options = tf.config.optimizer.get_experimental_options()
  assert options["constant_folding"] is False
  options["x"] = 1  # a copy
  assert "x" not in tf.config.optimizer.get_experimental_options()
  assert tf.config.experimental.get_device_policy() == "silent"
  tf.config.experimental.set_device_policy("explicit")
  assert tf.config.experimental.get_device_policy() == "explicit"
  tf.config.experimental.set_device_policy(None)
  assert tf.config.experimental.get_device_policy() == "silent"
  with pytest.raises(ValueError, match="^Not a valid device policy: 'bogus'$"):
    tf.config.experimental.set_device_policy("bogus")
  assert tf.config.experimental.get_synchronous_execution() is True
  tf.config.experimental.set_synchronous_execution(False)
  assert tf.config.experimental.get_synchronous_execution() is False
  tf.config.experimental.set_synchronous_execution(None)
  assert tf.config.experimental.get_synchronous_execution() is True


def test_soft_device_placement():
  assert tf.config.get_soft_device_placement() is True
  missing = "/gpu:%d" % len(tf.config.list_physical_devices("GPU"))
  tf.config.set_soft_device_placement(False)
  try:
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Could not satisfy device "
                       "specification '/job:localhost/replica:0/task:0/device:GPU:[0-9]'. "
                       r"enable_soft_placement=0. Supported device types \[CPU"):
      with tf.device(missing):
        pass
  finally:
    tf.config.set_soft_device_placement(True)
  assert tf.config.get_soft_device_placement() is True
  with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with tf.device(missing):
      assert float(tf.constant(1.0) + 1) == 2.0


def test_run_functions_eagerly():
  calls = []

  @tf.function
  def double(x):
    calls.append(1)
    return x * 2

  x = tf.constant(3.0)
  for _ in range(3):
    double(x)
  traced = len(calls)  # an eager first call and a trace; later calls run compiled code
  double(x)
  assert len(calls) == traced
  tf.config.experimental_run_functions_eagerly(True)
  try:
    assert tf.config.experimental_functions_run_eagerly() is True
    assert float(double(x)) == 6.0
    assert float(double(x)) == 6.0
    assert len(calls) == traced + 2
  finally:
    tf.config.experimental_run_functions_eagerly(False)
  double(x)
  assert len(calls) == traced + 2


def test_cluster_connections_are_not_supported():
  with pytest.raises(NotImplementedError, match="jax.distributed"):
    tf.config.experimental_connect_to_cluster({"worker": ["localhost:2222"]})
  with pytest.raises(NotImplementedError):
    tf.config.experimental_connect_to_host("localhost:2222")


_BEFORE_INITIALIZATION = textwrap.dedent("""
    import warnings
    import tfe_compat as tf
    cpus = tf.config.experimental.list_physical_devices("CPU")
    print([d.name for d in cpus])
    tf.config.threading.set_inter_op_parallelism_threads(2)
    tf.config.threading.set_intra_op_parallelism_threads(3)
    tf.config.experimental.set_virtual_device_configuration(
        cpus[0], [tf.config.experimental.VirtualDeviceConfiguration()])
    try:
      tf.config.experimental.set_virtual_device_configuration(
          cpus[0], [tf.config.experimental.VirtualDeviceConfiguration()] * 2)
    except NotImplementedError as e:
      print("split:", "xla_force_host_platform_device_count" in str(e))
    tf.config.experimental.set_visible_devices(cpus[1], "CPU")
    print([d.name for d in tf.config.experimental.get_visible_devices()])
    x = tf.constant([1.0, 2.0]) * 2
    print(x.device, next(iter(x._value.devices())).id, x.numpy().tolist())
    print([d.name for d in tf.config.experimental.list_logical_devices()])
    print(tf.config.experimental_list_devices())
    print(tf.config.threading.get_inter_op_parallelism_threads(),
          tf.config.threading.get_intra_op_parallelism_threads())
    try:
      tf.config.experimental.set_visible_devices(cpus)
    except RuntimeError as e:
      print(e)
""")


def test_settings_before_initialization():
  env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2",
             JAX_PLATFORMS="cpu")
  out = subprocess.run([sys.executable, "-c", _BEFORE_INITIALIZATION], env=env,
                       capture_output=True, text=True, timeout=120, check=False)
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == [
      "['/physical_device:CPU:0', '/physical_device:CPU:1']",
      "split: True",
      "['/physical_device:CPU:1']",
      "/job:localhost/replica:0/task:0/device:CPU:0 1 [2.0, 4.0]",
      "['/device:CPU:0']",
      "['/job:localhost/replica:0/task:0/device:CPU:0']",
      "2 3",
      "Visible devices cannot be modified after being initialized",
  ]
