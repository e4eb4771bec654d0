"""Benchmark of the tabulating solver against its performance targets.

Run ``python benchmarks/bench_solver.py`` (or ``--quick`` for a fast smoke run
at smaller sizes, whose PASS/FAIL lines are then only indicative).  It measures,
in one run:

* cold start: a fresh Python process that imports the package and builds the
  first table, once with an empty numba cache (compiling) and once with the
  cache that run left behind: the time from launching the process until the
  table is ready (the process's own exit, ~0.3 s of tearing down numba, is
  printed but not counted), and peak memory (maxrss);
* warm time per rule book and for the custom variants;
* a naive baseline (a Python loop calling ``sympy.divisors``) against
  ``tabulate`` side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import sympy

from duel_lessons.engine.rules import DIVISION_DUEL, DIVISOR_DUEL, RULEBOOKS, Rules
from duel_lessons.solving.tables import clear_cache, tabulate

VARIANTS: dict[str, Rules] = {
    **RULEBOOKS,
    "divisor-duel even": DIVISOR_DUEL.variant(divisors="even"),
    "divisor-duel odd": DIVISOR_DUEL.variant(divisors="odd"),
    "divisor-duel prime": DIVISOR_DUEL.variant(divisors="prime"),
    "division-duel prime": DIVISION_DUEL.variant(divisors="prime"),
    "divisor-duel misère": DIVISOR_DUEL.variant(last_mover_wins=False),
}

# Runs in a fresh process: import, first table, peak memory.
COLD_SCRIPT = """
import time
launched = {launched!r}  # time.time() just before the parent started this process
start = time.time()
import json, resource
from duel_lessons.solving.tables import tabulate
imported = time.time()
tabulate("divisor-duel", {n})
done = time.time()
rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"startup": start - launched, "import": imported - start, "table": done - imported,
                   "ready": done - launched, "rss_mb": rss_mb}}))
"""

# Runs in a fresh process: every variant at size n, peak memory.
ALL_SCRIPT = """
import json, resource
from duel_lessons.solving.tables import tabulate
from bench_solver import VARIANTS
for rules in VARIANTS.values():
    tabulate(rules, {n})
print(json.dumps({{"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def run_fresh(script: str, env: dict[str, str]) -> tuple[float, dict[str, float]]:
    """Wall time of a fresh Python process running script, and what it printed (JSON)."""
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=os.path.dirname(os.path.abspath(__file__)),
    )
    wall = time.perf_counter() - start
    return wall, json.loads(result.stdout.strip().splitlines()[-1])


def naive_outcomes(upto: int) -> list[bool]:
    """Divisor Duel the way a first lesson computes it: is each n a P-position?"""
    is_p = [False] * (upto + 1)
    for n in range(1, upto + 1):
        moves = [d for d in sympy.divisors(n) if 1 < d < n]
        is_p[n] = not any(is_p[n - d] for d in moves)
    return is_p


def timed_tabulate(rules: Rules, upto: int, repeats: int) -> float:
    """Median time of a fresh (uncached) table."""
    times = []
    for _ in range(repeats):
        clear_cache()
        start = time.perf_counter()
        tabulate(rules, upto)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one repeat")
    args = parser.parse_args()
    big = 10**5 if args.quick else 10**6
    base = 10**4 if args.quick else 10**5
    repeats = 1 if args.quick else 3
    results: list[tuple[str, str, str, bool]] = []  # what, measured, target, ok

    print(f"numpy/numba solver benchmark, N = {big:,}, baseline at N = {base:,}, {os.cpu_count()} CPUs\n")

    # -- cold and warm-cache start in fresh processes --------------------------
    with tempfile.TemporaryDirectory() as cache_dir:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
        for label in ("empty numba cache", "warm numba cache"):
            wall, got = run_fresh(COLD_SCRIPT.format(n=big, launched=time.time()), env)
            print(
                f"fresh process, {label}: first table ready after {got['ready']:.2f} s (Python start "
                f"{got['startup']:.2f} s + import {got['import']:.2f} s + first table {got['table']:.2f} s); "
                f"process wall time with exit {wall:.2f} s; peak {got['rss_mb']:.0f} MB"
            )
            ready = got["ready"]
            results.append((f"cold start to table, {label}", f"{ready:.2f} s", "<= 3 s", ready <= 3.0))
            results.append((f"peak memory, {label}", f"{got['rss_mb']:.0f} MB", "<= 300 MB", got["rss_mb"] <= 300))
        _, got = run_fresh(ALL_SCRIPT.format(n=big), env)
        print(f"fresh process, all {len(VARIANTS)} tables cached: peak {got['rss_mb']:.0f} MB")
        results.append(("peak memory, all tables", f"{got['rss_mb']:.0f} MB", "<= 300 MB", got["rss_mb"] <= 300))

    # -- warm: compiled and loaded ---------------------------------------------
    tabulate("divisor-duel", 100)  # compile or load the kernel
    print(f"\nwarm time per variant at N = {big:,} (median of {repeats}, cache cleared each time):")
    for name, rules in VARIANTS.items():
        seconds = timed_tabulate(rules, big, repeats)
        print(f"  {name:<22} {seconds:.3f} s")
        results.append((f"warm {name}", f"{seconds:.3f} s", "<= 1 s", seconds <= 1.0))

    # -- naive baseline ----------------------------------------------------------
    start = time.perf_counter()
    naive = naive_outcomes(base)
    naive_time = time.perf_counter() - start
    fast_time = timed_tabulate(DIVISOR_DUEL, base, max(repeats, 3))
    table = tabulate(DIVISOR_DUEL, base)
    assert naive[1:] == [bool(v == 0) for v in table.outcome[1:]], "naive and tabulate disagree"
    ratio = naive_time / fast_time
    print(f"\nbaseline at N = {base:,}: naive {naive_time:.2f} s, tabulate {fast_time * 1000:.1f} ms, {ratio:.0f}x")
    results.append((f"speed-up over naive at N = {base:,}", f"{ratio:.0f}x", ">= 50x", ratio >= 50))

    # -- summary -------------------------------------------------------------------
    width = max(len(r[0]) for r in results)
    print(f"\n{'measure':<{width}}  {'measured':>9}  {'target':>9}  result")
    for what, measured, target, ok in results:
        print(f"{what:<{width}}  {measured:>9}  {target:>9}  {'PASS' if ok else 'FAIL'}")
    if args.quick:
        print("\n(--quick: smaller sizes; the targets are for N = 10**6 and 10**5.)")
    sys.exit(0 if all(r[3] for r in results) else 1)


if __name__ == "__main__":
    main()
