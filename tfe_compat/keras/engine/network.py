"""The layer-graph part of `tf.keras.Model`: subclassed and functional models, `summary()`."""
import jax

from tfe_compat.keras.engine.base_layer import Layer, _call_parameters, _is_leaf
from tfe_compat.keras.engine.input_layer import InputLayer
from tfe_compat.keras.engine.keras_tensor import KerasTensor


def _is_symbolic(x):
  return isinstance(x, KerasTensor)


def _topological_nodes(outputs):
  """The nodes that produce `outputs`, each after the nodes its inputs come from."""
  order, seen = [], set()

  def visit(tensor):
    node = tensor.node
    if node is None or id(node) in seen:
      return
    seen.add(id(node))
    for parent in jax.tree_util.tree_leaves(node.inputs, is_leaf=_is_symbolic):
      if _is_symbolic(parent):
        visit(parent)
    order.append(node)

  for tensor in jax.tree_util.tree_leaves(outputs, is_leaf=_is_symbolic):
    visit(tensor)
  return order


def _inbound(node):
  return [x for x in jax.tree_util.tree_leaves(node.inputs, is_leaf=_is_symbolic)
          if _is_symbolic(x) and x.node is not None]


def _keras_layer_order(inputs, outputs):
  """The layers of a functional graph in Keras's order (its `_map_graph_network`): by
  decreasing depth from the outputs, then by first visit from the outputs. `model.layers`,
  `summary()` and HDF5 weight files follow it."""
  first_visit, finished, post_order = {}, set(), []

  def visit(tensor):
    node = tensor.node
    if id(node) in finished:
      return
    first_visit.setdefault(id(node.layer), len(first_visit))
    for parent in _inbound(node):
      visit(parent)
    finished.add(id(node))
    post_order.append(node)

  for output in jax.tree_util.tree_leaves(outputs, is_leaf=_is_symbolic):
    visit(output)
  node_depth, layer_depth, layers = {}, {}, {}
  for node in reversed(post_order):
    depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.layer), 0))
    layer_depth[id(node.layer)] = node_depth[id(node)] = depth
    layers[id(node.layer)] = node.layer
    for parent in _inbound(node):
      node_depth[id(parent.node)] = max(depth + 1, node_depth.get(id(parent.node), 0))
  for tensor in jax.tree_util.tree_leaves(inputs, is_leaf=_is_symbolic):
    layer = tensor.node.layer  # an input the outputs do not depend on
    if id(layer) not in layers:
      layers[id(layer)], layer_depth[id(layer)], first_visit[id(layer)] = layer, 0, -1
  return sorted(layers.values(), key=lambda l: (-layer_depth[id(l)], first_visit[id(l)]))


