"""`tf.contrib.layers` (TF 1.15) layer functions, run eagerly.

Variables come from `tf.get_variable` inside TF 1.15's variable scopes ("fully_connected",
"Conv", "BatchNorm", ...) under TF's names (`weights`, `biases`, `beta`, `moving_mean`), so
`scope=`, `tf.make_template` and `tfe.EagerVariableStore` share them as in TF. Executing
eagerly each call without such a store creates new variables, and batch_norm applies its
moving-average updates at once. As in TF 1.15 eager, the `weights_regularizer` of the
layer-class based functions (fully_connected, conv2d, ...) adds nothing to the
REGULARIZATION_LOSSES collection; `apply_regularization` does.
"""
import functools
import numbers

from tfe_compat.framework import dtypes
from tfe_compat.framework import graph
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import array_ops
from tfe_compat.ops import conv_ops
from tfe_compat.ops import init_ops
from tfe_compat.ops import manip_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops import nn_impl
from tfe_compat.ops import nn_ops
from tfe_compat.ops import reduction_ops
from tfe_compat.ops.matmul_cast_ops import cast, matmul
from tfe_compat.variable_scope import name_scope, variable_scope
from tfe_compat.variables import get_variable

_UPDATE_OPS = "update_ops"
_REGULARIZATION_LOSSES = "regularization_losses"


def _variable(name, shape, dtype, initializer, trainable, collections, regularizer=None):
  return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                      regularizer=regularizer, trainable=trainable,
                      collections=collections)


def _collect(outputs_collections, outputs):
  if outputs_collections:
    graph.add_to_collections(outputs_collections, outputs)
  return outputs


def _pair(value, what):
  if isinstance(value, numbers.Integral):
    return (int(value), int(value))
  value = tuple(int(v) for v in value)
  if len(value) != 2:
    raise ValueError("%s must be an int or a list/tuple of 2 ints, got %r" % (what, value))
  return value


def _check_num_outputs(num_outputs):
  if not isinstance(num_outputs, numbers.Integral):
    raise ValueError("num_outputs type should be one of [<class 'int'>], got %s."
                     % type(num_outputs))


def _finish(sc_outputs, normalizer_fn, normalizer_params, biases, data_format, activation_fn):
  outputs = sc_outputs
  if normalizer_fn is not None:
    outputs = normalizer_fn(outputs, **(normalizer_params or {}))
  elif biases is not None:
    outputs = nn_ops.bias_add(outputs, biases, data_format=data_format)
  if activation_fn is not None:
    outputs = activation_fn(outputs)
  return outputs


def _biases(num, dtype, normalizer_fn, biases_initializer, trainable, collections):
  if normalizer_fn is not None or biases_initializer is None:
    return None
  return _variable("biases", [num], dtype, biases_initializer, trainable, collections)


@export("contrib.layers.fully_connected")
def fully_connected(inputs, num_outputs, activation_fn=nn_ops.relu, normalizer_fn=None,
                    normalizer_params=None,
                    weights_initializer=init_ops.GlorotUniform(),
                    weights_regularizer=None,
                    biases_initializer=init_ops.Zeros(), biases_regularizer=None,
                    reuse=None, variables_collections=None, outputs_collections=None,
                    trainable=True, scope=None):
  """`activation_fn(inputs @ weights + biases)` over the last axis of `inputs`."""
  _check_num_outputs(num_outputs)
  with variable_scope(scope, "fully_connected", reuse=reuse):
    inputs = ops.convert_to_tensor(inputs)
    shape = inputs.shape.as_list()
    if len(shape) < 2 or shape[-1] is None:
      raise ValueError("The last dimension of the inputs to `Dense` should be defined. "
                       "Found `None`.")
    dtype = inputs.dtype.base_dtype
    weights = _variable("weights", [shape[-1], num_outputs], dtype, weights_initializer,
                        trainable, variables_collections)
    biases = _biases(num_outputs, dtype, normalizer_fn, biases_initializer, trainable,
                     variables_collections)
    flat = array_ops.reshape(inputs, [-1, shape[-1]]) if len(shape) > 2 else inputs
    outputs = matmul(flat, weights)
    if len(shape) > 2:
      outputs = array_ops.reshape(
          outputs, [-1 if d is None else d for d in shape[:-1]] + [num_outputs])
    outputs = _finish(outputs, normalizer_fn, normalizer_params, biases, "NHWC",
                      activation_fn)
  return _collect(outputs_collections, outputs)


