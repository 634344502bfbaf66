"""tf.queue / TF 1.x queues, conditional accumulators, readers, tf.CriticalSection, the
tf.train queue-runner helpers and tf.IndexedSlicesSpec under eager execution. Values and
messages are TF's (TF 2.21 run eagerly; Python-level messages and the " name: " suffix of
kernel errors are TF 1.15's). Anything that may block runs in a daemon thread joined with a
timeout, so a hang fails a test instead of stopping the suite."""
import threading
import time

import pytest

import tfe_compat as tf

errors = tf.errors
_WAIT = 0.2  # long enough for a thread to reach its blocking call


def values(tensor):
  value = tensor.numpy()
  return value if isinstance(value, bytes) else value.tolist()


class Background:
  """Runs `fn` in a daemon thread; `.result` / `.error` once it finished."""

  def __init__(self, fn):
    self.result = self.error = None
    def run():
      try:
        self.result = fn()
      except Exception as e:  # pylint: disable=broad-except
        self.error = e
    self.thread = threading.Thread(target=run, daemon=True)
    self.thread.start()
    time.sleep(_WAIT)

  @property
  def blocked(self):
    return self.thread.is_alive()

  def join(self):
    self.thread.join(5)
    assert not self.thread.is_alive(), "the background call did not finish"
    return self


def test_names_and_aliases():
  assert tf.FIFOQueue is tf.queue.FIFOQueue is tf.compat.v1.FIFOQueue
  assert tf.io.QueueBase is tf.queue.QueueBase is tf.QueueBase
  for name in ("RandomShuffleQueue", "PaddingFIFOQueue", "PriorityQueue"):
    assert getattr(tf.io, name) is getattr(tf.queue, name) is getattr(tf, name)
  assert tf.sparse.SparseConditionalAccumulator is tf.SparseConditionalAccumulator
  assert issubclass(tf.ConditionalAccumulator, tf.ConditionalAccumulatorBase)
  assert tf.train.add_queue_runner is tf.train.queue_runner.add_queue_runner


def test_fifo_queue_values_and_properties():
  q = tf.queue.FIFOQueue(3, tf.float32)
  assert (q.name, q.dtypes, q.names) == ("Empty", [tf.float32], None)
  assert q.shapes[0].dims is None
  assert q.queue_ref.dtype == tf.resource and q.queue_ref.shape == tf.TensorShape([])
  assert q.enqueue(1.0) is None and q.enqueue_many([[2., 3.]]) is None
  size = q.size()
  assert values(size) == 3 and size.dtype == tf.int32 and values(q.is_closed()) is False
  first = q.dequeue()
  assert values(first) == 1.0 and first.dtype == tf.float32
  assert [values(q.dequeue()), values(q.dequeue())] == [2.0, 3.0]
  with pytest.raises(errors.InvalidArgumentError, match=r"^FIFOQueue's DequeueMany and "
                     r"DequeueUpTo require the components to have specified shapes\. "
                     r"\[Op:QueueDequeueManyV2\] name: Empty_DequeueMany$"):
    q.dequeue_many(2)
  with tf.name_scope("scope"):
    assert tf.queue.FIFOQueue(3, tf.float32).name == "scope/"


def test_fifo_queue_components_batches_and_names():
  q = tf.queue.FIFOQueue(10, [tf.int32, tf.string], shapes=[[2], []])
  q.enqueue([[1, 2], "a"])
  q.enqueue_many([[[3, 4], [5, 6]], ["b", "c"]])
  ints, strings = q.dequeue()
  assert (values(ints), strings.numpy()) == ([1, 2], b"a")
  ints, strings = q.dequeue_many(2)
  assert values(ints) == [[3, 4], [5, 6]] and strings.numpy().tolist() == [b"b", b"c"]
  assert ints.dtype == tf.int32 and strings.dtype == tf.string
  empty = q.dequeue_many(0)
  assert [t.shape.as_list() for t in empty] == [[0, 2], [0]]
  named = tf.queue.FIFOQueue(3, [tf.int32, tf.float32], names=["a", "b"])
  named.enqueue({"a": 1, "b": 2.})
  out = named.dequeue()
  assert sorted(out) == ["a", "b"] and (values(out["a"]), values(out["b"])) == (1, 2.0)
  with pytest.raises(ValueError, match="^You must enqueue a dictionary in a Queue with names$"):
    named.enqueue([1, 2.])
  with pytest.raises(ValueError, match=r"Dictionary: \(\['a', 'c'\]\), Queue: \(\['a', 'b'\]\)"):
    named.enqueue({"a": 1, "c": 2.})
  with pytest.raises(ValueError, match="^Queue must have names to enqueue a dictionary$"):
    tf.queue.FIFOQueue(3, tf.float32).enqueue({"a": 1.})


