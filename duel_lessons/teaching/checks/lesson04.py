"""Lesson 04, "Which numbers lose, and why?": the conjecture, its proof and the exercises.

Parameters: ``rules``, ``upto`` (conjecture tests), ``big`` (the guess), ``win_from`` (exercise 1),
``power`` (exercise 2), ``all_from`` (exercise 3), ``count_upto`` (exercise 4).
"""

from __future__ import annotations

from collections.abc import Callable

from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, table_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    first_difference,
)

SPEC = register(LessonSpec("04", needs=("rules", "upto", "big", "win_from", "power", "all_from", "count_upto")))

#: How far the reveal compares a student's rule with the truth.
REVEAL_UPTO = 10**4


def loses_fn(p: Params, upto: int) -> Callable[[int], bool]:
    """Whether n loses: the proved closed form if the rules have one, else the solver's table."""
    form = closed_form(rules_of(p))
    if form is not None:
        return form.is_p
    return table_of(p, upto).is_p


@SPEC.truth("loses", yes="loses (P)", no="wins (N)")
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
        if rules.game_key() == rules_of({}).game_key() and form is not None
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


@SPEC.check("proof-1")
def odd_factor(answer: object, p: Params) -> Verdict:
    """Why N - d is not a power of 2: it has the odd factor d > 1 (choice B)."""
    return expect_choice(
        answer,
        "B",
        ("A", "B", "C", "D"),
        misconceptions=[
            Misconception("even", "A", "Being even does not stop a number being a power of 2: 8 is even."),
            Misconception("smaller", "D", "Being smaller than N says nothing about powers of 2."),
        ],
        hint="Look at N - d = d × (N/d - 1). What kind of factor is d, and how big is it?",
    )


@SPEC.check("proof-2")
def fails_for_eight(answer: object, p: Params) -> Verdict:
    """Which fact fails for 8: its odd part, 1, is not a legal move (choice C)."""
    return expect_choice(
        answer,
        "C",
        ("A", "B", "C", "D"),
        misconceptions=[
            Misconception(
                "odd-minus-odd", "B", "Odd minus odd is always even. Try it with 8's moves: what is the odd part of 8?"
            )
        ],
        hint="Halve 8 until it is odd. Is the number you reach an allowed move?",
    )


@SPEC.check("proof-3")
def flaw(answer: object, p: Params) -> Verdict:
    """The flaw in the false proof: not every even number wins (choice B)."""
    return expect_choice(
        answer,
        "B",
        ("A", "B", "C", "D"),
        misconceptions=[
            Misconception(
                "looks-fine",
                "D",
                "Test each sentence of the proof on the hundred square. Is every sentence true for every number?",
            )
        ],
        hint="Which sentence of the 'proof' claims something about ALL even numbers? Is it true?",
    )


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
            ),
            Misconception(
                "power-of-2",
                power if power in legal and power not in right else -1,
                "You took away the power of 2. Take away the other factor: halve until the number is odd.",
            ),
            Misconception("illegal", lambda a: isinstance(a, int) and a not in legal, "That is not an allowed move."),
        ],
        hint=f"Halve {n} until you reach an odd number. What does taking that number away leave?",
    )


@SPEC.check(2)
def power_outcome(answer: object, p: Params) -> Verdict:
    """P or N for ``power``."""
    n = int(p["power"])
    right = "P" if loses_fn(p, n)(n) else "N"
    return expect_choice(
        answer,
        right,
        ("P", "N"),
        misconceptions=[
            Misconception(
                "even-wins",
                "N" if right == "P" and n % 2 == 0 else "-",
                "Even numbers usually win, but powers of 2 are special. Go back to 2, 4, 8, 16.",
            )
        ],
        hint=f"Write {n} as a power of 2. Powers of 2 alternate: 2, 4, 8, 16, ... What does the exponent tell you?",
    )


@SPEC.check(3)
def all_winning(answer: object, p: Params) -> Verdict:
    """Every winning move from ``all_from``."""
    n = int(p["all_from"])
    right = list(table_of(p, n).winning_moves(n))
    return expect_list(
        answer,
        right,
        what="winning moves",
        misconceptions=[Misconception("none", [], "Is this number really a P-position? Work out its exponent.")],
        hint="Taking 2^i from 2^k leaves 2^i × (2^(k-i) - 1). When is that a power of 2, and which powers lose?",
    )


@SPEC.check(4)
def count_losers(answer: object, p: Params) -> Verdict:
    """How many P-positions there are from 1 to ``count_upto``."""
    upto = int(p["count_upto"])
    is_p = loses_fn(p, upto)
    right = sum(1 for n in range(1, upto + 1) if is_p(n))
    odd = (upto + 1) // 2
    powers = [2**k for k in range(1, upto.bit_length()) if 2**k <= upto]
    return expect_number(
        answer,
        right,
        misconceptions=[
            Misconception("only-odd", odd, "That counts the odd numbers. Which even numbers lose?"),
            Misconception("all-powers", odd + len(powers), "Do ALL powers of 2 lose? Check 4 and 16."),
        ],
        hint="Count the odd numbers from 1 to the limit, then add the even numbers that lose.",
    )
