"""Helpers shared by the lessons' check modules: tables, reached numbers and comparisons in words."""

from __future__ import annotations

from collections.abc import Iterable

from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.tables import Table, tabulate
from duel_lessons.teaching.checks import Params
from duel_lessons.teaching.feedback import Verdict, is_unanswered, plain


def rules_of(p: Params) -> Rules:
    """The lesson's rule book (parameter ``rules``, Divisor Duel by default)."""
    return get_rules(p.get("rules", "divisor-duel"))


def table_of(p: Params, upto: int) -> Table:
    """The solver's table for the lesson's rules, n = 1 .. upto (at least 2)."""
    return tabulate(rules_of(p), max(2, int(upto)))


def stuck(rules: Rules, n: int) -> bool:
    """Whether the player to move from n has no move at all (the game is over).

    >>> from duel_lessons import DIVISOR_DUEL
    >>> [n for n in range(1, 10) if stuck(DIVISOR_DUEL, n)]
    [1, 2, 3, 5, 7]
    """
    return not rules.divisors_of(n) or rules.ends_on_reaching(n) is not None


def subset_form(value: object, pool: Iterable[int], name: str = "") -> str | None:
    """A guess form (``SPEC.guess_form``): None when ``value`` lists some of ``pool`` (or none), else what to write.

    ``name`` is how the notebook calls the pool ("STARTS"); the value is made plain first.

    >>> subset_form([4, 8], [4, 6, 8]) is None, subset_form([], [4, 6, 8]) is None
    (True, True)
    >>> subset_form("dunno", [4, 6, 8], "STARTS")
    'Guess a list of numbers from STARTS = [4, 6, 8], such as [4] (or [] for none).'
    >>> subset_form([4, 10**30], [4, 6, 8]) is None, subset_form([True], [1, 2]) is None
    (False, False)
    """
    numbers = [int(n) for n in pool]
    value = plain(value)
    if isinstance(value, (list, tuple, set, frozenset)) and all(type(n) is int and n in numbers for n in value):
        return None
    where = f"{name} = {numbers}" if name else str(numbers)
    return f"Guess a list of numbers from {where}, such as [{numbers[0]}] (or [] for none)."


def expression_form(answer: object, example: str) -> Verdict | None:
    """A format verdict for an answer that is not typed text, with this step's own example; else None.

    The framework's messages for text that is missing or blank show ``d*(N/d - 1)``, which is the
    answer of proof step 1: this lesson must give its own example first.

    >>> expression_form(5, "2*(N + d)").message
    'Type the expression as text in quotes, such as "2*(N + d)".'
    >>> expression_form("  ", "2*(N + d)").key, expression_form("N - d", "2*(N + d)")
    ('format:blank', None)
    """
    value = plain(answer)
    if is_unanswered(value):
        return None
    if not isinstance(value, str):
        return Verdict("format", f'Type the expression as text in quotes, such as "{example}".', key="format:not-text")
    if not value.strip():
        return Verdict("format", f'That is empty: type an expression, such as "{example}".', key="format:blank")
    return None
