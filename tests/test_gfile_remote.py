"""tf.gfile / tf.io.gfile on paths with a scheme, through fsspec: every function on memory://
(no network), copies across file systems, and TF's UnimplementedError for a scheme that is
unknown or whose back end is not installed (never a local "gs:" directory)."""
import importlib.util
import os
import uuid

import pytest
from fsspec.registry import known_implementations

import tfe_compat as tf
from tfe_compat.internal import file_io

G = tf.io.gfile


@pytest.fixture
def root():
  path = "memory://t%s" % uuid.uuid4().hex[:8]
  G.makedirs(path + "/x/y")
  yield path
  G.rmtree(path)


def test_gfile_file_object_on_memory(root):
  path = root + "/x/a.txt"
  with tf.gfile.GFile(path, "w") as f:
    f.write("hello\n")
    f.write(b"world\n")
    assert f.tell() == 12 and f.size() == 12
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for reading"):
      f.read()
  with tf.gfile.GFile(path, "a") as f:
    f.write("more")
  f = tf.gfile.Open(tf.constant(path))
  assert (f.readline(), f.tell(), f.readlines()) == ("hello\n", 6, ["world\n", "more"])
  f.seek(2)
  assert (f.read(3), f.tell(), f.size(), f.name, f.mode) == ("llo", 5, 16, path, "r")
  f.seek(-4, 2)
  assert f.read() == "more"
  f.close()
  assert tf.gfile.FastGFile(path, "rb").read() == b"hello\nworld\nmore"
  assert list(G.GFile(path)) == ["hello\n", "world\n", "more"]
  assert file_io.read_file_to_string(path) == "hello\nworld\nmore"
  file_io.write_string_to_file(root + "/w.txt", "written")
  assert G.GFile(root + "/w.txt", "rb").read() == b"written"
  with pytest.raises(tf.errors.NotFoundError, match="nope.txt; No such file or directory"):
    G.GFile(root + "/nope.txt").read()


def test_gfile_functions_on_memory(root):
  with G.GFile(root + "/x/a.txt", "w") as f:
    f.write("abc")
  assert G.exists(root + "/x") and G.exists(root + "/x/a.txt") and not G.exists(root + "/no")
  assert tf.gfile.IsDirectory(root + "/x") and not G.isdir(root + "/x/a.txt")
  assert sorted(G.listdir(root + "/x")) == ["a.txt", "y"]
  with pytest.raises(tf.errors.NotFoundError, match="Could not find directory %s/no" % root):
    tf.gfile.ListDirectory(root + "/no")
  G.mkdir(root + "/m")
  G.mkdir(root + "/m")
  G.makedirs(root + "/m/n/o")
  with pytest.raises(tf.errors.FailedPreconditionError, match="a.txt is not a directory"):
    tf.gfile.MakeDirs(root + "/x/a.txt")
  assert G.glob(root + "/*/*.txt") == [root + "/x/a.txt"]
  assert tf.gfile.Glob([root + "/x/*.txt", root + "/m/*"]) == [root + "/m/n", root + "/x/a.txt"]
  stat = G.stat(root + "/x/a.txt")
  assert (stat.length, stat.is_directory) == (3, False) and stat.mtime_nsec > 0
  assert G.stat(root + "/x").is_directory
  with pytest.raises(tf.errors.NotFoundError, match="no; No such file or directory"):
    G.stat(root + "/no")
  walked = sorted((d, sorted(s), sorted(f)) for d, s, f in G.walk(root))
  assert walked == [(root, ["m", "x"], []), (root + "/m", ["n"], []),
                    (root + "/m/n", ["o"], []), (root + "/m/n/o", [], []),
                    (root + "/x", ["y"], ["a.txt"]), (root + "/x/y", [], [])]
  assert [d for d, _, _ in tf.gfile.Walk(root + "/x", in_order=False)] == [root + "/x/y",
                                                                          root + "/x"]
  G.copy(root + "/x/a.txt", root + "/b.txt")
  with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
    tf.gfile.Copy(root + "/x/a.txt", root + "/b.txt")
  G.rename(root + "/b.txt", root + "/c.txt")
  assert not G.exists(root + "/b.txt") and G.GFile(root + "/c.txt").read() == "abc"
  with pytest.raises(tf.errors.NotFoundError):
    G.rename(root + "/b.txt", root + "/d.txt")
  tf.gfile.Rename(root + "/x", root + "/z")  # a directory
  assert sorted(G.listdir(root + "/z")) == ["a.txt", "y"] and not G.exists(root + "/x")
  with pytest.raises(tf.errors.FailedPreconditionError, match="z; Is a directory"):
    G.remove(root + "/z")
  tf.gfile.Remove(root + "/c.txt")
  with pytest.raises(tf.errors.NotFoundError, match="c.txt; No such file or directory"):
    G.remove(root + "/c.txt")
  tf.gfile.DeleteRecursively(root + "/z")
  assert G.listdir(root) == ["m"]
  with pytest.raises(tf.errors.NotFoundError, match="z not found"):
    G.rmtree(root + "/z")


