"""The package's layering (DESIGN.md): lower layers never import higher ones, also inside
functions. framework/ < ops/ < the rest; checkpointing knows trackable objects, not Keras."""
import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "tfe_compat")
ALLOWED = {
    "framework": ("tfe_compat.framework", "tfe_compat.proto"),
    "ops": ("tfe_compat.framework", "tfe_compat.ops", "tfe_compat.proto",
            "tfe_compat.state_ops"),
}


def _imports(path):
  with open(path, encoding="utf8") as f:
    tree = ast.parse(f.read())
  for node in ast.walk(tree):
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
      base = node.module
      names = [base + "." + a.name for a in node.names] if base == "tfe_compat" else [base]
      yield from names
    elif isinstance(node, ast.Import):
      yield from (a.name for a in node.names)


def _modules(folder):
  directory = os.path.join(PACKAGE, folder)
  return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_lower_layers_import_only_lower_layers(layer):
  wrong = [(os.path.basename(path), name) for path in _modules(layer)
           for name in _imports(path)
           if name.startswith("tfe_compat") and not name.startswith(ALLOWED[layer])]
  assert not wrong


def test_checkpointing_knows_trackables_not_keras():
  for name in ("checkpoint.py", "checkpoint_io.py", "checkpoint_management.py"):
    imported = list(_imports(os.path.join(PACKAGE, "train", name)))
    assert not [n for n in imported if n.startswith("tfe_compat.keras")], name
