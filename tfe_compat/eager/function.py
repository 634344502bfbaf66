"""`tf.function` / `tfe.defun`: Python functions that read and assign Variables, compiled.

The first call for an input signature runs eagerly once, through a variable scope that
notes every Variable read, written or created (lazy Keras builds and optimizer slots happen
there, and the call's result is the eager result). The function is then traced with
`jax.jit` as a pure function `(variable values, RNG key, tensor arguments) -> (outputs, new
values of the written variables)`: reads return traced values, writes are buffered, random
ops draw from the traced key. Every later call with that signature runs the compiled
computation and writes the new variable values back at once. Python control flow on tensor
values cannot be compiled: such a function runs eagerly, with one warning. At most
`program_cache.SIZE` signatures are kept (least recently used dropped; one dropped is traced
again when called again, and counts as a retrace).
"""
import contextlib
import functools
import inspect
import io
import traceback
import warnings
import weakref

import jax
import numpy as np

from tfe_compat import state_ops
from tfe_compat.framework import config
from tfe_compat.framework import context
from tfe_compat.framework import errors
from tfe_compat.framework import graph as graph_lib
from tfe_compat.framework import graph_build
from tfe_compat.framework import ops
from tfe_compat.framework import program_cache
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import logging_ops
from tfe_compat.ops import value_checks

_ctx = context.ctx
_RETRACE_WARNING_AFTER = 5


_NO_KEY = np.zeros(2, np.uint32)  # the key of functions that draw no random numbers


def _without_key(pure, values, tensor_args):
  return pure(values, _NO_KEY, tensor_args)


def _is_variable(x):
  return hasattr(x, "_as_tensor") and hasattr(x, "trainable")


def _is_leaf(x):
  return isinstance(x, Tensor) or _is_variable(x)


@contextlib.contextmanager
def _traced_call(keys, scope):
  """The context of a traced call of the Python function: random ops draw from `keys`,
  variables go through `scope`, prints are dropped (they ran in the eager call), checks
  are collected (yielded), ops refusing arguments raise as TF's graph construction does.
  Outer tapes see the call as one _CompiledCall (see `run`), never its traced reads; tapes
  inside the function record even while an outer tape replays this call."""
  outer = _ctx.traced_rng, _ctx.tapes, _ctx.recording_paused
  _ctx.traced_rng, _ctx.tapes, _ctx.recording_paused = keys, [], 0
  try:
    with _scope(scope), contextlib.redirect_stdout(io.StringIO()), \
        value_checks.collecting() as checks, _building(), context.function_body():
      yield checks
  finally:
    _ctx.traced_rng, _ctx.tapes, _ctx.recording_paused = outer


@contextlib.contextmanager
def _building():
  """Marks a trace: ops refusing their arguments raise ValueError, as TF's shape inference
  does while it builds the function's graph (errors.op_error)."""
  errors.building_function[0] += 1
  try:
    yield
  finally:
    errors.building_function[0] -= 1


class _Classifying:
  """Variable scope of `_graph_construction_error`'s trace: reads give the current values,
  writes are dropped, creations stop it."""

  def read(self, var):
    return state_ops.read_direct(var)

  def write(self, var, value):
    pass

  def variable_created(self, var):
    raise _Retry("a variable created while classifying an error")


def _graph_construction_error(fn, args, kwargs):
  """The ValueError TF's graph construction raises for this call of `fn`, or None.

  Called when the eager first call raised InvalidArgumentError (or FailedPreconditionError,
  as TF's Cross kernel): traced with its tensor arguments abstract, the call fails the same
  way only if the error came from shapes and constants (TF's shape inference, a ValueError while the graph is built), not from the
  values of its arguments (a kernel's error at run time)."""
  leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
  positions = [i for i, x in enumerate(leaves) if _is_tensor_arg(x)]

  def call(arrays):
    traced = list(leaves)
    for i, array in zip(positions, arrays):
      traced[i] = Tensor(array)
    call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, traced)
    with _traced_call(context.TracedKeys(_NO_KEY), _Classifying()):
      fn(*call_args, **call_kwargs)

  try:
    jax.eval_shape(call, [getattr(leaves[i], "_value", leaves[i]) for i in positions])
  except Exception as e:  # pylint: disable=broad-except  (others: not a shape error)
    return e if getattr(e, "graph_construction", False) else None
  return None


