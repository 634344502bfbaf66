"""`tf.Session`: runs a graph as ONE jitted JAX function per run signature.

`Session.run(fetches, feed_dict)` prunes the graph to what the fetches and targets need,
orders those operations by creation (TF's data and control dependencies point backwards)
and builds a pure function `(variable values, feeds, run counter) -> (fetched values, new
variable values)` that replays the recorded calls (`graph_build.replay`). The function is
jitted and cached by the run signature (fetches, targets, fed tensors; a `program_cache.LRU`;
JAX caches per feed shape and dtype), so a training loop compiles once and dispatches one
XLA computation per `run`. Each Session holds its own variable values. A run that cannot be
compiled (string tensors, shapes that depend on values) replays the same calls eagerly.
"""
import collections
import sys
import threading
import time

import jax
import numpy as np

from tfe_compat.framework import context
from tfe_compat.framework import device as device_lib
from tfe_compat.framework import dtypes
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import program_cache
from tfe_compat.framework.api import export
from tfe_compat.framework.graph import GraphTensor, Operation
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import logging_ops
from tfe_compat.ops import value_checks

_ctx = context.ctx
_UNTRACEABLE = (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
                jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError,
                context.NotTraceable)


class _Sessions(threading.local):
  def __init__(self):
    super().__init__()
    self.stack = []


_sessions = _Sessions()


@export("get_default_session")
def get_default_session():
  return _sessions.stack[-1] if _sessions.stack else None


def _uninitialized(var):
  return errors.FailedPreconditionError(
      None, None, "Attempting to use uninitialized value %s\n\t [[{{node %s}}]]"
      % (var._handle_name, var._handle_name))


graph_lib.default_session_hook[0] = get_default_session


class _RunScope:
  """Variable reads and writes of one run: the Session's values, updated in order."""

  def __init__(self, values, session):
    self.values, self.session = values, session

  def read(self, var):
    value = self.values.get(var._id)
    if value is None:
      raise _uninitialized(var)
    return Tensor(value)

  def write(self, var, value):
    self.values[var._id] = value

  def initialized(self, var):
    return var._id in self.values or var._id in self.session._values

  @staticmethod
  def creating_variable():
    raise ValueError("Variables cannot be created while a graph runs.")


def _placeholder_error(tensor):
  shape = tensor._shape
  dims = "<unknown>" if shape.dims is None else "[%s]" % ",".join(
      "?" if d.value is None else str(d.value) for d in shape.dims)
  return errors.InvalidArgumentError(
      None, tensor.op, "You must feed a value for placeholder tensor '%s' with dtype %s and "
      "shape %s\n\t [[{{node %s}}]]" % (tensor.op.name, _type_name(tensor._dtype), dims,
                                        tensor.op.name))


def _type_name(dtype):
  return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name,
                                                                          dtype.name)


