"""Exact values for the referee's shared rules (``play/referee.py``): limits, budgets, bot files.

Every expected value is worked out by hand. No process starts here: milliseconds, fast enough for
mutation testing (the ``sandbox`` area) to run these first.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

import duel_lessons.play.referee as referee
from duel_lessons.engine.errors import DuelError
from duel_lessons.play.referee import (
    BotFile,
    Forfeit,
    budget_left,
    budget_spent,
    check_time_limit,
    default_game_budget,
    default_wall_limit,
    printable,
    read_bot_source,
)


def test_the_limits_are_the_documented_ones() -> None:
    assert referee.MEMORY_LIMIT == 536_870_912  # 512 MiB
    assert (referee.OUTPUT_LIMIT, referee.MAX_STRIKES, referee.MAX_BOT_FILE) == (10_000, 3, 1_000_000)
    assert (referee.LOAD_LIMIT, referee.LOAD_WALL_LIMIT) == (5.0, 30.0)


@pytest.mark.parametrize(
    ("given", "expected"), [(0.5, 0.5), (2, 2.0), (86_400, 86_400.0), (1e-9, 1e-9), (86_399.5, 86_399.5)]
)
def test_a_time_limit_is_a_float_of_seconds(given: float, expected: float) -> None:
    value = check_time_limit(given)
    assert value == expected
    assert type(value) is float


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (True, "The time limit must be a number of seconds, not True."),
        ("1", "The time limit must be a number of seconds, not '1'."),
        (None, "The time limit must be a number of seconds, not None."),
        (0, "The time limit must be a finite number of seconds above 0, not 0."),
        (-1.5, "The time limit must be a finite number of seconds above 0, not -1.5."),
        (math.inf, "The time limit must be a finite number of seconds above 0, not inf."),
        (math.nan, "The time limit must be a finite number of seconds above 0, not nan."),
        (10**400, f"The time limit must be a finite number of seconds above 0, not {10**400!r}."),
        (86_400.5, "The time limit must be at most a day (86400 s), not 86400.5."),
        (86_401, "The time limit must be at most a day (86400 s), not 86401."),
    ],
)
def test_a_bad_time_limit_is_refused_with_its_value(given: object, message: str) -> None:
    with pytest.raises(DuelError) as caught:
        check_time_limit(given)
    assert str(caught.value) == message


def test_a_refused_limit_is_named_as_the_caller_says() -> None:
    with pytest.raises(DuelError, match=r"^The game budget must be a number of seconds, not 'x'\.$"):
        check_time_limit("x", "The game budget")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, é and 5", "plain text, é and 5"),
        ("two\nlines", "two\nlines"),  # a newline is kept
        ("tab\there", "tab\\there"),
        ("\x1b[2J\x07", "\\x1b[2J\\x07"),
        ("\r", "\\r"),
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("", ""),
    ],
)
def test_printable_escapes_every_control_character_but_the_newline(text: str, shown: str) -> None:
    assert printable(text) == shown


@pytest.mark.parametrize(("limit", "wall", "budget"), [(1.0, 5.0, 15.0), (0.5, 3.5, 12.5), (4.0, 14.0, 30.0)])
def test_the_default_wall_limit_and_game_budget(limit: float, wall: float, budget: float) -> None:
    assert default_wall_limit(limit) == wall  # 2 + 3 x the CPU limit
    assert default_game_budget(limit) == budget  # 10 + 5 x the CPU limit


@pytest.mark.parametrize(
    ("game", "spent_game", "total", "spent_total", "left"),
    [
        (None, 0.0, None, 0.0, math.inf),
        (10.0, 9.5, None, 50.0, 0.5),  # the game's only
        (None, 9.5, 100.0, 98.0, 2.0),  # the tournament's only
        (10.0, 2.0, 100.0, 97.0, 3.0),  # both: the tournament's is less
        (10.0, 8.0, 100.0, 50.0, 2.0),  # both: the game's is less
        (10.0, 12.0, None, 0.0, -2.0),  # overspent: negative, not cut at 0
    ],
)
def test_the_budget_left_is_the_least_of_the_two(
    game: float | None, spent_game: float, total: float | None, spent_total: float, left: float
) -> None:
    assert budget_left(game, spent_game, total, spent_total) == left


@pytest.mark.parametrize(
    ("game", "spent_game", "total", "spent_total", "verdict"),
    [
        (None, 1e9, None, 1e9, None),
        (2.5, 2.4, None, 0.0, None),
        (2.5, 2.5, None, 0.0, ("spent its time budget of 2.5 s for this game", False)),
        (2.5, 3.0, 7.5, 7.4, ("spent its time budget of 2.5 s for this game", False)),
        (None, 0.0, 7.5, 7.5, ("spent its whole time budget of 7.5 s for the tournament", True)),
        (2.5, 9.0, 7.5, 8.0, ("spent its whole time budget of 7.5 s for the tournament", True)),  # the total first
        (2.5, 0.0, 7.5, 7.49, None),
    ],
)
def test_a_budget_is_spent_at_exactly_its_seconds(
    game: float | None, spent_game: float, total: float | None, spent_total: float, verdict: object
) -> None:
    assert budget_spent(game, spent_game, total, spent_total) == verdict


def test_a_forfeit_holds_its_reason_and_trace() -> None:
    plain = Forfeit("timed out")
    assert (plain.reason, plain.trace, str(plain), plain.args) == ("timed out", None, "timed out", ("timed out",))
    traced = Forfeit("raised", "Traceback ...")
    assert (traced.reason, traced.trace) == ("raised", "Traceback ...")


def test_a_bot_file_is_read_and_its_folder_remembered(tmp_path: Path) -> None:
    path = tmp_path / "bot.py"
    path.write_bytes("def move(state):\n    return 'é'\n".encode())
    assert read_bot_source(path) == "def move(state):\n    return 'é'\n"
    assert str(tmp_path.resolve()) in referee.BOT_FOLDERS


def test_a_bot_file_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    path.write_bytes(b"#" * 1_000_000)
    assert len(read_bot_source(path)) == 1_000_000


def test_a_bot_file_one_byte_over_the_limit_is_refused_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    with open(path, "wb") as file:
        file.truncate(1_000_001)  # sparse: refused before it is read
    with pytest.raises(DuelError) as caught:
        read_bot_source(path)
    assert str(caught.value) == "big.py is 1,000,001 bytes, over the limit of 1,000,000 for a bot file"


def test_a_bot_file_that_grows_after_its_size_was_checked_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "grows.py"
    path.write_bytes(b"#" * 1_000_001)
    real = os.fstat

    def smaller(fd: int) -> object:  # the size seen before the read: the file grew after it
        info = real(fd)
        return SimpleNamespace(st_mode=info.st_mode, st_size=10)

    monkeypatch.setattr(referee.os, "fstat", smaller)
    with pytest.raises(DuelError) as caught:
        read_bot_source(path)
    assert str(caught.value) == "grows.py is over the limit of 1,000,000 bytes for a bot file"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "pipe.py"
    os.mkfifo(path)
    with pytest.raises(DuelError) as caught:
        read_bot_source(path)  # opened without blocking: no writer ever comes
    assert str(caught.value) == "pipe.py is not a regular file"


def test_a_symlink_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text("x = 1\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    with pytest.raises(OSError):
        read_bot_source(link)


def test_a_bot_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin.py"
    path.write_bytes(b"x = '\xe9'\n")
    with pytest.raises(UnicodeDecodeError):
        read_bot_source(path)


def test_a_snapshot_reads_the_file_now_or_keeps_why_not(tmp_path: Path) -> None:
    path = tmp_path / "good.py"
    path.write_text("def move(state):\n    return 2\n")
    good = BotFile.snapshot(path)
    assert (good.path, good.source, good.problem) == (path, "def move(state):\n    return 2\n", None)
    path.write_text("changed")
    assert good.source == "def move(state):\n    return 2\n"  # read once
    missing = BotFile.snapshot(tmp_path / "gone.py")
    assert (missing.source, missing.problem) == (None, f"[Errno 2] No such file or directory: '{tmp_path / 'gone.py'}'")
    assert missing.path == tmp_path / "gone.py"
    too_big = tmp_path / "huge.py"
    with open(too_big, "wb") as file:
        file.truncate(2_000_000)
    assert BotFile.snapshot(too_big).problem == "huge.py is 2,000,000 bytes, over the limit of 1,000,000 for a bot file"
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"\xff")
    assert BotFile.snapshot(latin).problem is not None


def test_a_bot_files_name_is_its_stem_with_control_characters_escaped() -> None:
    assert BotFile(Path("/x/alice.py")).name == "alice"
    assert BotFile(Path("/x/two\nlines.py")).name == "two\\nlines"
    assert BotFile(Path("/x/red\x1b[31m.py")).name == "red\\x1b[31m"


def test_bot_files_compare_and_show_by_path_only() -> None:
    assert BotFile(Path("a.py"), "one") == BotFile(Path("a.py"), "two", "why")
    assert repr(BotFile(Path("a.py"), "secret source")) == "BotFile(path=PosixPath('a.py'))"


def test_a_symlink_loop_is_refused_as_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    loop = tmp_path / "loop.py"
    loop.symlink_to(loop)  # resolving it fails (RuntimeError before Python 3.13): only opening it is the refusal
    with pytest.raises(OSError):
        read_bot_source(loop)
    assert "symbolic links" in str(BotFile.snapshot(loop).problem)
