"""tf.data in graph mode: datasets built while a graph is built, and their iterators.

A dataset is a recipe that runs on the host. In graph mode its construction is deferred
(`GraphDataset`) until an iterator is initialized in a run: the graph tensors it was given
(placeholders fed with `iterator.initializer`, tensors its functions capture) have values
then, and the dataset is built eagerly from them (`graph_build.resolving`). `get_next()` is
a host operation; a run executes it before its compiled computation and feeds the element
in, so a training step stays one XLA computation. The end of the data raises
`tf.errors.OutOfRangeError` from `Session.run`. Iterator positions belong to Sessions.
"""
import itertools

import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import tensor_shape
from tfe_compat.framework.graph import GraphTensor
from tfe_compat.framework.tensor import Tensor
from tfe_compat.data import dataset_ops
from tfe_compat.data import structure

_ctx = context.ctx
_PROBE_SIZES = (1, 2)  # stand-in sizes of unknown dimensions when a dataset's spec is probed


def _map(fn, value):
  if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
    return type(value)(_map(fn, v) for v in value)
  if isinstance(value, dict):
    return {k: _map(fn, v) for k, v in value.items()}
  return fn(value)


def _built(value):
  return _map(lambda v: v.build() if isinstance(v, GraphDataset) else v, value)


def _graph_tensors(value, found, seen):
  """Collects the graph tensors in `value`: nests, graph datasets, functions' closures."""
  if id(value) in seen:
    return
  seen.add(id(value))
  if isinstance(value, GraphTensor):
    found.append(value)
  elif isinstance(value, GraphDataset):
    _graph_tensors(value._sources, found, seen)
  elif isinstance(value, (list, tuple)):
    for item in value:
      _graph_tensors(item, found, seen)
  elif isinstance(value, dict):
    for item in value.values():
      _graph_tensors(item, found, seen)
  elif callable(value) and hasattr(value, "__code__"):
    for cell in value.__closure__ or ():
      try:
        _graph_tensors(cell.cell_contents, found, seen)
      except ValueError:  # an empty cell
        pass
  elif hasattr(value, "__func__"):  # a bound method
    _graph_tensors(value.__func__, found, seen)


class _ProbeEnv(graph_build.RunEnv):
  """Stand-in values of graph tensors (unknown dimensions `size`), to learn a dataset's spec."""

  def __init__(self, size):
    super().__init__()
    self._size = size

  def value(self, tensor):
    if tensor._const is not None:
      return tensor._const
    dims = tensor._shape.dims or ()
    shape = tuple(self._size if d.value is None else d.value for d in dims)
    if tensor._dtype.name == "string":
      return np.full(shape, b"", dtype=object)
    return np.zeros(shape, tensor._dtype.as_numpy_dtype)


def _merged(first, second):
  def merge(a, b):
    if not isinstance(a, structure.TensorSpec):
      return a
    dims = a.shape.dims
    if dims is None or b.shape.dims is None or len(dims) != len(b.shape.dims):
      return structure.TensorSpec(None, a.dtype)
    return structure.TensorSpec([x.value if x.value == y.value else None
                                 for x, y in zip(dims, b.shape.dims)], a.dtype)
  return structure.map_structure(merge, first, second)


class GraphDataset:
  """A dataset of a graph: built by `make()` when a run initializes an iterator over it."""

  def __init__(self, make, sources):
    self._make, self._sources = make, sources
    self._spec = None

  def build(self):
    """The dataset itself (call inside `graph_build.resolving`)."""
    return self._make()

  def graph_tensors(self):
    found = []
    _graph_tensors(self._sources, found, set())
    return found

  @property
  def element_spec(self):
    if self._spec is None:
      specs = []
      for size in _PROBE_SIZES:
        with graph_build.resolving(_ProbeEnv(size)):
          specs.append(self.build().element_spec)
      self._spec = _merged(*specs)
    return self._spec

  output_shapes = property(lambda self: structure.map_structure(
      lambda s: s.shape, self.element_spec))
  output_types = property(lambda self: structure.map_structure(
      lambda s: s.dtype, self.element_spec))
  output_classes = property(lambda self: structure.map_structure(
      lambda s: s.value_type, self.element_spec))

  def __getattr__(self, name):
    method = getattr(dataset_ops.Dataset, name, None)
    if name.startswith("_") or not callable(method):
      raise AttributeError("'Dataset' object has no attribute %r" % name)

    def deferred(*args, **kwargs):
      return GraphDataset(lambda: getattr(self.build(), name)(*_built(args), **_built(kwargs)),
                          (self, args, kwargs))
    return deferred

  def make_one_shot_iterator(self):
    return GraphIterator(self.element_spec, self, one_shot=True)

  def make_initializable_iterator(self, shared_name=None):
    return GraphIterator(self.element_spec, self)

  def __iter__(self):
    raise RuntimeError("__iter__() is only supported inside of tf.function or when eager "
                       "execution is enabled.")

  def __repr__(self):
    return "<DatasetV1Adapter shapes: %s, types: %s>" % (self.output_shapes, self.output_types)


