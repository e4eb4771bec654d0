"""teaching.class_report, step by step, without running a notebook: reading, history, judging, the class.

The sandboxed re-run (``run_isolated``) and the judging process (``Judge``) are replaced by fakes
that record what they are asked and answer as told, so each step is checked in milliseconds with
values worked out by hand (issue 30: the `report` area's mutants; tests/test_class_report.py
re-runs real notebooks, too slow to judge mutants).  The teacher's copy used below is a tiny
lesson "77" written here: one declared explanation, "explain", titled "Explain: why 12 wins".
"""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import duel_lessons.play.isolation as isolation
import duel_lessons.play.sandbox as sandbox
import duel_lessons.teaching.class_report as report_module
from duel_lessons.play.unisolated import INSTALL_ISOLATION
from duel_lessons.teaching.bounded_json import Reply
from duel_lessons.teaching.class_report import (
    Limits,
    class_report,
    clicked,
    explanation_names,
    grade,
    in_words,
    isolation_problem,
    student_name,
    submissions,
    titles_of,
)
from duel_lessons.teaching.notebook_plan import Plan, ReportError
from duel_lessons.teaching.record import MIME
from duel_lessons.teaching.report_page import Row

MIB = 2**20
TOML = """lesson = "77"

[exercise.explain]
kind = "explanation"
label = "Explain: why 12 wins"
words = 3
"""


