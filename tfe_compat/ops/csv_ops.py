"""CSV parsing (`tf.decode_csv`) and `tf.strings.format`.

Like the other string ops these run eagerly on the host with NumPy and Python over object
arrays of bytes; they are not differentiable and not trace-safe. The field parsing and
conversion helpers are shared with `tf.data.experimental.CsvDataset` (data/csv_readers.py).
"""
import re

import numpy as np

from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import logging_ops
from tfe_compat.ops.string_ops import _numeric, _string_tensor, _strings

CSV_TYPES = ("float32", "float64", "int32", "int64", "string")
_TYPE_TEXT = {"float32": "float", "float64": "double", "float16": "half"}
_ATTR_TAIL = {
    "DecodeCSV": "\n\t; NodeDef: {{node DecodeCSV}}; Op<name=DecodeCSV; signature=records:string,"
                 " record_defaults: -> output:; attr=OUT_TYPE:list(type),min=1,allowed=[DT_FLOAT, "
                 "DT_DOUBLE, DT_INT32, DT_INT64, DT_STRING]; attr=field_delim:string,default=\","
                 "\"; attr=use_quote_delim:bool,default=true; attr=na_value:string,default=\"\"; "
                 "attr=select_cols:list(int),default=[]> [Op:DecodeCSV]",
}


def type_text(dtype):
  """The name TF's kernels print for a dtype ("float", "double", "int32", ...)."""
  return _TYPE_TEXT.get(dtype.name, dtype.name)


# ---- Record defaults ----
def column_defaults(record_defaults, attr, op_name):
  """[(dtype, default value or None when the column is required)] after TF's checks."""
  tensors = [convert_to_tensor(d) for d in record_defaults]
  tail = _ATTR_TAIL.get(op_name, " [Op:%s]" % op_name)
  if not tensors:
    raise errors.invalid_argument("Length for attr '%s' of 0 must be at least minimum 1%s"
                                  % (attr, tail))
  for t in tensors:
    if t.dtype.name not in CSV_TYPES:
      raise errors.invalid_argument(
          "Value for attr '%s' of %s is not in the list of allowed values: float, double, "
          "int32, int64, string%s" % (attr, type_text(t.dtype), tail))
  return tensors


def check_defaults(tensors, op_name):
  out = []
  for i, t in enumerate(tensors):
    value = np.asarray(t._value, dtype=object if t.dtype is dtypes.string else None)
    if value.ndim > 1:
      raise errors.invalid_argument("Each record default should be at most rank 1 [Op:%s]"
                                    % op_name)
    if value.size > 1:
      raise errors.invalid_argument("There should only be 1 default per field but field %d "
                                    "has %d [Op:%s]" % (i, value.size, op_name))
    out.append((t.dtype, value.reshape(-1)[0] if value.size else None))
  return out


def delimiter(field_delim, op_name):
  delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
  if len(delim) != 1:
    raise errors.invalid_argument("field_delim should be only 1 char [Op:%s]" % op_name)
  return delim


def _bytes(value):
  return value.encode() if isinstance(value, str) else bytes(value)


# ---- Field conversion (TF's safe_strto32 / safe_strtof rules) ----
_INT = re.compile(rb"\s*[+-]?[0-9]+\s*\Z")
_FLOAT = re.compile(rb"\s*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                    rb"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
                    rb"|inf(?:inity)?|nan(?:\([0-9a-zA-Z_]*\))?)\s*\Z", re.IGNORECASE)
_RANGE = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}


def _to_float(text):
  text = text.strip()
  lower = text.lower().lstrip(b"+-")
  if lower.startswith(b"nan"):
    return float("nan")
  if lower.startswith(b"0x"):
    return float.fromhex(text.decode())
  return float(text)


def converter(columns, na_value, where):
  """A function (field index, field bytes) -> value, raising TF's InvalidArgumentErrors;
  `where` is the record's name in messages ("record 0" for decode_csv, "record" in files)."""
  def convert(f, field):
    dtype, default = columns[f]
    if not field or field == na_value:
      if default is None:
        raise errors.invalid_argument("Field %d is required but missing in %s!" % (f, where))
      return default
    name = dtype.name
    if name == "string":
      return field
    if name in _RANGE:
      low, high = _RANGE[name]
      if _INT.match(field) and low <= int(field) <= high:
        return int(field)
    elif _FLOAT.match(field):
      return _to_float(field)
    raise errors.invalid_argument("Field %d in %s is not a valid %s: %s"
                                  % (f, where, type_text(dtype),
                                     field.decode("utf-8", "replace")))
  return convert


def column_array(values, dtype, shape):
  """One output column as a NumPy array of `dtype` (float32 overflow becomes inf, as TF)."""
  if dtype is dtypes.string:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out.reshape(shape)
  with np.errstate(over="ignore"):
    return np.array(values, dtype=np.float64 if dtype.is_floating else np.int64).astype(
        dtype.as_numpy_dtype).reshape(shape)


