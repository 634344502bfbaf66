"""Graph mode: TF 1.x programs with placeholders, Sessions and graph variables.

Expected values and messages are TensorFlow 1.15's (its error words; TF 2.21's compat.v1
agrees on values); each test builds in its own `tf.Graph().as_default()` or switches the
process to graph mode (conftest.py switches back).
"""
import collections
import os
import subprocess
import sys

import numpy as np
import pytest

import tfe_compat as tf


@pytest.fixture
def graph():
  with tf.Graph().as_default() as g:
    yield g


def test_graph_tensors_have_tf_names_shapes_and_printed_forms(graph):
  x = tf.placeholder(tf.float32, [None, 64], name="x")
  W = tf.Variable(tf.zeros([64, 10]))
  y = tf.matmul(x, W)
  z = y + 1
  assert not tf.executing_eagerly()
  assert str(x) == 'Tensor("x:0", shape=(?, 64), dtype=float32)'
  assert str(y) == 'Tensor("MatMul:0", shape=(?, 10), dtype=float32)'
  assert repr(z) == "<tf.Tensor 'add:0' shape=(?, 10) dtype=float32>"
  assert z.shape.as_list() == [None, 10] and z.dtype is tf.float32
  assert repr(W) == "<tf.Variable 'Variable:0' shape=(64, 10) dtype=float32_ref>"
  assert [t.name for t in (z[0], -z, tf.shape(x), z * 2, z / 2)] == [
      "strided_slice:0", "Neg:0", "Shape:0", "mul:0", "truediv:0"]
  assert y.op.type == "MatMul" and y.op.inputs[0] is x and y.graph is graph
  assert graph.get_tensor_by_name("x:0") is x and graph.get_operation_by_name("MatMul") is y.op
  assert tf.placeholder(tf.float32).shape.ndims is None
  assert tf.shape(x)[1].op.outputs[0]._const == 64  # constant folding of static shapes
  with tf.name_scope("a"):
    first = tf.constant(1)
  with tf.name_scope("a"):
    second = tf.constant(1)
  assert (first.name, second.name) == ("a/Const:0", "a_1/Const:0")


def test_session_runs_fetch_structures_and_feeds(graph):
  x = tf.placeholder(tf.float32, [None, 3], name="x")
  total = tf.reduce_sum(x * 2.0, axis=1)
  pair = collections.namedtuple("pair", "a b")
  with tf.Session() as sess:
    assert tf.get_default_session() is sess
    out = sess.run({"t": total, "p": pair(total, [x])}, feed_dict={x: [[1, 2, 3], [4, 5, 6]]})
    np.testing.assert_allclose(out["t"], [12, 30])
    assert isinstance(out["p"], pair) and out["p"].b[0].dtype == np.float32
    assert sess.run(tf.no_op()) is None
    assert sess.run("x:0", {"x:0": [[1, 1, 1]]}).tolist() == [[1, 1, 1]]
    assert total.eval({x: [[1, 0, 0]]}).tolist() == [2.0]
    assert sess.run(tf.constant(3)) == 3 and isinstance(sess.run(tf.constant(3.0)), np.float32)


