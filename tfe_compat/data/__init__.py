"""tf.data: datasets, iterators, file readers, TFRecords and tf.train.Example parsing."""
from tfe_compat.data import dataset_ops, experimental, iterator_ops  # noqa: F401
from tfe_compat.data import readers, tfrecord, example_parsing  # noqa: F401
from tfe_compat.data import csv_readers  # noqa: F401
from tfe_compat.data import sequence_parsing  # noqa: F401
from tfe_compat.data import grouping, sampling, scan_ops, optional_ops  # noqa: F401
from tfe_compat.data import experimental_readers  # noqa: F401
