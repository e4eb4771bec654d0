"""The game engine: an immutable, hashable game state, and the one game loop.

>>> g = new_game("divisor-duel", 12)
>>> g.legal_moves
(2, 3, 4, 6)
>>> g.play(6).number
6
>>> play_out(g, {1: lambda s: s.legal_moves[-1], 2: lambda s: s.legal_moves[0]}).winner
1
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from html import escape
from typing import Any, Final, Protocol, SupportsIndex, TypeVar

from duel_lessons.engine.errors import DuelError, GameOverError, IllegalMoveError, TurnLimitError
from duel_lessons.engine.events import Ending, Event, LostTurn, Moved, Passed, Player, other
from duel_lessons.engine.numbers import position
from duel_lessons.engine.rules import Rules, get_rules

__all__ = [
    "MAX_TURNS",
    "PASS",
    "WAIT",
    "DuelError",
    "Event",
    "GameOverError",
    "GameState",
    "IllegalMoveError",
    "LostTurn",
    "Moved",
    "Passed",
    "Player",
    "Position",
    "Signal",
    "Strategy",
    "TurnLimitError",
    "new_game",
    "other",
    "play_out",
]


@dataclass(frozen=True, repr=False)
class GameState:
    """A position in a game: rules, current number, player to move, passes, history.

    States never change: :meth:`play`, :meth:`pass_turn` and :meth:`attempt`
    return new states.  Use :func:`new_game` to check the start against the book.
    """

    rules: Rules  # a book name is looked up
    number: int
    to_move: Player = 1
    passes: int = 0
    history: tuple[Event, ...] = ()

    def __post_init__(self) -> None:
        # A book name is accepted like everywhere else (new_game, tabulate, analyse): GameState("divisor-duel", 12).
        if not isinstance(self.rules, Rules):
            object.__setattr__(self, "rules", get_rules(self.rules))
        object.__setattr__(self, "number", position(self.number))
        if isinstance(self.to_move, bool) or self.to_move not in (1, 2):
            raise DuelError(f"The player to move must be 1 or 2, not {self.to_move!r}.")
        object.__setattr__(self, "to_move", 1 if self.to_move == 1 else 2)
        if isinstance(self.passes, bool) or self.passes not in (0, 1, 2):
            raise DuelError(f"The passes in a row must be 0, 1 or 2, not {self.passes!r}.")
        object.__setattr__(self, "passes", int(self.passes))

    # -- what can happen now --------------------------------------------------

    @cached_property
    def legal_moves(self) -> tuple[int, ...]:
        """The divisors the player to move may play, smallest first (empty when over)."""
        if self.rules.ends_on_reaching(self.number) is not None or self.passes >= 2:
            return ()
        return self.rules.divisors_of(self.number)

    @cached_property
    def ending(self) -> Ending | None:
        """How the game ended, or None while it goes on."""
        reached = self.rules.ends_on_reaching(self.number)
        if reached is not None:
            return "reached-win" if reached == "win" else "reached-loss"
        if self.legal_moves:
            return None
        if self.rules.when_stuck == "end":
            return "stuck"
        return "passes" if self.passes >= 2 else None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.ending is not None

    @property
    def must_pass(self) -> bool:
        """Whether the player to move has no legal move and must pass."""
        return self.ending is None and not self.legal_moves

    @property
    def winner(self) -> Player | None:
        """The winning player (1 or 2), or None while the game goes on."""
        ending = self.ending
        if ending is None:
            return None
        # In every ending but one, the "last mover" is the player not to move:
        # after two passes the turn is back with the player who did not move last.
        last_mover = other(self.to_move)
        if ending == "reached-loss":
            return self.to_move
        if ending == "reached-win" or self.rules.last_mover_wins:
            return last_mover
        return self.to_move

    @property
    def loser(self) -> Player | None:
        """The losing player, or None while the game goes on."""
        return None if self.winner is None else other(self.winner)

    @property
    def start(self) -> int:
        """The number the game started from."""
        for event in self.history:
            return event.before if isinstance(event, Moved) else event.number
        return self.number

    # -- moves ----------------------------------------------------------------

    def check(self, divisor: object) -> str | None:
        """The reason ``divisor`` cannot be played now, or None if it can."""
        if self.is_over:
            return "the game is over"
        if isinstance(divisor, bool):
            return "a move is a whole number, not True or False"
        if not isinstance(divisor, SupportsIndex):
            return f"a move is a whole number, not {type(divisor).__name__}"
        d = operator.index(divisor)
        if self.must_pass:
            return f"{self.number} has no allowed divisors, so the only move is to pass"
        return self.rules.why_not(d, self.number)

    def play(self, divisor: int) -> GameState:
        """The state after the player to move plays ``divisor``.

        Raises IllegalMoveError (GameOverError after the end) if it is not legal.
        """
        reason = self.check(divisor)
        if reason is not None:
            error = GameOverError if self.is_over else IllegalMoveError
            raise error(divisor, self.number, reason)
        d = operator.index(divisor)
        after = self.rules.result(self.number, d)
        event = Moved(self.to_move, self.number, d, after)
        return replace(self, number=after, to_move=other(self.to_move), passes=0, history=self.history + (event,))

    def pass_turn(self) -> GameState:
        """The state after the player to move passes (only when they must)."""
        if self.is_over:
            raise GameOverError("pass", self.number, "the game is over")
        if not self.must_pass:
            reason = "passing is only allowed with no legal move"
            if self.rules.when_stuck != "pass":
                reason = f"{self.rules.title} has no passing"
            raise IllegalMoveError("pass", self.number, reason)
        event = Passed(self.to_move, self.number)
        return replace(self, to_move=other(self.to_move), passes=self.passes + 1, history=self.history + (event,))

    def attempt(self, value: object) -> GameState:
        """Try a number as a move, following the book on invalid moves.

        A legal divisor is played.  Otherwise, if the rules say an invalid move
        loses the turn, the turn passes to the opponent; if not, IllegalMoveError.
        Something that is not a whole number at all (2.0, "7", None) names no number:
        it is refused with IllegalMoveError under every book, and no turn is lost.
        """
        reason = self.check(value)
        if isinstance(value, bool) or not isinstance(value, SupportsIndex):
            # Not a number at all (2.0, "7", None): nothing was named, so no turn is lost; it is refused.
            error = GameOverError if self.is_over else IllegalMoveError
            raise error(value, self.number, reason or "a move is a whole number")
        d = operator.index(value)
        if reason is None or self.is_over or self.must_pass or self.rules.on_invalid == "retry":
            return self.play(d)  # plays it, or raises the right error
        event = LostTurn(self.to_move, self.number, d, reason)
        return replace(self, to_move=other(self.to_move), passes=0, history=self.history + (event,))

    def random_move(self, rng: random.Random | None = None) -> GameState:
        """Play a uniformly random legal move, or pass if the player must."""
        if self.must_pass:
            return self.pass_turn()
        if self.is_over:
            raise GameOverError("a move", self.number, "the game is over")
        return self.play((rng or random).choice(self.legal_moves))

    # -- display --------------------------------------------------------------

    def status(self, names: tuple[str, str] = ("Player 1", "Player 2")) -> str:
        """One line: whose turn it is, or who won."""
        if self.winner is not None:
            return f"{names[self.winner - 1]} wins."
        if self.must_pass:
            return f"{names[self.to_move - 1]} has no move from {self.number} and must pass."
        moves = ", ".join(map(str, self.legal_moves))
        return f"{names[self.to_move - 1]} to move from {self.number}. Allowed divisors: {moves}."

    def transcript(
        self, names: tuple[str, str] = ("Player 1", "Player 2"), you: tuple[str, str] = ("You", "You")
    ) -> str:
        """The game so far, in the rule book's own words (``you``: see transcript.render)."""
        from duel_lessons.engine.transcript import render

        return render(self, names, you)

    def __repr__(self) -> str:
        return (
            f"GameState({self.rules.name!r}, number={self.number}, to_move={self.to_move}, "
            f"moves={len(self.history)}{', over' if self.is_over else ''})"
        )

    def _repr_html_(self) -> str:
        moves = " → ".join(
            [str(self.start)]
            + [
                str(e.after) if isinstance(e, Moved) else "pass" if isinstance(e, Passed) else "lost turn"
                for e in self.history
            ]
        )
        return (
            f"<div><b>{escape(self.rules.title)}</b>: current number <b>{self.number}</b><br>"
            f"{escape(self.status())}<br><small>Game so far: {escape(moves)}</small></div>"
        )