def notebook(*sources: str, outputs: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """A notebook of code cells; the records ``outputs`` are shown by the last one, as lesson.check shows them."""
    cells = [{"cell_type": "code", "metadata": {}, "source": s, "outputs": []} for s in sources]
    cells[-1]["outputs"] = [{"output_type": "display_data", "data": {MIME: r}, "metadata": {}} for r in outputs]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def saved(action: str, name: str, kind: str, **fields: Any) -> dict[str, Any]:
    """An attempt record as lesson.check saves it (version 1, lesson 04)."""
    return {"version": 1, "lesson": "04", "action": action, "name": name, "kind": kind, "key": "", "shown": "",
            **fields}  # fmt: skip


class FakeJudge:
    """Answers each check or test by its name, as told; remembers what it was asked and whether it was closed."""

    made: list[FakeJudge] = []  # noqa: RUF012 - the instances a test made, in order

    def __init__(self, *args: Any, said: dict[str, dict[str, Any]] | None = None, **kwargs: Any) -> None:
        self.args, self.kwargs, self.said = args, kwargs, said or {}
        self.asked: list[dict[str, Any]] = []
        self.closed = 0
        FakeJudge.made.append(self)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(request)
        return self.said.get(request.get("check", request.get("test")), {"kind": "right"})

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def judges(monkeypatch: pytest.MonkeyPatch) -> list[FakeJudge]:
    FakeJudge.made = []
    monkeypatch.setattr(report_module, "Judge", FakeJudge)
    return FakeJudge.made


@pytest.fixture
def teacher(tmp_path: Path) -> Path:
    """The teacher's copy of lesson 77 (START = 12), beside its declarations."""
    folder = tmp_path / "teacher"
    folder.mkdir()
    (folder / "77-why.lesson.toml").write_text(TOML, encoding="utf-8")
    copy = folder / "77-why.ipynb"
    cells = ["# PARAMETERS\nSTART = 12", 'lesson = Lesson("77", start=START)', 'lesson.check("explain", explain_1)']
    copy.write_text(json.dumps(notebook(*cells)), encoding="utf-8")
    return copy


# -- fixed values ---------------------------------------------------------------------------------


def test_the_limits_and_sizes() -> None:
    assert Limits() == Limits(cpu=90.0, wall=180.0, memory=2 * 2**30, cell=30.0, processes=64, judge=5.0)
    assert (report_module.MAX_BYTES, report_module.MAX_NOTEBOOK_DEPTH, report_module.MAX_WORDS) == (20 * MIB, 100, 140)


@pytest.mark.parametrize(
    ("kind", "outcome"),
    [("right", "right"), ("partial", "partial"), ("unanswered", "blank"), ("wrong", "wrong"), ("refused", "wrong"),
     ("misconception", "wrong"), ("noted", "wrong")],
)  # fmt: skip
def test_a_judges_kind_is_one_of_four_outcomes(kind: str, outcome: str) -> None:
    assert report_module._outcome(kind) == outcome


def test_a_mistake_in_words() -> None:
    assert in_words("misconception", "Your answer was 6.", "Is 6\n  allowed?") == "Is 6 allowed?"
    assert in_words("misconception", "Your  answer.", "") == "Your answer."  # no hint: its message
    assert in_words("partial", "Two  of three.", "A hint.") == "Two of three."
    assert in_words("partial", "", "A  hint.") == "A hint."  # no message: the hint
    assert in_words("format", "", "") == ""
    assert in_words("miss", "x" * 140, "") == "x" * 140
    assert in_words("miss", "x" * 141, "") == "x" * 139 + "…"
    assert in_words("miss", "x " * 100, "") == "x " * 69 + "x…"  # 199 characters once in one line


# -- the attempts saved in the file -----------------------------------------------------------------


def test_the_history_from_the_saved_attempts() -> None:
    records = [
        saved("check", "1", "wrong", history=["old"]),  # superseded by the next record of check 1
        {**saved("check", "2", "right", history=["other"]), "lesson": "03"},  # another lesson's
        saved("check", "1", "right", history=["with-1", "with-1", 7, "zero"]),  # 7 is no key: 3 keys, then right
        saved("check", "2", "wrong", history=["half"], said=["  Halving\n is a move. "], tries=5),
        saved("check", "3", "right", history="with-1", tries=0),  # no list, no keys: right at the first try
        saved("check", "4", "wrong", history=["a", "b"], said=["only one"], tries=True),  # words do not pair up
        saved("check", "5", "wrong", history=["a"], said=[" "], tries=-1),  # empty words: the key
        saved("check", "6", "wrong", history=["a"], said=[3]),
        saved("check", "7", "wrong", history=["a"], said=["w" * 200]),
        saved("check", "8", "wrong", history=["a", "b"], tries=1),
        saved("guess", "g", "noted", first=1, shown="2"),
        saved("guess", "h", "noted", shown="2"),
        saved("guess", "1", "noted", first="[4]"),  # a guess named as a check is its own
        saved("test", "t", "noted", first_counterexample=6, n=8),
        saved("test", "u", "noted", n=8),
        saved("test", "v", "noted", n=True),
        saved("test", "w", "noted", first_counterexample="6"),
        saved("reveal", "z", "noted", history=["q"], first="q", n=3),
    ]
    row = Row("ana", "ana.ipynb")
    report_module._history(row, records, "04")
    assert row.history == Counter(
        {"1:with-1": 2, "1:zero": 1, "2:Halving is a move.": 1, "4:a": 1, "4:b": 1, "5:a": 1, "6:a": 1,
         f"7:{'w' * 140}": 1, "8:a": 1, "8:b": 1}
    )  # fmt: skip
    assert row.tries == {"1": 4, "2": 5, "3": 1, "4": 2, "5": 1, "6": 1, "7": 1, "8": 1}
    assert row.guesses == {"g": "1", "h": "2", "1": "[4]"}
    assert row.counterexamples == {"t": "6", "u": "8"}
    assert row.verdicts == row.mistakes == {} and row.status == "graded"


def test_a_record_without_a_guess_shows_nothing_guessed() -> None:
    row = Row("ana", "ana.ipynb")
    report_module._history(row, [{"lesson": "04", "action": "guess", "name": "g"}], "04")
    assert row.guesses == {"g": ""}


def test_the_orders_clicked_in_the_widget() -> None:
    def order(answer: object, **fields: Any) -> dict[str, Any]:
        return {"lesson": "04", "action": "check", "name": "order", "via": "widget", "answer": answer, **fields}

    records = [
        order(["B", "A"]),
        order(["C", "A"], name="proof"),
        order(["A", "B"], name="proof", via="call"),  # typed, not clicked
        order(["A", "B"], name="proof", lesson="03"),
        order("AB", name="proof"),
        order(["A", ""], name="proof"),  # an empty label
        order(["A", "ABCDEFGHI"], name="proof"),  # a label longer than 8
        order(["A", 1], name="proof"),
        order(["X"] * 41, name="proof"),
        order(["A", "ABCDEFGH"], name="eight"),
        order(["Z"] * 40, name=7),
        order([]),  # the last order clicked wins, empty or not
        {"lesson": "04", "name": "none", "via": "widget"},
    ]
    assert clicked(records, "04") == {"order": [], "proof": ["C", "A"], "eight": ["A", "ABCDEFGH"], "7": ["Z"] * 40}
    assert clicked(records, "05") == {}


def test_a_saved_right_that_the_re_run_does_not_bear_out() -> None:
    row = Row("ana", "ana.ipynb", verdicts={"a": "wrong", "b": "partial", "c": "blank", "e": "odd", "f": "right"})
    row.tries.update({n: 2 for n in "abcdefg"})
    records = [saved("check", n, "right") for n in "ebdcaf"] + [
        saved("check", "g", "wrong"),
        saved("guess", "g", "right"),
        {**saved("check", "g", "right"), "lesson": "03"},
    ]
    report_module._not_borne_out(row, records, "04")
    assert row.not_borne_out == ["a", "b", "c", "d", "e"]
    said = "the record saved in the file says right, but the answer re-run here is "
    assert row.disagreed == {
        "a": said + "wrong",
        "b": said + "only partly right",
        "c": said + "not answered",
        "d": said + "not answered",
        "e": said + "not right",
    }
    assert row.tries == {"f": 2, "g": 2}


# -- judging the re-run's answers ------------------------------------------------------------------

PLAN = Plan(
    "04",
    {"start": 12},
    checks={str(n): f"answer_{n}" for n in range(1, 15)} | {"why": "why_1", "said": "said_1"},
    guesses={"g": "g_1", "h": "h_1", "k": "k_1", "l": "l_1", "m": "m_1"},
    tests={"t": ("rule_t", 50), "u": ("rule_u", 5), "v": ("rule_v", 5), "w": ("rule_w", 5), "x": ("rule_x", 5),
           "y": ("rule_y", 5)},
)  # fmt: skip
SAID = {
    "1": {"kind": "right"},
    "6": {"refused": "took more than 5 s of CPU time to check"},
    "7": {"kind": "misconception", "key": "half", "message": "Your answer was 6.", "hint": "Halving?"},
    "8": {"kind": "partial", "key": "some", "message": "2 of the 3.", "hint": "Look again."},
    "9": {"kind": "misconception", "key": "", "message": "No key."},
    "10": {"kind": "wrong", "key": "k", "message": "Not a named mistake."},
    "11": {"kind": "format", "key": "list", "message": "Give a list."},
    "12": {"kind": "miss", "key": "some", "message": "Missed one."},
    "13": {"kind": "unanswered"},
    "14": {},
    "why": {"kind": "noted"},
    "x": {"refused": "took more than 5 s"},
    "y": {},
    "t": {"result": "holds for every n up to 50"},
}


def reply() -> Reply:
    """The re-run's answers: decoded (``answers``) and as plain JSON for the judge (``raw_answers``)."""
    answers: dict[str, object] = {
        "check:1": [2, 3],
        "check:2": ...,  # never written: answered by lesson.check("2", ...)
        "call:2": [4],
        "call:3": [5],  # check 3's own answer wins
        "check:3": {6},
        "check:4": {"function": "f"},
        "check:5": {"timeout": 3.0},
        "check:6": 7,
        "check:7": 6,
        "check:8": [2],
        "check:9": 9,
        "check:10": 10,
        "check:11": "11",
        "check:12": None,
        "call:12": [12],
        "check:13": None,
        "check:14": 0,
        "check:why": "  Because\n twelve  is even. ",
        "check:said": "Not an explanation.",
        "guess:g": 12,
        "guess:h": "x" * 400,
        "guess:k": None,
        "guess:l": ...,
        "guess:m": 3,
    }
    raw = {k: {"raw": k} for k in answers}  # the judge gets the plain JSON, not the decoded value
    rules: dict[str, object] = {"test:t": [True, 3], "test:u": [None, ...], "test:w": "nope", "test:x": [1],
                                "test:y": [2]}  # fmt: skip
    return Reply(answers=answers, rules=rules, raw_answers=raw, raw_rules={k: {"raw": k} for k in rules})


def test_each_answer_is_judged_by_the_lesson_with_the_teachers_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    asked_for: list[Plan] = []
    monkeypatch.setattr(report_module, "explanation_names", lambda plan: asked_for.append(plan) or {"why", "13"})
    row = Row("ana", "ana.ipynb", tries={"1": 2, "4": 3, "5": 1, "6": 4}, guesses={"m": "1"})
    judge = FakeJudge(said=SAID)
    answers = reply()
    report_module._judge(row, PLAN, answers, judge, {"3": ["A"], "13": ["B", "A"], "14": ["C"], "9": []})
    assert asked_for == [PLAN]
    params = {"dict": [["start", 12]]}  # the teacher's parameters as plain JSON
    checks = [c for c in PLAN.checks if c not in ("4", "5")]  # a function, or out of time: nothing to judge
    key = {"2": "call:2", "12": "call:12"}

    def answer(check: str) -> object:
        return ["B", "A"] if check == "13" else {"raw": key.get(check, f"check:{check}")}

    assert judge.asked == [
        {"lesson": "04", "params": params, "check": c, "answer": answer(c)}
        for c in checks
    ] + [
        {"lesson": "04", "params": params, "test": t, "values": {"raw": f"test:{t}"}, "upto": upto}
        for t, upto in (("t", 50), ("x", 5), ("y", 5))
    ]  # fmt: skip
    assert answers.answers["click:13"] == answers.raw_answers["click:13"] == ["B", "A"]
    assert "click:3" not in answers.answers and "click:14" not in answers.answers
    assert row.verdicts == {
        "1": "right", "2": "right", "3": "right", "4": "wrong", "5": "wrong", "6": "wrong", "7": "wrong",
        "8": "partial", "9": "wrong", "10": "wrong", "11": "wrong", "12": "wrong", "13": "blank", "14": "wrong",
        "why": "wrong", "said": "right",
    }  # fmt: skip
    nothing = "no value (a function, or it ran out of time)"
    assert row.mistakes == {
        "4": nothing,
        "5": nothing,
        "6": "not judged: it took more than 5 s of CPU time to check",
        "7": "Halving?",
        "8": "2 of the 3.",
        "11": "Give a list.",
        "12": "Missed one.",
    }
    assert row.tries == {"1": 2, "6": 4}  # no tries kept for an answer that has no value
    assert row.explanations == {"why": "Because twelve is even."}  # "13" was clicked, a list, not words
    assert row.guesses == {"m": "1", "g": "12", "h": repr("x" * 400)[:300]}
    assert row.final_tests == {
        "t": "holds for every n up to 50",
        "u": "no rule",
        "v": "no rule",
        "w": "no rule",
        "x": "not judged: it took more than 5 s",
        "y": "not judged: it could not be checked",
    }


def test_an_explanation_is_kept_in_one_line_of_at_most_600_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_module, "explanation_names", lambda plan: {"a", "b", "c"})
    plan = Plan("04", {}, checks={"a": "a_1", "b": "b_1", "c": "c_1", "d": "d_1"})
    long = "word " * 200
    answers = {"check:a": long, "check:b": " \n ", "check:c": ["words"], "check:d": "Not declared."}
    row = Row("ana", "ana.ipynb")
    report_module._judge(row, plan, Reply(answers=answers, raw_answers=answers), FakeJudge())
    assert row.explanations == {"a": ("word " * 120)[:600]} and len(row.explanations["a"]) == 600
    assert row.verdicts == dict.fromkeys("abcd", "right")


