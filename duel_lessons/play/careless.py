"""A careless player against a careful one: the seeded simulation of lesson 07 (what a slip costs).

The careless player names a wrong number (2 .. N-1, not a divisor) with probability q on each try, else
the perfect move.  Under book 004's rule a slip loses the turn; under the other books' rule the player
is asked again.

>>> simulate([0, 1], games=4, start_range=(10, 20), seed=1)
([0.5, 0.0], [0.5, None])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from duel_lessons.engine.game import GameState, new_game, play_out
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.play.players import make_player

__all__ = ["careless_wins", "simulate"]


def careless_wins(rules: Rules, start: int, careless_first: bool, q: float, rng: random.Random) -> bool:
    """Play one game, careless Player 1 against perfect Player 2; True if the careless player wins.

    >>> careless_wins(get_rules("number-factor"), 30, True, 0.0, random.Random(1))
    True
    """
    perfect = make_player("perfect")
    retry = rules.on_invalid == "retry"

    def careless(state: GameState) -> int:
        n = state.number
        wrong = [k for k in range(2, n) if n % k]
        while wrong and rng.random() < q:  # a slip
            slip = rng.choice(wrong)
            if not retry:
                return slip  # book 004: a slip loses the turn (play_out applies the book's rule)
            # ask-again rules refuse the slip: the player tries again
        return perfect(state)

    state = play_out(new_game(rules, start, first=1 if careless_first else 2), {1: careless, 2: perfect})
    return state.winner == 1


def simulate(
    q_values: Sequence[float], games: int, start_range: tuple[int, int], seed: int, rules: Rules | str = "number-factor"
) -> tuple[list[float], list[float | None]]:
    """The careless player's win rate for each q: under the book's lose-the-turn rule, and with ask-again.

    ``None`` where the ask-again game could never end (q = 1).  Games alternate who starts, careless first.
    """
    book = get_rules(rules)
    retry = book.variant(on_invalid="retry")
    lo, hi = start_range
    starts = [n for n in range(lo, hi + 1) if book.start_problem(n) is None] or [30]
    rng = random.Random(seed)

    def rate(game_rules: Rules, q: float) -> float:
        wins = sum(careless_wins(game_rules, rng.choice(starts), i % 2 == 0, q, rng) for i in range(games))
        return wins / games

    lose_turn = [rate(book, q) for q in q_values]
    ask_again: list[float | None] = [rate(retry, q) if q < 1 else None for q in q_values]
    return lose_turn, ask_again
