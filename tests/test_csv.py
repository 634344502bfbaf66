"""tf.decode_csv, tf.strings.bytes_split / format, CsvDataset and make_csv_dataset.

Golden values come from real TensorFlow (tf.compat.v1, eager). Kernel error texts are TF's
without TF 2's "{{function_node ...}}" prefix; make_csv_dataset's ValueErrors are TF 1.15's.
"""
import collections
import gzip
import math

import numpy as np
import pytest

import tfe_compat as tf

D = [[0], [0.], [""]]


def values(tensors):
  return [(np.asarray(t.numpy()).tolist(), t.dtype.name, t.shape.as_list()) for t in tensors]


def nest(e):
  if isinstance(e, tuple):
    return tuple(nest(x) for x in e)
  if isinstance(e, dict):
    return collections.OrderedDict((k, nest(v)) for k, v in e.items())
  return np.asarray(e.numpy()).tolist(), e.dtype.name


# ---- decode_csv ----
@pytest.mark.parametrize("records, defaults, kwargs, expected", [
    ("1,2.5,abc", D, {}, [(1, "int32", []), (2.5, "float32", []), (b"abc", "string", [])]),
    (["1,2,a", "3,4,b"], D, {},
     [([1, 3], "int32", [2]), ([2.0, 4.0], "float32", [2]), ([b"a", b"b"], "string", [2])]),
    ([["1,2,a"], ["3,4,b"]], D, {}, [([[1], [3]], "int32", [2, 1]),
                                     ([[2.0], [4.0]], "float32", [2, 1]),
                                     ([[b"a"], [b"b"]], "string", [2, 1])]),
    (",,", D, {}, [(0, "int32", []), (0.0, "float32", []), (b"", "string", [])]),
    ("NA,2,NA", D, {"na_value": "NA"},
     [(0, "int32", []), (2.0, "float32", []), (b"", "string", [])]),
    ('"a,b","c""d",e', [[""]] * 3, {},
     [(b"a,b", "string", []), (b'c"d', "string", []), (b"e", "string", [])]),
    ('a"b,c', [[""]] * 2, {"use_quote_delim": False},
     [(b'a"b', "string", []), (b"c", "string", [])]),
    ('"a\nb",c', [[""]] * 2, {}, [(b"a\nb", "string", []), (b"c", "string", [])]),
    ("\r\na,b", [[""]] * 2, {}, [(b"a", "string", []), (b"b", "string", [])]),
    ('"",x', [["d"], [""]], {}, [(b"d", "string", []), (b"x", "string", [])]),
    ('"a"', [["z"]], {"na_value": "a"}, [(b"z", "string", [])]),
    ("a,", [[""], ["z"]], {}, [(b"a", "string", []), (b"z", "string", [])]),
    ("1;2;x", D, {"field_delim": ";"},
     [(1, "int32", []), (2.0, "float32", []), (b"x", "string", [])]),
    ("1,2,3,4", [[0], [0]], {"select_cols": [1, 3]}, [(2, "int32", []), (4, "int32", [])]),
    ("1,2,3,", [[0], [0]], {"select_cols": [1, 3]}, [(2, "int32", []), (0, "int32", [])]),
    ('"a,b",c', [["z"]], {"select_cols": [1]}, [(b"c", "string", [])]),
    ('a,"b', [["z"]], {"select_cols": [0]}, [(b"a", "string", [])]),
    (" 1 , 2.5 ,a", D, {}, [(1, "int32", []), (2.5, "float32", []), (b"a", "string", [])]),
    ("a, b ,c", [[""]] * 3, {},
     [(b"a", "string", []), (b" b ", "string", []), (b"c", "string", [])]),
    ("+1,-2e3,a", D, {}, [(1, "int32", []), (-2000.0, "float32", []), (b"a", "string", [])]),
    ("1,0x10,a", D, {}, [(1, "int32", []), (16.0, "float32", []), (b"a", "string", [])]),
    ("1,2,a", [[0], tf.constant([], tf.float64), [""]], {},
     [(1, "int32", []), (2.0, "float64", []), (b"a", "string", [])]),
    ("1,2,a", [tf.constant([0], tf.int64), [0.], [""]], {},
     [(1, "int64", []), (2.0, "float32", []), (b"a", "string", [])]),
    ("1,", [[0], [2**40]], {}, [(1, "int32", []), (1099511627776, "int64", [])]),
    ("1,2", [[0], tf.constant(1)], {}, [(1, "int32", []), (2, "int32", [])]),
    ("1,2", [[0], [b"x"]], {}, [(1, "int32", []), (b"2", "string", [])]),
    (["1,2", "3,"], [[0], [0]], {}, [([1, 3], "int32", [2]), ([2, 0], "int32", [2])]),
])
def test_decode_csv_values(records, defaults, kwargs, expected):
  assert values(tf.decode_csv(records, defaults, **kwargs)) == expected


