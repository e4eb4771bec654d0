"""Run a student's bot in its own process, with limits, so that it cannot harm the referee.

A :class:`Sandbox` keeps one worker process for one bot for a whole tournament and asks it
for moves over a socket.  The referee never runs bot code in its own process:

* The bot gets a plain copy of the game state, rebuilt in the worker from numbers
  (rules, number, player to move, passes, history).  Whatever the bot changes there, or
  monkeypatches, or rewrites through ``sys._getframe``, lives and dies in the worker.
* The worker turns the bot's answer into an ``int`` itself (``operator.index``), inside
  the time limit, and sends back one line of JSON.  The referee reads at most
  ``MAX_MESSAGE`` bytes without blocking and never unpickles anything the worker sends.
* The time limit counts the bot's own CPU time (read by the referee from the operating
  system, so a bot cannot lie about it), with a generous wall-clock backstop for a bot
  that sleeps or stops itself.  A bot over the limit is killed (with its process group)
  and restarted for its next game, so nothing is left running.
* In the worker: an address-space limit (``RLIMIT_AS``: allocating 10 GB raises
  MemoryError), no core files, no new processes or threads (``RLIMIT_NPROC``; root is exempt,
  so a root referee runs bots as ``nobody``, see ``bot_worker.DROP_PRIVILEGES``), small files only,
  every inherited file descriptor closed (a bot in a notebook cannot talk to the kernel's
  sockets), the worker killed if the referee dies, and standard output and error captured and capped at
  ``output_limit`` characters.  A bot that exits, crashes or kills itself forfeits.

This contains crashes, loops, memory, floods and cheating at the game.  It is not a jail
against a bot written to attack the computer (its files, other processes of the same user):
read what you run, or run the tournament in a container such as Binder.

A bot is a callable ``state -> move``, or a :class:`BotFile` (a ``.py`` file that the
worker loads, so even the file's top-level code never runs in the referee).

>>> from duel_lessons.engine.game import new_game
>>> with Sandbox(lambda state: state.legal_moves[0], new_game().rules, time_limit=1.0) as bot:
...     bot.ask(new_game("divisor-duel", 12))
2
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import select
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import Rules
from duel_lessons.play.bot_worker import BOT_FUNCTIONS, decode_state, encode_state, warm_up, worker_main

__all__ = [
    "BOT_FUNCTIONS",
    "Bot",
    "BotFile",
    "Forfeit",
    "Sandbox",
    "check_time_limit",
    "decode_state",
    "encode_state",
    "printable",
]

#: The most bytes the referee reads for one answer (the output is capped well below this).
MAX_MESSAGE = 256_000
#: Default caps: memory for the bot (on top of what the worker starts with), output per bot.
MEMORY_LIMIT = 512 * 2**20
OUTPUT_LIMIT = 10_000
#: A bot stopped (time-out, crash) this many moves in a row forfeits its remaining games without being asked,
#: so one looping bot costs a class a few seconds, not a time limit per game.
MAX_STRIKES = 3
#: CPU seconds a bot file may spend loading (its imports and top-level code), and the wall-clock backstop.
LOAD_LIMIT = 3.0
LOAD_WALL_LIMIT = 20.0


class Forfeit(Exception):
    """The bot loses the game: ``reason`` in words, and ``trace``, the bot's traceback if it raised."""

    def __init__(self, reason: str, trace: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.trace = trace


@dataclass(frozen=True)
class BotFile:
    """A bot in a ``.py`` file: the worker loads it and uses its function ``move`` (or ``strategy``)."""

    path: Path

    @property
    def name(self) -> str:
        """The bot's name: the file name without ``.py``."""
        return printable(self.path.stem)


Bot = Callable[[GameState], object] | BotFile


def check_time_limit(time_limit: object) -> float:
    """A time limit in seconds: a finite number above 0 (DuelError otherwise)."""
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise DuelError(f"The time limit must be a number of seconds, not {time_limit!r}.")
    if not math.isfinite(time_limit) or time_limit <= 0:
        raise DuelError(f"The time limit must be a finite number of seconds above 0, not {time_limit!r}.")
    return float(time_limit)


def start_method() -> str:
    """``fork`` where it is available and safe (Linux: fast, and bots defined in a notebook work), else ``spawn``."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


# -- the referee's side ----------------------------------------------------------------------


class Sandbox:
    """One bot in one worker process, restarted after a crash or a time-out.

    After ``max_strikes`` stops in a row the bot is disqualified: every later ``ask`` forfeits
    at once.  ``ask(state)`` returns the bot's move as an ``int`` (not yet checked against the rules)
    or raises :class:`Forfeit`.  Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        bot: Bot,
        rules: Rules,
        time_limit: float = 1.0,
        *,
        wall_limit: float | None = None,
        memory_limit: int = MEMORY_LIMIT,
        output_limit: int = OUTPUT_LIMIT,
        max_strikes: int = MAX_STRIKES,
    ) -> None:
        self.bot = bot
        self.max_strikes = max_strikes
        self.rules = rules
        self.time_limit = check_time_limit(time_limit)
        self.wall_limit = check_time_limit(wall_limit if wall_limit is not None else 2 + 10 * self.time_limit)
        self.memory_limit = memory_limit
        self.output_limit = output_limit
        self.output = ""
        self.starts = 0
        self._context = multiprocessing.get_context(start_method())
        self._process: Any = None
        self._sock: socket.socket | None = None
        self._buffer = b""
        self._seq = 0
        self._cpu = 0.0
        self._broken: Forfeit | None = None
        self._strikes = 0

    # -- life cycle --

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Kill the worker (and anything it started in its process group)."""
        process, self._process = self._process, None
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if process is None:
            return
        if process.pid is not None:
            with contextlib.suppress(OSError, AttributeError):
                os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError, ValueError):
            process.kill()
        process.join(5)
        with contextlib.suppress(ValueError):
            process.close()

    def _start(self) -> None:
        warm_up(self.rules)  # here too: a forked worker inherits the warm caches
        bot: Callable[[GameState], object] | tuple[str, str]
        if isinstance(self.bot, BotFile):
            try:
                bot = (str(self.bot.path), self.bot.path.read_bytes().decode("utf-8"))  # read here, run there
            except (OSError, UnicodeDecodeError) as error:
                self._broken = Forfeit(f"could not be loaded: {self.bot.path.name}: {error}")
                raise self._broken from None
        else:
            bot = self.bot
        ours, theirs = socket.socketpair()
        try:
            process = self._context.Process(  # type: ignore[attr-defined]
                target=worker_main,
                args=(bot, self.rules, theirs, self.memory_limit, self.output_limit),
                name="duel-bot",
                daemon=True,
            )
            process.start()
        except Exception as error:  # e.g. spawn cannot pickle a function defined in a notebook
            ours.close()
            raise DuelError(f"Cannot start a process for the bot: {error}. Define the bot in a .py file.") from None
        finally:
            theirs.close()
        with contextlib.suppress(OSError, AttributeError):
            os.setpgid(process.pid, process.pid)  # also done by the worker; whichever runs first
        ours.settimeout(self.wall_limit)  # sendall gives up after this; reads wait in select first
        self._process, self._sock, self._buffer, self._seq = process, ours, b"", 0
        self.starts += 1
        self._cpu = 0.0
        self._cpu = self._cpu_time()
        limit = max(LOAD_LIMIT * (1 if start_method() == "fork" else 5), self.time_limit)  # spawn imports afresh
        try:
            reply = self._receive(0, limit, max(self.wall_limit, LOAD_WALL_LIMIT))
        except Forfeit as failure:
            self._broken = Forfeit(f"could not be loaded: {failure.reason}")
            self.close()
            raise self._broken from None
        if "failed" in reply:
            self._broken = Forfeit(printable(str(reply["failed"])[:500]), _text(reply.get("traceback")))
            self.close()
            raise self._broken

    def _cpu_time(self) -> float:
        try:
            times = psutil.Process(self._process.pid).cpu_times()
        except (psutil.Error, AttributeError, ValueError):
            return self._cpu
        return float(times.user + times.system)

    # -- one move --

    def ask(self, state: GameState) -> int:
        """The bot's answer from ``state`` as a whole number, or :class:`Forfeit`."""
        if self._broken is not None:
            raise Forfeit(self._broken.reason, self._broken.trace)
        try:
            if self._process is None:
                self._start()
            self._seq += 1
            request = json.dumps({"seq": self._seq, "state": encode_state(state)}).encode("ascii") + b"\n"
            assert self._sock is not None
            try:
                self._sock.sendall(request)
            except OSError:  # including the time-out: the worker does not read
                raise Forfeit("its process stopped reading the referee's requests") from None
            reply = self._receive(self._seq, self.time_limit, self.wall_limit)
        except Forfeit as failure:
            if self._broken is None:
                self.close()  # stopped: a fresh worker for the next move
                self._strikes += 1
                if self._strikes >= self.max_strikes:
                    self._broken = Forfeit(
                        f"disqualified after being stopped {self._strikes} times in a row (last: {failure.reason})"
                    )
            raise
        self._strikes = 0
        if "move" in reply:
            move = reply["move"]
            if type(move) is not int:
                self.close()
                raise Forfeit("sent a malformed answer")
            return move
        if "raised" in reply:
            raise Forfeit(printable(str(reply["raised"])[:500]), _text(reply.get("traceback")))
        raise Forfeit(printable(str(reply.get("refused", "sent a malformed answer"))[:500]))

    def _receive(self, seq: int, cpu_limit: float, wall_limit: float) -> dict[str, Any]:
        """The worker's reply to request ``seq``, read within the limits (Forfeit otherwise)."""
        assert self._sock is not None
        began = time.monotonic()
        start_cpu = self._cpu
        tick = min(0.05, max(0.005, cpu_limit / 4))
        while True:  # every pass checks both limits, whatever the worker sends
            line = self._read_line(tick)
            cpu = self._cpu_time()
            used = cpu - start_cpu
            if line is not None:
                reply = self._parse(line)
                if reply.get("seq") == seq:  # else a stale or invented message: ignored
                    self._cpu = cpu
                    if used > cpu_limit:
                        raise Forfeit(f"used {used:.2f} s of CPU time, over the time limit of {cpu_limit:g} s")
                    return reply
            if used > cpu_limit:
                raise Forfeit(f"took longer than the time limit of {cpu_limit:g} s of CPU time (stopped)")
            if time.monotonic() - began > wall_limit:
                raise Forfeit(f"gave no answer within {wall_limit:g} s (stopped)")

    def _read_line(self, timeout: float) -> bytes | None:
        assert self._sock is not None
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self._sock], [], [], timeout)
            if not ready:
                return None
            try:
                chunk = self._sock.recv(65536)
            except (BlockingIOError, TimeoutError):
                return None
            except OSError:
                chunk = b""
            if not chunk:
                raise Forfeit(f"its process ended ({self._exit_description()})")
            self._buffer += chunk
            if len(self._buffer) > MAX_MESSAGE and b"\n" not in self._buffer:
                raise Forfeit(f"sent more than {MAX_MESSAGE:,} bytes in one answer")
            timeout = 0.0
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _parse(self, line: bytes) -> dict[str, Any]:
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            raise Forfeit("sent a malformed answer") from None
        if not isinstance(reply, dict):
            raise Forfeit("sent a malformed answer")
        output = reply.get("output")
        if isinstance(output, str) and output and len(self.output) < self.output_limit:
            self.output += printable(output[: self.output_limit - len(self.output)])
            if len(self.output) >= self.output_limit:
                self.output += "\n[output cut]\n"
        return reply

    def _exit_description(self) -> str:
        process = self._process
        if process is None:
            return "it was stopped"
        process.join(1)
        code = process.exitcode
        if code is None:
            return "it closed its connection"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by signal {signal.Signals(-code).name}"
            return f"killed by signal {-code}"
        return f"exit code {code}"


def _text(value: object) -> str | None:
    return printable(value[:4000]) if isinstance(value, str) and value else None


def printable(text: str) -> str:
    """Text from a bot, safe to print on a terminal: control characters (escape codes) written as ``\\x1b``.

    >>> printable("red\\x1b[31m\\nnext line")
    'red\\\\x1b[31m\\nnext line'
    """
    return "".join(c if c == "\n" or c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
