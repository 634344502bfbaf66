"""`tf.contrib.learn.datasets`: `base.maybe_download` (TF 1.15's download with retries),
`base.Dataset(s)`, `load_dataset`, and the MNIST reader of `datasets.mnist`, which lives in
tfe_compat.internal.tutorials_mnist (`tensorflow.examples.tutorials.mnist.input_data`)."""
import collections
import functools
import os
import random
import time
import urllib.request

from tfe_compat.framework.api import export
from tfe_compat.internal import tutorials_mnist
from tfe_compat.ops import gfile

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])
export("contrib.learn.datasets.base.Dataset")(Dataset)
export("contrib.learn.datasets.base.Datasets")(Datasets)

_RETRIABLE_ERRNOS = {110}  # Connection timed out [socket.py]


@export("contrib.learn.datasets.base.retry")
def retry(initial_delay, max_delay, factor=2.0, jitter=0.25, is_retriable=None):
  """A decorator retrying a call after exponentially growing, jittered delays."""
  if factor < 1:
    raise ValueError("factor must be >= 1; was %f" % (factor,))

  def delays():
    delay = initial_delay
    while delay <= max_delay:
      yield delay * random.uniform(1 - jitter, 1 + jitter)
      delay *= factor

  def wrap(fn):
    @functools.wraps(fn)
    def wrapped_fn(*args, **kwargs):
      for delay in delays():
        try:
          return fn(*args, **kwargs)
        except Exception as e:  # pylint: disable=broad-except
          if is_retriable is None:
            continue
          if not is_retriable(e):
            raise
          time.sleep(delay)
      return fn(*args, **kwargs)
    return wrapped_fn
  return wrap


def _is_retriable(e):
  return isinstance(e, IOError) and e.errno in _RETRIABLE_ERRNOS


urlretrieve_with_retry = retry(initial_delay=1.0, max_delay=16.0,
                               is_retriable=_is_retriable)(urllib.request.urlretrieve)
export("contrib.learn.datasets.base.urlretrieve_with_retry")(urlretrieve_with_retry)


@export("contrib.learn.datasets.base.maybe_download")
def maybe_download(filename, work_directory, source_url):
  """`work_directory/filename`, downloaded from `source_url` unless it is already there."""
  if not gfile.file_exists(work_directory):
    gfile.recursive_create_dir(work_directory)
  filepath = os.path.join(work_directory, filename)
  if not gfile.file_exists(filepath):
    temp_file_name, _ = urlretrieve_with_retry(source_url)
    gfile.copy(temp_file_name, filepath)
    with gfile.GFile(filepath) as f:
      size = f.size()
    print("Successfully downloaded", filename, size, "bytes.")
  return filepath


for _name in ("read_data_sets", "load_mnist", "DataSet", "extract_images", "extract_labels",
              "dense_to_one_hot", "DEFAULT_SOURCE_URL"):
  export("contrib.learn.datasets.mnist." + _name)(getattr(tutorials_mnist, _name))

_DATASETS = ("iris", "boston", "mnist", "dbpedia")


@export("contrib.learn.datasets.load_dataset")
def load_dataset(name, size="small", test_with_fake_data=False):  # pylint: disable=unused-argument
  """The named dataset: "mnist" (from ./MNIST-data, downloaded when missing)."""
  if name not in _DATASETS:
    raise ValueError("Name of dataset is not found: %s" % name)
  if name != "mnist":
    raise NotImplementedError(
        "tf.contrib.learn.datasets.load_dataset(%r) is not supported by tfe_compat: TF read it "
        "from files shipped inside TensorFlow; only 'mnist' is available." % name)
  return tutorials_mnist.load_mnist()
