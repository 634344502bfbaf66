"""`export`: places a function, class or constant under its TF names (`tf.add`, `tf.math.add`).

Modules call `export("add", "math.add")(obj)` (also usable as a decorator); the package's
`__init__` calls `populate()` once every module is imported, building `tf.math`, `tf.nn`, ...
"""
import functools
import sys
import types

_registry = []  # (dotted TF name, object), in export order
graph_mode = [False]  # True once any thread builds a graph (then exports check for it)
graph_call = [None]   # graph_build.call_hook: an exported function called in graph mode

# Exported functions that run while a graph is built, rather than being recorded as one
# operation: they create variables or change the graph itself (the calls inside them are
# recorded).
_RUN_WHILE_BUILDING = ("layers.", "contrib.", "keras.", "metrics.", "losses.", "train.",
                       "summary.", "estimator.", "data.", "saved_model.", "compat.", "test.",
                       "app.", "flags.", "logging.", "gfile.", "io.gfile.", "config.",
                       "distribute.", "feature_column.", "lookup.", "initializers.",
                       "keras.", "profiler.", "sysconfig.", "graph_util.", "experimental.", "resource_loader.",
                       "variable", "get_", "global_", "local_", "assign", "scatter_update",
                       "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
                       "scatter_min", "scatter_max", "scatter_nd_",
                       "control_dependencies", "colocate_with", "group", "tuple", "no_op",
                       "add_to_collection", "is_tensor", "convert_to_tensor", "gradients",
                       "hessians", "make_template", "report_uninitialized_variables",
                       "is_variable_initialized", "initialize_", "py_func", "py_function",
                       "numpy_function", "model_variables",
                       "trainable_variables", "moving_average_variables", "count_up_to",
                       "device", "name_scope", "init_scope", "executing_eagerly", "random.set_", "set_random_seed", "debugging.set_",
                       "register_tensor_conversion_function", "batch_scatter_update",
                       "nn.rnn_cell", "nn.dynamic_rnn", "nn.static", "nn.bidirectional",
                       "nn.raw_rnn", "enable_", "disable_", "reset_default_graph",
                       "py_func", "py_function", "numpy_function", "custom_gradient",
                       "function", "autograph.", "nest.", "io.write_", "write_file",
                       "ragged.", "lookup.", "placeholder")


def _records_in_graphs(names, obj):
  return (isinstance(obj, types.FunctionType) and not obj.__name__.startswith("_") and
          not any(n.startswith(_RUN_WHILE_BUILDING) for n in names))


def export(*names):
  def register(obj):
    if _records_in_graphs(names, obj):
      obj = _graph_aware(obj)
    for name in names:
      _registry.append((name, obj))
    return obj
  return register


def _graph_aware(fn):
  """`fn`, recorded as one graph operation when called with graph tensors in graph mode."""
  @functools.wraps(fn)
  def exported(*args, **kwargs):
    if graph_mode[0]:
      return graph_call[0](fn, args, kwargs)
    return fn(*args, **kwargs)
  exported.exported_from = fn
  return exported


def replace(obj, new_obj):
  """Exports `new_obj` under every name `obj` was exported as (before `populate`)."""
  _registry[:] = [(name, new_obj if o is obj else o) for name, o in _registry]


def namespace(root, dotted):
  """The module object for `tf.<dotted>` under `root`, created (and put in sys.modules) once."""
  module = root
  for part in dotted.split("."):
    child = getattr(module, part, None)
    if not isinstance(child, types.ModuleType):
      child = types.ModuleType("%s.%s" % (module.__name__, part))
      child.__path__ = []  # a package, so `import tensorflow.contrib.eager` works
      setattr(module, part, child)
      sys.modules.setdefault(child.__name__, child)
    module = child
  return module


def populate(root):
  """Sets every exported name on `root` (the `tfe_compat` module) and its namespaces."""
  for name, obj in _registry:
    path, _, leaf = name.rpartition(".")
    setattr(namespace(root, path) if path else root, leaf, obj)


def exported(prefix):
  """{leaf name: object} of the names exported under `prefix` (e.g. "keras.layers.")."""
  return {name[len(prefix):]: obj for name, obj in _registry
          if name.startswith(prefix) and "." not in name[len(prefix):]}

