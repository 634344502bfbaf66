"""`tensorflow.python.util.tf_inspect` and `tf_decorator`: `inspect` that sees through
decorators made with `make_decorator` (both modules are this one)."""
import collections
import functools
import inspect
from inspect import (getdoc, getfile, getmembers, getmodule, getsource,  # noqa: F401
                     isbuiltin, isclass, isframe, isfunction, isgenerator,
                     isgeneratorfunction, ismethod, ismodule, isroutine, stack)

FullArgSpec = inspect.FullArgSpec
ArgSpec = collections.namedtuple("ArgSpec", ["args", "varargs", "keywords", "defaults"])


def unwrap(maybe_tf_decorator):
  """(the decorators, the innermost target) of a decorated callable."""
  decorators, target = [], maybe_tf_decorator
  while hasattr(target, "__wrapped__"):
    decorators.append(target)
    target = target.__wrapped__
  return decorators, target


def make_decorator(target, decorator_func, decorator_name=None, decorator_doc="",  # pylint: disable=unused-argument
                   decorator_argspec=None):
  """`decorator_func` made to look like `target` (name, doc, `__wrapped__`)."""
  functools.update_wrapper(decorator_func, target)
  return decorator_func


def rewrap(decorator_func, previous_target, new_target):  # pylint: disable=unused-argument
  decorator_func.__wrapped__ = new_target
  return decorator_func


def getfullargspec(obj):
  return inspect.getfullargspec(unwrap(obj)[1])


def getargspec(obj):
  """TF's `getargspec`: (args, varargs, keywords, defaults) of the undecorated callable."""
  spec = getfullargspec(obj)
  return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def signature(obj, *, follow_wrapped=True):
  return inspect.signature(obj, follow_wrapped=follow_wrapped)


def getcallargs(func, *positional, **named):
  return inspect.getcallargs(unwrap(func)[1], *positional, **named)
