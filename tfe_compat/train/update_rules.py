"""The update rules of TF's optimizers as optax GradientTransformations (pure, trace-safe).

Each rule is `rule(hyper, **static) -> optax.GradientTransformation` over a *list* of
parameters. `hyper` maps hyperparameter names to scalar arrays (cast to each variable's dtype
here, as TF's kernels receive them); `static` holds Python flags (nesterov, centered, ...).
A rule's state is a dict: a slot name maps to a list of per-variable arrays (the optimizer
keeps each one in a slot Variable), any other key to one scalar (a non-slot variable such as
TF1 Adam's `beta1_power`). `init(params)` gives the slots' initial values.

The formulas follow TF's C++ training kernels operation by operation (training_ops.cc), so
results match TF's to float rounding; optax's own transformations are used where their
arithmetic is TF's (plain SGD, the momentum trace).
"""
import jax.numpy as jnp
import numpy as np
import optax


def _cast(hyper, dtype, *names):
  return [hyper[n].astype(dtype) for n in names]


def _zeros(params):
  return [np.zeros(p.shape, p.dtype) for p in params]  # jnp would compile one per shape


def _filled(params, value):
  return [jnp.full_like(p, value) for p in params]


def _scalar(hyper, name):
  return hyper[name].astype(jnp.float32)


def _transformation(init, per_variable, slot_names, finish=None, decrement=False):
  """A rule from `per_variable(g, p, slots, state) -> (value, new slots)`.

  `value` is the new variable value, or with `decrement` the amount TF's kernel subtracts
  from it. `finish(state) -> dict` updates non-slot scalars after all variables (TF's
  `_finish`).
  """
  def update(grads, state, params):
    updates, new_slots = [], {n: [] for n in slot_names}
    for i, (g, p) in enumerate(zip(grads, params)):
      value, slots = per_variable(g, p, [state[n][i] for n in slot_names], state)
      updates.append(-value if decrement else value - p)
      for n, s in zip(slot_names, slots):
        new_slots[n].append(s)
    new_state = dict(state)
    new_state.update(new_slots)
    if finish is not None:
      new_state.update(finish(state))
    return updates, new_state
  return optax.GradientTransformation(init, update)


def _decrement(init, per_variable, slot_names, finish=None):
  return _transformation(init, per_variable, slot_names, finish, decrement=True)


# ---- tf.train (TF1) rules ----
def gradient_descent(hyper):
  """ApplyGradientDescent: var -= lr * grad (optax.sgd)."""
  def update(grads, state, params):
    updates = []
    for g in grads:
      sgd = optax.sgd(hyper["learning_rate"].astype(g.dtype))
      updates.append(sgd.update(g, sgd.init(g))[0])
    return updates, state
  return optax.GradientTransformation(lambda params: {}, update)


def momentum(hyper, use_nesterov=False):
  """ApplyMomentum: accum = accum * momentum + grad; var -= lr * accum (optax.trace)."""
  def update(grads, state, params):
    updates, accums = [], []
    for g, a in zip(grads, state["momentum"]):
      lr, mu = _cast(hyper, g.dtype, "learning_rate", "momentum")
      trace = optax.trace(decay=mu, nesterov=use_nesterov)
      direction, new = trace.update(g, optax.TraceState(trace=a))
      updates.append(-lr * direction)
      accums.append(new.trace)
    return updates, {"momentum": accums}
  return optax.GradientTransformation(lambda params: {"momentum": _zeros(params)}, update)


