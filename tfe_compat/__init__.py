"""tfe_compat: TensorFlow 1.x eager-execution code, unchanged, on JAX.

`import tfe_compat as tf` gives the `tf` namespace; `tfe_compat.install()` (or `tfe-run
script.py`) makes `import tensorflow as tf` resolve here.
"""
import sys

from tfe_compat.framework import api as _api
from tfe_compat.framework import context as _context  # noqa: F401
from tfe_compat.framework import device as _device  # noqa: F401
from tfe_compat.framework import dtypes as _dtypes  # noqa: F401
from tfe_compat.framework import errors  # noqa: F401
from tfe_compat.framework import ops as _framework_ops  # noqa: F401
from tfe_compat.framework import tensor_shape as _tensor_shape  # noqa: F401
from tfe_compat.ops import (array_ops, check_ops, control_flow_ops,  # noqa: F401
                            functional_ops, gfile, image_ops, init_ops, linalg_ops,
                            logging_ops, manip_ops, math_ops, nn_ops, random_ops, reduction_ops,
                            script_ops, signal_ops, slicing, sort_ops, space_ops, string_ops)
from tfe_compat.ops import csv_ops  # noqa: F401  (tf.decode_csv, tf.strings.format)
from tfe_compat.ops import linalg_structure_ops  # noqa: F401  (transposes, bands, diagonals)
from tfe_compat.ops import image_metrics  # noqa: F401  (psnr, ssim, crop_and_resize, ...)
from tfe_compat.ops import string_hash_ops  # noqa: F401  (hash buckets, fingerprint)
from tfe_compat.ops import ctc_ops  # noqa: F401  (tf.nn.ctc_*)
from tfe_compat.ops import conv_extra_ops  # noqa: F401  (conv backprops, morphology, ...)
from tfe_compat.ops import sampled_ops  # noqa: F401  (candidate samplers, nce / sampled softmax)
from tfe_compat.ops import sparse_ops, sparse_math_ops  # noqa: F401  (tf.sparse, tf.sparse_*)
from tfe_compat.ops import image_boxes  # noqa: F401  (NMS variants, glimpses, JPEG quality)
from tfe_compat.ops import linear_operator  # noqa: F401  (tf.linalg.LinearOperator*)
from tfe_compat.ops import lookup_contrib_ops  # noqa: F401  (tf.contrib.lookup vocabulary tables)
from tfe_compat.ops import critical_section_ops, data_flow_ops  # noqa: F401  (tf.queue, ...)
from tfe_compat.framework import (compat as _compat_helpers, config as _config,  # noqa: F401
                                load_library as _load_library, resource_loader as _resource_loader,
                                versions as _versions)  # tf.config, tf.version, tf.compat.as_*, ...
from tfe_compat import ragged  # noqa: F401  (tf.RaggedTensor, tf.ragged, ragged op dispatch)
from tfe_compat.ragged import ragged_string_ops  # noqa: F401  (tf.strings split, unicode_*, ngrams)
from tfe_compat.ops import lookup_ops, lookup_mutable_ops, sparse_cross_ops  # noqa: F401  (tf.lookup)
from tfe_compat.framework import tensor_util as _tensor_util  # noqa: F401  (make_tensor_proto)
from tfe_compat import proto as _proto  # noqa: F401  (tf.AttrValue, tf.GraphDef, ...)
from tfe_compat.ops import io_ops as _io_ops, proto_ops as _proto_ops  # noqa: F401  (tf.io)
from tfe_compat.ops import (audio_ops, bitwise_ops, linalg_extra_ops,  # noqa: F401
                            nn_quantized_ops, quantization_ops, set_ops)
from tfe_compat import variables as _variables  # noqa: F401
from tfe_compat.contrib import metrics as _contrib_metrics  # noqa: F401
from tfe_compat.eager import backprop as _backprop  # noqa: F401
from tfe_compat.eager import custom_gradient as _custom_gradient  # noqa: F401
from tfe_compat.eager import function as _function  # noqa: F401
from tfe_compat.eager import wrap_function as _wrap_function  # noqa: F401
from tfe_compat.eager import tape as _tape  # noqa: F401
from tfe_compat.keras import (backend as _keras_backend, callbacks as _callbacks,  # noqa: F401
                              constraints as _constraints, datasets as _datasets,
                              preprocessing as _preprocessing, utils as _keras_utils)
