"""Every lesson's model answers pass their own checks, under its parameters and every value it offers.

Also: check cells give nothing away, Run All answers nothing, and the answer key is computed from
``SPEC.model`` with the notebook's parameters.  A lesson's parameters are read from its tagged
``# PARAMETERS`` cell without running it (``duel_lessons.teaching.parameters``).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from lesson_helpers import model_failures
from student_runs import run_student_copy

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.checks import LessonSpec, spec
from duel_lessons.teaching.lesson import forget
from duel_lessons.teaching.markers import is_removed
from duel_lessons.teaching.parameters import lesson_arguments, parameters_cell
from duel_lessons.teaching.student_copies import student_notebook

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
#: Forbidden in any cell a student sees: the old check's answer keywords, and answer-computing helpers.
GIVEAWAYS = re.compile(r"\b(expected|test|unordered)\s*=|\blambda\b|\.winning_moves\(|\.is_p\(")


def source(cell: dict[str, Any]) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def load(path: Path) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def uses_lesson(notebook: dict[str, Any]) -> bool:
    return any("Lesson(" in source(c) for c in notebook["cells"] if c["cell_type"] == "code")


def lessons(converted_only: bool = False) -> list[Any]:
    """The lessons as parameters (``converted_only`` is kept for callers; every lesson uses Lesson)."""
    return [pytest.param(path, id=path.stem) for path in LESSONS]


def test_every_lesson_checks_with_lesson() -> None:
    assert [p.name for p in LESSONS if not uses_lesson(load(p))] == []


def check_calls(code: str) -> list[ast.Call]:
    """The exercise checks in a cell: ``lesson.check(...)``, or the old bare ``check(...)``."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("check", "lesson.check")
    ]


def giveaways(notebook: dict[str, Any]) -> list[str]:
    """What, in the cells a student sees, shows or computes an answer."""
    found = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code" or is_removed(cell):
            continue
        code = source(cell)
        for call in check_calls(code):
            shape_ok = (
                len(call.args) == 2
                and not call.keywords
                and isinstance(call.args[0], ast.Constant)
                and isinstance(call.args[0].value, (int, str))
                and isinstance(call.args[1], ast.Name)
            )
            if not shape_ok:
                found.append(f"check call is not lesson.check(<name>, <variable>): {ast.unparse(call)}")
        if check_calls(code) or "answer_" in code:
            found += [f"{m.group(0)!r} in: {code.splitlines()[0]}" for m in GIVEAWAYS.finditer(code)]
    return found


@pytest.mark.parametrize("path", lessons())
def test_check_cells_give_nothing_away(path: Path) -> None:
    assert not giveaways(load(path)), giveaways(load(path))


@pytest.mark.parametrize("path", lessons())
def test_student_copies_give_nothing_away(path: Path) -> None:
    copy = student_notebook(load(path))
    assert not giveaways(copy), giveaways(copy)
    assert not any("lesson.solution(" in source(c) for c in copy["cells"])


def test_the_giveaway_detector_can_fail() -> None:
    cell = {"cell_type": "code", "metadata": {}, "source": "check(answer_1, expected=list(t.winning_moves(24)))"}
    assert len(giveaways({"cells": [cell]})) >= 2
    cell["source"] = "lesson.check(1, answer_1)"
    assert giveaways({"cells": [cell]}) == []


def lesson_namespace(notebook: dict[str, Any]) -> dict[str, Any]:
    """Run the notebook's parameters cell and its ``lesson = Lesson(...)`` statement; return the namespace."""
    namespace: dict[str, Any] = {}
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    (parameters,) = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    exec(compile(source(parameters), "<parameters>", "exec"), namespace)  # our own notebook's code
    setup = next(c for c in cells if "Lesson(" in source(c))
    for statement in ast.parse(source(setup)).body:
        if isinstance(statement, ast.Assign) and "Lesson(" in ast.unparse(statement.value):
            exec("from duel_lessons.teaching import Lesson\n" + ast.unparse(statement), namespace)
    assert "lesson" in namespace, "the set-up cell must say lesson = Lesson(...)"
    return namespace


@pytest.mark.parametrize("path", lessons(converted_only=True))
def test_every_model_solution_passes_its_check(path: Path) -> None:
    notebook = load(path)
    forget()
    namespace = lesson_namespace(notebook)
    lesson = namespace["lesson"]
    solved = set()
    for cell in notebook["cells"]:
        if "solution" not in cell.get("metadata", {}).get("tags", []):
            continue
        code = source(cell)
        tree = ast.parse(code)
        assert len(tree.body) == 1, f"a solution cell holds one lesson.solution(...) call: {code!r}"
        call = tree.body[0]
        assert isinstance(call, ast.Expr) and isinstance(call.value, ast.Call), code
        assert ast.unparse(call.value.func) == "lesson.solution", code
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, f"<{path.stem} solution>", "exec"), namespace)  # raises if the model fails
        first = call.value.args[0]
        assert isinstance(first, ast.Constant)
        solved.add(str(first.value))
    unsolved = set(spec(lesson.number).checks) - solved
    assert not unsolved, f"{path.name}: checks without a model solution: {sorted(unsolved)}"


