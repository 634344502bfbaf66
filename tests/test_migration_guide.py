"""migration_guide.md's coverage table names exactly the test files that exist."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_coverage_table_names_every_test_file():
  with open(os.path.join(ROOT, "migration_guide.md"), encoding="utf8") as f:
    guide = f.read()
  table = guide[guide.index("## Coverage"):guide.index("## Known differences")]
  named = set(re.findall(r"\b(test_\w+\.py)\b", table))
  existing = {name for name in os.listdir(os.path.join(ROOT, "tests"))
              if re.fullmatch(r"test_\w+\.py", name)}
  assert named - existing == set(), "the table names missing test files"
  assert existing - named == set(), "test files missing from the table"
