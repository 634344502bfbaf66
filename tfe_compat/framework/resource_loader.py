"""`tf.resource_loader`: paths of data files beside the calling script, as TF finds them."""
import inspect
import os
import sys

from tfe_compat.framework.api import export

_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@export("resource_loader.load_resource")
def load_resource(path):
  """The bytes of the file at `path`, relative to the tfe_compat package directory (TF's
  is the tensorflow/ directory)."""
  with open(os.path.abspath(os.path.join(_PACKAGE_ROOT, path)), "rb") as f:
    return f.read()


@export("resource_loader.get_data_files_path")
def get_data_files_path():
  """The directory of the calling script."""
  return os.path.dirname(inspect.getfile(sys._getframe(1)))  # pylint: disable=protected-access


@export("resource_loader.get_root_dir_with_all_resources")
def get_root_dir_with_all_resources():
  """The directory just below a Bazel `.runfiles` directory above this module, else this
  module's directory (TF searches from its own file too)."""
  script_dir = os.path.dirname(os.path.abspath(__file__))
  directories = [script_dir]
  while True:
    candidate = directories[-1]
    if ".runfiles" in os.path.basename(candidate):
      return directories[-2] if len(directories) > 1 else script_dir
    parent = os.path.dirname(candidate)
    if parent == candidate:
      return script_dir
    directories.append(parent)


@export("resource_loader.get_path_to_datafile")
def get_path_to_datafile(path):
  """`path` joined to the directory of the calling script."""
  caller = sys._getframe(1)  # pylint: disable=protected-access
  return os.path.join(os.path.dirname(inspect.getfile(caller)), path)


@export("resource_loader.readahead_file_path")
def readahead_file_path(path, readahead="128M"):
  """`path` itself: read-ahead is not implemented (nor is it in TF)."""
  del readahead
  return path
