"""`tf.train.Optimizer` and TF1's optimizers, executing eagerly, on the shared jitted update.

Each optimizer's math is an optax transformation (update_rules.py); its slots are
non-trainable Variables named as TF1 names them (`x/Adam:0`, `x/Adam_1:0`), created on the
first `apply_gradients`; `apply_gradients` updates every variable, slot and the global step
in one jitted call. Hyperparameters (floats, Tensors, Variables or callables such as the
ones `tf.train.exponential_decay` returns) are read from the `_learning_rate`-style
attributes on every apply, as TF1's `_prepare` does. A subclass that implements
`_resource_apply_dense` (and `_create_slots`, `_prepare`, `_finish`) is run variable by
variable instead, with TF1's slot helpers.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat import graph_variables
from tfe_compat import state_ops
from tfe_compat import variable_scope as vs
from tfe_compat import variables
from tfe_compat.eager.tape import GradientTape
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import gradients_impl
from tfe_compat.train import optimizer_base
from tfe_compat.train import update_rules


def _graph_gradients(loss, var_list, grad_loss):
  """compute_gradients in graph mode: `tf.gradients` of `loss` for the trainable variables."""
  if var_list is None:
    var_list = (graph_variables.trainable_variables() +
                ops_graph_collection(graph_lib.GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
  var_list = list(var_list)
  if not var_list:
    raise ValueError("No variables to optimize.")
  grads = gradients_impl.gradients(loss, var_list,
                                   grad_ys=None if grad_loss is None else [grad_loss])
  return list(zip(grads, var_list))


def ops_graph_collection(key):
  return graph_lib.get_default_graph().get_collection(key)


def _new_variable(value, name):
  if not isinstance(value, Tensor) and hasattr(value, "dtype") and hasattr(value, "shape"):
    value = Tensor(value)
  return variables.ResourceVariable(value, name=name, trainable=False)


@export("train.Optimizer")
class Optimizer(optimizer_base.SlotState):
  """Base class of TF1 optimizers (`minimize`, `compute_gradients`, `apply_gradients`)."""

  GATE_NONE = 0
  GATE_OP = 1
  GATE_GRAPH = 2

  _rule = None            # an update_rules function, for the built-in optimizers
  _op_name = "ResourceApplyGradientDescent"  # the TF kernel, for error messages
  _hyper_attributes = {}  # rule hyperparameter -> attribute holding its value
  _slot_op_names = {}     # slot name -> op-name attribute, when not the optimizer's name

  def __init__(self, use_locking, name):
    if not name:
      raise ValueError("Must specify the optimizer name")
    self._use_locking = use_locking
    self._name = name
    self._init_slot_state()
    self._hyper_cache = {}  # attribute -> (value, array) for Python numbers

  def get_name(self):
    return self._name

  # ---- Gradients ----
  def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
               aggregation_method=None, colocate_gradients_with_ops=False, name=None,
               grad_loss=None):
    """compute_gradients(loss) then apply_gradients(); `loss` is a callable when eager."""
    grads_and_vars = self.compute_gradients(
        loss, var_list=var_list, gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
    if not [v for g, v in grads_and_vars if g is not None]:
      raise ValueError(
          "No gradients provided for any variable, check your graph for ops that do not "
          "support gradients, between variables %s and loss %s."
          % ([str(v) for _, v in grads_and_vars], loss))
    return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

  def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                        aggregation_method=None, colocate_gradients_with_ops=False,
                        grad_loss=None):
    """[(gradient, variable)] of the callable `loss` (by default over the variables it reads)."""
    if graph_lib.building() is not None:
      return _graph_gradients(loss() if callable(loss) else loss, var_list, grad_loss)
    if not callable(loss):
      raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a function "
                         "when eager execution is enabled.")
    with GradientTape() as tape:
      if var_list is not None:
        tape.watch(var_list)
      loss_value = loss()
    if var_list is None:
      var_list = tape.watched_variables()
    grads = tape.gradient(loss_value, var_list, grad_loss)
    return list(zip(grads, var_list))

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """Applies the gradients (None ones skipped); increments `global_step` if given."""
    grads_and_vars = tuple(grads_and_vars)
    if not grads_and_vars:
      raise ValueError("No variables provided.")
    grads, var_list, tensors = [], [], []
    for g, v in grads_and_vars:
      if g is None:
        continue
      if optimizer_base.is_variable(v):
        grads.append(optimizer_base.convert_gradient(g, v, self._op_name,
                                                     self._known_variables))
        var_list.append(v)
      else:
        tensors.append(v)
    if not var_list and not tensors:
      raise ValueError("No gradients provided for any variable: %s."
                       % ([str(v) for _, v in grads_and_vars],))
    if tensors:
      raise NotImplementedError("Trying to update a Tensor ", tensors[0])
    counters = [global_step] if optimizer_base.is_variable(global_step) else []
    if graph_lib.building() is not None:
      return self._apply_in_graph(grads, var_list, counters, global_step, name)
    if self._rule is None:
      self._apply_per_variable(grads, var_list)
      counters = []
    else:
      self.apply_rule(grads, var_list, counters)
    if global_step is not None and not counters:
      optimizer_base.increment(global_step)
    return None

  def _apply_in_graph(self, grads, var_list, counters, global_step, name):
    """Graph mode: the state is created now; the update is one operation (the train op)."""
    if self._rule is None:
      self._create_slots(var_list)
      update = self._apply_per_variable
    else:
      rule, static = self._update_rule()
      self._create_rule_state(var_list, lambda: rule(self._hyper_arrays(), **dict(static)))
      update = functools.partial(self.apply_rule, counters=counters)
    op = graph_build.record_call(update, (grads, var_list), op_type="ApplyGradients",
                                 name=name or self._name)
    if global_step is not None and (self._rule is None or not counters):
      with graph_lib.get_default_graph().control_dependencies([op]):
        return optimizer_base.increment(global_step).op
    return op

  def _apply_per_variable(self, grads, var_list):
    self._create_slots(var_list)
    self._prepare()
    updates = [self._resource_apply_dense(g, v) for g, v in zip(grads, var_list)]
    for v in var_list:
      if v.constraint is not None:
        v.assign(v.constraint(v))
    self._finish(updates, self._name)

  # ---- The rule and its hyperparameters ----
  def _update_rule(self):
    if self._rule is None:
      return None
    return type(self)._rule, self._static()

  def _static(self):
    return ()

  def _hyper_arrays(self):
    hyper, cache = {}, self._hyper_cache
    for key, attribute in self._hyper_attributes.items():
      value = getattr(self, attribute)
      hit = cache.get(attribute)
      if hit is not None and hit[0] is value:
        hyper[key] = hit[1]
        continue
      array = optimizer_base.hyper_array(value)
      if optimizer_base.constant_hyper(value) and not isinstance(array, jax.core.Tracer):
        cache[attribute] = (value, array)
      hyper[key] = array
    return hyper

  def _call_if_callable(self, param):
    return param() if callable(param) else param

  # ---- Slots (TF1's names: `<variable>/<op name>`, uniquified like variable scopes) ----
  def _make_slot(self, var, slot_name, value):
    op_name = self._slot_op_names.get(slot_name)
    op_name = (getattr(self, op_name) if op_name else None) or self._name
    with vs.variable_scope(None, default_name=var._shared_name + "/" + op_name) as scope:
      full_name = scope.name
    with vs.name_scope(None):
      return _new_variable(value, full_name)

  def _make_non_slot(self, name, value):
    return _new_variable(value, name)

  def _create_slots(self, var_list):
    if self._rule is not None:
      self._create_rule_state(var_list, lambda: self._rule(self._hyper_arrays(),
                                                           **dict(self._static())))

  def _prepare(self):
    pass

  def _finish(self, update_ops, name_scope):
    return None

  def _resource_apply_dense(self, grad, handle):
    raise NotImplementedError()

  def _apply_dense(self, grad, var):
    raise NotImplementedError()

  def _get_or_make_slot(self, var, val, slot_name, op_name):
    slot = self._slot_for(var, slot_name)
    if slot is None:
      with vs.variable_scope(None, default_name=var._shared_name + "/" + op_name) as scope:
        full_name = scope.name
      with vs.name_scope(None):
        slot = self._add_slot_variable(var, slot_name, _new_variable(val, full_name))
    return slot

  def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                         op_name):
    if callable(initializer):
      value = initializer(tensor_shape.as_shape(shape).as_list(), dtype=dtypes.as_dtype(dtype))
    else:
      value = initializer
    return self._get_or_make_slot(var, value, slot_name, op_name)

  def _zeros_slot(self, var, slot_name, op_name):
    return self._get_or_make_slot(var, array_ops.zeros_like(var), slot_name, op_name)

  def _create_non_slot_variable(self, initial_value, name, colocate_with):
    variable = self._non_slot_dict.get(name)
    if variable is None:
      variable = self._non_slot_dict[name] = _new_variable(initial_value, name)
    return variable

  def _get_non_slot_variable(self, name, graph=None):
    return self._non_slot_dict.get(name)

  def _non_slot_variables(self):
    return list(self._non_slot_dict.values())

  def get_slot(self, var, name):
    """The slot `name` created for `var`, or None."""
    return self._slot_for(var, name)

  def get_slot_names(self):
    return sorted(self._slots)

  def variables(self):
    """Every variable the optimizer created (non-slot and slot ones), sorted by name."""
    found = self._non_slot_variables() + [s for table in self._slots.values()
                                          for s in table.values()]
    return sorted(found, key=lambda v: v.name)


@export("contrib.eager.get_optimizer_variables")
def get_optimizer_variables(optimizer):
  """`tfe.get_optimizer_variables(optimizer)`: the optimizer's variables."""
  return optimizer.variables()


