"""`tf.keras.utils`: to_categorical, normalize, Progbar, Sequence, get_file (downloads), custom
objects and (de)serialization of Keras objects."""
import hashlib
import os
import shutil
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile

import jax
import numpy as np

from tfe_compat.framework.api import export
from tfe_compat.keras import _serialization


@export("keras.utils.to_categorical")
def to_categorical(y, num_classes=None, dtype="float32"):
  """Converts a class vector (integers) to a one-hot class matrix."""
  y = np.array(y, dtype="int")
  input_shape = y.shape
  if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
    input_shape = tuple(input_shape[:-1])
  y = y.ravel()
  if not num_classes:
    num_classes = np.max(y) + 1
  n = y.shape[0]
  categorical = np.zeros((n, num_classes), dtype=dtype)
  categorical[np.arange(n), y] = 1
  return np.reshape(categorical, input_shape + (num_classes,))


@export("keras.utils.normalize")
def normalize(x, axis=-1, order=2):
  """Normalizes `x` to unit `order`-norm along `axis` (zero vectors stay zero)."""
  norms = np.atleast_1d(np.linalg.norm(x, order, axis))
  norms[norms == 0] = 1
  return x / np.expand_dims(norms, axis)


@export("keras.utils.Progbar")
class Progbar:
  """TF 1.15's progress bar: `update(current, values)` redraws the bar on stdout."""

  def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None,
               unit_name="step"):
    self.target = target
    self.width = width
    self.verbose = verbose
    self.interval = interval
    self.unit_name = unit_name
    self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
    self._dynamic_display = ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty())
                             or "ipykernel" in sys.modules or "posix" in sys.modules)
    self._total_width = 0
    self._seen_so_far = 0
    self._values = {}
    self._values_order = []
    self._start = time.time()
    self._last_update = 0

  def update(self, current, values=None):
    """Updates the bar to step `current`; `values` is a list of (name, value) pairs."""
    for k, v in values or []:
      if k not in self._values_order:
        self._values_order.append(k)
      if k not in self.stateful_metrics:
        if k not in self._values:
          self._values[k] = [v * (current - self._seen_so_far), current - self._seen_so_far]
        else:
          self._values[k][0] += v * (current - self._seen_so_far)
          self._values[k][1] += (current - self._seen_so_far)
      else:
        self._values[k] = [v, 1]
    self._seen_so_far = current

    now = time.time()
    info = " - %.0fs" % (now - self._start)
    if self.verbose == 1:
      if (now - self._last_update < self.interval and self.target is not None
          and current < self.target):
        return
      prev_total_width = self._total_width
      if self._dynamic_display:
        sys.stdout.write("\b" * prev_total_width)
        sys.stdout.write("\r")
      else:
        sys.stdout.write("\n")
      if self.target is not None:
        numdigits = int(np.log10(self.target)) + 1
        bar = ("%" + str(numdigits) + "d/%d [") % (current, self.target)
        prog_width = int(self.width * float(current) / self.target)
        if prog_width > 0:
          bar += "=" * (prog_width - 1)
          bar += ">" if current < self.target else "="
        bar += "." * (self.width - prog_width) + "]"
      else:
        bar = "%7d/Unknown" % current
      self._total_width = len(bar)
      sys.stdout.write(bar)

      time_per_unit = (now - self._start) / current if current else 0
      if self.target is not None and current < self.target:
        eta = time_per_unit * (self.target - current)
        if eta > 3600:
          eta_format = "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
        elif eta > 60:
          eta_format = "%d:%02d" % (eta // 60, eta % 60)
        else:
          eta_format = "%ds" % eta
        info = " - ETA: %s" % eta_format
      elif time_per_unit >= 1 or time_per_unit == 0:
        info += " %.0fs/%s" % (time_per_unit, self.unit_name)
      elif time_per_unit >= 1e-3:
        info += " %.0fms/%s" % (time_per_unit * 1e3, self.unit_name)
      else:
        info += " %.0fus/%s" % (time_per_unit * 1e6, self.unit_name)

      for k in self._values_order:
        info += " - %s:" % k
        if isinstance(self._values[k], list):
          avg = np.mean(self._values[k][0] / max(1, self._values[k][1]))
          info += (" %.4f" if abs(avg) > 1e-3 else " %.4e") % avg
        else:
          info += " %s" % self._values[k]
      self._total_width += len(info)
      if prev_total_width > self._total_width:
        info += " " * (prev_total_width - self._total_width)
      if self.target is not None and current >= self.target:
        info += "\n"
      sys.stdout.write(info)
      sys.stdout.flush()
    elif self.verbose == 2:
      if self.target is not None and current >= self.target:
        numdigits = int(np.log10(self.target)) + 1
        info = ("%" + str(numdigits) + "d/%d") % (current, self.target) + info
        for k in self._values_order:
          info += " - %s:" % k
          avg = np.mean(self._values[k][0] / max(1, self._values[k][1]))
          info += (" %.4f" if avg > 1e-3 else " %.4e") % avg
        info += "\n"
        sys.stdout.write(info)
        sys.stdout.flush()
    self._last_update = now

  def add(self, n, values=None):
    self.update(self._seen_so_far + n, values)


@export("keras.utils.Sequence")
class Sequence:
  """Base class for batch sources: `__getitem__(index)` returns a batch, `__len__` counts
  them; `fit` calls `on_epoch_end` after each epoch."""

  def __getitem__(self, index):
    raise NotImplementedError

  def __len__(self):
    raise NotImplementedError

  def on_epoch_end(self):
    """Called at the end of every epoch."""

  def __iter__(self):
    for item in (self[i] for i in range(len(self))):
      yield item


# ---- get_file: the Keras download cache ----
def _hash_file(fpath, algorithm="sha256", chunk_size=65535):
  hasher = hashlib.sha256() if algorithm in ("sha256", "auto") else hashlib.md5()
  with open(fpath, "rb") as f:
    for chunk in iter(lambda: f.read(chunk_size), b""):
      hasher.update(chunk)
  return hasher.hexdigest()


def _validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
  """Whether the file's sha256 (or md5: 'auto' picks by the hash's length) is `file_hash`."""
  if algorithm == "sha256" or (algorithm == "auto" and len(file_hash) == 64):
    hasher = "sha256"
  else:
    hasher = "md5"
  return str(_hash_file(fpath, hasher, chunk_size)) == str(file_hash)


def _extract_archive(file_path, path=".", archive_format="auto"):
  """Extracts a tar or zip archive into `path`; True when something was extracted."""
  if archive_format is None:
    return False
  if archive_format == "auto":
    archive_format = ["tar", "zip"]
  if isinstance(archive_format, str):
    archive_format = [archive_format]
  for archive_type in archive_format:
    if archive_type == "tar" and tarfile.is_tarfile(file_path):
      archive = tarfile.open(file_path)  # pylint: disable=consider-using-with
    elif archive_type == "zip" and zipfile.is_zipfile(file_path):
      archive = zipfile.ZipFile(file_path)  # pylint: disable=consider-using-with
    else:
      continue
    with archive:
      try:
        archive.extractall(path)
      except (tarfile.TarError, RuntimeError, KeyboardInterrupt):
        if os.path.isfile(path):
          os.remove(path)
        elif os.path.exists(path):
          shutil.rmtree(path)
        raise
    return True
  return False


def _download(origin, fpath):
  """Fetches `origin` into `fpath` with a Progbar, as TF 1.15's get_file does."""
  print("Downloading data from", origin)
  progbar = []

  def dl_progress(count, block_size, total_size):
    if not progbar:
      progbar.append(Progbar(None if total_size == -1 else total_size))
    else:  # the last block ends at the file's end (TF 1.15 overshot it)
      progbar[0].update(count * block_size if total_size == -1
                        else min(count * block_size, total_size))

  error_msg = "URL fetch failure on {}: {} -- {}"
  try:
    try:
      urllib.request.urlretrieve(origin, fpath, dl_progress)
    except urllib.error.HTTPError as e:
      raise Exception(error_msg.format(origin, e.code, e.msg))  # pylint: disable=broad-exception-raised
    except urllib.error.URLError as e:
      raise Exception(error_msg.format(origin, e.errno, e.reason))  # pylint: disable=broad-exception-raised
  except (Exception, KeyboardInterrupt):
    if os.path.exists(fpath):
      os.remove(fpath)
    raise


@export("keras.utils.get_file")
def get_file(fname, origin, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None):
  """The path of `fname` in the Keras cache (`~/.keras/datasets/` by default), downloaded
  from `origin` when it is missing or its hash does not match; archives are extracted as TF
  does (`untar`, `extract`)."""
  if cache_dir is None:
    cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    try:  # importing TF's Keras creates ~/.keras, so TF's cache is there on a fresh machine
      os.makedirs(cache_dir, exist_ok=True)
    except OSError:
      pass
  if md5_hash is not None and file_hash is None:
    file_hash, hash_algorithm = md5_hash, "md5"
  datadir_base = os.path.expanduser(cache_dir)
  if not os.access(datadir_base, os.W_OK):
    datadir_base = os.path.join("/tmp", ".keras")
  datadir = os.path.join(datadir_base, cache_subdir)
  os.makedirs(datadir, exist_ok=True)
  untar_fpath = os.path.join(datadir, fname)
  fpath = untar_fpath + ".tar.gz" if untar else untar_fpath
  download = not os.path.exists(fpath)
  if not download and file_hash is not None and not _validate_file(fpath, file_hash,
                                                                     hash_algorithm):
    print("A local file was found, but it seems to be incomplete or outdated because the "
          + hash_algorithm + " file hash does not match the original value of " + file_hash
          + " so we will re-download the data.")
    download = True
  if download:
    _download(origin, fpath)
  if untar:
    if not os.path.exists(untar_fpath):
      _extract_archive(fpath, datadir, archive_format="tar")
    return untar_fpath
  if extract:
    _extract_archive(fpath, datadir, archive_format)
  return fpath


@export("keras.utils.model_to_dot")
def model_to_dot(model, show_shapes=False, show_layer_names=True, rankdir="TB",
                 expand_nested=False, dpi=96, subgraph=False):
  """Needs pydot and graphviz, as in TF; tfe_compat does not draw models."""
  try:
    import pydot  # pylint: disable=import-outside-toplevel
    pydot.Dot.create(pydot.Dot())
  except (ImportError, OSError):
    raise ImportError("Failed to import pydot. You must install pydot and graphviz for "
                      "`pydotprint` to work.") from None
  raise NotImplementedError("tf.keras.utils.model_to_dot is not supported by tfe_compat; "
                            "use model.summary() instead.")


def convert_kernel(kernel):
  """A Theano-style convolution kernel flipped to TensorFlow's (spatial axes reversed)."""
  kernel = np.asarray(kernel)
  slices = [slice(None, None, -1)] * (kernel.ndim - 2) + [slice(None), slice(None)]
  return np.copy(kernel[tuple(slices)])


@export("keras.utils.convert_all_kernels_in_model")
def convert_all_kernels_in_model(model):
  """Flips the kernels of the model's Conv1D/2D/3D and Conv2DTranspose layers."""
  conv_classes = {"Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose"}
  for layer in model.layers:
    if type(layer).__name__ in conv_classes:
      layer.kernel.assign(convert_kernel(layer.kernel.numpy()))


@export("keras.utils.plot_model")
def plot_model(model, to_file="model.png", show_shapes=False, show_layer_names=True,
               rankdir="TB", expand_nested=False, dpi=96):
  """Not available: drawing the model needs pydot/graphviz, which tfe_compat does not use."""
  raise NotImplementedError("tf.keras.utils.plot_model is not supported by tfe_compat "
                            "(it needs pydot and graphviz); use model.summary() instead.")


# ---- Custom objects and (de)serialization (the registry lives in _serialization) ----
@export("keras.utils.CustomObjectScope")
class CustomObjectScope:
  """`with CustomObjectScope({"name": obj}):` makes custom objects known to deserialization."""

  def __init__(self, *args):
    self.custom_objects = args
    self.backup = None

  def __enter__(self):
    self.backup = _serialization.GLOBAL_CUSTOM_OBJECTS.copy()
    for objects in self.custom_objects:
      _serialization.GLOBAL_CUSTOM_OBJECTS.update(objects)
    return self

  def __exit__(self, *args, **kwargs):
    _serialization.GLOBAL_CUSTOM_OBJECTS.clear()
    _serialization.GLOBAL_CUSTOM_OBJECTS.update(self.backup)


@export("keras.utils.custom_object_scope")
def custom_object_scope(*args):
  """A `CustomObjectScope` for the given `{name: object}` dictionaries."""
  return CustomObjectScope(*args)


@export("keras.utils.get_custom_objects")
def get_custom_objects():
  """The live global dictionary of custom objects."""
  return _serialization.GLOBAL_CUSTOM_OBJECTS


@export("keras.utils.serialize_keras_object")
def serialize_keras_object(instance):
  """`{"class_name": ..., "config": ...}` for an object with `get_config`, else its name."""
  return _serialization.serialize_keras_object(instance)


@export("keras.utils.deserialize_keras_object")
def deserialize_keras_object(identifier, module_objects=None, custom_objects=None,
                             printable_module_name="object"):
  """The object a config dict or a name describes (custom objects looked up first)."""
  return _serialization.deserialize_keras_object(
      identifier, module_objects=module_objects, custom_objects=custom_objects,
      printable_module_name=printable_module_name)


@export("keras.utils.get_source_inputs")
def get_source_inputs(tensor, layer=None, node_index=None):
  """The `tf.keras.Input` tensors a symbolic tensor is computed from (in visiting order)."""
  found, seen, stack = [], set(), [tensor]
  while stack:
    x = stack.pop(0)
    node = getattr(x, "node", None)
    if node is None or node.inputs is None:  # an Input
      if id(x) not in seen:
        seen.add(id(x))
        found.append(x)
      continue
    stack.extend(jax.tree_util.tree_leaves(node.inputs,
                                           is_leaf=lambda t: hasattr(t, "node")))
  return found


@export("keras.utils.multi_gpu_model")
def multi_gpu_model(model, gpus, cpu_merge=True, cpu_relocation=False):
  """TF 1.15's data-parallel replication, with its checks. Replicas on JAX devices compute
  what the model computes on the whole batch, so the model itself is returned."""
  from tfe_compat.framework import device  # pylint: disable=import-outside-toplevel
  count = len(gpus) if isinstance(gpus, (list, tuple)) else gpus
  if count <= 1:
    raise ValueError("For multi-gpu usage to be effective, call `multi_gpu_model` with "
                     "`gpus >= 2`. Received: `gpus=%s`" % (gpus,))
  available = device.devices_of_type("GPU")
  if len(available) < count:
    names = ["/cpu:0"] + ["/gpu:%d" % i for i in range(len(available))]
    raise ValueError("To call `multi_gpu_model` with `gpus=%s`, we expect the following "
                     "devices to be available: %s. However this machine only has: %s. Try "
                     "reducing `gpus`." % (gpus, ["/cpu:0"] + ["/gpu:%d" % i
                                                              for i in range(count)], names))
  return model
