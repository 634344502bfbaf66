"""`tf.distributions` (TF 1.15's tensorflow/python/ops/distributions), also reachable as
`tf.contrib.distributions`: the distribution families, `kl_divergence` and `RegisterKL`."""
from tfe_compat.distributions import (bernoulli, beta, categorical, dirichlet,  # noqa: F401
                                      distribution, gamma, kullback_leibler, laplace,
                                      multinomial, normal, student_t, uniform)
