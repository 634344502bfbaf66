"""The one op path (`@op`) and TF's conversion of Python/NumPy values to Tensors.

An op implementation is a pure function of arrays: positional parameters are tensors,
keyword parameters are static (hashable) attributes. `@op` turns it into a function of
Tensors that runs the implementation jitted (one jit per static attributes, at most
`program_cache.SIZE` kept, least recently used dropped; JAX compiles it per shape and dtype),
wraps the outputs, and records on active GradientTapes only when one is active.
"""
import functools
import numbers
import sys

import jax
import jax.numpy as jnp
from jax._src import core as jax_core
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import program_cache
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import QuantizedTensor, Tensor

_ctx = context.ctx


def _shape_text(tensor):
  return "[%s]" % ",".join(str(d) for d in tensor._value.shape)


def broadcast_error(*inputs):
  return "Incompatible shapes: " + " vs. ".join(_shape_text(t) for t in inputs)


def _op_error(name, inputs, exc, describe):
  if describe is not None:
    detail = describe(*inputs)
  else:
    detail = "%s; input shapes: %s" % (str(exc).split("\n")[0],
                                       ", ".join(_shape_text(t) for t in inputs))
  return errors.op_error(detail, name)


OP_NAMES = set()  # the TF op names of every @op, e.g. "MatMul"
GRADIENTS = {}  # tf.RegisterGradient: name -> (gradient function or None, where registered)
graph_record = [None]  # graph_build.record_op: an op applied while a graph is built
_log_device_placement = False


@export("debugging.set_log_device_placement")
def set_log_device_placement(enabled):
  """Logs, to stderr, the device each op executes on (TF's "Executing op ... in device ...")."""
  global _log_device_placement  # pylint: disable=global-statement
  _log_device_placement = bool(enabled)


@export("debugging.get_log_device_placement")
def get_log_device_placement():
  return _log_device_placement


_VALUE_NEEDED = (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
                 jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError)


# XLA options of the one-op programs eager execution compiles (one per op, attributes and
# input shapes): XLA:CPU's older loop emitters compile such a program in ~2/3 of the time
# and run it as fast (the newer fusion emitters pay off in large programs: tape pullbacks,
# tf.function and graph runs keep XLA's defaults).
EAGER_COMPILER_OPTIONS = {"xla_cpu_use_fusion_emitters": False}
_options_known = []  # [whether this XLA knows EAGER_COMPILER_OPTIONS], found on first use


def _eager_jit(fn):
  """`jax.jit(fn)` with EAGER_COMPILER_OPTIONS where this XLA knows them."""
  if not _options_known:
    try:
      jax.jit(jnp.negative, compiler_options=EAGER_COMPILER_OPTIONS).lower(0).compile()
      _options_known.append(True)
    except jax.errors.JaxRuntimeError:  # an XLA without the option: its defaults
      _options_known.append(False)
  return jax.jit(fn, compiler_options=EAGER_COMPILER_OPTIONS if _options_known[0] else None)


_top_level = jax_core.trace_ctx.is_top_level  # False inside a JAX trace


def _call_with_floats(impl, static, floats, count, *args):
  """`impl` with its float attributes `floats` given as the traced `args` after `count`."""
  return impl(*args[:count], **static, **dict(zip(floats, args[count:])))


