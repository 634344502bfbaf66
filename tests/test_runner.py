"""`tfe-run` / `python -m tfe_compat` run unchanged TF scripts; `install()` aliases in-process."""
import os
import subprocess
import sys
import textwrap

import pytest

TFE_RUN = os.path.join(os.path.dirname(sys.executable), "tfe-run")


def _run(tmp_path, source, *args, launcher="module"):
  script = tmp_path / "script.py"
  script.write_text(textwrap.dedent(source))
  command = ([sys.executable, "-m", "tfe_compat"] if launcher == "module" else [TFE_RUN])
  return subprocess.run(command + [str(script)] + list(args), capture_output=True, text=True,
                        timeout=120, cwd=tmp_path, check=False)


IMPORTS = """
    import sys
    import tensorflow as tf
    import tensorflow.contrib.eager as tfe
    from tensorflow.contrib.eager.python import tfe as tfe2
    import tensorflow.compat.v1 as tf1
    from tensorflow.compat.v1 import constant
    tf.enable_eager_execution()
    assert tfe is tfe2 is tf.contrib.eager and tf1 is tf and constant is tf.constant
    assert tf.executing_eagerly()
    print(__name__, sys.argv[1:], tf.constant([[1, 2], [3, 4]]).numpy().tolist())
"""


@pytest.mark.parametrize("launcher", ["module", "console"])
def test_imports_resolve_and_argv_and_main(tmp_path, launcher):
  out = _run(tmp_path, IMPORTS, "--x", "1", launcher=launcher)
  assert out.returncode == 0, out.stderr
  assert out.stdout.strip() == "__main__ ['--x', '1'] [[1, 2], [3, 4]]"


def test_traceback_points_at_user_script(tmp_path):
  out = _run(tmp_path, """
      import tensorflow as tf

      def helper():
        raise ValueError("boom from the script")

      helper()
  """)
  assert out.returncode == 1
  lines = out.stderr.strip().splitlines()
  assert lines[0] == "Traceback (most recent call last):"
  assert "script.py\", line 7, in <module>" in lines[1]
  assert lines[-1] == "ValueError: boom from the script"
  assert "runpy" not in out.stderr and "runner.py" not in out.stderr


def test_sys_exit_code_passes_through(tmp_path):
  out = _run(tmp_path, "import sys\nsys.exit(3)\n")
  assert out.returncode == 3


def test_app_run_with_flags(tmp_path):
  out = _run(tmp_path, """
      import tensorflow as tf
      tf.app.flags.DEFINE_integer("steps", 5, "number of steps")
      tf.flags.DEFINE_string("name", "x", "a name")
      FLAGS = tf.app.flags.FLAGS

      def main(argv):
        print("steps=%d name=%s rest=%s" % (FLAGS.steps, FLAGS.name, argv[1:]))

      if __name__ == "__main__":
        tf.app.run()
  """, "--steps=7", "--name", "abc", "extra")
  assert out.returncode == 0, out.stderr
  assert out.stdout.strip() == "steps=7 name=abc rest=['extra']"


def test_tfe_run_with_main_argument(tmp_path):
  out = _run(tmp_path, """
      import tensorflow.contrib.eager as tfe
      def main(_):
        print("ran")
      tfe.run(main)
  """)
  assert out.returncode == 0, out.stderr
  assert out.stdout.strip() == "ran"


def test_tensorflow_source_tree_modules_are_found(tmp_path):
  package = tmp_path / "tree" / "tensorflow" / "contrib" / "eager" / "python" / "examples" / "demo"
  package.mkdir(parents=True)
  (package / "demo_lib.py").write_text("import tensorflow as tf\nVALUE = tf.constant(41)\n")
  out = _run(tmp_path, """
      import sys, os
      import tensorflow as tf
      sys.path.insert(0, os.path.join(os.path.dirname(__file__), "tree"))
      from tensorflow.contrib.eager.python.examples.demo import demo_lib
      print(int(tf.Session().run(demo_lib.VALUE)) + 1)
  """)
  assert out.returncode == 0, out.stderr
  assert out.stdout.strip() == "42"


def test_usage_and_missing_script(tmp_path):
  out = subprocess.run([TFE_RUN], capture_output=True, text=True, timeout=60, check=False)
  assert out.returncode == 2 and "usage: tfe-run [--eager] script.py" in out.stdout
  out = subprocess.run([TFE_RUN, str(tmp_path / "nope.py")], capture_output=True, text=True,
                       timeout=60, check=False)
  assert out.returncode == 2 and "can't open file" in out.stderr


