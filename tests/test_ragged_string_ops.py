"""tf.strings ops with ragged results: split, bytes_split, unicode_*, ngrams,
unsorted_segment_join (golden values from TF)."""
import pytest

import tfe_compat as tf

S = ["Hello", "\u00e9t\u00e9 \U0001F600", ""]
BAD = [b"a\xffb", b"\xe9t", b"ok\xc3"]


def lst(value):
  return value.to_list() if isinstance(value, tf.RaggedTensor) else value.numpy().tolist()


def test_split_ragged_results():
  split = tf.compat.v1.strings.split
  assert lst(split(["a b c", "d  e", ""], result_type="RaggedTensor")) == \
      [[b"a", b"b", b"c"], [b"d", b"e"], []]
  assert lst(split(["a,b,,c", "d"], sep=",", result_type="RaggedTensor")) == \
      [[b"a", b"b", b"", b"c"], [b"d"]]
  assert lst(split(["a b c", "d e"], maxsplit=1, result_type="RaggedTensor")) == \
      [[b"a", b"b c"], [b"d", b"e"]]
  assert lst(split([["a b", "c"], ["d", ""]], result_type="RaggedTensor")) == \
      [[[b"a", b"b"], [b"c"]], [[b"d"], []]]
  assert lst(split("a b", result_type="RaggedTensor")) == [[b"a", b"b"]]
  assert lst(split(tf.ragged.constant([["a b"], ["c d e", "f"]]), result_type="RaggedTensor")) \
      == [[[b"a", b"b"]], [[b"c", b"d", b"e"], [b"f"]]]
  sparse = split("a b")
  assert isinstance(sparse, tf.SparseTensor) and lst(sparse.indices) == [[0, 0], [0, 1]]
  assert lst(sparse.dense_shape) == [1, 2]
  with pytest.raises(ValueError, match="result_type must be 'RaggedTensor' or 'SparseTensor'."):
    split(["a"], result_type="Foo")
  assert lst(tf.string_split(["a b", "c,d"], delimiter=" ,", result_type="RaggedTensor")) == \
      [[b"a", b"b"], [b"c", b"d"]]
  assert lst(tf.string_split(["a  b"], skip_empty=False, result_type="RaggedTensor")) == \
      [[b"a", b"", b"b"]]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"input must be a vector, got shape: \[1,1\] \[Op:StringSplit\]"):
    tf.string_split([["a b"]], result_type="RaggedTensor")


def test_bytes_split():
  out = tf.strings.bytes_split("hello")
  assert isinstance(out, tf.Tensor) and lst(out) == [b"h", b"e", b"l", b"l", b"o"]
  assert lst(tf.strings.bytes_split(["hello", "", "ab"])) == \
      [[b"h", b"e", b"l", b"l", b"o"], [], [b"a", b"b"]]
  assert lst(tf.strings.bytes_split([["ab", "c"], ["", "d"]])) == [[[b"a", b"b"], [b"c"]],
                                                                  [[], [b"d"]]]
  assert lst(tf.strings.bytes_split(tf.ragged.constant([["ab"], ["c", "d"]]))) == \
      [[[b"a", b"b"]], [[b"c"], [b"d"]]]
  assert lst(tf.strings.bytes_split(["\u00e9"])) == [[b"\xc3", b"\xa9"]]


