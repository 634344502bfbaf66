"""Meta graphs: `tf.train.import_meta_graph` / `export_meta_graph` and `Saver`'s `.meta` files.

A MetaGraphDef is TF's GraphDef with its collections and its Saver. Importing one (written by
TensorFlow or by tfe_compat) imports the graph (graph_import.py), fills the collections (a
variable collection's VariableDefs become the imported variables, with their initializers
and trainability) and returns a `tf.train.Saver` over its variables by their saved names.
Exporting writes the graph as `as_graph_def()` describes it: TF's node names, op types and
collections, which TensorBoard and the importer read; operations that tfe_compat records
whole (a Keras layer call, an optimizer update, `tf.gradients`) keep their own op types,
which TensorFlow does not run.
"""
import os

from google.protobuf import message
from google.protobuf import text_format

from tfe_compat import graph_import
from tfe_compat import variables
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import versions
from tfe_compat.framework.api import export
from tfe_compat.framework.graph import GraphKeys, GraphTensor, Operation
from tfe_compat.framework.graph_util import node_name
from tfe_compat.proto import meta_graph_pb2

# Collections of VariableDefs (TF's proto-typed variable collections).
VARIABLE_COLLECTIONS = (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES,
                        GraphKeys.LOCAL_VARIABLES, GraphKeys.MODEL_VARIABLES,
                        GraphKeys.MOVING_AVERAGE_VARIABLES, GraphKeys.GLOBAL_STEP,
                        GraphKeys.METRIC_VARIABLES, "concatenated_variables")


def parse_file(path, proto, formats=("binary", "text")):
  """`proto` read from the file at `path`, in the first of `formats` that parses it (TF's
  IOError when none does)."""
  with open(path, "rb") as f:
    data = f.read()
  for form in formats:
    try:
      if form == "binary":
        proto.ParseFromString(data)
      else:
        text_format.Merge(data.decode("utf-8"), proto)
      return proto
    except (message.DecodeError, text_format.ParseError) as error:
      proto.Clear()
      failure = error
  raise IOError("Cannot parse file %s: %s." % (path, failure))


def read_meta_graph_file(filename):
  """The MetaGraphDef of a binary or text `.meta` file."""
  if not os.path.exists(filename):
    raise IOError("File %s does not exist." % filename)
  return parse_file(filename, meta_graph_pb2.MetaGraphDef())


def _variable_def(value):
  variable_def = meta_graph_pb2.VariableDef()
  variable_def.ParseFromString(value)
  return variable_def


def _prefixed(prefix, name):
  return prefix + name.lstrip("^")


def _variable(graph, variable_def, prefix):
  """The imported Variable a VariableDef describes, given its initializer and trainability."""
  op = graph.get_operation_by_name(_prefixed(prefix, node_name(variable_def.variable_name)))
  var = getattr(op, "variable", None)
  if var is None:
    raise ValueError("The VariableDef of %s names an operation that is not a variable (%s)."
                     % (variable_def.variable_name, op.type))
  if variable_def.initializer_name:
    var._initializer_op = graph.get_operation_by_name(
        _prefixed(prefix, variable_def.initializer_name))
    var._initializer_op.initializes = var
  if variable_def.initial_value_name:
    var._initial_value = graph.get_tensor_by_name(
        _prefixed(prefix, variable_def.initial_value_name))
  if variable_def.trainable:
    var._trainable = True
  return var


def _import_collections(graph, meta_graph, prefix):
  collections = meta_graph.collection_def
  for key in collections:
    collection = collections[key]
    kind = collection.WhichOneof("kind")
    if kind == "node_list":
      for name in collection.node_list.value:
        graph.add_to_collection(key, graph.as_graph_element(_prefixed(prefix, name)))
    elif kind == "bytes_list" and key in VARIABLE_COLLECTIONS:
      for value in collection.bytes_list.value:
        var = _variable(graph, _variable_def(value), prefix)
        if key == GraphKeys.TRAINABLE_VARIABLES:
          var._trainable = True
        graph.add_to_collection(key, var)
    elif kind in ("int64_list", "float_list"):
      for value in getattr(collection, kind).value:
        graph.add_to_collection(key, value)
    # other bytes lists (TF 1.x control-flow contexts, queue runners, savers) are skipped


