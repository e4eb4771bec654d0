"""The oracle: who wins from n under a rule set, and where the answer came from.

This module alone owns the policy for answering questions about a position:

1. **table**, if n is small enough (up to ``table_size``, default 10**6): outcome,
   winning moves, remoteness and Grundy value, all from the solver;
2. **closed form**, if a proved one exists for the rules: outcome and winning moves
   for any n up to 10**18, the Grundy value where a formula is proved; where there is no
   closed form but a proved Grundy formula (:mod:`duel_lessons.solving.grundy_formulas`),
   the outcome from it: n is P exactly when its Grundy value is 0 (:func:`grundy_form`);
3. **computed table** up to the solver's limit (10**7) for rules without a closed form;
4. otherwise a clear refusal: :class:`~duel_lessons.engine.errors.TooBigError`.

The choice is made once per number, in :meth:`Oracle.answers`: it gives an
:class:`Answers` (the table's, :class:`TableAnswers`, or the proved formula's,
:class:`FormulaAnswers`), and every question (``is_p``, ``winning_moves``, ``best_move``,
``remoteness``, ``grundy``, ``explain``) is answered by it.  Its :data:`Source` says which
("table" or "closed form"), in words :data:`SOURCE_WORDS` for the CLI, analysis and the coach.

Players, the coach, analysis, sums and the views ask the oracle; none of them decides
this for itself.

>>> o = oracle("divisor-duel")
>>> o.outcome(60), o.winning_moves(60), o.source(60)
('N', (3, 5, 15), 'table')
>>> o.is_p(2**59), o.source(2**59)
(True, 'closed form')
>>> one = oracle(get_rules("divisor-duel").variant(allow_one=True))
>>> one.outcome(10**12), one.winning_move(10**12), one.source(10**12)
('N', 1, 'closed form')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Literal, Protocol

from duel_lessons.engine.errors import RulesError, TooBigError
from duel_lessons.engine.numbers import MAX_NUMBER, position
from duel_lessons.engine.rules import Game, Rules, get_rules
from duel_lessons.solving.closed_forms import ClosedForm, closed_form
from duel_lessons.solving.grundy_formulas import GrundyFormula, formula_for
from duel_lessons.solving.tables import TABLE_LIMIT, Table, tabulate

#: Up to this number the oracle reads the solver's table (with remoteness and Grundy values).
DEFAULT_TABLE_SIZE = 10**6
#: The smallest table the oracle builds (tables are sized in powers of 2 from here).
MIN_TABLE = 1024

#: Where the oracle's answers about a number come from: the solver's "table", or a proved
#: "closed form" (a book's closed form, or outcomes from a proved Grundy formula) above the table.
Source = Literal["table", "closed form"]

#: Each source in words, for people: the CLI, analysis and the coach say it this way.
SOURCE_WORDS: dict[Source, str] = {
    "table": "the solver's table (computed)",
    "closed form": "a proved closed form",
}

Terminal = Literal["reached-win", "reached-loss", "stuck"]


def table_length(n: int, cap: int) -> int:
    """The table length used for n: the next power of 2 from MIN_TABLE, at most cap (but at least n).

    >>> table_length(60, 10**6), table_length(5000, 10**6), table_length(10**6, 10**6)
    (1024, 8192, 1000000)
    """
    upto = MIN_TABLE
    while upto < n:
        upto *= 2
    return max(min(upto, cap), n)


def grundy_form(rules: Rules) -> ClosedForm | None:
    """Outcomes from the proved Grundy formula of these rules, as a closed form (P iff the value is 0), or None.

    >>> form = grundy_form(get_rules("divisor-duel").variant(allow_one=True))
    >>> form.is_p(3 * 2**40), form.winning_move(3 * 2**40), form.grundy(3 * 2**40)
    (False, 1, 40)
    >>> grundy_form(get_rules("divisor-duel")) is None
    True
    """
    formula = formula_for(rules)
    if formula is None:
        return None
    value = formula.value

    def is_p(n: int) -> bool:
        return value(n) == 0

    def move(n: int) -> int | None:
        return None if is_p(n) else next((d for d in rules.divisors_of(n) if is_p(rules.result(n, d))), None)

    def explain(n: int) -> str:
        g = value(n)
        said = f"By the proved Grundy formula ({formula.statement.rstrip('.')}), {n:,} has Grundy value {g}"
        d = move(n)
        if d is None:
            return said + f", so {n:,} is lost for the player to move: every move leaves a Grundy value above 0."
        return said + f", so it is won: subtract {d:,}: {n:,} − {d:,} = {rules.result(n, d):,}, of Grundy value 0."

    return ClosedForm(
        name=formula.name,
        rules=rules,
        statement=f"$n$ is a P-position iff its Grundy value is 0: {formula.statement}",
        proof=formula.proof,
        p_rule=is_p,
        move_rule=move,
        explain_rule=explain,
        grundy_rule=value,
    )


def terminal(game: Game, n: int) -> Terminal | None:
    """How the game stands at n if nobody can move there, else None (lists no divisors: one is enough).

    >>> game = get_rules("factor-duel").game
    >>> terminal(game, 7), terminal(game, 8)
    ('reached-win', None)
    """
    reached = game.ends_on_reaching(n)
    if reached is not None:
        return "reached-win" if reached == "win" else "reached-loss"
    return "stuck" if game.smallest_divisor(n) is None else None


class Answers(Protocol):
    """The answers about one number from one source, chosen by :meth:`Oracle.answers`.

    ``best_move`` and ``explain`` are asked only where somebody can move (the oracle
    answers finished positions itself).
    """

    @property
    def source(self) -> Source:
        """Where these answers come from."""

    @property
    def proof(self) -> ClosedForm | None:
        """The proved form behind the explanations, if any."""

    def is_p(self, n: int) -> bool:
        """Whether n is a P-position."""

    def winning_moves(self, n: int) -> tuple[int, ...]:
        """Every legal divisor from n whose result is a P-position, smallest first."""

    def best_move(self, n: int) -> int | None:
        """The move a perfect player makes from n (n is not finished)."""

    def remoteness(self, n: int) -> int | None:
        """Moves left with best play, or None where not known."""

    def grundy(self, n: int) -> int | None:
        """The Grundy value of n, or None where not known."""

    def explain(self, n: int) -> str:
        """Why n is won or lost (n is not finished)."""


@dataclass(frozen=True)
class TableAnswers:
    """Answers from the solver's table; explanations from the proof where the game has a closed form."""

    rules: Rules
    table: Table
    proof: ClosedForm | None = None
    source: Source = "table"

    def is_p(self, n: int) -> bool:
        """Whether n is a P-position, read from the table."""
        return self.table.is_p(n)

    def winning_moves(self, n: int) -> tuple[int, ...]:
        """The table's winning moves from n."""
        return self.table.winning_moves(n)

    def best_move(self, n: int) -> int | None:
        """The fastest winning move, else the move that delays longest; ties to the smallest divisor."""
        game, table = self.rules.game, self.table
        results = [(d, game.result(n, d)) for d in game.divisors_of(n)]
        winning = [(int(table.remoteness[r]), d) for d, r in results if table.is_p(r)]
        if winning:
            return min(winning)[1]
        return min((-int(table.remoteness[r]), d) for d, r in results)[1]

    def remoteness(self, n: int) -> int | None:
        """The table's remoteness of n."""
        return int(self.table.remoteness[n])

    def grundy(self, n: int) -> int | None:
        """The table's Grundy value of n (None in misère play)."""
        value = int(self.table.grundy[n])
        return None if value < 0 else value

    def explain(self, n: int) -> str:
        """The proof's words where there is one, else the table's: which moves win, and how fast."""
        if self.proof is not None:
            return self.proof.explain(n)
        moves = self.table.winning_moves(n)
        rem = int(self.table.remoteness[n])
        source = f"Computed with the solver's table (there is no proved formula for {self.rules.title}): "
        if moves:
            return source + (
                f"{', '.join(map(str, moves))} leave{'s' if len(moves) == 1 else ''} a losing position, "
                f"so {n} is won for the player to move, in {rem} more moves with best play."
            )
        return source + (
            f"every move from {n} leaves a winning position for the opponent, so {n} is lost for the player "
            f"to move (best resistance lasts {rem} moves)."
        )


