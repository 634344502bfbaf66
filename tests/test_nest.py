"""tf.nest: flatten, pack_sequence_as, map_structure, assert_same_structure, is_nested.

Expected values and error messages were checked against TensorFlow (tf.compat.v1.nest).
"""
import collections
import re
import types

import numpy as np
import pytest

import tfe_compat as tf

nest = tf.nest
NT = collections.namedtuple("NT", "b a")
NT_TWIN = collections.namedtuple("NT", "b a")  # same name and fields: the same type to nest
NT3 = collections.namedtuple("NT3", "b a")
NT_XY = collections.namedtuple("NT", "x y")
OD = collections.OrderedDict


class _Attribute:
  def __init__(self, name):
    self.name = name


class AttrsLike:
  """Looks like an attrs class to nest (it has `__attrs_attrs__`)."""
  __attrs_attrs__ = (_Attribute("y"), _Attribute("x"))

  def __init__(self, y, x):
    self.y, self.x = y, x

  def __repr__(self):
    return "AttrsLike(y=%r, x=%r)" % (self.y, self.x)


def _raises(kind, text):
  return pytest.raises(kind, match="^%s$" % re.escape(text))


def _message(first, second, detail, dots1, dots2):
  return ("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\n"
          "Second structure: %s\n\nMore specifically: %s\nEntire first structure:\n%s\n"
          "Entire second structure:\n%s" % (first, second, detail, dots1, dots2))


