"""The rest of TF 1.15's tf.train: AdagradDAOptimizer (dense and sparse), checkpoint helpers
(checkpoints_iterator, init_from_checkpoint, warm_start, get_checkpoint_mtimes,
remove_checkpoint, generate_checkpoint_state_proto), LooperThread, basic_train_loop,
replica_device_setter, ClusterSpec / ClusterDef, Server, sdca_*.

Golden values come from TF 2.21's tf.compat.v1.train executing eagerly (TF 1.15's code).
"""
import os
import threading

import numpy as np
import pytest

import tfe_compat as tf

# ---- AdagradDAOptimizer ----
# (l1, l2) -> dense w, b after 3 steps; sparse e (2-D) and e1 (1-D) after 2 steps from step 5.
ADAGRAD_DA_GOLDEN = {
    (0.0, 0.0): ([[-0.08320503681898117, 0.12792043387889862],
                  [-0.14795909821987152, -0.044721364974975586]],
                 [-0.12792043387889862, 0.14795909821987152],
                 [[-0.13251782953739166, -0.13471506536006927], [3.0, -4.0],
                  [-0.11338935047388077, 0.12344267219305038]],
                 [1.0, 0.11338933557271957, -0.11338933557271957]),
    (0.01, 0.02): ([[-0.0736587718129158, 0.11998950690031052],
                    [-0.14163009822368622, -0.03514833748340607]],
                   [-0.11998950690031052, 0.14163009822368622],
                   [[-0.12288772314786911, -0.12627814710140228], [3.0, -4.0],
                    [-0.09757889807224274, 0.11025956273078918]],
                   [1.0, 0.09757889062166214, -0.09757889062166214]),
}


@pytest.mark.parametrize("l1,l2", sorted(ADAGRAD_DA_GOLDEN))
def test_adagrad_da_matches_tensorflow(l1, l2):
  w_gold, b_gold, e_gold, e1_gold = ADAGRAD_DA_GOLDEN[(l1, l2)]
  w = tf.Variable([[1.0, 2.0], [3.0, -4.0]], name="da_w")
  b = tf.Variable([0.5, -1.5], name="da_b")
  step = tf.Variable(0, dtype=tf.int64)
  opt = tf.train.AdagradDAOptimizer(0.1, step, initial_gradient_squared_accumulator_value=0.1,
                                    l1_regularization_strength=l1,
                                    l2_regularization_strength=l2)
  for i in range(3):
    opt.apply_gradients([(tf.constant([[0.1, -0.2], [0.3, 0.05 * i]]), w),
                         (tf.constant([0.2, -0.3]), b)], global_step=step)
  np.testing.assert_allclose(w.numpy(), w_gold, rtol=1e-6)
  np.testing.assert_allclose(b.numpy(), b_gold, rtol=1e-6)
  assert step.numpy() == 3
  np.testing.assert_allclose(opt.get_slot(w, "gradient_accumulator").numpy(),
                             [[0.3, -0.6], [0.9, 0.15]], rtol=1e-6)
  np.testing.assert_allclose(opt.get_slot(b, "gradient_squared_accumulator").numpy(),
                             [0.22, 0.37], rtol=1e-6)
  assert opt.get_slot_names() == ["gradient_accumulator", "gradient_squared_accumulator"]
  assert opt.get_slot(w, "gradient_accumulator").name.startswith("da_w/AdagradDA")

  # IndexedSlices: only the rows named change (duplicate indices summed), TF's sparse kernel.
  e = tf.Variable([[1.0, 2.0], [3.0, -4.0], [5.0, 6.0]])
  e1 = tf.Variable([1.0, 2.0, 3.0])
  step = tf.Variable(5, dtype=tf.int64)
  opt = tf.train.AdagradDAOptimizer(0.1, step, l1_regularization_strength=l1,
                                    l2_regularization_strength=l2)
  for _ in range(2):
    opt.apply_gradients([
        (tf.IndexedSlices(tf.constant([[0.1, 0.2], [0.3, -0.4], [0.5, 0.5]]),
                          tf.constant([0, 2, 0])), e),
        (tf.IndexedSlices(tf.constant([0.1, -0.3, 0.2]), tf.constant([2, 1, 2])), e1)],
                        global_step=step)
  np.testing.assert_allclose(e.numpy(), e_gold, rtol=1e-6)
  np.testing.assert_allclose(e1.numpy(), e1_gold, rtol=1e-7)
  assert step.numpy() == 7