@export("train.GradientDescentOptimizer")
class GradientDescentOptimizer(Optimizer):
  _rule = update_rules.gradient_descent
  _hyper_attributes = {"learning_rate": "_learning_rate"}

  def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
    super().__init__(use_locking, name)
    self._learning_rate = learning_rate


@export("train.MomentumOptimizer")
class MomentumOptimizer(Optimizer):
  _rule = update_rules.momentum
  _op_name = "ResourceApplyMomentum"
  _hyper_attributes = {"learning_rate": "_learning_rate", "momentum": "_momentum"}

  def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
               use_nesterov=False):
    super().__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._momentum = momentum
    self._use_nesterov = use_nesterov

  def _static(self):
    return (("use_nesterov", bool(self._use_nesterov)),)


@export("train.AdamOptimizer")
class AdamOptimizer(Optimizer):
  """TF1 Adam: lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t), epsilon-hat form."""

  _rule = update_rules.adam
  _op_name = "ResourceApplyAdam"
  _hyper_attributes = {"learning_rate": "_lr", "beta1": "_beta1", "beta2": "_beta2",
                       "epsilon": "_epsilon"}

  def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
               use_locking=False, name="Adam"):
    super().__init__(use_locking, name)
    self._lr = learning_rate
    self._beta1 = beta1
    self._beta2 = beta2
    self._epsilon = epsilon

  def _get_beta_accumulators(self):
    return (self._get_non_slot_variable("beta1_power"),
            self._get_non_slot_variable("beta2_power"))