def test_without_clicks_an_unanswered_check_is_asked_with_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_module, "explanation_names", lambda plan: set())
    plan = Plan("04", {}, checks={"order": ""})
    judge = FakeJudge(said={"order": {"kind": "unanswered"}})
    for clicks in (None, {}, {"other": ["A"]}):
        row = Row("ana", "ana.ipynb")
        report_module._judge(row, plan, Reply(), judge, clicks)
        assert row.verdicts == {"order": "blank"} and row.mistakes == {}
    assert judge.asked == [{"lesson": "04", "params": {"dict": []}, "check": "order", "answer": None}] * 3


def test_a_refusal_names_its_reason_even_with_a_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_module, "explanation_names", lambda plan: set())
    plan = Plan("04", {}, checks={"1": "a"})
    row = Row("ana", "ana.ipynb")
    said = {"1": {"kind": "misconception", "key": "k", "message": "m", "refused": "could not be checked (Unreadable)"}}
    report_module._judge(row, plan, Reply(answers={"check:1": 1}), FakeJudge(said=said))
    assert row.verdicts == {"1": "wrong"} and row.mistakes == {"1": "not judged: it could not be checked (Unreadable)"}


def test_a_mistake_without_a_message_or_a_hint_is_told_by_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_module, "explanation_names", lambda plan: set())
    plan = Plan("04", {}, checks={"1": "a", "2": "b", "3": "c"})
    said = {
        "1": {"kind": "partial", "key": "some", "hint": "Try 2."},  # no message: the hint
        "2": {"kind": "misconception", "key": "half", "message": "Your answer was 6."},  # no hint: the message
        "3": {"kind": "misconception", "key": "half"},
    }
    row = Row("ana", "ana.ipynb")
    report_module._judge(row, plan, Reply(answers={"check:1": 1, "check:2": 2, "check:3": 3}), FakeJudge(said=said))
    assert row.mistakes == {"1": "Try 2.", "2": "Your answer was 6.", "3": ""}


