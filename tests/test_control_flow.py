"""tf.cond / case / switch_case / while_loop / map_fn / scan / fold, tf.print, tf.Assert and
the assert_* checks: eager values and errors (golden values from TF), and traced behaviour
(jax.jit wrappers, gradients with jax.grad and with a GradientTape inside the trace)."""
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.framework.tensor import Tensor

f32 = np.float32


def _np(x):
  return jax.tree_util.tree_map(lambda t: t.numpy() if isinstance(t, Tensor) else t, x,
                                is_leaf=lambda t: isinstance(t, Tensor))


# ---- eager semantics ----
def test_cond_eager_values():
  x = tf.constant(2.0)
  assert tf.cond(True, lambda: 1, lambda: 2) == 1  # Python values pass through eagerly
  assert tf.cond(tf.constant(False), lambda: [x], lambda: [x * 2]).numpy() == 4.0
  out = tf.cond(tf.constant(False), lambda: [x], lambda: [x * 2], strict=True)
  assert isinstance(out, list) and out[0].numpy() == 4.0
  assert _np(tf.cond(x > 1, lambda: (x, 1), lambda: (x, 2))) == (2.0, 1)
  assert tf.cond(x > 1, fn1=lambda: 1, fn2=lambda: 2) == 1
  calls = []
  tf.cond(x > 1, lambda: calls.append("t"), lambda: calls.append("f"))
  assert calls == ["t"]  # only the chosen branch runs eagerly
  with pytest.raises(TypeError, match="'true_fn' must be callable."):
    tf.cond(x > 1, 1, lambda: 2)
  with pytest.raises(TypeError, match="'true_fn' argument required"):
    tf.cond(x > 1, None, lambda: 2)


def test_while_loop_eager_values():
  r = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0])
  assert r.dtype == tf.int32 and r.numpy() == 10
  r = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i),
                    (tf.constant(0), tf.constant(0)))
  assert isinstance(r, tuple) and _np(r) == (5, 10)
  r = tf.while_loop(lambda i, s: i < 5, lambda i, s: [i + 1, s + i], [0, 0])
  assert isinstance(r, list) and _np(r) == [5, 10]
  assert tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)],
                       maximum_iterations=3).numpy() == 3
  assert _np(tf.while_loop(lambda i, j: i < 10, lambda i, j: (i + 1, j), [0, 1],
                           maximum_iterations=3)) == (3, 1)
  r = tf.while_loop(lambda a: a["i"] < 3, lambda a: {"i": a["i"] + 1, "v": a["v"] * 2.},
                    [{"i": tf.constant(0), "v": tf.constant(1.)}])
  assert _np(r) == {"i": 3, "v": 8.0}
  with pytest.raises(ValueError, match="'loop_vars' must be provided."):
    tf.while_loop(lambda: True, lambda: (), [])
  with pytest.raises(TypeError, match="'cond' must be callable."):
    tf.while_loop(1, lambda i: i, [0])
  with pytest.raises(ValueError, match=r"'maximum_iterations' must be a scalar. Received "
                                       r"shape: \(1,\)"):
    tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0], maximum_iterations=tf.constant([3]))


