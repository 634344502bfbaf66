"""tf.device, DeviceSpec, soft placement, .cpu()/.gpu(), and two-CPU-device placement."""
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

import tfe_compat as tf
from tfe_compat.framework import device as device_lib

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


def test_device_spec_parsing():
  assert tf.DeviceSpec.from_string("/gpu:1").to_string() == "/device:GPU:1"
  assert tf.DeviceSpec.from_string(CPU0).to_string() == CPU0
  spec = tf.DeviceSpec.from_string("gpu:0")
  assert (spec.device_type, spec.device_index, spec.job) == ("GPU", 0, None)
  assert repr(spec) == ("<DeviceSpec(job=None, replica=None, task=None, device_type=GPU, "
                        "device_index=0)>")
  spec = tf.DeviceSpec.from_string("/job:worker/task:3/device:CPU:*")
  assert (spec.job, spec.task, spec.device_type, spec.device_index) == ("worker", 3, "CPU", None)
  merged = tf.DeviceSpec(job="localhost")
  merged.merge_from(tf.DeviceSpec.from_string("/device:GPU:2"))
  assert merged.to_string() == "/job:localhost/device:GPU:2"
  with pytest.raises(ValueError):
    tf.DeviceSpec.from_string("/gpu:0/nonsense:3:4")


def test_tensors_report_tf_device_names():
  # Values made from Python/NumPy live on the default device: the first GPU when there is one
  # (TF 1.15 keeps them on the host until an op uses them; see the migration guide).
  default = CPU0.replace("CPU", "GPU") if tf.contrib.eager.num_gpus() else CPU0
  assert tf.constant(1).device == default
  with tf.device("/cpu:0"):
    assert tf.constant([1.0]).device == CPU0
  assert tf.constant(1.0).cpu().device == CPU0


def test_soft_placement_without_gpu_warns_once_and_runs_on_cpu(monkeypatch):
  if tf.contrib.eager.num_gpus():
    pytest.skip("a GPU is present")
  monkeypatch.setattr(device_lib, "_warned", set())  # once per process: other tests warned
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(3):
      with tf.device("/device:GPU:7"):
        x = tf.constant([[1.0, 2.0]])
  assert x.device == CPU0
  assert len([w for w in caught if "soft placement" in str(w.message)]) == 1
  for spec in ("/gpu:0", "gpu:1", "/job:localhost/replica:0/task:0/device:GPU:0"):
    with tf.device(spec):
      assert tf.constant(1).device == CPU0


def test_gpu_without_gpu_raises_clear_error_and_queries():
  if tf.contrib.eager.num_gpus():
    pytest.skip("a GPU is present")
  with pytest.raises(RuntimeError, match="GPU:0 is not available"):
    tf.constant(1.0).gpu()
  assert not tf.test.is_gpu_available() and tf.test.gpu_device_name() == ""
  assert tf.contrib.eager.list_devices()[0] == CPU0


def test_device_scope_rejects_functions():
  with pytest.raises(RuntimeError, match="does not support functions"):
    with tf.device(lambda op: "/cpu:0"):
      pass


_TWO_CPUS = textwrap.dedent("""
    import tfe_compat as tf
    assert tf.contrib.eager.list_devices() == [
        "/job:localhost/replica:0/task:0/device:CPU:0",
        "/job:localhost/replica:0/task:0/device:CPU:1"]
    with tf.device("/cpu:1"):
      a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
      b = tf.constant([[1.0], [1.0]])
      assert a.device.endswith("CPU:1"), a.device
    with tf.device("/cpu:0"):
      c = tf.constant([[2.0, 0.0]])
    assert c.device.endswith("CPU:0"), c.device
    with tf.device("/cpu:1"):
      d = a.cpu()          # an explicit copy to CPU:0 ...
    assert d.device.endswith("CPU:0"), d.device
    with tf.device("/cpu:1"):
      e = tf.constant([1.0, 2.0]) + tf.constant([3.0, 4.0])
    assert e.device.endswith("CPU:1"), e.device
    mapped = tf.data.Dataset.range(3).map(lambda x: x * 2)  # computed on CPU:0, then moved
    with tf.device("/cpu:1"):
      placed = [(t.device[-5:], int(t)) for t in mapped]
    assert placed == [("CPU:1", 0), ("CPU:1", 2), ("CPU:1", 4)], placed
    assert all(t.device.endswith("CPU:0") for t in mapped)
    # A global step on one device, the model's variables on another (the main job on a
    # GPU machine): the update copies its inputs, and each variable stays on its device.
    with tf.device("/cpu:1"):
      step = tf.train.get_or_create_global_step()
    with tf.device("/cpu:0"):
      w = tf.Variable([1.0, 2.0])
      optimizer = tf.train.GradientDescentOptimizer(0.25)
      for _ in range(2):
        optimizer.apply_gradients([(tf.constant([1.0, 1.0]), w)], global_step=step)
    assert w.numpy().tolist() == [0.5, 1.5] and int(step) == 2
    assert step.device.endswith("CPU:1") and w.device.endswith("CPU:0")
    print("ok", e.numpy().tolist())
""")


def test_two_cpu_devices_placement():
  env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2",
             JAX_PLATFORMS="cpu")
  out = subprocess.run([sys.executable, "-c", _TWO_CPUS], env=env, capture_output=True,
                       text=True, timeout=120, check=False)
  assert out.returncode == 0, out.stderr
  assert out.stdout.strip() == "ok [4.0, 6.0]"


def test_is_built_with_cuda_rocm_gpu_support():
  cuda, rocm = tf.test.is_built_with_cuda(), tf.test.is_built_with_rocm()
  assert isinstance(cuda, bool) and isinstance(rocm, bool)
  assert tf.test.is_built_with_gpu_support() == (cuda or rocm)
  # a JAX GPU backend exists exactly when JAX sees GPUs
  assert (cuda or rocm) == (tf.contrib.eager.num_gpus() > 0)
  assert (cuda or rocm) == tf.test.is_gpu_available()
