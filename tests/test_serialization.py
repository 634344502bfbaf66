"""TF's serialized formats: TensorProtos (make_tensor_proto, serialize_tensor), serialized
SparseTensors, compressed and JSON strings, SequenceExamples, SparseFeature, decode/encode_proto,
file matching, write_graph, the proto classes. Golden bytes and values from TF 2.21."""
import gzip
import os
import re
import zlib

import numpy as np
import pytest

import tfe_compat as tf


def _hex(tensor):
  return [s.hex() for s in np.ravel(tensor.numpy())]


def _sparse(sp):
  return sp.indices.numpy().tolist(), sp.values.numpy().tolist(), sp.dense_shape.numpy().tolist()


# ---- TensorProto ----
@pytest.mark.parametrize("value, dtype, golden", [
    (1.5, None, "0801120022040000c03f"),
    ([[1, 2], [3, 4]], None, "080312081202080212020802221001000000020000000300000004000000"),
    (np.zeros([0, 3], np.int64), None, "08091206120012020803"),
    ([True, False, True], None, "080a1204120208032203010001"),
    ([b"ab", b"", b"\xff"], None, "08071204120208034202616242004201ff"),
    ("hi", None, "0807120042026869"),
    ([1 + 2j], tf.complex64, "080812041202080122080000803f00000040"),
    ([1.0, 2.5], tf.bfloat16, "080e1204120208022204803f2040"),
    (0.5, tf.float16, "0813120022020038"),
    ([1, 255], tf.uint8, "0804120412020802220201ff"),
])
def test_serialize_tensor_bytes_are_tfs(value, dtype, golden):
  tensor = tf.constant(value, dtype)
  serialized = tf.io.serialize_tensor(tensor)
  assert serialized.dtype == tf.string and serialized.shape == ()
  assert serialized.numpy().hex() == golden
  parsed = tf.parse_tensor(serialized, tensor.dtype)
  assert parsed.dtype == tensor.dtype and parsed.shape == tensor.shape
  assert np.array_equal(parsed.numpy(), tensor.numpy())


