"""Compiled inner loops of the solver (see :mod:`duel_lessons.solving.tables`).

Plain Python functions on ints and numpy arrays, compiled with numba.  The
rules arrive as small ints (the codes below), so one compiled version serves
every variant.  With ``NUMBA_DISABLE_JIT=1``, or where numba cannot be imported
(Pyodide/JupyterLite, a machine without it), the same functions run as ordinary
Python: :data:`COMPILED` says which.  Measured (README, Performance): without numba, large tables are solved in
numpy instead (:mod:`duel_lessons.solving.retrograde`), a Divisor Duel table to 10^5 in 0.13-0.42 s
(0.28-0.43 times a naive pure-Python loop run beside it) and to 10^6 in 3.2-7.4 s (load 2 to 16);
compiled, 0.01-0.04 s and 0.1-0.5 s, 2.3-2.4 times as fast as an independent numba kernel.  In one run
of ``benchmarks/bench_issue31.py`` with the machine nearly idle: 0.32 times the naive loop at 10^5, 10^6 in
1.5 s, compiled 2.4 times as fast as the reference (at load 10.5: 0.30 times, 7.4 s, 2.5 times).  So every
lesson runs at full size without numba (``benchmarks/bench_lessons.py``: 2.5-16 s each under nbval).
Until numba is loaded, ranges under :data:`PLAIN_BELOW` numbers run as plain Python (see :func:`solve`).

Arrays: ``spf[n]`` is the smallest prime factor of n (0 for n < 2);
``outcome`` int8 (0 = P, 1 = N), ``grundy`` and ``remoteness`` int32.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

#: How each kernel function is compiled (numba.njit's options), in the order they are compiled: the
#: helpers first, because numba resolves the globals a compiled function calls when it compiles it.
_OPTIONS: dict[str, dict[str, Any]] = {
    "all_divisors": {"error_model": "numpy", "inline": "always"},
    "is_legal": {"error_model": "numpy", "inline": "always"},
    "solve": {"error_model": "numpy"},
    "winning_moves": {"error_model": "numpy"},
}
#: The helpers the other kernel functions call by their module names: compiled, they are rebound there
#: (:func:`solve` and :func:`winning_moves` stay this module's functions, which use :data:`_kernel`).
_HELPERS = ("all_divisors", "is_legal")
#: The compiled kernel once made (name -> function), or the plain functions where numba is missing.
_kernel: dict[str, Callable[..., Any]] = {}
_lock = threading.Lock()


def _load_numba() -> Any:
    """numba's ``njit``, or None where numba cannot be imported or its JIT is disabled (``NUMBA_DISABLE_JIT=1``)."""
    try:
        from numba import config, njit
    except ImportError:  # no numba here (an optional extra): the kernel runs as plain Python
        return None
    return None if getattr(config, "DISABLE_JIT", False) else njit


