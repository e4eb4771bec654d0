"""Student copies' bookkeeping, with exact values worked out by hand: the stored hash, what is in the
destination, the refusals' messages, backup names and the lesson's declarations file.

Fast (a few files in ``tmp_path``, no notebook run): the mutation area ``copies`` runs these first.
``test_student_copies.py`` checks the same through whole copies of small lessons.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.teaching import student_copies
from duel_lessons.teaching.markers import CopyError, MarkerError
from duel_lessons.teaching.student_copies import (
    COPY_KEY,
    _check_destination,
    _copy_state,
    _declarations,
    _plan_declarations,
    _plan_target,
    backup_path,
    content_hash,
    read_notebook,
    read_regular,
    sources_hash,
    student_notebook,
    write_student_copies,
)

STUDENT_HEADER = "# The student edition of this lesson's exercises, made by duel-lessons student-copies."


def code(source: str, **more: Any) -> dict[str, Any]:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None, **more}


def md(source: str, tags: list[str] | None = None) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {"tags": tags or []}, "source": source}


def notebook(*cells: dict[str, Any], **metadata: Any) -> str:
    return json.dumps({"cells": list(cells), "metadata": metadata, "nbformat": 4, "nbformat_minor": 4})


# -- the hash older copies carry: it may never change, or they would no longer be recognised --------


def test_the_sources_hash_is_that_of_the_types_and_sources_as_json() -> None:
    cells = [{"cell_type": "code", "source": ["x = ", "1"]}, {"source": "é"}, "not a cell"]
    # by hand: [type, source] per cell (a missing type is ""), JSON with ", " and UTF-8 as it is (no \\u00e9)
    expected = hashlib.sha256('[["code", "x = 1"], ["", "é"]]'.encode()).hexdigest()
    assert sources_hash(cells) == expected


def test_the_content_hash_is_that_of_types_sources_outputs_and_run_counts_as_json() -> None:
    """Every copy carries it (``content_sha256``): a copy made by this version is known by the next ones."""
    cells = [
        {"cell_type": "code", "source": ["x = ", "1"], "execution_count": 3, "metadata": {"tags": ["a"]},
         "outputs": [{"text": "é", "output_type": "stream", "name": "stdout"}]},
        {"source": "y", "outputs": None},
        ["not", "a", "cell"],
    ]  # fmt: skip
    # by hand: [type, source, outputs or [], run count] per cell, JSON with sorted keys and UTF-8 as it is
    text = '[["code", "x = 1", [{"name": "stdout", "output_type": "stream", "text": "é"}], 3], ["", "y", [], null]]'
    assert content_hash(cells) == hashlib.sha256(text.encode()).hexdigest()


# -- what is in the destination ---------------------------------------------------------------------


def test_an_older_copy_with_outputs_but_no_run_count_is_a_students_work(tmp_path: Path) -> None:
    """Copies written before ``content_sha256`` carry only ``sources_sha256``: any output is the student's."""
    cells = [code("x = ...")]
    path = tmp_path / "01-a.ipynb"
    path.write_text(notebook(*cells, **{COPY_KEY: {"sources_sha256": sources_hash(cells)}}), encoding="utf-8")
    assert _copy_state(path) == "ours"
    ran = [code("x = ...", outputs=[{"output_type": "stream", "name": "stdout", "text": "4"}])]
    path.write_text(notebook(*ran, **{COPY_KEY: {"sources_sha256": sources_hash(ran)}}), encoding="utf-8")
    assert _copy_state(path) == "edited"


def teacher_notebooks(folder: Path, *names: str) -> None:
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_text(notebook(code("# SOLUTION\nanswer = 4")), encoding="utf-8")


def test_a_destination_holding_teacher_notebooks_is_refused_naming_three(tmp_path: Path) -> None:
    src, dest = tmp_path / "notebooks", tmp_path / "s"
    src.mkdir()
    teacher_notebooks(dest, "03-c.ipynb", "01-a.ipynb", "02-b.ipynb")
    with pytest.raises(CopyError) as refused:
        _check_destination(src, dest)
    assert str(refused.value) == (
        f"Refusing: {dest} holds teacher notebooks with solutions (01-a.ipynb, 02-b.ipynb, 03-c.ipynb); "
        "write the student copies to a new folder."
    )
    teacher_notebooks(dest, "04-d.ipynb")
    with pytest.raises(CopyError) as refused:
        _check_destination(src, dest)
    assert str(refused.value) == (
        f"Refusing: {dest} holds teacher notebooks with solutions (01-a.ipynb, 02-b.ipynb, 03-c.ipynb, ...); "
        "write the student copies to a new folder."
    )


