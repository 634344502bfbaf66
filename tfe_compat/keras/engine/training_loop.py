"""The loops behind `Model.fit`/`evaluate`/`predict`, shaped like TF 1.15's eager loop
(training_v2.py): callbacks and the progress bar are driven the same way, so logs, History
and the printed text match.

Array inputs are batched on the host with NumPy (shuffled per epoch) and each batch is
converted to Tensors once; any other iterable (a tf.data.Dataset, a generator, a
`keras.utils.Sequence`) yields batches `x`, `(x, y)` or `(x, y, sample_weight)`.
"""
import contextlib
import logging
import math

import jax
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import ops
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import backend
from tfe_compat.keras import callbacks as cbks
from tfe_compat.keras import utils

_log = logging.getLogger("tensorflow")
TRAIN, TEST, PREDICT = cbks.TRAIN, cbks.TEST, cbks.PREDICT


# ---- Data ----
def is_dataset_like(x):
  """True for iterables of batches (datasets, generators, Sequences), not for arrays."""
  if x is None or isinstance(x, (np.ndarray, Tensor, list, tuple, dict)):
    return False
  return (isinstance(x, utils.Sequence) or hasattr(x, "__next__")
          or (hasattr(x, "__iter__") and not hasattr(x, "shape")))


def _to_numpy(leaf):
  array = np.asarray(leaf)
  if array.dtype.kind == "f" and array.dtype != np.dtype(backend.floatx()):
    array = array.astype(backend.floatx())
  return array


def to_tensors(structure):
  """Converts every leaf (NumPy array or Tensor) of a nested structure to a Tensor (to NumPy
  in graph mode, where it is fed to the step)."""
  in_graph = graph_lib.building() is not None

  def convert(leaf):
    if isinstance(leaf, Tensor):
      return leaf
    if in_graph:
      return _to_numpy(leaf)
    return ops.convert_to_tensor(_to_numpy(leaf))
  return jax.tree_util.tree_map(convert, structure)


def _first_dim(structure):
  leaves = jax.tree_util.tree_leaves(structure)
  return int(np.shape(leaves[0])[0]) if leaves else 0


class ArrayData:
  """x (any structure), y and sample weights (lists, one entry per output) as NumPy arrays."""

  def __init__(self, x, y, sample_weights, batch_size, shuffle=False):
    self.x = jax.tree_util.tree_map(_to_numpy, x)
    self.y = None if y is None else [None if t is None else _to_numpy(t) for t in y]
    self.sample_weights = None if sample_weights is None else [
        None if w is None else _to_numpy(w) for w in sample_weights]
    self.shuffle = shuffle
    x_sizes = {np.shape(a)[0] for a in jax.tree_util.tree_leaves(self.x)}
    if len(x_sizes) > 1:
      raise ValueError("All input arrays (x) should have the same number of samples. Got "
                       "array shapes: " + str([np.shape(a) for a in
                                               jax.tree_util.tree_leaves(self.x)]))
    y_sizes = {np.shape(a)[0] for a in self.y or [] if a is not None}
    if len(y_sizes) > 1:
      raise ValueError("All target arrays (y) should have the same number of samples. Got "
                       "array shapes: " + str([np.shape(a) for a in self.y]))
    if x_sizes and y_sizes and x_sizes != y_sizes:
      raise ValueError("Input arrays should have the same number of samples as target "
                       "arrays. Found %d input samples and %d target samples."
                       % (x_sizes.pop(), y_sizes.pop()))
    self.num_samples = x_sizes.pop() if x_sizes else 0
    self.batch_size = batch_size

  @property
  def num_batches(self):
    return int(math.ceil(self.num_samples / float(self.batch_size)))

  def split(self, validation_split):
    """(train, validation): the last `validation_split` of the samples validate."""
    at = int(self.num_samples * (1. - validation_split))

    def part(structure, sl):
      return jax.tree_util.tree_map(lambda a: None if a is None else a[sl], structure)
    val = ArrayData.__new__(ArrayData)
    val.__dict__.update(self.__dict__)
    val.x, val.y = part(self.x, slice(at, None)), part(self.y, slice(at, None))
    val.sample_weights = part(self.sample_weights, slice(at, None))
    val.num_samples, val.shuffle = self.num_samples - at, False
    self.x, self.y = part(self.x, slice(None, at)), part(self.y, slice(None, at))
    self.sample_weights = part(self.sample_weights, slice(None, at))
    self.num_samples = at
    return self, val

  def _order(self):
    n, bs = self.num_samples, self.batch_size
    if self.shuffle == "batch":
      full = n // bs
      blocks = np.arange(full * bs).reshape(full, bs)[_rng().permutation(full)]
      return np.concatenate([blocks.ravel(), np.arange(full * bs, n)])
    if self.shuffle:
      return _rng().permutation(n)
    return None

  def epoch(self):
    """Iterator over one epoch's batches: (x, y, sample_weights) of Tensors."""
    order = self._order()
    for start in range(0, self.num_samples, self.batch_size):
      sl = slice(start, start + self.batch_size)
      index = sl if order is None else order[sl]
      take = lambda s: jax.tree_util.tree_map(lambda a: a[index], s)  # noqa: E731
      yield (to_tensors(take(self.x)), None if self.y is None else to_tensors(take(self.y)),
             None if self.sample_weights is None else to_tensors(take(self.sample_weights)))

  def forever(self):
    while True:
      for batch in self.epoch():
        yield batch


