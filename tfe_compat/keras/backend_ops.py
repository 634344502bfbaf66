"""More TF 1.15 `tf.keras.backend` functions: convolutions and pooling, normalization,
padding/resizing, control flow (rnn, switch, map_fn, folds), randomness, CTC and utilities.

They live beside backend.py (which holds the state: floatx, learning phase, name counters)
and compute with tfe_compat's own ops, so GradientTape and tf.function see them as usual.
"""
# pylint: disable=redefined-builtin,redefined-outer-name
import contextlib
import itertools

import jax.numpy as jnp
import numpy as np

from tfe_compat import nest
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.keras import backend
from tfe_compat.ops import gradients_impl
from tfe_compat.ops import (array_ops, control_flow_ops, conv_ops, ctc_ops, functional_ops,
                            image_ops, logging_ops, manip_ops, math_ops, matmul_cast_ops,
                            nn_impl, nn_ops, random_ops, reduction_ops, slicing, string_ops)

_SPATIAL = "DHW"
_tensor = backend._tensor  # pylint: disable=protected-access
_floatx_dtype = backend._floatx_dtype  # pylint: disable=protected-access
_flags = {"manual_variable_initialization": False}


# ---- Utilities ----
@export("keras.backend.is_sparse")
def is_sparse(tensor):
  return isinstance(tensor, string_ops.SparseTensor)


@export("keras.backend.to_dense")
def to_dense(tensor):
  return string_ops.sparse_tensor_to_dense(tensor) if is_sparse(tensor) else tensor


@export("keras.backend.eval")
def eval(x):
  """The value of `x` (a Variable or Tensor) as a NumPy array."""
  return backend.get_value(to_dense(x))


@export("keras.backend.reset_uids")
def reset_uids():
  backend._name_counts.clear()  # pylint: disable=protected-access


@export("keras.backend.manual_variable_initialization")
def manual_variable_initialization(value):
  """Kept for API parity: eager variables are always initialized when created."""
  _flags["manual_variable_initialization"] = value


@export("keras.backend.learning_phase_scope")
@contextlib.contextmanager
def learning_phase_scope(value):
  """Sets the learning phase to `value` (0 or 1) inside the scope, then restores it."""
  if value not in (0, 1):
    raise ValueError("Expected learning phase to be 0 or 1.")
  key = backend.phase_key()
  previous = backend.learning_phases.get(key)
  try:
    backend.set_learning_phase(value)
    yield
  finally:
    if previous is None:
      backend.learning_phases.pop(key, None)
    else:
      backend.learning_phases[key] = previous


@export("keras.backend.print_tensor")
def print_tensor(x, message=""):
  """TF 1.15's `tf.Print(x, [x], message)`: prints `message[x]` to stderr, returns x."""
  return logging_ops.Print(x, [x], message)


@export("keras.backend.stop_gradient")
def stop_gradient(variables):
  if isinstance(variables, (list, tuple)):
    return [array_ops.stop_gradient(v) for v in variables]
  return array_ops.stop_gradient(variables)


@export("keras.backend.gradients")
def gradients(loss, variables):
  return gradients_impl.gradients(loss, variables, colocate_gradients_with_ops=True)


@export("keras.backend.moving_average_update")
def moving_average_update(x, value, momentum):
  """TF 1.15's update: assign_moving_average with zero_debias=True. Eagerly its debiasing
  variables are new zeros on each call (get_variable does not share them), so `x` becomes
  (value * d) / (1 - (1 - d)) with d = 1 - momentum, i.e. `value`, as in TF."""
  decay = ops.convert_to_tensor(1.0 - momentum)
  if decay.dtype != x.dtype.base_dtype:
    decay = matmul_cast_ops.cast(decay, x.dtype.base_dtype)
  value = ops.convert_to_tensor(value, x.dtype.base_dtype)
  biased = -(-value * decay)  # biased -= (biased - value) * decay, from biased = 0
  bias_factor = 1 - math_ops.pow(1.0 - decay, 1.0)  # local_step = 1
  return x.assign(biased / bias_factor)


