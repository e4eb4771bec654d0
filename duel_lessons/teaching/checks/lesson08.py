"""Checks for lesson 08, "What happens when you change the rules?" (restricted divisors and misère play).

>>> p = {"rules": "divisor-duel", "upto": 1000, "ex_even": 60, "ex_odd": 96, "ex_prime": 64}
>>> SPEC.checks["1"](2, p).kind, SPEC.checks["1"](4, p).kind
('right', 'misconception')
>>> SPEC.checks["4"](lambda n: n % 2 == 0, p).kind
'miss'
"""

from __future__ import annotations

from collections.abc import Callable

from duel_lessons.engine.rules import DIVISOR_DUEL, Rules
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import listing
from duel_lessons.teaching.checks.lesson05 import picks_text
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_member,
    expect_number,
    first_difference,
    is_unanswered,
    unanswered,
)

SPEC = register(LessonSpec("08", needs=("upto", "ex_even", "ex_odd", "ex_prime")))

EVEN = DIVISOR_DUEL.variant("even-only", divisors="even", title="Even divisors only")
ODD = DIVISOR_DUEL.variant("odd-only", divisors="odd", title="Odd divisors only")
PRIME = DIVISOR_DUEL.variant("prime-only", divisors="prime", title="Prime divisors only")
MISERE = DIVISOR_DUEL.variant("misere", last_mover_wins=False, title="Misère Divisor Duel")
MISERE_ODD = DIVISOR_DUEL.variant("misere-odd", divisors="odd", last_mover_wins=False, title="Misère, odd divisors")
HAND_OVER = (6, 8, 12, 18, 20)
TEST_UPTO = 1000
EX4_UPTO = 2000


def _loses(rules: Rules, p: Params) -> Callable[[int], bool]:
    return tabulate(rules, max(TEST_UPTO, min(int(p["upto"]), 10**6))).is_p


@SPEC.truth("even", yes="loses", no="wins")
def even_loses(p: Params) -> Callable[[int], bool]:
    """Even divisors only."""
    return _loses(EVEN, p)


@SPEC.truth("odd", yes="loses", no="wins")
def odd_loses(p: Params) -> Callable[[int], bool]:
    """Odd divisors only."""
    return _loses(ODD, p)


@SPEC.truth("prime", yes="loses", no="wins")
def prime_loses(p: Params) -> Callable[[int], bool]:
    """Prime divisors only."""
    return _loses(PRIME, p)


@SPEC.truth("misere", yes="loses", no="wins")
def misere_loses(p: Params) -> Callable[[int], bool]:
    """Misère Divisor Duel (no rule known)."""
    return _loses(MISERE, p)


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """The guess of section 3 against the even-only table, then the rule."""
    table = tabulate(EVEN, max(HAND_OVER))
    return picks_text(guess, HAND_OVER, [n for n in HAND_OVER if table.is_p(n)]) + (
        "\n\nWith even divisors only, n is P exactly when n is **not a multiple of 4** (odd, or 2 more than a "
        "multiple of 4). The solver agrees up to 100,000; the proof below covers every n."
    )


def _rule_reveal(rules: Rules, words: str, rule: object, p: Params) -> str:
    truth = _loses(rules, p)
    if callable(rule):
        found = first_difference(rule, truth, TEST_UPTO)
        mine = (
            f"Your last rule holds up to {TEST_UPTO:,}."
            if found is None
            else f"Your last rule first differs at n = {found[0]}."
        )
    else:
        mine = ""
    return f"{words} {mine}".strip()


@SPEC.reveal("odd")
def odd_reveal(rule: object, p: Params) -> str:
    """The odd-only rule, compared with the student's last tested rule."""
    return _rule_reveal(
        ODD,
        "With odd divisors only, n is P exactly when n is **odd or a power of 2**. "
        "From any other n, subtract its odd part.",
        rule,
        p,
    )


@SPEC.reveal("prime")
def prime_reveal(rule: object, p: Params) -> str:
    """The prime-only rule, compared with the student's last tested rule."""
    fours = listing(n for n in (4, 8, 16) if not _loses(PRIME, p)(n))
    return _rule_reveal(
        PRIME,
        "With prime divisors only, n is P exactly when n is **odd, or 2, or a power of 2 from "
        f"8 up**. Among 4, 8 and 16, only {fours} wins. The package keeps a proof of this "
        "rule: run `closed_form(prime)` in a new cell, read it, and find the step where 4 is "
        "different from 8.",
        rule,
        p,
    )


@SPEC.check("proof-1")
def half_game(answer: object, p: Params) -> Verdict:
    """In the half game (subtract any divisor below m, 1 included) m is P exactly when m is odd."""
    return expect_choice(
        answer,
        "odd",
        ("odd", "even"),
        misconceptions=[
            Misconception(
                "even",
                "EVEN",
                "From an even m you may subtract 1. What kind of number is left, and who is in trouble then?",
                "Try m = 3: its only move is 3 - 1 = 2. Then m = 2: "
                "its only move is 2 - 1 = 1, where the player is stuck. "
                "Which of 2 and 3 loses?",
            )
        ],
        hint="In the half game 1 is allowed. Remember lesson 6: what does subtracting 1 do to an even number?",
        stronger="An odd m has only odd divisors. Odd minus odd is ...? And from an even m, subtract 1.",
    )


