"""`tf.Assert` and the `tf.debugging.assert_*` checks, with TF's eager error messages.

With concrete values a failed check raises `InvalidArgumentError` at once (shape, rank and
dtype checks raise ValueError / TypeError, as TF's static checks do). With traced values
(inside `tf.function`) the check is staged with `jax.debug.callback` and raises when the
compiled computation runs (JAX reports it as a `JaxRuntimeError` carrying TF's message).
"""
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import math_ops
from tfe_compat.ops.control_flow_ops import is_traced
from tfe_compat.ops.logging_ops import stage, summarize_v1


def _tensor(x, dtype=None):
  if hasattr(x, "_as_tensor"):
    x = x._as_tensor(None)
  return ops.convert_to_tensor(x, dtype=dtype)


def _summarize_eager(array, summarize):
  """One data item of an eager `tf.Assert` message (TF's `_summarize_eager`)."""
  summarize = 3 if summarize is None else (array.size if summarize < 0 else summarize)
  if array.ndim:
    flat = array.reshape(-1)
    items = [str(v) for v in flat[:summarize]]
    if len(items) < flat.size:
      items.append("...")
  else:
    items = [str(array[()])] if summarize else []
  return ", ".join(items)


@export("Assert", "debugging.Assert")
def Assert(condition, data, summarize=None, name=None):  # pylint: disable=invalid-name
  """`tf.Assert`: raises InvalidArgumentError with `data` summarized when `condition` is false."""
  if hasattr(condition, "_as_tensor"):
    condition = condition._as_tensor(None)
  xs = [_tensor(x) for x in data]
  if not is_traced(condition) and not any(is_traced(x) for x in xs):
    if not condition:
      raise errors.invalid_argument(
          "Expected '%s' to be true. Summarized data: %s"
          % (condition, "\n".join(_summarize_eager(np.asarray(x._value), summarize)
                                  for x in xs)))
    return None
  if not is_traced(condition) and condition:
    return None

  def check(arrays):
    if not arrays[0]:
      raise errors.invalid_argument("assertion failed: " + " ".join(
          "[%s]" % summarize_v1(a, summarize) for a in arrays[1:]))
  stage([_tensor(condition, dtypes.bool)] + xs, check)
  return None


# ---- Elementwise comparisons ----
def _pretty(item, summarize):
  """TF's `_pretty_print` of one message item: ("tensor", array) pairs, or plain values."""
  if isinstance(item, tuple) and len(item) == 2 and item[0] is _TENSOR:
    array = item[1]
    if array.ndim == 0:
      return str(array[()])
    flat = array.reshape(-1)
    items = [str(v) for v in flat[:summarize]]
    if len(items) < flat.size:
      items.append("...")
    return str(items)
  return str(item)


_TENSOR = object()


def _default_data(sym, x, y, summarize, test):
  """TF's `_make_assert_msg_data` on NumPy values."""
  data = ["Condition x %s y did not hold." % sym]
  if summarize > 0:
    if x.shape == y.shape and x.shape:
      mask = np.logical_not(test)
      indices = np.argwhere(mask)
      num = min(summarize, indices.shape[0])
      data += ["Indices of first %d different values:" % num, indices[:num],
               "Corresponding x values:", x[mask].reshape(-1)[:num],
               "Corresponding y values:", y[mask].reshape(-1)[:num]]
    x_flat, y_flat = x.reshape(-1), y.reshape(-1)
    x_sum, y_sum = min(x_flat.size, summarize), min(y_flat.size, summarize)
    data += ["First %d elements of x:" % x_sum, x_flat[:x_sum],
             "First %d elements of y:" % y_sum, y_flat[:y_sum]]
  return data


def _binary_assert(sym, op_name, np_test, x, y, data, summarize, message):
  if x is y:
    return None
  x, y = _tensor(x), _tensor(y)
  if x.dtype is not y.dtype:
    raise errors.invalid_argument(
        "cannot compute %s as input #1(zero-based) was expected to be a %s tensor but is a %s "
        "tensor [Op:%s]" % (op_name, ops.tf_type_name(x.dtype), ops.tf_type_name(y.dtype),
                            op_name))
  try:
    np.broadcast_shapes(x._value.shape, y._value.shape)
  except ValueError:
    raise errors.invalid_argument("%s [Op:%s]" % (ops.broadcast_error(x, y), op_name)) from None
  summarize = 3 if summarize is None else (10**9 if summarize < 0 else summarize)
  given = None if data is None else [_tensor(d) if isinstance(d, Tensor) or hasattr(
      d, "_as_tensor") else d for d in data]
  tensors = [x, y] + [d for d in (given or []) if isinstance(d, Tensor)]

  def check(arrays):
    xa, ya = arrays[0], arrays[1]
    test = np.asarray(np_test(xa, ya), dtype=bool)
    if test.all():
      return
    found = iter(arrays[2:])
    items = (_default_data(sym, xa, ya, summarize, test) if given is None else
             [(_TENSOR, next(found)) if isinstance(d, Tensor) else d for d in given])
    if message is not None:
      items = [message] + list(items)
    raise errors.invalid_argument("\n".join(_pretty(d, summarize) for d in items))

  if any(is_traced(t) for t in tensors):
    stage(tensors, check)
  else:
    check([np.asarray(t._value) for t in tensors])
  return None


