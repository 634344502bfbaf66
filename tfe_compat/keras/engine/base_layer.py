"""`tf.keras.layers.Layer`: deferred build, weights as tfe Variables, attribute tracking.

Layers, Variables and lists/tuples/dicts of them assigned as attributes are tracked by
walking the instance's attributes in assignment order, so weights appear in the order Keras
lists them, shared layers count once, and later `.append`s are seen.
"""
import functools
import inspect
import re

import jax
import numpy as np

from tfe_compat import variables as variables_lib
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import modes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import tensor as tensor_lib
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.trackable import Trackable
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import backend
from tfe_compat.keras import constraints
from tfe_compat.keras import initializers
from tfe_compat.keras import mixed_precision
from tfe_compat.keras import regularizers
from tfe_compat.keras.engine import keras_tensor
from tfe_compat.ops.matmul_cast_ops import cast
from tfe_compat.ops.string_ops import SparseTensor


_ctx = context.ctx


def to_snake_case(name):
  intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
  insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
  return insecure if insecure[0] != "_" else "private" + insecure


def _is_variable(value):
  return isinstance(value, variables_lib.Variable)


def _shape_of(x):
  """The TensorShape of a Tensor, Variable, KerasTensor, NumPy array or nested value."""
  if isinstance(x, (Tensor, keras_tensor.KerasTensor)) or _is_variable(x):
    return x.shape
  return tensor_shape.TensorShape(np.shape(x))


def _convert_input(x, dtype):
  """Keras converts non-tensor inputs (SparseTensors stay), and casts floating inputs to the
  layer's dtype."""
  if isinstance(x, (keras_tensor.KerasTensor, SparseTensor)) or x is None:
    return x
  if not isinstance(x, Tensor):
    x = ops.convert_to_tensor(x, dtype=dtype if np.asarray(x).dtype.kind == "f" else None)
  if dtype is not None and x.dtype.is_floating and x.dtype is not dtype:
    x = cast(x, dtype)
  return x


@export("keras.layers.InputSpec")
class InputSpec:
  """Constraints on a layer's input: `ndim`, `min_ndim`, `max_ndim`, `axes`, `shape`."""

  def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
               axes=None):
    self.dtype = dtype
    self.shape = shape
    self.ndim = len(shape) if shape is not None else ndim
    self.max_ndim, self.min_ndim = max_ndim, min_ndim
    self.axes = axes or {}

  def check(self, layer_name, index, shape):
    """Raises Keras's ValueError when an input of `shape` (TensorShape) breaks the spec."""
    if shape.ndims is None:
      return
    rank = shape.ndims
    prefix = "Input %d of layer %s is incompatible with the layer: " % (index, layer_name)
    if self.ndim is not None and rank != self.ndim:
      raise ValueError(prefix + "expected ndim=%d, found ndim=%d. Full shape received: %s"
                       % (self.ndim, rank, shape.as_list()))
    if self.min_ndim is not None and rank < self.min_ndim:
      raise ValueError(prefix + "expected min_ndim=%d, found ndim=%d. Full shape received: %s"
                       % (self.min_ndim, rank, shape.as_list()))
    if self.max_ndim is not None and rank > self.max_ndim:
      raise ValueError(prefix + "expected max_ndim=%d, found ndim=%d. Full shape received: %s"
                       % (self.max_ndim, rank, shape.as_list()))
    dims = shape.as_list()
    for axis, value in self.axes.items():
      if value is not None and dims[axis] not in (value, None):
        raise ValueError(prefix + "expected axis %d of input shape to have value %d but "
                         "received input with shape %s" % (axis, value, dims))


@functools.lru_cache(maxsize=None)
def _call_parameters(cls):
  params = inspect.signature(cls.call).parameters
  return ("training" in params, "mask" in params,
          any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()))


