"""Student copies: solutions and teacher notes go, exercises and checks stay, copies run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.cli.app import main
from duel_lessons.teaching.markers import is_removed
from duel_lessons.teaching.student_copies import student_notebook, write_student_copies

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


@pytest.mark.parametrize(
    ("kind", "source", "tags"),
    [
        ("code", "x = 1", ["Solution"]),
        ("code", "x = 1", ["solutions"]),
        ("code", "x = 1", ["TEACHER"]),
        ("code", "x = 1", "solution"),
        ("code", "x = 1", "parameters, Solutions"),
        ("code", "# Solution\nx = 1", None),
        ("code", "#SOLUTION\nx = 1", None),
        ("code", "  # solution: the fastest win\nx = 1", None),
        ("code", "# Exercise 2\n# SOLUTION\nx = 1", None),
        ("code", "# Teacher note: run this live\nx = 1", None),
        ("markdown", "**Teacher note:** Students often ...", None),
        ("markdown", "**Teacher note.** Students often ...", None),
        ("markdown", "\n**Teacher notes** for lesson 3", None),
        # the forms the module's docstring promises (issue 23: each one survived a mutation)
        ("code", "x = 1", ["teacher-note"]),
        ("code", "x = 1", ["teacher_note"]),
        ("markdown", "Anything", ["Teacher-Notes"]),
        ("markdown", "Anything", "hint, teacher_notes"),
        ("code", "x = 1", ["notes", "teachers-guide"]),  # a tag naming the teacher is teacher material
        ("markdown", "Anything", ["teachers-note"]),
        ("markdown", "__Teacher note__ Students often ...", None),
        ("markdown", "__Teacher notes:__ run it live", None),
        ("markdown", "## Teacher note\nStudents often ...", None),
        ("markdown", "## __Teacher note__", None),
        ("markdown", "> Teacher note: odd numbers lose", None),
        ("markdown", "> **Teacher's notes**", None),
        ("markdown", "## Solution\nOdd numbers lose.", None),
        ("markdown", "> Model solution: 512", None),
        ("code", "%%time\n# Model solution\nx = 1", None),
        ("code", "%matplotlib inline\n# Teacher's notes\nx = 1", None),
        ("code", "# Exercise 1 - solution\nx = 1", None),
        ("code", "# Solution to exercise 2\nx = 1", None),
    ],
)
def test_more_tags_and_markers_remove_cells(kind: str, source: str, tags: object) -> None:
    c = cell(kind, source)
    if tags is not None:
        c["metadata"]["tags"] = tags
    assert is_removed(c)


@pytest.mark.parametrize(
    ("kind", "source", "tags"),
    [
        ("code", "x = 1\n# SOLUTION below is for teachers", None),  # only the leading comments count
        ("code", "# solution_lines = helper\nx = 1", None),
        ("markdown", "Teacher notes are in the answer key.", None),
        ("code", "x = 1", ["solutionary"]),
        ("code", "x = 1", None),
        ("code", "x = 1", ["notes", "teaching"]),
        ("code", "# teacher notebook path\nx = 1", None),
        ("markdown", "**Teacher notebook** set-up", None),
        ("markdown", "> Note: teacher notes live in the answer key", None),
        ("markdown", "Solutions are in the answer key.", None),
        ("markdown", "", None),
    ],
)
def test_ordinary_cells_stay(kind: str, source: str, tags: object) -> None:
    c = cell(kind, source)
    if tags is not None:
        c["metadata"]["tags"] = tags
    assert not is_removed(c)


@pytest.mark.parametrize(
    ("metadata", "removed"),
    [
        ({"nbgrader": {"solution": True, "grade": False}}, True),
        ({"solution": True}, True),
        ({"nbgrader": {"solution": False, "grade": True}}, False),
        ({"solution": False}, False),
        ({"nbgrader": "solution"}, False),
        ({}, False),
    ],
)
def test_nbgrader_solution_cells_are_removed(metadata: dict[str, Any], removed: bool) -> None:
    assert is_removed({"cell_type": "code", "source": "x = 1", "metadata": metadata}) is removed
    assert is_removed({"cell_type": "markdown", "source": "x = 1", "metadata": metadata}) is removed


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
    src = tmp_path / "src"
    src.mkdir()
    (src / "01-x.ipynb").write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert main(["student-copies", str(src), str(src)]) == 2
    assert "Refusing" in capsys.readouterr().err
    assert main(["student-copies", str(tmp_path / "missing"), str(tmp_path / "out")]) == 2
    assert main(["student-copies", str(src), str(tmp_path / "out")]) == 0
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
    import nbformat
    from student_runs import run_student_copy

    teacher = json.loads(lesson.read_text(encoding="utf-8"))
    secret = solution_lines(teacher)
    assert secret, f"{lesson.name} has no solution cells to remove"
    written = write_student_copies(lesson, tmp_path)
    (copy_path,) = [path for path in written if path.suffix == ".ipynb"]
    text = copy_path.read_text(encoding="utf-8")
    for line in secret:
        assert line not in text, f"solution line left in the student copy: {line!r}"
    copy = nbformat.read(copy_path, as_version=4)
    assert not any("solution" in c.metadata.get("tags", []) for c in copy.cells)
    run = run_student_copy(lesson)  # Run All of the same copy, executed once for every test that reads it
    assert [c.source for c in run.cells] == [c.source for c in copy.cells]
    printed = "".join(o.get("text", "") for c in run.cells if c.cell_type == "code" for o in c.outputs)
    assert "Not answered yet" in printed
    assert "Traceback" not in printed


def test_answer_key_is_up_to_date() -> None:
    """docs/answer-key.md is made from the lessons: regenerate it with `duel-lessons answer-key notebooks/`."""
    from duel_lessons.teaching.keys import answer_key

    key = answer_key(ROOT / "notebooks")
    for lesson in LESSONS:
        assert f"## {lesson.stem}:" in key
    assert (ROOT / "docs" / "answer-key.md").read_text(encoding="utf-8") == key, (
        "docs/answer-key.md is stale: run `duel-lessons answer-key notebooks/ > docs/answer-key.md`"
    )


# -- losing nothing ------------------------------------------------------------------------

# imported here, not at the top, to keep the import block as on main (helper cli edits it)
from duel_lessons.teaching.keys import write_answer_key  # noqa: E402
from duel_lessons.teaching.markers import CopyError  # noqa: E402
from duel_lessons.teaching.student_copies import COPY_KEY  # noqa: E402


def notebook(*cells: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    return {"cells": list(cells), "metadata": metadata, "nbformat": 4, "nbformat_minor": 4}


def teacher_folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name in ("01-a.ipynb", "02-b.ipynb"):
        nb = notebook(
            cell("code", "answer = ..."), cell("code", "# SOLUTION\nanswer = 4"), cell("code", "check(answer)")
        )
        (path / name).write_text(json.dumps(nb), encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_issues_attack_is_refused_and_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`student-copies notebooks s && student-copies s notebooks` wiped the teacher's solutions."""
    teacher = teacher_folder(tmp_path / "notebooks")
    before = snapshot(teacher)
    assert main(["student-copies", str(teacher), str(tmp_path / "s")]) == 0
    copies = snapshot(tmp_path / "s")
    assert main(["student-copies", str(tmp_path / "s"), str(teacher)]) == 2
    err = capsys.readouterr().err
    assert "teacher notebooks" in err and len(err.strip().splitlines()) == 1
    assert snapshot(teacher) == before
    assert snapshot(tmp_path / "s") == copies
    assert "# SOLUTION" in (teacher / "01-a.ipynb").read_text(encoding="utf-8")