def _binary(sym, tf_op, np_test, names):
  def assert_fn(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert(sym, tf_op, np_test, x, y, data, summarize, message)
  assert_fn.__name__ = names[0].split(".")[-1]
  assert_fn.__doc__ = "`tf.%s`: raises InvalidArgumentError unless `x %s y` everywhere." % (
      names[0], sym)
  return export(*names)(assert_fn)


assert_equal = _binary("==", "Equal", np.equal, ("assert_equal", "debugging.assert_equal"))
assert_none_equal = _binary("!=", "NotEqual", np.not_equal,
                            ("assert_none_equal", "debugging.assert_none_equal"))
assert_less = _binary("<", "Less", np.less, ("assert_less", "debugging.assert_less"))
assert_less_equal = _binary("<=", "LessEqual", np.less_equal,
                            ("assert_less_equal", "debugging.assert_less_equal"))
assert_greater = _binary(">", "Greater", np.greater,
                         ("assert_greater", "debugging.assert_greater"))
assert_greater_equal = _binary(">=", "GreaterEqual", np.greater_equal,
                               ("assert_greater_equal", "debugging.assert_greater_equal"))


def _prefix(message):
  return "%s.  " % message if message else ""


def _shape_dtype(x):
  return "shape=%s dtype=%s" % (x.shape, x.dtype.name)


def _unary(condition_text, compare, zero_first, names):
  def assert_fn(x, data=None, summarize=None, message=None, name=None):
    x = _tensor(x)
    if data is None:
      data = [_prefix(message), condition_text, "x (%s) = " % _shape_dtype(x), x]
    zero = ops.convert_to_tensor(0, dtype=x.dtype)
    return compare(zero, x, data=data, summarize=summarize) if zero_first else compare(
        x, zero, data=data, summarize=summarize)
  assert_fn.__name__ = names[0]
  assert_fn.__doc__ = "`tf.%s`: raises InvalidArgumentError unless the condition holds." % (
      names[0])
  return export(*names)(assert_fn)


assert_positive = _unary("Condition x > 0 did not hold element-wise:", assert_less, True,
                         ("assert_positive", "debugging.assert_positive"))
assert_negative = _unary("Condition x < 0 did not hold element-wise:", assert_less, False,
                         ("assert_negative", "debugging.assert_negative"))
assert_non_negative = _unary("Condition x >= 0 did not hold element-wise:", assert_less_equal,
                             True, ("assert_non_negative", "debugging.assert_non_negative"))


@export("assert_non_positive", "debugging.assert_non_positive")
def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
  """`tf.assert_non_positive`: x <= 0 everywhere (TF's message lacks one line break)."""
  x = _tensor(x)
  if data is None:
    data = [_prefix(message),
            "Condition x <= 0 did not hold element-wise:x (%s) = " % _shape_dtype(x), x]
  return assert_less_equal(x, ops.convert_to_tensor(0, dtype=x.dtype), data=data,
                           summarize=summarize)


@export("assert_near", "debugging.assert_near")
def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None,
                name=None):
  """`tf.assert_near`: |x - y| < atol + rtol * |y| everywhere."""
  message = _prefix(message)
  x = _tensor(x)
  y = _tensor(y, x.dtype)
  real = np.finfo(x.dtype.as_numpy_dtype).dtype
  eps = np.finfo(real).eps
  rtol = ops.convert_to_tensor(10 * eps if rtol is None else rtol, dtype=dtypes.as_dtype(real))
  atol = ops.convert_to_tensor(10 * eps if atol is None else atol, dtype=dtypes.as_dtype(real))
  if data is None:
    data = [message, "x and y not equal to tolerance rtol = %s, atol = %s" % (rtol, atol),
            "x (%s) = " % _shape_dtype(x), x, "y (%s) = " % _shape_dtype(y), y]
  condition = _near(x, y, rtol, atol)
  return Assert(condition, data, summarize=summarize)


@ops.op(name="All", differentiable=False)
def _near(x, y, rtol, atol):
  return jnp.all(jnp.abs(x - y) < atol + rtol * jnp.abs(y))