def adam(hyper, use_nesterov=False):
  """ApplyAdam with TF1's beta-power accumulators (epsilon-hat form)."""
  def per_variable(g, p, slots, state):
    m, v = slots
    lr, b1, b2, eps = _cast(hyper, p.dtype, "learning_rate", "beta1", "beta2", "epsilon")
    b1p, b2p = state["beta1_power"].astype(p.dtype), state["beta2_power"].astype(p.dtype)
    alpha = lr * jnp.sqrt(1 - b2p) / (1 - b1p)
    m = m + (g - m) * (1 - b1)
    v = v + (g * g - v) * (1 - b2)
    if use_nesterov:
      return ((g * (1 - b1) + b1 * m) * alpha) / (jnp.sqrt(v) + eps), (m, v)
    return (m * alpha) / (jnp.sqrt(v) + eps), (m, v)

  def init(params):
    return {"m": _zeros(params), "v": _zeros(params),
            "beta1_power": _scalar(hyper, "beta1"), "beta2_power": _scalar(hyper, "beta2")}

  def finish(state):
    return {"beta1_power": state["beta1_power"] * _scalar(hyper, "beta1"),
            "beta2_power": state["beta2_power"] * _scalar(hyper, "beta2")}
  return _decrement(init, per_variable, ("m", "v"), finish)


def adagrad(hyper):
  """ApplyAdagrad: accum += grad^2; var -= lr * grad / sqrt(accum)."""
  def per_variable(g, p, slots, state):
    lr, = _cast(hyper, p.dtype, "learning_rate")
    accum = slots[0] + g * g
    return g * lr * jnp.reciprocal(jnp.sqrt(accum)), (accum,)
  init = lambda params: {"accumulator": _filled(params, hyper["initial_accumulator_value"])}
  return _decrement(init, per_variable, ("accumulator",))


def adadelta(hyper, slot_names=("accum", "accum_update")):
  """ApplyAdadelta (TF1 and Keras share the kernel; Keras names the slots differently)."""
  def per_variable(g, p, slots, state):
    accum, accum_update = slots
    lr, rho, eps = _cast(hyper, p.dtype, "learning_rate", "rho", "epsilon")
    accum = accum * rho + g * g * (1 - rho)
    update = jnp.sqrt(accum_update + eps) * jnp.reciprocal(jnp.sqrt(accum + eps)) * g
    accum_update = accum_update * rho + update * update * (1 - rho)
    return update * lr, (accum, accum_update)
  init = lambda params: {slot_names[0]: _zeros(params), slot_names[1]: _zeros(params)}
  return _decrement(init, per_variable, slot_names)


def rmsprop(hyper, centered=False, rms_init=1.0, mg_last=False):
  """ApplyRMSProp / ApplyCenteredRMSProp: var -= mom, mom = momentum*mom + lr*g/sqrt(...).

  TF1 creates the slots rms, mg, momentum (rms starting at ones); Keras rms (at zeros),
  momentum, mg.
  """
  names = ("rms", "mg", "momentum") if centered else ("rms", "momentum")

  def per_variable(g, p, slots, state):
    lr, rho, mu, eps = _cast(hyper, p.dtype, "learning_rate", "rho", "momentum", "epsilon")
    ms, mom = slots[0], slots[-1]
    ms = ms + (g * g - ms) * (1 - rho)
    if centered:
      mg = slots[1] + (g - slots[1]) * (1 - rho)
      denom = (ms - mg * mg) + eps
      mom = mom * mu + (g * lr) / jnp.sqrt(denom)
      return mom, (ms, mg, mom)
    mom = mom * mu + (g * lr) / jnp.sqrt(ms + eps)
    return mom, (ms, mom)

  def init(params):
    order = ("rms", "momentum", "mg") if mg_last else names
    return {n: _filled(params, rms_init) if n == "rms" else _zeros(params)
            for n in order if n in names}
  return _decrement(init, per_variable, names)


def _pow(x, power):
  """x ** -power, as sqrt(x) for TF's special-cased power -0.5."""
  return jnp.where(power == -0.5, jnp.sqrt(x), x ** -power)


def ftrl(hyper, shrinkage=False, slot_names=("accum", "linear")):
  """ApplyFtrl / ApplyFtrlV2 (with l2 shrinkage)."""
  def per_variable(g, p, slots, state):
    lr, power, l1, l2, l2s = _cast(hyper, p.dtype, "learning_rate", "learning_rate_power",
                                   "l1", "l2", "l2_shrinkage")
    accum, linear = slots
    g_linear = g + 2 * l2s * p if shrinkage else g
    new_accum = accum + g * g
    linear = linear + g_linear - (_pow(new_accum, power) - _pow(accum, power)) / lr * p
    x = jnp.clip(linear, -l1, l1) - linear
    y = _pow(new_accum, power) / lr + 2 * l2
    return x / y, (new_accum, linear)
  init = lambda params: {slot_names[0]: _filled(params, hyper["initial_accumulator_value"]),
                         slot_names[1]: _zeros(params)}
  return _transformation(init, per_variable, slot_names)


