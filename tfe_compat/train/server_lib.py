"""`tf.train.ClusterSpec` (a cluster's jobs and task addresses, TF's ClusterDef proto) and
`tf.train.Server` (not supported: tfe_compat runs no in-process gRPC server)."""
from tfe_compat.framework.api import export
from tfe_compat.proto import cluster_pb2


def _no_such_job(job_name):
  return ValueError("No such job in cluster: %r" % job_name)


@export("train.ClusterSpec")
class ClusterSpec:
  """A cluster as jobs of tasks: {job name: [addresses] or {task index: address}}, a
  `tf.train.ClusterDef`, or another ClusterSpec."""

  def __init__(self, cluster):
    if isinstance(cluster, dict):
      self._cluster_spec = {}
      for job_name, tasks in cluster.items():
        if isinstance(tasks, (list, tuple)):
          job_tasks = dict(enumerate(tasks))
        elif isinstance(tasks, dict):
          job_tasks = dict(tasks)
        else:
          raise TypeError("The tasks for job %r must be a list or a dictionary from integers "
                          "to strings." % job_name)
        self._cluster_spec[job_name] = job_tasks
      self._make_cluster_def()
    elif isinstance(cluster, (cluster_pb2.ClusterDef, ClusterSpec)):
      self._cluster_def = cluster_pb2.ClusterDef()
      self._cluster_def.MergeFrom(cluster if isinstance(cluster, cluster_pb2.ClusterDef)
                                  else cluster.as_cluster_def())
      self._cluster_spec = {job.name: dict(job.tasks.items()) for job in self._cluster_def.job}
    else:
      raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists "
                      "of network addresses, or a `ClusterDef` protocol buffer")

  def _make_cluster_def(self):
    self._cluster_def = cluster_pb2.ClusterDef()
    for job_name, tasks in sorted(self._cluster_spec.items()):
      if not isinstance(job_name, (str, bytes)):
        raise TypeError("Job name %r must be bytes or unicode" % (job_name,))
      job_def = self._cluster_def.job.add()
      job_def.name = job_name
      for i, task_address in sorted(tasks.items()):
        if not isinstance(task_address, (str, bytes)):
          raise TypeError("Task address %r must be bytes or unicode" % (task_address,))
        job_def.tasks[i] = task_address

  def __bool__(self):
    return bool(self._cluster_spec)

  def __eq__(self, other):
    return self._cluster_spec == other

  def __ne__(self, other):
    return self._cluster_spec != other

  def __str__(self):
    key_values = self.as_dict()
    return "ClusterSpec({%s})" % ", ".join(repr(k) + ": " + repr(key_values[k])
                                           for k in sorted(key_values))

  __repr__ = __str__

  def as_dict(self):
    """{job: [addresses]} for jobs with tasks 0..n-1, {job: {index: address}} otherwise."""
    ret = {}
    for job in self.jobs:
      task_indices = self.task_indices(job)
      if not task_indices:
        ret[job] = {}
      elif max(task_indices) + 1 == len(task_indices):
        ret[job] = self.job_tasks(job)
      else:
        ret[job] = {i: self.task_address(job, i) for i in task_indices}
    return ret

  def as_cluster_def(self):
    """The `tf.train.ClusterDef` protocol buffer of this cluster."""
    return self._cluster_def

  @property
  def jobs(self):
    return list(self._cluster_spec.keys())

  def _job(self, job_name):
    try:
      return self._cluster_spec[job_name]
    except KeyError:
      raise _no_such_job(job_name) from None

  def num_tasks(self, job_name):
    return len(self._job(job_name))

  def task_indices(self, job_name):
    return sorted(self._job(job_name))

  def task_address(self, job_name, task_index):
    job = self._job(job_name)
    try:
      return job[task_index]
    except KeyError:
      raise ValueError("No task with index %r in job %r" % (task_index, job_name)) from None

  def job_tasks(self, job_name):
    """The job's addresses by task index (None where a sparse job has no task)."""
    job = self._job(job_name)
    ret = [None] * (max(job.keys()) + 1)
    for i, task in job.items():
      ret[i] = task
    return ret


_NO_SERVER = ("tfe_compat does not support in-process gRPC servers (tf.train.Server / "
              "tf.distribute.Server): there is no distributed TensorFlow runtime; use "
              "tf.distribute.MirroredStrategy on the local devices, or JAX's multi-process "
              "runtime (jax.distributed) directly.")


@export("train.Server", "distribute.Server")
class Server:
  """An in-process TensorFlow server: not supported (raises NotImplementedError)."""

  def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
               config=None, start=True):
    raise NotImplementedError(_NO_SERVER)

  @staticmethod
  def create_local_server(config=None, start=True):
    raise NotImplementedError(_NO_SERVER)
