"""`tf.nn.raw_rnn` and `tf.nn.static_state_saving_rnn`: TF 1.15's RNN loops driven by a
`loop_fn` or a state saver, run eagerly one step at a time (TF runs them as a while_loop)."""
from tfe_compat import nest
from tfe_compat import variable_scope as vs
from tfe_compat.framework import dtypes
from tfe_compat.framework import ops
from tfe_compat.framework.api import export
from tfe_compat.nn import rnn_cell
from tfe_compat.ops import array_ops
from tfe_compat.ops import math_ops
from tfe_compat.ops import reduction_ops
from tfe_compat.ops.matmul_cast_ops import where
from tfe_compat.ops.tensor_array_ops import TensorArray


def _copy_finished(finished, current, candidate):
  """`candidate`, except that finished batch entries keep `current` (scalars: candidate)."""
  def copy(cur, cand):
    return cand if cur.shape.ndims == 0 else where(finished, cur, cand)
  return nest.map_structure(copy, current, candidate)


@export("nn.raw_rnn")
def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
  """Runs `cell` while `loop_fn(time, cell_output, cell_state, loop_state)` says some batch
  entry is unfinished; returns (emit TensorArray(s), final state, final loop state)."""
  if not (hasattr(cell, "state_size") and callable(cell)):
    raise TypeError("cell must be an RNNCell")
  if not callable(loop_fn):
    raise TypeError("loop_fn must be a callable")
  with vs.variable_scope(scope or "rnn"):
    time = ops.constant(0, dtype=dtypes.int32)
    finished, next_input, state, emit_structure, init_loop_state = loop_fn(
        time, None, None, None)
    loop_state = ops.constant(0) if init_loop_state is None else init_loop_state
    batch_size = nest.flatten(next_input)[0].shape.as_list()[0]
    nest.assert_same_structure(state, cell.state_size)
    state = nest.map_structure(ops.convert_to_tensor, state)
    if emit_structure is not None:
      flat_emit = nest.flatten(emit_structure)
      sizes = [e.shape.as_list() for e in flat_emit]
      emit_dtypes = [e.dtype for e in flat_emit]
    else:
      emit_structure = cell.output_size
      sizes = [[s] if isinstance(s, int) else list(s) for s in nest.flatten(emit_structure)]
      emit_dtypes = [nest.flatten(state)[0].dtype] * len(sizes)
    zero_emit = nest.pack_sequence_as(emit_structure, [
        array_ops.zeros([batch_size] + size, dtype) for size, dtype in zip(sizes, emit_dtypes)])
    emit_ta = nest.pack_sequence_as(emit_structure, [
        TensorArray(dtype, size=0, dynamic_size=True) for dtype in emit_dtypes])
    while not bool(reduction_ops.reduce_all(finished)):
      output, cell_state = cell(next_input, state)
      nest.assert_same_structure(state, cell_state)
      nest.assert_same_structure(cell.output_size, output)
      time = time + 1
      next_finished, next_input, next_state, emit, next_loop_state = loop_fn(
          time, output, cell_state, loop_state)
      nest.assert_same_structure(state, next_state)
      nest.assert_same_structure(emit_ta, emit)
      loop_state = loop_state if next_loop_state is None else next_loop_state
      emit = _copy_finished(finished, zero_emit, emit)
      state = _copy_finished(finished, state, next_state)
      emit_ta = nest.map_structure(lambda ta, e, t=time - 1: ta.write(t, e), emit_ta, emit)
      finished = math_ops.logical_or(finished, next_finished)
  return emit_ta, state, None if init_loop_state is None else loop_state


@export("nn.static_state_saving_rnn", "contrib.rnn.static_state_saving_rnn")
def static_state_saving_rnn(cell, inputs, state_saver, state_name, sequence_length=None,
                            scope=None):
  """`static_rnn` whose initial state is `state_saver.state(name)` and whose final state is
  handed to `state_saver.save_state(name, state)`, per name of `state_name`."""
  state_size = cell.state_size
  state_is_tuple = nest.is_nested(state_size)
  if state_is_tuple != nest.is_nested(state_name):
    raise ValueError("state_name should be the same type as cell.state_size.  state_name: %s, "
                     "cell.state_size: %s" % (str(state_name), str(state_size)))
  names = nest.flatten(state_name)
  if state_is_tuple:
    if len(names) != len(nest.flatten(state_size)):
      raise ValueError("#elems(state_name) != #elems(state_size): %d vs. %d"
                       % (len(names), len(nest.flatten(state_size))))
    initial_state = nest.pack_sequence_as(state_size, [state_saver.state(n) for n in names])
  else:
    initial_state = state_saver.state(state_name)
  outputs, state = rnn_cell.static_rnn(cell, inputs, initial_state=initial_state,
                                       sequence_length=sequence_length, scope=scope)
  for name, substate in zip(names, nest.flatten(state)):
    state_saver.save_state(name, substate)
  return outputs, state
