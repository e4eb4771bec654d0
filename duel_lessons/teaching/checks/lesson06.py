"""Checks for lesson 06, "What changes when you may subtract 1?" (Factor Duel, book 003).

>>> p = {"rules": "factor-duel", "start": 100, "upto": 100, "ex_number": 91}
>>> SPEC.checks["1"](2, p).kind, SPEC.checks["1"](1, p).kind
('right', 'misconception')
>>> SPEC.checks["4"]([5, 25], p).kind
'misconception'
"""

from __future__ import annotations

from collections.abc import Callable

import sympy

from duel_lessons.engine.game import new_game
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.lesson05 import picks_text
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
)

SPEC = register(LessonSpec("06", needs=("rules", "start", "upto", "ex_number")))

HAND_OVER = (15, 16, 21, 32)
BOOK_MOVES = (25, 25, 25, 5, 10, 5)  # rule book 003, Example 1, from 100


def rules_of(p: Params) -> Rules:
    """Factor Duel (book 003)."""
    return get_rules(p["rules"])


def book_winner(p: Params) -> int:
    """Who wins the book's Example 1 under the book's own rule (the engine follows the rule)."""
    state = new_game(rules_of(p), 100)
    for d in BOOK_MOVES:
        state = state.play(d)
    assert state.winner is not None
    return int(state.winner)


@SPEC.check(1)
def example_winner(answer: object, p: Params) -> Verdict:
    """The winner of Example 1 by the rule (not the book's misprint)."""
    winner = book_winner(p)
    return expect_member(
        answer, {winner}, what="player",
        misconceptions=[Misconception("trust-the-book", 3 - winner,
                                      "That is what the book says. Check it against the rule: who made the move "
                                      "that reached the prime?",
                                      "Moves alternate: move 1 is Player 1's, move 2 is Player 2's, ... "
                                      "Which player made move 6?")],
        hint="Find the move that lands on a prime. Who made it?",
    )


@SPEC.reveal("book")
def book(guess: object, p: Params) -> str:
    """The engine's ending of Example 1."""
    state = new_game(rules_of(p), 100)
    for d in BOOK_MOVES:
        state = state.play(d)
    last = state.transcript().strip().splitlines()[-1]
    return (f"The engine, which follows the rule, ends the game with: \"{last}\" "
            "So the book contradicts its own rule. Example 2 (start 30: moves 15, 5, 5) is consistent.")


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """The guess of section 3 against the table."""
    table = tabulate(rules_of(p), max(HAND_OVER))
    text = picks_text(guess, HAND_OVER, [n for n in HAND_OVER if table.is_p(n)])
    return text + (" From 3 on, the player to move loses exactly from the odd numbers, and 2 (a prime) loses too."
                   " Unlike Divisor Duel, the powers of 2 are not special any more. Section 6 proves it.")


@SPEC.truth("loses", yes="loses", no="wins")
def loses(p: Params) -> Callable[[int], bool]:
    """The Factor Duel table: True where the player to move loses."""
    return tabulate(rules_of(p), int(p["upto"])).is_p


@SPEC.check("proof-1")
def odd_divisors(answer: object, p: Params) -> Verdict:
    """Fact 1: every divisor of an odd number is odd."""
    return expect_choice(
        answer, "odd", ("odd", "even", "prime"),
        misconceptions=[Misconception("prime", "PRIME", "9 is a divisor of 45. Is 9 prime? What do 1, 3, 5, 9, 15 "
                                                         "and 45 have in common?")],
        hint="List the divisors of 45. What do they have in common?",
    )


@SPEC.check("proof-2")
def move_to_two(answer: object, p: Params) -> Verdict:
    """The odd number with a move to 2."""
    return expect_number(
        answer, 3,
        misconceptions=[Misconception("even", lambda a: isinstance(a, int) and a % 2 == 0,
                                      "The question asks for an odd number.")],
        hint="To reach 2 you subtract N - 2, and N - 2 must divide N. Try small odd numbers.",
    )


@SPEC.check("proof-3")
def flaw(answer: object, p: Params) -> Verdict:
    """An even N >= 4 with N - 1 composite."""
    upto = int(p["upto"])
    good = [n for n in range(4, upto + 1, 2) if not sympy.isprime(n - 1)]
    return expect_member(
        answer, good,
        misconceptions=[
            Misconception("odd", lambda a: isinstance(a, int) and a % 2 == 1, "The argument is about even numbers."),
            Misconception("works", lambda a: isinstance(a, int) and a % 2 == 0 and sympy.isprime(a - 1),
                          "From that number, N - 1 really is prime, so the argument works there. Find one where it "
                          "does not."),
        ],
        hint="Is every odd number prime? Subtract 1 from a few even numbers.",
    )


@SPEC.check(2)
def reaches_one(answer: object, p: Params) -> Verdict:
    """The N from 2 to UPTO with an allowed divisor d and N - d = 1."""
    rules = rules_of(p)
    right = [n for n in range(2, int(p["upto"]) + 1) if n - 1 in rules.divisors_of(n)]
    return expect_list(
        answer, right, ordered=True,
        misconceptions=[Misconception("none", [], "Try N = 2, 3, 4 and 5 by hand: which d would you need?")],
        hint="You would have to subtract N - 1. When does N - 1 divide N?",
        stronger="If N - 1 divides N, it also divides N - (N - 1) = 1.",
    )


@SPEC.check(3)
def p_or_n(answer: object, p: Params) -> Verdict:
    """P or N for EX_NUMBER, from the proved closed form."""
    form = closed_form(rules_of(p))
    assert form is not None
    n = int(p["ex_number"])
    right = "P" if form.is_p(n) else "N"
    wrong_prime = "It is composite: look for a factor (try 7)." if not sympy.isprime(n) else ""
    return expect_choice(
        answer, right, ("P", "N"),
        misconceptions=[Misconception("looks-prime", "N" if right == "P" else "P",
                                      "Is EX_NUMBER odd or even? Then use the claim you proved. " + wrong_prime)],
        hint="Odd or even? Prime or composite?",
    )


@SPEC.check(4)
def winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from START."""
    start = int(p["start"])
    rules = rules_of(p)
    right = list(tabulate(rules, start).winning_moves(start))
    legal = rules.divisors_of(start)
    return expect_list(
        answer, right, what="winning moves",
        misconceptions=[
            Misconception("forgot-one", [d for d in right if d != 1] if 1 in right else [-1],
                          "Those moves win, but one winning move is missing: the one every number has."),
            Misconception("even", [d for d in legal if d % 2 == 0],
                          "An even number minus an even divisor is even. Whom does that help?"),
        ],
        hint="A winning move leaves a P-position: an odd number (or a prime). Which divisors of START are odd?",
    )
