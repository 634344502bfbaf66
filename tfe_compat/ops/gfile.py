"""`tf.gfile` (TF 1.x CamelCase names) and `tf.io.gfile`: file I/O.

Local paths use the os module. Paths with a scheme (`gs://`, `s3://`, `hdfs://`,
`memory://`, any fsspec protocol) go through fsspec; a scheme whose back end is not installed
raises UnimplementedError naming the package to install. Errors are TF's: NotFoundError,
AlreadyExistsError, FailedPreconditionError, PermissionDeniedError with TF's messages.
"""
import glob as _glob
import os
import re
import shutil

from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def _path(path):
  if isinstance(path, Tensor):
    path = path.numpy()
  return os.fsdecode(path)


def scheme(path):
  """The scheme of `path` ("gs" for "gs://bucket/x"), or None for a local path."""
  match = _SCHEME.match(_path(path))
  return match.group(1) if match else None


def _filesystem(path):
  """The fsspec file system serving `path` when it has a scheme; None for a local path."""
  match = _SCHEME.match(path)
  if match is None:
    return None
  import fsspec  # pylint: disable=import-outside-toplevel
  scheme = match.group(1)
  message = "File system scheme '%s' not implemented (file: '%s')" % (scheme, path)
  try:
    return fsspec.filesystem(scheme)
  except ImportError as e:  # a known protocol whose package is missing: fsspec names it
    raise errors.UnimplementedError(None, None, "%s: %s" % (message, e)) from None
  except ValueError:
    raise errors.UnimplementedError(None, None, message) from None


def _unstrip(fs, pattern, found):
  """`found` (a path as `fs` returns it) written with the scheme, as `pattern` was."""
  scheme = _SCHEME.match(pattern).group(0)
  rest = pattern[len(scheme):]
  marker = fs.root_marker
  if marker and found.startswith(marker) and not rest.startswith(marker):
    found = found[len(marker):]
  return scheme + found


def _missing(path):
  return errors.NotFoundError(None, None, "%s; No such file or directory" % path)


def _os_error(path, exc):
  if isinstance(exc, FileNotFoundError):
    return _missing(path)
  if isinstance(exc, IsADirectoryError):
    return errors.FailedPreconditionError(None, None, "%s; Is a directory" % path)
  if isinstance(exc, NotADirectoryError):
    return errors.FailedPreconditionError(None, None, "%s; Not a directory" % path)
  if isinstance(exc, PermissionError):
    return errors.PermissionDeniedError(None, None, "%s; Permission denied" % path)
  return errors.UnknownError(None, None, "%s; %s" % (path, getattr(exc, "strerror", None) or exc))


_MODES = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}


