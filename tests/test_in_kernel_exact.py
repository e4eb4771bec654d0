"""The in-kernel referee (Pyodide, JupyterLite) on a clock the test moves by hand: every rule, exactly.

tests/test_in_kernel.py plays real bots on the real clock; here :func:`duel_lessons.play.in_kernel.clock`
is replaced by a counter the bot (or the test) advances, so a time limit, a budget and the time spent
come out as exact numbers, with no timing at all.  Where the hooks themselves are judged, ``sys`` is
replaced in the module by a recorder, so that nothing is really installed.  Expected values are
worked out by hand.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import duel_lessons.play.bot_worker as bot_worker
import duel_lessons.play.in_kernel as in_kernel
from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState, new_game
from duel_lessons.play.in_kernel import CHECK_EVERY, KernelSandbox, TimeUp, run_with_time_limit
from duel_lessons.play.referee import LOAD_LIMIT, MAX_STRIKES, OUTPUT_LIMIT, BotFile, Forfeit
from duel_lessons.play.unisolated import UNISOLATED_FLAG

RULES = new_game().rules
TWELVE = new_game("divisor-duel", 12)  # 12's legal moves: 2, 3, 4, 6


class Clock:
    """A clock that moves only when told: ``now`` seconds."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(in_kernel, "clock", fake)
    return fake


@pytest.fixture()
def no_processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(sys, "platform", "emscripten")
    yield


class FakeSys:
    """What in_kernel asks of ``sys``, recorded instead of installed."""

    def __init__(self) -> None:
        self.trace: object = "old trace"
        self.profile: object = "old profile"
        self.calls: list[tuple[str, object]] = []
        self.frame = types.SimpleNamespace(name="the caller")
        self.platform = "linux"

    def gettrace(self) -> object:
        return self.trace

    def getprofile(self) -> object:
        return self.profile

    def settrace(self, function: object) -> None:
        self.calls.append(("settrace", function))
        self.trace = function

    def setprofile(self, function: object) -> None:
        self.calls.append(("setprofile", function))
        self.profile = function

    def _getframe(self) -> object:
        return self.frame


# -- where bots run, and the clock --------------------------------------------------------------


def test_processes_exist_everywhere_but_pyodide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    assert in_kernel.processes_available() is True
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert in_kernel.processes_available() is False