class _Plan:
  """One run signature: the operations it replays, in order, and its compiled function.

  Host operations that need only fed values (an iterator's `get_next`) run first, eagerly;
  their outputs are fed to the compiled computation with the feeds."""

  def __init__(self, session, fetches, targets, fed):
    self.session, self.fetches = session, fetches
    fed_ids = {t._id for t in fed}
    needed, stack = set(), [t.op for t in fetches if t._id not in fed_ids] + list(targets)
    while stack:
      op = stack.pop()
      if op in needed:
        continue
      needed.add(op)
      stack.extend(t.op for t in op.inputs if t._id not in fed_ids)
      stack.extend(op.control_inputs)
    order = sorted(needed, key=lambda op: op._index)
    for op in order:
      if op.kind == "placeholder" and op.outputs[0]._id not in fed_ids:
        raise _placeholder_error(op.outputs[0])
    order = [op for op in order if op.kind not in ("const", "placeholder", "variable", "noop")
             and not _folded(op)]
    self.post, compiled_needs, compiled_waits = [], set(), set()
    for op in reversed(order):  # host operations nothing compiled needs run after it
      if op.host and op not in compiled_waits and not any(
          t._id in compiled_needs for t in op.outputs):
        self.post.insert(0, op)
      else:
        compiled_needs.update(t._id for t in op.inputs)
        compiled_waits.update(op.control_inputs)
    ready, self.pre = set(fed_ids), []
    for op in order:  # host operations that need only fed values run before it
      if op.host and op not in self.post and not op.control_inputs and all(
          t._id in ready or t._const is not None for t in op.inputs):
        self.pre.append(op)
        ready.update(t._id for t in op.outputs)
    self.order = [op for op in order if op not in self.pre and op not in self.post]
    post_made = {t._id for op in self.post for t in op.outputs}
    self.handed = list({t._id: t for op in self.post for t in op.inputs
                        if t._id not in post_made and t._const is None}.values())
    self.compiled_fetches = [t for t in fetches if t._id not in post_made]
    self.fed = fed + [t for op in self.pre for t in op.outputs]
    required, written, written_ids = [], [], set()
    for op in self.order:
      for var in op.reads:
        if var._id not in written_ids and all(var is not v for v in required):
          required.append(var)
      for var in op.writes:
        if var._id not in written_ids:
          written_ids.add(var._id)
          written.append(var)
    for tensor in fetches:  # a fetched variable gives its value before this run's writes
      var = getattr(tensor.op, "variable", None)
      if var is not None and (var._id in session._values or var._id not in written_ids) and \
          all(var is not v for v in required):
        required.append(var)
    self.required, self.written = required, written
    self.eager = any(op.host or any(t._dtype is dtypes.string for t in op.outputs + op.inputs)
                     for op in self.order) or any(t._dtype is dtypes.string for t in
                                                  self.fed + self.compiled_fetches + self.handed)
    self.device = _placement(session, self.pre + self.order + self.post)
    self.compiled = jax.jit(self._checked_run)
    self.check_failures = []

  def _checked_run(self, var_values, feeds, counter):
    """The compiled run: `_run`, and the value checks of its ops (value_checks.py)."""
    with value_checks.collecting() as checks:
      outputs, new_values = self._run(var_values, feeds, counter, checks)
    self.check_failures = checks.failures()
    return outputs, new_values, checks.outputs()

  def _run(self, var_values, feeds, counter, checks=None):
    env = graph_build.RunEnv({t._id: v for t, v in zip(self.fed, feeds)})
    before = {v._id: x for v, x in zip(self.required, var_values)}
    scope = _RunScope(dict(before), self.session)
    for op in self.order:
      if checks is not None:
        checks.site = op
      _replay(op, env, scope, counter)
    outputs = []
    for tensor in self.compiled_fetches:
      var = getattr(tensor.op, "variable", None)
      if var is None or tensor._id in env.values:
        outputs.append(env.value(tensor))
      else:
        outputs.append(before.get(var._id, scope.values.get(var._id)))
    return outputs + [env.value(t) for t in self.handed], [scope.values[v._id]
                                                           for v in self.written]

  def _run_host_sinks(self, outputs, counter):
    """Runs the post operations on the compiled run's values; the fetched values."""
    count = len(self.compiled_fetches)
    env = graph_build.RunEnv({t._id: v for t, v in zip(self.handed, outputs[count:])})
    scope = _RunScope(self.session._values, self.session)
    for op in self.post:
      _replay(op, env, scope, counter)
    computed = iter(outputs[:count])
    return [next(computed) if t in self.compiled_fetches else env.value(t)
            for t in self.fetches]

  def _run_host_sources(self, feeds, counter):
    env = graph_build.RunEnv({t._id: v for t, v in zip(self.fed, feeds)})
    scope = _RunScope(self.session._values, self.session)
    for op in self.pre:
      _replay(op, env, scope, counter)
    return feeds + [env.value(t) for t in self.fed[len(feeds):]]

  def execute(self, feeds):
    values = self.session._values
    for var in self.required:
      if var._id not in values:
        raise _uninitialized(var)
    var_values = [values[v._id] for v in self.required]
    counter = np.uint32(self.session._runs)
    self.session._runs += 1
    if self.pre:
      feeds = self._run_host_sources(feeds, counter)
    if self.device is not None:
      var_values, feeds = jax.device_put((var_values, feeds), self.device)
    done = False  # the computation has finished
    if not self.eager:
      try:
        outputs, new_values, checks = self.compiled(var_values, feeds, counter)
      except _UNTRACEABLE + (NotImplementedError,):  # e.g. the gradient of an unbounded loop
        self.eager = True
      except jax.errors.JaxRuntimeError as e:  # a tf.Assert that failed in the computation
        raise logging_ops.staged_failure(e) from None
      else:
        failure = value_checks.failed(self.check_failures, *checks)
        if failure is not None:  # an op's kernel would have refused its input: no writes
          raise _at_node(failure[0], failure[1])
        done = checks[0] is not None  # reading the check flags waited for the computation
    if self.eager:
      with jax.default_device(self.device):
        outputs, new_values = self._run(var_values, feeds, counter)
    if not done:
      jax.block_until_ready((outputs, new_values))  # a run returns when its step is done
    for var, value in zip(self.written, new_values):
      values[var._id] = value
    if self.post:
      return self._run_host_sinks(outputs, counter)
    return outputs


