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
  so a root referee runs bots as ``nobody``, see :data:`DROP_PRIVILEGES`), small files only,
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
import importlib
import io
import json
import math
import multiprocessing
import operator
import os
import select
import signal
import socket
import sys
import time
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState, LostTurn, Moved, Passed
from duel_lessons.engine.rules import Rules

#: Function names a bot file may define, in order of preference.
BOT_FUNCTIONS = ("move", "strategy")
#: The most bytes the referee reads for one answer (the output is capped well below this).
MAX_MESSAGE = 256_000
#: Default caps: memory for the bot (on top of what the worker starts with), output per bot.
MEMORY_LIMIT = 512 * 2**20
OUTPUT_LIMIT = 10_000
#: A bot stopped (time-out, crash) this many moves in a row forfeits its remaining games without being asked,
#: so one looping bot costs a class a few seconds, not a time limit per game.
MAX_STRIKES = 3
#: When the referee runs as root, bots run as ``nobody``: True always, False never, None (the default) only
#: when Python's own folders are readable by others (else a bot could not even ``import math``).
DROP_PRIVILEGES: bool | None = None
#: Modules imported in each worker before its limits start, so bots find them.
PRELOAD = (
    "math",
    "cmath",
    "random",
    "itertools",
    "functools",
    "collections",
    "fractions",
    "statistics",
    "bisect",
    "heapq",
    "operator",
    "string",
    "re",
    "sympy",
    "numpy",
)
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


# -- the state as plain data ---------------------------------------------------------------


def encode_state(state: GameState) -> dict[str, Any]:
    """The state as JSON-ready numbers (the rules travel once, when the worker starts)."""
    history: list[list[Any]] = []
    for e in state.history:
        if isinstance(e, Moved):
            history.append(["moved", e.player, e.before, e.divisor, e.after])
        elif isinstance(e, Passed):
            history.append(["passed", e.player, e.number])
        else:
            history.append(["lost", e.player, e.number, e.value, e.reason])
    return {"number": state.number, "to_move": state.to_move, "passes": state.passes, "history": history}


def decode_state(rules: Rules, data: dict[str, Any]) -> GameState:
    """The state rebuilt from :func:`encode_state`'s data (in the worker)."""
    events: list[Moved | Passed | LostTurn] = []
    for kind, *fields in data["history"]:
        events.append({"moved": Moved, "passed": Passed, "lost": LostTurn}[kind](*fields))
    return GameState(rules, data["number"], data["to_move"], data["passes"], tuple(events))


# -- the worker (runs in the child process) ----------------------------------------------------


class _CappedText(io.TextIOBase):
    """A text stream that keeps the first ``cap`` characters written to it."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.cut = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = self.cap - self.size
        if len(text) > room:
            self.cut = True
            text = text[: max(room, 0)]
        self.parts.append(text)
        self.size += len(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts) + ("\n[output cut]\n" if self.cut else "")
        self.parts, self.size, self.cut = [], 0, False
        return text


def _safe(describe: Callable[[], str], fallback: str) -> str:
    try:
        return str.__str__(describe())[:4000]
    except BaseException:  # an evil __repr__ or __str__
        return fallback


def _limit_resources(memory: int) -> None:
    try:
        import resource
    except ImportError:  # Windows: no resource limits
        return
    with contextlib.suppress(OSError, ValueError):
        os.setpgid(0, 0)  # its own process group: the referee kills the group
    base = psutil.Process().memory_info().vms
    for limit, value in (
        (resource.RLIMIT_AS, base + memory),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 0),
        (resource.RLIMIT_FSIZE, 2**20),
    ):
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(limit, (value, value))
    _drop_privileges()
    _die_with_the_referee()


def _die_with_the_referee() -> None:
    """Linux: the kernel kills the worker if the referee dies (set after the change of user, which clears it)."""
    if not sys.platform.startswith("linux"):
        return
    referee = os.getppid()
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != referee or referee == 1:
        os._exit(1)  # the referee is already gone


def _drop_privileges() -> None:
    """Run as the user ``nobody`` if the referee runs as root (then the bot cannot signal the referee,
    write the teacher's files, or start processes); see :data:`DROP_PRIVILEGES`."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    if DROP_PRIVILEGES is False or (DROP_PRIVILEGES is None and not python_is_world_readable()):
        return
    try:
        import pwd

        entry = pwd.getpwnam("nobody")
        uid, gid = entry.pw_uid, entry.pw_gid
    except (ImportError, KeyError):
        uid = gid = 65534
    with contextlib.suppress(OSError):
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)