def test_decode_csv_empty_records_and_io_name():
  empty = tf.convert_to_tensor(np.zeros((1, 0), dtype=object))
  assert values(tf.io.decode_csv(empty, [[0], [""]])) == [([[]], "int32", [1, 0]),
                                                          ([[]], "string", [1, 0])]


@pytest.mark.parametrize("dtype, text, expected", [
    (tf.int32, "01", 1), (tf.int32, " +1", 1), (tf.int32, "\t5\t", 5),
    (tf.int32, "-2147483648", -2147483648), (tf.int64, "9223372036854775807", 2**63 - 1),
    (tf.float32, "1e40", math.inf), (tf.float32, "3.4028236e38", math.inf),
    (tf.float32, "1e-50", 0.0), (tf.float32, "-Infinity", -math.inf), (tf.float32, "INF", math.inf),
    (tf.float32, "0X1A", 26.0), (tf.float32, "0x1p3", 8.0), (tf.float32, "0x1.8", 1.5),
    (tf.float32, " .5e-3 ", np.float32(0.0005)), (tf.float32, "5.", 5.0), (tf.float32, "+.5", 0.5),
    (tf.float64, "1e-50", 1e-50), (tf.float64, "4.9e-324", 5e-324), (tf.float64, "2e308", math.inf),
    (tf.float64, "9223372036854775808", 9.223372036854776e+18),
])
def test_decode_csv_numbers(dtype, text, expected):
  out = tf.decode_csv(text, [tf.constant([], dtype)])[0]
  assert out.dtype == dtype and out.numpy() == expected


@pytest.mark.parametrize("dtype, text", [(tf.float32, "nan"), (tf.float64, "-nan"),
                                         (tf.float32, "nan(12)")])
def test_decode_csv_nan(dtype, text):
  assert np.isnan(tf.decode_csv(text, [tf.constant([], dtype)])[0].numpy())


@pytest.mark.parametrize("dtype, text", [
    (tf.int32, "+ 1"), (tf.int32, "--1"), (tf.int32, "1e2"), (tf.int32, "1.5"), (tf.int32, " "),
    (tf.int32, "2147483648"), (tf.int32, "0x10"), (tf.int64, "9223372036854775808"),
    (tf.float32, "infinit"), (tf.float32, "1e"), (tf.float32, "1_0"), (tf.float32, "1.5f"),
    (tf.float32, "0x"), (tf.float32, "."), (tf.float64, "-."), (tf.float64, "1..2"),
    (tf.float64, "1d5"),
])
def test_decode_csv_invalid_numbers(dtype, text):
  name = {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)
  with pytest.raises(tf.errors.InvalidArgumentError) as e:
    tf.decode_csv(text, [tf.constant([], dtype)])
  assert str(e.value) == ("Field 0 in record 0 is not a valid %s: %s [Op:DecodeCSV]"
                          % (name, text))


_ATTR = ("\n\t; NodeDef: {{node DecodeCSV}}; Op<name=DecodeCSV; signature=records:string, "
         "record_defaults: -> output:; attr=OUT_TYPE:list(type),min=1,allowed=[DT_FLOAT, "
         "DT_DOUBLE, DT_INT32, DT_INT64, DT_STRING]; attr=field_delim:string,default=\",\"; "
         "attr=use_quote_delim:bool,default=true; attr=na_value:string,default=\"\"; "
         "attr=select_cols:list(int),default=[]> [Op:DecodeCSV]")


