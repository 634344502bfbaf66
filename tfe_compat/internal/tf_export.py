"""`tensorflow.python.util.tf_export`: the decorators TF puts on its public symbols. Outside
TensorFlow's own build they only record the names (`_tf_api_names`)."""


class api_export:  # pylint: disable=invalid-name
  """`@tf_export("name", v1=[...])`: records the API names on the decorated object."""

  def __init__(self, *args, **kwargs):
    self._names = args
    self._names_v1 = kwargs.get("v1", args)
    self._api_name = kwargs.get("api_name", "tensorflow")

  def __call__(self, func):
    attr = "_%s_api_names" % ("tf" if self._api_name == "tensorflow" else self._api_name)
    try:
      setattr(func, attr, tuple(self._names))
      setattr(func, attr + "_v1", tuple(self._names_v1))
    except (AttributeError, TypeError):
      pass
    return func

  def export_constant(self, module_name, name):  # pylint: disable=unused-argument
    pass


tf_export = api_export
keras_export = api_export
estimator_export = api_export
