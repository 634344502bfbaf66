"""Writes this folder's TF 1.x graphs with real TensorFlow: meta graphs with their
checkpoints (Saver), a frozen inference graph, the inputs and golden values of
tests/test_graph_import.py.

Run with TensorFlow 2.x and tf-keras (TF 1.x API through tf.compat.v1):
  TF_USE_LEGACY_KERAS=1 python tests/data/tf_graphs/make_golden.py
"""
import json, os, shutil, sys
import numpy as np
import tensorflow as tf
tf1 = tf.compat.v1
tf1.disable_eager_execution()
out = "."
os.chdir(os.path.dirname(os.path.abspath(__file__)))
for kind in ("linear_ref", "linear_resource", "mlp_adam", "cond"):
  shutil.rmtree(kind, ignore_errors=True)
golden = {}
def f(x): return np.asarray(x).tolist()

X, Y = [1., 2., 3., 4.], [0., -1., -2., -3.]
for kind, resource in (("linear_ref", False), ("linear_resource", True)):
  with tf.Graph().as_default():
    W = tf1.Variable([.3], dtype=tf.float32, name="W", use_resource=resource)
    b = tf1.Variable([-.3], dtype=tf.float32, name="b", use_resource=resource)
    x = tf1.placeholder(tf.float32, name="x")
    y = tf1.placeholder(tf.float32, name="y")
    linear_model = tf.identity(W * x + b, name="linear_model")
    loss = tf.reduce_sum(tf.square(linear_model - y), name="loss")
    gs = tf1.train.get_or_create_global_step()
    train = tf1.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=gs, name="train")
    tf1.add_to_collection("train_op", train)
    saver = tf1.train.Saver()
    with tf1.Session() as sess:
      sess.run(tf1.global_variables_initializer())
      for i in range(100):
        sess.run(train, {x: X, y: Y})
      saver.save(sess, os.path.join(out, kind, "model"), global_step=gs)
      g = {"saved": f(sess.run([W, b, loss], {x: X, y: Y})[:2]) + [float(sess.run(loss, {x: X, y: Y}))]}
      sess.run(train, {x: X, y: Y})
      g["after_step"] = [f(v) for v in sess.run([W, b])] + [int(sess.run(gs))]
      golden[kind] = g
    golden[kind]["ops"] = sorted({n.op for n in tf1.get_default_graph().as_graph_def().node})

# MNIST for beginners / softmax regression + a hidden layer, Adam
rng = np.random.default_rng(0)
images = rng.random((16, 64)).astype(np.float32)
labels = rng.integers(0, 10, 16).astype(np.int64)
with tf.Graph().as_default():
  tf1.set_random_seed(3)
  x = tf1.placeholder(tf.float32, [None, 64], name="images")
  y_ = tf1.placeholder(tf.int64, [None], name="labels")
  hidden = tf1.layers.dense(x, 32, activation=tf.nn.relu, name="hidden")
  logits = tf1.layers.dense(hidden, 10, name="logits")
  loss = tf1.losses.sparse_softmax_cross_entropy(labels=y_, logits=logits)
  probs = tf.nn.softmax(logits, name="probabilities")
  correct = tf.equal(tf.argmax(logits, 1), y_)
  accuracy = tf.reduce_mean(tf.cast(correct, tf.float32), name="accuracy")
  train = tf1.train.AdamOptimizer(1e-3).minimize(loss, name="train")
  tf1.add_to_collection("train_op", train)
  tf1.add_to_collection("inputs", x); tf1.add_to_collection("inputs", y_)
  saver = tf1.train.Saver(max_to_keep=2)
  with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    for _ in range(5):
      sess.run(train, {x: images, y_: labels})
    saver.save(sess, os.path.join(out, "mlp_adam", "model"))
    feed = {x: images, y_: labels}
    g = {"probs": f(sess.run(probs, feed)[:2]), "accuracy": float(sess.run(accuracy, feed)),
         "loss": float(sess.run(loss, feed))}
    for _ in range(3):
      sess.run(train, feed)
    g["loss_after_3"] = float(sess.run(loss, feed))
    golden["mlp_adam"] = g
  golden["mlp_adam"]["ops"] = sorted({n.op for n in tf1.get_default_graph().as_graph_def().node})
