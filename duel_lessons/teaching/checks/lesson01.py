"""Lesson 01, "What goes into a number?": divisors, primes and stuck numbers.

Parameters: ``rules``, ``small`` (exercise 1), ``upto`` (stuck numbers), ``count_n`` (exercise 3).  Exercises 2
and 4 ask for numbers above 10¹², which no list or loop of the lesson reaches (the notebook's ``SEEN`` only says
how far section 7's list goes).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from duel_lessons.engine.rules import DIVISOR_DUEL
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, stuck
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_list,
    is_unanswered,
    plain,
    right,
    unanswered,
)
from duel_lessons.teaching.plain import LARGE_DIGITS, Unreadable, show
from duel_lessons.teaching.proofs import expect_counterexample
from duel_lessons.teaching.reading import inner_count, prime_factors, sum_of_products, whole_any

SPEC = register(LessonSpec("01", needs=("rules", "small", "upto", "count_n"), offers={"rules": ("factor-duel",)}))

# What the stuck-numbers guess discovers: the primes (and 1).
SPEC.discovers("stuck", r"\bprimes?\b", r"isprime", r"primerange", r"\bprime\s+numbers?\b")


def inner(n: int) -> tuple[int, ...]:
    """The divisors d of n with 1 < d < n (Divisor Duel's allowed divisors, whatever the lesson's rules).

    >>> inner(12), inner(7)
    ((2, 3, 4, 6), ())
    """
    return DIVISOR_DUEL.divisors_of(n)


def stuck_numbers(p: Params) -> list[int]:
    """The numbers 1 .. upto with no move under the lesson's rules."""
    rules = rules_of(p)
    return [n for n in range(1, int(p["upto"]) + 1) if stuck(rules, n)]


@SPEC.truth("rule", yes="is stuck", no="has a move", reach=10**12)
def is_stuck(p: Params) -> Callable[[int], bool]:
    """Whether the player to move from n is stuck."""
    rules = rules_of(p)
    return lambda n: stuck(rules, n)


@SPEC.reveal("stuck")
def stuck_reveal(guess: object, p: Params) -> str:
    """The stuck numbers up to ``upto``, compared with the guess."""
    truth = stuck_numbers(p)
    upto = int(p["upto"])
    listed = [int(n) for n in guess] if isinstance(guess, (list, tuple, set)) else []
    within = sorted(set(range(1, upto + 1)) & (set(truth) | set(listed)))
    return (
        f"From 1 to {upto}, the player to move is stuck at {listing(truth)}.\n\n"
        f"{compare_sets(listed, truth, within)}\n\n"
        "Which kind of number is on the list? Is there one that does not fit that description?"
    )


@SPEC.guess_form("stuck")
def stuck_form(value: object, p: Params) -> str | None:
    """The guess is a non-empty list of numbers from 1 to ``upto``."""
    upto = int(p["upto"])
    value = plain(value)
    wanted = f"Guess a list of numbers from 1 to {upto}, like [2, 3, 9]."
    if not isinstance(value, (list, tuple, set)) or not value:
        return wanted
    if not all(type(n) is int and 1 <= n <= upto for n in value):
        return wanted
    return None


