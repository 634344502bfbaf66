"""tf.import_graph_def and tf.train.import_meta_graph on graphs that TensorFlow wrote.

tests/data/tf_graphs holds TF 2.21's `compat.v1` programs (make_golden.py): the getting-started
linear fit with reference and with resource variables (meta graph + checkpoint, a global
step), an MLP trained with Adam, a frozen CNN, TF 1.x conditionals and while loops (a
tf.while_loop, a frozen tf.nn.dynamic_rnn); golden.json holds TensorFlow's values.
"""
import json
import os

import numpy as np
import pytest

import tfe_compat as tf

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "tf_graphs")
with open(os.path.join(DATA, "golden.json")) as _f:
  GOLDEN = json.load(_f)
X, Y = [1., 2., 3., 4.], [0., -1., -2., -3.]


def _frozen_cnn():
  graph_def = tf.GraphDef()
  with open(os.path.join(DATA, "frozen_cnn.pb"), "rb") as f:
    graph_def.ParseFromString(f.read())
  return graph_def


def test_frozen_graph_runs_with_tensorflows_values():
  digits = np.load(os.path.join(DATA, "cnn_inputs.npy"))
  with tf.Graph().as_default() as graph:
    output, top = tf.import_graph_def(_frozen_cnn(), return_elements=["output:0", "top:1"])
    assert output.name == "import/output:0" and top.dtype == tf.int32
    assert output.shape.as_list() == [None, 10]
    assert graph.get_operation_by_name("import/conv2d/Conv2D").type == "Conv2D"
    with tf.Session() as sess:
      probs, indices = sess.run([output, top], {"import/input:0": digits})
  np.testing.assert_allclose(probs, GOLDEN["frozen_cnn"]["output"], atol=1e-6)
  np.testing.assert_array_equal(indices, GOLDEN["frozen_cnn"]["top_indices"])


def test_import_names_input_map_and_errors():
  digits = np.load(os.path.join(DATA, "cnn_inputs.npy"))
  with tf.Graph().as_default() as graph:
    images = tf.placeholder(tf.float32, [2, 28, 28, 1], name="images")
    output, = tf.import_graph_def(_frozen_cnn(), input_map={"input": images},
                                  return_elements=["output:0"], name="cnn")
    again, = tf.import_graph_def(_frozen_cnn(), return_elements=["output"], name="cnn")
    assert output.name == "cnn/output:0" and again.name == "cnn_1/output"
    assert output.shape.as_list() == [2, 10]
    plain = tf.import_graph_def(_frozen_cnn(), name="")
    assert plain is None and graph.get_tensor_by_name("output:0").op.type == "Softmax"
    with tf.Session() as sess:
      np.testing.assert_allclose(sess.run(output, {images: digits}),
                                 GOLDEN["frozen_cnn"]["output"], atol=1e-6)
    with pytest.raises(ValueError, match="Duplicate node name in graph: 'input'"):
      tf.import_graph_def(_frozen_cnn(), name="")
    with pytest.raises(ValueError, match="not found in graph_def: \\[nothing:0\\]"):
      tf.import_graph_def(_frozen_cnn(), input_map={"nothing:0": images})
    with pytest.raises(TypeError, match="graph_def must be a GraphDef proto"):
      tf.import_graph_def("not a graph")
    unknown = tf.GraphDef()
    unknown.node.add(name="queue/dequeue", op="QueueDequeueV2")
    with pytest.raises(ValueError, match="op types that tfe_compat cannot import: QueueDeq"):
      tf.import_graph_def(unknown)


