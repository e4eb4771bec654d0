"""Lesson 04, "Which numbers lose, and why?": the conjecture, the proof the student builds, the exercises.

Parameters: ``rules``, ``upto`` (conjecture tests), ``big`` (the guess), ``win_from`` (exercise 1),
``all_from`` (exercise 2).

The proof is built in four steps: two typed factorisations (``proof-1``: N − d = d(N/d − 1);
``proof-2``: 2ᵏm − m = m(2ᵏ − 1)), the step of the answer move that fails for 8 (``proof-3``),
the proof put in order (``order``, a Parsons problem with two plausible wrong lines) and the
smallest counterexample to the false lemma of a convincing wrong proof (``flaw``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy

from duel_lessons.engine.numbers import is_power_of_two, odd_part
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, table_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_list,
    expect_member,
    first_difference,
    is_unanswered,
    plain,
)
from duel_lessons.teaching.proofs import expect_counterexample, expect_expression, expect_step

SPEC = register(LessonSpec("04", needs=("rules", "upto", "big", "win_from", "all_from")))

#: How far the reveal compares a student's rule with the truth.
REVEAL_UPTO = 10**4

# What the students discover: the guess about BIG, and the rule tested as my_rule (opened by the
# same reveals). None of these may appear in anything a student sees before the reveals.
DISCOVERIES = (
    r"\bodd\b",
    r"powers? of (2|two)",
    r"2\s*\*\*\s*[kn]",
    r"2\s*\^\s*[kn]",
    r"2ᵏ",
    r"\bexponent",
    r"\bparity\b",
    r"\b8, 32\b",
    r"\b2, 8\b",
)
SPEC.discovers("big", *DISCOVERIES)
SPEC.discovers("loses", *DISCOVERIES)


def loses_fn(p: Params, upto: int) -> Callable[[int], bool]:
    """Whether n loses: the proved closed form if the rules have one, else the solver's table."""
    form = closed_form(rules_of(p))
    if form is not None:
        return form.is_p
    return table_of(p, upto).is_p


def _exponent(n: int) -> int:
    return n.bit_length() - 1


# -- guess, conjecture, reveals ---------------------------------------------------------------------


@SPEC.guess_form("big")
def big_form(value: object, p: Params) -> str | None:
    """A list of some of the numbers offered (possibly empty)."""
    pool = [int(n) for n in p["big"]]
    ask = f"Give a list of the numbers from {listing(pool)} you would hand over, such as [{pool[0]}] ([] for none)."
    if not isinstance(value, (list, tuple, set)):
        return ask
    if any(isinstance(x, bool) or not isinstance(x, int) or int(x) not in pool for x in value):
        return ask
    return None


@SPEC.truth("loses", yes="loses (P)", no="wins (N)", reach=10**12)
def loses(p: Params) -> Callable[[int], bool]:
    """Whether the player to move from n loses."""
    return loses_fn(p, max(int(p["upto"]), REVEAL_UPTO))


@SPEC.reveal("big")
def big_reveal(guess: object, p: Params) -> str:
    """Which of the big numbers lose, compared with the guess."""
    pool = [int(n) for n in p["big"]]
    is_p = loses_fn(p, max(pool))
    truth = [n for n in pool if is_p(n)]
    listed = [int(n) for n in guess] if isinstance(guess, (list, tuple, set)) else []
    return (
        f"The numbers you would like to hand your opponent (the P-positions) among {listing(pool)} are "
        f"**{listing(truth)}**.\n\n{compare_sets(listed, truth, pool)}"
    )


@SPEC.reveal("loses")
def rule_reveal(rule: object, p: Params) -> str:
    """The full rule (for Divisor Duel), compared with the student's last tested rule."""
    rules = rules_of(p)
    form = closed_form(rules)
    statement = (
        "**N loses (is a P-position) exactly when N is odd, or N is a power of 2 with an odd exponent: "
        "2, 8, 32, 128, ...**"
        if rules.game == rules_of({}).game and form is not None
        else f"For {rules.title} the losing numbers are the P-positions of the table."
    )
    is_p = loses_fn(p, REVEAL_UPTO)
    found = first_difference(rule, is_p, REVEAL_UPTO) if callable(rule) else (0, False, None)
    if found is None:
        compare = f"Your last rule agrees with it for every n from 1 to {REVEAL_UPTO:,}. Well found!"
    elif found[0] == 0:
        compare = "Test a rule first to compare it."
    else:
        compare = f"Your last rule differs from it first at n = {found[0]}."
    return f"{statement}\n\n{compare}\n\nThe data cannot prove this for every N. The next section builds a proof."


