"""`tf.errors`: TensorFlow's exception classes and error codes."""
import contextlib
import re
import warnings

from tfe_compat.framework.api import export

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16


class OpError(Exception):
  """The base class of errors raised when a TensorFlow op fails."""

  def __init__(self, node_def, op, message, error_code=UNKNOWN):
    super().__init__(message)
    self._node_def, self._op, self._message, self._error_code = node_def, op, message, error_code

  message = property(lambda self: self._message)
  op = property(lambda self: self._op)
  node_def = property(lambda self: self._node_def)
  error_code = property(lambda self: self._error_code)

  def __str__(self):
    return self._message

  def __reduce__(self):
    return type(self), (self._node_def, self._op, self._message)


def _error_class(name, code):
  def __init__(self, node_def, op, message, *args):
    OpError.__init__(self, node_def, op, message, code)
  return type(name, (OpError,), {"__init__": __init__, "__module__": __name__,
                                 "__doc__": "TensorFlow's %s (error code %d)." % (name, code)})


CancelledError = _error_class("CancelledError", CANCELLED)
UnknownError = _error_class("UnknownError", UNKNOWN)
InvalidArgumentError = _error_class("InvalidArgumentError", INVALID_ARGUMENT)
DeadlineExceededError = _error_class("DeadlineExceededError", DEADLINE_EXCEEDED)
NotFoundError = _error_class("NotFoundError", NOT_FOUND)
AlreadyExistsError = _error_class("AlreadyExistsError", ALREADY_EXISTS)
PermissionDeniedError = _error_class("PermissionDeniedError", PERMISSION_DENIED)
UnauthenticatedError = _error_class("UnauthenticatedError", UNAUTHENTICATED)
ResourceExhaustedError = _error_class("ResourceExhaustedError", RESOURCE_EXHAUSTED)
FailedPreconditionError = _error_class("FailedPreconditionError", FAILED_PRECONDITION)
AbortedError = _error_class("AbortedError", ABORTED)
OutOfRangeError = _error_class("OutOfRangeError", OUT_OF_RANGE)
UnimplementedError = _error_class("UnimplementedError", UNIMPLEMENTED)
InternalError = _error_class("InternalError", INTERNAL)
UnavailableError = _error_class("UnavailableError", UNAVAILABLE)
DataLossError = _error_class("DataLossError", DATA_LOSS)


def invalid_argument(message):
  """An `InvalidArgumentError` with no node, as eager ops raise it."""
  return InvalidArgumentError(None, None, message)


building_function = [0]  # > 0 while a tf.function is traced (see eager/function.py)


def op_error(message, op_name):
  """The error of an op whose arguments TF refuses before computing (its shape function):
  InvalidArgumentError "message [Op:name]" when executing eagerly; ValueError while a
  tf.function is traced, where TF builds a graph and shape inference raises."""
  if not building_function[0]:
    return invalid_argument("%s [Op:%s]" % (message, op_name))
  dtype = _DTYPE_NOT_ALLOWED.match(message)
  if dtype:  # TF's op-definition check: a TypeError
    error = TypeError("Value for attr '%s' of %s has DataType %s not in list of allowed "
                      "values: %s" % (dtype.group(1), op_name, dtype.group(2), dtype.group(3)))
  else:
    error = ValueError("%s for '{{node %s}}'" % (message, op_name))
  error.graph_construction = True
  return error


_DTYPE_NOT_ALLOWED = re.compile(r"Value for attr '(\w+)' of (\w+) is not in the list of "
                                r"allowed values: (.*)")


@contextlib.contextmanager
def at_run_time():
  """Errors made inside are those of TF's kernels at run time (a value they refuse), also
  while a tf.function is traced."""
  saved, building_function[0] = building_function[0], 0
  try:
    yield
  finally:
    building_function[0] = saved


for _name, _value in list(globals().items()):
  if _name.isupper() or (isinstance(_value, type) and issubclass(_value, OpError)):
    export("errors." + _name)(_value)
export("OpError")(OpError)


_CODE_TO_EXCEPTION_CLASS = {cls(None, None, "").error_code: cls for cls in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, UnauthenticatedError, ResourceExhaustedError,
    FailedPreconditionError, AbortedError, OutOfRangeError, UnimplementedError, InternalError,
    UnavailableError, DataLossError)}
_EXCEPTION_CLASS_TO_CODE = {cls: code for code, cls in _CODE_TO_EXCEPTION_CLASS.items()}


@export("errors.exception_type_from_error_code")
def exception_type_from_error_code(error_code):
  """The OpError subclass of a TF error code (KeyError for OK or an unknown code)."""
  return _CODE_TO_EXCEPTION_CLASS[error_code]


@export("errors.error_code_from_exception_type")
def error_code_from_exception_type(cls):
  """The TF error code of an OpError subclass. Like TF, an unknown class warns and gives an
  `UnknownError` instance instead of a code."""
  try:
    return _EXCEPTION_CLASS_TO_CODE[cls]
  except KeyError:
    warnings.warn("Unknown class exception")
    return UnknownError(None, None, "Unknown class exception", None)


class _Status:
  """What `raise_exception_on_not_ok_status()` yields: a status to set `code` / `message` on."""

  def __init__(self):
    self.code, self.message = OK, ""


@export("errors.raise_exception_on_not_ok_status")
class raise_exception_on_not_ok_status:  # pylint: disable=invalid-name
  """Context manager yielding a status; leaving it raises the OpError of a non-OK code."""

  def __enter__(self):
    self.status = _Status()
    return self.status

  def __exit__(self, type_arg, value_arg, traceback_arg):
    status, self.status = self.status, None
    if status.code != OK:
      raise exception_type_from_error_code(status.code)(None, None, status.message)
    return False
