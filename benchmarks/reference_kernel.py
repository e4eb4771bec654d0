"""An independent reference for the solver: Divisor Duel's outcome, Grundy value and remoteness, in numba.

Written apart from ``duel_lessons/solving/kernel.py`` (nothing imported from the package): it lists the
divisors of every n with a sieve (for each d, its multiples) into one flat array, then makes one pass
over n = 1 .. N.  ``bench_reference.py`` runs it beside the package's compiled kernel, and the tests of
the benchmark compare the two tables number for number.

Divisor Duel: from n subtract a divisor d with 1 < d < n; a player with no move loses.  Outcome 0 = P,
1 = N; remoteness: the winner hurries (1 + the least remoteness of a P-child), the loser delays (1 + the
largest remoteness of any child).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def divisor_lists(upto: int) -> tuple[np.ndarray, np.ndarray]:
    """(start, divisors): the divisors d of n with 1 < d < n are divisors[start[n]:start[n + 1]]."""
    count = np.zeros(upto + 2, np.int64)
    for d in range(2, upto // 2 + 1):
        for m in range(2 * d, upto + 1, d):
            count[m + 1] += 1
    start = np.cumsum(count)
    divisors = np.empty(start[upto + 1], np.int32)
    free = start.copy()
    for d in range(2, upto // 2 + 1):
        for m in range(2 * d, upto + 1, d):
            divisors[free[m]] = d
            free[m] += 1
    return start, divisors


@njit(cache=True)
def solve(upto: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """outcome (int8), grundy and remoteness (int32) of n = 0 .. upto (index 0 unused)."""
    start, divisors = divisor_lists(upto)
    outcome = np.zeros(upto + 1, np.int8)
    grundy = np.zeros(upto + 1, np.int32)
    remoteness = np.zeros(upto + 1, np.int32)
    mark = np.zeros(256, np.int64)  # mark[g] == n: some move from n reaches grundy value g
    for n in range(1, upto + 1):
        win = -1  # least remoteness of a P-child
        slow = -1  # largest remoteness of any child
        for i in range(start[n], start[n + 1]):
            child = n - divisors[i]
            r = remoteness[child]
            if outcome[child] == 0 and (win < 0 or r < win):
                win = r
            if r > slow:
                slow = r
            mark[grundy[child]] = n
        g = 0
        while mark[g] == n:
            g += 1
        grundy[n] = g
        if win >= 0:
            outcome[n], remoteness[n] = 1, win + 1
        else:
            outcome[n], remoteness[n] = 0, slow + 1  # no move: slow = -1, remoteness 0
    return outcome, grundy, remoteness
