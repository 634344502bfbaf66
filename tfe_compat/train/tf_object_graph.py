"""TensorFlow's object-based checkpoint layout, translated to and from ours.

TF stores each value of an object-based checkpoint under a key such as
"model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE" and describes the objects in a
TrackableObjectGraph proto saved as the string tensor "_CHECKPOINTABLE_OBJECT_GRAPH": nodes
(node 0 is the root), named edges to children, each node's tensors (`attributes`) and an
optimizer's slots (`slot_variables`: original variable node, slot name, slot node).

Our checkpoints (checkpoint.py) key values by object path: a variable by the path that
reaches it ("model/dense/kernel"), another tensor of an object by "<path>/.ATTRIBUTES/<name>",
a slot by "<optimizer path>/slots/<variable path>/<slot name>". `by_path` reads TF's layout
under every path through the graph (TF's Sequential models reach a layer both as "layer-0"
and "layer_with_weights-0"); `to_tf` writes ours as TF's, with the graph TF rebuilds it from.
"""
import collections
import re

import numpy as np

from tfe_compat.framework import errors
from tfe_compat.proto import trackable_object_graph_pb2
from tfe_compat.train import checkpoint_io

GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_VALUE = "VARIABLE_VALUE"
_ATTRIBUTES = "/.ATTRIBUTES/"
_PATHS_PER_NODE = 8  # enough for every alias of a layer; bounds cyclic graphs


def parse(serialized):
  """The TrackableObjectGraph in the bytes of a checkpoint's object-graph tensor."""
  graph = trackable_object_graph_pb2.TrackableObjectGraph()
  try:
    graph.ParseFromString(bytes(serialized))
  except Exception as e:  # pylint: disable=broad-except
    raise errors.DataLossError(None, None, "The checkpoint's object graph is corrupt: %s"
                               % e) from None
  return graph


def _node_paths(graph):
  """{node id: [paths]}: every path from the root (breadth first, shortest first)."""
  paths = collections.defaultdict(list)
  paths[0].append("")
  queue = collections.deque([(0, "")])
  while queue:
    node_id, path = queue.popleft()
    for child in graph.nodes[node_id].children:
      child_path = child.local_name if not path else path + "/" + child.local_name
      if len(paths[child.node_id]) < _PATHS_PER_NODE and child_path not in paths[child.node_id]:
        paths[child.node_id].append(child_path)
        queue.append((child.node_id, child_path))
  return paths


def _attributes(graph):
  """(our key, SerializedTensor) of every value the graph describes, under every path."""
  paths = _node_paths(graph)
  for node_id, node in enumerate(graph.nodes):
    for attribute in node.attributes:
      suffix = "" if attribute.name == _VALUE else _ATTRIBUTES + attribute.name
      for path in paths.get(node_id, ()):
        yield path + suffix, attribute
    for slot in node.slot_variables:
      for attribute in graph.nodes[slot.slot_variable_node_id].attributes:
        if attribute.name != _VALUE:
          continue
        for optimizer_path in paths.get(node_id, ()):
          for variable_path in paths.get(slot.original_variable_node_id, ()):
            yield "%s/slots/%s/%s" % (optimizer_path, variable_path, slot.slot_name), attribute


def path_keys(graph):
  """{our key: TF's checkpoint key} for every value the graph describes."""
  out = {}
  for path, attribute in _attributes(graph):
    out.setdefault(path, attribute.checkpoint_key)
  return out


def variable_names(graph):
  """{our key: the variable's name} (`full_name`) for every value the graph describes."""
  out = {}
  for path, attribute in _attributes(graph):
    out.setdefault(path, attribute.full_name)
  return out


def by_path(entries, load):
  """`(entries, load)` of a checkpoint in TF's object-based layout (checkpoint_io.read)
  keyed by our object paths, and {our key: TF's key}."""
  graph = parse(load([GRAPH_KEY])[GRAPH_KEY][()])
  keys = {path: key for path, key in path_keys(graph).items() if key in entries}
  return checkpoint_io.rekeyed(entries, load, keys) + (keys,)


def _weight_aliases(paths):
  """{"<parent>/layer-<i>": "layer_with_weights-<j>"}: TF's second name for a model's layers
  that have weights, numbered in layer order (TF's checkpoint keys use it)."""
  found = collections.defaultdict(set)
  for path in paths:
    parts = path.split("/")
    for depth, part in enumerate(parts[:-1]):
      if re.fullmatch(r"layer-\d+", part):
        found["/".join(parts[:depth])].add(int(part[len("layer-"):]))
  aliases = {}
  for parent, indices in found.items():
    for j, i in enumerate(sorted(indices)):
      aliases["%s%slayer-%d" % (parent, "/" if parent else "", i)] = "layer_with_weights-%d" % j
  return aliases


def to_tf(values, names):
  """Our object-based `values` ({path: array}) and `names` ({path: variable name}) in TF's
  layout: {TF key: array}, the object graph tensor included."""
  graph = trackable_object_graph_pb2.TrackableObjectGraph()
  graph.nodes.add()
  node_of = {"": 0}
  aliases = _weight_aliases(p.partition("/slots/")[2] or p for p in values)

  def node(path):
    if path not in node_of:
      parent, _, local = path.rpartition("/")
      parent_id = node(parent)
      node_of[path] = len(graph.nodes)
      graph.nodes.add()
      if path in aliases:  # TF tracks "layer_with_weights-<j>" first
        graph.nodes[parent_id].children.add(node_id=node_of[path], local_name=aliases[path])
      graph.nodes[parent_id].children.add(node_id=node_of[path], local_name=local)
    return node_of[path]

  def tf_path(path):
    """`path` as TF's first path to the object (the one its keys are named by)."""
    parts = path.split("/")
    return "/".join(aliases.get("/".join(parts[:depth + 1]), part)
                    for depth, part in enumerate(parts))

  out = {}
  slots = [(p, p.partition("/slots/")) for p in values if "/slots/" in p]
  for path in values:
    if "/slots/" in path:
      continue
    owner, _, name = path.partition(_ATTRIBUTES)
    name = name or _VALUE
    key = tf_path(owner) + _ATTRIBUTES + name
    graph.nodes[node(owner)].attributes.add(name=name, full_name=names.get(path, ""),
                                            checkpoint_key=key)
    out[key] = values[path]
  for path, (optimizer, _, rest) in slots:
    variable, _, slot_name = rest.rpartition("/")
    key = "%s/.OPTIMIZER_SLOT/%s/%s%s%s" % (tf_path(variable), tf_path(optimizer), slot_name,
                                            _ATTRIBUTES, _VALUE)
    slot_node = len(graph.nodes)
    graph.nodes.add().attributes.add(name=_VALUE, full_name=names.get(path, ""),
                                     checkpoint_key=key)
    graph.nodes[node(optimizer)].slot_variables.add(
        original_variable_node_id=node(variable), slot_name=slot_name,
        slot_variable_node_id=slot_node)
    out[key] = values[path]
  out[GRAPH_KEY] = np.array(graph.SerializeToString(), dtype=object)
  return out
