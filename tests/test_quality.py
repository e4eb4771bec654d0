"""The package is lint-clean (ruff) and fully typed (mypy --strict), as CI demands.

ruff and mypy are pinned in the dev extra (``pip install -e ".[dev]"``, the README's test
command). Without them these tests skip, saying so, except under CI=true, where they fail.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(args[0]) is None and os.environ.get("CI") != "true":
        pytest.skip(f"{args[0]} is not installed: it comes with the dev extra, pip install -e \".[dev]\"")
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", "duel_lessons", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
