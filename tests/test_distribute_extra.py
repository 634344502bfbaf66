"""The rest of TF 1.15's tf.distribute: cluster resolvers, CentralStorageStrategy,
MultiWorkerMirroredStrategy, ParameterServerStrategy and TPUStrategy on one machine,
InputReplicationMode, CollectiveCommunication, StrategyExtended, get_loss_reduction,
experimental_set_strategy.

Golden values come from TF 2.21 (tf.compat.v1.distribute; CentralStorageStrategy over 2
logical CPUs), or from TF 1.15's code where 2.21 changed it (SlurmClusterResolver).
"""
import json
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

import tfe_compat as tf

cr = tf.distribute.cluster_resolver

TF_CONFIG = {"cluster": {"chief": ["c0:1"], "worker": ["w0:1", "w1:1"], "ps": ["p0:1"]},
             "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"}


def test_tf_config_cluster_resolver(monkeypatch):
  monkeypatch.setenv("TF_CONFIG", json.dumps(TF_CONFIG))
  r = cr.TFConfigClusterResolver()
  assert str(r.cluster_spec()) == ("ClusterSpec({'chief': ['c0:1'], 'ps': ['p0:1'], "
                                   "'worker': ['w0:1', 'w1:1']})")
  assert (r.task_type, r.task_id, r.rpc_layer, r.environment) == ("worker", 1, "grpc", None)
  assert (r.master(), r.master("ps", 0), r.master(rpc_layer="http")) == \
      ("grpc://w1:1", "grpc://p0:1", "http://w1:1")
  assert dict(r.num_accelerators()) == {}  # no local device is /job:worker/task:1
  r = cr.TFConfigClusterResolver(task_type="ps", task_id=0, rpc_layer="x", environment="google")
  assert (r.task_type, r.task_id, r.rpc_layer, r.environment, r.master()) == \
      ("ps", 0, "x", "google", "x://p0:1")
  monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["w0:1"]},
                                              "session_master": "sm"}))
  assert cr.TFConfigClusterResolver().master() == "sm"
  monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["w0:1"]}}))
  assert cr.TFConfigClusterResolver().master() == ""
  assert cr.TFConfigClusterResolver().task_type is None
  monkeypatch.delenv("TF_CONFIG")
  r = cr.TFConfigClusterResolver()
  assert (str(r.cluster_spec()), r.task_type, r.task_id, r.rpc_layer, r.master()) == \
      ("ClusterSpec({})", None, None, None, "")
  gpus = tf.contrib.eager.num_gpus()
  assert dict(r.num_accelerators()) == ({"GPU": gpus} if gpus else {})
  assert isinstance(r, cr.ClusterResolver)


def test_simple_and_union_resolvers():
  s = cr.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["a:1", "b:1"]}), master="m",
                               task_type="worker", task_id=1, rpc_layer="grpc",
                               num_accelerators={"GPU": 2})
  assert (s.master(), s.master("worker", 0), s.master("worker", 0, "http")) == \
      ("grpc://m", "grpc://a:1", "http://a:1")
  assert (s.num_accelerators(), s.task_type, s.task_id, s.environment) == \
      ({"GPU": 2}, "worker", 1, "")
  with pytest.raises(TypeError, match="cluster_spec must be a ClusterSpec."):
    cr.SimpleClusterResolver({"a": [1]})
  with pytest.raises(TypeError, match="master must be a string."):
    cr.SimpleClusterResolver(tf.train.ClusterSpec({}), master=5)
  s2 = cr.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["c:1"], "ps": ["p:1"]}),
                                task_type="ps", task_id=0)
  u = cr.UnionResolver(s, s2)
  assert str(u.cluster_spec()) == "ClusterSpec({'ps': ['p:1'], 'worker': ['a:1', 'b:1', 'c:1']})"
  assert (u.master(), u.task_type, u.task_id, u.rpc_layer, u.master("ps", 0)) == \
      ("grpc://m", "worker", 1, "grpc", "p:1")
  sparse = cr.SimpleClusterResolver(tf.train.ClusterSpec({"worker": {5: "z:1"}}))
  assert str(cr.UnionResolver(s, sparse).cluster_spec()) == \
      "ClusterSpec({'worker': {0: 'a:1', 1: 'b:1', 5: 'z:1'}})"
  clash = cr.SimpleClusterResolver(tf.train.ClusterSpec({"worker": {1: "z:1"}}))
  with pytest.raises(KeyError, match="Duplicate keys detected when merging two ClusterSpecs"):
    cr.UnionResolver(s, clash).cluster_spec()
  with pytest.raises(ValueError, match="At least one ClusterResolver is required."):
    cr.UnionResolver()
  with pytest.raises(TypeError, match="All arguments must be a sub-class of `ClusterResolver.`"):
    cr.UnionResolver(5)
  with pytest.raises(ValueError, match=r"Unexpected kwargs provided \{'foo': 1\}"):
    cr.UnionResolver(s, foo=1)
  assert cr.UnionResolver(s, s2, rpc_layer="r", task_type="t", task_id=3).master("worker", 0) \
      == "r://a:1"


