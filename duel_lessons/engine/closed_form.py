"""The closed-form type: a proved rule for who wins a game from n, with one winning move and a proof.

It sits in the engine, below the rule books, so that a book module (``duel_lessons/books/``)
needs nothing but the engine: its ``Rules``, and its ``ClosedForm`` values built with the
arithmetic helpers here.  Finding the closed form of a rule set is the solving layer's job
(:func:`duel_lessons.solving.closed_forms.closed_form`).

>>> factor_words(60), split_two_power(60), least_prime_factor(91)
('2^2 × 3 × 5', '60 = 2^2 × 15', 7)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from duel_lessons.engine.numbers import (
    factorint,
    is_power_of_two,
    is_prime,
    odd_part,
    omega,
    position,
    smallest_prime_factor,
    v2,
)
from duel_lessons.engine.rules import Game, Rules

__all__ = [
    "ClosedForm",
    "factor_words",
    "is_power_of_two",
    "is_prime",
    "least_prime_factor",
    "odd_part",
    "omega",
    "split_two_power",
    "v2",
]

# -- arithmetic helpers shared by the proofs -------------------------------------------


def least_prime_factor(n: int) -> int:
    """The smallest prime factor of n >= 2 (trial division first, then sympy).

    >>> least_prime_factor(91)
    7
    """
    p = smallest_prime_factor(n)
    assert p is not None, n
    return p


def factor_words(n: int) -> str:
    """n's prime factorisation in words.

    >>> factor_words(60)
    '2^2 × 3 × 5'
    """
    return " × ".join(f"{p}^{e}" if e > 1 else str(p) for p, e in sorted(factorint(n).items()))


def split_two_power(n: int) -> str:
    """An even n that is not a power of 2, split into its power of 2 and its odd part.

    >>> split_two_power(60), split_two_power(30)
    ('60 = 2^2 × 15', '30 = 2 × 15')
    """
    k = v2(n)
    return f"{n} = 2^{k} × {n >> k}" if k > 1 else f"{n} = 2 × {n >> 1}"


# -- the closed form type -----------------------------------------------------------


@dataclass(frozen=True)
class ClosedForm:
    """A proved rule for who wins a game from n, with one winning move and a proof.

    ``rules`` is a rule set of the game it solves (every rule set with the same
    ``rules.game`` is solved by it).  ``statement`` is one markdown sentence, ``proof``
    a lesson-ready markdown proof, ``hint`` the coach's nudge towards the idea (it must
    not state the theorem).
    """

    name: str
    rules: Rules
    statement: str
    proof: str
    p_rule: Callable[[int], bool]
    move_rule: Callable[[int], int | None]
    explain_rule: Callable[[int], str]
    grundy_rule: Callable[[int], int] | None = None
    hint: str = field(default="", compare=False)

    @property
    def key(self) -> Game:
        """The game this form solves (``rules.game``): every rule set with this game shares the form."""
        return self.rules.game

    def is_p(self, n: int) -> bool:
        """Whether n (>= 1) is a P-position: the player to move loses with best play."""
        return self.p_rule(_check(n))

    def is_n(self, n: int) -> bool:
        """Whether n is an N-position: the player to move wins with best play."""
        return not self.is_p(n)

    def winning_move(self, n: int) -> int | None:
        """One divisor that wins from n (its result is a P-position), or None if there is none."""
        return self.move_rule(_check(n))

    def explain(self, n: int) -> str:
        """Why n is won or lost for the player to move, in words from the proof."""
        return self.explain_rule(_check(n))

    @property
    def has_grundy(self) -> bool:
        """Whether a proved formula for the Grundy value comes with this closed form."""
        return self.grundy_rule is not None

    def grundy(self, n: int) -> int | None:
        """The Grundy value of n where a formula is proved, else None."""
        n = _check(n)
        return None if self.grundy_rule is None else self.grundy_rule(n)

    def _repr_markdown_(self) -> str:
        return f"**{self.name}.** {self.statement}\n\n{self.proof}"


def _check(n: object) -> int:
    """n as an int if it is a position 1 .. 10**18 (numpy integers welcome), else PositionError."""
    return position(n, "A position")