def _placement(session, ops):
  """The JAX device a run computes on: the one device its ops name with tf.device (None, the
  default device, when they name none or several); logged when the config asks. A device
  that does not exist is TF's InvalidArgumentError unless the config allows soft placement."""
  config = session._config
  named = {}
  for op in ops:
    spec = device_lib.DeviceSpec.from_string(op.device)
    if spec.device_type is not None:
      named.setdefault((spec.device_type, spec.device_index or 0), op)
  for (kind, index), op in named.items():
    if index >= len(device_lib.devices_of_type(kind)) and not (
        config is not None and config.allow_soft_placement):
      raise errors.InvalidArgumentError(
          None, op, "Cannot assign a device for operation %s: {{node %s}} was explicitly "
          "assigned to %s but available devices are [ %s ]. Make sure the device "
          "specification refers to a valid device." % (
              op.name, op.name, op.device, ", ".join(device_lib.list_devices())))
  found = device_lib.devices_of_type(next(iter(named))[0]) if len(named) == 1 else []
  index = next(iter(named))[1] if named else 0
  device = found[index] if index < len(found) else None
  if config is not None and config.log_device_placement:
    name = device_lib.tf_name(device or jax.devices()[0])
    for op in ops:
      sys.stderr.write("%s: (%s): %s\n" % (op.name, op.type, name))
  return device


def _replay(op, env, scope, counter):
  """Replays `op`; a TF error it raises names the op and the line that built it, as TF's."""
  try:
    graph_build.replay(op, env, scope, counter)
  except errors.OpError as e:
    raise _at_node(e, op) from None


def _at_node(error, op):
  """`error` (raised by `op`) with TF's "[[node ... (defined at ...)]]" suffix."""
  if error.op is not None or op is None:
    return error
  return type(error)(None, op, "%s\n\t [[node %s (defined at %s) ]]"
                     % (error.message, op.name, op.defined_at))


def _folded(op):
  """A pure call whose outputs are all constants needs no replay."""
  return op.kind == "call" and op.outputs and not op.stateful and all(
      t._const is not None for t in op.outputs)


# ---- Fetches and feeds ----
def _fetch_error(fetch, exc):
  return TypeError("Fetch argument %r has invalid type %r, must be a string or Tensor. (%s)"
                   % (fetch, type(fetch), exc))


