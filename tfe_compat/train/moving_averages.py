"""`tf.train.ExponentialMovingAverage` as TF 1.15 runs it eagerly: `apply()` updates shadow
variables at once (and returns None); only Variables can be averaged."""
from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework import graph
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.ops import math_ops
from tfe_compat.ops.matmul_cast_ops import cast

_AVERAGED_DTYPES = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


@export("train.ExponentialMovingAverage")
class ExponentialMovingAverage:
  """Shadow variables following `shadow -= (1 - decay) * (shadow - variable)`; with
  `num_updates`, the decay is min(decay, (1 + num_updates) / (10 + num_updates))."""

  def __init__(self, decay, num_updates=None, zero_debias=False,
               name="ExponentialMovingAverage"):
    self._decay, self._num_updates = decay, num_updates
    self._zero_debias, self._name = zero_debias, name  # debiasing is for Tensors (graph mode)
    self._averages = {}  # variable id -> (variable, shadow)

  name = property(lambda self: self._name)

  def apply(self, var_list=None):
    """Creates the shadow variables of new `var_list` entries (initialized to the variables'
    values), then moves every shadow one step towards its variable."""
    var_list = [] if var_list is None else list(var_list)  # no variable collections eagerly
    for var in var_list:
      if not hasattr(var, "_as_tensor"):
        raise TypeError("tf.train.ExponentialMovingAverage does not support non-Variable "
                        "tensors when eager execution is enabled.")
      if var.dtype.base_dtype not in _AVERAGED_DTYPES:
        raise TypeError("The variables must be half, float, or double: %s" % var.name)
    for var in var_list:
      if id(var) not in self._averages:
        shadow = variables.Variable(var.read_value(), trainable=False,
                                    name=self.average_name(var))
        self._averages[id(var)] = (var, shadow)
        graph.add_to_collection("moving_average_variables", var)
    decay = ops.convert_to_tensor(self._decay, dtypes.float32)
    if self._num_updates is not None:
      count = cast(self._num_updates, dtypes.float32)
      decay = math_ops.minimum(decay, (1.0 + count) / (10.0 + count))
    for var in var_list:
      shadow = self._averages[id(var)][1]
      rate = cast(1.0 - decay, shadow.dtype)
      shadow.assign_sub((shadow - var) * rate)

  def average(self, var):
    """The shadow variable of `var`, or None."""
    entry = self._averages.get(id(var))
    return entry[1] if entry is not None and entry[0] is var else None

  def average_name(self, var):
    """The shadow variable's name: "<variable name>/<this object's name>"."""
    return "%s/%s" % (var.name.rsplit(":", 1)[0], self._name)

  def variables_to_restore(self, moving_avg_variables=None):
    """{shadow name: variable} for `moving_avg_variables` (default: those averaged)."""
    if moving_avg_variables is None:
      moving_avg_variables = [var for var, _ in self._averages.values()]
    return {self.average_name(v): v for v in moving_avg_variables}
