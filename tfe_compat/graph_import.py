"""`tf.import_graph_def`: the nodes of a TensorFlow GraphDef as operations of the default graph.

Each node becomes one recorded call (graph_build.record_call) of its op type's kernel
(graph_kernels.py) under the node's name, so an imported graph runs in a Session like one
built in Python: one compiled program per run signature. Placeholders, constants and
variables (`VariableV2`, `VarHandleOp`) become the graph's own; a variable's reference or
resource handle reaches the nodes that use it as the Variable, whose value each Session holds.
"""
import numpy as np

from tfe_compat import graph_import_cond as cond
from tfe_compat import graph_import_loops as loops
from tfe_compat import graph_kernels
from tfe_compat import graph_variables
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import tensor_shape
from tfe_compat.framework import tensor_util
from tfe_compat.framework.graph_util import node_name, tensor_name
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import control_flow_ops

_VARIABLE_OPS = ("VariableV2", "Variable", "VarHandleOp")
_GRAPH_OWN = ("Placeholder", "PlaceholderWithDefault", "Const", "NoOp", "Switch", "Merge")


def _not_runnable(op_type):
  def run(*_):
    from tfe_compat.framework import errors  # pylint: disable=import-outside-toplevel
    raise errors.UnimplementedError(
        None, None, "tfe_compat does not run the imported %s op: save and restore imported "
        "graphs with tf.train.Saver (tf.train.import_meta_graph returns one)." % op_type)
  return run


# Ops that run Python on the host, on the run's values: op type -> (function of the inputs,
# output dtypes from the attributes). Modules above this one add theirs (summaries).
HOST_KERNELS = {
    "VarIsInitializedOp": (graph_variables.initialized_flag, lambda a: [dtypes.bool]),
    "IsVariableInitialized": (graph_variables.initialized_flag, lambda a: [dtypes.bool])}
# TF's checkpoint ops: imported, not run (tf.train.Saver saves and restores imported graphs).
for _op_type, _outputs in {
    "SaveV2": lambda a: [], "RestoreV2": lambda a: list(a["dtypes"]),
    "MergeV2Checkpoints": lambda a: [], "ShardedFilename": lambda a: [dtypes.string],
    "StringJoin": lambda a: [dtypes.string], "Save": lambda a: [],
    "RestoreSlice": lambda a: [a["dt"]], "SaveSlices": lambda a: [],
    "StaticRegexFullMatch": lambda a: [dtypes.bool]}.items():
  HOST_KERNELS[_op_type] = (_not_runnable(_op_type), _outputs)
_BUILT = set(_VARIABLE_OPS + _GRAPH_OWN)  # made by the importer itself


def shape_from_proto(proto):
  if proto.unknown_rank:
    return tensor_shape.TensorShape(None)
  return tensor_shape.TensorShape([None if d.size < 0 else d.size for d in proto.dim])


def _value(attr):
  """The Python value of an AttrValue."""
  kind = attr.WhichOneof("value")
  if kind == "list":
    for field in ("s", "i", "f", "b", "type", "shape", "tensor"):
      items = getattr(attr.list, field)
      if len(items):
        return [_scalar(field, item) for item in items]
    return []
  return None if kind is None else _scalar(kind, getattr(attr, kind))


def _scalar(kind, value):
  if kind == "s":
    return value.decode("utf-8", "replace")
  if kind == "type":
    return dtypes.as_dtype(value)
  if kind == "shape":
    return shape_from_proto(value)
  if kind == "tensor":
    return tensor_util.make_ndarray(value)
  if kind == "func":
    return value.name
  return value


def _topological(nodes):
  """The nodes, each after the nodes it takes inputs from."""
  by_name = {n.name: n for n in nodes}
  order, seen = [], set()
  for root in nodes:
    stack = [(root, False)]
    while stack:
      node, inputs_done = stack.pop()
      if inputs_done:
        order.append(node)
        continue
      if node.name in seen:
        continue
      seen.add(node.name)
      stack.append((node, True))
      for name in node.input:
        source = by_name.get(node_name(name))
        if source is not None and source.name not in seen:
          stack.append((source, False))
  return order


