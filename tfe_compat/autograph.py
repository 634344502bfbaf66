"""`tf.autograph`: AutoGraph's API. tfe_compat runs a function's Python control flow as it
is (eagerly, or while `tf.function` traces it), so "converting" a function changes nothing:
`to_graph` returns it, `to_code` its source, and the loop options have no loop to apply to.
"""
import enum
import inspect
import textwrap

from tfe_compat.framework.api import export


@export("autograph.experimental.Feature")
class Feature(enum.Enum):
  """AutoGraph's optional conversions (accepted; nothing is converted here)."""
  ALL = "ALL"
  AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
  ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
  BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
  EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
  LISTS = "LISTS"
  NAME_SCOPES = "NAME_SCOPES"


_verbosity = {"level": 0, "alsologtostdout": False}


@export("autograph.set_verbosity")
def set_verbosity(level, alsologtostdout=False):
  """Remembered: there is no conversion to log."""
  _verbosity.update(level=level, alsologtostdout=alsologtostdout)


@export("autograph.trace")
def trace(*args):
  """Prints its arguments (TF prints them when the function is traced)."""
  print(*args)


@export("autograph.to_graph")
def to_graph(entity, recursive=True, arg_values=None, arg_types=None,
             experimental_optional_features=None):
  """`entity` itself: its Python control flow already runs on tensors here."""
  return entity


@export("autograph.to_code")
def to_code(entity, recursive=True, arg_values=None, arg_types=None, indentation="  ",
            experimental_optional_features=None):
  """The source code of `entity`, unconverted (TF shows AutoGraph's converted code)."""
  return textwrap.dedent(inspect.getsource(entity))


@export("autograph.experimental.do_not_convert")
def do_not_convert(func=None):
  """`func` itself (nothing is converted); without `func`, this decorator."""
  return do_not_convert if func is None else func


_UNSPECIFIED = object()


@export("autograph.experimental.set_loop_options")
def set_loop_options(parallel_iterations=_UNSPECIFIED, back_prop=_UNSPECIFIED,
                     swap_memory=_UNSPECIFIED, maximum_iterations=_UNSPECIFIED):
  """No effect, as in TF for a loop that is not staged as a while_loop (none is here)."""