def test_adagrad_da_global_step_and_errors():
  step = tf.Variable(0, dtype=tf.int64)
  w = tf.Variable([1.0, 2.0])
  opt = tf.train.AdagradDAOptimizer(0.1, step)
  opt.apply_gradients([(tf.constant([0.5, 0.5]), w)])  # the step is not incremented
  opt.apply_gradients([(tf.constant([0.5, 0.5]), w)])
  np.testing.assert_allclose(w.numpy(), [-0.12909944355487823] * 2, rtol=1e-6)
  assert step.numpy() == 0
  with pytest.raises(ValueError, match=r"initial_gradient_squared_accumulator_value must be "
                     r"positive: 0.0"):
    tf.train.AdagradDAOptimizer(0.1, step, initial_gradient_squared_accumulator_value=0.0)
  with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\)"):
    tf.train.AdagradDAOptimizer(0.1, None).apply_gradients([(tf.constant([1.0, 1.0]), w)])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"cannot compute ResourceApplyAdagradDA as input #7\(zero-based\) was "
                     r"expected to be a int64 tensor but is a int32 tensor"):
    tf.train.AdagradDAOptimizer(0.1, tf.Variable(0)).apply_gradients([(tf.constant([1.0, 1.0]),
                                                                       w)])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Index 3 at offset 1 in indices is out of range"):
    opt.apply_gradients([(tf.IndexedSlices(tf.constant([1.0, 1.0]), tf.constant([0, 3])), w)])


# ---- Checkpoint helpers ----
def _save(directory, values, step=None):
  variables = {name: tf.Variable(value) for name, value in values.items()}
  return tf.train.Saver(variables).save(None, os.path.join(directory, "model"), global_step=step)


def test_checkpoints_iterator_mtimes_and_remove(tmp_path):
  directory = str(tmp_path)
  assert list(tf.train.checkpoints_iterator(directory, timeout=0)) == []
  first = _save(directory, {"v": [1.0]}, step=1)
  iterator = tf.train.checkpoints_iterator(directory, timeout=0)
  assert next(iterator) == first
  second = _save(directory, {"v": [2.0]}, step=2)
  assert next(iterator) == second
  timeouts = []
  assert list(iterator) == [] and timeouts == []
  calls = iter([False, True])
  iterator = tf.train.checkpoints_iterator(directory, timeout=0,
                                           timeout_fn=lambda: timeouts.append(1) or next(calls))
  assert list(iterator) == [second] and timeouts == [1, 1]

  mtimes = tf.train.get_checkpoint_mtimes([first, os.path.join(directory, "missing"), second])
  assert mtimes == [float(int(os.stat(first + ".index").st_mtime)),
                    float(int(os.stat(second + ".index").st_mtime))]
  open(first + ".meta", "w").close()
  tf.train.remove_checkpoint(first)
  tf.train.remove_checkpoint(os.path.join(directory, "missing"))
  assert not tf.train.checkpoint_exists(first) and not os.path.exists(first + ".meta")
  assert not [n for n in os.listdir(directory) if n.startswith("model-1.")]
  assert tf.train.checkpoint_exists(second)


def test_generate_checkpoint_state_proto():
  state = tf.train.generate_checkpoint_state_proto("save", "save/model-2", ["save/model-1"])
  assert state.model_checkpoint_path == "model-2"
  assert state.all_model_checkpoint_paths == ["model-1", "model-2"]
  assert str(state) == ('model_checkpoint_path: "model-2"\nall_model_checkpoint_paths: '
                        '"model-1"\nall_model_checkpoint_paths: "model-2"\n')
  state = tf.train.generate_checkpoint_state_proto("/abs/save", "/abs/save/model-2",
                                                   ["model-1"], [1.0, 2.0], 0.5)
  assert state.all_model_checkpoint_paths == ["model-1", "/abs/save/model-2"]
  assert state.all_model_checkpoint_timestamps == [1.0, 2.0]
  assert state.last_preserved_timestamp == 0.5
  state = tf.train.generate_checkpoint_state_proto("save", "save/model-2")
  assert (state.all_model_checkpoint_paths, state.all_model_checkpoint_timestamps,
          state.last_preserved_timestamp) == (["model-2"], [], 0.0)
  with pytest.raises(ValueError, match=r"Checkpoint timestamps, if provided, must match "
                     r"checkpoint paths \(got paths \['model-1', 'model-2'\] and timestamps "
                     r"\[1.0\]\)"):
    tf.train.generate_checkpoint_state_proto("save", "model-2", ["model-1"], [1.0])


