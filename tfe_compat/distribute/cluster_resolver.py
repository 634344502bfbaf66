"""`tf.distribute.cluster_resolver`: where a cluster's tasks are, as TF resolves them.

The resolvers are TF's pure-Python logic: TF_CONFIG and Slurm environment variables, the
Google Compute Engine and Kubernetes clients (their libraries are imported when used, and
their absence raises TF's ImportError), a ClusterSpec given directly, and unions of these.
`TPUClusterResolver` takes `grpc://` addresses and local TPUs; resolving Cloud TPU names
through the Cloud TPU API is not supported.
"""
import collections
import json
import os
import re
import subprocess

from tfe_compat.framework import device as device_lib
from tfe_compat.framework.api import export
from tfe_compat.train.server_lib import ClusterSpec

_DEVICE_TYPE = re.compile(".*device:([^:]+).*")


def format_master_url(master, rpc_layer=None):
  return "%s://%s" % (rpc_layer, master) if rpc_layer else master


def _task_master(resolver, task_type, task_id, rpc_layer):
  """The address of task `task_type`/`task_id` (by default the resolver's own) as a
  `rpc_layer` URL; '' when the task is unknown."""
  task_type = task_type if task_type is not None else resolver.task_type
  task_id = task_id if task_id is not None else resolver.task_id
  if task_type is not None and task_id is not None:
    return format_master_url(resolver.cluster_spec().task_address(task_type, task_id),
                             rpc_layer or resolver.rpc_layer)
  return ""


@export("distribute.cluster_resolver.ClusterResolver")
class ClusterResolver:
  """Base of the resolvers: `cluster_spec()`, `master()`, `num_accelerators()`, and the
  `task_type`, `task_id`, `rpc_layer` and `environment` attributes."""

  def cluster_spec(self):
    raise NotImplementedError()

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    raise NotImplementedError()

  def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
    """{device type: count} of this process's non-CPU devices (those of the task
    `/job:<task_type>/task:<task_id>` when both are given)."""
    mapping = collections.defaultdict(int)
    for name in device_lib.list_devices():
      match = _DEVICE_TYPE.match(name)
      device_type = match.group(1) if match else "GPU"
      if device_type in ("CPU", "XLA_CPU"):
        continue
      if task_type is not None and task_id is not None and (
          "/job:%s" % task_type not in name or "/task:%s" % task_id not in name):
        continue
      mapping[device_type] += 1
    return mapping

  @property
  def environment(self):
    return ""


@export("distribute.cluster_resolver.SimpleClusterResolver")
class SimpleClusterResolver(ClusterResolver):
  """A resolver returning the ClusterSpec (and master, task, accelerators) it was given."""

  def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="",
               num_accelerators=None, rpc_layer=None):
    self.task_type = task_type
    self.task_id = task_id
    self._environment = environment
    self._num_accelerators = num_accelerators
    self.rpc_layer = rpc_layer
    if not isinstance(cluster_spec, ClusterSpec):
      raise TypeError("cluster_spec must be a ClusterSpec.")
    self._cluster_spec = cluster_spec
    if not isinstance(master, str):
      raise TypeError("master must be a string.")
    self._master = master

  def cluster_spec(self):
    return self._cluster_spec

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    """The given master, or the address of the task `task_type`/`task_id`."""
    if task_type is not None and task_id is not None:
      master = self.cluster_spec().task_address(task_type, task_id)
    else:
      master = self._master
    return format_master_url(master, rpc_layer=rpc_layer or self.rpc_layer)

  @property
  def environment(self):
    return self._environment

  def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
    return {} if self._num_accelerators is None else self._num_accelerators