@export("train.AdagradOptimizer")
class AdagradOptimizer(Optimizer):
  _rule = update_rules.adagrad
  _op_name = "ResourceApplyAdagrad"
  _hyper_attributes = {"learning_rate": "_learning_rate",
                       "initial_accumulator_value": "_initial_accumulator_value"}

  def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
               name="Adagrad"):
    if initial_accumulator_value <= 0.0:
      raise ValueError("initial_accumulator_value must be positive: %s"
                       % initial_accumulator_value)
    super().__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._initial_accumulator_value = initial_accumulator_value


@export("train.AdadeltaOptimizer")
class AdadeltaOptimizer(Optimizer):
  _rule = update_rules.adadelta
  _op_name = "ResourceApplyAdadelta"
  _hyper_attributes = {"learning_rate": "_lr", "rho": "_rho", "epsilon": "_epsilon"}

  def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False,
               name="Adadelta"):
    super().__init__(use_locking, name)
    self._lr = learning_rate
    self._rho = rho
    self._epsilon = epsilon


@export("train.RMSPropOptimizer")
class RMSPropOptimizer(Optimizer):
  """TF1 RMSProp: `rms` starts at ones; mom = momentum*mom + lr*g/sqrt(ms + epsilon)."""

  _rule = update_rules.rmsprop
  _op_name = "ResourceApplyRMSProp"
  _hyper_attributes = {"learning_rate": "_learning_rate", "rho": "_decay",
                       "momentum": "_momentum", "epsilon": "_epsilon"}

  def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
               centered=False, name="RMSProp"):
    super().__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._decay = decay
    self._momentum = momentum
    self._epsilon = epsilon
    self._centered = centered

  def _static(self):
    return (("centered", bool(self._centered)),)


