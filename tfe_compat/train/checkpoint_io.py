"""Checkpoint storage on orbax, and TF's `checkpoint` state file.

A checkpoint with prefix P (what `save()` returns and `restore()` takes) is, on disk:

  P.index            JSON: the format, the name of the data directory, and for every saved
                     value its key (an object-graph path such as "model/dense/kernel" or a
                     variable name for `tf.train.Saver`), dtype and shape, in storage order;
  P.orbax-<token>/   an orbax PyTree checkpoint of the values (a list of NumPy arrays).

Writing saves the arrays into a fresh data directory (orbax writes it under a temporary name
and renames it once complete), then replaces P.index atomically with `os.replace`, and only
then deletes P's previous data directory: a crash at any point leaves the previous
checkpoint P readable. The directory of P keeps TF's text `checkpoint` state file
(`model_checkpoint_path: "..."` lines) for `tf.train.latest_checkpoint`.

Orbax runs without OCDBT, compression or fsync (TF's own checkpoints are not fsynced either):
see benchmarks/checkpoint.py for what that buys. Reading skips orbax's Checkpointer: the
index names the data directory (which orbax finalized before the index was written) and
every value's dtype and shape, so `read` hands orbax's NumPy handler the parameter infos
directly, and the handler opens and reads all arrays concurrently through one TensorStore
context (files memory-mapped), without orbax's per-file existence checks (TensorStore reports
missing files), into 64-byte aligned arrays allocated by the caller (see `_aligned`).
"""
import asyncio
import codecs
import concurrent.futures
import json
import logging
import os
import re
import shutil
import uuid

import numpy as np

from tfe_compat.data import tfrecord
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.ops import gfile
from tfe_compat.train import tf_bundle

_log = logging.getLogger("tensorflow")
_FORMAT = "tfe_compat-orbax-1"
_checkpointer = []  # the orbax Checkpointer, built on first use


def _orbax(with_handler=False):
  """(orbax module, the Checkpointer writing lists of NumPy arrays), built once; with
  `with_handler`, also its NumPy TypeHandler (which `read` uses directly)."""
  if not _checkpointer:
    import orbax.checkpoint as ocp  # pylint: disable=import-outside-toplevel
    import tensorstore as ts  # pylint: disable=import-outside-toplevel

    class _Handler(ocp.type_handlers.NumpyHandler):
      """orbax's NumPy handler, writing through a TensorStore context without fsync."""

      def __init__(self):
        try:
          super().__init__(deepcopy_host_arrays=False)  # the arrays are private copies
        except TypeError:  # orbax before 0.11 has no such option (and never copies)
          super().__init__()
        self._context = ts.Context({"file_io_concurrency": {"limit": 128},
                                    "file_io_sync": False})
        self._read_context = ts.Context({"file_io_concurrency": {"limit": 128},
                                         "file_io_mode": {"mode": "memmap"}})

      async def serialize(self, values, infos, args=None):
        for info in infos:
          info.ts_context = self._context
        return await super().serialize(values, infos, args)

      async def deserialize(self, infos, args=None):
        async def read_one(info):
          spec = ocp.type_handlers.get_json_tspec_read(info, use_ocdbt=False)
          store = await ts.open(ts.Spec(spec), open=True, read=True,
                                context=self._read_context)
          out = _aligned(store.shape, store.dtype.numpy_dtype)
          await ts.array(out, copy=False, write=True).write(store)
          return out
        return await asyncio.gather(*[read_one(info) for info in infos])

    array_handler = _Handler()
    registry = ocp.type_handlers.create_type_handler_registry((np.ndarray, array_handler))
    handler = ocp.PyTreeCheckpointHandler(use_ocdbt=False, use_compression=False,
                                          type_handler_registry=registry)
    _checkpointer.append((ocp, ocp.Checkpointer(handler), array_handler))
  return _checkpointer[0] if with_handler else _checkpointer[0][:2]