def _jit(njit: Any, function: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
    """``function`` compiled by numba, cached on disk where numba finds a writable place, else in memory only.

    numba caches beside the code (``__pycache__``) or in ``$NUMBA_CACHE_DIR`` /
    ``~/.cache/numba``; for a user who can write none of them (a read-only home
    and site-packages) it refuses ``cache=True``, and the kernel is compiled
    afresh in each process instead.
    """
    try:
        return njit(cache=True, **options)(function)  # type: ignore[no-any-return]
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return njit(cache=False, **options)(function)  # type: ignore[no-any-return]


def _compiled_kernel() -> dict[str, Callable[..., Any]]:
    """The kernel's functions, compiled by numba on first use (importing numba only then), or plain Python."""
    if not _kernel:
        with _lock:
            if not _kernel:
                njit = _load_numba()
                made: dict[str, Callable[..., Any]] = {}
                for name, options in _OPTIONS.items():
                    plain = globals()[f"_{name}"]
                    made[name] = plain if njit is None else _jit(njit, plain, options)
                    if name in _HELPERS:
                        globals()[name] = made[name]  # what the next ones call, compiled
                _kernel.update(made)
    return _kernel


def compiled() -> bool:
    """Whether the kernel is compiled by numba (numba imported, JIT not disabled): plain Python is ~100 times slower.

    Importing numba takes about half a second, so it is imported only here and
    when a table is first computed, never when this module is imported.
    """
    return _compiled_kernel()["solve"] is not _solve


def __getattr__(name: str) -> bool:
    """``COMPILED``: whether the kernel is compiled (see :func:`compiled`), worked out on first use."""
    if name == "COMPILED":
        return compiled()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Rule codes.
SUBTRACT, DIVIDE = 0, 1
ALL, EVEN, ODD, PRIME = 0, 1, 2, 3
NONE, PRIME_NUMBER, ONE = 0, 1, 2

#: Room for the divisors of any n <= 10**7 (at most 448).
DIVISOR_BUFFER = 1024
#: Length of the scratch array that :func:`solve` takes: divisors, then grundy marks.
WORK_SIZE = 2 * DIVISOR_BUFFER + 1


def sieve(limit: int) -> np.ndarray:
    """Smallest prime factor of every n <= limit (int32; 0 at 0 and 1), in numpy.

    >>> sieve(10).tolist()
    [0, 0, 2, 3, 2, 5, 2, 7, 2, 3, 2]
    """
    spf = np.zeros(limit + 1, np.int32)
    for p in range(2, math.isqrt(limit) + 1):
        if spf[p] == 0:  # p is prime: it is the smallest factor of its unmarked multiples
            multiples = spf[p * p :: p]
            multiples[multiples == 0] = p
    primes = np.flatnonzero(spf == 0)
    spf[primes] = primes
    spf[:2] = 0
    return spf


def _all_divisors(n: int, spf: np.ndarray, out: np.ndarray) -> int:
    """Write every divisor of n (1 and n included, unsorted) into out; return how many."""
    out[0] = 1
    count = 1
    m = n
    while m > 1:  # for each prime power p**k dividing n, multiply the divisors so far by p**k
        p = spf[m]
        size = count
        power = 1
        while m % p == 0:
            m //= p
            power *= p
            for j in range(size):
                out[count] = out[j] * power
                count += 1
    return count


def _is_legal(d: int, n: int, family: int, allow_one: int, spf: np.ndarray) -> bool:
    """Whether the divisor d of n may be played (d < n; 1 only if allowed; d > 1 in the family)."""
    if d == n:
        return False
    if d == 1:
        return allow_one == 1
    if family == EVEN:
        return d % 2 == 0
    if family == ODD:
        return d % 2 == 1
    if family == PRIME:
        return bool(spf[d] == d)
    return True


def _solve(
    lo: int,
    hi: int,
    move: int,
    family: int,
    allow_one: int,
    win_target: int,
    lose_target: int,
    last_mover_wins: int,
    spf: np.ndarray,
    outcome: np.ndarray,
    grundy: np.ndarray,
    remoteness: np.ndarray,
    work: np.ndarray,
) -> None:
    """Fill outcome, grundy and remoteness for lo <= n < hi (every n < lo is done).

    ``work`` is an int64 scratch array of length WORK_SIZE.  Everything is
    written out in this one function: each extra compiled function would add
    to the compile time when the numba cache is empty.
    """
    divisors = work[:DIVISOR_BUFFER]
    seen = work[DIVISOR_BUFFER:]  # seen[g] == n: some move from n leads to grundy value g
    for n in range(lo, hi):
        is_prime = spf[n] == n  # spf[0] = spf[1] = 0
        if (win_target == PRIME_NUMBER and is_prime) or (win_target == ONE and n == 1):
            outcome[n] = 0  # the player who moved here has won
            grundy[n] = 0
            remoteness[n] = 0
            continue
        if (lose_target == PRIME_NUMBER and is_prime) or (lose_target == ONE and n == 1):
            outcome[n] = 1  # the player who moved here has lost
            grundy[n] = 1  # as if the player to move had one move, to a finished game (a P-position)
            remoteness[n] = 1  # the same convention: odd, like every other N-position of a normal-play game
            continue
        count = all_divisors(n, spf, divisors)
        moves = 0
        any_p = False
        fastest_win = 2147483647  # least remoteness of a move to a P-position
        slowest = 0  # largest remoteness of any move
        for i in range(count):
            d = divisors[i]
            if not is_legal(d, n, family, allow_one, spf):
                continue
            moves += 1
            child = n - d if move == SUBTRACT else n // d
            r = remoteness[child]
            if outcome[child] == 0:
                any_p = True
                if r < fastest_win:
                    fastest_win = r
            if r > slowest:
                slowest = r
            seen[grundy[child]] = n
        if moves == 0:  # stuck: the last mover wins in normal play, loses in misere play
            outcome[n] = 0 if last_mover_wins else 1
            grundy[n] = 0
            remoteness[n] = 0
            continue
        g = 0
        while seen[g] == n:
            g += 1
        grundy[n] = g
        outcome[n] = 1 if any_p else 0
        remoteness[n] = 1 + (fastest_win if any_p else slowest)


def _winning_moves(
    lo: int,
    hi: int,
    move: int,
    family: int,
    allow_one: int,
    win_target: int,
    lose_target: int,
    spf: np.ndarray,
    outcome: np.ndarray,
    divisors: np.ndarray,
    starts: np.ndarray,
    found: np.ndarray,
) -> int:
    """List the winning moves of n = lo, lo + 1, ... (smallest first) into ``found``.

    Stops at hi, or earlier when ``found`` has no room left for another n, and
    returns the first n not done.  The moves of n are
    ``found[starts[n - lo]:starts[n - lo + 1]]``.  The caller allocates the
    arrays (int64; ``divisors`` of length DIVISOR_BUFFER, ``found`` longer).
    """
    total = 0
    n = lo
    while n < hi and total + DIVISOR_BUFFER <= len(found):
        starts[n - lo] = total
        first = total
        is_prime = spf[n] == n
        over = (win_target == PRIME_NUMBER and is_prime) or (win_target == ONE and n == 1)
        over = over or (lose_target == PRIME_NUMBER and is_prime) or (lose_target == ONE and n == 1)
        if outcome[n] == 1 and not over:
            count = all_divisors(n, spf, divisors)
            for i in range(count):
                d = divisors[i]
                child = n - d if move == SUBTRACT else n // d
                if is_legal(d, n, family, allow_one, spf) and outcome[child] == 0:
                    found[total] = d
                    total += 1
            for i in range(first + 1, total):  # insertion sort of the few winning moves of n
                d = found[i]
                j = i - 1
                while j >= first and found[j] > d:
                    found[j + 1] = found[j]
                    j -= 1
                found[j + 1] = d
        n += 1
    starts[n - lo] = total
    return n


# What the compiled functions call by name (numba resolves them when it compiles the callers), until
# _compiled_kernel() replaces them with the compiled ones.
all_divisors = _all_divisors
is_legal = _is_legal


#: Until numba has been loaded, ranges of fewer numbers than this run as plain Python: a table of 1,024
#: numbers (the oracle's first, a game board's) takes about 10 ms that way, where importing numba and
#: loading the compiled kernel takes 1-3 s (the game app's first card waited for it).
PLAIN_BELOW = 4096


def solve(*args: Any) -> None:
    """Fill outcome, grundy and remoteness for lo <= n < hi: :func:`_solve`, compiled on first use.

    A short range (under :data:`PLAIN_BELOW` numbers) before the kernel is loaded runs as plain Python,
    without importing numba.
    """
    if not _kernel and args[1] - args[0] < PLAIN_BELOW:
        _solve(*args)
        return
    _compiled_kernel()["solve"](*args)


def winning_moves(*args: Any) -> int:
    """List the winning moves of n = lo, lo + 1, ...: :func:`_winning_moves`, compiled on first use."""
    return int(_compiled_kernel()["winning_moves"](*args))