# -- the proof, built ---------------------------------------------------------------------------------

#: Pairs (N, d): N odd, d a divisor with 1 < d < N; a wrong expression is refuted on the first that differs.
ODD_CASES = ({"N": 45, "d": 3}, {"N": 45, "d": 5}, {"N": 15, "d": 5}, {"N": 21, "d": 7}, {"N": 45, "d": 15})


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


def has_factor(name: str) -> Callable[[Any], str | None]:
    """A ``shape`` for :func:`expect_expression`: the expression is a product with the letter ``name`` as a factor.

    >>> from duel_lessons.teaching.proofs import parse_expression
    >>> has_factor("d")(parse_expression("d*(N/d - 1)", ["N", "d"])) is None
    True
    >>> has_factor("d")(parse_expression("N - d", ["N", "d"]))
    'write it as a product with the factor d, such as d*(...).'
    """

    def shape(expr: Any) -> str | None:
        factors = expr.args if isinstance(expr, sympy.Mul) else ()
        if any(f.is_Symbol and f.name == name for f in factors):
            return None
        return f"write it as a product with the factor {name}, such as {name}*(...)."

    return shape


@SPEC.check("proof-1", label="Proof step 1 (N − d as a product)")
def n_minus_d(answer: object, p: Params) -> Verdict:
    """N − d written as a product with the factor d: d·(N/d − 1)."""
    slip = expression_form(answer, "2*(N + d)")
    if slip is not None:
        return slip
    return expect_expression(
        answer,
        "N - d",
        names=("N", "d"),
        cases=ODD_CASES,
        shape=has_factor("d"),
        misconceptions=[
            Misconception(
                "plus-one",
                "d*(N/d + 1)",
                "Take d out of both terms: N is d times what, and d is d times what?",
                "N = d × (N/d) and d = d × 1. So N − d = d × (N/d) − d × 1: put d outside a bracket.",
            ),
            Misconception(
                "n-minus-one",
                "d*(N - 1)",
                "Multiply your bracket out again: is d × N the same as N?",
                "N = d × (N/d): inside the bracket you need N/d, not N.",
            ),
        ],
        hint="N = d × (N/d). Take the factor d out of N − d.",
        stronger="Write N as d × (N/d) and d as d × 1, then put d in front of a bracket.",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    return "d*(N/d - 1)", "N = d × (N/d), so N − d = d × (N/d − 1): for 45 − 9, 9 × (5 − 1) = 36."


#: Cases (k, m): m odd and bigger than 1.
PART_CASES = ({"k": 1, "m": 3}, {"k": 2, "m": 15}, {"k": 3, "m": 5}, {"k": 2, "m": 7}, {"k": 5, "m": 3})


@SPEC.check("proof-2", label="Proof step 2 (the answer move, factorised)")
def answer_move(answer: object, p: Params) -> Verdict:
    """2ᵏm − m written as a product with the factor m: m·(2ᵏ − 1)."""
    slip = expression_form(answer, "k*(m + 1)")
    if slip is not None:
        return slip
    return expect_expression(
        answer,
        "2**k*m - m",
        names=("k", "m"),
        cases=PART_CASES,
        shape=has_factor("m"),
        misconceptions=[
            Misconception(
                "power-minus-m",
                "m*(2**k - m)",
                "Multiply your bracket out again: does m × m appear in 2ᵏm − m?",
                "m = m × 1. So 2ᵏm − m = m × 2ᵏ − m × 1: what is left in the bracket?",
            ),
            Misconception(
                "lower-power",
                "m*2**(k - 1)",
                "Try k = 2, m = 3: 4 × 3 − 3 = 9. Does your expression give 9?",
                "Subtracting m is not halving. Write m as m × 1 and take m out of both terms.",
            ),
        ],
        hint="Both terms have the factor m. Take it out.",
        stronger="2ᵏm − m = m × 2ᵏ − m × 1. Put m in front of a bracket: what is left inside?",
    )


@SPEC.model("proof-2")
def model_proof_2(p: Params) -> tuple[object, str]:
    n = int(p["win_from"])
    m = odd_part(n)
    example = f" For {n} = {n // m} × {m}: {n} − {m} = {m} × {n // m - 1} = {n - m}." if m > 1 else ""
    return "m*(2**k - 1)", "m × (2ᵏ − 1) is odd × odd, so odd." + example


#: The answer move from an even E, as the notebook numbers its steps.
ANSWER_MOVE_STEPS = 3
FAILS_AT = 8


@SPEC.check("proof-3", label="Proof step 3 (which step fails for 8)")
def fails_for_eight(answer: object, p: Params) -> Verdict:
    """Step 2 of the answer move fails for 8: its odd part is 1, not an allowed move."""
    value = plain(answer)
    if not is_unanswered(value) and not (isinstance(value, (list, tuple)) and len(value) == 2):
        # expect_step's own example, (2, 15), names the failing step: give the notebook's example instead
        return Verdict("format", "Give the step and a number, as a pair such as (3, 5).", key="format:pair", options=3)
    if isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == 3 and type(value[1]) is int:
        return Verdict(
            "misconception",
            f"Your answer was step 3 with {value[1]}.",
            "Step 3 is algebra: m × (2ᵏ − 1) is odd for every odd m. Does the move of step 3 exist from 8?",
            f"Halve {FAILS_AT} until it is odd. Is the number you reach an allowed move in Divisor Duel?",
            "step-3",
        )
    if isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == 1 and type(value[1]) is int:
        return Verdict(
            "misconception",
            f"Your answer was step 1 with {value[1]}.",
            f"Every number can be halved until it is odd, {FAILS_AT} too. What do you reach?",
            f"Halve {FAILS_AT} until it is odd. Is the number you reach an allowed move in Divisor Duel?",
            "step-1",
        )
    return expect_step(
        answer,
        steps=ANSWER_MOVE_STEPS,
        failing=2,
        shows=lambda x: x == odd_part(FAILS_AT),
        what=f"a number that shows why that step fails for {FAILS_AT}",
        hint=f"Do the three steps with E = {FAILS_AT}, one at a time. Where do you get stuck?",
        stronger=f"Halve {FAILS_AT} until the result is odd. Which divisors may a player subtract in Divisor Duel?",
    )


@SPEC.model("proof-3")
def model_proof_3(p: Params) -> tuple[object, str]:
    m = odd_part(FAILS_AT)
    return (2, m), f"{FAILS_AT} = 2³ × {m}: its odd part is {m}, and {m} is not an allowed divisor (d > 1)."


@SPEC.check("flaw", label="Proof step 5 (the flaw)")
def flaw(answer: object, p: Params) -> Verdict:
    """The smallest even number above 2 that is a P-position (the false lemma's counterexample)."""
    is_p = loses_fn(p, 1000)
    value = plain(answer)
    if type(value) is int and value % 2 == 1:
        return Verdict(
            "misconception",
            f"Your answer was {value}.",
            "The false sentence is about even numbers. Which even number breaks it?",
            "Go through 4, 6, 8, ... For each, list the moves: does one of them hand over a P-position?",
            "odd",
        )
    if value == 2:
        return Verdict(
            "misconception",
            "Your answer was 2.",
            "2 is even and loses, but the sentence is about even numbers bigger than 2.",
            "Go through 4, 6, 8, ... For each, list the moves: does one of them hand over a P-position?",
            "two",
        )
    return expect_counterexample(
        answer,
        fails=lambda n: n > 2 and n % 2 == 0 and is_p(n),
        smallest=_smallest_even_loser(p),
        claim="every even number bigger than 2 is an N-position",
        hint="Halving is a move, but is it always a good one? Try the even numbers from 4 up, one at a time.",
        stronger="For each even number from 4 up, list every move and what it leaves. "
        "Is there one from which every move hands over an N-position?",
    )


def _smallest_even_loser(p: Params) -> int:
    is_p = loses_fn(p, 1000)
    return next(n for n in range(4, 1001, 2) if is_p(n))


@SPEC.model("flaw")
def model_flaw(p: Params) -> tuple[object, str]:
    n = _smallest_even_loser(p)
    moves = rules_of(p).divisors_of(n)
    left = ", ".join(f"{n} − {d} = {n - d}" for d in moves)
    return n, f"The moves from {n} are {left}: each hands over an N-position, so {n} is even and a P-position."


# -- exercises --------------------------------------------------------------------------------------


def _why_number(n: int) -> str:
    m = odd_part(n)
    if m > 1 and n % 2 == 0:
        return f"{n} = {n // m} × {m}: subtract the odd part {m}, leaving {n - m} (odd)."
    if n % 2:
        return f"{n} is odd: every move hands over an even number that is not a power of 2."
    k = _exponent(n)
    return f"{n} = 2^{k} and the exponent {k} is {'odd' if k % 2 else 'even'}."


@SPEC.check(1)
def winning_move(answer: object, p: Params) -> Verdict:
    """A winning move from ``win_from``."""
    rules, n = rules_of(p), int(p["win_from"])
    table = table_of(p, n)
    right = set(table.winning_moves(n))
    legal = set(rules.divisors_of(n))
    power = n & -n
    return expect_member(
        answer,
        right,
        what="divisor",
        misconceptions=[
            Misconception(
                "half",
                n // 2 if n // 2 not in right else -1,
                "Halving is a move, but what does it hand over? Is that number odd?",
                f"Halving {n} leaves {n // 2}, which is even and not a power of 2: an N-position "
                f"for your opponent. Hand over an ODD number.",
            ),
            Misconception(
                "power-of-2",
                power if power in legal and power not in right else -1,
                "You took away the power of 2. Take away the other factor: halve until the number is odd.",
                "Taking away the power of 2 leaves an even number. You want to hand over an odd "
                "number: take away the odd part.",
            ),
            Misconception(
                "result",
                lambda a: a in {n - d for d in right} and a not in legal,
                "That is the number the move leaves. The answer is the divisor you subtract.",
                f"Which divisor d gives {n} − d = your number?",
            ),
            Misconception(
                "illegal",
                lambda a: isinstance(a, int) and a not in legal,
                "That is not an allowed move.",
                "A move must be a divisor d of the number with 1 < d < N. Is your answer one of them?",
            ),
        ],
        hint=f"Halve {n} until you reach an odd number. What does taking that number away leave?",
        stronger=f"Write {n} = 2ᵏ × m with m odd. Subtract m: what kind of number is left?",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    n = int(p["win_from"])
    moves = table_of(p, n).winning_moves(n)
    m = odd_part(n)
    move = m if m in moves else min(moves)
    if move == m:
        return m, _why_number(n)
    return move, f"{n} − {move} = {n - move}, a P-position."


@SPEC.check(2)
def all_winning(answer: object, p: Params) -> Verdict:
    """Every winning move from ``all_from``."""
    n = int(p["all_from"])
    right = list(table_of(p, n).winning_moves(n))
    return expect_list(
        answer,
        right,
        what="winning moves",
        misconceptions=[
            Misconception(
                "none",
                [] if right else [-1],
                "Is this number really a P-position? Work out its exponent.",
                "Powers of 2 with an EVEN exponent are N-positions, so there is a winning move. "
                "Halving is the only move to a power of 2.",
            )
        ],
        hint="Taking 2^i from 2^k leaves 2^i × (2^(k-i) - 1). When is that a power of 2, and which powers lose?",
        stronger="From 2ᵏ only halving reaches a power of 2; every other move hands over an "
        "N-position. Does halving hand over a P?",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    n = int(p["all_from"])
    right = list(table_of(p, n).winning_moves(n))
    if is_power_of_two(n) and right == [n // 2]:
        k = _exponent(n)
        return right, f"Only halving reaches a power of 2, and {n // 2} = 2^{k - 1} is P (odd exponent)."
    if not right:
        return right, f"{n} is a P-position: no move wins."
    return right, f"Each leaves a P-position: {listing(n - d for d in right)}."
