"""TensorFlow's op types as tfe_compat calls: what `tf.import_graph_def` runs for a NodeDef.

`KERNELS[op_type](*inputs, **attrs)` computes one node of a TF GraphDef with the same ops
as eager execution (the `tf` namespace), on the node's inputs (Tensors; a variable's handle
or reference is the Variable) and its attributes (decoded by graph_import.py). It returns
the node's output, or a tuple of its outputs. Attributes the computation does not need
(`T`, `Tidx`, `use_locking`, ...) are accepted and ignored.
"""
import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat import state_ops
from tfe_compat.framework.tensor import Tensor


def tf_namespace():
  """The `tf` namespace (the package root, imported when first needed: it imports this)."""
  import tfe_compat  # pylint: disable=import-outside-toplevel
  return tfe_compat


def _jnp(x):
  return x._value if isinstance(x, Tensor) else jnp.asarray(state_ops.read(x)._value)


KERNELS = {}


def kernel(*op_types):
  """Registers `fn` as the kernel of `op_types`; a kernel with an `op_type` parameter serving
  several types gets each type's own bound."""
  def register(fn):
    takes_type = "op_type" in inspect.signature(fn).parameters
    for op_type in op_types:
      KERNELS[op_type] = functools.partial(fn, op_type=op_type) if takes_type else fn
    return fn
  return register


def _simple(op_type, name, *arg_attrs):
  """A kernel calling `tf.<name>(*inputs, **{attrs named in arg_attrs})`."""
  def run(*inputs, **attrs):
    fn = tf_namespace()
    for part in name.split("."):
      fn = getattr(fn, part)
    return fn(*inputs, **{k: attrs[k] for k in arg_attrs if k in attrs})
  run.__name__ = op_type
  KERNELS[op_type] = run


for _op_type, _name in [
    ("Add", "add"), ("AddV2", "add"), ("Sub", "subtract"), ("Mul", "multiply"),
    ("RealDiv", "truediv"), ("Div", "div"), ("FloorDiv", "floordiv"), ("FloorMod", "floormod"),
    ("TruncateDiv", "truncatediv"), ("DivNoNan", "div_no_nan"), ("Pow", "pow"),
    ("Maximum", "maximum"), ("Minimum", "minimum"), ("SquaredDifference", "squared_difference"),
    ("Neg", "negative"), ("Abs", "abs"), ("Square", "square"), ("Sqrt", "sqrt"),
    ("Rsqrt", "rsqrt"), ("Exp", "exp"), ("Log", "log"), ("Log1p", "log1p"),
    ("Reciprocal", "reciprocal"), ("Sign", "sign"), ("Floor", "floor"), ("Ceil", "ceil"),
    ("Round", "round"), ("Tanh", "tanh"), ("Sigmoid", "sigmoid"), ("Sin", "sin"), ("Cos", "cos"),
    ("Relu", "nn.relu"), ("Relu6", "nn.relu6"), ("Elu", "nn.elu"), ("Selu", "nn.selu"),
    ("Softplus", "nn.softplus"), ("Softsign", "nn.softsign"),
    ("Equal", "equal"), ("NotEqual", "not_equal"), ("Less", "less"), ("LessEqual", "less_equal"),
    ("Greater", "greater"), ("GreaterEqual", "greater_equal"), ("LogicalAnd", "logical_and"),
    ("LogicalOr", "logical_or"), ("LogicalNot", "logical_not"),
    ("Identity", "identity"), ("StopGradient", "stop_gradient"), ("ZerosLike", "zeros_like"),
    ("OnesLike", "ones_like"), ("Reshape", "reshape"), ("ExpandDims", "expand_dims"),
    ("Tile", "tile"), ("Transpose", "transpose"), ("Fill", "fill"), ("Rank", "rank"),
    ("BroadcastTo", "broadcast_to"), ("Slice", "slice"),
    ("Select", "where"), ("SelectV2", "where"), ("Range", "range"),
    ("CheckNumerics", "debugging.check_numerics"), ("L2Loss", "nn.l2_loss"), ("Erf", "math.erf"),
    ("ReverseV2", "reverse"), ("Atan2", "atan2"), ("IsNan", "is_nan"), ("Sinh", "sinh"),
    ("Expm1", "expm1"), ("Atan", "atan"), ("Acos", "acos"), ("Asin", "asin"), ("Tan", "tan")]:
  _simple(_op_type, _name)
