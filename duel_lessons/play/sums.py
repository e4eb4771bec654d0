"""Sums of games: play on several numbers at once.

On your turn you choose **one** component and make one move there, by that
component's own rules.  The player with no move in any component loses (normal
play).  The Sprague–Grundy theorem says who wins: give each component its Grundy
value; the sum is a P-position (the player to move loses) exactly when the XOR
of those values is 0.

>>> s = new_sum([12, 18, 30])
>>> sum_grundy(s.components), outcome(s)
(3, 'N')
>>> s.play(1, 6).components[1][1]
12

Modelling choices (the rule books only describe single games):

* A component with no legal move is simply finished and contributes Grundy 0.
  In games that end *suddenly* (Factor Duel: moving to a prime wins at once),
  reaching such a number in a sum just closes that component: nobody wins yet,
  the other components play on.  One convention everywhere: a component's Grundy
  value is the single game's (the solver's table, or a proved formula).  A number
  whose *reaching loses* has Grundy value 1 there; it cannot be a component (its
  book's start rules refuse it), and rules in which a move can reach one are
  refused, since in a sum they would end every game suddenly.
* Number Factor's passes and lost turns do not exist in a sum: a stuck
  component is finished, and an illegal move is refused (IllegalMoveError).
* Misère components (the last mover loses) are refused: XOR of Grundy values
  does not decide misère sums.
* Components are numbered from 0 in the API (``state.play(1, 6)``) and from 1
  in everything written for people (messages, transcripts, the CLI).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, reduce
from html import escape
from typing import Literal

from duel_lessons.engine.errors import DuelError, IllegalMoveError, PositionError, TooBigError
from duel_lessons.engine.game import GameState, Player, other
from duel_lessons.engine.rules import Rules
from duel_lessons.solving.boxes import BoxCount, count_box, sum_rules
from duel_lessons.solving.oracle import oracle
from duel_lessons.solving.tables import TABLE_LIMIT

Component = tuple[Rules, int]
SumMove = tuple[int, int]


class SumMoveError(IllegalMoveError):
    """An illegal move in a sum; names the component (counted from 1), the value and the reason."""

    def __init__(self, index: object, value: object, number: int, reason: str, title: str = "") -> None:
        super().__init__(value, number, reason)
        self.index = index
        where = f"component {index + 1}" if isinstance(index, int) else f"component {index!r}"
        if index is None:
            where = "a sum"
        what = f" ({title} at {number})" if title else ""
        self.args = (f"Cannot play {value!r} in {where}{what}: {reason}.",)


@dataclass(frozen=True)
class SumEvent:
    """Player ``player`` played ``divisor`` in component ``index`` (from 0), taking ``before`` to ``after``."""

    player: Player
    index: int
    before: int
    divisor: int
    after: int


# -- checking rules ---------------------------------------------------------------------


def check_rules(rules: Rules | str) -> Rules:
    """The Rules for a sum component (solving.boxes.sum_rules): misère rules, and rules where a move can
    reach a number whose reaching loses, are refused with a DuelError."""
    return sum_rules(rules)


# -- Grundy values -------------------------------------------------------------------------


def grundy_value(rules: Rules | str, n: int) -> int:
    """The Grundy value of n as a sum component, from the oracle (its table, or a proved formula).

    The oracle is asked with tables up to the solver's TABLE_LIMIT (sums need Grundy values, which
    few closed forms give).  Raises TooBigError (a DuelError) where it knows no value.
    """
    book = check_rules(rules)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise PositionError(f"A component is a positive whole number, not {n!r}.")
    value = oracle(book, TABLE_LIMIT).grundy(n)  # sums read tables up to the solver's limit
    if value is None:
        raise TooBigError(
            f"{book.title} has no proved Grundy formula, and {n:,} is above the largest table the solver "
            f"builds (TABLE_LIMIT = {TABLE_LIMIT:,}), so its Grundy value is unknown."
        )
    return value


def sum_grundy(components: Iterable[Component] | SumState) -> int:
    """The Grundy value of a sum: the XOR of its components' values."""
    parts = components.components if isinstance(components, SumState) else components
    return reduce(operator.xor, (grundy_value(r, n) for r, n in parts), 0)