def _data_format(data_format):
  if data_format not in (None, "NHWC", "NCHW"):
    raise ValueError("data_format has to be either NCHW or NHWC.")
  return data_format or "NHWC"


@export("contrib.layers.conv2d", "contrib.layers.convolution2d",
        "contrib.layers.convolution")
def convolution2d(inputs, num_outputs, kernel_size, stride=1, padding="SAME",
                  data_format=None, rate=1, activation_fn=nn_ops.relu, normalizer_fn=None,
                  normalizer_params=None, weights_initializer=init_ops.GlorotUniform(),
                  weights_regularizer=None, biases_initializer=init_ops.Zeros(),
                  biases_regularizer=None, reuse=None, variables_collections=None,
                  outputs_collections=None, trainable=True, scope=None):
  """2-D convolution (scope "Conv"): weights [kh, kw, in, num_outputs], then biases."""
  data_format = _data_format(data_format)
  with variable_scope(scope, "Conv", reuse=reuse):
    inputs = ops.convert_to_tensor(inputs)
    if inputs.shape.ndims != 4:
      raise NotImplementedError("tfe_compat's contrib.layers.convolution supports 4-D "
                                "inputs (conv2d) only.")
    kh, kw = _pair(kernel_size, "kernel_size")
    sh, sw = _pair(stride, "stride")
    rh, rw = _pair(rate, "rate")
    channel_axis = 1 if data_format == "NCHW" else 3
    dtype = inputs.dtype.base_dtype
    weights = _variable("weights", [kh, kw, inputs.shape.as_list()[channel_axis],
                                    num_outputs],
                        dtype, weights_initializer, trainable, variables_collections)
    biases = _biases(num_outputs, dtype, normalizer_fn, biases_initializer, trainable,
                     variables_collections)
    strides = [1, 1, sh, sw] if data_format == "NCHW" else [1, sh, sw, 1]
    dilations = [1, 1, rh, rw] if data_format == "NCHW" else [1, rh, rw, 1]
    outputs = conv_ops.conv2d(inputs, weights, strides, padding.upper(),
                              data_format=data_format, dilations=dilations)
    outputs = _finish(outputs, normalizer_fn, normalizer_params, biases, data_format,
                      activation_fn)
  return _collect(outputs_collections, outputs)


def _deconv_length(size, stride, kernel, padding):
  if padding == "SAME":
    return size * stride
  return size * stride + max(kernel - stride, 0)


@export("contrib.layers.conv2d_transpose", "contrib.layers.convolution2d_transpose")
def conv2d_transpose(inputs, num_outputs, kernel_size, stride=1, padding="SAME",
                     data_format="NHWC", activation_fn=nn_ops.relu, normalizer_fn=None,
                     normalizer_params=None, weights_initializer=init_ops.GlorotUniform(),
                     weights_regularizer=None, biases_initializer=init_ops.Zeros(),
                     biases_regularizer=None, reuse=None, variables_collections=None,
                     outputs_collections=None, trainable=True, scope=None):
  """Transposed 2-D convolution (scope "Conv2d_transpose"): weights [kh, kw, out, in]."""
  data_format = _data_format(data_format)
  padding = padding.upper()
  with variable_scope(scope, "Conv2d_transpose", reuse=reuse):
    inputs = ops.convert_to_tensor(inputs)
    kh, kw = _pair(kernel_size, "kernel_size")
    sh, sw = _pair(stride, "stride")
    shape = inputs.shape.as_list()
    nchw = data_format == "NCHW"
    height, width, channels = (shape[2], shape[3], shape[1]) if nchw else shape[1:]
    dtype = inputs.dtype.base_dtype
    weights = _variable("weights", [kh, kw, num_outputs, channels], dtype,
                        weights_initializer, trainable, variables_collections)
    biases = _biases(num_outputs, dtype, normalizer_fn, biases_initializer, trainable,
                     variables_collections)
    out_h = _deconv_length(height, sh, kh, padding)
    out_w = _deconv_length(width, sw, kw, padding)
    out_shape = ([shape[0], num_outputs, out_h, out_w] if nchw
                 else [shape[0], out_h, out_w, num_outputs])
    strides = [1, 1, sh, sw] if nchw else [1, sh, sw, 1]
    outputs = conv_ops.conv2d_transpose(inputs, weights, out_shape, strides, padding,
                                        data_format=data_format)
    outputs = _finish(outputs, normalizer_fn, normalizer_params, biases, data_format,
                      activation_fn)
  return _collect(outputs_collections, outputs)


