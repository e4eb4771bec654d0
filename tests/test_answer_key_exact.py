"""The answer key's edge cases, each with the exact text written by hand.

``test_student_copies.py::test_answer_key_is_up_to_date`` checks the key of the real lessons;
these are the shapes the lessons do not have (yet): no title, a solution as the first cell, a
check cell with nothing above it, solution cells that are not ``lesson.solution(name)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from duel_lessons.teaching.keys import answer_key
from duel_lessons.teaching.markers import CopyError

HEAD = [
    "# Answer key",
    "",
    "Made from the lessons' solution cells by `duel-lessons answer-key notebooks/`; "
    "the answers are computed from each lesson's parameters.",
]


def key(tmp_path: Path, *cells: nbformat.NotebookNode, name: str = "01-test.ipynb") -> list[str]:
    nbformat.write(new_notebook(cells=list(cells)), tmp_path / name)
    return answer_key(tmp_path).split("\n")


def solution(source: str) -> nbformat.NotebookNode:
    return new_code_cell("# SOLUTION\n" + source)


def test_the_title_is_the_first_level_one_heading_of_a_text_cell(tmp_path: Path) -> None:
    lines = key(
        tmp_path,
        new_code_cell("# not a title: code"),
        new_markdown_cell("## Goals\n#tag\n"),
        new_markdown_cell("Some words\n#   Divisor Duel  \n# Second title"),
        new_markdown_cell("# Later title"),
    )
    assert lines == [*HEAD, "", "## 01-test: Divisor Duel", ""]


def test_without_a_title_the_file_name_stands_in(tmp_path: Path) -> None:
    assert key(tmp_path, new_markdown_cell("no heading"), name="07-odd.ipynb")[3:] == ["", "## 07-odd: 07-odd", ""]


def test_a_solution_shows_the_cell_above_it_as_the_question(tmp_path: Path) -> None:
    lines = key(tmp_path, new_markdown_cell("# T"), new_code_cell("  answer = ...  "), solution("answer = 4"))
    assert lines[5:] == ["", "```python", "answer = ...", "```", "", "```python", "# SOLUTION", "answer = 4", "```", ""]


def test_below_a_check_cell_the_question_is_the_cell_above_the_check(tmp_path: Path) -> None:
    lines = key(
        tmp_path,
        new_markdown_cell("# T"),
        new_code_cell("answer = ..."),
        new_code_cell("lesson.check(1, answer)"),
        solution("answer = 4"),
    )
    assert lines[5:9] == ["", "```python", "answer = ...", "```"]


def test_below_a_check_cell_second_the_question_is_the_first_cell(tmp_path: Path) -> None:
    lines = key(tmp_path, new_code_cell("answer = ..."), new_code_cell("lesson.check(1, answer)"), solution("x"))
    assert lines[5:9] == ["", "```python", "answer = ...", "```"]


def test_a_check_cell_first_is_itself_the_question(tmp_path: Path) -> None:
    """Nothing above the check: it is shown (not the last cell of the notebook, which is what [-1] would be)."""
    lines = key(tmp_path, new_code_cell("lesson.check(1, answer)"), solution("answer = 4"), new_code_cell("last"))
    assert lines[5:9] == ["", "```python", "lesson.check(1, answer)", "```"]


def test_a_solution_first_has_no_question(tmp_path: Path) -> None:
    lines = key(tmp_path, solution("answer = 4"), new_code_cell("the last cell"))
    assert lines[3:] == [
        "",
        "## 01-test: 01-test",
        "",
        "```python",
        "",
        "```",
        "",
        "```python",
        "# SOLUTION",
        "answer = 4",
        "```",
        "",
    ]


@pytest.mark.parametrize(
    "source",
    [
        "lesson.solution(",  # not Python
        "lesson.solution('a')\nlesson.solution('b')",  # two calls
        "lesson.solution('a', why='x')",  # a keyword: the old form
        "lesson.solution(NAME)",  # not a constant
        "lesson.solution()",
        "lesson.solution('a', 'b')",
        "other.solution('a')",
        "x = lesson.solution('a')",  # not a bare call
    ],
)
def test_a_solution_cell_of_another_form_is_shown_as_code(tmp_path: Path, source: str) -> None:
    lines = key(tmp_path, new_code_cell("q"), solution(source))
    assert lines[5:] == ["", "```python", "q", "```", "", "```python", "# SOLUTION", *source.split("\n"), "```", ""]


def test_a_named_solution_in_a_notebook_without_a_lesson_is_refused_by_name(tmp_path: Path) -> None:
    nbformat.write(
        new_notebook(cells=[new_code_cell("q"), solution("lesson.solution('first')")]), tmp_path / "03-x.ipynb"
    )
    with pytest.raises(CopyError, match=r"03-x.ipynb: the model answer of 'first' cannot be computed: "):
        answer_key(tmp_path)


def test_only_lesson_notebooks_are_in_the_key(tmp_path: Path) -> None:
    nbformat.write(new_notebook(cells=[new_markdown_cell("# Scratch")]), tmp_path / "scratch.ipynb")
    nbformat.write(new_notebook(cells=[new_markdown_cell("# Two")]), tmp_path / "02-b.ipynb")
    nbformat.write(new_notebook(cells=[new_markdown_cell("# One")]), tmp_path / "01-a.ipynb")
    assert answer_key(tmp_path).split("\n")[3:] == ["", "## 01-a: One", "", "## 02-b: Two", ""]


@pytest.fixture
def lesson_98(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Lesson "98", registered for one test: a labelled exercise, an unlabelled one and a proof to order."""
    from duel_lessons.teaching import checks
    from duel_lessons.teaching.checks import LessonSpec

    spec = LessonSpec("98", needs=("start",))
    spec.check(1, label="Twice the start")(lambda answer, p: None)
    spec.model(1)(lambda p: (2 * p["start"], f"{p['start']} + {p['start']}"))
    spec.check("guess")(lambda answer, p: None)
    spec.model("guess")(lambda p: ([4, 8], ""))  # no reason given
    spec.parsons("proof", lines={"A": "Let n be odd.", "B": "Then n - 1 is even."}, proof=["A", "B"])
    monkeypatch.setitem(checks._SPECS, "98", spec)
    return spec


