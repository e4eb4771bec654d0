"""How far a conjecture test reaches: the numbers beyond the data it also tries, and what a rule must fit.

A student's rule is tested on n = 1 .. UPTO (the data) and then on a few hundred larger numbers
(:func:`beyond`), up to as far as the truth answers quickly (the truth's ``reach``), so a rule
with a list of exceptions is refuted.  A reveal opened by a test needs a rule that agrees with the
truth on the numbers the lesson's data showed, 1 .. :data:`SHOWN`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Params = Mapping[str, Any]

#: A reveal opened by a conjecture test needs a rule that agrees with the truth for n = 1 .. SHOWN (the data seen).
SHOWN = 30
#: The furthest a conjecture test reaches beyond the data, and how many numbers it tries there.
FURTHEST = 10**12
BEYOND = 300


def reach_of(reach: int | str, params: Params) -> int:
    value = params.get(reach, 0) if isinstance(reach, str) else reach
    return min(int(value), FURTHEST) if isinstance(value, int) else 0


def answered_by(truth: Callable[[int], bool], numbers: list[int]) -> list[int]:
    """``numbers`` up to the first the truth cannot answer (a table that ends there, say)."""
    for i, n in enumerate(numbers):
        try:
            truth(n)
        except Exception:
            return numbers[:i]
    return numbers


def beyond(upto: int, reach: int) -> list[int]:
    """The numbers above ``upto`` (and at most ``reach``) that a conjecture test also tries, smallest first.

    The next 100 numbers, the powers of 2 and of 10 with their neighbours, 3 × 2ᵏ, and numbers spread
    evenly (by a fixed seed) up to ``reach``: at most :data:`BEYOND` of them.

    >>> beyond(10, 20)
    [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
    >>> len(beyond(10_000, 10**12)), beyond(10_000, 10**12)[-1] <= 10**12, 2**15 in beyond(10_000, 10**12)
    (300, True, True)
    >>> beyond(100, 0)
    []
    """
    import random

    if reach <= upto:
        return []
    special = set(range(upto + 1, upto + 101))
    for k in range(1, reach.bit_length() + 1):
        special |= {2**k - 1, 2**k, 2**k + 1, 3 * 2**k}
    for k in range(1, 13):
        special |= {10**k - 1, 10**k, 10**k + 1}
    chosen = sorted(n for n in special if upto < n <= reach)
    if len(chosen) > BEYOND - 50:
        chosen = chosen[:100] + chosen[100 :: max(1, (len(chosen) - 100) // (BEYOND - 150))][: BEYOND - 150]
    spread = random.Random(27)
    while len(set(chosen)) < min(BEYOND, reach - upto):
        chosen.append(spread.randint(upto + 1, reach))
    return sorted(set(chosen))[:BEYOND]
