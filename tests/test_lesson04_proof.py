"""Lesson 04's built proof: right, wrong and malformed answers for each step; model answers follow the parameters."""

from __future__ import annotations

import pytest
from lesson_helpers import model_failures

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.lesson import forget

PARAMS = {"rules": "divisor-duel", "upto": 10_000, "big": [999, 1000, 1024, 2048], "win_from": 96, "all_from": 1024}


@pytest.fixture
def lesson() -> Lesson:
    forget("04")
    return Lesson("04", **PARAMS)


CASES = {
    "proof-1": {
        "right": ["d*(N/d - 1)", "(N/d - 1)*d", "-d*(1 - N/d)", "d * (N/d - 1)"],
        "partial": ["N - d", "d*N/d - d"],
        "misconception": ["d*(N/d + 1)", "d*(N - 1)"],
        "miss": ["N*(d - 1)", "d*(N/d - 2)"],
        "format": ["d(N/d - 1)", "d*(N/d - 1", "__import__('os')", "x*(N - 1)", 42, ["d*(N/d - 1)"]],
    },
    "proof-2": {
        "right": ["m*(2^k - 1)", "(2**k - 1)*m", "-m*(1 - 2^k)"],
        "partial": ["2^k*m - m"],
        "misconception": ["m*(2^k - m)", "m*2^(k - 1)"],
        "miss": ["m*(2^k + 1)", "k*(2^m - 1)"],
        "format": ["m(2^k - 1)", "m*(2^k - 1))", "9**9**9", 3],
    },
    "proof-3": {
        "right": [(2, 1), [2, 1]],
        "partial": [(2, 8), (2, 3)],
        "misconception": [(3, 1), (1, 8)],
        "format": ["2", 2, (4, 1), (2, "1"), (2, 1, 8)],
    },
    "order": {
        "right": [list("BACIDGF"), list("BCAIDGF")],
        "partial": [list("ABCIDGF"), list("BACIDG"), list("BACDIGF")],
        "misconception": [list("BAECIDGF"), list("BHF"), list("BAEF")],
        "format": ["BACIDGF", ["b", "a", "c", "i", "d", "g", "f"], ["B", "A", "B"], [1, 2, 3], ["Z"]],
    },
    "flaw": {
        "right": [8],
        "partial": [32, 128],
        "misconception": [2, 9],
        "miss": [4, 6, 12],
        "format": ["8", "eight", [8], 0],
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


def test_a_wrong_factorisation_is_refuted_by_a_number(lesson: Lesson) -> None:
    assert lesson.verdict("proof-1", "d*(N/d + 1)").message == (
        "For N = 45, d = 3 your expression is 48, but it should equal 42."
    )


def test_wrong_lines_say_why_and_hints_never_give_the_answer(lesson: Lesson) -> None:
    assert "odd − odd is even" in lesson.verdict("order", list("BAECIDGF")).hint
    for name, kinds in CASES.items():
        for answers in kinds.values():
            for answer in answers:
                v = lesson.verdict(name, answer)
                text = f"{v.message} {v.hint} {v.stronger}"
                assert "(2, 1)" not in text and "BACIDGF" not in text
                if name == "flaw":
                    assert "8 " not in text.replace(f"{answer} ", ""), (answer, text)


@pytest.mark.parametrize(
    "changes",
    [{}, {"win_from": 80, "all_from": 4096}, {"win_from": 1000, "all_from": 2048}, {"win_from": 36, "all_from": 64}],
)
def test_every_model_answer_passes_its_check_and_follows_the_parameters(changes: dict[str, int]) -> None:
    """Settings the notebook does not offer (test_model_solutions runs its own): the models still pass."""
    assert model_failures("04", [(str(changes), {**PARAMS, **changes})]) == []
    forget("04")
    lesson = Lesson("04", **{**PARAMS, **changes})
    n = int(lesson.params["win_from"])
    assert str(n) in lesson.model(1)[1]
    assert str(lesson.params["all_from"] // 2) in lesson.model(2)[1] or not lesson.model(2)[0]


def test_the_guess_must_be_a_list_of_the_offered_numbers(lesson: Lesson) -> None:
    assert lesson.guess_problem("big", "dunno")
    assert lesson.guess_problem("big", [7])
    assert lesson.guess_problem("big", [999, 1024]) is None
    assert lesson.guess_problem("big", []) is None
    assert lesson.reveal_text("big") is None


def test_the_data_stays_locked_until_the_guess(lesson: Lesson, capsys: pytest.CaptureFixture[str]) -> None:
    lesson.locked("big", lambda: print("DATA"))
    assert "DATA" not in capsys.readouterr().out
    lesson.guess("big", [999])
    lesson.locked("big", lambda: print("DATA"))
    assert "DATA" in capsys.readouterr().out


@pytest.mark.parametrize("answer", [[], 5, "", "   ", "dunno", None.__class__, ["d", "N"], ("2", "1"), 2.5])
def test_a_format_slip_never_shows_the_answer_of_its_step(lesson: Lesson, answer: object) -> None:
    """The framework's own examples are d*(N/d - 1) and (2, 15): the answers of steps 1 and 3 here."""
    for name in ("proof-1", "proof-2", "proof-3"):
        v = lesson.verdict(name, answer)
        text = f"{v.message} {v.hint} {v.stronger}".replace(" ", "")
        assert "d*(N/d-1)" not in text and "m*(2**k-1)" not in text and "m*(2^k-1)" not in text, (name, answer, v)
        assert "(2," not in text and "[2," not in text, (name, answer, v)


@pytest.mark.parametrize("notebook", ["04-which-numbers-lose.ipynb", "06-factor-duel.ipynb"])
def test_run_all_leaves_no_solver_in_the_students_namespace(notebook: str) -> None:
    """After Run All, a top-level ``tabulate`` (``.winning_moves``) would answer the exercises in one call."""
    import ast
    from pathlib import Path

    import nbformat

    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.parse(cell.source).body:  # imports inside a function stay inside it
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("duel_lessons.solving"):
                assert {a.name for a in node.names} <= {"lesson_size"}, ast.unparse(node)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("duel_lessons") for a in node.names), ast.unparse(node)
