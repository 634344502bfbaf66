"""tf.keras.preprocessing.image: golden values from tf_keras.preprocessing.image (Keras 2)
with the same np.random seeds."""
import io
import os

import numpy as np
import pytest

import tfe_compat as tf

image = tf.keras.preprocessing.image


def close(actual, expected, atol=1e-4):
  np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected), atol=atol)


# ---- Deterministic and random transforms ----
_X44 = np.arange(16, dtype="float32").reshape(4, 4, 1)
_XC = np.arange(18, dtype="float32").reshape(2, 3, 3)  # channels first (default axes)


def test_apply_affine_transform():
  kw = dict(row_axis=0, col_axis=1, channel_axis=2)
  out = image.apply_affine_transform(_X44, theta=90, **kw)
  assert out.shape == (4, 4, 1) and out.dtype == np.float32
  close(out[..., 0], [[3, 7, 11, 15], [2, 6, 10, 14], [1, 5, 9, 13], [0, 4, 8, 12]])
  close(image.apply_affine_transform(_X44, tx=1, ty=-1, fill_mode="constant", cval=-1.,
                                     **kw)[..., 0],
        [[-1, -1, -1, -1], [1, 2, 3, -1], [5, 6, 7, -1], [9, 10, 11, -1]])
  close(image.apply_affine_transform(_X44, theta=30, tx=0.5, shear=15, zx=0.8, zy=1.25,
                                     fill_mode="reflect", **kw)[..., 0],
        [[2.2196, 3.8091, 5.4967, 6.7986], [4.168, 6.4608, 8.7536, 10.6322],
         [6.8196, 9.1124, 11.4052, 13.6981], [9.9033, 11.7641, 12.9536, 13.6464]])
  assert image.apply_affine_transform(_X44, **kw) is _X44  # identity: no resampling
  with pytest.raises(ValueError, match="must be distinct"):
    image.apply_affine_transform(_X44, theta=1, row_axis=0, col_axis=0, channel_axis=2)
  with pytest.raises(ValueError, match="multi-channel 2D"):
    image.apply_affine_transform(_X44[..., 0], theta=1)


def test_random_transforms_follow_keras_seeds():
  np.random.seed(0)
  close(image.random_rotation(_XC, 40),
        [[[0.0704, 1.0751, 2.2113], [2.798, 4.0, 5.202], [5.7887, 6.9249, 7.9296]],
         [[9.0704, 10.0751, 11.2113], [11.798, 13.0, 14.202],
          [14.7887, 15.9249, 16.9296]]])
  np.random.seed(1)
  close(image.random_shift(_XC, 0.3, 0.3, fill_mode="wrap")[0],
        [[3.0404, 2.0404, 3.0404], [6.0404, 5.0404, 6.0404], [3.0404, 2.0404, 3.0404]])
  np.random.seed(2)
  close(image.random_shear(_XC, 30)[1],
        [[9.0067, 9.9398, 10.9398], [12.0, 13.0, 14.0], [15.0602, 16.0602, 16.9933]])
  np.random.seed(3)
  close(image.random_zoom(_XC, (0.5, 1.5)), _XC)
  with pytest.raises(ValueError, match="zoom_range"):
    image.random_zoom(_XC, (0.5,))
  np.random.seed(4)
  close(image.random_channel_shift(_XC, 5.)[1],
        [[13.6703, 14.6703, 15.6703], [16.6703, 17.0, 17.0], [17.0, 17.0, 17.0]])
  close(image.apply_channel_shift(_XC, -3., 0)[0, 0], [0., 0., 0.])


def test_brightness():
  x3 = np.arange(27, dtype="float32").reshape(3, 3, 3) * 9
  np.random.seed(5)
  close(image.random_brightness(x3, (0.5, 1.5))[0],
        [[0, 6, 13], [20, 28, 35], [41, 49, 56]])
  close(image.apply_brightness_shift(x3 - 50, 1.4, scale=False)[0],
        [[-50.0, -38.9882, -26.1412], [-13.2941, -0.4471, 12.4],
         [24.3294, 37.1765, 50.0235]])


