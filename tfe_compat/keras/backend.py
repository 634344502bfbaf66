"""`tf.keras.backend`: float type, epsilon, learning phase, object-name counters, and the
TF 1.15 backend functions (int_shape, dot, batch_dot, reductions, crossentropies, ...)."""
import builtins as _builtins
import collections
import contextlib
import weakref

import numpy as np

from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework import context
from tfe_compat.framework import graph
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.keras import backend_session
from tfe_compat.keras.engine.keras_tensor import KerasTensor
from tfe_compat.ops import (array_ops, manip_ops, math_ops, matmul_cast_ops, nn_impl, nn_ops,
                            random_ops, reduction_ops, slicing, sparse_ops)
from tfe_compat.variable_scope import name_scope

_state = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}
# The phase set with set_learning_phase, per graph (`phase_key()`), as TF's
# _GRAPH_LEARNING_PHASES: setting it eagerly leaves graphs their placeholder.
learning_phases = weakref.WeakKeyDictionary()


class _EagerExecution:
  """The key of eager execution's learning phase (graphs are weak keys)."""


_eager_phase = _EagerExecution()


def phase_key():
  """The current graph, or eager execution's key."""
  return context.ctx.graph if context.ctx.graph is not None else _eager_phase


_name_counts = collections.defaultdict(int)


@export("keras.backend.floatx")
def floatx():
  return _state["floatx"]


@export("keras.backend.set_floatx")
def set_floatx(value):
  if value not in ("float16", "bfloat16", "float32", "float64"):
    raise ValueError("Unknown floatx type: " + str(value))
  _state["floatx"] = str(value)


@export("keras.backend.epsilon")
def epsilon():
  return _state["epsilon"]


@export("keras.backend.set_epsilon")
def set_epsilon(value):
  _state["epsilon"] = value


@export("keras.backend.image_data_format")
def image_data_format():
  return _state["image_data_format"]


@export("keras.backend.set_image_data_format")
def set_image_data_format(data_format):
  if data_format not in ("channels_first", "channels_last"):
    raise ValueError("Unknown data_format: " + str(data_format))
  _state["image_data_format"] = data_format


@export("keras.backend.learning_phase")
def learning_phase():
  """0 or 1 as set; unset in graph mode, the graph's `keras_learning_phase` tensor (a bool
  placeholder with default False, fed to train), as TF 1.15's Keras has it."""
  phase = learning_phases.get(phase_key())
  if phase is not None:
    return phase
  current = context.ctx.graph  # also while a recorded call is evaluated or replayed
  if current is None:
    return 0
  tensors = current.get_collection_ref("_keras_learning_phase")
  if not tensors:
    with graph_build.lifted() if graph.building() is None else contextlib.nullcontext(), \
        graph.init_scope():
      tensors.append(array_ops.placeholder_with_default(False, shape=(),
                                                        name="keras_learning_phase/"))
  return tensors[0]


@export("keras.backend.set_learning_phase")
def set_learning_phase(value):
  if value not in (0, 1):
    raise ValueError("Expected learning phase to be 0 or 1.")
  learning_phases[phase_key()] = value


@export("keras.backend.get_uid")
def get_uid(prefix=""):
  """1 on the first call with `prefix`, then 2, 3, ... (reset by clear_session)."""
  _name_counts[prefix] += 1
  return _name_counts[prefix]


def get_default_graph_uid_map():
  """The name counters of the default graph (TF's): prefix, or (namespace, name), -> count."""
  return _name_counts


def unique_object_name(base, zero_based=True):
  """Keras's default layer names: "dense", "dense_1", ... (inputs: "input_1", "input_2")."""
  count = get_uid(base)
  if not zero_based:
    return "%s_%d" % (base, count)
  return base if count == 1 else "%s_%d" % (base, count - 1)


@graph.on_reset_default_graph
def _forget_names():
  """Layer names are unique per graph in TF: `tf.reset_default_graph()` starts them anew."""
  _name_counts.clear()


@export("keras.backend.clear_session")
def clear_session():
  """A new default graph (which forgets layer names, variable scopes and the global step),
  and no learning phase set."""
  graph.reset_default_graph()
  learning_phases.clear()


