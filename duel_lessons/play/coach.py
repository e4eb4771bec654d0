"""The coach: the situation, staged hints, full explanations and the winning moves of a game state.

Every answer comes from the oracle (:mod:`duel_lessons.solving.oracle`): explanations from the
proved closed forms wherever one exists; for other variants a computed check from the solver's
table, which says so.  Sentences are complete: callers show them whole and never cut words out.

* :func:`situation`: "Player 1 to move from 60." (the one line that says where the game stands);
* :func:`explain`: why the position is won or lost, without that line;
* :func:`hint` with ``stage`` 1, 2 or 3: a question that gives no theorem away, then a nudge
  towards the idea, then the move itself (or that every move loses);
* :func:`game_over_explanation`: who won a finished game and why;
* :func:`winning_moves`: the legal moves that leave a losing position.

>>> from duel_lessons.engine.game import new_game
>>> game = new_game("divisor-duel", 60)
>>> situation(game), winning_moves(game)
('Player 1 to move from 60.', (3, 5, 15))
>>> hint(game, stage=3)
'Play 3: 60 − 3 = 57 leaves your opponent a losing position (the fastest win).'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from duel_lessons.engine.closed_form import ClosedForm
from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState, other
from duel_lessons.solving.oracle import Oracle, oracle

__all__ = [
    "DEFAULT_NAMES",
    "Coach",
    "Stage",
    "explain",
    "game_over_explanation",
    "hint",
    "situation",
    "winning_moves",
]

Names = tuple[str, str]
Stage = Literal[1, 2, 3]
DEFAULT_NAMES: Names = ("Player 1", "Player 2")

#: At most this many moves are listed one by one.
MAX_LISTED = 40


def _names(names: object) -> Names:
    if not (isinstance(names, tuple | list) and len(names) == 2 and all(isinstance(x, str) for x in names)):
        raise DuelError(f"names must be a pair of texts such as ('Ann', 'Bo'), not {names!r}.")
    return (names[0], names[1])


def _state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise DuelError(f"The coach needs a game state (new_game(...)), not {type(state).__name__}.")
    return state


def _oracle(state: GameState) -> Oracle:
    return oracle(state.rules)


def _op(state: GameState) -> str:
    return "−" if state.rules.move == "subtract" else "÷"


def _listed(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def situation(state: GameState, names: Names = DEFAULT_NAMES) -> str:
    """Where the game stands, in one sentence: who is to move from which number, or that it is over.

    >>> from duel_lessons.engine.game import new_game
    >>> situation(new_game("number-factor", 12).play(6), ("Ann", "Bo"))
    'Bo to move from 2: no allowed divisor, so Bo must pass.'
    """
    state, names = _state(state), _names(names)
    if state.is_over:
        return f"The game is over at {state.number}."
    who = names[state.to_move - 1]
    if state.must_pass:
        return f"{who} to move from {state.number}: no allowed divisor, so {who} must pass."
    return f"{who} to move from {state.number}."


def game_over_explanation(state: GameState, names: Names = DEFAULT_NAMES, *, say_winner: bool = True) -> str:
    """Who won a finished game and why: complete sentences, to be shown whole.

    ``say_winner=False`` leaves out the closing "X wins." for a view that announces the winner itself.
    """
    state, names = _state(state), _names(names)
    n, winner = state.number, state.winner
    if winner is None:
        raise DuelError("The game is not over: ask for an explanation of the position instead.")
    won, lost = names[winner - 1], names[other(winner) - 1]
    rules = state.rules
    wins_line = f" {won} {_verb(won, 'wins', 'win')}." if say_winner else ""
    if state.ending in ("reached-win", "reached-loss"):
        wins = state.ending == "reached-win"
        what = rules.target_words(rules.win_on_reaching if wins else rules.lose_on_reaching)
        mover, verb = (won, "wins") if wins else (lost, "loses")
        which = "" if what == str(n) else f", which is {what},"  # never "moved to 1, which is 1"
        return f"The game is over: {mover} moved to {n}{which} and reaching {what} {verb} at once.{wins_line}"
    rule = rules.last_mover_rule
    if state.ending == "passes":
        return (
            f"The game is over: {n} has no allowed divisors ({rules.divisor_words}), so both players passed, "
            f"and {rule}.{wins_line}"
        )
    stuck = names[state.to_move - 1]
    return (
        f"The game is over: {stuck} {_verb(stuck, 'has', 'have')} no allowed divisor of {n} "
        f"({rules.divisor_words}), and {rule}.{wins_line}"
    )


def _verb(name: str, singular: str, plural: str) -> str:
    """The verb that agrees with a player's name: "You have", "Player 1 has".

    >>> _verb("You", "has", "have"), _verb("Computer", "has", "have")
    ('have', 'has')
    """
    return plural if name.strip().lower() == "you" else singular


def winning_moves(state: GameState) -> tuple[int, ...]:
    """The legal moves whose result is a P-position (empty if there are none or the game is over)."""
    state = _state(state)
    if not state.legal_moves:
        return ()
    return _oracle(state).winning_moves(state.number)


# -- hints ------------------------------------------------------------------------------------


def _results(state: GameState, limit: int = 8) -> str:
    """'57, 56, 55, 50, 48 and 45' (the numbers the player to move could hand over)."""
    moves = state.legal_moves
    shown = [str(state.rules.result(state.number, d)) for d in moves[:limit]]
    if len(moves) > limit:
        shown.append(f"{len(moves) - limit} more")
    return _listed(shown)


def hint(state: GameState, names: Names = DEFAULT_NAMES, stage: Stage = 1) -> str:
    """A hint for the player to move, in three stages that say more and more.

    1. a question about this position that gives no theorem away;
    2. a nudge towards the idea (the game's own hint where a closed form is proved);
    3. the move itself, or that every move loses and which one resists longest.

    >>> from duel_lessons.engine.game import new_game
    >>> print(hint(new_game("division-duel", 12), stage=1))
    From 12 you can hand your opponent 6, 4, 3 and 2. Which of those numbers would you like to be given? \
What could your opponent do from each?
    """
    state, names = _state(state), _names(names)
    if isinstance(stage, bool) or stage not in (1, 2, 3):
        raise DuelError(f"A hint stage is 1, 2 or 3, not {stage!r}.")
    n = state.number
    if state.is_over:
        return "The game is over. Who made the last move, and what does the rule book say about that?"
    if state.must_pass:
        return f"Is there any allowed divisor of {n}? If not, the rule book says you must pass."
    if stage == 1:
        return (
            f"From {n} you can hand your opponent {_results(state)}. Which of those numbers would you like to be "
            f"given? What could your opponent do from each?"
        )
    ask = _oracle(state)
    if stage == 2:
        if ask.form is not None and ask.form.hint:
            return ask.form.hint.format(n=n)
        return (
            f"Work backwards from small numbers: a number is lost for the player who must move there if every move "
            f"from it hands over a number that is won. Which of {_results(state)} are lost for your opponent?"
        )
    move = ask.best_move(n)
    assert move is not None  # there are legal moves
    after = state.rules.result(n, move)
    if ask.is_p(n):
        return (
            f"Every move from {n} leaves your opponent a winning position, so against perfect play you lose. "
            f"Play {move} ({n} {_op(state)} {move} = {after}) to make the game last long and hope for a slip."
        )
    fastest = " (the fastest win)" if ask.remoteness(n) is not None and len(ask.winning_moves(n)) > 1 else ""
    return f"Play {move}: {n} {_op(state)} {move} = {after} leaves your opponent a losing position{fastest}."


# -- explanations ---------------------------------------------------------------------------------


def _every_move(state: GameState) -> str:
    """'The moves here: 57 − 3 = 54 and 57 − 19 = 38, each a winning position for your opponent.'"""
    rules, n = state.rules, state.number
    moves = state.legal_moves
    shown = [f"{n} {_op(state)} {d} = {rules.result(n, d)}" for d in moves[:MAX_LISTED]]
    if len(moves) > MAX_LISTED:
        shown.append(f"{len(moves) - MAX_LISTED} more")
    each = "a winning position" if len(moves) == 1 else "each a winning position"
    return f"The {'move' if len(moves) == 1 else 'moves'} here: {_listed(shown)}, {each} for your opponent."


def _computed_check(state: GameState, ask: Oracle) -> str:
    rules, n = state.rules, state.number
    table = ask.table(n)
    assert table is not None  # no closed form: the oracle answers from a table or refuses
    moves = state.legal_moves
    lines = [
        f"There is no proved formula for {rules.title} yet, so this is a computed check with the solver's "
        f"table (P = lost for the player to move there, N = won; remoteness = moves left with best play):"
    ]
    for d in moves[:MAX_LISTED]:
        r = rules.result(n, d)
        lines.append(f"- {n} {_op(state)} {d} = {r}: {table.outcome_of(r)}, remoteness {int(table.remoteness[r])}")
    if len(moves) > MAX_LISTED:
        lines.append(f"- … and {len(moves) - MAX_LISTED} more moves.")
    wins = [d for d in moves if table.is_p(rules.result(n, d))]
    if wins:
        lines.append(
            f"Playing {', '.join(map(str, wins))} leaves a P-position, so {n} is a winning position for the player "
            f"to move (it takes {int(table.remoteness[n])} more moves with best play)."
        )
    else:
        lines.append(
            f"Every move leaves an N-position, a win for the opponent, so {n} is a losing position for the player "
            f"to move (best resistance lasts {int(table.remoteness[n])} moves)."
        )
    return "\n".join(lines)


def explain(state: GameState, names: Names = DEFAULT_NAMES) -> str:
    """Why the position is won or lost: the winning move and why it wins, or why every move loses.

    The text does not repeat where the game stands: show :func:`situation` before it if wanted.
    A finished game gets :func:`game_over_explanation`.

    >>> from duel_lessons.engine.game import new_game
    >>> explain(new_game("divisor-duel", 4))  # doctest: +ELLIPSIS
    '4 = 2^2, and its only allowed divisor is 2. Subtract 2: 4 − 2 = 2, ... So 2 is the winning move.'
    """
    state, names = _state(state), _names(names)
    if state.is_over:
        return game_over_explanation(state, names)
    ask = _oracle(state)
    if not state.legal_moves:  # must pass
        return ask.explain(state.number)
    form = ask.answers(state.number).proof  # the closed form, or above the table a proved Grundy formula's
    if form is None:
        return _computed_check(state, ask)
    text = form.explain(state.number)
    wins = winning_moves(state)
    if len(wins) > 1:
        listed = ", ".join(map(str, wins[:MAX_LISTED])) + (", …" if len(wins) > MAX_LISTED else "")
        text += f" In all, {len(wins)} moves win here (each leaves a losing position): {listed}."
    elif not wins:
        text += " " + _every_move(state)
    return text


@dataclass(frozen=True)
class Coach:
    """The coach for one pair of player names: situation, hint (staged), explain and winning_moves."""

    names: Names = DEFAULT_NAMES

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", _names(self.names))

    def situation(self, state: GameState) -> str:
        """Who is to move from which number."""
        return situation(state, self.names)

    def hint(self, state: GameState, stage: Stage = 1) -> str:
        """A question (stage 1), a nudge (2) or the move (3)."""
        return hint(state, self.names, stage)

    def explain(self, state: GameState) -> str:
        """The full explanation from the mathematics (without the situation line)."""
        return explain(state, self.names)

    def winning_moves(self, state: GameState) -> tuple[int, ...]:
        """The legal moves that leave a P-position."""
        return winning_moves(state)

    def closed_form(self, state: GameState) -> ClosedForm | None:
        """The proved closed form behind the explanations, if any."""
        return _oracle(_state(state)).form