def _rng():
  """A NumPy generator seeded by tfe_compat's RNG (so `tf.set_random_seed` fixes it)."""
  return np.random.default_rng(np.asarray(context.seeded_key(), np.uint32))


def unpack_batch(element):
  """(x, y, sample_weight) from a dataset element: x, (x,), (x, y) or (x, y, weights)."""
  if isinstance(element, tuple):
    if len(element) == 1:
      return element[0], None, None
    if len(element) == 2:
      return element[0], element[1], None
    if len(element) == 3:
      return element
  return element, None, None


class IterableData:
  """Batches from a dataset, generator or Sequence, standardized by the model and converted
  to Tensors one batch at a time (a Sequence's batch order is shuffled if asked)."""

  def __init__(self, data, shuffle=False, standardize=None):
    self.data = data
    self.shuffle = shuffle
    self.standardize = standardize
    # Only a Sequence has a known size; a dataset's or a generator's is learnt at its end.
    self.num_batches = len(data) if isinstance(data, utils.Sequence) else None
    self.num_samples = None
    self.batch_size = None
    self.reiterable = not hasattr(data, "__next__")  # an iterator or generator is not

  def epoch(self):
    if isinstance(self.data, utils.Sequence):
      order = range(len(self.data))
      if self.shuffle:
        order = _rng().permutation(len(self.data))
      elements = (self.data[int(i)] for i in order)
    else:
      elements = iter(self.data)
    for element in elements:
      x, y, sample_weights = self.standardize(*unpack_batch(element))
      yield (to_tensors(x), None if y is None else to_tensors(y),
             None if sample_weights is None else to_tensors(sample_weights))


# ---- Aggregation of step results ----
class MetricsAggregator:
  """Loss: averaged over samples (or steps); metrics: their last (stateful) value."""

  def __init__(self, use_steps, num_samples=None, steps=None):
    self.use_steps, self.num_samples, self.steps = use_steps, num_samples, steps
    self.results = []

  def aggregate(self, batch_outs, batch_start=None, batch_end=None):
    if not self.results:
      self.results = [0.] * len(batch_outs)
    if self.use_steps:
      self.results[0] += batch_outs[0]
    else:
      self.results[0] += batch_outs[0] * (batch_end - batch_start)
    self.results[1:] = batch_outs[1:]

  def finalize(self):
    if not self.results:
      raise ValueError("Empty training data.")
    self.results[0] /= (self.num_samples or self.steps)


class OutputsAggregator:
  """Concatenates the batches of each output."""

  def __init__(self, *unused):
    self.results = []

  def aggregate(self, batch_outs, batch_start=None, batch_end=None):
    if not self.results:
      self.results = [[] for _ in batch_outs]
    for parts, out in zip(self.results, batch_outs):
      parts.append(out)

  def finalize(self):
    self.results = [np.concatenate(parts) for parts in self.results]


