"""Run a student's bot in its own process, with limits, so that it cannot harm the referee or another bot.

A :class:`Sandbox` keeps one worker process for one bot and asks it for moves over a socket.
The referee never runs bot code in its own process.  The layers, each for its own reason
(where one is missing the others still hold, and :func:`isolation_notes` says which is missing):

1. **A fresh interpreter per bot file** (``python -m duel_lessons.play.bot_worker``, started
   with ``subprocess``, not forked from the referee): the worker never held another bot's source
   or the referee's objects, so ``gc.get_objects()`` finds only its own bot.  It gets a clean
   environment (none of the teacher's variables), no terminal (a session of its own: it cannot
   type into the teacher's terminal) and no inherited file descriptor but its socket.  It reads
   its bot from a **private copy** (:func:`private_copy`: 0600 in a 0700 folder, owned by the
   worker's user), the only bot file it may read.  Without bubblewrap, the worker makes pid,
   network, IPC and mount namespaces and a root of its own before the bot runs
   (:func:`~duel_lessons.play.bot_worker.own_namespaces`; root, or a user where the kernel allows
   user namespaces): read-only binds of only the system libraries, Python and the package, its own
   ``/proc``, a private ``/tmp`` and ``/dev/shm`` gone with it, and nothing else (no teacher's
   file, no bot folder, no copy): the layers of bubblewrap; a worker that cannot make them
   refuses to run its bot.  A bot
   given as a *function* is the caller's own code (a notebook's, a test's): it runs in a worker
   forked from the caller (spawned where there is no fork), which drops every bot file's text
   before the function runs, then takes layers 3 to 6.
2. **bubblewrap** (Linux, where ``bwrap`` is installed and namespaces are allowed): its own
   pid, ipc, network and uts namespaces (it sees, signals and traces no process outside, and
   no forked child outlives it: the namespace dies with it), read-only binds of only the system
   and Python folders (the teacher's files and the bot folder are not there at all), a private
   ``/tmp`` and ``/dev`` (so ``/dev/shm``), ``--die-with-parent`` and ``--new-session``.
3. **A user of its own** when the referee is root: the worker imports what bots may use, then
   becomes a user id no other process has (:data:`UID_BASE` onwards), so it can signal, trace
   or read no other process (other bots included), cannot write the teacher's files, and
   ``RLIMIT_NPROC`` (which root ignores) stops it from forking.  Whatever it left in ``/tmp``
   or ``/dev/shm``, and any process of that user, is removed when the worker ends.
4. **Resource limits** in the worker: address space, no core files, no new processes
   (``RLIMIT_NPROC``), files of at most 1 MB, at most 64 open files; the worker is killed if its
   parent dies and is not dumpable (its peers cannot ptrace it or read its memory).
5. **A restricted namespace for bot files** (:func:`~duel_lessons.play.bot_worker.restricted_code`):
   an allowlist of modules and of names in each (sympy's number theory wrapped to whole numbers,
   numpy's arrays), builtins without ``open``, ``eval`` or ``type``, and attribute names refused
   by rule wherever they come from (private names, frames, formatting by name, ctypes).  Behind
   bubblewrap or a worker's own namespaces a second line; where neither runs, the guarantee
   against what the other layers leave open (the teacher's files, the network).
6. **The referee's clocks**: the CPU time of the worker *and every process under it* (a forked
   child does not escape the limit), read from the operating system, a wall-clock limit per move,
   and a wall-clock **budget** per game and per tournament (:attr:`Sandbox.game_budget`,
   :attr:`Sandbox.total_budget`): a bot that stalls forfeits once its budget is spent.

**Which layer is the guarantee** (the teacher guide says the same, set-up by set-up): with
bubblewrap, bubblewrap (2); without it, the worker's own namespaces and root (1), as root or as a
user where the kernel allows user namespaces, with a user of its own (3) under root; where
neither runs (no bubblewrap and no namespaces, root that may not change user, Windows), nothing
does, and the class tournament refuses other people's bot files
(:func:`~duel_lessons.play.isolation.bots_unisolated`) unless told to run them with
``--run-untrusted-code-without-isolation``: then only the restricted namespace (5) and the limits
(4, 6) stand.  Bots given as functions are the caller's own code (lesson 12's checks) and always run.

The bot gets a plain copy of the game state, rebuilt in the worker from numbers; the worker
turns the answer into an ``int`` itself and sends one line of JSON, read by the referee within
``MAX_MESSAGE`` bytes and never unpickled.  A bot that exits, crashes or kills itself forfeits.
Output is captured and capped at ``output_limit`` characters, control characters escaped.

:func:`run_isolated` runs any Python command (a handed-in notebook, say) with the same layers.

>>> from duel_lessons.engine.game import new_game
>>> with Sandbox(lambda state: state.legal_moves[0], new_game().rules, time_limit=1.0) as bot:
...     bot.ask(new_game("divisor-duel", 12))
2
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import multiprocessing
import os
import pickle
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import Rules
from duel_lessons.play.bot_copies import BOT_FOLDERS as BOT_FOLDERS
from duel_lessons.play.bot_copies import MAX_BOT_FILE as MAX_BOT_FILE
from duel_lessons.play.bot_copies import copies_folder as copies_folder
from duel_lessons.play.bot_copies import folders_to_hide as folders_to_hide
from duel_lessons.play.bot_copies import private_copy as private_copy
from duel_lessons.play.bot_copies import read_bot_source as read_bot_source
from duel_lessons.play.bot_worker import BOT_FUNCTIONS, decode_state, encode_state, warm_up, worker_main
from duel_lessons.play.isolation import (
    CPU_MARGIN,
    CPU_TICK,
    UID_BASE,
    Isolated,
    Worker,
    bots_unisolated,
    bubblewrap,
    bwrap_command,
    can_change_user,
    check_time_limit,
    isolation_notes,
    next_uid,
    own_namespaces_here,
    printable,
    run_isolated,
    sweep_user,
    worker_environment,
)
from duel_lessons.play.referee import LOAD_LIMIT as LOAD_LIMIT
from duel_lessons.play.referee import LOAD_WALL_LIMIT as LOAD_WALL_LIMIT
from duel_lessons.play.referee import MAX_STRIKES as MAX_STRIKES
from duel_lessons.play.referee import MEMORY_LIMIT as MEMORY_LIMIT
from duel_lessons.play.referee import OUTPUT_LIMIT as OUTPUT_LIMIT
from duel_lessons.play.referee import Bot as Bot
from duel_lessons.play.referee import BotFile as BotFile
from duel_lessons.play.referee import Forfeit as Forfeit
from duel_lessons.play.referee import budget_left, budget_spent
from duel_lessons.play.referee import default_game_budget as default_game_budget
from duel_lessons.play.referee import default_wall_limit as default_wall_limit

__all__ = [
    "BOT_FUNCTIONS",
    "CPU_MARGIN",
    "UID_BASE",
    "Bot",
    "BotFile",
    "Forfeit",
    "Isolated",
    "Sandbox",
    "bots_unisolated",
    "bubblewrap",
    "check_time_limit",
    "decode_state",
    "encode_state",
    "isolation_notes",
    "printable",
    "run_isolated",
    "sweep_user",
]

#: The most bytes the referee reads for one answer (the output is capped well below this).
MAX_MESSAGE = 256_000
#: How many stale or invented messages the referee skips between two looks at the clocks (a bot that
#: floods its socket is stopped by its CPU time, not after one psutil call per line).
STALE_PER_PASS = 10_000


def start_method() -> str:
    """How a worker for a function that cannot be pickled starts: ``fork`` on Linux, else ``spawn``."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


