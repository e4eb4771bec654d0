"""The solver's tables against independent baselines, side by side in one process.

Run ``python benchmarks/bench_reference.py`` (``--quick``: N = 10**5 only).  It measures:

* **with numba**: ``tabulate("divisor-duel", N)`` (the package's compiled kernel, sieve included)
  against ``reference_kernel.solve(N)`` (an independent numba kernel: a divisor sieve, then one
  pass), both compiled before timing, interleaved, best of 5 each; the tables must agree.
  Target: the package at least as fast as the reference (ratio reference / package >= 1);
* **without numba** (a fresh process where numba cannot be imported, as on JupyterLite): the
  package's table at N = 10**5 against a naive pure-Python loop beside it (``naive_outcomes``:
  a list of divisors per n, then P/N only), interleaved, best of 3 each; target <= 0.5 x the
  naive loop; and the package's table at N = 10**6, target <= 10 s.

The naive loop computes outcomes only (no Grundy values, no remoteness), so it is the stricter
baseline; its P-positions are compared with the table's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def naive_outcomes(upto: int) -> list[bool]:
    """Divisor Duel the way a first lesson might compute it: is each n a P-position?"""
    divisors: list[list[int]] = [[] for _ in range(upto + 1)]
    for d in range(2, upto // 2 + 1):
        for m in range(2 * d, upto + 1, d):
            divisors[m].append(d)
    is_p = [False] * (upto + 1)
    for n in range(1, upto + 1):
        is_p[n] = not any(is_p[n - d] for d in divisors[n])
    return is_p


PLAIN = """
import json, sys, time
sys.path.insert(0, {here!r})
from bench_reference import naive_outcomes
from duel_lessons.solving import tables
assert not tables.COMPILED, "numba must be hidden here"
tables.tabulate("divisor-duel", 100)
result = {{"naive": [], "plain": []}}
for _ in range({repeats}):
    began = time.perf_counter()
    naive = naive_outcomes({base})
    result["naive"].append(time.perf_counter() - began)
    tables.clear_cache()
    began = time.perf_counter()
    table = tables.tabulate("divisor-duel", {base})
    result["plain"].append(time.perf_counter() - began)
    assert naive[1:] == [bool(v == 0) for v in table.outcome[1:]], "naive and tabulate disagree"
if {big}:
    tables.clear_cache()
    began, cpu = time.perf_counter(), time.process_time()
    tables.tabulate("divisor-duel", {big})
    result["big"] = time.perf_counter() - began
    result["big_cpu"] = time.process_time() - cpu
print(json.dumps(result))
"""


def without_numba(base: int, big: int, repeats: int) -> dict[str, object]:
    """Times from a fresh process in which ``import numba`` fails."""
    with tempfile.TemporaryDirectory() as hide:
        (Path(hide) / "numba").mkdir()
        (Path(hide) / "numba" / "__init__.py").write_text("raise ImportError('numba hidden by the benchmark')\n")
        paths = [hide, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        script = PLAIN.format(here=str(HERE), base=base, big=big, repeats=repeats)
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def with_numba(upto: int, repeats: int) -> tuple[float, float]:
    """Best times of the package's compiled table and of the reference kernel, interleaved."""
    import numpy as np
    import reference_kernel

    from duel_lessons.solving import tables

    assert tables.COMPILED, "numba must be installed here for the compiled side"
    tables.tabulate("divisor-duel", 100)
    reference_kernel.solve(100)  # both compiled (or loaded from the cache) before timing
    package, reference = [], []
    for _ in range(repeats):
        tables.clear_cache()
        began = time.perf_counter()
        table = tables.tabulate("divisor-duel", upto)
        package.append(time.perf_counter() - began)
        began = time.perf_counter()
        outcome, grundy, remoteness = reference_kernel.solve(upto)
        reference.append(time.perf_counter() - began)
    assert np.array_equal(table.outcome[1:], outcome[1:]), "the outcomes differ"
    assert np.array_equal(table.grundy[1:], grundy[1:]), "the Grundy values differ"
    assert np.array_equal(table.remoteness[1:], remoteness[1:]), "the remoteness differs"
    return min(package), min(reference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 10**5 only, fewer repeats")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    big = 10**5 if args.quick else 10**6
    load = os.getloadavg()[0]
    print(f"divisor-duel tables, {os.cpu_count()} CPUs, load average {load:.1f} at the start\n")
    results: list[tuple[str, str, str, bool]] = []

    package, reference = with_numba(big, 3 if args.quick else 5)
    ratio = reference / package
    print(f"with numba, N = {big:,}: package {package:.3f} s, independent reference {reference:.3f} s")
    results.append((f"numba: reference / package at {big:,}", f"{ratio:.2f}x", ">= 1x", ratio >= 1.0))

    plain = without_numba(10**5, 0 if args.quick else big, 3)
    naive_best, plain_best = min(plain["naive"]), min(plain["plain"])  # type: ignore[type-var]
    ratio = plain_best / naive_best
    print(f"without numba, N = 100,000: package {plain_best:.3f} s, naive loop {naive_best:.3f} s")
    results.append(("no numba: package / naive at 100,000", f"{ratio:.2f}x", "<= 0.5x", ratio <= 0.5))
    if "big" in plain:
        seconds = float(plain["big"])  # type: ignore[arg-type]
        cpu = float(plain["big_cpu"])  # type: ignore[arg-type]
        print(f"without numba, N = {big:,}: package {seconds:.2f} s ({cpu:.2f} s of CPU time)")
        results.append((f"no numba: table to {big:,}", f"{seconds:.2f} s", "<= 10 s", seconds <= 10))

    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    sys.exit(verdicts(results))


def verdicts(rows: list[tuple[str, str, str, bool]]) -> int:
    """Print one PASS/FAIL table (measure, measured, target) and return the exit status: 0 when all pass."""
    width = max(len(r[0]) for r in rows)
    print(f"\n{'measure':<{width}}  {'measured':>9}  {'target':>8}  result")
    for what, measured, target, ok in rows:
        print(f"{what:<{width}}  {measured:>9}  {target:>8}  {'PASS' if ok else 'FAIL'}")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    main()