def test_fifo_queue_input_errors():
  q = tf.queue.FIFOQueue(10, [tf.int32, tf.string], shapes=[[2], []])
  with pytest.raises(ValueError, match=r"^Shapes \(3,\) and \(2,\) are incompatible$"):
    q.enqueue([[1, 2, 3], "a"])
  with pytest.raises(TypeError, match="Cannot convert"):
    q.enqueue([[1., 2.], "a"])
  with pytest.raises(ValueError, match="^component_0: Tensor conversion requested dtype int32"):
    q.enqueue([tf.constant([1, 2], tf.int64), "a"])
  with pytest.raises(errors.InvalidArgumentError, match=r"^Signature mismatch, have: resource, "
                     r"int32-> expected: resource, int32, string-> \[Op:QueueEnqueueV2\] "
                     r"name: Empty_enqueue/$"):
    q.enqueue([[1, 2]])
  with pytest.raises(ValueError, match="^Dimensions 2 and 1 are not compatible$"):
    q.enqueue_many([[[1, 2], [3, 4]], ["a"]])
  with pytest.raises(ValueError, match=r"^Shape \(\) must have rank at least 1$"):
    q.enqueue_many([1, "a"])
  with pytest.raises(errors.InvalidArgumentError, match=r"^DequeueManyOp requested -1 < 0 "
                     r"elements \[Op:QueueDequeueManyV2\] name: Empty_DequeueMany$"):
    q.dequeue_many(-1)
  with pytest.raises(errors.InvalidArgumentError, match=r"^cannot compute QueueDequeueManyV2 "
                     "as input #1\\(zero-based\\) was expected to be a int32 tensor but is a "
                     "int64 tensor"):
    q.dequeue_many(tf.constant(1, tf.int64))
  with pytest.raises(ValueError, match=r"^All shapes must be fully defined"):
    tf.queue.FIFOQueue(3, tf.float32, shapes=[[None]])
  with pytest.raises(errors.InvalidArgumentError, match=r"^Different number of component "
                     r"types\.  Types: float, Shapes: \[\[2\], \[3\]\] \[Op:FIFOQueueV2\] "
                     r"name: fifo_queue$"):
    tf.queue.FIFOQueue(3, tf.float32, shapes=[[2], [3]])
  with pytest.raises(TypeError, match="^Expected int for argument 'capacity' not 'a'.$"):
    tf.queue.FIFOQueue("a", tf.float32)
  with pytest.raises(ValueError, match="^List of names must have the same length"):
    tf.queue.FIFOQueue(3, tf.float32, names=["a", "b"])


def test_closed_queue_errors():
  q = tf.queue.FIFOQueue(3, tf.float32, shapes=[[]])
  q.enqueue(1.)
  q.close()
  assert values(q.is_closed()) is True
  kernel = q.queue_ref.name  # TF names an eager queue by a fresh uid
  with pytest.raises(errors.OutOfRangeError, match=r"^FIFOQueue '%s' is closed and has "
                     r"insufficient elements \(requested 2, current size 1\) "
                     r"\[Op:QueueDequeueManyV2\] name: Empty_DequeueMany$" % kernel):
    q.dequeue_many(2)
  assert values(q.dequeue_up_to(2)) == [1.0]
  with pytest.raises(errors.OutOfRangeError, match=r"^FIFOQueue '%s' is closed and has "
                     r"insufficient elements \(requested 1, current size 0\) "
                     r"\[Op:QueueDequeueV2\] name: Empty_Dequeue$" % kernel):
    q.dequeue()
  with pytest.raises(errors.OutOfRangeError, match=r"\(requested 2, current size 0\)"):
    q.dequeue_up_to(2)
  with pytest.raises(errors.CancelledError, match=r"^FIFOQueue '%s' is closed\. "
                     r"\[Op:QueueEnqueueV2\] name: Empty_enqueue/$" % kernel):
    q.enqueue(1.)
  with pytest.raises(errors.CancelledError, match=r"\[Op:QueueEnqueueManyV2\]"):
    q.enqueue_many([[1.]])
  with pytest.raises(errors.CancelledError, match=r"^Queue '%s' is already closed\. "
                     r"\[Op:QueueCloseV2\] name: Empty_Close$" % kernel):
    q.close()
  q.close(cancel_pending_enqueues=True)  # no error when cancelling


