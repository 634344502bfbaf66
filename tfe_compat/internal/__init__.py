"""TensorFlow-internal module names (`tensorflow.python.*`, ...) and what serves them.

TF 1.x code, and the libraries of its time, import TensorFlow's own modules directly
(`from tensorflow.python.ops import array_ops`). `MODULES` is the one table that maps each
such name (without the leading `tensorflow.`) to what implements the same names here: a
module ("tfe_compat.internal.test_util", a stand-in in this package; a compiled proto) or a `tf`
namespace ("nn", "" for `tf` itself). With several sources, the served module looks a name
up in each in turn. `PREFIXES` maps whole subtrees (`python.keras.*` -> `tf.keras.*`).
A `tensorflow.python.*` / `tensorflow.core.*` name that neither lists fails to import with an
error that names it as a TensorFlow-internal module tfe_compat does not provide.
"""
import importlib
import types

_TRAIN = ("train",)
_OPTIMIZERS = ("adadelta", "adagrad", "adagrad_da", "adam", "ftrl", "gradient_descent",
               "momentum", "optimizer", "proximal_adagrad", "proximal_gradient_descent",
               "rmsprop")

MODULES = {
    # framework
    "python.framework.ops": ("", "tfe_compat.framework.ops", "tfe_compat.framework.graph"),
    "python.framework.dtypes": ("dtypes", "tfe_compat.framework.dtypes"),
    "python.framework.tensor_shape": "tfe_compat.framework.tensor_shape",
    "python.framework.constant_op": ("",),
    "python.framework.errors": "errors",
    "python.framework.errors_impl": "errors",
    "python.framework.test_util": "tfe_compat.internal.test_util",
    "python.framework.graph_util": ("graph_util",),
    "python.framework.random_seed": ("", "random"),
    "python.framework.sparse_tensor": ("", "sparse"),
    "python.framework.tensor_spec": ("",),
    "python.framework.tensor_util": ("tfe_compat.framework.tensor_util", ""),
    "python.framework.versions": ("version",),
    "python.framework.config": ("config",),
    "python.framework.device": ("",),
    "python.framework.indexed_slices": ("",),
    # ops
    "python.ops.array_ops": ("", "manip", "tfe_compat.ops.array_ops"),
    "python.ops.gen_array_ops": ("", "manip"),
    "python.ops.math_ops": ("math", "", "tfe_compat.ops.math_ops"),
    "python.ops.gen_math_ops": ("math", ""),
    "python.ops.nn": ("nn",),
    "python.ops.nn_ops": ("nn", "tfe_compat.ops.nn_ops"),
    "python.ops.nn_impl": ("nn",),
    "python.ops.gen_nn_ops": ("nn",),
    "python.ops.embedding_ops": ("nn",),
    "python.ops.ctc_ops": ("nn",),
    "python.ops.init_ops": ("initializers", "", "keras.initializers"),
    "python.ops.variable_scope": ("", "tfe_compat.variable_scope"),
    "python.ops.variables": ("", "tfe_compat.variables"),
    "python.ops.resource_variable_ops": ("", "tfe_compat.variables"),
    "python.ops.state_ops": ("", "tfe_compat.state_ops"),
    "python.ops.control_flow_ops": ("", "tfe_compat.ops.control_flow_ops"),
    "python.ops.functional_ops": ("",),
    "python.ops.tensor_array_ops": ("",),
    "python.ops.random_ops": ("random", ""),
    "python.ops.gen_random_ops": ("random", ""),
    "python.ops.clip_ops": ("",),
    "python.ops.check_ops": ("debugging", ""),
    "python.ops.logging_ops": ("",),
    "python.ops.script_ops": ("",),
    "python.ops.string_ops": ("strings", ""),
    "python.ops.gen_string_ops": ("strings", ""),
    "python.ops.sparse_ops": ("sparse", ""),
    "python.ops.io_ops": ("io", ""),
    "python.ops.parsing_ops": ("io", ""),
    "python.ops.image_ops": ("image",),
    "python.ops.linalg_ops": ("linalg", ""),
    "python.ops.special_math_ops": ("", "linalg", "math"),
    "python.ops.histogram_ops": ("",),
    "python.ops.lookup_ops": ("lookup", "contrib.lookup", ""),
    "python.ops.partitioned_variables": ("",),
    "python.ops.template": ("",),
    "python.ops.custom_gradient": ("",),
    "python.ops.gradients": ("",),
    "python.ops.gradients_impl": ("",),
    "python.ops.metrics": ("metrics",),
    "python.ops.losses.losses": ("losses",),
    "python.ops.rnn": ("nn", "tfe_compat.nn.rnn_cell"),
    "python.ops.rnn_cell": ("nn.rnn_cell",),
    "python.ops.rnn_cell_impl": ("nn.rnn_cell", "tfe_compat.nn.rnn_cell"),
    "python.ops.summary_ops_v2": ("contrib.summary",),
    "python.ops.signal.signal": ("signal",),
    "python.ops.sets": ("sets",),
    "python.ops.bitwise_ops": ("bitwise",),
    "python.ops.map_fn": ("",),
    # platform, util, client, lib
    "python.platform.test": "test",
    "python.platform.googletest": "test",
    "python.platform.gfile": "gfile",
    "python.platform.tf_logging": "logging",
    "python.platform.flags": "flags",
    "python.platform.app": "app",
    "python.platform.resource_loader": ("resource_loader",),
    "python.util.nest": "nest",
    "python.util.compat": "compat",
    "python.util.deprecation": "tfe_compat.internal.deprecation",
    "python.util.tf_export": "tfe_compat.internal.tf_export",
    "python.util.tf_inspect": "tfe_compat.internal.tf_inspect",
    "python.util.tf_decorator": "tfe_compat.internal.tf_inspect",
    "python.client.session": ("",),
    "python.client.device_lib": "tfe_compat.internal.device_lib",
    "python.lib.io.file_io": ("tfe_compat.internal.file_io", "tfe_compat.ops.gfile"),
    "python.lib.io.tf_record": ("io", "python_io"),
    # eager
    "python.eager.test": ("tfe_compat.internal.eager_test", "test"),
    "python.eager.context": "tfe_compat.internal.eager_context",
    "python.eager.function": "contrib.eager",
    "python.eager.def_function": ("",),
    "python.eager.backprop": ("", "contrib.eager", "tfe_compat.eager.backprop"),
    "python.eager.tape": "tfe_compat.eager.tape",
    "python.eager.execution_callbacks": "tfe_compat.eager.execution_callbacks",
    "python.tf2": "tfe_compat.internal.tf2",
    # training
    "python.training.training": _TRAIN,
    "python.training.training_util": _TRAIN,
    "python.training.saver": _TRAIN,
    "python.training.checkpoint_management": _TRAIN,
    "python.training.checkpoint_utils": _TRAIN,
    "python.training.learning_rate_decay": _TRAIN,
    "python.training.moving_averages": _TRAIN,
    "python.training.coordinator": _TRAIN,
    "python.training.queue_runner": _TRAIN,
    "python.training.monitored_session": _TRAIN,
    "python.training.session_run_hook": _TRAIN,
    "python.training.basic_session_run_hooks": _TRAIN,
    "python.training.server_lib": _TRAIN,
    "python.training.device_setter": _TRAIN,
    "python.training.warm_starting_util": _TRAIN,
    "python.training.basic_loops": _TRAIN,
    "python.training.summary_io": ("summary",),
    "python.training.tracking.base": "tfe_compat.framework.trackable",
    "python.training.tracking.tracking": "tfe_compat.train.checkpoint",
    "python.training.tracking.util": ("train", "tfe_compat.train.checkpoint"),
    "python.training.tracking.data_structures": ("contrib.checkpoint",),
    **{"python.training." + name: _TRAIN for name in _OPTIMIZERS},
    # higher-level namespaces
    "python.layers.base": ("layers",),
    "python.layers.core": ("layers",),
    "python.layers.convolutional": ("layers",),
    "python.layers.pooling": ("layers",),
    "python.layers.normalization": ("layers",),
    "python.layers.layers": ("layers",),
    "python.keras.engine.base_layer": "tfe_compat.keras.engine.base_layer",
    "python.keras.engine.training": "tfe_compat.keras.engine.training",
    "python.keras.engine.network": "tfe_compat.keras.engine.network",
    "python.keras.engine.sequential": "tfe_compat.keras.engine.sequential",
    "python.keras.engine.input_layer": "tfe_compat.keras.engine.input_layer",
    "python.keras.optimizer_v2.optimizer_v2": ("keras.optimizers",),
    **{"python.keras.optimizer_v2." + name: ("keras.optimizers",)
       for name in ("adadelta", "adagrad", "adam", "adamax", "ftrl", "gradient_descent", "nadam",
                    "rmsprop")},
    "python.data.ops.dataset_ops": ("data", "tfe_compat.data.dataset_ops"),
    "python.data.ops.iterator_ops": ("data", "tfe_compat.data.iterator_ops"),
    "python.data.ops.readers": ("data",),
    "python.data.util.nest": "nest",
    "python.data": ("data",),
    "python.data.experimental.ops.threadpool": "tfe_compat.internal.data_threadpool",
    **{"python.data.experimental.ops." + name: ("data.experimental",)
       for name in ("batching", "interleave_ops", "prefetching_ops", "unique")},
    "python.summary.summary": ("summary",),
    "python.summary.summary_iterator": _TRAIN,
    "python.summary.writer.writer": ("summary",),
    "python.distribute.distribute_lib": ("distribute",),
    "python.distribute.mirrored_strategy": ("distribute",),
    "python.distribute.one_device_strategy": ("distribute",),
    "python.distribute.cluster_resolver": ("distribute.cluster_resolver",),
    "python.distribute.central_storage_strategy": ("distribute.experimental",),
    "python.distribute.collective_all_reduce_strategy": ("distribute.experimental",),
    "python.feature_column.feature_column": ("feature_column",),
    "python.feature_column.feature_column_v2": ("feature_column",),
    "python.ops.ragged.ragged_tensor": ("ragged", ""),
    "python.ops.ragged.ragged_factory_ops": ("ragged",),
    "python.ops.distributions.distributions": ("distributions",),
    "python.autograph": ("autograph",),
    "python.compat.compat": ("compat",),
    "python.module.module": ("",),
    # protos: compiled schemas with TF's wire format (tensorboardX ships TF's own)
    "core.example.example_pb2": "tfe_compat.proto.example_pb2",
    "core.example.feature_pb2": "tfe_compat.proto.feature_pb2",
    "core.util.event_pb2": "tensorboardX.proto.event_pb2",
    **{"core.protobuf.%s_pb2" % name: "tfe_compat.proto.%s_pb2" % name
       for name in ("cluster", "config")},
    "core.framework.step_stats_pb2": "tfe_compat.proto.step_stats_pb2",
    **{"core.framework.%s_pb2" % name: "tensorboardX.proto.%s_pb2" % name
       for name in ("attr_value", "graph", "node_def", "resource_handle", "summary", "tensor",
                    "tensor_shape", "types", "versions")},
    # outside tensorflow.python
    **{"contrib.eager.python." + name: ("contrib.eager",)
       for name in ("datasets", "network", "saver")},
    "contrib.eager.python.evaluator": "tfe_compat.contrib.evaluator",
    "contrib.eager.python.metrics": ("contrib.eager.metrics",),
    "contrib.layers.python.layers.regularizers": ("contrib.layers",),
    "python.training.checkpointable.util": ("train", "tfe_compat.train.checkpoint"),
    "python.ops.numerics": ("",),
    "contrib.summary.summary_test_util": "tfe_compat.summary.summary_test_util",
    "examples.tutorials.mnist.input_data": "tfe_compat.internal.tutorials_mnist",
    "contrib.learn.python.learn.datasets.mnist": "tfe_compat.internal.tutorials_mnist",
    "contrib.learn.python.learn.datasets.base": "tfe_compat.contrib.learn_datasets",
}