# ---- Tensor utilities (TF 1.15 `tf.keras.backend`, on tfe_compat ops) ----
def _tensor(x):
  return x if isinstance(x, Tensor) else ops.convert_to_tensor(x)


def _floatx_dtype(dtype):
  return dtypes.as_dtype(floatx() if dtype is None else dtype)


@export("keras.backend.cast_to_floatx")
def cast_to_floatx(x):
  return np.asarray(x, dtype=floatx())


@export("keras.backend.is_keras_tensor")
def is_keras_tensor(x):
  """True for the symbolic tensors of the functional API (`tf.keras.Input` and layer outputs)."""
  if isinstance(x, KerasTensor):
    return True
  if not isinstance(x, (Tensor, variables.Variable)):
    raise ValueError("Unexpectedly found an instance of type `" + str(type(x)) + "`. "
                     "Expected a symbolic tensor instance.")
  return False


@export("keras.backend.placeholder")
def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None, ragged=False):
  """A placeholder (graph mode); TF's RuntimeError when executing eagerly."""
  if graph.building() is None:
    raise RuntimeError("tf.keras.backend.placeholder() is not compatible with eager "
                       "execution: use tf.keras.Input for symbolic inputs, or pass values "
                       "directly.")
  dtype = dtypes.as_dtype(dtype or floatx())
  if shape is None and ndim is not None:
    shape = [None] * ndim
  if sparse:
    return sparse_ops.sparse_placeholder(dtype, shape, name)
  return array_ops.placeholder(dtype, shape, name)


@export("keras.backend.function")
def function(inputs, outputs, updates=None, name=None, **kwargs):
  """Graph mode: a callable feeding `inputs` with its list of values and returning the
  values of `outputs` (running `updates` too) in the Keras session."""
  if graph.building() is None:
    raise NotImplementedError("tf.keras.backend.function builds a graph function, which "
                              "tfe_compat runs in graph mode only: call the model or layers "
                              "directly (or wrap the computation in tf.function).")
  inputs, updates = list(inputs), list(updates or [])

  def run(values):
    results = backend_session.get_session().run([outputs, updates], dict(zip(inputs, values)))
    return results[0]
  return run


export("keras.backend.name_scope")(name_scope)


@export("keras.backend.int_shape")
def int_shape(x):
  """The static shape as a tuple of ints and None (None for an unknown rank)."""
  shape = x.shape
  if isinstance(shape, tuple):
    return shape
  try:
    return tuple(tensor_shape.TensorShape(shape).as_list())
  except ValueError:
    return None


@export("keras.backend.ndim")
def ndim(x):
  return tensor_shape.TensorShape(x.shape).ndims


@export("keras.backend.shape")
def shape(x):
  return array_ops.shape(x)


@export("keras.backend.dtype")
def dtype(x):
  return x.dtype.base_dtype.name if hasattr(x.dtype, "base_dtype") else np.dtype(x.dtype).name


@export("keras.backend.count_params")
def count_params(x):
  return int(np.prod(int_shape(x)))


@export("keras.backend.cast")
def cast(x, dtype):  # pylint: disable=redefined-outer-name
  return matmul_cast_ops.cast(x, dtype)


@export("keras.backend.constant")
def constant(value, dtype=None, shape=None, name=None):  # pylint: disable=redefined-outer-name
  return ops.constant(value, dtype=_floatx_dtype(dtype), shape=shape)


@export("keras.backend.variable")
def variable(value, dtype=None, name=None, constraint=None):  # pylint: disable=redefined-outer-name
  """A Variable holding `value` (floatx by default)."""
  return variables.Variable(value, dtype=_floatx_dtype(dtype), name=name, constraint=constraint)


def _filled_variable(fill, shape, dtype, name):  # pylint: disable=redefined-outer-name
  value = fill(shape, dtype=_floatx_dtype(dtype))
  if _builtins.all(value.shape.as_list()):
    return variable(value, dtype=dtype, name=name)
  return value


@export("keras.backend.zeros")
def zeros(shape, dtype=None, name=None):  # pylint: disable=redefined-outer-name
  """A Variable of zeros (a Tensor when a dimension is 0), as TF 1.15 returns."""
  return _filled_variable(array_ops.zeros, shape, dtype, name)


