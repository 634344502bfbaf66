"""The NodeDefs of a graph's operations (`Operation.node_def`, `Graph.as_graph_def`): TF's
names, op types, inputs, devices and the attributes TensorBoard shows; an imported node's own
attributes; calls recorded whole marked `_tfe_call` (graph_import.py refuses them)."""
import jax
import numpy as np
from tensorboardX.proto import node_def_pb2

from tfe_compat.framework import dtypes
from tfe_compat.framework import tensor_util
from tfe_compat.framework.graph import GraphTensor
from tfe_compat.framework.tensor import Tensor


def shape_proto(shape, proto):
  """Writes the static `shape` into a TensorShapeProto (any schema with TF's fields)."""
  if shape.dims is None:
    proto.unknown_rank = True
  for dim in shape.dims or ():
    proto.dim.add(size=-1 if dim.value is None else dim.value)


def node_def(op, add_shapes=False):
  """The NodeDef TF writes for `op`: inputs, device and the attributes TensorBoard shows
  (`dtype`/`shape` of placeholders and variables, `value` of constants, `T` otherwise)."""
  node = node_def_pb2.NodeDef(name=op.name, op=op.type, device=op.device or "")
  node.input.extend(_input_names(op))
  node.input.extend(["^" + c.name for c in op.control_inputs])
  first = op.outputs[0] if op.outputs else None
  if first is not None and first._dtype is not None:
    if op.kind in ("const", "placeholder", "variable"):
      node.attr["dtype"].type = first._dtype.as_datatype_enum
    else:
      node.attr["T"].type = first._dtype.as_datatype_enum
    if op.kind in ("placeholder", "variable"):
      shape_proto(first._shape, node.attr["shape"].shape)
    if op.kind == "const" and first._const is not None and first._dtype is not dtypes.string:
      node.attr["value"].tensor.CopyFrom(tensor_util.make_tensor_proto(np.asarray(
          first._const)))
  if add_shapes:
    for tensor in op.outputs:
      shape_proto(tensor._shape, node.attr["_output_shapes"].list.shape.add())
  for name, value in op.attrs.items():
    node.attr[name].s = value
  if op.node_attrs is not None:  # TF's own attributes (an imported node, a variable's op)
    for name, value in op.node_attrs.items():
      node.attr[name].CopyFrom(value)
  elif op.kind == "call":  # a Python call recorded whole: described, not importable
    node.attr["_tfe_call"].b = True
  return node


def _input_names(op):
  """The node's data inputs: its call's tensors and variables in argument order, then
  tensors it captured and variables it reads or writes otherwise."""
  names = []
  is_leaf = lambda x: isinstance(x, Tensor) or hasattr(x, "_variable_op")
  for x in jax.tree_util.tree_leaves((op.args, op.kwargs), is_leaf=is_leaf) + op.inputs + \
      op.reads + op.writes:
    if isinstance(x, GraphTensor):
      name = x.name if x.value_index else x.op.name
    elif getattr(x, "_variable_op", None) not in (None, op):
      name = x._variable_op.name
    else:
      continue
    if name not in names:
      names.append(name)
  return names