class _QuietOrbax(logging.Filter):
  """Drops orbax's informational logs and warnings ("Created BasePyTreeCheckpointHandler",
  "Skipping merge of OCDBT checkpoints", ...): TF prints nothing when it saves or restores."""

  def filter(self, record):
    return record.levelno >= logging.ERROR or os.sep + "orbax" + os.sep not in record.pathname


logging.getLogger("absl").addFilter(_QuietOrbax())  # orbax logs through absl's logger


def _local(path):
  """`path`, which must be on the local file system: a path with a scheme (gs://, s3://,
  memory://) raises instead of becoming a local directory named "gs:"."""
  path = os.fspath(path)
  scheme = gfile.scheme(path)
  if scheme not in (None, "file"):
    raise errors.UnimplementedError(
        None, None, "tfe_compat keeps checkpoints on the local file system, not on %s:// "
        "(%s): save to a local path and copy the files with tf.io.gfile.copy" % (scheme, path))
  return path[len("file://"):] if scheme else path


def _split(prefix):
  directory, base = os.path.split(_local(prefix))
  return directory or ".", base


def _data_dirs(prefix):
  """The data of checkpoint `prefix`: orbax directories, and TF's shard files."""
  directory, base = _split(prefix)
  if not os.path.isdir(directory):
    return []
  return [os.path.join(directory, name) for name in os.listdir(directory)
          if name.startswith(base + ".orbax-") or re.fullmatch(
              re.escape(base) + r"\.data-\d{5}-of-\d{5}", name)]


def _check_storable(key, array):
  if array.dtype.kind in "OUS":
    raise NotImplementedError("tfe_compat cannot checkpoint the string variable %r." % key)


def checkpoint_format():
  """"orbax" (our format, the default) or "tf" (TF's bundle): $TFE_CHECKPOINT_FORMAT."""
  name = os.environ.get("TFE_CHECKPOINT_FORMAT", "orbax").lower()
  if name not in ("orbax", "tf"):
    raise ValueError("TFE_CHECKPOINT_FORMAT must be 'orbax' or 'tf', not %r" % name)
  return name


def write(prefix, values, names=None, format=None):  # pylint: disable=redefined-builtin
  """Writes `values` ({key: np.ndarray}, ordered) as the checkpoint `prefix`, atomically;
  `names` ({key: variable name}) are kept in the index for `object_metadata`. In TF's
  format (`format` "tf", default `checkpoint_format()`) `values` are stored as given."""
  prefix = _local(prefix)
  directory, base = _split(prefix)
  make_directory(directory)
  _sweep(directory)
  if (format or checkpoint_format()) == "tf":
    old = _data_dirs(prefix)
    tf_bundle.write(prefix, {k: np.asarray(v) for k, v in values.items()})
    for path in set(old) - {prefix + ".data-00000-of-00001"}:
      _delete(path)
    return prefix
  keys = list(values)
  arrays = [np.asarray(values[k]) for k in keys]
  for key, array in zip(keys, arrays):
    _check_storable(key, array)
  old = _data_dirs(prefix)
  data_name = "%s.orbax-%s" % (base, uuid.uuid4().hex[:12])
  data_path = os.path.abspath(os.path.join(directory, data_name))
  index = {"format": _FORMAT, "data": data_name if arrays else None,
           "variables": [[k, dtypes.as_dtype(a.dtype).name, list(a.shape),
                          tfrecord.masked_crc32c(a)]
                         for k, a in zip(keys, arrays)]}
  if names:
    index["names"] = names
  temporary = "%s.index.tmp-%s" % (prefix, uuid.uuid4().hex[:12])
  try:
    if arrays:
      ocp, checkpointer = _orbax()
      checkpointer.save(data_path, args=ocp.args.PyTreeSave(arrays))
    with open(temporary, "w") as f:
      json.dump(index, f)
    os.replace(temporary, prefix + ".index")  # the commit point
  except BaseException:
    for path in [temporary] + [p for p in _data_dirs(prefix) if p not in old]:
      _delete(path)
    raise
  for path in old:
    _delete(path)
  return prefix


