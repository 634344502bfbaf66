"""Symbolic Keras tensors for the functional API: `tf.keras.Input`, `InputLayer`, nodes.

Calling a layer on KerasTensors builds the layer from their shapes and returns KerasTensors
whose shapes come from tracing the layer's `call` with `jax.eval_shape` (no computation).
Each output remembers the `Node` (layer, inputs, call arguments) that made it, which is all a
functional Model needs to run the graph later on real tensors.
"""
import contextlib

import jax

from tfe_compat.eager.tape import replaying
from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.variable_scope import name_scope


class Node:
  """One call of a layer on symbolic inputs."""

  def __init__(self, layer, inputs, args, kwargs, outputs):
    self.layer, self.inputs, self.args, self.kwargs = layer, inputs, args, kwargs
    self.outputs = outputs


class KerasTensor:
  """A symbolic tensor: a shape (batch dimension usually None), a dtype, and its history."""

  def __init__(self, shape, dtype, name=None, node=None):
    self.shape = tensor_shape.TensorShape(shape)
    self.dtype = dtypes.as_dtype(dtype)
    self.name = name
    self.node = node

  def get_shape(self):
    return self.shape

  @property
  def _keras_history(self):
    return self.node

  def __repr__(self):
    return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)

  def _unsupported(self, *args, **kwargs):
    raise TypeError("Operations on symbolic Keras tensors are not supported by tfe_compat's "
                    "functional API: wrap the computation in a tf.keras.layers.Lambda layer "
                    "(or use layers such as tf.keras.layers.Add).")

  __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _unsupported
  __truediv__ = __rtruediv__ = __matmul__ = __neg__ = __getitem__ = _unsupported
  __array__ = _unsupported


def _is_symbolic(x):
  return isinstance(x, KerasTensor)


def _placeholder_shapes(shape, fill):
  return tuple(fill if d is None else d for d in shape.as_list())


class _DiscardWrites:
  """While a layer is traced for shapes, variables read as usual and writes are dropped."""

  def __init__(self, outer):
    self._outer = outer

  def read(self, var):
    if self._outer is not None:
      return self._outer.read(var)
    if var._graph is not None:  # a graph variable has no value of its own: a stand-in
      return Tensor(jax.numpy.zeros(var.shape.as_list(), var.dtype.as_numpy_dtype))
    return Tensor(var._value)

  def write(self, var, value):
    pass


def _output_specs(layer, inputs, args, kwargs):
  """(shape with unknown dims as None, dtype) of each output leaf of `layer.call`."""
  leaves, treedef = jax.tree_util.tree_flatten(inputs, is_leaf=_is_symbolic)

  def run(arrays):
    wrapped = [Tensor(a) if _is_symbolic(x) else x for x, a in zip(leaves, arrays)]
    out = layer.call(jax.tree_util.tree_unflatten(treedef, wrapped), *args, **kwargs)
    return jax.tree_util.tree_map(lambda t: t._value, out,
                                  is_leaf=lambda t: isinstance(t, Tensor))

  compute = getattr(layer, "_autocast_dtype", None)  # a mixed policy casts floating inputs

  def trace(fill):
    specs = [jax.ShapeDtypeStruct(_placeholder_shapes(x.shape, fill), (
        compute if compute is not None and x.dtype.is_floating else x.dtype).as_numpy_dtype)
             if _is_symbolic(x) else None for x in leaves]
    return jax.eval_shape(run, specs)

  outer = context.ctx.variable_scope
  in_graph = graph_lib.building() is not None  # graph mode: the trace builds no operations
  with graph_build.resolving(graph_build.RunEnv()) if in_graph else contextlib.nullcontext():
    context.ctx.variable_scope = _DiscardWrites(None if in_graph else outer)
    try:
      with replaying():
        ones, twos = trace(1), trace(2)
    finally:
      context.ctx.variable_scope = outer
  return jax.tree_util.tree_map(
      lambda a, b: (tuple(d1 if d1 == d2 else None for d1, d2 in zip(a.shape, b.shape)),
                    a.dtype), ones, twos)


def symbolic_call(layer, inputs, args, kwargs):
  """`layer(keras_tensors)`: builds the layer and returns KerasTensors for its outputs."""
  with name_scope(layer.name):
    layer._maybe_build(inputs)  # pylint: disable=protected-access
  layer._check_input_spec(inputs)  # pylint: disable=protected-access
  specs = _output_specs(layer, inputs, args, kwargs)
  node = Node(layer, inputs, args, kwargs, None)
  leaves, treedef = jax.tree_util.tree_flatten(specs, is_leaf=lambda s: isinstance(s, tuple)
                                               and len(s) == 2 and isinstance(s[0], tuple))
  outputs = [KerasTensor(shape, dtype, name="%s/Identity:%d" % (layer.name, i), node=node)
             for i, (shape, dtype) in enumerate(leaves)]
  node.outputs = jax.tree_util.tree_unflatten(treedef, outputs)
  return node.outputs


def infer_output_shape(layer, input_shape):
  """The output TensorShape(s) of `layer` for inputs of `input_shape` (batch may be None)."""
  def to_symbolic(shape):
    return KerasTensor(tensor_shape.TensorShape(shape), layer.dtype)

  is_shape = lambda s: isinstance(s, (tensor_shape.TensorShape, tuple)) and all(
      d is None or isinstance(d, int) for d in (s.as_list() if isinstance(
          s, tensor_shape.TensorShape) else s))
  inputs = jax.tree_util.tree_map(to_symbolic, input_shape, is_leaf=is_shape)
  with name_scope(layer.name):
    layer._maybe_build(inputs)  # pylint: disable=protected-access
  specs = _output_specs(layer, inputs, (), {})
  return jax.tree_util.tree_map(lambda s: tensor_shape.TensorShape(s[0]), specs,
                                is_leaf=lambda s: isinstance(s, tuple) and len(s) == 2
                                and isinstance(s[0], tuple))
