"""`tf.keras.optimizers` (TF 1.15's OptimizerV2 classes) on the shared jitted update.

Hyperparameters (`learning_rate`/`lr`, `decay`, `beta_1`, ...) become float32 Variables the
first time they are needed (an apply, or reading `opt.lr`), so `opt.lr.assign(...)`,
`K.set_value(opt.lr, ...)` and `opt.lr = 0.1` work; `iterations` is an int64 Variable that
every apply increments; slots are named `<Opt>/<variable>/<slot>:0`. The update rules are
Keras' own (epsilon 1e-7, `decay` as lr / (1 + decay * iterations)), see update_rules.py.
"""
import logging

import jax
import numpy as np

from tfe_compat import state_ops
from tfe_compat import variable_scope as vs
from tfe_compat import variables
from tfe_compat.eager.tape import GradientTape
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.train import optimizer_base
from tfe_compat.train import schedules
from tfe_compat.train import update_rules

_log = logging.getLogger("tensorflow")


def _filter_grads(grads_and_vars):
  grads_and_vars = tuple(grads_and_vars)
  if not grads_and_vars:
    return grads_and_vars
  kept = tuple((g, v) for g, v in grads_and_vars if g is not None)
  if not kept:
    raise ValueError("No gradients provided for any variable: %s."
                     % ([v.name for _, v in grads_and_vars],))
  missing = [v.name for g, v in grads_and_vars if g is None]
  if missing:
    _log.warning(
        "Gradients do not exist for variables %s when minimizing the loss.", missing)
  return kept