# Subtrees served by a tf namespace of the same shape: `python.keras.layers` is `tf.keras.layers`.
PREFIXES = {"python.keras": "keras", "python.ops.distributions": "distributions"}

# Names under these are TensorFlow's internals: never loaded from a source tree.
INTERNAL_ROOTS = ("python", "core", "compiler", "lite.python", "tools")

PACKAGES = {name.rsplit(".", i)[0] for name in MODULES for i in range(1, name.count(".") + 1)}


def _namespace(path):
  import tfe_compat  # pylint: disable=import-outside-toplevel
  module = tfe_compat
  for attr in path.split(".") if path else ():
    module = getattr(module, attr)
  return module


_MODULE_ROOTS = ("tfe_compat.", "tensorboardX.")


def _source(source):
  if source.startswith(_MODULE_ROOTS):
    return importlib.import_module(source)
  return _namespace(source)


def _describe(source):
  return source if source.startswith(_MODULE_ROOTS) else "tf." + source if source else "tf"


class ServedModule(types.ModuleType):
  """A TF-internal module whose names come from several tfe_compat modules or namespaces."""

  def __init__(self, name, sources):
    super().__init__(name)
    self.__sources = sources

  def __getattr__(self, name):
    if name.startswith("__"):
      raise AttributeError(name)
    for source in self.__sources:
      value = getattr(_source(source), name, self)
      if value is not self:
        setattr(self, name, value)
        return value
    raise AttributeError("module %r has no attribute %r (tfe_compat serves it from %s)"
                         % (self.__name__, name, ", ".join(map(_describe, self.__sources))))

  def __dir__(self):
    names = set(super().__dir__())
    for source in self.__sources:
      names.update(n for n in dir(_source(source)) if not n.startswith("_"))
    return sorted(names)


