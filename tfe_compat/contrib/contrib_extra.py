"""TF 1.15 contrib extras: `tf.contrib.image` projective transforms, `tf.contrib.crf`, and
`tf.contrib.opt`'s decoupled-weight-decay optimizers (AdamW, MomentumW)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework.api import export
from tfe_compat.framework.ops import convert_to_tensor, op
from tfe_compat.framework.tensor import Tensor
from tfe_compat.train import optimizers
from tfe_compat.train import update_rules

_IMAGE_DTYPES = ("uint8", "int32", "int64", "float16", "float32", "float64")


# ---- tf.contrib.image: projective transforms ----
def _round_half_away(x):
  return jnp.sign(x) * jnp.floor(jnp.abs(x) + 0.5)


@op(name="ImageProjectiveTransformV2", differentiable=(0,))
def _transform(images, transforms, *, output_shape, interpolation):
  """TF's kernel: out(y, x) = in(mapped point), taps outside the image read 0."""
  _, height, width, _ = images.shape
  out_h, out_w = output_shape
  ys = jnp.arange(out_h, dtype=jnp.float32)[:, None]
  xs = jnp.arange(out_w, dtype=jnp.float32)[None, :]
  t = transforms.astype(jnp.float32)
  if t.shape[0] == 1:
    t = jnp.broadcast_to(t, (images.shape[0], 8))

  def one(image, tr):
    projection = tr[6] * xs + tr[7] * ys + 1.0
    safe = jnp.where(projection == 0, 1.0, projection)
    in_x = (tr[0] * xs + tr[1] * ys + tr[2]) / safe
    in_y = (tr[3] * xs + tr[4] * ys + tr[5]) / safe

    def read(y, x):
      inside = (y >= 0) & (y < height) & (x >= 0) & (x < width)
      yi = jnp.clip(y, 0, height - 1).astype(jnp.int32)
      xi = jnp.clip(x, 0, width - 1).astype(jnp.int32)
      return jnp.where(inside[..., None], image[yi, xi], 0).astype(jnp.float32)

    if interpolation == "NEAREST":
      value = read(_round_half_away(in_y), _round_half_away(in_x))
    else:
      y0, x0 = jnp.floor(in_y), jnp.floor(in_x)
      y1, x1 = y0 + 1, x0 + 1
      wx0, wx1 = (x1 - in_x)[..., None], (in_x - x0)[..., None]
      top = wx0 * read(y0, x0) + wx1 * read(y0, x1)
      bottom = wx0 * read(y1, x0) + wx1 * read(y1, x1)
      value = (y1 - in_y)[..., None] * top + (in_y - y0)[..., None] * bottom
    return jnp.where((projection == 0)[..., None], 0, value)

  return jax.vmap(one)(images, t).astype(images.dtype)


def _float_rank(value, name, ranks, message):
  tensor = convert_to_tensor(value, name=name, dtype=dtypes.float32)
  if tensor.shape.ndims not in ranks:
    raise TypeError(message)
  return tensor[None] if tensor.shape.ndims == ranks[0] else tensor


def _images_4d(images):
  images = convert_to_tensor(images, name="images")
  rank = images.shape.ndims
  if images.dtype.name not in _IMAGE_DTYPES:
    raise TypeError("Invalid dtype %s." % images.dtype.name)
  if rank == 2:
    return images[None, :, :, None], rank
  if rank == 3:
    return images[None], rank
  if rank == 4:
    return images, rank
  raise TypeError("Images should have rank between 2 and 4.")


def _unbatch(images, rank):
  if rank == 2:
    return images[0, :, :, 0]
  return images[0] if rank == 3 else images


