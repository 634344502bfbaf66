"""`tf.distributions.kl_divergence` and `RegisterKL`: KL functions registered per class pair,
found along both classes' MROs (the closest registered pair wins, as in TF)."""
import inspect

from tfe_compat.framework.api import export
from tfe_compat.ops import check_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops import reduction_ops

_DIVERGENCES = {}


def _registered_kl(type_a, type_b):
  kl_fn, best = None, None
  for distance_a, parent_a in enumerate(inspect.getmro(type_a)):
    for distance_b, parent_b in enumerate(inspect.getmro(type_b)):
      candidate = _DIVERGENCES.get((parent_a, parent_b))
      if candidate is not None and (best is None or distance_a + distance_b < best):
        kl_fn, best = candidate, distance_a + distance_b
  return kl_fn


@export("distributions.kl_divergence", "contrib.distributions.kl_divergence")
def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
  """KL[a || b]; with allow_nan_stats=False a NaN result raises InvalidArgumentError."""
  kl_fn = _registered_kl(type(distribution_a), type(distribution_b))
  if kl_fn is None:
    raise NotImplementedError(
        "No KL(distribution_a || distribution_b) registered for distribution_a type %s and "
        "distribution_b type %s" % (type(distribution_a).__name__,
                                    type(distribution_b).__name__))
  kl_t = kl_fn(distribution_a, distribution_b, name=name)
  if not allow_nan_stats:
    check_ops.Assert(math_ops.logical_not(reduction_ops.reduce_any(math_ops.is_nan(kl_t))), [
        "KL calculation between %s and %s returned NaN values (and was called with "
        "allow_nan_stats=False). Values:" % (distribution_a.name, distribution_b.name), kl_t])
  return kl_t


def cross_entropy(ref, other, allow_nan_stats=True, name=None):
  """H[ref, other] = entropy(ref) + KL[ref || other]."""
  return ref.entropy() + kl_divergence(ref, other, allow_nan_stats=allow_nan_stats)


@export("distributions.RegisterKL", "contrib.distributions.RegisterKL")
class RegisterKL:
  """Decorator registering `kl_fn(a, b, name=None)` for a pair of distribution classes."""

  def __init__(self, dist_cls_a, dist_cls_b):
    self._key = (dist_cls_a, dist_cls_b)

  def __call__(self, kl_fn):
    if not callable(kl_fn):
      raise TypeError("kl_fn must be callable, received: %s" % kl_fn)
    if self._key in _DIVERGENCES:
      raise ValueError("KL(%s || %s) has already been registered to: %s"
                       % (self._key[0].__name__, self._key[1].__name__,
                          _DIVERGENCES[self._key]))
    _DIVERGENCES[self._key] = kl_fn
    return kl_fn
