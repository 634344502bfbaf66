"""`tf.saved_model` (TF 1.x): loading the SavedModels that TensorFlow 1.x programs exported.

A SavedModel directory holds `saved_model.pb` (meta graphs, each with its tags and
signatures) and `variables/variables.*` (a checkpoint). `loader.load(sess, tags, dir)`
imports the meta graph whose tags match (train/meta_graph.py), restores its variables into
`sess` and runs its main op, as TensorFlow 1.15 does; it returns the MetaGraphDef, whose
`signature_def` names the input and output tensors. Writing SavedModels is not provided.
"""
import os

from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import node_defs
from tfe_compat.framework.api import export
from tfe_compat.proto import meta_graph_pb2
from tfe_compat.train import meta_graph

export("saved_model.tag_constants.SERVING", "saved_model.SERVING")("serve")
export("saved_model.tag_constants.TRAINING", "saved_model.TRAINING")("train")
export("saved_model.tag_constants.GPU", "saved_model.GPU")("gpu")
export("saved_model.tag_constants.TPU", "saved_model.TPU")("tpu")
export("saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY",
       "saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY")("serving_default")
export("saved_model.signature_constants.PREDICT_METHOD_NAME",
       "saved_model.PREDICT_METHOD_NAME")("tensorflow/serving/predict")
export("saved_model.signature_constants.PREDICT_INPUTS",
       "saved_model.PREDICT_INPUTS")("inputs")
export("saved_model.signature_constants.PREDICT_OUTPUTS",
       "saved_model.PREDICT_OUTPUTS")("outputs")
export("saved_model.constants.SAVED_MODEL_FILENAME_PB")("saved_model.pb")
export("saved_model.constants.SAVED_MODEL_FILENAME_PBTXT")("saved_model.pbtxt")
export("saved_model.constants.MAIN_OP_KEY", "saved_model.MAIN_OP_KEY")("saved_model_main_op")
export("saved_model.constants.LEGACY_INIT_OP_KEY",
       "saved_model.LEGACY_INIT_OP_KEY")("legacy_init_op")

_INIT_OP_KEYS = ("saved_model_main_op", "legacy_init_op")


def _read(export_dir):
  """The SavedModel proto of `export_dir` (binary or text), TF's IOErrors otherwise."""
  for filename, formats in (("saved_model.pb", ("binary",)), ("saved_model.pbtxt", ("text",))):
    path = os.path.join(export_dir, filename)
    if os.path.exists(path):
      return meta_graph.parse_file(path, meta_graph_pb2.SavedModel(), formats)
  raise IOError("SavedModel file does not exist at: %s/{saved_model.pbtxt|saved_model.pb}"
                % export_dir)


def _meta_graph_of(saved_model, tags):
  available = [set(m.meta_info_def.tags) for m in saved_model.meta_graphs]
  for meta_graph_def, tag_set in zip(saved_model.meta_graphs, available):
    if tag_set == set(tags):
      return meta_graph_def
  raise RuntimeError(
      "MetaGraphDef associated with tags " + str(tags).strip("[]") + " could not be found "
      "in SavedModel. To inspect available tag-sets in the SavedModel, please use the "
      "SavedModel CLI: `saved_model_cli`\navailable_tags: " + str(available))


@export("saved_model.loader.load", "saved_model.load")
def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
  """Imports the meta graph tagged `tags` into `sess`'s graph, restores its variables and
  runs its main op; returns its MetaGraphDef."""
  export_dir = os.fspath(export_dir)
  meta_graph_def = _meta_graph_of(_read(export_dir), tags)
  with sess.graph.as_default():
    saver = meta_graph.import_meta_graph(meta_graph_def, import_scope=import_scope,
                                         **saver_kwargs)
    if saver is not None:
      saver.restore(sess, os.path.join(export_dir, "variables", "variables"))
    for key in _INIT_OP_KEYS:
      init_ops = graph_lib.get_default_graph().get_collection(key)
      if len(init_ops) > 1:
        raise RuntimeError("Expected exactly one SavedModel init op. Found: %s" % init_ops)
      if init_ops:
        sess.run(init_ops)
        break
  return meta_graph_def


@export("saved_model.loader.maybe_saved_model_directory",
        "saved_model.maybe_saved_model_directory", "saved_model.contains_saved_model")
def maybe_saved_model_directory(export_dir):
  """Whether `export_dir` holds a `saved_model.pb` or `saved_model.pbtxt`."""
  return any(os.path.exists(os.path.join(os.fspath(export_dir), name))
             for name in ("saved_model.pb", "saved_model.pbtxt"))


@export("saved_model.utils.get_tensor_from_tensor_info",
        "saved_model.get_tensor_from_tensor_info")
def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
  """The tensor (or SparseTensor) a signature's TensorInfo names, in `graph`."""
  from tfe_compat.ops.string_ops import SparseTensor  # pylint: disable=import-outside-toplevel
  graph = graph or graph_lib.get_default_graph()
  prefix = import_scope + "/" if import_scope else ""
  encoding = tensor_info.WhichOneof("encoding")
  if encoding == "name":
    return graph.get_tensor_by_name(prefix + tensor_info.name)
  if encoding == "coo_sparse":
    coo = tensor_info.coo_sparse
    return SparseTensor(*[graph.get_tensor_by_name(prefix + name) for name in (
        coo.indices_tensor_name, coo.values_tensor_name, coo.dense_shape_tensor_name)])
  raise ValueError("Invalid TensorInfo.encoding: %s" % encoding)


@export("saved_model.utils.build_tensor_info", "saved_model.build_tensor_info")
def build_tensor_info(tensor):
  """The TensorInfo of a graph tensor: its name, dtype and static shape."""
  if graph_lib.building() is None:
    raise RuntimeError("build_tensor_info is not supported in Eager mode.")
  info = meta_graph_pb2.TensorInfo(name=tensor.name, dtype=tensor.dtype.as_datatype_enum)
  node_defs.shape_proto(tensor.shape, info.tensor_shape)
  return info


def _no_writing(name):
  def refuse(*args, **kwargs):
    raise NotImplementedError(
        "%s is not supported by tfe_compat: it loads SavedModels that TensorFlow wrote "
        "(tf.saved_model.loader.load) but does not write them. Save the variables with "
        "tf.train.Saver (TF's checkpoint format with TFE_CHECKPOINT_FORMAT=tf) and rebuild "
        "the graph with its code." % name)
  refuse.__name__ = name.rpartition(".")[2]
  return refuse


export("saved_model.simple_save")(_no_writing("tf.saved_model.simple_save"))
export("saved_model.builder.SavedModelBuilder", "saved_model.Builder")(
    _no_writing("tf.saved_model.builder.SavedModelBuilder"))