def test_map_fn_scan_fold_eager_values():
  e = tf.constant([1., 2., 3.])
  np.testing.assert_array_equal(tf.map_fn(lambda x: x * 2, e).numpy(), [2., 4., 6.])
  r = tf.map_fn(lambda xy: xy[0] * xy[1], (e, e), dtype=tf.float32)
  np.testing.assert_array_equal(r.numpy(), [1., 4., 9.])
  r = tf.map_fn(lambda x: (x, x * 2), e, dtype=(tf.float32, tf.float32))
  np.testing.assert_array_equal(r[1].numpy(), [2., 4., 6.])
  r = tf.map_fn(lambda x: tf.cast(x, tf.int32), e, dtype=tf.int32)
  assert r.dtype == tf.int32
  np.testing.assert_array_equal(tf.map_fn(lambda x: 1.0, e).numpy(), [1., 1., 1.])
  r = tf.map_fn(lambda d: d["a"] + d["b"], {"a": e, "b": e}, dtype=tf.float32)
  np.testing.assert_array_equal(r.numpy(), [2., 4., 6.])
  r = tf.map_fn(lambda x: x * 2, tf.zeros([0, 2]))
  assert r.shape == (0,) and r.dtype == tf.float32
  np.testing.assert_array_equal(tf.map_fn(tf.reduce_sum, tf.ones([2, 3])).numpy(), [3., 3.])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="TensorArray dtype is float32 but Op is trying to write dtype int32"):
    tf.map_fn(lambda x: tf.cast(x, tf.int32), e)
  with pytest.raises(ValueError, match="not scalars"):
    tf.map_fn(lambda x: x, tf.constant(1.))
  with pytest.raises(ValueError, match="don't have the same nested structure"):
    tf.map_fn(lambda x: (x, x), e)
  with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
    tf.map_fn(lambda xy: xy[0], (e, tf.constant([1., 2.])))
  with pytest.raises(ValueError, match=r"Incompatible shape for value \(\(2,\)\), expected "
                                       r"\(\(1,\)\)"):
    tf.map_fn(lambda x: tf.range(tf.cast(x, tf.int32)), e, dtype=tf.int32)

  np.testing.assert_array_equal(tf.scan(lambda a, x: a + x, e).numpy(), [1., 3., 6.])
  np.testing.assert_array_equal(
      tf.scan(lambda a, x: a + x, e, initializer=tf.constant(10.)).numpy(), [11., 13., 16.])
  np.testing.assert_array_equal(tf.scan(lambda a, x: a + x, e, reverse=True).numpy(),
                                [6., 5., 3.])
  r = tf.scan(lambda a, x: (a[0] + x, a[1] * x), e,
              initializer=(tf.constant(0.), tf.constant(1.)))
  np.testing.assert_array_equal(r[1].numpy(), [1., 2., 6.])
  r = tf.scan(lambda a, x: a + x[0] * x[1], (e, e), initializer=tf.constant(0.))
  np.testing.assert_array_equal(r.numpy(), [1., 5., 14.])
  r = tf.scan(lambda a, x: a + x, e, initializer=0.)
  assert r.dtype == tf.float32
  assert tf.scan(lambda a, x: a + x, tf.zeros([0]), initializer=tf.constant(0.)).shape == (0,)

  assert tf.foldl(lambda a, x: a + x, e).numpy() == 6.0
  assert tf.foldl(lambda a, x: a + x, e, initializer=tf.constant(10.)).numpy() == 16.0
  assert tf.foldr(lambda a, x: a - x, e).numpy() == 0.0
  assert tf.foldl(lambda a, x: a * 10 + x, tf.constant([1, 2, 3])).numpy() == 123
  assert tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3])).numpy() == 321
  assert tf.foldl(lambda a, x: a + x[0] * x[1], (e, e), initializer=tf.constant(0.)).numpy() == 14


def test_case_switch_case_group_tuple():
  x, y = tf.constant(1), tf.constant(2)
  f1, f2, f3 = (lambda: tf.constant(17)), (lambda: tf.constant(23)), (lambda: tf.constant(-1))
  assert tf.case([(x < y, f1), (x > y, f2)], default=f3).numpy() == 17
  assert tf.case([(x > y, f1), (x > y, f2)], default=f3).numpy() == -1
  assert tf.case([(x > y, f1), (x < y, f2)]).numpy() == 23
  assert tf.case([(x < y, f1), (x < y, f2)], default=f3).numpy() == 17
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.case([(x > y, f1), (x > y, f2)])
  assert str(info.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                             "Summarized data: b'Input error: None of conditions evaluated as "
                             "True:'\nFalse, False")
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.case([(x < y, f1), (x < y, f2)], default=f3, exclusive=True)
  assert str(info.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                             "Summarized data: b'Input error: exclusive=True: more than 1 "
                             "conditions (?, ?) evaluated as True:'\nTrue, True")
  with pytest.raises(TypeError, match="pred must be a Tensor, got: True"):
    tf.case([(True, f1)], default=f3)
  with pytest.raises(TypeError, match="must be a 2-tuple"):
    tf.case([x < y], default=f3)
  assert tf.case([(x < y, lambda: [x])], default=lambda: [y]).numpy() == 1

  assert tf.switch_case(tf.constant(1), [f1, f2, f3]).numpy() == 23
  assert tf.switch_case(tf.constant(5), [f1, f2, f3]).numpy() == -1
  assert tf.switch_case(tf.constant(-1), [f1, f2, f3]).numpy() == -1
  assert tf.switch_case(tf.constant(5), [f1, f2], default=f3).numpy() == -1
  assert tf.switch_case(tf.constant(1, tf.int64), [f1, f2, f3]).numpy() == 23
  with pytest.raises(ValueError, match=r"contiguous range of \[0 to 2\) but found \{0,2\}"):
    tf.switch_case(tf.constant(2), {0: f1, 2: f2}, default=f3)
  with pytest.raises(TypeError, match="'branch_index' must be a Tensor"):
    tf.switch_case(1, [f1, f2])
  with pytest.raises(TypeError, match="'branch_index' must be an integer Tensor"):
    tf.switch_case(tf.constant(1.), [f1, f2])

  assert tf.group(x, y) is None and tf.no_op() is None
  assert tf.tuple([x, y, None]) == [x, y, None]