_TEMPORARY = re.compile(r".*(\.orbax-checkpoint-tmp|\.index\.tmp-|\.tempstate)")
_DATA = re.compile(r"(.*)(\.orbax-[0-9a-f]{12}|\.data-\d{5}-of-\d{5})$")


def _sweep(directory):
  """Deletes what saves killed midway left in `directory`: temporary files, and data that
  no checkpoint index refers to (written before the index that would have)."""
  if not os.path.isdir(directory):
    return
  names = os.listdir(directory)
  for name in names:
    path = os.path.join(directory, name)
    data = _DATA.fullmatch(name)
    if _TEMPORARY.match(name):
      _delete(path)
    elif data and data.group(1) + ".index" not in names:
      _delete(path)
    elif data and data.group(2).startswith(".orbax-"):
      try:
        with open(os.path.join(directory, data.group(1) + ".index")) as f:
          referenced = json.load(f).get("data")
      except (OSError, ValueError, AttributeError):
        continue  # not our index (TF's, or unreadable): leave it
      if referenced != name:
        _delete(path)


def make_directory(path):
  """`os.makedirs(path, exist_ok=True)`, with TF's error where a file is in the way."""
  try:
    os.makedirs(path, exist_ok=True)
  except (FileExistsError, NotADirectoryError):
    raise errors.FailedPreconditionError(None, None, "%s is not a directory" % path) from None


def _delete(path):
  if os.path.isdir(path):
    shutil.rmtree(path, ignore_errors=True)
  elif os.path.exists(path):
    os.remove(path)


def _not_found(prefix):
  return errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed "
                              "to find any matching files for %s" % (prefix,))


def _data_loss(prefix, reason):
  return errors.DataLossError(None, None, "Unable to open table file %s: Data loss: %s: "
                              "perhaps your file is in a different file format and you need "
                              "to use a different restore operator?" % (prefix, reason))


def read_index(prefix):
  """({key: (DType, shape tuple)} of the checkpoint `prefix` in storage order, the name of
  its orbax data directory); for TF's format, TF's keys and None.

  Raises NotFoundError when there is no checkpoint there, DataLossError when it is corrupt.
  """
  return _read_index(prefix)[:2]


def _read_index(prefix):
  """read_index's answer and {key: the masked CRC32C of its bytes} (ours, from 2026-11)."""
  prefix = _local(prefix)
  path = prefix + ".index"
  if not os.path.isfile(path):
    if os.path.isdir(prefix):  # TF opens the prefix itself as a V1 table
      raise errors.DataLossError(
          None, None, "Unable to open table file %s: FAILED_PRECONDITION: %s; Is a directory: "
          "perhaps your file is in a different file format and you need to use a different "
          "restore operator?" % (prefix, prefix))
    raise _not_found(prefix)
  if tf_bundle.is_bundle(prefix):
    return {k: (dtypes.as_dtype(d), tuple(shape))
            for k, (d, shape) in tf_bundle.read_entries(prefix).items()}, None, {}
  try:
    with open(path) as f:
      index = json.load(f)
    if index.get("format") != _FORMAT:
      raise ValueError("not a tfe_compat checkpoint index")
    entries = {v[0]: (dtypes.as_dtype(v[1]), tuple(v[2])) for v in index["variables"]}
    checksums = {v[0]: v[3] for v in index["variables"] if len(v) > 3}
    data = index["data"]
  except (ValueError, KeyError, TypeError, IndexError) as e:
    raise _data_loss(path, e) from None
  return entries, data, checksums


def read_names(prefix):
  """{key: variable name} recorded by `write` (object-based checkpoints)."""
  read_index(prefix)  # fails as reading does
  if tf_bundle.is_bundle(_local(prefix)):
    return {}
  with open(_local(prefix) + ".index") as f:
    return json.load(f).get("names", {})