def test_an_answer_without_a_value_and_no_tries_saved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_module, "explanation_names", lambda plan: set())
    row = Row("ana", "ana.ipynb")
    answers = {"check:1": {"function": "f"}}
    report_module._judge(
        row, Plan("04", {}, checks={"1": "a"}), Reply(answers=answers, raw_answers=answers), FakeJudge()
    )
    assert (row.verdicts, row.tries) == ({"1": "wrong"}, {})
    report_module._not_borne_out(row, [saved("check", "1", "right")], "04")  # and no tries to forget there either
    assert row.not_borne_out == ["1"] and row.tries == {}


# -- re-running a hand-in --------------------------------------------------------------------------


class FakeRun:
    """run_isolated, answering as told and remembering its call."""

    def __init__(self, stdout: bytes = b"", stopped: str = "") -> None:
        self.done = SimpleNamespace(stdout=stdout, stopped=stopped)
        self.calls: list[tuple[list[str], dict[str, Any]]] = []

    def __call__(self, args: list[str], **kwargs: Any) -> SimpleNamespace:
        self.calls.append((args, kwargs))
        return self.done


def test_the_re_run_is_asked_for_the_teachers_answer_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    run = FakeRun(b'noise\n{"answers": {"check:1": [2, 3]}, "rules": {"test:t": [1, 2]}}\n')
    monkeypatch.setattr(sandbox, "run_isolated", run)
    files = {"04-x.lesson.toml": "lesson = '04'"}
    plan = Plan("04", {"start": 12}, checks={"1": "answer_1", "order": ""}, guesses={"g": "guess_1"},
                tests={"t": ("rule_1", 2), "u": ("rule_2", 1)}, files=files)  # fmt: skip
    hand_in = {"cells": [{"cell_type": "code", "source": "x = 1"}, {"cell_type": "markdown", "source": "# Hi"},
                         {"cell_type": "code", "source": ["a = 1\n", "b = 2"]}]}  # fmt: skip
    limits = Limits(cpu=1.0, wall=2.0, memory=3, cell=4.0, processes=5, judge=6.0)
    got, why = report_module._run(hand_in, plan, limits)
    assert why is None and got is not None
    assert (got.answers, got.rules) == ({"check:1": [2, 3]}, {"test:t": [1, 2]})
    ((args, kwargs),) = run.calls
    assert args == ["-m", "duel_lessons.teaching.grade_worker"]
    assert json.loads(kwargs.pop("stdin")) == {
        "cells": ["x = 1", "a = 1\nb = 2"],
        "answers": {"check:1": "answer_1", "guess:g": "guess_1"},  # the order is answered by a call: no variable
        "rules": {"test:t": ["rule_1", 2], "test:u": ["rule_2", 1]},
        "cell_seconds": 4.0,
        "files": {"04-x.lesson.toml": "lesson = '04'"},
    }
    assert kwargs == {"cpu_limit": 1.0, "wall_limit": 2.0, "memory_limit": 3, "max_processes": 5,
                      "output_limit": 8 * MIB, "scratch": True}  # fmt: skip


