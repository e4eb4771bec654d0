"""Attempts saved in the notebook (teaching.record) and a student's own summary (Lesson.progress)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from duel_lessons.teaching import record
from duel_lessons.teaching.lesson import Lesson, forget

PARAMS = {"rules": "divisor-duel", "start": 60, "small": 12, "candidates": [2, 9, 11, 15, 21, 23]}


def test_a_record_keeps_plain_values_only() -> None:
    r = record.attempt(
        "00", "check", "1", kind="miss", key="miss:[12]", shown="[12]", history=["a", "b"], n=7, bad=object()
    )
    assert r["history"] == ["a", "b"] and r["n"] == 7 and "bad" not in r
    assert record.well_formed(r)
    with pytest.raises(ValueError, match="action"):
        record.attempt("00", "peek", "1", kind="miss")


def test_records_are_read_back_and_anything_else_is_ignored() -> None:
    good = record.attempt("00", "guess", "biggest", kind="noted", shown="1")
    outputs: list[Any] = [
        {"output_type": "display_data", "data": {record.MIME: good, "text/plain": ""}},
        {"output_type": "display_data", "data": {record.MIME: {"version": 1, "action": "check"}}},  # malformed
        {"output_type": "stream", "text": "✅ Exercise 1: right!"},
        "not an output",
    ]
    notebook = {"cells": [{"cell_type": "code", "outputs": outputs}, {"cell_type": "markdown"}, "junk"]}
    assert record.records(notebook) == [good]
    assert record.records({"cells": "nonsense"}) == []


def test_checks_guesses_and_tests_are_shown_as_records_in_ipython(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    # IPython adds an active virtualenv's site-packages to sys.path when it is not the running
    # Python's: under CI's lowest-versions run that put the main venv's nbconvert in this process.
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    path_before = list(sys.path)

    shell = InteractiveShell.instance()
    shown: list[dict[str, Any]] = []
    publish = shell.display_pub.publish
    shell.display_pub.publish = lambda data, *a, **k: shown.append(data)  # type: ignore[method-assign]
    try:
        forget("00")
        lesson = Lesson("00", **PARAMS)
        lesson.check(1, [1, 2, 3, 4, 6])
        lesson.check(1, [2, 3, 4, 6])
        lesson.guess("biggest", 1)
        lesson.check(2, ...)  # unanswered: no record
    finally:
        shell.display_pub.publish = publish  # type: ignore[method-assign]
        InteractiveShell.clear_instance()
    assert sys.path == path_before  # the shell left the test process's imports alone
    saved = [d[record.MIME] for d in shown if record.MIME in d]
    assert [(r["action"], r["name"], r["kind"]) for r in saved] == [
        ("check", "1", "misconception"),
        ("check", "1", "right"),
        ("guess", "biggest", "noted"),
    ]
    assert saved[1]["history"] == ["with-1"] and saved[2]["first"] == "1"


def test_progress_summarises_the_session(capsys: pytest.CaptureFixture[str]) -> None:
    forget("00")
    lesson = Lesson("00", **PARAMS)
    lesson.check(1, [12])
    lesson.check(1, [2, 3, 4, 6])
    lesson.check(3, [12, 6, 3])
    text = " ".join(str(lesson.progress()).split())
    assert "Exercise 1 right (2 tries)" in text
    assert "Exercise 2 not tried yet" in text
    assert "Exercise 3 not right yet" in text
    assert "<table>" in lesson.progress()._repr_html_()
