"""`tf.gfile` (TF 1.x CamelCase names) and `tf.io.gfile`: file I/O on the local filesystem.

Errors are TF's: NotFoundError, AlreadyExistsError, FailedPreconditionError,
PermissionDeniedError with TF's messages.
"""
import glob as _glob
import os
import shutil

from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor


def _path(path):
  if isinstance(path, Tensor):
    path = path.numpy()
  return os.fsdecode(path)


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
  return errors.UnknownError(None, None, "%s; %s" % (path, exc.strerror or exc))


_MODES = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}


class GFile:
  """A file object with TF's GFile API; opened lazily on first use, str in text modes."""

  def __init__(self, name, mode="r"):
    self.__name = _path(name)
    self.__mode = mode
    self._binary = "b" in mode
    self._plain = mode.replace("b", "")
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
      try:
        self._file = open(self.__name, _MODES[self._plain])  # pylint: disable=consider-using-with
      except OSError as e:
        raise _os_error(self.__name, e) from None
    return self._file

  def _text(self, data):
    return data if self._binary else data.decode("utf-8")

  def size(self):
    """The file's size in bytes (after flushing pending writes)."""
    if self._file is not None and self._plain != "r":
      self._file.flush()
    try:
      return os.stat(self.__name).st_size
    except OSError as e:
      raise _os_error(self.__name, e) from None

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
  return os.path.exists(_path(filename))


@export("gfile.IsDirectory", "io.gfile.isdir")
def is_directory(dirname):
  return os.path.isdir(_path(dirname))


@export("gfile.ListDirectory", "io.gfile.listdir")
def list_directory(dirname):
  """Entry names in `dirname` (no '.' or '..'); NotFoundError if it is not a directory."""
  path = _path(dirname)
  if not os.path.isdir(path):
    raise errors.NotFoundError(None, None, "Could not find directory %s" % path)
  return os.listdir(path)


@export("gfile.MkDir", "io.gfile.mkdir")
def create_dir(dirname):
  path = _path(dirname)
  try:
    os.mkdir(path)
  except FileExistsError:
    pass
  except OSError as e:
    raise _os_error(path, e) from None


@export("gfile.MakeDirs", "io.gfile.makedirs")
def recursive_create_dir(dirname):
  path = _path(dirname)
  try:
    os.makedirs(path, exist_ok=True)
  except (FileExistsError, NotADirectoryError):
    raise errors.FailedPreconditionError(None, None, "%s is not a directory" % path) from None
  except OSError as e:
    raise _os_error(path, e) from None


def _check_target(oldpath, newpath, overwrite):
  if not os.path.exists(oldpath):
    raise _missing(oldpath)
  if not overwrite and os.path.exists(newpath):
    raise errors.AlreadyExistsError(None, None, "file already exists")


@export("gfile.Copy")
def copy(oldpath, newpath, overwrite=False):
  """Copies a file; AlreadyExistsError if `newpath` exists and not `overwrite`."""
  oldpath, newpath = _path(oldpath), _path(newpath)
  _check_target(oldpath, newpath, overwrite)
  try:
    shutil.copyfile(oldpath, newpath)
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
  try:
    os.replace(oldname, newname)
  except OSError as e:
    raise _os_error(oldname, e) from None


@export("io.gfile.rename")
def rename_v2(src, dst, overwrite=False):
  rename(src, dst, overwrite)


@export("gfile.Remove")
def delete_file(filename):
  path = _path(filename)
  try:
    os.remove(path)
  except OSError as e:
    raise _os_error(path, e) from None


@export("io.gfile.remove")
def delete_file_v2(path):
  delete_file(path)


@export("gfile.DeleteRecursively")
def delete_recursively(dirname):
  """Deletes a directory tree (or a single file)."""
  path = _path(dirname)
  if not os.path.exists(path):
    raise errors.NotFoundError(None, None, "%s not found" % path)
  if os.path.isdir(path):
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
  for pattern in patterns:
    matches.extend(_glob.glob(_path(pattern), include_hidden=True))
  return sorted(matches)


@export("io.gfile.glob")
def get_matching_files_v2(pattern):
  return get_matching_files(pattern)


def _walk(top, topdown, onerror):
  try:
    names = list_directory(top)
  except errors.NotFoundError as e:
    if onerror is not None:
      onerror(e)
    return
  subdirs = [n for n in names if os.path.isdir(os.path.join(top, n))]
  files = [n for n in names if n not in subdirs]
  if topdown:
    yield top, subdirs, files
  for subdir in subdirs:
    yield from _walk(os.path.join(top, subdir), topdown, onerror)
  if not topdown:
    yield top, subdirs, files


@export("gfile.Walk")
def walk(top, in_order=True):
  """Yields (dirname, subdirectory names, file names) for each directory under `top`."""
  return _walk(_path(top), in_order, None)


@export("io.gfile.walk")
def walk_v2(top, topdown=True, onerror=None):
  return _walk(_path(top), topdown, onerror)


@export("gfile.Stat", "io.gfile.stat")
def stat(filename):
  """FileStatistics (length, mtime_nsec, is_directory) of a path."""
  path = _path(filename)
  try:
    info = os.stat(path)
  except OSError as e:
    raise _os_error(path, e) from None
  return FileStatistics(info.st_size, info.st_mtime_ns, os.path.isdir(path))


@export("io.gfile.join")
def join(path, *paths):
  return os.path.join(_path(path), *[_path(p) for p in paths])


@export("contrib.learn.datasets.base.maybe_download")
def maybe_download(filename, work_directory, source_url):
  """`work_directory/filename`, creating the directory; the file must already be there.

  TF downloads a missing file from `source_url`; tfe_compat has no network access and raises
  ConnectionError naming the file and where to put it.
  """
  directory = _path(work_directory)
  recursive_create_dir(directory)
  filepath = os.path.join(directory, filename)
  if not os.path.exists(filepath):
    raise ConnectionError(
        "URL fetch failure on %s: tfe_compat has no network access. Download %s on a "
        "machine with network access and copy it to %s." % (source_url, filename, filepath))
  return filepath