def op(impl=None, *, name=None, jit=True, describe_error=None, differentiable=True):
  """Makes `impl(*arrays, **static)` a TF op on Tensors (see the module docstring).

  `name` is the TF op name used in error messages; `jit=False` is for ops whose output
  shape depends on values (they run on concrete arrays only); `describe_error(*inputs)`
  words the InvalidArgumentError raised when the computation rejects its inputs;
  `differentiable=False` marks ops TF gives no gradient (round, floor, ...): tapes do not
  record them, so gradients through them are None, as in TF; a tuple names the inputs that
  have gradients (tapes see the others as constants: None, as TF gives them).
  """
  if impl is None:
    return functools.partial(op, name=name, jit=jit, describe_error=describe_error,
                             differentiable=differentiable)
  op_name = name or "".join(w.capitalize() for w in impl.__name__.strip("_").split("_"))
  OP_NAMES.add(op_name)
  compiled = program_cache.LRU()  # static attributes -> jitted impl (cheaper than jit's
  # static_argnames)
  floats_static = []  # set once the impl needed a float attribute's value to trace

  def compute(*values, **kwargs):
    if not jit:
      return impl(*values, **kwargs)
    if kwargs and not floats_static:
      floats = tuple(k for k, v in kwargs.items() if type(v) is float)
      if floats:  # traced, so that a new value (a leaky_relu alpha) compiles nothing
        return _with_traced_floats(values, kwargs, floats)
    key = tuple(kwargs.items())
    fn = compiled.get(key) if _top_level() else None
    if fn is None:
      fn = jitted(key, functools.partial(impl, **kwargs))
    return fn(*values)

  def jitted(key, fn):
    """`fn` jitted for `key`: with the eager compiler options at the top level, plain inside
    another trace (a tf.function, a user's jax.jit), where a nested jit may carry none."""
    if not _top_level():
      key = (key, "traced")
      found = compiled.get(key)
      if found is None:
        found = compiled[key] = jax.jit(fn)
      return found
    compiled[key] = _eager_jit(fn)
    return compiled[key]

  def _with_traced_floats(values, kwargs, floats):
    static = tuple((k, v) for k, v in kwargs.items() if k not in floats)
    key = (static, floats, len(values))
    fn = compiled.get(key) if _top_level() else None
    if fn is None:
      fn = jitted(key, functools.partial(_call_with_floats, impl, dict(static), floats,
                                         len(values)))
    try:
      return fn(*values, *[kwargs[k] for k in floats])
    except _VALUE_NEEDED:  # the impl computes with the attribute's value: keep it static
      floats_static.append(True)
      return compute(*values, **kwargs)

  def recover(inputs, kwargs, exc):
    if "incompatible devices" in str(exc):  # TF copies inputs to where the op runs
      target = context.current_device() or jax.devices()[0]
      return compute(*[jax.device_put(t._value, target) for t in inputs], **kwargs)
    raise _op_error(op_name, inputs, exc, describe_error) from None

  @functools.wraps(impl)
  def apply(*inputs, **kwargs):
    keys = _ctx.traced_rng
    if keys is not None:
      if keys.building:  # graph mode: an Operation, not a value
        return graph_record[0](apply, inputs, kwargs)
      if keys.op_names is not None:  # a graph's abstract evaluation notes the ops it runs
        keys.op_names.add(op_name)
    try:
      if keys is not None and not any(
          isinstance(t._value, jax.core.Tracer) for t in inputs):
        # Inside a tf.function trace, an op on constants (e.g. `tf.shape(x)[0]`) is
        # folded: its value stays concrete, so it can serve as a shape or a Python int.
        with jax.ensure_compile_time_eval():
          out = compute(*[t._value for t in inputs], **kwargs)
      else:
        out = compute(*[t._value for t in inputs], **kwargs)
    except (jax.errors.JAXTypeError, jax.errors.JAXIndexError):
      raise
    except (TypeError, ValueError) as e:
      out = recover(inputs, kwargs, e)
    result = [Tensor(o) for o in out] if type(out) in (tuple, list) else Tensor(out)
    if post_execution_callbacks or _log_device_placement:
      _observe(op_name, inputs, kwargs, result)
    if _ctx.tapes and differentiable:
      if differentiable is not True:
        inputs = [t if i in differentiable else Tensor(t._value) for i, t in enumerate(inputs)]
      record(apply, kwargs, inputs, result)
    return result

  apply.impl = impl
  impl.op_name = op_name  # what tapes know an op by
  apply.op_name = op_name
  return apply


post_execution_callbacks = []  # from tfe.add_execution_callback, called after each eager op


def _observe(op_name, inputs, kwargs, result):
  """Reports an op that ran eagerly (not while tracing) to the device-placement log and the
  execution callbacks."""
  outputs = result if isinstance(result, list) else [result]
  if any(isinstance(t._value, jax.core.Tracer) for t in outputs):
    return
  if _log_device_placement and outputs:
    print("Executing op %s in device %s" % (op_name, outputs[0].device), file=sys.stderr)
  attrs = tuple(item for pair in kwargs.items() for item in pair)
  for callback in list(post_execution_callbacks):
    callback(op_name, list(inputs), attrs, outputs, None)


def record(op_fn, kwargs, inputs, outputs):
  """Offers one executed op to every active tape (the tape decides whether it watches it)."""
  if _ctx.recording_paused:
    return
  outputs = outputs if isinstance(outputs, list) else [outputs]
  for tape in list(_ctx.tapes):
    tape.record_operation(op_fn, kwargs, inputs, outputs)


# ---- Conversion ----
_conversion_functions = []  # (priority, base type, fn) from register_tensor_conversion_function