def _proximal(prox, lr, l1, l2):
  shrunk = jnp.sign(prox) * jnp.maximum(jnp.abs(prox) - lr * l1, 0) / (1 + l2 * lr)
  return jnp.where(l1 > 0, shrunk, prox / (1 + l2 * lr))


def proximal_gradient_descent(hyper):
  """ApplyProximalGradientDescent."""
  def per_variable(g, p, slots, state):
    lr, l1, l2 = _cast(hyper, p.dtype, "learning_rate", "l1", "l2")
    return _proximal(p - g * lr, lr, l1, l2), ()
  return _transformation(lambda params: {}, per_variable, ())


def proximal_adagrad(hyper):
  """ApplyProximalAdagrad."""
  def per_variable(g, p, slots, state):
    lr, l1, l2 = _cast(hyper, p.dtype, "learning_rate", "l1", "l2")
    accum = slots[0] + g * g
    rate = lr * jnp.reciprocal(jnp.sqrt(accum))
    return _proximal(p - g * rate, rate, l1, l2), (accum,)
  init = lambda params: {"accumulator": _filled(params, hyper["initial_accumulator_value"])}
  return _transformation(init, per_variable, ("accumulator",))


def adagrad_da(hyper):
  """ApplyAdagradDA: the accumulators sum grad and grad^2; var is their closed form at step
  T = `global_step` (TF passes the step before its increment, plus one):
  var = -lr * sign(g) * max(|g| - T * l1, 0) / (l2 * T * lr + sqrt(gg)) (no max when l1 = 0)."""
  def per_variable(g, p, slots, state):
    lr, l1, l2 = _cast(hyper, p.dtype, "learning_rate", "l1", "l2")
    step = hyper["global_step"].astype(jnp.float32).astype(p.dtype)
    g_acc, gg_acc = slots[0] + g, slots[1] + g * g
    denominator = l2 * (step * lr) + jnp.sqrt(gg_acc)
    shrunk = lr * -1 * jnp.sign(g_acc) * jnp.maximum(jnp.abs(g_acc) - step * l1, 0)
    return jnp.where(l1 > 0, shrunk, lr * g_acc * -1) / denominator, (g_acc, gg_acc)

  def init(params):
    return {"gradient_accumulator": _zeros(params),
            "gradient_squared_accumulator": _filled(
                params, hyper["initial_gradient_squared_accumulator_value"])}
  return _transformation(init, per_variable,
                         ("gradient_accumulator", "gradient_squared_accumulator"))


def sparse_adagrad_da(hyper, var, g_acc, gg_acc, grad, indices):
  """SparseApplyAdagradDA on the rows `indices` (unique) of `var` and its accumulators:
  (new var, new g_acc, new gg_acc). TF's kernel computes a row of one element in double
  precision and wider rows in the variable's dtype, with the formula rearranged."""
  lr, l1, l2 = _cast(hyper, var.dtype, "learning_rate", "l1", "l2")
  step = hyper["global_step"]
  ga_rows, gg_rows = g_acc[indices], gg_acc[indices]
  if var.size == var.shape[0]:  # inner dimension 1
    wide = jnp.float64
    g = grad.astype(wide)
    ga = (ga_rows.astype(wide) + g).astype(var.dtype)
    gg = (gg_rows.astype(wide) + g * g).astype(var.dtype)
    lr, l1, l2 = lr.astype(wide), l1.astype(wide), l2.astype(wide)
    step = step.astype(wide)
    denominator = step * l2 * lr + jnp.sqrt(gg).astype(wide)
    shrunk = jnp.sign(-ga).astype(wide) * lr * jnp.maximum(
        jnp.abs(ga).astype(wide) - step * l1, 0.0)
    rows = jnp.where(l1 > 0, shrunk, -ga.astype(wide) * lr) / denominator
  else:
    step = step.astype(var.dtype)
    ga, gg = ga_rows + grad, gg_rows + grad * grad
    denominator = l2 + jnp.sqrt(gg) / (step * lr)
    shrunk = -1 * jnp.sign(ga) * jnp.maximum(jnp.abs(ga) / step - l1, 0)
    rows = jnp.where(l1 > 0, shrunk, -1 * (ga / step)) / denominator
  return (var.at[indices].set(rows.astype(var.dtype)), g_acc.at[indices].set(ga),
          gg_acc.at[indices].set(gg))