class _Discovery:
  """Variable scope of the eager first call: notes variables read, written and created."""

  def __init__(self, outer):
    self.outer = outer
    self.seen = {}  # var._id -> var, in first-access order
    self.written = set()

  def read(self, var):
    self.seen.setdefault(var._id, var)
    if self.outer is not None:
      return self.outer.read(var)
    return state_ops.read_direct(var)

  def write(self, var, value):
    self.seen.setdefault(var._id, var)
    self.written.add(var._id)
    if self.outer is not None:
      self.outer.write(var, value)
    else:
      state_ops.write_direct(var, value)

  def variable_created(self, var):
    self.seen.setdefault(var._id, var)
    created = getattr(self.outer, "variable_created", None)
    if created is not None:
      created(var)


class _Tracing:
  """Variable scope of the traced call: reads give traced values, writes are buffered."""

  def __init__(self, variables, values):
    self.values = {v._id: a for v, a in zip(variables, values)}
    self.created = []

  def read(self, var):
    if var._id not in self.values:
      raise _Retry("read of a variable the eager call did not use")
    return state_ops.read_as(var, self.values[var._id])

  def write(self, var, value):
    if var._id not in self.values:
      raise _Retry("write of a variable the eager call did not use")
    self.values[var._id] = value

  def variable_created(self, var):
    raise ValueError("tf.function-decorated function tried to create variables on non-first "
                     "call.")


class _Retry(Exception):
  """The traced call took a path the eager call did not (run eagerly instead)."""


@contextlib.contextmanager
def _scope(scope):
  outer = _ctx.variable_scope
  _ctx.variable_scope = scope
  try:
    yield scope
  finally:
    _ctx.variable_scope = outer


def _leaf_key(x):
  if isinstance(x, Tensor):
    return ("T", tuple(x._value.shape), x._value.dtype)
  if isinstance(x, np.ndarray):
    return ("T", x.shape, x.dtype)
  if _is_variable(x):
    return ("V", x._id)
  try:
    hash(x)
    return ("P", type(x), x)
  except TypeError:
    return ("O", id(x))


def _is_tensor_arg(x):
  return isinstance(x, (Tensor, np.ndarray))


