"""TF's op dispatch (tensorflow/python/util/dispatch.py): a public op given a value it cannot
convert to a Tensor (a RaggedTensor) is answered by the dispatchers registered for it.

An op with a hot Tensor path calls `dispatch` itself, from the branch where converting an
input failed (`handles_dispatch` marks it), so Tensors never pay for dispatch. Any other op
gets a dispatcher through `register`, which puts TF's `add_dispatch_support` wrapper under
the op's exported names (`tf.concat`), leaving internal callers on the plain function.
"""
import functools

from tfe_compat.framework import api

NOT_SUPPORTED = object()  # a dispatcher's answer for arguments it does not handle
_dispatchers = {}  # public op -> [handler(*args, **kwargs) -> result or NOT_SUPPORTED]
_self_dispatching = set()  # ops that call `dispatch` from their own conversion failure path


def _plain(op):
  """The function itself, when `op` is its exported (graph-aware) wrapper."""
  return getattr(op, "exported_from", op)


def handles_dispatch(op):
  """Marks `op` as calling `dispatch` itself when an input fails to convert."""
  _self_dispatching.add(_plain(op))
  return op


def dispatch(op, args, kwargs):
  """The first registered dispatcher's result for `op(*args, **kwargs)`, or NOT_SUPPORTED."""
  for handler in _dispatchers.get(_plain(op), ()):
    result = handler(*args, **kwargs)
    if result is not NOT_SUPPORTED:
      return result
  return NOT_SUPPORTED


def dispatch_or_raise(op, args, kwargs):
  """For an `except` block of `op`: the dispatched result, or the exception re-raised."""
  result = dispatch(op, args, kwargs)
  if result is NOT_SUPPORTED:
    raise  # pylint: disable=misplaced-bare-raise
  return result


def add_dispatch_support(op):
  """TF's decorator: `op`, retried by its dispatchers when it raises TypeError/ValueError."""
  @functools.wraps(op)
  def wrapper(*args, **kwargs):
    try:
      return op(*args, **kwargs)
    except (TypeError, ValueError):
      return dispatch_or_raise(op, args, kwargs)
  return wrapper


def register(op, handler):
  """Adds `handler` as a dispatcher of the public `op` (wrapping its exported names once)."""
  key = _plain(op)
  if key not in _dispatchers and key not in _self_dispatching:
    api.replace(op, add_dispatch_support(op))
  _dispatchers.setdefault(key, []).append(handler)