def _pool(pool_fn, default_scope, inputs, kernel_size, stride, padding, data_format,
          outputs_collections, scope):
  if data_format not in ("NHWC", "NCHW"):
    raise ValueError("data_format has to be either NCHW or NHWC.")
  with name_scope(scope, default_scope):
    kh, kw = _pair(kernel_size, "kernel_size")
    sh, sw = _pair(stride, "stride")
    nchw = data_format == "NCHW"
    outputs = pool_fn(ops.convert_to_tensor(inputs),
                      [1, 1, kh, kw] if nchw else [1, kh, kw, 1],
                      [1, 1, sh, sw] if nchw else [1, sh, sw, 1], padding.upper(),
                      data_format=data_format)
  return _collect(outputs_collections, outputs)


@export("contrib.layers.max_pool2d")
def max_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC",
               outputs_collections=None, scope=None):
  """2-D max pooling (default stride 2, padding "VALID")."""
  return _pool(conv_ops.max_pool, "MaxPool2D", inputs, kernel_size, stride, padding,
               data_format, outputs_collections, scope)


@export("contrib.layers.avg_pool2d")
def avg_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC",
               outputs_collections=None, scope=None):
  """2-D average pooling (default stride 2, padding "VALID")."""
  return _pool(conv_ops.avg_pool, "AvgPool2D", inputs, kernel_size, stride, padding,
               data_format, outputs_collections, scope)


@export("contrib.layers.flatten")
def flatten(inputs, outputs_collections=None, scope=None):
  """Reshapes `inputs` to [batch_size, k], keeping the batch dimension."""
  inputs = ops.convert_to_tensor(inputs)
  if inputs.shape.ndims is None:
    raise ValueError("Inputs rank must be known: %s" % inputs.shape)
  batch = inputs.shape.as_list()[0] if inputs.shape.ndims else 1
  outputs = array_ops.reshape(inputs, [-1 if batch is None else batch, -1])
  return _collect(outputs_collections, outputs)


def _param(initializers, key, default):
  return (initializers or {}).get(key, default)


def _beta_gamma(center, scale, params_shape, dtype, param_initializers, param_regularizers,
                trainable, variables_collections, broadcast_shape):
  """Creates the "beta" (center) and "gamma" (scale) variables; None for those not wanted."""
  beta = gamma = None
  if center:
    beta = _variable("beta", params_shape, dtype,
                     _param(param_initializers, "beta", init_ops.Zeros()), trainable,
                     variables_collections, _param(param_regularizers, "beta", None))
  if scale:
    gamma = _variable("gamma", params_shape, dtype,
                      _param(param_initializers, "gamma", init_ops.Ones()), trainable,
                      variables_collections, _param(param_regularizers, "gamma", None))
  if broadcast_shape is not None:
    beta = None if beta is None else array_ops.reshape(beta, broadcast_shape)
    gamma = None if gamma is None else array_ops.reshape(gamma, broadcast_shape)
  return beta, gamma


def _is_true(flag):
  return bool(flag.numpy()) if hasattr(flag, "numpy") else bool(flag)


