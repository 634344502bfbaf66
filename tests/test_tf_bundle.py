"""tfe_compat.train.tf_bundle: TensorFlow's checkpoint format, against checkpoints that real
TensorFlow wrote (tests/data/tf_checkpoints, made by make_golden.py there)."""
import glob
import importlib.util
import json
import os
import shutil

import ml_dtypes
import numpy as np
import pytest

from tfe_compat.framework import errors
from tfe_compat.proto import trackable_object_graph_pb2
from tfe_compat.train import tf_bundle

GOLDEN_DIR = os.path.join(os.path.dirname(__file__), "data", "tf_checkpoints")
GOLDENS = {os.path.basename(os.path.dirname(path)): path[:-len(".index")]
           for path in glob.glob(os.path.join(GOLDEN_DIR, "*", "*.index"))
           if "written_by_tfe" not in path}
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def _writer_input():
  spec = importlib.util.spec_from_file_location(
      "writer_input", os.path.join(GOLDEN_DIR, "writer_input.py"))
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module.arrays()


def _numpy_dtype(tf_name):
  return np.dtype({"string": object, "bfloat16": ml_dtypes.bfloat16}.get(tf_name, tf_name))


def _expected(name):
  """{key: array} as TensorFlow's own reader read the golden checkpoint `name`."""
  directory = os.path.dirname(GOLDENS[name])
  with open(os.path.join(directory, "expected.json")) as f:
    infos = json.load(f)
  with np.load(os.path.join(directory, "expected.npz"), allow_pickle=False) as npz:
    numeric = {key: npz[key] for key in npz.files}
  arrays = {}
  for key, info in infos.items():
    dtype = _numpy_dtype(info["dtype"])
    if "hex" in info:
      array = np.empty(len(info["hex"]), dtype=object)
      array[:] = [bytes.fromhex(element) for element in info["hex"]]
    else:
      array = numeric[key].view(dtype)
    arrays[key] = array.reshape(info["shape"])
  return arrays


def _assert_same(actual, expected, key=""):
  assert actual.dtype == expected.dtype, key
  assert actual.shape == expected.shape, key
  if expected.dtype == object:
    assert all(isinstance(element, bytes) for element in actual.flat), key
    assert actual.tolist() == expected.tolist(), key
  else:
    assert actual.tobytes() == expected.tobytes(), key  # bit-exact


def _copy(name, tmp_path):
  """A copy of golden `name` under tmp_path; its prefix."""
  prefix = GOLDENS[name]
  shutil.copytree(os.path.dirname(prefix), tmp_path / name)
  return str(tmp_path / name / os.path.basename(prefix))


def _flip_bit(path, offset):
  with open(path, "r+b") as f:
    f.seek(offset)
    byte = f.read(1)[0]
    f.seek(offset)
    f.write(bytes([byte ^ 0x10]))


def test_goldens_are_all_there():
  assert sorted(GOLDENS) == ["all_dtypes", "graph_saver", "keras_save_weights",
                             "object_keras_adam", "object_keras_legacy_adam", "partitioned",
                             "sliced_save_v2", "two_shards"]


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_reads_golden_checkpoint_exactly(name):
  expected = _expected(name)
  assert tf_bundle.is_bundle(GOLDENS[name])
  assert tf_bundle.read_entries(GOLDENS[name]) == {
      key: (value.dtype, value.shape) for key, value in expected.items()}
  arrays = tf_bundle.read(GOLDENS[name])
  assert arrays.keys() == expected.keys()
  for key, value in expected.items():
    _assert_same(arrays[key], value, key)


def test_reads_chosen_keys():
  arrays = tf_bundle.read(GOLDENS["graph_saver"], keys=["global_step"])
  assert list(arrays) == ["global_step"]
  _assert_same(arrays["global_step"], np.array(7, np.int64))


