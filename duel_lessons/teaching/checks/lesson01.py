"""Lesson 01, "What goes into a number?": the checks its declarations (``01-divisors-and-primes.lesson.toml``)
cannot express.

- exercises 2 and 4: numbers above 10¹² (of any size), judged by their prime factors, which no list or
  loop of the lesson reaches (a number too hard to factorise is said so);
- exercise 3: the divisor count of ``count_n`` typed as a product ("4 * 3", "(3+1)*(2+1)"), one factor per prime.
"""

from __future__ import annotations

import math

import sympy

from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.feedback import Verdict, as_whole, is_unanswered, plain, right, unanswered
from duel_lessons.teaching.plain import LARGE_DIGITS, Unreadable, show
from duel_lessons.teaching.reading import inner_count, prime_factors, sum_of_products, whole_any

SPEC = register(LessonSpec("01"))
#: Exercises 2 and 4 ask for numbers above BIG: the answer comes from what the numbers have in common.
BIG = 10**12
SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SQUARES = "What do 4, 9, 25 and 49 have in common? Make one of that kind that is bigger than 10¹²."
SIX_EIGHT = "6 = 2 × 3 and 8 = 2 × 2 × 2"


def _big(answer: object, one: bool = True) -> int | Verdict:
    """A whole number from 1 up, of up to LARGE_DIGITS digits, or the format verdict (``one``: a lone number)."""
    n = whole_any(answer)
    if n is None and isinstance(answer, Unreadable) and str(answer).startswith("a number with"):
        message = f"That is {answer}: give a number above 10¹² with at most {LARGE_DIGITS:,} digits."
        return Verdict("format", message, key="format:huge")
    if n is None:
        wanted = "Give one whole number, such as" if one else "Each number is a whole number, like"
        return Verdict("format", f"{wanted} 10**12 + 1.", key="format:not-a-number")
    return n if n >= 1 else Verdict("format", "Give a whole number above 10¹².", key="format:range")


