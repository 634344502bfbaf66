"""`tf.keras.preprocessing.image`: the image iterators and ImageDataGenerator.

Host-side NumPy code with Keras 2's semantics (keras_preprocessing 1.1): random parameters
and shuffles come from `np.random` in Keras's order, so `np.random.seed` and `seed=`
reproduce Keras's batches. Iterators yield NumPy arrays and are `keras.utils.Sequence`s, so
`Model.fit` / `fit_generator` consume them directly. The per-image functions (load_img,
apply_affine_transform, ...) live in preprocessing_image_ops.py and are re-exported here.
"""
import os
import threading
import warnings

import numpy as np

from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.keras import utils
from tfe_compat.keras.preprocessing_image_ops import (  # pylint: disable=unused-import
    apply_affine_transform, apply_brightness_shift, apply_channel_shift, array_to_img,
    flip_axis, img_to_array, load_img, random_brightness, random_channel_shift,
    random_rotation, random_shear, random_shift, random_zoom, save_img)

_NAME = "keras.preprocessing.image."


# ---- Iterators ----
@export(_NAME + "Iterator")
class Iterator(utils.Sequence):
  """Base class of the image iterators: a Sequence of batches (`__getitem__`, `__len__`)
  and an endless iterator (`next`); subclasses implement
  `_get_batches_of_transformed_samples(index_array)`."""

  white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

  def __init__(self, n, batch_size, shuffle, seed):
    self.n = n
    self.batch_size = batch_size
    self.seed = seed
    self.shuffle = shuffle
    self.batch_index = 0
    self.total_batches_seen = 0
    self.lock = threading.Lock()
    self.index_array = None
    self.index_generator = self._flow_index()

  def _set_index_array(self):
    self.index_array = np.arange(self.n)
    if self.shuffle:
      self.index_array = np.random.permutation(self.n)

  def __getitem__(self, idx):
    if idx >= len(self):
      raise ValueError("Asked to retrieve element {idx}, but the Sequence has length "
                       "{length}".format(idx=idx, length=len(self)))
    if self.seed is not None:
      np.random.seed(self.seed + self.total_batches_seen)
    self.total_batches_seen += 1
    if self.index_array is None:
      self._set_index_array()
    index_array = self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)]
    return self._get_batches_of_transformed_samples(index_array)

  def __len__(self):
    return (self.n + self.batch_size - 1) // self.batch_size

  def on_epoch_end(self):
    self._set_index_array()

  def reset(self):
    self.batch_index = 0

  def _flow_index(self):
    self.reset()
    while True:
      if self.seed is not None:
        np.random.seed(self.seed + self.total_batches_seen)
      if self.batch_index == 0:
        self._set_index_array()
      current = (self.batch_index * self.batch_size) % self.n if self.n else 0
      if self.n > current + self.batch_size:
        self.batch_index += 1
      else:
        self.batch_index = 0
      self.total_batches_seen += 1
      yield self.index_array[current:current + self.batch_size]

  def __iter__(self):
    return self

  def __next__(self, *args, **kwargs):
    return self.next(*args, **kwargs)

  def next(self):
    """The next batch (endless: the index array is reshuffled after each pass)."""
    with self.lock:
      index_array = next(self.index_generator)
    return self._get_batches_of_transformed_samples(index_array)

  def _get_batches_of_transformed_samples(self, index_array):
    raise NotImplementedError


def _save_batch(iterator, batch_x, index_array, hash_range):
  for i, j in enumerate(index_array):
    img = array_to_img(batch_x[i], iterator.data_format, scale=True)
    fname = "{prefix}_{index}_{hash}.{format}".format(
        prefix=iterator.save_prefix, index=j, hash=np.random.randint(hash_range),
        format=iterator.save_format)
    img.save(os.path.join(iterator.save_to_dir, fname))


