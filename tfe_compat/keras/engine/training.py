"""`tf.keras.Model`: a Network that can be compiled and trained (TF 1.15 semantics).

`compile` resolves the optimizer, the per-output losses and metrics (named as TF 1.x names
them: 'acc', 'dense_1_loss', ...); `fit`/`evaluate`/`predict` run the loops of
training_loop.py around three step functions, `_train_step(x, y, sample_weight)` (forward
under a GradientTape, loss, gradients, `optimizer.apply_gradients`, metric updates),
`_test_step` and `_predict_step`, each written on Tensors only.
"""
import collections
import logging
import math

import jax
import numpy as np

from tfe_compat.eager.function import function as tf_function
from tfe_compat.eager.tape import GradientTape
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import backend_session
from tfe_compat.keras.engine import training_loop as loop_lib
from tfe_compat.ops import array_ops
from tfe_compat.keras.engine.network import Network, _is_symbolic

_log = logging.getLogger("tensorflow")
TRAIN, TEST, PREDICT = loop_lib.TRAIN, loop_lib.TEST, loop_lib.PREDICT
_ACC, _CE = ("accuracy", "acc"), ("crossentropy", "ce")


def _flat(outputs):
  if isinstance(outputs, (list, tuple)):
    return list(outputs)
  return jax.tree_util.tree_leaves(outputs, is_leaf=lambda x: isinstance(x, Tensor))


def _per_output(value, names, what):
  """`value` (a single value, a list, or a dict by output name) as one entry per output."""
  if isinstance(value, dict):
    for key in value:
      if key not in names:
        raise ValueError("Unknown entry in %s dictionary: '%s'. Only expected the following "
                         "keys: %s" % (what, key, names))
    return [value.get(name) for name in names]
  if isinstance(value, (list, tuple)) and what != "metrics":
    if len(value) != len(names):
      raise ValueError("When passing a list as %s, it should have one entry per model "
                       "outputs. The model has %d outputs, but you passed %s=%s"
                       % (what, len(names), what, value))
    return list(value)
  return [value] * len(names)


def _is_number_list(value):
  return isinstance(value, (list, tuple)) and not any(
      isinstance(v, (np.ndarray, Tensor)) for v in value)


class _Output:
  """One model output's loss, loss weight and metrics (created once its shape is known)."""

  def __init__(self, name, loss_fn, loss_weight, metrics, weighted_metrics):
    self.name, self.loss_fn, self.loss_weight = name, loss_fn, loss_weight
    self.metric_specs = metrics  # OrderedDict: display name -> spec (resolved or 'acc'/'ce')
    self.weighted_specs = weighted_metrics
    self.metrics = None  # [(metric object, weighted)] once built
    self.loss_mean = None