_simple("Exit", "identity")  # a while loop's output (graph_import_loops.py)
_simple("Softmax", "nn.softmax")
_simple("LogSoftmax", "nn.log_softmax")
_simple("BiasAdd", "nn.bias_add", "data_format")
_simple("BiasAddV1", "nn.bias_add")
_simple("LeakyRelu", "nn.leaky_relu", "alpha")
_simple("Shape", "shape", "out_type")
_simple("Size", "size", "out_type")
_simple("ArgMax", "argmax", "output_type")
_simple("ArgMin", "argmin", "output_type")
_simple("OneHot", "one_hot", "axis")
_simple("MatMul", "matmul", "transpose_a", "transpose_b")


@kernel("Squeeze")
def _squeeze(x, squeeze_dims=(), **_):
  return tf_namespace().squeeze(x, axis=list(squeeze_dims) or None)


_simple("Pad", "pad")
_simple("Cumsum", "cumsum", "exclusive", "reverse")
_simple("Cumprod", "cumprod", "exclusive", "reverse")


@kernel("MirrorPad")
def _mirror_pad(x, paddings, mode, **_):
  return tf_namespace().pad(x, paddings, mode=mode)


@kernel("PadV2")
def _pad_v2(x, paddings, constant_values, **_):
  return tf_namespace().pad(x, paddings, constant_values=constant_values)


@kernel("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea")
def _resize(images, size, align_corners=False, half_pixel_centers=False, *, op_type, **_):
  fn = getattr(tf_namespace().image, {"ResizeBilinear": "resize_bilinear",
                                      "ResizeNearestNeighbor": "resize_nearest_neighbor",
                                      "ResizeBicubic": "resize_bicubic",
                                      "ResizeArea": "resize_area"}[op_type])
  kwargs = {"half_pixel_centers": half_pixel_centers} if half_pixel_centers else {}
  return fn(images, size, align_corners=align_corners, **kwargs)


@kernel("LRN")
def _lrn(x, depth_radius=5, bias=1., alpha=1., beta=0.5, **_):
  return tf_namespace().nn.local_response_normalization(x, depth_radius, bias, alpha, beta)


@kernel("Concat")
def _concat_v1(axis, *values, **_):
  return tf_namespace().concat(list(values), axis)


@kernel("SplitV")
def _split_v(x, sizes, axis, num_split, **_):
  return tuple(tf_namespace().split(x, sizes, axis=axis, num=num_split))


@kernel("Gather", "ResourceGather")
def _gather_v1(params, indices, **_):
  return tf_namespace().gather(params, indices)


@kernel("ClipByValue")
def _clip(x, low, high, **_):
  return tf_namespace().clip_by_value(x, low, high)


@kernel("IdentityN")
def _identity_n(*inputs, **_):
  return tuple(tf_namespace().identity(x) for x in inputs)


@kernel("BatchMatMul", "BatchMatMulV2", "BatchMatMulV3")
def _batch_matmul(x, y, adj_x=False, adj_y=False, **_):
  return tf_namespace().matmul(x, y, adjoint_a=adj_x, adjoint_b=adj_y)


@kernel("Cast")
def _cast(x, DstT, **_):  # pylint: disable=invalid-name
  return tf_namespace().cast(x, DstT)


