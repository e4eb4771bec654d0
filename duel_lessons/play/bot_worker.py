"""The worker side of the bot sandbox: what runs in a bot's own process (see :mod:`duel_lessons.play.sandbox`).

A worker is a fresh Python interpreter (``python -m duel_lessons.play.bot_worker FD``, inside
bubblewrap where it is installed) that never held another bot's source.  It closes every other
file descriptor, reads its one bot from the referee's socket (a bot file's path and text, or a
function pickled by the referee), imports the few modules bots may use, sets its resource
limits, leaves the referee's user when the referee is root (a user id of its own), and only
then runs the bot's code.  It answers one JSON request per line: it rebuilds the state from
plain numbers, asks the bot, turns the answer into an ``int`` itself and replies with one line
of JSON, with the captured output.

A bot *file* runs in a restricted namespace (:func:`restricted_code`), built from allowlists: it
may import only :data:`ALLOWED_MODULES`, and from each only the names in :data:`BOT_MODULES`
(sympy's number theory, wrapped to take and give whole numbers; numpy's arrays), as a
:class:`BotModule` that refuses any other name by name.  Its builtins have no ``open``, ``eval``,
``exec``, ``type`` or ``__import__``, and ``getattr``, ``hasattr``, ``operator.attrgetter`` and
``operator.methodcaller`` check the name they are given, as an exact ``str``, by the same rule as
an attribute in the source (:func:`attribute_refusal`: no name that starts with ``_``, no frame,
traceback or code attribute, no formatting by name, no ctypes).  So no name a bot writes or makes
leads to evaluating a string, to a frame, to a module's globals or to ctypes.  Behind bubblewrap
or the worker's own namespaces this is a second line; where neither runs, it is the guarantee
against what the process layers leave open (see :mod:`duel_lessons.play.sandbox`).

>>> from duel_lessons.engine.game import new_game
>>> state = new_game("divisor-duel", 12).play(2)
>>> decode_state(state.rules, encode_state(state)) == state
True
>>> restricted_code("import os", "bot.py")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
duel_lessons.play.bot_namespace.RestrictedError: bot.py, line 1: a bot may import only math, cmath, ..., not os
"""

from __future__ import annotations

import base64
import contextlib
import importlib
import io
import json
import operator
import os
import pickle
import signal
import socket
import sys
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from duel_lessons.engine.game import GameState, LostTurn, Moved, Passed
from duel_lessons.engine.rules import Rules
from duel_lessons.play.bot_namespace import ALLOWED_MODULES as ALLOWED_MODULES
from duel_lessons.play.bot_namespace import BOT_MODULES as BOT_MODULES
from duel_lessons.play.bot_namespace import RestrictedError as RestrictedError
from duel_lessons.play.bot_namespace import imports_of, restricted_builtins
from duel_lessons.play.bot_namespace import restricted_code as restricted_code
from duel_lessons.play.worker_namespaces import own_namespaces as own_namespaces

#: Function names a bot file may define, in order of preference.
BOT_FUNCTIONS = ("move", "strategy")
#: Modules every worker imports before its limits start (the others in ALLOWED_MODULES only when the bot imports them).
PRELOAD = ("math", "random", "itertools", "functools", "collections", "fractions", "operator", "bisect", "heapq")

#: The parent this process started with (set again by the worker's entry points).
_PARENT = os.getppid()


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


def limit_resources(memory: int, files: int = 64, file_size: int = 2**20) -> None:
    """Resource limits of this process (POSIX): memory, no core files, no new processes, small files, few files."""
    try:
        import resource
    except ImportError:  # Windows: no resource limits
        return
    with contextlib.suppress(OSError, ValueError):
        os.setpgid(0, 0)  # its own process group: the referee kills the group
    try:
        import psutil  # type: ignore[import-untyped]

        base = psutil.Process().memory_info().vms
    except Exception:
        base = 0
    for limit, value in (
        (resource.RLIMIT_AS, base + memory),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 0),
        (resource.RLIMIT_FSIZE, file_size),
        (resource.RLIMIT_NOFILE, files),
    ):
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(limit, (value, value))