def test_eager_gradients_through_control_flow():
  x, w = tf.constant(2.0), tf.Variable(3.0)
  with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    c = tf.cond(x > 0, lambda: x * w, lambda: x / w)
    y = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * w + x), [0, x])[1]
    m = tf.reduce_sum(tf.map_fn(lambda v: v * w, tf.stack([x, x * 2])))
    s = tf.reduce_sum(tf.scan(lambda acc, v: acc * w + v, tf.stack([x, x])))
    f = tf.foldr(lambda acc, v: acc * v, tf.stack([x, w * 1.0]))
  assert _np(tape.gradient(c, [x, w])) == [3.0, 2.0]
  assert _np(tape.gradient(y, [x, w])) == [40.0, 68.0]
  assert _np(tape.gradient(m, [x, w])) == [9.0, 6.0]
  assert _np(tape.gradient(s, [x, w])) == [5.0, 2.0]
  assert _np(tape.gradient(f, [x, w])) == [3.0, 2.0]


# ---- traced (jax.jit) behaviour ----
def test_traced_cond_values_and_gradients():
  def f(a):
    x = Tensor(a)
    return tf.cond(x > 0, lambda: x * x, lambda: x * 3.0)._value
  jf = jax.jit(f)
  assert float(jf(f32(2.))) == 4.0 and float(jf(f32(-1.))) == -3.0
  assert float(jax.grad(jf)(f32(2.))) == 4.0 and float(jax.grad(jf)(f32(-1.))) == 3.0

  def branches(a):
    x = Tensor(a)
    return tf.case([(x < 0, lambda: x * 0 - 1), (x < 10, lambda: x)], default=lambda: x * 10
                   )._value, tf.switch_case(tf.cast(x, tf.int32), [lambda: x, lambda: x * 2],
                                            default=lambda: x * 0)._value
  assert [float(v) for v in jax.jit(branches)(f32(1.))] == [1.0, 2.0]
  assert [float(v) for v in jax.jit(branches)(f32(20.))] == [200.0, 0.0]

  v = tf.Variable(1.0)

  def writes(a):
    x = Tensor(a)
    return tf.cond(x > 0, lambda: (v.assign_add(1.0), x)[1], lambda: x)._value
  with pytest.raises(NotImplementedError, match="tf.cond with variable assignments inside a "
                                                "branch is not supported inside tf.function"):
    jax.jit(writes)(f32(1.))
  assert v.numpy() == 1.0