@export("contrib.image.transform")
def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
  """Applies projective transforms [a0, a1, a2, b0, b1, b2, c0, c1] (output -> input map)."""
  images_4d, rank = _images_4d(images)
  if output_shape is None:
    output_shape = images_4d.shape.as_list()[1:3]
  shape = np.asarray(convert_to_tensor(output_shape, dtype=dtypes.int32)._value)
  if shape.shape != (2,):
    raise ValueError("output_shape must be a 1-D Tensor of 2 elements: new_height, new_width")
  transforms = convert_to_tensor(transforms, name="transforms", dtype=dtypes.float32)
  if transforms.shape.ndims == 1:
    transforms = transforms[None]
  elif transforms.shape.ndims != 2:
    raise TypeError("Transforms should have rank 1 or 2.")
  interpolation = interpolation.upper()
  if interpolation not in ("NEAREST", "BILINEAR"):
    raise ValueError("Invalid interpolation %s" % interpolation)
  out = _transform(images_4d, transforms, output_shape=tuple(int(d) for d in shape),
                   interpolation=interpolation)
  return _unbatch(out, rank)


@export("contrib.image.angles_to_projective_transforms")
def angles_to_projective_transforms(angles, image_height, image_width, name=None):
  """Transforms rotating images counterclockwise by `angles` (radians) about the center."""
  angles = _float_rank(angles, "angles", (0, 1), "Angles should have rank 0 or 1.")
  h = convert_to_tensor(image_height, dtype=dtypes.float32)._value
  w = convert_to_tensor(image_width, dtype=dtypes.float32)._value
  a = angles._value
  cos, sin = jnp.cos(a), jnp.sin(a)
  x_offset = ((w - 1) - (cos * (w - 1) - sin * (h - 1))) / 2.0
  y_offset = ((h - 1) - (sin * (w - 1) + cos * (h - 1))) / 2.0
  zeros = jnp.zeros_like(a)
  return Tensor(jnp.stack([cos, -sin, x_offset, sin, cos, y_offset, zeros, zeros], axis=1))


@export("contrib.image.translations_to_projective_transforms")
def translations_to_projective_transforms(translations, name=None):
  """Transforms translating images by [dx, dy] (one pair or a batch of pairs)."""
  t = _float_rank(translations, "translations", (1, 2),
                  "Translations should have rank 1 or 2.")._value
  ones, zeros = jnp.ones_like(t[:, 0]), jnp.zeros_like(t[:, 0])
  return Tensor(jnp.stack([ones, zeros, -t[:, 0], zeros, ones, -t[:, 1], zeros, zeros], axis=1))


@export("contrib.image.rotate")
def rotate(images, angles, interpolation="NEAREST", name=None):
  """Rotates images counterclockwise by `angles` radians (one angle or one per image)."""
  images_4d, rank = _images_4d(images)
  height, width = images_4d.shape.as_list()[1:3]
  out = transform(images_4d, angles_to_projective_transforms(angles, height, width),
                  interpolation=interpolation)
  return _unbatch(out, rank)


@export("contrib.image.translate")
def translate(images, translations, interpolation="NEAREST", name=None):
  """Translates images by [dx, dy] pixels."""
  return transform(images, translations_to_projective_transforms(translations),
                   interpolation=interpolation)


@export("contrib.image.flat_transforms_to_matrices")
def flat_transforms_to_matrices(transforms):
  """[N, 8] transforms as [N, 3, 3] matrices."""
  t = _float_rank(transforms, "transforms", (1, 2), "Transforms should have rank 1 or 2.")._value
  return Tensor(jnp.concatenate([t, jnp.ones_like(t[:, :1])], axis=1).reshape(-1, 3, 3))


@export("contrib.image.matrices_to_flat_transforms")
def matrices_to_flat_transforms(transform_matrices):
  """[N, 3, 3] matrices (normalized so the last entry is 1) as [N, 8] transforms."""
  m = convert_to_tensor(transform_matrices, dtype=dtypes.float32)
  if m.shape.ndims not in (2, 3):
    raise ValueError("Matrices should be 2D or 3D, got: %s" % m)
  m = m._value.reshape(-1, 3, 3)
  return Tensor((m / m[:, 2:3, 2:3]).reshape(-1, 9)[:, :8])


