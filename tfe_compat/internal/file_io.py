"""`tensorflow.python.lib.io.file_io`: TF's file functions (those of `tf.io.gfile` are served
from ops/gfile.py), and the whole-file helpers defined here."""
import uuid

from tfe_compat.framework import errors
from tfe_compat.ops import gfile
from tfe_compat.ops.gfile import GFile as FileIO  # noqa: F401
from tfe_compat.ops.gfile import GFile


def read_file_to_string(filename, binary_mode=False):
  with GFile(filename, "rb" if binary_mode else "r") as f:
    return f.read()


def write_string_to_file(filename, file_content):
  with GFile(filename, "w") as f:
    f.write(file_content)


def atomic_write_string_to_file(filename, contents, overwrite=True):
  """Writes a temporary file beside `filename` and renames it over `filename`, as TF does;
  AlreadyExistsError when `filename` exists and not `overwrite`."""
  temporary = "%s.tmp%s" % (filename, uuid.uuid4().hex)
  write_string_to_file(temporary, contents)
  try:
    gfile.rename(temporary, filename, overwrite)
  except errors.OpError:
    gfile.delete_file(temporary)
    raise
