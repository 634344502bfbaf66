"""tf.feature_column, tf.keras.layers.DenseFeatures, tf.keras.experimental.SequenceFeatures:
outputs, ids, variable names, gradients and errors as TensorFlow's (golden values from
TF 2.21's tf.compat.v1.feature_column, which keeps TF 1.15's columns)."""
import os
import warnings

import numpy as np
import pytest

import tfe_compat as tf

fc = tf.feature_column


def values(tensor, decimals=5):
  return np.round(np.asarray(tensor.numpy(), np.float64), decimals).tolist()


def init(rows, cols):
  """A constant initializer: row i of the table is [i * cols, i * cols + 1, ...] / 10."""
  return tf.constant_initializer(np.arange(rows * cols).reshape(rows, cols) / 10.)


AGE = fc.numeric_column("age")
PRICE = fc.numeric_column("price", shape=(2,))
BUCKETS = fc.bucketized_column(AGE, [18., 30., 50.])
COLOR = fc.categorical_column_with_vocabulary_list("color", ["R", "G", "B"], num_oov_buckets=2)
WORD = fc.categorical_column_with_hash_bucket("word", 7)
IDS = fc.categorical_column_with_identity("id", 5)
WEIGHTED = fc.weighted_categorical_column(IDS, "w")
CROSS = fc.crossed_column(["word", BUCKETS], 11)


def features():
  return {"price": tf.constant([[1., 2.], [3., 4.], [5., 6.]]),
          "age": tf.constant([10., 30., 60.]),
          "color": tf.constant([["R", "X"], ["B", ""], ["G", "G"]]),
          "word": tf.constant([["a", "b"], ["c", ""], ["", ""]]),
          "id": tf.constant([[1, -1], [4, 2], [0, 0]]),
          "num": tf.constant([[10], [15], [-1]], tf.int64),
          "w": tf.constant([[2., 0.], [0.5, 1.5], [1., 3.]])}


def input_layer(columns, **kwargs):
  return fc.input_layer(features(), columns, **kwargs)


def test_numeric_and_bucketized():
  doubled = fc.numeric_column("agei", dtype=tf.int64, normalizer_fn=lambda x: x * 2)
  feats = dict(features(), agei=tf.constant([[1], [2], [3]], tf.int64))
  assert values(fc.input_layer(feats, [PRICE, AGE, doubled])) == [
      [10., 2., 1., 2.], [30., 4., 3., 4.], [60., 6., 5., 6.]]
  assert values(input_layer([BUCKETS, fc.bucketized_column(PRICE, [2., 4.])])) == [
      [1., 0., 0., 0., 1., 0., 0., 0., 1., 0.], [0., 0., 1., 0., 0., 1., 0., 0., 0., 1.],
      [0., 0., 0., 1., 0., 0., 1., 0., 0., 1.]]
  # Python lists, float64 features (cast to float32 first, as TF does)
  assert values(fc.input_layer({"age": [[1.], [40.]]}, [BUCKETS, AGE])) == [
      [1., 1., 0., 0., 0.], [40., 0., 0., 1., 0.]]
  assert values(fc.input_layer({"age": tf.constant([[17.99999999], [18.]], tf.float64)},
                               [BUCKETS, AGE])) == [[18., 0., 1., 0., 0.], [18., 0., 1., 0., 0.]]