# ---- Callbacks and the progress bar around the loop ----
class LoopContext:
  """Calls the callbacks and the progress bar at the start, each epoch and each batch."""

  @contextlib.contextmanager
  def on_start(self, model, callbacks, use_samples=False, verbose=0, mode=TRAIN):
    progbar = cbks.ProgbarLogger("samples" if use_samples else "steps",
                                 stateful_metrics=model.metrics_names[1:])
    progbar.params = callbacks.params
    progbar.params["verbose"] = verbose
    callbacks.model.stop_training = False
    callbacks._call_begin_hook(mode)  # pylint: disable=protected-access
    progbar.on_train_begin()
    self.callbacks, self.progbar = callbacks, progbar
    try:
      yield
    finally:
      self.callbacks._call_end_hook(mode)  # pylint: disable=protected-access

  @contextlib.contextmanager
  def on_epoch(self, epoch=0, mode=TRAIN):
    epoch_logs = {}
    if mode == TRAIN:
      self.callbacks.on_epoch_begin(epoch, epoch_logs)
    self.progbar.on_epoch_begin(epoch, epoch_logs)
    try:
      yield epoch_logs
    finally:
      if mode == TRAIN:
        self.callbacks.on_epoch_end(epoch, epoch_logs)
      self.progbar.on_epoch_end(epoch, epoch_logs)

  @contextlib.contextmanager
  def on_batch(self, step=0, mode=TRAIN, size=1):
    batch_logs = {"batch": step, "size": size}
    self.callbacks._call_batch_hook(mode, "begin", step, batch_logs)  # pylint: disable=protected-access
    self.progbar.on_batch_begin(step, batch_logs)
    try:
      yield batch_logs
    finally:
      if not batch_logs.pop("data_exhausted", False):
        self.callbacks._call_batch_hook(mode, "end", step, batch_logs)  # pylint: disable=protected-access
        self.progbar.on_batch_end(step, batch_logs)


def run_one_epoch(model, iterator, step_function, mode, loop, batch_size=None,
                  steps_per_epoch=None, num_samples=None, dataset_size=None, total_epochs=1):
  """Runs `step_function` on the iterator's batches for one epoch; the aggregated results."""
  use_steps = num_samples is None
  aggregator = (OutputsAggregator if mode == PREDICT else MetricsAggregator)(
      use_steps, num_samples, steps_per_epoch)
  callbacks, progbar = loop.callbacks, loop.progbar
  target_steps = steps_per_epoch or np.inf
  step = 0
  while step < target_steps:
    if use_steps:
      current_batch_size = 1
    elif step < target_steps - 1:
      current_batch_size = batch_size
    else:
      current_batch_size = num_samples - step * batch_size
    with loop.on_batch(step=step, mode=mode, size=current_batch_size) as batch_logs:
      try:
        batch = next(iterator)
      except StopIteration:
        if dataset_size is None and steps_per_epoch is None and step > 0:
          steps_per_epoch = aggregator.steps = step
          progbar.params["steps"] = steps_per_epoch
          progbar.progbar.target = steps_per_epoch
        else:
          callbacks.model.stop_training = True
          _log.warning(
              "Your input ran out of data; interrupting training. Make sure that your "
              "dataset or generator can generate at least `steps_per_epoch * epochs` "
              "batches (in this case, %s batches). You may need to use the repeat() "
              "function when building your dataset.", total_epochs * (steps_per_epoch or 0))
        batch_logs["data_exhausted"] = True
        break
      batch_outs, data_batch_size = step_function(*batch)
      if mode != PREDICT and current_batch_size != data_batch_size:
        batch_logs["size"] = current_batch_size = data_batch_size
      if use_steps:
        aggregator.aggregate(batch_outs)
      else:
        aggregator.aggregate(batch_outs, step * batch_size, step * batch_size
                             + current_batch_size)
      cbks.make_logs(model, batch_logs, batch_outs, mode)
      step += 1
    if callbacks.model.stop_training:
      break
  aggregator.finalize()
  return aggregator.results


def _print_train_info(total_samples, steps, val_total_samples, val_steps):
  increment = "samples" if total_samples else "steps"
  conjunction = "on" if total_samples else "for"
  msg = "Train {} {} {}".format(conjunction, total_samples or steps, increment)
  if val_total_samples or val_steps:
    increment = "samples" if val_total_samples else "steps"
    conjunction = "on" if val_total_samples else "for"
    msg += ", validate {} {} {}".format(conjunction, val_total_samples or val_steps,
                                        increment)
  print(msg)


def should_run_validation(validation_freq, epoch):
  """Whether to validate after `epoch` (0-based) for `validation_freq` (int or container)."""
  one_indexed_epoch = epoch + 1
  if isinstance(validation_freq, int):
    if validation_freq < 1:
      raise ValueError("`validation_freq` can not be less than 1.")
    return one_indexed_epoch % validation_freq == 0
  if not hasattr(validation_freq, "__contains__"):
    raise ValueError("`validation_freq` must be an Integer or `collections_abc.Container` "
                     "(e.g. list, tuple, etc.)")
  return one_indexed_epoch in validation_freq


def _sizes(data, steps):
  """(total samples or None, steps per epoch or None) of an ArrayData/IterableData."""
  if isinstance(data, ArrayData) and not steps:
    return data.num_samples, data.num_batches
  return None, steps or data.num_batches


