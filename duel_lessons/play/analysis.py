"""Everything about one position: who wins, how, how fast, and why.

>>> a = analyse("divisor-duel", 60)
>>> a.outcome, a.winning_moves, a.remoteness, a.source
('N', (3, 5, 15), 9, 'table')
>>> b = analyse("divisor-duel", 10**18)
>>> b.remoteness is None, b.source  # no table above 10**6
(True, 'closed form')

Every answer comes from the oracle (:mod:`duel_lessons.solving.oracle`), which alone decides
between the solver's table and a proved closed form, or refuses (TooBigError).  ``source``
is the oracle's :data:`~duel_lessons.solving.oracle.Source`: where the outcome came from (the
explanation quotes the proof wherever the game has one, even within the table).

Remoteness conventions (see :meth:`~duel_lessons.solving.oracle.Oracle.remoteness`): in a
normal-play game, P-positions have even remoteness and N-positions odd; a number whose
reaching loses counts remoteness 1, consistent with its Grundy value 1.  In misère play
the parity rule fails (a stuck player wins, with remoteness 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from duel_lessons.engine.game import GameState
from duel_lessons.engine.numbers import position
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.play import coach
from duel_lessons.solving.oracle import DEFAULT_TABLE_SIZE, SOURCE_WORDS, Source, oracle

#: Remoteness and Grundy values are read from a table up to this n (the oracle's table size).
ANALYSIS_TABLE_LIMIT = DEFAULT_TABLE_SIZE

#: In text, at most this many winning moves are listed one by one.
MAX_SHOWN_MOVES = 50

Outcome = Literal["P", "N"]


@dataclass(frozen=True)
class Analysis:
    """Who wins from n (the player to move: P loses, N wins), how, how fast, and why.

    ``remoteness`` (moves left with best play) and ``grundy`` are None where they
    were not computed: above the table limit, or (Grundy) in misère play.
    ``source`` says where the outcome comes from: the oracle's source for n ("table" or "closed form").
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

    @property
    def must_pass(self) -> bool:
        """Whether the player to move at n has no move and must pass (the game goes on)."""
        return GameState(self.rules, self.n).must_pass

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
        elif self.must_pass:
            moves = "none (there is no allowed divisor: the player to move must pass)"
        else:
            moves = "none (every move leaves a winning position for the opponent)"
        return [
            ("Rules", f"{self.rules.title} ({self.rules.name})"),
            ("Position", str(self.n)),
            ("Outcome", f"{self.outcome}-position: {who}"),
            ("Winning moves", moves),
            ("Remoteness", self._remoteness_words()),
            ("Grundy value", self._grundy_words()),
            ("Source", SOURCE_WORDS[self.source]),
        ]

    def _remoteness_words(self) -> str:
        if self.remoteness is not None and self.game_over and self.remoteness == 1:
            return "1 (the game is over: reaching this number lost, counted as one move, like its Grundy value 1)"
        if self.remoteness is not None:
            return f"{self.remoteness} (moves left with best play)"
        return f"not computed above 10^{len(str(ANALYSIS_TABLE_LIMIT)) - 1} (no table that large)"

    def _grundy_words(self) -> str:
        if self.grundy is not None:
            return str(self.grundy)
        if not self.rules.last_mover_wins:
            return "not shown (in misère play Grundy values do not decide sums of games)"
        return f"not computed above 10^{len(str(ANALYSIS_TABLE_LIMIT)) - 1} (no proved formula for this game)"

    def to_text(self) -> str:
        """Aligned plain text: one line per fact, then the explanation."""
        lines = [f"{label + ':':<15}{value}" for label, value in self._lines()]
        return "\n".join([*lines, "", self.explanation]) + "\n"

    def _repr_markdown_(self) -> str:
        rows = "\n".join(f"| {label} | {value} |" for label, value in self._lines())
        return f"| | |\n|---|---|\n{rows}\n\n{self.explanation}"


def check_n(n: object) -> int:
    """n as an int if it is a positive whole number up to 10**18, else PositionError (a DuelError) naming it."""
    return position(n, "n")


def analyse(rules: Rules | str, n: int) -> Analysis:
    """Analyse position n (Player 1 to move) under ``rules`` (a Rules value or a book name).

    Raises a DuelError subclass for a bad n or unknown rules, and TooBigError for a variant
    without a closed form above the solver's TABLE_LIMIT.
    """
    book = get_rules(rules)
    n = check_n(n)
    ask = oracle(book)
    state = GameState(book, n)
    return Analysis(
        n=n,
        rules=book,
        outcome=ask.outcome(n),
        winning_moves=coach.winning_moves(state),
        remoteness=ask.remoteness(n),
        grundy=ask.grundy(n),
        explanation=ask.explain(n),
        source=ask.source(n),
    )


__all__ = ["ANALYSIS_TABLE_LIMIT", "Analysis", "analyse", "check_n"]