@export("contrib.image.compose_transforms")
def compose_transforms(*transforms):
  """One transform equivalent to applying `transforms` right to left."""
  assert transforms, "transforms cannot be empty"
  composed = flat_transforms_to_matrices(transforms[0])._value
  for tr in transforms[1:]:
    composed = jnp.matmul(composed, flat_transforms_to_matrices(tr)._value,
                          precision=jax.lax.Precision.HIGHEST)
  return matrices_to_flat_transforms(composed)


# ---- tf.contrib.crf ----
def _mask(lengths, steps, dtype):
  return (jnp.arange(steps)[None, :] < lengths[:, None]).astype(dtype)


def _pick(scores, tags):
  return jnp.take_along_axis(scores, tags[..., None].astype(jnp.int32), axis=-1)[..., 0]


@op(name="CrfUnaryScore", differentiable=(2,))
def _unary(tag_indices, sequence_lengths, inputs):
  mask = _mask(sequence_lengths, tag_indices.shape[1], inputs.dtype)
  return jnp.sum(_pick(inputs, tag_indices) * mask, axis=1)


@op(name="CrfBinaryScore", differentiable=(2,))
def _binary(tag_indices, sequence_lengths, transition_params):
  num_tags = transition_params.shape[0]
  flat = tag_indices[:, :-1] * num_tags + tag_indices[:, 1:]
  scores = jnp.take(transition_params.reshape(-1), flat.astype(jnp.int32))
  mask = _mask(sequence_lengths, tag_indices.shape[1], transition_params.dtype)[:, 1:]
  return jnp.sum(scores * mask, axis=1)


@op(name="CrfSingleSequenceScore", differentiable=(0,))
def _single_score(inputs, tag_indices, sequence_lengths):
  scores = _pick(inputs[:, 0], tag_indices[:, 0])
  return jnp.where(sequence_lengths <= 0, jnp.zeros_like(scores), scores)


@op(name="CrfLogNorm", differentiable=(0, 2))
def _log_norm(inputs, sequence_lengths, transition_params):
  def step(alphas, xs):
    t, x = xs
    new = x + jax.nn.logsumexp(alphas[:, :, None] + transition_params[None], axis=1)
    return jnp.where((t < sequence_lengths)[:, None], new, alphas), None

  steps = jnp.arange(1, inputs.shape[1])
  alphas, _ = jax.lax.scan(step, inputs[:, 0], (steps, jnp.swapaxes(inputs[:, 1:], 0, 1)))
  norm = jax.nn.logsumexp(alphas, axis=1)
  return jnp.where(sequence_lengths <= 0, jnp.zeros_like(norm), norm)


@op(name="CrfDecode", differentiable=False)
def _decode(potentials, transition_params, sequence_length):
  def forward(state, xs):
    t, x = xs
    v = state[:, :, None] + transition_params[None]
    valid = (t < sequence_length)[:, None]
    backpointer = jnp.where(valid, jnp.argmax(v, axis=1), 0).astype(jnp.int32)
    return jnp.where(valid, x + jnp.max(v, axis=1), state), backpointer

  steps = jnp.arange(1, potentials.shape[1])
  state, backpointers = jax.lax.scan(
      forward, potentials[:, 0], (steps, jnp.swapaxes(potentials[:, 1:], 0, 1)))
  last = jnp.argmax(state, axis=1).astype(jnp.int32)

  def backward(current, xs):  # from the last step down to step 1
    t, backpointer = xs
    current = jnp.where(t == sequence_length - 1, last, current)
    return _pick(backpointer, current), jnp.where(t <= sequence_length - 1, current, 0)

  first, tags = jax.lax.scan(backward, last, (steps, backpointers), reverse=True)
  first = jnp.where(sequence_length <= 1, last, first)
  tags = jnp.concatenate([first[None], tags], axis=0)
  return jnp.swapaxes(tags, 0, 1).astype(jnp.int32), jnp.max(state, axis=1)