def test_blocking_dequeue_and_close():
  q = tf.queue.FIFOQueue(2, tf.int32, shapes=[[]])
  waiter = Background(lambda: q.dequeue_many(3))
  q.enqueue(1)
  time.sleep(_WAIT)
  assert waiter.blocked and values(q.size()) == 0  # the waiting dequeue took the element
  q.enqueue_many([[2, 3, 4]])  # more than the capacity: the dequeue makes room
  assert values(waiter.join().result) == [1, 2, 3] and values(q.size()) == 1
  waiter = Background(lambda: q.dequeue_many(3))  # takes 4, then waits
  assert waiter.blocked
  q.close()  # the partial batch goes back into the queue
  assert isinstance(waiter.join().error, errors.OutOfRangeError)
  assert "(requested 2, current size 0)" in str(waiter.error)
  assert values(q.size()) == 1 and values(q.dequeue()) == 4


def test_blocking_enqueue_cancel_and_close_order():
  q = tf.queue.FIFOQueue(1, tf.int32, shapes=[[]])
  q.enqueue(1)
  pending = Background(lambda: q.enqueue(2))
  assert pending.blocked
  q.close(cancel_pending_enqueues=True)
  assert isinstance(pending.join().error, errors.CancelledError)
  assert str(pending.error) == ("Enqueue operation was cancelled [Op:QueueEnqueueV2] "
                                "name: Empty_enqueue/")
  assert values(q.size()) == 1
  q = tf.queue.FIFOQueue(1, tf.int32, shapes=[[]])
  q.enqueue(1)
  pending = Background(lambda: q.enqueue(2))
  closer = Background(q.close)  # close waits behind the pending enqueue
  assert pending.blocked and closer.blocked and values(q.is_closed()) is False
  assert values(q.dequeue()) == 1
  assert pending.join().error is None and closer.join().error is None
  assert values(q.is_closed()) is True and values(q.dequeue()) == 2


def test_random_shuffle_queue():
  q = tf.queue.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=3)
  assert q.name == "Empty"
  q.enqueue_many([[1, 2]])
  waiter = Background(q.dequeue)  # min_after_dequeue=2 elements stay behind
  assert waiter.blocked
  q.enqueue(3)
  assert waiter.join().result.numpy() in (1, 2, 3) and values(q.size()) == 2
  q.close()  # min_after_dequeue no longer applies
  rest = q.dequeue_up_to(5)
  assert sorted(values(rest) + [waiter.result.numpy()]) == [1, 2, 3]
  kernel = q.queue_ref.name
  with pytest.raises(errors.OutOfRangeError, match="^RandomShuffleQueue '%s' is closed and has "
                     "insufficient elements" % kernel):
    q.dequeue()
  with pytest.raises(errors.CancelledError, match="^RandomShuffleQueue '%s' is closed." % kernel):
    q.enqueue(1)
  orders = []
  for _ in range(2):  # the same seed gives the same order
    q = tf.queue.RandomShuffleQueue(10, 0, tf.int32, shapes=[[]], seed=7)
    q.enqueue_many([list(range(8))])
    orders.append(values(q.dequeue_many(8)))
  assert orders[0] == orders[1] and sorted(orders[0]) == list(range(8))
  with pytest.raises(errors.InvalidArgumentError, match=r"^min_after_dequeue 20 must be < "
                     r"capacity 10 \[Op:RandomShuffleQueueV2\] name: random_shuffle_queue$"):
    tf.queue.RandomShuffleQueue(10, 20, tf.int32)
  with pytest.raises(errors.InvalidArgumentError, match="^min_after_dequeue -1 must be >= 0"):
    tf.queue.RandomShuffleQueue(10, -1, tf.int32)
  with pytest.raises(errors.InvalidArgumentError, match="^RandomShuffleQueue's DequeueMany"):
    tf.queue.RandomShuffleQueue(10, 2, tf.int32).dequeue_many(1)


