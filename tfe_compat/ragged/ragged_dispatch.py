"""Elementwise ops on RaggedTensors (TF 1.15 ragged_dispatch / ragged_operators): TF's lists
of unary, list and binary elementwise ops dispatch here, mapping the op over flat_values
(binary ops broadcast ragged shapes first), and RaggedTensor gets its Python operators."""
import inspect

import numpy as np

from tfe_compat.framework import dispatch
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.ops import (array_ops, check_ops, math_ops, matmul_cast_ops, reduction_ops,
                            string_hash_ops, string_ops)
from tfe_compat.ragged.ragged_array_ops import assert_splits_match, nested_splits_np
from tfe_compat.ragged.ragged_tensor import (RaggedTensor, convert_to_tensor_or_ragged_tensor,
                                             gather_rows, is_ragged)


def _first_arg(args, kwargs, names):
  """(value of op's first parameter, remaining args, remaining kwargs)."""
  if args:
    return args[0], args[1:], kwargs
  kwargs = dict(kwargs)
  for name in names:
    if name in kwargs:
      return kwargs.pop(name), args, kwargs
  return None, args, kwargs


def unary_handler(op, arg_is_list=False):
  """TF's UnaryRaggedElementwiseDispatcher: `op` mapped over flat_values."""
  names = [p for p in inspect.signature(op).parameters][:1] + ["input"]

  def handle(*args, **kwargs):
    x, args, kwargs = _first_arg(args, kwargs, names)
    if arg_is_list:
      if not isinstance(x, (list, tuple)) or not any(is_ragged(v) for v in x):
        return dispatch.NOT_SUPPORTED
      x = [convert_to_tensor_or_ragged_tensor(v) for v in x]
      ragged = [v for v in x if isinstance(v, RaggedTensor)]
      assert_splits_match([nested_splits_np(v) for v in ragged])
      flat = [v.flat_values if isinstance(v, RaggedTensor) else v for v in x]
      return ragged[0].with_flat_values(op(flat, *args, **kwargs))
    if not is_ragged(x):
      return dispatch.NOT_SUPPORTED
    x = convert_to_tensor_or_ragged_tensor(x)
    return x.with_flat_values(op(x.flat_values, *args, **kwargs))
  return handle


def binary_handler(op):
  """TF's BinaryRaggedElementwiseDispatcher: `op` on flat_values, ragged shapes broadcast."""
  x_name, y_name = list(inspect.signature(op).parameters)[:2]

  def handle(*args, **kwargs):
    kwargs = dict(kwargs)
    x = args[0] if args else kwargs.pop(x_name, None)
    y = args[1] if len(args) > 1 else kwargs.pop(y_name, None)
    if not (is_ragged(x) or is_ragged(y)):
      return dispatch.NOT_SUPPORTED
    return elementwise(op, x, y, *args[2:], **kwargs)
  return handle


def elementwise(op, x, y, *args, **kwargs):
  """`op(x, y)` where x or y is ragged: the result has the broadcast ragged shape."""
  try:
    if is_ragged(x):
      x = convert_to_tensor_or_ragged_tensor(x)
    else:
      x = convert_to_tensor(x, preferred_dtype=y.dtype)
    if is_ragged(y):
      y = convert_to_tensor_or_ragged_tensor(y)
    else:
      y = convert_to_tensor(y, preferred_dtype=x.dtype)
  except (TypeError, ValueError):
    return dispatch.NOT_SUPPORTED
  ragged = x if isinstance(x, RaggedTensor) else y
  if not (isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor)):
    other = y if ragged is x else x
    if ragged.flat_values.shape.ndims > other.shape.ndims:  # `other` broadcasts to flat_values
      xv = x.flat_values if ragged is x else x
      yv = y.flat_values if ragged is y else y
      return ragged.with_flat_values(op(xv, yv, *args, **kwargs))
  elif _same_partitions(x, y):
    return x.with_flat_values(op(x.flat_values, y.flat_values, *args, **kwargs))
  xv, yv, template = _broadcast(x, y)
  return template.with_flat_values(op(xv, yv, *args, **kwargs))