def test_unicode_decode():
  decode = tf.strings.unicode_decode
  out = decode(S, "UTF-8")
  assert out.dtype == tf.int32 and out.row_splits.dtype == tf.int64
  assert lst(out) == [[72, 101, 108, 108, 111], [233, 116, 233, 32, 128512], []]
  scalar = decode("h\u00e9", "UTF-8")
  assert isinstance(scalar, tf.Tensor) and lst(scalar) == [104, 233]
  assert lst(decode([["ab", "c"], ["d", ""]], "UTF-8")) == [[[97, 98], [99]], [[100], []]]
  assert lst(decode(tf.ragged.constant([["ab"], ["c", "d"]]), "UTF-8")) == \
      [[[97, 98]], [[99], [100]]]
  assert lst(decode(tf.constant([[[b"ab"]]]), "UTF-8")) == [[[[97, 98]]]]
  assert lst(decode(BAD, "UTF-8")) == [[97, 65533, 98], [65533, 116], [111, 107, 65533]]
  assert lst(decode(BAD, "UTF-8", replacement_char=63)) == [[97, 63, 98], [63, 116],
                                                             [111, 107, 63]]
  assert lst(decode(BAD, "UTF-8", errors="ignore")) == [[97, 98], [116], [111, 107]]
  assert lst(decode([b"\xed\xa0\x80", b"\xc0\x80x", b"\xf0\x9f\x98", b"\xf4\x90\x80\x80"],
                    "utf-8")) == [[65533] * 3, [65533, 65533, 120], [65533], [65533] * 4]
  assert lst(decode([b"a\x00\x7f\x1f b"], "UTF-8", replace_control_characters=True)) == \
      [[97, 65533, 127, 65533, 32, 98]]
  utf16 = ["hi\u00e9".encode("utf-16-be"), "\U0001F600".encode("utf-16-be"), b"\x00a\x00",
           b"\xd8\x00\x00a"]
  assert lst(decode(utf16, "UTF-16-BE")) == [[104, 105, 233], [128512], [97, 65533], [65533, 97]]
  assert lst(decode(["hi".encode("utf-32-be"), b"\x00\x11\x00\x00\x00\x00\x00a"],
                    "UTF-32-BE")) == [[104, 105], [65533, 97]]
  assert lst(decode([b"\xe9"], "ISO-8859-1")) == [[233]]
  assert lst(decode([b"a\xffb"], "UTF-8", replacement_char=0xD800)) == [[97, 55296, 98]]
  for kwargs, message in [
      ({"errors": "strict"}, "Invalid formatting on input string [Op:UnicodeDecode]"),
      ({"errors": "foo"}, "Value for attr 'errors' of \"foo\" is not in the list of allowed "
                          "values: \"strict\", \"replace\", \"ignore\" [Op:UnicodeDecode]"),
      ({"replacement_char": 0x110000}, "replacement_char out of unicode codepoint range "
                                       "[Op:UnicodeDecode]"),
      ({"input_encoding": "FOO"}, "Could not create converter for input encoding: FOO "
                                  "[Op:UnicodeDecode]")]:
    args = {"input_encoding": "UTF-8", **kwargs}
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
      decode(BAD, **args)
    assert str(info.value) == message
  with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute UnicodeDecode as "
                     "input #0\\(zero-based\\) was expected to be a string tensor but is a int32"):
    decode([1], "UTF-8")


def test_unicode_decode_and_split_with_offsets():
  chars, offsets = tf.strings.unicode_decode_with_offsets(S, "UTF-8")
  assert lst(chars)[1] == [233, 116, 233, 32, 128512]
  assert offsets.dtype == tf.int64 and lst(offsets) == [[0, 1, 2, 3, 4], [0, 2, 3, 5, 6], []]
  assert lst(tf.strings.unicode_decode_with_offsets(BAD, "UTF-8")[1]) == [[0, 1, 2], [0, 1],
                                                                          [0, 1, 2]]
  chars, offsets = tf.strings.unicode_decode_with_offsets(BAD, "UTF-8", errors="ignore")
  assert lst(chars) == [[97, 98], [116], [111, 107]] and lst(offsets) == [[0, 2], [1], [0, 1]]
  chars, offsets = tf.strings.unicode_decode_with_offsets(
      ["h\U0001F600i".encode("utf-16-be")], "UTF-16-BE")
  assert lst(chars) == [[104, 128512, 105]] and lst(offsets) == [[0, 2, 6]]
  chars, offsets = tf.strings.unicode_decode_with_offsets("h\u00e9", "UTF-8")
  assert lst(chars) == [104, 233] and lst(offsets) == [0, 1] and offsets.dtype == tf.int64
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Invalid formatting on input string \[Op:UnicodeDecodeWithOffsets\]"):
    tf.strings.unicode_decode_with_offsets(BAD, "UTF-8", errors="strict")
  split = [[b"H", b"e", b"l", b"l", b"o"], [b"\xc3\xa9", b"t", b"\xc3\xa9", b" ",
                                            b"\xf0\x9f\x98\x80"], []]
  assert lst(tf.strings.unicode_split(S, "UTF-8")) == split
  assert lst(tf.strings.unicode_split(BAD, "UTF-8")) == [
      [b"a", b"\xef\xbf\xbd", b"b"], [b"\xef\xbf\xbd", b"t"], [b"o", b"k", b"\xef\xbf\xbd"]]
  assert lst(tf.strings.unicode_split(BAD, "UTF-8", errors="ignore")) == [[b"a", b"b"], [b"t"],
                                                                          [b"o", b"k"]]
  assert lst(tf.strings.unicode_split(["h\u00e9".encode("utf-16-be")], "UTF-16-BE")) == \
      [[b"\x00h", b"\x00\xe9"]]
  scalar = tf.strings.unicode_split("h\u00e9", "UTF-8")
  assert isinstance(scalar, tf.Tensor) and lst(scalar) == [b"h", b"\xc3\xa9"]
  chars, offsets = tf.strings.unicode_split_with_offsets(S, "UTF-8")
  assert lst(chars) == split and lst(offsets) == [[0, 1, 2, 3, 4], [0, 2, 3, 5, 6], []]
  with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'output_encoding' of "
                                                           "\"ISO-8859-1\""):
    tf.strings.unicode_split([b"\xe9"], "ISO-8859-1")