class ConcreteFunction:
  """The function compiled for one input signature (or run eagerly when it cannot be)."""

  def __init__(self, python_function, leaves, treedef, eager_result, discovery, name,
               warn=True):
    self._fn = python_function
    self._warn = warn
    self._treedef = treedef
    self._name = name
    self._variables = list(discovery.seen.values())
    self._written = [v for v in self._variables if v._id in discovery.written]
    self._random = discovery.random  # else one fixed key (no per-call key cost)
    # Whether calls draw a key: the eager call may have drawn only for variable
    # initializers; the trace tells (None until traced, see _pure).
    self._draws = None if self._random else False
    # Non-tensor arguments are part of this signature's key, so they are fixed here.
    self._static_args = tuple(None if _is_tensor_arg(x) else ("S", x) for x in leaves)
    self._tensor_positions = [i for i, x in enumerate(leaves) if _is_tensor_arg(x)]
    # String tensors (NumPy object arrays) cannot enter a compiled computation: run eagerly.
    self._eager_only = any(getattr(leaves[i], "_value", leaves[i]).dtype == object
                           for i in self._tensor_positions)
    pure = functools.partial(self._pure, static_args=self._static_args)
    if not self._random:  # no key argument at all: one input less to dispatch
      pure = functools.partial(_without_key, pure)
    self._compiled = jax.jit(pure)
    self.structured_outputs = eager_result

  def _pure(self, values, key, tensor_args, static_args):
    """(variable values, key, tensor args) -> (flat outputs, written variable values)."""
    tracing = _Tracing(self._variables, values)
    args = iter(tensor_args)
    leaves = [Tensor(next(args)) if static is None else static[1] for static in static_args]
    call_args, call_kwargs = jax.tree_util.tree_unflatten(self._treedef, leaves)
    keys = context.TracedKeys(key)
    with _traced_call(keys, tracing) as checks:
      out = self._fn(*call_args, **call_kwargs)  # prints ran in the eager call already
    self._draws = keys.used
    flat_out, out_tree = jax.tree_util.tree_flatten(out, is_leaf=_is_leaf)
    self._out_tree = out_tree
    self._out_static = [None if isinstance(o, Tensor) else o for o in flat_out]
    self._check_failures = checks.failures()
    arrays = [o._value for o in flat_out if isinstance(o, Tensor)]
    return arrays, [tracing.values[v._id] for v in self._written], checks.outputs()

  @property
  def compiled(self):
    """Whether calls run the compiled computation: traced, and not fallen back to eager."""
    return not self._eager_only and hasattr(self, "_out_tree")

  def __call__(self, args, kwargs):
    leaves, _ = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
    return self.run(leaves, args, kwargs)

  def run(self, leaves, args, kwargs):
    """Runs the compiled function on the flattened arguments `leaves` of (args, kwargs)."""
    if self._eager_only:
      return self.call_eagerly(args, kwargs)
    tensor_args = [getattr(leaves[i], "_value", leaves[i]) for i in self._tensor_positions]
    if _ctx.tapes or _ctx.variable_scope is not None:
      reads = [state_ops.read(v) for v in self._variables]  # tapes and scopes see the reads
      values = [r._value for r in reads]
    else:
      reads, values = None, [v._value for v in self._variables]
    key = _NO_KEY
    try:
      if self._random:
        if self._draws is None:  # trace first: a call draws a key only if the trace uses it
          self._compiled.trace(values, key, tensor_args)
        key = context.next_rng_key() if self._draws else _NO_KEY
        outputs, new_values, checks = self._compiled(values, key, tensor_args)
      else:
        outputs, new_values, checks = self._compiled(values, tensor_args)
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
            jax.errors.TracerIntegerConversionError, jax.errors.TracerArrayConversionError,
            context.NotTraceable, _Retry) as e:
      self._fall_back(e)
      return self.call_eagerly(args, kwargs)
    except NotImplementedError as e:
      if "inside tf.function" not in str(e):
        raise
      self._fall_back(e)  # e.g. a variable assigned inside a tf.cond branch
      return self.call_eagerly(args, kwargs)
    except jax.errors.JaxRuntimeError as e:  # a tf.Assert that failed inside the computation
      raise logging_ops.staged_failure(e) from None
    failure = value_checks.failed(self._check_failures, *checks)
    if failure is not None:  # TF's kernel would have refused an input: nothing is written
      raise failure[0]
    if _ctx.variable_scope is None:
      for var, value in zip(self._written, new_values):
        state_ops.write_direct(var, value)
    else:
      for var, value in zip(self._written, new_values):
        state_ops.write(var, value)
    result_tensors = [Tensor(o) for o in outputs]
    if _ctx.tapes and result_tensors:
      arg_tensors = [x for x in leaves if isinstance(x, Tensor)]
      if len(arg_tensors) == len(tensor_args):  # NumPy arguments are constants, not inputs
        ops.record(_CompiledCall, {"concrete": self}, reads + arg_tensors + [Tensor(key)],
                   result_tensors)
    it = iter(result_tensors)
    flat = [next(it) if static is None else static for static in self._out_static]
    return jax.tree_util.tree_unflatten(self._out_tree, flat)

  def call_eagerly(self, args, kwargs):
    """A call of a function that cannot compile: the Python function runs eagerly."""
    with context.function_body():
      return self._fn(*args, **kwargs)

  def _fall_back(self, error):
    self._eager_only = True
    if not self._warn:
      return
    where = _user_frame(error)
    if isinstance(error, context.NotTraceable):
      warnings.warn("tf.function-decorated function %r cannot be compiled: at %s, %s. It will "
                    "run eagerly (correct, but not compiled)." % (self._name, where, error),
                    stacklevel=4)
      return
    warnings.warn(
        "tf.function-decorated function %r cannot be compiled: %s uses Python control flow "
        "(or a conversion) on a Tensor value, or assigns a variable inside tf.cond, which "
        "needs concrete values (%s). It will run eagerly (correct, but not compiled). Use "
        "tf.cond / tf.while_loop to compile it." % (self._name, where, type(error).__name__),
        stacklevel=4)


class _CompiledCall:
  """A compiled call seen by a GradientTape: one op from variable values and tensor args."""

  op_name = "PartitionedCall"

  @staticmethod
  def impl(*arrays, concrete):
    n = len(concrete._variables)
    outputs, _, _ = concrete._pure(list(arrays[:n]), arrays[-1], list(arrays[n:-1]),
                                   concrete._static_args)
    return tuple(outputs)


def _user_frame(error):
  """"file.py:line" of the innermost frame outside tfe_compat and JAX in the traceback."""
  frames = traceback.extract_tb(error.__traceback__)
  for frame in reversed(frames):
    if "tfe_compat" not in frame.filename and "/jax/" not in frame.filename:
      return "%s:%d" % (frame.filename, frame.lineno)
  return "the function"


