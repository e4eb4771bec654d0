"""Nothing tells before it asks: no lesson gives a discovery away before the student has guessed it.

Each lesson declares, per guess, what its students discover: ``SPEC.discovers("big", r"\\bodd\\b", ...)``
in ``duel_lessons/teaching/checks/lessonNN.py`` (regular expressions, case-insensitive, for the words,
numbers and formulas that give it away).  For each declared guess this test fails if a pattern matches

(a) the source of any cell of the **student copy** before the cell that opens the reveal gated by
    that guess (``lesson.reveal(...)``): the title, goals, prerequisites, markdown and code; or
(b) any output of the student copy after **Run All** with nothing answered: printed text, values,
    markdown and HTML, the words of every plot (titles, axis labels, legends, annotations; see
    tests/student_runs.py), and the text of every widget (descriptions, options, values).

An output that answers a pending guess must itself be locked: ``lesson.locked("big", thunk)``.
The student copies are run once per session (tests/student_runs.py), shared with the other tests.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from student_runs import LESSONS, load, run_notebook, run_student_copies, run_student_copy

from duel_lessons.teaching.checks import LessonSpec, spec
from duel_lessons.teaching.parameters import lesson_arguments
from duel_lessons.teaching.student_copies import student_notebook

#: The widget-state keys whose text a student sees.
WIDGET_TEXT = ("description", "value", "_options_labels", "tooltip", "placeholder", "label", "title", "text")
TAG = re.compile(r"<[^>]+>")


def source(cell: Mapping[str, Any]) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def reveal_cell(cells: Sequence[Mapping[str, Any]], lesson_spec: LessonSpec, guess: str) -> int | None:
    """The index of the first cell that opens a reveal gated by ``guess`` (None if there is none)."""
    names = [name for name, gate in lesson_spec.gates.items() if gate == guess]
    calls = [re.compile(rf"""lesson\.reveal\(\s*["']{re.escape(name)}["']""") for name in names]
    for i, cell in enumerate(cells):
        if cell.get("cell_type") == "code" and any(call.search(source(cell)) for call in calls):
            return i
    return None


def widget_texts(notebook: Mapping[str, Any]) -> Iterator[str]:
    """The text of every widget saved with the notebook (descriptions, option labels, values)."""
    state = notebook.get("metadata", {}).get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    for model in state.get("state", {}).values():
        for key, value in model.get("state", {}).items():
            if key not in WIDGET_TEXT:
                continue
            items = value if isinstance(value, list) else [value]
            yield from (TAG.sub(" ", html.unescape(x)) for x in items if isinstance(x, str))


def output_texts(notebook: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, text) for every output a student sees after Run All."""
    for i, cell in enumerate(notebook.get("cells", [])):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            where = (
                f"the output of cell {i} ({source(cell).strip().splitlines()[0][:60] if source(cell).strip() else ''})"
            )
            if output.get("output_type") == "stream":
                yield where, str(output.get("text", ""))
            elif output.get("output_type") == "error":
                yield where, f"{output.get('ename')}: {output.get('evalue')}"
            for kind, data in output.get("data", {}).items():
                text = "".join(data) if isinstance(data, list) else data
                if kind in ("text/plain", "text/markdown", "text/latex"):
                    yield where, str(text)
                elif kind == "text/html":
                    yield where, TAG.sub(" ", html.unescape(str(text)))
    yield from (("a widget", text) for text in widget_texts(notebook))


def leaks(
    teacher: Mapping[str, Any], executed: Mapping[str, Any] | None, lesson_spec: LessonSpec, whole: bool = False
) -> list[str]:
    """What, in the student copy of ``teacher`` (and the outputs of ``executed``), gives a discovery away.

    ``whole``: scan every static cell of the copy, after the reveal too (text after a question is gated:
    cells tagged ``after:GUESS`` become ``lesson.text(...)``, which shows it only once the guess is made).
    """
    cells = student_notebook(dict(teacher))["cells"]
    found = []
    for guess, patterns in lesson_spec.spoilers.items():
        compiled = [re.compile(p, re.IGNORECASE) for p in patterns]
        until = reveal_cell(cells, lesson_spec, guess)
        if until is None:
            found.append(f"{guess!r}: no cell opens a reveal gated by it (lesson.reveal(...))")
            until = len(cells)
        reveal, until = until, len(cells) if whole else until
        for i, cell in enumerate(cells[:until]):
            where = "before its reveal" if i < reveal else "after its reveal, in a cell that is not gated"
            for pattern in compiled:
                if match := pattern.search(source(cell)):
                    found.append(f"{guess!r}: {match.group(0)!r} in cell {i} ({cell['cell_type']}), {where}")
        for where, text in output_texts(executed or {}):
            for pattern in compiled:
                if match := pattern.search(text):
                    found.append(f"{guess!r}: {match.group(0)!r} in {where}")
    return found


def gated_guesses(lesson_spec: LessonSpec) -> set[str]:
    """The guesses and conjecture tests that open a reveal."""
    return set(lesson_spec.gates.values())


def lesson_spec_of(path: Path) -> LessonSpec:
    number, _ = lesson_arguments(load(path)["cells"])
    return spec(number)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_declares_what_its_students_discover(path: Path) -> None:
    lesson_spec = lesson_spec_of(path)
    missing = sorted(gated_guesses(lesson_spec) - set(lesson_spec.spoilers))
    assert not missing, (
        f"{path.name}: declare what each guess discovers, for {missing}: SPEC.discovers(name, r'pattern', ...) "
        f"in duel_lessons/teaching/checks/lesson{lesson_spec.lesson}.py, with the words, numbers and formulas "
        "that would give it away"
    )
    unknown = sorted(set(lesson_spec.spoilers) - gated_guesses(lesson_spec))
    assert not unknown, f"{path.name}: SPEC.discovers names guesses that open no reveal: {unknown}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_nothing_before_a_reveal_gives_its_discovery_away(path: Path) -> None:
    found = leaks(load(path), None, lesson_spec_of(path))
    assert not found, f"{path.name} tells before it asks:\n" + "\n".join(found)


#: The lessons whose text after each question is gated (issue 27): their whole student copy states no discovery
#: in any static cell.  Each lesson joins when its prose after the questions is tagged after:GUESS; the rest
#: are still checked up to each reveal by the test above.  Issue 27 stays open until this holds every lesson.
WHOLE_COPY_GATED = {"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"}


@pytest.mark.parametrize("path", [p for p in LESSONS if p.name[:2] in WHOLE_COPY_GATED], ids=lambda p: p.stem)
def test_no_static_cell_of_the_whole_student_copy_states_a_discovery(path: Path) -> None:
    found = leaks(load(path), None, lesson_spec_of(path), whole=True)
    assert not found, f"{path.name}: a static cell states a discovery (tag it after:GUESS):\n" + "\n".join(found)


def test_the_whole_copy_scan_sees_text_after_the_reveal() -> None:
    fake = tiny_spec()
    assert leaks(tiny("# Lose?"), None, fake) == []
    assert leaks(tiny("# Lose?"), None, fake, whole=True) == [
        "'big': 'odd' in cell 4 (markdown), after its reveal, in a cell that is not gated"
    ]
    gated = tiny("# Lose?")
    gated["cells"][-1]["metadata"] = {"tags": ["after:big"]}
    assert leaks(gated, None, fake, whole=True) == []


@pytest.fixture(scope="session")
def all_runs() -> None:
    """Every lesson's student copy run once, side by side (the cache is shared with the other test files)."""
    run_student_copies(LESSONS)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_run_all_shows_no_discovery(path: Path, all_runs: None) -> None:
    lesson_spec = lesson_spec_of(path)
    found = [leak for leak in leaks(load(path), run_student_copy(path), lesson_spec) if "before its reveal" not in leak]
    assert not found, f"{path.name}: Run All gives a discovery away (lock it with lesson.locked):\n" + "\n".join(found)


# -- the scanner can fail --------------------------------------------------------------------------------


def tiny(title: str, before: str = "", output: str = "", widget: str = "") -> dict[str, Any]:
    def code(text: str, tags: Sequence[str] = (), printed: str = "") -> dict[str, Any]:
        outputs = [{"output_type": "stream", "name": "stdout", "text": printed}] if printed else []
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": text, "outputs": outputs,
                "execution_count": None}  # fmt: skip

    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": title},
            code("lesson.guess('big', my_guess)"),
            {"cell_type": "markdown", "metadata": {}, "source": before},
            {"cell_type": "markdown", "metadata": {"tags": ["teacher"]}, "source": "**Teacher note.** All odd."},
            code("lesson.reveal('big')", printed=output),
            {"cell_type": "markdown", "metadata": {}, "source": "So the odd numbers lose."},
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    if widget:
        state = {"m": {"state": {"description": widget, "layout": "IPY_MODEL_x"}}}
        notebook["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": state}}
    return notebook