def test_parse_tensor_errors_and_value_fields():
  serialized = tf.serialize_tensor(tf.constant([1.5]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Type mismatch between parsed tensor \(float\) and dtype \(int32\)"):
    tf.io.parse_tensor(serialized, tf.int32)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Could not parse `serialized` as TensorProto, base64: ////"):
    tf.io.parse_tensor(b"\xff\xff\xff", tf.float32)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Expected `serialized` to be a scalar, got shape: \[1\]"):
    tf.io.parse_tensor([b"a"], tf.float32)
  filled = tf.make_tensor_proto(7.0, shape=[2, 2]).SerializeToString()
  assert tf.io.parse_tensor(filled, tf.float32).numpy().tolist() == [[7.0, 7.0], [7.0, 7.0]]


@pytest.mark.parametrize("args, kwargs, golden", [
    ((1.5,), {}, "080112002a040000c03f"),
    (([1, 2, 3],), {}, "0803120412020803220c010000000200000003000000"),
    ((5,), {}, "080312003a0105"),
    ((2**40,), {}, "080912005206808080808020"),
    ((np.array([1.0, 2.0]),), {}, "08021204120208022210000000000000f03f0000000000000040"),
    (([1.0, 2.0],), {"dtype": tf.float64},
     "08021204120208022210000000000000f03f0000000000000040"),
    ((1.0,), {"shape": [2, 3]}, "0801120812020802120208032a040000803f"),
    ((["a", b"bc"],), {}, "080712041202080242016142026263"),
    (([True, False],), {}, "080a1204120208025a020100"),
    ((np.array([1 + 2j], np.complex64),), {}, "08081204120208014a080000803f00000040"),
    ((np.float16(0.5),), {}, "081312006a028070"),
    ((np.uint32(7),), {}, "0816120082010107"),
    (([],), {}, "080112021200"),
])
def test_make_tensor_proto_bytes_are_tfs(args, kwargs, golden):
  assert tf.make_tensor_proto(*args, **kwargs).SerializeToString().hex() == golden


def test_make_tensor_proto_from_tensor_and_text():
  proto = tf.make_tensor_proto(tf.constant([[1., 2.]]))
  assert proto.SerializeToString().hex() == "08011208120208011202080222080000803f00000040"
  assert str(tf.make_tensor_proto([[1, 2]])) == (
      'dtype: DT_INT32\ntensor_shape {\n  dim {\n    size: 1\n  }\n  dim {\n    size: 2\n  }\n}'
      '\ntensor_content: "\\001\\000\\000\\000\\002\\000\\000\\000"\n')
  assert tf.make_tensor_proto(proto) is proto
  summary = tf.Summary(value=[tf.Summary.Value(tag="t", tensor=proto)])
  assert tf.make_ndarray(summary.value[0].tensor).tolist() == [[1.0, 2.0]]


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(values=[1, 2, 3], shape=[2]), ValueError,
     "Too many elements provided. Takes at most 2, but got 3."),
    (dict(values=[1, 2], shape=[1, 2], verify_shape=True), TypeError,
     r"Expected Tensor's shape: \(1, 2\), but got \(2,\)."),
    (dict(values="a", dtype=tf.float32), TypeError, "Expected float32, but got a of type 'str'."),
    (dict(values=[1.5], dtype=tf.int32), TypeError,
     "Expected int32, but got 1.5 of type 'float'."),
    (dict(values=None), ValueError, "None values not supported."),
    (dict(values=[1, 2], shape=[3], allow_broadcast=True), TypeError,
     r"Expected Tensor's shape: \(3,\), but got \(2,\)."),
    (dict(values=[1], shape=[3], allow_broadcast=True, verify_shape=True), ValueError,
     "allow_broadcast and verify_shape are not both allowed."),
])
def test_make_tensor_proto_errors(kwargs, error, message):
  with pytest.raises(error, match=message):
    tf.make_tensor_proto(**kwargs)


def test_make_ndarray_repeats_the_last_value():
  filled = tf.make_ndarray(tf.make_tensor_proto(1.0, shape=[2, 3]))
  assert filled.dtype == np.float32 and filled.tolist() == [[1.0] * 3] * 2
  assert tf.make_ndarray(tf.make_tensor_proto(["a", "b"], shape=[3])).tolist() == [b"a", b"b",
                                                                                   b"b"]
  assert tf.make_ndarray(tf.make_tensor_proto([True, False])).tolist() == [True, False]
  complex_values = tf.make_ndarray(tf.make_tensor_proto(
      np.array([1 + 2j, 3 - 1j], np.complex64), shape=[3]))
  assert complex_values.dtype == np.complex64
  assert complex_values.tolist() == [1 + 2j, 3 - 1j, 3 - 1j]
  assert tf.make_ndarray(tf.make_tensor_proto(np.float16(0.5), shape=[2])).tolist() == [0.5,
                                                                                         0.5]
  assert tf.make_ndarray(tf.make_tensor_proto(np.uint64(2**63 + 5))).item() == 2**63 + 5
  assert tf.make_ndarray(tf.make_tensor_proto([], dtype=tf.float32, shape=[0, 2])).shape == (0,
                                                                                             2)