from tfe_compat.keras import layers as _keras_layers  # noqa: F401
from tfe_compat.keras import backend_ops as _keras_backend_ops  # noqa: F401
from tfe_compat.keras import preprocessing_image as _preprocessing_image  # noqa: F401
from tfe_compat.nn import rnn_cell as _nn_rnn_cell  # noqa: F401
from tfe_compat.contrib import (contrib_extra as _contrib_extra,  # noqa: F401
                                layers_ops as _contrib_layers, network as _contrib_network,
                                rnn_extra as _contrib_rnn_extra,
                                training as _contrib_training)
from tfe_compat import layers as _tf_layers  # noqa: F401
from tfe_compat.keras.engine import (input_layer as _input_layer,  # noqa: F401
                                     sequential as _sequential, training as _training)
from tfe_compat.keras import saving as _keras_saving  # noqa: F401  (model files, configs)
from tfe_compat.keras import losses as _keras_losses, metrics as _keras_metrics  # noqa: F401
from tfe_compat.keras import metrics_confusion as _keras_metrics_confusion  # noqa: F401
from tfe_compat import app, template as _template  # noqa: F401
from tfe_compat import interop  # noqa: F401  (Tensors go into jax.jit, grad, vmap)
from tfe_compat import losses  # noqa: F401
from tfe_compat import train as _train  # noqa: F401  (tf.train, tf.keras.optimizers)
from tfe_compat import summary as _summary  # noqa: F401  (tf.summary, tf.contrib.summary)
from tfe_compat.keras import callbacks_tensorboard as _callbacks_tensorboard  # noqa: F401
from tfe_compat import data as _data  # noqa: F401  (tf.data, TFRecords, tf.train.Example)
from tfe_compat import nest  # noqa: F401  (tf.nest)
from tfe_compat import distribute as _distribute  # noqa: F401  (tf.distribute, strategies)
from tfe_compat import distributions as _distributions  # noqa: F401  (tf.distributions)
from tfe_compat.random import stateful_random_ops as _stateful_random  # noqa: F401
from tfe_compat.keras.layers import dense_features as _dense_features  # noqa: F401  (columns)
from tfe_compat.contrib import learn_datasets as _learn_datasets  # noqa: F401  (contrib.learn)
from tfe_compat.keras import backend_session as _keras_backend_session  # noqa: F401
from tfe_compat.keras import data_utils as _keras_data_utils  # noqa: F401  (enqueuers)
from tfe_compat.keras import scikit_learn as _keras_scikit_learn  # noqa: F401
from tfe_compat.keras import mixed_precision as _keras_mixed_precision  # noqa: F401
from tfe_compat.train import loss_scale as _loss_scale  # noqa: F401  (train.experimental)
from tfe_compat.keras import experimental as _keras_experimental  # noqa: F401
from tfe_compat import autograph, module as _module, partitioned_variables  # noqa: F401
from tfe_compat.eager import parallel_for as _parallel_for  # noqa: F401  (tf.vectorized_map)
from tfe_compat.contrib import evaluator as _contrib_evaluator  # noqa: F401  (tfe.Evaluator)
from tfe_compat.eager import execution_callbacks as _execution_callbacks  # noqa: F401
from tfe_compat.framework import graph as _graph, graph_build as _graph_build  # noqa: F401
from tfe_compat import graph_variables as _graph_variables  # noqa: F401
from tfe_compat import graph_import as _graph_import  # noqa: F401  (tf.import_graph_def)
from tfe_compat import saved_model as _saved_model  # noqa: F401  (tf.saved_model.loader)
from tfe_compat.ops import gradients_impl as _gradients_impl  # noqa: F401  (tf.gradients)
from tfe_compat.client import session as _session  # noqa: F401  (tf.Session)
from tfe_compat.framework import graph_util as _graph_util  # noqa: F401  (tf.graph_util)
from tfe_compat.internal import test_util as _test_util  # noqa: F401  (tf.test)


_graph_build.install_operators()
_api.populate(sys.modules[__name__])
compat = _api.namespace(sys.modules[__name__], "compat")
compat.v1 = compat.v2 = sys.modules[__name__]
_api.namespace(sys.modules[__name__], "contrib.eager.python").tfe = contrib.eager  # noqa: F821

from tfe_compat.runner import install  # noqa: E402,F401


def load_ipython_extension(ipython):  # pylint: disable=unused-argument
  """`%load_ext tfe_compat`: makes `import tensorflow` resolve to tfe_compat in the notebook."""
  install()