@export(_NAME + "NumpyArrayIterator")
class NumpyArrayIterator(Iterator):
  """Batches of (augmented) images from a rank-4 array `x`, with targets `y` and sample
  weights; `x` may be a tuple `(images, other_array_or_list)` whose other arrays are
  passed through unchanged."""

  def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False,
               sample_weight=None, seed=None, data_format=None, save_to_dir=None,
               save_prefix="", save_format="png", subset=None, dtype=None):
    data_format = data_format or backend.image_data_format()
    self.dtype = dtype or backend.floatx()
    if isinstance(x, (tuple, list)):
      x_misc = ([np.asarray(xx) for xx in x[1]] if isinstance(x[1], list)
                else [np.asarray(x[1])])
      x = x[0]
      for xx in x_misc:
        if len(x) != len(xx):
          raise ValueError("All of the arrays in `x` should have the same length. Found a "
                           "pair with: len(x[0]) = %s, len(x[?]) = %s" % (len(x), len(xx)))
    else:
      x_misc = []
    if y is not None and len(x) != len(y):
      raise ValueError("`x` (images tensor) and `y` (labels) should have the same length. "
                       "Found: x.shape = %s, y.shape = %s"
                       % (np.asarray(x).shape, np.asarray(y).shape))
    if sample_weight is not None and len(x) != len(sample_weight):
      raise ValueError("`x` (images tensor) and `sample_weight` should have the same "
                       "length. Found: x.shape = %s, sample_weight.shape = %s"
                       % (np.asarray(x).shape, np.asarray(sample_weight).shape))
    if subset is not None:
      if subset not in ("training", "validation"):
        raise ValueError('Invalid subset name: %s; expected "training" or "validation".'
                         % (subset,))
      split_idx = int(len(x) * image_data_generator._validation_split)  # pylint: disable=protected-access
      if y is not None and not np.array_equal(np.unique(y[:split_idx]),
                                              np.unique(y[split_idx:])):
        raise ValueError("Training and validation subsets have different number of classes "
                         "after the split. If your numpy arrays are sorted by the label, "
                         "you might want to shuffle them.")
      part = slice(None, split_idx) if subset == "validation" else slice(split_idx, None)
      x = x[part]
      x_misc = [np.asarray(xx[part]) for xx in x_misc]
      if y is not None:
        y = y[part]
    self.x = np.asarray(x, dtype=self.dtype)
    self.x_misc = x_misc
    if self.x.ndim != 4:
      raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed "
                       "an array with shape %s" % (self.x.shape,))
    channels_axis = 3 if data_format == "channels_last" else 1
    if self.x.shape[channels_axis] not in (1, 3, 4):
      warnings.warn(
          'NumpyArrayIterator is set to use the data format convention "%s" (channels on '
          "axis %d), i.e. expected either 1, 3, or 4 channels on axis %d. However, it was "
          "passed an array with shape %s (%d channels)." % (
              data_format, channels_axis, channels_axis, self.x.shape,
              self.x.shape[channels_axis]))
    self.y = None if y is None else np.asarray(y)
    self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
    self.image_data_generator = image_data_generator
    self.data_format = data_format
    self.save_to_dir = save_to_dir
    self.save_prefix = save_prefix
    self.save_format = save_format
    super(NumpyArrayIterator, self).__init__(self.x.shape[0], batch_size, shuffle, seed)

  def _get_batches_of_transformed_samples(self, index_array):
    batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
    generator = self.image_data_generator
    for i, j in enumerate(index_array):
      x = self.x[j]
      params = generator.get_random_transform(x.shape)
      x = generator.apply_transform(x.astype(self.dtype), params)
      batch_x[i] = generator.standardize(x)
    if self.save_to_dir:
      _save_batch(self, batch_x, index_array, 1e4)
    misc = [xx[index_array] for xx in self.x_misc]
    output = (batch_x if not misc else [batch_x] + misc,)
    if self.y is None:
      return output[0]
    output += (self.y[index_array],)
    if self.sample_weight is not None:
      output += (self.sample_weight[index_array],)
    return output


def _iter_valid_files(directory, white_list_formats, follow_links):
  for root, _, files in sorted(os.walk(directory, followlinks=follow_links),
                               key=lambda entry: entry[0]):
    for fname in sorted(files):
      if fname.lower().endswith(".tiff"):
        warnings.warn('Using ".tiff" files with multiple bands will cause distortion. '
                      "Please verify your output.")
      if fname.lower().endswith(white_list_formats):
        yield root, fname