def _aligned(shape, dtype):
  """An uninitialized C-order array, 64-byte aligned so that `jax.device_put(...,
  may_alias=True)` can use it without a copy; allocated by the calling thread (memory that
  TensorStore's worker threads allocate goes back to the OS when freed, and touching fresh
  pages is what made restores slow)."""
  dtype = np.dtype(dtype)
  size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
  raw = np.empty(size + 64, np.uint8)
  start = -raw.ctypes.data % 64
  return raw[start:start + size].view(dtype).reshape(shape)


def _run(coroutine):
  """Runs `coroutine` to completion (in a helper thread when an event loop is running here,
  as in Jupyter)."""
  try:
    asyncio.get_running_loop()
  except RuntimeError:
    loop = asyncio.new_event_loop()
    try:
      return loop.run_until_complete(coroutine)
    finally:
      loop.close()
  with concurrent.futures.ThreadPoolExecutor(1) as pool:
    return pool.submit(_run, coroutine).result()


def _read_arrays(path, count):
  """The `count` arrays of the orbax data directory `path` (a list saved by `write`)."""
  ocp, _, handler = _orbax(with_handler=True)
  from etils import epath  # pylint: disable=import-outside-toplevel
  directory = epath.Path(path)
  infos = [ocp.type_handlers.ParamInfo(name=str(i), parent_dir=directory,
                                       is_ocdbt_checkpoint=False, use_zarr3=False,
                                       ts_context=handler._read_context)  # pylint: disable=protected-access
           for i in range(count)]
  return _run(handler.deserialize(infos))


def read(prefix):
  """({key: (DType, shape)}, loader): `loader(keys=None)` returns {key: np.ndarray} of
  `keys` (all by default). Reads our format and TF's (tf_bundle.py)."""
  entries, data, checksums = _read_index(prefix)
  _sweep(_split(prefix)[0])
  if tf_bundle.is_bundle(_local(prefix)):
    return entries, lambda keys=None: tf_bundle.read(_local(prefix), keys)

  def load(keys=None):
    if keys is not None:
      return {k: v for k, v in load().items() if k in set(keys)}
    if data is None:
      return {}
    path = os.path.abspath(os.path.join(_split(prefix)[0], data))
    if not os.path.isdir(path):
      raise _data_loss(prefix, "missing data directory %s" % data)
    try:
      arrays = _read_arrays(path, len(entries))
    except Exception as e:  # pylint: disable=broad-except
      raise _data_loss(prefix, "%s: %s" % (type(e).__name__, e)) from None
    if not isinstance(arrays, (list, tuple)) or len(arrays) != len(entries):
      raise _data_loss(prefix, "the data does not match the index")
    out = {}
    for (key, (dtype, shape)), array in zip(entries.items(), arrays):
      array = np.asarray(array)
      if array.shape != shape or array.dtype != np.dtype(dtype.as_numpy_dtype):
        raise _data_loss(prefix, "value %r does not match the index" % key)
      if key in checksums and tfrecord.masked_crc32c(array) != checksums[key]:
        raise errors.DataLossError(None, None, "Checksum does not match: stored %d vs. "
                                   "calculated on the restored bytes %d (value %r of %s)"
                                   % (checksums[key], tfrecord.masked_crc32c(array), key,
                                      prefix))
      out[key] = array
    return out

  return entries, load


def rekeyed(entries, load, keys):
  """`(entries, load)` of `read` under new keys: `keys` maps each new key to a stored key."""

  def load_rekeyed(wanted=None):
    wanted = list(keys) if wanted is None else wanted
    values = load(sorted({keys[k] for k in wanted}))
    return {k: values[keys[k]] for k in wanted}

  return {k: entries[stored] for k, stored in keys.items()}, load_rekeyed


def exists(prefix):
  return os.path.isfile(_local(prefix) + ".index")


