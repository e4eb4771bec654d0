"""Numbers: the one reader of typed numbers, and the number theory the rules need.

Typed text is read by :func:`read_number` everywhere (terminal, board, explorers),
so the same text gets the same verdict everywhere.  The rule is deliberately
plain: optional spaces, an optional ``+`` or ``-``, then the ASCII digits 0-9 and
nothing else.  ``²``, ``⑧``, ``١٢`` (Arabic-Indic) and ``１２`` (full width) pass
``str.isdigit`` but are refused, because ``int()`` either rejects them or reads
them in a way a student would not expect.

>>> read_number(" 60 ")
60
>>> read_number("１２")
Traceback (most recent call last):
...
duel_lessons.engine.errors.NumberInputError: '１２' is not a whole number: type it with the digits 0-9 only, such as 60.

sympy does the number theory. It is imported on first use, because importing it
takes about half a second and the solver's tables never need it; below TRIAL_BELOW
divisors and primality come from trial division, so a game's first position never waits for it.
"""

from __future__ import annotations

import math
import operator
import re
from typing import SupportsIndex

from duel_lessons.engine.errors import DuelError, NumberInputError, PositionError

#: The largest number the engine accepts (sympy factorises it in milliseconds).
MAX_NUMBER = 10**18
#: Typed text longer than this is a typing slip, not a number.
MAX_TYPED = 1000

_WHOLE = re.compile(r"[+-]?[0-9]+")

#: Trial division by these finds the smallest prime factor of most numbers at once.
_SMALL_PRIMES: tuple[int, ...] = tuple(p for p in range(2, 1000) if all(p % q for q in range(2, int(p**0.5) + 1)))


def read_number(text: str, what: str = "a whole number") -> int:
    """The whole number in typed ``text``, or NumberInputError saying what is wrong.

    ``what`` names the thing typed, for the message ("a divisor", "the start").

    >>> read_number("-7")
    -7
    >>> read_number("1.5", "a divisor")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duel_lessons.engine.errors.NumberInputError: '1.5' is not a whole number: type a divisor with the digits 0-9 ...
    """
    if not isinstance(text, str):
        raise NumberInputError(f"Expected typed text, not {type(text).__name__}.")
    typed = text.strip(" \t\r\n")
    if not typed:
        raise NumberInputError(f"Nothing was typed: type {what}, such as 60.")
    if len(typed) > MAX_TYPED:
        raise NumberInputError(f"That is {len(typed):,} characters long: too long to be {what}.")
    if not _WHOLE.fullmatch(typed):
        shown = typed if len(typed) <= 40 else typed[:40] + "…"
        target = "it" if what == "a whole number" else what
        raise NumberInputError(f"{shown!r} is not a whole number: type {target} with the digits 0-9 only, such as 60.")
    return int(typed)


def whole_number(value: object, what: str, error: type[DuelError] | None = None) -> int:
    """``value`` as an int, or ``error`` (DuelError) saying that ``what`` must be a whole number.

    Accepts int and anything with ``__index__`` (numpy integers), never bool, float or text.

    >>> whole_number(12, "The start")
    12
    """
    if type(value) is int:  # the common case, without the slow protocol check below
        return value
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise (error or DuelError)(f"{what} must be a whole number, not {value!r}.")
    try:
        return operator.index(value)
    except Exception as exc:  # a hostile __index__
        raise (error or DuelError)(f"{what} must be a whole number, not {type(value).__name__}.") from exc


def position(value: object, what: str = "The number") -> int:
    """``value`` as a position: an int from 1 to 10**18, else PositionError naming it (the one position check).

    >>> position(12), position(True is False or 7)
    (12, 7)
    >>> position(0)
    Traceback (most recent call last):
    ...
    duel_lessons.engine.errors.PositionError: The number must be a positive whole number from 1 to 10**18, not 0.
    """
    number = whole_number(value, what, PositionError)
    if not 1 <= number <= MAX_NUMBER:  # above 10**18 factorising could take for ever
        raise PositionError(f"{what} must be a positive whole number from 1 to 10**18, not {number}.")
    return number


#: Below this, divisors and primality come from trial division (microseconds, and no sympy import: a
#: game board's first position shows without waiting for sympy to load).
TRIAL_BELOW = 10**6


def is_prime(n: int) -> bool:
    """Whether n is prime (trial division below TRIAL_BELOW, else sympy.isprime).

    >>> is_prime(97), is_prime(91), is_prime(1), is_prime(2)
    (True, False, False, True)
    """
    if n < TRIAL_BELOW:
        return n >= 2 and all(n % p for p in range(2, math.isqrt(n) + 1))
    import sympy

    return bool(sympy.isprime(n))


def divisors(n: int) -> list[int]:
    """All divisors of n >= 1, smallest first, 1 and n included (trial division below TRIAL_BELOW, else
    sympy.divisors).

    >>> divisors(12), divisors(1), divisors(49)
    ([1, 2, 3, 4, 6, 12], [1], [1, 7, 49])
    """
    if n < TRIAL_BELOW:
        small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
        return small + [n // d for d in reversed(small) if d * d != n]
    import sympy

    return [int(d) for d in sympy.divisors(n)]


def factorint(n: int) -> dict[int, int]:
    """n's prime factorisation as {prime: exponent} (sympy.factorint).

    >>> factorint(60)
    {2: 2, 3: 1, 5: 1}
    """
    import sympy

    return {int(p): int(e) for p, e in sympy.factorint(n).items()}


def omega(n: int) -> int:
    """Big Omega: the number of prime factors of n counted with multiplicity.

    >>> omega(60)
    4
    """
    return sum(factorint(n).values())


def smallest_prime_factor(n: int, skip_two: bool = False) -> int | None:
    """The smallest prime factor of n (above 2 if ``skip_two``), or None.

    Trial division finds it at once unless every prime factor is above 1000;
    only then is n factorised.

    >>> smallest_prime_factor(91), smallest_prime_factor(12, skip_two=True)
    (7, 3)
    """
    for p in _SMALL_PRIMES:
        if n % p == 0 and not (skip_two and p == 2):
            return p
    if n < 2:
        return None
    return next((p for p in sorted(factorint(n)) if not (skip_two and p == 2)), None)


def v2(n: int) -> int:
    """The exponent of 2 in n (n >= 1): how many times 2 divides n.

    >>> v2(48)
    4
    """
    return (n & -n).bit_length() - 1


def odd_part(n: int) -> int:
    """n with every factor 2 shifted out.

    >>> odd_part(60)
    15
    """
    return n >> v2(n)


def is_power_of_two(n: int) -> bool:
    """Whether n = 2**k for some k >= 0.

    >>> is_power_of_two(64), is_power_of_two(96)
    (True, False)
    """
    return n >= 1 and n & (n - 1) == 0