@export("contrib.layers.batch_norm")
def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001,
               activation_fn=None, param_initializers=None, param_regularizers=None,
               updates_collections=_UPDATE_OPS, is_training=True, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               batch_weights=None, fused=None, data_format="NHWC",
               zero_debias_moving_mean=False, scope=None, renorm=False,
               renorm_clipping=None, renorm_decay=0.99, adjustment=None):
  """Batch normalization (scope "BatchNorm"); training updates the moving statistics now.

  The moving variance follows the unbiased batch variance on TF's fused path (2-D/4-D
  inputs, `fused` not False) and the biased one otherwise, as in TF 1.15.
  """
  if batch_weights is not None or renorm or adjustment is not None or zero_debias_moving_mean:
    raise NotImplementedError("tfe_compat's contrib.layers.batch_norm does not support "
                              "batch_weights, renorm, adjustment or zero_debias_moving_mean.")
  data_format = _data_format(data_format)
  inputs = ops.convert_to_tensor(inputs)
  rank = inputs.shape.ndims
  if rank is None:
    raise ValueError("Inputs %s has undefined rank." % inputs.name)
  channel_axis = 1 if data_format == "NCHW" and rank > 2 else rank - 1
  axes = [i for i in range(rank) if i != channel_axis]
  depth = inputs.shape.as_list()[channel_axis]
  if depth is None:
    raise ValueError("Inputs %s has undefined channels dimension %s." % (inputs.name,
                                                                       inputs.shape))
  dtype = inputs.dtype.base_dtype
  fused_path = fused is not False and rank in (2, 4)
  if fused_path:
    epsilon = max(float(epsilon), 1.001e-5)
  broadcast = [depth if i == channel_axis else 1 for i in range(rank)]
  with variable_scope(scope, "BatchNorm", reuse=reuse):
    beta, gamma = _beta_gamma(center, scale, [depth], dtype, param_initializers,
                              param_regularizers, trainable, variables_collections, broadcast)
    moving_mean = _variable("moving_mean", [depth], dtype,
                            _param(param_initializers, "moving_mean", init_ops.Zeros()),
                            False, variables_collections)
    moving_variance = _variable(
        "moving_variance", [depth], dtype,
        _param(param_initializers, "moving_variance", init_ops.Ones()), False,
        variables_collections)
    if _is_true(is_training):
      mean, variance = nn_impl.moments(inputs, axes)
      if fused_path:
        count = 1
        for i in axes:
          count *= inputs.shape.as_list()[i]
        update_variance = variance * cast(count / max(count - 1, 1), dtype)
      else:
        update_variance = variance
      rate = cast(1.0 - decay, dtype)
      moving_mean.assign_sub((moving_mean - mean) * rate)
      moving_variance.assign_sub((moving_variance - update_variance) * rate)
    else:
      mean, variance = moving_mean.read_value(), moving_variance.read_value()
    outputs = nn_impl.batch_normalization(
        inputs, array_ops.reshape(mean, broadcast), array_ops.reshape(variance, broadcast),
        beta, gamma, epsilon)
    if activation_fn is not None:
      outputs = activation_fn(outputs)
  return _collect(outputs_collections, outputs)


