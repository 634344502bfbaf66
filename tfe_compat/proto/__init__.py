"""TensorFlow's protocol buffer messages, from compiled schemas.

tensorboardX ships TF's framework, summary and event protos compiled (package
`tensorboardX`); TF's example, feature, cluster, config, step_stats and meta graph protos are compiled
here (package `tfe_compat`). Field names, numbers and types are TF's, so their
serializations are TF's. `message_names` maps TF's full message names ("tensorflow.Example")
to these classes' names in protobuf's default descriptor pool.
"""
from tensorboardX.proto import attr_value_pb2, event_pb2, graph_pb2, node_def_pb2, summary_pb2

from tfe_compat.framework.api import export
from tfe_compat.proto import cluster_pb2, config_pb2, meta_graph_pb2

export("AttrValue")(attr_value_pb2.AttrValue)
export("NameAttrList")(attr_value_pb2.NameAttrList)
export("NodeDef")(node_def_pb2.NodeDef)
export("GraphDef")(graph_pb2.GraphDef)
export("LogMessage")(event_pb2.LogMessage)
export("SessionLog", "summary.SessionLog")(event_pb2.SessionLog)
export("summary.TaggedRunMetadata")(event_pb2.TaggedRunMetadata)
export("summary.SummaryDescription")(summary_pb2.SummaryDescription)
export("MetaGraphDef")(meta_graph_pb2.MetaGraphDef)
export("train.SaverDef")(meta_graph_pb2.SaverDef)
export("train.ClusterDef")(cluster_pb2.ClusterDef)
export("train.JobDef")(cluster_pb2.JobDef)
for _name in ("ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunOptions",
              "RunMetadata"):
  export(_name)(getattr(config_pb2, _name))

_PACKAGES = ("tfe_compat.", "tensorboardX.")


def message_names(name):
  """Names to look `name` up by in the default pool: itself, then for "tensorflow.X" the
  same message compiled here or by tensorboardX."""
  if name.startswith("tensorflow."):
    return [name] + [package + name[len("tensorflow."):] for package in _PACKAGES]
  return [name]
