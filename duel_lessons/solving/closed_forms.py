"""Proved closed forms: who wins from n, in one line of arithmetic, with the proof.

This module holds the lookup :func:`closed_form`; the :class:`ClosedForm` type and the
arithmetic helpers the proofs share live below the books, in
:mod:`duel_lessons.engine.closed_form` (re-exported here).  The closed forms themselves live with their rule
books, in :mod:`duel_lessons.books` (a variant's closed form, such as "even divisors only",
lives in the file of the book it varies): each book module lists its ``CLOSED_FORMS``.

A *P-position* is a number from which the player to move loses with best play
(the Previous player wins); an *N-position* is one from which the player to move
(the Next player) wins.  Positions where the game is already over count as well:
a number whose reaching ends the game is P if reaching it won for the player who
moved there, and N if it lost.

Closed forms say who wins, not how long it takes: remoteness comes from the solver's
table (see :meth:`duel_lessons.solving.oracle.Oracle.remoteness`).  In normal play,
P-positions have even remoteness and N-positions odd (a number whose reaching loses
counts remoteness 1, like its Grundy value 1), so a proved P/N rule also gives the
parity of the game's length with best play; in misère play it does not.

>>> cf = closed_form("divisor-duel")
>>> cf.is_p(57), cf.winning_move(60)
(True, 15)
"""

from __future__ import annotations

import threading

from duel_lessons.engine.closed_form import (
    ClosedForm,
    factor_words,
    is_power_of_two,
    is_prime,
    least_prime_factor,
    odd_part,
    omega,
    split_two_power,
    v2,
)
from duel_lessons.engine.errors import RulesError
from duel_lessons.engine.rules import Game, Rules, book_modules, get_rules

__all__ = [
    "ClosedForm",
    "all_closed_forms",
    "closed_form",
    "factor_words",
    "is_power_of_two",
    "is_prime",
    "least_prime_factor",
    "odd_part",
    "omega",
    "split_two_power",
    "v2",
]

# -- the lookup ----------------------------------------------------------------------------

_lock = threading.Lock()
_cache: tuple[tuple[object, ...], dict[Game, ClosedForm]] = ((), {})


def _forms() -> dict[Game, ClosedForm]:
    """game -> closed form, collected from every book module's ``CLOSED_FORMS``."""
    global _cache
    modules = book_modules()
    with _lock:
        if _cache[0] != modules:
            forms: dict[Game, ClosedForm] = {}
            for module in modules:
                for form in getattr(module, "CLOSED_FORMS", ()):
                    if form.key in forms:
                        raise RulesError(f"Two closed forms solve the same game: {forms[form.key].name}, {form.name}.")
                    forms[form.key] = form
            _cache = (modules, forms)
        return _cache[1]


def all_closed_forms() -> tuple[ClosedForm, ...]:
    """Every registered closed form, book by book.

    >>> [cf.name for cf in all_closed_forms()][:2]
    ['Divisor Duel', 'Divisor Duel, even divisors only']
    """
    return tuple(_forms().values())


def closed_form(rules: Rules | str) -> ClosedForm | None:
    """The proved closed form for these rules (a Rules value or a book name), or None.

    Looked up by ``rules.game``: a renamed copy of a book has the same closed form.
    An unknown name, or anything else, raises RulesError.

    >>> closed_form("003").name
    'Factor Duel'
    """
    return _forms().get(get_rules(rules).game)
