"""`tf.keras.backend.backend`, `get_session`, `set_session`: the Keras session. In graph
mode it runs the default graph and initializes the variables it has not seen before each
use (as TF 1.15's Keras does); under eager execution it is a `tf.Session` with no graph."""
from tfe_compat import graph_variables
from tfe_compat.client import session as session_lib
from tfe_compat.framework import context
from tfe_compat.framework import graph
from tfe_compat.framework.api import export

_session = {"session": None}


@export("keras.backend.backend")
def backend():
  """The name of the Keras backend: 'tensorflow'."""
  return "tensorflow"


@export("keras.backend.get_session")
def get_session(op_input_list=()):  # pylint: disable=unused-argument
  """The session set with `set_session`, else a `tf.Session` of the default graph; in graph
  mode, its uninitialized variables are initialized first."""
  session = _session["session"]
  default = graph.get_default_graph()
  if session is None or session.graph is not default or session._closed:
    session = _session["session"] = session_lib.Session(graph=default)
  if context.ctx.graph is not None and session.graph is default:
    variables = graph_variables.global_variables() + graph_variables.local_variables()
    fresh = [v for v in variables if v._id not in session._values]
    if fresh:
      session.run(graph_variables.variables_initializer(fresh))
  return session


@export("keras.backend.set_session")
def set_session(session):
  """Makes `session` the one `get_session` returns."""
  _session["session"] = session