def test_traced_loops_values_and_jax_grad():
  n = np.int32(3)

  def bounded(a, count):
    x, limit = Tensor(a), Tensor(count)
    return tf.while_loop(lambda i, s: i < limit, lambda i, s: (i + 1, s * x), [0, x * 0 + 1],
                         maximum_iterations=5)[1]._value
  assert float(jax.jit(bounded)(f32(2.), n)) == 8.0
  assert float(jax.grad(jax.jit(bounded))(f32(2.), n)) == 12.0

  def unbounded(a, count):
    x, limit = Tensor(a), Tensor(count)
    return tf.while_loop(lambda i, s: i < limit, lambda i, s: (i + 1, s * x),
                         [0, x * 0 + 1])[1]._value
  assert float(jax.jit(unbounded)(f32(2.), n)) == 8.0
  with pytest.raises(NotImplementedError, match="need `maximum_iterations`"):
    jax.grad(jax.jit(unbounded))(f32(2.), n)

  def mapped(a):
    x = Tensor(a)
    w = x[0]
    return tf.reduce_sum(tf.map_fn(lambda v: v * v * w, x))._value
  a = np.array([1., 2.], f32)
  assert float(jax.jit(mapped)(a)) == 5.0
  np.testing.assert_allclose(jax.grad(jax.jit(mapped))(a), [7., 4.])

  def scanned(a):
    x = Tensor(a)
    return (tf.scan(lambda acc, v: acc * v, x)._value, tf.foldl(lambda acc, v: acc + v, x)._value,
            tf.foldr(lambda acc, v: acc - v, x)._value,
            tf.scan(lambda acc, v: acc + v, x, initializer=tf.constant(10.), reverse=True)._value)
  out = jax.jit(scanned)(np.array([1., 2., 3.], f32))
  np.testing.assert_array_equal(out[0], [1., 2., 6.])
  assert float(out[1]) == 6.0 and float(out[2]) == 0.0
  np.testing.assert_array_equal(out[3], [16., 15., 13.])


def test_random_ops_in_compiled_loops_draw_anew_each_iteration_and_call():
  """As in TF, random ops in a loop body give new values in every iteration and call; with
  a global seed, the sequence repeats after the seed is set again."""
  @tf.function
  def unbounded():
    return tf.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, v + tf.one_hot(
        i, 4) * tf.random_uniform([])), [0, tf.zeros([4])])[1]

  @tf.function
  def bounded():
    return tf.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, v + tf.one_hot(
        i, 4) * tf.random_uniform([])), [0, tf.zeros([4])], maximum_iterations=6)[1]

  @tf.function
  def mapped(x):
    return tf.map_fn(lambda r: r + tf.random_uniform([]), x)

  @tf.function
  def scanned(x):
    return tf.scan(lambda a, r: r + tf.random_normal([]), x)

  for fn in [unbounded, bounded, lambda: mapped(tf.zeros([4])),
             lambda: scanned(tf.zeros([4]))]:
    first, second = fn().numpy(), fn().numpy()
    assert len(set(first.tolist())) == 4, first
    assert not np.array_equal(first, second)
  tf.set_random_seed(7)
  seeded = [unbounded().numpy(), mapped(tf.zeros([4])).numpy()]
  tf.set_random_seed(7)
  again = [unbounded().numpy(), mapped(tf.zeros([4])).numpy()]
  for a, b in zip(seeded, again):
    np.testing.assert_array_equal(a, b)

  w = tf.Variable(2.0)

  @tf.function
  def gradient(x):
    with tf.GradientTape() as tape:
      loss = tf.reduce_sum(tf.scan(lambda a, r: a * w + r + 0 * tf.random_normal([]), x,
                                   initializer=tf.constant(1.0)))
    return tape.gradient(loss, w)
  assert float(gradient(tf.ones([3]))) == 23.0


def test_tape_inside_jit_sees_captured_tensors_and_variables():
  w_var = tf.Variable(3.0)

  def inner(a, w_):
    x, w = Tensor(a), Tensor(w_)
    with tf.GradientTape(persistent=True) as tape:
      tape.watch([x, w])
      y = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * w + x), [0, x],
                        maximum_iterations=10)[1]
      m = tf.reduce_sum(tf.map_fn(lambda v: v * w_var, tf.stack([x, x * 2])))
      c = tf.cond(x > 0, lambda: x * w, lambda: x / w)
    grads = tape.gradient(y, [x, w]) + tape.gradient(m, [x, w_var]) + tape.gradient(c, [x, w])
    return [g._value for g in grads]
  values = [float(g) for g in jax.jit(inner)(f32(2.), f32(3.))]
  assert values == [40.0, 68.0, 9.0, 6.0, 3.0, 2.0]


# ---- tf.print / tf.Print ----
def _printed(capsys, *inputs, **kwargs):
  tf.print(*inputs, output_stream=sys.stdout, **kwargs)
  return capsys.readouterr().out


