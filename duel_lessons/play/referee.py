"""What the referee needs whether or not bots run in processes: forfeits, bot files, limits and budgets.

Nothing here starts a process or imports ``subprocess``, ``multiprocessing`` or psutil, so the tournament
and the lessons' checks import where there are no processes (Pyodide, in JupyterLite). The bots themselves
run in :mod:`duel_lessons.play.sandbox` (a process each) or, where there are no processes, in
:mod:`duel_lessons.play.in_kernel` (the kernel, under a time limit, without isolation); the choice is
:func:`duel_lessons.play.in_kernel.open_sandbox`'s.

>>> check_time_limit(0.5)
0.5
>>> default_game_budget(1.0), default_wall_limit(1.0)
(15.0, 5.0)
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState

#: Default caps: memory for the bot (on top of what the worker starts with), output per bot.
MEMORY_LIMIT = 512 * 2**20
OUTPUT_LIMIT = 10_000
#: A bot stopped (time-out, crash) this many moves in a row forfeits its remaining games without being asked,
#: so one looping bot costs a class a few seconds, not a time limit per game.
MAX_STRIKES = 3
#: CPU seconds a bot may spend starting (the interpreter, its imports and its file's top-level code), and the
#: wall-clock backstop (both also limited by the bot's budget).
LOAD_LIMIT = 5.0
LOAD_WALL_LIMIT = 30.0
#: A bot file larger than this is refused by its size, before it is read.
MAX_BOT_FILE = 1_000_000
#: The folders of every bot file this referee has read: absent from the root of its own that each worker
#: makes where bubblewrap does not run, and covered by an empty folder should a bound folder hold one
#: (:func:`~duel_lessons.play.bot_worker.own_namespaces`).
BOT_FOLDERS: set[str] = set()


def check_time_limit(time_limit: object, what: str = "The time limit") -> float:
    """A time limit in seconds: a finite number above 0 and at most a day (DuelError otherwise)."""
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise DuelError(f"{what} must be a number of seconds, not {time_limit!r}.")
    try:
        value = float(time_limit)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value) or value <= 0:
        raise DuelError(f"{what} must be a finite number of seconds above 0, not {time_limit!r}.")
    if value > 86_400:
        raise DuelError(f"{what} must be at most a day (86400 s), not {time_limit!r}.")
    return value


def printable(text: str) -> str:
    """Text from a bot, safe to print on a terminal: control characters (escape codes) written as ``\\x1b``.

    >>> printable("red\\x1b[31m\\nnext line")
    'red\\\\x1b[31m\\nnext line'
    """
    return "".join(c if c == "\n" or c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def default_wall_limit(time_limit: float) -> float:
    """The wall-clock limit of one move: time for the CPU limit on a busy machine, not for a long sleep."""
    return 2 + 3 * time_limit


def default_game_budget(time_limit: float) -> float:
    """The wall-clock seconds a bot may spend on one game, starts of its worker included."""
    return 10 + 5 * time_limit


def budget_left(game_budget: float | None, spent_game: float, total_budget: float | None, spent_total: float) -> float:
    """Seconds a bot has left: the less of what is left of its game's budget and of its tournament's (None: no
    budget; inf when neither is set).

    >>> budget_left(10.0, 9.5, 100.0, 20.0), budget_left(None, 3.0, 100.0, 98.0), budget_left(None, 0.0, None, 0.0)
    (0.5, 2.0, inf)
    """
    left = math.inf
    if game_budget is not None:
        left = min(left, game_budget - spent_game)
    if total_budget is not None:
        left = min(left, total_budget - spent_total)
    return left


def budget_spent(
    game_budget: float | None, spent_game: float, total_budget: float | None, spent_total: float
) -> tuple[str, bool] | None:
    """Why a bot may not move now, and whether for the rest of the tournament; None while it may.

    >>> budget_spent(1.0, 1.0, 5.0, 2.0)
    ('spent its time budget of 1 s for this game', False)
    >>> budget_spent(1.0, 0.0, 5.0, 5.0)
    ('spent its whole time budget of 5 s for the tournament', True)
    >>> budget_spent(1.0, 0.5, None, 99.0) is None
    True
    """
    if total_budget is not None and spent_total >= total_budget:
        return f"spent its whole time budget of {total_budget:g} s for the tournament", True
    if game_budget is not None and spent_game >= game_budget:
        return f"spent its time budget of {game_budget:g} s for this game", False
    return None


class Forfeit(Exception):
    """The bot loses the game: ``reason`` in words, and ``trace``, the bot's traceback if it raised."""

    def __init__(self, reason: str, trace: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.trace = trace


def read_bot_source(path: Path) -> str:
    """The text of a bot file: a regular file (no FIFO or device), at most MAX_BOT_FILE bytes (DuelError)."""
    with contextlib.suppress(OSError, RuntimeError):
        BOT_FOLDERS.add(str(Path(path).resolve().parent))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise DuelError(f"{path.name} is not a regular file")
        if info.st_size > MAX_BOT_FILE:
            raise DuelError(f"{path.name} is {info.st_size:,} bytes, over the limit of {MAX_BOT_FILE:,} for a bot file")
        data = file.read(MAX_BOT_FILE + 1)
    if len(data) > MAX_BOT_FILE:
        raise DuelError(f"{path.name} is over the limit of {MAX_BOT_FILE:,} bytes for a bot file")
    return data.decode("utf-8")


@dataclass(frozen=True)
class BotFile:
    """A bot in a ``.py`` file: the worker loads it and uses its function ``move`` (or ``strategy``)."""

    path: Path
    #: The file's text, read once when the tournament collects the bots, so that a bot that
    #: rewrites another bot's file mid-tournament changes nothing (None: read when first started).
    source: str | None = field(default=None, compare=False, repr=False)
    #: Why the file could not be read when it was collected (it forfeits when asked), or None.
    problem: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def snapshot(cls, path: Path) -> BotFile:
        """The bot in ``path`` with its text read now (left unread if it cannot be: it forfeits later).

        Only a regular file of at most :data:`MAX_BOT_FILE` bytes is read (checked before reading:
        a FIFO, a device or a 4 GB sparse file is refused without reading it).
        """
        try:
            return cls(path, read_bot_source(path))
        except (OSError, UnicodeDecodeError, DuelError) as error:
            return cls(path, None, str(error))

    @property
    def name(self) -> str:
        """The bot's name: the file name without ``.py``, with control characters (a newline) escaped."""
        return printable(self.path.stem).replace("\n", "\\n")


Bot = Callable[[GameState], object] | BotFile
