"""`tf.data.Options` and its option groups (TF 1.15's names). They are kept, merged and read
back as TF does; tfe_compat's pipelines run the same whatever they say."""
from tfe_compat.framework.api import export


class _Options:
  """A fixed set of options, each None (TF's default) until set."""

  _GROUPS = {}  # option name -> the option-group class it holds

  def __init__(self):
    for name in self._NAMES:
      object.__setattr__(self, name, self._GROUPS[name]() if name in self._GROUPS else None)

  def __setattr__(self, name, value):
    if name not in self._NAMES:
      raise AttributeError("Cannot set the property %s on %s." % (name, type(self).__name__))
    object.__setattr__(self, name, value)

  def __eq__(self, other):
    return type(other) is type(self) and all(
        getattr(self, n) == getattr(other, n) for n in self._NAMES)

  def __ne__(self, other):
    return not self == other

  __hash__ = None

  def _merged(self, other):
    """These options with `other`'s set values taking precedence."""
    out = type(self)()
    for name in self._NAMES:
      mine, theirs = getattr(self, name), getattr(other, name)
      if name in self._GROUPS:
        object.__setattr__(out, name, mine._merged(theirs))
      else:
        object.__setattr__(out, name, mine if theirs is None else theirs)
    return out


@export("data.experimental.DistributeOptions")
class DistributeOptions(_Options):
  _NAMES = ("auto_shard", "num_devices")


@export("data.experimental.MapVectorizationOptions")
class MapVectorizationOptions(_Options):
  _NAMES = ("enabled", "use_choose_fastest")


@export("data.experimental.OptimizationOptions")
class OptimizationOptions(_Options):
  _NAMES = ("apply_default_optimizations", "autotune", "autotune_buffers",
            "autotune_cpu_budget", "filter_fusion", "filter_with_random_uniform_fusion",
            "hoist_random_uniform", "map_and_batch_fusion", "map_and_filter_fusion",
            "map_fusion", "map_parallelization", "map_vectorization", "noop_elimination",
            "parallel_batch", "shuffle_and_repeat_fusion")
  _GROUPS = {"map_vectorization": MapVectorizationOptions}


@export("data.experimental.StatsOptions")
class StatsOptions(_Options):
  _NAMES = ("aggregator", "counter_prefix", "latency_all_edges", "prefix")


@export("data.experimental.ThreadingOptions")
class ThreadingOptions(_Options):
  _NAMES = ("max_intra_op_parallelism", "private_threadpool_size")


@export("data.Options")
class Options(_Options):
  """`tf.data.Options`: accepted and kept; `Dataset.options()` returns them merged."""
  _NAMES = ("experimental_deterministic", "experimental_distribute",
            "experimental_optimization", "experimental_slack", "experimental_stats",
            "experimental_threading")
  _GROUPS = {"experimental_distribute": DistributeOptions,
             "experimental_optimization": OptimizationOptions,
             "experimental_stats": StatsOptions, "experimental_threading": ThreadingOptions}

  def merge(self, options):
    """These options merged with `options` (its set values win)."""
    return self._merged(options)
