"""The solver without numba: whole tables by retrograde analysis in numpy (no loop over n in Python).

Where numba is missing (Pyodide/JupyterLite, a school machine), :mod:`duel_lessons.solving.tables`
fills large tables here instead of running :mod:`~duel_lessons.solving.kernel`'s loop as plain
Python.  The results are the kernel's, number for number (the same conventions; the tests compare
both with a brute force over the game engine).  How:

1. **Moves, backwards.**  For every number c, the numbers m <= upto with a legal move m -> c, as
   one array (CSR: ``parents[start[c]:start[c + 1]]``).  Subtracting d from m gives c exactly when
   d divides c and m = c + d, so the parents of c come from c's own divisors, listed for all c at
   once from the smallest-prime-factor sieve; dividing, they are c × d for the allowed d up to
   upto / c.  The number of moves of m is how often m occurs.
2. **Outcome and remoteness, in rounds of remoteness r = 0, 1, 2, ...**  The finished numbers
   start it; each round takes every number decided with remoteness r: the undecided parents of a
   P-position become N-positions with remoteness r + 1 (the winner's fastest win), and each
   N-position takes one from the count of its parents' undecided moves; a parent whose count
   reaches 0 is a P-position with remoteness r + 1 (the loser's longest delay).
3. **Grundy values, one value k at a time** (normal play only).  The numbers of value k are the
   P-positions of the game restricted to the numbers of value >= k (each still has children of
   every value below k), so the same backward counting, without rounds, finds them; the numbers
   left over have value above k.

Each round is a few numpy operations on the numbers it touches, so the work is the number of moves
(about N ln N) plus a small cost per round.  The number of rounds is the largest remoteness (90
for Divisor Duel to 10^6, 1,918 with prime divisors only).

>>> import numpy as np
>>> from duel_lessons.solving.kernel import sieve
>>> outcome, grundy, remoteness = (np.full(13, -1, t) for t in (np.int8, np.int32, np.int32))
>>> solve(1, 13, 0, 0, 0, 0, 0, 1, sieve(12), outcome, grundy, remoteness)
>>> outcome[1:].tolist(), int(grundy[12]), int(remoteness[12])
([0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1], 3, 3)
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from duel_lessons.solving.kernel import EVEN, ODD, ONE, PRIME, PRIME_NUMBER, SUBTRACT

#: After this many steps of one round of Grundy values, a step that decides fewer than _FEW numbers
#: means a long chain (one step per number): the round is then finished in order of n (:func:`_finish`).
_WAVES, _FEW = 256, 16
#: Numbers per slice when the moves are listed (bounds the temporary arrays: about 100 bytes a number).
_SLICE = 1 << 16


def _divisors(values: np.ndarray, spf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every divisor of each of ``values`` (all >= 1): (owner index, divisor), grouped by owner in order.

    >>> from duel_lessons.solving.kernel import sieve
    >>> owner, d = _divisors(np.array([12, 1, 7]), sieve(12))
    >>> owner.tolist(), sorted(d[owner == 0].tolist()), d[owner == 1].tolist(), sorted(d[owner == 2].tolist())
    ([0, 0, 0, 0, 0, 0, 1, 2, 2], [1, 2, 3, 4, 6, 12], [1], [1, 7])
    """
    size = len(values)
    owner = np.arange(size, dtype=np.int64)
    divisor = np.ones(size, np.int64)
    rest = values.astype(np.int64)
    active = np.flatnonzero(rest > 1)
    exponent = np.zeros(size, np.int64)
    prime = np.ones(size, np.int64)
    while active.size:  # one distinct prime factor of each active value per pass (at most 8 passes)
        r = rest[active]
        p = spf[r].astype(np.int64)
        e = np.zeros(len(active), np.int64)
        still = np.arange(len(active))
        while still.size:  # strip p from every value that still has it
            r[still] //= p[still]
            e[still] += 1
            still = still[r[still] % p[still] == 0]
        rest[active] = r
        exponent[:] = 0
        exponent[active] = e
        prime[active] = p
        copies = exponent[owner] + 1  # each divisor so far times p**0, ..., p**e
        owner = np.repeat(owner, copies)
        first = np.cumsum(copies) - copies
        power = np.arange(len(owner), dtype=np.int64) - np.repeat(first, copies)
        divisor = np.repeat(divisor, copies) * prime[owner] ** power
        active = active[r > 1]
    return owner, divisor


