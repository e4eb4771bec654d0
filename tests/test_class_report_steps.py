"""Issue 28: one class of lesson 04, every step as the student gave it, in words, what to teach tomorrow first.

A teacher adapts lesson 04 (a written explanation added to its declarations, as the teacher guide
shows) and reports a small class: an order clicked in the widget (saved in the notebook, as Lab saves
it), an order given by a call, a written explanation, a known mistake made three times, and a blank
copy; and the hostile hand-ins: the sympy bomb, a snoop that writes the teacher's /tmp and reads a file
only the teacher may read, three forged answer lines, a file 100,000 brackets deep and file names a
spreadsheet would run.  Expected values by hand: the proof's uses are B; A and C use B; I uses A and C; D uses I; G
uses D; F uses G, so B, C, A, I, D, G, F is a valid order; 96 = 32 × 3 and 96 − 3 = 93 is odd, so 3
is the only winning move, and 48 (halving) is the named mistake "half".
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.teaching import record
from duel_lessons.teaching.class_report import Limits, class_report
from duel_lessons.teaching.report_page import ClassReport, Row
from duel_lessons.teaching.student_copies import student_notebook

ROOT = Path(__file__).resolve().parents[1]
LESSON = next((ROOT / "notebooks").glob("04-*.ipynb"))
ORDER = ["B", "C", "A", "I", "D", "G", "F"]
EXPLAINED = "Every divisor of an odd number is odd, and odd minus odd is even, so every move hands over an even number."
HALF = "Halving is a move, but what does it hand over? Is that number odd?"  # the words the student saw
EXPLANATION = """
[exercise.explain]
kind = "explanation"
label = "Explain: why does every move from an odd number leave an even one?"
words = 8
"""


def adapted(folder: Path) -> Path:
    """Lesson 04 with a written explanation added: four lines of TOML and two cells, no Python."""
    teacher = folder / LESSON.name
    shutil.copy(LESSON.with_suffix("").with_suffix(".lesson.toml"), folder)
    toml = folder / LESSON.with_suffix("").with_suffix(".lesson.toml").name
    toml.write_text(toml.read_text(encoding="utf-8") + EXPLANATION, encoding="utf-8")
    notebook = json.loads(LESSON.read_text(encoding="utf-8"))
    for i, source in enumerate(
        ["explain_1 = ...   # your explanation, in quotes", 'lesson.check("explain", explain_1)']
    ):
        cell = {"cell_type": "code", "id": f"explain-{i}", "metadata": {}, "source": source, "outputs": []}
        notebook["cells"].append({**cell, "execution_count": None})
    teacher.write_text(json.dumps(notebook), encoding="utf-8")
    return teacher


def hand_in(teacher: Path, answers: dict[str, str], cells: list[str] = (), outputs: list[Any] = ()) -> dict[str, Any]:
    notebook = student_notebook(json.loads(teacher.read_text(encoding="utf-8")))
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    for cell in code:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for name, value in answers.items():
            source = source.replace(f"{name} = ...", f"{name} = {value}")
        cell["source"] = source
    for source in cells:
        code[-1]["source"] += "\n" + source
    code[-1]["outputs"] = list(outputs)
    return notebook


def saved(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    data = record.attempt("04", "check", name, kind=kind, **fields)
    return {"output_type": "display_data", "metadata": {}, "data": {record.MIME: data, "text/plain": ""}}


BOMB = "(N+d+1)^64*(N+2*d+3)^64"  # minutes of sympy without a limit
#: Its own answer line on every descriptor the grader may have kept, then an early exit.
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
FORMULA = '=HYPERLINK("evil.example","click")'
SECRET = "TEACHER-SECRET-5c2e"
PLANTED = Path("/tmp") / f"duel-snoop-steps-{os.getpid()}"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> ClassReport:
    teacher = adapted(tmp_path_factory.mktemp("teacher"))
    folder = tmp_path_factory.mktemp("handed-in")
    secret = tmp_path_factory.mktemp("teacher-files") / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    secret.chmod(0o600)
    snoop = f"open({str(PLANTED)!r}, 'w').write('snooped')"
    clicked = saved("order", "right", via="widget", answer=ORDER, tries=2, history=["use:A"], said=["uses early"])
    class_ = {
        "clicker": hand_in(teacher, {}, outputs=[clicked]),
        "caller": hand_in(teacher, {}, [f"lesson.check('order', {ORDER!r})"]),
        "writer": hand_in(teacher, {"explain_1": repr(EXPLAINED)}),
        "halver": hand_in(
            teacher,
            {"answer_1": "48"},
            outputs=[saved("1", "misconception", key="half", tries=3, history=["half"] * 3, said=[HALF] * 3)],
        ),
        "blank": hand_in(teacher, {}),
        "bomb": hand_in(teacher, {"proof_1": repr(BOMB)}),
        "right": hand_in(teacher, {"proof_1": repr("d*(N/d - 1)"), "answer_1": "3"}),
        "snoop": hand_in(teacher, {"proof_1": f"open({str(secret)!r}).read()"}, [snoop]),
        **{name: hand_in(teacher, {"answer_1": "3"}, [FORGE.format(line=line)]) for name, line in FORGED.items()},
        FORMULA: hand_in(teacher, {"answer_1": "3"}),
    }
    (folder / "deep.ipynb").write_text('{"cells": ' + "[" * 100_000, encoding="utf-8")
    for name, notebook in class_.items():
        (folder / f"{name}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    return class_report(
        folder, teacher, limits=Limits(cpu=60.0, wall=300.0, cell=20.0), run_untrusted_code_without_isolation=True
    )


def table(report: ClassReport) -> dict[str, dict[str, str]]:
    return {row["student"]: row for row in csv.DictReader(io.StringIO(report.csv_text()))}


def test_an_order_clicked_or_called_counts_as_an_answer_and_no_honest_student_is_flagged(report: ClassReport) -> None:
    rows = table(report)
    assert rows["clicker"]["exercise order"] == "right" and rows["caller"]["exercise order"] == "right"
    assert rows["blank"]["exercise order"] == "blank" and rows["writer"]["exercise order"] == "blank"
    assert rows["clicker"]["exercise order tries"] == "2"  # as saved: one early use, then right
    assert "saved in the file says right" not in report.html()


def test_explanations_are_collected_with_the_students_name_and_not_judged(report: ClassReport) -> None:
    rows = table(report)
    assert rows["writer"]["exercise explain"] == "right" and rows["blank"]["exercise explain"] == "blank"
    html = report.html()
    section = html[html.index("Explanations to discuss") :]
    assert f"<b>writer</b>: {EXPLAINED}" in section


def test_the_page_starts_with_what_to_teach_tomorrow_in_words_with_titles(report: ClassReport) -> None:
    html = report.html()
    assert re.findall(r"<h2>(.*?)</h2>", html)[0] == "What to teach tomorrow"
    tomorrow = html[html.index("What to teach tomorrow") : html.index("Per exercise")]
    # the mistake as the student saw it, with who made it; tries counted for a wrong answer too
    assert f"{HALF} <i>(1: halver)</i>" in tomorrow
    assert table(report)["halver"]["exercise 1 tries"] == "3"
    assert "Proof step 4 (put the proof in order)" in tomorrow  # its title in the notebook
    for key in ("half", "misconception", "proof-1", "power-of-2"):
        assert not re.search(rf"(?<![\w-]){key}(?![\w-])", re.sub(r"<[^>]+>", " ", html)), key


def test_tomorrow_with_nothing_to_follow_up_says_so() -> None:
    from duel_lessons.teaching.notebook_plan import Plan

    done = ClassReport(Plan("04", {}, checks={"1": "answer_1"}), [Row("ana", "ana.ipynb", verdicts={"1": "right"})])
    assert "Nothing to follow up" in done.html()


def test_no_hand_in_stops_the_report_and_nothing_leaks(report: ClassReport) -> None:
    rows = table(report)
    assert len(rows) == 13 and rows["deep"]["status"].startswith("is not a readable notebook")
    assert rows["bomb"]["exercise proof-1"] == "wrong"
    assert rows["bomb"]["exercise proof-1 mistake"] == "not judged: it took more than 5 s of CPU time to check"
    assert rows["right"]["exercise proof-1"] == "right" and rows["right"]["exercise 1"] == "right"  # 96 − 3 = 93
    assert rows["snoop"]["status"] == "graded" and rows["snoop"]["exercise proof-1"] == "blank"
    assert not PLANTED.exists() and SECRET not in report.csv_text() + report.html()
    for name in FORGED:  # its forged line is not read as answers: a row saying why, and no tick
        assert rows[name]["exercise 1"] != "right" and rows[name]["status"], name
    spreadsheet = next(row for name, row in rows.items() if "HYPERLINK" in name)
    assert spreadsheet["file"].startswith("'=HYPERLINK")  # a cell no spreadsheet runs (OWASP)
    graded = [name for name, row in rows.items() if row["status"] == "graded"]
    assert set(graded) >= {"clicker", "caller", "writer", "halver", "blank", "bomb", "right", "snoop"}
