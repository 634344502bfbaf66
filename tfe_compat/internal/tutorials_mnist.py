"""`tensorflow.examples.tutorials.mnist.input_data` (and `tf.contrib.learn.datasets.mnist`):
MNIST from its four gzipped IDX files, downloaded into `train_dir` from `source_url` when
missing (`tf.contrib.learn.datasets.base.maybe_download`).
"""
import gzip

import numpy as np

from tfe_compat.contrib import learn_datasets as base
from tfe_compat.framework import dtypes
from tfe_compat.ops import gfile

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"


def _read_idx(f, magic, kind):
  """The uint8 payload of an IDX file object and its dimensions (magic 2051: images, 2049:
  labels)."""
  print("Extracting", f.name)
  with gzip.GzipFile(fileobj=f) as bytestream:
    data = bytestream.read()
  words = 3 if magic == 2051 else 1
  header = np.frombuffer(data, dtype=">u4", count=1 + words)
  if header[0] != magic:
    raise ValueError("Invalid magic number %d in MNIST %s file: %s" % (header[0], kind, f.name))
  return np.frombuffer(data, dtype=np.uint8, offset=4 * (1 + words)), [int(d) for d in header[1:]]


def extract_images(f):
  """A uint8 array [index, rows, cols, 1] from a gzipped IDX image file object."""
  data, (count, rows, cols) = _read_idx(f, 2051, "image")
  return data[:count * rows * cols].reshape(count, rows, cols, 1)


def dense_to_one_hot(labels_dense, num_classes):
  """Class labels -> one-hot float64 rows, as TF's helper returns."""
  one_hot = np.zeros((labels_dense.shape[0], num_classes))
  one_hot[np.arange(labels_dense.shape[0]), labels_dense.ravel()] = 1
  return one_hot


def extract_labels(f, one_hot=False, num_classes=10):
  """A uint8 label vector (or one-hot rows) from a gzipped IDX label file object."""
  data, (count,) = _read_idx(f, 2049, "label")
  labels = data[:count]
  return dense_to_one_hot(labels, num_classes) if one_hot else labels


class DataSet(object):
  """Images (float32 in [0, 1] or uint8) and labels, served by `next_batch`."""

  def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=dtypes.float32,
               reshape=True, seed=None):
    dtype = dtypes.as_dtype(dtype).base_dtype
    if dtype not in (dtypes.uint8, dtypes.float32):
      raise TypeError("Invalid image dtype %r, expected uint8 or float32" % dtype)
    self._rng = np.random.RandomState(seed)
    self.one_hot = one_hot
    if fake_data:
      self._num_examples = 10000
    else:
      assert images.shape[0] == labels.shape[0], (
          "images.shape: %s labels.shape: %s" % (images.shape, labels.shape))
      self._num_examples = images.shape[0]
      if reshape:
        assert images.shape[3] == 1
        images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
      if dtype == dtypes.float32:
        images = images.astype(np.float32) * np.float32(1.0 / 255.0)
    self._images, self._labels = images, labels
    self._epochs_completed = 0
    self._index_in_epoch = 0

  images = property(lambda self: self._images)
  labels = property(lambda self: self._labels)
  num_examples = property(lambda self: self._num_examples)
  epochs_completed = property(lambda self: self._epochs_completed)

  def _shuffle(self):
    perm = self._rng.permutation(self._num_examples)
    self._images, self._labels = self._images[perm], self._labels[perm]

  def next_batch(self, batch_size, fake_data=False, shuffle=True):
    """The next `batch_size` examples; an epoch's end wraps into a reshuffled next epoch."""
    if fake_data:
      label = [1] + [0] * 9 if self.one_hot else 0
      return [[1] * 784] * batch_size, [label] * batch_size
    start = self._index_in_epoch
    if self._epochs_completed == 0 and start == 0 and shuffle:
      self._shuffle()
    if start + batch_size <= self._num_examples:
      self._index_in_epoch += batch_size
      return self._images[start:start + batch_size], self._labels[start:start + batch_size]
    self._epochs_completed += 1
    images_rest, labels_rest = self._images[start:], self._labels[start:]
    if shuffle:
      self._shuffle()
    self._index_in_epoch = batch_size - len(images_rest)
    end = self._index_in_epoch
    return (np.concatenate((images_rest, self._images[:end]), axis=0),
            np.concatenate((labels_rest, self._labels[:end]), axis=0))


def _extract(train_dir, name, source_url, extract, **kwargs):
  with gfile.GFile(base.maybe_download(name, train_dir, source_url + name), "rb") as f:
    return extract(f, **kwargs)


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=dtypes.float32,
                   reshape=True, validation_size=5000, seed=None,
                   source_url=DEFAULT_SOURCE_URL):
  """Datasets(train, validation, test); validation is the first `validation_size` train rows."""
  if fake_data:
    fake = lambda: DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
    return base.Datasets(train=fake(), validation=fake(), test=fake())
  source_url = source_url or DEFAULT_SOURCE_URL
  train_images = _extract(train_dir, "train-images-idx3-ubyte.gz", source_url, extract_images)
  train_labels = _extract(train_dir, "train-labels-idx1-ubyte.gz", source_url, extract_labels,
                          one_hot=one_hot)
  test_images = _extract(train_dir, "t10k-images-idx3-ubyte.gz", source_url, extract_images)
  test_labels = _extract(train_dir, "t10k-labels-idx1-ubyte.gz", source_url, extract_labels,
                         one_hot=one_hot)
  if not 0 <= validation_size <= len(train_images):
    raise ValueError("Validation size should be between 0 and {}. Received: {}."
                     .format(len(train_images), validation_size))
  options = dict(dtype=dtype, reshape=reshape, seed=seed)
  return base.Datasets(
      train=DataSet(train_images[validation_size:], train_labels[validation_size:], **options),
      validation=DataSet(train_images[:validation_size], train_labels[:validation_size],
                         **options),
      test=DataSet(test_images, test_labels, **options))


def load_mnist(train_dir="MNIST-data"):
  return read_data_sets(train_dir)
