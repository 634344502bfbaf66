"""`tf.keras.datasets.*`: TF 1.15's loaders, downloading into the Keras cache
(`~/.keras/datasets/`) through `tf.keras.utils.get_file` from TF 1.15's URLs, with its hashes.

Module-level names avoid the dataset names, which are namespaces.
"""
import gzip
import json
import logging
import os
import pickle

import numpy as np

from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras.utils import get_file

_ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
_CIFAR_ORIGIN_FOLDER = "https://www.cs.toronto.edu/~kriz/"


@export("keras.datasets.mnist.load_data")
def _mnist_load_data(path="mnist.npz"):
  """MNIST digits: ((x_train, y_train), (x_test, y_test)), uint8 28x28 images."""
  path = get_file(
      path, origin=_ORIGIN_FOLDER + "mnist.npz",
      file_hash="731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1")
  with np.load(path, allow_pickle=True) as f:
    x_train, y_train = f["x_train"], f["y_train"]
    x_test, y_test = f["x_test"], f["y_test"]
  return (x_train, y_train), (x_test, y_test)


@export("keras.datasets.fashion_mnist.load_data")
def _fashion_mnist_load_data():
  """Fashion-MNIST: ((x_train, y_train), (x_test, y_test)), uint8 28x28 images."""
  dirname = os.path.join("datasets", "fashion-mnist")
  files = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
           "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz"]
  paths = [get_file(fname, origin=_ORIGIN_FOLDER + fname, cache_subdir=dirname)
           for fname in files]
  with gzip.open(paths[0], "rb") as f:
    y_train = np.frombuffer(f.read(), np.uint8, offset=8)
  with gzip.open(paths[1], "rb") as f:
    x_train = np.frombuffer(f.read(), np.uint8, offset=16).reshape(len(y_train), 28, 28)
  with gzip.open(paths[2], "rb") as f:
    y_test = np.frombuffer(f.read(), np.uint8, offset=8)
  with gzip.open(paths[3], "rb") as f:
    x_test = np.frombuffer(f.read(), np.uint8, offset=16).reshape(len(y_test), 28, 28)
  return (x_train, y_train), (x_test, y_test)


def _load_batch(fpath, label_key="labels"):
  """One pickled CIFAR batch: (uint8 data of shape (n, 3, 32, 32), labels)."""
  with open(fpath, "rb") as f:
    d = pickle.load(f, encoding="bytes")
  d = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in d.items()}
  data = d["data"]
  return data.reshape(data.shape[0], 3, 32, 32), d[label_key]


def _channels(x_train, x_test):
  if backend.image_data_format() == "channels_last":
    return x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
  return x_train, x_test


@export("keras.datasets.cifar10.load_data")
def _cifar10_load_data():
  """CIFAR-10: uint8 32x32x3 images (channels_last), labels of shape (n, 1)."""
  path = get_file("cifar-10-batches-py", origin=_CIFAR_ORIGIN_FOLDER + "cifar-10-python.tar.gz",
                  untar=True)
  x_train = np.empty((50000, 3, 32, 32), dtype="uint8")
  y_train = np.empty((50000,), dtype="uint8")
  for i in range(1, 6):
    start, stop = (i - 1) * 10000, i * 10000
    x_train[start:stop], y_train[start:stop] = _load_batch(
        os.path.join(path, "data_batch_" + str(i)))
  x_test, y_test = _load_batch(os.path.join(path, "test_batch"))
  y_train = np.reshape(y_train, (len(y_train), 1))
  y_test = np.reshape(y_test, (len(y_test), 1))
  x_train, x_test = _channels(x_train, x_test)
  return (x_train, y_train), (x_test, y_test)


