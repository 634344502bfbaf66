"""Helpers the distribution families share: TF's parameter and value checks
(`distribution_util` in TF), seeds for the sampling ops, and the export names."""
import hashlib

import jax
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import array_ops
from tfe_compat.ops import check_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops import matmul_cast_ops
from tfe_compat.ops import nn_ops
from tfe_compat.ops import reduction_ops


def exported(name, contrib_only=False):
  """Exports under `tf.distributions` and `tf.contrib.distributions` (TF 1.15 has both)."""
  names = ["contrib.distributions." + name]
  if not contrib_only:
    names.append("distributions." + name)
  return export(*names)


def param(value, dtype=None):
  """A parameter as TF's `identity` / `convert_to_tensor` sees it (Variables are read)."""
  return ops.convert_to_tensor(value, dtype=dtype)


def same_float_dtype(tensors, dtype=None):
  """TF's `check_ops.assert_same_float_dtype`: the common floating dtype, else ValueError."""
  expected = dtype
  for item in tensors:
    if expected is None:
      expected = item.dtype
    elif item.dtype is not expected:
      first = "" if dtype is not None else " as %s" % tensors[0]
      raise ValueError("%s, type=%s, must be of the same type (%s)%s."
                       % (item, item.dtype, expected, first))
  expected = expected or dtypes.float32
  if not expected.is_floating:
    raise ValueError("Expected floating point type, got %s." % expected)
  return expected


def check_operands(op_name, a, b):
  """The input checks of TF's binary op `op_name(a, b)`: equal dtypes, broadcastable shapes."""
  if a.dtype is not b.dtype:
    raise errors.invalid_argument(
        "cannot compute %s as input #1(zero-based) was expected to be a %s tensor but is a %s "
        "tensor [Op:%s]" % (op_name, ops.tf_type_name(a.dtype), ops.tf_type_name(b.dtype),
                            op_name))
  try:
    np.broadcast_shapes(a._shape_tuple(), b._shape_tuple())
  except ValueError:
    raise errors.invalid_argument("%s [Op:%s]" % (ops.broadcast_error(a, b), op_name)) from None


def broadcast_shape(*tensors):
  """The static broadcast of the tensors' shapes (TF's `broadcast_static_shape`)."""
  shapes = [t._shape_tuple() for t in tensors]
  try:
    return tensor_shape.TensorShape(np.broadcast_shapes(*shapes))
  except ValueError:
    raise ValueError("Incompatible shapes for broadcasting: %s" % " and ".join(
        str(tensor_shape.TensorShape(s)) for s in shapes)) from None


def require_above_one(values, message):
  """allow_nan_stats=False: TF's `assert_less(1, values)`, raising `message` if violated."""
  check_ops.assert_less(array_ops.ones([], dtype=values.dtype), values, message=message)


def gen_new_seed(seed, salt):
  """TF's `distribution_util.gen_new_seed`: a derived op seed (None stays None)."""
  if seed is None:
    return None
  return int(hashlib.md5((str(seed) + salt).encode("utf-8")).hexdigest()[:8], 16) & 0x7FFFFFFF


def concrete(tensor):
  """The NumPy value of an eager Tensor, or None while tracing (tf.function)."""
  value = tensor._value
  return None if isinstance(value, jax.core.Tracer) else np.asarray(value)


def rng_key(seed):
  """A fresh key for one of TF's random ops, by TF's seeding rules (`tf.set_random_seed`)."""
  return Tensor(context.next_rng_key(seed))


# ---- TF's distribution_util checks ----
def _largest_integer(dtype):
  if dtype.is_floating:
    return int(2**(np.finfo(dtype.as_numpy_dtype).nmant + 1))
  if dtype.is_integer:
    return int(np.iinfo(dtype.as_numpy_dtype).max)
  if dtype is dtypes.bool:
    return 1
  raise TypeError("Unrecognized dtype: %s" % dtype.name)


def _integer_like(dtype):
  return dtype.is_integer or dtype is dtypes.bool


