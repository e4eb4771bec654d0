"""Issue 31's "done when" line in one run: one PASS/FAIL table for the four speed targets.

Run ``nice -n 10 python benchmarks/bench_issue31.py`` (about 1-2 minutes; ``--quick``: N = 10**5 for the
compiled table, fewer repeats, no 10**6 table without numba).  It runs, one after the other in one command:

* ``bench_reference.py``: the package's compiled table at N = 10**6 against the independent numba
  kernel (``reference_kernel.py``), target reference / package >= 1; and, in a fresh process where
  numba cannot be imported, the numpy table at 10**5 against the naive pure-Python loop beside it,
  target <= 0.5x, and the table to 10**6, target <= 10 s;
* ``bench_oracle.py``: ``oracle(rules).is_p(n)`` against the closed form's own test for every closed form,
  in the table and above it, target: the worst ratio <= 3x;
* ``bench_players.py``: a perfect move at twelve hard n <= 10**18 for every rule book and shipped variant,
  and at 40 random products of two primes near 10**9 (the hardest to split), target <= 20 ms.  The verdict
  is on CPU time (``time.thread_time``), which other jobs on a shared machine do not inflate; the clock
  time is printed beside it.

Each script still runs on its own with its detailed table; this one prints the load average at the start and
the end, the figures, and the verdicts.  Exit status 0 when every row passes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_oracle  # noqa: E402  (benchmarks/ is not a package: its scripts import each other by path)
import bench_players  # noqa: E402
import bench_reference  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller tables, fewer repeats")
    parser.add_argument("--semiprimes", type=int, default=40, help="random products of two primes near 10**9")
    args = parser.parse_args()
    began = time.perf_counter()
    print(f"issue 31 speed targets, {os.cpu_count()} CPUs, load average {os.getloadavg()} at the start\n")
    rows: list[tuple[str, str, str, bool]] = []

    big = 10**5 if args.quick else 10**6
    package, reference = bench_reference.with_numba(big, 3 if args.quick else 5)
    ratio = reference / package
    print(f"with numba, N = {big:,}: package {package:.3f} s, independent reference {reference:.3f} s")
    rows.append((f"numba table: reference / package at {big:,}", f"{ratio:.2f}x", ">= 1x", ratio >= 1.0))

    plain = bench_reference.without_numba(10**5, 0 if args.quick else 10**6, 3)
    naive_best, plain_best = min(plain["naive"]), min(plain["plain"])  # type: ignore[type-var]
    ratio = plain_best / naive_best
    print(f"without numba, N = 100,000: package {plain_best:.3f} s, naive loop {naive_best:.3f} s")
    rows.append(("no-numba table: package / naive loop at 100,000", f"{ratio:.2f}x", "<= 0.5x", ratio <= 0.5))
    if "big" in plain:
        seconds, cpu = float(plain["big"]), float(plain["big_cpu"])  # type: ignore[arg-type]
        print(f"without numba, N = 1,000,000: package {seconds:.2f} s ({cpu:.2f} s of CPU time)")
        rows.append(("no-numba table to 1,000,000", f"{seconds:.2f} s", "<= 10 s", seconds <= 10))

    worst_oracle = bench_oracle.measure(echo=False)
    print(f"oracle.is_p / closed form's test, worst of all closed forms in and above the table: {worst_oracle:.2f}x")
    rows.append(("oracle: is_p / closed form's test (worst)", f"{worst_oracle:.2f}x", "<= 3x", worst_oracle <= 3))

    moves = bench_players.measure(echo=False)
    wall = max(m[1] for m in moves)
    cpu_worst = max(m[2] for m in moves)
    slowest = max(moves, key=lambda m: m[2])[0]
    print(
        f"perfect move, 12 hard n, {len(moves)} rule sets: worst {cpu_worst:.1f} ms CPU ({slowest}), {wall:.1f} ms wall"
    )
    goal = f"<= {bench_players.TARGET_MS:.0f} ms"
    rows.append(
        ("perfect move, 12 hard n <= 10**18 (CPU)", f"{cpu_worst:.1f} ms", goal, cpu_worst <= bench_players.TARGET_MS)
    )
    if args.semiprimes:
        split = bench_players.semiprimes(args.semiprimes, echo=False)
        median = split[len(split) // 2]
        print(
            f"perfect move, {len(split)} random p*q (Division Duel), CPU ms: median {median:.1f}, worst {split[-1]:.1f}"
        )
        what = f"perfect move, {len(split)} random p*q, p, q > 3*10**8 (CPU)"
        rows.append((what, f"{split[-1]:.1f} ms", goal, split[-1] <= bench_players.TARGET_MS))

    print(f"\nload average {os.getloadavg()} at the end; {time.perf_counter() - began:.0f} s in all")
    sys.exit(bench_reference.verdicts(rows))


if __name__ == "__main__":
    main()
