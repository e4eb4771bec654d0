"""Lesson 06's built proof and exercises: right, wrong and malformed answers; models follow the parameters."""

from __future__ import annotations

import pytest
from lesson_helpers import model_failures

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.lesson import forget

PARAMS = {"rules": "factor-duel", "start": 100, "upto": 100, "ex_number": 10**9 + 1}


@pytest.fixture
def lesson() -> Lesson:
    forget("06")
    return Lesson("06", **PARAMS)


CASES = {
    "order": {
        "right": [list("BEFAGC"), list("FBEAGC"), list("BEFGAC"), list("GFBEAC")],
        "partial": [list("EBFAGC"), list("BEFAG"), list("BEAFGC")],
        "misconception": [list("BDFAGC"), list("HC"), list("BEFAGHC")],
        "format": ["BEFAGC", ["b", "e", "f", "a", "g", "c"], ["B", "B"], [2, 5], ["X"]],
    },
    "flaw": {
        "right": [10],
        "partial": [16, 22, 26],
        "misconception": [9, 15, 2],
        "miss": [4, 6, 8, 12],
        "format": ["10", [10], "ten", 0],
    },
    # By the rule, the sixth move (Player 2's, 10 → 5) reaches a prime; the book says Player 1.
    "1": {"right": [2], "misconception": [1], "miss": [3], "format": ["2"]},
    # 10**9 + 1 = 7 × 11 × 13 × 19 × 52579 is odd (and composite): P.
    "2": {"right": ["P"], "misconception": ["N"], "format": ["p", "P-position", 1]},
    # From 100 the winning moves are the odd divisors 1, 5, 25 (leaving 99, 95, 75); the even ones: 2, 4, 10, 20, 50.
    "3": {
        "right": [[1, 5, 25], [25, 5, 1]],
        "misconception": [[1], [99, 95, 75], [75, 99], [5, 25], [25, 5], [2, 4, 10, 20, 50], [50, 2]],
        "partial": [[1, 5], [1, 5, 25, 2]],
        "miss": [[3, 7]],
        "format": [1, "1, 5, 25"],
    },
    "4": {
        "right": [8],
        "partial": [16, 32],
        "misconception": [5, 2],
        "miss": [4, 6, 10, 60],
        "format": ["8", [8], -4],
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


def test_wrong_lines_say_why(lesson: Lesson) -> None:
    assert "odd − odd is even" in lesson.verdict("order", list("BDFAGC")).hint
    assert "14" in lesson.verdict("order", list("HC")).hint


@pytest.mark.parametrize(
    ("changes", "winner_moves", "ex"),
    [
        ({}, [1, 5, 25], "P"),
        ({"start": 60, "ex_number": 97}, [1, 3, 5, 15], "P"),
        ({"start": 90, "ex_number": 10**12}, [1, 3, 5, 9, 15, 45], "N"),
        ({"start": 27, "ex_number": 91, "upto": 200}, [], "P"),
    ],
)
def test_every_model_answer_passes_its_check_and_follows_the_parameters(
    changes: dict[str, int], winner_moves: list[int], ex: str
) -> None:
    """Settings the notebook does not offer (test_model_solutions runs its own): the models still pass."""
    assert model_failures("06", [(str(changes), {**PARAMS, **changes})]) == []
    forget("06")
    lesson = Lesson("06", **{**PARAMS, **changes})
    assert lesson.model(3)[0] == winner_moves
    assert lesson.model(2)[0] == ex and str(lesson.params["ex_number"]) in lesson.model(2)[1]
    if lesson.params["ex_number"] == 97:
        assert "prime" in lesson.model(2)[1] and "composite" not in lesson.model(2)[1]


@pytest.mark.parametrize(
    ("number", "words"),
    [(97, "97 is prime"), (91, "91 is odd and composite"), (10**12, "1000000000000 is even"), (2, "2 is prime")],
)
def test_exercise_2_gives_the_reason_for_its_number(number: int, words: str) -> None:
    """By hand: 97 and 2 are prime, 91 = 7 × 13, and 10**12 is even."""
    forget("06")
    lesson = Lesson("06", **{**PARAMS, "ex_number": number})
    assert lesson.model(2)[1].startswith(words)


def test_exercise_3_names_the_forgotten_1_and_the_results_under_another_start() -> None:
    """By hand: from 60 the winning moves are 1, 3, 5 and 15; they leave 59, 57, 55 and 45."""
    forget("06")
    lesson = Lesson("06", **{**PARAMS, "start": 60})
    assert lesson.verdict(3, [15, 5, 3]).key == "forgot-one"
    assert lesson.verdict(3, [59, 57, 55, 45]).key == "results"
    assert lesson.verdict(3, [2, 4, 6, 10, 12, 20, 30]).key == "even"
    assert lesson.verdict(3, [1, 3, 5]).kind == "partial"


def test_the_book_reveal_quotes_the_engines_ending_of_example_1() -> None:
    from duel_lessons import get_rules, new_game
    from duel_lessons.teaching.checks import spec

    state = new_game(get_rules("factor-duel"), 100)
    for d in (25, 25, 25, 5, 10, 5):
        state = state.play(d)
    assert state.winner == 2
    last = state.transcript().strip().splitlines()[-1]
    assert f'"{last}"' in spec("06").reveals["book"](1, PARAMS)


def test_the_guesses_need_the_asked_form(lesson: Lesson) -> None:
    assert lesson.guess_problem("book", "dunno") and lesson.guess_problem("book", 3)
    assert lesson.guess_problem("book", 2) is None
    assert lesson.guess_problem("hand-over", [17]) and lesson.guess_problem("hand-over", "odd ones")
    assert lesson.guess_problem("hand-over", [15, 21]) is None


def test_exercise_1_has_no_finished_game_in_the_students_namespace() -> None:
    """Exercise 1 asks who wins the book's Example 1: a GameState left in a variable answers it (``.winner``)."""
    import ast
    from pathlib import Path

    import nbformat

    path = Path(__file__).resolve().parents[1] / "notebooks" / "06-factor-duel.ipynb"
    nb = nbformat.read(path, as_version=4)
    first_check = next(i for i, c in enumerate(nb.cells) if "lesson.check(1" in c.source)
    for cell in nb.cells[:first_check]:
        if cell.cell_type != "code" or "new_game(" not in cell.source:
            continue
        for node in ast.parse(cell.source).body:  # only top-level names stay in the student's namespace
            if isinstance(node, ast.Assign):
                assert "new_game(" not in ast.unparse(node.value), ast.unparse(node)