def _list_class_files(directory, white_list_formats, split, follow_links):
  """Paths (relative to `directory`'s parent) of the valid files of one class folder,
  limited to the `split` fraction (start, stop) of them if given."""
  files = list(_iter_valid_files(directory, white_list_formats, follow_links))
  if split:
    files = files[int(split[0] * len(files)):int(split[1] * len(files))]
  dirname = os.path.basename(directory)
  return [os.path.join(dirname, os.path.relpath(os.path.join(root, fname), directory))
          for root, fname in files]


@export(_NAME + "DirectoryIterator")
class DirectoryIterator(Iterator):
  """Batches of (augmented) images read from `directory`, one subdirectory per class."""

  allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

  def __init__(self, directory, image_data_generator, target_size=(256, 256),
               color_mode="rgb", classes=None, class_mode="categorical", batch_size=32,
               shuffle=True, seed=None, data_format=None, save_to_dir=None, save_prefix="",
               save_format="png", follow_links=False, subset=None, interpolation="nearest",
               dtype=None):
    self.data_format = data_format or backend.image_data_format()
    self.dtype = dtype or backend.floatx()
    self.image_data_generator = image_data_generator
    self.target_size = tuple(target_size)
    if color_mode not in ("rgb", "rgba", "grayscale"):
      raise ValueError('Invalid color mode: %s; expected "rgb", "rgba", or "grayscale".'
                       % (color_mode,))
    self.color_mode = color_mode
    channels = {"rgba": 4, "rgb": 3, "grayscale": 1}[color_mode]
    self.image_shape = (self.target_size + (channels,) if self.data_format == "channels_last"
                        else (channels,) + self.target_size)
    self.save_to_dir = save_to_dir
    self.save_prefix = save_prefix
    self.save_format = save_format
    self.interpolation = interpolation
    if subset is None:
      self.split = None
    elif subset in ("validation", "training"):
      validation_split = image_data_generator._validation_split  # pylint: disable=protected-access
      self.split = (0, validation_split) if subset == "validation" else (validation_split, 1)
    else:
      raise ValueError('Invalid subset name: %s;expected "training" or "validation"'
                       % (subset,))
    self.subset = subset
    self.directory = directory
    if class_mode not in self.allowed_class_modes:
      raise ValueError("Invalid class_mode: {}; expected one of: {}".format(
          class_mode, self.allowed_class_modes))
    self.class_mode = class_mode
    if not classes:
      classes = [subdir for subdir in sorted(os.listdir(directory))
                 if os.path.isdir(os.path.join(directory, subdir))]
    self.num_classes = len(classes)
    self.class_indices = dict(zip(classes, range(len(classes))))
    self.filenames = []
    labels = []
    for subdir in classes:
      names = _list_class_files(os.path.join(directory, subdir), self.white_list_formats,
                                self.split, follow_links)
      self.filenames += names
      labels += [self.class_indices[subdir]] * len(names)
    self.samples = len(self.filenames)
    self.classes = np.array(labels, dtype="int32")
    print("Found %d images belonging to %d classes." % (self.samples, self.num_classes))
    self._filepaths = [os.path.join(directory, fname) for fname in self.filenames]
    super(DirectoryIterator, self).__init__(self.samples, batch_size, shuffle, seed)

  @property
  def filepaths(self):
    return self._filepaths

  @property
  def labels(self):
    return self.classes

  def _get_batches_of_transformed_samples(self, index_array):
    batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
    generator = self.image_data_generator
    for i, j in enumerate(index_array):
      img = load_img(self._filepaths[j], color_mode=self.color_mode,
                     target_size=self.target_size, interpolation=self.interpolation)
      x = img_to_array(img, data_format=self.data_format)
      img.close()
      if generator:
        x = generator.apply_transform(x, generator.get_random_transform(x.shape))
        x = generator.standardize(x)
      batch_x[i] = x
    if self.save_to_dir:
      _save_batch(self, batch_x, index_array, 1e7)
    if self.class_mode == "input":
      return batch_x, batch_x.copy()
    if self.class_mode in ("binary", "sparse"):
      return batch_x, self.classes[index_array].astype(self.dtype)
    if self.class_mode == "categorical":
      batch_y = np.zeros((len(batch_x), self.num_classes), dtype=self.dtype)
      batch_y[np.arange(len(batch_x)), self.classes[index_array]] = 1.
      return batch_x, batch_y
    return batch_x


