"""Time a perfect move at n up to 10**18 for every rule book and shipped variant.

Run: ``python benchmarks/bench_players.py``. Target: <= 20 ms per move.
The numbers are chosen to be hard: many divisors, large prime factors, primes, and products of two
primes near 10**9 (the hardest numbers to split below 10**18).  Each move is timed on the clock and
in CPU time; on a machine shared with other jobs the clock time is inflated by the load, so the
verdict says "PASS on CPU" where only the CPU time is within the target.  ``--semiprimes K`` also
times splitting K random products of two primes between 3 * 10**8 and 10**9 (CPU time).
"""

from __future__ import annotations

import random
import sys
import time

import sympy

from duel_lessons import RULEBOOKS, DuelError, GameState
from duel_lessons.engine import numbers
from duel_lessons.play.players import make_player
from duel_lessons.solving.closed_forms import all_closed_forms

TARGET_MS = 20.0

HARD = [
    10**18,
    10**18 - 1,
    10**18 - 2,
    2**59,
    897612484786617600,  # 103,680 divisors
    2 * sympy.prevprime(5 * 10**8) * sympy.nextprime(5 * 10**8),
    3 * sympy.prevprime(3 * 10**8) * sympy.nextprime(10**9),
    sympy.prevprime(10**6 - 100) * sympy.prevprime(10**6) * sympy.nextprime(10**6),  # <= 10**18, the largest number
    sympy.prevprime(10**7) * sympy.nextprime(10**11),
    # Two primes near 10**9, not close enough for Fermat's method: the hardest to split below 10**18.
    sympy.nextprime(999_000_000) * sympy.nextprime(1_000_900_000),
    sympy.nextprime(987_654_321) * sympy.nextprime(1_012_345_678),
    2 * sympy.nextprime(700_000_000) * sympy.nextprime(710_000_000),
]


def measure(echo: bool = True) -> list[tuple[str, float, float]]:
    """A perfect move at each hard number for every variant: (rules, worst clock ms, worst CPU ms) each."""
    variants = list({r.name: r for r in [*RULEBOOKS.values(), *(f.rules for f in all_closed_forms())]}.values())
    player = make_player("perfect")
    began = time.perf_counter()
    numbers.smallest_prime_factor(1_000_003 * 1_000_033)  # once per process: the primes up to 10**6 (numpy)
    if echo:
        print(f"one-off: the primes for trial division, {(time.perf_counter() - began) * 1000:.1f} ms")
        print(f"perfect move at n <= 10**18 ({len(HARD)} hard numbers each), target <= {TARGET_MS:.0f} ms")
        print("(wall time, and in brackets CPU time, which other jobs on the machine do not inflate)")
        print(f"{'rules':34} {'worst ms':>9} {'(CPU)':>7} {'median ms':>10}  {'worst at':<20} verdict")
    rows = []
    for rules in variants:
        times, cpu = [], []
        for n in HARD:
            state = GameState(rules, n)  # fresh: nothing about n computed yet
            numbers._smallest_factor.cache_clear()  # (the factor cache would carry over from the rules before)
            began, began_cpu = time.perf_counter(), time.thread_time()
            try:
                move = player(state)
            except DuelError:
                continue  # no legal move from n (a prime, say)
            times.append(((time.perf_counter() - began) * 1000, n))
            cpu.append((time.thread_time() - began_cpu) * 1000)
            assert rules.allows(move, n), (rules.name, n, move)
        times.sort()
        (worst, at), median = times[-1], times[len(times) // 2][0]
        rows.append((rules.name, worst, max(cpu)))
        verdict = "PASS" if worst <= TARGET_MS else "PASS on CPU" if max(cpu) <= TARGET_MS else "FAIL"
        if echo:
            print(f"{rules.name:34} {worst:9.2f} {max(cpu):7.2f} {median:10.2f}  {at:<20} {verdict}")
    return rows


def main() -> None:
    measure()


def semiprimes(count: int, echo: bool = True) -> list[float]:
    """CPU ms of the perfect move of Division Duel at ``count`` random products of two primes near 10**9, sorted."""
    rng = random.Random(31)
    rules = RULEBOOKS["division-duel"]
    player = make_player("perfect")
    cpu = []
    for _ in range(count):
        p = sympy.nextprime(rng.randrange(3 * 10**8, 10**9))
        q = sympy.nextprime(rng.randrange(p, 10**18 // p))
        numbers._smallest_factor.cache_clear()
        began = time.thread_time()
        move = player(GameState(rules, p * q))
        cpu.append((time.thread_time() - began) * 1000)
        assert move in (p, q)
    cpu.sort()
    if echo:
        print(
            f"\n{count} products of two primes near 10**9, Division Duel, CPU ms: median {cpu[count // 2]:.1f}, "
            f"90% {cpu[int(count * 0.9)]:.1f}, worst {cpu[-1]:.1f}"
        )
    return cpu


if __name__ == "__main__":
    main()
    if "--semiprimes" in sys.argv:
        semiprimes(int(sys.argv[sys.argv.index("--semiprimes") + 1]))