def test_the_clock_is_cpu_time_but_the_plain_clock_in_pyodide(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_time = types.SimpleNamespace(perf_counter=lambda: 1.5, process_time=lambda: 2.5)
    monkeypatch.setattr(in_kernel, "time", fake_time)
    monkeypatch.setattr(sys, "platform", "linux")
    assert in_kernel.clock() == 2.5
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert in_kernel.clock() == 1.5


# -- the trace hook ------------------------------------------------------------------------------


def test_a_deadline_starts_at_the_clock_plus_the_limit(clock: Clock) -> None:
    top = types.SimpleNamespace()
    deadline = in_kernel._Deadline(1.5, top)  # type: ignore[arg-type]
    assert deadline.deadline == 101.5 and deadline.top is top
    assert (deadline.events, deadline.active, deadline.expired) == (0, True, False)


def test_the_clock_is_read_every_check_every_events_and_stops_only_at_a_line(clock: Clock) -> None:
    assert CHECK_EVERY == 64
    deadline = in_kernel._Deadline(1.0, None)
    clock.now = 200.0  # long past the deadline of 101
    for _ in range(CHECK_EVERY - 1):  # events 1..63: the clock is not read
        assert deadline.trace(None, "line", None) == deadline.trace  # type: ignore[arg-type]
    assert deadline.events == 63 and not deadline.expired
    with pytest.raises(TimeUp):
        deadline.trace(None, "line", None)  # type: ignore[arg-type]  # event 64: read, and past
    assert deadline.expired and deadline.events == 64
    assert deadline.trace(None, "call", None) == deadline.trace  # type: ignore[arg-type]  # never at a call
    assert deadline.trace(None, "exception", None) == deadline.trace  # type: ignore[arg-type]
    with pytest.raises(TimeUp):  # and at every later line, without reading the clock
        deadline.trace(None, "line", None)  # type: ignore[arg-type]
    assert deadline.events == 67


def test_a_call_at_the_checked_event_stops_nothing(clock: Clock) -> None:
    deadline = in_kernel._Deadline(1.0, None)
    clock.now = 200.0
    for _ in range(CHECK_EVERY - 1):
        deadline.trace(None, "line", None)  # type: ignore[arg-type]
    assert deadline.trace(None, "call", None) == deadline.trace  # type: ignore[arg-type]  # event 64, a call
    assert not deadline.expired
    for _ in range(CHECK_EVERY - 1):  # events 65..127
        deadline.trace(None, "line", None)  # type: ignore[arg-type]
    with pytest.raises(TimeUp):
        deadline.trace(None, "line", None)  # type: ignore[arg-type]  # event 128


def test_the_deadline_itself_is_still_in_time(clock: Clock) -> None:
    deadline = in_kernel._Deadline(1.0, None)
    clock.now = 101.0  # exactly the deadline
    for _ in range(2 * CHECK_EVERY):
        assert deadline.trace(None, "line", None) == deadline.trace  # type: ignore[arg-type]
    clock.now = 101.5
    for _ in range(CHECK_EVERY - 1):
        deadline.trace(None, "line", None)  # type: ignore[arg-type]
    with pytest.raises(TimeUp):
        deadline.trace(None, "line", None)  # type: ignore[arg-type]


def test_an_inactive_deadline_stops_nothing_and_counts_nothing(clock: Clock) -> None:
    deadline = in_kernel._Deadline(1.0, None)
    deadline.expired = True
    deadline.active = False
    assert deadline.trace(None, "line", None) is None  # type: ignore[arg-type]
    assert deadline.events == 0


# -- the profile hook: it puts the trace back on the bot's running frames ------------------------------


def test_the_profile_hook_puts_the_trace_back_on_the_bots_frames_only(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    fake = FakeSys()
    monkeypatch.setattr(in_kernel, "sys", fake)
    referee = types.SimpleNamespace(f_back=None, f_trace="the referee's own")
    top = types.SimpleNamespace(f_back=referee, f_trace="untouched")
    outer = types.SimpleNamespace(f_back=top, f_trace=None)
    inner = types.SimpleNamespace(f_back=outer, f_trace=None)
    deadline = in_kernel._Deadline(1.0, top)  # type: ignore[arg-type]
    fake.trace = None  # Python removed the trace that raised

    deadline.profile(inner, "return", None)  # type: ignore[arg-type]  # not expired yet: nothing
    assert fake.calls == [] and inner.f_trace is None

    deadline.expired = True
    deadline.profile(inner, "return", None)  # type: ignore[arg-type]
    assert fake.calls == [("settrace", deadline.trace)]
    assert inner.f_trace == deadline.trace and outer.f_trace == deadline.trace
    assert top.f_trace == "untouched" and referee.f_trace == "the referee's own"

    deadline.profile(inner, "call", None)  # type: ignore[arg-type]  # the trace is back: nothing more to do
    assert fake.calls == [("settrace", deadline.trace)]

    fake.trace = None
    deadline.active = False  # the bot has finished
    deadline.profile(inner, "call", None)  # type: ignore[arg-type]
    assert fake.calls == [("settrace", deadline.trace)]


def test_the_profile_hook_walks_to_the_outermost_frame_when_the_top_is_not_among_them(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    fake = FakeSys()
    fake.trace = None
    monkeypatch.setattr(in_kernel, "sys", fake)
    outermost = types.SimpleNamespace(f_back=None, f_trace=None)
    inner = types.SimpleNamespace(f_back=outermost, f_trace=None)
    deadline = in_kernel._Deadline(1.0, None)
    deadline.expired = True
    deadline.profile(inner, "return", None)  # type: ignore[arg-type]
    assert inner.f_trace == deadline.trace and outermost.f_trace == deadline.trace


# -- run_with_time_limit, its hooks recorded -----------------------------------------------------


def test_the_hooks_are_installed_around_the_function_and_the_old_ones_put_back(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    fake = FakeSys()
    monkeypatch.setattr(in_kernel, "sys", fake)
    seen: list[object] = []

    def bot() -> int:
        seen.extend(fake.calls)
        return 42

    assert run_with_time_limit(bot, 2.5) == 42
    profile, trace = seen[0][1], seen[1][1]  # type: ignore[index]
    assert [name for name, _ in seen] == ["setprofile", "settrace"]  # type: ignore[misc]
    deadline = trace.__self__  # type: ignore[attr-defined]
    assert profile == deadline.profile and trace == deadline.trace
    assert deadline.top is fake.frame and deadline.deadline == 102.5
    assert not deadline.active  # switched off once the function returned
    assert fake.calls[2:] == [("settrace", "old trace"), ("setprofile", "old profile")]


def test_an_exception_after_the_deadline_becomes_timeup_and_any_other_passes_through(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    fake = FakeSys()
    monkeypatch.setattr(in_kernel, "sys", fake)

    def caught_and_replaced() -> None:  # the bot caught TimeUp and raised something else
        fake.calls[-1][1].__self__.expired = True  # type: ignore[attr-defined,union-attr]
        raise ValueError("mine")

    with pytest.raises(TimeUp) as stopped:
        run_with_time_limit(caught_and_replaced, 1.0)
    assert stopped.value.__suppress_context__ and stopped.value.__cause__ is None
    assert fake.calls[-2:] == [("settrace", "old trace"), ("setprofile", "old profile")]

    def fails() -> None:
        raise ValueError("mine")

    with pytest.raises(ValueError, match=r"^mine$"):
        run_with_time_limit(fails, 1.0)
    assert fake.calls[-2:] == [("settrace", "old trace"), ("setprofile", "old profile")]


def test_a_real_loop_is_stopped_on_a_clock_that_moves_with_it(clock: Clock) -> None:
    def loops() -> None:
        while True:
            clock.now += 1.0

    before = sys.gettrace(), sys.getprofile()
    with pytest.raises(TimeUp):
        run_with_time_limit(loops, 10.0)
    assert (sys.gettrace(), sys.getprofile()) == before


# -- the captured output -------------------------------------------------------------------------


def test_output_is_kept_up_to_its_cap_then_cut_once() -> None:
    box = KernelSandbox(lambda state: 2, RULES, output_limit=5)
    out = in_kernel._Output(box)
    assert out.write("abc") == 3 and box.output == "abc"
    assert out.write("d") == 1 and box.output == "abcd"  # room for exactly one
    assert out.write("e") == 1 and box.output == "abcde"  # fills it, nothing cut
    assert out.write("fg") == 2 and box.output == "abcde"  # no room: dropped, and said once only
    assert out.flush() is None
    other = KernelSandbox(lambda state: 2, RULES, output_limit=5)
    assert in_kernel._Output(other).write("abcdef") == 6
    assert other.output == "abcde\n[output cut]\n"
    in_kernel._Output(other).write("more")
    assert other.output == "abcde\n[output cut]\n"
    third = KernelSandbox(lambda state: 2, RULES, output_limit=20)
    assert in_kernel._Output(third).write(12) == 2 and third.output == "12"  # print writes str, a file may not
    in_kernel._Output(third).write("\x07!")
    assert third.output == "12\\x07!"


# -- the sandbox's settings ----------------------------------------------------------------------


def test_the_settings_and_their_defaults() -> None:
    box = KernelSandbox(lambda state: 2, RULES)
    assert (box.time_limit, box.output_limit, box.max_strikes, box.restricted) == (1.0, OUTPUT_LIMIT, MAX_STRIKES, True)
    assert (box.game_budget, box.total_budget, box.output, box.spent_game, box.spent_total) == (None, None, "", 0, 0)
    assert box.rules is RULES and box._worker is None
    box = KernelSandbox(
        lambda state: 2, RULES, 3, output_limit=7, max_strikes=4, game_budget=5, total_budget=6,
        restricted=False, memory_limit=10**9, wall_limit=9.0,
    )  # fmt: skip
    assert (box.time_limit, box.output_limit, box.max_strikes, box.restricted) == (3.0, 7, 4, False)
    assert (box.game_budget, box.total_budget) == (5.0, 6.0)
    assert type(box.time_limit) is float and type(box.game_budget) is float and type(box.total_budget) is float
    for bad in ({"time_limit": 0}, {"game_budget": -1}, {"total_budget": float("nan")}):
        with pytest.raises(DuelError, match="must be a finite number of seconds above 0"):
            KernelSandbox(lambda state: 2, RULES, **bad)  # type: ignore[arg-type]


def test_a_kernel_sandbox_is_its_own_context_and_close_forgets_a_loaded_file(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "changing.py"
    path.write_text("def move(state):\n    return 2\n")
    box = KernelSandbox(BotFile(path), RULES)
    with box as entered:
        assert entered is box
        assert box.ask(TWELVE) == 2
        path.write_text("def move(state):\n    return 3\n")
        assert box.ask(TWELVE) == 2  # loaded once
    assert box._function is None
    assert box.ask(TWELVE) == 3  # loaded again after close
    function = lambda state: 4  # noqa: E731
    with KernelSandbox(function, RULES) as plain:
        assert plain.ask(TWELVE) == 4
    assert plain.ask(TWELVE) == 4


# -- loading a bot file ----------------------------------------------------------------------------


def ask_reason(box: KernelSandbox) -> str:
    with pytest.raises(Forfeit) as caught:
        box.ask(TWELVE)
    return caught.value.reason


def test_a_bot_file_that_cannot_be_loaded_forfeits_for_good(tmp_path: Path, clock: Clock) -> None:
    box = KernelSandbox(BotFile(tmp_path / "gone.py", None, "gone.py could not be read"), RULES, max_strikes=1)
    assert ask_reason(box) == "could not be loaded: gone.py: gone.py could not be read"
    assert ask_reason(box) == "could not be loaded: gone.py: gone.py could not be read"  # not "disqualified"
    missing = KernelSandbox(BotFile(tmp_path / "missing.py"), RULES)
    assert ask_reason(missing).startswith("could not be loaded: missing.py: [Errno 2] No such file or directory")
    (tmp_path / "latin.py").write_bytes(b"# \xe9\ndef move(state):\n    return 2\n")
    latin = KernelSandbox(BotFile(tmp_path / "latin.py"), RULES)
    assert ask_reason(latin).startswith("could not be loaded: latin.py: 'utf-8' codec can't decode byte 0xe9")
    (tmp_path / "big.py").write_text("#" * 1_000_001)
    big = KernelSandbox(BotFile(tmp_path / "big.py"), RULES)
    assert (
        ask_reason(big)
        == "could not be loaded: big.py: big.py is 1,000,001 bytes, over the limit of 1,000,000 for a bot file"
    )
    weird = KernelSandbox(BotFile(Path("/bots/x\x1b.py"), None, "bad\x1b"), RULES)
    assert ask_reason(weird) == "could not be loaded: x\\x1b.py: bad\\x1b"


def test_a_bot_files_text_is_taken_from_its_snapshot_and_restricted(tmp_path: Path, clock: Clock) -> None:
    snapshot = BotFile(tmp_path / "absent.py", "import math\ndef move(state):\n    return math.isqrt(9)\n")
    assert KernelSandbox(snapshot, RULES).ask(TWELVE) == 3
    escaping = BotFile(tmp_path / "esc.py", "import os\ndef move(state):\n    return 2\n")
    assert ask_reason(KernelSandbox(escaping, RULES)) == (
        "could not be loaded: RestrictedError: esc.py, line 1: a bot may import only math, cmath, itertools, random, "
        "functools, collections, fractions, statistics, bisect, heapq, operator, string, re, numpy, sympy, not os"
    )
    assert KernelSandbox(escaping, RULES, restricted=False).ask(TWELVE) == 2  # the flag reaches the loader
    long = BotFile(tmp_path / "long.py", "raise ValueError('\x1b' + 'x' * 600)\ndef move(state):\n    return 2\n")
    reason = ask_reason(KernelSandbox(long, RULES))
    assert reason == "could not be loaded: ValueError: \\x1b" + "x" * (
        500 - len("could not be loaded: ValueError: ") - 1
    )
    empty = BotFile(tmp_path / "empty.py", "")
    assert ask_reason(KernelSandbox(empty, RULES)) == (
        "could not be loaded: LookupError: empty.py defines no function named move or strategy"
    )


def test_a_bot_file_that_loops_while_loading_is_stopped(tmp_path: Path, clock: Clock) -> None:
    def moving_clock() -> float:
        clock.now += 1.0  # every look at the clock finds a second gone
        return clock.now

    in_kernel.clock = moving_clock  # type: ignore[assignment]  # undone by the fixture's monkeypatch
    looping = BotFile(tmp_path / "loop.py", "while True:\n    pass\ndef move(state):\n    return 2\n")
    box = KernelSandbox(looping, RULES, max_strikes=1)
    assert LOAD_LIMIT == 5.0
    assert ask_reason(box) == "could not be loaded: took longer than 5 s"
    assert ask_reason(box) == "could not be loaded: took longer than 5 s"  # for good, without a strike


# -- asking: answers, time limits, budgets, strikes ------------------------------------------------


def test_answers_and_the_forfeits_for_what_is_not_a_move(clock: Clock) -> None:
    assert KernelSandbox(lambda state: state.legal_moves[-1], RULES).ask(TWELVE) == 6
    got = KernelSandbox(lambda state: True, RULES)
    assert ask_reason(got) == "returned True (bool), not a whole number"

    def fails(state: GameState) -> int:
        raise ValueError("no \x1b" + "y" * 600)

    failing = KernelSandbox(fails, RULES)
    with pytest.raises(Forfeit) as caught:
        failing.ask(TWELVE)
    assert caught.value.reason == "raised ValueError: no \\x1b" + "y" * (500 - len("raised ValueError: no ") - 1)
    assert caught.value.trace is not None and 'raise ValueError("no' in caught.value.trace


def test_a_bot_gets_a_copy_of_the_state() -> None:
    seen: list[GameState] = []

    def keeps(state: GameState) -> int:
        seen.append(state)
        return 2

    KernelSandbox(keeps, RULES).ask(TWELVE)
    assert seen[0] is not TWELVE and seen[0] == TWELVE


def test_an_answer_that_says_nothing_is_malformed(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> None:
    monkeypatch.setattr(bot_worker, "_answer", lambda function, state: {})
    assert ask_reason(KernelSandbox(lambda state: 2, RULES)) == "sent a malformed answer"
    monkeypatch.setattr(bot_worker, "_answer", lambda function, state: {"refused": "no\x1b" + "z" * 600})
    assert ask_reason(KernelSandbox(lambda state: 2, RULES)) == "no\\x1b" + "z" * (500 - 3)
    monkeypatch.setattr(bot_worker, "_answer", lambda function, state: {"move": True})
    assert type(KernelSandbox(lambda state: 2, RULES).ask(TWELVE)) is int


def test_timeup_caught_by_the_answer_is_still_the_time_limit(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> None:
    monkeypatch.setattr(bot_worker, "_answer", lambda function, state: {"raised": "raised TimeUp: ", "traceback": ""})
    box = KernelSandbox(lambda state: 2, RULES, 0.5, max_strikes=2)
    reason = "took longer than the time limit of 0.5 s (stopped in the kernel)"
    assert ask_reason(box) == reason and ask_reason(box) == reason  # the second strike: disqualified from now
    assert ask_reason(box) == f"disqualified after being stopped 2 times in a row (last: {reason})"


def test_the_time_limit_is_the_least_of_the_limit_and_the_budgets_left(clock: Clock) -> None:
    def loops(state: GameState) -> int:
        while True:
            clock.now += 0.25

    box = KernelSandbox(loops, RULES, 2.0, game_budget=1.5, max_strikes=10)
    assert ask_reason(box) == "took longer than the time limit of 1.5 s (stopped in the kernel)"
    spent = box.spent_game
    assert spent == box.spent_total and 1.5 < spent < 1.5 + CHECK_EVERY * 0.25  # stopped at its next look
    box.new_game()
    assert box.spent_game == 0.0 and box.spent_total == spent
    assert ask_reason(box) == "took longer than the time limit of 1.5 s (stopped in the kernel)"

    total = KernelSandbox(loops, RULES, 2.0, total_budget=10.0, max_strikes=10)
    total.spent_total = 9.75
    assert ask_reason(total) == "took longer than the time limit of 0.25 s (stopped in the kernel)"
    nearly = KernelSandbox(loops, RULES, 2.0, total_budget=10.0, max_strikes=10)
    nearly.spent_total = 9.9999  # a moment left: still a thousandth of a second to try
    assert ask_reason(nearly) == "took longer than the time limit of 0.001 s (stopped in the kernel)"


def test_the_time_spent_is_counted_in_both_budgets(clock: Clock) -> None:
    def slow(state: GameState) -> int:
        clock.now += 0.25
        return 2

    box = KernelSandbox(slow, RULES, 1.0, game_budget=1.0, total_budget=1.25)
    assert box.ask(TWELVE) == 2 and (box.spent_game, box.spent_total) == (0.25, 0.25)
    assert box.ask(TWELVE) == 2 and (box.spent_game, box.spent_total) == (0.5, 0.5)

    def fails(state: GameState) -> int:
        clock.now += 0.25
        raise ValueError

    failing = KernelSandbox(fails, RULES, 1.0, game_budget=5.0)
    ask_reason(failing)
    assert (failing.spent_game, failing.spent_total) == (0.25, 0.25)  # counted when the bot fails too


def test_a_spent_budget_forfeits_this_game_or_every_game(clock: Clock) -> None:
    asked: list[int] = []

    def counts(state: GameState) -> int:
        asked.append(1)
        return 2

    box = KernelSandbox(counts, RULES, 1.0, game_budget=1.0, total_budget=5.0)
    box.spent_game = 1.0
    assert ask_reason(box) == "spent its time budget of 1 s for this game"
    box.new_game()
    assert box.ask(TWELVE) == 2 and asked == [1]  # only for that game
    box.spent_total = 5.0
    assert ask_reason(box) == "spent its whole time budget of 5 s for the tournament"
    box.spent_total = 0.0
    assert ask_reason(box) == "spent its whole time budget of 5 s for the tournament"  # for good
    assert asked == [1]


def test_strikes_in_a_row_disqualify_and_a_move_clears_them(clock: Clock) -> None:
    plan = ["loop", "move", "loop", "loop", "loop", "move"]

    def planned(state: GameState) -> int:
        if plan.pop(0) == "move":
            return 3
        while True:
            clock.now += 1.0

    box = KernelSandbox(planned, RULES, 1.0, max_strikes=2)
    assert ask_reason(box) == "took longer than the time limit of 1 s (stopped in the kernel)"
    assert box.ask(TWELVE) == 3  # the strike is forgiven
    assert ask_reason(box) == "took longer than the time limit of 1 s (stopped in the kernel)"
    assert ask_reason(box) == "took longer than the time limit of 1 s (stopped in the kernel)"  # the second
    assert ask_reason(box) == (
        "disqualified after being stopped 2 times in a row (last: took longer than the time limit of 1 s "
        "(stopped in the kernel))"
    )
    with pytest.raises(Forfeit) as again:
        box.ask(TWELVE)
    assert again.value.reason.startswith("disqualified after being stopped 2 times") and again.value.trace is None
    assert plan == ["loop", "move"]  # not asked once disqualified


def test_exceptions_are_no_strikes(clock: Clock) -> None:
    def fails(state: GameState) -> int:
        raise ValueError("x")

    box = KernelSandbox(fails, RULES, 1.0, max_strikes=1)
    for _ in range(3):
        assert ask_reason(box) == "raised ValueError: x"


def test_output_written_while_the_bot_runs_is_captured(clock: Clock) -> None:
    def chatty(state: GameState) -> int:
        print("to out")
        sys.stderr.write("to err\n")
        return 2

    box = KernelSandbox(chatty, RULES)
    assert box.ask(TWELVE) == 2 and box.output == "to out\nto err\n"


# -- which referee, and what the page says -------------------------------------------------------


def test_open_sandbox_gives_a_kernel_sandbox_only_where_there_are_no_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import duel_lessons.play.sandbox as sandbox

    made: list[tuple[object, ...]] = []

    def recorded(self: object, *args: object, **kwargs: object) -> None:
        made.append((*args, kwargs))

    monkeypatch.setattr(sandbox.Sandbox, "__init__", recorded)
    bot = lambda state: 2  # noqa: E731
    monkeypatch.setattr(sys, "platform", "linux")
    assert isinstance(in_kernel.open_sandbox(bot, RULES, 2.0, game_budget=3.0), sandbox.Sandbox)
    assert made == [(bot, RULES, 2.0, {"game_budget": 3.0})]
    monkeypatch.setattr(sys, "platform", "emscripten")
    box = in_kernel.open_sandbox(bot, RULES, 2.0, game_budget=3.0)
    assert isinstance(box, KernelSandbox) and (box.time_limit, box.game_budget, box.bot) == (2.0, 3.0, bot)
    assert in_kernel.open_sandbox(bot, RULES).time_limit == 1.0


def test_what_isolation_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import duel_lessons.play.isolation as isolation

    monkeypatch.setattr(isolation, "bots_unisolated", lambda: "process answer")
    monkeypatch.setattr(isolation, "isolation_notes", lambda functions: [f"notes for {functions}"])
    monkeypatch.setattr(sys, "platform", "linux")
    assert in_kernel.bots_unisolated() == "process answer"
    assert in_kernel.isolation_notes() == ["notes for False"]
    assert in_kernel.isolation_notes(True) == ["notes for True"]
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert in_kernel.isolation_notes() == [in_kernel.NO_ISOLATION] == in_kernel.isolation_notes(True)
    assert in_kernel.bots_unisolated() == (
        f"The bot files cannot be isolated here. {in_kernel.NO_ISOLATION} Take that risk only for bot files you "
        f"trust, with {UNISOLATED_FLAG} (run_untrusted_code_without_isolation=True in Python)."
    )