class GFile:
  """A file object with TF's GFile API; opened lazily on first use, str in text modes."""

  def __init__(self, name, mode="r"):
    self.__name = _path(name)
    self.__mode = mode
    self._binary = "b" in mode
    self._plain = mode.replace("b", "")
    self._remote = _SCHEME.match(self.__name) is not None
    self._file = None

  name = property(lambda self: self.__name)
  mode = property(lambda self: self.__mode)

  def _open(self, for_reading):
    if self._plain not in _MODES:
      raise errors.InvalidArgumentError(
          None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
    if for_reading and self._plain in ("w", "a"):
      raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
    if not for_reading and self._plain == "r":
      raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
    if self._file is None:
      mode, fs = _MODES[self._plain], _filesystem(self.__name)
      try:
        self._file = (open(self.__name, mode) if fs is None  # pylint: disable=consider-using-with
                      else fs.open(self.__name, mode))
      except OSError as e:
        raise _os_error(self.__name, e) from None
      except (NotImplementedError, ValueError) as e:
        raise errors.UnimplementedError(
            None, None, "%s; mode '%s' is not supported by the %s file system: %s"
            % (self.__name, self.__mode, type(fs).__name__, e)) from None
    return self._file

  def _text(self, data):
    return data if self._binary else data.decode("utf-8")

  def size(self):
    """The file's size in bytes (after flushing pending writes)."""
    if self._file is not None and self._plain != "r":
      self._file.flush()
      if self._remote:  # remote writes reach the store on close
        return self._file.tell()
    return stat(self.__name).length

  def write(self, file_content):
    data = file_content.encode("utf-8") if isinstance(file_content, str) else file_content
    self._open(False).write(bytes(data))

  def read(self, n=-1):
    """Reads n bytes (all that is left when n is -1), decoded in text mode."""
    f = self._open(True)
    return self._text(f.read() if n is None or n < 0 else f.read(n))

  def readline(self):
    return self._text(self._open(True).readline())

  def readlines(self):
    return [self._text(line) for line in self._open(True).readlines()]

  def seek(self, offset=None, whence=0, position=None):
    """Moves to `offset` (relative to `whence`: 0 start, 1 current, 2 end)."""
    if position is not None:
      offset = position
    self._open(True).seek(offset, whence)

  def tell(self):
    return self._open(self._plain != "w" and self._plain != "a").tell()

  def seekable(self):
    return True

  def flush(self):
    if self._file is not None:
      self._file.flush()

  def close(self):
    if self._file is not None:
      self._file.close()
      self._file = None

  def __iter__(self):
    return self

  def __next__(self):
    line = self.readline()
    if not line:
      raise StopIteration()
    return line

  next = __next__

  def __enter__(self):
    return self

  def __exit__(self, *args):
    self.close()


export("gfile.GFile", "gfile.Open", "gfile.FastGFile", "io.gfile.GFile")(GFile)


class FileStatistics:
  """What `tf.gfile.Stat` returns: length, mtime_nsec, is_directory."""

  def __init__(self, length=None, mtime_nsec=None, is_directory=None):
    self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory


@export("gfile.Exists", "io.gfile.exists")
def file_exists(filename):
  path = _path(filename)
  fs = _filesystem(path)
  return os.path.exists(path) if fs is None else fs.exists(path)


@export("gfile.IsDirectory", "io.gfile.isdir")
def is_directory(dirname):
  path = _path(dirname)
  fs = _filesystem(path)
  return os.path.isdir(path) if fs is None else fs.isdir(path)


def _entries(path):
  """[(name, is a directory)] of the entries of directory `path`; NotFoundError if none."""
  fs = _filesystem(path)
  if not (os.path.isdir(path) if fs is None else fs.isdir(path)):
    raise errors.NotFoundError(None, None, "Could not find directory %s" % path)
  if fs is None:
    with os.scandir(path) as it:
      return [(e.name, e.is_dir()) for e in it]
  here = fs._strip_protocol(path).rstrip("/")  # pylint: disable=protected-access
  return [(info["name"].rstrip("/").rsplit("/", 1)[-1], info["type"] == "directory")
          for info in fs.ls(path, detail=True) if info["name"].rstrip("/") != here]


@export("gfile.ListDirectory", "io.gfile.listdir")
def list_directory(dirname):
  """Entry names in `dirname` (no '.' or '..'); NotFoundError if it is not a directory."""
  return [name for name, _ in _entries(_path(dirname))]


@export("gfile.MkDir", "io.gfile.mkdir")
def create_dir(dirname):
  path = _path(dirname)
  fs = _filesystem(path)
  try:
    if fs is None:
      os.mkdir(path)
    else:
      fs.mkdir(path, create_parents=False)
  except FileExistsError:
    pass
  except OSError as e:
    raise _os_error(path, e) from None


@export("gfile.MakeDirs", "io.gfile.makedirs")
def recursive_create_dir(dirname):
  path = _path(dirname)
  fs = _filesystem(path)
  try:
    if fs is None:
      os.makedirs(path, exist_ok=True)
    elif fs.isfile(path):
      raise FileExistsError(path)
    else:
      fs.makedirs(path, exist_ok=True)
  except (FileExistsError, NotADirectoryError):
    raise errors.FailedPreconditionError(None, None, "%s is not a directory" % path) from None
  except OSError as e:
    raise _os_error(path, e) from None


def _check_target(oldpath, newpath, overwrite):
  if not file_exists(oldpath):
    raise _missing(oldpath)
  if not overwrite and file_exists(newpath):
    raise errors.AlreadyExistsError(None, None, "file already exists")


@export("gfile.Copy")
def copy(oldpath, newpath, overwrite=False):
  """Copies a file, also between file systems; AlreadyExistsError if `newpath` exists and
  not `overwrite`."""
  oldpath, newpath = _path(oldpath), _path(newpath)
  _check_target(oldpath, newpath, overwrite)
  old_fs, new_fs = _filesystem(oldpath), _filesystem(newpath)
  try:
    if old_fs is None and new_fs is None:
      shutil.copyfile(oldpath, newpath)
    elif old_fs is new_fs:
      old_fs.copy(oldpath, newpath)
    else:
      with GFile(oldpath, "rb") as src, GFile(newpath, "wb") as dst:
        shutil.copyfileobj(src._open(True), dst._open(False))  # pylint: disable=protected-access
  except OSError as e:
    raise _os_error(oldpath, e) from None


@export("io.gfile.copy")
def copy_v2(src, dst, overwrite=False):
  copy(src, dst, overwrite)


@export("gfile.Rename")
def rename(oldname, newname, overwrite=False):
  """Renames a file or directory; AlreadyExistsError if the target exists and not `overwrite`."""
  oldname, newname = _path(oldname), _path(newname)
  _check_target(oldname, newname, overwrite)
  old_fs, new_fs = _filesystem(oldname), _filesystem(newname)
  if old_fs is not new_fs:
    raise errors.UnimplementedError(
        None, None, "Renaming %s to %s: the paths are on different file systems"
        % (oldname, newname))
  try:
    if old_fs is None:
      os.replace(oldname, newname)
    else:
      old_fs.mv(oldname, newname, recursive=old_fs.isdir(oldname))
  except OSError as e:
    raise _os_error(oldname, e) from None


@export("io.gfile.rename")
def rename_v2(src, dst, overwrite=False):
  rename(src, dst, overwrite)


@export("gfile.Remove")
def delete_file(filename):
  path = _path(filename)
  fs = _filesystem(path)
  try:
    if fs is None:
      os.remove(path)
    elif fs.isdir(path):
      raise IsADirectoryError(path)
    else:
      fs.rm_file(path)
  except OSError as e:
    raise _os_error(path, e) from None


@export("io.gfile.remove")
def delete_file_v2(path):
  delete_file(path)


@export("gfile.DeleteRecursively")
def delete_recursively(dirname):
  """Deletes a directory tree (or a single file)."""
  path = _path(dirname)
  fs = _filesystem(path)
  if not file_exists(path):
    raise errors.NotFoundError(None, None, "%s not found" % path)
  if fs is not None:
    fs.rm(path, recursive=True)
  elif os.path.isdir(path):
    shutil.rmtree(path)
  else:
    os.remove(path)


@export("io.gfile.rmtree")
def delete_recursively_v2(path):
  delete_recursively(path)


@export("gfile.Glob")
def get_matching_files(filename):
  """Paths matching a glob pattern (a pattern or a list of patterns), sorted."""
  patterns = filename if isinstance(filename, (list, tuple)) else [filename]
  matches = []
  for pattern in map(_path, patterns):
    fs = _filesystem(pattern)
    if fs is None:
      matches.extend(_glob.glob(pattern, include_hidden=True))
    else:
      matches.extend(_unstrip(fs, pattern, found) for found in fs.glob(pattern))
  return sorted(matches)


@export("io.gfile.glob")
def get_matching_files_v2(pattern):
  return get_matching_files(pattern)


def _walk(top, topdown, onerror):
  try:
    entries = _entries(top)
  except errors.NotFoundError as e:
    if onerror is not None:
      onerror(e)
    return
  subdirs = [name for name, is_dir in entries if is_dir]
  files = [name for name, is_dir in entries if not is_dir]
  if topdown:
    yield top, subdirs, files
  for subdir in subdirs:
    yield from _walk(join(top, subdir), topdown, onerror)
  if not topdown:
    yield top, subdirs, files


@export("gfile.Walk")
def walk(top, in_order=True):
  """Yields (dirname, subdirectory names, file names) for each directory under `top`."""
  return _walk(_path(top), in_order, None)


@export("io.gfile.walk")
def walk_v2(top, topdown=True, onerror=None):
  return _walk(_path(top), topdown, onerror)


def _mtime_nsec(fs, path):
  try:
    return int(fs.modified(path).timestamp() * 1e9)
  except (NotImplementedError, AttributeError, KeyError):  # the store keeps no times
    return 0


@export("gfile.Stat", "io.gfile.stat")
def stat(filename):
  """FileStatistics (length, mtime_nsec, is_directory) of a path."""
  path = _path(filename)
  fs = _filesystem(path)
  try:
    if fs is None:
      info = os.stat(path)
      return FileStatistics(info.st_size, info.st_mtime_ns, os.path.isdir(path))
    info = fs.info(path)
  except OSError as e:
    raise _os_error(path, e) from None
  is_dir = info["type"] == "directory"
  return FileStatistics(0 if is_dir else info["size"], 0 if is_dir else _mtime_nsec(fs, path),
                        is_dir)


@export("io.gfile.join")
def join(path, *paths):
  return os.path.join(_path(path), *[_path(p) for p in paths])
