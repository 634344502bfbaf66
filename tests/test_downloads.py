"""Downloads as TF 1.15 makes them: `tf.keras.utils.get_file`, `tf.keras.datasets.*`,
`tf.contrib.learn.datasets` / `input_data.read_data_sets`, served by a local HTTP server on
127.0.0.1 from small fake files in the real formats (never the internet). Goldens: tf_keras's
loaders on the same files (TF 1.15's algorithm where 2.x changed it, e.g. imdb's `maxlen`)."""
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import pickle
import struct
import tarfile
import threading
import zipfile

import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.keras import datasets


# ---- Fake files in the real formats ----
def _idx(path, arr):
  magic = 2051 if arr.ndim == 3 else 2049
  with gzip.open(path, "wb") as f:
    f.write(struct.pack(">%dI" % (1 + arr.ndim), magic, *arr.shape) + arr.astype(np.uint8).tobytes())


def _tar(path, members):
  with tarfile.open(path, "w:gz") as tar:
    for name, data in members.items():
      info = tarfile.TarInfo(name)
      info.size = len(data)
      tar.addfile(info, io.BytesIO(data))


def _batch(data, **labels):
  return pickle.dumps({b"data": data, **{k.encode(): v for k, v in labels.items()}}, protocol=2)


def _ragged(*rows):
  return np.array([list(x) for x in rows] + [[]], dtype=object)[:-1]


def _write_fakes(root):
  r = np.random.RandomState(0)
  np.savez(os.path.join(root, "mnist.npz"),
           x_train=r.randint(0, 256, (3, 28, 28)).astype(np.uint8),
           y_train=np.array([5, 0, 4], np.uint8),
           x_test=r.randint(0, 256, (2, 28, 28)).astype(np.uint8), y_test=np.array([7, 2], np.uint8))
  _idx(os.path.join(root, "train-labels-idx1-ubyte.gz"), np.array([9, 0, 3]))
  _idx(os.path.join(root, "train-images-idx3-ubyte.gz"), r.randint(0, 256, (3, 28, 28)))
  _idx(os.path.join(root, "t10k-labels-idx1-ubyte.gz"), np.array([1, 8]))
  _idx(os.path.join(root, "t10k-images-idx3-ubyte.gz"), r.randint(0, 256, (2, 28, 28)))
  np.savez(os.path.join(root, "boston_housing.npz"),
           x=np.arange(10 * 13, dtype=np.float64).reshape(10, 13) / 4,
           y=np.arange(10, dtype=np.float64) + 20)
  np.savez(os.path.join(root, "imdb.npz"),
           x_train=_ragged([1, 14, 22], [4, 2], [7, 30, 5, 9], [11]), y_train=np.array([1, 0, 0, 1]),
           x_test=_ragged([3, 8], [25, 1, 6], [2]), y_test=np.array([0, 1, 1]))
  np.savez(os.path.join(root, "reuters.npz"),
           x=_ragged([1, 2, 3], [4, 5], [6, 17, 8, 9], [10], [2, 2, 40], [12, 1]),
           y=np.array([3, 1, 4, 1, 5, 9]))
  for name in ("imdb_word_index.json", "reuters_word_index.json"):
    with open(os.path.join(root, name), "w") as f:
      json.dump({"the": 1, "and": 2, name[:4]: 3}, f)
  cifar100 = lambda n, seed: _batch(
      np.random.RandomState(seed).randint(0, 256, (n, 3072)).astype(np.uint8),
      fine_labels=list(range(seed, seed + n)), coarse_labels=[seed] * n)
  _tar(os.path.join(root, "cifar-100-python.tar.gz"),
       {"cifar-100-python/train": cifar100(3, 1), "cifar-100-python/test": cifar100(2, 7)})
  members = {}
  for i in range(1, 6):  # TF 1.15's cifar10 loader expects 5 x 10000 training images
    data = np.zeros((10000, 3072), np.uint8)
    data[:2] = r.randint(0, 256, (2, 3072))
    members["cifar-10-batches-py/data_batch_%d" % i] = _batch(data, labels=[i] * 10000)
  members["cifar-10-batches-py/test_batch"] = _batch(
      r.randint(0, 256, (2, 3072)).astype(np.uint8), labels=[3, 6])
  _tar(os.path.join(root, "cifar-10-python.tar.gz"), members)
  with open(os.path.join(root, "hello.txt"), "w") as f:
    f.write("hello world\n")
  with tarfile.open(os.path.join(root, "pack.tar.gz"), "w:gz") as tar:
    tar.add(os.path.join(root, "hello.txt"), arcname="pack/hello.txt")
  with zipfile.ZipFile(os.path.join(root, "pack.zip"), "w") as z:
    z.writestr("zipped/a.txt", "from a zip")