def _crf_inputs(inputs, tag_indices, sequence_lengths):
  inputs = convert_to_tensor(inputs, name="inputs")
  tags = None if tag_indices is None else convert_to_tensor(tag_indices, name="tag_indices")
  return inputs, tags, convert_to_tensor(sequence_lengths, name="sequence_lengths")


def _transitions(transition_params, dtype):
  return convert_to_tensor(transition_params, dtype=dtype, name="transition_params")


@export("contrib.crf.crf_unary_score")
def crf_unary_score(tag_indices, sequence_lengths, inputs):
  """Unary scores [batch] of the tag sequences."""
  inputs, tags, lengths = _crf_inputs(inputs, tag_indices, sequence_lengths)
  return _unary(tags, lengths, inputs)


@export("contrib.crf.crf_binary_score")
def crf_binary_score(tag_indices, sequence_lengths, transition_params):
  """Binary (transition) scores [batch] of the tag sequences."""
  tags = convert_to_tensor(tag_indices, name="tag_indices")
  lengths = convert_to_tensor(sequence_lengths, name="sequence_lengths")
  return _binary(tags, lengths, convert_to_tensor(transition_params, name="transition_params"))


@export("contrib.crf.crf_sequence_score")
def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
  """Unnormalized scores [batch] of the tag sequences."""
  inputs, tags, lengths = _crf_inputs(inputs, tag_indices, sequence_lengths)
  transition_params = _transitions(transition_params, inputs.dtype)
  if inputs.shape[1] == 1:
    return _single_score(inputs, tags, lengths)
  return _unary(tags, lengths, inputs) + _binary(tags, lengths, transition_params)


@export("contrib.crf.crf_log_norm")
def crf_log_norm(inputs, sequence_lengths, transition_params):
  """log Z [batch]: logsumexp of the scores of every tag sequence (forward algorithm)."""
  inputs, _, lengths = _crf_inputs(inputs, None, sequence_lengths)
  return _log_norm(inputs, lengths, _transitions(transition_params, inputs.dtype))


@export("contrib.crf.crf_log_likelihood")
def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
  """(log_likelihood [batch], transition_params); creates the `transitions` variable if None."""
  inputs, tags, lengths = _crf_inputs(inputs, tag_indices, sequence_lengths)
  if transition_params is None:
    num_tags = inputs.shape.as_list()[2]
    transition_params = variables.get_variable("transitions", [num_tags, num_tags],
                                               dtype=inputs.dtype)
  scores = crf_sequence_score(inputs, tags, lengths, transition_params)
  return scores - crf_log_norm(inputs, lengths, transition_params), transition_params


@export("contrib.crf.crf_decode")
def crf_decode(potentials, transition_params, sequence_length):
  """(decode_tags int32 [batch, steps], best_score [batch]): batched Viterbi decoding."""
  potentials, _, lengths = _crf_inputs(potentials, None, sequence_length)
  tags, best = _decode(potentials, _transitions(transition_params, potentials.dtype), lengths)
  return tags, best


@export("contrib.crf.viterbi_decode")
def viterbi_decode(score, transition_params):
  """NumPy Viterbi: (best tag list, its score) for one [steps, num_tags] score matrix."""
  score, transition_params = np.asarray(score), np.asarray(transition_params)
  trellis = np.zeros_like(score)
  backpointers = np.zeros_like(score, dtype=np.int32)
  trellis[0] = score[0]
  for t in range(1, score.shape[0]):
    v = np.expand_dims(trellis[t - 1], 1) + transition_params
    trellis[t] = score[t] + np.max(v, 0)
    backpointers[t] = np.argmax(v, 0)
  viterbi = [np.argmax(trellis[-1])]
  for bp in reversed(backpointers[1:]):
    viterbi.append(bp[viterbi[-1]])
  viterbi.reverse()
  return viterbi, np.max(trellis[-1])


