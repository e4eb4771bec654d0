"""Bots and lesson 11's sum rule where no process can be started (Pyodide): in the kernel, under a time limit.

``sys.platform`` is set to ``"emscripten"`` for each test, and the process sandbox is made to fail if it is used,
so every bot here runs in the kernel (duel_lessons.play.in_kernel). Expected values are worked out by hand.
"""

from __future__ import annotations

import sys
from functools import reduce
from operator import xor

import pytest

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.play.in_kernel import NO_ISOLATION, KernelSandbox, TimeUp, open_sandbox, run_with_time_limit
from duel_lessons.play.referee import Forfeit


@pytest.fixture(autouse=True)
def pyodide(monkeypatch: pytest.MonkeyPatch) -> None:
    import duel_lessons.play.sandbox as sandbox

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError("a process sandbox was made where there are no processes")

    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(sandbox.Sandbox, "__init__", no_process)


def loops(state: GameState) -> int:
    while True:
        pass


def stubborn(state: GameState) -> int:
    """Catches everything, the time limit included, and tries again."""
    while True:
        try:  # noqa: SIM105 (the plain form a student would write)
            sum(i for i in range(10**4))
        except BaseException:
            pass


def test_open_sandbox_runs_the_bot_in_the_kernel() -> None:
    rules = new_game().rules
    with open_sandbox(lambda state: state.legal_moves[-1], rules, 1.0) as box:
        assert isinstance(box, KernelSandbox)
        assert box.ask(new_game("divisor-duel", 12)) == 6  # 12's proper divisors: 1 (not legal), 2, 3, 4, 6


@pytest.mark.parametrize("bot", [loops, stubborn])
def test_a_bot_that_loops_is_stopped_even_if_it_catches_the_stop(bot: object) -> None:
    with KernelSandbox(bot, new_game().rules, 0.1) as box, pytest.raises(Forfeit, match=r"time limit of 0\.1 s"):  # type: ignore[arg-type]
        box.ask(new_game("divisor-duel", 12))


def test_after_the_bot_the_referees_code_runs_untraced() -> None:
    before = sys.gettrace(), sys.getprofile()
    with pytest.raises(TimeUp):
        run_with_time_limit(lambda: loops(new_game()), 0.05)
    assert (sys.gettrace(), sys.getprofile()) == before
    total = 0
    for i in range(100_000):  # runs to its end: nothing is left to stop it
        total += i
    assert total == 4_999_950_000


def test_strange_answers_exceptions_output_and_strikes() -> None:
    rules = new_game().rules
    twelve = new_game("divisor-duel", 12)
    with KernelSandbox(lambda state: 1 / 0, rules, 1.0) as box, pytest.raises(Forfeit, match="ZeroDivisionError"):
        box.ask(twelve)
    with KernelSandbox(lambda state: True, rules, 1.0) as box, pytest.raises(Forfeit, match=r"True \(bool\), not a"):
        box.ask(twelve)

    def chatty(state: GameState) -> int:
        print("\x1b[31m" + "x" * 20)
        return 3

    with KernelSandbox(chatty, rules, 1.0, output_limit=10) as box:
        assert box.ask(twelve) == 3
        assert (
            box.output == "\\x1b[31mxxxxx\n[output cut]\n"
        )  # 10 characters kept (the escape code is 5), made harmless
    with KernelSandbox(loops, rules, 0.05, max_strikes=2) as box:
        for reason in ("time limit", "time limit", "disqualified after being stopped 2 times", "disqualified"):
            with pytest.raises(Forfeit, match=reason):  # from the third ask on, without running the bot
                box.ask(twelve)


def test_the_tournament_plays_bots_in_the_kernel_and_says_isolation_is_absent() -> None:
    from duel_lessons.play.tournament import round_robin

    result = round_robin({"Loops": loops, "Smallest": lambda s: s.legal_moves[0]}, starts=[12], time_limit=0.05)
    assert result.notes == (NO_ISOLATION,)
    assert NO_ISOLATION in result.to_text() and "without the tournament&#x27;s isolation" in result._repr_html_()
    # Loops forfeits both games (as first player from 12, and when its turn comes as second player).
    assert [(g.winner, g.loser) for g in result.games] == [("Smallest", "Loops")] * 2
    assert all("time limit" in (g.forfeit or "") for g in result.games)


def test_bot_files_are_refused_in_the_kernel_unless_the_risk_is_taken(tmp_path: object) -> None:
    """Other people's bot files would run in the kernel beside the notebook: refused, naming the flag."""
    from pathlib import Path

    from duel_lessons.engine.errors import DuelError
    from duel_lessons.play.referee import BotFile
    from duel_lessons.play.tournament import round_robin

    path = Path(str(tmp_path)) / "smallest.py"
    path.write_text("def move(state):\n    return state.legal_moves[0]\n", encoding="utf-8")
    entrants = {"File": BotFile(path), "Largest": lambda s: s.legal_moves[-1]}
    with pytest.raises(DuelError, match="--run-untrusted-code-without-isolation") as refused:
        round_robin(entrants, starts=[12], time_limit=0.5)
    assert "cannot start processes" in str(refused.value)
    result = round_robin(entrants, starts=[12], time_limit=0.5, run_untrusted_code_without_isolation=True)
    # The file plays its smallest move: 12 -2-> 10 -5-> 5, stuck; and 12 -6-> 6 -2-> 4 -2-> 2, stuck. Largest wins both.
    assert [(g.winner, g.loser) for g in result.games] == [("Largest", "File")] * 2
    assert result.notes == (NO_ISOLATION,)


def test_lesson_11s_sum_rule_is_judged_in_the_kernel() -> None:
    from duel_lessons.teaching.checks.lesson11 import SPEC

    p = {"rules": "divisor-duel", "triple_upto": 6, "example": [12, 18, 30], "ex_sum": [100, 360, 840]}
    check = SPEC.checks["sum-rule"]
    assert check(lambda values: reduce(xor, values, 0) == 0, p).kind == "right"
    assert check(lambda values: sum(values) == 0, p).kind == "miss"  # 2 + 2 has values [1, 1] and is P
    stopped = check(lambda values: loops(new_game()), p)
    assert stopped.kind == "format" and "time limit" in stopped.message
