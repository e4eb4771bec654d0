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
import os
import re
from pathlib import Path
from typing import Any

import pytest

import duel_lessons.play.isolation as isolation
import duel_lessons.teaching.class_report as report_module
from duel_lessons.cli.app import main
from duel_lessons.teaching import record
from duel_lessons.teaching.class_report import Limits, class_report
from duel_lessons.teaching.notebook_plan import lesson_of, parameters_of, plan_of
from duel_lessons.teaching.student_copies import student_notebook

ROOT = Path(__file__).resolve().parents[1]
TEACHER = next((ROOT / "notebooks").glob("00-*.ipynb"))
OTHER = next((ROOT / "notebooks").glob("04-*.ipynb"))
#: Small limits so that the looping notebooks are stopped quickly.
LIMITS = Limits(cpu=40.0, wall=240.0, cell=3.0)
#: Where bubblewrap cannot run (some CI machines), the tests take the risk the command makes a teacher name.
UNISOLATED = isolation.bubblewrap()[0] is None
FLAG = ["--run-untrusted-code-without-isolation"] if UNISOLATED else []


def student_copy(path: Path) -> dict[str, Any]:
    return student_notebook(json.loads(path.read_text(encoding="utf-8")))


def filled(
    answers: dict[str, str],
    extra_cells: list[str] = (),
    outputs: list[dict[str, Any]] = (),
    teacher: Path = TEACHER,
) -> dict[str, Any]:
    """The student copy of lesson 00 (or ``teacher``) with ``name = ...`` replaced by ``name = value``."""
    notebook = copy.deepcopy(student_copy(teacher))
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

    said = ["Is 1 allowed in this game? Read the rule again."]  # the words ana saw for her mistake
    write(
        "ana.ipynb",
        filled(RIGHT, outputs=[saved(action="check", name="1", kind="right", history=["with-1"], said=said)]),
    )
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
    # Hostile hand-ins (issue 28): each gets a row saying why, and the rest of the class is reported.
    write("deep.ipynb", '{"cells": ' + "[" * 100_000)  # RecursionError in json.loads
    for name, line in FORGED.items():  # its own answer line on the grader's pipe, then an early exit
        write(f"{name}.ipynb", filled(RIGHT, [FORGE.format(line=line)]))
    for name in FORMULAS:  # names a spreadsheet would run
        write(name, student_copy(OTHER))


#: What a notebook writes on every descriptor the worker may have kept for its answers.
FORGE = """import os
line = {line}
for fd in range(3, 256):
    try:
        os.write(fd, line + b"\\n")
    except OSError:
        pass
os._exit(0)"""
FORGED = {
    "forge-fraction": repr(b'{"answers": {"check:1": {"fraction": [1, 0]}}, "rules": {}}'),
    "forge-set": repr(b'{"answers": {"check:1": {"set": [[1, 2]]}}, "rules": {}}'),
    "forge-deep": repr(b'{"answers": {"check:1": ') + " + b'[' * 200_000",
}
FORMULAS = ['=HYPERLINK("evil.example","click").ipynb', "-2+3.ipynb", "@SUM(1+1).ipynb"]


@pytest.fixture(scope="module")
def report_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    folder = tmp_path_factory.mktemp("handed-in")
    make_class(folder)
    before = sorted((p.relative_to(folder), p.read_bytes()) for p in folder.rglob("*") if p.is_file())
    out = tmp_path_factory.mktemp("report") / "report.html"
    report = class_report(folder, TEACHER, lesson="00", limits=LIMITS, run_untrusted_code_without_isolation=UNISOLATED)
    (out.with_suffix(".csv")).write_text(report.csv_text(), encoding="utf-8")
    out.write_text(report.html(), encoding="utf-8")
    after = sorted((p.relative_to(folder), p.read_bytes()) for p in folder.rglob("*") if p.is_file())
    assert after == before  # the submissions folder is never modified
    return out, report.csv_text(), report.html()


def rows(text: str) -> dict[str, dict[str, str]]:
    return {row["student"]: row for row in csv.DictReader(io.StringIO(text))}