# ---- decode_csv ----
def _extract(record, delim, quote, select):
  """DecodeCSV's field splitting of one record (select: sorted column indices or None)."""
  if not record:
    return []
  if (not quote or b'"' not in record) and b"\n" not in record and b"\r" not in record:
    fields = record.split(delim)
    return fields if select is None else [fields[i] for i in select if i < len(fields)]
  result, pos, parsed, n = [], 0, 0, len(record)
  while pos < n:
    if record[pos] in b"\r\n":
      pos += 1
      continue
    if quote and record[pos:pos + 1] == b'"':
      pos += 1
      field = bytearray()
      while pos < n - 1 and (record[pos:pos + 1] != b'"' or record[pos + 1:pos + 2] != delim):
        if record[pos:pos + 1] != b'"':
          field.append(record[pos])
          pos += 1
        else:
          if record[pos + 1:pos + 2] != b'"':
            raise errors.invalid_argument("Quote inside a string has to be escaped by another "
                                          "quote [Op:DecodeCSV]")
          field.append(34)
          pos += 2
      if not (pos < n and record[pos:pos + 1] == b'"' and
              (pos == n - 1 or record[pos + 1:pos + 2] == delim)):
        raise errors.invalid_argument("Quoted field has to end with quote followed by delim "
                                      "or end [Op:DecodeCSV]")
      pos += 2
      field = bytes(field)
    else:
      end = record.find(delim, pos)
      end = n if end < 0 else end
      field = record[pos:end]
      if (quote and b'"' in field) or b"\n" in field or b"\r" in field:
        raise errors.invalid_argument("Unquoted fields cannot have quotes/CRLFs inside "
                                      "[Op:DecodeCSV]")
      pos = end + 1
    parsed += 1
    if select is None or parsed - 1 == select[len(result)]:
      result.append(field)
      if select is not None and len(result) == len(select):
        return result
  if (select is None or select[len(result)] == parsed) and record[-1:] == delim:
    result.append(b"")
  return result


@export("decode_csv", "io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
  """Splits CSV records (a string Tensor of any shape) into one Tensor per column."""
  if select_cols is not None and any(select_cols[i] >= select_cols[i + 1]
                                     for i in range(len(select_cols) - 1)):
    raise ValueError("select_cols is not strictly increasing.")
  if select_cols is not None and select_cols[0] < 0:
    raise ValueError("select_cols contains negative values.")
  if select_cols is not None and len(select_cols) != len(record_defaults):
    raise ValueError("Length of select_cols and record_defaults do not match.")
  data = _strings(convert_to_tensor(records, dtypes.string), "records")
  tensors = column_defaults(record_defaults, "OUT_TYPE", "DecodeCSV")
  delim = delimiter(field_delim, "DecodeCSV")
  columns = check_defaults(tensors, "DecodeCSV")
  select = None if not select_cols else [int(c) for c in select_cols]
  na = _bytes(na_value)
  out = [[] for _ in columns]
  for i, record in enumerate(data.reshape(-1)):
    fields = _extract(record, delim, bool(use_quote_delim), select)
    if len(fields) != len(columns):
      raise errors.invalid_argument("Expect %d fields but have %d in record %d [Op:DecodeCSV]"
                                    % (len(columns), len(fields), i))
    convert = converter(columns, na, "record %d" % i)
    try:
      for f, field in enumerate(fields):
        out[f].append(convert(f, field))
    except errors.InvalidArgumentError as e:
      raise errors.invalid_argument(e.message + " [Op:DecodeCSV]") from None
  results = []
  for (dtype, _), values in zip(columns, out):
    array = column_array(values, dtype, data.shape)
    results.append(_string_tensor(array) if dtype is dtypes.string
                   else _numeric(array, array.dtype))
  return results


# ---- format ----
@export("strings.format")
def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
  """Formats tensors into `template` at each `placeholder` (tf.print's text for tensors)."""
  if isinstance(inputs, Tensor) or hasattr(inputs, "_as_tensor"):
    inputs = [inputs]
  pieces = template.split(placeholder)
  if len(inputs) != len(pieces) - 1:
    raise ValueError("num placeholders in template and num inputs must match: {} vs {}"
                     .format(len(pieces) - 1, len(inputs)))
  texts = [logging_ops.summarize_v2(np.asarray(_host(x)), summarize) for x in inputs]
  out = pieces[0] + "".join(t + p for t, p in zip(texts, pieces[1:]))
  return _string_tensor(np.array(out.encode(), dtype=object))


def _host(value):
  tensor = convert_to_tensor(value)
  return np.asarray(tensor._value, dtype=object if tensor.dtype is dtypes.string else None)
