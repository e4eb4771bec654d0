"""Issue 27: conjectures tested beyond the data, a lesson object that answers nothing, declarations a teacher writes."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.teaching import declared
from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.lesson import Lesson, LessonError, forget

ROOT = Path(__file__).resolve().parents[1]
PARAMS_04 = {"rules": "divisor-duel", "upto": 10_000, "big": [15, 16, 21, 32], "win_from": 24, "all_from": 64}


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    forget()
    yield
    forget()


# -- conjectures beyond the data --------------------------------------------------------------------------


def test_a_rule_with_a_list_of_exceptions_is_refuted_beyond_upto(capsys: pytest.CaptureFixture[str]) -> None:
    lesson = Lesson("04", **PARAMS_04)
    listed = (2, 8, 32, 128, 512, 2048, 8192)  # the P-powers of 2 up to 10,000; the next is 2**15 = 32768
    assert not lesson.test(lambda n: n % 2 == 1 or n in listed)
    out = capsys.readouterr().out
    assert out.startswith(
        "❌ First counterexample: n = 32768. Your rule says 32768 wins (N), but 32768 loses (P). "
        "(It agrees for every n from 1 to 10,000: this one lies beyond the data.)"
    )


def test_the_rule_itself_holds_beyond_the_data(capsys: pytest.CaptureFixture[str]) -> None:
    lesson = Lesson("04", **PARAMS_04)
    assert lesson.test(lambda n: n % 2 == 1 or (n & (n - 1) == 0 and (n.bit_length() - 1) % 2 == 1))
    assert "and for 300 larger numbers up to 1,000,000,000,000" in capsys.readouterr().out


def test_a_rule_that_does_not_fit_the_data_seen_opens_no_reveal(capsys: pytest.CaptureFixture[str]) -> None:
    lesson = Lesson("04", **PARAMS_04)
    lesson.test(lambda n: n == 1)  # not constant, but wrong at n = 2
    assert lesson.reveal_text("loses") is None
    assert "🔒 The answer stays closed until your rule fits the small numbers, 1 to 30" in capsys.readouterr().out
    lesson.test(lambda n: n % 2 == 1 or n in (2, 8))  # right for 1..30 (32 is the first it misses)
    assert lesson.reveal_text("loses") is not None


# -- the student's objects answer nothing ----------------------------------------------------------------


def _walk(value: object, seen: set[int], depth: int = 0) -> Iterator[object]:
    """Everything reachable from ``value`` through attributes (public and private), dictionaries and containers."""
    if id(value) in seen or depth > 6:
        return
    seen.add(id(value))
    yield value
    children: list[object] = []
    if isinstance(value, dict) or type(value).__name__ == "mappingproxy":
        children += list(value.keys()) + list(value.values())  # type: ignore[attr-defined]
    elif isinstance(value, (list, tuple, set, frozenset)):
        children += list(value)
    elif not isinstance(value, (str, bytes, int, float, type(None))):
        for name in dir(value):
            if name.startswith("__") and name not in ("__dict__",):
                continue
            try:
                attribute = getattr(value, name)
            except Exception:
                continue
            if callable(attribute):
                continue  # methods are the lesson's actions; they are judged by what they print
            children.append(attribute)
    for child in children:
        yield from _walk(child, seen, depth + 1)


def test_the_lesson_object_holds_no_spec_model_or_truth() -> None:
    lesson = Lesson("04", **PARAMS_04)
    reached = list(_walk(lesson, set()))
    found = spec("04")
    forbidden = {
        id(f) for f in (*found.models.values(), *found.truths.values(), *found.reveals.values(), *found.checks.values())
    }
    assert forbidden and not [x for x in reached if id(x) in forbidden]
    assert not [x for x in reached if type(x).__name__ in ("LessonSpec", "Declarations", "Exercise")]
    assert "spec" not in dir(lesson) and "truth" not in dir(lesson) and "_model" not in dir(lesson)


def test_a_student_edition_shows_no_model_even_when_told_it_is_the_teachers(tmp_path: Path, capsys: Any) -> None:
    teacher = declared.load(next((ROOT / "notebooks").glob("04-*.lesson.toml")))
    (tmp_path / "04-which-numbers-lose.lesson.toml").write_text(teacher.student_text(), encoding="utf-8")
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        lesson = Lesson("04", student=False, **PARAMS_04)
        assert not lesson.check("order", ["B", "A", "C"])  # judged from the sealed file
        assert lesson.check("order", ["B", "C", "A", "I", "D", "G", "F"])
        capsys.readouterr()
        lesson.solution("order")
        assert capsys.readouterr().out.startswith("📖 Model answers are in the teacher's edition")
        with pytest.raises(LessonError, match="teacher's edition"):
            lesson.model("order")
        assert spec("04").models == {}
    finally:
        os.chdir(here)


def test_the_student_file_holds_no_reason_and_no_line_text_in_the_clear() -> None:
    teacher = declared.load(next((ROOT / "notebooks").glob("04-*.lesson.toml")))
    text = teacher.student_text()
    assert "odd − odd is even" not in text and "uses" not in text and "why" not in text
    student = declared.parse(text, "04-student.lesson.toml")
    assert student.edition == "student" and "why" not in student.exercises["order"].fields


# -- a teacher adds an exercise, without Python ------------------------------------------------------------

NEW_EXERCISE = """
[exercise.5]
kind = "winning-moves"
label = "Exercise 5 (every winning move from 84)"
start = 84
hint = "List the moves from 84 and what each one leaves."
why = "84 - 3 = 81, 84 - 7 = 77 and 84 - 21 = 63 are odd: P-positions."
"""


def test_a_teacher_adds_an_exercise_to_a_copy_of_a_lesson(tmp_path: Path, capsys: Any) -> None:
    """The teacher guide's example: "every winning move from 84", added to the declarations file, no Python."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    source = next((ROOT / "notebooks").glob("04-*.lesson.toml"))
    shutil.copy(source, folder / source.name)
    with open(folder / source.name, "a", encoding="utf-8") as file:
        file.write(NEW_EXERCISE)
    assert declared.check_folder(folder) == []
    here = Path.cwd()
    os.chdir(folder)
    try:
        lesson = Lesson("04", **PARAMS_04)
        assert not lesson.check(5, [3, 7])
        assert capsys.readouterr().out == (
            "🟠 Exercise 5 (every winning move from 84): partly right. 2 of the 3 winning moves: some are missing.\n"
            "💡 Hint: List the moves from 84 and what each one leaves.\n"
        )
        assert lesson.check(5, [21, 3, 7])  # worked out by hand: 81, 77 and 63 are odd
        assert spec("04").models["5"](lesson.params) == (
            [3, 7, 21],
            "84 - 3 = 81, 84 - 7 = 77 and 84 - 21 = 63 are odd: P-positions.",
        )
    finally:
        os.chdir(here)


