"""Everything about one position: who wins, how, how fast, and why.

>>> a = analyse("divisor-duel", 60)
>>> a.outcome, a.winning_moves, a.remoteness, a.source
('N', (3, 5, 15), 9, 'closed form')
>>> analyse("divisor-duel", 10**18).remoteness is None  # no table above 10**6
True

Proved closed forms answer instantly up to 10**18 (the full set of winning
moves needs the divisors of n, which sympy finds by factorising).  Remoteness
and Grundy values come from the solver's table up to :data:`ANALYSIS_TABLE_LIMIT`;
a proved Grundy formula is used above it where one exists.  Variants without a
closed form are read from the table, up to the solver's ``TABLE_LIMIT``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import MAX_NUMBER, DuelError, Rules, get_rules, whole_number
from duel_lessons.play import coach
from duel_lessons.play.players import table_for
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import TABLE_LIMIT, TableTooLargeError

#: Remoteness and Grundy values are read from a table up to this n (a 10**6 table takes well under a second).
ANALYSIS_TABLE_LIMIT = 10**6

#: In text, at most this many winning moves are listed one by one.
MAX_SHOWN_MOVES = 50

Outcome = Literal["P", "N"]
Source = Literal["closed form", "table"]


@dataclass(frozen=True)
class Analysis:
    """Who wins from n (the player to move: P loses, N wins), how, how fast, and why.

    ``remoteness`` (moves left with best play) and ``grundy`` are None where they
    were not computed: above the table limit, or (Grundy) in misère play.
    ``source`` says whether the outcome comes from a proved closed form or the table.
    """

    n: int
    rules: Rules
    outcome: Outcome
    winning_moves: tuple[int, ...]
    remoteness: int | None
    grundy: int | None
    explanation: str
    source: Source

    @property
    def game_over(self) -> bool:
        """Whether the game is already over at n."""
        return GameState(self.rules, self.n).is_over

    def to_dict(self) -> dict[str, Any]:
        """Plain Python values, ready for ``json.dumps``."""
        return {
            "rules": self.rules.name,
            "title": self.rules.title,
            "n": self.n,
            "outcome": self.outcome,
            "winning_moves": list(self.winning_moves),
            "remoteness": self.remoteness,
            "grundy": self.grundy,
            "explanation": self.explanation,
            "source": self.source,
        }

    def _lines(self) -> list[tuple[str, str]]:
        """(label, value) pairs shared by the text and markdown forms."""
        who = "the player to move loses" if self.outcome == "P" else "the player to move wins"
        if self.winning_moves:
            shown = ", ".join(map(str, self.winning_moves[:MAX_SHOWN_MOVES]))
            more = len(self.winning_moves) - MAX_SHOWN_MOVES
            moves = shown + (f", … ({len(self.winning_moves)} in all)" if more > 0 else "")
        elif self.game_over:
            moves = "none (the game is over)"
        else:
            moves = "none (every move leaves a winning position for the opponent)"
        source = "a proved closed form" if self.source == "closed form" else "the solver's table (computed)"
        return [
            ("Rules", f"{self.rules.title} ({self.rules.name})"),
            ("Position", str(self.n)),
            ("Outcome", f"{self.outcome}-position: {who}"),
            ("Winning moves", moves),
            ("Remoteness", self._remoteness_words()),
            ("Grundy value", self._grundy_words()),
            ("Source", source),
        ]

    def _remoteness_words(self) -> str:
        if self.remoteness is not None:
            return f"{self.remoteness} (moves left with best play)"
        return f"not computed above 10^{len(str(ANALYSIS_TABLE_LIMIT)) - 1} (no table that large)"

    def _grundy_words(self) -> str:
        if self.grundy is not None:
            return str(self.grundy)
        if not self.rules.last_mover_wins:
            return "none (misère play has no Sprague–Grundy value)"
        return f"not computed above 10^{len(str(ANALYSIS_TABLE_LIMIT)) - 1} (no proved formula for this game)"

    def to_text(self) -> str:
        """Aligned plain text: one line per fact, then the explanation."""
        lines = [f"{label + ':':<15}{value}" for label, value in self._lines()]
        return "\n".join([*lines, "", self.explanation]) + "\n"

    def _repr_markdown_(self) -> str:
        rows = "\n".join(f"| {label} | {value} |" for label, value in self._lines())
        return f"| | |\n|---|---|\n{rows}\n\n{self.explanation}"


def check_n(n: object) -> int:
    """n as an int if it is a positive whole number up to 10**18, else DuelError naming it and why."""
    value = whole_number(n, "n")
    if value < 1:
        raise DuelError(f"n must be a positive whole number, not {value}.")
    if value > MAX_NUMBER:
        raise DuelError(f"n = {value} is too big: the largest position the engine handles is 10**18.")
    return value


def _game_over_words(state: GameState) -> str:
    """Why the game is over at this number, for whoever would be to move."""
    rules, n = state.rules, state.number
    if state.ending in ("reached-win", "reached-loss"):
        won = state.ending == "reached-win"
        target = rules.win_on_reaching if won else rules.lose_on_reaching
        kind, where = ("1", "1") if target == "one" else ("a prime", f"{n} (a prime)")
        mover, mover_result = ("has won", "has lost") if won else ("has lost", "has won")
        verb = "wins" if won else "loses"
        return (
            f"Game over: reaching {kind} {verb} at once, so whoever moved to {where} {mover}: "
            f"the player to move {mover_result}."
        )
    rule = "the last player to move wins" if rules.last_mover_wins else "the last player to move loses"
    result = "loses" if rules.last_mover_wins else "wins"
    return (
        f"Game over: {n} has no allowed divisors ({rules.divisor_words}), so the player to move cannot move, "
        f"and {rule}: the player to move {result}."
    )


def _explanation(state: GameState) -> str:
    if state.is_over:
        return _game_over_words(state)
    text = coach.explain(state)
    return text.removeprefix(f"{coach.DEFAULT_NAMES[0]} to move from {state.number}. ")


def analyse(rules: Rules | str, n: int) -> Analysis:
    """Analyse position n (Player 1 to move) under ``rules`` (a Rules value or a book name).

    Raises DuelError for a bad n or unknown rules, and TableTooLargeError for a
    variant without a closed form above the solver's TABLE_LIMIT.
    """
    book = get_rules(rules)
    n = check_n(n)
    form = closed_form(book)
    if form is None and n > TABLE_LIMIT:
        raise TableTooLargeError(
            f"{book.title} ({book.name}) has no proved closed form, and n = {n:,} is above the largest table the "
            f"solver builds (TABLE_LIMIT = {TABLE_LIMIT:,}), so it cannot be analysed. Try a smaller n, or one of "
            f"the variants with a closed form (the four books; divisors even, odd or prime)."
        )
    limit = ANALYSIS_TABLE_LIMIT if form is not None else TABLE_LIMIT
    table = table_for(book, n, limit)
    state = GameState(book, n)
    if form is not None:
        is_p = form.is_p(n)
    else:
        assert table is not None
        is_p = table.is_p(n)
    remoteness: int | None = None
    grundy: int | None = None
    if table is not None:
        remoteness = int(table.remoteness[n])
        grundy = int(table.grundy[n]) if book.last_mover_wins else None
    elif not state.legal_moves:  # game over (or must pass): nothing is left to play
        remoteness = 0
        grundy = 1 if state.ending == "reached-loss" else 0  # the table's convention (see solver)
    elif form is not None:
        grundy = form.grundy(n)
    return Analysis(
        n=n,
        rules=book,
        outcome="P" if is_p else "N",
        winning_moves=coach.winning_moves(state),
        remoteness=remoteness,
        grundy=grundy,
        explanation=_explanation(state),
        source="closed form" if form is not None else "table",
    )


__all__ = ["ANALYSIS_TABLE_LIMIT", "Analysis", "analyse", "check_n"]