def outcome(components: Iterable[Component] | SumState) -> Literal["P", "N"]:
    """'P' (the player to move loses) iff the XOR of the Grundy values is 0, else 'N'."""
    return "P" if sum_grundy(components) == 0 else "N"


# -- the state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SumState:
    """A position in a sum: the components (rules, number), the player to move and the history.

    States never change: :meth:`play` returns a new state.  Use :func:`new_sum`
    to check every start against its rule book.
    """

    components: tuple[Component, ...]
    to_move: Player = 1
    history: tuple[SumEvent, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.components:
            raise DuelError("A sum needs at least one component.")
        fixed = []
        for i, part in enumerate(self.components):
            if not isinstance(part, tuple) or len(part) != 2:
                raise DuelError(f"Component {i + 1} must be a pair (rules, number), not {part!r}.")
            rules, n = part
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise DuelError(f"Component {i + 1} must be a positive whole number, not {n!r}.")
            book = check_rules(rules)
            if book.ends_on_reaching(n) == "loss":
                raise DuelError(
                    f"Component {i + 1} cannot be {n}: in {book.title} whoever reaches {n} has lost already, "
                    f"so it is not a position to play from."
                )
            fixed.append((book, n))
        object.__setattr__(self, "components", tuple(fixed))
        if self.to_move not in (1, 2):
            raise DuelError(f"The player to move must be 1 or 2, not {self.to_move!r}.")

    def game(self, index: int) -> GameState:
        """Component ``index`` (from 0) as a single game, for its legal moves."""
        rules, n = self.components[index]
        return GameState(rules, n)

    @cached_property
    def legal_moves(self) -> tuple[SumMove, ...]:
        """Every (component index, divisor) the player to move may play."""
        return tuple((i, d) for i in range(len(self.components)) for d in self.game(i).legal_moves)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The current number of each component."""
        return tuple(n for _, n in self.components)

    @property
    def is_over(self) -> bool:
        """Whether no component has a move left."""
        return not self.legal_moves

    @property
    def winner(self) -> Player | None:
        """The winner (the last player to move) once the sum is over, else None."""
        return other(self.to_move) if self.is_over else None

    @property
    def starts(self) -> tuple[int, ...]:
        """The number each component started from."""
        starts = list(self.numbers)
        for event in reversed(self.history):
            starts[event.index] = event.before
        return tuple(starts)

    def check(self, index: object, divisor: object) -> str | None:
        """The reason (index, divisor) cannot be played now, or None if it can."""
        if isinstance(index, bool) or not isinstance(index, int):
            return f"a component is chosen by its whole-number index, not {index!r}"
        if not 0 <= index < len(self.components):
            return f"there are only {len(self.components)} components (indices 0 to {len(self.components) - 1})"
        game = self.game(index)
        if self.is_over:
            return "the game is over: no component has a move"
        reason = game.check(divisor)
        if reason == "the game is over":
            return f"{game.number} has no moves left in this component"
        return reason

    def play(self, index: int, divisor: int) -> SumState:
        """The state after the player to move plays ``divisor`` in component ``index`` (from 0).

        Raises SumMoveError (an IllegalMoveError) if it is not legal; this state is unchanged.
        """
        reason = self.check(index, divisor)
        if reason is not None:
            ok_index = isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(self.components)
            rules, n = self.components[index] if ok_index else (None, 0)
            raise SumMoveError(index, divisor, n, reason, rules.title if rules else "")
        rules, n = self.components[index]
        d = operator.index(divisor)
        after = rules.result(n, d)
        parts = list(self.components)
        parts[index] = (rules, after)
        event = SumEvent(self.to_move, index, n, d, after)
        return replace(self, components=tuple(parts), to_move=other(self.to_move), history=self.history + (event,))

    # -- what play_out needs (engine.game.Position) -----------------------------------

    @property
    def must_pass(self) -> bool:
        """Always False: in a sum a player with no move in any component has lost (there is no passing)."""
        return False

    def pass_turn(self) -> SumState:
        """Never allowed: a sum has no passing (SumMoveError)."""
        raise SumMoveError(None, "pass", 0, "a sum of games has no passing")

    def attempt(self, move: object) -> SumState:
        """Play a move given as one (index, divisor) pair, as :func:`~duel_lessons.engine.game.play_out` does.

        >>> from duel_lessons.engine.game import play_out
        >>> first = lambda s: s.legal_moves[0]
        >>> play_out(new_sum([6, 4]), (first, first)).numbers  # 6 - 2 = 4, 4 - 2 = 2, 4 - 2 = 2: no moves
        (2, 2)
        """
        if not isinstance(move, tuple) or len(move) != 2:
            raise SumMoveError(None, move, 0, "a move in a sum is a pair (component index, divisor)")
        index, divisor = move
        return self.play(index, divisor)

    def status(self, names: tuple[str, str] = ("Player 1", "Player 2")) -> str:
        """One line: whose turn it is, or who won."""
        if self.winner is not None:
            return f"{names[self.to_move - 1]} has no move in any component. {names[self.winner - 1]} wins."
        return f"{names[self.to_move - 1]} to move ({len(self.legal_moves)} legal moves)."

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{i + 1}</td><td>{escape(r.title)}</td><td><b>{n}</b></td>"
            f"<td>{escape(', '.join(map(str, self.game(i).legal_moves)) or 'finished')}</td></tr>"
            for i, (r, n) in enumerate(self.components)
        )
        head = "<tr><th>component</th><th>game</th><th>number</th><th>allowed divisors</th></tr>"
        played = "; ".join(_event_words(e) for e in self.history) or "no moves yet"
        return (
            f"<div><b>Sum of {len(self.components)} games</b><table>{head}{rows}</table>"
            f"{escape(self.status())}<br><small>Moves: {escape(played)}</small></div>"
        )


def new_sum(parts: Sequence[int | str | Component], rules: Rules | str = "divisor-duel", first: int = 1) -> SumState:
    """A new sum, checking every start against its rule book.

    Each part is a number (played by ``rules``), a pair (rules, number), or a
    text such as ``"division-duel:18"``.
    """
    components = [parse_component(p, rules) for p in parts]
    if first not in (1, 2):
        raise DuelError(f"The first player must be 1 or 2, not {first!r}.")
    return SumState(tuple((r, r.check_start(n)) for r, n in components), 1 if first == 1 else 2)


def parse_component(part: int | str | Component, rules: Rules | str = "divisor-duel") -> Component:
    """One component from a number, a (rules, number) pair or text like ``"18"`` or ``"division-duel:18"``."""
    if isinstance(part, tuple):
        book, n = part
        return check_rules(book), n
    if isinstance(part, str):
        name, _, number = part.strip().rpartition(":")
        try:
            n = int(number)
        except ValueError:
            raise DuelError(f"{part!r} is not a component: write a number such as 18 or division-duel:18.") from None
        return check_rules(name or rules), n
    if isinstance(part, bool) or not isinstance(part, int):
        raise DuelError(f"{part!r} is not a component: give a whole number or (rules, number).")
    return check_rules(rules), part


# -- perfect play ------------------------------------------------------------------------------


def winning_moves(state: SumState) -> tuple[SumMove, ...]:
    """Every legal (index, divisor) after which the XOR of the Grundy values is 0 (empty from a P-position)."""
    values = [grundy_value(r, n) for r, n in state.components]
    total = reduce(operator.xor, values, 0)
    if total == 0:
        return ()
    found = []
    for i, (rules, n) in enumerate(state.components):
        target = values[i] ^ total  # the value component i must move to
        for d in state.game(i).legal_moves:
            if grundy_value(rules, rules.result(n, d)) == target:
                found.append((i, d))
    return tuple(found)


def hint(state: SumState) -> str:
    """The XOR rule in words for this position: the Grundy values, their XOR and what to do."""
    if state.is_over:
        return "No component has a move left: the game is over."
    values = [grundy_value(r, n) for r, n in state.components]
    total = reduce(operator.xor, values, 0)
    parts = ", ".join(
        f"{n} ({r.title}) has Grundy value {g}" for (r, n), g in zip(state.components, values, strict=True)
    )
    xor = " XOR ".join(map(str, values)) + f" = {total}"
    if total == 0:
        return (
            f"{parts}. {xor}, so this is a P-position: every move makes the XOR non-zero, and your opponent "
            f"can then make it 0 again. You lose against perfect play; keep the game long and hope for a slip."
        )
    i, d = winning_moves(state)[0]
    rules, n = state.components[i]
    after = rules.result(n, d)
    return (
        f"{parts}. {xor}, not 0, so the player to move wins. Make the XOR 0: in component {i + 1} move "
        f"{n} to a number with Grundy value {values[i]} XOR {total} = {values[i] ^ total}, e.g. play {d} "
        f"({n} {'−' if rules.move == 'subtract' else '÷'} {d} = {after})."
    )


@dataclass
class PerfectSumPlayer:
    """Perfect play in a sum: move to XOR 0 when possible.

    From an N-position it plays the first winning move (lowest component, then
    smallest divisor).  From a P-position every move loses against perfect play,
    so it plays the move that leaves the most legal moves (ties: the first), to
    give the opponent the most chances to go wrong.
    """

    name: str = "Perfect"

    def __call__(self, state: SumState) -> SumMove:
        moves = state.legal_moves
        if not moves:
            raise DuelError("There is no legal move in any component: the sum is over.")
        wins = winning_moves(state)
        if wins:
            return wins[0]
        counts = [len(state.game(i).legal_moves) for i in range(len(state.components))]

        def options_after(move: SumMove) -> int:
            i, d = move
            rules, n = state.components[i]
            left = len(GameState(rules, rules.result(n, d)).legal_moves)
            return sum(counts) - counts[i] + left

        return max(moves, key=options_after)  # max keeps the first of equal moves


# -- counting ----------------------------------------------------------------------------------


def count_winning_positions(
    variants_or_rules: Rules | str | Sequence[Rules | str], box: Sequence[Iterable[int]]
) -> BoxCount:
    """Count N- and P-positions of sums over a box of starts, by Grundy values, at any size.

    ``variants_or_rules`` is one rule book for every component or one per component; ``box`` is one
    range of numbers per component (a ``range`` for a huge axis, up to 10**18 where the Grundy values
    have a proved formula).  Every number in the box is counted (start rules such as "composite only"
    are not applied).  This is :func:`~duel_lessons.solving.boxes.count_box` with ``every_number=True``;
    the result's ``p_positions()`` lists the P-positions of a box of at most ``LIST_LIMIT`` positions.

    >>> box = count_winning_positions("divisor-duel", [range(1, 101)] * 2)
    >>> box.total, box.p_count + box.n_count
    (10000, 10000)
    >>> huge = count_winning_positions("divisor-duel", [range(1, 10**4 + 1)] * 3)  # 10**12 positions
    >>> huge.total == 10**12 and huge.p_count + huge.n_count == 10**12
    True
    """
    return count_box(variants_or_rules, box, every_number=True)


# -- transcript -----------------------------------------------------------------------------------


def _event_words(event: SumEvent) -> str:
    return f"component {event.index + 1}: {event.before} → {event.after} (divisor {event.divisor})"


def sum_transcript(state: SumState, names: tuple[str, str] = ("Player 1", "Player 2")) -> str:
    """The sum so far as plain text: the start, one line per move, and the result."""
    starts = state.starts
    first = state.history[0].player if state.history else state.to_move
    lines = [
        "Sum of games: " + " + ".join(f"{n} ({r.title})" for (r, _), n in zip(state.components, starts, strict=True)),
        f"{names[first - 1]} moves first.",
    ]
    for event in state.history:
        rules = state.components[event.index][0]
        op = "-" if rules.move == "subtract" else "÷"
        lines.append(
            f"{names[event.player - 1]}: component {event.index + 1}, "
            f"{event.before} {op} {event.divisor} = {event.after}."
        )
    lines.append("Now: " + " + ".join(map(str, state.numbers)) + ". " + state.status(names))
    return "\n".join(lines) + "\n"
