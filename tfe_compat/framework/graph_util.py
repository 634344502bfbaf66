"""`tf.graph_util` (TF 1.15): GraphDef utilities. The transforms of GraphDef protos work as in
TF; freezing variables reads their values through a Session (which fails eagerly, as TF's)."""
import copy
import re

from tensorboardX.proto import graph_pb2, node_def_pb2

from tfe_compat.framework import dtypes
from tfe_compat.framework.api import export

_VARIABLE_OPS = {"Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub",
                 "ScatterUpdate", "TruncatedNormal", "Variable", "VariableV2"}
_INT32, _STRING = dtypes.int32.as_datatype_enum, dtypes.string.as_datatype_enum


@export("graph_util.must_run_on_cpu")
def must_run_on_cpu(node, pin_variables_on_cpu=False):
  """True for the NodeDefs TF places on the CPU: int32/string constants, int32
  DynamicStitch and Cast from int32 (and variable ops when `pin_variables_on_cpu`)."""
  node_def = getattr(node, "node_def", node)
  if pin_variables_on_cpu and node_def.op in _VARIABLE_OPS:
    return True
  if node_def.op == "Const" and node_def.attr["dtype"].type in (_STRING, _INT32):
    return True
  if node_def.op in ("DynamicStitch", "ParallelDynamicStitch"):
    return node_def.attr["T"].type == _INT32
  if node_def.op == "Cast":
    return node_def.attr["SrcT"].type == _INT32
  return False


def node_name(name):
  """The node of a NodeDef input ("^node", "node:1", "node" -> "node")."""
  return name[1:] if name.startswith("^") else name.split(":")[0]


def tensor_name(name):
  """The tensor a NodeDef data input names ("node" means "node:0")."""
  return name if ":" in name else name + ":0"


def _inputs_and_order(graph_def):
  """({node: names of its inputs and colocated nodes}, {node: NodeDef}, {node: position})."""
  inputs, nodes, order = {}, {}, {}
  for seq, node in enumerate(graph_def.node):
    name = node_name(node.name)
    nodes[name], order[name] = node, seq
    inputs[name] = [node_name(x) for x in node.input]
    if "_class" in node.attr:
      inputs[name] += [c.decode("utf-8")[5:] for c in node.attr["_class"].list.s
                       if c.decode("utf-8").startswith("loc:@")]
  return inputs, nodes, order


@export("graph_util.extract_sub_graph")
def extract_sub_graph(graph_def, dest_nodes):
  """The GraphDef of the nodes `dest_nodes` depend on, in their original order."""
  if not isinstance(graph_def, graph_pb2.GraphDef):
    raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")
  if isinstance(dest_nodes, str):
    raise TypeError("dest_nodes must be a list.")
  inputs, nodes, order = _inputs_and_order(graph_def)
  for name in dest_nodes:
    assert name in nodes, "%s is not in graph" % name
  keep, to_visit = set(), list(dest_nodes)
  while to_visit:
    name = to_visit.pop(0)
    if name not in keep:
      keep.add(name)
      to_visit += inputs.get(name, [])
  out = graph_pb2.GraphDef()
  for name in sorted(keep, key=order.__getitem__):
    out.node.extend([copy.deepcopy(nodes[name])])
  for field in ("library", "versions"):  # tensorboardX's GraphDef has no function library
    if field in out.DESCRIPTOR.fields_by_name:
      getattr(out, field).CopyFrom(getattr(graph_def, field))
  return out


def _rewired(nodes, skip, replace):
  """Copies of `nodes` except `skip`; inputs through `replace` followed to their source."""
  out = []
  for node in nodes:
    if node.name in skip:
      continue
    new_node = node_def_pb2.NodeDef()
    new_node.CopyFrom(node)
    del new_node.input[:]
    for full_name in node.input:
      name = re.sub(r"^\^", "", full_name)
      if name in skip and name not in replace:
        continue
      while name in replace:
        full_name = replace[name]
        name = re.sub(r"^\^", "", full_name)
      new_node.input.append(full_name)
    out.append(new_node)
  return out


@export("graph_util.remove_training_nodes")
def remove_training_nodes(input_graph, protected_nodes=None):
  """`input_graph` without CheckNumerics nodes and with Identity nodes spliced out (unless
  protected or involved in control dependencies), as TF prunes graphs for inference."""
  protected = set(protected_nodes or ())
  removed = {n.name for n in input_graph.node if n.op == "CheckNumerics" and n.name not in
             protected}
  nodes = _rewired(input_graph.node, removed, {})
  controlled, control_inputs = set(), set()
  for node in nodes:
    for name in node.input:
      if "^" in name:
        control_inputs.add(name.replace("^", ""))
        controlled.add(node.name)
  splice = {n.name: n.input[0] for n in nodes if n.op == "Identity" and n.name not in protected
            and n.name not in controlled and n.name not in control_inputs}
  out = graph_pb2.GraphDef()
  out.node.extend(_rewired(nodes, set(splice), splice))
  return out


@export("graph_util.tensor_shape_from_node_def_name")
def tensor_shape_from_node_def_name(graph, input_name):
  """The static shape of the tensor `input_name` ("node" means "node:0") of `graph`."""
  return graph.get_tensor_by_name(tensor_name(input_name)).get_shape()


@export("graph_util.convert_variables_to_constants")
def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
  """The graph pruned to the outputs, each variable a `Const` of its value in `sess` and each
  read of a resource variable an `Identity` of it, as TF freezes graphs. Reading the values
  goes through `sess.run`, which under eager execution raises as TF's does."""
  from tfe_compat.framework import tensor_util  # pylint: disable=import-outside-toplevel
  graph_def = extract_sub_graph(input_graph_def, output_node_names)
  frozen = [n.name for n in graph_def.node
            if n.op in ("Variable", "VariableV2", "VarHandleOp")
            and (variable_names_whitelist is None or n.name in variable_names_whitelist)
            and (variable_names_blacklist is None or n.name not in variable_names_blacklist)]
  if not frozen:
    return graph_def
  values = dict(zip(frozen, sess.run([name + ":0" for name in frozen])))
  output = graph_pb2.GraphDef()
  output.versions.CopyFrom(graph_def.versions)
  for node in graph_def.node:
    new = output.node.add()
    if node.name in values:
      new.name, new.op, new.device = node.name, "Const", node.device
      new.attr["dtype"].CopyFrom(node.attr["dtype"])
      new.attr["value"].tensor.CopyFrom(tensor_util.make_tensor_proto(values[node.name]))
    elif node.op == "ReadVariableOp" and node_name(node.input[0]) in values:
      new.CopyFrom(node)
      new.op = "Identity"
      new.attr["T"].CopyFrom(node.attr["dtype"])
      del new.attr["dtype"]
    else:
      new.CopyFrom(node)
  return output
