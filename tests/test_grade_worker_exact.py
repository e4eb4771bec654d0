"""Exact tests of the class report's worker (:mod:`duel_lessons.teaching.grade_worker`), in this process.

Fast enough for mutation testing (`python .ci/mutation.py report`): no notebook runs and no sandbox.
A scripted shell stands in for IPython (each cell's source names what it does); ``main()``, the
process around :func:`grade` (file descriptors, environment, ``os._exit``), is exercised by
``tests/test_class_report.py`` in a real sandbox.  Every expected value is written out by hand.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from duel_lessons.teaching import grade_worker
from duel_lessons.teaching.grade_worker import NOT_PLAIN, CellTimeout, grade, place_files, plain, remember

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="CPU-time alarms: POSIX")


@pytest.fixture(autouse=True)
def _cell_alarm() -> Iterator[None]:
    """As main() does: the CPU-time alarm raises CellTimeout (restored afterwards)."""
    previous = signal.signal(signal.SIGPROF, grade_worker._alarm)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# -- plain -------------------------------------------------------------------------------------------


def nested(levels: int, inner: object = 1) -> object:
    for _ in range(levels):
        inner = [inner]
    return inner


def test_plain_keeps_six_levels_of_lists_and_refuses_the_seventh() -> None:
    assert plain(nested(6)) == [[[[[[1]]]]]]
    assert plain(nested(7)) == [[[[[[[NOT_PLAIN]]]]]]]
    assert plain(1, depth=7) == NOT_PLAIN and plain(1, depth=6) == 1


def test_plain_counts_the_depth_of_dicts_keys_and_values() -> None:
    assert plain(nested(5, {1: 2})) == nested(5, {"dict": [[1, 2]]})
    assert plain(nested(6, {1: 2})) == nested(6, {"dict": [[NOT_PLAIN, NOT_PLAIN]]})


def test_plain_of_each_simple_type() -> None:
    assert plain(None) is None
    assert plain(True) == {"bool": True} and plain(False) == {"bool": False}
    assert plain(-12) == -12 and type(plain(-12)) is int
    assert plain(0.5) == {"float": "0.5"}
    assert plain("P") == "P"
    assert plain(Fraction(-2, 6)) == {"fraction": [-1, 3]}
    assert plain(...) == {"ellipsis": True}


def test_plain_of_containers() -> None:
    assert plain([1, "a"]) == [1, "a"]
    assert plain((2, 3)) == {"tuple": [2, 3]}
    assert plain({3, 1, 2}) == {"set": [1, 2, 3]}  # sorted
    assert plain(frozenset({5, 4})) == {"set": [4, 5]}
    assert plain({"a": (1,), 2: [3]}) == {"dict": [["a", {"tuple": [1]}], [2, [3]]]}
    assert plain([]) == [] and plain(()) == {"tuple": []} and plain(set()) == {"set": []} and plain({}) == {"dict": []}


def test_plain_sorts_sets_only() -> None:
    assert list({8, 1}) == [8, 1]  # a set's own order is not sorted
    assert plain({8, 1}) == {"set": [1, 8]} and plain(frozenset({8, 1})) == {"set": [1, 8]}
    assert plain([3, 1, 2]) == [3, 1, 2] and plain((3, 1)) == {"tuple": [3, 1]}
    assert plain({3: 0, 1: 0}) == {"dict": [[3, 0], [1, 0]]}


def test_plain_of_a_set_that_cannot_be_sorted_keeps_every_item() -> None:
    said = plain({1, (2,)})
    assert isinstance(said, dict) and list(said) == ["set"]
    assert sorted(map(repr, said["set"])) == ["1", "{'tuple': [2]}"]


def test_plain_takes_ten_thousand_items_and_no_more() -> None:
    assert plain("x" * 10_000) == "x" * 10_000
    assert plain("x" * 10_001) == NOT_PLAIN
    assert plain([0] * 10_000) == [0] * 10_000
    assert plain([0] * 10_001) == NOT_PLAIN
    assert plain(tuple(range(10_001))) == NOT_PLAIN and plain(set(range(10_001))) == NOT_PLAIN
    assert plain(dict.fromkeys(range(10_000), 0)) == {"dict": [[n, 0] for n in range(10_000)]}
    assert plain(dict.fromkeys(range(10_001), 0)) == NOT_PLAIN


def test_plain_reads_subclasses_through_the_base_types_own_slots() -> None:
    class Liar(int):
        def __index__(self) -> int:
            return 99

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    class Loud(str):
        def __str__(self) -> str:
            return "not me"

        def __len__(self) -> int:
            return 0

    assert plain(Liar(3)) == 3 and type(plain(Liar(3))) is int
    assert plain(Loud("P")) == "P" and type(plain(Loud("P"))) is str
    assert plain(Loud("x" * 10_001)) == NOT_PLAIN  # its real length, not __len__'s


def test_plain_refuses_look_alikes() -> None:
    class MyList(list):  # type: ignore[type-arg]
        pass

    class MyDict(dict):  # type: ignore[type-arg]
        pass

    class MyFraction(Fraction):
        pass

    class MyFloat(float):
        pass

    assert plain(MyList([1])) == NOT_PLAIN
    assert plain(MyDict(a=1)) == NOT_PLAIN
    assert plain(MyFraction(1, 2)) == NOT_PLAIN
    assert plain(MyFloat(0.5)) == NOT_PLAIN
    assert plain(object()) == NOT_PLAIN
    assert plain(np.float64(0.5)) == NOT_PLAIN  # a float subclass, not a float


def test_plain_names_functions() -> None:
    def my_rule(n: int) -> bool:
        return True

    class Anonymous:
        def __call__(self) -> None:
            pass

    class BadName:
        __name__ = 5

        def __call__(self) -> None:
            pass

    class Fickle:
        """Its name is a text once, then a number."""

        def __init__(self) -> None:
            self.names: list[object] = ["fickle", 5]

        @property
        def __name__(self) -> object:
            return self.names.pop(0)

        def __call__(self) -> None:
            pass

    class Name(str):
        def __str__(self) -> str:
            return "other"

    named = Anonymous()
    named.__name__ = Name("shown")  # type: ignore[attr-defined]
    assert plain(Fickle()) == {"function": "fickle"}
    assert plain(named) == {"function": "shown"} and type(plain(named)["function"]) is str  # type: ignore[index]
    assert plain(my_rule) == {"function": "my_rule"}
    assert plain(Anonymous()) == {"function": "?"}
    assert plain(BadName()) == {"function": "?"}
    assert plain(len) == {"function": "len"}


def test_plain_reads_numpy_integers_and_booleans() -> None:
    assert plain(np.int64(7)) == 7 and type(plain(np.int64(7))) is int
    assert plain(np.uint8(255)) == 255
    assert plain(np.bool_(True)) == {"bool": True} and plain(np.bool_(False)) == {"bool": False}
    assert type(plain(np.bool_(True))["bool"]) is bool  # type: ignore[index]


# -- place_files and remember --------------------------------------------------------------------------


def test_place_files_writes_only_declarations_under_a_mebibyte(tmp_path: Path) -> None:
    files = {
        "04-proof.lesson.toml": "a = 'é'\n",
        "12-bots_2.lesson.toml": "x" * (2**20 - 1),
        "05-big.lesson.toml": "x" * 2**20,
        "4-short.lesson.toml": "",
        "04-proof.lesson.toml.bak": "",
        "../04-up.lesson.toml": "",
        "04-notext.lesson.toml": 5,
        "notes.txt": "",
    }
    place_files(files, str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["04-proof.lesson.toml", "12-bots_2.lesson.toml"]
    assert (tmp_path / "04-proof.lesson.toml").read_text(encoding="utf-8") == "a = 'é'\n"
    assert (tmp_path / "12-bots_2.lesson.toml").stat().st_size == 2**20 - 1


def test_place_files_takes_nothing(tmp_path: Path) -> None:
    place_files(None, str(tmp_path))
    place_files({}, str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_remember_keeps_the_last_answer_per_name_cut_to_80_characters() -> None:
    calls: dict[str, object] = {}
    listener = remember(calls)
    listener("04", "order", [1])
    listener("04", "order", [2])
    listener("04", 7, "seven")  # type: ignore[arg-type]
    listener("04", "n" * 81, "long")
    assert calls == {"order": [2], "7": "seven", "n" * 80: "long"}


# -- _limited ------------------------------------------------------------------------------------------


def test_limited_runs_the_action_under_the_cpu_alarm_and_clears_it() -> None:
    finished, left = grade_worker._limited(30, lambda: signal.getitimer(signal.ITIMER_PROF)[0])
    assert finished and 29.5 < left < 30.5  # the kernel rounds to its tick
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def spin() -> None:
    while True:
        pass


def test_limited_stops_a_loop_at_its_cpu_time() -> None:
    assert grade_worker._limited(0.01, spin) == (False, None)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def raises(error: BaseException) -> Callable[[], None]:
    def action() -> None:
        raise error

    return action


@pytest.mark.parametrize("error", [CellTimeout(), ValueError(), SystemExit(3), KeyboardInterrupt()])
def test_limited_takes_any_failure_as_no_answer(error: BaseException) -> None:
    assert grade_worker._limited(30, raises(error)) == (False, None)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_limited_hands_back_the_result() -> None:
    assert grade_worker._limited(30, lambda: [1, 2]) == (True, [1, 2])
    assert grade_worker._limited(30, lambda: None) == (True, None)


def test_the_alarm_raises_cell_timeout() -> None:
    with pytest.raises(CellTimeout):
        grade_worker._alarm(signal.SIGPROF, None)
    assert not issubclass(CellTimeout, Exception)  # no `except Exception` of a student's swallows it


# -- grade, with a scripted shell -------------------------------------------------------------------------


@dataclass
class Outcome:
    success: bool


class Shell:
    """IPython's shell as grade() uses it: ``run_cell(source, store_history=False, silent=True)`` and ``user_ns``.

    Each cell's source is the name of a scripted step (no text is executed).
    """

    def __init__(self) -> None:
        self.user_ns: dict[str, Any] = {}
        self.ran: list[tuple[str, dict[str, object]]] = []
        self.cpu_left: list[float] = []

    def run_cell(self, source: str, **options: object) -> Outcome | None:
        self.ran.append((source, options))
        self.cpu_left.append(signal.getitimer(signal.ITIMER_PROF)[0])
        if source == "set x":
            self.user_ns.update(x=6, rule=lambda n: n % 2 == 1)
            return Outcome(True)
        if source == "print":
            sys.stdout.write("hello")  # fails if the streams are not files
            sys.stderr.write("oops")
            return Outcome(True)
        if source == "raise":
            raise RuntimeError("boom")
        if source == "timeout":
            raise CellTimeout
        return Outcome(False) if source == "fail" else None


def test_grade_counts_cells_run_and_failed() -> None:
    shell = Shell()
    cells = ["set x", "fail", 5, "none", "raise", "timeout", "print", None]
    reply = grade({"cells": cells}, shell, {})
    assert reply == {"ran": 6, "failed": 4, "answers": {}, "rules": {}}
    assert [source for source, _ in shell.ran] == ["set x", "fail", "none", "raise", "timeout", "print"]
    assert all(options == {"store_history": False, "silent": True} for _, options in shell.ran)


def test_grade_sends_the_students_printing_nowhere(capsys: pytest.CaptureFixture[str]) -> None:
    grade({"cells": ["print"]}, Shell(), {})
    assert capsys.readouterr() == ("", "")


def test_grade_of_an_empty_request() -> None:
    assert grade({}, Shell(), {}) == {"ran": 0, "failed": 0, "answers": {}, "rules": {}}


def test_grade_gives_each_cell_its_cpu_seconds() -> None:
    shell = Shell()
    grade({"cells": ["fail"]}, shell, {})
    grade({"cells": ["fail"], "cell_seconds": 3}, shell, {})
    default, three = shell.cpu_left
    assert 19.5 < default < 20.5 and 2.5 < three < 3.5  # the kernel rounds to its tick


def test_grade_reads_the_answers_as_plain_values() -> None:
    request = {
        "cells": ["set x"],
        "answers": {"check:1": "x", "check:2": "(x, {x + 1})", "check:3": "undefined", "check:4": "rule"},
    }
    assert grade(request, Shell(), {})["answers"] == {
        "check:1": 6,
        "check:2": {"tuple": [6, {"set": [7]}]},
        "check:3": {"missing": True},
        "check:4": {"function": "<lambda>"},
    }


class Touchy:
    """An object the student made that cannot be compared: sorting a set of them raises."""

    def __lt__(self, other: object) -> bool:
        raise ValueError("no order")


def test_an_answer_whose_plain_value_cannot_be_read_is_missing() -> None:
    shell = Shell()
    shell.user_ns.update(touchy={Touchy(), Touchy()})
    reply = grade({"answers": {"check:1": "touchy", "check:2": "[1]"}, "rules": {"test:r": ["touchy", 5]}}, shell, {})
    assert reply["answers"] == {"check:1": {"missing": True}, "check:2": [1]}
    assert reply["rules"] == {"test:r": {"missing": True}}


def test_grade_reads_the_answers_given_by_calls_the_first_hundred() -> None:
    calls: dict[str, object] = {f"c{n}": n for n in range(101)}
    calls["c0"] = (1, 2)
    answers = grade({"answers": {"check:1": "1"}}, Shell(), calls)["answers"]
    assert answers == {"check:1": 1, "call:c0": {"tuple": [1, 2]}, **{f"call:c{n}": n for n in range(1, 100)}}


def test_a_call_whose_value_cannot_be_read_in_time_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_plain(value: object, depth: int = 0) -> object:
        raise CellTimeout

    monkeypatch.setattr(grade_worker, "plain", slow_plain)
    assert grade({}, Shell(), {"order": [1]})["answers"] == {"call:order": {"missing": True}}


def test_grade_evaluates_the_rules_for_n_from_1_to_upto() -> None:
    shell = Shell()
    shell.user_ns.update(
        odd=lambda n: n % 2 == 1,
        inverse=lambda n: Fraction(1, 2 - n),
        stuck=lambda n: (_ for _ in ()).throw(CellTimeout()) if n == 2 else True,
        five=5,
        gone=lambda n: (_ for _ in ()).throw(SystemExit()),
    )
    rules = {
        "test:odd": ["odd", 4],
        "test:inverse": ["inverse", "3"],
        "test:none": ["odd", 0],
        "test:stuck": ["stuck", 3],
        "test:five": ["five", 10],
        "test:unknown": ["nothing_here", 10],
        "test:gone": ["gone", 1],
    }
    T, F = {"bool": True}, {"bool": False}
    assert grade({"rules": rules}, shell, {})["rules"] == {
        "test:odd": [T, F, T, F],
        "test:inverse": [{"fraction": [1, 1]}, {"error": "ZeroDivisionError"}, {"fraction": [-1, 1]}],
        "test:none": [],
        "test:stuck": {"timeout": True},
        "test:five": 5,
        "test:unknown": {"missing": True},
        "test:gone": [{"error": "SystemExit"}],
    }


def test_a_rule_that_loops_times_out_at_the_cells_cpu_seconds() -> None:
    shell = Shell()
    shell.user_ns["loops"] = lambda n: spin()
    reply = grade({"rules": {"test:loops": ["loops", 5]}, "cell_seconds": 0.01}, shell, {})
    assert reply["rules"] == {"test:loops": {"timeout": True}}


def test_grade_evaluates_in_the_shells_namespace() -> None:
    shell = Shell()
    shell.user_ns["os"] = "the student's own"
    assert grade({"answers": {"a": "os"}}, shell, {})["answers"] == {"a": "the student's own"}  # not the module