@pytest.mark.parametrize("kind", ["linear_ref", "linear_resource"])
def test_meta_graph_restores_and_trains_as_tensorflow(kind):
  golden = GOLDEN[kind]
  with tf.Graph().as_default() as graph:
    saver = tf.train.import_meta_graph(os.path.join(DATA, kind, "model-100.meta"))
    x, y = graph.get_tensor_by_name("x:0"), graph.get_tensor_by_name("y:0")
    loss = graph.get_tensor_by_name("loss:0")
    train = tf.get_collection("train_op")[0]
    w, b = tf.trainable_variables()
    assert [w.name, b.name] == ["W:0", "b:0"] and w.shape.as_list() == [1]
    assert [v.name for v in tf.global_variables()] == ["W:0", "b:0", "global_step:0"]
    with tf.Session() as sess:
      saver.restore(sess, tf.train.latest_checkpoint(os.path.join(DATA, kind)))
      values = sess.run([w, b, loss], {x: X, y: Y})
      np.testing.assert_allclose(values[:2], golden["saved"][:2], rtol=1e-6)
      np.testing.assert_allclose(values[2], golden["saved"][2], rtol=1e-5)
      assert values[2].shape == ()  # the sum over every axis of an unknown-rank input
      sess.run(train, {x: X, y: Y})
      w_value, b_value, step = sess.run([w, b, tf.train.get_global_step()])
      np.testing.assert_allclose([w_value, b_value], golden["after_step"][:2], rtol=1e-6)
      assert step == golden["after_step"][2] == 101
    with tf.Session() as sess:  # the imported initializers
      sess.run(tf.global_variables_initializer())
      np.testing.assert_allclose(sess.run([w, b]), [[.3], [-.3]])
      assert sess.run(tf.train.get_global_step()) == 0


def test_meta_graph_with_adam_and_layers():
  golden = GOLDEN["mlp_adam"]
  images = np.load(os.path.join(DATA, "mlp_inputs.npy"))
  labels = np.load(os.path.join(DATA, "mlp_labels.npy"))
  with tf.Graph().as_default() as graph:
    saver = tf.train.import_meta_graph(os.path.join(DATA, "mlp_adam", "model.meta"))
    x, y = tf.get_collection("inputs")
    probs = graph.get_tensor_by_name("probabilities:0")
    accuracy = graph.get_tensor_by_name("accuracy:0")
    loss, = tf.get_collection(tf.GraphKeys.LOSSES)
    train = tf.get_collection("train_op")[0]
    assert [v.name for v in tf.trainable_variables()] == [
        "hidden/kernel:0", "hidden/bias:0", "logits/kernel:0", "logits/bias:0"]
    feed = {x: images, y: labels}
    with tf.Session() as sess:
      saver.restore(sess, os.path.join(DATA, "mlp_adam", "model"))
      p, a, l = sess.run([probs, accuracy, loss], feed)
      np.testing.assert_allclose(p[:2], golden["probs"], atol=1e-6)
      assert a == pytest.approx(golden["accuracy"]) and l == pytest.approx(golden["loss"])
      for _ in range(3):
        sess.run(train, feed)
      assert sess.run(loss, feed) == pytest.approx(golden["loss_after_3"], rel=1e-5)


def test_meta_graph_file_errors(tmp_path):
  with tf.Graph().as_default():
    with pytest.raises(IOError, match="does not exist"):
      tf.train.import_meta_graph(str(tmp_path / "missing.meta"))


def test_saver_writes_meta_graphs(tmp_path):
  """tfe_compat's Saver writes `<checkpoint>.meta` (TF's MetaGraphDef: the graph as TensorBoard
  shows it, the collections, the SaverDef). Its variables, placeholders and constants import
  again; calls it recorded whole are refused by name, never rebuilt wrong."""
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.], [2.]], name="w")
    tf.train.get_or_create_global_step()
    read = tf.identity(w.read_value(), name="read")
    tf.add_to_collection("inputs", x)
    saver = tf.train.Saver(max_to_keep=3)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      w.load([[3.], [4.]], sess)
      path = saver.save(sess, str(tmp_path / "model"), global_step=7)
    meta = tf.train.export_meta_graph()
    assert not meta.HasField("saver_def")
    assert read.op.node_def.attr["_tfe_call"].b
  assert path.endswith("model-7")
  written = tf.MetaGraphDef()
  with open(path + ".meta", "rb") as f:
    written.ParseFromString(f.read())
  assert written.saver_def.max_to_keep == 3
  assert written.saver_def.version == tf.train.SaverDef.V2
  assert written.meta_info_def.tensorflow_version == tf.VERSION
  assert sorted(written.collection_def) == ["global_step", "inputs", "trainable_variables",
                                            "variables"]
  with tf.Graph().as_default() as graph:
    with pytest.raises(ValueError, match=r"written by tfe_compat.*read \(Identity\)"):
      tf.train.import_meta_graph(path + ".meta")
  del meta.graph_def.node[[n.name for n in meta.graph_def.node].index("read")]
  with tf.Graph().as_default() as graph:
    saver = tf.train.import_meta_graph(meta)
    assert [v.name for v in tf.global_variables()] == ["w:0", "global_step:0"]
    assert [v.name for v in tf.trainable_variables()] == ["w:0"]
    assert tf.get_collection("inputs")[0].shape.as_list() == [None, 2]
    assert tf.train.get_global_step() is graph.get_collection("global_step")[0]
    with tf.Session() as sess:
      saver.restore(sess, path)
      np.testing.assert_allclose(sess.run("w:0"), [[3.], [4.]])
      assert sess.run(tf.train.get_global_step()) == 0
      sess.run(tf.global_variables_initializer())
      np.testing.assert_allclose(sess.run("w:0"), [[1.], [2.]])


