"""TF 1.x while loops in imported graphs: each loop frame as one operation (graph_import.py).

TensorFlow 1.x writes `tf.while_loop` (and `tf.nn.dynamic_rnn`, which loops over
TensorArrays) as a frame of nodes: an `Enter` per loop variable and per loop-invariant input
(`is_constant`), a `Merge` of each variable's initial value and its `NextIteration`, the
condition ending in `LoopCond`, a `Switch` per variable sending it into the body (true) or to
its `Exit` (false). `split_frames` replaces a frame's nodes by one node whose operation runs
`jax.lax.while_loop`: its condition and body evaluate the frame's nodes with the importer's
kernels (graph_kernels.py), on Tensors. The Exit nodes stay, as identities of its outputs.
TensorArrays (graph_kernels.py) are arrays of a fixed size, loop variables like the others.
A `tf.cond` inside a loop runs as graph_import_cond.py imports one (both branches, the live
one merged). Nested loops, loops' gradients (stack ops) and assignments inside a loop are
refused with a ValueError that says so.
"""
import jax
import jax.numpy as jnp
import numpy as np

from tfe_compat import graph_import_cond as cond
from tfe_compat import graph_kernels
from tfe_compat.framework.graph_util import node_name, tensor_name
from tfe_compat.framework.tensor import Tensor

FRAME_OP = "WhileLoop"  # the op type of a frame's operation
# The frame ops (their reference variants map to them), and op types a frame may not hold.
_LOOP_OPS = ("Enter", "Merge", "Switch", "LoopCond", "NextIteration", "Exit")
OP_TYPES = set(_LOOP_OPS) | {"Ref" + t for t in _LOOP_OPS if t != "LoopCond"}
_STATEFUL = ("Assign", "Apply", "ResourceApply", "Scatter", "ResourceScatter")


def _kind(node):
  """The node's loop op type (reference variants as the plain ones), else its op type."""
  op = node.op
  return op[3:] if op.startswith("Ref") and op[3:] in _LOOP_OPS else op