ORDER_AB = (
    'lesson = "04"\n[exercise.o]\nkind = "order"\n[exercise.o.lines.A]\ntext = "a"\n[exercise.o.lines.B]\ntext = "b"\n'
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'lesson = "04"\n[exercise.5]\nkind = "winning-movez"\n',
            "04-x.lesson.toml: [exercise.5] kind: 'winning-movez' is not a kind",
        ),
        (
            'lesson = "04"\n[exercise.5]\nkind = "winning-moves"\nstart = -3\n',
            "04-x.lesson.toml: [exercise.5] start: give a whole number",
        ),
        (
            'lesson = "04"\n[exercise.5]\nkind = "number"\n',
            "04-x.lesson.toml: [exercise.5] answer: a 'number' exercise needs its answer (or a value formula).",
        ),
        (
            'lesson = "04"\n[exercise.5]\nkind = "number"\nanswer = 3\nanser = 4\n',
            "04-x.lesson.toml: [exercise.5] anser: not a field",
        ),
        ('lesson = "04"\n[exercise.5\n', "04-x.lesson.toml: not valid TOML"),
        (
            '[exercise.5]\nkind = "number"\n',
            '04-x.lesson.toml: the first line must name the lesson, such as lesson = "04".',
        ),
        (
            ORDER_AB + 'uses = ["A"]\n',
            "04-x.lesson.toml: [exercise.o] lines.A shows: line A is used by line B, so say in other words",
        ),
        (
            ORDER_AB,
            "04-x.lesson.toml: [exercise.o] lines: a proof has one conclusion, a line no other line uses; here A, B.",
        ),
        (
            'lesson = "04"\n[exercise.o]\nkind = "order"\n[exercise.o.lines.A]\ntext = "a"\nuses = ["B"]\nshows = "x"\n'
            '[exercise.o.lines.B]\ntext = "b"\nuses = ["A"]\nshows = "y"\n'
            '[exercise.o.lines.C]\ntext = "c"\nuses = ["A"]\n',
            "04-x.lesson.toml: [exercise.o] lines: the uses go round in a circle.",
        ),
    ],
)
def test_a_malformed_declaration_is_named_by_file_exercise_and_field(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "04-x.lesson.toml").write_text(text, encoding="utf-8")
    problems = declared.check_folder(tmp_path)
    assert len(problems) == 1 and problems[0].startswith(message), problems