@export("train.FtrlOptimizer")
class FtrlOptimizer(Optimizer):
  _rule = update_rules.ftrl
  _op_name = "ResourceApplyFtrl"
  _hyper_attributes = {"learning_rate": "_learning_rate",
                       "learning_rate_power": "_learning_rate_power",
                       "initial_accumulator_value": "_initial_accumulator_value",
                       "l1": "_l1_regularization_strength", "l2": "_l2_regularization_strength",
                       "l2_shrinkage": "_l2_shrinkage_regularization_strength"}
  _slot_op_names = {"accum": "_accum_name", "linear": "_linear_name"}

  def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
               l1_regularization_strength=0.0, l2_regularization_strength=0.0,
               use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
               l2_shrinkage_regularization_strength=0.0):
    super().__init__(use_locking, name)
    for value, what, sign in (
        (initial_accumulator_value, "initial_accumulator_value", "be positive or zero"),
        (learning_rate_power, "learning_rate_power", "negative or zero"),
        (l1_regularization_strength, "l1_regularization_strength", "positive or zero"),
        (l2_regularization_strength, "l2_regularization_strength", "positive or zero"),
        (l2_shrinkage_regularization_strength, "l2_shrinkage_regularization_strength",
         "positive or zero")):
      bad = value > 0.0 if what == "learning_rate_power" else value < 0.0
      if bad:
        raise ValueError("%s %f needs to be %s" % (what, value, sign))
    self._learning_rate = learning_rate
    self._learning_rate_power = learning_rate_power
    self._initial_accumulator_value = initial_accumulator_value
    self._l1_regularization_strength = l1_regularization_strength
    self._l2_regularization_strength = l2_regularization_strength
    self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
    self._accum_name = accum_name
    self._linear_name = linear_name

  def _static(self):
    return (("shrinkage", self._l2_shrinkage_regularization_strength > 0.0),)


@export("train.ProximalGradientDescentOptimizer")
class ProximalGradientDescentOptimizer(Optimizer):
  _rule = update_rules.proximal_gradient_descent
  _op_name = "ResourceApplyProximalGradientDescent"
  _hyper_attributes = {"learning_rate": "_learning_rate", "l1": "_l1_regularization_strength",
                       "l2": "_l2_regularization_strength"}

  def __init__(self, learning_rate, l1_regularization_strength=0.0,
               l2_regularization_strength=0.0, use_locking=False,
               name="ProximalGradientDescent"):
    super().__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._l1_regularization_strength = l1_regularization_strength
    self._l2_regularization_strength = l2_regularization_strength


@export("train.ProximalAdagradOptimizer")
class ProximalAdagradOptimizer(Optimizer):
  _rule = update_rules.proximal_adagrad
  _op_name = "ResourceApplyProximalAdagrad"
  _hyper_attributes = {"learning_rate": "_learning_rate",
                       "initial_accumulator_value": "_initial_accumulator_value",
                       "l1": "_l1_regularization_strength", "l2": "_l2_regularization_strength"}

  def __init__(self, learning_rate, initial_accumulator_value=0.1,
               l1_regularization_strength=0.0, l2_regularization_strength=0.0,
               use_locking=False, name="ProximalAdagrad"):
    super().__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._initial_accumulator_value = initial_accumulator_value
    self._l1_regularization_strength = l1_regularization_strength
    self._l2_regularization_strength = l2_regularization_strength


def _is_indexed_slices(grad):
  return hasattr(grad, "indices") and hasattr(grad, "values") and hasattr(grad, "dense_shape")