@export("keras.backend.cumprod")
def cumprod(x, axis=0):
  return reduction_ops.cumprod(x, axis=axis)


@export("keras.backend.in_top_k")
def in_top_k(predictions, targets, k):
  return nn_ops.in_top_k(predictions, targets, k)


@export("keras.backend.reverse")
def reverse(x, axes):
  return array_ops.reverse(x, [axes] if isinstance(axes, int) else axes)


# ---- Randomness ----
@export("keras.backend.random_binomial")
def random_binomial(shape, p=0.0, dtype=None, seed=None):
  """1 with probability `p`, else 0 (floatx by default)."""
  dtype = _floatx_dtype(dtype)
  draws = random_ops.random_uniform(shape, dtype=dtype, seed=seed)
  return matmul_cast_ops.where_v2(draws <= p, array_ops.ones(shape, dtype=dtype),
                                  array_ops.zeros(shape, dtype=dtype))


@export("keras.backend.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
  return random_ops.truncated_normal(shape, mean, stddev, dtype=_floatx_dtype(dtype), seed=seed)


@export("keras.backend.random_uniform_variable")
def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
  value = backend.random_uniform(shape, low, high, dtype=dtype, seed=seed)
  return backend.variable(value, dtype=dtype, name=name)


@export("keras.backend.random_normal_variable")
def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
  value = backend.random_normal(shape, mean, scale, dtype=dtype, seed=seed)
  return backend.variable(value, dtype=dtype, name=name)


# ---- Shapes: repeat, padding, resizing ----
@export("keras.backend.repeat_elements")
def repeat_elements(x, rep, axis):
  """Repeats each slice along `axis` `rep` times, like `np.repeat`."""
  x = _tensor(x)
  shape = [-1 if size is None else size for size in backend.int_shape(x)]
  axis %= len(shape)
  tiled = array_ops.tile(array_ops.expand_dims(x, axis + 1),
                         [1] * (axis + 1) + [rep] + [1] * (len(shape) - axis - 1))
  shape[axis] *= rep if shape[axis] != -1 else 1
  return array_ops.reshape(tiled, shape)


@export("keras.backend.temporal_padding")
def temporal_padding(x, padding=(1, 1)):
  """Zero-pads axis 1 of a 3-D tensor by (before, after)."""
  assert len(padding) == 2
  return array_ops.pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def _data_format(data_format):
  data_format = backend.image_data_format() if data_format is None else data_format
  if data_format not in ("channels_first", "channels_last"):
    raise ValueError("Unknown data_format: " + str(data_format))
  return data_format


def _spatial_padding(x, padding, data_format):
  pattern = [[0, 0]] + [[int(p[0]), int(p[1])] for p in padding]
  if _data_format(data_format) == "channels_first":
    return array_ops.pad(x, [[0, 0]] + pattern)
  return array_ops.pad(x, pattern + [[0, 0]])


@export("keras.backend.spatial_2d_padding")
def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
  """Zero-pads the two spatial axes of a 4-D tensor."""
  assert len(padding) == 2 and len(padding[0]) == 2 and len(padding[1]) == 2
  return _spatial_padding(x, padding, data_format)


@export("keras.backend.spatial_3d_padding")
def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
  """Zero-pads the three spatial axes of a 5-D tensor."""
  assert len(padding) == 3 and all(len(p) == 2 for p in padding)
  return _spatial_padding(x, padding, data_format)


@export("keras.backend.resize_images")
def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
  """Upscales rows and columns by integer factors (TF 1.15's resize_nearest_neighbor /
  resize_bilinear kernels, align_corners=False, no half-pixel centers)."""
  rows = {"channels_first": 2, "channels_last": 1}.get(data_format)
  if rows is None:
    raise ValueError("Invalid `data_format` argument: %s" % (data_format,))
  x = _tensor(x)
  shape = backend.int_shape(x)
  new_shape = [shape[rows] * height_factor, shape[rows + 1] * width_factor]
  if data_format == "channels_first":
    x = array_ops.transpose(x, [0, 2, 3, 1])
  if interpolation == "nearest":
    x = image_ops.resize_nearest_neighbor(x, new_shape)
  elif interpolation == "bilinear":
    x = image_ops.resize_bilinear(x, new_shape)
  else:
    raise ValueError('interpolation should be one of "nearest" or "bilinear".')
  if data_format == "channels_first":
    x = array_ops.transpose(x, [0, 3, 1, 2])
  return x


@export("keras.backend.resize_volumes")
def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
  """Repeats the depth, rows and columns of a 5-D tensor by integer factors."""
  first = {"channels_first": 2, "channels_last": 1}.get(data_format)
  if first is None:
    raise ValueError("Invalid data_format: " + str(data_format))
  for offset, factor in enumerate((depth_factor, height_factor, width_factor)):
    x = repeat_elements(x, factor, axis=first + offset)
  return x


# ---- Normalization ----
def _vector(v):
  """A broadcastable parameter (e.g. shape (1, 1, 1, C)) as a vector; None stays None."""
  if v is None:
    return None
  v = _tensor(v)
  return array_ops.reshape(v, [-1]) if backend.ndim(v) > 1 else v


@export("keras.backend.batch_normalization")
def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
  """(x - mean) / sqrt(var + epsilon) * gamma + beta (TF's fused kernel for 4-D channels-last
  inputs, whose epsilon is at least 1.001e-5)."""
  x = _tensor(x)
  if backend.ndim(x) == 4 and axis in (-1, 3):
    mean, var, beta, gamma = [_vector(v) for v in (mean, var, beta, gamma)]
    beta = array_ops.zeros_like(mean) if beta is None else beta
    gamma = array_ops.ones_like(mean) if gamma is None else gamma
    return nn_impl.fused_batch_norm(x, gamma, beta, mean=mean, variance=var, epsilon=epsilon,
                                    data_format="NHWC", is_training=False)[0]
  return nn_impl.batch_normalization(x, mean, var, beta, gamma, epsilon)


def _broadcast_normalize(x, gamma, beta, reduction_axes, epsilon):
  mean, var = nn_impl.moments(x, reduction_axes, None, None, False)
  target = [1 if axis in reduction_axes else size
            for axis, size in enumerate(backend.int_shape(x))]
  gamma, beta = [None if v is None else array_ops.reshape(v, target) for v in (gamma, beta)]
  normed = nn_impl.batch_normalization(x, array_ops.reshape(mean, target),
                                       array_ops.reshape(var, target), beta, gamma, epsilon)
  return normed, mean, var


@export("keras.backend.normalize_batch_in_training")
def normalize_batch_in_training(x, gamma, beta, reduction_axes, epsilon=1e-3):
  """Normalizes `x` with the batch moments over `reduction_axes`; returns (normed, mean, var).

  As on TF's CPU: 4-D inputs reduced over [0, 1, 2] use the fused kernel (whose returned
  variance is the unbiased one); other cases return the biased variance.
  """
  x = _tensor(x)
  rank = backend.ndim(x)
  if rank == 4 and list(reduction_axes) == [0, 1, 2]:
    depth = backend.int_shape(x)[3]
    gamma = array_ops.ones([depth], dtype=x.dtype) if gamma is None else gamma
    beta = array_ops.zeros([depth], dtype=x.dtype) if beta is None else beta
    return tuple(nn_impl.fused_batch_norm(x, gamma, beta, epsilon=epsilon, data_format="NHWC"))
  if sorted(reduction_axes) == list(range(rank))[:-1]:
    mean, var = nn_impl.moments(x, reduction_axes, None, None, False)
    return nn_impl.batch_normalization(x, mean, var, beta, gamma, epsilon), mean, var
  return _broadcast_normalize(x, gamma, beta, list(reduction_axes), epsilon)


# ---- Convolutions and pooling ----
def _padding(padding):
  if padding not in ("same", "valid"):
    raise ValueError("Invalid padding: " + str(padding))
  return padding.upper()


def _tf_format(data_format, n):
  spatial = _SPATIAL[-n:]
  return "NC" + spatial if data_format == "channels_first" else "N" + spatial + "C"


def _full(values, data_format):
  """Spatial strides / window sizes as TF's 4- or 5-element lists."""
  values = tuple(values)
  return (1, 1) + values if data_format == "channels_first" else (1,) + values + (1,)


@export("keras.backend.conv1d")
def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
  """1-D convolution; `padding="causal"` left-pads by dilation_rate * (kernel_size - 1)."""
  data_format = _data_format(data_format)
  if padding == "causal":
    x = temporal_padding(x, (dilation_rate * (backend.int_shape(_tensor(kernel))[0] - 1), 0))
    padding = "valid"
  return _convolution(1, x, kernel, strides, padding, data_format, dilation_rate)


def _convolution(n, x, kernel, strides, padding, data_format, dilation_rate):
  return conv_ops.convolution(x, kernel, _padding(padding), strides=strides,
                              dilation_rate=dilation_rate, data_format=_tf_format(data_format, n))


@export("keras.backend.conv2d")
def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
  return _convolution(2, x, kernel, strides, padding, _data_format(data_format), dilation_rate)


@export("keras.backend.conv3d")
def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1, 1)):
  return _convolution(3, x, kernel, strides, padding, _data_format(data_format), dilation_rate)