def lookup(name):
  """What serves `tensorflow.<name>`: its MODULES entry, the namespace of its PREFIXES
  subtree where that exists, or None."""
  if name in MODULES:
    return MODULES[name]
  for prefix, namespace in PREFIXES.items():
    if name == prefix or name.startswith(prefix + "."):
      try:
        _namespace(namespace + name[len(prefix):])
      except AttributeError:
        return None
      return namespace + name[len(prefix):]
  return None


def is_internal(name):
  return name.startswith(tuple(root + "." for root in INTERNAL_ROOTS)) or name in INTERNAL_ROOTS


def serve(fullname, name):
  """The module object for `fullname` (= "tensorflow." + `name`), from its MODULES entry."""
  sources = lookup(name)
  if isinstance(sources, str):
    try:
      return _source(sources)
    except AttributeError:
      raise ModuleNotFoundError(
          "No module named %r: tfe_compat serves it with tf.%s, which is not defined"
          % (fullname, sources), name=fullname) from None
  module = ServedModule(fullname, sources)
  if name in PACKAGES:  # `tensorflow.python.data` also holds `tensorflow.python.data.ops`
    module.__path__ = []
  return module


def not_provided(fullname):
  return ModuleNotFoundError(
      "No module named %r: it is a TensorFlow-internal module that tfe_compat does not "
      "provide (tfe_compat implements TensorFlow's public API; see tfe_compat.internal.MODULES "
      "for the internal modules it serves)" % fullname)