np.save(os.path.join(out, "mlp_inputs.npy"), images)
np.save(os.path.join(out, "mlp_labels.npy"), labels)

# a frozen CNN (inference graph, constants), as convert_variables_to_constants writes it
with tf.Graph().as_default():
  tf1.set_random_seed(4)
  x = tf1.placeholder(tf.float32, [None, 28, 28, 1], name="input")
  net = tf1.layers.conv2d(x, 8, 5, padding="same", activation=tf.nn.relu)
  net = tf1.layers.max_pooling2d(net, 2, 2)
  net = tf1.layers.conv2d(net, 16, 3, padding="valid", activation=tf.nn.relu)
  net = tf.nn.avg_pool(net, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
  net = tf1.layers.batch_normalization(net, training=False)
  net = tf.reshape(net, [-1, 6 * 6 * 16])
  logits = tf1.layers.dense(net, 10)
  out_t = tf.nn.softmax(logits, name="output")
  top = tf.nn.top_k(out_t, 3, name="top")
  with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    frozen = tf1.graph_util.convert_variables_to_constants(
        sess, sess.graph.as_graph_def(), ["output", "top"])
    digits = rng.random((2, 28, 28, 1)).astype(np.float32)
    golden["frozen_cnn"] = {"output": f(sess.run(out_t, {x: digits})),
                            "top_indices": f(sess.run(top.indices, {x: digits}))}
  with open(os.path.join(out, "frozen_cnn.pb"), "wb") as fh:
    fh.write(frozen.SerializeToString())
  golden["frozen_cnn"]["ops"] = sorted({n.op for n in frozen.node})
np.save(os.path.join(out, "cnn_inputs.npy"), digits)
with open(os.path.join(out, "golden.json"), "w") as fh:
  json.dump(golden, fh, indent=1)
for k, v in golden.items(): print(k, v["ops"])

# TF 1.x control flow (Switch / Merge): dropout and batch norm behind a training flag, and a
# cond that assigns in one branch (TF 1.15's graphs; TF 2 writes `If` unless told not to)
tf1.disable_control_flow_v2()
with tf.Graph().as_default():
  tf1.set_random_seed(5)
  x = tf1.placeholder(tf.float32, [None, 6], name="x")
  training = tf1.placeholder_with_default(False, [], name="training")
  counter = tf1.Variable(0., name="counter")
  hidden = tf1.layers.dense(x, 4, activation=tf.nn.relu, name="hidden")
  normed = tf1.layers.batch_normalization(hidden, training=training, name="bn")
  out = tf.identity(tf1.layers.dense(normed, 2, name="out"), name="output")
  counted = tf1.cond(training, lambda: tf1.assign_add(counter, 1.),
                     lambda: tf.identity(counter), name="count")
  updates = tf.group(*tf1.get_collection(tf1.GraphKeys.UPDATE_OPS), name="updates")
  batch = rng.random((5, 6)).astype(np.float32)
  with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    g = {"inference": f(sess.run(out, {x: batch})),
         "training": f(sess.run(out, {x: batch, training: True}))}
    g["counted"] = [float(sess.run(counted)), float(sess.run(counted, {training: True})),
                    float(sess.run(counted, {training: True})), float(sess.run(counted))]
    sess.run(updates, {x: batch, training: True})
    g["moving_mean"] = f(sess.run([v for v in tf1.global_variables()
                                   if v.op.name == "bn/moving_mean"][0]))
    tf1.train.Saver().save(sess, "cond/model")
    golden["cond"] = g
  golden["cond"]["ops"] = sorted({n.op for n in tf1.get_default_graph().as_graph_def().node})
np.save("cond_inputs.npy", batch)
with open("golden.json", "w") as fh:
  json.dump(golden, fh, indent=1)
print("cond", golden["cond"]["ops"])

# Many op types in one frozen graph, each output fetched (the importer's kernels against TF's)
with tf.Graph().as_default():
  a = tf1.placeholder(tf.float32, [2, 4, 4, 3], name="a")
  v = tf1.placeholder(tf.float32, [3, 5], name="v")
  i = tf1.placeholder(tf.int32, [4], name="i")
  outs = {
      "pad": tf.pad(a, [[0, 0], [1, 2], [0, 1], [0, 0]]),
      "mirror_pad": tf.pad(a, [[0, 0], [1, 1], [2, 2], [0, 0]], mode="REFLECT"),
      "resize_bilinear": tf1.image.resize_bilinear(a, [6, 7]),
      "resize_nearest": tf1.image.resize_nearest_neighbor(a, [8, 3]),
      "lrn": tf.nn.local_response_normalization(a, 2, 1.0, 0.5, 0.75),
      "concat_v1": tf.raw_ops.Concat(concat_dim=1, values=[v, v]),
      "split_v": tf.split(v, [2, 3], axis=1)[1],
      "clip": tf.clip_by_value(v, -0.3, 0.4),
      "erf": tf.math.erf(v),
      "cumsum": tf.cumsum(v, axis=1, exclusive=True, reverse=True),
      "reverse": tf.reverse(v, [1]),
      "gather_v1": tf.raw_ops.Gather(params=v, indices=i[:2]),
      "sigmoid": tf.sigmoid(v), "tanh": tf.tanh(v), "softplus": tf.nn.softplus(v),
      "elu": tf.nn.elu(v), "leaky": tf.nn.leaky_relu(v, 0.3), "relu6": tf.nn.relu6(v * 10),
      "log_softmax": tf.nn.log_softmax(v), "square_diff": tf.math.squared_difference(v, 0.2),
      "max_axis": tf.reduce_max(v, axis=1, keepdims=True), "prod": tf.reduce_prod(v, 0),
      "argmin": tf.argmin(v, 1), "one_hot": tf.one_hot(i, 5, on_value=2., off_value=-1.),
      "tile": tf.tile(v, [2, 1]), "transpose": tf.transpose(a, [0, 3, 1, 2]),
      "strided": a[:, 1:3, ::2, -1], "squeeze": tf.squeeze(v[:1]),
      "depthwise": tf.nn.depthwise_conv2d(a, tf.ones([2, 2, 3, 2]) * 0.1, [1, 1, 1, 1], "SAME"),
      "conv_transpose": tf.nn.conv2d_transpose(a, tf.ones([3, 3, 2, 3]) * 0.1, [2, 8, 8, 2],
                                               [1, 2, 2, 1], "SAME"),
      "dilated": tf.nn.conv2d(a, tf.ones([2, 2, 3, 4]) * 0.1, [1, 1, 1, 1], "VALID",
                              dilations=[1, 2, 2, 1]),
      "max_pool_same": tf.nn.max_pool(a, [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
      "mean_axes": tf.reduce_mean(a, [1, 2]), "batch_matmul": tf.matmul(a, a, transpose_b=True),
      "where": tf.where(v > 0, v, -v), "floor_mod": tf.math.floormod(v, 0.3),
      "rsqrt": tf.math.rsqrt(tf.abs(v) + 1), "minimum": tf.minimum(v, 0.1),
      "stack": tf.stack([v, v], axis=1), "unstack": tf.unstack(v, axis=1)[2],
      "range": tf.range(1, 9, 2), "fill": tf.fill([2, 3], 7.), "expand": tf.expand_dims(v, 1),
  }
  names = sorted(outs)
  for n in names:
    tf.identity(outs[n], name="out_" + n)
  rng2 = np.random.default_rng(7)
  feed_a = rng2.standard_normal((2, 4, 4, 3)).astype(np.float32)
  feed_v = rng2.standard_normal((3, 5)).astype(np.float32)
  feed_i = np.array([2, 0, 1, 2], np.int32)
  with tf1.Session() as sess:
    values = sess.run({n: "out_%s:0" % n for n in names}, {a: feed_a, v: feed_v, i: feed_i})
  zoo = tf1.get_default_graph().as_graph_def()
  with open("op_zoo.pb", "wb") as fh:
    fh.write(zoo.SerializeToString())
  np.savez("op_zoo.npz", a=feed_a, v=feed_v, i=feed_i, **{"out_" + n: values[n] for n in names})
  print("zoo", sorted({n.op for n in zoo.node}))

# TF 1.x while loops (Enter / Merge / Switch / LoopCond / NextIteration / Exit frames)
# (a) a plain tf.while_loop: two loop variables, a loop-invariant placeholder, an iteration cap
with tf.Graph().as_default():
  x = tf1.placeholder(tf.float32, [3], name="x")
  n = tf1.placeholder(tf.int32, [], name="n")
  def cond(i, acc): return i < n
  def body(i, acc):
    return i + 1, acc * 0.9 + tf.sin(x * tf.cast(i + 1, tf.float32))
  i_out, acc_out = tf1.while_loop(cond, body, (tf.constant(0), tf.zeros([3])),
                                  maximum_iterations=7, name="loop")
  tf.identity(i_out, name="steps"); tf.identity(acc_out, name="acc")
  loop_def = tf1.get_default_graph().as_graph_def()
  feed_x = np.array([0.5, -1., 2.], np.float32)
  with tf1.Session() as sess:
    golden["while_loop"] = {
        "x": f(feed_x), "ops": sorted({nd.op for nd in loop_def.node}),
        "runs": {str(k): [int(v[0]), f(v[1])] for k in (0, 4, 20)
                 for v in [sess.run(["steps:0", "acc:0"], {x: feed_x, n: k})]}}
  with open("while_loop.pb", "wb") as fh:
    fh.write(loop_def.SerializeToString())

# (b) tf.nn.dynamic_rnn with an LSTMCell over [batch, time, features], frozen (inference)
with tf.Graph().as_default():
  tf1.set_random_seed(6)
  seq = tf1.placeholder(tf.float32, [None, 5, 3], name="inputs")
  cell = tf1.nn.rnn_cell.LSTMCell(4, name="lstm")
  outputs, state = tf1.nn.dynamic_rnn(cell, seq, dtype=tf.float32)
  tf.identity(outputs, name="outputs"); tf.identity(state.c, name="state_c")
  tf.identity(state.h, name="state_h")
  feed = np.random.default_rng(8).standard_normal((2, 5, 3)).astype(np.float32)
  with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    rnn_def = tf1.graph_util.convert_variables_to_constants(
        sess, sess.graph.as_graph_def(), ["outputs", "state_c", "state_h"])
    values = sess.run(["outputs:0", "state_c:0", "state_h:0"], {seq: feed})
  golden["dynamic_rnn"] = {"inputs": f(feed), "outputs": f(values[0]), "state_c": f(values[1]),
                           "state_h": f(values[2]), "ops": sorted({nd.op for nd in rnn_def.node})}
  with open("dynamic_rnn.pb", "wb") as fh:
    fh.write(rnn_def.SerializeToString())
with open("golden.json", "w") as fh:
  json.dump(golden, fh, indent=1)
print("while_loop", golden["while_loop"]["ops"])
print("dynamic_rnn", golden["dynamic_rnn"]["ops"])

# What the loop importer refuses: a loop inside a loop, a loop's gradient (stack ops)
with tf.Graph().as_default():
  x = tf1.placeholder(tf.float32, [], name="x")
  def outer(i, v):
    inner = tf1.while_loop(lambda j, w: j < 2, lambda j, w: (j + 1, w * x), (0, v))[1]
    return i + 1, inner
  total = tf1.while_loop(lambda i, v: i < 3, outer, (0, x), name="outer")[1]
  with open("while_nested.pb", "wb") as fh:
    fh.write(tf1.get_default_graph().as_graph_def().SerializeToString())
with tf.Graph().as_default():
  x = tf1.placeholder(tf.float32, [], name="x")
  y = tf1.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), (0, x))[1]
  tf.identity(tf.gradients(y, x)[0], name="grad")
  with open("while_grad.pb", "wb") as fh:
    fh.write(tf1.get_default_graph().as_graph_def().SerializeToString())

# (c) a tf.cond inside a tf.while_loop (one branch a constant: live through its control input)
with tf.Graph().as_default():
  x = tf1.placeholder(tf.float32, [4], name="x")
  n = tf1.placeholder(tf.int32, [], name="n")
  def body(i, v):
    v = tf1.cond(tf.reduce_sum(v) > 0., lambda: v * 0.5 - 1.,
                 lambda: tf.constant([4., -1., 2., 3.]), name="branch")
    return i + 1, v
  tf.identity(tf1.while_loop(lambda i, v: i < n, body, (0, x), name="cloop")[1], name="out")
  cond_loop_def = tf1.get_default_graph().as_graph_def()
  runs = [([3., 1., 2., 4.], 2), ([-1., 0.5, 0., 0.], 3), ([3., 1., 2., 4.], 4)]
  with tf1.Session() as sess:
    golden["while_cond"] = {
        "runs": [[v, k, f(sess.run("out:0", {x: v, n: k}))] for v, k in runs],
        "ops": sorted({nd.op for nd in cond_loop_def.node})}
  with open("while_cond.pb", "wb") as fh:
    fh.write(cond_loop_def.SerializeToString())
with open("golden.json", "w") as fh:
  json.dump(golden, fh, indent=1)
print("while_cond", golden["while_cond"])

# TF 1.x summaries in a graph (ScalarSummary / HistogramSummary / MergeSummary)
with tf.Graph().as_default():
  values = tf1.placeholder(tf.float32, [None], name="values")
  tf1.summary.scalar("mean", tf.reduce_mean(values))
  tf1.summary.histogram("values", values)
  merged = tf1.summary.merge_all()
  tf.identity(merged, name="merged")
  with tf1.Session() as sess:
    data = np.linspace(-2., 3., 11, dtype=np.float32)
    serialized = sess.run(merged, {values: data})
  with open("summaries.pb", "wb") as fh:
    fh.write(tf1.get_default_graph().as_graph_def().SerializeToString())
  with open("summaries_golden.bin", "wb") as fh:
    fh.write(serialized)
  print("summaries", sorted({n.op for n in tf1.get_default_graph().as_graph_def().node}))

# A TF 1.x SavedModel (simple_save: serving tag, default signature, variables)
shutil.rmtree("saved_model", ignore_errors=True)
with tf.Graph().as_default():
  features = tf1.placeholder(tf.float32, [None, 3], name="features")
  weights = tf1.Variable([[1.], [-2.], [.5]], name="weights")
  scores = tf.identity(tf.matmul(features, weights) + 0.25, name="scores")
  with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    sess.run(weights.assign([[.5], [1.5], [-1.]]))
    tf1.saved_model.simple_save(sess, "saved_model", inputs={"x": features},
                                outputs={"scores": scores})
    sample = np.array([[1., 2., 3.], [0., -1., 4.]], np.float32)
    golden["saved_model"] = {"scores": f(sess.run(scores, {features: sample})),
                             "sample": f(sample)}
with open("golden.json", "w") as fh:
  json.dump(golden, fh, indent=1)
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402
_sm = saved_model_pb2.SavedModel()
with open("saved_model/saved_model.pb", "rb") as fh:
  _sm.ParseFromString(fh.read())
print("saved_model", sorted({n.op for n in _sm.meta_graphs[0].graph_def.node}),
      list(_sm.meta_graphs[0].meta_info_def.tags))