@export("keras.backend.conv2d_transpose")
def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
  """Transposed 2-D convolution to `output_shape` (a leading None takes x's batch size)."""
  data_format = _data_format(data_format)
  x = _tensor(x)
  output_shape = tuple(output_shape)
  if output_shape[0] is None:
    output_shape = (backend.int_shape(x)[0],) + output_shape[1:]
  padding = _padding(padding)
  if tuple(dilation_rate) == (1, 1):
    return conv_ops.conv2d_transpose(x, kernel, list(output_shape), _full(strides, data_format),
                                     padding=padding, data_format=_tf_format(data_format, 2))
  assert dilation_rate[0] == dilation_rate[1]
  first = data_format == "channels_first"
  if first:  # atrous_conv2d_transpose is NHWC only
    x = array_ops.transpose(x, (0, 2, 3, 1))
    output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
  x = conv_ops.atrous_conv2d_transpose(x, kernel, list(output_shape), rate=dilation_rate[0],
                                       padding=padding)
  return array_ops.transpose(x, (0, 3, 1, 2)) if first else x


@export("keras.backend.separable_conv2d")
def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
  data_format = _data_format(data_format)
  if len(strides) != 2:
    raise ValueError("`strides` must be a tuple of 2 integers.")
  return conv_ops.separable_conv2d(x, depthwise_kernel, pointwise_kernel,
                                   strides=_full(strides, data_format), padding=_padding(padding),
                                   rate=dilation_rate, data_format=_tf_format(data_format, 2))