@dataclass(frozen=True)
class FormulaAnswers:
    """Answers above the table: outcomes from a proved form, Grundy values from a proved formula.

    No remoteness is known here, except at a finished position.
    """

    rules: Rules
    form: ClosedForm
    formula: GrundyFormula | None = None
    source: Source = "closed form"

    @property
    def proof(self) -> ClosedForm | None:
        """The form itself."""
        return self.form

    def is_p(self, n: int) -> bool:
        """Whether n is a P-position, by the form."""
        return self.form.is_p(n)

    def winning_moves(self, n: int) -> tuple[int, ...]:
        """The legal divisors whose result the form calls P (lists the divisors of n)."""
        game = self.rules.game
        if game.ends_on_reaching(n) is not None:
            return ()
        return tuple(d for d in game.divisors_of(n) if self.form.is_p(game.result(n, d)))

    def best_move(self, n: int) -> int | None:
        """The form's winning move, else (a heuristic) the smallest legal divisor: it keeps the game long."""
        move = self.form.winning_move(n)
        return move if move is not None else self.rules.game.smallest_divisor(n)

    def remoteness(self, n: int) -> int | None:
        """0 at a finished position (1 where reaching n lost), else None: not known above the table."""
        stands = terminal(self.rules.game, n)
        if stands is None:
            return None
        return 1 if stands == "reached-loss" else 0

    def grundy(self, n: int) -> int | None:
        """The proved Grundy formula's value; else 0 at a finished position (1 where reaching n lost), or the form's."""
        if self.formula is not None:
            return self.formula.value(n)
        stands = terminal(self.rules.game, n)
        if stands is not None and self.rules.last_mover_wins:
            return 1 if stands == "reached-loss" else 0
        return self.form.grundy(n)

    def explain(self, n: int) -> str:
        """The form's explanation."""
        return self.form.explain(n)


