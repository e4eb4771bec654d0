"""Time the outcome and winning moves of random three-number sums up to 10^4 (Divisor Duel).

Run: ``python benchmarks/bench_sums.py``. Target: the worst of 30 sums under 0.1 s once the
table is built (this was a unit test's assertion; timing belongs here, not in the tests).
"""

from __future__ import annotations

import random
import time

from duel_lessons.play.sums import count_winning_positions, new_sum, outcome, winning_moves

TARGET_S = 0.1


def main() -> None:
    began = time.perf_counter()
    count_winning_positions("divisor-duel", [range(1, 10_001)])  # builds the table once
    winning_moves(new_sum([10_000, 9_999, 9_998]))  # the oracle's table, and sympy for the divisors
    print(f"first sum, tables included: {time.perf_counter() - began:.2f} s")
    rng = random.Random(0)
    times = []
    for _ in range(30):
        state = new_sum([rng.randint(1, 10_000) for _ in range(3)])
        began = time.perf_counter()
        outcome(state)
        winning_moves(state)
        times.append(time.perf_counter() - began)
    worst = max(times)
    median = sorted(times)[len(times) // 2]
    verdict = "PASS" if worst < TARGET_S else "FAIL"
    print(
        f"30 sums of three numbers <= 10^4: median {median * 1000:.2f} ms, worst {worst * 1000:.2f} ms "
        f"(target < {TARGET_S * 1000:.0f} ms): {verdict}"
    )


if __name__ == "__main__":
    main()