@pytest.mark.parametrize(
    ("stdout", "stopped", "why"),
    [
        (b'{"answers": {}}', "used more than 1 s of CPU", "stopped when re-run: it used more than 1 s of CPU"),
        (b"", "", "could not be re-run (the run gave no answers)"),
        (b"no JSON here\n", "", "could not be re-run (the run gave no answers)"),
        (b"{oops\n", "", "sent back answers that cannot be read when re-run: it is not well-formed JSON"),
        (b'{"answers": {}, "rules": {"test:t": [1, 2, 3]}}', "",
         "sent back answers that cannot be read when re-run: a rule gave more than 2 values"),
    ],
)  # fmt: skip
def test_a_re_run_without_answers_says_why(
    monkeypatch: pytest.MonkeyPatch, stdout: bytes, stopped: str, why: str
) -> None:
    monkeypatch.setattr(sandbox, "run_isolated", FakeRun(stdout, stopped))
    plan = Plan("04", {}, tests={"t": ("rule", 2), "u": ("rule", 1)})
    assert report_module._run({"cells": []}, plan, Limits()) == (None, why)


def test_without_tests_a_rule_may_give_no_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "run_isolated", FakeRun(b'{"answers": {}, "rules": {"test:t": [1]}}'))
    assert report_module._run({"cells": []}, Plan("04", {}), Limits()) == (
        None,
        "sent back answers that cannot be read when re-run: a rule gave more than 0 values",
    )
    monkeypatch.setattr(sandbox, "run_isolated", FakeRun(b'{"answers": {}, "rules": {"test:t": []}}'))
    got, why = report_module._run({"cells": []}, Plan("04", {}), Limits())
    assert why is None and got is not None and got.rules == {"test:t": []}


# -- reading a hand-in -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "name"),
    [("ana-04.ipynb", "ana-04"), ("Ana Lopez_2.ipynb", "Ana Lopez_2"), ("a<b>\u202e.ipynb", "a?b?"),
     ("é.x.ipynb", "é.x"), ("x" * 90 + ".ipynb", "x" * 80), ("", "?")],
)  # fmt: skip
def test_the_students_name_is_the_file_name_in_printable_characters(file: str, name: str) -> None:
    assert student_name(Path(file)) == name


def test_what_cannot_be_read_says_why(tmp_path: Path) -> None:
    good = tmp_path / "good.ipynb"
    good.write_text('{"cells": [], "x": ' + "[" * 99 + "]" * 99 + "}", encoding="utf-8")  # 100 deep
    (tmp_path / "link.ipynb").symlink_to(good)
    os.mkfifo(tmp_path / "fifo.ipynb")
    (tmp_path / "folder.ipynb").mkdir()
    texts = {
        "broken.ipynb": '{"cells": [',
        "deep.ipynb": '{"cells": [], "x": ' + "[" * 100 + "]" * 100 + "}",
        "list.ipynb": "[]",
        "nocells.ipynb": '{"cell": []}',
        "textcells.ipynb": '{"cells": "x = 1"}',
        "latin.ipynb": '{"cells": ["\xe9"]}',
    }
    for name, text in texts.items():
        (tmp_path / name).write_bytes(text.encode("latin-1"))
    read = {p.name: report_module._read(p) for p in tmp_path.iterdir()}
    read["missing.ipynb"] = report_module._read(tmp_path / "missing.ipynb")
    assert read["good.ipynb"][1] is None and read["good.ipynb"][0] == json.loads(good.read_text(encoding="utf-8"))
    assert {name: why for name, (_, why) in read.items()} == {
        "good.ipynb": None,
        "link.ipynb": "is a link, not a notebook file",
        "fifo.ipynb": "is not a regular file",
        "folder.ipynb": "is not a regular file",
        "broken.ipynb": "is not a readable notebook (malformed JSON)",
        "deep.ipynb": "is not a readable notebook (it is nested more than 100 deep)",
        "list.ipynb": "is not a notebook (no cells)",
        "nocells.ipynb": "is not a notebook (no cells)",
        "textcells.ipynb": "is not a notebook (no cells)",
        "latin.ipynb": "is not a readable notebook (it is not UTF-8 text)",
        "missing.ipynb": "cannot be read (No such file or directory)",
    }
    assert all(notebook is None for name, (notebook, _) in read.items() if name != "good.ipynb")


def test_a_notebook_of_the_largest_size_is_read_and_one_byte_more_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report_module, "MAX_BYTES", MIB)
    largest = tmp_path / "largest.ipynb"
    largest.write_bytes(b'{"cells": []}'.ljust(MIB))
    assert report_module._read(largest) == ({"cells": []}, None)
    largest.write_bytes(b'{"cells": []}'.ljust(MIB + 1))
    assert report_module._read(largest) == (None, "is larger than 1 MB")