@export("train.import_meta_graph")
def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
  """Imports a meta graph into the default graph; the Saver of its variables (None when it
  has none)."""
  from tfe_compat.train import saver as saver_lib  # pylint: disable=import-outside-toplevel
  meta_graph = meta_graph_or_file
  if not isinstance(meta_graph, meta_graph_pb2.MetaGraphDef):
    if hasattr(meta_graph, "SerializeToString"):
      meta_graph = meta_graph_pb2.MetaGraphDef.FromString(meta_graph.SerializeToString())
    else:
      meta_graph = read_meta_graph_file(os.fspath(meta_graph))
  graph = graph_lib.get_default_graph()
  scope = ""
  if import_scope:
    with graph.name_scope(import_scope) as scope:
      pass
  graph_import.import_nodes(graph, meta_graph.graph_def, scope, kwargs.get("input_map"),
                            clear_devices=clear_devices)
  _import_collections(graph, meta_graph, scope)
  saved = {var._handle_name[len(scope):]: var for var in
           graph.get_collection(GraphKeys.GLOBAL_VARIABLES)
           if isinstance(var, variables.ResourceVariable) and
           var._handle_name.startswith(scope)}
  if not saved:
    return None
  saver_def = meta_graph.saver_def
  if meta_graph.HasField("saver_def"):
    return saver_lib.Saver(saved, max_to_keep=saver_def.max_to_keep,
                           keep_checkpoint_every_n_hours=saver_def.keep_checkpoint_every_n_hours)
  return saver_lib.Saver(saved)


def _collection_def(items):
  """A CollectionDef of a collection's items (None for items TF does not serialize)."""
  collection = meta_graph_pb2.CollectionDef()
  if all(isinstance(x, variables.ResourceVariable) and x._graph is not None for x in items):
    collection.bytes_list.value.extend(_to_variable_def(v).SerializeToString() for v in items)
  elif all(isinstance(x, (GraphTensor, Operation)) for x in items):
    collection.node_list.value.extend(x.name for x in items)
  elif all(isinstance(x, int) and not isinstance(x, bool) for x in items):
    collection.int64_list.value.extend(items)
  elif all(isinstance(x, float) for x in items):
    collection.float_list.value.extend(items)
  else:
    return None
  return collection


def _to_variable_def(var):
  variable_def = meta_graph_pb2.VariableDef(
      variable_name=var._variable_op.name + ":0", trainable=var.trainable,
      is_resource=var._variable_op.type == "VarHandleOp")
  if var._initializer_op is not None:
    variable_def.initializer_name = var._initializer_op.name
  if var._initial_value is not None:
    variable_def.initial_value_name = var._initial_value.name
  return variable_def


@export("train.export_meta_graph")
def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False,
                      strip_default_attrs=False, save_debug_info=False, **kwargs):
  """The MetaGraphDef of `graph` (default: the default graph), written to `filename` if given.
  (`strip_default_attrs` and `clear_extraneous_savers` change nothing here: tfe_compat's
  NodeDefs carry no default-valued attributes of their own and its Savers add no nodes.)"""
  if export_scope is not None or save_debug_info:
    raise NotImplementedError(
        "export_meta_graph(%s) is not supported by tfe_compat: it exports the whole graph "
        "without debug information." % ("export_scope=%r" % export_scope
                                         if export_scope is not None else "save_debug_info=True"))
  if graph is None and graph_lib.building() is None:
    raise RuntimeError("Exporting/importing meta graphs is not supported when eager execution "
                       "is enabled. No graph exists when eager execution is enabled.")
  graph = graph or graph_lib.get_default_graph()
  meta_graph = meta_graph_pb2.MetaGraphDef()
  meta_graph.meta_info_def.meta_graph_version = versions.VERSION
  meta_graph.meta_info_def.tensorflow_version = versions.VERSION
  meta_graph.meta_info_def.tensorflow_git_version = versions.GIT_VERSION
  if meta_info_def is not None:
    meta_graph.meta_info_def.MergeFromString(meta_info_def.SerializeToString())
  meta_graph.graph_def.CopyFrom(graph_def if graph_def is not None else graph.as_graph_def())
  if clear_devices:
    for node in meta_graph.graph_def.node:
      node.device = ""
  if saver_def is not None:
    meta_graph.saver_def.MergeFromString(saver_def.SerializeToString())
  for key in collection_list if collection_list is not None else graph.get_all_collection_keys():
    items = graph.get_collection(key)
    collection = _collection_def(items) if items else None
    if collection is not None:
      meta_graph.collection_def[key].CopyFrom(collection)
  if filename:
    _write(meta_graph, filename, as_text)
  return meta_graph


def _write(meta_graph, filename, as_text):
  try:
    with open(filename, "w" if as_text else "wb") as f:
      f.write(text_format.MessageToString(meta_graph) if as_text
              else meta_graph.SerializeToString())
  except OSError as error:
    raise errors.NotFoundError(None, None, "%s; No such file or directory" % error) from None


def saver_def_of(saver):
  """The SaverDef TF writes for a V2 Saver (its options; tfe_compat has no save ops)."""
  return meta_graph_pb2.SaverDef(
      filename_tensor_name="save/Const:0", save_tensor_name="save/control_dependency:0",
      restore_op_name="save/restore_all", max_to_keep=saver._max_to_keep or 0,
      keep_checkpoint_every_n_hours=saver._keep_every / 3600.0,
      version=meta_graph_pb2.SaverDef.V2)
