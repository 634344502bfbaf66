"""`tf.keras.applications`: canned architectures (TF 1.15's set) on tfe_compat's Keras layers."""
from tfe_compat.keras.applications import (densenet, imagenet_utils,  # noqa: F401
                                           inception_v3, mobilenet, resnet, vgg,
                                           xception)