class _Importer:
  """Builds the nodes of one GraphDef into the default graph under `prefix`."""

  def __init__(self, graph, prefix, input_map):
    self.graph, self.prefix = graph, prefix
    self.input_map = {tensor_name(k): v for k, v in input_map.items()}
    self.tensors, self.ops = {}, {}  # node names of the GraphDef -> what they became
    self.live, self.op_live = {}, {}  # liveness of tensors and nodes behind a Switch
    self.loops = {}  # the kernels of the TF 1.x while loops' nodes (graph_import_loops.py)

  def _name(self, node):
    """The node's name in the graph, taken as it is (TF's ValueError when it is in use)."""
    name = self.prefix + node.name
    if self.graph.unique_name(name) != name:
      raise ValueError("Duplicate node name in graph: '%s'" % name)
    return name + "/"

  def _input(self, name):
    key = tensor_name(name)
    if key in self.input_map:
      return self.input_map[key]
    if key not in self.tensors:
      node, index = key.rsplit(":", 1)
      if node not in self.ops:
        raise ValueError("Node '%s': Unknown input node '%s'" % (self._current, name))
      raise ValueError("Node '%s': Connecting to invalid output %s of source node %s which "
                       "has %d outputs." % (self._current, index, node,
                                            len(self.ops[node].outputs)))
    return self.tensors[key]

  def add(self, node, device):
    self._current = node.name
    attrs = {k: _value(v) for k, v in node.attr.items() if not k.startswith("_")}
    keys = [tensor_name(i) for i in node.input if not i.startswith("^")]
    inputs = [self._input(i) for i in keys]
    controls = [node_name(i) for i in node.input if i.startswith("^")]
    live = None  # where the node runs, behind a TF 1.x Switch (graph_import_cond.py)
    for source in [self.live.get(k) for k in keys] + [self.op_live.get(c) for c in controls]:
      live = cond.both(live, source, self.prefix + node.name + "/_live")
    with self.graph.control_dependencies([self.ops[c] for c in controls]), \
        self.graph.device(device):
      if node.op == "Switch":
        op, outputs, lives = cond.switch(inputs[0], inputs[1], live, self._name(node))
      elif node.op == "Merge":
        op, outputs, lives = cond.merge(inputs, [self.live.get(k) for k in keys],
                                        self._name(node))
        live = lives[0]
      else:
        op, outputs = _operation(self._build(node, inputs, attrs, live))
        lives = None
    op.node_attrs = dict(node.attr)
    self.ops[node.name] = op
    self.op_live[node.name] = live
    for i, tensor in enumerate(outputs):
      self.tensors["%s:%d" % (node.name, i)] = tensor
      self.live["%s:%d" % (node.name, i)] = live if lives is None else lives[i]

  def _build(self, node, inputs, attrs, live):
    name, op_type = self._name(node), node.op
    if op_type == "Placeholder":
      return graph_build.placeholder(attrs["dtype"], attrs.get("shape"), name)
    if op_type == "PlaceholderWithDefault":
      return array_ops.placeholder_with_default(inputs[0], attrs["shape"], name)
    if op_type == "Const":
      return graph_build.constant(Tensor(np.asarray(attrs["value"])), name)
    if op_type in _VARIABLE_OPS:
      return graph_variables.import_variable(
          self.graph, name[:-1], op_type, attrs.get("shape"), attrs["dtype"])
    if op_type == "NoOp":
      return control_flow_ops.no_op(name=name)
    if op_type in HOST_KERNELS:
      fn, out = HOST_KERNELS[op_type]
      out = out(attrs)
      return graph_build.record_host_call(fn, tuple(inputs), out, not out, name, op_type)
    kernel = self.loops.get(node.name) or graph_kernels.KERNELS[op_type]
    stateful = op_type.startswith(("Assign", "Apply", "ResourceApply"))
    if stateful and live is not None:
      kernel, inputs = cond.guarded(kernel), [live] + inputs
    try:
      return graph_build.record_call(kernel, tuple(inputs), attrs, op_type=op_type, name=name,
                                     stateful=stateful)
    except Exception:  # pylint: disable=broad-except
      # Its output shapes need its inputs' values (or stand-ins of unknown rank misled its
      # checks): a host op, computed with the run's values.
      out = _output_dtypes(op_type, attrs)
      if out is None or not any(isinstance(x, graph_lib.GraphTensor) and
                                not x.shape.is_fully_defined() for x in inputs):
        raise
      return graph_build.record_host_call(lambda *x: kernel(*x, **attrs), tuple(inputs), out,
                                          False, name, op_type)