@export("keras.backend.ones")
def ones(shape, dtype=None, name=None):  # pylint: disable=redefined-outer-name
  return _filled_variable(array_ops.ones, shape, dtype, name)


@export("keras.backend.eye")
def eye(size, dtype=None, name=None):  # pylint: disable=redefined-outer-name
  rows, cols = (size, size) if isinstance(size, int) else tuple(size)
  return variable(array_ops.eye(rows, cols, dtype=_floatx_dtype(dtype)), dtype=dtype, name=name)


@export("keras.backend.zeros_like")
def zeros_like(x, dtype=None, name=None):  # pylint: disable=redefined-outer-name
  return array_ops.zeros_like(x, dtype=dtype)


@export("keras.backend.ones_like")
def ones_like(x, dtype=None, name=None):  # pylint: disable=redefined-outer-name
  return array_ops.ones_like(x, dtype=dtype)


@export("keras.backend.random_normal")
def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):  # pylint: disable=redefined-outer-name
  return random_ops.random_normal(shape, mean=mean, stddev=stddev, dtype=_floatx_dtype(dtype),
                                  seed=seed)


@export("keras.backend.random_uniform")
def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):  # pylint: disable=redefined-outer-name
  return random_ops.random_uniform(shape, minval=minval, maxval=maxval,
                                   dtype=_floatx_dtype(dtype), seed=seed)


# ---- Values ----
@export("keras.backend.get_value")
def get_value(x):
  """The value of a Tensor or Variable as NumPy (run in the Keras session in graph mode)."""
  if getattr(x, "_graph", None) is not None or isinstance(x, graph.GraphTensor):
    return backend_session.get_session().run(x)
  return x.numpy() if isinstance(x, (Tensor, variables.Variable)) else x


@export("keras.backend.batch_get_value")
def batch_get_value(tensors):
  return [get_value(x) for x in tensors]


@export("keras.backend.set_value")
def set_value(x, value):
  """Sets a variable's value (in the Keras session in graph mode)."""
  if getattr(x, "_graph", None) is not None:
    backend_session.get_session()._load(x, value)  # pylint: disable=protected-access
    return
  x.assign(np.asarray(value, dtype=dtype(x)))


@export("keras.backend.batch_set_value")
def batch_set_value(tuples):
  for x, value in tuples:
    set_value(x, value)


@export("keras.backend.update")
def update(x, new_x):
  return x.assign(new_x)


@export("keras.backend.update_add")
def update_add(x, increment):
  return x.assign_add(increment)


@export("keras.backend.update_sub")
def update_sub(x, decrement):
  return x.assign_sub(decrement)


# ---- Linear algebra and shapes ----
@export("keras.backend.dot")
def dot(x, y):
  """Matrix product; for rank > 2 contracts x's last axis with y's second-to-last."""
  x, y = _tensor(x), _tensor(y)
  if ndim(x) > 2 or ndim(y) > 2:
    return matmul_cast_ops.tensordot(x, y, [[ndim(x) - 1], [_builtins.max(ndim(y) - 2, 0)]])
  return matmul_cast_ops.matmul(x, y)


@export("keras.backend.batch_dot")
def batch_dot(x, y, axes=None):
  """Per-sample dot product of x and y (batch axis 0) over `axes`; (batch,) becomes
  (batch, 1)."""
  x, y = _tensor(x), _tensor(y)
  x_ndim, y_ndim = ndim(x), ndim(y)
  if x_ndim < 2 or y_ndim < 2:
    raise ValueError("Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes "
                     "%s and %s." % (int_shape(x), int_shape(y)))
  if axes is None:
    axes = [x_ndim - 1, y_ndim - 2] if y_ndim > 2 else [x_ndim - 1, y_ndim - 1]
  elif isinstance(axes, int):
    axes = [axes, axes]
  axes = [a % n if a < 0 else a for a, n in zip(axes, (x_ndim, y_ndim))]
  if 0 in axes:
    raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, "
                     "add a dummy batch dimension to your inputs using K.expand_dims(x, 0)")
  letters = "abcdefghijklmnopqrstuvwxyz"
  x_sub = "a" + letters[1:x_ndim]
  y_sub = "a" + letters[x_ndim:x_ndim + y_ndim - 1]
  y_sub = y_sub[:axes[1]] + x_sub[axes[0]] + y_sub[axes[1] + 1:]
  out_sub = "".join(c for c in x_sub if c != x_sub[axes[0]]) + "".join(
      c for c in y_sub[1:] if c != x_sub[axes[0]])
  out = matmul_cast_ops.einsum("%s,%s->%s" % (x_sub, y_sub, out_sub), x, y)
  return array_ops.expand_dims(out, 1) if ndim(out) == 1 else out


