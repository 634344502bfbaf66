"""`tf.Variable` (a ResourceVariable), `tf.get_variable`, `tf.assign*`, variable collections.

A variable keeps its value as one jax.Array in `_value` and is identified on tapes by `_id`
(from the Tensor uid counter). Every access goes through `read(var)` and `write(var, array)`
(defined in state_ops.py, re-exported here): with `context.ctx.variable_scope` set, both go
to that scope, which serves tapes, tf.function and checkpoints. A scope may also define
`variable_created(var)`, called after each new variable is built. Nothing here keeps a
variable alive: dropping the last reference frees its buffer.
"""
import enum
import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat import graph_variables
from tfe_compat import state_ops
from tfe_compat import variable_scope as vs
from tfe_compat.state_ops import read, write  # noqa: F401  (the one read/write path)
from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import tensor as tensor_lib
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import init_ops
from tfe_compat.ops import slicing

_ctx = context.ctx


@export("VariableSynchronization")
class VariableSynchronization(enum.Enum):
  AUTO = 0
  NONE = 1
  ON_WRITE = 2
  ON_READ = 3


@export("VariableAggregation")
class VariableAggregation(enum.Enum):
  NONE = 0
  SUM = 1
  MEAN = 2
  ONLY_FIRST_REPLICA = 3
  ONLY_FIRST_TOWER = 3


