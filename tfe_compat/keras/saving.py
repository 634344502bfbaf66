"""Whole Keras models as TF 1.15 saves them: architecture configs (`get_config`, `to_json`,
`model_from_config`/`_json`, `layers.serialize`/`deserialize`, `clone_model`) and HDF5 model
files (`Model.save`, `tf.keras.models.load_model`) in Keras's layout, so files move between
tf_keras and tfe_compat."""
import json
import os
import warnings

import jax
import numpy as np

from tfe_compat.framework import api
from tfe_compat.framework.api import export
from tfe_compat.keras import _serialization
from tfe_compat.keras.engine.input_layer import InputLayer
from tfe_compat.keras.engine.keras_tensor import KerasTensor

KERAS_VERSION = "2.2.4-tf"


# ---- layers ----
def _layer_classes():
  classes = dict(api.exported("keras.layers."))
  classes.update(api.exported("keras.models."))
  classes["Functional"] = classes["Model"]  # later Keras's name for functional models
  return classes


@export("keras.layers.serialize")
def serialize(layer):
  return _serialization.serialize_keras_object(layer)


@export("keras.layers.deserialize")
def deserialize(config, custom_objects=None):
  """A layer (or model) from `{"class_name": ..., "config": ...}`."""
  return _serialization.deserialize_keras_object(
      config, module_objects=_layer_classes(), custom_objects=custom_objects,
      printable_module_name="layer")


# ---- functional models ----
def _flat(structure):
  return jax.tree_util.tree_leaves(structure, is_leaf=lambda x: isinstance(x, KerasTensor))


def functional_config(model):
  """Keras's config of a functional model: layers with their inbound nodes, inputs, outputs."""
  node_index = {}
  for node in model._nodes:  # pylint: disable=protected-access
    count = sum(1 for n in node_index if n[0] is node.layer)
    node_index[(node.layer, id(node))] = count

  def where(tensor):
    node = tensor.node
    index = node_index.get((node.layer, id(node)), 0)
    return [node.layer.name, index, _flat(node.outputs).index(tensor)]

  layers = []
  for layer in model.layers:
    inbound = []
    for node in model._nodes:  # pylint: disable=protected-access
      if node.layer is layer and not isinstance(layer, InputLayer):
        if node.args:
          raise NotImplementedError("Saving a layer called with extra positional arguments "
                                    "(%s) is not supported by tfe_compat." % layer.name)
        inbound.append([where(x) + [dict(node.kwargs)] for x in _flat(node.inputs)])
    layers.append({"name": layer.name, "class_name": type(layer).__name__,
                   "config": layer.get_config(), "inbound_nodes": inbound})
  return {"name": model.name, "layers": layers,
          "input_layers": [where(x) for x in _flat(model.inputs)],
          "output_layers": [where(x) for x in _flat(model.outputs)]}


def functional_from_config(cls, config, custom_objects=None):
  """The functional model a `functional_config` describes (layers called in node order)."""
  made, pending = {}, []
  for data in config["layers"]:
    layer = deserialize({"class_name": data["class_name"], "config": data["config"]},
                        custom_objects)
    if isinstance(layer, InputLayer):
      made[(layer.name, 0)] = [layer.output]
    pending.extend((layer, i, node) for i, node in enumerate(data["inbound_nodes"]))
  while pending:
    ready = [p for p in pending if all((n, i) in made for n, i, _, _ in p[2])]
    if not ready:
      raise ValueError("Cannot rebuild the model's graph from its config: a layer's inputs are "
                       "never produced.")
    for layer, index, node in ready:
      inputs = [made[(n, i)][t] for n, i, t, _ in node]
      kwargs = node[0][3] if node else {}
      outputs = layer(inputs[0] if len(inputs) == 1 else inputs, **kwargs)
      made[(layer.name, index)] = _flat(outputs)
      pending.remove((layer, index, node))

  def tensors(refs):
    found = [made[(n, i)][t] for n, i, t in refs]
    return found[0] if len(found) == 1 else found
  return cls(inputs=tensors(config["input_layers"]), outputs=tensors(config["output_layers"]),
             name=config.get("name"))


# ---- JSON ----
def _json_default(obj):
  if isinstance(obj, (np.generic, np.ndarray)):
    return obj.tolist()
  if hasattr(obj, "as_list"):  # TensorShape
    return obj.as_list()
  if hasattr(obj, "name") and hasattr(obj, "as_numpy_dtype"):  # DType
    return obj.name
  raise TypeError("Not JSON Serializable: %r" % (obj,))