CATEGORICAL = [  # (column, indicator output, mean embedding output)
    (COLOR, [[1, 0, 0, 1, 0], [0, 0, 1, 0, 0], [0, 2, 0, 0, 0]],
     [[0.3, 0.4], [0.4, 0.5], [0.2, 0.3]]),
    (fc.categorical_column_with_vocabulary_list("color", ["R", "G", "B"], default_value=0),
     [[2, 0, 0], [0, 0, 1], [0, 2, 0]], [[0., 0.1], [0.4, 0.5], [0.2, 0.3]]),
    (WORD, [[0, 0, 1, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0, 0]],
     [[0.7, 0.8], [1., 1.1], [0., 0.]]),
    (fc.categorical_column_with_hash_bucket("num", 5, dtype=tf.int64),
     [[0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 0]], [[0.4, 0.5], [0.6, 0.7], [0., 0.]]),
    (IDS, [[0, 1, 0, 0, 0], [0, 0, 1, 0, 1], [2, 0, 0, 0, 0]], [[0.2, 0.3], [0.6, 0.7], [0., 0.1]]),
    (fc.categorical_column_with_identity("id", 3, default_value=0),
     [[0, 1, 0], [1, 0, 1], [2, 0, 0]], [[0.2, 0.3], [0.2, 0.3], [0., 0.1]]),
    (fc.categorical_column_with_vocabulary_list("num", [10, 20, 30], num_oov_buckets=1),
     [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]], [[0., 0.1], [0.6, 0.7], [0., 0.]]),
    (CROSS, [[0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0], [0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0],
             [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]], [[1.1, 1.2], [0.8, 0.9], [0.4, 0.5]]),
    (fc.crossed_column([COLOR, "word", IDS], 13, hash_key=7),
     [[0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1],
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0]], [[1.4, 1.5], [1.8, 1.9], [2., 2.1]]),
    (fc.crossed_column([CROSS, "word"], 17),
     [[0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 1],
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0]], [[1.5, 1.6], [2.35, 2.45], [1.8, 1.9]]),
    (WEIGHTED, [[0, 2, 0, 0, 0], [0, 0, 1.5, 0, 0.5], [4, 0, 0, 0, 0]],
     [[0.2, 0.3], [0.5, 0.6], [0., 0.1]]),
    (BUCKETS, [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], [[0., 0.1], [0.4, 0.5], [0.6, 0.7]]),
]


@pytest.mark.parametrize("column, indicator, embedding", CATEGORICAL,
                         ids=[c.name for c, _, _ in CATEGORICAL])
def test_categorical_columns(column, indicator, embedding):
  assert values(input_layer([fc.indicator_column(column)])) == indicator
  emb = fc.embedding_column(column, 2, initializer=init(column.num_buckets, 2))
  assert values(input_layer([emb])) == embedding


def test_vocabulary_file_column(tmp_path):
  path = tmp_path / "colors.txt"
  path.write_bytes(b"R\nG\nB\n")
  column = fc.categorical_column_with_vocabulary_file("color", str(path), num_oov_buckets=1)
  assert column.vocabulary_size == 3 and column.num_buckets == 4
  assert values(input_layer([fc.indicator_column(column)])) == [
      [1, 0, 0, 1], [0, 0, 1, 0], [0, 2, 0, 0]]


def test_combiners_and_max_norm():
  def embed(column, **kwargs):
    return input_layer([fc.embedding_column(column, 2, initializer=init(column.num_buckets, 2),
                                            **kwargs)])
  assert values(embed(COLOR, combiner="sqrtn")) == [
      [0.42426, 0.56569], [0.4, 0.5], [0.28284, 0.42426]]
  assert values(embed(COLOR, combiner="sum")) == [[0.6, 0.8], [0.4, 0.5], [0.4, 0.6]]
  assert values(embed(WEIGHTED, combiner="sqrtn")) == [
      [0.2, 0.3], [0.63246, 0.75895], [0., 0.12649]]
  assert values(embed(CROSS, combiner="sum")) == [[2.2, 2.4], [1.6, 1.8], [0.8, 1.]]
  assert values(embed(COLOR, max_norm=0.5)) == [
      [0.1627, 0.23981], [0.31235, 0.39043], [0.2, 0.3]]


def test_sparse_and_rank_one_inputs():
  emb = fc.embedding_column(COLOR, 2, initializer=init(5, 2))
  sparse = {"color": tf.SparseTensor([[0, 0], [2, 1]], ["G", "Q"], [3, 2])}
  assert values(fc.input_layer(sparse, [fc.indicator_column(COLOR), emb])) == [
      [0.2, 0.3, 0., 1., 0., 0., 0.], [0., 0., 0., 0., 0., 0., 0.],
      [0.6, 0.7, 0., 0., 0., 1., 0.]]
  rank1 = {"color": tf.constant(["G", "R"]), "age": tf.constant([1., 40.])}
  assert values(fc.input_layer(rank1, [fc.indicator_column(COLOR), BUCKETS])) == [
      [1., 0., 0., 0., 0., 1., 0., 0., 0.], [0., 0., 1., 0., 1., 0., 0., 0., 0.]]
  sparse1 = {"color": tf.SparseTensor([[0], [2]], ["G", "B"], [3])}
  assert values(fc.input_layer(sparse1, [fc.indicator_column(COLOR)])) == [
      [0., 1., 0., 0., 0.], [0., 0., 0., 0., 0.], [0., 0., 1., 0., 0.]]