class Network(Layer):
  """A layer made of layers: a subclassed model, or a functional graph of layer calls."""

  def _checkpoint_dependencies(self):
    """Functional and Sequential models save their layers by position, as Keras does."""
    if self._is_graph_network or "_stack" in vars(self):
      return [("layer-%d" % i, layer) for i, layer in enumerate(self.layers)]
    return []

  def __init__(self, *args, **kwargs):
    inputs = kwargs.pop("inputs", args[0] if args else None)
    outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
    self._is_graph_network = inputs is not None and outputs is not None
    if self._is_graph_network:
      self._init_graph_network(inputs, outputs, **kwargs)
    else:
      super().__init__(**kwargs)

  def _init_graph_network(self, inputs, outputs, name=None, **kwargs):
    super().__init__(name=name, **kwargs)
    self.inputs, self.outputs = inputs, outputs
    self._nodes = _topological_nodes(outputs)
    flat_inputs = jax.tree_util.tree_leaves(inputs, is_leaf=_is_symbolic)
    if not all(_is_symbolic(x) for x in flat_inputs):
      raise ValueError("Input tensors to a Model must come from `tf.keras.Input`.")
    self._graph_layers = _keras_layer_order(inputs, outputs)
    self.built = True

  @property
  def layers(self):
    if self._is_graph_network:
      return list(self._graph_layers)
    return [layer for layer in self._layers]

  def get_layer(self, name=None, index=None):
    if index is not None:
      if len(self.layers) <= index:
        raise ValueError("Was asked to retrieve layer at index %d but model only has %d "
                         "layers." % (index, len(self.layers)))
      return self.layers[index]
    for layer in self.layers:
      if layer.name == name:
        return layer
    raise ValueError("No such layer: " + str(name))

  def get_config(self):
    """Keras's config of a functional model (subclassed models have none, as in TF)."""
    if not self._is_graph_network:
      raise NotImplementedError
    from tfe_compat.keras import saving  # pylint: disable=import-outside-toplevel  (a cycle)
    return saving.functional_config(self)

  @classmethod
  def from_config(cls, config, custom_objects=None):
    from tfe_compat.keras import saving  # pylint: disable=import-outside-toplevel  (a cycle)
    return saving.functional_from_config(cls, config, custom_objects)

  def to_json(self, **kwargs):
    from tfe_compat.keras import saving  # pylint: disable=import-outside-toplevel  (a cycle)
    return saving.to_json(self, **kwargs)

  def reset_states(self):
    """Resets every stateful layer; returns None (TF 1.x text generation relied on that)."""
    for layer in self.layers:
      if hasattr(layer, "reset_states") and getattr(layer, "stateful", False):
        layer.reset_states()

  def _tracked_values(self):
    values = super()._tracked_values()
    if self._is_graph_network:
      ids = {id(v) for v in values}
      values += [layer for layer in self._graph_layers if id(layer) not in ids]
    return values

  def call(self, inputs, training=None, mask=None):
    if not self._is_graph_network:
      raise NotImplementedError("When subclassing the `Model` class, you should implement a "
                                "`call` method.")
    return self._run_graph(inputs, training)

  def _run_graph(self, inputs, training):
    values = {}
    symbolic = jax.tree_util.tree_leaves(self.inputs, is_leaf=_is_symbolic)
    given = jax.tree_util.tree_leaves(inputs, is_leaf=_is_leaf)
    if len(given) != len(symbolic):
      raise ValueError("Model %s expects %d input(s), but it received %d input tensors."
                       % (self.name, len(symbolic), len(given)))
    for x, value in zip(symbolic, given):
      values[id(x)] = value
    for node in self._nodes:
      if isinstance(node.layer, InputLayer):
        continue
      args = jax.tree_util.tree_map(lambda x: values[id(x)] if _is_symbolic(x) else x,
                                    node.inputs, is_leaf=_is_symbolic)
      kwargs = dict(node.kwargs)
      accepts_training, _, accepts_any = _call_parameters(type(node.layer))
      if (accepts_training or accepts_any) and "training" not in kwargs:
        kwargs["training"] = training
      outputs = node.layer(args, *node.args, **kwargs)
      for x, value in zip(jax.tree_util.tree_leaves(node.outputs, is_leaf=_is_symbolic),
                          jax.tree_util.tree_leaves(outputs, is_leaf=_is_leaf)):
        values[id(x)] = value
    return jax.tree_util.tree_map(lambda x: values[id(x)], self.outputs, is_leaf=_is_symbolic)

  # ---- summary() in TF 1.15's format ----
  def _output_shape_text(self, layer):
    shapes = [x.shape for x in _layer_outputs(self, layer)]
    if not shapes:
      return "multiple"
    text = [str(tuple(s.as_list())) for s in shapes]
    return text[0] if len(text) == 1 else "[" + ", ".join(text) + "]"

  def summary(self, line_length=None, positions=None, print_fn=None):
    """Prints the Keras table of layers, output shapes and parameter counts."""
    if not self.built:
      raise ValueError("This model has not yet been built. Build the model first by calling "
                       "`build()` or calling `fit()` with some data, or specify an "
                       "`input_shape` argument in the first layer(s) for automatic build.")
    print_fn = print_fn or print
    sequential_like = not self._is_graph_network or all(
        len([n for n in self._nodes if n.layer is layer]) <= 1 for layer in self.layers)
    line_length = line_length or (65 if sequential_like else 98)
    positions = positions or ([.45, .85, 1.] if sequential_like else [.33, .55, .67, 1.])
    if positions[-1] <= 1:
      positions = [int(line_length * p) for p in positions]
    headers = ["Layer (type)", "Output Shape", "Param #"]
    if not sequential_like:
      headers.append("Connected to")

    def row(fields):
      line = ""
      for i, (field, end) in enumerate(zip(fields, positions)):
        if i > 0:
          line = line[:-1] + " "
        line = (line + str(field))[:end].ljust(end)
      print_fn(line)

    print_fn('Model: "%s"' % self.name)
    print_fn("_" * line_length)
    row(headers)
    print_fn("=" * line_length)
    layers = self.layers
    for i, layer in enumerate(layers):
      fields = ["%s (%s)" % (layer.name, type(layer).__name__),
                self._output_shape_text(layer), layer.count_params() if layer.built else 0]
      if not sequential_like:
        fields.append(", ".join(_inbound_names(self, layer)))
      row(fields)
      print_fn(("=" if i == len(layers) - 1 else "_") * line_length)
    trainable = int(sum(_size(v) for v in self.trainable_weights))
    total = int(sum(_size(v) for v in self.weights))
    print_fn("Total params: {:,}".format(total))
    print_fn("Trainable params: {:,}".format(trainable))
    print_fn("Non-trainable params: {:,}".format(total - trainable))
    print_fn("_" * line_length)


def _size(variable):
  count = 1
  for d in variable.shape.as_list():
    count *= d
  return count


def _layer_outputs(network, layer):
  """The KerasTensors `layer` produced inside `network` (empty when unknown)."""
  if isinstance(layer, InputLayer):
    return [layer.output]
  nodes = getattr(network, "_nodes", None) or []
  return [x for node in nodes if node.layer is layer
          for x in jax.tree_util.tree_leaves(node.outputs, is_leaf=_is_symbolic)]


def _inbound_names(network, layer):
  names = []
  for node in getattr(network, "_nodes", None) or []:
    if node.layer is layer and node.inputs is not None:
      for x in jax.tree_util.tree_leaves(node.inputs, is_leaf=_is_symbolic):
        if _is_symbolic(x) and x.node is not None:
          names.append("%s[0][0]" % x.node.layer.name)
  return names