@export("keras.layers.Layer")
class Layer(Trackable):
  """Base class of Keras layers (TF 1.15 `tf.keras.layers.Layer`)."""

  _checkpoint_creators = ("add_weight", "add_variable")

  _TRACK_SKIP = frozenset(("_inbound_nodes", "_outbound_nodes"))

  def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
    allowed = {"input_shape", "batch_input_shape", "batch_size", "weights",
               "activity_regularizer", "autocast", "input_dim", "input_length"}
    unknown = set(kwargs) - allowed
    if unknown:
      raise TypeError("Keyword argument not understood:", sorted(unknown)[0])
    self._trainable = trainable
    self.built = False
    self._dtype_policy = mixed_precision.layer_policy(dtype)
    if self._dtype_policy is None:
      self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
      self._autocast_dtype = None
    else:  # variables in the variable dtype, computation in the compute dtype
      policy = self._dtype_policy
      self._dtype = policy.variable_dtype and dtypes.as_dtype(policy.variable_dtype)
      self._autocast_dtype = policy.compute_dtype and dtypes.as_dtype(policy.compute_dtype)
    self._base_name = name or to_snake_case(type(self).__name__)  # the name less a uid
    self._name = name or backend.unique_object_name(self._base_name)
    self._own_losses = []        # tensors and zero-argument callables from add_loss
    self._own_weights = []       # variables created by add_weight, in creation order
    self.input_spec = None
    self.supports_masking = False
    self.dynamic = dynamic
    self._initial_weights = kwargs.get("weights")
    self.activity_regularizer = kwargs.get("activity_regularizer")
    if "input_shape" in kwargs or "batch_input_shape" in kwargs or "input_dim" in kwargs:
      if "batch_input_shape" in kwargs:
        batch_input_shape = tuple(kwargs["batch_input_shape"])
      else:
        shape = kwargs.get("input_shape") or (kwargs["input_dim"],)
        batch_input_shape = (kwargs.get("batch_size"),) + tuple(shape)
      self._batch_input_shape = batch_input_shape
    self._build_input_shape = None

  @property
  def input_spec(self):
    return self._input_spec

  @input_spec.setter
  def input_spec(self, value):
    self._input_spec = value
    self._checked_shapes = None  # input shapes that passed the current spec

  # ---- Names, dtype, trainability ----
  @property
  def name(self):
    return self._name

  @property
  def dtype(self):
    return (self._dtype or dtypes.as_dtype(backend.floatx())).name

  @property
  def trainable(self):
    return self._trainable

  @trainable.setter
  def trainable(self, value):
    self._trainable = bool(value)
    for layer in self._flatten_layers(include_self=False):
      layer._trainable = bool(value)

  # ---- Tracking ----
  def _tracked_values(self):
    """Layers and Variables reachable from attributes (through lists/tuples/dicts)."""
    # An explicit stack, not a recursive closure: a closure that calls itself is a
    # reference cycle, garbage on every call (TF's tests check training makes none).
    found, seen = [], set()
    stack = [value for attr, value in reversed(list(vars(self).items()))
             if attr not in self._TRACK_SKIP]
    while stack:
      value = stack.pop()
      if isinstance(value, (Layer, variables_lib.Variable)):
        if id(value) not in seen:
          seen.add(id(value))
          found.append(value)
      elif isinstance(value, (list, tuple)):
        stack.extend(reversed(value))
      elif isinstance(value, dict):
        stack.extend(reversed(list(value.values())))
    return found

  def _flatten_layers(self, include_self=True):
    """This layer (optionally) and every nested layer, each once, depth first."""
    out, seen, stack = [], set(), [self]  # an explicit stack: see _tracked_values
    while stack:
      layer = stack.pop()
      if id(layer) in seen:
        continue
      seen.add(id(layer))
      out.append(layer)
      stack.extend(reversed([c for c in layer._tracked_values() if isinstance(c, Layer)]))
    return out if include_self else out[1:]

  @property
  def _layers(self):
    return [v for v in self._tracked_values() if isinstance(v, Layer)]

  def _ordered_weights(self, seen):
    """(variable, trainable here) pairs in Keras's order: add_weight weights, nested layers'
    weights, then Variables assigned as attributes; each weight once."""
    out = [(v, v.trainable and self._trainable) for v in self._own_weights if id(v) not in seen]
    seen.update(id(v) for v, _ in out)
    tracked = self._tracked_values()
    for child in tracked:
      if isinstance(child, Layer) and id(child) not in seen:
        seen.add(id(child))
        out += [(v, trainable and self._trainable)
                for v, trainable in child._ordered_weights(seen)]
    for child in tracked:
      if _is_variable(child) and id(child) not in seen:
        seen.add(id(child))
        out.append((child, child.trainable and self._trainable))
    return out

  @property
  def trainable_weights(self):
    return [v for v, trainable in self._ordered_weights({id(self)}) if trainable]

  @property
  def non_trainable_weights(self):
    return [v for v, trainable in self._ordered_weights({id(self)}) if not trainable]

  @property
  def weights(self):
    return self.trainable_weights + self.non_trainable_weights

  variables = weights
  trainable_variables = trainable_weights
  non_trainable_variables = non_trainable_weights

  def get_weights(self):
    return backend.batch_get_value(self.weights)

  def set_weights(self, weights):
    params = self.weights
    if len(params) != len(weights):
      raise ValueError("You called `set_weights(weights)` on layer \"%s\" with a weight list "
                       "of length %d, but the layer was expecting %d weights. Provided "
                       "weights: %s..." % (self.name, len(weights), len(params),
                                            str(weights)[:50]))
    for variable, value in zip(params, weights):
      value = np.asarray(value)
      if tuple(variable.shape.as_list()) != value.shape:
        raise ValueError("Layer weight shape %s not compatible with provided weight shape %s"
                         % (tuple(variable.shape.as_list()), value.shape))
      backend.set_value(variable, value)

  def count_params(self):
    if not self.built:
      raise ValueError("You tried to call `count_params` on %s, but the layer isn't built. "
                       "You can build it manually via: `%s.build(batch_input_shape)`."
                       % (self.name, self.name))
    return int(sum(np.prod(v.shape.as_list()) for v in self.weights))

  # ---- Weights ----
  def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, constraint=None, partitioner=None, use_resource=None,
                 synchronization=None, aggregation=None, **kwargs):
    """Creates a weight Variable named `<scope>/<name>:0` and tracks it."""
    autocast = kwargs.pop("experimental_autocast", True) and self._autocast_dtype is not None
    dtype = dtypes.as_dtype(dtype or self.dtype)
    if initializer is None:
      initializer = "glorot_uniform" if dtype.is_floating else "zeros"
    initializer = initializers.get(initializer)
    trainable = True if trainable is None else trainable
    shape = tuple(tensor_shape.TensorShape(shape or ()).as_list())
    variable = variables_lib.Variable(
        lambda: initializer(shape, dtype=dtype), name=name, dtype=dtype,
        trainable=trainable, constraint=constraints.get(constraint))
    if autocast and dtype.is_floating and dtype is not self._autocast_dtype:
      variable = mixed_precision.make_autocast(variable)
    self._own_weights.append(variable)
    if regularizer is not None:
      regularizer = regularizers.get(regularizer)
      self._own_losses.append(functools.partial(_regularization_loss, regularizer, variable))
    return variable

  add_variable = add_weight

  # ---- Losses ----
  def add_loss(self, losses, inputs=None):
    """Adds loss tensors or zero-argument callables (e.g. regularization) to `losses`."""
    for loss in losses if isinstance(losses, (list, tuple)) else [losses]:
      if loss is not None:
        self._own_losses.append(loss)

  @property
  def updates(self):
    """The graph operations that update this layer's state (BatchNormalization's moving
    statistics) when run; none eagerly, where calling the layer updates it."""
    return [op for layer in self._flatten_layers() for op in layer.__dict__.get("_update_ops",
                                                                               ())]

  def _add_graph_updates(self, outputs):
    """Keeps the update operations of a call recorded in a graph; a TF1 `tf.layers` layer
    also adds them to the UPDATE_OPS collection, as TF does."""
    leaves = jax.tree_util.tree_leaves(outputs, is_leaf=_is_leaf)
    updates = getattr(getattr(leaves[0], "op", None), "updates", ()) if leaves else ()
    if updates:
      self.__dict__.setdefault("_update_ops", []).extend(updates)
      if self.__dict__.get("_variable_scope_name") is not None:
        for op in updates:
          graph_lib.add_to_collection(graph_lib.GraphKeys.UPDATE_OPS, op)

  @property
  def losses(self):
    out = []
    for layer in self._flatten_layers():
      for loss in layer._own_losses:
        out.append(loss() if callable(loss) else loss)
    return out

  # ---- Building and calling ----
  def build(self, input_shape):
    self._build_input_shape = input_shape
    self.built = True

  def call(self, inputs, **kwargs):  # pylint: disable=unused-argument
    return inputs

  def _maybe_build(self, inputs):
    if self.built:
      return
    input_shape = jax.tree_util.tree_map(_shape_of, inputs, is_leaf=_is_leaf)
    if isinstance(input_shape, list) and len(input_shape) == 1 and not isinstance(inputs, list):
      input_shape = input_shape[0]
    self.build(input_shape)
    self.built = True
    if self._build_input_shape is None:
      self._build_input_shape = input_shape
    if self._initial_weights is not None:
      self.set_weights(self._initial_weights)
      self._initial_weights = None

  def _check_input_spec(self, inputs):
    if self.input_spec is None:
      return
    if type(inputs) is Tensor:
      if inputs._value.shape == self._checked_shapes:
        return  # this input shape passed the spec already
      flat = [inputs]
      shapes = inputs._value.shape
    else:
      flat = jax.tree_util.tree_leaves(inputs, is_leaf=_is_leaf)
      shapes = tuple(x._value.shape if isinstance(x, Tensor) else None for x in flat)
      if shapes == self._checked_shapes and None not in shapes:
        return  # these input shapes passed the spec already
    specs = self.input_spec if isinstance(self.input_spec, (list, tuple)) else [self.input_spec]
    for index, (spec, x) in enumerate(zip(specs, flat)):
      if spec is not None:
        spec.check(self.name, index, _shape_of(x))
    self._checked_shapes = shapes

  def __call__(self, inputs, *args, **kwargs):
    if self._dtype is None and self._dtype_policy is None and not self.built and \
        not modes.tf2_enabled():
      self._infer_dtype(inputs)
    if self._autocast_dtype is not None:
      with mixed_precision.autocast(self._autocast_dtype):
        return self._call_in_dtype(self._autocast_dtype, inputs, *args, **kwargs)
    return self._call_in_dtype(self._dtype or dtypes.as_dtype(backend.floatx()), inputs, *args,
                               **kwargs)

  def _infer_dtype(self, inputs):
    """TF 1.x (without `enable_v2_behavior`): a layer made without a dtype takes the dtype
    of its first input (tensor or NumPy array) when it is a float: a float64 input makes a
    float64 layer, where TF 2 would cast the input to float32."""
    leaves = jax.tree_util.tree_leaves(inputs, is_leaf=_is_leaf)
    first = leaves[0] if leaves else None
    if isinstance(first, Tensor) and first.dtype.is_floating:
      self._dtype = first.dtype.base_dtype
    elif isinstance(first, np.ndarray) and first.dtype.kind == "f":
      self._dtype = dtypes.as_dtype(first.dtype)

  def _call_in_dtype(self, dtype, inputs, *args, **kwargs):
    if type(inputs) is Tensor:  # the common case, without tree walks
      if inputs._value.dtype != dtype._np and inputs.dtype.is_floating:
        inputs = cast(inputs, dtype)
    else:
      inputs = jax.tree_util.tree_map(lambda x: _convert_input(x, dtype), inputs,
                                      is_leaf=_is_leaf)
      if any(isinstance(x, keras_tensor.KerasTensor)
             for x in jax.tree_util.tree_leaves(inputs, is_leaf=_is_leaf)):
        return keras_tensor.symbolic_call(self, inputs, args,
                                          self._call_kwargs(kwargs))
    kwargs = self._call_kwargs(kwargs)
    accepts_mask = "mask" in kwargs or _call_parameters(type(self))[1]
    input_mask = _mask_of(inputs) if _masks else None
    if input_mask is not None and "mask" not in kwargs and (
        accepts_mask or _call_parameters(type(self))[2]):
      kwargs["mask"] = input_mask
    names = _ctx.name_stack
    scope_of = self.__dict__.get("_parent_scope")  # set by a tfe.Network owning this layer
    own_scope = self.__dict__.get("_variable_scope_name")  # a tf.layers layer's (TF1)
    if own_scope is not None and scope_of is None:
      names.append(own_scope + "/")
    else:
      parent_scope = scope_of() if scope_of else names[-1] if names else ""
      names.append(parent_scope + self._name + "/")  # name_scope(self.name)
    try:
      if not self.built:
        self._check_input_spec(inputs)  # an InputSpec set in __init__ applies before build
        self._maybe_build(inputs)
      self._check_input_spec(inputs)
      if graph_lib.building() is not None:  # graph mode: the call is one operation
        outputs = graph_build.record_call(self.call, (inputs,) + args, kwargs,
                                          op_type=type(self).__name__, separate_writes=True)
        self._add_graph_updates(outputs)
      else:
        outputs = self.call(inputs, *args, **kwargs)
    finally:
      names.pop()
    output_mask = self.compute_mask(inputs, kwargs.get("mask", input_mask))
    if output_mask is not None and isinstance(outputs, Tensor):
      _masks[outputs] = output_mask
    if self.activity_regularizer is not None:
      regularizer = regularizers.get(self.activity_regularizer)
      for output in jax.tree_util.tree_leaves(outputs, is_leaf=_is_leaf):
        self.add_loss(regularizer(output) / output.shape.as_list()[0])
    return outputs

  def _call_kwargs(self, kwargs):
    """`training` and `mask` go to `call` only when it takes them."""
    if not kwargs:
      return kwargs
    accepts_training, accepts_mask, accepts_any = _call_parameters(type(self))
    if not (accepts_training or accepts_any):
      kwargs.pop("training", None)
    if not (accepts_mask or accepts_any):
      kwargs.pop("mask", None)
    return kwargs

  def compute_mask(self, inputs, mask=None):
    """The mask of the outputs (Keras: masks pass through layers that support masking)."""
    return mask if self.supports_masking else None

  def apply(self, inputs, *args, **kwargs):
    """TF1's name for calling a layer."""
    return self.__call__(inputs, *args, **kwargs)

  def compute_output_shape(self, input_shape):
    """Output shape(s) of calling the layer on inputs of `input_shape` (traced, not run)."""
    return keras_tensor.infer_output_shape(self, input_shape)

  # ---- Config ----
  def get_config(self):
    """{name, trainable, dtype (, batch_input_shape)}; as in TF, a layer whose `__init__`
    takes more arguments must override this."""
    config = {"name": self.name, "trainable": self.trainable, "dtype": self.dtype}
    if self._dtype_policy is not None and self._dtype_policy.should_cast_variables:
      config["dtype"] = {"class_name": "Policy", "config": self._dtype_policy.get_config()}
    if hasattr(self, "_batch_input_shape"):
      config["batch_input_shape"] = self._batch_input_shape
    if type(self).get_config is Layer.get_config:
      args = inspect.getfullargspec(type(self).__init__).args
      if [a for a in args if a not in config and a not in ("self", "dynamic")]:
        raise NotImplementedError("Layers with arguments in `__init__` must override "
                                  "`get_config`.")
    return config

  @classmethod
  def from_config(cls, config):
    return cls(**config)

  def __repr__(self):
    return "<%s.%s object at %s>" % (type(self).__module__, type(self).__name__, hex(id(self)))


_masks = tensor_lib.WeakIdentityMap()  # output Tensor -> its Keras mask (Keras's _keras_mask)


def _mask_of(inputs):
  if isinstance(inputs, Tensor):
    return _masks.get(inputs)
  if isinstance(inputs, (list, tuple)) and any(isinstance(x, Tensor) and x in _masks
                                               for x in inputs):
    return [_masks.get(x) if isinstance(x, Tensor) else None for x in inputs]
  return None


def _is_leaf(x):
  return isinstance(x, (Tensor, keras_tensor.KerasTensor)) or _is_variable(x)


def _regularization_loss(regularizer, variable):
  return regularizer(variable)