@SPEC.check(1)
def allowed(answer: object, p: Params) -> Verdict:
    """The divisors allowed from ``small`` under ``rules``."""
    rules, n = rules_of(p), int(p["small"])
    right = list(rules.divisors_of(n))
    every = [d for d in range(1, n + 1) if n % d == 0]
    return expect_list(
        answer,
        right,
        what="allowed divisors",
        misconceptions=[
            Misconception(
                "all-divisors",
                every,
                "Not every divisor is allowed. Check the table of rule books about 1 and N.",
                "Look at the row for this rule book in the table of section 2: which of 1 and N does it leave out?",
            ),
            Misconception(
                "with-1",
                sorted({*right, 1}),
                "Does this rule book allow 1? Look at the table in section 2.",
                "Find this rule book in the table of section 2 and read its 'allowed divisors d' "
                "column: is d = 1 allowed?",
            ),
            Misconception(
                "without-1",
                sorted(set(right) - {1}),
                "Does this rule book allow 1? Look at the table in section 2.",
                "Find this rule book in the table of section 2 and read its 'allowed divisors d' "
                "column: is d = 1 allowed?",
            ),
        ],
        hint=f"List every divisor of {n}, then use the table in section 2 to see which ones this rule book allows.",
        stronger="Write the number as a × b in every way you can. Every a and b is a divisor; then"
        " keep only those the rule allows.",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """Exercise 1's model: the allowed divisors of ``small``."""
    rules, n = rules_of(p), int(p["small"])
    right = rules.divisors_of(n)
    pairs = " = ".join(f"{a} × {n // a}" for a in right if a > 1 and a * a <= n)
    left_out = f"1 and {n}" if 1 not in right else f"{n} itself"
    return list(right), f"{n} = {pairs}; {rules.title} leaves out {left_out}."


#: Exercises 2 and 4 ask for numbers above BIG: no list the lesson prints reaches it, and a loop up to
#: it takes hours, so the answer comes from what the numbers have in common (a prime squared; p × q or p³).
BIG = 10**12


def _big_number(answer: object, one: bool = True) -> int | Verdict:
    """A whole number from 1 up, of any size up to LARGE_DIGITS digits, or the format verdict saying what is
    wanted (``one``: the answer is one number; else it is one of a list)."""
    n = whole_any(answer)
    if n is None and isinstance(answer, Unreadable) and str(answer).startswith("a number with"):
        return Verdict(
            "format",
            f"That is {answer}: give a number above 10¹² with at most {LARGE_DIGITS:,} digits.",
            key="format:huge",
        )
    if n is None:
        wanted = (
            "Give one whole number, such as 10**12 + 1." if one else "Each number is a whole number, like 10**12 + 1."
        )
        return Verdict("format", wanted, key="format:not-a-number")
    if n < 1:
        return Verdict("format", "Give a whole number above 10¹².", key="format:range")
    return n


@SPEC.check(2)
def one_inner_divisor(answer: object, p: Params) -> Verdict:
    """Any n above 10¹² with exactly one divisor d, 1 < d < n (no list or loop of the lesson reaches it)."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    n = _big_number(answer)
    if isinstance(n, Verdict):
        return n
    found = inner_count(n)
    count = 2 if found is None else found  # not found: not a prime nor a prime squared, so two or more
    if n <= BIG and count == 1:
        return Verdict(
            "partial",
            f"Yes, {n} has exactly one, but it is not above 10¹² (1 000 000 000 000).",
            "What do 4, 9, 25 and 49 have in common? Make one of that kind that is bigger than 10¹².",
            "Each of them is d × d. Look at the d of each one: 2, 3, 5, 7. Which kind of number is d?",
            key="small",
        )
    if count == 1:
        return Verdict("right", "Can you say why every number of that kind has exactly one?")
    if count == 0:
        return Verdict(
            "misconception",
            f"{show(n)} has no divisor between 1 and itself.",
            "You need a number that has exactly ONE divisor d with 1 < d < n.",
            key="none",
        )
    many = "more than one" if found is None else f"{count}"
    return Verdict(
        "miss",
        f"{show(n)} has {many} divisors between 1 and itself.",
        "Divisors come in pairs: d and n ÷ d. For only one to be left, the pair must be one number twice.",
        "Pairs d, n ÷ d with d = n ÷ d: then n = d × d. And d itself must have no divisor between 1 and d.",
        key="many",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Exercise 2's model: the square of the first prime whose square is above 10¹²."""
    import sympy

    q = int(sympy.nextprime(math.isqrt(BIG)))
    return q * q, (
        f"{q * q} = {q} × {q}, and {q} is prime (sympy.isprime): its only divisor between 1 and {q * q} is {q}."
    )


@SPEC.check(3)
def divisor_count(answer: object, p: Params) -> Verdict:
    """The number of divisors of ``count_n``, written as the product of the choices for each prime ("4 * 3")."""
    import sympy

    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    n = int(p["count_n"])
    powers = list(sympy.factorint(n).values())
    choices = sorted(e + 1 for e in powers)
    count = len(sympy.divisors(n))
    example = 'a product as text, one factor per prime, like "3 * 2 * 2" for 60'
    if as_whole(answer) is not None:
        return Verdict(
            "format",
            f"Show where the count comes from: give {example}.",
            key="format:number",
        )
    terms = sum_of_products(answer) if type(answer) is str else None
    if terms is None:
        return Verdict("format", f"Give {example}.", key="format:product")
    if len(terms) > 1 and any(len(t) > 1 for t in terms):
        return Verdict(
            "format",
            "Put brackets around each factor that is a sum, like (2+1)*(1+1)*(1+1) for 60: without them, "
            "2+1*1+1 means 2 + 1 + 1.",
            key="format:brackets",
        )
    if len(terms) > 1:
        return Verdict(
            "misconception",
            "You added.",
            "You choose a power of EVERY prime at once: multiply the numbers of choices.",
            "For 60 = 2² × 3 × 5 the counts were 3 × 2 × 2, multiplied, not added. Do the same here.",
            key="sum",
        )
    factors = terms[0]
    if sorted(factors) == choices:
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
    """Exercise 3's model: the product of the choices for each prime of ``count_n``."""
    import sympy

    n = int(p["count_n"])
    powers = sympy.factorint(n)
    shape = " × ".join(f"{q}{str(e).translate(SUPERSCRIPTS)}" if e > 1 else str(q) for q, e in powers.items())
    product = " * ".join(str(e + 1) for e in powers.values())
    count = len(sympy.divisors(n))
    return product, f"{n} = {shape}: each power can be 0 up to its exponent, {product} = {count} choices."


def _shape(n: int) -> str:
    """ "pq" for a prime times a different prime, "p3" for the cube of a prime, else ""."""
    powers = sorted((prime_factors(n) or {}).values())
    return "pq" if powers == [1, 1] else "p3" if powers == [3] else ""


@SPEC.check(4)
def two_inner_divisors(answer: object, p: Params) -> Verdict:
    """Two numbers above 10¹², of different kinds, each with exactly two divisors d, 1 < d < n."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    wanted = "Give a list of two numbers above 10¹², like [a, b]."
    if not isinstance(answer, (list, tuple)) or len(answer) != 2:
        return Verdict("format", wanted, key="format:pair")
    numbers: list[int] = []
    for k in answer:
        n = _big_number(k, one=False)
        if isinstance(n, Verdict):
            return n
        numbers.append(n)
    for n in numbers:
        count = inner_count(n)
        if count is None:
            return Verdict(
                "format",
                f"{show(n)} is too hard to factorise here, so it cannot be checked. Build your numbers from "
                "primes below 10¹⁵, with at most 100 digits in all (sympy.nextprime finds a prime).",
                key="format:unfactorised",
            )
        if count == 1:
            return Verdict(
                "misconception",
                f"{show(n)} has exactly ONE divisor between 1 and itself (like exercise 2). This time you need TWO.",
                "6 has two: 2 and 3. What kind of number is 6? Make a big one of that kind.",
                "6 = 2 × 3 and 8 = 2 × 2 × 2 both have exactly two. Build big numbers the same way.",
                key="one-inner",
            )
        if count != 2:
            return Verdict(
                "miss",
                f"{show(n)} has {count} divisors between 1 and itself, not two.",
                "Look at small numbers with exactly two, such as 6, 10, 15 and 8: write each as a product of primes.",
                "6 = 2 × 3 and 8 = 2 × 2 × 2. A big number made of bigger primes in the same way has two as well.",
                key="count",
            )
    if any(n <= BIG for n in numbers):
        return Verdict(
            "partial",
            "Both have exactly two, but not both are above 10¹² (1 000 000 000 000).",
            "Write the small ones as products of primes, then build big ones the same way.",
            "6 = 2 × 3 and 8 = 2 × 2 × 2: use bigger primes (sympy.isprime tells you whether a number is prime).",
            key="small",
        )
    if _shape(numbers[0]) == _shape(numbers[1]):
        return Verdict(
            "partial",
            "Both have exactly two, but they are of the same kind. There is another kind.",
            "Write each of yours as a product of primes. Now think of 8: how is it made?",
            "8 = 2 × 2 × 2 has divisors 2 and 4 between 1 and 8: exactly two. Make a big number like 8.",
            key="same-kind",
        )
    return right("Why does each kind have exactly two? Pair up the divisors.")


@SPEC.model(4)
def model_4(p: Params) -> tuple[object, str]:
    """Exercise 4's model: a prime times a different prime, and the cube of a prime, both above 10¹²."""
    import sympy

    a = int(sympy.nextprime(math.isqrt(BIG)))
    b = int(sympy.nextprime(a))
    c = int(sympy.integer_nthroot(BIG, 3)[0])
    c = int(sympy.nextprime(c))
    return [a * b, c**3], (
        f"{a * b} = {a} × {b} (inner divisors {a} and {b}) and {c**3} = {c}³ (inner divisors {c} and {c * c}): "
        "a prime times a different prime, and the cube of a prime."
    )


# The proof of section 7: one inner divisor d means n = d × d.  Labels are shuffled on purpose.


def _converse_fails(n: int) -> bool:
    """Whether n = d × d for some d > 1 but n has more than one divisor between 1 and n."""
    import math

    d = math.isqrt(n)
    return d > 1 and d * d == n and len(inner(n)) != 1


SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
CONVERSE = "if n = d × d with d > 1, then d is the only divisor of n between 1 and n"


@SPEC.check("proof-2")
def converse(answer: object, p: Params) -> Verdict:
    """The smallest square d × d (d > 1) with more than one divisor between 1 and n: the converse fails."""
    return expect_counterexample(
        answer,
        fails=_converse_fails,
        smallest=min(n for n in range(4, 10**4) if _converse_fails(n)),
        claim="either it is not a square d × d, or d is its only divisor between 1 and itself",
        hint="The claim is about squares only. Go through them in order, and list the divisors between 1 and n.",
        stronger="For each square d × d, are there divisors between 1 and n other than d? Look at what d is made of.",
    )


@SPEC.model("proof-2")
def model_proof_2(p: Params) -> tuple[object, str]:
    """The smallest counterexample to the converse, and its extra divisors."""
    n = min(n for n in range(4, 10**4) if _converse_fails(n))
    return n, f"{n} = {math.isqrt(n)} × {math.isqrt(n)}, but its divisors between 1 and {n} are {listing(inner(n))}."