def _persistent_iterator(data, steps_per_epoch):
  """The one iterator used across epochs, or None when each epoch iterates afresh (TF:
  arrays repeat endlessly; a generator cannot restart; a dataset restarts unless
  `steps_per_epoch` is given)."""
  if isinstance(data, ArrayData):
    return data.forever()
  if isinstance(data.data, utils.Sequence):
    return None
  if not data.reiterable or steps_per_epoch:
    return data.epoch()
  return None


def fit(model, data, val_data, epochs, verbose, callbacks, initial_epoch, steps_per_epoch,
        validation_steps, validation_freq, batch_size):
  """`Model.fit` once the inputs are ArrayData/IterableData; returns `model.history`."""
  total_samples, steps_per_epoch = _sizes(data, steps_per_epoch)
  use_sample = total_samples is not None
  do_validation = val_data is not None
  val_total_samples = None
  if do_validation:
    val_total_samples, validation_steps = _sizes(val_data, validation_steps)
  if verbose and (total_samples or steps_per_epoch):
    _print_train_info(total_samples, steps_per_epoch, val_total_samples, validation_steps)
  training_callbacks = cbks.configure_callbacks(
      callbacks, model, do_validation=do_validation, batch_size=batch_size, epochs=epochs,
      steps_per_epoch=steps_per_epoch, samples=total_samples or steps_per_epoch,
      count_mode="samples" if use_sample else "steps", verbose=0, mode=TRAIN)
  train_step = model._make_step_function(TRAIN)  # pylint: disable=protected-access
  eval_step = model._make_step_function(TEST)  # pylint: disable=protected-access
  persistent = _persistent_iterator(data, steps_per_epoch)
  loop = LoopContext()
  with loop.on_start(model, training_callbacks, use_sample, verbose, TRAIN):
    for epoch in range(initial_epoch, epochs):
      if training_callbacks.model.stop_training:
        break
      with loop.on_epoch(epoch, TRAIN) as epoch_logs:
        model.reset_metrics()
        iterator = persistent if persistent is not None else data.epoch()
        result = run_one_epoch(
            model, iterator, train_step, TRAIN, loop, batch_size=data.batch_size,
            steps_per_epoch=steps_per_epoch, num_samples=total_samples,
            dataset_size=data.num_batches, total_epochs=epochs)
        cbks.make_logs(model, epoch_logs, result, TRAIN)
        if isinstance(data.data if isinstance(data, IterableData) else None, utils.Sequence):
          data.data.on_epoch_end()
        if (do_validation and should_run_validation(validation_freq, epoch)
            and not training_callbacks.model.stop_training):
          val_callbacks = cbks.configure_callbacks(training_callbacks, model, mode=TEST)
          eval_loop = LoopContext()
          with eval_loop.on_start(model, val_callbacks, use_sample, verbose=0, mode=TEST):
            with eval_loop.on_epoch(epoch, TEST):
              model.reset_metrics()
              eval_result = run_one_epoch(
                  model, val_data.epoch(), eval_step, TEST, eval_loop,
                  batch_size=val_data.batch_size, steps_per_epoch=validation_steps,
                  num_samples=val_total_samples, dataset_size=val_data.num_batches)
              cbks.make_logs(model, epoch_logs, eval_result, TEST, prefix="val_")
  return model.history


def iterate(model, mode, data, verbose, callbacks, steps):
  """`evaluate` (TEST) or `predict` (PREDICT) over ArrayData/IterableData."""
  total_samples, steps = _sizes(data, steps)
  use_sample = total_samples is not None
  step_function = model._make_step_function(mode)  # pylint: disable=protected-access
  callback_list = cbks.configure_callbacks(
      callbacks, model, batch_size=data.batch_size, epochs=1, steps_per_epoch=steps,
      samples=use_sample, count_mode="samples" if use_sample else "steps", verbose=0,
      mode=mode)
  iterator = data.forever() if steps and isinstance(data, ArrayData) else data.epoch()
  loop = LoopContext()
  with loop.on_start(model, callback_list, use_sample, verbose, mode):
    with loop.on_epoch(0, mode) as epoch_logs:
      model.reset_metrics()
      result = run_one_epoch(model, iterator, step_function, mode, loop,
                             batch_size=data.batch_size, steps_per_epoch=steps,
                             num_samples=total_samples, dataset_size=data.num_batches)
      cbks.make_logs(model, epoch_logs, result, mode)
  return result[0] if len(result) == 1 else result