class Function:
  """A callable compiled per input signature (see the module docstring)."""

  _warn = True  # retracing and eager-fallback warnings (tf.data's functions have none)

  def __init__(self, python_function, name=None, input_signature=None, autograph=True,
               experimental_compile=None, experimental_relax_shapes=False, jit_compile=None):
    self._fn = python_function
    self._name = name or getattr(python_function, "__name__", "function")
    self._input_signature = input_signature
    self._concrete = program_cache.LRU()  # signature key -> ConcreteFunction
    self._fast = program_cache.LRU()  # (shape, dtype) of each positional Tensor -> one of them
    self._traces = 0
    self._bound = weakref.WeakKeyDictionary()
    functools.update_wrapper(self, python_function)

  @property
  def python_function(self):
    return self._fn

  @property
  def input_signature(self):
    return self._input_signature

  def __get__(self, instance, owner):
    """Decorated methods: one Function per instance, bound to it."""
    if instance is None:
      return self
    bound = self._bound.get(instance)
    if bound is None:
      bound = Function(functools.partial(self._fn, instance), self._name,
                       self._input_signature)
      self._bound[instance] = bound
    return bound

  def _key(self, args, kwargs, leaves=None, treedef=None):
    if leaves is None:
      leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
    if self._input_signature is not None:
      _check_signature(self._fn, self._input_signature, args)
      return ("signature", treedef, tuple(_leaf_key(x)[0:1] if _is_tensor_arg(x)
                                          else _leaf_key(x) for x in leaves))
    return (treedef, tuple(_leaf_key(x) for x in leaves))

  def __call__(self, *args, **kwargs):
    if config.functions_run_eagerly():  # tf.config.experimental_run_functions_eagerly(True)
      return self._fn(*args, **kwargs)
    if graph_lib.building() is not None:  # graph mode: one function-call operation
      return graph_build.record_call(self._fn, args, kwargs, op_type="PartitionedCall",
                                     stateful=True)
    if _ctx.graph_env is not None:  # a graph's recorded call: the body runs inline
      return self._fn(*args, **kwargs)
    if not kwargs:  # fast path: positional Tensors only, keyed by their shapes and dtypes
      try:
        fast_key = tuple((a._value.shape, a._value.dtype) for a in args if type(a) is Tensor)
      except AttributeError:
        fast_key = None
      if fast_key is not None and len(fast_key) == len(args):
        concrete = self._fast.get(fast_key)
        if concrete is not None:
          return concrete.run(args, args, kwargs)
    args = tuple(ops.convert_to_tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
    key = self._key(args, kwargs, leaves, treedef)
    concrete = self._concrete.get(key)
    if concrete is None:
      return self._trace(key, args, kwargs)
    if not kwargs and all(type(a) is Tensor for a in args):
      self._fast[tuple((a._value.shape, a._value.dtype) for a in args)] = concrete
    return concrete.run(leaves, args, kwargs)

  def _trace(self, key, args, kwargs):
    """The eager first call of a signature; records the ConcreteFunction for later calls."""
    self._traces += 1
    if self._traces > _RETRACE_WARNING_AFTER and self._warn:
      warnings.warn("%d calls to %r triggered tf.function retracing. Tracing is expensive "
                    "and the excessive number of tracings is likely due to passing python "
                    "objects instead of tensors or tensors with different shapes. Consider "
                    "input_signature (tf.TensorSpec with None dimensions) or passing tensors."
                    % (self._traces, self._name), stacklevel=3)
    draws = context.rng_draws
    try:
      with _scope(_Discovery(_ctx.variable_scope)) as discovery, context.function_body():
        result = self._fn(*args, **kwargs)
    except (errors.InvalidArgumentError, errors.FailedPreconditionError) as e:
      static = _graph_construction_error(self._fn, args, kwargs)
      if static is None:
        raise
      raise static from e
    _check_outputs(result, self._fn)
    discovery.random = context.rng_draws != draws
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
    if len(self._concrete) >= program_cache.SIZE:
      self._fast.clear()  # it may point to the trace that this one evicts
    self._concrete[key] = ConcreteFunction(self._fn, leaves, treedef, result, discovery,
                                           self._name, self._warn)
    return result

  def get_concrete_function(self, *args, **kwargs):
    """The ConcreteFunction for these arguments (TensorSpecs are traced with zeros)."""
    if not args and self._input_signature is not None:
      args = tuple(self._input_signature)
    args = tuple(_zeros_for_spec(a) if _is_spec(a) else a for a in args)
    key = self._key(args, kwargs)
    if key not in self._concrete:
      self._trace(key, args, kwargs)
    concrete = self._concrete[key]
    return _Bound(concrete)

  def experimental_get_tracing_count(self):
    return self._traces


class _Bound:
  """A ConcreteFunction called with positional and keyword arguments directly."""

  def __init__(self, concrete):
    self._concrete = concrete
    self.structured_outputs = concrete.structured_outputs

  def __call__(self, *args, **kwargs):
    return self._concrete(args, kwargs)


_OUTPUT_TYPES = (Tensor, bool, int, float, complex, str, bytes, np.ndarray, np.generic,
                 type(None))


def _check_outputs(result, fn):
  """TF's refusal of a return value that is not a tensor (nor a value that becomes one)."""
  for leaf in jax.tree_util.tree_leaves(result, is_leaf=_is_leaf):
    if not isinstance(leaf, _OUTPUT_TYPES) and not _is_leaf(leaf) and not hasattr(
        leaf, "_as_tensor") and not hasattr(leaf, "_fetch_components"):
      raise TypeError(
          "To be compatible with tf.function, Python functions must return zero or more "
          "Tensors or ExtensionTypes or None values; in compilation of %s, found return value "
          "of type %s, which is not a Tensor or ExtensionType." % (fn, type(leaf).__name__))


def _is_spec(x):
  return hasattr(x, "shape") and hasattr(x, "dtype") and not _is_leaf(x) and not isinstance(
      x, np.ndarray)


def _zeros_for_spec(spec):
  shape = [1 if d is None else d for d in spec.shape.as_list()]
  return Tensor(jax.numpy.zeros(shape, spec.dtype.as_numpy_dtype))


def _check_signature(fn, signature, args):
  """TF's TypeError for arguments that do not bind to the input signature."""
  problem = None
  names = _parameter_names(fn, len(signature))
  if len(args) != len(signature):
    problem = ("too many positional arguments" if len(args) > len(signature) else
               "missing a required argument: %r" % names[len(args)])
  else:
    for arg, spec in zip(args, signature):
      tensor = ops.convert_to_tensor(arg)
      if tensor.dtype is not spec.dtype or not spec.shape.is_compatible_with(tensor.shape):
        problem = "Can not cast %s to %s" % (type(spec)(tensor.shape, tensor.dtype), spec)
        break
  if problem is not None:
    raise TypeError("Binding inputs to tf.function failed due to `%s`. Received args: %r and "
                    "kwargs: {} for signature: (%s)." % (problem, tuple(args), ", ".join(
                        "%s: %s" % pair for pair in zip(names, signature))))


def _parameter_names(fn, count):
  try:
    names = list(inspect.signature(fn).parameters)
  except (TypeError, ValueError):  # a callable without a signature
    names = []
  return (names + ["arg%d" % i for i in range(len(names), count)])[:count]


@export("function", "contrib.eager.function", "contrib.eager.defun")
def function(func=None, input_signature=None, autograph=True, experimental_autograph_options=None,
             experimental_relax_shapes=False, experimental_compile=None, jit_compile=None,
             reduce_retracing=False, name=None):
  """Compiles `func` (usable as `@tf.function` or `@tf.function(input_signature=...)`)."""
  def decorate(fn):
    return Function(fn, name, input_signature, autograph, experimental_compile,
                    experimental_relax_shapes or reduce_retracing, jit_compile)
  return decorate if func is None else decorate(func)


@export("experimental.function_executor_type")
@contextlib.contextmanager
def function_executor_type(executor_type):
  """Accepted: TF's choice of function executor; compiled functions here run on XLA."""
  del executor_type
  yield


@export("contrib.eager.defun_with_attributes")
def defun_with_attributes(func=None, input_signature=None, attributes=None, autograph=True):
  return function(func, input_signature=input_signature, autograph=autograph)


@export("nondifferentiable_batch_function")
def batch_function(num_batch_threads, max_batch_size, batch_timeout_micros,
                   allowed_batch_sizes=None, max_enqueued_batches=10, autograph=True):
  """TF 1.15's batching decorator. Eagerly each call is its own batch: the decorated
  function returns the list of the computation's output Tensors, as TF's BatchFunction op."""
  def decorator(fn):
    @functools.wraps(fn)
    def decorated(*args):
      for arg in args:
        arg.dtype  # pylint: disable=pointless-statement  (TF reads it first: AttributeError)
        if not isinstance(arg, Tensor):
          raise ValueError("All arguments to functions decorated with `batch_function`  are "
                           "supposed to be Tensors; found %r" % (arg,))
      out = fn(*args)
      return list(out) if isinstance(out, (list, tuple)) else [out]
    return decorated
  return decorator