class _Compiled:
  """The losses and metrics `compile` was given, laid out per model output."""

  def __init__(self, loss, metrics, loss_weights, weighted_metrics):
    from tfe_compat.keras import metrics_confusion as keras_metrics_confusion  # pylint: disable=g-import-not-at-top
    self.loss, self.loss_weights = loss, loss_weights
    self.metrics, self.weighted_metrics = metrics, weighted_metrics
    self._get_metric = keras_metrics_confusion.get
    self.outputs = []
    self.output_names = None

  def build(self, output_names):
    """Lays the losses and metrics out over `output_names` (done again if they change)."""
    from tfe_compat.keras import losses as keras_losses  # pylint: disable=g-import-not-at-top
    from tfe_compat.keras import metrics as keras_metrics  # pylint: disable=g-import-not-at-top
    self.output_names = list(output_names)
    multi = len(output_names) > 1
    losses = _per_output(self.loss, output_names, "loss")
    weights = _per_output(self.loss_weights if self.loss_weights is not None else 1.,
                          output_names, "loss_weights")
    metric_lists = self._metric_lists(self.metrics, output_names)
    weighted_lists = self._metric_lists(self.weighted_metrics, output_names)
    taken = ["loss"] + [n + "_loss" for n in output_names if multi]
    self.outputs = []
    for i, name in enumerate(output_names):
      loss_fn = None
      if losses[i] is not None:
        loss_fn = keras_losses.get(losses[i])
        if not isinstance(loss_fn, keras_losses.Loss):
          loss_fn = keras_losses.LossFunctionWrapper(
              loss_fn, name=getattr(loss_fn, "__name__", "loss"))
      elif isinstance(self.loss, dict):
        _log.warning("Output %s missing from loss dictionary. We assume this was done on "
                     "purpose. The fit and evaluate APIs will not be expecting any data to "
                     "be passed to %s.", name, name)
      specs = []
      for metric_list, weighted in ((metric_lists[i], False), (weighted_lists[i], True)):
        unique = collections.OrderedDict()
        for spec in metric_list:
          spec = spec if spec in _ACC + _CE else self._get_metric(spec)
          unique.setdefault(self._metric_name(spec, weighted), spec)
        named = collections.OrderedDict()
        for metric_name, spec in unique.items():
          full = "%s_%s" % (name, metric_name) if multi else metric_name
          base, j = full, 1
          while full in taken:
            full, j = "%s_%d" % (base, j), j + 1
          taken.append(full)
          named[full] = spec
        specs.append(named)
      output = _Output(name, loss_fn, weights[i], specs[0], specs[1])
      if multi and loss_fn is not None:
        output.loss_mean = keras_metrics.Mean(name=name + "_loss")
      self.outputs.append(output)

  @staticmethod
  def _metric_lists(metrics, output_names):
    if not metrics:
      return [[] for _ in output_names]
    if isinstance(metrics, dict):
      return [[] if m is None else list(m) if isinstance(m, (list, tuple)) else [m]
              for m in _per_output(metrics, output_names, "metrics")]
    if not isinstance(metrics, (list, tuple)):
      raise TypeError("Type of `metrics` argument not understood. Expected a list or "
                      "dictionary, found: " + str(metrics))
    if metrics and isinstance(metrics[0], (list, tuple)):
      return [list(m) for m in _per_output(list(metrics), output_names, "metrics list")]
    return [list(metrics) for _ in output_names]

  @staticmethod
  def _metric_name(spec, weighted):
    prefix = "weighted_" if weighted else ""
    if spec in _ACC:
      return prefix + "acc"
    if spec in _CE:
      return prefix + "ce"
    return prefix + (spec.name if hasattr(spec, "name") else spec.__name__)

  @property
  def names(self):
    """The metric names after 'loss': per-output losses (several outputs), then metrics."""
    names = [o.name + "_loss" for o in self.outputs
             if o.loss_fn is not None and len(self.outputs) > 1]
    for o in self.outputs:
      names += list(o.metric_specs) + list(o.weighted_specs)
    return names

  def _build_metrics(self, output, y_pred):
    from tfe_compat.keras import losses as keras_losses  # pylint: disable=g-import-not-at-top
    from tfe_compat.keras import metrics as keras_metrics  # pylint: disable=g-import-not-at-top
    loss_fn = output.loss_fn

    def uses(cls, fn):
      return isinstance(loss_fn, cls) or (isinstance(loss_fn, keras_losses.LossFunctionWrapper)
                                          and loss_fn.fn is fn)
    binary = (y_pred.shape.as_list()[-1:] == [1]
              or uses(keras_losses.BinaryCrossentropy, keras_losses.binary_crossentropy))
    sparse = uses(keras_losses.SparseCategoricalCrossentropy,
                  keras_losses.sparse_categorical_crossentropy)
    output.metrics = []
    for specs, weighted in ((output.metric_specs, False), (output.weighted_specs, True)):
      for name, spec in specs.items():
        if spec in _ACC + _CE:
          kind = "accuracy" if spec in _ACC else "crossentropy"
          prefix = "binary_" if binary else "sparse_categorical_" if sparse else "categorical_"
          spec = keras_metrics.FUNCTIONS[prefix + kind]
        if isinstance(spec, keras_metrics.Metric):
          spec._name = name  # pylint: disable=protected-access
          metric = spec
        else:
          metric = keras_metrics.MeanMetricWrapper(spec, name=name)
        output.metrics.append((metric, weighted))

  @property
  def metric_objects(self):
    return [m for o in self.outputs for m, _ in o.metrics or []]

  def reset(self):
    for o in self.outputs:
      for m in ([o.loss_mean] if o.loss_mean is not None else []) + [
          m for m, _ in o.metrics or []]:
        m.reset_states()

  def compute_loss(self, model, outputs, targets, sample_weights):
    """(total loss, per-output losses): weighted output losses plus `model.losses`."""
    total, output_losses = None, []
    for i, output in enumerate(self.outputs):
      if output.loss_fn is None or targets is None or targets[i] is None:
        continue
      weight = None if sample_weights is None else sample_weights[i]
      loss = output.loss_fn(targets[i], outputs[i], sample_weight=weight)
      output_losses.append(loss)
      weighted = loss * output.loss_weight
      total = weighted if total is None else total + weighted
    for extra in model.losses:
      total = extra if total is None else total + extra
    if total is None:
      raise ValueError("The model cannot be compiled because it has no loss to optimize.")
    return total, output_losses

  def update_metrics(self, outputs, targets, sample_weights, output_losses):
    """Updates every metric with this batch; their results in `names` order."""
    losses = iter(output_losses)
    results = []
    for output in self.outputs:
      if output.loss_mean is not None:
        results.append(output.loss_mean(next(losses)))
    for i, output in enumerate(self.outputs):
      if output.metrics is None:
        self._build_metrics(output, outputs[i])
      if targets is None or targets[i] is None:
        continue
      for metric, weighted in output.metrics:
        weight = sample_weights[i] if weighted and sample_weights is not None else None
        results.append(metric(targets[i], outputs[i], sample_weight=weight))
    return results