@export("keras.backend.depthwise_conv2d")
def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
  data_format = _data_format(data_format)
  return conv_ops.depthwise_conv2d(x, depthwise_kernel, strides=_full(strides, data_format),
                                   padding=_padding(padding), rate=dilation_rate,
                                   data_format=_tf_format(data_format, 2))


def _pool(n, x, pool_size, strides, padding, data_format, pool_mode):
  padding = _padding(padding)
  if pool_mode not in ("max", "avg"):
    raise ValueError("Invalid pooling mode: " + str(pool_mode))
  pool_fn = {(2, "max"): conv_ops.max_pool, (2, "avg"): conv_ops.avg_pool,
             (3, "max"): conv_ops.max_pool3d, (3, "avg"): conv_ops.avg_pool3d}[(n, pool_mode)]
  return pool_fn(x, _full(pool_size, data_format), _full(strides, data_format), padding,
                 data_format=_tf_format(data_format, n))


@export("keras.backend.pool2d")
def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
  """2-D max or average pooling."""
  data_format = _data_format(data_format)
  if len(pool_size) != 2:
    raise ValueError("`pool_size` must be a tuple of 2 integers.")
  if len(strides) != 2:
    raise ValueError("`strides` must be a tuple of 2 integers.")
  return _pool(2, x, pool_size, strides, padding, data_format, pool_mode)


