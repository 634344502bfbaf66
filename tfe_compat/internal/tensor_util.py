"""`tensorflow.python.framework.tensor_util`: the TensorProto helpers under their internal
names (`tf.make_tensor_proto`, `tf.make_ndarray`, `tf.get_static_value`)."""


def MakeNdarray(tensor):  # pylint: disable=invalid-name
  import tfe_compat  # pylint: disable=import-outside-toplevel
  return tfe_compat.make_ndarray(tensor)


def constant_value(tensor, partial=False):
  import tfe_compat  # pylint: disable=import-outside-toplevel
  return tfe_compat.get_static_value(tensor, partial)