class _Slurm(cr.SlurmClusterResolver):
  def _resolve_hostnames(self):
    return ["n0", "n1"]


def test_slurm_cluster_resolver(monkeypatch):
  monkeypatch.setenv("SLURM_PROCID", "2")
  monkeypatch.setenv("SLURM_NTASKS", "4")
  monkeypatch.setenv("SLURM_NTASKS_PER_NODE", "2")
  monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
  r = _Slurm({"worker": 3, "ps": 1}, gpus_per_node=2, port_base=9000)
  assert str(r.cluster_spec()) == \
      "ClusterSpec({'ps': ['n0:9000'], 'worker': ['n0:9001', 'n1:9000', 'n1:9001']})"
  assert (r.get_task_info(), r.master(), r.num_accelerators(), r.master("ps", 0, "http")) == \
      (("worker", 1), "grpc://n1:9000", {"GPU": 2}, "http://n0:9000")
  assert os.environ["CUDA_VISIBLE_DEVICES"] == "0"
  with pytest.raises(RuntimeError, match="Requested more tasks then assigned tasks."):
    _Slurm({"worker": 3}, gpus_per_node=2)
  with pytest.raises(RuntimeError, match="Requested more GPUs per node then available."):
    _Slurm({"worker": 4}, gpus_per_node=1)
  r = _Slurm({"worker": 4}, tasks_per_node=1, gpus_per_node=1, auto_set_gpu=False)
  assert str(r.cluster_spec()) == "ClusterSpec({'worker': ['n0:8888', 'n1:8888']})"
  monkeypatch.delenv("SLURM_NTASKS_PER_NODE")
  with pytest.raises(RuntimeError, match="Neither `tasks_per_node` or SLURM_NTASKS_PER_NODE"):
    _Slurm({"worker": 4})


def _call(result):
  return types.SimpleNamespace(execute=lambda: result)