@export("keras.Model", "keras.models.Model")
class Model(Network):
  """Groups layers into an object with training and inference features."""

  def __init__(self, *args, **kwargs):
    super().__init__(*args, **kwargs)
    self.optimizer = None
    self._compiled = None
    self._run_eagerly = None
    self._compiled_steps = {}  # mode -> the tf.function of its step
    self.history = None
    self.stop_training = False

  # ---- compile ----
  def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
              sample_weight_mode=None, weighted_metrics=None, target_tensors=None,
              distribute=None, **kwargs):
    """Configures the model for training (optimizer, loss(es), metrics)."""
    from tfe_compat.train import keras_optimizers  # pylint: disable=g-import-not-at-top
    run_eagerly = kwargs.pop("run_eagerly", None)
    kwargs.pop("experimental_run_tf_function", None)
    if kwargs:
      raise TypeError("Invalid keyword argument(s) in `compile`: %s" % (kwargs,))
    if distribute is not None:
      raise NotImplementedError("`distribute` is not supported by tfe_compat.")
    if target_tensors is not None:
      raise ValueError("target_tensors argument is not supported when executing eagerly.")
    if sample_weight_mode not in (None, "temporal") and not isinstance(
        sample_weight_mode, (list, dict)):
      raise ValueError('"sample_weight_mode" should be None or "temporal". Found: '
                       + str(sample_weight_mode))
    self.optimizer = ([keras_optimizers.get(o) for o in optimizer]
                      if isinstance(optimizer, (list, tuple)) else keras_optimizers.get(optimizer))
    self.loss = loss or {}
    self.loss_weights = loss_weights
    self.sample_weight_mode = sample_weight_mode
    self._run_eagerly = run_eagerly
    self._compiled_steps = {}
    self._compiled = _Compiled(loss, metrics, loss_weights, weighted_metrics)
    self._compiled.build(self._output_names())

  @property
  def run_eagerly(self):
    return bool(self._run_eagerly)

  @run_eagerly.setter
  def run_eagerly(self, value):
    self._run_eagerly = value

  def _output_names(self, count=None):
    if self._is_graph_network:
      return [x.node.layer.name for x in jax.tree_util.tree_leaves(
          self.outputs, is_leaf=_is_symbolic)]
    if count is None:
      count = len(self.loss) if isinstance(self.loss, (list, tuple)) else 1
    return ["output_%d" % (i + 1) for i in range(count)]

  def _input_names(self):
    if self._is_graph_network:
      return [x.node.layer.name for x in jax.tree_util.tree_leaves(
          self.inputs, is_leaf=_is_symbolic)]
    return None

  @property
  def metrics_names(self):
    """'loss', the per-output losses (several outputs), then the compiled metrics."""
    return ["loss"] + (self._compiled.names if self._compiled is not None else [])

  @property
  def metrics(self):
    """The compiled metric objects (those of a subclassed model exist after a batch)."""
    return self._compiled.metric_objects if self._compiled is not None else []

  def reset_metrics(self):
    """Resets the state of every compiled metric."""
    if self._compiled is not None:
      self._compiled.reset()

  def _assert_compiled(self):
    if self._compiled is None or self.optimizer is None:
      raise RuntimeError("You must compile your model before training/testing. Use "
                         "`model.compile(optimizer, loss)`.")

  # ---- The step functions (Tensors in, Tensors out) ----
  def _prepare_outputs(self, outputs):
    flat = _flat(outputs)
    if not self._is_graph_network and len(flat) != len(self._compiled.outputs):
      self._compiled.build(self._output_names(len(flat)))
    return flat

  def _train_step(self, x, y, sample_weight):
    """One training step: loss under a tape, gradients, apply_gradients, metrics."""
    with GradientTape() as tape:
      outputs = self._prepare_outputs(self(x, training=True))
      total_loss, output_losses = self._compiled.compute_loss(self, outputs, y, sample_weight)
      scaled_loss = (self.optimizer.get_scaled_loss(total_loss)  # a LossScaleOptimizer
                     if hasattr(self.optimizer, "get_scaled_loss") else total_loss)
    self._backwards(tape, scaled_loss)
    return [total_loss] + self._compiled.update_metrics(outputs, y, sample_weight,
                                                        output_losses)

  def _backwards(self, tape, loss):
    """Gradients of `loss` (unscaled for a LossScaleOptimizer), applied by the optimizer."""
    variables = self.trainable_weights
    gradients = tape.gradient(loss, variables)
    if hasattr(self.optimizer, "get_unscaled_gradients"):
      gradients = self.optimizer.get_unscaled_gradients(gradients)
    self.optimizer.apply_gradients(list(zip(gradients, variables)))

  def _test_step(self, x, y, sample_weight):
    outputs = self._prepare_outputs(self(x, training=False))
    total_loss, output_losses = self._compiled.compute_loss(self, outputs, y, sample_weight)
    return [total_loss] + self._compiled.update_metrics(outputs, y, sample_weight,
                                                        output_losses)

  def _predict_step(self, x, y=None, sample_weight=None):
    return _flat(self(x, training=False))

  def _make_step_function(self, mode):
    """A host-side step: runs the Tensor step (compiled with tf.function unless
    `run_eagerly`), returns (NumPy results, batch size)."""
    step = {TRAIN: self._train_step, TEST: self._test_step, PREDICT: self._predict_step}[mode]
    if graph_lib.building() is not None:
      return self._compiled_steps.setdefault((mode, "graph"), _GraphStep(step))
    if not self.run_eagerly:
      step = self._compiled_steps.setdefault(mode, tf_function(step))

    def run(x, y=None, sample_weight=None):
      outs = step(x, y, sample_weight)
      return [out.numpy() for out in outs], loop_lib._first_dim(x)  # pylint: disable=protected-access
    return run

  # ---- Input standardization (host side) ----
  def _standardize(self, x, y=None, sample_weight=None, class_weight=None):
    """x in the model's input structure; y and sample weights as one entry per output."""
    input_names = self._input_names()
    if isinstance(x, dict) and input_names is not None:
      missing = [n for n in input_names if n not in x]
      if missing:
        raise ValueError("No data provided for \"%s\". Need data for each key in: %s"
                         % (missing[0], input_names))
      x = [x[n] for n in input_names]
    if input_names is not None and len(input_names) == 1 and isinstance(x, (list, tuple)):
      x = np.asarray(x) if _is_number_list(x) else x[0] if len(x) == 1 else x
    elif _is_number_list(x):
      x = np.asarray(x)
    if y is None:
      return x, None, None
    names = self._compiled.output_names if self._compiled is not None else ["output_1"]
    if not self._is_graph_network and isinstance(y, (list, tuple)) and len(y) > 1 and \
        not _is_number_list(y) and len(names) == 1:
      names = self._output_names(len(y))
      self._compiled.build(names)
    y = self._per_output_data(y, names, "target")
    sample_weight = (None if sample_weight is None else
                     self._per_output_data(sample_weight, names, "sample_weight"))
    if class_weight is not None:
      class_weights = (_per_output(class_weight, names, "class_weight")
                       if set(class_weight) <= set(names) and len(names) > 1
                       else [class_weight] * len(names))
      weights = [_class_sample_weights(t, cw) for t, cw in zip(y, class_weights)]
      if sample_weight is None:
        sample_weight = weights
      else:
        sample_weight = [w if c is None else c if w is None else np.asarray(w) * c
                         for w, c in zip(sample_weight, weights)]
    return x, y, sample_weight

  @staticmethod
  def _per_output_data(data, names, what):
    if isinstance(data, dict):
      return [data.get(name) for name in names]
    if len(names) == 1:
      if _is_number_list(data):
        return [np.asarray(data)]
      if isinstance(data, (list, tuple)):
        if len(data) != 1:
          raise ValueError("Error when checking model %s: the list of Numpy arrays that you "
                           "are passing to your model is not the size the model expected. "
                           "Expected to see 1 array(s), but instead got %d arrays."
                           % (what, len(data)))
        return list(data)
      return [data]
    if not isinstance(data, (list, tuple)) or len(data) != len(names):
      raise ValueError("Error when checking model %s: the list of Numpy arrays that you are "
                       "passing to your model is not the size the model expected. Expected "
                       "to see %d array(s), but instead got %s."
                       % (what, len(names), len(data) if isinstance(data, (list, tuple))
                          else "a single array"))
    return list(data)

  def _make_data(self, x, y, sample_weight, class_weight, batch_size, shuffle, steps):
    if loop_lib.is_dataset_like(x):
      if y is not None:
        raise ValueError("`y` argument is not supported when using dataset as input.")
      if sample_weight is not None:
        raise ValueError("`sample_weight` argument is not supported when using dataset as "
                         "input.")
      if batch_size is not None:
        raise ValueError("The `batch_size` argument must not be specified for the given "
                         "input type. Received input: {}, batch_size: {}".format(
                             x, batch_size))
      return loop_lib.IterableData(
          x, shuffle, lambda *batch: self._standardize(*batch, class_weight=class_weight))
    if x is None:
      raise ValueError("Please provide as model inputs either a single array or a list of "
                       "arrays.")
    x, y, sample_weight = self._standardize(x, y, sample_weight, class_weight)
    data = loop_lib.ArrayData(x, y, sample_weight, batch_size or 32, shuffle)
    if steps and not batch_size:
      data.batch_size = int(math.ceil(data.num_samples / float(steps)))
    return data

  # ---- fit / evaluate / predict ----
  def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None,
          validation_split=0., validation_data=None, shuffle=True, class_weight=None,
          sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
          validation_freq=1, max_queue_size=10, workers=1, use_multiprocessing=False,
          **kwargs):
    """Trains the model for `epochs` epochs; returns the History callback."""
    if "nb_epoch" in kwargs:
      epochs = kwargs.pop("nb_epoch")
    if kwargs:
      raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
    self._assert_compiled()
    if validation_split and 0. < validation_split < 1. and validation_data:
      raise ValueError("validation_data and validation_split cannot be used at same time.")
    data = self._make_data(x, y, sample_weight, class_weight, batch_size, shuffle,
                           steps_per_epoch)
    val_data = None
    if validation_split and 0. < validation_split < 1.:
      if not isinstance(data, loop_lib.ArrayData):
        raise ValueError("`validation_split` argument is not supported when input `x` is a "
                         "dataset or a dataset iterator. Received: x=%s, validation_split=%f"
                         % (x, validation_split))
      data, val_data = data.split(validation_split)
    elif validation_data:
      if (loop_lib.is_dataset_like(validation_data)
          or not hasattr(validation_data, "__len__")):
        val_x, val_y, val_sw = validation_data, None, None
      elif len(validation_data) in (2, 3):
        val_x, val_y, val_sw = tuple(validation_data) + (None,) * (3 - len(validation_data))
      else:
        raise ValueError("When passing a `validation_data` argument, it must contain either 2 "
                         "items (x_val, y_val), or 3 items (x_val, y_val, "
                         "val_sample_weights), or alternatively it could be a dataset or a "
                         "dataset or a dataset iterator. However we received "
                         "`validation_data=%s`" % (validation_data,))
      val_data = self._make_data(val_x, val_y, val_sw, None,
                                 None if loop_lib.is_dataset_like(val_x) else data.batch_size,
                                 False, validation_steps)
    elif validation_steps:
      raise ValueError("`validation_steps` should not be specified if `validation_data` is "
                       "None.")
    return loop_lib.fit(self, data, val_data, epochs, verbose, callbacks, initial_epoch,
                        steps_per_epoch, validation_steps, validation_freq, data.batch_size)

  def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None,
               steps=None, callbacks=None, max_queue_size=10, workers=1,
               use_multiprocessing=False):
    """The loss (and metrics) over the data: a scalar, or [loss, metric, ...]."""
    self._assert_compiled()
    data = self._make_data(x, y, sample_weight, None, batch_size, False, steps)
    return loop_lib.iterate(self, TEST, data, verbose, callbacks, steps)

  def predict(self, x, batch_size=None, verbose=0, steps=None, callbacks=None,
              max_queue_size=10, workers=1, use_multiprocessing=False):
    """The outputs for `x`, batch by batch, concatenated into NumPy arrays."""
    data = self._make_data(x, None, None, None, batch_size, False, steps)
    return loop_lib.iterate(self, PREDICT, data, verbose, callbacks, steps)

  def fit_generator(self, generator, steps_per_epoch=None, epochs=1, verbose=1,
                    callbacks=None, validation_data=None, validation_steps=None,
                    validation_freq=1, class_weight=None, max_queue_size=10, workers=1,
                    use_multiprocessing=False, shuffle=True, initial_epoch=0):
    """`fit` on a generator or Sequence of batches."""
    return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs,
                    verbose=verbose, callbacks=callbacks, validation_data=validation_data,
                    validation_steps=validation_steps, validation_freq=validation_freq,
                    class_weight=class_weight, shuffle=shuffle, initial_epoch=initial_epoch)

  def evaluate_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                         workers=1, use_multiprocessing=False, verbose=0):
    """`evaluate` on a generator or Sequence of batches."""
    return self.evaluate(generator, steps=steps, verbose=verbose, callbacks=callbacks)

  def predict_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                        workers=1, use_multiprocessing=False, verbose=0):
    """`predict` on a generator or Sequence of batches."""
    return self.predict(generator, steps=steps, verbose=verbose, callbacks=callbacks)

  # ---- Single batches ----
  def _on_batch(self, mode, x, y=None, sample_weight=None, class_weight=None,
                reset_metrics=True):
    x, y, sample_weight = self._standardize(x, y, sample_weight, class_weight)
    outs, _ = self._make_step_function(mode)(
        loop_lib.to_tensors(x), None if y is None else loop_lib.to_tensors(y),
        None if sample_weight is None else loop_lib.to_tensors(sample_weight))
    if reset_metrics and mode != PREDICT:
      self.reset_metrics()
    return outs[0] if len(outs) == 1 else outs

  def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                     reset_metrics=True):
    """One gradient update on one batch: the loss, or [loss, metric, ...]."""
    self._assert_compiled()
    return self._on_batch(TRAIN, x, y, sample_weight, class_weight, reset_metrics)

  def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True):
    """The loss (and metrics) on one batch."""
    self._assert_compiled()
    return self._on_batch(TEST, x, y, sample_weight, None, reset_metrics)

  def predict_on_batch(self, x):
    """The model's outputs for one batch, as NumPy arrays."""
    return self._on_batch(PREDICT, x)

  # ---- Saving ----
  def save_weights(self, filepath, overwrite=True, save_format=None):
    """Saves the weights as a tf.train.Checkpoint (or HDF5 for `.h5` paths, with h5py)."""
    from tfe_compat.keras import saving  # pylint: disable=import-outside-toplevel
    return saving.save_weights(self, filepath, overwrite, save_format)

  def load_weights(self, filepath, by_name=False):
    """Restores weights saved by `save_weights` (deferred until built for unbuilt models)."""
    from tfe_compat.keras import saving  # pylint: disable=import-outside-toplevel
    return saving.load_weights(self, filepath, by_name)

  def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None,
           signatures=None):
    """Saves the architecture, weights and compilation in one HDF5 file (TF 1.15's default
    format; `tf.keras.models.load_model` reads it)."""
    from tfe_compat.keras import saving  # pylint: disable=import-outside-toplevel
    saving.save_model(self, filepath, overwrite, include_optimizer, save_format)


