"""`tf.random` code built on Variables: `tf.random.experimental.Generator`
(stateful_random_ops.py). The stateless random ops (`tf.random.normal`, ...) are in
ops/random_ops.py, below the Variable layer."""