@export("contrib.layers.layer_norm")
def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               begin_norm_axis=1, begin_params_axis=-1, scope=None):
  """Normalizes over axes [begin_norm_axis, rank) (variance epsilon 1e-12, as in TF 1.15);
  beta/gamma have shape inputs.shape[begin_params_axis:]."""
  inputs = ops.convert_to_tensor(inputs)
  rank = inputs.shape.ndims
  if rank is None:
    raise ValueError("Inputs %s has undefined rank." % inputs.name)
  if begin_norm_axis < 0:
    begin_norm_axis = rank + begin_norm_axis
  if begin_params_axis < 0:
    begin_params_axis = rank + begin_params_axis
  if begin_params_axis >= rank or begin_norm_axis >= rank:
    raise ValueError("begin_params_axis (%d) and begin_norm_axis (%d) must be < rank(inputs) "
                     "(%d)" % (begin_params_axis, begin_norm_axis, rank))
  params_shape = inputs.shape.as_list()[begin_params_axis:]
  dtype = inputs.dtype.base_dtype
  with variable_scope(scope, "LayerNorm", reuse=reuse):
    beta, gamma = _beta_gamma(center, scale, params_shape, dtype, None, None, trainable,
                              variables_collections, None)
    mean, variance = nn_impl.moments(inputs, list(range(begin_norm_axis, rank)),
                                     keep_dims=True)
    epsilon = 1e-3 if dtype == dtypes.float16 else 1e-12
    outputs = nn_impl.batch_normalization(inputs, mean, variance, beta, gamma, epsilon)
    if activation_fn is not None:
      outputs = activation_fn(outputs)
  return _collect(outputs_collections, outputs)


@export("contrib.layers.dropout")
def dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True,
            outputs_collections=None, scope=None, seed=None):
  """Keeps each element with probability `keep_prob` (scaled by 1/keep_prob) in training."""
  inputs = ops.convert_to_tensor(inputs)
  if _is_true(is_training) and keep_prob != 1:
    outputs = nn_ops.dropout(inputs, noise_shape=noise_shape, seed=seed, rate=1 - keep_prob)
  else:
    outputs = array_ops.identity(inputs)
  return _collect(outputs_collections, outputs)


def _check_scale(scale, what="scale"):
  """None when `scale` is 0 (the regularizer is disabled); raises on bad scales."""
  if isinstance(scale, numbers.Integral):
    raise ValueError("%s cannot be an integer: %s" % (what, scale))
  if isinstance(scale, numbers.Real):
    if scale < 0.:
      raise ValueError("Setting a scale less than 0 on a regularizer: %g" % scale)
    if scale == 0.:
      return None
  return scale


@export("contrib.layers.l1_regularizer")
def l1_regularizer(scale, scope=None):
  """`scale * sum(|w|)`; a scale of 0 gives a regularizer returning None."""
  if _check_scale(scale) is None:
    return lambda _: None

  def l1(weights):
    weights = ops.convert_to_tensor(weights)
    my_scale = ops.convert_to_tensor(scale, dtype=weights.dtype.base_dtype)
    return math_ops.multiply(my_scale, reduction_ops.reduce_sum(math_ops.abs(weights)))
  return l1


@export("contrib.layers.l2_regularizer")
def l2_regularizer(scale, scope=None):
  """`scale * sum(w ** 2) / 2` (tf.nn.l2_loss); a scale of 0 gives a regularizer returning
  None."""
  if _check_scale(scale) is None:
    return lambda _: None

  def l2(weights):
    weights = ops.convert_to_tensor(weights)
    my_scale = ops.convert_to_tensor(scale, dtype=weights.dtype.base_dtype)
    return math_ops.multiply(my_scale, nn_ops.l2_loss(weights))
  return l2


@export("contrib.layers.sum_regularizer")
def sum_regularizer(regularizer_list, scope=None):
  """The sum of the given regularizers' non-None results (None when there are none)."""
  regularizer_list = [reg for reg in regularizer_list if reg is not None]
  if not regularizer_list:
    return None

  def sum_reg(weights):
    tensors = [t for t in (reg(weights) for reg in regularizer_list) if t is not None]
    return reduction_ops.add_n(tensors) if tensors else None
  return sum_reg


@export("contrib.layers.l1_l2_regularizer")
def l1_l2_regularizer(scale_l1=1.0, scale_l2=1.0, scope=None):
  """`l1_regularizer(scale_l1)` plus `l2_regularizer(scale_l2)`."""
  if isinstance(scale_l1, numbers.Integral):
    raise ValueError("scale_l1 cannot be an integer: %s" % (scale_l1,))
  if isinstance(scale_l2, numbers.Integral):
    raise ValueError("scale_l2 cannot be an integer: %s" % (scale_l2,))
  scope = scope or "l1_l2_regularizer"
  if scale_l1 == 0.:
    return l2_regularizer(scale_l2, scope)
  if scale_l2 == 0.:
    return l1_regularizer(scale_l1, scope)
  return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


