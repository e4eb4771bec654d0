"""``duel-lessons class-report`` on a synthetic class of lesson 00: every kind of hand-in, exact counts.

The class is made from the student copy of lesson 00 with its answer cells filled in; the expected
counts below are worked out by hand from the lesson's exercises (allowed divisors of 12 in Divisor
Duel: 2, 3, 4, 6; primes among 2, 9, 11, 15, 21, 23: 2, 11, 23; after three moves of "take the
biggest" from 60 it is Player 2's turn; taking the smallest from 12 goes 12, 10, 8, 6, 4, 2), not by the code
under test.
"""

from __future__ import annotations

import copy
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.cli.app import main
from duel_lessons.teaching import record
from duel_lessons.teaching.class_report import Limits, class_report
from duel_lessons.teaching.notebook_plan import parameters_of, plan_of
from duel_lessons.teaching.student_copies import student_notebook

ROOT = Path(__file__).resolve().parents[1]
TEACHER = next((ROOT / "notebooks").glob("00-*.ipynb"))
OTHER = next((ROOT / "notebooks").glob("04-*.ipynb"))
#: Small limits so that the looping notebooks are stopped quickly.
LIMITS = Limits(cpu=40.0, wall=240.0, cell=3.0)


def student_copy(path: Path) -> dict[str, Any]:
    return student_notebook(json.loads(path.read_text(encoding="utf-8")))


