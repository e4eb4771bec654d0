"""Computer players: strategies that pick a divisor for a game state.

A strategy is any callable ``state -> divisor``; the caller plays it with
``state.play(d)``.  Players are only asked when ``state.legal_moves`` is not
empty (the caller handles passes and the end of the game).

>>> from duel_lessons.engine.game import new_game
>>> make_player("perfect")(new_game("divisor-duel", 60))  # 60 - 3 = 57: the fastest win
3
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState
from duel_lessons.solving.oracle import DEFAULT_TABLE_SIZE, oracle

__all__ = [
    "LEVELS",
    "CoachPlayer",
    "GreedyPlayer",
    "PerfectPlayer",
    "RandomPlayer",
    "Strategy",
    "make_player",
]

Strategy = Callable[[GameState], int]


def _moves(state: GameState) -> tuple[int, ...]:
    moves = state.legal_moves
    if not moves:
        raise DuelError(f"There is no legal move from {state.number}: the caller must pass or end the game.")
    return moves


@dataclass
class RandomPlayer:
    """Plays a uniformly random legal divisor (seeded for reproducible games)."""

    seed: int | None = None
    name: str = "Random"
    level: str = "random"
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def __call__(self, state: GameState) -> int:
        return self._rng.choice(_moves(state))


@dataclass
class GreedyPlayer:
    """Always plays the largest legal divisor (a tempting but naive strategy)."""

    name: str = "Greedy"
    level: str = "greedy"

    def __call__(self, state: GameState) -> int:
        return _moves(state)[-1]


@dataclass
class PerfectPlayer:
    """Perfect play: the oracle's best move (:meth:`~duel_lessons.solving.oracle.Oracle.best_move`).

    Up to ``table_size`` the fastest win, or from a lost position the longest delay; above it
    the proved closed form's winning move, or a documented heuristic from a lost position.
    Variants without a closed form raise TooBigError (a DuelError) above the solver's limit.
    """

    table_size: int = DEFAULT_TABLE_SIZE
    name: str = "Perfect"
    level: str = "perfect"

    def __call__(self, state: GameState) -> int:
        # Never state.legal_moves here: above the table that would list every divisor of n (10**5 at 10**18).
        move = None if state.passes >= 2 else oracle(state.rules, self.table_size).best_move(state.number)
        if move is None:
            raise DuelError(f"There is no legal move from {state.number}: the caller must pass or end the game.")
        return move


@dataclass
class CoachPlayer(PerfectPlayer):
    """Plays perfectly and keeps an explanation of its last move, for the lesson's coach panel."""

    name: str = "Coach"
    level: str = "coach"
    last_explanation: str = ""

    def __call__(self, state: GameState) -> int:
        move = super().__call__(state)
        self.last_explanation = f"I play {move}. " + oracle(state.rules, self.table_size).explain(state.number)
        return move


#: The player levels, weakest first, as factories taking an optional seed.
LEVELS: dict[str, Callable[[int | None], Strategy]] = {
    "random": lambda seed: RandomPlayer(seed),
    "greedy": lambda seed: GreedyPlayer(),
    "perfect": lambda seed: PerfectPlayer(),
    "coach": lambda seed: CoachPlayer(),
}


def make_player(level: str, seed: int | None = None) -> Strategy:
    """A computer player of this level ("random", "greedy", "perfect" or "coach"); DuelError otherwise.

    >>> make_player(None)
    Traceback (most recent call last):
    ...
    duel_lessons.engine.errors.DuelError: A player level is text such as 'perfect', not None.
    """
    if not isinstance(level, str):
        raise DuelError(f"A player level is text such as 'perfect', not {level!r}.")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise DuelError(f"A seed is a whole number or None, not {seed!r}.")
    key = level.strip().lower()
    if key not in LEVELS:
        raise DuelError(f"Unknown player level {level!r}. Known: {', '.join(LEVELS)}.")
    return LEVELS[key](seed)
