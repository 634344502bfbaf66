"""tf.distribute: MirroredStrategy / OneDeviceStrategy over JAX sharding, contexts, reduce."""
from tfe_compat.distribute import distribute_lib, mirrored_strategy  # noqa: F401
from tfe_compat.distribute import cluster_resolver, experimental  # noqa: F401
