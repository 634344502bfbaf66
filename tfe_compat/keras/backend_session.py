"""`tf.keras.backend.backend`, `get_session`, `set_session`: under eager execution the Keras
session is a `tf.Session` (as TF 1.15 builds one), which has no graph to run."""
from tfe_compat.client import session as session_lib
from tfe_compat.framework import graph
from tfe_compat.framework.api import export

_session = {"session": None}


@export("keras.backend.backend")
def backend():
  """The name of the Keras backend: 'tensorflow'."""
  return "tensorflow"


@export("keras.backend.get_session")
def get_session(op_input_list=()):  # pylint: disable=unused-argument
  """The session set with `set_session`, else a `tf.Session` made once."""
  if _session["session"] is None:
    _session["session"] = session_lib.Session()
  return _session["session"]


@export("keras.backend.set_session")
def set_session(session):
  """Makes `session` the one `get_session` returns."""
  _session["session"] = session