# ---- tf.keras (OptimizerV2) rules: `iterations` is the step count before this update ----
def _keras_lr(hyper, dtype, decayed=True):
  lr, = _cast(hyper, dtype, "learning_rate")
  if not decayed:
    return lr
  decay, step = _cast(hyper, dtype, "decay", "iterations")
  return jnp.where(decay > 0, lr / (1 + decay * step), lr)


def keras_sgd(hyper, use_momentum=False, nesterov=False):
  """ResourceApplyGradientDescent, or ResourceApplyKerasMomentum with momentum."""
  def per_variable(g, p, slots, state):
    lr = _keras_lr(hyper, p.dtype)
    if not use_momentum:
      return g * lr, ()
    mu, = _cast(hyper, p.dtype, "momentum")
    accum = slots[0] * mu - g * lr
    return -(accum * mu - g * lr if nesterov else accum), (accum,)
  names = ("momentum",) if use_momentum else ()
  return _decrement(lambda params: {n: _zeros(params) for n in names}, per_variable, names)


def _keras_powers(hyper, dtype):
  b1, b2, step = _cast(hyper, dtype, "beta_1", "beta_2", "iterations")
  return b1, b2, b1 ** (step + 1), b2 ** (step + 1)


def keras_adam(hyper, amsgrad=False):
  """ResourceApplyAdam / ResourceApplyAdamWithAmsgrad with powers from `iterations`."""
  names = ("m", "v", "vhat") if amsgrad else ("m", "v")

  def per_variable(g, p, slots, state):
    lr = _keras_lr(hyper, p.dtype)
    eps, = _cast(hyper, p.dtype, "epsilon")
    b1, b2, b1p, b2p = _keras_powers(hyper, p.dtype)
    alpha = lr * jnp.sqrt(1 - b2p) / (1 - b1p)
    m = slots[0] + (g - slots[0]) * (1 - b1)
    v = slots[1] + (g * g - slots[1]) * (1 - b2)
    if amsgrad:
      vhat = jnp.maximum(slots[2], v)
      return (m * alpha) / (jnp.sqrt(vhat) + eps), (m, v, vhat)
    return (m * alpha) / (jnp.sqrt(v) + eps), (m, v)
  return _decrement(lambda params: {n: _zeros(params) for n in names}, per_variable, names)


def keras_rmsprop(hyper, use_momentum=False, centered=False):
  """RMSprop: the RMSProp kernels with momentum, else Keras' own sqrt(ms) + epsilon form."""
  if use_momentum:
    return rmsprop(dict(hyper, learning_rate=_KerasLr(hyper)), centered, 0.0, mg_last=True)
  names = ("rms", "mg") if centered else ("rms",)

  def per_variable(g, p, slots, state):
    lr = _keras_lr(hyper, p.dtype)
    rho, eps = _cast(hyper, p.dtype, "rho", "epsilon")
    rms = rho * slots[0] + (1 - rho) * (g * g)
    if centered:
      mg = rho * slots[1] + (1 - rho) * g
      return lr * g / (jnp.sqrt(rms - mg * mg) + eps), (rms, mg)
    return lr * g / (jnp.sqrt(rms) + eps), (rms,)
  return _decrement(lambda params: {n: _zeros(params) for n in names}, per_variable, names)


