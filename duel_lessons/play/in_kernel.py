"""Bots in the kernel itself, under a time limit, where no process can be started (Pyodide, in JupyterLite).

:func:`open_sandbox` is how the tournament and the lessons' checks get a bot's referee: a
:class:`~duel_lessons.play.sandbox.Sandbox` (a process of its own, with every layer of isolation)
wherever processes exist, and a :class:`KernelSandbox` only where they do not (``sys.platform`` is
``"emscripten"``).  The kernel sandbox has the same interface and the same verdicts (a forfeit for an
exception, an answer that is not a whole number, a move over its time limit, a spent budget; three
stops in a row disqualify), but **no isolation**: the bot runs in the student's own kernel, with the
lesson's variables in reach.  That is fair in JupyterLite, where the kernel runs in the student's own
browser tab and the bots are the student's own functions, and :data:`NO_ISOLATION` says so on every
tournament's page.

**The time limit.**  Pyodide has no threads and no signals, so nothing can interrupt the bot from
outside.  The bot runs under a trace function (``sys.settrace``) that looks at the clock every
:data:`CHECK_EVERY` events (lines, calls, returns) and, once the move's time is spent, raises
:class:`TimeUp` in the bot's own code, at a line (never at a call or where an exception is being raised, where
the bot's own ``try`` would catch it at once), and again at every later line.  Python removes a trace function
that raised; a profile hook puts it back as soon as a frame of the bot returns or calls, so a bot that catches the
stop (``except BaseException:``, a bare ``except:``) meets it again in its handler and is stopped.  What it
cannot stop: a loop that catches the stop *in the same function* and calls nothing (``while True: try: while
True: pass`` with a bare ``except``) runs on until the kernel is interrupted or restarted; a single long call into
compiled code (``sum(range(10**12))``, sympy's factors of a huge number) is stopped only when it returns; and a
bot that means harm can switch the hooks off (there is no isolation).  The clock is the process's CPU time where
it is one, and the plain clock in Pyodide (the kernel has its browser worker to itself).

>>> from duel_lessons.engine.game import new_game
>>> with KernelSandbox(lambda state: state.legal_moves[0], new_game().rules, time_limit=1.0) as bot:
...     bot.ask(new_game("divisor-duel", 12))
2
>>> def loops(state):
...     while True:
...         pass
>>> with KernelSandbox(loops, new_game().rules, time_limit=0.05) as bot:
...     bot.ask(new_game("divisor-duel", 12))
Traceback (most recent call last):
...
duel_lessons.play.referee.Forfeit: took longer than the time limit of 0.05 s (stopped in the kernel)
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import Rules
from duel_lessons.play.referee import (
    LOAD_LIMIT,
    MAX_STRIKES,
    OUTPUT_LIMIT,
    Bot,
    BotFile,
    Forfeit,
    budget_left,
    budget_spent,
    check_time_limit,
    printable,
    read_bot_source,
)
from duel_lessons.play.unisolated import UNISOLATED_FLAG

#: What every tournament's page says where bots run in the kernel.
NO_ISOLATION = (
    "Sandbox: this kernel cannot start processes (JupyterLite runs Python inside your browser), so every bot "
    "runs in the kernel itself, without the tournament's isolation: a time limit stops a bot that loops, but a "
    "bot can read and change the notebook's variables, and a long call into compiled code is stopped only when "
    "it returns. In JupyterLab each bot runs in a sandboxed process of its own."
)
#: How many trace events pass between two looks at the clock (a look costs about as much as a few events).
CHECK_EVERY = 64


def processes_available() -> bool:
    """Whether bots can run in processes of their own: everywhere but Pyodide (JupyterLite)."""
    return sys.platform != "emscripten"


def clock() -> float:
    """Seconds for the time limit: CPU time of this process, but the plain clock in Pyodide (where the two agree)."""
    return time.perf_counter() if sys.platform == "emscripten" else time.process_time()


class TimeUp(BaseException):
    """Raised inside a bot whose time is spent (a BaseException: ``except Exception`` in the bot lets it by)."""


class _Deadline:
    """The trace and profile hooks that stop the bot's code once ``limit`` seconds have passed.

    Only frames below ``top`` (the frame that called the bot) are ever stopped: the referee's own code runs on.
    """

    def __init__(self, limit: float, top: FrameType | None) -> None:
        self.deadline = clock() + limit
        self.top = top
        self.events = 0
        self.active = True
        self.expired = False

    def trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        if not self.active:
            return None
        self.events += 1
        if event == "line" and (self.expired or (self.events % CHECK_EVERY == 0 and clock() > self.deadline)):
            self.expired = True  # raised at a line of the bot's code: never at a call or an exception event, where
            raise TimeUp  # a try around it would catch it. Python then removes this hook: profile() puts it back
        return self.trace

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.active and self.expired and sys.gettrace() is None:
            sys.settrace(self.trace)
            caller: FrameType | None = frame
            while caller is not None and caller is not self.top:  # the bot's running frames: a loop that caught
                caller.f_trace = self.trace  # TimeUp meets it again at its next line
                caller = caller.f_back


def run_with_time_limit(function: Callable[[], object], limit: float) -> object:
    """``function()``, stopped with :class:`TimeUp` once ``limit`` seconds of its (CPU) time have passed.

    >>> run_with_time_limit(lambda: 6 * 7, 1.0)
    42
    """
    deadline = _Deadline(limit, sys._getframe())
    old_trace, old_profile = sys.gettrace(), sys.getprofile()
    sys.setprofile(deadline.profile)
    sys.settrace(deadline.trace)
    try:
        return function()
    except BaseException:
        if deadline.expired:
            raise TimeUp from None
        raise
    finally:
        deadline.active = False
        sys.settrace(old_trace)
        sys.setprofile(old_profile)


class _Output:
    """Text written while a bot runs: kept up to ``cap`` characters in all, control characters escaped."""

    def __init__(self, owner: KernelSandbox) -> None:
        self.owner = owner

    def write(self, text: object) -> int:
        owner, text = self.owner, str(text)
        room = owner.output_limit - len(owner.output)
        if room > 0:
            owner.output += printable(text[:room])
            if len(text) > room:
                owner.output += "\n[output cut]\n"
        return len(text)

    def flush(self) -> None:
        pass


class KernelSandbox:
    """A bot run in this process under a time limit: the interface of :class:`~duel_lessons.play.sandbox.Sandbox`.

    ``ask(state)`` returns the bot's move as an ``int`` (not yet checked against the rules) or raises
    :class:`~duel_lessons.play.referee.Forfeit`.  The memory limit and the layers of isolation do not exist
    here (see the module's docstring); the time limit, the budgets, the strikes and the capped output do.
    """

    def __init__(
        self,
        bot: Bot,
        rules: Rules,
        time_limit: float = 1.0,
        *,
        output_limit: int = OUTPUT_LIMIT,
        max_strikes: int = MAX_STRIKES,
        game_budget: float | None = None,
        total_budget: float | None = None,
        restricted: bool = True,
        **ignored: object,  # memory_limit, wall_limit: a process's limits, with no process here
    ) -> None:
        self.bot = bot
        self.rules = rules
        self.time_limit = check_time_limit(time_limit)
        self.output_limit = output_limit
        self.max_strikes = max_strikes
        self.game_budget = check_time_limit(game_budget) if game_budget is not None else None
        self.total_budget = check_time_limit(total_budget) if total_budget is not None else None
        self.restricted = restricted
        self.output = ""
        self.spent_game = 0.0
        self.spent_total = 0.0
        self._function: Callable[[GameState], object] | None = None
        self._broken: Forfeit | None = None
        self._strikes = 0

    @property
    def _worker(self) -> object:
        """Never a worker: there is no process to close (the tournament asks before it closes one)."""
        return None

    def __enter__(self) -> KernelSandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Forget the bot's loaded function (a bot file is loaded again when next asked)."""
        if isinstance(self.bot, BotFile):
            self._function = None

    def new_game(self) -> None:
        """A new game starts: the game budget is full again."""
        self.spent_game = 0.0

    def _run(self, call: Callable[[], object], limit: float) -> object:
        out = _Output(self)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            return run_with_time_limit(call, limit)

    def _load(self) -> Callable[[GameState], object]:
        from duel_lessons.play.bot_worker import load_bot

        if not isinstance(self.bot, BotFile):
            return self.bot
        try:
            if self.bot.problem is not None:
                raise DuelError(self.bot.problem)
            source = self.bot.source if self.bot.source is not None else read_bot_source(self.bot.path)
        except (OSError, UnicodeDecodeError, DuelError) as error:
            raise Forfeit(printable(f"could not be loaded: {self.bot.path.name}: {error}")) from None
        try:
            loaded = self._run(lambda: load_bot((str(self.bot.path), source), self.restricted), LOAD_LIMIT)  # type: ignore[union-attr]
        except TimeUp:
            raise Forfeit(f"could not be loaded: took longer than {LOAD_LIMIT:g} s") from None
        except BaseException as error:
            raise Forfeit(printable(f"could not be loaded: {type(error).__name__}: {error}"[:500])) from None
        return loaded  # type: ignore[return-value]

    def _remaining(self) -> float:
        return budget_left(self.game_budget, self.spent_game, self.total_budget, self.spent_total)

    def ask(self, state: GameState) -> int:
        """The bot's answer from ``state`` as a whole number, or :class:`~duel_lessons.play.referee.Forfeit`."""
        from duel_lessons.play.bot_worker import _answer, decode_state, encode_state

        if self._broken is not None:
            raise Forfeit(self._broken.reason, self._broken.trace)
        out_of_time = budget_spent(self.game_budget, self.spent_game, self.total_budget, self.spent_total)
        if out_of_time is not None:
            reason, for_good = out_of_time
            if for_good:
                self._broken = Forfeit(reason)
            raise Forfeit(reason)
        began = clock()
        try:
            if self._function is None:
                try:
                    self._function = self._load()
                except Forfeit as failure:
                    self._broken = failure
                    raise
            function = self._function
            copy = decode_state(self.rules, encode_state(state))  # the bot gets a copy, as in a worker
            limit = min(self.time_limit, max(self._remaining(), 1e-3))
            try:
                reply: Any = self._run(lambda: _answer(function, copy), limit)
            except TimeUp:
                raise Forfeit(f"took longer than the time limit of {limit:g} s (stopped in the kernel)") from None
            if "raised" in reply and "TimeUp" in str(reply["raised"]):  # stopped while _answer was catching
                raise Forfeit(f"took longer than the time limit of {limit:g} s (stopped in the kernel)")
        except Forfeit as failure:  # a stop (the time limit): a bot that raised forfeits below, with no strike
            if self._broken is None:
                self._strikes += 1
                if self._strikes >= self.max_strikes:
                    self._broken = Forfeit(
                        f"disqualified after being stopped {self._strikes} times in a row (last: {failure.reason})"
                    )
            raise
        finally:
            spent = clock() - began
            self.spent_game += spent
            self.spent_total += spent
        if "move" in reply:
            self._strikes = 0
            return int(reply["move"])
        if "raised" in reply:
            raise Forfeit(printable(str(reply["raised"])[:500]), reply.get("traceback"))
        raise Forfeit(printable(str(reply.get("refused", "sent a malformed answer"))[:500]))


def open_sandbox(bot: Bot, rules: Rules, time_limit: float = 1.0, **limits: Any) -> Any:
    """The bot's referee: a :class:`~duel_lessons.play.sandbox.Sandbox` (a process) where processes exist, else a
    :class:`KernelSandbox` (see :func:`processes_available`).  Use it as a context manager."""
    if not processes_available():
        return KernelSandbox(bot, rules, time_limit, **limits)
    from duel_lessons.play.sandbox import Sandbox

    return Sandbox(bot, rules, time_limit, **limits)


def bots_unisolated() -> str | None:
    """Why other people's bot files cannot be isolated here (None when they can): always where bots run in the
    kernel; elsewhere :func:`duel_lessons.play.isolation.bots_unisolated` says."""
    if not processes_available():
        return (
            f"The bot files cannot be isolated here. {NO_ISOLATION} Take that risk only for bot files you trust, "
            f"with {UNISOLATED_FLAG} (run_untrusted_code_without_isolation=True in Python)."
        )
    from duel_lessons.play.isolation import bots_unisolated as process_refusal

    return process_refusal()


def isolation_notes(functions: bool = False) -> list[str]:
    """The sandbox's layers missing here, one sentence each: all of them where bots run in the kernel."""
    if not processes_available():
        return [NO_ISOLATION]
    from duel_lessons.play.isolation import isolation_notes as process_notes

    return process_notes(functions)