@export("keras.backend.pool3d")
def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None,
           pool_mode="max"):
  """3-D max or average pooling."""
  return _pool(3, x, pool_size, strides, padding, _data_format(data_format), pool_mode)


def _local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format):
  """N-d convolution with un-shared weights `kernel` [prod(output_shape), feature_dim, out]."""
  data_format = _data_format(data_format)
  inputs, kernel = _tensor(inputs), _tensor(kernel)
  feature_dim, channels_out = backend.int_shape(kernel)[1], backend.int_shape(kernel)[-1]
  ndims = len(output_shape)
  patches = []
  for position in itertools.product(*[range(size) for size in output_shape]):
    window = tuple(slice(position[d] * strides[d], position[d] * strides[d] + kernel_size[d])
                   for d in range(ndims))
    index = ((slice(None), slice(None)) + window if data_format == "channels_first"
             else (slice(None),) + window + (slice(None),))
    patches.append(array_ops.reshape(inputs[index], (1, -1, feature_dim)))
  output = backend.batch_dot(backend.concatenate(patches, axis=0), kernel)
  output = array_ops.reshape(output, tuple(output_shape) + (-1, channels_out))
  spatial = list(range(ndims))
  perm = ([ndims, ndims + 1] + spatial if data_format == "channels_first"
          else [ndims] + spatial + [ndims + 1])
  return array_ops.transpose(output, perm)


@export("keras.backend.local_conv1d")
def local_conv1d(inputs, kernel, kernel_size, strides, data_format=None):
  return _local_conv(inputs, kernel, kernel_size, strides,
                     (backend.int_shape(_tensor(kernel))[0],), data_format)


@export("keras.backend.local_conv2d")
def local_conv2d(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
  return _local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format)


# ---- Control flow ----
@export("keras.backend.map_fn")
def map_fn(fn, elems, name=None, dtype=None):
  return functional_ops.map_fn(fn, elems, dtype=dtype)


@export("keras.backend.foldl")
def foldl(fn, elems, initializer=None, name=None):
  return functional_ops.foldl(fn, elems, initializer=initializer)


@export("keras.backend.foldr")
def foldr(fn, elems, initializer=None, name=None):
  return functional_ops.foldr(fn, elems, initializer=initializer)


@export("keras.backend.switch")
def switch(condition, then_expression, else_expression):
  """A scalar `condition` picks a branch (tf.cond); a tensor one selects elementwise (TF1's
  `tf.where`, its shape tiled up to the expressions' rank)."""
  condition = _tensor(condition)
  if condition.dtype != dtypes.bool:
    condition = matmul_cast_ops.cast(condition, dtypes.bool)
  cond_ndim = backend.ndim(condition)
  if not cond_ndim:
    then_fn = then_expression if callable(then_expression) else lambda: then_expression
    else_fn = else_expression if callable(else_expression) else lambda: else_expression
    return control_flow_ops.cond(condition, then_fn, else_fn)
  if callable(then_expression):
    then_expression = then_expression()
  if callable(else_expression):
    else_expression = else_expression()
  then_expression = _tensor(then_expression)
  expr_ndim = backend.ndim(then_expression)
  if cond_ndim > expr_ndim:
    raise ValueError("Rank of `condition` should be less than or equal to rank of "
                     "`then_expression` and `else_expression`. ndim(condition)=%d, "
                     "ndim(then_expression)=%d" % (cond_ndim, expr_ndim))
  if cond_ndim > 1:
    cond_shape = list(backend.int_shape(condition)) + [1] * (expr_ndim - cond_ndim)
    expr_shape = backend.int_shape(then_expression)
    condition = array_ops.tile(array_ops.reshape(condition, cond_shape),
                               [e if e > c else 1 for e, c in zip(expr_shape, cond_shape)])
  return matmul_cast_ops.where(condition, then_expression, else_expression)