def test_input_layer_variables_and_outputs():
  emb = fc.embedding_column(COLOR, 3, initializer=init(5, 3))
  cols_to_vars, cols_to_outputs = {}, {}
  out = input_layer([PRICE, emb, fc.indicator_column(WORD), BUCKETS], cols_to_vars=cols_to_vars,
                    cols_to_output_tensors=cols_to_outputs)
  assert values(out) == [
      [1., 0., 0., 0., 0.45, 0.55, 0.65, 1., 2., 0., 0., 1., 0., 0., 1., 0.],
      [0., 0., 1., 0., 0.6, 0.7, 0.8, 3., 4., 0., 0., 0., 0., 0., 1., 0.],
      [0., 0., 0., 1., 0.3, 0.4, 0.5, 5., 6., 0., 0., 0., 0., 0., 0., 0.]]
  assert cols_to_vars[PRICE] == [] and cols_to_vars[emb][0].shape.as_list() == [5, 3]
  assert values(cols_to_outputs[emb]) == [[0.45, 0.55, 0.65], [0.6, 0.7, 0.8], [0.3, 0.4, 0.5]]
  assert values(cols_to_outputs[BUCKETS]) == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
  names = []
  with tf.variable_scope("outer"):
    for _ in range(2):  # eager: new variables on each call, in a new scope
      cols_to_vars = {}
      input_layer([emb], cols_to_vars=cols_to_vars)
      names.append(cols_to_vars[emb][0].name)
  assert names == ["outer/input_layer/color_embedding/embedding_weights:0",
                   "outer/input_layer_1/color_embedding/embedding_weights:0"]


def linear_gradients(columns, **kwargs):
  with tf.GradientTape() as tape:
    cols_to_vars = {}
    out = fc.linear_model(features(), columns, cols_to_vars=cols_to_vars, **kwargs)
    loss = tf.reduce_sum(out * tf.constant([[1.], [2.], [3.]]))
  variables = [v for vs in cols_to_vars.values() for v in vs]
  grads = tape.gradient(loss, variables)
  return out, {v.name: values(g) for v, g in zip(variables, grads)}


def test_linear_model():
  with tf.variable_scope("lm"):  # scope names count per enclosing scope, as in TF
    out, grads = linear_gradients([PRICE, COLOR, BUCKETS, fc.indicator_column(WORD), WEIGHTED])
    _, grads2 = linear_gradients([COLOR, IDS, CROSS], sparse_combiner="mean")
    out3, grads3 = linear_gradients([COLOR, WEIGHTED], sparse_combiner="sqrtn", units=2)
  assert values(out) == [[0.], [0.], [0.]]  # weights and bias start at zero
  assert grads == {
      "lm/linear_model/age_bucketized/weights:0": [[1.], [0.], [2.], [3.]],
      "lm/linear_model/bias_weights:0": [6.],
      "lm/linear_model/color/weights:0": [[1.], [6.], [2.], [1.], [0.]],
      "lm/linear_model/id_weighted_by_w/weights:0": [[12.], [2.], [3.], [0.], [1.]],
      "lm/linear_model/price/weights:0": [[22.], [28.]],
      "lm/linear_model/word_indicator/weights:0": [[0.], [0.], [1.], [0.], [0.], [3.], [0.]]}
  assert grads2 == {  # a second call: new scopes, uniquified as TF's
      "lm/linear_model_1/age_bucketized_X_word/weights:0": [
          [0.], [1.], [3.], [0.5], [0.], [0.], [0.], [1.], [0.5], [0.], [0.]],
      "lm/linear_model_1/bias_weights:0": [6.],
      "lm/linear_model_1/color_1/weights:0": [[0.5], [3.], [2.], [0.5], [0.]],
      "lm/linear_model_1/id/weights:0": [[3.], [1.], [1.], [0.], [1.]]}
  assert out3.shape.as_list() == [3, 2]
  assert grads3["lm/linear_model_2/id_weighted_by_w_1/weights:0"] == [
      [3.79473, 3.79473], [1., 1.], [1.89737, 1.89737], [0., 0.], [0.63246, 0.63246]]
  assert grads3["lm/linear_model_2/color_2/weights:0"][1] == [4.24264, 4.24264]


