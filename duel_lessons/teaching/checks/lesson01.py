"""Lesson 01, "What goes into a number?": divisors, primes and stuck numbers.

Parameters: ``rules``, ``small`` (exercise 1), ``upto`` (stuck numbers and exercise 4), ``count_n`` (exercise 3).
"""

from __future__ import annotations

from collections.abc import Callable

from duel_lessons.engine.rules import DIVISOR_DUEL
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, stuck
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_choice,
    expect_list,
    expect_number,
    is_unanswered,
    unanswered,
)

SPEC = register(LessonSpec("01", needs=("rules", "small", "upto", "count_n")))


#: Section 7 of the lesson lists the numbers up to SEEN with one inner divisor; exercise 2 asks for a new one.
SEEN = 50


def stuck_numbers(p: Params) -> list[int]:
    """The numbers 1 .. upto with no move under the lesson's rules."""
    rules = rules_of(p)
    return [n for n in range(1, int(p["upto"]) + 1) if stuck(rules, n)]


@SPEC.truth("rule", yes="is stuck", no="has a move")
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
                "all-divisors", every, "Not every divisor is allowed. Check the table of rule books about 1 and N."
            ),
            Misconception(
                "with-1", sorted({*right, 1}), "Does this rule book allow 1? Look at the table in section 2."
            ),
            Misconception(
                "without-1", sorted(set(right) - {1}), "Does this rule book allow 1? Look at the table in section 2."
            ),
        ],
        hint=f"List every divisor of {n}, then use the table in section 2 to see which ones this rule book allows.",
    )


@SPEC.check(2)
def one_inner_divisor(answer: object, p: Params) -> Verdict:
    """Any n above ``SEEN`` with exactly one divisor d, 1 < d < n."""
    if is_unanswered(answer):
        return unanswered()
    n = as_whole(answer)
    if n is None:
        return Verdict("format", "Give one whole number, such as 10.", key="format:not-a-number")
    if not 1 <= n <= 10**12:
        return Verdict("miss", f"Your answer was {n}.", "Look for a number from 51 to 200.", key="range")
    inner = DIVISOR_DUEL.divisors_of(n)
    if n <= SEEN and len(inner) == 1:
        return Verdict("misconception", f"{n} was in the list above.", f"Find one above {SEEN}.", key="seen")
    if len(inner) == 1:
        return Verdict("right", "Can you find two more, and say what they have in common?")
    if not inner:
        return Verdict(
            "misconception",
            f"{n} has no divisor between 1 and itself.",
            "You need a number that has exactly ONE divisor d with 1 < d < n.",
            key="none",
        )
    return Verdict(
        "miss",
        f"{n} has {len(inner)} divisors between 1 and itself: {listing(inner)}.",
        "Divisors come in pairs: d and n ÷ d. For only one to be left, the pair must be one number twice.",
        "Pairs d, n ÷ d with d = n ÷ d: then n = d × d.",
        key=f"many:{n}",
    )


@SPEC.check(3)
def divisor_count(answer: object, p: Params) -> Verdict:
    """How many divisors (1 and itself included) ``count_n`` has."""
    import sympy

    n = int(p["count_n"])
    powers = list(sympy.factorint(n).values())
    right = len(sympy.divisors(n))
    product, total = 1, sum(e + 1 for e in powers)
    for e in powers:
        product *= e
    return expect_number(
        answer,
        right,
        misconceptions=[
            Misconception(
                "product-of-powers", product, "Each prime's power can be 0 too: 2⁰ = 1. How many choices is that?"
            ),
            Misconception("sum", total, "You choose a power of EVERY prime at once: multiply the numbers of choices."),
            Misconception("inner-only", right - 2, f"This time count 1 and {n} too."),
        ],
        hint=f"Look at sympy.factorint({n}). Each prime can appear 0, 1, ... up to its power times.",
    )


@SPEC.check(4)
def two_inner_divisors(answer: object, p: Params) -> Verdict:
    """The numbers 1 .. upto with exactly two divisors d, 1 < d < n."""
    import sympy

    upto = int(p["upto"])
    right = [n for n in range(1, upto + 1) if len(DIVISOR_DUEL.divisors_of(n)) == 2]
    two_primes = [n for n in right if len(sympy.factorint(n)) == 2]
    return expect_list(
        answer,
        right,
        what="numbers",
        misconceptions=[
            Misconception(
                "only-pq",
                two_primes,
                "All of yours are a prime times a different prime. Is there another shape? "
                "Try powers of a single prime.",
            )
        ],
        hint="Try 6 (its inner divisors are 2 and 3). Check every number up to the limit, or write a loop.",
        stronger="A loop helps: [n for n in range(1, UPTO + 1) if len(...) == 2]. What goes in the brackets?",
    )


@SPEC.check("proof-1")
def partner(answer: object, p: Params) -> Verdict:
    """The missing step: the partner n ÷ d of the only inner divisor d is d itself (choice B)."""
    return expect_choice(
        answer,
        "B",
        ("A", "B", "C", "D"),
        misconceptions=[
            Misconception("one", "A", "n ÷ d = 1 would mean d = n. But d is smaller than n."),
            Misconception("n", "C", "n ÷ d = n would mean d = 1. But d is bigger than 1."),
        ],
        hint="n ÷ d is also a divisor between 1 and n, and there is only one such divisor.",
    )