def test_install_in_process_and_ipython_extension():
  code = textwrap.dedent("""
      import tfe_compat
      class FakeIPython: pass
      tfe_compat.load_ipython_extension(FakeIPython())
      import tensorflow as tf
      import tensorflow.contrib.eager as tfe
      assert tf is tfe_compat and tfe.num_gpus() == 0
      tf.logging.set_verbosity(tf.logging.INFO)
      tf.logging.info("hello %d", 3)
      print("ok")
  """)
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60, check=False)
  assert out.returncode == 0, out.stderr
  assert out.stdout.strip() == "ok" and "INFO:tensorflow:hello 3" in out.stderr


def test_tensorflow_internal_modules_resolve_to_tfe_compat(tmp_path):
  # A fake TF source tree whose own files must NOT run: the mapped names win.
  fake = tmp_path / "tree" / "tensorflow" / "python"
  (fake / "platform").mkdir(parents=True)
  (fake / "__init__.py").write_text("raise ImportError('TF internals must not be imported')\n")
  (fake / "platform" / "test.py").write_text("raise ImportError('not this file')\n")
  out = _run(tmp_path, """
      import os, sys
      sys.path.insert(0, os.path.join(os.path.dirname(__file__), "tree"))
      import tensorflow as tf
      from tensorflow.python.platform import test
      from tensorflow.python.eager import test as eager_test
      from tensorflow.python.eager import function
      from tensorflow.python.framework import test_util
      from tensorflow.python.client import device_lib
      from tensorflow.contrib.summary import summary_test_util
      import tensorflow.python.client.device_lib as device_lib2
      assert test is tf.test and device_lib2 is device_lib
      assert eager_test.TestCase is tf.test.TestCase and eager_test.main is not tf.test.main
      assert test_util.TensorFlowTestCase is tf.test.TestCase
      assert function.defun is tf.contrib.eager.defun
      print([(d.name, d.device_type) for d in device_lib.list_local_devices()][0])
      logdir = os.path.join(os.path.dirname(__file__), "logs")
      with tf.contrib.summary.create_file_writer(logdir).as_default(), \\
          tf.contrib.summary.always_record_summaries():
        tf.contrib.summary.scalar("loss", 0.5, step=3)
      tf.contrib.summary.flush()
      events = summary_test_util.events_from_logdir(logdir)
      print(len(events), events[0].file_version, events[1].step, events[1].summary.value[0].tag)
  """)
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == ["('/device:CPU:0', 'CPU')", "2 brain.Event:2 3 loss"]


def test_eager_context_tf2_and_tutorial_mnist_modules(tmp_path):
  # `from tensorflow.python import eager` has `context` already imported, as in TF.
  out = _run(tmp_path, """
      import tensorflow as tf
      from tensorflow.python import eager as tfe
      from tensorflow.python import tf2
      from tensorflow.examples.tutorials.mnist import input_data
      print(tfe.context.num_gpus() == tf.contrib.eager.num_gpus(),
            tfe.context.executing_eagerly(), tf2.enabled())
      print(input_data.read_data_sets.__module__)
  """)
  assert out.returncode == 0, out.stderr
  # a TF 1.x program runs in graph mode until it enables eager execution
  assert out.stdout.splitlines() == ["True False False", "tfe_compat.internal.tutorials_mnist"]


def test_test_util_decorators_run_eager_half_and_skip_graph_only(tmp_path):
  out = _run(tmp_path, """
      import tensorflow as tf
      from tensorflow.python.framework import test_util

      @test_util.run_all_in_graph_and_eager_modes
      class T(test_util.TensorFlowTestCase):

        @test_util.run_in_graph_and_eager_modes
        def test_both(self):
          self.assertAllEqual(self.evaluate(tf.constant([1, 2]) * 2), [2, 4])

        @test_util.run_in_graph_and_eager_modes(config=None)
        def test_both_called(self):
          self.modes = getattr(self, "modes", []) + [tf.executing_eagerly()]
          if len(self.modes) == 2:
            self.assertEqual(self.modes, [False, True])

        @test_util.run_deprecated_v1
        def test_graph_only(self):
          self.assertFalse(tf.executing_eagerly())
          with self.session() as sess:
            self.assertEqual(sess.run(tf.constant(3) * 2), 6)

        @test_util.run_v1_only("b/1234")
        def test_v1(self):
          pass

      if __name__ == "__main__":
        tf.enable_eager_execution()
        tf.test.main()
  """)
  assert out.returncode == 0, out.stdout + out.stderr
  for name in ("test_both", "test_both_called", "test_v1", "test_graph_only"):
    assert "[       OK ] T.%s" % name in out.stderr