@kernel("Sum", "Mean", "Prod", "Max", "Min", "All", "Any")
def _reduce(x, axis, keep_dims=False, *, op_type, **_):
  tf = tf_namespace()
  fn = {"Sum": tf.reduce_sum, "Mean": tf.reduce_mean, "Prod": tf.reduce_prod,
        "Max": tf.reduce_max, "Min": tf.reduce_min, "All": tf.reduce_all,
        "Any": tf.reduce_any}[op_type]
  return fn(x, axis=axis, keepdims=keep_dims)


@kernel("ConcatV2")
def _concat(*inputs, **_):
  return tf_namespace().concat(list(inputs[:-1]), inputs[-1])


@kernel("DynamicStitch", "ParallelDynamicStitch")
def _dynamic_stitch(*inputs, N, **_):  # pylint: disable=invalid-name
  return tf_namespace().dynamic_stitch(list(inputs[:N]), list(inputs[N:]))


@kernel("AddN")
def _add_n(*inputs, **_):
  return tf_namespace().add_n(list(inputs))


@kernel("Pack")
def _pack(*inputs, axis=0, **_):
  return tf_namespace().stack(list(inputs), axis=axis)


@kernel("Unpack")
def _unpack(x, num, axis=0, **_):
  return tuple(tf_namespace().unstack(x, num=num, axis=axis))


@kernel("Split")
def _split(axis, x, num_split, **_):
  return tuple(tf_namespace().split(x, num_split, axis=axis))


@kernel("GatherV2")
def _gather(params, indices, axis, batch_dims=0, **_):
  return tf_namespace().gather(params, indices, axis=axis, batch_dims=batch_dims)


@kernel("StridedSlice")
def _strided_slice(x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                   new_axis_mask=0, shrink_axis_mask=0, **_):
  return tf_namespace().strided_slice(
      x, begin, end, strides, begin_mask=begin_mask, end_mask=end_mask,
      ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask,
      shrink_axis_mask=shrink_axis_mask)


@kernel("Conv2D")
def _conv2d(x, kernel_, strides, padding, data_format="NHWC", dilations=None, **_):
  return tf_namespace().nn.conv2d(x, kernel_, strides=strides, padding=padding,
                                  data_format=data_format, dilations=dilations)


@kernel("DepthwiseConv2dNative")
def _depthwise(x, kernel_, strides, padding, data_format="NHWC", dilations=None, **_):
  return tf_namespace().nn.depthwise_conv2d_native(x, kernel_, strides, padding,
                                                   data_format=data_format, dilations=dilations)


@kernel("Conv2DBackpropInput")
def _conv2d_backprop_input(sizes, kernel_, grad, strides, padding, data_format="NHWC",
                           dilations=None, **_):
  return tf_namespace().nn.conv2d_backprop_input(sizes, kernel_, grad, strides, padding,
                                                 data_format=data_format, dilations=dilations)


@kernel("Conv2DBackpropFilter")
def _conv2d_backprop_filter(x, sizes, grad, strides, padding, data_format="NHWC",
                            dilations=None, **_):
  return tf_namespace().nn.conv2d_backprop_filter(x, sizes, grad, strides, padding,
                                                  data_format=data_format, dilations=dilations)


@kernel("MaxPool", "AvgPool")
def _pool(x, ksize, strides, padding, data_format="NHWC", *, op_type, **_):
  fn = tf_namespace().nn.max_pool if op_type == "MaxPool" else tf_namespace().nn.avg_pool
  return fn(x, ksize, strides, padding, data_format=data_format)


@kernel("MaxPoolGrad")
def _max_pool_grad(x, _, grad, ksize, strides, padding, data_format="NHWC", **__):
  pool = lambda v: tf_namespace().nn.max_pool(Tensor(v), ksize, strides, padding,
                                              data_format=data_format)._value
  return Tensor(jax.vjp(pool, x._value)[1](grad._value)[0])