def lesson_cells(name: str, start: int = 6) -> list[nbformat.NotebookNode]:
    return [
        new_markdown_cell("# Lesson 98"),
        new_code_cell(f"# PARAMETERS\nSTART = {start}", metadata={"tags": ["parameters"]}),
        new_code_cell("from duel_lessons.teaching import Lesson\nlesson = Lesson('98', start=START)"),
        new_code_cell("answer = ..."),
        solution(f"lesson.solution({name!r})"),
    ]


def test_a_model_answer_with_its_label_and_reason(tmp_path: Path, lesson_98: Any) -> None:
    text = "\n".join(key(tmp_path, *lesson_cells("1", start=7)))
    assert text.endswith("```python\nanswer = ...\n```\n\n**Twice the start, model answer:** `14`\n\n7 + 7\n")


def test_a_model_answer_without_a_reason_ends_at_the_answer(tmp_path: Path, lesson_98: Any) -> None:
    text = "\n".join(key(tmp_path, *lesson_cells("guess")))
    assert text.endswith('```python\nanswer = ...\n```\n\n**Question "guess", model answer:** `[4, 8]`\n')


def test_a_proof_to_order_lists_its_lines_in_the_model_order(tmp_path: Path, lesson_98: Any) -> None:
    text = "\n".join(key(tmp_path, *lesson_cells("proof")))
    assert text.endswith(
        "**Question \"proof\", model answer:** `['A', 'B']`\n\n1. (A) Let n be odd.\n2. (B) Then n - 1 is even.\n\n"
        "Let n be odd. Then n - 1 is even.\n"  # the model's reason: the proof in order, as prose
    ), text


def test_a_name_the_lesson_has_no_model_for_is_refused(tmp_path: Path, lesson_98: Any) -> None:
    nbformat.write(new_notebook(cells=lesson_cells("2")), tmp_path / "98-x.ipynb")
    with pytest.raises(CopyError, match=r"has no model answer for '2': declare it or add @SPEC.model\('2'\)"):
        answer_key(tmp_path)