@export("contrib.layers.apply_regularization")
def apply_regularization(regularizer, weights_list=None):
  """Sums `regularizer(w)` over `weights_list` (default: the "weights" collection) and adds
  the sum to the REGULARIZATION_LOSSES collection."""
  if not weights_list:
    weights_list = graph.get_collection("weights")
  if not weights_list:
    raise ValueError("No weights to regularize.")
  penalties = [regularizer(w) for w in weights_list]
  penalties = [ops.convert_to_tensor(0.0) if p is None else p for p in penalties]
  for p in penalties:
    if p.shape.ndims != 0:
      raise ValueError("regularizer must return a scalar Tensor instead of a Tensor with rank "
                       "%d." % p.shape.ndims)
  summed = reduction_ops.add_n(penalties)
  graph.add_to_collection(_REGULARIZATION_LOSSES, summed)
  return summed


@export("contrib.layers.embed_sequence")
def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None,
                   regularizer=None, trainable=True, scope=None, reuse=None):
  """Rows of an "EmbedSequence/embeddings" [vocab_size, embed_dim] float32 variable."""
  if not (reuse or (vocab_size and embed_dim)):
    raise ValueError("Must specify vocab size and embedding dimension when not reusing. Got "
                     "vocab_size=%s and embed_dim=%s" % (vocab_size, embed_dim))
  with variable_scope(scope, "EmbedSequence", reuse=reuse):
    shape = [vocab_size, embed_dim] if vocab_size and embed_dim else None
    embeddings = _variable("embeddings", shape, dtypes.float32, initializer, trainable,
                           None, regularizer)
    return nn_impl.embedding_lookup(embeddings, ids)


@export("contrib.layers.one_hot_encoding")
def one_hot_encoding(labels, num_classes, on_value=1.0, off_value=0.0,
                     outputs_collections=None, scope=None):
  """`tf.one_hot(labels, num_classes, on_value, off_value)` (float32 by default)."""
  labels = ops.convert_to_tensor(labels)
  if labels.dtype == dtypes.int32:
    labels = cast(labels, dtypes.int64)
  outputs = manip_ops.one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
  return _collect(outputs_collections, outputs)


def _layer_name(layer, fallback):
  if hasattr(layer, "__name__"):
    return layer.__name__
  if hasattr(layer, "func") and hasattr(layer.func, "__name__"):
    return layer.func.__name__
  return fallback


@export("contrib.layers.repeat")
def repeat(inputs, repetitions, layer, *args, **kwargs):
  """Applies `layer` `repetitions` times under scope "Repeat", each in "<layer name>_<i>"."""
  scope = kwargs.pop("scope", None)
  with variable_scope(scope, "Repeat"):
    outputs = ops.convert_to_tensor(inputs)
    prefix = scope if scope is not None else _layer_name(layer, "repeat")
    for i in range(repetitions):
      kwargs["scope"] = "%s_%d" % (prefix, i + 1)
      outputs = layer(outputs, *args, **kwargs)
    return outputs


@export("contrib.layers.stack")
def stack(inputs, layer, stack_args, **kwargs):
  """Applies `layer(outputs, *stack_args[i], **kwargs)` in turn under scope "Stack"."""
  scope = kwargs.pop("scope", None)
  if not isinstance(stack_args, (list, tuple)):
    raise ValueError("stack_args need to be a list or tuple")
  with variable_scope(scope, "Stack"):
    outputs = ops.convert_to_tensor(inputs)
    prefix = scope if scope is not None else _layer_name(layer, "stack")
    for i, layer_args in enumerate(stack_args):
      kwargs["scope"] = "%s_%d" % (prefix, i + 1)
      if not isinstance(layer_args, (list, tuple)):
        layer_args = [layer_args]
      outputs = layer(outputs, *layer_args, **kwargs)
    return outputs


