"""`tf.signal` / `tf.spectral` transforms: fft*, ifft*, rfft*, irfft*, fftshift, dct, idct."""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op, tf_type_name
from tfe_compat.framework.tensor import Tensor

_COMPLEX = {"float32": "complex64", "float64": "complex128"}


def _fail(message, op_name):
  raise errors.invalid_argument("%s [Op:%s]" % (message, op_name))


def _is_tensor(value):
  return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def _convert(value, preferred):
  """TF's conversion with a preferred dtype: Python and NumPy values take it if they can."""
  if _is_tensor(value):
    return convert_to_tensor(value)
  return convert_to_tensor(value, preferred_dtype=preferred)


def _check_rank(x, rank, op_name):
  if x.shape.ndims < rank:
    _fail("Input must have rank of at least %d but got: [%s]"
          % (rank, ",".join(str(d) for d in x._value.shape)), op_name)


# ---- Complex FFTs ----
def _complex_fft(name, rank, inverse):
  """A public FFT function for TF op `name` over the inner `rank` dimensions."""
  transform = jnp.fft.ifftn if inverse else jnp.fft.fftn
  axes = tuple(range(-rank, 0))

  @op(name=name)
  def impl(x):
    return x if x.size == 0 else transform(x, axes=axes)

  def fft_fn(input, name=None):  # pylint: disable=redefined-builtin
    x = _convert(input, dtypes.complex64)
    if not x.dtype.is_complex:
      _fail("Value for attr 'Tcomplex' of %s is not in the list of allowed values: complex64, "
            "complex128\n\t; NodeDef: {{node %s}}; Op<name=%s; signature=input:Tcomplex -> "
            "output:Tcomplex; attr=Tcomplex:type,default=DT_COMPLEX64,allowed=[DT_COMPLEX64, "
            "DT_COMPLEX128]>" % (tf_type_name(x.dtype), impl.op_name, impl.op_name),
            impl.op_name)
    _check_rank(x, rank, impl.op_name)
    return impl(x)

  fft_fn.__name__ = fft_fn.__qualname__ = name.lower()
  fft_fn.__doc__ = "%s over the inner-most %d dimension(s) of a complex tensor." % (
      "Inverse FFT" if inverse else "FFT", rank)
  return fft_fn


fft = export("signal.fft", "spectral.fft", "fft")(_complex_fft("FFT", 1, False))
ifft = export("signal.ifft", "spectral.ifft", "ifft")(_complex_fft("IFFT", 1, True))
fft2d = export("signal.fft2d", "spectral.fft2d", "fft2d")(_complex_fft("FFT2D", 2, False))
ifft2d = export("signal.ifft2d", "spectral.ifft2d", "ifft2d")(_complex_fft("IFFT2D", 2, True))
fft3d = export("signal.fft3d", "spectral.fft3d", "fft3d")(_complex_fft("FFT3D", 3, False))
ifft3d = export("signal.ifft3d", "spectral.ifft3d", "ifft3d")(_complex_fft("IFFT3D", 3, True))


# ---- Real FFTs ----
def _fft_lengths(fft_length, rank, op_name):
  """The static `fft_length` (a [rank] vector) as a tuple of ints."""
  lengths = np.asarray(convert_to_tensor(fft_length, dtypes.int32).numpy())
  if lengths.shape != (rank,):
    _fail("fft_length must have shape [%d]" % rank, op_name)
  return tuple(int(n) for n in lengths)


def _check_empty(x, sizes, op_name):
  """TF's kernel check when an empty input skipped the wrapper's padding."""
  if x._value.size:
    return
  shape = x._value.shape
  for i, size in enumerate(sizes):
    dim = len(shape) - len(sizes) + i
    if 0 < shape[dim] < size:
      _fail("Input dimension %d must have length of at least %d but got: %d"
            % (dim, size, shape[dim]), op_name)