def test_dense_features_layer(tmp_path):
  emb = fc.embedding_column(COLOR, 3, initializer=init(5, 3))
  layer = tf.keras.layers.DenseFeatures([PRICE, emb, fc.indicator_column(CROSS), BUCKETS])
  assert values(layer(features())) == [
      [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.45, 0.55, 0.65, 1, 2],
      [0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0.6, 0.7, 0.8, 3, 4],
      [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0.3, 0.4, 0.5, 5, 6]]
  assert [(w.name, w.shape.as_list()) for w in layer.trainable_weights] == [
      ("dense_features/color_embedding/embedding_weights:0", [5, 3])]
  frozen = tf.keras.layers.DenseFeatures(
      [fc.embedding_column(COLOR, 2, initializer=init(5, 2), trainable=False)], name="feats")
  assert values(frozen(features())) == [[0.3, 0.4], [0.4, 0.5], [0.2, 0.3]]
  assert [(w.name, w.trainable) for w in frozen.weights] == [
      ("feats/color_embedding/embedding_weights:0", False)]
  with pytest.raises(ValueError, match="We expected a dictionary here"):
    frozen(tf.constant([[1., 2.]]))
  with pytest.raises(ValueError, match="Items of feature_columns must be a .*DenseColumn.*You "
                     "can wrap a categorical column with an embedding_column"):
    tf.keras.layers.DenseFeatures([COLOR])
  ckpt = tf.train.Checkpoint(layer=frozen)
  path = ckpt.save(os.path.join(str(tmp_path), "ckpt"))
  frozen.weights[0].assign(tf.zeros([5, 2]))
  ckpt.restore(path)
  assert values(frozen(features())) == [[0.3, 0.4], [0.4, 0.5], [0.2, 0.3]]


def test_dense_features_gradients():
  layer = tf.keras.layers.DenseFeatures([
      fc.embedding_column(COLOR, 2, initializer=init(5, 2)),
      fc.embedding_column(WEIGHTED, 2, combiner="sum", initializer=init(5, 2))])
  with tf.GradientTape() as tape:
    loss = tf.reduce_sum(layer(features()) * tf.constant([[1., 2., 3., 4.]]))
  grads = [tf.convert_to_tensor(g) for g in tape.gradient(loss, layer.trainable_weights)]
  assert values(grads[0]) == [[0.5, 1.], [1., 2.], [1., 2.], [0.5, 1.], [0., 0.]]
  assert values(grads[1]) == [[12., 16.], [6., 8.], [4.5, 6.], [0., 0.], [1.5, 2.]]


def test_dense_features_in_keras_models():
  color = fc.categorical_column_with_vocabulary_list("color", ["R", "G", "B"])
  columns = [AGE, fc.embedding_column(color, 2), fc.indicator_column(color)]
  x = {"age": np.array([10., 40., 60., 20.], np.float32), "color": np.array(["R", "G", "B", "R"])}
  y = np.array([0., 1., 1., 0.], np.float32)
  model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(columns), tf.keras.layers.Dense(1)])
  model.compile("sgd", "mse")
  dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
  history = model.fit(dataset, epochs=1, verbose=0)
  assert len(history.history["loss"]) == 1 and model.predict(x).shape == (4, 1)
  assert len(model.trainable_weights) == 3
  inputs = {"age": tf.keras.Input(shape=(1,), name="age"),
            "color": tf.keras.Input(shape=(1,), name="color", dtype=tf.string)}
  feats = tf.keras.layers.DenseFeatures(columns)(inputs)
  assert feats.shape.as_list() == [None, 6]
  functional = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(feats))
  out = functional({"age": tf.constant([[1.], [50.]]), "color": tf.constant([["G"], ["B"]])})
  assert out.shape.as_list() == [2, 1]


def test_tf_function():
  numeric = tf.keras.layers.DenseFeatures([AGE, BUCKETS])
  fn = tf.function(lambda d: numeric(d))
  assert values(fn({"age": tf.constant([[10.], [40.]])})) == [[10., 1., 0., 0., 0.],
                                                             [40., 0., 0., 1., 0.]]
  assert values(fn({"age": tf.constant([[50.], [20.]])})) == [[50., 0., 0., 0., 1.],
                                                             [20., 0., 1., 0., 0.]]
  assert next(iter(fn._concrete.values())).compiled  # pylint: disable=protected-access
  ids = tf.keras.layers.DenseFeatures([fc.indicator_column(IDS)])
  fn = tf.function(lambda d: ids(d))  # host-side ids: runs eagerly
  fn({"id": tf.constant([[1]])})
  with warnings.catch_warnings(record=True):
    assert values(fn({"id": tf.constant([[3]])})) == [[0., 0., 0., 1., 0.]]


