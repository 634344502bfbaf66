"""tf.graph_util's GraphDef transforms; goldens from TF 2.21's tf.compat.v1.graph_util on the
same GraphDef (TF 1.15's error text, from its source, where TF 2.21 rewords it)."""
import pytest
from tensorboardX.proto import graph_pb2

import tfe_compat as tf


def _graph():
  graph = graph_pb2.GraphDef()

  def node(name, op, inputs=(), dtype=None):
    n = graph.node.add(name=name, op=op)
    n.input.extend(inputs)
    if dtype is not None:
      n.attr["dtype"].type = dtype

  node("x", "Placeholder")
  node("c", "Const", dtype=3)
  node("s", "Const", dtype=7)
  node("chk", "CheckNumerics", ["x"])
  node("id", "Identity", ["x"])
  node("id2", "Identity", ["id:0"])
  node("add", "Add", ["id2", "chk"])
  node("other", "Mul", ["x", "x"])
  node("out", "Identity", ["add", "^other"])
  graph.versions.producer = 27
  return graph


def test_extract_sub_graph_keeps_the_dependencies_in_order():
  sub = tf.graph_util.extract_sub_graph(_graph(), ["add"])
  assert [n.name for n in sub.node] == ["x", "chk", "id", "id2", "add"]
  assert sub.versions.producer == 27
  with pytest.raises(TypeError, match="^dest_nodes must be a list.$"):
    tf.graph_util.extract_sub_graph(_graph(), "add")
  with pytest.raises(AssertionError, match="nope is not in graph"):
    tf.graph_util.extract_sub_graph(_graph(), ["nope"])
  with pytest.raises(TypeError, match="graph_def must be a graph_pb2.GraphDef proto."):
    tf.graph_util.extract_sub_graph(b"", ["add"])


def test_remove_training_nodes_drops_checks_and_splices_identities():
  out = tf.graph_util.remove_training_nodes(_graph())
  assert [(n.name, list(n.input)) for n in out.node] == [
      ("x", []), ("c", []), ("s", []), ("add", ["id:0"]), ("other", ["x", "x"]),
      ("out", ["add", "^other"])]
  assert out.SerializeToString().hex() == (
      "0a100a0178120b506c616365686f6c6465720a170a01631205436f6e73742a0b0a056474797065120230030a"
      "170a01731205436f6e73742a0b0a056474797065120230070a100a0361646412034164641a0469643a300a12"
      "0a056f7468657212034d756c1a01781a01780a1c0a036f757412084964656e746974791a036164641a065e6f"
      "74686572")
  protected = tf.graph_util.remove_training_nodes(_graph(), protected_nodes=["id"])
  assert [(n.name, list(n.input)) for n in protected.node] == [
      ("x", []), ("c", []), ("s", []), ("id", ["x"]), ("add", ["id:0"]),
      ("other", ["x", "x"]), ("out", ["add", "^other"])]


def test_must_run_on_cpu_and_freezing_under_eager_execution():
  graph = _graph()
  assert [tf.graph_util.must_run_on_cpu(n) for n in graph.node] == [
      False, True, True, False, False, False, False, False, False]
  variable = graph.node.add(name="v", op="VariableV2")
  assert tf.graph_util.must_run_on_cpu(variable, pin_variables_on_cpu=True)
  frozen = tf.graph_util.convert_variables_to_constants(tf.Session(), _graph(), ["add"])
  assert [n.name for n in frozen.node] == ["x", "chk", "id", "id2", "add"]
  graph.node[6].input.append("v")
  with pytest.raises(RuntimeError):
    tf.graph_util.convert_variables_to_constants(tf.Session(), graph, ["add"])