@export("keras.backend.transpose")
def transpose(x):
  return array_ops.transpose(x)


@export("keras.backend.gather")
def gather(reference, indices):
  return slicing.gather(reference, indices)


@export("keras.backend.reshape")
def reshape(x, shape):  # pylint: disable=redefined-outer-name
  return array_ops.reshape(x, shape)


@export("keras.backend.permute_dimensions")
def permute_dimensions(x, pattern):
  return array_ops.transpose(x, perm=pattern)


@export("keras.backend.expand_dims")
def expand_dims(x, axis=-1):
  return array_ops.expand_dims(x, axis)


@export("keras.backend.squeeze")
def squeeze(x, axis):
  return array_ops.squeeze(x, [axis])


@export("keras.backend.stack")
def stack(x, axis=0):
  return array_ops.stack(x, axis=axis)


@export("keras.backend.concatenate")
def concatenate(tensors, axis=-1):
  if axis < 0:
    rank = ndim(_tensor(tensors[0]))
    axis = axis % rank if rank else 0
  return array_ops.concat(list(tensors), axis)


@export("keras.backend.one_hot")
def one_hot(indices, num_classes):
  return manip_ops.one_hot(indices, depth=num_classes, axis=-1)


@export("keras.backend.flatten")
def flatten(x):
  return array_ops.reshape(x, [-1])


@export("keras.backend.batch_flatten")
def batch_flatten(x):
  x = _tensor(x)
  return array_ops.reshape(x, [-1, int(np.prod(x.shape.as_list()[1:]))])


@export("keras.backend.repeat")
def repeat(x, n):
  """(batch, dim) -> (batch, n, dim)."""
  x = _tensor(x)
  if ndim(x) != 2:
    raise ValueError("K.repeat expects a 2D tensor, got shape %s" % (int_shape(x),))
  return array_ops.tile(array_ops.expand_dims(x, 1), [1, n, 1])


@export("keras.backend.tile")
def tile(x, n):
  return array_ops.tile(x, [n] if isinstance(n, int) else n)


@export("keras.backend.arange")
def arange(start, stop=None, step=1, dtype="int32"):  # pylint: disable=redefined-outer-name
  if stop is None and start < 0:
    start = 0
  result = array_ops.range(start, limit=stop, delta=step)
  return result if dtype == "int32" else cast(result, dtype)


# ---- Reductions ----
def _reduction(reduce, cast_bool=None):
  def reduction(x, axis=None, keepdims=False):
    x = _tensor(x)
    if cast_bool is not None and x.dtype is dtypes.bool:
      x = cast(x, cast_bool())
    return reduce(x, axis=axis, keepdims=keepdims)
  return reduction


# pylint: disable=redefined-builtin
sum = export("keras.backend.sum")(_reduction(reduction_ops.reduce_sum))
prod = export("keras.backend.prod")(_reduction(reduction_ops.reduce_prod))
max = export("keras.backend.max")(_reduction(reduction_ops.reduce_max))
min = export("keras.backend.min")(_reduction(reduction_ops.reduce_min))
mean = export("keras.backend.mean")(_reduction(reduction_ops.reduce_mean, floatx))
std = export("keras.backend.std")(_reduction(reduction_ops.reduce_std, floatx))
var = export("keras.backend.var")(_reduction(reduction_ops.reduce_variance, floatx))
logsumexp = export("keras.backend.logsumexp")(_reduction(reduction_ops.reduce_logsumexp))
any = export("keras.backend.any")(_reduction(
    lambda x, **kw: reduction_ops.reduce_any(cast(x, dtypes.bool), **kw)))