def test_a_notebook_that_grows_while_read_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checked by size first, then read: what is read is bounded too (the file may grow in between)."""
    monkeypatch.setattr(report_module, "MAX_BYTES", MIB)
    path = tmp_path / "grows.ipynb"
    path.write_bytes(b'{"cells": []}'.ljust(MIB + 5))
    small = os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 10, 0, 0, 0))
    monkeypatch.setattr(Path, "lstat", lambda self: small)
    assert report_module._read(path) == (None, "is not a readable notebook (it is larger than 1,048,576 bytes)")


def test_a_hand_in_is_opened_without_following_a_link_or_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ana.ipynb"
    path.write_text('{"cells": []}', encoding="utf-8")
    flags: list[int] = []
    real = os.open

    def opened(name: Any, how: int, *args: Any) -> int:
        flags.append(how)
        return real(name, how, *args)

    monkeypatch.setattr(os, "open", opened)
    assert report_module._read(path) == ({"cells": []}, None)
    assert flags == [os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK]


def test_a_file_that_cannot_be_opened_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ana.ipynb"
    path.write_text('{"cells": []}', encoding="utf-8")

    def refused(*args: Any) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", refused)
    assert report_module._read(path) == (None, "cannot be read (Permission denied)")


# -- one hand-in, whole ----------------------------------------------------------------------------


def test_grading_a_hand_in_step_by_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_module, "explanation_names", lambda plan: set())
    plan = Plan("04", {}, checks={"1": "answer_1", "order": "", "3": "answer_3"})
    runs: list[tuple[dict[str, Any], Plan, Limits]] = []
    re_run = Reply(answers={"check:1": [2], "check:3": [3]}, raw_answers={"check:1": [2], "check:3": [3]})

    def run(hand_in: dict[str, Any], plan: Plan, limits: Limits) -> tuple[Reply, None]:
        runs.append((hand_in, plan, limits))
        return re_run, None

    monkeypatch.setattr(report_module, "_run", run)
    records = [
        saved("check", "1", "right", history=["with-1"]),  # borne out: right when re-run
        saved("check", "3", "right"),  # not borne out: wrong when re-run
        {"lesson": "04", "action": "check", "name": "order", "via": "widget", "answer": ["B", "A"], "version": 1,
         "kind": "wrong", "key": "", "shown": ""},
    ]  # fmt: skip
    hand_in = notebook('lesson = Lesson("04")', "answer_1 = [2]", outputs=records)
    path = tmp_path / "ana.ipynb"
    path.write_text(json.dumps(hand_in), encoding="utf-8")
    judge = FakeJudge(said={"3": {"kind": "misconception", "key": "k", "message": "m", "hint": "Three?"}})
    limits = Limits(cell=1.0)
    row = grade(path, plan, limits, judge)
    assert (row.student, row.file, row.status) == ("ana", "ana.ipynb", "graded")
    assert runs == [(hand_in, plan, limits)]
    assert [q.get("answer") for q in judge.asked] == [[2], ["B", "A"], [3]]
    assert row.verdicts == {"1": "right", "order": "right", "3": "wrong"}
    assert row.mistakes == {"3": "Three?"} and row.history == Counter({"1:with-1": 1})
    assert row.tries == {"1": 2, "order": 0} and row.not_borne_out == ["3"]  # order: no mistake saved, not right
    assert row.disagreed == {"3": "the record saved in the file says right, but the answer re-run here is wrong"}
    assert judge.closed == 0  # the caller's judge is the caller's to close


@pytest.mark.parametrize(
    ("sources", "status"),
    [
        (["x = 1"], "makes no Lesson(...): not a duel-lessons lesson"),
        (['lesson = Lesson("03")'], "is lesson 03, not lesson 04"),
        (['lesson = Lesson(4)'], "stopped when re-run: it ran out of time"),
    ],
)  # fmt: skip
def test_a_hand_in_not_graded_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sources: list[str], status: str
) -> None:
    monkeypatch.setattr(report_module, "_run", lambda *args: (None, "stopped when re-run: it ran out of time"))
    path = tmp_path / "ana.ipynb"
    hand_in = notebook(*sources, outputs=[saved("check", "1", "right", history=["k"])])
    path.write_text(json.dumps(hand_in), encoding="utf-8")
    judge = FakeJudge()
    row = grade(path, Plan("04", {}, checks={"1": "answer_1"}), Limits(), judge)
    assert row.status == status and row.verdicts == {} and judge.asked == []
    assert row.history == (Counter({"1:k": 1}) if status.startswith("stopped") else Counter())


def test_a_re_run_that_says_nothing_cannot_be_re_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_module, "_run", lambda *args: (None, None))
    path = tmp_path / "ana.ipynb"
    path.write_text(json.dumps(notebook('lesson = Lesson("04")')), encoding="utf-8")
    assert grade(path, Plan("04", {}), Limits(), FakeJudge()).status == "could not be re-run"


def test_an_unreadable_hand_in_is_graded_with_a_judge_of_its_own_that_is_closed(
    tmp_path: Path, judges: list[FakeJudge]
) -> None:
    plan = Plan("04", {}, folder="/teacher")
    row = grade(tmp_path / "ana.ipynb", plan, Limits(judge=2.0, memory=7))
    assert (row.student, row.file, row.status) == ("ana", "ana.ipynb", "cannot be read (No such file or directory)")
    (judge,) = judges
    assert (judge.args, judge.kwargs, judge.closed) == ((2.0, 7), {"lessons": "/teacher"}, 1)


def test_an_error_while_grading_is_the_rows_status_and_its_judge_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    def fails(row: Row, *args: Any) -> None:
        row.verdicts["1"] = "right"
        raise KeyError("x")

    monkeypatch.setattr(report_module, "_grade", fails)
    row = grade(tmp_path / "ana.ipynb", Plan("04", {}))
    assert (row.status, row.verdicts) == ("could not be graded (KeyError)", {})
    assert [j.closed for j in judges] == [1]
    given = FakeJudge()
    assert grade(tmp_path / "ana.ipynb", Plan("04", {}), judge=given).status == "could not be graded (KeyError)"
    assert given.closed == 0


# -- the class -------------------------------------------------------------------------------------


def test_the_hand_ins_of_a_folder(tmp_path: Path) -> None:
    for name in ("b.ipynb", "a.ipynb", "sub/c.ipynb", ".ipynb_checkpoints/a-checkpoint.ipynb", "notes.txt",
                 "sub/.ipynb_checkpoints/c-checkpoint.ipynb"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert submissions(tmp_path) == [tmp_path / "a.ipynb", tmp_path / "b.ipynb", tmp_path / "sub" / "c.ipynb"]
    with pytest.raises(ReportError) as refused:
        submissions(tmp_path / "a.ipynb")
    assert str(refused.value) == f"{tmp_path / 'a.ipynb'} is not a folder of handed-in notebooks."


@pytest.mark.parametrize(("root", "who"), [(True, "root"), (False, "your own user")])
def test_without_isolation_the_report_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, root: bool, who: str
) -> None:
    monkeypatch.setattr(isolation, "bubblewrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    monkeypatch.setattr(isolation, "is_root", lambda: root)
    assert isolation_problem() == (
        "The hand-ins cannot be isolated here: bubblewrap (bwrap) is not installed. Each notebook would run as "
        f"{who}, able to read your files and the other hand-ins, leave files behind, reach your network and signal "
        f"your processes. {INSTALL_ISOLATION}, or, only for notebooks you trust, take that risk with "
        "--run-untrusted-code-without-isolation (run_untrusted_code_without_isolation=True in Python)."
    )


@pytest.mark.parametrize("own_namespace", [True, False])
def test_with_bubblewrap_nothing_stands_in_the_way(monkeypatch: pytest.MonkeyPatch, own_namespace: bool) -> None:
    monkeypatch.setattr(isolation, "bubblewrap", lambda: (own_namespace, ""))
    assert isolation_problem() is None


def test_a_progress_bar_only_in_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    import IPython

    import duel_lessons.views.common as common

    monkeypatch.setattr(common, "count_bar", lambda what: f"a bar: {what}")
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    assert report_module._lab_progress() is None
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())  # a terminal IPython: no kernel
    assert report_module._lab_progress() is None
    monkeypatch.setattr(IPython, "get_ipython", lambda: SimpleNamespace(kernel=object()))
    assert report_module._lab_progress() == "a bar: Grading"


def test_titles_and_explanations_come_from_the_teachers_declarations(teacher: Path, tmp_path: Path) -> None:
    folder = str(teacher.parent)
    assert titles_of(Plan("77", {}, folder=folder)) == {"explain": "Explain: why 12 wins"}
    assert explanation_names(Plan("77", {}, folder=folder)) == {"explain"}
    assert titles_of(Plan("78", {}, folder=folder)) == {} and explanation_names(Plan("78", {}, folder=folder)) == set()
    assert titles_of(Plan("77", {})) == {} and explanation_names(Plan("77", {})) == set()  # none beside the package
    (teacher.parent / "77-why.lesson.toml").write_text('lesson = "77"\n[exercise.explain]\nkind = "essay"\n')
    assert explanation_names(Plan("77", {}, folder=folder)) == set()  # a broken declaration: none
    assert titles_of(Plan("77", {}, folder=folder)) == {}


def test_without_a_folder_the_declarations_are_looked_for_where_the_judge_looks(
    teacher: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plan without the teacher's folder reads the declarations the usual way: the folder named by
    DUEL_LESSONS_FOLDER first (not only the current folder)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("DUEL_LESSONS_FOLDER", str(teacher.parent))
    assert titles_of(Plan("77", {})) == {"explain": "Explain: why 12 wins"}
    assert explanation_names(Plan("77", {})) == {"explain"}


def test_a_check_not_declared_as_an_explanation_is_none(tmp_path: Path) -> None:
    (tmp_path / "77-two.lesson.toml").write_text(
        TOML + '\n[exercise.sum]\nkind = "number"\nvalue = "2 + 2"\nlabel = "Exercise 2"\n', encoding="utf-8"
    )
    assert explanation_names(Plan("77", {}, folder=str(tmp_path))) == {"explain"}


def grading(rows: dict[str, Row] | None = None, fails: bool = False) -> tuple[list[tuple[Any, ...]], Any]:
    """A stand-in for grade: each hand-in's row (``ana`` right on "explain" unless told), and the calls."""
    calls: list[tuple[Any, ...]] = []

    def graded(path: Path, plan: Plan, limits: Limits, judge: FakeJudge) -> Row:
        calls.append((path.name, plan, limits, judge))
        if fails:
            raise RuntimeError("a bug")
        return (rows or {}).get(path.name) or Row(student_name(path), path.name, verdicts={"explain": "right"})

    return calls, graded