@export("distribute.cluster_resolver.UnionResolver")
class UnionClusterResolver(ClusterResolver):
  """The union of other resolvers' clusters; the other properties come from the first one
  (unless given as `rpc_layer`, `task_type`, `task_id` keywords)."""

  def __init__(self, *args, **kwargs):
    self._rpc_layer = kwargs.pop("rpc_layer", None)
    self._task_type = kwargs.pop("task_type", None)
    self._task_id = kwargs.pop("task_id", None)
    if kwargs:
      raise ValueError("Unexpected kwargs provided {!r}".format(kwargs))
    if not args:
      raise ValueError("At least one ClusterResolver is required.")
    for cluster_resolver in args:
      if not isinstance(cluster_resolver, ClusterResolver):
        raise TypeError("All arguments must be a sub-class of `ClusterResolver.`")
    self._cluster_resolvers = args

  def cluster_spec(self):
    """Jobs merged: task lists concatenated in order, unless some resolver gives a job as a
    dict, which merges them as dicts (KeyError on a task index given twice)."""
    dicts = [resolver.cluster_spec().as_dict() for resolver in self._cluster_resolvers]
    merged = {}
    for cluster in dicts:
      for job_name, tasks in cluster.items():
        if job_name in merged:
          if isinstance(tasks, dict):
            merged[job_name] = {}
        else:
          merged[job_name] = [] if isinstance(tasks, list) else {}
    for cluster in dicts:
      for job_name, tasks in cluster.items():
        if isinstance(merged[job_name], list):
          merged[job_name].extend(tasks)
          continue
        task_dict = dict(enumerate(tasks)) if isinstance(tasks, list) else tasks.copy()
        duplicates = set(task_dict) & set(merged[job_name])
        if duplicates:
          raise KeyError("Duplicate keys detected when merging two ClusterSpecs: %s"
                         % repr(duplicates))
        merged[job_name].update(task_dict)
    return ClusterSpec(merged)

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    if task_type is not None and task_id is not None:
      master = self.cluster_spec().task_address(task_type, task_id)
      return format_master_url(master, rpc_layer or self._rpc_layer)
    return self._cluster_resolvers[0].master(rpc_layer=rpc_layer)

  @property
  def task_type(self):
    return self._task_type or self._cluster_resolvers[0].task_type

  @task_type.setter
  def task_type(self, task_type):
    self._task_type = task_type

  @property
  def task_id(self):
    return self._task_id or self._cluster_resolvers[0].task_id

  @task_id.setter
  def task_id(self, task_id):
    self._task_id = task_id

  @property
  def environment(self):
    return self._cluster_resolvers[0].environment

  def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
    return self._cluster_resolvers[0].num_accelerators(task_type, task_id, config_proto)

  @property
  def rpc_layer(self):
    return self._rpc_layer or self._cluster_resolvers[0].rpc_layer

  @rpc_layer.setter
  def rpc_layer(self, rpc_layer):
    self._rpc_layer = rpc_layer


def _tf_config(key, default=None):
  return json.loads(os.environ.get("TF_CONFIG", "{}")).get(key, default)


@export("distribute.cluster_resolver.TFConfigClusterResolver")
class TFConfigClusterResolver(ClusterResolver):
  """The cluster of the TF_CONFIG environment variable (JSON: "cluster", "task" with "type"
  and "index", "rpc_layer", "session_master"), read on every call."""

  def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
    self._task_type = task_type
    self._task_id = task_id
    self._rpc_layer = rpc_layer
    self._environment = environment

  @property
  def task_type(self):
    if self._task_type is None:
      task_info = _tf_config("task", {})
      return str(task_info["type"]) if "type" in task_info else None
    return str(self._task_type)

  @task_type.setter
  def task_type(self, task_type):
    self._task_type = task_type

  @property
  def task_id(self):
    if self._task_id is None:  # (TF 1.15 tested the task type here, a bug TF fixed)
      task_info = _tf_config("task", {})
      return int(task_info["index"]) if "index" in task_info else None
    return int(self._task_id)

  @task_id.setter
  def task_id(self, task_id):
    self._task_id = task_id

  @property
  def environment(self):
    return self._environment

  @property
  def rpc_layer(self):
    return _tf_config("rpc_layer") if self._rpc_layer is None else self._rpc_layer

  @rpc_layer.setter
  def rpc_layer(self, rpc_layer):
    self._rpc_layer = rpc_layer

  def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
    task_type = self.task_type if task_type is None else task_type
    task_id = self.task_id if task_id is None else task_id
    return super().num_accelerators(task_type, task_id, config_proto)

  def cluster_spec(self):
    cluster = _tf_config("cluster")
    return ClusterSpec({} if cluster is None else cluster)

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    """TF_CONFIG's session_master, '' for a one-task cluster, else the task's address."""
    session_master = _tf_config("session_master")
    if session_master is not None:
      return session_master
    cluster_spec = self.cluster_spec()
    if not cluster_spec.jobs or (len(cluster_spec.jobs) == 1 and
                                 len(cluster_spec.job_tasks(cluster_spec.jobs[0])) == 1):
      return ""
    task_type = task_type if task_type is not None else self.task_type
    task_id = task_id if task_id is not None else self.task_id
    rpc_layer = rpc_layer if rpc_layer is not None else self.rpc_layer  # (1.15 ignored it)
    return format_master_url(cluster_spec.task_address(task_type, task_id), rpc_layer)