# ---- SparseTensors as strings ----
def test_serialize_sparse_bytes_are_tfs():
  sp = tf.SparseTensor([[0, 1], [1, 0], [1, 2]], [1.5, 2.5, 3.5], [2, 3])
  assert _hex(tf.io.serialize_sparse(sp)) == [
      "0809120812020803120208022230000000000000000001000000000000000100000000000000000000000000"
      "000001000000000000000200000000000000", "0801120412020803220c0000c03f0000204000006040",
      "0809120412020802221002000000000000000300000000000000"]
  strings = tf.serialize_sparse(tf.SparseTensor([[0]], ["a"], [4]))
  assert _hex(strings)[1] == "0807120412020801220201" "61"  # strings as TF's tensor_content
  many = tf.io.serialize_many_sparse(sp)
  assert many.shape == (2, 3) and _hex(many) == [
      "08091208120208011202080122080100000000000000", "080112041202080122040000c03f",
      "080912041202080122080300000000000000",
      "080912081202080212020801221000000000000000000200000000000000",
      "080112041202080222080000204000006040", "080912041202080122080300000000000000"]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"indices\[1\] = \[0,1\] is out of order"):
    tf.io.serialize_many_sparse(tf.SparseTensor([[1, 0], [0, 1]], [1, 2], [2, 3]))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Rank of input SparseTensor should be > 1, but saw rank: 1"):
    tf.io.serialize_many_sparse(tf.SparseTensor([[0]], [1], [3]))
  with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values: string, variant"):
    tf.io.serialize_sparse(sp, out_type=tf.int32)


def test_deserialize_many_sparse():
  a = tf.io.serialize_sparse(tf.SparseTensor([[0, 1]], [1.0], [1, 5]))
  b = tf.io.serialize_sparse(tf.SparseTensor([[0, 0], [2, 3]], [2.0, 3.0], [3, 4]))
  merged = tf.io.deserialize_many_sparse(tf.stack([a, b]), tf.float32)
  assert _sparse(merged) == ([[0, 0, 1], [1, 0, 0], [1, 2, 3]], [1.0, 2.0, 3.0], [2, 3, 5])
  sp3 = tf.SparseTensor([[0, 0, 1], [2, 1, 0]], [7, 8], [3, 2, 2])
  back = tf.deserialize_many_sparse(tf.serialize_many_sparse(sp3), tf.int32)
  assert back.values.dtype == tf.int32
  assert _sparse(back) == ([[0, 0, 1], [2, 1, 0]], [7, 8], [3, 2, 2])
  words = tf.SparseTensor([[0, 0], [1, 1]], ["x", "yz"], [2, 2])
  back = tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(words), tf.string)
  assert _sparse(back) == ([[0, 0], [1, 1]], [b"x", b"yz"], [2, 2])
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"Requested SparseTensor of type "
                     r"int32 but SparseTensor\[0\].values.dtype\(\) == float"):
    tf.io.deserialize_many_sparse(tf.stack([a, b]), tf.int32)
  rank1 = tf.io.serialize_sparse(tf.SparseTensor([[0]], [1.0], [4]))
  with pytest.raises(tf.errors.InvalidArgumentError, match="rank prior to SparseTensor"):
    tf.io.deserialize_many_sparse(tf.stack([a, rank1]), tf.float32)
  with pytest.raises(tf.errors.InvalidArgumentError, match="at least 1 serialized tensor"):
    tf.io.deserialize_many_sparse(np.zeros([0, 3], object), tf.float32)


# ---- compressed and JSON strings ----
def test_decode_compressed():
  raw = b"hello hello hello"
  out = tf.io.decode_compressed([zlib.compress(raw)], "ZLIB")
  assert out.dtype == tf.string and out.numpy().tolist() == [raw]
  assert tf.decode_compressed(gzip.compress(raw), compression_type="GZIP").numpy() == raw
  assert tf.io.decode_compressed([[b"ab"]]).numpy().tolist() == [[b"ab"]]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Only ZLIB, ZSTD, GZIP or NONE"):
    tf.io.decode_compressed(b"x", "BZ2")
  with pytest.raises(tf.errors.DataLossError,
                     match="inflate.. failed with error -3: incorrect header check"):
    tf.io.decode_compressed(gzip.compress(raw), "ZLIB")


