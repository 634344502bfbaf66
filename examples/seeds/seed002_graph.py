# Seed 002 (Eager Execution guide), "Use eager execution in a graph environment": the
# tfe.py_func block, verbatim, in a program that never enables eager execution; the last
# line is wrapped in print() so its value shows.
import tensorflow as tf
import tensorflow.contrib.eager as tfe


def my_py_func(x):
  x = tf.matmul(x, x)  # 你可以使用 tf ops
  print(x)  # 但这是 eager！
  return x

with tf.Session() as sess:
  x = tf.placeholder(dtype=tf.float32)
  # 在图形中调用 eager 函数
  pf = tfe.py_func(my_py_func, [x], tf.float32)
  print(sess.run(pf, feed_dict={x: [[2.0]]}))  # [[4.0]]