@export("keras.optimizers.Optimizer", "optimizers.Optimizer")
class OptimizerV2(optimizer_base.SlotState):
  """Base class of the Keras optimizers (`apply_gradients`, `minimize`, `iterations`)."""

  _slot_major = True
  _rule = None
  _op_name = "ResourceApplyGradientDescent"
  _epsilon_attribute = False  # whether `epsilon` (a Python float) feeds the rule

  def __init__(self, name, **kwargs):
    allowed = {"clipnorm", "clipvalue", "lr", "decay"}
    for key in kwargs:
      if key not in allowed:
        raise TypeError("Unexpected keyword argument passed to optimizer: " + str(key))
      if kwargs[key] < 0:
        raise ValueError("Expected {} >= 0, received: {}".format(key, kwargs[key]))
    object.__setattr__(self, "_hyper", {})
    self._use_locking = True
    self._name = name
    self._init_slot_state()
    self._hypers_created = False
    self._iterations = None
    self._weights = []
    self._slot_names = []
    decay = kwargs.pop("decay", 0.0)
    if decay < 0.0:
      raise ValueError("decay cannot be less than 0: {}".format(decay))
    self._initial_decay = decay
    if "clipnorm" in kwargs:
      self.clipnorm = kwargs.pop("clipnorm")
    if "clipvalue" in kwargs:
      self.clipvalue = kwargs.pop("clipvalue")

  # ---- Hyperparameters as attributes ----
  def __getattr__(self, name):
    hyper = self.__dict__.get("_hyper")
    if hyper is None:
      raise AttributeError(name)
    key = "learning_rate" if name == "lr" else name
    if key in hyper:
      return self._get_hyper(key)
    raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

  def __setattr__(self, name, value):
    key = "learning_rate" if name == "lr" else name
    if key in self.__dict__.get("_hyper", ()):
      self._set_hyper(key, value)
    else:
      object.__setattr__(self, name, value)

  def _set_hyper(self, name, value):
    previous = self._hyper.get(name)
    if previous is None or not optimizer_base.is_variable(previous) or \
        isinstance(value, schedules.LearningRateSchedule):
      self._hyper[name] = value
    else:
      previous.assign(value)

  def _get_hyper(self, name, dtype=None):
    if not self._hypers_created:
      self._create_hypers()
    value = self._hyper[name]
    if isinstance(value, schedules.LearningRateSchedule):
      return value
    if callable(value):
      value = value()
    return value

  def _create_hypers(self):
    if self._hypers_created:
      return
    for name, value in sorted(self._hyper.items()):
      if isinstance(value, Tensor) or optimizer_base.is_variable(value) or callable(value):
        continue
      if isinstance(value, str):  # TF's add_weight takes it for the name of an initializer
        raise ValueError(
            "Unknown initializer: %r. Please ensure you are using a "
            "`keras.utils.custom_object_scope` and that this object is included in the scope. "
            "See https://www.tensorflow.org/guide/keras/save_and_serialize"
            "#registering_the_custom_object for details." % value)
      self._hyper[name] = variables.ResourceVariable(
          ops.convert_to_tensor(value, dtype=dtypes.float32), name=name, trainable=False)
    self._hypers_created = True

  def _serialize_hyperparameter(self, name):
    value = self._hyper[name]
    if isinstance(value, schedules.LearningRateSchedule):
      return schedules.serialize(value)
    if callable(value):
      return value()
    if isinstance(value, Tensor) or optimizer_base.is_variable(value):
      return value.numpy()
    return value

  def _hyper_arrays(self):
    hyper = {}
    for name in self._hyper:
      value = self._hyper[name]
      if isinstance(value, schedules.LearningRateSchedule):
        step = Tensor(state_ops.read(self.iterations)._value.astype(np.float32))
        value = value(step)
      hyper[name] = optimizer_base.hyper_array(value)
    hyper["decay"] = np.asarray(self._initial_decay, np.float64)
    hyper["iterations"] = state_ops.read(self.iterations)._value
    if self._epsilon_attribute:
      hyper["epsilon"] = np.asarray(self.epsilon, np.float64)
    return self._extra_hyper(hyper)

  def _extra_hyper(self, hyper):
    return hyper

  # ---- Variables ----
  @property
  def iterations(self):
    """The number of applied steps (an int64 Variable, created on first use)."""
    if self._iterations is None:
      self._iterations = variables.ResourceVariable(
          ops.convert_to_tensor(0, dtype=dtypes.int64), name="iter", trainable=False)
      self._weights.append(self._iterations)
    return self._iterations

  @iterations.setter
  def iterations(self, variable):
    if self._iterations is not None:
      raise RuntimeError("Cannot set `iterations` to a new Variable after the Optimizer "
                         "weights have been created")
    self._iterations = variable
    self._weights.append(variable)

  def _make_slot(self, var, slot_name, value):
    if slot_name not in self._slot_names:
      self._slot_names.append(slot_name)
    slot = variables.ResourceVariable(Tensor(value), name="%s/%s" % (var._shared_name,
                                                                     slot_name),
                                      trainable=False)
    self._weights.append(slot)
    return slot

  def _make_non_slot(self, name, value):
    variable = variables.ResourceVariable(Tensor(value), name=name, trainable=False)
    self._weights.append(variable)
    return variable

  def add_slot(self, var, slot_name, initializer="zeros"):
    """Creates (once) the slot `slot_name` for `var`: "zeros", "ones", a value or a callable."""
    slot = self._slot_for(var, slot_name)
    if slot is None:
      if initializer in ("zeros", "ones"):
        value = (np.zeros if initializer == "zeros" else np.ones)(
            var.shape.as_list(), var.dtype.as_numpy_dtype)
      elif callable(initializer):
        value = initializer(shape=var.shape.as_list(), dtype=var.dtype)
      else:
        value = initializer
      value = ops.convert_to_tensor(value, dtype=var.dtype)._value
      slot = self._add_slot_variable(var, slot_name, self._make_slot(var, slot_name, value))
    return slot

  def get_slot(self, var, slot_name):
    slot = self._slot_for(var, slot_name)
    if slot is None:
      raise KeyError(slot_name if self._slot_for_any(var) else var._unique_id)
    return slot

  def _slot_for_any(self, var):
    return any(var._id in table for table in self._slots.values())

  def get_slot_names(self):
    return list(self._slot_names)

  @property
  def weights(self):
    return list(self._weights)

  def variables(self):
    return list(self._weights)

  def get_weights(self):
    return [w.numpy() for w in self._weights]

  def set_weights(self, weights):
    params = self.weights
    if len(params) != len(weights):
      raise ValueError(
          "You called `set_weights(weights)` on optimizer " + self._name + " with a  weight "
          "list of length " + str(len(weights)) + ", but the optimizer was expecting " +
          str(len(params)) + " weights. Provided weights: " + str(weights)[:50] + "...")
    for param, value in zip(params, weights):
      if tuple(param.shape.as_list()) != tuple(np.shape(value)):
        raise ValueError("Optimizer weight shape " + str(param.shape) + " not compatible "
                         "with provided weight shape " + str(np.shape(value)))
      param.assign(value)

  # ---- Training ----
  def minimize(self, loss, var_list, grad_loss=None, name=None):
    """Computes the gradients of the callable `loss` and applies them."""
    grads_and_vars = self._compute_gradients(loss, var_list=var_list, grad_loss=grad_loss)
    return self.apply_gradients(grads_and_vars, name=name)

  def _compute_gradients(self, loss, var_list, grad_loss=None):
    with GradientTape() as tape:
      if not callable(var_list):
        tape.watch(var_list)
      loss_value = loss()
    if callable(var_list):
      var_list = var_list()
    var_list = jax.tree_util.tree_leaves(var_list)
    grads = tape.gradient(loss_value, var_list, grad_loss)
    grads = optimizer_base.clip_gradients(grads, getattr(self, "clipnorm", None),
                                          getattr(self, "clipvalue", None))
    return list(zip(grads, var_list))

  def get_gradients(self, loss, params):
    raise RuntimeError("`get_gradients()` is not supported when eager execution is enabled: "
                       "use `tf.GradientTape`.")

  def apply_gradients(self, grads_and_vars, name=None):
    """Applies the gradients (None ones skipped, with a warning); increments `iterations`."""
    grads_and_vars = _filter_grads(grads_and_vars)
    var_list = [v for _, v in grads_and_vars]
    with vs.name_scope(self._name):
      _ = self.iterations
      self._create_hypers()
      if not grads_and_vars:
        return None
      grads = [optimizer_base.convert_gradient(g, v, self._op_name, self._known_variables)
               for g, v in grads_and_vars]
      if self._rule is None:
        self._create_slots(var_list)
        for g, v in zip(grads, var_list):
          self._resource_apply_dense(g, v, None)
        optimizer_base.increment(self.iterations)
      else:
        self.apply_rule(grads, var_list, [self.iterations])
    return self.iterations

  def _create_all_weights(self, var_list):
    """Creates `iterations`, the hyperparameters and the slots of `var_list` (loading saved
    optimizer weights needs them before `set_weights`)."""
    with vs.name_scope(self._name):
      _ = self.iterations
      self._create_hypers()
      self._create_slots(var_list)

  def _update_rule(self):
    return type(self)._rule, self._static()

  def _static(self):
    return ()

  def _create_slots(self, var_list):
    if self._rule is not None:
      rule, static = self._update_rule()
      self._create_rule_state(var_list, lambda: rule(self._hyper_arrays(), **dict(static)))

  def _resource_apply_dense(self, grad, handle, apply_state=None):
    raise NotImplementedError("Must be implemented in subclasses.")

  # ---- Config ----
  def get_config(self):
    config = {"name": self._name}
    for key in ("clipnorm", "clipvalue"):
      if key in self.__dict__:
        config[key] = self.__dict__[key]
    return config

  @classmethod
  def from_config(cls, config, custom_objects=None):
    config = dict(config)
    if "lr" in config:
      config["learning_rate"] = config.pop("lr")
    if isinstance(config.get("learning_rate"), dict):
      config["learning_rate"] = schedules.deserialize(config["learning_rate"])
    return cls(**config)

  def get_config_base(self):
    config = OptimizerV2.get_config(self)
    config["learning_rate"] = self._serialize_hyperparameter("learning_rate")
    config["decay"] = self._initial_decay
    return config