def defer(make, args, kwargs):
  """A dataset constructor called while a graph is built: its GraphDataset."""
  return GraphDataset(lambda: make(*_built(args), **_built(kwargs)), (args, kwargs))


_handles = {}  # string handle -> GraphIterator


class GraphIterator:
  """`tf.data.Iterator` in graph mode: `initializer`, `get_next()`, string handles."""

  _uids = itertools.count()

  def __init__(self, spec, dataset=None, one_shot=False):
    self._spec, self._dataset, self._one_shot = spec, dataset, one_shot
    self._initializer = None
    self._handle = "iterator_%d" % next(self._uids)
    _handles[self._handle] = self

  element_spec = property(lambda self: self._spec)
  output_shapes = property(lambda self: structure.map_structure(lambda s: s.shape, self._spec))
  output_types = property(lambda self: structure.map_structure(lambda s: s.dtype, self._spec))
  output_classes = property(lambda self: structure.map_structure(
      lambda s: s.value_type, self._spec))

  @property
  def initializer(self):
    if self._one_shot:
      raise ValueError("Iterator does not have an initializer.")
    if self._initializer is None:
      self._initializer = self.make_initializer(self._dataset)
    return self._initializer

  def make_initializer(self, dataset, name=None):
    """The operation that starts this iterator over `dataset` (in the run's session)."""
    if structure.flatten(dataset.output_types) != structure.flatten(self.output_types):
      raise TypeError("Expected output types %r but got dataset with output types %r."
                      % (self.output_types, dataset.output_types))
    captured = dataset.graph_tensors()
    return graph_build.record_host_call(self._start, (dataset, captured), [], True,
                                        name=name, op_type="MakeIterator")

  def _start(self, dataset, captured):
    env = graph_build.RunEnv({t._id: _ctx.graph_env.value(t) for t in captured})
    with graph_build.resolving(env):
      elements = dataset.build()._make_iter()
    _ctx.variable_scope.session._iterators[self._handle] = (elements, env)

  def get_next(self, name=None):
    specs = structure.flatten(self._spec)
    outputs = graph_build.record_host_call(
        self._next, (), [s.dtype for s in specs], False, name=name or "IteratorGetNext",
        op_type="IteratorGetNext", shapes=[s.shape for s in specs])
    return structure.pack_as(self._spec, outputs)

  def _next(self):
    iterators = _ctx.variable_scope.session._iterators
    if self._handle not in iterators:
      if not self._one_shot:
        raise errors.FailedPreconditionError(
            None, None, "GetNext() failed because the iterator has not been initialized. "
            "Ensure that you have run the initializer operation for this iterator before "
            "getting the next element.")
      self._start(self._dataset, self._dataset.graph_tensors())
    elements, env = iterators[self._handle]
    with graph_build.resolving(env):
      try:
        element = structure.checked(next(elements))
      except StopIteration:
        raise errors.OutOfRangeError(None, None, "End of sequence") from None
    return [Tensor(np.asarray(leaf)) for leaf in structure.flatten(element)]

  def string_handle(self, name=None):
    from tfe_compat.framework import ops  # pylint: disable=import-outside-toplevel
    return ops.constant(self._handle.encode(), name=name or "IteratorToStringHandle")

  @staticmethod
  def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
    return GraphIterator(_spec_of(output_types, output_shapes))

  @staticmethod
  def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
    return _FeedableIterator(string_handle, _spec_of(output_types, output_shapes))


class _FeedableIterator(GraphIterator):
  """An iterator chosen by a string handle fed at run time (`from_string_handle`)."""

  def __init__(self, handle, spec):
    super().__init__(spec)
    self._handle_tensor = handle

  def get_next(self, name=None):
    specs = structure.flatten(self._spec)
    outputs = graph_build.record_host_call(
        self._next_from, (self._handle_tensor,), [s.dtype for s in specs], False,
        name=name or "IteratorGetNext", op_type="IteratorGetNext",
        shapes=[s.shape for s in specs])
    return structure.pack_as(self._spec, outputs)

  @staticmethod
  def _next_from(handle):
    key = np.asarray(handle._value).item()
    return _handles[key.decode() if isinstance(key, bytes) else key]._next()


def _spec_of(output_types, output_shapes):
  output_types = structure.normalize_types(output_types)
  if output_shapes is None:
    output_shapes = structure.map_structure(lambda _: tensor_shape.TensorShape(None),
                                            output_types)
  output_shapes = structure.normalize_types(output_shapes)
  return structure.map_structure(lambda t, s: structure.TensorSpec(s, t), output_types,
                                 output_shapes)


def building():
  return graph_lib.building() is not None


dataset_ops.graph_hook[0] = defer
