"""Malformed notebooks and careless commands against student-copies and answer-key: a one-line error, nothing lost.

``MALFORMED`` lists broken notebooks (each must give a one-line CopyError naming the file, and
nothing is written); the hypothesis tests build random notebooks and random pairs of folders.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import nbformat
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel_lessons.teaching.keys import answer_key
from duel_lessons.teaching.markers import CopyError
from duel_lessons.teaching.student_copies import write_student_copies


def nb(cells: list[Any], metadata: Any = None, **extra: Any) -> dict[str, Any]:
    return {
        "cells": cells,
        "metadata": {} if metadata is None else metadata,
        "nbformat": 4,
        "nbformat_minor": 4,
        **extra,
    }


def code(source: str, tags: Any = (), **extra: Any) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "source": source,
        "metadata": {"tags": list(tags)} if not isinstance(tags, str) else {"tags": tags},
        "outputs": [],
        "execution_count": None,
        **extra,
    }


GOOD = nb([code("answer = ..."), code("# SOLUTION\nanswer = 4")])

#: name -> the bytes of a broken notebook (None: a folder named like a notebook)
MALFORMED: dict[str, bytes | None] = {
    "empty file": b"",
    "bad JSON": b'{"cells": [',
    "a JSON list": b"[]",
    "a JSON string": b'"notebook"',
    "a JSON number": b"4",
    "null": b"null",
    "null metadata": json.dumps(nb([code("x")], metadata=None) | {"metadata": None}).encode(),
    "null tags": json.dumps(nb([{**code("x"), "metadata": {"tags": None}}])).encode(),
    "tags a number": json.dumps(nb([{**code("x"), "metadata": {"tags": 5}}])).encode(),
    "null cell metadata": json.dumps(nb([{**code("x"), "metadata": None}])).encode(),
    "cells not a list": json.dumps(nb([]) | {"cells": {"a": 1}}).encode(),
    "a cell that is a string": json.dumps(nb(["print(1)"])).encode(),  # type: ignore[list-item]
    "unknown cell type": json.dumps(nb([{**code("x"), "cell_type": "python"}])).encode(),
    "source a number": json.dumps(nb([{**code("x"), "source": 42}])).encode(),
    "no nbformat": json.dumps({"cells": [], "metadata": {}}).encode(),
    "nbformat 99": json.dumps(nb([]) | {"nbformat": 99}).encode(),
    "nbformat a string": json.dumps(nb([]) | {"nbformat": "4"}).encode(),
    "latin-1 text": json.dumps(nb([code("# café")]), ensure_ascii=False).encode("latin-1"),
    "UTF-16 text": json.dumps(nb([code("x")])).encode("utf-16"),
    "binary junk": bytes(range(256)) * 4,
    "deeply nested JSON": b"[" * 100_000 + b"]" * 100_000,
    "a folder named x.ipynb": None,
}


def make_malformed(folder: Path, name: str) -> Path:
    path = folder / "02-broken.ipynb"
    content = MALFORMED[name]
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_notebook_stops_everything_with_one_line(tmp_path: Path, name: str) -> None:
    src = tmp_path / "lessons"
    src.mkdir()
    (src / "01-good.ipynb").write_text(json.dumps(GOOD), encoding="utf-8")
    broken = make_malformed(src, name)
    dest = tmp_path / "students"
    for run in (lambda: write_student_copies(src, dest), lambda: answer_key(src)):
        with pytest.raises(CopyError) as caught:
            run()
        message = str(caught.value)
        assert str(broken) in message and "\n" not in message, message
        assert len(message) < 400
    assert not dest.exists()  # not even the good notebook's copy
    assert not (tmp_path / "students").exists()


def test_a_utf8_bom_and_string_tags_are_accepted(tmp_path: Path) -> None:
    src = tmp_path / "lessons"
    src.mkdir()
    notebook = nb([code("answer = ..."), code("answer = 4", tags="Solutions"), code("x = 1", tags="parameters")])
    (src / "01-a.ipynb").write_bytes(b"\xef\xbb\xbf" + json.dumps(notebook).encode())
    (copy,) = write_student_copies(src, tmp_path / "s")
    sources = [c.source for c in nbformat.read(copy, as_version=4).cells]
    assert sources == ["answer = ...", "x = 1"]


# -- random notebooks ----------------------------------------------------------------------------

TAGS = ["solution", "Solution", "SOLUTIONS", "solutions", "teacher", "Teacher", "teacher-note", "Teacher_Note"]
TAGS += ["teacher_notes", "parameters", "hint", "notes", "solutionary"]
#: The tags that remove a cell, written out by hand (lower case): the oracle is this list, not the code under test.
REMOVING_TAGS = {"solution", "solutions", "teacher", "teacher-note", "teacher_note", "teacher_notes"}
#: Code markers: (leading comment, whether it removes the cell).
MARKERS = [
    ("", False),
    ("# SOLUTION\n", True),
    ("# Solution\n", True),
    ("#solution\n", True),
    ("# Exercise 1\n# SOLUTION\n", True),
    ("%%time\n# Model solution\n", True),
    ("# Teacher note: run it live\n", True),
    ("# note\n", False),
    ("# solution_lines = 3\n", False),
    ("\ufeff# SOLUTION\n", True),  # issue 30: a byte-order mark, a percent-format cell, other words
    ("# %% Solution\n", True),
    ("# Teacher only\n", True),
    ("# Resolution of the plot\n", False),
]
#: Markdown and raw first lines: (prefix, whether it removes the cell).
PREFIXES = [
    ("", False),
    ("**Teacher note:** ", True),
    ("**Teacher note.** ", True),
    ("__Teacher note__ ", True),
    ("## Teacher notes\n", True),
    ("> Teacher's note: ", True),
    ("## Solution\n", True),
    ("Note: ", False),
    ("Teacher notes are in the key. ", False),
    ("**Solution:** ", True),  # issue 30
    ("Teacher note: ", True),
    ("\ufeff## Solution\n", True),
    ("Solutions are in the key. ", False),
]
WORDS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)


@st.composite
def cells(draw: st.DrawFn) -> tuple[dict[str, Any], bool]:
    """A random cell, and whether a student copy must drop it (decided from what was drawn, not by is_removed)."""
    kind = draw(st.sampled_from(["code", "markdown", "raw"]))
    body = f"SECRET = {json.dumps(draw(WORDS))}"  # the test numbers the secrets
    tags = draw(st.lists(st.sampled_from(TAGS), max_size=2))
    tagged = any(t.lower() in REMOVING_TAGS for t in tags)
    if kind == "code":
        marker, marked = draw(st.sampled_from(MARKERS))
        cell = code(marker + body, tags if draw(st.booleans()) else ",".join(tags))
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "printed"}]
        cell["execution_count"] = 3
        return cell, tagged or marked
    prefix, marked = draw(st.sampled_from(PREFIXES))
    return {"cell_type": kind, "source": prefix + body, "metadata": {"tags": tags}}, tagged or marked


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(cells(), max_size=8))
def test_random_notebooks_lose_their_secrets_and_keep_the_rest(
    tmp_path: Path, drawn: list[tuple[dict[str, Any], bool]]
) -> None:
    notebook_cells = [c for c, _ in drawn]
    for i, c in enumerate(notebook_cells):
        c["source"] = c["source"].replace("SECRET", f"secret_{i}_")
    folder = tmp_path / f"case{os.urandom(4).hex()}"
    src, dest = folder / "lessons", folder / "students"
    src.mkdir(parents=True)
    notebook = nb(notebook_cells, metadata={"widgets": {"state": {}}})
    (src / "01-x.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    removed = [i for i, (_, drop) in enumerate(drawn) if drop]
    kept = [c["source"] for c, drop in drawn if not drop]
    (copy_path,) = write_student_copies(src, dest)
    copy = nbformat.read(copy_path, as_version=4)
    nbformat.validate(copy)
    assert [c.source for c in copy.cells] == kept
    text = copy_path.read_text(encoding="utf-8")
    for i in removed:
        assert f"secret_{i}_" not in text
    assert "widgets" not in copy.metadata and "printed" not in text
    # run again: an unchanged copy is refreshed, the teacher's file never changes
    before = snapshot(src)
    assert write_student_copies(src, dest) == [copy_path]
    assert snapshot(src) == before


# -- careless commands ---------------------------------------------------------------------------

FOLDERS = ["lessons", "students", "lessons/sub", "students/sub", ".", "elsewhere", "lessons/01-a.ipynb"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(FOLDERS), st.sampled_from(FOLDERS), st.booleans()), max_size=6))
def test_no_sequence_of_commands_loses_the_teachers_solutions(
    tmp_path: Path, commands: list[tuple[str, str, bool]]
) -> None:
    root = tmp_path / f"case{os.urandom(4).hex()}"
    lessons = root / "lessons"
    lessons.mkdir(parents=True)
    for name in ("01-a.ipynb", "02-b.ipynb"):
        (lessons / name).write_text(json.dumps(GOOD), encoding="utf-8")
    before = snapshot(lessons)
    for src, dest, force in commands:
        with contextlib.suppress(CopyError):
            write_student_copies(root / src, root / dest, force=force)
        assert {k: v for k, v in snapshot(lessons).items() if "/" not in k} == before
