"""`tf.train.sdca_fprint` (FarmHash Fingerprint128 example ids, bit-exact with TF's kernel);
`sdca_optimizer` and `sdca_shrink_l1` are not supported."""
import jax.numpy as jnp
import numpy as np

from tfe_compat.framework import errors
from tfe_compat.framework.api import export
from tfe_compat.framework.tensor import Tensor
from tfe_compat.ops import string_hash_ops


@export("train.sdca_fprint")
def sdca_fprint(input, name=None):  # pylint: disable=redefined-builtin
  """int64 [n, 2]: the Fingerprint128 (low64, high64) of each string of the vector `input`;
  a low64 below 2 is moved up by 2^64 - 2 (0 and 1 stay free as sentinels)."""
  strings = string_hash_ops._strings(input)  # pylint: disable=protected-access
  if strings.ndim != 1:
    raise errors.invalid_argument("Input must be a vector, got shape [%s] [Op:SdcaFprint]"
                                  % ",".join(map(str, strings.shape)))
  hashes = string_hash_ops.fingerprint128_many([bytes(s) for s in strings.tolist()])
  low = hashes[:, 0]
  hashes[:, 0] = np.where(low >= 2, low, low + np.uint64(2**64 - 2))
  return Tensor(jnp.asarray(hashes.view(np.int64)))


@export("train.sdca_optimizer")
def sdca_optimizer(sparse_example_indices, sparse_feature_indices, sparse_feature_values,
                   dense_features, example_weights, example_labels, sparse_indices,
                   sparse_weights, dense_weights, example_state_data, loss_type, l1, l2,
                   num_loss_partitions, num_inner_iterations, adaptative=True, name=None):
  """TF's SdcaOptimizer kernel (stochastic dual coordinate ascent): not supported."""
  raise NotImplementedError("tfe_compat does not implement tf.train.sdca_optimizer (TF's "
                            "SDCA solver kernel); train the linear model with a "
                            "tf.train optimizer instead.")


@export("train.sdca_shrink_l1")
def sdca_shrink_l1(weights, l1, l2, name=None):
  """Raises TF's eager error: the op updates reference variables (graph mode only)."""
  raise RuntimeError("sdca_shrink_l1 op does not support eager execution. Arg 'weights' is a "
                     "ref.")