def to_json(model, **kwargs):
  return json.dumps({"class_name": type(model).__name__, "config": model.get_config(),
                     "keras_version": KERAS_VERSION, "backend": "tensorflow"},
                    default=_json_default, **kwargs)


@export("keras.models.model_from_config")
def model_from_config(config, custom_objects=None):
  if isinstance(config, list):
    raise TypeError("`model_from_config` expects a dictionary, not a list. Maybe you meant to "
                    "use `Sequential.from_config(config)`?")
  return deserialize(config, custom_objects)


@export("keras.models.model_from_json")
def model_from_json(json_string, custom_objects=None):
  return model_from_config(json.loads(json_string), custom_objects)


@export("keras.models.model_from_yaml")
def model_from_yaml(yaml_string, custom_objects=None):
  raise ImportError("Requires yaml module installed (`pip install pyyaml`).")


@export("keras.models.clone_model")
def clone_model(model, input_tensors=None, clone_function=None):
  """A new model of the same architecture, its layers freshly initialized."""
  if input_tensors is not None or clone_function is not None:
    raise NotImplementedError("clone_model with input_tensors or clone_function is not "
                              "supported by tfe_compat.")
  return deserialize({"class_name": type(model).__name__, "config": model.get_config()})


# ---- weights and HDF5 model files ----
def _h5py(message="`save_model` requires h5py."):
  try:
    import h5py  # pylint: disable=import-outside-toplevel
  except ImportError:
    raise ImportError(message) from None
  return h5py


# ---- weights: Model.save_weights / load_weights ----
def _is_hdf5(filepath):
  return os.fspath(filepath).endswith((".h5", ".keras", ".hdf5"))


def _proceed(filepath):
  """Keras' overwrite prompt."""
  answer = input("[WARNING] %s already exists - overwrite? [y/n]" % filepath).strip().lower()
  while answer not in ("y", "n"):
    answer = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
  if answer == "n":
    return False
  print("[TIP] Next time specify overwrite=True!")
  return True


def save_weights(model, filepath, overwrite=True, save_format=None):
  """`Model.save_weights`: a checkpoint at the prefix `filepath` (TF's bundle format with
  `save_format="tf"` or $TFE_CHECKPOINT_FORMAT=tf, else ours), or HDF5."""
  from tfe_compat.train import checkpoint, checkpoint_io  # pylint: disable=import-outside-toplevel
  filepath = os.fspath(filepath)
  storage = None  # our default storage, unless TF's format is asked for by name
  if save_format is None:
    save_format = "h5" if _is_hdf5(filepath) else "tf"
  else:
    user_format = save_format.lower().strip()
    if user_format in ("tensorflow", "tf"):
      save_format = storage = "tf"
    elif user_format in ("hdf5", "h5", "keras"):
      save_format = "h5"
    else:
      raise ValueError('Unknown format "%s". Was expecting one of {"tf", "h5"}.'
                       % (save_format,))
  if save_format == "tf" and _is_hdf5(filepath):
    raise ValueError('save_weights got save_format="tf"/"tensorflow", but the filepath ("%s") '
                     'looks like an HDF5 file. Omit the ".h5"/".keras" when saving in '
                     "TensorFlow format." % filepath)
  if save_format == "h5":
    h5py = _h5py("`save_weights` requires h5py when saving in hdf5.")
    if not overwrite and os.path.isfile(filepath) and not _proceed(filepath):
      return
    with h5py.File(filepath, "w") as f:
      _save_hdf5(f, model.layers)
    return
  if not overwrite and checkpoint_io.exists(filepath) and not _proceed(filepath + ".index"):
    return
  checkpoint.write(model, filepath, format=storage)


def load_weights(model, filepath, by_name=False):
  """`Model.load_weights`: a TF-format checkpoint (deferred until the model is built, like
  TF) or an HDF5 file (by topology or by layer name). Returns the status for TF format."""
  from tfe_compat.train import checkpoint, checkpoint_io  # pylint: disable=import-outside-toplevel
  filepath = os.fspath(filepath)
  if not _is_hdf5(filepath) and (checkpoint_io.exists(filepath)
                                 or not os.path.isfile(filepath)):
    if by_name:
      raise NotImplementedError("Weights may only be loaded based on topology into Models "
                                "when loading TensorFlow-formatted weights (got by_name=True "
                                "to load_weights).")
    return checkpoint.restore(model, filepath).assert_nontrivial_match()
  h5py = _h5py("`load_weights` requires h5py when loading weights from HDF5.")
  if not model.built:
    raise ValueError("Unable to load weights saved in HDF5 format into a subclassed Model "
                     "which has not created its variables yet. Call the Model first, then "
                     "load the weights.")
  with h5py.File(filepath, "r") as f:
    if "layer_names" not in f.attrs and "model_weights" in f:
      f = f["model_weights"]
    _load_hdf5(f, model.layers, by_name)