@export("distribute.cluster_resolver.SlurmClusterResolver")
class SlurmClusterResolver(ClusterResolver):
  """The cluster of a Slurm allocation: tasks packed onto the hosts `scontrol show hostname`
  lists, `tasks_per_node` per host on ports from `port_base`, GPUs handed out through
  CUDA_VISIBLE_DEVICES; this process's rank from SLURM_PROCID (or OMPI_COMM_WORLD_RANK)."""

  def __init__(self, jobs, port_base=8888, gpus_per_node=1, gpus_per_task=1,
               tasks_per_node=None, auto_set_gpu=True, rpc_layer="grpc"):
    if "OMPI_COMM_WORLD_RANK" in os.environ:
      self._rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
      num_tasks = int(os.environ["OMPI_COMM_WORLD_SIZE"])
    else:
      self._rank = int(os.environ["SLURM_PROCID"])
      num_tasks = int(os.environ["SLURM_NTASKS"])
    self._jobs = collections.OrderedDict(sorted(jobs.items()))
    self._port_base = port_base
    if tasks_per_node is not None:
      self._tasks_per_node = tasks_per_node
    elif "SLURM_NTASKS_PER_NODE" in os.environ:
      self._tasks_per_node = int(os.environ["SLURM_NTASKS_PER_NODE"])
    else:
      raise RuntimeError("Neither `tasks_per_node` or SLURM_NTASKS_PER_NODE is set.")
    self._gpus_per_node = gpus_per_node
    self._gpus_per_task = gpus_per_task
    self._auto_set_gpu = auto_set_gpu
    self.task_type = None
    self.task_id = None
    self.rpc_layer = rpc_layer
    self._gpu_allocation = []
    self._cluster_allocation = {}
    if self._tasks_per_node * self._gpus_per_task > self._gpus_per_node:
      raise RuntimeError("Requested more GPUs per node then available.")
    if sum(self._jobs.values()) != num_tasks:
      raise RuntimeError("Requested more tasks then assigned tasks.")

  def _resolve_hostnames(self):
    return subprocess.check_output(["scontrol", "show", "hostname"]).decode(
        "utf-8").strip().split("\n")

  def cluster_spec(self):
    """The ClusterSpec of the allocation (also sets task_type, task_id and, with
    auto_set_gpu, CUDA_VISIBLE_DEVICES for this rank)."""
    task_list = []
    self._gpu_allocation = []
    self._cluster_allocation = {}
    for host in self._resolve_hostnames():
      for port_offset, gpu_offset in zip(range(self._tasks_per_node),
                                         range(0, self._gpus_per_node, self._gpus_per_task)):
        task_list.append("%s:%d" % (host, self._port_base + port_offset))
        self._gpu_allocation.append(",".join(
            str(gpu_id) for gpu_id in range(gpu_offset, gpu_offset + self._gpus_per_task)))
    start = 0
    for task_type, num_tasks in self._jobs.items():
      end = start + num_tasks
      self._cluster_allocation[task_type] = task_list[start:end]
      if start <= self._rank < end:
        self.task_type = task_type
        self.task_id = self._rank - start
      start = end
    if self._auto_set_gpu is True:
      os.environ["CUDA_VISIBLE_DEVICES"] = self._gpu_allocation[self._rank]
    return ClusterSpec(self._cluster_allocation)

  def get_task_info(self):
    return self.task_type, self.task_id

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    return _task_master(self, task_type, task_id, rpc_layer)

  def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
    return {"GPU": self._gpus_per_node}