# ---- ImageDataGenerator ----
def test_get_random_transform_and_apply():
  gen = image.ImageDataGenerator(
      rotation_range=20, width_shift_range=0.1, height_shift_range=2, shear_range=5,
      zoom_range=0.2, channel_shift_range=10., horizontal_flip=True, vertical_flip=True,
      brightness_range=(0.8, 1.2))
  params = gen.get_random_transform((8, 8, 3), seed=7)
  expected = {"theta": -16.947668425041712, "tx": -1.0, "ty": -0.09854522969457036,
              "shear": 2.234651778309412, "zx": 1.191195804798641,
              "zy": 1.0153983481641735, "flip_horizontal": 0.0, "flip_vertical": 1.0,
              "channel_shift_intensity": -4.631220397962577,
              "brightness": 0.9999530003302239}
  assert sorted(params) == sorted(expected)
  for key, value in expected.items():
    assert float(params[key]) == pytest.approx(value, rel=1e-12), key
  gen = image.ImageDataGenerator(width_shift_range=[-1, 0, 2], height_shift_range=0.25)
  params = gen.get_random_transform((8, 8, 3), seed=3)
  assert params["tx"] == pytest.approx(0.20319161029830202) and params["ty"] == 0
  assert params["channel_shift_intensity"] is None and params["brightness"] is None
  # apply_transform with explicit parameters; flips act on the right axes.
  gen = image.ImageDataGenerator()
  x = np.arange(6, dtype="float32").reshape(2, 3, 1)
  close(gen.apply_transform(x, {"flip_horizontal": True})[..., 0], [[2, 1, 0], [5, 4, 3]])
  close(gen.apply_transform(x, {"flip_vertical": True})[..., 0], [[3, 4, 5], [0, 1, 2]])
  close(gen.random_transform(x, seed=1), x)


def test_fit_flow_and_sequence_access():
  xs = np.arange(45, dtype="float32").reshape(5, 3, 3, 1)
  ys = np.array([0, 1, 2, 1, 0])
  gen = image.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True,
                                 rotation_range=30, horizontal_flip=True)
  gen.fit(xs, augment=True, rounds=2, seed=3)
  close(gen.mean, [[[22.0]]])
  close(gen.std, [[[12.9617]]])
  it = gen.flow(xs, ys, batch_size=2, seed=11)
  assert isinstance(it, image.NumpyArrayIterator) and isinstance(it, image.Iterator)
  assert isinstance(it, tf.keras.utils.Sequence)
  bx, by = it.next()
  assert bx.shape == (2, 3, 3, 1) and bx.dtype == np.float32
  assert by.tolist() == [2, 0]
  close(bx[1, ..., 0], [[1.2332, 1.1561, 1.0837], [1.4623, 1.3887, 1.3151],
                        [1.6938, 1.6213, 1.5442]])
  bx, by = next(it)
  assert by.tolist() == [0, 1]
  close(bx[0, 0, :, 0], [-1.6003, -1.6325, -1.5753])
  bx, by = it.next()  # the last, partial batch
  assert bx.shape == (1, 3, 3, 1) and by.tolist() == [1]
  close(bx[0, 0, :, 0], [-0.7726, -0.894, -0.9776])
  seq = gen.flow(xs, ys, batch_size=2, shuffle=False)
  assert len(seq) == 3
  bx, by = seq[2]
  assert by.tolist() == [0]
  close(bx[0, ..., 0], [[1.1253, 1.2204, 1.3699], [1.2121, 1.3887, 1.5653],
                        [1.4076, 1.557, 1.6522]])
  with pytest.raises(ValueError, match="has length 3"):
    seq[3]  # pylint: disable=pointless-statement


def test_flow_options():
  xs = np.arange(24, dtype="float32").reshape(6, 2, 2, 1)
  ys = np.array([0, 1, 0, 1, 0, 1])
  gen = image.ImageDataGenerator(validation_split=0.5)
  bx, by = gen.flow(xs, ys, batch_size=8, shuffle=False, subset="validation")[0]
  close(bx, xs[:3])
  assert by.tolist() == [0, 1, 0]
  bx, by, bw = gen.flow(xs, ys, batch_size=2, shuffle=False, sample_weight=np.arange(6.),
                        subset="training")[1]
  close(bx[0, ..., 0], [[20, 21], [22, 23]])
  assert by.tolist() == [1] and bw.tolist() == [2.]  # Keras does not split sample_weight
  (bx, misc), by = gen.flow((xs, np.arange(6) * 10), ys, batch_size=3, shuffle=False)[0]
  assert misc.tolist() == [0, 10, 20]
  assert image.ImageDataGenerator().flow(xs, batch_size=4, shuffle=False)[0].shape == (4, 2, 2, 1)
  with pytest.raises(ValueError, match="should have rank 4"):
    gen.flow(xs[0], batch_size=2)
  with pytest.raises(ValueError, match="same length"):
    gen.flow(xs, ys[:3])
  with pytest.raises(ValueError, match="different number of classes"):
    gen.flow(xs, np.array([0, 0, 0, 1, 1, 1]), subset="training")