def _text(value):
  return value.decode("utf8") if isinstance(value, bytes) else str(value)


def _save_hdf5(f, layers):
  """Keras' weights-only HDF5 layout: a group per layer, a dataset per weight."""
  f.attrs["layer_names"] = [layer.name.encode("utf8") for layer in layers]
  f.attrs["backend"] = b"tensorflow"
  f.attrs["keras_version"] = b"2.2.4-tf"
  for layer in layers:
    group = f.create_group(layer.name)
    weights = layer.weights
    names = [w.name.encode("utf8") for w in weights]
    group.attrs["weight_names"] = names
    for name, weight in zip(names, weights):
      dataset = group.create_dataset(name, weight.shape.as_list(),
                                     dtype=weight.dtype.as_numpy_dtype)
      dataset[()] = weight.numpy()


def _load_hdf5(f, layers, by_name):
  names = [_text(n) for n in f.attrs["layer_names"]]
  stored = [(n, [np.asarray(f[n][_text(w)]) for w in f[n].attrs["weight_names"]])
            for n in names]
  stored = [(n, w) for n, w in stored if w]
  if by_name:
    index = dict(stored)
    pairs = [(layer, index[layer.name]) for layer in layers if layer.name in index]
  else:
    with_weights = [layer for layer in layers if layer.weights]
    if len(with_weights) != len(stored):
      raise ValueError("You are trying to load a weight file containing %d layers into a "
                       "model with %d layers." % (len(stored), len(with_weights)))
    pairs = [(layer, weights) for layer, (_, weights) in zip(with_weights, stored)]
  for layer, weights in pairs:
    if len(weights) != len(layer.weights):
      raise ValueError("Layer %s expects %d weights, but the saved weights have %d elements."
                       % (layer.name, len(layer.weights), len(weights)))
    for variable, value in zip(layer.weights, weights):
      if tuple(variable.shape.as_list()) != value.shape:
        raise ValueError("Layer weight shape %s not compatible with provided weight shape %s"
                         % (tuple(variable.shape.as_list()), value.shape))
  for layer, weights in pairs:
    layer.set_weights(weights)


def _training_config(model):
  from tfe_compat.train import keras_optimizers  # pylint: disable=import-outside-toplevel
  optimizer = model.optimizer
  if not isinstance(optimizer, keras_optimizers.OptimizerV2):
    warnings.warn("TensorFlow optimizers do not make it possible to access optimizer "
                  "attributes or optimizer state after instantiation. As a result, we cannot "
                  "save the optimizer as part of the model save file. You will have to "
                  "compile your model again after loading it.")
    return None
  compiled = model._compiled  # pylint: disable=protected-access
  return {"optimizer_config": {"class_name": type(optimizer).__name__,
                               "config": optimizer.get_config()},
          "loss": _loss_config(model.loss), "metrics": compiled.metrics,
          "weighted_metrics": compiled.weighted_metrics,
          "sample_weight_mode": model.sample_weight_mode, "loss_weights": model.loss_weights}


def _loss_config(loss):
  if isinstance(loss, dict):
    return {k: _loss_config(v) for k, v in loss.items()}
  if isinstance(loss, (list, tuple)):
    return [_loss_config(v) for v in loss]
  return loss if isinstance(loss, str) else _serialization.serialize_keras_object(loss)