@export("keras.datasets.cifar100.load_data")
def _cifar100_load_data(label_mode="fine"):
  """CIFAR-100 with "fine" (100) or "coarse" (20) labels of shape (n, 1)."""
  if label_mode not in ("fine", "coarse"):
    raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`.')
  path = get_file("cifar-100-python", origin=_CIFAR_ORIGIN_FOLDER + "cifar-100-python.tar.gz",
                  untar=True)
  x_train, y_train = _load_batch(os.path.join(path, "train"), label_mode + "_labels")
  x_test, y_test = _load_batch(os.path.join(path, "test"), label_mode + "_labels")
  y_train = np.reshape(y_train, (len(y_train), 1))
  y_test = np.reshape(y_test, (len(y_test), 1))
  x_train, x_test = _channels(x_train, x_test)
  return (x_train, y_train), (x_test, y_test)


@export("keras.datasets.boston_housing.load_data")
def _boston_housing_load_data(path="boston_housing.npz", test_split=0.2, seed=113):
  """Boston housing prices, shuffled with `np.random.seed(seed)` and split like TF."""
  assert 0 <= test_split < 1
  path = get_file(
      path, origin=_ORIGIN_FOLDER + "boston_housing.npz",
      file_hash="f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5")
  with np.load(path, allow_pickle=True) as f:
    x, y = f["x"], f["y"]
  np.random.seed(seed)
  indices = np.arange(len(x))
  np.random.shuffle(indices)
  x, y = x[indices], y[indices]
  split = int(len(x) * (1 - test_split))
  return (np.array(x[:split]), np.array(y[:split])), (np.array(x[split:]),
                                                      np.array(y[split:]))


# ---- The word-index datasets: imdb and reuters ----
def _sequences(xs):
  """`np.array(xs)` as TF 1.15's NumPy made it: ragged lists give an object array of lists."""
  try:
    return np.array(xs)
  except ValueError:
    out = np.empty(len(xs), dtype=object)
    for i, x in enumerate(xs):
      out[i] = x
    return out


def _index_words(xs, labels, num_words, skip_top, maxlen, start_char, oov_char, index_from):
  """TF's shared steps: mark starts, shift indices, drop long sequences, cut the vocabulary."""
  if start_char is not None:
    xs = [[start_char] + [w + index_from for w in x] for x in xs]
  elif index_from:
    xs = [[w + index_from for w in x] for x in xs]
  if maxlen:
    kept = [(x, y) for x, y in zip(xs, labels) if len(x) < maxlen]
    xs, labels = [x for x, _ in kept], [y for _, y in kept]
    if not xs:
      raise ValueError("After filtering for sequences shorter than maxlen=" + str(maxlen) +
                       ", no sequence was kept. Increase maxlen.")
  if not num_words:
    num_words = max(max(x) for x in xs)
  if oov_char is not None:
    xs = [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
  else:
    xs = [[w for w in x if skip_top <= w < num_words] for x in xs]
  return xs, labels


def _legacy_kwargs(num_words, kwargs):
  if "nb_words" in kwargs:
    logging.getLogger("tensorflow").warning(
        "The `nb_words` argument in `load_data` has been renamed `num_words`.")
    num_words = kwargs.pop("nb_words")
  if kwargs:
    raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
  return num_words


def _shuffled(x, y):
  indices = np.arange(len(x))
  np.random.shuffle(indices)
  return x[indices], y[indices]


def _split_at(xs, labels, idx):
  """((x_train, y_train), (x_test, y_test)): the first `idx` sequences, then the rest."""
  return ((_sequences(xs[:idx]), np.array(labels[:idx])),
          (_sequences(xs[idx:]), np.array(labels[idx:])))


@export("keras.datasets.imdb.load_data")
def _imdb_load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113,
                    start_char=1, oov_char=2, index_from=3, **kwargs):
  """IMDB reviews as word-index lists, shuffled with `np.random.seed(seed)`, as TF 1.15
  (whose `maxlen` filter runs on train and test together, before splitting at the original
  train size)."""
  num_words = _legacy_kwargs(num_words, kwargs)
  path = get_file(
      path, origin=_ORIGIN_FOLDER + "imdb.npz",
      file_hash="69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f")
  with np.load(path, allow_pickle=True) as f:
    x_train, labels_train = f["x_train"], f["y_train"]
    x_test, labels_test = f["x_test"], f["y_test"]
  np.random.seed(seed)
  x_train, labels_train = _shuffled(x_train, labels_train)
  x_test, labels_test = _shuffled(x_test, labels_test)
  xs, labels = _index_words(np.concatenate([x_train, x_test]),
                            np.concatenate([labels_train, labels_test]), num_words, skip_top,
                            maxlen, start_char, oov_char, index_from)
  return _split_at(xs, labels, len(x_train))


@export("keras.datasets.reuters.load_data")
def _reuters_load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None,
                       test_split=0.2, seed=113, start_char=1, oov_char=2, index_from=3,
                       **kwargs):
  """Reuters newswires as word-index lists, shuffled with `np.random.seed(seed)`, the last
  `test_split` of them the test set."""
  num_words = _legacy_kwargs(num_words, kwargs)
  path = get_file(
      path, origin=_ORIGIN_FOLDER + "reuters.npz",
      file_hash="d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916")
  with np.load(path, allow_pickle=True) as f:
    xs, labels = f["x"], f["y"]
  np.random.seed(seed)
  xs, labels = _shuffled(xs, labels)
  xs, labels = _index_words(xs, labels, num_words, skip_top, maxlen, start_char, oov_char,
                            index_from)
  return _split_at(xs, labels, int(len(xs) * (1 - test_split)))


def _word_index(path, fname, file_hash):
  with open(get_file(path, origin=_ORIGIN_FOLDER + fname, file_hash=file_hash)) as f:
    return json.load(f)


@export("keras.datasets.imdb.get_word_index")
def _imdb_get_word_index(path="imdb_word_index.json"):
  """{word: index} of the IMDB dataset."""
  return _word_index(path, "imdb_word_index.json", "bfafd718b763782e994055a2d397834f")


@export("keras.datasets.reuters.get_word_index")
def _reuters_get_word_index(path="reuters_word_index.json"):
  """{word: index} of the Reuters dataset."""
  return _word_index(path, "reuters_word_index.json", "4d44cc38712099c9e383dc6e5f11a921")