def test_meta_graph_into_a_scope_with_cleared_devices():
  with tf.Graph().as_default() as graph:
    saver = tf.train.import_meta_graph(os.path.join(DATA, "linear_ref", "model-100.meta"),
                                       import_scope="model", clear_devices=True)
    assert [v.name for v in tf.trainable_variables()] == ["model/W:0", "model/b:0"]
    loss = graph.get_tensor_by_name("model/loss:0")
    feed = {"model/x:0": X, "model/y:0": Y}
    with tf.Session() as sess:
      saver.restore(sess, os.path.join(DATA, "linear_ref", "model-100"))  # names without scope
      assert sess.run(loss, feed) == pytest.approx(GOLDEN["linear_ref"]["saved"][2], rel=1e-5)


def test_tf1_conditionals_select_the_live_branch():
  """A TF 1.x graph with `tf.cond` (Switch/Merge): batch norm and a counter behind a training
  flag. Both branches are computed; the live one is selected and the other assigns nothing."""
  golden = GOLDEN["cond"]
  batch = np.load(os.path.join(DATA, "cond_inputs.npy"))
  with tf.Graph().as_default() as graph:
    saver = tf.train.import_meta_graph(os.path.join(DATA, "cond", "model.meta"))
    assert {"Switch", "Merge"} <= {op.type for op in graph.get_operations()}
    output = graph.get_tensor_by_name("output:0")
    x, training = graph.get_tensor_by_name("x:0"), graph.get_tensor_by_name("training:0")
    counted = graph.get_tensor_by_name("count/Merge:0")
    variables = {v.op.name: v for v in tf.global_variables()}
    with tf.Session() as sess:
      saver.restore(sess, os.path.join(DATA, "cond", "model"))  # saved after the updates
      sess.run([variables[name].initializer
                for name in ("bn/moving_mean", "bn/moving_variance", "counter")])
      np.testing.assert_allclose(sess.run(output, {x: batch}), golden["inference"], atol=1e-6)
      np.testing.assert_allclose(sess.run(output, {x: batch, training: True}),
                                 golden["training"], atol=1e-5)
      assert [float(sess.run(counted)), float(sess.run(counted, {training: True})),
              float(sess.run(counted, {training: True})),
              float(sess.run(counted))] == golden["counted"]
      sess.run(graph.get_operation_by_name("updates"), {x: batch, training: True})
      np.testing.assert_allclose(sess.run(variables["bn/moving_mean"]), golden["moving_mean"],
                                 atol=1e-7)


def test_op_kernels_against_tensorflow():
  """One frozen graph of ~50 op types (op_zoo.pb), every output against TF's."""
  graph_def = tf.GraphDef()
  with open(os.path.join(DATA, "op_zoo.pb"), "rb") as f:
    graph_def.ParseFromString(f.read())
  golden = np.load(os.path.join(DATA, "op_zoo.npz"))
  names = sorted(k for k in golden.files if k.startswith("out_"))
  with tf.Graph().as_default():
    outputs = tf.import_graph_def(graph_def, return_elements=[n + ":0" for n in names],
                                  name="")
    with tf.Session() as sess:
      values = sess.run(outputs, {"a:0": golden["a"], "v:0": golden["v"], "i:0": golden["i"]})
  for name, value in zip(names, values):
    want = golden[name]
    assert value.dtype == want.dtype and value.shape == want.shape, name
    np.testing.assert_allclose(value, want, rtol=2e-5, atol=2e-6, err_msg=name)


