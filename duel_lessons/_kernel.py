"""Compiled inner loops of the solver (see :mod:`duel_lessons.solver`).

Plain Python functions on ints and numpy arrays, compiled with numba.  The
rules arrive as small ints (the codes below), so one compiled version serves
every variant.  With ``NUMBA_DISABLE_JIT=1`` they run as ordinary Python.

Arrays: ``spf[n]`` is the smallest prime factor of n (0 for n < 2);
``outcome`` int8 (0 = P, 1 = N), ``grundy`` and ``remoteness`` int32.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Rule codes.
SUBTRACT, DIVIDE = 0, 1
ALL, EVEN, ODD, PRIME = 0, 1, 2, 3
NONE, PRIME_NUMBER, ONE = 0, 1, 2

#: Room for the divisors of any n <= 10**7 (at most 448, plus the move 1).
MOVE_BUFFER = 1024
#: Room for the distinct prime factors (and exponents) of any n < 2**63.
FACTOR_BUFFER = 64
#: Length of the scratch array that :func:`solve` takes.
WORK_SIZE = FACTOR_BUFFER + 2 * MOVE_BUFFER + 1


def sieve(limit: int) -> np.ndarray:
    """Smallest prime factor of every n <= limit (int32; 0 at 0 and 1), in numpy."""
    spf = np.zeros(limit + 1, np.int32)
    for p in range(2, int(limit**0.5) + 1):
        if spf[p] == 0:  # p is prime: it is the smallest factor of its unmarked multiples
            multiples = spf[p * p :: p]
            multiples[multiples == 0] = p
    primes = np.flatnonzero(spf == 0)
    spf[primes] = primes
    spf[:2] = 0
    return spf


@njit(cache=True, error_model="numpy")
def reaches(n: int, target: int, spf: np.ndarray) -> bool:
    """Whether n is of the kind a target code names (prime, one, none)."""
    if target == PRIME_NUMBER:
        return n >= 2 and spf[n] == n
    return target == ONE and n == 1


@njit(cache=True, error_model="numpy")
def list_moves(n: int, family: int, allow_one: int, spf: np.ndarray, primes: np.ndarray, out: np.ndarray) -> int:
    """Write the legal divisors of n into ``out`` (unsorted); return how many."""
    if n < 2:
        return 0
    count = 0
    if allow_one:
        out[0] = 1
        count = 1
    # Distinct prime factors of n, with their exponents, from the sieve.
    k = 0
    m = n
    while m > 1:
        p = spf[m]
        e = 0
        while m % p == 0:
            m //= p
            e += 1
        primes[2 * k] = p
        primes[2 * k + 1] = e
        k += 1
    if family == PRIME:
        for i in range(k):
            if primes[2 * i] < n:
                out[count] = primes[2 * i]
                count += 1
        return count
    # All divisors: start from 1, multiply in each prime power in turn.
    start = count
    out[count] = 1
    count += 1
    for i in range(k):
        p = primes[2 * i]
        size = count - start
        power = 1
        for _ in range(primes[2 * i + 1]):
            power *= p
            for j in range(size):
                out[count] = out[start + j] * power
                count += 1
    # Keep 1 < d < n in the family.
    kept = start
    for j in range(start, count):
        d = out[j]
        if d == 1 or d == n:
            continue
        if family == EVEN and d % 2 == 1:
            continue
        if family == ODD and d % 2 == 0:
            continue
        out[kept] = d
        kept += 1
    return kept


@njit(cache=True, error_model="numpy")
def solve(
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

    ``work`` is an int64 scratch array of length WORK_SIZE.  The divisor listing
    is :func:`list_moves` written out in place, so that this one function is all
    numba has to compile for a table (each extra compiled function costs ~0.5 s
    when the cache is cold).
    """
    factors = work[:FACTOR_BUFFER]  # p0, e0, p1, e1, ...
    moves = work[FACTOR_BUFFER : FACTOR_BUFFER + MOVE_BUFFER]
    seen = work[FACTOR_BUFFER + MOVE_BUFFER :]  # seen[g] == n: some child of n has grundy g
    for n in range(lo, hi):
        is_prime = n >= 2 and spf[n] == n
        if (win_target == PRIME_NUMBER and is_prime) or (win_target == ONE and n == 1):
            outcome[n] = 0  # the player who moved here has won
            grundy[n] = 0
            remoteness[n] = 0
            continue
        if (lose_target == PRIME_NUMBER and is_prime) or (lose_target == ONE and n == 1):
            outcome[n] = 1  # the player who moved here has lost
            grundy[n] = 1
            remoteness[n] = 0
            continue
        # The legal divisors of n, as in list_moves.
        count = 0
        if n >= 2:
            if allow_one:
                moves[0] = 1
                count = 1
            k = 0
            m = n
            while m > 1:
                p = spf[m]
                e = 0
                while m % p == 0:
                    m //= p
                    e += 1
                factors[2 * k] = p
                factors[2 * k + 1] = e
                k += 1
            if family == PRIME:
                for i in range(k):
                    if factors[2 * i] < n:
                        moves[count] = factors[2 * i]
                        count += 1
            else:
                start = count
                moves[count] = 1
                count += 1
                for i in range(k):
                    size = count - start
                    power = 1
                    for _ in range(factors[2 * i + 1]):
                        power *= factors[2 * i]
                        for j in range(size):
                            moves[count] = moves[start + j] * power
                            count += 1
                kept = start
                for j in range(start, count):
                    d = moves[j]
                    if d == 1 or d == n or (family == EVEN and d % 2 == 1) or (family == ODD and d % 2 == 0):
                        continue
                    moves[kept] = d
                    kept += 1
                count = kept
        if count == 0:  # stuck: the last mover wins in normal play, loses in misere play
            outcome[n] = 0 if last_mover_wins else 1
            grundy[n] = 0
            remoteness[n] = 0
            continue
        any_p = False
        fastest_win = 2**31  # smallest remoteness of a P-child
        slowest = 0  # largest remoteness of any child
        for i in range(count):
            child = n - moves[i] if move == SUBTRACT else n // moves[i]
            r = remoteness[child]
            if outcome[child] == 0:
                any_p = True
                fastest_win = min(fastest_win, r)
            slowest = max(slowest, r)
            seen[grundy[child]] = n
        g = 0
        while seen[g] == n:
            g += 1
        grundy[n] = g
        outcome[n] = 1 if any_p else 0
        remoteness[n] = 1 + (fastest_win if any_p else slowest)


