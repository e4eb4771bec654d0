"""Project-wide pytest set-up: checked answers for the lessons.

Lessons are committed without outputs, so nbval alone could only execute them.
A cell tagged ``nbval-check-output`` keeps its expected output in its metadata
instead, as ``"expected": {"text/plain": "..."}`` (the value of the last
expression) or ``"expected": {"stdout": "..."}`` (printed text).  Before the
tests run, that expected output becomes the cell's reference output, so nbval
compares it with what the cell produces.
"""

from __future__ import annotations

import functools
import json
import math
import os
import signal
from collections.abc import Iterator
from pathlib import Path
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
            {
                "output_type": "execute_result",
                "execution_count": 1,
                "metadata": {},
                "data": {"text/plain": expected["text/plain"]},
            }
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
    fastest_first_under_mutmut(items)


def fastest_first_under_mutmut(items: list[pytest.Item]) -> None:
    """Under mutmut, run a mutant's tests fastest first (by the times of its first run).

    mutmut stops at a mutant's first failing test, so a fast test that kills it saves the slow
    ones: the sandbox's protocol tests take milliseconds, its bubblewrap tests seconds.  Outside
    mutmut (or before its first run has timed the tests) the order is unchanged.
    """
    durations = mutmut_durations()
    if durations:
        items.sort(key=lambda item: durations.get(item.nodeid, math.inf))


def mutant_under_test() -> bool:
    """Whether mutmut runs the tests against one of its mutants (not its first, timing run)."""
    return "__mutmut_" in os.environ.get("MUTANT_UNDER_TEST", "")


def mutmut_durations() -> dict[str, float]:
    """Seconds each test took in mutmut's first run (its ``mutmut-stats.json``), when a mutant is tested."""
    return _durations(os.environ.get("MUTANT_UNDER_TEST", "")) if mutant_under_test() else {}


@functools.cache
def _durations(mutant: str) -> dict[str, float]:
    """Read once per mutant: mutmut forks each mutant's run from a process that may have read it before."""
    try:
        durations = json.loads(Path("mutmut-stats.json").read_text())["duration_by_test"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {str(k): float(v) for k, v in durations.items()} if isinstance(durations, dict) else {}


class HungUnderMutmut(BaseException):
    """A mutant made a test wait far longer than it did in mutmut's first run (nothing may catch it)."""


@pytest.fixture(autouse=True)
def _hang_guard_under_mutmut(request: pytest.FixtureRequest) -> Iterator[None]:
    """Under mutmut, a test that runs 10 times as long as in the first run, plus 10 s, fails (the mutant is killed).

    mutmut's own limit counts CPU time, or the whole test selection's time on the clock: a mutant that
    breaks a wait (the sandbox's clock check, say) would make a test sleep for many minutes.  Outside
    mutmut this does nothing: no test of the suite has a wall-clock limit.
    """
    durations = mutmut_durations()
    if not durations or not hasattr(signal, "setitimer"):
        yield
        return
    limit = 10 * durations.get(request.node.nodeid, 60.0) + 10

    def hung(signum: int, frame: object) -> None:
        raise HungUnderMutmut(f"{request.node.nodeid} ran over {limit:.0f} s under this mutant")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(autouse=True)
def _fresh_oracles_under_mutmut() -> None:
    """Under mutmut, forget the oracles and closed forms cached before its fork, so each mutant runs.

    mutmut runs the whole selection once, then forks for each mutant: an oracle (with its proved
    Grundy form) or the closed-form registry cached in the first run would answer instead of the
    mutated code, and the mutant would wrongly survive.  Outside mutmut this does nothing.
    """
    if mutant_under_test():
        from duel_lessons.solving import closed_forms, oracle

        oracle._oracle.cache_clear()
        closed_forms._cache = ((), {})


@pytest.fixture(autouse=True)
def _no_lesson_lock_left_behind() -> Iterator[None]:
    """A student's Lesson locks every board's Show P/N in its kernel (views.tool_lock); a test's lesson must not
    lock the boards of the tests after it, which run in the same process."""
    yield
    from duel_lessons.views.tool_lock import set_lock

    set_lock(None)