def assert_integer_form(x, message):
  """x has no fractional components (nothing to check for integer dtypes)."""
  if x.dtype.is_integer:
    return
  int_dtype = {dtypes.float16: dtypes.int16, dtypes.float32: dtypes.int32,
               dtypes.float64: dtypes.int64}.get(x.dtype)
  if int_dtype is None:
    raise TypeError("Unrecognized type %s" % x.dtype.name)
  as_int = matmul_cast_ops.cast(x, int_dtype)
  check_ops.assert_equal(x, matmul_cast_ops.cast(as_int, x.dtype), message=message)


def check_nonnegative_integer_form(x):
  """TF's `embed_check_nonnegative_integer_form`."""
  check_ops.assert_non_negative(x, message="'{}' must be non-negative.".format(x))
  if not x.dtype.is_integer:
    assert_integer_form(x, "'{}' cannot contain fractional components.".format(x))
  return x


def check_integer_casting_closed(x, target_dtype):
  """TF's `embed_check_integer_casting_closed` (with assert_nonnegative=True)."""
  if not _integer_like(x.dtype) and not x.dtype.is_floating:
    raise TypeError("%s.dtype must be floating- or integer-type." % x.dtype.name)
  if not _integer_like(x.dtype) and not _integer_like(target_dtype):
    raise TypeError("At least one of %s.dtype (%s) and target_dtype (%s) must be integer-type."
                    % (x, x.dtype.name, target_dtype.name))
  check_ops.assert_non_negative(x, message="Elements must be non-negative.")
  if x.dtype.is_floating:
    check_ops.assert_equal(x, matmul_cast_ops.cast(matmul_cast_ops.cast(x, target_dtype), x.dtype),
                           message="Elements must be %s-equivalent." % target_dtype.name)
  elif _largest_integer(x.dtype) > _largest_integer(target_dtype):
    largest = _largest_integer(target_dtype)
    check_ops.assert_less_equal(x, ops.convert_to_tensor(largest, dtype=x.dtype),
                                message="Elements cannot exceed %d." % largest)
  return x


def check_categorical_event_shape(x):
  """TF's `embed_check_categorical_event_shape` (static shapes: ValueError)."""
  if not x.dtype.is_floating:
    raise TypeError("Unable to validate size of unrecognized dtype (%s)." % x.dtype.name)
  if x.shape.ndims == 0:
    raise ValueError("A categorical-distribution parameter must have at least 1 dimension.")
  event_size = x._shape_tuple()[-1]
  if event_size < 2:
    raise ValueError("A categorical-distribution parameter must have at least 2 events.")
  largest = _largest_integer(x.dtype)
  if event_size > largest:
    raise ValueError("Number of classes exceeds `dtype` precision, i.e., %s implies shape "
                     "(%d) cannot exceed %d." % (x.dtype.name, event_size, largest))
  return x


def logits_and_probs(logits=None, probs=None, multidimensional=False, validate_args=False):
  """TF's `get_logits_and_probs`: the (logits, probs) pair from exactly one of them."""
  if (probs is None) == (logits is None):
    raise ValueError("Must pass probs or logits, but not both.")
  if probs is None:
    logits = ops.convert_to_tensor(logits)
    if not logits.dtype.is_floating:
      raise TypeError("logits must having floating type.")
    if multidimensional:
      if validate_args:
        check_categorical_event_shape(logits)
      return logits, nn_ops.softmax(logits)
    return logits, math_ops.sigmoid(logits)
  probs = ops.convert_to_tensor(probs)
  if not probs.dtype.is_floating:
    raise TypeError("probs must having floating type.")
  if validate_args:
    one = array_ops.ones([], probs.dtype)
    check_ops.assert_non_negative(probs)
    if multidimensional:
      check_categorical_event_shape(probs)
      check_ops.assert_near(reduction_ops.reduce_sum(probs, -1), one,
                            message="probs does not sum to 1.")
    else:
      check_ops.assert_less_equal(probs, one, message="probs has components greater than 1.")
  if multidimensional:
    return math_ops.log(probs), probs
  return math_ops.log(probs) - math_ops.log1p(-1.0 * probs), probs
