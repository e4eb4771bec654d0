"""Reading answers a question allows in any size or form: whole numbers beyond 10¹⁸, and products of sums.

A check whose question allows a number of any size ("a number above 10¹² with exactly one divisor
1 < d < n") reads it with :func:`whole_any` (``plain`` keeps such a number as a
:class:`~duel_lessons.teaching.plain.LargeNumber`, which every other check treats as unreadable) and
factorises it with :func:`prime_factors`, which spends a fixed amount of work (no clock) and says when
that is not enough.  A count written as a formula, ``(3+1)*(2+1)``, is read by :func:`sum_of_products`:
a tiny parser, never ``eval``.
"""

from __future__ import annotations

import functools
import math
import re

from duel_lessons.teaching.feedback import as_whole
from duel_lessons.teaching.plain import LargeNumber

#: Up to here a number is factorised completely (at once); beyond, a fixed amount of work is spent (no clock).
READ = 10**18
#: Beyond READ: trial division up to SMALL_PRIMES, then the elliptic-curve method (fixed bounds and seed) on
#: cofactors of at most ECM_DIGITS digits.  A prime squared or cubed is recognised at any size.
SMALL_PRIMES = 10**5
ECM_DIGITS = 100


def _prime(n: int) -> bool:
    import sympy

    return bool(sympy.isprime(n))


def _root(n: int, k: int) -> int | None:
    """The whole k-th root of n, if n is a k-th power."""
    import sympy

    root, exact = sympy.integer_nthroot(n, k)
    return int(root) if exact else None


def _split(k: int) -> dict[int, int] | None:
    """The prime factors of k (no prime factor up to SMALL_PRIMES), or None when the fixed work does not find them."""
    import sympy
    from sympy.ntheory import ecm

    if k <= READ:
        return {int(q): int(e) for q, e in sympy.factorint(k).items()}
    if _prime(k):
        return {k: 1}
    for power in (2, 3):
        root = _root(k, power)
        if root is not None and (inner := _split(root)) is not None:
            return {q: e * power for q, e in inner.items()}
    if len(str(k)) > ECM_DIGITS:
        return None
    try:
        found = sorted(int(q) for q in ecm(k, B1=2000, B2=200_000, max_curve=15, seed=1))
    except ValueError:  # "Increase the bounds": not found with this much work
        return None
    factors: dict[int, int] = {}
    for q in found:
        if not _prime(q):
            return None
        while k % q == 0:
            k //= q
            factors[q] = factors.get(q, 0) + 1
    return factors if k == 1 else None


@functools.lru_cache(maxsize=64)
def prime_factors(n: int) -> dict[int, int] | None:
    """The prime factors of n with their powers; None when n is beyond READ and a fixed amount of work does not
    find them (a prime, a prime squared or a prime cubed is recognised at any size).

    >>> prime_factors(72), prime_factors(1)
    ({2: 3, 3: 2}, {})
    >>> p, q = 10**12 + 39, 10**13 + 37   # both prime
    >>> prime_factors(p**2), prime_factors(2 * 3**2 * p * q) == {2: 1, 3: 2, p: 1, q: 1}
    ({1000000000039: 2}, True)
    """
    import sympy

    if n <= READ:
        return {int(q): int(e) for q, e in sympy.factorint(n).items()}
    small = sympy.factorint(n, limit=SMALL_PRIMES, use_rho=False, use_pm1=False, use_ecm=False)
    factors: dict[int, int] = {}
    for k, e in small.items():
        found = {int(k): 1} if k <= SMALL_PRIMES else _split(int(k))
        if found is None:
            return None
        for q, f in found.items():
            factors[q] = factors.get(q, 0) + e * f
    return factors


def inner_count(n: int) -> int | None:
    """How many divisors d of n have 1 < d < n, from the prime factors; None when they are not found
    (see :func:`prime_factors`).

    >>> inner_count(12), inner_count(49), inner_count(7), inner_count(1)
    (4, 1, 0, 0)
    >>> p, q = 10**12 + 39, 10**13 + 37   # both prime
    >>> inner_count(p * p), inner_count(p**3), inner_count(p * q), inner_count(2 * p * q)
    (1, 2, 2, 6)
    """
    factors = prime_factors(n)
    if factors is None:
        return None
    return max(math.prod(e + 1 for e in factors.values()) - 2, 0)


def whole_any(value: object) -> int | None:
    """A plain answer as a whole number of any size (up to ``plain.LARGE_DIGITS`` digits), else None.

    >>> from duel_lessons.teaching.plain import plain
    >>> whole_any(plain(10**30)) == 10**30, whole_any(12.0), whole_any("12"), whole_any(True)
    (True, 12, None, None)
    """
    if isinstance(value, LargeNumber):
        return value.value
    return as_whole(value)


TOKENS = re.compile(r"\s*(?:(\d+)|([-+*×x·()])|(\S))")
TIMES = ("*", "×", "x", "·")
#: The longest expression read, and the deepest brackets.
MAX_TEXT, MAX_DEPTH = 200, 6


def sum_of_products(text: str) -> list[list[int]] | None:
    """A text read as a sum of products of whole numbers: its terms, each the list of its factors. A bracket
    holding a sum is one factor, its value; a bracket holding a product adds its factors. None if the text is
    anything else (no eval: a tiny parser of digits, +, * × x ·, and brackets).

    >>> read = sum_of_products
    >>> read("(3+1)*(2+1)"), read("4 × 3"), read("(3 + 1)(2 + 1)"), read("(4*3)")
    ([[4, 3]], [[4, 3]], [[4, 3]], [[4, 3]])
    >>> read("3 + 2"), read("3+1*2+1"), read("4 - 1"), read("2**3")
    ([[3], [2]], [[3], [1, 2], [1]], None, None)
    """
    if len(text) > MAX_TEXT:
        return None
    tokens = []
    for match in TOKENS.finditer(text):
        number, sign, other = match.groups()
        if other is not None or sign == "-" or (number is not None and len(number) > 6):
            return None
        tokens.append(number or sign)
    at = 0

    def peek() -> str | None:
        return tokens[at] if at < len(tokens) else None

    def expression(depth: int) -> list[list[int]] | None:
        nonlocal at
        first = term(depth)
        if first is None:
            return None
        terms = [first]
        while peek() == "+":
            at += 1
            more = term(depth)
            if more is None:
                return None
            terms.append(more)
        return terms

    def term(depth: int) -> list[int] | None:
        nonlocal at
        factors = factor(depth)
        while factors is not None and peek() in (*TIMES, "("):
            if peek() != "(":
                at += 1
            more = factor(depth)
            factors = None if more is None else factors + more
        return factors

    def factor(depth: int) -> list[int] | None:
        nonlocal at
        token = peek()
        if token is not None and token.isdigit():
            at += 1
            return [int(token)]
        if token != "(" or depth >= MAX_DEPTH:
            return None
        at += 1
        inside = expression(depth + 1)
        if inside is None or peek() != ")":
            return None
        at += 1
        return inside[0] if len(inside) == 1 else [sum(math.prod(t) for t in inside)]

    terms = expression(0)
    return terms if terms is not None and at == len(tokens) else None