def test_a_destination_that_is_a_file_is_refused(tmp_path: Path) -> None:
    src, dest = tmp_path / "notebooks", tmp_path / "s"
    src.mkdir()
    dest.write_text("notes", encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        _check_destination(src, dest)
    assert str(refused.value) == f"{dest} is not a folder; nothing was written."
    assert dest.read_text(encoding="utf-8") == "notes"


def test_a_copy_in_the_way_is_refused_saying_why(tmp_path: Path) -> None:
    edited = tmp_path / "01-a.ipynb"
    edited.write_text(notebook(code("x = 5"), **{COPY_KEY: {"content_sha256": "0" * 64}}), encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        _plan_target(edited, False)
    assert str(refused.value) == (
        f"Refusing to overwrite {edited}: a student has edited this copy. "
        "Use --force (force=True) to replace it; a backup is kept."
    )
    other = tmp_path / "02-b.ipynb"
    other.write_text("my notes", encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        _plan_target(other, False)
    assert str(refused.value) == (
        f"Refusing to overwrite {other}: this command did not make it. "
        "Use --force (force=True) to replace it; a backup is kept."
    )
    assert _plan_target(edited, True) is True and _plan_target(other, True) is True


# -- backups ----------------------------------------------------------------------------------------


def test_backup_names_run_out_after_9999(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = time.strftime
    monkeypatch.setattr(time, "strftime", lambda fmt: real(fmt, (2026, 1, 2, 3, 4, 5, 4, 2, 0)))
    lesson = tmp_path / "01-a.ipynb"
    stamp = "01-a.ipynb.backup-20260102-030405"
    (tmp_path / stamp).touch()
    for k in range(2, 9999):
        (tmp_path / f"{stamp}-{k}").touch()
    assert backup_path(lesson) == tmp_path / f"{stamp}-9999"
    (tmp_path / f"{stamp}-9999").touch()
    with pytest.raises(CopyError) as refused:
        backup_path(lesson)
    assert str(refused.value) == f"No free name for a backup of {lesson}."


# -- the student edition of the declarations file --------------------------------------------------


def test_a_declarations_file_in_the_way_that_is_not_a_file_is_refused(tmp_path: Path) -> None:
    own = tmp_path / "own.lesson.toml"
    own.write_text(STUDENT_HEADER + "\nlesson = '04'\n", encoding="utf-8")
    for name, make in [
        ("link.lesson.toml", lambda p: p.symlink_to(own)),
        ("dangling.lesson.toml", lambda p: p.symlink_to(tmp_path / "nowhere")),
        ("folder.lesson.toml", lambda p: p.mkdir()),
    ]:
        target = tmp_path / name
        make(target)
        with pytest.raises(CopyError) as refused:
            _plan_declarations(target, True)
        assert str(refused.value) == (
            f"Refusing to replace {target}: not a regular file; remove it first. Nothing was written."
        )


def test_a_declarations_file_is_replaced_if_ours_and_kept_as_a_backup_with_force(tmp_path: Path) -> None:
    target = tmp_path / "04-x.lesson.toml"
    assert _plan_declarations(target, False) is False  # nothing there
    target.write_text(STUDENT_HEADER + "\nlesson = '04'\n", encoding="utf-8")
    assert _plan_declarations(target, False) is False  # ours: replaced, no backup
    target.write_text("lesson = '04'\n", encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        _plan_declarations(target, False)
    assert str(refused.value) == (
        f"Refusing to replace {target}: this command did not make it (use --force to keep it as a backup)."
    )
    assert _plan_declarations(target, True) is True
    target.write_bytes(b"\xff" + STUDENT_HEADER.encode())  # not UTF-8: not ours
    assert _plan_declarations(target, True) is True


GATED = {"cells": [md("# Lesson"), md("Odd numbers lose.", ["after:big"])]}


@pytest.mark.parametrize(
    ("name", "lesson"),
    [("04-x.ipynb", "04"), ("4-which-numbers-lose.ipynb", "04"), ("12-a-b.ipynb", "12")],
    ids=["plain", "one-digit-hyphens", "hyphens"],
)
def test_gated_texts_without_a_declarations_file_are_filed_under_the_number(
    tmp_path: Path, name: str, lesson: str
) -> None:
    found = _declarations(tmp_path / name, GATED)
    assert found is not None
    assert (found.lesson, found.source, found.texts) == (
        lesson,
        name.replace(".ipynb", ".lesson.toml"),
        {"part-1": ("big", "Odd numbers lose.")},
    )


def test_gated_texts_need_a_number_to_be_filed_under(tmp_path: Path) -> None:
    for name in ("x-04.ipynb", "lesson.ipynb"):
        with pytest.raises(CopyError) as refused:
            _declarations(tmp_path / name, GATED)
        assert str(refused.value) == (
            f"{tmp_path / name}: it has cells tagged after:..., so its name must start with its number (04-...)."
        )


def test_no_declarations_file_and_no_gated_texts_give_none(tmp_path: Path) -> None:
    assert _declarations(tmp_path / "x-y.ipynb", {"cells": [md("Plain.")]}) is None


def test_gated_texts_join_the_declarations_file_beside_the_notebook(tmp_path: Path) -> None:
    (tmp_path / "97-x.lesson.toml").write_text('lesson = "97"\n', encoding="utf-8")
    found = _declarations(tmp_path / "97-x.ipynb", GATED)
    assert found is not None
    assert (found.lesson, found.edition, found.texts) == ("97", "teacher", {"part-1": ("big", "Odd numbers lose.")})


def test_a_student_declarations_file_beside_the_notebook_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "97-x.lesson.toml"
    path.write_text('lesson = "97"\nedition = "student"\n', encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        _declarations(tmp_path / "97-x.ipynb", GATED)
    assert str(refused.value) == f"{path}: this is a student copy already; make copies from the teacher's lessons."


# -- the copy of one notebook -----------------------------------------------------------------------


def refusal(name: str, number: int, count: int, why: str) -> str:
    return (
        f"{name}: cell {number} of {count} looks like a solution marker but matches no rule: {why}. "
        'No student copy was written; fix the marker (see "Markers" in docs/teacher-guide.md).'
    )


def test_a_region_closed_by_another_marker_is_refused_naming_both() -> None:
    cells = [code("### BEGIN SOLUTION"), code("x = 4"), md("```{solution-end}\n```")]
    with pytest.raises(MarkerError) as refused:
        student_notebook({"cells": cells}, name="04-x.ipynb")
    why = 'it holds a {solution-end} directive, but cell 1 opened "BEGIN SOLUTION" alone'
    assert str(refused.value) == refusal("04-x.ipynb", 3, 3, why)
    cells = [md("```{solution-start} ex1\n```"), code("x = 4"), code("### END HIDDEN TESTS"), code("y = 1")]
    with pytest.raises(MarkerError) as refused:
        student_notebook({"cells": cells})
    why = 'it holds "END HIDDEN TESTS" alone, but cell 1 opened a {solution-start} directive'
    assert str(refused.value) == refusal("The notebook", 3, 4, why)  # the name when none is given


def test_a_notebook_without_cells_gives_a_copy_without_cells() -> None:
    copy = student_notebook({"metadata": {"widgets": {"state": 1}, "kernelspec": {"name": "python3"}}})
    assert copy["cells"] == [] and copy["metadata"]["kernelspec"] == {"name": "python3"}
    assert "widgets" not in copy["metadata"]


def test_a_copy_records_both_hashes_of_its_cells() -> None:
    """Its mark: ``content_sha256``, and ``sources_sha256`` as older versions read it (outputs and counts cleared)."""
    copy = student_notebook({"cells": [code("x = 1", execution_count=2)], "metadata": {COPY_KEY: "old"}})
    assert copy["metadata"] == {
        COPY_KEY: {
            "sources_sha256": hashlib.sha256(b'[["code", "x = 1"]]').hexdigest(),
            "content_sha256": hashlib.sha256(b'[["code", "x = 1", [], null]]').hexdigest(),
        }
    }


# -- the command ------------------------------------------------------------------------------------


def test_an_empty_source_or_destination_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty name would mean the current folder: refused before anything is read."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    for src, dest in [("", "s"), ("  ", "s"), ("notebooks", ""), ("notebooks", " \n")]:
        with pytest.raises(CopyError) as refused:
            write_student_copies(src, dest)
        assert str(refused.value) == (
            "The source and the destination must be folder names, not empty; nothing was written."
        )
    assert list(here.iterdir()) == []


def test_one_notebook_as_the_source_guards_its_folder(tmp_path: Path) -> None:
    src = tmp_path / "notebooks"
    src.mkdir()
    lesson = src / "01-a.ipynb"
    lesson.write_text(notebook(code("# SOLUTION\nx = 1")), encoding="utf-8")
    for dest, why in [
        (src, f"Refusing to overwrite the teacher's notebooks: {src} is the source folder."),
        (src / "s", f"Refusing: {src / 's'} lies inside the source folder {src}; choose a folder outside it."),
    ]:
        with pytest.raises(CopyError) as refused:
            write_student_copies(lesson, dest)
        assert str(refused.value) == why
    assert [p.name for p in src.iterdir()] == ["01-a.ipynb"]


def test_a_declarations_file_in_the_destination_is_replaced_only_if_ours_or_with_force(tmp_path: Path) -> None:
    src, dest = tmp_path / "notebooks", tmp_path / "s"
    src.mkdir()
    dest.mkdir()
    (src / "04-x.ipynb").write_text(notebook(md("# Lesson"), md("Odd numbers lose.", ["after:big"])), encoding="utf-8")
    theirs = dest / "04-x.lesson.toml"
    theirs.write_text("my notes", encoding="utf-8")
    with pytest.raises(CopyError, match="this command did not make it"):
        write_student_copies(src, dest)
    assert [p.name for p in dest.iterdir()] == ["04-x.lesson.toml"] and theirs.read_text(encoding="utf-8") == "my notes"
    assert write_student_copies(src, dest, force=True) == [dest / "04-x.ipynb", theirs]
    assert theirs.read_text(encoding="utf-8").startswith(STUDENT_HEADER + "\n")
    (backup,) = dest.glob("04-x.lesson.toml.backup-*")
    assert backup.read_text(encoding="utf-8") == "my notes"
    assert write_student_copies(src, dest) == [dest / "04-x.ipynb", theirs]  # ours now: replaced, no new backup
    assert len(list(dest.iterdir())) == 3


def test_a_notebook_that_cannot_be_read_is_refused_saying_why(tmp_path: Path) -> None:
    folder = tmp_path / "01-a.ipynb"
    folder.mkdir()
    latin = tmp_path / "02-b.ipynb"
    latin.write_bytes('{"cells": ["café"]}'.encode("latin-1"))
    broken = tmp_path / "03-c.ipynb"
    broken.write_text("not JSON", encoding="utf-8")
    for path, why in [
        (folder, "is a folder, not a notebook"),
        (latin, "is not UTF-8 text (saved in another encoding, such as Latin-1?)"),
        (broken, "is not valid JSON (Expecting value: line 1 column 1 (char 0))"),
    ]:
        with pytest.raises(CopyError) as refused:
            read_notebook(path)
        assert str(refused.value) == f"{path}: {why}; nothing was written."


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ([1, 2], "is not a notebook (the file holds a JSON list, not an object)"),
        ({"nbformat": 5, "cells": [], "metadata": {}}, "has nbformat version 5; versions 3 and 4 can be read"),
        ({"nbformat": "4", "cells": [], "metadata": {}}, "has nbformat version '4'; versions 3 and 4 can be read"),
        # nbformat's own error without a message of its own: Python's words
        ({"nbformat": 4, "cells": 5, "metadata": {}}, "is not a valid notebook ('int' object is not iterable)"),
    ],
    ids=["list", "version-5", "version-text", "cells-a-number"],
)  # fmt: skip
def test_a_file_that_is_no_notebook_is_refused_saying_why(tmp_path: Path, data: Any, why: str) -> None:
    path = tmp_path / "01-a.ipynb"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        read_notebook(path)
    assert str(refused.value) == f"{path}: {why}; nothing was written."


def test_tags_that_are_not_text_are_left_for_validation_to_refuse(tmp_path: Path) -> None:
    path = tmp_path / "01-a.ipynb"
    cell = {"cell_type": "markdown", "source": "x", "metadata": {"tags": [["solution"], ["solution"]]}}
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 4, "cells": [cell], "metadata": {}}), encoding="utf-8")
    with pytest.raises(CopyError, match=r"01-a.ipynb: is not a valid notebook \(.+\); nothing was written.$"):
        read_notebook(path)


def test_a_long_validation_message_is_cut_at_160_characters(tmp_path: Path) -> None:
    path = tmp_path / "01-a.ipynb"
    cell = {"cell_type": "markdown", "source": "x", "metadata": {"tags": [["a" * 300]]}}
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 4, "cells": [cell], "metadata": {}}), encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        read_notebook(path)
    # the message starts with the value refused, ['aaa...'], cut at 160 characters: [' and 158 a's
    assert str(refused.value) == f"{path}: is not a valid notebook (['{'a' * 158}); nothing was written."