def test_public_names():
  assert [n for n in dir(nest) if not n.startswith("_")] == [
      "assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]
  assert tf.compat.v1.nest.flatten is nest.flatten


@pytest.mark.parametrize("structure,expected", [
    ({"b": 1, "a": [2, (3, None)], "c": "s"}, [2, 3, None, 1, "s"]),
    (OD([("b", 1), ("a", 2)]), [2, 1]),
    (NT(b=1, a=(2, 3)), [1, 2, 3]),
    (5, [5]), (None, [None]), ("abc", ["abc"]), (b"abc", [b"abc"]),
    (range(3), [0, 1, 2]), ([[], (), {}], []),
    ({"b": 1, "a": 2}.keys(), ["b", "a"]), ({"b": 1, "a": 2}.values(), [1, 2]),
    ({"b": 1, "a": 2}.items(), ["b", 1, "a", 2]),
    ({2: "x", 1: "y", 10: "z"}, ["y", "x", "z"]),
    ({(1, 2): "x", (0, 5): "y"}, ["y", "x"]),
    ({"z": [1, {"y": 2, "x": 3}], "a": ()}, [1, 3, 2]),
    (AttrsLike(y=1, x=[2, 3]), [1, 2, 3]),
    (tf.SparseTensorValue(1, 2, 3), [1, 2, 3]),
    (types.MappingProxyType({"b": 1, "a": 2}), [2, 1]),
])
def test_flatten(structure, expected):
  assert nest.flatten(structure) == expected


def test_atoms():
  array, s = np.array([1, 2]), {1, 2}
  t, v = tf.constant([1.0]), tf.Variable(2.0)
  shape = tf.TensorShape([1, 2])
  sparse = tf.SparseTensor([[0, 1]], [3.0], [2, 2])
  flat = nest.flatten([array, s, t, v, shape, sparse])
  assert len(flat) == 6 and all(a is b for a, b in zip(flat, [array, s, t, v, shape, sparse]))
  assert [nest.is_nested(x) for x in [1, [], (), {}, "s", None, array, NT(1, 2), s, range(2),
                                      t, v, sparse, AttrsLike(1, 2)]] == [
      False, True, True, True, False, False, False, True, False, True, False, False, False, True]


def test_unsortable_keys():
  with _raises(TypeError, "'<' not supported between instances of 'str' and 'int'"):
    nest.flatten({1: "a", "b": 2})
  with _raises(TypeError, "'<' not supported between instances of 'str' and 'int'"):
    nest.map_structure(lambda x: x, {1: 2, "a": 3})
  with _raises(TypeError, "nest only supports dicts with sortable keys."):
    nest.pack_sequence_as({1: 0, "a": 0}, [1, 2])


def test_pack_sequence_as():
  packed = nest.pack_sequence_as({"b": 0, "a": 0}, [1, 2])
  assert type(packed) is dict and packed == {"b": 2, "a": 1} and list(packed) == ["b", "a"]
  packed = nest.pack_sequence_as(OD([("b", 0), ("a", 0)]), [1, 2])
  assert type(packed) is OD and list(packed.items()) == [("b", 2), ("a", 1)]
  dd = collections.defaultdict(list)
  dd["z"], dd["y"] = 0, 0
  packed = nest.pack_sequence_as(dd, [1, 2])
  assert type(packed) is collections.defaultdict and packed.default_factory is list
  assert list(packed.items()) == [("z", 2), ("y", 1)]
  packed = nest.pack_sequence_as(NT(0, (0, 0)), [1, 2, 3])
  assert type(packed) is NT and packed == NT(b=1, a=(2, 3))
  assert nest.pack_sequence_as([0, [0, 0]], (1, 2, 3)) == [1, [2, 3]]
  assert nest.pack_sequence_as(0, [7]) == 7 and nest.pack_sequence_as(None, [None]) is None
  assert nest.pack_sequence_as([], []) == [] and nest.pack_sequence_as([0, 0], (1, 2)) == [1, 2]
  assert nest.pack_sequence_as(range(2), [5, 6]) == [5, 6]
  assert nest.pack_sequence_as({"b": 1, "a": 2}.keys(), [5, 6]) == [5, 6]
  assert nest.pack_sequence_as(bytearray(b"ab"), [1, 2]) == bytearray(b"\x01\x02")
  assert nest.pack_sequence_as([None, {"a": None}], [1, 2]) == [1, {"a": 2}]
  packed = nest.pack_sequence_as(AttrsLike(y=0, x=[0, 0]), [4, 5, 6])
  assert type(packed) is AttrsLike and (packed.y, packed.x) == (4, [5, 6])


def test_pack_sequence_as_errors():
  with _raises(ValueError, "Could not pack sequence. Structure had 2 atoms, but flat_sequence "
               "had 1 items.  Structure: [0, 0], flat_sequence: [1]."):
    nest.pack_sequence_as([0, 0], [1])
  with _raises(ValueError, "Could not pack sequence. Structure had 2 atoms, but flat_sequence "
               "had 3 items.  Structure: [0, 0], flat_sequence: [1, 2, 3]."):
    nest.pack_sequence_as([0, 0], [1, 2, 3])
  with _raises(ValueError, "The target structure is of type `<class 'int'>`\n  0\nHowever the "
               "input is a sequence (<class 'list'>) of length 2.\n  [7, 8]\nnest cannot "
               "guarantee that it is safe to map one to the other."):
    nest.pack_sequence_as(0, [7, 8])
  with _raises(ValueError, "The target structure is of type `<class 'int'>`\n  12\nHowever the "
               "input is a sequence (<class 'list'>) of length 60.\n  [0, 1, 2, 3, 4, 5, 6, 7, 8, "
               "9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 2...\nnest "
               "cannot guarantee that it is safe to map one to the other."):
    nest.pack_sequence_as(12, list(range(60)))
  for structure, flat, text in [(0, 7, "7"), ([0, 0], 5, "5"), ([1], "a", "a"),
                                ([0, 0], np.array([1, 2]), "[1 2]")]:
    with _raises(TypeError, "Attempted to pack value:\n  %s\ninto a structure, but found "
                 "incompatible type `%s` instead." % (text, type(flat))):
      nest.pack_sequence_as(structure, flat)
  with pytest.raises(TypeError, match="^Attempted to pack value:\n  <generator object"):
    nest.pack_sequence_as([1, 2], (x for x in [1, 2]))
  with _raises(TypeError, "Error creating an object of type <class 'mappingproxy'> like {'a': 1}."
               " Note that it must accept a single positional argument representing an iterable "
               "of key-value pairs, in addition to self. Cause: mappingproxy() argument must be "
               "a mapping, not generator"):
    nest.pack_sequence_as(types.MappingProxyType({"a": 1}), [1])


def test_map_structure():
  out = nest.map_structure(lambda x, y: x + y, {"a": (1, 2), "b": [3]},
                           {"a": (10, 20), "b": [30]})
  assert out == {"a": (11, 22), "b": [33]}
  assert nest.map_structure(lambda x: x, [None, (None,)]) == [None, (None,)]
  assert nest.map_structure(lambda x, y, z: x + y + z, [1], [2], [3]) == [6]
  assert nest.map_structure(lambda x: x + 1, 5) == 6
  assert nest.map_structure(lambda x: [x], (1, 2)) == ([1], [2])
  out = nest.map_structure(lambda x, y: x + y, {"b": 1, "a": 2}, OD([("a", 10), ("b", 20)]))
  assert type(out) is dict and list(out.items()) == [("b", 21), ("a", 12)]
  out = nest.map_structure(lambda x: x, OD([("b", 1), ("a", 2)]))
  assert type(out) is OD and list(out) == ["b", "a"]
  out = nest.map_structure(lambda x, y: x + y, NT(1, 2), NT_TWIN(10, 20))
  assert type(out) is NT and out == (11, 22)
  assert nest.map_structure(lambda x, y: x, [1], (1,), check_types=False) == [1]
  out = nest.map_structure(lambda x: x * 2, {"a": tf.constant([1, 2]), "b": (tf.constant(3.),)})
  assert out["a"].numpy().tolist() == [2, 4] and out["a"].dtype is tf.int32
  assert out["b"][0].numpy() == 6.0 and out["b"][0].dtype is tf.float32


def test_map_structure_argument_errors():
  with _raises(ValueError, "Must provide at least one structure"):
    nest.map_structure(lambda: 1)
  with _raises(TypeError, "func must be callable, got: 5"):
    nest.map_structure(5, [1])
  with _raises(ValueError, "Only valid keyword arguments are `check_types` and "
               "`expand_composites`, not: `foo`, `bar`"):
    nest.map_structure(lambda x: x, [1], foo=1, bar=2)


def test_map_structure_mismatch_errors():
  with _raises(TypeError, _message(
      "type=list str=[1]", "type=tuple str=(1,)",
      "The two namedtuples don't have the same sequence type. First structure type=list str=[1] "
      "has type list, while second structure type=tuple str=(1,) has type tuple", "[.]",
      "(.,)")):
    nest.map_structure(lambda x, y: x, [1], (1,))
  with _raises(ValueError, _message(
      "type=list str=[1, 2]", "type=list str=[1]",
      "The two structures don't have the same number of elements. First structure: type=list "
      "str=[1, 2]. Second structure: type=list str=[1]", "[., .]", "[.]")):
    nest.map_structure(lambda x, y: x, [1, 2], [1])
  with _raises(ValueError, _message(
      "type=list str=[1, [2]]", "type=list str=[1, 2]",
      'Substructure "type=list str=[2]" is a sequence, while substructure "type=int str=2" is '
      "not", "[., [.]]", "[., .]")):
    nest.map_structure(lambda x, y: x, [1, [2]], [1, 2])
  with _raises(ValueError, _message(
      "type=list str=[1]", "type=list str=[3, 4]",
      "The two structures don't have the same number of elements. First structure: type=list "
      "str=[1]. Second structure: type=list str=[3, 4]", "[.]", "[., .]")):
    nest.map_structure(lambda x, y, z: x, [1], [2], [3, 4])


def _namedtuple_detail(first, type1, second, type2):
  return ("The two namedtuples don't have the same sequence type. First structure %s has type "
          "%s, while second structure %s has type %s" % (first, type1, second, type2))


@pytest.mark.parametrize("nest1,nest2,check_types", [
    ({"a": [1, (2,)]}, {"a": [5, (6,)]}, True), (NT(1, 2), NT_TWIN(3, 4), True),
    (NT(1, 2), (3, 4), False), ({"a": 1, "b": 2}, {"a": 1, "c": 2}, False),
    ({"a": 1}, OD(a=2), True), ({"a": 1}, [2], False), (1, None, True),
    (np.array([1, 2]), 3, True), ([1], (1,), 0), ([], (), False), ([], {}, False),
    (type("L", (list,), {})([1]), [2], True),
    (tf.SparseTensor([[0, 1]], [3.0], [2, 2]), tf.SparseTensor([[0, 1]], [3], [2, 2]), True),
])
def test_assert_same_structure_passes(nest1, nest2, check_types):
  assert nest.assert_same_structure(nest1, nest2, check_types=check_types) is None


@pytest.mark.parametrize("nest1,nest2,kind,detail,dots1,dots2", [
    (NT(1, 2), NT3(3, 4), TypeError, _namedtuple_detail(
        "type=NT str=NT(b=1, a=2)", "NT", "type=NT3 str=NT3(b=3, a=4)", "NT3"),
     "NT(b=., a=.)", "NT3(b=., a=.)"),
    (NT(1, 2), NT_XY(3, 4), TypeError, _namedtuple_detail(
        "type=NT str=NT(b=1, a=2)", "NT", "type=NT str=NT(x=3, y=4)", "NT"),
     "NT(b=., a=.)", "NT(x=., y=.)"),
    (NT(1, 2), (3, 4), TypeError, _namedtuple_detail(
        "type=NT str=NT(b=1, a=2)", "NT", "type=tuple str=(3, 4)", "tuple"),
     "NT(b=., a=.)", "(., .)"),
    ({"a": 1, "b": 2}, {"a": 1, "c": 2}, ValueError,
     "The two dictionaries don't have the same set of keys. First structure has keys type=list "
     "str=['a', 'b'], while second structure has keys type=list str=['a', 'c']",
     "{'a': ., 'b': .}", "{'a': ., 'c': .}"),
    ({"a": 1, "b": 2}, {"a": 1}, ValueError,
     "The two dictionaries don't have the same set of keys. First structure has keys type=list "
     "str=['a', 'b'], while second structure has keys type=list str=['a']",
     "{'a': ., 'b': .}", "{'a': .}"),
    (OD(a=1), OD(b=2), ValueError,
     "The two dictionaries don't have the same set of keys. First structure has keys type=list "
     "str=['a'], while second structure has keys type=list str=['b']",
     "OrderedDict([('a', .)])", "OrderedDict([('b', .)])"),
    ({"a": 1}, [2], TypeError, _namedtuple_detail(
        "type=dict str={'a': 1}", "dict", "type=list str=[2]", "list"), "{'a': .}", "[.]"),
    (OD(a=1), [1], TypeError, _namedtuple_detail(
        "type=OrderedDict str=OrderedDict([('a', 1)])", "collections.OrderedDict",
        "type=list str=[1]", "list"), "OrderedDict([('a', .)])", "[.]"),
    (collections.defaultdict(int, {"a": 1}), (1,), TypeError, _namedtuple_detail(
        "type=defaultdict str=defaultdict(<class 'int'>, {'a': 1})", "collections.defaultdict",
        "type=tuple str=(1,)", "tuple"), "defaultdict(<class 'int'>, {'a': .})", "(.,)"),
    ([1, [2, 3]], [1, (2, 3)], TypeError, _namedtuple_detail(
        "type=list str=[2, 3]", "list", "type=tuple str=(2, 3)", "tuple"),
     "[., [., .]]", "[., (., .)]"),
    ([], (), TypeError, _namedtuple_detail("type=list str=[]", "list", "type=tuple str=()",
                                           "tuple"), "[]", "()"),
    (1, [1], ValueError,
     'Substructure "type=list str=[1]" is a sequence, while substructure "type=int str=1" is not',
     ".", "[.]"),
    ("ab", ["a", "b"], ValueError,
     'Substructure "type=list str=[\'a\', \'b\']" is a sequence, while substructure '
     '"type=str str=ab" is not', ".", "[., .]"),
    ([np.zeros(1)], [[1]], ValueError,
     'Substructure "type=list str=[1]" is a sequence, while substructure "type=ndarray str=[0.]"'
     " is not", "[.]", "[[.]]"),
    (AttrsLike(1, 2), (1, 2), TypeError, _namedtuple_detail(
        "type=AttrsLike str=AttrsLike(y=1, x=2)", "AttrsLike", "type=tuple str=(1, 2)", "tuple"),
     "AttrsLike(y=., x=.)", "(., .)"),
    (range(2), [1, 2], TypeError, _namedtuple_detail(
        "type=range str=range(0, 2)", "range", "type=list str=[1, 2]", "list"),
     "[., .]", "[., .]"),
    ({"a": (1, 2), "b": [{"c": 3}]}, {"a": (1, 2), "b": [{"c": [3]}]}, ValueError,
     'Substructure "type=list str=[3]" is a sequence, while substructure "type=int str=3" is not',
     "{'a': (., .), 'b': [{'c': .}]}", "{'a': (., .), 'b': [{'c': [.]}]}"),
    (((1, 2), 3), ((1,), 3), ValueError,
     "The two structures don't have the same number of elements. First structure: type=tuple "
     "str=(1, 2). Second structure: type=tuple str=(1,)", "((., .), .)", "((.,), .)"),
    ([NT(1, 2)], [NT3(1, 2)], TypeError, _namedtuple_detail(
        "type=NT str=NT(b=1, a=2)", "NT", "type=NT3 str=NT3(b=1, a=2)", "NT3"),
     "[NT(b=., a=.)]", "[NT3(b=., a=.)]"),
])
def test_assert_same_structure_errors(nest1, nest2, kind, detail, dots1, dots2):
  with _raises(kind, _message("type=%s str=%s" % (type(nest1).__name__, nest1),
                              "type=%s str=%s" % (type(nest2).__name__, nest2),
                              detail, dots1, dots2)):
    nest.assert_same_structure(nest1, nest2)


def test_assert_same_structure_tensor_and_variable_messages():
  with _raises(ValueError, _message(
      "type=EagerTensor str=tf.Tensor([1 2], shape=(2,), dtype=int32)", "type=list str=[1, 2]",
      'Substructure "type=list str=[1, 2]" is a sequence, while substructure "type=EagerTensor '
      'str=tf.Tensor([1 2], shape=(2,), dtype=int32)" is not', ".", "[., .]")):
    nest.assert_same_structure(tf.constant([1, 2]), [1, 2])
  v = tf.Variable([1.0, 2.0], name="v")
  with pytest.raises(ValueError, match=re.escape(
      'Substructure "type=list str=[1, 2]" is a sequence, while substructure '
      '"type=ResourceVariable str=<tf.Variable \'v:0\' shape=(2,) dtype=float32')):
    nest.assert_same_structure(v, [1, 2])


def test_assert_same_structure_long_structures():
  with _raises(ValueError, _message(
      "type=list str=%s" % list(range(200)), "type=list str=[[0]]",
      'Substructure "type=list str=[0]" is a sequence, while substructure "type=int str=0" is '
      "not", "[%s]" % ", ".join(["."] * 200), "[[.]]")):
    nest.assert_same_structure(list(range(200)), [[0]])


def test_sparse_tensors_and_expand_composites():
  sp = tf.SparseTensor([[0, 1]], [3.0], [2, 2])
  assert nest.flatten([sp, 1])[0] is sp
  indices, values, dense_shape = nest.flatten(sp, expand_composites=True)
  assert indices.numpy().tolist() == [[0, 1]] and indices.dtype is tf.int64
  assert values.numpy().tolist() == [3.0] and dense_shape.numpy().tolist() == [2, 2]
  assert len(nest.flatten({"s": sp, "a": 1}, expand_composites=True)) == 4
  assert nest.map_structure(lambda x: x, [sp])[0] is sp
  packed = nest.pack_sequence_as(
      {"s": sp, "a": 1}, [0, tf.constant([[1, 1]], tf.int64), tf.constant([7.0]),
                          tf.constant([2, 2], tf.int64)], expand_composites=True)
  assert packed["a"] == 0 and isinstance(packed["s"], tf.SparseTensor)
  assert packed["s"].indices.numpy().tolist() == [[1, 1]]
  assert packed["s"].values.numpy().tolist() == [7.0]
  doubled = nest.map_structure(lambda x: x * 2 if x.dtype is tf.float32 else x, [sp],
                               expand_composites=True)
  assert doubled[0].values.numpy().tolist() == [6.0]
  with _raises(ValueError, "Shapes (4, 4) and (2, 2) are not compatible"):
    nest.map_structure(lambda x: x * 2, [sp], expand_composites=True)
  text = ("SparseTensor(indices=tf.Tensor([[0 1]], shape=(1, 2), dtype=int64), values=tf.Tensor"
          "([3%s], shape=(1,), dtype=%s), dense_shape=tf.Tensor([2 2], shape=(2,), dtype=int64))")
  sp_int = tf.SparseTensor([[0, 1]], [3], [2, 2])
  with _raises(ValueError, _message(
      "type=SparseTensor str=" + text % (".", "float32"),
      "type=SparseTensor str=" + text % ("", "int32"),
      "Incompatible CompositeTensor TypeSpecs: type=SparseTensorSpec str=SparseTensorSpec("
      "TensorShape([2, 2]), tf.float32) vs. type=SparseTensorSpec str=SparseTensorSpec("
      "TensorShape([2, 2]), tf.int32)", ".", ".")):
    nest.assert_same_structure(sp, sp_int, expand_composites=True)
  with _raises(ValueError, _message(
      "type=SparseTensor str=" + text % (".", "float32"),
      "type=EagerTensor str=tf.Tensor(1.0, shape=(), dtype=float32)",
      'Substructure "type=SparseTensor str=%s" is a sequence, while substructure '
      '"type=EagerTensor str=tf.Tensor(1.0, shape=(), dtype=float32)" is not'
      % (text % (".", "float32")), ".", ".")):
    nest.assert_same_structure(sp, tf.constant(1.0), expand_composites=True)
  with _raises(TypeError, _message(
      "type=SparseTensor str=" + text % (".", "float32"), "type=list str=[1, 2, 3]",
      _namedtuple_detail("type=SparseTensor str=" + text % (".", "float32"), "SparseTensor",
                         "type=list str=[1, 2, 3]", "list"), ".", "[., ., .]")):
    nest.assert_same_structure(sp, [1, 2, 3], expand_composites=True)
  nest.assert_same_structure(sp, tf.SparseTensor([[0]], [3.0], [2]), expand_composites=True)


def test_contrib_framework_nest_is_tf_nest():
  """TF 1.x code reaches the same functions as tf.contrib.framework.nest."""
  nest = tf.contrib.framework.nest
  assert nest.flatten({"a": (1, 2), "b": 3}) == [1, 2, 3]
  assert nest.map_structure(lambda x: x * 2, [1, (2, 3)]) == [2, (4, 6)]
  assert nest.is_sequence((1,)) and not nest.is_sequence(1)
  assert nest.pack_sequence_as((0, [0]), [5, 6]) == (5, [6])
