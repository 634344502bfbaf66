"""`tf.load_op_library`, `tf.load_library`, `tf.load_file_system_library`: TensorFlow
custom-kernel libraries (.so files built against TF's C++ runtime) cannot run on JAX.

A missing file fails as in TF; an existing library raises NotImplementedError.
"""
import errno
import os

from tfe_compat.framework import errors
from tfe_compat.framework.api import export


def _unsupported(path):
  if not os.path.exists(path):
    raise errors.NotFoundError(None, None, "%s: cannot open shared object file: No such file "
                               "or directory" % path)
  raise NotImplementedError(
      "%s: tfe_compat cannot load TensorFlow custom-op or kernel libraries (they are built "
      "against TensorFlow's C++ runtime). Write the op with tf ops or JAX (jax.pure_callback "
      "calls host code)." % path)


@export("load_op_library")
def load_op_library(library_filename):
  _unsupported(library_filename)


@export("load_file_system_library")
def load_file_system_library(library_filename):
  _unsupported(library_filename)


def _is_shared_object(filename):
  return filename.endswith((".so", ".dylib", ".dll")) or ".so." in filename


@export("load_library")
def load_library(library_location):
  """Loads a kernel library, or every shared object in a directory (none: nothing to do)."""
  if not os.path.exists(library_location):
    raise OSError(errno.ENOENT, "The file or folder to load kernel libraries from does not "
                  "exist.", library_location)
  if os.path.isdir(library_location):
    libraries = [os.path.join(library_location, f) for f in sorted(os.listdir(library_location))
                 if _is_shared_object(f)]
  else:
    libraries = [library_location]
  for library in libraries:
    _unsupported(library)
