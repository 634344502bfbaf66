"""Loss scaling for mixed precision: `tf.train.experimental.LossScale` / `FixedLossScale` /
`DynamicLossScale` (TF 1.15's growth and back-off rules), `MixedPrecisionLossScaleOptimizer`
(tf.train optimizers), `tf.keras.mixed_precision.experimental.LossScaleOptimizer`, and
`enable/disable_mixed_precision_graph_rewrite`.

A step whose gradients are not all finite changes no variable, slot or step counter. Eagerly
the update is skipped; in a compiled function it runs and the old values are put back.
"""
import logging

import jax.numpy as jnp

from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.trackable import Trackable
from tfe_compat.ops import control_flow_ops, matmul_cast_ops
from tfe_compat.train import keras_optimizers
from tfe_compat.train import optimizers

_log = logging.getLogger("tensorflow")
_state = {"graph_rewrite": False}


@export("train.experimental.LossScale", "mixed_precision.experimental.LossScale")
class LossScale(Trackable):
  """The loss scale: `loss_scale()` is its current value, `update(grads)` adjusts it and
  returns (update op, whether to apply the gradients)."""

  def __call__(self):
    raise NotImplementedError

  def update(self, grads):
    raise NotImplementedError

  def get_config(self):
    raise NotImplementedError

  @classmethod
  def from_config(cls, config):
    return cls(**config)


@export("train.experimental.FixedLossScale", "mixed_precision.experimental.FixedLossScale")
class FixedLossScale(LossScale):
  """A constant loss scale."""

  def __init__(self, loss_scale_value):
    if not isinstance(loss_scale_value, (int, float)):
      raise ValueError("loss_scale_value must be a Python int or float.")
    if loss_scale_value < 1:
      raise ValueError("loss_scale_value must be at least 1.")
    self._loss_scale_value = float(loss_scale_value)

  def __call__(self):
    return ops.convert_to_tensor(self._loss_scale_value, dtype=dtypes.float32)

  def update(self, grads):
    del grads
    return None, True

  def __repr__(self):
    return "FixedLossScale(%s)" % self._loss_scale_value

  def get_config(self):
    return {"loss_scale_value": self._loss_scale_value}


@ops.op(name="DynamicLossScaleUpdate")
def _dynamic_update(scale, good, *grads, period, multiplier):
  finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(g)) for g in grads])) if grads else (
      jnp.asarray(True))
  grow = good + 1 >= period
  grown = scale * multiplier
  new_scale = jnp.where(finite, jnp.where(grow & jnp.isfinite(grown), grown, scale),
                        jnp.maximum(scale / multiplier, 1.))
  return new_scale, jnp.where(finite & ~grow, good + 1, 0).astype(good.dtype), finite


@export("train.experimental.DynamicLossScale", "mixed_precision.experimental.DynamicLossScale")
class DynamicLossScale(LossScale):
  """Halves (divides by `multiplier`, not below 1) on non-finite gradients; multiplies after
  `increment_period` finite steps in a row."""

  def __init__(self, initial_loss_scale=2 ** 15, increment_period=2000, multiplier=2.):
    self._initial_loss_scale = float(initial_loss_scale)
    self._increment_period = int(increment_period)
    self._multiplier = float(multiplier)
    self.current_loss_scale = variables.ResourceVariable(
        self._initial_loss_scale, name="current_loss_scale", dtype=dtypes.float32,
        trainable=False)
    self.good_steps = variables.ResourceVariable(0, name="good_steps", dtype=dtypes.int64,
                                                 trainable=False)

  initial_loss_scale = property(lambda self: self._initial_loss_scale)
  increment_period = property(lambda self: self._increment_period)
  multiplier = property(lambda self: self._multiplier)

  def __call__(self):
    return self.current_loss_scale.read_value()

  def update(self, grads):
    """Adjusts the scale from the gradients' finiteness; returns (None, all finite)."""
    grads = [ops.convert_to_tensor(g) for g in grads if g is not None]
    scale, good, finite = _dynamic_update(
        self.current_loss_scale.read_value(), self.good_steps.read_value(), *grads,
        period=self._increment_period,
        multiplier=self._multiplier)
    self.current_loss_scale.assign(scale)
    self.good_steps.assign(good)
    return None, finite

  def __repr__(self):
    return ("DynamicLossScale(current_loss_scale=%s, num_good_steps=%s, initial_loss_scale=%s, "
            "increment_period=%s, multiplier=%s)" % (
                self.current_loss_scale.numpy(), self.good_steps.numpy(),
                self._initial_loss_scale, self._increment_period, self._multiplier))

  def get_config(self):
    return {"initial_loss_scale": self._initial_loss_scale,
            "increment_period": self._increment_period, "multiplier": self._multiplier}