@SPEC.check("proof-2")
def subtract_two(answer: object, p: Params) -> Verdict:
    """The half game's "subtract 1" is "subtract 2" in Even-only Duel."""
    return expect_number(
        answer,
        2,
        misconceptions=[
            Misconception(
                "one",
                1,
                "1 is odd, so it is not allowed in Even-only Duel. "
                "A move e in the half game is the move 2e in the real game.",
                "In the half game the winning move is e = 1. Double it.",
            )
        ],
        hint="A move e in the half game is the move 2e in the real game.",
        stronger="Which e is the half game's winning move? The real game's move is twice that.",
    )


@SPEC.check(1)
def even_winning_move(answer: object, p: Params) -> Verdict:
    """One winning move from EX_EVEN with even divisors only (0 if there is none)."""
    n = int(p["ex_even"])
    moves = set(tabulate(EVEN, max(n, 2)).winning_moves(n)) or {0}
    legal = set(EVEN.divisors_of(n))
    return expect_member(
        answer,
        moves,
        what="divisor",
        misconceptions=[
            Misconception(
                "odd-divisor",
                lambda a: isinstance(a, int) and a % 2 == 1 and a > 0,
                "Only even divisors are allowed in this variant.",
                "List the even divisors of EX_EVEN below EX_EVEN, and try each one.",
            ),
            Misconception(
                "losing-move",
                lambda a: a in legal,
                "That is a legal move, but it leaves a multiple of 4: look at what your opponent can do from there.",
                "Your opponent wins from a multiple of 4. Choose a divisor that leaves a number which "
                "is NOT a multiple of 4.",
            ),
        ],
        hint="Which numbers lose in Even-only Duel (your even rule)? Hand your opponent one of them. (If there is "
        "no such move, answer 0.)",
        stronger="Leave a number that is 2 more than a multiple of 4. (If EX_EVEN is not a multiple of 4, there is "
        "no winning move at all: answer 0.)",
    )


def _p_or_n(rules: Rules, n: int, answer: object, hint: str, stronger: str) -> Verdict:
    form = closed_form(rules)
    assert form is not None
    right = "P" if form.is_p(n) else "N"
    return expect_choice(answer, right, ("P", "N"), hint=hint, stronger=stronger)


@SPEC.check(2)
def odd_p_or_n(answer: object, p: Params) -> Verdict:
    """P or N for EX_ODD, odd divisors only."""
    return _p_or_n(
        ODD,
        int(p["ex_odd"]),
        answer,
        "Look at the odd-only row of the picture, or at the reveal after your odd rule: "
        "which kind of number is EX_ODD?",
        "Is it odd? Is it a power of 2? If neither, subtract its largest odd divisor: what is left?",
    )


@SPEC.check(3)
def prime_p_or_n(answer: object, p: Params) -> Verdict:
    """P or N for EX_PRIME, prime divisors only."""
    return _p_or_n(
        PRIME,
        int(p["ex_prime"]),
        answer,
        "Look at the prime-only row of the picture, or at the reveal after your prime rule: which "
        "kind of number is EX_PRIME?",
        "If it is a power of 2, its only prime divisor is 2. Where does subtracting 2 lead, and what "
        "can the opponent do from there?",
    )


@SPEC.check(4)
def misere_odd_rule(answer: object, p: Params) -> Verdict:
    """A function that is True exactly for the P-positions of misère odd-only, up to 2000."""
    if is_unanswered(answer):
        return unanswered()
    if not callable(answer):
        return Verdict(
            "format", "Give a function, such as answer_4 (a def or a lambda), not a value.", key="format:not-a-function"
        )
    try:
        if answer(2) is ...:
            return unanswered()
    except Exception:  # the student's function: first_difference reports it below
        pass
    truth = tabulate(MISERE_ODD, EX4_UPTO).is_p
    found = first_difference(answer, truth, EX4_UPTO)
    if found is None:
        return Verdict("right", f"It agrees with the table up to {EX4_UPTO:,}. Can you prove it?")
    n, really, said = found
    if isinstance(said, Exception):
        return Verdict("format", f"Your function stopped with {type(said).__name__} at n = {n}.", key="format:error")
    powers = n & (n - 1) == 0 and n % 2 == 0
    hint = (
        "Look at the powers of 2 (lesson 4)."
        if powers
        else "Look at the list of P-positions above: what do they have in common, and which even numbers are missing?"
    )
    stronger = (
        "A power of 2 has no odd divisor except 1, so the player to move there cannot move. In misère "
        "play, is that good or bad for them?"
        if powers
        else "Every P-position in the list above is even. Which even numbers up to 40 are not in it?"
    )
    return Verdict(
        "miss",
        f"First counterexample: n = {n}. Your rule says {'P' if said else 'N'}, the table says "
        f"{'P' if really else 'N'}.",
        hint,
        stronger,
        f"miss:{n}",
    )