@pytest.fixture
def hand_ins(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    for name in ("ana.ipynb", "ben.ipynb", "sub/Ana.ipynb"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("{}", encoding="utf-8")
    return folder


def test_the_class_graded_one_by_one_with_its_progress(
    teacher: Path, hand_ins: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    calls, graded = grading()
    monkeypatch.setattr(report_module, "grade", graded)
    monkeypatch.setattr(report_module, "isolation_problem", lambda: None)
    told: list[tuple[int, int, str]] = []
    limits = Limits(judge=3.0, memory=9)
    report = class_report(hand_ins, teacher, workers=1, limits=limits, progress=lambda *a: told.append(a))
    assert told == [(1, 3, "ana.ipynb"), (2, 3, "ben.ipynb"), (3, 3, "sub/Ana.ipynb")]
    (judge,) = judges
    assert (judge.args, judge.kwargs, judge.closed) == ((3.0, 9), {"lessons": str(teacher.parent.resolve())}, 1)
    assert [(name, lim, j) for name, _, lim, j in calls] == [(n, limits, judge) for n in ("ana.ipynb", "ben.ipynb",
                                                                                          "Ana.ipynb")]  # fmt: skip
    plan = calls[0][1]
    assert (plan.lesson, plan.params, plan.checks, plan.folder) == (
        "77", {"start": 12}, {"explain": "explain_1"}, str(teacher.parent.resolve())
    )  # fmt: skip
    assert report.plan == plan and report.titles == {"explain": "Explain: why 12 wins"}
    # two files for one name (ana, Ana): both kept, told apart by their path
    assert [(r.student, r.note) for r in report.rows] == [
        ("ana (ana.ipynb)", "another file has the same student name"),
        ("ben", ""),
        ("Ana (sub/Ana.ipynb)", "another file has the same student name"),
    ]


def test_as_many_judges_as_workers_all_closed(
    teacher: Path, hand_ins: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    monkeypatch.setattr(report_module, "grade", grading()[1])
    monkeypatch.setattr(report_module, "isolation_problem", lambda: None)
    monkeypatch.setattr(report_module, "_lab_progress", lambda: None)
    class_report(hand_ins, teacher, workers=3)
    assert [j.closed for j in judges] == [1, 1, 1]
    judges.clear()
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    class_report(hand_ins, teacher)
    assert [j.closed for j in judges] == [1, 1]
    judges.clear()
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    class_report(hand_ins, teacher)
    assert [j.closed for j in judges] == [1]


def test_as_many_threads_as_workers(
    teacher: Path, hand_ins: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    """``workers`` notebooks graded at once: that many threads, each with a judge of its own."""
    pools: list[int | None] = []

    class Pool(report_module.ThreadPoolExecutor):
        def __init__(self, max_workers: int | None = None) -> None:
            pools.append(max_workers)
            super().__init__(max_workers=max_workers)

    monkeypatch.setattr(report_module, "ThreadPoolExecutor", Pool)
    monkeypatch.setattr(report_module, "grade", grading()[1])
    monkeypatch.setattr(report_module, "isolation_problem", lambda: None)
    for workers in (1, 3):
        class_report(hand_ins, teacher, workers=workers, progress=lambda *a: None)
    assert pools == [1, 3] and len(judges) == 4


def test_a_failure_while_grading_still_closes_every_judge(
    teacher: Path, hand_ins: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    monkeypatch.setattr(report_module, "grade", grading(fails=True)[1])
    monkeypatch.setattr(report_module, "isolation_problem", lambda: None)
    with pytest.raises(RuntimeError, match="a bug"):
        class_report(hand_ins, teacher, workers=2, progress=lambda *a: None)
    assert [j.closed for j in judges] == [1, 1]


def test_in_a_kernel_the_progress_bar_is_told(
    teacher: Path, hand_ins: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    told: list[tuple[int, int, str]] = []
    monkeypatch.setattr(report_module, "grade", grading()[1])
    monkeypatch.setattr(report_module, "isolation_problem", lambda: None)
    monkeypatch.setattr(report_module, "_lab_progress", lambda: lambda *a: told.append(a))
    class_report(hand_ins, teacher, workers=1)
    assert [t[0] for t in told] == [1, 2, 3]


def test_without_isolation_the_class_is_not_run_unless_the_risk_is_taken(
    teacher: Path, hand_ins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    calls, graded = grading()
    monkeypatch.setattr(report_module, "grade", graded)
    monkeypatch.setattr(report_module, "isolation_problem", lambda: "Nothing isolates them.")
    with pytest.raises(ReportError) as refused:
        class_report(hand_ins, teacher, progress=lambda *a: None)
    assert str(refused.value) == "Nothing isolates them." and calls == [] and judges == []
    report = class_report(hand_ins, teacher, workers=1, progress=lambda *a: None,
                          run_untrusted_code_without_isolation=True)  # fmt: skip
    assert len(report.rows) == len(calls) == 3
    (tmp_path / "empty").mkdir()
    assert class_report(tmp_path / "empty", teacher, workers=1).rows == []  # nothing to run: nothing at risk


def test_the_teachers_copy_rules_and_must_be_the_lesson_asked_for(
    teacher: Path, hand_ins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, judges: list[FakeJudge]
) -> None:
    monkeypatch.setattr(report_module, "grade", grading()[1])
    monkeypatch.setattr(report_module, "isolation_problem", lambda: None)
    for lesson in ("77", 77):
        assert class_report(hand_ins, teacher, lesson=lesson, workers=1, progress=lambda *a: None).plan.lesson == "77"
    for lesson, said in (("78", "78"), (7, "07"), ("7", "07")):
        with pytest.raises(ReportError) as refused:
            class_report(hand_ins, teacher, lesson=lesson)
        assert str(refused.value) == f"The teacher's copy is lesson 77, not lesson {said}."
    missing = tmp_path / "missing.ipynb"
    with pytest.raises(ReportError) as refused:
        class_report(hand_ins, missing)
    assert str(refused.value) == f"The teacher's copy {missing} cannot be read (No such file or directory)."
    with pytest.raises(ReportError) as refused:
        class_report(tmp_path / "nowhere", teacher)
    assert str(refused.value) == f"{tmp_path / 'nowhere'} is not a folder of handed-in notebooks."