def test_sequence_features():
  feats = {"sid": tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]],
                                  tf.constant([0, 1, 2, 1, 1], tf.int64), [2, 3]),
           "sv": tf.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]],
                                 [1., 2., 3., 4., 5., 6.], [2, 4])}
  sid = fc.sequence_categorical_column_with_identity("sid", 3)
  out, length = tf.keras.experimental.SequenceFeatures(
      [fc.embedding_column(sid, 2, initializer=init(3, 2)), fc.indicator_column(sid)])(feats)
  assert values(out) == [[[0., 0.1, 1., 0., 0.], [0.2, 0.3, 0., 1., 0.], [0., 0., 0., 0., 0.]],
                         [[0.4, 0.5, 0., 0., 1.], [0.2, 0.3, 0., 1., 0.], [0.2, 0.3, 0., 1., 0.]]]
  assert values(length) == [2, 3] and length.dtype == tf.int64
  out, length = tf.keras.experimental.SequenceFeatures(
      [fc.sequence_numeric_column("sv", shape=(2,))])(feats)
  assert values(out) == [[[1., 2.], [3., 4.]], [[5., 6.], [0., 0.]]] and values(length) == [2, 1]
  words = fc.sequence_categorical_column_with_vocabulary_list("sw", ["a", "b", "c"])
  out, length = tf.keras.experimental.SequenceFeatures([fc.indicator_column(words)])(
      {"sw": tf.constant([["a", "c", ""], ["b", "", ""]])})
  assert values(out) == [[[1, 0, 0], [0, 0, 1], [0, 0, 0]], [[0, 1, 0], [0, 0, 0], [0, 0, 0]]]
  assert values(length) == [2, 1]
  with pytest.raises(tf.errors.InvalidArgumentError):  # lengths differ: [2, 3] and [2, 1]
    tf.keras.experimental.SequenceFeatures([fc.indicator_column(sid),
                                            fc.sequence_numeric_column("sv", shape=(2,))])(feats)
  with pytest.raises(ValueError, match="categorical_column must not be of type "
                     "SequenceCategoricalColumn"):
    tf.keras.layers.DenseFeatures([fc.indicator_column(sid)])(feats)
  with pytest.raises(ValueError, match="categorical_column must be of type "
                     "SequenceCategoricalColumn to use SequenceFeatures"):
    tf.keras.experimental.SequenceFeatures([fc.indicator_column(IDS)])(features())


def test_parse_example_spec():
  spec = fc.make_parse_example_spec([PRICE, BUCKETS, COLOR, IDS, CROSS, WEIGHTED])
  assert spec == {"price": tf.io.FixedLenFeature((2,), tf.float32),
                  "age": tf.io.FixedLenFeature((1,), tf.float32),
                  "color": tf.io.VarLenFeature(tf.string), "id": tf.io.VarLenFeature(tf.int64),
                  "word": tf.io.VarLenFeature(tf.string), "w": tf.io.VarLenFeature(tf.float32)}
  with pytest.raises(ValueError, match="feature_columns contain different parse_spec for key "
                     "a"):
    fc.make_parse_example_spec([fc.numeric_column("a"),
                                fc.categorical_column_with_hash_bucket("a", 3)])
  with pytest.raises(ValueError, match="All feature_columns must be _FeatureColumn instances"):
    fc.make_parse_example_spec([fc.sequence_numeric_column("s")])  # v2-only in TF 1.15
  columns = [AGE, fc.indicator_column(COLOR)]
  example = tf.train.Example(features=tf.train.Features(feature={
      "age": tf.train.Feature(float_list=tf.train.FloatList(value=[3.])),
      "color": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"B", b"Z"]))}))
  parsed = tf.io.parse_example([example.SerializeToString()] * 2,
                               fc.make_parse_example_spec(columns))
  assert values(fc.input_layer(parsed, columns)) == [[3., 0., 0., 1., 1., 0.]] * 2