@pytest.mark.parametrize("records, defaults, kwargs, error, message", [
    ("1,2", D, {}, tf.errors.InvalidArgumentError,
     "Expect 3 fields but have 2 in record 0 [Op:DecodeCSV]"),
    ("1,2,3,4", D, {}, tf.errors.InvalidArgumentError,
     "Expect 3 fields but have 4 in record 0 [Op:DecodeCSV]"),
    ("", [[1]], {}, tf.errors.InvalidArgumentError,
     "Expect 1 fields but have 0 in record 0 [Op:DecodeCSV]"),
    (",2,a", [[], [0.], [""]], {}, tf.errors.InvalidArgumentError,
     "Field 0 is required but missing in record 0! [Op:DecodeCSV]"),
    ("x,2,a", D, {}, tf.errors.InvalidArgumentError,
     "Field 0 in record 0 is not a valid int32: x [Op:DecodeCSV]"),
    ("1,y,a", D, {}, tf.errors.InvalidArgumentError,
     "Field 1 in record 0 is not a valid float: y [Op:DecodeCSV]"),
    (["1,2", "3,x"], [[0], [0]], {}, tf.errors.InvalidArgumentError,
     "Field 1 in record 1 is not a valid int32: x [Op:DecodeCSV]"),
    (["1,2", "3"], [[0], [0]], {}, tf.errors.InvalidArgumentError,
     "Expect 2 fields but have 1 in record 1 [Op:DecodeCSV]"),
    ('"a,b","c""d",e', [[""]] * 3, {"use_quote_delim": False}, tf.errors.InvalidArgumentError,
     "Expect 3 fields but have 4 in record 0 [Op:DecodeCSV]"),
    ('a"b,c', [[""]] * 2, {}, tf.errors.InvalidArgumentError,
     "Unquoted fields cannot have quotes/CRLFs inside [Op:DecodeCSV]"),
    ("a\rb", [[""]], {}, tf.errors.InvalidArgumentError,
     "Unquoted fields cannot have quotes/CRLFs inside [Op:DecodeCSV]"),
    ('"ab"c,d', [[""]] * 2, {}, tf.errors.InvalidArgumentError,
     "Quote inside a string has to be escaped by another quote [Op:DecodeCSV]"),
    ('"ab,d', [[""]] * 2, {}, tf.errors.InvalidArgumentError,
     "Quoted field has to end with quote followed by delim or end [Op:DecodeCSV]"),
    ('"', [[""]], {}, tf.errors.InvalidArgumentError,
     "Quoted field has to end with quote followed by delim or end [Op:DecodeCSV]"),
    ('"a,b,c', [["z"]], {"select_cols": [0]}, tf.errors.InvalidArgumentError,
     "Quoted field has to end with quote followed by delim or end [Op:DecodeCSV]"),
    ("1;2;x", D, {"field_delim": ";;"}, tf.errors.InvalidArgumentError,
     "field_delim should be only 1 char [Op:DecodeCSV]"),
    ("1,2,3,4", [[0], [0]], {"select_cols": [1, 5]}, tf.errors.InvalidArgumentError,
     "Expect 2 fields but have 1 in record 0 [Op:DecodeCSV]"),
    ("1,2,3,4", [[0], [0]], {"select_cols": [3, 1]}, ValueError,
     "select_cols is not strictly increasing."),
    ("1,2,3,4", [[0], [0]], {"select_cols": [-1, 1]}, ValueError,
     "select_cols contains negative values."),
    ("1,2,3,4", [[0], [0]], {"select_cols": [1]}, ValueError,
     "Length of select_cols and record_defaults do not match."),
    ("1,2,a", [[0], [0.], [[""]]], {}, tf.errors.InvalidArgumentError,
     "Each record default should be at most rank 1 [Op:DecodeCSV]"),
    ("1,2,a", [[0], [0.], ["", ""]], {}, tf.errors.InvalidArgumentError,
     "There should only be 1 default per field but field 2 has 2 [Op:DecodeCSV]"),
    ("1,2,a", [[0], [0.], [True]], {}, tf.errors.InvalidArgumentError,
     "Value for attr 'OUT_TYPE' of bool is not in the list of allowed values: float, double, "
     "int32, int64, string" + _ATTR),
    ("1,2", [[0], tf.constant([1], tf.float16)], {}, tf.errors.InvalidArgumentError,
     "Value for attr 'OUT_TYPE' of half is not in the list of allowed values: float, double, "
     "int32, int64, string" + _ATTR),
    ("1,2", [], {}, tf.errors.InvalidArgumentError,
     "Length for attr 'OUT_TYPE' of 0 must be at least minimum 1" + _ATTR),
    (1, [[0]], {}, TypeError, "Cannot convert 1 to EagerTensor of dtype string"),
])
def test_decode_csv_errors(records, defaults, kwargs, error, message):
  with pytest.raises(error) as e:
    tf.decode_csv(records, defaults, **kwargs)
  assert str(e.value) == message


