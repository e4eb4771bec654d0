"""Legal starts: a random legal start in a range, for the terminal, the board and tournaments.

Whether one number may start a game is :meth:`Rules.start_problem` / :meth:`Rules.check_start`.

>>> import random
>>> from duel_lessons.engine.rules import DIVISION_DUEL
>>> n = random_start(DIVISION_DUEL, 10, 99, random.Random(1))
>>> DIVISION_DUEL.start_problem(n) is None
True
"""

from __future__ import annotations

import random

from duel_lessons.engine.errors import BadStartError
from duel_lessons.engine.numbers import MAX_NUMBER, whole_number
from duel_lessons.engine.rules import Rules

#: Ranges up to this size are searched number by number; larger ones are sampled.
SCAN_LIMIT = 10_000
#: Random tries in a large range before giving up.
SAMPLES = 2_000


def random_start(rules: Rules, lo: int, hi: int, rng: random.Random | None = None) -> int:
    """A uniformly random legal start for ``rules`` in lo..hi (BadStartError if none is found)."""
    lo = whole_number(lo, "The lowest start", BadStartError)
    hi = whole_number(hi, "The highest start", BadStartError)
    rng = rng or random.Random()
    if lo > hi:
        raise BadStartError(f"The start range {lo}..{hi} is empty: the first number must not exceed the second.")
    if lo < 1 or hi > MAX_NUMBER:
        raise BadStartError(f"The start range {lo}..{hi} must lie within 1..10**18.")
    if hi - lo < SCAN_LIMIT:
        legal = [n for n in range(lo, hi + 1) if rules.start_problem(n) is None]
        if not legal:
            raise BadStartError(f"No number from {lo} to {hi} can start {rules.title}. {rules.start_rule}")
        return rng.choice(legal)
    for _ in range(SAMPLES):
        n = rng.randint(lo, hi)
        if rules.start_problem(n) is None:
            return n
    raise BadStartError(f"Found no legal start for {rules.title} in {SAMPLES:,} random tries from {lo} to {hi}.")
