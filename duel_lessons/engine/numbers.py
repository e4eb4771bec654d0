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

import functools
import math
import operator
import re
from typing import Any, SupportsIndex

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
    """Whether n is prime (trial division below TRIAL_BELOW, Miller-Rabin up to 10**18, else sympy.isprime).

    >>> is_prime(97), is_prime(91), is_prime(1), is_prime(2)
    (True, False, False, True)
    """
    if n < TRIAL_BELOW:
        return n >= 2 and all(n % p for p in range(2, math.isqrt(n) + 1))
    if n <= MAX_NUMBER:
        return _is_probable_prime(n)
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


#: Trial division goes this far (the cube root of MAX_NUMBER): what is left of n <= 10**18 after it
#: has at most two prime factors, so it is 1, a prime, or a product of two primes.
TRIAL_LIMIT = 10**6
_trial_primes: list[object] = []  # the primes up to TRIAL_LIMIT as a numpy array, made on first use


def _primes_to_limit() -> object:
    """The primes up to TRIAL_LIMIT (numpy int64), sieved once (about 5 ms)."""
    if not _trial_primes:
        import numpy as np

        sieve = np.ones(TRIAL_LIMIT + 1, bool)
        sieve[:2] = False
        for p in range(2, math.isqrt(TRIAL_LIMIT) + 1):
            if sieve[p]:
                sieve[p * p :: p] = False
        _trial_primes.append(np.flatnonzero(sieve).astype(np.int64))
    return _trial_primes[0]


def _small_factors(n: int) -> tuple[list[int], int]:
    """The prime factors of n (1 <= n < 2**63) up to TRIAL_LIMIT, with repetition, smallest first, and what is left.

    Python's own division below 1000, then numpy's over all primes up to TRIAL_LIMIT at once.

    >>> _small_factors(2**3 * 999_983 * 1_000_003)
    ([2, 2, 2, 999983], 1000003)
    """
    found: list[int] = []
    for p in _SMALL_PRIMES:
        if p * p > n:
            break
        while n % p == 0:
            found.append(p)
            n //= p
    if n >= 1009 * 1009:  # a prime factor between 1000 and TRIAL_LIMIT is possible
        primes = _primes_to_limit()
        hits = primes[n % primes == 0].tolist()  # type: ignore[index, operator]
        for p in hits:
            while n % p == 0:
                found.append(p)
                n //= p
    return found, n


def _is_probable_prime(n: int) -> bool:
    """Miller-Rabin with the first 12 primes as bases: exact for every n < 318665857834031151167461 (~3 * 10**23).

    >>> _is_probable_prime(3215031751), _is_probable_prime(999_999_000_001)  # a strong pseudoprime to 2, 3, 5, 7
    (False, True)
    """
    if n < 2:
        return False
    for p in _SMALL_PRIMES[:12]:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _SMALL_PRIMES[:12]:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.cache
def _flint() -> object | None:
    """python-flint's module where it is installed (a dependency everywhere but Pyodide), else None."""
    try:
        import flint  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    return flint


def _split(n: int) -> int:
    """A factor 1 < f < n of a composite n that is not a prime power.

    FLINT's factoriser where python-flint is installed (about 0.3 ms for two primes near 10**9);
    otherwise Pollard's rho, Brent's variant, in Python: about sqrt(p) steps for the smallest prime
    factor p, at most about 3 * 10**4 for n <= 10**18 with no prime factor up to TRIAL_LIMIT (5-25 ms).

    >>> _split(1_000_003 * 1_000_033) in (1_000_003, 1_000_033)
    True
    """
    root = math.isqrt(n)
    if root * root == n:
        return root
    flint: Any = _flint()
    if flint is not None:
        return int(flint.fmpz(n).factor()[0][0])
    return _rho(n)


def _rho(n: int) -> int:
    """A factor 1 < f < n of a composite n that is not a square (Pollard's rho, Brent's variant, in Python).

    >>> _rho(1_000_003 * 1_000_033) in (1_000_003, 1_000_033)
    True
    """
    for c in range(1, 100):
        y, r, q, g = 2, 1, 1, 1
        x = ys = y
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(128, r - k)):
                    y = (y * y + c) % n
                    q = q * (x - y) % n
                g = math.gcd(q, n)
                k += 128
            r *= 2
        if g == n:  # the batch overshot: step through it one at a time
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(x - ys, n)
        if g != n:
            return g
    raise ArithmeticError(f"no factor of {n} found")  # pragma: no cover - rho with 99 constants


def _large_factors(m: int) -> list[int]:
    """The prime factors (with repetition) of m > 1 with none up to TRIAL_LIMIT, m <= 10**18: one or two."""
    if m < TRIAL_LIMIT * TRIAL_LIMIT or _is_probable_prime(m):
        return [m]
    f = _split(m)
    return sorted((f, m // f))


def smallest_prime_factor(n: int, skip_two: bool = False) -> int | None:
    """The smallest prime factor of n (above 2 if ``skip_two``), or None.

    Factorises only as far as the answer needs: trial division finds it unless every prime factor
    is above TRIAL_LIMIT (10**6); for n <= 10**18 what is left is then a prime or a product of two
    primes, split once by Pollard's rho.  Larger n go to sympy.

    >>> smallest_prime_factor(91), smallest_prime_factor(12, skip_two=True), smallest_prime_factor(2**40)
    (7, 3, 2)
    >>> smallest_prime_factor(1_000_003 * 1_000_033)
    1000003
    """
    for p in _SMALL_PRIMES:
        if n % p == 0 and not (skip_two and p == 2):
            return p
    if n < 2:
        return None
    if skip_two:
        n >>= v2(n)
        if n == 1:
            return None
    if n > MAX_NUMBER:
        return next((p for p in sorted(factorint(n)) if not (skip_two and p == 2)), None)
    return _smallest_factor(n)


@functools.lru_cache(maxsize=256)
def _smallest_factor(n: int) -> int:
    """The smallest prime factor of 1 < n <= 10**18 (cached: a move asks for it more than once)."""
    small, rest = _small_factors(n)
    if small:
        return small[0]
    return _large_factors(rest)[0]


def omega(n: int) -> int:
    """Big Omega: the number of prime factors of n counted with multiplicity.

    For n <= 10**18 it needs no complete factorisation: after trial division up to 10**6 what is
    left counts 0 (it is 1), 1 (a prime: one primality test) or 2 (a product of two primes above
    10**6, since three would exceed 10**18), so the two are never split.

    >>> omega(60), omega(1), omega(999_983 * 1_000_003), omega(1_000_003 * 1_000_033)
    (4, 0, 2, 2)
    """
    if n > MAX_NUMBER or n < 1:
        return sum(factorint(n).values())
    small, rest = _small_factors(n)
    if rest == 1:
        return len(small)
    return len(small) + (1 if rest < TRIAL_LIMIT * TRIAL_LIMIT or _is_probable_prime(rest) else 2)


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