@njit(cache=True, error_model="numpy")
def winning_moves(
    lo: int,
    hi: int,
    move: int,
    family: int,
    allow_one: int,
    win_target: int,
    lose_target: int,
    spf: np.ndarray,
    outcome: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Winning moves of every lo <= n < hi, smallest first.

    Returns (starts, moves): the moves of n are ``moves[starts[n - lo]:starts[n - lo + 1]]``.
    """
    primes = np.zeros(FACTOR_BUFFER, np.int64)
    buffer = np.zeros(MOVE_BUFFER, np.int64)
    starts = np.zeros(hi - lo + 1, np.int64)
    found = np.zeros(16, np.int64)
    total = 0
    for n in range(lo, hi):
        starts[n - lo] = total
        if outcome[n] != 1 or reaches(n, win_target, spf) or reaches(n, lose_target, spf):
            continue
        count = list_moves(n, family, allow_one, spf, primes, buffer)
        for i in range(count):
            child = n - buffer[i] if move == SUBTRACT else n // buffer[i]
            if outcome[child] == 0:
                if total == found.size:
                    grown = np.zeros(2 * found.size, np.int64)
                    grown[:total] = found
                    found = grown
                found[total] = buffer[i]
                total += 1
        found[starts[n - lo] : total].sort()
    starts[hi - lo] = total
    return starts, found[:total].copy()
