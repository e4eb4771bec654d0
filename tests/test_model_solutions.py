"""Every lesson's model solutions pass their own checks; check cells give nothing away; Run All answers nothing.

These tests read every numbered notebook. A notebook that still uses the old
``duel_lessons.teaching.exercises.check`` is marked as an expected failure (strict,
so the mark must go when the lesson is converted to ``Lesson``).
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

from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.lesson import forget
from duel_lessons.teaching.student_copies import is_removed, student_notebook

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
    """The lessons as parameters; unconverted ones carry a strict xfail (or are left out)."""
    params = []
    for path in LESSONS:
        if uses_lesson(load(path)):
            params.append(pytest.param(path, id=path.stem))
        elif not converted_only:
            reason = f"{path.name} still uses the old exercises.check (being converted to Lesson)"
            params.append(pytest.param(path, id=path.stem, marks=pytest.mark.xfail(reason=reason, strict=True)))
    return params


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
    from duel_lessons.teaching import Lesson
    from duel_lessons.teaching.checks import LessonError

    lesson = Lesson("00", rules="divisor-duel", start=60, small=12, candidates=[2, 9, 11])
    with pytest.raises(LessonError):
        lesson.solution(1, [2, 3, 4])


FEEDBACK_CALLS = ("lesson.check(", "lesson.guess(", "lesson.test(", "lesson.reveal(")


@pytest.mark.parametrize("path", lessons(converted_only=True))
def test_run_all_of_a_student_copy_answers_nothing(path: Path, tmp_path: Path) -> None:
    import nbclient
    import nbformat

    copy = nbformat.reads(json.dumps(student_notebook(load(path))), as_version=4)  # type: ignore[no-untyped-call]
    nbclient.NotebookClient(
        copy, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    asked = 0
    for cell in copy.cells:
        if cell.cell_type != "code" or not any(call in cell.source for call in FEEDBACK_CALLS):
            continue
        printed = "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")
        assert "Not answered yet" in printed or "Locked" in printed, (cell.source, printed)
        assert "✅" not in printed and "Model answer" not in printed, (cell.source, printed)
        asked += 1
    assert asked >= 4, f"{path.name}: only {asked} exercises, guesses or tests"