@export(_NAME + "ImageDataGenerator")
class ImageDataGenerator(object):
  """Real-time data augmentation: random transforms (`get_random_transform` /
  `apply_transform`) and normalization (`standardize`, statistics from `fit`) of images,
  batched by `flow` (arrays) or `flow_from_directory` (image files)."""

  def __init__(self, featurewise_center=False, samplewise_center=False,
               featurewise_std_normalization=False, samplewise_std_normalization=False,
               zca_whitening=False, zca_epsilon=1e-6, rotation_range=0,
               width_shift_range=0., height_shift_range=0., brightness_range=None,
               shear_range=0., zoom_range=0., channel_shift_range=0., fill_mode="nearest",
               cval=0., horizontal_flip=False, vertical_flip=False, rescale=None,
               preprocessing_function=None, data_format=None, validation_split=0.0,
               dtype=None):
    data_format = data_format or backend.image_data_format()
    self.featurewise_center = featurewise_center
    self.samplewise_center = samplewise_center
    self.featurewise_std_normalization = featurewise_std_normalization
    self.samplewise_std_normalization = samplewise_std_normalization
    self.zca_whitening = zca_whitening
    self.zca_epsilon = zca_epsilon
    self.rotation_range = rotation_range
    self.width_shift_range = width_shift_range
    self.height_shift_range = height_shift_range
    self.shear_range = shear_range
    self.channel_shift_range = channel_shift_range
    self.fill_mode = fill_mode
    self.cval = cval
    self.horizontal_flip = horizontal_flip
    self.vertical_flip = vertical_flip
    self.rescale = rescale
    self.preprocessing_function = preprocessing_function
    self.dtype = dtype or backend.floatx()
    self.interpolation_order = 1
    if data_format not in ("channels_last", "channels_first"):
      raise ValueError('`data_format` should be `"channels_last"` (channel after row and '
                       'column) or `"channels_first"` (channel before row and column). '
                       "Received: %s" % data_format)
    self.data_format = data_format
    if data_format == "channels_first":
      self.channel_axis, self.row_axis, self.col_axis = 1, 2, 3
    else:
      self.channel_axis, self.row_axis, self.col_axis = 3, 1, 2
    if validation_split and not 0 < validation_split < 1:
      raise ValueError("`validation_split` must be strictly between 0 and 1.  Received: %s"
                       % validation_split)
    self._validation_split = validation_split
    self.mean = None
    self.std = None
    self.principal_components = None
    if isinstance(zoom_range, (float, int)):
      self.zoom_range = [1 - zoom_range, 1 + zoom_range]
    elif len(zoom_range) == 2:
      self.zoom_range = [zoom_range[0], zoom_range[1]]
    else:
      raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. "
                       "Received: %s" % (zoom_range,))
    if zca_whitening:
      if not featurewise_center:
        self.featurewise_center = True
        warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which overrides "
                      "setting of `featurewise_center`.")
      if featurewise_std_normalization:
        self.featurewise_std_normalization = False
        warnings.warn("This ImageDataGenerator specifies `zca_whitening` which overrides "
                      "setting of`featurewise_std_normalization`.")
    if featurewise_std_normalization and not featurewise_center:
      self.featurewise_center = True
      warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, "
                    "which overrides setting of `featurewise_center`.")
    if samplewise_std_normalization and not samplewise_center:
      self.samplewise_center = True
      warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, "
                    "which overrides setting of `samplewise_center`.")
    if brightness_range is not None and (
        not isinstance(brightness_range, (tuple, list)) or len(brightness_range) != 2):
      raise ValueError("`brightness_range should be tuple or list of two floats. "
                       "Received: %s" % (brightness_range,))
    self.brightness_range = brightness_range

  def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None,
           save_to_dir=None, save_prefix="", save_format="png", subset=None):
    """A NumpyArrayIterator over `x` (rank 4), `y` and `sample_weight`."""
    return NumpyArrayIterator(
        x, y, self, batch_size=batch_size, shuffle=shuffle, sample_weight=sample_weight,
        seed=seed, data_format=self.data_format, save_to_dir=save_to_dir,
        save_prefix=save_prefix, save_format=save_format, subset=subset, dtype=self.dtype)

  def flow_from_directory(self, directory, target_size=(256, 256), color_mode="rgb",
                          classes=None, class_mode="categorical", batch_size=32,
                          shuffle=True, seed=None, save_to_dir=None, save_prefix="",
                          save_format="png", follow_links=False, subset=None,
                          interpolation="nearest"):
    """A DirectoryIterator over the images in the class subdirectories of `directory`."""
    return DirectoryIterator(
        directory, self, target_size=target_size, color_mode=color_mode, classes=classes,
        class_mode=class_mode, data_format=self.data_format, batch_size=batch_size,
        shuffle=shuffle, seed=seed, save_to_dir=save_to_dir, save_prefix=save_prefix,
        save_format=save_format, follow_links=follow_links, subset=subset,
        interpolation=interpolation, dtype=self.dtype)

  def flow_from_dataframe(self, dataframe, directory=None, x_col="filename", y_col="class",
                          weight_col=None, target_size=(256, 256), color_mode="rgb",
                          classes=None, class_mode="categorical", batch_size=32,
                          shuffle=True, seed=None, save_to_dir=None, save_prefix="",
                          save_format="png", subset=None, interpolation="nearest",
                          validate_filenames=True, **kwargs):
    """Not supported by tfe_compat (see the NotImplementedError)."""
    try:
      import pandas  # pylint: disable=g-import-not-at-top,unused-import
    except ImportError:
      raise NotImplementedError(
          "ImageDataGenerator.flow_from_dataframe requires pandas, which is not installed. "
          "Use flow_from_directory or flow instead.")
    raise NotImplementedError(
        "ImageDataGenerator.flow_from_dataframe is not implemented in tfe_compat. Use "
        "flow_from_directory, or load the images with load_img/img_to_array and use flow.")

  def standardize(self, x):
    """Applies preprocessing_function, rescale and the sample/feature-wise normalization
    to `x` (a single image or a batch), in place where possible."""
    if self.preprocessing_function:
      x = self.preprocessing_function(x)
    if self.rescale:
      x *= self.rescale
    if self.samplewise_center:
      x -= np.mean(x, keepdims=True)
    if self.samplewise_std_normalization:
      x /= (np.std(x, keepdims=True) + 1e-6)
    not_fit = ("This ImageDataGenerator specifies `%s`, but it hasn't been fit on any "
               "training data. Fit it first by calling `.fit(numpy_data)`.")
    if self.featurewise_center:
      if self.mean is not None:
        x -= self.mean
      else:
        warnings.warn(not_fit % "featurewise_center")
    if self.featurewise_std_normalization:
      if self.std is not None:
        x /= (self.std + 1e-6)
      else:
        warnings.warn(not_fit % "featurewise_std_normalization")
    if self.zca_whitening:
      if self.principal_components is not None:
        flat_x = np.reshape(x, (-1, np.prod(x.shape[-3:])))
        x = np.reshape(np.dot(flat_x, self.principal_components), x.shape)
      else:
        warnings.warn(not_fit % "zca_whitening")
    return x

  def _random_shift(self, shift_range, size):
    try:  # an int or a 1-D array-like: one of its values, with a random sign
      shift = np.random.choice(shift_range)
      shift *= np.random.choice([-1, 1])
    except ValueError:  # a float
      shift = np.random.uniform(-shift_range, shift_range)
    if np.max(shift_range) < 1:
      shift *= size
    return shift

  def get_random_transform(self, img_shape, seed=None):
    """Random parameters (dict: theta, tx, ty, shear, zx, zy, flip_horizontal,
    flip_vertical, channel_shift_intensity, brightness) for one image of `img_shape`."""
    if seed is not None:
      np.random.seed(seed)
    theta = (np.random.uniform(-self.rotation_range, self.rotation_range)
             if self.rotation_range else 0)
    tx = (self._random_shift(self.height_shift_range, img_shape[self.row_axis - 1])
          if self.height_shift_range else 0)
    ty = (self._random_shift(self.width_shift_range, img_shape[self.col_axis - 1])
          if self.width_shift_range else 0)
    shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
    if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
      zx, zy = 1, 1
    else:
      zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
    flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
    flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
    channel_shift_intensity = None
    if self.channel_shift_range != 0:
      channel_shift_intensity = np.random.uniform(-self.channel_shift_range,
                                                  self.channel_shift_range)
    brightness = None
    if self.brightness_range is not None:
      brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
    return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
            "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
            "channel_shift_intensity": channel_shift_intensity, "brightness": brightness}

  def apply_transform(self, x, transform_parameters):
    """Applies the parameters of `get_random_transform` to one rank-3 image."""
    row, col, channel = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
    params = transform_parameters
    x = apply_affine_transform(
        x, params.get("theta", 0), params.get("tx", 0), params.get("ty", 0),
        params.get("shear", 0), params.get("zx", 1), params.get("zy", 1), row_axis=row,
        col_axis=col, channel_axis=channel, fill_mode=self.fill_mode, cval=self.cval,
        order=self.interpolation_order)
    if params.get("channel_shift_intensity") is not None:
      x = apply_channel_shift(x, params["channel_shift_intensity"], channel)
    if params.get("flip_horizontal", False):
      x = flip_axis(x, col)
    if params.get("flip_vertical", False):
      x = flip_axis(x, row)
    if params.get("brightness") is not None:
      x = apply_brightness_shift(x, params["brightness"], False)
    return x

  def random_transform(self, x, seed=None):
    """A randomly transformed copy of one rank-3 image."""
    return self.apply_transform(x, self.get_random_transform(x.shape, seed))

  def fit(self, x, augment=False, rounds=1, seed=None):
    """Computes the feature-wise mean/std and ZCA matrix from sample images `x` (rank 4),
    optionally over `rounds` randomly augmented copies."""
    x = np.asarray(x, dtype=self.dtype)
    if x.ndim != 4:
      raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: "
                       + str(x.shape))
    if x.shape[self.channel_axis] not in (1, 3, 4):
      warnings.warn(
          'Expected input to be images (as Numpy array) following the data format '
          'convention "%s" (channels on axis %d), i.e. expected either 1, 3 or 4 channels '
          "on axis %d. However, it was passed an array with shape %s (%d channels)." % (
              self.data_format, self.channel_axis, self.channel_axis, x.shape,
              x.shape[self.channel_axis]))
    if seed is not None:
      np.random.seed(seed)
    x = np.copy(x)
    if self.rescale:
      x *= self.rescale
    if augment:
      ax = np.zeros((rounds * x.shape[0],) + x.shape[1:], dtype=self.dtype)
      for r in range(rounds):
        for i in range(x.shape[0]):
          ax[i + r * x.shape[0]] = self.random_transform(x[i])
      x = ax
    broadcast_shape = [1, 1, 1]
    broadcast_shape[self.channel_axis - 1] = x.shape[self.channel_axis]
    axes = (0, self.row_axis, self.col_axis)
    if self.featurewise_center:
      self.mean = np.reshape(np.mean(x, axis=axes), broadcast_shape)
      x -= self.mean
    if self.featurewise_std_normalization:
      self.std = np.reshape(np.std(x, axis=axes), broadcast_shape)
      x /= (self.std + 1e-6)
    if self.zca_whitening:
      n = len(x)
      u, s, _ = np.linalg.svd(np.reshape(x, (n, -1)).T, full_matrices=False)
      s_inv = np.sqrt(n) / (s + self.zca_epsilon)
      self.principal_components = (u * s_inv).dot(u.T)