# ---- A local HTTP server that counts requests ----
class _Handler(http.server.SimpleHTTPRequestHandler):
  requests = []

  def do_GET(self):
    _Handler.requests.append(self.path)
    super().do_GET()

  def log_message(self, *args):  # pylint: disable=arguments-differ
    pass


@pytest.fixture(scope="module")
def server(tmp_path_factory):
  root = tmp_path_factory.mktemp("www")
  _write_fakes(str(root))
  httpd = http.server.ThreadingHTTPServer(
      ("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
  thread = threading.Thread(target=httpd.serve_forever, daemon=True)
  thread.start()
  yield root, "http://127.0.0.1:%d/" % httpd.server_address[1]
  httpd.shutdown()
  httpd.server_close()


@pytest.fixture
def origin(server, tmp_path, monkeypatch):
  """The server's URL, with the datasets' origins and HOME (the Keras cache) redirected."""
  monkeypatch.setenv("HOME", str(tmp_path))
  # no ~/.keras yet: get_file makes it, as importing TF's Keras does (TF's cache is there)
  monkeypatch.setattr(datasets, "_ORIGIN_FOLDER", server[1])
  monkeypatch.setattr(datasets, "_CIFAR_ORIGIN_FOLDER", server[1])
  _Handler.requests.clear()
  return server[1]


def _sha256(path):
  with open(path, "rb") as f:
    return hashlib.sha256(f.read()).hexdigest()


# ---- get_file ----
def test_get_file_downloads_caches_and_checks_hashes(origin, server, tmp_path, capsys):
  path = tf.keras.utils.get_file("hello.txt", origin + "hello.txt")
  assert path == str(tmp_path / ".keras" / "datasets" / "hello.txt")
  assert open(path).read() == "hello world\n"
  out = capsys.readouterr().out
  assert out.startswith("Downloading data from %shello.txt\n" % origin)
  assert "12/12 [==============================]" in out  # the Keras progress bar
  assert tf.keras.utils.get_file("hello.txt", origin + "hello.txt") == path  # cached
  good = _sha256(str(server[0] / "hello.txt"))
  tf.keras.utils.get_file("hello.txt", origin + "hello.txt", file_hash=good)
  md5 = hashlib.md5(b"hello world\n").hexdigest()
  tf.keras.utils.get_file("hello.txt", origin + "hello.txt", md5_hash=md5)
  assert _Handler.requests == ["/hello.txt"]
  capsys.readouterr()
  with open(path, "w") as f:
    f.write("stale")
  tf.keras.utils.get_file("hello.txt", origin + "hello.txt", file_hash=good)
  assert ("A local file was found, but it seems to be incomplete or outdated because the auto "
          "file hash does not match the original value of " + good +
          " so we will re-download the data.") in capsys.readouterr().out
  assert open(path).read() == "hello world\n" and len(_Handler.requests) == 2
  with open(path, "w") as f:  # an md5 mismatch (32 hex digits with 'auto') downloads too
    f.write("stale")
  tf.keras.utils.get_file("hello.txt", origin + "hello.txt", file_hash=md5)
  assert open(path).read() == "hello world\n" and len(_Handler.requests) == 3


def test_get_file_cache_dir_subdir_and_archives(origin, tmp_path):
  cache = str(tmp_path)
  path = tf.keras.utils.get_file("pack", origin + "pack.tar.gz", untar=True, cache_dir=cache,
                                 cache_subdir="models")
  assert path == os.path.join(cache, "models", "pack")
  assert open(os.path.join(path, "hello.txt")).read() == "hello world\n"
  assert os.path.isfile(path + ".tar.gz")
  path = tf.keras.utils.get_file("pack.zip", origin + "pack.zip", extract=True, cache_dir=cache)
  assert path == os.path.join(cache, "datasets", "pack.zip")
  assert open(os.path.join(cache, "datasets", "zipped", "a.txt")).read() == "from a zip"
  tf.keras.utils.get_file("p2.tar.gz", origin + "pack.tar.gz", extract=True, cache_dir=cache,
                          archive_format="zip")  # not a zip: nothing extracted
  assert not os.path.exists(os.path.join(cache, "datasets", "pack"))


def test_get_file_failure_leaves_no_file(origin, tmp_path):
  with pytest.raises(Exception, match=r"URL fetch failure on %snope.npz: 404 -- File not found"
                     % origin):
    tf.keras.utils.get_file("nope.npz", origin + "nope.npz", cache_dir=str(tmp_path))
  assert os.listdir(str(tmp_path / "datasets")) == []


# ---- tf.keras.datasets (goldens: tf_keras on the same files) ----
def _summary(a):
  return a.shape, a.dtype, int(a.astype(np.int64).sum()), a.ravel()[:6].tolist()


def test_mnist_and_fashion_mnist(origin, tmp_path):
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
  assert _summary(x_train) == ((3, 28, 28), np.uint8, 295419, [172, 47, 117, 192, 67, 251])
  assert _summary(x_test) == ((2, 28, 28), np.uint8, 197961, [102, 75, 117, 184, 171, 152])
  assert y_train.tolist() == [5, 0, 4] and y_test.tolist() == [7, 2] and y_test.dtype == np.uint8
  assert os.path.isfile(str(tmp_path / ".keras" / "datasets" / "mnist.npz"))
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.fashion_mnist.load_data()
  assert _summary(x_train) == ((3, 28, 28), np.uint8, 300278, [37, 228, 82, 55, 106, 35])
  assert _summary(x_test) == ((2, 28, 28), np.uint8, 202792, [218, 106, 219, 250, 45, 217])
  assert y_train.tolist() == [9, 0, 3] and y_test.tolist() == [1, 8]
  assert sorted(os.listdir(str(tmp_path / ".keras" / "datasets" / "fashion-mnist"))) == [
      "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
      "train-labels-idx1-ubyte.gz"]


def test_boston_housing(origin):
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.boston_housing.load_data()
  assert x_train.shape == (8, 13) and x_train.dtype == np.float64 and x_test.shape == (2, 13)
  assert y_train.tolist() == [29.0, 23.0, 26.0, 21.0, 20.0, 27.0, 24.0, 28.0]
  assert y_test.tolist() == [22.0, 25.0] and x_test[0, :3].tolist() == [6.5, 6.75, 7.0]
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.boston_housing.load_data(
      test_split=0.3, seed=7)
  assert y_train.tolist() == [28.0, 25.0, 20.0, 22.0, 21.0, 29.0, 27.0]
  assert y_test.tolist() == [23.0, 26.0, 24.0] and x_train[0, :2].tolist() == [26.0, 26.25]


def test_imdb(origin):
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.imdb.load_data()
  assert x_train.dtype == object and x_train.shape == (4,) and y_train.dtype == np.int64
  assert x_train.tolist() == [[1, 14], [1, 10, 2, 8, 12], [1, 4, 17, 25], [1, 7, 5]]
  assert x_test.tolist() == [[1, 28, 4, 9], [1, 6, 11], [1, 5]]
  assert y_train.tolist() == [1, 0, 1, 0] and y_test.tolist() == [1, 0, 1]
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.imdb.load_data(
      num_words=12, skip_top=4, seed=3)
  assert x_train.tolist() == [[2, 2], [2, 7, 5], [2, 4, 2, 2], [2, 10, 2, 8, 2]]
  assert x_test.tolist() == [[2, 2, 4, 9], [2, 5], [2, 6, 11]] and y_test.tolist() == [1, 1, 0]
  (x_train, _), (x_test, _) = tf.keras.datasets.imdb.load_data(
      num_words=12, oov_char=None, start_char=None, index_from=1)
  assert x_train.tolist() == [[], [8, 6, 10], [2], [5, 3]]
  assert x_test.tolist() == [[2, 7], [4, 9], [3]]
  # TF 1.15 filters train and test together, then splits at the original train size.
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.imdb.load_data(maxlen=5)
  assert x_train.tolist() == [[1, 14], [1, 4, 17, 25], [1, 7, 5], [1, 2, 4, 9]]
  assert x_test.tolist() == [[1, 6, 11], [1, 5]]
  assert y_train.tolist() == [1, 1, 0, 1] and y_test.tolist() == [0, 1]
  with pytest.raises(ValueError, match="no sequence was kept. Increase maxlen."):
    tf.keras.datasets.imdb.load_data(maxlen=2)
  with pytest.raises(TypeError, match="Unrecognized keyword arguments: {'bad': 1}"):
    tf.keras.datasets.imdb.load_data(bad=1)
  assert tf.keras.datasets.imdb.get_word_index() == {"the": 1, "and": 2, "imdb": 3}


def test_reuters(origin):
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.reuters.load_data()
  assert x_train.tolist() == [[1, 7, 8], [1, 4, 5, 6], [1, 13], [1, 9, 20, 11, 12]]
  assert x_test.tolist() == [[1, 5, 5, 2], [1, 15, 4]]
  assert y_train.tolist() == [1, 3, 1, 4] and y_test.tolist() == [5, 9]
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.reuters.load_data(
      num_words=10, skip_top=5, test_split=0.5, maxlen=4, seed=1)
  # One training sequence: TF 1.15's np.array makes it a (1, 3) integer array.
  assert x_train.shape == (1, 3) and x_train.tolist() == [[2, 7, 8]] and y_train.tolist() == [1]
  assert x_test.tolist() == [[2, 2], [2, 2, 2]] and y_test.tolist() == [1, 9]
  assert tf.keras.datasets.reuters.get_word_index() == {"the": 1, "and": 2, "reut": 3}


def test_cifar(origin, tmp_path):
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar100.load_data()
  assert _summary(x_train) == ((3, 32, 32, 3), np.uint8, 1179121, [37, 23, 217, 235, 214, 163])
  assert _summary(x_test) == ((2, 32, 32, 3), np.uint8, 765476, [175, 144, 219, 196, 112, 238])
  assert y_train.tolist() == [[1], [2], [3]] and y_train.dtype == np.int64
  assert y_test.tolist() == [[7], [8]]
  (_, y_train), (_, y_test) = tf.keras.datasets.cifar100.load_data("coarse")
  assert y_train.tolist() == [[1]] * 3 and y_test.tolist() == [[7]] * 2
  with pytest.raises(ValueError, match="`label_mode` must be one of"):
    tf.keras.datasets.cifar100.load_data("medium")
  (x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar10.load_data()
  assert _summary(x_train) == ((50000, 32, 32, 3), np.uint8, 3932567, [161, 135, 111, 29, 91, 103])
  assert y_train.shape == (50000, 1) and y_train.dtype == np.uint8
  assert int(y_train.sum()) == 150000 and y_train[10000:10002].tolist() == [[2], [2]]
  assert _summary(x_test) == ((2, 32, 32, 3), np.uint8, 787967, [229, 104, 167, 182, 152, 116])
  assert y_test.tolist() == [[3], [6]] and y_test.dtype == np.int64  # TF 1.15 kept int64 here
  assert os.path.isdir(str(tmp_path / ".keras" / "datasets" / "cifar-10-batches-py"))


# ---- contrib.learn.datasets / examples.tutorials.mnist.input_data ----
def test_read_data_sets_downloads_with_maybe_download(origin, tmp_path, capsys):
  train_dir = str(tmp_path / "MNIST-data")
  data = tf.contrib.learn.datasets.mnist.read_data_sets(train_dir, source_url=origin,
                                                        validation_size=1)
  out = capsys.readouterr().out
  assert "Successfully downloaded train-images-idx3-ubyte.gz 2415 bytes." in out
  assert out.count("Extracting %s/" % train_dir) == 4
  assert data.train.images.shape == (2, 784) and data.train.images.dtype == np.float32
  assert data.validation.labels.tolist() == [9] and data.test.labels.tolist() == [1, 8]
  assert sorted(os.listdir(train_dir)) == [
      "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
      "train-labels-idx1-ubyte.gz"]
  assert len(_Handler.requests) == 4
  tf.contrib.learn.datasets.mnist.read_data_sets(train_dir, one_hot=True, source_url=origin,
                                                 validation_size=0)
  assert len(_Handler.requests) == 4 and "Successfully" not in capsys.readouterr().out
  maybe = tf.contrib.learn.datasets.base.maybe_download
  path = maybe("h.txt", str(tmp_path / "new" / "dir"), origin + "hello.txt")
  assert path == str(tmp_path / "new" / "dir" / "h.txt") and open(path).read() == "hello world\n"
  assert "Successfully downloaded h.txt 12 bytes." in capsys.readouterr().out
  assert tf.contrib.learn.datasets.mnist.DEFAULT_SOURCE_URL == (
      "https://storage.googleapis.com/cvdf-datasets/mnist/")
  with pytest.raises(ValueError, match="Name of dataset is not found: nope"):
    tf.contrib.learn.datasets.load_dataset("nope")
  with pytest.raises(NotImplementedError, match="only 'mnist'"):
    tf.contrib.learn.datasets.load_dataset("iris")
