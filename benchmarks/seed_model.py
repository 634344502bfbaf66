"""The seed 004 model class (MNIST_HighLevel) read from examples/seeds/seed004_models.py."""
import ast
import pathlib

SEED = pathlib.Path(__file__).resolve().parents[1] / "examples" / "seeds" / "seed004_models.py"


def seed_model_class(tf_module):
  """MNIST_HighLevel exactly as the seed defines it, with `tf` bound to `tf_module`."""
  tree = ast.parse(SEED.read_text(encoding="utf-8"))
  node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MNIST_HighLevel")
  namespace = {"tf": tf_module}
  code = compile(ast.Module(body=[node], type_ignores=[]), str(SEED), "exec")
  exec(code, namespace)  # pylint: disable=exec-used
  return namespace["MNIST_HighLevel"]