@export("distribute.cluster_resolver.GCEClusterResolver")
class GCEClusterResolver(ClusterResolver):
  """The instances of a Google Compute Engine instance group, through `service` (by default
  googleapiclient's compute v1 API)."""

  def __init__(self, project, zone, instance_group, port, task_type="worker", task_id=0,
               rpc_layer="grpc", credentials="default", service=None):
    self._project = project
    self._zone = zone
    self._instance_group = instance_group
    self._task_type = task_type
    self._task_id = task_id
    self._rpc_layer = rpc_layer
    self._port = port
    self._credentials = credentials
    if service is None:
      try:
        from googleapiclient import discovery  # pylint: disable=import-outside-toplevel
        from oauth2client.client import GoogleCredentials  # pylint: disable=import-outside-toplevel
      except ImportError:
        raise ImportError("googleapiclient must be installed before using the GCE cluster "
                          "resolver") from None
      if credentials == "default":
        self._credentials = GoogleCredentials.get_application_default()
      service = discovery.build("compute", "v1", credentials=self._credentials)
    self._service = service

  def cluster_spec(self):
    """{task_type: sorted "ip:port" of the group's RUNNING instances}, asked every call."""
    request = self._service.instanceGroups().listInstances(
        project=self._project, zone=self._zone, instanceGroups=self._instance_group,
        body={"instanceState": "RUNNING"}, orderBy="name")
    worker_list = []
    while request is not None:
      response = request.execute()
      for instance in response["items"]:
        instance_request = self._service.instances().get(
            project=self._project, zone=self._zone,
            instance=instance["instance"].split("/")[-1])
        if instance_request is not None:
          ip_address = instance_request.execute()["networkInterfaces"][0]["networkIP"]
          worker_list.append("%s:%s" % (ip_address, self._port))
      request = self._service.instanceGroups().listInstances_next(
          previous_request=request, previous_response=response)
    worker_list.sort()
    return ClusterSpec({self._task_type: worker_list})

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    return _task_master(self, task_type, task_id, rpc_layer)

  @property
  def task_type(self):
    return self._task_type

  @task_type.setter
  def task_type(self, task_type):
    raise RuntimeError("You cannot reset the task_type of the GCEClusterResolver after it has "
                       "been created.")

  @property
  def task_id(self):
    return self._task_id

  @task_id.setter
  def task_id(self, task_id):
    self._task_id = task_id

  @property
  def rpc_layer(self):
    return self._rpc_layer

  @rpc_layer.setter
  def rpc_layer(self, rpc_layer):
    self._rpc_layer = rpc_layer


def _kubernetes():
  """(kubernetes.config, kubernetes.client), or None when the library is missing."""
  try:
    from kubernetes import client, config  # pylint: disable=import-outside-toplevel
  except ImportError:
    return None
  return config, client


