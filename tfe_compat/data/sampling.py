"""Random and directed choices among datasets: `tf.data.experimental.RandomDataset`,
`sample_from_datasets`, `choose_from_datasets` and `rejection_resample`.

The choices follow TF's algorithms (seeded: the same sequence on every pass); the random bits
come from NumPy's generator, not TF's Philox stream, so seeded draws differ from TF's.
"""
import itertools
import sys

import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.data import dataset_ops
from tfe_compat.data import map_ops
from tfe_compat.data import structure
from tfe_compat.data import type_specs
from tfe_compat.data import user_functions

Dataset = dataset_ops.Dataset
Failure = structure.Failure
_END = object()
_CHUNK = 1024


def rng_factory(seed):
  """A function making the NumPy generator of one pass (`stream` tells apart the generators
  of one transformation): seeded by TF's rules (every pass the same), or fresh entropy per
  pass when no seed is set (as TF's random seeds)."""
  seed, seed2 = context.get_seed(seed)
  if seed is None:
    return lambda stream=0: np.random.default_rng()
  return lambda stream=0: np.random.default_rng([seed, seed2, stream])


@export("data.experimental.RandomDataset", "contrib.data.RandomDataset")
class RandomDataset(Dataset):
  """An infinite dataset of random int64 scalars in [0, 2**32), as TF's (uint32 draws)."""

  _draws_random = True

  def __init__(self, seed=None):
    self._rng = rng_factory(seed)
    self._spec = structure.TensorSpec([], dtypes.int64)

  def _cardinality(self):
    return dataset_ops.INFINITE

  def _make_iter(self):
    rng = self._rng()
    while True:
      yield from rng.integers(0, 1 << 32, _CHUNK, dtype=np.int64)


def _merged_spec(datasets):
  specs = [d.element_spec for d in datasets]
  kinds = [structure.map_structure(lambda s: (type(s), s.dtype), spec) for spec in specs]
  if any(k != kinds[0] for k in kinds[1:]):
    raise TypeError("Invalid `datasets`. `datasets` must have compatible element specs.")
  return structure.map_structure(
      lambda *s: type(s[0])(_common_shape([x.shape for x in s]), s[0].dtype), *specs)


def _common_shape(shapes):
  out = shapes[0]
  for shape in shapes[1:]:
    out = type_specs.most_specific_compatible_shape(out, shape)
  return out


class _DirectedInterleave(Dataset):
  """The next element of `datasets[i]` for each choice `i` that `make_choices()` yields;
  choices of an exhausted input are skipped and it ends when all inputs are (TF 1.15's), or
  it ends with the first exhausted input (`stop_on_empty`)."""

  def __init__(self, make_choices, datasets, stop_on_empty=False):
    self._make_choices, self._datasets = make_choices, list(datasets)
    self._stop_on_empty = stop_on_empty
    self._spec = _merged_spec(self._datasets)

  def _cardinality(self):
    counts = [d._cardinality() for d in self._datasets]
    return dataset_ops.INFINITE if dataset_ops.INFINITE in counts else dataset_ops.UNKNOWN

  def _make_iter(self):
    iters = [d._make_iter() for d in self._datasets]
    active = len(iters)
    for choice in self._make_choices():
      if type(choice) is Failure:
        yield choice
        continue
      if not 0 <= choice < len(iters):
        yield Failure(errors.invalid_argument("Selector index out of range: %d >= %d"
                                              % (choice, len(iters))))
        continue
      if iters[choice] is None:
        continue
      element = next(iters[choice], _END)
      if element is not _END:
        yield element
        continue
      iters[choice] = None
      active -= 1
      if not active or self._stop_on_empty:
        return


def _draw(rng, probabilities):
  """One category index from (unnormalized) `probabilities`, as a multinomial draw."""
  cumulative = np.cumsum(probabilities, dtype=np.float64)
  return int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))


def _constant_choices(probabilities, make_rng):
  cumulative = np.cumsum(probabilities, dtype=np.float64)

  def choices():
    rng = make_rng()
    while True:
      draws = rng.random(_CHUNK) * cumulative[-1]
      yield from np.searchsorted(cumulative, draws, side="right").tolist()
  return choices


def _dataset_choices(weights, make_rng):
  def choices():
    rng = make_rng()
    for element in weights._make_iter():
      if type(element) is Failure:
        yield element
      else:
        yield _draw(rng, np.concatenate([np.ravel(w) for w in structure.flatten(element)]))
  return choices


@export("data.experimental.sample_from_datasets", "contrib.data.sample_from_datasets")
def sample_from_datasets(datasets, weights=None, seed=None):
  """Elements drawn at random from `datasets`, dataset `i` with probability proportional to
  `weights[i]` (uniform without weights; `weights` may be a dataset of such vectors)."""
  datasets = list(datasets)
  make_rng = rng_factory(seed)
  if isinstance(weights, Dataset):
    sampled = _DirectedInterleave(_dataset_choices(weights, make_rng), datasets)
    sampled._draws_random = True
    return sampled
  if weights is None:
    probabilities = np.ones(len(datasets))
  else:
    probabilities = structure.to_numpy(weights)
    if probabilities.dtype not in (np.float32, np.float64):
      raise TypeError("Invalid `weights`. `weights` type must be either `tf.float32` or "
                      "`tf.float64` but is %s." % dtypes.from_numpy(probabilities.dtype))
    if probabilities.shape != (len(datasets),):
      raise ValueError("Invalid `weights`. `weights` should have the same length as "
                       "`datasets` but got `len(weights)=%d` vs. `len(datasets)=%d`."
                       % (len(probabilities), len(datasets)))
  if len(datasets) == 1:
    return datasets[0]
  sampled = _DirectedInterleave(_constant_choices(probabilities, make_rng), datasets)
  sampled._draws_random = True
  return sampled


