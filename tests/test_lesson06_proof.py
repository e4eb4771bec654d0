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