def test_decode_json_example():
  text = ('{"features": {"feature": {"a": {"int64List": {"value": ["3", 4]}}, '
          '"b": {"floatList": {"value": [1.5]}}, "c": {"bytesList": {"value": ["aGk="]}}}}}')
  parsed = tf.io.parse_single_example(tf.io.decode_json_example(text), {
      "a": tf.io.FixedLenFeature([2], tf.int64), "b": tf.io.FixedLenFeature([1], tf.float32),
      "c": tf.io.FixedLenFeature([], tf.string)})
  assert parsed["a"].numpy().tolist() == [3, 4] and parsed["b"].numpy().tolist() == [1.5]
  assert parsed["c"].numpy() == b"hi"
  assert tf.decode_json_example([[text, text]]).shape == (1, 2)
  assert tf.io.decode_json_example('{"features": {}}').numpy() == b"\n\x00"
  with pytest.raises(tf.errors.InvalidArgumentError, match="Error while parsing JSON"):
    tf.io.decode_json_example('{"foo": 1}')


# ---- SequenceExample ----
def _feature(values):
  if values and isinstance(values[0], bytes):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
  if values and isinstance(values[0], float):
    return tf.train.Feature(float_list=tf.train.FloatList(value=values))
  return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def _sequence_example(context, lists):
  example = tf.train.SequenceExample(context=tf.train.Features(
      feature={k: _feature(v) for k, v in context.items()}))
  for key, steps in lists.items():
    feature_list = example.feature_lists.feature_list[key]
    for step in steps:
      feature_list.feature.add().CopyFrom(_feature(step))
  return example.SerializeToString()


_E1 = _sequence_example({"len": [3], "name": [b"a"]}, {
    "tok": [[1], [2], [3]], "w": [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]], "v": [[1, 2], [], [3]]})
_E2 = _sequence_example({"len": [1]}, {"tok": [[7]], "w": [[9.0, 8.0]], "v": [[5, 6, 7]]})
_CONTEXT = {"len": tf.io.FixedLenFeature([], tf.int64),
            "name": tf.io.FixedLenFeature([], tf.string, default_value="zz"),
            "lvar": tf.io.VarLenFeature(tf.int64)}
_SEQUENCE = {"tok": tf.io.FixedLenSequenceFeature([], tf.int64),
             "w": tf.io.FixedLenSequenceFeature([2], tf.float32),
             "v": tf.io.VarLenFeature(tf.int64),
             "opt": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)}


def test_parse_single_sequence_example():
  context, lists = tf.parse_single_sequence_example(_E1, _CONTEXT, _SEQUENCE)
  assert context["len"].numpy() == 3 and context["name"].numpy() == b"a"
  assert _sparse(context["lvar"]) == ([], [], [0])
  assert lists["tok"].dtype == tf.int64 and lists["tok"].numpy().tolist() == [1, 2, 3]
  assert lists["w"].numpy().tolist() == [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]]
  assert _sparse(lists["v"]) == ([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 2])
  assert lists["opt"].shape == (0,)
  context, lists = tf.io.parse_single_sequence_example(_E2, _CONTEXT, _SEQUENCE)
  assert context["name"].numpy() == b"zz" and lists["w"].numpy().tolist() == [[9.0, 8.0]]
  empty = _sequence_example({}, {"tok": []})
  _, lists = tf.io.parse_single_sequence_example(empty, None, {
      "tok": tf.io.FixedLenSequenceFeature([], tf.int64), "v": tf.io.VarLenFeature(tf.string)})
  assert lists["tok"].shape == (0,) and _sparse(lists["v"]) == ([], [], [0, 0])