@export("train.AdagradDAOptimizer")
class AdagradDAOptimizer(Optimizer):
  """Adagrad dual averaging: `global_step` (an int64 Variable) is the T of TF's closed form.

  IndexedSlices gradients update only their rows (TF's sparse kernel, duplicates summed);
  their indices must be concrete (not inside `tf.function`).
  """

  _rule = update_rules.adagrad_da
  _op_name = "ResourceApplyAdagradDA"
  _hyper_attributes = {"learning_rate": "_learning_rate", "l1": "_l1_regularization_strength",
                       "l2": "_l2_regularization_strength",
                       "initial_gradient_squared_accumulator_value":
                           "_initial_gradient_squared_accumulator_value"}

  def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
               l1_regularization_strength=0.0, l2_regularization_strength=0.0,
               use_locking=False, name="AdagradDA"):
    if initial_gradient_squared_accumulator_value <= 0.0:
      raise ValueError("initial_gradient_squared_accumulator_value must be positive: %s"
                       % initial_gradient_squared_accumulator_value)
    super().__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._initial_gradient_squared_accumulator_value = initial_gradient_squared_accumulator_value
    self._l1_regularization_strength = l1_regularization_strength
    self._l2_regularization_strength = l2_regularization_strength
    self._global_step = global_step

  def _hyper_arrays(self, op_name=None, input_index=7):
    """The hyperparameters and TF's `global_step + 1` (it must be int64, as the kernel's)."""
    step = ops.convert_to_tensor(self._global_step)
    if step.dtype is not dtypes.int64:
      op_name = op_name or self._op_name
      raise errors.invalid_argument(
          "cannot compute %s as input #%d(zero-based) was expected to be a int64 tensor but "
          "is a %s tensor [Op:%s]" % (op_name, input_index, ops.tf_type_name(step.dtype),
                                      op_name))
    return dict(super()._hyper_arrays(), global_step=step._value + 1)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    grads_and_vars = tuple(grads_and_vars)
    sparse = [(g, v) for g, v in grads_and_vars if _is_indexed_slices(g)]
    if not sparse:
      return super().apply_gradients(grads_and_vars, global_step, name)
    self._apply_sparse(sparse)
    dense = [(g, v) for g, v in grads_and_vars if g is not None and not _is_indexed_slices(g)]
    if dense:
      return super().apply_gradients(dense, global_step, name)
    if global_step is not None:
      optimizer_base.increment(global_step)
    return None

  def _apply_sparse(self, pairs):
    """ResourceSparseApplyAdagradDA on each (IndexedSlices, variable) pair."""
    hyper = self._hyper_arrays("ResourceSparseApplyAdagradDA", 8)
    self._create_rule_state([v for _, v in pairs], lambda: update_rules.adagrad_da(hyper))
    for grad, var in pairs:
      values = ops.convert_to_tensor(grad.values, dtype=var.dtype)._value
      indices = np.asarray(ops.convert_to_tensor(grad.indices)._value)
      unique, first, inverse = np.unique(indices, return_index=True, return_inverse=True)
      order = np.argsort(first, kind="stable")  # tf.unique's order: first occurrence
      unique, position = unique[order], np.argsort(order)[inverse.reshape(-1)]
      if not var._shape_tuple():
        raise errors.invalid_argument("var must be at least 1 dimensional")
      bad = np.flatnonzero((unique < 0) | (unique >= var._shape_tuple()[0]))
      if bad.size:
        raise errors.invalid_argument("Index %d at offset %d in indices is out of range"
                                      % (unique[bad[0]], bad[0]))
      slots = [self._slot_for(var, n)
               for n in ("gradient_accumulator", "gradient_squared_accumulator")]
      new = _sparse_adagrad_da(hyper, state_ops.read(var)._value,
                               *[state_ops.read(s)._value for s in slots], values,
                               jnp.asarray(position), jnp.asarray(unique))
      for target, value in zip([var] + slots, new):
        state_ops.write(target, value)


@jax.jit
def _sparse_adagrad_da(hyper, var, g_acc, gg_acc, values, position, unique):
  summed = jnp.zeros((unique.shape[0],) + values.shape[1:], values.dtype).at[position].add(values)
  return update_rules.sparse_adagrad_da(hyper, var, g_acc, gg_acc, summed, unique)