def test_gce_and_kubernetes_resolvers_over_given_clients():
  pages = [{"items": [{"instance": "zones/z/instances/b"}, {"instance": "zones/z/instances/a"}]}]
  ips = {"a": "10.0.0.2", "b": "10.0.0.1"}
  groups = types.SimpleNamespace(
      listInstances=lambda **kw: _call(pages[0]),
      listInstances_next=lambda previous_request, previous_response: None)
  instances = types.SimpleNamespace(get=lambda project, zone, instance: _call(
      {"networkInterfaces": [{"networkIP": ips[instance]}]}))
  service = types.SimpleNamespace(instanceGroups=lambda: groups, instances=lambda: instances)
  gce = cr.GCEClusterResolver("p", "z", "g", 8470, service=service)
  assert str(gce.cluster_spec()) == "ClusterSpec({'worker': ['10.0.0.1:8470', '10.0.0.2:8470']})"
  assert (gce.master(), gce.master(rpc_layer="http"), gce.task_type, gce.task_id) == \
      ("grpc://10.0.0.1:8470", "http://10.0.0.1:8470", "worker", 0)
  with pytest.raises(RuntimeError, match="cannot reset the task_type"):
    gce.task_type = "ps"

  def pod(name, ip, phase="Running"):
    return types.SimpleNamespace(metadata=types.SimpleNamespace(name=name),
                                 status=types.SimpleNamespace(phase=phase, host_ip=ip))
  pods = {"job-name=tensorflow": [pod("w1", "1.1.1.2"), pod("w0", "1.1.1.1")],
          "job-name=bad": [pod("x", "1.1.1.3", "Pending")]}
  client = types.SimpleNamespace(list_pod_for_all_namespaces=lambda label_selector: types.
                                 SimpleNamespace(items=pods[label_selector]))
  k8s = cr.KubernetesClusterResolver(override_client=client)
  assert str(k8s.cluster_spec()) == "ClusterSpec({'worker': ['1.1.1.1:8470', '1.1.1.2:8470']})"
  assert k8s.master() == "" and k8s.master("worker", 1) == "grpc://1.1.1.2:8470"
  with pytest.raises(RuntimeError, match='Pod "x" is not running; phase: "Pending"'):
    cr.KubernetesClusterResolver({"worker": ["job-name=bad"]}, override_client=client) \
        .cluster_spec()


def test_resolvers_without_their_client_libraries():
  try:
    import googleapiclient  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
  except ImportError:
    with pytest.raises(ImportError, match="googleapiclient must be installed before using the "
                       "GCE cluster resolver"):
      cr.GCEClusterResolver("p", "z", "g", 1234)
  try:
    import kubernetes  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
  except ImportError:
    with pytest.raises(ImportError, match="The Kubernetes Python client must be installed"):
      cr.KubernetesClusterResolver()


def test_tpu_cluster_resolver(monkeypatch):
  monkeypatch.delenv("TPU_NAME", raising=False)
  monkeypatch.delenv("KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS", raising=False)
  with pytest.raises(ValueError, match="Please provide a TPU Name to connect to."):
    cr.TPUClusterResolver()
  r = cr.TPUClusterResolver("grpc://1.2.3.4:8470")
  assert (str(r.cluster_spec()), r.master(), r.environment) == \
      ("ClusterSpec({'worker': ['1.2.3.4:8470']})", "grpc://1.2.3.4:8470", "")
  monkeypatch.setenv("TPU_NAME", "local")
  assert cr.TPUClusterResolver().master() == "local"
  with pytest.raises(ValueError, match="At least one TPU must be specified."):
    cr.TPUClusterResolver([])
  with pytest.raises(NotImplementedError, match="cannot resolve the Cloud TPU name 'my-tpu'"):
    cr.TPUClusterResolver("my-tpu")


def test_enums_loss_reduction_and_extended():
  assert [m.value for m in tf.distribute.experimental.CollectiveCommunication] == \
      ["AUTO", "RING", "NCCL"]
  assert [m.value for m in tf.distribute.InputReplicationMode] == ["PER_WORKER"]
  assert tf.distribute.get_loss_reduction() is tf.distribute.ReduceOp.SUM
  assert isinstance(tf.distribute.get_strategy().extended, tf.distribute.StrategyExtended)


def test_experimental_set_strategy():
  s = tf.distribute.OneDeviceStrategy("/cpu:0")
  tf.distribute.experimental_set_strategy(s)
  try:
    assert tf.distribute.get_strategy() is s and tf.distribute.in_cross_replica_context()
    s2 = tf.distribute.OneDeviceStrategy("/cpu:0")
    tf.distribute.experimental_set_strategy(s2)  # replaces the first
    assert tf.distribute.get_strategy() is s2
  finally:
    tf.distribute.experimental_set_strategy(None)
  assert not tf.distribute.has_strategy()
  with s.scope():
    with pytest.raises(RuntimeError, match="Must not be called inside a "
                       "`tf.distribute.Strategy` scope."):
      tf.distribute.experimental_set_strategy(s)


