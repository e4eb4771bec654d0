"""Issue 21's command-line and file attacks: each one gets a one-line message and an exit status, never a
traceback or a hang, and never loses or replaces what it must not.

Hangs are checked in a child process with a generous time-out (a hang never ends; a load never takes minutes).
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from lesson_helpers import plain_id

from duel_lessons.cli import app
from duel_lessons.engine.game import GameState, new_game
from duel_lessons.play.sandbox import MAX_BOT_FILE, BotFile, Forfeit, Sandbox
from duel_lessons.play.tournament import round_robin
from duel_lessons.teaching.keys import write_answer_key
from duel_lessons.teaching.markers import is_removed
from duel_lessons.teaching.student_copies import write_student_copies

POSIX = hasattr(os, "mkfifo")


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = app.main(list(argv), io.StringIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


def run_process(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duel_lessons", *args],
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,  # type: ignore[call-overload]
    )


def notebook(*cells: dict[str, object]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": list(cells)})


def cell(kind: str, source: str, metadata: dict[str, object] | None = None) -> dict[str, object]:
    c: dict[str, object] = {"cell_type": kind, "source": source, "metadata": metadata or {}}
    if kind == "code":
        c.update(outputs=[], execution_count=None)
    return c


# -- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--starts", "1000000000000000000"], "--starts must be from 1 to 1,000"),
        (["--starts", "9" * 5000], "--starts"),
        (["--time-limit", "1e9"], "at most a day"),
        (["--time-limit", "1e400"], "finite"),
        (["--budget", "nan"], "--budget"),
    ],
)
def test_tournament_options_out_of_range(tmp_path: Path, args: list[str], message: str) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text("def move(state):\n    return state.legal_moves[0]\n")
    code, _, err = run("tournament", str(tmp_path), *args)
    assert code == app.USAGE and message in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_tournament_states_its_longest_time_before_it_starts(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text("def move(state):\n    return state.legal_moves[0]\n")
    code, out, _ = run("tournament", str(tmp_path), "--starts", "1", "--budget", "5")
    assert code == 0
    before = out.split("League")[0] if "League" in out else out
    assert "takes at most" in before and "5 s in all" in before


def test_a_malformed_url_is_a_message(tmp_path: Path) -> None:
    code, _, err = run("student-repo", str(tmp_path / "repo"), "--url", "http://[::1")
    assert code == app.USAGE and "is not a repository address" in err and "Traceback" not in err


def test_ctrl_c_anywhere_is_one_line_and_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt  # as if Ctrl-C came while a command's modules were being imported

    monkeypatch.setattr(app, "build_parser", interrupted)
    code, _, err = run("rules")
    assert code == app.INTERRUPTED and err == "Interrupted.\n"


@pytest.mark.skipif(not POSIX, reason="closing a standard stream with >&- is POSIX shell")
def test_closed_standard_streams() -> None:
    closed_out = subprocess.run(
        f"{sys.executable} -m duel_lessons rules >&-", shell=True, capture_output=True, text=True, timeout=300
    )
    assert closed_out.returncode == app.OUTPUT_FAILED and "Traceback" not in closed_out.stderr
    assert closed_out.stderr.strip().count("\n") == 0 and "cannot write the output" in closed_out.stderr
    closed_in = subprocess.run(
        f"{sys.executable} -m duel_lessons play <&-", shell=True, capture_output=True, text=True, timeout=300
    )
    assert closed_in.returncode == app.INPUT_ENDED and "Traceback" not in closed_in.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_play_from_dev_zero_ends() -> None:
    with open("/dev/zero", "rb") as zero:
        done = run_process(["play"], stdin=zero)
    assert done.returncode == app.INPUT_ENDED and "Traceback" not in done.stderr


def test_endless_slips_end_the_input() -> None:
    code, _, err = run("play", stdin="x\n" * 5000)
    assert code == app.INPUT_ENDED and "Input ended" in err


def test_an_empty_destination_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "notebooks"
    src.mkdir()
    (src / "01-a.ipynb").write_text(notebook(cell("code", "x = 1")))
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    code, _, err = run("student-copies", str(src), "")
    assert code == app.USAGE and "empty" in err and list(here.iterdir()) == []
    code, _, err = run("answer-key", str(src), "-o", "")
    assert code == app.USAGE and list(here.iterdir()) == []


def test_escape_codes_in_notebook_names_are_printed_safely(tmp_path: Path) -> None:
    src = tmp_path / "notebooks"
    src.mkdir()
    (src / "01-\x1b]0;pwned\x07\x1b[2J.ipynb").write_text(notebook(cell("code", "x = 1")))
    code, out, _ = run("student-copies", str(src), str(tmp_path / "copies"))
    assert code == 0 and "\x1b" not in out and "\x07" not in out and "\\x1b" in out


# -- files that are not files ----------------------------------------------------------------------


@pytest.mark.skipif(not POSIX, reason="FIFOs are POSIX")
def test_fifos_devices_and_links_are_refused_where_a_notebook_is_expected(tmp_path: Path) -> None:
    src = tmp_path / "notebooks"
    src.mkdir()
    os.mkfifo(src / "01-fifo.ipynb")
    done = run_process(["student-copies", str(src), str(tmp_path / "out")])
    assert done.returncode == app.USAGE and "not a regular file" in done.stderr
    (src / "01-fifo.ipynb").unlink()
    (src / "01-zero.ipynb").symlink_to("/dev/zero")
    done = run_process(["student-copies", str(src), str(tmp_path / "out")])
    assert done.returncode == app.USAGE and "link" in done.stderr
    (src / "01-zero.ipynb").unlink()
    (src / "01-a.ipynb").write_text(notebook(cell("code", "x = 1")))
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "01-a.ipynb")  # a FIFO at the destination
    done = run_process(["student-copies", str(src), str(out), "--force"])
    assert done.returncode == app.USAGE and stat.S_ISFIFO(os.lstat(out / "01-a.ipynb").st_mode)


@pytest.mark.skipif(not POSIX, reason="devices and FIFOs are POSIX")
def test_an_output_that_is_not_a_regular_file_is_never_replaced(tmp_path: Path) -> None:
    src = tmp_path / "notebooks"
    src.mkdir()
    (src / "01-a.ipynb").write_text(notebook(cell("code", "x = 1", {"tags": ["solution"]})))
    fifo = tmp_path / "key.md"
    os.mkfifo(fifo)
    with pytest.raises(Exception, match="not a regular file"):
        write_answer_key(src, fifo, force=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    if os.geteuid() == 0:  # as root, /dev/null itself could be replaced: it must not be
        code, _, _ = run("answer-key", str(src), "-o", "/dev/null", "--force")
        assert code == app.USAGE and stat.S_ISCHR(os.stat("/dev/null").st_mode)
        run("table", "--upto", "10", "--output", "/dev/null", "--force")
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


# -- markings -------------------------------------------------------------------------------------


MARKED = [
    cell("code", "%%time\n# SOLUTION\nanswer = 4"),
    cell("code", "%matplotlib inline\n# Solution\nanswer = 4"),
    cell("code", "# Exercise 1 - solution\nanswer = 4"),
    cell("code", "# Exercise 2: solution\nanswer = 4"),
    cell("code", "# Model solution\nanswer = 4"),
    cell("code", "answer = 4", {"nbgrader": {"solution": True, "grade": False}}),
    cell("code", "answer = 4", {"tags": ["teacher-note"]}),
    cell("markdown", "Odd numbers lose.", {"tags": ["teacher_note"]}),
    cell("markdown", "## Teacher note\nOdd numbers lose."),
    cell("markdown", "> **Teacher note:** odd numbers lose."),
    cell("markdown", "> Teacher's notes: odd numbers lose."),
    cell("markdown", "__Teacher note__: odd numbers lose."),
    cell("markdown", "**Teacher note.** Odd numbers lose."),
]
KEPT = [
    cell("code", "# Check your solution below\nlesson.check(1, answer)"),
    cell("markdown", "Teacher notes are in the answer key."),
    cell("code", "%%time\nanswer = ...  # your solution"),
    cell("markdown", "Write your solution in the cell below."),
]


@pytest.mark.parametrize("marked", MARKED, ids=lambda c: plain_id(str(c["source"])[:30] + str(c["metadata"])[:30]))
def test_every_marking_is_removed(marked: dict[str, object], tmp_path: Path) -> None:
    assert is_removed(marked)
    src = tmp_path / "notebooks"
    src.mkdir()
    (src / "01-a.ipynb").write_text(notebook(cell("markdown", "# Lesson"), marked, *KEPT))
    (written,) = write_student_copies(src, tmp_path / "copies")
    copy = json.loads(written.read_text())
    assert "Odd numbers lose" not in written.read_text() and "answer = 4" not in written.read_text()
    stubs = [c for c in copy["cells"] if "".join(c["source"]) == "# YOUR CODE HERE\nraise NotImplementedError()"]
    assert len(copy["cells"]) == 1 + len(KEPT) + len(stubs)  # nbgrader's solution cell becomes its stub
    assert len(stubs) == ("nbgrader" in marked["metadata"])  # type: ignore[operator]


# -- the tournament's own output --------------------------------------------------------------------


def newline_raiser(state: GameState) -> int:
    raise ValueError("boom\nmallory      10     10    0         0  100.0")


def test_no_fake_league_rows_from_names_or_errors() -> None:
    bots = {"evil\nalice      10     10    0         0  100.0": newline_raiser, "honest": lambda s: s.legal_moves[0]}
    result = round_robin(bots, starts=[12], time_limit=0.5)  # type: ignore[arg-type]
    text = result.to_text() + result.bot_report()
    assert not any(line.startswith(("alice", "mallory")) for line in text.splitlines())
    table = text.split("\n\n")[1].splitlines()
    assert len(table) == 1 + 2  # the header and one row per entrant


@pytest.mark.skipif(not POSIX, reason="sparse files")
def test_a_huge_sparse_bot_file_is_refused_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "huge.py"
    with path.open("wb") as file:
        file.truncate(4 * 2**30)  # 4 GB, sparse: nothing is written to disk
    bot = BotFile.snapshot(path)
    assert bot.source is None and bot.problem is not None and f"{MAX_BOT_FILE:,}" in bot.problem
    with Sandbox(bot, new_game().rules, 0.5) as box, pytest.raises(Forfeit, match="over the limit"):
        box.ask(new_game("divisor-duel", 12))