def test_standardize_and_zca():
  xz = np.random.RandomState(0).rand(6, 2, 2, 1).astype("float32")
  gen = image.ImageDataGenerator(zca_whitening=True)
  assert gen.featurewise_center
  gen.fit(xz)
  close(gen.standardize(xz[0].copy())[..., 0], [[-0.0857, 0.7175], [0.3368, -0.3318]])
  gen = image.ImageDataGenerator(samplewise_center=True, samplewise_std_normalization=True,
                                 rescale=0.5, preprocessing_function=lambda a: a + 1)
  close(gen.standardize(xz[1].copy())[..., 0], [[-0.9257, 0.2427], [-0.8524, 1.5354]])
  with pytest.warns(UserWarning, match="hasn't been fit"):
    image.ImageDataGenerator(featurewise_center=True).standardize(xz[0].copy())


def test_generator_argument_errors():
  with pytest.raises(ValueError, match="data_format"):
    image.ImageDataGenerator(data_format="channels_middle")
  with pytest.raises(ValueError, match="validation_split"):
    image.ImageDataGenerator(validation_split=1.5)
  with pytest.raises(ValueError, match="zoom_range"):
    image.ImageDataGenerator(zoom_range=(0.1, 0.2, 0.3))
  with pytest.raises(ValueError, match="brightness_range"):
    image.ImageDataGenerator(brightness_range=0.5)
  with pytest.raises(NotImplementedError, match="flow_from_dataframe"):
    image.ImageDataGenerator().flow_from_dataframe(None)
  gen = image.ImageDataGenerator(zoom_range=0.25, data_format="channels_first")
  assert gen.zoom_range == [0.75, 1.25] and gen.channel_axis == 1 and gen.dtype == "float32"


# ---- Files ----
def test_array_to_img_and_back(tmp_path):
  a = np.array([[[0.], [0.5]], [[1.], [0.25]]])
  img = image.array_to_img(a)
  assert img.mode == "L" and np.asarray(img).tolist() == [[0, 127], [255, 63]]
  img = image.array_to_img(a * 1000, scale=False)
  assert img.mode == "I" and np.asarray(img).tolist() == [[0, 500], [1000, 250]]
  img = image.array_to_img(np.arange(16.).reshape(4, 2, 2), data_format="channels_first")
  assert img.mode == "RGBA" and img.size == (2, 2)
  assert np.asarray(img)[1, 1].tolist() == [51, 119, 187, 255]
  with pytest.raises(ValueError, match="rank 3"):
    image.array_to_img(np.zeros((2, 2)))
  rgb = np.random.RandomState(1).randint(0, 256, (5, 4, 3)).astype("float32")
  path = str(tmp_path / "x.png")
  image.save_img(path, rgb, scale=False)
  arr = image.img_to_array(image.load_img(path))
  assert arr.shape == (5, 4, 3) and arr.dtype == np.float32
  np.testing.assert_array_equal(arr, rgb)
  assert image.img_to_array(image.load_img(path), data_format="channels_first").shape == (3, 5, 4)
  gray = image.load_img(path, color_mode="grayscale")
  assert gray.mode == "L" and image.img_to_array(gray).shape == (5, 4, 1)
  assert image.load_img(path, color_mode="rgba").mode == "RGBA"
  small = image.load_img(path, target_size=(2, 3), interpolation="bilinear")
  assert small.size == (3, 2)
  buffer = io.BytesIO()
  image.save_img(buffer, rgb, file_format="png", scale=False)
  np.testing.assert_array_equal(image.img_to_array(image.load_img(io.BytesIO(buffer.getvalue()))), rgb)
  with pytest.raises(ValueError, match="Invalid interpolation"):
    image.load_img(path, target_size=(2, 2), interpolation="cubic-ish")


def _make_tree(root):
  rs = np.random.RandomState(0)
  for cls, n in [("dogs", 3), ("cats", 2), ("birds", 0)]:
    os.makedirs(os.path.join(root, cls))
    for i in range(n):
      image.save_img(os.path.join(root, cls, "img%d.png" % i),
                     rs.randint(0, 256, (6, 4, 3)).astype("float32"), scale=False)
  os.makedirs(os.path.join(root, "dogs", "sub"))
  image.save_img(os.path.join(root, "dogs", "sub", "a.jpg"),
                 rs.randint(0, 256, (5, 5, 3)).astype("float32"), scale=False)
  with open(os.path.join(root, "cats", "notes.txt"), "w") as f:
    f.write("not an image")