def test_decode_csv_in_text_line_dataset(tmp_path):
  """The iris tutorial's input pipeline."""
  path = tmp_path / "iris.csv"
  path.write_text("120,4,setosa,versicolor,virginica\n6.4,2.8,5.6,2.2,2\n5.0,2.3,3.3,1.0,1\n"
                  "4.9,2.5,4.5,1.7,2\n")

  def parse_csv(line):
    parsed = tf.decode_csv(line, [[0.], [0.], [0.], [0.], [0]])
    return tf.reshape(parsed[:-1], shape=(4,)), tf.reshape(parsed[-1], shape=())
  dataset = tf.data.TextLineDataset(str(path)).skip(1).map(parse_csv).batch(2)
  assert dataset.output_types == (tf.float32, tf.int32)
  assert [s.as_list() for s in dataset.output_shapes] == [[None, 4], [None]]
  (x, y), (x2, y2) = list(dataset)
  np.testing.assert_allclose(x.numpy(), [[6.4, 2.8, 5.6, 2.2], [5.0, 2.3, 3.3, 1.0]], rtol=1e-6)
  assert x.dtype == tf.float32 and y.numpy().tolist() == [2, 1] and y2.numpy().tolist() == [2]
  stacked = tf.data.TextLineDataset(str(path)).skip(1).map(
      lambda line: tf.decode_csv(line, [[0.], [0.], [0.], [0.], [0]])).map(
          lambda *c: (tf.stack(c[:-1]), c[-1]))
  features, label = next(iter(stacked))
  assert features.shape.as_list() == [4] and label.numpy() == 2


# ---- bytes_split / format ----
def test_bytes_split():
  assert tf.strings.bytes_split("abc").numpy().tolist() == [b"a", b"b", b"c"]
  out = tf.strings.bytes_split("é")
  assert out.dtype == tf.string and out.numpy().tolist() == [b"\xc3", b"\xa9"]
  assert tf.strings.bytes_split("").shape.as_list() == [0]
  assert tf.strings.bytes_split(["ab", "c"]).to_list() == [[b"a", b"b"], [b"c"]]


@pytest.mark.parametrize("template, inputs, kwargs, expected", [
    ("x={} y={}", [tf.constant(1), tf.constant([1.5, 2.])], {}, b"x=1 y=[1.5 2]"),
    ("x={}", tf.constant([[1, 2, 3, 4, 5, 6, 7]]), {}, b"x=[[1 2 3 ... 5 6 7]]"),
    ("x={}", tf.constant(list(range(10))), {"summarize": 2}, b"x=[0 1 ... 8 9]"),
    ("x={}", tf.constant(list(range(10))), {"summarize": -1}, b"x=[0 1 2 3 4 5 6 7 8 9]"),
    ("x={}", tf.constant(["a", "b"]), {}, b'x=["a" "b"]'),
    ("x={}", [[1, 2]], {}, b"x=[1 2]"),
    ("x=%s", [tf.constant(True)], {"placeholder": "%s"}, b"x=1"),
    ("no", [], {}, b"no"),
    ("{}", tf.constant(1.0 / 3), {}, b"0.333333343"),
    ("{}", tf.zeros([2, 3, 2]), {}, b"[[[0 0]\n  [0 0]\n  [0 0]]\n\n [[0 0]\n  [0 0]\n  [0 0]]]"),
])
def test_strings_format(template, inputs, kwargs, expected):
  out = tf.strings.format(template, inputs, **kwargs)
  assert out.dtype == tf.string and out.shape.as_list() == [] and out.numpy() == expected


def test_strings_format_mismatch():
  with pytest.raises(ValueError, match="num placeholders in template and num inputs must "
                     "match: 2 vs 1"):
    tf.strings.format("x={} {}", [1])


# ---- CsvDataset ----
def csv_dataset(tmp_path, data, defaults, **kwargs):
  path = tmp_path / "f.csv"
  path.write_bytes(data)
  return tf.data.experimental.CsvDataset(str(path), defaults, **kwargs)


