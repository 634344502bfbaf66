"""`python -m tfe_compat.checkpoint`: look inside a checkpoint, or convert it.

  inspect PATH [--tensor NAME]   every key with its dtype and shape, as TensorFlow's
                                 inspect_checkpoint prints them (or one tensor's value)
  convert SRC DST --to tf|orbax  writes the checkpoint SRC (either format) at the prefix DST
                                 in TensorFlow's format or ours

PATH and SRC are checkpoint prefixes or directories (their latest checkpoint).
"""
import argparse
import os
import sys

import numpy as np

from tfe_compat.framework import errors
from tfe_compat.train import checkpoint_io
from tfe_compat.train import tf_bundle
from tfe_compat.train import tf_object_graph


def inspect(path, tensor=None, out=sys.stdout):
  reader = checkpoint_io.CheckpointReader(path)
  if tensor is None:
    out.write(reader.debug_string().decode() + "\n")
  elif not reader.has_tensor(tensor):
    out.write("Tensor %s not found in checkpoint\n" % tensor)
    return
  else:
    dtype, shape = reader.get_variable_to_dtype_map()[tensor], \
        reader.get_variable_to_shape_map()[tensor]
    out.write("tensor: %s (%s) %s\n%s\n" % (tensor, dtype.name, shape,
                                           reader.get_tensor(tensor)))
  total = sum(int(np.prod(s)) for s in reader.get_variable_to_shape_map().values())
  out.write("# Total number of params: %d\n" % total)


def convert(source, target, to):
  """Writes the checkpoint `source` at the prefix `target` in format `to` ("tf"/"orbax")."""
  source = checkpoint_io.CheckpointReader(source)._prefix  # pylint: disable=protected-access
  entries, load = checkpoint_io.read(source)
  if tf_bundle.is_bundle(source):
    names = {}
    if tf_object_graph.GRAPH_KEY in entries:  # TF's object-based layout: ours keys by path
      entries, load, _ = tf_object_graph.by_path(entries, load)
      graph = tf_object_graph.parse(checkpoint_io.read(source)[1](
          [tf_object_graph.GRAPH_KEY])[tf_object_graph.GRAPH_KEY][()])
      names = tf_object_graph.variable_names(graph)
  else:
    names = checkpoint_io.read_names(source)
  values = load()
  if to == "tf" and names:  # ours, object-based
    values = tf_object_graph.to_tf(values, names)
  checkpoint_io.write(target, values, names, format=to)
  checkpoint_io.update_checkpoint_state(os.path.dirname(os.path.abspath(target)), target,
                                        [target])
  return target


def main(argv=None):
  parser = argparse.ArgumentParser(prog="python -m tfe_compat.checkpoint",
                                   description=__doc__.splitlines()[0])
  commands = parser.add_subparsers(dest="command", required=True)
  inspect_args = commands.add_parser("inspect", help="list a checkpoint's tensors")
  inspect_args.add_argument("path")
  inspect_args.add_argument("--tensor", default=None)
  convert_args = commands.add_parser("convert", help="convert between formats")
  convert_args.add_argument("source")
  convert_args.add_argument("target")
  convert_args.add_argument("--to", choices=("tf", "orbax"), required=True)
  args = parser.parse_args(argv)
  try:
    if args.command == "inspect":
      inspect(args.path, args.tensor)
    else:
      print(convert(args.source, args.target, args.to))
  except (errors.OpError, ValueError) as e:
    sys.stderr.write("%s: %s\n" % (type(e).__name__, getattr(e, "message", e)))
    return 1
  return 0


if __name__ == "__main__":
  sys.exit(main())