@pytest.fixture(scope="module")
def checkpoint_dir(tmp_path_factory):
  directory = str(tmp_path_factory.mktemp("init_from"))
  _save(directory, {"old/w": [[1.0, 2.0], [3.0, 4.0]], "old/b": [5.0, 6.0], "c": 7.0})
  return directory


def test_init_from_checkpoint_with_variables(checkpoint_dir):
  v = tf.Variable(tf.zeros([2, 2]), name="new_w")
  tf.train.init_from_checkpoint(checkpoint_dir, {"old/w": v})
  assert v.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
  with pytest.raises(ValueError, match=r"Tensor old/zz is not found in .* checkpoint \{"):
    tf.train.init_from_checkpoint(checkpoint_dir, {"old/zz": v})
  with pytest.raises(ValueError, match=r"Shape of variable new_w:0 \(\(2, 2\)\) doesn't match "
                     r"with shape of tensor old/b \(\[2\]\) from checkpoint reader."):
    tf.train.init_from_checkpoint(checkpoint_dir, {"old/b": v})
  with pytest.raises(ValueError, match=r"Assignment map with scope only name new should map "
                     r"to scope only old/w. Should be 'scope/': 'other_scope/'."):
    tf.train.init_from_checkpoint(checkpoint_dir, {"old/w": "new/w"})
  double = tf.Variable(tf.zeros([2, 2], tf.float64))
  with pytest.raises(tf.errors.InvalidArgumentError, match="tensor_name = old/w; expected "
                     "dtype double does not equal original dtype float"):
    tf.train.init_from_checkpoint(checkpoint_dir, {"old/w": double})
  assert double.numpy().tolist() == [[0.0, 0.0], [0.0, 0.0]]
  with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
    tf.train.init_from_checkpoint(checkpoint_dir + "/nothing", {"old/w": v})


def test_init_from_checkpoint_by_name_in_a_variable_store(checkpoint_dir):
  store = tf.contrib.eager.EagerVariableStore()
  with store.as_default():
    with tf.variable_scope("new"):
      w = tf.get_variable("w", [2, 2])
      b = tf.get_variable("b", [2])
      tf.get_variable("x", [2])
    with tf.variable_scope("other"):
      c = tf.get_variable("c", [])
    with pytest.raises(ValueError, match=r"Tensor old/x \(x in old/\) is not found in"):
      tf.train.init_from_checkpoint(checkpoint_dir, {"old/": "new/"})
    assert b.numpy().tolist() == [5.0, 6.0]  # sorted: new/b and new/w come before new/x
    w.assign(tf.zeros([2, 2]))
    tf.train.init_from_checkpoint(checkpoint_dir, {"old/w": "new/w"})
    assert w.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    tf.train.init_from_checkpoint(checkpoint_dir, {"/": "other/"})
    assert c.numpy() == 7.0


def test_warm_start(checkpoint_dir):
  v = tf.Variable(tf.zeros([2, 2]), name="old/w")
  v2 = tf.Variable(tf.zeros([2]), name="old/b")
  tf.train.warm_start(checkpoint_dir, [v, v2])
  assert v.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]] and v2.numpy().tolist() == [5.0, 6.0]
  x = tf.Variable(tf.zeros([2]), name="x")
  tf.train.warm_start(checkpoint_dir, [x], var_name_to_prev_var_name={"x": "old/b"})
  assert x.numpy().tolist() == [5.0, 6.0]
  with pytest.raises(ValueError, match="Tensor x is not found in"):
    tf.train.warm_start(checkpoint_dir, [x])
  tf.train.warm_start(checkpoint_dir, ".*")  # the collections are empty when executing eagerly
  with pytest.raises(ValueError, match="must be a `list` or `str`.  Given type is <class 'int'>"):
    tf.train.warm_start(checkpoint_dir, 5)
  with pytest.raises(ValueError, match="it must be all `Variable` or all `str`"):
    tf.train.warm_start(checkpoint_dir, [x, "a"])
  info = tf.train.VocabInfo("a", 3, 0, "b")
  assert repr(info) == ("VocabInfo(new_vocab='a', new_vocab_size=3, num_oov_buckets=0, "
                        "old_vocab='b', old_vocab_size=-1, backup_initializer=None, axis=0)")
  with pytest.raises(ValueError, match="Provided axis: 2"):
    tf.train.VocabInfo("a", 3, 0, "b", axis=2)
  with pytest.raises(NotImplementedError, match="new vocabulary"):
    tf.train.warm_start(checkpoint_dir, [v2], var_name_to_vocab_info={"old/b": info})
  with pytest.raises(ValueError, match=r"var_name_to_vocab_info that were not used: \{'z'\}"):
    tf.train.warm_start(checkpoint_dir, [v2], var_name_to_vocab_info={"z": info})