def keras_ftrl(hyper, shrinkage=False):
  """tf.keras Ftrl: the FTRL kernels with the decayed Keras learning rate."""
  hyper = dict(hyper, learning_rate=_KerasLr(hyper), l1=hyper["l1_regularization_strength"],
               l2=hyper["l2_regularization_strength"],
               l2_shrinkage=hyper["l2_shrinkage_regularization_strength"])
  return ftrl(hyper, shrinkage, ("accumulator", "linear"))


class _KerasLr:
  """The decayed Keras learning rate, cast on demand (lets a TF1 kernel rule use it)."""

  def __init__(self, hyper):
    self._hyper = hyper

  def astype(self, dtype):
    return _keras_lr(self._hyper, dtype)


def keras_adagrad(hyper):
  """ResourceApplyAdagradV2: accum += grad^2; var -= lr * grad / (sqrt(accum) + epsilon)."""
  def per_variable(g, p, slots, state):
    lr = _keras_lr(hyper, p.dtype)
    eps, = _cast(hyper, p.dtype, "epsilon")
    accum = slots[0] + g * g
    return g * lr / (jnp.sqrt(accum) + eps), (accum,)
  init = lambda params: {"accumulator": _filled(params, hyper["initial_accumulator_value"])}
  return _decrement(init, per_variable, ("accumulator",))


def keras_adadelta(hyper):
  return adadelta(dict(hyper, learning_rate=_KerasLr(hyper)), ("accum_grad", "accum_var"))


def keras_adamax(hyper):
  """ResourceApplyAdaMax: v = max(beta2 * v, |g|); var -= lr / (1 - beta1^t) * m / (v + eps)."""
  def per_variable(g, p, slots, state):
    lr = _keras_lr(hyper, p.dtype)
    eps, = _cast(hyper, p.dtype, "epsilon")
    b1, b2, b1p, _ = _keras_powers(hyper, p.dtype)
    m = slots[0] + (g - slots[0]) * (1 - b1)
    v = jnp.maximum(b2 * slots[1], jnp.abs(g))
    return lr / (1 - b1p) * (m / (v + eps)), (m, v)
  return _decrement(lambda params: {"m": _zeros(params), "v": _zeros(params)}, per_variable,
                    ("m", "v"))


def keras_nadam(hyper):
  """Keras Nadam with its momentum cache (`momentum_cache`, a non-slot scalar)."""
  def schedule(dtype, cache):
    b1, step, decay = _cast(hyper, dtype, "beta_1", "iterations", "decay")
    m_t = b1 * (1.0 - 0.5 * jnp.power(jnp.asarray(0.96, dtype), decay * (step + 1)))
    m_t_1 = b1 * (1.0 - 0.5 * jnp.power(jnp.asarray(0.96, dtype), decay * (step + 2)))
    m_schedule_new = cache.astype(dtype) * m_t
    return m_t, m_t_1, m_schedule_new, m_schedule_new * m_t_1

  def per_variable(g, p, slots, state):
    lr = _keras_lr(hyper, p.dtype, decayed=False)
    b1, b2, step, eps = _cast(hyper, p.dtype, "beta_1", "beta_2", "iterations", "epsilon")
    m_t, m_t_1, m_schedule_new, m_schedule_next = schedule(p.dtype, state["momentum_cache"])
    g_prime = g / (1.0 - m_schedule_new)
    m = b1 * slots[0] + (1 - b1) * g
    v = b2 * slots[1] + (1 - b2) * (g * g)
    v_prime = v / (1.0 - jnp.power(b2, step + 1))
    m_bar = (1.0 - m_t) * g_prime + m_t_1 * (m / (1.0 - m_schedule_next))
    return lr * m_bar / (jnp.sqrt(v_prime) + eps), (m, v)

  def init(params):
    dtype = params[0].dtype if params else jnp.float32
    return {"m": _zeros(params), "v": _zeros(params), "momentum_cache": jnp.ones((), dtype)}

  def finish(state):
    cache = state["momentum_cache"]
    return {"momentum_cache": schedule(cache.dtype, cache)[2]}
  return _decrement(init, per_variable, ("m", "v"), finish)
