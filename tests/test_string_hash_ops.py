"""String hashing and unicode transcoding; golden values from TF (tf.compat.v1) 2.21."""
import numpy as np
import pytest

import tfe_compat as tf


_MAX = 2**63 - 1
_KEY = [0x0706050403020100, 0x0f0e0d0c0b0a0908]


def _strings():
  """ASCII of lengths 0..70 (every FarmHash branch), long binary strings, UTF-8, high bytes."""
  out = [bytes((i * 7 + n) % 95 + 32 for i in range(n)) for n in range(71)]
  out += [bytes((i * 13 + n) % 256 for i in range(n)) for n in (100, 127, 128, 129, 200, 300)]
  out += ["héllo wörld".encode(), "日本語のテキスト、ハッシュ".encode(), "😀🎉".encode(),
          b"\xff\x80\x00\xfe" * 5, b"\x00", b"\x80" * 33, b"\xff" * 70]
  return out


_FINGERPRINT64 = [
    0x9ae16a3b2f90404f, 0xebbf7ff11eff54b2, 0x7aad8f39ef17fa94, 0x3498db0c1d5daf51,
    0x3ac09431d1117015, 0xd5608da1aa5b79d4, 0x83adc2ad41765df4, 0xdea7b742662afe68,
    0xfb4d5668ab9adf40, 0x442b9d021ae633e2, 0x4b6b42d8ccaee58a, 0xac4243d1f208b07f,
    0x169a7d13f4c263a5, 0xe402e508e1a8777d, 0xdfdd4d1bf6787206, 0x9551a21bfe6053ed,
    0x08b0da38404f0074, 0xf2f79c29cc6ef2e4, 0x27a59bea6af60edc, 0x68a6a30d7db65e90,
    0x9f2bcca13c4d3441, 0x397e7b5d0273dba5, 0x88c2a75d57302755, 0x2f3891a71e0c1fd3,
    0xbce2e8629656ec18, 0x14a18f0b3c4f785d, 0x8775ebf269e8b7ba, 0xf6284f8324a3e3fe,
    0xffa170f32210758f, 0xf47661ad03194921, 0x352511adaef00a3e, 0x44fe282daa4db5bd,
    0xbd1cb88d7716d69d, 0xd1722f6f29fa9352, 0x487b0a37bac6a0e9, 0x80c6b5c3e0ed5e20,
    0x2d5ad23ff61d2029, 0xc81c65bc0a2e5667, 0x8496676da2017f5a, 0x6eb11221bed69578,
    0xbad73bc41e3e002c, 0xfce0962dd1921d3e, 0x834b4b3564439e26, 0xfb7641309865253e,
    0x994eb48ab955aa61, 0x95d25ff7bd925ae4, 0x231127c074ec3d82, 0x88b49e4732140433,
    0x415814df42079f38, 0x71768e33a99c4864, 0x4f4cd8bc8c11c1fb, 0xbb56ebb0b29ebb9c,
    0xe85493cf61649ed0, 0x92a3fca67b9dc5b0, 0x413b05e8f369c317, 0xec8a0e5a794f5d9d,
    0xb7c67ef825c374c6, 0x9f0e66f1c5543fb6, 0x2ad20ea609152548, 0x42b04e3ddd6b79b8,
    0x67a458e2f980ca2b, 0xa5ca1e3768e77d77, 0x653a7bff0c9abf23, 0x8f6d39ba80b02f90,
    0xa53c73e2b2fdf42d, 0xfafe6c35911cf595, 0x2d7a195b14cd2428, 0xe1cb3be96757ea83,
    0x51b49dca727207f3, 0xf2bad7543fd8212e, 0xa5a99d9882b49ca1, 0xf78557bb7880d4ec,
    0x2d14aa73f2115263, 0x9f315a4161751caa, 0x77417ac7959fc31d, 0x47cbaf2387a3b350,
    0xdea169148c44714e, 0x7ced6d0a96714893, 0xa1c6c48187c004ed, 0x96b06cb5e40ae2b3,
    0x72a49ce0a1c05a24, 0xbe6056edf5e94b54, 0xa785e2a3279e8ba7, 0xa23554c19c10bd30,
]
_LEGACY_MOD_MAX = [
    0x01769421199f9e3c, 0x4edff505a87b7a6c, 0x61e3cdf68f349f9e, 0x66ddffc39aa29d62,
    0x21dc509fe300c5ad, 0x36e8c4e868276013, 0x0e26b30e56e90a26, 0x74fa68d01424bae5,
    0x6cfa8f4b830fd89d, 0x4ec59f027a9f34aa, 0x4d50932323cf3bfc, 0x7c4c094960f23375,
    0x79d834e45f002b7d, 0x2ef4da6b806137f1, 0x046eac655570e410, 0x67e7d106a4c56fcd,
    0x6c0795e13a44a9ab, 0x3107e2b84ce2701d, 0x08bc6b724d8687cd, 0x4465051ab0e84485,
    0x53f46a1a0c43f7e0, 0x3d4eca28827632ef, 0x2fb2e428bad39671, 0x485d902ec4cf2f8f,
    0x01a4616829d3e7af, 0x632ca8234b482b14, 0x5d3ccbd2047acdab, 0x411e457e98c85c02,
    0x399c14e74ffc28c8, 0x1bd063d6cfc89bf9, 0x5986be912fb1057f, 0x17f9d1e98d65ff17,
    0x5a72dc4bdb897188, 0x69e5cf6c219bfd75, 0x7502c068b46c069f, 0x687b12ef61b63edd,
    0x3d7a74eba92472a0, 0x5962347554f74bc7, 0x4bb25bf55f6ec831, 0x5b88586dea6cf323,
    0x7f26fc4fe229c8df, 0x1ba4798d6d3dbcb7, 0x373c7787058dce8d, 0x46eeb47537d2b4cf,
    0x444dfd177ef01c10, 0x163ddf89258155ad, 0x3d43ef3b36c702b6, 0x534941ba7b82eccc,
    0x76b6725951b04a95, 0x59117678e98e14b4, 0x4f4d2466ac9bb0f2, 0x00c4dc8b5352c3aa,
    0x22acf2f49a45cde2, 0x09e88abded1b85d6, 0x590c6f7d4aae523f, 0x18afb00330ec144d,
    0x44f31bbcd30b312a, 0x19168a8dc3bcf683, 0x4cfd3e1b79064717, 0x2c8d7a94e8dbb4da,
    0x5b3cfd1d04c41d32, 0x628daa11d9b2d865, 0x4e4639feac8077a2, 0x683787f36040d8dc,
    0x4cc89bb38f82c618, 0x144552fe4b10ac1b, 0x48d0e81a87ece242, 0x150d05c2a15b485c,
    0x4345db1bac8f35fa, 0x1f8dbebf2b308bd4, 0x5da32faea5e3994d, 0x4ead2d55c8df0bb4,
    0x78be1da1ad28e2fb, 0x1e65ff7a8359bfc1, 0x6d2eeafb9f66d41f, 0x09041bdb27506396,
    0x281ef79774122510, 0x498adbafba6a2b13, 0x5f8b9522832b2070, 0x378853a8326941d2,
    0x22866a1a25648aad, 0x1b107540f214cd46, 0x39d97ab84a261be4, 0x0c7a8f20affcdf2d,
]
_STRONG_MOD_MAX = [
    0x726fdb47dd0e0e31, 0x6e50ede395d65a46, 0x7eed41c2dda4c36a, 0x3e7392b99e683b5d,
    0x10e144544690317f, 0x67816c9821fa6554, 0x5e4c6ef2e4d692d2, 0x4ea128f18b446ff3,
    0x6ae0cab2c68e759b, 0x75fbe7079bb3a5a7, 0x4a0ec531b190d227, 0x6891012ad04cf71e,
    0x1ba0c1e1d793cc1e, 0x4b1ad486646d461c, 0x4def39240f4c4a3f, 0x2dde7e7eb3fe858e,
    0x548d92cc1cf53fc6, 0x724de32a0ca9d3a9, 0x36a9963d9f5603d4, 0x7cf5790872e8af49,
    0x3c18762b9199549e, 0x2c65cb9be1dab91f, 0x7eb88aebd0327c9b, 0x442cdc7fe20f5898,
    0x28b2ce39abba9ce8, 0x7703d994f1afcb3d, 0x065aeec44e764b07, 0x5404b406c48f78d5,
    0x0537b3670dd756cb, 0x50ba6c30731263d1, 0x4c32d538a480cc18, 0x3776856a8602ac07,
    0x084d189c8d1fba7d, 0x7592ebf6d36f396d, 0x076931aefd0a2e6b, 0x074e7f8cbe42c925,
    0x0d9a8562efa38e15, 0x6b48ae44e0bc658e, 0x6713c26b27fb056b, 0x59edc6f8cba0d3e9,
    0x181cbcde5a85d5d8, 0x36df18cbba0e8a07, 0x49c0960d9e820800, 0x6b77423ddc11d435,
    0x71fc674666ffd724, 0x0572ff526ab3d53a, 0x131a851a2ef6cc8e, 0x571fa8730c6e79ef,
    0x4682fbd34ff45737, 0x58babf2130805f8b, 0x2e16705a3214ec6a, 0x42d55f57aa8f79e3,
    0x73ecc6248c78bfee, 0x059ee61a47cc3281, 0x5eeb1a2663dd0437, 0x289a4cc3c00f4acd,
    0x7d22daea0c0a5dcd, 0x77e134807cd69e03, 0x79155f9654dc9b52, 0x4d5c819736569079,
    0x7344ec0c4e893033, 0x14f4f8d341a2bed9, 0x0ed15a339f269d3e, 0x37f595c1dff6fd29,
    0x0b937569cf3ea5e8, 0x117a3d6f23bd6b53, 0x6f3e2e7c538a8c5b, 0x599efdc9fcca84ec,
    0x071518e049159fa9, 0x75712d2ff55d4fff, 0x416e0b85681ef0f0, 0x216db52ed048717d,
    0x0b95a03a2a381bff, 0x4d14b35caa8e69e6, 0x7e2af29cd7b53538, 0x10b5e7e87d2a5359,
    0x04496e68ad0dcf22, 0x2e78a58f81b1dd7f, 0x640da32e7f237f61, 0x71346ca6897d6a90,
    0x43aedf5cf73c04eb, 0x74f839c593dc67fd, 0x04b552759d38478d, 0x3a921dd057b38fb5,
]
_STRONG_NEG_KEY_MOD_MAX = [
    0x3d13ff73b8869816, 0x3f3ce553a41e79a0, 0x65ebf774c8594f2b, 0x62603c80136c8264,
    0x52c0619e96707b44, 0x4c5778e344bc5d70, 0x769d1a04d71d3220, 0x15fc61d88a129973,
    0x51a8d02c1e7acf4e, 0x3ddeb5e5d68afd9b, 0x7d884c835d5b0668, 0x5a0c6dc92dbede7c,
    0x4d162c65591c7ee5, 0x6bf910eff2d46f65, 0x1aa73fea88605a92, 0x4a4c760ef962b314,
    0x12378c801514286d, 0x1a1b7942bf5d7e50, 0x6d69a08bc4becbb8, 0x6e508c794cd84580,
    0x7efda0c2fb20fac2, 0x712f1ff626e009e1, 0x2e6b35ecf067f2d2, 0x2a4cad6ade8b1e7c,
    0x30bca7e981e66f93, 0x25985347380bc1e6, 0x2d12c303386cef95, 0x24350ad171205c41,
    0x755066c782f5a5db, 0x25a07ff791b5e29e, 0x1d13d5d80c659cc2, 0x10c9cea19bbebe33,
    0x6126b3beddd3281f, 0x5caae258724a5150, 0x4e10e80fcd66252f, 0x24bb36c0cb334d23,
    0x33ed8e90cdcfa504, 0x7db56d58eab4fec6, 0x6ab7ae3af9cd3376, 0x7d39193b758a87c9,
    0x225797da87c82270, 0x76323cd651e5bbb6, 0x22882f2cefe1b753, 0x574069e39f05ecf4,
    0x078cf25379e92efc, 0x635c328254059103, 0x56715f690399b30c, 0x0a3bf73a99e4c24e,
    0x3f0ea5a207d72fe4, 0x00337021d42b53c9, 0x1c49f340e4d42607, 0x0c092eb9f6669971,
    0x76324ca473fb052d, 0x687cb3858f10a51d, 0x42485c8bf8d4c0d7, 0x1944533a2c0afcf9,
    0x367186cde0df5194, 0x12c75550e94cf411, 0x3c352c991b8456ea, 0x274867cdaf950ad7,
    0x59bad8014f585dd6, 0x683a15f8a15bd47b, 0x7d4747a565da0974, 0x0c8cdb7e7ad511e2,
    0x533fea47b6a4709d, 0x5d6388889ba23a7e, 0x71fc8b6cf270bb41, 0x31ae4d9ae889f70d,
    0x1b82578546e29697, 0x7b67df96adcb1d06, 0x41b3e0b7786a4208, 0x01aaff4333183ebe,
    0x525f81b29d1753f9, 0x1e10e1df83561ed5, 0x7356c4f81ed39b0a, 0x5d623c5dfc44519a,
    0x719c15bf26c45956, 0x2fb7c988b7d1e143, 0x34478e301e728448, 0x44ac865a619fa449,
    0x52e1d2c4d8803c42, 0x76ed7319ca7ec195, 0x1f06f4d542741bc1, 0x4765a4f96a857b54,
]
_FAST1000 = [
    263, 986, 620, 873, 541, 100, 196, 560, 600, 458, 634, 887, 437, 29, 94, 109, 972, 940, 844,
    336, 601, 285, 269, 739, 200, 677, 170, 86, 151, 41, 126, 149, 229, 306, 617, 384, 681, 527,
    274, 816, 692, 422, 702, 494, 41, 404, 306, 595, 864, 116, 75, 68, 808, 600, 807, 373, 766,
    382, 816, 64, 323, 911, 579, 800, 501, 317, 944, 435, 283, 110, 785, 340, 675, 50, 957, 216,
    502, 627, 197, 883, 412, 796, 47, 416,
]
_LEGACY1000 = [
    899, 259, 222, 241, 989, 274, 949, 116, 852, 81, 852, 940, 445, 921, 855, 541, 122, 549,
    813, 196, 471, 223, 120, 223, 839, 76, 3, 753, 160, 536, 999, 726, 744, 197, 870, 341, 655,
    318, 833, 619, 758, 846, 484, 687, 143, 84, 805, 747, 573, 91, 921, 410, 433, 381, 615, 596,
    521, 651, 566, 954, 649, 853, 537, 475, 880, 635, 146, 371, 530, 300, 509, 300, 35, 417,
    399, 622, 680, 426, 247, 762, 580, 46, 139, 709,
]
_STRONG1000 = [
    435, 267, 974, 104, 272, 374, 347, 412, 34, 222, 352, 819, 105, 491, 417, 902, 497, 784,
    339, 446, 93, 319, 404, 874, 833, 133, 993, 831, 903, 317, 350, 347, 564, 84, 355, 816, 236,
    863, 982, 364, 550, 663, 580, 596, 237, 356, 384, 332, 102, 753, 396, 930, 924, 156, 379,
    903, 717, 823, 803, 900, 566, 228, 930, 195, 920, 759, 406, 152, 735, 448, 34, 214, 218,
    659, 598, 423, 345, 560, 574, 714, 32, 406, 730, 695,
]
_FAST2147483647 = [
    1699943623, 1987990679, 1685264649, 110060906, 1184012409, 1427936538, 1221714768,
    595225840, 573934613, 591228391, 1669688124, 1250768933, 569859533, 699285906, 909315137,
    688101415, 1370535140, 845032251, 977356465, 1325638828, 2057620869, 1970328159, 1756722705,
    2088583969, 270318816, 1704105587, 2027196320, 284459784, 559110009, 1812335742, 423243162,
    877266457, 1901086650, 1289679411, 1270658393, 1652214185, 1355990185, 442966498, 724454967,
    473479613, 334264247, 1263749533, 1792685202, 257009571, 1811092344, 1765219029, 990809347,
    1132282051, 1152895223, 210330829, 715879285, 692884224, 839763570, 551927551, 1977601769,
    1382251093, 357593785, 57740700, 1589199508, 1657542196, 1221164018, 880523752, 1460647714,
    529179399, 2104941556, 119131652, 1874941662, 720265817, 366691209, 625856474, 1309136852,
    1737196646, 1278912331, 534237487, 69384366, 389747096, 1233601402, 273425066, 1263373810,
    292273185, 118068199, 1923742002, 1990873327, 1618699957,
]
_LEGACY2 = [
    1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1,
    0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1,
    1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1,
]
_STRONG10 = [
    5, 7, 4, 4, 2, 4, 7, 2, 4, 2, 2, 9, 5, 1, 7, 2, 7, 4, 9, 6, 3, 9, 4, 4, 3, 3, 3, 1, 3, 7, 0,
    7, 4, 4, 5, 6, 6, 3, 2, 4, 0, 3, 0, 6, 7, 6, 4, 2, 2, 3, 6, 0, 4, 6, 9, 3, 7, 3, 3, 0, 6, 8,
    0, 5, 0, 9, 6, 2, 5, 8, 4, 4, 8, 9, 8, 3, 5, 0, 4, 4, 2, 6, 0, 5,
]