def _optimizer(cls_name, rule, op_name, defaults, hypers, attributes=(), static=None,
               slots_doc=""):
  """A Keras optimizer class: constructor `defaults`, float `hypers`, Python `attributes`."""
  names = [n for n, _ in defaults]

  def __init__(self, *args, **kwargs):
    values = dict(defaults)
    values.update(zip(names, args))
    for key in list(kwargs):
      if key in values:
        values[key] = kwargs.pop(key)
    if "lr" in kwargs:
      values["learning_rate"] = kwargs.pop("lr")
    OptimizerV2.__init__(self, values["name"], **kwargs)
    for n in hypers:
      self._set_hyper(n, values[n])
    self._set_hyper("decay", self._initial_decay)
    for n in attributes:
      object.__setattr__(self, n, values[n])
    self._post_init(values)

  def get_config(self):
    config = self.get_config_base()
    for n in hypers:
      if n != "learning_rate":
        config[n] = self._serialize_hyperparameter(n)
    for n in attributes:
      config[n] = getattr(self, n)
    return config

  body = {"__init__": __init__, "get_config": get_config, "_rule": staticmethod(rule),
          "_op_name": op_name, "_epsilon_attribute": "epsilon" in attributes,
          "__doc__": "`tf.keras.optimizers.%s(%s)`%s" % (
              cls_name, ", ".join("%s=%r" % d for d in defaults), slots_doc)}
  if static is not None:
    body["_static"] = static
  return type(cls_name, (OptimizerV2,), body)