def test_dash_m_runs_a_module_and_dash_c_a_string_like_python(tmp_path):
  package = tmp_path / "pkg"
  package.mkdir()
  (package / "__init__.py").write_text("")
  (package / "train.py").write_text(textwrap.dedent("""
      import sys
      import tensorflow as tf
      def fail():
        raise ValueError("boom")
      print(__name__, sys.argv[0].endswith("train.py"), sys.argv[1:], int(tf.constant(2) * 3))
      if sys.argv[1:] == ["fail"]:
        fail()
  """))
  run = lambda *args: subprocess.run([TFE_RUN, "--eager"] + list(args), capture_output=True,  # noqa: E731
                                     text=True, timeout=120, cwd=tmp_path, check=False)
  out = run("-m", "pkg.train", "--steps", "2")
  assert out.returncode == 0, out.stderr
  assert out.stdout == "__main__ True ['--steps', '2'] 6\n"
  out = run("-m", "pkg.train", "fail")
  assert out.returncode == 1
  assert out.stderr.splitlines()[1].endswith("train.py\", line 8, in <module>")
  assert out.stderr.splitlines()[-1] == "ValueError: boom"
  out = run("-c", "import sys, tensorflow as tf; print(sys.argv, tf.add(1, 2).numpy())", "a")
  assert out.returncode == 0, out.stderr
  assert out.stdout == "['-c', 'a'] 3\n"
  out = run("-c", "1 / 0")
  assert out.returncode == 1
  assert out.stderr.splitlines()[1:] == ['  File "<string>", line 1, in <module>',
                                         "ZeroDivisionError: division by zero"]
  out = run("-m", "no_such_module")
  assert (out.returncode, out.stderr) == (1, "tfe-run: No module named no_such_module\n")


def test_absl_verbosity_does_not_turn_on_jax_debug_logging(tmp_path):
  out = _run(tmp_path, """
      import tensorflow as tf
      tf.enable_eager_execution()
      def main(_):
        x = tf.Variable(tf.ones([2, 2]))
        with tf.GradientTape() as tape:
          loss = tf.reduce_sum(tf.matmul(x, x))
        print(tape.gradient(loss, x).numpy().sum())
      tf.app.run()
  """, "--verbosity=1")
  assert out.returncode == 0, out.stderr
  assert out.stdout == "16.0\n"
  assert "jax" not in out.stderr and "Compiling" not in out.stderr, out.stderr[:500]


def test_tf_data_internal_modules_and_packages(tmp_path):
  out = _run(tmp_path, """
      import tensorflow as tf
      tf.enable_eager_execution()
      from tensorflow.python.data import Dataset
      from tensorflow.python.data.ops import dataset_ops
      from tensorflow.python.data.experimental.ops import threadpool, unique
      assert Dataset is dataset_ops.Dataset is tf.data.Dataset
      dataset = dataset_ops.Dataset.from_tensor_slices([1, 2, 1]).apply(unique.unique())
      dataset = threadpool.override_threadpool(dataset, threadpool.PrivateThreadPool(2))
      print([int(x) for x in dataset])
  """)
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == ["[1, 2]"]


def test_programs_run_in_graph_mode_unless_eager(tmp_path):
  source = """
      import tensorflow as tf
      x = tf.constant([1.0, 2.0]) * 2
      print(tf.executing_eagerly(), x)
      print(tf.Session().run(x).tolist())
      x.numpy()
  """
  out = _run(tmp_path, source, launcher="console")
  assert out.stdout.splitlines() == [
      'False Tensor("mul:0", shape=(2,), dtype=float32)', "[2.0, 4.0]"]
  assert "tf.enable_eager_execution()" in out.stderr and "--eager" in out.stderr
  script = tmp_path / "eager.py"
  script.write_text("import tensorflow as tf\nprint(tf.executing_eagerly(), "
                    "(tf.constant(2) * 3).numpy())\n")
  out = subprocess.run([TFE_RUN, "--eager", str(script)], capture_output=True, text=True,
                       timeout=120, check=False)
  assert out.stdout == "True 6\n", out.stderr
