# Seed 000 (eager execution notes): the "# graph" block, run in a Python session without
# eager execution, with its two typos corrected (`tf.float.32` -> `tf.float32`,
# `shape[1,1]` -> `shape=[1,1]`).
import tensorflow as tf

x = tf.placeholder(tf.float32,shape=[1,1])
m = tf.matmul(x,x)
with tf.Session() as sess:
  print(sess.run(m, feed_dict={x: [[2.]]}))

# Will print [[4.]]
