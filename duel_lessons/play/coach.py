"""The coach: hints, full explanations and the winning moves of a game state.

Explanations come from the proved closed forms wherever one exists; for other
variants the coach shows a computed check from the solver's table and says so.

>>> from duel_lessons.engine.game import new_game
>>> winning_moves(new_game("divisor-duel", 60))
(3, 5, 15)
"""

from __future__ import annotations

from dataclasses import dataclass

from duel_lessons.engine.game import GameState, other
from duel_lessons.play.players import DEFAULT_TABLE_SIZE, required_table, table_for
from duel_lessons.solving.closed_forms import (
    DIVISION_DUEL_FORM,
    DIVISOR_DUEL_FORM,
    EVEN_DIVISORS_FORM,
    FACTOR_DUEL_FORM,
    NUMBER_FACTOR_FORM,
    ODD_DIVISORS_FORM,
    PRIME_DIVISION_FORM,
    PRIME_SUBTRACTION_FORM,
    ClosedForm,
    closed_form,
)
from duel_lessons.solving.tables import Table

Names = tuple[str, str]
DEFAULT_NAMES: Names = ("Player 1", "Player 2")

#: At most this many moves are listed one by one in a computed check.
MAX_LISTED = 40

_HINTS: dict[str, str] = {
    DIVISOR_DUEL_FORM.name: (
        "Look at whether the number is odd or even. If it is even, is it a power of 2? "
        "What kind of number would you like to hand your opponent?"
    ),
    DIVISION_DUEL_FORM.name: "What happens to a player who is handed a prime? Can you hand one over right now?",
    NUMBER_FACTOR_FORM.name: "What can a player do when handed a prime? Can you hand one over right now?",
    FACTOR_DUEL_FORM.name: (
        "Look at whether the number is odd or even, and remember that 1 is an allowed divisor. "
        "Which divisor changes odd into even or even into odd?"
    ),
    EVEN_DIVISORS_FORM.name: "Write the number as 2 × m. What does the game look like in terms of m?",
    ODD_DIVISORS_FORM.name: "Look at whether the number is odd or even, and think about its odd part.",
    PRIME_SUBTRACTION_FORM.name: "Is the number odd, even, or a power of 2? What does subtracting an odd prime do?",
    PRIME_DIVISION_FORM.name: "Count the prime factors (with repetition). How many moves can the game last?",
}

_GENERIC_HINT = (
    "Try each allowed divisor and ask: from the number it leaves, can your opponent win? "
    "Small numbers first: which numbers are lost for the player who must move there?"
)


def _player(player: int, names: Names) -> str:
    return names[player - 1]


def game_over_explanation(state: GameState, names: Names = DEFAULT_NAMES) -> str:
    """Who won a finished game and why."""
    n, winner = state.number, state.winner
    if winner is None:
        raise ValueError("The game is not over.")
    won, lost = _player(winner, names), _player(other(winner), names)
    rules = state.rules
    if state.ending == "reached-win":
        what = "a prime" if rules.win_on_reaching == "prime" else "1"
        return f"The game is over: {won} moved to {n}, which is {what}, and reaching {what} wins at once. {won} wins."
    if state.ending == "reached-loss":
        what = "a prime" if rules.lose_on_reaching == "prime" else "1"
        return f"The game is over: {lost} moved to {n}, which is {what}, and reaching {what} loses at once. {won} wins."
    rule = "the last player to move wins" if rules.last_mover_wins else "the last player to move loses"
    if state.ending == "passes":
        return (
            f"The game is over: {n} has no allowed divisors ({rules.divisor_words}), so both players passed, "
            f"and {rule}. {won} wins."
        )
    return (
        f"The game is over: {_player(state.to_move, names)} has no allowed divisor of {n} "
        f"({rules.divisor_words}), and {rule}. {won} wins."
    )


def _small_table(state: GameState) -> Table | None:
    """The table the coach reads for small numbers (the same sizes the players use)."""
    return table_for(state.rules, state.number, DEFAULT_TABLE_SIZE)


def winning_moves(state: GameState) -> tuple[int, ...]:
    """The legal moves whose result is a P-position (empty if there are none or the game is over)."""
    moves = state.legal_moves
    if not moves:
        return ()
    rules, n = state.rules, state.number
    table = _small_table(state)
    form = closed_form(rules)
    if table is None and form is not None:
        return tuple(d for d in moves if form.is_p(rules.result(n, d)))
    if table is None:
        table = required_table(rules, n)
    return tuple(d for d in moves if table.is_p(rules.result(n, d)))