def _same_partitions(x, y):
  xs, ys = nested_splits_np(x), nested_splits_np(y)
  return len(xs) == len(ys) and all(np.array_equal(a, b) for a, b in zip(xs, ys))


# ---- Ragged broadcasting ----
class _Operand:
  """A value seen as `nrows` rows, then partitioned levels (splits, uniform?), then the rows
  of `flat` (whose inner dimensions the op itself broadcasts)."""

  def __init__(self, value, rank):
    if isinstance(value, RaggedTensor):
      self.levels = [(s, False) for s in nested_splits_np(value)]
      self.flat, self.nrows = value.flat_values, value.nrows_np()
      pad = rank - value.shape.ndims
    else:
      pad = rank - value.shape.ndims
      self.flat = array_ops.reshape(value, (1,) * pad + tuple(value._value.shape))
      self.levels, self.nrows, pad = [], self.flat._value.shape[0], 0
    for _ in range(pad):
      self.levels.insert(0, (np.array([0, self.nrows]), True))
      self.nrows = 1

  def partition(self, count):
    """Turns outer dimensions of `flat` into uniform levels until there are `count`."""
    while len(self.levels) < count:
      dims = tuple(self.flat._value.shape)
      self.levels.append((np.arange(dims[0] + 1) * dims[1], True))
      self.flat = array_ops.reshape(self.flat, (dims[0] * dims[1],) + dims[2:])


def _broadcast(x, y):
  """x and y broadcast to one ragged shape: (x rows, y rows, a RaggedTensor of that shape)."""
  rank = max(x.shape.ndims, y.shape.ndims)
  ops_ = [_Operand(v, rank) for v in (x, y)]
  count = max(len(o.levels) for o, v in zip(ops_, (x, y)) if isinstance(v, RaggedTensor))
  for o in ops_:
    o.partition(count)
  nrows = max(o.nrows for o in ops_)
  if any(o.nrows not in (1, nrows) for o in ops_):
    check_ops.assert_equal(np.array(ops_[0].nrows), np.array(ops_[1].nrows))
  sources = [np.zeros(nrows, np.int64) if o.nrows == 1 else np.arange(nrows) for o in ops_]
  out_splits = []
  for level in range(count):
    (xs, xu), (ys, yu) = ops_[0].levels[level], ops_[1].levels[level]
    x_len, y_len = np.diff(xs)[sources[0]], np.diff(ys)[sources[1]]
    x_one, y_one = xu and np.all(x_len == 1), yu and np.all(y_len == 1)
    if x_one and not y_one:
      lengths = y_len
    elif y_one or np.array_equal(x_len, y_len):
      lengths = x_len
    else:
      first, second = (y_len, x_len) if yu and not xu else (x_len, y_len)
      check_ops.assert_equal(np.concatenate([[0], np.cumsum(first)]),
                             np.concatenate([[0], np.cumsum(second)]))
    splits = np.concatenate([[0], np.cumsum(lengths)])
    positions = np.arange(splits[-1]) - np.repeat(splits[:-1], lengths)
    new_sources = []
    for (s, _), src, one in ((ops_[0].levels[level], sources[0], x_one and not y_one),
                             (ops_[1].levels[level], sources[1], y_one)):
      starts = np.repeat(s[:-1][src], lengths)
      new_sources.append(starts if one else starts + positions)
    sources = new_sources
    out_splits.append(splits)
  values = [o.flat if np.array_equal(src, np.arange(o.flat._value.shape[0]))
            else gather_rows(o.flat, src) for o, src in zip(ops_, sources)]
  template = values[0]
  dtype = (x if isinstance(x, RaggedTensor) else y).row_splits.dtype
  for splits in reversed(out_splits):
    template = RaggedTensor._from_splits(template, splits, dtype)
  return values[0], values[1], template