@pytest.mark.parametrize("data, defaults, kwargs, expected", [
    (b"1,2,a\n3,4,b\n", D, {}, [(1, 2.0, b"a"), (3, 4.0, b"b")]),
    (b"1,2,a\r\n3,4,b", D, {}, [(1, 2.0, b"a"), (3, 4.0, b"b")]),
    (b"h1,h2,h3\n1,2,a\n", D, {"header": True}, [(1, 2.0, b"a")]),
    (b'"h,\n1",h2,h3\n1,2,a\n', D, {"header": True}, [(1, 2.0, b"a")]),
    (b'1,2,"a\nb"\n3,4,b\n', D, {}, [(1, 2.0, b"a\nb"), (3, 4.0, b"b")]),
    (b"1,2,NA\n", D, {"na_value": "NA"}, [(1, 2.0, b"")]),
    (b"1,2,3,4\n", [[0], [0]], {"select_cols": [1, 3]}, [(2, 4)]),
    (b"1;2\n", [[0], [0]], {"field_delim": ";"}, [(1, 2)]),
    (b"", D, {}, []),
    (b"h\n", D, {"header": True}, []),
    (b" 1 , 2 ,a\n", D, {}, [(1, 2.0, b"a")]),
    (b"1,1e40,a\n", D, {}, [(1, math.inf, b"a")]),
    (b"1,2,a,\n", [[0], [0.], [""], [""]], {}, [(1, 2.0, b"a", b"")]),
    (b'1,2,"a"\n', D, {"use_quote_delim": False}, [(1, 2.0, b'"a"')]),
    (b'1,2,"a",\n', [[0], [0.], [""], ["x"]], {}, [(1, 2.0, b"a", b"x")]),
    (b"\n\n", [["z"]], {}, [(b"z",), (b"z",)]),
    (b"1\r\r2\n", [[7]], {}, [(1,), (7,), (2,)]),
    (b'"a""b",""""\n', [[""], [""]], {}, [(b'a"b', b'"')]),
    (b'"1","2"\r\n"3","4"', [[0], [0]], {}, [(1, 2), (3, 4)]),
    (b"1,,3\n", [[0], [0], [0]], {"na_value": "3"}, [(1, 0, 0)]),
])
def test_csv_dataset_values(tmp_path, data, defaults, kwargs, expected):
  dataset = csv_dataset(tmp_path, data, defaults, **kwargs)
  assert [tuple(t.numpy() for t in e) for e in dataset] == expected


def test_csv_dataset_spec_and_dtypes(tmp_path):
  dataset = csv_dataset(tmp_path, b"1,2,a\n", [tf.int32, tf.float64, tf.string])
  assert dataset.output_types == (tf.int32, tf.float64, tf.string)
  assert [s.as_list() for s in dataset.output_shapes] == [[], [], []]
  element = next(iter(dataset))
  assert [t.dtype for t in element] == [tf.int32, tf.float64, tf.string]
  gz = tmp_path / "g.csv.gz"
  with gzip.open(str(gz), "wb") as f:
    f.write(b"5,x\n")
  gz_dataset = tf.data.experimental.CsvDataset(str(gz), [[0], [""]], compression_type="GZIP")
  assert [nest(e) for e in gz_dataset] == [((5, "int32"), (b"x", "string"))]