def _real_fft(name, rank):
  """The public RFFT function for TF op `name` over the inner `rank` dimensions."""
  axes = tuple(range(-rank, 0))

  @op(name=name)
  def impl(x, *, fft_length, dtype):
    last = fft_length[-1] // 2 + 1 if fft_length[-1] else 0
    shape = x.shape[:x.ndim - rank] + fft_length[:-1] + (last,)
    if x.size == 0 or 0 in shape:
      return jnp.zeros(shape, dtype)
    return jnp.fft.rfftn(x, s=fft_length, axes=axes).astype(dtype)

  def rfft_fn(input_tensor, fft_length=None, name=None):
    x = _convert(input_tensor, dtypes.float32)
    if x.dtype not in (dtypes.float32, dtypes.float64):
      raise ValueError("RFFT requires tf.float32 or tf.float64 inputs, got: %s" % x)
    x.shape.with_rank_at_least(rank)
    if fft_length is None:
      lengths = tuple(x._value.shape[x.ndim - rank:])
    else:
      lengths = _fft_lengths(fft_length, rank, impl.op_name)
    _check_empty(x, lengths, impl.op_name)
    return impl(x, fft_length=lengths, dtype=_COMPLEX[x.dtype.name])

  rfft_fn.__name__ = rfft_fn.__qualname__ = name.lower()
  rfft_fn.__doc__ = "Real-valued FFT over the inner-most %d dimension(s)." % rank
  return rfft_fn