@kernel("AvgPoolGrad")
def _avg_pool_grad(shape, grad, ksize, strides, padding, data_format="NHWC", **_):
  zeros = jnp.zeros(tuple(int(d) for d in np.asarray(shape._value)), grad._value.dtype)
  pool = lambda v: tf_namespace().nn.avg_pool(Tensor(v), ksize, strides, padding,
                                              data_format=data_format)._value
  return Tensor(jax.vjp(pool, zeros)[1](grad._value)[0])


@kernel("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3")
def _fused_batch_norm(x, scale, offset, mean, variance, epsilon=1e-4, data_format="NHWC",
                      is_training=True, exponential_avg_factor=1.0, *, op_type, **_):
  y, batch_mean, batch_var = tf_namespace().nn.fused_batch_norm(
      x, scale, offset, mean=None if is_training else mean,
      variance=None if is_training else variance, epsilon=epsilon, data_format=data_format,
      is_training=is_training)
  extra = (batch_mean, batch_var) + ((batch_mean,) if op_type == "FusedBatchNormV3" else ())
  return (y, batch_mean, batch_var) + extra


@kernel("TopKV2")
def _top_k(x, k, sorted=True, **_):  # pylint: disable=redefined-builtin
  result = tf_namespace().nn.top_k(x, k, sorted=sorted)
  return result.values, result.indices


# ---- random draws (TF's generators are not JAX's: values differ from TensorFlow's) ----
@kernel("RandomUniform", "RandomStandardNormal", "TruncatedNormal")
def _random(shape, dtype, seed=0, seed2=0, *, op_type, **_):
  tf = tf_namespace()
  fn = {"RandomUniform": tf.random_uniform, "RandomStandardNormal": tf.random_normal,
        "TruncatedNormal": tf.truncated_normal}[op_type]
  return fn(shape, dtype=dtype, seed=seed2 if seed or seed2 else None)


@kernel("StatelessRandomGetKeyCounter")
def _key_counter(seed, **_):
  """The (key, counter) pair that TF's V2 stateless ops take: here the seed and zeros."""
  key = jnp.asarray(seed._value).astype(jnp.uint64)
  return Tensor(key[:1]), Tensor(jnp.concatenate([key[1:], jnp.zeros(1, jnp.uint64)]))


@kernel("StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2")
def _stateless_v2(shape, key, counter, alg, dtype, *, op_type, **_):
  seed = Tensor(jnp.concatenate([key._value, counter._value[:1]]).astype(jnp.int64))
  return _stateless(shape, seed, dtype=dtype, op_type=op_type)


@kernel("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal")
def _stateless(shape, seed, dtype, *, op_type, **_):
  tf = tf_namespace()
  fn = {"Uniform": tf.random.stateless_uniform, "Normal": tf.random.stateless_normal,
        "TruncatedNormal": tf.random.stateless_truncated_normal}[
            op_type[len("Stateless"):].replace("Random", "").replace("V2", "")]
  return fn(shape, seed, dtype=dtype)


# ---- gradient kernels (the ops `tf.gradients` writes into TF graphs) ----
@kernel("BroadcastGradientArgs")
def _broadcast_gradient_args(s0, s1, **_):
  """The axes to sum each input's gradient over (needs the shapes' values)."""
  a, b = [int(d) for d in np.asarray(s0._value)], [int(d) for d in np.asarray(s1._value)]
  rank = max(len(a), len(b))
  a, b = [1] * (rank - len(a)) + a, [1] * (rank - len(b)) + b
  r0 = [i for i in range(rank) if a[i] == 1 and b[i] != 1 or a[i] == b[i] == 1]
  r1 = [i for i in range(rank) if b[i] == 1 and a[i] != 1 or a[i] == b[i] == 1]
  out = s0._value.dtype
  return Tensor(np.array(r0, out)), Tensor(np.array(r1, out))


@kernel("ReluGrad")
def _relu_grad(grad, features, **_):
  return Tensor(jnp.where(features._value > 0, grad._value, 0).astype(grad._value.dtype))


@kernel("Relu6Grad")
def _relu6_grad(grad, features, **_):
  f = features._value
  return Tensor(jnp.where((f > 0) & (f < 6), grad._value, 0).astype(grad._value.dtype))