def test_parse_sequence_example_batch():
  context, lists, lengths = tf.io.parse_sequence_example([_E1, _E2], _CONTEXT, _SEQUENCE)
  assert context["len"].numpy().tolist() == [3, 1]
  assert context["name"].numpy().tolist() == [b"a", b"zz"]
  assert _sparse(context["lvar"]) == ([], [], [2, 0])
  assert lists["tok"].numpy().tolist() == [[1, 2, 3], [7, 0, 0]]
  assert lists["w"].numpy().tolist() == [[[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]],
                                         [[9.0, 8.0], [0.0, 0.0], [0.0, 0.0]]]
  assert _sparse(lists["v"]) == ([[0, 0, 0], [0, 0, 1], [0, 2, 0], [1, 0, 0], [1, 0, 1],
                                  [1, 0, 2]], [1, 2, 3, 5, 6, 7], [2, 3, 3])
  assert lists["opt"].shape == (2, 0)
  assert {k: v.numpy().tolist() for k, v in lengths.items()} == {
      "opt": [0, 0], "tok": [3, 1], "w": [3, 1]}
  assert lengths["tok"].dtype == tf.int64
  strings = [_sequence_example({}, {"s": [[b"a"], [b"b"]]}), _sequence_example({}, {"s": [[b"c"]]})]
  _, lists, lengths = tf.io.parse_sequence_example(strings, None, {
      "s": tf.io.FixedLenSequenceFeature([], tf.string)})
  assert lists["s"].numpy().tolist() == [[b"a", b"b"], [b"c", b""]]


def test_parse_sequence_example_errors():
  op = r" \[Op:ParseSequenceExampleV2\]"
  with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
      "Name: <unknown>, Feature list 'nope' is required but could not be found.  Did you mean "
      "to include it in feature_list_dense_missing_assumed_empty or "
      "feature_list_dense_defaults? [Op:ParseSequenceExampleV2]")):
    tf.io.parse_sequence_example([_E2], None, {"nope": tf.io.FixedLenSequenceFeature([],
                                                                                  tf.int64)})
  with pytest.raises(tf.errors.InvalidArgumentError, match=(
      "Name: <unknown>, Feature list: tok, Index: 0.  Data types don't match. Expected type: "
      "float" + op)):
    tf.io.parse_single_sequence_example(_E1, None, {
        "tok": tf.io.FixedLenSequenceFeature([], tf.float32)})
  with pytest.raises(tf.errors.InvalidArgumentError, match=(
      r"Name: <unknown>, Key: w, Index: 0.  Number of values != expected.  values size: 2 but "
      r"output shape: \[3\]" + op)):
    tf.io.parse_single_sequence_example(_E1, None, {
        "w": tf.io.FixedLenSequenceFeature([3], tf.float32)})
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Invalid protocol message input, example id: <unknown>" + op):
    tf.io.parse_single_sequence_example(b"\xff\x01", None, {"t": tf.io.VarLenFeature(tf.int64)})
  with pytest.raises(ValueError, match="Unsupported FixedLenFeature"):
    tf.io.parse_single_sequence_example(_E1, None, {"tok": tf.io.FixedLenFeature([], tf.int64)})
  with pytest.raises(ValueError, match="Unsupported FixedLenSequenceFeature"):
    tf.io.parse_single_sequence_example(_E1, {"len": tf.io.FixedLenSequenceFeature([],
                                                                                 tf.int64)})
  with pytest.raises(ValueError, match="Both context_features and sequence_features are None"):
    tf.io.parse_single_sequence_example(_E1)
  with pytest.raises(ValueError, match="Input serialized must be a scalar"):
    tf.io.parse_single_sequence_example([_E1], None, {"tok": tf.io.VarLenFeature(tf.int64)})


# ---- SparseFeature ----
def _example(**features):
  return tf.train.Example(features=tf.train.Features(
      feature={k: _feature(v) for k, v in features.items()})).SerializeToString()


