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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import DuelError, Rules
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import TABLE_LIMIT, Table, tabulate

Strategy = Callable[[GameState], int]

#: Up to this number the perfect player reads the solver's table (with remoteness).
DEFAULT_TABLE_SIZE = 10**6
#: The smallest table the players build (tables are sized in powers of 2 from here).
MIN_TABLE = 1024


def table_length(n: int, cap: int) -> int:
    """The table length used for n: the next power of 2 from MIN_TABLE, at most cap."""
    upto = MIN_TABLE
    while upto < n:
        upto *= 2
    return max(min(upto, cap), n)


def table_for(rules: Rules, n: int, size: int = DEFAULT_TABLE_SIZE) -> Table | None:
    """A solver table covering n, or None if n > size.

    Tables grow lazily in powers of 2 (capped at ``size``), so a game from 60
    never builds a table of a million positions; the solver extends its cache.
    """
    return None if n > size else tabulate(rules, table_length(n, size))


def required_table(rules: Rules, n: int) -> Table:
    """A table covering n for rules without a closed form; DuelError above TABLE_LIMIT."""
    if n > TABLE_LIMIT:
        raise DuelError(
            f"{rules.title} ({rules.name}) has no proved closed form, and {n} is above the largest table "
            f"the solver builds ({TABLE_LIMIT:,}), so no perfect move can be computed from {n}."
        )
    return tabulate(rules, table_length(n, TABLE_LIMIT))


def _moves(state: GameState) -> tuple[int, ...]:
    moves = state.legal_moves
    if not moves:
        raise DuelError(f"There is no legal move from {state.number}: the caller must pass or end the game.")
    return moves


def best_from_table(table: Table, rules: Rules, n: int, moves: Sequence[int]) -> int:
    """The best move by the table: the fastest win, or from a lost position the longest delay.

    Ties go to the smallest divisor.
    """
    results = [(d, rules.result(n, d)) for d in moves]
    winning = [(int(table.remoteness[r]), d) for d, r in results if table.is_p(r)]
    if winning:
        return min(winning)[1]
    return min((-int(table.remoteness[r]), d) for d, r in results)[1]


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
    """Perfect play: wins from every N-position, as fast as possible where it can tell.

    Up to ``table_size`` it reads the solver's table: from an N-position the winning
    move with the smallest remoteness, from a P-position the move whose result has
    the largest remoteness (delay, hoping for a mistake).  Above it, it uses the
    proved closed form's winning move; from a P-position there (no remoteness
    known) it plays the smallest legal divisor, a heuristic that keeps the number
    large and the game long.  Variants without a closed form use tables up to the
    solver's TABLE_LIMIT and raise DuelError above it.
    """

    table_size: int = DEFAULT_TABLE_SIZE
    name: str = "Perfect"
    level: str = "perfect"

    def __call__(self, state: GameState) -> int:
        rules, n = state.rules, state.number
        table = table_for(rules, n, self.table_size)
        if table is not None:
            return best_from_table(table, rules, n, _moves(state))
        form = closed_form(rules)
        if form is None:
            return best_from_table(required_table(rules, n), rules, n, _moves(state))
        # Above the table, never list every divisor of n (10**18 can have 10**5 of them).
        if rules.ends_on_reaching(n) is not None or state.passes >= 2:
            return _moves(state)[0]  # the game is over: raises the "no legal move" error
        move = form.winning_move(n)
        if move is None:
            move = rules.smallest_divisor(n)
        return _moves(state)[0] if move is None else move


@dataclass
class CoachPlayer(PerfectPlayer):
    """Plays perfectly and keeps an explanation of its last move, for the lesson's coach panel."""

    name: str = "Coach"
    level: str = "coach"
    last_explanation: str = ""

    def __call__(self, state: GameState) -> int:
        from duel_lessons.play.coach import explain

        move = super().__call__(state)
        self.last_explanation = f"I play {move}. " + explain(state)
        return move


#: The player levels, weakest first, as factories taking an optional seed.
LEVELS: dict[str, Callable[[int | None], Strategy]] = {
    "random": lambda seed: RandomPlayer(seed),
    "greedy": lambda seed: GreedyPlayer(),
    "perfect": lambda seed: PerfectPlayer(),
    "coach": lambda seed: CoachPlayer(),
}


def make_player(level: str, seed: int | None = None) -> Strategy:
    """A computer player of this level ("random", "greedy", "perfect" or "coach")."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise DuelError(f"Unknown player level {level!r}. Known: {', '.join(LEVELS)}.")
    return LEVELS[key](seed)
