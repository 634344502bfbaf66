"""The fixed arrays that tfe_compat's `tf_bundle.write` wrote into written_by_tfe/ (and
that real TensorFlow read back there, see make_golden.py): every dtype, a scalar, strings.
Needs only NumPy and ml_dtypes."""
import ml_dtypes
import numpy as np


def arrays():
  """{checkpoint key: array}."""
  return {
      "float16": np.array([[0.5, -1.25], [65504.0, 6e-5]], np.float16),
      "bfloat16": np.array([1.0, -2.5, 3e38], ml_dtypes.bfloat16),
      "float32": np.array([[1.5, -np.inf, 0.0], [3.25, 1e-30, -7.0]], np.float32),
      "float64": np.array([np.pi, -1e300], np.float64),
      "int8": np.array([-128, 0, 127], np.int8),
      "int16": np.array([-32768, 12345], np.int16),
      "int32": np.array([[-(2 ** 31), 7], [2 ** 31 - 1, 0]], np.int32),
      "int64": np.array([-(2 ** 63), 2 ** 40], np.int64),
      "uint8": np.array([0, 200, 255], np.uint8),
      "uint16": np.array([65535, 1], np.uint16),
      "uint32": np.array([2 ** 32 - 1], np.uint32),
      "uint64": np.array([2 ** 64 - 1, 3], np.uint64),
      "bool": np.array([True, False, True]),
      "complex64": np.array([1 + 2j, -0.5j], np.complex64),
      "complex128": np.array([[3 - 4j]], np.complex128),
      "scalar/float32": np.array(2.5, np.float32),
      "scalar/int64": np.array(-9, np.int64),
      "string/scalar": np.array(b"hello, bundle", dtype=object),
      "string/vector": np.array([b"", b"a", b"\x00\xff binary \x00", "\u00e9t\u00e9".encode()],
                                dtype=object),
      "string/empty": np.array([], dtype=object),
      "empty/float32": np.zeros((0, 4), np.float32),
  }