def test_sparse_feature():
  a, b = _example(ix=[3, 1], val=[0.5, 1.5]), _example(ix=[0], val=[2.5])
  feature = tf.io.SparseFeature("ix", "val", tf.float32, 5)
  assert repr(feature) == ("SparseFeature(index_key='ix', value_key='val', dtype=tf.float32, "
                           "size=5, already_sorted=False)")
  batch = tf.io.parse_example([a, b], {"sp": feature})["sp"]
  assert _sparse(batch) == ([[0, 1], [0, 3], [1, 0]], [1.5, 0.5, 2.5], [2, 5])
  kept = tf.parse_example([a, b], {"sp": tf.SparseFeature("ix", "val", tf.float32, 5, True)})
  assert _sparse(kept["sp"]) == ([[0, 3], [0, 1], [1, 0]], [0.5, 1.5, 2.5], [2, 5])
  assert _sparse(tf.io.parse_single_example(a, {"sp": feature})["sp"]) == (
      [[1], [3]], [1.5, 0.5], [5])
  grid = tf.io.SparseFeature(["i0", "i1"], "val", tf.float32, [2, 4])
  parsed = tf.io.parse_example([_example(i0=[1, 0], i1=[2, 3], val=[1.0, 2.0])], {"sp": grid})
  assert _sparse(parsed["sp"]) == ([[0, 0, 3], [0, 1, 2]], [2.0, 1.0], [1, 2, 4])
  both = tf.io.parse_example([a], {"sp": feature, "ix": tf.io.VarLenFeature(tf.int64)})
  assert sorted(both) == ["ix", "sp"] and _sparse(both["ix"])[1] == [3, 1]
  assert _sparse(tf.io.parse_example([_example(o=[1])], {"sp": feature})["sp"]) == (
      [], [], [1, 5])
  with pytest.raises(ValueError, match="Dimensions 2 and 1 are not compatible"):
    tf.io.parse_example([_example(ix=[1, 2], val=[1.0])], {"sp": feature})


# ---- decode_proto / encode_proto ----
_PROTOS = [bytes.fromhex("08011204120208042a040000c03f"),  # make_tensor_proto([1.5], shape=[4])
           bytes.fromhex("080712041202080342016142026263420164")]  # of ["a", "bc", "d"]


def test_decode_proto():
  sizes, values = tf.io.decode_proto(
      _PROTOS, "tensorflow.TensorProto",
      ["dtype", "float_val", "string_val", "tensor_shape", "version_number"],
      [tf.int32, tf.float32, tf.string, tf.string, tf.int32])
  assert sizes.dtype == tf.int32 and sizes.numpy().tolist() == [[1, 1, 0, 1, 0], [1, 0, 3, 1, 0]]
  assert [(v.dtype.name, v.numpy().tolist()) for v in values] == [
      ("int32", [[1], [7]]), ("float32", [[1.5], [0.0]]),
      ("string", [[b"", b"", b""], [b"a", b"bc", b"d"]]),
      ("string", [[b"\x12\x02\x08\x04"], [b"\x12\x02\x08\x03"]]), ("int32", [[0], [0]])]
  sizes, values = tf.io.decode_proto(_PROTOS[0], "tensorflow.TensorProto", ["float_val"],
                                     [tf.float64])
  assert sizes.numpy().tolist() == [1] and values[0].dtype == tf.float64
  sizes, values = tf.io.decode_proto(["dtype: DT_FLOAT float_val: 1 float_val: 2"],
                                     "tensorflow.TensorProto", ["dtype", "float_val"],
                                     [tf.int32, tf.float32], message_format="text")
  assert sizes.numpy().tolist() == [[1, 2]] and values[1].numpy().tolist() == [[1.0, 2.0]]
  example = tf.train.Int64List(value=[5, -1]).SerializeToString()
  _, values = tf.io.decode_proto([example], "tensorflow.Int64List", ["value"], [tf.int64])
  assert values[0].numpy().tolist() == [[5, -1]]
  with pytest.raises(tf.errors.InvalidArgumentError, match=(
      "Unexpected output type for tensorflow.TensorProto.dtype: enum to DT_INT64")):
    tf.io.decode_proto(_PROTOS, "tensorflow.TensorProto", ["dtype"], [tf.int64])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Unknown field: nope in message type tensorflow.TensorProto"):
    tf.io.decode_proto(_PROTOS, "tensorflow.TensorProto", ["nope"], [tf.int32])
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="No descriptor found for message type tensorflow.Nope"):
    tf.io.decode_proto(_PROTOS, "tensorflow.Nope", ["dtype"], [tf.int32])
  with pytest.raises(tf.errors.InvalidArgumentError, match="must have the same length"):
    tf.io.decode_proto(_PROTOS, "tensorflow.TensorProto", ["dtype", "float_val"], [tf.int32])
  with pytest.raises(tf.errors.DataLossError):
    tf.io.decode_proto([b"\xff\xff"], "tensorflow.TensorProto", ["dtype"], [tf.int32])


