"""teaching.record, value by value: the saved format, what a record keeps, how it is shown and read back.

Every expected value is written out by hand (issue 30: the `record` area's mutants; its older tests
went through the class report, which re-executes notebooks and is too slow to judge mutants).
"""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from duel_lessons.teaching import record


def test_the_saved_format_is_fixed() -> None:
    # Notebooks saved by students carry these: changing them would orphan every saved record.
    assert record.MIME == "application/vnd.duel-lessons.attempt+json"
    assert record.VERSION == 1
    assert record.MAX_TEXT == 300
    assert record.ACTIONS == ("check", "guess", "test")


def test_a_record_holds_exactly_its_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record.time, "time", lambda: 1700000000.6)
    assert record.attempt(4, "test", 7, kind=5) == {
        "version": 1,
        "lesson": "4",
        "action": "test",
        "name": "7",
        "kind": "5",
        "key": "",
        "shown": "",
        "time": 1700000001,
    }
    got = record.attempt("04", "guess", "g", kind="noted", key="k", shown="s")
    assert (got["key"], got["shown"], got["time"]) == ("k", "s", 1700000001)


def test_texts_are_cut_at_300_characters() -> None:
    long = "x" * 299 + "yz"  # 301 characters
    got = record.attempt("04", "check", "1", kind="miss", key=long, shown=long, note=long)
    assert got["key"] == "x" * 299 + "y" and got["shown"] == "x" * 299 + "y" and got["note"] == "x" * 299 + "y"
    exact = "a" * 300
    got = record.attempt("04", "check", "1", kind="miss", key=exact, shown=exact)
    assert got["key"] == exact and got["shown"] == exact


def test_extra_values_kept_cut_or_dropped() -> None:
    items = [f"m{i}" for i in range(60)]
    got = record.attempt(
        "04", "check", "1", kind="miss", yes=True, n=7, x=0.5, nothing=None, words="w",
        listed=items, pair=("a", 3), long_item=["q" * 305], other={"a": 1}, thing=object(),
    )  # fmt: skip
    extra = {k: v for k, v in got.items() if k not in ("version", "lesson", "action", "name", "kind", "key",
                                                           "shown", "time")}  # fmt: skip
    assert extra == {
        "yes": True,
        "n": 7,
        "x": 0.5,
        "nothing": None,
        "words": "w",
        "listed": [f"m{i}" for i in range(50)],
        "pair": ["a", "3"],
        "long_item": ["q" * 300],
    }
    assert "nothing" in got  # None is kept, not dropped


@pytest.mark.parametrize("action", ["peek", "", "Check"])
def test_an_unknown_action_is_refused_by_name(action: str) -> None:
    with pytest.raises(ValueError) as error:
        record.attempt("04", action, "1", kind="miss")
    assert str(error.value) == f"action must be one of ('check', 'guess', 'test'), not {action!r}"


def test_every_listener_hears_every_answer_in_order() -> None:
    heard: list[tuple[str, ...]] = []
    record.listen(lambda lesson, name, answer: heard.append(("first", lesson, name, answer)))
    record.listen(lambda lesson, name, answer: heard.append(("second", lesson, name, answer)))
    try:
        record.answered("04", "order", [2, 1])
        record.answered("05", "1", 3)
    finally:
        record._LISTENERS.clear()
    assert heard == [
        ("first", "04", "order", [2, 1]),
        ("second", "04", "order", [2, 1]),
        ("first", "05", "1", 3),
        ("second", "05", "1", 3),
    ]
    record.answered("04", "order", [1])  # nobody listens any more
    assert len(heard) == 4


def _fake_ipython(monkeypatch: pytest.MonkeyPatch, running: bool) -> list[tuple[Any, ...]]:
    """Replace IPython's get_ipython, display and update_display by recorders: the calls made."""
    calls: list[tuple[Any, ...]] = []
    ipython = types.ModuleType("IPython")
    display = types.ModuleType("IPython.display")
    ipython.get_ipython = (lambda: object()) if running else (lambda: None)  # type: ignore[attr-defined]
    display.display = lambda *a, **k: calls.append(("display", a, k))  # type: ignore[attr-defined]
    display.update_display = lambda *a, **k: calls.append(("update", a, k))  # type: ignore[attr-defined]
    ipython.display = display  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    return calls