def drop_privileges(uid: int | None) -> bool:
    """Become user ``uid`` (a user of its own, given by a root referee); whether this process is now not root.

    Clearing the groups and changing the group and user needs root's CAP_SETUID/CAP_SETGID; in a
    container without them the worker stays root, and the referee says so.
    """
    if uid is None or not hasattr(os, "setuid"):
        return not hasattr(os, "geteuid") or os.geteuid() != 0
    with contextlib.suppress(OSError):
        os.setgroups([])
    with contextlib.suppress(OSError):
        os.setgid(uid)
    with contextlib.suppress(OSError):
        os.setuid(uid)
    return os.geteuid() != 0


def die_with_parent() -> None:
    """Linux: the kernel kills this process when its parent dies; also not dumpable (no ptrace by its peers)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # imported before the change of user (see serve): the new user may not read Python's files

        libc = ctypes.CDLL(None)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        libc.prctl(4, 0)  # PR_SET_DUMPABLE 0: another process of the same user cannot ptrace it or read its memory
    except (OSError, AttributeError, ImportError):
        return
    if os.getppid() != _PARENT:
        os._exit(1)  # the parent is already gone


def read_own_copy(path: str) -> str:
    """The text of this worker's private copy of its bot file (the only bot file it reads), kept for tracebacks."""
    import linecache

    with open(path, encoding="utf-8") as file:
        source = file.read()
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)  # kept when the file is hidden
    return source


def _close_inherited_files(keep: int) -> None:
    os.closerange(3, keep)
    os.closerange(keep + 1, 65536)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)  # output written straight to the descriptors goes nowhere
    os.close(null)


def _preload(names: tuple[str, ...] | list[str]) -> None:
    """Import modules while the worker can still read every file."""
    for name in names:
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def load_bot(
    bot: Callable[[GameState], object] | tuple[str, str], restricted: bool = True
) -> Callable[[GameState], object]:
    """The bot's function; a bot file's (path, source) is run here, in the worker, as a module."""
    if not isinstance(bot, tuple):
        return bot
    path, source = bot
    module = types.ModuleType(f"duel_bot_{Path(path).stem}")
    module.__file__ = path
    if restricted:
        code = restricted_code(source, path)
        module.__dict__["__builtins__"] = restricted_builtins()
    else:
        code = compile(source, path, "exec")
    sys.modules[module.__name__] = module
    exec(code, module.__dict__)  # the student's bot file, inside its sandbox (never in the referee)
    for name in BOT_FUNCTIONS:
        function = module.__dict__.get(name)
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


#: Below this, a worker finds divisors, primes and factors by trial division (so it need not import sympy,
#: which takes a fresh interpreter over a second of CPU time); from here on it asks sympy, as the referee does.
SMALL = 10**8


def _trial_factors(n: int) -> dict[int, int]:
    factors: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
        p += 1 if p == 2 else 2
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors


def small_number_theory() -> None:
    """Give the engine trial-division divisors, primality and factors below :data:`SMALL` (in this worker only).

    >>> import sympy
    >>> from duel_lessons.engine import rules
    >>> saved = rules.divisors, rules.is_prime, rules.factorint
    >>> small_number_theory()
    >>> all(rules.divisors(n) == [int(d) for d in sympy.divisors(n)] for n in range(1, 3000))
    True
    >>> all(rules.is_prime(n) == sympy.isprime(n) and rules.factorint(n) == sympy.factorint(n) for n in range(1, 3000))
    True
    >>> rules.divisors, rules.is_prime, rules.factorint = saved
    """
    from duel_lessons.engine import numbers, rules

    def divisors(n: int) -> list[int]:
        if not 1 <= n < SMALL:
            return numbers.divisors(n)
        low, high = [], []
        d = 1
        while d * d <= n:
            if n % d == 0:
                low.append(d)
                if d * d != n:
                    high.append(n // d)
            d += 1
        return low + high[::-1]

    def is_prime(n: int) -> bool:
        if not 0 <= n < SMALL:
            return numbers.is_prime(n)
        return n >= 2 and _trial_factors(n) == {n: 1}

    def factorint(n: int) -> dict[int, int]:
        if not 1 <= n < SMALL:
            return numbers.factorint(n)
        return _trial_factors(n)

    vars(rules).update(divisors=divisors, is_prime=is_prime, factorint=factorint)


def warm_up(rules: Rules) -> None:
    """Compute one position's moves, so imports and caches are ready before a bot's clock runs."""
    _ = GameState(rules, max(rules.default_start, 2)).legal_moves


def serve(
    sock: socket.socket,
    bot: Callable[[GameState], object] | tuple[str, str | None],
    rules: Rules,
    memory: int,
    output_limit: int,
    uid: int | None = None,
    restricted: bool = True,
    hide: list[str] | tuple[str, ...] = (),
    namespaces: bool = False,
) -> None:
    """Prepare this process (imports, folders, limits, user), load the bot, then answer the referee's requests.

    A bot file given as ``(path, None)`` is the worker's private copy, read here.  With ``namespaces``
    (where bubblewrap did not run) the worker makes namespaces and a root of its own before the bot runs
    (:func:`own_namespaces`), or refuses to run the bot; ``hide`` are the folders of the other bot files
    and their copies, covered should a bound folder hold one.
    """
    failed = None
    if isinstance(bot, tuple) and bot[1] is None:
        try:
            bot = (bot[0], read_own_copy(bot[0]))
        except (OSError, UnicodeDecodeError) as error:
            failed = f"could not read its copy: {_describe(error)}"
    if "sympy" not in sys.modules:
        small_number_theory()
    wanted = imports_of(bot[1]) if isinstance(bot, tuple) and bot[1] is not None else []
    _preload(["ctypes", "encodings.idna", "json.decoder", *PRELOAD, *wanted])
    warm_up(rules)
    hidden = own_namespaces(hide) if namespaces else None
    if hidden is not None:
        global _PARENT
        _PARENT = os.getppid()  # the first process of the worker's own pid namespace
    if hidden is False and failed is None:
        failed = "could not be isolated: the worker could not make namespaces and a root of its own"
    limit_resources(memory)
    not_root = drop_privileges(uid)
    die_with_parent()
    out = _CappedText(output_limit)
    reader = sock.makefile("rb")

    def send(message: dict[str, Any]) -> None:
        message["output"] = out.take()
        sock.sendall(json.dumps(message).encode("ascii") + b"\n")

    sys.stdout = sys.stderr = out
    if failed is not None:
        send({"seq": 0, "failed": failed})
        return
    try:
        function = load_bot(bot, restricted)  # type: ignore[arg-type]
    except BaseException as error:
        sys.stdout = sys.stderr = out
        send({"seq": 0, "failed": f"could not be loaded: {_describe(error)}", "traceback": _trace()})
        return
    send(
        {
            "seq": 0,
            "ready": True,
            "not_root": not_root,
            "hidden": hidden,
            "nested": namespaces and os.getpid() == 2,  # forked into a pid namespace of its own (no bubblewrap)
        }
    )
    for line in reader:
        request = json.loads(line)
        sys.stdout = sys.stderr = out  # the bot may have replaced them
        reply = _answer(function, decode_state(rules, request["state"]))
        reply["seq"] = request["seq"]
        sys.stdout = sys.stderr = out
        send(reply)


def worker_main(
    bot: Callable[[GameState], object] | tuple[str, str],
    rules: Rules,
    sock: socket.socket,
    memory: int,
    output_limit: int,
    uid: int | None = None,
    restricted: bool = True,
) -> None:
    """The entry point of a worker started by multiprocessing (fork on Linux for functions, spawn elsewhere)."""
    global _PARENT
    _PARENT = os.getppid()
    _forget_bot_files()
    _close_inherited_files(sock.fileno())
    serve(sock, bot, rules, memory, output_limit, uid, restricted)


def _forget_bot_files() -> None:
    """In a worker forked from a referee: drop the text of every bot file the referee read (not this bot's business)."""
    import gc

    from duel_lessons.play.referee import BotFile

    for obj in gc.get_objects():
        if type(obj) is BotFile:
            object.__setattr__(obj, "source", None)
    gc.collect()


def main(argv: list[str] | None = None) -> None:
    """``python -m duel_lessons.play.bot_worker FD``: a fresh interpreter whose socket is file descriptor FD."""
    args = sys.argv[1:] if argv is None else argv
    fd = int(args[0])
    _close_inherited_files(fd)
    sock = socket.socket(fileno=fd)
    reader = sock.makefile("rb")
    spec = pickle.loads(base64.b64decode(json.loads(reader.readline())["spec"]))  # from the referee, trusted
    del reader
    bot = spec["bot"]
    if isinstance(bot, bytes):  # a function pickled by reference: its module is imported here, before any limit
        bot = pickle.loads(bot)
    serve(
        sock,
        bot,
        spec["rules"],
        spec["memory"],
        spec["output_limit"],
        spec["uid"],
        spec["restricted"],
        spec["hide"],
        spec.get("namespaces", False),
    )


if __name__ == "__main__":
    main()