def test_print_formats_like_tf(capsys):
  assert _printed(capsys, tf.constant([1, 2])) == "[1 2]\n"
  assert _printed(capsys, tf.constant([1.0, 2.5, 3.25])) == "[1 2.5 3.25]\n"
  assert _printed(capsys, tf.constant(1e-7), tf.constant(1234567.0), tf.constant(1 / 3.),
                  tf.constant(1 / 3., tf.float64)) == "1e-07 1234567 0.333333343 " \
                                                       "0.33333333333333331\n"
  assert _printed(capsys, tf.constant([[1, 2], [3, 4]])) == "[[1 2]\n [3 4]]\n"
  assert _printed(capsys, tf.range(10)) == "[0 1 2 ... 7 8 9]\n"
  assert _printed(capsys, tf.range(10), summarize=-1) == "[0 1 2 3 4 5 6 7 8 9]\n"
  assert _printed(capsys, tf.reshape(tf.range(12), [2, 6]), summarize=1) == \
      "[[0 ... 5]\n [6 ... 11]]\n"
  assert _printed(capsys, tf.reshape(tf.range(8), [2, 2, 2])) == \
      "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]\n"
  assert _printed(capsys, "hello", tf.constant(["a", "b"]), 5, [1, tf.constant(2)],
                  {"b": 1, "a": tf.constant(2)}) == \
      "hello [\"a\" \"b\"] 5 [1, 2] {'a': 2, 'b': 1}\n"
  assert _printed(capsys, tf.constant(True), tf.constant("str")) == "1 \"str\"\n"
  assert _printed(capsys, tf.constant("str")) == "str\n"
  assert _printed(capsys, tf.zeros([2, 0]), tf.range(10), summarize=0) == "[\n ...] [ ...]\n"
  assert _printed(capsys, "a", "b", sep=",", end="!\n") == "a,b!\n"
  assert _printed(capsys, tf.constant(float("nan")), tf.constant([-0.0, 1.5])) == "nan [-0 1.5]\n"


def test_print_default_stream_and_tf1_print(capsys):
  tf.print("to stderr", tf.constant(1))
  assert capsys.readouterr().err == "to stderr 1\n"
  x = tf.constant([1.0, 2.0])
  out = tf.Print(x, [x, tf.range(10), tf.constant([[1, 2], [3, 4]]), tf.constant(["a", "b"])],
                 message="msg: ")
  np.testing.assert_array_equal(out.numpy(), [1.0, 2.0])
  tf.Print(x, [tf.range(10)], summarize=5, first_n=1)
  tf.Print(x, [tf.range(10)], summarize=5, first_n=1)
  assert capsys.readouterr().err == "msg: [1 2][0 1 2...][[1 2][3...]...][a b]\n[0 1 2 3 4...]\n"
  with pytest.raises(ValueError, match="Unsupported output stream"):
    tf.print(1, output_stream=5)


def test_print_inside_jit_prints_every_call_and_only_taken_branch(capsys):
  def f(a):
    x = Tensor(a)
    tf.print("step", x, output_stream=sys.stdout)
    return tf.cond(x > 0, lambda: (tf.print("pos", output_stream=sys.stdout), x)[1],
                   lambda: (tf.print("neg", x, output_stream=sys.stdout), -x)[1])._value
  jf = jax.jit(f)
  jf(f32(1.5))
  jf(f32(-2.5))
  jax.effects_barrier()
  assert capsys.readouterr().out == "step 1.5\npos\nstep -2.5\nneg -2.5\n"


