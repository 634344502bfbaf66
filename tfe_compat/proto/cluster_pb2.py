"""TF's tensorflow/core/protobuf/cluster.proto (JobDef, ClusterDef; Apache-2.0, The
TensorFlow Authors) in package `tfe_compat`, built from its descriptor at import (two small
messages: no protoc step). Field names, numbers and types are TF's:

  message JobDef { string name = 1; map<int32, string> tasks = 2; }
  message ClusterDef { repeated JobDef job = 1; }
"""
from google.protobuf import descriptor_pb2
from google.protobuf import descriptor_pool
from google.protobuf import message_factory

_F = descriptor_pb2.FieldDescriptorProto


def _file():
  proto = descriptor_pb2.FileDescriptorProto(name="tfe_compat/proto/cluster.proto",
                                             package="tfe_compat", syntax="proto3")
  job = proto.message_type.add(name="JobDef")
  job.field.add(name="name", number=1, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
  job.field.add(name="tasks", number=2, type=_F.TYPE_MESSAGE, label=_F.LABEL_REPEATED,
                type_name=".tfe_compat.JobDef.TasksEntry")
  entry = job.nested_type.add(name="TasksEntry")
  entry.options.map_entry = True
  entry.field.add(name="key", number=1, type=_F.TYPE_INT32, label=_F.LABEL_OPTIONAL)
  entry.field.add(name="value", number=2, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
  cluster = proto.message_type.add(name="ClusterDef")
  cluster.field.add(name="job", number=1, type=_F.TYPE_MESSAGE, label=_F.LABEL_REPEATED,
                    type_name=".tfe_compat.JobDef")
  return proto


def _messages():
  pool = descriptor_pool.Default()
  try:
    descriptor = pool.FindFileByName("tfe_compat/proto/cluster.proto")
  except KeyError:
    descriptor = pool.Add(_file())
    descriptor = pool.FindFileByName("tfe_compat/proto/cluster.proto")
  types = descriptor.message_types_by_name
  return (message_factory.GetMessageClass(types["JobDef"]),
          message_factory.GetMessageClass(types["ClusterDef"]))


JobDef, ClusterDef = _messages()