def test_a_wrong_model_solution_fails() -> None:
    from duel_lessons.teaching.checks import LessonError

    lesson = Lesson("00", rules="divisor-duel", start=60, small=12, candidates=[2, 9, 11])
    with pytest.raises(LessonError):
        lesson.solution(1, [2, 3, 4])


FEEDBACK_CALLS = ("lesson.check(", "lesson.guess(", "lesson.test(", "lesson.reveal(")


@pytest.mark.parametrize("path", lessons(converted_only=True))
def test_run_all_of_a_student_copy_answers_nothing(path: Path) -> None:
    copy = run_student_copy(path)
    asked = 0
    for cell in copy.cells:
        if cell.cell_type != "code" or not any(call in cell.source for call in FEEDBACK_CALLS):
            continue
        printed = "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")
        assert "Not answered yet" in printed or "Locked" in printed, (cell.source, printed)
        assert "✅" not in printed and "Model answer" not in printed, (cell.source, printed)
        asked += 1
    assert asked >= 4, f"{path.name}: only {asked} exercises, guesses or tests"


# -- model answers from SPEC.model, under every offered parameter ----------------------------------

#: A parameter line's offered values: quoted strings in its comment ("# or "factor-duel"").
QUOTED = re.compile(r"""["']([^"'\n]+)["']""")


#: A solution cell: comment lines, then lesson.solution(<name>) alone (a comment may follow it).
SOLUTION_CELL = re.compile(r"""(\s*#[^\n]*\n)*\s*lesson\.solution\((\d+|"[^"\n]+"|'[^'\n]+')\)\s*(#[^\n]*)?""")


def test_a_solution_cell_names_its_model_answer_only() -> None:
    assert SOLUTION_CELL.fullmatch("# Teacher's model answer\nlesson.solution(2)   # tagged solution")
    assert SOLUTION_CELL.fullmatch('lesson.solution("proof-1")')
    assert not SOLUTION_CELL.fullmatch('lesson.solution(2, "P", why="128 = 2**7")')
    assert not SOLUTION_CELL.fullmatch("lesson.solution(2)\nprint(512)")


def offered_in_comments(notebook: dict[str, Any]) -> dict[str, set[str]]:
    """Per notebook parameter holding text, the other texts its comment offers (``# or "factor-duel"``)."""
    offered: dict[str, set[str]] = {}
    for line in source(dict(parameters_cell(notebook["cells"]))).splitlines():
        code, _, comment = line.partition("#")
        name, equals, value = code.partition("=")
        if not equals or not comment:
            continue
        try:
            default = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            continue
        if isinstance(default, str):
            offered[name.strip()] = {v for v in QUOTED.findall(comment) if v != default}
    return offered