def test_graph_saver_values():
  arrays = tf_bundle.read(GOLDENS["graph_saver"])
  np.testing.assert_array_equal(arrays["dense/kernel"],
                                np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
  np.testing.assert_array_equal(arrays["dense/bias"], [0.5, -1.5, 2.0])


def test_all_dtypes_hold_what_was_saved():
  arrays = tf_bundle.read(GOLDENS["all_dtypes"])
  for key, value in _writer_input().items():
    _assert_same(arrays[key], value, key)
  assert arrays["string/scalar"].shape == () and arrays["string/scalar"].dtype == object
  assert arrays["string/scalar"][()] == b"hello, bundle"


@pytest.mark.parametrize("name", ["object_keras_adam", "object_keras_legacy_adam",
                                  "keras_save_weights"])
def test_object_graph_parses(name):
  entries = tf_bundle.read_entries(GOLDENS[name])
  assert entries[OBJECT_GRAPH_KEY] == (np.dtype(object), ())
  serialized = tf_bundle.read(GOLDENS[name], [OBJECT_GRAPH_KEY])[OBJECT_GRAPH_KEY][()]
  graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(serialized)
  assert len(graph.nodes) > 4
  keys = {attribute.checkpoint_key for node in graph.nodes for attribute in node.attributes}
  assert keys == set(entries) - {OBJECT_GRAPH_KEY}
  children = {child.local_name for child in graph.nodes[0].children}
  assert children >= ({"model", "optimizer", "save_counter"} if name != "keras_save_weights"
                      else {"layer_with_weights-0", "layer_with_weights-1"})


def test_legacy_adam_object_graph_has_slot_variables():
  prefix = GOLDENS["object_keras_legacy_adam"]
  graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
      tf_bundle.read(prefix, [OBJECT_GRAPH_KEY])[OBJECT_GRAPH_KEY][()])
  slots = [slot for node in graph.nodes for slot in node.slot_variables]
  assert sorted(slot.slot_name for slot in slots) == ["m"] * 4 + ["v"] * 4
  slot_keys = {graph.nodes[slot.slot_variable_node_id].attributes[0].checkpoint_key
               for slot in slots}
  assert "model/out/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE" in slot_keys


def test_partitioned_variable_is_joined():
  prefix = GOLDENS["partitioned"]
  assert tf_bundle.read_entries(prefix) == {"embedding": (np.dtype(np.float32), (10, 3)),
                                            "plain": (np.dtype(np.int64), (2,))}
  embedding = tf_bundle.read(prefix, ["embedding"])["embedding"]
  _assert_same(embedding, np.arange(30, dtype=np.float32).reshape(10, 3))


def test_slices_without_length_and_long_starts():
  arrays = tf_bundle.read(GOLDENS["sliced_save_v2"])
  _assert_same(arrays["matrix"], np.arange(12, dtype=np.float64).reshape(4, 3))
  _assert_same(arrays["long"], np.arange(200, dtype=np.int32))


def test_two_shards():
  prefix = GOLDENS["two_shards"]
  assert os.path.exists(prefix + ".data-00000-of-00002")
  assert os.path.exists(prefix + ".data-00001-of-00002")
  arrays = tf_bundle.read(prefix)
  _assert_same(arrays["on_cpu1/v"], np.array([3, 4, 5], np.int32))
  _assert_same(arrays["on_cpu0/names"], np.array([b"x", b"yz"], dtype=object))


def test_is_bundle_false_for_other_files(tmp_path):
  assert not tf_bundle.is_bundle(str(tmp_path / "missing"))
  (tmp_path / "ours.index").write_text('{"format": "tfe_compat-orbax-1"}' + " " * 64)
  assert not tf_bundle.is_bundle(str(tmp_path / "ours"))
  (tmp_path / "short.index").write_bytes(b"\x57\xfb\x80\x8b")
  assert not tf_bundle.is_bundle(str(tmp_path / "short"))
  (tmp_path / "dir.index").mkdir()
  assert not tf_bundle.is_bundle(str(tmp_path / "dir"))


def test_write_read_round_trip_every_dtype(tmp_path):
  arrays = _writer_input()
  prefix = str(tmp_path / "sub" / "ckpt")
  tf_bundle.write(prefix, arrays)
  assert sorted(os.listdir(tmp_path / "sub")) == ["ckpt.data-00000-of-00001", "ckpt.index"]
  assert tf_bundle.is_bundle(prefix)
  assert tf_bundle.read_entries(prefix) == {
      key: (value.dtype, value.shape) for key, value in arrays.items()}
  restored = tf_bundle.read(prefix)
  for key, value in arrays.items():
    _assert_same(restored[key], value, key)


def test_write_converts_inputs(tmp_path):
  prefix = str(tmp_path / "ckpt")
  tf_bundle.write(prefix, {"text": np.array(["a", "\u00e9"]), "bytes": np.array([b"x", b"yz"]),
                           "big_endian": np.array([1, 2], ">i4"), "float": 1.5,
                           "transposed": np.arange(6, dtype=np.int16).reshape(2, 3).T})
  arrays = tf_bundle.read(prefix)
  _assert_same(arrays["text"], np.array([b"a", "\u00e9".encode()], dtype=object))
  _assert_same(arrays["bytes"], np.array([b"x", b"yz"], dtype=object))
  _assert_same(arrays["big_endian"], np.array([1, 2], np.int32))
  _assert_same(arrays["float"], np.array(1.5))
  _assert_same(arrays["transposed"], np.arange(6, dtype=np.int16).reshape(2, 3).T.copy())