def remove(prefix):
  """Deletes the checkpoint `prefix` (its index and data) if it exists."""
  for path in _data_dirs(prefix):
    _delete(path)
  if exists(prefix):
    os.remove(_local(prefix) + ".index")


# ---- The `checkpoint` state file (TF's CheckpointState text proto) ----
@export("train.CheckpointState")
class CheckpointState:
  """What `tf.train.get_checkpoint_state` returns (TF's CheckpointState proto fields)."""

  def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(),
               all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0):
    self.model_checkpoint_path = model_checkpoint_path
    self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
    self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
    self.last_preserved_timestamp = last_preserved_timestamp

  def __str__(self):
    lines = ['model_checkpoint_path: "%s"' % _escape(self.model_checkpoint_path)]
    lines += ['all_model_checkpoint_paths: "%s"' % _escape(p)
              for p in self.all_model_checkpoint_paths]
    lines += ["all_model_checkpoint_timestamps: %r" % float(t)
              for t in self.all_model_checkpoint_timestamps]
    if self.last_preserved_timestamp:
      lines.append("last_preserved_timestamp: %r" % float(self.last_preserved_timestamp))
    return "\n".join(lines) + "\n"

  __repr__ = __str__

  def __eq__(self, other):
    return isinstance(other, CheckpointState) and str(self) == str(other)


def _escape(text):
  out = []
  for byte in text.encode("utf-8"):
    char = chr(byte)
    if char in "\"'\\":
      out.append("\\" + char)
    elif char == "\n":
      out.append("\\n")
    elif 32 <= byte < 127:
      out.append(char)
    else:
      out.append("\\%03o" % byte)
  return "".join(out)


_LINE = re.compile(r'^\s*(\w+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|([-+0-9.eEinfa]+))\s*$')


def _parse_state(text):
  state = CheckpointState()
  for line in text.splitlines():
    if not line.strip():
      continue
    match = _LINE.match(line)
    if match is None:
      raise ValueError("cannot parse %r" % line)
    field, string, number = match.groups()
    if string is not None:
      value = codecs.escape_decode(string.encode("latin-1"))[0].decode("utf-8")
    else:
      value = float(number)
    if field in ("model_checkpoint_path", "last_preserved_timestamp"):
      setattr(state, field, value)
    elif field in ("all_model_checkpoint_paths", "all_model_checkpoint_timestamps"):
      getattr(state, field).append(value)
    else:
      raise ValueError("unknown field %r" % field)
  return state


def _relative(path, save_dir):
  """`path` relative to `save_dir` when it lies inside it (TF's save_relative_paths)."""
  relative = os.path.relpath(os.path.abspath(path), os.path.abspath(save_dir))
  return path if relative.startswith("..") else relative


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None):
  """Writes the `checkpoint` state file of `save_dir` (atomically)."""
  save_dir, model_checkpoint_path = _local(save_dir), _local(model_checkpoint_path)
  paths = [_local(p) for p in all_model_checkpoint_paths or []]
  if not paths or paths[-1] != model_checkpoint_path:
    paths.append(model_checkpoint_path)
  state = CheckpointState(_relative(model_checkpoint_path, save_dir),
                          [_relative(p, save_dir) for p in paths],
                          all_model_checkpoint_timestamps or (),
                          last_preserved_timestamp or 0.0)
  make_directory(save_dir or ".")
  path = os.path.join(save_dir, latest_filename or "checkpoint")
  temporary = "%s.tmp-%s" % (path, uuid.uuid4().hex[:12])
  with open(temporary, "w") as f:
    f.write(str(state))
  os.replace(temporary, path)


@export("train.update_checkpoint_state")
def _update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                             latest_filename=None, all_model_checkpoint_timestamps=None,
                             last_preserved_timestamp=None):
  update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                          latest_filename, all_model_checkpoint_timestamps,
                          last_preserved_timestamp)


