"""MNIST-format IDX files made from the shipped 8x8 digits (examples/data/digits.npz).

MNIST's files hold a big-endian header (magic 2051 for images, 2049 for labels, then the
item count, and for images the rows and columns) followed by one unsigned byte per pixel or
label. `write_digits(directory)` writes the four files MNIST readers look for
(`train-images-idx3-ubyte`, `train-labels-idx1-ubyte`, `t10k-images-idx3-ubyte`,
`t10k-labels-idx1-ubyte`, optionally gzipped), each 8x8 digit blown up 3x to 24x24 and
padded to MNIST's 28x28, pixel values 0..16 scaled to 0..240. Plain numpy: no TensorFlow.
"""
import gzip
import os
import struct

import numpy as np

DIGITS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "data", "digits.npz")
IMAGE_MAGIC, LABEL_MAGIC = 2051, 2049


def write_idx(directory, prefix, images, labels, gzipped=False):
  """Writes `<prefix>-images-idx3-ubyte` and `<prefix>-labels-idx1-ubyte` (+ ".gz")."""
  count, rows, cols = images.shape
  suffix = ".gz" if gzipped else ""
  opener = gzip.open if gzipped else open
  contents = {
      "images-idx3-ubyte": struct.pack(">4I", IMAGE_MAGIC, count, rows, cols)
                           + np.asarray(images, np.uint8).tobytes(),
      "labels-idx1-ubyte": struct.pack(">2I", LABEL_MAGIC, count)
                           + np.asarray(labels, np.uint8).tobytes(),
  }
  for name, data in contents.items():
    with opener(os.path.join(directory, "%s-%s%s" % (prefix, name, suffix)), "wb") as f:
      f.write(data)


def digits_28x28():
  """The 1797 shipped digits as uint8 28x28 images (0..240) and their int labels."""
  with np.load(DIGITS) as data:
    small, labels = data["images"], data["labels"]
  big = np.kron(small, np.ones((3, 3), np.uint8)) * 15
  return np.pad(big, ((0, 0), (2, 2), (2, 2))), labels


def write_digits(directory, num_train=1437, num_test=360, gzipped=False):
  """MNIST-style train (the first `num_train` digits) and t10k (the last `num_test`) files."""
  images, labels = digits_28x28()
  if num_train + num_test > len(images):
    raise ValueError("only %d digits: cannot split %d + %d"
                     % (len(images), num_train, num_test))
  os.makedirs(directory, exist_ok=True)
  write_idx(directory, "train", images[:num_train], labels[:num_train], gzipped)
  write_idx(directory, "t10k", images[len(images) - num_test:],
            labels[len(images) - num_test:], gzipped)
  return directory