# ---- Static checks (shapes and dtypes are known eagerly and when traced) ----
def _rank_value(rank):
  rank = _tensor(rank)
  if rank.dtype is not dtypes.int32:
    raise TypeError("tensor must be of type tf.int32; got tf.%s" % rank.dtype.name)
  if is_traced(rank):
    raise NotImplementedError("assert_rank with a traced rank tensor is not supported")
  value = np.asarray(rank._value)
  if value.ndim:
    raise ValueError("Rank must be a scalar.")
  return int(value)


@export("assert_rank", "debugging.assert_rank")
def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
  """`tf.assert_rank`: ValueError unless `x` has rank `rank`."""
  x = _tensor(x)
  rank = _rank_value(rank)
  if x._value.ndim != rank:
    raise ValueError("%sTensor  must have rank %d.  Received rank %d, shape %s"
                     % (_prefix(message), rank, x._value.ndim, x.shape))


@export("assert_rank_at_least", "debugging.assert_rank_at_least")
def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
  """`tf.assert_rank_at_least`: ValueError unless `x` has rank >= `rank`."""
  x = _tensor(x)
  rank = _rank_value(rank)
  if x._value.ndim < rank:
    raise ValueError("%sTensor  must have rank at least %d.  Received rank %d, shape %s"
                     % (_prefix(message), rank, x._value.ndim, x.shape))


@export("assert_rank_in", "debugging.assert_rank_in")
def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
  """`tf.assert_rank_in`: ValueError unless the rank of `x` is one of `ranks`."""
  x = _tensor(x)
  ranks = tuple(_rank_value(r) for r in ranks)
  if x._value.ndim not in ranks:
    raise ValueError("%sTensor  must have rank in %s.  Received rank %d, shape %s"
                     % (_prefix(message), ranks, x._value.ndim, x.shape))


@export("assert_type", "debugging.assert_type")
def assert_type(tensor, tf_type, message=None, name=None):
  """`tf.assert_type`: TypeError unless `tensor` has dtype `tf_type`."""
  tf_type = dtypes.as_dtype(tf_type)
  tensor = _tensor(tensor)
  if tensor.dtype is not tf_type:
    raise TypeError("%stensor must be of type tf.%s; got tf.%s"
                    % (_prefix(message), tf_type.name, tensor.dtype.name))


@export("assert_integer", "debugging.assert_integer")
def assert_integer(x, message=None, name=None):
  """`tf.assert_integer`: TypeError unless `x` has an integer dtype."""
  x = _tensor(x)
  if not x.dtype.is_integer:
    raise TypeError("%sExpected \"x\" to be integer type.  Found: tensor of dtype <dtype: '%s'>"
                    % (_prefix(message), x.dtype.name))


@export("assert_scalar", "debugging.assert_scalar")
def assert_scalar(tensor, name=None, message=None):
  """`tf.assert_scalar`: returns `tensor`; ValueError unless it is a scalar."""
  tensor = _tensor(tensor)
  if tensor._value.ndim:
    raise ValueError("%sExpected scalar shape, saw shape: %s." % (_prefix(message),
                                                                  tensor.shape))
  return tensor


@export("assert_proper_iterable", "debugging.assert_proper_iterable")
def assert_proper_iterable(values):
  """`tf.assert_proper_iterable`: TypeError for tensors, arrays, strings and non-iterables."""
  if isinstance(values, (Tensor, np.ndarray, str, bytes)) or hasattr(values, "_as_tensor"):
    raise TypeError("Expected argument \"values\" to be a \"proper\" iterable.  Found: %s"
                    % type(values))
  if not hasattr(values, "__iter__"):
    raise TypeError("Expected argument \"values\" to be iterable.  Found: %s" % type(values))


@export("is_numeric_tensor", "debugging.is_numeric_tensor")
def is_numeric_tensor(tensor):
  """`tf.is_numeric_tensor`: a Tensor of a numeric dtype."""
  return isinstance(tensor, Tensor) and tensor.dtype.name not in ("string", "bool", "resource",
                                                                    "variant")


# ---- NaN / Inf checks ----
_NUMERICS_TYPES = ("bfloat16", "float16", "float32", "float64")


@export("debugging.check_numerics", "check_numerics")
def check_numerics(tensor, message, name=None):
  """`tf.check_numerics`: `tensor` unchanged; InvalidArgumentError if it has a NaN or an Inf."""
  x = _tensor(tensor)
  if x.dtype.name not in _NUMERICS_TYPES:
    raise errors.invalid_argument(
        "Value for attr 'T' of %s is not in the list of allowed values: bfloat16, half, float, "
        "double\n\t; NodeDef: {{node CheckNumerics}}; Op<name=CheckNumerics; signature=tensor:T"
        " -> output:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE]; "
        "attr=message:string; is_stateful=true> [Op:CheckNumerics]" % ops.tf_type_name(x.dtype))

  def check(arrays):
    values = arrays[0].astype(np.float32) if arrays[0].dtype.itemsize < 4 else arrays[0]
    nan, inf = bool(np.isnan(values).any()), bool(np.isinf(values).any())
    if nan or inf:
      found = "Inf and NaN" if nan and inf else ("NaN" if nan else "Inf")
      raise errors.invalid_argument("%s : Tensor had %s values [Op:CheckNumerics]"
                                    % (message, found))
  if is_traced(x):
    stage([x], check)
  else:
    check([np.asarray(x._value)])
  return x


