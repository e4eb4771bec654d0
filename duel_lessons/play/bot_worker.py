"""The worker side of the bot sandbox: what runs in a bot's own process (see :mod:`duel_lessons.play.sandbox`).

The worker closes every inherited file descriptor but its socket, imports what bots commonly
use, sets its resource limits (and, under a root referee, becomes ``nobody``), loads the bot,
then answers one JSON request per line: it rebuilds the state from plain numbers, asks the bot,
turns the answer into an ``int`` itself and replies with one line of JSON, with the captured output.

>>> from duel_lessons.engine.game import new_game
>>> state = new_game("divisor-duel", 12).play(2)
>>> decode_state(state.rules, encode_state(state)) == state
True
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import operator
import os
import signal
import socket
import sys
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

from duel_lessons.engine.game import GameState, LostTurn, Moved, Passed
from duel_lessons.engine.rules import Rules

#: Function names a bot file may define, in order of preference.
BOT_FUNCTIONS = ("move", "strategy")
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


# -- the worker ----------------------------------------------------------------------------------


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


def warm_up(rules: Rules) -> None:
    """Compute one position's moves, so imports and caches are ready before a bot's clock runs."""
    _ = GameState(rules, max(rules.default_start, 2)).legal_moves


def worker_main(
    bot: Callable[[GameState], object] | tuple[str, str],
    rules: Rules,
    sock: socket.socket,
    memory: int,
    output_limit: int,
) -> None:
    _close_inherited_files(sock.fileno())
    _preload()
    warm_up(rules)
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