class _Loop:
  """One frame: its variables, its loop-invariant inputs and its nodes."""

  def __init__(self, name, members, by_name, decode):
    self.name, self.members = name, members
    nodes = [by_name[m] for m in sorted(members)]
    loop_cond = [n for n in nodes if _kind(n) == "LoopCond"]
    if len(loop_cond) != 1:
      raise ValueError("The while loop '%s' has %d LoopCond nodes, not one"
                       % (name, len(loop_cond)))
    self.pred = tensor_name(loop_cond[0].input[0])
    switches = {tensor_name(n.input[0]): n for n in nodes if _kind(n) == "Switch" and
                tensor_name(n.input[1]) == loop_cond[0].name + ":0"}
    exits = {tensor_name(n.input[0]): n for n in nodes if _kind(n) == "Exit"}
    self.env_keys, self.initial, self.next, self.exits = [], [], [], []
    structure = {n.name for n in nodes if _kind(n) in _LOOP_OPS and _kind(n) not in
                 ("Merge", "Switch")} | {n.name for n in switches.values()}
    for merge in nodes:  # a loop variable's Merge: of its Enter and its NextIteration
      sources = [by_name[node_name(i)] for i in merge.input]
      enter = [s for s in sources if _kind(s) == "Enter"]
      after = [i for i, s in zip(merge.input, sources) if _kind(s) == "NextIteration"]
      if _kind(merge) != "Merge" or not enter:  # else a tf.cond's Merge inside the loop
        continue
      switch = switches.get(merge.name + ":0")
      if len(enter) != 1 or len(after) != 1 or switch is None:
        raise ValueError("The while loop '%s' has a Merge ('%s') that tfe_compat does not "
                         "know as a loop variable's" % (name, merge.name))
      structure.add(merge.name)
      self.initial.append(tensor_name(enter[0].input[0]))
      self.next.append(tensor_name(by_name[node_name(after[0])].input[0]))
      self.env_keys.append([merge.name + ":0", switch.name + ":0", switch.name + ":1"])
      self.exits.append(exits.get(switch.name + ":0"))
    self.invariant, self.controls, self.nodes = [], [], {}
    for node in nodes:
      kind = _kind(node)
      if kind == "Enter" and "is_constant" in node.attr and node.attr["is_constant"].b:
        self.invariant.append((node.name + ":0", tensor_name(node.input[0])))
      elif node.name not in structure:
        if node.op.startswith(_STATEFUL):
          raise ValueError("tfe_compat does not import assignments inside a TF 1.x while "
                           "loop: '%s' (%s) in '%s'" % (node.name, node.op, name))
        attrs = {k: decode(v) for k, v in node.attr.items() if not k.startswith("_")}
        self.nodes[node.name] = (node, attrs)
      for i in node.input:
        if node_name(i) not in members:  # taken from outside: a loop invariant
          if i.startswith("^"):
            self.controls.append(i)
          elif kind != "Enter":
            self.invariant.append((tensor_name(i), tensor_name(i)))
    self.device = next(n.device for n in nodes if _kind(n) == "Enter")
    known = {k for keys in self.env_keys for k in keys} | {k for k, _ in self.invariant}
    self.cond_order = self._order([self.pred], known)
    self.body_order = self._order(self.next, known)

  def _order(self, targets, known):
    """The frame's nodes that `targets` need (their control inputs too: a conditional's
    branch runs where they are live), each after those it takes inputs from."""
    order, seen = [], set()
    stack = [(node_name(t), False) for t in targets if t not in known]
    while stack:
      name, ready = stack.pop()
      if ready:
        order.append(name)
        continue
      if name in seen:
        continue
      if name not in self.nodes:
        raise ValueError("The while loop '%s' uses '%s', which tfe_compat cannot evaluate in "
                         "its condition or body" % (self.name, name))
      seen.add(name)
      stack.append((name, True))
      for i in self.nodes[name][0].input:
        if i.startswith("^") and node_name(i) in self.nodes or \
            not i.startswith("^") and tensor_name(i) not in known:
          stack.append((node_name(i), False))
    return order

  def _run(self, order, env):
    """Evaluates the nodes in `order` into `env` (tensor keys -> Tensors). A tf.cond inside
    the loop runs as graph_import_cond.py imports one: both branches, the live one merged."""
    live = {}  # node name -> where it runs (a boolean Tensor), behind a Switch in the loop
    for name in order:
      node, attrs = self.nodes[name]
      keys = [tensor_name(i) for i in node.input if not i.startswith("^")]
      inputs = [env[k] for k in keys]
      flag = None
      for i in node.input:  # a control input: its node's liveness; a data input: its own
        source = node_name(i) if i.startswith("^") else tensor_name(i)
        flag = cond.both(flag, live.get(source))
      kind = _kind(node)
      if kind == "Switch":
        out, flags = [inputs[0]] * 2, list(cond.switch_lives(inputs[1], flag))
      elif kind == "Merge":
        lives = [live.get(k) for k in keys]
        out = list(cond.select_live(inputs, lives))
        flag = cond.merged_live(lives)
        flags = [flag] * 2
      else:
        out = _evaluate(node, inputs, attrs)
        flags = [flag] * len(out)
      live[name] = flag
      for j, (x, f) in enumerate(zip(out, flags)):
        env["%s:%d" % (name, j)] = x
        live["%s:%d" % (name, j)] = f
    return env

  def node_def(self, node_def_class):
    """The NodeDef that stands for the frame: its inputs are the frame's inputs."""
    inputs = self.initial + [outer for _, outer in self.invariant]
    return node_def_class(name=self.name, op=FRAME_OP, device=self.device,
                          input=inputs + sorted(set(self.controls)))

  def kernel(self):
    """The frame's kernel: initial values and invariants -> the variables' final values."""
    count = len(self.initial)

    def run(*inputs):
      invariant = {inner: x for (inner, _), x in zip(self.invariant, inputs[count:])}

      def evaluate(values, order, targets):
        env = dict(invariant)
        for keys, value in zip(self.env_keys, values):
          env.update(dict.fromkeys(keys, Tensor(value)))
        env = self._run(order, env)
        return [env[t] for t in targets]

      def going_on(values):
        return jnp.reshape(evaluate(values, self.cond_order, [self.pred])[0]._value, ())

      def step(values):
        new = evaluate(values, self.body_order, self.next)
        return tuple(jnp.asarray(x._value, v.dtype) for x, v in zip(new, values))

      initial = tuple(jnp.asarray(x._value) for x in inputs[:count])
      initial = _fit_shapes(initial, jax.eval_shape(step, initial), self.name)
      return tuple(Tensor(x) for x in jax.lax.while_loop(going_on, step, initial))
    run.__name__ = FRAME_OP
    return run