@SPEC.check(2)
def one_inner_divisor(answer: object, p: Params) -> Verdict:
    """Any n above 10¹² with exactly one divisor d, 1 < d < n."""
    answer = plain(answer)
    n = unanswered() if is_unanswered(answer) else _big(answer)
    if isinstance(n, Verdict):
        return n
    found = inner_count(n)
    count = 2 if found is None else found  # not found: not a prime nor a prime squared, so two or more
    if count == 1 and n <= BIG:
        message = f"Yes, {n} has exactly one, but it is not above 10¹² (1 000 000 000 000)."
        stronger = "Each of them is d × d. Look at the d of each one: 2, 3, 5, 7. Which kind of number is d?"
        return Verdict("partial", message, SQUARES, stronger, key="small")
    if count == 1:
        return right("Can you say why every number of that kind has exactly one?")
    if count == 0:
        hint = "You need a number that has exactly ONE divisor d with 1 < d < n."
        return Verdict("misconception", f"{show(n)} has no divisor between 1 and itself.", hint, key="none")
    return Verdict(
        "miss",
        f"{show(n)} has {'more than one' if found is None else count} divisors between 1 and itself.",
        "Divisors come in pairs: d and n ÷ d. For only one to be left, the pair must be one number twice.",
        "Pairs d, n ÷ d with d = n ÷ d: then n = d × d. And d itself must have no divisor between 1 and d.",
        key="many",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """The square of the first prime whose square is above 10¹²."""
    q = int(sympy.nextprime(math.isqrt(BIG)))
    return (
        q * q,
        f"{q * q} = {q} × {q}, and {q} is prime (sympy.isprime): its only divisor between 1 and {q * q} is {q}.",
    )


@SPEC.check(3)
def divisor_count(answer: object, p: Params) -> Verdict:
    """The number of divisors of ``count_n``, as the product of the choices for each prime ("4 * 3")."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    n = int(p["count_n"])
    powers = list(sympy.factorint(n).values())
    example = 'a product as text, one factor per prime, like "3 * 2 * 2" for 60'
    if as_whole(answer) is not None:
        return Verdict("format", f"Show where the count comes from: give {example}.", key="format:number")
    terms = sum_of_products(answer) if type(answer) is str else None
    if terms is None:
        return Verdict("format", f"Give {example}.", key="format:product")
    if len(terms) > 1 and any(len(t) > 1 for t in terms):
        message = "Put brackets around each factor that is a sum, like (2+1)*(1+1)*(1+1) for 60: without them, "
        return Verdict("format", message + "2+1*1+1 means 2 + 1 + 1.", key="format:brackets")
    if len(terms) > 1:
        hint = "You choose a power of EVERY prime at once: multiply the numbers of choices."
        stronger = "For 60 = 2² × 3 × 5 the counts were 3 × 2 × 2, multiplied, not added. Do the same here."
        return Verdict("misconception", "You added.", hint, stronger, key="sum")
    factors, count = terms[0], math.prod(e + 1 for e in powers)
    if sorted(factors) == sorted(e + 1 for e in powers):
        return right(f"{' × '.join(map(str, factors))} = {count} divisors.")
    product = math.prod(factors)
    if sorted(factors) == sorted(powers):
        return Verdict(
            "misconception",
            f"Your product is {product}.",
            "Each prime's power can be 0 too: 2⁰ = 1. How many choices is that?",
            "For 60 = 2² × 3 × 5 the power of 2 can be 0, 1 or 2: that is 3 choices, one more than the power. "
            "Do the same here.",
            key="product-of-powers",
        )
    if len(factors) != len(powers):
        return Verdict(
            "partial" if product == count else "miss",
            f"Your product has {len(factors)} factor{'' if len(factors) == 1 else 's'}; "
            f"{n} has {len(powers)} different prime{'' if len(powers) == 1 else 's'}.",
            f"Look at sympy.factorint({n}): one factor for each prime in it.",
            "Follow section 6: one factor per prime, the number of choices for its power.",
            key=f"factors:{len(factors)}",
        )
    return Verdict(
        "miss",
        f"Your product is {product}.",
        f"Look at sympy.factorint({n}). Each prime can appear 0, 1, ... up to its power times.",
        "Follow section 6: for each prime in sympy.factorint, the number of choices is its power plus one.",
        key=f"miss:{sorted(factors)}",
    )


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """The product of the choices for each prime of ``count_n``."""
    n = int(p["count_n"])
    powers = sympy.factorint(n)
    shape = " × ".join(f"{q}{str(e).translate(SUPERSCRIPTS)}" if e > 1 else str(q) for q, e in powers.items())
    product = " * ".join(str(e + 1) for e in powers.values())
    return (
        product,
        f"{n} = {shape}: each power can be 0 up to its exponent, {product} = {sympy.divisor_count(n)} choices.",
    )


@SPEC.check(4)
def two_inner_divisors(answer: object, p: Params) -> Verdict:
    """Two numbers above 10¹², of different kinds (p × q, p³), each with exactly two divisors d, 1 < d < n."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, (list, tuple)) or len(answer) != 2:
        return Verdict("format", "Give a list of two numbers above 10¹², like [a, b].", key="format:pair")
    read = [_big(k, one=False) for k in answer]
    numbers = [n for n in read if isinstance(n, int)]
    if len(numbers) < 2:
        return next(n for n in read if isinstance(n, Verdict))
    for n in numbers:
        count = inner_count(n)
        if count is None:
            message = f"{show(n)} is too hard to factorise here, so it cannot be checked. Build your numbers from "
            message += "primes below 10¹⁵, with at most 100 digits in all (sympy.nextprime finds a prime)."
            return Verdict("format", message, key="format:unfactorised")
        if count == 1:
            message = (
                f"{show(n)} has exactly ONE divisor between 1 and itself (like exercise 2). This time you need TWO."
            )
            hint = "6 has two: 2 and 3. What kind of number is 6? Make a big one of that kind."
            stronger = f"{SIX_EIGHT} both have exactly two. Build big numbers the same way."
            return Verdict("misconception", message, hint, stronger, key="one-inner")
        if count != 2:
            message = f"{show(n)} has {count} divisors between 1 and itself, not two."
            hint = "Look at small numbers with exactly two, such as 6, 10, 15 and 8: write each as a product of primes."
            stronger = f"{SIX_EIGHT}. A big number made of bigger primes in the same way has two as well."
            return Verdict("miss", message, hint, stronger, key="count")
    if any(n <= BIG for n in numbers):
        message = "Both have exactly two, but not both are above 10¹² (1 000 000 000 000)."
        hint = "Write the small ones as products of primes, then build big ones the same way."
        stronger = f"{SIX_EIGHT}: use bigger primes (sympy.isprime tells you whether a number is prime)."
        return Verdict("partial", message, hint, stronger, key="small")
    if len({sorted((prime_factors(n) or {}).values()) == [3] for n in numbers}) == 1:
        message = "Both have exactly two, but they are of the same kind. There is another kind."
        hint = "Write each of yours as a product of primes. Now think of 8: how is it made?"
        stronger = "8 = 2 × 2 × 2 has divisors 2 and 4 between 1 and 8: exactly two. Make a big number like 8."
        return Verdict("partial", message, hint, stronger, key="same-kind")
    return right("Why does each kind have exactly two? Pair up the divisors.")


@SPEC.model(4)
def model_4(p: Params) -> tuple[object, str]:
    """A prime times a different prime, and the cube of a prime, both above 10¹²."""
    a = int(sympy.nextprime(math.isqrt(BIG)))
    b, c = int(sympy.nextprime(a)), int(sympy.nextprime(sympy.integer_nthroot(BIG, 3)[0]))
    return [a * b, c**3], (
        f"{a * b} = {a} × {b} (inner divisors {a} and {b}) and {c**3} = {c}³ (inner divisors {c} and {c * c}): "
        "a prime times a different prime, and the cube of a prime."
    )