class _Fetches:
  """The fetch structure flattened to graph tensors and operations, and rebuilt."""

  def __init__(self, graph, fetches):
    self.graph = graph
    self.tensors, self.targets = [], []
    self.build = self._map(fetches)

  def _element(self, fetch):
    if fetch is None:
      raise TypeError("Fetch argument None has invalid type <class 'NoneType'>")
    try:
      element = self.graph.as_graph_element(fetch)
    except TypeError as e:
      raise _fetch_error(fetch, e) from None
    except ValueError as e:
      raise ValueError("Fetch argument %r cannot be interpreted as a Tensor. (%s)"
                       % (fetch, e)) from None
    except KeyError as e:
      raise ValueError("Fetch argument %r cannot be interpreted as a Tensor. (%s)"
                       % (fetch, e.args[0])) from None
    if isinstance(element, Operation):
      self.targets.append(element)
      return lambda values: None
    index = len(self.tensors)
    self.tensors.append(element)
    return lambda values: values[index]

  def _map(self, fetch):
    if isinstance(fetch, (list, tuple)) and not hasattr(fetch, "_graph_element"):
      parts = [self._map(f) for f in fetch]
      if hasattr(fetch, "_fields"):  # a namedtuple
        return lambda values: type(fetch)(*[p(values) for p in parts])
      kind = type(fetch) if isinstance(fetch, list) else tuple
      return lambda values: kind(p(values) for p in parts)
    if isinstance(fetch, collections.abc.Mapping):
      parts = [(k, self._map(v)) for k, v in fetch.items()]
      kind = type(fetch)
      return lambda values: kind((k, p(values)) for k, p in parts)
    components = getattr(fetch, "_fetch_components", None)
    if components is not None:  # a SparseTensor: (indices, values, dense_shape)
      parts = [self._map(c) for c in components()]
      return lambda values: fetch._fetch_value(*[p(values) for p in parts])
    return self._element(fetch)


def _feed_value(tensor, value):
  if isinstance(value, (Tensor, Operation)) or hasattr(value, "_as_tensor"):
    raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                    "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. "
                    "For reference, the tensor object was %s which was passed to the feed "
                    "with key %s." % (value, tensor))
  if tensor._dtype is dtypes.string:
    array = np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                         otypes=[object])(np.asarray(value, dtype=object))
  else:
    array = np.asarray(value, dtype=tensor._dtype.as_numpy_dtype)
  if not tensor._shape.is_compatible_with(array.shape):
    raise ValueError("Cannot feed value of shape %r for Tensor %r, which has shape %r"
                     % (array.shape, tensor.name, str(tensor._shape)))
  return array


def _to_numpy(value):
  array = np.asarray(value)
  return array[()] if array.ndim == 0 else array


def _trace(run_metadata, plan, start, end):
  """Step stats of a traced run (RunOptions.FULL_TRACE): the run is one computation on the
  default device, timed as one node that names the graph operations it ran."""
  device = jax.devices()[0]
  stats = run_metadata.step_stats.dev_stats.add(
      device="/job:localhost/replica:0/task:0/device:%s:%d" % (device.platform.upper(),
                                                                device.id))
  ops = plan.pre + plan.order + plan.post
  micros = int((end - start) * 1e6)
  stats.node_stats.add(
      node_name="SessionRun", all_start_micros=int(start * 1e6), op_start_rel_micros=0,
      op_end_rel_micros=micros, all_end_rel_micros=micros,
      timeline_label="SessionRun = XLA(%s)" % ", ".join(op.name for op in ops))