# ---- tf.contrib.opt: decoupled weight decay (Loshchilov & Hutter) ----
def _decoupled(base_rule):
  """A rule applying `var -= weight_decay * var` (masked) before `base_rule`'s update."""
  def rule(hyper, decay_mask=(), **static):
    base = base_rule(hyper, **static)

    def update(grads, state, params):
      decayed = [p - hyper["weight_decay"].astype(p.dtype) * p if decay else p
                 for p, decay in zip(params, decay_mask)]
      updates, new_state = base.update(grads, state, decayed)
      return [d - p + u for d, p, u in zip(decayed, params, updates)], new_state
    return optax.GradientTransformation(base.init, update)
  return rule


_adamw = _decoupled(update_rules.adam)
_momentumw = _decoupled(update_rules.momentum)


class _DecoupledWeightDecay:
  """TF 1.15's DecoupledWeightDecayExtension over a rule-based tf.train optimizer."""

  def _init_decay(self, weight_decay):
    self._weight_decay = weight_decay
    self._decay_ids = None
    self._decay_mask = ()

  def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1,
               aggregation_method=None, colocate_gradients_with_ops=False, name=None,
               grad_loss=None, decay_var_list=None):
    """Like Optimizer.minimize. As in TF 1.15, `decay_var_list` is then dropped (minimize
    calls apply_gradients without it), so every variable decays."""
    self._set_decay_var_list(decay_var_list)
    return super().minimize(loss, global_step=global_step, var_list=var_list,
                            gate_gradients=gate_gradients,
                            aggregation_method=aggregation_method,
                            colocate_gradients_with_ops=colocate_gradients_with_ops,
                            name=name, grad_loss=grad_loss)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None, decay_var_list=None):
    """Like Optimizer.apply_gradients; decays only `decay_var_list` when given."""
    self._set_decay_var_list(decay_var_list)
    return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

  def _set_decay_var_list(self, decay_var_list):
    self._decay_ids = {v._id for v in decay_var_list} if decay_var_list else None

  def apply_rule(self, grads, var_list, counters=()):
    self._decay_mask = tuple(self._decay_ids is None or v._id in self._decay_ids
                             for v in var_list)
    return super().apply_rule(grads, var_list, counters)

  def _static(self):
    return super()._static() + (("decay_mask", self._decay_mask),)


@export("contrib.opt.AdamWOptimizer")
class AdamWOptimizer(_DecoupledWeightDecay, optimizers.AdamOptimizer):
  """Adam with decoupled weight decay: var -= weight_decay * var, then the Adam step."""

  _rule = _adamw
  _hyper_attributes = dict(optimizers.AdamOptimizer._hyper_attributes,
                           weight_decay="_weight_decay")

  def __init__(self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999,
               epsilon=1e-8, use_locking=False, name="AdamW"):
    super().__init__(learning_rate=learning_rate, beta1=beta1, beta2=beta2, epsilon=epsilon,
                     use_locking=use_locking, name=name)
    self._init_decay(weight_decay)


@export("contrib.opt.MomentumWOptimizer")
class MomentumWOptimizer(_DecoupledWeightDecay, optimizers.MomentumOptimizer):
  """Momentum with decoupled weight decay: var -= weight_decay * var, then the step."""

  _rule = _momentumw
  _hyper_attributes = dict(optimizers.MomentumOptimizer._hyper_attributes,
                           weight_decay="_weight_decay")

  def __init__(self, weight_decay, learning_rate, momentum, use_locking=False,
               name="MomentumW", use_nesterov=False):
    super().__init__(learning_rate=learning_rate, momentum=momentum, use_locking=use_locking,
                     name=name, use_nesterov=use_nesterov)
    self._init_decay(weight_decay)