@export("contrib.layers.softmax")
def softmax(logits, scope=None):
  """Softmax over the last dimension of `logits`."""
  return nn_ops.softmax(ops.convert_to_tensor(logits), axis=-1)


@export("contrib.layers.bias_add")
def bias_add(inputs, activation_fn=None, initializer=init_ops.Zeros(), regularizer=None,
             reuse=None, variables_collections=None, outputs_collections=None,
             trainable=True, data_format="NHWC", scope=None):
  """Adds a "BiasAdd/biases" variable over the channel dimension, then `activation_fn`."""
  data_format = _data_format(data_format)
  inputs = ops.convert_to_tensor(inputs)
  rank = inputs.shape.ndims
  if data_format == "NCHW" and rank < 3:
    raise ValueError("Data format NCHW only supports rank >= 3")
  channels = inputs.shape.as_list()[1 if data_format == "NCHW" else -1]
  with variable_scope(scope, "BiasAdd", reuse=reuse):
    biases = _variable("biases", [channels], inputs.dtype.base_dtype, initializer,
                       trainable, variables_collections, regularizer)
    outputs = nn_ops.bias_add(inputs, biases, data_format=data_format)
    if activation_fn is not None:
      outputs = activation_fn(outputs)
  return _collect(outputs_collections, outputs)


@export("contrib.layers.separable_conv2d", "contrib.layers.separable_convolution2d")
def separable_conv2d(inputs, num_outputs, kernel_size, depth_multiplier=1, stride=1,
                     padding="SAME", data_format="NHWC", rate=1, activation_fn=nn_ops.relu,
                     normalizer_fn=None, normalizer_params=None,
                     weights_initializer=init_ops.GlorotUniform(), pointwise_initializer=None,
                     weights_regularizer=None, biases_initializer=init_ops.Zeros(),
                     biases_regularizer=None, reuse=None, variables_collections=None,
                     outputs_collections=None, trainable=True, scope=None):
  """Depthwise then (when `num_outputs` is not None) pointwise convolution, scope
  "SeparableConv2d"."""
  data_format = _data_format(data_format)
  with variable_scope(scope, "SeparableConv2d", reuse=reuse):
    inputs = ops.convert_to_tensor(inputs)
    kh, kw = _pair(kernel_size, "kernel_size")
    sh, sw = _pair(stride, "stride")
    rh, rw = _pair(rate, "rate")
    nchw = data_format == "NCHW"
    channels = inputs.shape.as_list()[1 if nchw else 3]
    dtype = inputs.dtype.base_dtype
    depthwise = _variable("depthwise_weights", [kh, kw, channels, depth_multiplier], dtype,
                          weights_initializer, trainable, variables_collections)
    strides = [1, 1, sh, sw] if nchw else [1, sh, sw, 1]
    if num_outputs is not None:
      pointwise = _variable("pointwise_weights",
                            [1, 1, channels * depth_multiplier, num_outputs], dtype,
                            pointwise_initializer or weights_initializer, trainable,
                            variables_collections)
      outputs = conv_ops.separable_conv2d(inputs, depthwise, pointwise, strides,
                                          padding.upper(), rate=[rh, rw],
                                          data_format=data_format)
      num_biases = num_outputs
    else:
      outputs = conv_ops.depthwise_conv2d(inputs, depthwise, strides, padding.upper(),
                                          rate=[rh, rw], data_format=data_format)
      num_biases = channels * depth_multiplier
    biases = _biases(num_biases, dtype, normalizer_fn, biases_initializer, trainable,
                     variables_collections)
    outputs = _finish(outputs, normalizer_fn, normalizer_params, biases, data_format,
                      activation_fn)
  return _collect(outputs_collections, outputs)


export("contrib.layers.linear")(functools.partial(fully_connected, activation_fn=None))
export("contrib.layers.relu")(functools.partial(fully_connected, activation_fn=nn_ops.relu))
export("contrib.layers.relu6")(functools.partial(fully_connected, activation_fn=nn_ops.relu6))