def test_a_malformed_declaration_in_a_lesson_is_a_lesson_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "04-x.lesson.toml").write_text('lesson = "04"\n[exercise.5]\nkind = "numbr"\n', encoding="utf-8")
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(LessonError, match=r"04-x.lesson.toml: \[exercise.5\] kind: 'numbr' is not a kind"):
            Lesson("04", **PARAMS_04)
    finally:
        os.chdir(here)


def test_every_lessons_declarations_are_well_formed() -> None:
    assert declared.check_folder(ROOT / "notebooks") == []


# -- text that opens after a guess --------------------------------------------------------------------------


def _tiny_lesson() -> dict[str, Any]:
    def markdown(text: str, tags: tuple[str, ...] = ()) -> dict[str, Any]:
        return {"cell_type": "markdown", "metadata": {"tags": list(tags)}, "source": text}

    return {
        "cells": [
            markdown("# Which numbers lose?"),
            {
                "cell_type": "code",
                "metadata": {},
                "source": "lesson.guess('big', my_guess)",
                "outputs": [],
                "execution_count": None,
            },
            markdown("## Why do odd numbers lose?", ("after:big",)),
            markdown("**Teacher note.** Odd.", ("teacher",)),
            markdown("Every odd number is a P-position.", ("after:big",)),
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_a_gated_cell_is_sealed_in_the_student_copy_and_opens_after_the_guess(tmp_path: Path, capsys: Any) -> None:
    import json

    from duel_lessons.teaching.student_copies import write_student_copies

    src, dest = tmp_path / "teacher", tmp_path / "student"
    src.mkdir()
    (src / "04-tiny.ipynb").write_text(json.dumps(_tiny_lesson()), encoding="utf-8")
    written = sorted(p.name for p in write_student_copies(src, dest))
    assert written == ["04-tiny.ipynb", "04-tiny.lesson.toml"]
    copy = json.loads((dest / "04-tiny.ipynb").read_text(encoding="utf-8"))
    assert ["".join(c["source"]) for c in copy["cells"][2:]] == [
        'lesson.text("part-1")   # this part opens once you have answered above',
        'lesson.text("part-2")   # this part opens once you have answered above',
    ]
    everything = (dest / "04-tiny.ipynb").read_text(encoding="utf-8") + (dest / "04-tiny.lesson.toml").read_text(
        encoding="utf-8"
    )
    assert "odd" not in everything.lower()
    here = Path.cwd()
    os.chdir(dest)
    try:
        lesson = Lesson("04", **PARAMS_04)
        lesson.text("part-2")
        assert capsys.readouterr().out == (
            "🔒 This part opens once you make your guess above (replace the ...), run it, then run this cell again.\n"
        )
        lesson.guess("big", [15])
        capsys.readouterr()
        lesson.text("part-2")
        assert capsys.readouterr().out == "<IPython.core.display.Markdown object>\n"
        with pytest.raises(LessonError, match="has no text called 'part-3'"):
            lesson.text("part-3")
    finally:
        os.chdir(here)


def test_check_lessons_names_each_problem_and_exits_2(tmp_path: Path) -> None:
    import io

    from duel_lessons.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["check-lessons", str(ROOT / "notebooks")], stdout=out, stderr=err) == 0
    count = len(list((ROOT / "notebooks").glob("*.lesson.toml")))
    assert count >= 9 and out.getvalue() == f"{count} declarations files in {ROOT / 'notebooks'}: all well formed.\n"
    (tmp_path / "04-x.lesson.toml").write_text('lesson = "04"\n[exercise.5]\nkind = "numbr"\n', encoding="utf-8")
    (tmp_path / "05-y.lesson.toml").write_text('lesson = "04"\n', encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["check-lessons", str(tmp_path)], stdout=out, stderr=err) == 2
    assert err.getvalue() == (
        "duel-lessons: error: 04-x.lesson.toml: [exercise.5] kind: 'numbr' is not a kind; use one of number, "
        "numbers, label, winning-move, winning-moves, order, expression, counterexample, step, explanation, table, "
        "pair.\n"
        "05-y.lesson.toml: it declares lesson 04, but its name starts otherwise.\n"
    )


# -- statements and refusals the issue found wrong (point 7) --------------------------------------------------


def test_lesson_07_reads_exact_decimals_in_an_expression() -> None:
    check = spec("07").checks["proof-3"]
    for typed in ("0.5*(1 - q)", "0.5 - 0.5*q", "(1 - q)*.5"):
        assert check(typed, {}).right, typed
    assert check("0.25*(1 - q)", {}).kind != "right"


def test_lesson_04s_hint_for_halving_uses_a_case_that_shows_the_mistake() -> None:
    verdict = Lesson("04", **PARAMS_04).verdict("proof-2", "m*2**(k - 1)")
    assert verdict.key == "lower-power"
    # by hand: k = 2, m = 3 gives 2**2 * 3 - 3 = 9, and m * 2**(k - 1) = 3 * 2 = 6, which differs
    assert verdict.hint == "Try k = 2, m = 3: 4 × 3 − 3 = 9. Does your expression give 9?"


def test_lesson_04s_order_reason_says_what_each_line_uses() -> None:
    found = declared.load(next((ROOT / "notebooks").glob("04-*.lesson.toml")))
    lines = found.exercises["order"].fields["lines"]
    assert lines["C"]["uses"] == ["B"] and lines["A"]["uses"] == ["B"]
    assert "B first (A and C both need it" in found.exercises["order"].fields["why"]


def test_a_teachers_new_exercise_runs_in_the_notebook_the_student_copy_and_the_answer_key(tmp_path: Path) -> None:
    """The teacher guide's steps, on a copy of lesson 04: four lines of TOML and three cells, nothing in the package."""
    import json

    from duel_lessons.teaching.keys import answer_key
    from duel_lessons.teaching.student_copies import write_student_copies

    nbclient = pytest.importorskip("nbclient", reason="running the lesson needs nbclient (in the test extra)")
    nbformat = pytest.importorskip("nbformat")
    teacher = tmp_path / "notebooks"
    teacher.mkdir()
    notebook = next((ROOT / "notebooks").glob("04-*.ipynb"))
    shutil.copy(notebook, teacher / notebook.name)
    toml = notebook.with_name(notebook.stem + ".lesson.toml")
    (teacher / toml.name).write_text(toml.read_text(encoding="utf-8") + NEW_EXERCISE, encoding="utf-8")
    nb = json.loads((teacher / notebook.name).read_text(encoding="utf-8"))
    where = next(i for i, c in enumerate(nb["cells"]) if "".join(c["source"]).endswith("lesson.solution(1)")) + 1
    cells = [
        ("code", "answer_5 = [21, 3, 7]   # Exercise 5: every winning move from 84", []),
        ("code", "lesson.check(5, answer_5)", []),
        ("code", "lesson.solution(5)", ["solution"]),
    ]
    for offset, (kind, text, tags) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"new-{offset}", "metadata": {"tags": tags}, "source": text}
        nb["cells"].insert(where + offset, {**cell, "outputs": [], "execution_count": None})
    (teacher / notebook.name).write_text(json.dumps(nb), encoding="utf-8")

    # the teacher's notebook, run where it lives: the new exercise is checked and its model answer shown
    run = nbformat.read(teacher / notebook.name, as_version=4)
    nbclient.NotebookClient(
        run, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(teacher)}}
    ).execute()
    printed = ["".join(o.get("text", "") for o in run.cells[where + i].outputs) for i in (1, 2)]
    assert printed == [
        "✅ Exercise 5 (every winning move from 84): right!\n",
        "📖 Model answer for exercise 5 (every winning move from 84): [3, 7, 21]\n"
        "   84 - 3 = 81, 84 - 7 = 77 and 84 - 21 = 63 are odd: P-positions.\n",
    ]
    # the student copy: the cells are there, the model answer and its reason are not
    student = tmp_path / "student"
    write_student_copies(teacher, student)
    copied = (student / notebook.name).read_text(encoding="utf-8") + (student / toml.name).read_text(encoding="utf-8")
    assert "lesson.check(5, answer_5)" in copied and "lesson.solution(5)" not in copied
    assert "84 - 21 = 63" not in copied
    # the answer key
    key = answer_key(teacher)
    assert "**Exercise 5 (every winning move from 84), model answer:** `[3, 7, 21]`" in key
    assert "84 - 3 = 81, 84 - 7 = 77 and 84 - 21 = 63 are odd: P-positions." in key


@pytest.mark.parametrize(
    ("number", "params"),
    [
        ("05", {"rules": "division-duel", "start": 60, "upto": 100, "ex_start": 36, "ex_length": 5}),
        ("06", {"rules": "factor-duel", "start": 100, "upto": 100, "ex_number": 91}),
    ],
)
def test_a_list_of_the_p_positions_seen_is_refuted_beyond_the_data(
    number: str, params: dict[str, Any], capsys: Any
) -> None:
    """A rule that lists the P-positions up to UPTO (found by brute force, not the solver) fails past UPTO."""
    from brute import Brute

    brute = Brute.of(str(params["rules"]))
    seen = {n for n in range(1, 101) if brute.outcome(n) == "P"}
    first_beyond = next(n for n in range(101, 10**4) if brute.outcome(n) == "P")
    lesson = Lesson(number, **params)
    assert not lesson.test(lambda n: n in seen)
    out = capsys.readouterr().out
    assert out.startswith(f"❌ First counterexample: n = {first_beyond}."), out
    assert "this one lies beyond the data" in out
