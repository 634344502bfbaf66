"""`tfe-run script.py [args]` / `python -m tfe_compat script.py`: run TF code unchanged.

`install()` makes `import tensorflow` (and `tensorflow.contrib.eager`, `tensorflow.compat.v1`,
`tensorflow.keras`, ...) resolve to tfe_compat's modules, and the few TensorFlow-internal
modules that tests import (`_INTERNAL_MODULES`) to their tfe_compat equivalents. Any other
`tensorflow.*` module (e.g. an example inside a TensorFlow source tree) is loaded as a plain
file from sys.path.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys
import traceback
import types

_ALIAS = "tensorflow"

# TensorFlow-internal modules that TF's own tests import -> what serves them: a name of a
# tfe_compat namespace ("test" is `tf.test`) or a tfe_compat module.
_INTERNAL_MODULES = {
    "tensorflow.python.platform.test": "test",
    "tensorflow.python.eager.test": "test",
    "tensorflow.python.eager.function": "contrib.eager",
    "tensorflow.python.framework.test_util": "tfe_compat.test_util",
    "tensorflow.python.client.device_lib": "tfe_compat.device_lib",
    "tensorflow.contrib.summary.summary_test_util": "tfe_compat.summary.summary_test_util",
    "tensorflow.examples.tutorials.mnist.input_data": "tfe_compat.tutorials_mnist",
    "tensorflow.python.eager.context": "tfe_compat.internal_eager_context",
    "tensorflow.python.tf2": "tfe_compat.internal_tf2",
}
_INTERNAL_PACKAGES = {name.rsplit(".", i)[0] for name in _INTERNAL_MODULES
                      for i in range(1, name.count("."))}


def _alias_tree(module, alias, seen):
  """Registers `module` and every tfe_compat module reachable from it under `alias`."""
  if id(module) in seen:
    sys.modules.setdefault(alias, module)
    return
  seen.add(id(module))
  sys.modules.setdefault(alias, module)
  for attr, child in list(vars(module).items()):
    if (isinstance(child, types.ModuleType) and not attr.startswith("_")
        and child.__name__.startswith("tfe_compat")):
      _alias_tree(child, alias + "." + attr, seen)


def _tf_name(fullname):
  """`from tensorflow.contrib.summary import x` asks for `tfe_compat.contrib.summary.x`."""
  if fullname.startswith("tfe_compat."):
    return _ALIAS + fullname[len("tfe_compat"):]
  return fullname


def _internal_module(target):
  if target.startswith("tfe_compat."):
    return importlib.import_module(target)
  import tfe_compat  # pylint: disable=import-outside-toplevel
  module = tfe_compat
  for attr in target.split("."):
    module = getattr(module, attr)
  return module


class _InternalLoader(importlib.abc.Loader):
  """Serves a TF-internal module name with its tfe_compat module (that module is untouched)."""

  def create_module(self, spec):
    return None

  def exec_module(self, module):
    sys.modules[module.__name__] = _internal_module(_INTERNAL_MODULES[_tf_name(module.__name__)])


_internal_loader = _InternalLoader()


class _InternalPackageLoader(importlib.abc.Loader):
  """A parent package of `_INTERNAL_MODULES` imports its internal children, as TF's own
  packages have them imported: `from tensorflow.python import eager; eager.context`."""

  def create_module(self, spec):
    return None

  def exec_module(self, module):
    prefix = _tf_name(module.__name__) + "."
    for name in _INTERNAL_MODULES:
      if name.startswith(prefix) and "." not in name[len(prefix):]:
        importlib.import_module(module.__name__ + "." + name[len(prefix):])


_internal_package_loader = _InternalPackageLoader()


class _InternalFinder(importlib.abc.MetaPathFinder):
  """First on sys.meta_path: the names of `_INTERNAL_MODULES` resolve to tfe_compat's modules
  (never to files of a TF source tree), their parent packages (`tensorflow.python`, ...) to
  namespaces whose own `__init__.py` never runs."""

  def find_spec(self, fullname, path=None, target=None):
    if _tf_name(fullname) in _INTERNAL_MODULES:
      return importlib.machinery.ModuleSpec(fullname, _internal_loader)
    if fullname in _INTERNAL_PACKAGES:
      relative = fullname.replace(".", os.sep)
      spec = importlib.machinery.ModuleSpec(fullname, _internal_package_loader,
                                            is_package=True)
      spec.submodule_search_locations = [
          os.path.join(entry or os.getcwd(), relative) for entry in sys.path
          if os.path.isdir(os.path.join(entry or os.getcwd(), relative))]
      return spec
    return None


class _SourceTreeFinder(importlib.abc.MetaPathFinder):
  """Finds `tensorflow.*` modules tfe_compat does not define as files under sys.path."""

  def find_spec(self, fullname, path=None, target=None):
    if not fullname.startswith(_ALIAS + "."):
      return None
    relative = fullname.replace(".", os.sep)
    for entry in sys.path:
      base = os.path.join(entry or os.getcwd(), relative)
      if os.path.isfile(base + ".py"):
        return importlib.util.spec_from_file_location(fullname, base + ".py")
      if os.path.isdir(base):
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
          return importlib.util.spec_from_file_location(fullname, init,
                                                        submodule_search_locations=[base])
        spec = importlib.machinery.ModuleSpec(fullname, None, is_package=True)
        spec.submodule_search_locations = [base]
        return spec
    return None


_internal_finder = _InternalFinder()
_finder = _SourceTreeFinder()


def install():
  """Makes `import tensorflow as tf` (and its submodules) import tfe_compat, in-process."""
  import tfe_compat  # pylint: disable=import-outside-toplevel
  _alias_tree(tfe_compat, _ALIAS, set())
  if _internal_finder not in sys.meta_path:
    sys.meta_path.insert(0, _internal_finder)
  if _finder not in sys.meta_path:
    sys.meta_path.append(_finder)


def _print_user_traceback(exc, script):
  """Prints the traceback from the user's script down, as `python script.py` would."""
  tb = exc.__traceback__
  script = os.path.abspath(script)
  while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != script:
    tb = tb.tb_next
  traceback.print_exception(type(exc), exc, tb or exc.__traceback__)


def main(argv=None):
  """Entry point of `tfe-run`: `tfe-run script.py [args...]`."""
  argv = sys.argv[1:] if argv is None else list(argv)
  if not argv or argv[0] in ("-h", "--help"):
    print("usage: tfe-run script.py [args...]\n\nRuns a TensorFlow 1.x eager script unchanged "
          "on JAX: `import tensorflow` resolves to tfe_compat.")
    return 0 if argv else 2
  script = argv[0]
  if not os.path.isfile(script):
    print("tfe-run: can't open file %r: No such file or directory" % script, file=sys.stderr)
    return 2
  install()
  sys.argv = argv
  sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
  try:
    runpy.run_path(script, run_name="__main__")
  except SystemExit:
    raise
  except BaseException as e:  # pylint: disable=broad-except
    _print_user_traceback(e, script)
    return 130 if isinstance(e, KeyboardInterrupt) else 1
  return 0
