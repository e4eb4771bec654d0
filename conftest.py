"""Project-wide pytest set-up: checked answers for the lessons.

Lessons are committed without outputs, so nbval alone could only execute them.
A cell tagged ``nbval-check-output`` keeps its expected output in its metadata
instead, as ``"expected": {"text/plain": "..."}`` (the value of the last
expression) or ``"expected": {"stdout": "..."}`` (printed text).  Before the
tests run, that expected output becomes the cell's reference output, so nbval
compares it with what the cell produces.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

# A lesson's model solution that fails its own check is an error under the test suite
# (duel_lessons.teaching.lesson.STRICT_SOLUTIONS); nbval's kernels inherit this.
os.environ["DUEL_LESSONS_STRICT_SOLUTIONS"] = "1"


def reference_outputs(expected: dict[str, str]) -> list[dict[str, Any]]:
    """nbformat outputs for a cell's ``expected`` metadata."""
    outputs: list[dict[str, Any]] = []
    if "stdout" in expected:
        outputs.append({"output_type": "stream", "name": "stdout", "text": expected["stdout"]})
    if "text/plain" in expected:
        outputs.append(
            {"output_type": "execute_result", "execution_count": 1, "metadata": {},
             "data": {"text/plain": expected["text/plain"]}}
        )
    return outputs


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is None or not hasattr(item, "options"):
            continue  # not an nbval cell
        expected = cell.get("metadata", {}).get("expected")
        if expected:
            import nbformat

            cell.outputs = [nbformat.from_dict(o) for o in reference_outputs(expected)]
            cell.execution_count = 1
            item.options["check"] = True


@pytest.fixture(autouse=True)
def _fresh_oracles_under_mutmut() -> None:
    """Under mutmut, forget the oracles and closed forms cached before its fork, so each mutant runs.

    mutmut runs the whole selection once, then forks for each mutant: an oracle (with its proved
    Grundy form) or the closed-form registry cached in the first run would answer instead of the
    mutated code, and the mutant would wrongly survive.  Outside mutmut this does nothing.
    """
    if os.environ.get("MUTANT_UNDER_TEST"):
        from duel_lessons.solving import closed_forms, oracle

        oracle._oracle.cache_clear()
        closed_forms._cache = ((), {})
