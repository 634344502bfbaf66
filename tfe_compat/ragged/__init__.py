"""`tf.RaggedTensor` and `tf.ragged` (TF 1.15), with the dispatch of TF's ragged-aware ops
(elementwise math, reductions, concat/stack, gather, ...). `tf.RaggedTensorSpec` lives with
the other TypeSpecs in data/type_specs.py."""
from tfe_compat.ragged import (ragged_array_ops, ragged_dispatch, ragged_factory_ops,  # noqa: F401
                               ragged_getitem, ragged_math_ops, ragged_tensor,
                               ragged_tensor_value)
from tfe_compat.ragged.ragged_tensor import RaggedTensor  # noqa: F401