@export("keras.models.save_model")
def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None):
  """An HDF5 file with the architecture, the weights and (compiled) the training config and
  optimizer state; TF 1.15's default format. SavedModel (`save_format="tf"`) is not
  supported."""
  if save_format not in (None, "h5", "hdf5", "keras"):
    raise NotImplementedError("Saving a model as a SavedModel (save_format=%r) is not "
                              "supported by tfe_compat; save it as HDF5." % (save_format,))
  if not getattr(model, "_is_graph_network", False) and not hasattr(model, "_stack"):
    raise NotImplementedError(
        "Saving the model to HDF5 format requires the model to be a Functional model or a "
        "Sequential model. It does not work for subclassed models, because such models are "
        "defined via the body of a Python method, which isn't safely serializable. Consider "
        "saving to the Tensorflow SavedModel format (by setting save_format=\"tf\") or using "
        "`save_weights`.")
  filepath = os.fspath(filepath)
  if not overwrite and os.path.isfile(filepath) and not _proceed(filepath):
    return
  with _h5py().File(filepath, "w") as f:
    f.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    f.attrs["backend"] = b"tensorflow"
    f.attrs["model_config"] = to_json(model).encode("utf8")
    _save_hdf5(f.create_group("model_weights"), model.layers)
    training = _training_config(model) if include_optimizer and getattr(
        model, "optimizer", None) is not None else None
    if training is not None:
      f.attrs["training_config"] = json.dumps(training, default=_json_default).encode("utf8")
      weights = model.optimizer.weights
      group = f.create_group("optimizer_weights")
      group.attrs["weight_names"] = [w.name.encode("utf8") for w in weights]
      for w in weights:
        group.create_dataset(w.name, data=w.numpy())


@export("keras.models.load_model")
def load_model(filepath, custom_objects=None, compile=True):  # pylint: disable=redefined-builtin
  """The model of an HDF5 model file: architecture, weights and, if saved, its compilation
  (optimizer state included)."""
  from tfe_compat.train import keras_optimizers  # pylint: disable=import-outside-toplevel
  filepath = os.fspath(filepath)
  if not os.path.isfile(filepath):
    raise IOError("Unable to load model from %s: a SavedModel directory or a missing file "
                  "(tfe_compat loads HDF5 model files)." % filepath)
  with _h5py().File(filepath, "r") as f:
    config = f.attrs.get("model_config")
    if config is None:
      raise ValueError("No model found in config file.")
    model = model_from_config(json.loads(_text(config)), custom_objects)
    _load_hdf5(f["model_weights"], model.layers, by_name=False)
    training = f.attrs.get("training_config")
    if not compile or training is None:
      return model
    training = json.loads(_text(training))
    optimizer, later = _optimizer(training["optimizer_config"], custom_objects)
    model.compile(optimizer=optimizer, loss=_deserialized_loss(training["loss"], custom_objects),
                  metrics=training.get("metrics"), loss_weights=training.get("loss_weights"),
                  sample_weight_mode=training.get("sample_weight_mode"),
                  weighted_metrics=training.get("weighted_metrics"))
    if later:
      warnings.warn("The file's optimizer state comes from a later Keras optimizer, whose "
                    "variables tfe_compat's optimizers do not have; it is not restored.")
    elif "optimizer_weights" in f and len(f["optimizer_weights"].attrs["weight_names"]):
      group = f["optimizer_weights"]
      values = [np.asarray(group[_text(n)]) for n in group.attrs["weight_names"]]
      optimizer._create_all_weights(model.trainable_variables)  # pylint: disable=protected-access
      try:
        optimizer.set_weights(values)
      except ValueError:
        warnings.warn("Error in loading the saved optimizer state. As a result, your model is "
                      "starting with a freshly initialized optimizer.")
  return model


def _optimizer(config, custom_objects):
  """(the optimizer of a model file's training config, whether a later Keras wrote it: its
  class names read "Custom>Adam" and its configs carry arguments TF 1.15's lack)."""
  from tfe_compat.train import keras_optimizers  # pylint: disable=import-outside-toplevel
  name = config["class_name"]
  later = name.startswith("Custom>")
  if not later:
    return keras_optimizers.deserialize(config, custom_objects), False
  name = name[len("Custom>"):]
  default = keras_optimizers.deserialize({"class_name": name, "config": {}}, custom_objects)
  accepted = set(default.get_config()) | {"clipnorm", "clipvalue"}
  kept = {k: v for k, v in config["config"].items() if k in accepted and v is not None}
  return keras_optimizers.deserialize({"class_name": name, "config": kept}, custom_objects), True


def _deserialized_loss(loss, custom_objects):
  from tfe_compat.keras import losses as keras_losses  # pylint: disable=import-outside-toplevel
  if isinstance(loss, dict) and "class_name" not in loss:
    return {k: _deserialized_loss(v, custom_objects) for k, v in loss.items()}
  if isinstance(loss, list):
    return [_deserialized_loss(v, custom_objects) for v in loss]
  if isinstance(loss, dict) or (custom_objects and loss in custom_objects):
    return keras_losses.deserialize(loss, custom_objects)
  return loss
