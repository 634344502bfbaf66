"""`tf.compat.v1.wrap_function`: a TF 1.x-style function traced once, when wrapped.

The trace runs `fn` on zero-filled inputs of `signature` (`None` dimensions as 1): its Python
side effects happen then, as in TF's trace, and the variables it creates are created then.
Each later call runs `fn` again on the given tensors, handing it those same variables."""
from tfe_compat import variable_scope as vs
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops


def _trace_input(spec):
  shape = [1 if d is None else d for d in spec.shape.as_list()]
  if spec.dtype is dtypes.string:
    return ops.constant("", shape=shape)
  return array_ops.zeros(shape, spec.dtype)


class WrappedFunction:
  """The result of `wrap_function`: call it with tensors matching its signature."""

  def __init__(self, fn, signature, name=None):
    self._fn = fn
    self._signature = tuple(signature or ())
    self.name = name or getattr(fn, "__name__", "wrapped_function")
    self.structured_input_signature = (self._signature, {})
    self.variables = []

    def record(next_creator, **kwargs):
      variable = next_creator(**kwargs)
      self.variables.append(variable)
      return variable

    with vs.variable_creator_scope(record):
      self.structured_outputs = fn(*[_trace_input(s) for s in self._signature])

  @property
  def trainable_variables(self):
    return [v for v in self.variables if v.trainable]

  def __call__(self, *args):
    if len(args) != len(self._signature):
      raise TypeError("%s takes %d positional arguments but %d were given"
                      % (self.name, len(self._signature), len(args)))
    args = [ops.convert_to_tensor(a, dtype=s.dtype) for a, s in zip(args, self._signature)]
    created = iter(self.variables)

    def reuse(next_creator, **kwargs):  # pylint: disable=unused-argument
      return next(created)

    with vs.variable_creator_scope(reuse):
      return self._fn(*args)


@export("wrap_function")
def wrap_function(fn, signature, name=None):
  """`fn` traced once now (creating its variables), callable on tensors of `signature`."""
  return WrappedFunction(fn, signature, name)
