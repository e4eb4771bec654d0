"""The answer key's file handling and its adapted lessons, with exact values worked out by hand.

``test_answer_key_exact.py`` has the key's text for each shape of notebook; these add what mutation
testing (issue 30) found untested: the declarations read from the notebook's own folder, the size
limit of a file recognised as a key, and the message for an empty file name.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from duel_lessons.teaching.keys import answer_key, is_answer_key, write_answer_key
from duel_lessons.teaching.markers import CopyError

TITLE = "# Answer key"
INTRO = "Made from the lessons' solution cells by `duel-lessons answer-key notebooks/`"


@pytest.fixture
def lesson_97(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lesson "97", registered for one test, with no exercise of its own in Python: its declarations file decides."""
    from duel_lessons.teaching import checks
    from duel_lessons.teaching.checks import LessonSpec

    monkeypatch.setitem(checks._SPECS, "97", LessonSpec("97", needs=("start",)))


def test_the_model_answer_comes_from_the_declarations_beside_the_notebook(
    tmp_path: Path, lesson_97: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An adapted lesson's folder holds its own ``NN-*.lesson.toml``: the key reads that one, wherever it is run."""
    monkeypatch.delenv("DUEL_LESSONS_FOLDER", raising=False)
    monkeypatch.chdir(tmp_path)  # not the folder of the lessons: the current folder must not be what is read
    lessons = tmp_path / "adapted"
    lessons.mkdir()
    (lessons / "97-x.lesson.toml").write_text(
        'lesson = "97"\nneeds = ["start"]\n\n[exercise.triple]\nkind = "number"\n'
        'label = "Three times the start"\nvalue = "3 * start"\nwhy = "{start} three times."\n',
        encoding="utf-8",
    )
    cells = [
        new_markdown_cell("# Lesson 97"),
        new_code_cell("# PARAMETERS\nSTART = 7", metadata={"tags": ["parameters"]}),
        new_code_cell("from duel_lessons.teaching import Lesson\nlesson = Lesson('97', start=START)"),
        new_code_cell("answer = ..."),
        new_code_cell("# SOLUTION\nlesson.solution('triple')"),
    ]
    nbformat.write(new_notebook(cells=cells), lessons / "97-x.ipynb")
    # 3 × 7 = 21, the reason filled with START = 7
    assert answer_key(lessons).endswith(
        "```python\nanswer = ...\n```\n\n**Three times the start, model answer:** `21`\n\n7 three times.\n"
    )


def head(extra: str = "") -> str:
    return f"{TITLE}\n\n{INTRO}; the answers are computed from each lesson's parameters.\n{extra}"


def test_a_key_of_up_to_one_mebibyte_is_recognised_and_a_larger_file_is_not_read(tmp_path: Path) -> None:
    """Only the first 2**20 bytes are ever read: a larger file is not taken for this command's key."""
    key = tmp_path / "key.md"
    text = head()
    key.write_text(text + "x" * (2**20 - len(text)), encoding="utf-8")
    assert key.stat().st_size == 2**20 and is_answer_key(key)
    key.write_text(text + "x" * (2**20 + 1 - len(text)), encoding="utf-8")
    assert key.stat().st_size == 2**20 + 1 and not is_answer_key(key)


def test_a_file_that_is_not_utf8_or_not_a_file_is_no_key(tmp_path: Path) -> None:
    key = tmp_path / "key.md"
    key.write_bytes(head().encode("utf-8") + b"\xff\xfe")
    assert not is_answer_key(key)
    assert not is_answer_key(tmp_path)  # a folder
    assert not is_answer_key(tmp_path / "missing.md")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (head(), True),
        (f"{TITLE}\n\n{INTRO}", True),  # three lines, the last without its newline
        (f"{TITLE}\nx\n{INTRO} and more\n", True),  # the second line is not read
        (f"{TITLE}\n\n", False),  # three lines, the third empty
        (f"{TITLE}\n", False),  # two lines
        (f"{TITLE} \n\n{INTRO}\n", False),
        (f"\n{TITLE}\n\n{INTRO}\n", False),
        (f"{TITLE}\n\n Made from\n", False),
    ],
    ids=["full", "no-newline", "any-second-line", "third-empty", "two-lines", "title-space", "blank-first", "other"],
)
def test_a_key_is_known_by_its_title_and_the_start_of_its_third_line(tmp_path: Path, text: str, expected: bool) -> None:
    key = tmp_path / "key.md"
    key.write_text(text, encoding="utf-8")
    assert is_answer_key(key) is expected


def test_an_empty_file_name_is_refused_saying_what_to_give(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CopyError) as refused:
        write_answer_key(tmp_path, " ")
    assert str(refused.value) == "The answer key's file name is empty; give one, such as answer-key.md."
    assert list(tmp_path.iterdir()) == []


def lessons(tmp_path: Path) -> Path:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(new_notebook(cells=[new_markdown_cell("# One")]), folder / "01-a.ipynb")
    return folder


def test_a_file_not_made_by_the_command_is_refused_saying_how_to_replace_it(tmp_path: Path) -> None:
    src = lessons(tmp_path)
    notes = tmp_path / "notes.md"
    notes.write_text("my lesson plan", encoding="utf-8")
    with pytest.raises(CopyError) as refused:
        write_answer_key(src, notes)
    assert str(refused.value) == (
        f"Refusing to overwrite {notes}: it is not an answer key made by this command. "
        "Use --force to replace it; a backup is kept."
    )
    assert notes.read_text(encoding="utf-8") == "my lesson plan"


def test_a_key_written_is_recognised_as_one(tmp_path: Path) -> None:
    written = write_answer_key(lessons(tmp_path), tmp_path / "key.md")
    assert written == tmp_path / "key.md"
    assert written.read_text(encoding="utf-8") == head("\n## 01-a: One\n")
    assert is_answer_key(written)