def python_is_world_readable() -> bool:
    """Whether every folder Python imports from can be read by other users (so ``nobody`` can import)."""
    for entry in {sys.prefix, sys.base_prefix, *(p for p in sys.path if p)}:
        path = Path(entry).resolve()
        if not path.exists():
            continue
        for folder in (path, *path.parents):
            try:
                mode = folder.stat().st_mode
            except OSError:
                return False
            if folder.is_dir() and mode & 0o005 != 0o005:
                return False
    return True


def _preload() -> None:
    """Import what bots commonly use while the worker can still read every file."""
    for name in PRELOAD:
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def _close_inherited_files(keep: int) -> None:
    os.closerange(3, keep)
    os.closerange(keep + 1, 65536)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)  # output written straight to the descriptors goes nowhere
    os.close(null)


def _load(bot: Callable[[GameState], object] | tuple[str, str]) -> Callable[[GameState], object]:
    """The bot's function; a bot file's (path, source) is run here, in the worker, as a module."""
    if not isinstance(bot, tuple):
        return bot
    path, source = bot
    module = types.ModuleType(f"duel_bot_{Path(path).stem}")
    module.__file__ = path
    sys.modules[module.__name__] = module
    exec(compile(source, path, "exec"), module.__dict__)  # the student's bot file, inside its sandbox
    for name in BOT_FUNCTIONS:
        function = getattr(module, name, None)
        if callable(function):
            return function  # type: ignore[no-any-return]
    raise LookupError(f"{Path(path).name} defines no function named {' or '.join(BOT_FUNCTIONS)}")


def _answer(function: Callable[[GameState], object], state: GameState) -> dict[str, Any]:
    """Ask the bot and check its answer is a whole number (all in the worker, inside the time limit)."""
    try:
        answer = function(state)
        if type(answer) is bool:
            return {"refused": f"returned {answer!r} (bool), not a whole number"}
        if not hasattr(type(answer), "__index__"):
            what = _safe(lambda: repr(answer)[:80], "an object")
            kind = _safe(lambda: type(answer).__name__, "?")
            return {"refused": f"returned {what} ({kind}), not a whole number"}
        move = operator.index(answer)  # type: ignore[arg-type]  # an exact int (Python >= 3.10), whatever __index__ does
        if move.bit_length() > 64:
            return {"refused": f"returned a number of {move.bit_length()} bits, far larger than any legal move"}
        return {"move": move}
    except BaseException as error:  # the bot's failure, whatever it raised, is its forfeit
        return {"raised": f"raised {_describe(error)}", "traceback": _trace()}


def _describe(error: BaseException) -> str:
    """``Name: message`` of an exception, even one whose __str__ fails."""
    name = _safe(lambda: type(error).__name__, "an exception")
    text = _safe(lambda: str(error), "(message could not be shown)")
    return f"{name}: {text}" if text else name


def _trace() -> str:
    return _safe(traceback.format_exc, "(traceback could not be shown)")[-4000:]


def _warm_up(rules: Rules) -> None:
    """Compute one position's moves, so imports and caches are ready before a bot's clock runs."""
    _ = GameState(rules, max(rules.default_start, 2)).legal_moves


def _worker(
    bot: Callable[[GameState], object] | tuple[str, str],
    rules: Rules,
    sock: socket.socket,
    memory: int,
    output_limit: int,
) -> None:
    _close_inherited_files(sock.fileno())
    _preload()
    _warm_up(rules)
    _limit_resources(memory)
    out = _CappedText(output_limit)
    reader = sock.makefile("rb")

    def send(message: dict[str, Any]) -> None:
        message["output"] = out.take()
        sock.sendall(json.dumps(message).encode("ascii") + b"\n")

    sys.stdout = sys.stderr = out
    try:
        function = _load(bot)
    except BaseException as error:
        sys.stdout = sys.stderr = out
        send({"seq": 0, "failed": f"could not be loaded: {_describe(error)}", "traceback": _trace()})
        return
    send({"seq": 0, "ready": True})
    for line in reader:
        request = json.loads(line)
        sys.stdout = sys.stderr = out  # the bot may have replaced them
        reply = _answer(function, decode_state(rules, request["state"]))
        reply["seq"] = request["seq"]
        sys.stdout = sys.stderr = out
        send(reply)


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
        _warm_up(self.rules)  # here too: a forked worker inherits the warm caches
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
                target=_worker,
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
