"""`tf.keras.mixed_precision.experimental`: dtype policies (`Policy`, `global_policy`,
`set_policy`) and the variables that cast themselves inside a layer's call.

A layer with a policy whose compute and variable dtypes differ ('mixed_float16') casts its
floating inputs to the compute dtype, keeps float32 variables and reads them, inside its
`call`, in the compute dtype (TF's AutoCastVariable). The loss scale optimizer is in
tfe_compat.train.loss_scale.
"""
import contextlib

from tfe_compat import variables
from tfe_compat.framework import dtypes
from tfe_compat.framework.api import export
from tfe_compat.ops import matmul_cast_ops
from tfe_compat.train import loss_scale as loss_scale_module

_USE_DEFAULT = "USE_DEFAULT"
_state = {"policy": None, "autocast": None}  # the global policy; the dtype reads cast to


@export("keras.mixed_precision.experimental.Policy")
class Policy:
  """A layer's compute and variable dtypes: 'float32' (any dtype name), 'mixed_float16',
  'mixed_bfloat16', 'infer' (the dtype of the first input), '<dtype>_with_float32_vars',
  'infer_float32_vars'."""

  def __init__(self, name, loss_scale=_USE_DEFAULT):
    if isinstance(name, dtypes.DType):
      raise TypeError("'name' must be a string, not a DType. Instead, pass DType.name. "
                      "Got: %s" % (name.name,))
    if not isinstance(name, str):
      raise TypeError("'name' must be a string, but got: %s" % (name,))
    self._name = name
    self._compute_dtype, self._variable_dtype = self._parse_name(name)
    if loss_scale == _USE_DEFAULT:
      loss_scale = "dynamic" if name == "mixed_float16" else None
      self._using_default_loss_scale = True
    else:
      self._using_default_loss_scale = False
    self._loss_scale = loss_scale_module.get(loss_scale)

  @staticmethod
  def _parse_name(name):
    if name == "mixed_float16":
      return "float16", "float32"
    if name == "mixed_bfloat16":
      return "bfloat16", "float32"
    base, float32_vars = name, False
    if name == "infer_float32_vars":
      base, float32_vars = "infer", True
    elif name.endswith("_with_float32_vars"):
      base, float32_vars = name[:-len("_with_float32_vars")], True
    if base == "infer":
      return None, "float32" if float32_vars else None
    try:
      dtype = dtypes.as_dtype(base).name
    except TypeError:
      raise ValueError("Cannot convert value %s to a mixed precision Policy. Valid policies "
                       "include include 'mixed_float16', 'mixed_bfloat16', and the name of "
                       "any dtype such as 'float32'." % (name,)) from None
    return dtype, "float32" if float32_vars else dtype

  variable_dtype = property(lambda self: self._variable_dtype)
  compute_dtype = property(lambda self: self._compute_dtype)
  should_cast_variables = property(lambda self: self._variable_dtype != self._compute_dtype)
  loss_scale = property(lambda self: self._loss_scale)
  name = property(lambda self: self._name)

  def __repr__(self):
    return '<Policy "%s", loss_scale=%s>' % (self._name, self._loss_scale)

  def get_config(self):
    config = {"name": self._name}
    if not self._using_default_loss_scale:
      scale = self._loss_scale
      config["loss_scale"] = None if scale is None else {
          "class_name": type(scale).__name__, "config": scale.get_config()}
    return config

  @classmethod
  def from_config(cls, config, custom_objects=None):  # pylint: disable=unused-argument
    config = dict(config)
    scale = config.get("loss_scale")
    if isinstance(scale, dict):
      classes = {"FixedLossScale": loss_scale_module.FixedLossScale,
                 "DynamicLossScale": loss_scale_module.DynamicLossScale}
      config["loss_scale"] = classes[scale["class_name"]].from_config(scale["config"])
    return cls(**config)


@export("keras.mixed_precision.experimental.global_policy")
def global_policy():
  """The policy of layers made without a dtype: the one `set_policy` set, else 'infer'."""
  return _state["policy"] or Policy("infer")


@export("keras.mixed_precision.experimental.set_policy")
def set_policy(policy):
  """Sets the global policy (a Policy or a policy name; None: back to the default)."""
  if policy is not None and not isinstance(policy, Policy):
    policy = Policy(policy)
  _state["policy"] = policy


def layer_policy(dtype):
  """The policy a layer made with `dtype` follows, or None for plain dtype handling."""
  if isinstance(dtype, Policy):
    return dtype
  if isinstance(dtype, dict) and dtype.get("class_name") == "Policy":
    return Policy.from_config(dtype["config"])
  if dtype is None and _state["policy"] is not None:
    return _state["policy"]
  return None


@contextlib.contextmanager
def autocast(dtype):
  """Inside: AutoCastVariables read as `dtype`."""
  previous = _state["autocast"]
  _state["autocast"] = dtype
  try:
    yield
  finally:
    _state["autocast"] = previous


class AutoCastVariable(variables.ResourceVariable):
  """A float32 variable of a mixed-precision layer, read in the compute dtype inside the
  layer's call (the class of the variables `add_weight` makes there)."""

  def _as_tensor(self, dtype=None):
    value = variables.read(self)
    target = _state["autocast"]
    if target is not None and target is not self._dtype:
      value = matmul_cast_ops.cast(value, target)
    if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
      raise ValueError("Incompatible type conversion requested to type %s for AutoCastVariable "
                       "which is casted to type %s" % (dtypes.as_dtype(dtype).name,
                                                       value.dtype.name))
    return value

  def value(self):
    return self._as_tensor()

  def read_value(self):
    return self._as_tensor()

  def __repr__(self):
    return "<AutoCastVariable '%s' shape=%s dtype=%s true_dtype=%s, numpy=%s>" % (
        self.name, self._shape, self._dtype.name, self._dtype.name, self.numpy())


def _delegate(name):
  def method(self, *args):
    return getattr(self._as_tensor(), name)(*args)
  method.__name__ = name
  return method


for _name in variables._OPERATORS:  # pylint: disable=protected-access
  setattr(AutoCastVariable, _name, _delegate(_name))


def make_autocast(variable):
  """Turns a layer's new floating variable into an AutoCastVariable."""
  variable.__class__ = AutoCastVariable
  return variable