# ---- Loops and threads ----
def test_looper_thread_and_coordinator():
  coord = tf.train.Coordinator()
  calls = []

  def target(tag):
    calls.append(tag)
    if len(calls) == 3:
      coord.request_stop()
  thread = tf.train.LooperThread.loop(coord, None, target, args=("x",))
  coord.join([thread], stop_grace_period_secs=10)
  assert calls == ["x"] * 3 and thread.daemon and not thread.is_alive()

  coord = tf.train.Coordinator()
  timed = tf.train.LooperThread(coord, 0.01, target=lambda: (_ for _ in ()).throw(
      ValueError("boom")))
  timed.start()
  with pytest.raises(ValueError, match="boom"):
    coord.join(stop_grace_period_secs=10)
  with pytest.raises(ValueError, match="'coord' argument must be a Coordinator"):
    tf.train.LooperThread(None, 1)
  with pytest.raises(ValueError, match="'args' and 'kwargs' argument require"):
    tf.train.LooperThread(tf.train.Coordinator(), 1, args=(1,))
  assert isinstance(timed, threading.Thread)


def test_basic_train_loop_retries_aborted_sessions():
  class Supervisor:
    def __init__(self):
      self.steps, self.sessions = [], 0

    def managed_session(self, master):
      supervisor = self

      class Session:
        def __enter__(self):
          supervisor.sessions += 1
          return "session-%d@%s" % (supervisor.sessions, master)

        def __exit__(self, *exc):
          return False
      return Session()

    def should_stop(self):
      return len(self.steps) >= 4

  def step(sess, scale, offset=0):
    supervisor.steps.append((sess, scale + offset))
    if len(supervisor.steps) == 2:
      raise tf.errors.AbortedError(None, None, "aborted")

  supervisor = Supervisor()
  tf.train.basic_train_loop(supervisor, step, args=(10,), kwargs={"offset": 1}, master="m")
  assert supervisor.steps == [("session-1@m", 11), ("session-1@m", 11), ("session-2@m", 11),
                              ("session-2@m", 11)]
  assert str(tf.train.NanLossDuringTrainingError()) == "NaN loss during training."
  assert issubclass(tf.train.NanLossDuringTrainingError, RuntimeError)


# ---- Cluster description and device placement ----
def test_cluster_spec():
  c = tf.train.ClusterSpec({"worker": ["w0:1", "w1:1", "w2:1"], "ps": {1: "ps1:2", 3: "ps3:2"}})
  assert str(c) == repr(c) == ("ClusterSpec({'ps': {1: 'ps1:2', 3: 'ps3:2'}, 'worker': "
                               "['w0:1', 'w1:1', 'w2:1']})")
  assert c.jobs == ["worker", "ps"]
  assert c.as_dict() == {"worker": ["w0:1", "w1:1", "w2:1"], "ps": {1: "ps1:2", 3: "ps3:2"}}
  assert (c.num_tasks("ps"), c.task_indices("ps"), c.task_address("ps", 3)) == \
      (2, [1, 3], "ps3:2")
  assert c.job_tasks("ps") == [None, "ps1:2", None, "ps3:2"]
  assert bool(c) and not tf.train.ClusterSpec({})
  tf_bytes = (b"\n\x1a\n\x02ps\x12\t\x08\x03\x12\x05ps3:2\x12\t\x08\x01\x12\x05ps1:2\n&\n"
              b"\x06worker\x12\x08\x08\x02\x12\x04w2:1\x12\x08\x08\x01\x12\x04w1:1\x12\x08\x08\x00"
              b"\x12\x04w0:1")  # TF's serialization (map entries in its order)
  assert tf.train.ClusterDef.FromString(tf_bytes) == c.as_cluster_def()
  copy = tf.train.ClusterSpec(c)
  assert copy.jobs == ["ps", "worker"] and copy == c and not copy == c.as_dict()
  assert tf.train.ClusterSpec(c.as_cluster_def()).as_dict() == c.as_dict()
  assert isinstance(c.as_cluster_def(), tf.train.ClusterDef)
  assert tf.train.ClusterSpec({"e": []}).as_dict() == {"e": {}}
  for call, message in [(lambda: c.num_tasks("x"), "No such job in cluster: 'x'"),
                        (lambda: c.task_address("ps", 0), "No task with index 0 in job 'ps'")]:
    with pytest.raises(ValueError, match=message):
      call()
  for value, message in [({"a": "b"}, "The tasks for job 'a' must be a list or a dictionary"),
                         (5, "`cluster` must be a dictionary mapping"),
                         ({"a": [5]}, "Task address 5 must be bytes or unicode"),
                         ({1: ["a"]}, "Job name 1 must be bytes or unicode")]:
    with pytest.raises(TypeError, match=message):
      tf.train.ClusterSpec(value)
  job = tf.train.JobDef(name="w")
  job.tasks[2] = "h:1"
  assert tf.train.ClusterSpec(tf.train.ClusterDef(job=[job])).as_dict() == {"w": {2: "h:1"}}