def hint(state: GameState, names: Names = DEFAULT_NAMES) -> str:
    """A nudge towards the right idea, without giving the answer away."""
    if state.is_over:
        return "The game is over. Ask the coach to explain who won and why."
    if state.must_pass:
        return f"There is no allowed divisor of {state.number}, so you must pass."
    form = closed_form(state.rules)
    if form is None:
        return _GENERIC_HINT
    return _HINTS.get(form.name, _GENERIC_HINT)


def _every_move(state: GameState) -> str:
    """'The moves: 57 − 3 = 54 and 57 − 19 = 38, each a winning position for your opponent.'"""
    rules, n = state.rules, state.number
    op = "−" if rules.move == "subtract" else "÷"
    moves = state.legal_moves
    shown = [f"{n} {op} {d} = {rules.result(n, d)}" for d in moves[:MAX_LISTED]]
    if len(moves) > MAX_LISTED:
        shown.append(f"{len(moves) - MAX_LISTED} more")
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    each = "a winning position" if len(moves) == 1 else "each a winning position"
    return f"The {'move' if len(moves) == 1 else 'moves'} here: {listed}, {each} for your opponent."


def _computed_check(state: GameState, table: Table) -> str:
    rules, n = state.rules, state.number
    op = "−" if rules.move == "subtract" else "÷"
    moves = state.legal_moves
    lines = [
        f"There is no proved formula for {rules.title} yet, so this is a computed check with the solver's "
        f"table (P = lost for the player to move there, N = won; remoteness = moves left with best play):"
    ]
    for d in moves[:MAX_LISTED]:
        r = rules.result(n, d)
        lines.append(f"- {n} {op} {d} = {r}: {table.outcome_of(r)}, remoteness {int(table.remoteness[r])}")
    if len(moves) > MAX_LISTED:
        lines.append(f"- … and {len(moves) - MAX_LISTED} more moves.")
    wins = [d for d in moves if table.is_p(rules.result(n, d))]
    if wins:
        listed = ", ".join(map(str, wins))
        lines.append(
            f"Playing {listed} leaves a P-position, so {n} is a winning position for the player to move "
            f"(it takes {int(table.remoteness[n])} more moves with best play)."
        )
    else:
        lines.append(
            f"Every move leaves an N-position, a win for the opponent, so {n} is a losing position for the player "
            f"to move (best resistance lasts {int(table.remoteness[n])} moves)."
        )
    return "\n".join(lines)


def explain(state: GameState, names: Names = DEFAULT_NAMES) -> str:
    """The full explanation: the winning move and why it wins, or why every move loses."""
    if state.is_over:
        return game_over_explanation(state, names)
    form = closed_form(state.rules)
    who = f"{_player(state.to_move, names)} to move from {state.number}. "
    if form is not None:
        text = who + form.explain(state.number)
        wins = winning_moves(state)
        if len(wins) > 1:
            listed = ", ".join(map(str, wins[:MAX_LISTED])) + (", …" if len(wins) > MAX_LISTED else "")
            text += f" In all, {len(wins)} moves win here (each leaves a losing position): {listed}."
        elif not wins and state.legal_moves:
            text += " " + _every_move(state)
        return text
    table = _small_table(state) or required_table(state.rules, state.number)
    return who + _computed_check(state, table)


@dataclass(frozen=True)
class Coach:
    """The coach for one pair of player names: hint, explain and winning_moves."""

    names: Names = DEFAULT_NAMES

    def hint(self, state: GameState) -> str:
        """A nudge, without the answer."""
        return hint(state, self.names)

    def explain(self, state: GameState) -> str:
        """The full explanation from the mathematics."""
        return explain(state, self.names)

    def winning_moves(self, state: GameState) -> tuple[int, ...]:
        """The legal moves that leave a P-position."""
        return winning_moves(state)

    def closed_form(self, state: GameState) -> ClosedForm | None:
        """The proved closed form behind the explanations, if any."""
        return closed_form(state.rules)


__all__ = ["Coach", "explain", "game_over_explanation", "hint", "winning_moves"]