def test_encode_proto():
  encoded = tf.io.encode_proto(
      [[1, 2, 0], [1, 1, 2]],
      [tf.constant([[1], [7]]), tf.constant([[1.5, 2.5], [3.0, 0.0]]),
       tf.constant([[b"", b""], [b"a", b"b"]])],
      ["dtype", "float_val", "string_val"], "tensorflow.TensorProto")
  assert _hex(encoded) == ["08012a080000c03f00002040", "08072a0400004040420161420162"]
  shape = bytes.fromhex("1202080212020803")
  assert _hex(tf.io.encode_proto([[1]], [tf.constant([[shape]])], ["tensor_shape"],
                                 "tensorflow.TensorProto")) == ["12081202080212020803"]
  assert tf.io.encode_proto([[[1]], [[1]]], [tf.constant([[[1.5]], [[2.5]]])], ["float_val"],
                            "tensorflow.TensorProto").shape == (2, 1)
  with pytest.raises(tf.errors.InvalidArgumentError, match=(
      "Incompatible type for field dtype.  Saw dtype: int64 but field type is: enum")):
    tf.io.encode_proto([[1]], [tf.constant([[5]], tf.int64)], ["dtype"], "tensorflow.TensorProto")
  with pytest.raises(tf.errors.InvalidArgumentError, match=(
      "Size to write must not be larger than value tensor; but saw: 3 > 1 at message 0 field 0")):
    tf.io.encode_proto([[3]], [tf.constant([[1.5]])], ["float_val"], "tensorflow.TensorProto")


# ---- files and graphs ----
def test_matching_files(tmp_path):
  for name in ["b.txt", "a.txt", ".h.txt", "c.csv", "sub/z.txt"]:
    os.makedirs(os.path.dirname(str(tmp_path / name)), exist_ok=True)
    (tmp_path / name).write_bytes(b"")

  def relative(tensor):
    return [os.path.relpath(p.decode(), str(tmp_path)) for p in tensor.numpy()]
  found = tf.io.matching_files(str(tmp_path / "*.txt"))
  assert found.dtype == tf.string and relative(found) == [".h.txt", "a.txt", "b.txt"]
  assert relative(tf.matching_files([str(tmp_path / "*.csv"), str(tmp_path / "*/*.txt")])) == [
      "c.csv", "sub/z.txt"]
  assert relative(tf.io.matching_files(str(tmp_path / "?.t[x]t"))) == ["a.txt", "b.txt"]
  assert tf.io.matching_files(str(tmp_path / "nodir/*.txt")).shape == (0,)
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"must be scalar or vector, but had shape: \[1,1\]"):
    tf.io.matching_files([[str(tmp_path / "*.csv")]])
  variable = tf.train.match_filenames_once(str(tmp_path / "*.txt"))
  assert variable.dtype == tf.string and not variable.trainable
  assert relative(variable) == [".h.txt", "a.txt", "b.txt"]
  assert tf.io.match_filenames_once is tf.train.match_filenames_once