# -- the referee's side ----------------------------------------------------------------------


class Sandbox:
    """One bot in one worker process, restarted after a crash or a time-out.

    After ``max_strikes`` stops in a row the bot is disqualified: every later ``ask`` forfeits
    at once (a good answer in between starts the count again).  ``ask(state)`` returns the bot's
    move as an ``int`` (not yet checked against the rules) or raises :class:`Forfeit`.  Use it as a
    context manager, or call :meth:`close`.

    Time: ``time_limit`` CPU seconds per move, ``wall_limit`` seconds on the clock per move,
    ``game_budget`` seconds on the clock per game (:meth:`new_game` starts a game) and
    ``total_budget`` for the sandbox's whole life (None: no such budget).  The budgets count
    every second the referee waits for the bot's answers, and the total budget also the restarts
    after a stop; a first start (or one after :meth:`close`) takes at most :data:`LOAD_WALL_LIMIT`.
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
        game_budget: float | None = None,
        total_budget: float | None = None,
        restricted: bool = True,
    ) -> None:
        self.bot = bot
        self.max_strikes = max_strikes
        self.rules = rules
        self.time_limit = check_time_limit(time_limit)
        wall = wall_limit if wall_limit is not None else default_wall_limit(self.time_limit)
        self.wall_limit = check_time_limit(wall)
        self.game_budget = check_time_limit(game_budget) if game_budget is not None else None
        self.total_budget = check_time_limit(total_budget) if total_budget is not None else None
        self.memory_limit = memory_limit
        self.output_limit = output_limit
        self.restricted = restricted
        self.output = ""
        self.starts = 0
        #: Seconds on the clock spent waiting for this bot: in the current game, and in all.
        self.spent_game = 0.0
        self.spent_total = 0.0
        #: Whether the last worker left root (None: not known yet, or the referee is not root).
        self.not_root: bool | None = None
        #: Whether the last worker made namespaces and a root of its own (None: not asked, as in bubblewrap).
        self.hidden: bool | None = None
        self.forked = False
        self._copy: Path | None = None
        self._hide: list[str] = []
        self._worker: Worker | None = None
        self._sock: socket.socket | None = None
        self._buffer = b""
        self._seq = 0
        self._cpu = 0.0
        self._broken: Forfeit | None = None
        self._strikes = 0
        self._restart_charged = False  # whether the next start follows a stop (then the bot's budget pays for it)

    @property
    def _process(self) -> Any:
        """The worker's process (an object with ``pid``), or None when no worker runs."""
        return self._worker

    # -- life cycle --

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Kill the worker and everything under it (and its user's processes and files)."""
        worker, self._worker = self._worker, None
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if worker is not None:
            worker.kill()
        copy, self._copy = self._copy, None
        if copy is not None:
            shutil.rmtree(copy, ignore_errors=True)

    def new_game(self) -> None:
        """A new game starts: the game budget is full again, and any process the bot left is killed."""
        self.spent_game = 0.0
        if self._worker is not None:
            self._worker.strays()

    def _spec(self) -> tuple[dict[str, Any], list[str]] | None:
        """What a fresh worker gets (the bot, the rules, the limits) and extra folders, or None: fork a worker."""
        if isinstance(self.bot, BotFile):
            try:
                if self.bot.problem is not None:
                    raise DuelError(self.bot.problem)
                source = self.bot.source if self.bot.source is not None else read_bot_source(self.bot.path)
            except (OSError, UnicodeDecodeError, DuelError) as error:
                self._broken = Forfeit(printable(f"could not be loaded: {self.bot.path.name}: {error}"))
                raise self._broken from None
            bot: Any = (str(self.bot.path), source)  # read here, run there
            extra: list[str] = []
        else:
            return None  # a function: the caller's own code, run in a worker forked from the caller
        spec = {"bot": bot, "rules": self.rules, "memory": self.memory_limit, "output_limit": self.output_limit}
        return spec, extra

    def _start(self, wall: float) -> None:
        began = time.monotonic()
        spec = self._spec()
        uid = next_uid() if can_change_user() else None
        ours, theirs = socket.socketpair()
        try:
            if spec is not None and hasattr(os, "fork"):
                worker = self._exec(spec[0], spec[1], uid, theirs, ours)
            else:
                worker = self._fork(uid, theirs, spec[0]["bot"] if spec is not None else self.bot)
        finally:
            theirs.close()
        ours.settimeout(self.wall_limit)  # sendall gives up after this; reads wait in select first
        self._worker, self._sock, self._buffer, self._seq = worker, ours, b"", 0
        self.starts += 1
        self._cpu = 0.0
        cpu_limit = max(LOAD_LIMIT, self.time_limit)
        try:
            reply = self._receive(0, cpu_limit, max(0.0, min(LOAD_WALL_LIMIT, wall) - (time.monotonic() - began)))
        except Forfeit as failure:
            self._broken = Forfeit(f"could not be loaded: {failure.reason}")
            self.close()
            raise self._broken from None
        if "failed" in reply:
            self._broken = Forfeit(printable(str(reply["failed"])[:500]), _text(reply.get("traceback")))
            self.close()
            raise self._broken
        self.not_root = bool(reply.get("not_root"))
        worker.nested = bool(reply.get("nested"))  # forked into a pid namespace of its own (no bubblewrap)
        self.hidden = reply.get("hidden") if self._copy is not None else None
        self._cpu = worker.cpu() or 0.0

    def _exec(
        self, spec: dict[str, Any], extra: list[str], uid: int | None, theirs: socket.socket, ours: socket.socket
    ) -> Worker:
        """A fresh interpreter (in bubblewrap where it runs), told over the socket where its private copy is."""
        user_namespace, _ = bubblewrap()
        path, source = spec["bot"]
        try:
            copy = private_copy(Path(path).name, source, uid)
        except OSError as error:
            ours.close()
            raise DuelError(f"Cannot make a private copy of the bot file {Path(path).name}: {error}.") from None
        self._copy = copy.parent
        namespaces = user_namespace is None and own_namespaces_here()
        self._hide = folders_to_hide() if namespaces else []
        spec = {**spec, "bot": (str(copy), None), "hide": self._hide, "uid": uid, "restricted": self.restricted}
        spec["namespaces"] = namespaces
        command = [sys.executable, "-s", "-m", "duel_lessons.play.bot_worker", str(theirs.fileno())]
        if user_namespace is not None:
            command = bwrap_command([*extra, str(copy.parent)], user_namespace) + command
        try:
            popen = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                env=worker_environment(extra),
                cwd="/",
                start_new_session=True,
            )
        except OSError as error:
            ours.close()
            raise DuelError(f"Cannot start a process for the bot: {error}.") from None
        worker = Worker(popen.pid, uid, popen)
        try:
            message = {"spec": base64.b64encode(pickle.dumps(spec)).decode("ascii")}
            ours.settimeout(LOAD_WALL_LIMIT)
            ours.sendall(json.dumps(message).encode("ascii") + b"\n")
        except OSError:
            pass  # the worker ended: the reply says so
        return worker

    def _fork(self, uid: int | None, theirs: socket.socket, bot: Any) -> Worker:
        """A worker started by multiprocessing, for a function that cannot be pickled (fork on Linux)."""
        warm_up(self.rules)  # here too: a forked worker inherits the warm caches
        self.forked = True
        context = multiprocessing.get_context(start_method())
        try:
            process = context.Process(  # type: ignore[attr-defined]
                target=worker_main,
                args=(bot, self.rules, theirs, self.memory_limit, self.output_limit, uid, self.restricted),
                name="duel-bot",
                daemon=True,
            )
            process.start()
        except Exception as error:  # e.g. spawn cannot pickle a function defined in a notebook
            raise DuelError(f"Cannot start a process for the bot: {error}. Define the bot in a .py file.") from None
        with contextlib.suppress(OSError, AttributeError):
            os.setpgid(process.pid, process.pid)  # also done by the worker; whichever runs first
        return Worker(process.pid, uid, None, process)

    def _cpu_time(self) -> float:
        if self._worker is None:
            return self._cpu
        cpu = self._worker.cpu()
        return self._cpu if cpu is None else cpu

    # -- one move --

    def _remaining(self) -> float:
        return budget_left(self.game_budget, self.spent_game, self.total_budget, self.spent_total)

    def ask(self, state: GameState) -> int:
        """The bot's answer from ``state`` as a whole number, or :class:`Forfeit`."""
        if self._broken is not None:
            raise Forfeit(self._broken.reason, self._broken.trace)
        out_of_time = budget_spent(self.game_budget, self.spent_game, self.total_budget, self.spent_total)
        if out_of_time is not None:
            reason, for_good = out_of_time
            if for_good:
                self._broken = Forfeit(reason)
                self.close()
            raise Forfeit(reason)
        began = time.monotonic()
        starting = 0.0  # a start is not the game's time; a restart after a stop is the bot's own (its budget)
        try:
            if self._worker is None:
                total_left = math.inf if self.total_budget is None else self.total_budget - self.spent_total
                self._start(total_left if self._restart_charged else LOAD_WALL_LIMIT)
                starting = time.monotonic() - began
                if not self._restart_charged:
                    began += starting  # a start the schedule asked for: bounded by LOAD_WALL_LIMIT, not charged
                    starting = 0.0
            self._seq += 1
            request = json.dumps({"seq": self._seq, "state": encode_state(state)}).encode("ascii") + b"\n"
            assert self._sock is not None
            try:
                self._sock.sendall(request)
            except OSError:  # including the time-out: the worker does not read
                raise Forfeit("its process stopped reading the referee's requests") from None
            wall = min(self.wall_limit, self._remaining() - (time.monotonic() - began - starting))
            reply = self._receive(self._seq, self.time_limit, wall)
        except Forfeit as failure:
            if self._broken is None:
                self.close()  # stopped: a fresh worker for the next move
                self._restart_charged = True
                if "budget" not in failure.reason:
                    self._strikes += 1
                if self._strikes >= self.max_strikes:
                    self._broken = Forfeit(
                        f"disqualified after being stopped {self._strikes} times in a row (last: {failure.reason})"
                    )
            raise
        finally:
            spent = time.monotonic() - began
            self.spent_game += spent - starting
            self.spent_total += spent
        self._strikes = 0
        self._restart_charged = False
        if "move" in reply:
            move = reply["move"]
            if type(move) is not int:
                self.close()
                raise Forfeit("sent a malformed answer")
            return move
        if "raised" in reply:
            raise Forfeit(printable(str(reply["raised"])[:500]), _text(reply.get("traceback")))
        raise Forfeit(printable(str(reply.get("refused", "sent a malformed answer"))[:500]))

    def _budget_reason(self) -> str:
        if self.total_budget is not None and self.spent_total + 1e-9 >= self.total_budget - self.wall_limit:
            return f"the tournament time budget of {self.total_budget:g} s"
        return f"the game time budget of {self.game_budget:g} s"

    def _receive(self, seq: int, cpu_limit: float, wall_limit: float) -> dict[str, Any]:
        """The worker's reply to request ``seq``, read within the limits (Forfeit otherwise)."""
        assert self._sock is not None
        began = time.monotonic()
        start_cpu = self._cpu
        tick = min(CPU_TICK, max(0.005, cpu_limit / 4))
        by_budget = wall_limit < self.wall_limit and self._remaining() < math.inf
        while True:  # every pass checks both limits, whatever the worker sends
            line = self._read_line(tick)
            for _ in range(STALE_PER_PASS):  # stale or invented messages are skipped in bulk, not one a pass
                if line is None:
                    break
                reply = self._parse(line)
                if reply.get("seq") == seq:
                    cpu = self._cpu_time()
                    used = cpu - start_cpu
                    self._cpu = cpu
                    if used > cpu_limit:
                        raise Forfeit(f"used {used:.2f} s of CPU time, over the time limit of {cpu_limit:g} s")
                    return reply
                line = self._read_line(0.0)
            cpu = self._cpu_time()
            used = cpu - start_cpu
            if used > cpu_limit:
                raise Forfeit(f"took longer than the time limit of {cpu_limit:g} s of CPU time (stopped)")
            if time.monotonic() - began > wall_limit:
                if by_budget:
                    raise Forfeit(f"gave no answer before it spent {self._budget_reason()} (stopped)")
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
        worker = self._worker
        if worker is None:
            return "it was stopped"
        code = worker.exit_code()
        if code is None:
            return "it closed its connection"
        if worker.popen is not None and isinstance(worker.popen.args, list) and "bwrap" in worker.popen.args[:1]:
            code = code if code <= 128 else 128 - code  # bubblewrap reports a signal as 128 + its number
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by signal {signal.Signals(-code).name}"
            return f"killed by signal {-code}"
        return f"exit code {code}"


def _text(value: object) -> str | None:
    return printable(value[:4000]) if isinstance(value, str) and value else None