@export("debugging.assert_all_finite", "verify_tensor_all_finite")
def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
  """`tf.verify_tensor_all_finite` (`x` / `message` are the new names of `t` / `msg`)."""
  return check_numerics(t if x is None else x, msg if message is None else message)


export("debugging.is_nan")(math_ops.is_nan)
export("debugging.is_inf")(math_ops.is_inf)
export("debugging.is_finite")(math_ops.is_finite)


def _shape_and_dtype(tensor):
  return "shape=%s dtype=%s" % (tensor.shape, tensor.dtype.name)


@export("debugging.assert_shapes", "assert_shapes")
def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
  """`tf.debugging.assert_shapes`: ValueError unless every (tensor, shape) pair agrees with
  its shape and with the sizes the same symbol ('N', ...) takes elsewhere. A shape is a
  sequence of ints, symbols, '.' or None (any size), led by '...' or '*' for any number of
  outer dimensions; a scalar counts as shape (1,)."""
  if isinstance(shapes, dict):
    shapes = shapes.items()
  message = message or ""
  checked = []
  for x, spec in shapes:
    if spec is None:
      continue
    x = _tensor(x)
    if not (hasattr(spec, "__iter__") or hasattr(spec, "__getitem__")):
      raise ValueError("%s.  Tensor %s.  Specified shape must be an iterable.  An iterable has "
                       "the attribute `__iter__` or `__getitem__`.  Received specified shape: "
                       "%s" % (message, _shape_and_dtype(x), spec))
    spec = tuple(spec)
    for i, symbol in enumerate(spec):
      if symbol in (Ellipsis, "*") and i != 0:
        raise ValueError("%s.  Tensor %s specified shape index %d.  Symbol `...` or `*` for a "
                         "variable number of unspecified dimensions is only allowed as the "
                         "first entry" % (message, _shape_and_dtype(x), i))
    open_outer = bool(spec) and spec[0] in (Ellipsis, "*")
    symbols = (spec[1:] if open_outer else spec) or (1,)
    sizes = tuple(x._value.shape) or (1,)
    checked.append((x, open_outer, sizes, symbols))
  for x, open_outer, _, symbols in checked:
    rank = len(symbols)
    if open_outer:
      if rank > 1:
        assert_rank_at_least(x, rank, message=message)
    elif rank == 1:
      assert_rank_in(x, [0, 1], message=message)
    else:
      assert_rank(x, rank, message=message)
  specified = {}
  for x, open_outer, sizes, symbols in checked:
    for i, symbol in enumerate(symbols):
      if symbol in (None, "."):
        continue
      dim = i - len(symbols) if open_outer else i
      actual = sizes[dim]
      if isinstance(symbol, (int, np.integer)) or str(symbol).isdigit():
        expected, how = int(symbol), "Specified explicitly"
      elif symbol in specified:
        expected, by, at = specified[symbol]
        how = "Specified by tensor %s dimension %d" % (_shape_and_dtype(by), at)
      else:
        specified[symbol] = (actual, x, dim)
        continue
      if actual != expected:
        raise ValueError("%s.  %s.  Tensor %s dimension %s must have size %d.  Received size "
                         "%d, shape %s" % (message, how, _shape_and_dtype(x), dim, expected,
                                           actual, x.shape))


@export("debugging.assert_same_float_dtype", "assert_same_float_dtype")
def assert_same_float_dtype(tensors=None, dtype=None):
  """The floating dtype shared by `tensors` (and `dtype`); float32 when neither is given."""
  dtype = dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
  first = None
  for item in tensors or ():
    if item is None:
      continue
    item_type = item.dtype.base_dtype
    if dtype is None:
      dtype, first = item_type, item
    elif item_type != dtype:
      raise ValueError("%s, type=%s, must be of the same type (%s)%s." % (
          getattr(item, "name", item), item_type, dtype,
          " as %s" % getattr(first, "name", first) if first is not None else ""))
  if dtype is None:
    return dtypes.float32
  if not dtype.is_floating:
    raise ValueError("Expected floating point type, got %s." % dtype)
  return dtype


@export("add_check_numerics_ops")
def add_check_numerics_ops():
  """Graph-mode only, as in TF: raises under eager execution."""
  raise RuntimeError("add_check_numerics_ops() is not compatible with eager execution. To check "
                     "for Inf's and NaN's under eager execution, call "
                     "tfe.seterr(inf_or_nan='raise') once before executing the checked "
                     "operations.")