# ---- TF 1.15's lists of dispatching ops ----
_UNARY = [
    array_ops.identity, array_ops.ones_like, array_ops.zeros_like, check_ops.check_numerics,
    reduction_ops.clip_by_value, math_ops.abs, math_ops.acos, math_ops.acosh, math_ops.angle,
    math_ops.asin, math_ops.asinh, math_ops.atan, math_ops.atanh, matmul_cast_ops.cast,
    math_ops.ceil, math_ops.conj, math_ops.cos, math_ops.cosh, math_ops.digamma, math_ops.erf,
    math_ops.erfc, math_ops.exp, math_ops.expm1, math_ops.floor, math_ops.imag,
    math_ops.is_finite, math_ops.is_inf, math_ops.is_nan, math_ops.lgamma, math_ops.log,
    math_ops.log1p, math_ops.log_sigmoid, math_ops.logical_not, math_ops.negative,
    math_ops.real, math_ops.reciprocal, math_ops.rint, math_ops.round, math_ops.rsqrt,
    matmul_cast_ops.saturate_cast, math_ops.sign, math_ops.sin, math_ops.sinh, math_ops.sqrt,
    math_ops.square, math_ops.tan, string_ops.string_to_number, string_ops.as_string,
    string_ops.decode_base64, string_ops.encode_base64, string_ops.regex_full_match,
    string_ops.regex_replace, string_ops.string_strip, string_ops.substr,
    string_ops.string_length, string_hash_ops.string_to_hash_bucket,
    string_hash_ops.string_to_hash_bucket_fast, string_hash_ops.string_to_hash_bucket_strong]
_UNARY_LIST = [reduction_ops.add_n, string_ops.string_join]
_BINARY = [
    math_ops.add, math_ops.atan2, math_ops.complex, math_ops.div_no_nan, math_ops.divide,
    math_ops.equal, math_ops.floordiv, math_ops.floormod, math_ops.greater,
    math_ops.greater_equal, math_ops.less, math_ops.less_equal, math_ops.logical_and,
    math_ops.logical_or, math_ops.logical_xor, math_ops.maximum, math_ops.minimum,
    math_ops.multiply, math_ops.not_equal, math_ops.pow, math_ops.realdiv,
    math_ops.squared_difference, math_ops.subtract, math_ops.truediv, math_ops.truncatediv,
    math_ops.truncatemod]

for _op in _UNARY:
  dispatch.register(_op, unary_handler(_op))
for _op in _UNARY_LIST:
  dispatch.register(_op, unary_handler(_op, arg_is_list=True))
for _op in _BINARY:
  dispatch.register(_op, binary_handler(_op))


# ---- Python operators (TF's ragged_operators.py) ----
def _operator(op, reflected=False):
  handle = binary_handler(op)

  def operator(self, other):
    result = handle(other, self) if reflected else handle(self, other)
    return NotImplemented if result is dispatch.NOT_SUPPORTED else result
  return operator


def _unary_operator(op):
  handle = unary_handler(op)
  return lambda self: handle(self)


for _name, _op in [("add", math_ops.add), ("sub", math_ops.subtract),
                   ("mul", math_ops.multiply), ("truediv", math_ops.truediv),
                   ("floordiv", math_ops.floordiv), ("mod", math_ops.floormod),
                   ("pow", math_ops.pow), ("and", math_ops.logical_and),
                   ("or", math_ops.logical_or), ("xor", math_ops.logical_xor)]:
  setattr(RaggedTensor, "__%s__" % _name, _operator(_op))
  setattr(RaggedTensor, "__r%s__" % _name, _operator(_op, reflected=True))
for _name, _op in [("lt", math_ops.less), ("le", math_ops.less_equal),
                   ("gt", math_ops.greater), ("ge", math_ops.greater_equal)]:
  setattr(RaggedTensor, "__%s__" % _name, _operator(_op))
RaggedTensor.__neg__ = _unary_operator(math_ops.negative)
RaggedTensor.__abs__ = _unary_operator(math_ops.abs)
RaggedTensor.__invert__ = _unary_operator(math_ops.logical_not)
