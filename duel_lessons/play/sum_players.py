"""Computer players for sums of games: random, greedy, perfect (the terminal and the sum board use them).

>>> from duel_lessons.play.sums import new_sum
>>> make_sum_player("greedy")(new_sum([4, 6]))
(1, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from duel_lessons.engine.errors import DuelError
from duel_lessons.play.sums import PerfectSumPlayer, SumMove, SumState

#: A computer player for sums: given the position, return (component index from 0, divisor).
SumStrategy = Callable[[SumState], SumMove]


@dataclass
class RandomSumPlayer:
    """Plays a uniformly random legal move (seeded)."""

    seed: int | None = None

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def __call__(self, state: SumState) -> SumMove:
        return self._rng.choice(state.legal_moves)


def greedy_sum_player(state: SumState) -> SumMove:
    """Plays the largest divisor anywhere (the first component on ties)."""
    return max(state.legal_moves, key=lambda move: (move[1], -move[0]))


def make_sum_player(level: str, seed: int | None = None) -> SumStrategy:
    """A computer player for sums: "random", "greedy", "perfect" or "coach" (plays perfectly)."""
    if level == "random":
        return RandomSumPlayer(seed)
    if level == "greedy":
        return greedy_sum_player
    if level in ("perfect", "coach"):
        return PerfectSumPlayer()
    raise DuelError(f"Unknown player level {level!r} for sums. Known: random, greedy, perfect, coach.")