@export("register_tensor_conversion_function")
def register_tensor_conversion_function(base_type, conversion_func, priority=100):
  """`tf.register_tensor_conversion_function`: fn(value, dtype, name, as_ref) -> Tensor."""
  _conversion_functions.append((priority, base_type, conversion_func))
  _conversion_functions.sort(key=lambda entry: entry[0])


_INT32 = np.iinfo(np.int32)
_scalar_cache = {}  # (type, value, dtype name) -> jax array for hot Python scalars


def _has_dimensions(value):
  if isinstance(value, (list, tuple)):
    return any(_has_dimensions(v) for v in value)
  return isinstance(value, tensor_shape.Dimension)


def _dimension_values(value):
  """`value` with every tensor_shape.Dimension replaced by its int value."""
  if isinstance(value, (list, tuple)):
    return [_dimension_values(v) for v in value]
  return value.value if isinstance(value, tensor_shape.Dimension) else value


def _is_text(leaf):
  return isinstance(leaf, (str, bytes))


def _is_number(leaf):
  return isinstance(leaf, (numbers.Number, np.generic)) and not _is_text(leaf)


def _check_leaves(array):
  """TF's ValueErrors for a Python sequence (as an object array) whose leaves are not all
  strings or all numbers: the first leaf fixes the kind; None or another object is invalid."""
  flat = array.reshape(-1)
  if not flat.size:
    return
  first = flat[0]
  if not (_is_text(first) or _is_number(first)):
    raise ValueError("Attempt to convert a value (%r) with an unsupported type (%s) to a Tensor."
                     % (first, type(first)))
  same_kind = _is_text if _is_text(first) else _is_number
  if not all(same_kind(leaf) for leaf in flat):
    raise ValueError("Can't convert Python sequence with mixed types to Tensor.")


def _infer_numpy(value):
  """TF's inference for Python values: int -> int32 (int64 if too big), float -> float32."""
  if isinstance(value, np.ndarray):
    if value.dtype.kind in "OSU":  # NumPy strings (str encoded) are a string tensor's values
      return _object_array_as_strings(value.astype(object))
    return value
  if isinstance(value, np.generic):
    return np.asarray(value)
  if isinstance(value, (str, bytes)):
    return np.array(value.encode() if isinstance(value, str) else value, dtype=object)
  try:
    array = np.asarray(value)
  except ValueError as e:
    raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from e
  kind = array.dtype.kind
  if kind == "O" and _has_dimensions(value):  # TF reads a Dimension in a list as its int
    return _infer_numpy(_dimension_values(value))
  if kind == "O" and any(type(v) is int and not -2**63 <= v < 2**64 for v in np.ravel(array)):
    raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
  if kind == "f":
    return array.astype(np.float32)
  if kind in "iu":
    if array.size and (array.min() < _INT32.min or array.max() > _INT32.max):
      return array.astype(np.int64)
    return array.astype(np.int32)
  if kind in "OSU":
    if kind in "SU":  # fixed-width NumPy strings drop trailing NULs: keep the Python objects
      array = np.array(value, dtype=object)
    _check_leaves(array)
    return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                        otypes=[object])(array)
  return array


def _object_array_as_strings(array):
  """A NumPy object array as a string tensor's values (str encoded), as TF converts it."""
  def element(item):
    if isinstance(item, bytes):
      return item
    if isinstance(item, str):
      return item.encode()
    raise ValueError("Failed to convert a NumPy array to a Tensor (Unsupported object type "
                     "%s)." % type(item).__name__)
  return np.vectorize(element, otypes=[object])(array) if array.size else array


def _has_floats(value):
  if isinstance(value, (list, tuple)):
    return any(_has_floats(v) for v in value)
  return isinstance(value, (float, np.floating, complex, np.complexfloating))


def _to_numpy(value, dtype):
  """A NumPy array of `value` (Python/NumPy, no Tensors) with TF's dtype rules."""
  if dtype is None:
    return _infer_numpy(value)
  if dtype is dtypes.string:
    array = _infer_numpy(value)
    if array.dtype != object and array.size == 0:  # `tf.constant([], tf.string)`
      return np.empty(array.shape, dtype=object)
    if array.dtype != object:
      raise TypeError("Cannot convert %r to EagerTensor of dtype string" % (value,))
    return array
  np_dtype = dtype.as_numpy_dtype
  if not isinstance(value, (np.ndarray, np.generic)):
    array = np.asarray(value)
    if array.dtype.kind == "O" and _has_dimensions(value):
      array = np.asarray(_dimension_values(value))
    if array.dtype.kind in "OSU":
      _check_leaves(np.array(value, dtype=object))
    if (dtype.is_integer or dtype.is_bool) and _has_floats(value):
      raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))
    if dtype.is_bool and (not isinstance(value, (bool, list, tuple)) or (
        array.size and array.dtype != np.bool_)):
      raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))
    if array.dtype.kind in "OSU":
      raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))
    return array.astype(np_dtype)
  return np.asarray(value).astype(np_dtype, copy=False)