def _ids(tensor):
  assert tensor.dtype == tf.int64
  return tensor.numpy().tolist()


def test_fingerprint_of_strings_is_farmhash64_little_endian():
  out = tf.fingerprint(tf.constant(_strings()))
  assert out.dtype == tf.uint8
  assert out.shape.as_list() == [len(_FINGERPRINT64), 8]
  assert np.frombuffer(out.numpy().tobytes(), "<u8").tolist() == _FINGERPRINT64


def test_to_hash_bucket_fast():
  strings = _strings()
  assert _ids(tf.strings.to_hash_bucket_fast(strings, _MAX)) == [h % _MAX for h in _FINGERPRINT64]
  assert _ids(tf.string_to_hash_bucket_fast(strings, 1000)) == _FAST1000
  assert _ids(tf.strings.to_hash_bucket_fast(strings, 2147483647)) == _FAST2147483647
  assert _ids(tf.strings.to_hash_bucket_fast(strings, 1)) == [0] * len(strings)


def test_to_hash_bucket_legacy():
  strings = _strings()
  assert _ids(tf.string_to_hash_bucket(strings, _MAX)) == _LEGACY_MOD_MAX
  assert _ids(tf.strings.to_hash_bucket(string_tensor=strings, num_buckets=1000)) == _LEGACY1000
  assert _ids(tf.strings.to_hash_bucket(input=strings, num_buckets=2)) == _LEGACY2