@kernel("SigmoidGrad")
def _sigmoid_grad(y, grad, **_):
  return Tensor(grad._value * y._value * (1 - y._value))


@kernel("TanhGrad")
def _tanh_grad(y, grad, **_):
  return Tensor(grad._value * (1 - y._value * y._value))


@kernel("RsqrtGrad")
def _rsqrt_grad(y, grad, **_):
  return Tensor(grad._value * -0.5 * y._value ** 3)


@kernel("SqrtGrad")
def _sqrt_grad(y, grad, **_):
  return Tensor(grad._value * 0.5 / y._value)


@kernel("BiasAddGrad")
def _bias_add_grad(grad, data_format="NHWC", **_):
  g = grad._value
  axis = 1 if data_format.startswith("NC") else g.ndim - 1
  return Tensor(jnp.sum(g, axis=tuple(i for i in range(g.ndim) if i != axis)))


@kernel("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(logits, labels, **_):
  logits, labels = logits._value, labels._value
  log_probs = jax.nn.log_softmax(logits, axis=-1)
  onehot = jax.nn.one_hot(labels, logits.shape[-1], dtype=logits.dtype)
  loss = -jnp.sum(onehot * log_probs, axis=-1)
  return Tensor(loss), Tensor(jnp.exp(log_probs) - onehot)


@kernel("SoftmaxCrossEntropyWithLogits")
def _xent(logits, labels, **_):
  logits, labels = logits._value, labels._value
  log_probs = jax.nn.log_softmax(logits, axis=-1)
  return Tensor(-jnp.sum(labels * log_probs, axis=-1)), Tensor(jnp.exp(log_probs) - labels)


# ---- variables and their updates (inputs are Variables) ----
@kernel("Assign", "AssignVariableOp")
def _assign(var, value, *, op_type, **_):
  state_ops.write(var, value._value)
  return tf_namespace().identity(value) if op_type == "Assign" else None


@kernel("AssignAdd", "AssignSub", "AssignAddVariableOp", "AssignSubVariableOp")
def _assign_add(var, value, *, op_type, **_):
  sign = -1 if "Sub" in op_type else 1
  new = state_ops.read(var)._value + sign * value._value
  state_ops.write(var, new)
  return Tensor(new) if "Variable" not in op_type else None


@kernel("ReadVariableOp")
def _read(var, **_):
  if isinstance(var, Tensor):  # a value where TF passed the handle on (an Identity of it)
    return var
  return state_ops.read(var)


def _apply_update(var, *inputs, rule, slots, ref, **_):
  """The kernels `Apply<name>` (`ref`: returns the new value) and `ResourceApply<name>`:
  `rule(value, slot values, *other inputs) -> (new value, new slot values)` over arrays; the
  first `slots` inputs after the variable are its slot Variables."""
  slot_vars, rest = inputs[:slots], [x._value for x in inputs[slots:]]
  values = [_jnp(v) for v in (var,) + tuple(slot_vars)]
  new, new_slots = rule(values[0], values[1:], *rest)
  for v, x in zip((var,) + tuple(slot_vars), (new,) + tuple(new_slots)):
    state_ops.write(v, x.astype(values[0].dtype))
  return Tensor(new) if ref else None


_UPDATES = {
    "GradientDescent": (0, lambda v, s, lr, g: (v - lr * g, ())),
    "Momentum": (1, lambda v, s, lr, g, momentum: _momentum(v, s[0], lr, g, momentum)),
    "Adam": (2, lambda v, s, p1, p2, lr, b1, b2, eps, g: _adam(v, s, p1, p2, lr, b1, b2, eps, g)),
    "Adagrad": (1, lambda v, s, lr, g: (v - lr * g / jnp.sqrt(s[0] + g * g), (s[0] + g * g,))),
    "RMSProp": (2, lambda v, s, lr, rho, mom, eps, g: _rmsprop(v, s, lr, rho, mom, eps, g)),
}


def _momentum(v, accum, lr, g, momentum):
  accum = accum * momentum + g
  return v - lr * accum, (accum,)


def _adam(v, slots, beta1_power, beta2_power, lr, beta1, beta2, epsilon, g):
  m = slots[0] + (g - slots[0]) * (1 - beta1)
  s = slots[1] + (g * g - slots[1]) * (1 - beta2)
  alpha = lr * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
  return v - alpha * m / (jnp.sqrt(s) + epsilon), (m, s)


def _rmsprop(v, slots, lr, rho, momentum, epsilon, g):
  ms = slots[0] + (g * g - slots[0]) * (1 - rho)
  mom = slots[1] * momentum + lr * g / jnp.sqrt(ms + epsilon)
  return v - mom, (ms, mom)


for _name, (_slots, _rule) in _UPDATES.items():
  for _prefix, _ref in (("Apply", True), ("ResourceApply", False)):
    KERNELS[_prefix + _name] = functools.partial(_apply_update, rule=_rule, slots=_slots,
                                                 ref=_ref)


@kernel("NoOp")
def _no_op(**_):
  return None


# TensorArrays of a fixed size (TF 1.x loops, graph_import_loops.py): the handle is the size,
# the flow tensor that every TensorArray op takes and returns holds the stacked elements
# (dimensions the element shape leaves unknown are 0 until the first write sets them).
@kernel("TensorArrayV3")
def _tensor_array(size, dtype, element_shape=None, dynamic_size=False, **_):
  if dynamic_size:
    raise ValueError("tfe_compat imports TensorArrays of a fixed size, not dynamic_size=True "
                     "ones (their flow is an array of the TensorArray's shape)")
  dims = [0] if element_shape is None or element_shape.dims is None else \
      [d or 0 for d in element_shape.as_list()]
  size = int(_jnp(size))
  return (Tensor(jnp.asarray(size, jnp.int32)),
          Tensor(jnp.zeros([size] + dims, dtype.as_numpy_dtype)))


def _ta_fit(flow, shape):
  """The flow's elements, of elements of `shape` (an empty flow takes that shape)."""
  flow, shape = _jnp(flow), tuple(shape)
  if flow.shape[1:] == shape:
    return flow
  if flow.size:
    raise ValueError("A TensorArray of elements of shape %s cannot hold elements of shape %s"
                     % (list(flow.shape[1:]), list(shape)))
  return jnp.zeros(flow.shape[:1] + shape, flow.dtype)


@kernel("TensorArrayWriteV3")
def _ta_write(_, index, value, flow, **__):
  return Tensor(_ta_fit(flow, value.shape).at[_jnp(index)].set(_jnp(value)))


@kernel("TensorArrayScatterV3")
def _ta_scatter(_, indices, value, flow, **__):
  return Tensor(_ta_fit(flow, value.shape[1:]).at[_jnp(indices)].set(_jnp(value)))


@kernel("TensorArrayReadV3")
def _ta_read(_, index, flow, **__):
  return Tensor(_jnp(flow)[_jnp(index)])


@kernel("TensorArrayGatherV3")
def _ta_gather(_, indices, flow, **__):
  return Tensor(jnp.take(_jnp(flow), _jnp(indices), axis=0))


@kernel("TensorArraySizeV3")
def _ta_size(_, flow, **__):
  return Tensor(jnp.asarray(_jnp(flow).shape[0], jnp.int32))


@kernel("TensorArrayConcatV3")
def _ta_concat(_, flow, **__):
  flow = _jnp(flow)
  lengths = jnp.full(flow.shape[:1], flow.shape[1] if flow.ndim > 1 else 1, jnp.int64)
  return Tensor(flow.reshape((-1,) + flow.shape[2:])), Tensor(lengths)


@kernel("TensorArrayCloseV3")
def _ta_close(*_, **__):
  return None