def test_column_properties():
  emb = fc.embedding_column(COLOR, 4)
  sequence = fc.sequence_categorical_column_with_identity("sid", 3)
  assert [c.name for c in [PRICE, BUCKETS, COLOR, WORD, IDS, CROSS, WEIGHTED, emb,
                           fc.indicator_column(CROSS), sequence]] == [
      "price", "age_bucketized", "color", "word", "id", "age_bucketized_X_word",
      "id_weighted_by_w", "color_embedding", "age_bucketized_X_word_indicator", "sid"]
  assert fc.crossed_column([COLOR, "word", IDS], 3).name == "color_X_id_X_word"
  assert [c.num_buckets for c in [BUCKETS, fc.bucketized_column(PRICE, [2., 4.]), COLOR, WORD,
                                  IDS, CROSS, WEIGHTED, sequence]] == [4, 6, 5, 7, 5, 11, 5, 3]
  assert [c.variable_shape.as_list() for c in [PRICE, BUCKETS, fc.indicator_column(COLOR),
                                               emb]] == [[2], [1, 4], [1, 5], [4]]
  assert fc.numeric_column("a", shape=(2, 2), default_value=3).default_value == ((3, 3), (3, 3))
  assert PRICE == fc.numeric_column("price", shape=[2]) and isinstance(PRICE, tuple)


@pytest.mark.parametrize("make, error, message", [
    (lambda: fc.numeric_column("a", shape=(0,)), ValueError,
     r"shape dimensions must be greater than 0. shape: \(0,\), key: a"),
    (lambda: fc.numeric_column("a", shape=(1.5,)), TypeError, "shape dimensions must be integer"),
    (lambda: fc.numeric_column("a", dtype=tf.string), ValueError,
     "dtype must be convertible to float. dtype: <dtype: 'string'>, key: a"),
    (lambda: fc.numeric_column("a", shape=(2,), default_value=[1.]), ValueError,
     "The shape of default_value must be equal to given shape"),
    (lambda: fc.numeric_column("a", dtype=tf.int32, default_value=1.5), TypeError,
     "default_value must be compatible with dtype"),
    (lambda: fc.numeric_column(3), ValueError, "key must be a string. Got: type <class 'int'>"),
    (lambda: fc.numeric_column("a", normalizer_fn=3), TypeError, "normalizer_fn must be a "
     "callable"),
    (lambda: fc.bucketized_column(COLOR, [1.]), ValueError, "source_column must be a column "
     r"generated with numeric_column\(\)"),
    (lambda: fc.bucketized_column(fc.numeric_column("a", shape=(2, 2)), [1.]), ValueError,
     "source_column must be one-dimensional column"),
    (lambda: fc.bucketized_column(AGE, []), ValueError, "boundaries must not be empty."),
    (lambda: fc.bucketized_column(AGE, [2., 1.]), ValueError, "boundaries must be a sorted list."),
    (lambda: fc.categorical_column_with_hash_bucket("a", 0), ValueError,
     "hash_bucket_size must be at least 1. hash_bucket_size: 0, key: a"),
    (lambda: fc.categorical_column_with_hash_bucket("a", 3, dtype=tf.float32), ValueError,
     "column_name: a dtype must be string or integer. dtype: <dtype: 'float32'>."),
    (lambda: fc.categorical_column_with_vocabulary_list("a", []), ValueError,
     r"vocabulary_list \[\] must be non-empty, column_name: a"),
    (lambda: fc.categorical_column_with_vocabulary_list("a", ["x", "x"]), ValueError,
     "Duplicate keys in vocabulary_list"),
    (lambda: fc.categorical_column_with_vocabulary_list("a", ["x"], default_value=2,
                                                        num_oov_buckets=1), ValueError,
     "Can't specify both num_oov_buckets and default_value in a."),
    (lambda: fc.categorical_column_with_vocabulary_list("a", ["x"], dtype=tf.int64), ValueError,
     "dtype <dtype: 'int64'> and vocabulary dtype <dtype: 'string'> do not match"),
    (lambda: fc.categorical_column_with_vocabulary_list("a", [1.5]), ValueError,
     "column_name: a vocabulary dtype must be string or integer. dtype: <dtype: 'float64'>."),
    (lambda: fc.categorical_column_with_vocabulary_file("a", ""), ValueError,
     "Missing vocabulary_file in a."),
    (lambda: fc.categorical_column_with_vocabulary_file("a", "/nonexistent.txt"), ValueError,
     "vocabulary_file in a does not exist."),
    (lambda: fc.categorical_column_with_identity("a", 0), ValueError,
     "num_buckets 0 < 1, column_name a"),
    (lambda: fc.categorical_column_with_identity("a", 3, default_value=3), ValueError,
     r"default_value 3 not in range \[0, 3\), column_name a"),
    (lambda: fc.indicator_column(PRICE), ValueError, "Unsupported input type. Input must be a "
     "CategoricalColumn."),
    (lambda: fc.weighted_categorical_column(IDS, "w", dtype=tf.string), ValueError,
     "dtype <dtype: 'string'> is not convertible to float."),
    (lambda: fc.crossed_column(["a", "b"], 0), ValueError, "hash_bucket_size must be > 1"),
    (lambda: fc.crossed_column(["a"], 3), ValueError, "keys must be a list with length > 1."),
    (lambda: fc.crossed_column(["a", WORD], 3), ValueError,
     "categorical_column_with_hash_bucket is not supported for crossing."),
    (lambda: fc.crossed_column(["a", PRICE], 3), ValueError, "Unsupported key type."),
    (lambda: fc.embedding_column(COLOR, 0), ValueError, "Invalid dimension 0."),
    (lambda: fc.embedding_column(COLOR, 2, ckpt_to_load_from="x"), ValueError,
     "Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them."),
    (lambda: fc.embedding_column(COLOR, 2, initializer=3), ValueError,
     "initializer must be callable if specified. Embedding of column_name: color"),
    (lambda: fc.shared_embedding_columns([COLOR, WORD], 2), RuntimeError,
     "shared_embedding_columns are not supported when eager execution is enabled."),
])
def test_constructor_errors(make, error, message):
  with pytest.raises(error, match=message):
    make()