def test_to_hash_bucket_strong():
  strings = _strings()
  assert _ids(tf.strings.to_hash_bucket_strong(strings, _MAX, _KEY)) == _STRONG_MOD_MAX
  assert _ids(tf.string_to_hash_bucket_strong(strings, 1000, key=[1, 2])) == _STRONG1000
  assert _ids(tf.strings.to_hash_bucket_strong(strings, _MAX, [-5, 12345])) == \
      _STRONG_NEG_KEY_MOD_MAX
  assert _ids(tf.strings.to_hash_bucket_strong(strings, 10, [1, 2])) == _STRONG10


def test_hash_bucket_shapes():
  out = tf.strings.to_hash_bucket(string_tensor=[["a", "b"]], num_buckets=7)
  assert out.shape.as_list() == [1, 2] and _ids(out) == [[4, 5]]
  assert _ids(tf.strings.to_hash_bucket_fast("s", 5)) == 1
  assert _ids(tf.strings.to_hash_bucket("s", 5)) == 3
  assert tf.strings.to_hash_bucket_fast(tf.zeros([0, 3], tf.string), 5).shape.as_list() == [0, 3]


@pytest.mark.parametrize("fn,op_name,extra", [
    (tf.strings.to_hash_bucket_fast, "StringToHashBucketFast", ()),
    (tf.strings.to_hash_bucket, "StringToHashBucket", ()),
    (tf.strings.to_hash_bucket_strong, "StringToHashBucketStrong", ([1, 2],)),
])
def test_hash_bucket_errors(fn, op_name, extra):
  for bad in (0, -1):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
      fn(["a"], bad, *extra)
    assert "Value for attr 'num_buckets' of %d must be at least minimum 1" % bad in str(e.value)
    assert str(e.value).endswith("[Op:%s]" % op_name)
  with pytest.raises(TypeError, match="Cannot convert \\[1, 2\\] to EagerTensor of dtype string"):
    fn([1, 2], 5, *extra)