def _swap_batch_time(x):
  perm = list(range(backend.ndim(x)))
  perm[0], perm[1] = 1, 0
  return array_ops.transpose(x, perm)


def _masked(mask_t, new, old):
  """`new` where the (batch, 1) step mask is true, else `old`."""
  mask_t = _tensor(mask_t)
  for _ in range(backend.ndim(new) - backend.ndim(mask_t)):
    mask_t = array_ops.expand_dims(mask_t, -1)
  return matmul_cast_ops.where_v2(mask_t, new, old)


@export("keras.backend.rnn")
def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None,
        unroll=False, input_length=None, time_major=False, zero_output_for_mask=False):
  """Iterates `step_function(input_t, states + constants) -> (output, new_states)` over the
  time axis (a Python loop); returns (last_output, outputs, new_states) as TF does.

  With a `mask` (batch, time), masked steps keep the previous output (zeros with
  `zero_output_for_mask`) and the previous states. `input_length` is unused, as in TF 1.15.
  """
  if not time_major:
    inputs = nest.map_structure(_swap_batch_time, inputs)
  flat_inputs = [_tensor(x) for x in nest.flatten(inputs)]
  for x in flat_inputs:
    if backend.ndim(x) < 3:
      raise ValueError("Shape %s must have rank at least 3" % (x.shape,))
  time_steps = backend.int_shape(flat_inputs[0])[0]
  if unroll and not time_steps:
    raise ValueError("Unrolling requires a fixed number of timesteps.")
  if mask is not None:
    mask = _tensor(mask)
    if mask.dtype != dtypes.bool:
      mask = matmul_cast_ops.cast(mask, dtypes.bool)
    if backend.ndim(mask) == 2:
      mask = array_ops.expand_dims(mask, -1)
    if not time_major:
      mask = _swap_batch_time(mask)
  constants = [] if constants is None else constants
  order = list(range(time_steps))[::-1] if go_backwards else list(range(time_steps))
  slices = [array_ops.unstack(x) for x in flat_inputs]
  masks = None if mask is None else array_ops.unstack(mask)
  states = tuple(initial_states)
  outputs, prev = [], None
  for t in order:
    step_input = nest.pack_sequence_as(inputs, [s[t] for s in slices])
    output, new_states = step_function(step_input, tuple(states) + tuple(constants))
    if masks is not None:
      flat_out = nest.flatten(output)
      keep = ([array_ops.zeros_like(o) for o in flat_out]
              if prev is None or (zero_output_for_mask and not unroll) else prev)
      output = nest.pack_sequence_as(output, [_masked(masks[t], o, k)
                                              for o, k in zip(flat_out, keep)])
      flat_states = [_masked(masks[t], n, s) for n, s in
                     zip(nest.flatten(new_states), nest.flatten(states))]
      new_states = nest.pack_sequence_as(states if unroll else new_states, flat_states)
    elif not unroll:
      new_states = nest.pack_sequence_as(initial_states, nest.flatten(new_states))
    outputs.append(output)
    prev, states = nest.flatten(output), new_states if unroll else tuple(new_states)
  stacked = [array_ops.stack(list(column)) for column in
             zip(*[nest.flatten(o) for o in outputs])]
  last_output = outputs[-1]
  if unroll and masks is not None and zero_output_for_mask:
    # TF's unrolled loop zeroes masked outputs afterwards, with the mask in time order even
    # when go_backwards reversed the outputs.
    last_output = nest.map_structure(
        lambda o: _masked(masks[order[-1]], o, array_ops.zeros_like(o)), last_output)
    stacked = [_masked(mask, o, array_ops.zeros_like(o)) for o in stacked]
  if not time_major:
    stacked = [_swap_batch_time(o) for o in stacked]
  return last_output, nest.pack_sequence_as(last_output, stacked), states


