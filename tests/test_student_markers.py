"""Every way a teacher may mark a solution, nbgrader's included: the student copy holds none of it (issue 30).

``FORMS`` is the table: one notebook per marking form, each with a secret in its solution, and the
cells its student copy must hold instead, written out by hand (nbgrader's stub where nbgrader puts
one).  ``REFUSED`` lists cells that look like markers but match no rule: ``student-copies`` names the
notebook and the cell and writes nothing.  ``KEPT`` lists ordinary cells that must reach the students
as they are.  The table is in docs/teacher-guide.md ("Markers").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from lesson_helpers import plain_id

from duel_lessons.cli.app import main
from duel_lessons.teaching.markers import is_removed
from duel_lessons.teaching.student_copies import student_notebook, write_student_copies

#: nbgrader's stubs, written out (its ClearSolutions defaults for Python and for text).
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
TEXT = "YOUR ANSWER HERE"
SECRET = "odd_numbers_lose_7919"


def code(source: str, **metadata: Any) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "source": source,
        "metadata": metadata,
        "outputs": [{"output_type": "stream", "name": "stdout", "text": "printed"}],
        "execution_count": 4,
    }


def md(source: str, **metadata: Any) -> dict[str, Any]:
    return {"cell_type": "markdown", "source": source, "metadata": metadata}


def raw(source: str, **metadata: Any) -> dict[str, Any]:
    return {"cell_type": "raw", "source": source, "metadata": metadata}


def grader(**flags: Any) -> dict[str, Any]:
    return {"nbgrader": {"grade_id": "q1", "schema_version": 3, **flags}}


REGION = f"def squares(n):\n    ### BEGIN SOLUTION\n    return [{SECRET} * k for k in n]\n    ### END SOLUTION"
STUBBED = "def squares(n):\n    # YOUR CODE HERE\n    raise NotImplementedError()"

#: name -> (the marked cells, the sources that the copy holds in their place)
FORMS: dict[str, tuple[list[dict[str, Any]], list[str]]] = {
    # nbgrader: regions become its stub, with or without its metadata
    "nbgrader region without metadata": ([code(REGION)], [STUBBED]),
    "nbgrader region in a solution cell": ([code(REGION, **grader(solution=True, grade=False))], [STUBBED]),
    "nbgrader solution cell without a region": ([code(f"x = {SECRET}", **grader(solution=True))], [STUB]),
    'nbgrader "solution": "true"': ([code(f"x = {SECRET}", **grader(solution="true"))], [STUB]),
    'nbgrader "solution": "True"': ([code(f"x = {SECRET}", **grader(solution="True"))], [STUB]),
    'nbgrader "solution": "yes"': ([code(f"x = {SECRET}", **grader(solution="yes"))], [STUB]),
    'nbgrader "solution": "1"': ([code(f"x = {SECRET}", **grader(solution="1"))], [STUB]),
    'nbgrader "solution": 1': ([code(f"x = {SECRET}", **grader(solution=1))], [STUB]),
    'nbgrader "solution": " TRUE "': ([code(f"x = {SECRET}", **grader(solution=" TRUE "))], [STUB]),
    "nbgrader manually graded answer (markdown)": (
        [md(f"Odd numbers lose: {SECRET}", **grader(solution="true", grade="true", points=2))],
        [TEXT],
    ),
    "nbgrader region in markdown": (
        [md(f"Explain:\n### BEGIN SOLUTION\n{SECRET}\n### END SOLUTION")],
        ["Explain:\n" + TEXT],
    ),
    "nbgrader hidden tests": (
        [
            code(
                f"assert squares([1]) == [1]\n### BEGIN HIDDEN TESTS\nassert squares([{SECRET}])\n### END HIDDEN TESTS",
                **grader(grade=True, solution=False, points=1),
            )
        ],
        ["assert squares([1]) == [1]"],
    ),
    "two nbgrader regions in one cell": (
        [
            code(
                f"a = 1\n### BEGIN SOLUTION\nb = {SECRET}\n### END SOLUTION\n"
                "c = 3\n# BEGIN SOLUTION\nd = 4\n# END SOLUTION"
            )
        ],
        [f"a = 1\n{STUB}\nc = 3\n{STUB}"],
    ),
    "nbgrader region in lower case": ([code(f"# begin solution\nx = {SECRET}\n# end solution")], [STUB]),
    "nbgrader region with one #": ([code(f"# BEGIN SOLUTION\nx = {SECRET}\n# END SOLUTION")], [STUB]),
    "nbgrader region in an HTML comment": ([md(f"<!-- BEGIN SOLUTION -->\n{SECRET}\n<!-- END SOLUTION -->")], [TEXT]),
    "a region across cells": (
        [code("### BEGIN SOLUTION"), code(f"x = {SECRET}"), md(f"Because {SECRET}"), code("### END SOLUTION")],
        [],
    ),
    # metadata and tags
    '"solution": "true" without nbgrader': ([code(f"x = {SECRET}", solution="true")], []),
    '"Solution": "yes" (a capital)': ([code(f"x = {SECRET}", Solution="yes")], []),
    '"teacher": true': ([md(f"Note: {SECRET}", teacher=True)], []),
    'tags "solution;teacher"': ([code(f"x = {SECRET}", tags="solution;teacher")], []),
    'tag ["solution;teacher"]': ([code(f"x = {SECRET}", tags=["solution;teacher"])], []),
    'tag [" Solution "]': ([code(f"x = {SECRET}", tags=[" Solution "])], []),
    'tag ["SOLUTION"]': ([code(f"x = {SECRET}", tags=["SOLUTION"])], []),
    'tag ["teacher note"]': ([md(SECRET, tags=["teacher note"])], []),
    'tag ["Teacher Notes"]': ([md(SECRET, tags=["Teacher Notes"])], []),
    'tag ["model-solution"]': ([code(f"x = {SECRET}", tags=["model-solution"])], []),
    'tag ["#solution"]': ([code(f"x = {SECRET}", tags=["#solution"])], []),
    'tags "hint|solution"': ([code(f"x = {SECRET}", tags="hint|solution")], []),
    'tag ["instructor"]': ([md(SECRET, tags=["instructor"])], []),
    'tag ["teacher-only"]': ([md(SECRET, tags=["teacher-only"])], []),
    "the Exercise2 nbextension": (
        [
            md("**Exercise 1.** Square them.", solution2="hidden", solution2_first=True),
            code(f"x = {SECRET}", solution2="hidden"),
            md(f"Because {SECRET}", solution2="shown"),
        ],
        ["**Exercise 1.** Square them."],
    ),
    "the Exercise nbextension": (
        [md("Why?", solution="hidden", solution_first=True), code(f"x = {SECRET}", solution="shown")],
        ["Why?"],
    ),
    "RISE speaker notes": ([md(SECRET, slideshow={"slide_type": "notes"})], []),
    # code comments
    "a byte-order mark before # SOLUTION": ([code(f"\ufeff# SOLUTION\nx = {SECRET}")], []),
    "a zero-width space before # SOLUTION": ([code(f"\u200b# SOLUTION\nx = {SECRET}")], []),
    "a no-break space in #\u00a0SOLUTION": ([code(f"#\u00a0SOLUTION\nx = {SECRET}")], []),
    "a trailing # SOLUTION comment (otter-grader)": (
        [code(f"x = {SECRET}  # SOLUTION\nprint(x)")],
        ["x = ...\nprint(x)"],
    ),
    "trailing # SOLUTION comments in a function": (
        [code(f"def f(n):\n    k = n + {SECRET}  # SOLUTION\n    return k * 2  # solution")],
        ["def f(n):\n    k = ...\n    ..."],
    ),
    "# SOLUTION as the last line": ([code(f"x = {SECRET}\n# SOLUTION")], []),
    "# SOLUTION after an import": ([code(f"import math\n# SOLUTION\nx = math.gcd({SECRET}, 2)")], []),
    "# %% Solution (a percent-format cell)": ([code(f"# %% Solution\nx = {SECRET}")], []),
    "# ✅ Solution": ([code(f"# ✅ Solution\nx = {SECRET}")], []),
    "# [Solution]": ([code(f"# [Solution]\nx = {SECRET}")], []),
    "a docstring naming the solution": ([code(f'"""Solution to exercise 2."""\nx = {SECRET}')], []),
    "# Teacher’s notes (a curly apostrophe)": ([code(f"# Teacher’s notes\nx = {SECRET}")], []),
    "# Teacher only": ([code(f"# Teacher only\nx = {SECRET}")], []),
    "# For teachers": ([code(f"# For teachers: run this live\nx = {SECRET}")], []),
    # text cells
    "**Solution:**": ([md(f"**Solution:** {SECRET}")], []),
    "*Solution.*": ([md(f"*Solution.* {SECRET}")], []),
    "Solution: (plain)": ([md(f"Solution: {SECRET}")], []),
    "Teacher note: (plain)": ([md(f"Teacher note: {SECRET}")], []),
    "Teacher’s notes — (plain, curly apostrophe)": ([md(f"Teacher’s notes — {SECRET}")], []),
    "Exercise 2 – Solution (plain)": ([md(f"Exercise 2 – Solution\n\n{SECRET}")], []),
    "a byte-order mark before **Teacher note:**": ([md(f"\ufeff**Teacher note:** {SECRET}")], []),
    "- **Solution**: (a bullet)": ([md(f"- **Solution**: {SECRET}")], []),
    "<details> with a Solution summary": (
        [md(f"<details>\n<summary>Show the solution</summary>\n\n{SECRET}\n</details>")],
        [],
    ),
    "<!-- solution --> first": ([md(f"<!-- solution -->\n{SECRET}")], []),
    "a MyST {solution} directive": ([md(f"Try it first.\n\n```{{solution}} ex1\n{SECRET}\n```")], []),
    "a MyST admonition titled Teacher note": ([md(f":::{{admonition}} Teacher note\n{SECRET}\n:::")], []),
    'an HTML class "solution"': ([md(f'<div class="alert solution">{SECRET}</div>')], []),
    "sphinx-exercise {solution-start} … {solution-end}": (
        [md("```{solution-start} ex1\n```"), code(f"x = {SECRET}"), md("```{solution-end}\n```")],
        [],
    ),
    "a raw cell starting Teacher note:": ([raw(f"Teacher note: {SECRET}")], []),
}

#: name -> (the cell, words its one-line refusal must contain besides the notebook and "cell 2 of 3")
REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "### BEGIN SOLUTON (misspelt)": (code(f"### BEGIN SOLUTON\nx = {SECRET}\n### END SOLUTON"), "BEGIN SOLUTON"),
    "BEGIN SOLUTION without END": (code(f"### BEGIN SOLUTION\nx = {SECRET}\ny = 2"), 'no "END SOLUTION"'),
    "END SOLUTION without BEGIN": (code(f"x = {SECRET}\n### END SOLUTION"), 'no "BEGIN SOLUTION"'),
    "nested BEGIN SOLUTION": (
        code(f"### BEGIN SOLUTION\n### BEGIN SOLUTION\nx = {SECRET}\n### END SOLUTION\n### END SOLUTION"),
        "inside the region",
    ),
    "BEGIN HIDDEN TESTS without END": (code(f"assert f(1)\n### BEGIN HIDDEN TESTS\nassert f({SECRET})"), "HIDDEN"),
    "### BEGIN HIDEN TESTS (misspelt)": (
        code(f"### BEGIN HIDEN TESTS\nassert f({SECRET})\n### END HIDEN TESTS"),
        "HIDEN",
    ),
    "# begin soluton (lower case, misspelt)": (code(f"# begin soluton\nx = {SECRET}\n# end soluton"), "soluton"),
    "### BEGIN ANSWER (not nbgrader's)": (code(f"### BEGIN ANSWER\nx = {SECRET}\n### END ANSWER"), "BEGIN ANSWER"),
    "BEGIN SOLUTION after code on its line": (code(f"x = 1  ### BEGIN SOLUTION\ny = {SECRET}"), "BEGIN SOLUTION"),
    '"solution": "maybe"': (code(f"x = {SECRET}", solution="maybe"), "maybe"),
    'nbgrader "solution": "sometimes"': (code(f"x = {SECRET}", **grader(solution="sometimes")), "sometimes"),
    'nbgrader "solution": 2': (code(f"x = {SECRET}", **grader(solution=2)), "neither true nor false"),
    'nbgrader metadata "solution" (not an object)': (code(f"x = {SECRET}", nbgrader="solution"), "not an object"),
    'metadata key "soluton"': (code(f"x = {SECRET}", soluton=True), "soluton"),
    '"solution2": "hiden" (not "hidden" or "shown")': (code(f"x = {SECRET}", solution2="hiden"), "solution2"),
    'nbgrader key "soltuion"': (code(f"x = {SECRET}", nbgrader={"soltuion": True}), "soltuion"),
    'tag "soluton"': (code(f"x = {SECRET}", tags=["soluton"]), "soluton"),
    'tag "techer"': (md(SECRET, tags=["techer"]), "techer"),
    "# SOLUTON (misspelt)": (code(f"# SOLUTON\nx = {SECRET}"), "SOLUTON"),
    "# SOLUTN (two letters off)": (code(f"# SOLUTN\nx = {SECRET}"), "SOLUTN"),
    "# Exercise 2 - soultion": (code(f"# Exercise 2 - soultion\nx = {SECRET}"), "soultion"),
    "# Teacher ntoe": (code(f"# Teacher ntoe: run live\nx = {SECRET}"), "ntoe"),
    "**Soluiton:**": (md(f"**Soluiton:** {SECRET}"), "Soluiton"),
    "Techer note: (plain)": (md(f"Techer note: {SECRET}"), "Techer"),
    "a lone BEGIN SOLUTION cell never closed": (code("### BEGIN SOLUTION"), "no later cell closes"),
    "a lone END SOLUTION cell": (code("### END SOLUTION"), "no earlier cell opened"),
}

#: Ordinary cells (and nbgrader cells with nothing to hide): copied as they are.
KEPT = [
    md("Solutions are in the answer key."),
    md("Teacher notes are in the answer key."),
    md("The hidden tests check more cases; the end solution is yours."),
    md("Write your solution in the cell below."),
    md("**Teacher notebook** set-up"),
    md("Describe the pattern you see.", **grader(task=True, grade=False, solution=False)),
    md(TEXT, **grader(solution=True, grade=True, points=2)),
    code("# Check your solution below\nlesson.check(1, answer)"),
    code("# end of setup\nx = 1"),
    code("# Resolution of the plot\nplot(x)"),
    code("assert squares([1]) == [1]", **grader(grade=True, solution=False, points=1)),
    code(STUBBED, **grader(solution=True)),
    code("x = 1", **grader(solution="false")),
    code("x = 1", solution="no"),
    code("x = 1", tags=["solutionary", "teaching", "parameters"]),  # "teachers-guide" names the teacher: removed
    code("answer = ...  # your solution"),
    code('print("the solution is yours")'),
    code("total = a == b  # solutions"),
    code("# END OF SETUP\nx = 1"),  # capitals after one #: not nbgrader's shape
    code("# Teacher mode\nTEACHER_MODE = False"),  # two letters from "teacher note": not a misspelling
    md("## END GAME\nWho moves last?"),
    md("<details><summary>Hint: check your answer</summary>Try 12 first.</details>"),
]


def notebook(*cells: dict[str, Any]) -> dict[str, Any]:
    return {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 4}


def copy_of(tmp_path: Path, *cells: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """The cells of the student copy that ``student-copies`` writes, and its text."""
    src = tmp_path / "lessons"
    src.mkdir()
    (src / "01-a.ipynb").write_text(json.dumps(notebook(*cells)), encoding="utf-8")
    (path,) = write_student_copies(src, tmp_path / "students")
    text = path.read_text(encoding="utf-8")
    return json.loads(text)["cells"], text


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_table_has_every_form_of_the_issue() -> None:
    assert len(FORMS) >= 32
    for name in (
        "nbgrader region without metadata",
        'nbgrader "solution": "true"',
        'tags "solution;teacher"',
        "**Solution:**",
        "Teacher note: (plain)",
        "a byte-order mark before # SOLUTION",
        "a trailing # SOLUTION comment (otter-grader)",
        "nbgrader hidden tests",
    ):
        assert name in FORMS


@pytest.mark.parametrize("name", list(FORMS))
def test_each_marking_form_leaves_no_solution_in_the_copy(name: str, tmp_path: Path) -> None:
    marked, expected = FORMS[name]
    before, after = md("# Lesson 1"), code("print('after')")
    cells, text = copy_of(tmp_path, before, *marked, after)
    assert SECRET not in text
    sources = ["".join(c["source"]) for c in cells]
    assert sources == ["# Lesson 1", *expected, "print('after')"]
    assert "printed" not in text  # outputs cleared, the stubbed cells' too
    if len(marked) == 1:  # across cells, a cell is marked by the cells around it
        assert is_removed(marked[0])


@pytest.mark.parametrize("name", list(FORMS))
def test_a_copy_holds_no_marked_cell_and_copies_to_itself(name: str) -> None:
    marked, _ = FORMS[name]
    copy = student_notebook(notebook(md("# Lesson 1"), *marked))
    assert not [c for c in copy["cells"] if is_removed(c)]
    again = student_notebook(copy)
    assert [c["source"] for c in again["cells"]] == [c["source"] for c in copy["cells"]]


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_marker_that_matches_no_rule_is_refused(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cell, words = REFUSED[name]
    src = tmp_path / "lessons"
    src.mkdir()
    lesson = src / "02-b.ipynb"
    (src / "01-a.ipynb").write_text(json.dumps(notebook(code("x = 1"))), encoding="utf-8")
    lesson.write_text(json.dumps(notebook(md("# Lesson 2"), cell, code("print('after')"))), encoding="utf-8")
    before = snapshot(tmp_path)
    assert main(["student-copies", str(src), str(tmp_path / "students")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert str(lesson) in err and "cell 2 of 3" in err and words in err, err
    assert SECRET not in err  # the marker is quoted, never the solution after it
    assert snapshot(tmp_path) == before  # nothing written, not even the good notebook's copy
    assert not (tmp_path / "students").exists()


def test_a_refused_marker_inside_a_region_across_cells_goes_with_it(tmp_path: Path) -> None:
    cells, text = copy_of(
        tmp_path, code("### BEGIN SOLUTION"), code(f"# SOLUTON\nx = {SECRET}"), code("# END SOLUTION")
    )
    assert cells == [] and SECRET not in text


@pytest.mark.parametrize("cell", KEPT, ids=lambda c: plain_id("".join(c["source"])[:40] + json.dumps(c["metadata"])))
def test_ordinary_cells_reach_the_students_unchanged(cell: dict[str, Any], tmp_path: Path) -> None:
    assert not is_removed(cell)
    cells, _ = copy_of(tmp_path, cell)
    assert ["".join(c["source"]) for c in cells] == [cell["source"]]
    assert cells[0]["metadata"] == cell["metadata"]


def test_an_nbgrader_assignment_becomes_its_release_version(tmp_path: Path) -> None:
    """A whole nbgrader assignment, as its docs build one: the copy is what `nbgrader generate_assignment` gives."""
    assignment = [
        md("# Squares", **grader(task=False, solution=False, grade=False, locked=True)),
        code(REGION, **grader(solution=True, grade=False, locked=False)),
        code(
            "assert squares([2]) == [4]\n### BEGIN HIDDEN TESTS\nassert squares([3]) == [9]\n### END HIDDEN TESTS",
            **grader(solution=False, grade=True, locked=True, points=1),
        ),
        md(f"Why do odd numbers lose? {SECRET}", **grader(solution=True, grade=True, locked=False, points=2)),
    ]
    cells, text = copy_of(tmp_path, *assignment)
    assert ["".join(c["source"]) for c in cells] == ["# Squares", STUBBED, "assert squares([2]) == [4]", TEXT]
    assert SECRET not in text and "squares([3])" not in text
    assert [c["metadata"] for c in cells] == [c["metadata"] for c in assignment]  # nbgrader can still grade it
    copy = nbformat.read(tmp_path / "students" / "01-a.ipynb", as_version=4)
    nbformat.validate(copy)
    assert write_student_copies(tmp_path / "lessons", tmp_path / "students")  # its own copy: refreshed


def test_the_copy_runs_where_nbgrader_would_put_its_stub() -> None:
    """The stub is valid Python at any indentation: Run All raises NotImplementedError, not a SyntaxError."""
    import ast

    for marked, expected in FORMS.values():
        if all(c["cell_type"] == "code" for c in marked):
            for source in expected:
                ast.parse(source)


@pytest.mark.parametrize(
    ("cells", "number", "words"),
    [
        (
            [code("### BEGIN SOLUTION"), code("x = 1"), code("### BEGIN SOLUTION"), code("### END SOLUTION")],
            4,
            "cell 2",
        ),
        ([md("```{solution-start} ex1\n```"), code(f"x = {SECRET}")], 2, "{solution-start}"),
        ([code("x = 1"), md("```{solution-end}\n```")], 3, "{solution-end}"),
        ([code("### BEGIN HIDDEN TESTS"), code(f"assert f({SECRET})"), code("### END SOLUTION")], 4, "cell 2 opened"),
    ],
)
def test_regions_across_cells_must_balance(cells: list[dict[str, Any]], number: int, words: str) -> None:
    from duel_lessons.teaching.markers import MarkerError

    with pytest.raises(MarkerError) as caught:
        student_notebook(notebook(md("# Lesson"), *cells), name="lessons/03-c.ipynb")
    message = str(caught.value)
    assert message.startswith(f"lessons/03-c.ipynb: cell {number} of {len(cells) + 1} ")
    assert words in message and SECRET not in message and "\n" not in message