def test_strong_key_must_have_two_elements():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Key must have 2 elements \[Op:StringToHashBucketStrong\]"):
    tf.strings.to_hash_bucket_strong(["a"], 5, [1])


def test_fingerprint_rows():
  assert tf.fingerprint([[1, 2], [3, 4]]).numpy().tolist() == [
      [76, 18, 253, 133, 168, 204, 240, 10], [254, 162, 60, 240, 103, 244, 53, 255]]
  assert tf.fingerprint([["a", "b"], ["c", "d"]]).numpy().tolist() == [
      [122, 64, 59, 169, 136, 60, 55, 83], [52, 252, 224, 38, 64, 226, 155, 60]]
  assert tf.fingerprint(tf.zeros([2, 0])).numpy().tolist() == [
      [79, 64, 144, 47, 59, 106, 225, 154]] * 2
  assert tf.fingerprint(tf.constant([[[1.5]], [[2.]]], tf.float64)).numpy().tolist() == [
      [179, 164, 179, 195, 72, 236, 82, 76], [228, 228, 223, 153, 66, 240, 18, 20]]
  assert tf.fingerprint([[True], [False]]).numpy().tolist() == [
      [62, 88, 126, 177, 19, 76, 162, 71], [84, 75, 233, 245, 237, 86, 96, 190]]
  assert tf.fingerprint(tf.constant(["a", "b"])).numpy().tolist() == [
      [227, 117, 223, 182, 101, 66, 69, 179], [22, 241, 200, 94, 33, 96, 178, 163]]
  empty = tf.fingerprint(tf.zeros([0, 3]))
  assert empty.shape.as_list() == [0, 8] and empty.dtype == tf.uint8