def test_unicode_encode():
  encode = tf.strings.unicode_encode
  out = encode(tf.ragged.constant([[104, 233], [], [128512]]), "UTF-8")
  assert isinstance(out, tf.Tensor) and lst(out) == [b"h\xc3\xa9", b"", b"\xf0\x9f\x98\x80"]
  assert lst(encode(tf.constant([[104, 233], [105, 106]]), "UTF-8")) == [b"h\xc3\xa9", b"ij"]
  assert encode([104, 233], "UTF-8").numpy() == b"h\xc3\xa9"
  assert lst(encode(tf.constant([[[104, 105]]]), "UTF-8")) == [[b"hi"]]
  assert lst(encode(tf.ragged.constant([[104, 128512]]), "UTF-16-BE")) == [b"\x00h\xd8=\xde\x00"]
  assert lst(encode(tf.ragged.constant([[104]]), "UTF-32-BE")) == [b"\x00\x00\x00h"]
  assert lst(encode(tf.ragged.constant([[[104, 105]], [[106], []]]), "UTF-8")) == \
      [[b"hi"], [b"j", b""]]
  bad = tf.ragged.constant([[104, -1, 0x110000, 0xD800]])
  assert lst(encode(bad, "UTF-8")) == [b"h" + b"\xef\xbf\xbd" * 3]
  assert lst(encode(bad, "UTF-8", replacement_char=63)) == [b"h???"]
  assert lst(encode(bad, "UTF-8", replacement_char=0xD800)) == [b"h" + b"\xef\xbf\xbd" * 3]
  assert lst(encode(bad, "UTF-8", errors="ignore")) == [b"h"]
  for args, kwargs, message in [
      ((bad, "UTF-8"), {"errors": "strict"},
       "Code point is out of range for Unicode, or is a surrogate. [Op:UnicodeEncode]"),
      ((bad, "UTF-7"), {}, "Value for attr 'output_encoding' of \"UTF-7\" is not in the list of "
                           "allowed values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\" "
                           "[Op:UnicodeEncode]"),
      ((bad, "UTF-8"), {"errors": "foo"}, "Value for attr 'errors' of \"foo\" is not in the list "
                                          "of allowed values: \"ignore\", \"replace\", "
                                          "\"strict\" [Op:UnicodeEncode]"),
      ((tf.constant([104], tf.int64), "UTF-8"), {},
       "cannot compute UnicodeEncode as input #0(zero-based) was expected to be a int32 tensor "
       "but is a int64 tensor [Op:UnicodeEncode]")]:
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
      encode(*args, **kwargs)
    assert str(info.value) == message
  with pytest.raises(ValueError, match="input_tensor's rank must be at least 1."):
    encode(104, "UTF-8")


D = [["a", "b", "c", "d"], ["e"], []]