@export("Variable", "ResourceVariable", "contrib.eager.Variable")
class ResourceVariable(metaclass=vs.VariableMetaclass):
  """A mutable Tensor-like value: `tf.Variable`, which is a ResourceVariable in eager mode."""

  __array_priority__ = 100  # NumPy binary operators defer to the Variable's
  _host_count = None  # (array, int): a step counter's value known on the host (state_ops)

  def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
               caching_device=None, name=None, variable_def=None, dtype=None,
               expected_shape=None, import_scope=None, constraint=None, use_resource=None,
               synchronization=VariableSynchronization.AUTO,
               aggregation=VariableAggregation.NONE, shape=None):
    creating = getattr(_ctx.variable_scope, "creating_variable", None)
    if creating is not None:  # a graph's recorded call cannot create variables
      creating()
    if variable_def is not None:
      if initial_value is not None:
        raise ValueError("The variable_def and initial_value args to `tf.Variable` are mutually "
                         "exclusive, but got both: variable_def=%s,\ninitial_value=%s"
                         % (variable_def, initial_value))
      raise ValueError("Creating a `tf.Variable` with a `variable_def` arg is not supported "
                       "when eager execution is enabled.")
    if initial_value is None:
      raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except when "
                       "you are not providing a `variable_def`. You provided neither.")
    if constraint is not None and not callable(constraint):
      raise ValueError("Argument `constraint` must be None or a callable. a callable. Got a "
                       "%s:  %s" % (type(constraint), constraint))
    if trainable is None:
      trainable = synchronization != VariableSynchronization.ON_READ
    with vs.name_scope(name, "Variable") as scope_name:
      handle_name = scope_name[:-1] if scope_name.endswith("/") else scope_name
      if callable(initial_value):
        initial_value = initial_value()
      try:
        value = ops.convert_to_tensor(initial_value, dtype=dtype)
      except ValueError as e:
        raise ValueError("initial_value: %s" % e) from None
    if shape is not None:
      if not value.shape.is_compatible_with(shape):
        raise ValueError("In this `tf.Variable` creation, the initial value's shape (%s) is not "
                         "compatible with the explicitly supplied `shape` argument (%s)."
                         % (value.shape, shape))
      shape = tensor_shape.as_shape(shape)
    array = value._value
    target = context.current_device()
    if isinstance(array, jax.Array) or (isinstance(array, np.ndarray) and array.dtype != object):
      # committed: every program sees it placed the same way
      array = jax.device_put(array, target or jax.config.jax_default_device or
                             jax.devices()[0])
    self._value = array
    self._id = next(tensor_lib._uids)  # pylint: disable=protected-access
    self._device = target  # a tf.device scope pins the variable; None: the default device
    self._dtype = value.dtype
    self._shape = value.shape if shape is None else shape
    self._handle_name = handle_name
    self._trainable = bool(trainable)
    self._constraint = constraint
    self._synchronization = synchronization
    self._aggregation = aggregation
    self._collections = collections
    scope = _ctx.variable_scope
    created = None if scope is None else getattr(scope, "variable_created", None)
    if created is not None:
      created(self)

  @classmethod
  def of_graph_node(cls, name, shape, dtype):
    """A variable of an imported graph node (graph_variables.import_variable), not trainable
    until a collection says so."""
    var = cls.__new__(cls)
    var._id = next(tensor_lib._uids)  # pylint: disable=protected-access
    var._value, var._device, var._dtype, var._shape = None, None, dtype, shape
    var._handle_name, var._trainable, var._constraint, var._collections = name, False, None, []
    var._synchronization = VariableSynchronization.AUTO
    var._aggregation = VariableAggregation.NONE
    return var

  # ---- Properties ----
  name = property(lambda self: self._handle_name + ":0")
  dtype = property(lambda self: self._dtype)
  shape = property(lambda self: self._shape)
  trainable = property(lambda self: self._trainable)
  constraint = property(lambda self: self._constraint)
  synchronization = property(lambda self: self._synchronization)
  aggregation = property(lambda self: self._aggregation)
  # graph mode: the graph, its VariableV2 operation, initial value and initializer
  _graph = _variable_op = _initial_value = _initializer_op = None
  initializer = property(lambda self: self._initializer_op)  # None when executing eagerly
  _shared_name = property(lambda self: self._handle_name)
  _unique_id = property(lambda self: "%s_%d" % (self._handle_name, self._id))
  _in_graph_mode = property(lambda self: self._graph is not None)

  @property
  def device(self):
    value = self._value
    if isinstance(value, jax.Array) and not isinstance(value, jax.core.Tracer):
      return device_lib.tf_name(next(iter(value.devices())))
    return device_lib.tf_name(self._device or device_lib.cpu_device())

  def get_shape(self):
    return self._shape

  def _shape_as_list(self):
    return None if self._shape.ndims is None else self._shape.as_list()

  def _shape_tuple(self):
    return None if self._shape.ndims is None else tuple(self._shape.as_list())

  def set_shape(self, shape):
    self._shape = self._shape.merge_with(shape)

  @property
  def initial_value(self):
    if self._graph is None:
      raise RuntimeError("This property is not supported when eager execution is enabled.")
    return self._initial_value

  @property
  def op(self):
    if self._graph is None:
      raise AttributeError("Tensor.op is meaningless when eager execution is enabled.")
    return self._variable_op

  @property
  def graph(self):
    if self._graph is None:
      raise AttributeError("Tensor.graph is meaningless when eager execution is enabled.")
    return self._graph

  @property
  def _graph_element(self):  # what Session.run fetches for a variable
    return self._variable_op.outputs[0] if self._graph is not None else None

  def eval(self, session=None):
    if self._graph is None:
      raise RuntimeError("This operation is not supported when eager execution is enabled.")
    return graph_lib._default_session(session).run(self)

  # ---- Reads ----
  def value(self):
    return read(self)

  def read_value(self):
    return read(self)

  def initialized_value(self):
    return read(self)

  def numpy(self):
    if self._graph is not None:
      raise NotImplementedError("numpy() is only available when eager execution is enabled: "
                                "%s is a graph variable (evaluate it with Session.run)."
                                % self.name)
    if context.symbolic_to_caller():
      raise NotImplementedError("numpy() is only available when eager execution is enabled.")
    return read(self).numpy()

  def is_initialized(self, name=None):
    return graph_variables.is_initialized(self)

  def _as_tensor(self, dtype=None):
    """Conversion to a Tensor (used by `tf.convert_to_tensor` and every op)."""
    if dtype is not None and dtypes.as_dtype(dtype) is not self._dtype:
      raise ValueError("Incompatible type conversion requested to type %s for `tf.Variable of "
                       "type %s. (Variable: %r)" % (dtypes.as_dtype(dtype).name,
                                                    self._dtype.name, self))
    return read(self)

  def sparse_read(self, indices, name=None):
    """Gathers rows of the value (`ResourceGather`)."""
    indices = state_ops.int_indices(indices, "ResourceGather")
    params = read(self)
    state_ops.check_indices(indices, params._value.shape[0] if params._value.ndim else 0,
                            "ResourceGather")
    return state_ops.gather(params, indices)

  def gather_nd(self, indices, name=None):
    """`tf.gather_nd` on the value (`ResourceGatherNd`), with TF's bound check."""
    indices = state_ops.int_indices(indices, "ResourceGatherNd")
    params = read(self)
    slicing._check_nd(indices, params._value.shape,  # pylint: disable=protected-access
                      "indices%s = [%s] does not index into param shape %s, node name: "
                      "ResourceGatherNd", "ResourceGatherNd")
    return state_ops.gather_nd(params, indices)

  # ---- Writes (each returns the variable, whose reads see the new value) ----
  def assign(self, value, use_locking=None, name=None, read_value=True):
    value = ops.convert_to_tensor(value, dtype=self._dtype)
    if not self._shape.is_compatible_with(value.shape):
      raise ValueError("Cannot assign value to variable ' %s': Shape mismatch.The variable "
                       "shape %s, and the assigned value shape %s are incompatible."
                       % (self.name, self._shape, value.shape))
    write(self, value._value)
    return self if read_value else None

  def _update(self, delta, sign, op_name, read_value):
    step = delta if type(delta) is int else None  # a counter's step, followed on the host
    delta = ops.convert_to_tensor(delta, dtype=self._dtype)
    current = read(self)
    if current._value.shape != delta._value.shape:
      raise errors.invalid_argument(
          "Cannot update variable with shape %s using a Tensor with shape %s, shapes must be "
          "equal. [Op:%s]" % (state_ops.shape_text(current._value.shape),
                              state_ops.shape_text(delta._value.shape), op_name))
    write(self, state_ops.add(current._value, delta._value, sign=sign))
    if step is not None:
      state_ops.counted(self, current._value, sign * step)
    return self if read_value else None

  def assign_add(self, delta, use_locking=None, name=None, read_value=True):
    return self._update(delta, 1, "AssignAddVariableOp", read_value)

  def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
    return self._update(delta, -1, "AssignSubVariableOp", read_value)

  def load(self, value, session=None):
    if self._graph is None:
      self.assign(value)
    else:
      graph_lib._default_session(session)._load(self, value)

  def scatter_update(self, sparse_delta, use_locking=False, name=None):
    return state_ops.scatter(self, *state_ops.sparse_delta_parts(sparse_delta), "update")

  def scatter_add(self, sparse_delta, use_locking=False, name=None):
    return state_ops.scatter(self, *state_ops.sparse_delta_parts(sparse_delta), "add")

  def scatter_sub(self, sparse_delta, use_locking=False, name=None):
    return state_ops.scatter(self, *state_ops.sparse_delta_parts(sparse_delta), "sub")

  def scatter_mul(self, sparse_delta, use_locking=False, name=None):
    return state_ops.scatter(self, *state_ops.sparse_delta_parts(sparse_delta), "mul")

  def scatter_div(self, sparse_delta, use_locking=False, name=None):
    return state_ops.scatter(self, *state_ops.sparse_delta_parts(sparse_delta), "div")

  def scatter_max(self, sparse_delta, use_locking=False, name=None):
    return state_ops.scatter(self, *state_ops.sparse_delta_parts(sparse_delta), "max")

  def scatter_min(self, sparse_delta, use_locking=False, name=None):
    return state_ops.scatter(self, *state_ops.sparse_delta_parts(sparse_delta), "min")

  def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
    return state_ops.batch_scatter_update(self, *state_ops.sparse_delta_parts(sparse_delta))

  def scatter_nd_update(self, indices, updates, name=None):
    return state_ops.scatter_nd(self, indices, updates, "update")

  def scatter_nd_add(self, indices, updates, name=None):
    return state_ops.scatter_nd(self, indices, updates, "add")

  def scatter_nd_sub(self, indices, updates, name=None):
    return state_ops.scatter_nd(self, indices, updates, "sub")

  def count_up_to(self, limit):
    """Increments an integer variable by one and returns its old value, up to `limit`."""
    if self._dtype not in (dtypes.int32, dtypes.int64):
      raise errors.invalid_argument(
          "Value for attr 'T' of %s is not in the list of allowed values: int32, int64 "
          "[Op:ResourceCountUpTo]" % ops.tf_type_name(self._dtype))
    old = read(self)
    if int(old) >= limit:
      raise errors.OutOfRangeError(None, None,
                                   "Reached limit of %d [Op:ResourceCountUpTo]" % limit)
    write(self, state_ops.add(old._value, jnp.ones((), old._value.dtype), sign=1))
    return old

  # ---- Python protocols ----
  def __repr__(self):
    if self._graph is not None:
      return "<tf.Variable '%s' shape=%s dtype=%s_ref>" % (self.name, self._shape,
                                                          self._dtype.name)
    return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
        self.name, self._shape, self._dtype.name,
        tensor_lib._numpy_text(read(self), is_repr=True))  # pylint: disable=protected-access

  def __jax_array__(self):
    """jax.numpy functions take a Variable as its value's array."""
    return read(self)._value  # pylint: disable=protected-access

  def __array__(self, dtype=None, copy=None):
    value = np.asarray(read(self))
    return value if dtype is None else value.astype(dtype, copy=False)

  def __bool__(self):
    return bool(read(self))

  def __int__(self):
    return int(read(self))

  def __float__(self):
    return float(read(self))

  def __complex__(self):
    return complex(read(self))

  def __iter__(self):
    return iter(read(self))

  # TF 1.x: variables hash and compare by identity; tf.equal compares values.
  def __eq__(self, other):
    return self is other

  def __ne__(self, other):
    return self is not other

  def __hash__(self):
    return id(self)

  def experimental_ref(self):
    return tensor_lib.Reference(self)

  ref = experimental_ref

  def __copy__(self):
    return self

  def __deepcopy__(self, memo):
    copied = ResourceVariable(read(self), trainable=self._trainable, constraint=self._constraint,
                              dtype=self._dtype, name=self._handle_name,
                              synchronization=self._synchronization,
                              aggregation=self._aggregation)
    memo[id(self)] = copied
    return copied

  def __reduce__(self):
    return functools.partial(ResourceVariable, initial_value=self.numpy(),
                             trainable=self._trainable, name=self._handle_name,
                             dtype=self._dtype, constraint=self._constraint), ()

  def _inplace_error(self, symbol, method):
    raise RuntimeError("`var %s= value` with `tf.Variable`s is not supported. Use "
                       "`var.%s` to modify the variable, or `out = var %s value` if you need "
                       "to get a new output Tensor." % (symbol, method, symbol))

  def __iadd__(self, other):
    raise RuntimeError("`variable += value` with `tf.Variable`s is not supported. Use "
                       "`variable.assign_add(value)` to modify the variable, or "
                       "`out = variable + value` if you need to get a new output Tensor.")

  def __isub__(self, other):
    raise RuntimeError("`variable -= value` with `tf.Variable`s is not supported. Use "
                       "`variable.assign_sub(value)` to modify the variable, or "
                       "`out = variable * value` if you need to get a new output Tensor.")

  def __imul__(self, other):
    self._inplace_error("*", "assign(var * value)")

  def __itruediv__(self, other):
    self._inplace_error("/", "assign(var / value)")

  def __ipow__(self, other):
    self._inplace_error("**", "assign(var ** value)")