@export("Session")
class Session:
  """`tf.Session(target, graph, config)`: runs `graph` (the default graph) with its own
  variable values."""

  def __init__(self, target="", graph=None, config=None):
    self.graph = graph if graph is not None else graph_lib.get_default_graph()
    self._config = config
    self._values = {}  # variable _id -> array
    self._iterators = {}  # iterator handle -> (element iterator, values it was built with)
    self._plans = program_cache.LRU()  # run signature -> _Plan
    self._runs = 0
    self._closed = False
    self._entered = []

  @property
  def sess_str(self):
    return ""

  @property
  def graph_def(self):
    return self.graph.as_graph_def()

  def list_devices(self):
    from tfe_compat.internal import device_lib  # pylint: disable=import-outside-toplevel
    return device_lib.list_local_devices()

  def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    """The values of `fetches` (any nest of tensors, operations, variables, names) with
    `feed_dict` fed, as NumPy values in the same structure."""
    if self._closed:
      raise RuntimeError("Attempted to use a closed Session.")
    if not self.graph._ops:
      raise RuntimeError("The Session graph is empty. Add operations to the graph before "
                         "calling run().")
    fetch_map = _Fetches(self.graph, fetches)
    fed, feeds = [], []
    for key, value in (feed_dict or {}).items():
      for tensor, part in self._feed_pairs(key, value):
        fed.append(tensor)
        feeds.append(_feed_value(tensor, part))
    if not fetch_map.tensors and not fetch_map.targets:
      return fetch_map.build([])
    fetched_variables = [getattr(t.op, "variable", None) for t in fetch_map.tensors]
    signature = (tuple(t._id for t in fetch_map.tensors),
                 tuple(id(op) for op in fetch_map.targets), tuple(t._id for t in fed),
                 tuple(v._id in self._values for v in fetched_variables if v is not None))
    plan = self._plans.get(signature)
    if plan is None:
      plan = self._plans[signature] = _Plan(self, fetch_map.tensors, fetch_map.targets, fed)
    start = time.time()
    outputs = plan.execute(feeds)
    if run_metadata is not None and options is not None:
      if options.trace_level:
        _trace(run_metadata, plan, start, time.time())
      if options.output_partition_graphs:
        run_metadata.partition_graphs.add().CopyFrom(self.graph.as_graph_def())
    return fetch_map.build([_to_numpy(o) for o in outputs])

  def _feed_pairs(self, key, value):
    components = getattr(key, "_fetch_components", None)
    if components is not None:  # a sparse placeholder fed a SparseTensorValue or a triple
      parts = (value.indices, value.values, value.dense_shape) if hasattr(value, "indices") \
          else value
      return list(zip(components(), parts))
    try:
      tensor = self.graph.as_graph_element(key, allow_operation=False)
    except (TypeError, ValueError, KeyError) as e:
      raise TypeError("Cannot interpret feed_dict key as Tensor: %s" % (e,)) from None
    return [(tensor, value)]

  def make_callable(self, fetches, feed_list=None, accept_options=False):
    feed_list = list(feed_list or [])

    def call(*args, options=None, run_metadata=None):
      if not accept_options and (options is not None or run_metadata is not None):
        raise TypeError("call() got an unexpected keyword argument 'options'")
      return self.run(fetches, dict(zip(feed_list, args)), options, run_metadata)
    return call

  def partial_run_setup(self, fetches, feeds=None):
    raise NotImplementedError("Session.partial_run is not supported by tfe_compat: run the "
                              "fetches with one Session.run.")

  def partial_run(self, handle, fetches, feed_dict=None):
    raise NotImplementedError("Session.partial_run is not supported by tfe_compat: run the "
                              "fetches with one Session.run.")

  def _load(self, var, value):
    self._values[var._id] = jax.numpy.asarray(np.asarray(value, var.dtype.as_numpy_dtype))

  def close(self):
    self._closed = True

  def as_default(self):
    return _DefaultSession(self)

  def __enter__(self):
    graph_scope, session_scope = self.graph.as_default(), self.as_default()
    graph_scope.__enter__()
    session_scope.__enter__()
    self._entered.append((graph_scope, session_scope))
    return self

  def __exit__(self, exc_type, exc_value, traceback):
    graph_scope, session_scope = self._entered.pop()
    session_scope.__exit__(exc_type, exc_value, traceback)
    graph_scope.__exit__(exc_type, exc_value, traceback)
    self.close()

  def __del__(self):
    pass


class _DefaultSession:
  def __init__(self, session):
    self._session = session

  def __enter__(self):
    _sessions.stack.append(self._session)
    return self._session

  def __exit__(self, *exc):
    _sessions.stack.pop()


@export("InteractiveSession")
class InteractiveSession(Session):
  """A Session that makes itself (and its graph) the default on creation."""

  def __init__(self, target="", graph=None, config=None):
    super().__init__(target, graph, config)
    self._interactive = (self.graph.as_default(), self.as_default())
    for scope in self._interactive:
      scope.__enter__()

  def close(self):
    if self._interactive is not None and not self._closed:
      session_scope, graph_scope = self._interactive[1], self._interactive[0]
      if self in _sessions.stack:
        _sessions.stack.remove(self)
      if self.graph in _ctx.graph_stack:
        graph_scope.__exit__(None, None, None)
      del session_scope
    super().close()