def _evaluate(node, inputs, attrs):
  """The node's outputs (a list of Tensors), computed with its kernel."""
  if node.op == "Const":
    return [Tensor(np.asarray(attrs["value"]))]  # concrete: it may be an axis or a shape
  out = graph_kernels.KERNELS[node.op](*inputs, **attrs)
  return list(out) if isinstance(out, (tuple, list)) else [out]


def _fit_shapes(initial, after, name):
  """The initial values, an empty one (a TensorArray's flow whose element shape the graph left
  unknown) replaced by zeros of the shape the body gives it; other shapes must stay."""
  fitted = []
  for i, (value, spec) in enumerate(zip(initial, after)):
    if value.shape != spec.shape:
      if value.size:
        raise ValueError("The loop variable %d of the while loop '%s' changes its shape from "
                         "%s to %s: tfe_compat imports loops whose variables keep their shapes"
                         % (i, name, list(value.shape), list(spec.shape)))
      value = jnp.zeros(spec.shape, value.dtype)
    fitted.append(value)
  return tuple(fitted)


def split_frames(nodes, decode):
  """(nodes, frames): the GraphDef's nodes with each loop frame's nodes replaced by one node
  (the frame's name, op type FRAME_OP) and its Exit nodes by identities of its outputs;
  frames: {the frame's node name: its kernel}."""
  by_name = {n.name: n for n in nodes}
  frames = {}
  for node in nodes:
    if _kind(node) == "Enter":
      frames.setdefault(node.attr["frame_name"].s.decode(), []).append(node.name)
  if not frames:
    return nodes, {}
  consumers = {}
  for node in nodes:
    for i in node.input:
      consumers.setdefault(node_name(i), []).append(node.name)
  replaced, result, kernels = set(), [], {}
  node_def_class = type(nodes[0])
  for frame, enters in frames.items():
    members, stack = set(), list(enters)
    while stack:  # the nodes downstream of the frame's Enters, up to its Exits
      name = stack.pop()
      if name in members:
        continue
      node = by_name[name]
      if _kind(node) == "Enter" and node.attr["frame_name"].s.decode() != frame:
        raise ValueError("tfe_compat does not import nested TF 1.x while loops: the loop "
                         "'%s' is inside the loop '%s'" % (node.attr["frame_name"].s.decode(),
                                                           frame))
      members.add(name)
      if _kind(node) != "Exit":
        stack.extend(consumers.get(name, []))
    loop = _Loop(frame, members, by_name, decode)
    replaced |= members
    kernels[frame] = loop.kernel()
    result.append(loop.node_def(node_def_class))
    for k, exit_node in enumerate(loop.exits):
      if exit_node is not None:
        result.append(node_def_class(name=exit_node.name, op="Exit", device=exit_node.device,
                                     input=["%s:%d" % (frame, k)], attr=exit_node.attr))
  return [n for n in nodes if n.name not in replaced] + result, kernels