def test_priority_queue():
  q = tf.queue.PriorityQueue(10, [tf.int32], shapes=[[]])
  assert q.dtypes == [tf.int64, tf.int32] and [s.as_list() for s in q.shapes] == [[], []]
  for priority, value in [(1, 10), (0, 20), (1, 30), (1, 40), (0, 50), (2, 60), (1, 70)]:
    q.enqueue([priority, value])
  priorities, items = q.dequeue_many(7)
  assert priorities.dtype == tf.int64 and values(priorities) == [0, 0, 1, 1, 1, 1, 2]
  assert values(items) == [20, 50, 30, 10, 40, 70, 60]  # TF's order of equal priorities
  q = tf.queue.PriorityQueue(10, [tf.string], shapes=[[]])
  q.enqueue([3, "c"])
  q.enqueue_many([[5, -2], ["e", "m"]])
  assert [values(t) for t in q.dequeue()] == [-2, b"m"]
  q.close()  # as TF: dequeue_up_to drops the elements it took when it cannot finish
  with pytest.raises(errors.OutOfRangeError, match=r"\(requested 3, current size 0\)"):
    q.dequeue_up_to(5)
  with pytest.raises(errors.InvalidArgumentError, match=r"^Shared queue '\d+' has component "
                     r"shapes \[\] but requested component shapes were \[\[\]\] "
                     r"\[Op:PriorityQueueV2\] name: priority_queue$"):
    tf.queue.PriorityQueue(10, [tf.string])  # TF's kernel rejects a queue without shapes


def test_padding_fifo_queue():
  q = tf.queue.PaddingFIFOQueue(10, [tf.int32, tf.string], shapes=[[None, 2], [None]])
  assert [s.as_list() for s in q.shapes] == [[None, 2], [None]]
  q.enqueue([[[1, 2]], ["a", "b", "c"]])
  q.enqueue([[[3, 4], [5, 6], [7, 8]], ["d"]])
  with pytest.raises(ValueError, match=r"^Shapes \(1, 3\) and \(\?, 2\) are incompatible$"):
    q.enqueue([[[3, 4, 5]], ["d"]])
  assert [t.shape.as_list() for t in q.dequeue_many(0)] == [[0, 0, 2], [0, 0]]
  ints, strings = q.dequeue_many(2)
  assert values(ints) == [[[1, 2], [0, 0], [0, 0]], [[3, 4], [5, 6], [7, 8]]]
  assert strings.numpy().tolist() == [[b"a", b"b", b"c"], [b"d", b"", b""]]
  with pytest.raises(ValueError, match="^When providing partial shapes, a list of shapes"):
    tf.queue.PaddingFIFOQueue(10, tf.float32, shapes=None)
  with pytest.raises(ValueError, match="^Shapes must be provided for all components, but "
                     "received 2 dtypes and 1 shapes.$"):
    tf.queue.PaddingFIFOQueue(10, [tf.float32, tf.int32], shapes=[[None]])


def test_from_list():
  a = tf.queue.FIFOQueue(10, tf.int32, shapes=[[2]])
  b = tf.queue.FIFOQueue(10, tf.int32, shapes=[[3]])
  a.enqueue([[1, 2]])
  b.enqueue([[3, 4, 5]])
  chosen = tf.queue.QueueBase.from_list(1, [a, b])
  assert type(chosen) is tf.queue.QueueBase and chosen.shapes[0].as_list() == [None]
  assert values(chosen.dequeue()) == [3, 4, 5] and values(b.size()) == 0
  assert values(tf.queue.QueueBase.from_list(tf.constant(0), [a, b]).dequeue()) == [1, 2]
  with pytest.raises(TypeError, match="^A list of queues expected$"):
    tf.queue.QueueBase.from_list(0, (a, b))
  with pytest.raises(TypeError, match="^Queues do not have matching component dtypes.$"):
    tf.queue.QueueBase.from_list(0, [a, tf.queue.FIFOQueue(1, tf.float32)])
  with pytest.raises(errors.InvalidArgumentError, match=r"^indices = 2 is not in \[0, 2\)"):
    tf.queue.QueueBase.from_list(2, [a, b])