all = export("keras.backend.all")(_reduction(
    lambda x, **kw: reduction_ops.reduce_all(cast(x, dtypes.bool), **kw)))


@export("keras.backend.argmax")
def argmax(x, axis=-1):
  return reduction_ops.argmax(x, axis)


@export("keras.backend.argmin")
def argmin(x, axis=-1):
  return reduction_ops.argmin(x, axis)


@export("keras.backend.cumsum")
def cumsum(x, axis=0):
  return reduction_ops.cumsum(x, axis=axis)


# ---- Element-wise ----
square = export("keras.backend.square")(lambda x: math_ops.square(x))
abs = export("keras.backend.abs")(lambda x: math_ops.abs(x))
exp = export("keras.backend.exp")(lambda x: math_ops.exp(x))
log = export("keras.backend.log")(lambda x: math_ops.log(x))
round = export("keras.backend.round")(lambda x: math_ops.round(x))
sign = export("keras.backend.sign")(lambda x: math_ops.sign(x))
sin = export("keras.backend.sin")(lambda x: math_ops.sin(x))
cos = export("keras.backend.cos")(lambda x: math_ops.cos(x))
pow = export("keras.backend.pow")(lambda x, a: math_ops.pow(x, a))
equal = export("keras.backend.equal")(lambda x, y: math_ops.equal(x, y))
not_equal = export("keras.backend.not_equal")(lambda x, y: math_ops.not_equal(x, y))
greater = export("keras.backend.greater")(lambda x, y: math_ops.greater(x, y))
greater_equal = export("keras.backend.greater_equal")(lambda x, y: math_ops.greater_equal(x, y))
less = export("keras.backend.less")(lambda x, y: math_ops.less(x, y))
less_equal = export("keras.backend.less_equal")(lambda x, y: math_ops.less_equal(x, y))
maximum = export("keras.backend.maximum")(lambda x, y: math_ops.maximum(x, y))
minimum = export("keras.backend.minimum")(lambda x, y: math_ops.minimum(x, y))
# pylint: enable=redefined-builtin


@export("keras.backend.sqrt")
def sqrt(x):
  """sqrt of x clipped to [0, inf)."""
  x = _tensor(x)
  return math_ops.sqrt(reduction_ops.clip_by_value(x, 0., np.inf))


@export("keras.backend.clip")
def clip(x, min_value, max_value):
  if max_value is not None and min_value is not None and max_value < min_value:
    max_value = min_value
  return reduction_ops.clip_by_value(x, -np.inf if min_value is None else min_value,
                                     np.inf if max_value is None else max_value)


# ---- Activations ----
@export("keras.backend.relu")
def relu(x, alpha=0., max_value=None, threshold=0):
  """max(x, 0) generalised: slope `alpha` below `threshold`, saturation at `max_value`."""
  x = _tensor(x)
  if alpha != 0.:
    if max_value is None and threshold == 0:
      return nn_ops.leaky_relu(x, alpha=alpha)
    negative_part = nn_ops.relu(threshold - x if threshold != 0 else -x)
  clip_max = max_value is not None
  if threshold != 0:
    x = x * cast(math_ops.greater(x, threshold), x.dtype)
  elif max_value == 6:
    x, clip_max = nn_ops.relu6(x), False
  else:
    x = nn_ops.relu(x)
  if clip_max:
    x = reduction_ops.clip_by_value(x, 0., max_value)
  if alpha != 0.:
    x = x - alpha * negative_part
  return x


@export("keras.backend.elu")
def elu(x, alpha=1.):
  res = nn_ops.elu(x)
  return res if alpha == 1 else matmul_cast_ops.where(math_ops.greater(x, 0.), res, alpha * res)


@export("keras.backend.softmax")
def softmax(x, axis=-1):
  return nn_ops.softmax(x, axis=axis)


@export("keras.backend.softplus")
def softplus(x):
  return nn_ops.softplus(x)


@export("keras.backend.softsign")
def softsign(x):
  return nn_ops.softsign(x)


@export("keras.backend.sigmoid")
def sigmoid(x):
  return math_ops.sigmoid(x)


@export("keras.backend.tanh")
def tanh(x):
  return math_ops.tanh(x)