def test_emit_shows_the_record_raw_with_an_empty_text_part(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_ipython(monkeypatch, running=True)
    r = {"version": 1, "lesson": "04"}
    record.emit(r)
    record.emit(r, display_id="proof-1")
    record.emit(r, display_id="proof-1", update=True)
    record.emit(r, update=True)  # no id to update: shown as new
    bundle = {record.MIME: {"version": 1, "lesson": "04"}, "text/plain": ""}
    assert calls == [
        ("display", (bundle,), {"raw": True, "display_id": None}),
        ("display", (bundle,), {"raw": True, "display_id": "proof-1"}),
        ("update", (bundle,), {"display_id": "proof-1", "raw": True}),
        ("display", (bundle,), {"raw": True, "display_id": None}),
    ]
    shown = calls[0][1][0][record.MIME]
    assert shown is not r  # a copy: the caller's record can change afterwards


def test_emit_does_nothing_outside_ipython(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_ipython(monkeypatch, running=False)
    record.emit({"version": 1}, display_id="x", update=True)
    record.emit({"version": 1})
    assert calls == []


GOOD = {"version": 1, "lesson": "04", "action": "check", "name": "1", "kind": "miss", "key": "", "shown": "3"}


def test_well_formed_needs_every_field() -> None:
    assert record.well_formed(GOOD)
    assert record.well_formed({**GOOD, "action": "guess"}) and record.well_formed({**GOOD, "action": "test"})
    assert not record.well_formed([GOOD])
    assert not record.well_formed({**GOOD, "version": 2})
    assert not record.well_formed({**GOOD, "version": "1"})
    assert not record.well_formed({**GOOD, "action": "peek"})
    for field in ("lesson", "name", "kind", "key", "shown"):
        assert not record.well_formed({**GOOD, field: 4}), field
        assert not record.well_formed({k: v for k, v in GOOD.items() if k != field}), field
    assert not record.well_formed({k: v for k, v in GOOD.items() if k != "version"})
    assert not record.well_formed({k: v for k, v in GOOD.items() if k != "action"})


def _output(data: object) -> dict[str, Any]:
    return {"output_type": "display_data", "data": data}


def test_records_come_in_cell_order_from_code_cells_only() -> None:
    a, b, c = ({**GOOD, "name": n} for n in ("a", "b", "c"))
    notebook = {
        "cells": [
            {"cell_type": "code", "outputs": [_output({record.MIME: a}), 7, _output({record.MIME: b})]},
            {"cell_type": "markdown", "outputs": [_output({record.MIME: GOOD})]},
            {"cell_type": "raw", "outputs": [_output({record.MIME: GOOD})]},
            ["cell_type", "code"],
            {"outputs": [_output({record.MIME: GOOD})]},
            {"cell_type": "code", "outputs": {"0": _output({record.MIME: GOOD})}},
            {"cell_type": "code"},
            {
                "cell_type": "code",
                "outputs": [
                    _output("not data"),
                    _output({"text/plain": "x"}),
                    {"data": {record.MIME: {**GOOD, "version": 0}}},
                ],
            },
            {"cell_type": "code", "outputs": [{"data": {record.MIME: c}}]},
        ]
    }
    got = record.records(notebook)
    assert got == [a, b, c]
    assert got[0] is not a  # copies: the report may add to them
    assert record.records({}) == [] and record.records({"cells": {"x": 1}}) == []


def test_progress_as_text_lines_up_its_columns() -> None:
    progress = record.Progress("04", [("Exercise 1", "right", 3), ("Guess", "noted", 1), ("Ex 2", "not tried", 0)])
    assert str(progress) == (
        "Lesson 04: your progress in this session\n"
        "  Exercise 1  right (3 tries)\n"
        "  Guess       noted\n"
        "  Ex 2        not tried"
    )
    assert str(record.Progress("05", [("A", "right", 2)])) == (
        "Lesson 05: your progress in this session\n  A  right (2 tries)"
    )
    assert str(record.Progress("06", [])) == "Lesson 06: your progress in this session"


def test_progress_as_html_escapes_every_text() -> None:
    progress = record.Progress("<4>", [("a<b", "x&y", 2), ("c", "d", 1)])
    assert progress._repr_html_() == (
        "<table><caption>Lesson &lt;4&gt;: your progress in this session</caption>"
        "<tr><th>what</th><th>where you are</th><th>tries</th></tr>"
        "<tr><td>a&lt;b</td><td>x&amp;y</td><td>2</td></tr>"
        "<tr><td>c</td><td>d</td><td>1</td></tr></table>"
    )