@export("data.experimental.choose_from_datasets", "contrib.data.choose_from_datasets")
def choose_from_datasets(datasets, choice_dataset):
  """The next element of `datasets[i]` for each `i` of `choice_dataset` (int64 scalars)."""
  spec = choice_dataset.element_spec
  if spec != structure.TensorSpec([], dtypes.int64):
    raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar "
                    "`tf.int64` tensors but are %s." % (spec,))

  def choices():
    for choice in choice_dataset._make_iter():
      yield choice if type(choice) is Failure else int(choice)
  return _DirectedInterleave(choices, datasets)


# ---- rejection_resample ----
class _WithClass(Dataset):
  """(class_func(element), element) pairs: TF's zip of the classes and the dataset."""

  def __init__(self, dataset, class_func):
    self._input, self._fn = dataset, map_ops.dataset_function(class_func)

  def _cardinality(self):
    return self._input._cardinality()

  def _compute_spec(self):
    for pair in self._make_iter():
      if type(pair) is not Failure:
        return structure.spec_of(pair[0]), self._input.element_spec
    return super()._compute_spec()

  def _make_iter(self):
    for element in self._input._make_iter():
      if type(element) is Failure:
        yield element
        continue
      label = user_functions.call(self._fn, element)
      if type(label) is not Failure:
        label = np.asarray(label)
        if label.dtype.kind not in "iu":
          raise TypeError("Value passed to parameter 'indices' has DataType %s not in list of "
                          "allowed values: uint8, int8, int32, int64"
                          % dtypes.from_numpy(label.dtype).name)
        label = (label, element)
      yield label


def _acceptance(initial, target):
  """TF's acceptance probabilities per class and the probability of the original stream."""
  ratio = target / (initial + np.finfo(initial.dtype).tiny)
  low, high = ratio.min(), ratio.max()
  return (ratio - low) / (high - low), low


def _estimated_dists(pairs, num_classes, batch=32, smoothing=10):
  """TF's running estimate of the class distribution: per batch of 32 classes, the counts
  so far (each class starting at 10) normalized, once for each of the 32 positions."""
  counts = np.full(num_classes, smoothing, np.int64)
  while True:
    labels = []
    for pair in pairs:
      if type(pair) is not Failure:
        labels.append(int(pair[0]))
        if len(labels) == batch:
          break
    if not labels:
      return
    counts = counts + np.bincount(labels, minlength=num_classes)[:num_classes]
    dist = (counts / counts.sum()).astype(np.float32)
    for _ in range(batch):
      yield dist


class _Accepted(Dataset):
  """The (class, element) pairs kept with probability acceptance[class] (TF's filter)."""

  _draws_random = True

  def __init__(self, pairs, target, initial, make_rng):
    self._pairs, self._target, self._initial, self._rng = pairs, target, initial, make_rng
    self._warnings = 0

  def _compute_spec(self):
    return self._pairs.element_spec

  def _make_iter(self):
    rng, pairs = self._rng(1), self._pairs._make_iter()
    if self._initial is not None:
      dists = itertools.repeat(self._initial)
    else:
      dists = _estimated_dists(self._pairs._make_iter(), len(self._target))
    for pair in pairs:
      if type(pair) is Failure:
        yield pair
        continue
      dist = next(dists, None)
      if dist is None:
        return
      accept, _ = _acceptance(dist, self._target)
      self._warn(accept, dist)
      if rng.random() < accept[int(pair[0])]:
        yield pair

  def _warn(self, accept, dist):
    rejected = np.sum((1 - accept) * dist)
    if rejected >= 0.5 and self._warnings < 10:
      self._warnings += 1
      text = lambda v: " ".join("%.9g" % x for x in np.ravel(v))
      print("Proportion of examples rejected by sampler is high: [%s][%s][%s]"
            % (text(rejected), text(dist), text(accept)), file=sys.stderr)


@export("data.experimental.rejection_resample", "contrib.data.rejection_resample")
def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
  """Resamples a dataset to the class distribution `target_dist` by rejection (TF's mix of
  the original stream and the accepted one, ending with the first of them to end, as TF 2
  does); elements become (class, element) pairs."""
  def apply(dataset):
    target = structure.to_numpy(target_dist).astype(np.float32)
    pairs = _WithClass(dataset, class_func)
    make_rng = rng_factory(seed)
    if initial_dist is not None:
      initial = structure.to_numpy(initial_dist).astype(np.float32)
      with np.errstate(divide="ignore", invalid="ignore"):
        static = np.min(target / initial)
      if static == 1:
        return pairs
      accepted = _Accepted(pairs, target, initial, make_rng)
      if static == 0:
        return accepted
      _, original = _acceptance(initial, target)
      return _DirectedInterleave(_constant_choices([original, 1 - original], make_rng),
                                 [pairs, accepted], stop_on_empty=True)

    def choices():
      rng = make_rng()
      for dist in _estimated_dists(pairs._make_iter(), len(target)):
        _, original = _acceptance(dist, target)
        yield _draw(rng, [original, 1 - original])
    return _DirectedInterleave(choices, [pairs, _Accepted(pairs, target, None, make_rng)],
                               stop_on_empty=True)
  return apply
