"""`tf.nn` code built on Keras layers: `tf.nn.rnn_cell` (rnn_cell.py, with dynamic_rnn and the
bidirectional RNNs) and `tf.contrib.cudnn_rnn` (cudnn_rnn.py). The tf.nn ops themselves are in
ops/ (nn_ops.py, nn_impl.py, ctc_ops.py, ...), below the Keras layer."""