@pytest.mark.parametrize("where", ["same", "inside", "contains"])
def test_destinations_related_to_the_source_are_refused(tmp_path: Path, where: str) -> None:
    teacher = teacher_folder(tmp_path / "course" / "notebooks")
    dest = {"same": teacher, "inside": teacher / "students", "contains": tmp_path / "course"}[where]
    before = snapshot(tmp_path)
    with pytest.raises(CopyError, match="Refusing"):
        write_student_copies(teacher, dest)
    assert snapshot(tmp_path) == before
    assert not (teacher / "students").exists()


def test_a_link_to_the_source_folder_is_refused(tmp_path: Path) -> None:
    teacher = teacher_folder(tmp_path / "notebooks")
    (tmp_path / "link").symlink_to(teacher, target_is_directory=True)
    with pytest.raises(CopyError, match="source folder"):
        write_student_copies(teacher, tmp_path / "link")


def test_unchanged_copies_are_refreshed_edited_ones_kept(tmp_path: Path) -> None:
    teacher = teacher_folder(tmp_path / "notebooks")
    dest = tmp_path / "s"
    first = write_student_copies(teacher, dest)
    copy = json.loads(first[0].read_text(encoding="utf-8"))
    assert COPY_KEY in copy["metadata"]
    # an unchanged copy is refreshed
    assert write_student_copies(teacher, dest) == first
    # a copy the student has only run (outputs, counts) is their work too: refused without --force
    ran = json.loads(json.dumps(copy))
    ran["cells"][0]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "hi"}]
    first[0].write_text(json.dumps(ran), encoding="utf-8")
    with pytest.raises(CopyError, match="edited"):
        write_student_copies(teacher, dest)
    assert json.loads(first[0].read_text(encoding="utf-8"))["cells"][0]["outputs"][0]["text"] == "hi"
    first[0].write_text(json.dumps(copy), encoding="utf-8")  # as written: refreshed again
    assert write_student_copies(teacher, dest) == first
    # a student's answer is work: refused, and nothing at all is written
    copy = json.loads(first[0].read_text(encoding="utf-8"))
    copy["cells"][0]["source"] = "answer = 4  # my answer"
    first[0].write_text(json.dumps(copy), encoding="utf-8")
    (teacher / "02-b.ipynb").write_text(
        json.dumps(notebook(cell("code", "new = ..."), cell("code", "x", ["solution"]))), encoding="utf-8"
    )
    before = snapshot(dest)
    with pytest.raises(CopyError, match="edited"):
        write_student_copies(teacher, dest)
    assert snapshot(dest) == before
    # --force replaces it and keeps a backup with the student's answer
    write_student_copies(teacher, dest, force=True)
    backups = sorted(dest.glob("01-a.ipynb.backup-*"))
    assert len(backups) == 1 and "my answer" in backups[0].read_text(encoding="utf-8")
    assert "my answer" not in first[0].read_text(encoding="utf-8")
    assert "new = ..." in (dest / "02-b.ipynb").read_text(encoding="utf-8")
    assert not list(dest.glob(".*.tmp"))