OptimizerV2._post_init = lambda self, values: None  # pylint: disable=protected-access

SGD = _optimizer(
    "SGD", update_rules.keras_sgd, "ResourceApplyKerasMomentum",
    [("learning_rate", 0.01), ("momentum", 0.0), ("nesterov", False), ("name", "SGD")],
    ("learning_rate", "momentum"), ("nesterov",),
    static=lambda self: (("use_momentum", self._use_momentum),
                         ("nesterov", bool(self.nesterov))))


def _sgd_post_init(self, values):
  momentum = values["momentum"]
  use = callable(momentum) or isinstance(momentum, Tensor) or momentum > 0
  if not use and momentum < 0:
    raise ValueError("`momentum` must be between [0, 1].")
  object.__setattr__(self, "_use_momentum", bool(use))
  if not use:
    object.__setattr__(self, "_op_name", "ResourceApplyGradientDescent")


SGD._post_init = _sgd_post_init

Adam = _optimizer(
    "Adam", update_rules.keras_adam, "ResourceApplyAdam",
    [("learning_rate", 0.001), ("beta_1", 0.9), ("beta_2", 0.999), ("epsilon", 1e-7),
     ("amsgrad", False), ("name", "Adam")],
    ("learning_rate", "beta_1", "beta_2"), ("epsilon", "amsgrad"),
    static=lambda self: (("amsgrad", bool(self.amsgrad)),))

RMSprop = _optimizer(
    "RMSprop", update_rules.keras_rmsprop, "ResourceApplyRMSProp",
    [("learning_rate", 0.001), ("rho", 0.9), ("momentum", 0.0), ("epsilon", 1e-7),
     ("centered", False), ("name", "RMSprop")],
    ("learning_rate", "rho", "momentum"), ("epsilon", "centered"),
    static=lambda self: (("use_momentum", self._use_momentum),
                         ("centered", bool(self.centered))))


def _rmsprop_post_init(self, values):
  momentum = values["momentum"]
  use = callable(momentum) or isinstance(momentum, Tensor) or momentum > 0
  object.__setattr__(self, "_use_momentum", bool(use))


RMSprop._post_init = _rmsprop_post_init

Adagrad = _optimizer(
    "Adagrad", update_rules.keras_adagrad, "ResourceApplyAdagradV2",
    [("learning_rate", 0.001), ("initial_accumulator_value", 0.1), ("epsilon", 1e-7),
     ("name", "Adagrad")],
    ("learning_rate",), ("initial_accumulator_value", "epsilon"))


def _adagrad_post_init(self, values):
  if values["initial_accumulator_value"] < 0.0:
    raise ValueError("initial_accumulator_value must be non-negative: %s"
                     % values["initial_accumulator_value"])


Adagrad._post_init = _adagrad_post_init
Adagrad._extra_hyper = lambda self, hyper: dict(
    hyper, initial_accumulator_value=np.asarray(self.initial_accumulator_value, np.float64))

Adadelta = _optimizer(
    "Adadelta", update_rules.keras_adadelta, "ResourceApplyAdadelta",
    [("learning_rate", 0.001), ("rho", 0.95), ("epsilon", 1e-7), ("name", "Adadelta")],
    ("learning_rate", "rho"), ("epsilon",))