def test_replica_device_setter():
  setter = tf.train.replica_device_setter(ps_tasks=2)
  placed = [setter(tf.NodeDef(op=op, device=device)) for op, device in [
      ("VarHandleOp", ""), ("VariableV2", ""), ("MatMul", ""), ("VarHandleOp", "/job:ps/task:5"),
      ("VarHandleOp", "/job:worker"), ("MatMul", "/device:GPU:1"), ("VarHandleOp", "/device:GPU:1"),
      ("VarHandleOp", "/job:foo")]]
  assert placed == ["/job:ps/task:0", "/job:ps/task:1", "/job:worker", "/job:ps/task:5",
                    "/job:worker", "/job:worker/device:GPU:1", "/job:ps/task:1/device:GPU:1",
                    "/job:foo"]
  assert tf.train.replica_device_setter(ps_tasks=0) is None
  assert tf.train.replica_device_setter(cluster={"worker": ["a"]}) is None
  setter = tf.train.replica_device_setter(
      cluster=tf.train.ClusterSpec({"ps": ["a", "b", "c"], "worker": ["x"]}),
      worker_device="/job:worker/task:1/device:GPU:0", merge_devices=False)
  assert [setter(tf.NodeDef(op=op, device=device)) for op, device in [
      ("VarHandleOp", ""), ("VarHandleOp", "/cpu:0"), ("MatMul", "")]] == \
      ["/job:ps/task:0", "/cpu:0", "/job:worker/task:1/device:GPU:0"]
  setter = tf.train.replica_device_setter(ps_tasks=3, ps_device="/job:ps/device:CPU:0")
  assert setter(tf.NodeDef(op="VarHandleOp")) == "/job:ps/task:0/device:CPU:0"
  with pytest.raises(TypeError, match="ps_strategy must be callable"):
    tf.train.replica_device_setter(ps_tasks=2, ps_strategy=5)
  with pytest.raises(RuntimeError, match="does not support functions when eager"):
    with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
      pass


def test_server_is_not_supported():
  assert tf.distribute.Server is tf.train.Server
  with pytest.raises(NotImplementedError, match="in-process gRPC servers"):
    tf.train.Server(tf.train.ClusterSpec({"local": ["localhost:2222"]}))
  with pytest.raises(NotImplementedError, match="in-process gRPC servers"):
    tf.train.Server.create_local_server()


# ---- SDCA ----
def test_sdca_ops():
  ids = tf.train.sdca_fprint(tf.constant(["abc", "", "hello world", "x" * 100]))
  assert ids.dtype == tf.int64 and ids.shape == (4, 2)
  assert ids.numpy().tolist() == [[4143508125394299908, -6879828354153669051],
                                  [4463240938071824939, 4374473821787594281],
                                  [2911873174415414509, 6996746284954752264],
                                  [-2678948576289439314, -1323440425602353700]]
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input must be a vector, got shape "
                     r"\[1,1\]"):
    tf.train.sdca_fprint(tf.constant([["a"]]))
  with pytest.raises(RuntimeError, match="sdca_shrink_l1 op does not support eager execution. "
                     "Arg 'weights' is a ref."):
    tf.train.sdca_shrink_l1([tf.Variable([0.5])], l1=0.1, l2=1.0)
  with pytest.raises(NotImplementedError, match="sdca_optimizer"):
    tf.train.sdca_optimizer([], [], [], [], [1.0], [1.0], [], [], [], [[0.0] * 4],
                            "squared_loss", 0.0, 1.0, 1, 1)
