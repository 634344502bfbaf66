"""`tf.py_func`, `tf.numpy_function`, `tf.py_function` (= `tfe.py_func`): Python in the op stream.

Eagerly, the Python function simply runs. `py_func`/`numpy_function` get NumPy arrays and, as
TF's eager mode does, their results are converted without casting to `Tout`. `py_function`
gets Tensors, so ops inside it are recorded by an active GradientTape; results are converted
to `Tout`, and exceptions surface as TF's error types (ValueError/TypeError ->
InvalidArgumentError, others -> UnknownError, ...).

Inside a traced function (`tf.function`, tape replay) the function becomes a host callback;
its output shapes come from an eager call with the same input signature (tf.function's
first call runs eagerly), since a callback must declare them in advance.
"""
import traceback

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor

_output_specs = {}  # (function code, input signature) -> [(shape, numpy dtype)] seen eagerly


def _flatten(value):
  """nest.flatten for lists, tuples and dicts (sorted keys)."""
  if isinstance(value, dict):
    return [leaf for key in sorted(value) for leaf in _flatten(value[key])]
  if isinstance(value, (list, tuple)):
    return [leaf for item in value for leaf in _flatten(item)]
  return [value]


def _outputs(value):
  """The outputs of a py_func result: inside a tf.data function, as TF's graph op has them
  (each item of a list or tuple is one output, converted whole); else flattened."""
  if context.ctx.dataset_function:
    return list(value) if isinstance(value, (list, tuple)) else [value]
  return _flatten(value)


def _signature(func, arrays):
  return (getattr(func, "__code__", func),
          tuple((tuple(np.shape(a)), str(a.dtype)) for a in arrays))


def _remember(func, arrays, outputs):
  specs = [(tuple(o._value.shape), o._value.dtype) for o in outputs if o is not None]
  _output_specs[_signature(func, arrays)] = specs


def _traced(inp):
  return any(isinstance(getattr(x, "_value", None), jax.core.Tracer) for x in inp)


def _callback(func, tensors, touts, host_fn):
  """Runs `host_fn(*numpy arrays) -> numpy arrays` as a host callback inside a trace."""
  specs = _output_specs.get(_signature(func, [t._value for t in tensors]))
  if specs is None or len(specs) != len(touts):
    raise NotImplementedError(
        "A py_func/py_function inside a traced function needs one eager call with the same "
        "input shapes first, so that its output shapes are known.")
  shapes = [jax.ShapeDtypeStruct(shape, np.dtype(t.as_numpy_dtype))
            for (shape, _), t in zip(specs, touts)]
  if any(t is dtypes.string for t in touts):
    raise NotImplementedError("String outputs of py_func are not supported inside tf.function.")

  def host(*arrays):
    outs = host_fn(*arrays)
    return [np.asarray(o, dtype=s.dtype).reshape(s.shape) for o, s in zip(outs, shapes)]
  results = io_callback(host, shapes, *[t._value for t in tensors])
  return [Tensor(jnp.asarray(r)) for r in results]


def _run_body(func, args):
  """The Python function runs eagerly, even inside a tf.function (its tensors have values)."""
  with context.function_body(False):
    return func(*args)


def _as_list(touts):
  if touts is None:
    raise TypeError("Missing required argument: 'Tout'")
  is_list = isinstance(touts, (list, tuple))
  return is_list, [dtypes.as_dtype(t) for t in (touts if is_list else [touts])]


@export("py_func")
def py_func(func, inp, Tout, stateful=True, name=None):
  """Runs `func` on NumPy copies of `inp`; returns a Tensor or a list of Tensors."""
  if not callable(func):
    raise ValueError("Expected func to be callable, got func of type {}".format(type(func)))
  if graph_lib.building() is not None:
    is_list, touts = _as_list(Tout)
    return graph_build.record_host_call(py_func, (func, list(inp), Tout), touts, not is_list,
                                        name, "PyFunc")
  if _traced(inp):
    is_list, touts = _as_list(Tout)
    tensors = [convert_to_tensor(x) for x in inp]
    results = _callback(func, tensors, touts, lambda *a: _outputs(_run_body(func, a)))
    return results if is_list or len(results) != 1 else results[0]
  arrays = [np.array(x) for x in inp]
  result = _outputs(_run_body(func, [a.copy() for a in arrays]))
  if context.ctx.dataset_function:  # TF's graph op converts each output to its Tout
    _, touts = _as_list(Tout)
    result = [x if x is None or i >= len(touts) or touts[i] is dtypes.string
              else np.asarray(x, touts[i].as_numpy_dtype) for i, x in enumerate(result)]
  result = [x if x is None else convert_to_tensor(x) for x in result]
  _remember(func, arrays, result)
  if len(result) == 1 and not (context.ctx.dataset_function and isinstance(Tout, (list, tuple))):
    result, = result
  return result


@export("numpy_function")
def numpy_function(func, inp, Tout, name=None, stateful=True):
  """`tf.numpy_function`: the same as `tf.py_func`."""
  return py_func(func, inp, Tout, stateful=stateful, name=name)


def _pyfunc_error(exc):
  if isinstance(exc, errors.OpError):
    return exc
  kind = errors.UnknownError
  if isinstance(exc, (ValueError, TypeError)):
    kind = errors.InvalidArgumentError
  elif isinstance(exc, StopIteration):
    kind = errors.OutOfRangeError
  elif isinstance(exc, MemoryError):
    kind = errors.ResourceExhaustedError
  elif isinstance(exc, NotImplementedError):
    kind = errors.UnimplementedError
  message = "%s: %s\n%s [Op:EagerPyFunc]" % (type(exc).__name__, exc, traceback.format_exc())
  return kind(None, None, message)


def _eager_outputs(ret, is_list, touts):
  if ret is None:
    return []
  values = list(ret) if isinstance(ret, (list, tuple)) else [ret]
  if len(values) != len(touts):
    raise ValueError("The Python function returned %d values, but Tout has %d types."
                     % (len(values), len(touts)))
  return [convert_to_tensor(v, dtype=t) for v, t in zip(values, touts)]


@export("py_function", "contrib.eager.py_func")
def eager_py_func(func, inp, Tout, name=None):
  """Runs `func` on the input Tensors (differentiable under GradientTape); results as Tout."""
  if not callable(func):
    raise ValueError("Expected func to be callable, got func of type {}".format(type(func)))
  is_list, touts = _as_list(Tout)
  if graph_lib.building() is not None:
    return graph_build.record_host_call(eager_py_func, (func, list(inp), Tout), touts,
                                        not is_list, name, "EagerPyFunc")
  tensors = [convert_to_tensor(x) for x in inp]

  def run(*args):
    try:
      return _eager_outputs(_run_body(func, args), is_list, touts)
    except Exception as e:  # pylint: disable=broad-except
      raise _pyfunc_error(e) from e

  if _traced(tensors):
    def host(*arrays):
      return [np.asarray(o) for o in run(*[Tensor(jnp.asarray(a)) for a in arrays])]
    outputs = _callback(func, tensors, touts, host)
  else:
    outputs = run(*tensors)
    _remember(func, [t._value for t in tensors], outputs)
  if is_list:
    return outputs
  return outputs[0] if outputs else None