class _GraphStep:
  """A step in graph mode (TF 1.15's Keras): built once per input structure on placeholders,
  run in the Keras session with the batch fed."""

  def __init__(self, step):
    self._step, self._built = step, {}

  def __call__(self, x, y=None, sample_weight=None):
    data = (x, y, sample_weight)
    leaves, treedef = jax.tree_util.tree_flatten(data)
    arrays = [np.asarray(getattr(leaf, "_value", leaf)) for leaf in leaves]
    key = (treedef, tuple((a.dtype, a.shape[1:]) for a in arrays))
    built = self._built.get(key)
    if built is None:
      graph = graph_lib.get_default_graph()
      first = len(graph.get_operations())
      placeholders = [array_ops.placeholder(dtypes.from_numpy(a.dtype), (None,) + a.shape[1:])
                      for a in arrays]
      outputs = self._step(*jax.tree_util.tree_unflatten(treedef, placeholders))
      updates = [op for op in graph.get_operations()[first:]  # optimizer and metric updates
                 if op.writes and getattr(op, "initializes", None) is None]
      built = self._built[key] = (placeholders, outputs, updates)
    placeholders, outputs, updates = built
    values, _ = backend_session.get_session().run((outputs, updates),
                                                  dict(zip(placeholders, arrays)))
    return values, loop_lib._first_dim(x)  # pylint: disable=protected-access


def _class_sample_weights(y, class_weight):
  """Per-sample weights looked up from `class_weight` by each target's class."""
  if class_weight is None or y is None:
    return None
  y = np.asarray(y)
  if y.ndim > 2:
    raise ValueError("`class_weight` not supported for 3+ dimensional targets.")
  if y.ndim == 2 and y.shape[1] > 1:
    classes = np.argmax(y, axis=1)
  else:
    classes = np.reshape(y, (y.shape[0],))
  weights = [class_weight[c] for c in classes.tolist() if c in class_weight]
  if len(weights) != len(classes):
    raise ValueError("`class_weight` must contain all classes in the data. The classes %s "
                     "exist in the data but not in `class_weight`."
                     % (set(classes.tolist()) - set(class_weight)))
  return np.asarray(weights, dtype=np.float32)