# ---- CTC ----
@export("keras.backend.ctc_label_dense_to_sparse")
def ctc_label_dense_to_sparse(labels, label_lengths):
  """Dense (batch, max_len) labels -> a SparseTensor of the first label_lengths[b] of row b."""
  labels = _tensor(labels)
  dense_mask = manip_ops.sequence_mask(label_lengths, backend.int_shape(labels)[1])
  indices = matmul_cast_ops.where(dense_mask)
  return string_ops.SparseTensor(indices, slicing.gather_nd(labels, indices),
                                 matmul_cast_ops.cast(array_ops.shape(labels), dtypes.int64))


@export("keras.backend.ctc_batch_cost")
def ctc_batch_cost(y_true, y_pred, input_length, label_length):
  """CTC loss of softmax outputs y_pred (batch, time, classes) against dense labels y_true;
  input_length and label_length are (batch, 1). Returns (batch, 1)."""
  y_pred = _tensor(y_pred)
  label_length = matmul_cast_ops.cast(array_ops.squeeze(label_length, axis=-1), dtypes.int32)
  input_length = matmul_cast_ops.cast(array_ops.squeeze(input_length, axis=-1), dtypes.int32)
  labels = matmul_cast_ops.cast(y_true, dtypes.int32)
  logits = backend.log(y_pred + backend.epsilon())
  loss = ctc_ops.ctc_nll(logits, labels, input_length, label_length,
                         blank_index=backend.int_shape(y_pred)[-1] - 1)
  return array_ops.expand_dims(loss, 1)


@ops.op(name="CTCGreedyDecoder", jit=False)
def _ctc_greedy(log_probs, lengths):
  """Best-path decoding: argmax per step, repeats merged, blanks (last class) dropped."""
  best = jnp.argmax(log_probs, axis=-1)
  blank = log_probs.shape[-1] - 1
  steps = jnp.arange(log_probs.shape[1])[None, :]
  valid = steps < lengths[:, None]
  score = -jnp.sum(jnp.where(valid, jnp.max(log_probs, axis=-1), 0), axis=1, keepdims=True)
  previous = jnp.concatenate([jnp.full_like(best[:, :1], -1), best[:, :-1]], axis=1)
  keep = np.asarray(valid & (best != blank) & (best != previous))
  best = np.asarray(best)
  rows = [best[b][keep[b]] for b in range(best.shape[0])]
  width = max([len(r) for r in rows] + [0])
  decoded = np.full((len(rows), width), -1, np.int64)
  for b, row in enumerate(rows):
    decoded[b, :len(row)] = row
  return jnp.asarray(decoded), score.astype(log_probs.dtype)


@export("keras.backend.ctc_decode")
def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
  """Greedy CTC decoding of softmax outputs: ([decoded (batch, max_len), -1 padded],
  log_prob (batch, 1)). Beam search (greedy=False) is not implemented."""
  if not greedy:
    raise NotImplementedError("tf.keras.backend.ctc_decode(greedy=False) (CTC beam search) is "
                              "not supported by tfe_compat; use greedy=True.")
  log_probs = backend.log(_tensor(y_pred) + backend.epsilon())
  decoded, log_prob = _ctc_greedy(log_probs, matmul_cast_ops.cast(input_length, dtypes.int32))
  return [decoded], log_prob