@pytest.mark.parametrize("data, defaults, kwargs, message", [
    (b"1,2,a\n\n3,4,b\n", D, {}, "Expect 3 fields but have 1 in record"),
    (b"1,2,a\n\n", D, {}, "Expect 3 fields but have 1 in record"),
    (b"1,2\n", D, {}, "Expect 3 fields but have 2 in record"),
    (b"1,2,3,4\n", D, {}, "Expect 3 fields but have more in record"),
    (b"1,2\n", [[0], [0]], {"select_cols": [1, 3]}, "Expect 2 fields but have 1 in record"),
    (b"1,2,a\nx,2,b\n", D, {}, "Field 0 in record is not a valid int32: x"),
    (b"1,2,a\n,2,b\n", [[], [0.], [""]], {}, "Field 0 is required but missing in record!"),
    (b'1,2,"a\n', D, {}, "Reached end of file without closing quoted field in record"),
    (b'1,2,"a"b\n', D, {}, "Reached end of file without closing quoted field in record"),
    (b'x,"a"b",c\n', [[0], [""], [""]], {}, "Field 0 in record is not a valid int32: x"),
    (b'1,"a"b",c\n2,d,e\n', [[0], [""], [""]], {},
     "Quote inside a string has to be escaped by another quote"),
    (b'1,2,a"b\n', D, {}, "Unquoted fields cannot have quotes inside"),
    (b'1,2,"3,4\n', [[0], [0]], {"select_cols": [0, 1]},
     "Reached end of file without closing quoted field in record"),
    (b'1,2,3"4\n', [[0], [0]], {"select_cols": [0, 1]},
     "Unquoted fields cannot have quotes inside"),
    (b"1,2,3\n", [[0], [0]], {}, "Expect 2 fields but have more in record"),
    (b"x,2,3\n", [[0], [0]], {}, "Field 0 in record is not a valid int32: x"),
    (b'1,"2\n', [[0], [0]], {"use_quote_delim": False},
     'Field 1 in record is not a valid int32: "2'),
])
def test_csv_dataset_iteration_errors(tmp_path, data, defaults, kwargs, message):
  dataset = csv_dataset(tmp_path, data, defaults, **kwargs)
  with pytest.raises(tf.errors.InvalidArgumentError) as e:
    list(dataset)
  assert str(e.value) == message


def test_csv_dataset_header_errors(tmp_path):
  with pytest.raises(tf.errors.InvalidArgumentError, match="Can't read header of file"):
    list(csv_dataset(tmp_path, b"", D, header=True))
  with pytest.raises(tf.errors.InvalidArgumentError, match="Can't read header of file"):
    list(csv_dataset(tmp_path, b'a,b"c,d\n1,2,x\n', D, header=True))
  assert len(list(csv_dataset(tmp_path, b'a,"b\nc",d\n1,2,x\n', D, header=True))) == 1


@pytest.mark.parametrize("defaults, kwargs, message", [
    ([[0], [0]], {"select_cols": [3, 1]},
     "select_cols should be strictly increasing indices [Op:CSVDataset]"),
    ([[0], [0]], {"select_cols": [1]}, "select_cols should match output size [Op:CSVDataset]"),
    ([[0], [0]], {"field_delim": ";;"}, "field_delim should be only 1 char [Op:CSVDataset]"),
    ([[0], [0.], [[""]]], {}, "Each record default should be at most rank 1 [Op:CSVDataset]"),
    ([[0], [0.], ["", ""]], {},
     "There should only be 1 default per field but field 2 has 2 [Op:CSVDataset]"),
])
def test_csv_dataset_construction_errors(tmp_path, defaults, kwargs, message):
  with pytest.raises(tf.errors.InvalidArgumentError) as e:
    csv_dataset(tmp_path, b"1,2\n", defaults, **kwargs)
  assert str(e.value) == message
  with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'output_types' of "
                     "bool is not in the list of allowed values: float, double, int32, int64, "
                     "string"):
    csv_dataset(tmp_path, b"1\n", [[True]])


# ---- make_csv_dataset ----
@pytest.fixture
def csv_dir(tmp_path):
  (tmp_path / "a.csv").write_text("sl,sw,name,count,big,flt,empty,label\n"
                                  "5.1,3.5,setosa,1,3000000000,1e40,,0\n"
                                  "4.9,3.0,versi,2,1,nan,,1\n4.7,,virg,3,2,2.5,,2\n")
  (tmp_path / "b.csv").write_text("sl,sw,name,count,big,flt,empty,label\n6.1,2.5,x,4,5,1,,1\n")
  return tmp_path


def test_make_csv_dataset_inference(csv_dir):
  dataset = tf.data.experimental.make_csv_dataset(str(csv_dir / "a.csv"), 2, shuffle=False,
                                                  num_epochs=1, label_name="label")
  features_spec, label_spec = dataset.element_spec
  assert isinstance(features_spec, collections.OrderedDict)
  assert list(features_spec) == ["sl", "sw", "name", "count", "big", "flt", "empty"]
  assert [s.dtype.name for s in features_spec.values()] == [
      "float32", "float32", "string", "int32", "int64", "string", "string"]
  assert label_spec.dtype == tf.int32 and label_spec.shape.as_list() == [None]
  batches = [nest(e) for e in dataset]
  features, label = batches[0]
  assert features["sl"] == ([np.float32(5.1), np.float32(4.9)], "float32")
  assert features["big"] == ([3000000000, 1], "int64")
  assert features["flt"] == ([b"1e40", b"nan"], "string")
  assert features["empty"] == ([b"", b""], "string")
  assert label == ([0, 1], "int32")
  assert batches[1][0]["sw"] == ([0.0], "float32") and batches[1][1] == ([2], "int32")