def test_queue_in_tf_function_runs_eagerly():
  q = tf.queue.FIFOQueue(10, tf.float32, shapes=[[]])

  @tf.function
  def put(x):
    q.enqueue(x * 2.)
    return q.size()

  with pytest.warns(UserWarning, match="cannot be compiled"):
    sizes = [values(put(tf.constant(v))) for v in (1., 2., 3.)]
  assert sizes == [1, 2, 3] and values(q.dequeue_many(3)) == [2., 4., 6.]


def test_conditional_accumulator():
  acc = tf.ConditionalAccumulator(tf.float32, shape=[2])
  assert (acc.name, acc.dtype) == ("", tf.float32)
  acc.apply_grad([1., 2.])
  acc.apply_grad([3., 5.], local_step=0)
  count = acc.num_accumulated()
  assert values(count) == 2 and count.dtype == tf.int32
  mean = acc.take_grad(2)
  assert values(mean) == [2., 3.5] and mean.dtype == tf.float32
  acc.apply_grad([3., 5.], local_step=0)  # stale: the step is now 1
  assert values(acc.num_accumulated()) == 0
  acc.apply_grad([3., 5.], local_step=1)
  acc.apply_grad([1., 1.], local_step=5)
  assert values(acc.take_grad(1)) == [2., 3.]
  acc.set_global_step(10)
  acc.apply_grad([1., 1.], local_step=9)
  acc.apply_grad([2., 4.], local_step=10)
  assert values(acc.take_grad(1)) == [2., 4.]
  with pytest.raises(ValueError, match=r"^Shapes \(3,\) and \(2,\) are incompatible$"):
    acc.apply_grad([3., 5., 1.])
  with pytest.raises(errors.InvalidArgumentError, match=r"^Argument num_required must be "
                     r"positive, but was 0 \[Op:ResourceAccumulatorTakeGradient\]$"):
    acc.take_grad(0)
  summed = tf.ConditionalAccumulator(tf.float64, reduction_type="SUM")
  summed.apply_grad([[1., 2.]])
  with pytest.raises(errors.InvalidArgumentError, match=r"^Shape mismatch: expected \[1,2\], "
                     r"got \[2\] \[Op:ResourceAccumulatorApplyGradient\]$"):
    summed.apply_grad([1., 2.])
  summed.apply_grad([[1., 2.]])
  total = summed.take_grad(2)
  assert values(total) == [[2., 4.]] and total.dtype == tf.float64
  with pytest.raises(errors.InvalidArgumentError, match="^Value for attr 'reduction_type' of "
                     "\"MAX\" is not in the list of allowed values"):
    tf.ConditionalAccumulator(tf.float32, reduction_type="MAX")
  with pytest.raises(errors.NotFoundError, match="^Could not find device for node"):
    tf.ConditionalAccumulator(tf.int32)
  with tf.name_scope("sc"):
    assert tf.ConditionalAccumulator(tf.float16).name == "sc/"


def test_take_grad_blocks_until_enough_gradients():
  acc = tf.ConditionalAccumulator(tf.float32, shape=())
  waiter = Background(lambda: acc.take_grad(2))
  acc.apply_grad(1.)
  time.sleep(_WAIT)
  assert waiter.blocked
  acc.apply_grad(4.)
  assert values(waiter.join().result) == 2.5 and values(acc.num_accumulated()) == 0


def test_sparse_accumulator_and_readers_raise_under_eager():
  with pytest.raises(RuntimeError, match="^sparse_conditional_accumulator op does not support "
                     "eager execution. Arg 'handle' is a ref.$"):
    tf.sparse.SparseConditionalAccumulator(tf.float32, shape=[2, 2])
  message = ("^Readers are not supported when eager execution is enabled. Instead, please use "
             "tf.data to get data into your model.$")
  for reader in (tf.TFRecordReader, tf.TextLineReader, tf.IdentityReader, tf.WholeFileReader):
    with pytest.raises(RuntimeError, match=message):
      reader()
  with pytest.raises(RuntimeError, match=message):
    tf.FixedLengthRecordReader(4)
  with pytest.raises(RuntimeError, match="^lmdb_reader op does not support eager execution"):
    tf.LMDBReader()


