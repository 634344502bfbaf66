"""Variables in graph mode: their operations, initializers and collections.

A variable created while a graph is built has no value of its own: each Session holds one
(client/session.py). Creating it adds its `VariableV2` operation, an initializer (the
assignment of its initial value) and the graph collections it belongs to. Under eager
execution the collection functions return empty lists and initializers are None, as TF's.
"""
import numpy as np

from tfe_compat import state_ops
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.graph import GraphKeys, Operation
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops.control_flow_ops import group, no_op

_ctx = context.ctx


def add_variable(graph, var):
  """Makes `var` (just built, its `_value` the symbolic initial value) a graph variable."""
  value = var._value
  if isinstance(value, graph_lib._Symbolic):
    initial = value.tensor
  else:  # an eager value (an initializer's NumPy draw): a constant of the graph
    initial = graph_build.constant(Tensor(value))
    var._value = initial._value
  var._graph = graph
  var._variable_op = Operation(graph, "VariableV2", graph._op_name(var._handle_name + "/",
                                                                   "Variable"), kind="variable")
  var._variable_op._add_output(var.shape, var.dtype)
  var._variable_op.variable = var
  var._initial_value = initial
  var._initializer_op = graph_build.record_call(
      _initialize, (var, initial), op_type="Assign", name=var._handle_name + "/Assign")
  var._initializer_op.initializes = var
  var._initializer_op.node_attrs = {}  # TF's Assign(ref, value)
  collections = var._collections
  if collections is None:
    collections = [GraphKeys.GLOBAL_VARIABLES]
  collections = list(collections)
  if var.trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
    collections.append(GraphKeys.TRAINABLE_VARIABLES)
  graph.add_to_collections(collections, var)


def initialize_from(var, value):
  """Makes the array `value` the initial value of the graph variable `var`: its new
  initializer assigns it (TF's `init_from_checkpoint` in graph mode)."""
  graph = var._graph
  with graph.as_default(), graph.control_dependencies(None):
    var._initial_value = graph_build.constant(Tensor(np.asarray(value)))
    var._initializer_op = graph_build.record_call(
        _initialize, (var, var._initial_value), op_type="Assign",
        name=var._handle_name + "/Assign")
  var._initializer_op.initializes = var
  var._initializer_op.node_attrs = {}


def _initialize(var, value):
  state_ops.write(var, value._value)


def _read(var):
  return state_ops.read(var)


def _write(var, value):
  state_ops.write(var, value._value)


graph_build.variable_hooks.update(read=_read, write=_write, created=add_variable)


def _collection(key, scope=None):
  if _ctx.graph is None:
    return []
  return graph_lib.get_default_graph().get_collection(key, scope)


@export("global_variables", "all_variables")
def global_variables(scope=None):
  return _collection(GraphKeys.GLOBAL_VARIABLES, scope)


@export("trainable_variables")
def trainable_variables(scope=None):
  return _collection(GraphKeys.TRAINABLE_VARIABLES, scope)


@export("local_variables")
def local_variables(scope=None):
  return _collection(GraphKeys.LOCAL_VARIABLES, scope)


@export("model_variables")
def model_variables(scope=None):
  return _collection(GraphKeys.MODEL_VARIABLES, scope)


@export("moving_average_variables")
def moving_average_variables(scope=None):
  return _collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


@export("variables_initializer", "initialize_variables", "initializers.variables")
def variables_initializer(var_list, name="init"):
  """The operation that runs the initializers of `var_list` (None when executing eagerly)."""
  if _ctx.graph is None:
    return None
  return group(*[v.initializer for v in var_list], name=name)


@export("global_variables_initializer", "initialize_all_variables",
        "initializers.global_variables")
def global_variables_initializer():
  return variables_initializer(global_variables())


@export("local_variables_initializer", "initialize_local_variables",
        "initializers.local_variables")
def local_variables_initializer():
  return variables_initializer(local_variables())


@export("is_variable_initialized")
def is_variable_initialized(variable):
  return variable.is_initialized()


def _initialized(variables):
  scope = _ctx.variable_scope
  return Tensor(np.array([scope.initialized(v) for v in variables], dtype=bool))


def _uninitialized_names(variables):
  flags = _ctx.variable_scope
  names = [v._handle_name.encode() for v in variables if not flags.initialized(v)]
  return Tensor(np.array(names, dtype=object).reshape(-1))


@export("report_uninitialized_variables")
def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
  """The names of the uninitialized variables (a 1-D string tensor)."""
  if _ctx.graph is None:
    return ops.constant([], dtype=dtypes.string)
  if var_list is None:
    var_list = global_variables() + local_variables()
  return graph_build.record_host_call(_uninitialized_names, (list(var_list),), [dtypes.string],
                                     True, name, "ReportUninitializedVariables")


def is_initialized(var):
  """A variable's `is_initialized()`: a bool tensor (True when executing eagerly)."""
  if var._graph is None:
    return ops.convert_to_tensor(True)
  return graph_build.record_host_call(lambda v: _initialized([v])[0], (var,), [dtypes.bool],
                                     True, op_type="IsVariableInitialized", shapes=[()])


@export("assert_variables_initialized")
def assert_variables_initialized(var_list=None):
  """Graph-mode check; under eager execution TF gives None without `var_list` and fails on
  the variables' `.op` with one."""
  if _ctx.graph is None:
    if not var_list:
      return None
    raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
  return no_op(name="Assert")


def import_variable(graph, name, op_type, shape, dtype):
  """The Variable of an imported `VariableV2` / `VarHandleOp` node `name` (graph_import.py):
  in no collection, without an initializer until an imported assignment is made its own."""
  from tfe_compat import variables  # pylint: disable=import-outside-toplevel
  var = variables.ResourceVariable.of_graph_node(name, tensor_shape.as_shape(shape), dtype)
  var._graph = graph
  var._variable_op = Operation(graph, op_type, name, kind="variable")
  var._value = graph_lib._Symbolic(var._variable_op._add_output(var.shape, var.dtype))
  var._variable_op.variable = var
  return var


def initialized_flag(var):
  """Whether the run's Session holds a value of `var` (a bool tensor; a host op's function)."""
  return _initialized([var])[0]