@export("train.get_checkpoint_state")
def get_checkpoint_state(checkpoint_dir, latest_filename=None):
  """The CheckpointState in `checkpoint_dir`'s `checkpoint` file, or None (paths joined)."""
  path = os.path.join(_local(checkpoint_dir), latest_filename or "checkpoint")
  if not os.path.isfile(path):
    return None
  try:
    with open(path) as f:
      state = _parse_state(f.read())
  except (ValueError, UnicodeDecodeError) as e:
    _log.warning("%s: %s", type(e).__name__, e)
    _log.warning("%s: Checkpoint ignored", path)
    return None
  if not state.model_checkpoint_path:
    raise ValueError("Invalid checkpoint state loaded from " + os.fspath(checkpoint_dir))
  join = lambda p: p if os.path.isabs(p) else os.path.join(_local(checkpoint_dir), p)
  state.model_checkpoint_path = join(state.model_checkpoint_path)
  state.all_model_checkpoint_paths = [join(p) for p in state.all_model_checkpoint_paths]
  return state


@export("train.latest_checkpoint")
def latest_checkpoint(checkpoint_dir, latest_filename=None):
  """The prefix of the newest checkpoint recorded in `checkpoint_dir`, or None."""
  state = get_checkpoint_state(checkpoint_dir, latest_filename)
  if state and state.model_checkpoint_path:
    if exists(state.model_checkpoint_path):
      return state.model_checkpoint_path
    _log.error("Couldn't match files for checkpoint %s", state.model_checkpoint_path)
  return None


@export("train.checkpoint_exists")
def checkpoint_exists(checkpoint_prefix):
  return exists(checkpoint_prefix)


def _resolve(ckpt_dir_or_file):
  path = _local(ckpt_dir_or_file)
  if os.path.isdir(path):
    latest = latest_checkpoint(path)
    if latest is None:
      raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory "
                       + path)
    return latest
  return path


@export("train.list_variables", "contrib.framework.list_variables")
def list_variables(ckpt_dir_or_file):
  """[(key, shape list)] of the values in a checkpoint (a prefix or a directory), sorted."""
  entries, _ = read_index(_resolve(ckpt_dir_or_file))
  return sorted((k, list(shape)) for k, (_, shape) in entries.items())


@export("train.load_variable", "contrib.framework.load_variable")
def load_variable(ckpt_dir_or_file, name):
  """The NumPy value saved under `name` in a checkpoint."""
  prefix = _resolve(ckpt_dir_or_file)
  entries, load = read(prefix)
  if name not in entries:
    raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % name)
  return load()[name]


@export("train.NewCheckpointReader", "train.load_checkpoint",
        "contrib.framework.load_checkpoint")
class CheckpointReader:
  """`tf.train.load_checkpoint(path)`: a checkpoint's keys, shapes, dtypes and values."""

  def __init__(self, ckpt_dir_or_file):
    self._prefix = _resolve(ckpt_dir_or_file)
    self._entries, self._load = read(self._prefix)
    self._values = None

  def get_variable_to_shape_map(self):
    return {k: list(shape) for k, (_, shape) in self._entries.items()}

  def get_variable_to_dtype_map(self):
    return {k: dtype for k, (dtype, _) in self._entries.items()}

  def has_tensor(self, tensor_str):
    return tensor_str in self._entries

  def get_tensor(self, tensor_str):
    """The NumPy value saved under `tensor_str`."""
    if tensor_str not in self._entries:
      raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % tensor_str)
    if self._values is None:
      self._values = {}
    if tensor_str not in self._values:
      self._values.update(self._load([tensor_str]))
    return self._values[tensor_str]

  def debug_string(self):
    """TF's listing: "key (DT_FLOAT) [5,3]" per line, sorted by key (bytes)."""
    from tensorboardX.proto import types_pb2  # pylint: disable=import-outside-toplevel
    return "".join("%s (%s) [%s]\n" % (key, types_pb2.DataType.Name(dtype.as_datatype_enum),
                                       ",".join(map(str, shape)))
                   for key, (dtype, shape) in sorted(self._entries.items())).encode()
