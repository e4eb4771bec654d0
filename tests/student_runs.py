"""Each lesson's student copy, executed once (Run All, nothing answered) and shared by the tests that read it.

tests/test_student_copies.py, tests/test_model_solutions.py and tests/test_spoilers.py all need the
outputs of Run All of every student copy; :func:`run_student_copy` executes each one once per test
session and keeps the result, so no notebook is run twice.  Callers must not change what it returns.
"""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from duel_lessons.teaching.student_copies import student_notebook

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
#: The longest a lesson's student copy may take to run (a lesson runs in under 20 s on a slow machine).
TIMEOUT = 180


def load(path: Path) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


@functools.cache
def run_student_copy(path: Path) -> Any:
    """The student copy of the lesson at ``path`` after Run All (an nbformat notebook with outputs)."""
    import nbclient
    import nbformat

    copy = nbformat.reads(json.dumps(student_notebook(load(path))), as_version=4)  # type: ignore[no-untyped-call]
    with tempfile.TemporaryDirectory() as folder:
        nbclient.NotebookClient(
            copy, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": folder}}
        ).execute()
    return copy