@export("distribute.cluster_resolver.KubernetesClusterResolver")
class KubernetesClusterResolver(ClusterResolver):
  """The running pods matching label selectors, per job, through `override_client` (by
  default the kubernetes library's CoreV1Api)."""

  def __init__(self, job_to_label_mapping=None, tf_server_port=8470, rpc_layer="grpc",
               override_client=None):
    kubernetes = _kubernetes()
    if kubernetes is not None:
      kubernetes[0].load_kube_config()
    if not job_to_label_mapping:
      job_to_label_mapping = {"worker": ["job-name=tensorflow"]}
    if not override_client and kubernetes is None:
      raise ImportError("The Kubernetes Python client must be installed before using the "
                        "Kubernetes Cluster Resolver. To install the Kubernetes Python client, "
                        "run `pip install kubernetes` on your command line.")
    self._job_to_label_mapping = job_to_label_mapping
    self._tf_server_port = tf_server_port
    self._override_client = override_client
    self.task_type = None
    self.task_id = None
    self.rpc_layer = rpc_layer

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    return _task_master(self, task_type, task_id, rpc_layer)

  def cluster_spec(self):
    """{job: "host_ip:port" of its pods, by pod name}; RuntimeError for a pod not Running."""
    client = self._override_client
    if not client:
      config, kubernetes_client = _kubernetes()
      config.load_kube_config()
      client = kubernetes_client.CoreV1Api()
    cluster_map = {}
    for tf_job, selectors in self._job_to_label_mapping.items():
      all_pods = []
      for selector in selectors:
        ret = client.list_pod_for_all_namespaces(label_selector=selector)
        for pod in sorted(ret.items, key=lambda x: x.metadata.name):
          if pod.status.phase != "Running":
            raise RuntimeError('Pod "%s" is not running; phase: "%s"'
                               % (pod.metadata.name, pod.status.phase))
          all_pods.append("%s:%s" % (pod.status.host_ip, self._tf_server_port))
      cluster_map[tf_job] = all_pods
    return ClusterSpec(cluster_map)


def _google_environment(tpu):
  return tpu in ("", "local") or tpu.startswith(("localhost:", "/bns", "uptc://"))


@export("distribute.cluster_resolver.TPUClusterResolver")
class TPUClusterResolver(ClusterResolver):
  """A TPU worker given as `grpc://host:port` (or 'local'); Cloud TPU names, which TF looks
  up through the Cloud TPU API, are not supported."""

  def __init__(self, tpu=None, zone=None, project=None, job_name="worker",
               coordinator_name=None, coordinator_address=None, credentials="default",
               service=None, discovery_url=None):
    if isinstance(tpu, list):
      if not tpu:
        raise ValueError("At least one TPU must be specified.")
      if len(tpu) != 1:
        raise NotImplementedError("Using multiple TPUs in a single session is not yet "
                                  "implemented")
      tpu = tpu[0]
    if tpu is None:
      tpu = os.environ.get("KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS", os.environ.get("TPU_NAME"))
    if tpu is None:
      raise ValueError("Please provide a TPU Name to connect to.")
    tpu = tpu.decode("utf-8") if isinstance(tpu, bytes) else tpu
    self.task_type = job_name
    self.task_id = 0
    google = _google_environment(tpu)
    self._environment = "google" if google else ""
    self.rpc_layer = None if google else "grpc"
    if not google and not tpu.startswith("grpc://"):
      raise NotImplementedError(
          "tfe_compat cannot resolve the Cloud TPU name %r (TF asks the Cloud TPU API); "
          "give the TPU worker's address as 'grpc://host:port'." % tpu)
    self._tpu = tpu[len("grpc://"):] if tpu.startswith("grpc://") else tpu
    self._zone, self._project = zone, project
    self._coordinator_name = coordinator_name
    self._coordinator_address = coordinator_address

  @property
  def environment(self):
    return self._environment

  def master(self, task_type=None, task_id=None, rpc_layer=None):
    return format_master_url(self._tpu.split(",")[0], rpc_layer or self.rpc_layer)

  def get_master(self):
    return self.master()

  def get_job_name(self):
    return self.task_type

  def cluster_spec(self):
    cluster_spec = {self.task_type: self._tpu.split(",")}
    if self._coordinator_address:
      cluster_spec[self._coordinator_name] = [self._coordinator_address]
    return ClusterSpec(cluster_spec)