@dataclass(frozen=True)
class Oracle:
    """Answers about positions of one rule set; see the module docstring for the policy."""

    rules: Rules
    table_size: int = DEFAULT_TABLE_SIZE
    form: ClosedForm | None = field(default=None, compare=False)
    #: For :meth:`is_p`'s quick path: [largest n of the table read so far, its outcomes as bytes (0 = P)].
    _outcomes: list[object] = field(default_factory=lambda: [0, b""], init=False, compare=False, repr=False)

    # -- where an answer comes from ------------------------------------------------

    @cached_property
    def above_table(self) -> ClosedForm | None:
        """What answers above the table: the proved closed form, else outcomes from a proved Grundy formula."""
        return self.form if self.form is not None else grundy_form(self.rules)

    @cached_property
    def _formula_answers(self) -> FormulaAnswers | None:
        above = self.above_table
        return None if above is None else FormulaAnswers(self.rules, above, formula_for(self.rules))

    def table(self, n: int) -> Table | None:
        """The solver's table covering n if n is within ``table_size`` (or needed: no closed form), else None.

        Raises TooBigError when there is no closed form and n is above the solver's limit.
        """
        n = position(n)
        if n <= self.table_size:
            return tabulate(self.rules, table_length(n, self.table_size))
        if self.above_table is not None:
            return None
        if n > TABLE_LIMIT:
            raise TooBigError(
                f"{self.rules.title} ({self.rules.name}) has no proved closed form or Grundy formula, and {n:,} is "
                f"above the largest table the solver builds (TABLE_LIMIT = {TABLE_LIMIT:,}), so who wins from "
                f"{n:,} cannot be computed. Try a smaller number, or a variant with a closed form."
            )
        return tabulate(self.rules, table_length(n, TABLE_LIMIT))

    def answers(self, n: int) -> Answers:
        """What answers questions about n: the table's answers within it, else the proved formula's.

        The one place that chooses (TooBigError if neither can answer).

        >>> o = oracle("divisor-duel")
        >>> type(o.answers(60)).__name__, type(o.answers(2**59)).__name__
        ('TableAnswers', 'FormulaAnswers')
        """
        table = self.table(n)
        if table is not None:
            return TableAnswers(self.rules, table, self.form)
        assert self._formula_answers is not None  # table() returns None only where there is a proved form
        return self._formula_answers

    def source(self, n: int) -> Source:
        """Where answers about n come from: 'table' or 'closed form' (TooBigError if neither)."""
        return self.answers(n).source

    def can_answer(self, n: int) -> bool:
        """Whether the oracle can say who wins from n (no TooBigError)."""
        try:
            self.table(n)
        except TooBigError:
            return False
        return True

    # -- answers -------------------------------------------------------------------

    def is_p(self, n: int) -> bool:
        """Whether n is a P-position: the player to move loses with best play.

        The quick path (a plain int): within a table already read, one byte of a copy of its
        outcomes; above the table, the proved rule itself.  No lock, cache look-up or slicing per
        call: ``benchmarks/bench_oracle.py`` times it against the closed form's own test.
        """
        if type(n) is int:
            upto, outcomes = self._outcomes
            if 1 <= n <= upto:  # type: ignore[operator]
                return outcomes[n] == 0  # type: ignore[index, no-any-return]
            rule = self._quick_rule
            if rule is not None and self.table_size < n <= MAX_NUMBER:
                return rule(n)
        answers = self.answers(n)
        if isinstance(answers, TableAnswers) and answers.table.upto > self._outcomes[0]:  # type: ignore[operator]
            self._outcomes[:] = [answers.table.upto, answers.table.outcome.tobytes()]
        return answers.is_p(n)

    @cached_property
    def _quick_rule(self) -> Callable[[int], bool] | None:
        """The proved P-position rule above the table (on checked ints), or None."""
        above = self.above_table
        return None if above is None else above.p_rule

    def outcome(self, n: int) -> Literal["P", "N"]:
        """'P' (the player to move loses) or 'N' (the player to move wins)."""
        return "P" if self.is_p(n) else "N"

    def winning_moves(self, n: int) -> tuple[int, ...]:
        """Every legal divisor from n whose result is a P-position, smallest first."""
        return self.answers(n).winning_moves(n)

    def winning_move(self, n: int) -> int | None:
        """One winning divisor from n (the fastest where the table knows), or None from a P-position.

        Never lists every divisor of a huge n: above the table it asks the closed form for one move.
        """
        move = self.best_move(n)
        return move if move is not None and not self.is_p(n) else None

    def best_move(self, n: int) -> int | None:
        """The move a perfect player makes from n, or None if there is no move.

        Within the table: from an N-position the winning move with the least remoteness (the
        fastest win), from a P-position the move whose result has the largest remoteness (the
        longest delay, hoping for a mistake); ties go to the smallest divisor.  Above the table:
        the closed form's winning move, and from a P-position the smallest legal divisor (a
        heuristic: it keeps the number large and the game long; no remoteness is known there).

        >>> oracle("divisor-duel").best_move(60), oracle("divisor-duel").best_move(9)
        (3, 3)
        """
        answers = self.answers(n)
        return None if terminal(self.rules.game, n) is not None else answers.best_move(n)

    def remoteness(self, n: int) -> int | None:
        """Moves left with best play (the winner hurries, the loser delays), or None above the table.

        Conventions (the solver's): a finished or stuck position has remoteness 0, except a number
        whose reaching loses, which has remoteness 1, as its Grundy value is 1: as if the player to
        move had one move, to a finished game.  In a normal-play game that ends only by a player
        being stuck, P-positions have even and N-positions odd remoteness; with these conventions
        that also holds when reaching a number wins or loses, but not in misère play (a stuck
        player wins there, with remoteness 0).
        """
        return self.answers(n).remoteness(n)

    def grundy(self, n: int) -> int | None:
        """The Grundy value of n: from the table, or a proved formula; None where neither applies.

        In misère play the solver gives no Grundy value (None): the values exist, but they do not
        decide misère sums, so the package does not use them.  Above the table, a proved Grundy
        formula (solving.grundy_formulas) answers where there is one.

        >>> oracle(get_rules("divisor-duel").variant(allow_one=True)).grundy(3 * 2**50)
        50
        """
        n = position(n)
        return self.answers(n).grundy(n)

    def explain(self, n: int) -> str:
        """Why n is won or lost for the player to move, from the proof where there is one.

        >>> print(oracle("number-factor").explain(7))
        7 is prime, so it has no divisor d with 1 < d < 7: the player to move must pass; then nobody can move, \
and after two passes the last player who moved wins, so the player to move loses.
        """
        n = position(n)
        stands = terminal(self.rules.game, n)
        over = stands is not None and (stands != "stuck" or self.rules.when_stuck == "end")
        if over or (stands is not None and self.form is None):
            assert stands is not None
            return self.terminal_words(n, stands)  # "Game over: ...", or why the player must pass
        return self.answers(n).explain(n)

    def terminal_words(self, n: int, terminal: Terminal) -> str:
        """Why nobody can move from n, and who that makes the winner ("Game over: ..." where the game has ended).

        >>> print(oracle("factor-duel").terminal_words(7, "reached-win"))
        Game over: reaching a prime wins at once, so whoever moved to 7 (a prime) has won: the player to move has lost.
        """
        rules = self.rules
        if terminal != "stuck":
            won = terminal == "reached-win"
            target = rules.win_on_reaching if won else rules.lose_on_reaching
            kind = rules.target_words(target)
            where = "1" if target == "one" else f"{n} (a prime)"
            return (
                f"Game over: reaching {kind} {'wins' if won else 'loses'} at once, so whoever moved to {where} has "
                f"{'won' if won else 'lost'}: the player to move has {'lost' if won else 'won'}."
            )
        rule, result = rules.last_mover_rule, "loses" if rules.last_mover_wins else "wins"
        if rules.when_stuck == "pass":
            return (
                f"{n} has no allowed divisor ({rules.divisor_words}), so the player to move must pass, and so must "
                f"the opponent; after two passes the game ends, {rule}, so the player to move {result}."
            )
        return (
            f"Game over: {n} has no allowed divisors ({rules.divisor_words}), so the player to move cannot move, "
            f"and {rule}: the player to move {result}."
        )


@lru_cache(maxsize=64)
def _oracle(rules: Rules, table_size: int, form: ClosedForm | None) -> Oracle:
    return Oracle(rules, table_size, form)


def oracle(rules: Rules | str, table_size: int = DEFAULT_TABLE_SIZE) -> Oracle:
    """The oracle for a rule set (by value or name), cached.

    >>> oracle("factor-duel").is_p(100)
    False
    """
    if isinstance(table_size, bool) or not isinstance(table_size, int) or table_size < 0:
        raise RulesError(f"table_size must be a whole number of at least 0 (0: closed forms only), not {table_size!r}.")
    book = get_rules(rules)
    return _oracle(book, table_size, closed_form(book))  # the form is looked up each time: books may be added