def test_written_bytes_equal_the_tf_verified_golden(tmp_path):
  prefix = str(tmp_path / "arrays")
  tf_bundle.write(prefix, _writer_input())
  golden = os.path.join(GOLDEN_DIR, "written_by_tfe", "arrays")
  for suffix in (".index", ".data-00000-of-00001"):
    with open(prefix + suffix, "rb") as ours, open(golden + suffix, "rb") as tfs:
      assert ours.read() == tfs.read(), suffix


def test_write_replaces_a_checkpoint_and_leaves_no_temporary_files(tmp_path):
  prefix = str(tmp_path / "ckpt")
  tf_bundle.write(prefix, {"a": np.zeros(3)})
  tf_bundle.write(prefix, {"b": np.ones(2, np.int8)})
  assert sorted(os.listdir(tmp_path)) == ["ckpt.data-00000-of-00001", "ckpt.index"]
  assert list(tf_bundle.read(prefix)) == ["b"]


def test_write_rejects_what_tf_cannot_store(tmp_path):
  prefix = str(tmp_path / "ckpt")
  with pytest.raises(errors.InvalidArgumentError, match="unsupported dtype"):
    tf_bundle.write(prefix, {"when": np.array(["2020-01-01"], "datetime64[D]")})
  with pytest.raises(errors.InvalidArgumentError, match="only bytes or str"):
    tf_bundle.write(prefix, {"objects": np.array([1, None], dtype=object)})
  with pytest.raises(errors.InvalidArgumentError, match="empty"):
    tf_bundle.write(prefix, {"": np.zeros(1)})
  assert not os.listdir(tmp_path)


def test_flipped_bit_in_data_is_data_loss(tmp_path):
  prefix = _copy("graph_saver", tmp_path)
  _flip_bit(prefix + ".data-00000-of-00001", 5)
  with pytest.raises(errors.DataLossError, match="Checksum does not match: stored .* vs. "
                     "calculated on the restored bytes"):
    tf_bundle.read(prefix)


def test_flipped_bit_in_string_tensor_is_data_loss(tmp_path):
  prefix = str(tmp_path / "ckpt")
  tf_bundle.write(prefix, {"s": np.array([b"abc", b"defg"], dtype=object)})
  data = prefix + ".data-00000-of-00001"
  _flip_bit(data, 8)  # in the string bytes (after 2 varints and the 4-byte length checksum)
  with pytest.raises(errors.DataLossError, match="Checksum does not match"):
    tf_bundle.read(prefix)
  _flip_bit(data, 8)
  _flip_bit(data, 0)  # a length
  with pytest.raises(errors.DataLossError):
    tf_bundle.read(prefix)


def test_truncated_index_is_data_loss(tmp_path):
  prefix = _copy("graph_saver", tmp_path)
  with open(prefix + ".index", "r+b") as f:
    f.truncate(os.path.getsize(prefix + ".index") - 10)
  with pytest.raises(errors.DataLossError, match="not an sstable"):
    tf_bundle.read_entries(prefix)
  with open(prefix + ".index", "r+b") as f:
    f.truncate(20)
  with pytest.raises(errors.DataLossError, match="too short"):
    tf_bundle.read(prefix)


def test_corrupt_index_block_is_data_loss(tmp_path):
  prefix = _copy("graph_saver", tmp_path)
  _flip_bit(prefix + ".index", 3)
  with pytest.raises(errors.DataLossError, match="block checksum mismatch"):
    tf_bundle.read_entries(prefix)


def test_truncated_data_file_is_data_loss(tmp_path):
  prefix = _copy("graph_saver", tmp_path)
  with open(prefix + ".data-00000-of-00001", "r+b") as f:
    f.truncate(10)
  with pytest.raises(errors.DataLossError, match="truncated"):
    tf_bundle.read(prefix)


def test_missing_files_are_not_found(tmp_path):
  with pytest.raises(errors.NotFoundError, match="nothing.index"):
    tf_bundle.read_entries(str(tmp_path / "nothing"))
  prefix = _copy("two_shards", tmp_path)
  os.remove(prefix + ".data-00001-of-00002")
  assert tf_bundle.read(prefix, ["on_cpu0/w"])["on_cpu0/w"].shape == (1, 2)
  with pytest.raises(errors.NotFoundError, match="model.data-00001-of-00002"):
    tf_bundle.read(prefix)


def test_unknown_key_is_not_found():
  with pytest.raises(errors.NotFoundError, match="Key nope not found in checkpoint"):
    tf_bundle.read(GOLDENS["graph_saver"], ["dense/bias", "nope"])
  with pytest.raises(errors.NotFoundError, match="not found in checkpoint"):
    tf_bundle.read(GOLDENS["graph_saver"], [""])