def get(identifier):
  """A LossScale from None, a number (fixed), "dynamic" or a LossScale."""
  if isinstance(identifier, (int, float)):
    return FixedLossScale(identifier)
  if identifier == "dynamic":
    return DynamicLossScale()
  if isinstance(identifier, LossScale) or identifier is None:
    return identifier
  raise ValueError("Invalid argument to get(): %s" % identifier)


def _apply_if(should_apply, apply_fn, state_variables):
  """`apply_fn()` when `should_apply`; traced: applied, then undone where it is false."""
  if not control_flow_ops.is_traced(should_apply):
    if bool(should_apply):
      apply_fn()
    return
  old = [v.read_value() for v in state_variables]
  apply_fn()
  for v, value in zip(state_variables, old):
    v.assign(matmul_cast_ops.where(should_apply, v.read_value(), value))


def _scaled(loss, loss_scale):
  if callable(loss):
    def new_loss():
      value = loss()
      return value * matmul_cast_ops.cast(loss_scale(), value.dtype)
    return new_loss
  loss = ops.convert_to_tensor(loss)
  return loss * matmul_cast_ops.cast(loss_scale(), loss.dtype)


def _unscaled(grads, loss_scale):
  reciprocal = 1. / loss_scale()
  return [None if g is None else g * matmul_cast_ops.cast(reciprocal, g.dtype) for g in grads]