def test_flow_from_directory(tmp_path, capsys):
  root = str(tmp_path / "data")
  _make_tree(root)
  gen = image.ImageDataGenerator(rescale=1 / 255.)
  it = gen.flow_from_directory(root, target_size=(3, 2), batch_size=4, shuffle=False)
  assert capsys.readouterr().out == "Found 6 images belonging to 3 classes.\n"
  assert it.class_indices == {"birds": 0, "cats": 1, "dogs": 2}
  assert it.filenames == ["cats/img0.png", "cats/img1.png", "dogs/img0.png",
                          "dogs/img1.png", "dogs/img2.png", "dogs/sub/a.jpg"]
  assert it.classes.tolist() == [1, 1, 2, 2, 2, 2] and len(it) == 2
  bx, by = it[0]
  assert bx.shape == (4, 3, 2, 3) and bx.dtype == np.float32
  assert by.tolist() == [[0, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]]
  close(bx[0, :, :, 0], [[0.2941, 0.4314], [0.1216, 0.1608], [0.8235, 0.1373]])
  assert it[1][0].shape == (2, 3, 2, 3)
  first = None
  for mode in ["binary", "sparse", "input", None]:
    it = gen.flow_from_directory(root, target_size=(3, 2), batch_size=4, class_mode=mode,
                                 color_mode="grayscale", seed=1)
    batch = it.next()
    bx = batch[0] if isinstance(batch, tuple) else batch
    assert bx.shape == (4, 3, 2, 1)
    close(bx[0, :, :, 0], [[0.518, 0.325], [0.459, 0.439], [0.569, 0.373]], atol=1e-3)
    if mode in ("binary", "sparse"):
      assert batch[1].tolist() == [2., 1., 2., 1.] and batch[1].dtype == np.float32
    elif mode == "input":
      np.testing.assert_array_equal(batch[1], batch[0])
    else:
      first = batch
  assert not isinstance(first, tuple)
  gen = image.ImageDataGenerator(validation_split=0.5)
  train = gen.flow_from_directory(root, target_size=(6, 4), batch_size=8, subset="training",
                                  classes=["dogs", "cats"])
  val = gen.flow_from_directory(root, target_size=(6, 4), batch_size=8, subset="validation",
                                classes=["dogs", "cats"])
  assert train.filenames == ["dogs/img2.png", "dogs/sub/a.jpg", "cats/img1.png"]
  assert val.filenames == ["dogs/img0.png", "dogs/img1.png", "cats/img0.png"]
  assert val.classes.tolist() == [0, 0, 1] and val[0][0].shape == (3, 6, 4, 3)
  with pytest.raises(ValueError, match="Invalid class_mode"):
    gen.flow_from_directory(root, class_mode="onehot")


# ---- Training on iterators ----
def _model():
  model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(4, 4, 1)),
                               tf.keras.layers.Dense(3, kernel_initializer="ones",
                                                     bias_initializer="zeros")])
  model.compile(tf.keras.optimizers.SGD(0.01), "sparse_categorical_crossentropy")
  return model


def test_model_fit_on_flow():
  x = np.random.RandomState(0).rand(12, 4, 4, 1).astype("float32")
  y = np.arange(12) % 3
  reference = _model().fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
  gen = image.ImageDataGenerator()
  history = _model().fit(gen.flow(x, y, batch_size=4, shuffle=False), epochs=2,
                         shuffle=False, verbose=0)
  close(history.history["loss"], reference.history["loss"], atol=1e-6)
  history = _model().fit_generator(gen.flow(x, y, batch_size=4, shuffle=False),
                                   steps_per_epoch=3, epochs=2, verbose=0)
  close(history.history["loss"], reference.history["loss"], atol=1e-6)
  augmented = image.ImageDataGenerator(rotation_range=10, horizontal_flip=True)
  model = _model()
  history = model.fit(augmented.flow(x, y, batch_size=5, seed=0), steps_per_epoch=2,
                      epochs=2, verbose=0)
  assert len(history.history["loss"]) == 2
  assert model.predict(augmented.flow(x, batch_size=5, shuffle=False)).shape == (12, 3)