def test_a_link_is_not_read_through(tmp_path: Path) -> None:
    real = tmp_path / "real.ipynb"
    real.write_text(notebook(code("x = 1")), encoding="utf-8")
    link = tmp_path / "01-a.ipynb"
    link.symlink_to(real)
    with pytest.raises(CopyError) as refused:
        read_notebook(link)
    assert str(refused.value) == f"{link}: cannot be read (it is a link; give the file itself); nothing was written."


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "01-a.ipynb"
    os.mkfifo(fifo)
    with pytest.raises(CopyError) as refused:
        read_notebook(fifo)
    why = "cannot be read (it is not a regular file (a FIFO, a device or a socket))"
    assert str(refused.value) == f"{fifo}: {why}; nothing was written."


def test_a_version_3_teacher_notebook_in_the_destination_is_known_by_its_worksheets(tmp_path: Path) -> None:
    path = tmp_path / "01-a.ipynb"
    cells = [{"cell_type": "code", "input": "# SOLUTION\nx = 4", "source": "# SOLUTION\nx = 4", "metadata": {}}]
    data = {"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": None}, 5, {"cells": cells}]}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert _copy_state(path) == "teacher"


def test_a_source_that_is_missing_or_holds_no_notebooks_is_refused(tmp_path: Path) -> None:
    missing, empty = tmp_path / "missing", tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("x", encoding="utf-8")
    for src, why in [(missing, f"{missing} does not exist."), (empty, f"No notebooks (*.ipynb) in {empty}.")]:
        with pytest.raises(CopyError) as refused:
            write_student_copies(src, tmp_path / "s")
        assert str(refused.value) == why
    assert not (tmp_path / "s").exists()


