"""Max and average pooling; max pooling without `lax.reduce_window`.

The gradient of `reduce_window` max pooling lowers to XLA's `select_and_scatter`, which is
slow on the CPU. Here max pooling is separable: one 1-D max pooling per dimension, the
innermost first, each the elementwise max of the strided slices of its padded input that hold
the windows' k-th elements. A custom JVP gives a window's whole tangent to its first maximum
(a NaN counts as the maximum), as TF's MaxPoolGrad does, or to every element equal to the
maximum, as TF's MaxPool3DGrad does; reverse mode transposes it into selects and strided
pads that are summed. Pooling the innermost dimension first makes "first" row-major order.

`plan` is conv_ops.PoolPlan: per-dimension `window`, `strides`, `dilation` over all n + 2
input dimensions, and `padding` ("SAME" or "VALID").
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def _window_slices(x, axis, window, stride, dilation, padding, fill):
  """Along `axis` of `x` padded with `fill`: the slice holding every window's k-th element,
  for k = 0 .. window - 1."""
  extent = (window - 1) * dilation + 1
  (lo, hi), = lax.padtype_to_pads((x.shape[axis],), (extent,), (stride,), padding)
  size = max((x.shape[axis] + lo + hi - extent) // stride + 1, 0)  # 0: a window too large
  pads = [(lo, hi, 0) if d == axis else (0, 0, 0) for d in range(x.ndim)]
  x = lax.pad(x, np.array(fill, x.dtype), pads)
  if not size:
    return [lax.slice_in_dim(x, 0, 0, 1, axis)] * window
  return [lax.slice_in_dim(x, k * dilation, k * dilation + (size - 1) * stride + 1, stride, axis)
          for k in range(window)]


def _lowest(dtype):
  if jnp.issubdtype(dtype, jnp.floating):
    return -np.inf
  return np.iinfo(dtype).min


def _axis_max(x, spec):
  """1-D max pooling along one axis; `spec` is (axis, window, stride, dilation, padding)."""
  return functools.reduce(lax.max, _window_slices(x, *spec, _lowest(x.dtype)))


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2))
def _float_axis_max(x, spec, first_only):
  del first_only  # only the JVP depends on it
  return _axis_max(x, spec)


@_float_axis_max.defjvp
def _float_axis_max_jvp(spec, first_only, primals, tangents):
  """The tangent at each window's first maximum (TF's MaxPoolGrad), or the sum of the
  tangents at all of its maxima (TF's MaxPool3DGrad)."""
  (x,), (t,) = primals, tangents
  windows = _window_slices(x, *spec, _lowest(x.dtype))
  top = functools.reduce(lax.max, windows)
  if first_only:
    first = np.int32(len(windows) - 1)
    for k in range(len(windows) - 2, -1, -1):  # a NaN maximum: the first NaN
      first = jnp.where((windows[k] == top) | (windows[k] != windows[k]), np.int32(k), first)
    chosen = [first == k for k in range(len(windows))]
  else:
    chosen = [window == top for window in windows]
  picked = [jnp.where(c, tk, 0) for c, tk in zip(chosen, _window_slices(t, *spec, 0))]
  return top, functools.reduce(lax.add, picked)


def _max_pool(x, plan, first_only):
  for axis in reversed(range(x.ndim)):
    spec = (axis, plan.window[axis], plan.strides[axis], plan.dilation[axis], plan.padding)
    if spec[1:3] != (1, 1):
      if jnp.issubdtype(x.dtype, jnp.floating):
        x = _float_axis_max(x, spec, first_only)
      else:
        x = _axis_max(x, spec)  # integers have no gradient
  return x


def max_pool(x, *, plan):
  """TF's MaxPool: the max over each window, whose gradient goes to its first maximum."""
  return _max_pool(x, plan, True)


def max_pool3d(x, *, plan):
  """TF's MaxPool3D: as `max_pool`, but every maximum of a window gets its whole gradient."""
  return _max_pool(x, plan, False)


def avg_pool(x, *, plan):
  """The mean of each window's valid (unpadded) elements, as TF does for SAME padding.

  `reduce_window` with add stays: it and its gradient (a pad and another reduce_window) are
  faster on the CPU than the reshape or strided-slice sums."""
  zero = np.array(0, x.dtype)
  total = lax.reduce_window(x, zero, lax.add, plan.window, plan.strides, plan.padding,
                            window_dilation=plan.dilation)
  if plan.padding == "VALID":
    return total / np.array(np.prod(plan.window), x.dtype)
  ones = jnp.ones([d if w > 1 or s > 1 else 1
                   for d, w, s in zip(x.shape, plan.window, plan.strides)], x.dtype)
  return total / lax.reduce_window(ones, zero, lax.add, plan.window, plan.strides,
                                   plan.padding, window_dilation=plan.dilation)