def variants(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The lesson's keyword arguments as its notebook sets them, then with each value that SPEC.offers."""
    cells = load(path)["cells"]
    number, arguments = lesson_arguments(cells)
    found = [("the notebook's parameters", arguments)]
    for key, values in spec(number).offers.items():
        for value in values:
            found.append((f"{key}={value!r}", lesson_arguments(cells, {key: value})[1]))
    return found


@pytest.mark.parametrize("path", lessons())
def test_every_check_has_a_model_answer_and_its_solution_cell_only_names_it(path: Path) -> None:
    notebook = load(path)
    number, _ = lesson_arguments(notebook["cells"])
    lesson_spec = spec(number)
    missing = sorted(set(lesson_spec.checks) - set(lesson_spec.models))
    assert not missing, (
        f"{path.name}: checks without a model answer {missing}: add @SPEC.model(name) in "
        f"duel_lessons/teaching/checks/lesson{number}.py, computing (answer, reason) from the parameters"
    )
    literal = [
        source(cell).strip().splitlines()[-1]
        for cell in notebook["cells"]
        if "solution" in cell.get("metadata", {}).get("tags", []) and not SOLUTION_CELL.fullmatch(source(cell).strip())
    ]
    assert not literal, f"{path.name}: a solution cell is just lesson.solution(name), no literal answer: {literal}"


@pytest.mark.parametrize("path", lessons())
def test_every_model_answer_passes_its_check_under_every_offered_parameter(path: Path) -> None:
    number, _ = lesson_arguments(load(path)["cells"])
    failures = model_failures(number, variants(path))
    assert not failures, f"{path.name}: " + "; ".join(failures)


@pytest.mark.parametrize("path", lessons())
def test_every_choice_a_parameters_cell_offers_is_in_offers(path: Path) -> None:
    notebook = load(path)
    number, _arguments = lesson_arguments(notebook["cells"])
    offers = spec(number).offers
    call = {str(k.arg): ast.unparse(k.value) for k in _lesson_keywords(notebook)}
    missing = []
    for name, values in offered_in_comments(notebook).items():
        keys = [k for k, v in call.items() if v == name]
        if not keys:
            continue  # a parameter the checks never see (the computer's level): no model answer depends on it
        declared = {str(v) for k in keys for v in offers.get(k, offers.get(name, ()))}
        missing += [f"{keys[0]}={v!r}" for v in sorted(values - declared)]
    assert not missing, (
        f"{path.name}: its # PARAMETERS cell offers {missing}, which LessonSpec(offers=...) does not list: "
        "list them (the suite then checks every model answer under them) or stop offering them"
    )


def _lesson_keywords(notebook: dict[str, Any]) -> list[ast.keyword]:
    from duel_lessons.teaching.parameters import lesson_call

    return [k for k in lesson_call(notebook["cells"]).keywords if k.arg]


def test_offered_values_are_read_from_the_comments() -> None:
    cell = {
        "cell_type": "code",
        "metadata": {"tags": ["parameters"]},
        "source": '# PARAMETERS\nRULES = "divisor-duel"  # or "factor-duel", \'number-factor\'\nUPTO = 100  # "x"',
    }
    assert offered_in_comments({"cells": [cell]}) == {"RULES": {"factor-duel", "number-factor"}}


@pytest.fixture
def fake_lesson(monkeypatch: pytest.MonkeyPatch) -> LessonSpec:
    """Lesson "97", registered for one test: exercise 1 asks for twice the start."""
    from duel_lessons.teaching import checks
    from duel_lessons.teaching.feedback import expect_number

    fake = LessonSpec("97", needs=("start",), offers={"start": (48,)})

    @fake.check(1)
    def twice(answer: object, p: Any) -> Any:
        return expect_number(answer, 2 * p["start"], hint="Double it.", stronger="Add the start to itself.")

    monkeypatch.setitem(checks._SPECS, "97", fake)
    return fake


def fake_notebook(start: int) -> dict[str, Any]:
    def code(text: str, tags: tuple[str, ...] = ()) -> dict[str, Any]:
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": text, "outputs": [],
                "execution_count": None}  # fmt: skip

    return {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# Lesson 97: doubling?"},
            code(f"# PARAMETERS\nSTART = {start}  # the start", ("parameters",)),
            code("from duel_lessons.teaching import Lesson\nlesson = Lesson('97', start=START)"),
            code("# Exercise 1: twice START?\nanswer_1 = ..."),
            code("lesson.check(1, answer_1)"),
            code("# Teacher's model answer\nlesson.solution(1)", ("solution",)),
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_a_model_answer_that_fails_under_an_offered_parameter_is_caught(fake_lesson: LessonSpec) -> None:
    """A model answer written for the default parameters, not computed from them, fails under another."""
    fake_lesson.models["1"] = lambda p: (120, "twice 60")
    assert model_failures("97", [("default", {"start": 60})]) == []
    assert model_failures("97", [("start=48", {"start": 48})]) == ["1 under start=48: miss Your answer was 120."]
    fake_lesson.models["1"] = lambda p: (2 * p["start"], "")
    assert model_failures("97", [("default", {"start": 60})]) == ["1 under default: the model answer gives no reason"]


def test_the_answer_key_is_computed_from_the_notebooks_parameters(fake_lesson: LessonSpec, tmp_path: Path) -> None:
    """An adapted lesson's key is right for it: lesson.solution(name) shows SPEC.model at its parameters."""
    from duel_lessons.teaching.keys import answer_key

    fake_lesson.models["1"] = lambda p: (2 * p["start"], f"twice {p['start']}")
    for start, shown in ((60, "`120`"), (48, "`96`")):
        (tmp_path / "97-doubling.ipynb").write_text(json.dumps(fake_notebook(start)), encoding="utf-8")
        key = answer_key(tmp_path)
        assert f"Exercise 1, model answer:** {shown}\n\ntwice {start}" in key, key
        assert "# Exercise 1: twice START?" in key and "lesson.solution" not in key


def test_a_lesson_without_a_model_answer_is_named(fake_lesson: LessonSpec, tmp_path: Path) -> None:
    from duel_lessons.teaching.keys import answer_key
    from duel_lessons.teaching.markers import CopyError

    (tmp_path / "97-doubling.ipynb").write_text(json.dumps(fake_notebook(60)), encoding="utf-8")
    with pytest.raises(CopyError, match=r"97-doubling.ipynb: the model answer of '1' cannot be computed.*SPEC.model"):
        answer_key(tmp_path)