def test_a_file_is_read_whole_up_to_its_limit_and_refused_above_it(tmp_path: Path) -> None:
    path = tmp_path / "01-a.ipynb"
    path.write_bytes(b"x" * 1000)
    assert read_regular(path, 1000) == b"x" * 1000
    path.write_bytes(b"x" * 1234)
    with pytest.raises(OSError) as refused:
        read_regular(path, 1000)
    assert refused.value.strerror == "it is 1,234 bytes, over the limit of 1,000"


@pytest.mark.parametrize(
    ("raised", "shown"),
    [(ValueError(), "ValueError"), (ValueError("\n"), "ValueError"), (KeyError(""), "''")],
    ids=["no-text", "blank-line", "empty-key"],
)
def test_an_nbformat_error_without_words_is_named_by_its_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raised: Exception, shown: str
) -> None:
    """A validation error whose text is empty still says what went wrong: its type's name, never '()'."""
    path = tmp_path / "01-a.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 4, "cells": [], "metadata": {}}), encoding="utf-8")

    def validate(notebook: object) -> None:
        raise raised

    monkeypatch.setattr(student_copies.nbformat, "validate", validate)
    with pytest.raises(CopyError) as refused:
        read_notebook(path)
    assert str(refused.value) == f"{path}: is not a valid notebook ({shown}); nothing was written."


def test_an_nbformat_error_is_named_by_its_own_message_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A validation error's ``message`` (its one line), not its whole text (jsonschema adds the schema and instance)."""
    path = tmp_path / "01-a.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 4, "cells": [], "metadata": {}}), encoding="utf-8")

    class Invalid(Exception):
        message = "'cell_type' is a required property"

        def __str__(self) -> str:
            return "Failed validating 'required' in schema:\n    {...}"

    def validate(notebook: object) -> None:
        raise Invalid()

    monkeypatch.setattr(student_copies.nbformat, "validate", validate)
    with pytest.raises(CopyError) as refused:
        read_notebook(path)
    expected = f"{path}: is not a valid notebook ('cell_type' is a required property); nothing was written."
    assert str(refused.value) == expected
