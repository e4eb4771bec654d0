"""How long the sandbox holds the referee: per hostile bot, and for a tournament with a staller.

    python benchmarks/bench_sandbox.py              # ten bots (one stalls) at the CLI's defaults, one start
    python benchmarks/bench_sandbox.py --starts 3   # more starts

Wall-clock times, so they depend on the machine's load; the unit tests judge the same bots by CPU
time or outcome (tests/test_fuzz_bots.py, tests/test_sandbox.py).  Prints, for each attack, the
seconds the referee waited, and for the tournament the stated bound (longest_time) against the
time it took.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import contextlib

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.play.sandbox import Forfeit, Sandbox
from duel_lessons.play.tournament import longest_time, round_robin


def first(state: GameState) -> int:
    return state.legal_moves[0]


def stalls(state: GameState) -> int:
    time.sleep(1000)
    return first(state)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=1.0)
    args = parser.parse_args()
    from test_fuzz_bots import ATTACKS  # the hostile bots of the fuzz test

    print("attack                                   held (s)")
    for name in ("infinite loop", "sleep for ever", "SIGSTOP itself", "grow memory without end", "fork bomb"):
        began = time.monotonic()
        with Sandbox(ATTACKS[name][0], new_game().rules, 1.0) as box, contextlib.suppress(Forfeit):
            box.ask(new_game("divisor-duel", 12))
        print(f"{name:<40} {time.monotonic() - began:8.1f}")
    bots: dict[str, object] = {f"honest{i}": first for i in range(9)}
    bots["staller"] = stalls
    bound = longest_time(10, 10, args.starts, args.time_limit)
    began = time.monotonic()
    round_robin(bots, starts=args.starts, time_limit=args.time_limit)  # type: ignore[arg-type]
    took = time.monotonic() - began
    print(f"10 bots, one staller, {args.starts} start(s): took {took:.0f} s; stated bound {bound:.0f} s")


if __name__ == "__main__":
    main()
