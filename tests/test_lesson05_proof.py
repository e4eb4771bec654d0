"""Lesson 05's two built proofs (right, wrong and malformed answers), its models under changed parameters,
and its statements about rule book 001, checked against the book and by brute force."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lesson_helpers import model_failures

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.lesson import forget

ROOT = Path(__file__).resolve().parents[1]
PARAMS = {"rules": "division-duel", "start": 60, "upto": 100, "ex_start": 36, "ex_length": 5}


@pytest.fixture
def lesson() -> Lesson:
    forget("05")
    return Lesson("05", **PARAMS)


CASES = {
    "proof-1": {
        "right": ["N/p", "N / p", "(1/p)*N", "N*p/p^2"],
        "misconception": ["p", "N - p", "N*p"],
        "miss": ["N/2", "p/N", "N - 1"],
        "format": ["N/p)", "N÷", "q", 12, "import os"],
    },
    "proof-2": {
        "right": [8],
        "partial": [9, 12, 15],
        "misconception": [7, 1, 2],
        "miss": [4, 6, 10, 14],
        "format": ["8", [8], "eight", 0],
    },
    "proof-3": {
        "right": ["W - 1", "-1 + W", "(2*W - 2)/2"],
        "misconception": ["W", "W + 1"],
        "miss": ["W - 2", "2*W"],
        "format": ["Ω - 1", "N - 1", "W -", 3],
    },
    "proof-4": {
        "right": [(1, 4), (1, 9), [1, 25], (1, 49)],
        "partial": [(1, 6), (1, 8), (2, 4)],
        "misconception": [(3, 4), (3, 9)],
        "miss": [(2, 6), (4, 10)],
        "format": [1, "1", (5, 4), (1, "4"), (1, 4, 9)],
    },
}


@pytest.mark.parametrize(
    ("name", "kind", "answer"),
    [(name, kind, answer) for name, kinds in CASES.items() for kind, answers in kinds.items() for answer in answers],
)
def test_each_built_step_names_the_kind_of_answer(lesson: Lesson, name: str, kind: str, answer: object) -> None:
    verdict = lesson.verdict(name, answer)
    assert verdict.kind == kind, (name, answer, verdict)
    if kind not in ("right", "format"):
        assert verdict.hint and verdict.stronger, (name, answer)


def test_a_wrong_divisor_is_refuted_by_numbers(lesson: Lesson) -> None:
    assert lesson.verdict("proof-1", "p").message == "For N = 60, p = 5 your expression is 5, but it should equal 12."


@pytest.mark.parametrize(
    "changes",
    [{}, {"start": 90, "ex_start": 45, "ex_length": 3}, {"start": 100, "ex_start": 12, "ex_length": 7}],
)
def test_every_model_answer_passes_its_check_and_follows_the_parameters(changes: dict[str, int]) -> None:
    """Settings the notebook does not offer (test_model_solutions runs its own): the models still pass."""
    assert model_failures("05", [(str(changes), {**PARAMS, **changes})]) == []
    forget("05")
    lesson = Lesson("05", **{**PARAMS, **changes})
    start = int(lesson.params["start"])
    assert str(start) in lesson.model("proof-1")[1] and str(start) in lesson.model("proof-3")[1]
    assert str(lesson.params["ex_start"]) in lesson.model(1)[1]


def test_the_guesses_need_lists_of_the_offered_numbers(lesson: Lesson) -> None:
    assert lesson.guess_problem("hand-over", "dunno") and lesson.guess_problem("hand-over", [13])
    assert lesson.guess_problem("hand-over", [25, 49]) is None and lesson.guess_problem("hand-over", []) is None
    assert lesson.guess_problem("repair", [12, 25]) and lesson.guess_problem("repair", [8, 12]) is None


# -- statements, by brute force and against the book --------------------------------------------


def _prime(n: int) -> bool:
    return n > 1 and all(n % q for q in range(2, int(n**0.5) + 1))


def test_the_smallest_composite_where_dividing_by_2_does_not_leave_a_prime_is_8() -> None:
    composites = [n for n in range(4, 100) if not _prime(n)]
    assert next(n for n in composites if not (n % 2 == 0 and _prime(n // 2))) == 8


def test_every_composite_number_has_a_move_to_a_prime_and_the_repaired_game_lasts_omega_minus_1() -> None:
    def omega(n: int) -> int:
        return sum(1 for q in range(2, n + 1) for k in range(1, 20) if _prime(q) and n % q**k == 0)

    def lengths(n: int) -> set[int]:
        moves = [q for q in range(2, n) if _prime(q) and n % q == 0]
        return {0} if not moves else {1 + x for q in moves for x in lengths(n // q)}

    for n in range(4, 200):
        if not _prime(n):
            assert any(_prime(n // d) for d in range(2, n) if n % d == 0), n
            assert lengths(n) == {omega(n) - 1}, n


def _book_001() -> str:
    (path,) = (ROOT / "docs" / "rulebooks").glob("001_*.txt")
    return " ".join(path.read_text(encoding="utf-8").split())


def _lesson_text() -> str:
    cells = json.loads((ROOT / "notebooks" / "05-division-duel.ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_every_tip_the_lesson_quotes_from_book_001_is_in_the_book() -> None:
    quotes = re.findall(r'\*"([^"]+)"\*', _lesson_text())
    tips = [q for q in quotes if "prime" in q.lower() or "advantage" in q.lower()]
    assert len(tips) == 2
    book = _book_001()
    for tip in tips:
        assert " ".join(tip.split()).rstrip(".") in book, tip


def test_the_book_examples_the_lesson_quotes_are_the_books_moves() -> None:
    book = _book_001()
    assert re.findall(r"Player \d Chooses Divisor:\*\* (\d+)", book) == ["5", "6", "4", "5"]
    assert 60 // 5 == 12 and 12 // 6 == 2 and 60 // 4 == 15 and 15 // 5 == 3
    text = _lesson_text()
    assert "60 \\div 5 = 12" in text and "15 \\div 5 = 3" in text