def _graph_def(name):
  graph_def = tf.GraphDef()
  with open(os.path.join(DATA, name), "rb") as f:
    graph_def.ParseFromString(f.read())
  return graph_def


def test_tf1_while_loop_runs_as_one_operation():
  """A TF 1.x `tf.while_loop` (Enter/Merge/Switch/LoopCond/NextIteration/Exit): two loop
  variables, a loop-invariant placeholder, maximum_iterations; one WhileLoop operation."""
  golden = GOLDEN["while_loop"]
  with tf.Graph().as_default() as graph:
    steps, acc = tf.import_graph_def(_graph_def("while_loop.pb"),
                                     return_elements=["steps:0", "acc:0"], name="")
    assert steps.dtype == tf.int32 and acc.shape.as_list() == [3]
    types = [op.type for op in graph.get_operations()]
    assert types.count("WhileLoop") == 1 and types.count("Exit") == 3  # and the counter
    assert not {"Enter", "NextIteration", "LoopCond"} & set(types)
    with tf.Session() as sess:
      for n, (want_steps, want_acc) in golden["runs"].items():
        got_steps, got_acc = sess.run([steps, acc], {"x:0": golden["x"], "n:0": int(n)})
        assert got_steps == want_steps  # 20 iterations asked, maximum_iterations=7 ran
        np.testing.assert_allclose(got_acc, want_acc, rtol=1e-5, atol=1e-6)


def test_tf1_conditional_inside_a_while_loop():
  """A `tf.cond` in a while loop's body (one branch a constant, live through its control
  input): both branches computed in each iteration, the live one merged."""
  with tf.Graph().as_default():
    out, = tf.import_graph_def(_graph_def("while_cond.pb"), return_elements=["out:0"],
                               name="")
    with tf.Session() as sess:
      for x, n, want in GOLDEN["while_cond"]["runs"]:
        np.testing.assert_allclose(sess.run(out, {"x:0": x, "n:0": n}), want, rtol=1e-6)


def test_frozen_dynamic_rnn_with_tensorflows_values():
  """A frozen `tf.nn.dynamic_rnn` over an LSTMCell: its TensorArrays (input scattered, output
  written per step, gathered after the loop) are arrays of a fixed size; the batch size is
  unknown until a run feeds it."""
  golden = GOLDEN["dynamic_rnn"]
  inputs = np.asarray(golden["inputs"], np.float32)
  with tf.Graph().as_default():
    outputs, c, h = tf.import_graph_def(_graph_def("dynamic_rnn.pb"), name="rnn_import",
                                        return_elements=["outputs:0", "state_c:0", "state_h:0"])
    assert outputs.shape.as_list() == [None, 5, 4] and h.shape.as_list() == [None, 4]
    with tf.Session() as sess:
      feed = "rnn_import/inputs:0"
      values = sess.run([outputs, c, h], {feed: inputs})
      for value, key in zip(values, ["outputs", "state_c", "state_h"]):
        np.testing.assert_allclose(value, golden[key], rtol=1e-5, atol=1e-6, err_msg=key)
      one = sess.run(outputs, {feed: inputs[1:]})  # another batch size: another program
      np.testing.assert_allclose(one, golden["outputs"][1:], rtol=1e-5, atol=1e-6)


def test_unsupported_loops_are_refused_by_name():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="nested TF 1.x while loops"):
      tf.import_graph_def(_graph_def("while_nested.pb"))
    with pytest.raises(ValueError, match="cannot import: .*StackPopV2.*StackV2"):
      tf.import_graph_def(_graph_def("while_grad.pb"))  # tf.gradients of a while loop
    stateful = _graph_def("while_loop.pb")
    node = [n for n in stateful.node if n.name == "loop/mul"][0]
    node.op = "AssignAdd"
    with pytest.raises(ValueError, match="assignments inside a TF 1.x while loop: "
                                         "'loop/mul' \\(AssignAdd\\)"):
      tf.import_graph_def(stateful)