def test_every_submission_has_a_row_and_the_ungradable_say_why(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert len(table) == 22
    assert "malformed" in table["lee"]["status"]
    assert table["max"]["status"] == "is lesson 04, not lesson 00"
    assert table["kim"]["status"].startswith("stopped when re-run")
    assert {"ana (ana.ipynb)", "ana (late/ana.ipynb)"} <= set(table)
    graded = [name for name, row in table.items() if row["status"] == "graded"]
    assert len(graded) == 12


def test_no_hand_in_stops_the_report_each_says_why(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    cannot = "sent back answers that cannot be read when re-run: "
    assert table["deep"]["status"] == "is not a readable notebook (it is nested more than 100 deep)"
    assert table["forge-fraction"]["status"] == cannot + "it holds a fraction with denominator 0"
    assert (
        table["forge-set"]["status"] == cannot + "it holds a set with a list, set or dict inside, which cannot be one"
    )
    assert table["forge-deep"]["status"] == cannot + "it is nested more than 64 deep"
    for name in ("deep", "forge-fraction", "forge-set", "forge-deep"):
        assert [table[name][f"exercise {e}"] for e in "123"] == ["", "", ""] and table[name]["right"] == ""


def test_no_csv_cell_starts_a_formula(report_files: tuple[Path, str, str]) -> None:
    """OWASP's rule for CSV injection: a cell starting with = + - @, a tab or a return gets a ' in front."""
    cells = [cell for line in csv.reader(io.StringIO(report_files[1])) for cell in line]
    assert [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")] == []
    by_file = {row["file"]: row for row in csv.DictReader(io.StringIO(report_files[1]))}
    assert by_file['\'=HYPERLINK("evil.example","click").ipynb']["status"] == "is lesson 04, not lesson 00"
    assert by_file["'-2+3.ipynb"]["student"] == "'-2?3"  # the name keeps letters, digits, . and -
    assert by_file["'@SUM(1+1).ipynb"]["student"] == "?SUM?1?1?"


#: Right answers per student, worked out by hand from the class above (exercises 1, 2, 3):
#: ben only 2; dee only 3; gus 2 and 3 (1 is partial); hal only 3; ida 1 and 3; the RIGHT copies all three.
RIGHT_COUNTS = {
    "ana (ana.ipynb)": "3",
    "ana (late/ana.ipynb)": "3",
    "ben": "1",
    "cam": "0",
    "dee": "1",
    "eve": "0",
    "fay": "0",
    "gus": "2",
    "hal": "1",
    "ida": "2",
    "jon": "3",
    "ned": "3",
}


def test_the_right_column_counts_only_right_answers(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert {name: row["right"] for name, row in table.items() if row["status"] == "graded"} == RIGHT_COUNTS
    assert {row["right"] for row in table.values() if row["status"] != "graded"} == {""}


def test_only_a_borne_out_right_answer_keeps_its_tries(report_files: tuple[Path, str, str]) -> None:
    """ana's saved record (one mistake, then right) is borne out: 2 tries. hal's forged tick on exercise 1 and
    ida's edited record on exercise 2 (a mistake, then "right") keep nothing."""
    table = rows(report_files[1])
    tries = {name: [row[f"exercise {e} tries"] for e in "123"] for name, row in table.items()}
    assert {name: t for name, t in tries.items() if t != ["", "", ""]} == {"ana (ana.ipynb)": ["2", "", ""]}


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
    """Each mistake in the words the student saw (issue 28): a misconception by its hint, in short."""
    table = rows(report_files[1])
    assert table["ben"]["exercise 1 mistake"] == (
        "The rules leave some divisors out. Read the rule: which d are allowed?"
    )
    assert table["cam"]["exercise 1 mistake"] == "Can you take away the whole number? Read the rule again."
    assert table["dee"]["exercise 1 mistake"] == "Is 1 allowed in this game? Read the rule again."
    assert table["cam"]["exercise 2 mistake"] == "Which divisors does 2 have? Count them."
    assert table["dee"]["exercise 2 mistake"] == "1 has only one divisor (itself), so it is not a prime."
    assert table["ben"]["exercise 3 mistake"] == (
        "That is the game where both take the BIGGEST divisor. This time both take the smallest."
    )
    assert table["fay"]["exercise 1 mistake"] and "format" not in table["fay"]["exercise 1 mistake"]


def test_a_tampered_check_or_a_forged_tick_earns_nothing(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert table["gus"]["exercise 1"] == "partial"  # lesson.check patched in the notebook: judged outside it
    assert table["hal"]["exercise 1"] == "wrong"  # a ✅ typed into the outputs, and a saved record claiming it
    assert table["ida"]["exercise 2"] == "wrong"  # an edited record
    html = report_files[2]
    said = "the record saved in the file says right, but the answer re-run here is wrong"
    assert f"Exercise 1: {said}" in html and f"Exercise 2: {said}" in html  # what disagreed, in words


def test_history_from_the_saved_attempts(report_files: tuple[Path, str, str]) -> None:
    table = rows(report_files[1])
    assert table["ana (ana.ipynb)"]["exercise 1 tries"] == "2"  # one mistake, then right
    assert "Is 1 allowed in this game? Read the rule again. (1)" in report_files[2]  # met while trying, in words
    assert "with-1" not in report_files[2]
    # what the class guessed first: ben's saved record says his first guess was 1, though his notebook now says 2
    # (every other guesser's copy says 1), so nobody's first guess is 2
    guessed = re.search(r"<tr><td>biggest</td><td>(.*?)</td></tr>", report_files[2])
    assert guessed and guessed.group(1).startswith("1 (") and "2 (" not in guessed.group(1)


def test_the_command_writes_html_and_csv_and_refuses_the_submissions_folder(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ana.ipynb").write_text(json.dumps(filled(RIGHT)), encoding="utf-8")
    assert main(["class-report", str(folder), "--teacher-copy", str(TEACHER), "-o", str(folder / "r.html")]) == 2
    out = tmp_path / "r.html"
    assert main(["class-report", str(folder), "--teacher-copy", str(TEACHER), "-o", str(out), *FLAG]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert rows(out.with_suffix(".csv").read_text(encoding="utf-8"))["ana"]["exercise 1"] == "right"
    assert main(["class-report", str(folder), "--teacher-copy", str(TEACHER), "-o", str(out)]) == 2  # no --force
    assert (
        main(["class-report", str(tmp_path / "nowhere"), "--teacher-copy", str(TEACHER), "-o", str(out), "--force"])
        == 2
    )


def test_the_output_folder_is_checked_before_any_grading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    graded: list[object] = []
    monkeypatch.setattr(report_module, "grade", lambda *args, **kwargs: graded.append(args))
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ana.ipynb").write_text(json.dumps(filled(RIGHT)), encoding="utf-8")
    command = ["class-report", str(folder), "--teacher-copy", str(TEACHER), *FLAG, "-o"]
    assert main([*command, str(tmp_path / "missing" / "r.html")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "r.csv").write_text("an earlier report", encoding="utf-8")
    assert main([*command, str(tmp_path / "r.html")]) == 2  # its CSV would replace a file: --force says so
    assert "r.csv already exists; add --force" in capsys.readouterr().err
    assert main([*command, str(tmp_path / "r.csv")]) == 2  # the CSV would replace the page
    assert graded == [] and not (tmp_path / "r.html").exists()


def test_without_isolation_the_command_refuses_unless_the_risk_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No bubblewrap (and so no namespaces): a message saying what to install, nothing run; with the flag that
    names the risk, the class is graded all the same, with its progress on stderr."""
    monkeypatch.setattr(isolation, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ana.ipynb").write_text(json.dumps(filled(RIGHT)), encoding="utf-8")
    (folder / "ben.ipynb").write_text(json.dumps(filled({"answer_1": "[12]"})), encoding="utf-8")
    out = tmp_path / "r.html"
    command = ["class-report", str(folder), "--teacher-copy", str(TEACHER), "-o", str(out)]
    assert main(command) == 2
    said = capsys.readouterr().err
    assert "bubblewrap (bwrap) is not installed" in said and "apt-get install bubblewrap" in said
    assert "--run-untrusted-code-without-isolation" in said and not out.exists()
    assert main([*command, "--run-untrusted-code-without-isolation"]) == 0
    progress = [line for line in capsys.readouterr().err.splitlines() if " of 2: " in line]
    assert [line.split(":")[0] for line in progress] == ["1 of 2", "2 of 2"]
    assert sorted(line.split(": ")[1] for line in progress) == ["ana.ipynb", "ben.ipynb"]
    table = rows(out.with_suffix(".csv").read_text(encoding="utf-8"))
    assert [table["ana"][f"exercise {e}"] for e in "123"] == ["right"] * 3
    assert [table["ben"][f"exercise {e}"] for e in "123"] == ["wrong", "blank", "blank"]


def test_an_empty_folder_gives_an_empty_report(tmp_path: Path) -> None:
    report = class_report(tmp_path, TEACHER, limits=LIMITS)
    assert report.rows == [] and "0 notebooks handed in" in report.html()


def test_parameters_and_plan_come_from_the_teachers_copy() -> None:
    plan = plan_of(json.loads(TEACHER.read_text(encoding="utf-8")))
    params = parameters_of(json.loads(TEACHER.read_text(encoding="utf-8")))
    assert plan.lesson == "00" and plan.params["start"] == params["START"]
    assert set(plan.checks) == {"1", "2", "3"} and "biggest" in plan.guesses


BOMB = "(N+d+1)^64*(N+2*d+3)^64"  # minutes of sympy without a limit (issue 28)


@pytest.mark.skipif(UNISOLATED, reason="the snoop is kept out only by bubblewrap's namespaces")
def test_a_lesson_04_class_with_the_sympy_bomb_and_a_snoop(tmp_path: Path) -> None:
    """The bomb's proof step is refused after its CPU limit, in words; the snoop's writing to the teacher's /tmp
    and reading a file only the teacher may read leave no trace; the progress is told for each notebook."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TEACHER-SECRET-8d1f", encoding="utf-8")
    secret.chmod(0o600)
    planted = Path("/tmp") / f"duel-snoop-{os.getpid()}"
    snoop = f"open({str(planted)!r}, 'w').write('snooped')"
    folder = tmp_path / "in"
    folder.mkdir()
    for name, answers, cells in [
        ("bomb", {"proof_1": repr(BOMB)}, []),
        ("right", {"proof_1": repr("d*(N/d - 1)")}, []),
        ("snoop", {"proof_1": f"open({str(secret)!r}).read()"}, [snoop]),
    ]:
        notebook = filled(answers, cells, teacher=OTHER)
        (folder / f"{name}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    told: list[tuple[int, int, str]] = []
    report = class_report(folder, OTHER, limits=LIMITS, progress=lambda *said: told.append(said))
    assert [said[:2] for said in told] == [(1, 3), (2, 3), (3, 3)]
    assert sorted(said[2] for said in told) == ["bomb.ipynb", "right.ipynb", "snoop.ipynb"]
    table = rows(report.csv_text())
    assert table["bomb"]["exercise proof-1"] == "wrong"
    assert table["bomb"]["exercise proof-1 mistake"] == "not judged: it took more than 5 s of CPU time to check"
    assert table["right"]["exercise proof-1"] == "right"
    assert table["snoop"]["status"] == "graded" and table["snoop"]["exercise proof-1"] == "blank"
    assert not planted.exists()
    assert "TEACHER-SECRET" not in report.csv_text() + report.html()


@pytest.mark.parametrize(
    "hostile",
    ["-" * 100_000 + "1", "a." * 100_000 + "b", "a+" * 100_000 + "a", "x = 1\0", "y = 2\n" * 40_000],
)
def test_a_cell_built_to_break_the_parser_is_skipped(hostile: str) -> None:
    """MemoryError, RecursionError, a null byte, or too long to parse: the lesson is still found in the next cell."""
    cells = [{"cell_type": "code", "source": source} for source in (hostile, 'lesson = Lesson("04", rules="x")')]
    assert lesson_of({"cells": cells}) == "04"


def test_in_a_kernel_the_report_shows_a_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thin layer: the widget is moved by the same callback the command prints with."""
    import IPython
    import IPython.display

    assert report_module._lab_progress() is None  # no kernel here
    shown: list[object] = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: type("Kernel", (), {"kernel": object()})())
    monkeypatch.setattr(IPython.display, "display", lambda *shown_now, **_: shown.extend(shown_now))
    told = report_module._lab_progress()
    assert told is not None
    told(12, 30, "ana.ipynb")
    ((bar, label),) = [box.children for box in shown]  # type: ignore[attr-defined]
    assert (bar.value, bar.max, label.value) == (12, 30, "12 of 30: ana.ipynb")


def test_a_proof_order_is_an_exercise_of_the_plan_answered_by_a_call() -> None:
    plan = plan_of(json.loads(OTHER.read_text(encoding="utf-8")), OTHER.parent)
    assert plan.checks["order"] == "" and plan.checks["1"] == "answer_1"
    assert list(plan.files) == ["04-which-numbers-lose.lesson.toml"]
    assert 'edition = "student"' in plan.files["04-which-numbers-lose.lesson.toml"]


@pytest.mark.skipif(UNISOLATED, reason="hand-ins run only in bubblewrap here")
def test_an_honest_student_who_orders_the_proof_by_a_call_is_right_and_not_flagged(tmp_path: Path) -> None:
    """Issue 28: an order given by lesson.check("order", [...]) counts as an answer variable does (by hand:
    B, C, A, I, D, G, F respects every line's uses; C before A is allowed, since C uses only B)."""
    folder = tmp_path / "in"
    folder.mkdir()
    calls = {
        "orderer": ['lesson.check("order", ["B", "C", "A", "I", "D", "G", "F"])'],
        "wrong-order": ['lesson.check("order", ["A", "B", "C", "I", "D", "G", "F"])'],
        "none": [],
    }
    for name, cells in calls.items():
        notebook = filled({}, cells, teacher=OTHER)
        (folder / f"{name}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    report = class_report(folder, OTHER, limits=LIMITS)
    table = rows(report.csv_text())
    assert table["orderer"]["exercise order"] == "right"
    assert table["wrong-order"]["exercise order"] == "partial"
    assert table["none"]["exercise order"] == "blank"
    assert "saved in the file says right" not in report.html()
