"""Lesson 05's two built proofs (right, wrong and malformed answers), its models under changed parameters,
and its statements about rule book 001, checked against the book and by brute force."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from lesson_helpers import model_failures

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.checks import spec
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
    # From 36 the winning moves are 12 and 18 (36 ÷ 12 = 3, 36 ÷ 18 = 2); the legal moves 2, 3, 4, 6, 9, 12, 18.
    "1": {
        "right": [[12, 18], [18, 12]],
        "misconception": [[2, 3], [3, 2], [3], [2, 3, 4, 6, 9, 12, 18], [18, 12, 9, 6, 4, 3, 2]],
        "partial": [[12], [12, 18, 9]],
        "miss": [[9], [4, 6]],
        "format": [12, "12, 18", [12, "18"]],
    },
    # A 5-move game needs Ω = 6: 2^6 = 64; 2^5 = 32 lasts 4 moves; 96 = 2^5·3 and 30030 = 2·3·5·7·11·13 have Ω = 6.
    "2": {
        "right": [64],
        "misconception": [32, 96, 30030],
        "miss": [128, 63, 2310],
        "format": ["64", [64]],
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


@pytest.mark.parametrize(
    ("changes", "results", "legal"),
    [({"ex_start": 45}, [5, 3], [15, 9, 5, 3]), ({"ex_start": 60}, [5, 3, 2], [30, 20, 15, 12, 10, 6, 5, 4, 3, 2])],
)
def test_exercise_1_names_its_mistakes_in_any_order_under_other_starts(
    changes: dict[str, int], results: list[int], legal: list[int]
) -> None:
    """By hand: from 45 the winning moves are 9 and 15 (leaving 5 and 3); from 60, 12, 20 and 30 (5, 3, 2)."""
    forget("05")
    lesson = Lesson("05", **{**PARAMS, **changes})
    assert lesson.verdict(1, results).key == "results" and lesson.verdict(1, results[::-1]).key == "results"
    assert lesson.verdict(1, legal).key == "all-divisors" and lesson.verdict(1, legal[::-1]).key == "all-divisors"


def test_exercise_2_follows_the_length() -> None:
    """By hand: a 3-move game needs Ω = 4, so 16; 8 lasts 2 moves; 24 = 2·2·2·3 also has Ω = 4."""
    forget("05")
    lesson = Lesson("05", **{**PARAMS, "ex_length": 3})
    assert [lesson.verdict(2, n).kind for n in (16, 8, 24, 30)] == ["right", "misconception", "misconception", "miss"]


def test_the_repair_guess_is_compared_with_a_brute_force_of_the_repaired_game() -> None:
    """The repaired game (divide by a prime p < N that divides N; stuck loses), solved from its rules alone."""

    @cache
    def loses(n: int) -> bool:
        return all(not loses(n // q) for q in range(2, n) if _prime(q) and n % q == 0)

    losing = [n for n in (8, 12, 16, 30, 60) if loses(n)]
    assert losing == [8, 12, 30]
    text = spec_reveal("repair", [8, 16])
    assert "loses from 8, 12 and 30" in text and "you left out 12 and 30" in text


def spec_reveal(name: str, guess: object) -> str:
    """The text of a declared reveal for a guess, under the notebook's parameters."""
    return spec("05").reveals[name](guess, PARAMS)


def test_the_first_reveal_says_no_composite_number_up_to_upto_loses() -> None:
    """Division Duel up to 100 by brute force: the player to move loses exactly at 1 and the primes."""

    @cache
    def loses(n: int) -> bool:
        return all(not loses(n // d) for d in range(2, n) if n % d == 0)

    assert [n for n in range(1, 101) if loses(n)] == [1] + [n for n in range(2, 101) if _prime(n)]
    text = spec_reveal("hand-over", [25, 49])
    assert "loses from none" in text and "every composite number up to 100 the player to move wins" in text


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