# ---- tf.Assert and assert_* ----
def test_assert_eager_messages():
  x, y = tf.constant(1), tf.constant(2)
  assert tf.Assert(x < y, [x]) is None
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.Assert(x > y, ["msg", x, tf.range(5), tf.constant(["a", "b"]), tf.constant(1.5)])
  assert str(info.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                             "Summarized data: b'msg'\n1\n0, 1, 2, ...\nb'a', b'b'\n1.5")
  with pytest.raises(tf.errors.InvalidArgumentError, match="Summarized data: 0, ...$"):
    tf.Assert(x > y, [tf.range(5)], summarize=1)

  a, b = tf.constant([1, 2, 3]), tf.constant([1, 5, 3])
  assert tf.assert_equal(a, a + 0) is None
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.debugging.assert_equal(a, b, message="mymsg")
  assert str(info.value) == (
      "mymsg\nCondition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
      "Corresponding x values:\n[2]\nCorresponding y values:\n[5]\nFirst 3 elements of x:\n"
      "[1 2 3]\nFirst 3 elements of y:\n[1 5 3]")
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.assert_equal(a, b, data=["d", a], summarize=2)
  assert str(info.value) == "d\n['1', '2', '...']"
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.assert_equal(tf.constant(1.5), 2.0)
  assert str(info.value) == ("Condition x == y did not hold.\nFirst 1 elements of x:\n[1.5]\n"
                             "First 1 elements of y:\n[2.]")
  with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x < y did not hold"):
    tf.assert_less(a, b)
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. "
                                                           r"\[2\] \[Op:Equal\]"):
    tf.assert_equal(a, tf.constant([1, 2]))
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.assert_negative(tf.constant([1., -1.]), message="m")
  assert str(info.value) == ("m.  \nCondition x < 0 did not hold element-wise:\n"
                             "x (shape=(2,) dtype=float32) = \n['1.0', '-1.0']")
  with pytest.raises(tf.errors.InvalidArgumentError) as info:
    tf.assert_non_positive(tf.constant(1.))
  assert str(info.value) == ("\nCondition x <= 0 did not hold element-wise:x (shape=() "
                             "dtype=float32) = \n1.0")
  tf.assert_positive(tf.constant([1., 1.]))
  with pytest.raises(tf.errors.InvalidArgumentError, match="x and y not equal to tolerance"):
    tf.assert_near(tf.constant([1., 2.]), tf.constant([1., 2.1]))
  tf.assert_near(tf.constant([1., 2.]), tf.constant([1., 2.000001]))


def test_static_asserts():
  a = tf.constant([1, 2, 3])
  tf.assert_rank(a, 1)
  with pytest.raises(ValueError, match=r"^hey.  Tensor  must have rank 2.  Received rank 1, "
                                       r"shape \(3,\)$"):
    tf.assert_rank(a, 2, message="hey")
  with pytest.raises(ValueError, match="must have rank at least 2"):
    tf.assert_rank_at_least(a, 2)
  with pytest.raises(ValueError, match=r"must have rank in \(0, 2\)"):
    tf.assert_rank_in(a, [0, 2])
  with pytest.raises(TypeError, match="tensor must be of type tf.int32; got tf.float32"):
    tf.assert_rank(a, 1.0)
  with pytest.raises(TypeError, match="tensor must be of type tf.float32; got tf.int32"):
    tf.assert_type(a, tf.float32)
  with pytest.raises(TypeError, match="Expected \"x\" to be integer type."):
    tf.assert_integer(tf.constant(1.))
  with pytest.raises(ValueError, match=r"Expected scalar shape, saw shape: \(3,\)."):
    tf.assert_scalar(a)


def test_traced_assert_raises_when_run():
  def f(a):
    x = Tensor(a)
    tf.Assert(x > 0, ["x must be positive", x])
    tf.debugging.assert_less(x, tf.constant(10.))
    return (x * 2)._value
  jf = jax.jit(f)
  assert float(jf(f32(1.))) == 2.0
  with pytest.raises(Exception, match=r"assertion failed: \[x must be positive\] \[-1\]"):
    jf(f32(-1.))
    jax.effects_barrier()
  with pytest.raises(Exception, match="Condition x < y did not hold"):
    jf(f32(20.))
    jax.effects_barrier()