Variable = ResourceVariable


# Tensor operators, looked up on Tensor at call time (the math modules install them).
_OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__div__", "__rdiv__", "__truediv__", "__rtruediv__", "__floordiv__",
              "__rfloordiv__", "__mod__", "__rmod__", "__lt__", "__le__", "__gt__", "__ge__",
              "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__getitem__",
              "__pow__", "__rpow__", "__invert__", "__neg__", "__abs__", "__matmul__",
              "__rmatmul__")


def _delegate(name):
  def method(self, *args):
    if getattr(Tensor, name, None) is None:
      return NotImplemented
    tensor = read(self)
    return getattr(type(tensor), name)(tensor, *args)
  method.__name__ = name
  return method


for _name in _OPERATORS:
  setattr(ResourceVariable, _name, _delegate(_name))
for _name in ("assign", "assign_add", "assign_sub", "scatter_update", "scatter_add",
              "scatter_sub", "scatter_mul", "scatter_div", "scatter_max", "scatter_min",
              "batch_scatter_update", "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub",
              "count_up_to", "sparse_read", "gather_nd"):  # one operation each in a graph
  setattr(ResourceVariable, _name, graph_build.recorded(getattr(ResourceVariable, _name)))


def _unhashable_variable(self):
  raise TypeError("Variable is unhashable if Tensor equality is enabled. Instead, use "
                  "tensor.experimental_ref() as the key.")