def tiny_spec() -> LessonSpec:
    fake = LessonSpec("93")
    fake.gates["big"] = "big"
    fake.discovers("big", r"\bodd\b", r"powers? of (2|two)")
    return fake


def test_the_scanner_finds_a_leak_in_a_title_a_cell_an_output_and_a_widget() -> None:
    fake = tiny_spec()
    assert leaks(tiny("# Which numbers lose?"), None, fake) == []  # after the reveal, and teacher notes: fine
    assert leaks(tiny("# Why do odd numbers lose?"), None, fake) == [
        "'big': 'odd' in cell 0 (markdown), before its reveal"
    ]
    assert len(leaks(tiny("# Lose?", before="Think about powers of 2."), None, fake)) == 1
    executed = tiny("# Lose?", output="🔒 Locked. Hint: powers of two")
    assert leaks(executed, executed, fake) == ["'big': 'powers of two' in the output of cell 4 (lesson.reveal('big'))"]
    executed = tiny("# Lose?", widget="<b>Odd</b> numbers")
    assert leaks(executed, executed, fake) == ["'big': 'Odd' in a widget"]


def test_the_scanner_wants_a_reveal_for_each_declared_guess() -> None:
    fake = tiny_spec()
    fake.discovers("other", "x")
    fake.gates["other"] = "other"
    assert "'other': no cell opens a reveal gated by it (lesson.reveal(...))" in leaks(tiny("# Lose?"), None, fake)


def test_the_scanner_reads_the_words_of_a_plot_after_run_all() -> None:
    """Run a tiny notebook that draws a plot whose title gives the discovery away: the scanner sees it."""
    notebook = tiny("# Lose?")
    notebook["cells"][1]["source"] = (
        "import matplotlib.pyplot as plt\nfigure, axes = plt.subplots()\naxes.plot([1, 2], [3, 4])\n"
        "axes.set_title('The powers of 2 lose')\nfigure"
    )
    notebook["cells"][4]["source"] = "lesson = None  # lesson.reveal('big')"
    notebook["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    executed = run_notebook(student_notebook(notebook))
    found = leaks(notebook, executed, tiny_spec())
    assert "'big': 'powers of 2' in the output of cell 1 (import matplotlib.pyplot as plt)" in found, found