@pytest.mark.parametrize("args, kwargs, expected", [
    ((2,), {}, [[b"a b", b"b c", b"c d"], [], []]),
    ((2,), {"separator": "|"}, [[b"a|b", b"b|c", b"c|d"], [], []]),
    (([1, 3],), {}, [[b"a", b"b", b"c", b"d", b"a b c", b"b c d"], [b"e"], []]),
    (((2,),), {}, [[b"a b", b"b c", b"c d"], [], []]),
    ((3,), {"pad_values": ("<s>", "</s>")},
     [[b"<s> <s> a", b"<s> a b", b"a b c", b"b c d", b"c d </s>", b"d </s> </s>"],
      [b"<s> <s> e", b"<s> e </s>", b"e </s> </s>"], [b"<s> <s> </s>", b"<s> </s> </s>"]]),
    ((2,), {"pad_values": "#"}, [[b"# a", b"a b", b"b c", b"c d", b"d #"], [b"# e", b"e #"],
                                 [b"# #"]]),
    ((3,), {"pad_values": "#", "padding_width": 1},
     [[b"# a b", b"a b c", b"b c d", b"c d #"], [b"# e #"], []]),
    ((2,), {"pad_values": "#", "padding_width": 3},
     [[b"# a", b"a b", b"b c", b"c d", b"d #"], [b"# e", b"e #"], [b"# #"]]),
    ((3,), {"preserve_short_sequences": True}, [[b"a b c", b"b c d"], [b"e"], []]),
    ((5,), {"pad_values": "#", "padding_width": 1, "preserve_short_sequences": True},
     [[b"# a b c d", b"a b c d #"], [b"# e #"], []]),
    ((2,), {"pad_values": ("a", "b", "c")},
     [[b"a a", b"a b", b"b c", b"c d", b"d b"], [b"a e", b"e b"], [b"a b"]]),
])
def test_ngrams(args, kwargs, expected):
  assert lst(tf.strings.ngrams(tf.ragged.constant(D), *args, **kwargs)) == expected


def test_ngrams_dense_nested_and_errors():
  dense = tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2)
  assert isinstance(dense, tf.Tensor) and lst(dense) == [b"a b", b"b c"]
  assert lst(tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2)) == \
      [[b"a b", b"b c"], [b"d e", b"e f"]]
  assert lst(tf.strings.ngrams(tf.ragged.constant([[["a", "b"]], [["c", "d", "e"], []]]), 2)) == \
      [[[b"a b"]], [[b"c d", b"d e"], []]]
  data = tf.ragged.constant(D)
  for kwargs, error, message in [
      ({"data": tf.constant("a")}, ValueError, "Data must have rank>0"),
      ({"pad_values": 3}, TypeError, "pad_values must be a string, tuple of strings, or None."),
      ({"padding_width": 1}, ValueError, "pad_values must be provided if padding_width is set."),
      ({"ngram_width": 0}, ValueError, "All ngram_widths must be greater than 0. Got 0"),
      ({"data": tf.ragged.constant([[1, 2]])}, ValueError,
       "Tensor conversion requested dtype string for RaggedTensor with dtype int32: "
       "<tf.RaggedTensor [[1, 2]]>.")]:
    args = {"data": data, "ngram_width": 2, **kwargs}
    with pytest.raises(error) as info:
      tf.strings.ngrams(**args)
    assert str(info.value) == message


def test_unsorted_segment_join():
  usj = tf.strings.unsorted_segment_join
  assert lst(usj(["this", "is", "a", "test"], [0, 0, 1, 1], 2)) == [b"thisis", b"atest"]
  assert lst(usj(["this", "is", "a", "test"], [1, 0, 1, 0], 3, separator=":")) == \
      [b"is:test", b"this:a", b""]
  assert lst(usj([["Y", "q", "c"], ["Y", "6", "6"], ["p", "G", "a"]], [1, 0, 1], 2,
                 separator=":")) == [[b"Y", b"6", b"6"], [b"Y:p", b"q:G", b"c:a"]]
  assert lst(usj([["Y", "q"], ["Y", "6"]], [[1, 0], [0, 0]], 2, separator=":")) == \
      [b"q:Y:6", b"Y"]
  assert lst(usj(["a", "b"], tf.constant([0, 1], tf.int64), tf.constant(2, tf.int64))) == \
      [b"a", b"b"]
  for args, message in [
      ((["a", "b"], [0, -1], 2), "segment_ids are not allowed to exceed num_segments or to have "
                                 "negative values. [Op:UnsortedSegmentJoin]"),
      ((["a", "b"], [0, 2], 2), "segment_ids are not allowed to exceed num_segments or to have "
                                "negative values. [Op:UnsortedSegmentJoin]"),
      ((["a", "b"], [0], 2), "Segment dimension is 1 while input dimension is 1 in rank 0 "
                             "[Op:UnsortedSegmentJoin]"),
      (("a", 0, 2), "Segment_id cannot have rank 0 [Op:UnsortedSegmentJoin]")]:
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
      usj(*args)
    assert str(info.value) == message
