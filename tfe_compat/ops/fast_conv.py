"""`conv(x, w, params)`: `lax.conv_general_dilated`, whose filter gradient XLA:CPU runs fast.

The gradient of a convolution with respect to its filter is another convolution, contracting
over the batch and the output positions. XLA:CPU runs it 2-4x slower over a whole batch than
over slices of the batch whose output gradient takes ~256 KB, summed (the 5x5 32->64 filter
gradient of a 14x14 layer at batch 64: 22 ms at once, 7-9 ms in slices; a 3x3 64->64 one at
56x56, batch 8: 52 ms against 17 ms; the seed CNN's compiled training step: 48 -> 39 ms
against slices of 1 MB). On the CPU the derivative here writes the filter's tangent term as
the concatenation of each slice's convolution, so that its transpose (the filter gradient)
is the sum of the slices' filter gradients. A `custom_jvp`: forward-mode
and higher derivatives work as for `lax.conv_general_dilated`; other backends run it whole.
"""
import functools
import math

import jax
import numpy as np
from jax import lax
from jax.custom_derivatives import SymbolicZero

_SLICE_BYTES = 1 << 18  # a slice's output gradient (256 KB measured best on whole steps)
_MAX_SLICES = 32  # one convolution per slice: bounds the program's size


def conv(x, w, params):
  """`lax.conv_general_dilated(x, w, *params)`; `params` = (window_strides, padding,
  lhs_dilation, rhs_dilation, dimension_numbers, feature_group_count), hashable."""
  return _conv(x, w, params)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _conv(x, w, params):
  return lax.conv_general_dilated(x, w, *params)


def _filter_term(x, dw, params, specs):
  """conv(x, dw) on operands laid out [C, *spatial, N] and [I, *spatial, O], giving
  [*spatial, N, O]: JAX's transpose of it (the filter gradient) is then a convolution in
  the layout XLA:CPU's fast kernels take, which XLA does not always rearrange a slice's
  gradient into by itself."""
  lhs, rhs, out = specs  # (batch, feature, *spatial); the filter's (out, in, *spatial)
  second_first = lambda spec: (spec[1],) + spec[2:] + (spec[0],)
  n = x.ndim
  numbers = lax.ConvDimensionNumbers(lhs_spec=(n - 1, 0) + tuple(range(1, n - 1)),
                                     rhs_spec=(n - 1, 0) + tuple(range(1, n - 1)),
                                     out_spec=(n - 2, n - 1) + tuple(range(n - 2)))
  y = lax.conv_general_dilated(x.transpose(second_first(lhs)), dw.transpose(second_first(rhs)),
                               *params[:4], numbers, params[5])
  return y.transpose(np.argsort(out[2:] + out[:2]))


def _sliced(x, dw, params, out):
  """conv(x, dw) as the concatenation of the convolutions of batch slices of x."""
  specs = lax.conv_dimension_numbers(x.shape, dw.shape, params[4])
  batch = x.shape[specs[0][0]]
  per_example = out.size // max(batch, 1) * out.dtype.itemsize
  size = max(1, _SLICE_BYTES // max(per_example, 1), math.ceil(batch / _MAX_SLICES))
  if size >= batch:
    return lax.conv_general_dilated(x, dw, *params)
  parts = [_filter_term(lax.slice_in_dim(x, start, min(start + size, batch),
                                         axis=specs[0][0]), dw, params, specs)
           for start in range(0, batch, size)]
  return lax.concatenate(parts, specs[2][0])


def _conv_jvp(params, primals, tangents):
  x, w = primals
  dx, dw = tangents
  out = lax.conv_general_dilated(x, w, *params)
  terms = []
  if not isinstance(dx, SymbolicZero):
    terms.append(lax.conv_general_dilated(dx, w, *params))
  if not isinstance(dw, SymbolicZero):
    terms.append(lax.platform_dependent(
        x, dw, cpu=lambda x, dw: _sliced(x, dw, params, out),
        default=lambda x, dw: lax.conv_general_dilated(x, dw, *params)))
  return out, sum(terms[1:], terms[0]) if terms else lax.zeros_like_array(out)


_conv.defjvp(_conv_jvp, symbolic_zeros=True)