def new_game(rules: Rules | str = "divisor-duel", start: int | None = None, first: int = 1) -> GameState:
    """A new game, checking the start against the rule book (BadStartError if forbidden)."""
    book = get_rules(rules)
    n = book.check_start(book.default_start if start is None else start)
    if isinstance(first, bool) or first not in (1, 2):
        raise DuelError(f"The first player must be 1 or 2, not {first!r}.")
    return GameState(book, n, 1 if first == 1 else 2)


# -- the one game loop ---------------------------------------------------------


class Signal:
    """A strategy's answer that is not a move: :data:`WAIT` or :data:`PASS`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: A strategy returns WAIT when a person has not chosen yet: :func:`play_out` stops and returns the state.
WAIT: Final = Signal("WAIT")
#: A strategy returns PASS to pass (only when its player has no legal move).
PASS: Final = Signal("PASS")

#: The most turns :func:`play_out` plays before it gives up (TurnLimitError).
MAX_TURNS = 10_000


class Position(Protocol):
    """What :func:`play_out` needs of a position: a :class:`GameState`, or a sum of games."""

    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> Player: ...

    @property
    def must_pass(self) -> bool: ...

    def pass_turn(self) -> Position: ...

    def attempt(self, value: Any) -> Position: ...


P = TypeVar("P", bound=Position)

#: A strategy: a callable ``state -> move`` (a whole number), or PASS, or WAIT.
Strategy = Callable[[P], object]


def play_out(
    state: P,
    strategies: Mapping[int, Callable[[P], object]] | Sequence[Callable[[P], object]],
    on_event: Callable[[P], None] | None = None,
    max_turns: int = MAX_TURNS,
) -> P:
    """Play from ``state`` until the game ends or a strategy returns :data:`WAIT`; return that state.

    ``strategies`` gives player 1's and player 2's strategy (a mapping {1: ..., 2: ...} or a pair).
    A strategy is asked only while the game goes on.  A player who must pass passes without
    being asked, unless the strategy has ``passes_by_hand = True`` (a person at a board, who
    presses Pass), in which case it must return PASS or WAIT.  Each move is applied with
    ``state.attempt`` (a number for a game, an (index, divisor) pair for a sum of games), so a
    book whose invalid moves lose the turn applies that rule, and otherwise an illegal move raises
    IllegalMoveError, with the last good state kept by the caller.
    ``on_event(state)`` is called after each move or pass with the new state.

    >>> end = play_out(new_game("number-factor", 12), (lambda s: s.legal_moves[0],) * 2)
    >>> [type(e).__name__ for e in end.history], end.winner
    (['Moved', 'Moved', 'Passed', 'Passed'], 2)
    """
    players = strategies if isinstance(strategies, Mapping) else dict(zip((1, 2), strategies, strict=True))
    for turn in range(max_turns + 1):
        if state.is_over:
            return state
        if turn == max_turns:
            break
        strategy = players[state.to_move]
        if state.must_pass and not getattr(strategy, "passes_by_hand", False):
            choice: object = PASS
        else:
            choice = strategy(state)
        if choice is WAIT:
            return state
        # The position checks the move (GameState.attempt, SumState.attempt).
        state = state.pass_turn() if choice is PASS else state.attempt(choice)  # type: ignore[assignment]
        if on_event is not None:
            on_event(state)
    raise TurnLimitError(f"The game did not end within {max_turns:,} turns.")
