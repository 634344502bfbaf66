"""`tfe-run script.py [args]` / `python -m tfe_compat script.py`: run TF code unchanged.

`install()` makes `import tensorflow` (and `tensorflow.contrib.eager`, `tensorflow.compat.v1`,
`tensorflow.keras`, ...) resolve to tfe_compat's modules, and the few TensorFlow-internal
modules (`tensorflow.python.*`, ...) to what serves them (`tfe_compat.internal.MODULES`).
Any other `tensorflow.*` module (e.g. an example inside a TensorFlow source tree) is loaded as
a plain file from sys.path.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys
import traceback
import types

from tfe_compat import internal
from tfe_compat.framework import modes

_ALIAS = "tensorflow"


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


def _internal_name(fullname):
  """`tensorflow.python.ops.nn` -> "python.ops.nn" (`from tensorflow.contrib.summary import x`
  asks for `tfe_compat.contrib.summary.x`: the same)."""
  for root in (_ALIAS + ".", "tfe_compat."):
    if fullname.startswith(root):
      return fullname[len(root):]
  return None


class _InternalLoader(importlib.abc.Loader):
  """Serves a TF-internal module name with what `internal.MODULES` names (left untouched)."""

  def create_module(self, spec):
    return None

  def exec_module(self, module):
    sys.modules[module.__name__] = internal.serve(module.__name__,
                                                  _internal_name(module.__name__))


class _InternalPackageLoader(importlib.abc.Loader):
  """A parent package of internal modules (`tensorflow.python.eager`) imports its children
  named in the table, as TF's own packages have them imported:
  `from tensorflow.python import eager; eager.context`."""

  def create_module(self, spec):
    return None

  def exec_module(self, module):
    prefix = _internal_name(module.__name__) + "."
    for name in internal.MODULES:
      if name.startswith(prefix) and "." not in name[len(prefix):]:
        importlib.import_module(module.__name__ + "." + name[len(prefix):])


class _InternalFinder(importlib.abc.MetaPathFinder):
  """First on sys.meta_path: TF-internal names resolve to what tfe_compat serves them with
  (never to files of a TF source tree), their parent packages (`tensorflow.python`, ...) to
  namespaces whose own `__init__.py` never runs; other internal names fail to import."""

  def find_spec(self, fullname, path=None, target=None):
    name = _internal_name(fullname)
    if name is None:
      return None
    if internal.lookup(name) is not None:
      return importlib.machinery.ModuleSpec(fullname, _internal_loader)
    if name in internal.PACKAGES:
      spec = importlib.machinery.ModuleSpec(fullname, _internal_package_loader,
                                            is_package=True)
      spec.submodule_search_locations = []
      return spec
    if fullname.startswith(_ALIAS + ".") and internal.is_internal(name):
      raise internal.not_provided(fullname)
    return None


_internal_loader = _InternalLoader()
_internal_package_loader = _InternalPackageLoader()


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


def _print_user_traceback(exc, filename):
  """Prints the traceback from the user's code (`filename`) down, as `python` would."""
  tb = exc.__traceback__

  def same(path):
    return path == filename or os.path.abspath(path) == filename

  while tb is not None and not same(tb.tb_frame.f_code.co_filename):
    tb = tb.tb_next
  traceback.print_exception(type(exc), exc, tb or exc.__traceback__)


_USAGE = """usage: tfe-run [--eager] script.py [args...]
       tfe-run [--eager] -m module [args...]
       tfe-run [--eager] -c "code" [args...]

Runs TensorFlow 1.x code unchanged on JAX: `import tensorflow` resolves to tfe_compat.
As in TensorFlow 1.x, the program runs in graph mode unless it calls
tf.enable_eager_execution() at startup; --eager runs it eagerly anyway (for code written
for TensorFlow 2). As with `python`, -m runs a module on sys.path as __main__ and -c runs a
program given as a string; sys.argv is what `python` would give."""


def _target(argv):
  """(run, user filename, sys.argv, sys.path[0]) for `script.py`, `-m module` or `-c code`;
  or an exit status after printing why not."""
  if argv[0] == "-c":
    if len(argv) < 2:
      print("tfe-run: Argument expected for the -c option", file=sys.stderr)
      return 2
    code = compile(argv[1], "<string>", "exec")
    return (lambda: exec(code, {"__name__": "__main__", "__builtins__": __builtins__}),  # pylint: disable=exec-used
            "<string>", ["-c"] + argv[2:], "")
  if argv[0] == "-m":
    if len(argv) < 2:
      print("tfe-run: Argument expected for the -m option", file=sys.stderr)
      return 2
    sys.path.insert(0, os.getcwd())
    install()
    try:
      spec = importlib.util.find_spec(argv[1])
    except ImportError:
      spec = None
    sys.path.pop(0)
    if spec is None:
      print("tfe-run: No module named %s" % argv[1], file=sys.stderr)
      return 1
    return (lambda: runpy.run_module(argv[1], run_name="__main__", alter_sys=True),
            os.path.abspath(spec.origin or ""), [spec.origin] + argv[2:], os.getcwd())
  script = argv[0]
  if not os.path.isfile(script):
    print("tfe-run: can't open file %r: No such file or directory" % script, file=sys.stderr)
    return 2
  return (lambda: runpy.run_path(script, run_name="__main__"), os.path.abspath(script), argv,
          os.path.dirname(os.path.abspath(script)))


def main(argv=None):
  """Entry point of `tfe-run`: `tfe-run script.py | -m module | -c code [args...]`."""
  argv = sys.argv[1:] if argv is None else list(argv)
  eager = bool(argv) and argv[0] == "--eager"
  argv = argv[1:] if eager else argv
  if not argv or argv[0] in ("-h", "--help"):
    print(_USAGE)
    return 0 if argv else 2
  target = _target(argv)
  if isinstance(target, int):
    return target
  run, filename, sys.argv, path = target
  install()
  if not eager:
    modes.disable_eager_execution()  # TF 1.x: graph mode until enable_eager_execution()
  sys.path.insert(0, path)
  try:
    run()
  except SystemExit:
    raise
  except BaseException as e:  # pylint: disable=broad-except
    _print_user_traceback(e, filename)
    return 130 if isinstance(e, KeyboardInterrupt) else 1
  return 0
