"""What happens in a game: the players and the events of its history.

>>> Moved(1, 12, 6, 6), other(1)
(Moved(player=1, before=12, divisor=6, after=6), 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Ending", "Event", "LostTurn", "Moved", "Passed", "Player", "other"]

Player = Literal[1, 2]


@dataclass(frozen=True)
class Moved:
    """Player ``player`` played divisor ``divisor``, taking ``before`` to ``after``."""

    player: Player
    before: int
    divisor: int
    after: int


@dataclass(frozen=True)
class Passed:
    """Player ``player`` had no legal move from ``number`` and passed."""

    player: Player
    number: int


@dataclass(frozen=True)
class LostTurn:
    """Player ``player`` named ``value``, not a legal divisor of ``number``, and lost the turn."""

    player: Player
    number: int
    value: int
    reason: str


Event = Moved | Passed | LostTurn
Ending = Literal["stuck", "passes", "reached-win", "reached-loss"]


def other(player: int) -> Player:
    """The other player: 1 <-> 2."""
    return 2 if player == 1 else 1