def _inverse_real_fft(name, rank):
  """The public IRFFT function for TF op `name` over the inner `rank` dimensions."""
  axes = tuple(range(-rank, 0))

  @op(name=name)
  def impl(x, *, fft_length, dtype):
    shape = x.shape[:x.ndim - rank] + fft_length
    if x.size == 0 or 0 in shape:
      return jnp.zeros(shape, dtype)
    return jnp.fft.irfftn(x, s=fft_length, axes=axes).astype(dtype)

  def irfft_fn(input_tensor, fft_length=None, name=None):
    x = _convert(input_tensor, dtypes.complex64)
    x.shape.with_rank_at_least(rank)
    if not x.dtype.is_complex:
      raise ValueError("IRFFT requires tf.complex64 or tf.complex128 inputs, got: %s" % x)
    if fft_length is None:
      lengths = tuple(x._value.shape[x.ndim - rank:])
      lengths = lengths[:-1] + (max(0, 2 * (lengths[-1] - 1)),)
    else:
      lengths = _fft_lengths(fft_length, rank, impl.op_name)
    _check_empty(x, lengths[:-1] + (lengths[-1] // 2 + 1,), impl.op_name)
    return impl(x, fft_length=lengths, dtype=x.dtype.real_dtype.name)

  irfft_fn.__name__ = irfft_fn.__qualname__ = name.lower()
  irfft_fn.__doc__ = "Inverse real-valued FFT over the inner-most %d dimension(s)." % rank
  return irfft_fn


rfft = export("signal.rfft", "spectral.rfft")(_real_fft("RFFT", 1))
irfft = export("signal.irfft", "spectral.irfft")(_inverse_real_fft("IRFFT", 1))
rfft2d = export("signal.rfft2d", "spectral.rfft2d")(_real_fft("RFFT2D", 2))
irfft2d = export("signal.irfft2d", "spectral.irfft2d")(_inverse_real_fft("IRFFT2D", 2))
rfft3d = export("signal.rfft3d", "spectral.rfft3d")(_real_fft("RFFT3D", 3))
irfft3d = export("signal.irfft3d", "spectral.irfft3d")(_inverse_real_fft("IRFFT3D", 3))


# ---- fftshift ----
@op(name="Roll")
def _roll(x, *, shift, axes):
  return jnp.roll(x, shift, axes)


def _shift(x, axes, sign):
  x = convert_to_tensor(x)
  shape = x._value.shape
  if axes is None:
    if not shape:  # TF rolls over `axes=()`, which converts to a float tensor
      _fail("Value for attr 'Taxis' of float is not in the list of allowed values: int32, "
            "int64", "Roll")
    axes = tuple(range(len(shape)))
  else:
    axes = tuple(int(a) for a in np.reshape(convert_to_tensor(axes).numpy(), [-1]))
    for axis in axes:
      if not -len(shape) <= axis < len(shape):
        _fail("slice index %d of dimension 0 out of bounds." % axis, "StridedSlice")
    axes = tuple(a % len(shape) for a in axes)
  shift = tuple(sign * (shape[a] // 2) for a in axes)
  return _roll(x, shift=shift, axes=axes)


@export("signal.fftshift")
def fftshift(x, axes=None, name=None):
  """Rolls the zero-frequency component to the center (all axes by default), as NumPy's."""
  return _shift(x, axes, 1)


@export("signal.ifftshift")
def ifftshift(x, axes=None, name=None):
  """The inverse of `fftshift` (they differ by one sample for odd lengths)."""
  return _shift(x, axes, -1)


# ---- DCT ----
@op(name="Dct")
def _dct(x, *, dct_type, norm):
  """TF's DCT types 1-3 along the last axis, computed as TF does with 2N-point real FFTs."""
  dtype = x.dtype
  length = x.shape[-1]
  if x.size == 0:
    return x
  if dct_type == 1:
    extended = jnp.concatenate([x, x[..., -2:0:-1]], axis=-1)
    return jnp.real(jnp.fft.rfft(extended)).astype(dtype)
  size = jnp.asarray(length, dtype)
  angle = jnp.arange(length, dtype=dtype) * jnp.asarray(np.pi * 0.5, dtype) / size
  if dct_type == 2:
    scale = 2.0 * jnp.exp(-1j * angle)
    result = jnp.real(jnp.fft.rfft(x, n=2 * length)[..., :length] * scale).astype(dtype)
    if norm == "ortho":
      first = 0.5 * jax.lax.rsqrt(size)
      weights = jnp.full([length], first * jnp.asarray(np.sqrt(2.0), dtype), dtype)
      result = result * weights.at[0].set(first)
    return result
  if norm == "ortho":
    first = jnp.sqrt(size)
    weights = jnp.full([length], first * jnp.asarray(np.sqrt(0.5), dtype), dtype)
    x = x * weights.at[0].set(first)
  else:
    x = x * size
  scale = 2.0 * jnp.exp(1j * angle)
  return jnp.real(jnp.fft.irfft(scale * x, n=2 * length))[..., :length].astype(dtype)


@op(name="Pad")
def fit_last_axis(x, *, length):
  """`x` cut or zero-padded to `length` along the last axis."""
  if x.shape[-1] >= length:
    return x[..., :length]
  return jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, length - x.shape[-1])])


def _validated_dct_input(input, dct_type, n, axis, norm):  # pylint: disable=redefined-builtin
  """TF 1.15's argument checks; returns the input Tensor (cut or padded to `n`)."""
  if axis != -1:
    raise NotImplementedError("axis must be -1. Got: %s" % axis)
  if n is not None and n < 1:
    raise ValueError("n should be a positive integer or None")
  if dct_type not in (1, 2, 3):
    raise ValueError("Only Types I, II and III (I)DCT are supported.")
  x = convert_to_tensor(input)
  if x.shape.ndims == 0:
    raise IndexError("tuple index out of range")
  if dct_type == 1:
    if norm == "ortho":
      raise ValueError("Normalization is not supported for the Type-I DCT.")
    if x._value.shape[-1] < 2:
      raise ValueError("Type-I DCT requires the dimension to be greater than one.")
  if norm not in (None, "ortho"):
    raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)
  if x.dtype.is_integer or x.dtype.is_bool:
    raise TypeError("Cannot convert 0.0 to EagerTensor of dtype %s" % x.dtype.name)
  if x.dtype not in (dtypes.float32, dtypes.float64):
    raise ValueError("DCT requires tf.float32 or tf.float64 inputs, got: %s" % x)
  if n is not None and n != x._value.shape[-1]:
    x = fit_last_axis(x, length=int(n))
  return x


@export("signal.dct", "spectral.dct")
def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # pylint: disable=redefined-builtin
  """The DCT (types 1, 2, 3) of the last axis; `norm='ortho'` for types 2 and 3."""
  x = _validated_dct_input(input, type, n, axis, norm)
  return _dct(x, dct_type=type, norm=norm)


@export("signal.idct", "spectral.idct")
def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # pylint: disable=redefined-builtin
  """The inverse DCT: type 3 for type 2 and back; unnormalized it scales by 2N (type 1: 2(N-1))."""
  x = _validated_dct_input(input, type, n, axis, norm)
  return _dct(x, dct_type={1: 1, 2: 3, 3: 2}[type], norm=norm)