@export("train.experimental.MixedPrecisionLossScaleOptimizer")
class MixedPrecisionLossScaleOptimizer(optimizers.Optimizer):
  """A tf.train optimizer whose `compute_gradients` scales the loss and unscales the
  gradients; `apply_gradients` skips steps with non-finite gradients (dynamic scale)."""

  def __init__(self, opt, loss_scale):
    if not isinstance(opt, optimizers.Optimizer):
      raise ValueError('"opt" must be an instance of Optimizer, but got: %s' % type(opt))
    super().__init__(opt._use_locking, opt.get_name())  # pylint: disable=protected-access
    self._optimizer = opt
    self._loss_scale = get(loss_scale)
    if self._loss_scale is None:
      raise ValueError("loss_scale cannot be None")

  def _checkpoint_dependencies(self):
    return [("base_optimizer", self._optimizer), ("loss_scale", self._loss_scale)]

  def compute_gradients(self, loss, var_list=None, gate_gradients=optimizers.Optimizer.GATE_OP,
                        aggregation_method=None, colocate_gradients_with_ops=False,
                        grad_loss=None):
    grads_and_vars = self._optimizer.compute_gradients(
        _scaled(loss, self._loss_scale), var_list=var_list, gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
    grads = _unscaled([g for g, _ in grads_and_vars], self._loss_scale)
    return list(zip(grads, [v for _, v in grads_and_vars]))

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    grads_and_vars = tuple(grads_and_vars)
    if not isinstance(self._loss_scale, DynamicLossScale):
      return self._optimizer.apply_gradients(grads_and_vars, global_step, name)
    _, should_apply = self._loss_scale.update([g for g, _ in grads_and_vars])
    state = [v for _, v in grads_and_vars] + list(self._optimizer.variables())
    if isinstance(global_step, variables.ResourceVariable):
      state.append(global_step)
    _apply_if(should_apply,
              lambda: self._optimizer.apply_gradients(grads_and_vars, global_step, name),
              state)
    return None

  def variables(self):
    return self._optimizer.variables()


@export("keras.mixed_precision.experimental.LossScaleOptimizer")
class LossScaleOptimizer(Trackable):
  """Wraps a Keras optimizer: `get_scaled_loss`, `get_unscaled_gradients`, and an
  `apply_gradients` that skips steps with non-finite gradients; `Model.fit` scales the loss."""

  def __init__(self, optimizer, loss_scale):
    if not isinstance(optimizer, keras_optimizers.OptimizerV2):
      raise ValueError('"optimizer" must be an instance of OptimizerV2, but got: %s'
                       % optimizer)
    for clip in ("clipnorm", "clipvalue"):
      if clip in optimizer.__dict__:
        raise ValueError("LossScaleOptimizer does not support wrapping optimizers with a %s. "
                         "Optimizer %s has %s %s" % (clip, optimizer, clip,
                                                     optimizer.__dict__[clip]))
    self._optimizer = optimizer
    self._loss_scale = get(loss_scale)

  def _checkpoint_dependencies(self):
    return [("base_optimizer", self._optimizer), ("loss_scale", self._loss_scale)]

  @property
  def loss_scale(self):
    return self._loss_scale

  def get_scaled_loss(self, loss):
    """`loss` times the loss scale (a callable stays a callable)."""
    return _scaled(loss, self._loss_scale)

  def get_unscaled_gradients(self, grads):
    """Each gradient divided by the loss scale (None stays None)."""
    return _unscaled(grads, self._loss_scale)

  def get_gradients(self, loss, params):
    return self.get_unscaled_gradients(
        self._optimizer.get_gradients(self.get_scaled_loss(loss), params))

  def minimize(self, loss, var_list, grad_loss=None, name=None):
    grads_and_vars = self._optimizer._compute_gradients(  # pylint: disable=protected-access
        self.get_scaled_loss(loss), var_list, grad_loss)
    grads = self.get_unscaled_gradients([g for g, _ in grads_and_vars])
    return self.apply_gradients(zip(grads, [v for _, v in grads_and_vars]), name=name)

  def apply_gradients(self, grads_and_vars, name=None):
    """Updates the loss scale, then applies the gradients when they are all finite."""
    grads_and_vars = tuple(grads_and_vars)
    _, should_apply = self._loss_scale.update([g for g, _ in grads_and_vars])
    var_list = [v for _, v in grads_and_vars]
    self._optimizer._create_all_weights(var_list)  # pylint: disable=protected-access
    _apply_if(should_apply, lambda: self._optimizer.apply_gradients(grads_and_vars, name),
              var_list + list(self._optimizer.weights))
    return self._optimizer.iterations

  def __getattr__(self, name):  # hyperparameters, iterations, slots: the wrapped optimizer's
    if name.startswith("__") or name == "_optimizer":
      raise AttributeError(name)
    return getattr(self._optimizer, name)

  def __setattr__(self, name, value):
    if name.startswith("_"):
      object.__setattr__(self, name, value)
    else:
      setattr(self._optimizer, name, value)

  def get_config(self):
    return {"optimizer": keras_optimizers.serialize(self._optimizer),
            "loss_scale": {"class_name": type(self._loss_scale).__name__,
                           "config": self._loss_scale.get_config()}}

  @classmethod
  def from_config(cls, config, custom_objects=None):
    scale = config["loss_scale"]
    classes = {"FixedLossScale": FixedLossScale, "DynamicLossScale": DynamicLossScale}
    return cls(keras_optimizers.deserialize(config["optimizer"], custom_objects),
               classes[scale["class_name"]].from_config(scale["config"]))


@export("train.experimental.enable_mixed_precision_graph_rewrite",
        "mixed_precision.experimental.enable_mixed_precision_graph_rewrite")
def enable_mixed_precision_graph_rewrite(opt, loss_scale="dynamic"):
  """Wraps `opt` for loss scaling, as TF 1.15 does. TF's float16 rewrite acts on graphs run
  on GPUs (never on eager ops); tfe_compat keeps the computation in its own dtypes."""
  if isinstance(opt, keras_optimizers.OptimizerV2):
    opt = LossScaleOptimizer(opt, loss_scale)
  elif isinstance(opt, optimizers.Optimizer):
    opt = MixedPrecisionLossScaleOptimizer(opt, loss_scale)
  else:
    raise ValueError('"opt" must be an instance of a tf.train.Optimizer or a '
                     "tf.keras.optimizers.Optimizer, but got: %s" % opt)
  _log.warning("enable_mixed_precision_graph_rewrite: the optimizer scales the loss, but "
               "tfe_compat does not rewrite computations to float16 (use the "
               "'mixed_float16' Keras policy for float16 layers).")
  _state["graph_rewrite"] = True
  return opt


@export("train.experimental.disable_mixed_precision_graph_rewrite",
        "mixed_precision.experimental.disable_mixed_precision_graph_rewrite")
def disable_mixed_precision_graph_rewrite():
  """Turns the (flag of the) mixed precision graph rewrite off."""
  if not _state["graph_rewrite"]:
    _log.warning("disable_mixed_precision_graph_rewrite() called when mixed precision is "
                 "already disabled.")
  _state["graph_rewrite"] = False
