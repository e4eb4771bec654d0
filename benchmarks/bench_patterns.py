"""Time the pattern checks (duel_lessons.solving.patterns) at N = 10**5 against a plain-Python baseline.

Run: ``python benchmarks/bench_patterns.py``.  Target: every check on both
sequences (P/N and Grundy) of one rule book at N = 10**5 in <= 1 s.  The
baseline, timed in the same run, is the obvious Python: a dict of first
occurrences for "is a function of X", and for periodicity a loop over p that
compares whole windows (at N = 10**4, where it still finishes).  Both must give
the same answers.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from duel_lessons import RULEBOOKS
from duel_lessons.solving.patterns import check_patterns, features, find_period, first_clash
from duel_lessons.solving.tables import tabulate

TARGET_S = 1.0
N = 10**5


def naive_clash(values: list[int], feature: list[int]) -> tuple[int, int] | None:
    first: dict[int, int] = {}
    for i, x in enumerate(feature):
        m = first.setdefault(x, i)
        if values[m] != values[i]:
            return m + 1, i + 1
    return None


def naive_period(a: list[int], k: int = 3) -> tuple[int, int] | None:
    size = len(a)
    for p in range(1, size // k + 1):
        start = 0
        for i in range(size - p):
            if a[i] != a[i + p]:
                start = i + 1
        tail = size - start
        if tail >= k * p and 2 * tail >= size:
            return p, start + 1
    return None


def median_time(run: object, repeats: int = 3) -> float:
    assert callable(run)
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    print(f"all pattern checks, both sequences, N = {N:,}: target <= {TARGET_S:.1f} s per rule book")
    ok = True
    for name in RULEBOOKS:
        tabulate(name, N)  # the table is the solver's job: time only the checks
        seconds = median_time(lambda name=name: check_patterns(name, N))
        ok &= seconds <= TARGET_S
        print(f"  {name:15s} {seconds:6.3f} s  {'PASS' if seconds <= TARGET_S else 'FAIL'}")
    outcome = tabulate("division-duel", N).outcome[1 : N + 1]  # a function of Ω: the whole range is scanned
    feature = features(N, which=["omega"])["omega"][1]
    fast = median_time(lambda: first_clash(outcome, feature))
    values, xs = outcome.tolist(), feature.tolist()
    slow = median_time(lambda: naive_clash(values, xs))
    assert first_clash(outcome, feature) == naive_clash(values, xs)
    print(f"function of Ω(n), N = {N:,}: numpy {fast * 1000:.1f} ms vs Python {slow * 1000:.1f} ms", end=" ")
    print(f"({slow / fast:.0f}x)")
    small = np.asarray(tabulate("factor-duel", 10**4).grundy[1:])
    fast = median_time(lambda: find_period(small))
    slow = median_time(lambda: naive_period(small.tolist()), repeats=1)
    found = find_period(small)
    assert (None if found is None else (found.period, found.start)) == naive_period(small.tolist())
    print(f"periodicity (none found), N = 10,000: numpy {fast * 1000:.1f} ms vs Python {slow:.1f} s", end=" ")
    print(f"({slow / fast:.0f}x)")
    print("PASS" if ok else "FAIL")


if __name__ == "__main__":
    main()