@pytest.mark.parametrize("feats, columns, error, message", [
    (None, [], ValueError, "feature_columns must not be empty."),
    (None, [COLOR], ValueError, "Items of feature_columns must be a _DenseColumn. You can wrap "
     "a categorical column"),
    (None, [PRICE, fc.numeric_column("price")], ValueError, "Duplicate feature column name"),
    (None, {"a": PRICE}, ValueError, "Expected feature_columns to be iterable, found dict."),
    (None, [fc.numeric_column("missing")], ValueError, "Feature missing is not in features "
     "dictionary."),
    ({"a": tf.constant(1.)}, [fc.numeric_column("a")], ValueError,
     r"Feature \(key: a\) cannot have rank 0."),
    ({"a": tf.SparseTensor([[0, 0]], [1.], [1, 1])}, [fc.numeric_column("a")], ValueError,
     "The corresponding Tensor of numerical column must be a Tensor. SparseTensor is not "
     "supported. key: a"),
    ({"a": tf.constant([[1.], [2.]]), "b": tf.constant([[1.]])},
     [fc.numeric_column("a"), fc.numeric_column("b")], ValueError,
     r"Batch size \(first dimension\) of each feature must be same. Batch size of columns "
     r"\(a, b\): \(2, 1\)"),
    ({"color": tf.constant([[1]])}, [fc.indicator_column(COLOR)], ValueError,
     "Column dtype and SparseTensors dtype must be compatible. key: color"),
    ({"id": tf.constant([[7]])}, [fc.indicator_column(IDS)], tf.errors.InvalidArgumentError,
     r"assertion failed: \[7\] \[5\]"),  # TF 1.15 asserts 0 <= id < num_buckets
    ({"id": tf.constant([[1.]])}, [fc.indicator_column(IDS)], ValueError,
     "Invalid input, not integer. key: id dtype: <dtype: 'float32'>"),
    ({"id": tf.constant([[1]]), "w": tf.constant([[1]])}, [fc.indicator_column(WEIGHTED)],
     ValueError, "Bad dtype, expected <dtype: 'float32'>, but got <dtype: 'int32'>."),
])
def test_input_layer_errors(feats, columns, error, message):
  with pytest.raises(error, match=message):
    fc.input_layer(features() if feats is None else feats, columns)


def test_linear_model_rejects_sequence_numeric_columns():
  with pytest.raises(ValueError, match="Items of feature_columns must be a _FeatureColumn"):
    fc.linear_model(features(), [fc.sequence_numeric_column("s")])