@export("keras.backend.hard_sigmoid")
def hard_sigmoid(x):
  """clip(0.2 * x + 0.5, 0, 1)."""
  x = _tensor(x)
  return reduction_ops.clip_by_value(x * 0.2 + 0.5, 0., 1.)


@export("keras.backend.l2_normalize")
def l2_normalize(x, axis=None):
  return nn_impl.l2_normalize(x, axis=axis)


@export("keras.backend.dropout")
def dropout(x, level, noise_shape=None, seed=None):
  return nn_ops.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


@export("keras.backend.bias_add")
def bias_add(x, bias, data_format=None):
  """x + bias along the channel axis (last, or 1 for channels_first)."""
  data_format = data_format or image_data_format()
  if data_format not in ("channels_first", "channels_last"):
    raise ValueError("Unknown data_format: " + str(data_format))
  x, bias = _tensor(x), _tensor(bias)
  bias_shape = int_shape(bias)
  if len(bias_shape) != 1 and len(bias_shape) != ndim(x) - 1:
    raise ValueError("Unexpected bias dimensions %d, expect to be 1 or %d dimensions"
                     % (len(bias_shape), ndim(x)))
  if data_format == "channels_first" and ndim(x) > 2:
    if len(bias_shape) == 1:
      return x + array_ops.reshape(bias, (1, bias_shape[0]) + (1,) * (ndim(x) - 2))
    return x + array_ops.reshape(bias, (1, bias_shape[-1]) + bias_shape[:-1])
  if len(bias_shape) == 1:
    return nn_ops.bias_add(x, bias)
  return x + array_ops.reshape(bias, (1,) + bias_shape)


@export("keras.backend.in_train_phase")
def in_train_phase(x, alt, training=None):
  """`x` when training (default: the learning phase), else `alt` (callables are called)."""
  training = learning_phase() if training is None else training
  chosen = x if bool(training) else alt
  return chosen() if callable(chosen) else chosen


@export("keras.backend.in_test_phase")
def in_test_phase(x, alt, training=None):
  return in_train_phase(alt, x, training=training)


# ---- Losses on probabilities or logits ----
def check_categorical_shapes(target, output):
  """tf-keras's ValueError for shapes that neither match nor broadcast (TF 1.15's ops refused
  them too; broadcasting ones still compute, as there)."""
  a, b = target.shape, output.shape
  if a.dims is None or b.dims is None or _builtins.all(
      x is None or y is None or x == y or 1 in (x, y)
      for x, y in zip(a.as_list()[::-1], b.as_list()[::-1])):
    return
  raise ValueError("Shapes %s and %s are incompatible" % (a, b))


@export("keras.backend.categorical_crossentropy")
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
  target, output = _tensor(target), _tensor(output)
  check_categorical_shapes(target, output)
  if from_logits:
    return nn_ops.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)
  output = output / reduction_ops.reduce_sum(output, axis, True)
  output = reduction_ops.clip_by_value(output, epsilon(), 1. - epsilon())
  return -reduction_ops.reduce_sum(target * math_ops.log(output), axis)


@export("keras.backend.sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
  target, output = _tensor(target), _tensor(output)
  if not from_logits:
    output = math_ops.log(reduction_ops.clip_by_value(output, epsilon(), 1 - epsilon()))
  output_rank = ndim(output)
  axis %= output_rank
  if axis != output_rank - 1:
    perm = [i for i in range(output_rank) if i != axis] + [axis]
    output = array_ops.transpose(output, perm=perm)
  target = cast(target, dtypes.int64)
  output_shape = output.shape.as_list()
  update_shape = ndim(target) != output_rank - 1
  if update_shape:
    target = flatten(target)
    output = array_ops.reshape(output, [-1, output_shape[-1]])
  res = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
  if update_shape and output_rank >= 3:
    return array_ops.reshape(res, output_shape[:-1])
  return res


@export("keras.backend.binary_crossentropy")
def binary_crossentropy(target, output, from_logits=False):
  target, output = _tensor(target), _tensor(output)
  if from_logits:
    return nn_ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
  output = reduction_ops.clip_by_value(output, epsilon(), 1. - epsilon())
  bce = target * math_ops.log(output + epsilon())
  bce = bce + (1 - target) * math_ops.log(1 - output + epsilon())
  return -bce