def test_critical_section():
  cs = tf.CriticalSection()
  v = tf.Variable(0)
  assert values(cs.execute(lambda: v.assign_add(1))) == 1
  out = cs.execute(lambda: {"a": tf.constant(1), "b": (2, None)})
  assert values(out["a"]) == 1 and values(out["b"][0]) == 2 and out["b"][1] is None
  with pytest.raises(ValueError, match=r"^Attempting to lock a CriticalSection \(signature="
                     r"\('', \d+, '/job:localhost/replica:0/task:0/device:\w+:0'\)\) in which "
                     r"we are already running. This is illegal and may cause deadlocks.$"):
    cs.execute(lambda: cs.execute(lambda: tf.constant(1)))
  other = tf.CriticalSection(name="named", shared_name="sh")
  assert values(cs.execute(lambda: other.execute(lambda: tf.constant(3)))) == 3
  with pytest.raises(ValueError, match=r"signature=\('', 'sh', "):
    other.execute(lambda: tf.CriticalSection(shared_name="sh").execute(lambda: 1))
  with pytest.raises(AttributeError, match="Tensor.op is meaningless"):
    cs.name
  with pytest.raises(KeyError):  # fn's error passes through and releases the lock
    cs.execute(lambda: {}["k"])
  assert values(cs.execute(lambda: tf.constant(5))) == 5


def test_critical_section_serializes_threads():
  cs, log = tf.CriticalSection(), []

  def slow(tag):
    log.append(tag + " in")
    time.sleep(_WAIT)
    log.append(tag + " out")
    return tf.constant(0)

  first = Background(lambda: cs.execute(lambda: slow("a")))
  second = Background(lambda: cs.execute(lambda: slow("b")))
  first.join()
  second.join()
  assert log == ["a in", "a out", "b in", "b out"]


def test_queue_runner_helpers():
  tf.train.add_queue_runner("runner", collection="test_queue_runners")
  assert tf.get_collection("test_queue_runners") == ["runner"]
  with pytest.raises(RuntimeError, match="^Queues are not compatible with eager execution.$"):
    tf.train.queue_runner.start_queue_runners()
  tensor = tf.constant([1, 2])
  assert tf.train.limit_epochs(tensor) is tensor
  assert values(tf.train.limit_epochs([1, 2], 2)) == [1, 2]
  with pytest.raises(ValueError, match="^num_epochs must be > 0 not 0.$"):
    tf.train.limit_epochs(tensor, 0)


def test_indexed_slices_spec():
  spec = tf.IndexedSlicesSpec()
  assert repr(spec) == ("IndexedSlicesSpec(TensorShape(None), tf.float32, tf.int64, None, "
                        "TensorShape([Dimension(None)]))")
  assert spec.value_type is tf.IndexedSlices
  assert spec == tf.IndexedSlicesSpec() and hash(spec) == hash(tf.IndexedSlicesSpec())
  partial = tf.IndexedSlicesSpec([None, 3], tf.float32, tf.int32, tf.int64, [5])
  full = tf.IndexedSlicesSpec([4, 3], tf.float32, tf.int32, tf.int64, [5])
  assert partial != spec and not spec.is_compatible_with(partial)
  assert partial.is_compatible_with(full)
  assert not partial.is_compatible_with(
      tf.IndexedSlicesSpec([4, 3], tf.float32, tf.int32, tf.int64, [2]))
  assert partial.most_specific_compatible_type(full) == partial
  with pytest.raises(ValueError, match="^No TypeSpec is compatible with both"):
    partial.most_specific_compatible_type(
        tf.IndexedSlicesSpec([4, 3], tf.float64, tf.int32, tf.int64, [5]))
  with pytest.raises(ValueError, match=r"^Shape \(2, 3\) must have rank 1$"):
    tf.IndexedSlicesSpec(indices_shape=[2, 3])