def test_files_this_command_did_not_make_are_not_overwritten(tmp_path: Path) -> None:
    teacher = teacher_folder(tmp_path / "notebooks")
    dest = tmp_path / "s"
    dest.mkdir()
    (dest / "01-a.ipynb").write_text(json.dumps(notebook(cell("code", "my own notebook"))), encoding="utf-8")
    with pytest.raises(CopyError, match="did not make"):
        write_student_copies(teacher, dest)
    assert not (dest / "02-b.ipynb").exists()  # nothing written at all
    (dest / "01-a.ipynb").unlink()
    (dest / "01-a.ipynb").mkdir()
    with pytest.raises(CopyError, match="folder"):
        write_student_copies(teacher, dest, force=True)


def test_a_link_at_the_target_is_never_written_through(tmp_path: Path) -> None:
    teacher = teacher_folder(tmp_path / "notebooks")
    dest = tmp_path / "s"
    dest.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (dest / "01-a.ipynb").symlink_to(victim)
    for force in (False, True):
        with pytest.raises(CopyError, match="link"):
            write_student_copies(teacher, dest, force=force)
    assert victim.read_text(encoding="utf-8") == "precious"


def test_outputs_and_widget_state_are_stripped_and_v3_is_upgraded(tmp_path: Path) -> None:
    import nbformat

    src = tmp_path / "src"
    src.mkdir()
    nb = notebook(cell("code", "answer = ..."), widgets={"application/vnd.jupyter.widget-state+json": {"state": {}}})
    (src / "01-a.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    v3 = {
        "metadata": {"name": ""},
        "nbformat": 3,
        "nbformat_minor": 0,
        "worksheets": [
            {
                "metadata": {},
                "cells": [
                    {
                        "cell_type": "code",
                        "input": "# SOLUTION\nx = 1",
                        "language": "python",
                        "metadata": {},
                        "outputs": [],
                        "prompt_number": 1,
                    },
                    {
                        "cell_type": "code",
                        "input": "x = ...",
                        "language": "python",
                        "metadata": {},
                        "outputs": [],
                        "prompt_number": 2,
                    },
                ],
            }
        ],
    }
    (src / "02-old.ipynb").write_text(json.dumps(v3), encoding="utf-8")
    first, old = write_student_copies(src, tmp_path / "s")
    copy = nbformat.read(first, as_version=4)
    assert "widgets" not in copy.metadata
    assert all(c.outputs == [] and c.execution_count is None for c in copy.cells)
    upgraded = nbformat.read(old, as_version=4)
    assert upgraded.nbformat == 4 and [c.source for c in upgraded.cells] == ["x = ..."]


def test_answer_key_writer_is_atomic_and_careful(tmp_path: Path) -> None:
    teacher = teacher_folder(tmp_path / "notebooks")
    key = tmp_path / "key.md"
    assert write_answer_key(teacher, key) == key
    assert "answer = 4" in key.read_text(encoding="utf-8")
    assert write_answer_key(teacher, key) == key  # its own file: replaced
    notes = tmp_path / "notes.md"
    notes.write_text("my lesson plan", encoding="utf-8")
    with pytest.raises(CopyError, match="not an answer key"):
        write_answer_key(teacher, notes)
    assert notes.read_text(encoding="utf-8") == "my lesson plan"
    write_answer_key(teacher, notes, force=True)
    assert "answer = 4" in notes.read_text(encoding="utf-8")
    assert [p.read_text(encoding="utf-8") for p in tmp_path.glob("notes.md.backup-*")] == ["my lesson plan"]