def test_graph_mode_errors_are_tfs(graph):
  x = tf.placeholder(tf.float32, [None, 64], name="x")
  y = tf.matmul(x, tf.ones([64, 10]))
  sess = tf.Session()
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"You must feed a value for placeholder tensor 'x' with dtype float "
                           r"and shape \[\?,64\]"):
    sess.run(y)
  with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3, 5\) for Tensor 'x:0', "
                                       r"which has shape '\(\?, 64\)'"):
    sess.run(y, {x: np.ones((3, 5))})
  with pytest.raises(TypeError, match="Fetch argument None has invalid type"):
    sess.run(None)
  with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object"):
    sess.run(y, {x: y})
  with pytest.raises(TypeError, match="Using a `tf.Tensor` as a Python `bool` is not allowed"):
    bool(y)
  with pytest.raises(NotImplementedError, match=r"tf.enable_eager_execution\(\).*--eager"):
    y.numpy()
  with pytest.raises(TypeError, match="len is not well defined for symbolic Tensors"):
    len(y)
  other = tf.Graph()
  with other.as_default():
    c = tf.constant(1.0)
  with pytest.raises(ValueError, match="is not an element of this graph"):
    sess.run(c)
  sess.close()
  with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
    sess.run(y, {x: np.ones((1, 64))})
  other.finalize()
  with other.as_default(), pytest.raises(RuntimeError, match="Graph is finalized"):
    tf.constant(2.0)
  a, b = tf.placeholder(tf.float32, [None]), tf.placeholder(tf.float32, [None])
  total = a + b  # the line a failing run names
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Incompatible shapes: \[2\] vs. \[3\].*\n\t \[\[node add "
                           r"\(defined at .*test_graph_mode.py:\d+\) \]\]") as raised:
    tf.Session().run(total, {a: [1, 2], b: [1, 2, 3]})
  assert raised.value.op is total.op and isinstance(total.op, tf.Operation)


def test_variables_belong_to_sessions_and_must_be_initialized(graph):
  v = tf.Variable(1.0, name="v")
  w = tf.Variable(tf.ones([2]))
  inc = v.assign_add(1.0)
  assert (v.name, w.name, v.initializer.name) == ("v:0", "Variable:0", "v/Assign")
  assert tf.global_variables() == [v, w] and tf.trainable_variables() == [v, w]
  first, second = tf.Session(), tf.Session()
  with pytest.raises(tf.errors.FailedPreconditionError,
                     match="Attempting to use uninitialized value v"):
    first.run(inc)
  assert first.run(tf.report_uninitialized_variables()).tolist() == [b"v", b"Variable"]
  first.run(tf.global_variables_initializer())
  second.run(v.initializer)
  assert first.run(tf.report_uninitialized_variables()).size == 0
  assert first.run(tf.is_variable_initialized(w)) and not second.run(tf.is_variable_initialized(w))
  assert first.run(inc) == 2.0 and first.run(inc) == 3.0 and second.run(v) == 1.0
  v.load(10.0, second)
  assert second.run(v) == 10.0 and first.run(v) == 3.0


def test_getting_started_linear_fit_matches_tensorflow(graph):
  W = tf.Variable([.3], dtype=tf.float32)
  b = tf.Variable([-.3], dtype=tf.float32)
  x = tf.placeholder(tf.float32)
  linear_model = W * x + b
  y = tf.placeholder(tf.float32)
  loss = tf.reduce_sum(tf.square(linear_model - y))
  train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
  sess = tf.Session()
  sess.run(tf.global_variables_initializer())
  for _ in range(1000):
    sess.run(train, {x: [1, 2, 3, 4], y: [0, -1, -2, -3]})
  curr_w, curr_b, curr_loss = sess.run([W, b, loss], {x: [1, 2, 3, 4], y: [0, -1, -2, -3]})
  # TensorFlow: W: [-0.9999969] b: [ 0.99999082] loss: 5.69997e-11
  np.testing.assert_allclose(curr_w, [-0.9999969], atol=1e-5)
  np.testing.assert_allclose(curr_b, [0.99999082], atol=1e-5)
  assert curr_loss < 1e-9


def test_softmax_regression_with_minibatches_and_accuracy(graph):
  digits = np.load("examples/data/digits.npz")
  images = digits["images"].reshape(-1, 64).astype(np.float32) / 16.0
  labels = np.eye(10, dtype=np.float32)[digits["labels"]]
  x = tf.placeholder(tf.float32, [None, 64])
  W = tf.Variable(tf.zeros([64, 10]))
  b = tf.Variable(tf.zeros([10]))
  y = tf.nn.softmax(tf.matmul(x, W) + b)
  y_ = tf.placeholder(tf.float32, [None, 10])
  cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
  train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
  sess = tf.InteractiveSession()
  try:
    tf.global_variables_initializer().run()
    rng = np.random.RandomState(0)
    for _ in range(100):
      idx = rng.randint(0, 1500, 100)
      sess.run(train_step, feed_dict={x: images[idx], y_: labels[idx]})
    correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    assert accuracy.eval({x: images[1500:], y_: labels[1500:]}) > 0.85
    plan_count = len(sess._plans)
    for _ in range(3):
      sess.run(train_step, feed_dict={x: images[:100], y_: labels[:100]})
    assert len(sess._plans) == plan_count  # the steady state compiles nothing new
  finally:
    sess.close()


def test_get_variable_follows_tf1_reuse_rules(graph):
  def layer(inputs):
    w = tf.get_variable("w", [3, 2], initializer=tf.ones_initializer())
    return tf.matmul(inputs, w)
  x = tf.placeholder(tf.float32, [None, 3])
  with tf.variable_scope("model") as scope:
    first = layer(x)
    scope.reuse_variables()
    second = layer(x)
  assert [v.name for v in tf.global_variables()] == ["model/w:0"]
  with pytest.raises(ValueError, match="Variable model/w already exists, disallowed. Did you "
                                       "mean to set reuse=True or reuse=tf.AUTO_REUSE"):
    with tf.variable_scope("model"):
      layer(x)
  with pytest.raises(ValueError, match="Variable other/w does not exist"):
    with tf.variable_scope("other", reuse=True):
      layer(x)
  with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    assert tf.get_variable("v", [1]) is tf.get_variable("v", [1])
  dense = tf.layers.dense(x, 4, name="d1")
  assert dense.name == "d1/MatMul:0" or dense.name.startswith("d1/")
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a, b = sess.run([first, second], {x: [[1, 2, 3]]})
    assert a.tolist() == b.tolist() == [[6, 6]]


def test_gradients_hessians_and_unconnected(graph):
  x = tf.placeholder(tf.float32, [None])
  w, c, unused = tf.Variable(0.5), tf.Variable(0.0), tf.Variable(1.0)
  wx = w * x
  loss = tf.reduce_mean(tf.square(wx + c - (3 * x + 1)))
  grads = tf.gradients(loss, [w, c, unused])
  assert grads[2] is None
  zeros = tf.gradients(loss, [unused], unconnected_gradients="zero")
  hessian = tf.hessians(loss, [w])
  stopped = tf.gradients(loss, [w], stop_gradients=[wx])
  data = np.linspace(0, 1, 10).astype(np.float32)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    gw, gc = sess.run(grads[:2], {x: data})
    np.testing.assert_allclose([gw, gc], [-2.7592595, -4.5], rtol=1e-5)
    assert sess.run(zeros, {x: data}) == [0.0]
    np.testing.assert_allclose(sess.run(hessian, {x: data}), [0.7037037], rtol=1e-5)
    assert stopped == [None]  # the only path from w is stopped, as in TF
  with tf.Graph().as_default():
    x = tf.constant(3.0)
    y = x * x
    assert tf.Session().run(tf.gradients(y, x)) == [6.0]
    a = tf.constant(0.)
    b = 2 * a
    assert tf.Session().run(tf.gradients(a + b, [a, b], stop_gradients=[a, b])) == [1.0, 1.0]


def test_control_flow_in_graphs(graph):
  x = tf.placeholder(tf.float32, [])
  y = tf.cond(x > 0, lambda: x * 2, lambda: -x)
  count, power = tf.while_loop(lambda i, acc: i < 10, lambda i, acc: (i + 1, acc * x),
                               [tf.constant(0), tf.constant(1.0)])
  grad = tf.gradients(power, x)
  squares = tf.map_fn(lambda t: t * t, tf.constant([1., 2., 3.]))
  sums = tf.scan(lambda a, t: a + t, tf.constant([1., 2., 3.]))
  with tf.Session() as sess:
    out = sess.run([y, count, power, grad, squares, sums], {x: 1.1})
    np.testing.assert_allclose(out[0], 2.2)
    assert out[1] == 10
    np.testing.assert_allclose(out[2], 1.1 ** 10, rtol=1e-5)
    np.testing.assert_allclose(out[3], [10 * 1.1 ** 9], rtol=1e-5)  # through the while loop
    assert out[4].tolist() == [1, 4, 9] and out[5].tolist() == [1, 3, 6]
    assert sess.run(y, {x: -3.0}) == 3.0
    check = tf.debugging.assert_positive(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not hold element-wise"):
      sess.run(check, {x: -1.0})


def test_random_ops_draw_each_run_and_follow_seeds():
  def draws():
    with tf.Graph().as_default():
      tf.set_random_seed(42)
      r = tf.random_normal([3])
      with tf.Session() as sess:
        return sess.run(r), sess.run(r)
  first, second = draws()
  assert not np.array_equal(first, second)
  again = draws()
  np.testing.assert_array_equal(first, again[0])
  np.testing.assert_array_equal(second, again[1])


def test_py_func_runs_eager_python_in_a_session(graph, capsys):
  def my_py_func(x):
    x = tf.matmul(x, x)
    print(x)
    return x
  x = tf.placeholder(dtype=tf.float32)
  pf = tf.contrib.eager.py_func(my_py_func, [x], tf.float32)
  np_pf = tf.py_func(lambda a: a * 2, [x], tf.float32)
  with tf.Session() as sess:
    assert sess.run(pf, feed_dict={x: [[2.0]]}).tolist() == [[4.0]]
    assert sess.run(np_pf, feed_dict={x: [1.0]}).tolist() == [2.0]
  assert "tf.Tensor([[4.]], shape=(1, 1), dtype=float32)" in capsys.readouterr().out


def test_graph_as_default_inside_an_eager_program():
  assert tf.executing_eagerly()
  with tf.Graph().as_default():
    assert not tf.executing_eagerly()
    c = tf.constant(2.0) * 3
    assert tf.Session().run(c) == 6.0
  assert tf.executing_eagerly() and float(tf.constant(2.0) * 3) == 6.0


def test_disable_eager_execution_switches_the_program():
  tf.disable_eager_execution()
  assert not tf.executing_eagerly()
  graph = tf.get_default_graph()
  total = tf.add(1, 2)
  assert total.graph is graph and tf.Session().run(total) == 3
  with pytest.raises(ValueError, match="must be called at program startup"):
    tf.enable_eager_execution()
  tf.reset_default_graph()
  tf.enable_eager_execution()
  assert tf.executing_eagerly()


def test_templates_custom_gradients_and_sparse_placeholders(graph):
  def scale(x):
    w = tf.get_variable("w", shape=[2], initializer=tf.ones_initializer())
    return x * w
  template = tf.make_template("lin", scale)
  first, second = template(tf.constant([1.0, 2.0])), template(tf.constant([3.0, 4.0]))
  assert [v.name for v in tf.global_variables()] == ["lin/w:0"]  # shared

  @tf.custom_gradient
  def clip_gradient(x):
    def grad(dy):
      return tf.clip_by_value(dy, -0.1, 0.1)
    return tf.identity(x), grad
  x = tf.placeholder(tf.float32, [])
  gradient = tf.gradients(clip_gradient(x) * 5.0, x)
  sparse = tf.sparse_placeholder(tf.float32, shape=[2, 3])
  dense = tf.sparse_tensor_to_dense(sparse)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    assert [a.tolist() for a in sess.run([first, second])] == [[1, 2], [3, 4]]
    assert sess.run(gradient, {x: 2.0}) == [np.float32(0.1)]  # the custom gradient
    value = tf.SparseTensorValue([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    assert sess.run(dense, {sparse: value}).tolist() == [[1, 0, 0], [0, 0, 2]]
    fetched = sess.run(sparse, {sparse: value})
    assert isinstance(fetched, tf.SparseTensorValue) and fetched.values.tolist() == [1, 2]


def test_gradient_override_map_uses_registered_gradients_as_tf():
  """Values and messages from TF 2.21's compat.v1 graph mode on the same program."""
  @tf.RegisterGradient("GraphTestTenTimes")
  def _ten_times(op, grad):
    return grad * 10.0 * op.inputs[0] + 0.0 * op.outputs[0]

  @tf.RegisterGradient("GraphTestClip")
  def _clip(op, grad):  # pylint: disable=unused-argument
    return tf.clip_by_value(grad, -0.1, 0.1)

  tf.NotDifferentiable("GraphTestStop")

  @tf.RegisterGradient("GraphTestTwoGrads")
  def _two(op, grad):  # pylint: disable=unused-argument
    return grad, grad

  with tf.Graph().as_default() as graph:
    x = tf.constant([1.0, 2.0, -3.0])
    v = tf.Variable([1.0, 2.0])
    with graph.gradient_override_map({"Square": "GraphTestTenTimes",
                                      "Identity": "GraphTestClip"}):
      y = tf.square(x)
      z = tf.square(v)
      w = tf.identity(v * 3.0)
    assert y.op.type == "Square" and y.op.get_attr("_gradient_op_type") == b"GraphTestTenTimes"
    assert tf.square(x).op.attrs == {}  # outside the block
    gx = tf.gradients(tf.reduce_sum(y), x)
    gx_plain = tf.gradients(tf.reduce_sum(tf.square(x)), x)
    gv = tf.gradients(tf.reduce_sum(z) + tf.reduce_sum(w), v)
    train = tf.train.GradientDescentOptimizer(1.0).minimize(tf.reduce_sum(w), var_list=[v])
    with graph.gradient_override_map({"Identity": "GraphTestStop"}):
      c = tf.identity(x * 5.0)
    assert tf.gradients(c, x) == [None]  # not differentiable: unconnected
    g_through = tf.gradients(tf.reduce_sum(c * x), x)
    with graph.gradient_override_map({"Square": "GraphTestTwoGrads"}):
      e = tf.square(x)
    bad_count = tf.gradients(e, x)
    with graph.gradient_override_map({"Square": "GraphTestNowhere"}):
      q = tf.square(x)
    with pytest.raises(LookupError, match=r"No gradient defined for operation'Square_\d' "
                       r"\(op type: Square\)"):
      tf.gradients(q, x)
    with pytest.raises(TypeError, match="op_type_map must be a dictionary mapping strings"):
      with graph.gradient_override_map({"Square": 3}):
        pass
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      assert sess.run(gx)[0].tolist() == [10.0, 20.0, -30.0]
      assert sess.run(gx_plain)[0].tolist() == [2.0, 4.0, -6.0]
      np.testing.assert_allclose(sess.run(gv)[0], [10.3, 20.3], rtol=1e-6)
      assert sess.run(g_through)[0].tolist() == [5.0, 10.0, -15.0]
      sess.run(train)
      np.testing.assert_allclose(sess.run(v), [0.7, 1.7], rtol=1e-6)
      with pytest.raises(ValueError, match='Num gradients 2 generated for op name: "Square_'):
        sess.run(bad_count)


def test_stop_gradients_block_every_path_through_them():
  with tf.Graph().as_default():
    x = tf.constant(3.0)
    a = x * 2.0
    b = a * a + x
    partial = tf.gradients(b, x, stop_gradients=[a])
    assert tf.gradients(a, x, stop_gradients=[a]) == [None]
    with tf.Session() as sess:
      assert sess.run(partial) == [np.float32(1.0)]  # TF's value: only the direct path


_PLACED_GRAPH = """
import tfe_compat as tf
tf.disable_eager_execution()
with tf.device("/cpu:1"):
  w = tf.Variable([1.0, 2.0], name="w")
  step = w.assign_add([1.0, 1.0], name="step")
with tf.device("/gpu:0"):
  doubled = w * 2.0
print(step.device, doubled.device)
with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
  sess.run(w.initializer)
  print(sess.run(step).tolist())
  print(sorted(str(d) for v in sess._values.values() for d in v.devices()))
  try:
    sess.run(doubled)
  except tf.errors.InvalidArgumentError as e:
    print(e.message.split(" for operation")[0], "/device:GPU:0" in e.message)
with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
  sess.run(w.initializer)
  print(sess.run(doubled).tolist())
"""


def test_a_graph_placed_on_one_device_runs_there():
  env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2",
             JAX_PLATFORMS="cpu")
  out = subprocess.run([sys.executable, "-c", _PLACED_GRAPH], env=env, capture_output=True,
                       text=True, timeout=120, check=False)
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == [
      "/device:CPU:1 /device:GPU:0", "[2.0, 3.0]", "['cpu:1']",
      "Cannot assign a device True", "[2.0, 4.0]"]
  assert "step: (AssignAdd): /job:localhost/replica:0/task:0/device:CPU:1" in \
      out.stderr


def test_run_options_and_metadata_trace_a_run_for_tensorboard(tmp_path):
  config = tf.ConfigProto(allow_soft_placement=True, device_count={"GPU": 0})
  config.gpu_options.allow_growth = True
  assert tf.ConfigProto.FromString(config.SerializeToString()) == config
  with pytest.raises(ValueError, match='Protocol message ConfigProto has no "foo" field'):
    tf.ConfigProto(foo=1)
  with tf.Graph().as_default() as graph:
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.reduce_sum(x * 2.0, name="total")
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                            output_partition_graphs=True)
    metadata = tf.RunMetadata()
    with tf.Session(config=config) as sess:
      assert sess.run(y, {x: [[1.0, 2.0]]}, options=options, run_metadata=metadata) == 6.0
      call = sess.make_callable(y, [x], accept_options=True)
      assert call([[1.0, 1.0]], options=options, run_metadata=tf.RunMetadata()) == 4.0
      with pytest.raises(TypeError, match="unexpected keyword argument 'options'"):
        sess.make_callable(y, [x])([[1.0, 1.0]], options=options)
    (device,) = metadata.step_stats.dev_stats
    assert device.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    (node,) = device.node_stats
    assert node.node_name == "SessionRun" and "mul" in node.timeline_label
    assert node.all_end_rel_micros >= 0 and node.all_start_micros > 0
    assert [n.name for n in metadata.partition_graphs[0].node][-1] == "total"
    writer = tf.summary.FileWriter(str(tmp_path), graph)
    writer.add_run_metadata(metadata, "step1", global_step=1)
    writer.close()
  events = [tf.Event.FromString(r) for path in tmp_path.iterdir()
            for r in tf.python_io.tf_record_iterator(str(path))]
  tagged = [e.tagged_run_metadata for e in events if e.HasField("tagged_run_metadata")]
  assert [t.tag for t in tagged] == ["step1"]
  assert tf.RunMetadata.FromString(tagged[0].run_metadata) == metadata
  assert any(e.HasField("graph_def") for e in events)


def test_graph_def_has_tf_node_attributes_and_variable_edges(tmp_path):
  """Node names, ops, inputs and attribute keys as TF 1.15 writes them (TensorBoard's graph
  dashboard draws nodes, edges and shapes from these)."""
  with tf.Graph().as_default() as graph:
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(tf.ones([3, 2]), name="w")
    tf.add(tf.matmul(x, w), tf.constant([1.0, 2.0]), name="out")
    graph_def = graph.as_graph_def(add_shapes=True)
    nodes = {n.name: n for n in graph_def.node}
    assert nodes["x"].op == "Placeholder" and sorted(nodes["x"].attr) == [
        "_output_shapes", "dtype", "shape"]
    assert [d.size for d in nodes["x"].attr["shape"].shape.dim] == [-1, 3]
    assert nodes["x"].attr["dtype"].type == tf.float32.as_datatype_enum
    assert list(nodes["MatMul"].input) == ["x", "w"]
    assert list(nodes["out"].input) == ["MatMul", "Const"]
    assert tf.make_ndarray(nodes["Const"].attr["value"].tensor).tolist() == [1.0, 2.0]
    assert [d.size for d in nodes["out"].attr["_output_shapes"].list.shape[0].dim] == [-1, 2]
    assert "_output_shapes" not in graph.as_graph_def().node[0].attr
    path = tf.train.write_graph(graph, str(tmp_path), "graph.pbtxt")
    assert 'op: "Placeholder"' in open(path).read()


def test_host_operations_read_and_write_the_sessions_variables():
  with tf.Graph().as_default():
    v = tf.Variable([3.0, 1.0, 3.0])
    unique, index = tf.unique(v)  # output shape from values: runs on the host
    with tf.Session() as sess:
      sess.run(v.initializer)
      values, positions = sess.run([unique, index])
      assert values.tolist() == [3.0, 1.0] and positions.tolist() == [0, 1, 0]


def test_unknown_rank_is_not_folded(graph):
  """A placeholder of unknown rank has no static rank to fold: `tf.rank` and what follows
  from it are computed in the run (they were folded to 0 from a made-up stand-in)."""
  x = tf.placeholder(tf.float32)
  rank, shape = tf.rank(x), tf.shape(x)
  assert rank.op.outputs[0]._const is None
  with tf.Session() as sess:
    assert sess.run([rank, tf.size(x)], {x: np.ones((2, 3))}) == [2, 6]
    np.testing.assert_array_equal(sess.run(shape, {x: np.ones((4, 1, 5))}), [4, 1, 5])


def test_fed_defaults_and_positional_names(graph):
  """What follows a placeholder_with_default is computed in the run, not folded from the
  default (a fed value was ignored); an op's name passed by position is its name."""
  flag = tf.placeholder_with_default(tf.constant(False), [], "flag")
  negated = tf.logical_not(flag)
  doubled = tf.identity(tf.cast(flag, tf.int32) * 2, "doubled")
  assert flag.name == "flag:0" and doubled.name == "doubled:0"
  with tf.Session() as sess:
    assert sess.run([negated, doubled]) == [True, 0]
    assert sess.run([negated, doubled], {flag: True}) == [False, 2]