def _from_numpy(array):
  if array.dtype == object:
    return Tensor(array)
  return Tensor(device_lib.put(array))


def _pack(values, dtype):
  tensors = convert_n_to_tensor(values, dtype)
  return stack(*tensors, axis=0)


def _contains_tensor(value):
  if isinstance(value, (list, tuple)):
    return any(_contains_tensor(v) for v in value)
  return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


graph_constant = [None]  # graph_build.constant: a value converted while a graph is built


@export("convert_to_tensor")
def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
  """`tf.convert_to_tensor` with TF's dtype inference and errors (a Const in graph mode)."""
  if isinstance(value, Tensor):
    if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
      raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                       % (dtypes.as_dtype(dtype).name, value.dtype.name, value))
    return value
  keys = _ctx.traced_rng
  if keys is not None and keys.building and not hasattr(value, "_as_tensor"):
    return graph_constant[0](_convert(value, dtype, name, preferred_dtype, dtype_hint), name)
  return _convert(value, dtype, name, preferred_dtype, dtype_hint)


def _convert(value, dtype, name, preferred_dtype, dtype_hint):
  if dtype is not None:
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_quantized:  # `tf.constant([1, 2], tf.qint8)`: integers of the same width
      storage = dtypes.from_numpy(dtype.as_numpy_dtype[0])
      if isinstance(value, (list, tuple, int, bool)) and _has_floats(value):
        raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))
      return QuantizedTensor(convert_to_tensor(value, storage)._value, dtype)
  preferred_dtype = preferred_dtype or dtype_hint
  if dtype is None and preferred_dtype is not None:
    try:
      return convert_to_tensor(value, dtype=preferred_dtype)
    except (TypeError, ValueError):
      pass
  convert = getattr(value, "_as_tensor", None)
  if convert is not None:
    return convert(dtype)
  for _, base_type, fn in _conversion_functions:
    if isinstance(value, base_type):
      return fn(value, dtype=dtype, name=name, as_ref=False)
  if isinstance(value, (int, float, bool)):
    key = (type(value), value, dtype, str(value) if value == 0 else None)  # -0.0 is not 0.0
    hit = _scalar_cache.get(key)
    if hit is None:
      hit = device_lib.put(_to_numpy(value, dtype))
      if len(_scalar_cache) < 4096 and not isinstance(hit, jax.core.Tracer):
        _scalar_cache[key] = hit
    return Tensor(hit)
  if isinstance(value, jax.Array):
    if dtype is None or dtypes.from_numpy(value.dtype) is dtype:
      return Tensor(value)
    return _from_numpy(_to_numpy(np.asarray(value), dtype))
  if isinstance(value, (list, tuple)) and value and _contains_tensor(value):
    return _pack(value, dtype)
  if value is None:
    raise ValueError("Attempt to convert a value (None) with an unsupported type "
                     "(<class 'NoneType'>) to a Tensor.")
  if isinstance(value, (list, tuple, np.ndarray, np.generic, complex, str, bytes)):
    return _from_numpy(_to_numpy(value, dtype))
  if _ctx.traced_rng is None:  # eager: the EagerTensor constructor's words
    raise ValueError("Attempt to convert a value (%r) with an unsupported type (%s) to a "
                     "Tensor." % (value, type(value)))
  raise TypeError("Failed to convert object of type %s to Tensor. Contents: %s. Consider "
                  "casting elements to a supported type." % (type(value), value))


def convert_n_to_tensor(values, dtype=None):
  return [convert_to_tensor(v, dtype) for v in values]


_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def tf_type_name(dtype):
  """The name TF's C++ kernels use for a dtype in messages ("float" for float32)."""
  return _TF_TYPE_NAMES.get(dtype.name, dtype.name)


