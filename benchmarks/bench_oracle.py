"""The oracle's ``is_p`` against the closed form's own test, side by side in one process.

Run ``python benchmarks/bench_oracle.py``.  For every rule set with a proved closed form it times
``oracle(rules).is_p(n)`` and ``form.is_p(n)`` (the closed form's test: its position check and rule)
on the same 2,000 numbers, inside the oracle's table (n <= 10**6, table built first) and above it
(10**6 < n <= 10**18), interleaved, best of 7 runs each.  Target: the oracle at most 3x the form.
The raw rule (``form.p_rule``, no check) is printed too, for scale.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable

from duel_lessons.solving.closed_forms import all_closed_forms
from duel_lessons.solving.oracle import oracle

TARGET = 3.0


def best_ns(test: Callable[[int], bool], numbers: list[int], runs: int = 7) -> float:
    """Best time per call over ``runs`` passes over ``numbers``, in nanoseconds."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        for n in numbers:
            test(n)
        times.append(time.perf_counter() - began)
    return min(times) / len(numbers) * 1e9


def measure(echo: bool = True) -> float:
    """Time every closed form's oracle in the table and above it; print a row each (if ``echo``); the worst ratio."""
    rng = random.Random(31)
    inside = [rng.randrange(1, 10**6 + 1) for _ in range(2000)]
    above = [rng.randrange(10**6 + 1, 10**18 + 1) for _ in range(1000)]
    above += [2**k for k in range(21, 60)] + [3 * 2**k for k in range(20, 58)]  # powers of 2 and their kin
    if echo:
        print(f"{'rules':48} {'where':>7} {'oracle ns':>10} {'form ns':>8} {'rule ns':>8} {'ratio':>6}  verdict")
    worst = 0.0
    for form in all_closed_forms():
        ask = oracle(form.rules)
        ask.is_p(10**6)  # the table, built once before timing
        for where, numbers in (("table", inside), ("above", above)):
            assert [ask.is_p(n) for n in numbers] == [form.is_p(n) for n in numbers], form.name
            mine = best_ns(ask.is_p, numbers)
            theirs = best_ns(form.is_p, numbers)
            rule = best_ns(form.p_rule, numbers)
            ratio = mine / theirs
            worst = max(worst, ratio)
            verdict = "PASS" if ratio <= TARGET else "FAIL"
            row = f"{form.rules.name:48} {where:>7} {mine:10.0f} {theirs:8.0f} {rule:8.0f} {ratio:5.2f}x  {verdict}"
            if echo:
                print(row)
    return worst


def main() -> None:
    print(f"oracle.is_p against the closed form's test, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}\n")
    worst = measure()
    print(f"\nworst ratio {worst:.2f}x (target <= {TARGET:.0f}x); load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