def test_tf1_summaries_in_an_imported_graph():
  """ScalarSummary / HistogramSummary / MergeSummary nodes give TF's serialized Summary."""
  graph_def = tf.GraphDef()
  with open(os.path.join(DATA, "summaries.pb"), "rb") as f:
    graph_def.ParseFromString(f.read())
  want = tf.Summary()
  with open(os.path.join(DATA, "summaries_golden.bin"), "rb") as f:
    want.ParseFromString(f.read())
  with tf.Graph().as_default():
    merged, = tf.import_graph_def(graph_def, return_elements=["merged:0"], name="")
    assert merged.dtype == tf.string
    with tf.Session() as sess:
      got = tf.Summary.FromString(
          sess.run(merged, {"values:0": np.linspace(-2., 3., 11, dtype=np.float32)}))
  assert [v.tag for v in got.value] == [v.tag for v in want.value] and len(want.value) == 2
  assert got.value[0].simple_value == pytest.approx(want.value[0].simple_value)
  assert got.value[1].histo == want.value[1].histo


def test_saved_model_loads_with_its_signature():
  """tf.saved_model.loader.load of a SavedModel that TF's simple_save wrote."""
  export_dir = os.path.join(DATA, "saved_model")
  golden = GOLDEN["saved_model"]
  assert tf.saved_model.loader.maybe_saved_model_directory(export_dir)
  assert not tf.saved_model.loader.maybe_saved_model_directory(DATA)
  with tf.Graph().as_default() as graph:
    with tf.Session() as sess:
      meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING],
                                        export_dir)
      signature = meta.signature_def[
          tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
      x = graph.get_tensor_by_name(signature.inputs["x"].name)
      scores = tf.saved_model.utils.get_tensor_from_tensor_info(signature.outputs["scores"])
      info = tf.saved_model.utils.build_tensor_info(x)
      assert info == signature.inputs["x"]  # name, dtype and shape (?, 3), as TF wrote them
      np.testing.assert_allclose(sess.run(scores, {x: golden["sample"]}), golden["scores"],
                                 rtol=1e-6)
  with tf.Graph().as_default(), tf.Session() as sess:
    with pytest.raises(RuntimeError, match="could not be found in SavedModel"):
      tf.saved_model.loader.load(sess, ["train"], export_dir)
    with pytest.raises(IOError, match="SavedModel file does not exist"):
      tf.saved_model.loader.load(sess, ["serve"], DATA)
    with pytest.raises(NotImplementedError, match="does not write them"):
      tf.saved_model.simple_save(sess, "unused", {}, {})


def test_freezing_an_imported_meta_graph():
  """convert_variables_to_constants: TF's own freezing workflow on a restored TF meta graph;
  the frozen graph (variables as constants, reads as identities) imports and computes alike."""
  golden = GOLDEN["mlp_adam"]
  images = np.load(os.path.join(DATA, "mlp_inputs.npy"))
  with tf.Graph().as_default() as graph:
    saver = tf.train.import_meta_graph(os.path.join(DATA, "mlp_adam", "model.meta"))
    with tf.Session() as sess:
      saver.restore(sess, os.path.join(DATA, "mlp_adam", "model"))
      frozen = tf.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(),
                                                            ["probabilities"])
  assert not {"VarHandleOp", "ReadVariableOp", "VariableV2"} & {n.op for n in frozen.node}
  kernel = [n for n in frozen.node if n.name == "hidden/kernel"][0]
  assert kernel.op == "Const" and tf.make_ndarray(kernel.attr["value"].tensor).shape == (64, 32)
  with tf.Graph().as_default():
    probs, = tf.import_graph_def(frozen, return_elements=["probabilities:0"], name="")
    with tf.Session() as sess:
      np.testing.assert_allclose(sess.run(probs, {"images:0": images})[:2], golden["probs"],
                                 atol=1e-6)


def test_export_options_not_provided_raise():
  with tf.Graph().as_default():
    tf.Variable(1., name="scoped/v")
    with pytest.raises(NotImplementedError, match="export_scope='scoped'"):
      tf.train.export_meta_graph(export_scope="scoped")
    with pytest.raises(NotImplementedError, match="save_debug_info=True"):
      tf.train.export_meta_graph(save_debug_info=True)
