"""Student copies: solutions and teacher notes go, exercises and checks stay, copies run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.cli.app import main
from duel_lessons.teaching.student_copies import is_removed, student_notebook, write_student_copies

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def cell(kind: str, source: str, tags: list[str] | None = None) -> dict[str, Any]:
    c: dict[str, Any] = {"cell_type": kind, "source": source, "metadata": {"tags": tags or []}}
    if kind == "code":
        c.update(outputs=[{"output_type": "stream", "name": "stdout", "text": "x"}], execution_count=3)
    return c


def test_tags_and_markers_remove_cells() -> None:
    assert is_removed(cell("code", "answer = 1", ["solution"]))
    assert is_removed(cell("code", "# SOLUTION\nanswer = 1"))
    assert is_removed(cell("markdown", "**Teacher note.** Students often ...", []))
    assert is_removed(cell("markdown", "Anything", ["teacher"]))
    assert not is_removed(cell("code", "answer = ...", ["parameters"]))
    assert not is_removed(cell("code", "check(answer, expected=1)"))


def test_student_notebook_clears_outputs() -> None:
    nb = {
        "cells": [cell("code", "answer = ..."), cell("code", "# SOLUTION\nanswer = 4"), cell("code", "check(answer)")],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    copy = student_notebook(nb)
    assert [c["source"] for c in copy["cells"]] == ["answer = ...", "check(answer)"]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in copy["cells"])
    assert len(nb["cells"]) == 3  # the teacher's notebook is untouched


def test_cli_refuses_to_overwrite_the_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "01-x.ipynb").write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert main(["student-copies", str(tmp_path), str(tmp_path)]) == 2
    assert "Refusing" in capsys.readouterr().err
    assert main(["student-copies", str(tmp_path / "missing"), str(tmp_path / "out")]) == 2
    assert main(["student-copies", str(tmp_path), str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "01-x.ipynb").exists()


def test_there_are_lessons() -> None:
    assert len(LESSONS) >= 6, "the lessons are missing from notebooks/"


def solution_lines(notebook: dict[str, Any]) -> list[str]:
    """The lines that only the notebook's solution cells contain (the secrets a copy must not keep)."""

    def lines(c: dict[str, Any]) -> set[str]:
        source = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        return {ln.strip() for ln in source.splitlines() if len(ln.strip()) > 12 and not ln.startswith("#")}

    public = set().union(*(lines(c) for c in notebook["cells"] if not is_removed(c)))
    solutions = [c for c in notebook["cells"] if is_removed(c) and c["cell_type"] == "code"]
    return sorted(set().union(*(lines(c) for c in solutions)) - public)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_student_copy_has_no_solutions_and_runs(lesson: Path, tmp_path: Path) -> None:
    import nbclient
    import nbformat

    teacher = json.loads(lesson.read_text(encoding="utf-8"))
    secret = solution_lines(teacher)
    assert secret, f"{lesson.name} has no solution cells to remove"
    (copy_path,) = write_student_copies(lesson, tmp_path)
    text = copy_path.read_text(encoding="utf-8")
    for line in secret:
        assert line not in text, f"solution line left in the student copy: {line!r}"
    copy = nbformat.read(copy_path, as_version=4)
    assert not any("solution" in c.metadata.get("tags", []) for c in copy.cells)
    nbclient.NotebookClient(
        copy, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    printed = "".join(o.get("text", "") for c in copy.cells if c.cell_type == "code" for o in c.outputs)
    assert "Not answered yet" in printed
    assert "Traceback" not in printed


def test_answer_key_is_up_to_date() -> None:
    """docs/answer-key.md is made from the lessons: regenerate it with `duel-lessons answer-key notebooks/`."""
    from duel_lessons.teaching.student_copies import answer_key

    key = answer_key(ROOT / "notebooks")
    for lesson in LESSONS:
        assert f"## {lesson.stem}:" in key
    assert (ROOT / "docs" / "answer-key.md").read_text(encoding="utf-8") == key, (
        "docs/answer-key.md is stale: run `duel-lessons answer-key notebooks/ > docs/answer-key.md`"
    )