# ---- tf.TensorArray (golden values and messages from TF 2.21 executing eagerly) ----
def test_tensor_array_eager():
  ta = tf.TensorArray(tf.float32, size=3)
  ta = ta.write(0, [1., 2.])
  assert ta.size().dtype == tf.int32 and int(ta.size()) == 3
  assert ta.read(0).numpy().tolist() == [1., 2.]
  assert ta.read(1).numpy().tolist() == [0., 0.]  # never written: zeros
  with pytest.raises(tf.errors.OutOfRangeError, match="Tried to write to index 5 but array is "
                     "not resizeable and size is: 3"):
    ta.write(5, [1., 2.])
  with pytest.raises(ValueError, match=r"Incompatible shape for value \(\(3,\)\), expected "
                     r"\(\(2,\)\)"):
    ta.write(1, [1., 2., 3.])
  with pytest.raises(tf.errors.InvalidArgumentError, match="TensorArray dtype is float32 but "
                     "Op is trying to write dtype int32"):
    ta.write(1, tf.constant([1, 2]))
  with pytest.raises(tf.errors.OutOfRangeError, match="Writing to negative indices"):
    ta.write(-1, [1., 2.])
  with pytest.raises(tf.errors.OutOfRangeError, match="Tried to read from index 7 but array "
                     "size is: 3"):
    ta.read(7)
  with pytest.raises(tf.errors.OutOfRangeError, match=r"Reading from negative indices \(index "
                     r"-1\) is not allowed."):
    ta.read(-1)
  ta = ta.write(1, [5., 6.]).write(2, [7., 8.])
  assert ta.stack().numpy().tolist() == [[1., 2.], [5., 6.], [7., 8.]]
  assert ta.gather([2, 0]).numpy().tolist() == [[7., 8.], [1., 2.]]
  assert ta.concat().numpy().tolist() == [1., 2., 5., 6., 7., 8.]
  assert ta.element_shape == tf.TensorShape([2]) and ta.dtype == tf.float32
  assert ta.identity() is ta and ta.close() is None and not ta.dynamic_size

  grown = tf.TensorArray(tf.int32, size=0, dynamic_size=True).write(0, 1).write(3, 4)
  assert int(grown.size()) == 4 and grown.stack().numpy().tolist() == [1, 0, 0, 4]
  assert tf.TensorArray(tf.float32, size=0).stack().shape == (0,)
  assert tf.TensorArray(tf.float32, size=0, element_shape=[2]).stack().shape == (0, 2)
  rows = tf.TensorArray(tf.float32, size=2).unstack([[1., 2.], [3., 4.]])
  assert rows.read(1).numpy().tolist() == [3., 4.]
  pieces = tf.TensorArray(tf.float32, size=0, dynamic_size=True, infer_shape=False).split(
      [1., 2., 3., 4., 5.], [2, 3])
  assert pieces.read(1).numpy().tolist() == [3., 4., 5.]
  scattered = tf.TensorArray(tf.float32, size=4).scatter([3, 1], [[1.], [2.]])
  assert scattered.stack().numpy().tolist() == [[0.], [2.], [0.], [1.]]
  words = tf.TensorArray(tf.string, size=2).write(0, "a").write(1, "b")
  assert words.stack().numpy().tolist() == [b"a", b"b"]

  v = tf.Variable(2.0)
  with tf.GradientTape() as tape:
    t = tf.TensorArray(tf.float32, size=2).write(0, v * 3.).write(1, v * v)
    loss = tf.reduce_sum(t.stack())
  assert float(tape.gradient(loss, v)) == 7.0


def test_tensor_array_in_compiled_while_loops():
  """A traced index: the array travels as one buffer; its element shape comes from the
  body's writes when not given, as TF infers it."""
  w = tf.Variable(3.0)

  @tf.function
  def doubled(x, element_shape=None):
    ta = tf.TensorArray(tf.float32, size=4, element_shape=element_shape)
    start = tf.cast(x[0] * 0, tf.int32)  # a traced loop counter
    _, ta = tf.while_loop(lambda i, ta: i < 4, lambda i, ta: (i + 1, ta.write(i, x[i] * 2.)),
                          [start, ta])
    return ta.stack(), ta.read(start + 1), ta.size()

  x = tf.constant([1., 2., 3., 4.])
  for _ in range(2):  # the eager first call, then the compiled one
    stacked, second, size = doubled(x)
    assert stacked.numpy().tolist() == [2., 4., 6., 8.]
    assert float(second) == 4.0 and int(size) == 4
  assert doubled(x, element_shape=[])[0].numpy().tolist() == [2., 4., 6., 8.]

  @tf.function
  def gradient(x):
    with tf.GradientTape() as tape:
      ta = tf.TensorArray(tf.float32, size=3)
      start = tf.cast(x[0] * 0, tf.int32)
      _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, x[i] * w)),
                            [start, ta], maximum_iterations=3)
      loss = tf.reduce_sum(ta.stack())
    return tape.gradient(loss, w)
  for _ in range(2):
    assert float(gradient(tf.constant([1., 2., 3.]))) == 6.0

  @tf.function
  def growing(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    start = tf.cast(x[0] * 0, tf.int32)
    return tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, x[i])),
                         [start, ta])[1].stack()
  growing(x)
  with pytest.raises(NotImplementedError, match="dynamic_size=True"):
    growing(x)