def test_gfile_copies_between_file_systems(root, tmp_path):
  local = str(tmp_path / "local.txt")
  with open(local, "w") as f:
    f.write("from disk")
  G.copy(local, root + "/up.txt")
  assert G.GFile(root + "/up.txt").read() == "from disk"
  G.copy(root + "/up.txt", str(tmp_path / "down.txt"))
  assert open(str(tmp_path / "down.txt")).read() == "from disk"
  with pytest.raises(tf.errors.AlreadyExistsError):
    G.copy(root + "/up.txt", local)
  G.copy(root + "/up.txt", local, overwrite=True)
  with pytest.raises(tf.errors.UnimplementedError, match="different file systems"):
    G.rename(root + "/up.txt", str(tmp_path / "moved.txt"))


def test_unknown_or_missing_file_systems_raise(tmp_path, monkeypatch):
  monkeypatch.chdir(tmp_path)
  with pytest.raises(tf.errors.UnimplementedError,
                     match=r"^File system scheme 'foo' not implemented \(file: 'foo://b/x'\)$"):
    G.exists("foo://b/x")
  monkeypatch.setitem(known_implementations, "fakefs",
                      {"class": "no_such_package_xyz.FS", "err": "Install fakefsspec"})
  for call in (lambda: G.GFile("fakefs://b/x", "w").write("x"), lambda: G.makedirs("fakefs://b"),
               lambda: G.glob("fakefs://b/*"), lambda: G.listdir("fakefs://b"),
               lambda: G.stat("fakefs://b/x"), lambda: G.copy("fakefs://b/x", "memory://y")):
    with pytest.raises(tf.errors.UnimplementedError,
                       match=r"File system scheme 'fakefs' not implemented \(file: 'fakefs://b.*'\)"
                             r": Install fakefsspec"):
      call()
  if importlib.util.find_spec("gcsfs") is None:
    with pytest.raises(tf.errors.UnimplementedError, match="install gcsfs"):
      G.GFile("gs://bucket/file.txt", "w").write("x")
  assert os.listdir(str(tmp_path)) == []  # nothing written to a local "gs:" or "fakefs:"


def test_summary_writer_on_a_remote_logdir_writes_through_fsspec(tmp_path):

  logdir = "memory://summaries_%s/run" % tmp_path.name
  with tf.contrib.summary.create_file_writer(logdir).as_default(), \
      tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.scalar("loss", 0.5, step=3)
  tf.contrib.summary.flush()
  name, = tf.io.gfile.glob(logdir + "/events*")
  local = tmp_path / "events"
  local.write_bytes(tf.io.gfile.GFile(name, "rb").read())
  events = [e for e in tf.train.summary_iterator(str(local)) if e.summary.value]
  assert [(e.step, e.summary.value[0].simple_value) for e in events] == [(3, 0.5)]


def test_checkpoints_on_a_remote_path_raise_instead_of_writing_locally(tmp_path, monkeypatch):

  monkeypatch.chdir(tmp_path)
  checkpoint = tf.train.Checkpoint(v=tf.Variable(1.))
  with pytest.raises(tf.errors.UnimplementedError, match="keeps checkpoints on the local file "
                     "system, not on gs://"):
    checkpoint.save("gs://bucket/model")
  with pytest.raises(tf.errors.UnimplementedError):
    tf.train.latest_checkpoint("memory://ckpts")
  assert list(tmp_path.iterdir()) == []
  checkpoint.save("file://" + str(tmp_path / "model"))  # a file:// URL is a local path
  assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model-2")