Adamax = _optimizer(
    "Adamax", update_rules.keras_adamax, "ResourceApplyAdaMax",
    [("learning_rate", 0.001), ("beta_1", 0.9), ("beta_2", 0.999), ("epsilon", 1e-7),
     ("name", "Adamax")],
    ("learning_rate", "beta_1", "beta_2"), ("epsilon",))

Nadam = _optimizer(
    "Nadam", update_rules.keras_nadam, "ResourceApplyNadam",
    [("learning_rate", 0.001), ("beta_1", 0.9), ("beta_2", 0.999), ("epsilon", 1e-7),
     ("name", "Nadam")],
    ("learning_rate", "beta_1", "beta_2"), ("epsilon",))


def _nadam_init(self, *args, **kwargs):
  kwargs["decay"] = kwargs.pop("schedule_decay", 0.004)
  lr = kwargs.get("lr", kwargs.get("learning_rate", args[0] if args else None))
  if isinstance(lr, schedules.LearningRateSchedule):
    raise ValueError("The Nadam optimizer does not support "
                     "tf.keras.optimizers.LearningRateSchedules as the learning rate.")
  _nadam_base_init(self, *args, **kwargs)


_nadam_base_init = Nadam.__init__
Nadam.__init__ = _nadam_init

Ftrl = _optimizer(
    "Ftrl", update_rules.keras_ftrl, "ResourceApplyFtrl",
    [("learning_rate", 0.001), ("learning_rate_power", -0.5), ("initial_accumulator_value", 0.1),
     ("l1_regularization_strength", 0.0), ("l2_regularization_strength", 0.0), ("name", "Ftrl"),
     ("l2_shrinkage_regularization_strength", 0.0)],
    ("learning_rate", "learning_rate_power", "l1_regularization_strength",
     "l2_regularization_strength"),
    ("initial_accumulator_value", "l2_shrinkage_regularization_strength"),
    static=lambda self: (("shrinkage", self.l2_shrinkage_regularization_strength > 0.0),))


def _ftrl_post_init(self, values):
  for name, sign in (("initial_accumulator_value", "positive or zero"),
                     ("l2_shrinkage_regularization_strength", "positive or zero")):
    if values[name] < 0.0:
      raise ValueError("%s %f needs to be %s" % (name, values[name], sign))
  if values["learning_rate_power"] > 0.0:
    raise ValueError("learning_rate_power %f needs to be negative or zero"
                     % values["learning_rate_power"])


Ftrl._post_init = _ftrl_post_init
Ftrl._extra_hyper = lambda self, hyper: dict(
    hyper, initial_accumulator_value=np.asarray(self.initial_accumulator_value, np.float64),
    l2_shrinkage_regularization_strength=np.asarray(
        self.l2_shrinkage_regularization_strength, np.float64))

_CLASSES = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad,
            "adadelta": Adadelta, "adamax": Adamax, "nadam": Nadam, "ftrl": Ftrl}
for _name, _cls in _CLASSES.items():
  _cls.__module__ = __name__
  export("keras.optimizers." + _cls.__name__, "optimizers." + _cls.__name__)(_cls)


@export("keras.optimizers.serialize")
def serialize(optimizer):
  return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


@export("keras.optimizers.deserialize")
def deserialize(config, custom_objects=None):
  classes = dict(_CLASSES)
  classes.update(custom_objects or {})
  name = config["class_name"]
  cls = classes.get(name.lower()) or classes.get(name)
  if cls is None:
    raise ValueError("Unknown optimizer: " + name)
  return cls.from_config(config["config"])


@export("keras.optimizers.get", "optimizers.get")
def get(identifier):
  """An optimizer from an instance (returned as is), a name ("adam") or a config dict."""
  from tfe_compat.train import loss_scale, optimizers as tf1_optimizers
  if isinstance(identifier, (OptimizerV2, tf1_optimizers.Optimizer,
                             loss_scale.LossScaleOptimizer)):
    return identifier
  if isinstance(identifier, dict):
    return deserialize(identifier)
  if isinstance(identifier, str):
    return deserialize({"class_name": str(identifier), "config": {}})
  raise ValueError("Could not interpret optimizer identifier:", identifier)
