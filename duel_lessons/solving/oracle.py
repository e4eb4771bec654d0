"""The oracle: who wins from n under a rule set, and where the answer came from.

This module alone owns the policy for answering questions about a position:

1. **table**, if n is small enough (up to ``table_size``, default 10**6): outcome,
   winning moves, remoteness and Grundy value, all from the solver;
2. **closed form**, if a proved one exists for the rules: outcome and winning moves
   for any n up to 10**18, the Grundy value where a formula is proved;
3. **computed table** up to the solver's limit (10**7) for rules without a closed form;
4. otherwise a clear refusal: :class:`~duel_lessons.engine.errors.TooBigError`.

Players, the coach, analysis, sums and the views ask the oracle; none of them decides
this for itself.

>>> o = oracle("divisor-duel")
>>> o.outcome(60), o.winning_moves(60), o.source(60)
('N', (3, 5, 15), 'table')
>>> o.is_p(2**59), o.source(2**59)
(True, 'closed form')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from duel_lessons.engine.errors import DuelError, TooBigError
from duel_lessons.engine.numbers import MAX_NUMBER, whole_number
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.closed_forms import ClosedForm, closed_form
from duel_lessons.solving.tables import TABLE_LIMIT, Table, tabulate

#: Up to this number the oracle reads the solver's table (with remoteness and Grundy values).
DEFAULT_TABLE_SIZE = 10**6
#: The smallest table the oracle builds (tables are sized in powers of 2 from here).
MIN_TABLE = 1024

Source = Literal["table", "closed form"]


def table_length(n: int, cap: int) -> int:
    """The table length used for n: the next power of 2 from MIN_TABLE, at most cap (but at least n).

    >>> table_length(60, 10**6), table_length(5000, 10**6), table_length(10**6, 10**6)
    (1024, 8192, 1000000)
    """
    upto = MIN_TABLE
    while upto < n:
        upto *= 2
    return max(min(upto, cap), n)


@dataclass(frozen=True)
class Oracle:
    """Answers about positions of one rule set; see the module docstring for the policy."""

    rules: Rules
    table_size: int = DEFAULT_TABLE_SIZE
    form: ClosedForm | None = field(default=None, compare=False)

    # -- where an answer comes from ------------------------------------------------

    def _number(self, n: object) -> int:
        n = whole_number(n, "The number")
        if not 1 <= n <= MAX_NUMBER:
            raise DuelError(f"The number must be from 1 to 10**18, not {n}.")
        return n

    def table(self, n: int) -> Table | None:
        """The solver's table covering n if n is within ``table_size`` (or needed: no closed form), else None.

        Raises TooBigError when there is no closed form and n is above the solver's limit.
        """
        n = self._number(n)
        if n <= self.table_size:
            return tabulate(self.rules, table_length(n, self.table_size))
        if self.form is not None:
            return None
        if n > TABLE_LIMIT:
            raise TooBigError(
                f"{self.rules.title} ({self.rules.name}) has no proved closed form, and {n:,} is above the "
                f"largest table the solver builds ({TABLE_LIMIT:,}), so who wins from {n:,} cannot be computed."
            )
        return tabulate(self.rules, table_length(n, TABLE_LIMIT))

    def source(self, n: int) -> Source:
        """Where answers about n come from: 'table' or 'closed form' (TooBigError if neither)."""
        return "table" if self.table(n) is not None else "closed form"

    def can_answer(self, n: int) -> bool:
        """Whether the oracle can say who wins from n (no TooBigError)."""
        try:
            self.table(n)
        except TooBigError:
            return False
        return True

    # -- answers -------------------------------------------------------------------

    def is_p(self, n: int) -> bool:
        """Whether n is a P-position: the player to move loses with best play."""
        table = self.table(n)
        if table is not None:
            return table.is_p(n)
        assert self.form is not None
        return self.form.is_p(n)

    def outcome(self, n: int) -> Literal["P", "N"]:
        """'P' (the player to move loses) or 'N' (the player to move wins)."""
        return "P" if self.is_p(n) else "N"

    def winning_moves(self, n: int) -> tuple[int, ...]:
        """Every legal divisor from n whose result is a P-position, smallest first."""
        table = self.table(n)
        if table is not None:
            return table.winning_moves(n)
        assert self.form is not None
        if self.rules.ends_on_reaching(n) is not None:
            return ()
        return tuple(d for d in self.rules.divisors_of(n) if self.form.is_p(self.rules.result(n, d)))

    def winning_move(self, n: int) -> int | None:
        """One winning divisor from n (the fastest where the table knows), or None from a P-position.

        Never lists every divisor of a huge n: above the table it asks the closed form for one move.
        """
        table = self.table(n)
        if table is not None:
            moves = table.winning_moves(n)
            if not moves:
                return None
            return min(moves, key=lambda d: (int(table.remoteness[self.rules.result(n, d)]), d))
        assert self.form is not None
        return self.form.winning_move(n)

    def remoteness(self, n: int) -> int | None:
        """Moves left with best play (the winner hurries, the loser delays), or None above the table."""
        table = self.table(n)
        return None if table is None else int(table.remoteness[n])

    def grundy(self, n: int) -> int | None:
        """The Grundy value of n: from the table, or a proved formula; None where neither applies.

        Misère variants have no Grundy value that decides sums; the table gives -1 there, returned as None.
        """
        table = self.table(n)
        if table is not None:
            value = int(table.grundy[n])
            return None if value < 0 else value
        assert self.form is not None
        return self.form.grundy(n)

    def explain(self, n: int) -> str:
        """Why n is won or lost for the player to move, from the proof where there is one."""
        n = self._number(n)
        if self.form is not None:
            return self.form.explain(n)
        table = self.table(n)
        assert table is not None
        moves = table.winning_moves(n)
        rem = int(table.remoteness[n])
        if moves:
            return (
                f"Computed with the solver's table (there is no proved formula for {self.rules.title}): "
                f"{', '.join(map(str, moves))} leave{'s' if len(moves) == 1 else ''} a losing position, "
                f"so {n} is won for the player to move, in {rem} more moves with best play."
            )
        return (
            f"Computed with the solver's table (there is no proved formula for {self.rules.title}): "
            f"every move from {n} leaves a winning position for the opponent, so {n} is lost for the player "
            f"to move (best resistance lasts {rem} moves)."
        )


@lru_cache(maxsize=64)
def _oracle(rules: Rules, table_size: int) -> Oracle:
    return Oracle(rules, table_size, closed_form(rules))


def oracle(rules: Rules | str, table_size: int = DEFAULT_TABLE_SIZE) -> Oracle:
    """The oracle for a rule set (by value or name), cached.

    >>> oracle("factor-duel").is_p(100)
    False
    """
    return _oracle(get_rules(rules), table_size)