def _distinct_primes(values: np.ndarray, spf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct prime factors of each of ``values``: (owner index, prime), grouped by owner."""
    owners, primes = [], []
    rest = values.astype(np.int64)
    active = np.flatnonzero(rest > 1)
    while active.size:
        r = rest[active]
        p = spf[r].astype(np.int64)
        owners.append(active)
        primes.append(p)
        still = np.arange(len(active))
        while still.size:
            r[still] //= p[still]
            still = still[r[still] % p[still] == 0]
        rest[active] = r
        active = active[r > 1]
    if not owners:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    owner, prime = np.concatenate(owners), np.concatenate(primes)
    order = np.argsort(owner, kind="stable")
    return owner[order], prime[order]


def _moves_into(
    cs: np.ndarray, upto: int, move: int, family: int, allow_one: int, spf: np.ndarray, primes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For the numbers ``cs`` (ascending, >= 1): (owner index, parent m <= upto with a legal move m -> c)."""
    if move == SUBTRACT:  # m = c + d, d a divisor of c allowed from m (d | m, d < m hold by themselves)
        if family == PRIME:
            owner, d = _distinct_primes(cs, spf)
        elif family == EVEN:
            even = np.flatnonzero(cs % 2 == 0)
            sub, half = _divisors(cs[even] // 2, spf)
            owner, d = even[sub], 2 * half
        elif family == ODD:
            low = (cs & -cs).astype(np.int64)  # the power of 2 in c
            owner, d = _divisors(cs // low, spf)
            keep = d > 1
            owner, d = owner[keep], d[keep]
        else:
            owner, d = _divisors(cs, spf)
            keep = d > 1
            owner, d = owner[keep], d[keep]
        if allow_one:  # d = 1 divides everything
            owner = np.concatenate([owner, np.arange(len(cs), dtype=np.int64)])
            d = np.concatenate([d, np.ones(len(cs), np.int64)])
            order = np.argsort(owner, kind="stable")
            owner, d = owner[order], d[order]
        parent = cs[owner] + d
    else:  # m = c × d for an allowed d >= 2 with c × d <= upto (and c >= 2, so that d < m)
        most = np.where(cs >= 2, upto // cs, 1)
        if family == PRIME:
            count = np.searchsorted(primes, most, side="right")
        elif family == EVEN:
            count = most // 2
        elif family == ODD:
            count = (most - 1) // 2
        else:
            count = most - 1
        owner = np.repeat(np.arange(len(cs), dtype=np.int64), count)
        j = np.arange(len(owner), dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)
        if family == PRIME:
            d = primes[j]
        elif family == EVEN:
            d = 2 + 2 * j
        elif family == ODD:
            d = 3 + 2 * j
        else:
            d = 2 + j
        parent = cs[owner] * d
    keep = parent <= upto
    return owner[keep], parent[keep]


def _subtraction_moves(upto: int, family: int, allow_one: int, primes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, parents) of the subtraction game: parents[start[c]:start[c + 1]] are the m = c + d <= upto, d | c.

    Every divisor pair c = a × b with a <= b is met once, for a = 1 .. sqrt(upto): the divisor a
    gives the parent c + a, the divisor b > a the parent c + b = b × (a + 1).  Each is a run of c in
    steps of a (or 2a, for even or odd b): numpy slices, except for prime b.

    >>> start, parents = _subtraction_moves(12, 0, 0, np.array([2, 3, 5, 7, 11]))  # 0: all divisors
    >>> sorted(parents[start[6] : start[7]].tolist())  # 6 + 2, 6 + 3, 6 + 6
    [8, 9, 12]
    """
    size = upto + 1
    prime_set = set(primes[: np.searchsorted(primes, math.isqrt(upto), side="right")].tolist())

    def allowed(d: int) -> bool:
        if d == 1:
            return bool(allow_one)
        return {EVEN: d % 2 == 0, ODD: d % 2 == 1, PRIME: d in prime_set}.get(family, True)

    # Runs of c: (first c, step, how many, first parent, parent step), or (c array, parent array) for prime b.
    runs: list[tuple[int, int, int, int, int] | tuple[np.ndarray, np.ndarray]] = []
    for a in range(1, math.isqrt(upto) + 1):
        last = (upto - a) // a  # the divisor a: b from a while c + a <= upto
        if allowed(a) and last >= a:
            runs.append((a * a, a, last - a + 1, a * a + a, a))
        low, high = a + 1, upto // (a + 1)  # the divisor b > a: b × (a + 1) <= upto
        if high < low:
            continue
        if family == PRIME:
            b = primes[np.searchsorted(primes, low) : np.searchsorted(primes, high, side="right")]
            if b.size:
                runs.append((a * b, (a + 1) * b))
            continue
        step = 1
        if family in (EVEN, ODD):
            step = 2
            low += (low % 2) != (0 if family == EVEN else 1)
        if high >= low:
            runs.append((a * low, a * step, (high - low) // step + 1, (a + 1) * low, (a + 1) * step))
    counts = np.zeros(size + 1, np.int64)
    for run in runs:
        if len(run) == 2:
            counts[run[0] + 1] += 1
        else:
            first, step, count = run[0], run[1], run[2]
            counts[first + 1 : first + 1 + step * count : step] += 1
    start = np.cumsum(counts)
    parents = np.zeros(int(start[-1]), np.int32)
    free = start[:-1].copy()  # the next free place of each c
    for run in runs:
        if len(run) == 2:
            cs, ms = run
            parents[free[cs]] = ms
            free[cs] += 1
        else:
            first, step, count, parent, parent_step = run
            where = slice(first, first + step * count, step)
            parents[free[where]] = np.arange(parent, parent + parent_step * count, parent_step)
            free[where] += 1
    return start, parents


def _gather(start: np.ndarray, parents: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """The parents of every number in ``nodes``, concatenated."""
    first = start[nodes]
    count = start[nodes + 1] - first
    total = int(count.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    shift = np.repeat(first - (np.cumsum(count) - count), count)
    found: np.ndarray = parents[np.arange(total, dtype=np.int64) + shift]
    return found


def _count(counter: np.ndarray, numbers: np.ndarray, sign: int) -> None:
    """Add ``sign`` to ``counter`` once for each time a number occurs in ``numbers`` (repeats counted)."""
    if len(numbers) * 8 > len(counter):
        counter += sign * np.bincount(numbers, minlength=len(counter))
    elif sign > 0:
        np.add.at(counter, numbers, 1)
    else:
        np.subtract.at(counter, numbers, 1)


def _unique(values: np.ndarray, stamp: np.ndarray) -> np.ndarray:
    """``values`` without repeats (in first-seen order), using ``stamp`` (int64, one slot per number) as scratch."""
    if len(values) < 2:
        return values
    index = np.arange(len(values), dtype=np.int64)
    stamp[values] = index
    first: np.ndarray = values[stamp[values] == index]
    return first


def _finish(
    start: np.ndarray, parents: np.ndarray, ones: np.ndarray, todo: np.ndarray, state: np.ndarray
) -> np.ndarray:
    """Finish a round of Grundy value k in order of n, one number at a time (state: 1 = value k, 2 = above).

    Used when the backward counting has narrowed to a few numbers at a time (a long chain of moves,
    as with prime divisors only, where it would take one round per number).  Taken in increasing
    order, every undecided n has all its children decided, and none of value k (a child of value k
    marks its parents above k when it is found), so n has value k.  Returns ``ones`` and the numbers
    found to have value k.
    """
    found: list[int] = []
    if ones.size:
        up = _gather(start, parents, ones)
        state[up[state[up] == 0]] = 2
    marks = state.tolist()
    first = start.tolist()
    for n in np.flatnonzero(todo & (state == 0)).tolist():
        if marks[n] == 0:
            marks[n] = 1
            found.append(n)
            for m in parents[first[n] : first[n + 1]].tolist():
                if marks[m] == 0:
                    marks[m] = 2
    state[:] = marks
    return np.concatenate([ones, np.array(found, np.int64)])


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
    progress: Callable[[float], None] | None = None,
) -> None:
    """Fill outcome, grundy and remoteness for lo <= n < hi (every 1 <= n < lo is done), as the kernel does.

    The arguments are :func:`duel_lessons.solving.kernel.solve`'s (without its scratch array), with
    ``hi - 1`` the table's last number.  ``progress`` is called with the fraction done (not with 1.0).
    """
    upto = hi - 1
    if upto < lo:
        return
    size = upto + 1
    primes = np.flatnonzero(spf[: upto + 1] == np.arange(upto + 1)).astype(np.int64)
    primes = primes[primes >= 2]

    numbers = np.arange(size, dtype=np.int64)
    is_prime = (spf[:size] == numbers) & (numbers >= 2)

    # 1. the moves, backwards: parents[start[c]:start[c + 1]] are the m with a move m -> c
    if move == SUBTRACT:
        start, parents = _subtraction_moves(upto, family, allow_one, primes)
    else:
        pieces, counts = [], np.zeros(size + 1, np.int64)
        for first in range(1, size, _SLICE):
            cs = np.arange(first, min(first + _SLICE, size), dtype=np.int64)
            owner, parent = _moves_into(cs, upto, move, family, allow_one, spf, primes)
            counts[first + 1 : first + 1 + len(cs)] = np.bincount(owner, minlength=len(cs))
            pieces.append(parent.astype(np.int32))
        start = np.cumsum(counts)
        parents = np.concatenate(pieces) if pieces else np.zeros(0, np.int32)
        del pieces
    moves = np.bincount(parents, minlength=size).astype(np.int64)
    if progress is not None:
        progress(0.3)

    # 2. outcome and remoteness, round by round
    decided = np.zeros(size, bool)
    decided[1:lo] = True
    new = np.zeros(size, bool)
    new[lo:] = True
    won = np.zeros(size, bool)  # reaching n won for the player who moved there
    if win_target == PRIME_NUMBER:
        won |= is_prime
    elif win_target == ONE:
        won[1] = True
    lost = np.zeros(size, bool)  # reaching n lost for the player who moved there
    if lose_target == PRIME_NUMBER:
        lost |= is_prime
    elif lose_target == ONE:
        lost[1] = True
    lost &= ~won
    won &= new
    lost &= new
    stuck = new & ~won & ~lost & (moves == 0)
    outcome[won], grundy[won], remoteness[won] = 0, 0, 0
    outcome[lost], grundy[lost], remoteness[lost] = 1, 1, 1
    outcome[stuck], grundy[stuck], remoteness[stuck] = (0 if last_mover_wins else 1), 0, 0
    decided |= won | lost | stuck
    decided[0] = True
    left = moves.copy()  # moves of each number to numbers not yet known to be N-positions
    to_p = np.zeros(size, np.int64)  # moves of each number to P-positions (value 0)
    stamp = np.zeros(size, np.int64)
    seeds = np.flatnonzero(decided[1:]) + 1
    rounds = np.bincount(remoteness[seeds], minlength=2)
    order = seeds[np.argsort(remoteness[seeds], kind="stable")]
    bounds = np.concatenate([[0], np.cumsum(rounds)])
    carried: list[np.ndarray] = []  # numbers decided in the round before, with remoteness r
    r = 0
    while r < len(rounds) or carried:
        layer = [order[bounds[r] : bounds[r + 1]]] if r < len(rounds) else []
        now = np.concatenate(layer + carried) if layer or carried else np.zeros(0, np.int64)
        carried = []
        if now.size:
            losing = now[outcome[now] == 0]
            if losing.size:  # a move to a P-position wins: its undecided parents are N, remoteness r + 1
                up = _gather(start, parents, losing)
                _count(to_p, up, 1)
                up = _unique(up[~decided[up]], stamp)
                if up.size:
                    decided[up] = True
                    outcome[up], remoteness[up] = 1, r + 1
                    carried.append(up.astype(np.int64))
            winning = now[outcome[now] == 1]
            if winning.size:  # one more move of each parent leads to an N-position
                up = _gather(start, parents, winning)
                up = up[~decided[up]]
                if up.size:
                    _count(left, up, -1)
                    up = _unique(up[left[up] == 0], stamp)
                    if up.size:  # every move leads to an N-position: P, remoteness r + 1 (the longest delay)
                        decided[up] = True
                        outcome[up], remoteness[up] = 0, r + 1
                        carried.append(up.astype(np.int64))
        r += 1
    if progress is not None:
        progress(0.6)

    # 3. Grundy values (normal play), one value at a time
    if not last_mover_wins:
        return
    grundy[lo:][~(won | lost | stuck)[lo:]] = -1
    todo = new & (grundy[:size] < 0)
    if not todo.any():
        return
    # value 0: exactly the P-positions
    grundy[todo & (outcome[:size] == 0)] = 0
    todo &= outcome[:size] != 0
    above = moves - to_p  # moves of each number to values >= k
    k = 1
    state = np.zeros(size, np.int8)  # in round k: 1 = value k, 2 = value above k
    while todo.any():
        state[:] = 0
        g = grundy[:size]
        state[(g > k) & ~todo] = 2
        count = above.copy()  # moves to numbers of value >= k not yet known to be above k
        hit = (todo & (count == 0)) | (~todo & (g == k))
        state[hit] = 1
        ones, twos = np.flatnonzero(hit), np.flatnonzero(state == 2)
        waves = 0
        while ones.size or twos.size:
            waves += 1
            if waves > _WAVES and ones.size + twos.size < _FEW:  # a long chain: finish it in order of n
                rest = _finish(start, parents, ones, todo, state)
                _count(above, _gather(start, parents, rest), -1)
                break
            fresh = []
            if ones.size:  # a move to value k: the parent's value is above k
                up = _gather(start, parents, ones)
                _count(above, up, -1)
                up = _unique(up[todo[up] & (state[up] == 0)], stamp)
                state[up] = 2
                fresh.append(up)
            found = np.zeros(0, np.int64)
            if twos.size:  # one more move to a value above k
                up = _gather(start, parents, twos)
                up = up[todo[up] & (state[up] == 0)]
                if up.size:
                    _count(count, up, -1)
                    found = _unique(up[count[up] == 0], stamp).astype(np.int64)
                    state[found] = 1
            ones = found
            twos = fresh[0].astype(np.int64) if fresh else np.zeros(0, np.int64)
        value_k = np.flatnonzero(state == 1)
        grundy[value_k[todo[value_k]]] = k
        todo[value_k] = False
        k += 1
        if progress is not None:
            progress(0.6 + 0.4 * (1 - 1 / (k + 1)))