def test_fingerprint_errors():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"`data` should have at least one dimension: \[\] \[Op:Fingerprint\]"):
    tf.fingerprint("abc")
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Unsupported fingerprint method: md5 \[Op:Fingerprint\]"):
    tf.fingerprint(["abc"], method="md5")


def _transcode(*args, **kwargs):
  return tf.strings.unicode_transcode(*args, **kwargs).numpy().tolist()


def test_unicode_transcode_encodings():
  words = ["héllo", "日本", "a\x01b"]
  assert _transcode(words, "UTF-8", "UTF-16-BE") == [
      b"\x00h\x00\xe9\x00l\x00l\x00o", b"e\xe5g,", b"\x00a\x00\x01\x00b"]
  assert _transcode(words, "UTF-8", "UTF-32-BE")[1] == b"\x00\x00e\xe5\x00\x00g,"
  assert _transcode([b"\x00a\xd8\x3d\xde\x00", b"\x00a\xd8"], "UTF-16-BE", "UTF-8") == [
      b"a\xf0\x9f\x98\x80", b"a\xef\xbf\xbd"]
  assert _transcode([b"\xe9t\xe9"], "ISO-8859-1", "UTF-8") == [b"\xc3\xa9t\xc3\xa9"]
  assert _transcode([b"\xe9t"], "US-ASCII", "UTF-8") == [b"\xef\xbf\xbdt"]
  assert _transcode([b"\xef\xbb\xbfab"], "UTF-8", "UTF-16-BE") == [b"\xfe\xff\x00a\x00b"]
  assert _transcode([b"\x00\x00\x00a\x00\x11\x00\x00"], "UTF-32-BE", "UTF-8") == [b"a\xef\xbf\xbd"]
  scalar = tf.strings.unicode_transcode("x", "UTF-8", "UTF-8")
  assert scalar.dtype == tf.string and scalar.shape.as_list() == [] and scalar.numpy() == b"x"