def test_make_csv_dataset_options(csv_dir):
  make = tf.data.experimental.make_csv_dataset
  dataset = make([str(csv_dir / "a.csv"), str(csv_dir / "b.csv")], 3, shuffle=False,
                 num_epochs=1, label_name="label", select_columns=["sl", "count", "label"])
  assert [nest(e) for e in dataset] == [
      (collections.OrderedDict([("sl", ([np.float32(5.1), np.float32(4.9), np.float32(4.7)],
                                        "float32")), ("count", ([1, 2, 3], "int32"))]),
       ([0, 1, 2], "int32")),
      (collections.OrderedDict([("sl", ([np.float32(6.1)], "float32")),
                                ("count", ([4], "int32"))]), ([1], "int32"))]
  repeated = make(str(csv_dir / "*.csv"), 3, shuffle=False, label_name="label",
                  select_columns=[0, 2, 7])
  assert repeated.element_spec[1].shape.as_list() == [3]
  it = iter(repeated)
  assert [nest(next(it))[0]["name"][0] for _ in range(2)] == [[b"setosa", b"versi", b"virg"],
                                                               [b"x", b"setosa", b"versi"]]
  typed = make(str(csv_dir / "a.csv"), 2, shuffle=False, num_epochs=1,
               column_names=list("abcdefgh"),
               column_defaults=[tf.float32, [0.], [""], [0], [0], [0.], [""], tf.int64])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Field 4 in record is not a valid int32: 3000000000"):
    list(typed)
  one_row = make(str(csv_dir / "a.csv"), 2, shuffle=False, num_epochs=1,
                 num_rows_for_inference=1)
  assert one_row.element_spec["flt"].dtype == tf.float64
  shuffled = make(str(csv_dir / "a.csv"), 2, shuffle_seed=3, num_epochs=2, num_parallel_reads=2)
  assert sorted(sum((nest(e)["count"][0] for e in shuffled), [])) == [1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("kwargs, message", [
    ({"label_name": "nope"}, "`label_name` provided must be one of the columns."),
    ({"select_columns": ["nope"]},
     "Value 'nope' specified in select_columns not a valid column index or name."),
    ({"select_columns": [9]}, "Column index 9 specified in select_columns out of valid range."),
    ({"select_columns": [1, 1]}, "select_columns contains duplicate columns"),
    ({"header": False}, "Cannot infer column names without a header line."),
    ({"column_names": list("aacdefgh")}, "Cannot have duplicate column names."),
    ({"select_columns": [0, 1], "column_defaults": [[0.]]},
     "If specified, column_defaults and select_columns must have same length."),
])
def test_make_csv_dataset_errors(csv_dir, kwargs, message):
  with pytest.raises(ValueError) as e:
    tf.data.experimental.make_csv_dataset(str(csv_dir / "a.csv"), 2, **kwargs)
  assert str(e.value) == message
  with pytest.raises(ValueError, match="No files match"):
    tf.data.experimental.make_csv_dataset(str(csv_dir / "zzz*.csv"), 2)


def test_make_csv_dataset_ignore_errors(tmp_path):
  path = tmp_path / "bad.csv"
  path.write_text("a,b\n1,2\nx,3\n4,5,6\n7,8\n")
  dataset = tf.data.experimental.make_csv_dataset(str(path), 5, column_defaults=[[0], [0]],
                                                  shuffle=False, num_epochs=1,
                                                  ignore_errors=True)
  assert [nest(e) for e in dataset] == [
      collections.OrderedDict([("a", ([1, 7], "int32")), ("b", ([2, 8], "int32"))])]
  strict = tf.data.experimental.make_csv_dataset(str(path), 5, column_defaults=[[0], [0]],
                                                 shuffle=False, num_epochs=1)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Field 0 in record is not a valid int32: x"):
    list(strict)
