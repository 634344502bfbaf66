"""`tensorflow.python.util.deprecation`: TF's deprecation decorators, which log a warning the
first time a deprecated function (or argument) is used, and `silence()`."""
import contextlib
import functools
import inspect
import logging

_log = logging.getLogger("tensorflow")
_PRINT_DEPRECATION_WARNINGS = True
_warned = set()
_ANY = object()  # a deprecated argument with any value


def _warn_once(key, message, warn_once=True):
  """Logs `message` (the first time for `key` when `warn_once`)."""
  if _PRINT_DEPRECATION_WARNINGS and key not in _warned:
    if warn_once:
      _warned.add(key)
    _log.warning(message)


def _name(func):
  return "%s.%s" % (getattr(func, "__module__", "?"), getattr(func, "__qualname__", func))


def deprecated(date, instructions, warn_once=True):
  """Decorator: calling the function logs "... is deprecated and will be removed ..." once."""
  def decorate(func):
    when = "in a future version" if date is None else "after %s" % date

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
      _warn_once(func, "From %s: %s (from %s) is deprecated and will be removed %s.\n"
                 "Instructions for updating:\n%s" % (_name(func), func.__name__,
                                                     func.__module__, when, instructions),
                 warn_once)
      return func(*args, **kwargs)
    return wrapper
  return decorate


def _passed(func, args, kwargs):
  """{parameter: value} of the arguments a call passes (positionally or by keyword)."""
  try:
    return inspect.signature(func).bind_partial(*args, **kwargs).arguments
  except (TypeError, ValueError):
    return kwargs


def deprecated_args(date, instructions, *deprecated_arg_names_or_tuples, warn_once=True):  # pylint: disable=unused-argument
  """Decorator: passing one of the named arguments (for a `(name, ok_value)` pair: with a
  value other than `ok_value`) logs a deprecation warning."""
  allowed = {}
  for spec in deprecated_arg_names_or_tuples:
    name, ok = (spec, _ANY) if isinstance(spec, str) else spec
    allowed[name] = ok

  def decorate(func):
    @functools.wraps(func)
    def wrapper(*args, **kw):
      passed = _passed(func, args, kw)
      for name, ok in allowed.items():
        if name in passed and (ok is _ANY or passed[name] != ok):
          _warn_once((func, name), "From %s: calling %s with %s is deprecated and will be "
                     "removed in a future version.\nInstructions for updating:\n%s"
                     % (_name(func), func.__name__, name, instructions), warn_once)
      return func(*args, **kw)
    return wrapper
  return decorate


def deprecated_arg_values(date, instructions, warn_once=True, **deprecated_kwargs):  # pylint: disable=unused-argument
  """Decorator: passing a named argument with the given value logs a warning."""
  def decorate(func):
    @functools.wraps(func)
    def wrapper(*args, **kw):
      passed = _passed(func, args, kw)
      for name, value in deprecated_kwargs.items():
        if name in passed and passed[name] == value:
          _warn_once((func, name), "From %s: calling %s with %s=%r is deprecated.\n"
                     "Instructions for updating:\n%s" % (_name(func), func.__name__, name,
                                                         value, instructions), warn_once)
      return func(*args, **kw)
    return wrapper
  return decorate


def deprecated_alias(deprecated_name, name, func_or_class, warn_once=True):
  """`func_or_class` under the old name `deprecated_name`: calling it (or instantiating the
  class) logs "The name ... is deprecated. Please use `name` instead." first."""
  message = "The name %s is deprecated. Please use %s instead.\n" % (deprecated_name, name)
  if isinstance(func_or_class, type):
    class Alias(func_or_class):  # pylint: disable=missing-docstring
      def __init__(self, *args, **kwargs):
        _warn_once(Alias, message, warn_once)
        super().__init__(*args, **kwargs)
    Alias.__name__ = Alias.__qualname__ = func_or_class.__name__
    return Alias

  @functools.wraps(func_or_class)
  def alias(*args, **kwargs):
    _warn_once(alias, message, warn_once)
    return func_or_class(*args, **kwargs)
  return alias


def deprecated_endpoints(*args):  # pylint: disable=unused-argument
  return lambda func: func


@contextlib.contextmanager
def silence():
  """Turns the deprecation warnings off inside the block."""
  global _PRINT_DEPRECATION_WARNINGS  # pylint: disable=global-statement
  previous, _PRINT_DEPRECATION_WARNINGS = _PRINT_DEPRECATION_WARNINGS, False
  try:
    yield
  finally:
    _PRINT_DEPRECATION_WARNINGS = previous
