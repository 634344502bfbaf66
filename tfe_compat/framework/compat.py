"""`tf.compat` helpers: bytes/text conversion, numeric type tuples, forward compatibility.

(`tf.compat.v1` / `v2` and `dimension_value` / `dimension_at_index` are set elsewhere.)
"""
import contextlib
import datetime
import numbers
import os

import numpy as np

from tfe_compat.framework.api import export

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)
for _name in ("bytes_or_text_types", "integral_types", "real_types", "complex_types"):
  export("compat." + _name)(globals()[_name])


@export("compat.as_bytes")
def as_bytes(bytes_or_text, encoding="utf-8"):
  """`bytes_or_text` as bytes (text is encoded with `encoding`)."""
  if isinstance(bytes_or_text, bytearray):
    return bytes(bytes_or_text)
  if isinstance(bytes_or_text, str):
    return bytes_or_text.encode(encoding)
  if isinstance(bytes_or_text, bytes):
    return bytes_or_text
  raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


@export("compat.as_text", "compat.as_str")
def as_text(bytes_or_text, encoding="utf-8"):
  """`bytes_or_text` as str (bytes are decoded with `encoding`)."""
  if isinstance(bytes_or_text, str):
    return bytes_or_text
  if isinstance(bytes_or_text, bytes):
    return bytes_or_text.decode(encoding)
  raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


as_str = as_text


@export("compat.as_str_any")
def as_str_any(value):
  """`str(value)`, with bytes decoded as UTF-8 instead."""
  return as_str(value) if isinstance(value, bytes) else str(value)


@export("compat.path_to_str")
def path_to_str(path):
  """A path-like object (`pathlib.Path`) as str; anything else is returned unchanged."""
  if hasattr(path, "__fspath__"):
    path = as_str_any(path.__fspath__())
  return path


# ---- Forward compatibility (TF's compat/compat.py) ----
# The horizon of the TF 1.15 release (its date of GraphDef version 134); the environment
# variable TF_FORWARD_COMPATIBILITY_DELTA_DAYS moves it, as in TF.
_HORIZON = datetime.date(2019, 8, 21)
_DELTA_DAYS_VAR = "TF_FORWARD_COMPATIBILITY_DELTA_DAYS"
_date_number = None


def _to_number(year, month, day):
  return (year << 9) | (month << 5) | day


def _set_date(date=None):
  global _date_number  # pylint: disable=global-statement
  if date is None:
    date = _HORIZON
    delta_days = os.getenv(_DELTA_DAYS_VAR)
    if delta_days:
      date += datetime.timedelta(days=int(delta_days))
  _date_number = _to_number(date.year, date.month, date.day)


_set_date()


@export("compat.forward_compatible")
def forward_compatible(year, month, day):
  """Whether the forward-compatibility window has passed the given date."""
  return _date_number > _to_number(year, month, day)


@export("compat.forward_compatibility_horizon")
@contextlib.contextmanager
def forward_compatibility_horizon(year, month, day):
  """Makes `forward_compatible` answer as if the horizon were the given date."""
  try:
    _set_date(datetime.date(year, month, day))
    yield
  finally:
    _set_date()
