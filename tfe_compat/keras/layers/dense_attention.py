"""Dense attention layers (TF 1.15): Attention (Luong) and AdditiveAttention (Bahdanau).

TF 1.15's versions take `use_scale` and `causal` (no `dropout`, no
`return_attention_scores`: those came later). Inputs are `[query, value]` or
`[query, value, key]`; masks `[query_mask, value_mask]`. The whole computation (scores,
masking, softmax, weighted sum) is one op.
"""
import jax
import jax.numpy as jnp

from tfe_compat.framework import ops
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import op
from tfe_compat.keras.engine.base_layer import Layer


@op(name="DenseAttention")
def _attention(query, value, key, *extra, additive, has_scale, has_q_mask, has_v_mask,
               causal):
  """softmax(masked scores(query, key)) @ value, zeroed where the query mask is False."""
  extra = list(extra)
  scale = extra.pop(0) if has_scale else None
  q_mask = extra.pop(0) if has_q_mask else None
  v_mask = extra.pop(0) if has_v_mask else None
  if additive:
    summed = jnp.tanh(query[..., :, None, :] + key[..., None, :, :])
    scores = jnp.sum(summed * scale if scale is not None else summed, axis=-1)
  else:
    scores = jnp.matmul(query, jnp.swapaxes(key, -1, -2))
    if scale is not None:
      scores = scores * scale
  mask = None
  if v_mask is not None:
    mask = v_mask.astype(bool)[..., None, :]
  if causal:
    tq, tv = scores.shape[-2:]
    lower = jnp.arange(tq)[:, None] >= jnp.arange(tv)[None, :]
    mask = lower if mask is None else jnp.logical_and(mask, lower)
  if mask is not None:
    scores = scores - jnp.asarray(1e9, scores.dtype) * jnp.logical_not(mask).astype(
        scores.dtype)
  result = jnp.matmul(jax.nn.softmax(scores, axis=-1), value)
  if q_mask is not None:
    result = result * q_mask.astype(result.dtype)[..., None]
  return result


class BaseDenseAttention(Layer):
  """Shared call, masking and config of the dense attention layers."""

  _ADDITIVE = False

  def __init__(self, causal=False, **kwargs):
    super().__init__(**kwargs)
    self.causal = causal
    self.supports_masking = True

  def _validate_call_args(self, inputs, mask):
    class_name = type(self).__name__
    if not isinstance(inputs, list):
      raise ValueError("{} layer must be called on a list of inputs, namely [query, value] "
                       "or [query, value, key].".format(class_name))
    if len(inputs) < 2 or len(inputs) > 3:
      raise ValueError("{} layer accepts inputs list of length 2 or 3, namely [query, "
                       "value] or [query, value, key]. Given length: {}"
                       .format(class_name, len(inputs)))
    if mask:
      if not isinstance(mask, list):
        raise ValueError("{} layer mask must be a list, namely [query_mask, value_mask]."
                         .format(class_name))
      if len(mask) != 2:
        raise ValueError("{} layer mask must be a list of length 2, namely [query_mask, "
                         "value_mask]. Given length: {}".format(class_name, len(mask)))

  def call(self, inputs, mask=None):
    self._validate_call_args(inputs=inputs, mask=mask)
    q, v = inputs[0], inputs[1]
    k = inputs[2] if len(inputs) > 2 else v
    q_mask = mask[0] if mask else None
    v_mask = mask[1] if mask else None
    extra = [t for t in (self.scale, q_mask, v_mask) if t is not None]
    q, v, k = ops.convert_matching(q, v, k, op_name="BatchMatMulV2")
    return _attention(q, v, k, *[ops.convert_to_tensor(t) for t in extra],
                      additive=self._ADDITIVE, has_scale=self.scale is not None,
                      has_q_mask=q_mask is not None, has_v_mask=v_mask is not None,
                      causal=bool(self.causal))

  def compute_mask(self, inputs, mask=None):
    self._validate_call_args(inputs=inputs, mask=mask)
    if mask and mask[0] is not None:
      return ops.convert_to_tensor(mask[0])
    return None

  def compute_output_shape(self, input_shape):
    return tensor_shape.TensorShape(input_shape[0])

  def get_config(self):
    config = super().get_config()
    config["causal"] = self.causal
    if hasattr(self, "use_scale"):  # both subclasses have it
      config["use_scale"] = self.use_scale
    return config


@export("keras.layers.Attention")
class Attention(BaseDenseAttention):
  """Dot-product attention: scores = query @ key^T (times a learned scalar `scale` when
  `use_scale`)."""

  def __init__(self, use_scale=False, **kwargs):
    super().__init__(**kwargs)
    self.use_scale = use_scale

  def build(self, input_shape):
    self.scale = self.add_weight(name="scale", shape=(), initializer="ones",
                                 dtype=self.dtype, trainable=True) if self.use_scale else None
    super().build(input_shape)


@export("keras.layers.AdditiveAttention")
class AdditiveAttention(BaseDenseAttention):
  """Additive attention: scores = sum(scale * tanh(query + key), -1), `scale` a learned
  vector of size dim when `use_scale` (the default)."""

  _ADDITIVE = True

  def __init__(self, use_scale=True, **kwargs):
    super().__init__(**kwargs)
    self.use_scale = use_scale

  def build(self, input_shape):
    dim = tensor_shape.dimension_value(tensor_shape.TensorShape(input_shape[1])[-1])
    self.scale = self.add_weight(name="scale", shape=[dim], initializer="glorot_uniform",
                                 dtype=self.dtype, trainable=True) if self.use_scale else None
    super().build(input_shape)