def filled(answers: dict[str, str], extra_cells: list[str] = (), outputs: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """The student copy of lesson 00 with ``name = ...`` replaced by ``name = value``."""
    notebook = copy.deepcopy(student_copy(TEACHER))
    for cell in notebook["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for name, value in answers.items():
            source = source.replace(f"{name} = ...", f"{name} = {value}")
        cell["source"] = source
    code = [i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"]
    setup = code[1]  # after the parameters cell: the set-up
    for offset, source in enumerate(extra_cells, start=1):
        notebook["cells"].insert(
            setup + offset,
            {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None},
        )
    if outputs:
        notebook["cells"][code[-1]]["outputs"] = list(outputs)
    return notebook


def saved(**fields: Any) -> dict[str, Any]:
    """A display output holding an attempt record, as Jupyter saves it."""
    action, name, kind = fields.pop("action"), fields.pop("name"), fields.pop("kind")
    data = record.attempt("00", action, name, kind=kind, **fields)
    return {"output_type": "display_data", "metadata": {}, "data": {record.MIME: data, "text/plain": ""}}


SMALLEST = "[12, 10, 8, 6, 4, 2]"
RIGHT = {"answer_1": "[2, 3, 4, 6]", "answer_2": "[2, 11, 23]", "answer_3": SMALLEST, "my_guess": "1"}


def make_class(folder: Path) -> None:
    def write(name: str, notebook: dict[str, Any] | str) -> None:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook), encoding="utf-8")

    write("ana.ipynb", filled(RIGHT, outputs=[saved(action="check", name="1", kind="right", history=["with-1"])]))
    write(
        "ben.ipynb",
        filled(
            {"answer_1": "[1, 2, 3, 4, 6, 12]", "answer_2": "[2, 11, 23]", "answer_3": "[12, 6, 3]", "my_guess": "2"},
            outputs=[saved(action="guess", name="biggest", kind="noted", shown="2", first="1")],
        ),
    )
    write("cam.ipynb", filled({"answer_1": "[2, 3, 4, 6, 12]", "answer_2": "[11, 23]"}))
    write("dee.ipynb", filled({"answer_1": "[1, 2, 3, 4, 6]", "answer_2": "[1, 2, 11, 23]", "answer_3": SMALLEST}))
    write("eve.ipynb", filled({}))  # blank
    write(
        "fay.ipynb", filled({"answer_1": '"2,3,4,6"', "answer_2": '"2 11 23"', "answer_3": '"12 10 8 6 4 2"'})
    )  # format slips
    tamper = [
        "lesson.check = lambda *a, **k: print('✅ right!')",
        "import duel_lessons.teaching.lesson as L\nL.Lesson.judge = lambda *a, **k: None",
    ]
    write("gus.ipynb", filled({"answer_1": "[2, 3]", "answer_2": "[2, 11, 23]", "answer_3": SMALLEST}, tamper))
    forged = [
        {"output_type": "stream", "name": "stdout", "text": "✅ Exercise 1: right!\n"},
        saved(action="check", name="1", kind="right"),
    ]
    write("hal.ipynb", filled({"answer_1": "[12]", "answer_2": "[2, 11]", "answer_3": SMALLEST}, outputs=forged))
    edited = [saved(action="check", name="2", kind="right", history=["miss:[9]"])]
    write(
        "ida.ipynb",
        filled({"answer_1": "[2, 3, 4, 6]", "answer_2": "[9, 15, 21]", "answer_3": SMALLEST}, outputs=edited),
    )
    write("jon.ipynb", filled(RIGHT, ["while True:\n    pass"]))  # a loop: that cell is stopped, the rest runs
    write(
        "kim.ipynb",
        filled(RIGHT, ["import signal\nsignal.signal(signal.SIGPROF, signal.SIG_IGN)\nwhile True:\n    pass"]),
    )
    write("lee.ipynb", "{ this is not JSON")
    write("max.ipynb", student_copy(OTHER))  # another lesson
    write("ned.ipynb", filled(RIGHT, ["for i in range(200_000):\n    print('x' * 1000)"]))  # floods its output
    write("late/ana.ipynb", filled(RIGHT))  # a second file with the same student name


@pytest.fixture(scope="module")
def report_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    folder = tmp_path_factory.mktemp("handed-in")
    make_class(folder)
    before = sorted((p.relative_to(folder), p.read_bytes()) for p in folder.rglob("*") if p.is_file())
    out = tmp_path_factory.mktemp("report") / "report.html"
    report = class_report(folder, TEACHER, lesson="00", limits=LIMITS)
    (out.with_suffix(".csv")).write_text(report.csv_text(), encoding="utf-8")
    out.write_text(report.html(), encoding="utf-8")
    after = sorted((p.relative_to(folder), p.read_bytes()) for p in folder.rglob("*") if p.is_file())
    assert after == before  # the submissions folder is never modified
    return out, report.csv_text(), report.html()


def rows(text: str) -> dict[str, dict[str, str]]:
    return {row["student"]: row for row in csv.DictReader(io.StringIO(text))}


def test_every_submission_has_a_row_and_the_ungradable_say_why(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert len(table) == 15
    assert "malformed" in table["lee"]["status"]
    assert table["max"]["status"] == "is lesson 04, not lesson 00"
    assert table["kim"]["status"].startswith("stopped when re-run")
    assert {"ana (ana.ipynb)", "ana (late/ana.ipynb)"} <= set(table)
    graded = [name for name, row in table.items() if row["status"] == "graded"]
    assert len(graded) == 12


def test_exact_counts_per_exercise(report_files: tuple[Path, str, str]) -> None:
    table = [row for row in rows(report_files[1]).values() if row["status"] == "graded"]

    def count(exercise: str) -> dict[str, int]:
        found = {"right": 0, "partial": 0, "wrong": 0, "blank": 0}
        for row in table:
            found[row[f"exercise {exercise}"]] += 1
        return found

    assert count("1") == {"right": 5, "partial": 1, "wrong": 5, "blank": 1}
    assert count("2") == {"right": 6, "partial": 1, "wrong": 4, "blank": 1}
    assert count("3") == {"right": 8, "partial": 0, "wrong": 2, "blank": 2}


def test_misconceptions_are_named_and_counted(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert table["ben"]["exercise 1 mistake"] == "all-divisors"
    assert table["cam"]["exercise 1 mistake"] == "with-n"
    assert table["dee"]["exercise 1 mistake"] == "with-1"
    assert table["cam"]["exercise 2 mistake"] == "two-is-not-prime"
    assert table["dee"]["exercise 2 mistake"] == "one-is-prime"
    assert table["ben"]["exercise 3 mistake"] == "biggest"
    assert table["fay"]["exercise 1 mistake"].startswith("format")


def test_a_tampered_check_or_a_forged_tick_earns_nothing(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert table["gus"]["exercise 1"] == "partial"  # lesson.check patched in the notebook: judged outside it
    assert table["hal"]["exercise 1"] == "wrong"  # a ✅ typed into the outputs, and a saved record claiming it
    assert table["ida"]["exercise 2"] == "wrong"  # an edited record
    html = report_files[2]
    assert "not borne out by the re-run answer: 1" in html and "not borne out by the re-run answer: 2" in html


def test_history_from_the_saved_attempts(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert table["ana (ana.ipynb)"]["exercise 1 tries"] == "2"  # one mistake, then right
    assert "1 (1)" in report_files[2]  # what the class guessed first: ben's first guess was 1


def test_the_command_writes_html_and_csv_and_refuses_the_submissions_folder(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ana.ipynb").write_text(json.dumps(filled(RIGHT)), encoding="utf-8")
    assert main(["class-report", str(folder), "--teacher-copy", str(TEACHER), "-o", str(folder / "r.html")]) == 2
    out = tmp_path / "r.html"
    assert main(["class-report", str(folder), "--teacher-copy", str(TEACHER), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert rows(out.with_suffix(".csv").read_text(encoding="utf-8"))["ana"]["exercise 1"] == "right"
    assert main(["class-report", str(folder), "--teacher-copy", str(TEACHER), "-o", str(out)]) == 2  # no --force
    assert (
        main(["class-report", str(tmp_path / "nowhere"), "--teacher-copy", str(TEACHER), "-o", str(out), "--force"])
        == 2
    )


def test_an_empty_folder_gives_an_empty_report(tmp_path: Path) -> None:
    report = class_report(tmp_path, TEACHER, limits=LIMITS)
    assert report.rows == [] and "0 notebooks handed in" in report.html()


def test_parameters_and_plan_come_from_the_teachers_copy() -> None:
    plan = plan_of(json.loads(TEACHER.read_text(encoding="utf-8")))
    params = parameters_of(json.loads(TEACHER.read_text(encoding="utf-8")))
    assert plan.lesson == "00" and plan.params["start"] == params["START"]
    assert set(plan.checks) == {"1", "2", "3"} and "biggest" in plan.guesses
