"""`tf.version` and the version constants at the root (`tf.VERSION`, `tf.GRAPH_DEF_VERSION`).

The values are TensorFlow 1.15.0's (the pip release), the API tfe_compat implements.
"""
from tfe_compat.framework.api import export

VERSION = "1.15.0"
GIT_VERSION = "v1.15.0-rc3-22-g590d6ee"
COMPILER_VERSION = "7.3.1 20180303"
CXX11_ABI_FLAG = 0
MONOLITHIC_BUILD = 0
GRAPH_DEF_VERSION = 134
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

export("VERSION", "__version__", "version.VERSION")(VERSION)
export("GIT_VERSION", "__git_version__", "version.GIT_VERSION")(GIT_VERSION)
export("COMPILER_VERSION", "__compiler_version__", "version.COMPILER_VERSION")(COMPILER_VERSION)
export("CXX11_ABI_FLAG", "__cxx11_abi_flag__")(CXX11_ABI_FLAG)
export("MONOLITHIC_BUILD", "__monolithic_build__")(MONOLITHIC_BUILD)
for _name in ("GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER",
              "GRAPH_DEF_VERSION_MIN_PRODUCER"):
  export(_name, "version." + _name)(globals()[_name])