def test_single_machine_strategies(monkeypatch):
  monkeypatch.delenv("TF_CONFIG", raising=False)
  experimental = tf.distribute.experimental
  c = experimental.CentralStorageStrategy()
  if not tf.test.is_gpu_available():
    assert (c.num_replicas_in_sync, list(c.extended.worker_devices),
            c.extended.parameter_devices) == \
        (1, ["/job:localhost/replica:0/task:0/device:CPU:0"], ("/device:CPU:0",))
  p = experimental.ParameterServerStrategy()
  assert p.extended.parameter_devices == c.extended.parameter_devices
  m = experimental.MultiWorkerMirroredStrategy()
  assert m.extended.worker_devices == c.extended.worker_devices
  with m.scope():
    v = tf.Variable([1.0, 2.0])
  out = m.run(lambda: v * 2.0)
  assert m.reduce(tf.distribute.ReduceOp.SUM, out, axis=None).numpy().tolist() == \
      [2.0 * m.num_replicas_in_sync, 4.0 * m.num_replicas_in_sync]
  with pytest.raises(RuntimeError, match=r"Cannot find any TPU cores in the system \(master "
                     r"address \)"):
    experimental.TPUStrategy()
  monkeypatch.setenv("TF_CONFIG", json.dumps(TF_CONFIG))
  with pytest.raises(NotImplementedError, match="MultiWorkerMirroredStrategy on one machine "
                     "only"):
    experimental.MultiWorkerMirroredStrategy()
  with pytest.raises(NotImplementedError, match="ParameterServerStrategy with parameter-server"):
    experimental.ParameterServerStrategy()


_TWO_DEVICES = textwrap.dedent(r"""
    import json
    import numpy as np
    import tfe_compat as tf

    out = {}
    s = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    out["n"] = s.num_replicas_in_sync
    out["workers"] = list(s.extended.worker_devices)
    out["params"] = list(s.extended.parameter_devices)
    x = np.array([[1., 2.], [3., 4.], [5., 6.], [7., 8.]], np.float32)
    y = np.array([[1.], [2.], [3.], [4.]], np.float32)
    with s.scope():
      W = tf.Variable([[0.5], [-0.5]])
      b = tf.Variable([0.1])
      opt = tf.train.GradientDescentOptimizer(0.01)
    ds = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))

    def step(inputs):
      xx, yy = inputs
      with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.matmul(xx, W) + b - yy)) / 4.
      grads = tape.gradient(loss, [W, b])
      opt.apply_gradients(zip(grads, [W, b]))
      return loss
    for inputs in ds:
      out["loss"] = float(s.reduce("SUM", s.run(step, args=(inputs,)), axis=None))
    out["W"] = W.numpy().tolist()
    out["b"] = b.numpy().tolist()
    m = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    out["mwms"] = [m.num_replicas_in_sync, list(m.extended.worker_devices)]
    print(json.dumps(out))
""")


def test_central_storage_over_two_devices_matches_tensorflow():
  env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2",
             JAX_PLATFORMS="cpu")
  env.pop("TF_CONFIG", None)
  result = subprocess.run([sys.executable, "-c", _TWO_DEVICES], env=env, capture_output=True,
                          text=True, timeout=240, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  out = json.loads(result.stdout.strip().splitlines()[-1])
  assert out["n"] == 2
  assert out["workers"] == ["/job:localhost/replica:0/task:0/device:CPU:0",
                            "/job:localhost/replica:0/task:0/device:CPU:1"]
  assert out["params"] == ["/device:CPU:0"]
  assert out["loss"] == pytest.approx(9.660000801086426, rel=1e-6)
  np.testing.assert_allclose(out["W"], [[0.7820000052452087], [-0.1599999964237213]], rtol=1e-6)
  np.testing.assert_allclose(out["b"], [0.15800000727176666], rtol=1e-6)
  # TF's MultiWorkerMirroredStrategy without GPUs uses the CPU alone (one replica).
  assert out["mwms"] == [1, ["/job:localhost/replica:0/task:0/device:CPU:0"]]