def convert_matching(*values, dtype=None, op_name="Op"):
  """Converts op inputs that must share one dtype, as TF's eager `args_to_matching` does:

  the first input that is already a Tensor (or Variable) fixes the dtype the others convert
  to; a mismatch raises TF's InvalidArgumentError naming `op_name`.
  """
  if dtype is None:  # fast path: Tensors and Variables that already share one dtype
    out, np_dtype = [], None
    for v in values:
      if type(v) is Tensor:
        tensor = v
      elif hasattr(v, "_as_tensor") and hasattr(v, "_value"):
        tensor = v._as_tensor(None)
      else:
        break
      if np_dtype is None:
        np_dtype = tensor._value.dtype
      elif tensor._value.dtype != np_dtype:
        break
      out.append(tensor)
    else:
      return out
    for v in values:
      if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
        dtype = v.dtype
        break
  out = []
  for i, v in enumerate(values):
    try:
      tensor = convert_to_tensor(v, dtype)
    except (TypeError, ValueError):
      if dtype is None:
        raise
      tensor = convert_to_tensor(v)
    if dtype is None:
      dtype = tensor.dtype
    elif tensor.dtype is not dtype:
      raise errors.invalid_argument(
          "cannot compute %s as input #%d(zero-based) was expected to be a %s tensor but is "
          "a %s tensor [Op:%s]" % (op_name, i, tf_type_name(dtype), tf_type_name(tensor.dtype),
                                   op_name))
    out.append(tensor)
  return out


@export("constant")
def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
  """`tf.constant`: a Tensor from a Python or NumPy value, reshaped or filled to `shape`
  (a Const operation in graph mode)."""
  keys = _ctx.traced_rng
  if keys is not None and keys.building and not isinstance(value, Tensor):
    return graph_constant[0](_constant(_convert(value, dtype, name, None, None), value, shape,
                                       verify_shape), name)
  return _constant(convert_to_tensor(value, dtype), value, shape, verify_shape)


def _constant(tensor, value, shape, verify_shape):
  if shape is None:
    return tensor
  shape = tuple(int(d) for d in (shape if isinstance(shape, (list, tuple)) else [shape]))
  size = int(np.prod(shape))
  if tensor.shape.num_elements() == size and (size != 1 or not verify_shape):
    return _reshape_constant(tensor, shape)
  if tensor._value.size == 1 and not verify_shape:
    return _broadcast_constant(tensor, shape)
  raise TypeError("Eager execution of tf.constant with unsupported shape. Tensor %s (converted "
                  "from %r) has %d elements, but got `shape` %s with %d elements)."
                  % (tensor.numpy(), value, tensor._value.size, shape, size))


def _reshape_constant(tensor, shape):
  value = tensor._value
  return Tensor(value.reshape(shape))


def _broadcast_constant(tensor, shape):
  value = tensor._value
  if value.dtype == object:
    return Tensor(np.broadcast_to(value.reshape(()), shape).copy())
  return Tensor(jnp.broadcast_to(value.reshape(()), shape))


@op(name="Pack")
def _stack(*values, axis):
  return jnp.stack(values, axis=axis)


def stack(*values, axis=0):
  """Stacks Tensors of one dtype and shape (used by autopacking and `tf.stack`)."""
  if values and values[0]._value.dtype == object:  # string tensors hold NumPy object arrays
    return Tensor(np.stack([v._value for v in values], axis=axis))
  return _stack(*values, axis=axis)


@op(name="Copy", jit=False)
def _copy_to_device(value, *, device):
  return jax.device_put(value, device)


def _cpu(self):
  """A copy of this tensor on the CPU."""
  return _copy_to_device(self, device=device_lib.cpu_device())


def _gpu(self, gpu_index=0):
  """A copy of this tensor on GPU `gpu_index`; RuntimeError when there is no such GPU."""
  return _copy_to_device(self, device=device_lib.gpu_device(gpu_index))


Tensor.cpu = _cpu
Tensor.gpu = _gpu


@export("is_tensor", "contrib.framework.is_tensor")
def is_tensor(x):
  return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


@export("get_static_value", "contrib.util.constant_value")
def get_static_value(tensor, partial=False):
  """A Tensor's value as NumPy (None while traced, for variables and for graph tensors whose
  value is not known while building, as TF); other values as they are."""
  if hasattr(tensor, "_op"):  # a graph tensor: its constant value, if known
    return None if tensor._const is None else np.asarray(tensor._const)
  if isinstance(tensor, Tensor):
    return None if isinstance(tensor._value, jax.core.Tracer) else tensor.numpy()
  return None if hasattr(tensor, "_as_tensor") else tensor


export("Tensor", "contrib.eager.Tensor")(Tensor)
export("newaxis")(None)
