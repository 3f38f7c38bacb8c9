"""The article's reference program, read for the tests that compare with it (tests/test_reference.py, the strict
checker's differential test): its definitions, without its top-level runs.

Left out on purpose: skipping. Without the file a test that needs it fails, saying where to put it.
"""
import ast
import os
from pathlib import Path

import pytest

# the shared/ folder beside the project's; OPENBOOK_REFERENCE names the file for a clone kept elsewhere
REFERENCE = Path(os.environ.get("OPENBOOK_REFERENCE")
                 or Path(__file__).resolve().parents[2] / "shared" / "reference" / "seed_reference.py")


def reference_namespace():
    """The reference program's definitions (functions, classes, constants), without its top-level runs."""
    if not REFERENCE.exists():                      # never skipped: without it these tests would prove nothing
        pytest.fail(f"The article's reference code is missing at {REFERENCE}. These tests compare rankings with "
                    "it: put the shared/ folder (with reference/seed_reference.py) beside the project's folder, "
                    "or set OPENBOOK_REFERENCE to the file's path.",
                    pytrace=False)
    tree = ast.parse(REFERENCE.read_text())
    keep = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)
    tree.body = [n for n in tree.body if isinstance(n, keep) or
                 (isinstance(n, ast.Assign) and all(isinstance(t, ast.Name) and t.id.isupper() for t in n.targets))]
    ns = {}
    exec(compile(tree, str(REFERENCE), "exec"), ns)
    return ns