def test_unicode_transcode_invalid_input():
  bad = [b"ab\xffcd\xe6\x97", b"\xc3", b"\xed\xa0\x80x", b"\xf0\x9f\x98"]
  assert _transcode(bad, "UTF-8", "UTF-8") == [
      b"ab\xef\xbf\xbdcd\xef\xbf\xbd", b"\xef\xbf\xbd", b"\xef\xbf\xbd" * 3 + b"x", b"\xef\xbf\xbd"]
  assert _transcode(bad[:1], "UTF-8", "UTF-8", errors="ignore") == [b"abcd"]
  assert _transcode([b"ab\xffcd"], "UTF-8", "UTF-8", replacement_char=ord("?")) == [b"ab?cd"]
  assert _transcode([b"a\xff"], "UTF-8", "UTF-8", replacement_char=0x1F600) == [
      b"a\xf0\x9f\x98\x80"]
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"Invalid formatting on input string \[Op:UnicodeTranscode\]"):
    tf.strings.unicode_transcode(bad[:1], "UTF-8", "UTF-8", errors="strict")


def test_unicode_transcode_control_characters():
  assert _transcode(["a\x01b\x1f\x7f\n"], "UTF-8", "UTF-8", replace_control_characters=True) == [
      b"a\xef\xbf\xbdb\xef\xbf\xbd\x7f\xef\xbf\xbd"]
  assert _transcode(["a\x01b"], "UTF-8", "UTF-8", replace_control_characters=True,
                    replacement_char=ord("*")) == [b"a*b"]


def test_unicode_transcode_attr_errors():
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Value for attr 'output_encoding' of \"ISO-8859-1\" is not in the list"):
    tf.strings.unicode_transcode(["ab"], "UTF-8", "ISO-8859-1")
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Value for attr 'errors' of \"bad\" is not in the list"):
    tf.strings.unicode_transcode(["ab"], "UTF-8", "UTF-8", errors="bad")
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match="Could not create converter for input encoding: FOO"):
    tf.strings.unicode_transcode(["ab"], "FOO", "UTF-8")


def test_unicode_script_is_not_implemented():
  with pytest.raises(NotImplementedError, match="unicode_script"):
    tf.strings.unicode_script([65, 0x3042])