tensor_lib.register_equality(ResourceVariable, {  # tf.enable_tensor_equality()
    "__eq__": lambda self, other: Tensor.__eq__(read(self), other),
    "__ne__": lambda self, other: Tensor.__ne__(read(self), other),
    "__hash__": _unhashable_variable})


@export("resource_variables_enabled")
def resource_variables_enabled():
  """True: eager variables are always resource variables."""
  return True


# ---- tf.get_variable: always a new variable in eager mode ----
def _needs_no_arguments(fn):
  try:
    parameters = inspect.signature(fn).parameters.values()
  except (TypeError, ValueError):
    return False
  return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
             for p in parameters)


def _accepts(fn, keyword):
  """Whether `fn` takes `keyword` (by name or through **kwargs)."""
  try:
    parameters = inspect.signature(fn).parameters
  except (TypeError, ValueError):
    return False
  return keyword in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _true_getter(name, shape=None, dtype=dtypes.float32, initializer=None, regularizer=None,
                 reuse=None, trainable=None, collections=None, caching_device=None,
                 partitioner=None, validate_shape=True, use_resource=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE):
  """Creates the variable `name`; inside an EagerVariableStore or a graph (by TF 1.x's reuse
  rules), returns the stored one."""
  graph = graph_lib.building()
  if graph is not None:
    store = graph._variable_store
    if name in store and not reuse:
      raise ValueError("Variable %s already exists, disallowed. Did you mean to set "
                       "reuse=True or reuse=tf.AUTO_REUSE in VarScope?" % name)
    if name not in store and reuse is True:
      raise ValueError("Variable %s does not exist, or was not created with "
                       "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                       "VarScope?" % name)
  else:
    store = context.ctx.variable_stores[-1] if context.ctx.variable_stores else None
  if store is not None and name in store:
    found = store[name]
    if shape is not None and not found.shape.is_compatible_with(shape):
      raise ValueError("Trying to share variable %s, but specified shape %s and found shape "
                       "%s." % (name, tensor_shape.as_shape(shape), found.shape))
    if graph is not None and dtype is not None and dtypes.as_dtype(dtype) is not found.dtype:
      raise ValueError("Trying to share variable %s, but specified dtype %s and found dtype "
                       "%s." % (name, dtypes.as_dtype(dtype).name, found.dtype.name))
    return found
  variable = _new_variable(name, shape, dtype, initializer, trainable, partitioner,
                           validate_shape, constraint, synchronization, aggregation, collections)
  if store is not None:
    store[name] = variable
  if graph is not None and regularizer is not None:
    with vs.name_scope(name + "/Regularizer/"):
      loss = regularizer(variable)
    if loss is not None:
      graph.add_to_collection("regularization_losses", loss)
  return variable


def _new_variable(name, shape, dtype, initializer, trainable, partitioner, validate_shape,
                  constraint, synchronization, aggregation, collections=None):
  from_value = initializer is not None and not callable(initializer)
  if shape is not None and from_value:
    raise ValueError("If initializer is a constant, do not specify shape.")
  dtype = dtypes.as_dtype(dtype)
  if shape is not None:
    shape = tensor_shape.as_shape(shape)
    if partitioner is not None and shape.ndims:
      raise NotImplementedError("tfe_compat does not support partitioned variables "
                                "(get_variable with a partitioner).")
  if initializer is None:
    if shape is None:
      raise ValueError("Variable %s did not get an initializer, so its `shape` argument must "
                       "be specified." % name)
    if dtype.is_floating:
      initializer = init_ops.GlorotUniform()
    elif dtype.is_integer or dtype.is_bool or dtype is dtypes.string:
      initializer = init_ops.Zeros()
    else:
      raise ValueError("An initializer for variable %s of %s is required" % (name, dtype))
  variable_dtype = None
  if from_value:
    init_val = initializer
  else:
    if inspect.isclass(initializer):
      initializer = initializer()
    if shape is not None and shape.is_fully_defined():
      extra = {"partition_info": None} if init_ops.accepts_partition_info(initializer) else {}
      init_val = functools.partial(initializer, shape.as_list(), dtype=dtype, **extra)
      variable_dtype = dtype
    elif _needs_no_arguments(initializer):
      init_val = initializer
    else:
      raise ValueError("The initializer passed is not valid. It should be a callable with no "
                       "arguments and the shape should not be provided or an instance of "
                       "`tf.keras.initializers.*' and `shape` should be fully defined.")
  if trainable is None:  # resolved here, as variable creators see it in TF
    trainable = synchronization != VariableSynchronization.ON_READ
  return ResourceVariable(init_val, name=name, trainable=trainable, dtype=variable_dtype,
                          validate_shape=validate_shape, constraint=constraint, use_resource=True,
                          synchronization=synchronization, aggregation=aggregation, shape=shape,
                          collections=collections)


@export("get_variable")
def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE):
  """`tf.get_variable`: a new variable named by the variable scope (never reused in eager).

  Scope defaults (initializer, dtype, constraint, custom_getter) apply; the default
  initializer is glorot_uniform for floating dtypes and zeros for integer/bool/string ones.
  `regularizer` is accepted and not applied (TF only adds it to a graph collection).
  """
  scope = vs.get_variable_scope()
  partitioner = scope.partitioner if partitioner is None else partitioner
  custom_getter = scope.custom_getter if custom_getter is None else custom_getter
  full_name = scope.name + "/" + name if scope.name else name
  if dtype is not None and initializer is not None and not callable(initializer):
    init_dtype = ops.convert_to_tensor(initializer).dtype
    if init_dtype is not dtypes.as_dtype(dtype):
      raise ValueError("Initializer type '%s' and explicit dtype '%s' don't match."
                       % (init_dtype, dtypes.as_dtype(dtype)))
  kwargs = dict(
      name=full_name, shape=shape, dtype=scope.dtype if dtype is None else dtype,
      initializer=scope.initializer if initializer is None else initializer,
      regularizer=scope.regularizer if regularizer is None else regularizer,
      reuse=scope.reuse if context.ctx.graph is not None else False,
      trainable=trainable, collections=collections, caching_device=caching_device,
      partitioner=partitioner, validate_shape=validate_shape, use_resource=True,
      synchronization=synchronization, aggregation=aggregation)
  constraint = scope.constraint if constraint is None else constraint
  with vs.name_scope(None):  # names come from the variable scope only
    if custom_getter is None:
      return _true_getter(constraint=constraint, **kwargs)
    if _accepts(custom_getter, "constraint"):  # TF passes it only to getters that take it
      kwargs["constraint"] = constraint
    return custom_getter(getter=_true_getter, **kwargs)


@export("get_local_variable")
def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None, partitioner=None,
                       validate_shape=True, use_resource=None, custom_getter=None,
                       constraint=None, synchronization=VariableSynchronization.AUTO,
                       aggregation=VariableAggregation.NONE):
  """`tf.get_local_variable`: `get_variable` with `trainable=False`."""
  collections = list(collections or []) + ["local_variables"]
  return get_variable(name, shape, dtype, initializer, regularizer, False, collections,
                      caching_device, partitioner, validate_shape, use_resource, custom_getter,
                      constraint, synchronization, aggregation)
