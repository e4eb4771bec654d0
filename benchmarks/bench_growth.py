"""Benchmark: growing a table one number at a time, and the table cache's memory bound.

Run ``python benchmarks/bench_growth.py`` (or ``--quick`` for smaller sizes).  It measures, side by side
in one run:

* **growth**: ``tabulate(rules, n)`` for n = 1, 2, ..., N (a lesson or a widget asking for one more
  number at a time), with the old policy (grow exactly to n: ``GROWTH = 1``, quadratic) and the
  geometric policy (``GROWTH = 2``), against a single ``tabulate(rules, N)``;
* **cache bound**: a fresh process builds K different variants' tables of size M and keeps them
  (as a lesson exploring variants would); once with the cache unbounded (the old behaviour) and once
  with the default limit, printing the cache's bytes and the process's peak memory (maxrss).
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import time

from duel_lessons.engine.rules import DIVISOR_DUEL, Rules
from duel_lessons.solving import tables


def grow_one_at_a_time(rules: Rules, upto: int, growth: float) -> float:
    """Seconds for tabulate(rules, n), n = 1 .. upto, from an empty cache, with this GROWTH."""
    saved = tables.GROWTH
    tables.GROWTH = growth
    try:
        tables.clear_cache()
        start = time.perf_counter()
        for n in range(1, upto + 1):
            tables.tabulate(rules, n)
        return time.perf_counter() - start
    finally:
        tables.GROWTH = saved


def one_call(rules: Rules, upto: int) -> float:
    tables.clear_cache()
    start = time.perf_counter()
    tables.tabulate(rules, upto)
    return time.perf_counter() - start


def variants(count: int) -> list[Rules]:
    """``count`` different variants of Divisor Duel (different game keys)."""
    found: dict[tuple[object, ...], Rules] = {}
    options = itertools.product(("subtract", "divide"), ("all", "even", "odd", "prime"), (False, True), (True, False))
    for move, divisors, allow_one, normal in options:
        try:
            rules = DIVISOR_DUEL.variant(move=move, divisors=divisors, allow_one=allow_one, last_mover_wins=normal)
        except ValueError:
            continue
        found.setdefault(rules.game, rules)
    return list(found.values())[:count]


CACHE_SCRIPT = """
import json, resource, sys
sys.path[:0] = {path!r}
from bench_growth import variants
from duel_lessons.solving import tables
if {limit!r} is not None:
    tables.set_cache_limit({limit!r})
for rules in variants({count}):
    tables.tabulate(rules, {size})
info = tables.cache_info()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"tables": info.tables, "cache_mb": info.bytes / 2**20, "rss_mb": rss}}))
"""


def cache_run(count: int, size: int, limit: int | None) -> dict[str, float]:
    script = CACHE_SCRIPT.format(path=sys.path, limit=limit, count=count, size=size)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    args = parser.parse_args()
    upto = 10_000 if args.quick else 50_000
    count, size = (6, 10**6) if args.quick else (20, 5 * 10**6)

    tables.tabulate(DIVISOR_DUEL, 100)  # compile (or load) the kernel first
    single = one_call(DIVISOR_DUEL, upto)
    old = grow_one_at_a_time(DIVISOR_DUEL, upto, 1.0)
    new = grow_one_at_a_time(DIVISOR_DUEL, upto, 2.0)
    print(f"growth: tabulate(divisor-duel, n) for n = 1 .. {upto:,}")
    print(f"  one call tabulate(N)           {single:8.3f} s")
    print(f"  one at a time, old (exact)     {old:8.3f} s")
    print(f"  one at a time, geometric (x2)  {new:8.3f} s")
    print(f"  ratio old / geometric          {old / new:8.1f}x")

    limit = tables.DEFAULT_CACHE_BYTES
    print(f"cache: {count} variants' tables of {size:,} numbers each, in a fresh process")
    for label, cap in (("unbounded (old)", 2**62), (f"limit {limit / 2**20:.0f} MB", None)):
        r = cache_run(count, size, cap)
        kept, cached, peak = r["tables"], r["cache_mb"], r["rss_mb"]
        print(f"  {label:18} {kept:3.0f} tables kept, {cached:7.1f} MB cached, peak {peak:7.1f} MB")


if __name__ == "__main__":
    main()
