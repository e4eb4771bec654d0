"""Tournaments: the old thread referee (baseline) against the sandboxed process referee, side by side.

Run: ``python benchmarks/bench_tournament.py``.  Prints, for each referee:

* the time of a 120-game round robin of four honest bots (4 bots: 6 pairs x 10 starts x 2 colours),
* how long a looping bot holds the referee before it forfeits (time limit 1 s),
* how much slower plain Python runs afterwards (a fixed loop, timed before and after).

The baseline is the referee lesson 10 used before: each move in a fresh daemon thread in the
referee's own process, abandoned (still spinning) after the time limit.
"""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections.abc import Callable

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.play.players import make_player
from duel_lessons.play.sandbox import Forfeit, Sandbox
from duel_lessons.play.tournament import round_robin, tournament_starts

LIMIT = 1.0


def smallest(state: GameState) -> int:
    return state.legal_moves[0]


def largest(state: GameState) -> int:
    return state.legal_moves[-1]


def middle(state: GameState) -> int:
    return state.legal_moves[len(state.legal_moves) // 2]


def loop_from_60(state: GameState) -> int:
    while state.number == 60:
        pass
    return state.legal_moves[0]


BOTS: dict[str, Callable[[GameState], int]] = {
    "smallest": smallest,
    "largest": largest,
    "middle": middle,
    "perfect": make_player("perfect"),
}


def thread_ask(bot: Callable[[GameState], int], state: GameState, limit: float) -> int | None:
    """The old referee's way: a daemon thread per move, abandoned after the limit."""
    box: dict[str, int] = {}
    thread = threading.Thread(target=lambda: box.setdefault("move", bot(state)), daemon=True)
    thread.start()
    thread.join(limit)
    return None if thread.is_alive() else box.get("move")


def thread_round_robin(starts: tuple[int, ...]) -> int:
    names = list(BOTS)
    games = 0
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for n in starts:
                for first, second in ((a, b), (b, a)):
                    state = new_game("divisor-duel", n)
                    players = (BOTS[first], BOTS[second])
                    while not state.is_over:
                        move = thread_ask(players[state.to_move - 1], state, LIMIT)
                        if move is None or state.check(move) is not None:
                            break
                        state = state.play(move)
                    games += 1
    return games


def python_speed() -> float:
    """Seconds for a fixed pure-Python loop (median of 3)."""
    times = []
    for _ in range(3):
        began = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i % 7
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    starts = tournament_starts(new_game().rules, 10, seed=1)
    state = new_game("divisor-duel", 60)
    round_robin(["random", "greedy"], starts=2)  # warm up: imports, tables

    began = time.perf_counter()
    games = thread_round_robin(starts)
    threads = time.perf_counter() - began
    began = time.perf_counter()
    result = round_robin(BOTS, starts=list(starts), time_limit=LIMIT)
    processes = time.perf_counter() - began
    assert games == len(result.games) == 120 and not result.forfeits()

    speed_before = python_speed()
    with Sandbox(loop_from_60, state.rules, LIMIT) as box:
        box.ask(new_game("divisor-duel", 12))  # the worker is up
        began = time.perf_counter()
        with contextlib.suppress(Forfeit):
            box.ask(state)
        killed = time.perf_counter() - began
    speed_after_kill = python_speed()
    began = time.perf_counter()
    thread_ask(loop_from_60, state, LIMIT)
    abandoned = time.perf_counter() - began
    speed_after_thread = python_speed()

    print(f"{'':44} {'threads (before)':>18} {'processes (after)':>18}")
    print(f"{'120-game round robin, 4 honest bots':44} {threads:>17.2f}s {processes:>17.2f}s")
    print(f"{'  per game':44} {threads / 120 * 1000:>16.1f}ms {processes / 120 * 1000:>16.1f}ms")
    print(f"{'looping bot holds the referee (limit 1 s)':44} {abandoned:>17.2f}s {killed:>17.2f}s")
    print(f"{'  ... and is then':44} {'still running':>18} {'killed':>18}")
    print(
        f"{'plain Python afterwards, x slower':44} {speed_after_thread / speed_before:>17.1f}x "
        f"{speed_after_kill / speed_before:>17.1f}x"
    )
    print(f"ratio processes / threads for the honest tournament: {processes / threads:.2f}")


if __name__ == "__main__":
    main()
