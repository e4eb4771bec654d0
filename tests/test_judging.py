"""Judging each answer under a CPU limit (:mod:`duel_lessons.teaching.judging`).  The limit is measured in CPU
seconds of the judging process, read from the operating system (``getrusage`` of ended children), never by a
wall clock."""

from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path

import pytest

from duel_lessons.play.isolation import CPU_MARGIN
from duel_lessons.teaching.grade_worker import plain
from duel_lessons.teaching.judging import Judge
from duel_lessons.teaching.notebook_plan import plan_of

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="CPU-time alarms and resource limits: POSIX")

ROOT = Path(__file__).resolve().parents[1]
PARAMS = plain(plan_of(json.loads(next((ROOT / "notebooks").glob("04-*.ipynb")).read_text(encoding="utf-8"))).params)
BOMB = "(N+d+1)^64*(N+2*d+3)^64"  # minutes of sympy without a limit (issue 28)


def step_1(answer: object) -> dict[str, object]:
    return {"lesson": "04", "params": PARAMS, "check": "proof-1", "answer": answer}


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cpu_of(*answers: object) -> tuple[list[dict[str, object]], float]:
    """The replies to ``answers`` and the CPU seconds the judging process used in all (start-up included)."""
    before = children_cpu()
    judge = Judge(cpu_limit=5.0)
    try:
        replies = [judge.ask(step_1(a)) for a in answers]
    finally:
        judge.close()  # waited for: its CPU time is now the test's children's
    return replies, children_cpu() - before


def test_the_sympy_bomb_is_refused_within_five_seconds_of_cpu() -> None:
    """Judged once with a right answer, then once more with the bomb: the difference is what the bomb cost."""
    (right,), plain_cost = cpu_of("d*(N/d - 1)")
    (right_again, bomb), bomb_cost = cpu_of("d*(N/d - 1)", BOMB)
    assert right["kind"] == right_again["kind"] == "right"
    assert bomb == {"refused": "took more than 5 s of CPU time to check"}
    assert bomb_cost - plain_cost <= 5.0 + CPU_MARGIN + 0.5  # the half second: start-up varies between two runs


def test_a_judge_goes_on_after_a_refused_answer() -> None:
    judge = Judge(cpu_limit=0.5)
    try:
        assert "refused" in judge.ask(step_1(BOMB))
        assert judge.ask(step_1("(N+d+1)^2"))["key"] == "case:N = 45, d = 3:2401"  # (45 + 3 + 1)² = 49² = 2401
    finally:
        judge.close()


LOOPS_IN_C = "import sys\nsys.stdin.readline()\nwhile True:\n    pass"  # never answers; no alarm set


def test_a_process_that_never_answers_is_killed_at_the_cpu_limit() -> None:
    """As a check stuck in one long step of C would be: the judge reads the CPU time and kills it."""
    before = children_cpu()
    judge = Judge(cpu_limit=0.3, command=[sys.executable, "-c", LOOPS_IN_C])
    try:
        assert judge.ask(step_1("N")) == {"refused": "took more than 0.3 s of CPU time to check"}
    finally:
        judge.close()
    assert children_cpu() - before <= 0.3 + CPU_MARGIN + 0.5  # a Python start-up besides


def test_a_judge_that_dies_refuses_that_answer_and_a_new_one_takes_the_next() -> None:
    judge = Judge(command=[sys.executable, "-c", "pass"])
    try:
        assert judge.ask(step_1("N"))["refused"].startswith("could not be checked")
        judge.command = Judge().command
        assert judge.ask(step_1("d*(N/d - 1)"))["kind"] == "right"
    finally:
        judge.close()


@pytest.mark.parametrize("answer", [{"fraction": [1, 0]}, {"set": [[1]]}])
def test_an_answer_the_worker_never_writes_is_refused(answer: object) -> None:
    judge = Judge()
    try:
        assert judge.ask(step_1(answer)) == {"refused": "could not be checked (Unreadable)"}
    finally:
        judge.close()
