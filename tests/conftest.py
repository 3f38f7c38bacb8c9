"""Shared fixtures: the bundled workbench is built once per test session (it is read-only)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rag_core import Workbench  # noqa: E402


@pytest.fixture(scope="session")
def wb():
    return Workbench.bundled()