def _output_dtypes(op_type, attrs):
  """The output dtypes of a node from its attributes (None where they do not say)."""
  if op_type == "BroadcastGradientArgs":
    return [attrs["T"]] * 2
  dtype = attrs.get("out_type") or attrs.get("T") or attrs.get("dtype")
  return None if dtype is None else [dtype]


def _operation(outputs):
  """(the Operation, its outputs) of what a node's build returned."""
  if isinstance(outputs, graph_lib.Operation):
    return outputs, []
  outputs = list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]
  first = outputs[0]
  return (first.op if isinstance(first, graph_lib.GraphTensor) else first._variable_op), outputs


@export("import_graph_def", "graph_util.import_graph_def")
def import_graph_def(graph_def, input_map=None, return_elements=None, name=None,
                     op_dict=None, producer_op_list=None):
  """Imports `graph_def`'s nodes into the default graph (names prefixed `name/`, default
  "import"); returns the tensors and operations `return_elements` names, or None."""
  from tensorboardX.proto import graph_pb2  # pylint: disable=import-outside-toplevel
  if not isinstance(graph_def, graph_pb2.GraphDef):
    try:
      graph_def = graph_pb2.GraphDef.FromString(graph_def.SerializeToString())
    except Exception:  # pylint: disable=broad-except
      raise TypeError("graph_def must be a GraphDef proto.") from None
  if return_elements is not None and not all(isinstance(x, str) for x in return_elements):
    raise TypeError("return_elements must be a list of strings.")
  graph = graph_lib.get_default_graph()
  if graph_lib.building() is not graph:
    raise RuntimeError("tf.import_graph_def() requires a graph: call it in graph mode or "
                       "inside `with tf.Graph().as_default():`.")
  prefix = ""
  if name != "":
    with graph.name_scope(name or "import") as prefix:
      pass
  import_nodes(graph, graph_def, prefix, input_map)
  if return_elements is None:
    return None
  return [graph.as_graph_element(prefix + e) for e in return_elements]


def import_nodes(graph, graph_def, prefix, input_map=None, clear_devices=False):
  """Imports the nodes of `graph_def` into `graph`, their names prefixed with `prefix`."""
  input_map = dict(input_map or {})
  if not all(isinstance(k, str) for k in input_map):
    raise ValueError("input_map must be a dictionary mapping strings to Tensor objects.")
  recorded = ["%s (%s)" % (n.name, n.op) for n in graph_def.node if "_tfe_call" in n.attr]
  if recorded:
    raise ValueError(
        "The graph was written by tfe_compat, whose graphs record Python calls whole (a "
        "layer, an optimizer's update, tf.gradients, any TF function): its GraphDef describes "
        "them for TensorBoard but cannot rebuild them: %s%s. Build the graph with its Python "
        "code instead, and restore its variables with tf.train.Saver."
        % (", ".join(recorded[:5]), ", ..." if len(recorded) > 5 else ""))
  known = _BUILT | set(HOST_KERNELS) | set(graph_kernels.KERNELS) | loops.OP_TYPES
  unknown = sorted({n.op for n in graph_def.node if n.op not in known})
  if unknown:
    raise ValueError(
        "The graph has op types that tfe_compat cannot import: %s. Its importer runs TF's "
        "array, math, neural network, random, variable, optimizer and TensorArray ops, TF 1.x "
        "conditionals (Switch/Merge) and while loops (not nested loops nor loops' gradients, "
        "whose stack ops StackV2/StackPushV2/StackPopV2 it lacks), not queues or "
        "the whole-call operations that tfe_compat "
        "writes into its own graphs; build the graph with its Python code instead (and "
        "restore its variables with tf.train.Saver)." % ", ".join(unknown))
  importer = _Importer(graph, prefix, input_map)
  nodes, importer.loops = loops.split_frames(list(graph_def.node), _value)
  for node in _topological(nodes):
    importer.add(node, "" if clear_devices else node.device)
  missing = [k for k in importer.input_map if k.rsplit(":", 1)[0] not in importer.ops]
  if missing:
    raise ValueError("Attempted to map inputs that were not found in graph_def: [%s]"
                     % ", ".join(missing))