def test_copies_get_the_usual_permissions(tmp_path: Path) -> None:
    import os

    teacher = teacher_folder(tmp_path / "notebooks")
    mask = os.umask(0o022)
    try:
        (copy, _) = write_student_copies(teacher, tmp_path / "s")
    finally:
        os.umask(mask)
    assert copy.stat().st_mode & 0o777 == 0o644


def test_an_untagged_model_solution_is_still_removed(tmp_path: Path) -> None:
    """A solution cell whose tag was forgotten must not reach the students."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("answer_1 = ..."), nbformat.v4.new_code_cell("lesson.solution(1, [512])")]
    src = tmp_path / "src"
    src.mkdir()
    nbformat.write(nb, src / "01-a.ipynb")
    write_student_copies(src, tmp_path / "out")
    copied = (tmp_path / "out" / "01-a.ipynb").read_text(encoding="utf-8")
    assert "answer_1" in copied and "512" not in copied and "lesson.solution" not in copied


# -- found by mutation testing (issue 23) ----------------------------------------------------------


def test_backup_names_carry_the_time_and_a_counter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from duel_lessons.teaching.student_copies import backup_path

    real = time.strftime
    monkeypatch.setattr(time, "strftime", lambda fmt: real(fmt, (2026, 1, 2, 3, 4, 5, 4, 2, 0)))
    lesson = tmp_path / "01-a.ipynb"
    first = backup_path(lesson)
    assert first == tmp_path / "01-a.ipynb.backup-20260102-030405"
    first.write_text("old", encoding="utf-8")
    assert backup_path(lesson) == tmp_path / "01-a.ipynb.backup-20260102-030405-2"
    (tmp_path / "01-a.ipynb.backup-20260102-030405-2").symlink_to(tmp_path / "nowhere")  # a dangling link: taken
    assert backup_path(lesson) == tmp_path / "01-a.ipynb.backup-20260102-030405-3"


def test_only_the_commands_own_answer_key_is_replaced(tmp_path: Path) -> None:
    from duel_lessons.teaching.keys import is_answer_key
    from duel_lessons.teaching.student_copies import KEY_INTRO, KEY_TITLE

    key = tmp_path / "key.md"
    key.write_text(f"{KEY_TITLE}\n\n{KEY_INTRO}; the answers ...\n", encoding="utf-8")
    assert is_answer_key(key)
    for text in (f"{KEY_TITLE}\n\nMy own notes\n", f"# My key\n\n{KEY_INTRO}\n", f"{KEY_TITLE}\n{KEY_INTRO}\n", ""):
        key.write_text(text, encoding="utf-8")
        assert not is_answer_key(key), text
    assert not is_answer_key(tmp_path / "missing.md")


def test_an_empty_answer_key_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = teacher_folder(tmp_path / "notebooks")
    monkeypatch.chdir(tmp_path)
    for name in ("", "  "):
        with pytest.raises(CopyError, match="file name is empty"):
            write_answer_key(teacher, name)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notebooks"]


def test_an_older_copy_without_a_content_hash_is_still_recognised(tmp_path: Path) -> None:
    from duel_lessons.teaching.student_copies import sources_hash

    teacher = teacher_folder(tmp_path / "notebooks")
    dest = tmp_path / "s"
    (first, _) = write_student_copies(teacher, dest)
    copy = json.loads(first.read_text(encoding="utf-8"))
    copy["metadata"][COPY_KEY] = {"sources_sha256": sources_hash(copy["cells"])}  # as older versions wrote it
    first.write_text(json.dumps(copy), encoding="utf-8")
    assert write_student_copies(teacher, dest)[0] == first  # unchanged: refreshed without --force
    copy["cells"][0]["execution_count"] = 1  # run by the student: their work
    first.write_text(json.dumps(copy), encoding="utf-8")
    with pytest.raises(CopyError, match="edited"):
        write_student_copies(teacher, dest)


def test_a_file_with_odd_metadata_in_the_way_is_refused_not_a_crash(tmp_path: Path) -> None:
    teacher = teacher_folder(tmp_path / "notebooks")
    dest = tmp_path / "s"
    dest.mkdir()
    (dest / "01-a.ipynb").write_text(json.dumps({"cells": [], "metadata": ["not", "a", "dict"]}), encoding="utf-8")
    with pytest.raises(CopyError, match="did not make"):
        write_student_copies(teacher, dest)
