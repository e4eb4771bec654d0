"""``duel-lessons class-report``, value by value: its arguments, messages, exit statuses and files.

The grading itself (``class_report``) is replaced by a stand-in that remembers how it was called and
returns a class built by hand, so each run takes milliseconds (issue 30: the `report` area's
mutants; tests/test_class_report.py runs the command on real notebooks).  The class: ana right on
exercise 1 and wrong on 2, ben wrong on 1, cy not graded ("is not a regular file").
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

import duel_lessons.teaching.class_report as report_module
import duel_lessons.teaching.editions as editions
from duel_lessons.cli.app import build_parser, main
from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.notebook_plan import Plan
from duel_lessons.teaching.report_page import ClassReport, Row

PLAN = Plan("04", {}, checks={"1": "answer_1", "2": "answer_2"})


def the_class() -> ClassReport:
    return ClassReport(
        PLAN,
        [
            Row("ana", "ana.ipynb", verdicts={"1": "right", "2": "wrong"}),
            Row("ben", "ben.ipynb", verdicts={"1": "wrong"}),
            Row("cy", "cy.ipynb", status="is not a regular file"),
        ],
    )


class Grading:
    """class_report, replaced: it calls the progress it is given twice, and returns the class above."""

    def __init__(self, fails: str = "") -> None:
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self.fails = fails

    def __call__(self, *args: Any, **kwargs: Any) -> ClassReport:
        self.calls.append((args, kwargs))
        if self.fails:
            raise DuelError(self.fails)
        kwargs["progress"](1, 2, "ana.ipynb")
        kwargs["progress"](2, 2, "sub/ben.ipynb")
        return the_class()


@pytest.fixture
def grading(monkeypatch: pytest.MonkeyPatch) -> Grading:
    stand_in = Grading()
    monkeypatch.setattr(report_module, "class_report", stand_in)
    monkeypatch.setattr(ClassReport, "_chart", lambda self: "CHART")
    return stand_in


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["class-report", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    found = tmp_path / "in"
    found.mkdir()
    return found


SUMMARY = [
    "3 notebooks, 2 graded (lesson 04).",
    "  cy: is not a regular file",
    "  exercise 1: 1 right, 0 partial, 1 wrong, 0 blank",
    "  exercise 2: 0 right, 0 partial, 1 wrong, 1 blank",
]


def test_the_report_is_written_and_summed_up(grading: Grading, folder: Path, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    teacher = tmp_path / "teacher.ipynb"
    code, out, err = run(str(folder), "--teacher-copy", str(teacher), "-o", str(page))
    assert code == 0
    assert out.splitlines() == [*SUMMARY, f"Wrote {page} and {tmp_path / 'r.csv'}"]
    assert err.splitlines() == ["1 of 2: ana.ipynb", "2 of 2: sub/ben.ipynb"]
    ((args, kwargs),) = grading.calls
    assert args == (folder, teacher)
    assert sorted(kwargs) == ["lesson", "progress", "run_untrusted_code_without_isolation"]
    assert kwargs["lesson"] is None and kwargs["run_untrusted_code_without_isolation"] is False
    assert page.read_text(encoding="utf-8") == the_class().html()
    assert (tmp_path / "r.csv").read_text(encoding="utf-8") == the_class().csv_text()


def test_the_risk_and_the_lesson_are_passed_on(grading: Grading, folder: Path, tmp_path: Path) -> None:
    teacher = tmp_path / "t.ipynb"
    flag = "--run-untrusted-code-without-isolation"
    args = [str(folder), "--lesson", "4", "--teacher-copy", str(teacher), "-o", str(tmp_path / "r.html"), flag]
    assert run(*args)[0] == 0
    ((given, kwargs),) = grading.calls
    assert given == (folder, teacher) and kwargs["lesson"] == "4"
    assert kwargs["run_untrusted_code_without_isolation"] is True


def test_by_default_report_html_and_csv_in_the_current_folder(
    grading: Grading, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("in", "--teacher-copy", "t.ipynb")
    assert code == 0 and out.splitlines()[-1] == "Wrote report.html and report.csv"
    assert (tmp_path / "report.html").is_file() and (tmp_path / "report.csv").is_file()


def test_an_earlier_report_is_replaced_only_with_force(grading: Grading, folder: Path, tmp_path: Path) -> None:
    page, table = tmp_path / "r.html", tmp_path / "r.csv"
    page.write_text("an earlier page", encoding="utf-8")
    args = [str(folder), "--teacher-copy", "t.ipynb", "-o", str(page)]
    code, out, err = run(*args)
    assert (code, out) == (2, "") and err.startswith("duel-lessons: error: ") and "--force" in err
    assert page.read_text(encoding="utf-8") == "an earlier page" and not table.exists() and grading.calls == []
    page.unlink()
    table.write_text("an earlier table", encoding="utf-8")  # the CSV beside it is checked too
    assert run(*args)[0] == 2 and not page.exists() and grading.calls == []
    table.write_text("an earlier table", encoding="utf-8")
    page.write_text("an earlier page", encoding="utf-8")
    assert run(*args, "--force")[0] == 0
    assert page.read_text(encoding="utf-8") == the_class().html()
    assert table.read_text(encoding="utf-8") == the_class().csv_text()


def test_a_report_is_never_written_into_the_handed_in_folder(grading: Grading, folder: Path) -> None:
    for inside in (folder / "r.html", folder / "sub" / "r.html", folder / ".." / "in" / "r.html"):
        code, out, err = run(str(folder), "--teacher-copy", "t.ipynb", "-o", str(inside), "--force")
        assert (code, out) == (2, "")
        assert err == (
            f"duel-lessons: error: Write the report outside {folder}: "
            "the folder of handed-in notebooks is never changed.\n"
        )
    assert grading.calls == [] and list(folder.iterdir()) == []


def test_the_page_needs_a_name_that_is_not_its_csv(grading: Grading, folder: Path, tmp_path: Path) -> None:
    code, _, err = run(str(folder), "--teacher-copy", "t.ipynb", "-o", str(tmp_path / "r.csv"))
    assert code == 2
    assert err == (
        f"duel-lessons: error: Give the report a name ending in .html, not {tmp_path / 'r.csv'}: "
        "the CSV is written beside it.\n"
    )
    assert grading.calls == [] and list(tmp_path.iterdir()) == [folder]
    assert run(str(folder), "--teacher-copy", "t.ipynb", "-o", str(tmp_path / "r"))[0] == 0  # no suffix: r and r.csv
    assert (tmp_path / "r").is_file() and (tmp_path / "r.csv").is_file()


def test_a_refusal_while_grading_writes_nothing(monkeypatch: pytest.MonkeyPatch, folder: Path, tmp_path: Path) -> None:
    monkeypatch.setattr(report_module, "class_report", Grading(fails="Nothing isolates the hand-ins."))
    code, out, err = run(str(folder), "--teacher-copy", "t.ipynb", "-o", str(tmp_path / "r.html"))
    assert (code, out, err) == (2, "", "duel-lessons: error: Nothing isolates the hand-ins.\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_without_a_lesson_or_a_teachers_copy_it_asks_which(grading: Grading, folder: Path, tmp_path: Path) -> None:
    code, _, err = run(str(folder), "-o", str(tmp_path / "r.html"))
    assert (code, err) == (
        2,
        "duel-lessons: error: Say which lesson: --lesson 04, or --teacher-copy PATH to the teacher's copy of it.\n",
    )
    assert grading.calls == []


def test_the_lesson_is_found_among_the_teachers_notebooks(
    grading: Grading, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    for name in ("04-b.ipynb", "04-a.ipynb", "14-x.ipynb", "04-a.lesson.toml"):
        (notebooks / name).write_text("{}", encoding="utf-8")
    asked: list[str] = []
    monkeypatch.setattr(editions, "teacher_notebooks", lambda how: asked.append(how) or notebooks)
    for lesson in ("4", "04"):
        assert run(str(folder), "--lesson", lesson, "-o", str(tmp_path / "r.html"), "--force")[0] == 0
    assert asked == ["with --teacher-copy PATH"] * 2
    assert [args for args, _ in grading.calls] == [(folder, notebooks / "04-a.ipynb")] * 2
    code, _, err = run(str(folder), "--lesson", "5", "-o", str(tmp_path / "r.html"), "--force")
    assert (code, err) == (
        2,
        f"duel-lessons: error: No lesson 05 in {notebooks}: give --teacher-copy PATH (the lesson as you taught it).\n",
    )


def test_its_help_says_what_it_does() -> None:
    summary = "re-run and grade handed-in notebooks in a sandbox; report the class's answers and mistakes"
    out = io.StringIO()
    assert main(["class-report", "--help"], stdout=out) == 0
    said = " ".join(out.getvalue().split())
    assert said.startswith("usage: duel-lessons class-report [-h] [--lesson NN] [--teacher-copy PATH] [-o FILE]")
    for part in (
        summary,
        "SUBMISSIONS the folder of handed-in notebooks (only read)",
        "--lesson NN the lesson they answer, such as 04",
        "--teacher-copy PATH the teacher's copy of the lesson (its parameters rule)",
        "--force replace an earlier report",
        "--run-untrusted-code-without-isolation where bubblewrap cannot run, re-run the notebooks anyway, as your "
        "own user: a notebook could then read and change your files and reach your network (only for notebooks "
        "you trust)",
    ):
        assert part in said, part
    # -o FILE, --output FILE (Python 3.13 writes -o, --output FILE)
    assert re.search(r"-o( FILE)?, --output FILE the HTML page \(CSV beside it\)", said)
    # the examples keep their lines
    assert (
        "examples:\n"
        "  duel-lessons class-report handed-in/ --teacher-copy notebooks/04-which-numbers-lose.ipynb\n"
        "  duel-lessons class-report handed-in/ --lesson 04 -o lesson04.html      (in a clone of the repository)\n"
        "\n"
        "Each notebook is re-run in a sandbox and its answers are judged with the teacher's parameters;\n"
        "the folder of handed-in notebooks is only read. The report is an HTML page with charts and a CSV\n"
        "beside it (report.html and report.csv by default).\n"
    ) in out.getvalue()
    assert summary in out.getvalue().splitlines()  # the description, on a line of its own
    # the summary listed by `duel-lessons --help --all` (every command's parser built)
    (action,) = build_parser("*")._subparsers._group_actions  # type: ignore[union-attr]
    assert {choice.dest: choice.help for choice in action._choices_actions}["class-report"] == summary


def test_the_folder_of_hand_ins_is_required(grading: Grading) -> None:
    code, out, err = run()
    assert (code, out, grading.calls) == (2, "", [])
    assert "the following arguments are required: SUBMISSIONS" in err
