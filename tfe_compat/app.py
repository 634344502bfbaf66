"""`tf.app`, `tf.flags` and `tf.logging`: absl flags and TF 1.x's Python logging."""
import logging as _py_logging
import sys

import jax
from absl import app as _absl_app
from absl import flags as _absl_flags

from tfe_compat.framework.api import export

export("flags", "app.flags")(_absl_flags)
export("contrib.eager.flags")(_absl_flags)


def _parse_flags_tolerate_undef(argv):
  """Parses known flags and leaves the rest in argv, as TF's app.run does."""
  return _absl_flags.FLAGS(argv, known_only=True)


# Libraries tfe_compat runs on log what TF's C++ core would keep to itself (JAX's tracing and
# compilation, asyncio under orbax): absl's `--verbosity=1` sets the root logger to DEBUG, which
# must not turn them on. Their own settings (JAX_LOGGING_LEVEL, a level set by the user) win.
_QUIET_LOGGERS = ("jax", "asyncio")


def _quiet_libraries():
  for name in _QUIET_LOGGERS:
    logger = _py_logging.getLogger(name)
    if logger.level == _py_logging.NOTSET:
      logger.setLevel(_py_logging.WARNING)


_quiet_libraries()


@export("app.run", "contrib.eager.run")
def run(main=None, argv=None):
  """`tf.app.run`: parses flags, calls `main(argv)` and exits with its return value."""
  main = main or sys.modules["__main__"].main
  jax.devices()  # start JAX's backends first: absl's INFO logging would show their probing
  _absl_app.run(main=main, argv=argv, flags_parser=_parse_flags_tolerate_undef)


# ---- tf.logging: the "tensorflow" Python logger, TF 1.x names and format ----
DEBUG, INFO, WARN, ERROR, FATAL = (_py_logging.DEBUG, _py_logging.INFO, _py_logging.WARN,
                                   _py_logging.ERROR, _py_logging.FATAL)
_logger = _py_logging.getLogger("tensorflow")
if not _logger.handlers:
  _handler = _py_logging.StreamHandler(sys.stderr)
  _handler.setFormatter(_py_logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
  _logger.addHandler(_handler)
  _logger.propagate = False
  _logger.setLevel(WARN)
_call_counts = {}


def log(level, msg, *args, **kwargs):
  _logger.log(level, msg, *args, **kwargs)


def _call_count(tag):
  """How many times the caller's caller has run before at this line."""
  caller = sys._getframe(2)  # pylint: disable=protected-access
  key = (caller.f_code.co_filename, caller.f_lineno, tag)
  count = _call_counts.get(key, 0)
  _call_counts[key] = count + 1
  return count


def log_first_n(level, msg, n, *args):
  """Logs `msg` the first `n` times this call site runs."""
  if _call_count("first") < n:
    _logger.log(level, msg, *args)


def log_every_n(level, msg, n, *args):
  """Logs `msg` on the 1st, (n+1)-th, ... time this call site runs."""
  if _call_count("every") % n == 0:
    _logger.log(level, msg, *args)


def vlog(level, msg, *args, **kwargs):
  _logger.log(level, msg, *args, **kwargs)


def log_if(level, msg, condition, *args):
  """Logs `msg % args` at `level` when `condition` holds."""
  if condition:
    vlog(level, msg, *args)


def flush():
  """Not implemented in TF 1.15 either: it raises NotImplementedError, as TF's does."""
  raise NotImplementedError()


def TaskLevelStatusMessage(msg):  # pylint: disable=invalid-name
  """Logs `msg` as an error, as TF does."""
  _logger.error(msg)


def set_verbosity(v):
  _logger.setLevel(v)


def get_verbosity():
  return _logger.getEffectiveLevel()


for _name, _obj in [("DEBUG", DEBUG), ("INFO", INFO), ("WARN", WARN), ("ERROR", ERROR),
                    ("FATAL", FATAL), ("debug", _logger.debug), ("info", _logger.info),
                    ("warn", _logger.warning), ("warning", _logger.warning),
                    ("error", _logger.error), ("fatal", _logger.critical), ("log", log),
                    ("log_first_n", log_first_n), ("log_every_n", log_every_n),
                    ("vlog", vlog), ("log_if", log_if), ("flush", flush),
                    ("TaskLevelStatusMessage", TaskLevelStatusMessage),
                    ("set_verbosity", set_verbosity),
                    ("get_verbosity", get_verbosity)]:
  export("logging." + _name)(_obj)
