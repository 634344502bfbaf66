"""`tf.keras.wrappers.scikit_learn`: KerasClassifier / KerasRegressor, scikit-learn style
estimators around a model-building function (scikit-learn itself is not needed)."""
import copy
import inspect
import types

import numpy as np

from tfe_compat.framework.api import export
from tfe_compat.keras import losses
from tfe_compat.keras.engine.sequential import Sequential
from tfe_compat.keras.utils import to_categorical


def _has_arg(fn, name):
  try:
    return name in inspect.signature(fn).parameters
  except (TypeError, ValueError):
    return False


def _is_categorical_crossentropy(loss):
  return (isinstance(loss, losses.CategoricalCrossentropy)
          or getattr(loss, "__name__", None) == "categorical_crossentropy"
          or loss == "categorical_crossentropy")


class BaseWrapper:
  """`build_fn(**params)` returns a compiled model; other `sk_params` go to fit/predict/..."""

  def __init__(self, build_fn=None, **sk_params):
    self.build_fn = build_fn
    self.sk_params = sk_params
    self.check_params(sk_params)

  def _build_function(self):
    if self.build_fn is None:
      return self.__call__  # pylint: disable=no-member
    if not isinstance(self.build_fn, (types.FunctionType, types.MethodType)):
      return self.build_fn.__call__
    return self.build_fn

  def check_params(self, params):
    """ValueError for a parameter that neither the build function nor fit/predict take."""
    legal = [Sequential.fit, Sequential.predict, Sequential.predict_classes,
             Sequential.evaluate, self._build_function()]
    for name in params:
      if not any(_has_arg(fn, name) for fn in legal) and name != "nb_epoch":
        raise ValueError("{} is not a legal parameter".format(name))

  def get_params(self, **params):  # pylint: disable=unused-argument
    res = copy.deepcopy(self.sk_params)
    res.update({"build_fn": self.build_fn})
    return res

  def set_params(self, **params):
    self.check_params(params)
    self.sk_params.update(params)
    return self

  def fit(self, x, y, **kwargs):
    """Builds the model and fits it (y one-hot encoded for categorical_crossentropy)."""
    build = self._build_function()
    self.model = (self.build_fn if self.build_fn is not None else build)(
        **self.filter_sk_params(build))
    if _is_categorical_crossentropy(self.model.loss) and len(y.shape) != 2:
      y = to_categorical(y)
    fit_args = copy.deepcopy(self.filter_sk_params(Sequential.fit))
    fit_args.update(kwargs)
    return self.model.fit(x, y, **fit_args)

  def filter_sk_params(self, fn, override=None):
    """The `sk_params` that `fn` takes, updated with `override`."""
    res = {name: value for name, value in self.sk_params.items() if _has_arg(fn, name)}
    res.update(override or {})
    return res


@export("keras.wrappers.scikit_learn.KerasClassifier")
class KerasClassifier(BaseWrapper):
  """A scikit-learn classifier: `classes_` from the labels given to `fit`."""

  def fit(self, x, y, **kwargs):
    y = np.array(y)
    if len(y.shape) == 2 and y.shape[1] > 1:
      self.classes_ = np.arange(y.shape[1])
    elif (len(y.shape) == 2 and y.shape[1] == 1) or len(y.shape) == 1:
      self.classes_ = np.unique(y)
      y = np.searchsorted(self.classes_, y)
    else:
      raise ValueError("Invalid shape for y: " + str(y.shape))
    self.n_classes_ = len(self.classes_)
    return super().fit(x, y, **kwargs)

  def predict(self, x, **kwargs):
    kwargs = self.filter_sk_params(Sequential.predict_classes, kwargs)
    return self.classes_[self.model.predict_classes(x, **kwargs)]

  def predict_proba(self, x, **kwargs):
    kwargs = self.filter_sk_params(Sequential.predict_proba, kwargs)
    probs = self.model.predict_proba(x, **kwargs)
    if probs.shape[1] == 1:  # binary: columns for class 0 and class 1
      probs = np.hstack([1 - probs, probs])
    return probs

  def score(self, x, y, **kwargs):
    """The model's accuracy on (x, y)."""
    y = np.searchsorted(self.classes_, y)
    kwargs = self.filter_sk_params(Sequential.evaluate, kwargs)
    loss_name = getattr(self.model.loss, "__name__", self.model.loss)
    if loss_name == "categorical_crossentropy" and len(y.shape) != 2:
      y = to_categorical(y)
    outputs = self.model.evaluate(x, y, **kwargs)
    if not isinstance(outputs, list):
      outputs = [outputs]
    for name, output in zip(self.model.metrics_names, outputs):
      if name in ("accuracy", "acc"):
        return output
    raise ValueError("The model is not configured to compute accuracy. You should pass "
                     "`metrics=[\"accuracy\"]` to the `model.compile()` method.")


@export("keras.wrappers.scikit_learn.KerasRegressor")
class KerasRegressor(BaseWrapper):
  """A scikit-learn regressor: `score` is minus the loss."""

  def predict(self, x, **kwargs):
    kwargs = self.filter_sk_params(Sequential.predict, kwargs)
    return np.squeeze(self.model.predict(x, **kwargs))

  def score(self, x, y, **kwargs):
    kwargs = self.filter_sk_params(Sequential.evaluate, kwargs)
    loss = self.model.evaluate(x, y, **kwargs)
    if isinstance(loss, list):
      return -loss[0]
    return -loss