def test_write_graph(tmp_path):
  graph_def = tf.GraphDef(node=[tf.NodeDef(name="a", op="Const", attr={
      "dtype": tf.AttrValue(type=1)})])
  path = tf.io.write_graph(graph_def, str(tmp_path / "logs"), "g.pbtxt")
  assert path == str(tmp_path / "logs" / "g.pbtxt")
  assert open(path).read() == ('node {\n  name: "a"\n  op: "Const"\n  attr {\n    key: "dtype"\n'
                               '    value {\n      type: DT_FLOAT\n    }\n  }\n}\n')
  path = tf.train.write_graph(graph_def, str(tmp_path), "g.pb", as_text=False)
  assert tf.GraphDef.FromString(open(path, "rb").read()) == graph_def
  with tf.Graph().as_default() as graph:
    tf.matmul(tf.placeholder(tf.float32, [None, 2], name="x"), tf.ones([2, 3]), name="y")
  path = tf.io.write_graph(graph, str(tmp_path), "graph.pb", as_text=False)
  nodes = tf.GraphDef.FromString(open(path, "rb").read()).node
  assert [(n.name, n.op) for n in nodes][::2] == [("x", "Placeholder"), ("y", "MatMul")]
  assert list(nodes[2].input)[0] == "x" and len(nodes[2].input) == 2


def test_proto_classes():
  assert tf.SessionLog is tf.summary.SessionLog
  log = tf.SessionLog(status=tf.SessionLog.CHECKPOINT, checkpoint_path="ckpt")
  assert log.SerializeToString().hex() == "08031204636b7074"
  event = tf.Event(step=3, session_log=log)
  assert tf.Event.FromString(event.SerializeToString()).session_log.checkpoint_path == "ckpt"
  assert tf.LogMessage.WARN == 30 and tf.summary.TaggedRunMetadata(tag="t").tag == "t"
  assert tf.summary.SummaryDescription(type_hint="x").type_hint == "x"
  assert tf.NameAttrList(name="f").name == "f"
  example = tf.train.Example(features=tf.train.Features(feature={
      "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2, -3])),
      "b": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5]))}))
  assert example.SerializeToString(deterministic=True).hex() == (
      "0a260a150a016112101a0e0a0c0102fdffffffffffffffff010a0d0a0162120812060a040000c03f")
  sequence = tf.train.SequenceExample(context=example.features)
  sequence.feature_lists.feature_list["t"].feature.add().bytes_list.value.append(b"q")
  assert sequence.SerializeToString(deterministic=True).hex().endswith(
      "120e0a0c0a017412070a050a030a0171")


# ---- PNG (Pillow; pypng for 16-bit colour) ----
_TF_RGB16_PNG = bytes.fromhex(  # tf.image.encode_png of (arange(18).reshape(2, 3, 3) * 3000)
    "89504e470d0a1a0a0000000d494844520000000300000002100200000042862d0e0000002349444154089963"
    "6460e0de215ea0ac01812a1aca1a8c9915a5060d2f605c650d650d008fca07c12e4b885e0000000049454e44"
    "ae426082")


def test_png_16_bit_colour():
  image = (np.arange(18).reshape(2, 3, 3) * 3000).astype(np.uint16)
  assert np.array_equal(tf.image.decode_png(_TF_RGB16_PNG, dtype=tf.uint16).numpy(), image)
  assert tf.image.decode_png(_TF_RGB16_PNG).numpy()[0].tolist() == [[0, 11, 23], [35, 46, 58],
                                                                    [70, 82, 93]]
  grey = tf.image.decode_png(_TF_RGB16_PNG, channels=1, dtype=tf.uint16)
  assert grey.numpy()[..., 0].tolist() == [[2445, 11445, 20445], [29445, 38445, 47445]]
  for channels in (2, 3, 4):
    deep = np.random.RandomState(channels).randint(0, 65536, (3, 5, channels)).astype(np.uint16)
    encoded = tf.image.encode_png(deep, compression=9)
    assert np.array_equal(tf.image.decode_png(encoded, dtype=tf.uint16).numpy(), deep)
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"compression should be in \[-1,9\], "
                     "got 10"):
    tf.image.encode_png(np.zeros((2, 2, 3), np.uint8), compression=10)
